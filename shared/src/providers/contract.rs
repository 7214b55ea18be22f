//! Contract checks of the requests an adapter sends, against the provider's
//! published description (Verified: `shared/contracts/verified/`, an
//! excerpt of its connector definition; see its SOURCE.md). A request
//! passes when an operation has its method and path, it carries the
//! headers the description and the connector's request policies require
//! (`authorization: JWT <token>`, `x-namespace: /companies/<id>`, Basic for
//! `/auth`), no header of its own invention (`x-…` others than
//! `x-namespace`, `idempotency-key`), and its JSON body has only fields of
//! the schema, its required ones, and values of the listed ones.
//! (`RecipientInput.language` lists values with a dash while its pattern
//! asks for an underscore: the listed values are checked.)

use serde_json::Value;

use super::stand_in::verified::Request;

const SWAGGER: &str = include_str!("../../contracts/verified/apiDefinition.swagger.json");
const PROPERTIES: &str = include_str!("../../contracts/verified/apiProperties.json");

/// Verified's description, parsed once per check run.
pub struct Verified {
    swagger: Value,
    /// Operations the `authorization: JWT` policy applies to, and the `x-namespace` one.
    jwt_ops: Vec<String>,
    namespace_ops: Vec<String>,
}

impl Default for Verified {
    fn default() -> Self {
        Self::new()
    }
}

impl Verified {
    pub fn new() -> Self {
        let swagger: Value = serde_json::from_str(SWAGGER).expect("the vendored description parses");
        let props: Value = serde_json::from_str(PROPERTIES).expect("the vendored properties parse");
        let ops_of = |header: &str| -> Vec<String> {
            props["properties"]["policyTemplateInstances"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|p| p["parameters"]["x-ms-apimTemplateParameter.name"] == header)
                .flat_map(|p| p["parameters"]["x-ms-apimTemplate-operationName"].as_array().cloned().unwrap_or_default())
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        };
        Verified { jwt_ops: ops_of("authorization"), namespace_ops: ops_of("x-namespace"), swagger }
    }

    fn operation(&self, method: &str, path: &str) -> Option<(String, &Value)> {
        operation(&self.swagger, method, path)
    }

    fn resolve<'a>(&'a self, v: &'a Value) -> &'a Value {
        resolve(&self.swagger, v)
    }

    /// Every way `r` departs from the description (empty: it fits).
    pub fn check(&self, r: &Request) -> Vec<String> {
        let mut errors = Vec::new();
        let Some((template, op)) = self.operation(&r.method, &r.path) else {
            return vec![format!("{} {}: no such operation in the description", r.method, r.path)];
        };
        let id = op["operationId"].as_str().unwrap_or_default().to_string();
        let header = |name: &str| r.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str());
        let at = format!("{} {template} ({id})", r.method);
        for (k, _) in &r.headers {
            let k = k.to_ascii_lowercase();
            if (k.starts_with("x-") && k != "x-namespace") || k == "idempotency-key" {
                errors.push(format!("{at}: header {k} is not in the description"));
            }
        }
        if id == "PostAuthenticate" && !header("authorization").is_some_and(|v| v.starts_with("Basic ") && v.len() > 6) {
            errors.push(format!("{at}: Basic credentials required"));
        }
        if self.jwt_ops.contains(&id) && !header("authorization").is_some_and(|v| v.starts_with("JWT ") && v.len() > 4) {
            errors.push(format!("{at}: authorization: JWT <token> required"));
        }
        if self.namespace_ops.contains(&id) {
            let ok = header("x-namespace").and_then(|v| v.strip_prefix("/companies/")).is_some_and(|c| !c.is_empty() && !c.contains('/'));
            if !ok {
                errors.push(format!("{at}: x-namespace: /companies/<id> required"));
            }
        }
        let params: Vec<&Value> = op["parameters"].as_array().into_iter().flatten().map(|p| self.resolve(p)).collect();
        let body_param = params.iter().find(|p| p["in"] == "body");
        match (body_param, &r.body) {
            (None, Some(_)) => errors.push(format!("{at}: a body the operation does not take")),
            (Some(p), None) if p["required"] == true => errors.push(format!("{at}: the required body is missing")),
            (Some(p), Some(body)) => {
                if !header("content-type").is_some_and(|v| v.starts_with("application/json")) {
                    errors.push(format!("{at}: Content-Type application/json required"));
                }
                // Its patterns contradict its own listed values (see the module docs): not checked.
                check_value(&self.swagger, &p["schema"], body, "body", &at, &mut errors, false);
            }
            _ => {}
        }
        errors
    }

    /// Every departure of all `requests`.
    pub fn check_all(&self, requests: &[Request]) -> Vec<String> {
        requests.iter().flat_map(|r| self.check(r)).collect()
    }
}

/// The operation of `doc` (Swagger 2 or OpenAPI 3) for `method` and `path`
/// (a literal segment before a templated one), with its path template.
fn operation<'a>(doc: &'a Value, method: &str, path: &str) -> Option<(String, &'a Value)> {
    let method = method.to_ascii_lowercase();
    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    let mut best: Option<(usize, String, &Value)> = None;
    for (template, item) in doc["paths"].as_object()? {
        let t: Vec<&str> = template.trim_matches('/').split('/').collect();
        if t.len() != segs.len() {
            continue;
        }
        let fits = t.iter().zip(&segs).all(|(t, s)| !s.is_empty() && (t == s || (t.starts_with('{') && t.ends_with('}'))));
        let literal = t.iter().filter(|t| !t.starts_with('{')).count();
        if let (true, Some(op)) = (fits, item.get(&method)) {
            if best.as_ref().is_none_or(|(l, _, _)| literal > *l) {
                best = Some((literal, template.clone(), op));
            }
        }
    }
    best.map(|(_, t, op)| (t, op))
}

/// `v` with its `$ref` (within `doc`) followed.
fn resolve<'a>(doc: &'a Value, v: &'a Value) -> &'a Value {
    match v.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/")) {
        Some(pointer) => doc.pointer(&format!("/{pointer}")).map(|x| resolve(doc, x)).unwrap_or(&Value::Null),
        None => v,
    }
}

/// Checks `v` against `schema`: listed values, type, only the properties the
/// schema has and its required ones, items, and with `limits` `minLength`, `maxLength` and
/// `pattern` (taken as a whole-value match: the descriptions write a pattern for the whole
/// value, e.g. `[a-z0-9]{0,39}`, which unanchored would match anything).
fn check_value(doc: &Value, schema: &Value, v: &Value, path: &str, at: &str, errors: &mut Vec<String>, limits: bool) {
    let schema = resolve(doc, schema);
    if let Some(allowed) = schema["enum"].as_array() {
        if !allowed.contains(v) {
            errors.push(format!("{at}: {path} = {v} is not a listed value"));
        }
    }
    let type_ok = match schema["type"].as_str() {
        Some("string") => v.is_string(),
        Some("integer") => v.is_i64() || v.is_u64(),
        Some("number") => v.is_number(),
        Some("boolean") => v.is_boolean(),
        Some("array") => v.is_array(),
        Some("object") => v.is_object(),
        _ => true,
    };
    if !type_ok {
        errors.push(format!("{at}: {path} is not of type {}", schema["type"]));
        return;
    }
    if let Some(text) = v.as_str().filter(|_| limits) {
        if schema["maxLength"].as_u64().is_some_and(|max| text.chars().count() as u64 > max) {
            errors.push(format!("{at}: {path} is longer than {}", schema["maxLength"]));
        }
        if schema["minLength"].as_u64().is_some_and(|min| (text.chars().count() as u64) < min) {
            errors.push(format!("{at}: {path} is shorter than {}", schema["minLength"]));
        }
        if let Some(pattern) = schema["pattern"].as_str() {
            let whole = regex::Regex::new(&format!("^(?:{pattern})$"));
            if !whole.is_ok_and(|re| re.is_match(text)) {
                errors.push(format!("{at}: {path} = {v} does not match {pattern}"));
            }
        }
    }
    if let (Some(obj), Some(props)) = (v.as_object(), schema["properties"].as_object()) {
        for (k, x) in obj {
            match props.get(k) {
                Some(s) => check_value(doc, s, x, &format!("{path}.{k}"), at, errors, limits),
                None => errors.push(format!("{at}: field {path}.{k} is not in the description")),
            }
        }
        for req in schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str) {
            if !obj.contains_key(req) {
                errors.push(format!("{at}: required field {path}.{req} is missing"));
            }
        }
    }
    if let (Some(items), Some(arr)) = (schema.get("items"), v.as_array()) {
        for (i, x) in arr.iter().enumerate() {
            check_value(doc, items, x, &format!("{path}[{i}]"), at, errors, limits);
        }
    }
}

const WHEREBY: &str = include_str!("../../contracts/whereby/openapi.json");
const DIRECT_PLUS: &str = include_str!("../../contracts/dnb/direct-plus.json");

/// An OpenAPI 3 description: Whereby's (`shared/contracts/whereby/`) or
/// D&B Direct+'s (`shared/contracts/dnb/`). A request passes when an
/// operation has its method and path, its path and query parameters are
/// the operation's (its required ones given, each value fitting its
/// schema), it carries the credentials of the operation's security scheme
/// (`Authorization: Basic …` or `Bearer …`), no header of its own invention,
/// and its JSON body fits the operation's request body schema (none where
/// it has none).
pub struct OpenApi {
    doc: Value,
}

impl OpenApi {
    pub fn whereby() -> Self {
        OpenApi { doc: serde_json::from_str(WHEREBY).expect("the vendored description parses") }
    }

    pub fn direct_plus() -> Self {
        OpenApi { doc: serde_json::from_str(DIRECT_PLUS).expect("the vendored description parses") }
    }

    /// The operation's security scheme (`basic` or `bearer`): its own, else the description's.
    fn scheme(&self, op: &Value) -> Option<String> {
        let security = op.get("security").or_else(|| self.doc.get("security")).or_else(|| self.doc.pointer("/components/security"))?;
        let name = security.as_array()?.first()?.as_object()?.keys().next()?.clone();
        self.doc.pointer(&format!("/components/securitySchemes/{name}/scheme")).and_then(Value::as_str).map(str::to_ascii_lowercase)
    }

    pub fn check(&self, r: &Request) -> Vec<String> {
        let (path, query) = r.path.split_once('?').unwrap_or((&r.path, ""));
        let Some((template, op)) = operation(&self.doc, &r.method, path) else {
            return vec![format!("{} {}: no such operation in the description", r.method, path)];
        };
        let at = format!("{} {template}", r.method);
        let header = |name: &str| r.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str());
        let mut errors = Vec::new();
        for (k, _) in &r.headers {
            let k = k.to_ascii_lowercase();
            if k.starts_with("x-") || k == "idempotency-key" {
                errors.push(format!("{at}: header {k} is not in the description"));
            }
        }
        if let Some(scheme) = self.scheme(op) {
            let prefix = if scheme == "basic" { "Basic " } else { "Bearer " };
            let given = header("authorization").and_then(|v| v.strip_prefix(prefix)).is_some_and(|t| !t.trim().is_empty());
            if !given {
                errors.push(format!("{at}: authorization: {prefix}<credentials> required"));
            }
        }
        // Parameters: the path's templated segments and the query's pairs.
        let params: Vec<&Value> = op["parameters"].as_array().into_iter().flatten().map(|p| resolve(&self.doc, p)).collect();
        let param = |place: &str, name: &str| params.iter().find(|p| p["in"] == place && p["name"] == name).copied();
        for (t, s) in template.trim_matches('/').split('/').zip(path.trim_matches('/').split('/')) {
            if let Some(name) = t.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
                if let Some(schema) = param("path", name).map(|p| &p["schema"]).filter(|s| !s.is_null()) {
                    check_value(&self.doc, schema, &Value::String(s.to_string()), name, &at, &mut errors, true);
                }
            }
        }
        let mut given = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            given.push(name.to_string());
            match param("query", name) {
                Some(p) if !p["schema"].is_null() => {
                    let schema = resolve(&self.doc, &p["schema"]);
                    // A query value is text: a number's schema is checked on the number it spells.
                    let v = match (schema["type"].as_str(), value.parse::<i64>()) {
                        (Some("integer"), Ok(n)) => Value::from(n),
                        _ => Value::String(value.to_string()),
                    };
                    check_value(&self.doc, schema, &v, name, &at, &mut errors, true);
                }
                Some(_) => {}
                None => errors.push(format!("{at}: query parameter {name} is not in the description")),
            }
        }
        for p in &params {
            if p["required"] == true && p["in"] == "query" && !given.iter().any(|g| p["name"] == g.as_str()) {
                errors.push(format!("{at}: required query parameter {} is missing", p["name"]));
            }
        }
        let schema = op.pointer("/requestBody/content/application~1json/schema");
        match (schema, &r.body) {
            (None, Some(_)) => errors.push(format!("{at}: a body the operation does not take")),
            (Some(_), None) => errors.push(format!("{at}: the request body is missing")),
            (Some(schema), Some(body)) => {
                if !header("content-type").is_some_and(|v| v.starts_with("application/json")) {
                    errors.push(format!("{at}: Content-Type application/json required"));
                }
                check_value(&self.doc, schema, body, "body", &at, &mut errors, true);
            }
            (None, None) => {}
        }
        errors
    }

    pub fn check_all(&self, requests: &[Request]) -> Vec<String> {
        requests.iter().flat_map(|r| self.check(r)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn req(method: &str, path: &str, headers: &[(&str, &str)], body: Option<Value>) -> Request {
        Request {
            method: method.into(),
            path: path.into(),
            headers: headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            body,
        }
    }

    const JWT: (&str, &str) = ("authorization", "JWT abc");
    const NS: (&str, &str) = ("x-namespace", "/companies/c1");
    const CT: (&str, &str) = ("content-type", "application/json");

    #[test]
    fn a_request_off_the_description_fails() {
        let v = Verified::new();
        let recipient = json!({"givenName": "A", "familyName": "B", "email": "a@b.se", "language": "sv-SE", "signingMethod": "bankid-se",
            "role": {"action": "sign", "name": "signer", "label": "Signer"}, "order": 1});
        assert_eq!(v.check(&req("POST", "/envelopes/e1/recipients", &[JWT, NS, CT], Some(recipient.clone()))), Vec::<String>::new());
        assert_eq!(v.check(&req("POST", "/auth", &[("authorization", "Basic eDp5")], None)), Vec::<String>::new());
        // The invented API of before: no such paths.
        assert_eq!(v.check(&req("POST", "/envelopes", &[JWT, NS, CT], Some(json!({})))).len(), 1);
        assert_eq!(v.check(&req("POST", "/auth/register", &[CT], Some(json!({})))).len(), 1);
        // A field the schema lacks, a missing required one, an unlisted value.
        let mut extra = recipient.clone();
        extra["documents"] = json!([]);
        assert!(v.check(&req("POST", "/envelopes/e1/recipients", &[JWT, NS, CT], Some(extra)))[0].contains("body.documents"));
        let mut missing = recipient.clone();
        missing.as_object_mut().unwrap().remove("role");
        assert!(v.check(&req("POST", "/envelopes/e1/recipients", &[JWT, NS, CT], Some(missing)))[0].contains("body.role"));
        let mut method = recipient.clone();
        method["signingMethod"] = "bankid_se".into();
        assert!(v.check(&req("POST", "/envelopes/e1/recipients", &[JWT, NS, CT], Some(method)))[0].contains("signingMethod"));
        // Headers: the token as a bearer, no namespace, an invented header.
        let bearer = v.check(&req("GET", "/envelopes/e1", &[("authorization", "Bearer abc"), NS], None));
        assert!(bearer[0].contains("JWT"));
        assert!(v.check(&req("GET", "/envelopes/e1", &[JWT], None))[0].contains("x-namespace"));
        assert!(v.check(&req("GET", "/envelopes/e1", &[JWT, NS, ("x-api-key", "k")], None))[0].contains("x-api-key"));
        // The company call needs the token but no namespace.
        assert_eq!(v.check(&req("GET", "/companies/c1", &[JWT], None)), Vec::<String>::new());
        assert_eq!(
            v.check(&req("PUT", "/envelopes/e1/publish-status", &[JWT, NS, CT], Some(json!({"published": true})))),
            Vec::<String>::new()
        );
        assert_eq!(v.check(&req("PUT", "/envelopes/e1/publish-status", &[JWT, NS, CT], Some(json!({"published": "yes"})))).len(), 2);
    }

    #[test]
    fn a_meeting_request_off_the_whereby_description_fails() {
        let w = OpenApi::whereby();
        const KEY: (&str, &str) = ("authorization", "Bearer k1");
        let body = json!({"endDate": "2026-12-01T10:30:00Z", "roomMode": "normal", "roomNamePrefix": "a1b2", "fields": ["hostRoomUrl"]});
        assert_eq!(w.check(&req("POST", "/meetings", &[KEY, CT], Some(body.clone()))), Vec::<String>::new());
        assert_eq!(w.check(&req("DELETE", "/meetings/m1", &[KEY], None)), Vec::<String>::new());
        // The invented API of before, a missing key, an invented header.
        assert_eq!(w.check(&req("POST", "/meeting/rooms", &[KEY, CT], Some(body.clone()))).len(), 1);
        assert!(w.check(&req("DELETE", "/meetings/m1", &[], None))[0].contains("Bearer"));
        assert!(w.check(&req("DELETE", "/meetings/m1", &[KEY, ("idempotency-key", "x")], None))[0].contains("idempotency-key"));
        // No end date, an unlisted mode, a prefix off the pattern or too long, an unknown field.
        let without = |k: &str| {
            let mut b = body.clone();
            b.as_object_mut().unwrap().remove(k);
            b
        };
        let with = |k: &str, v: Value| {
            let mut b = body.clone();
            b[k] = v;
            b
        };
        assert!(w.check(&req("POST", "/meetings", &[KEY, CT], Some(without("endDate"))))[0].contains("endDate"));
        assert!(w.check(&req("POST", "/meetings", &[KEY, CT], Some(with("roomMode", "large".into()))))[0].contains("roomMode"));
        assert!(w.check(&req("POST", "/meetings", &[KEY, CT], Some(with("roomNamePrefix", "Möte 1".into()))))[0].contains("match"));
        assert_eq!(w.check(&req("POST", "/meetings", &[KEY, CT], Some(with("roomNamePrefix", "a".repeat(40).into())))).len(), 2);
        assert!(w.check(&req("POST", "/meetings", &[KEY, CT], Some(with("title", "x".into()))))[0].contains("body.title"));
        assert!(w.check(&req("POST", "/meetings", &[KEY, CT], Some(with("fields", json!(["all"])))))[0].contains("fields[0]"));
        assert!(w.check(&req("DELETE", "/meetings/m1", &[KEY, CT], Some(json!({}))))[0].contains("does not take"));
    }

    #[test]
    fn a_credit_request_off_the_direct_plus_description_fails() {
        let d = OpenApi::direct_plus();
        const BEARER: (&str, &str) = ("authorization", "Bearer t1");
        const BASIC: (&str, &str) = ("authorization", "Basic a2V5OnNlY3JldA==");
        let token = json!({"grant_type": "client_credentials"});
        assert_eq!(d.check(&req("POST", "/v2/token", &[BASIC, CT], Some(token.clone()))), Vec::<String>::new());
        let matched = "/v1/match/cleanseMatch?countryISOAlpha2Code=SE&registrationNumber=5560000001";
        assert_eq!(d.check(&req("GET", matched, &[BEARER], None)), Vec::<String>::new());
        let blocks = "/v1/data/duns/354000001?blockIDs=companyinfo_L2_v1,financialstrengthinsight_L2_v1";
        assert_eq!(d.check(&req("GET", blocks, &[BEARER], None)), Vec::<String>::new());
        // The token with a bearer, the data with Basic, another grant.
        assert!(d.check(&req("POST", "/v2/token", &[BEARER, CT], Some(token)))[0].contains("Basic"));
        assert!(d.check(&req("GET", blocks, &[BASIC], None))[0].contains("Bearer"));
        assert!(d.check(&req("POST", "/v2/token", &[BASIC, CT], Some(json!({"grant_type": "password"}))))[0].contains("grant_type"));
        // The invented API of before; a missing or unknown query parameter; a D-U-N-S off its pattern.
        assert_eq!(d.check(&req("POST", "/bisnode/reports", &[BEARER, CT], Some(json!({})))).len(), 1);
        assert!(d.check(&req("GET", "/v1/match/cleanseMatch?registrationNumber=1", &[BEARER], None))[0].contains("countryISOAlpha2Code"));
        assert!(d.check(&req("GET", "/v1/match/cleanseMatch?countryISOAlpha2Code=SWE", &[BEARER], None))[0].contains("longer"));
        assert!(d.check(&req("GET", &format!("{matched}&kind=person"), &[BEARER], None))[0].contains("kind"));
        assert!(d.check(&req("GET", "/v1/data/duns/12?blockIDs=x", &[BEARER], None))[0].contains("duns"));
        assert!(d.check(&req("GET", "/v1/data/duns/354000001", &[BEARER], None))[0].contains("blockIDs"));
    }
}

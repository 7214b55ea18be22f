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

    /// The operation for `method` and `path` (a literal segment before a
    /// templated one), with its path template.
    fn operation(&self, method: &str, path: &str) -> Option<(String, &Value)> {
        let method = method.to_ascii_lowercase();
        let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
        let mut best: Option<(usize, String, &Value)> = None;
        for (template, item) in self.swagger["paths"].as_object()? {
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

    fn resolve<'a>(&'a self, v: &'a Value) -> &'a Value {
        match v.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/")) {
            Some(pointer) => self.swagger.pointer(&format!("/{pointer}")).map(|x| self.resolve(x)).unwrap_or(&Value::Null),
            None => v,
        }
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
                self.check_value(&p["schema"], body, "body", &at, &mut errors);
            }
            _ => {}
        }
        errors
    }

    fn check_value(&self, schema: &Value, v: &Value, path: &str, at: &str, errors: &mut Vec<String>) {
        let schema = self.resolve(schema);
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
        if let (Some(obj), Some(props)) = (v.as_object(), schema["properties"].as_object()) {
            for (k, x) in obj {
                match props.get(k) {
                    Some(s) => self.check_value(s, x, &format!("{path}.{k}"), at, errors),
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
                self.check_value(items, x, &format!("{path}[{i}]"), at, errors);
            }
        }
    }

    /// Every departure of all `requests`.
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
}

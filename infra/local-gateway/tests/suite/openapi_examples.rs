//! The OpenAPI document's request bodies say what the server does.
//! For every operation with a request body, against the router on
//! a copy of the seeded world:
//! - its `example` (ids, e-mails and dates adapted to the world) is accepted:
//!   2xx, or one of the answers [`EXPECTED`] lists with its reason, and never
//!   a validation error (a 400/422 naming fields, or `invalid_request_body`);
//! - each field the schema marks `required`, left out, is refused naming it;
//! - each field it does not mark required, left out, is not refused for it;
//! - each `maxLength`, `maximum` and `minimum` it declares is enforced: one
//!   past the bound is refused naming the field, a text at the bound is not.
//!
//! Nested objects are probed one level down (e.g. `profile.city`); arrays'
//! items, `pattern` and `format` are not probed here (the examples show one
//! value each passes; `openapi_valid` in api-docs checks the examples against
//! their schemas).

use crate::world;

use axum::http::Method;
use serde_json::{json, Map, Value};
use shared::testkit;
use std::collections::BTreeMap;
use std::sync::Arc;
use world::*;

/// Operations whose example, even adapted, cannot succeed in the world, and
/// the answer they give instead (never a validation error).
const EXPECTED: &[(&str, &str, u16, &str)] = &[
    // Codes and tokens that only a mail or an authenticator app holds.
    ("post", "/api/2fa/totp/confirm/", 400, "no authenticator set-up was started"),
    ("post", "/api/2fa/totp/disable/", 400, "the authenticator app is not on"),
    ("post", "/api/customer/activation/", 400, "the token of an activation mail"),
    ("post", "/api/password/recover/confirm/", 400, "the token of a recovery mail"),
    ("post", "/api/profile/mail/unsubscribe/", 400, "the token of an event mail's unsubscribe link"),
    ("post", "/api/token/2fa/", 401, "the two-factor token of a sign-in"),
    ("post", "/api/resend/2fa/", 401, "the two-factor token of a sign-in"),
    // Services the world's customer does not hold, states it is not in.
    ("post", "/api/services/credit-check/", 403, "the world's customer holds no Bisnode service"),
    ("post", "/api/services/inkasso/claims/", 403, "the world's customer holds no Incasso service"),
    ("post", "/api/services/inkasso/claims/upload-url/", 403, "the world's customer holds no Incasso service"),
    ("post", "/api/services/video-meeting/", 403, "the world's customer holds no video-meeting service"),
    ("post", "/api/rating/create/", 400, "the world's case is not closed (rate_closed_cases_only)"),
    ("post", "/api/verified/auth/", 400, "the stand-in signing provider refuses a password with 'wrong' in it"),
    // Validated first, then looked up: the world's customer has no Inkasso account or claim.
    ("put", "/api/admin/inkasso/{customer_uid}/prospect/", 404, "the world's customer has applied for no Inkasso account"),
    ("put", "/api/admin/inkasso/{customer_uid}/claims/{uid}/", 404, "the world's customer has registered no claim"),
    // Validated first, then looked up: no BankID order was started in the world's browser.
    ("post", "/api/bankid/collect/", 404, "no BankID order was started by this caller's browser"),
    ("post", "/api/bankid/cancel/", 404, "no BankID order was started by this caller's browser"),
    ("post", "/api/customer/erasure/{uid}/{id}/decide/", 404, "the world's customer has asked for no erasure"),
];

/// Operations whose fields are checked only after a state the world cannot
/// reach (see [`EXPECTED`]): the example is sent, the fields not probed.
const UNPROBED: &[(&str, &str)] = &[
    ("post", "/api/services/credit-check/"),
    ("post", "/api/services/inkasso/claims/"),
    ("post", "/api/services/inkasso/claims/upload-url/"),
    ("post", "/api/services/video-meeting/"),
    ("post", "/api/rating/create/"),
    ("post", "/api/verified/auth/"),
    ("post", "/api/2fa/totp/confirm/"),
    ("post", "/api/2fa/totp/disable/"),
    ("post", "/api/token/2fa/"),
    ("post", "/api/resend/2fa/"),
    ("post", "/api/profile/mail/unsubscribe/"),
];

/// Fields the server requires or bounds only in some cases, so the schema
/// cannot mark them (its description says when): leaving them out or
/// crossing their bound is not probed.
const CONDITIONAL: &[(&str, &str, &str, &str)] = &[
    ("post", "/api/case/hour/create/", "hour", "one of hour, non_billable_hour, rattsskydd_hour at least 0.01"),
    ("put", "/api/admin/inkasso/{customer_uid}/prospect/", "creditor_id", "required when the state is approved"),
    ("put", "/api/inkasso/prospect/", "iban", "given together with bic, or neither"),
    ("put", "/api/inkasso/prospect/", "bic", "given together with iban, or neither"),
    ("put", "/api/case/hour/edit/{id}/", "hour", "one of hour, non_billable_hour, rattsskydd_hour at least 0.01"),
    ("put", "/api/case/update/{uid}/", "estimated_hours", "required from staff and lawyers, not from the customer side"),
    ("post", "/api/customers/user/create/", "customer", "required from admin and sales persons, ignored for customers"),
    ("post", "/api/message/", "text", "required unless a file is attached"),
    ("post", "/api/serviceplans/", "hours", "required for service 1 (consultancy hours)"),
    ("put", "/api/serviceplans/{id}/", "hours", "required for service 1 (consultancy hours)"),
    ("post", "/api/customer/purchase-services/", "package_id", "exactly one of package_id, service_plan_id, custom"),
    ("post", "/api/customer/purchase-services/", "name", "read only for a custom package"),
    ("post", "/api/customer/purchase-services/", "hours", "read only for a custom package"),
    ("post", "/api/customer/purchase-services/", "price", "read only for a custom package"),
    ("post", "/api/customer/purchase-services/", "duration_days", "read only for a custom package"),
    ("post", "/api/services/add/", "package_id", "exactly one of package_id, service_plan_id, custom"),
    ("post", "/api/services/add/", "name", "read only for a custom package"),
    ("post", "/api/services/add/", "hours", "read only for a custom package"),
    ("post", "/api/services/add/", "price", "read only for a custom package"),
    ("post", "/api/services/add/", "duration_days", "read only for a custom package"),
    ("post", "/api/salesperson/create/", "hourly_rate", "a lawyer's field, ignored for sales persons"),
    ("put", "/api/salesperson/update/{uid}/", "hourly_rate", "a lawyer's field, ignored for sales persons"),
    ("patch", "/api/puchasedservices/{id}/", "hour", "required for consultancy hours, refused for other services"),
    ("put", "/api/lawyer/update/{uid}/", "email", "the e-mail is not changed by an update"),
    ("put", "/api/salesperson/update/{uid}/", "email", "the e-mail is not changed by an update"),
];

/// A text outside its field's pattern refused by a message that is not
/// about one field: (field, message key, why).
const PATTERN_ANSWERS: &[(&str, &str, &str)] =
    &[("name", "document_type_not_allowed", "a file name's extension is the file's type: refused as a type the API does not take")];

/// Callers other than the matrix's first permitted one: hours are entered
/// by the lawyer (admin must name one).
const CALLER: &[(&str, &str, &str)] = &[
    ("post", "/api/case/additional_hour/create/", "lawyer"),
    ("post", "/api/case/hour/create/", "lawyer"),
    ("post", "/api/lawyer/video-meetings/", "lawyer"),
];

/// Who sends the example: the first of these the matrix lets through.
const PREFERENCE: [&str; 6] = ["admin", "lawyer", "sales_person", "customer", "contact", "anonymous"];

fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => resolve(doc, &doc["components"]["schemas"][r.rsplit('/').next().unwrap()]),
        None => schema,
    }
}

/// The object schema of a body: `$ref`s followed, `allOf` merged, the
/// non-null branch of `oneOf` (an optional body) taken.
fn object(doc: &Value, schema: &Value) -> Value {
    let s = resolve(doc, schema);
    if let Some(branches) = s.get("oneOf").and_then(Value::as_array) {
        if let Some(b) = branches.iter().find(|b| b.get("type") != Some(&json!("null"))) {
            return object(doc, b);
        }
    }
    let mut out = s.clone();
    if let Some(parts) = s.get("allOf").and_then(Value::as_array) {
        let (mut props, mut required, mut example) = (Map::new(), vec![], s.get("example").cloned());
        for p in parts {
            let p = object(doc, p);
            // The first part's property schema is the field's; later parts
            // only add conditions to it (required, not null, one branch).
            for (k, v) in p["properties"].as_object().cloned().unwrap_or_default() {
                props.entry(k).or_insert(v);
            }
            required.extend(p["required"].as_array().cloned().unwrap_or_default());
            example = example.or_else(|| p.get("example").filter(|e| !e.is_null()).cloned());
        }
        out = json!({"type": "object", "properties": props, "required": required, "example": example});
    }
    out
}

/// The example of an operation's body: the media type's, else the schema's.
fn example(doc: &Value, op: &Value) -> Option<Value> {
    let media = op["requestBody"]["content"].as_object()?.values().next()?;
    media.get("example").cloned().or_else(|| object(doc, &media["schema"]).get("example").filter(|e| !e.is_null()).cloned())
}

fn fresh_email() -> String {
    format!("ex-{}@example.com", uuid::Uuid::new_v4().simple())
}

/// The example with the world's ids (and fresh e-mails, today's dates).
fn adapt(method: &str, path: &str, body: &Value, w: &Ids) -> Value {
    let mut b = body.clone();
    let Some(o) = b.as_object_mut() else { return b };
    let set = |o: &mut Map<String, Value>, k: &str, v: Value| {
        if o.contains_key(k) {
            o.insert(k.into(), v);
        }
    };
    set(o, "case_uid", json!(w.case));
    set(o, "customer", json!(w.customer));
    set(o, "customer_uid", json!(w.customer));
    set(o, "package_id", json!(w.package));
    set(o, "service_plan_id", json!(w.service_plan));
    set(o, "department_id", json!(w.department));
    set(o, "knowledge_sectors", json!([w.knowledge_sector]));
    set(o, "email", json!(fresh_email()));
    set(o, "refresh_token", json!(w.refresh_token));
    set(o, "date", json!(chrono::Utc::now().date_naive().to_string()));
    if path.starts_with("/api/case/") && path.contains("create") {
        set(o, "type", json!(w.case_type));
    }
    if path.starts_with("/api/case/update/") {
        set(o, "type", json!(w.case_type));
        o.remove("customer");
    }
    if path == "/api/customer/create/" || path.starts_with("/api/customer/update/") {
        set(o, "sector", json!(w.business_sector.to_string()));
    }
    match (method, path) {
        ("post", "/api/academy/lessons/order/") => set(o, "ids", json!([w.lesson])),
        ("post", "/api/case/followers/{id}/") => set(o, "user", json!(w.contact)),
        ("put", "/api/case/hour/mass-update/") => set(o, "ids", json!([w.hour])),
        ("put", "/api/case/additional_hour/mass-update/") => set(o, "ids", json!([w.additional_hour])),
        // The world holds this month's entry already.
        ("post", "/api/case/additional_hour/create/") => set(o, "month", json!("2025-01")),
        ("put", "/api/case/additional_hour/edit/{id}/") => set(o, "month", json!(chrono::Utc::now().format("%Y-%m").to_string())),
        // A meeting starts ahead of now (and within the booking horizon): the
        // document's fixed example time passes.
        ("post", "/api/lawyer/video-meetings/") => set(o, "start", json!(tomorrow_at_nine())),
        ("post", "/api/token/") | ("post", "/api/password/recover/") => set(o, "email", json!(w.customer_email)),
        ("put", "/api/salesperson/update/{uid}/") => {
            o.remove("knowledge_sectors");
            o.remove("user_sub_type");
        }
        _ => {}
    }
    b
}

/// Tomorrow 09:00 in Sweden's winter offset, as the document's example
/// writes a meeting's start.
fn tomorrow_at_nine() -> String {
    let day = chrono::Utc::now().date_naive() + chrono::Duration::days(1);
    format!("{day}T09:00:00+01:00")
}

/// A text longer than any the API bounds (the longest, 10,000 characters)
/// and well within the body limit.
const UNBOUNDED_TEXT: usize = 20_000;

/// Refusals of a value the schema leaves unbounded that are no bound: a
/// check digit, a list the server holds, a provider's allow-list (the
/// field's description says which). (field, keyword probed, why.)
const FREE_OF_RULES: &[(&str, &str, &str)] = &[
    ("account_manager", "maxLength", "a sales person's uid"),
    ("address.country", "maxLength", "a country code or name from the country list"),
    ("approved_ip", "maxLength", "an IP address"),
    ("attachment_key", "maxLength", "the key an upload-url answer gave"),
    ("bank_giro", "maxLength", "a bankgiro number with its check digit"),
    ("company_size", "maxLength", "one of GET /api/company-size/list/"),
    ("department", "maximum", "a department the catalogue holds"),
    ("key", "maxLength", "the key an upload-url answer gave"),
    ("knowledge_sector", "maximum", "a knowledge sector the catalogue holds"),
    ("name", "maxLength", "a PDF's file name (.pdf)"),
    ("plus_giro", "maxLength", "a plusgiro number with its check digit"),
    ("type", "maximum", "a case type the catalogue holds"),
    ("version", "maximum", "the legal text's current version"),
];

/// The answer refuses `field` itself (or a part of it) by name.
fn names_exactly(body: &Value, field: &str) -> bool {
    body["errors"].as_object().is_some_and(|e| e.keys().any(|k| k == field || k.starts_with(&format!("{field}."))))
}

/// A 400/422 that refuses the body's shape or fields.
fn validation_error(status: u16, body: &Value) -> bool {
    (status == 400 || status == 422)
        && (body["message"] == "invalid_request_body" || body["errors"].as_object().is_some_and(|e| !e.is_empty()))
}

/// The answer refuses `field` (or a part of it, e.g. `profile.city`), or the
/// body as a whole when a field it cannot be read without is missing.
fn names(status: u16, body: &Value, field: &str) -> bool {
    (status == 400 || status == 422)
        && (body["message"] == "invalid_request_body"
            || body["errors"].as_object().is_some_and(|e| e.keys().any(|k| k == field || k.starts_with(&format!("{field}.")))))
}

struct Probe {
    what: String,
    body: Value,
    /// true: must be refused naming `field`; false: must not name it.
    refused: bool,
    field: String,
    /// A value the schema allows as it is: not refused as a malformed body
    /// either (a number a generated client may write as `5.0`).
    well_formed: bool,
    /// A value the schema does not bound: the server must not refuse it for
    /// the field, else the schema lacks this rule (`maxLength`, ...).
    undocumented: Option<&'static str>,
}

/// The probes of one object schema at `prefix` inside `root`.
fn probes(doc: &Value, schema: &Value, value: &Value, at: &[String], root: &Value, out: &mut Vec<Probe>) {
    let schema = object(doc, schema);
    let Some(props) = schema["properties"].as_object() else { return };
    let required: Vec<&str> = schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    let with = |path: &[String], v: Option<Value>| {
        let mut b = root.clone();
        let mut cur = &mut b;
        for k in &path[..path.len() - 1] {
            cur = &mut cur[k.as_str()];
        }
        let last = path.last().unwrap().as_str();
        match v {
            Some(v) => {
                cur[last] = v;
            }
            None => {
                cur.as_object_mut().unwrap().remove(last);
            }
        }
        b
    };
    for (name, p) in props {
        let mut path = at.to_vec();
        path.push(name.clone());
        let field = path.join(".");
        let p = resolve(doc, p);
        // A probe of this field that names nothing else (well formed or not
        // as its value alone shows; no rule the schema lacks).
        let probe = |what: String, v: Option<Value>, refused: bool| Probe {
            what,
            body: with(&path, v),
            refused,
            field: field.clone(),
            well_formed: false,
            undocumented: None,
        };
        // Left out: refused when required, accepted when optional (and sent in the example).
        let is_required = required.contains(&name.as_str());
        if is_required || value.get(name).is_some() {
            out.push(probe(format!("without {} {field}", if is_required { "required" } else { "optional" }), None, is_required));
        }
        if let Some(max) = p.get("maxLength").and_then(Value::as_u64) {
            let long = "x".repeat(max as usize + 1);
            out.push(probe(format!("{field} of {} characters", max + 1), Some(json!(long)), true));
            // A text at the bound is probed where any text is valid (an
            // e-mail of x's is not, whether or not the schema says `format`).
            if p.get("format").is_none() && p.get("pattern").is_none() && !name.contains("email") && max > 0 {
                let at_max = "x".repeat(max as usize);
                out.push(probe(format!("{field} of {max} characters"), Some(json!(at_max)), false));
            }
        }
        let number = |v: &Value| v.as_f64();
        if let Some(max) = p.get("maximum").and_then(number) {
            let over = if p["type"] == "integer" { json!(max as i64 + 1) } else { json!(max + 0.01) };
            out.push(probe(format!("{field} = {over}"), Some(over), true));
        }
        if let Some(min) = p.get("minimum").and_then(number) {
            let under = if p["type"] == "integer" { json!(min as i64 - 1) } else { json!(min - 0.01) };
            out.push(probe(format!("{field} = {under}"), Some(under), true));
        }
        let integer = p["type"] == "integer" || p["type"].as_array().is_some_and(|t| t.contains(&json!("integer")));
        // JSON Schema's integer admits a whole number written with a
        // fraction; the server reads it as that integer.
        if let (true, Some(n)) = (integer, value.get(name).and_then(Value::as_i64)) {
            out.push(Probe { well_formed: true, ..probe(format!("{field} = {n}.0"), Some(json!(n as f64)), false) });
        }
        // An integer past its format's range, where no maximum is tighter.
        if integer && p.get("maximum").is_none() {
            let over = match p["format"].as_str() {
                Some("int32") => Some(json!(i32::MAX as u64 + 1)),
                Some("int64") => Some(json!(i64::MAX as u64 + 1)),
                _ => None,
            };
            if let Some(over) = over {
                out.push(probe(format!("{field} = {over}"), Some(over), true));
            }
        }
        // What the schema leaves unbounded, the server must not bound.
        let typed = |t: &str| p["type"] == t || p["type"].as_array().is_some_and(|a| a.contains(&json!(t)));
        let free_text = p.get("enum").is_none() && p.get("format").is_none() && p.get("pattern").is_none() && p.get("const").is_none();
        // A uid or a date the client has not got is null (or left out), and
        // an empty text is none of these formats.
        if typed("string") && ["uuid", "date", "date-time"].iter().any(|f| p["format"] == *f) && value.get(name).is_some() {
            out.push(probe(format!("{field} = \"\""), Some(json!("")), true));
        }
        // A text the field's pattern does not allow is refused (the
        // patterns of phones, identity numbers, addresses and e-mails:
        // the server's checks written for clients, api_docs::patterns).
        // A required text's (api_docs::patterns::visible): one that shows
        // nothing once cleaned.
        static WRITTEN: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
        let written = |pat: &str| {
            WRITTEN.get_or_init(|| api_docs::patterns::all_fields().into_iter().map(|f| f.2).collect()).iter().any(|p| p == pat)
        };
        if let Some(pattern) = p.get("pattern").and_then(Value::as_str).filter(|&pat| written(pat)) {
            let r = regex::Regex::new(pattern).unwrap_or_else(|e| panic!("{field}: {pattern}: {e}"));
            if let Some(bad) = ["x", "#", "-", "x@x", "1", "\u{200B}\u{1}"].into_iter().find(|c| !r.is_match(c)) {
                out.push(probe(format!("{field} = {bad:?}, outside its pattern"), Some(json!(bad)), true));
            }
        }
        let mut unbounded = |rule: &'static str, v: Value| {
            let what = format!(
                "{field} = {}",
                if v.to_string().len() > 40 { format!("<{} characters>", v.as_str().map_or(0, str::len)) } else { v.to_string() }
            );
            out.push(Probe { undocumented: Some(rule), ..probe(what, Some(v), false) })
        };
        if typed("string") && free_text {
            if p.get("maxLength").is_none() {
                unbounded("maxLength", json!("x".repeat(UNBOUNDED_TEXT)));
            }
            if p.get("minLength").is_none() {
                unbounded("minLength", json!(""));
            }
        }
        if (typed("integer") || typed("number")) && p.get("enum").is_none() {
            if p.get("minimum").is_none() && p.get("exclusiveMinimum").is_none() {
                unbounded("minimum", json!(-1));
            }
            if p.get("maximum").is_none() && p.get("exclusiveMaximum").is_none() {
                unbounded("maximum", json!(i32::MAX));
            }
        }
        if let (Some(v), true) = (value.get(name), p.get("properties").is_some() || p.get("allOf").is_some()) {
            if v.is_object() {
                probes(doc, p, v, &path, root, out);
            }
        }
    }
}

fn matrix() -> BTreeMap<String, Vec<u16>> {
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../security/authz-matrix.csv")).unwrap();
    text.lines()
        .skip(1)
        .filter_map(|l| l.split_once(','))
        .map(|(op, row)| (op.to_string(), row.split(',').map(|s| s.parse().unwrap()).collect()))
        .collect()
}

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
const MP4: &[u8] = b"\0\0\0\x18ftypmp42";

/// The upload a confirming operation needs first: (upload-url path, its
/// body, the bytes to PUT, the content type).
fn upload_for(path: &str, w: &Ids) -> Option<(String, Value, &'static [u8], &'static str)> {
    let pdf = |p: &str, name: &str, mut b: Value| {
        b["name"] = json!(name);
        Some((p.to_string(), b, PDF, "application/pdf"))
    };
    match path {
        "/api/case/file/confirm/" => pdf("/api/case/file/upload-url/", "a.pdf", json!({"case_uid": w.case})),
        "/api/template_file/" => pdf("/api/template_file/upload-url/", "mall.pdf", json!({})),
        "/api/services/contract-sign/" | "/api/services/contract-sign/{uid}/" => {
            pdf("/api/services/contract-sign/upload-url/", "avtal.pdf", json!({}))
        }
        "/api/profile/image/confirm/" => {
            Some(("/api/profile/image/upload-url/".into(), json!({"content_type": "image/png"}), PNG, "image/png"))
        }
        "/api/academy/lessons/{id}/video/confirm/" => {
            Some((format!("/api/academy/lessons/{}/video/upload-url/", w.lesson), json!({}), MP4, "video/mp4"))
        }
        _ => None,
    }
}

/// Uploads what `path` confirms and puts the key into `body`.
async fn with_upload(router: &axum::Router, token: Option<&str>, path: &str, w: &Ids, body: &mut Value) {
    let Some((url_path, req, bytes, content_type)) = upload_for(path, w) else { return };
    let (status, up) = testkit::call(router, Method::POST, &url_path, token, Some(req)).await;
    assert!(status.is_success(), "{url_path}: {status} {up}");
    let ct = up["content_type"].as_str().unwrap_or(content_type).to_string();
    let (st, _, _) = testkit::http("PUT", up["url"].as_str().unwrap(), Some(&ct), bytes).await;
    assert_eq!(st, 200, "PUT {url_path}");
    let key = up["key"].clone();
    if body.get("key").is_some() {
        body["key"] = key;
    } else if let Some(d) = body.get_mut("documents").and_then(|d| d.get_mut(0)) {
        d["key"] = key;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_request_example_is_accepted_and_every_documented_rule_holds() {
    let world = Arc::new(seed().await);
    let doc = Arc::new(serde_json::to_value(api_docs::document()).unwrap());
    let matrix = matrix();
    let mut jobs = tokio::task::JoinSet::new();
    let limit = Arc::new(tokio::sync::Semaphore::new(4));
    let mut probed = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            if op.get("requestBody").is_none() {
                continue;
            }
            // Authenticated by Amazon SNS's signature, not a session: its
            // own router tests send signed messages.
            if path == "/api/verified/callback/" {
                continue;
            }
            let Some(example) = example(&doc, op) else {
                panic!("{method} {path}: the request body has no example");
            };
            let row = &matrix[&format!("{} {path}", method.to_uppercase())];
            let column = |who: &str| CALLERS.iter().position(|c| *c == who).unwrap();
            let caller = CALLER
                .iter()
                .find(|(m, p, _)| m == method && p == path)
                .map(|(_, _, c)| *c)
                .or_else(|| PREFERENCE.iter().find(|w| (200..300).contains(&row[column(w)])).copied())
                .or_else(|| PREFERENCE.iter().find(|w| ![401, 403].contains(&row[column(w)])).copied())
                .unwrap_or("admin");
            probed += 1;
            let (world, doc, limit, path, method) = (world.clone(), doc.clone(), limit.clone(), path.clone(), method.clone());
            jobs.spawn(async move {
                let _permit = limit.acquire().await.unwrap();
                let m = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
                let token = world.tokens[caller].as_deref();
                let mut uri = request(&method, &path, &world.ids).0;
                if path == "/api/case/status/{uid}/" {
                    // The example publishes: the world's draft case.
                    uri = format!("/api/case/status/{}/", world.ids.draft_case);
                }
                let public = api_docs::PUBLIC.contains(&(method.as_str(), path.as_str()));
                let mut broken = vec![];

                // The example, on its own copy of the world.
                let (_, router) = copy(&world).await;
                let mut body = adapt(&method, &path, &example, &world.ids);
                with_upload(&router, token, &path, &world.ids, &mut body).await;
                // An array where the document names an object is refused as
                // a malformed body (before any state is looked at).
                if op_schema_is_object(&doc, &path, &method) {
                    let (s, a) = testkit::call(&router, m.clone(), &uri, token, Some(json!([body.clone()]))).await;
                    if !(s.as_u16() == 400 && a["message"] == "invalid_request_body") {
                        broken.push(format!("{method} {path} as {caller}: an array for its object body answers {s} {a}"));
                    }
                }
                let (status, answer) = testkit::call(&router, m.clone(), &uri, token, Some(body.clone())).await;
                let status = status.as_u16();
                let expected = EXPECTED.iter().find(|(em, ep, _, _)| *em == method && *ep == path);
                match expected {
                    _ if validation_error(status, &answer) => {
                        broken.push(format!("{method} {path} as {caller}: the example is refused {status} {answer}"))
                    }
                    Some((_, _, want, why)) if status != *want => {
                        broken.push(format!("{method} {path} as {caller}: the example answers {status} {answer}, expected {want} ({why})"))
                    }
                    None if !(200..300).contains(&status) => {
                        broken.push(format!("{method} {path} as {caller}: the example answers {status} {answer}"))
                    }
                    _ => {}
                }
                if UNPROBED.contains(&(method.as_str(), path.as_str())) {
                    return broken;
                }

                // The probes, on another copy: the refused ones first (they
                // change nothing), then those that may succeed.
                let (_, router) = copy(&world).await;
                let mut body = adapt(&method, &path, &example, &world.ids);
                with_upload(&router, token, &path, &world.ids, &mut body).await;
                let mut list = vec![];
                probes(&doc, &op_schema(&doc, &path, &method), &body, &[], &body, &mut list);
                list.sort_by_key(|p| !p.refused);
                for p in list {
                    if CONDITIONAL.iter().any(|(cm, cp, f, _)| *cm == method && *cp == path && *f == p.field) {
                        continue;
                    }
                    let mut b = p.body;
                    if b.get("email").is_some_and(|e| e.as_str().is_some_and(|e| e.starts_with("ex-"))) {
                        b["email"] = json!(fresh_email());
                    }
                    let (s, a) = testkit::call(&router, m.clone(), &uri, token, Some(b)).await;
                    let s = s.as_u16();
                    // A public operation refuses a missing credential as
                    // unauthenticated; a missing or zero id is not found.
                    let refused = names(s, &a, &p.field)
                        || (p.what.ends_with("outside its pattern")
                            && PATTERN_ANSWERS.iter().any(|(f, key, _)| *f == p.field && a["message"] == *key))
                        || (public && s == 401)
                        || ((p.field.ends_with("_id") || p.field.ends_with("_uid")) && s == 404);
                    if s >= 500 {
                        broken.push(format!("{method} {path} as {caller}, {}: {s} {a}", p.what));
                    } else if p.refused && !refused {
                        broken.push(format!("{method} {path} as {caller}, {}: not refused for {} ({s} {a})", p.what, p.field));
                    } else if let Some(rule) = p.undocumented {
                        if names_exactly(&a, &p.field) && !FREE_OF_RULES.iter().any(|(f, r, _)| *f == p.field && *r == rule) {
                            broken.push(format!(
                                "{method} {path}: the server refuses {} ({}), the schema has no {rule}",
                                p.what, a["errors"][&p.field]
                            ));
                        }
                    } else if !p.refused && names(s, &a, &p.field) && (p.well_formed || a["message"] != "invalid_request_body") {
                        broken.push(format!("{method} {path} as {caller}, {}: refused for {} ({s} {a})", p.what, p.field));
                    }
                }
                broken
            });
        }
    }
    assert!(probed > 60, "{probed} operations with a request body");
    let mut broken = vec![];
    while let Some(done) = jobs.join_next().await {
        broken.extend(done.unwrap());
    }
    broken.sort();
    assert!(broken.is_empty(), "{} findings:\n{}", broken.len(), broken.join("\n"));
}

fn op_schema(doc: &Value, path: &str, method: &str) -> Value {
    let media = doc["paths"][path][method]["requestBody"]["content"].as_object().unwrap().values().next().unwrap();
    media["schema"].clone()
}

/// The body the document names is an object (not an array or a file).
fn op_schema_is_object(doc: &Value, path: &str, method: &str) -> bool {
    let s = object(doc, &op_schema(doc, path, method));
    s["type"] == "object" || s.get("properties").is_some()
}

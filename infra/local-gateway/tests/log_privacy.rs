//! No personal data in the logs: every operation of every function's
//! router (as each Lambda serves it) is called, signed out and as an admin
//! whose own e-mail, name and password are the ones sent, with personal data
//! in the path, the query, the body (also where a number is expected, so a
//! parser's message would quote it) and the bearer token; everything the
//! functions logged, in Lambda's JSON format, is then searched for any of it.
//!
//! A test binary of its own: it captures the logs with a subscriber for its
//! own thread, and tracing decides once per process which events are wanted;
//! beside the other gateway tests (which set the process-wide subscriber) it
//! captured no request line at all.

use axum::body::Body;
use axum::http::{header, Method, Request};
use serde_json::{json, Value};
use shared::domain::Role;
use shared::testkit;
use std::io::Write;
use std::sync::{Arc, Mutex};
use tower::ServiceExt;

const EMAIL: &str = "ingrid.oxenstierna@example.se";
const FIRST: &str = "Ingrid";
const LAST: &str = "Oxenstierna";
const PASSWORD: &str = "Hemligt-lösen-2026!";
const IDENTITY: &str = "19121212-1212";
const PHONE: &str = "+46 70 123 45 67";
const MESSAGE: &str = "Konfidentiellt: skilsmässan och vårdnaden";

/// What the functions logged, as written.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Captured {
    type Writer = Captured;
    fn make_writer(&'a self) -> Captured {
        self.clone()
    }
}

/// A body with personal data under every name a form of the API uses for
/// it, and in fields that expect numbers or lists.
fn body(token: &str) -> Value {
    let full = format!("{FIRST} {LAST}");
    let mut fields = serde_json::Map::new();
    let text = [
        ("email", EMAIL),
        ("username", EMAIL),
        ("new_email", EMAIL),
        ("search", EMAIL),
        ("uid", EMAIL),
        ("case", EMAIL),
        ("customer", EMAIL),
        ("hours", EMAIL),
        ("password", PASSWORD),
        ("new_password", PASSWORD),
        ("old_password", PASSWORD),
        ("confirm_password", PASSWORD),
        ("first_name", FIRST),
        ("last_name", LAST),
        ("name", &full),
        ("company_name", &full),
        ("contact_person", &full),
        ("case_type", &full),
        ("business_sector", &full),
        ("company_size", &full),
        ("page", &full),
        ("message", MESSAGE),
        ("text", MESSAGE),
        ("description", MESSAGE),
        ("note", MESSAGE),
        ("internal_description", MESSAGE),
        ("comment", MESSAGE),
        ("subject", MESSAGE),
        ("title", MESSAGE),
        ("address", MESSAGE),
        ("identity_number", IDENTITY),
        ("personal_number", IDENTITY),
        ("company_registration_number", IDENTITY),
        ("registration_number", IDENTITY),
        ("organization_number", IDENTITY),
        ("query", IDENTITY),
        ("id", IDENTITY),
        ("phone", PHONE),
        ("phone_number", PHONE),
        ("mobile", PHONE),
        ("amount", PHONE),
        ("token", token),
        ("refresh", token),
        ("code", "123456"),
    ];
    for (k, v) in text {
        fields.insert(k.into(), Value::from(v));
    }
    fields.insert("permissions".into(), json!([EMAIL]));
    fields.insert("users".into(), json!([full]));
    fields.insert("parties".into(), json!([{ "name": full, "identity_number": IDENTITY }]));
    Value::Object(fields)
}

fn query(token: &str) -> String {
    let pairs = [("search", EMAIL), ("q", IDENTITY), ("email", EMAIL), ("name", LAST), ("token", token), ("page", FIRST), ("phone", PHONE)];
    pairs.iter().map(|(k, v)| format!("{k}={}", encode(v))).collect::<Vec<_>>().join("&")
}

fn encode(v: &str) -> String {
    v.bytes()
        .map(|b| if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_') { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

/// Every operation of a router: method and path template.
fn operations(api: &utoipa_axum::router::OpenApiRouter<shared::api::AppState>) -> Vec<(Method, String)> {
    let doc = api.clone().split_for_parts().1;
    let mut ops = vec![];
    for (path, item) in &doc.paths.paths {
        for (method, op) in [
            (Method::GET, &item.get),
            (Method::POST, &item.post),
            (Method::PUT, &item.put),
            (Method::PATCH, &item.patch),
            (Method::DELETE, &item.delete),
        ] {
            if op.is_some() {
                ops.push((method, path.clone()));
            }
        }
    }
    // The calls that end the caller's session go last, so the rest run signed in.
    ops.sort_by_key(|(_, p)| ["logout", "password", "token", "2fa", "deactivat"].iter().any(|w| p.contains(w)));
    ops
}

/// A path template with every `{param}` filled with personal data.
fn filled(template: &str, n: usize) -> String {
    let values = [EMAIL, IDENTITY, LAST, PHONE];
    let mut out = String::new();
    let mut rest = template;
    let mut i = n;
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').map_or(rest.len(), |c| open + c + 1);
        out.push_str(&rest[..open]);
        out.push_str(&encode(values[i % values.len()]));
        i += 1;
        rest = &rest[close..];
    }
    out.push_str(rest);
    out
}

#[tokio::test]
async fn no_personal_data_reaches_the_logs_of_any_function() {
    let captured = Captured::default();
    // This test's thread only (a current-thread runtime): other tests' events go elsewhere.
    let _logs = tracing::subscriber::set_default(shared::telemetry::json_subscriber(captured.clone()));

    let state = testkit::services().await;
    let user = shared::services::accounts::create_account(
        &state.store,
        shared::services::accounts::NewAccount {
            email: EMAIL,
            password: PASSWORD,
            first_name: FIRST,
            last_name: LAST,
            role: Role::Admin,
            user_sub_type: None,
            customer_id: None,
            company_id: None,
            active: true,
        },
    )
    .await
    .expect("create account");
    let mut tokens = vec![];
    let mut sent = 0;
    for api in api_docs::all_routes() {
        // A session per function: the previous one's last calls may have ended
        // its session (a logout, a password or two-factor change).
        let now = state.store.get_user_latest(&user.uid).await.unwrap().expect("the account");
        let token = shared::services::credentials::start_session(&state, &now).await.expect("start session").access_token;
        tokens.push(token.clone());
        let ops = operations(&api);
        let router = shared::api::finish(api, state.clone());
        for (n, (method, template)) in ops.iter().enumerate() {
            for bearer in [None, Some(token.as_str())] {
                let uri = format!("{}?{}", filled(template, n), query(&token));
                let mut req = Request::builder().method(method.clone()).uri(uri);
                if let Some(t) = bearer {
                    req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
                }
                let req = if *method == Method::GET {
                    req.body(Body::empty())
                } else {
                    req.header(header::CONTENT_TYPE, "application/json").body(Body::from(body(&token).to_string()))
                };
                router.clone().oneshot(req.unwrap()).await.unwrap();
                sent += 1;
            }
        }
        // The sign-in form, refused and accepted, and a body that does not parse.
        for (uri, text) in [
            ("/api/token/", json!({ "email": EMAIL, "password": "Fel-lösen-1" }).to_string()),
            ("/api/token/", json!({ "email": EMAIL, "password": PASSWORD }).to_string()),
            ("/api/token/", format!("{{\"email\": \"{EMAIL}\", \"password\": {PASSWORD}")),
        ] {
            let req = Request::post(uri).header(header::CONTENT_TYPE, "application/json").body(Body::from(text)).unwrap();
            router.clone().oneshot(req).await.unwrap();
            sent += 1;
        }
    }

    let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"))).collect();
    // It logged what it should: one request line per request, with its
    // route template, status, duration, DynamoDB requests, and the caller.
    let requests: Vec<&Value> = lines.iter().filter(|l| l["message"] == "request").collect();
    assert_eq!(requests.len(), sent, "one request line per request");
    for l in &lines {
        assert!(l["timestamp"].is_string() && l["level"].is_string(), "Lambda's JSON log format: {l}");
    }
    assert!(requests.iter().all(|l| l["status"].is_u64() && l["duration_ms"].is_number() && l["dynamodb_requests"].is_u64()));
    assert!(requests.iter().any(|l| l["route"] == "/api/case/{id}/"), "route templates, never paths");
    // Signed in, most calls get past authentication (and so reach their body and path).
    let signed_in = requests.iter().filter(|l| l["user_id"] == user.uid.as_str() && l["role"] == "admin").count();
    assert!(signed_in * 3 > sent, "{signed_in} of {sent} requests signed in");
    assert!(requests.iter().any(|l| l["dynamodb_requests"].as_u64() > Some(0)));
    assert!(lines.iter().any(|l| l["level"] == "WARN" && l["message"] == "request refused"), "refusals are logged");

    let identity_digits: String = IDENTITY.chars().filter(char::is_ascii_digit).collect();
    let phone_digits: String = PHONE.chars().filter(char::is_ascii_digit).collect();
    let lower = text.to_lowercase();
    let mut secrets: Vec<String> = tokens.iter().flat_map(|t| [t.clone(), t.rsplit('.').next().unwrap().to_string()]).collect();
    secrets.extend(
        [
            EMAIL,
            "oxenstierna",
            "ingrid",
            "example.se",
            PASSWORD,
            "fel-lösen",
            IDENTITY,
            identity_digits.as_str(),
            "1212-1212",
            PHONE,
            phone_digits.as_str(),
            "123 45 67",
            "skilsmässa",
            "konfidentiellt",
        ]
        .map(String::from),
    );
    for secret in &secrets {
        assert!(
            !lower.contains(&secret.to_lowercase()),
            "`{secret}` was logged:\n{}",
            text.lines().filter(|l| l.to_lowercase().contains(&secret.to_lowercase())).take(5).collect::<Vec<_>>().join("\n")
        );
    }
}

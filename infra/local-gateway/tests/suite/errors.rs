//! Every error, from any layer (body too large, bad JSON,
//! a missing or malformed query parameter, invalid UTF-8 in a path, an
//! over-long query string, method not allowed, no route, no token, a
//! request over its deadline), is the JSON error shape of spec §8 with a key
//! the web translates: sent through the whole gateway router, and over TCP
//! for what only a real server sees (a 1 MB request line).

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use axum::routing::get;
use axum::Router;
use serde_json::Value;
use shared::domain::Role;
use shared::testkit;
use std::time::Duration;
use tower::ServiceExt;

/// The translated server keys of both languages.
fn translated(lang: &str) -> serde_json::Map<String, Value> {
    let path = format!("{}/../../web/src/locales/{lang}/server.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str::<Value>(&std::fs::read_to_string(path).unwrap()).unwrap().as_object().unwrap().clone()
}

/// Checks the §8 shape: `{status, message, errors}` with the HTTP status,
/// a message key translated in every language and an object of field errors.
fn assert_error_shape(what: &str, status: StatusCode, content_type: Option<&str>, body: &[u8], expected: (u16, &str)) {
    assert_eq!(status.as_u16(), expected.0, "{what}: {}", String::from_utf8_lossy(body));
    assert!(content_type.is_some_and(|c| c.starts_with("application/json")), "{what}: content type {content_type:?}");
    let v: Value = serde_json::from_slice(body).unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {}", String::from_utf8_lossy(body)));
    assert_eq!(v["status"].as_u64(), Some(expected.0 as u64), "{what}: {v}");
    assert_eq!(v["message"].as_str(), Some(expected.1), "{what}: {v}");
    assert!(v["errors"].is_object(), "{what}: {v}");
    for lang in ["en", "sv"] {
        let keys = translated(lang);
        assert!(keys.contains_key(expected.1), "{what}: `{}` has no {lang} translation", expected.1);
        for field_keys in v["errors"].as_object().unwrap().values() {
            for k in field_keys.as_array().unwrap() {
                assert!(keys.contains_key(k.as_str().unwrap()), "{what}: field key {k} has no {lang} translation");
            }
        }
    }
}

async fn send(
    router: &Router,
    method: Method,
    uri: &str,
    token: Option<&str>,
    body: Option<(&str, Vec<u8>)>,
) -> (StatusCode, Option<String>, Vec<u8>) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let req = match body {
        Some((ct, bytes)) => req.header(header::CONTENT_TYPE, ct).body(Body::from(bytes)),
        None => req.body(Body::empty()),
    }
    .unwrap();
    let res = router.clone().oneshot(req).await.unwrap();
    let ct = res.headers().get(header::CONTENT_TYPE).map(|v| v.to_str().unwrap().to_string());
    let status = res.status();
    (status, ct, axum::body::to_bytes(res.into_body(), 1 << 20).await.unwrap().to_vec())
}

#[tokio::test]
async fn every_kind_of_refusal_answers_in_the_api_error_shape() {
    let state = testkit::services().await;
    let dist = std::env::temp_dir().join(format!(
        "errors-dist-{}-{}",
        std::process::id(),
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
    ));
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(dist.join("index.html"), "<!doctype html>").unwrap();
    let router = local_gateway::app(state.clone(), dist.clone());
    let (_, admin) = testkit::signed_in(&state, Role::Admin).await;
    let json = |s: &str| Some(("application/json", s.as_bytes().to_vec()));
    let huge_body = format!("{{\"email\":\"{}\",\"password\":\"x\"}}", "a".repeat(shared::api::MAX_BODY_BYTES + 1));
    // (An http::Uri holds at most 64 KB; API Gateway refuses a request line
    // over 10 KB before the function on AWS.)
    let long_query = format!("/api/case/list/?search={}", "q".repeat(60 << 10));
    // (what, method, path, token, body with its content type, expected status and key)
    type Refusal<'a> = (&'a str, Method, String, Option<&'a str>, Option<(&'a str, Vec<u8>)>, (u16, &'a str));
    let cases: Vec<Refusal> = vec![
        ("body too large", Method::POST, "/api/token/".into(), None, json(&huge_body), (413, "request_too_large")),
        ("malformed JSON", Method::POST, "/api/token/".into(), None, json("{"), (400, "invalid_request_body")),
        ("not JSON", Method::POST, "/api/token/".into(), None, Some(("text/plain", b"hello".to_vec())), (400, "invalid_request_body")),
        ("missing body field", Method::POST, "/api/token/".into(), None, json("{}"), (400, "validation_failed")),
        ("wrong JSON type", Method::POST, "/api/token/".into(), None, json("[1]"), (400, "invalid_request_body")),
        ("missing query parameter", Method::GET, "/api/case/lawyer/note/".into(), Some(&admin), None, (400, "invalid_query")),
        ("bad enumeration in the query", Method::GET, "/api/lawyer/list/?type=nonsense".into(), Some(&admin), None, (400, "invalid_query")),
        // Undecodable bytes in a query value are read lossily: no such case.
        ("invalid UTF-8 in the query", Method::GET, "/api/case/lawyer/note/?case=%FF".into(), Some(&admin), None, (404, "not_found")),
        ("invalid UTF-8 in a path", Method::GET, "/api/case/%FF%FE/".into(), Some(&admin), None, (400, "invalid_path")),
        ("a 60 KB query string", Method::GET, long_query, Some(&admin), None, (414, "uri_too_long")),
        ("method not allowed", Method::DELETE, "/api/token/".into(), None, None, (405, "method_not_allowed")),
        ("no such route", Method::GET, "/api/no-such-thing/".into(), None, None, (404, "not_found")),
        ("no token", Method::GET, "/api/case/list/".into(), None, None, (401, "not_authenticated")),
        ("a bad token", Method::GET, "/api/case/list/".into(), Some("not-a-jwt"), None, (401, "not_authenticated")),
    ];
    for (what, method, uri, token, body, expected) in cases {
        let (status, ct, bytes) = send(&router, method, &uri, token, body).await;
        assert_error_shape(what, status, ct.as_deref(), &bytes, expected);
    }
    // A missing parameter is named.
    let (_, _, bytes) = send(&router, Method::GET, "/api/case/lawyer/note/", Some(&admin), None).await;
    assert_eq!(testkit::field(&serde_json::from_slice(&bytes).unwrap(), "case"), ["required"]);
    std::fs::remove_dir_all(dist).ok();
}

#[tokio::test]
async fn a_request_over_its_deadline_answers_504_in_the_error_shape() {
    let slow = Router::new().route(
        "/api/slow/",
        get(|| async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            "late"
        }),
    );
    let router = shared::api::limits_within(slow, Duration::from_millis(50));
    let (status, ct, bytes) = send(&router, Method::GET, "/api/slow/", None, None).await;
    assert_error_shape("deadline", status, ct.as_deref(), &bytes, (504, "request_timed_out"));
    // The template's deadline (test runs may allow a longer one: infra/test.sh).
    assert!(shared::config::Budgets::DEFAULT.request_deadline < Duration::from_secs(10), "under the functions' timeout");
}

/// Over TCP with the gateway's server (axum on hyper): a 32 KB query string
/// reaches the router and is refused in the API's shape. (Past 64 KB hyper
/// itself answers an empty 414 before any application code, as API Gateway
/// does past its own 10 KB request-line limit on AWS.)
#[tokio::test]
async fn a_long_request_line_reaches_the_router_over_tcp() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let state = testkit::services().await;
    let router = local_gateway::app(state, std::env::temp_dir());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move { axum::serve(listener, router).await });
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!("GET /api/case/list/?search={} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n", "q".repeat(32 << 10));
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let text = String::from_utf8_lossy(&answer);
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 414"), "{head}");
    assert!(head.to_ascii_lowercase().contains("content-type: application/json"), "{head}");
    assert_error_shape("tcp", StatusCode::URI_TOO_LONG, Some("application/json"), body.as_bytes(), (414, "uri_too_long"));
    server.abort();
}

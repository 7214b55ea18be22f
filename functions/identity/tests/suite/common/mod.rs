//! What the identity tests share: the identity routes on a fresh table and
//! the helpers to call them and read answers.
#![allow(dead_code)]

use axum::http::{Method, StatusCode};
use axum::Router;
use serde_json::Value;
use shared::api::{finish, AppState};
use shared::testkit;

pub use shared::testkit::login;

pub const PASSWORD: &str = "Very-secret-pass-1";

/// The identity routes on a brand-new table.
pub async fn setup() -> (AppState, Router) {
    let state = testkit::services().await;
    let router = finish(identity::api(), state.clone());
    (state, router)
}

pub async fn call(router: &Router, method: Method, path: &str, token: Option<&str>, body: Option<Value>) -> (StatusCode, Value) {
    testkit::call(router, method, path, token, body).await
}

pub async fn post(router: &Router, path: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
    testkit::call(router, Method::POST, path, token, Some(body)).await
}

pub async fn get(router: &Router, path: &str, token: &str) -> (StatusCode, Value) {
    testkit::call(router, Method::GET, path, Some(token), None).await
}

/// A text field of an answer, which must be there.
pub fn s(v: &Value, k: &str) -> String {
    v[k].as_str().unwrap_or_else(|| panic!("{k} missing in {v}")).to_string()
}

/// HMAC-SHA256 of `parts` (joined as given) under the test server secret,
/// hex: computed here, not by the code under test, so a stored value can be
/// held against the exact construction.
pub fn hmac_hex(parts: &[&str]) -> String {
    use hmac::{Hmac, KeyInit, Mac};
    let mut m = <Hmac<sha2::Sha256> as KeyInit>::new_from_slice(testkit::TEST_JWT_SECRET.as_bytes()).unwrap();
    for p in parts {
        m.update(p.as_bytes());
    }
    m.finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect()
}

//! What the users tests share: the users routes on a fresh table and the
//! helpers to call them as a stored user.
#![allow(dead_code)]

use axum::http::{Method, StatusCode};
use axum::Router;
use serde_json::Value;
use shared::api::{finish, AppState};
use shared::domain::User;
use shared::testkit;

pub const PASSWORD: &str = "Very-secret-pass-1";

/// The users routes on a brand-new table.
pub async fn setup() -> (AppState, Router) {
    let state = testkit::services().await;
    let router = finish(users::api(), state.clone());
    (state, router)
}

/// An access token of a new session of `user`.
pub async fn token(state: &AppState, user: &User) -> String {
    shared::services::credentials::start_session(state, user).await.unwrap().access_token
}

pub async fn call(router: &Router, method: Method, path: &str, token: &str, body: Option<Value>) -> (StatusCode, Value) {
    testkit::call(router, method, path, Some(token), body).await
}

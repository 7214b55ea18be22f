//! The sign-in check beside a read's data: a read starts its data reads
//! and the check at once and answers only when the check succeeded; a write
//! waits for the check before it runs. Each refusal is 401 with nothing of
//! the data, and the write did not happen.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use serde_json::{json, Value};
use shared::api::{AppState, CurrentUser};
use shared::auth::TokenKind;
use shared::domain::{Permission, Role, User};
use shared::error::ApiError;
use shared::testkit::{self, call, Calls};

/// A read with a data read of its own (a probe beside the identity routes:
/// the caller's stored e-mail, beside the name the handler was given) and a write (turning two-factor sign-in on).
const READ: &str = "/api/probe/own-email/";
const WRITE: &str = "/api/2fa/toggle-activation/";

async fn own_email(State(s): State<AppState>, CurrentUser(user): CurrentUser) -> Result<Json<Value>, ApiError> {
    let stored = s.store.get_user(&user.uid).await?.ok_or(ApiError::NotFound)?;
    Ok(Json(json!({ "email": stored.email, "name": user.full_name() })))
}

async fn setup() -> (AppState, axum::Router, Calls) {
    let (state, calls) = testkit::services_counting_calls().await;
    let api = identity::api().route(READ, axum::routing::get(own_email));
    (state.clone(), shared::api::finish(api, state), calls)
}

fn refused(status: StatusCode, body: &Value) {
    assert_eq!((status, body["message"].as_str()), (StatusCode::UNAUTHORIZED, Some("not_authenticated")), "{body}");
    assert!(body.get("email").is_none() && body.get("enabled").is_none(), "nothing of the data: {body}");
}

/// Calls the read and the write with `token`: both refused, and the write did not happen.
async fn refused_after(state: &AppState, router: &axum::Router, user: &User, token: &str) {
    let (status, body) = call(router, Method::GET, READ, Some(token), None).await;
    refused(status, &body);
    let (status, body) = call(router, Method::POST, WRITE, Some(token), Some(json!({ "enabled": true }))).await;
    refused(status, &body);
    let stored = state.store.get_user_latest(&user.uid).await.unwrap().unwrap();
    assert!(!stored.two_factor, "the refused write did not happen");
}

#[tokio::test]
async fn a_read_makes_its_data_read_and_the_sign_in_check_in_one_round_trip() {
    let (state, router, calls) = setup().await;
    let (user, token) = testkit::signed_in(&state, Role::Customer).await;
    calls.take();
    let (status, body) = call(&router, Method::GET, READ, Some(&token), None).await;
    assert_eq!((status, body["email"].as_str()), (StatusCode::OK, Some(user.email.as_str())), "{body}");
    let mut trips = calls.take_trips();
    trips.ops.sort();
    assert_eq!(trips, testkit::Trips { ops: vec!["BatchGetItem".into(), "GetItem".into()], in_a_row: 1 }, "the check beside the data read");

    // A token from before access tokens carried their user still works, the old way: check, then data.
    let claims = state.jwt.verify(&token, TokenKind::Access).unwrap();
    let now = chrono::Utc::now().timestamp();
    let (old, _) = state.jwt.issue_with(&user.uid, TokenKind::Access, now, claims.ver, claims.fam.clone()).unwrap();
    let (status, body) = call(&router, Method::GET, READ, Some(&old), None).await;
    assert_eq!((status, body["email"].as_str()), (StatusCode::OK, Some(user.email.as_str())), "{body}");
    assert_eq!(calls.take_trips(), testkit::Trips { ops: vec!["BatchGetItem".into(), "GetItem".into()], in_a_row: 2 });
    let (status, body) = call(&router, Method::POST, WRITE, Some(&old), Some(json!({ "enabled": true }))).await;
    assert_eq!((status, body["enabled"].as_bool()), (StatusCode::OK, Some(true)), "{body}");
}

#[tokio::test]
async fn an_ended_sign_in_gets_nothing_and_changes_nothing() {
    let (state, router, _) = setup().await;
    let (user, token) = testkit::signed_in(&state, Role::Customer).await;
    let fam = state.jwt.verify(&token, TokenKind::Access).unwrap().fam.unwrap();
    state.store.revoke_family(&fam).await.unwrap();
    refused_after(&state, &router, &user, &token).await;
}

#[tokio::test]
async fn a_deactivated_user_gets_nothing_and_changes_nothing() {
    let (state, router, _) = setup().await;
    let (user, token) = testkit::signed_in(&state, Role::Customer).await;
    let mut stored = state.store.get_user_latest(&user.uid).await.unwrap().unwrap();
    stored.active = false;
    state.store.put_user(&stored).await.unwrap();
    refused_after(&state, &router, &user, &token).await;
}

#[tokio::test]
async fn a_token_whose_role_or_permissions_changed_since_is_refused_until_renewed() {
    let (state, router, _) = setup().await;
    let (user, token) = testkit::signed_in(&state, Role::Customer).await;
    let mut stored = state.store.get_user_latest(&user.uid).await.unwrap().unwrap();
    stored.user_type = Role::Lawyer.user_type();
    state.store.put_user(&stored).await.unwrap();
    refused_after(&state, &router, &user, &token).await;

    let (customer, _) = testkit::signed_in(&state, Role::Customer).await;
    let (contact, _) = testkit::signed_in_contact(&state, &customer, vec![Permission::ViewAllCases]).await;
    let pair = shared::services::credentials::start_session(&state, &contact).await.unwrap();
    let mut stored = state.store.get_user_latest(&contact.uid).await.unwrap().unwrap();
    stored.permissions = vec![];
    state.store.put_user(&stored).await.unwrap();
    refused_after(&state, &router, &contact, &pair.access_token).await;

    // Renewed (as the web does on a 401), the token describes the user as it is now and works again.
    let renewed = shared::services::credentials::sessions::refresh(&state, &pair.refresh_token).await.unwrap();
    let (status, body) = call(&router, Method::GET, READ, Some(&renewed.access_token), None).await;
    assert_eq!((status, body["email"].as_str()), (StatusCode::OK, Some(contact.email.as_str())), "{body}");
}

#[tokio::test]
async fn a_read_whose_token_describes_an_older_user_is_answered_with_the_stored_one() {
    let (state, router, calls) = setup().await;
    let (user, token) = testkit::signed_in(&state, Role::Customer).await;
    let mut stored = state.store.get_user_latest(&user.uid).await.unwrap().unwrap();
    stored.first_name = "Berit".into();
    state.store.put_user(&stored).await.unwrap();
    calls.take();
    let (status, body) = call(&router, Method::GET, READ, Some(&token), None).await;
    assert_eq!((status, body["name"].as_str()), (StatusCode::OK, Some("Berit Berg")), "{body}");
    // Read once beside the check, then again with the user the check read.
    assert_eq!(calls.take_trips().in_a_row, 2);
    let (status, body) = call(&router, Method::POST, WRITE, Some(&token), Some(json!({ "enabled": true }))).await;
    assert_eq!((status, body["enabled"].as_bool()), (StatusCode::OK, Some(true)), "the same rights still write: {body}");
}

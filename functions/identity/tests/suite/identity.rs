//! The identity routes against the local AWS stand-in, each test on its own table.

use crate::common;

use axum::body::{to_bytes, Body};
use axum::http::{header, Method, Request, StatusCode};
use common::{call, login, setup, PASSWORD};
use serde_json::{json, Value};
use shared::api::AppState;
use shared::auth::{Jwt, TokenKind};
use shared::domain::Role;
use shared::services::accounts::{create_account, NewAccount};
use shared::testkit;
use tower::ServiceExt;

async fn account(state: &AppState, email: &str, role: Role, active: bool) -> shared::domain::User {
    let mut user = testkit::account(state, email, PASSWORD, role).await;
    if !active {
        user.active = false;
        state.store.put_user(&user).await.unwrap();
    }
    user
}

#[tokio::test]
async fn login_returns_the_auth_shape_and_profile_the_session_user() {
    let (state, router) = setup().await;
    let user = account(&state, "Anna.Berg@Example.com", Role::Customer, true).await;

    // e-mail is matched case-insensitively
    let (status, auth) = login(&router, "  anna.berg@EXAMPLE.com", PASSWORD).await;
    assert_eq!(status, StatusCode::OK, "{auth}");
    assert_eq!(auth["token_type"], "Bearer");
    assert_eq!(auth["expires_in"], 900);
    let access = auth["access_token"].as_str().unwrap();
    assert!(auth["refresh_token"].as_str().is_some_and(|t| !t.is_empty()));

    let (status, me) = call(&router, Method::GET, "/api/profile/", Some(access), None).await;
    assert_eq!(status, StatusCode::OK, "{me}");
    assert_eq!(me["email"], "anna.berg@example.com");
    assert_eq!(me["uid"], user.uid.as_str());
    assert_eq!(me["id"], user.id);
    assert_eq!(me["user_type"], 3);
    assert_eq!(me["is_staff"], false);
    assert_eq!(me["full_name"], "Anna Berg");
    assert_eq!(me["image"], "not set");
    for key in ["customer_id", "company_id", "is_superuser", "user_sub_type", "username", "profile_id"] {
        assert!(me.get(key).is_some(), "session user lacks {key}: {me}");
    }
}

#[tokio::test]
async fn admin_profile_is_staff() {
    let (state, router) = setup().await;
    account(&state, "boss@example.com", Role::Admin, true).await;
    let (_, auth) = login(&router, "boss@example.com", PASSWORD).await;
    let (status, me) = call(&router, Method::GET, "/api/profile/", auth["access_token"].as_str(), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(me["is_staff"], true);
    assert_eq!(me["user_type"], Value::Null);
}

#[tokio::test]
async fn wrong_password_and_unknown_user_answer_400_alike() {
    let (state, router) = setup().await;
    account(&state, "anna@example.com", Role::Lawyer, true).await;

    let (status, body) = login(&router, "anna@example.com", "wrong-password").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], "invalid_credentials");
    assert_eq!(body["status"], 400);

    let (status2, body2) = login(&router, "nobody@example.com", PASSWORD).await;
    assert_eq!(status2, StatusCode::BAD_REQUEST);
    assert_eq!(body2, body, "unknown users must not be told apart from wrong passwords");
}

#[tokio::test]
async fn missing_fields_and_bad_json_are_field_errors_not_crashes() {
    let (_state, router) = setup().await;
    let (status, body) = login(&router, "", "").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], "validation_failed");
    assert_eq!(body["errors"]["email"][0], "required");
    assert_eq!(body["errors"]["password"][0], "required");

    let req = Request::builder()
        .method(Method::POST)
        .uri("/api/token/")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{not json"))
        .unwrap();
    let res = router.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let body: Value = serde_json::from_slice(&to_bytes(res.into_body(), 1 << 20).await.unwrap()).unwrap();
    assert_eq!(body["message"], "invalid_request_body");
}

#[tokio::test]
async fn inactive_account_cannot_log_in_nor_use_its_token() {
    let (state, router) = setup().await;
    let mut user = account(&state, "sleepy@example.com", Role::Customer, true).await;
    let (_, auth) = login(&router, "sleepy@example.com", PASSWORD).await;
    let access = auth["access_token"].as_str().unwrap().to_string();

    user.active = false;
    state.store.put_user(&user).await.unwrap();
    let (status, body) = login(&router, "sleepy@example.com", PASSWORD).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], "account_inactive");
    let (status, _) = call(&router, Method::GET, "/api/profile/", Some(&access), None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn profile_refuses_missing_expired_tampered_and_refresh_tokens() {
    let (state, router) = setup().await;
    let user = account(&state, "anna@example.com", Role::Customer, true).await;
    let (_, auth) = login(&router, "anna@example.com", PASSWORD).await;

    let (status, body) = call(&router, Method::GET, "/api/profile/", None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body["message"], "not_authenticated");

    let jwt = Jwt::new(testkit::TEST_JWT_SECRET);
    let (expired, _) = jwt.issue(&user.uid, TokenKind::Access, chrono::Utc::now().timestamp() - 3600).unwrap();
    let (status, body) = call(&router, Method::GET, "/api/profile/", Some(&expired), None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body["message"], "token_expired");

    let access = auth["access_token"].as_str().unwrap();
    let tampered = format!("{}x", access);
    let (status, _) = call(&router, Method::GET, "/api/profile/", Some(&tampered), None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    let forged =
        Jwt::new("some-other-secret-that-is-long-enough!!").issue(&user.uid, TokenKind::Access, chrono::Utc::now().timestamp()).unwrap().0;
    let (status, _) = call(&router, Method::GET, "/api/profile/", Some(&forged), None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    let (status, _) = call(&router, Method::GET, "/api/profile/", auth["refresh_token"].as_str(), None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "a refresh token is not an access token");
}

#[tokio::test]
async fn refresh_rotates_and_each_refresh_token_works_once() {
    let (state, router) = setup().await;
    account(&state, "anna@example.com", Role::Customer, true).await;
    let (_, auth) = login(&router, "anna@example.com", PASSWORD).await;
    let first = auth["refresh_token"].as_str().unwrap();

    let (status, next) = call(&router, Method::POST, "/api/token/refresh/", None, Some(json!({ "refresh_token": first }))).await;
    assert_eq!(status, StatusCode::OK, "{next}");
    assert_ne!(next["refresh_token"], auth["refresh_token"]);
    let (status, _) = call(&router, Method::GET, "/api/profile/", next["access_token"].as_str(), None).await;
    assert_eq!(status, StatusCode::OK);

    let (status, _) = call(&router, Method::POST, "/api/token/refresh/", None, Some(json!({ "refresh_token": first }))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "a used refresh token must not work again");
    let (status, _) =
        call(&router, Method::POST, "/api/token/refresh/", None, Some(json!({ "refresh_token": next["access_token"] }))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "an access token is not a refresh token");
}

#[tokio::test]
async fn unknown_api_paths_and_methods_answer_in_the_error_shape() {
    let (_state, router) = setup().await;
    let (status, body) = call(&router, Method::GET, "/api/nothing-here/", None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["message"], "not_found");
    let (status, body) = call(&router, Method::GET, "/api/token/", None, None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(body["message"], "method_not_allowed");
}

#[tokio::test]
async fn one_email_one_account_even_when_created_at_once() {
    let (state, _router) = setup().await;
    let attempts = (0..8).map(|i| {
        let state = state.clone();
        tokio::spawn(async move {
            let email = if i % 2 == 0 { "Same@Example.com" } else { "same@example.com" };
            create_account(
                &state.store,
                NewAccount {
                    email,
                    password: PASSWORD,
                    first_name: "A",
                    last_name: "B",
                    role: Role::Customer,
                    user_sub_type: None,
                    customer_id: None,
                    company_id: None,
                    active: true,
                },
            )
            .await
            .is_ok()
        })
    });
    let mut ok = 0;
    for a in attempts {
        if a.await.unwrap() {
            ok += 1;
        }
    }
    assert_eq!(ok, 1, "exactly one account per e-mail address");
}

#[tokio::test]
async fn profile_image_is_a_presigned_url_of_the_stored_key() {
    let (state, router) = setup().await;
    let mut user = account(&state, "pic@example.com", Role::Lawyer, true).await;
    let key = format!("profile-images/{}/0b7e4e9a-9c1f-4b59-8f0e-3a1f2b3c4d5e.png", user.uid);
    user.image = key.clone();
    state.store.put_user(&user).await.unwrap();
    let (_, auth) = login(&router, "pic@example.com", PASSWORD).await;
    let (status, me) = call(&router, Method::GET, "/api/profile/", auth["access_token"].as_str(), None).await;
    assert_eq!(status, StatusCode::OK);
    let image = me["image"].as_str().unwrap();
    assert!(image.starts_with("http") && image.contains(&key) && image.contains("X-Amz-Signature"), "{image}");
}

/// Authenticating a request is one DynamoDB call (the user and its sign-in
/// in one consistent BatchGetItem): every API call pays it, and the
/// stand-in answers one call at a time.
#[tokio::test]
async fn an_authenticated_request_reads_its_user_and_sign_in_in_one_call() {
    let (state, calls) = testkit::services_counting_calls().await;
    let router = shared::api::finish(identity::api(), state.clone());
    let (user, token) = testkit::signed_in(&state, Role::Customer).await;
    calls.take();
    let (status, me) = call(&router, Method::GET, "/api/profile/", Some(&token), None).await;
    assert_eq!((status, me["uid"].as_str()), (StatusCode::OK, Some(user.uid.as_str())), "{me}");
    assert_eq!(calls.take(), vec!["BatchGetItem"]);
}

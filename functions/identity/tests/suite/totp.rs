//! The authenticator-app second factor (TOTP) and its recovery codes, plus the
//! two-factor loose ends (explicit toggle state, expired sign-in key) —
//! against the local stand-in, each test on its own table.

use crate::common;

use axum::http::{Method, StatusCode};
use axum::Router;
use common::{get, post, s, PASSWORD};
use serde_json::{json, Value};
use shared::api::AppState;
use shared::auth::{Jwt, TokenKind};
use shared::domain::totp;
use shared::domain::Role;
use shared::testkit;

const EMAIL: &str = "tove@example.com";

async fn setup() -> (AppState, Router, String) {
    let (state, router) = common::setup().await;
    let user = testkit::account(&state, EMAIL, PASSWORD, Role::Customer).await;
    (state, router, user.uid)
}

/// Signs in as the test's user (password step), which must answer 200.
async fn sign_in(router: &Router) -> Value {
    let (status, body) = common::login(router, EMAIL, PASSWORD).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

fn now() -> u64 {
    chrono::Utc::now().timestamp() as u64
}

/// Codes are computed here and checked by the server a moment later: stay
/// clear of a step boundary so both see the same step.
async fn away_from_step_boundary() {
    let into = now() % totp::STEP_SECS;
    if into >= totp::STEP_SECS - 3 {
        tokio::time::sleep(std::time::Duration::from_secs(totp::STEP_SECS - into + 1)).await;
    }
}

fn code(secret: &str, offset_steps: i64) -> String {
    let bytes = totp::from_base32(secret).expect("base32 secret");
    totp::code_at(&bytes, (now() as i64 + offset_steps * totp::STEP_SECS as i64) as u64)
}

fn other_than(code: &str) -> String {
    if code == "000000" {
        "111111".into()
    } else {
        "000000".into()
    }
}

/// Signs in (no 2FA yet), enrols an authenticator with the current code, and returns (access token, secret, recovery codes).
async fn enrol(router: &Router) -> (String, String, Vec<String>) {
    away_from_step_boundary().await;
    let access = s(&sign_in(router).await, "access_token");
    let (status, started) = post(router, "/api/2fa/totp/setup/", Some(&access), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{started}");
    let secret = s(&started, "secret");
    let (status, done) = post(router, "/api/2fa/totp/confirm/", Some(&access), json!({ "code": code(&secret, 0) })).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    let codes: Vec<String> = serde_json::from_value(done["recovery_codes"].clone()).unwrap();
    (s(&done, "access_token"), secret, codes)
}

async fn second_step(router: &Router, token: &str, code: &str) -> (StatusCode, Value) {
    post(router, "/api/token/2fa/", None, json!({ "two_factor_token": token, "code": code })).await
}

#[tokio::test]
async fn enrol_confirm_sign_in_with_app_and_recovery_codes_then_disable() {
    let (state, router, uid) = setup().await;
    away_from_step_boundary().await;
    let first = s(&sign_in(&router).await, "access_token");
    let (_, st) = get(&router, "/api/2fa/status/", &first).await;
    assert_eq!(st, json!({ "enabled": false, "method": "email", "recovery_codes_left": 0 }));

    // setup: a pending secret, nothing switched yet
    let (status, started) = post(&router, "/api/2fa/totp/setup/", Some(&first), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{started}");
    let secret = s(&started, "secret");
    assert_eq!(totp::from_base32(&secret).unwrap().len(), 20);
    let uri = s(&started, "otpauth_uri");
    assert!(uri.starts_with("otpauth://totp/Legal%20Services:tove%40example.com?secret="), "{uri}");
    assert!(uri.contains(&format!("secret={secret}&")) && uri.contains("period=30") && uri.contains("digits=6"), "{uri}");
    assert!(state.store.get_totp(&uid).await.unwrap().is_none(), "only pending until confirmed");
    assert_eq!(get(&router, "/api/2fa/status/", &first).await.1["enabled"], false);

    // confirm: format, wrong code, then the app's code
    let (status, body) = post(&router, "/api/2fa/totp/confirm/", Some(&first), json!({ "code": "12a" })).await;
    assert_eq!((status, body["errors"]["code"][0].clone()), (StatusCode::BAD_REQUEST, json!("code_format")));
    // Codes are kept in variables: what is compared later is the same step.
    let right = code(&secret, 0);
    let (status, body) = post(&router, "/api/2fa/totp/confirm/", Some(&first), json!({ "code": other_than(&right) })).await;
    assert_eq!((status, body["errors"]["code"][0].clone()), (StatusCode::BAD_REQUEST, json!("code_not_correct")));
    let (status, done) = post(&router, "/api/2fa/totp/confirm/", Some(&first), json!({ "code": right.clone() })).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!(done["method"], "totp");
    let recovery: Vec<String> = serde_json::from_value(done["recovery_codes"].clone()).unwrap();
    assert_eq!(recovery.len(), 10);
    let access = s(&done, "access_token");
    assert_eq!(get(&router, "/api/profile/", &first).await.0, StatusCode::UNAUTHORIZED, "other sessions end");
    assert_eq!(get(&router, "/api/profile/", &access).await.0, StatusCode::OK, "this one continues");
    let (_, st) = get(&router, "/api/2fa/status/", &access).await;
    assert_eq!(st, json!({ "enabled": true, "method": "totp", "recovery_codes_left": 10 }));

    // stored on its own item; recovery codes only as hashes; nothing secret in the session user
    let stored = state.store.get_totp(&uid).await.unwrap().unwrap();
    assert_eq!(stored.secret, secret);
    // Exactly the HMAC of each code (server secret; bound to the user; the
    // code without dashes, upper case), in the order the codes were shown,
    // and never the code itself.
    let expected: Vec<String> =
        recovery.iter().map(|c| common::hmac_hex(&["recovery:", &uid, ":", &c.replace('-', "").to_uppercase()])).collect();
    assert_eq!(stored.recovery_hashes, expected);
    for (c, h) in recovery.iter().zip(&stored.recovery_hashes) {
        assert!(!h.to_uppercase().contains(&c.replace('-', "").to_uppercase()) && !h.contains(c.as_str()), "{h} holds the code {c}");
    }
    let (_, me) = get(&router, "/api/profile/", &access).await;
    assert!(!me.to_string().contains(&secret));
    assert!(!access.contains(&secret));

    // login: same pending shape, method totp, nothing mailed, no resend
    let mails = state.mail.outbox().unwrap().lock().unwrap().len();
    let pending = sign_in(&router).await;
    assert_eq!((pending["two_factor_required"].clone(), pending["method"].clone()), (json!(true), json!("totp")));
    assert!(pending.get("access_token").is_none());
    assert_eq!(state.mail.outbox().unwrap().lock().unwrap().len(), mails, "nothing mailed");
    let token = s(&pending, "two_factor_token");
    let (status, body) = post(&router, "/api/resend/2fa/", None, json!({ "two_factor_token": token })).await;
    assert_eq!((status, s(&body, "message")), (StatusCode::BAD_REQUEST, "totp_no_resend".into()));

    // the confirming code was spent; a malformed code is refused by shape
    let (status, body) = second_step(&router, &token, &right).await;
    assert_eq!((status, s(&body, "message")), (StatusCode::BAD_REQUEST, "totp_code_used".into()));
    let (status, body) = second_step(&router, &token, "12-34").await;
    assert_eq!((status, body["errors"]["code"][0].clone()), (StatusCode::BAD_REQUEST, json!("totp_code_format")));
    let next = code(&secret, 1);
    let (status, auth) = second_step(&router, &token, &next).await;
    assert_eq!(status, StatusCode::OK, "{auth}");
    assert_eq!(get(&router, "/api/profile/", &s(&auth, "access_token")).await.0, StatusCode::OK);

    // the same code again, on a new sign-in: refused (accepted at most once)
    let token = s(&sign_in(&router).await, "two_factor_token");
    let (status, body) = second_step(&router, &token, &next).await;
    assert_eq!((status, s(&body, "message")), (StatusCode::BAD_REQUEST, "totp_code_used".into()));

    // a recovery code works once, typed loosely
    let loose = recovery[0].to_lowercase().replace('-', " ");
    let (status, auth) = second_step(&router, &token, &loose).await;
    assert_eq!(status, StatusCode::OK, "{auth}");
    let access = s(&auth, "access_token");
    let token = s(&sign_in(&router).await, "two_factor_token");
    let (status, body) = second_step(&router, &token, &recovery[0]).await;
    assert_eq!((status, s(&body, "message")), (StatusCode::BAD_REQUEST, "code_not_correct".into()));
    let (status, _) = second_step(&router, &token, &recovery[1]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(get(&router, "/api/2fa/status/", &access).await.1["recovery_codes_left"], 8);

    // only the disable call (with proof) removes it
    for body in [json!({ "enabled": false }), json!({})] {
        let (status, res) = post(&router, "/api/2fa/toggle-activation/", Some(&access), body).await;
        assert_eq!((status, s(&res, "message")), (StatusCode::BAD_REQUEST, "totp_disable_required".into()));
    }
    let (status, res) = post(&router, "/api/2fa/totp/setup/", Some(&access), json!({})).await;
    assert_eq!((status, s(&res, "message")), (StatusCode::BAD_REQUEST, "totp_already_enabled".into()));
    let (status, res) = post(&router, "/api/2fa/totp/disable/", Some(&access), json!({})).await;
    assert_eq!((status, res["errors"]["password"][0].clone()), (StatusCode::BAD_REQUEST, json!("password_or_code_required")));
    let (status, res) = post(&router, "/api/2fa/totp/disable/", Some(&access), json!({ "password": "not-the-password" })).await;
    assert_eq!((status, res["errors"]["password"][0].clone()), (StatusCode::BAD_REQUEST, json!("current_password_wrong")));
    let (status, res) = post(&router, "/api/2fa/totp/disable/", Some(&access), json!({ "code": other_than(&code(&secret, 0)) })).await;
    assert_eq!((status, res["errors"]["code"][0].clone()), (StatusCode::BAD_REQUEST, json!("code_not_correct")));
    assert_eq!(get(&router, "/api/2fa/status/", &access).await.1["method"], "totp", "refusals change nothing");
    let (status, res) = post(&router, "/api/2fa/totp/disable/", Some(&access), json!({ "password": PASSWORD })).await;
    assert_eq!(status, StatusCode::OK, "{res}");
    assert_eq!(res, json!({ "enabled": false, "method": "email", "recovery_codes_left": 0 }));
    assert!(state.store.get_totp(&uid).await.unwrap().is_none());
    assert!(sign_in(&router).await.get("access_token").is_some(), "signs in with the password alone again");
    let (status, res) = post(&router, "/api/2fa/totp/disable/", Some(&access), json!({ "password": PASSWORD })).await;
    assert_eq!((status, s(&res, "message")), (StatusCode::BAD_REQUEST, "totp_not_enabled".into()));
}

#[tokio::test]
async fn five_wrong_app_codes_per_challenge_and_disable_with_a_recovery_code() {
    let (state, router, uid) = setup().await;
    let (access, secret, recovery) = enrol(&router).await;
    let token = s(&sign_in(&router).await, "two_factor_token");
    let right = code(&secret, 1);
    for _ in 0..5 {
        let (_, body) = second_step(&router, &token, &other_than(&right)).await;
        assert_eq!(body["message"], "code_not_correct");
    }
    let (status, body) = second_step(&router, &token, &right).await;
    assert_eq!((status, s(&body, "message")), (StatusCode::BAD_REQUEST, "totp_attempts_exceeded".into()));
    let (status, body) = second_step(&router, &token, &recovery[0]).await;
    assert_eq!((status, s(&body, "message")), (StatusCode::BAD_REQUEST, "totp_attempts_exceeded".into()), "{body}");
    assert_eq!(state.store.get_totp(&uid).await.unwrap().unwrap().recovery_hashes.len(), 10, "nothing spent by refused tries");

    // a new sign-in gets a new challenge
    let token = s(&sign_in(&router).await, "two_factor_token");
    assert_eq!(second_step(&router, &token, &right).await.0, StatusCode::OK);

    // disable with a recovery code (an app code would do as well)
    let (status, res) = post(&router, "/api/2fa/totp/disable/", Some(&access), json!({ "code": recovery[3] })).await;
    assert_eq!(status, StatusCode::OK, "{res}");
    assert_eq!(res["enabled"], false);
    assert!(state.store.get_totp(&uid).await.unwrap().is_none());
}

#[tokio::test]
async fn confirmation_needs_a_live_setup_and_allows_five_wrong_codes() {
    let (_state, router, _uid) = setup().await;
    away_from_step_boundary().await;
    let access = s(&sign_in(&router).await, "access_token");
    let (status, body) = post(&router, "/api/2fa/totp/confirm/", Some(&access), json!({ "code": "123456" })).await;
    assert_eq!((status, s(&body, "message")), (StatusCode::BAD_REQUEST, "totp_setup_expired".into()));
    let (_, started) = post(&router, "/api/2fa/totp/setup/", Some(&access), json!({})).await;
    let secret = s(&started, "secret");
    let right = code(&secret, 0);
    for _ in 0..5 {
        let (_, body) = post(&router, "/api/2fa/totp/confirm/", Some(&access), json!({ "code": other_than(&right) })).await;
        assert_eq!(body["errors"]["code"][0], "code_not_correct");
    }
    let (status, body) = post(&router, "/api/2fa/totp/confirm/", Some(&access), json!({ "code": right })).await;
    assert_eq!((status, s(&body, "message")), (StatusCode::BAD_REQUEST, "totp_setup_attempts_exceeded".into()));
    // a new setup starts over with a new secret
    let (_, again) = post(&router, "/api/2fa/totp/setup/", Some(&access), json!({})).await;
    let secret2 = s(&again, "secret");
    assert_ne!(secret, secret2);
    let (status, done) = post(&router, "/api/2fa/totp/confirm/", Some(&access), json!({ "code": code(&secret2, 0) })).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    // the confirmation cannot be replayed
    let (status, body) =
        post(&router, "/api/2fa/totp/confirm/", Some(&s(&done, "access_token")), json!({ "code": code(&secret2, 0) })).await;
    assert_eq!((status, s(&body, "message")), (StatusCode::BAD_REQUEST, "totp_setup_expired".into()));
    // setup and confirm need a signed-in user
    assert_eq!(post(&router, "/api/2fa/totp/setup/", None, json!({})).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(post(&router, "/api/2fa/totp/confirm/", None, json!({ "code": "123456" })).await.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn toggle_activation_sets_an_explicit_state_and_still_flips_without_a_body() {
    let (state, router, _uid) = setup().await;
    let access = s(&sign_in(&router).await, "access_token");
    let toggle = |body: Option<Value>, token: String| {
        let router = router.clone();
        async move { testkit::call(&router, Method::POST, "/api/2fa/toggle-activation/", Some(&token), body).await }
    };
    // setting the current state changes nothing (and ends no session)
    let (status, st) = toggle(Some(json!({ "enabled": false })), access.clone()).await;
    assert_eq!((status, st["enabled"].clone()), (StatusCode::OK, json!(false)));
    assert_eq!(get(&router, "/api/profile/", &access).await.0, StatusCode::OK);
    let (status, body) = toggle(Some(json!({ "enabled": "yes" })), access.clone()).await;
    assert_eq!((status, s(&body, "message")), (StatusCode::BAD_REQUEST, "invalid_request_body".into()));

    let (_, st) = toggle(Some(json!({ "enabled": true })), access.clone()).await;
    assert_eq!(st, json!({ "enabled": true, "method": "email", "recovery_codes_left": 0 }));
    assert_eq!(get(&router, "/api/profile/", &access).await.0, StatusCode::UNAUTHORIZED, "enabling ends sessions");

    // sign in with the mailed code, then set "on" again: stays on, session kept
    let token = s(&sign_in(&router).await, "two_factor_token");
    let mail = state.mail.outbox().unwrap().lock().unwrap().last().unwrap().body.clone();
    let mailed = mail.split(|c: char| !c.is_ascii_digit()).find(|w| w.len() == 6).unwrap().to_string();
    let (_, auth) = second_step(&router, &token, &mailed).await;
    let access = s(&auth, "access_token");
    let (_, st) = toggle(Some(json!({ "enabled": true })), access.clone()).await;
    assert_eq!(st["enabled"], true);
    assert_eq!(get(&router, "/api/profile/", &access).await.0, StatusCode::OK);

    // no body at all: the old flip, which would turn it off: that needs the password
    let (status, st) = toggle(None, access.clone()).await;
    assert_eq!((status, st["errors"]["password"][0].clone()), (StatusCode::BAD_REQUEST, json!("password_or_code_required")));
    let (status, st) = toggle(Some(json!({ "password": PASSWORD })), access.clone()).await;
    assert_eq!((status, st["enabled"].clone()), (StatusCode::OK, json!(false)));
    let (_, st) = toggle(Some(json!({ "enabled": false })), access.clone()).await;
    assert_eq!(st["enabled"], false);
}

#[tokio::test]
async fn an_expired_sign_in_has_its_own_key_on_resend_and_code_entry() {
    let (state, router, uid) = setup().await;
    let access = s(&sign_in(&router).await, "access_token");
    post(&router, "/api/2fa/toggle-activation/", Some(&access), json!({ "enabled": true })).await;
    let user = state.store.get_user(&uid).await.unwrap().unwrap();
    let long_ago = chrono::Utc::now().timestamp() - 3600;
    let (expired, _) =
        Jwt::new(testkit::TEST_JWT_SECRET).issue_with(&uid, TokenKind::TwoFactor, long_ago, user.token_version, None).unwrap();
    let (status, body) = post(&router, "/api/resend/2fa/", None, json!({ "two_factor_token": expired })).await;
    assert_eq!((status, s(&body, "message")), (StatusCode::BAD_REQUEST, "two_factor_session_expired".into()));
    let (status, body) = second_step(&router, &expired, "123456").await;
    assert_eq!((status, s(&body, "message")), (StatusCode::BAD_REQUEST, "two_factor_session_expired".into()));
    // a live token still gets a new code
    let token = s(&sign_in(&router).await, "two_factor_token");
    let (status, body) = post(&router, "/api/resend/2fa/", None, json!({ "two_factor_token": token })).await;
    assert_eq!((status, s(&body, "message")), (StatusCode::OK, "code_sent".into()));
}

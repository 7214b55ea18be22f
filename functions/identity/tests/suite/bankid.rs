//! Signing in with BankID and linking it, against the providers' stand-in
//! (BankID's RP API v6 copy) and the local AWS stand-in, each test on its
//! own table.

use crate::common;

use axum::http::{Method, StatusCode};
use axum::Router;
use common::{s, PASSWORD};
use serde_json::{json, Value};
use shared::api::{finish, AppState};
use shared::domain::audit::AuditAction;
use shared::domain::Role;
use shared::providers::stand_in::bankid::Path;
use shared::providers::stand_in::StandIn;
use shared::testkit;

const NUMBER: &str = "199001012385";
const OTHER_NUMBER: &str = "197707071234";

async fn setup() -> (AppState, Router, StandIn) {
    let (state, _, stand_in) = testkit::services_with_stand_in_handle().await;
    let router = finish(identity::api(), state.clone());
    (state, router, stand_in)
}

/// A path straight to completion for `number`.
fn completes_for(number: &str) -> Path {
    Path { personal_number: number.into(), hints: vec![], ..Path::default() }
}

/// A call with the order's cookie (`None`: without one).
async fn call(
    router: &Router,
    method: Method,
    path: &str,
    token: Option<&str>,
    cookie: Option<&str>,
    body: Value,
) -> (StatusCode, Value, Option<String>) {
    let cookie_header = cookie.map(|c| format!("bankid_order={c}"));
    let headers: Vec<(&str, &str)> = cookie_header.iter().map(|c| ("cookie", c.as_str())).collect();
    let (status, h, bytes) = testkit::call_with_headers(router, method, path, token, Some(body), &headers).await;
    let set = h.get("set-cookie").map(|v| v.to_str().unwrap().to_string());
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null), set)
}

/// Starts an order (`link_token`: a link of that user) and answers its orderRef and the cookie's secret.
async fn start(router: &Router, link_token: Option<&str>) -> (String, String, Value) {
    let path = if link_token.is_some() { "/api/bankid/link/" } else { "/api/bankid/auth/" };
    let (status, body, set) = call(router, Method::POST, path, link_token, None, json!({"device": "qr"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let set = set.expect("the order's cookie");
    assert!(set.contains("HttpOnly") && set.contains("SameSite=Strict") && set.contains("Path=/api/bankid/"), "{set}");
    let secret = set.split(';').next().unwrap().strip_prefix("bankid_order=").unwrap().to_string();
    (s(&body, "order_ref"), secret, body)
}

async fn collect(router: &Router, order_ref: &str, secret: Option<&str>, token: Option<&str>) -> (StatusCode, Value) {
    let (status, body, _) = call(router, Method::POST, "/api/bankid/collect/", token, secret, json!({"order_ref": order_ref})).await;
    (status, body)
}

/// Signs in with password (no second factor set) and answers the access token.
async fn password_token(router: &Router, email: &str) -> String {
    let (status, body) = common::login(router, email, PASSWORD).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    s(&body, "access_token")
}

#[tokio::test]
async fn a_linked_person_signs_in_with_bankid_and_the_order_works_once() {
    let (state, router, stand_in) = setup().await;
    let user = testkit::account(&state, "linda@example.com", PASSWORD, Role::Customer).await;
    // Linked by completing an order while signed in with password.
    let token = password_token(&router, "linda@example.com").await;
    stand_in.bankid_next(completes_for(NUMBER));
    let (order_ref, secret, _) = start(&router, Some(&token)).await;
    let (status, body) = collect(&router, &order_ref, Some(&secret), Some(&token)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["linked"], true);
    let (_, state_body) = common::get(&router, "/api/bankid/link/", &token).await;
    assert_eq!(state_body, json!({"linked": true, "personal_number": "19900101-****"}));

    // Signing in: pending with the QR code, then complete with tokens.
    stand_in.bankid_next(Path { personal_number: NUMBER.into(), hints: vec!["outstandingTransaction".into()], ..Path::default() });
    let (order_ref, secret, started) = start(&router, None).await;
    let qr = s(&started, "qr_data");
    assert!(qr.starts_with("bankid.") && qr.ends_with(&qr[qr.len() - 64..]) && qr.split('.').count() == 4, "{qr}");
    assert!(!started.to_string().contains("qr_start_secret") && !started.to_string().contains("qrStartSecret"));
    let (status, body) = collect(&router, &order_ref, Some(&secret), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!((body["status"].as_str(), body["message"].as_str()), (Some("pending"), Some("rfa1")));
    assert!(s(&body, "qr_data").starts_with("bankid.") && s(&body, "qr_data_next").starts_with("bankid."));
    let (status, body) = collect(&router, &order_ref, Some(&secret), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["status"], "complete");
    let access = s(&body["auth"], "access_token");
    assert!(body["auth"]["device_token"].is_string(), "the same tokens as a password and code sign-in");
    let (status, me) = common::get(&router, "/api/profile/", &access).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(me["email"], "linda@example.com");
    // Audited like a sign-in, naming BankID.
    let filter = shared::store::audit::AuditFilter {
        customer_uid: None,
        actor_uid: Some(user.uid.clone()),
        action: Some(AuditAction::SignedIn),
        from: None,
        to: None,
    };
    let events = state.store.audit_page(&filter, None, 25).await.unwrap();
    assert!(events.results.iter().any(|e| e.detail.as_deref() == Some("bankid")), "{:?}", events.results);

    // The same order again: refused, no second session.
    let (status, body) = collect(&router, &order_ref, Some(&secret), None).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("bankid_order_finished")));
}

#[tokio::test]
async fn an_order_answers_only_the_browser_that_started_it() {
    let (_, router, stand_in) = setup().await;
    stand_in.bankid_next(completes_for(NUMBER));
    let (order_ref, secret, _) = start(&router, None).await;
    let (_, other_secret, _) = start(&router, None).await;
    for wrong in [None, Some(other_secret.as_str()), Some("not-the-secret")] {
        let (status, _) = collect(&router, &order_ref, wrong, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{wrong:?}");
        let (status, _, _) = call(&router, Method::POST, "/api/bankid/cancel/", None, wrong, json!({"order_ref": order_ref})).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
    let (status, _) = collect(&router, "no-such-order", Some(&secret), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Its own browser still gets it (and the person is unknown: refused, no account made).
    let (status, body) = collect(&router, &order_ref, Some(&secret), None).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("bankid_unknown_person")), "{body}");
    assert!(body.get("auth").is_none());
}

#[tokio::test]
async fn every_hint_and_failure_comes_with_bankids_message() {
    let (_, router, stand_in) = setup().await;
    let hints = ["outstandingTransaction", "noClient", "started", "userSign", "userMrtd", "userCallConfirm"];
    let want = ["rfa1", "rfa1", "rfa14", "rfa9", "rfa23", "rfa21"];
    stand_in.bankid_next(Path { hints: hints.map(String::from).to_vec(), end: "userCancel".into(), ..Path::default() });
    let (order_ref, secret, _) = start(&router, None).await;
    for (hint, key) in hints.iter().zip(want) {
        let (status, body) = collect(&router, &order_ref, Some(&secret), None).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!((body["hint_code"].as_str(), body["message"].as_str()), (Some(*hint), Some(key)));
    }
    let (_, body) = collect(&router, &order_ref, Some(&secret), None).await;
    assert_eq!((body["status"].as_str(), body["message"].as_str()), (Some("failed"), Some("rfa6")));
    let (status, _) = collect(&router, &order_ref, Some(&secret), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "a failed order is over");
    for (end, key) in [("expiredTransaction", "rfa8"), ("startFailed", "rfa17b"), ("certificateErr", "rfa16"), ("userCancel", "rfa6")] {
        stand_in.bankid_next(Path { hints: vec![], end: end.into(), ..Path::default() });
        let (order_ref, secret, _) = start(&router, None).await;
        let (_, body) = collect(&router, &order_ref, Some(&secret), None).await;
        assert_eq!((body["status"].as_str(), body["hint_code"].as_str(), body["message"].as_str()), (Some("failed"), Some(end), Some(key)));
    }
    // On this device, startFailed has its own text.
    stand_in.bankid_next(Path { hints: vec!["outstandingTransaction".into()], end: "startFailed".into(), ..Path::default() });
    let (status, body, set) = call(&router, Method::POST, "/api/bankid/auth/", None, None, json!({"device": "this_device"})).await;
    assert_eq!(status, StatusCode::OK);
    let secret = set.unwrap().split(';').next().unwrap().strip_prefix("bankid_order=").unwrap().to_string();
    let order_ref = s(&body, "order_ref");
    let (_, body) = collect(&router, &order_ref, Some(&secret), None).await;
    assert_eq!(body["message"], "rfa13");
    let (_, body) = collect(&router, &order_ref, Some(&secret), None).await;
    assert_eq!(body["message"], "rfa17a");
    // An order already running for the person.
    stand_in.bankid_next(Path { error: Some("alreadyInProgress".into()), ..Path::default() });
    let (status, body, _) = call(&router, Method::POST, "/api/bankid/auth/", None, None, json!({"device": "qr"})).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("bankid_rfa4")));
}

#[tokio::test]
async fn cancel_ends_the_order_at_bankid() {
    let (_, router, stand_in) = setup().await;
    let (order_ref, secret, _) = start(&router, None).await;
    let (status, body, _) = call(&router, Method::POST, "/api/bankid/cancel/", None, Some(&secret), json!({"order_ref": order_ref})).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::OK, Some("bankid_cancelled")));
    assert_eq!(stand_in.bankid_calls().1, 1);
    let (status, body) = collect(&router, &order_ref, Some(&secret), None).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("bankid_order_finished")));
}

#[tokio::test]
async fn one_number_links_to_one_account_and_a_link_needs_its_own_user() {
    let (state, router, stand_in) = setup().await;
    testkit::account(&state, "a@example.com", PASSWORD, Role::Lawyer).await;
    testkit::account(&state, "b@example.com", PASSWORD, Role::Customer).await;
    let (a, b) = (password_token(&router, "a@example.com").await, password_token(&router, "b@example.com").await);
    // Nobody signed in cannot link.
    let (status, _, _) = call(&router, Method::POST, "/api/bankid/link/", None, None, json!({"device": "qr"})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // A's link order polled by B (or by nobody) is not B's.
    stand_in.bankid_next(completes_for(NUMBER));
    let (order_ref, secret, _) = start(&router, Some(&a)).await;
    for token in [Some(b.as_str()), None] {
        let (status, _) = collect(&router, &order_ref, Some(&secret), token).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
    let (status, body) = collect(&router, &order_ref, Some(&secret), Some(&a)).await;
    assert_eq!((status, body["linked"].as_bool()), (StatusCode::OK, Some(true)), "{body}");
    // The same person cannot be linked to B too.
    stand_in.bankid_next(completes_for(NUMBER));
    let (order_ref, secret, _) = start(&router, Some(&b)).await;
    let (status, body) = collect(&router, &order_ref, Some(&secret), Some(&b)).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("bankid_number_taken")));
    // A has a number: another is refused before BankID is asked.
    let (status, body, _) = call(&router, Method::POST, "/api/bankid/link/", Some(&a), None, json!({"device": "qr"})).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("bankid_already_linked")));
    // Unlinked, the number signs nobody in; B may then take it.
    let (status, _, _) = call(&router, Method::DELETE, "/api/bankid/link/", Some(&a), None, json!({})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body, _) = call(&router, Method::DELETE, "/api/bankid/link/", Some(&a), None, json!({})).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("bankid_not_linked")));
    stand_in.bankid_next(completes_for(NUMBER));
    let (order_ref, secret, _) = start(&router, None).await;
    let (_, body) = collect(&router, &order_ref, Some(&secret), None).await;
    assert_eq!(body["message"], "bankid_unknown_person");
    stand_in.bankid_next(completes_for(NUMBER));
    let (order_ref, secret, _) = start(&router, Some(&b)).await;
    let (status, body) = collect(&router, &order_ref, Some(&secret), Some(&b)).await;
    assert_eq!((status, body["linked"].as_bool()), (StatusCode::OK, Some(true)), "{body}");
    // B's second person: refused, B keeps the first.
    let _ = OTHER_NUMBER;
    let (_, body) = common::get(&router, "/api/bankid/link/", &b).await;
    assert_eq!(body["linked"], true);
}

//! The customer-account routes against the local AWS stand-in, each test on
//! its own table. The identity routes are mounted too, to sign in.

use crate::common;

use axum::http::{Method, StatusCode};
use axum::Router;
use common::*;
use serde_json::{json, Value};
use shared::domain::Role;
use shared::testkit;

fn company(email: &str, regno: &str) -> Value {
    registration(email, regno)
}

fn individual(email: &str) -> Value {
    individual_registration(email)
}

async fn register(router: &Router, body: Value) -> (StatusCode, Value) {
    call(router, Method::POST, "/api/registration/", None, Some(body)).await
}

#[tokio::test]
async fn registration_creates_a_pending_customer_that_cannot_log_in() {
    let World { state, router, admin } = world().await;
    let (status, body) = register(&router, company("Karin@Example.com", "556677-1234")).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body, json!({ "message": "registration_received" }), "the answer names no account");
    let user = state.store.find_user_by_email("karin@example.com").await.unwrap().unwrap();
    let uid = user.uid.as_str();
    assert_eq!(user.email, "karin@example.com");
    assert_eq!(user.user_type, Some(3));
    assert!(!user.active);
    let profile = state.store.get_customer_profile(uid).await.unwrap().unwrap();
    assert_eq!(profile.company_name.as_deref(), Some("Kund AB"));
    assert_eq!(profile.sector.as_ref().map(|s| s.name.as_str()), Some("Consumer goods"));
    assert_eq!(profile.invoice_address, profile.profile, "same invoice address copies the visiting one");

    // Right password, but pending: a clear, translated refusal.
    let (status, body) = login(&router, "karin@example.com", PASSWORD).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], "account_pending");

    assert_eq!(emails(&list(&router, &admin, "status=pending").await), ["karin@example.com"]);
    assert!(emails(&list(&router, &admin, "status=active").await).is_empty());
    let (_, bubbles) = call(&router, Method::GET, "/api/bubbles/", Some(&admin), None).await;
    assert_eq!(bubbles, json!({ "pending_cases": 0, "pending_customers": 1 }));

    // An individual needs no company fields.
    let (status, body) = register(&router, individual("ind@example.com")).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let ind = state.store.find_user_by_email("ind@example.com").await.unwrap().unwrap();
    let p = state.store.get_customer_profile(&ind.uid).await.unwrap().unwrap();
    assert_eq!(p.company_name, None);
    assert_eq!(p.company_registration_number, None);
}

#[tokio::test]
async fn registration_refuses_bad_input_per_field() {
    let World { router, .. } = world().await;
    let (status, body) = call(&router, Method::POST, "/api/registration/", None, Some(json!({ "customer_type": "Company" }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], "validation_failed");
    for f in [
        "first_name",
        "last_name",
        "email",
        "password",
        "company_name",
        "company_registration_number",
        "sector",
        "phone",
        "profile.address_1",
        "profile.city",
        "profile.post_code",
        "profile.country",
    ] {
        assert_eq!(field(&body, f), ["required"], "{f}: {body}");
    }
    assert_eq!(field(&body, "terms_accepted"), ["terms_not_agreed"]);
    assert_eq!(field(&body, "privacy_accepted"), ["privacy_not_agreed"]);

    let mut bad = company("not-an-email", "5566771234");
    bad["confirm_password"] = json!("Other-secret-pass-2");
    bad["phone"] = json!("12ab");
    bad["profile"]["post_code"] = json!("111 22");
    bad["profile"]["country"] = json!(2);
    bad["sector"] = json!("999");
    let (status, body) = register(&router, bad).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(field(&body, "email"), ["invalid_email"]);
    assert_eq!(field(&body, "company_registration_number"), ["invalid_registration_number"]);
    assert_eq!(field(&body, "confirm_password"), ["passwords_do_not_match"]);
    assert_eq!(field(&body, "phone"), ["invalid_phone"]);
    assert_eq!(field(&body, "profile.post_code"), ["invalid_post_code"]);
    assert_eq!(field(&body, "profile.country"), ["invalid_country"]);
    assert_eq!(field(&body, "sector"), ["invalid_sector"]);

    // Not JSON at all, or a wrong type: still the API's error shape.
    let (status, body) = call(&router, Method::POST, "/api/registration/", None, Some(json!({ "customer_type": "Alien" }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], "invalid_request_body");
}

/// The subjects of the mails sent to `to`, oldest first.
fn subjects_to(state: &shared::api::AppState, to: &str) -> Vec<String> {
    state.mail.outbox().unwrap().lock().unwrap().iter().filter(|m| m.to == to).map(|m| m.subject.clone()).collect()
}

const ALREADY: &str = "Du har redan ett konto / You already have an account";
const COMPANY_KNOWN: &str = "Företaget är redan registrerat / The company is already registered";

#[tokio::test]
async fn a_taken_address_or_number_gets_the_same_answer_and_the_address_a_mail() {
    let World { state, router, admin } = world().await;
    let first = register(&router, company("karin@example.com", "556677-1234")).await;
    assert_eq!(first.0, StatusCode::CREATED, "{first:?}");
    assert!(subjects_to(&state, "karin@example.com").is_empty(), "a new sign-up is not mailed");

    // The address again, in another letter case: the same answer, no second
    // account, and the owner is told by mail.
    let again = register(&router, company("KARIN@example.COM", "556677-9999")).await;
    assert_eq!(again, first, "the answer does not tell the address has an account");
    assert_eq!(subjects_to(&state, "karin@example.com"), [ALREADY]);
    assert!(state.store.registration_number_owner("556677-9999").await.unwrap().is_none(), "nothing was created");

    // A new address with a taken number: the same answer, no account, and
    // the new address is told why.
    let other = register(&router, company("other@example.com", "556677-1234")).await;
    assert_eq!(other, first);
    assert!(state.store.find_user_by_email("other@example.com").await.unwrap().is_none());
    assert_eq!(subjects_to(&state, "other@example.com"), [COMPANY_KNOWN]);
    assert_eq!(emails(&list(&router, &admin, "status=pending").await), ["karin@example.com"]);

    // The owner's inbox is not flooded: past the per-recipient limit the
    // mail is skipped, and the answer is still the same (no 429).
    let limit = shared::store::rate_limit::MAIL_PER_RECIPIENT;
    let window = |t: i64| t.div_euclid(limit.window_secs);
    let started = window(chrono::Utc::now().timestamp());
    let mut answers = vec![];
    for _ in 0..limit.max + 2 {
        answers.push(register(&router, individual("karin@example.com")).await);
    }
    if window(chrono::Utc::now().timestamp()) == started {
        assert!(answers.iter().all(|a| *a == first), "{answers:?}");
        assert_eq!(subjects_to(&state, "karin@example.com").len(), limit.max as usize);
    }
}

/// A sign-up sent with an `Idempotency-Key`: its status, whether the answer
/// was replayed, and its body.
async fn keyed(router: &Router, key: &str, body: Value) -> (StatusCode, bool, Value) {
    let key = format!("\"{key}\"");
    let (status, headers, bytes) =
        testkit::call_with_headers(router, Method::POST, "/api/registration/", None, Some(body), &[("idempotency-key", &key)]).await;
    (status, headers.contains_key("idempotent-replayed"), serde_json::from_slice(&bytes).unwrap())
}

#[tokio::test]
async fn a_retried_sign_up_with_its_key_creates_one_account_and_mails_once() {
    let World { state, router, admin } = world().await;
    let key = "8e03978e-40d5-43e8-bc93-6894a57f9324";
    let first = keyed(&router, key, company("karin@example.com", "556677-1234")).await;
    assert_eq!((first.0, first.1), (StatusCode::CREATED, false), "{first:?}");
    let retried = keyed(&router, key, company("karin@example.com", "556677-1234")).await;
    assert_eq!(retried, (StatusCode::CREATED, true, first.2.clone()), "the retry gets the first answer");
    assert_eq!(emails(&list(&router, &admin, "status=pending").await), ["karin@example.com"], "one account");
    assert!(subjects_to(&state, "karin@example.com").is_empty(), "a new sign-up is not mailed");

    // The same key with another address is that address's own request: not
    // replayed, it signs up.
    let other = keyed(&router, key, company("other@example.com", "556677-9999")).await;
    assert_eq!((other.0, other.1, &other.2), (StatusCode::CREATED, false, &first.2), "{other:?}");
    assert!(state.store.find_user_by_email("other@example.com").await.unwrap().is_some());

    // A taken address signed up again and retried: the same answer as a new
    // sign-up's (replayed like one), and one mail telling why.
    let taken_key = "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a01";
    let taken = keyed(&router, taken_key, individual("karin@example.com")).await;
    assert_eq!((taken.0, taken.1, &taken.2), (StatusCode::CREATED, false, &first.2), "the answer does not tell the address has an account");
    let taken_again = keyed(&router, taken_key, individual("karin@example.com")).await;
    assert_eq!((taken_again.0, taken_again.1, &taken_again.2), (StatusCode::CREATED, true, &first.2));
    assert_eq!(subjects_to(&state, "karin@example.com"), [ALREADY], "one mail for the sign-up and its retry");
    assert_eq!(emails(&list(&router, &admin, "status=pending").await).len(), 2, "no account more");

    // A new address retried with a key a taken address used: replayed for
    // neither, since keys are the address's own.
    let fresh = keyed(&router, taken_key, individual("fresh@example.com")).await;
    assert_eq!((fresh.0, fresh.1), (StatusCode::CREATED, false), "{fresh:?}");
    assert!(state.store.find_user_by_email("fresh@example.com").await.unwrap().is_some());

    // The same key and address with another body is refused as reused.
    let reused = keyed(&router, key, company("karin@example.com", "556677-4321")).await;
    assert_eq!((reused.0, reused.2["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("idempotency_key_reused")), "{reused:?}");
}

#[tokio::test]
async fn sign_ups_are_throttled_per_client_address() {
    let World { state, router, .. } = world().await;
    let limit = shared::store::rate_limit::REGISTRATION_PER_ADDRESS;
    let t = chrono::Utc::now().timestamp();
    for _ in 0..limit.max {
        state.store.count_failure(limit, "unknown", t).await.unwrap();
    }
    let (status, body) = register(&router, company("karin@example.com", "556677-1234")).await;
    if t.div_euclid(limit.window_secs) != chrono::Utc::now().timestamp().div_euclid(limit.window_secs) {
        return; // the window ended in between: nothing to check
    }
    assert_eq!((status, body["message"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_many_requests")));
    assert!(state.store.find_user_by_email("karin@example.com").await.unwrap().is_none());
    // Another address still signs up.
    let form: shared::domain::customer::Registration = serde_json::from_value(company("karin@example.com", "556677-1234")).unwrap();
    shared::services::customers::register(&state, form, "10.9.9.9", &shared::store::idempotency::Once::none()).await.unwrap();
    assert!(state.store.find_user_by_email("karin@example.com").await.unwrap().is_some());
}

#[tokio::test]
async fn concurrent_sign_ups_with_one_email_or_one_number_leave_one_account() {
    let World { state, router, admin } = world().await;
    call(&router, Method::GET, "/api/business-sector/", None, None).await;
    let reg = |body: Value| {
        let router = router.clone();
        tokio::spawn(async move { call(&router, Method::POST, "/api/registration/", None, Some(body)).await })
    };
    // One address in two letter cases, two different numbers.
    let a = reg(company("same@example.com", "111111-1111"));
    let b = reg(company("SAME@example.com", "222222-2222"));
    let (a, b) = (a.await.unwrap(), b.await.unwrap());
    assert_eq!(a, b, "both answer alike");
    assert_eq!(a.0, StatusCode::CREATED, "{a:?}");
    let numbers = [
        state.store.registration_number_owner("111111-1111").await.unwrap(),
        state.store.registration_number_owner("222222-2222").await.unwrap(),
    ];
    assert_eq!(numbers.iter().flatten().count(), 1, "one account: {numbers:?}");
    assert_eq!(subjects_to(&state, "same@example.com"), [ALREADY], "the owner is told of the other try");

    // One number, two addresses.
    let c = reg(company("c@example.com", "333333-3333"));
    let d = reg(company("d@example.com", "333333-3333"));
    let (c, d) = (c.await.unwrap(), d.await.unwrap());
    assert_eq!((c.0, &c), (StatusCode::CREATED, &d), "both answer alike");
    let (c_user, d_user) =
        (state.store.find_user_by_email("c@example.com").await.unwrap(), state.store.find_user_by_email("d@example.com").await.unwrap());
    assert!(c_user.is_some() != d_user.is_some(), "exactly one account: {c_user:?} {d_user:?}");
    // The loser left nothing behind and was told why.
    let loser_email = if c_user.is_some() { "d@example.com" } else { "c@example.com" };
    assert_eq!(subjects_to(&state, loser_email), [COMPANY_KNOWN]);
    assert_eq!(list(&router, &admin, "status=pending").await["results"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn email_and_registration_number_checks_answer_as_the_form_types() {
    let World { router, .. } = world().await;
    register(&router, company("karin@example.com", "556677-1234")).await;
    for path in ["/api/email/check/", "/api/create/customer/email/check/"] {
        let (status, body) = call(&router, Method::POST, path, None, Some(json!({ "email": "Karin@EXAMPLE.com" }))).await;
        assert_eq!((status, body), (StatusCode::OK, json!({ "available": false })));
        let (status, body) = call(&router, Method::POST, path, None, Some(json!({ "email": "new@example.com" }))).await;
        assert_eq!((status, body), (StatusCode::OK, json!({ "available": true })));
        let (status, body) = call(&router, Method::POST, path, None, Some(json!({ "email": "nope" }))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(field(&body, "email"), ["invalid_email"]);
    }
    let path = "/api/create/customer/company-registration-number/check/";
    let check = |n: &str| json!({ "company_registration_number": n });
    assert_eq!(call(&router, Method::POST, path, None, Some(check("556677-1234"))).await.1, json!({ "available": false }));
    assert_eq!(call(&router, Method::POST, path, None, Some(check("556677-0000"))).await.1, json!({ "available": true }));
    let (status, body) = call(&router, Method::POST, path, None, Some(check("556677 1234"))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(field(&body, "company_registration_number"), ["invalid_registration_number"]);
}

#[tokio::test]
async fn availability_checks_are_throttled_per_client_address() {
    let World { state, router, .. } = world().await;
    // The router's requests come from one address ("unknown" in process):
    // fill its window, then every check answers 429 while another address still gets answers.
    let limit = shared::store::rate_limit::LOOKUP_PER_ADDRESS;
    let t = chrono::Utc::now().timestamp();
    for _ in 0..limit.max {
        state.store.count_failure(limit, "unknown", t).await.unwrap();
    }
    let window = |t: i64| t.div_euclid(limit.window_secs);
    let refused = [
        ("/api/email/check/", json!({ "email": "a@example.com" })),
        ("/api/create/customer/email/check/", json!({ "email": "a@example.com" })),
        ("/api/create/customer/company-registration-number/check/", json!({ "company_registration_number": "556677-0000" })),
    ];
    for (path, body) in refused {
        let (status, body) = call(&router, Method::POST, path, None, Some(body)).await;
        if window(chrono::Utc::now().timestamp()) != window(t) {
            return; // the window ended in between: nothing to check
        }
        assert_eq!((status, body["message"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_many_requests")), "{path}");
    }
    assert!(shared::services::customers::email_available(&state, "a@example.com", "10.9.9.9").await.unwrap());
}

#[tokio::test]
async fn business_sectors_are_seeded_once_and_only_admin_changes_them() {
    let World { state, router, admin } = world().await;
    let (status, first) = call(&router, Method::GET, "/api/business-sector/", None, None).await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = first.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), shared::domain::customer::SEEDED_SECTORS.len());
    for n in shared::domain::customer::SEEDED_SECTORS {
        assert!(names.contains(&n), "{n}");
    }
    let (_, again) = call(&router, Method::GET, "/api/business-sector/", None, None).await;
    assert_eq!(again, first, "seeding is idempotent");

    testkit::account(&state, "customer@example.com", PASSWORD, Role::Customer).await;
    let customer = token(&router, "customer@example.com", PASSWORD).await;
    let body = Some(json!({ "name": "Law" }));
    assert_eq!(call(&router, Method::POST, "/api/business-sector/create/", None, body.clone()).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(call(&router, Method::POST, "/api/business-sector/create/", Some(&customer), body.clone()).await.0, StatusCode::FORBIDDEN);
    assert_eq!(call(&router, Method::PUT, "/api/business-sector/update/1/", Some(&customer), body.clone()).await.0, StatusCode::FORBIDDEN);
    assert_eq!(call(&router, Method::DELETE, "/api/business-sector/delete/1/", Some(&customer), None).await.0, StatusCode::FORBIDDEN);

    let (status, blank) = call(&router, Method::POST, "/api/business-sector/create/", Some(&admin), Some(json!({ "name": " " }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(field(&blank, "name"), ["required"]);
    let (status, created) = call(&router, Method::POST, "/api/business-sector/create/", Some(&admin), body).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(id, "11", "new ids follow the seeded ones");
    let (status, _) =
        call(&router, Method::PUT, &format!("/api/business-sector/update/{id}/"), Some(&admin), Some(json!({ "name": "Legal" }))).await;
    assert_eq!(status, StatusCode::OK);
    let (_, listed) = call(&router, Method::GET, "/api/business-sector/", None, None).await;
    assert!(listed.as_array().unwrap().iter().any(|s| s["id"] == id.as_str() && s["name"] == "Legal"));
    let (status, _) = call(&router, Method::DELETE, &format!("/api/business-sector/delete/{id}/"), Some(&admin), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        call(&router, Method::DELETE, &format!("/api/business-sector/delete/{id}/"), Some(&admin), None).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        call(&router, Method::PUT, "/api/business-sector/update/nope/", Some(&admin), Some(json!({ "name": "X" }))).await.0,
        StatusCode::NOT_FOUND
    );
    let (_, listed) = call(&router, Method::GET, "/api/business-sector/", None, None).await;
    assert_eq!(listed.as_array().unwrap().len(), 10);
}

#[tokio::test]
async fn approval_activation_link_is_single_use_and_the_customer_can_then_log_in() {
    let World { state, router, admin } = world().await;
    let (status, body) = register(&router, company("karin@example.com", "556677-1234")).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let uid = state.store.find_user_by_email("karin@example.com").await.unwrap().unwrap().uid;

    testkit::account(&state, "sales@example.com", PASSWORD, Role::SalesPerson).await;
    let sales = token(&router, "sales@example.com", PASSWORD).await;
    let approve = format!("/api/customer/approve/{uid}/");
    assert_eq!(call(&router, Method::POST, &approve, Some(&sales), None).await.0, StatusCode::FORBIDDEN);
    assert_eq!(call(&router, Method::GET, "/api/customer/list/?status=pending", Some(&sales), None).await.0, StatusCode::FORBIDDEN);
    assert_eq!(call(&router, Method::GET, "/api/bubbles/", Some(&sales), None).await.0, StatusCode::FORBIDDEN);
    assert_eq!(call(&router, Method::POST, "/api/customer/approve/nobody/", Some(&admin), None).await.0, StatusCode::NOT_ACCEPTABLE);
    // Not approved yet: nothing to resend.
    let resend = format!("/api/admin/customer-user/send-password-link/{uid}/");
    let (status, body) = call(&router, Method::POST, &resend, Some(&admin), None).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("customer_not_approved")));

    let (status, body) = call(&router, Method::POST, &approve, Some(&admin), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let link = activation_token(&state, "karin@example.com");
    assert!(link.starts_with(&format!("{uid}.")));
    // Approved customers leave the bubble but stay in the pending list until activated.
    let (_, bubbles) = call(&router, Method::GET, "/api/bubbles/", Some(&admin), None).await;
    assert_eq!(bubbles["pending_customers"], 0);
    assert!(list(&router, &admin, "status=pending").await["results"][0]["approved_at"].is_string());
    // Still cannot log in before activation.
    assert_eq!(login(&router, "karin@example.com", PASSWORD).await.1["message"], "account_pending");

    let check = |t: &str| json!({ "token": t });
    assert_eq!(call(&router, Method::POST, "/api/customer/activation/check/", None, Some(check(&link))).await.1, json!({ "valid": true }));
    let activate = |t: &str, p: &str, c: &str| json!({ "token": t, "password": p, "confirm_password": c });
    let new_password = "Brand-new-pass-42";
    let (status, body) =
        call(&router, Method::POST, "/api/customer/activation/", None, Some(activate(&link, new_password, "Other-pass-42x"))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(field(&body, "confirm_password"), ["passwords_do_not_match"]);
    let (status, body) =
        call(&router, Method::POST, "/api/customer/activation/", None, Some(activate(&format!("{link}x"), new_password, new_password)))
            .await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("link_invalid")));
    // The customer's own e-mail is too easily guessed; the refusal leaves the link usable.
    let own = "Karin@example.com2026";
    let (status, body) = call(&router, Method::POST, "/api/customer/activation/", None, Some(activate(&link, own, own))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(field(&body, "password"), ["password_too_weak"]);

    let (status, body) =
        call(&router, Method::POST, "/api/customer/activation/", None, Some(activate(&link, new_password, new_password))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // Single use.
    let (status, body) =
        call(&router, Method::POST, "/api/customer/activation/", None, Some(activate(&link, new_password, new_password))).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("link_invalid")));
    assert_eq!(call(&router, Method::POST, "/api/customer/activation/check/", None, Some(check(&link))).await.1, json!({ "valid": false }));

    // The confirmed password is the one that works now.
    assert_eq!(login(&router, "karin@example.com", PASSWORD).await.0, StatusCode::BAD_REQUEST);
    let customer = token(&router, "karin@example.com", new_password).await;
    let (status, me) = call(&router, Method::GET, "/api/profile/", Some(&customer), None).await;
    assert_eq!((status, me["uid"].as_str()), (StatusCode::OK, Some(uid.as_str())));
    assert_eq!(emails(&list(&router, &admin, "status=active").await), ["karin@example.com"]);
    assert!(emails(&list(&router, &admin, "status=pending").await).is_empty());
    // Approving again is refused.
    assert_eq!(call(&router, Method::POST, &approve, Some(&admin), None).await.1["message"], "customer_not_pending");

    // Two-factor sign-in still works for an activated customer.
    call(&router, Method::POST, "/api/2fa/toggle-activation/", Some(&customer), None).await;
    let (status, body) = login(&router, "karin@example.com", new_password).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["two_factor_required"], true);
}

#[tokio::test]
async fn resending_the_activation_mail_retires_the_earlier_link_and_links_expire() {
    let World { state, router, admin } = world().await;
    let (status, body) = register(&router, company("karin@example.com", "556677-1234")).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let uid = state.store.find_user_by_email("karin@example.com").await.unwrap().unwrap().uid;
    call(&router, Method::POST, &format!("/api/customer/approve/{uid}/"), Some(&admin), None).await;
    let first = activation_token(&state, "karin@example.com");
    let (status, body) =
        call(&router, Method::POST, &format!("/api/admin/customer-user/send-password-link/{uid}/"), Some(&admin), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let second = activation_token(&state, "karin@example.com");
    assert_ne!(first, second);
    let activate = |t: &str| json!({ "token": t, "password": PASSWORD, "confirm_password": PASSWORD });
    let (status, body) = call(&router, Method::POST, "/api/customer/activation/", None, Some(activate(&first))).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("link_invalid")));

    // An expired link (stored expiry in the past) is refused.
    let digest = shared::domain::two_factor::link_digest(&second);
    state.store.save_activation_link(&uid, &digest, chrono::Utc::now().timestamp() - 1).await.unwrap();
    let (status, body) = call(&router, Method::POST, "/api/customer/activation/", None, Some(activate(&second))).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("link_invalid")));
    // Made valid again (72 h), it works: the refusal was the expiry.
    state.store.save_activation_link(&uid, &digest, chrono::Utc::now().timestamp() + 72 * 3600).await.unwrap();
    assert_eq!(call(&router, Method::POST, "/api/customer/activation/", None, Some(activate(&second))).await.0, StatusCode::OK);
}

#[tokio::test]
async fn deactivation_ends_live_sessions_and_refresh_and_blocks_login() {
    let World { state, router, admin } = world().await;
    let (status, body) = register(&router, company("karin@example.com", "556677-1234")).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let uid = state.store.find_user_by_email("karin@example.com").await.unwrap().unwrap().uid;
    // A pending customer is approved, not activated.
    let (status, body) = call(&router, Method::POST, &format!("/api/user/activate/{uid}/"), Some(&admin), None).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("customer_pending")));
    call(&router, Method::POST, &format!("/api/customer/approve/{uid}/"), Some(&admin), None).await;
    let link = activation_token(&state, "karin@example.com");
    call(
        &router,
        Method::POST,
        "/api/customer/activation/",
        None,
        Some(json!({ "token": link, "password": PASSWORD, "confirm_password": PASSWORD })),
    )
    .await;
    let (_, auth) = login(&router, "karin@example.com", PASSWORD).await;
    let access = auth["access_token"].as_str().unwrap().to_string();
    let refresh = auth["refresh_token"].as_str().unwrap().to_string();
    assert_eq!(call(&router, Method::GET, "/api/profile/", Some(&access), None).await.0, StatusCode::OK);

    let (status, body) = call(&router, Method::POST, &format!("/api/user/deactivate/{uid}/"), Some(&admin), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["active"], false);
    assert_eq!(call(&router, Method::GET, "/api/profile/", Some(&access), None).await.0, StatusCode::UNAUTHORIZED);
    let (status, _) = call(&router, Method::POST, "/api/token/refresh/", None, Some(json!({ "refresh_token": refresh }))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, body) = login(&router, "karin@example.com", PASSWORD).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("account_inactive")));
    assert_eq!(emails(&list(&router, &admin, "status=inactive").await), ["karin@example.com"]);

    // Reactivated: signs in again, but the old refresh token stays dead.
    let (status, _) = call(&router, Method::POST, &format!("/api/user/activate/{uid}/"), Some(&admin), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(login(&router, "karin@example.com", PASSWORD).await.0, StatusCode::OK);
    let (status, _) = call(&router, Method::POST, "/api/token/refresh/", None, Some(json!({ "refresh_token": refresh }))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(emails(&list(&router, &admin, "status=active").await), ["karin@example.com"]);

    // Other users too (a lawyer); never an admin; unknown uid 406; only admin may.
    let lawyer = testkit::account(&state, "lawyer@example.com", PASSWORD, Role::Lawyer).await;
    let lawyer_token = token(&router, "lawyer@example.com", PASSWORD).await;
    assert_eq!(
        call(&router, Method::POST, &format!("/api/user/deactivate/{uid}/"), Some(&lawyer_token), None).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(call(&router, Method::POST, &format!("/api/user/deactivate/{}/", lawyer.uid), Some(&admin), None).await.0, StatusCode::OK);
    assert_eq!(call(&router, Method::GET, "/api/profile/", Some(&lawyer_token), None).await.0, StatusCode::UNAUTHORIZED);
    let admin_user = state.store.find_user_by_email(ADMIN).await.unwrap().unwrap();
    let (status, body) = call(&router, Method::POST, &format!("/api/user/deactivate/{}/", admin_user.uid), Some(&admin), None).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("cannot_change_admin")));
    assert_eq!(call(&router, Method::POST, "/api/user/deactivate/nobody/", Some(&admin), None).await.0, StatusCode::NOT_ACCEPTABLE);
}

#[tokio::test]
async fn customer_lists_page_newest_first_and_search() {
    let World { router, admin, .. } = world().await;
    for i in 0..12 {
        let mut body = individual(&format!("person{i:02}@example.com"));
        if i == 7 {
            body["customer_type"] = json!("Company");
            body["company_name"] = json!("Searchable Konsult AB");
            body["company_registration_number"] = json!("123456-0007");
            body["sector"] = json!("2");
        }
        let (status, b) = register(&router, body).await;
        assert_eq!(status, StatusCode::CREATED, "{b}");
    }
    let first = list(&router, &admin, "status=pending").await;
    let page1 = emails(&first);
    assert_eq!(page1.len(), 10);
    assert_eq!(page1[0], "person11@example.com", "newest first");
    let next = first["next"].as_str().expect("a next page").to_string();
    let second = list(&router, &admin, &format!("status=pending&cursor={}", next.replace('+', "%2B").replace('#', "%23"))).await;
    assert_eq!(emails(&second), ["person01@example.com", "person00@example.com"]);
    assert!(second["next"].is_null());

    let found = list(&router, &admin, "status=pending&search=konsult").await;
    assert_eq!(emails(&found), ["person07@example.com"]);
    let found = list(&router, &admin, "status=pending&search=PERSON1").await;
    assert_eq!(emails(&found), ["person11@example.com", "person10@example.com"]);

    let (status, body) = call(&router, Method::GET, "/api/customer/list/?status=weird", Some(&admin), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(field(&body, "status"), ["invalid_status"]);
    let (status, body) = call(&router, Method::GET, "/api/customer/list/?status=pending&cursor=garbage", Some(&admin), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(field(&body, "cursor"), ["invalid_cursor"]);
}

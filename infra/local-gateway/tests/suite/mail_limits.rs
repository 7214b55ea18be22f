//! Every operation that mails someone counts against that recipient's limit
//! (`MAIL_PER_RECIPIENT`), so no caller can flood an
//! address: the sign-in code, the customer's activation link at approval,
//! and the first invitation of a new contact or customer (the resends of
//! each are tested with their functions). Each test asserts only when its
//! calls fell in one rate window.

use axum::http::{Method, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use shared::api::AppState;
use shared::domain::Role;
use shared::store::rate_limit::{CODE_MAIL_PER_PAIR, MAIL_PER_RECIPIENT};
use shared::testkit::{self, call};

const PASSWORD: &str = "Testing-pass-2026!";

fn window() -> i64 {
    chrono::Utc::now().timestamp().div_euclid(MAIL_PER_RECIPIENT.window_secs)
}

fn mails_to(s: &AppState, to: &str) -> usize {
    s.mail.outbox().map(|o| o.lock().unwrap().iter().filter(|m| m.to == to).count()).unwrap_or_default()
}

async fn world() -> (AppState, Router) {
    let state = testkit::services().await;
    local_gateway::seed_content::seed_demo_content(&state).await.unwrap();
    let router = local_gateway::app(state.clone(), std::env::temp_dir());
    (state, router)
}

/// Uses up the recipient's mails as other operations would.
async fn exhaust(state: &AppState, email: &str) {
    for _ in 0..MAIL_PER_RECIPIENT.max {
        shared::services::credentials::limit_mail_to(state, email).await.unwrap();
    }
}

#[tokio::test]
async fn sign_in_codes_have_their_own_limit_apart_from_the_recipients() {
    let (state, router) = world().await;
    let mut user = testkit::account(&state, "tove@example.com", PASSWORD, Role::Customer).await;
    user.two_factor = true;
    state.store.put_user(&user).await.unwrap();
    let started = window();
    // Other mails (recovery links anybody may ask for) used up the recipient's limit.
    exhaust(&state, "tove@example.com").await;
    let mut answers = vec![];
    for _ in 0..=CODE_MAIL_PER_PAIR.max {
        answers.push(testkit::login(&router, "tove@example.com", PASSWORD).await.0);
    }
    if window() == started {
        assert!(answers[..CODE_MAIL_PER_PAIR.max as usize].iter().all(|s| *s == StatusCode::OK), "{answers:?}");
        assert_eq!(answers.last(), Some(&StatusCode::TOO_MANY_REQUESTS), "{answers:?}");
        assert_eq!(mails_to(&state, "tove@example.com"), CODE_MAIL_PER_PAIR.max as usize);
    }
}

fn registration(email: &str) -> Value {
    let address = json!({"address_1": "Storgatan 1", "address_2": "", "city": "Stockholm", "post_code": "11122", "country": 1});
    json!({"customer_type": "Individual", "first_name": "Nils", "last_name": "Nyman", "email": email, "phone": "+46701234567",
        "profile": address, "same_invoice_address": true, "invoice_address": address,
        "password": "Nytt-lösen-2026!", "confirm_password": "Nytt-lösen-2026!", "terms_accepted": true, "privacy_accepted": true})
}

#[tokio::test]
async fn approving_again_and_again_stops_at_the_recipients_limit() {
    let (state, router) = world().await;
    let (_, admin) = testkit::signed_in(&state, Role::Admin).await;
    let (st, body) = call(&router, Method::POST, "/api/registration/", None, Some(registration("nils@example.com"))).await;
    assert_eq!(st, StatusCode::CREATED, "{body}");
    let uid = state.store.find_user_by_email("nils@example.com").await.unwrap().unwrap().uid;
    let before = mails_to(&state, "nils@example.com");
    let started = window();
    let mut answers = vec![];
    for _ in 0..=MAIL_PER_RECIPIENT.max {
        answers.push(call(&router, Method::POST, &format!("/api/customer/approve/{uid}/"), Some(&admin), None).await.0);
    }
    if window() == started {
        assert_eq!(answers.last(), Some(&StatusCode::TOO_MANY_REQUESTS), "{answers:?}");
        assert_eq!(mails_to(&state, "nils@example.com") - before, MAIL_PER_RECIPIENT.max as usize, "{answers:?}");
    }
}

#[tokio::test]
async fn a_first_invitation_counts_against_the_recipients_limit() {
    let (state, router) = world().await;
    let (customer, token) = testkit::signed_in(&state, Role::Customer).await;
    let (_, admin) = testkit::signed_in(&state, Role::Admin).await;
    let started = window();
    exhaust(&state, "kim@example.com").await;
    let contact = json!({"first_name": "Kim", "last_name": "Kontakt", "email": "kim@example.com", "permissions": []});
    let (contact_status, body) = call(&router, Method::POST, "/api/customers/user/create/", Some(&token), Some(contact)).await;
    exhaust(&state, "nova@example.com").await;
    let sector = state.store.list_business_sectors().await.unwrap()[0].id.clone();
    let mut form = registration("nova@example.com");
    form["sector"] = json!(sector.to_string());
    let (customer_status, body2) = call(&router, Method::POST, "/api/customer/create/", Some(&admin), Some(form)).await;
    if window() == started {
        assert_eq!(contact_status, StatusCode::TOO_MANY_REQUESTS, "{body}");
        assert_eq!(customer_status, StatusCode::TOO_MANY_REQUESTS, "{body2}");
        // Refused before anything was stored or sent.
        for email in ["kim@example.com", "nova@example.com"] {
            assert!(state.store.find_user_by_email(email).await.unwrap().is_none(), "{email} stored");
            assert_eq!(mails_to(&state, email), 0);
        }
    }
    let _ = customer;
}

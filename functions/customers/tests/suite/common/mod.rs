//! What the customer tests share: a fresh table per test with the customer
//! and identity routes, a signed-in admin, the sector list seeded, and the
//! helpers to call, sign in and read answers.
#![allow(dead_code)]

use axum::http::{Method, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use shared::api::{finish, AppState};
use shared::domain::conflict::PartyKind;
use shared::domain::Role;
use shared::testkit;

pub use shared::testkit::{field, login};

pub const PASSWORD: &str = "Very-secret-pass-1";
pub const ADMIN: &str = "admin@example.com";

pub struct World {
    pub state: AppState,
    pub router: Router,
    /// The admin's access token.
    pub admin: String,
}

/// A fresh table, the admin signed in, the business sectors seeded (they
/// are written on the first read).
pub async fn world() -> World {
    let state = testkit::services().await;
    let router = finish(customers::api().merge(identity::api()), state.clone());
    testkit::account(&state, ADMIN, PASSWORD, Role::Admin).await;
    let admin = token(&router, ADMIN, PASSWORD).await;
    state.store.list_business_sectors().await.unwrap();
    World { state, router, admin }
}

pub async fn call(router: &Router, method: Method, path: &str, token: Option<&str>, body: Option<Value>) -> (StatusCode, Value) {
    testkit::call(router, method, path, token, body).await
}

/// The access token of a successful sign-in.
pub async fn token(router: &Router, email: &str, password: &str) -> String {
    let (status, auth) = login(router, email, password).await;
    assert_eq!(status, StatusCode::OK, "{auth}");
    auth["access_token"].as_str().unwrap().to_string()
}

/// A list page as `admin`, which must answer 200.
pub async fn list(router: &Router, admin: &str, query: &str) -> Value {
    let (status, body) = call(router, Method::GET, &format!("/api/customer/list/?{query}"), Some(admin), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

pub fn emails(page: &Value) -> Vec<String> {
    page["results"].as_array().unwrap().iter().map(|c| c["email"].as_str().unwrap().to_string()).collect()
}

/// The activation token of the newest mail to `to`.
pub fn activation_token(state: &AppState, to: &str) -> String {
    let mails = state.mail.outbox().unwrap().lock().unwrap().clone();
    let mail = mails.iter().rev().find(|m| m.to == to).expect("an activation mail");
    let at = mail.body.find("token=").expect("a link") + "token=".len();
    mail.body[at..].split_whitespace().next().unwrap().to_string()
}

pub fn address() -> Value {
    json!({ "address_1": "Storgatan 1", "address_2": "", "city": "Stockholm", "post_code": "11122", "country": 1 })
}

/// A company's sign-up form (`registration/`).
pub fn registration(email: &str, regno: &str) -> Value {
    json!({
        "customer_type": "Company",
        "first_name": "Karin", "last_name": "Kund",
        "email": email,
        "password": PASSWORD, "confirm_password": PASSWORD,
        "company_name": "Kund AB", "company_registration_number": regno, "sector": "1",
        "phone": "+46 70-123 45 67",
        "profile": address(),
        "same_invoice_address": true,
        "terms_accepted": true, "privacy_accepted": true,
    })
}

/// An individual's sign-up form.
pub fn individual_registration(email: &str) -> Value {
    let mut v = registration(email, "");
    v["customer_type"] = json!("Individual");
    v["company_name"] = json!("");
    v["sector"] = json!("");
    v
}

/// The staff form of a company (`customer/create/`, `customer/update/`).
pub fn staff_company(email: &str, regno: &str, name: &str) -> Value {
    json!({
        "customer_type": "Company",
        "first_name": "Sven", "last_name": "Söderberg",
        "email": email,
        "company_name": name, "company_registration_number": regno, "sector": "2",
        "phone": "0701234567",
        "profile": address(),
        "same_invoice_address": false,
        "invoice_address": { "address_1": "Box 12", "address_2": "", "city": "Solna", "post_code": "17100", "country": 1 },
        "invoice_by": "email",
        "hourly_rate": 1250.5,
        "company_size": "100+",
    })
}

/// The staff form of an individual.
pub fn staff_individual(email: &str) -> Value {
    json!({
        "customer_type": "Individual",
        "first_name": "Ida", "last_name": "Ek",
        "email": email,
        "phone": "0701234567",
        "profile": address(),
        "same_invoice_address": true,
    })
}

/// Parties of `kind` the conflict search finds for `query` with `uid`
/// (`None`: of any uid), as (uid, name).
pub async fn found(state: &AppState, query: &str, kind: PartyKind) -> Vec<(String, String)> {
    let hits = state.store.search_parties(query).await.unwrap();
    hits.into_iter().filter(|h| h.party.kind == kind).map(|h| (h.party.uid, h.party.name)).collect()
}

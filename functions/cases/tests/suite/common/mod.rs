//! What the case tests share: a fresh table per test, signed-in users of
//! each role, a case in progress with its lawyer, an hour subscription.
#![allow(dead_code)]

use axum::http::{Method, StatusCode};
use axum::Router;
use chrono::Utc;
use serde_json::{json, Value};
use shared::api::{finish, AppState};
use shared::domain::catalogue::Hundredths;
use shared::domain::subscription::{whole_seconds, Grant};
use shared::domain::{Permission, Role, User};
use shared::store::catalogue::NamedKind;
use shared::testkit;

pub struct World {
    pub state: AppState,
    pub router: Router,
    pub case_type: u64,
}

pub async fn world() -> World {
    let state = testkit::services().await;
    let router = finish(cases::api(), state.clone());
    let case_type = state.store.create_named(NamedKind::CaseType, "Tenancy", "").await.unwrap().id;
    World { state, router, case_type }
}

/// A case in progress: its customer, admin, lawyer and their tokens.
pub struct Scene {
    pub cust: User,
    pub ct: String,
    pub admin: String,
    pub lawyer: User,
    pub lt: String,
    pub uid: String,
}

impl World {
    pub async fn user(&self, role: Role) -> (User, String) {
        testkit::signed_in(&self.state, role).await
    }

    /// An active consultancy (hour) subscription of `hours` for the customer.
    pub async fn hours(&self, customer: &User, hours: &str) -> u64 {
        let now = whole_seconds(Utc::now().naive_utc()) - chrono::Duration::seconds(5);
        self.state.store.purchase(&customer.uid, &Grant::custom("Hours", Hundredths::parse(hours).unwrap(), 30), now).await.unwrap().id
    }

    pub async fn consumed(&self, id: u64) -> Hundredths {
        self.state.store.get_purchase(id).await.unwrap().unwrap().row.consumed_hour
    }

    pub async fn call(&self, m: Method, path: &str, token: &str, body: Option<Value>) -> (StatusCode, Value) {
        testkit::call(&self.router, m, path, Some(token), body).await
    }

    /// Every page of the case list `status` in turn, following `next`: the
    /// cases' uids in order and each page's size.
    pub async fn case_list_pages(&self, token: &str, status: &str) -> (Vec<String>, Vec<usize>) {
        let (mut seen, mut sizes, mut cursor) = (Vec::new(), Vec::new(), String::new());
        loop {
            let (st, p) = self.call(Method::GET, &format!("/api/case/list/?status={status}&cursor={cursor}"), token, None).await;
            assert_eq!(st, StatusCode::OK, "{p}");
            let r = p["results"].as_array().unwrap();
            sizes.push(r.len());
            seen.extend(r.iter().map(|c| c["uid"].as_str().unwrap().to_string()));
            match p["next"].as_str() {
                Some(n) => cursor = n.to_string(),
                None => return (seen, sizes),
            }
        }
    }

    /// A contact of `customer` holding `permissions`, signed in.
    pub async fn contact_of(&self, customer: &User, permissions: Vec<Permission>) -> (User, String) {
        testkit::signed_in_contact(&self.state, customer, permissions).await
    }

    /// Every spec §3 field a case form carries.
    pub fn form(&self, subject: &str) -> Value {
        json!({"subject": subject, "description": "Dispute about rent", "type": self.case_type, "estimated_hours": "2,5",
               "counterpart": "Hyresvärden AB", "client": "Acme", "contact_person": "Eva", "start_date": "2026-01-01",
               "address": {"address_1": "Storgatan 1", "city": "Stockholm", "country": "SE", "post_code": "11122"},
               "short_internal_description": "internal"})
    }

    /// A case the staff member with `token` creates for `customer`, as answered.
    pub async fn case_json(&self, token: &str, customer: &User) -> Value {
        let mut body = self.form("Lease dispute");
        body["customer"] = json!(customer.uid);
        let (st, c) = self.call(Method::POST, "/api/case/create/", token, Some(body)).await;
        assert_eq!(st, StatusCode::CREATED, "{c}");
        c
    }

    pub async fn new_case(&self, token: &str, customer: &User) -> String {
        self.case_json(token, customer).await["uid"].as_str().unwrap().to_string()
    }

    pub async fn act_json(&self, token: &str, uid: &str, action: &str) -> (StatusCode, Value) {
        self.call(Method::POST, &format!("/api/case/status/{uid}/"), token, Some(json!({"action": action}))).await
    }

    pub async fn act(&self, token: &str, uid: &str, action: &str) -> StatusCode {
        self.act_json(token, uid, action).await.0
    }

    /// A new case of a new customer, published by admin and accepted by a new lawyer.
    pub async fn in_progress(&self) -> Scene {
        let (cust, ct) = self.user(Role::Customer).await;
        let (_, admin) = self.user(Role::Admin).await;
        let (lawyer, lt) = self.user(Role::Lawyer).await;
        let uid = self.new_case(&admin, &cust).await;
        assert_eq!(self.act(&admin, &uid, "publish").await, StatusCode::OK);
        assert_eq!(self.act(&lt, &uid, "accept").await, StatusCode::OK);
        Scene { cust, ct, admin, lawyer, lt, uid }
    }

    /// A billable entry by the lawyer; its id.
    pub async fn hour(&self, token: &str, case_uid: &str, hour: &str) -> String {
        let (st, v) = self
            .call(Method::POST, "/api/case/hour/create/", token, Some(json!({"case_uid": case_uid, "hour": hour, "date": "2026-03-02"})))
            .await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        v["id"].as_str().unwrap().to_string()
    }
}

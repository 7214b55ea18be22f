//! What the add-on tests share: a router of the add-on function on its own
//! table, with its own providers' stand-in, and the calls every test makes.

use axum::http::{Method, StatusCode};
use axum::Router;
use chrono::Utc;
use serde_json::{json, Value};
use shared::api::{finish, AppState};
use shared::domain::catalogue::Hundredths;
use shared::domain::subscription::Grant;
use shared::domain::{Permission, User};
use shared::testkit;

pub const PDF: &[u8] = b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";

pub struct World {
    pub state: AppState,
    pub app: Router,
    pub providers: String,
}

pub async fn world() -> World {
    let (state, providers) = testkit::services_with_stand_in().await;
    let app = finish(addons::api(), state.clone());
    World { state, app, providers }
}

/// Awaits concurrent uses of one plan: how many were made and how many
/// refused `limit_reached` (any other failure fails the test).
pub async fn made_and_refused<T>(tasks: Vec<tokio::task::JoinHandle<Result<T, shared::error::ApiError>>>) -> (usize, usize) {
    let (mut made, mut refused) = (0, 0);
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => made += 1,
            Err(e) if e.key().as_str() == "limit_reached" => refused += 1,
            Err(e) => panic!("unexpected {e:?}"),
        }
    }
    (made, refused)
}

/// The message key of an error answer.
pub fn key(v: &Value) -> String {
    v["message"].as_str().unwrap_or_default().to_string()
}

impl World {
    pub async fn call(&self, m: Method, path: &str, token: &str, body: Option<Value>) -> (StatusCode, Value) {
        testkit::call(&self.app, m, path, Some(token), body).await
    }

    pub async fn ok(&self, m: Method, path: &str, token: &str, body: Option<Value>) -> Value {
        let (st, v) = self.call(m, path, token, body).await;
        assert!(st.is_success(), "{path}: {st} {v}");
        v
    }

    /// A plan of `service_id` with `limit` uses, bought for the customer.
    pub async fn plan(&self, customer: &User, service_id: u8, limit: u32) -> u64 {
        let grant =
            Grant { service_id, package: None, service_plan: None, limit: Some(limit), hour: Hundredths::ZERO, days: 30, price: None };
        let now = Utc::now().naive_utc() - chrono::Duration::seconds(5);
        shared::services::subscriptions::grant(&self.state, &customer.uid, &grant, now).await.unwrap().id
    }

    /// A signed-in contact of `customer` with `permissions`, and its token.
    pub async fn contact_of(&self, customer: &User, permissions: Vec<Permission>) -> (User, String) {
        testkit::signed_in_contact(&self.state, customer, permissions).await
    }

    /// Makes the providers' stand-in fail `times` calls as `fail` says.
    pub async fn script(&self, fail: &str, times: u32) {
        let body = json!({"fail": fail, "times": times, "delay_ms": 1500}).to_string();
        let (st, _, _) = testkit::http("POST", &format!("{}/_script", self.providers), Some("application/json"), body.as_bytes()).await;
        assert_eq!(st, 204);
    }

    /// Uploads `bytes` as `name` through the upload URL that `route` hands out: its key.
    pub async fn upload_to(&self, route: &str, token: &str, name: &str, bytes: &[u8]) -> String {
        let t = self.ok(Method::POST, route, token, Some(json!({"name": name}))).await;
        let (st, _, _) = testkit::http("PUT", t["url"].as_str().unwrap(), Some("application/pdf"), bytes).await;
        assert_eq!(st, 200);
        t["key"].as_str().unwrap().to_string()
    }

    /// The uses of plan row `row` consumed so far.
    pub async fn consumed(&self, row: u64) -> u32 {
        self.state.store.get_purchase(row).await.unwrap().unwrap().row.consumed_limit
    }
}

//! Exactly once under a lost answer: a proxy between the API and the
//! stand-in lets each kind of write commit and then holds its answer past
//! the request's deadline, so the caller gets 504 although the write is
//! stored (what a paused stand-in or network does). The client's retry with
//! the same `Idempotency-Key` must answer the first answer, and the table
//! must hold what one write leaves: the same items as a clean write of the
//! same kind, one consumption, one invitation mail.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::http::{HeaderMap, Method, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use shared::api::AppState;
use shared::domain::catalogue::Hundredths;
use shared::domain::subscription::Grant;
use shared::domain::User;
use shared::store::catalogue::NamedKind;
use shared::testkit::{self, Proxy};

use crate::world::{additional_body, case_body, hour_body, scan, staff_body};

/// The deadline of the router that gets the held answer (the others keep
/// the usual one, so a busy machine does not cut the setting up short), and
/// how long the proxy holds an answer. The deadline leaves a write's own work
/// ample time: the stand-in answers one request at a time and the other tests
/// of this binary share it, so under load a case creation took over 1.5 s
/// before its transaction. Only the held answer may make a write late.
const DEADLINE: Duration = Duration::from_millis(6_000);
const HOLD: Duration = Duration::from_millis(8_000);

pub(crate) struct Faulty {
    pub(crate) state: AppState,
    pub(crate) router: Router,
    /// The same API with a short deadline, for the call whose answer is held.
    cut: Router,
    proxy: Proxy,
    other: User,
    pub(crate) tokens: BTreeMap<&'static str, String>,
    pub(crate) case: String,
    hour_row: u64,
    pub(crate) case_type: u64,
    sector: u64,
    package: u64,
}

impl Faulty {
    pub(crate) async fn new() -> Faulty {
        let proxy = Proxy::start(HOLD).await;
        let state = testkit::services_at(&proxy.url).await;
        let (api, _) = local_gateway::api_routes().split_for_parts();
        let router = shared::api::limits(api.clone()).with_state(state.clone());
        let cut = shared::api::limits_within(api, DEADLINE).with_state(state.clone());
        local_gateway::seed::seed_demo_accounts(&state).await.unwrap();
        let user = |email: &'static str| {
            let state = state.clone();
            async move { state.store.find_user_by_email(email).await.unwrap().unwrap() }
        };
        let customer = user(local_gateway::seed::DEMO_CUSTOMER_EMAIL).await;
        let other = user(local_gateway::seed::DEMO_CUSTOMER2_EMAIL).await;
        let mut tokens = BTreeMap::new();
        for (name, u) in [
            ("admin", user("admin@example.com").await),
            ("lawyer", user("lawyer@example.com").await),
            ("customer", customer.clone()),
            ("other", other.clone()),
        ] {
            tokens.insert(name, shared::services::credentials::start_session(&state, &u).await.unwrap().access_token);
        }
        let now = chrono::Utc::now().naive_utc() - chrono::Duration::seconds(5);
        let row =
            shared::services::subscriptions::grant(&state, &customer.uid, &Grant::custom("Konsulttimmar 40 h", Hundredths(4000), 365), now)
                .await
                .unwrap();
        let case_type = state.store.create_named(NamedKind::CaseType, "Tvist", "").await.unwrap().id;
        let sector = state.store.create_named(NamedKind::KnowledgeSector, "Avtalsrätt", "").await.unwrap().id;
        let mut w =
            Faulty { state, router, cut, proxy, other, tokens, case: String::new(), hour_row: row.id, case_type, sector, package: 0 };
        let case = w.ok("customer", "/api/case/create/by/customer/", case_body(case_type, None)).await;
        w.case = case["uid"].as_str().unwrap().to_string();
        w.ok("admin", &format!("/api/case/status/{}/", w.case), json!({"action": "publish"})).await;
        w.ok("lawyer", &format!("/api/case/status/{}/", w.case), json!({"action": "accept"})).await;
        let package = json!({"name": "Paket 10 h", "hours": 10, "price": 12000, "duration_days": 365, "public": true});
        w.package = w.ok("admin", "/api/packages/", package).await["id"].as_u64().unwrap();
        w
    }

    pub(crate) async fn keyed(&self, who: &str, path: &str, key: &str, body: &Value) -> (StatusCode, HeaderMap, Value) {
        self.keyed_on(&self.router, who, path, key, body).await
    }

    async fn keyed_on(&self, router: &Router, who: &str, path: &str, key: &str, body: &Value) -> (StatusCode, HeaderMap, Value) {
        let key = format!("\"{key}\"");
        let (st, headers, bytes) = testkit::call_with_headers(
            router,
            Method::POST,
            path,
            Some(self.tokens[who].as_str()),
            Some(body.clone()),
            &[("Idempotency-Key", key.as_str())],
        )
        .await;
        (st, headers, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }

    /// A write that must succeed (setting up, and the clean writes).
    pub(crate) async fn ok(&self, who: &str, path: &str, body: Value) -> Value {
        let key = uuid::Uuid::new_v4().to_string();
        let (st, _, v) = self.keyed(who, path, &key, &body).await;
        assert!(st.is_success(), "{path} answered {st}: {v}");
        v
    }

    /// The table's items counted by kind (the `entity` attribute, else the
    /// partition key's prefix). Not the statistics' counters: they are
    /// sharded, so how many items a write touches for the first time
    /// depends on the shard it draws (their sums are the statistics tests'
    /// recount).
    async fn census(&self) -> BTreeMap<String, i64> {
        let mut out = BTreeMap::new();
        for item in scan(&self.state).await {
            let text = |a: &str| item.get(a).and_then(|v| v.as_s().ok()).cloned();
            let kind = text("entity").unwrap_or_else(|| text("PK").unwrap_or_default().split('#').next().unwrap_or_default().to_string());
            if kind == "STATS" {
                continue;
            }
            *out.entry(kind).or_insert(0) += 1;
        }
        out
    }

    /// The write `body` to `path` by `who`: its answer lost after the commit
    /// (504), then retried with its key. Asserts the retry answers the
    /// stored answer, and returns the items the two calls added.
    async fn lost_then_retried(&self, who: &str, path: &str, body: &Value) -> (Value, BTreeMap<String, i64>) {
        let before = self.census().await;
        let key = uuid::Uuid::new_v4().to_string();
        let held = self.proxy.held();
        self.proxy.hold_next_transaction();
        let (st, _, lost) = self.keyed_on(&self.cut, who, path, &key, body).await;
        assert_eq!(st, StatusCode::GATEWAY_TIMEOUT, "{path}: {lost}");
        // The stand-in has answered the transaction (committed) once its answer is held.
        for _ in 0..100 {
            if self.proxy.held() > held {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(self.proxy.held(), held + 1, "{path}: the answer of its transaction was held");
        let (st, headers, first) = self.keyed(who, path, &key, body).await;
        assert!(st.is_success(), "{path}: the retry answered {st}: {first}");
        assert_eq!(headers.get("idempotent-replayed").map(|v| v.to_str().unwrap()), Some("true"), "{path}: {first}");
        let (st, _, again) = self.keyed(who, path, &key, body).await;
        assert!(st.is_success() && again == first, "{path}: {st} {again}");
        (first, delta(&before, &self.census().await))
    }

    /// The items one clean write of `body` adds.
    async fn clean(&self, who: &str, path: &str, body: Value) -> BTreeMap<String, i64> {
        let before = self.census().await;
        self.ok(who, path, body).await;
        delta(&before, &self.census().await)
    }

    async fn consumed(&self) -> Hundredths {
        self.state.store.get_purchase(self.hour_row).await.unwrap().unwrap().row.consumed_hour
    }

    pub(crate) fn mails_to(&self, to: &str) -> usize {
        self.state.mail.outbox().unwrap().lock().unwrap().iter().filter(|m| m.to == to).count()
    }
}

/// The n-th body of a kind of write (each distinct where a rule wants it).
type Body<'a> = dyn Fn(u32) -> Value + 'a;

fn delta(before: &BTreeMap<String, i64>, after: &BTreeMap<String, i64>) -> BTreeMap<String, i64> {
    let mut out = BTreeMap::new();
    for k in before.keys().chain(after.keys()) {
        let d = after.get(k).copied().unwrap_or(0) - before.get(k).copied().unwrap_or(0);
        if d != 0 {
            out.insert(k.clone(), d);
        }
    }
    out
}

/// Each kind of write: a clean one first (so first-time items such as a
/// day's statistics exist), then one whose answer is lost and which is
/// retried: it adds exactly what the clean one added.
#[tokio::test]
async fn a_write_whose_answer_was_lost_and_is_retried_with_its_key_is_stored_once() {
    let w = Faulty::new().await;
    let case = w.case.clone();
    let month = |m: u32| {
        let mut b = additional_body(&case);
        b["month"] = json!(format!("2025-{m:02}"));
        b
    };
    let hour = |_: u32| hour_body(&case);
    let message = |n: u32| json!({"case_uid": case, "text": format!("Meddelande {n}")});
    let new_case = |_: u32| case_body(w.case_type, None);
    let note = |n: u32| json!({"case_uid": case, "note": format!("Anteckning {n}")});
    let ticket = |n: u32| json!({"subject": "Fråga", "message": format!("Fråga nummer {n}")});
    let kinds: [(&str, &str, &Body<'_>); 6] = [
        ("lawyer", "/api/case/hour/create/", &hour),
        ("lawyer", "/api/case/additional_hour/create/", &month),
        ("customer", "/api/message/", &message),
        ("customer", "/api/case/create/by/customer/", &new_case),
        ("lawyer", "/api/case/lawyer/note/", &note),
        ("customer", "/api/support/", &ticket),
    ];
    for (who, path, body) in kinds {
        w.ok(who, path, body(1)).await;
        let one = w.clean(who, path, body(2)).await;
        let (_, two) = w.lost_then_retried(who, path, &body(3)).await;
        assert_eq!(two, one, "{path}: the lost and retried write added what one write adds");
    }
    // Three entries of 1.5 hours: three consumptions, not four.
    assert_eq!(w.consumed().await, Hundredths(450));
}

/// Purchases: one row (the active one, not an advance row beside it).
#[tokio::test]
async fn a_purchase_whose_answer_was_lost_buys_once() {
    let w = Faulty::new().await;
    let (first, added) = w.lost_then_retried("other", "/api/subscription/packages/", &json!({"package_id": w.package})).await;
    assert_eq!(first["advance"], false, "{first}");
    let rows = w.state.store.list_purchases(&w.other.uid).await.unwrap();
    assert_eq!(rows.len(), 1, "{rows:?} {added:?}");
}

/// Accounts (a contact, a lawyer): one account and, once the scheduled
/// job's sweep has run (the answer was cut off before the mail step), one
/// invitation mail, however often the sweep runs.
#[tokio::test]
async fn an_account_whose_answer_was_lost_is_made_and_invited_once() {
    let w = Faulty::new().await;
    let contact = |email: &str| json!({"first_name": "Greta", "last_name": "Garbo", "email": email, "phone": "+46 70 123 45 67", "permissions": ["add_case"]});
    let kinds = [
        ("customer", "/api/customers/user/create/", contact("greta.1@example.com"), contact("greta.2@example.com"), "greta.2@example.com"),
        (
            "admin",
            "/api/lawyer/create/",
            staff_body("lova.1@example.com", w.sector),
            staff_body("lova.2@example.com", w.sector),
            "lova.2@example.com",
        ),
    ];
    for (who, path, clean, faulty, to) in kinds {
        let mut one = w.clean(who, path, clean).await;
        let (_, mut two) = w.lost_then_retried(who, path, &faulty).await;
        // The mail limit's counter is written when a mail goes out: the clean
        // write's went out at once, the lost one's goes with the sweep below.
        one.remove("RATE");
        two.remove("RATE");
        assert_eq!(two, one, "{path}: one account with its invitation");
        assert!(w.state.store.find_user_by_email(to).await.unwrap().is_some());
        let later = chrono::Utc::now() + chrono::Duration::minutes(1);
        shared::services::outbox::send_unsent(&w.state, later, later).await.unwrap();
        shared::services::outbox::send_unsent(&w.state, later, later).await.unwrap();
        assert_eq!(w.mails_to(to), 1, "{path}: one invitation");
    }
}

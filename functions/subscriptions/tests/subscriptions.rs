//! Purchases, the customer's rows and the row actions against the local
//! stand-in, each test on its own table. Routers of both crates are served
//! together, as the gateway does.

use axum::http::{Method, StatusCode};
use axum::Router;
use chrono::{Duration, NaiveDate, Utc};
use serde_json::{json, Value};
use shared::api::{finish, AppState};
use shared::domain::catalogue::Hundredths;
use shared::domain::subscription::UsageEntry;
use shared::domain::{Role, User};
use shared::services::subscriptions as use_cases;
use shared::testkit;

const PASSWORD: &str = "Very-secret-pass-1";

struct World {
    state: AppState,
    router: Router,
}

async fn world() -> World {
    let state = testkit::services().await;
    let router = finish(catalogue::api().merge(subscriptions::api()), state.clone());
    World { state, router }
}

impl World {
    async fn user(&self, role: Role) -> (User, String) {
        testkit::signed_in(&self.state, role).await
    }

    async fn contact_of(&self, email: &str, customer: &User) -> (User, String) {
        let u = testkit::contact(&self.state, email, PASSWORD, customer, &[]).await;
        let t = shared::services::credentials::start_session(&self.state, &u).await.unwrap().access_token;
        (u, t)
    }

    async fn call(&self, m: Method, path: &str, token: &str, body: Option<Value>) -> (StatusCode, Value) {
        testkit::call(&self.router, m, path, Some(token), body).await
    }

    async fn package(&self, admin: &str, name: &str, hours: Value, public: bool) -> u64 {
        let (st, p) = self
            .call(
                Method::POST,
                "/api/packages/",
                admin,
                Some(json!({"name": name, "hours": hours, "price": "1 000".replace(' ', ""), "duration_days": 30, "public": public})),
            )
            .await;
        assert_eq!(st, StatusCode::CREATED, "{p}");
        p["id"].as_u64().unwrap()
    }

    async fn rows(&self, token: &str, uid: &str) -> Vec<Value> {
        let (st, v) = self.call(Method::GET, &format!("/api/customer/{uid}/"), token, None).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        v["purchased_services"].as_array().unwrap().clone()
    }
}

fn field_keys(v: &Value, field: &str) -> Vec<String> {
    v["errors"][field].as_array().map(|a| a.iter().map(|x| x.as_str().unwrap().to_string()).collect()).unwrap_or_default()
}

#[tokio::test]
async fn customer_buys_public_packages_with_the_active_and_advance_rule() {
    let w = world().await;
    let (_, admin) = w.user(Role::Admin).await;
    let (cust, ct) = w.user(Role::Customer).await;
    let public = w.package(&admin, "Gold", json!("10,5"), true).await;
    let hidden = w.package(&admin, "Secret", json!(5), false).await;

    // Customers see only public packages; staff see all.
    let (_, list) = w.call(Method::GET, "/api/packages/list/", &ct, None).await;
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list[0]["hours"], 10.5);
    assert_eq!(list[0]["price"], 1000.0);
    let (_, all) = w.call(Method::GET, "/api/packages/", &admin, None).await;
    assert_eq!(all.as_array().unwrap().len(), 2);

    // A hidden package cannot be bought by the customer; staff cannot use the customer call.
    let (st, _) = w.call(Method::POST, "/api/subscription/packages/", &ct, Some(json!({"package_id": hidden}))).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (st, _) = w.call(Method::POST, "/api/subscription/packages/", &admin, Some(json!({"package_id": public}))).await;
    assert_eq!(st, StatusCode::FORBIDDEN);

    let (st, first) = w.call(Method::POST, "/api/subscription/packages/", &ct, Some(json!({"package_id": public}))).await;
    assert_eq!(st, StatusCode::CREATED, "{first}");
    assert_eq!(first["status"], "Active");
    assert_eq!(first["service"], json!({"id": 1, "name": "Consultancy hours"}));
    assert_eq!(first["packages"]["name"], "Gold");
    assert_eq!(first["hour"], 10.5);
    assert_eq!(first["consumed_hour"], 0.0);
    assert_eq!(first["advance"], false);

    // Bought while one is active: an advance row, starting when the first ends.
    let (st, second) = w.call(Method::POST, "/api/subscription/packages/", &ct, Some(json!({"package_id": public}))).await;
    assert_eq!(st, StatusCode::CREATED, "{second}");
    assert_eq!(second["advance"], true);
    assert_eq!(second["active"], false);
    assert_eq!(second["start_date"], first["expire_on"]);
    assert_eq!(second["status"], "Deactivated", "starts in the future");

    let (st, third) = w.call(Method::POST, "/api/subscription/packages/", &ct, Some(json!({"package_id": public}))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(third["message"], "active_and_advance_subscription");

    let rows = w.rows(&ct, &cust.uid).await;
    assert_eq!(rows.len(), 2);
}

#[tokio::test]
async fn buyers_racing_get_a_row_or_the_purchase_rules_own_answer() {
    let w = world().await;
    let (_, admin) = w.user(Role::Admin).await;
    let (cust, ct) = w.user(Role::Customer).await;
    let public = w.package(&admin, "Gold", json!(10), true).await;
    let buy = || w.call(Method::POST, "/api/subscription/packages/", &ct, Some(json!({"package_id": public})));
    let (a, b, c, d) = tokio::join!(buy(), buy(), buy(), buy());
    let answers = [a, b, c, d];
    let created: Vec<&Value> = answers.iter().filter(|(st, _)| *st == StatusCode::CREATED).map(|(_, v)| v).collect();
    // One active row and one advance row; every other buyer is told the rule.
    assert_eq!(created.len(), 2, "{answers:?}");
    assert_eq!(created.iter().filter(|v| v["advance"] == true).count(), 1, "{answers:?}");
    for (st, v) in answers.iter().filter(|(st, _)| *st != StatusCode::CREATED) {
        assert_eq!((*st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("active_and_advance_subscription")), "{v}");
    }
    assert_eq!(w.rows(&ct, &cust.uid).await.len(), 2);
}

#[tokio::test]
async fn who_may_read_a_customers_services() {
    let w = world().await;
    let (cust, ct) = w.user(Role::Customer).await;
    let (_, other) = w.user(Role::Customer).await;
    let (lawyer_user, lawyer) = w.user(Role::Lawyer).await;
    let (_, sales) = w.user(Role::SalesPerson).await;
    let (_, contact) = w.contact_of("contact@example.com", &cust).await;
    w.state.store.put_bisnode_account(&cust.uid, true, Some("BN-1")).await.unwrap();
    let path = format!("/api/customer/{}/", cust.uid);
    for t in [&ct, &lawyer, &sales, &contact] {
        let (st, v) = w.call(Method::GET, &path, t, None).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        assert_eq!(v["bisnode_account_active"], true);
        assert_eq!(v["bisnode_account"], "BN-1");
        assert_eq!(v["purchased_services"], json!([]));
        assert_eq!(v["customer_type"], Value::Null, "no profile: neither a company nor a person");
    }
    let (st, _) = w.call(Method::GET, &path, &other, None).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, _) = w.call(Method::GET, "/api/customer/nobody/", &sales, None).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    // A user who is not a customer has no customer account.
    let (st, _) = w.call(Method::GET, &format!("/api/customer/{}/", lawyer_user.uid), &sales, None).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (st, _) = testkit::call(&w.router, Method::GET, &path, None, None).await;
    assert_eq!(st, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn staff_add_packages_plans_and_custom_packages() {
    let w = world().await;
    let (_, admin) = w.user(Role::Admin).await;
    let (_, sales) = w.user(Role::SalesPerson).await;
    let (cust, ct) = w.user(Role::Customer).await;
    let hidden = w.package(&admin, "Staff only", json!(3), false).await;

    // Only admin creates packages and plans.
    let (st, _) =
        w.call(Method::POST, "/api/packages/", &sales, Some(json!({"name": "X", "hours": 1, "price": 1, "duration_days": 1}))).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, e) =
        w.call(Method::POST, "/api/packages/", &admin, Some(json!({"name": "X", "hours": 0, "price": "abc", "duration_days": 1}))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(field_keys(&e, "price"), ["invalid_price"]);
    let (st, e) =
        w.call(Method::POST, "/api/packages/", &admin, Some(json!({"name": "X", "hours": 0, "price": 5, "duration_days": 1}))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(field_keys(&e, "hours"), ["custom_package_value_positive"]);
    let (st, plan) = w
        .call(
            Method::POST,
            "/api/serviceplans/",
            &admin,
            Some(json!({"name": "Credit 2", "service_id": 3, "limit": 2, "price": 99, "expiry_days": 30, "public": true})),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{plan}");
    let (st, e) = w
        .call(Method::POST, "/api/serviceplans/", &admin, Some(json!({"name": "Bad", "service_id": 3, "price": 1, "expiry_days": 30})))
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(field_keys(&e, "limit"), ["limit_above_zero"]);

    // Sales adds a non-public package and a plan; custom packages are admin only.
    let add = |body: Value| body;
    let (st, r) = w
        .call(Method::POST, "/api/customer/purchase-services/", &sales, Some(add(json!({"customer_uid": cust.uid, "package_id": hidden}))))
        .await;
    assert_eq!(st, StatusCode::CREATED, "{r}");
    let (st, r) = w
        .call(
            Method::POST,
            "/api/customer/purchase-services/",
            &sales,
            Some(json!({"customer_uid": cust.uid, "service_plan_id": plan["id"]})),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{r}");
    assert_eq!(r["limit"], 2);
    assert_eq!(r["service_plan"]["name"], "Credit 2");
    let custom = json!({"customer_uid": cust.uid, "custom": true, "name": "Big deal", "hours": "2,25", "price": 5000, "duration_days": 90});
    let (st, _) = w.call(Method::POST, "/api/customer/purchase-services/", &sales, Some(custom.clone())).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, e) = w
        .call(
            Method::POST,
            "/api/customer/purchase-services/",
            &admin,
            Some(json!({"customer_uid": cust.uid, "custom": true, "hours": 0, "price": 0, "duration_days": 30})),
        )
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(e["message"], "custom_package_value_positive");
    // The customer already holds an active consultancy row: the custom one is an advance row.
    let (st, r) = w.call(Method::POST, "/api/customer/purchase-services/", &admin, Some(custom)).await;
    assert_eq!(st, StatusCode::CREATED, "{r}");
    assert_eq!(r["hour"], 2.25);
    assert_eq!(r["advance"], true);
    let (st, _) =
        w.call(Method::POST, "/api/customer/purchase-services/", &ct, Some(json!({"customer_uid": cust.uid, "package_id": hidden}))).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, e) = w.call(Method::POST, "/api/customer/purchase-services/", &admin, Some(json!({"customer_uid": cust.uid}))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(field_keys(&e, "package_id"), ["choose_package_or_plan"]);
    let (st, _) = w
        .call(Method::POST, "/api/customer/purchase-services/", &admin, Some(json!({"customer_uid": "nobody", "package_id": hidden})))
        .await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert_eq!(w.rows(&admin, &cust.uid).await.len(), 3);
}

#[tokio::test]
async fn row_actions_validate_and_change_the_row() {
    let w = world().await;
    let (_, admin) = w.user(Role::Admin).await;
    let (_, sales) = w.user(Role::SalesPerson).await;
    let (_, lawyer) = w.user(Role::Lawyer).await;
    let (cust, ct) = w.user(Role::Customer).await;
    let pkg = w.package(&admin, "Gold", json!(10), true).await;
    let (_, row) = w.call(Method::POST, "/api/subscription/packages/", &ct, Some(json!({"package_id": pkg}))).await;
    let id = row["id"].as_u64().unwrap();
    let patch = format!("/api/puchasedservices/{id}/");

    // Change service: the form's rules.
    let (st, _) = w.call(Method::PATCH, &patch, &ct, Some(json!({}))).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, _) = w.call(Method::PATCH, &patch, &lawyer, Some(json!({}))).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, e) = w.call(Method::PATCH, &patch, &admin, Some(json!({}))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(field_keys(&e, "start_date"), ["start_date_required"]);
    assert_eq!(field_keys(&e, "expire_on"), ["expire_on_required"]);
    assert_eq!(field_keys(&e, "hour"), ["hour_required"]);
    let (_, e) = w
        .call(
            Method::PATCH,
            &patch,
            &admin,
            Some(json!({"start_date": "2026-01-01 00:00:00", "expire_on": "2027-01-01 00:00:00", "hour": "0,00"})),
        )
        .await;
    assert_eq!(field_keys(&e, "hour"), ["hour_min"]);
    let (_, e) = w
        .call(
            Method::PATCH,
            &patch,
            &admin,
            Some(json!({"start_date": "2026-01-01 00:00:00", "expire_on": "2027-01-01 00:00:00", "hour": "0,001"})),
        )
        .await;
    assert_eq!(field_keys(&e, "hour"), ["hour_min"]);
    let (_, e) = w
        .call(Method::PATCH, &patch, &admin, Some(json!({"start_date": "yesterday", "expire_on": "2027-01-01 00:00:00", "hour": 1})))
        .await;
    assert_eq!(field_keys(&e, "start_date"), ["invalid_datetime"]);
    let (st, ok) = w
        .call(
            Method::PATCH,
            &patch,
            &sales,
            Some(json!({"start_date": "2026-01-01 00:00:00", "expire_on": "2030-06-30 23:59:59", "hour": "12,75"})),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{ok}");
    assert_eq!(ok["message"], "service_updated");
    let rows = w.rows(&ct, &cust.uid).await;
    assert_eq!(rows[0]["expire_on"], "2030-06-30 23:59:59");
    assert_eq!(rows[0]["hour"], 12.75);
    let (st, _) = w.call(Method::PATCH, "/api/puchasedservices/999999/", &admin, Some(json!({}))).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (st, _) = w.call(Method::PATCH, "/api/puchasedservices/abc/", &admin, Some(json!({}))).await;
    assert_eq!(st, StatusCode::NOT_FOUND);

    // Automatic update date: set, reject bad dates, clear with null.
    let auto = format!("/api/services/update/auto/{id}/");
    let (st, v) = w.call(Method::PUT, &auto, &admin, Some(json!({"auto_update_date_end": "2031-01-01"}))).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::OK, Some("date_changed")));
    assert_eq!(w.rows(&ct, &cust.uid).await[0]["auto_update_date_end"], "2031-01-01");
    let (st, e) = w.call(Method::PUT, &auto, &admin, Some(json!({"auto_update_date_end": "31/01/2031"}))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(field_keys(&e, "auto_update_date_end"), ["invalid_date"]);
    let (st, _) = w.call(Method::PUT, &auto, &admin, Some(json!({"auto_update_date_end": null}))).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(w.rows(&ct, &cust.uid).await[0]["auto_update_date_end"], Value::Null);

    // Activate: only when hours are below consumed.
    let activate = format!("/api/customer/purchase-services/activate/{id}/");
    let (st, e) = w.call(Method::PUT, &activate, &admin, None).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(e["message"], "service_activation_failed");
    let now = Utc::now().naive_utc();
    let entry = UsageEntry {
        entry_id: "h1".into(),
        purchase_id: id,
        date: now.date(),
        hours: Hundredths(500),
        count: 0,
        case_uid: Some("C-1".into()),
        description: "Contract review".into(),
        lawyer: "Lia Law".into(),
    };
    use_cases::record_usage(&w.state, &entry, now).await.unwrap();
    // Staff lower the hours below what was used, the row is deactivated by
    // the cases flow; here we set that state and activate it again.
    let stored = w.state.store.get_purchase(id).await.unwrap().unwrap();
    let mut r = stored.row.clone();
    r.hour = Hundredths(400);
    r.active = false;
    w.state.store.save_purchase(&r, stored.rev).await.unwrap();
    assert_eq!(w.rows(&ct, &cust.uid).await[0]["status"], "Consumed");
    assert_eq!(w.rows(&ct, &cust.uid).await[0]["hour_less_than_consumed"], true);
    let (st, v) = w.call(Method::PUT, &activate, &sales, None).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::OK, Some("service_activated")));
    assert_eq!(w.rows(&ct, &cust.uid).await[0]["status"], "Active");

    // Delete: staff only, then gone.
    let del = format!("/api/customer/purchase-services/delete/{id}/");
    let (st, _) = w.call(Method::DELETE, &del, &ct, None).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, v) = w.call(Method::DELETE, &del, &admin, None).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::OK, Some("service_deleted")));
    assert!(w.rows(&ct, &cust.uid).await.is_empty());
    let (st, _) = w.call(Method::DELETE, &del, &admin, None).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn auto_update_date_is_refused_once_renewed() {
    let w = world().await;
    let (_, admin) = w.user(Role::Admin).await;
    let (cust, _) = w.user(Role::Customer).await;
    let grant = shared::domain::subscription::Grant::custom("Gold", Hundredths(100), 30);
    let start = Utc::now().naive_utc() - Duration::days(40);
    let row = use_cases::grant(&w.state, &cust.uid, &grant, start).await.unwrap();
    let (st, _) = w
        .call(Method::PUT, &format!("/api/services/update/auto/{}/", row.id), &admin, Some(json!({"auto_update_date_end": "2099-01-01"})))
        .await;
    assert_eq!(st, StatusCode::OK);
    let report = use_cases::expire_due(&w.state, Utc::now()).await.unwrap();
    assert_eq!(report.renewed, 1);
    let (st, e) =
        w.call(Method::PUT, &format!("/api/services/update/auto/{}/", row.id), &admin, Some(json!({"auto_update_date_end": null}))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(e["message"], "service_already_renewed");
}

#[tokio::test]
async fn limited_services_stop_at_their_limit() {
    let w = world().await;
    let (cust, _) = w.user(Role::Customer).await;
    let plan = shared::domain::catalogue::ServicePlan::limited_for_tests(1, "Credit 2", 3, 2);
    // A purchase marks its catalogue entry bought, so the entry exists.
    w.state.store.create_offer(&plan, &shared::store::idempotency::Once::none()).await.unwrap();
    let now = Utc::now().naive_utc();
    let row = use_cases::grant(&w.state, &cust.uid, &shared::domain::subscription::Grant::from_plan(&plan), now).await.unwrap();
    let use_ = |id: &str| UsageEntry {
        entry_id: id.into(),
        purchase_id: row.id,
        date: now.date(),
        hours: Hundredths::ZERO,
        count: 1,
        case_uid: None,
        description: "Credit check".into(),
        lawyer: String::new(),
    };
    use_cases::record_usage(&w.state, &use_("a"), now).await.unwrap();
    use_cases::record_usage(&w.state, &use_("b"), now).await.unwrap();
    let err = use_cases::record_usage(&w.state, &use_("c"), now).await.unwrap_err();
    assert_eq!(err.key().as_str(), "limit_reached");
    // Releasing one gives the use back.
    use_cases::release_usage(&w.state, row.id, now.date(), "a", now).await.unwrap();
    let r = use_cases::record_usage(&w.state, &use_("c"), now).await.unwrap();
    assert_eq!(r.consumed_limit, 2);
}

#[tokio::test]
async fn csv_time_report_lists_usage_in_the_range() {
    let w = world().await;
    let (_, admin) = w.user(Role::Admin).await;
    let (cust, ct) = w.user(Role::Customer).await;
    let pkg = w.package(&admin, "Gold: 10h", json!(10), true).await;
    let (_, row) = w.call(Method::POST, "/api/subscription/packages/", &ct, Some(json!({"package_id": pkg}))).await;
    let id = row["id"].as_u64().unwrap();
    let now = Utc::now().naive_utc();
    let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
    for (eid, date, h, text) in
        [("e1", "2026-03-01", 150, "Review, \"NDA\""), ("e2", "2026-03-15", 25, "Call"), ("e3", "2026-04-02", 100, "Later")]
    {
        let e = UsageEntry {
            entry_id: eid.into(),
            purchase_id: id,
            date: d(date),
            hours: Hundredths(h),
            count: 0,
            case_uid: Some(format!("CASE-{eid}")),
            description: text.into(),
            lawyer: "Lia Law".into(),
        };
        use_cases::record_usage(&w.state, &e, now).await.unwrap();
    }
    let path = format!("/api/customer/purchase-services/{id}/excel/?start_date=2026-03-01&end_date=2026-03-31");
    let res = {
        use tower::ServiceExt;
        let req = axum::http::Request::builder()
            .uri(&path)
            .header("authorization", format!("Bearer {admin}"))
            .body(axum::body::Body::empty())
            .unwrap();
        w.router.clone().oneshot(req).await.unwrap()
    };
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-disposition"], "attachment; filename=\"Gold_ 10h.csv\"");
    assert!(res.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
    let body = String::from_utf8(axum::body::to_bytes(res.into_body(), 1 << 20).await.unwrap().to_vec()).unwrap();
    assert_eq!(
        body,
        "Datum,Ärende,Beskrivning,Jurist,Timmar\n2026-03-01,CASE-e1,\"Review, \"\"NDA\"\"\",Lia Law,1.5\n2026-03-15,CASE-e2,Call,Lia Law,0.25\nTotalt,,,,1.75\n"
    );
    // In English when the reader reads English.
    let en = {
        use tower::ServiceExt;
        let req = axum::http::Request::builder()
            .uri(format!("{path}&lang=en"))
            .header("authorization", format!("Bearer {admin}"))
            .body(axum::body::Body::empty())
            .unwrap();
        let res = w.router.clone().oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        String::from_utf8(axum::body::to_bytes(res.into_body(), 1 << 20).await.unwrap().to_vec()).unwrap()
    };
    assert!(en.starts_with("Date,Case,Description,Lawyer,Hours\n"), "{en}");
    assert!(en.ends_with("Total,,,,1.75\n"), "{en}");
    let (st, e) = w
        .call(Method::GET, &format!("/api/customer/purchase-services/{id}/excel/?start_date=2026-04-01&end_date=2026-03-01"), &admin, None)
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(field_keys(&e, "end_date"), ["end_before_start"]);
    let (_, e) = w.call(Method::GET, &format!("/api/customer/purchase-services/{id}/excel/"), &admin, None).await;
    assert_eq!(field_keys(&e, "start_date"), ["start_date_required"]);
    let (st, _) = w.call(Method::GET, &path, &ct, None).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    // The row shows the hours used.
    assert_eq!(w.rows(&ct, &cust.uid).await[0]["consumed_hour"], 2.75);
}

/// A customer reading its own account: authentication, then its rows and
/// its Bisnode account with its type (read together), and no second read
/// of itself; staff read the customer, its Bisnode account and its type in
/// one call.
#[tokio::test]
async fn a_customers_account_is_read_in_three_calls() {
    let (state, calls) = testkit::services_counting_calls().await;
    let w = World { router: finish(catalogue::api().merge(subscriptions::api()), state.clone()), state };
    let (cust, ct) = w.user(Role::Customer).await;
    w.state.store.put_bisnode_account(&cust.uid, true, Some("BN-7")).await.unwrap();
    calls.take();
    let (st, v) = w.call(Method::GET, &format!("/api/customer/{}/", cust.uid), &ct, None).await;
    assert_eq!((st, &v["bisnode_account"]), (StatusCode::OK, &json!("BN-7")), "{v}");
    let mut made = calls.take();
    made.sort();
    assert_eq!(made, vec!["BatchGetItem", "BatchGetItem", "Query"]);
    // Staff: the customer and its Bisnode account in one BatchGetItem.
    let (_, sales) = w.user(Role::SalesPerson).await;
    calls.take();
    let (st, v) = w.call(Method::GET, &format!("/api/customer/{}/", cust.uid), &sales, None).await;
    assert_eq!((st, &v["bisnode_account"]), (StatusCode::OK, &json!("BN-7")), "{v}");
    let mut made = calls.take();
    made.sort();
    assert_eq!(made, vec!["BatchGetItem", "BatchGetItem", "Query"]);
}

/// A purchase whose answer was lost (the client retries with its key):
/// one row, and the second call answers the first row, not an advance one.
#[tokio::test]
async fn a_purchase_retried_with_its_key_buys_once() {
    let w = world().await;
    let (_, admin) = w.user(Role::Admin).await;
    let (cust, ct) = w.user(Role::Customer).await;
    let public = w.package(&admin, "Gold", json!(10), true).await;
    let buy = |key: &'static str| {
        let (router, ct) = (w.router.clone(), ct.clone());
        async move {
            let (st, _, body) = testkit::call_with_headers(
                &router,
                Method::POST,
                "/api/subscription/packages/",
                Some(ct.as_str()),
                Some(json!({"package_id": public})),
                &[("Idempotency-Key", key)],
            )
            .await;
            (st, serde_json::from_slice::<Value>(&body).unwrap())
        }
    };
    w.state.faults.arm("events.after_commit");
    let (st, _) = buy("\"buy-1\"").await;
    assert_eq!(st, StatusCode::INTERNAL_SERVER_ERROR);
    let (st, first) = buy("\"buy-1\"").await;
    assert_eq!(st, StatusCode::CREATED, "{first}");
    assert_eq!(first["advance"], false);
    let (st, again) = buy("\"buy-1\"").await;
    assert_eq!((st, &again), (StatusCode::CREATED, &first));
    assert_eq!(w.rows(&ct, &cust.uid).await.len(), 1);
    // Another key is another purchase: the advance row.
    let (st, second) = buy("\"buy-2\"").await;
    assert_eq!(st, StatusCode::CREATED, "{second}");
    assert_eq!(second["advance"], true);
    assert_eq!(w.rows(&ct, &cust.uid).await.len(), 2);
}

#[tokio::test]
async fn a_contact_reads_the_hour_rows_only_with_view_time_bank() {
    use shared::domain::subscription::{whole_seconds, Grant};
    use shared::domain::Permission;
    let w = world().await;
    let (cust, ct) = w.user(Role::Customer).await;
    let now = whole_seconds(chrono::Utc::now().naive_utc()) - chrono::Duration::seconds(5);
    shared::services::subscriptions::grant(&w.state, &cust.uid, &Grant::custom("Hours", Hundredths::parse("40").unwrap(), 30), now)
        .await
        .unwrap();
    let (_, without) = testkit::signed_in_contact(&w.state, &cust, vec![Permission::AddCase, Permission::ViewAllCases]).await;
    let (_, with) = testkit::signed_in_contact(&w.state, &cust, vec![Permission::ViewTimeBank]).await;
    for path in [format!("/api/customer/{}/", cust.uid), "/api/subscription/services/".to_string()] {
        let (st, v) = w.call(Method::GET, &path, &without, None).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        assert_eq!(v["purchased_services"], json!([]), "{path}: {v}");
        for t in [&with, &ct] {
            let (_, v) = w.call(Method::GET, &path, t, None).await;
            assert_eq!(v["purchased_services"].as_array().unwrap().len(), 1, "{path}: {v}");
            assert_eq!(v["purchased_services"][0]["hour"], 40.0, "{path}: {v}");
        }
    }
}

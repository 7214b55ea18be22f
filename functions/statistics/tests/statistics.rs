//! Dashboards and statistics against the local stand-in, each test on its
//! own table: the counters equal a recount from the raw items after a
//! randomised sequence of events with retried and concurrent requests and
//! injected failures; each role sees only its own figures; the exports hold
//! the table's numbers; the period filter's month boundaries.

use axum::http::{Method, StatusCode};
use axum::Router;
use chrono::{Datelike, Utc};
use rand::Rng;
use serde_json::{json, Value};
use shared::api::{finish, AppState};
use shared::domain::catalogue::{Hundredths, NamedKind};
use shared::domain::stats;
use shared::domain::subscription::{whole_seconds, Grant};
use shared::domain::{Role, User};
use shared::services::recount;
use shared::testkit;

struct World {
    state: AppState,
    cases: Router,
    stats: Router,
    case_type: u64,
}

async fn world() -> World {
    let state = testkit::services().await;
    let cases = finish(cases::api(), state.clone());
    let stats = finish(statistics::api(), state.clone());
    let case_type = state.store.create_named(NamedKind::CaseType, "Tenancy", "").await.unwrap().id;
    World { state, cases, stats, case_type }
}

impl World {
    async fn call(&self, m: Method, path: &str, token: &str, body: Option<Value>) -> (StatusCode, Value) {
        let router = if path.starts_with("/api/case/") { &self.cases } else { &self.stats };
        testkit::call(router, m, path, Some(token), body).await
    }
    async fn ok(&self, m: Method, path: &str, token: &str, body: Option<Value>) -> Value {
        let (st, v) = self.call(m, path, token, body).await;
        assert!(st.is_success(), "{path}: {st} {v}");
        v
    }
    /// A customer with 100 hours (granted through the use case, so counted).
    async fn customer(&self) -> (User, String) {
        let (c, t) = testkit::signed_in(&self.state, Role::Customer).await;
        let now = whole_seconds(Utc::now().naive_utc()) - chrono::Duration::seconds(5);
        shared::services::subscriptions::grant(&self.state, &c.uid, &Grant::custom("Hours", Hundredths::parse("100").unwrap(), 30), now)
            .await
            .unwrap();
        (c, t)
    }
    /// A new case of `customer`, published, accepted by `lawyer` (token).
    async fn case_in_progress(&self, admin: &str, customer: &User, lt: &str) -> String {
        let body =
            json!({"customer": customer.uid, "subject": "Lease", "description": "Rent", "type": self.case_type, "estimated_hours": "2"});
        let c = self.ok(Method::POST, "/api/case/create/", admin, Some(body)).await;
        let uid = c["uid"].as_str().unwrap().to_string();
        self.ok(Method::POST, &format!("/api/case/status/{uid}/"), admin, Some(json!({"action": "publish"}))).await;
        self.ok(Method::POST, &format!("/api/case/status/{uid}/"), lt, Some(json!({"action": "accept"}))).await;
        uid
    }
    async fn log(&self, lt: &str, case: &str, b: &str, nb: &str, date: &str) -> (StatusCode, Value) {
        let body =
            json!({"case_uid": case, "hour": b, "non_billable_hour": nb, "rattsskydd_hour": "0", "date": date, "description": "work"});
        self.call(Method::POST, "/api/case/hour/create/", lt, Some(body)).await
    }
    async fn assert_recount_equal(&self) {
        let report = recount::recount(&self.state, false).await.unwrap();
        assert!(report.differences.is_empty(), "differences: {:#?}", report.differences);
        assert!(report.counter_items > 0);
    }
}

fn today() -> String {
    stats::stockholm_date(Utc::now()).to_string()
}

#[tokio::test]
async fn counters_equal_a_recount_after_random_events_with_retries_and_concurrent_writes() {
    let w = world().await;
    let (_, admin) = testkit::signed_in(&w.state, Role::Admin).await;
    let (l1, lt1) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let (_, lt2) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let (c1, _) = w.customer().await;
    let (c2, _) = w.customer().await;
    let mut rng = rand::rng();
    let mut cases = Vec::new();
    for i in 0..4 {
        let (c, lt) = if i % 2 == 0 { (&c1, &lt1) } else { (&c2, &lt2) };
        cases.push((w.case_in_progress(&admin, c, lt).await, lt.clone()));
    }
    // Concurrent writes: hours on two cases at once, and two on one case.
    let d = today();
    let (a, b, c) = tokio::join!(
        w.log(&cases[0].1, &cases[0].0, "1.5", "0.5", &d),
        w.log(&cases[1].1, &cases[1].0, "2", "0", &d),
        w.log(&cases[0].1, &cases[0].0, "0.25", "1", &d),
    );
    for (st, v) in [a, b, c] {
        assert!(st.is_success(), "{st} {v}");
    }
    let mut entries: Vec<(String, String, String)> = Vec::new();
    for _ in 0..12 {
        let (case, lt) = cases[rng.random_range(0..cases.len())].clone();
        // A retried request: the first try meets a concurrent writer and
        // decides again; or the commit fails before it is sent (nothing
        // written, the caller gets an error and sends again).
        match rng.random_range(0..3) {
            0 => w.state.faults.arm("events.conflict"),
            1 => w.state.faults.arm("events.before_commit"),
            _ => {}
        }
        let hours = format!("{}.{}", rng.random_range(0..3), rng.random_range(1..9) * 10);
        let (mut st, mut v) = w.log(&lt, &case, &hours, "0.1", &d).await;
        if !st.is_success() {
            (st, v) = w.log(&lt, &case, &hours, "0.1", &d).await;
        }
        assert!(st.is_success(), "{st} {v}");
        entries.push((case, lt, v["id"].as_str().unwrap().to_string()));
    }
    // Edits (with a retry after a conflict), a deletion, an invoicing.
    let (case, lt, id) = entries[0].clone();
    w.state.faults.arm("events.conflict");
    let body = json!({"case_uid": case, "hour": "3", "non_billable_hour": "0", "rattsskydd_hour": "1", "date": d, "description": "edited"});
    w.ok(Method::PUT, &format!("/api/case/hour/edit/{id}/"), &lt, Some(body)).await;
    let (case, lt, id) = entries.remove(1);
    w.ok(Method::DELETE, &format!("/api/case/hour/delete/{id}/?case={case}"), &lt, None).await;
    let (case, lt, _) = entries[1].clone();
    let ids: Vec<String> = entries.iter().filter(|e| e.0 == case && e.1 == lt).map(|e| e.2.clone()).collect();
    w.ok(Method::PUT, "/api/case/hour/mass-update/", &lt, Some(json!({"case_uid": case, "ids": ids, "is_invoiced": true}))).await;
    // A commit whose answer is lost: written once; asking again is refused.
    w.state.faults.arm("events.after_commit");
    let (st, _) =
        w.call(Method::POST, &format!("/api/case/status/{}/", cases[3].0), &cases[3].1, Some(json!({"action": "complete"}))).await;
    assert!(!st.is_success());
    let (st, _) =
        w.call(Method::POST, &format!("/api/case/status/{}/", cases[3].0), &cases[3].1, Some(json!({"action": "complete"}))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    w.ok(Method::POST, &format!("/api/case/status/{}/", cases[2].0), &cases[2].1, Some(json!({"action": "complete"}))).await;
    w.assert_recount_equal().await;

    // The flows: two cases closed, four accepted, in this month.
    let act = w.ok(Method::GET, "/api/statistic/activity/", &admin, None).await;
    let col = |t: &Value, name: &str| t["columns"].as_array().unwrap().iter().position(|c| c == name).unwrap();
    let t = &act["table"];
    let sum = |name: &str| t["rows"].as_array().unwrap().iter().map(|r| r[col(t, name)].as_i64().unwrap()).sum::<i64>();
    assert_eq!(sum("cases.closed"), 2);
    assert_eq!(sum("cases.accepted"), 4);
    assert_eq!(sum("cases.opened"), 4);
    // The admin dashboard agrees with the raw hours.
    let dash = w.ok(Method::GET, "/api/dashboard/", &admin, None).await;
    let mut billable = 0;
    for (case, _) in &cases {
        for h in w.state.store.case_hours(case).await.unwrap() {
            billable += h.hour.0;
        }
    }
    assert_eq!(dash["hours_month"]["billable"].as_i64().unwrap(), billable);
    assert_eq!(dash["cases"]["inprogress"], 2);
    assert_eq!(dash["cases"]["complete"], 2);
    assert!(dash["top_lawyers"].as_array().unwrap().iter().any(|l| l["uid"] == l1.uid.as_str()));

    // A stored counter changed by hand is found, and --fix repairs it.
    let key = shared::store::keys::stats::now_pk("all", 0);
    let mut tx = w.state.store.tx();
    tx.add_numbers(&key, "NOW", &[("cases.status.complete".into(), 5)]).unwrap();
    assert!(w.state.store.commit(tx).await.unwrap());
    let report = recount::recount(&w.state, true).await.unwrap();
    assert_eq!(report.differences.len(), 1, "{:?}", report.differences);
    assert_eq!(report.differences[0].metric, "cases.status.complete");
    w.assert_recount_equal().await;
    let dash = w.ok(Method::GET, "/api/dashboard/", &admin, None).await;
    assert_eq!(dash["cases"]["complete"], 2);
    assert_eq!(sum("cases.closed"), 2, "flows are kept by the fix");
}

#[tokio::test]
async fn each_role_sees_only_its_own_figures() {
    let w = world().await;
    let (_, admin) = testkit::signed_in(&w.state, Role::Admin).await;
    let (_, lt1) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let (_, lt2) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let (_, sales) = testkit::signed_in(&w.state, Role::SalesPerson).await;
    let (c1, ct1) = w.customer().await;
    let (c2, ct2) = w.customer().await;
    let k1 = w.case_in_progress(&admin, &c1, &lt1).await;
    let k2 = w.case_in_progress(&admin, &c2, &lt2).await;
    w.log(&lt1, &k1, "2", "1", &today()).await;
    w.log(&lt2, &k2, "0.5", "0", &today()).await;

    let d1 = w.ok(Method::GET, "/api/dashboard/", &lt1, None).await;
    assert_eq!(d1["role"], "lawyer");
    assert_eq!(d1["hours_month"]["billable"], 200);
    assert_eq!(d1["hours_month"]["nonbillable"], 100);
    assert_eq!(d1["active_cases"], 1);
    let d2 = w.ok(Method::GET, "/api/dashboard/", &lt2, None).await;
    assert_eq!(d2["hours_month"]["billable"], 50);
    // The lawyer's customer statistics: only their own hours.
    let u1 = w.ok(Method::GET, "/api/statistic/user/", &lt1, None).await;
    assert_eq!(u1["table"]["rows"].as_array().unwrap().len(), 1);
    assert_eq!(u1["table"]["rows"][0][1], 300);
    let legal2 = w.ok(Method::GET, "/api/statistic/legal/", &lt2, None).await;
    assert_eq!(legal2["table"]["rows"][0][6], 50);
    // A customer: its own company only.
    let cd1 = w.ok(Method::GET, "/api/dashboard/", &ct1, None).await;
    assert_eq!(cd1["role"], "customer");
    assert_eq!(cd1["open_cases"], 1);
    let a2 = w.ok(Method::GET, "/api/statistic/activity/", &ct2, None).await;
    let hours: i64 = a2["table"]["rows"].as_array().unwrap().iter().map(|r| r[4].as_i64().unwrap()).sum();
    assert_eq!(hours, 50);
    let pie = w.ok(Method::GET, "/api/pie-chart/hour/", &ct1, None).await;
    assert_eq!(pie["pie"][0]["value"], 200);
    // Refused pages.
    for (token, path) in [
        (&lt1, "/api/statistic/finance/"),
        (&lt1, "/api/statistic/activity/"),
        (&lt1, "/api/statistic/account/"),
        (&ct1, "/api/statistic/finance/"),
        (&ct1, "/api/statistic/user/"),
        (&ct1, "/api/statistic/legal/"),
        (&sales, "/api/statistic/finance/"),
        (&sales, "/api/statistic/legal/"),
    ] {
        let (st, _) = w.call(Method::GET, path, token, None).await;
        assert_eq!(st, StatusCode::FORBIDDEN, "{path}");
    }
    // Admin sees both.
    let all = w.ok(Method::GET, "/api/dashboard/", &admin, None).await;
    assert_eq!(all["hours_month"]["billable"], 250);
    // A sales person with no customers of their own sees none.
    let s = w.ok(Method::GET, "/api/dashboard/", &sales, None).await;
    assert_eq!(s["customers"], 0);
    let su = w.ok(Method::GET, "/api/statistic/user/", &sales, None).await;
    assert!(su["table"]["rows"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn exports_hold_the_numbers_of_the_table_and_periods_end_at_month_ends() {
    let w = world().await;
    let (_, admin) = testkit::signed_in(&w.state, Role::Admin).await;
    let (_, lt) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let (c, _) = w.customer().await;
    let k = w.case_in_progress(&admin, &c, &lt).await;
    let today = stats::stockholm_date(Utc::now());
    let first = stats::first_of_month(today);
    w.log(&lt, &k, "1.25", "0", &today.to_string()).await;
    // An entry on the last day of the month before: counted there only.
    let prev_last = first - chrono::Duration::days(1);
    let (st, v) = w.log(&lt, &k, "4", "0", &prev_last.to_string()).await;
    assert!(st.is_success(), "{v}");

    let f = w.ok(Method::GET, "/api/statistic/finance/?period=this_month", &admin, None).await;
    let table = &f["table"];
    let b = table["columns"].as_array().unwrap().iter().position(|c| c == "hours.billable").unwrap();
    let this_month: i64 = table["rows"].as_array().unwrap().iter().map(|r| r[b].as_i64().unwrap()).sum();
    assert_eq!(this_month, 125);
    let last = w.ok(Method::GET, "/api/statistic/finance/?period=last_month", &admin, None).await;
    let last_month: i64 = last["table"]["rows"].as_array().unwrap().iter().map(|r| r[b].as_i64().unwrap()).sum();
    assert_eq!(last_month, 400);
    let custom = format!("/api/statistic/finance/?period=custom&from={prev_last}&to={first}");
    let two = w.ok(Method::GET, &custom, &admin, None).await;
    assert_eq!(two["by_day"], true);
    let days: Vec<&Value> = two["table"]["rows"].as_array().unwrap().iter().collect();
    assert_eq!(days.len(), 2);
    assert_eq!(days[0][b], 400);
    assert_eq!(days[1][b], if today == first { 125 } else { 0 });
    assert!(f["items_read"].as_u64().unwrap() > 0);
    let (st, v) = w.call(Method::GET, "/api/statistic/finance/?period=custom&from=2026-03-02&to=2026-03-01", &admin, None).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");

    // CSV: the same cells as the table (hours and money in units).
    let (st, _, body) =
        testkit::call_bytes(&w.stats, Method::GET, "/api/statistic/finance/?period=this_month&format=csv", Some(&admin), None).await;
    assert_eq!(st, StatusCode::OK);
    let text = String::from_utf8(body).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let cols: Vec<&str> = table["columns"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    assert_eq!(header, cols);
    for (line, row) in lines.zip(table["rows"].as_array().unwrap()) {
        let cells: Vec<String> = line.split(',').map(String::from).collect();
        let want: Vec<String> = row.as_array().unwrap().iter().zip(&cols).map(|(v, c)| statistics::export::cell(c, v)).collect();
        assert_eq!(cells, want);
    }
    assert!(text.contains(",1.25,"), "{text}");
    // Excel: a real workbook with the same header cells.
    let (st, headers, body) =
        testkit::call_bytes(&w.stats, Method::GET, "/api/statistic/finance/?period=this_month&format=xlsx", Some(&admin), None).await;
    assert_eq!(st, StatusCode::OK);
    assert!(headers.get("content-type").unwrap().to_str().unwrap().contains("spreadsheetml"));
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(body)).unwrap();
    let mut strings = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("xl/sharedStrings.xml").unwrap(), &mut strings).unwrap();
    assert!(strings.contains("hours.billable"));
    // The activity cases list and workbook: this month's case.
    let list = w.ok(Method::GET, "/api/statistic/activity/cases?period=this_month", &admin, None).await;
    assert_eq!(list["results"].as_array().unwrap().len(), 1);
    assert_eq!(list["results"][0]["uid"], k.as_str());
    let (st, _, _) =
        testkit::call_bytes(&w.stats, Method::GET, "/api/statistic/activity/excel/?period=this_year", Some(&admin), None).await;
    assert_eq!(st, StatusCode::OK);
    let _ = today.year();
}

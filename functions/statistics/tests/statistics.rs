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
use shared::domain::calendar;
use shared::domain::catalogue::{Hundredths, NamedKind};
use shared::domain::statistics as stats;
use shared::domain::subscription::{whole_seconds, Grant};
use shared::domain::{Role, User};
use shared::services::recount;
use shared::testkit;

struct World {
    state: AppState,
    cases: Router,
    stats: Router,
    customers: Router,
    case_type: u64,
}

async fn world() -> World {
    let state = testkit::services().await;
    let cases = finish(cases::api(), state.clone());
    let stats = finish(statistics::api(), state.clone());
    let customers = finish(customers::api(), state.clone());
    let case_type = state.store.create_named(NamedKind::CaseType, "Tenancy", "").await.unwrap().id;
    World { state, cases, stats, customers, case_type }
}

impl World {
    async fn call(&self, m: Method, path: &str, token: &str, body: Option<Value>) -> (StatusCode, Value) {
        let router = if path.starts_with("/api/case/") {
            &self.cases
        } else if path.starts_with("/api/customer/") {
            &self.customers
        } else {
            &self.stats
        };
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
        let body = json!({"customer": customer.uid, "subject": "Lease", "description": "Rent", "type": self.case_type, "estimated_hours": "2",
                   "short_internal_description": "staff only"});
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
    /// A customer staff creates (an individual), managed by `manager`.
    async fn managed_customer(&self, admin: &str, manager: Option<&str>) -> String {
        let email = format!("managed-{}@example.com", uuid::Uuid::new_v4().simple());
        let c = self.ok(Method::POST, "/api/customer/create/", admin, Some(individual(&email, manager))).await;
        c["uid"].as_str().unwrap().to_string()
    }
    /// Gives customer `uid` another account manager (or none) through the
    /// customer edit, as staff do.
    async fn set_manager(&self, admin: &str, uid: &str, manager: Option<&str>) -> (StatusCode, Value) {
        let p = self.state.store.get_customer_profile(uid).await.unwrap().unwrap();
        self.call(Method::PUT, &format!("/api/customer/update/{uid}/"), admin, Some(individual(&p.email, manager))).await
    }
    /// A draft case of customer `uid` (staff create cases as drafts).
    async fn draft(&self, admin: &str, uid: &str) -> String {
        let body = json!({"customer": uid, "subject": "Lease", "description": "Rent", "type": self.case_type, "estimated_hours": "2"});
        self.ok(Method::POST, "/api/case/create/", admin, Some(body)).await["uid"].as_str().unwrap().to_string()
    }
    /// A 30-day subscription bought for customer `uid` (through the use case).
    async fn sell(&self, uid: &str) {
        let now = whole_seconds(Utc::now().naive_utc()) - chrono::Duration::seconds(5);
        shared::services::subscriptions::grant(&self.state, uid, &Grant::custom("Hours", Hundredths::parse("10").unwrap(), 30), now)
            .await
            .unwrap();
    }
    async fn assert_recount_equal(&self) {
        let report = recount::recount(&self.state, false).await.unwrap();
        assert!(report.differences.is_empty(), "differences: {:#?}", report.differences);
        assert!(report.counter_items > 0);
    }
}

/// The cells of a workbook's first sheet as text, row by row (shared
/// strings resolved, numbers as written): enough to compare an export with
/// the table it came from.
fn sheet(book: Vec<u8>) -> Vec<Vec<String>> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(book)).unwrap();
    let mut read = |name: &str| {
        let mut text = String::new();
        if let Ok(mut f) = zip.by_name(name) {
            std::io::Read::read_to_string(&mut f, &mut text).unwrap();
        }
        text
    };
    let unescape =
        |t: &str| t.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'").replace("&amp;", "&");
    let strings: Vec<String> = read("xl/sharedStrings.xml")
        .split("<si>")
        .skip(1)
        .map(|si| {
            si.split("<t")
                .skip(1)
                .filter_map(|t| t.split_once('>').map(|(_, rest)| rest.split("</t>").next().unwrap_or("").to_string()))
                .collect::<String>()
        })
        .map(|t| unescape(&t))
        .collect();
    let xml = read("xl/worksheets/sheet1.xml");
    let mut rows = Vec::new();
    for row in xml.split("<row ").skip(1) {
        let row = row.split("</row>").next().unwrap_or("");
        let mut cells = Vec::new();
        for c in row.split("<c ").skip(1) {
            let (attrs, body) = c.split_once('>').unwrap_or((c, ""));
            let value = body.split("<v>").nth(1).and_then(|v| v.split("</v>").next()).unwrap_or("");
            let inline = body.split("<t>").nth(1).and_then(|v| v.split("</t>").next());
            cells.push(if attrs.contains("t=\"s\"") {
                strings[value.parse::<usize>().unwrap()].clone()
            } else if let Some(t) = inline {
                unescape(t)
            } else {
                value.to_string()
            });
        }
        rows.push(cells);
    }
    rows
}

/// An individual customer's form as staff fill it in.
fn individual(email: &str, manager: Option<&str>) -> Value {
    json!({
        "customer_type": "Individual",
        "first_name": "Ida", "last_name": "Ek",
        "email": email,
        "phone": "0701234567",
        "profile": { "address_1": "Storgatan 1", "address_2": "", "city": "Stockholm", "post_code": "11122", "country": 1 },
        "same_invoice_address": true,
        "account_manager": manager,
    })
}

fn today() -> String {
    calendar::stockholm_date(Utc::now()).to_string()
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
    // Filing a case with hours under another knowledge sector and case
    // type moves its hours (and itself) in the counters, with a retry.
    let sector = w.state.store.create_named(NamedKind::KnowledgeSector, "Tenancy law", "").await.unwrap().id;
    let other_type = w.state.store.create_named(NamedKind::CaseType, "Lease dispute", "").await.unwrap().id;
    w.state.faults.arm("events.conflict");
    let edit = json!({"customer": c1.uid, "subject": "Lease", "description": "Rent", "type": other_type, "estimated_hours": "2",
        "knowledge_sector": sector});
    w.ok(Method::PUT, &format!("/api/case/update/{}/", cases[0].0), &admin, Some(edit)).await;
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
    // Subscriptions ending within 30 days, from the day counters: the two
    // 30-day grants, not one that runs 60 days more; as the due index says.
    let now = whole_seconds(Utc::now().naive_utc()) - chrono::Duration::seconds(5);
    shared::services::subscriptions::grant(&w.state, &c2.uid, &Grant::custom("Long", Hundredths::parse("10").unwrap(), 60), now)
        .await
        .unwrap();
    let dash = w.ok(Method::GET, "/api/dashboard/", &admin, None).await;
    assert_eq!(dash["expiring_subscriptions"], 2, "{dash}");
    let due = w.state.store.due_between(Utc::now(), Utc::now() + chrono::Duration::days(30)).await.unwrap();
    assert_eq!(due.len(), 2);
    // The long one starts when the running one ends (booked in advance).
    assert_eq!(dash["active_subscriptions"], 2);
    w.assert_recount_equal().await;

    // A stored counter changed by hand is found, and --fix repairs it.
    let key = shared::store::keys::stats::now("all", 0);
    let mut tx = w.state.store.tx();
    tx.add_numbers(&key, &[("cases.status.complete".into(), 5)]).unwrap();
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
    let h = legal2["table"]["columns"].as_array().unwrap().iter().position(|c| c == "hours.total").unwrap();
    assert_eq!(legal2["table"]["rows"].as_array().unwrap().len(), 1);
    assert_eq!(legal2["table"]["rows"][0][h], 50);
    // Case types are named in the reader's language.
    assert_eq!(legal2["table"]["rows"][0][0], "Tenancy");
    let draft = shared::domain::catalogue::NamedDraft {
        name_en: Some("Tenancy law".into()),
        ..shared::domain::catalogue::NamedDraft::named("Hyresrätt")
    };
    w.state.store.update_named(NamedKind::CaseType, w.case_type, &draft).await.unwrap();
    let legal_sv = w.ok(Method::GET, "/api/statistic/legal/?lang=sv", &lt2, None).await;
    assert_eq!(legal_sv["table"]["rows"][0][0], "Hyresrätt");
    let legal_en = w.ok(Method::GET, "/api/statistic/legal/?lang=en", &lt2, None).await;
    assert_eq!((&legal_en["table"]["rows"][0][0], &legal_en["pie"][0]["name"]), (&json!("Tenancy law"), &json!("Tenancy law")));
    // A customer: its own company only.
    let cd1 = w.ok(Method::GET, "/api/dashboard/", &ct1, None).await;
    assert_eq!(cd1["role"], "customer");
    assert_eq!(cd1["open_cases"], 1);
    let a2 = w.ok(Method::GET, "/api/statistic/activity/", &ct2, None).await;
    let hours: i64 = a2["table"]["rows"].as_array().unwrap().iter().map(|r| r[4].as_i64().unwrap()).sum();
    assert_eq!(hours, 50);
    // The activity cases list and its workbook: the company's own cases only.
    let own = w.ok(Method::GET, "/api/statistic/activity/cases?period=this_month", &ct2, None).await;
    let uids: Vec<&str> = own["results"].as_array().unwrap().iter().map(|c| c["uid"].as_str().unwrap()).collect();
    assert_eq!(uids, vec![k2.as_str()]);
    // Staff-only words stay with staff: the customer's view is redacted, the admin's is not.
    assert_eq!(own["results"][0]["short_internal_description"], "", "{own}");
    let all = w.ok(Method::GET, "/api/statistic/activity/cases?period=this_month", &admin, None).await;
    let k2_admin = all["results"].as_array().unwrap().iter().find(|c| c["uid"] == k2.as_str()).unwrap();
    assert_eq!(k2_admin["short_internal_description"], "staff only");
    let (st, _, book) =
        testkit::call_bytes(&w.stats, Method::GET, "/api/statistic/activity/excel/?period=this_month", Some(&ct2), None).await;
    assert_eq!(st, StatusCode::OK);
    let rows = sheet(book);
    assert_eq!(rows.len(), 2, "the header and the company's one case");
    let (st, _, book) =
        testkit::call_bytes(&w.stats, Method::GET, "/api/statistic/activity/excel/?period=this_month&lang=en", Some(&ct2), None).await;
    assert_eq!(st, StatusCode::OK);
    let en = sheet(book);
    assert_eq!(en[0], ["Case number", "Subject", "Customer", "Status", "Type of case", "Lawyer", "Opened"]);
    assert!(["Pending", "Available", "Active", "Closed"].contains(&en[1][3].as_str()), "{en:?}");
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
    let today = calendar::stockholm_date(Utc::now());
    let first = calendar::first_of_month(today);
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
    // Only the values the document lists: a period or a day it does not name is refused.
    for q in ["period=month", "period=custom&from=2026-13-01&to=2026-03-31"] {
        let (st, v) = w.call(Method::GET, &format!("/api/statistic/finance/?{q}"), &admin, None).await;
        assert_eq!((st, v["message"].clone()), (StatusCode::BAD_REQUEST, serde_json::json!("invalid_query")), "{q}: {v}");
    }

    // CSV: the same cells as the table (hours and money in units).
    let (st, _, body) =
        testkit::call_bytes(&w.stats, Method::GET, "/api/statistic/finance/?period=this_month&format=csv", Some(&admin), None).await;
    assert_eq!(st, StatusCode::OK);
    let text = String::from_utf8(body).unwrap();
    let text = text.strip_prefix('\u{feff}').expect("a byte-order mark, for Excel");
    // Parsed as CSV: a header may hold a comma ("Intäkt, timmar").
    let records: Vec<Vec<String>> = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    let header = &records[0];
    let cols: Vec<&str> = table["columns"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    // The headers are the page's, in the reader's language (sv unless asked).
    let sv: Vec<String> = cols.iter().map(|c| statistics::export::header_text(c, "sv").unwrap_or_else(|| panic!("no text: {c}"))).collect();
    assert_eq!(header, &sv);
    assert_eq!(header[..3], ["Period", "Intäkt, timmar", "Intäkt, paket och planer"]);
    assert_eq!(records.len(), table["rows"].as_array().unwrap().len() + 1);
    for (cells, row) in records[1..].iter().zip(table["rows"].as_array().unwrap()) {
        let want: Vec<String> = row.as_array().unwrap().iter().zip(&cols).map(|(v, c)| statistics::export::cell(c, v)).collect();
        assert_eq!(cells, &want);
    }
    assert!(text.contains(",1.25,"), "{text}");
    // Every table's every column has its header text in both languages.
    for path in [
        "statistic/account/",
        "statistic/user/",
        "statistic/finance/",
        "statistic/activity/",
        "statistic/legal/",
        "chart/",
        "pie-chart/hour/",
    ] {
        let t = w.ok(Method::GET, &format!("/api/{path}?period=this_year"), &admin, None).await;
        for c in t["table"]["columns"].as_array().unwrap() {
            for lang in ["sv", "en"] {
                assert!(statistics::export::header_text(c.as_str().unwrap(), lang).is_some(), "{path}: {c} has no {lang} header");
            }
        }
    }
    // Excel: a real workbook with the same header cells.
    let (st, headers, body) =
        testkit::call_bytes(&w.stats, Method::GET, "/api/statistic/finance/?period=this_month&format=xlsx&lang=en", Some(&admin), None)
            .await;
    assert_eq!(st, StatusCode::OK);
    assert!(headers.get("content-type").unwrap().to_str().unwrap().contains("spreadsheetml"));
    // Excel: the table's header and every cell's number (hours and money
    // in units, as the CSV).
    let cells = sheet(body);
    let en: Vec<String> = cols.iter().map(|c| statistics::export::header_text(c, "en").unwrap()).collect();
    assert_eq!(cells[0], en);
    assert_eq!(cells[0][..2], ["Period", "Revenue, hours"]);
    assert_eq!(cells.len(), table["rows"].as_array().unwrap().len() + 1);
    for (got, row) in cells[1..].iter().zip(table["rows"].as_array().unwrap()) {
        for ((g, v), c) in got.iter().zip(row.as_array().unwrap()).zip(&cols) {
            match v {
                Value::Number(n) => {
                    let want = if statistics::export::in_hundredths(c) { n.as_f64().unwrap() / 100.0 } else { n.as_f64().unwrap() };
                    assert!((g.parse::<f64>().unwrap() - want).abs() < 1e-9, "{c}: {g} ≠ {want}");
                }
                other => assert_eq!(g, other.as_str().unwrap()),
            }
        }
    }
    assert!(cells.iter().skip(1).any(|r| r[b] == "1.25"), "{cells:?}");

    // A cursor the client made up (empty, before or after the period) is no
    // invalid key condition (a 500 the fuzz found): empty starts at the top,
    // beyond the period starts at its end, before it finds nothing.
    for (cursor, expected) in [("", 1), ("%7E%7E%7E", 1), ("0", 0)] {
        let page = w.ok(Method::GET, &format!("/api/statistic/activity/cases?period=this_month&cursor={cursor}"), &admin, None).await;
        assert_eq!(page["results"].as_array().unwrap().len(), expected, "cursor {cursor:?}");
    }

    // The activity cases list pages by 10, newest first; the workbook holds
    // the same cases in the same order with the same cells.
    let mut made = vec![k.clone()];
    for _ in 0..10 {
        made.push(w.case_in_progress(&admin, &c, &lt).await);
    }
    let mut listed: Vec<Value> = Vec::new();
    let mut cursor = String::new();
    let mut pages = 0;
    loop {
        let path = format!("/api/statistic/activity/cases?period=this_month{cursor}");
        let page = w.ok(Method::GET, &path, &admin, None).await;
        let results = page["results"].as_array().unwrap();
        assert!(results.len() <= 10);
        listed.extend(results.iter().cloned());
        pages += 1;
        match page["next"].as_str() {
            Some(n) => cursor = format!("&cursor={n}"),
            None => break,
        }
    }
    assert_eq!(pages, 2);
    let mut uids: Vec<&str> = listed.iter().map(|c| c["uid"].as_str().unwrap()).collect();
    let stamps: Vec<&str> = listed.iter().map(|c| c["created_at"].as_str().unwrap()).collect();
    assert!(stamps.windows(2).all(|p| p[0] >= p[1]), "newest first: {stamps:?}");
    uids.sort();
    made.sort();
    assert_eq!(uids, made.iter().map(String::as_str).collect::<Vec<_>>());
    let (st, _, book) =
        testkit::call_bytes(&w.stats, Method::GET, "/api/statistic/activity/excel/?period=this_month", Some(&admin), None).await;
    assert_eq!(st, StatusCode::OK);
    let rows = sheet(book);
    // Headers and statuses as the page shows them, in Swedish unless asked.
    assert_eq!(rows[0], ["Ärendenummer", "Ämne", "Kund", "Status", "Ärendetyp", "Jurist", "Öppnat"]);
    assert_eq!(rows.len(), listed.len() + 1);
    for (row, case) in rows[1..].iter().zip(&listed) {
        let opened = chrono::DateTime::parse_from_rfc3339(case["created_at"].as_str().unwrap()).unwrap().with_timezone(&Utc);
        let want = [
            case["case_number"].as_str().unwrap().to_string(),
            case["subject"].as_str().unwrap().to_string(),
            case["customer_name"].as_str().unwrap().to_string(),
            statistics::export::header(&format!("cases.status.{}", case["status"].as_str().unwrap().to_lowercase()), "sv"),
            case["type"]["name"].as_str().unwrap().to_string(),
            case["lawyer_name"].as_str().unwrap_or_default().to_string(),
            calendar::stockholm_date(opened).to_string(),
        ];
        assert_eq!(row, &want);
    }
    let _ = today.year();
}

#[tokio::test]
async fn legal_statistics_count_cases_by_case_type_and_knowledge_sector() {
    let w = world().await;
    let (_, admin) = testkit::signed_in(&w.state, Role::Admin).await;
    let (_, lt) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let (c, _) = w.customer().await;
    let tenancy = w.state.store.create_named(NamedKind::KnowledgeSector, "Tenancy law", "").await.unwrap().id;
    let labour = w.state.store.create_named(NamedKind::KnowledgeSector, "Labour law", "").await.unwrap().id;
    // Filed under a sector at creation (staff), later (a lawyer's edit), or never.
    let open = |sector: Option<u64>| {
        json!({"customer": c.uid, "subject": "Lease", "description": "Rent", "type": w.case_type, "estimated_hours": "2",
            "knowledge_sector": sector})
    };
    let mut uids = Vec::new();
    for sector in [Some(tenancy), Some(tenancy), None] {
        let made = w.ok(Method::POST, "/api/case/create/", &admin, Some(open(sector))).await;
        let uid = made["uid"].as_str().unwrap().to_string();
        assert_eq!(made["knowledge_sector"]["id"].as_u64(), sector);
        w.ok(Method::POST, &format!("/api/case/status/{uid}/"), &admin, Some(json!({"action": "publish"}))).await;
        w.ok(Method::POST, &format!("/api/case/status/{uid}/"), &lt, Some(json!({"action": "accept"}))).await;
        uids.push(uid);
    }
    let (st, v) = w.log(&lt, &uids[0], "2", "0", &today()).await;
    assert!(st.is_success(), "{v}");
    w.log(&lt, &uids[2], "1", "0", &today()).await;
    w.ok(Method::POST, &format!("/api/case/status/{}/", uids[0]), &lt, Some(json!({"action": "complete"}))).await;
    // An unknown sector is refused with the field named.
    let (st, v) = w.call(Method::POST, "/api/case/create/", &admin, Some(open(Some(9_999)))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(v.to_string().contains("knowledge_sector"), "{v}");
    // The lawyer files the second case under labour law.
    w.ok(Method::PUT, &format!("/api/case/update/{}/", uids[1]), &lt, Some(open(Some(labour)))).await;
    w.assert_recount_equal().await;

    let legal = w.ok(Method::GET, "/api/statistic/legal/?period=this_month", &admin, None).await;
    let t = &legal["table"];
    let cols: Vec<&str> = t["columns"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    assert_eq!(&cols[..2], ["case_type", "knowledge_sector"]);
    let at = |name: &str| cols.iter().position(|c| *c == name).unwrap();
    let row =
        |sector: &str| t["rows"].as_array().unwrap().iter().find(|r| r[1] == sector).cloned().unwrap_or_else(|| panic!("{sector}: {t}"));
    let tl = row("Tenancy law");
    // Two accepted while filed under tenancy law (the flow stays where it
    // happened); one still filed there.
    assert_eq!((tl[0].as_str(), tl[at("cases.opened")].as_i64(), tl[at("cases.accepted")].as_i64()), (Some("Tenancy"), Some(1), Some(2)));
    assert_eq!((tl[at("cases.closed")].as_i64(), tl[at("hours.total")].as_i64()), (Some(1), Some(200)));
    let ll = row("Labour law");
    assert_eq!((ll[at("cases.opened")].as_i64(), ll[at("hours.total")].as_i64()), (Some(1), Some(0)));
    assert_eq!(ll[at("cases.accepted")].as_i64(), Some(0));
    let none = row("");
    assert_eq!((none[at("cases.opened")].as_i64(), none[at("hours.total")].as_i64()), (Some(1), Some(100)));
    assert_eq!(t["rows"].as_array().unwrap().len(), 3);
    let opened: i64 = t["rows"].as_array().unwrap().iter().map(|r| r[at("cases.opened")].as_i64().unwrap()).sum();
    assert_eq!(opened, 3);
    // A lawyer's own legal page: their flows and hours by pair, nobody else's.
    let (_, other) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let mine = w.ok(Method::GET, "/api/statistic/legal/?period=this_month", &lt, None).await;
    let rows = mine["table"]["rows"].as_array().unwrap();
    let hours: Vec<(String, i64)> =
        rows.iter().map(|r| (r[1].as_str().unwrap().to_string(), r[at("hours.total")].as_i64().unwrap())).collect();
    assert_eq!(hours, vec![("Tenancy law".to_string(), 200), (String::new(), 100)]);
    let theirs = w.ok(Method::GET, "/api/statistic/legal/?period=this_month", &other, None).await;
    assert!(theirs["table"]["rows"].as_array().unwrap().is_empty());
}

/// The sales dashboard's figures: (customers, draft cases, expiring, sold this month).
fn sales_figures(d: &Value) -> (i64, i64, i64, i64) {
    assert_eq!(d["role"], "sales", "{d}");
    let n = |k: &str| d[k].as_i64().unwrap();
    (n("customers"), n("draft_cases"), n("expiring_subscriptions"), n("packages_sold_month"))
}

#[tokio::test]
async fn a_sales_persons_dashboard_follows_a_customer_moved_to_another_and_reads_a_fixed_number_of_items() {
    let w = world().await;
    let (_, admin) = testkit::signed_in(&w.state, Role::Admin).await;
    let (s1, st1) = testkit::signed_in(&w.state, Role::SalesPerson).await;
    let (s2, st2) = testkit::signed_in(&w.state, Role::SalesPerson).await;
    let (_, lt) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let dash = |t: String| {
        let w = &w;
        async move { w.ok(Method::GET, "/api/dashboard/", &t, None).await }
    };
    // c1 and c2 managed by s1: three drafts, two subscriptions due within 30 days.
    let c1 = w.managed_customer(&admin, Some(&s1.uid)).await;
    let c2 = w.managed_customer(&admin, Some(&s1.uid)).await;
    let k1 = w.draft(&admin, &c1).await;
    w.draft(&admin, &c1).await;
    w.draft(&admin, &c2).await;
    w.sell(&c1).await;
    w.sell(&c2).await;
    assert_eq!(sales_figures(&dash(st1.clone()).await), (2, 3, 2, 2));
    assert_eq!(sales_figures(&dash(st2.clone()).await), (0, 0, 0, 0));

    // c1 moves to s2: its drafts and its running subscription go with it;
    // what s1 sold stays s1's.
    let (st, v) = w.set_manager(&admin, &c1, Some(&s2.uid)).await;
    assert!(st.is_success(), "{st} {v}");
    assert_eq!(sales_figures(&dash(st1.clone()).await), (1, 1, 1, 2));
    assert_eq!(sales_figures(&dash(st2.clone()).await), (1, 2, 1, 0));
    // Under s2: a draft published, a new sale (s2's).
    w.ok(Method::POST, &format!("/api/case/status/{k1}/"), &admin, Some(json!({"action": "publish"}))).await;
    w.ok(Method::POST, &format!("/api/case/status/{k1}/"), &lt, Some(json!({"action": "accept"}))).await;
    w.draft(&admin, &c1).await;
    let long = Grant::custom("Long", Hundredths::parse("10").unwrap(), 300);
    let now = whole_seconds(Utc::now().naive_utc()) - chrono::Duration::seconds(5);
    shared::services::subscriptions::grant(&w.state, &c1, &long, now).await.unwrap();
    assert_eq!(sales_figures(&dash(st2.clone()).await), (1, 2, 1, 1), "the new row is booked in advance: not due");
    // c2's manager cleared: s1 keeps only its sales.
    let (st, v) = w.set_manager(&admin, &c2, None).await;
    assert!(st.is_success(), "{st} {v}");
    assert_eq!(sales_figures(&dash(st1.clone()).await), (0, 0, 0, 2));
    w.assert_recount_equal().await;

    // A fixed number of items: 50 customers of someone else and 20 more
    // of s2's, each with a draft and a subscription, read no more items.
    let before = dash(st2.clone()).await;
    let (read_before, figures_before) = (before["items_read"].as_i64().unwrap(), sales_figures(&before));
    for i in 0..70 {
        let manager = if i < 50 { &s1.uid } else { &s2.uid };
        let c = w.managed_customer(&admin, Some(manager)).await;
        w.draft(&admin, &c).await;
        w.sell(&c).await;
    }
    let after = dash(st2.clone()).await;
    let (c, d, e, s) = figures_before;
    assert_eq!(sales_figures(&after), (c + 20, d + 20, e + 20, s + 20));
    assert_eq!(after["items_read"].as_i64().unwrap(), read_before, "{before} {after}");
    assert!(read_before <= 3 + 32, "the now item, the month item, at most 32 due days: {read_before}");
    w.assert_recount_equal().await;
}

#[tokio::test]
async fn sales_counters_equal_a_recount_after_random_case_subscription_and_manager_changes() {
    let w = world().await;
    let (_, admin) = testkit::signed_in(&w.state, Role::Admin).await;
    let (s1, _) = testkit::signed_in(&w.state, Role::SalesPerson).await;
    let (s2, _) = testkit::signed_in(&w.state, Role::SalesPerson).await;
    let managers = [Some(s1.uid.clone()), Some(s2.uid.clone()), None];
    let mut customers = Vec::new();
    for m in &managers {
        customers.push(w.managed_customer(&admin, m.as_deref()).await);
    }
    let mut drafts: Vec<String> = Vec::new();
    let mut rng = rand::rng();
    for step in 0..24 {
        let c = customers[rng.random_range(0..customers.len())].clone();
        // Now and then the first try meets a concurrent writer and decides again.
        if rng.random_range(0..4) == 0 {
            w.state.faults.arm("events.conflict");
        }
        match rng.random_range(0..5) {
            0 => drafts.push(w.draft(&admin, &c).await),
            1 => {
                // A conflict is decided again inside the purchase; a third
                // row of the service is refused by the purchase rule.
                let now = whole_seconds(Utc::now().naive_utc()) - chrono::Duration::seconds(5);
                let g = Grant::custom("Hours", Hundredths::parse("10").unwrap(), rng.random_range(5..60));
                let _ = shared::services::subscriptions::grant(&w.state, &c, &g, now).await;
            }
            2 if !drafts.is_empty() => {
                let k = drafts.remove(rng.random_range(0..drafts.len()));
                w.ok(Method::POST, &format!("/api/case/status/{k}/"), &admin, Some(json!({"action": "publish"}))).await;
            }
            3 if !drafts.is_empty() => {
                // A manager change and a case change of the same customer at
                // once: each commits on what it read, or fails and decides again.
                let k = drafts.remove(rng.random_range(0..drafts.len()));
                let owner = w.state.store.get_case(&k).await.unwrap().unwrap().case.customer;
                let m = managers[step % 3].clone();
                let publish = json!({"action": "publish"});
                let path = format!("/api/case/status/{k}/");
                let (a, b) = tokio::join!(w.set_manager(&admin, &owner, m.as_deref()), w.call(Method::POST, &path, &admin, Some(publish)));
                assert!(a.0.is_success(), "{a:?}");
                assert!(b.0.is_success(), "{b:?}");
            }
            _ => {
                let m = managers[rng.random_range(0..managers.len())].clone();
                let (st, v) = w.set_manager(&admin, &c, m.as_deref()).await;
                assert!(st.is_success(), "{st} {v}");
            }
        }
    }
    w.assert_recount_equal().await;
    // And the dashboards say what the raw items say.
    for s in [&s1, &s2] {
        let mine: Vec<&String> = {
            let mut out = Vec::new();
            for c in &customers {
                let p = w.state.store.get_customer_profile(c).await.unwrap().unwrap();
                if p.account_manager_uid.as_deref() == Some(s.uid.as_str()) {
                    out.push(c);
                }
            }
            out
        };
        let d = shared::services::statistics::dashboard(&w.state, s).await.unwrap();
        let shared::services::statistics::Dashboard::Sales { customers: n, draft_cases, .. } = d else { panic!("not a sales dashboard") };
        assert_eq!(n, mine.len() as i64);
        let mut want = 0;
        for k in &drafts {
            let case = w.state.store.get_case(k).await.unwrap().unwrap().case;
            if mine.contains(&&case.customer) {
                want += 1;
            }
        }
        assert_eq!(draft_cases, want);
    }
}

#[tokio::test]
async fn a_stale_account_manager_or_stale_moved_figures_never_commit() {
    use shared::services::events::{self, Event};
    let w = world().await;
    let (a, admin) = testkit::signed_in(&w.state, Role::Admin).await;
    let (s1, _) = testkit::signed_in(&w.state, Role::SalesPerson).await;
    let (s2, _) = testkit::signed_in(&w.state, Role::SalesPerson).await;
    let c = w.managed_customer(&admin, Some(&s1.uid)).await;
    let k = w.draft(&admin, &c).await;
    // A case change counted for s1 while the customer moves to s2: its
    // transaction fails (the use case reads the manager again).
    let before = w.state.store.get_case(&k).await.unwrap().unwrap().case;
    let mut after = before.clone();
    after.status = shared::domain::case::CaseStatus::Waiting;
    let mut tx = w.state.store.tx();
    let queued = events::record(&w.state, &mut tx, &[Event::CaseStatusChanged { before: &before, after: &after, by: &a }]).await.unwrap();
    let (st, v) = w.set_manager(&admin, &c, Some(&s2.uid)).await;
    assert!(st.is_success(), "{st} {v}");
    assert!(!events::commit(&w.state, tx, queued).await.unwrap(), "counted for a manager the customer no longer has");
    // A move of the customer's figures read before a new draft: fails too.
    let mut profile = w.state.store.get_customer_profile(&c).await.unwrap().unwrap();
    profile.account_manager_uid = Some(s1.uid.clone());
    let mut tx = w.state.store.tx();
    w.state.store.add_profile_put(&mut tx, &profile).unwrap();
    let queued = events::record(&w.state, &mut tx, &[Event::CustomerSaved { profile: &profile }]).await.unwrap();
    w.draft(&admin, &c).await;
    assert!(!events::commit(&w.state, tx, queued).await.unwrap(), "moved figures that changed meanwhile");
    // A move read before one of the customer's active rows was rewritten: fails too.
    w.sell(&c).await;
    let row = w.state.store.purchases_of(&c).await.unwrap().remove(0).row;
    let mut tx = w.state.store.tx();
    w.state.store.add_profile_put(&mut tx, &profile).unwrap();
    let queued = events::record(&w.state, &mut tx, &[Event::CustomerSaved { profile: &profile }]).await.unwrap();
    let later = (Utc::now() + chrono::Duration::days(400)).format("%Y-%m-%d").to_string();
    shared::services::subscriptions::set_auto_update(&w.state, &a, &row.id.to_string(), Some(&later)).await.unwrap();
    assert!(!events::commit(&w.state, tx, queued).await.unwrap(), "a row rewritten meanwhile");
    w.assert_recount_equal().await;
    let d = shared::services::statistics::dashboard(&w.state, &s2).await.unwrap();
    let shared::services::statistics::Dashboard::Sales { draft_cases, customers, .. } = d else { panic!("not a sales dashboard") };
    assert_eq!((customers, draft_cases), (1, 2));
}

#[tokio::test]
async fn a_renewal_is_a_sale_of_the_manager_the_customer_has_then() {
    let w = world().await;
    let (a, admin) = testkit::signed_in(&w.state, Role::Admin).await;
    let (s1, _) = testkit::signed_in(&w.state, Role::SalesPerson).await;
    let (s2, _) = testkit::signed_in(&w.state, Role::SalesPerson).await;
    let c = w.managed_customer(&admin, Some(&s1.uid)).await;
    w.sell(&c).await;
    let row = w.state.store.purchases_of(&c).await.unwrap().remove(0).row;
    assert_eq!(row.sold_by.as_deref(), Some(s1.uid.as_str()));
    let until = (Utc::now() + chrono::Duration::days(400)).format("%Y-%m-%d").to_string();
    shared::services::subscriptions::set_auto_update(&w.state, &a, &row.id.to_string(), Some(&until)).await.unwrap();
    let (st, v) = w.set_manager(&admin, &c, Some(&s2.uid)).await;
    assert!(st.is_success(), "{st} {v}");
    let report = shared::services::subscriptions::expire_due(&w.state, Utc::now() + chrono::Duration::days(31)).await.unwrap();
    assert_eq!(report.renewed, 1);
    let rows: Vec<_> = w.state.store.purchases_of(&c).await.unwrap().into_iter().map(|r| r.row).collect();
    let child = rows.iter().find(|r| r.id != row.id).expect("the renewal");
    assert_eq!(child.sold_by.as_deref(), Some(s2.uid.as_str()), "renewed under s2");
    assert_eq!(rows.iter().find(|r| r.id == row.id).unwrap().sold_by.as_deref(), Some(s1.uid.as_str()), "the first sale stays s1's");
    w.assert_recount_equal().await;
}

/// Adds `v` to `metric` of `scope` on `day`, as an event's transaction does.
async fn add_on_day(store: &shared::store::Store, scope: stats::Scope, day: chrono::NaiveDate, metric: &str, v: i64, seed: u64) {
    let mut deltas = stats::Deltas::default();
    deltas.add(scope, stats::When::Day(day), metric, v);
    let mut tx = store.tx();
    store.add_counters(&mut tx, &shared::store::stats::counter_writes(&deltas, stats::fnv(&format!("event-{seed}")))).unwrap();
    assert!(store.commit(tx).await.unwrap());
}

/// A period's figures are the same whether its items are read by key (a
/// dashboard's month, week or next 31 days) or by Query (long periods), on
/// every shard of `all`, by day and summed per month.
#[tokio::test]
async fn a_series_read_by_key_equals_the_one_read_by_query() {
    use chrono::{Duration, NaiveDate};
    use shared::domain::statistics::{Period, Scope};
    use std::collections::BTreeMap;
    let state = testkit::services().await;
    let store = &state.store;
    let mut rng = rand::rng();
    let start = NaiveDate::from_ymd_opt(2025, 1, 1).unwrap();
    let mut by_day: BTreeMap<NaiveDate, i64> = BTreeMap::new();
    for seed in 0..80u64 {
        // Clustered in late March and early April (short periods cross a month), the rest over the year.
        let offset = if seed % 2 == 0 { rng.random_range(80..95) } else { rng.random_range(0..365) };
        let d = start + Duration::days(offset);
        let v = rng.random_range(1..500);
        *by_day.entry(d).or_default() += v;
        add_on_day(store, Scope::All, d, "hours.total", v, seed).await;
    }
    let expect = |from: NaiveDate, to: NaiveDate| by_day.range(from..=to).map(|(_, v)| v).sum::<i64>();
    let d = |m: u32, day: u32| NaiveDate::from_ymd_opt(2025, m, day).unwrap();
    // By key: a week, a month, 31 days across a month's end, a month's days across its end.
    // By Query: the whole year, by day and by month.
    let periods = [(d(3, 24), d(3, 30)), (d(3, 1), d(3, 31)), (d(3, 20), d(4, 19)), (d(3, 25), d(4, 3)), (d(1, 1), d(12, 31))];
    for (from, to) in periods {
        let p = Period { from, to };
        for days in [true, false] {
            let r = store.stats_series(&Scope::All, &p, days).await.unwrap();
            let total: i64 = r.value.values().map(|c| c.get("hours.total").copied().unwrap_or(0)).sum();
            assert_eq!(total, expect(from, to), "{from}–{to}, by day {days}");
            if days {
                for (label, c) in &r.value {
                    let day = NaiveDate::parse_from_str(label, "%Y-%m-%d").unwrap();
                    assert_eq!(c.get("hours.total").copied().unwrap_or(0), expect(day, day), "{label}");
                }
            } else {
                for (label, c) in &r.value {
                    let first = NaiveDate::parse_from_str(&format!("{label}-01"), "%Y-%m-%d").unwrap();
                    let last = calendar::last_of_month(first);
                    assert_eq!(c.get("hours.total").copied().unwrap_or(0), expect(first.max(from), last.min(to)), "{label}");
                }
            }
        }
    }
}

/// The per-customer breakdown's 64 buckets read together (by key for a
/// year's months, by Query for a year's days) give each customer's figures.
#[tokio::test]
async fn the_breakdown_buckets_read_together_give_every_customers_figures() {
    use chrono::{Duration, NaiveDate};
    use shared::domain::statistics::{Period, Scope};
    use std::collections::BTreeMap;
    let state = testkit::services().await;
    let store = &state.store;
    let mut rng = rand::rng();
    let start = NaiveDate::from_ymd_opt(2025, 1, 1).unwrap();
    let customers: Vec<String> = (0..40).map(|i| format!("customer-{i}-{}", rng.random_range(0..1_000_000))).collect();
    // customer → day → hours
    let mut written: BTreeMap<String, BTreeMap<NaiveDate, i64>> = BTreeMap::new();
    for seed in 0..120u64 {
        let uid = &customers[rng.random_range(0..customers.len())];
        let d = start + Duration::days(rng.random_range(0..365));
        let v = rng.random_range(1..500);
        *written.entry(uid.clone()).or_default().entry(d).or_default() += v;
        add_on_day(store, Scope::bucket_of(uid), d, &format!("hours.total@{uid}"), v, seed).await;
    }
    let buckets = Scope::buckets();
    let d = |m: u32, day: u32| NaiveDate::from_ymd_opt(2025, m, day).unwrap();
    for (from, to) in [(d(1, 1), d(12, 31)), (d(3, 15), d(9, 10)), (d(6, 1), d(6, 30))] {
        for days in [false, true] {
            let r = store.stats_series_sum(&buckets, &Period { from, to }, days).await.unwrap();
            let mut got: BTreeMap<String, i64> = BTreeMap::new();
            for c in r.value.values() {
                for (k, v) in c {
                    *got.entry(k.trim_start_matches("hours.total@").to_string()).or_default() += v;
                }
            }
            let want: BTreeMap<String, i64> = written
                .iter()
                .map(|(uid, by_day)| (uid.clone(), by_day.range(from..=to).map(|(_, v)| v).sum::<i64>()))
                .filter(|(_, v)| *v != 0)
                .collect();
            assert_eq!(got.into_iter().filter(|(_, v)| *v != 0).collect::<BTreeMap<_, _>>(), want, "{from}–{to}, by day {days}");
        }
    }
}

/// Counters written with 16 breakdown buckets (before) still give every
/// customer's figures, and `recount --fix` moves them to their 64 buckets.
#[tokio::test]
async fn the_breakdown_written_in_the_old_buckets_reads_right_and_the_recount_moves_it() {
    use shared::domain::statistics::Scope;
    use std::collections::BTreeMap;
    let w = world().await;
    let (_, admin) = testkit::signed_in(&w.state, Role::Admin).await;
    let (_, lt) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let (c, _) = w.customer().await;
    let k = w.case_in_progress(&admin, &c, &lt).await;
    w.log(&lt, &k, "2", "1", &today()).await;
    let row_of = |v: &Value| {
        let cols = v["table"]["columns"].as_array().unwrap().clone();
        let row = v["table"]["rows"].as_array().unwrap().iter().find(|r| r[0] != Value::Null).cloned().unwrap();
        cols.iter().map(|c| c.as_str().unwrap().to_string()).zip(row.as_array().unwrap().iter().cloned()).collect::<BTreeMap<_, _>>()
    };
    let before = row_of(&w.ok(Method::GET, "/api/statistic/user/", &admin, None).await);
    assert_eq!(before["hours.total"], 300, "{before:?}");
    assert_eq!(before["cases.opened"], 1, "{before:?}");

    // The customer's breakdown items as the 16-bucket build wrote them.
    let Scope::Bucket(new) = Scope::bucket_of(&c.uid) else { unreachable!() };
    let old = match (stats::fnv(&c.uid) % 16) as u8 {
        b if b == new => (new + 1) % stats::CUSTOMER_BUCKETS,
        b => b,
    };
    let (from, to) = (format!("STATS#bucket#{new}#"), format!("STATS#bucket#{old}#"));
    let items = w.state.store.scan_counter_items().await.unwrap();
    let mut moved = 0;
    for ((pk, sk), counts) in items.iter().filter(|((pk, _), _)| pk.starts_with(&from)) {
        w.state.store.put_counter_item(&pk.replacen(&from, &to, 1), sk, counts).await.unwrap();
        w.state.store.put_counter_item(pk, sk, &Default::default()).await.unwrap();
        moved += 1;
    }
    assert!(moved >= 2, "the day and month items");
    assert_eq!(row_of(&w.ok(Method::GET, "/api/statistic/user/", &admin, None).await), before, "right wherever the metrics lie");

    let report = recount::recount(&w.state, true).await.unwrap();
    assert!(report.differences.iter().any(|d| d.item.starts_with(&to)), "{:?}", report.differences);
    w.assert_recount_equal().await;
    assert_eq!(row_of(&w.ok(Method::GET, "/api/statistic/user/", &admin, None).await), before, "and after the move");
    let items = w.state.store.scan_counter_items().await.unwrap();
    let holds = |prefix: &str| {
        items
            .iter()
            .filter(|((pk, _), _)| pk.starts_with(prefix))
            .any(|(_, counts)| counts.get(&format!("hours.total@{}", c.uid)).copied().unwrap_or(0) != 0)
    };
    assert!(holds(&from), "the hours are in the customer's bucket again");
    assert!(!holds(&to), "and no longer in the old one");
}

/// The admin dashboard reads every counter item of the page at once and the
/// top lawyers' names together: each of the five is named (none shown by
/// uid), the figures equal the separate reads, and `items_read` counts
/// each item read once (the week and the next 31 days share days).
#[tokio::test]
async fn the_admin_dashboard_names_every_top_lawyer_and_counts_each_item_read_once() {
    use shared::domain::statistics::{Period, Scope};
    use shared::store::keys::stats as k;
    use shared::store::stats::Ask;
    use std::collections::BTreeSet;
    let w = world().await;
    let (_, admin) = testkit::signed_in(&w.state, Role::Admin).await;
    let mut lawyers = Vec::new();
    for i in 0..6u32 {
        let (mut l, lt) = testkit::signed_in(&w.state, Role::Lawyer).await;
        (l.first_name, l.last_name) = (format!("Lawyer{i}"), format!("Number{i}"));
        w.state.store.put_user(&l).await.unwrap();
        // On the lawyers' lists as admin makes them, but the one with the
        // most hours: an account no longer listed is named by its user.
        if i < 5 {
            assert!(shared::services::staff::seed_profile(&w.state, &l, None).await.unwrap());
        }
        let (c, _) = w.customer().await;
        let case = w.case_in_progress(&admin, &c, &lt).await;
        let (st, v) = w.log(&lt, &case, &format!("{}", i + 1), "0", &today()).await;
        assert!(st.is_success(), "{v}");
        lawyers.push((l, (i as i64 + 1) * 100));
    }
    let d = w.ok(Method::GET, "/api/dashboard/", &admin, None).await;
    assert_eq!(d["role"], "admin");
    // The five with the most hours this month, each by name.
    let mut want: Vec<(String, String, i64)> = lawyers.iter().map(|(l, h)| (l.uid.clone(), l.full_name(), *h)).collect();
    want.sort_by_key(|(uid, _, h)| (-*h, uid.clone()));
    want.truncate(5);
    let got: Vec<(String, String, i64)> = d["top_lawyers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["uid"].as_str().unwrap().to_string(), r["name"].as_str().unwrap().to_string(), r["value"].as_i64().unwrap()))
        .collect();
    assert_eq!(got, want);
    assert_eq!(d["hours_month"]["total"], 2100);
    assert_eq!(d["hours_week"]["total"], 2100, "logged today: in this week and this month");
    assert_eq!(d["expiring_subscriptions"], 6, "each customer's 30-day grant ends within 30 days");

    // The same figures as the separate reads, a long period (by Query) among them.
    let today = shared::services::statistics::today();
    let store = &w.state.store;
    let month = Period { from: calendar::first_of_month(today), to: calendar::last_of_month(today) };
    let week = Period { from: calendar::week_start(today), to: calendar::week_start(today) + chrono::Duration::days(6) };
    let due = Period { from: today, to: today + chrono::Duration::days(30) };
    let year = Period { from: today - chrono::Duration::days(400), to: today };
    let all = Scope::All;
    let asks = [Ask::Now(&all), Ask::Total(&all, &month), Ask::Total(&all, &week), Ask::Total(&all, &due), Ask::Total(&all, &year)];
    let many = store.stats_many(&asks, None).await.unwrap();
    let total = |p: &Period| {
        let p = *p;
        async move {
            let r = store.stats_series(&Scope::All, &p, false).await.unwrap();
            let mut sum = shared::store::stats::Counts::new();
            r.value.values().for_each(|c| stats::sum_into(&mut sum, c));
            sum
        }
    };
    assert_eq!(many.value[0], store.stats_now(&all).await.unwrap().value);
    for (i, p) in [(1, &month), (2, &week), (3, &due), (4, &year)] {
        assert_eq!(many.value[i], total(p).await, "ask {i}");
    }
    // Read for some metrics only: the same figures of those, no others.
    let only = ["hours.total", "subs.due", "cases.status.inprogress"];
    let some = store.stats_many(&asks, Some(&only)).await.unwrap();
    assert_eq!(some.items, many.items);
    for (part, whole) in some.value.iter().zip(&many.value) {
        let mut want = whole.clone();
        want.retain(|m, _| only.contains(&m.as_str()));
        assert_eq!(part, &want);
    }
    assert!(some.value[1]["hours.total"] > 0 && some.value[3]["subs.due"] > 0, "{:?}", some.value);

    // items_read: the counter items of the page's two reads that exist (the
    // first reads each of its items once; the month's items are a read of
    // their own), the pending customers' count, the five listed lawyers'
    // names and the unlisted one's user.
    let existing: BTreeSet<(String, String)> = store.scan_counter_items().await.unwrap().into_keys().collect();
    let month_items: BTreeSet<(String, String)> =
        (0..stats::ALL_SHARDS).map(|sh| (k::month_pk("all", sh, today.year()), k::month_sk(today))).collect();
    let found = admin_dashboard_items(today).intersection(&existing).count() + month_items.intersection(&existing).count();
    assert_eq!(d["items_read"].as_u64().unwrap(), found as u64 + 1 + 5 + 1, "{d}");
}

/// The counter items the admin dashboard's first read asks for, each once, on
/// every shard: the now items, and the week's and the next 30 days' items as
/// they are stored (`Period::pieces`: a whole month as its month item, any
/// other day as its day item; the next 30 days hold a whole month from the
/// first of each month, and February from the last days of January). Its
/// second read is this month's month items. Reckoned from days alone, the
/// tests expecting them failed on those days (Stockholm's date).
fn admin_dashboard_items(today: chrono::NaiveDate) -> std::collections::BTreeSet<(String, String)> {
    use shared::domain::statistics::{Period, Piece};
    use shared::store::keys::stats as k;
    let week = Period { from: calendar::week_start(today), to: calendar::week_start(today) + chrono::Duration::days(6) };
    let due = Period { from: today, to: today + chrono::Duration::days(30) };
    let mut items = std::collections::BTreeSet::new();
    for sh in 0..stats::ALL_SHARDS {
        items.insert((k::now_pk("all", sh), k::NOW_SK.to_string()));
        for piece in week.pieces().into_iter().chain(due.pieces()) {
            match piece {
                Piece::Month(m) => {
                    items.insert((k::month_pk("all", sh, m.year()), k::month_sk(m)));
                }
                Piece::Days(from, to) => {
                    for day in from.iter_days().take_while(|d| *d <= to) {
                        items.insert((k::day_pk("all", sh, day), k::day_sk(day)));
                    }
                }
            }
        }
    }
    items
}

/// The admin dashboard's calls: authentication, the counter items without
/// the month (one BatchGetItem per 100 keys: the now items and the week's and
/// the next 30 days' items, on every shard: `admin_dashboard_items`), the
/// month items, the pending customers' count and the lawyers' two lists
/// (their names, read beside the counters that rank them). No GetItem one by
/// one.
#[tokio::test]
async fn the_admin_dashboard_makes_a_fixed_few_calls() {
    let (state, calls) = testkit::services_counting_calls().await;
    let w = World {
        stats: finish(statistics::api(), state.clone()),
        cases: finish(cases::api(), state.clone()),
        customers: finish(customers::api(), state.clone()),
        case_type: state.store.create_named(NamedKind::CaseType, "Tenancy", "").await.unwrap().id,
        state,
    };
    let (_, admin) = testkit::signed_in(&w.state, Role::Admin).await;
    for _ in 0..2 {
        let (l, lt) = testkit::signed_in(&w.state, Role::Lawyer).await;
        assert!(shared::services::staff::seed_profile(&w.state, &l, None).await.unwrap());
        let (c, _) = w.customer().await;
        let case = w.case_in_progress(&admin, &c, &lt).await;
        assert!(w.log(&lt, &case, "1", "0", &today()).await.0.is_success());
    }
    calls.take();
    let d = w.ok(Method::GET, "/api/dashboard/", &admin, None).await;
    assert_eq!(d["top_lawyers"].as_array().unwrap().len(), 2, "{d}");
    let point_reads = admin_dashboard_items(shared::services::statistics::today()).len().div_ceil(100);
    let mut made = calls.take();
    made.sort();
    let mut want = vec!["BatchGetItem"; 1 + point_reads + 1];
    want.extend(["Query"; 3]);
    assert_eq!(made, want);
}

/// The figures each role reads reconcile with the raw records of a world
/// made at known times last month: three cases (one accepted after 5 hours
/// and closed 3 days after it was published, one whose draft sat 2 days
/// before it was published and was accepted 3 hours later, one still a
/// draft), hours on two of them, a custom package at its own price and a
/// credit-information plan.
#[tokio::test]
async fn every_figure_reconciles_with_the_raw_records_of_a_world_made_at_known_times() {
    use shared::domain::case::{CaseForm, CreateVia, Transition};
    use shared::services::cases;
    let w = world().await;
    let subs = finish(subscriptions::api(), w.state.clone());
    let (admin_user, admin) = testkit::signed_in(&w.state, Role::Admin).await;
    let (lawyer, lt) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let (c, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let last_month = calendar::first_of_month(calendar::first_of_month(calendar::stockholm_date(Utc::now())) - chrono::Duration::days(1));
    let at = |day: u32, hour: i64| calendar::stockholm_day_start(last_month.with_day(day).unwrap()) + chrono::Duration::hours(hour);
    // Purchases: a custom package of 20 hours at 12 500 SEK, a plan of 5
    // credit reports at 500 SEK.
    let custom = Grant::custom("Timbank", Hundredths::parse("20").unwrap(), 365).priced(Hundredths(1_250_000));
    shared::services::subscriptions::grant(&w.state, &c.uid, &custom, at(2, 8).naive_utc()).await.unwrap();
    let plan = Grant {
        service_id: shared::domain::catalogue::BISNODE,
        package: None,
        service_plan: None,
        limit: Some(5),
        hour: Hundredths::ZERO,
        days: 365,
        price: Some(Hundredths(50_000)),
    };
    shared::services::subscriptions::grant(&w.state, &c.uid, &plan, at(2, 9).naive_utc()).await.unwrap();
    let form = || -> CaseForm {
        serde_json::from_value(json!({"subject": "Lease", "description": "Rent", "type": w.case_type, "estimated_hours": "2"})).unwrap()
    };
    let open = |day: u32| {
        let (state, form, admin_user, customer) = (w.state.clone(), form(), admin_user.clone(), c.uid.clone());
        async move {
            cases::open(&state, &admin_user, CreateVia::Staff, &customer, form, at(day, 9), &shared::store::idempotency::Once::none())
                .await
                .unwrap()
                .uid
        }
    };
    let act = |user: User, uid: String, t: Transition, when: chrono::DateTime<Utc>| {
        let state = w.state.clone();
        async move { cases::change_status_at(&state, &user, &uid, t, when).await.unwrap() }
    };
    let a = open(3).await;
    act(admin_user.clone(), a.clone(), Transition::Publish, at(3, 11)).await;
    act(lawyer.clone(), a.clone(), Transition::Accept, at(3, 16)).await;
    let b = open(4).await;
    act(admin_user.clone(), b.clone(), Transition::Publish, at(6, 9)).await;
    act(lawyer.clone(), b.clone(), Transition::Accept, at(6, 12)).await;
    let draft = open(5).await;
    let day = |d: u32| last_month.with_day(d).unwrap().to_string();
    for (case, hours, nb, d) in [(&a, "2", "1", day(3)), (&b, "1.5", "0", day(7))] {
        let (st, v) = w.log(&lt, case, hours, nb, &d).await;
        assert!(st.is_success(), "{v}");
    }
    act(lawyer.clone(), a.clone(), Transition::Complete, at(6, 11)).await;
    w.assert_recount_equal().await;

    // The raw records: each status change at its moment, in the history too.
    let stored = w.state.store.get_case(&a).await.unwrap().unwrap().case;
    assert_eq!((stored.published_at, stored.status_at), (Some(at(3, 11)), Some(at(6, 11))));
    let history = w.ok(Method::GET, &format!("/api/case/history/{a}/"), &admin, None).await;
    let moments: Vec<&str> =
        history.as_array().unwrap().iter().filter(|h| h["field"] == "status").map(|h| h["at"].as_str().unwrap()).collect();
    assert_eq!(moments.len(), 3, "{history}");
    let mut raw_hours = 0;
    for case in [&a, &b] {
        for h in w.state.store.case_hours(case).await.unwrap() {
            raw_hours += h.hour.0 + h.non_billable_hour.0 + h.rattsskydd_hour.0;
        }
    }
    assert_eq!(raw_hours, 450);

    let q = "?period=last_month";
    let table = |v: &Value| -> (Vec<String>, Vec<Vec<Value>>) {
        let t = &v["table"];
        let cols = t["columns"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect();
        (cols, t["rows"].as_array().unwrap().iter().map(|r| r.as_array().unwrap().clone()).collect())
    };
    let col_sum = |v: &Value, name: &str| -> f64 {
        let (cols, rows) = table(v);
        let i = cols.iter().position(|c| c == name).unwrap_or_else(|| panic!("{name}: {cols:?}"));
        rows.iter().map(|r| r[i].as_f64().unwrap()).sum()
    };
    // Legal (admin): 3 opened, 2 accepted after 5 h and 3 h (4 h on
    // average), 1 closed 3 days after it was published, 4.5 hours.
    let legal = w.ok(Method::GET, &format!("/api/statistic/legal/{q}"), &admin, None).await;
    let expect =
        [("cases.opened", 3.0), ("cases.accepted", 2.0), ("avg_accept_hours", 4.0), ("cases.closed", 1.0), ("avg_close_days", 3.0)];
    for (name, want) in expect.iter().chain([("hours.total", 450.0)].iter()) {
        assert_eq!(col_sum(&legal, name), *want, "admin {name}: {legal}");
    }
    // The lawyer's own: the cases he took on are his opened ones.
    let mine = w.ok(Method::GET, &format!("/api/statistic/legal/{q}"), &lt, None).await;
    let expect_lawyer = [
        ("cases.opened", 2.0),
        ("cases.accepted", 2.0),
        ("avg_accept_hours", 4.0),
        ("cases.closed", 1.0),
        ("avg_close_days", 3.0),
        ("hours.total", 450.0),
    ];
    for (name, want) in expect_lawyer {
        assert_eq!(col_sum(&mine, name), want, "lawyer {name}: {mine}");
    }
    // Activity (admin and the customer alike).
    for token in [&admin, &ct] {
        let act = w.ok(Method::GET, &format!("/api/statistic/activity/{q}"), token, None).await;
        for (name, want) in [("cases.opened", 3.0), ("cases.accepted", 2.0), ("cases.closed", 1.0), ("hours.total", 450.0)] {
            assert_eq!(col_sum(&act, name), want, "activity {name}: {act}");
        }
    }
    // Finance: the custom package counts at its own price.
    let fin = w.ok(Method::GET, &format!("/api/statistic/finance/{q}"), &admin, None).await;
    assert_eq!(col_sum(&fin, "revenue.subs"), 1_300_000.0, "{fin}");
    assert_eq!(col_sum(&fin, "hours.billable"), 350.0, "{fin}");
    // The customer statistics: the customer's row holds the same.
    let cust = w.ok(Method::GET, &format!("/api/statistic/user/{q}"), &admin, None).await;
    for (name, want) in
        [("cases.opened", 3.0), ("cases.closed", 1.0), ("hours.total", 450.0), ("subs.bought", 2.0), ("revenue.subs", 1_300_000.0)]
    {
        assert_eq!(col_sum(&cust, name), want, "customer statistics {name}: {cust}");
    }
    // The hour pie of the customer.
    let pie = w.ok(Method::GET, &format!("/api/pie-chart/hour/{q}"), &ct, None).await;
    let slice = |k: &str| pie["pie"].as_array().unwrap().iter().find(|s| s["key"] == k).unwrap()["value"].as_i64().unwrap();
    assert_eq!((slice("hours.billable"), slice("hours.nonbillable")), (350, 100));

    // The customer's dashboard: hours left on the hour row only (the credit
    // reports are not hours), as the stored row says; the open cases are
    // the published ones not closed, as the "Active" list shows.
    let dash = w.ok(Method::GET, "/api/dashboard/", &ct, None).await;
    let rows = w.state.store.list_purchases(&c.uid).await.unwrap();
    let hour_row = rows.iter().find(|r| r.service.id == 1).unwrap();
    let gauges = dash["subscriptions"].as_array().unwrap();
    assert_eq!(gauges.len(), 1, "{dash}");
    assert_eq!((gauges[0]["limit"].as_i64(), gauges[0]["used"].as_i64()), (Some(hour_row.hour.0), Some(hour_row.consumed_hour.0)));
    assert_eq!(hour_row.price, Some(Hundredths(1_250_000)));
    assert_eq!((dash["open_cases"].as_i64(), dash["cases"]["draft"].as_i64()), (Some(1), Some(1)), "{dash}");
    let active = w.ok(Method::GET, "/api/case/list/?status=my", &ct, None).await;
    let listed: Vec<&str> = active["results"].as_array().unwrap().iter().map(|x| x["uid"].as_str().unwrap()).collect();
    assert_eq!(listed, vec![b.as_str()]);
    let drafts = w.ok(Method::GET, "/api/case/list/?status=draft", &ct, None).await;
    assert_eq!(drafts["results"][0]["uid"].as_str(), Some(draft.as_str()));
    // This month holds none of it.
    let now_legal = w.ok(Method::GET, "/api/statistic/legal/?period=this_month", &lt, None).await;
    assert!(table(&now_legal).1.is_empty(), "{now_legal}");

    // A custom package staff add now keeps the price typed in the form.
    let body = json!({"customer_uid": c.uid, "custom": true, "name": "Extra", "hours": "10", "price": "24900.50", "duration_days": 30});
    let (st, v) = testkit::call(&subs, Method::POST, "/api/customer/purchase-services/", Some(&admin), Some(body)).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let fin = w.ok(Method::GET, "/api/statistic/finance/?period=this_month", &admin, None).await;
    assert_eq!(col_sum(&fin, "revenue.subs"), 2_490_050.0, "{fin}");
    w.assert_recount_equal().await;
}

#[tokio::test]
async fn a_contact_reads_company_figures_only_with_view_all_cases_and_hours_left_only_with_view_time_bank() {
    use shared::domain::Permission;
    let w = world().await;
    let (_, admin) = testkit::signed_in(&w.state, Role::Admin).await;
    let (_, lt) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let (c, _) = w.customer().await;
    let company = w.case_in_progress(&admin, &c, &lt).await;
    let (_, own) = testkit::signed_in_contact(&w.state, &c, vec![Permission::AddCase]).await;
    let (_, all) =
        testkit::signed_in_contact(&w.state, &c, vec![Permission::AddCase, Permission::ViewAllCases, Permission::ViewTimeBank]).await;
    let body = json!({"subject": "Own matter", "description": "Mine", "type": w.case_type, "estimated_hours": "1"});
    let mine = w.ok(Method::POST, "/api/case/create/by/customer/", &own, Some(body)).await["uid"].as_str().unwrap().to_string();

    // Its own case (a draft) and no hours left; the company's case is not counted.
    let d = w.ok(Method::GET, "/api/dashboard/", &own, None).await;
    assert_eq!(
        (d["cases"]["draft"].as_i64(), d["cases"]["inprogress"].as_i64(), d["open_cases"].as_i64()),
        (Some(1), Some(0), Some(0)),
        "{d}"
    );
    let recent: Vec<&str> = d["recent"].as_array().unwrap().iter().map(|r| r["uid"].as_str().unwrap()).collect();
    assert_eq!(recent, vec![mine.as_str()]);
    assert_eq!(d["subscriptions"], json!([]), "{d}");
    assert!(d["expiring"].as_array().unwrap().iter().all(|g| g["hour_based"] == false), "{d}");
    // With both permissions: the company's figures and its hours left.
    let d = w.ok(Method::GET, "/api/dashboard/", &all, None).await;
    assert_eq!((d["cases"]["draft"].as_i64(), d["cases"]["inprogress"].as_i64()), (Some(1), Some(1)), "{d}");
    assert_eq!(d["subscriptions"].as_array().unwrap().len(), 1, "{d}");
    assert_eq!(d["subscriptions"][0]["limit"], 10000);

    // The company's figures (counted over every case) are refused; its own cases are listed.
    for path in ["/api/statistic/activity/", "/api/chart/", "/api/pie-chart/hour/", "/api/statistic/activity/?format=csv"] {
        let (st, v) = w.call(Method::GET, path, &own, None).await;
        assert_eq!(st, StatusCode::FORBIDDEN, "{path}: {v}");
        let (st, v) = w.call(Method::GET, path, &all, None).await;
        assert!(st.is_success(), "{path}: {st} {v}");
    }
    let listed =
        |v: &Value| -> Vec<String> { v["results"].as_array().unwrap().iter().map(|r| r["uid"].as_str().unwrap().to_string()).collect() };
    assert_eq!(listed(&w.ok(Method::GET, "/api/statistic/activity/cases", &own, None).await), vec![mine.clone()]);
    let mut both = listed(&w.ok(Method::GET, "/api/statistic/activity/cases", &all, None).await);
    both.sort();
    let mut want = vec![mine, company];
    want.sort();
    assert_eq!(both, want);
}

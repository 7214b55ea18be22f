//! Cases against the local stand-in, each test on its own table: creation
//! rules, the lifecycle with its conditional writes, lists, history and
//! hours with exact subscription consumption.

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use shared::domain::catalogue::Hundredths;
use shared::domain::{Permission, Role, User};
use shared::testkit;

use crate::common;
use common::{world, World};

#[tokio::test]
async fn customer_needs_consultancy_service_and_contacts_need_add_case() {
    let w = world().await;
    let (cust, ct) = w.user(Role::Customer).await;
    let (st, v) = w.call(Method::POST, "/api/case/create/by/customer/", &ct, Some(w.form("x"))).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("consultancy_service_required")));
    w.hours(&cust, "10").await;

    // Spec §5 required fields.
    let (st, v) = w.call(Method::POST, "/api/case/create/by/customer/", &ct, Some(json!({}))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    for f in ["subject", "description", "type"] {
        assert!(v["errors"][f].is_array(), "{f}: {v}");
    }
    // The estimate is the firm's: the customer may leave it out, staff may not.
    assert!(v["errors"]["estimated_hours"].is_null(), "{v}");
    let mut no_estimate = w.form("No estimate");
    no_estimate.as_object_mut().unwrap().remove("estimated_hours");
    let (st, c0) = w.call(Method::POST, "/api/case/create/by/customer/", &ct, Some(no_estimate.clone())).await;
    assert_eq!((st, c0["estimated_hours"].clone()), (StatusCode::CREATED, json!(0.0)), "{c0}");
    let (_, admin) = w.user(Role::Admin).await;
    no_estimate["customer"] = json!(cust.uid);
    let (st, v) = w.call(Method::POST, "/api/case/create/", &admin, Some(no_estimate.clone())).await;
    assert_eq!((st, v["errors"]["estimated_hours"][0].as_str()), (StatusCode::BAD_REQUEST, Some("estimated_hours_required")));
    // Admin gives an estimate; the customer's later edit without one keeps it.
    let uid0 = c0["uid"].as_str().unwrap();
    let mut with = w.form("No estimate");
    with["estimated_hours"] = json!("6");
    assert_eq!(w.call(Method::PUT, &format!("/api/case/update/{uid0}/"), &admin, Some(with)).await.0, StatusCode::OK);
    no_estimate["description"] = json!("More details");
    let (st, edited) = w.call(Method::PUT, &format!("/api/case/update/{uid0}/"), &ct, Some(no_estimate)).await;
    assert_eq!((st, edited["estimated_hours"].clone(), edited["description"].clone()), (StatusCode::OK, json!(6.0), json!("More details")));
    let (st, c) = w.call(Method::POST, "/api/case/create/by/customer/", &ct, Some(w.form("Lease"))).await;
    assert_eq!(st, StatusCode::CREATED, "{c}");
    assert_eq!(c["status"], "Draft");
    assert_eq!(c["customer"], json!(cust.uid));
    assert_eq!(c["estimated_hours"], 2.5);
    assert!(c["case_number"].as_str().unwrap().ends_with("000002"));

    let (_, no) = w.contact_of(&cust, vec![Permission::ViewAllCases]).await;
    let (st, _) = w.call(Method::POST, "/api/case/create/by/customer/", &no, Some(w.form("x"))).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (_, yes) = w.contact_of(&cust, vec![Permission::AddCase, Permission::ViewAllCases]).await;
    let (st, c2) = w.call(Method::POST, "/api/case/create/by/customer/", &yes, Some(w.form("By contact"))).await;
    assert_eq!(st, StatusCode::CREATED, "{c2}");
    assert_eq!(c2["customer"], json!(cust.uid));

    // Customers cannot use the staff call; lawyers cannot either.
    let (_, law) = w.user(Role::Lawyer).await;
    let mut body = w.form("x");
    body["customer"] = json!(cust.uid);
    assert_eq!(w.call(Method::POST, "/api/case/create/", &ct, Some(body.clone())).await.0, StatusCode::FORBIDDEN);
    assert_eq!(w.call(Method::POST, "/api/case/create/", &law, Some(body.clone())).await.0, StatusCode::FORBIDDEN);

    // Both see the company's drafts; the internal description is hidden from them.
    let (st, list) = w.call(Method::GET, "/api/case/list/?status=draft", &no, None).await;
    assert_eq!(st, StatusCode::OK, "{list}");
    assert_eq!(list["results"].as_array().unwrap().len(), 3);
    let uid = c["uid"].as_str().unwrap();
    let (st, d) = w.call(Method::GET, &format!("/api/case/{uid}/"), &ct, None).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(d["short_internal_description"], "");
    // Another customer does not see it.
    let (_, other) = w.user(Role::Customer).await;
    assert_eq!(w.call(Method::GET, &format!("/api/case/{uid}/"), &other, None).await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn lifecycle_allowed_and_refused_with_history_and_pending_badge() {
    let w = world().await;
    let (cust, ct) = w.user(Role::Customer).await;
    let (_, admin) = w.user(Role::Admin).await;
    let (_, sales) = w.user(Role::SalesPerson).await;
    let (lawyer, lt) = w.user(Role::Lawyer).await;
    let (_, other) = w.user(Role::Lawyer).await;
    let c = w.case_json(&sales, &cust).await;
    let uid = c["uid"].as_str().unwrap();

    // The admin bubbles count pending (Draft) cases on GSI1 CASESTATE#pending.
    assert_eq!(w.state.store.count_gsi1("CASESTATE#pending").await.unwrap(), 1);

    // Nobody but admin publishes; nobody accepts a draft.
    assert_eq!(w.act_json(&lt, uid, "publish").await.0, StatusCode::NOT_FOUND);
    for t in [&ct, &sales] {
        let (st, v) = w.act_json(t, uid, "publish").await;
        assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("status_change_not_allowed")), "{v}");
    }
    // A lawyer cannot even see a draft.
    assert_eq!(w.act_json(&lt, uid, "accept").await.0, StatusCode::NOT_FOUND);
    let (st, v) = w.act_json(&admin, uid, "complete").await;
    assert_eq!(v["message"], "only_in_progress_can_complete", "{st}");
    let (st, v) = w.act_json(&admin, uid, "publish").await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["status"], "Waiting");
    assert_eq!(w.state.store.count_gsi1("CASESTATE#pending").await.unwrap(), 0);

    // Available to every lawyer; the customer cannot accept.
    let (_, avail) = w.call(Method::GET, "/api/case/list/?status=available", &other, None).await;
    assert_eq!(avail["results"].as_array().unwrap().len(), 1);
    assert_eq!(w.act_json(&ct, uid, "accept").await.1["message"], "status_change_not_allowed");
    let (st, v) = w.act_json(&lt, uid, "accept").await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["status"], "Inprogress");
    assert_eq!(v["lawyer"], json!(lawyer.uid));
    let (st, v) = w.act_json(&other, uid, "accept").await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::CONFLICT, Some("case_already_taken")), "taken by another lawyer: {v}");
    let (st, _) = w.call(Method::GET, &format!("/api/case/{uid}/"), &other, None).await;
    assert_eq!(st, StatusCode::NOT_FOUND, "and no longer visible to other lawyers");
    let (_, mine) = w.call(Method::GET, "/api/case/list/", &lt, None).await;
    assert_eq!(mine["results"][0]["uid"], json!(uid));
    let (st, v) = w.act_json(&lt, uid, "accept").await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("only_waiting_can_start")));

    // Close, reopen, transfer back.
    assert_eq!(w.act_json(&sales, uid, "complete").await.1["message"], "status_change_not_allowed");
    assert_eq!(w.act_json(&lt, uid, "complete").await.1["status"], "Complete");
    assert_eq!(w.act_json(&lt, uid, "complete").await.1["message"], "only_in_progress_can_complete");
    let (_, closed) = w.call(Method::GET, "/api/case/list/?status=closed", &lt, None).await;
    assert_eq!(closed["results"].as_array().unwrap().len(), 1);
    assert_eq!(w.act_json(&ct, uid, "reopen").await.1["message"], "status_change_not_allowed");
    assert_eq!(w.act_json(&admin, uid, "reopen").await.1["status"], "Inprogress");
    let (st, v) = w.act_json(&lt, uid, "transfer").await;
    assert_eq!((st, v["status"].as_str()), (StatusCode::OK, Some("Waiting")));
    assert!(v["lawyer"].is_null());
    let (_, mine) = w.call(Method::GET, "/api/case/list/", &lt, None).await;
    assert!(mine["results"].as_array().unwrap().is_empty(), "{mine}");

    // History: created + every status move, with who and before/after.
    let (st, h) = w.call(Method::GET, &format!("/api/case/history/{uid}/"), &ct, None).await;
    assert_eq!(st, StatusCode::OK);
    let moves: Vec<(String, String)> = h
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["field"] == "status")
        .map(|e| (e["before"].as_str().unwrap().to_string(), e["after"].as_str().unwrap().to_string()))
        .collect();
    let expect = [
        ("Draft", "Waiting"),
        ("Waiting", "Inprogress"),
        ("Inprogress", "Complete"),
        ("Complete", "Inprogress"),
        ("Inprogress", "Waiting"),
    ];
    assert_eq!(moves, expect.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect::<Vec<_>>());
    assert_eq!(h[0]["field"], "created");
    assert_eq!(h.as_array().unwrap().iter().find(|e| e["after"] == "Complete").unwrap()["by"], json!(lawyer.uid));

    // An edit records each changed field.
    let mut body = w.form("Lease dispute, renamed");
    body["customer"] = json!(cust.uid);
    let (st, v) = w.call(Method::PUT, &format!("/api/case/update/{uid}/"), &sales, Some(body)).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let (_, h) = w.call(Method::GET, &format!("/api/case/history/{uid}/"), &admin, None).await;
    let last = h.as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (last["field"].as_str(), last["before"].as_str(), last["after"].as_str()),
        (Some("subject"), Some("Lease dispute"), Some("Lease dispute, renamed"))
    );
    // The customer cannot edit once it has left draft.
    assert_eq!(w.call(Method::PUT, &format!("/api/case/update/{uid}/"), &ct, Some(w.form("x"))).await.0, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn two_lawyers_accepting_at_once_exactly_one_wins() {
    let w = world().await;
    let (cust, _) = w.user(Role::Customer).await;
    let (_, admin) = w.user(Role::Admin).await;
    for _ in 0..3 {
        let c = w.case_json(&admin, &cust).await;
        let uid = c["uid"].as_str().unwrap().to_string();
        w.act_json(&admin, &uid, "publish").await;
        let (_, a) = w.user(Role::Lawyer).await;
        let (_, b) = w.user(Role::Lawyer).await;
        let (ra, rb) = tokio::join!(w.act_json(&a, &uid, "accept"), w.act_json(&b, &uid, "accept"));
        let oks = [&ra, &rb].iter().filter(|r| r.0 == StatusCode::OK).count();
        assert_eq!(oks, 1, "{ra:?} {rb:?}");
        let loser = if ra.0 == StatusCode::OK { &rb } else { &ra };
        // The loser is told clearly that the case was just taken.
        assert_eq!((loser.0, loser.1["message"].as_str()), (StatusCode::CONFLICT, Some("case_already_taken")), "{loser:?}");
        let stored = w.state.store.get_case(&uid).await.unwrap().unwrap();
        assert_eq!(stored.case.status, shared::domain::case::CaseStatus::Inprogress);
    }
}

#[tokio::test]
async fn lists_page_by_ten_newest_first() {
    let w = world().await;
    let (cust, ct) = w.user(Role::Customer).await;
    let (_, admin) = w.user(Role::Admin).await;
    let mut made = Vec::new();
    for _ in 0..23 {
        made.push(w.case_json(&admin, &cust).await["uid"].as_str().unwrap().to_string());
    }
    made.reverse();
    let (seen, sizes) = w.case_list_pages(&admin, "pending").await;
    assert_eq!(seen, made);
    assert!(sizes.iter().all(|n| *n <= 10), "{sizes:?}");
    // The customer's every-status list (no filter: a page and one more item a read) pages the same.
    assert_eq!(w.case_list_pages(&ct, "all").await, (made.clone(), vec![10, 10, 3]));
    let (_, p) = w.call(Method::GET, "/api/case/list/?status=draft", &ct, None).await;
    assert_eq!(p["results"].as_array().unwrap().len(), 10);
    assert_eq!(w.call(Method::GET, "/api/case/list/?cursor=zz", &admin, None).await.1["message"], "invalid_cursor");
    assert_eq!(w.call(Method::GET, "/api/case/list/?status=bogus", &admin, None).await.1["message"], "invalid_status");
}

/// A lawyer's own lists read their pointers filtered by status and the
/// page's cases in one batch: every case once, in order, in the right list.
#[tokio::test]
async fn a_lawyers_lists_page_by_status_across_many_cases() {
    let w = world().await;
    let (cust, _) = w.user(Role::Customer).await;
    let (_, admin) = w.user(Role::Admin).await;
    let (_, lt) = w.user(Role::Lawyer).await;
    let mut active = Vec::new();
    let mut closed = Vec::new();
    for i in 0..14 {
        let uid = w.new_case(&admin, &cust).await;
        assert_eq!(w.act(&admin, &uid, "publish").await, StatusCode::OK);
        assert_eq!(w.act(&lt, &uid, "accept").await, StatusCode::OK);
        // Every third one closed: the lists interleave in the pointer partition.
        if i % 3 == 0 {
            assert_eq!(w.act(&lt, &uid, "complete").await, StatusCode::OK);
            closed.push(uid);
        } else {
            active.push(uid);
        }
    }
    active.reverse();
    closed.reverse();
    for (status, want) in [("my", &active), ("closed", &closed)] {
        let (seen, sizes) = w.case_list_pages(&lt, status).await;
        assert_eq!(&seen, want, "{status}");
        assert!(sizes.iter().all(|n| *n <= 10), "{status}: {sizes:?}");
    }
}

/// Staff's "my cases" are the cases they opened, in every status; a sales
/// person's "all" is every case. Both follow the case as it moves.
#[tokio::test]
async fn staff_see_the_cases_they_opened_and_every_case() {
    let w = world().await;
    let (cust, _) = w.user(Role::Customer).await;
    let (_, admin) = w.user(Role::Admin).await;
    let (_, sales) = w.user(Role::SalesPerson).await;
    let (_, lt) = w.user(Role::Lawyer).await;
    let by_admin = w.new_case(&admin, &cust).await;
    let by_sales = w.new_case(&sales, &cust).await;
    let uids = |v: &Value| v["results"].as_array().unwrap().iter().map(|c| c["uid"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    assert_eq!(uids(&w.call(Method::GET, "/api/case/list/?status=mine", &sales, None).await.1), vec![by_sales.clone()]);
    assert_eq!(uids(&w.call(Method::GET, "/api/case/list/?status=mine", &admin, None).await.1), vec![by_admin.clone()]);
    assert_eq!(w.act(&admin, &by_sales, "publish").await, StatusCode::OK);
    assert_eq!(w.act(&lt, &by_sales, "accept").await, StatusCode::OK);
    let (_, mine) = w.call(Method::GET, "/api/case/list/?status=mine", &sales, None).await;
    assert_eq!(uids(&mine), vec![by_sales.clone()], "still theirs once in progress");
    assert_eq!(mine["results"][0]["status"], "Inprogress");
    assert_eq!(uids(&w.call(Method::GET, "/api/case/list/?status=all", &sales, None).await.1), [by_sales.clone(), by_admin.clone()]);
    assert_eq!(w.call(Method::GET, "/api/case/list/?status=all", &lt, None).await.0, StatusCode::BAD_REQUEST, "not a lawyer's list");
}

/// Every list searches case number, subject, customer and counterpart
/// (folded: 'soderberg' finds 'Söderberg') and sorts by creation date.
#[tokio::test]
async fn lists_search_and_sort_by_created_date() {
    let w = world().await;
    let (cust, ct) = w.user(Role::Customer).await;
    let (_, admin) = w.user(Role::Admin).await;
    let (_, lt) = w.user(Role::Lawyer).await;
    let mut made = Vec::new();
    for (subject, counterpart) in [("Hyrestvist", "Söderberg Fastigheter AB"), ("Arbetsrätt", "Bergström Bygg"), ("Avtal", "Ek Ida")] {
        let mut body = w.form(subject);
        body["customer"] = json!(cust.uid);
        body["counterpart"] = json!(counterpart);
        let (st, c) = w.call(Method::POST, "/api/case/create/", &admin, Some(body)).await;
        assert_eq!(st, StatusCode::CREATED, "{c}");
        made.push((c["uid"].as_str().unwrap().to_string(), c["case_number"].as_str().unwrap().to_string()));
    }
    let subjects =
        |v: &Value| v["results"].as_array().unwrap().iter().map(|c| c["subject"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    let get = |q: String, token: String| {
        let w = &w;
        async move { w.call(Method::GET, &format!("/api/case/list/?{q}"), &token, None).await }
    };
    assert_eq!(subjects(&get("status=pending&search=soderberg".into(), admin.clone()).await.1), ["Hyrestvist"]);
    assert_eq!(subjects(&get("status=pending&search=ARBETS".into(), admin.clone()).await.1), ["Arbetsrätt"]);
    assert_eq!(subjects(&get(format!("status=pending&search={}", made[2].1), admin.clone()).await.1), ["Avtal"]);
    assert_eq!(subjects(&get("status=pending&order=asc".into(), admin.clone()).await.1), ["Hyrestvist", "Arbetsrätt", "Avtal"]);
    assert_eq!(subjects(&get("status=pending".into(), admin.clone()).await.1), ["Avtal", "Arbetsrätt", "Hyrestvist"]);
    assert_eq!(subjects(&get("status=draft&search=bergstrom".into(), ct.clone()).await.1), ["Arbetsrätt"]);
    assert_eq!(subjects(&get("status=pending&search=nothing-like-it".into(), admin.clone()).await.1), Vec::<String>::new());
    // A lawyer's own list searches the pointers.
    for (uid, _) in &made {
        assert_eq!(w.act(&admin, uid, "publish").await, StatusCode::OK);
        assert_eq!(w.act(&lt, uid, "accept").await, StatusCode::OK);
    }
    assert_eq!(subjects(&get("status=my&search=ida".into(), lt.clone()).await.1), ["Avtal"]);
    assert_eq!(subjects(&get("status=my&order=asc".into(), lt.clone()).await.1), ["Hyrestvist", "Arbetsrätt", "Avtal"]);
    assert_eq!(w.call(Method::GET, "/api/case/list/?order=sideways", &admin, None).await.0, StatusCode::BAD_REQUEST);
}

async fn in_progress(w: &World) -> (User, String, User, String, String, String) {
    let (cust, ct) = w.user(Role::Customer).await;
    let (_, admin) = w.user(Role::Admin).await;
    let (lawyer, lt) = w.user(Role::Lawyer).await;
    let c = w.case_json(&admin, &cust).await;
    let uid = c["uid"].as_str().unwrap().to_string();
    w.act_json(&admin, &uid, "publish").await;
    assert_eq!(w.act_json(&lt, &uid, "accept").await.0, StatusCode::OK);
    let _ = ct;
    (cust, admin, lawyer, lt, uid, ct)
}

#[tokio::test]
async fn hours_consume_the_subscription_exactly_and_give_back_on_edit_and_delete() {
    let w = world().await;
    let (cust, admin, lawyer, lt, uid, ct) = in_progress(&w).await;
    let hour = |v: Value| json!({"case_uid": uid, "hour": v, "date": "2026-03-02", "time": "09:30"});

    // No subscription yet.
    let (st, v) = w.call(Method::POST, "/api/case/hour/create/", &lt, Some(hour(json!("1,5")))).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("no_active_subscription_for_case")));
    let row = w.hours(&cust, "3").await;

    // Only lawyers enter hours; admin must name the lawyer; the customer cannot.
    assert_eq!(w.call(Method::POST, "/api/case/hour/create/", &ct, Some(hour(json!(1)))).await.0, StatusCode::FORBIDDEN);
    assert_eq!(w.call(Method::POST, "/api/case/hour/create/", &admin, Some(hour(json!(1)))).await.1["message"], "only_lawyer_enters_hours");
    let (_, other) = w.user(Role::Lawyer).await;
    assert_eq!(w.call(Method::POST, "/api/case/hour/create/", &other, Some(hour(json!(1)))).await.0, StatusCode::NOT_FOUND);

    let (st, h1) = w.call(Method::POST, "/api/case/hour/create/", &lt, Some(hour(json!("1,5")))).await;
    assert_eq!(st, StatusCode::CREATED, "{h1}");
    assert_eq!(w.consumed(row).await, Hundredths(150));
    let mut by_admin = hour(json!("0.75"));
    by_admin["lawyer"] = json!(lawyer.uid);
    let (st, h2) = w.call(Method::POST, "/api/case/hour/create/", &admin, Some(by_admin)).await;
    assert_eq!(st, StatusCode::CREATED, "{h2}");
    assert_eq!(w.consumed(row).await, Hundredths(225));
    // Non-billable hours do not consume.
    let (st, _) = w
        .call(Method::POST, "/api/case/hour/create/", &lt, Some(json!({"case_uid": uid, "non_billable_hour": 2, "date": "2026-03-02"})))
        .await;
    assert_eq!(st, StatusCode::CREATED);
    assert_eq!(w.consumed(row).await, Hundredths(225));
    // Past the limit: refused, nothing changes.
    let (st, v) = w.call(Method::POST, "/api/case/hour/create/", &lt, Some(hour(json!(1)))).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("limit_reached")));
    assert_eq!(w.consumed(row).await, Hundredths(225));

    // The customer sees the entries; the ledger has them.
    let (_, list) = w.call(Method::GET, &format!("/api/case/hour/list/?case={uid}"), &ct, None).await;
    assert_eq!(list.as_array().unwrap().len(), 3);
    let d = chrono::NaiveDate::from_ymd_opt(2026, 3, 2).unwrap();
    assert_eq!(w.state.store.list_usage(row, d, d).await.unwrap().len(), 2);

    // Edit 1,5 → 0,25 gives back exactly 1,25.
    let id1 = h1["id"].as_str().unwrap();
    let (st, v) = w.call(Method::PUT, &format!("/api/case/hour/edit/{id1}/"), &lt, Some(hour(json!("0,25")))).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(w.consumed(row).await, Hundredths(100));
    // Delete gives back the rest of it.
    let (st, _) = w.call(Method::DELETE, &format!("/api/case/hour/delete/{id1}/?case={uid}"), &lt, None).await;
    assert_eq!(st, StatusCode::NO_CONTENT);
    assert_eq!(w.consumed(row).await, Hundredths(75));
    assert_eq!(w.state.store.list_usage(row, d, d).await.unwrap().len(), 1);

    // Hour history entries.
    let (_, h) = w.call(Method::GET, &format!("/api/case/history/{uid}/"), &admin, None).await;
    assert_eq!(h.as_array().unwrap().iter().filter(|e| e["field"] == "hour").count(), 5);

    // Excel export: a real workbook with numbers, titles in the asked language.
    let (st, headers, xlsx) =
        testkit::call_bytes(&w.router, Method::GET, &format!("/api/case/hour/excel/?case={uid}&lang=en"), Some(&lt), None).await;
    assert_eq!(st, StatusCode::OK);
    assert!(headers["content-type"].to_str().unwrap().contains("spreadsheetml"));
    assert!(headers["content-disposition"].to_str().unwrap().contains(".xlsx"));
    let (strings, sheet) = workbook_parts(&xlsx);
    assert!(strings.contains("Billable hours") && strings.contains("Lease dispute"), "{strings}");
    assert!(sheet.contains("<v>0.75</v>"), "{sheet}");
    let (_, _, sv) = testkit::call_bytes(&w.router, Method::GET, &format!("/api/case/hour/excel/?case={uid}"), Some(&lt), None).await;
    assert!(workbook_parts(&sv).0.contains("Debiterbara timmar"));
    // A stranger gets nothing.
    let (_, other) = w.user(Role::Customer).await;
    assert_eq!(
        testkit::call_bytes(&w.router, Method::GET, &format!("/api/case/hour/excel/?case={uid}"), Some(&other), None).await.0,
        StatusCode::NOT_FOUND
    );

    // Closed: no more hours.
    w.act_json(&lt, &uid, "complete").await;
    assert_eq!(w.call(Method::POST, "/api/case/hour/create/", &lt, Some(hour(json!("0,1")))).await.1["message"], "case_not_in_progress");
}

/// A hundred entries at once against one subscription: every entry lands
/// (retries on a lost `rev` race) and consumed is exact. Needs the stand-in
/// that handles one request at a time (infra/stand_in.py), as DynamoDB makes
/// each conditional transaction atomic. On this stand-in some calls pass the
/// request deadline (504) whether or not their entry was stored: each is
/// sent again with its `Idempotency-Key`, as the web client does.
#[tokio::test]
async fn a_hundred_parallel_hour_entries_consume_exactly() {
    let w = world().await;
    let (cust, _admin, _lawyer, lt, uid, _) = in_progress(&w).await;
    let row = w.hours(&cust, "100").await;
    let router = w.router.clone();
    let mut set = tokio::task::JoinSet::new();
    for i in 0..100 {
        let (router, lt, uid) = (router.clone(), lt.clone(), uid.clone());
        set.spawn(async move {
            let key = format!("\"entry-{i}\"");
            let body = json!({"case_uid": uid, "hour": "0,25", "date": "2026-03-03"});
            let mut tries = 0;
            loop {
                tries += 1;
                let (st, _, v) = testkit::call_with_headers(
                    &router,
                    Method::POST,
                    "/api/case/hour/create/",
                    Some(&lt),
                    Some(body.clone()),
                    &[("Idempotency-Key", &key)],
                )
                .await;
                if st != StatusCode::GATEWAY_TIMEOUT || tries == 5 {
                    return (st, String::from_utf8_lossy(&v).into_owned());
                }
            }
        });
    }
    let mut created = 0;
    while let Some(r) = set.join_next().await {
        let (st, v) = r.unwrap();
        assert_eq!(st, StatusCode::CREATED, "{v}");
        created += 1;
    }
    assert_eq!(created, 100);
    // Strict end state: 100 × 0,25 = 25 exactly, 100 entries, 100 ledger items.
    assert_eq!(w.consumed(row).await, Hundredths(2500));
    assert_eq!(w.state.store.case_hours(&uid).await.unwrap().len(), 100);
    let d = chrono::NaiveDate::from_ymd_opt(2026, 3, 3).unwrap();
    assert_eq!(w.state.store.list_usage(row, d, d).await.unwrap().len(), 100);
}

/// At the limit, parallel entries book exactly what the row holds: the
/// limit is checked by the booking's own condition, not only on a read.
#[tokio::test]
async fn parallel_entries_at_the_limit_book_exactly_the_limit() {
    let w = world().await;
    let (cust, _admin, _lawyer, lt, uid, _) = in_progress(&w).await;
    let row = w.hours(&cust, "5").await;
    let mut set = tokio::task::JoinSet::new();
    for _ in 0..12 {
        let (router, lt, uid) = (w.router.clone(), lt.clone(), uid.clone());
        set.spawn(async move {
            testkit::call(
                &router,
                Method::POST,
                "/api/case/hour/create/",
                Some(&lt),
                Some(json!({"case_uid": uid, "hour": "0,5", "date": "2026-03-03"})),
            )
            .await
        });
    }
    let (mut created, mut refused) = (0, 0);
    while let Some(r) = set.join_next().await {
        let (st, v) = r.unwrap();
        match st {
            StatusCode::CREATED => created += 1,
            _ => {
                assert_eq!(v["message"], "limit_reached", "{v}");
                refused += 1;
            }
        }
    }
    assert_eq!((created, refused), (10, 2));
    assert_eq!(w.consumed(row).await, Hundredths(500));
}

#[tokio::test]
async fn notes_are_for_the_provider_side() {
    let w = world().await;
    let (_, _admin, _, lt, uid, ct) = in_progress(&w).await;
    let (st, _) = w.call(Method::POST, "/api/case/lawyer/note/", &lt, Some(json!({"case_uid": uid, "note": "Called the landlord"}))).await;
    assert_eq!(st, StatusCode::CREATED);
    assert_eq!(
        w.call(Method::POST, "/api/case/lawyer/note/", &lt, Some(json!({"case_uid": uid, "note": " "}))).await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        w.call(Method::POST, "/api/case/lawyer/note/", &ct, Some(json!({"case_uid": uid, "note": "x"}))).await.0,
        StatusCode::FORBIDDEN
    );
    let (_, n) = w.call(Method::GET, &format!("/api/case/lawyer/note/?case={uid}"), &lt, None).await;
    assert_eq!(n[0]["note"], "Called the landlord");
}

#[tokio::test]
async fn the_customer_side_edits_drafts_only_and_contacts_need_add_case() {
    let w = world().await;
    let (cust, ct) = w.user(Role::Customer).await;
    let (_, admin) = w.user(Role::Admin).await;
    w.hours(&cust, "10").await;
    let (st, c) = w.call(Method::POST, "/api/case/create/by/customer/", &ct, Some(w.form("Lease"))).await;
    assert_eq!(st, StatusCode::CREATED, "{c}");
    let uid = c["uid"].as_str().unwrap().to_string();
    let path = format!("/api/case/update/{uid}/");

    // The customer edits its draft; the edit is in the history.
    let (st, v) = w.call(Method::PUT, &path, &ct, Some(w.form("Lease (revised)"))).await;
    assert_eq!((st, v["subject"].as_str()), (StatusCode::OK, Some("Lease (revised)")), "{v}");
    let (_, h) = w.call(Method::GET, &format!("/api/case/history/{uid}/"), &ct, None).await;
    assert!(h.as_array().unwrap().iter().any(|e| e["field"] == "subject" && e["after"] == "Lease (revised)"), "{h}");

    // A contact without add_case may read it but not edit; with it, it may.
    let (_, no) = w.contact_of(&cust, vec![Permission::ViewAllCases]).await;
    let (st, d) = w.call(Method::GET, &format!("/api/case/{uid}/"), &no, None).await;
    assert_eq!((st, d["can_edit"].as_bool()), (StatusCode::OK, Some(false)));
    assert_eq!(w.call(Method::PUT, &path, &no, Some(w.form("No"))).await.0, StatusCode::FORBIDDEN);
    let (_, yes) = w.contact_of(&cust, vec![Permission::AddCase, Permission::ViewAllCases]).await;
    let (st, d) = w.call(Method::GET, &format!("/api/case/{uid}/"), &yes, None).await;
    assert_eq!((st, d["can_edit"].as_bool()), (StatusCode::OK, Some(true)));
    let (st, v) = w.call(Method::PUT, &path, &yes, Some(w.form("By contact"))).await;
    assert_eq!((st, v["subject"].as_str()), (StatusCode::OK, Some("By contact")), "{v}");

    // Once published, the customer side no longer edits; what was stored stays.
    assert_eq!(w.act_json(&admin, &uid, "publish").await.0, StatusCode::OK);
    assert_eq!(w.call(Method::PUT, &path, &ct, Some(w.form("Late"))).await.0, StatusCode::FORBIDDEN);
    let (_, d) = w.call(Method::GET, &format!("/api/case/{uid}/"), &ct, None).await;
    assert_eq!((d["subject"].as_str(), d["can_edit"].as_bool()), (Some("By contact"), Some(false)));

    // The name lookup answers whoever may see the case, 404 to others.
    let (st, n) = w.call(Method::GET, &format!("/api/case/name/{uid}/"), &no, None).await;
    assert_eq!(st, StatusCode::OK, "{n}");
    assert_eq!(n["subject"], "By contact");
    assert_eq!(n["case_number"], c["case_number"]);
    assert_eq!(n["status"], "Waiting");
    let (_, other) = w.user(Role::Customer).await;
    assert_eq!(w.call(Method::GET, &format!("/api/case/name/{uid}/"), &other, None).await.0, StatusCode::NOT_FOUND);
    assert_eq!(w.call(Method::GET, "/api/case/name/nope/", &admin, None).await.0, StatusCode::NOT_FOUND);
}

/// The shared strings and the first sheet's XML of an .xlsx.
fn workbook_parts(bytes: &[u8]) -> (String, String) {
    use std::io::Read;
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("an xlsx is a zip");
    let mut read = |name: &str| {
        let mut text = String::new();
        zip.by_name(name).expect(name).read_to_string(&mut text).unwrap();
        text
    };
    (read("xl/sharedStrings.xml"), read("xl/worksheets/sheet1.xml"))
}

#[tokio::test]
async fn a_lawyers_own_case_is_their_pending_draft_until_published_to_them() {
    let w = world().await;
    let (cust, ct) = w.user(Role::Customer).await;
    let (law, lt) = w.user(Role::Lawyer).await;
    let (_, other) = w.user(Role::Lawyer).await;
    let (_, admin) = w.user(Role::Admin).await;
    let mut body = w.form("Lawyer's own");
    body["customer"] = json!(cust.uid);
    let (st, c) = w.call(Method::POST, "/api/case/create/by/lawyer/", &lt, Some(body.clone())).await;
    assert_eq!(st, StatusCode::CREATED, "{c}");
    assert_eq!((c["status"].as_str(), c["direct_assign_lawyer"].as_str()), (Some("Draft"), Some(law.uid.as_str())));
    let uid = c["uid"].as_str().unwrap().to_string();
    let subjects =
        |v: &Value| v["results"].as_array().unwrap().iter().map(|c| c["subject"].as_str().unwrap().to_string()).collect::<Vec<_>>();

    // The creator sees and edits it; it is their pending case. Another lawyer does not see it.
    let (st, d) = w.call(Method::GET, &format!("/api/case/{uid}/"), &lt, None).await;
    assert_eq!((st, d["can_edit"].as_bool()), (StatusCode::OK, Some(true)), "{d}");
    let (_, pending) = w.call(Method::GET, "/api/case/list/?status=pending", &lt, None).await;
    assert_eq!(subjects(&pending), ["Lawyer's own"]);
    assert_eq!(w.call(Method::GET, &format!("/api/case/{uid}/"), &other, None).await.0, StatusCode::NOT_FOUND);
    body["subject"] = json!("Lawyer's own (edited)");
    let (st, v) = w.call(Method::PUT, &format!("/api/case/update/{uid}/"), &lt, Some(body)).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    // Not theirs to publish.
    assert_eq!(w.act_json(&lt, &uid, "publish").await.0, StatusCode::BAD_REQUEST);
    // They may attach documents to it already; the other lawyer may not.
    let doc = json!({"case_uid": uid, "name": "Fullmakt.pdf"});
    let (st, v) = w.call(Method::POST, "/api/case/file/upload-url/", &lt, Some(doc.clone())).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(w.call(Method::POST, "/api/case/file/upload-url/", &other, Some(doc)).await.0, StatusCode::NOT_FOUND);

    // Admin verifies it: it goes straight to the lawyer, in progress.
    let (st, v) = w.act_json(&admin, &uid, "publish").await;
    assert_eq!((st, v["status"].as_str(), v["lawyer"].as_str()), (StatusCode::OK, Some("Inprogress"), Some(law.uid.as_str())), "{v}");
    let (_, pending) = w.call(Method::GET, "/api/case/list/?status=pending", &lt, None).await;
    assert!(subjects(&pending).is_empty());
    let (_, mine) = w.call(Method::GET, "/api/case/list/?status=my", &lt, None).await;
    assert_eq!(subjects(&mine), ["Lawyer's own (edited)"]);
    let (_, theirs) = w.call(Method::GET, "/api/case/list/?status=active", &ct, None).await;
    assert_eq!(subjects(&theirs), ["Lawyer's own (edited)"]);
}

#[tokio::test]
async fn a_new_case_starts_at_the_customers_visiting_address() {
    let w = world().await;
    let (cust, ct) = w.user(Role::Customer).await;
    let (_, admin) = w.user(Role::Admin).await;
    // The customer side gets its own (a customer without a profile: empty).
    let (st, own) = w.call(Method::GET, "/api/case/address/default/", &ct, None).await;
    assert_eq!(st, StatusCode::OK, "{own}");
    assert!(own["address_1"].is_string() && own["city"].is_string() && own["post_code"].is_string(), "{own}");
    // Staff name the customer, and must.
    let (st, _) = w.call(Method::GET, &format!("/api/case/address/default/?customer={}", cust.uid), &admin, None).await;
    assert_eq!(st, StatusCode::OK);
    let (st, v) = w.call(Method::GET, "/api/case/address/default/", &admin, None).await;
    assert_eq!((st, v["errors"]["customer"][0].as_str()), (StatusCode::BAD_REQUEST, Some("required")), "{v}");
}

/// The customer side takes back a draft it no longer wants: after that it is
/// in no list of open work, its history says so, and nothing else can be
/// done with it; a published case is not withdrawn.
#[tokio::test]
async fn customer_withdraws_a_draft_only() {
    let w = world().await;
    let (cust, ct) = w.user(Role::Customer).await;
    let (_, admin) = w.user(Role::Admin).await;
    let (_, sales) = w.user(Role::SalesPerson).await;
    w.hours(&cust, "10").await;
    let draft = w.case_json(&sales, &cust).await;
    let uid = draft["uid"].as_str().unwrap();
    let published = w.case_json(&sales, &cust).await;
    let pub_uid = published["uid"].as_str().unwrap();
    assert_eq!(w.act_json(&admin, pub_uid, "publish").await.0, StatusCode::OK);

    // The details offer it to the customer for its draft only.
    let (_, d) = w.call(Method::GET, &format!("/api/case/{uid}/"), &ct, None).await;
    assert_eq!(d["actions"], json!(["withdraw"]), "{d}");
    let (_, d) = w.call(Method::GET, &format!("/api/case/{pub_uid}/"), &ct, None).await;
    assert_eq!(d["actions"], json!([]), "{d}");
    // Staff, a contact without add_case and another customer may not.
    for t in [&admin, &sales] {
        assert_eq!(w.act_json(t, uid, "withdraw").await.1["message"], "status_change_not_allowed");
    }
    let (_, no) = w.contact_of(&cust, vec![Permission::ViewAllCases]).await;
    assert_eq!(w.act_json(&no, uid, "withdraw").await.1["message"], "status_change_not_allowed");
    let (_, other) = w.user(Role::Customer).await;
    assert_eq!(w.act_json(&other, uid, "withdraw").await.0, StatusCode::NOT_FOUND);
    let (st, v) = w.act_json(&ct, pub_uid, "withdraw").await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("only_draft_can_be_withdrawn")));

    assert_eq!(w.state.store.count_gsi1("CASESTATE#pending").await.unwrap(), 1);
    let (_, yes) = w.contact_of(&cust, vec![Permission::AddCase, Permission::ViewAllCases]).await;
    let (st, v) = w.act_json(&yes, uid, "withdraw").await;
    assert_eq!((st, v["status"].as_str()), (StatusCode::OK, Some("Withdrawn")), "{v}");
    // Out of the drafts (and admin's pending badge) and of every open list.
    assert_eq!(w.state.store.count_gsi1("CASESTATE#pending").await.unwrap(), 0);
    for status in ["draft", "", "active", "closed"] {
        let (_, l) = w.call(Method::GET, &format!("/api/case/list/?status={status}"), &ct, None).await;
        assert!(!l["results"].as_array().unwrap().iter().any(|c| c["uid"] == json!(uid)), "{status}: {l}");
    }
    let (_, l) = w.call(Method::GET, "/api/case/list/?status=pending", &admin, None).await;
    assert!(l["results"].as_array().unwrap().is_empty(), "{l}");
    // Nothing more is done with it: not published, not edited, not withdrawn again.
    assert_eq!(w.act_json(&admin, uid, "publish").await.1["message"], "status_change_not_allowed");
    assert_eq!(w.act_json(&ct, uid, "withdraw").await.1["message"], "only_draft_can_be_withdrawn");
    let (st, _) = w.call(Method::PUT, &format!("/api/case/update/{uid}/"), &ct, Some(w.form("Again"))).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (_, h) = w.call(Method::GET, &format!("/api/case/history/{uid}/"), &ct, None).await;
    assert!(h.to_string().contains("Withdrawn"), "{h}");
}

//! Field-level rights on every write (the customer side
//! never sets staff-only fields, on new cases as on edits) and object-level
//! rights on every report (a lawyer reads only the hours of cases assigned
//! to them).

use crate::common;

use axum::http::{Method, StatusCode};
use common::world;
use serde_json::json;
use shared::domain::{Permission, Role};
use shared::services::subscriptions;

#[tokio::test]
async fn the_customer_side_cannot_choose_the_lawyer_nor_write_the_internal_description() {
    let w = world().await;
    let (cust, ct) = w.user(Role::Customer).await;
    let (law, lt) = w.user(Role::Lawyer).await;
    let (_, admin) = w.user(Role::Admin).await;
    let (_, contact) = w.contact_of(&cust, vec![Permission::AddCase, Permission::ViewAllCases]).await;
    w.hours(&cust, "10").await;
    for token in [&ct, &contact] {
        let mut body = w.form("Customer's pick");
        body["direct_assign_lawyer"] = json!(law.uid);
        body["short_internal_description"] = json!("written by the customer");
        let (st, c) = w.call(Method::POST, "/api/case/create/by/customer/", token, Some(body.clone())).await;
        assert_eq!(st, StatusCode::CREATED, "{c}");
        let uid = c["uid"].as_str().unwrap().to_string();
        // As stored (staff's view): neither field was taken from the form.
        let (_, d) = w.call(Method::GET, &format!("/api/case/{uid}/"), &admin, None).await;
        assert_eq!(d["direct_assign_lawyer"], json!(null), "{d}");
        assert_eq!(d["short_internal_description"], json!(""), "{d}");
        // Nor on an edit of the draft; a made-up lawyer id is not even looked up.
        body["direct_assign_lawyer"] = json!("no-such-lawyer");
        let (st, v) = w.call(Method::PUT, &format!("/api/case/update/{uid}/"), token, Some(body)).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        let (_, d) = w.call(Method::GET, &format!("/api/case/{uid}/"), &admin, None).await;
        assert_eq!(d["direct_assign_lawyer"], json!(null), "{d}");
        // Publishing puts it in the available pool, not straight to the lawyer.
        assert_eq!(w.act(&admin, &uid, "publish").await, StatusCode::OK);
        let (_, d) = w.call(Method::GET, &format!("/api/case/{uid}/"), &lt, None).await;
        assert_eq!((d["status"].as_str(), d["lawyer"].as_str()), (Some("Waiting"), None), "{d}");
    }
}

#[tokio::test]
async fn a_lawyer_exports_only_hours_of_cases_assigned_to_them() {
    let w = world().await;
    let s = w.in_progress().await;
    let row = w.hours(&s.cust, "10").await;
    w.hour(&s.lt, &s.uid, "1,5").await;
    let (other, other_token) = w.user(Role::Lawyer).await;
    let (admin, _) = w.user(Role::Admin).await;

    // The subscription row's time report: every line for staff and the
    // assigned lawyer, none of this case for another lawyer.
    let report = |who| {
        let state = w.state.clone();
        let id = row.to_string();
        async move { subscriptions::time_report(&state, who, &id, Some("2026-01-01"), Some("2026-12-31")).await.unwrap() }
    };
    assert_eq!(report(&admin).await.lines.len(), 1);
    assert_eq!(report(&s.lawyer).await.lines.len(), 1);
    let theirs = report(&other).await;
    assert_eq!((theirs.lines.len(), theirs.total.as_str()), (0, "0"));

    // The case's workbook: the assigned lawyer yes; once the case is back in
    // the available pool, a lawyer who may see it still may not export it.
    let excel = format!("/api/case/hour/excel/?case={}", s.uid);
    assert_eq!(w.call(Method::GET, &excel, &s.lt, None).await.0, StatusCode::OK);
    assert_eq!(w.act(&s.admin, &s.uid, "transfer").await, StatusCode::OK);
    assert_eq!(w.call(Method::GET, &format!("/api/case/{}/", s.uid), &other_token, None).await.0, StatusCode::OK);
    let (st, e) = w.call(Method::GET, &excel, &other_token, None).await;
    assert_eq!((st, e["message"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")), "{e}");
    assert_eq!(w.call(Method::GET, &excel, &s.admin, None).await.0, StatusCode::OK);
}

#[tokio::test]
async fn a_contact_without_view_all_cases_sees_only_the_cases_it_created() {
    let w = world().await;
    // The company's case, opened by staff, in progress with hours.
    let s = w.in_progress().await;
    w.hours(&s.cust, "10").await;
    w.hour(&s.lt, &s.uid, "1,5").await;
    let (_, own) = w.contact_of(&s.cust, vec![Permission::AddCase]).await;
    let (_, all) = w.contact_of(&s.cust, vec![Permission::AddCase, Permission::ViewAllCases]).await;
    let (st, mine) = w.call(Method::POST, "/api/case/create/by/customer/", &own, Some(w.form("My own matter"))).await;
    assert_eq!(st, StatusCode::CREATED, "{mine}");
    let mine = mine["uid"].as_str().unwrap().to_string();

    let uids = |v: &serde_json::Value| -> Vec<String> {
        v["results"].as_array().unwrap().iter().map(|c| c["uid"].as_str().unwrap().to_string()).collect()
    };
    for status in ["all", "active", "pending"] {
        let (st, list) = w.call(Method::GET, &format!("/api/case/list/?status={status}"), &own, None).await;
        assert_eq!(st, StatusCode::OK, "{list}");
        assert!(!uids(&list).contains(&s.uid), "{status}: another's case listed: {list}");
        let (_, list) = w.call(Method::GET, &format!("/api/case/list/?status={status}"), &all, None).await;
        assert_eq!(uids(&list).contains(&s.uid), status != "pending", "{status}: {list}");
    }
    let (_, list) = w.call(Method::GET, "/api/case/list/?status=all", &own, None).await;
    assert_eq!(uids(&list), vec![mine.clone()]);
    // A search of the contact's lists finds nothing of the others' cases either.
    let (_, found) = w.call(Method::GET, "/api/case/list/?status=all&search=Lease", &own, None).await;
    assert!(uids(&found).is_empty(), "{found}");
    let (_, found) = w.call(Method::GET, "/api/case/list/?status=all&search=Lease", &all, None).await;
    assert_eq!(uids(&found), vec![s.uid.clone()]);

    // Details, history, hours, documents and the hours workbook of another's case do not exist for it.
    for path in [
        format!("/api/case/{}/", s.uid),
        format!("/api/case/history/{}/", s.uid),
        format!("/api/case/hour/list/?case={}", s.uid),
        format!("/api/case/file/list/?case={}", s.uid),
        format!("/api/case/hour/excel/?case={}", s.uid),
    ] {
        let (st, v) = w.call(Method::GET, &path, &own, None).await;
        assert_eq!(st, StatusCode::NOT_FOUND, "{path}: {v}");
        let (st, v) = w.call(Method::GET, &path, &all, None).await;
        assert!(st.is_success(), "{path}: {st} {v}");
    }
    let (st, v) = w.call(Method::GET, &format!("/api/case/{mine}/"), &own, None).await;
    assert_eq!(st, StatusCode::OK, "{v}");
}

//! Additional hours (month, total hour): create, list, edit, delete, bulk
//! invoiced change, each with its history entry; who may; one month per
//! lawyer; the subscription is never consumed by them.

use crate::common;

use axum::http::{Method, StatusCode};
use common::world;
use serde_json::{json, Value};
use shared::domain::catalogue::Hundredths;
use shared::domain::Role;

#[tokio::test]
async fn additional_hours_lifecycle_history_and_refusals() {
    let w = world().await;
    let sc = w.in_progress().await;
    let row = w.hours(&sc.cust, "10").await;
    let wr = &w;
    let rev_before = w.state.store.get_purchase(row).await.unwrap().unwrap().rev;
    let body = |month: &str, total: Value| json!({"case_uid": sc.uid, "month": month, "total_hour": total, "description": "Research"});
    let create = |token: &str, b: Value| {
        let token = token.to_string();
        async move { wr.call(Method::POST, "/api/case/additional_hour/create/", &token, Some(b)).await }
    };
    let list_path = format!("/api/case/additional_hour/list/?case={}", sc.uid);
    let hist_path = format!("/api/case/history-additional/{}/", sc.uid);

    // The lawyer reports March.
    let (st, a1) = create(&sc.lt, body("2026-03", json!("2,5"))).await;
    assert_eq!(st, StatusCode::CREATED, "{a1}");
    assert_eq!(
        (a1["month"].as_str(), a1["total_hour"].as_f64(), a1["lawyer"].as_str()),
        (Some("2026-03"), Some(2.5), Some(sc.lawyer.uid.as_str()))
    );
    let a1id = a1["id"].as_str().unwrap().to_string();

    // Refusals.
    let (st, v) = create(&sc.lt, body("2026-03", json!(1))).await;
    assert_eq!((st, v["errors"]["month"][0].as_str()), (StatusCode::BAD_REQUEST, Some("additional_hour_month_taken")));
    let (st, v) = create(&sc.lt, body("2026-13", json!(1))).await;
    assert_eq!((st, v["errors"]["month"][0].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_month")));
    let (st, v) = create(&sc.lt, body("2026-04", json!("0"))).await;
    assert_eq!((st, v["errors"]["total_hour"][0].as_str()), (StatusCode::BAD_REQUEST, Some("hour_min")));
    let (st, v) = create(&sc.admin, body("2026-04", json!(1))).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("only_lawyer_enters_hours")));
    let (st, v) = create(&sc.ct, body("2026-04", json!(1))).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::FORBIDDEN, Some("only_lawyer_enters_hours")));
    let (_, sales) = w.user(Role::SalesPerson).await;
    assert_eq!(create(&sales, body("2026-04", json!(1))).await.0, StatusCode::FORBIDDEN);
    let (_, other_lawyer) = w.user(Role::Lawyer).await;
    assert_eq!(create(&other_lawyer, body("2026-04", json!(1))).await.0, StatusCode::NOT_FOUND);
    // Admin naming a lawyer who is not the assigned one.
    let mut named = body("2026-04", json!(1));
    named["lawyer"] = json!("00000000-0000-4000-8000-000000000000");
    assert_eq!(create(&sc.admin, named).await.1["message"], "case_not_assigned");

    // Admin names the lawyer.
    let mut named = body("2026-04", json!("1,25"));
    named["lawyer"] = json!(sc.lawyer.uid);
    let (st, a2) = create(&sc.admin, named).await;
    assert_eq!(st, StatusCode::CREATED, "{a2}");
    assert_eq!(a2["lawyer"].as_str(), Some(sc.lawyer.uid.as_str()));
    let a2id = a2["id"].as_str().unwrap().to_string();

    // The list (newest month first), for the customer too (read-only).
    let (st, list) = w.call(Method::GET, &list_path, &sc.ct, None).await;
    assert_eq!(st, StatusCode::OK);
    let months: Vec<&str> = list.as_array().unwrap().iter().map(|e| e["month"].as_str().unwrap()).collect();
    assert_eq!(months, vec!["2026-04", "2026-03"]);
    assert_eq!(w.call(Method::GET, &list_path, &other_lawyer, None).await.0, StatusCode::NOT_FOUND);
    let (st, one) = w.call(Method::GET, &format!("/api/case/additional_hour/{a1id}/?case={}", sc.uid), &sc.lt, None).await;
    assert_eq!((st, one["total_hour"].as_f64()), (StatusCode::OK, Some(2.5)));

    // Edit: March becomes May with 3 hours; March is free again; April is taken.
    let edit = |id: &str, b: Value, token: &str| {
        let (id, token) = (id.to_string(), token.to_string());
        async move { wr.call(Method::PUT, &format!("/api/case/additional_hour/edit/{id}/"), &token, Some(b)).await }
    };
    let (st, v) = edit(&a1id, body("2026-05", json!("3")), &sc.lt).await;
    assert_eq!((st, v["month"].as_str(), v["total_hour"].as_f64()), (StatusCode::OK, Some("2026-05"), Some(3.0)), "{v}");
    let (st, v) = edit(&a1id, body("2026-04", json!("3")), &sc.lt).await;
    assert_eq!((st, v["errors"]["month"][0].as_str()), (StatusCode::BAD_REQUEST, Some("additional_hour_month_taken")));
    assert_eq!(edit(&a1id, body("2026-05", json!("3")), &sc.ct).await.0, StatusCode::FORBIDDEN);
    assert_eq!(edit("nope", body("2026-05", json!("3")), &sc.lt).await.0, StatusCode::NOT_FOUND);
    let (st, a3) = create(&sc.lt, body("2026-03", json!("0,5"))).await;
    assert_eq!(st, StatusCode::CREATED, "{a3}");
    let a3id = a3["id"].as_str().unwrap().to_string();

    // Bulk: two marked invoiced; an id not on the case changes nothing.
    let mass = |ids: Vec<&str>, v: bool| json!({"case_uid": sc.uid, "ids": ids, "is_invoiced": v});
    let (st, _) = w.call(Method::PUT, "/api/case/additional_hour/mass-update/", &sc.lt, Some(mass(vec![&a1id, "nope"], true))).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert_eq!(
        w.call(Method::PUT, "/api/case/additional_hour/mass-update/", &sc.ct, Some(mass(vec![&a1id], true))).await.0,
        StatusCode::FORBIDDEN
    );
    let (st, v) = w.call(Method::PUT, "/api/case/additional_hour/mass-update/", &sc.admin, Some(mass(vec![&a1id, &a2id], true))).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let (_, list) = w.call(Method::GET, &list_path, &sc.lt, None).await;
    let flags: Vec<(String, bool)> =
        list.as_array().unwrap().iter().map(|e| (e["month"].as_str().unwrap().into(), e["is_invoiced"].as_bool().unwrap())).collect();
    assert_eq!(flags, vec![("2026-05".into(), true), ("2026-04".into(), true), ("2026-03".into(), false)]);

    // Delete.
    let case_uid = sc.uid.clone();
    let del = |id: &str, token: &str| {
        let (id, token, case_uid) = (id.to_string(), token.to_string(), case_uid.clone());
        async move { wr.call(Method::DELETE, &format!("/api/case/additional_hour/delete/{id}/?case={case_uid}"), &token, None).await.0 }
    };
    assert_eq!(del(&a3id, &sc.ct).await, StatusCode::FORBIDDEN);
    assert_eq!(del(&a3id, &sc.lt).await, StatusCode::NO_CONTENT);
    assert_eq!(del(&a3id, &sc.lt).await, StatusCode::NOT_FOUND);
    assert_eq!(w.call(Method::GET, &list_path, &sc.lt, None).await.1.as_array().unwrap().len(), 2);

    // The history: create ×2, edit, create, bulk ×2, delete; who, before and after.
    let (st, h) = w.call(Method::GET, &hist_path, &sc.ct, None).await;
    assert_eq!(st, StatusCode::OK);
    let h = h.as_array().unwrap().clone();
    assert_eq!(h.len(), 7, "{h:?}");
    assert!(h.iter().all(|e| e["field"] == "additional_hour"));
    assert_eq!((h[0]["before"].clone(), h[0]["after"].as_str()), (Value::Null, Some("2026-03 2.5 h")));
    assert_eq!((h[2]["before"].as_str(), h[2]["after"].as_str()), (Some("2026-03 2.5 h"), Some("2026-05 3 h")));
    assert_eq!(h[3]["after"].as_str(), Some("2026-03 0.5 h"));
    for e in &h[4..6] {
        assert!(e["before"].as_str().unwrap().ends_with("· not invoiced") && e["after"].as_str().unwrap().ends_with("· invoiced"), "{e}");
    }
    assert_eq!((h[6]["before"].as_str(), h[6]["after"].clone()), (Some("2026-03 0.5 h"), Value::Null));
    assert_eq!(h[0]["by"].as_str(), Some(sc.lawyer.uid.as_str()));
    // Not mixed into the case history, and the other way round.
    let case_hist = w.state.store.case_history(&sc.uid).await.unwrap();
    assert!(case_hist.iter().all(|e| e.field != "additional_hour"));
    assert_eq!(w.call(Method::GET, &hist_path, &other_lawyer, None).await.0, StatusCode::NOT_FOUND);

    // Never consumed: the subscription row was not even written.
    let after = w.state.store.get_purchase(row).await.unwrap().unwrap();
    assert_eq!((after.row.consumed_hour, after.rev), (Hundredths::ZERO, rev_before));

    // Closed case: no additional hours.
    assert_eq!(w.act(&sc.lt, &sc.uid, "complete").await, StatusCode::OK);
    let (st, v) = create(&sc.lt, body("2026-06", json!(1))).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("case_not_in_progress")));
    assert_eq!(edit(&a1id, body("2026-05", json!("4")), &sc.lt).await.1["message"], "case_not_in_progress");
    // Invoicing follows the work: admin still marks them, the lawyer no longer.
    let (st, v) = w.call(Method::PUT, "/api/case/additional_hour/mass-update/", &sc.lt, Some(mass(vec![&a1id], false))).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("case_not_in_progress")));
    let (st, v) = w.call(Method::PUT, "/api/case/additional_hour/mass-update/", &sc.admin, Some(mass(vec![&a1id], false))).await;
    assert_eq!((st, v[0]["is_invoiced"].as_bool()), (StatusCode::OK, Some(false)), "{v}");
    let stored = w.state.store.get_additional_hour(&sc.uid, &a1id).await.unwrap().unwrap();
    assert!(!stored.entry.is_invoiced);
}

#[tokio::test]
async fn one_month_per_lawyer_even_when_two_report_at_once() {
    let w = world().await;
    let sc = w.in_progress().await;
    let b = json!({"case_uid": sc.uid, "month": "2026-02", "total_hour": "1"});
    let (r1, r2) = tokio::join!(
        w.call(Method::POST, "/api/case/additional_hour/create/", &sc.lt, Some(b.clone())),
        w.call(Method::POST, "/api/case/additional_hour/create/", &sc.lt, Some(b.clone())),
    );
    let mut statuses = [r1.0, r2.0];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::CREATED, StatusCode::BAD_REQUEST], "{r1:?} {r2:?}");
    assert_eq!(w.state.store.additional_hours(&sc.uid).await.unwrap().len(), 1);
}

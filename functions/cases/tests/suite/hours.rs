//! Case hours: one entry for the update page and the bulk invoiced change
//! (all or nothing, one history entry per changed entry, who may).

use crate::common;

use axum::http::{Method, StatusCode};
use common::world;
use serde_json::{json, Value};
use shared::domain::catalogue::Hundredths;
use shared::domain::Role;

fn invoiced(list: &Value) -> Vec<(String, bool)> {
    let mut v: Vec<(String, bool)> =
        list.as_array().unwrap().iter().map(|h| (h["id"].as_str().unwrap().to_string(), h["is_invoiced"].as_bool().unwrap())).collect();
    v.sort();
    v
}

fn expect(ids: &[&String], flags: &[bool]) -> Vec<(String, bool)> {
    let mut v: Vec<(String, bool)> = ids.iter().map(|s| s.to_string()).zip(flags.iter().copied()).collect();
    v.sort();
    v
}

#[tokio::test]
async fn mass_update_changes_exactly_the_named_entries_all_or_nothing() {
    let w = world().await;
    let sc = w.in_progress().await;
    let row = w.hours(&sc.cust, "10").await;
    let e1 = w.hour(&sc.lt, &sc.uid, "1").await;
    let e2 = w.hour(&sc.lt, &sc.uid, "0,5").await;
    let e3 = w.hour(&sc.lt, &sc.uid, "0,25").await;
    assert_eq!(w.consumed(row).await, Hundredths(175));
    let list = format!("/api/case/hour/list/?case={}", sc.uid);
    let hist =
        || async { w.state.store.case_history(&sc.uid).await.unwrap().into_iter().filter(|h| h.field == "hour").collect::<Vec<_>>() };
    assert_eq!(hist().await.len(), 3);
    let mass = |ids: Vec<&str>, v: bool| json!({"case_uid": sc.uid, "ids": ids, "is_invoiced": v});

    // The lawyer marks two of three invoiced.
    let (st, v) = w.call(Method::PUT, "/api/case/hour/mass-update/", &sc.lt, Some(mass(vec![&e1, &e2, &e1], true))).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v.as_array().unwrap().len(), 2);
    let (_, all) = w.call(Method::GET, &list, &sc.lt, None).await;
    assert_eq!(invoiced(&all), expect(&[&e1, &e2, &e3], &[true, true, false]));
    let h = hist().await;
    assert_eq!(h.len(), 5, "one history entry per changed entry");
    let bulk: Vec<_> = h.iter().filter(|e| e.after.as_deref().is_some_and(|a| a.ends_with("· invoiced"))).collect();
    assert_eq!(bulk.len(), 2);
    assert!(bulk.iter().all(|e| e.before.as_deref().unwrap().ends_with("· not invoiced") && e.by == sc.lawyer.uid));
    // Billable hours did not move.
    assert_eq!(w.consumed(row).await, Hundredths(175));

    // An id that is not on this case (unknown, or of another case): 404, nothing changes.
    let other = w.new_case(&sc.admin, &sc.cust).await;
    w.act(&sc.admin, &other, "publish").await;
    w.act(&sc.lt, &other, "accept").await;
    let foreign = w.hour(&sc.lt, &other, "0,5").await;
    for bad in [vec![e3.as_str(), "no-such-entry"], vec![e3.as_str(), foreign.as_str()]] {
        let (st, v) = w.call(Method::PUT, "/api/case/hour/mass-update/", &sc.lt, Some(mass(bad, true))).await;
        assert_eq!(st, StatusCode::NOT_FOUND, "{v}");
    }
    let (_, all) = w.call(Method::GET, &list, &sc.lt, None).await;
    assert_eq!(invoiced(&all), expect(&[&e1, &e2, &e3], &[true, true, false]));
    assert_eq!(hist().await.len(), 5);

    // Refused: the customer and a sales person (403), another lawyer (cannot see the case).
    let (_, sales) = w.user(Role::SalesPerson).await;
    let (_, other_lawyer) = w.user(Role::Lawyer).await;
    for (token, status) in [(&sc.ct, StatusCode::FORBIDDEN), (&sales, StatusCode::FORBIDDEN), (&other_lawyer, StatusCode::NOT_FOUND)] {
        let (st, v) = w.call(Method::PUT, "/api/case/hour/mass-update/", token, Some(mass(vec![&e3], true))).await;
        assert_eq!(st, status, "{v}");
    }
    let (_, all) = w.call(Method::GET, &list, &sc.lt, None).await;
    assert_eq!(invoiced(&all), expect(&[&e1, &e2, &e3], &[true, true, false]));

    // Admin may (for the assigned lawyer's entries).
    let (st, _) = w.call(Method::PUT, "/api/case/hour/mass-update/", &sc.admin, Some(mass(vec![&e1, &e3], false))).await;
    assert_eq!(st, StatusCode::OK);
    let (_, all) = w.call(Method::GET, &list, &sc.lt, None).await;
    assert_eq!(invoiced(&all), expect(&[&e1, &e2, &e3], &[false, true, false]));
    assert_eq!(hist().await.len(), 6, "e3 was already not invoiced: no history for it");

    // Bad requests.
    let (st, v) = w.call(Method::PUT, "/api/case/hour/mass-update/", &sc.lt, Some(mass(vec![], true))).await;
    assert_eq!((st, v["errors"]["ids"][0].as_str()), (StatusCode::BAD_REQUEST, Some("required")));
    let many: Vec<String> = (0..50).map(|i| format!("id-{i}")).collect();
    let (st, v) = w
        .call(Method::PUT, "/api/case/hour/mass-update/", &sc.lt, Some(json!({"case_uid": sc.uid, "ids": many, "is_invoiced": true})))
        .await;
    assert_eq!((st, v["errors"]["ids"][0].as_str()), (StatusCode::BAD_REQUEST, Some("too_many_entries")));
    let (st, v) = w.call(Method::PUT, "/api/case/hour/mass-update/", &sc.lt, Some(json!({"case_uid": sc.uid, "ids": [e1]}))).await;
    assert_eq!((st, v["errors"]["is_invoiced"][0].as_str()), (StatusCode::BAD_REQUEST, Some("required")));
    let (st, _) = w.call(Method::PUT, "/api/case/hour/mass-update/", &sc.lt, Some(json!({"case_uid": sc.uid, "ids": "x"}))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);

    // Closed case: the lawyer no longer changes entries, but admin still
    // invoices them (invoicing follows the work).
    assert_eq!(w.act(&sc.lt, &sc.uid, "complete").await, StatusCode::OK);
    let (st, v) = w.call(Method::PUT, "/api/case/hour/mass-update/", &sc.lt, Some(mass(vec![&e2], true))).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("case_not_in_progress")));
    let before = hist().await.len();
    let (_, was) = w.call(Method::GET, &list, &sc.admin, None).await;
    let flipping = invoiced(&was).iter().filter(|(id, f)| (id == &e1 || id == &e2) && !f).count();
    assert!(flipping > 0, "{was}");
    let (st, v) = w.call(Method::PUT, "/api/case/hour/mass-update/", &sc.admin, Some(mass(vec![&e1, &e2], true))).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(invoiced(&v), expect(&[&e1, &e2], &[true, true]));
    let (_, now) = w.call(Method::GET, &list, &sc.admin, None).await;
    // Both named entries are now invoiced (and both are there: a filter that
    // found none must not pass).
    let named: Vec<bool> = invoiced(&now).into_iter().filter(|(id, _)| id == &e1 || id == &e2).map(|(_, f)| f).collect();
    assert_eq!(named, vec![true, true]);
    assert_eq!(hist().await.len(), before + flipping);
    // 1,75 on this case and 0,5 on the other: the bulk changes moved nothing.
    assert_eq!(w.consumed(row).await, Hundredths(225));
}

#[tokio::test]
async fn one_entry_for_the_update_page() {
    let w = world().await;
    let sc = w.in_progress().await;
    w.hours(&sc.cust, "10").await;
    let e1 = w.hour(&sc.lt, &sc.uid, "1,5").await;
    let (st, v) = w.call(Method::GET, &format!("/api/case/hour/{e1}/?case={}", sc.uid), &sc.lt, None).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!((v["id"].as_str(), v["hour"].as_f64(), v["date"].as_str()), (Some(e1.as_str()), Some(1.5), Some("2026-03-02")));
    // The customer sees the case, so the entry; others do not; unknown ids are 404.
    assert_eq!(w.call(Method::GET, &format!("/api/case/hour/{e1}/?case={}", sc.uid), &sc.ct, None).await.0, StatusCode::OK);
    let (_, other_lawyer) = w.user(Role::Lawyer).await;
    assert_eq!(w.call(Method::GET, &format!("/api/case/hour/{e1}/?case={}", sc.uid), &other_lawyer, None).await.0, StatusCode::NOT_FOUND);
    assert_eq!(w.call(Method::GET, &format!("/api/case/hour/nope/?case={}", sc.uid), &sc.lt, None).await.0, StatusCode::NOT_FOUND);
    assert_eq!(w.call(Method::GET, &format!("/api/case/hour/{e1}/"), &sc.lt, None).await.0, StatusCode::BAD_REQUEST);
    // The static routes beside `{id}` still answer.
    let (st, list) = w.call(Method::GET, &format!("/api/case/hour/list/?case={}", sc.uid), &sc.lt, None).await;
    assert_eq!((st, list.as_array().map(|a| a.len())), (StatusCode::OK, Some(1)));
}

//! Writes done once although asked twice: the `Idempotency-Key` header on
//! the case function's creating calls.

use crate::common::{self, world};
use axum::http::{HeaderMap, Method, StatusCode};
use serde_json::{json, Value};
use shared::domain::catalogue::Hundredths;
use shared::testkit;

async fn keyed(w: &common::World, path: &str, token: &str, key: &str, body: Value) -> (StatusCode, HeaderMap, Value) {
    let (st, headers, bytes) =
        testkit::call_with_headers(&w.router, Method::POST, path, Some(token), Some(body), &[("Idempotency-Key", key)]).await;
    (st, headers, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

async fn entries(w: &common::World, token: &str, case: &str) -> Vec<Value> {
    let (st, list) = w.call(Method::GET, &format!("/api/case/hour/list/?case={case}"), token, None).await;
    assert_eq!(st, StatusCode::OK, "{list}");
    list.as_array().unwrap().clone()
}

#[tokio::test]
async fn an_answer_lost_after_the_commit_is_given_again_and_the_hours_are_booked_once() {
    let w = world().await;
    let sc = w.in_progress().await;
    let row = w.hours(&sc.cust, "10").await;
    let body = json!({"case_uid": sc.uid, "hour": "1,5", "date": "2026-03-02", "description": "Möte"});
    // The entry and its consumption commit, then the answer is lost.
    w.state.faults.arm("events.after_commit");
    let (st, _, lost) = keyed(&w, "/api/case/hour/create/", &sc.lt, "\"k-1\"", body.clone()).await;
    assert_eq!(st, StatusCode::INTERNAL_SERVER_ERROR, "{lost}");
    // The client's retry with the same key: the first answer, no second write.
    let (st, headers, first) = keyed(&w, "/api/case/hour/create/", &sc.lt, "\"k-1\"", body.clone()).await;
    assert_eq!(st, StatusCode::CREATED, "{first}");
    assert_eq!(headers["idempotent-replayed"], "true");
    assert_eq!(first["hour"], json!(1.5));
    let (st, _, again) = keyed(&w, "/api/case/hour/create/", &sc.lt, "\"k-1\"", body.clone()).await;
    assert_eq!((st, &again), (StatusCode::CREATED, &first));
    let list = entries(&w, &sc.lt, &sc.uid).await;
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["id"], first["id"]);
    assert_eq!(w.consumed(row).await, Hundredths(150), "one consumption");
    // Another key is another entry.
    let (st, headers, other) = keyed(&w, "/api/case/hour/create/", &sc.lt, "k-2", body).await;
    assert_eq!(st, StatusCode::CREATED, "{other}");
    assert!(headers.get("idempotent-replayed").is_none());
    assert_ne!(other["id"], first["id"]);
    assert_eq!(w.consumed(row).await, Hundredths(300));
}

#[tokio::test]
async fn a_key_used_again_for_another_request_answers_422_and_writes_nothing() {
    let w = world().await;
    let sc = w.in_progress().await;
    let row = w.hours(&sc.cust, "10").await;
    let body = |h: &str| json!({"case_uid": sc.uid, "hour": h, "date": "2026-03-02"});
    let (st, _, v) = keyed(&w, "/api/case/hour/create/", &sc.lt, "\"same\"", body("1")).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let (st, _, v) = keyed(&w, "/api/case/hour/create/", &sc.lt, "\"same\"", body("2")).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["message"], "idempotency_key_reused");
    assert_eq!(v["status"], 422);
    // The same key on another address is another request too.
    let note = json!({"case_uid": sc.uid, "note": "Ringde motparten."});
    let (st, _, v) = keyed(&w, "/api/case/lawyer/note/", &sc.lt, "\"same\"", note.clone()).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("idempotency_key_reused")));
    assert_eq!(entries(&w, &sc.lt, &sc.uid).await.len(), 1);
    assert_eq!(w.consumed(row).await, Hundredths(100));
    // A key is the caller's own: another user's same key is a new request.
    let (st, _, v) = keyed(&w, "/api/case/lawyer/note/", &sc.admin, "\"same\"", note).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    // An unusable key is refused before anything is read.
    let (st, _, v) = keyed(&w, "/api/case/hour/create/", &sc.lt, "\"\"", body("1")).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(testkit::field(&v, "Idempotency-Key"), ["invalid"]);
    assert_eq!(entries(&w, &sc.lt, &sc.uid).await.len(), 1);
}

#[tokio::test]
async fn the_same_request_sent_several_times_at_once_is_done_once() {
    let w = world().await;
    let sc = w.in_progress().await;
    let row = w.hours(&sc.cust, "10").await;
    let body = json!({"case_uid": sc.uid, "hour": "0,5", "date": "2026-03-02"});
    let mut tasks = Vec::new();
    for _ in 0..6 {
        let (router, token, body) = (w.router.clone(), sc.lt.clone(), body.clone());
        tasks.push(tokio::spawn(async move {
            let (st, _, bytes) = testkit::call_with_headers(
                &router,
                Method::POST,
                "/api/case/hour/create/",
                Some(&token),
                Some(body),
                &[("Idempotency-Key", "\"burst\"")],
            )
            .await;
            (st, serde_json::from_slice::<Value>(&bytes).unwrap_or(Value::Null))
        }));
    }
    let mut ids = std::collections::BTreeSet::new();
    for t in tasks {
        let (st, v) = t.await.unwrap();
        assert_eq!(st, StatusCode::CREATED, "{v}");
        ids.insert(v["id"].as_str().unwrap().to_string());
    }
    assert_eq!(ids.len(), 1, "every answer names the one entry");
    assert_eq!(entries(&w, &sc.lt, &sc.uid).await.len(), 1);
    assert_eq!(w.consumed(row).await, Hundredths(50));
}

#[tokio::test]
async fn cases_notes_and_additional_hours_are_created_once_per_key() {
    let w = world().await;
    let sc = w.in_progress().await;
    // A case.
    let mut form = w.form("Idempotent case");
    form["customer"] = json!(sc.cust.uid);
    let (st, _, first) = keyed(&w, "/api/case/create/", &sc.admin, "\"case-1\"", form.clone()).await;
    assert_eq!(st, StatusCode::CREATED, "{first}");
    let (st, _, again) = keyed(&w, "/api/case/create/", &sc.admin, "\"case-1\"", form).await;
    assert_eq!((st, &again), (StatusCode::CREATED, &first));
    let (_, list) = w.call(Method::GET, "/api/case/list/?status=all&search=Idempotent", &sc.admin, None).await;
    let count = list["results"].as_array().map(|r| r.iter().filter(|c| c["subject"] == "Idempotent case").count());
    assert_eq!(count, Some(1), "{list}");
    // A note.
    let note = json!({"case_uid": sc.uid, "note": "Ringde motparten."});
    for _ in 0..2 {
        let (st, _, v) = keyed(&w, "/api/case/lawyer/note/", &sc.lt, "\"note-1\"", note.clone()).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
    }
    let (_, notes) = w.call(Method::GET, &format!("/api/case/lawyer/note/?case={}", sc.uid), &sc.lt, None).await;
    assert_eq!(notes.as_array().map(Vec::len), Some(1), "{notes}");
    // Additional hours.
    let add = json!({"case_uid": sc.uid, "month": "2026-02", "total_hour": "3", "description": "Research"});
    for _ in 0..2 {
        let (st, _, v) = keyed(&w, "/api/case/additional_hour/create/", &sc.lt, "\"add-1\"", add.clone()).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
    }
    let (_, adds) = w.call(Method::GET, &format!("/api/case/additional_hour/list/?case={}", sc.uid), &sc.lt, None).await;
    assert_eq!(adds.as_array().map(Vec::len), Some(1), "{adds}");
}

//! Following a case (spec §3: a contact without "view all cases" sees the
//! cases it created or follows): who may add and remove followers, what a
//! follower then sees and hears, one transaction per change.

use crate::common::world;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use shared::domain::notification::Category;
use shared::domain::{Permission, Role};
use shared::testkit;

fn uids(v: &Value) -> Vec<String> {
    v["results"].as_array().unwrap().iter().map(|c| c["uid"].as_str().unwrap().to_string()).collect()
}

fn names(v: &Value, list: &str) -> Vec<String> {
    v[list].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap().to_string()).collect()
}

async fn follower_lines(w: &crate::common::World, token: &str, case: &str) -> Vec<(Value, Value)> {
    let (st, h) = w.call(Method::GET, &format!("/api/case/history/{case}/"), token, None).await;
    assert_eq!(st, StatusCode::OK, "{h}");
    h.as_array().unwrap().iter().filter(|e| e["field"] == "follower").map(|e| (e["before"].clone(), e["after"].clone())).collect()
}

async fn case_notifications(w: &crate::common::World, reader: &str) -> Vec<String> {
    let page = w.state.store.notifications(reader, &[Category::Case], 0, 50).await.unwrap();
    page.results.iter().map(|n| serde_json::to_value(n.verb).unwrap().as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn a_contact_without_view_all_sees_a_case_it_follows_until_taken_off() {
    let w = world().await;
    let sc = w.in_progress().await;
    let (contact, ct) = w.contact_of(&sc.cust, vec![Permission::ChatInCases]).await;
    let path = format!("/api/case/followers/{}/", sc.uid);
    // Before: not in its list, not readable.
    assert!(uids(&w.call(Method::GET, "/api/case/list/?status=all", &ct, None).await.1).is_empty());
    assert_eq!(w.call(Method::GET, &format!("/api/case/{}/", sc.uid), &ct, None).await.0, StatusCode::NOT_FOUND);
    assert_eq!(w.call(Method::GET, &path, &ct, None).await.0, StatusCode::NOT_FOUND);

    // The customer sees its contact among those it may add.
    let (st, f) = w.call(Method::GET, &path, &sc.ct, None).await;
    assert_eq!(st, StatusCode::OK, "{f}");
    assert_eq!((f["can_manage"].as_bool(), f["following"].as_bool()), (Some(true), Some(false)));
    assert!(names(&f, "followers").is_empty());
    assert_eq!(f["candidates"][0]["uid"], json!(contact.uid));

    let (st, added) = w.call(Method::POST, &path, &sc.ct, Some(json!({"user": contact.uid}))).await;
    assert_eq!(st, StatusCode::CREATED, "{added}");
    assert_eq!(added, json!({"uid": contact.uid, "name": contact.full_name()}));
    // Added again: the same answer, nothing written twice.
    let (st, again) = w.call(Method::POST, &path, &sc.ct, Some(json!({"user": contact.uid}))).await;
    assert_eq!((st, &again), (StatusCode::CREATED, &added));
    assert_eq!(follower_lines(&w, &sc.ct, &sc.uid).await, [(Value::Null, json!(contact.full_name()))], "one history line");
    assert_eq!(case_notifications(&w, &contact.uid).await, ["case_followed"], "the follower is told once");

    // The contact now reads it in its list (every tab that holds the status) and its details.
    let (_, all) = w.call(Method::GET, "/api/case/list/?status=all", &ct, None).await;
    assert_eq!(uids(&all), vec![sc.uid.clone()]);
    assert_eq!(uids(&w.call(Method::GET, "/api/case/list/?status=active", &ct, None).await.1), vec![sc.uid.clone()]);
    assert!(uids(&w.call(Method::GET, "/api/case/list/?status=closed", &ct, None).await.1).is_empty());
    let (st, d) = w.call(Method::GET, &format!("/api/case/{}/", sc.uid), &ct, None).await;
    assert_eq!(st, StatusCode::OK, "{d}");
    let (_, f) = w.call(Method::GET, &path, &ct, None).await;
    assert_eq!((f["can_manage"].as_bool(), f["following"].as_bool()), (Some(false), Some(true)), "{f}");
    assert_eq!(names(&f, "followers"), [contact.full_name()]);
    assert!(f["candidates"].as_array().unwrap().is_empty(), "only who may manage gets candidates");

    // It hears of the case like its customer: hours logged → a notification and a mail.
    w.hours(&sc.cust, "10").await;
    w.hour(&sc.lt, &sc.uid, "1").await;
    assert_eq!(case_notifications(&w, &contact.uid).await, ["hours_logged", "case_followed"]);
    let mails = w.state.mail.outbox().map(|o| o.lock().unwrap().iter().filter(|m| m.to == contact.email).count()).unwrap_or(0);
    assert_eq!(mails, 1, "the follower gets the case's event mail");

    // Taken off by the customer: gone from its list and details, one history line.
    let (st, v) = w.call(Method::DELETE, &format!("{path}{}/", contact.uid), &sc.ct, None).await;
    assert_eq!(st, StatusCode::NO_CONTENT, "{v}");
    assert!(uids(&w.call(Method::GET, "/api/case/list/?status=all", &ct, None).await.1).is_empty());
    assert_eq!(w.call(Method::GET, &format!("/api/case/{}/", sc.uid), &ct, None).await.0, StatusCode::NOT_FOUND);
    assert_eq!(
        follower_lines(&w, &sc.ct, &sc.uid).await,
        [(Value::Null, json!(contact.full_name())), (json!(contact.full_name()), Value::Null)]
    );
    // Again: nothing to take off, nothing written.
    assert_eq!(w.call(Method::DELETE, &format!("{path}{}/", contact.uid), &sc.ct, None).await.0, StatusCode::NO_CONTENT);
    assert_eq!(follower_lines(&w, &sc.ct, &sc.uid).await.len(), 2);
}

#[tokio::test]
async fn who_may_add_and_remove_followers() {
    let w = world().await;
    let sc = w.in_progress().await;
    let path = format!("/api/case/followers/{}/", sc.uid);
    let (a, at) = w.contact_of(&sc.cust, vec![]).await;
    let (b, bt) = w.contact_of(&sc.cust, vec![]).await;
    let (_, all_t) = w.contact_of(&sc.cust, vec![Permission::ViewAllCases]).await;
    let add = |token: String, user: String| {
        let (w, path) = (&w, path.clone());
        async move { w.call(Method::POST, &path, &token, Some(json!({"user": user}))).await }
    };
    // The case's lawyer may; a contact with view-all may.
    assert_eq!(add(sc.lt.clone(), a.uid.clone()).await.0, StatusCode::CREATED);
    assert_eq!(add(all_t.clone(), b.uid.clone()).await.0, StatusCode::CREATED);
    // A follower that neither created the case nor sees all may not bring in others nor take them off ...
    let (third, _) = w.contact_of(&sc.cust, vec![]).await;
    let (st, v) = add(at.clone(), third.uid.clone()).await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    assert_eq!(w.call(Method::DELETE, &format!("{path}{}/", b.uid), &at, None).await.0, StatusCode::FORBIDDEN);
    // ... but may stop following itself.
    assert_eq!(w.call(Method::DELETE, &format!("{path}{}/", a.uid), &at, None).await.0, StatusCode::NO_CONTENT);
    assert_eq!(w.call(Method::GET, &format!("/api/case/{}/", sc.uid), &at, None).await.0, StatusCode::NOT_FOUND);
    let (_, f) = w.call(Method::GET, &path, &bt, None).await;
    assert_eq!(names(&f, "followers"), [b.full_name()]);
    // Another lawyer does not see the case: 404.
    let (_, other_lawyer) = w.user(Role::Lawyer).await;
    assert_eq!(add(other_lawyer, a.uid.clone()).await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn only_the_case_companys_users_can_follow() {
    let w = world().await;
    let sc = w.in_progress().await;
    let path = format!("/api/case/followers/{}/", sc.uid);
    let (other_cust, other_ct) = w.user(Role::Customer).await;
    let (stranger, _) = w.contact_of(&other_cust, vec![Permission::ViewAllCases]).await;
    let (lawyer2, _) = w.user(Role::Lawyer).await;
    // Another company's contact, a lawyer, an unknown uid: none exists for this case.
    for who in [stranger.uid.clone(), lawyer2.uid.clone(), other_cust.uid.clone(), "not-a-user".to_string()] {
        let (st, v) = w.call(Method::POST, &path, &sc.ct, Some(json!({"user": who}))).await;
        assert_eq!(st, StatusCode::NOT_FOUND, "{who}: {v}");
    }
    // Nobody named: refused naming the field.
    let (st, v) = w.call(Method::POST, &path, &sc.ct, Some(json!({"user": " "}))).await;
    assert_eq!((st, v["errors"]["user"][0].as_str()), (StatusCode::BAD_REQUEST, Some("required")), "{v}");
    // Another company cannot touch the case at all.
    assert_eq!(w.call(Method::GET, &path, &other_ct, None).await.0, StatusCode::NOT_FOUND);
    let (contact, _) = w.contact_of(&sc.cust, vec![]).await;
    assert_eq!(w.call(Method::POST, &path, &other_ct, Some(json!({"user": contact.uid}))).await.0, StatusCode::NOT_FOUND);
    let (st, f) = w.call(Method::GET, &path, &sc.ct, None).await;
    assert_eq!(st, StatusCode::OK);
    assert!(names(&f, "followers").is_empty(), "{f}");
    assert!(f["candidates"].as_array().unwrap().iter().all(|c| c["uid"] != json!(stranger.uid)));
}

#[tokio::test]
async fn adding_a_follower_is_one_transaction_and_once_per_key() {
    let w = world().await;
    let sc = w.in_progress().await;
    let (contact, ct) = w.contact_of(&sc.cust, vec![]).await;
    let path = format!("/api/case/followers/{}/", sc.uid);
    let body = json!({"user": contact.uid});
    // A stop before the commit: neither the follower, nor its history line, nor its notification.
    w.state.faults.arm("events.before_commit");
    let (st, _) = w.call(Method::POST, &path, &sc.ct, Some(body.clone())).await;
    assert_eq!(st, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(follower_lines(&w, &sc.ct, &sc.uid).await.is_empty());
    assert!(case_notifications(&w, &contact.uid).await.is_empty());
    assert_eq!(w.call(Method::GET, &format!("/api/case/{}/", sc.uid), &ct, None).await.0, StatusCode::NOT_FOUND);
    // The answer lost after the commit: the retry with the same key gets the first answer.
    w.state.faults.arm("events.after_commit");
    let keyed = |key: &'static str| {
        let (w, path, body, token) = (&w, path.clone(), body.clone(), sc.ct.clone());
        async move {
            let (st, h, b) =
                testkit::call_with_headers(&w.router, Method::POST, &path, Some(&token), Some(body), &[("Idempotency-Key", key)]).await;
            (st, h, serde_json::from_slice::<Value>(&b).unwrap_or(Value::Null))
        }
    };
    assert_eq!(keyed("\"f-1\"").await.0, StatusCode::INTERNAL_SERVER_ERROR);
    let (st, headers, first) = keyed("\"f-1\"").await;
    assert_eq!(st, StatusCode::CREATED, "{first}");
    assert_eq!(headers["idempotent-replayed"], "true");
    assert_eq!(first["uid"], json!(contact.uid));
    assert_eq!(follower_lines(&w, &sc.ct, &sc.uid).await.len(), 1);
    assert_eq!(case_notifications(&w, &contact.uid).await, ["case_followed"]);
    assert_eq!(w.call(Method::GET, &format!("/api/case/{}/", sc.uid), &ct, None).await.0, StatusCode::OK);
}

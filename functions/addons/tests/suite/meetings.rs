//! Video meetings against the local stand-ins (AWS and
//! providers), each test on its own table and provider stand-in: the lawyer
//! offers times, the customer books one (once, under parallel requests;
//! within the plan's limit), either side cancels, provider failures store
//! nothing, and who may do what on the server.

use crate::world::{key, world, World};
use axum::http::{Method, StatusCode};
use chrono::{Duration, DurationRound, Utc};
use serde_json::json;
use shared::domain::case::{Case, CaseStatus, CaseType};
use shared::domain::catalogue::VIDEO_MEETING;
use shared::domain::{Role, User};
use shared::testkit;

/// A whole minute `hours` from now, as RFC 3339.
fn ahead(hours: i64) -> String {
    (Utc::now() + Duration::hours(hours)).duration_trunc(Duration::minutes(1)).unwrap().to_rfc3339()
}

impl World {
    /// A case of `customer` in progress with `lawyer` (written as the case use cases would leave it).
    async fn case(&self, customer: &User, lawyer: &User) -> String {
        let uid = uuid::Uuid::new_v4().simple().to_string();
        let draft = Case::draft(
            uid.clone(),
            format!("2026-{}", &uid[..6]),
            customer.uid.clone(),
            "Kund AB".into(),
            CaseType { id: 1, name: "Avtal".into(), name_en: None },
            customer.uid.clone(),
            Utc::now(),
        );
        let case = Case {
            status: CaseStatus::Inprogress,
            lawyer: Some(lawyer.uid.clone()),
            lawyer_name: Some(lawyer.full_name()),
            subject: "Hyresavtal".into(),
            ..draft
        };
        let mut tx = self.state.store.tx();
        self.state.store.add_case_write(&mut tx, None, &case).unwrap();
        assert!(self.state.store.commit(tx).await.unwrap());
        uid
    }

    async fn offer(&self, lawyer: &str, hours: i64, minutes: u32) -> String {
        let v =
            self.ok(Method::POST, "/api/lawyer/video-meetings/", lawyer, Some(json!({"start": ahead(hours), "minutes": minutes}))).await;
        v["uid"].as_str().unwrap().to_string()
    }

    /// The verbs of `user`'s notifications, as JSON writes them.
    async fn notifications(&self, user: &User) -> Vec<String> {
        let list = shared::services::notifications::list(&self.state, user, None, 0, 10, None).await.unwrap();
        list.results.iter().map(|n| serde_json::to_value(n.verb).unwrap().as_str().unwrap().to_string()).collect()
    }
}

#[tokio::test]
async fn a_lawyer_offers_a_customer_books_and_either_side_cancels() {
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let (lawyer, lt) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let (_, other_lawyer) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let row = w.plan(&cust, VIDEO_MEETING, 5).await;
    let case = w.case(&cust, &lawyer).await;

    // Offering: lengths, bounds and overlaps are checked on the server.
    let slot = w.offer(&lt, 24, 60).await;
    let (st, v) = w.call(Method::POST, "/api/lawyer/video-meetings/", &lt, Some(json!({"start": ahead(24), "minutes": 30}))).await;
    assert_eq!((st, v["errors"]["start"][0].as_str()), (StatusCode::BAD_REQUEST, Some("slot_overlaps")));
    let (st, v) = w.call(Method::POST, "/api/lawyer/video-meetings/", &lt, Some(json!({"start": ahead(24 * 91), "minutes": 30}))).await;
    assert_eq!((st, v["errors"]["start"][0].as_str()), (StatusCode::BAD_REQUEST, Some("invalid")));
    let (st, _) = w.call(Method::POST, "/api/lawyer/video-meetings/", &lt, Some(json!({"start": ahead(30), "minutes": 50}))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    let spare = w.offer(&lt, 48, 30).await;
    // Another lawyer's slots are not this lawyer's to see or remove.
    assert_eq!(w.ok(Method::GET, "/api/lawyer/video-meetings/", &other_lawyer, None).await, json!([]));
    assert_eq!(w.call(Method::DELETE, &format!("/api/lawyer/video-meetings/{spare}/"), &ct, None).await.0, StatusCode::FORBIDDEN);

    // The customer sees the case and the free times of its lawyer.
    let cases = w.ok(Method::GET, "/api/services/video-meeting/cases/", &ct, None).await;
    assert_eq!(cases[0]["uid"], case.as_str());
    let free = w.ok(Method::GET, &format!("/api/services/video-meeting/cases/{case}/slots/"), &ct, None).await;
    assert_eq!(free.as_array().unwrap().len(), 2);

    let request_id = uuid::Uuid::new_v4().simple().to_string();
    let booking = json!({"case_uid": case, "slot_uid": slot, "request_id": request_id});
    let m = w.ok(Method::POST, "/api/services/video-meeting/", &ct, Some(booking.clone())).await;
    assert!(m["room_url"].as_str().unwrap().starts_with("https://meet.example.test/"), "{m}");
    // A retried request answers the same meeting: one room, one use.
    let again = w.ok(Method::POST, "/api/services/video-meeting/", &ct, Some(booking)).await;
    assert_eq!((again["uid"].clone(), again["room_url"].clone()), (m["uid"].clone(), m["room_url"].clone()));
    assert_eq!(w.consumed(row).await, 1);
    let ledger = w.state.store.list_usage(row, Utc::now().date_naive(), Utc::now().date_naive()).await.unwrap();
    assert_eq!(ledger.len(), 1);
    assert!(ledger[0].description.starts_with("Video meeting: "), "{:?}", ledger[0]);
    // The lawyer sees it booked and is told; the slot is no longer free.
    let mine = w.ok(Method::GET, "/api/lawyer/video-meetings/", &lt, None).await;
    assert_eq!(mine[0]["meeting"]["uid"], m["uid"]);
    assert!(w.notifications(&lawyer).await.contains(&"meeting_booked".to_string()));
    let free = w.ok(Method::GET, &format!("/api/services/video-meeting/cases/{case}/slots/"), &ct, None).await;
    assert_eq!(free.as_array().unwrap().len(), 1);
    // A booked slot is not removed; the free one is.
    let (st, v) = w.call(Method::DELETE, &format!("/api/lawyer/video-meetings/{slot}/"), &lt, None).await;
    assert_eq!((st, key(&v)), (StatusCode::BAD_REQUEST, "slot_taken".into()));
    assert_eq!(w.call(Method::DELETE, &format!("/api/lawyer/video-meetings/{spare}/"), &lt, None).await.0, StatusCode::NO_CONTENT);

    // The customer cancels: the time is free again, the lawyer is told.
    let uid = m["uid"].as_str().unwrap();
    w.ok(Method::POST, &format!("/api/services/video-meeting/{uid}/cancel/"), &ct, None).await;
    assert_eq!(w.ok(Method::GET, "/api/services/video-meeting/", &ct, None).await, json!([]));
    let free = w.ok(Method::GET, &format!("/api/services/video-meeting/cases/{case}/slots/"), &ct, None).await;
    assert_eq!(free[0]["uid"], slot.as_str());
    assert!(w.notifications(&lawyer).await.contains(&"meeting_cancelled".to_string()));

    // Booked again; the lawyer cancels this time and the customer is told.
    let m = w.ok(Method::POST, "/api/services/video-meeting/", &ct, Some(json!({"case_uid": case, "slot_uid": slot}))).await;
    let (st, _) = w.call(Method::POST, &format!("/api/lawyer/video-meetings/{slot}/cancel/"), &other_lawyer, None).await;
    assert_eq!(st, StatusCode::NOT_FOUND, "another lawyer's slot is not found under their own");
    w.ok(Method::POST, &format!("/api/lawyer/video-meetings/{slot}/cancel/"), &lt, None).await;
    assert!(w.state.store.meeting(&cust.uid, m["uid"].as_str().unwrap()).await.unwrap().is_none());
    assert!(w.notifications(&cust).await.contains(&"meeting_cancelled".to_string()));
    assert_eq!(w.consumed(row).await, 2, "each booking counts one use");
}

#[tokio::test]
async fn parallel_bookings_of_one_slot_make_one_meeting() {
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let (lawyer, lt) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let row = w.plan(&cust, VIDEO_MEETING, 50).await;
    let case = w.case(&cust, &lawyer).await;
    let slot = w.offer(&lt, 26, 30).await;
    let customer = cust.uid.clone();
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let (app, ct, case, slot) = (w.app.clone(), ct.clone(), case.clone(), slot.clone());
        tasks.push(tokio::spawn(async move {
            testkit::call(&app, Method::POST, "/api/services/video-meeting/", Some(&ct), Some(json!({"case_uid": case, "slot_uid": slot})))
                .await
        }));
    }
    let mut won = 0;
    for t in tasks {
        let (st, v) = t.await.unwrap();
        match st {
            StatusCode::CREATED => won += 1,
            _ => assert_eq!(key(&v), "slot_taken", "{st} {v}"),
        }
    }
    assert_eq!(won, 1);
    assert_eq!(w.state.store.meetings(&customer).await.unwrap().len(), 1);
    assert_eq!(w.consumed(row).await, 1, "only the winner's use is counted");
}

#[tokio::test]
async fn the_limit_is_exact_under_parallel_bookings() {
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let (lawyer, lt) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let row = w.plan(&cust, VIDEO_MEETING, 3).await;
    let case = w.case(&cust, &lawyer).await;
    let mut slots = Vec::new();
    for i in 0..8 {
        slots.push(w.offer(&lt, 30 + i * 2, 30).await);
    }
    let mut tasks = Vec::new();
    for slot in slots {
        let (app, ct, case) = (w.app.clone(), ct.clone(), case.clone());
        tasks.push(tokio::spawn(async move {
            testkit::call(&app, Method::POST, "/api/services/video-meeting/", Some(&ct), Some(json!({"case_uid": case, "slot_uid": slot})))
                .await
        }));
    }
    let (mut won, mut refused) = (0, 0);
    for t in tasks {
        let (st, v) = t.await.unwrap();
        match st {
            StatusCode::CREATED => won += 1,
            _ => {
                assert_eq!(key(&v), "limit_reached", "{st} {v}");
                refused += 1;
            }
        }
    }
    assert_eq!((won, refused), (3, 5));
    assert_eq!(w.consumed(row).await, 3);
    assert_eq!(w.state.store.meetings(&cust.uid).await.unwrap().len(), 3);
    let booked = w.ok(Method::GET, "/api/lawyer/video-meetings/", &lt, None).await;
    assert_eq!(booked.as_array().unwrap().iter().filter(|s| !s["meeting"].is_null()).count(), 3);
}

#[tokio::test]
async fn provider_failures_store_nothing() {
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let (lawyer, lt) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let row = w.plan(&cust, VIDEO_MEETING, 5).await;
    let case = w.case(&cust, &lawyer).await;
    let slot = w.offer(&lt, 25, 45).await;
    let body = json!({"case_uid": case, "slot_uid": slot});
    for (fail, expected) in [("5xx", "provider_unavailable"), ("malformed", "provider_bad_answer"), ("timeout", "provider_timeout")] {
        w.script(fail, 3).await;
        let (st, v) = w.call(Method::POST, "/api/services/video-meeting/", &ct, Some(body.clone())).await;
        assert_eq!((st, key(&v)), (StatusCode::BAD_GATEWAY, expected.to_string()), "{fail}");
        assert!(w.state.store.meetings(&cust.uid).await.unwrap().is_empty(), "{fail}");
        assert_eq!(w.consumed(row).await, 0, "{fail}");
        let slots = w.ok(Method::GET, "/api/lawyer/video-meetings/", &lt, None).await;
        assert!(slots[0]["meeting"].is_null(), "{fail}");
        w.script("5xx", 0).await;
    }
    // A cancel the provider fails keeps the meeting as it was.
    let m = w.ok(Method::POST, "/api/services/video-meeting/", &ct, Some(body)).await;
    w.script("5xx", 3).await;
    let (st, v) = w.call(Method::POST, &format!("/api/services/video-meeting/{}/cancel/", m["uid"].as_str().unwrap()), &ct, None).await;
    assert_eq!((st, key(&v)), (StatusCode::BAD_GATEWAY, "provider_unavailable".into()));
    assert_eq!(w.ok(Method::GET, "/api/services/video-meeting/", &ct, None).await[0]["uid"], m["uid"]);
}

#[tokio::test]
async fn who_may_book_on_the_server() {
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let (other, ot) = testkit::signed_in(&w.state, Role::Customer).await;
    let (lawyer, lt) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let (_, sales) = testkit::signed_in(&w.state, Role::SalesPerson).await;
    let case = w.case(&cust, &lawyer).await;
    let slot = w.offer(&lt, 27, 30).await;
    let body = json!({"case_uid": case, "slot_uid": slot});

    // Without the service: the promotion, for the customer and its contact alike.
    let contact = w.contact_of(&cust, vec![shared::domain::Permission::ViewAllCases]).await.1;
    for t in [&ct, &contact] {
        let (st, v) = w.call(Method::POST, "/api/services/video-meeting/", t, Some(body.clone())).await;
        assert_eq!((st, key(&v)), (StatusCode::FORBIDDEN, "service_not_purchased".into()));
        let (st, v) = w.call(Method::GET, "/api/services/video-meeting/cases/", t, None).await;
        assert_eq!((st, key(&v)), (StatusCode::FORBIDDEN, "service_not_purchased".into()));
    }
    // Staff do not book; a lawyer's slot list is theirs (admin names the lawyer).
    assert_eq!(w.call(Method::POST, "/api/services/video-meeting/", &lt, Some(body.clone())).await.0, StatusCode::FORBIDDEN);
    assert_eq!(w.call(Method::GET, "/api/lawyer/video-meetings/", &sales, None).await.0, StatusCode::FORBIDDEN);
    assert_eq!(
        w.call(Method::POST, "/api/lawyer/video-meetings/", &ct, Some(json!({"start": ahead(40), "minutes": 30}))).await.0,
        StatusCode::FORBIDDEN
    );
    // Found by the fuzz: admin naming no lawyer is 404, which the document lists.
    let (_, at) = testkit::signed_in(&w.state, Role::Admin).await;
    let offer = json!({"start": ahead(40), "minutes": 30});
    let (st, v) = w.call(Method::POST, "/api/lawyer/video-meetings/?lawyer=no-such-lawyer", &at, Some(offer)).await;
    assert_eq!((st, key(&v)), (StatusCode::NOT_FOUND, "not_found".into()));
    let doc = serde_json::to_value(addons::api().split_for_parts().1).unwrap();
    assert!(doc["paths"]["/api/lawyer/video-meetings/"]["post"]["responses"].get("404").is_some());

    w.plan(&cust, VIDEO_MEETING, 5).await;
    w.plan(&other, VIDEO_MEETING, 5).await;
    // Another customer cannot book on this customer's case.
    assert_eq!(w.call(Method::POST, "/api/services/video-meeting/", &ot, Some(body.clone())).await.0, StatusCode::NOT_FOUND);
    assert_eq!(w.call(Method::GET, &format!("/api/services/video-meeting/cases/{case}/slots/"), &ot, None).await.0, StatusCode::NOT_FOUND);
    // The contact needs no permission of its own (spec §5 names none for video meetings).
    let m = w.ok(Method::POST, "/api/services/video-meeting/", &contact, Some(body.clone())).await;
    // Another customer cannot cancel it; the customer can.
    let uid = m["uid"].as_str().unwrap();
    assert_eq!(w.call(Method::POST, &format!("/api/services/video-meeting/{uid}/cancel/"), &ot, None).await.0, StatusCode::NOT_FOUND);
    w.ok(Method::POST, &format!("/api/services/video-meeting/{uid}/cancel/"), &ct, None).await;
    // A case without a lawyer offers no times.
    let mut waiting = w.state.store.get_case(&case).await.unwrap().unwrap();
    waiting.case.status = CaseStatus::Waiting;
    let mut tx = w.state.store.tx();
    let before = waiting.case.clone();
    waiting.case.lawyer = None;
    w.state.store.add_case_write(&mut tx, Some((&before, waiting.rev)), &waiting.case).unwrap();
    assert!(w.state.store.commit(tx).await.unwrap());
    let (st, v) = w.call(Method::GET, &format!("/api/services/video-meeting/cases/{case}/slots/"), &ct, None).await;
    assert_eq!((st, key(&v)), (StatusCode::BAD_REQUEST, "no_lawyer_found".into()));
}

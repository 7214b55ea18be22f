//! Conflict search against the local stand-in: who may search, what is found
//! through the index, and the audit trail.

use axum::http::{Method, StatusCode};
use shared::domain::conflict::PartyKind;
use shared::domain::Role;
use shared::store::conflict::Party;
use shared::testkit::{call, services, signed_in as account};

fn party(kind: PartyKind, uid: &str, name: &str, id: Option<&str>) -> Party {
    Party { kind, uid: uid.into(), name: name.into(), identity_number: id.map(str::to_string), customer_uid: None, context: None }
}

#[tokio::test]
async fn admin_and_lawyers_find_misspelt_parties_and_every_search_is_audited() {
    let s = services().await;
    let router = shared::api::finish(conflict_search::api(), s.clone());
    let (_, admin) = account(&s, Role::Admin).await;
    let (_, lawyer) = account(&s, Role::Lawyer).await;
    for p in [
        party(PartyKind::Company, "c1", "Söderberg & Partners AB", Some("556677-8899")),
        party(PartyKind::ContactPerson, "p1", "Karl Carlsson", None),
        party(PartyKind::Counterpart, "k1", "Ronjon Arrowsmith", None),
        party(PartyKind::Customer, "u1", "Anna Lindqvist", Some("19811218-9876")),
    ] {
        shared::testkit::index_party(&s, &p).await;
    }

    let (st, body) = call(&router, Method::GET, "/api/search/fuzzy/?search=Soderberg%20och%20Partners", Some(&admin), None).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["count"], 1, "{body}");
    assert_eq!(body["results"][0]["party"]["uid"], "c1");
    assert_eq!(body["results"][0]["words"][0]["matched"], "soderberg");

    // Reversed names, nickname + sound-alike surname, identity number without dash.
    for (q, uid) in [("lindkvist%20anna", "u1"), ("Kalle%20Karlson", "p1"), ("5566778899", "c1"), ("811218-9876", "u1")] {
        let (st, body) = call(&router, Method::GET, &format!("/api/search/fuzzy/?search={q}"), Some(&lawyer), None).await;
        assert_eq!(st, StatusCode::OK);
        assert_eq!(body["results"][0]["party"]["uid"], uid, "{q}: {body}");
    }
    let (_, body) = call(&router, Method::GET, "/api/search/fuzzy/?search=Jon%20Smith", Some(&lawyer), None).await;
    assert_eq!(body["count"], 0, "{body}");

    // Other transliterations, company forms written out and VAT numbers are
    // found, each with why it matched.
    shared::testkit::index_party(&s, &party(PartyKind::Counterpart, "k2", "Ahmad Hasan", None)).await;
    shared::testkit::index_party(&s, &party(PartyKind::Company, "c2", "Fastighetsaktiebolaget Balder", None)).await;
    shared::testkit::index_party(&s, &party(PartyKind::Company, "c3", "Telefonaktiebolaget LM Ericsson", Some("556016-0680"))).await;
    shared::testkit::index_party(&s, &party(PartyKind::Counterpart, "k3", "Omar Al-Hassan", None)).await;
    for (q, uid, reasons) in [
        ("Ahmed%20Hassan", "k2", serde_json::json!(["spelled_differently"])),
        ("Fastighets%20AB%20Balder", "c2", serde_json::json!(["same_name"])),
        ("SE556016068001", "c3", serde_json::json!(["same_number"])),
        ("Ericsson", "c3", serde_json::json!(["same_name", "company_form_ignored", "more_words_in_name"])),
        ("Omar%20Alhassan", "k3", serde_json::json!(["same_name"])),
        ("Hassan%20Omar", "k3", serde_json::json!(["spelled_differently", "name_order"])),
    ] {
        let (st, body) = call(&router, Method::GET, &format!("/api/search/fuzzy/?search={q}"), Some(&lawyer), None).await;
        assert_eq!(st, StatusCode::OK);
        assert_eq!(body["count"], 1, "{q}: {body}");
        assert_eq!(body["results"][0]["party"]["uid"], uid, "{q}: {body}");
        assert_eq!(body["results"][0]["reasons"], reasons, "{q}: {body}");
    }
    // A number with a wrong check digit is never a hit: the user is told.
    let (st, body) = call(&router, Method::GET, "/api/search/fuzzy/?search=556016-0681", Some(&lawyer), None).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(body["errors"]["search"][0], "invalid_identity_number", "{body}");

    // A renamed party loses its old keys.
    shared::testkit::index_party(&s, &party(PartyKind::ContactPerson, "p1", "Berit Holm", None)).await;
    let (_, body) = call(&router, Method::GET, "/api/search/fuzzy/?search=Karl%20Carlsson", Some(&admin), None).await;
    assert_eq!(body["count"], 0, "{body}");

    let (st, body) = call(&router, Method::GET, "/api/search/fuzzy/audit/", Some(&admin), None).await;
    assert_eq!(st, StatusCode::OK);
    let results = body["results"].as_array().unwrap();
    assert_eq!(results.len(), 13, "{body}");
    assert_eq!(results[0]["query"], "Karl Carlsson");
    assert_eq!(results.last().unwrap()["query"], "Soderberg och Partners");
    assert_eq!(results.last().unwrap()["hits"], 1);
    assert_eq!(results.last().unwrap()["top"][0], "Söderberg & Partners AB");
}

#[tokio::test]
async fn others_may_not_search_and_bad_queries_are_refused() {
    let s = services().await;
    let router = shared::api::finish(conflict_search::api(), s.clone());
    for role in [Role::Customer, Role::SalesPerson, Role::CustomerContact] {
        let (_, token) = account(&s, role).await;
        let (st, _) = call(&router, Method::GET, "/api/search/fuzzy/?search=x", Some(&token), None).await;
        assert_eq!(st, StatusCode::FORBIDDEN, "{role:?}");
    }
    let (_, lawyer) = account(&s, Role::Lawyer).await;
    let (st, _) = call(&router, Method::GET, "/api/search/fuzzy/audit/", Some(&lawyer), None).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, body) = call(&router, Method::GET, "/api/search/fuzzy/?search=%20%20", Some(&lawyer), None).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(body["errors"]["search"][0], "required");
    let long = "a".repeat(201);
    let (st, body) = call(&router, Method::GET, &format!("/api/search/fuzzy/?search={long}"), Some(&lawyer), None).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(body["errors"]["search"][0], "too_long");
    let (st, _) = call(&router, Method::GET, "/api/search/fuzzy/?search=x", None, None).await;
    assert_eq!(st, StatusCode::UNAUTHORIZED);
}

/// A follow-up left behind by a stopped process carries the party as it was
/// then; a later save of the same party supersedes it. Finishing the old
/// follow-up afterwards (the search does, first) must not bring the old name
/// back: the party is found under its current name.
#[tokio::test]
async fn a_follow_up_left_behind_does_not_undo_a_later_save() {
    use shared::services::events::{self, Event};
    use shared::store::conflict::IndexChange;
    let s = services().await;
    let router = shared::api::finish(conflict_search::api(), s.clone());
    let (_, admin) = account(&s, Role::Admin).await;
    let (mut contact, _) = account(&s, Role::CustomerContact).await;
    // The stopped process: its transaction queued the index change as a
    // follow-up, and nothing finished it.
    let mut tx = s.store.tx();
    s.store.add_index_follow_up(&mut tx, &IndexChange::index(party(PartyKind::ContactPerson, &contact.uid, "Olle Gammal", None))).unwrap();
    assert!(s.store.commit(tx).await.unwrap());
    // The contact is saved again, under another name, in a transaction of its own.
    contact.first_name = "Cecilia".into();
    contact.last_name = "Dahl".into();
    let mut tx = s.store.tx();
    let queued = events::record(&s, &mut tx, &[Event::ContactSaved { contact: &contact }]).await.unwrap();
    assert!(events::commit(&s, tx, queued).await.unwrap());

    let (_, body) = call(&router, Method::GET, "/api/search/fuzzy/?search=Cecilia%20Dahl", Some(&admin), None).await;
    assert_eq!(body["count"], 1, "{body}");
    assert_eq!(body["results"][0]["party"]["uid"], contact.uid.as_str());
    let (_, body) = call(&router, Method::GET, "/api/search/fuzzy/?search=Olle%20Gammal", Some(&admin), None).await;
    assert_eq!(body["count"], 0, "{body}");
    assert!(s.store.pending_index_follow_ups(10).await.unwrap().is_empty());
}

/// A party whose index change a stopped process left as a follow-up is
/// still found: the search finishes such follow-ups before it reads.
#[tokio::test]
async fn a_party_whose_follow_up_was_interrupted_is_found() {
    use shared::store::conflict::IndexChange;
    let s = services().await;
    let router = shared::api::finish(conflict_search::api(), s.clone());
    let (_, lawyer) = account(&s, Role::Lawyer).await;
    let mut tx = s.store.tx();
    s.store.add_index_follow_up(&mut tx, &IndexChange::index(party(PartyKind::Counterpart, "k9", "Vilhelm Ekstrand", None))).unwrap();
    assert!(s.store.commit(tx).await.unwrap());
    let (st, body) = call(&router, Method::GET, "/api/search/fuzzy/?search=Vilhelm%20Ekstrand", Some(&lawyer), None).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(body["results"][0]["party"]["uid"], "k9", "{body}");
    assert!(s.store.pending_index_follow_ups(10).await.unwrap().is_empty());
}

#[tokio::test]
async fn searches_are_limited_per_user_per_minute_and_per_day() {
    let s = services().await;
    let router = shared::api::finish(conflict_search::api(), s.clone());
    let (lawyer, token) = account(&s, Role::Lawyer).await;
    let (_, other) = account(&s, Role::Lawyer).await;
    let per_minute = shared::store::rate_limit::CONFLICT_SEARCH_PER_MINUTE;
    let minute = || chrono::Utc::now().timestamp().div_euclid(per_minute.window_secs);
    let started = minute();
    let mut answers = vec![];
    for _ in 0..=per_minute.max {
        answers.push(call(&router, Method::GET, "/api/search/fuzzy/?search=Anna", Some(&token), None).await);
    }
    let others = call(&router, Method::GET, "/api/search/fuzzy/?search=Anna", Some(&other), None).await.0;
    if minute() == started {
        assert!(answers[..per_minute.max as usize].iter().all(|(st, _)| *st == StatusCode::OK), "{answers:?}");
        let (st, body) = answers.last().unwrap();
        assert_eq!((*st, body["message"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_many_searches")));
        assert_eq!(others, StatusCode::OK, "another user is not limited");
    }

    // The day's budget, used up earlier today, refuses too.
    let per_day = shared::store::rate_limit::CONFLICT_SEARCH_PER_DAY;
    let t = chrono::Utc::now().timestamp();
    let (other_user, other_token) = account(&s, Role::Lawyer).await;
    for _ in 0..per_day.max {
        s.store.count_failure(per_day, &other_user.uid, t).await.unwrap();
    }
    let (st, body) = call(&router, Method::GET, "/api/search/fuzzy/?search=Anna", Some(&other_token), None).await;
    if t.div_euclid(per_day.window_secs) == chrono::Utc::now().timestamp().div_euclid(per_day.window_secs) {
        assert_eq!((st, body["message"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_many_searches")));
    }
    let _ = lawyer;
}

/// A search waits for two DynamoDB round trips: its limits, the follow-ups
/// left behind, every key of its number and of its most specific word, and
/// the sign-in check side by side; then its record in the audit trail (which
/// names what was found, so it cannot go earlier). A follow-up left behind
/// costs the search its finishing and a second read of the index.
#[tokio::test]
async fn a_search_reads_in_one_round_trip_before_its_audit_record() {
    use shared::store::conflict::IndexChange;
    let (s, calls) = shared::testkit::services_counting_calls().await;
    let router = shared::api::finish(conflict_search::api(), s.clone());
    let (_, lawyer) = account(&s, Role::Lawyer).await;
    shared::testkit::index_party(&s, &party(PartyKind::Customer, "u1", "Anna Lindqvist", Some("19811218-9876"))).await;
    calls.take();
    let (st, body) = call(&router, Method::GET, "/api/search/fuzzy/?search=Lindkvist%20Anna%20811218-9876", Some(&lawyer), None).await;
    assert_eq!((st, body["results"][0]["party"]["uid"].as_str()), (StatusCode::OK, Some("u1")), "{body}");
    let trips = calls.take_trips();
    let queries = trips.ops.iter().filter(|op| *op == "Query").count();
    // The limits (2), the follow-ups (3), the number's key and the word's keys (at least 2).
    assert!(queries >= 6, "{trips:?}");
    assert_eq!(trips.in_a_row, 2, "{trips:?}");

    // Index work a stopped process left: finished, the index read again, and the party found.
    let mut tx = s.store.tx();
    s.store.add_index_follow_up(&mut tx, &IndexChange::index(party(PartyKind::Counterpart, "k9", "Vilhelm Ekstrand", None))).unwrap();
    assert!(s.store.commit(tx).await.unwrap());
    let (st, body) = call(&router, Method::GET, "/api/search/fuzzy/?search=Vilhelm%20Ekstrand", Some(&lawyer), None).await;
    assert_eq!((st, body["results"][0]["party"]["uid"].as_str()), (StatusCode::OK, Some("k9")), "{body}");
    assert!(calls.take_trips().in_a_row > 2);
}

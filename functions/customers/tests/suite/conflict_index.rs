//! A customer and its conflict-of-interest index entries are written in one
//! transaction: a saved customer is found by the conflict search as soon as
//! the call returns, and a write that does not commit leaves neither the
//! customer nor any index entry behind.

use crate::common;

use axum::http::{Method, StatusCode};
use common::*;
use serde_json::{json, Value};
use shared::domain::conflict::PartyKind;
use shared::services::customers::BEFORE_COMMIT;

async fn create(w: &World, body: Value) -> (StatusCode, Value) {
    call(&w.router, Method::POST, "/api/customer/create/", Some(&w.admin), Some(body)).await
}

async fn update(w: &World, uid: &str, body: Value) -> (StatusCode, Value) {
    call(&w.router, Method::PUT, &format!("/api/customer/update/{uid}/"), Some(&w.admin), Some(body)).await
}

/// Every index entry of any party with this uid, whatever the query finds.
async fn uids(w: &World, query: &str) -> Vec<String> {
    w.state.store.search_parties(query).await.unwrap().into_iter().map(|h| h.party.uid).collect()
}

#[tokio::test]
async fn a_saved_customer_is_found_by_the_conflict_search_as_soon_as_the_call_returns() {
    let w = world().await;
    // Staff create: the company and its contact person.
    let (status, created) = create(&w, staff_company("sven@example.com", "556677-1233", "Söderberg Bygg AB")).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let uid = created["uid"].as_str().unwrap().to_string();
    assert_eq!(found(&w.state, "Soderberg Bygg", PartyKind::Company).await, [(uid.clone(), "Söderberg Bygg AB".to_string())]);
    assert_eq!(found(&w.state, "5566771233", PartyKind::Company).await, [(uid.clone(), "Söderberg Bygg AB".to_string())]);
    assert_eq!(found(&w.state, "Sven Soderberg", PartyKind::ContactPerson).await, [(uid.clone(), "Sven Söderberg".to_string())]);

    // Sign-up: found while still pending.
    let mut reg = registration("karin@example.com", "112233-4455");
    reg["company_name"] = json!("Grönlund Konsult AB");
    let (status, body) = call(&w.router, Method::POST, "/api/registration/", None, Some(reg)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let registered = w.state.store.find_user_by_email("karin@example.com").await.unwrap().unwrap().uid;
    assert_eq!(found(&w.state, "Gronlund Konsult", PartyKind::Company).await, [(registered.clone(), "Grönlund Konsult AB".to_string())]);

    // Update: the new name at once, the old one gone.
    let (status, body) = update(&w, &uid, staff_company("sven@example.com", "556677-1233", "Lindqvist Fastigheter AB")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(found(&w.state, "Lindqvist Fastigheter", PartyKind::Company).await, [(uid.clone(), "Lindqvist Fastigheter AB".to_string())]);
    assert!(!uids(&w, "Soderberg Bygg").await.contains(&uid), "the old name is no longer indexed");

    // State changes keep the customer findable.
    let (status, _) = call(&w.router, Method::POST, &format!("/api/customer/approve/{registered}/"), Some(&w.admin), None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = call(&w.router, Method::POST, &format!("/api/user/deactivate/{uid}/"), Some(&w.admin), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(found(&w.state, "Gronlund Konsult", PartyKind::Company).await.len(), 1);
    assert_eq!(found(&w.state, "Lindqvist Fastigheter", PartyKind::Company).await.len(), 1);
}

#[tokio::test]
async fn a_create_that_does_not_commit_leaves_neither_the_customer_nor_its_index_entries() {
    let w = world().await;
    let form = staff_company("sven@example.com", "556677-1233", "Söderberg Bygg AB");
    w.state.faults.arm(BEFORE_COMMIT);
    let (status, body) = create(&w, form.clone()).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{body}");

    assert!(w.state.store.find_user_by_email("sven@example.com").await.unwrap().is_none(), "no user");
    assert!(w.state.store.email_owner("sven@example.com").await.unwrap().is_none(), "the address is free");
    assert!(w.state.store.registration_number_owner("556677-1233").await.unwrap().is_none(), "the number is free");
    assert!(emails(&list(&w.router, &w.admin, "status=all").await).is_empty(), "no profile");
    for query in ["Soderberg Bygg", "5566771233", "Sven Soderberg"] {
        assert!(uids(&w, query).await.is_empty(), "{query}: no index entry");
    }
    let mails = w.state.mail.outbox().unwrap().lock().unwrap().clone();
    assert!(mails.iter().all(|m| m.to != "sven@example.com"), "no invitation");

    // The same sign-up through registration.
    w.state.faults.arm(BEFORE_COMMIT);
    let (status, _) =
        call(&w.router, Method::POST, "/api/registration/", None, Some(registration("karin@example.com", "112233-4455"))).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(w.state.store.email_owner("karin@example.com").await.unwrap().is_none());
    assert!(w.state.store.registration_number_owner("112233-4455").await.unwrap().is_none());
    assert!(uids(&w, "Kund AB").await.is_empty() && uids(&w, "Karin Kund").await.is_empty());

    // Nothing half-written blocks doing it again.
    let (status, created) = create(&w, form).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let uid = created["uid"].as_str().unwrap();
    assert_eq!(found(&w.state, "Soderberg Bygg", PartyKind::Company).await, [(uid.to_string(), "Söderberg Bygg AB".to_string())]);
}

#[tokio::test]
async fn an_update_that_does_not_commit_changes_neither_the_customer_nor_its_index_entries() {
    let w = world().await;
    let (_, created) = create(&w, staff_company("sven@example.com", "556677-1233", "Söderberg Bygg AB")).await;
    let uid = created["uid"].as_str().unwrap().to_string();

    w.state.faults.arm(BEFORE_COMMIT);
    let (status, _) = update(&w, &uid, staff_company("sven2@example.com", "998877-6655", "Lindqvist Fastigheter AB")).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    let (_, details) = call(&w.router, Method::GET, &format!("/api/customer/details/{uid}/"), Some(&w.admin), None).await;
    assert_eq!((details["company_name"].as_str(), details["email"].as_str()), (Some("Söderberg Bygg AB"), Some("sven@example.com")));
    assert_eq!(w.state.store.email_owner("sven@example.com").await.unwrap().as_deref(), Some(uid.as_str()));
    assert!(w.state.store.email_owner("sven2@example.com").await.unwrap().is_none());
    assert_eq!(w.state.store.registration_number_owner("556677-1233").await.unwrap().as_deref(), Some(uid.as_str()));
    assert!(w.state.store.registration_number_owner("998877-6655").await.unwrap().is_none());
    assert_eq!(
        found(&w.state, "Soderberg Bygg", PartyKind::Company).await,
        [(uid.clone(), "Söderberg Bygg AB".to_string())],
        "still indexed under its name"
    );
    assert!(uids(&w, "Lindqvist Fastigheter").await.is_empty(), "not under the name that was not saved");
}

#[tokio::test]
async fn concurrent_creates_with_one_address_leave_one_customer_and_only_its_index_entries() {
    let w = world().await;
    let names = ["Alfa Bygg AB", "Beta Konsult AB", "Gamma Revision AB", "Delta Juridik AB", "Epsilon Handel AB", "Zeta Media AB"];
    let tries: Vec<_> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let router = w.router.clone();
            let admin = w.admin.clone();
            // One address in several letter cases; every number different.
            let email = if i % 2 == 0 { "Same@Example.com" } else { "same@example.com" };
            let body = staff_company(email, &format!("55667{i}-0000"), name);
            tokio::spawn(async move { call(&router, Method::POST, "/api/customer/create/", Some(&admin), Some(body)).await })
        })
        .collect();
    let mut winners = Vec::new();
    for (name, t) in names.iter().zip(tries) {
        let (status, body) = t.await.unwrap();
        match status {
            StatusCode::CREATED => winners.push((name.to_string(), body["uid"].as_str().unwrap().to_string())),
            // More invitations to one address than its mail limit allows (5
            // in 15 minutes) are refused before they are tried.
            StatusCode::TOO_MANY_REQUESTS => assert_eq!(body["message"], "too_many_requests", "{name}: {body}"),
            _ => assert_eq!((status, field(&body, "email")), (StatusCode::BAD_REQUEST, vec!["email_exists"]), "{name}: {body}"),
        }
    }
    assert_eq!(winners.len(), 1, "{winners:?}");
    let (winner, uid) = &winners[0];
    for (i, name) in names.iter().enumerate() {
        let word = name.split(' ').next().unwrap();
        let hits = found(&w.state, name, PartyKind::Company).await;
        let owner = w.state.store.registration_number_owner(&format!("55667{i}-0000")).await.unwrap();
        // Whatever a name finds belongs to the winner: a loser left no entry.
        assert!(hits.iter().all(|(u, _)| u == uid), "{word}: a loser left index entries: {hits:?}");
        if name == winner {
            assert!(hits.contains(&(uid.clone(), name.to_string())), "{word}: {hits:?}");
            assert_eq!(owner.as_deref(), Some(uid.as_str()));
        } else {
            assert!(owner.is_none(), "{word}: a loser left its number taken");
        }
    }
    assert_eq!(emails(&list(&w.router, &w.admin, "status=all").await), ["same@example.com"]);
}

/// A party indexed under the keys of earlier matching rules (here a sound
/// key that kept Mueller's 'e' apart from Müller, and no number key) is not
/// found by today's rules until the one-off reindex has rebuilt its keys
/// from the saved customer; the keys of the earlier rules are then gone.
#[tokio::test]
async fn the_reindex_rebuilds_keys_written_under_earlier_rules() {
    use aws_sdk_dynamodb::types::AttributeValue;
    use shared::store::conflict::IndexChange;
    use shared::store::keys::conflict as ck;
    use shared::store::s;

    let w = world().await;
    let (status, created) = create(&w, staff_company("hans@example.com", "556016-0680", "Mueller Bygg HB")).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let uid = created["uid"].as_str().unwrap().to_string();
    let store = &w.state.store;

    // The index as an earlier rule left it: today's keys removed, one old key.
    let now = store.indexed(PartyKind::Company, &uid).await.unwrap();
    let mut tx = store.tx();
    store.add_index_writes(&mut tx, &IndexChange::remove(PartyKind::Company, &uid), &now).unwrap();
    assert!(store.commit(tx).await.unwrap());
    let old_key = format!("S#{}", shared::domain::conflict::sound_key("Mueller"));
    let old_item = |pk: String, sk: String| {
        let mut item = std::collections::HashMap::from([("PK".to_string(), s(pk)), ("SK".to_string(), s(sk))]);
        item.insert("kind".into(), s("company"));
        item.insert("uid".into(), s(uid.clone()));
        item.insert("name".into(), s("Mueller Bygg HB"));
        item.insert("customer_uid".into(), s(uid.clone()));
        item
    };
    let mut record = old_item(ck::record_pk(PartyKind::Company, &uid), ck::RECORD_SK.to_string());
    record.insert("search_keys".into(), AttributeValue::L(vec![s(old_key.clone())]));
    record.insert("ver".into(), AttributeValue::N("1".into()));
    for item in [old_item(ck::index_pk(&old_key), ck::index_sk(PartyKind::Company, &uid)), record] {
        store.client.put_item().table_name(&store.table).set_item(Some(item)).send().await.unwrap();
    }
    for query in ["Müller Bygg", "SE556016068001"] {
        assert!(found(&w.state, query, PartyKind::Company).await.is_empty(), "{query}: not yet under today's keys");
    }

    let done = shared::services::reindex::all(&w.state).await.unwrap();
    assert_eq!(done.customers, 1, "{done:?}");
    for query in ["Müller Bygg", "Muller Bygg AB", "SE556016068001", "16556016-0680"] {
        assert_eq!(found(&w.state, query, PartyKind::Company).await, [(uid.clone(), "Mueller Bygg HB".to_string())], "{query}");
    }
    let stale = store
        .client
        .get_item()
        .table_name(&store.table)
        .key("PK", s(ck::index_pk(&old_key)))
        .key("SK", s(ck::index_sk(PartyKind::Company, &uid)))
        .send()
        .await
        .unwrap();
    assert!(stale.item.is_none(), "the earlier rule's key is removed");
    // Run again: the same index (idempotent).
    let keys = store.indexed(PartyKind::Company, &uid).await.unwrap().keys;
    shared::services::reindex::all(&w.state).await.unwrap();
    assert_eq!(store.indexed(PartyKind::Company, &uid).await.unwrap().keys, keys);
}

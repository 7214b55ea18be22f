//! A case and its counterpart's conflict-index entries are written together:
//! a failed write leaves neither, and a process that stops between a big
//! case's transaction and its queued index follow-up still leaves the case
//! findable by the conflict search.

use crate::common;

use axum::http::{Method, StatusCode};
use common::world;
use serde_json::json;
use shared::domain::Role;
use shared::testkit;

/// The conflict search as a lawyer or admin calls it: (count, result uids).
async fn search(w: &common::World, token: &str, q: &str) -> (u64, Vec<String>) {
    let router = shared::api::finish(conflict_search::api(), w.state.clone());
    let (st, body) = testkit::call(&router, Method::GET, &format!("/api/search/fuzzy/?search={q}"), Some(token), None).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    let uids = body["results"].as_array().unwrap().iter().map(|h| h["party"]["uid"].as_str().unwrap().to_string()).collect();
    (body["count"].as_u64().unwrap(), uids)
}

#[tokio::test]
async fn a_failed_case_write_leaves_neither_the_case_nor_its_index_entries() {
    let w = world().await;
    let (cust, _) = w.user(Role::Customer).await;
    let (_, admin) = w.user(Role::Admin).await;
    let mut body = w.form("Lease dispute");
    body["customer"] = json!(cust.uid);
    body["counterpart"] = json!("Gunnarsson Fastigheter");
    w.state.faults.arm("events.before_commit");
    let (st, _) = w.call(Method::POST, "/api/case/create/", &admin, Some(body.clone())).await;
    assert_eq!(st, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(search(&w, &admin, "Gunnarsson%20Fastigheter").await.0, 0, "no index entry without its case");
    let (_, list) = w.call(Method::GET, "/api/case/list/?status=pending", &admin, None).await;
    assert_eq!(list["results"].as_array().unwrap().len(), 0, "no case without its index entries");

    // The same request again (nothing armed): both exist, and they agree.
    let (st, created) = w.call(Method::POST, "/api/case/create/", &admin, Some(body)).await;
    assert_eq!(st, StatusCode::CREATED);
    assert_eq!(search(&w, &admin, "Gunnarsson%20Fastigheter").await.1, vec![created["uid"].as_str().unwrap().to_string()]);
}

#[tokio::test]
async fn a_case_too_big_for_one_transaction_is_found_even_if_the_process_stops_after_the_write() {
    let w = world().await;
    let (cust, _) = w.user(Role::Customer).await;
    let (_, admin) = w.user(Role::Admin).await;
    // 80 words with different first letters: more index keys than a
    // transaction holds beside the case, so they go through a follow-up.
    let consonants: Vec<char> = "bcdfghjklmnprstv".chars().collect();
    let words: Vec<String> = (0..80)
        .map(|i| {
            let (c, v) = (consonants[i / 5].to_ascii_uppercase(), "aeiou".as_bytes()[i % 5] as char);
            format!("{c}{v}{}{}son", consonants[(i * 7) % 16], consonants[(i * 3 + 1) % 16])
        })
        .collect();
    let counterpart = words.join(" ");
    assert!(shared::domain::conflict::index_keys(&counterpart, None).len() > 100);
    let mut body = w.form("Many parties");
    body["customer"] = json!(cust.uid);
    body["counterpart"] = json!(counterpart);
    // The write lands; the process "stops" before it finishes the follow-up.
    w.state.faults.arm("events.after_commit");
    let (st, _) = w.call(Method::POST, "/api/case/create/", &admin, Some(body)).await;
    assert_eq!(st, StatusCode::INTERNAL_SERVER_ERROR);
    let (_, list) = w.call(Method::GET, "/api/case/list/?status=pending", &admin, None).await;
    let cases = list["results"].as_array().unwrap();
    assert_eq!(cases.len(), 1, "the case was written");
    let uid = cases[0]["uid"].as_str().unwrap().to_string();
    assert_eq!(w.state.store.pending_index_follow_ups(10).await.unwrap().len(), 1, "the index change waits as a follow-up");
    // The search finishes what the stopped process left, then finds the case.
    for q in [words[0].as_str(), words[79].as_str(), &format!("{}%20{}", words[12], words[40])] {
        assert_eq!(search(&w, &admin, q).await.1, vec![uid.clone()], "{q}");
    }
}

/// A counterpart's organisationsnummer is a certain hit, typed
/// with or without dash or century, and so is a number written in the
/// counterpart's text; a mistyped number (check digit) is refused on the form.
#[tokio::test]
async fn a_counterpart_is_found_by_its_identity_number_with_or_without_dash_and_century() {
    let w = world().await;
    let (cust, _) = w.user(Role::Customer).await;
    let (_, admin) = w.user(Role::Admin).await;
    let (_, lawyer) = w.user(Role::Lawyer).await;

    let mut body = w.form("Hyrestvist");
    body["customer"] = json!(cust.uid);
    body["counterpart"] = json!("Hyresvärden i Norr AB");
    body["counterpart_identity_number"] = json!("556036-0794");
    let (st, err) = w.call(Method::POST, "/api/case/create/", &admin, Some(body.clone())).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{err}");
    assert_eq!(err["errors"]["counterpart_identity_number"][0], "invalid_identity_number");

    body["counterpart_identity_number"] = json!("5560360793");
    let (st, created) = w.call(Method::POST, "/api/case/create/", &admin, Some(body)).await;
    assert_eq!(st, StatusCode::CREATED, "{created}");
    assert_eq!(created["counterpart_identity_number"], "556036-0793");
    let uid = created["uid"].as_str().unwrap().to_string();
    for q in ["556036-0793", "5560360793", "16556036-0793", "165560360793", "Acme%20556036-0793"] {
        assert!(search(&w, &lawyer, q).await.1.contains(&uid), "{q}");
    }
    // A wrong check digit is never a hit: the search says the number is not valid.
    let router = shared::api::finish(conflict_search::api(), w.state.clone());
    let (st, body) = testkit::call(&router, Method::GET, "/api/search/fuzzy/?search=5560360794", Some(&lawyer), None).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["errors"]["search"][0], "invalid_identity_number");
    // With a name beside it, the name is searched.
    assert!(search(&w, &lawyer, "Hyresv%C3%A4rden%205560360794").await.1.contains(&uid));

    // A number written in the counterpart's text counts too.
    let mut body = w.form("Avtal");
    body["customer"] = json!(cust.uid);
    body["counterpart"] = json!("Per Persson (19811218-9876)");
    let (st, created) = w.call(Method::POST, "/api/case/create/", &admin, Some(body)).await;
    assert_eq!(st, StatusCode::CREATED, "{created}");
    let uid = created["uid"].as_str().unwrap().to_string();
    for q in ["811218-9876", "8112189876", "198112189876", "19811218-9876"] {
        assert!(search(&w, &lawyer, q).await.1.contains(&uid), "{q}");
    }
}

//! The client's data rights: an export holds every kind of record of its
//! customer and nothing of another customer's (the seeded world has two),
//! never a secret nor a staff-internal note; one runs at a time per
//! customer; the worker builds it once however often it runs; the export
//! is audited and announced by mail.

use crate::world::*;

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use shared::testkit;
use std::collections::BTreeMap;
use std::io::Read;

/// Every entry of the ZIP by name, as bytes.
fn unzip(bytes: &[u8]) -> BTreeMap<String, Vec<u8>> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).expect("a ZIP");
    let mut out = BTreeMap::new();
    for i in 0..zip.len() {
        let mut f = zip.by_index(i).unwrap();
        let mut buf = Vec::new();
        f.read_to_end(&mut buf).unwrap();
        out.insert(f.name().unwrap().to_string(), buf);
    }
    out
}

fn json_of(entries: &BTreeMap<String, Vec<u8>>, name: &str) -> Value {
    serde_json::from_slice(entries.get(name).unwrap_or_else(|| panic!("no {name} in {:?}", entries.keys()))).unwrap()
}

#[tokio::test]
async fn an_export_holds_every_record_of_its_customer_and_nothing_of_another() {
    let world = seed().await;
    let (state, app) = copy(&world).await;
    let ids = &world.ids;
    let t = |who: &str| world.tokens[who].clone().unwrap();
    let other = state.store.find_user_by_email(local_gateway::seed::DEMO_CUSTOMER2_EMAIL).await.unwrap().unwrap();
    let other_case = testkit::call(&app, Method::GET, "/api/case/list/?status=all", Some(&t("other_customer")), None).await.1["results"][0]
        ["uid"]
        .as_str()
        .unwrap()
        .to_string();

    // A staff-internal note (never exported), a document of each customer's case.
    let note = json!({"case_uid": ids.case, "note": "Intern bedömning: svår klient"});
    ok("note", testkit::call(&app, Method::POST, "/api/case/lawyer/note/", Some(&t("lawyer")), Some(note)).await);
    let ours = format!("cases/{}/4f1c.pdf", ids.case);
    let theirs = format!("cases/{other_case}/9a2b.pdf");
    state.files.put_bytes(&ours, "application/pdf", PDF.to_vec()).await.unwrap();
    state.files.put_bytes(&theirs, "application/pdf", PDF.to_vec()).await.unwrap();

    // The lawyer opens the case: an event of the customer's audit trail.
    ok("case", testkit::call(&app, Method::GET, &format!("/api/case/{}/", ids.case), Some(&t("lawyer")), None).await);

    let path = format!("/api/customer/data-export/{}/", ids.customer);
    // Neither another customer, a contact, a lawyer nor a sales person may ask.
    for who in ["other_customer", "contact_all", "lawyer", "sales_person"] {
        let (status, _) = testkit::call(&app, Method::POST, &path, Some(&t(who)), None).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{who}");
    }
    let key = [("idempotency-key", "\"export-1\"")];
    let (status, _, body) = testkit::call_with_headers(&app, Method::POST, &path, Some(&t("customer")), None, &key).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{}", String::from_utf8_lossy(&body));
    let asked: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!((asked["state"].as_str(), asked["step"].as_u64()), (Some("queued"), Some(0)), "{asked}");
    // The same request again answers the first answer; another one waits for it.
    let (status, _, again) = testkit::call_with_headers(&app, Method::POST, &path, Some(&t("customer")), None, &key).await;
    assert_eq!((status, serde_json::from_slice::<Value>(&again).unwrap()["id"].clone()), (StatusCode::ACCEPTED, asked["id"].clone()));
    let (status, busy) = testkit::call(&app, Method::POST, &path, Some(&t("admin")), None).await;
    assert_eq!((status, busy["message"].as_str()), (StatusCode::CONFLICT, Some("export_running")), "{busy}");

    // The worker builds it once, however often it runs.
    let (a, b) = tokio::join!(data_rights::run(&state, chrono::Utc::now()), data_rights::run(&state, chrono::Utc::now()));
    assert_eq!(a.unwrap().exports_built + b.unwrap().exports_built, 1);
    assert_eq!(data_rights::run(&state, chrono::Utc::now()).await.unwrap(), data_rights::Report::default());

    let (status, list) = testkit::call(&app, Method::GET, &path, Some(&t("admin")), None).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let done = &list[0];
    assert_eq!(
        (done["state"].as_str(), done["step"].clone(), done["files"].as_u64()),
        (Some("ready"), done["steps"].clone(), Some(2)),
        "{done}"
    );
    let expires = chrono::DateTime::parse_from_rfc3339(done["expires_at"].as_str().unwrap()).unwrap();
    let days = (expires.with_timezone(&chrono::Utc) - chrono::Utc::now()).num_hours();
    assert!((167..=168).contains(&days), "downloadable for 7 days: {days} h");
    for who in ["other_customer", "contact_all", "lawyer"] {
        assert_eq!(testkit::call(&app, Method::GET, &path, Some(&t(who)), None).await.0, StatusCode::FORBIDDEN, "{who}");
    }
    let url = done["download_url"].as_str().unwrap();
    let (status, _, zip) = testkit::http("GET", url, None, b"").await;
    assert_eq!(status, 200);
    let entries = unzip(&zip);

    // Every kind of record of the customer.
    for part in
        ["account", "profile", "contacts", "subscriptions", "subscription_usage", "envelopes", "notifications", "support", "audit_trail"]
    {
        let v = json_of(&entries, &format!("{part}.json"));
        assert!(v.as_array().is_some_and(|a| !a.is_empty()), "{part}.json is empty: {v}");
    }
    let cases = json_of(&entries, "cases.json");
    let case = cases.as_array().unwrap().iter().find(|c| c["case"][0]["uid"] == ids.case.as_str()).expect("the case");
    for kind in ["hours", "additional_hours", "history", "messages"] {
        assert!(case[kind].as_array().is_some_and(|a| !a.is_empty()), "the case's {kind}: {case}");
    }
    assert_eq!(cases.as_array().unwrap().len(), 2, "the case and the draft");
    // The files: the case's document and the signing envelope's.
    assert_eq!(entries.get(&format!("files/{ours}")).map(Vec::as_slice), Some(PDF));
    assert!(entries.keys().any(|k| k.starts_with(&format!("files/envelopes/{}/", ids.customer))), "{:?}", entries.keys());
    let contacts = json_of(&entries, "contacts.json");
    assert!(contacts.as_array().unwrap().len() >= 2, "both contacts: {contacts}");
    assert!(entries.contains_key("README.txt"));
    for none_yet in ["credit_reports", "meetings", "inkasso"] {
        assert_eq!(json_of(&entries, &format!("{none_yet}.json")), json!([]), "{none_yet}");
    }

    // Nothing of the other customer, no secret, no internal note.
    let all: String = entries.values().map(|b| String::from_utf8_lossy(b).into_owned()).collect();
    for absent in
        [other.uid.as_str(), other.email.as_str(), other_case.as_str(), "Intern bedömning", "$argon2", "secret-pass", "password_hash"]
    {
        assert!(!all.contains(absent), "the export holds {absent}");
    }
    assert!(!entries.keys().any(|k| k.contains(&other_case)));
    assert!(all.contains(&ids.customer_email) && all.contains("Hej"), "the customer's own data");

    // Audited, and told by mail (with the page, not the file's link).
    let event = ok(
        "audit",
        testkit::call(&app, Method::GET, &format!("/api/audit/?customer={}&action=export_made", ids.customer), Some(&t("admin")), None)
            .await,
    );
    assert!(
        event["results"].as_array().unwrap().iter().any(|e| e["subject"] == "data_export" && e["actor_uid"] == ids.customer.as_str()),
        "{event}"
    );
    let mails: Vec<_> = state.mail.outbox().unwrap().lock().unwrap().iter().filter(|m| m.to == ids.customer_email).cloned().collect();
    let mail = mails.iter().find(|m| m.subject.contains("dataexport")).expect("the export's mail");
    assert!(mail.body.contains("/user/my-data/") && !mail.body.contains("X-Amz-Signature"), "{}", mail.body);

    // The slot is free again: a new export may be asked for.
    assert_eq!(testkit::call(&app, Method::POST, &path, Some(&t("admin")), None).await.0, StatusCode::ACCEPTED);
}

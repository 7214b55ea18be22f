//! Debt collection, the contract-check link and the signing callback
//! against the local stand-ins (AWS and
//! providers), each test on its own table and its own provider stand-in.

use crate::world::{key, world, World, PDF};
use axum::http::{Method, StatusCode};
use chrono::Utc;
use serde_json::{json, Value};
use shared::domain::inkasso::ClaimForm;
use shared::domain::{Permission, Role, User};
use shared::testkit;

const INCASSO: u8 = 4;

fn account(ip: &str) -> Value {
    json!({"home_page": "https://kund.example.com", "bank_name": "Banken", "bank_account": "1234-5678901", "plus_giro": "4100-4",
        "bank_giro": "5050-1055", "iban": "SE45 5000 0000 0583 9825 7466", "bic": "ESSESESS", "approved_ip": ip,
        "contact_name": "Kim Kontakt", "organization_number": "556000-0001"})
}

fn claim(invoice_key: &str, request_id: Option<&str>) -> Value {
    json!({"debtor_name": "Gäldenär AB", "debtor_number": "5560000001", "debtor_address": "Storgatan 1, 111 22 Stockholm",
        "debtor_email": "ekonomi@example.com", "amount": 1_250_050, "invoice_number": "F-17",
        "due_date": Utc::now().date_naive().format("%Y-%m-%d").to_string(),
        "invoice": {"key": invoice_key, "name": "faktura.pdf"}, "request_id": request_id})
}

impl World {
    async fn upload_invoice(&self, token: &str, bytes: &[u8]) -> String {
        self.upload_to("/api/services/inkasso/claims/upload-url/", token, "faktura.pdf", bytes).await
    }

    /// A customer with the Incasso plan (`limit` claims) and an approved account.
    async fn approved_customer(&self, limit: u32) -> (User, String, u64) {
        let (cust, ct) = testkit::signed_in(&self.state, Role::Customer).await;
        let row = self.plan(&cust, INCASSO, limit).await;
        self.ok(Method::PUT, "/api/inkasso/prospect/", &ct, Some(account("192.0.2.10"))).await;
        let p = self.ok(Method::GET, "/api/inkasso/prospect/", &ct, None).await;
        assert_eq!(p["state"], "approved", "{p}");
        (cust, ct, row)
    }
}

#[tokio::test]
async fn the_account_is_decided_by_the_provider_then_claims_are_registered_and_followed() {
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let row = w.plan(&cust, INCASSO, 5).await;
    assert_eq!(w.ok(Method::GET, "/api/inkasso/prospect/", &ct, None).await, Value::Null);
    assert_eq!(w.ok(Method::GET, "/api/inkasso-hashs/", &ct, None).await, json!([]));

    let applied = w.ok(Method::PUT, "/api/inkasso/prospect/", &ct, Some(account("192.0.2.10"))).await;
    assert_eq!(applied["state"], "applied");
    assert!(applied["provider_id"].is_string());
    // Not approved yet: no claim ('come back after 30 minutes').
    let invoice = w.upload_invoice(&ct, PDF).await;
    let stored = w.state.store.inkasso_prospect(&cust.uid).await.unwrap().unwrap();
    assert_eq!(stored.state, "applied");
    // The provider decides; the next read keeps its decision.
    let approved = w.ok(Method::GET, "/api/inkasso/prospect/", &ct, None).await;
    assert_eq!(approved["state"], "approved");
    assert!(approved["approved_date"].is_string());
    let hashes = w.ok(Method::GET, "/api/inkasso-hashs/", &ct, None).await;
    assert_eq!(hashes.as_array().unwrap().len(), 1);
    assert_eq!(hashes[0]["hash"], approved["creditor_hash"]);
    assert_eq!(hashes[0]["organization_number"], "556000-0001");
    // Applying again changes nothing once approved.
    let again = w.ok(Method::PUT, "/api/inkasso/prospect/", &ct, Some(account("192.0.2.99"))).await;
    assert_eq!((again["state"].clone(), again["account"]["approved_ip"].clone()), (json!("approved"), json!("192.0.2.10")));

    let rid = "0123456789abcdef0123456789abcdef";
    let (st, c) = w.call(Method::POST, "/api/services/inkasso/claims/", &ct, Some(claim(&invoice, Some(rid)))).await;
    assert_eq!(st, StatusCode::CREATED, "{c}");
    assert_eq!(
        (c["status"].as_str(), c["amount"].as_i64(), c["debtor_number"].as_str()),
        (Some("registered"), Some(1_250_050), Some("556000-0001"))
    );
    assert_eq!(w.consumed(row).await, 1);
    // A retried request is the same claim, booked once.
    let retried = w.ok(Method::POST, "/api/services/inkasso/claims/", &ct, Some(claim(&invoice, Some(rid)))).await;
    assert_eq!(retried["uid"], c["uid"]);
    assert_eq!(w.consumed(row).await, 1);
    // The status follows the provider, one step per read of the stand-in.
    let statuses: Vec<String> = {
        let mut seen = Vec::new();
        for _ in 0..3 {
            let list = w.ok(Method::GET, "/api/services/inkasso/claims/", &ct, None).await;
            assert_eq!(list.as_array().unwrap().len(), 1);
            seen.push(list[0]["status"].as_str().unwrap().to_string());
        }
        seen
    };
    assert_eq!(statuses, ["registered", "reminder_sent", "collection"]);

    // Content, not the name, makes a PDF.
    let fake = w.upload_invoice(&ct, b"GIF89a not a pdf").await;
    let (st, v) = w.call(Method::POST, "/api/services/inkasso/claims/", &ct, Some(claim(&fake, None))).await;
    assert_eq!((st, v["errors"]["invoice"].clone()), (StatusCode::BAD_REQUEST, json!(["invalid_pdf"])));
    // Each validation message reaches the caller per field.
    let mut bad = claim(&invoice, None);
    bad["amount"] = json!(0);
    bad["debtor_number"] = json!("556000-0002");
    bad["due_date"] = json!("2101-01-01");
    let (st, v) = w.call(Method::POST, "/api/services/inkasso/claims/", &ct, Some(bad)).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(v["errors"]["amount"], json!(["claim_amount_invalid"]));
    assert_eq!(v["errors"]["debtor_number"], json!(["invalid_registration_number"]));
    assert_eq!(v["errors"]["due_date"], json!(["invalid_date"]));
    assert_eq!(w.consumed(row).await, 1);
}

#[tokio::test]
async fn a_rejected_or_undecided_account_takes_no_claims() {
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let row = w.plan(&cust, INCASSO, 5).await;
    let invoice = w.upload_invoice(&ct, PDF).await;
    w.ok(Method::PUT, "/api/inkasso/prospect/", &ct, Some(account("203.0.113.7"))).await;
    // Undecided: the provider is not asked for the claim.
    let stored = w.state.store.inkasso_prospect(&cust.uid).await.unwrap().unwrap();
    assert_eq!(stored.state, "applied");
    let (st, v) = w.call(Method::POST, "/api/services/inkasso/claims/", &ct, Some(claim(&invoice, None))).await;
    // That call's read of the application let the provider decide: rejected.
    assert_eq!((st, key(&v)), (StatusCode::BAD_REQUEST, "inkasso_account_not_approved".into()));
    assert_eq!(w.ok(Method::GET, "/api/inkasso/prospect/", &ct, None).await["state"], "rejected");
    assert_eq!(w.ok(Method::GET, "/api/inkasso-hashs/", &ct, None).await, json!([]));
    let (st, v) = w.call(Method::POST, "/api/services/inkasso/claims/", &ct, Some(claim(&invoice, None))).await;
    assert_eq!((st, key(&v)), (StatusCode::BAD_REQUEST, "inkasso_account_not_approved".into()));
    assert_eq!(w.consumed(row).await, 0);
    // A corrected application is a new one, decided again.
    w.ok(Method::PUT, "/api/inkasso/prospect/", &ct, Some(account("192.0.2.10"))).await;
    assert_eq!(w.ok(Method::GET, "/api/inkasso/prospect/", &ct, None).await["state"], "approved");
}

#[tokio::test]
async fn the_limit_holds_exactly_under_50_concurrent_claims() {
    let w = world().await;
    let (cust, ct, row) = w.approved_customer(20).await;
    let invoice = w.upload_invoice(&ct, PDF).await;
    let form: ClaimForm = serde_json::from_value(claim(&invoice, None)).unwrap();
    let mut tasks = Vec::new();
    for _ in 0..50 {
        let (state, cust, form) = (w.state.clone(), cust.clone(), form.clone());
        tasks.push(tokio::spawn(async move {
            shared::services::inkasso::register_claim(&state, &cust, &form, &shared::store::idempotency::Once::none()).await
        }));
    }
    let (mut made, mut refused) = (0, 0);
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => made += 1,
            Err(e) if e.key().as_str() == "limit_reached" => refused += 1,
            Err(e) => panic!("unexpected {e:?}"),
        }
    }
    assert_eq!((made, refused), (20, 30));
    assert_eq!(w.consumed(row).await, 20);
    assert_eq!(w.state.store.claims(&cust.uid).await.unwrap().len(), 20);
    let (st, v) = w.call(Method::POST, "/api/services/inkasso/claims/", &ct, Some(claim(&invoice, None))).await;
    assert_eq!((st, key(&v)), (StatusCode::BAD_REQUEST, "limit_reached".into()));
}

#[tokio::test]
async fn a_provider_failure_stores_nothing() {
    let w = world().await;
    let (cust, ct, row) = w.approved_customer(5).await;
    let invoice = w.upload_invoice(&ct, PDF).await;
    for (fail, message) in [("5xx", "provider_unavailable"), ("timeout", "provider_timeout"), ("malformed", "provider_bad_answer")] {
        w.script(fail, 2).await;
        let (st, v) = w.call(Method::POST, "/api/services/inkasso/claims/", &ct, Some(claim(&invoice, None))).await;
        assert_eq!((st, key(&v)), (StatusCode::BAD_GATEWAY, message.into()), "{fail}");
        assert!(w.state.store.claims(&cust.uid).await.unwrap().is_empty(), "{fail}");
        assert_eq!(w.consumed(row).await, 0, "{fail}");
    }
    // The application too: nothing kept when the provider fails.
    let (other, ot) = testkit::signed_in(&w.state, Role::Customer).await;
    w.plan(&other, INCASSO, 5).await;
    w.script("5xx", 2).await;
    let (st, _) = w.call(Method::PUT, "/api/inkasso/prospect/", &ot, Some(account("192.0.2.10"))).await;
    assert_eq!(st, StatusCode::BAD_GATEWAY);
    assert!(w.state.store.inkasso_prospect(&other.uid).await.unwrap().is_none());
    // A failure while following a claim shows it as last known.
    w.ok(Method::POST, "/api/services/inkasso/claims/", &ct, Some(claim(&invoice, None))).await;
    w.script("5xx", 2).await;
    assert_eq!(w.ok(Method::GET, "/api/services/inkasso/claims/", &ct, None).await[0]["status"], "registered");
}

#[tokio::test]
async fn contacts_need_view_inkasso_and_customers_see_only_their_claims() {
    let w = world().await;
    let (cust, ct, _) = w.approved_customer(5).await;
    let invoice = w.upload_invoice(&ct, PDF).await;
    w.ok(Method::POST, "/api/services/inkasso/claims/", &ct, Some(claim(&invoice, None))).await;

    let without = w.contact_of(&cust, vec![Permission::ViewBisnode, Permission::AddCase, Permission::ViewAllCases]).await.1;
    for (m, path, body) in [
        (Method::GET, "/api/inkasso/prospect/", None),
        (Method::GET, "/api/inkasso-hashs/", None),
        (Method::GET, "/api/services/inkasso/claims/", None),
        (Method::POST, "/api/services/inkasso/claims/", Some(claim(&invoice, None))),
        (Method::POST, "/api/services/inkasso/claims/upload-url/", Some(json!({"name": "a.pdf"}))),
    ] {
        let (st, v) = w.call(m, path, &without, body).await;
        assert_eq!((st, key(&v)), (StatusCode::FORBIDDEN, "service_permission_missing".into()), "{path}");
    }
    let with = w.contact_of(&cust, vec![Permission::ViewInkasso, Permission::ViewAllCases]).await.1;
    assert_eq!(w.ok(Method::GET, "/api/services/inkasso/claims/", &with, None).await.as_array().unwrap().len(), 1);

    // Another customer sees none of them and cannot use the first one's invoice.
    let (_, ot, _) = w.approved_customer(5).await;
    assert_eq!(w.ok(Method::GET, "/api/services/inkasso/claims/", &ot, None).await, json!([]));
    let (st, v) = w.call(Method::POST, "/api/services/inkasso/claims/", &ot, Some(claim(&invoice, None))).await;
    assert_eq!((st, v["errors"]["invoice"].clone()), (StatusCode::BAD_REQUEST, json!(["invalid_pdf"])));
    // Without the plan: the promotion.
    let (_, plain) = testkit::signed_in(&w.state, Role::Customer).await;
    let (st, v) = w.call(Method::GET, "/api/services/inkasso/claims/", &plain, None).await;
    assert_eq!((st, key(&v)), (StatusCode::FORBIDDEN, "service_not_purchased".into()));
}

#[tokio::test]
async fn the_contract_check_link_is_configured_and_always_shown() {
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    // No plan needed (spec §5: contract check always shown).
    let v = w.ok(Method::GET, "/api/services/kontracto/?lang=en", &ct, None).await;
    assert_eq!(v["url"], format!("{}/kontrakto/?lang=en", w.providers));
    let (st, _, page) = testkit::http("GET", v["url"].as_str().unwrap(), None, b"").await;
    assert_eq!(st, 200);
    assert!(String::from_utf8_lossy(&page).contains("Avtalskollen"));
    // Always shown: also to a contact without view_kontracto.
    let without = w.contact_of(&cust, vec![Permission::AddCase, Permission::ViewAllCases]).await.1;
    assert!(w.ok(Method::GET, "/api/services/kontracto/", &without, None).await["url"].as_str().is_some());
    let with = w.contact_of(&cust, vec![Permission::ViewKontracto, Permission::ViewAllCases]).await.1;
    assert!(w.ok(Method::GET, "/api/services/kontracto/", &with, None).await["url"].as_str().unwrap().ends_with("lang=sv"));
}

// ------------------------------------------------------ signing callback ----

const TOPIC: &str = "arn:aws:sns:eu-north-1:123456789012:verified-webhooks";

async fn post_callback(w: &World, body: &serde_json::Value) -> StatusCode {
    testkit::call_bytes(&w.app, Method::POST, "/api/verified/callback/", None, Some(body.clone())).await.0
}

/// Every refusal of the callback is JSON in the API's error shape: a body
/// over the service's limit and one over the API's body limit alike.
#[tokio::test]
async fn an_oversized_callback_answers_json_413() {
    let w = world().await;
    for size in [shared::services::verified_callback::MAX_BODY + 1, shared::api::MAX_BODY_BYTES + 1] {
        let (st, headers, body) =
            testkit::call_bytes(&w.app, Method::POST, "/api/verified/callback/", None, Some(json!("x".repeat(size)))).await;
        assert_eq!(st, StatusCode::PAYLOAD_TOO_LARGE, "{size}");
        assert_eq!(headers["content-type"], "application/json", "{size}");
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["message"], "request_too_large", "{size}");
    }
}

#[tokio::test]
async fn the_signing_webhook_comes_through_sns_and_is_checked_before_anything() {
    use shared::providers::callback::test_signer;
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    w.plan(&cust, shared::domain::catalogue::VERIFIED, 5).await;
    let token = w
        .ok(Method::POST, "/api/verified/", &ct, Some(json!({"company": "k1", "email": "cb@example.com", "password": "secret-pass"})))
        .await;
    assert_eq!(token["registered"], true);
    let up = w.ok(Method::POST, "/api/services/contract-sign/upload-url/", &ct, Some(json!({"name": "a.pdf"}))).await;
    assert_eq!(testkit::http("PUT", up["url"].as_str().unwrap(), Some("application/pdf"), PDF).await.0, 200);
    let signer = |n: u32| {
        json!({"name": format!("Signer {n}"), "email": format!("s{n}@example.com"), "phone": "+46701234567", "locale": "sv",
            "role": "signer", "notify_sms": false, "require_auth": false, "sign_method": "bankid_se"})
    };
    let form = json!({"name": "Avtal", "documents": [{"key": up["key"], "name": "a.pdf"}], "recipients": [signer(1), signer(2)], "sequential": false});
    let e = w.ok(Method::POST, "/api/services/contract-sign/", &ct, Some(form)).await;
    let uid = e["uid"].as_str().unwrap().to_string();
    let sent = w.ok(Method::POST, &format!("/api/services/contract-sign/{uid}/send/"), &ct, None).await;
    let provider_id = sent["provider_id"].as_str().unwrap().to_string();

    // Everyone signs at the provider.
    let vt = w.state.store.verified_token(&cust.uid).await.unwrap().unwrap().token;
    let uri: hyper::Uri = format!("{}/verified/envelopes/{provider_id}/sign-all", w.providers).parse().unwrap();
    let client = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new()).build_http();
    let req = hyper::Request::post(uri)
        .header("authorization", format!("JWT {vt}"))
        .header("x-namespace", "/companies/k1")
        .body(http_body_util::Full::new(bytes::Bytes::new()))
        .unwrap();
    assert!(client.request(req).await.unwrap().status().is_success());

    let rev = || async { w.state.store.envelope(&cust.uid, &uid).await.unwrap().unwrap() };
    let before = rev().await.1;
    let message = json!({"event": "envelope.completed", "envelope": {"id": provider_id}}).to_string();
    // Refused: the invented status body of before, a changed message, a
    // certificate from elsewhere, an unsigned confirmation.
    let old = json!({"id": provider_id, "state": "completed", "recipients": []});
    assert_eq!(post_callback(&w, &old).await, StatusCode::UNAUTHORIZED);
    let mut changed = test_signer::notification(TOPIC, &message);
    changed["Message"] = json!({"envelope": {"id": "other"}}).to_string().into();
    assert_eq!(post_callback(&w, &changed).await, StatusCode::UNAUTHORIZED);
    let mut elsewhere = test_signer::notification(TOPIC, &message);
    elsewhere["SigningCertURL"] = "https://certs.example.com/SimpleNotificationService.pem".into();
    assert_eq!(post_callback(&w, &elsewhere).await, StatusCode::UNAUTHORIZED);
    let mut unsigned = test_signer::subscription(TOPIC);
    unsigned["Signature"] = "AAAA".into();
    assert_eq!(post_callback(&w, &unsigned).await, StatusCode::UNAUTHORIZED);
    assert_eq!(rev().await.1, before, "nothing changed");

    // The subscription is confirmed once, by its SubscribeURL.
    let sub = test_signer::subscription(TOPIC);
    assert_eq!(post_callback(&w, &sub).await, StatusCode::NO_CONTENT);
    let url = sub["SubscribeURL"].as_str().unwrap().to_string();
    assert_eq!(test_signer::confirmed().iter().filter(|u| **u == url).count(), 1);

    // A signed notification: the envelope is read from the provider, completed, the signed PDF kept.
    let good = test_signer::notification(TOPIC, &message);
    assert_eq!(post_callback(&w, &good).await, StatusCode::NO_CONTENT);
    let (done, rev1) = rev().await;
    assert_eq!(done.state, shared::domain::addons::EnvelopeState::Completed);
    assert!(done.signed_key.is_some());
    assert!(done.recipients.iter().all(|r| r.signed));
    // Replayed: accepted, nothing changes; a message about no envelope of ours is accepted and ignored.
    assert_eq!(post_callback(&w, &good).await, StatusCode::NO_CONTENT);
    assert_eq!(rev().await.1, rev1);
    let unknown = test_signer::notification(TOPIC, &json!({"envelope": {"id": "env-none"}}).to_string());
    assert_eq!(post_callback(&w, &unknown).await, StatusCode::NO_CONTENT);
}

//! Debt collection (the manual hand-over to the agency), the contract-check link and the signing callback
//! against the local stand-ins (AWS and
//! providers), each test on its own table and its own provider stand-in.

use crate::world::{key, made_and_refused, world, World, PDF};
use axum::http::{Method, StatusCode};
use chrono::Utc;
use serde_json::{json, Value};
use shared::domain::inkasso::ClaimForm;
use shared::domain::{Permission, Role, User};
use shared::mail::Mailer;
use shared::providers::http::ProviderError;
use shared::providers::inkasso::{HandOver, Inkasso, MailHandOver, LOCAL_HANDOVER};
use shared::providers::Fut;
use shared::testkit;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

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

    /// The hand-over mails sent so far (the local outbox), subject and text.
    fn handed_over(&self) -> Vec<(String, String)> {
        let outbox = self.state.mail.outbox().expect("tests keep a local outbox");
        let sent = outbox.lock().unwrap().clone();
        sent.into_iter().filter(|m| m.to == LOCAL_HANDOVER).map(|m| (m.subject, m.body)).collect()
    }

    /// Staff record the agency's answer to `customer`'s application.
    async fn decide(&self, customer: &User, body: Value) -> (StatusCode, Value) {
        let (_, admin) = testkit::signed_in(&self.state, Role::Admin).await;
        self.call(Method::PUT, &format!("/api/admin/inkasso/{}/prospect/", customer.uid), &admin, Some(body)).await
    }

    /// A customer with the Incasso plan (`limit` claims) and an approved account.
    async fn approved_customer(&self, limit: u32) -> (User, String, u64) {
        let (cust, ct) = testkit::signed_in(&self.state, Role::Customer).await;
        let row = self.plan(&cust, INCASSO, limit).await;
        self.ok(Method::PUT, "/api/inkasso/prospect/", &ct, Some(account("192.0.2.10"))).await;
        let (st, p) = self.decide(&cust, json!({"state": "approved", "creditor_id": "K-10234"})).await;
        assert_eq!((st, p["state"].clone()), (StatusCode::OK, json!("approved")), "{p}");
        (cust, ct, row)
    }
}

#[tokio::test]
async fn the_application_is_handed_over_and_the_office_records_the_agencys_answer() {
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let (_, admin) = testkit::signed_in(&w.state, Role::Admin).await;
    w.plan(&cust, INCASSO, 5).await;
    assert_eq!(w.ok(Method::GET, "/api/inkasso/prospect/", &ct, None).await, Value::Null);
    assert_eq!(w.ok(Method::GET, "/api/inkasso-hashs/", &ct, None).await, json!([]));

    let applied = w.ok(Method::PUT, "/api/inkasso/prospect/", &ct, Some(account("192.0.2.10"))).await;
    assert_eq!(applied["state"], "applied");
    assert!(applied["handed_over_at"].is_string(), "{applied}");
    // One mail to the hand-over address with what the agency registers a creditor with.
    let mails = w.handed_over();
    assert_eq!(mails.len(), 1);
    for field in [
        "556000-0001",
        "Kim Kontakt",
        "Banken",
        "1234-5678901",
        "4100-4",
        "5050-1055",
        "SE4550000000058398257466",
        "ESSESESS",
        "192.0.2.10",
    ] {
        assert!(mails[0].1.contains(field), "{field} in {}", mails[0].1);
    }
    // The same application again is the one made: no second mail.
    w.ok(Method::PUT, "/api/inkasso/prospect/", &ct, Some(account("192.0.2.10"))).await;
    assert_eq!(w.handed_over().len(), 1);

    // The office sees it among the open hand-overs; nobody else does.
    let open = w.ok(Method::GET, "/api/admin/inkasso/", &admin, None).await;
    let mine: Vec<&Value> = open["applications"].as_array().unwrap().iter().filter(|a| a["customer_uid"] == cust.uid.as_str()).collect();
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0]["prospect"]["account"]["organization_number"], "556000-0001");
    for role in [Role::Customer, Role::Lawyer, Role::SalesPerson] {
        let (_, other) = testkit::signed_in(&w.state, role).await;
        let (st, _) = w.call(Method::GET, "/api/admin/inkasso/", &other, None).await;
        assert_eq!(st, StatusCode::FORBIDDEN, "{role:?}");
    }
    let (_, lawyer) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let (st, _) = w
        .call(
            Method::PUT,
            &format!("/api/admin/inkasso/{}/prospect/", cust.uid),
            &lawyer,
            Some(json!({"state": "approved", "creditor_id": "K-1"})),
        )
        .await;
    assert_eq!(st, StatusCode::FORBIDDEN);

    // Not approved yet: no claim ('come back after 30 minutes').
    let invoice = w.upload_invoice(&ct, PDF).await;
    let (st, v) = w.call(Method::POST, "/api/services/inkasso/claims/", &ct, Some(claim(&invoice, None))).await;
    assert_eq!((st, key(&v)), (StatusCode::BAD_REQUEST, "inkasso_account_not_approved".into()));

    // Approving needs the agency's customer number; a bad answer names its field.
    let (st, v) = w.decide(&cust, json!({"state": "approved"})).await;
    assert_eq!((st, v["errors"]["creditor_id"].clone()), (StatusCode::BAD_REQUEST, json!(["required"])));
    let (st, v) = w.decide(&cust, json!({"state": "maybe", "creditor_id": "x".repeat(65)})).await;
    assert_eq!(
        (st, v["errors"]["state"].clone(), v["errors"]["creditor_id"].clone()),
        (StatusCode::BAD_REQUEST, json!(["invalid"]), json!(["too_long"]))
    );
    let (st, _) = w.decide(&testkit::signed_in(&w.state, Role::Customer).await.0, json!({"state": "rejected"})).await;
    assert_eq!(st, StatusCode::NOT_FOUND, "a customer without an application");
    let (st, approved) = w.decide(&cust, json!({"state": "approved", "creditor_id": " K-10234 "})).await;
    assert_eq!(st, StatusCode::OK, "{approved}");
    assert_eq!((approved["state"].as_str(), approved["creditor_id"].as_str()), (Some("approved"), Some("K-10234")));
    let open = w.ok(Method::GET, "/api/admin/inkasso/", &admin, None).await;
    assert!(open["applications"].as_array().unwrap().iter().all(|a| a["customer_uid"] != cust.uid.as_str()), "closed: {open}");

    // The customer sees the decision and the number; applying again changes nothing.
    let seen = w.ok(Method::GET, "/api/inkasso/prospect/", &ct, None).await;
    assert_eq!((seen["state"].as_str(), seen["creditor_id"].as_str()), (Some("approved"), Some("K-10234")));
    assert!(seen["approved_date"].is_string());
    let hashes = w.ok(Method::GET, "/api/inkasso-hashs/", &ct, None).await;
    assert_eq!(
        hashes,
        json!([{"organization_number": "556000-0001", "creditor_id": "K-10234", "hash": "K-10234", "approved_date": seen["approved_date"]}])
    );
    let again = w.ok(Method::PUT, "/api/inkasso/prospect/", &ct, Some(account("192.0.2.99"))).await;
    assert_eq!((again["state"].clone(), again["account"]["approved_ip"].clone()), (json!("approved"), json!("192.0.2.10")));
    assert_eq!(w.handed_over().len(), 1);
}

#[tokio::test]
async fn claims_are_handed_over_booked_once_and_follow_what_the_office_records() {
    let w = world().await;
    let (cust, ct, row) = w.approved_customer(5).await;
    let (_, admin) = testkit::signed_in(&w.state, Role::Admin).await;
    let invoice = w.upload_invoice(&ct, PDF).await;
    let rid = "0123456789abcdef0123456789abcdef";
    let (st, c) = w.call(Method::POST, "/api/services/inkasso/claims/", &ct, Some(claim(&invoice, Some(rid)))).await;
    assert_eq!(st, StatusCode::CREATED, "{c}");
    assert_eq!(
        (c["status"].as_str(), c["amount"].as_i64(), c["debtor_number"].as_str()),
        (Some("submitted"), Some(1_250_050), Some("556000-0001"))
    );
    assert!(c["handed_over_at"].is_string());
    assert_eq!(w.consumed(row).await, 1);
    let mails = w.handed_over();
    assert_eq!(mails.len(), 2, "the application and the claim");
    for field in ["K-10234", "Gäldenär AB", "556000-0001", "Storgatan 1, 111 22 Stockholm", "ekonomi@example.com", "12500,50 SEK", "F-17"]
    {
        assert!(mails[1].1.contains(field), "{field} in {}", mails[1].1);
    }
    // A retried request is the same claim, booked and mailed once.
    let retried = w.ok(Method::POST, "/api/services/inkasso/claims/", &ct, Some(claim(&invoice, Some(rid)))).await;
    assert_eq!(retried["uid"], c["uid"]);
    assert_eq!(w.consumed(row).await, 1);
    assert_eq!(w.handed_over().len(), 2);

    // The office sees it with the creditor's number and fetches the invoice.
    let uid = c["uid"].as_str().unwrap();
    let open = w.ok(Method::GET, "/api/admin/inkasso/", &admin, None).await;
    let mine: Vec<&Value> = open["claims"].as_array().unwrap().iter().filter(|h| h["claim"]["uid"] == uid).collect();
    assert_eq!((mine.len(), mine[0]["creditor_id"].as_str()), (1, Some("K-10234")));
    let link = w.ok(Method::GET, &format!("/api/admin/inkasso/{}/claims/{uid}/invoice/", cust.uid), &admin, None).await;
    let (st, _, pdf) = testkit::http("GET", link["url"].as_str().unwrap(), None, b"").await;
    assert_eq!((st, pdf.as_slice()), (200, PDF));
    let (st, _) = w.call(Method::GET, &format!("/api/admin/inkasso/{}/claims/{uid}/invoice/", cust.uid), &ct, None).await;
    assert_eq!(st, StatusCode::FORBIDDEN);

    // Staff record the agency's statuses; the customer's list follows them.
    let path = format!("/api/admin/inkasso/{}/claims/{uid}/", cust.uid);
    let (st, v) = w.call(Method::PUT, &path, &admin, Some(json!({"status": "lost"}))).await;
    assert_eq!((st, v["errors"]["status"].clone()), (StatusCode::BAD_REQUEST, json!(["invalid"])));
    let (st, _) =
        w.call(Method::PUT, &format!("/api/admin/inkasso/{}/claims/none/", cust.uid), &admin, Some(json!({"status": "paid"}))).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (st, _) = w.call(Method::PUT, &path, &ct, Some(json!({"status": "paid"}))).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let mut seen = Vec::new();
    for status in ["registered", "reminder_sent", "collection"] {
        let body = json!({"status": status, "agency_reference": if status == "registered" { Some("INK-42") } else { None }});
        w.ok(Method::PUT, &path, &admin, Some(body)).await;
        let list = w.ok(Method::GET, "/api/services/inkasso/claims/", &ct, None).await;
        assert_eq!(list.as_array().unwrap().len(), 1);
        assert_eq!(list[0]["agency_reference"], "INK-42", "kept when not given again");
        seen.push(list[0]["status"].as_str().unwrap().to_string());
    }
    assert_eq!(seen, ["registered", "reminder_sent", "collection"]);
    // A closed claim leaves the open hand-overs.
    w.ok(Method::PUT, &path, &admin, Some(json!({"status": "closed"}))).await;
    let open = w.ok(Method::GET, "/api/admin/inkasso/", &admin, None).await;
    assert!(open["claims"].as_array().unwrap().iter().all(|h| h["claim"]["uid"] != uid), "{open}");
    assert_eq!(w.handed_over().len(), 2);

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
async fn a_rejected_account_takes_no_claims_until_a_corrected_one_is_approved() {
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let (_, admin) = testkit::signed_in(&w.state, Role::Admin).await;
    let row = w.plan(&cust, INCASSO, 5).await;
    let invoice = w.upload_invoice(&ct, PDF).await;
    w.ok(Method::PUT, "/api/inkasso/prospect/", &ct, Some(account("203.0.113.7"))).await;
    let (st, p) = w.decide(&cust, json!({"state": "rejected", "creditor_id": ""})).await;
    assert_eq!((st, p["state"].as_str(), p["creditor_id"].clone()), (StatusCode::OK, Some("rejected"), Value::Null));
    assert_eq!(w.ok(Method::GET, "/api/inkasso/prospect/", &ct, None).await["state"], "rejected");
    assert_eq!(w.ok(Method::GET, "/api/inkasso-hashs/", &ct, None).await, json!([]));
    let (st, v) = w.call(Method::POST, "/api/services/inkasso/claims/", &ct, Some(claim(&invoice, None))).await;
    assert_eq!((st, key(&v)), (StatusCode::BAD_REQUEST, "inkasso_account_not_approved".into()));
    assert_eq!(w.consumed(row).await, 0);
    // A corrected application is a new hand-over, open again for the office.
    let again = w.ok(Method::PUT, "/api/inkasso/prospect/", &ct, Some(account("192.0.2.10"))).await;
    assert_eq!(again["state"], "applied");
    assert_eq!(w.handed_over().len(), 2);
    let open = w.ok(Method::GET, "/api/admin/inkasso/", &admin, None).await;
    assert!(open["applications"].as_array().unwrap().iter().any(|a| a["customer_uid"] == cust.uid.as_str()));
    w.decide(&cust, json!({"state": "approved", "creditor_id": "K-2"})).await;
    assert_eq!(w.ok(Method::POST, "/api/services/inkasso/claims/", &ct, Some(claim(&invoice, None))).await["status"], "submitted");
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
    assert_eq!(made_and_refused(tasks).await, (20, 30));
    assert_eq!(w.consumed(row).await, 20);
    assert_eq!(w.state.store.claims(&cust.uid).await.unwrap().len(), 20);
    let (st, v) = w.call(Method::POST, "/api/services/inkasso/claims/", &ct, Some(claim(&invoice, None))).await;
    assert_eq!((st, key(&v)), (StatusCode::BAD_REQUEST, "limit_reached".into()));
}

/// The mail hand-over, failing while `down`.
struct Flaky {
    down: AtomicBool,
    mail: MailHandOver,
}

impl Inkasso for Flaky {
    fn hand_over<'a>(&'a self, mail: &'a Mailer, h: &'a HandOver) -> Fut<'a, ()> {
        if self.down.load(Ordering::SeqCst) {
            return Box::pin(async { Err(ProviderError::Unavailable) });
        }
        self.mail.hand_over(mail, h)
    }
}

#[tokio::test]
async fn a_failed_hand_over_keeps_the_record_and_is_mailed_at_the_next_read() {
    let flaky = Arc::new(Flaky { down: AtomicBool::new(true), mail: MailHandOver { to: Some(LOCAL_HANDOVER.into()) } });
    let (state, providers) = testkit::services_with_inkasso(flaky.clone()).await;
    let w = World { app: shared::api::finish(addons::api(), state.clone()), state, providers };
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let row = w.plan(&cust, INCASSO, 5).await;
    // The application is kept and open for the office, not yet mailed.
    let p = w.ok(Method::PUT, "/api/inkasso/prospect/", &ct, Some(account("192.0.2.10"))).await;
    assert_eq!((p["state"].as_str(), p["handed_over_at"].clone()), (Some("applied"), Value::Null));
    assert!(w.handed_over().is_empty());
    assert_eq!(w.ok(Method::GET, "/api/inkasso/prospect/", &ct, None).await["handed_over_at"], Value::Null);
    // Back up: the next read mails it, once.
    flaky.down.store(false, Ordering::SeqCst);
    assert!(w.ok(Method::GET, "/api/inkasso/prospect/", &ct, None).await["handed_over_at"].is_string());
    w.ok(Method::GET, "/api/inkasso/prospect/", &ct, None).await;
    assert_eq!(w.handed_over().len(), 1);

    // A claim likewise: kept and booked, mailed at the next listing.
    w.decide(&cust, json!({"state": "approved", "creditor_id": "K-3"})).await;
    let invoice = w.upload_invoice(&ct, PDF).await;
    flaky.down.store(true, Ordering::SeqCst);
    let c = w.ok(Method::POST, "/api/services/inkasso/claims/", &ct, Some(claim(&invoice, None))).await;
    assert_eq!((c["status"].as_str(), c["handed_over_at"].clone()), (Some("submitted"), Value::Null));
    assert_eq!(w.consumed(row).await, 1);
    assert_eq!(w.ok(Method::GET, "/api/services/inkasso/claims/", &ct, None).await[0]["handed_over_at"], Value::Null);
    flaky.down.store(false, Ordering::SeqCst);
    assert!(w.ok(Method::GET, "/api/services/inkasso/claims/", &ct, None).await[0]["handed_over_at"].is_string());
    w.ok(Method::GET, "/api/services/inkasso/claims/", &ct, None).await;
    assert_eq!(w.handed_over().len(), 2);
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
    // The office's page is not the contact's either.
    let (st, _) = w.call(Method::GET, "/api/admin/inkasso/", &with, None).await;
    assert_eq!(st, StatusCode::FORBIDDEN);

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

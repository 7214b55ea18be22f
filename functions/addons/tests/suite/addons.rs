//! Add-on services against the local stand-ins (AWS and providers), each
//! test on its own table and its own provider stand-in: spec §5 access for
//! customer and contact, the signing token and envelope flow, validation
//! messages, the limit exact under 50 concurrent uses, provider failures
//! that store nothing, credit checks.

use crate::world::{made_and_refused, world, World, PDF};
use axum::http::{Method, StatusCode};
use chrono::Utc;
use serde_json::{json, Value};
use shared::domain::addons::{EnvelopeDocument, EnvelopeForm, Recipient};
use shared::domain::{Permission, Role};
use shared::testkit;

impl World {
    /// Uploads `bytes` as `name` through the envelope upload URL: its key.
    async fn upload(&self, token: &str, name: &str, bytes: &[u8]) -> String {
        self.upload_to("/api/services/contract-sign/upload-url/", token, name, bytes).await
    }
}

fn signer(n: u32, role: &str) -> Value {
    json!({"name": format!("Signer {n}"), "email": format!("s{n}@example.com"), "phone": "+46701234567", "locale": "sv",
        "role": role, "notify_sms": false, "require_auth": true, "sign_method": "bankid_se"})
}

#[tokio::test]
async fn access_follows_the_spec_for_customers_and_contacts() {
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let (_, lawyer) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let (_, with_perm) = w.contact_of(&cust, vec![Permission::ViewVerify, Permission::ViewBisnode, Permission::ViewAllCases]).await;
    let (_, without) = w.contact_of(&cust, vec![Permission::AddCase, Permission::ViewAllCases]).await;
    let key = |v: &Value| v["message"].as_str().unwrap_or_default().to_string();

    // No plan: the promotion (service_not_purchased) for customer and contact.
    for t in [&ct, &with_perm] {
        let (st, v) = w.call(Method::GET, "/api/services/contract-sign/", t, None).await;
        assert_eq!((st, key(&v)), (StatusCode::FORBIDDEN, "service_not_purchased".into()));
        assert_eq!(w.ok(Method::GET, "/api/customer/verify-services/?service=Verified", t, None).await, json!([]));
    }
    // A contact without the permission is refused whatever the plan (the web sends it to /customer_contact/).
    let (st, v) = w.call(Method::GET, "/api/services/contract-sign/", &without, None).await;
    assert_eq!((st, key(&v)), (StatusCode::FORBIDDEN, "service_permission_missing".into()));
    // Staff do not use the customers' services.
    assert_eq!(w.call(Method::GET, "/api/verified/check/", &lawyer, None).await.0, StatusCode::FORBIDDEN);

    w.plan(&cust, 2, 5).await;
    // With the plan, signing still needs the token.
    let (st, v) = w.call(Method::GET, "/api/services/contract-sign/", &ct, None).await;
    assert_eq!((st, key(&v)), (StatusCode::FORBIDDEN, "verified_token_missing".into()));
    assert_eq!(w.ok(Method::GET, "/api/verified/check/", &ct, None).await, json!({"registered": false, "valid": false}));
    assert_eq!(w.ok(Method::GET, "/api/customer/verify-services/?service=Verified", &with_perm, None).await.as_array().unwrap().len(), 1);
    assert_eq!(w.ok(Method::GET, "/api/customer/verify-services/?service=Verified", &without, None).await, json!([]));
    let (st, v) = w.call(Method::GET, "/api/services/contract-sign/", &without, None).await;
    assert_eq!((st, key(&v)), (StatusCode::FORBIDDEN, "service_permission_missing".into()));

    // Credit check: the plan and the account, which admin or sales turn on.
    let (st, v) = w.call(Method::GET, "/api/services/credit-check/", &ct, None).await;
    assert_eq!((st, key(&v)), (StatusCode::FORBIDDEN, "service_not_purchased".into()));
    w.plan(&cust, 3, 5).await;
    let (st, v) = w.call(Method::GET, "/api/services/credit-check/", &with_perm, None).await;
    assert_eq!((st, key(&v)), (StatusCode::FORBIDDEN, "credit_account_inactive".into()));
    let path = format!("/api/customer/bisnode/{}/", cust.uid);
    assert_eq!(w.call(Method::PUT, &path, &ct, Some(json!({"active": true}))).await.0, StatusCode::FORBIDDEN);
    let (_, sales) = testkit::signed_in(&w.state, Role::SalesPerson).await;
    assert_eq!(w.call(Method::PUT, &path, &sales, Some(json!({"active": true}))).await.0, StatusCode::NO_CONTENT);
    assert_eq!(w.ok(Method::GET, "/api/services/credit-check/", &with_perm, None).await, json!([]));
    let (st, v) = w.call(Method::GET, "/api/services/credit-check/", &without, None).await;
    assert_eq!((st, key(&v)), (StatusCode::FORBIDDEN, "service_permission_missing".into()));
}

#[tokio::test]
async fn a_customer_signs_an_envelope_from_token_to_signed_pdf() {
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let row = w.plan(&cust, 2, 5).await;
    // Token: a wrong login is refused; registration keeps the token per company.
    let (st, v) = w.call(Method::POST, "/api/verified/auth/", &ct, Some(json!({"email": "x@example.com", "password": "nope-nope"}))).await;
    assert_eq!((st, v["message"].as_str().unwrap()), (StatusCode::BAD_REQUEST, "verified_login_failed"));
    let (st, v) = w
        .call(
            Method::POST,
            "/api/verified/",
            &ct,
            Some(json!({"company": "Kund AB", "email": "sign@example.com", "password": "secret-pass"})),
        )
        .await;
    assert_eq!((st, v["errors"]["company"][0].as_str()), (StatusCode::BAD_REQUEST, Some("invalid")), "the company's id at Verified");
    let reg = json!({"company": "kund-ab-1", "email": "sign@example.com", "password": "secret-pass"});
    assert_eq!(w.ok(Method::POST, "/api/verified/", &ct, Some(reg)).await, json!({"registered": true, "valid": true}));
    let kept = w.state.store.verified_token(&cust.uid).await.unwrap().unwrap();
    assert_eq!((kept.company_id.as_str(), kept.expires_at.is_some(), kept.basic_token.is_empty()), ("kund-ab-1", true, false));
    // Logging in again (the company as connected) with a wrong password is refused and keeps the token.
    let (st, v) =
        w.call(Method::POST, "/api/verified/auth/", &ct, Some(json!({"email": "sign@example.com", "password": "wrong-one"}))).await;
    assert_eq!((st, v["message"].as_str().unwrap()), (StatusCode::BAD_REQUEST, "verified_login_failed"));
    assert_eq!(
        w.ok(Method::POST, "/api/verified/auth/", &ct, Some(json!({"email": "sign@example.com", "password": "secret-pass"}))).await
            ["valid"],
        true
    );
    assert_eq!(w.ok(Method::GET, "/api/verified/check/", &ct, None).await["valid"], true);
    assert_eq!(w.ok(Method::GET, "/api/services/contract-sign/", &ct, None).await, json!([]));

    // Validation: PDF by content, enough signers.
    let fake = w.upload(&ct, "fake.pdf", b"PK\x03\x04 not a pdf").await;
    let (st, v) = w
        .call(
            Method::POST,
            "/api/services/contract-sign/",
            &ct,
            Some(json!({"name": "Avtal", "documents": [{"key": fake, "name": "fake.pdf"}], "recipients": [signer(1, "signer")]})),
        )
        .await;
    assert_eq!((st, v["errors"]["documents.0"][0].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_pdf")));
    // Parsed whole: a PDF that runs a script when opened, or an HTML page
    // starting `%PDF-`, never reaches signers.
    let sample = shared::domain::pdf::sample;
    for (bytes, why) in [
        (sample("/OpenAction << /S /JavaScript /JS (app.alert(1)) >>", &[]), "pdf_active_content"),
        (sample("", &["<< /Type /Action /S /Launch /F (cmd.exe) >>"]), "pdf_active_content"),
        (b"%PDF-1.4\n<html><script>alert(1)</script></html>".to_vec(), "invalid_pdf"),
    ] {
        let bad = w.upload(&ct, "bad.pdf", &bytes).await;
        let form = json!({"name": "Avtal", "documents": [{"key": bad, "name": "bad.pdf"}], "recipients": [signer(1, "signer")]});
        let (st, v) = w.call(Method::POST, "/api/services/contract-sign/", &ct, Some(form)).await;
        assert_eq!((st, v["errors"]["documents.0"][0].as_str()), (StatusCode::BAD_REQUEST, Some(why)), "{v}");
    }
    let key = w.upload(&ct, "avtal.pdf", PDF).await;
    let docs = json!([{"key": key, "name": "avtal.pdf"}]);
    let (st, v) = w
        .call(
            Method::POST,
            "/api/services/contract-sign/",
            &ct,
            Some(json!({"name": "Avtal", "documents": docs, "recipients": [signer(1, "viewer")]})),
        )
        .await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("not_enough_signers")));
    assert_eq!(w.consumed(row).await, 0, "refused forms use nothing");

    // Create (a retry with the same request id is the same envelope), update, send.
    let form = json!({"name": "Avtal", "documents": docs, "recipients": [signer(1, "signer"), signer(2, "signer")], "sequential": true,
        "request_id": "0123456789abcdef0123456789abcdef"});
    let e = w.ok(Method::POST, "/api/services/contract-sign/", &ct, Some(form.clone())).await;
    let again = w.ok(Method::POST, "/api/services/contract-sign/", &ct, Some(form)).await;
    assert_eq!(e["uid"], again["uid"]);
    assert_eq!(e["state"], "draft");
    assert_eq!(w.consumed(row).await, 1, "one use, booked with the envelope");
    let uid = e["uid"].as_str().unwrap();
    let path = |rest: &str| format!("/api/services/contract-sign/{uid}/{rest}");
    let updated = w
        .ok(Method::PUT, &path(""), &ct, Some(json!({"name": "Avtal 2", "documents": docs, "recipients": [signer(1, "signer"), signer(2, "signer"), signer(3, "viewer")]})))
        .await;
    assert_eq!(updated["recipients"].as_array().unwrap().len(), 3);
    let (st, v) = w.call(Method::GET, &path("download/"), &ct, None).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("envelope_not_completed")));
    let sent = w.ok(Method::POST, &path("send/"), &ct, None).await;
    assert_eq!(sent["state"], "sent");
    assert_eq!(
        w.call(Method::PUT, &path(""), &ct, Some(json!({"name": "x", "documents": docs, "recipients": [signer(1, "signer")]}))).await.1
            ["message"],
        "envelope_not_draft"
    );
    w.ok(Method::POST, &path("remind/"), &ct, None).await;
    // The stand-in signs one recipient per poll: two signers, then completed.
    let mut state = String::new();
    for _ in 0..4 {
        let list = w.ok(Method::GET, "/api/services/contract-sign/", &ct, None).await;
        state = list[0]["state"].as_str().unwrap().to_string();
        if state == "completed" {
            assert!(list[0]["recipients"].as_array().unwrap().iter().filter(|r| r["role"] == "signer").all(|r| r["signed"] == true));
            break;
        }
    }
    assert_eq!(state, "completed");
    let link = w.ok(Method::GET, &path("download/"), &ct, None).await;
    let (st, _, body) = testkit::http("GET", link["url"].as_str().unwrap(), None, b"").await;
    assert_eq!(st, 200);
    assert!(body.starts_with(b"%PDF-"));
    // The use shows in the subscriptions table's consumed column and the ledger.
    let ledger = w.state.store.list_usage(row, Utc::now().date_naive(), Utc::now().date_naive()).await.unwrap();
    assert_eq!(ledger.len(), 1);
    assert!(ledger[0].description.starts_with("Verified: Avtal"));
}

#[tokio::test]
async fn provider_failures_are_clear_and_store_nothing() {
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    w.plan(&cust, 2, 5).await;
    let bisnode = w.plan(&cust, 3, 5).await;
    w.state.store.put_bisnode_account(&cust.uid, true, Some("acc-1")).await.unwrap();

    // Registration: 5xx on every attempt, then a malformed answer.
    let reg = json!({"company": "kund-ab", "email": "sign@example.com", "password": "secret-pass"});
    w.script("5xx", 2).await;
    let (st, v) = w.call(Method::POST, "/api/verified/", &ct, Some(reg.clone())).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_GATEWAY, Some("provider_unavailable")));
    w.script("malformed", 1).await;
    let (st, v) = w.call(Method::POST, "/api/verified/", &ct, Some(reg.clone())).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_GATEWAY, Some("provider_bad_answer")));
    assert!(w.state.store.verified_token(&cust.uid).await.unwrap().is_none(), "no token kept");
    // One 5xx is retried away.
    w.script("5xx", 1).await;
    w.ok(Method::POST, "/api/verified/", &ct, Some(reg)).await;

    // Sending: a timeout on every attempt leaves the draft as it was; the next try sends it once.
    let key = w.upload(&ct, "a.pdf", PDF).await;
    let form = json!({"name": "Avtal", "documents": [{"key": key, "name": "a.pdf"}], "recipients": [signer(1, "signer")]});
    let e = w.ok(Method::POST, "/api/services/contract-sign/", &ct, Some(form)).await;
    let send = format!("/api/services/contract-sign/{}/send/", e["uid"].as_str().unwrap());
    // The create call is sent once (its answer is the only way to know the envelope).
    w.script("timeout", 1).await;
    let (st, v) = w.call(Method::POST, &send, &ct, None).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_GATEWAY, Some("provider_timeout")));
    let (stored, _) = w.state.store.envelope(&cust.uid, e["uid"].as_str().unwrap()).await.unwrap().unwrap();
    assert_eq!((stored.state, stored.provider_id), (shared::domain::addons::EnvelopeState::Draft, None));
    let sent = w.ok(Method::POST, &send, &ct, None).await;
    assert_eq!(sent["state"], "sent");

    // Credit check: a malformed answer stores no report and books no use.
    w.script("malformed", 1).await;
    let (st, v) = w.call(Method::POST, "/api/services/credit-check/", &ct, Some(json!({"kind": "company", "number": "5560000001"}))).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_GATEWAY, Some("provider_bad_answer")));
    assert_eq!(w.ok(Method::GET, "/api/services/credit-check/", &ct, None).await, json!([]));
    assert_eq!(w.consumed(bisnode).await, 0);
}

/// With the template's time budgets, a provider that never answers gives
/// up before the request's deadline: the caller is told `provider_timeout`
/// (the provider's fault), not `request_timed_out`.
#[tokio::test]
async fn a_hanging_provider_answers_provider_timeout_within_the_request_deadline() {
    let budgets = shared::config::Budgets::DEFAULT;
    let (state, providers) = testkit::services_with_stand_in_within(shared::providers::http::Limits::of(&budgets)).await;
    // The API's own limits, with the deadline the functions get.
    let app = shared::api::finish(addons::api(), state.clone());
    let w = World { state, app, providers };
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let row = w.plan(&cust, 3, 2).await;
    w.state.store.put_bisnode_account(&cust.uid, true, Some("acc-1")).await.unwrap();
    // Every attempt hangs far past the deadline.
    let body = json!({"fail": "timeout", "times": budgets.provider_attempts, "delay_ms": 60_000}).to_string();
    let (st, _, _) = testkit::http("POST", &format!("{}/_script", w.providers), Some("application/json"), body.as_bytes()).await;
    assert_eq!(st, 204);
    let started = std::time::Instant::now();
    let (st, v) = w.call(Method::POST, "/api/services/credit-check/", &ct, Some(json!({"kind": "company", "number": "5560000001"}))).await;
    let took = started.elapsed();
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_GATEWAY, Some("provider_timeout")), "after {took:?}");
    assert!(took >= budgets.provider_timeout * budgets.provider_attempts && took < budgets.request_deadline, "{took:?}");
    assert_eq!(w.consumed(row).await, 0, "no use booked");
}

#[tokio::test]
async fn credit_reports_are_read_from_the_blocks_and_kept_once() {
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let row = w.plan(&cust, 3, 2).await;
    let (_, admin) = testkit::signed_in(&w.state, Role::Admin).await;
    w.ok(Method::PUT, &format!("/api/customer/bisnode/{}/", cust.uid), &admin, Some(json!({"active": true, "account": "acc-7"}))).await;
    let (st, v) = w.call(Method::POST, "/api/services/credit-check/", &ct, Some(json!({"kind": "company", "number": "556000-0002"}))).await;
    assert_eq!((st, v["errors"]["number"][0].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_registration_number")));
    let ask = json!({"kind": "company", "number": "5560000001", "request_id": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"});
    let r = w.ok(Method::POST, "/api/services/credit-check/", &ct, Some(ask.clone())).await;
    assert_eq!(r["status"], "ready");
    assert!(r["rating"].is_string() && r["payment_remarks"].is_number() && r["turnover"].is_number(), "{r}");
    assert_eq!(w.ok(Method::POST, "/api/services/credit-check/", &ct, Some(ask)).await["uid"], r["uid"], "a retry is the same report");
    // A person (a sole trader by the owner's personnummer): the legitimate need and the copy's address are required.
    let person = json!({"kind": "person", "number": "19121212-1212"});
    let (st, v) = w.call(Method::POST, "/api/services/credit-check/", &ct, Some(person)).await;
    assert_eq!(
        (st, v["errors"]["legitimate_need"][0].as_str(), v["errors"]["copy_email"][0].as_str()),
        (StatusCode::BAD_REQUEST, Some("required"), Some("required"))
    );
    assert_eq!(w.consumed(row).await, 1, "a refused lookup books nothing");
    let person = json!({"kind": "person", "number": "19121212-1212", "legitimate_need": "Kreditprövning inför hyresavtal", "copy_email": "anna@example.com"});
    let p = w.ok(Method::POST, "/api/services/credit-check/", &ct, Some(person)).await;
    // D&B answers at once; the need is kept and the person is sent the copy.
    assert_eq!((p["status"].as_str(), p["name"].as_str()), (Some("ready"), Some("Företag 1212121212 AB")), "{p}");
    assert_eq!(
        (p["legitimate_need"].as_str(), p["subject_copy"]["channel"].as_str()),
        (Some("Kreditprövning inför hyresavtal"), Some("email"))
    );
    assert!(p["subject_copy"]["sent_at"].is_string(), "{p}");
    let mails = w.state.mail.outbox().unwrap().lock().unwrap().clone();
    let copy = mails.iter().find(|m| m.to == "anna@example.com").expect("the copy was mailed");
    assert!(
        copy.body.contains("121212-1212")
            && copy.body.contains("Kreditprövning inför hyresavtal")
            && copy.body.contains("kreditupplysningslagen"),
        "{}",
        copy.body
    );
    assert!(r["legitimate_need"].is_null() && r["subject_copy"].is_null(), "a company's report keeps neither");
    let list = w.ok(Method::GET, "/api/services/credit-check/", &ct, None).await;
    assert_eq!(list.as_array().unwrap().len(), 2);
    assert!(list.as_array().unwrap().iter().all(|r| r["status"] == "ready"), "{list}");
    assert_eq!(w.consumed(row).await, 2);
    // The plan's limit of two is reached.
    let (st, v) = w.call(Method::POST, "/api/services/credit-check/", &ct, Some(json!({"kind": "company", "number": "5560000019"}))).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("limit_reached")));
}

#[tokio::test]
async fn the_limit_holds_exactly_under_50_concurrent_uses() {
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let row = w.plan(&cust, 2, 20).await;
    w.ok(Method::POST, "/api/verified/", &ct, Some(json!({"company": "K", "email": "k@example.com", "password": "secret-pass"}))).await;
    let key = w.upload(&ct, "a.pdf", PDF).await;
    let form = EnvelopeForm {
        name: "Avtal".into(),
        documents: vec![EnvelopeDocument { key, name: "a.pdf".into() }],
        recipients: vec![serde_json::from_value::<Recipient>(signer(1, "signer")).unwrap()],
        sequential: false,
        request_id: None,
    };
    let mut tasks = Vec::new();
    for _ in 0..50 {
        let (state, cust, form) = (w.state.clone(), cust.clone(), form.clone());
        tasks.push(tokio::spawn(async move {
            shared::services::addons::create_envelope(&state, &cust, &form, None, &shared::store::idempotency::Once::none()).await
        }));
    }
    assert_eq!(made_and_refused(tasks).await, (20, 30));
    assert_eq!(w.consumed(row).await, 20);
    assert_eq!(w.state.store.envelopes(&cust.uid).await.unwrap().len(), 20);
    let today = Utc::now().date_naive();
    assert_eq!(w.state.store.list_usage(row, today, today).await.unwrap().len(), 20);
}

#[tokio::test]
async fn the_inkasso_application_is_validated_and_kept_with_its_state() {
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let (_, without) = w.contact_of(&cust, vec![Permission::AddCase, Permission::ViewAllCases]).await;
    let (st, v) = w.call(Method::GET, "/api/inkasso/prospect/", &ct, None).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::FORBIDDEN, Some("service_not_purchased")));
    w.plan(&cust, 4, 5).await;
    assert_eq!(w.ok(Method::GET, "/api/inkasso/prospect/", &ct, None).await, Value::Null);
    let (st, v) = w.call(Method::GET, "/api/inkasso/prospect/", &without, None).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::FORBIDDEN, Some("service_permission_missing")));
    let form = json!({"home_page": "https://kund.example.com", "bank_name": "Banken", "bank_account": "1234-5678901", "plus_giro": "4100-5",
        "bank_giro": "5050-1055", "iban": "SE45 5000 0000 0583 9825 7466", "bic": "ESSESESS", "approved_ip": "192.0.2.10",
        "contact_name": "Kim", "organization_number": "556000-0001"});
    let (st, v) = w.call(Method::PUT, "/api/inkasso/prospect/", &ct, Some(form.clone())).await;
    assert_eq!((st, v["errors"]["plus_giro"][0].as_str()), (StatusCode::BAD_REQUEST, Some("invalid")));
    let mut ok = form;
    ok["plus_giro"] = json!("4100-4");
    let p = w.ok(Method::PUT, "/api/inkasso/prospect/", &ct, Some(ok)).await;
    assert_eq!(p["state"], "applied");
    assert_eq!(w.ok(Method::GET, "/api/inkasso/prospect/", &ct, None).await["account"]["iban"], "SE4550000000058398257466");
}

/// Each add-on's access reads only the rows of its own service: with rows of
/// several services held, verify-services answers each service's own row,
/// and none for a service not bought.
#[tokio::test]
async fn each_service_finds_its_own_row_among_the_others() {
    use shared::domain::catalogue::{BISNODE, INCASSO, VERIFIED, VIDEO_MEETING};
    let w = world().await;
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    let mut bought = Vec::new();
    for service in [VERIFIED, BISNODE, VIDEO_MEETING] {
        bought.push((service, w.plan(&cust, service, 3).await));
    }
    for (name, service) in [("Verified", VERIFIED), ("Bisnode", BISNODE), ("Video meeting", VIDEO_MEETING), ("Incasso", INCASSO)] {
        let path = format!("/api/customer/verify-services/?service={}", name.replace(' ', "%20"));
        let rows = w.ok(Method::GET, &path, &ct, None).await;
        let ids: Vec<u64> = rows.as_array().unwrap().iter().map(|r| r["id"].as_u64().unwrap()).collect();
        let want: Vec<u64> = bought.iter().filter(|(s, _)| *s == service).map(|(_, id)| *id).collect();
        assert_eq!(ids, want, "{name}: {rows}");
        assert!(rows.as_array().unwrap().iter().all(|r| r["service"]["id"] == service), "{name}: {rows}");
    }
}

/// A send cut off after the envelope was made resumes from the stored
/// step: one envelope at the provider, each document and recipient once,
/// every request as Verified's description has it; an expired token is
/// renewed with the kept credential.
#[tokio::test]
async fn an_interrupted_send_resumes_and_makes_one_envelope() {
    let (state, providers, stand_in) = testkit::services_with_stand_in_handle().await;
    let w = World { app: shared::api::finish(addons::api(), state.clone()), state, providers };
    let (cust, ct) = testkit::signed_in(&w.state, Role::Customer).await;
    w.plan(&cust, 2, 5).await;
    w.ok(Method::POST, "/api/verified/", &ct, Some(json!({"company": "kund-ab", "email": "sign@example.com", "password": "secret-pass"})))
        .await;
    // A token the provider no longer takes (answered 401): renewed with the kept credential.
    let mut kept = w.state.store.verified_token(&cust.uid).await.unwrap().unwrap();
    kept.token = "revoked".into();
    w.state.store.put_verified_token(&cust.uid, &kept).await.unwrap();
    let docs =
        json!([{"key": w.upload(&ct, "a.pdf", PDF).await, "name": "a.pdf"}, {"key": w.upload(&ct, "b.pdf", PDF).await, "name": "b.pdf"}]);
    let form = json!({"name": "Avtal", "documents": docs, "recipients": [signer(1, "signer"), signer(2, "approver"), signer(3, "viewer")], "sequential": true});
    let e = w.ok(Method::POST, "/api/services/contract-sign/", &ct, Some(form)).await;
    let uid = e["uid"].as_str().unwrap();
    let send = format!("/api/services/contract-sign/{uid}/send/");
    // The envelope is made, then the provider fails for good at the settings.
    // (Calls: the create refused with the old token, /auth, the create again, then the settings.)
    let body = json!({"fail": "5xx", "times": 2, "after": 3}).to_string();
    testkit::http("POST", &format!("{}/_script", w.providers), Some("application/json"), body.as_bytes()).await;
    let (st, v) = w.call(Method::POST, &send, &ct, None).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_GATEWAY, Some("provider_unavailable")));
    let (stored, _) = w.state.store.envelope(&cust.uid, uid).await.unwrap().unwrap();
    assert_eq!(stored.state, shared::domain::addons::EnvelopeState::Draft);
    let provider_id = stored.provider_id.clone().expect("the envelope's uid is stored after the first call");
    // Then it fails again halfway through the recipients.
    let body = json!({"fail": "5xx", "times": 1, "after": 9}).to_string();
    testkit::http("POST", &format!("{}/_script", w.providers), Some("application/json"), body.as_bytes()).await;
    let (st, _) = w.call(Method::POST, &send, &ct, None).await;
    assert_eq!(st, StatusCode::BAD_GATEWAY);
    let (stored, _) = w.state.store.envelope(&cust.uid, uid).await.unwrap().unwrap();
    let p = stored.sending.clone().unwrap();
    assert!(p.settings_done && p.documents.len() == 2 && p.documents.iter().all(|d| d.uploaded), "{p:?}");
    let sent = w.ok(Method::POST, &send, &ct, None).await;
    assert_eq!((sent["state"].as_str(), sent["provider_id"].as_str()), (Some("sent"), Some(provider_id.as_str())));
    assert_eq!(stand_in.verified_envelopes(), 1, "one envelope at the provider");
    let (stored, _) = w.state.store.envelope(&cust.uid, uid).await.unwrap().unwrap();
    assert_eq!(stored.sending.as_ref().unwrap().recipients.len(), 3);
    // A second send of a sent envelope is refused.
    assert_eq!(w.call(Method::POST, &send, &ct, None).await.1["message"], "envelope_not_draft");
    // Reminders go to those who sign or approve; in-portal signing through the sign link.
    w.ok(Method::POST, &format!("/api/services/contract-sign/{uid}/remind/"), &ct, None).await;
    assert_eq!(stand_in.verified_notifications(&provider_id), 2);
    let link = shared::services::addons::sign_link(&w.state, &cust, uid, "s1@example.com").await.unwrap();
    assert_eq!(testkit::http("GET", &link, None, b"").await.0, 200);
    assert!(shared::services::addons::sign_link(&w.state, &cust, uid, "s3@example.com").await.is_err(), "a viewer signs nothing");
    // Cancelled: aborted at the provider.
    let cancelled = w.ok(Method::POST, &format!("/api/services/contract-sign/{uid}/cancel/"), &ct, None).await;
    assert_eq!(cancelled["state"], "cancelled");
    let requests = stand_in.verified_requests();
    let bodies = |path: &str| requests.iter().filter(|r| r.method == "POST" && r.path.ends_with(path)).count();
    assert_eq!((bodies("/documents"), bodies("/recipients")), (2, 3), "each once");
    assert_eq!(requests.iter().filter(|r| r.path == "/auth").count(), 2, "the refused token was renewed once");
    // A token that ran out is renewed before the call.
    let mut kept = w.state.store.verified_token(&cust.uid).await.unwrap().unwrap();
    kept.expires_at = Some(Utc::now() - chrono::Duration::minutes(1));
    w.state.store.put_verified_token(&cust.uid, &kept).await.unwrap();
    assert_eq!(w.ok(Method::GET, "/api/verified/check/", &ct, None).await["valid"], true);
    let renewed = w.state.store.verified_token(&cust.uid).await.unwrap().unwrap();
    assert!(renewed.token != kept.token && renewed.expires_at > Some(Utc::now()));
    let errors = shared::providers::contract::Verified::new().check_all(&requests);
    assert!(errors.is_empty(), "{errors:#?}");
}

//! Mail when something happens: one mail per case and recipient in 15
//! minutes, in the reader's language, only while the reader's setting is on,
//! an unsubscribe link that turns it off without signing in, and a retried
//! request that mails once.

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use shared::testkit;

use crate::faults::Faulty;
use crate::world::{case_body, hour_body};

const CUSTOMER: &str = local_gateway::seed::DEMO_CUSTOMER_EMAIL;

fn mails(w: &Faulty, to: &str) -> Vec<shared::mail::SentMail> {
    w.state.mail.outbox().unwrap().lock().unwrap().iter().filter(|m| m.to == to).cloned().collect()
}

async fn call(w: &Faulty, who: Option<&str>, m: Method, path: &str, body: Option<Value>) -> (StatusCode, Value) {
    testkit::call(&w.router, m, path, who.map(|n| w.tokens[n].as_str()), body).await
}

/// A new case of the customer, published and accepted by the lawyer.
async fn accepted_case(w: &Faulty) -> String {
    let case = w.ok("customer", "/api/case/create/by/customer/", case_body(w.case_type, None)).await;
    let uid = case["uid"].as_str().unwrap().to_string();
    w.ok("admin", &format!("/api/case/status/{uid}/"), json!({"action": "publish"})).await;
    w.ok("lawyer", &format!("/api/case/status/{uid}/"), json!({"action": "accept"})).await;
    uid
}

#[tokio::test]
async fn one_mail_per_case_in_a_window_in_the_readers_language_while_the_setting_is_on() {
    let w = Faulty::new().await;
    let before = w.mails_to(CUSTOMER);
    // The setting is on by default, in Swedish.
    let (st, s) = call(&w, Some("customer"), Method::GET, "/api/profile/mail/", None).await;
    assert_eq!((st, s), (StatusCode::OK, json!({"on": true, "language": "sv"})));
    // Accepted, then a message and hours within 15 minutes: one mail, the first event's.
    let case = accepted_case(&w).await;
    w.ok("lawyer", "/api/message/", json!({"case_uid": case, "text": "Hej, jag har läst handlingarna."})).await;
    w.ok("lawyer", "/api/case/hour/create/", hour_body(&case)).await;
    let got = mails(&w, CUSTOMER);
    assert_eq!(got.len(), before + 1, "{got:?}");
    let mail = got.last().unwrap();
    assert!(mail.subject.starts_with("Ärende ") && mail.subject.ends_with(" har accepterats"), "{}", mail.subject);
    assert!(mail.body.starts_with("Hej ") && mail.body.contains("/unsubscribe?token="), "{}", mail.body);
    // The lawyer, who acted, is not mailed of their own acts; the customer's message is theirs.
    let lawyer_before = w.mails_to("lawyer@example.com");
    w.ok("customer", "/api/message/", json!({"case_uid": case, "text": "Tack!"})).await;
    assert_eq!(w.mails_to("lawyer@example.com"), lawyer_before + 1);
    assert!(mails(&w, "lawyer@example.com").last().unwrap().subject.starts_with("Nytt meddelande i ärende "));

    // English: another case's mail is written in English.
    let (st, s) = call(&w, Some("customer"), Method::PUT, "/api/profile/mail/", Some(json!({"on": true, "language": "en"}))).await;
    assert_eq!((st, s), (StatusCode::OK, json!({"on": true, "language": "en"})));
    let other = accepted_case(&w).await;
    let mail = mails(&w, CUSTOMER).pop().unwrap();
    assert!(mail.subject.starts_with("Case ") && mail.subject.ends_with(" was accepted"), "{}", mail.subject);
    assert!(mail.body.starts_with("Hello "), "{}", mail.body);
    let (st, e) = call(&w, Some("customer"), Method::PUT, "/api/profile/mail/", Some(json!({"on": true, "language": "de"}))).await;
    assert_eq!((st, testkit::field(&e, "language")), (StatusCode::BAD_REQUEST, vec!["invalid"]));
    // Whether mail is on is never guessed from a body that does not say.
    let (st, e) = call(&w, Some("customer"), Method::PUT, "/api/profile/mail/", Some(json!({"language": "en"}))).await;
    assert_eq!((st, e["message"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_request_body")), "{e}");

    // Off: no mail, though the notification is still written.
    call(&w, Some("customer"), Method::PUT, "/api/profile/mail/", Some(json!({"on": false, "language": "en"}))).await;
    let count = w.mails_to(CUSTOMER);
    accepted_case(&w).await;
    w.ok("lawyer", "/api/message/", json!({"case_uid": other, "text": "Nytt"})).await;
    assert_eq!(w.mails_to(CUSTOMER), count);
}

#[tokio::test]
async fn the_unsubscribe_link_turns_mail_off_without_signing_in() {
    let w = Faulty::new().await;
    accepted_case(&w).await;
    let mail = mails(&w, CUSTOMER).pop().expect("a mail");
    let link = mail.body.lines().find(|l| l.contains("/unsubscribe?token=")).unwrap().trim().to_string();
    let token = link.split("token=").nth(1).unwrap().to_string();
    // A forged or altered token does nothing.
    for bad in [format!("{token}0"), token.replacen('.', "x.", 1), "".to_string()] {
        let (st, e) = call(&w, None, Method::POST, "/api/profile/mail/unsubscribe/", Some(json!({"token": bad}))).await;
        assert_eq!((st, e["message"].as_str()), (StatusCode::BAD_REQUEST, Some("link_invalid")), "{bad}");
    }
    let (_, s) = call(&w, Some("customer"), Method::GET, "/api/profile/mail/", None).await;
    assert_eq!(s["on"], true);
    let (st, s) = call(&w, None, Method::POST, "/api/profile/mail/unsubscribe/", Some(json!({"token": token}))).await;
    assert_eq!((st, s), (StatusCode::OK, json!({"on": false, "language": "sv"})));
    let (_, s) = call(&w, Some("customer"), Method::GET, "/api/profile/mail/", None).await;
    assert_eq!(s["on"], false);
    let count = w.mails_to(CUSTOMER);
    accepted_case(&w).await;
    assert_eq!(w.mails_to(CUSTOMER), count);
}

/// A request whose answer was lost after the commit (before its mail step)
/// and retried with its key: the mail is sent once, by the sweep, however
/// often the sweep runs.
#[tokio::test]
async fn a_retried_request_mails_once() {
    let w = Faulty::new().await;
    // The customer writes; the lawyer (not mailed about this case yet) is told.
    const LAWYER: &str = "lawyer@example.com";
    let count = w.mails_to(LAWYER);
    let body = json!({"case_uid": w.case, "text": "Viktigt besked"});
    w.state.faults.arm("events.after_commit");
    let (st, _, _) = w.keyed("customer", "/api/message/", "msg-1", &body).await;
    assert_eq!(st, StatusCode::INTERNAL_SERVER_ERROR);
    let (st, h, _) = w.keyed("customer", "/api/message/", "msg-1", &body).await;
    assert_eq!((st, h["idempotent-replayed"].to_str().unwrap()), (StatusCode::CREATED, "true"));
    assert_eq!(w.mails_to(LAWYER), count, "not sent before the sweep");
    let later = chrono::Utc::now() + chrono::Duration::minutes(1);
    for _ in 0..2 {
        shared::services::outbox::send_unsent(&w.state, later, later).await.unwrap();
    }
    assert_eq!(w.mails_to(LAWYER), count + 1);
    assert!(mails(&w, LAWYER).last().unwrap().body.contains("Viktigt besked"));
}

//! Messages, notifications and ratings against the local stand-in, each test
//! on its own table: who may write, read and rate; every event's
//! notification written exactly once, in its transaction; the seen and
//! unread rules; paging and attachments.

use axum::http::{Method, StatusCode};
use axum::Router;
use chrono::Utc;
use serde_json::{json, Value};
use shared::api::{finish, AppState};
use shared::domain::catalogue::{Hundredths, NamedKind};
use shared::domain::subscription::{whole_seconds, Grant};
use shared::domain::{Permission, Role, User};
use shared::testkit;

struct World {
    state: AppState,
    cases: Router,
    collab: Router,
    case_type: u64,
}

async fn world() -> World {
    let state = testkit::services().await;
    let cases = finish(cases::api(), state.clone());
    let collab = finish(collaboration::api(), state.clone());
    let case_type = state.store.create_named(NamedKind::CaseType, "Tenancy", "").await.unwrap().id;
    World { state, cases, collab, case_type }
}

/// A case in progress: its customer, admin, lawyer and their tokens.
struct Scene {
    cust: User,
    ct: String,
    admin: String,
    lawyer: User,
    lt: String,
    uid: String,
}

impl World {
    async fn user(&self, role: Role) -> (User, String) {
        testkit::signed_in(&self.state, role).await
    }

    async fn call(&self, m: Method, path: &str, token: &str, body: Option<Value>) -> (StatusCode, Value) {
        let router = if path.starts_with("/api/case/") { &self.cases } else { &self.collab };
        testkit::call(router, m, path, Some(token), body).await
    }

    async fn ok(&self, m: Method, path: &str, token: &str, body: Option<Value>) -> Value {
        let (st, v) = self.call(m, path, token, body).await;
        assert!(st.is_success(), "{path}: {st} {v}");
        v
    }

    async fn contact_of(&self, customer: &User, permissions: Vec<Permission>) -> (User, String) {
        testkit::signed_in_contact(&self.state, customer, permissions).await
    }

    /// A new case of a new customer with an hour subscription, published and accepted.
    async fn in_progress(&self) -> Scene {
        let (cust, ct) = self.user(Role::Customer).await;
        let (_, admin) = self.user(Role::Admin).await;
        let (lawyer, lt) = self.user(Role::Lawyer).await;
        let now = whole_seconds(Utc::now().naive_utc()) - chrono::Duration::seconds(5);
        self.state.store.purchase(&cust.uid, &Grant::custom("Hours", Hundredths::parse("20").unwrap(), 30), now).await.unwrap();
        let body = json!({"customer": cust.uid, "subject": "Lease dispute", "description": "Rent", "type": self.case_type, "estimated_hours": "2"});
        let c = self.ok(Method::POST, "/api/case/create/", &admin, Some(body)).await;
        let uid = c["uid"].as_str().unwrap().to_string();
        self.ok(Method::POST, &format!("/api/case/status/{uid}/"), &admin, Some(json!({"action": "publish"}))).await;
        self.ok(Method::POST, &format!("/api/case/status/{uid}/"), &lt, Some(json!({"action": "accept"}))).await;
        Scene { cust, ct, admin, lawyer, lt, uid }
    }

    async fn notes(&self, token: &str, description: &str) -> Vec<Value> {
        let v = self
            .ok(Method::GET, &format!("/api/notification/?offset=0&limit=50&ordering=-timestamp&description={description}"), token, None)
            .await;
        v["results"].as_array().unwrap().clone()
    }

    async fn verbs(&self, token: &str, description: &str) -> Vec<String> {
        self.notes(token, description).await.iter().map(|n| n["verb"].as_str().unwrap().to_string()).collect()
    }

    async fn unseen(&self, token: &str, description: &str) -> u64 {
        self.ok(Method::GET, &format!("/api/notification/seen/count/?description={description}"), token, None).await["count"]
            .as_u64()
            .unwrap()
    }

    async fn send(&self, token: &str, case: &str, text: &str) -> (StatusCode, Value) {
        self.call(Method::POST, "/api/message/", token, Some(json!({"case_uid": case, "text": text}))).await
    }
}

#[tokio::test]
async fn the_parties_write_staff_read_and_everyone_else_is_refused() {
    let w = world().await;
    let sc = w.in_progress().await;
    assert_eq!(w.send(&sc.lt, &sc.uid, "Hej! Jag har läst avtalet.").await.0, StatusCode::CREATED);
    assert_eq!(w.send(&sc.ct, &sc.uid, "Tack, när kan vi ses?").await.0, StatusCode::CREATED);

    let (_, no_chat) = w.contact_of(&sc.cust, vec![Permission::AddCase, Permission::ViewAllCases]).await;
    assert_eq!(w.send(&no_chat, &sc.uid, "x").await.0, StatusCode::FORBIDDEN);
    let (_, chat) = w.contact_of(&sc.cust, vec![Permission::ChatInCases, Permission::ViewAllCases]).await;
    assert_eq!(w.send(&chat, &sc.uid, "Jag är kollega till Karin.").await.0, StatusCode::CREATED);

    let (st, v) = w.send(&sc.admin, &sc.uid, "x").await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::FORBIDDEN, Some("only_lawyer_or_customer_messages")));
    let (_, sales) = w.user(Role::SalesPerson).await;
    assert_eq!(w.send(&sales, &sc.uid, "x").await.1["message"], "only_lawyer_or_customer_messages");
    // Another customer and another lawyer do not even see the case.
    let (_, other) = w.user(Role::Customer).await;
    assert_eq!(w.send(&other, &sc.uid, "x").await.0, StatusCode::NOT_FOUND);
    assert_eq!(w.call(Method::GET, &format!("/api/message/?case={}", sc.uid), &other, None).await.0, StatusCode::NOT_FOUND);
    let (_, other_lawyer) = w.user(Role::Lawyer).await;
    assert_eq!(w.send(&other_lawyer, &sc.uid, "x").await.0, StatusCode::NOT_FOUND);

    // Staff read the conversation (and cannot write: the panel says why).
    let conv = w.ok(Method::GET, &format!("/api/message/?case={}", sc.uid), &sc.admin, None).await;
    let texts: Vec<&str> = conv["messages"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["Hej! Jag har läst avtalet.", "Tack, när kan vi ses?", "Jag är kollega till Karin."]);
    assert_eq!(
        (conv["can_write"].clone(), conv["cannot_write_because"].clone()),
        (json!(false), json!("only_lawyer_or_customer_messages"))
    );
    assert_eq!(conv["messages"][0]["side"], "lawyer");

    // Empty, too long, and a closed case.
    assert_eq!(w.send(&sc.ct, &sc.uid, "   ").await.1["errors"]["text"][0], "required");
    assert_eq!(w.send(&sc.ct, &sc.uid, &"x".repeat(shared::domain::message::TEXT_MAX_CHARS + 1)).await.1["errors"]["text"][0], "too_long");
    w.ok(Method::POST, &format!("/api/case/status/{}/", sc.uid), &sc.lt, Some(json!({"action": "complete"}))).await;
    let (st, v) = w.send(&sc.ct, &sc.uid, "En fråga till").await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("case_closed_for_messages")));
}

#[tokio::test]
async fn conversations_page_oldest_first_within_a_page_and_show_what_the_other_side_read() {
    let w = world().await;
    let sc = w.in_progress().await;
    for i in 0..45 {
        let token = if i % 2 == 0 { &sc.ct } else { &sc.lt };
        assert_eq!(w.send(token, &sc.uid, &format!("meddelande {i:02}")).await.0, StatusCode::CREATED);
    }
    let mut seen = Vec::new();
    let mut before: Option<String> = None;
    loop {
        let q = before.as_ref().map(|b| format!("&before={b}")).unwrap_or_default();
        let page = w.ok(Method::GET, &format!("/api/message/?case={}{q}", sc.uid), &sc.admin, None).await;
        let texts: Vec<String> = page["messages"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap().to_string()).collect();
        assert!(texts.len() <= 20);
        seen.splice(0..0, texts);
        match page["older"].as_str() {
            Some(o) => before = Some(o.to_string()),
            None => break,
        }
    }
    assert_eq!(seen, (0..45).map(|i| format!("meddelande {i:02}")).collect::<Vec<_>>());
    // Writing counts as having read what came before (the customer's 44 came
    // after the lawyer's 43), so the lawyer answers once more: that answer is
    // unread until the customer opens the conversation.
    assert_eq!(w.send(&sc.lt, &sc.uid, "meddelande 45").await.0, StatusCode::CREATED);
    let last = |v: &Value| v["messages"].as_array().unwrap().last().cloned().unwrap();
    let lawyers_view = w.ok(Method::GET, &format!("/api/message/?case={}", sc.uid), &sc.lt, None).await;
    let newest_by_lawyer = lawyers_view["messages"].as_array().unwrap().iter().rev().find(|m| m["side"] == "lawyer").cloned().unwrap();
    assert_eq!(newest_by_lawyer["read_by_other"], false, "the customer has not opened it since");
    w.ok(Method::GET, &format!("/api/message/?case={}", sc.uid), &sc.ct, None).await;
    let lawyers_view = w.ok(Method::GET, &format!("/api/message/?case={}", sc.uid), &sc.lt, None).await;
    assert!(lawyers_view["messages"].as_array().unwrap().iter().filter(|m| m["side"] == "lawyer").all(|m| m["read_by_other"] == true));
    assert_eq!(last(&lawyers_view)["text"], "meddelande 45");
}

#[tokio::test]
async fn an_attachment_is_checked_like_a_document_and_a_refused_one_is_deleted() {
    let w = world().await;
    let sc = w.in_progress().await;
    let pdf = b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";
    let upload = |name: &'static str| {
        let w = &w;
        let sc = &sc;
        async move { w.ok(Method::POST, "/api/message/file/upload-url/", &sc.ct, Some(json!({"case_uid": sc.uid, "name": name}))).await }
    };
    // A real PDF goes through and can be downloaded by the lawyer.
    let t = upload("avtal.pdf").await;
    let (code, _, _) = testkit::http("PUT", t["url"].as_str().unwrap(), t["content_type"].as_str(), pdf).await;
    assert_eq!(code, 200);
    let key = t["key"].as_str().unwrap();
    let body = json!({"case_uid": sc.uid, "text": "Här är avtalet", "attachment_key": key, "attachment_name": "avtal.pdf"});
    let m = w.ok(Method::POST, "/api/message/", &sc.ct, Some(body)).await;
    assert_eq!(m["attachment"]["name"], "avtal.pdf");
    let d = w.ok(Method::GET, &format!("/api/message/file/download/?case={}&key={key}&name=avtal.pdf", sc.uid), &sc.lt, None).await;
    let (code, headers, bytes) = testkit::http("GET", d["url"].as_str().unwrap(), None, b"").await;
    assert_eq!((code, bytes.as_slice()), (200, pdf.as_slice()));
    assert!(headers.iter().any(|(k, v)| k == "content-disposition" && v.contains("attachment")));

    // An executable named .pdf is refused and removed; the message is not sent.
    let t = upload("faktura.pdf").await;
    testkit::http("PUT", t["url"].as_str().unwrap(), t["content_type"].as_str(), b"MZ\x90\0\x03\0\0\0").await;
    let key = t["key"].as_str().unwrap();
    let body = json!({"case_uid": sc.uid, "text": "Faktura", "attachment_key": key, "attachment_name": "faktura.pdf"});
    let (st, v) = w.call(Method::POST, "/api/message/", &sc.ct, Some(body)).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("document_type_not_allowed")), "{v}");
    assert!(w.state.files.size(key).await.unwrap().is_none(), "the refused file was deleted");
    // A key outside the case's message files is not even looked at.
    let body = json!({"case_uid": sc.uid, "text": "x", "attachment_key": "cases/other/messages/a.pdf", "attachment_name": "a.pdf"});
    assert_eq!(w.call(Method::POST, "/api/message/", &sc.ct, Some(body)).await.0, StatusCode::BAD_REQUEST);
    let conv = w.ok(Method::GET, &format!("/api/message/?case={}", sc.uid), &sc.ct, None).await;
    assert_eq!(conv["messages"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn every_case_event_tells_the_people_it_concerns_once() {
    let w = world().await;
    let (cust, ct) = w.user(Role::Customer).await;
    let (_, admin) = w.user(Role::Admin).await;
    let (lawyer, lt) = w.user(Role::Lawyer).await;
    let (_, lt2) = w.user(Role::Lawyer).await;
    let now = whole_seconds(Utc::now().naive_utc()) - chrono::Duration::seconds(5);
    w.state.store.purchase(&cust.uid, &Grant::custom("Hours", Hundredths::parse("20").unwrap(), 30), now).await.unwrap();
    // The customer opens a case: admins are told.
    let body = json!({"subject": "Lease", "description": "Rent", "type": w.case_type, "estimated_hours": "2"});
    let c = w.ok(Method::POST, "/api/case/create/by/customer/", &ct, Some(body)).await;
    let uid = c["uid"].as_str().unwrap().to_string();
    assert_eq!(w.verbs(&admin, "case,others").await, ["case_created"]);
    // Published: every lawyer who may take it.
    w.ok(Method::POST, &format!("/api/case/status/{uid}/"), &admin, Some(json!({"action": "publish"}))).await;
    assert_eq!(w.verbs(&lt, "case,others").await, ["case_published"]);
    assert_eq!(w.verbs(&lt2, "case,others").await, ["case_published"]);
    // Accepted: the customer; the lawyer is not told of their own act.
    w.ok(Method::POST, &format!("/api/case/status/{uid}/"), &lt, Some(json!({"action": "accept"}))).await;
    assert_eq!(w.verbs(&ct, "case,others").await, ["case_accepted"]);
    assert_eq!(w.notes(&ct, "case,others").await[0]["params"]["actor"], json!(lawyer.full_name()));
    // Hours logged under a concurrent writer's win (the try is made again):
    // the customer hears of it once.
    w.state.faults.arm("events.conflict");
    w.ok(Method::POST, "/api/case/hour/create/", &lt, Some(json!({"case_uid": uid, "hour": "1,5", "date": "2026-03-02"}))).await;
    assert_eq!(w.verbs(&ct, "case,others").await, ["hours_logged", "case_accepted"]);
    // A message: the other party only, as a message.
    assert_eq!(w.send(&lt, &uid, "Hej").await.0, StatusCode::CREATED);
    assert_eq!(w.verbs(&ct, "message").await, ["message_received"]);
    assert!(w.verbs(&lt, "message").await.is_empty());
    let msg = &w.notes(&ct, "message").await[0];
    assert_eq!(
        (msg["description"].clone(), msg["uid"].clone(), msg["params"]["excerpt"].clone()),
        (json!("message"), json!(uid), json!("Hej"))
    );
    // Closed: both parties but the one who closed it.
    w.ok(Method::POST, &format!("/api/case/status/{uid}/"), &lt, Some(json!({"action": "complete"}))).await;
    assert_eq!(w.verbs(&ct, "case").await[0], "case_closed");
    assert!(!w.verbs(&lt, "case").await.contains(&"case_closed".to_string()));
    // Each reader reads only their own.
    let (_, stranger) = w.user(Role::Customer).await;
    assert!(w.notes(&stranger, "").await.is_empty());
    let id = w.notes(&ct, "case").await[0]["id"].as_str().unwrap().to_string();
    let path = format!("/api/notification/{}/", id.replace('#', "%23"));
    assert_eq!(w.call(Method::PATCH, &path, &stranger, Some(json!({"unread": false}))).await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn opening_a_dropdown_clears_its_badge_and_reading_is_per_item_or_all() {
    let w = world().await;
    let sc = w.in_progress().await;
    for text in ["ett", "två", "tre"] {
        w.send(&sc.lt, &sc.uid, text).await;
    }
    w.ok(Method::POST, "/api/case/hour/create/", &sc.lt, Some(json!({"case_uid": sc.uid, "hour": "1", "date": "2026-03-02"}))).await;
    assert_eq!(w.unseen(&sc.ct, "message").await, 3);
    let before = w.unseen(&sc.ct, "case,others").await;
    assert!(before >= 2, "accepted and hours: {before}");
    // Opening the messages dropdown clears its badge only.
    assert_eq!(w.call(Method::POST, "/api/notification/seen/update/?description=message", &sc.ct, None).await.0, StatusCode::NO_CONTENT);
    assert_eq!(w.unseen(&sc.ct, "message").await, 0);
    assert_eq!(w.unseen(&sc.ct, "case,others").await, before);
    // Seen is not read: all three are still unread until clicked.
    let msgs = w.notes(&sc.ct, "message").await;
    assert!(msgs.iter().all(|n| n["unread"] == true));
    let id = msgs[0]["id"].as_str().unwrap();
    let read = w.ok(Method::PATCH, &format!("/api/notification/{}/", id.replace('#', "%23")), &sc.ct, Some(json!({"unread": false}))).await;
    assert_eq!((read["unread"].clone(), read["uid"].clone()), (json!(false), json!(sc.uid)));
    let msgs = w.notes(&sc.ct, "message").await;
    assert_eq!(msgs.iter().filter(|n| n["unread"] == true).count(), 2);
    // A new message after opening: the badge counts it.
    w.send(&sc.lt, &sc.uid, "fyra").await;
    assert_eq!(w.unseen(&sc.ct, "message").await, 1);
    // Read all.
    assert_eq!(w.call(Method::POST, "/api/notification/read-all/", &sc.ct, None).await.0, StatusCode::NO_CONTENT);
    assert!(w.notes(&sc.ct, "").await.iter().all(|n| n["unread"] == false));
    // Newest first, paged by offset.
    let first = w.ok(Method::GET, "/api/notification/?offset=0&limit=2&ordering=-timestamp&description=message", &sc.ct, None).await;
    let rest = w.ok(Method::GET, "/api/notification/?offset=2&limit=2&ordering=-timestamp&description=message", &sc.ct, None).await;
    let texts = |v: &Value| {
        v["results"].as_array().unwrap().iter().map(|n| n["params"]["excerpt"].as_str().unwrap().to_string()).collect::<Vec<_>>()
    };
    assert_eq!((texts(&first), first["more"].clone()), (vec!["fyra".to_string(), "tre".to_string()], json!(true)));
    assert_eq!((texts(&rest), rest["more"].clone()), (vec!["två".to_string(), "ett".to_string()], json!(false)));
    assert_eq!(w.call(Method::GET, "/api/notification/?description=bogus", &sc.ct, None).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(w.call(Method::GET, "/api/notification/?ordering=timestamp", &sc.ct, None).await.0, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_subscription_ending_soon_is_told_once_however_often_the_job_runs() {
    let w = world().await;
    let (cust, ct) = w.user(Role::Customer).await;
    let now = whole_seconds(Utc::now().naive_utc()) - chrono::Duration::seconds(5);
    // A 5-day row: inside the 7-day notice.
    w.state.store.purchase(&cust.uid, &Grant::custom("Hours", Hundredths::parse("5").unwrap(), 5), now).await.unwrap();
    let at = Utc::now();
    let (a, b) = tokio::join!(subscription_expiry::run(&w.state, at), subscription_expiry::run(&w.state, at));
    a.unwrap();
    b.unwrap();
    subscription_expiry::run(&w.state, at).await.unwrap();
    assert_eq!(w.verbs(&ct, "others").await, ["subscription_expiring"]);
    let n = &w.notes(&ct, "others").await[0];
    assert_eq!(n["params"]["service"], "Hours");
}

#[tokio::test]
async fn only_the_customer_rates_a_closed_case_once_and_admin_sees_the_average() {
    let w = world().await;
    let sc = w.in_progress().await;
    // The lawyer's staff record carries the average admin reads in the lists.
    shared::services::staff::seed_profile(&w.state, &sc.lawyer, None).await.unwrap();
    let rate = |token: &str, stars: i64| {
        let body = json!({"case_uid": sc.uid, "stars": stars, "comment": "Snabbt och tydligt"});
        let w = &w;
        let token = token.to_string();
        async move { w.call(Method::POST, "/api/rating/create/", &token, Some(body)).await }
    };
    let (st, v) = rate(&sc.ct, 5).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("rate_closed_cases_only")));
    w.ok(Method::POST, &format!("/api/case/status/{}/", sc.uid), &sc.lt, Some(json!({"action": "complete"}))).await;
    assert_eq!(rate(&sc.lt, 5).await.1["message"], "only_customer_rates");
    assert_eq!(rate(&sc.admin, 5).await.1["message"], "only_customer_rates");
    let (_, contact) = w.contact_of(&sc.cust, Permission::ALL.to_vec()).await;
    assert_eq!(rate(&contact, 5).await.1["message"], "only_customer_rates");
    assert_eq!(rate(&sc.ct, 0).await.1["errors"]["stars"][0], "invalid");
    let (st, r) = rate(&sc.ct, 4).await;
    assert_eq!((st, r["stars"].clone()), (StatusCode::CREATED, json!(4)));
    assert_eq!(rate(&sc.ct, 5).await.1["message"], "already_rated");
    // The lawyer sees it (and is told); admin sees the lawyer's average.
    let mine = w.ok(Method::GET, "/api/rating/", &sc.lt, None).await;
    assert_eq!(mine.as_array().unwrap().len(), 1);
    assert!(w.verbs(&sc.lt, "case").await.contains(&"case_rated".to_string()));
    let theirs = w.ok(Method::GET, &format!("/api/rating/?lawyer={}", sc.lawyer.uid), &sc.admin, None).await;
    assert_eq!(theirs[0]["comment"], "Snabbt och tydligt");
    assert_eq!(w.call(Method::GET, &format!("/api/rating/?lawyer={}", sc.lawyer.uid), &sc.ct, None).await.0, StatusCode::FORBIDDEN);
    let of_case = w.ok(Method::GET, &format!("/api/rating/case/?case={}", sc.uid), &sc.ct, None).await;
    assert_eq!(of_case["stars"], 4);
    let profile = w.state.store.get_staff(&sc.lawyer.uid).await.unwrap().unwrap();
    assert_eq!((profile.rating_count, profile.rating_average), (1, Some(4.0)));
}

/// Thirty messages at once, each sent twice at the same moment with its
/// `Idempotency-Key` (a client's retry racing its first try): thirty
/// messages, each once, and the other party told once per message.
#[tokio::test]
async fn thirty_messages_sent_at_once_and_retried_are_stored_once_each() {
    let w = world().await;
    let sc = w.in_progress().await;
    let mut set = tokio::task::JoinSet::new();
    for i in 0..30 {
        for _ in 0..2 {
            let (router, ct, uid) = (w.collab.clone(), sc.ct.clone(), sc.uid.clone());
            set.spawn(async move {
                let key = format!("\"message-{i}\"");
                let body = json!({"case_uid": uid, "text": format!("meddelande {i:02}")});
                let (st, _, v) =
                    testkit::call_with_headers(&router, Method::POST, "/api/message/", Some(&ct), Some(body), &[("Idempotency-Key", &key)])
                        .await;
                (i, st, serde_json::from_slice::<Value>(&v).unwrap())
            });
        }
    }
    let mut answers: std::collections::BTreeMap<i32, Vec<Value>> = Default::default();
    while let Some(r) = set.join_next().await {
        let (i, st, v) = r.unwrap();
        assert_eq!(st, StatusCode::CREATED, "{v}");
        answers.entry(i).or_default().push(v);
    }
    for (i, a) in &answers {
        assert_eq!(a[0]["id"], a[1]["id"], "message {i}: both tries answer the one message");
    }
    let page = w.state.store.messages(&sc.uid, None, 100).await.unwrap();
    let mut texts: Vec<String> = page.messages.iter().map(|m| m.text.clone()).collect();
    texts.sort();
    assert_eq!(texts, (0..30).map(|i| format!("meddelande {i:02}")).collect::<Vec<_>>());
    assert_eq!(w.verbs(&sc.lt, "message").await, vec!["message_received"; 30]);
}

/// The badge's count and the dropdown's page: each read of the reader's
/// marks goes beside the notifications' read, with the sign-in check, so a
/// reader waits for one DynamoDB round trip, however far down the mark is.
#[tokio::test]
async fn the_badge_and_the_dropdown_wait_for_one_round_trip() {
    use shared::domain::notification::{Draft, Dropdown, Params, Verb};
    use shared::store::collaboration::{notification_item, COUNT_CAP};
    let (state, calls) = testkit::services_counting_calls().await;
    let collab = finish(collaboration::api(), state.clone());
    let (reader, token) = testkit::signed_in(&state, Role::Customer).await;
    let t0 = Utc::now() - chrono::Duration::days(1);
    // Notifications a minute apart, every third a message, the others about a case.
    let write = |from: i64, n: i64| {
        let items = (from..from + n)
            .map(|i| {
                let verb = if i % 3 == 0 { Verb::MessageReceived } else { Verb::HoursLogged };
                let draft = Draft { verb, params: Params::default(), case_uid: None };
                notification_item(&reader.uid, t0 + chrono::Duration::minutes(i), &format!("ev{i}"), &draft).unwrap()
            })
            .collect::<Vec<_>>();
        let state = state.clone();
        async move { state.store.put_notifications(items).await.unwrap() }
    };
    let count = |description: &'static str| {
        let (collab, token, calls) = (collab.clone(), token.clone(), calls.clone());
        async move {
            calls.take();
            let path = format!("/api/notification/seen/count/?description={description}");
            let (status, body) = testkit::call(&collab, Method::GET, &path, Some(&token), None).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            (body["count"].as_u64().unwrap(), calls.take_trips().in_a_row)
        }
    };
    // 60 notifications; never opened, the messages dropdown counts all 20 of its own.
    write(0, 60).await;
    assert_eq!(count("message").await, (20, 1));
    // The messages dropdown opened after the 40th, the other one after the 10th.
    state.store.mark_notifications_seen(&reader.uid, Dropdown::Messages, t0 + chrono::Duration::seconds(39 * 60 + 30)).await.unwrap();
    state.store.mark_notifications_seen(&reader.uid, Dropdown::Notifications, t0 + chrono::Duration::seconds(9 * 60 + 30)).await.unwrap();
    let unseen = |after: i64, message: bool| (after..60).filter(|i| (i % 3 == 0) == message).count() as u64;
    assert_eq!(count("message").await, (unseen(40, true), 1));
    assert_eq!(count("case,others").await, (unseen(10, false), 1));
    // Opened after the last one.
    state.store.mark_notifications_seen(&reader.uid, Dropdown::Notifications, t0 + chrono::Duration::seconds(59 * 60 + 30)).await.unwrap();
    assert_eq!(count("case,others").await, (0, 1));
    write(60, 3).await;
    assert_eq!(count("case,others").await, (2, 1), "two new ones after the opening");
    assert_eq!(count("").await.0, 3, "every category, since the notifications dropdown was opened");
    // Past the cap, the badge counts the newest it reads.
    write(63, COUNT_CAP as i64).await;
    assert_eq!(count("").await, (COUNT_CAP as u64, 1));

    // The dropdown's page: its marks beside the page.
    calls.take();
    let (status, body) =
        testkit::call(&collab, Method::GET, "/api/notification/?offset=0&limit=5&description=message", Some(&token), None).await;
    assert_eq!((status, body["results"].as_array().map(Vec::len)), (StatusCode::OK, Some(5)), "{body}");
    assert_eq!(calls.take_trips().in_a_row, 1);
}

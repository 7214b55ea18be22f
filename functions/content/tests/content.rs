//! Terms and privacy, templates and the customer's documents, support
//! tickets and the academy against the local stand-in, each test on its own
//! table: texts readable by anyone in both languages; acceptance recorded
//! with its version at registration and after a new version; who sees
//! which documents and tickets; progress kept per user.

use axum::http::{Method, StatusCode};
use axum::Router;
use chrono::Utc;
use serde_json::{json, Value};
use shared::api::{finish, AppState};
use shared::domain::catalogue::{Hundredths, NamedKind};
use shared::domain::legal::LegalKind;
use shared::domain::subscription::{whole_seconds, Grant};
use shared::domain::{Permission, Role, User};
use shared::testkit;

struct World {
    state: AppState,
    content: Router,
    cases: Router,
    customers: Router,
    admin: String,
}

async fn world() -> World {
    let state = testkit::services().await;
    let content = finish(content::api(), state.clone());
    let cases = finish(cases::api(), state.clone());
    let customers = finish(customers::api(), state.clone());
    let (_, admin) = testkit::signed_in(&state, Role::Admin).await;
    World { state, content, cases, customers, admin }
}

impl World {
    async fn call(&self, m: Method, path: &str, token: Option<&str>, body: Option<Value>) -> (StatusCode, Value) {
        let router = if path.starts_with("/api/case/") {
            &self.cases
        } else if path.starts_with("/api/registration/") {
            &self.customers
        } else {
            &self.content
        };
        testkit::call(router, m, path, token, body).await
    }

    async fn ok(&self, m: Method, path: &str, token: &str, body: Option<Value>) -> Value {
        let (st, v) = self.call(m, path, Some(token), body).await;
        assert!(st.is_success(), "{path}: {st} {v}");
        v
    }

    async fn publish(&self, kind: &str, sv: &str, en: &str) -> Value {
        self.ok(Method::POST, "/api/legal/publish/", &self.admin, Some(json!({"kind": kind, "sv": sv, "en": en}))).await
    }

    async fn contact_of(&self, customer: &User) -> (User, String) {
        testkit::signed_in_contact(&self.state, customer, vec![Permission::AddCase, Permission::ViewAllCases]).await
    }

    /// A case of `customer` (opened by admin) holding one PDF named `name`.
    async fn case_with_document(&self, customer: &User, name: &str) -> (String, String) {
        let case_type = self.state.store.create_named(NamedKind::CaseType, "Tenancy", "").await.unwrap().id;
        let now = whole_seconds(Utc::now().naive_utc()) - chrono::Duration::seconds(5);
        self.state.store.purchase(&customer.uid, &Grant::custom("Hours", Hundredths::parse("20").unwrap(), 30), now).await.unwrap();
        let body =
            json!({"customer": customer.uid, "subject": "Lease dispute", "description": "Rent", "type": case_type, "estimated_hours": "2"});
        let c = self.ok(Method::POST, "/api/case/create/", &self.admin, Some(body)).await;
        let uid = c["uid"].as_str().unwrap().to_string();
        let up = self.ok(Method::POST, "/api/case/file/upload-url/", &self.admin, Some(json!({"case_uid": uid, "name": name}))).await;
        let key = up["key"].as_str().unwrap().to_string();
        self.state.files.put_bytes(&key, "application/pdf", shared::domain::pdf::sample("", &[])).await.unwrap();
        self.ok(Method::POST, "/api/case/file/confirm/", &self.admin, Some(json!({"case_uid": uid, "key": key, "name": name}))).await;
        (uid, key)
    }
}

fn individual(email: &str) -> Value {
    let pw = "Long-enough-pass-1";
    json!({
        "customer_type": "Individual", "first_name": "Karin", "last_name": "Kund", "email": email,
        "password": pw, "confirm_password": pw, "phone": "+46 70-123 45 67",
        "profile": { "address_1": "Storgatan 1", "address_2": "", "city": "Stockholm", "post_code": "11122", "country": 1 },
        "same_invoice_address": true, "terms_accepted": true, "privacy_accepted": true,
    })
}

#[tokio::test]
async fn terms_and_privacy_are_public_in_both_languages_and_only_admin_publishes() {
    let w = world().await;
    assert_eq!(w.call(Method::GET, "/api/public/terms/", None, None).await, (StatusCode::OK, Value::Null), "none published yet");
    w.publish("terms", "# Villkor\n\nSvensk text", "# Terms\n\nEnglish text").await;
    w.publish("privacy", "# Integritet", "# Privacy").await;
    let (st, t) = w.call(Method::GET, "/api/public/terms/", None, None).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(
        (t["version"].as_u64(), t["sv"].as_str(), t["en"].as_str()),
        (Some(1), Some("# Villkor\n\nSvensk text"), Some("# Terms\n\nEnglish text"))
    );
    let (_, p) = w.call(Method::GET, "/api/public/privacy/", None, None).await;
    assert_eq!((p["kind"].as_str(), p["sv"].as_str(), p["en"].as_str()), (Some("privacy"), Some("# Integritet"), Some("# Privacy")));

    // An edit is a new version; the old one stays in admin's list.
    w.publish("terms", "# Villkor 2", "# Terms 2").await;
    let (_, t) = w.call(Method::GET, "/api/public/terms/", None, None).await;
    assert_eq!((t["version"].as_u64(), t["en"].as_str()), (Some(2), Some("# Terms 2")));
    let versions = w.ok(Method::GET, "/api/legal/versions/?kind=terms", &w.admin, None).await;
    assert_eq!(versions.as_array().unwrap().iter().map(|v| v["version"].as_u64().unwrap()).collect::<Vec<_>>(), [2, 1]);

    let (_, cust) = testkit::signed_in(&w.state, Role::Customer).await;
    let (st, _) = w.call(Method::POST, "/api/legal/publish/", Some(&cust), Some(json!({"kind": "terms", "sv": "x", "en": "y"}))).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, v) = w.call(Method::POST, "/api/legal/publish/", Some(&w.admin), Some(json!({"kind": "terms", "sv": "", "en": "y"}))).await;
    assert_eq!((st, testkit::field(&v, "sv")), (StatusCode::BAD_REQUEST, vec!["required"]));
}

/// Sends `body` as written (a JSON text the test escaped itself).
async fn raw(router: &Router, method: Method, path: &str, token: &str, body: String) -> (StatusCode, Value) {
    use tower::ServiceExt;
    let req = axum::http::Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {token}"))
        .body(axum::body::Body::from(body))
        .unwrap();
    let res = router.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 8 << 20).await.unwrap();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

#[tokio::test]
async fn legal_texts_of_100000_characters_publish_in_any_json_encoding_and_read_back_intact() {
    use shared::domain::legal::{PUBLISH_BODY_BYTES, TEXT_MAX_CHARS};
    let w = world().await;
    assert_eq!(TEXT_MAX_CHARS, 100_000);
    // Characters of four bytes of UTF-8 and twelve of JSON escapes: the
    // largest stored item and the largest body.
    let sv = format!("# Villkor\n\n{}", "\u{1F600}".repeat(TEXT_MAX_CHARS - 11));
    let en = "\u{1F600}".repeat(TEXT_MAX_CHARS);
    assert_eq!((sv.chars().count(), en.chars().count()), (TEXT_MAX_CHARS, TEXT_MAX_CHARS));
    let escaped = |t: &str| serde_json::to_string(t).unwrap().replace('\u{1F600}', "\\ud83d\\ude00");
    let body = |sv: &str, en: &str| format!(r#"{{"kind":"terms","sv":{},"en":{}}}"#, escaped(sv), escaped(en));
    let largest = body(&sv, &en);
    assert!(largest.len() > 9 * shared::api::MAX_BODY_BYTES, "{} bytes", largest.len());
    let (st, v) = raw(&w.content, Method::POST, "/api/legal/publish/", &w.admin, largest).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!((v["version"].as_u64(), v.get("sv")), (Some(1), None), "the answer names the version, not the texts sent");

    // Read back intact: by anyone, by a customer asked to accept it, and
    // admin's list names the version without the texts.
    let (_, t) = w.call(Method::GET, "/api/public/terms/", None, None).await;
    assert_eq!((t["version"].as_u64(), t["sv"].as_str(), t["en"].as_str()), (Some(1), Some(sv.as_str()), Some(en.as_str())));
    let (_, customer) = testkit::signed_in(&w.state, Role::Customer).await;
    let pending = w.ok(Method::GET, "/api/legal/pending/", &customer, None).await;
    assert_eq!(pending[0]["sv"].as_str(), Some(sv.as_str()));
    let versions = w.ok(Method::GET, "/api/legal/versions/?kind=terms", &w.admin, None).await;
    assert_eq!((versions[0]["version"].as_u64(), versions[0].get("en")), (Some(1), None));

    // One character more in either language: too_long on that language.
    let (st, v) = raw(&w.content, Method::POST, "/api/legal/publish/", &w.admin, body(&format!("{sv}\u{1F600}"), &en)).await;
    assert_eq!((st, testkit::field(&v, "sv"), testkit::field(&v, "en")), (StatusCode::BAD_REQUEST, vec!["too_long"], Vec::<&str>::new()));
    let (st, v) = raw(&w.content, Method::POST, "/api/legal/publish/", &w.admin, body(&sv, &format!("{en}x"))).await;
    assert_eq!((st, testkit::field(&v, "en")), (StatusCode::BAD_REQUEST, vec!["too_long"]));
    // A body past the route's own limit: 413.
    let over = format!(r#"{{"kind":"terms","sv":"{}","en":"x"}}"#, "a".repeat(PUBLISH_BODY_BYTES));
    let (st, v) = raw(&w.content, Method::POST, "/api/legal/publish/", &w.admin, over).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("request_too_large")));
    assert_eq!(w.ok(Method::GET, "/api/public/terms/", &w.admin, None).await["version"].as_u64(), Some(1), "nothing refused was published");

    // Every other route keeps 256 KiB: a body of 257 KiB is refused, the
    // handler reading it or not, whatever the method.
    let big = format!(r#"{{"subject":"Fråga","message":"{}"}}"#, "a".repeat(257 * 1024));
    for (method, path) in
        [(Method::POST, "/api/support/"), (Method::POST, "/api/legal/accept/"), (Method::PUT, "/api/academy/lessons/l-1/")]
    {
        let (st, v) = raw(&w.content, method, path, &w.admin, big.clone()).await;
        assert_eq!((st, v["message"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("request_too_large")), "{path}");
    }
}

#[tokio::test]
async fn registration_records_the_accepted_versions_and_a_new_version_is_accepted_once() {
    let w = world().await;
    w.publish("terms", "# Villkor", "# Terms").await;
    w.publish("terms", "# Villkor v2", "# Terms v2").await;
    w.publish("privacy", "# Integritet", "# Privacy").await;

    // A form that showed an older version is refused, nothing is created.
    let mut form = individual("old-form@example.com");
    form["terms_version"] = json!(1);
    let (st, v) = w.call(Method::POST, "/api/registration/", None, Some(form)).await;
    assert_eq!((st, testkit::field(&v, "terms_accepted")), (StatusCode::BAD_REQUEST, vec!["legal_version_outdated"]));
    assert!(w.state.store.find_user_by_email("old-form@example.com").await.unwrap().is_none());

    let before = Utc::now();
    let mut form = individual("new-customer@example.com");
    form["terms_version"] = json!(2);
    form["privacy_version"] = json!(1);
    let (st, v) = w.call(Method::POST, "/api/registration/", None, Some(form)).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let user = w.state.store.find_user_by_email("new-customer@example.com").await.unwrap().unwrap();
    let accepted = w.state.store.acceptances(&user.uid).await.unwrap();
    let versions: Vec<(LegalKind, u32)> = accepted.iter().map(|a| (a.kind, a.version)).collect();
    assert_eq!(versions, [(LegalKind::Privacy, 1), (LegalKind::Terms, 2)]);
    assert!(accepted.iter().all(|a| a.accepted_at >= before - chrono::Duration::seconds(1) && a.accepted_at <= Utc::now()));

    // Signed in, nothing is pending; a new terms version is, once.
    let mut user = user;
    user.active = true;
    w.state.store.put_user(&user).await.unwrap();
    let token = shared::services::credentials::start_session(&w.state, &user).await.unwrap().access_token;
    assert_eq!(w.ok(Method::GET, "/api/legal/pending/", &token, None).await, json!([]));
    w.publish("terms", "# Villkor v3", "# Terms v3").await;
    let pending = w.ok(Method::GET, "/api/legal/pending/", &token, None).await;
    assert_eq!(
        (pending[0]["kind"].as_str(), pending[0]["version"].as_u64(), pending.as_array().unwrap().len()),
        (Some("terms"), Some(3), 1)
    );
    let (st, v) = w.call(Method::POST, "/api/legal/accept/", Some(&token), Some(json!({"kind": "terms", "version": 2}))).await;
    assert_eq!((st, testkit::field(&v, "version")), (StatusCode::BAD_REQUEST, vec!["legal_version_outdated"]));
    let first = w.ok(Method::POST, "/api/legal/accept/", &token, Some(json!({"kind": "terms", "version": 3}))).await;
    let again = w.ok(Method::POST, "/api/legal/accept/", &token, Some(json!({"kind": "terms", "version": 3}))).await;
    assert_eq!(first["accepted_at"], again["accepted_at"], "the first acceptance is kept");
    assert_eq!(w.ok(Method::GET, "/api/legal/pending/", &token, None).await, json!([]));

    // Staff and contacts are not asked.
    let (_, lawyer) = testkit::signed_in(&w.state, Role::Lawyer).await;
    assert_eq!(w.ok(Method::GET, "/api/legal/pending/", &lawyer, None).await, json!([]));
}

#[tokio::test]
async fn documents_a_contact_sees_only_its_companys_and_cannot_download_anothers() {
    let w = world().await;
    let (a, at) = testkit::signed_in(&w.state, Role::Customer).await;
    let (b, bt) = testkit::signed_in(&w.state, Role::Customer).await;
    let (case_a, key_a) = w.case_with_document(&a, "Hyresavtal.pdf").await;
    let (case_b, _) = w.case_with_document(&b, "Bygglov.pdf").await;
    let (_, contact_b) = w.contact_of(&b).await;
    let (_, contact_a) = w.contact_of(&a).await;

    let names = |v: &Value| v.as_array().unwrap().iter().map(|d| d["name"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    assert_eq!(names(&w.ok(Method::GET, "/api/documents/", &at, None).await), ["Hyresavtal.pdf"]);
    assert_eq!(names(&w.ok(Method::GET, "/api/documents/", &contact_a, None).await), ["Hyresavtal.pdf"]);
    assert_eq!(names(&w.ok(Method::GET, "/api/documents/", &contact_b, None).await), ["Bygglov.pdf"]);
    assert_eq!(names(&w.ok(Method::GET, "/api/documents/", &bt, None).await), ["Bygglov.pdf"]);
    // Search by name, filter by case and type.
    assert!(names(&w.ok(Method::GET, "/api/documents/?search=bygg", &at, None).await).is_empty());
    assert_eq!(names(&w.ok(Method::GET, "/api/documents/?search=HYRES", &at, None).await), ["Hyresavtal.pdf"]);
    assert!(names(&w.ok(Method::GET, &format!("/api/documents/?case={case_b}"), &at, None).await).is_empty());
    assert!(names(&w.ok(Method::GET, "/api/documents/?kind=word", &at, None).await).is_empty());
    let d = w.ok(Method::GET, &format!("/api/documents/?case={case_a}&kind=pdf"), &at, None).await;
    assert_eq!((d[0]["case_uid"].as_str(), d[0]["kind"].as_str()), (Some(case_a.as_str()), Some("pdf")));

    // Downloads: the company's own people yes; the other company's contact never.
    let path = format!("/api/case/file/download/?case={case_a}&key={key_a}");
    assert_eq!(w.call(Method::GET, &path, Some(&contact_a), None).await.0, StatusCode::OK);
    assert_eq!(w.call(Method::GET, &path, Some(&contact_b), None).await.0, StatusCode::NOT_FOUND);
    assert_eq!(w.call(Method::GET, &path, Some(&bt), None).await.0, StatusCode::NOT_FOUND);
    // Staff have no customer documents page.
    assert_eq!(w.call(Method::GET, "/api/documents/", Some(&w.admin), None).await.0, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn templates_admin_uploads_everyone_signed_in_downloads() {
    let w = world().await;
    let (_, cust) = testkit::signed_in(&w.state, Role::Customer).await;
    let (st, _) = w.call(Method::POST, "/api/template_file/upload-url/", Some(&cust), Some(json!({"name": "a.pdf"}))).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let up = w.ok(Method::POST, "/api/template_file/upload-url/", &w.admin, Some(json!({"name": "Fullmakt.pdf"}))).await;
    let key = up["key"].as_str().unwrap();
    assert!(key.starts_with("templates/"));
    let fullmakt = shared::domain::pdf::sample("/Lang (sv)", &[]);
    let (st, _, v) = testkit::http("PUT", up["url"].as_str().unwrap(), Some("application/pdf"), &fullmakt).await;
    assert_eq!(st, 200, "{}", String::from_utf8_lossy(&v));
    let body = json!({"key": key, "name": "Fullmakt.pdf", "title": "Fullmakt", "category": "Mallar", "language": "sv"});
    let t = w.ok(Method::POST, "/api/template_file/", &w.admin, Some(body)).await;
    let list = w.ok(Method::GET, "/api/template_file/list/?language=sv", &cust, None).await;
    assert_eq!(list[0]["title"], "Fullmakt");
    assert!(w.ok(Method::GET, "/api/template_file/list/?language=en", &cust, None).await.as_array().unwrap().is_empty());
    let dl = w.ok(Method::GET, &format!("/api/template_file/download/?id={}", t["id"].as_str().unwrap()), &cust, None).await;
    let (st, _, bytes) = testkit::http("GET", dl["url"].as_str().unwrap(), None, b"").await;
    assert_eq!((st, bytes), (200, fullmakt));

    // A file that is not what its name says is refused and deleted.
    let up = w.ok(Method::POST, "/api/template_file/upload-url/", &w.admin, Some(json!({"name": "x.pdf"}))).await;
    let key = up["key"].as_str().unwrap().to_string();
    w.state.files.put_bytes(&key, "application/pdf", b"MZ not a pdf".to_vec()).await.unwrap();
    let body = json!({"key": key, "name": "x.pdf", "title": "X", "category": "Mallar", "language": "sv"});
    let (st, v) = w.call(Method::POST, "/api/template_file/", Some(&w.admin), Some(body)).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("document_type_not_allowed")));
    assert_eq!(w.state.files.size(&key).await.unwrap(), None);
}

#[tokio::test]
async fn tickets_a_customer_sees_only_its_own_admin_answers_and_closes() {
    let w = world().await;
    let (a, at) = testkit::signed_in(&w.state, Role::Customer).await;
    let (_, bt) = testkit::signed_in(&w.state, Role::Customer).await;
    let (_, contact_a) = w.contact_of(&a).await;

    let (st, v) = w.call(Method::POST, "/api/support/", Some(&at), Some(json!({"subject": " ", "message": ""}))).await;
    assert_eq!(
        (st, testkit::field(&v, "subject"), testkit::field(&v, "message")),
        (StatusCode::BAD_REQUEST, vec!["required"], vec!["required"])
    );
    // A file sent with the ticket is checked like a case document.
    let up = w.ok(Method::POST, "/api/support/file/upload-url/", &at, Some(json!({"name": "skärmbild.png"}))).await;
    let key = up["key"].as_str().unwrap().to_string();
    assert!(key.starts_with(&format!("support/{}/", a.uid)));
    w.state.files.put_bytes(&key, "image/png", b"\x89PNG\r\n\x1a\nrest".to_vec()).await.unwrap();
    let body = json!({"subject": "Fakturan", "message": "Fel belopp", "attachment_key": key, "attachment_name": "skärmbild.png"});
    let t = w.ok(Method::POST, "/api/support/", &at, Some(body)).await;
    let id = t["id"].as_u64().unwrap();
    assert_eq!(t["status"], "open");
    w.ok(Method::POST, "/api/support/", &contact_a, Some(json!({"subject": "Inloggning", "message": "Hjälp"}))).await;
    w.ok(Method::POST, "/api/support/", &bt, Some(json!({"subject": "Annat bolag", "message": "x"}))).await;
    // Another customer's file key is refused.
    let body = json!({"subject": "s", "message": "m", "attachment_key": key, "attachment_name": "skärmbild.png"});
    assert_eq!(w.call(Method::POST, "/api/support/", Some(&bt), Some(body)).await.0, StatusCode::BAD_REQUEST);

    let subjects =
        |v: &Value| v["results"].as_array().unwrap().iter().map(|t| t["subject"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    assert_eq!(subjects(&w.ok(Method::GET, "/api/support/", &at, None).await), ["Inloggning", "Fakturan"]);
    assert_eq!(subjects(&w.ok(Method::GET, "/api/support/", &contact_a, None).await), ["Inloggning", "Fakturan"]);
    assert_eq!(subjects(&w.ok(Method::GET, "/api/support/", &bt, None).await), ["Annat bolag"]);
    assert_eq!(subjects(&w.ok(Method::GET, "/api/support/", &w.admin, None).await), ["Annat bolag", "Inloggning", "Fakturan"]);
    assert_eq!(w.call(Method::GET, &format!("/api/support/{id}/"), Some(&bt), None).await.0, StatusCode::NOT_FOUND);
    assert_eq!(w.call(Method::GET, &format!("/api/support/{id}/file/"), Some(&bt), None).await.0, StatusCode::NOT_FOUND);
    assert_eq!(w.call(Method::GET, &format!("/api/support/{id}/file/"), Some(&contact_a), None).await.0, StatusCode::OK);
    let (_, lawyer) = testkit::signed_in(&w.state, Role::Lawyer).await;
    assert_eq!(w.call(Method::GET, "/api/support/", Some(&lawyer), None).await.0, StatusCode::FORBIDDEN);

    // Admin answers; the customer sees the answer; only admin closes.
    w.ok(Method::POST, &format!("/api/support/{id}/answer/"), &w.admin, Some(json!({"text": "Vi rättar fakturan."}))).await;
    let d = w.ok(Method::GET, &format!("/api/support/{id}/"), &at, None).await;
    assert_eq!(
        (d["status"].as_str(), d["answers"][0]["text"].as_str(), d["answers"][0]["staff"].as_bool()),
        (Some("answered"), Some("Vi rättar fakturan."), Some(true))
    );
    assert_eq!(
        w.call(Method::POST, &format!("/api/support/{id}/answer/"), Some(&bt), Some(json!({"text": "x"}))).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(w.call(Method::POST, &format!("/api/support/{id}/close/"), Some(&at), None).await.0, StatusCode::FORBIDDEN);
    let counts = w.ok(Method::GET, "/api/support/counts/", &at, None).await;
    assert_eq!(counts, json!({"open": 1, "answered": 1, "closed": 0, "total": 2}));
    w.ok(Method::POST, &format!("/api/support/{id}/close/"), &w.admin, None).await;
    let (st, v) = w.call(Method::POST, &format!("/api/support/{id}/answer/"), Some(&at), Some(json!({"text": "Tack"}))).await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("ticket_closed")));
    assert_eq!(subjects(&w.ok(Method::GET, "/api/support/?status=closed", &contact_a, None).await), ["Fakturan"]);
    assert_eq!(w.ok(Method::GET, "/api/support/counts/", &contact_a, None).await["closed"], 1);
}

#[tokio::test]
async fn academy_lessons_by_audience_progress_per_user() {
    let w = world().await;
    let lesson = |topic: &str, title: &str, published: bool, audience: Value, url: &str| json!({"topic": topic, "title": title, "text": "**Text**", "video_url": url, "published": published, "audience": audience});
    let (st, v) = w
        .call(Method::POST, "/api/academy/lessons/", Some(&w.admin), Some(lesson("T", "x", true, json!([]), "https://evil.example/v")))
        .await;
    assert_eq!((st, testkit::field(&v, "video_url")), (StatusCode::BAD_REQUEST, vec!["video_url_not_allowed"]));
    let l1 = w
        .ok(
            Method::POST,
            "/api/academy/lessons/",
            &w.admin,
            Some(lesson("Kom igång", "Välkommen", true, json!([]), "https://youtu.be/dQw4w9WgXcQ")),
        )
        .await;
    assert_eq!(l1["video_url"], "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
    let l2 = w.ok(Method::POST, "/api/academy/lessons/", &w.admin, Some(lesson("Ärenden", "Timmar", true, json!(["lawyer"]), ""))).await;
    let l3 = w.ok(Method::POST, "/api/academy/lessons/", &w.admin, Some(lesson("Kom igång", "Utkast", false, json!([]), ""))).await;

    let (_, c1) = testkit::signed_in(&w.state, Role::Customer).await;
    let (_, c2) = testkit::signed_in(&w.state, Role::Customer).await;
    let (_, lawyer) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let titles = |v: &Value| {
        v.as_array()
            .unwrap()
            .iter()
            .flat_map(|t| t["lessons"].as_array().unwrap().iter().map(|l| l["title"].as_str().unwrap().to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(titles(&w.ok(Method::GET, "/api/academy/", &c1, None).await), ["Välkommen"]);
    assert_eq!(titles(&w.ok(Method::GET, "/api/academy/", &lawyer, None).await), ["Välkommen", "Timmar"]);
    assert_eq!(titles(&w.ok(Method::GET, "/api/academy/", &w.admin, None).await), ["Välkommen", "Utkast", "Timmar"]);
    let id1 = l1["id"].as_str().unwrap();
    // Nobody sees progress on a lesson they may not see.
    let (st, _) = w
        .call(Method::POST, &format!("/api/academy/{}/progress/", l2["id"].as_str().unwrap()), Some(&c1), Some(json!({"watched": true})))
        .await;
    assert_eq!(st, StatusCode::NOT_FOUND);

    let p = w.ok(Method::POST, &format!("/api/academy/{id1}/progress/"), &c1, Some(json!({"completed": true}))).await;
    assert_eq!((p["watched"].as_bool(), p["completed"].as_bool()), (Some(true), Some(true)));
    let mine = w.ok(Method::GET, "/api/academy/", &c1, None).await;
    assert_eq!(mine[0]["lessons"][0]["progress"]["completed"], true);
    let theirs = w.ok(Method::GET, "/api/academy/", &c2, None).await;
    assert_eq!(
        (theirs[0]["lessons"][0]["progress"]["watched"].as_bool(), theirs[0]["lessons"][0]["progress"]["completed"].as_bool()),
        (Some(false), Some(false))
    );

    // Admin orders and publishes; others may not.
    let order = json!({"ids": [l2["id"], l3["id"], l1["id"]]});
    assert_eq!(w.call(Method::POST, "/api/academy/lessons/order/", Some(&lawyer), Some(order.clone())).await.0, StatusCode::FORBIDDEN);
    w.ok(Method::POST, "/api/academy/lessons/order/", &w.admin, Some(order)).await;
    let mut publish = lesson("Kom igång", "Utkast", true, json!([]), "");
    publish["position"] = json!(2);
    w.ok(Method::PUT, &format!("/api/academy/lessons/{}/", l3["id"].as_str().unwrap()), &w.admin, Some(publish)).await;
    assert_eq!(titles(&w.ok(Method::GET, "/api/academy/", &lawyer, None).await), ["Timmar", "Utkast", "Välkommen"]);
}

#[tokio::test]
async fn academy_lessons_keep_their_english_version() {
    let w = world().await;
    let mut form = json!({"topic": "Avtal", "title": "Grunder", "text": "Ett avtal …", "video_url": "", "published": true, "audience": []});
    // English text alone is not a version a reader could be shown.
    form["en"] = json!({"text": "A contract …"});
    let (st, v) = w.call(Method::POST, "/api/academy/lessons/", Some(&w.admin), Some(form.clone())).await;
    assert_eq!(
        (st, testkit::field(&v, "en.topic"), testkit::field(&v, "en.title")),
        (StatusCode::BAD_REQUEST, vec!["required"], vec!["required"])
    );
    form["en"] = json!({"topic": " Contracts ", "title": "Basics", "text": "A contract …"});
    let l = w.ok(Method::POST, "/api/academy/lessons/", &w.admin, Some(form.clone())).await;
    assert_eq!(l["en"], json!({"topic": "Contracts", "title": "Basics", "text": "A contract …"}));
    // A second lesson of the topic written in Swedish only: the topic keeps its English name.
    let sv_only = json!({"topic": "Avtal", "title": "Uppsägning", "text": "", "video_url": "", "published": true, "audience": []});
    let l2 = w.ok(Method::POST, "/api/academy/lessons/", &w.admin, Some(sv_only)).await;
    assert_eq!(l2["en"], Value::Null);
    let (_, customer) = testkit::signed_in(&w.state, Role::Customer).await;
    let academy = w.ok(Method::GET, "/api/academy/", &customer, None).await;
    assert_eq!((&academy[0]["topic"], &academy[0]["topic_en"]), (&json!("Avtal"), &json!("Contracts")));
    assert_eq!(academy[0]["lessons"][0]["en"]["title"], "Basics");
    // Editing without an English version removes it.
    form["en"] = Value::Null;
    let id = l["id"].as_str().unwrap();
    let edited = w.ok(Method::PUT, &format!("/api/academy/lessons/{id}/"), &w.admin, Some(form)).await;
    assert_eq!(edited["en"], Value::Null);
}

/// The public text is read in one round trip: the newest version and the
/// newest two texts at once (two Queries, no GetItem after them), and the
/// texts are the newest version's, not an earlier one's.
#[tokio::test]
async fn the_public_text_is_the_newest_versions_read_in_one_round_trip() {
    let (state, calls) = testkit::services_counting_calls().await;
    let content = finish(content::api(), state.clone());
    let (_, admin) = testkit::signed_in(&state, Role::Admin).await;
    for (sv, en) in [("Villkor ett", "Terms one"), ("Villkor två", "Terms two")] {
        let body = json!({"kind": "terms", "sv": sv, "en": en});
        let (st, v) = testkit::call(&content, Method::POST, "/api/legal/publish/", Some(&admin), Some(body)).await;
        assert!(st.is_success(), "{st} {v}");
    }
    calls.take();
    let (st, t) = testkit::call(&content, Method::GET, "/api/public/terms/", None, None).await;
    assert_eq!(st, StatusCode::OK, "{t}");
    assert_eq!((t["version"].as_u64(), t["sv"].as_str(), t["en"].as_str()), (Some(2), Some("Villkor två"), Some("Terms two")));
    let trips = calls.take_trips();
    assert_eq!(trips.ops, ["Query", "Query"]);
    assert_eq!(trips.in_a_row, 1, "the two Queries go at once");
}

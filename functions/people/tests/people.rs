//! Lawyers and sales persons against the local stand-in.

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use shared::domain::Role;
use shared::store::catalogue::NamedKind;
use shared::testkit::{call, services, signed_in};

fn mails_to(s: &shared::api::AppState, to: &str) -> Vec<String> {
    s.mail.outbox().map(|o| o.lock().unwrap().iter().filter(|m| m.to == to).map(|m| m.body.clone()).collect()).unwrap_or_default()
}

/// Admin creates a sales person from `form` under the Idempotency-Key `key` (a retry sends the same key).
fn create_salesperson<'a>(
    router: &'a axum::Router,
    admin: &'a str,
    form: &Value,
    key: &'a str,
) -> impl std::future::Future<Output = (StatusCode, axum::http::HeaderMap, Vec<u8>)> + 'a {
    let key = format!("\"{key}\"");
    let form = form.clone();
    async move {
        shared::testkit::call_with_headers(
            router,
            Method::POST,
            "/api/salesperson/create/",
            Some(admin),
            Some(form),
            &[("Idempotency-Key", &key)],
        )
        .await
    }
}

/// `to` got exactly one mail, and its link is the stored one: it sets the password.
async fn the_one_mailed_link_sets_the_password(s: &shared::api::AppState, to: &str) {
    let mail = mails_to(s, to);
    assert_eq!(mail.len(), 1);
    let token = mail[0].split("token=").nth(1).unwrap().split_whitespace().next().unwrap().to_string();
    shared::services::credentials::passwords::confirm_recovery(s, &token, "Brand-new-pass-2026!", "Brand-new-pass-2026!").await.unwrap();
}

#[tokio::test]
async fn admin_creates_lists_and_updates_lawyers() {
    let s = services().await;
    let router = shared::api::finish(people::api(), s.clone());
    let (_, admin) = signed_in(&s, Role::Admin).await;
    for name in ["Family law", "Tax law"] {
        s.store.create_named(NamedKind::KnowledgeSector, name, "").await.unwrap();
    }
    let sectors: Vec<u64> = s.store.list_named(NamedKind::KnowledgeSector).await.unwrap().iter().map(|e| e.id).collect();
    let (family, tax) = (sectors[0], sectors[1]);

    // A sector that does not exist is refused.
    let (st, body) = call(
        &router,
        Method::POST,
        "/api/lawyer/create/",
        Some(&admin),
        Some(json!({"first_name": "Nils", "last_name": "N", "email": "nils@example.com", "knowledge_sectors": [family, 999_999]})),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(body["errors"]["knowledge_sectors"][0], "unknown_knowledge_sector");

    // External without firm and rate: the spec's message, per-field keys.
    let (st, body) = call(&router, Method::POST, "/api/lawyer/create/", Some(&admin),
        Some(json!({"first_name": "Eva", "last_name": "Extern", "email": "eva@example.com", "user_sub_type": "external", "knowledge_sectors": [family]}))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], "external_lawyer_requires_company_and_rate");
    assert_eq!(body["errors"]["company_name"][0], "required");
    assert_eq!(body["errors"]["hourly_rate"][0], "required");

    let (st, eva) = call(
        &router,
        Method::POST,
        "/api/lawyer/create/",
        Some(&admin),
        Some(json!({"first_name": "Eva", "last_name": "Extern", "email": "Eva@Example.com", "user_sub_type": "external",
                    "company_name": "Extern Advokat AB", "hourly_rate": 1850.5, "knowledge_sectors": [family, tax]})),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{eva}");
    assert_eq!(eva["email"], "eva@example.com");
    assert_eq!(eva["lawyer"]["hourly_rate_ore"], 185050);
    let mail = mails_to(&s, "eva@example.com");
    assert_eq!(mail.len(), 1);
    assert!(mail[0].contains("/recovery/account?token="), "{}", mail[0]);

    // The address is taken, in any letter case.
    let (st, body) = call(
        &router,
        Method::POST,
        "/api/lawyer/create/",
        Some(&admin),
        Some(json!({"first_name": "E", "last_name": "X", "email": "EVA@example.com", "knowledge_sectors": [tax]})),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(body["errors"]["email"][0], "email_exists");

    let (st, ivan) = call(
        &router,
        Method::POST,
        "/api/lawyer/create/",
        Some(&admin),
        Some(json!({"first_name": "Ivan", "last_name": "Intern", "email": "ivan@example.com", "knowledge_sectors": [tax],
                    "company_name": "ignored", "hourly_rate": 100})),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED);
    assert_eq!(ivan["lawyer"]["user_sub_type"], "internal");
    assert_eq!(ivan["lawyer"]["company_name"], Value::Null, "internal lawyers have no own firm");

    let (_, external) = call(&router, Method::GET, "/api/lawyer/list/?type=external", Some(&admin), None).await;
    let names: Vec<&str> = external["results"].as_array().unwrap().iter().map(|l| l["first_name"].as_str().unwrap()).collect();
    assert_eq!(names, vec!["Eva"]);
    let (_, internal) = call(&router, Method::GET, "/api/lawyer/list/", Some(&admin), None).await;
    let names: Vec<&str> = internal["results"].as_array().unwrap().iter().map(|l| l["first_name"].as_str().unwrap()).collect();
    assert_eq!(names, vec!["Ivan"]);

    // Update: the e-mail is not changed, the kind may be.
    let uid = eva["uid"].as_str().unwrap();
    let (st, updated) = call(&router, Method::PUT, &format!("/api/lawyer/update/{uid}/"), Some(&admin),
        Some(json!({"first_name": "Eva", "last_name": "Intern", "email": "other@example.com", "user_sub_type": "internal", "knowledge_sectors": [tax]}))).await;
    assert_eq!(st, StatusCode::OK, "{updated}");
    assert_eq!(updated["email"], "eva@example.com");
    assert_eq!(updated["last_name"], "Intern");
    let (_, external) = call(&router, Method::GET, "/api/lawyer/list/?type=external", Some(&admin), None).await;
    assert_eq!(external["results"].as_array().unwrap().len(), 0, "moved to the internal list");
    let user = s.store.get_user(uid).await.unwrap().unwrap();
    assert_eq!(user.last_name, "Intern");

    // A sales person's uid is not a lawyer.
    let (_, sp) = call(
        &router,
        Method::POST,
        "/api/salesperson/create/",
        Some(&admin),
        Some(json!({"first_name": "Sara", "last_name": "Säljare", "email": "sara@example.com"})),
    )
    .await;
    let (st, _) = call(&router, Method::GET, &format!("/api/lawyer/{}/", sp["uid"].as_str().unwrap()), Some(&admin), None).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (st, _) = call(&router, Method::PUT, "/api/lawyer/update/nobody/", Some(&admin), Some(json!({"first_name": "x"}))).await;
    assert_eq!(st, StatusCode::NOT_FOUND);

    // Dropdown: active lawyers by name.
    let (_, lawyer_token) = signed_in(&s, Role::Lawyer).await;
    let (st, options) = call(&router, Method::GET, "/api/lawyer/dropdown/list/?search=iva", Some(&lawyer_token), None).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(options.as_array().unwrap().len(), 1, "{options}");
    assert_eq!(options[0]["full_name"], "Ivan Intern");

    // Resending the set-password link mails a second, different link.
    let (st, _) = call(&router, Method::POST, &format!("/api/staff/send-password-link/{uid}/"), Some(&admin), None).await;
    assert_eq!(st, StatusCode::OK);
    let mail = mails_to(&s, "eva@example.com");
    assert_eq!(mail.len(), 2);
    assert_ne!(mail[0], mail[1]);
    let (st, _) = call(&router, Method::POST, "/api/staff/send-password-link/nobody/", Some(&admin), None).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (st, _) = call(&router, Method::POST, &format!("/api/staff/send-password-link/{uid}/"), Some(&lawyer_token), None).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    // At most a few mails to one address in a window, whoever asks.
    let now = || std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let window = || now().div_euclid(shared::store::rate_limit::MAIL_PER_RECIPIENT.window_secs);
    let started = window();
    let mut answers = vec![];
    for _ in 0..shared::store::rate_limit::MAIL_PER_RECIPIENT.max {
        answers.push(call(&router, Method::POST, &format!("/api/staff/send-password-link/{uid}/"), Some(&admin), None).await.0);
    }
    if window() == started {
        // The invitation at creation and the resend above count too.
        assert_eq!(answers.last(), Some(&StatusCode::TOO_MANY_REQUESTS), "{answers:?}");
        assert_eq!(mails_to(&s, "eva@example.com").len(), shared::store::rate_limit::MAIL_PER_RECIPIENT.max as usize, "{answers:?}");
    }

    // Deactivation (the customers function's user/deactivate/) shows in the lists and hides from the dropdown.
    shared::services::customers::set_user_active(&s, ivan["uid"].as_str().unwrap(), false).await.unwrap();
    let (_, internal) = call(&router, Method::GET, "/api/lawyer/list/", Some(&admin), None).await;
    let ivan_row = internal["results"].as_array().unwrap().iter().find(|l| l["first_name"] == "Ivan").unwrap().clone();
    assert_eq!(ivan_row["active"], false);
    let (_, options) = call(&router, Method::GET, "/api/lawyer/dropdown/list/?search=iva", Some(&lawyer_token), None).await;
    assert_eq!(options.as_array().unwrap().len(), 0, "{options}");
}

#[tokio::test]
async fn only_admin_manages_staff_and_lists_page_by_key() {
    let s = services().await;
    let router = shared::api::finish(people::api(), s.clone());
    for role in [Role::Lawyer, Role::SalesPerson, Role::Customer, Role::CustomerContact] {
        let (_, token) = signed_in(&s, role).await;
        for (method, path) in
            [(Method::POST, "/api/lawyer/create/"), (Method::POST, "/api/salesperson/create/"), (Method::GET, "/api/salesperson/list/")]
        {
            let (st, body) =
                call(&router, method, path, Some(&token), Some(json!({"first_name": "a", "last_name": "b", "email": "x@example.com"})))
                    .await;
            assert_eq!(st, StatusCode::FORBIDDEN, "{role:?} {path}");
            assert_eq!(body["message"], "only_admin_creates_staff");
        }
    }
    let (_, customer) = signed_in(&s, Role::Customer).await;
    let (st, _) = call(&router, Method::GET, "/api/lawyer/dropdown/list/", Some(&customer), None).await;
    assert_eq!(st, StatusCode::FORBIDDEN);

    let (_, admin) = signed_in(&s, Role::Admin).await;
    for i in 0..12 {
        let (st, _) = call(
            &router,
            Method::POST,
            "/api/salesperson/create/",
            Some(&admin),
            Some(json!({"first_name": format!("S{i:02}"), "last_name": "P", "email": format!("s{i}@example.com")})),
        )
        .await;
        assert_eq!(st, StatusCode::CREATED);
    }
    let (_, first) = call(&router, Method::GET, "/api/salesperson/list/", Some(&admin), None).await;
    assert_eq!(first["results"].as_array().unwrap().len(), 10);
    assert_eq!(first["results"][0]["first_name"], "S11", "newest first");
    let next = first["next"].as_str().unwrap();
    let (_, second) = call(
        &router,
        Method::GET,
        &format!("/api/salesperson/list/?cursor={}", shared::domain::text::percent_encode(next)),
        Some(&admin),
        None,
    )
    .await;
    let names: Vec<&str> = second["results"].as_array().unwrap().iter().map(|l| l["first_name"].as_str().unwrap()).collect();
    assert_eq!(names, vec!["S01", "S00"]);

    let (st, body) = call(&router, Method::GET, "/api/salesperson/list/?cursor=garbage", Some(&admin), None).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(body["errors"]["cursor"][0], "invalid_cursor");
    let (st, body) = call(&router, Method::POST, "/api/salesperson/create/", Some(&admin), Some(json!({"email": "nope"}))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(body["errors"]["email"][0], "invalid_email");
    assert_eq!(body["errors"]["first_name"][0], "required");
    let (st, _) = call(&router, Method::POST, "/api/salesperson/create/", Some(&admin), Some(json!([1, 2]))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
}

/// The account and its set-password link are one write: a stop before it
/// leaves neither (the address stays free, so the retry creates it), and
/// the retry leaves both, with the link mailed once.
#[tokio::test]
async fn a_stop_while_creating_staff_leaves_neither_the_account_nor_its_link() {
    let s = services().await;
    let router = shared::api::finish(people::api(), s.clone());
    let (_, admin) = signed_in(&s, Role::Admin).await;
    let form = json!({"first_name": "Sara", "last_name": "Säljare", "email": "sara@example.com"});
    s.faults.arm("staff.before_commit");
    let (st, _) = call(&router, Method::POST, "/api/salesperson/create/", Some(&admin), Some(form.clone())).await;
    assert_eq!(st, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(s.store.find_user_by_email("sara@example.com").await.unwrap().is_none(), "no account without its link");
    assert!(mails_to(&s, "sara@example.com").is_empty());
    let (st, sara) = call(&router, Method::POST, "/api/salesperson/create/", Some(&admin), Some(form)).await;
    assert_eq!(st, StatusCode::CREATED, "the retry is not refused as email_exists: {sara}");
    the_one_mailed_link_sets_the_password(&s, "sara@example.com").await;
}

/// The account, its link and its mail are written together (the mail as an
/// outbox item); a stop after the commit but before the mail leaves both,
/// the client's retry with its key gets the first answer (no second
/// account, no `email_exists`), and the scheduled job's sweep sends the
/// mail once, however often it runs.
#[tokio::test]
async fn a_stop_between_the_account_and_its_mail_is_finished_by_the_sweep_once() {
    use shared::services::outbox::send_unsent;
    let sent = |r: shared::services::outbox::SweepReport| r.sent;
    let s = services().await;
    let router = shared::api::finish(people::api(), s.clone());
    let (_, admin) = signed_in(&s, Role::Admin).await;
    let form = json!({"first_name": "Lena", "last_name": "Lag", "email": "lena@example.com"});
    let create = || create_salesperson(&router, &admin, &form, "new-lena");
    s.faults.arm("outbox.before_send");
    let (st, _, _) = create().await;
    assert_eq!(st, StatusCode::INTERNAL_SERVER_ERROR);
    let lena = s.store.find_user_by_email("lena@example.com").await.unwrap().expect("the account is written");
    assert!(mails_to(&s, "lena@example.com").is_empty());
    // The retry answers what the first request would have.
    let (st, headers, body) = create().await;
    assert_eq!(st, StatusCode::CREATED, "{}", String::from_utf8_lossy(&body));
    assert_eq!(headers["idempotent-replayed"], "true");
    let profile: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(profile["uid"], lena.uid.as_str());
    // Mail younger than the sweep's bound waits for the request's own step.
    assert_eq!(sent(send_unsent(&s, chrono::Utc::now() - chrono::Duration::minutes(1), chrono::Utc::now()).await.unwrap()), 0);
    let later = chrono::Utc::now() + chrono::Duration::seconds(1);
    assert_eq!(sent(send_unsent(&s, later, later).await.unwrap()), 1);
    assert_eq!(sent(send_unsent(&s, later, later).await.unwrap()), 0, "marked sent");
    the_one_mailed_link_sets_the_password(&s, "lena@example.com").await;
    // A create whose step ran leaves nothing for the sweep.
    let (st, _) = call(
        &router,
        Method::POST,
        "/api/salesperson/create/",
        Some(&admin),
        Some(json!({"first_name": "Sam", "last_name": "S", "email": "sam@example.com"})),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED);
    assert_eq!(mails_to(&s, "sam@example.com").len(), 1);
    let later = chrono::Utc::now() + chrono::Duration::seconds(1);
    assert_eq!(send_unsent(&s, later, later).await.unwrap(), Default::default());
}

#[tokio::test]
async fn an_admin_creates_at_most_twenty_staff_an_hour() {
    let s = services().await;
    let router = shared::api::finish(people::api(), s.clone());
    let (_, admin) = signed_in(&s, Role::Admin).await;
    let limit = shared::store::rate_limit::INVITATIONS_PER_USER;
    let now = || std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let window = || now().div_euclid(limit.window_secs);
    let started = window();
    let mut answers = vec![];
    for i in 0..=limit.max {
        let body = json!({"first_name": format!("S{i:02}"), "last_name": "P", "email": format!("s{i}@example.com")});
        answers.push(call(&router, Method::POST, "/api/salesperson/create/", Some(&admin), Some(body)).await);
    }
    if window() != started {
        return; // the window ended in between: nothing to check
    }
    assert!(answers[..limit.max as usize].iter().all(|(st, _)| *st == StatusCode::CREATED), "{answers:?}");
    let (st, body) = answers.last().unwrap();
    assert_eq!((*st, body["message"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_many_invitations")));
    assert!(mails_to(&s, &format!("s{}@example.com", limit.max)).is_empty());
}

/// The outbox item of `uid`'s invitation, as stored (strongly consistent
/// scan of the test's own table).
async fn outbox_item_of(s: &shared::api::AppState, uid: &str) -> Vec<shared::store::Item> {
    let page = s
        .store
        .client
        .query()
        .table_name(&s.config.table_name)
        .key_condition_expression("PK = :p")
        .expression_attribute_values(":p", shared::store::s("OUTBOX"))
        .consistent_read(true)
        .send()
        .await
        .unwrap();
    page.items().iter().filter(|i| i.get("user_uid").and_then(|v| v.as_s().ok()).map(String::as_str) == Some(uid)).cloned().collect()
}

fn number(item: &shared::store::Item, name: &str) -> Option<i64> {
    item.get(name).and_then(|v| v.as_n().ok()).and_then(|n| n.parse().ok())
}

/// SES refusing a new account's invitation does not undo the account: the
/// create answers 201 (its retry with the same key the same, adding
/// nothing), the invitation stays in the outbox, counted and backed off,
/// and the sweep sends it once SES takes the address.
#[tokio::test]
async fn a_refused_invitation_leaves_the_account_made_and_the_sweep_sends_it_later() {
    use shared::services::outbox::{send_unsent, SweepReport};
    let proxy = shared::testkit::Proxy::start(std::time::Duration::from_millis(10)).await;
    let s = shared::testkit::services_at(&proxy.url).await;
    let router = shared::api::finish(people::api(), s.clone());
    let (_, admin) = signed_in(&s, Role::Admin).await;
    proxy.refuse_mail_to("rut@example.com");
    let form = json!({"first_name": "Rut", "last_name": "Ring", "email": "rut@example.com"});
    let create = || create_salesperson(&router, &admin, &form, "new-rut");
    let (st, _, body) = create().await;
    assert_eq!(st, StatusCode::CREATED, "{}", String::from_utf8_lossy(&body));
    let first: Value = serde_json::from_slice(&body).unwrap();
    let rut = s.store.find_user_by_email("rut@example.com").await.unwrap().expect("the account is written");
    assert_eq!(first["uid"], rut.uid.as_str());
    assert!(mails_to(&s, "rut@example.com").is_empty());
    let items = outbox_item_of(&s, &rut.uid).await;
    assert_eq!(items.len(), 1, "{items:?}");
    assert!(items[0].contains_key("token"), "unsent");
    assert_eq!(number(&items[0], "attempts"), Some(1), "the refused send is counted");
    let next = number(&items[0], "next_attempt_at").expect("a next try");
    assert!(next >= chrono::Utc::now().timestamp() + 14 * 60, "backed off");

    // The retry answers the first answer and adds nothing.
    let (st, headers, body) = create().await;
    assert_eq!(st, StatusCode::CREATED, "{}", String::from_utf8_lossy(&body));
    assert_eq!(headers["idempotent-replayed"], "true");
    assert_eq!(serde_json::from_slice::<Value>(&body).unwrap(), first);
    assert_eq!(outbox_item_of(&s, &rut.uid).await.len(), 1, "no second invitation");

    // Not due yet: the sweep leaves it.
    let soon = chrono::Utc::now() + chrono::Duration::minutes(2);
    assert_eq!(send_unsent(&s, soon, soon).await.unwrap(), SweepReport::default());
    // Due and still refused: counted again.
    let later = soon + chrono::Duration::minutes(20);
    assert_eq!(send_unsent(&s, later, later).await.unwrap(), SweepReport { deferred: 1, ..Default::default() });
    assert_eq!(number(&outbox_item_of(&s, &rut.uid).await[0], "attempts"), Some(2));
    // SES takes it again: the next due sweep sends it, once.
    proxy.accept_mail_to("rut@example.com");
    let much_later = later + chrono::Duration::hours(1);
    assert_eq!(send_unsent(&s, much_later, much_later).await.unwrap(), SweepReport { sent: 1, ..Default::default() });
    assert_eq!(send_unsent(&s, much_later, much_later).await.unwrap(), SweepReport::default());
    the_one_mailed_link_sets_the_password(&s, "rut@example.com").await;
}

/// One address SES never takes does not hold up the mail queued after it,
/// and after the last try it is marked failed (kept, not sent, no longer
/// picked by the sweep).
#[tokio::test]
async fn a_mail_refused_for_good_holds_up_nothing_and_is_marked_failed() {
    use shared::services::outbox::{send_unsent, SweepReport};
    use shared::store::outbox::MAX_ATTEMPTS;
    let proxy = shared::testkit::Proxy::start(std::time::Duration::from_millis(10)).await;
    let s = shared::testkit::services_at(&proxy.url).await;
    let router = shared::api::finish(people::api(), s.clone());
    let (_, admin) = signed_in(&s, Role::Admin).await;
    proxy.refuse_mail_to("gone@example.com");
    let create = |email: &str| {
        call(
            &router,
            Method::POST,
            "/api/salesperson/create/",
            Some(&admin),
            Some(json!({"first_name": "Lo", "last_name": "L", "email": email})),
        )
    };
    let (st, body) = create("gone@example.com").await;
    assert_eq!(st, StatusCode::CREATED, "{body}");
    // The next one is queued behind it (a stop before its own step).
    s.faults.arm("outbox.before_send");
    let (st, _) = create("good@example.com").await;
    assert_eq!(st, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(mails_to(&s, "good@example.com").is_empty());

    let mut at = chrono::Utc::now() + chrono::Duration::hours(7);
    assert_eq!(
        send_unsent(&s, at, at).await.unwrap(),
        SweepReport { sent: 1, failed: 0, deferred: 1 },
        "the good one goes past the refused one"
    );
    assert_eq!(mails_to(&s, "good@example.com").len(), 1);
    let gone = s.store.find_user_by_email("gone@example.com").await.unwrap().unwrap();
    // Tries 3 to MAX_ATTEMPTS - 1 are put off; the last marks it failed.
    for attempt in 3..=MAX_ATTEMPTS {
        at += chrono::Duration::hours(7);
        let report = send_unsent(&s, at, at).await.unwrap();
        let expected = if attempt == MAX_ATTEMPTS {
            SweepReport { failed: 1, ..Default::default() }
        } else {
            SweepReport { deferred: 1, ..Default::default() }
        };
        assert_eq!(report, expected, "try {attempt}");
    }
    let items = outbox_item_of(&s, &gone.uid).await;
    assert_eq!(items.len(), 1, "kept for operations");
    assert!(!items[0].contains_key("token"), "no longer unsent");
    assert!(items[0].contains_key("failed_at") && !items[0].contains_key("sent_at"));
    assert_eq!(number(&items[0], "attempts"), Some(i64::from(MAX_ATTEMPTS)));
    // Later sweeps pass it by, even once SES would take the address.
    proxy.accept_mail_to("gone@example.com");
    at += chrono::Duration::days(1);
    assert_eq!(send_unsent(&s, at, at).await.unwrap(), SweepReport::default());
    assert!(mails_to(&s, "gone@example.com").is_empty());
}

/// Sending a new link again has no effect but the mail: a refusal is told
/// (400 `could_not_send_mail`) and its mail withdrawn, so no link arrives
/// later beside the one asked for again.
#[tokio::test]
async fn a_refused_resent_link_is_told_and_never_sent_later() {
    use shared::services::outbox::{send_unsent, SweepReport};
    let proxy = shared::testkit::Proxy::start(std::time::Duration::from_millis(10)).await;
    let s = shared::testkit::services_at(&proxy.url).await;
    let router = shared::api::finish(people::api(), s.clone());
    let (_, admin) = signed_in(&s, Role::Admin).await;
    let (st, body) = call(
        &router,
        Method::POST,
        "/api/salesperson/create/",
        Some(&admin),
        Some(json!({"first_name": "Ove", "last_name": "O", "email": "ove@example.com"})),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED);
    let uid = body["uid"].as_str().unwrap().to_string();
    assert_eq!(mails_to(&s, "ove@example.com").len(), 1);
    proxy.refuse_mail_to("ove@example.com");
    let path = format!("/api/staff/send-password-link/{uid}/");
    let (st, body) = call(&router, Method::POST, &path, Some(&admin), None).await;
    assert_eq!((st, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("could_not_send_mail")), "{body}");
    proxy.accept_mail_to("ove@example.com");
    let later = chrono::Utc::now() + chrono::Duration::days(1);
    assert_eq!(send_unsent(&s, later, later).await.unwrap(), SweepReport::default());
    assert_eq!(mails_to(&s, "ove@example.com").len(), 1, "the withdrawn link is never sent");
    let (st, body) = call(&router, Method::POST, &path, Some(&admin), None).await;
    assert_eq!((st, body["message"].as_str()), (StatusCode::OK, Some("password_link_sent")), "{body}");
    assert_eq!(mails_to(&s, "ove@example.com").len(), 2);
}

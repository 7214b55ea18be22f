//! The local gateway against the stand-in: static web app, API fallbacks,
//! the local outbox, the OpenAPI document and the demo seed.

use axum::http::{Method, StatusCode};
use axum::Router;
use local_gateway::{app, seed};
use serde_json::{json, Value};
use shared::api::AppState;
use shared::testkit;

async fn gateway() -> (AppState, Router, tempdir::Dir) {
    let state = testkit::services().await;
    let dist = tempdir::Dir::new();
    std::fs::write(dist.path().join("index.html"), "<!doctype html><title>app</title><div id=root></div>").unwrap();
    std::fs::create_dir_all(dist.path().join("assets")).unwrap();
    std::fs::write(dist.path().join("assets/app.js"), "console.log(1)").unwrap();
    let router = app(state.clone(), dist.path().to_path_buf());
    (state, router, dist)
}

async fn send(router: &Router, method: Method, path: &str, body: Option<Value>) -> (StatusCode, String) {
    testkit::call_text(router, method, path, None, body).await
}

#[tokio::test]
async fn serves_the_web_app_with_spa_fallback_and_api_errors_as_json() {
    let (_state, router, _dist) = gateway().await;
    let (status, body) = send(&router, Method::GET, "/", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.contains("<div id=root>"));
    let (status, body) = send(&router, Method::GET, "/assets/app.js", None).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "console.log(1)"));
    // deep links load the app, whose router decides
    let (status, body) = send(&router, Method::GET, "/admin/customers/pending/", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.contains("<div id=root>"));
    // but unknown API paths are API errors, never the HTML page
    let (status, body) = send(&router, Method::GET, "/api/no-such-thing/", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["message"], "not_found");
}

#[tokio::test]
async fn mail_goes_through_ses_and_shows_in_the_local_outbox() {
    let (state, router, _dist) = gateway().await;
    state.mail.send("new.customer@example.com", "Aktivera ditt konto", "Klicka: http://x/confirm/account?t=1").await.unwrap();
    let (status, body) = send(&router, Method::GET, "/local/outbox.json", None).await;
    assert_eq!(status, StatusCode::OK);
    let mails: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(mails[0]["to"], "new.customer@example.com");
    assert_eq!(mails[0]["subject"], "Aktivera ditt konto");
    assert!(mails[0]["body"].as_str().unwrap().contains("/confirm/account"));
    let (status, html) = send(&router, Method::GET, "/local/outbox", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Aktivera ditt konto"));
    // and SES (the stand-in) really received it
    let data: Value = reqwest_like_get(&format!("{}/moto-api/data.json", testkit::endpoint())).await;
    assert!(data.to_string().contains("new.customer@example.com"), "SES did not record the mail");
}

#[tokio::test]
async fn local_pages_answer_only_loopback_names() {
    use tower::ServiceExt;
    let (state, router, _dist) = gateway().await;
    state.mail.send("someone@example.com", "Din kod", "Kod: 123456").await.unwrap();
    for (host, want) in [
        ("127.0.0.1:3000", StatusCode::OK),
        ("localhost:3000", StatusCode::OK),
        ("[::1]:3000", StatusCode::OK),
        // A DNS-rebinding page sends its own name.
        ("evil.example.com", StatusCode::NOT_FOUND),
        ("127.0.0.1.evil.example.com:3000", StatusCode::NOT_FOUND),
        ("0.0.0.0:3000", StatusCode::NOT_FOUND),
    ] {
        for path in ["/local/outbox.json", "/local/outbox"] {
            let req = axum::http::Request::get(path).header("host", host).body(axum::body::Body::empty()).unwrap();
            let res = router.clone().oneshot(req).await.unwrap();
            assert_eq!(res.status(), want, "{host} {path}");
        }
    }
    // The API itself answers whatever the name (the edge decides that).
    let req = axum::http::Request::get("/api/openapi.json").header("host", "evil.example.com").body(axum::body::Body::empty()).unwrap();
    assert_eq!(router.clone().oneshot(req).await.unwrap().status(), StatusCode::OK);
}

/// GET a JSON document from the stand-in.
async fn reqwest_like_get(url: &str) -> Value {
    let (status, _, body) = testkit::http("GET", url, None, &[]).await;
    assert_eq!(status, 200, "{url}");
    serde_json::from_slice(&body).unwrap()
}

#[tokio::test]
async fn openapi_document_lists_every_route_and_every_listed_route_exists() {
    let (state, router, _dist) = gateway().await;
    // Published terms and privacy texts, so their public reads answer 200
    // (on an empty table they rightly answer 404, which reads as "not routed").
    local_gateway::seed_content::seed_demo_content(&state).await.unwrap();
    let (status, body) = send(&router, Method::GET, "/api/openapi.json", None).await;
    assert_eq!(status, StatusCode::OK);
    let doc: Value = serde_json::from_str(&body).unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let paths = doc["paths"].as_object().unwrap();
    for p in ["/api/token/", "/api/token/refresh/", "/api/profile/", "/api/openapi.json"] {
        assert!(paths.contains_key(p), "{p} missing from the OpenAPI document");
    }
    assert!(doc["components"]["securitySchemes"]["bearer"].is_object());
    // every documented operation is routed (answers something other than 404/405)
    for (path, ops) in paths {
        for method in ops.as_object().unwrap().keys() {
            let m = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let body = (m != Method::GET).then(|| json!({}));
            let (status, _) = send(&router, m.clone(), path, body).await;
            assert!(
                status != StatusCode::NOT_FOUND && status != StatusCode::METHOD_NOT_ALLOWED,
                "{m} {path} is documented but not routed ({status})"
            );
        }
    }
}

#[tokio::test]
async fn demo_seed_is_idempotent_and_every_role_can_sign_in() {
    let (state, router, _dist) = gateway().await;
    assert_eq!(seed::seed_demo_accounts(&state).await.unwrap(), 6);
    assert_eq!(seed::seed_demo_accounts(&state).await.unwrap(), 0);
    let expected = [(true, Value::Null), (false, json!(1)), (false, json!(2)), (false, json!(3)), (false, json!(4)), (false, json!(3))];
    for (account, (is_staff, user_type)) in seed::DEMO_ACCOUNTS.iter().zip(expected) {
        let (status, body) =
            send(&router, Method::POST, "/api/token/", Some(json!({ "email": account.email, "password": seed::DEMO_PASSWORD }))).await;
        assert_eq!(status, StatusCode::OK, "{}: {body}", account.email);
        let token = serde_json::from_str::<Value>(&body).unwrap()["access_token"].as_str().unwrap().to_string();
        let (_, me) = testkit::call(&router, Method::GET, "/api/profile/", Some(&token), None).await;
        assert_eq!(me["is_staff"], is_staff, "{}", account.email);
        assert_eq!(me["user_type"], user_type, "{}", account.email);
    }
    // the contact belongs to the demo customer's company
    let customer = state.store.find_user_by_email("customer@example.com").await.unwrap().unwrap();
    let contact = state.store.find_user_by_email("contact@example.com").await.unwrap().unwrap();
    assert_eq!(contact.company_id.as_deref(), Some(customer.uid.as_str()));
    // the demo contact shows the restriction: no view_contact
    assert!(!contact.permissions.is_empty());
    assert!(!contact.permissions.contains(&shared::domain::Permission::ViewContact));
    // ...and writes in its company's cases
    assert!(contact.permissions.contains(&shared::domain::Permission::ChatInCases));

    // the demo customer is an active company customer, listed once however often the seed runs
    let profile = state.store.get_customer_profile(&customer.uid).await.unwrap().expect("a customer profile");
    assert_eq!(profile.company_name.as_deref(), Some(seed::DEMO_COMPANY));
    assert_eq!(profile.company_registration_number.as_deref(), Some(seed::DEMO_REGISTRATION_NUMBER));
    assert_eq!(profile.state, shared::domain::customer::CustomerState::Active);
    // Both demo companies are the demo sales person's customers.
    let sales = state.store.find_user_by_email("sales@example.com").await.unwrap().unwrap();
    assert_eq!(profile.account_manager_uid.as_deref(), Some(sales.uid.as_str()));
    let page = state.store.list_customers(shared::domain::customer::CustomerState::Active, None, None, 10).await.unwrap();
    assert_eq!(page.results.len(), 2);
    assert!(state.store.registration_number_taken(seed::DEMO_REGISTRATION_NUMBER).await.unwrap());

    // the browser-test contact with every permission joins the same customer, once
    assert_eq!(seed::seed_accounts(&state, &seed::E2E_ACCOUNTS).await.unwrap(), seed::E2E_ACCOUNTS.len());
    assert_eq!(seed::seed_accounts(&state, &seed::E2E_ACCOUNTS).await.unwrap(), 0);
    let admin_contact = state.store.find_user_by_email("contact-admin@example.com").await.unwrap().unwrap();
    assert_eq!(admin_contact.customer_id.as_deref(), Some(customer.uid.as_str()));
    assert_eq!(admin_contact.permissions, shared::domain::Permission::ALL.to_vec());
    let page = state.store.list_contacts(&customer.uid, None).await.unwrap();
    assert_eq!(page.contacts.len(), 2);
}

#[tokio::test]
async fn demo_cases_go_through_the_api_in_every_state_once() {
    let (state, router, _dist) = gateway().await;
    seed::seed_demo_accounts(&state).await.unwrap();
    assert_eq!(local_gateway::demo_cases::seed_demo_cases(&state, &router).await.unwrap(), 27);
    assert_eq!(local_gateway::demo_cases::seed_demo_cases(&state, &router).await.unwrap(), 0);

    let token = |email: &'static str| {
        let state = state.clone();
        async move {
            let u = state.store.find_user_by_email(email).await.unwrap().unwrap();
            shared::services::credentials::start_session(&state, &u).await.unwrap().access_token
        }
    };
    let list = |t: String, status: &'static str| {
        let router = router.clone();
        async move {
            let (st, v) = testkit::call(&router, Method::GET, &format!("/api/case/list/?status={status}"), Some(&t), None).await;
            assert_eq!(st, StatusCode::OK, "{v}");
            v["results"].as_array().unwrap().iter().map(|c| c["subject"].as_str().unwrap().to_string()).collect::<Vec<_>>()
        }
    };
    let admin = token("admin@example.com").await;
    let lawyer = token("lawyer@example.com").await;
    let sales = token("sales@example.com").await;
    let customer = token("customer@example.com").await;
    let customer2 = token("customer2@example.com").await;
    // Every state, both customers, and enough for the lists to page.
    assert_eq!(list(admin.clone(), "pending").await.len(), 6);
    assert!(list(admin.clone(), "pending").await.contains(&"Granskning av leverantörsavtal".to_string()));
    assert_eq!(list(lawyer.clone(), "available").await.len(), 5);
    // With the cases of last month's history in progress and closed.
    let counts = [list(lawyer.clone(), "my").await.len(), list(lawyer.clone(), "closed").await.len()];
    assert_eq!(counts, [10, 10]);
    assert_eq!(list(sales.clone(), "all").await.len(), 10, "a first page of 27");
    assert_eq!(list(customer, "all").await.len(), 10, "a first page of 15");
    assert_eq!(list(customer2, "closed").await.len(), 5);

    // The lawyer's hours (with last month's history) were booked on
    // each customer's consultancy hours.
    for (email, consumed) in [("customer@example.com", "48.25"), ("customer2@example.com", "54.25")] {
        let cust = state.store.find_user_by_email(email).await.unwrap().unwrap();
        let row = state.store.current_hour_row(&cust.uid, chrono::Utc::now().naive_utc()).await.unwrap().expect("an hour row");
        assert_eq!(row.consumed_hour.to_decimal_string(), consumed, "{email}");
    }
    // The demo lawyer and sales person are complete staff records.
    for email in ["lawyer@example.com", "sales@example.com"] {
        let u = state.store.find_user_by_email(email).await.unwrap().unwrap();
        assert!(state.store.get_staff(&u.uid).await.unwrap().is_some(), "{email}");
    }
    // Case types and knowledge sectors are named in both languages.
    let types = state.store.list_named(shared::store::catalogue::NamedKind::CaseType).await.unwrap();
    assert_eq!(types.len(), local_gateway::demo_cases::DEMO_CASE_TYPES.len());
    let sectors = state.store.list_named(shared::store::catalogue::NamedKind::KnowledgeSector).await.unwrap();
    for e in types.iter().chain(&sectors) {
        assert!(e.name_en.as_deref().is_some_and(|en| en != e.name), "{} has an English name", e.name);
    }
}

#[tokio::test]
async fn demo_documents_fill_every_documents_filter_once_and_stay_with_their_customer() {
    let (state, router, _dist) = gateway().await;
    seed::seed_demo_accounts(&state).await.unwrap();
    local_gateway::demo_cases::seed_demo_cases(&state, &router).await.unwrap();
    assert_eq!(local_gateway::demo_documents::seed_demo_documents(&state).await.unwrap(), 8);
    assert_eq!(local_gateway::demo_documents::seed_demo_documents(&state).await.unwrap(), 0, "once");
    // Public documents and templates: both languages, several categories, once.
    local_gateway::seed_content::seed_demo_content(&state).await.unwrap();
    let templates = state.store.template_files().await.unwrap();
    assert_eq!(templates.len(), 5);
    assert!(templates.iter().any(|t| t.language == "sv") && templates.iter().any(|t| t.language == "en"));

    let token = |email: &'static str| {
        let state = state.clone();
        async move {
            let u = state.store.find_user_by_email(email).await.unwrap().unwrap();
            shared::services::credentials::start_session(&state, &u).await.unwrap().access_token
        }
    };
    let documents = |t: String, query: String| {
        let router = router.clone();
        async move {
            let (st, v) = testkit::call(&router, Method::GET, &format!("/api/documents/{query}"), Some(&t), None).await;
            assert_eq!(st, StatusCode::OK, "{v}");
            v.as_array().unwrap().clone()
        }
    };
    let customer = token("customer@example.com").await;
    let all = documents(customer.clone(), String::new()).await;
    assert_eq!(all.len(), 7);
    // Every type the page filters by, several cases, and the search.
    for kind in ["pdf", "word", "excel", "ppt", "image"] {
        assert!(!documents(customer.clone(), format!("?kind={kind}")).await.is_empty(), "{kind}");
    }
    let cases: std::collections::BTreeSet<_> = all.iter().map(|d| d["case_uid"].as_str().unwrap().to_string()).collect();
    assert!(cases.len() >= 4, "{cases:?}");
    let first = cases.iter().next().unwrap();
    assert!(documents(customer.clone(), format!("?case={first}")).await.iter().all(|d| d["case_uid"] == first.as_str()));
    let found = documents(customer.clone(), "?search=hyresavtal".into()).await;
    assert_eq!(found.iter().map(|d| d["name"].as_str().unwrap()).collect::<Vec<_>>(), ["Hyresavtal 2025.pdf"]);
    // Each downloads (the file is there, presigned).
    for d in &all {
        let path = format!("/api/case/file/download/?case={}&key={}", d["case_uid"].as_str().unwrap(), d["key"].as_str().unwrap());
        let (st, v) = testkit::call(&router, Method::GET, &path, Some(&customer), None).await;
        assert_eq!(st, StatusCode::OK, "{path}: {v}");
    }

    // The contact sees its customer's documents, never the other customer's.
    let contact = token("contact@example.com").await;
    assert_eq!(documents(contact.clone(), String::new()).await.len(), 7);
    let other = documents(token("customer2@example.com").await, String::new()).await;
    assert_eq!(other.len(), 1);
    let path =
        format!("/api/case/file/download/?case={}&key={}", other[0]["case_uid"].as_str().unwrap(), other[0]["key"].as_str().unwrap());
    let (st, _) = testkit::call(&router, Method::GET, &path, Some(&contact), None).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
}

/// A temporary directory removed on drop (no extra crate for one use).
mod tempdir {
    pub struct Dir(std::path::PathBuf);
    impl Dir {
        pub fn new() -> Self {
            let p = std::env::temp_dir().join(format!("gateway-test-{}", uuid_like()));
            std::fs::create_dir_all(&p).unwrap();
            Dir(p)
        }
        pub fn path(&self) -> &std::path::Path {
            &self.0
        }
    }
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    fn uuid_like() -> String {
        format!("{}-{:?}", std::process::id(), std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos())
    }
}

/// Signs in with BankID through the gateway (the stand-in's order: pending
/// until its path ends), with the order's cookie; the signed-in e-mail.
async fn bankid_sign_in(router: &Router) -> String {
    let (status, headers, body) =
        testkit::call_with_headers(router, Method::POST, "/api/bankid/auth/", None, Some(json!({"device": "qr"})), &[]).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    let started: Value = serde_json::from_slice(&body).unwrap();
    let set = headers.get("set-cookie").unwrap().to_str().unwrap().to_string();
    let cookie = set.split(';').next().unwrap().to_string();
    let order = json!({"order_ref": started["order_ref"]});
    for _ in 0..10 {
        let (status, _, body) =
            testkit::call_with_headers(router, Method::POST, "/api/bankid/collect/", None, Some(order.clone()), &[("cookie", &cookie)])
                .await;
        let answer: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(status, StatusCode::OK, "{answer}");
        if answer["status"] == "complete" {
            let token = answer["auth"]["access_token"].as_str().unwrap().to_string();
            let (_, me) = testkit::call(router, Method::GET, "/api/profile/", Some(&token), None).await;
            return me["email"].as_str().unwrap().to_string();
        }
        assert_eq!(answer["status"], "pending", "{answer}");
    }
    panic!("the order did not complete");
}

#[tokio::test]
async fn the_demo_customer_and_lawyer_sign_in_with_bankid_against_the_stand_in() {
    let (state, _, stand_in) = testkit::services_with_stand_in_handle().await;
    let dist = tempdir::Dir::new();
    let router = app(state.clone(), dist.path().to_path_buf());
    seed::seed_demo_accounts(&state).await.unwrap();
    assert_eq!(seed::seed_demo_bankid(&state).await.unwrap(), 2);
    assert_eq!(seed::seed_demo_bankid(&state).await.unwrap(), 0, "once");
    for (email, number) in seed::DEMO_BANKID {
        assert!(shared::domain::bankid::is_personal_number(number), "{number}");
        let user = state.store.find_user_by_email(email).await.unwrap().unwrap();
        assert_eq!(state.store.personal_number_owner(number).await.unwrap(), Some(user.uid.clone()));
        assert_eq!(state.store.bankid_link_of(&user.uid).await.unwrap().as_deref(), Some(number));
    }
    // Unscripted, the stand-in's order completes for the demo customer's number.
    assert_eq!(bankid_sign_in(&router).await, seed::DEMO_CUSTOMER_EMAIL);
    // The lawyer's, as README says: its number scripted first.
    let (lawyer, number) = seed::DEMO_BANKID[1];
    stand_in.bankid_next(shared::providers::stand_in::bankid::Path { personal_number: number.into(), ..Default::default() });
    assert_eq!(bankid_sign_in(&router).await, lawyer);
}

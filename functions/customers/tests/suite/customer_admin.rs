//! Staff-kept customers: create, update, details, lists per role, dropdowns,
//! and the customers' entries in the conflict-of-interest index.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{emails, field, staff_company as company, staff_individual as individual, world, World};
use serde_json::{json, Value};
use shared::domain::conflict::PartyKind;
use shared::domain::Role;
use shared::store::catalogue::NamedKind;
use shared::testkit;

async fn call(env: &World, method: Method, path: &str, token: &str, body: Option<Value>) -> (StatusCode, Value) {
    testkit::call(&env.router, method, path, Some(token), body).await
}

async fn create(env: &World, token: &str, body: Value) -> (StatusCode, Value) {
    call(env, Method::POST, "/api/customer/create/", token, Some(body)).await
}

#[tokio::test]
async fn admin_creates_a_company_with_every_field_active_and_invited() {
    let env = world().await;
    let (sales, _) = testkit::signed_in(&env.state, Role::SalesPerson).await;
    let dep = env.state.store.create_named(NamedKind::Department, "Nord", "").await.unwrap();
    let ks = env.state.store.create_named(NamedKind::KnowledgeSector, "Tax law", "").await.unwrap();
    let mut body = company("Sven@Example.com", "556677-1233", "Söderberg & Partners AB");
    body["account_manager"] = json!(sales.uid);
    body["department"] = json!(dep.id);
    body["knowledge_sectors"] = json!([ks.id]);
    let (status, created) = create(&env, &env.admin, body).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let uid = created["uid"].as_str().unwrap().to_string();
    assert_eq!(created["state"], "active");
    assert_eq!(created["hourly_rate_ore"], 125050);
    assert_eq!(created["invoice_address"]["city"], "Solna");

    let user = env.state.store.get_user(&uid).await.unwrap().unwrap();
    assert!(user.active);
    assert_eq!(user.email, "sven@example.com");
    assert_eq!(env.state.store.customer_department(&uid).await.unwrap(), Some(dep.id));
    let mails = env.state.mail.outbox().unwrap().lock().unwrap().clone();
    assert!(mails.iter().any(|m| m.to == "sven@example.com" && m.body.contains("/recovery/account?token=")), "invitation sent");

    let (status, details) = call(&env, Method::GET, &format!("/api/customer/details/{uid}/"), &env.admin, None).await;
    assert_eq!(status, StatusCode::OK, "{details}");
    assert_eq!(details["company_name"], "Söderberg & Partners AB");
    assert_eq!(details["sector"]["name"], "Financial");
    assert_eq!(details["account_manager"]["first_name"], sales.first_name);
    assert_eq!(details["department"]["name"], "Nord");
    assert_eq!(details["knowledge_sector_names"], json!(["Tax law"]));
    assert_eq!(details["same_invoice_address"], false);

    // The conflict index finds it by a misspelt name and by its number.
    let hits = env.state.store.search_parties("Soderberg och Partners").await.unwrap();
    assert!(hits.iter().any(|h| h.party.kind == PartyKind::Company && h.party.uid == uid), "{hits:?}");
    let hits = env.state.store.search_parties("5566771233").await.unwrap();
    assert!(hits.iter().any(|h| h.party.kind == PartyKind::Company && h.party.customer_uid.as_deref() == Some(uid.as_str())));
    let hits = env.state.store.search_parties("Sven Soderberg").await.unwrap();
    assert!(hits.iter().any(|h| h.party.kind == PartyKind::ContactPerson && h.party.uid == uid), "{hits:?}");
}

#[tokio::test]
async fn individuals_and_registrations_are_indexed_too() {
    let env = world().await;
    let (status, created) = create(&env, &env.admin, individual("ida@example.com")).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let uid = created["uid"].as_str().unwrap().to_string();
    let hits = env.state.store.search_parties("Ek Ida").await.unwrap();
    assert!(hits.iter().any(|h| h.party.kind == PartyKind::Customer && h.party.uid == uid), "{hits:?}");

    // Self-registration indexes as well.
    let mut reg = company("reg@example.com", "112233-4455", "Grönlund Bygg AB");
    reg["password"] = json!("Very-secret-pass-1");
    reg["confirm_password"] = json!("Very-secret-pass-1");
    reg["terms_accepted"] = json!(true);
    reg["privacy_accepted"] = json!(true);
    let (status, body) = testkit::call(&env.router, Method::POST, "/api/registration/", None, Some(reg)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let hits = env.state.store.search_parties("Gronlund Bygg").await.unwrap();
    assert!(hits.iter().any(|h| h.party.kind == PartyKind::Company), "{hits:?}");

    // An individual turned company leaves the customer kind.
    let mut update = company("ida@example.com", "998877-6655", "Ek Konsult AB");
    update["first_name"] = json!("Ida");
    update["last_name"] = json!("Ek");
    let (status, body) = call(&env, Method::PUT, &format!("/api/customer/update/{uid}/"), &env.admin, Some(update)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let hits = env.state.store.search_parties("Ida Ek").await.unwrap();
    assert!(hits.iter().all(|h| h.party.kind != PartyKind::Customer), "{hits:?}");
    assert!(hits.iter().any(|h| h.party.kind == PartyKind::ContactPerson && h.party.uid == uid));
}

#[tokio::test]
async fn only_admin_and_sales_persons_create_and_update() {
    let env = world().await;
    let (_, sales) = testkit::signed_in(&env.state, Role::SalesPerson).await;
    let (status, body) = create(&env, &sales, individual("by-sales@example.com")).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let uid = body["uid"].as_str().unwrap().to_string();
    for role in [Role::Lawyer, Role::Customer, Role::CustomerContact] {
        let (_, token) = testkit::signed_in(&env.state, role).await;
        let (status, _) = create(&env, &token, individual("nope@example.com")).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{role:?} create");
        let (status, _) =
            call(&env, Method::PUT, &format!("/api/customer/update/{uid}/"), &token, Some(individual("by-sales@example.com"))).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{role:?} update");
    }
    let (status, _) = testkit::call(&env.router, Method::POST, "/api/customer/create/", None, Some(individual("x@example.com"))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // Customers and contacts do not read other customers' details either.
    let (_, customer) = testkit::signed_in(&env.state, Role::Customer).await;
    let (status, _) = call(&env, Method::GET, &format!("/api/customer/details/{uid}/"), &customer, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Unknown customer.
    let (status, _) = call(&env, Method::GET, "/api/customer/details/nobody/", &env.admin, None).await;
    assert_eq!(status, StatusCode::NOT_ACCEPTABLE);
}

#[tokio::test]
async fn bad_input_is_refused_per_field() {
    let env = world().await;
    let (status, body) = create(&env, &env.admin, json!({ "customer_type": "Company", "same_invoice_address": false })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    for f in ["first_name", "last_name", "email", "phone", "company_name", "company_registration_number", "sector"] {
        assert_eq!(field(&body, f), ["required"], "{f}: {body}");
    }
    for f in ["profile.address_1", "profile.city", "profile.post_code", "profile.country", "invoice_address.address_1"] {
        assert_eq!(field(&body, f), ["address_required"], "{f}: {body}");
    }
    assert!(
        field(&body, "terms_accepted").is_empty() && field(&body, "password").is_empty(),
        "terms and password are for self-registration"
    );

    let mut bad = company("bad@example.com", "5566771234", "X AB");
    bad["sector"] = json!("999");
    bad["account_manager"] = json!("no-such-user");
    bad["department"] = json!(4242);
    bad["knowledge_sectors"] = json!([4242]);
    bad["hourly_rate"] = json!(-5);
    bad["company_size"] = json!("7");
    let (status, body) = create(&env, &env.admin, bad).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(field(&body, "company_registration_number"), ["invalid_registration_number"]);
    assert_eq!(field(&body, "sector"), ["invalid_sector"]);
    assert_eq!(field(&body, "account_manager"), ["invalid_account_manager"]);
    assert_eq!(field(&body, "department"), ["invalid_department"]);
    assert_eq!(field(&body, "knowledge_sectors"), ["invalid_knowledge_sector"]);
    assert_eq!(field(&body, "hourly_rate"), ["invalid_price"]);
    assert_eq!(field(&body, "company_size"), ["invalid_company_size"]);

    // A lawyer is not an account manager.
    let (lawyer, _) = testkit::signed_in(&env.state, Role::Lawyer).await;
    let mut bad = individual("ok@example.com");
    bad["account_manager"] = json!(lawyer.uid);
    let (_, body) = create(&env, &env.admin, bad).await;
    assert_eq!(field(&body, "account_manager"), ["invalid_account_manager"]);

    // Wrong JSON types are a 400, not a crash.
    let (status, _) = create(&env, &env.admin, json!({ "customer_type": "Robot", "knowledge_sectors": "x" })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn e_mail_and_registration_number_stay_unique_and_swap_on_update() {
    let env = world().await;
    let (_, a) = create(&env, &env.admin, company("a@example.com", "111111-1111", "A AB")).await;
    let (_, b) = create(&env, &env.admin, company("b@example.com", "222222-2222", "B AB")).await;
    let a_uid = a["uid"].as_str().unwrap().to_string();
    let b_uid = b["uid"].as_str().unwrap().to_string();

    let (status, body) = create(&env, &env.admin, company("A@example.com", "333333-3333", "C AB")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(field(&body, "email"), ["email_exists"]);
    let (status, body) = create(&env, &env.admin, company("c@example.com", "111111-1111", "C AB")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(field(&body, "company_registration_number"), ["registration_number_taken"]);

    // Updating B to A's number or e-mail is refused, and nothing changes.
    let upd = |email: &str, regno: &str| company(email, regno, "B AB");
    let path = format!("/api/customer/update/{b_uid}/");
    let (status, body) = call(&env, Method::PUT, &path, &env.admin, Some(upd("b@example.com", "111111-1111"))).await;
    assert_eq!((status, field(&body, "company_registration_number")), (StatusCode::BAD_REQUEST, vec!["registration_number_taken"]));
    let (status, body) = call(&env, Method::PUT, &path, &env.admin, Some(upd("a@example.com", "222222-2222"))).await;
    assert_eq!((status, field(&body, "email")), (StatusCode::BAD_REQUEST, vec!["email_exists"]));

    // Keeping its own number and e-mail is fine.
    let (status, body) = call(&env, Method::PUT, &path, &env.admin, Some(upd("b@example.com", "222222-2222"))).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    // A change swaps the uniqueness items: the old number and e-mail are free again.
    let (status, body) = call(&env, Method::PUT, &path, &env.admin, Some(upd("b2@example.com", "444444-4444"))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let store = &env.state.store;
    assert!(!store.registration_number_taken("222222-2222").await.unwrap());
    assert_eq!(store.registration_number_owner("444444-4444").await.unwrap().as_deref(), Some(b_uid.as_str()));
    assert!(store.find_user_by_email("b@example.com").await.unwrap().is_none());
    assert_eq!(store.find_user_by_email("b2@example.com").await.unwrap().unwrap().uid, b_uid);
    let (status, body) = create(&env, &env.admin, company("b@example.com", "222222-2222", "New AB")).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    // A's number untouched throughout.
    assert_eq!(store.registration_number_owner("111111-1111").await.unwrap().as_deref(), Some(a_uid.as_str()));

    // Company → individual releases the number.
    let (status, _) = call(&env, Method::PUT, &path, &env.admin, Some(individual("b2@example.com"))).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!store.registration_number_taken("444444-4444").await.unwrap());
}

#[tokio::test]
async fn lists_per_role() {
    let env = world().await;
    let (_, active) = create(&env, &env.admin, individual("active@example.com")).await;
    let (_, gone) = create(&env, &env.admin, individual("gone@example.com")).await;
    let gone_uid = gone["uid"].as_str().unwrap();
    let (status, _) = call(&env, Method::POST, &format!("/api/user/deactivate/{gone_uid}/"), &env.admin, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(active["uid"].is_string());

    let (_, lawyer) = testkit::signed_in(&env.state, Role::Lawyer).await;
    let (_, sales) = testkit::signed_in(&env.state, Role::SalesPerson).await;
    let list = |token: String, q: &'static str| {
        let env = &env;
        async move { call(env, Method::GET, &format!("/api/customer/list/?{q}"), &token, None).await }
    };
    let (s, body) = list(lawyer.clone(), "status=active").await;
    assert_eq!((s, emails(&body)), (StatusCode::OK, vec!["active@example.com".to_string()]));
    let (s, body) = list(lawyer.clone(), "status=inactive").await;
    assert_eq!((s, emails(&body)), (StatusCode::OK, vec!["gone@example.com".to_string()]));
    assert_eq!(list(lawyer.clone(), "status=pending").await.0, StatusCode::FORBIDDEN);
    assert_eq!(list(lawyer.clone(), "status=all").await.0, StatusCode::FORBIDDEN);
    let (s, body) = list(sales.clone(), "status=all").await;
    assert_eq!((s, emails(&body)), (StatusCode::OK, vec!["gone@example.com".to_string(), "active@example.com".to_string()]));
    let (s, body) = list(sales.clone(), "status=all&search=ACTIVE").await;
    assert_eq!((s, emails(&body)), (StatusCode::OK, vec!["active@example.com".to_string()]));
    assert_eq!(list(sales.clone(), "status=pending").await.0, StatusCode::FORBIDDEN);
    assert_eq!(list(sales.clone(), "status=nonsense").await.0, StatusCode::BAD_REQUEST);
    // Lawyers and sales persons cannot approve or deactivate.
    for token in [&lawyer, &sales] {
        let (s, _) = call(&env, Method::POST, &format!("/api/user/activate/{gone_uid}/"), token, None).await;
        assert_eq!(s, StatusCode::FORBIDDEN);
    }
    let (_, customer) = testkit::signed_in(&env.state, Role::Customer).await;
    assert_eq!(list(customer, "status=active").await.0, StatusCode::FORBIDDEN);
    // Lawyers read details (the modal).
    let (s, _) = call(&env, Method::GET, &format!("/api/customer/details/{gone_uid}/"), &lawyer, None).await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test]
async fn dropdowns() {
    let env = world().await;
    create(&env, &env.admin, company("co@example.com", "555555-5555", "Dropdown AB")).await;
    create(&env, &env.admin, individual("person@example.com")).await;
    let (status, body) = call(&env, Method::GET, "/api/customer/dropdown/list/?search=example", &env.admin, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body.as_array().unwrap().len(), 2);
    let (_, body) = call(&env, Method::GET, "/api/customer/dropdown/list/?search=dropdown", &env.admin, None).await;
    assert_eq!(body[0]["label"], "Dropdown AB (Sven Söderberg)");
    let (_, body) = call(&env, Method::GET, "/api/company/dropdown/list/", &env.admin, None).await;
    assert_eq!(body.as_array().unwrap().iter().map(|o| o["email"].as_str().unwrap()).collect::<Vec<_>>(), ["co@example.com"]);

    // At most 20 options.
    for i in 0..22 {
        create(&env, &env.admin, individual(&format!("many{i}@example.com"))).await;
    }
    let (_, body) = call(&env, Method::GET, "/api/customer/dropdown/list/?search=many", &env.admin, None).await;
    assert_eq!(body.as_array().unwrap().len(), 20);

    // Account managers: active sales persons only.
    let (sales, _) = testkit::signed_in(&env.state, Role::SalesPerson).await;
    assert!(shared::services::staff::seed_profile(&env.state, &sales, None).await.unwrap());
    let (status, body) = call(&env, Method::GET, "/api/account_manager/dropdown/list/", &env.admin, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body[0]["uid"], sales.uid);
    let (_, lawyer) = testkit::signed_in(&env.state, Role::Lawyer).await;
    let (status, _) = call(&env, Method::GET, "/api/account_manager/dropdown/list/", &lawyer, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

/// The customer lists and dropdowns find a customer by each
/// indexed word (first and last name, company name, e-mail, registration
/// number with or without dash), through the words written in its
/// transaction; a rename moves them; a one-letter search asks for more.
#[tokio::test]
async fn customer_search_finds_a_customer_by_each_indexed_word() {
    let env = world().await;
    let (_, body) = create(&env, &env.admin, company("Sven.Ordlund@Firma-Exempel.se", "556036-0793", "Nordvind Bygg AB")).await;
    let uid = body["uid"].as_str().unwrap_or_else(|| panic!("{body}")).to_string();
    create(&env, &env.admin, individual("annan@example.com")).await;
    let list = |q: String| {
        let env = &env;
        async move {
            let (s, body) = call(env, Method::GET, &format!("/api/customer/list/?status=all&search={q}"), &env.admin, None).await;
            assert_eq!(s, StatusCode::OK, "{q}: {body}");
            body["results"].as_array().unwrap().iter().map(|r| r["uid"].as_str().unwrap().to_string()).collect::<Vec<_>>()
        }
    };
    for q in [
        "Sven",
        "soderberg",
        "Soderb",
        "Nordvind",
        "bygg",
        "sven.ordlund",
        "firma",
        "exempel",
        "556036-0793",
        "5560360793",
        "556036",
        "Sven%20Nordvind",
    ] {
        assert_eq!(list(q.to_string()).await, vec![uid.clone()], "{q}");
        let (_, opts) = call(&env, Method::GET, &format!("/api/customer/dropdown/list/?search={q}"), &env.admin, None).await;
        assert!(opts.as_array().unwrap().iter().any(|o| o["uid"] == uid.as_str()), "dropdown {q}: {opts}");
        let (_, opts) = call(&env, Method::GET, &format!("/api/company/dropdown/list/?search={q}"), &env.admin, None).await;
        assert!(opts.as_array().unwrap().iter().any(|o| o["uid"] == uid.as_str()), "company dropdown {q}: {opts}");
    }
    assert!(list("ordvind".into()).await.is_empty(), "words are found by their beginning");
    assert!(list("Sven%20Ek".into()).await.is_empty(), "every query word must match");
    let (s, body) = call(&env, Method::GET, "/api/customer/list/?status=all&search=s", &env.admin, None).await;
    assert_eq!((s, field(&body, "search")), (StatusCode::BAD_REQUEST, vec!["search_too_broad"]));

    // A new company name replaces the old words.
    let (s, body) = call(
        &env,
        Method::PUT,
        &format!("/api/customer/update/{uid}/"),
        &env.admin,
        Some(company("sven.ordlund@firma-exempel.se", "556036-0793", "Sydvind Bygg AB")),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{body}");
    assert!(list("Nordvind".into()).await.is_empty());
    assert_eq!(list("sydvind".into()).await, vec![uid.clone()]);
}

/// Staff's customer create and the business-sector create take an
/// `Idempotency-Key`: the retry answers the first answer, with one account,
/// one invitation mail and one sector.
#[tokio::test]
async fn a_retried_create_with_its_key_makes_one_customer_and_one_sector() {
    let env = world().await;
    let key = [("Idempotency-Key", "\"c7f4d1f0-5b7a-4d8e-9b1c-0a2e3f4b5c6d\"")];
    let body = individual("once@example.com");
    let (st, _, first) =
        testkit::call_with_headers(&env.router, Method::POST, "/api/customer/create/", Some(&env.admin), Some(body.clone()), &key).await;
    assert_eq!(st, StatusCode::CREATED, "{}", String::from_utf8_lossy(&first));
    let (st, h, again) =
        testkit::call_with_headers(&env.router, Method::POST, "/api/customer/create/", Some(&env.admin), Some(body), &key).await;
    assert_eq!((st, &again), (StatusCode::CREATED, &first));
    assert_eq!(h["idempotent-replayed"], "true");
    let mails = env.state.mail.outbox().unwrap().lock().unwrap().clone();
    assert_eq!(mails.iter().filter(|m| m.to == "once@example.com").count(), 1, "one invitation");
    let (st, _, refused) = testkit::call_with_headers(
        &env.router,
        Method::POST,
        "/api/customer/create/",
        Some(&env.admin),
        Some(individual("other@example.com")),
        &key,
    )
    .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{}", String::from_utf8_lossy(&refused));
    assert!(env.state.store.find_user_by_email("other@example.com").await.unwrap().is_none());

    let (_, before) = call(&env, Method::GET, "/api/business-sector/", &env.admin, None).await;
    let sector = json!({"name": "Fiske"});
    let key = [("Idempotency-Key", "sector-1")];
    let (st, _, first) =
        testkit::call_with_headers(&env.router, Method::POST, "/api/business-sector/create/", Some(&env.admin), Some(sector.clone()), &key)
            .await;
    assert_eq!(st, StatusCode::CREATED);
    let (st, _, again) =
        testkit::call_with_headers(&env.router, Method::POST, "/api/business-sector/create/", Some(&env.admin), Some(sector), &key).await;
    assert_eq!((st, &again), (StatusCode::CREATED, &first));
    let (_, after) = call(&env, Method::GET, "/api/business-sector/", &env.admin, None).await;
    assert_eq!(after.as_array().unwrap().len(), before.as_array().unwrap().len() + 1, "{after}");
}

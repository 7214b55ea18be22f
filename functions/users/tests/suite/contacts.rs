//! Customer contacts and permissions against the local AWS stand-in, each
//! test on its own table.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{call, setup, token, PASSWORD};
use serde_json::{json, Value};
use shared::api::AppState;
use shared::domain::{Permission, Role, User};
use shared::testkit;

/// A contact of `customer` holding `perms`, stored directly.
async fn contact(state: &AppState, email: &str, customer: &User, perms: &[Permission]) -> User {
    testkit::contact(state, email, PASSWORD, customer, perms).await
}

/// Signs in with e-mail and password (no second factor) and answers the
/// user the new access token belongs to.
async fn signs_in(state: &AppState, email: &str, password: &str) -> User {
    use shared::services::credentials::sessions::{self, LoginOutcome};
    match sessions::login(state, email, password.into(), "test").await {
        Ok(LoginOutcome::Tokens(pair)) => sessions::authenticate(state, &pair.access_token).await.expect("the new access token works"),
        Ok(LoginOutcome::TwoFactor(_)) => panic!("{email}: a second factor was asked for"),
        Err(e) => panic!("{email} could not sign in: {e:?}"),
    }
}

fn new_contact(email: &str) -> Value {
    json!({"first_name": "Greta", "last_name": "Garbo", "email": email, "phone": "+46 70 123 45 67", "permissions": ["add_case", "view_bisnode"]})
}

fn outbox_link(state: &AppState, to: &str) -> Option<String> {
    let mails = state.mail.outbox().unwrap().lock().unwrap().clone();
    let mail = mails.iter().rev().find(|m| m.to == to)?;
    let start = mail.body.find("/recovery/account?token=")?;
    let token: String = mail.body[start + "/recovery/account?token=".len()..].chars().take_while(|c| c.is_ascii_hexdigit()).collect();
    Some(token)
}

#[tokio::test]
async fn permission_codes_of_the_signed_in_user() {
    let (state, router) = setup().await;
    let customer = testkit::account(&state, "kund@example.com", PASSWORD, Role::Customer).await;
    let t = token(&state, &customer).await;
    let (status, body) = call(&router, Method::GET, "/api/permission/", &t, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["permissions"],
        json!([
            "view_verify",
            "view_bisnode",
            "view_inkasso",
            "view_kontracto",
            "view_contact",
            "add_case",
            "chat_in_cases",
            "view_all_cases",
            "view_time_bank"
        ])
    );

    let c = contact(&state, "k@example.com", &customer, &[Permission::AddCase, Permission::ViewVerify]).await;
    let (status, body) = call(&router, Method::GET, "/api/permission/", &token(&state, &c).await, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["permissions"], json!(["view_verify", "add_case"]));

    let (status, _) = testkit::call(&router, Method::GET, "/api/permission/", None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_contact_stored_before_the_case_permissions_keeps_all_cases_and_the_time_bank_until_edited() {
    let (state, router) = setup().await;
    let customer = testkit::account(&state, "kund@example.com", PASSWORD, Role::Customer).await;
    let mut old = contact(&state, "gammal@example.com", &customer, &[Permission::AddCase]).await;
    // As a row written before the two permissions existed reads.
    old.permissions_rev = 0;
    state.store.put_user(&old).await.unwrap();
    let before = token(&state, &old).await;
    let (_, body) = call(&router, Method::GET, "/api/permission/", &before, None).await;
    assert_eq!(body["permissions"], json!(["add_case", "view_all_cases", "view_time_bank"]));
    let t = token(&state, &customer).await;
    let (_, shown) = call(&router, Method::GET, &format!("/api/customers/user/{}/", old.uid), &t, None).await;
    assert_eq!(shown["permissions"], json!(["add_case", "view_all_cases", "view_time_bank"]), "{shown}");
    // The customer saves the form without them: from now on the list is what it chose.
    let upd = json!({"first_name": "Greta", "last_name": "Garbo", "permissions": ["add_case"]});
    let (status, saved) = call(&router, Method::PUT, &format!("/api/customers/user/update/{}/", old.uid), &t, Some(upd)).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved["permissions"], json!(["add_case"]));
    // The old sign-in's token names the rights it had: refused until renewed.
    let (status, _) = call(&router, Method::GET, "/api/permission/", &before, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let stored = state.store.get_user_latest(&old.uid).await.unwrap().unwrap();
    let (_, body) = call(&router, Method::GET, "/api/permission/", &token(&state, &stored).await, None).await;
    assert_eq!(body["permissions"], json!(["add_case"]));
}

#[tokio::test]
async fn customer_creates_a_contact_who_sets_a_password_through_the_mailed_link() {
    let (state, router) = setup().await;
    let customer = testkit::account(&state, "kund@example.com", PASSWORD, Role::Customer).await;
    let t = token(&state, &customer).await;

    // the customer field is ignored for a customer: the contact is its own
    let mut body = new_contact("Greta.Garbo@Example.com");
    body["customer"] = json!("00000000-0000-4000-8000-000000000000");
    let (status, created) = call(&router, Method::POST, "/api/customers/user/create/", &t, Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["email"], "greta.garbo@example.com");
    assert_eq!(created["customer_id"], customer.uid.as_str());
    assert_eq!(created["permissions"], json!(["view_bisnode", "add_case"]));
    assert_eq!(created["phone"], "+46 70 123 45 67");
    assert_eq!(created["active"], true);
    let uid = created["uid"].as_str().unwrap().to_string();
    let stored = state.store.get_user(&uid).await.unwrap().unwrap();
    assert_eq!(stored.user_type, Some(4));
    assert_eq!(stored.company_id.as_deref(), Some(customer.uid.as_str()));

    // the contact person is in the conflict-of-interest index, under its company
    let hits = state.store.search_parties("Garbo Greta").await.unwrap();
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(hits[0].party.uid, uid);
    assert_eq!(hits[0].party.customer_uid.as_deref(), Some(customer.uid.as_str()));

    // the set-password link works once
    let link = outbox_link(&state, "greta.garbo@example.com").expect("activation mail with a link");
    shared::services::credentials::passwords::confirm_recovery(&state, &link, "Greta-new-pass-9", "Greta-new-pass-9").await.unwrap();
    let again = shared::services::credentials::passwords::confirm_recovery(&state, &link, "Greta-new-pass-9", "Greta-new-pass-9").await;
    assert_eq!(again.unwrap_err().key(), shared::error::Msg::LinkInvalid, "the link is single use");
    let signed_in = signs_in(&state, "greta.garbo@example.com", "Greta-new-pass-9").await;
    assert_eq!(signed_in.uid, uid, "the contact signs in with the chosen password");

    // the same address in another letter case is taken
    let (status, dup) = call(&router, Method::POST, "/api/customers/user/create/", &t, Some(new_contact("GRETA.garbo@example.com"))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(dup["errors"]["email"][0], "email_exists");

    // the contact is listed and readable
    let (status, list) = call(&router, Method::GET, "/api/user/list/", &t, None).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(list["results"].as_array().unwrap().len(), 1);
    assert_eq!(list["results"][0]["uid"], uid.as_str());
    let (status, one) = call(&router, Method::GET, &format!("/api/customers/user/{uid}/"), &t, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(one["first_name"], "Greta");
}

#[tokio::test]
async fn create_validates_every_field() {
    let (state, router) = setup().await;
    let customer = testkit::account(&state, "kund@example.com", PASSWORD, Role::Customer).await;
    let t = token(&state, &customer).await;
    let (status, body) = call(
        &router,
        Method::POST,
        "/api/customers/user/create/",
        &t,
        Some(json!({"first_name": " ", "email": "not-an-email", "phone": "12", "permissions": ["add_case", "be_god"]})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["message"], "validation_failed");
    assert_eq!(body["errors"]["first_name"][0], "required");
    assert_eq!(body["errors"]["last_name"][0], "required");
    assert_eq!(body["errors"]["email"][0], "invalid_email");
    assert_eq!(body["errors"]["phone"][0], "invalid_phone");
    assert_eq!(body["errors"]["permissions"][0], "invalid_permission");
    let (status, body) = call(&router, Method::POST, "/api/customers/user/create/", &t, Some(json!({"permissions": "add_case"}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], "invalid_request_body");
    let (_, list) = call(&router, Method::GET, "/api/user/list/", &t, None).await;
    assert_eq!(list["results"], json!([]));
}

#[tokio::test]
async fn a_contact_without_view_contact_is_refused_everywhere() {
    let (state, router) = setup().await;
    let customer = testkit::account(&state, "kund@example.com", PASSWORD, Role::Customer).await;
    let other = contact(&state, "other@example.com", &customer, &[]).await;
    let c = contact(&state, "k@example.com", &customer, &[Permission::AddCase, Permission::ViewBisnode]).await;
    let t = token(&state, &c).await;
    let id = &other.uid;
    for (method, path, body) in [
        (Method::GET, "/api/user/list/".to_string(), None),
        (Method::POST, "/api/customers/user/create/".to_string(), Some(new_contact("new@example.com"))),
        (Method::GET, format!("/api/customers/user/{id}/"), None),
        (Method::PUT, format!("/api/customers/user/update/{id}/"), Some(json!({"first_name": "A", "last_name": "B", "permissions": []}))),
        (Method::POST, format!("/api/customers/user/deactivate/{id}/"), None),
        (Method::POST, format!("/api/customers/user/activate/{id}/"), None),
    ] {
        let (status, body) = call(&router, method.clone(), &path, &t, body).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{method} {path}: {body}");
        assert_eq!(body["message"], "forbidden");
    }
    assert!(state.store.find_user_by_email("new@example.com").await.unwrap().is_none());
}

#[tokio::test]
async fn a_contact_with_view_contact_manages_its_companys_contacts_but_not_itself() {
    let (state, router) = setup().await;
    let customer = testkit::account(&state, "kund@example.com", PASSWORD, Role::Customer).await;
    let admin_contact = contact(&state, "boss@example.com", &customer, &Permission::ALL).await;
    let t = token(&state, &admin_contact).await;
    let (status, created) = call(&router, Method::POST, "/api/customers/user/create/", &t, Some(new_contact("new@example.com"))).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["customer_id"], customer.uid.as_str());
    let id = created["uid"].as_str().unwrap();
    let (status, updated) = call(
        &router,
        Method::PUT,
        &format!("/api/customers/user/update/{id}/"),
        &t,
        Some(json!({"first_name": " Greta ", "last_name": "Lovisa", "phone": "", "permissions": ["view_contact"]})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{updated}");
    assert_eq!(updated["first_name"], "Greta");
    assert_eq!(updated["last_name"], "Lovisa");
    assert_eq!(updated["phone"], Value::Null);
    assert_eq!(updated["permissions"], json!(["view_contact"]));
    assert_eq!(updated["email"], "new@example.com");
    // The index follows the name in the same write: the new name is found
    // as soon as the call returns, the old one no longer.
    let hits = state.store.search_parties("Greta Lovisa").await.unwrap();
    assert!(hits.iter().any(|h| h.party.uid == id && h.party.name == "Greta Lovisa"), "{hits:?}");
    let hits = state.store.search_parties("Greta Garbo").await.unwrap();
    assert!(hits.iter().all(|h| h.party.uid != id), "{hits:?}");

    // not itself: it could otherwise grant itself anything, or lock itself out
    let me = &admin_contact.uid;
    let (status, _) =
        call(&router, Method::PUT, &format!("/api/customers/user/update/{me}/"), &t, Some(json!({"first_name": "A", "last_name": "B"})))
            .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = call(&router, Method::POST, &format!("/api/customers/user/deactivate/{me}/"), &t, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = call(&router, Method::POST, &format!("/api/customers/user/send-password-link/{me}/"), &t, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // a new set-password link for another contact of the company
    let (status, sent) = call(&router, Method::POST, &format!("/api/customers/user/send-password-link/{id}/"), &t, None).await;
    assert_eq!(status, StatusCode::OK, "{sent}");
    assert_eq!(sent["message"], "password_link_sent");

    let (status, list) = call(&router, Method::GET, "/api/user/list/", &t, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["results"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_customer_cannot_touch_another_customers_contacts() {
    let (state, router) = setup().await;
    let a = testkit::account(&state, "a@example.com", PASSWORD, Role::Customer).await;
    let b = testkit::account(&state, "b@example.com", PASSWORD, Role::Customer).await;
    let theirs = contact(&state, "theirs@example.com", &b, &[]).await;
    let t = token(&state, &a).await;
    let id = &theirs.uid;
    for (method, path, body) in [
        (Method::GET, format!("/api/customers/user/{id}/"), None),
        (
            Method::PUT,
            format!("/api/customers/user/update/{id}/"),
            Some(json!({"first_name": "A", "last_name": "B", "permissions": ["view_contact"]})),
        ),
        (Method::POST, format!("/api/customers/user/deactivate/{id}/"), None),
        (Method::POST, format!("/api/customers/user/activate/{id}/"), None),
        (Method::POST, format!("/api/customers/user/send-password-link/{id}/"), None),
        // a non-contact (the other customer itself) and an unknown id answer the same
        (Method::GET, format!("/api/customers/user/{}/", b.uid), None),
        (Method::GET, "/api/customers/user/no-such-id/".to_string(), None),
    ] {
        let (status, body) = call(&router, method.clone(), &path, &t, body).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method} {path}: {body}");
    }
    let after = state.store.get_user(id).await.unwrap().unwrap();
    assert_eq!(after, theirs, "nothing changed");
    // and its list shows only its own (none), whatever it asks for
    let (_, list) = call(&router, Method::GET, &format!("/api/user/list/?customer={}", b.uid), &t, None).await;
    assert_eq!(list["results"], json!([]));
}

#[tokio::test]
async fn deactivation_ends_the_contacts_sessions_and_activation_lets_it_back() {
    let (state, router) = setup().await;
    let customer = testkit::account(&state, "kund@example.com", PASSWORD, Role::Customer).await;
    let c = contact(&state, "k@example.com", &customer, &[Permission::AddCase]).await;
    let ct = token(&state, &c).await;
    let t = token(&state, &customer).await;
    let (status, _) = call(&router, Method::GET, "/api/permission/", &ct, None).await;
    assert_eq!(status, StatusCode::OK);

    let (status, body) = call(&router, Method::POST, &format!("/api/customers/user/deactivate/{}/", c.uid), &t, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["active"], false);
    let (status, _) = call(&router, Method::GET, "/api/permission/", &ct, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "the live token stops working");
    let refused = shared::services::credentials::sessions::login(&state, "k@example.com", PASSWORD.into(), "test").await;
    assert_eq!(refused.err().map(|e| e.key()), Some(shared::error::Msg::AccountInactive), "a deactivated contact cannot sign in");
    let (_, list) = call(&router, Method::GET, "/api/user/list/", &t, None).await;
    assert_eq!(list["results"][0]["active"], false);

    let (status, body) = call(&router, Method::POST, &format!("/api/customers/user/activate/{}/", c.uid), &t, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["active"], true);
    assert_eq!(signs_in(&state, "k@example.com", PASSWORD).await.uid, c.uid);
    let (status, _) = call(&router, Method::GET, "/api/permission/", &ct, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "old sessions stay ended");
}

#[tokio::test]
async fn staff_name_the_customer_and_lawyers_are_refused() {
    let (state, router) = setup().await;
    let customer = testkit::account(&state, "kund@example.com", PASSWORD, Role::Customer).await;
    let admin = testkit::account(&state, "admin@example.com", PASSWORD, Role::Admin).await;
    let sales = testkit::account(&state, "sales@example.com", PASSWORD, Role::SalesPerson).await;
    let lawyer = testkit::account(&state, "lawyer@example.com", PASSWORD, Role::Lawyer).await;
    let at = token(&state, &admin).await;

    let (status, body) = call(&router, Method::GET, "/api/user/list/", &at, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["errors"]["customer"][0], "required");
    let (status, body) = call(&router, Method::POST, "/api/customers/user/create/", &at, Some(new_contact("x@example.com"))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["errors"]["customer"][0], "required");
    // the named uid must be a customer
    let mut req = new_contact("x@example.com");
    req["customer"] = json!(lawyer.uid);
    let (status, body) = call(&router, Method::POST, "/api/customers/user/create/", &at, Some(req)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["errors"]["customer"][0], "customer_not_found");

    let mut req = new_contact("x@example.com");
    req["customer"] = json!(customer.uid);
    let (status, created) = call(&router, Method::POST, "/api/customers/user/create/", &at, Some(req)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["customer_id"], customer.uid.as_str());

    let st = token(&state, &sales).await;
    let (status, list) = call(&router, Method::GET, &format!("/api/user/list/?customer={}", customer.uid), &st, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["results"].as_array().unwrap().len(), 1);
    let id = created["uid"].as_str().unwrap();
    let (status, _) =
        call(&router, Method::PUT, &format!("/api/customers/user/update/{id}/"), &st, Some(json!({"first_name": "S", "last_name": "P"})))
            .await;
    assert_eq!(status, StatusCode::OK);

    let lt = token(&state, &lawyer).await;
    let (status, _) = call(&router, Method::GET, &format!("/api/user/list/?customer={}", customer.uid), &lt, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = call(&router, Method::GET, &format!("/api/customers/user/{id}/"), &lt, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_list_pages_ten_newest_first_with_a_cursor() {
    let (state, router) = setup().await;
    let customer = testkit::account(&state, "kund@example.com", PASSWORD, Role::Customer).await;
    let other = testkit::account(&state, "other@example.com", PASSWORD, Role::Customer).await;
    contact(&state, "stranger@example.com", &other, &[]).await;
    let mut made = Vec::new();
    for i in 0..12 {
        made.push(contact(&state, &format!("c{i}@example.com"), &customer, &[]).await.uid);
    }
    let t = token(&state, &customer).await;
    let (status, first) = call(&router, Method::GET, "/api/user/list/", &t, None).await;
    assert_eq!(status, StatusCode::OK);
    let uids = |v: &Value| v["results"].as_array().unwrap().iter().map(|c| c["uid"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    let newest_first: Vec<String> = made.iter().rev().cloned().collect();
    assert_eq!(uids(&first), newest_first[..10].to_vec());
    let next = first["next"].as_str().expect("a next cursor");
    let (status, second) = call(&router, Method::GET, &format!("/api/user/list/?cursor={next}"), &t, None).await;
    assert_eq!(status, StatusCode::OK, "{second}");
    assert_eq!(uids(&second), newest_first[10..].to_vec());
    assert!(second["next"].is_null());

    let (status, body) = call(&router, Method::GET, "/api/user/list/?cursor=zz-not-hex", &t, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], "invalid_cursor");
}

/// A contact's personnummer is checked (Luhn) and makes the
/// contact a certain hit of the conflict search, with or without dash and
/// century; editing the number moves the hit.
#[tokio::test]
async fn a_contacts_personnummer_is_checked_and_found_with_or_without_dash_and_century() {
    let (state, router) = setup().await;
    let customer = testkit::account(&state, "idkund@example.com", PASSWORD, Role::Customer).await;
    let t = token(&state, &customer).await;
    let mut body = new_contact("ida.id@example.com");
    body["identity_number"] = json!("19811218-9875");
    let (status, err) = call(&router, Method::POST, "/api/customers/user/create/", &t, Some(body.clone())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    assert_eq!(err["errors"]["identity_number"][0], "invalid_identity_number");

    body["identity_number"] = json!("198112189876");
    let (status, created) = call(&router, Method::POST, "/api/customers/user/create/", &t, Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["identity_number"], "811218-9876");
    let uid = created["uid"].as_str().unwrap().to_string();
    for q in ["811218-9876", "8112189876", "19811218-9876", "198112189876"] {
        let hits = state.store.search_parties(q).await.unwrap();
        assert!(hits.iter().any(|h| h.party.uid == uid && h.matched.identity_match), "{q}: {hits:?}");
    }

    // A new number replaces the old one in the index.
    let upd = json!({"first_name": "Greta", "last_name": "Garbo", "permissions": [], "identity_number": "556036-0793"});
    let (status, body) = call(&router, Method::PUT, &format!("/api/customers/user/update/{uid}/"), &t, Some(upd)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(state.store.search_parties("5560360793").await.unwrap().iter().any(|h| h.party.uid == uid));
    assert!(!state.store.search_parties("8112189876").await.unwrap().iter().any(|h| h.party.uid == uid));
}

#[tokio::test]
async fn a_customer_creates_at_most_twenty_contacts_an_hour() {
    let (state, router) = setup().await;
    let customer = testkit::account(&state, "kund@example.com", PASSWORD, Role::Customer).await;
    let t = token(&state, &customer).await;
    let limit = shared::store::rate_limit::INVITATIONS_PER_USER;
    let window = || chrono::Utc::now().timestamp().div_euclid(limit.window_secs);
    let started = window();
    let mut answers = vec![];
    for i in 0..=limit.max {
        answers.push(call(&router, Method::POST, "/api/customers/user/create/", &t, Some(new_contact(&format!("c{i}@example.com")))).await);
    }
    if window() != started {
        return; // the window ended in between: nothing to check
    }
    assert!(answers[..limit.max as usize].iter().all(|(s, _)| *s == StatusCode::CREATED), "{answers:?}");
    let (status, body) = answers.last().unwrap();
    assert_eq!((*status, body["message"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_many_invitations")));
    let refused = format!("c{}@example.com", limit.max);
    assert!(state.store.find_user_by_email(&refused).await.unwrap().is_none(), "nothing stored");
    assert!(outbox_link(&state, &refused).is_none(), "nothing mailed");
    // Another customer is not limited by this one.
    let other = testkit::account(&state, "annan@example.com", PASSWORD, Role::Customer).await;
    let t2 = token(&state, &other).await;
    let (status, _) = call(&router, Method::POST, "/api/customers/user/create/", &t2, Some(new_contact("x@example.com"))).await;
    assert_eq!(status, StatusCode::CREATED);
}

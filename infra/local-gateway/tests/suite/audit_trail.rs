//! The audit trail: each recorded event leaves its item (who, what, whose
//! data), a retried request records its change once, admin reads it per
//! customer, user and period (and as CSV), and a customer reads who at the
//! firm opened its cases and documents.

use crate::world::*;

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use shared::testkit;

async fn all_events(app: &axum::Router, token: Option<&str>, path: &str) -> Vec<Value> {
    let mut out = vec![];
    let mut cursor: Option<String> = None;
    for _ in 0..40 {
        let sep = if path.contains('?') { '&' } else { '?' };
        let uri = match &cursor {
            Some(c) => format!("{path}{sep}cursor={}", c.replace('#', "%23").replace(':', "%3A").replace('+', "%2B")),
            None => path.to_string(),
        };
        let (status, page) = testkit::call(app, Method::GET, &uri, token, None).await;
        assert_eq!(status, StatusCode::OK, "{uri}: {page}");
        out.extend(page["results"].as_array().unwrap().iter().cloned());
        match page["next"].as_str() {
            Some(n) => cursor = Some(n.to_string()),
            None => return out,
        }
    }
    panic!("no end of pages");
}

fn count(events: &[Value], action: &str, actor: &str) -> usize {
    events.iter().filter(|e| e["action"] == action && e["actor_uid"] == actor).count()
}

#[tokio::test]
async fn every_event_is_recorded_once_and_read_by_whom_it_concerns() {
    let world = seed().await;
    let (_, app) = copy(&world).await;
    let ids = &world.ids;
    let t = |who: &str| world.tokens[who].clone();
    let admin = t("admin");
    let admin_uid = {
        let (_, me) = testkit::call(&app, Method::GET, "/api/profile/", admin.as_deref(), None).await;
        me["uid"].as_str().unwrap().to_string()
    };
    let customer_uid = ids.customer.clone();
    let call = |who: &'static str, m: Method, path: String, body: Option<Value>| {
        let app = app.clone();
        let token = t(who);
        async move { testkit::call(&app, m, &path, token.as_deref(), body).await }
    };

    // Reads recorded beside them.
    assert_eq!(call("admin", Method::GET, format!("/api/case/{}/", ids.case), None).await.0, StatusCode::OK);
    assert_eq!(call("admin", Method::GET, format!("/api/message/?case={}", ids.case), None).await.0, StatusCode::OK);
    assert_eq!(call("admin", Method::GET, format!("/api/customer/details/{customer_uid}/"), None).await.0, StatusCode::OK);
    let (st, _) = call("admin", Method::GET, "/api/statistic/account/?format=csv".into(), None).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(call("admin", Method::GET, "/api/search/fuzzy/?search=Demo".into(), None).await.0, StatusCode::OK);
    // Sign-ins: a wrong password, then the right one.
    let email = ids.customer_email.clone();
    for _ in 0..2 {
        let (st, refused) = testkit::login(&app, &email, "wrong-password-1").await;
        assert!(st.is_client_error() && st != StatusCode::TOO_MANY_REQUESTS, "{st} {refused}");
    }
    let (st, signed) = testkit::login(&app, &email, PASSWORD).await;
    assert_eq!(st, StatusCode::OK, "{signed}");

    // Changes recorded in their transaction.
    let (uri, body) = request("patch", "/api/puchasedservices/{id}/", ids);
    let (st, row) = call("admin", Method::PATCH, uri, body).await;
    assert_eq!(st, StatusCode::OK, "{row}");
    let (uri, body) = request("put", "/api/customer/update/{uid}/", ids);
    let (st, changed) = call("admin", Method::PUT, uri, body).await;
    assert_eq!(st, StatusCode::OK, "{changed}");
    // A document uploaded with a retried confirm: one event.
    let (st, up) = call(
        "customer",
        Method::POST,
        "/api/case/file/upload-url/".into(),
        Some(json!({"case_uid": ids.case, "name": "avtal.pdf", "content_type": "application/pdf"})),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{up}");
    let (put, _, _) =
        testkit::http("PUT", up["url"].as_str().unwrap(), Some(up["content_type"].as_str().unwrap_or("application/pdf")), PDF).await;
    assert_eq!(put, 200);
    let confirm = json!({"case_uid": ids.case, "key": up["key"], "name": "avtal.pdf"});
    for _ in 0..2 {
        let (st, _, body) = testkit::call_with_headers(
            &app,
            Method::POST,
            "/api/case/file/confirm/",
            t("customer").as_deref(),
            Some(confirm.clone()),
            &[("Idempotency-Key", "\"audit-retry-1\"")],
        )
        .await;
        assert!(st.is_success(), "{}", String::from_utf8_lossy(&body));
    }

    // Admin per customer: every event above, each once.
    let events = all_events(&app, admin.as_deref(), &format!("/api/audit/?customer={customer_uid}")).await;
    for action in ["case_viewed", "messages_read", "customer_viewed", "subscription_changed", "customer_changed"] {
        assert_eq!(count(&events, action, &admin_uid), 1, "{action}: {events:#?}");
    }
    assert_eq!(count(&events, "sign_in_failed", &customer_uid), 2);
    assert_eq!(count(&events, "signed_in", &customer_uid), 1);
    let uploads: Vec<&Value> = events.iter().filter(|e| e["action"] == "document_uploaded" && e["subject"] == "avtal.pdf").collect();
    assert_eq!(uploads.len(), 1, "a retried confirm records once: {uploads:?}");
    // The page names the customers its events concern (the list shows names, not uids).
    let (_, first) = call("admin", Method::GET, format!("/api/audit/?customer={customer_uid}"), None).await;
    assert!(first["customers"][customer_uid.as_str()].as_str().is_some_and(|n| !n.is_empty()), "{first}");
    let (_, own_page) = call("customer", Method::GET, "/api/audit/mine/".into(), None).await;
    assert!(own_page.get("customers").is_none(), "{own_page}");
    // An empty cursor is the first page (a generated client sends `cursor=`).
    for (who, path) in [("customer", "/api/audit/mine/"), ("admin", &*format!("/api/audit/?customer={customer_uid}"))] {
        let (_, page) = call(who, Method::GET, path.to_string(), None).await;
        let (st, empty) = call(who, Method::GET, format!("{path}{}cursor=", if path.contains('?') { '&' } else { '?' }), None).await;
        assert_eq!((st, &empty["results"]), (StatusCode::OK, &page["results"]), "{path}");
        assert!(page["results"].as_array().is_some_and(|r| !r.is_empty()), "{path}: {page}");
    }
    let changed = events.iter().find(|e| e["action"] == "customer_changed").unwrap();
    assert!(changed["detail"].as_str().unwrap().contains("email"), "{changed}");
    assert!(events.windows(2).all(|w| w[0]["at"].as_str() >= w[1]["at"].as_str()), "newest first");

    // Per user, and per period (today): the admin's export and search are there.
    let by_admin = all_events(&app, admin.as_deref(), &format!("/api/audit/?user={admin_uid}")).await;
    assert!(by_admin.iter().any(|e| e["action"] == "export_made" && e["subject"] == "statistic/account"), "{by_admin:#?}");
    assert!(by_admin.iter().any(|e| e["action"] == "conflict_search"));
    assert!(by_admin.iter().all(|e| e["actor_uid"] == admin_uid.as_str()));
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let period = all_events(&app, admin.as_deref(), &format!("/api/audit/?from={today}&to={today}")).await;
    assert!(period.len() >= events.len(), "{} < {}", period.len(), events.len());
    let none = all_events(&app, admin.as_deref(), "/api/audit/?from=2020-01-01&to=2020-01-31").await;
    assert!(none.is_empty());
    assert_eq!(call("admin", Method::GET, "/api/audit/?from=2020-01-01&to=2026-01-01".into(), None).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(call("admin", Method::GET, "/api/audit/?from=yesterday".into(), None).await.0, StatusCode::BAD_REQUEST);

    // CSV through the export writer, headings in the language asked.
    let (st, csv) =
        testkit::call_text(&app, Method::GET, &format!("/api/audit/csv/?customer={customer_uid}&lang=en"), admin.as_deref(), None).await;
    assert_eq!(st, StatusCode::OK);
    assert!(csv.starts_with("\u{feff}Time (UTC),Action,User"), "{csv}");
    assert!(csv.contains("Case opened") && csv.contains("Failed sign-in"), "{csv}");
    let (_, sv) = testkit::call_text(&app, Method::GET, &format!("/api/audit/csv/?customer={customer_uid}"), admin.as_deref(), None).await;
    assert!(sv.contains("Ärende öppnat"), "{sv}");

    // The customer sees the firm's doings with its data, not its own sign-ins.
    let mine = all_events(&app, t("customer").as_deref(), "/api/audit/mine/").await;
    assert!(mine.iter().any(|e| e["action"] == "case_viewed" && e["actor_uid"] == admin_uid.as_str()), "{mine:#?}");
    assert!(
        mine.iter().all(|e| e["action"] != "signed_in" && e["action"] != "sign_in_failed" && e["action"] != "document_uploaded"),
        "{mine:#?}"
    );
    let other = all_events(&app, t("other_customer").as_deref(), "/api/audit/mine/").await;
    assert!(other.iter().all(|e| e["customer_uid"] != customer_uid.as_str()), "{other:#?}");

    // Who may read what.
    for who in ["customer", "contact", "lawyer", "sales_person"] {
        assert_eq!(call(who, Method::GET, "/api/audit/".into(), None).await.0, StatusCode::FORBIDDEN, "{who}");
        assert_eq!(call(who, Method::GET, "/api/audit/csv/".into(), None).await.0, StatusCode::FORBIDDEN, "{who}");
    }
    for who in ["contact", "lawyer", "sales_person", "admin"] {
        assert_eq!(call(who, Method::GET, "/api/audit/mine/".into(), None).await.0, StatusCode::FORBIDDEN, "{who}");
    }
    assert_eq!(testkit::call(&app, Method::GET, "/api/audit/", None, None).await.0, StatusCode::UNAUTHORIZED);
}

/// `method path` sent twice as a retry sends it: the same body, and for a
/// POST the same `Idempotency-Key`. Both answer success.
async fn twice(app: &axum::Router, token: Option<&str>, method: Method, path: &str, body: &Value, key: &str) {
    let header = format!("\"{key}\"");
    for attempt in 0..2 {
        let headers: Vec<(&str, &str)> = if method == Method::POST { vec![("Idempotency-Key", header.as_str())] } else { vec![] };
        let (st, _, answer) = testkit::call_with_headers(app, method.clone(), path, token, Some(body.clone()), &headers).await;
        assert!(st.is_success(), "{method} {path} (attempt {attempt}): {st} {}", String::from_utf8_lossy(&answer));
    }
}

#[tokio::test]
async fn a_retried_request_records_its_event_once_and_the_conflict_searches_live_in_the_trail() {
    let world = seed().await;
    let (_, app) = copy(&world).await;
    let ids = &world.ids;
    let admin = world.tokens["admin"].clone();
    let customer = world.tokens["customer"].clone();
    let admin_uid = {
        let (_, me) = testkit::call(&app, Method::GET, "/api/profile/", admin.as_deref(), None).await;
        me["uid"].as_str().unwrap().to_string()
    };
    let events_of = |customer_uid: String| {
        let app = app.clone();
        let admin = admin.clone();
        async move { all_events(&app, admin.as_deref(), &format!("/api/audit/?customer={customer_uid}")).await }
    };

    // Changes by staff, each retried: a subscription added (keyed POST), a
    // row changed (PATCH), the record changed (PUT), a customer created (keyed POST).
    let (path, body) = request("post", "/api/customer/purchase-services/", ids);
    twice(&app, admin.as_deref(), Method::POST, &path, body.as_ref().unwrap(), "audit-add-1").await;
    let (path, body) = request("patch", "/api/puchasedservices/{id}/", ids);
    twice(&app, admin.as_deref(), Method::PATCH, &path, body.as_ref().unwrap(), "unused").await;
    let (path, body) = request("put", "/api/customer/update/{uid}/", ids);
    twice(&app, admin.as_deref(), Method::PUT, &path, body.as_ref().unwrap(), "unused").await;
    let (path, body) = request("post", "/api/customer/create/", ids);
    let body = body.unwrap();
    twice(&app, admin.as_deref(), Method::POST, &path, &body, "audit-create-1").await;
    // Permissions: a contact created with some (keyed POST), another's changed (PUT).
    let (path, contact) = request("post", "/api/customers/user/create/", ids);
    twice(&app, customer.as_deref(), Method::POST, &path, contact.as_ref().unwrap(), "audit-contact-1").await;
    let (path, _) = request("put", "/api/customers/user/update/{contact_id}/", ids);
    let changed = json!({"first_name": "Ny", "last_name": "Kontakt", "permissions": ["add_case", "view_contact"]});
    twice(&app, customer.as_deref(), Method::PUT, &path, &changed, "unused").await;

    let events = events_of(ids.customer.clone()).await;
    let by = |action: &str, detail: Option<&str>| {
        events
            .iter()
            .filter(|e| e["action"] == action && detail.is_none_or(|d| e["detail"].as_str().is_some_and(|x| x.contains(d))))
            .count()
    };
    assert_eq!(by("subscription_changed", Some("added")), 1, "{events:#?}");
    assert_eq!(by("subscription_changed", Some("changed")), 1, "{events:#?}");
    assert_eq!(by("customer_changed", None), 1, "{events:#?}");
    assert_eq!(by("permissions_changed", Some("-> add_case")), 1, "created with its permissions: {events:#?}");
    assert_eq!(by("permissions_changed", Some("view_contact")), 1, "{events:#?}");
    assert!(events.iter().filter(|e| e["action"] == "subscription_changed").all(|e| e["actor_uid"] == admin_uid.as_str()));
    let new_customer = {
        let (_, found) = testkit::call(
            &app,
            Method::GET,
            &format!("/api/customer/dropdown/list/?search={}", body["email"].as_str().unwrap()),
            admin.as_deref(),
            None,
        )
        .await;
        found[0]["uid"].as_str().unwrap().to_string()
    };
    let created = events_of(new_customer).await;
    assert_eq!(created.iter().filter(|e| e["action"] == "customer_changed" && e["detail"] == "created").count(), 1, "{created:#?}");

    // A conflict search: one item of the trail, with what was searched and
    // seen; the conflict audit and its CSV read it from there.
    let (st, found) = testkit::call(&app, Method::GET, "/api/search/fuzzy/?search=Demo", admin.as_deref(), None).await;
    assert_eq!(st, StatusCode::OK, "{found}");
    let searches: Vec<Value> = all_events(&app, admin.as_deref(), &format!("/api/audit/?user={admin_uid}&action=conflict_search")).await;
    assert_eq!(searches.len(), 1, "{searches:#?}");
    assert_eq!(searches[0]["subject"], "Demo");
    assert_eq!(searches[0]["hits"], found["count"]);
    assert!(searches[0]["names"].as_array().is_some_and(|n| !n.is_empty() && n.len() <= 10), "{searches:#?}");
    let (_, kinds) = testkit::call(&app, Method::GET, "/api/audit/?action=conflict_search", admin.as_deref(), None).await;
    assert!(kinds["results"].as_array().unwrap().iter().all(|e| e["action"] == "conflict_search"), "{kinds}");
    let (st, _) = testkit::call(&app, Method::GET, "/api/audit/?action=nonsense", admin.as_deref(), None).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    let (st, list) = testkit::call(&app, Method::GET, "/api/search/fuzzy/audit/", admin.as_deref(), None).await;
    assert_eq!(st, StatusCode::OK, "{list}");
    let ours: Vec<&Value> = list["results"].as_array().unwrap().iter().filter(|r| r["user_uid"] == admin_uid.as_str()).collect();
    assert_eq!(ours.len(), 1, "{list}");
    assert_eq!((ours[0]["query"].as_str(), ours[0]["hits"].as_u64()), (Some("Demo"), found["count"].as_u64()));
    assert!(ours[0]["user_email"].as_str().is_some_and(|e| e.contains('@')), "{list}");
    let (st, csv) = testkit::call_text(&app, Method::GET, "/api/search/fuzzy/audit/csv/", admin.as_deref(), None).await;
    assert_eq!(st, StatusCode::OK);
    assert!(csv.lines().any(|l| l.contains(",Demo,") && l.contains(&admin_uid)), "{csv}");
}

//! Catalogue routes against the local stand-in: admin-only changes, lists,
//! departments and the customer connection.

use axum::http::{Method, StatusCode};
use serde_json::json;
use shared::api::finish;
use shared::domain::Role;
use shared::testkit;

#[tokio::test]
async fn named_lists_departments_and_fixed_lists() {
    let state = testkit::services().await;
    let r = finish(catalogue::api(), state.clone());
    let (_, admin) = testkit::signed_in(&state, Role::Admin).await;
    let (_, sales) = testkit::signed_in(&state, Role::SalesPerson).await;
    let (cust, ct) = testkit::signed_in(&state, Role::Customer).await;
    let call = |m: Method, p: &str, t: &str, b: Option<serde_json::Value>| {
        let (r, p, t) = (r.clone(), p.to_string(), t.to_string());
        async move { testkit::call(&r, m, &p, Some(&t), b).await }
    };

    for (base, list) in [("/api/knowledge/sector/", "/api/knowledge/sector/list/"), ("/api/typeofcase/", "/api/typeofcase/list/")] {
        let (st, _) = call(Method::POST, base, &sales, Some(json!({"name": "Tax"}))).await;
        assert_eq!(st, StatusCode::FORBIDDEN);
        let (st, e) = call(Method::POST, base, &admin, Some(json!({"name": "  "}))).await;
        assert_eq!(st, StatusCode::BAD_REQUEST);
        assert_eq!(e["errors"]["name"], json!(["required"]));
        let (st, a) = call(Method::POST, base, &admin, Some(json!({"name": "Tax"}))).await;
        assert_eq!(st, StatusCode::CREATED, "{a}");
        let (_, b) = call(Method::POST, base, &admin, Some(json!({"name": "Family"}))).await;
        // Named in both languages (issue 14); a rename without an English
        // name drops the old one (English readers then see the Swedish name).
        let (st, renamed) =
            call(Method::PUT, &format!("{base}{}/", a["id"]), &admin, Some(json!({"name": "Skatterätt", "name_en": " Tax law "}))).await;
        assert_eq!((st, renamed["name"].as_str(), renamed["name_en"].as_str()), (StatusCode::OK, Some("Skatterätt"), Some("Tax law")));
        let (_, listed) = call(Method::GET, list, &ct, None).await;
        assert_eq!(listed[0]["name_en"], "Tax law");
        let (st, renamed) =
            call(Method::PUT, &format!("{base}{}/", a["id"]), &admin, Some(json!({"name": "Tax law", "name_en": ""}))).await;
        assert_eq!((st, renamed["name"].as_str()), (StatusCode::OK, Some("Tax law")));
        let (st, e) =
            call(Method::PUT, &format!("{base}{}/", a["id"]), &admin, Some(json!({"name": "T", "name_en": "e".repeat(201)}))).await;
        assert_eq!((st, &e["errors"]["name_en"]), (StatusCode::BAD_REQUEST, &json!(["too_long"])));
        let (st, _) = call(Method::DELETE, &format!("{base}{}/", b["id"]), &admin, None).await;
        assert_eq!(st, StatusCode::OK);
        let (st, _) = call(Method::DELETE, &format!("{base}{}/", b["id"]), &admin, None).await;
        assert_eq!(st, StatusCode::NOT_FOUND);
        let (st, _) = call(Method::PUT, &format!("{base}x/"), &admin, Some(json!({"name": "A"}))).await;
        assert_eq!(st, StatusCode::NOT_FOUND);
        // Everyone signed in reads the list (customers pick case types).
        let (st, l) = call(Method::GET, list, &ct, None).await;
        assert_eq!(st, StatusCode::OK);
        assert_eq!(l, json!([{"id": a["id"], "name": "Tax law", "name_en": null, "description": ""}]));
    }

    let (st, d) = call(Method::POST, "/api/customer/department/", &admin, Some(json!({"name": "Stockholm"}))).await;
    assert_eq!(st, StatusCode::CREATED);
    let (st, _) = call(Method::GET, "/api/customer/department/", &ct, None).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, l) = call(Method::GET, "/api/customer/department/", &sales, None).await;
    assert_eq!((st, l.as_array().map(|a| a.len())), (StatusCode::OK, Some(1)));
    let (st, one) = call(Method::GET, &format!("/api/customer/department/{}/", d["id"]), &admin, None).await;
    assert_eq!((st, one["name"].as_str()), (StatusCode::OK, Some("Stockholm")));
    let (st, _) = call(Method::PUT, &format!("/api/customer/department/{}/", d["id"]), &admin, Some(json!({"name": "Göteborg"}))).await;
    assert_eq!(st, StatusCode::OK);
    let connect = json!({"customer_uid": cust.uid, "department_id": d["id"]});
    let (st, _) = call(Method::POST, "/api/customer/customer-department/", &sales, Some(connect.clone())).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, _) =
        call(Method::POST, "/api/customer/customer-department/", &admin, Some(json!({"customer_uid": "nobody", "department_id": d["id"]})))
            .await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (st, v) = call(Method::POST, "/api/customer/customer-department/", &admin, Some(connect)).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(state.store.customer_department(&cust.uid).await.unwrap(), d["id"].as_u64());
    assert_eq!(state.store.department_customers(d["id"].as_u64().unwrap()).await.unwrap(), vec![cust.uid.clone()]);

    let (_, services) = call(Method::GET, "/api/services/", &ct, None).await;
    assert_eq!(services[0], json!({"id": 1, "name": "Consultancy hours", "hour_based": true}));
    assert_eq!(services[1]["name"], "Verified");
    assert_eq!(services.as_array().unwrap().len(), 6);
    let (st, sizes) = testkit::call(&r, Method::GET, "/api/company-size/list/", None, None).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(
        sizes.as_array().unwrap().iter().map(|s| s["value"].as_str().unwrap()).collect::<Vec<_>>(),
        ["1", "10", "20", "50", "100", "100+"]
    );
}

/// Every creating call of the catalogue takes an `Idempotency-Key`: the same
/// key and body again answers the first answer and adds nothing; the same
/// key with another body answers 422 and adds nothing.
#[tokio::test]
async fn creating_calls_with_an_idempotency_key_add_once() {
    let state = testkit::services().await;
    let r = finish(catalogue::api(), state.clone());
    let (_, admin) = testkit::signed_in(&state, Role::Admin).await;
    let cases = [
        ("/api/packages/", "/api/packages/", json!({"name": "Bas 10", "hours": 10, "price": 9900, "duration_days": 365})),
        (
            "/api/serviceplans/",
            "/api/serviceplans/",
            json!({"name": "Signering 20", "service_id": 2, "limit": 20, "price": 1900, "expiry_days": 365}),
        ),
        ("/api/knowledge/sector/", "/api/knowledge/sector/list/", json!({"name": "Skatterätt"})),
        ("/api/typeofcase/", "/api/typeofcase/list/", json!({"name": "Tvist"})),
        ("/api/customer/department/", "/api/customer/department/", json!({"name": "Malmö"})),
    ];
    for (path, list, body) in cases {
        let key = format!("\"{}\"", uuid_like(path));
        let (st, h1, first) =
            testkit::call_with_headers(&r, Method::POST, path, Some(&admin), Some(body.clone()), &[("Idempotency-Key", &key)]).await;
        assert_eq!(st, StatusCode::CREATED, "{path}: {}", String::from_utf8_lossy(&first));
        assert!(h1.get("idempotent-replayed").is_none());
        let (st, h2, again) =
            testkit::call_with_headers(&r, Method::POST, path, Some(&admin), Some(body.clone()), &[("Idempotency-Key", &key)]).await;
        assert_eq!((st, &again), (StatusCode::CREATED, &first), "{path}");
        assert_eq!(h2["idempotent-replayed"], "true", "{path}");
        let mut other = body.clone();
        other["name"] = json!("Annat namn");
        let (st, _, refused) =
            testkit::call_with_headers(&r, Method::POST, path, Some(&admin), Some(other), &[("Idempotency-Key", &key)]).await;
        let refused: serde_json::Value = serde_json::from_slice(&refused).unwrap();
        assert_eq!((st, refused["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("idempotency_key_reused")), "{path}");
        let (st, listed) = testkit::call(&r, Method::GET, list, Some(&admin), None).await;
        assert_eq!(st, StatusCode::OK, "{list}");
        assert_eq!(listed.as_array().map(Vec::len), Some(1), "{path}: {listed}");
    }
}

fn uuid_like(path: &str) -> String {
    format!("key-{}", path.replace('/', "-"))
}

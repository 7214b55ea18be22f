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
        // Named in both languages; a rename without an English
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
    // A department in use is kept (its customers would name nothing), with
    // a translated refusal; an unused one goes, once; only admin deletes.
    let (st, e) = call(Method::DELETE, &format!("/api/customer/department/{}/", d["id"]), &admin, None).await;
    assert_eq!((st, e["message"].as_str()), (StatusCode::BAD_REQUEST, Some("department_in_use")));
    let (_, unused) = call(Method::POST, "/api/customer/department/", &admin, Some(json!({"name": "Malmö"}))).await;
    let unused_path = format!("/api/customer/department/{}/", unused["id"]);
    let (st, _) = call(Method::DELETE, &unused_path, &sales, None).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, _) = call(Method::DELETE, &unused_path, &admin, None).await;
    assert_eq!(st, StatusCode::OK);
    let (st, _) = call(Method::DELETE, &unused_path, &admin, None).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (_, l) = call(Method::GET, "/api/customer/department/", &admin, None).await;
    assert_eq!(l.as_array().map(|a| a.len()), Some(1));

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

/// Packages and service plans can be corrected: edited (bought rows keep
/// their terms), unpublished, retired (nobody buys them, rows keep them) and
/// deleted only while never bought.
#[tokio::test]
async fn packages_and_plans_are_edited_retired_and_deleted_only_unbought() {
    use shared::services::subscriptions as subs;
    use shared::store::idempotency::Once;
    let state = testkit::services().await;
    let r = finish(catalogue::api(), state.clone());
    let (_, admin) = testkit::signed_in(&state, Role::Admin).await;
    let (sales_user, sales) = testkit::signed_in(&state, Role::SalesPerson).await;
    let (cust, ct) = testkit::signed_in(&state, Role::Customer).await;
    let call = |m: Method, p: &str, t: &str, b: Option<serde_json::Value>| {
        let (r, p, t) = (r.clone(), p.to_string(), t.to_string());
        async move { testkit::call(&r, m, &p, Some(&t), b).await }
    };
    let ids = |v: &serde_json::Value| v.as_array().unwrap().iter().map(|p| p["id"].as_u64().unwrap()).collect::<Vec<_>>();

    // A new package is not public unless admin says so.
    let (st, p) =
        call(Method::POST, "/api/packages/", &admin, Some(json!({"name": "Bas", "hours": 10, "price": 1000, "duration_days": 30}))).await;
    assert_eq!((st, &p["public"], &p["retired"], &p["bought"]), (StatusCode::CREATED, &json!(false), &json!(false), &json!(false)));
    let (_, spare) = call(
        Method::POST,
        "/api/packages/",
        &admin,
        Some(json!({"name": "Fel", "hours": 1, "price": 1, "duration_days": 1, "public": true})),
    )
    .await;
    let id = p["id"].as_u64().unwrap();
    let path = format!("/api/packages/{id}/");
    let (_, listed) = call(Method::GET, "/api/packages/", &ct, None).await;
    assert_eq!(ids(&listed), [spare["id"].as_u64().unwrap()]);

    // Edit: new terms (Swedish decimals accepted), published; only admin.
    let edit = json!({"name": "Bas 12 h", "hours": "12,5", "price": "2000,50", "duration_days": 60, "public": true});
    let (st, _) = call(Method::PUT, &path, &sales, Some(edit.clone())).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, e) = call(Method::PUT, &path, &admin, Some(json!({"name": "", "hours": 0, "price": 1, "duration_days": 1}))).await;
    assert_eq!(
        (st, e["errors"]["name"].clone(), e["errors"]["hours"].clone()),
        (StatusCode::BAD_REQUEST, json!(["required"]), json!(["custom_package_value_positive"]))
    );
    let (st, _) = call(Method::PUT, "/api/packages/999999/", &admin, Some(edit.clone())).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (st, edited) = call(Method::PUT, &path, &admin, Some(edit)).await;
    assert_eq!(st, StatusCode::OK, "{edited}");
    assert_eq!((edited["name"].as_str(), edited["hours"].as_f64(), edited["price"].as_f64()), (Some("Bas 12 h"), Some(12.5), Some(2000.5)));
    assert_eq!((edited["public"].as_bool(), edited["created_at"].clone()), (Some(true), p["created_at"].clone()));

    // Bought: the row holds the terms of the day; later edits leave it be.
    let row = subs::buy_package(&state, &cust, id, &Once::none()).await.unwrap().row;
    assert_eq!((row.hour.0, row.price.map(|p| p.0)), (1250, Some(200_050)));
    let (st, _) = call(
        Method::PUT,
        &path,
        &admin,
        Some(json!({"name": "Bas 20 h", "hours": 20, "price": 3000, "duration_days": 90, "public": true})),
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    let kept = state.store.get_purchase(row.id).await.unwrap().unwrap().row;
    assert_eq!(
        (kept.hour.0, kept.price.map(|p| p.0), kept.expire_on, kept.packages.unwrap().name),
        (1250, Some(200_050), row.expire_on, "Bas 12 h".to_string())
    );

    // A bought package is never deleted (translated refusal), only retired.
    let (st, e) = call(Method::DELETE, &path, &admin, None).await;
    assert_eq!((st, e["message"].as_str()), (StatusCode::BAD_REQUEST, Some("offer_bought")));
    let (_, all) = call(Method::GET, "/api/packages/", &admin, None).await;
    assert_eq!(all.as_array().unwrap().iter().find(|x| x["id"] == id).unwrap()["bought"], json!(true));
    let (st, _) = call(Method::POST, &format!("{path}retire/"), &sales, Some(json!({"retired": true}))).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, retired) = call(Method::POST, &format!("{path}retire/"), &admin, Some(json!({"retired": true}))).await;
    assert_eq!((st, &retired["retired"], &retired["bought"]), (StatusCode::OK, &json!(true), &json!(true)));
    // Retired: off the customers' list and the landing page, bought by nobody
    // (customers nor staff), still in admin's list and on the bought row.
    let (_, listed) = call(Method::GET, "/api/packages/list/", &ct, None).await;
    assert!(!ids(&listed).contains(&id));
    let (offer, _) = shared::services::catalogue::public_offer(&state).await.unwrap();
    assert!(!offer.iter().any(|p| p.id == id));
    let (_, all) = call(Method::GET, "/api/packages/", &admin, None).await;
    assert!(ids(&all).contains(&id));
    assert!(matches!(subs::buy_package(&state, &cust, id, &Once::none()).await, Err(shared::error::ApiError::NotFound)));
    let add: shared::domain::subscription::AddToCustomer =
        serde_json::from_value(json!({"customer_uid": cust.uid, "package_id": id})).unwrap();
    assert!(matches!(subs::add_to_customer(&state, &sales_user, &add, &Once::none()).await, Err(shared::error::ApiError::NotFound)));
    assert!(state.store.get_purchase(row.id).await.unwrap().is_some());
    // Reinstated: sold again.
    let (st, _) = call(Method::POST, &format!("{path}retire/"), &admin, Some(json!({"retired": false}))).await;
    assert_eq!(st, StatusCode::OK);
    let (_, listed) = call(Method::GET, "/api/packages/", &ct, None).await;
    assert!(ids(&listed).contains(&id));

    // Never bought: deleted, once.
    let spare_path = format!("/api/packages/{}/", spare["id"]);
    let (st, _) = call(Method::DELETE, &spare_path, &sales, None).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, _) = call(Method::DELETE, &spare_path, &admin, None).await;
    assert_eq!(st, StatusCode::OK);
    let (st, _) = call(Method::DELETE, &spare_path, &admin, None).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (st, _) = call(Method::POST, &format!("{spare_path}retire/"), &admin, Some(json!({"retired": true}))).await;
    assert_eq!(st, StatusCode::NOT_FOUND);

    // Service plans: the same rules.
    let (st, plan) = call(
        Method::POST,
        "/api/serviceplans/",
        &admin,
        Some(json!({"name": "Kredit 5", "service_id": 3, "limit": 5, "price": 100, "expiry_days": 30, "public": true})),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED);
    let (_, unbought) = call(
        Method::POST,
        "/api/serviceplans/",
        &admin,
        Some(json!({"name": "X", "service_id": 2, "limit": 1, "price": 0, "expiry_days": 1})),
    )
    .await;
    let plan_path = format!("/api/serviceplans/{}/", plan["id"]);
    let (st, changed) = call(
        Method::PUT,
        &plan_path,
        &admin,
        Some(json!({"name": "Kredit 10", "service_id": 3, "limit": 10, "price": "150,5", "expiry_days": 60, "public": true})),
    )
    .await;
    assert_eq!((st, changed["limit"].as_u64(), changed["price"].as_f64()), (StatusCode::OK, Some(10), Some(150.5)));
    let (st, e) = call(Method::PUT, &plan_path, &admin, Some(json!({"name": "K", "service_id": 3, "price": 1, "expiry_days": 1}))).await;
    assert_eq!((st, e["errors"]["limit"].clone()), (StatusCode::BAD_REQUEST, json!(["limit_above_zero"])));
    let plan_row = subs::buy_service_plan(&state, &cust, plan["id"].as_u64().unwrap(), &Once::none()).await.unwrap().row;
    assert_eq!(plan_row.limit, Some(10));
    let (st, e) = call(Method::DELETE, &plan_path, &admin, None).await;
    assert_eq!((st, e["message"].as_str()), (StatusCode::BAD_REQUEST, Some("offer_bought")));
    let (st, _) = call(Method::POST, &format!("{plan_path}retire/"), &admin, Some(json!({"retired": true}))).await;
    assert_eq!(st, StatusCode::OK);
    let (_, listed) = call(Method::GET, "/api/serviceplans/", &ct, None).await;
    assert!(!ids(&listed).contains(&plan["id"].as_u64().unwrap()));
    assert!(matches!(
        subs::buy_service_plan(&state, &cust, plan["id"].as_u64().unwrap(), &Once::none()).await,
        Err(shared::error::ApiError::NotFound)
    ));
    let (st, _) = call(Method::DELETE, &format!("/api/serviceplans/{}/", unbought["id"]), &admin, None).await;
    assert_eq!(st, StatusCode::OK);
}

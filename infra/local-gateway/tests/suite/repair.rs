//! An item stored before the bounds (estimated hours of
//! "92233720368547758,07") no longer takes the customer's case list down
//! (it is skipped and logged), and the repair command makes it readable
//! again.

use aws_sdk_dynamodb::types::AttributeValue;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use shared::domain::Role;
use shared::store::keys;
use shared::testkit;

#[tokio::test]
async fn a_bad_item_is_skipped_when_listed_and_mended_by_the_repair() {
    let state = testkit::services().await;
    let router = local_gateway::app(state.clone(), std::env::temp_dir());
    let (cust, ct) = testkit::signed_in(&state, Role::Customer).await;
    let (_, admin) = testkit::signed_in(&state, Role::Admin).await;
    let t = state.store.create_named(shared::store::catalogue::NamedKind::CaseType, "Tenancy", "").await.unwrap().id;
    let form = |subject: &str| json!({"customer": cust.uid, "subject": subject, "description": "D", "type": t, "estimated_hours": 2});
    let mut uids = vec![];
    for subject in ["good", "bad"] {
        let (st, c) = testkit::call(&router, Method::POST, "/api/case/create/", Some(&admin), Some(form(subject))).await;
        assert_eq!(st, StatusCode::CREATED, "{c}");
        uids.push(c["uid"].as_str().unwrap().to_string());
    }
    // As an old version stored it.
    state
        .store
        .client
        .update_item()
        .table_name(&state.store.table)
        .key("PK", AttributeValue::S(keys::case::pk(&uids[1])))
        .key("SK", AttributeValue::S(keys::case::SK.into()))
        .update_expression("SET estimated_hours = :h")
        .expression_attribute_values(":h", AttributeValue::N("92233720368547758.07".into()))
        .send()
        .await
        .unwrap();
    let subjects =
        |v: &Value| v["results"].as_array().unwrap().iter().map(|c| c["subject"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    let (st, list) = testkit::call(&router, Method::GET, "/api/case/list/?status=pending", Some(&ct), None).await;
    assert_eq!(st, StatusCode::OK, "{list}");
    assert_eq!(subjects(&list), ["good"]);

    let dry = local_gateway::repair::run(&state.store, true).await.unwrap();
    assert_eq!(dry.repaired, 1, "{dry:?}");
    let report = local_gateway::repair::run(&state.store, false).await.unwrap();
    assert_eq!(report.repaired, 1, "{report:?}");
    assert!(report.changes[0].ends_with("estimated_hours: 92233720368547758.07 -> 10000"), "{report:?}");
    let (_, list) = testkit::call(&router, Method::GET, "/api/case/list/?status=pending", Some(&ct), None).await;
    let mut seen = subjects(&list);
    seen.sort();
    assert_eq!(seen, ["bad", "good"]);
    assert_eq!(local_gateway::repair::run(&state.store, false).await.unwrap().repaired, 0);
}

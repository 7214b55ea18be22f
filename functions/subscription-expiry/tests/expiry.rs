//! The expiry job against the stand-in: only due rows change, and running it
//! twice, or twice at once, ends in the same state.

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{Duration, Utc};
use shared::store::subscriptions::{due_sort_key, DUE_PARTITION};
use shared::testkit;

async fn put_row(state: &shared::api::AppState, id: &str, expire_on: chrono::DateTime<Utc>) {
    state
        .store
        .client
        .put_item()
        .table_name(&state.store.table)
        .item("PK", AttributeValue::S("CUSTOMER#c1".into()))
        .item("SK", AttributeValue::S(format!("PURCHASE#{id}")))
        .item("GSI2PK", AttributeValue::S(DUE_PARTITION.into()))
        .item("GSI2SK", AttributeValue::S(due_sort_key(expire_on, id)))
        .item("expired", AttributeValue::Bool(false))
        .item("active", AttributeValue::Bool(true))
        .send()
        .await
        .unwrap();
}

async fn expired(state: &shared::api::AppState, id: &str) -> bool {
    let item = state.store.get("CUSTOMER#c1", &format!("PURCHASE#{id}")).await.unwrap().unwrap();
    let flag = *item["expired"].as_bool().unwrap();
    assert_eq!(flag, !item.contains_key("GSI2PK"), "expired rows leave the due index, others stay");
    flag
}

#[tokio::test]
async fn expires_only_due_rows_and_is_idempotent_under_concurrency() {
    let state = testkit::services().await;
    let now = Utc::now();
    put_row(&state, "past", now - Duration::days(1)).await;
    put_row(&state, "now", now).await;
    put_row(&state, "future", now + Duration::days(1)).await;

    let (a, b) = tokio::join!(subscription_expiry::run(&state.store, now), subscription_expiry::run(&state.store, now));
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a.expired + b.expired, 2, "each due row flipped exactly once: {a:?} {b:?}");

    let again = subscription_expiry::run(&state.store, now).await.unwrap();
    assert_eq!((again.due, again.expired), (0, 0));
    assert!(expired(&state, "past").await);
    assert!(expired(&state, "now").await);
    assert!(!expired(&state, "future").await);
}

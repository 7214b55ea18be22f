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

/// Puts `item` as an earlier version wrote it: straight into the table,
/// without what the write paths of today add beside it.
async fn put_raw(state: &shared::api::AppState, item: shared::store::Item) {
    state.store.client.put_item().table_name(&state.store.table).set_item(Some(item)).send().await.unwrap();
}

#[tokio::test]
async fn records_stored_before_the_retention_indexes_get_them_and_are_erased_when_due() {
    use chrono::{Duration, Utc};
    use shared::domain::case::{Case, CaseStatus, CaseType};
    use shared::domain::catalogue::Hundredths;
    use shared::domain::notification::{Draft, Params, Verb};
    use shared::domain::retention::{kept_until, RecordKind};
    use shared::domain::subscription::{new_row, Grant};
    use shared::store::{s, Item};

    let state = testkit::services().await;
    let now = Utc::now();
    // Two closed matters: one past its ten years, one closed last year.
    for (uid, closed_at) in [("old", now - Duration::days(11 * 365)), ("recent", now - Duration::days(365))] {
        let mut c = Case::draft(
            uid.into(),
            format!("2015-{uid}"),
            "cust-1".into(),
            "Kund AB".into(),
            CaseType { id: 1, name: "Avtal".into(), name_en: None },
            "staff-1".into(),
            closed_at - Duration::days(90),
        );
        c.status = CaseStatus::Complete;
        c.status_at = Some(closed_at);
        c.updated_at = closed_at;
        let mut tx = state.store.tx();
        state.store.add_case_write(&mut tx, None, &c).unwrap();
        assert!(state.store.commit(tx).await.unwrap());
    }
    // Their notifications, written before the per-case index key existed.
    let about = |case: &str| Draft {
        verb: Verb::CaseClosed,
        params: Params { case_number: Some(format!("2015-{case}")), ..Params::default() },
        case_uid: Some(case.into()),
    };
    for (i, (reader, case)) in [("law-1", "old"), ("cust-1", "old"), ("law-1", "recent")].into_iter().enumerate() {
        let mut item =
            shared::store::collaboration::notification_item(reader, now - Duration::days(4000), &format!("e{i}"), &about(case)).unwrap();
        item.remove("GSI1PK");
        item.remove("GSI1SK");
        put_raw(&state, item).await;
    }
    // Two subscription rows that expired before the billing due items
    // existed (nine years ago: past its accounting period; last year: not),
    // each with a use in its ledger.
    for (id, ended) in [(901u64, now - Duration::days(9 * 365)), (902, now - Duration::days(365))] {
        let start = (ended - Duration::days(30)).naive_utc();
        let mut row = new_row(id, "cust-1", &Grant::custom("Rådgivning", Hundredths(1000), 30), false, start, start);
        row.expire_on = ended.naive_utc();
        row.updated_at = ended.naive_utc();
        row.expired = true;
        put_raw(&state, shared::store::subscriptions::row_item(&row, 1).unwrap()).await;
        put_raw(
            &state,
            Item::from([
                ("PK".to_string(), s(keys::purchase::usage_pk(id))),
                ("SK".to_string(), s(keys::purchase::usage_sk(ended.date_naive(), "u1"))),
                ("case_uid".to_string(), s("old")),
            ]),
        )
        .await;
    }
    let billing_due = |state: &shared::api::AppState| {
        let state = state.clone();
        async move {
            let mut sks: Vec<String> =
                state.store.retention_due_all().await.unwrap().into_iter().map(|d| d.sk).filter(|sk| sk.contains("#billing#")).collect();
            sks.sort();
            sks
        }
    };
    assert!(state.store.case_notification_keys("old").await.unwrap().is_empty(), "not found by the case before the repair");
    assert!(billing_due(&state).await.is_empty());

    // A dry run lists what it would do and does nothing.
    let dry = local_gateway::repair::run(&state.store, true).await.unwrap();
    assert_eq!(dry.repaired, 5, "{dry:#?}");
    assert!(state.store.case_notification_keys("old").await.unwrap().is_empty());
    assert!(billing_due(&state).await.is_empty());

    let report = local_gateway::repair::run(&state.store, false).await.unwrap();
    assert_eq!(report.repaired, 5, "{report:#?}");
    assert_eq!(report.changes.iter().filter(|c| c.ends_with("GSI1PK: (none) -> CASENOTIF#old")).count(), 2, "{report:#?}");
    assert!(
        report.changes.iter().any(|c| c.starts_with("CUSTOMER#cust-1 PURCHASE#000000000901 retention due: (none) -> RETAIN ")),
        "{report:#?}"
    );
    assert_eq!(state.store.case_notification_keys("old").await.unwrap().len(), 2);
    assert_eq!(state.store.case_notification_keys("recent").await.unwrap().len(), 1);
    let ended = |days: i64| kept_until(RecordKind::Billing, now - Duration::days(days));
    assert_eq!(
        billing_due(&state).await,
        vec![
            keys::retention::due_sk(ended(9 * 365), "billing", "cust-1#000000000901"),
            keys::retention::due_sk(ended(365), "billing", "cust-1#000000000902"),
        ]
    );
    // Twice is once.
    let again = local_gateway::repair::run(&state.store, false).await.unwrap();
    assert_eq!((again.repaired, again.changes.len()), (0, 0), "{again:#?}");

    // The retention job now erases them with what they belong to.
    let run = data_rights::run_retention(&state, now).await.unwrap();
    assert_eq!((run.due, run.erased, run.failed), (2, 2, 0), "the old case and the old row: {run:?}");
    for reader in ["law-1", "cust-1"] {
        let left = state.store.partition_items(&keys::notification::pk(reader), keys::notification::PREFIX).await.unwrap();
        let cases: Vec<String> = left.iter().filter_map(|i| i.get("uid").and_then(|v| v.as_s().ok()).cloned()).collect();
        assert!(!cases.contains(&"old".to_string()), "{reader}: {cases:?}");
    }
    assert_eq!(state.store.case_notification_keys("recent").await.unwrap().len(), 1, "the kept case's stays");
    assert!(state.store.purchase_of("cust-1", 901).await.unwrap().is_none(), "the old row is erased");
    assert!(state.store.partition_items(&keys::purchase::usage_pk(901), "").await.unwrap().is_empty(), "with its ledger");
    assert!(state.store.purchase_of("cust-1", 902).await.unwrap().is_some(), "the recent row is kept");
    assert_eq!(state.store.partition_items(&keys::purchase::usage_pk(902), "").await.unwrap().len(), 1);
    // And the repair finds nothing left to do.
    assert_eq!(local_gateway::repair::run(&state.store, false).await.unwrap().repaired, 0);
}

//! The expiry job against the stand-in: only due rows change, renewals are
//! created once as the old row's child, and running it twice, or twice at
//! once, ends in the same state.

use chrono::{Duration, NaiveDate, Utc};
use shared::domain::catalogue::Hundredths;
use shared::domain::subscription::{Grant, PurchasedService};
use shared::services::subscriptions::{self as use_cases, ExpiryReport};
use shared::testkit;

async fn row(
    state: &shared::api::AppState,
    customer: &str,
    start: chrono::NaiveDateTime,
    days: u32,
    auto: Option<NaiveDate>,
) -> PurchasedService {
    // Each row its own service id would collide with the purchase rule; use
    // custom grants on different customers instead.
    let grant = Grant::custom("Gold", Hundredths(1000), days);
    let mut r = use_cases::grant(state, customer, &grant, start).await.unwrap();
    if auto.is_some() {
        let stored = state.store.get_purchase(r.id).await.unwrap().unwrap();
        r.auto_update_date_end = auto;
        state.store.save_purchase(&r, stored.rev).await.unwrap();
    }
    r
}

async fn get(state: &shared::api::AppState, id: u64) -> PurchasedService {
    state.store.get_purchase(id).await.unwrap().unwrap().row
}

async fn due_in_index(state: &shared::api::AppState, r: &PurchasedService) -> bool {
    let item = state.store.get(&shared::store::keys::purchase::item(&r.customer_uid, r.id)).await.unwrap().unwrap();
    item.contains_key("GSI2PK")
}

#[tokio::test]
async fn expires_only_due_rows_and_is_idempotent_under_concurrency() {
    let state = testkit::services().await;
    let now = Utc::now();
    let n = now.naive_utc();
    let past = row(&state, "c1", n - Duration::days(31), 30, None).await; // due a day ago
    let exact = row(&state, "c2", n - Duration::days(30), 30, None).await; // due now
    let future = row(&state, "c3", n - Duration::days(29), 30, None).await; // due tomorrow

    let (a, b) = tokio::join!(subscription_expiry::run(&state, now), subscription_expiry::run(&state, now));
    let (a, b) = (a.unwrap(), b.unwrap());
    // Each conditional flip is won by exactly one run (the stand-in handles
    // requests one at a time, as DynamoDB makes each conditional write atomic).
    assert_eq!(a.expired + b.expired, 2, "{a:?} {b:?}");
    assert_eq!(a.renewed + b.renewed, 0);

    let again = subscription_expiry::run(&state, now).await.unwrap();
    assert_eq!((again.due, again.expired), (0, 0));
    for (r, gone) in [(&past, true), (&exact, true), (&future, false)] {
        let got = get(&state, r.id).await;
        assert_eq!(got.expired, gone, "row {}", r.id);
        assert_eq!(got.active, !gone);
        assert_eq!(due_in_index(&state, r).await, !gone, "expired rows leave the due index, others stay");
    }
}

#[tokio::test]
async fn renews_as_a_child_once_even_when_two_runs_race() {
    let state = testkit::services().await;
    let now = Utc::now();
    let n = now.naive_utc();
    let until = (n + Duration::days(60)).date();
    let renewing = row(&state, "c1", n - Duration::days(31), 30, Some(until)).await;
    // Automatic update date already passed at expiry: just expires.
    let lapsed = row(&state, "c2", n - Duration::days(31), 30, Some((n - Duration::days(5)).date())).await;
    // Consume some hours so the renewal visibly starts from zero.
    let entry = shared::domain::subscription::UsageEntry {
        entry_id: "e1".into(),
        purchase_id: renewing.id,
        date: (n - Duration::days(10)).date(),
        hours: Hundredths(250),
        count: 0,
        case_uid: Some("case-1".into()),
        description: "Advice".into(),
        lawyer: "Lia Law".into(),
    };
    use_cases::record_usage(&state, &entry, n - Duration::days(10)).await.unwrap();

    let (a, b) = tokio::join!(subscription_expiry::run(&state, now), subscription_expiry::run(&state, now));
    let (a, b) = (a.unwrap(), b.unwrap());
    // Exactly one run wins each row: one renewal, two expiries in all.
    assert_eq!(a.renewed + b.renewed, 1, "{a:?} {b:?}");
    assert_eq!(a.expired + b.expired, 2, "{a:?} {b:?}");

    let old = get(&state, renewing.id).await;
    assert!(old.expired && !old.active);
    let child_id = old.child.expect("renewed row is the child");
    assert_eq!(child_id, shared::domain::subscription::renewal_id(renewing.id));
    let child = get(&state, child_id).await;
    assert_eq!(child.start_date, renewing.expire_on);
    assert_eq!(child.expire_on, renewing.expire_on + Duration::days(30));
    assert_eq!(child.consumed_hour, Hundredths::ZERO);
    assert_eq!(child.hour, Hundredths(1000));
    assert_eq!(child.auto_update_date_end, Some(until));
    assert!(child.active && !child.expired && child.child.is_none());
    let rows = state.store.list_purchases("c1").await.unwrap();
    assert_eq!(rows.len(), 2, "exactly one renewal row");

    let lapsed_now = get(&state, lapsed.id).await;
    assert!(lapsed_now.expired && lapsed_now.child.is_none());
    assert_eq!(state.store.list_purchases("c2").await.unwrap().len(), 1);

    // A third run changes nothing: the child is not due until next month.
    let again = subscription_expiry::run(&state, now).await.unwrap();
    assert_eq!(again, ExpiryReport::default());
    assert_eq!(state.store.list_purchases("c1").await.unwrap().len(), 2);
}

#[tokio::test]
async fn an_advance_row_takes_over_when_the_active_one_expires() {
    let state = testkit::services().await;
    let now = Utc::now();
    let n = now.naive_utc();
    let grant = Grant::custom("Gold", Hundredths(1000), 30);
    let current = use_cases::grant(&state, "c1", &grant, n - Duration::days(31)).await.unwrap();
    // Bought while the first is active: an advance row starting at its end.
    let ahead = use_cases::grant(&state, "c1", &grant, n - Duration::days(2)).await.unwrap();
    assert!(ahead.advance && !ahead.active);
    assert_eq!(ahead.start_date, current.expire_on);

    let (a, b) = tokio::join!(subscription_expiry::run(&state, now), subscription_expiry::run(&state, now));
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a.expired + b.expired, 1, "{a:?} {b:?}");
    let old = get(&state, current.id).await;
    assert!(old.expired && !old.active);
    let now_active = get(&state, ahead.id).await;
    assert!(now_active.active && now_active.advance && !now_active.expired);
    assert_eq!(shared::domain::subscription::status(&now_active, n), shared::domain::subscription::Status::Active);
    // Nothing more to do; the promoted row is not due for a month.
    let again = subscription_expiry::run(&state, now).await.unwrap();
    assert_eq!(again, ExpiryReport::default());
}

/// The customer may open a case now (spec §5: an active consultancy row
/// that has started).
async fn can_open_cases(state: &shared::api::AppState, customer: &str) -> bool {
    state.store.current_hour_row(customer, Utc::now().naive_utc()).await.unwrap().is_some()
}

#[tokio::test]
async fn an_advance_row_promoted_before_its_start_starts_at_once_with_its_span() {
    let state = testkit::services().await;
    let n = Utc::now().naive_utc();
    let grant = Grant::custom("Gold", Hundredths(1000), 30);
    let current = use_cases::grant(&state, "c1", &grant, n - Duration::days(1)).await.unwrap();
    let ahead = use_cases::grant(&state, "c1", &grant, n).await.unwrap();
    assert!(ahead.advance && ahead.start_date == current.expire_on && ahead.start_date > n);
    // The current row ended early (its expiry set to the past), then the job.
    let stored = state.store.get_purchase(current.id).await.unwrap().unwrap();
    let mut ended = stored.row.clone();
    ended.expire_on = n - Duration::hours(1);
    state.store.save_purchase(&ended, stored.rev).await.unwrap();
    let now = Utc::now();
    let report = subscription_expiry::run(&state, now).await.unwrap();
    assert_eq!(report.expired, 1, "{report:?}");
    let taken_over = get(&state, ahead.id).await;
    let at = shared::domain::subscription::whole_seconds(now.naive_utc());
    assert_eq!(taken_over.start_date, at, "starts when it takes over");
    assert_eq!(taken_over.expire_on, at + Duration::days(30), "keeps the 30 days bought");
    assert_eq!(shared::domain::subscription::status(&taken_over, Utc::now().naive_utc()), shared::domain::subscription::Status::Active);
    assert!(can_open_cases(&state, "c1").await);
    // Running again changes nothing.
    assert_eq!(subscription_expiry::run(&state, Utc::now()).await.unwrap(), ExpiryReport::default());
}

#[tokio::test]
async fn staff_ending_a_row_early_hand_over_to_the_advance_row_at_once() {
    use shared::domain::Role;
    let state = testkit::services().await;
    let (admin, _) = testkit::signed_in(&state, Role::Admin).await;
    let n = Utc::now().naive_utc();
    let grant = Grant::custom("Gold", Hundredths(1000), 30);
    let current = use_cases::grant(&state, "c1", &grant, n - Duration::days(1)).await.unwrap();
    let ahead = use_cases::grant(&state, "c1", &grant, n).await.unwrap();
    assert!(ahead.advance && ahead.start_date > n);
    let fmt = |t: chrono::NaiveDateTime| t.format("%Y-%m-%d %H:%M:%S").to_string();
    let form: shared::domain::subscription::ChangeService = serde_json::from_value(serde_json::json!({
        "start_date": fmt(current.start_date),
        "expire_on": fmt(n - Duration::minutes(5)),
        "hour": 10,
    }))
    .unwrap();
    let changed = use_cases::change_service(&state, &admin, &current.id.to_string(), &form).await.unwrap();
    assert!(changed.row.expired, "ended now, not at the job's next run");
    let taken_over = get(&state, ahead.id).await;
    assert!(taken_over.active && taken_over.start_date <= Utc::now().naive_utc());
    assert_eq!(taken_over.expire_on - taken_over.start_date, Duration::days(30));
    assert!(can_open_cases(&state, "c1").await, "the customer opens cases at once");
    // The job finds nothing left to do.
    assert_eq!(subscription_expiry::run(&state, Utc::now()).await.unwrap(), ExpiryReport::default());
}

#[tokio::test]
async fn the_job_finishes_index_follow_ups_a_stopped_process_left() {
    use shared::domain::conflict::PartyKind;
    use shared::store::conflict::{IndexChange, Party};
    let state = testkit::services().await;
    let party = Party {
        kind: PartyKind::Counterpart,
        uid: "k1".into(),
        name: "Ronja Rövardotter".into(),
        identity_number: None,
        customer_uid: None,
        context: None,
    };
    let mut tx = state.store.tx();
    state.store.add_index_follow_up(&mut tx, &IndexChange::index(party)).unwrap();
    assert!(state.store.commit(tx).await.unwrap());
    assert_eq!(state.store.pending_index_follow_ups(10).await.unwrap().len(), 1);
    subscription_expiry::run(&state, Utc::now()).await.unwrap();
    assert!(state.store.pending_index_follow_ups(10).await.unwrap().is_empty());
    assert_eq!(state.store.search_parties("Ronja Rövardotter").await.unwrap()[0].party.uid, "k1");
}

//! The retention job against the stand-in: it erases exactly what has
//! reached the end of its retention (a matter closed 11 years ago with its
//! documents, hours, history, messages, list pointers and conflict-index
//! entries; an export ready 8 days ago) and nothing else (a matter closed
//! last year, an export of yesterday); the conflict search then no longer
//! finds the erased matter's counterpart but still finds the kept one's;
//! run twice it does what it does once; stopped half-way, the next run
//! completes the erasure. A case's notifications go from every reader's
//! partition with it; an ended subscription row with its usage ledger is
//! kept to the end of its accounting period, then erased. The dashboards
//! lose what an erased record counts now and keep what it counted in its
//! periods, and a recount agrees.

use chrono::{DateTime, Duration, Utc};
use shared::api::AppState;
use shared::domain::audit::AuditAction;
use shared::domain::case::CaseHour;
use shared::domain::case::{Case, CaseStatus, CaseType};
use shared::domain::catalogue::Hundredths;
use shared::domain::conflict::PartyKind;
use shared::domain::data_rights::{DataExport, ExportState};
use shared::domain::notification::{Draft, Params, Verb};
use shared::domain::retention::{kept_until, RecordKind};
use shared::domain::subscription::{new_row, Grant, PurchasedService};
use shared::services::recount;
use shared::store::audit::AuditFilter;
use shared::store::conflict::Party;
use shared::store::{keys, s, Item};
use shared::testkit;

const PDF: &[u8] = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n";

/// A closed matter with a document, a message attachment, an hour, a
/// history line, a message and a note, its list pointers and its
/// counterpart in the conflict index.
async fn closed_case(state: &AppState, uid: &str, counterpart: &str, closed_at: DateTime<Utc>) -> Case {
    let mut c = Case::draft(
        uid.into(),
        format!("2015-{uid}"),
        "cust-1".into(),
        "Kund AB".into(),
        CaseType { id: 1, name: "Avtal".into(), name_en: Some("Contract".into()) },
        "staff-1".into(),
        closed_at - Duration::days(90),
    );
    c.status = CaseStatus::Complete;
    c.status_at = Some(closed_at);
    c.updated_at = closed_at;
    c.lawyer = Some("law-1".into());
    c.counterpart = counterpart.into();
    c.subject = "Hyrestvist".into();
    let mut tx = state.store.tx();
    state.store.add_case_write(&mut tx, None, &c).unwrap();
    for sk in ["HOUR#1", "HIST#2015-01-01T00:00:00Z#a", "MSG#2015-01-01T00:00:00Z#b", "NOTE#2015-01-01T00:00:00Z#c"] {
        tx.put(Item::from([
            ("PK".to_string(), s(keys::case::pk(uid))),
            ("SK".to_string(), s(sk)),
            ("text".to_string(), s(format!("{counterpart} i ärendet"))),
        ]))
        .unwrap();
    }
    assert!(state.store.commit(tx).await.unwrap());
    testkit::index_party(
        state,
        &Party {
            kind: PartyKind::Counterpart,
            uid: uid.into(),
            name: counterpart.into(),
            identity_number: None,
            customer_uid: Some("cust-1".into()),
            context: Some("Hyrestvist".into()),
        },
    )
    .await;
    for key in [format!("cases/{uid}/doc.pdf"), format!("cases/{uid}/messages/bilaga.pdf")] {
        state.files.put_bytes(&key, "application/pdf", PDF.to_vec()).await.unwrap();
    }
    c
}

/// An export made ready at `ready_at`, its ZIP in the bucket.
async fn ready_export(state: &AppState, customer: &str, id: &str, ready_at: DateTime<Utc>) -> DataExport {
    let mut e = DataExport::new(id.into(), customer, customer, ready_at - Duration::minutes(1));
    let mut tx = state.store.tx();
    state.store.add_export_request(&mut tx, &e, e.created_at).unwrap();
    assert!(state.store.commit(tx).await.unwrap());
    e.state = ExportState::Running;
    assert!(state.store.move_export(&e, ExportState::Queued).await.unwrap());
    e.state = ExportState::Ready;
    e.finished_at = Some(ready_at);
    e.expires_at = Some(ready_at + Duration::days(7));
    let mut tx = state.store.tx();
    state.store.add_export_finished(&mut tx, &e).unwrap();
    assert!(state.store.commit(tx).await.unwrap());
    state.files.put_bytes(&e.object_key(), "application/zip", b"PK\x05\x06".to_vec()).await.unwrap();
    e
}

/// Everything the table and the bucket hold of a case: its partition's
/// sort keys, its list pointers, its objects and its conflict-index record.
async fn traces(state: &AppState, uid: &str) -> (Vec<String>, usize, Vec<String>, bool) {
    let partition = state.store.partition_items(&keys::case::pk(uid), "").await.unwrap();
    let mut sks: Vec<String> = partition.iter().map(|i| i["SK"].as_s().unwrap().clone()).collect();
    sks.sort();
    let mut pointers = 0;
    for pk in [keys::case::ALL_PK.to_string(), keys::case::creator_pk("staff-1"), keys::case::lawyer_pk("law-1")] {
        pointers += state
            .store
            .partition_items(&pk, "")
            .await
            .unwrap()
            .iter()
            .filter(|i| i.get("case_uid").and_then(|v| v.as_s().ok()).map(String::as_str) == Some(uid))
            .count();
    }
    let mut objects = state.files.keys_under(&format!("cases/{uid}/")).await.unwrap();
    objects.sort();
    let indexed = state.store.indexed(PartyKind::Counterpart, uid).await.unwrap().ver.is_some();
    (sks, pointers, objects, indexed)
}

async fn audit(state: &AppState, action: AuditAction) -> Vec<shared::domain::audit::AuditEvent> {
    let filter = AuditFilter { action: Some(action), ..AuditFilter::default() };
    state.store.audit_page(&filter, None, 100).await.unwrap().results
}

async fn found(state: &AppState, name: &str) -> Vec<String> {
    state.store.search_parties(name).await.unwrap().into_iter().map(|h| h.party.uid).collect()
}

#[tokio::test]
async fn erases_exactly_what_is_due_and_running_twice_is_running_once() {
    let state = testkit::services().await;
    let now = Utc::now();
    let old = closed_case(&state, "old", "Zacharias Östlundh", now - Duration::days(11 * 365)).await;
    closed_case(&state, "recent", "Beatrice Fagerholm", now - Duration::days(365)).await;
    let stale = ready_export(&state, "cust-1", "20261101000000-aaaaaaaaaaaa", now - Duration::days(8)).await;
    let fresh = ready_export(&state, "cust-1", "20261128000000-bbbbbbbbbbbb", now - Duration::days(1)).await;

    // Closing a case and readying an export filed their due items under their last kept day.
    let mut due: Vec<String> = state.store.retention_due_all().await.unwrap().into_iter().map(|d| d.sk).collect();
    due.sort();
    assert_eq!(due.len(), 4, "{due:?}");
    let case_until = kept_until(RecordKind::CaseFile, old.status_at.unwrap());
    assert!(due.contains(&keys::retention::due_sk(case_until, "case_file", "old")), "{due:?}");

    let kept_before = traces(&state, "recent").await;
    assert_eq!(kept_before.0.len(), 5, "the case and its four records: {kept_before:?}");
    assert_eq!((kept_before.1, kept_before.2.len(), kept_before.3), (3, 2, true));
    assert_eq!(found(&state, "Östlundh").await, vec!["old".to_string()]);

    let run = data_rights::run_retention(&state, now).await.unwrap();
    assert_eq!((run.due, run.erased, run.kept, run.failed), (2, 2, 0, 0), "{run:?}");

    // The old matter is gone from the table, the bucket and the conflict index.
    assert_eq!(traces(&state, "old").await, (vec![], 0, vec![], false));
    assert!(found(&state, "Östlundh").await.is_empty(), "the erased matter's counterpart is no longer found");
    // The one closed last year is whole and still found.
    assert_eq!(traces(&state, "recent").await, kept_before);
    assert_eq!(found(&state, "Fagerholm").await, vec!["recent".to_string()]);
    // The old export's ZIP is gone and it reads expired; yesterday's is untouched.
    let e = state.store.data_export("cust-1", &stale.id).await.unwrap().unwrap();
    assert_eq!(e.state, ExportState::Expired);
    assert!(state.files.keys_under(&stale.object_key()).await.unwrap().is_empty());
    let f = state.store.data_export("cust-1", &fresh.id).await.unwrap().unwrap();
    assert_eq!(f.state, ExportState::Ready);
    assert_eq!(state.files.keys_under(&fresh.object_key()).await.unwrap(), vec![fresh.object_key()]);
    assert_eq!(state.store.retention_due_all().await.unwrap().len(), 2, "the kept records stay filed");

    // Twice = once: nothing more is due, nothing more changes.
    let again = data_rights::run_retention(&state, now).await.unwrap();
    assert_eq!((again.due, again.erased, again.kept, again.failed), (0, 0, 0, 0));
    assert_eq!(traces(&state, "recent").await, kept_before);
    assert_eq!(state.store.data_export("cust-1", &fresh.id).await.unwrap().unwrap().state, ExportState::Ready);

    // The admin's audit trail: each erased record under its customer, and the run that found them.
    let erased = audit(&state, AuditAction::RecordsErased).await;
    let mut what: Vec<(String, String, String)> =
        erased.iter().map(|e| (e.subject.clone().unwrap(), e.detail.clone().unwrap(), e.customer_uid.clone().unwrap())).collect();
    what.sort();
    assert_eq!(
        what,
        vec![(old.case_number.clone(), "case_file".into(), "cust-1".into()), (stale.file_name(), "export".into(), "cust-1".into())]
    );
    let runs = audit(&state, AuditAction::RetentionRun).await;
    assert_eq!(
        runs.iter().map(|e| e.detail.clone().unwrap()).collect::<Vec<_>>(),
        vec!["due=2;erased=2;kept=0;failed=0"],
        "a run without anything due is not recorded"
    );

    // The kept case's file goes the day after its last kept day, not before.
    let recent_until = kept_until(RecordKind::CaseFile, now - Duration::days(365));
    let last_day = shared::domain::calendar::stockholm_day_start(recent_until) + Duration::hours(12);
    let on_last_day = data_rights::run_retention(&state, last_day).await.unwrap();
    assert_eq!(on_last_day.erased, 1, "only yesterday's export by then: {on_last_day:?}");
    assert_eq!(traces(&state, "recent").await, kept_before);
    let after = data_rights::run_retention(&state, last_day + Duration::days(1)).await.unwrap();
    assert_eq!((after.due, after.erased), (1, 1), "{after:?}");
    assert_eq!(traces(&state, "recent").await, (vec![], 0, vec![], false));
    assert!(state.store.retention_due_all().await.unwrap().is_empty());
}

#[tokio::test]
async fn a_run_stopped_half_way_is_completed_by_the_next() {
    let state = testkit::services().await;
    let now = Utc::now();
    closed_case(&state, "old", "Zacharias Östlundh", now - Duration::days(11 * 365)).await;

    state.faults.arm("retention.case_half_way");
    let stopped = data_rights::run_retention(&state, now).await.unwrap();
    assert_eq!((stopped.due, stopped.erased, stopped.failed), (1, 0, 1), "{stopped:?}");
    // Half-way: the files and the index entries are gone, the records not yet.
    let (sks, pointers, objects, indexed) = traces(&state, "old").await;
    assert_eq!((sks.len(), pointers, objects.len(), indexed), (5, 3, 0, false));
    assert_eq!(state.store.retention_due_all().await.unwrap().len(), 1, "the due item waits for the next run");

    let next = data_rights::run_retention(&state, now).await.unwrap();
    assert_eq!((next.due, next.erased, next.failed), (1, 1, 0), "{next:?}");
    let mut runs: Vec<String> = audit(&state, AuditAction::RetentionRun).await.into_iter().filter_map(|e| e.detail).collect();
    runs.sort();
    assert_eq!(runs, vec!["due=1;erased=0;kept=0;failed=1", "due=1;erased=1;kept=0;failed=0"]);
    assert_eq!(audit(&state, AuditAction::RecordsErased).await.len(), 1, "erased once");
    assert_eq!(traces(&state, "old").await, (vec![], 0, vec![], false));
    assert!(state.store.retention_due_all().await.unwrap().is_empty());
}

#[tokio::test]
async fn a_reopened_case_is_kept_and_its_due_item_dropped() {
    let state = testkit::services().await;
    let now = Utc::now();
    let closed = closed_case(&state, "reopened", "Zacharias Östlundh", now - Duration::days(11 * 365)).await;
    let mut open = closed.clone();
    open.status = CaseStatus::Inprogress;
    open.status_at = Some(now);
    let mut tx = state.store.tx();
    state.store.add_case_write(&mut tx, Some((&closed, 1)), &open).unwrap();
    assert!(state.store.commit(tx).await.unwrap());

    let run = data_rights::run_retention(&state, now).await.unwrap();
    assert_eq!((run.due, run.erased, run.kept), (1, 0, 1), "{run:?}");
    assert_eq!(traces(&state, "reopened").await.0.len(), 5, "the case and its records stay");
    assert!(state.store.retention_due_all().await.unwrap().is_empty(), "a new close files a new one");
    // Closed again: filed again, ten years from now.
    let mut again = open.clone();
    again.status = CaseStatus::Complete;
    again.status_at = Some(now);
    let mut tx = state.store.tx();
    state.store.add_case_write(&mut tx, Some((&open, 2)), &again).unwrap();
    assert!(state.store.commit(tx).await.unwrap());
    let due = state.store.retention_due_all().await.unwrap();
    assert_eq!(
        due.iter().map(|d| d.sk.clone()).collect::<Vec<_>>(),
        vec![keys::retention::due_sk(kept_until(RecordKind::CaseFile, now), "case_file", "reopened")]
    );
}

#[tokio::test]
async fn cases_closed_before_the_due_items_existed_are_filed_once_and_erased_when_due() {
    let state = testkit::services().await;
    let now = Utc::now();
    closed_case(&state, "earlier", "Zacharias Östlundh", now - Duration::days(11 * 365)).await;
    closed_case(&state, "lately", "Beatrice Fagerholm", now - Duration::days(365)).await;
    // A table of an earlier version: closed cases without their due items.
    let filed: Vec<keys::Key> =
        state.store.retention_due_all().await.unwrap().into_iter().map(|d| keys::retention::due_at(&d.sk)).collect();
    state.store.delete_items(&filed).await.unwrap();
    assert!(state.store.retention_due_all().await.unwrap().is_empty());

    let run = data_rights::run_retention(&state, now).await.unwrap();
    assert_eq!((run.due, run.erased), (1, 1), "{run:?}");
    assert_eq!(traces(&state, "earlier").await, (vec![], 0, vec![], false));
    let left: Vec<String> = state.store.retention_due_all().await.unwrap().into_iter().map(|d| d.sk).collect();
    assert_eq!(left, vec![keys::retention::due_sk(kept_until(RecordKind::CaseFile, now - Duration::days(365)), "case_file", "lately")]);
    // Once: a later run does not read the closed cases again.
    state.store.delete_items(&[keys::retention::due_at(&left[0])]).await.unwrap();
    data_rights::run_retention(&state, now).await.unwrap();
    assert!(state.store.retention_due_all().await.unwrap().is_empty(), "the backfill ran once");
}

/// Every (logical counter item, metric) → sum over the shards.
async fn counters(state: &AppState) -> std::collections::BTreeMap<(String, String, String), i64> {
    let mut out = std::collections::BTreeMap::new();
    for ((pk, sk), counts) in state.store.scan_counter_items().await.unwrap() {
        let Some((logical, _)) = recount::unshard(&pk) else { continue };
        for (m, v) in counts {
            *out.entry((logical.clone(), sk.clone(), m)).or_insert(0) += v;
        }
    }
    out
}

fn figure(all: &std::collections::BTreeMap<(String, String, String), i64>, pk: &str, sk: &str, metric: &str) -> i64 {
    all.get(&(pk.to_string(), sk.to_string(), metric.to_string())).copied().unwrap_or(0)
}

/// A subscription row of `cust-1` that ended at `ended` (filed for its
/// retention as it is written expired), with one use in its ledger.
async fn ended_row(state: &AppState, id: u64, ended: DateTime<Utc>) -> PurchasedService {
    let start = (ended - Duration::days(30)).naive_utc();
    let mut row = new_row(id, "cust-1", &Grant::custom("Rådgivning", Hundredths(1000), 30), false, start, start);
    row.price = Some(Hundredths(150_000));
    row.expire_on = ended.naive_utc();
    row.updated_at = ended.naive_utc();
    row.expired = true;
    let mut tx = state.store.tx();
    state.store.add_row(&mut tx, &row, None).unwrap();
    tx.put(Item::from([
        ("PK".to_string(), s(keys::purchase::usage_pk(id))),
        ("SK".to_string(), s(keys::purchase::usage_sk(ended.date_naive(), "e1"))),
        ("case_uid".to_string(), s("old")),
    ]))
    .unwrap();
    assert!(state.store.commit(tx).await.unwrap());
    row
}

async fn row_traces(state: &AppState, id: u64) -> (bool, usize) {
    let row = state.store.purchase_of("cust-1", id).await.unwrap().is_some();
    (row, state.store.partition_items(&keys::purchase::usage_pk(id), "").await.unwrap().len())
}

#[tokio::test]
async fn an_erased_case_leaves_no_notification_of_it_in_any_readers_partition() {
    let state = testkit::services().await;
    let now = Utc::now();
    closed_case(&state, "old", "Zacharias Östlundh", now - Duration::days(11 * 365)).await;
    closed_case(&state, "recent", "Beatrice Fagerholm", now - Duration::days(365)).await;
    let about = |case: Option<&str>| Draft {
        verb: Verb::CaseClosed,
        params: Params { case_number: Some("2015-old".into()), ..Params::default() },
        case_uid: case.map(str::to_string),
    };
    // The lawyer's, an admin's, the customer's and a contact's, as events write them.
    let readers = ["law-1", "adm-1", "cust-1", "contact-1"];
    let mut tx = state.store.tx();
    for (i, r) in readers.iter().enumerate() {
        let then = now - Duration::days(4100) + Duration::seconds(i as i64);
        state.store.add_notification(&mut tx, r, then, &format!("old{i}"), &about(Some("old"))).unwrap();
        state.store.add_notification(&mut tx, r, now - Duration::days(300), &format!("recent{i}"), &about(Some("recent"))).unwrap();
        state.store.add_notification(&mut tx, r, now - Duration::days(300), &format!("others{i}"), &about(None)).unwrap();
    }
    assert!(state.store.commit(tx).await.unwrap());
    // A fan-out written after its commit (a follow-up's) is found the same way.
    let late = shared::store::collaboration::notification_item("adm-2", now - Duration::days(4000), "late", &about(Some("old"))).unwrap();
    state.store.put_notifications(vec![late]).await.unwrap();

    let run = data_rights::run_retention(&state, now).await.unwrap();
    assert_eq!((run.due, run.erased, run.failed), (1, 1, 0), "{run:?}");
    for r in readers.iter().chain(&["adm-2"]) {
        let left = state.store.partition_items(&keys::notification::pk(r), keys::notification::PREFIX).await.unwrap();
        let cases: Vec<Option<String>> = left.iter().map(|i| i.get("uid").and_then(|v| v.as_s().ok()).cloned()).collect();
        assert!(!cases.contains(&Some("old".to_string())), "{r}: {cases:?}");
        let expected = if *r == "adm-2" { 0 } else { 2 };
        assert_eq!(cases.len(), expected, "{r}: the kept case's and the others' stay: {cases:?}");
    }
    assert!(state.store.case_notification_keys("old").await.unwrap().is_empty());
    assert_eq!(state.store.case_notification_keys("recent").await.unwrap().len(), 4);
}

#[tokio::test]
async fn ended_subscription_rows_are_kept_to_their_accounting_end_then_erased_with_their_usage() {
    let state = testkit::services().await;
    let now = Utc::now();
    // Ended nine years ago: kept to the end of the seventh year after, so due.
    let old = ended_row(&state, 901, now - Duration::days(9 * 365)).await;
    // Ended last year: kept for years yet.
    let recent = ended_row(&state, 902, now - Duration::days(365)).await;
    let until = kept_until(RecordKind::Billing, recent.expire_on.and_utc());
    let mut due: Vec<String> = state.store.retention_due_all().await.unwrap().into_iter().map(|d| d.sk).collect();
    due.sort();
    assert_eq!(
        due,
        vec![
            keys::retention::due_sk(kept_until(RecordKind::Billing, old.expire_on.and_utc()), "billing", "cust-1#000000000901"),
            keys::retention::due_sk(until, "billing", "cust-1#000000000902"),
        ]
    );

    let run = data_rights::run_retention(&state, now).await.unwrap();
    assert_eq!((run.due, run.erased, run.failed), (1, 1, 0), "{run:?}");
    assert_eq!(row_traces(&state, 901).await, (false, 0), "the old row and its ledger are gone");
    assert_eq!(row_traces(&state, 902).await, (true, 1), "the recent one is whole");
    let again = data_rights::run_retention(&state, now).await.unwrap();
    assert_eq!((again.due, again.erased), (0, 0), "twice is once");
    let erased = audit(&state, AuditAction::RecordsErased).await;
    assert_eq!(
        erased.iter().map(|e| (e.subject.clone().unwrap(), e.detail.clone().unwrap())).collect::<Vec<_>>(),
        vec![("subscription 901".to_string(), "billing".to_string())]
    );

    // On its last kept day it stays; the day after it goes.
    let last_day = shared::domain::calendar::stockholm_day_start(until) + Duration::hours(12);
    assert_eq!(data_rights::run_retention(&state, last_day).await.unwrap().erased, 0);
    assert_eq!(row_traces(&state, 902).await, (true, 1));
    assert_eq!(data_rights::run_retention(&state, last_day + Duration::days(1)).await.unwrap().erased, 1);
    assert_eq!(row_traces(&state, 902).await, (false, 0));
    assert!(state.store.retention_due_all().await.unwrap().is_empty());
}

#[tokio::test]
async fn the_dashboards_lose_what_an_erased_record_counts_now_keep_its_history_and_a_recount_agrees() {
    let state = testkit::services().await;
    let now = Utc::now();
    let old = closed_case(&state, "old", "Zacharias Östlundh", now - Duration::days(11 * 365)).await;
    closed_case(&state, "recent", "Beatrice Fagerholm", now - Duration::days(365)).await;
    // A real hour entry on the old case in place of the fixture's bare record
    // (the recount reads every entry), none on the recent one.
    state.store.delete_items(&[keys::case::hour("recent", "1")]).await.unwrap();
    let worked = (now - Duration::days(11 * 365 + 10)).date_naive();
    let hour = CaseHour {
        id: "1".into(),
        case_uid: "old".into(),
        lawyer: "law-1".into(),
        lawyer_name: "Lena Advokat".into(),
        hour: Hundredths(250),
        non_billable_hour: Hundredths(50),
        rattsskydd_hour: Hundredths(0),
        date: worked,
        time: String::new(),
        is_invoiced: true,
        service: None,
        description: "Genomgång".into(),
        created_at: now - Duration::days(11 * 365 + 10),
    };
    let mut item: Item = serde_dynamo::to_item(&hour).unwrap();
    item.insert("PK".into(), s(keys::case::pk("old")));
    item.insert("SK".into(), s(keys::case::hour_sk("1")));
    let mut tx = state.store.tx();
    tx.put(item).unwrap();
    assert!(state.store.commit(tx).await.unwrap());
    let row = ended_row(&state, 903, now - Duration::days(9 * 365)).await;
    // The counters as the events would have kept them: the recount's.
    recount::recount(&state, true).await.unwrap();
    assert!(recount::recount(&state, false).await.unwrap().differences.is_empty());
    let before = counters(&state).await;

    let run = data_rights::run_retention(&state, now).await.unwrap();
    assert_eq!((run.due, run.erased, run.failed), (2, 2, 0), "{run:?}");
    let after = counters(&state).await;
    // Now: one closed case fewer, for everyone, the customer and the lawyer.
    for (pk, metric) in [
        ("STATS#all#NOW", "cases.status.complete"),
        ("STATS#customer#cust-1#NOW", "cases.status.complete"),
        ("STATS#lawyer#law-1#NOW", "cases.status.complete"),
        ("STATS#all#NOW", "cases.status.complete.type.1"),
    ] {
        assert_eq!((figure(&before, pk, "NOW", metric), figure(&after, pk, "NOW", metric)), (2, 1), "{pk} {metric}");
    }
    // History: the case opened on its day, its hours on theirs, the row sold on its day.
    let day = |d: chrono::NaiveDate| (format!("STATS#all#DAY#{}", d.format("%Y-%m")), d.format("%Y-%m-%d").to_string());
    let (opened_pk, opened_sk) = day(shared::domain::calendar::stockholm_date(old.created_at));
    let (hours_pk, hours_sk) = day(worked);
    let (sold_pk, sold_sk) = day(shared::domain::calendar::stockholm_date(row.created_at.and_utc()));
    for (pk, sk, metric, v) in [
        (&opened_pk, &opened_sk, "cases.opened", 1),
        (&hours_pk, &hours_sk, "hours.total", 300),
        (&hours_pk, &hours_sk, "hours.invoiced", 250),
        (&sold_pk, &sold_sk, "subs.bought", 1),
        (&sold_pk, &sold_sk, "revenue.subs", 150_000),
    ] {
        assert_eq!((figure(&before, pk, sk, metric), figure(&after, pk, sk, metric)), (v, v), "{pk} {sk} {metric}");
    }
    // The recount counts what is left and what was kept: no difference.
    let report = recount::recount(&state, false).await.unwrap();
    assert!(report.differences.is_empty(), "{:#?}", report.differences);
    assert!(report.kept_figures > 0);
    assert_eq!(report.cases, 1);
    // Run again: nothing moves.
    data_rights::run_retention(&state, now).await.unwrap();
    assert_eq!(counters(&state).await, after);
}

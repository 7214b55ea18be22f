//! The retention job against the stand-in: it erases exactly what has
//! reached the end of its retention (a matter closed 11 years ago with its
//! documents, hours, history, messages, list pointers and conflict-index
//! entries; an export ready 8 days ago) and nothing else (a matter closed
//! last year, an export of yesterday); the conflict search then no longer
//! finds the erased matter's counterpart but still finds the kept one's;
//! run twice it does what it does once; stopped half-way, the next run
//! completes the erasure.

use chrono::{DateTime, Duration, Utc};
use shared::api::AppState;
use shared::domain::audit::AuditAction;
use shared::domain::case::{Case, CaseStatus, CaseType};
use shared::domain::conflict::PartyKind;
use shared::domain::data_rights::{DataExport, ExportState};
use shared::domain::retention::{kept_until, RecordKind};
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
    let filed: Vec<(String, String)> =
        state.store.retention_due_all().await.unwrap().into_iter().map(|d| (keys::retention::PK.to_string(), d.sk)).collect();
    state.store.delete_items(&filed).await.unwrap();
    assert!(state.store.retention_due_all().await.unwrap().is_empty());

    let run = data_rights::run_retention(&state, now).await.unwrap();
    assert_eq!((run.due, run.erased), (1, 1), "{run:?}");
    assert_eq!(traces(&state, "earlier").await, (vec![], 0, vec![], false));
    let left: Vec<String> = state.store.retention_due_all().await.unwrap().into_iter().map(|d| d.sk).collect();
    assert_eq!(left, vec![keys::retention::due_sk(kept_until(RecordKind::CaseFile, now - Duration::days(365)), "case_file", "lately")]);
    // Once: a later run does not read the closed cases again.
    state.store.delete_items(&[(keys::retention::PK.to_string(), left[0].clone())]).await.unwrap();
    data_rights::run_retention(&state, now).await.unwrap();
    assert!(state.store.retention_due_all().await.unwrap().is_empty(), "the backfill ran once");
}

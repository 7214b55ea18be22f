//! The retention job ([`crate::domain::retention`]): erases what has
//! reached the end of its retention, found through the due items filed when
//! the retention began (a case closed, an export ready), never a Scan.
//!
//! - A closed case's file: its documents and message attachments in S3,
//!   its counterpart's conflict-index entries (the conflict search keeps a
//!   closed matter's parties as long as its file is kept, and no longer),
//!   its rating's pointer, its list pointers, every item of its partition
//!   (hours, history, messages, notes, …) and last, in one transaction, the
//!   case itself with its due item.
//! - An export's ZIP: the object, then the export marked expired with its
//!   due item removed.
//! - A case's notifications in every reader's partition (the lawyers',
//!   the admins', the customer side's), found through their index by the
//!   case, go with the case's file.
//! - An ended subscription row (filed when it expired or was deleted): its
//!   usage ledger, then the row with its due item, once its accounting
//!   period (Bokföringslagen) has ended.
//!
//! Every step is idempotent and the due item goes last, so a run that
//! stops half-way leaves the due item for the next run, which repeats the
//! finished steps harmlessly and completes the rest. A record found not due
//! after all (a case reopened, or closed again; a longer period configured)
//! has its due item filed again under its new end. The audit trail has its
//! own retention (DynamoDB's TTL).
//!
//! The statistics: what a record counted in a period (a case opened on
//! its day, its hours on theirs, a row bought on its day) is history, and
//! a dashboard's figures of last year do not change because a file was
//! erased: those figures are kept (an item of counter sums, no personal
//! data, that the recount adds as it adds the live records). What it
//! counts now (a case's status, an active row) goes with it, in the
//! transaction that deletes it, so "cases now" and a recount agree.

use chrono::{DateTime, Utc};

use super::Context;
use crate::domain::audit::{AuditAction, AuditEvent};
use crate::domain::calendar::stockholm_date;
use crate::domain::case::CaseStatus;
use crate::domain::conflict::PartyKind;
use crate::domain::data_rights::ExportState;
use crate::domain::retention::{RecordKind, Retention};
use crate::domain::statistics::{self as stats, Deltas};
use crate::error::ApiError;
use crate::store::conflict::IndexChange;
/// What a run did (the job reports it; functions name it from here, not the store).
pub use crate::store::retention::RetentionRun;
use crate::store::retention::{Due, DueRecord};
use crate::store::stats::{counter_writes, CounterWrite};
use crate::store::subscriptions::billing_ended;
use crate::store::{keys, Item};

/// Due items one Query reads.
const PAGE: i32 = 50;
/// Due items one run handles at most (a run has 10 minutes); the rest is the next run's.
pub const RUN_LIMIT: usize = 500;

/// What became of one due record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Erased,
    Kept,
}

/// One run: every due record handled (at most [`RUN_LIMIT`]); a record
/// whose erasure fails is counted and left for the next run. A run that
/// found something is recorded in the audit trail.
pub async fn run_due(ctx: &Context, now: DateTime<Utc>) -> Result<RetentionRun, ApiError> {
    let retention = Retention::from_env();
    file_earlier(ctx, &retention).await?;
    let mut run = RetentionRun { at: now, ..RetentionRun::default() };
    let today = stockholm_date(now);
    let mut after: Option<String> = None;
    let mut seen = 0usize;
    'pages: loop {
        let page = ctx.store.retention_due(today, after.as_deref(), PAGE).await?;
        let last = page.last().map(|d| d.sk.clone());
        for due in &page {
            if seen == RUN_LIMIT {
                break 'pages;
            }
            seen += 1;
            run.due += 1;
            match handle(ctx, &retention, due, now).await {
                Ok(Outcome::Erased) => run.erased += 1,
                Ok(Outcome::Kept) => run.kept += 1,
                Err(e) => {
                    tracing::error!(record = %due.sk, error = %crate::telemetry::redact(&e.to_string()), "retention: erasure failed");
                    run.failed += 1;
                }
            }
        }
        match last {
            Some(sk) if page.len() as i32 == PAGE => after = Some(sk),
            _ => break,
        }
    }
    // The admin reads the runs that found something in the audit trail
    // (each erased record has its own event there too).
    if run.due > 0 {
        let detail = format!("due={};erased={};kept={};failed={}", run.due, run.erased, run.kept, run.failed);
        super::audit::record(ctx, AuditEvent::anonymous(AuditAction::RetentionRun).detail(detail)).await;
    }
    Ok(run)
}

/// Closed cases one run files at most in the one-off backfill (the rest the next run).
const BACKFILL_PER_RUN: usize = 2_000;
/// Closed cases one backfill page reads (and files, in one transaction with its mark).
const BACKFILL_PAGE: i32 = 99;

/// Files the due items of cases closed before the due items existed (the
/// tables of earlier versions), once: a Query of the closed cases, page
/// after page across runs, each page's items in one transaction with the
/// mark of how far it got. Filing a case twice writes the same item.
async fn file_earlier(ctx: &Context, retention: &Retention) -> Result<(), ApiError> {
    let mut cursor = match ctx.store.retention_backfill().await? {
        Some(None) => return Ok(()),
        Some(Some(c)) => Some(c),
        None => None,
    };
    let mut filed = 0;
    while filed < BACKFILL_PER_RUN {
        let (cases, next) = ctx.store.closed_cases_after(cursor.as_deref(), BACKFILL_PAGE).await?;
        let due: Vec<_> = cases
            .iter()
            .map(|c| {
                let closed_at = c.status_at.unwrap_or(c.updated_at);
                (DueRecord::Case { case_uid: c.uid.clone() }, retention.kept_until(RecordKind::CaseFile, closed_at))
            })
            .collect();
        filed += due.len();
        ctx.store.file_retention_backfill(&due, next.as_deref()).await?;
        match next {
            Some(n) => cursor = Some(n),
            None => break,
        }
    }
    Ok(())
}

async fn handle(ctx: &Context, retention: &Retention, due: &Due, now: DateTime<Utc>) -> Result<Outcome, ApiError> {
    match &due.record {
        DueRecord::Case { case_uid } => erase_case(ctx, retention, due, case_uid, now).await,
        DueRecord::Export { customer_uid, export_id } => erase_export(ctx, retention, due, customer_uid, export_id, now).await,
        DueRecord::Billing { customer_uid, purchase_id } => erase_billing(ctx, retention, due, customer_uid, *purchase_id, now).await,
    }
}

/// Keeps the period figures of `counted` (once: a run that stopped after
/// keeping them does not count again what is left of the record) and
/// returns the counter writes that take away what it counts now.
async fn retire_figures(ctx: &Context, kind: RecordKind, id: &str, counted: &Deltas) -> Result<Vec<CounterWrite>, ApiError> {
    let (days, now) = counted.split_now();
    if !ctx.store.figures_kept(kind, id).await? {
        ctx.store.keep_figures(kind, id, &counter_writes(&days.pruned(), 0)).await?;
    }
    let mut gone = Deltas::default();
    gone.merge(&now, -1);
    Ok(counter_writes(&gone.pruned(), stats::fnv(id)))
}

/// What a case and its hours count in the statistics.
async fn case_figures(ctx: &Context, c: &crate::domain::case::Case) -> Result<Deltas, ApiError> {
    let manager = ctx.store.get_customer_profile(&c.customer).await?.as_ref().and_then(stats::sales_of);
    let mut d = stats::case_contribution(c, manager.as_deref());
    let rate = super::counters::rate_of(ctx, &c.customer).await?;
    for h in ctx.store.case_hours(&c.uid).await? {
        d.merge(&stats::hour_contribution(c, &h, rate), 1);
    }
    Ok(d)
}

async fn erase_case(ctx: &Context, retention: &Retention, due: &Due, uid: &str, now: DateTime<Utc>) -> Result<Outcome, ApiError> {
    let stored = ctx.store.get_case_for_write(uid).await?;
    if let Some(s) = &stored {
        if s.case.status != CaseStatus::Complete {
            // Reopened: a new close files a new item.
            ctx.store.delete_items(&[keys::retention::due_at(&due.sk)]).await?;
            return Ok(Outcome::Kept);
        }
        let closed_at = s.case.status_at.unwrap_or(s.case.updated_at);
        if !retention.is_due(RecordKind::CaseFile, closed_at, now) {
            ctx.store.refile_retention_due(due, retention.kept_until(RecordKind::CaseFile, closed_at)).await?;
            return Ok(Outcome::Kept);
        }
    }
    // Its figures, read while its hours are there.
    let gauges = match &stored {
        Some(s) => retire_figures(ctx, RecordKind::CaseFile, uid, &case_figures(ctx, &s.case).await?).await?,
        None => Vec::new(),
    };
    // The documents and message attachments.
    for key in ctx.files.keys_under(&format!("cases/{uid}/")).await? {
        ctx.files.delete(&key).await?;
    }
    // The counterpart's conflict-index entries, through the index's own
    // idempotent follow-up (it spreads a long name's keys over as many
    // transactions as they need).
    let mut tx = ctx.store.tx();
    let follow_up = ctx.store.add_index_follow_up(&mut tx, &IndexChange::remove(PartyKind::Counterpart, uid))?;
    ctx.store.commit(tx).await?;
    ctx.store.finish_index_follow_up(&follow_up).await?;
    ctx.faults.check("retention.case_half_way")?;
    // The rating's pointer in the lawyer's list (the rating itself is in the partition).
    let case_pk = keys::case::pk(uid);
    if let Some(rating) = ctx.store.get(&keys::rating::item(uid)).await? {
        if let Ok(r) = serde_dynamo::from_item::<_, crate::domain::rating::Rating>(rating) {
            ctx.store.delete_items(&[keys::rating::lawyer(&r.lawyer, r.at, &r.case_uid)]).await?;
        }
    }
    // Everything of the partition but the case, which goes last with the due item.
    let rest: Vec<keys::Key> = ctx
        .store
        .partition_items(&case_pk, "")
        .await?
        .iter()
        .filter_map(|i: &Item| keys::Key::of(i))
        .filter(|k| k.sk != keys::case::SK)
        .collect();
    ctx.store.delete_items(&rest).await?;
    // Every reader's notifications about it.
    ctx.store.delete_items(&ctx.store.case_notification_keys(uid).await?).await?;
    let mut tx = ctx.store.tx();
    if let Some(s) = &stored {
        ctx.store.add_counters(&mut tx, &gauges)?;
        ctx.store.add_case_pointers_removal(&mut tx, &s.case)?;
        tx.delete(&keys::case::item(uid), Some(crate::store::tx::Cond::new("rev = :rev").value(":rev", crate::store::n(s.rev))))?;
    }
    ctx.store.add_retention_done(&mut tx, due)?;
    if let Some(s) = &stored {
        let event =
            AuditEvent::anonymous(AuditAction::RecordsErased).subject(s.case.case_number.clone()).detail(RecordKind::CaseFile.word());
        super::audit::add_to(&mut tx, &event.customer(Some(&s.case.customer)))?;
    }
    if !ctx.store.commit(tx).await? {
        // The case changed meanwhile (reopened): the next run decides again.
        return Err(ApiError::internal("the case changed while it was erased"));
    }
    Ok(Outcome::Erased)
}

async fn erase_export(
    ctx: &Context,
    retention: &Retention,
    due: &Due,
    customer_uid: &str,
    id: &str,
    now: DateTime<Utc>,
) -> Result<Outcome, ApiError> {
    let export = ctx.store.data_export(customer_uid, id).await?;
    if let Some(e) = &export {
        if let (ExportState::Ready, Some(ready_at)) = (e.state, e.finished_at) {
            if !retention.is_due(RecordKind::Export, ready_at, now) {
                ctx.store.refile_retention_due(due, retention.kept_until(RecordKind::Export, ready_at)).await?;
                return Ok(Outcome::Kept);
            }
        }
    }
    ctx.files.delete(&format!("exports/{customer_uid}/{id}.zip")).await?;
    let mut tx = ctx.store.tx();
    if let Some(e) = export.filter(|e| e.state == ExportState::Ready) {
        ctx.store.add_export_expired(&mut tx, &e)?;
        let event = AuditEvent::anonymous(AuditAction::RecordsErased).subject(e.file_name()).detail(RecordKind::Export.word());
        super::audit::add_to(&mut tx, &event.customer(Some(customer_uid)))?;
    }
    ctx.store.add_retention_done(&mut tx, due)?;
    if !ctx.store.commit(tx).await? {
        return Err(ApiError::internal("the export changed while it was erased"));
    }
    Ok(Outcome::Erased)
}

async fn erase_billing(
    ctx: &Context,
    retention: &Retention,
    due: &Due,
    customer_uid: &str,
    id: u64,
    now: DateTime<Utc>,
) -> Result<Outcome, ApiError> {
    let stored = ctx.store.purchase_of(customer_uid, id).await?;
    if let Some(s) = &stored {
        if !s.row.expired {
            // Running again (renewed in place): its next expiry files a new item.
            ctx.store.delete_items(&[keys::retention::due_at(&due.sk)]).await?;
            return Ok(Outcome::Kept);
        }
        let ended = billing_ended(&s.row);
        if !retention.is_due(RecordKind::Billing, ended, now) {
            ctx.store.refile_retention_due(due, retention.kept_until(RecordKind::Billing, ended)).await?;
            return Ok(Outcome::Kept);
        }
    }
    let figures_id = format!("{customer_uid}#{id}");
    let gauges = match &stored {
        Some(s) => {
            let price = super::counters::price_of(ctx, &s.row).await?;
            let manager = ctx.store.get_customer_profile(customer_uid).await?.as_ref().and_then(stats::sales_of);
            let counted = stats::subscription_contribution(&s.row, price, manager.as_deref());
            retire_figures(ctx, RecordKind::Billing, &figures_id, &counted).await?
        }
        None => Vec::new(),
    };
    // The usage ledger, then the row with its due item.
    let usage_pk = keys::purchase::usage_pk(id);
    let ledger: Vec<keys::Key> = ctx.store.partition_items(&usage_pk, "").await?.iter().filter_map(keys::Key::of).collect();
    ctx.store.delete_items(&ledger).await?;
    let mut tx = ctx.store.tx();
    if let Some(s) = &stored {
        ctx.store.add_counters(&mut tx, &gauges)?;
        ctx.store.add_row_delete_only(&mut tx, &s.row, s.rev)?;
        let event =
            AuditEvent::anonymous(AuditAction::RecordsErased).subject(format!("subscription {id}")).detail(RecordKind::Billing.word());
        super::audit::add_to(&mut tx, &event.customer(Some(customer_uid)))?;
    }
    ctx.store.add_retention_done(&mut tx, due)?;
    if !ctx.store.commit(tx).await? {
        return Err(ApiError::internal("the subscription row changed while it was erased"));
    }
    Ok(Outcome::Erased)
}

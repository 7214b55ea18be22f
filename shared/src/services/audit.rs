//! The audit trail's use cases ([`crate::domain::audit`]): recording an
//! event (in a change's transaction, or beside a read) and reading it
//! (admin: per customer, per user, per period; a customer: who at the firm
//! opened its cases and documents).

use chrono::{DateTime, Duration, Utc};

use super::Context;
use crate::domain::audit::{AuditAction, AuditEvent};
use crate::domain::policy::{self, Action};
use crate::domain::User;
use crate::error::{ApiError, Msg};
use crate::store::audit::audit_item;
pub use crate::store::audit::{AuditFilter, AuditPage};
use crate::store::tx::Tx;

/// Events per page.
pub const PAGE_SIZE: usize = 25;
/// Events an export holds at most.
pub const EXPORT_LIMIT: usize = 20_000;
/// The longest period read without a customer or user (month partitions).
pub const PERIOD_MAX_DAYS: i64 = 366;

/// Records a read's event beside it. A failure is logged and never fails
/// the read: the reader has the data either way, and the log line says
/// what the trail lacks.
pub async fn record(ctx: &Context, event: AuditEvent) {
    if let Err(e) = ctx.store.put_audit(&event).await {
        tracing::warn!(event = %event.id, action = event.action.as_str(), error = %e, "audit event not recorded");
    }
}

/// Puts a change's event into the change's transaction, so the event
/// exists exactly when the change does (and once, however often a
/// request is retried: a replayed idempotent request commits nothing).
pub fn add_to(tx: &mut Tx, event: &AuditEvent) -> Result<(), ApiError> {
    tx.put_new(audit_item(event)?)
}

fn checked(filter: &AuditFilter) -> Result<(), ApiError> {
    if let (Some(from), Some(to)) = (filter.from, filter.to) {
        if from > to {
            return Err(ApiError::field("from", Msg::InvalidQuery));
        }
    }
    Ok(())
}

/// A page of the trail (admin). Without a customer or user the period is
/// at most [`PERIOD_MAX_DAYS`] (the last 30 days when not given).
pub async fn page(ctx: &Context, caller: &User, mut filter: AuditFilter, cursor: Option<&str>) -> Result<AuditPage, ApiError> {
    policy::require(caller, Action::ReadAudit)?;
    bound_period(&mut filter)?;
    let mut page = ctx.store.audit_page(&filter, cursor, PAGE_SIZE).await?;
    let mut uids: Vec<String> = page.results.iter().filter_map(|e| e.customer_uid.clone()).collect();
    uids.sort_unstable();
    uids.dedup();
    if !uids.is_empty() {
        // A customer removed since keeps its uid in the trail, and no name here.
        page.customers = ctx.store.get_customer_profiles(&uids).await?.into_iter().map(|(uid, p)| (uid, p.dropdown_label())).collect();
    }
    Ok(page)
}

fn bound_period(filter: &mut AuditFilter) -> Result<(), ApiError> {
    checked(filter)?;
    if filter.customer_uid.is_none() && filter.actor_uid.is_none() {
        let to = filter.to.unwrap_or_else(Utc::now);
        let from = filter.from.unwrap_or(to - Duration::days(30));
        if to - from > Duration::days(PERIOD_MAX_DAYS) {
            return Err(ApiError::field("from", Msg::InvalidQuery));
        }
        filter.from = Some(from);
        filter.to = Some(to);
    }
    Ok(())
}

/// Every event the filter names, newest first, at most [`EXPORT_LIMIT`]
/// (admin's CSV). The export itself is recorded.
pub async fn export(ctx: &Context, caller: &User, mut filter: AuditFilter) -> Result<Vec<AuditEvent>, ApiError> {
    policy::require(caller, Action::ReadAudit)?;
    bound_period(&mut filter)?;
    all(ctx, &filter, EXPORT_LIMIT).await
}

/// Every event the filter names, newest first, at most `max` (no period bound: the caller's).
pub(crate) async fn all(ctx: &Context, filter: &AuditFilter, max: usize) -> Result<Vec<AuditEvent>, ApiError> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page = ctx.store.audit_page(filter, cursor.as_deref(), 500).await?;
        out.extend(page.results);
        match page.next {
            Some(n) if out.len() < max => cursor = Some(n),
            _ => break,
        }
    }
    out.truncate(max);
    Ok(out)
}

/// The customer's own trail: who at the firm opened its cases and
/// documents, viewed or changed its record and subscriptions (never its
/// own people's doings, sign-ins or searches).
pub async fn own(
    ctx: &Context,
    caller: &User,
    from: Option<DateTime<Utc>>,
    to: Option<DateTime<Utc>>,
    cursor: Option<&str>,
) -> Result<AuditPage, ApiError> {
    policy::require(caller, Action::ReadOwnAudit)?;
    let filter = AuditFilter { customer_uid: Some(caller.uid.clone()), actor_uid: None, action: None, from, to };
    checked(&filter)?;
    let mut page = ctx.store.audit_page(&filter, cursor, PAGE_SIZE).await?;
    page.results.retain(|e| e.action.shown_to_customer() && is_firm(e));
    Ok(page)
}

/// Done by the firm's people (admin, lawyers, sales persons).
fn is_firm(e: &AuditEvent) -> bool {
    policy::is_firm_role(e.actor_role.as_deref())
}

/// A record of an export made by `caller` (every CSV and Excel file).
pub async fn export_made(ctx: &Context, caller: &User, name: &str, customer_uid: Option<&str>) {
    record(ctx, AuditEvent::by(caller, AuditAction::ExportMade).subject(name).customer(customer_uid)).await;
}

//! The conflict-of-interest search (spec §1, §2): admin and lawyers check a
//! name or an identity number against every indexed party (customers,
//! companies, contact persons, case counterparts) before taking a matter.
//! Matching rules are in `domain::conflict`, the index in `store::conflict`;
//! every search is recorded for the firm's audit.

use chrono::Utc;

use super::{events, Context};
use crate::domain::conflict::{search_query, MAX_RESULTS};
use crate::domain::policy::{self, Action};
use crate::domain::User;
use crate::error::ApiError;
use crate::store::conflict::top_names;
/// What the conflict use cases answer with.
pub use crate::store::conflict::{Hit, Party, SearchAudit};

/// How many recorded searches the audit shows.
pub const AUDIT_LIMIT: i32 = 100;

/// A search's answer: the query as searched, how many parties matched, and
/// the best [`MAX_RESULTS`] of them, best first.
pub struct Found {
    pub query: String,
    pub count: usize,
    pub hits: Vec<Hit>,
    /// When the search ran (as recorded in the audit): the firm keeps a
    /// search without hits as evidence.
    pub at: chrono::DateTime<Utc>,
}

/// Search the index (admin, lawyers). Index work that a stopped process left
/// as follow-ups is finished first, so a party saved just before is found.
pub async fn search(ctx: &Context, caller: &User, raw_query: &str) -> Result<Found, ApiError> {
    policy::require(caller, Action::SearchConflicts)?;
    let query = search_query(raw_query).map_err(|key| ApiError::field("search", key))?;
    super::throttle::conflict_search(ctx, caller).await?;
    events::finish_pending(ctx).await?;
    let mut hits = ctx.store.search_parties(&query).await?;
    let count = hits.len();
    let at = Utc::now();
    // In the audit trail too (one trail of who did what), with the
    // number of hits; the query stays in the conflict audit's own record.
    let event =
        crate::domain::audit::AuditEvent::by(caller, crate::domain::audit::AuditAction::ConflictSearch).detail(format!("{count} hits"));
    super::audit::record(ctx, event).await;
    ctx.store
        .record_conflict_search(&SearchAudit {
            at,
            user_uid: caller.uid.clone(),
            user_email: caller.email.clone(),
            query: query.clone(),
            hits: count,
            top: top_names(&hits, 10),
        })
        .await?;
    hits.truncate(MAX_RESULTS);
    Ok(Found { query, count, hits, at })
}

/// Rows an audit export holds at most (a month of a firm's searches).
pub const EXPORT_LIMIT: usize = 20_000;

/// Every search of a month (`month` `YYYY-MM`, this month when absent),
/// newest first, for the admin's CSV export.
pub async fn audit_export(ctx: &Context, caller: &User, month: Option<&str>) -> Result<Vec<SearchAudit>, ApiError> {
    policy::require(caller, Action::ReadConflictAudit)?;
    let month_of = match month.map(str::trim).filter(|m| !m.is_empty()) {
        None => Utc::now(),
        Some(m) => chrono::NaiveDate::parse_from_str(&format!("{m}-01"), "%Y-%m-%d")
            .ok()
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .map(|d| d.and_utc())
            .ok_or_else(|| ApiError::field("month", crate::error::Msg::InvalidMonth))?,
    };
    super::audit::export_made(ctx, caller, &format!("conflict searches {}", month_of.format("%Y-%m")), None).await;
    ctx.store.conflict_searches_of_month(month_of, EXPORT_LIMIT).await
}

/// The searches of this month, newest first (admin).
pub async fn audit(ctx: &Context, caller: &User) -> Result<Vec<SearchAudit>, ApiError> {
    policy::require(caller, Action::ReadConflictAudit)?;
    ctx.store.conflict_searches(Utc::now(), AUDIT_LIMIT).await
}

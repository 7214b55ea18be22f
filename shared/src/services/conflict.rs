//! The conflict-of-interest search (spec §1, §2): admin and lawyers check a
//! name or an identity number against every indexed party (customers,
//! companies, contact persons, case counterparts) before taking a matter.
//! Matching rules are in `domain::conflict`, the index in `store::conflict`;
//! every search is recorded in the audit trail (`services::audit`).

use chrono::{DateTime, Datelike, NaiveDate, Utc};

use super::{events, Context};
use crate::domain::audit::{AuditAction, AuditEvent, NAMES_MAX};
use crate::domain::conflict::{search_query, MAX_RESULTS};
use crate::domain::policy::{self, Action};
use crate::domain::User;
use crate::error::ApiError;
use crate::store::audit::AuditFilter;
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
    // The limits counted, the follow-ups a stopped process left looked for
    // and the index read, side by side: one round trip before the audit
    // record. Each runs to its end and is judged in that order, so a search
    // past its limit is refused (counted, whatever it found) and a too broad
    // one is still counted. Index work left behind is finished and the index
    // read again, so a party saved just before is found.
    let (limited, pending, searched) =
        tokio::join!(super::throttle::conflict_search(ctx, caller), events::pending(ctx), ctx.store.search_parties(&query));
    limited?;
    let pending = pending?;
    if !pending.is_empty() {
        events::finish_found(ctx, &pending).await?;
    }
    let mut hits = if pending.index.is_empty() { searched? } else { ctx.store.search_parties(&query).await? };
    let count = hits.len();
    // One record in the audit trail: who searched what, how many possible
    // conflicts and the best names they saw. The firm keeps a search
    // without hits as evidence, so a search whose record fails, fails.
    let event = AuditEvent::by(caller, AuditAction::ConflictSearch).subject(&query).found(count, top_names(&hits, NAMES_MAX));
    ctx.store.put_audit(&event).await?;
    let at = event.at;
    hits.truncate(MAX_RESULTS);
    Ok(Found { query, count, hits, at })
}

/// Rows an audit export holds at most (a month of a firm's searches).
pub const EXPORT_LIMIT: usize = 20_000;

/// The first moment of `t`'s month and the last.
fn month_of(t: DateTime<Utc>) -> (DateTime<Utc>, DateTime<Utc>) {
    let first = NaiveDate::from_ymd_opt(t.year(), t.month(), 1).expect("a month's first day");
    let next =
        if t.month() == 12 { NaiveDate::from_ymd_opt(t.year() + 1, 1, 1) } else { NaiveDate::from_ymd_opt(t.year(), t.month() + 1, 1) }
            .expect("the next month's first day");
    let start = first.and_hms_opt(0, 0, 0).expect("midnight").and_utc();
    (start, next.and_hms_opt(0, 0, 0).expect("midnight").and_utc() - chrono::Duration::microseconds(1))
}

/// The conflict searches of `t`'s month up to `to`, newest first, at most
/// `max`: the audit trail's, and those recorded before the trail kept them
/// (their own month partitions, read as they are until they age out).
async fn searches_of_month(ctx: &Context, t: DateTime<Utc>, to: DateTime<Utc>, max: usize) -> Result<Vec<SearchAudit>, ApiError> {
    let (from, _) = month_of(t);
    let filter = AuditFilter { action: Some(AuditAction::ConflictSearch), from: Some(from), to: Some(to), ..AuditFilter::default() };
    let events = super::audit::all(ctx, &filter, max).await?;
    let earlier = ctx.store.conflict_searches_of_month(t, max).await?;
    let mut uids: Vec<String> = events.iter().map(|e| e.actor_uid.clone()).filter(|u| !u.is_empty()).collect();
    uids.sort_unstable();
    uids.dedup();
    let users = if uids.is_empty() { Default::default() } else { ctx.store.get_users(&uids).await? };
    let mut rows: Vec<SearchAudit> = events
        .into_iter()
        .map(|e| SearchAudit {
            at: e.at,
            user_email: users.get(&e.actor_uid).map(|u| u.email.clone()).unwrap_or_default(),
            user_uid: e.actor_uid,
            query: e.subject.unwrap_or_default(),
            hits: e.hits.unwrap_or_default() as usize,
            top: e.names,
        })
        .chain(earlier.into_iter().filter(|r| r.at <= to))
        .collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.at));
    rows.truncate(max);
    Ok(rows)
}

/// Every search of a month (`month` `YYYY-MM`, this month when absent),
/// newest first, for the admin's CSV export (itself recorded).
pub async fn audit_export(ctx: &Context, caller: &User, month: Option<&str>) -> Result<Vec<SearchAudit>, ApiError> {
    policy::require(caller, Action::ReadConflictAudit)?;
    let month_of_search = match month.map(str::trim).filter(|m| !m.is_empty()) {
        None => Utc::now(),
        Some(m) => crate::domain::calendar::parse_month(m)
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .map(|d| d.and_utc())
            .ok_or_else(|| ApiError::field("month", crate::error::Msg::InvalidMonth))?,
    };
    super::audit::export_made(ctx, caller, &format!("conflict searches {}", month_of_search.format("%Y-%m")), None).await;
    let (_, end) = month_of(month_of_search);
    searches_of_month(ctx, month_of_search, end, EXPORT_LIMIT).await
}

/// The searches of this month, newest first (admin).
pub async fn audit(ctx: &Context, caller: &User) -> Result<Vec<SearchAudit>, ApiError> {
    policy::require(caller, Action::ReadConflictAudit)?;
    let now = Utc::now();
    searches_of_month(ctx, now, now, AUDIT_LIMIT as usize).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn a_month_runs_from_its_first_moment_to_its_last() {
        let (a, b) = month_of(Utc.with_ymd_and_hms(2026, 12, 15, 8, 0, 0).unwrap());
        assert_eq!(a, Utc.with_ymd_and_hms(2026, 12, 1, 0, 0, 0).unwrap());
        assert_eq!(b + chrono::Duration::microseconds(1), Utc.with_ymd_and_hms(2027, 1, 1, 0, 0, 0).unwrap());
        let (_, feb) = month_of(Utc.with_ymd_and_hms(2028, 2, 29, 23, 0, 0).unwrap());
        assert_eq!(feb.date_naive(), NaiveDate::from_ymd_opt(2028, 2, 29).unwrap());
    }
}

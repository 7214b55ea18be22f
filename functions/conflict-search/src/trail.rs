//! The audit trail's pages (`audit/`): admin reads who did what to client
//! data per customer, per user and per period, and exports it as CSV; a
//! customer reads who at the firm opened its cases and documents
//! (`audit/mine/`). The use cases are `shared::services::audit`.

use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::{DateTime, NaiveDate, Utc};
use serde::Deserialize;
use shared::api::{ApiQuery, Caller, ErrorBody};
use shared::domain::audit::{AuditAction, AuditEvent};
use shared::error::{ApiError, Msg};
use shared::services::audit;
use shared::services::audit::{AuditFilter, AuditPage};
use utoipa::IntoParams;

#[derive(Deserialize, IntoParams)]
pub struct TrailQuery {
    /// The customer (uid) whose data the events concern.
    #[param(max_length = 64)]
    pub customer: Option<String>,
    /// The user (uid) who acted.
    #[param(max_length = 64)]
    pub user: Option<String>,
    /// One kind of event only (e.g. `conflict_search`).
    pub action: Option<AuditAction>,
    /// First day (`YYYY-MM-DD`, UTC), inclusive; not after `to`. Without a
    /// customer or user the period is at most 366 days (`invalid_query`).
    #[param(value_type = Option<String>, format = Date)]
    pub from: Option<String>,
    /// Last day (`YYYY-MM-DD`, UTC), inclusive.
    #[param(value_type = Option<String>, format = Date)]
    pub to: Option<String>,
    /// The previous page's `next`; empty or left out, the first page.
    pub cursor: Option<String>,
    /// The CSV's language: `sv` (default) or `en`.
    pub lang: Option<String>,
}

/// A day as the document's `format: date` says (`YYYY-MM-DD`, nothing
/// around it); left out is none, an empty value is not a date.
fn day(field: &str, raw: Option<&str>, end: bool) -> Result<Option<DateTime<Utc>>, ApiError> {
    let Some(raw) = raw else { return Ok(None) };
    let shape = raw.len() == 10 && raw.bytes().enumerate().all(|(i, c)| if i == 4 || i == 7 { c == b'-' } else { c.is_ascii_digit() });
    let d = NaiveDate::parse_from_str(raw, "%Y-%m-%d").ok().filter(|_| shape).ok_or_else(|| ApiError::field(field, Msg::InvalidDate))?;
    let t = if end { d.and_hms_micro_opt(23, 59, 59, 999_999) } else { d.and_hms_opt(0, 0, 0) };
    Ok(t.map(|t| t.and_utc()))
}

fn id(raw: Option<&str>) -> Result<Option<String>, ApiError> {
    match raw.map(str::trim).filter(|r| !r.is_empty()) {
        None => Ok(None),
        // A uid: anything longer names nobody.
        Some(r) if r.len() <= 64 => Ok(Some(r.to_string())),
        Some(_) => Err(ApiError::bad(Msg::InvalidQuery)),
    }
}

impl TrailQuery {
    fn filter(&self) -> Result<AuditFilter, ApiError> {
        Ok(AuditFilter {
            customer_uid: id(self.customer.as_deref())?,
            actor_uid: id(self.user.as_deref())?,
            action: self.action,
            from: day("from", self.from.as_deref(), false)?,
            to: day("to", self.to.as_deref(), true)?,
        })
    }
}

/// The page after the one whose `next` this is; an empty value (`cursor=`,
/// as a form or a generated client sends an unset one) is the first page.
fn cursor(raw: &Option<String>) -> Option<&str> {
    raw.as_deref().filter(|c| !c.is_empty())
}

fn query<T>(q: Result<ApiQuery<T>, ApiError>) -> Result<T, ApiError> {
    q.map(|ApiQuery(q)| q).map_err(|_| ApiError::bad(Msg::InvalidQuery))
}

/// The audit trail, newest first, 25 a page (admin): filter by customer, user and period (the last 30 days, at most 366, without a customer or user).
#[utoipa::path(get, path = "/api/audit/", tag = "audit", security(("bearer" = [])), params(TrailQuery),
    responses((status = 200, body = AuditPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn trail(Caller(s, user): Caller, q: Result<ApiQuery<TrailQuery>, ApiError>) -> Result<Json<AuditPage>, ApiError> {
    shared::domain::policy::require(&user, shared::domain::policy::Action::ReadAudit)?;
    let q = query(q)?;
    Ok(Json(audit::page(&s, &user, q.filter()?, cursor(&q.cursor)).await?))
}

/// The events the filter names as CSV (admin), headings in `lang`; the export is itself recorded.
#[utoipa::path(get, path = "/api/audit/csv/", tag = "audit", security(("bearer" = [])), params(TrailQuery),
    responses(
        (status = 200, content_type = "text/csv", description = "One line per event, newest first", body = String),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
    ))]
pub async fn trail_csv(Caller(s, user): Caller, q: Result<ApiQuery<TrailQuery>, ApiError>) -> Result<Response, ApiError> {
    shared::domain::policy::require(&user, shared::domain::policy::Action::ReadAudit)?;
    let q = query(q)?;
    let rows = audit::export(&s, &user, q.filter()?).await?;
    audit::export_made(&s, &user, "audit trail", q.customer.as_deref()).await;
    let body = csv_of(&rows, q.lang.as_deref().unwrap_or("sv"))?;
    let name = format!("audit-{}.csv", Utc::now().format("%Y-%m-%d"));
    let disposition = format!("attachment; filename=\"{name}\"");
    Ok(([(header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()), (header::CONTENT_DISPOSITION, disposition)], body).into_response())
}

#[derive(Deserialize, IntoParams)]
pub struct OwnQuery {
    /// First day (`YYYY-MM-DD`, UTC), inclusive.
    #[param(format = Date)]
    pub from: Option<String>,
    /// Last day (`YYYY-MM-DD`, UTC), inclusive.
    #[param(format = Date)]
    pub to: Option<String>,
    /// The previous page's `next`; empty or left out, the first page.
    pub cursor: Option<String>,
}

/// Who at the firm opened the customer's cases and documents, read its messages, viewed or changed its record and subscriptions (the customer), newest first.
#[utoipa::path(get, path = "/api/audit/mine/", tag = "audit", security(("bearer" = [])), params(OwnQuery),
    responses((status = 200, body = AuditPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn own_trail(Caller(s, user): Caller, q: Result<ApiQuery<OwnQuery>, ApiError>) -> Result<Json<AuditPage>, ApiError> {
    shared::domain::policy::require(&user, shared::domain::policy::Action::ReadOwnAudit)?;
    let q = query(q)?;
    let (from, to) = (day("from", q.from.as_deref(), false)?, day("to", q.to.as_deref(), true)?);
    Ok(Json(audit::own(&s, &user, from, to, cursor(&q.cursor)).await?))
}

/// Column headings and action names in the two interface languages.
fn words(lang: &str) -> ([&'static str; 8], fn(AuditAction) -> &'static str) {
    if lang.starts_with("en") {
        (["Time (UTC)", "Action", "User", "Role", "User id", "Customer id", "Concerns", "Detail"], english)
    } else {
        (["Tid (UTC)", "Händelse", "Användare", "Roll", "Användar-id", "Kund-id", "Gäller", "Detalj"], swedish)
    }
}

fn english(a: AuditAction) -> &'static str {
    match a {
        AuditAction::CaseViewed => "Case opened",
        AuditAction::DocumentDownloaded => "Document downloaded",
        AuditAction::DocumentUploaded => "Document uploaded",
        AuditAction::MessagesRead => "Messages read",
        AuditAction::ExportMade => "Export made",
        AuditAction::CustomerViewed => "Customer viewed",
        AuditAction::CustomerChanged => "Customer changed",
        AuditAction::SubscriptionChanged => "Subscription changed",
        AuditAction::PermissionsChanged => "Permissions changed",
        AuditAction::SignedIn => "Signed in",
        AuditAction::SignInFailed => "Failed sign-in",
        AuditAction::ConflictSearch => "Conflict search",
        AuditAction::RecordsErased => "Erased after retention",
        AuditAction::RetentionRun => "Retention run",
    }
}

fn swedish(a: AuditAction) -> &'static str {
    match a {
        AuditAction::CaseViewed => "Ärende öppnat",
        AuditAction::DocumentDownloaded => "Dokument hämtat",
        AuditAction::DocumentUploaded => "Dokument uppladdat",
        AuditAction::MessagesRead => "Meddelanden lästa",
        AuditAction::ExportMade => "Export gjord",
        AuditAction::CustomerViewed => "Kund visad",
        AuditAction::CustomerChanged => "Kund ändrad",
        AuditAction::SubscriptionChanged => "Abonnemang ändrat",
        AuditAction::PermissionsChanged => "Behörigheter ändrade",
        AuditAction::SignedIn => "Inloggning",
        AuditAction::SignInFailed => "Misslyckad inloggning",
        AuditAction::ConflictSearch => "Jävssökning",
        AuditAction::RecordsErased => "Raderat efter lagringstid",
        AuditAction::RetentionRun => "Gallring",
    }
}

/// The events as CSV (the one export writer: formulas neutralised), with a
/// byte-order mark so Excel reads å, ä, ö.
pub fn csv_of(rows: &[AuditEvent], lang: &str) -> Result<Vec<u8>, ApiError> {
    let (heads, action) = words(lang);
    let mut w = shared::export::Csv::with_bom();
    w.row(heads)?;
    for e in rows {
        w.row([
            e.at.format("%Y-%m-%d %H:%M:%S").to_string(),
            action(e.action).to_string(),
            e.actor_name.clone(),
            e.actor_role.clone().unwrap_or_default(),
            e.actor_uid.clone(),
            e.customer_uid.clone().unwrap_or_default(),
            e.subject.clone().unwrap_or_default(),
            // A conflict search's detail is its number of possible conflicts.
            e.detail.clone().or_else(|| e.hits.map(|h| h.to_string())).unwrap_or_default(),
        ])?;
    }
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_headings_follow_the_language_and_formulas_are_neutralised() {
        let e = AuditEvent::anonymous(AuditAction::ExportMade).subject("=cmd|'/c calc'!A1");
        let sv = String::from_utf8(csv_of(std::slice::from_ref(&e), "sv").unwrap()).unwrap();
        assert!(sv.starts_with("\u{feff}Tid (UTC),Händelse"), "{sv}");
        assert!(sv.contains("Export gjord") && sv.contains("'=cmd"), "{sv}");
        let en = String::from_utf8(csv_of(&[e], "en").unwrap()).unwrap();
        assert!(en.contains("Time (UTC),Action") && en.contains("Export made"), "{en}");
        assert!(day("from", Some("2026-02-30"), false).is_err());
        assert_eq!(day("to", Some("2026-03-01"), true).unwrap().unwrap().to_rfc3339(), "2026-03-01T23:59:59.999999+00:00");
    }
}

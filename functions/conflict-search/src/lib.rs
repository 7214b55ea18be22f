//! Conflict-of-interest search (`search/fuzzy/`): admin and lawyers check a
//! name or an identity number against every indexed party before taking a
//! matter. The use cases are `shared::services::conflict`; every search is
//! recorded for the audit.

use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use shared::api::{ApiQuery, AppState, Caller, ErrorBody};
pub use shared::domain::conflict::{MAX_QUERY_CHARS, MAX_RESULTS};
use shared::error::ApiError;
use shared::services::conflict::{self, Hit, SearchAudit};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub mod trail;

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(search))
        .routes(routes!(audit))
        .routes(routes!(audit_csv))
        .routes(routes!(trail::trail))
        .routes(routes!(trail::trail_csv))
        .routes(routes!(trail::own_trail))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchParams {
    /// A name (any order, misspellings welcome) or an organisationsnummer /
    /// personnummer. Trimmed, at most 200 characters.
    #[serde(default)]
    #[param(required = true, max_length = 200, pattern = r"\S")]
    pub search: String,
}

#[derive(Serialize, ToSchema)]
pub struct SearchResult {
    pub search: String,
    pub count: usize,
    pub results: Vec<Hit>,
    /// When the search ran (RFC 3339), as the audit recorded it.
    #[schema(value_type = String, format = DateTime)]
    pub searched_at: chrono::DateTime<chrono::Utc>,
}

/// Search customers, companies, contact persons and case counterparts.
#[utoipa::path(get, path = "/api/search/fuzzy/", tag = "conflict", params(SearchParams),
    responses(
        (status = 200, description = "Hits, best first, with what matched and a score", body = SearchResult),
        (status = 400, description = "Empty or too long query; search_too_broad: a word matches too many parties to list them all (type more letters)", body = ErrorBody),
        (status = 403, description = "Not admin or lawyer", body = ErrorBody),
    ))]
async fn search(Caller(s, user): Caller, ApiQuery(p): ApiQuery<SearchParams>) -> Result<Json<SearchResult>, ApiError> {
    let found = conflict::search(&s, &user, &p.search).await?;
    Ok(Json(SearchResult { search: found.query, count: found.count, results: found.hits, searched_at: found.at }))
}

#[derive(Serialize, ToSchema)]
pub struct AuditList {
    pub results: Vec<SearchAudit>,
}

/// The firm's audit of conflict searches this month, newest first (admin).
#[utoipa::path(get, path = "/api/search/fuzzy/audit/", tag = "conflict",
    responses(
        (status = 200, description = "Recorded searches", body = AuditList),
        (status = 403, description = "Not admin", body = ErrorBody),
    ))]
async fn audit(Caller(s, user): Caller) -> Result<Json<AuditList>, ApiError> {
    Ok(Json(AuditList { results: conflict::audit(&s, &user).await? }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportParams {
    /// `YYYY-MM`; this month when absent.
    pub month: Option<String>,
}

/// The firm's audit of conflict searches of a month as CSV (admin): when,
/// who, what was searched, how many possible conflicts and the best names.
#[utoipa::path(get, path = "/api/search/fuzzy/audit/csv/", tag = "conflict", params(ExportParams),
    responses(
        (status = 200, content_type = "text/csv", description = "One line per search, newest first", body = String),
        (status = 400, description = "invalid_month", body = ErrorBody),
        (status = 403, description = "Not admin", body = ErrorBody),
    ))]
async fn audit_csv(Caller(s, user): Caller, ApiQuery(p): ApiQuery<ExportParams>) -> Result<Response, ApiError> {
    let rows = conflict::audit_export(&s, &user, p.month.as_deref()).await?;
    let body = audit_csv_of(&rows)?;
    let name = p
        .month
        .as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(String::from)
        .unwrap_or_else(|| chrono::Utc::now().format("%Y-%m").to_string());
    let disposition = format!("attachment; filename=\"conflict-searches-{name}.csv\"");
    Ok(([(header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()), (header::CONTENT_DISPOSITION, disposition)], body).into_response())
}

/// The audit rows as CSV with a heading line.
pub fn audit_csv_of(rows: &[SearchAudit]) -> Result<String, ApiError> {
    let mut w = shared::export::Csv::new();
    w.row(["searched_at", "user_email", "user_uid", "query", "hits", "top"])?;
    for r in rows {
        w.row([r.at.to_rfc3339(), r.user_email.clone(), r.user_uid.clone(), r.query.clone(), r.hits.to_string(), r.top.join("; ")])?;
    }
    String::from_utf8(w.finish()?).map_err(ApiError::internal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audit_export_neutralises_formulas() {
        let row = SearchAudit {
            at: chrono::Utc::now(),
            user_uid: "u1".into(),
            user_email: "@evil.example".into(),
            query: "=1+1+cmd|'/c calc'!A1".into(),
            hits: 1,
            top: vec!["-2+3".into()],
        };
        let text = audit_csv_of(&[row]).unwrap();
        let line = text.lines().nth(1).unwrap();
        assert!(line.contains(",'@evil.example,u1,'=1+1+cmd|'/c calc'!A1,1,'-2+3"), "{line}");
    }
}

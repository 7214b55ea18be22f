//! Conflict-of-interest search (`search/fuzzy/`): admin and lawyers check a
//! name or an identity number against every indexed party before taking a
//! matter. Matching rules live in `shared::domain::conflict`, the index in
//! `shared::store::conflict`; every search is recorded for the audit.

use axum::extract::{Query, State};
use axum::Json;
use chrono::Utc;
use serde::{Deserialize, Serialize};
use shared::api::{AppState, CurrentUser, ErrorBody};
use shared::domain::Role;
use shared::error::ApiError;
use shared::error::Msg;
use shared::store::conflict::{top_names, Hit, SearchAudit};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

/// Longer queries are refused: names and numbers are short, and each word
/// costs index reads.
pub const MAX_QUERY_CHARS: usize = 200;
/// Results returned per search, best first.
pub const MAX_RESULTS: usize = 50;

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(search)).routes(routes!(audit))
}

#[derive(Deserialize, IntoParams)]
pub struct SearchParams {
    /// A name (any order, misspellings welcome) or an organisationsnummer /
    /// personnummer.
    #[serde(default)]
    pub search: String,
}

#[derive(Serialize, ToSchema)]
pub struct SearchResult {
    pub search: String,
    pub count: usize,
    pub results: Vec<Hit>,
}

/// Spec §1 and §2: the conflict-of-interest box is for admin and lawyers.
fn may_search(user: &shared::domain::User) -> Result<(), ApiError> {
    match user.role() {
        Some(Role::Admin | Role::Lawyer) => Ok(()),
        _ => Err(ApiError::Forbidden),
    }
}

/// Search customers, companies, contact persons and case counterparts.
#[utoipa::path(get, path = "/api/search/fuzzy/", tag = "conflict", params(SearchParams),
    responses(
        (status = 200, description = "Hits, best first, with what matched and a score", body = SearchResult),
        (status = 400, description = "Empty or too long query", body = ErrorBody),
        (status = 403, description = "Not admin or lawyer", body = ErrorBody),
    ))]
async fn search(
    State(s): State<AppState>,
    CurrentUser(user): CurrentUser,
    Query(p): Query<SearchParams>,
) -> Result<Json<SearchResult>, ApiError> {
    may_search(&user)?;
    let query = p.search.trim().to_string();
    let problem = if query.is_empty() {
        Some(Msg::Required)
    } else if query.chars().count() > MAX_QUERY_CHARS {
        Some(Msg::TooLong)
    } else {
        None
    };
    if let Some(key) = problem {
        return Err(ApiError::field("search", key));
    }
    let mut hits = s.store.search_parties(&query).await?;
    let count = hits.len();
    s.store
        .record_conflict_search(&SearchAudit {
            at: Utc::now(),
            user_uid: user.uid.clone(),
            user_email: user.email.clone(),
            query: query.clone(),
            hits: count,
            top: top_names(&hits, 10),
        })
        .await?;
    hits.truncate(MAX_RESULTS);
    Ok(Json(SearchResult { search: query, count, results: hits }))
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
async fn audit(State(s): State<AppState>, CurrentUser(user): CurrentUser) -> Result<Json<AuditList>, ApiError> {
    if user.role() != Some(Role::Admin) {
        return Err(ApiError::Forbidden);
    }
    Ok(Json(AuditList { results: s.store.conflict_searches(Utc::now(), 100).await? }))
}

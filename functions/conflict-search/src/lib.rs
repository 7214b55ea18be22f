//! Conflict-of-interest search (`search/fuzzy/`): admin and lawyers check a
//! name or an identity number against every indexed party before taking a
//! matter. The use cases are `shared::services::conflict`; every search is
//! recorded for the audit.

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use shared::api::{ApiQuery, AppState, CurrentUser, ErrorBody};
pub use shared::domain::conflict::{MAX_QUERY_CHARS, MAX_RESULTS};
use shared::error::ApiError;
use shared::services::conflict::{self, Hit, SearchAudit};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

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
    ApiQuery(p): ApiQuery<SearchParams>,
) -> Result<Json<SearchResult>, ApiError> {
    let found = conflict::search(&s, &user, &p.search).await?;
    Ok(Json(SearchResult { search: found.query, count: found.count, results: found.hits }))
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
    Ok(Json(AuditList { results: conflict::audit(&s, &user).await? }))
}

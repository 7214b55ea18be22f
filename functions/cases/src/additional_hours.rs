//! Additional hours of a case (spec §3: month, total hour) and their
//! history: routes only; the use cases are `shared::services::hours`, the
//! rules (what they are, who enters them, one per month and lawyer, no
//! subscription consumption) are documented in
//! `shared::domain::additional_hour`.

use axum::http::StatusCode;
use axum::Json;
use shared::api::{ApiJson, ApiPath, ApiQuery, AppState, Caller, Created, Creating, ErrorBody, Idempotency};
use shared::domain::additional_hour::AdditionalHour;
use shared::domain::case::HistoryEntry;
use shared::error::ApiError;
use shared::services::hours::{self, AdditionalHourRequest};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::hours::MassUpdateRequest;
use crate::CaseQuery;

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create))
        .routes(routes!(list))
        .routes(routes!(get_one))
        .routes(routes!(edit))
        .routes(routes!(delete))
        .routes(routes!(mass_update))
        .routes(routes!(history))
}

/// The lawyer's additional hours of one month on a case (admin names the
/// lawyer). One entry per month and lawyer; no subscription is consumed.
#[utoipa::path(post, path = "/api/case/additional_hour/create/", tag = "cases", security(("bearer" = [])), request_body = AdditionalHourRequest,
    params(Idempotency),
    responses((status = 201, body = AdditionalHour), (status = 400, description = "validation_failed (month: invalid_month, additional_hour_month_taken; total_hour: hour_min), only_lawyer_enters_hours, case_not_assigned, case_not_in_progress", body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn create(c: Creating, ApiJson(req): ApiJson<AdditionalHourRequest>) -> Result<Created<AdditionalHour>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(hours::add_additional(&c.state, &c.user, &req, &once).await?))
}

/// A case's additional hours, newest month first (whoever may see the case).
#[utoipa::path(get, path = "/api/case/additional_hour/list/", tag = "cases", security(("bearer" = [])), params(CaseQuery),
    responses((status = 200, body = Vec<AdditionalHour>), (status = 404, body = ErrorBody)))]
async fn list(Caller(s, u): Caller, ApiQuery(q): ApiQuery<CaseQuery>) -> Result<Json<Vec<AdditionalHour>>, ApiError> {
    Ok(Json(hours::additional(&s, &u, &q.case).await?))
}

/// One additional-hour entry (the update page: `…/additional_hour/update/<id>?case=<case uid>`).
#[utoipa::path(get, path = "/api/case/additional_hour/{id}/", tag = "cases", security(("bearer" = [])),
    params(("id" = String, Path, description = "Additional-hour entry id"), CaseQuery),
    responses((status = 200, body = AdditionalHour), (status = 404, body = ErrorBody)))]
async fn get_one(
    Caller(s, u): Caller,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<CaseQuery>,
) -> Result<Json<AdditionalHour>, ApiError> {
    Ok(Json(hours::additional_one(&s, &u, &q.case, &id).await?))
}

/// Edits an entry (month, total hour, invoiced, description); the history
/// keeps before and after.
#[utoipa::path(put, path = "/api/case/additional_hour/edit/{id}/", tag = "cases", security(("bearer" = [])), request_body = AdditionalHourRequest,
    params(("id" = String, Path, description = "Additional-hour entry id")),
    responses((status = 200, body = AdditionalHour), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn edit(
    Caller(s, u): Caller,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<AdditionalHourRequest>,
) -> Result<Json<AdditionalHour>, ApiError> {
    Ok(Json(hours::edit_additional(&s, &u, &id, &req).await?))
}

/// Deletes an entry (and frees its month).
#[utoipa::path(delete, path = "/api/case/additional_hour/delete/{id}/", tag = "cases", security(("bearer" = [])),
    params(("id" = String, Path, description = "Additional-hour entry id"), CaseQuery),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete(Caller(s, u): Caller, ApiPath(id): ApiPath<String>, ApiQuery(q): ApiQuery<CaseQuery>) -> Result<StatusCode, ApiError> {
    hours::delete_additional(&s, &u, &q.case, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Marks additional-hour entries invoiced or not, all or nothing (same
/// rules as `case/hour/mass-update/`: only the invoiced flag, at most 49,
/// an id not on the case → 404 and nothing changes).
#[utoipa::path(put, path = "/api/case/additional_hour/mass-update/", tag = "cases", security(("bearer" = [])), request_body = MassUpdateRequest,
    responses((status = 200, body = Vec<AdditionalHour>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn mass_update(Caller(s, u): Caller, ApiJson(req): ApiJson<MassUpdateRequest>) -> Result<Json<Vec<AdditionalHour>>, ApiError> {
    Ok(Json(hours::mark_invoiced::<AdditionalHour>(&s, &u, &req.case_uid, &req.ids, req.is_invoiced).await?))
}

/// Every recorded change of the case's additional hours, oldest first
/// (same visibility as the case history).
#[utoipa::path(get, path = "/api/case/history-additional/{id}/", tag = "cases", security(("bearer" = [])), params(("id" = String, Path, description = "Case uid")),
    responses((status = 200, body = Vec<HistoryEntry>), (status = 404, body = ErrorBody)))]
async fn history(Caller(s, u): Caller, ApiPath(id): ApiPath<String>) -> Result<Json<Vec<HistoryEntry>>, ApiError> {
    Ok(Json(hours::additional_history(&s, &u, &id).await?))
}

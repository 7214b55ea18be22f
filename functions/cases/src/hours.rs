//! Case hours: log, list, one entry, edit, delete, the bulk invoiced change
//! and the Excel workbook. The use cases are `shared::services::hours`.
//!
//! The update page's route names only the entry id
//! (`cases/case-hour/update/{id}`); entries live under their case, so the
//! details page links `…/case-hour/update/<id>?case=<case uid>` and the page
//! loads `GET case/hour/{id}/?case=<case uid>` (one GetItem, the same case
//! query parameter as `case/hour/delete/`).

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use shared::api::{ApiJson, ApiPath, ApiQuery, AppState, Caller, Created, Creating, ErrorBody, Idempotency};
use shared::domain::case::{CaseHour, HourForm};
use shared::error::ApiError;
use shared::services::hours;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{export, CaseQuery};

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(hour_create))
        .routes(routes!(hour_list))
        .routes(routes!(hour_get))
        .routes(routes!(hour_edit))
        .routes(routes!(hour_delete))
        .routes(routes!(hour_mass_update))
        .routes(routes!(hour_excel))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"case_uid": "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a01", "hour": 1.5, "date": "2026-11-24", "time": "09:00", "description": "Genomgång av hyresavtalet"}))]
pub struct HourRequest {
    #[schema(format = "uuid")]
    pub case_uid: String,
    /// Admin only: the lawyer the hours are for (spec §6).
    #[serde(default, deserialize_with = "shared::domain::text::clean::opt_uuid")]
    #[schema(format = "uuid")]
    pub lawyer: Option<String>,
    #[serde(flatten)]
    pub form: HourForm,
}

/// A lawyer enters hours on their in-progress case (admin names the
/// lawyer). Billable hours consume the customer's hour subscription in the
/// same transaction as the entry, the usage ledger and the history.
#[utoipa::path(post, path = "/api/case/hour/create/", tag = "cases", security(("bearer" = [])), request_body = HourRequest,
    params(Idempotency),
    responses((status = 201, body = CaseHour), (status = 400, description = "only_lawyer_enters_hours, case_not_assigned, no_active_subscription_for_case, limit_reached", body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn hour_create(c: Creating, ApiJson(req): ApiJson<HourRequest>) -> Result<Created<CaseHour>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(hours::log(&c.state, &c.user, &req.case_uid, req.lawyer.as_deref(), &req.form, &once).await?))
}

/// A case's hour entries, newest first (whoever may see the case).
#[utoipa::path(get, path = "/api/case/hour/list/", tag = "cases", security(("bearer" = [])), params(CaseQuery),
    responses((status = 200, body = Vec<CaseHour>), (status = 404, body = ErrorBody)))]
async fn hour_list(Caller(s, u): Caller, ApiQuery(q): ApiQuery<CaseQuery>) -> Result<Json<Vec<CaseHour>>, ApiError> {
    Ok(Json(hours::list(&s, &u, &q.case).await?))
}

/// One hour entry of a case (whoever may see the case).
#[utoipa::path(get, path = "/api/case/hour/{id}/", tag = "cases", security(("bearer" = [])),
    params(("id" = String, Path, description = "Hour entry id"), CaseQuery),
    responses((status = 200, body = CaseHour), (status = 404, body = ErrorBody)))]
async fn hour_get(
    Caller(s, u): Caller,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<CaseQuery>,
) -> Result<Json<CaseHour>, ApiError> {
    Ok(Json(hours::get(&s, &u, &q.case, &id).await?))
}

/// Edits an entry; the billable difference moves on the subscription row
/// exactly (given back, then booked again, in one transaction).
#[utoipa::path(put, path = "/api/case/hour/edit/{id}/", tag = "cases", security(("bearer" = [])), request_body = HourRequest,
    params(("id" = String, Path, description = "Hour entry id")),
    responses((status = 200, body = CaseHour), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn hour_edit(
    Caller(s, u): Caller,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<HourRequest>,
) -> Result<Json<CaseHour>, ApiError> {
    Ok(Json(hours::edit(&s, &u, &req.case_uid, &id, &req.form).await?))
}

/// Deletes an entry; its billable hours go back to the subscription row.
#[utoipa::path(delete, path = "/api/case/hour/delete/{id}/", tag = "cases", security(("bearer" = [])), params(("id" = String, Path, description = "Hour entry id"), CaseQuery),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn hour_delete(Caller(s, u): Caller, ApiPath(id): ApiPath<String>, ApiQuery(q): ApiQuery<CaseQuery>) -> Result<StatusCode, ApiError> {
    hours::delete(&s, &u, &q.case, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A bulk change of entries of one case.
///
/// Only the invoiced flag may be set in bulk: marking entries (not)
/// invoiced is what staff do with many entries at once. Hours, dates and
/// the rest stay per entry (the update page): one date or hour for many
/// entries would be meaningless, and keeping billable hours out of the bulk
/// change means it never moves the customer's subscription.
#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"case_uid": "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a01", "ids": ["an hour entry id"], "is_invoiced": true}))]
pub struct MassUpdateRequest {
    #[schema(format = "uuid")]
    pub case_uid: String,
    /// Entry ids (at most 49: one transaction), none blank.
    #[serde(default)]
    #[schema(required = true, min_items = 1, max_items = 49)]
    pub ids: Vec<String>,
    #[schema(value_type = bool, required = true)]
    pub is_invoiced: Option<bool>,
}

/// Marks entries invoiced or not invoiced, all or nothing (one transaction
/// with a history item per changed entry). Admin at any time (closed cases
/// too: invoicing follows the work), the assigned lawyer their own entries
/// while the case is in progress. An id not on this case → 404 and
/// nothing changes. Returns the named entries as they now are.
#[utoipa::path(put, path = "/api/case/hour/mass-update/", tag = "cases", security(("bearer" = [])), request_body = MassUpdateRequest,
    responses((status = 200, body = Vec<CaseHour>), (status = 400, description = "validation_failed (ids: required, too_many_entries), case_not_assigned, case_not_in_progress", body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn hour_mass_update(Caller(s, u): Caller, ApiJson(req): ApiJson<MassUpdateRequest>) -> Result<Json<Vec<CaseHour>>, ApiError> {
    Ok(Json(hours::mark_invoiced::<CaseHour>(&s, &u, &req.case_uid, &req.ids, req.is_invoiced).await?))
}

#[derive(Deserialize, ToSchema, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExcelQuery {
    /// Case uid.
    pub case: String,
    /// Language of the column titles: sv (default) or en.
    pub lang: Option<String>,
}

/// The case's hours as an Excel workbook (whoever may see the case).
#[utoipa::path(get, path = "/api/case/hour/excel/", tag = "cases", security(("bearer" = [])), params(ExcelQuery),
    responses((status = 200, description = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), (status = 404, body = ErrorBody)))]
async fn hour_excel(Caller(s, u): Caller, ApiQuery(q): ApiQuery<ExcelQuery>) -> Result<Response, ApiError> {
    let (c, entries) = hours::for_export(&s, &u, &q.case).await?;
    let body = export::hours_workbook(&c, &entries, q.lang.as_deref().unwrap_or("sv"))?;
    let name = format!("attachment; filename=\"case-{}-hours.xlsx\"", c.case_number);
    Ok(([(header::CONTENT_TYPE, export::XLSX_CONTENT_TYPE.to_string()), (header::CONTENT_DISPOSITION, name)], body).into_response())
}

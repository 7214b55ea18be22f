//! Cases: routes, request parsing and responses. Every handler makes one
//! call into `shared::services::{cases, hours, documents}`, where the use
//! cases live (rules in `shared::domain::case`).

use axum::Json;
use serde::{Deserialize, Serialize};
use shared::api::{ApiJson, ApiPath, ApiQuery, AppState, Caller, Created, Creating, ErrorBody, Idempotency};
use shared::domain::case::{CaseForm, CaseView, CreateVia, HistoryEntry, ListOrder, Transition};
use shared::error::ApiError;
use shared::services::cases::{self, CaseDetails, CaseName, CustomerOption, Note};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

mod additional_hours;
mod documents;
mod export;
mod followers;
mod hours;

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_by_staff))
        .routes(routes!(create_by_customer))
        .routes(routes!(create_by_lawyer))
        .routes(routes!(details))
        .routes(routes!(update))
        .routes(routes!(change_status))
        .routes(routes!(list))
        .routes(routes!(default_address))
        .routes(routes!(history))
        .routes(routes!(case_name))
        .routes(routes!(add_note, notes))
        .routes(routes!(customer_options))
        .merge(hours::api())
        .merge(additional_hours::api())
        .merge(documents::api())
        .merge(followers::api())
}

/// A case request: the form and, for staff and lawyers, the customer.
#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"customer": "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a00", "subject": "Hyrestvist", "description": "Hyresvärden har sagt upp lokalen.",
    "type": 1, "estimated_hours": 4, "counterpart": "Fastighets AB", "contact_person": "Karin",
    "address": {"address_1": "Storgatan 1", "city": "Stockholm", "country": "SE", "post_code": "11122"}}))]
pub struct CaseRequest {
    /// The customer's uid (staff and lawyers; ignored for the customer side).
    #[serde(default, deserialize_with = "shared::domain::text::clean::opt_uuid")]
    #[schema(format = "uuid")]
    pub customer: Option<String>,
    #[serde(flatten)]
    pub form: CaseForm,
}

/// The case query parameter of the calls that name a case that way.
#[derive(Deserialize, ToSchema, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CaseQuery {
    /// Case uid.
    pub case: String,
}

async fn create(c: Creating, via: CreateVia, req: CaseRequest) -> Result<Created<CaseView>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(cases::create(&c.state, &c.user, via, req.customer.as_deref().unwrap_or_default(), req.form, &once).await?))
}

/// Sales person or admin creates a case for a customer (status Draft = 'Pending').
#[utoipa::path(post, path = "/api/case/create/", tag = "cases", security(("bearer" = [])), request_body = CaseRequest,
    params(Idempotency),
    responses((status = 201, body = CaseView), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn create_by_staff(c: Creating, ApiJson(req): ApiJson<CaseRequest>) -> Result<Created<CaseView>, ApiError> {
    create(c, CreateVia::Staff, req).await
}

/// The customer (or a contact holding add_case) opens a case; needs an
/// active consultancy (hour) service.
#[utoipa::path(post, path = "/api/case/create/by/customer/", tag = "cases", security(("bearer" = [])), request_body = CaseRequest,
    params(Idempotency),
    responses((status = 201, body = CaseView), (status = 400, description = "consultancy_service_required, validation_failed", body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn create_by_customer(c: Creating, ApiJson(req): ApiJson<CaseRequest>) -> Result<Created<CaseView>, ApiError> {
    create(c, CreateVia::Customer, req).await
}

/// A lawyer opens a case for a customer; it is assigned to them once staff publish it.
#[utoipa::path(post, path = "/api/case/create/by/lawyer/", tag = "cases", security(("bearer" = [])), request_body = CaseRequest,
    params(Idempotency),
    responses((status = 201, body = CaseView), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn create_by_lawyer(c: Creating, ApiJson(req): ApiJson<CaseRequest>) -> Result<Created<CaseView>, ApiError> {
    create(c, CreateVia::Lawyer, req).await
}

/// Case details (admin, sales persons, the assigned lawyer, lawyers for
/// available cases, the customer and its contacts).
#[utoipa::path(get, path = "/api/case/{id}/", tag = "cases", security(("bearer" = [])), params(("id" = String, Path, description = "Case uid")),
    responses((status = 200, body = CaseDetails), (status = 404, body = ErrorBody)))]
async fn details(Caller(s, u): Caller, ApiPath(id): ApiPath<String>) -> Result<Json<CaseDetails>, ApiError> {
    Ok(Json(cases::details(&s, &u, &id).await?))
}

/// Edits the fields; every changed field is written to the history in the same transaction.
#[utoipa::path(put, path = "/api/case/update/{uid}/", tag = "cases", security(("bearer" = [])), request_body = CaseRequest,
    params(("uid" = String, Path, description = "Case uid")),
    responses((status = 200, body = CaseView), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn update(
    Caller(s, u): Caller,
    ApiPath(uid): ApiPath<String>,
    ApiJson(req): ApiJson<CaseRequest>,
) -> Result<Json<CaseView>, ApiError> {
    Ok(Json(cases::update(&s, &u, &uid, req.form).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"action": "publish"}))]
pub struct StatusRequest {
    pub action: Transition,
}

/// A status action (publish, accept, complete, reopen, transfer). A
/// conditional write on the case's revision: of two lawyers accepting at
/// once exactly one wins; the others are told the case was just taken.
#[utoipa::path(post, path = "/api/case/status/{uid}/", tag = "cases", security(("bearer" = [])), request_body = StatusRequest,
    params(("uid" = String, Path, description = "Case uid")),
    responses((status = 200, body = CaseView), (status = 400, description = "only_waiting_can_start, only_in_progress_can_complete, status_change_not_allowed", body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, description = "case_already_taken: another lawyer accepted the case first", body = ErrorBody)))]
async fn change_status(
    Caller(s, u): Caller,
    ApiPath(uid): ApiPath<String>,
    ApiJson(req): ApiJson<StatusRequest>,
) -> Result<Json<CaseView>, ApiError> {
    Ok(Json(cases::change_status(&s, &u, &uid, req.action).await?))
}

#[derive(Deserialize, ToSchema, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// my (default), pending, draft, available, active, closed, all.
    pub status: Option<String>,
    /// Words of the case number, subject, customer or counterpart.
    pub search: Option<String>,
    /// By creation date: desc (newest first, default) or asc.
    pub order: Option<ListOrder>,
    pub cursor: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct CaseListPage {
    pub results: Vec<CaseView>,
    pub next: Option<String>,
}

/// The caller's case lists: 10 per page, newest first, key-paged (`next` → `cursor`).
#[utoipa::path(get, path = "/api/case/list/", tag = "cases", security(("bearer" = [])), params(ListQuery),
    responses((status = 200, body = CaseListPage), (status = 400, description = "invalid_status, invalid_cursor", body = ErrorBody)))]
async fn list(Caller(s, u): Caller, ApiQuery(q): ApiQuery<ListQuery>) -> Result<Json<CaseListPage>, ApiError> {
    let page = cases::list(
        &s,
        &u,
        q.status.as_deref().unwrap_or(""),
        q.search.as_deref().unwrap_or(""),
        q.order.unwrap_or_default(),
        q.cursor.as_deref(),
    )
    .await?;
    Ok(Json(CaseListPage { results: page.results, next: page.next }))
}

/// Every recorded change of a case, oldest first.
#[utoipa::path(get, path = "/api/case/history/{id}/", tag = "cases", security(("bearer" = [])), params(("id" = String, Path, description = "Case uid")),
    responses((status = 200, body = Vec<HistoryEntry>), (status = 404, body = ErrorBody)))]
async fn history(Caller(s, u): Caller, ApiPath(id): ApiPath<String>) -> Result<Json<Vec<HistoryEntry>>, ApiError> {
    Ok(Json(cases::history(&s, &u, &id).await?))
}

/// The case's number and subject for headings (history pages, hour
/// updates): one read, for whoever may see the case.
#[utoipa::path(get, path = "/api/case/name/{id}/", tag = "cases", security(("bearer" = [])), params(("id" = String, Path, description = "Case uid")),
    responses((status = 200, body = CaseName), (status = 404, body = ErrorBody)))]
async fn case_name(Caller(s, u): Caller, ApiPath(id): ApiPath<String>) -> Result<Json<CaseName>, ApiError> {
    Ok(Json(cases::name(&s, &u, &id).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"case_uid": "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a01", "note": "Ringde motparten."}))]
pub struct NoteRequest {
    #[schema(format = "uuid")]
    pub case_uid: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 10000)]
    pub note: String,
}

/// Adds an internal note to a case (lawyers and staff who may see it).
#[utoipa::path(post, path = "/api/case/lawyer/note/", tag = "cases", security(("bearer" = [])), request_body = NoteRequest,
    params(Idempotency),
    responses((status = 201, body = Note), (status = 400, description = "case_note_save_failed", body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn add_note(c: Creating, ApiJson(req): ApiJson<NoteRequest>) -> Result<Created<Note>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(cases::add_note(&c.state, &c.user, &req.case_uid, &req.note, &once).await?))
}

/// A case's internal notes, oldest first.
#[utoipa::path(get, path = "/api/case/lawyer/note/", tag = "cases", security(("bearer" = [])), params(CaseQuery),
    responses((status = 200, body = Vec<Note>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn notes(Caller(s, u): Caller, ApiQuery(q): ApiQuery<CaseQuery>) -> Result<Json<Vec<Note>>, ApiError> {
    Ok(Json(cases::notes(&s, &u, &q.case).await?))
}

#[derive(Deserialize, ToSchema, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    #[serde(default)]
    pub search: String,
}

#[derive(Deserialize, ToSchema, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AddressQuery {
    /// Customer uid (staff and lawyers; the customer side gets its own).
    #[serde(default)]
    pub customer: Option<String>,
}

/// The address a new case starts with: the customer's visiting address.
#[utoipa::path(get, path = "/api/case/address/default/", tag = "cases", security(("bearer" = [])), params(AddressQuery),
    responses((status = 200, body = shared::domain::case::CaseAddress), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn default_address(
    Caller(s, u): Caller,
    ApiQuery(q): ApiQuery<AddressQuery>,
) -> Result<Json<shared::domain::case::CaseAddress>, ApiError> {
    Ok(Json(cases::default_address(&s, &u, q.customer.as_deref()).await?))
}

/// Active customers matching `search` (name, e-mail or company), for the
/// case form's customer picker (admin, sales persons, lawyers); at most 20.
#[utoipa::path(get, path = "/api/case/customer/list/", tag = "cases", security(("bearer" = [])), params(SearchQuery),
    responses((status = 200, body = Vec<CustomerOption>), (status = 403, body = ErrorBody)))]
async fn customer_options(Caller(s, u): Caller, ApiQuery(q): ApiQuery<SearchQuery>) -> Result<Json<Vec<CustomerOption>>, ApiError> {
    Ok(Json(cases::customer_options(&s, &u, &q.search).await?))
}

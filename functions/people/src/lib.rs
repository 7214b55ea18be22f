//! Lawyers and sales persons (spec §2 admin routes, §3, §6): only admin
//! creates and edits them; each new account gets a single-use link by mail to
//! choose a password. Lists read one index partition each, newest first.

use axum::Json;
use serde::{Deserialize, Serialize};
use shared::api::{ApiJson, ApiPath, ApiQuery, AppState, Caller, Created, Creating, ErrorBody, Idempotency};
use shared::domain::staff::StaffInput;
use shared::domain::{Role, UserSubType};
use shared::error::{ApiError, Msg};
use shared::services::staff;
pub use shared::services::staff::{LawyerOption, StaffPage, StaffProfile, DROPDOWN_LIMIT, PAGE_SIZE};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_lawyer))
        .routes(routes!(list_lawyers))
        .routes(routes!(lawyer_dropdown))
        .routes(routes!(company_affiliations))
        .routes(routes!(get_lawyer))
        .routes(routes!(update_lawyer))
        .routes(routes!(create_sales_person))
        .routes(routes!(list_sales_persons))
        .routes(routes!(get_sales_person))
        .routes(routes!(update_sales_person))
        .routes(routes!(send_password_link))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListParams {
    /// Lawyers: `internal` (default) or `external`.
    #[serde(default, rename = "type")]
    pub kind: Option<UserSubType>,
    /// From the previous page's `next`.
    pub cursor: Option<String>,
}

/// Create a lawyer (admin). Internal or external; an external lawyer needs a
/// company name and an hourly rate.
#[utoipa::path(post, path = "/api/lawyer/create/", tag = "people", request_body = StaffInput,
    params(Idempotency),
    responses(
        (status = 201, description = "Created; a set-password link was mailed", body = StaffProfile),
        (status = 400, description = "Validation (external_lawyer_requires_company_and_rate, email_exists, …)", body = ErrorBody),
        (status = 403, description = "Not admin", body = ErrorBody)))]
async fn create_lawyer(c: Creating, ApiJson(input): ApiJson<StaffInput>) -> Result<Created<StaffProfile>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(staff::create(&c.state, &c.user, Role::Lawyer, input, &once).await?))
}

/// Lawyers of one kind, newest first, 10 per page (admin).
#[utoipa::path(get, path = "/api/lawyer/list/", tag = "people", params(ListParams),
    responses((status = 200, body = StaffPage), (status = 403, body = ErrorBody)))]
async fn list_lawyers(Caller(s, me): Caller, ApiQuery(p): ApiQuery<ListParams>) -> Result<Json<StaffPage>, ApiError> {
    Ok(Json(staff::list(&s, &me, Role::Lawyer, p.kind, p.cursor.as_deref()).await?))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DropdownParams {
    #[serde(default)]
    pub search: String,
}

/// Active lawyers whose name or e-mail contains `search` (admin, sales
/// persons and lawyers pick a lawyer for a case).
#[utoipa::path(get, path = "/api/lawyer/dropdown/list/", tag = "people", params(DropdownParams),
    responses((status = 200, body = Vec<LawyerOption>), (status = 403, body = ErrorBody)))]
async fn lawyer_dropdown(Caller(s, me): Caller, ApiQuery(p): ApiQuery<DropdownParams>) -> Result<Json<Vec<LawyerOption>>, ApiError> {
    Ok(Json(staff::lawyer_dropdown(&s, &me, &p.search).await?))
}

/// The company affiliations lawyers have, distinct and sorted, filtered by `search` (admin: the lawyer form suggests them).
///
/// Spec §7 `company-affiliation/`: the lookup behind the lawyer's
/// "company affiliation" field (spec §3), which stays free text.
#[utoipa::path(get, path = "/api/company-affiliation/", tag = "people", security(("bearer" = [])), params(DropdownParams),
    responses((status = 200, body = Vec<String>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn company_affiliations(Caller(s, me): Caller, ApiQuery(p): ApiQuery<DropdownParams>) -> Result<Json<Vec<String>>, ApiError> {
    Ok(Json(staff::company_affiliations(&s, &me, &p.search).await?))
}

// A lawyer and a sales person are read and updated the same way: one
// handler of each per role (each its own route and documentation), written
// once here.

/// One person of a role (admin).
macro_rules! get_staff {
    ($name:ident, $role:expr, $path:literal, [$($doc:literal),+]) => {
        $(#[doc = $doc])+
        #[utoipa::path(get, path = $path, tag = "people", params(("uid" = String, Path)),
            responses((status = 200, body = StaffProfile), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
        async fn $name(
            Caller(s, me): Caller,
            ApiPath(uid): ApiPath<String>,
        ) -> Result<Json<StaffProfile>, ApiError> {
            Ok(Json(staff::get(&s, &me, $role, &uid).await?))
        }
    };
}

/// A person of a role updated (admin).
macro_rules! update_staff {
    ($name:ident, $role:expr, $path:literal, [$($doc:literal),+]) => {
        $(#[doc = $doc])+
        #[utoipa::path(put, path = $path, tag = "people", params(("uid" = String, Path)), request_body = StaffInput,
            responses((status = 200, body = StaffProfile), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
        async fn $name(
            Caller(s, me): Caller,
            ApiPath(uid): ApiPath<String>,
            ApiJson(input): ApiJson<StaffInput>,
        ) -> Result<Json<StaffProfile>, ApiError> {
            Ok(Json(staff::update(&s, &me, $role, &uid, input).await?))
        }
    };
}

get_staff!(get_lawyer, Role::Lawyer, "/api/lawyer/{uid}/", [" One lawyer (admin)."]);
update_staff!(update_lawyer, Role::Lawyer, "/api/lawyer/update/{uid}/", [" Update a lawyer (admin). The e-mail stays as it is."]);

/// Create a sales person (admin).
#[utoipa::path(post, path = "/api/salesperson/create/", tag = "people", request_body = StaffInput,
    params(Idempotency),
    responses(
        (status = 201, description = "Created; a set-password link was mailed", body = StaffProfile),
        (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody)))]
async fn create_sales_person(c: Creating, ApiJson(input): ApiJson<StaffInput>) -> Result<Created<StaffProfile>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(staff::create(&c.state, &c.user, Role::SalesPerson, input, &once).await?))
}

/// Sales persons, newest first, 10 per page (admin).
#[utoipa::path(get, path = "/api/salesperson/list/", tag = "people", params(ListParams),
    responses((status = 200, body = StaffPage), (status = 403, body = ErrorBody)))]
async fn list_sales_persons(Caller(s, me): Caller, ApiQuery(p): ApiQuery<ListParams>) -> Result<Json<StaffPage>, ApiError> {
    Ok(Json(staff::list(&s, &me, Role::SalesPerson, None, p.cursor.as_deref()).await?))
}

get_staff!(get_sales_person, Role::SalesPerson, "/api/salesperson/{uid}/", [" One sales person (admin)."]);
update_staff!(update_sales_person, Role::SalesPerson, "/api/salesperson/update/{uid}/", [" Update a sales person (admin)."]);

/// A plain acknowledgement with a translatable message key.
#[derive(Serialize, ToSchema)]
pub struct Message {
    pub message: Msg,
}

/// Mail a lawyer or sales person a new set-password link (admin), e.g. when
/// the first one expired. Earlier links stay single-use and expire on their own.
#[utoipa::path(post, path = "/api/staff/send-password-link/{uid}/", tag = "people", params(("uid" = String, Path)),
    responses((status = 200, body = Message), (status = 400, description = "A parameter is missing or invalid, or could_not_send_mail: the mail service refused the mail (nothing is sent later)", body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn send_password_link(Caller(s, me): Caller, ApiPath(uid): ApiPath<String>) -> Result<Json<Message>, ApiError> {
    staff::send_password_link(&s, &me, &uid).await?;
    Ok(Json(Message { message: Msg::PasswordLinkSent }))
}

//! Catalogue endpoints: packages, service plans, the fixed services,
//! knowledge sectors, case types, departments (and a customer's department)
//! and company-size bands. Only admin changes the catalogue (spec §6).

use axum::Json;
use serde::{Deserialize, Serialize};
use shared::api::{ApiJson, ApiPath, AppState, Caller, Created, Creating, CurrentUser, ErrorBody, Idempotency};
use shared::domain::catalogue::{
    CompanySize, NamedEntry, NamedKind, Package, RetireRequest, Service, ServicePlan, COMPANY_SIZES, SERVICES,
};
pub use shared::domain::catalogue::{NamedRequest, NewPackage, NewServicePlan};
use shared::error::{ApiError, Msg};
use shared::services::catalogue;
use shared::services::catalogue::Offer;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_packages, create_package))
        .routes(routes!(list_packages_alias))
        .routes(routes!(update_package, delete_package))
        .routes(routes!(retire_package))
        .routes(routes!(list_plans, create_plan))
        .routes(routes!(list_plans_alias))
        .routes(routes!(update_plan, delete_plan))
        .routes(routes!(retire_plan))
        .routes(routes!(list_services))
        .routes(routes!(list_sectors))
        .routes(routes!(create_sector))
        .routes(routes!(update_sector, delete_sector))
        .routes(routes!(list_case_types))
        .routes(routes!(create_case_type))
        .routes(routes!(update_case_type, delete_case_type))
        .routes(routes!(list_departments, create_department))
        .routes(routes!(get_department, update_department, delete_department))
        .routes(routes!(connect_department))
        .routes(routes!(company_sizes))
}

/// Ids in paths are numbers; anything else names nothing (404).
fn path_id(raw: &str) -> Result<u64, ApiError> {
    raw.parse().map_err(|_| ApiError::NotFound)
}

// ------------------------------------------------------------ packages ----

/// Packages (customers: only the public ones), oldest first.
#[utoipa::path(get, path = "/api/packages/", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = [Package]), (status = 401, body = ErrorBody)))]
async fn list_packages(Caller(s, u): Caller) -> Result<Json<Vec<Package>>, ApiError> {
    Ok(Json(catalogue::packages(&s, &u).await?))
}

/// Same list as `GET packages/`.
#[utoipa::path(get, path = "/api/packages/list/", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = [Package]), (status = 401, body = ErrorBody)))]
async fn list_packages_alias(Caller(s, u): Caller) -> Result<Json<Vec<Package>>, ApiError> {
    Ok(Json(catalogue::packages(&s, &u).await?))
}

/// Create a package (admin only). Hours and price above 0, duration in days.
#[utoipa::path(post, path = "/api/packages/", tag = "catalogue", security(("bearer" = [])), request_body = NewPackage,
    params(Idempotency),
    responses((status = 201, body = Package), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn create_package(c: Creating, ApiJson(req): ApiJson<NewPackage>) -> Result<Created<Package>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(catalogue::create_package(&c.state, &c.user, &req, &once).await?))
}

/// New terms of a package (admin). Rows bought earlier keep their own
/// hours, price and dates.
#[utoipa::path(put, path = "/api/packages/{id}/", tag = "catalogue", security(("bearer" = [])), request_body = NewPackage,
    params(("id" = u64, Path)),
    responses((status = 200, body = Package), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn update_package(
    Caller(s, u): Caller,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<NewPackage>,
) -> Result<Json<Package>, ApiError> {
    let id = path_id(&id)?;
    Ok(Json(catalogue::update_package(&s, &u, id, &req).await?))
}

/// Delete a package never bought (admin); a bought one is refused with
/// `offer_bought` (retire it instead).
#[utoipa::path(delete, path = "/api/packages/{id}/", tag = "catalogue", security(("bearer" = [])),
    params(("id" = u64, Path)),
    responses((status = 200, body = Message), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_package(Caller(s, u): Caller, ApiPath(id): ApiPath<String>) -> Result<Json<Message>, ApiError> {
    let id = path_id(&id)?;
    catalogue::delete_offer(&s, &u, Offer::Package, id).await?;
    Ok(Json(Message { message: Msg::Deleted }))
}

/// Retire a package (no longer sold, to customers or by staff; rows bought
/// keep it) or reinstate it (admin).
#[utoipa::path(post, path = "/api/packages/{id}/retire/", tag = "catalogue", security(("bearer" = [])), request_body = RetireRequest,
    params(("id" = u64, Path)),
    responses((status = 200, body = Package), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn retire_package(
    Caller(s, u): Caller,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<RetireRequest>,
) -> Result<Json<Package>, ApiError> {
    let id = path_id(&id)?;
    Ok(Json(catalogue::retire_package(&s, &u, id, req.retired).await?))
}

// ------------------------------------------------------- service plans ----

/// Service plans (customers: only the public ones).
#[utoipa::path(get, path = "/api/serviceplans/", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = [ServicePlan]), (status = 401, body = ErrorBody)))]
async fn list_plans(Caller(s, u): Caller) -> Result<Json<Vec<ServicePlan>>, ApiError> {
    Ok(Json(catalogue::service_plans(&s, &u).await?))
}

/// Same list as `GET serviceplans/`.
#[utoipa::path(get, path = "/api/serviceplans/list/", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = [ServicePlan]), (status = 401, body = ErrorBody)))]
async fn list_plans_alias(Caller(s, u): Caller) -> Result<Json<Vec<ServicePlan>>, ApiError> {
    Ok(Json(catalogue::service_plans(&s, &u).await?))
}

/// Create a service plan (admin only): a limit for limited services, hours for service 1.
#[utoipa::path(post, path = "/api/serviceplans/", tag = "catalogue", security(("bearer" = [])), request_body = NewServicePlan,
    params(Idempotency),
    responses((status = 201, body = ServicePlan), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn create_plan(c: Creating, ApiJson(req): ApiJson<NewServicePlan>) -> Result<Created<ServicePlan>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(catalogue::create_service_plan(&c.state, &c.user, &req, &once).await?))
}

/// New terms of a service plan (admin); bought rows keep theirs.
#[utoipa::path(put, path = "/api/serviceplans/{id}/", tag = "catalogue", security(("bearer" = [])), request_body = NewServicePlan,
    params(("id" = u64, Path)),
    responses((status = 200, body = ServicePlan), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn update_plan(
    Caller(s, u): Caller,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<NewServicePlan>,
) -> Result<Json<ServicePlan>, ApiError> {
    let id = path_id(&id)?;
    Ok(Json(catalogue::update_service_plan(&s, &u, id, &req).await?))
}

/// Delete a service plan never bought (admin); a bought one is refused
/// with `offer_bought` (retire it instead).
#[utoipa::path(delete, path = "/api/serviceplans/{id}/", tag = "catalogue", security(("bearer" = [])),
    params(("id" = u64, Path)),
    responses((status = 200, body = Message), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_plan(Caller(s, u): Caller, ApiPath(id): ApiPath<String>) -> Result<Json<Message>, ApiError> {
    let id = path_id(&id)?;
    catalogue::delete_offer(&s, &u, Offer::Plan, id).await?;
    Ok(Json(Message { message: Msg::Deleted }))
}

/// Retire or reinstate a service plan (admin).
#[utoipa::path(post, path = "/api/serviceplans/{id}/retire/", tag = "catalogue", security(("bearer" = [])), request_body = RetireRequest,
    params(("id" = u64, Path)),
    responses((status = 200, body = ServicePlan), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn retire_plan(
    Caller(s, u): Caller,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<RetireRequest>,
) -> Result<Json<ServicePlan>, ApiError> {
    let id = path_id(&id)?;
    Ok(Json(catalogue::retire_service_plan(&s, &u, id, req.retired).await?))
}

/// The fixed services (id 1 hour-based consultancy, id 2 Verified, ...).
#[utoipa::path(get, path = "/api/services/", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = [Service]), (status = 401, body = ErrorBody)))]
async fn list_services(CurrentUser(_u): CurrentUser) -> Json<Vec<Service>> {
    Json(SERVICES.to_vec())
}

// ------------------------------------------------------- named lists ----

/// A plain acknowledgement with a translatable message key.
#[derive(Serialize, ToSchema)]
pub struct Message {
    pub message: Msg,
}

// Every named list (knowledge sectors, case types, departments) is listed,
// created, renamed and deleted the same way: one handler of each per list
// (each its own route and documentation), written once here.

/// The list's entries: `list_named!(fn, kind, path, [doc lines], status when refused)`.
macro_rules! list_named {
    ($name:ident, $kind:expr, $path:literal, [$($doc:literal),+], $refused:literal) => {
        $(#[doc = $doc])+
        #[utoipa::path(get, path = $path, tag = "catalogue", security(("bearer" = [])),
            responses((status = 200, body = [NamedEntry]), (status = $refused, body = ErrorBody)))]
        async fn $name(Caller(s, u): Caller) -> Result<Json<Vec<NamedEntry>>, ApiError> {
            Ok(Json(catalogue::named_list(&s, &u, $kind).await?))
        }
    };
}

/// A new entry (admin).
macro_rules! create_named {
    ($name:ident, $kind:expr, $path:literal, [$($doc:literal),+]) => {
        $(#[doc = $doc])+
        #[utoipa::path(post, path = $path, tag = "catalogue", security(("bearer" = [])), request_body = NamedRequest,
            params(Idempotency),
            responses((status = 201, body = NamedEntry), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
        async fn $name(c: Creating, ApiJson(req): ApiJson<NamedRequest>) -> Result<Created<NamedEntry>, ApiError> {
            let once = c.once(None).await?;
            Ok(Created(catalogue::create_named(&c.state, &c.user, $kind, &req, &once).await?))
        }
    };
}

/// An entry renamed (admin).
macro_rules! update_named {
    ($name:ident, $kind:expr, $path:literal, [$($doc:literal),+]) => {
        $(#[doc = $doc])+
        #[utoipa::path(put, path = $path, tag = "catalogue", security(("bearer" = [])), request_body = NamedRequest,
            params(("id" = u64, Path)),
            responses((status = 200, body = NamedEntry), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
        async fn $name(
            Caller(s, u): Caller,
            ApiPath(id): ApiPath<String>,
            ApiJson(req): ApiJson<NamedRequest>,
        ) -> Result<Json<NamedEntry>, ApiError> {
            let id = path_id(&id)?;
            Ok(Json(catalogue::update_named(&s, &u, $kind, id, &req).await?))
        }
    };
}

/// An entry deleted (admin); `responses` lists the refusals.
macro_rules! delete_named {
    ($name:ident, $kind:expr, $path:literal, [$($doc:literal),+], $($status:literal),+) => {
        $(#[doc = $doc])+
        #[utoipa::path(delete, path = $path, tag = "catalogue", security(("bearer" = [])),
            params(("id" = u64, Path)),
            responses((status = 200, body = Message), $((status = $status, body = ErrorBody)),+))]
        async fn $name(
            Caller(s, u): Caller,
            ApiPath(id): ApiPath<String>,
        ) -> Result<Json<Message>, ApiError> {
            let id = path_id(&id)?;
            catalogue::delete_named(&s, &u, $kind, id).await?;
            Ok(Json(Message { message: Msg::Deleted }))
        }
    };
}

list_named!(list_sectors, NamedKind::KnowledgeSector, "/api/knowledge/sector/list/", [" Knowledge sectors (any signed-in user)."], 401);
create_named!(create_sector, NamedKind::KnowledgeSector, "/api/knowledge/sector/", [" Create a knowledge sector (admin)."]);
update_named!(update_sector, NamedKind::KnowledgeSector, "/api/knowledge/sector/{id}/", [" Rename a knowledge sector (admin)."]);
delete_named!(delete_sector, NamedKind::KnowledgeSector, "/api/knowledge/sector/{id}/", [" Delete a knowledge sector (admin)."], 403, 404);

list_named!(list_case_types, NamedKind::CaseType, "/api/typeofcase/list/", [" Case types (any signed-in user)."], 401);
create_named!(create_case_type, NamedKind::CaseType, "/api/typeofcase/", [" Create a case type (admin)."]);
update_named!(update_case_type, NamedKind::CaseType, "/api/typeofcase/{id}/", [" Rename a case type (admin)."]);
delete_named!(delete_case_type, NamedKind::CaseType, "/api/typeofcase/{id}/", [" Delete a case type (admin)."], 403, 404);

// ---------------------------------------------------------- departments ----

list_named!(list_departments, NamedKind::Department, "/api/customer/department/", [" Departments (staff)."], 403);
create_named!(create_department, NamedKind::Department, "/api/customer/department/", [" Create a department (admin)."]);
update_named!(update_department, NamedKind::Department, "/api/customer/department/{id}/", [" Rename a department (admin)."]);
delete_named!(
    delete_department,
    NamedKind::Department,
    "/api/customer/department/{id}/",
    [" Delete a department (admin); one customers are connected to is refused", " with `department_in_use`."],
    400,
    403,
    404
);

/// One department (staff), for the edit screen.
#[utoipa::path(get, path = "/api/customer/department/{id}/", tag = "catalogue", security(("bearer" = [])),
    params(("id" = u64, Path)),
    responses((status = 200, body = NamedEntry), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_department(Caller(s, u): Caller, ApiPath(id): ApiPath<String>) -> Result<Json<NamedEntry>, ApiError> {
    let id = path_id(&id)?;
    Ok(Json(catalogue::named_entry(&s, &u, NamedKind::Department, id).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"customer_uid": "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a00", "department_id": 1}))]
pub struct ConnectDepartment {
    #[serde(default)]
    #[schema(required = true, min_length = 1, format = "uuid")]
    pub customer_uid: String,
    #[serde(default)]
    #[schema(required = true, minimum = 1)]
    pub department_id: u64,
}

/// Connect a customer to a department (admin).
#[utoipa::path(post, path = "/api/customer/customer-department/", tag = "catalogue", security(("bearer" = [])), request_body = ConnectDepartment,
    responses((status = 200, body = Message), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn connect_department(Caller(s, u): Caller, ApiJson(req): ApiJson<ConnectDepartment>) -> Result<Json<Message>, ApiError> {
    catalogue::connect_department(&s, &u, &req.customer_uid, req.department_id).await?;
    Ok(Json(Message { message: Msg::DepartmentConnected }))
}

/// Company-size bands (see `COMPANY_SIZES` for the reading chosen).
#[utoipa::path(get, path = "/api/company-size/list/", tag = "catalogue",
    responses((status = 200, body = [CompanySize])))]
async fn company_sizes() -> Json<Vec<CompanySize>> {
    Json(COMPANY_SIZES.to_vec())
}

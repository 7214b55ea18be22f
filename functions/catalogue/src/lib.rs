//! Catalogue endpoints: packages, service plans, the fixed services,
//! knowledge sectors, case types, departments (and a customer's department)
//! and company-size bands. Only admin changes the catalogue (spec §6).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use shared::api::{ApiJson, AppState, CurrentUser, ErrorBody};
use shared::domain::catalogue::{
    self, count_field, decimal_field, CompanySize, NamedEntry, Package, Service, ServicePlan, COMPANY_SIZES, SERVICES,
};
use shared::domain::{Role, User};
use shared::error::Msg;
use shared::error::{ApiError, FieldErrors};
use shared::store::catalogue::NamedKind;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_packages, create_package))
        .routes(routes!(list_packages_alias))
        .routes(routes!(list_plans, create_plan))
        .routes(routes!(list_plans_alias))
        .routes(routes!(list_services))
        .routes(routes!(list_sectors))
        .routes(routes!(create_sector))
        .routes(routes!(update_sector, delete_sector))
        .routes(routes!(list_case_types))
        .routes(routes!(create_case_type))
        .routes(routes!(update_case_type, delete_case_type))
        .routes(routes!(list_departments, create_department))
        .routes(routes!(get_department, update_department))
        .routes(routes!(connect_department))
        .routes(routes!(company_sizes))
}

fn admin(u: &User) -> Result<(), ApiError> {
    if u.role() == Some(Role::Admin) {
        Ok(())
    } else {
        Err(ApiError::Forbidden)
    }
}

fn staff(u: &User) -> Result<(), ApiError> {
    match u.role() {
        Some(Role::Admin | Role::SalesPerson | Role::Lawyer) => Ok(()),
        _ => Err(ApiError::Forbidden),
    }
}

/// Ids in paths are numbers; anything else names nothing (404).
fn path_id(raw: &str) -> Result<u64, ApiError> {
    raw.parse().map_err(|_| ApiError::NotFound)
}

fn check(p: FieldErrors) -> Result<(), ApiError> {
    if p.is_empty() {
        Ok(())
    } else {
        Err(ApiError::validation(p))
    }
}

/// Customers and contacts see only public entries; staff see all.
fn sees_all(u: &User) -> bool {
    matches!(u.role(), Some(Role::Admin | Role::SalesPerson | Role::Lawyer))
}

// ------------------------------------------------------------ packages ----

#[derive(Deserialize, ToSchema)]
pub struct NewPackage {
    #[serde(default)]
    pub name: String,
    /// Number or text with comma decimal.
    #[schema(value_type = Option<f64>)]
    pub hours: Option<Value>,
    #[schema(value_type = Option<f64>)]
    pub price: Option<Value>,
    #[schema(value_type = Option<u32>)]
    pub duration_days: Option<Value>,
    #[serde(default)]
    pub public: bool,
}

async fn packages_for(s: &AppState, u: &User) -> Result<Vec<Package>, ApiError> {
    let all = s.store.list_packages().await?;
    Ok(if sees_all(u) { all } else { all.into_iter().filter(|p| p.public).collect() })
}

/// Packages (customers: only the public ones), oldest first.
#[utoipa::path(get, path = "/api/packages/", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = [Package]), (status = 401, body = ErrorBody)))]
async fn list_packages(State(s): State<AppState>, CurrentUser(u): CurrentUser) -> Result<Json<Vec<Package>>, ApiError> {
    Ok(Json(packages_for(&s, &u).await?))
}

/// Same list as `GET packages/`.
#[utoipa::path(get, path = "/api/packages/list/", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = [Package]), (status = 401, body = ErrorBody)))]
async fn list_packages_alias(State(s): State<AppState>, CurrentUser(u): CurrentUser) -> Result<Json<Vec<Package>>, ApiError> {
    Ok(Json(packages_for(&s, &u).await?))
}

/// Create a package (admin only). Hours and price above 0, duration in days.
#[utoipa::path(post, path = "/api/packages/", tag = "catalogue", security(("bearer" = [])), request_body = NewPackage,
    responses((status = 201, body = Package), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn create_package(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<NewPackage>,
) -> Result<(StatusCode, Json<Package>), ApiError> {
    admin(&u)?;
    let mut p = FieldErrors::new();
    let hours = decimal_field(req.hours.as_ref()).unwrap_or_else(|_| {
        p.add("hours", Msg::InvalidNumber);
        None
    });
    let price = decimal_field(req.price.as_ref()).unwrap_or_else(|_| {
        p.add("price", Msg::InvalidPrice);
        None
    });
    let days = count_field(req.duration_days.as_ref()).unwrap_or_else(|_| {
        p.add("duration_days", Msg::InvalidDuration);
        None
    });
    if p.is_empty() {
        p = catalogue::validate_package(&req.name, hours.unwrap_or_default(), price.unwrap_or_default(), days.unwrap_or(0));
    }
    check(p)?;
    let pkg = Package {
        id: s.store.next_id("package").await?,
        name: req.name.trim().to_string(),
        hours: hours.unwrap_or_default(),
        price: price.unwrap_or_default(),
        duration_days: days.unwrap_or(0),
        public: req.public,
        created_at: chrono::Utc::now(),
    };
    s.store.create_package(&pkg).await?;
    Ok((StatusCode::CREATED, Json(pkg)))
}

// ------------------------------------------------------- service plans ----

#[derive(Deserialize, ToSchema)]
pub struct NewServicePlan {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub service_id: u8,
    #[schema(value_type = Option<u32>)]
    pub limit: Option<Value>,
    #[schema(value_type = Option<f64>)]
    pub hours: Option<Value>,
    #[schema(value_type = Option<f64>)]
    pub price: Option<Value>,
    #[schema(value_type = Option<u32>)]
    pub expiry_days: Option<Value>,
    #[serde(default)]
    pub public: bool,
}

async fn plans_for(s: &AppState, u: &User) -> Result<Vec<ServicePlan>, ApiError> {
    let all = s.store.list_service_plans().await?;
    Ok(if sees_all(u) { all } else { all.into_iter().filter(|p| p.public).collect() })
}

/// Service plans (customers: only the public ones).
#[utoipa::path(get, path = "/api/serviceplans/", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = [ServicePlan]), (status = 401, body = ErrorBody)))]
async fn list_plans(State(s): State<AppState>, CurrentUser(u): CurrentUser) -> Result<Json<Vec<ServicePlan>>, ApiError> {
    Ok(Json(plans_for(&s, &u).await?))
}

/// Same list as `GET serviceplans/`.
#[utoipa::path(get, path = "/api/serviceplans/list/", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = [ServicePlan]), (status = 401, body = ErrorBody)))]
async fn list_plans_alias(State(s): State<AppState>, CurrentUser(u): CurrentUser) -> Result<Json<Vec<ServicePlan>>, ApiError> {
    Ok(Json(plans_for(&s, &u).await?))
}

/// Create a service plan (admin only): a limit for limited services, hours for service 1.
#[utoipa::path(post, path = "/api/serviceplans/", tag = "catalogue", security(("bearer" = [])), request_body = NewServicePlan,
    responses((status = 201, body = ServicePlan), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn create_plan(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<NewServicePlan>,
) -> Result<(StatusCode, Json<ServicePlan>), ApiError> {
    admin(&u)?;
    let mut p = FieldErrors::new();
    let limit = count_field(req.limit.as_ref()).unwrap_or_else(|_| {
        p.add("limit", Msg::LimitAboveZero);
        None
    });
    let hours = decimal_field(req.hours.as_ref()).unwrap_or_else(|_| {
        p.add("hours", Msg::InvalidNumber);
        None
    });
    let price = decimal_field(req.price.as_ref()).unwrap_or_else(|_| {
        p.add("price", Msg::InvalidPrice);
        None
    });
    let days = count_field(req.expiry_days.as_ref()).unwrap_or_else(|_| {
        p.add("expiry_days", Msg::InvalidDuration);
        None
    });
    if price.is_none() && !p.has("price") {
        p.add("price", Msg::Required);
    }
    if p.is_empty() {
        p = catalogue::validate_service_plan(&req.name, req.service_id, limit, hours, price.unwrap_or_default(), days.unwrap_or(0));
    }
    check(p)?;
    let hour_based = catalogue::service(req.service_id).is_some_and(|x| x.hour_based);
    let plan = ServicePlan {
        id: s.store.next_id("service_plan").await?,
        name: req.name.trim().to_string(),
        service_id: req.service_id,
        limit: if hour_based { None } else { limit },
        hours: if hour_based { hours } else { None },
        price: price.unwrap_or_default(),
        expiry_days: days.unwrap_or(0),
        public: req.public,
        created_at: chrono::Utc::now(),
    };
    s.store.create_service_plan(&plan).await?;
    Ok((StatusCode::CREATED, Json(plan)))
}

/// The fixed services (id 1 hour-based consultancy, id 2 Verified, ...).
#[utoipa::path(get, path = "/api/services/", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = [Service]), (status = 401, body = ErrorBody)))]
async fn list_services(CurrentUser(_u): CurrentUser) -> Json<Vec<Service>> {
    Json(SERVICES.to_vec())
}

// ------------------------------------------------------- named lists ----

#[derive(Deserialize, ToSchema)]
pub struct NamedRequest {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
}

fn named_valid(req: &NamedRequest) -> Result<(), ApiError> {
    let mut p = FieldErrors::new();
    if req.name.trim().is_empty() {
        p.add("name", Msg::Required);
    } else if req.name.trim().chars().count() > 200 {
        p.add("name", Msg::TooLong);
    }
    check(p)
}

async fn named_create(s: &AppState, u: &User, kind: NamedKind, req: NamedRequest) -> Result<(StatusCode, Json<NamedEntry>), ApiError> {
    admin(u)?;
    named_valid(&req)?;
    Ok((StatusCode::CREATED, Json(s.store.create_named(kind, &req.name, &req.description).await?)))
}

async fn named_update(s: &AppState, u: &User, kind: NamedKind, id: u64, req: NamedRequest) -> Result<Json<NamedEntry>, ApiError> {
    admin(u)?;
    named_valid(&req)?;
    Ok(Json(s.store.update_named(kind, id, &req.name, &req.description).await?))
}

#[derive(Serialize, ToSchema)]
pub struct Message {
    pub message: Msg,
}

/// Knowledge sectors (any signed-in user).
#[utoipa::path(get, path = "/api/knowledge/sector/list/", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = [NamedEntry]), (status = 401, body = ErrorBody)))]
async fn list_sectors(State(s): State<AppState>, CurrentUser(_u): CurrentUser) -> Result<Json<Vec<NamedEntry>>, ApiError> {
    Ok(Json(s.store.list_named(NamedKind::KnowledgeSector).await?))
}

/// Create a knowledge sector (admin).
#[utoipa::path(post, path = "/api/knowledge/sector/", tag = "catalogue", security(("bearer" = [])), request_body = NamedRequest,
    responses((status = 201, body = NamedEntry), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn create_sector(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<NamedRequest>,
) -> Result<(StatusCode, Json<NamedEntry>), ApiError> {
    named_create(&s, &u, NamedKind::KnowledgeSector, req).await
}

/// Rename a knowledge sector (admin).
#[utoipa::path(put, path = "/api/knowledge/sector/{id}/", tag = "catalogue", security(("bearer" = [])), request_body = NamedRequest,
    params(("id" = u64, Path)),
    responses((status = 200, body = NamedEntry), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn update_sector(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<NamedRequest>,
) -> Result<Json<NamedEntry>, ApiError> {
    let id = path_id(&id)?;
    named_update(&s, &u, NamedKind::KnowledgeSector, id, req).await
}

/// Delete a knowledge sector (admin).
#[utoipa::path(delete, path = "/api/knowledge/sector/{id}/", tag = "catalogue", security(("bearer" = [])),
    params(("id" = u64, Path)),
    responses((status = 200, body = Message), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_sector(State(s): State<AppState>, CurrentUser(u): CurrentUser, Path(id): Path<String>) -> Result<Json<Message>, ApiError> {
    let id = path_id(&id)?;
    admin(&u)?;
    s.store.delete_named(NamedKind::KnowledgeSector, id).await?;
    Ok(Json(Message { message: Msg::Deleted }))
}

/// Case types (any signed-in user).
#[utoipa::path(get, path = "/api/typeofcase/list/", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = [NamedEntry]), (status = 401, body = ErrorBody)))]
async fn list_case_types(State(s): State<AppState>, CurrentUser(_u): CurrentUser) -> Result<Json<Vec<NamedEntry>>, ApiError> {
    Ok(Json(s.store.list_named(NamedKind::CaseType).await?))
}

/// Create a case type (admin).
#[utoipa::path(post, path = "/api/typeofcase/", tag = "catalogue", security(("bearer" = [])), request_body = NamedRequest,
    responses((status = 201, body = NamedEntry), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn create_case_type(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<NamedRequest>,
) -> Result<(StatusCode, Json<NamedEntry>), ApiError> {
    named_create(&s, &u, NamedKind::CaseType, req).await
}

/// Rename a case type (admin).
#[utoipa::path(put, path = "/api/typeofcase/{id}/", tag = "catalogue", security(("bearer" = [])), request_body = NamedRequest,
    params(("id" = u64, Path)),
    responses((status = 200, body = NamedEntry), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn update_case_type(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<NamedRequest>,
) -> Result<Json<NamedEntry>, ApiError> {
    let id = path_id(&id)?;
    named_update(&s, &u, NamedKind::CaseType, id, req).await
}

/// Delete a case type (admin).
#[utoipa::path(delete, path = "/api/typeofcase/{id}/", tag = "catalogue", security(("bearer" = [])),
    params(("id" = u64, Path)),
    responses((status = 200, body = Message), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_case_type(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<Message>, ApiError> {
    let id = path_id(&id)?;
    admin(&u)?;
    s.store.delete_named(NamedKind::CaseType, id).await?;
    Ok(Json(Message { message: Msg::Deleted }))
}

// ---------------------------------------------------------- departments ----

/// Departments (staff).
#[utoipa::path(get, path = "/api/customer/department/", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = [NamedEntry]), (status = 403, body = ErrorBody)))]
async fn list_departments(State(s): State<AppState>, CurrentUser(u): CurrentUser) -> Result<Json<Vec<NamedEntry>>, ApiError> {
    staff(&u)?;
    Ok(Json(s.store.list_named(NamedKind::Department).await?))
}

/// Create a department (admin).
#[utoipa::path(post, path = "/api/customer/department/", tag = "catalogue", security(("bearer" = [])), request_body = NamedRequest,
    responses((status = 201, body = NamedEntry), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn create_department(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<NamedRequest>,
) -> Result<(StatusCode, Json<NamedEntry>), ApiError> {
    named_create(&s, &u, NamedKind::Department, req).await
}

/// One department (staff), for the edit screen.
#[utoipa::path(get, path = "/api/customer/department/{id}/", tag = "catalogue", security(("bearer" = [])),
    params(("id" = u64, Path)),
    responses((status = 200, body = NamedEntry), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_department(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<NamedEntry>, ApiError> {
    let id = path_id(&id)?;
    staff(&u)?;
    Ok(Json(s.store.get_named(NamedKind::Department, id).await?.ok_or(ApiError::NotFound)?))
}

/// Rename a department (admin).
#[utoipa::path(put, path = "/api/customer/department/{id}/", tag = "catalogue", security(("bearer" = [])), request_body = NamedRequest,
    params(("id" = u64, Path)),
    responses((status = 200, body = NamedEntry), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn update_department(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<NamedRequest>,
) -> Result<Json<NamedEntry>, ApiError> {
    let id = path_id(&id)?;
    named_update(&s, &u, NamedKind::Department, id, req).await
}

#[derive(Deserialize, ToSchema)]
pub struct ConnectDepartment {
    #[serde(default)]
    pub customer_uid: String,
    #[serde(default)]
    pub department_id: u64,
}

/// Connect a customer to a department (admin).
#[utoipa::path(post, path = "/api/customer/customer-department/", tag = "catalogue", security(("bearer" = [])), request_body = ConnectDepartment,
    responses((status = 200, body = Message), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn connect_department(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<ConnectDepartment>,
) -> Result<Json<Message>, ApiError> {
    admin(&u)?;
    let mut p = FieldErrors::new();
    if req.customer_uid.trim().is_empty() {
        p.add("customer_uid", Msg::Required);
    }
    if req.department_id == 0 {
        p.add("department_id", Msg::Required);
    }
    check(p)?;
    let customer = s.store.get_user(req.customer_uid.trim()).await?;
    if customer.and_then(|c| c.role()) != Some(Role::Customer) {
        return Err(ApiError::NotFound);
    }
    if s.store.get_named(NamedKind::Department, req.department_id).await?.is_none() {
        return Err(ApiError::NotFound);
    }
    s.store.connect_customer_department(req.customer_uid.trim(), req.department_id).await?;
    Ok(Json(Message { message: Msg::DepartmentConnected }))
}

/// Company-size bands (see `COMPANY_SIZES` for the reading chosen).
#[utoipa::path(get, path = "/api/company-size/list/", tag = "catalogue",
    responses((status = 200, body = [CompanySize])))]
async fn company_sizes() -> Json<Vec<CompanySize>> {
    Json(COMPANY_SIZES.to_vec())
}

//! Subscriptions: customers buying packages and service plans, staff adding
//! them to a customer, the customer's subscription rows (`customer/{uid}/`)
//! and the row actions of the subscriptions table (change service, automatic
//! update date, activate, delete, CSV time report). The rules live in
//! `shared::domain::subscription`; this crate parses, checks who may act and
//! maps errors.

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::{NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use shared::api::{ApiJson, AppState, CurrentUser, ErrorBody};
use shared::domain::catalogue::{count_field, decimal_field, validate_package};
use shared::domain::subscription::{self, parse_date, Grant, RowView};
use shared::domain::{Role, User};
use shared::error::Msg;
use shared::error::{ApiError, FieldErrors};
use shared::store::subscriptions::StoredRow;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(customer_services))
        .routes(routes!(buy_package))
        .routes(routes!(buy_service_plan))
        .routes(routes!(add_to_customer))
        .routes(routes!(change_service))
        .routes(routes!(auto_update))
        .routes(routes!(activate))
        .routes(routes!(delete_row))
        .routes(routes!(time_report))
}

fn now() -> NaiveDateTime {
    Utc::now().naive_utc()
}

#[derive(Serialize, ToSchema)]
pub struct Message {
    pub message: Msg,
}

/// Ids in paths are numbers; anything else names nothing (404).
fn path_id(raw: &str) -> Result<u64, ApiError> {
    raw.parse().map_err(|_| ApiError::NotFound)
}

/// Admin and sales persons manage a customer's subscriptions (spec §6).
fn manager(u: &User) -> Result<(), ApiError> {
    match u.role() {
        Some(Role::Admin | Role::SalesPerson) => Ok(()),
        _ => Err(ApiError::Forbidden),
    }
}

fn check(p: FieldErrors) -> Result<(), ApiError> {
    if p.is_empty() {
        Ok(())
    } else {
        Err(ApiError::validation(p))
    }
}

/// The customer behind a uid: a user of the customer role, else 404.
async fn customer(s: &AppState, uid: &str) -> Result<User, ApiError> {
    match s.store.get_user(uid).await? {
        Some(u) if u.role() == Some(Role::Customer) => Ok(u),
        _ => Err(ApiError::NotFound),
    }
}

async fn row(s: &AppState, raw_id: &str) -> Result<StoredRow, ApiError> {
    s.store.get_purchase(path_id(raw_id)?).await?.ok_or(ApiError::NotFound)
}

// ---------------------------------------------------- customer/{uid}/ ----

#[derive(Serialize, ToSchema)]
pub struct CustomerServices {
    pub purchased_services: Vec<RowView>,
    pub bisnode_account_active: bool,
    pub bisnode_account: Option<String>,
}

/// A customer's subscription rows (with `status` computed here, spec §4)
/// and Bisnode account. Staff, the customer and its contacts may read it.
#[utoipa::path(get, path = "/api/customer/{uid}/", tag = "subscriptions", security(("bearer" = [])),
    params(("uid" = String, Path, description = "The customer's uid")),
    responses((status = 200, body = CustomerServices), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn customer_services(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(uid): Path<String>,
) -> Result<Json<CustomerServices>, ApiError> {
    let allowed = match u.role() {
        Some(Role::Admin | Role::SalesPerson | Role::Lawyer) => true,
        Some(Role::Customer) => u.uid == uid,
        Some(Role::CustomerContact) => u.customer_id.as_deref() == Some(uid.as_str()),
        None => false,
    };
    if !allowed {
        return Err(ApiError::Forbidden);
    }
    customer(&s, &uid).await?;
    let at = now();
    let rows = s.store.list_purchases(&uid).await?;
    let (active, account) = s.store.bisnode_account(&uid).await?;
    Ok(Json(CustomerServices {
        purchased_services: rows.into_iter().map(|r| r.view(at)).collect(),
        bisnode_account_active: active,
        bisnode_account: account,
    }))
}

// ---------------------------------------------------------- purchases ----

#[derive(Deserialize, ToSchema)]
pub struct BuyPackage {
    #[serde(default)]
    pub package_id: u64,
}

#[derive(Deserialize, ToSchema)]
pub struct BuyServicePlan {
    #[serde(default)]
    pub service_plan_id: u64,
}

fn customer_only(u: &User) -> Result<(), ApiError> {
    if u.role() == Some(Role::Customer) {
        Ok(())
    } else {
        Err(ApiError::Forbidden)
    }
}

/// The customer buys a public package: a consultancy-hours row.
#[utoipa::path(post, path = "/api/subscription/packages/", tag = "subscriptions", security(("bearer" = [])), request_body = BuyPackage,
    responses((status = 201, body = RowView), (status = 400, description = "active_and_advance_subscription", body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn buy_package(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<BuyPackage>,
) -> Result<(StatusCode, Json<RowView>), ApiError> {
    customer_only(&u)?;
    let pkg = s.store.get_package(req.package_id).await?.filter(|p| p.public).ok_or(ApiError::NotFound)?;
    let at = now();
    let row = s.store.purchase(&u.uid, &Grant::from_package(&pkg), at).await?;
    Ok((StatusCode::CREATED, Json(row.view(at))))
}

/// The customer buys a public service plan.
#[utoipa::path(post, path = "/api/subscription/serviceplans/", tag = "subscriptions", security(("bearer" = [])), request_body = BuyServicePlan,
    responses((status = 201, body = RowView), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn buy_service_plan(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<BuyServicePlan>,
) -> Result<(StatusCode, Json<RowView>), ApiError> {
    customer_only(&u)?;
    let plan = s.store.get_service_plan(req.service_plan_id).await?.filter(|p| p.public).ok_or(ApiError::NotFound)?;
    let at = now();
    let row = s.store.purchase(&u.uid, &Grant::from_plan(&plan), at).await?;
    Ok((StatusCode::CREATED, Json(row.view(at))))
}

#[derive(Deserialize, ToSchema)]
pub struct AddToCustomer {
    #[serde(default)]
    pub customer_uid: String,
    /// A catalogue package (public or not).
    pub package_id: Option<u64>,
    /// A catalogue service plan.
    pub service_plan_id: Option<u64>,
    /// A custom package (admin only): hours and price above 0.
    #[serde(default)]
    pub custom: bool,
    #[serde(default)]
    pub name: String,
    #[schema(value_type = Option<f64>)]
    pub hours: Option<Value>,
    #[schema(value_type = Option<f64>)]
    pub price: Option<Value>,
    #[schema(value_type = Option<u32>)]
    pub duration_days: Option<Value>,
}

/// Admin or a sales person adds a package, a service plan or (admin only)
/// a custom package to a customer.
#[utoipa::path(post, path = "/api/customer/purchase-services/", tag = "subscriptions", security(("bearer" = [])), request_body = AddToCustomer,
    responses((status = 201, body = RowView), (status = 400, description = "custom_package_value_positive, active_and_advance_subscription", body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn add_to_customer(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<AddToCustomer>,
) -> Result<(StatusCode, Json<RowView>), ApiError> {
    manager(&u)?;
    if req.custom && u.role() != Some(Role::Admin) {
        // Spec §6: only admin creates manual packages.
        return Err(ApiError::Forbidden);
    }
    let mut p = FieldErrors::new();
    if req.customer_uid.trim().is_empty() {
        p.add("customer_uid", Msg::Required);
    }
    let chosen = [req.package_id.is_some(), req.service_plan_id.is_some(), req.custom].iter().filter(|x| **x).count();
    if chosen != 1 {
        p.add("package_id", Msg::ChoosePackageOrPlan);
    }
    check(p)?;
    let grant = if req.custom {
        let mut p = FieldErrors::new();
        let hours = decimal_field(req.hours.as_ref()).unwrap_or_else(|_| {
            p.add("hours", Msg::CustomPackageValuePositive);
            None
        });
        let price = decimal_field(req.price.as_ref()).unwrap_or_else(|_| {
            p.add("price", Msg::CustomPackageValuePositive);
            None
        });
        let days = count_field(req.duration_days.as_ref()).unwrap_or_else(|_| {
            p.add("duration_days", Msg::InvalidDuration);
            None
        });
        check(p)?;
        let name = if req.name.trim().is_empty() { "Custom package" } else { req.name.trim() };
        let problems = validate_package(name, hours.unwrap_or_default(), price.unwrap_or_default(), days.unwrap_or(0));
        if problems.has("hours") || problems.has("price") {
            // The spec's one message for a custom package at or below 0.
            return Err(ApiError::BadRequest { message: Msg::CustomPackageValuePositive, fields: problems });
        }
        check(problems)?;
        Grant::custom(name, hours.unwrap_or_default(), days.unwrap_or(0))
    } else if let Some(id) = req.package_id {
        Grant::from_package(&s.store.get_package(id).await?.ok_or(ApiError::NotFound)?)
    } else {
        let id = req.service_plan_id.unwrap_or_default();
        Grant::from_plan(&s.store.get_service_plan(id).await?.ok_or(ApiError::NotFound)?)
    };
    let c = customer(&s, req.customer_uid.trim()).await?;
    let at = now();
    let row = s.store.purchase(&c.uid, &grant, at).await?;
    Ok((StatusCode::CREATED, Json(row.view(at))))
}

// ---------------------------------------------------------- row actions ----

#[derive(Deserialize, ToSchema)]
pub struct ChangeService {
    /// 'YYYY-MM-DD HH:mm:ss'
    pub start_date: Option<String>,
    /// 'YYYY-MM-DD HH:mm:ss'
    pub expire_on: Option<String>,
    /// Service 1 only; at least 0.01; number or text with comma decimal.
    #[schema(value_type = Option<f64>)]
    pub hour: Option<Value>,
}

/// Change service (spec §5): start and expire dates, hours for service 1.
#[utoipa::path(patch, path = "/api/puchasedservices/{id}/", tag = "subscriptions", security(("bearer" = [])), request_body = ChangeService,
    params(("id" = u64, Path)),
    responses((status = 200, description = "service_updated", body = RowView), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn change_service(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<ChangeService>,
) -> Result<Json<Value>, ApiError> {
    manager(&u)?;
    let stored = row(&s, &id).await?;
    let hour = match decimal_field(req.hour.as_ref()) {
        Ok(h) => h,
        Err(_) => return Err(ApiError::field("hour", subscription::HOUR_MIN)),
    };
    let at = now();
    let next = subscription::change_service(&stored.row, req.start_date.as_deref(), req.expire_on.as_deref(), hour, at)
        .map_err(ApiError::validation)?;
    s.store.save_purchase(&next, stored.rev).await?;
    Ok(Json(serde_json::json!({ "message": Msg::ServiceUpdated, "row": next.view(at) })))
}

#[derive(Deserialize, ToSchema)]
pub struct AutoUpdate {
    /// 'YYYY-MM-DD' or null to clear.
    pub auto_update_date_end: Option<String>,
}

/// Set or clear the automatic update date; only for a row without a child.
#[utoipa::path(put, path = "/api/services/update/auto/{id}/", tag = "subscriptions", security(("bearer" = [])), request_body = AutoUpdate,
    params(("id" = u64, Path)),
    responses((status = 200, description = "date_changed", body = Message), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn auto_update(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<AutoUpdate>,
) -> Result<Json<Message>, ApiError> {
    manager(&u)?;
    let stored = row(&s, &id).await?;
    if !stored.row.can_edit_auto_update() {
        return Err(ApiError::bad(Msg::ServiceAlreadyRenewed));
    }
    let date = match req.auto_update_date_end.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        None => None,
        Some(t) => Some(parse_date(t).ok_or_else(|| {
            let mut p = FieldErrors::new();
            p.add("auto_update_date_end", Msg::InvalidDate);
            ApiError::validation(p)
        })?),
    };
    let mut next = stored.row.clone();
    next.auto_update_date_end = date;
    next.updated_at = now();
    s.store.save_purchase(&next, stored.rev).await?;
    Ok(Json(Message { message: Msg::DateChanged }))
}

/// Activate a row; offered only when its hours are below the consumed hours.
#[utoipa::path(put, path = "/api/customer/purchase-services/activate/{id}/", tag = "subscriptions", security(("bearer" = [])),
    params(("id" = u64, Path)),
    responses((status = 200, description = "service_activated", body = Message), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn activate(State(s): State<AppState>, CurrentUser(u): CurrentUser, Path(id): Path<String>) -> Result<Json<Message>, ApiError> {
    manager(&u)?;
    let stored = row(&s, &id).await?;
    if !stored.row.can_activate() {
        return Err(ApiError::bad(Msg::ServiceActivationFailed));
    }
    let mut next = stored.row.clone();
    next.active = true;
    next.updated_at = now();
    s.store.save_purchase(&next, stored.rev).await?;
    Ok(Json(Message { message: Msg::ServiceActivated }))
}

/// Delete a row (after the web's confirmation).
#[utoipa::path(delete, path = "/api/customer/purchase-services/delete/{id}/", tag = "subscriptions", security(("bearer" = [])),
    params(("id" = u64, Path)),
    responses((status = 200, description = "service_deleted", body = Message), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_row(State(s): State<AppState>, CurrentUser(u): CurrentUser, Path(id): Path<String>) -> Result<Json<Message>, ApiError> {
    manager(&u)?;
    let stored = row(&s, &id).await?;
    s.store.delete_purchase(&stored.row).await?;
    Ok(Json(Message { message: Msg::ServiceDeleted }))
}

#[derive(Deserialize, utoipa::IntoParams)]
pub struct ReportRange {
    /// YYYY-MM-DD
    pub start_date: Option<String>,
    /// YYYY-MM-DD
    pub end_date: Option<String>,
}

/// Keeps a file name to letters, digits, space, dot, dash and underscore.
fn file_name(name: &str) -> String {
    let clean: String = name.chars().map(|c| if c.is_alphanumeric() || " ._-".contains(c) { c } else { '_' }).collect();
    let clean = clean.trim();
    if clean.is_empty() {
        "services".into()
    } else {
        clean.to_string()
    }
}

/// CSV time report of a row: the case hours (uses) booked against it in a
/// date range, saved under the plan's, package's or service's name.
#[utoipa::path(get, path = "/api/customer/purchase-services/{id}/excel/", tag = "subscriptions", security(("bearer" = [])),
    params(("id" = u64, Path), ReportRange),
    responses((status = 200, content_type = "text/csv", body = String), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn time_report(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(id): Path<String>,
    Query(range): Query<ReportRange>,
) -> Result<Response, ApiError> {
    if !matches!(u.role(), Some(Role::Admin | Role::SalesPerson | Role::Lawyer)) {
        return Err(ApiError::Forbidden);
    }
    let mut p = FieldErrors::new();
    let from = match range.start_date.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        None => {
            p.add("start_date", Msg::StartDateRequired);
            None
        }
        Some(t) => parse_date(t).or_else(|| {
            p.add("start_date", Msg::InvalidDate);
            None
        }),
    };
    let to = match range.end_date.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        None => {
            p.add("end_date", Msg::EndDateRequired);
            None
        }
        Some(t) => parse_date(t).or_else(|| {
            p.add("end_date", Msg::InvalidDate);
            None
        }),
    };
    if let (Some(f), Some(t)) = (from, to) {
        if t < f {
            p.add("end_date", Msg::EndBeforeStart);
        }
    }
    check(p)?;
    let (from, to) = (from.expect("checked"), to.expect("checked"));
    let stored = row(&s, &id).await?;
    let entries = s.store.list_usage(stored.row.id, from, to).await?;
    let mut w = csv::Writer::from_writer(Vec::new());
    let hour_based = stored.row.is_hour_based();
    let unit = if hour_based { "Hours" } else { "Uses" };
    let mut total_hours = shared::domain::catalogue::Hundredths::ZERO;
    let mut total_count = 0u32;
    let csv_err = |e: csv::Error| ApiError::internal(e);
    w.write_record(["Date", "Case", "Description", "Lawyer", unit]).map_err(csv_err)?;
    for e in &entries {
        total_hours = total_hours + e.hours;
        total_count += e.count;
        let amount = if hour_based { e.hours.to_decimal_string() } else { e.count.to_string() };
        w.write_record([
            e.date.format("%Y-%m-%d").to_string(),
            e.case_uid.clone().unwrap_or_default(),
            e.description.clone(),
            e.lawyer.clone(),
            amount,
        ])
        .map_err(csv_err)?;
    }
    let total = if hour_based { total_hours.to_decimal_string() } else { total_count.to_string() };
    w.write_record(["Total", "", "", "", total.as_str()]).map_err(csv_err)?;
    let body = w.into_inner().map_err(|e| ApiError::internal(e.to_string()))?;
    let name = stored
        .row
        .service_plan
        .as_ref()
        .map(|p| p.name.clone())
        .or_else(|| stored.row.packages.as_ref().map(|p| p.name.clone()))
        .unwrap_or_else(|| stored.row.service.name.clone());
    let disposition = format!("attachment; filename=\"{}.csv\"", file_name(&name));
    Ok(([(header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()), (header::CONTENT_DISPOSITION, disposition)], body).into_response())
}

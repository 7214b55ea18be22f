//! Subscriptions: customers buying packages and service plans, staff adding
//! them to a customer, the customer's subscription rows (`customer/{uid}/`)
//! and the row actions of the subscriptions table (change service, automatic
//! update date, activate, delete, CSV time report). The use cases are
//! `shared::services::subscriptions`, the rules `shared::domain::subscription`;
//! this crate parses, calls and answers.

use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use shared::api::{ApiJson, ApiPath, ApiQuery, AppState, Caller, Created, Creating, ErrorBody, Idempotency};
use shared::domain::customer::CustomerType;
pub use shared::domain::subscription::{AddToCustomer, ChangeService};
use shared::domain::subscription::{RowView, TimeReport};
use shared::error::{ApiError, Msg};
use shared::services::subscriptions;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(customer_services))
        .routes(routes!(buy_package))
        .routes(routes!(buy_service_plan))
        .routes(routes!(add_to_customer))
        .routes(routes!(own_services))
        .routes(routes!(bisnode_login))
        .routes(routes!(add_service_alias))
        .routes(routes!(change_service))
        .routes(routes!(auto_update))
        .routes(routes!(activate))
        .routes(routes!(delete_row))
        .routes(routes!(time_report))
}

/// A plain acknowledgement with a translatable message key.
#[derive(Serialize, ToSchema)]
pub struct Message {
    pub message: Msg,
}

// ---------------------------------------------------- customer/{uid}/ ----

#[derive(Serialize, ToSchema)]
pub struct CustomerServices {
    pub purchased_services: Vec<RowView>,
    pub bisnode_account_active: bool,
    pub bisnode_account: Option<String>,
    /// `Company` or `Individual` (the customer side words its pages for a
    /// company or a person); absent when the customer has no profile.
    pub customer_type: Option<CustomerType>,
}

/// A customer's subscription rows (with `status` computed here, spec §4)
/// and Bisnode account. Staff, the customer and its contacts may read it.
#[utoipa::path(get, path = "/api/customer/{uid}/", tag = "subscriptions", security(("bearer" = [])),
    params(("uid" = String, Path, description = "The customer's uid")),
    responses((status = 200, body = CustomerServices), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn customer_services(Caller(s, u): Caller, ApiPath(uid): ApiPath<String>) -> Result<Json<CustomerServices>, ApiError> {
    let found = subscriptions::customer_services(&s, &u, &uid).await?;
    Ok(Json(CustomerServices {
        purchased_services: found.rows,
        bisnode_account_active: found.bisnode_account_active,
        bisnode_account: found.bisnode_account,
        customer_type: found.customer_type,
    }))
}

/// Alias of GET customer/{uid}/ for the caller's own company (customer, contact).
///
/// Spec §7 `subscription/services/`: the customer side reads its rows
/// without naming its company's uid; staff name the customer there.
#[utoipa::path(get, path = "/api/subscription/services/", tag = "subscriptions", security(("bearer" = [])),
    responses((status = 200, body = CustomerServices), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn own_services(Caller(s, u): Caller) -> Result<Json<CustomerServices>, ApiError> {
    let found = subscriptions::own_services(&s, &u).await?;
    Ok(Json(CustomerServices {
        purchased_services: found.rows,
        bisnode_account_active: found.bisnode_account_active,
        bisnode_account: found.bisnode_account,
        customer_type: found.customer_type,
    }))
}

/// The company's credit-information (Bisnode) account as the credit-check
/// screen needs it before a lookup.
#[derive(Serialize, ToSchema)]
pub struct BisnodeAccount {
    pub bisnode_account_active: bool,
    pub bisnode_account: Option<String>,
}

/// The Bisnode fields of GET customer/{uid}/ for the caller's own company (customer, contact).
///
/// Spec §7 `bisnode/login/`: the company's credit-information account. The
/// platform holds one provider account for every company, so there is no
/// per-user provider log-in: whether the company may look up is this flag,
/// which admin or a sales person switches (`PUT customer/bisnode/{uid}/`).
#[utoipa::path(get, path = "/api/bisnode/login/", tag = "subscriptions", security(("bearer" = [])),
    responses((status = 200, body = BisnodeAccount), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn bisnode_login(Caller(s, u): Caller) -> Result<Json<BisnodeAccount>, ApiError> {
    let found = subscriptions::own_services(&s, &u).await?;
    Ok(Json(BisnodeAccount { bisnode_account_active: found.bisnode_account_active, bisnode_account: found.bisnode_account }))
}

// ---------------------------------------------------------- purchases ----

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"package_id": 1}))]
pub struct BuyPackage {
    #[serde(default)]
    #[schema(required = true, minimum = 1)]
    pub package_id: u64,
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"service_plan_id": 1}))]
pub struct BuyServicePlan {
    #[serde(default)]
    #[schema(required = true, minimum = 1)]
    pub service_plan_id: u64,
}

/// The customer buys a public package: a consultancy-hours row.
#[utoipa::path(post, path = "/api/subscription/packages/", tag = "subscriptions", security(("bearer" = [])), request_body = BuyPackage,
    params(Idempotency),
    responses((status = 201, body = RowView), (status = 400, description = "active_and_advance_subscription", body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn buy_package(c: Creating, ApiJson(req): ApiJson<BuyPackage>) -> Result<Created<RowView>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(subscriptions::buy_package(&c.state, &c.user, req.package_id, &once).await?))
}

/// The customer buys a public service plan.
#[utoipa::path(post, path = "/api/subscription/serviceplans/", tag = "subscriptions", security(("bearer" = [])), request_body = BuyServicePlan,
    params(Idempotency),
    responses((status = 201, body = RowView), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn buy_service_plan(c: Creating, ApiJson(req): ApiJson<BuyServicePlan>) -> Result<Created<RowView>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(subscriptions::buy_service_plan(&c.state, &c.user, req.service_plan_id, &once).await?))
}

/// Admin or a sales person adds a package, a service plan or (admin only)
/// a custom package to a customer.
#[utoipa::path(post, path = "/api/customer/purchase-services/", tag = "subscriptions", security(("bearer" = [])), request_body = AddToCustomer,
    params(Idempotency),
    responses((status = 201, body = RowView), (status = 400, description = "custom_package_value_positive, active_and_advance_subscription", body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn add_to_customer(c: Creating, ApiJson(req): ApiJson<AddToCustomer>) -> Result<Created<RowView>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(subscriptions::add_to_customer(&c.state, &c.user, &req, &once).await?))
}

/// Alias of POST customer/purchase-services/ (admin, sales person).
///
/// Spec §7 `services/add/`: the same body, answer, idempotency and access.
#[utoipa::path(post, path = "/api/services/add/", tag = "subscriptions", security(("bearer" = [])), request_body = AddToCustomer,
    params(Idempotency),
    responses((status = 201, body = RowView), (status = 400, description = "custom_package_value_positive, active_and_advance_subscription", body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn add_service_alias(c: Creating, req: ApiJson<AddToCustomer>) -> Result<Created<RowView>, ApiError> {
    add_to_customer(c, req).await
}

// ---------------------------------------------------------- row actions ----

/// Change service (spec §5): start and expire dates, hours for service 1.
#[utoipa::path(patch, path = "/api/puchasedservices/{id}/", tag = "subscriptions", security(("bearer" = [])), request_body = ChangeService,
    params(("id" = u64, Path)),
    responses((status = 200, description = "service_updated", body = RowChanged), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn change_service(
    Caller(s, u): Caller,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<ChangeService>,
) -> Result<Json<RowChanged>, ApiError> {
    let row = subscriptions::change_service(&s, &u, &id, &req).await?;
    Ok(Json(RowChanged { message: Msg::ServiceUpdated, row }))
}

/// A changed row with the message key the web shows.
#[derive(Serialize, ToSchema)]
pub struct RowChanged {
    pub message: Msg,
    pub row: RowView,
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"auto_update_date_end": "2027-06-30"}))]
pub struct AutoUpdate {
    /// 'YYYY-MM-DD' or null to clear.
    #[schema(format = Date)]
    pub auto_update_date_end: Option<String>,
}

/// Set or clear the automatic update date; only for a row without a child.
#[utoipa::path(put, path = "/api/services/update/auto/{id}/", tag = "subscriptions", security(("bearer" = [])), request_body = AutoUpdate,
    params(("id" = u64, Path)),
    responses((status = 200, description = "date_changed", body = Message), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn auto_update(
    Caller(s, u): Caller,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<AutoUpdate>,
) -> Result<Json<Message>, ApiError> {
    subscriptions::set_auto_update(&s, &u, &id, req.auto_update_date_end.as_deref()).await?;
    Ok(Json(Message { message: Msg::DateChanged }))
}

/// Activate a row; offered only when its hours are below the consumed hours.
#[utoipa::path(put, path = "/api/customer/purchase-services/activate/{id}/", tag = "subscriptions", security(("bearer" = [])),
    params(("id" = u64, Path)),
    responses((status = 200, description = "service_activated", body = Message), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn activate(Caller(s, u): Caller, ApiPath(id): ApiPath<String>) -> Result<Json<Message>, ApiError> {
    subscriptions::activate(&s, &u, &id).await?;
    Ok(Json(Message { message: Msg::ServiceActivated }))
}

/// Delete a row (after the web's confirmation).
#[utoipa::path(delete, path = "/api/customer/purchase-services/delete/{id}/", tag = "subscriptions", security(("bearer" = [])),
    params(("id" = u64, Path)),
    responses((status = 200, description = "service_deleted", body = Message), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_row(Caller(s, u): Caller, ApiPath(id): ApiPath<String>) -> Result<Json<Message>, ApiError> {
    subscriptions::delete(&s, &u, &id).await?;
    Ok(Json(Message { message: Msg::ServiceDeleted }))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReportRange {
    /// YYYY-MM-DD
    #[param(required = true, format = Date)]
    pub start_date: Option<String>,
    /// YYYY-MM-DD
    #[param(required = true, format = Date)]
    pub end_date: Option<String>,
    /// The reader's language (sv default, en): the report's headings.
    pub lang: Option<String>,
}

/// CSV time report of a row: the case hours (uses) booked against it in a
/// date range, saved under the plan's, package's or service's name.
#[utoipa::path(get, path = "/api/customer/purchase-services/{id}/excel/", tag = "subscriptions", security(("bearer" = [])),
    params(("id" = u64, Path), ReportRange),
    responses((status = 200, content_type = "text/csv", body = String), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn time_report(
    Caller(s, u): Caller,
    ApiPath(id): ApiPath<String>,
    ApiQuery(range): ApiQuery<ReportRange>,
) -> Result<Response, ApiError> {
    let report = subscriptions::time_report(&s, &u, &id, range.start_date.as_deref(), range.end_date.as_deref()).await?;
    let body = csv_of(&report, range.lang.as_deref().unwrap_or("sv"))?;
    let disposition = format!("attachment; filename=\"{}.csv\"", report.file_name);
    Ok(([(header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()), (header::CONTENT_DISPOSITION, disposition)], body).into_response())
}

/// The web app's subscription texts, so the report's headings are the
/// reader's words (`report.columns`), the same as the screens'.
const TEXTS_SV: &str = include_str!("../../../web/src/locales/sv/subscriptions.json");
const TEXTS_EN: &str = include_str!("../../../web/src/locales/en/subscriptions.json");

/// A heading of the report in `lang` (sv unless en).
fn heading(key: &str, lang: &str) -> String {
    static SV: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    static EN: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    let (cell, source) = if lang.starts_with("en") { (&EN, TEXTS_EN) } else { (&SV, TEXTS_SV) };
    let texts = cell.get_or_init(|| serde_json::from_str(source).expect("the web's subscription texts are JSON"));
    texts["report"]["columns"][key].as_str().unwrap_or(key).to_string()
}

/// The report as CSV: a heading in the reader's language, a line per entry, the total.
fn csv_of(report: &TimeReport, lang: &str) -> Result<Vec<u8>, ApiError> {
    let mut w = shared::export::Csv::new();
    let unit = if report.unit == "Hours" { "hours" } else { "uses" };
    w.row(["date", "case", "description", "lawyer", unit].map(|k| heading(k, lang)))?;
    for line in &report.lines {
        w.row(line)?;
    }
    w.row([heading("total", lang).as_str(), "", "", "", report.total.as_str()])?;
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_report_neutralises_formulas() {
        let report = TimeReport {
            file_name: "Plan".into(),
            unit: "Hours",
            lines: vec![["2026-11-02".into(), "2026-000001".into(), "=HYPERLINK(\"http://x\")".into(), "+Eve".into(), "1.50".into()]],
            total: "1.50".into(),
        };
        let text = String::from_utf8(csv_of(&report, "en").unwrap()).unwrap();
        assert_eq!(text.lines().nth(1).unwrap(), "2026-11-02,2026-000001,\"'=HYPERLINK(\"\"http://x\"\")\",'+Eve,1.50");
    }
}

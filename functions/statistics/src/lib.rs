//! Statistics: each role's dashboard, the charts and the five statistics
//! pages (spec §1, §2, §7 `dashboard/`, `chart/`, `pie-chart/hour/`,
//! `statistic/…`), read from the counters kept with every event. Routes,
//! parsing and one service call each; the rules are
//! `shared::services::statistics` and `shared::domain::statistics`. Every
//! statistics page exports its table as CSV (`?format=csv`) or Excel
//! (`?format=xlsx`).

use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::NaiveDate;
use serde::Deserialize;
use shared::api::{ApiQuery, AppState, Caller, ErrorBody};
use shared::domain::statistics::PeriodKind;
use shared::error::ApiError;
use shared::services::statistics::{self as st, ActivityCases, Dashboard, Statistic, Table};
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

pub mod export;

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(dashboard))
        .routes(routes!(chart))
        .routes(routes!(hour_pie))
        .routes(routes!(account))
        .routes(routes!(user))
        .routes(routes!(finance))
        .routes(routes!(activity))
        .routes(routes!(activity_cases))
        .routes(routes!(activity_excel))
        .routes(routes!(legal))
}

/// The period filter and the export format. The period and its days are
/// typed as the server reads them, so the document's enum and dates are the
/// values it accepts (another period, or a day not `YYYY-MM-DD`, is
/// `invalid_query`).
#[derive(Deserialize, IntoParams, Default)]
#[into_params(parameter_in = Query)]
pub struct PeriodQuery {
    /// this_month (default), last_month, this_year or custom.
    #[param(inline)]
    pub period: Option<PeriodKind>,
    /// Custom period: first day (YYYY-MM-DD, Stockholm); without it, the
    /// first day of `to`'s month.
    #[param(value_type = Option<String>, format = Date)]
    pub from: Option<NaiveDate>,
    /// Custom period: last day, included; without it, today.
    #[param(value_type = Option<String>, format = Date)]
    pub to: Option<NaiveDate>,
    /// csv or xlsx: the table as a file instead of JSON.
    #[param(inline)]
    pub format: Option<ExportFormat>,
    /// The reader's language (sv default, en): export headers and the
    /// names of case types.
    pub lang: Option<String>,
    /// `activity/cases`: the `next` of the page before.
    pub cursor: Option<String>,
}

/// The file a statistic's table is exported as.
#[derive(Deserialize, utoipa::ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    Csv,
    Xlsx,
}

impl PeriodQuery {
    fn period(&self) -> Result<shared::domain::statistics::Period, ApiError> {
        st::period(self.period, self.from, self.to, st::today())
    }
}

/// The statistic as JSON, or its table as a CSV / Excel file.
/// The statistic as JSON, or as the file asked for (the export recorded in
/// the audit trail).
async fn answer(state: &AppState, user: &shared::domain::User, s: Statistic, q: &PeriodQuery, name: &str) -> Result<Response, ApiError> {
    if q.format.is_some() {
        shared::services::audit::export_made(state, user, &format!("statistic/{name}"), None).await;
    }
    let p = s.period.map(|p| format!("{}_{}", p.from, p.to)).unwrap_or_default();
    match q.format {
        Some(ExportFormat::Csv) => {
            file(export::csv(&s.table, q.lang.as_deref().unwrap_or("sv"))?, "text/csv; charset=utf-8", &format!("{name}-{p}.csv"))
        }
        Some(ExportFormat::Xlsx) => {
            file(export::xlsx(&s.table, name, q.lang.as_deref().unwrap_or("sv"))?, export::XLSX, &format!("{name}-{p}.xlsx"))
        }
        None => Ok(Json(s).into_response()),
    }
}

fn file(body: Vec<u8>, content_type: &str, name: &str) -> Result<Response, ApiError> {
    let disposition = format!("attachment; filename=\"{name}\"");
    Ok(([(header::CONTENT_TYPE, content_type.to_string()), (header::CONTENT_DISPOSITION, disposition)], body).into_response())
}

/// The caller's dashboard: admin, lawyer, sales person or customer (and contact).
#[utoipa::path(get, path = "/api/dashboard/", tag = "statistics", security(("bearer" = [])),
    responses((status = 200, body = Dashboard), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn dashboard(Caller(s, u): Caller) -> Result<Json<Dashboard>, ApiError> {
    Ok(Json(st::dashboard(&s, &u).await?))
}

/// The caller's main chart of the period (admin revenue and hours, a lawyer
/// their hours, a sales person their customers' purchases, a customer its hours).
#[utoipa::path(get, path = "/api/chart/", tag = "statistics", security(("bearer" = [])), params(PeriodQuery),
    responses((status = 200, description = "The statistic (JSON), or its table as the `format` asked for",
        content((Statistic = "application/json"), (String = "text/csv"),
            (Vec<u8> = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn chart(Caller(s, u): Caller, ApiQuery(q): ApiQuery<PeriodQuery>) -> Result<Response, ApiError> {
    answer(&s, &u, st::chart(&s, &u, q.period()?).await?, &q, "chart").await
}

/// Billable, non-billable and rättsskydd hours of the period (the caller's scope).
#[utoipa::path(get, path = "/api/pie-chart/hour/", tag = "statistics", security(("bearer" = [])), params(PeriodQuery),
    responses((status = 200, description = "The statistic (JSON), or its table as the `format` asked for",
        content((Statistic = "application/json"), (String = "text/csv"),
            (Vec<u8> = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn hour_pie(Caller(s, u): Caller, ApiQuery(q): ApiQuery<PeriodQuery>) -> Result<Response, ApiError> {
    answer(&s, &u, st::hour_pie(&s, &u, q.period()?).await?, &q, "hours").await
}

/// Account statistics (admin, sales person): customers new, approved,
/// activated, deactivated; by state, business sector and size band.
#[utoipa::path(get, path = "/api/statistic/account/", tag = "statistics", security(("bearer" = [])), params(PeriodQuery),
    responses((status = 200, description = "The statistic (JSON), or its table as the `format` asked for",
        content((Statistic = "application/json"), (String = "text/csv"),
            (Vec<u8> = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn account(Caller(s, u): Caller, ApiQuery(q): ApiQuery<PeriodQuery>) -> Result<Response, ApiError> {
    answer(&s, &u, st::account(&s, &u, q.period()?).await?, &q, "account").await
}

/// Customer statistics (admin; a lawyer their own hours per customer; a
/// sales person their customers): cases, hours, subscriptions, revenue.
#[utoipa::path(get, path = "/api/statistic/user/", tag = "statistics", security(("bearer" = [])), params(PeriodQuery),
    responses((status = 200, description = "The statistic (JSON), or its table as the `format` asked for",
        content((Statistic = "application/json"), (String = "text/csv"),
            (Vec<u8> = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn user(Caller(s, u): Caller, ApiQuery(q): ApiQuery<PeriodQuery>) -> Result<Response, ApiError> {
    answer(&s, &u, st::customers(&s, &u, q.period()?).await?, &q, "customers").await
}

/// Finance statistics (admin): revenue by period, service, plan and
/// package; invoiced and not invoiced hours; the average rate.
#[utoipa::path(get, path = "/api/statistic/finance/", tag = "statistics", security(("bearer" = [])), params(PeriodQuery),
    responses((status = 200, description = "The statistic (JSON), or its table as the `format` asked for",
        content((Statistic = "application/json"), (String = "text/csv"),
            (Vec<u8> = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn finance(Caller(s, u): Caller, ApiQuery(q): ApiQuery<PeriodQuery>) -> Result<Response, ApiError> {
    answer(&s, &u, st::finance(&s, &u, q.period()?).await?, &q, "finance").await
}

/// Activity statistics (admin; a customer and its contacts for their
/// company): cases opened, accepted, closed and hours per period.
#[utoipa::path(get, path = "/api/statistic/activity/", tag = "statistics", security(("bearer" = [])), params(PeriodQuery),
    responses((status = 200, description = "The statistic (JSON), or its table as the `format` asked for",
        content((Statistic = "application/json"), (String = "text/csv"),
            (Vec<u8> = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn activity(Caller(s, u): Caller, ApiQuery(q): ApiQuery<PeriodQuery>) -> Result<Response, ApiError> {
    answer(&s, &u, st::activity(&s, &u, q.period()?).await?, &q, "activity").await
}

/// The cases opened in the period, newest first, 10 a page.
#[utoipa::path(get, path = "/api/statistic/activity/cases", tag = "statistics", security(("bearer" = [])), params(PeriodQuery),
    responses((status = 200, body = ActivityCases), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn activity_cases(Caller(s, u): Caller, ApiQuery(q): ApiQuery<PeriodQuery>) -> Result<Json<ActivityCases>, ApiError> {
    Ok(Json(st::activity_cases(&s, &u, q.period()?, q.cursor.as_deref(), 10).await?))
}

/// The cases opened in the period as an Excel workbook (at most 2,000, newest first).
#[utoipa::path(get, path = "/api/statistic/activity/excel/", tag = "statistics", security(("bearer" = [])), params(PeriodQuery),
    responses((status = 200, description = "xlsx", content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn activity_excel(Caller(s, u): Caller, ApiQuery(q): ApiQuery<PeriodQuery>) -> Result<Response, ApiError> {
    let p = q.period()?;
    let lang = q.lang.as_deref().unwrap_or("sv");
    let mut rows = Vec::new();
    let mut cursor: Option<String> = None;
    while rows.len() < 2000 {
        let page = st::activity_cases(&s, &u, p, cursor.as_deref(), 100).await?;
        rows.extend(page.results);
        match page.next {
            Some(n) => cursor = Some(n),
            None => break,
        }
    }
    let table = Table {
        columns: ["case_number", "subject", "customer", "status", "type", "lawyer", "opened"].map(String::from).to_vec(),
        rows: rows
            .iter()
            .map(|c| {
                vec![
                    serde_json::json!(c.case_number),
                    serde_json::json!(c.subject),
                    serde_json::json!(c.customer_name),
                    // The status as the page's tag names it.
                    serde_json::json!(export::header(&format!("cases.status.{}", shared::domain::statistics::status_word(c.status)), lang)),
                    serde_json::json!(c.case_type.name_in(lang)),
                    serde_json::json!(c.lawyer_name.clone().unwrap_or_default()),
                    serde_json::json!(shared::domain::calendar::stockholm_date(c.created_at).to_string()),
                ]
            })
            .collect(),
    };
    let name = format!("activity-cases-{}_{}.xlsx", p.from, p.to);
    shared::services::audit::export_made(&s, &u, "statistic/activity-cases", None).await;
    file(export::xlsx(&table, "activity-cases", lang)?, export::XLSX, &name)
}

/// Legal statistics (admin; a lawyer their own): cases by case type,
/// average time to accept and to close, hours per case type.
#[utoipa::path(get, path = "/api/statistic/legal/", tag = "statistics", security(("bearer" = [])), params(PeriodQuery),
    responses((status = 200, description = "The statistic (JSON), or its table as the `format` asked for",
        content((Statistic = "application/json"), (String = "text/csv"),
            (Vec<u8> = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn legal(Caller(s, u): Caller, ApiQuery(q): ApiQuery<PeriodQuery>) -> Result<Response, ApiError> {
    answer(&s, &u, st::legal(&s, &u, q.period()?, q.lang.as_deref().unwrap_or("sv")).await?, &q, "legal").await
}

//! Additional hours of a case (spec §3: month, total hour) and their
//! history. The rules (what they are, who enters them, one per month and
//! lawyer, no subscription consumption) are documented in
//! `shared::domain::additional_hour`.

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use chrono::Utc;
use serde::Deserialize;
use shared::api::{ApiJson, AppState, CurrentUser, ErrorBody};
use shared::domain::additional_hour::{self as add, AdditionalHour, AdditionalHourForm};
use shared::domain::case::{self, Case, HistoryEntry};
use shared::domain::User;
use shared::error::ApiError;
use shared::error::Msg;
use shared::store::case_hours::StoredAdditional;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::hours::{invoiced_text, MassUpdateRequest};
use crate::{entry, pause, visible_case, CaseQuery};

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

const ATTEMPTS: u32 = 20;
const FIELD: &str = "additional_hour";

#[derive(Deserialize, ToSchema)]
pub struct AdditionalHourRequest {
    pub case_uid: String,
    /// Admin only: the lawyer the hours are for (spec §6).
    pub lawyer: Option<String>,
    #[serde(flatten)]
    pub form: AdditionalHourForm,
}

/// Its lawyer (still assigned, case in progress) or admin may change an entry.
fn may_change(u: &User, c: &Case, e: &AdditionalHour) -> Result<(), ApiError> {
    let l = case::hour_author(u, c, Some(&e.lawyer))?;
    if l == e.lawyer {
        Ok(())
    } else {
        Err(ApiError::bad(case::CASE_NOT_ASSIGNED))
    }
}

fn month_taken() -> ApiError {
    ApiError::field("month", add::MONTH_TAKEN)
}

/// The lawyer's additional hours of one month on a case (admin names the
/// lawyer). One entry per month and lawyer; no subscription is consumed.
#[utoipa::path(post, path = "/api/case/additional_hour/create/", tag = "cases", security(("bearer" = [])), request_body = AdditionalHourRequest,
    responses((status = 201, body = AdditionalHour), (status = 400, description = "validation_failed (month: invalid_month, additional_hour_month_taken; total_hour: hour_min), only_lawyer_enters_hours, case_not_assigned, case_not_in_progress", body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn create(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<AdditionalHourRequest>,
) -> Result<(StatusCode, Json<AdditionalHour>), ApiError> {
    let input = add::validate(&req.form)?;
    let id = uuid::Uuid::new_v4().simple().to_string();
    for attempt in 0..ATTEMPTS {
        let (c, _) = visible_case(&s, &u, &req.case_uid).await?;
        let lawyer = case::hour_author(&u, &c, req.lawyer.as_deref())?;
        if attempt > 0 {
            // A write that landed although its answer was lost counts once.
            if let Some(done) = s.store.get_additional_hour(&c.uid, &id).await? {
                return Ok((StatusCode::CREATED, Json(done.entry)));
            }
        }
        if s.store.additional_month_owner(&c.uid, &input.month, &lawyer).await?.is_some() {
            return Err(month_taken());
        }
        let lawyer_name = s.store.get_user(&lawyer).await?.map(|x| x.full_name()).unwrap_or_default();
        let now = Utc::now();
        let e = AdditionalHour {
            id: id.clone(),
            case_uid: c.uid.clone(),
            lawyer,
            lawyer_name,
            month: input.month.clone(),
            total_hour: input.total_hour,
            is_invoiced: input.is_invoiced,
            description: input.description.clone(),
            created_at: now,
            updated_at: now,
        };
        let h = entry(&c.uid, &u, FIELD, None, Some(add::summary(&e)));
        if s.store.write_additional_hour(&c.uid, None, Some(&e), &h).await? {
            return Ok((StatusCode::CREATED, Json(e)));
        }
        pause(attempt).await;
    }
    Err(ApiError::bad(Msg::ChangedConcurrently))
}

/// A case's additional hours, newest month first (whoever may see the case).
#[utoipa::path(get, path = "/api/case/additional_hour/list/", tag = "cases", security(("bearer" = [])), params(CaseQuery),
    responses((status = 200, body = Vec<AdditionalHour>), (status = 404, body = ErrorBody)))]
async fn list(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Query(q): Query<CaseQuery>,
) -> Result<Json<Vec<AdditionalHour>>, ApiError> {
    let (c, _) = visible_case(&s, &u, &q.case).await?;
    Ok(Json(s.store.additional_hours(&c.uid).await?))
}

/// One additional-hour entry (the update page: `…/additional_hour/update/<id>?case=<case uid>`).
#[utoipa::path(get, path = "/api/case/additional_hour/{id}/", tag = "cases", security(("bearer" = [])),
    params(("id" = String, Path, description = "Additional-hour entry id"), CaseQuery),
    responses((status = 200, body = AdditionalHour), (status = 404, body = ErrorBody)))]
async fn get_one(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<CaseQuery>,
) -> Result<Json<AdditionalHour>, ApiError> {
    let (c, _) = visible_case(&s, &u, &q.case).await?;
    Ok(Json(s.store.get_additional_hour(&c.uid, &id).await?.ok_or(ApiError::NotFound)?.entry))
}

async fn load(s: &AppState, u: &User, case_uid: &str, id: &str) -> Result<(Case, StoredAdditional), ApiError> {
    let (c, _) = visible_case(s, u, case_uid).await?;
    let old = s.store.get_additional_hour(&c.uid, id).await?.ok_or(ApiError::NotFound)?;
    may_change(u, &c, &old.entry)?;
    Ok((c, old))
}

/// Edits an entry (month, total hour, invoiced, description); the history
/// keeps before and after.
#[utoipa::path(put, path = "/api/case/additional_hour/edit/{id}/", tag = "cases", security(("bearer" = [])), request_body = AdditionalHourRequest,
    params(("id" = String, Path, description = "Additional-hour entry id")),
    responses((status = 200, body = AdditionalHour), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn edit(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<AdditionalHourRequest>,
) -> Result<Json<AdditionalHour>, ApiError> {
    let input = add::validate(&req.form)?;
    for attempt in 0..ATTEMPTS {
        let (c, old) = load(&s, &u, &req.case_uid, &id).await?;
        if input.month != old.entry.month {
            if let Some(owner) = s.store.additional_month_owner(&c.uid, &input.month, &old.entry.lawyer).await? {
                if owner != id {
                    return Err(month_taken());
                }
            }
        }
        let e = AdditionalHour {
            month: input.month.clone(),
            total_hour: input.total_hour,
            is_invoiced: input.is_invoiced,
            description: input.description.clone(),
            updated_at: Utc::now(),
            ..old.entry.clone()
        };
        let h = entry(&c.uid, &u, FIELD, Some(add::summary(&old.entry)), Some(add::summary(&e)));
        if s.store.write_additional_hour(&c.uid, Some(&old), Some(&e), &h).await? {
            return Ok(Json(e));
        }
        pause(attempt).await;
    }
    Err(ApiError::bad(Msg::ChangedConcurrently))
}

/// Deletes an entry (and frees its month).
#[utoipa::path(delete, path = "/api/case/additional_hour/delete/{id}/", tag = "cases", security(("bearer" = [])),
    params(("id" = String, Path, description = "Additional-hour entry id"), CaseQuery),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<CaseQuery>,
) -> Result<StatusCode, ApiError> {
    for attempt in 0..ATTEMPTS {
        let (c, old) = load(&s, &u, &q.case, &id).await?;
        let h = entry(&c.uid, &u, FIELD, Some(add::summary(&old.entry)), None);
        if s.store.write_additional_hour(&c.uid, Some(&old), None, &h).await? {
            return Ok(StatusCode::NO_CONTENT);
        }
        pause(attempt).await;
    }
    Err(ApiError::bad(Msg::ChangedConcurrently))
}

/// Marks additional-hour entries invoiced or not, all or nothing (same
/// rules as `case/hour/mass-update/`: only the invoiced flag, at most 49,
/// an id not on the case → 404 and nothing changes).
#[utoipa::path(put, path = "/api/case/additional_hour/mass-update/", tag = "cases", security(("bearer" = [])), request_body = MassUpdateRequest,
    responses((status = 200, body = Vec<AdditionalHour>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn mass_update(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<MassUpdateRequest>,
) -> Result<Json<Vec<AdditionalHour>>, ApiError> {
    let ids = add::mass_update_ids(&req.ids)?;
    let value = req.is_invoiced.ok_or_else(|| ApiError::field("is_invoiced", Msg::Required))?;
    for attempt in 0..ATTEMPTS {
        let (c, _) = visible_case(&s, &u, &req.case_uid).await?;
        // Admin invoices at any time, the lawyer their own while in progress.
        let only = case::invoicing_author(&u, &c)?;
        let mut named = Vec::new();
        for id in &ids {
            named.push(s.store.get_additional_hour(&c.uid, id).await?.ok_or(ApiError::NotFound)?);
        }
        if let Some(l) = &only {
            if named.iter().any(|e| &e.entry.lawyer != l) {
                return Err(ApiError::bad(case::CASE_NOT_ASSIGNED));
            }
        }
        let now = Utc::now();
        let after = |e: &StoredAdditional| AdditionalHour { is_invoiced: value, ..e.entry.clone() };
        let changing: Vec<&StoredAdditional> = named.iter().filter(|e| e.entry.is_invoiced != value).collect();
        if changing.is_empty() {
            return Ok(Json(named.iter().map(after).collect()));
        }
        let hist: Vec<HistoryEntry> = changing
            .iter()
            .map(|e| {
                let text = add::summary(&AdditionalHour { is_invoiced: false, ..e.entry.clone() });
                entry(&c.uid, &u, FIELD, Some(invoiced_text(text.clone(), e.entry.is_invoiced)), Some(invoiced_text(text, value)))
            })
            .collect();
        if s.store.mass_update_additional_hours(&c.uid, only.as_deref(), &changing, value, now, &hist).await? {
            return Ok(Json(named.iter().map(|e| AdditionalHour { updated_at: now, ..after(e) }).collect()));
        }
        pause(attempt).await;
    }
    Err(ApiError::bad(Msg::ChangedConcurrently))
}

/// Every recorded change of the case's additional hours, oldest first
/// (same visibility as the case history).
#[utoipa::path(get, path = "/api/case/history-additional/{id}/", tag = "cases", security(("bearer" = [])), params(("id" = String, Path, description = "Case uid")),
    responses((status = 200, body = Vec<HistoryEntry>), (status = 404, body = ErrorBody)))]
async fn history(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<Vec<HistoryEntry>>, ApiError> {
    let (c, _) = visible_case(&s, &u, &id).await?;
    Ok(Json(s.store.additional_history(&c.uid).await?))
}

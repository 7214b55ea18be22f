//! Case hours beyond create/list/edit/delete/excel (in `lib.rs`): one entry
//! for the update page and the bulk change.
//!
//! The update page's route names only the entry id
//! (`cases/case-hour/update/{id}`); entries live under their case, so the
//! details page links `…/case-hour/update/<id>?case=<case uid>` and the page
//! loads `GET case/hour/{id}/?case=<case uid>` (one GetItem, the same case
//! query parameter as `case/hour/delete/`).

use axum::extract::{Path, Query, State};
use axum::Json;
use serde::Deserialize;
use shared::api::{ApiJson, AppState, CurrentUser, ErrorBody};
use shared::domain::additional_hour::mass_update_ids;
use shared::domain::case::{self, CaseHour};
use shared::error::ApiError;
use shared::error::Msg;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{entry, pause, summary, visible_case, CaseQuery};

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(hour_get)).routes(routes!(hour_mass_update))
}

/// One hour entry of a case (whoever may see the case).
#[utoipa::path(get, path = "/api/case/hour/{id}/", tag = "cases", security(("bearer" = [])),
    params(("id" = String, Path, description = "Hour entry id"), CaseQuery),
    responses((status = 200, body = CaseHour), (status = 404, body = ErrorBody)))]
async fn hour_get(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<CaseQuery>,
) -> Result<Json<CaseHour>, ApiError> {
    let (c, _) = visible_case(&s, &u, &q.case).await?;
    Ok(Json(s.store.get_case_hour(&c.uid, &id).await?.ok_or(ApiError::NotFound)?))
}

/// A bulk change of entries of one case.
///
/// Only the invoiced flag may be set in bulk: marking entries (not)
/// invoiced is what staff do with many entries at once. Hours, dates and
/// the rest stay per entry (the update page): one date or hour for many
/// entries would be meaningless, and keeping billable hours out of the bulk
/// change means it never moves the customer's subscription.
#[derive(Deserialize, ToSchema)]
pub struct MassUpdateRequest {
    pub case_uid: String,
    /// Entry ids (at most 49: one transaction).
    #[serde(default)]
    pub ids: Vec<String>,
    pub is_invoiced: Option<bool>,
}

pub(crate) fn invoiced_text(summary: String, invoiced: bool) -> String {
    format!("{summary} · {}", if invoiced { "invoiced" } else { "not invoiced" })
}

/// Marks entries invoiced or not invoiced, all or nothing (one transaction
/// with a history item per changed entry). Admin at any time (closed cases
/// too: invoicing follows the work), the assigned lawyer their own entries
/// while the case is in progress. An id not on this case → 404 and
/// nothing changes. Returns the named entries as they now are.
#[utoipa::path(put, path = "/api/case/hour/mass-update/", tag = "cases", security(("bearer" = [])), request_body = MassUpdateRequest,
    responses((status = 200, body = Vec<CaseHour>), (status = 400, description = "validation_failed (ids: required, too_many_entries), case_not_assigned, case_not_in_progress", body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn hour_mass_update(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<MassUpdateRequest>,
) -> Result<Json<Vec<CaseHour>>, ApiError> {
    let ids = mass_update_ids(&req.ids)?;
    let value = req.is_invoiced.ok_or_else(|| ApiError::field("is_invoiced", Msg::Required))?;
    for attempt in 0..20 {
        let (c, _) = visible_case(&s, &u, &req.case_uid).await?;
        // Who first: a customer or sales person learns nothing about the ids.
        let only = case::invoicing_author(&u, &c)?;
        let all = s.store.case_hours(&c.uid).await?;
        let named: Vec<&CaseHour> =
            ids.iter().map(|id| all.iter().find(|h| &h.id == id).ok_or(ApiError::NotFound)).collect::<Result<_, _>>()?;
        if let Some(l) = &only {
            if named.iter().any(|h| &h.lawyer != l) {
                return Err(ApiError::bad(case::CASE_NOT_ASSIGNED));
            }
        }
        let changing: Vec<&CaseHour> = named.iter().copied().filter(|h| h.is_invoiced != value).collect();
        let after = |h: &CaseHour| CaseHour { is_invoiced: value, ..h.clone() };
        if changing.is_empty() {
            return Ok(Json(named.into_iter().map(after).collect()));
        }
        let hist: Vec<_> = changing
            .iter()
            .map(|h| entry(&c.uid, &u, "hour", Some(invoiced_text(summary(h), h.is_invoiced)), Some(invoiced_text(summary(h), value))))
            .collect();
        if s.store.mass_update_case_hours(&c.uid, only.as_deref(), &changing, value, &hist).await? {
            return Ok(Json(named.into_iter().map(after).collect()));
        }
        pause(attempt).await;
    }
    Err(ApiError::bad(Msg::ChangedConcurrently))
}

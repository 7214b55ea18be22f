//! Video meetings: the customer's and contact's booking
//! calls under `services/video-meeting/` and the lawyer's offered times
//! under `lawyer/video-meetings/`. Routes, parsing and one service call
//! each; the rules are `shared::domain::meeting`, the use cases
//! `shared::services::meetings`, the room provider `shared::providers::meeting`.

use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use shared::api::{ApiJson, ApiPath, ApiQuery, AppState, Caller, Created, Creating, ErrorBody, Idempotency};
use shared::domain::meeting::{Meeting, Slot};
use shared::error::ApiError;
use shared::services::meetings::{self as use_cases, BookableCase, BookingForm, SlotForm};
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(meeting_list, meeting_book))
        .routes(routes!(meeting_cases))
        .routes(routes!(meeting_slots))
        .routes(routes!(meeting_cancel))
        .routes(routes!(lawyer_slots, lawyer_offer))
        .routes(routes!(lawyer_remove))
        .routes(routes!(lawyer_cancel))
}

/// The customer's booked meetings in start order (those of the last 30 days too).
#[utoipa::path(get, path = "/api/services/video-meeting/", tag = "addons", security(("bearer" = [])),
    responses((status = 200, body = [Meeting]), (status = 401, body = ErrorBody),
        (status = 403, description = "service_not_purchased", body = ErrorBody)))]
async fn meeting_list(Caller(s, u): Caller) -> Result<Json<Vec<Meeting>>, ApiError> {
    Ok(Json(use_cases::customer_meetings(&s, &u).await?))
}

/// Books a free time of the case's lawyer (one use of the video-meeting plan); answers the meeting with its link.
#[utoipa::path(post, path = "/api/services/video-meeting/", tag = "addons", security(("bearer" = [])), request_body = BookingForm,
    params(Idempotency),
    responses((status = 201, body = Meeting), (status = 400, description = "slot_taken, no_lawyer_found, limit_reached", body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, description = "service_not_purchased", body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 502, description = "provider_*", body = ErrorBody)))]
async fn meeting_book(c: Creating, ApiJson(f): ApiJson<BookingForm>) -> Result<Created<Meeting>, ApiError> {
    let once = c.once(f.request_id.as_deref()).await?;
    Ok(Created(use_cases::book(&c.state, &c.user, &f, &once).await?))
}

/// The customer's cases a meeting can be booked about (in progress, with a lawyer).
#[utoipa::path(get, path = "/api/services/video-meeting/cases/", tag = "addons", security(("bearer" = [])),
    responses((status = 200, body = [BookableCase]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn meeting_cases(Caller(s, u): Caller) -> Result<Json<Vec<BookableCase>>, ApiError> {
    Ok(Json(use_cases::bookable_cases(&s, &u).await?))
}

/// The free times the case's lawyer offers, from now on.
#[utoipa::path(get, path = "/api/services/video-meeting/cases/{uid}/slots/", tag = "addons", security(("bearer" = [])), params(("uid" = String, Path)),
    responses((status = 200, body = [Slot]), (status = 400, description = "no_lawyer_found", body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn meeting_slots(Caller(s, u): Caller, ApiPath(uid): ApiPath<String>) -> Result<Json<Vec<Slot>>, ApiError> {
    Ok(Json(use_cases::free_slots(&s, &u, &uid).await?))
}

/// The customer side cancels one of its meetings (the time becomes free again).
#[utoipa::path(post, path = "/api/services/video-meeting/{uid}/cancel/", tag = "addons", security(("bearer" = [])), params(("uid" = String, Path)),
    responses((status = 200, body = Meeting), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 502, description = "provider_*", body = ErrorBody)))]
async fn meeting_cancel(Caller(s, u): Caller, ApiPath(uid): ApiPath<String>) -> Result<Json<Meeting>, ApiError> {
    Ok(Json(use_cases::cancel_by_customer(&s, &u, &uid).await?))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LawyerQuery {
    /// Admin only: the lawyer whose times to manage (a lawyer always manages their own).
    pub lawyer: Option<String>,
}

/// A lawyer's offered times from a day ago on, booked ones with their meeting.
#[utoipa::path(get, path = "/api/lawyer/video-meetings/", tag = "addons", security(("bearer" = [])), params(LawyerQuery),
    responses((status = 200, body = [Slot]), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn lawyer_slots(Caller(s, u): Caller, ApiQuery(q): ApiQuery<LawyerQuery>) -> Result<Json<Vec<Slot>>, ApiError> {
    let lawyer = use_cases::lawyer_for(&u, q.lawyer.as_deref())?;
    Ok(Json(use_cases::lawyer_slots(&s, &u, &lawyer).await?))
}

/// The lawyer offers a time (30, 45 or 60 minutes, within 90 days, no overlap).
#[utoipa::path(post, path = "/api/lawyer/video-meetings/", tag = "addons", security(("bearer" = [])), params(LawyerQuery), request_body = SlotForm,
    params(Idempotency),
    responses((status = 201, body = Slot), (status = 400, description = "validation_failed, slot_overlaps", body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, description = "Admin named no lawyer by `lawyer`", body = ErrorBody)))]
async fn lawyer_offer(c: Creating, ApiQuery(q): ApiQuery<LawyerQuery>, ApiJson(f): ApiJson<SlotForm>) -> Result<Created<Slot>, ApiError> {
    let once = c.once(None).await?;
    let lawyer = use_cases::lawyer_for(&c.user, q.lawyer.as_deref())?;
    Ok(Created(use_cases::offer_slot(&c.state, &c.user, &lawyer, &f, &once).await?))
}

/// The lawyer removes a free time.
#[utoipa::path(delete, path = "/api/lawyer/video-meetings/{uid}/", tag = "addons", security(("bearer" = [])), params(("uid" = String, Path), LawyerQuery),
    responses((status = 204), (status = 400, description = "slot_taken", body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn lawyer_remove(
    Caller(s, u): Caller,
    ApiPath(uid): ApiPath<String>,
    ApiQuery(q): ApiQuery<LawyerQuery>,
) -> Result<StatusCode, ApiError> {
    let lawyer = use_cases::lawyer_for(&u, q.lawyer.as_deref())?;
    use_cases::remove_slot(&s, &u, &lawyer, &uid).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The lawyer cancels the meeting booked on one of their times (the time stays offered).
#[utoipa::path(post, path = "/api/lawyer/video-meetings/{uid}/cancel/", tag = "addons", security(("bearer" = [])), params(("uid" = String, Path), LawyerQuery),
    responses((status = 200, body = Meeting), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 502, description = "provider_*", body = ErrorBody)))]
async fn lawyer_cancel(
    Caller(s, u): Caller,
    ApiPath(uid): ApiPath<String>,
    ApiQuery(q): ApiQuery<LawyerQuery>,
) -> Result<Json<Meeting>, ApiError> {
    let lawyer = use_cases::lawyer_for(&u, q.lawyer.as_deref())?;
    Ok(Json(use_cases::cancel_by_lawyer(&s, &u, &lawyer, &uid).await?))
}

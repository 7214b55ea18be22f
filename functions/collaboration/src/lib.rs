//! Collaboration: messages in cases, the caller's notifications (the two
//! header dropdowns and their pages) and ratings. Routes, parsing and one
//! service call each; the rules are `shared::services::{messages,
//! notifications, ratings}` and `shared::domain::{message, notification, rating}`.

use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use shared::api::{ApiJson, ApiPath, ApiQuery, AppState, Caller, Created, Creating, ErrorBody, Idempotency};
use shared::domain::message::Message;
use shared::domain::notification::Notification;
use shared::domain::rating::Rating;
use shared::error::{ApiError, FieldErrors, Msg};
use shared::services::documents::{DownloadUrl, UploadTarget};
use shared::services::messages::{self, Conversation};
use shared::services::notifications::{self, NotificationList};
use shared::services::ratings;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(conversation, post_message))
        .routes(routes!(message_upload_url))
        .routes(routes!(message_download))
        .routes(routes!(notification_list))
        .routes(routes!(notification_seen_count))
        .routes(routes!(notification_seen_update))
        .routes(routes!(notification_read))
        .routes(routes!(notification_read_all))
        .routes(routes!(lawyer_ratings))
        .routes(routes!(case_rating))
        .routes(routes!(rate))
}

// ------------------------------------------------------------ messages ----

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ConversationQuery {
    /// Case uid.
    pub case: String,
    /// The `older` cursor of the page shown, for the page before it.
    pub before: Option<String>,
}

/// A page of a case's conversation, oldest first within the page (whoever
/// may see the case; the caller's read mark moves to the newest shown).
#[utoipa::path(get, path = "/api/message/", tag = "collaboration", security(("bearer" = [])), params(ConversationQuery),
    responses((status = 200, body = Conversation), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn conversation(Caller(s, u): Caller, ApiQuery(q): ApiQuery<ConversationQuery>) -> Result<Json<Conversation>, ApiError> {
    Ok(Json(messages::conversation(&s, &u, &q.case, q.before.as_deref()).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"case_uid": "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a01", "text": "Hej! Har ni fått avtalet?"}))]
pub struct MessageRequest {
    #[schema(format = "uuid")]
    pub case_uid: String,
    /// Required unless a file is attached.
    #[serde(default)]
    #[schema(max_length = 10000)]
    pub text: String,
    /// The key from `message/file/upload-url/`, after the file was PUT.
    pub attachment_key: Option<String>,
    /// The file's name as the user chose it.
    pub attachment_name: Option<String>,
}

/// Writes a message in a case: its lawyer and its customer side only (a
/// contact needs 'chat in cases'), while the case is in progress.
#[utoipa::path(post, path = "/api/message/", tag = "collaboration", security(("bearer" = [])), request_body = MessageRequest,
    params(Idempotency),
    responses((status = 201, body = Message),
        (status = 400, description = "case_not_assigned, case_not_in_progress, case_closed_for_messages, validation_failed, document_*", body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, description = "only_lawyer_or_customer_messages", body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn post_message(c: Creating, ApiJson(req): ApiJson<MessageRequest>) -> Result<Created<Message>, ApiError> {
    let once = c.once(None).await?;
    let attachment = match (req.attachment_key.as_deref().map(str::trim).filter(|k| !k.is_empty()), req.attachment_name.as_deref()) {
        (Some(key), name) => Some((key, name.unwrap_or(""))),
        (None, _) => None,
    };
    Ok(Created(messages::post(&c.state, &c.user, &req.case_uid, &req.text, attachment, &once).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"case_uid": "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a01", "name": "avtal.pdf"}))]
pub struct UploadRequest {
    #[schema(format = "uuid")]
    pub case_uid: String,
    /// The file's name; its extension decides the type. Longer names are shortened to 200 characters.
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub name: String,
}

/// A presigned PUT for a file to send with a message (pdf, word, excel,
/// jpg, png, ppt; at most 25 MiB; checked when the message is sent).
#[utoipa::path(post, path = "/api/message/file/upload-url/", tag = "collaboration", security(("bearer" = [])), request_body = UploadRequest,
    responses((status = 200, body = UploadTarget), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn message_upload_url(Caller(s, u): Caller, ApiJson(req): ApiJson<UploadRequest>) -> Result<Json<UploadTarget>, ApiError> {
    Ok(Json(messages::attachment_upload_url(&s, &u, &req.case_uid, &req.name).await?))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DownloadQuery {
    /// Case uid.
    pub case: String,
    /// The message file's key.
    pub key: String,
    /// The name to save it under.
    #[serde(default)]
    pub name: String,
}

/// A download link for a message's file (whoever may see the case).
#[utoipa::path(get, path = "/api/message/file/download/", tag = "collaboration", security(("bearer" = [])), params(DownloadQuery),
    responses((status = 200, body = DownloadUrl), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn message_download(Caller(s, u): Caller, ApiQuery(q): ApiQuery<DownloadQuery>) -> Result<Json<DownloadUrl>, ApiError> {
    Ok(Json(messages::attachment_download(&s, &u, &q.case, &q.key, &q.name).await?))
}

// ------------------------------------------------------- notifications ----

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NotificationQuery {
    #[serde(default)]
    pub offset: usize,
    /// At most 50 (default 10, spec §9).
    pub limit: Option<usize>,
    /// `-timestamp` (newest first) is the one order.
    pub ordering: Option<String>,
    /// `message`, or `case,others` (any comma-separated set); empty = all.
    pub description: Option<String>,
}

/// The caller's own notifications, newest first (spec §7).
#[utoipa::path(get, path = "/api/notification/", tag = "collaboration", security(("bearer" = [])), params(NotificationQuery),
    responses((status = 200, body = NotificationList), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn notification_list(Caller(s, u): Caller, ApiQuery(q): ApiQuery<NotificationQuery>) -> Result<Json<NotificationList>, ApiError> {
    Ok(Json(notifications::list(&s, &u, q.description.as_deref(), q.offset, q.limit.unwrap_or(10), q.ordering.as_deref()).await?))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DescriptionQuery {
    /// `message`, or `case,others`.
    pub description: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct Count {
    pub count: u32,
}

/// How many of the caller's notifications of a dropdown are unseen (its badge).
#[utoipa::path(get, path = "/api/notification/seen/count/", tag = "collaboration", security(("bearer" = [])), params(DescriptionQuery),
    responses((status = 200, body = Count), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn notification_seen_count(Caller(s, u): Caller, ApiQuery(q): ApiQuery<DescriptionQuery>) -> Result<Json<Count>, ApiError> {
    Ok(Json(Count { count: notifications::unseen_count(&s, &u, q.description.as_deref()).await? }))
}

/// The dropdown was opened: everything in it is seen (its badge goes to 0).
#[utoipa::path(post, path = "/api/notification/seen/update/", tag = "collaboration", security(("bearer" = [])), params(DescriptionQuery),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn notification_seen_update(Caller(s, u): Caller, ApiQuery(q): ApiQuery<DescriptionQuery>) -> Result<StatusCode, ApiError> {
    notifications::mark_seen(&s, &u, q.description.as_deref()).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"unread": false}))]
pub struct ReadRequest {
    /// Only `false` (read) is accepted.
    pub unread: bool,
}

/// One of the caller's notifications marked read (spec §7: `{unread: false}`).
#[utoipa::path(patch, path = "/api/notification/{id}/", tag = "collaboration", security(("bearer" = [])), request_body = ReadRequest,
    params(("id" = String, Path, description = "The notification's id")),
    responses((status = 200, body = Notification), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn notification_read(
    Caller(s, u): Caller,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<ReadRequest>,
) -> Result<Json<Notification>, ApiError> {
    if req.unread {
        return Err(ApiError::validation(FieldErrors::of("unread", Msg::Invalid)));
    }
    Ok(Json(notifications::mark_read(&s, &u, &id).await?))
}

/// Every notification of the caller read (the pages' "read all").
#[utoipa::path(post, path = "/api/notification/read-all/", tag = "collaboration", security(("bearer" = [])),
    responses((status = 204), (status = 401, body = ErrorBody)))]
async fn notification_read_all(Caller(s, u): Caller) -> Result<StatusCode, ApiError> {
    notifications::read_all(&s, &u).await?;
    Ok(StatusCode::NO_CONTENT)
}

// ------------------------------------------------------------- ratings ----

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LawyerQuery {
    /// Admin: the lawyer's uid (a lawyer always reads their own).
    pub lawyer: Option<String>,
}

/// A lawyer's ratings, newest first (the lawyer their own; admin any lawyer's).
#[utoipa::path(get, path = "/api/rating/", tag = "collaboration", security(("bearer" = [])), params(LawyerQuery),
    responses((status = 200, body = Vec<Rating>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn lawyer_ratings(Caller(s, u): Caller, ApiQuery(q): ApiQuery<LawyerQuery>) -> Result<Json<Vec<Rating>>, ApiError> {
    Ok(Json(ratings::of_lawyer(&s, &u, q.lawyer.as_deref()).await?))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CaseQuery {
    /// Case uid.
    pub case: String,
}

/// A case's rating, or null (whoever may see the case).
#[utoipa::path(get, path = "/api/rating/case/", tag = "collaboration", security(("bearer" = [])), params(CaseQuery),
    responses((status = 200, body = Option<Rating>), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn case_rating(Caller(s, u): Caller, ApiQuery(q): ApiQuery<CaseQuery>) -> Result<Json<Option<Rating>>, ApiError> {
    Ok(Json(ratings::of_case(&s, &u, &q.case).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"case_uid": "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a01", "stars": 5, "comment": "Snabbt och tydligt."}))]
pub struct RateRequest {
    #[schema(format = "uuid")]
    pub case_uid: String,
    /// 1 to 5.
    #[schema(required = true, minimum = 1, maximum = 5)]
    pub stars: Option<i64>,
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub comment: String,
}

/// The customer rates its closed case, once (spec §6: only the customer rates).
#[utoipa::path(post, path = "/api/rating/create/", tag = "collaboration", security(("bearer" = [])), request_body = RateRequest,
    params(Idempotency),
    responses((status = 201, body = Rating), (status = 400, description = "rate_closed_cases_only, already_rated, validation_failed", body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, description = "only_customer_rates", body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn rate(c: Creating, ApiJson(req): ApiJson<RateRequest>) -> Result<Created<Rating>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(ratings::rate(&c.state, &c.user, &req.case_uid, req.stars, &req.comment, &once).await?))
}

//! Content: terms and privacy (`public/`, readable by anyone; the customer's
//! acceptance of a new version; admin publishing), the public offer for the
//! landing page, public documents and templates (`template_file/`), the
//! customer's documents across its cases, support tickets and Freja Academy.
//! Routes, parsing and one service call each; the rules are
//! `shared::services::{legal, templates, documents, support, academy}` and
//! `shared::domain::{legal, template_file, support, academy}`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use shared::api::{ApiJson, ApiPath, ApiQuery, AppState, Caller, Created, Creating, ErrorBody, Idempotency};
use shared::domain::academy::{Lesson, LessonForm, Progress};
use shared::domain::catalogue::{Package, ServicePlan};
use shared::domain::legal::{Acceptance, LegalKind, LegalText, LegalVersion};
use shared::domain::support::{Answer, Ticket, TicketCounts};
use shared::domain::template_file::TemplateFile;
use shared::error::{ApiError, FieldErrors, Msg};
use shared::services::academy::{self, Topic};
use shared::services::documents::{self, CustomerDocument, DocumentFilter, DownloadUrl, UploadTarget};
use shared::services::support::{self, TicketDetails, TicketList};
use shared::services::{catalogue, legal, templates};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(public_terms))
        .routes(routes!(public_privacy))
        .routes(routes!(public_offer))
        .routes(routes!(legal_pending))
        .routes(routes!(legal_accept))
        .routes(routes!(legal_acceptances))
        .routes(routes!(legal_versions))
        .routes(routes!(legal_publish))
        .routes(routes!(template_list))
        .routes(routes!(template_upload_url))
        .routes(routes!(template_create))
        .routes(routes!(template_download))
        .routes(routes!(template_delete))
        .routes(routes!(customer_documents))
        .routes(routes!(ticket_list, ticket_create))
        .routes(routes!(ticket_upload_url))
        .routes(routes!(ticket_counts))
        .routes(routes!(ticket_details))
        .routes(routes!(ticket_answer))
        .routes(routes!(ticket_close))
        .routes(routes!(ticket_file))
        .routes(routes!(academy_list))
        .routes(routes!(academy_progress))
        .routes(routes!(lesson_create))
        .routes(routes!(lesson_update, lesson_delete))
        .routes(routes!(lesson_order))
        .routes(routes!(lesson_video_upload_url))
        .routes(routes!(lesson_video_confirm))
}

fn kind(raw: &str) -> Result<LegalKind, ApiError> {
    LegalKind::parse(raw).ok_or_else(|| ApiError::validation(FieldErrors::of("kind", Msg::Invalid)))
}

// ------------------------------------------------------------- public ----

/// The current terms (Markdown, Swedish and English); anyone may read them.
#[utoipa::path(get, path = "/api/public/terms/", tag = "content",
    responses((status = 200, description = "The current version, or null before one is published", body = Option<LegalText>)))]
async fn public_terms(State(s): State<AppState>) -> Result<Json<Option<LegalText>>, ApiError> {
    Ok(Json(legal::current_if_any(&s, LegalKind::Terms).await?))
}

/// The current privacy policy (Markdown, Swedish and English); anyone may read it.
#[utoipa::path(get, path = "/api/public/privacy/", tag = "content",
    responses((status = 200, description = "The current version, or null before one is published", body = Option<LegalText>)))]
async fn public_privacy(State(s): State<AppState>) -> Result<Json<Option<LegalText>>, ApiError> {
    Ok(Json(legal::current_if_any(&s, LegalKind::Privacy).await?))
}

#[derive(Serialize, ToSchema)]
pub struct Offer {
    pub packages: Vec<Package>,
    pub service_plans: Vec<ServicePlan>,
}

/// The public packages and service plans with their prices (SEK), for the landing page.
#[utoipa::path(get, path = "/api/public/offer/", tag = "content", responses((status = 200, body = Offer)))]
async fn public_offer(State(s): State<AppState>) -> Result<Json<Offer>, ApiError> {
    let (packages, service_plans) = catalogue::public_offer(&s).await?;
    Ok(Json(Offer { packages, service_plans }))
}

// -------------------------------------------------------------- legal ----

/// The current texts the caller has not accepted yet (customers; empty for others).
#[utoipa::path(get, path = "/api/legal/pending/", tag = "content", security(("bearer" = [])),
    responses((status = 200, body = Vec<LegalText>), (status = 401, body = ErrorBody)))]
async fn legal_pending(Caller(s, u): Caller) -> Result<Json<Vec<LegalText>>, ApiError> {
    Ok(Json(legal::pending(&s, &u).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"kind": "terms", "version": 1}))]
pub struct AcceptRequest {
    /// `terms` or `privacy`.
    #[schema(pattern = "^(terms|privacy)$")]
    pub kind: String,
    pub version: u32,
}

/// The caller accepts the current version of a text (once; the first time is kept).
#[utoipa::path(post, path = "/api/legal/accept/", tag = "content", security(("bearer" = [])), request_body = AcceptRequest,
    responses((status = 200, body = Acceptance), (status = 400, description = "legal_version_outdated", body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn legal_accept(Caller(s, u): Caller, ApiJson(r): ApiJson<AcceptRequest>) -> Result<Json<Acceptance>, ApiError> {
    Ok(Json(legal::accept(&s, &u, kind(&r.kind)?, r.version).await?))
}

/// The versions the caller has accepted and when.
#[utoipa::path(get, path = "/api/legal/acceptances/", tag = "content", security(("bearer" = [])),
    responses((status = 200, body = Vec<Acceptance>), (status = 401, body = ErrorBody)))]
async fn legal_acceptances(Caller(s, u): Caller) -> Result<Json<Vec<Acceptance>>, ApiError> {
    Ok(Json(legal::my_acceptances(&s, &u).await?))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct KindQuery {
    /// `terms` or `privacy`.
    #[param(pattern = "^(terms|privacy)$")]
    pub kind: String,
}

/// Every published version of a text, newest first, without the texts (admin; the current text is `public/`'s).
#[utoipa::path(get, path = "/api/legal/versions/", tag = "content", security(("bearer" = [])), params(KindQuery),
    responses((status = 200, body = Vec<LegalVersion>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn legal_versions(Caller(s, u): Caller, ApiQuery(q): ApiQuery<KindQuery>) -> Result<Json<Vec<LegalVersion>>, ApiError> {
    Ok(Json(legal::versions(&s, &u, kind(&q.kind)?).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"kind": "terms", "sv": "Villkor för tjänsten …", "en": "Terms of the service …"}))]
pub struct PublishRequest {
    /// `terms` or `privacy`.
    #[schema(pattern = "^(terms|privacy)$")]
    pub kind: String,
    /// Markdown, at most 100,000 characters (`shared::domain::legal::TEXT_MAX_CHARS`).
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 100000)]
    pub sv: String,
    /// Markdown, at most 100,000 characters.
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 100000)]
    pub en: String,
}

/// Admin publishes the next version of a text (customers accept it once after signing in).
///
/// Its body has a limit of its own, two texts at their limit in any JSON encoding (the 413 answer gives it).
#[utoipa::path(post, path = "/api/legal/publish/", tag = "content", security(("bearer" = [])), request_body = PublishRequest,
    params(Idempotency),
    responses((status = 201, body = LegalVersion), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn legal_publish(c: Creating, ApiJson(r): ApiJson<PublishRequest>) -> Result<Created<LegalVersion>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(legal::publish(&c.state, &c.user, kind(&r.kind)?, &r.sv, &r.en, &once).await?))
}

// ---------------------------------------------------- template files ----

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LanguageQuery {
    /// `sv` or `en`; none = both.
    pub language: Option<String>,
}

/// Public documents and templates, newest first (every signed-in user).
#[utoipa::path(get, path = "/api/template_file/list/", tag = "content", security(("bearer" = [])), params(LanguageQuery),
    responses((status = 200, body = Vec<TemplateFile>), (status = 401, body = ErrorBody)))]
async fn template_list(Caller(s, u): Caller, ApiQuery(q): ApiQuery<LanguageQuery>) -> Result<Json<Vec<TemplateFile>>, ApiError> {
    Ok(Json(templates::list(&s, &u, q.language.as_deref()).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"name": "avtal.pdf"}))]
pub struct NameRequest {
    /// The file's name; its extension decides the type.
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub name: String,
}

/// A presigned PUT for a new template (admin; pdf, word, excel, jpg, png, ppt; at most 25 MiB).
#[utoipa::path(post, path = "/api/template_file/upload-url/", tag = "content", security(("bearer" = [])), request_body = NameRequest,
    responses((status = 200, body = UploadTarget), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn template_upload_url(Caller(s, u): Caller, ApiJson(r): ApiJson<NameRequest>) -> Result<Json<UploadTarget>, ApiError> {
    Ok(Json(templates::upload_url(&s, &u, &r.name).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"key": "the key of the upload-url answer", "name": "mall.pdf", "title": "Hyresavtal", "category": "Avtal", "language": "sv"}))]
pub struct TemplateRequest {
    /// The `key` of the upload-url answer.
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub key: String,
    /// The file's name; longer names are shortened to 200 characters.
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub name: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub title: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 60)]
    pub category: String,
    /// `sv` or `en`.
    #[serde(default)]
    #[schema(required = true, pattern = "^(sv|en)$")]
    pub language: String,
}

/// After the PUT: the file is checked and listed (admin).
#[utoipa::path(post, path = "/api/template_file/", tag = "content", security(("bearer" = [])), request_body = TemplateRequest,
    params(Idempotency),
    responses((status = 201, body = TemplateFile), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn template_create(c: Creating, ApiJson(r): ApiJson<TemplateRequest>) -> Result<Created<TemplateFile>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(templates::create(&c.state, &c.user, (&r.key, &r.name), &r.title, &r.category, &r.language, &once).await?))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct IdQuery {
    pub id: String,
}

/// A download link for a template (every signed-in user).
#[utoipa::path(get, path = "/api/template_file/download/", tag = "content", security(("bearer" = [])), params(IdQuery),
    responses((status = 200, body = DownloadUrl), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn template_download(Caller(s, u): Caller, ApiQuery(q): ApiQuery<IdQuery>) -> Result<Json<DownloadUrl>, ApiError> {
    Ok(Json(templates::download(&s, &u, &q.id).await?))
}

/// Removes a template and its file (admin).
#[utoipa::path(delete, path = "/api/template_file/{id}/", tag = "content", security(("bearer" = [])),
    params(("id" = String, Path, description = "The template's id")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn template_delete(Caller(s, u): Caller, ApiPath(id): ApiPath<String>) -> Result<StatusCode, ApiError> {
    templates::delete(&s, &u, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DocumentsQuery {
    /// Part of the file name.
    #[serde(default)]
    pub search: String,
    /// A case uid.
    pub case: Option<String>,
    /// `pdf`, `word`, `excel`, `ppt` or `image`.
    pub kind: Option<String>,
}

/// The documents of the caller's cases (customer: its own; contact: its
/// company's), newest first; download with `case/file/download/`.
#[utoipa::path(get, path = "/api/documents/", tag = "content", security(("bearer" = [])), params(DocumentsQuery),
    responses((status = 200, body = Vec<CustomerDocument>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn customer_documents(Caller(s, u): Caller, ApiQuery(q): ApiQuery<DocumentsQuery>) -> Result<Json<Vec<CustomerDocument>>, ApiError> {
    let filter = DocumentFilter {
        search: &q.search,
        case_uid: q.case.as_deref().map(str::trim).filter(|c| !c.is_empty()),
        kind: q.kind.as_deref().map(str::trim).filter(|k| !k.is_empty()),
    };
    Ok(Json(documents::across_cases(&s, &u, filter).await?))
}

// ------------------------------------------------------------ support ----

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TicketQuery {
    /// `open`, `answered` or `closed`; none = all.
    pub status: Option<String>,
    /// The `next` of the page before.
    pub cursor: Option<String>,
}

/// Tickets newest first: admin every ticket; the customer and its contacts their company's.
#[utoipa::path(get, path = "/api/support/", tag = "content", security(("bearer" = [])), params(TicketQuery),
    responses((status = 200, body = TicketList), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn ticket_list(Caller(s, u): Caller, ApiQuery(q): ApiQuery<TicketQuery>) -> Result<Json<TicketList>, ApiError> {
    Ok(Json(support::list(&s, &u, q.status.as_deref(), q.cursor.as_deref()).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"subject": "Fråga om fakturan", "message": "Hur läser jag tidrapporten?"}))]
pub struct TicketRequest {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 300)]
    pub subject: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 10000)]
    pub message: String,
    /// One of the caller's cases.
    #[serde(default, deserialize_with = "shared::domain::text::clean::opt_uuid")]
    #[schema(format = "uuid")]
    pub case_uid: Option<String>,
    /// The key from `support/file/upload-url/`, after the file was PUT.
    pub attachment_key: Option<String>,
    pub attachment_name: Option<String>,
}

/// The contact form: a new ticket of the caller's company (customer or contact).
#[utoipa::path(post, path = "/api/support/", tag = "content", security(("bearer" = [])), request_body = TicketRequest,
    params(Idempotency),
    responses((status = 201, body = Ticket), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn ticket_create(c: Creating, ApiJson(r): ApiJson<TicketRequest>) -> Result<Created<Ticket>, ApiError> {
    let once = c.once(None).await?;
    let attachment = match r.attachment_key.as_deref().map(str::trim).filter(|k| !k.is_empty()) {
        Some(key) => Some((key, r.attachment_name.as_deref().unwrap_or(""))),
        None => None,
    };
    Ok(Created(support::create(&c.state, &c.user, &r.subject, &r.message, r.case_uid.as_deref(), attachment, &once).await?))
}

/// A presigned PUT for a file to send with a new ticket (checked when the ticket is sent).
#[utoipa::path(post, path = "/api/support/file/upload-url/", tag = "content", security(("bearer" = [])), request_body = NameRequest,
    responses((status = 200, body = UploadTarget), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn ticket_upload_url(Caller(s, u): Caller, ApiJson(r): ApiJson<NameRequest>) -> Result<Json<UploadTarget>, ApiError> {
    Ok(Json(support::attachment_upload_url(&s, &u, &r.name).await?))
}

/// The caller's company's tickets by status (Statistics → Support).
#[utoipa::path(get, path = "/api/support/counts/", tag = "content", security(("bearer" = [])),
    responses((status = 200, body = TicketCounts), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn ticket_counts(Caller(s, u): Caller) -> Result<Json<TicketCounts>, ApiError> {
    Ok(Json(support::counts(&s, &u).await?))
}

/// A ticket with its answers (whoever sees it).
#[utoipa::path(get, path = "/api/support/{id}/", tag = "content", security(("bearer" = [])),
    params(("id" = u64, Path, description = "The ticket's number")),
    responses((status = 200, body = TicketDetails), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn ticket_details(Caller(s, u): Caller, ApiPath(id): ApiPath<u64>) -> Result<Json<TicketDetails>, ApiError> {
    Ok(Json(support::details(&s, &u, id).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"text": "Tidrapporten finns under Tjänster."}))]
pub struct AnswerRequest {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 10000)]
    pub text: String,
}

/// An answer (admin) or a follow-up (the ticket's customer side); not in a closed ticket.
#[utoipa::path(post, path = "/api/support/{id}/answer/", tag = "content", security(("bearer" = [])), request_body = AnswerRequest,
    params(Idempotency, ("id" = u64, Path, description = "The ticket's number")),
    responses((status = 201, body = Answer), (status = 400, description = "ticket_closed, validation_failed", body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn ticket_answer(c: Creating, ApiPath(id): ApiPath<u64>, ApiJson(r): ApiJson<AnswerRequest>) -> Result<Created<Answer>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(support::answer(&c.state, &c.user, id, &r.text, &once).await?))
}

/// Admin closes a ticket.
#[utoipa::path(post, path = "/api/support/{id}/close/", tag = "content", security(("bearer" = [])),
    params(("id" = u64, Path, description = "The ticket's number")),
    responses((status = 200, body = Ticket), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn ticket_close(Caller(s, u): Caller, ApiPath(id): ApiPath<u64>) -> Result<Json<Ticket>, ApiError> {
    Ok(Json(support::close(&s, &u, id).await?))
}

/// A download link for a ticket's file (whoever sees the ticket).
#[utoipa::path(get, path = "/api/support/{id}/file/", tag = "content", security(("bearer" = [])),
    params(("id" = u64, Path, description = "The ticket's number")),
    responses((status = 200, body = DownloadUrl), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn ticket_file(Caller(s, u): Caller, ApiPath(id): ApiPath<u64>) -> Result<Json<DownloadUrl>, ApiError> {
    Ok(Json(support::attachment_download(&s, &u, id).await?))
}

// ------------------------------------------------------------ academy ----

/// The caller's academy: lessons by topic with the caller's own progress
/// (admin: every lesson, published or not).
#[utoipa::path(get, path = "/api/academy/", tag = "content", security(("bearer" = [])),
    responses((status = 200, body = Vec<Topic>), (status = 401, body = ErrorBody)))]
async fn academy_list(Caller(s, u): Caller) -> Result<Json<Vec<Topic>>, ApiError> {
    Ok(Json(academy::academy(&s, &u).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"watched": true, "completed": true}))]
pub struct ProgressRequest {
    pub watched: Option<bool>,
    pub completed: Option<bool>,
}

/// The caller's progress in a lesson (watched, completed).
#[utoipa::path(post, path = "/api/academy/{id}/progress/", tag = "content", security(("bearer" = [])), request_body = ProgressRequest,
    params(("id" = String, Path, description = "The lesson's id")),
    responses((status = 200, body = Progress), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn academy_progress(
    Caller(s, u): Caller,
    ApiPath(id): ApiPath<String>,
    ApiJson(r): ApiJson<ProgressRequest>,
) -> Result<Json<Progress>, ApiError> {
    Ok(Json(academy::set_progress(&s, &u, &id, r.watched, r.completed).await?))
}

/// Admin creates a lesson.
#[utoipa::path(post, path = "/api/academy/lessons/", tag = "content", security(("bearer" = [])), request_body = LessonForm,
    params(Idempotency),
    responses((status = 201, body = Lesson), (status = 400, description = "validation_failed (video_url_not_allowed)", body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn lesson_create(c: Creating, ApiJson(f): ApiJson<LessonForm>) -> Result<Created<Lesson>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(academy::create(&c.state, &c.user, &f, &once).await?))
}

/// Admin changes a lesson (publishes it with `published: true`).
#[utoipa::path(put, path = "/api/academy/lessons/{id}/", tag = "content", security(("bearer" = [])), request_body = LessonForm,
    params(("id" = String, Path, description = "The lesson's id")),
    responses((status = 200, body = Lesson), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn lesson_update(
    Caller(s, u): Caller,
    ApiPath(id): ApiPath<String>,
    ApiJson(f): ApiJson<LessonForm>,
) -> Result<Json<Lesson>, ApiError> {
    Ok(Json(academy::update(&s, &u, &id, &f).await?))
}

/// Admin removes a lesson (and its uploaded video).
#[utoipa::path(delete, path = "/api/academy/lessons/{id}/", tag = "content", security(("bearer" = [])),
    params(("id" = String, Path, description = "The lesson's id")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn lesson_delete(Caller(s, u): Caller, ApiPath(id): ApiPath<String>) -> Result<StatusCode, ApiError> {
    academy::delete(&s, &u, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"ids": ["a lesson id"]}))]
pub struct OrderRequest {
    /// Lesson ids, first to last.
    pub ids: Vec<String>,
}

/// Admin orders lessons.
#[utoipa::path(post, path = "/api/academy/lessons/order/", tag = "content", security(("bearer" = [])), request_body = OrderRequest,
    responses((status = 200, body = Vec<Lesson>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn lesson_order(Caller(s, u): Caller, ApiJson(r): ApiJson<OrderRequest>) -> Result<Json<Vec<Lesson>>, ApiError> {
    Ok(Json(academy::reorder(&s, &u, &r.ids).await?))
}

/// A presigned PUT for a lesson's MP4 video (admin; at most 500 MiB).
#[utoipa::path(post, path = "/api/academy/lessons/{id}/video/upload-url/", tag = "content", security(("bearer" = [])),
    params(("id" = String, Path, description = "The lesson's id")),
    responses((status = 200, body = UploadTarget), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn lesson_video_upload_url(Caller(s, u): Caller, ApiPath(id): ApiPath<String>) -> Result<Json<UploadTarget>, ApiError> {
    Ok(Json(academy::video_upload_url(&s, &u, &id).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"key": "the key of the upload-url answer"}))]
pub struct KeyRequest {
    /// The `key` of the upload-url answer.
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub key: String,
}

/// After the PUT: the MP4 becomes the lesson's video (admin).
#[utoipa::path(post, path = "/api/academy/lessons/{id}/video/confirm/", tag = "content", security(("bearer" = [])), request_body = KeyRequest,
    params(("id" = String, Path, description = "The lesson's id")),
    responses((status = 200, body = Lesson), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn lesson_video_confirm(
    Caller(s, u): Caller,
    ApiPath(id): ApiPath<String>,
    ApiJson(r): ApiJson<KeyRequest>,
) -> Result<Json<Lesson>, ApiError> {
    Ok(Json(academy::confirm_video(&s, &u, &id, &r.key).await?))
}

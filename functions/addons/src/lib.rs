//! Add-on services behind their purchase: the verified-signing
//! token, contract-signing envelopes, credit checks and the verify-services
//! call. Routes, parsing and one service call each; the rules are
//! `shared::domain::addons` (spec §5 access, signing validation) and the use
//! cases `shared::services::addons`; providers are behind
//! `shared::providers`.

pub mod inkasso;
pub mod meetings;

use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use shared::api::{ApiJson, ApiPath, ApiQuery, AppState, Caller, Created, Creating, ErrorBody, Idempotency};
use shared::domain::addons::{CreditReport, Envelope, EnvelopeForm};
use shared::domain::subscription::PurchasedService;
use shared::error::ApiError;
use shared::services::addons::{self as use_cases, TokenState};
use shared::services::documents::{DownloadUrl, UploadTarget};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(verify_services))
        .routes(routes!(services_test))
        .routes(routes!(token_check))
        .routes(routes!(token_register))
        .routes(routes!(token_login))
        .routes(routes!(envelope_list, envelope_create))
        .routes(routes!(envelope_upload_url))
        .routes(routes!(envelope_get, envelope_update))
        .routes(routes!(envelope_send))
        .routes(routes!(envelope_remind))
        .routes(routes!(envelope_cancel))
        .routes(routes!(envelope_download))
        .routes(routes!(credit_account))
        .routes(routes!(credit_list, credit_lookup))
        .merge(inkasso::api())
        .merge(meetings::api())
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ServiceQuery {
    /// Verified, Bisnode, Incasso, Kontrakto or Video meeting.
    #[param(pattern = "^(Verified|Bisnode|Incasso|Kontrakto|Video meeting)$")]
    pub service: String,
}

/// The caller's usable rows of a service (spec §7 verified services
/// `?service=`: at least one means allowed; a contact without the service's
/// permission gets none).
#[utoipa::path(get, path = "/api/customer/verify-services/", tag = "addons", security(("bearer" = [])), params(ServiceQuery),
    responses((status = 200, body = [PurchasedService]), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn verify_services(Caller(s, u): Caller, ApiQuery(q): ApiQuery<ServiceQuery>) -> Result<Json<Vec<PurchasedService>>, ApiError> {
    Ok(Json(use_cases::verify_services(&s, &u, &q.service).await?))
}

/// Alias of GET customer/verify-services/ (same query, answer and access).
///
/// Spec §7 `services/test/`: tests whether the caller may use a service
/// (at least one row means allowed).
#[utoipa::path(get, path = "/api/services/test/", tag = "addons", security(("bearer" = [])), params(ServiceQuery),
    responses((status = 200, body = [PurchasedService]), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn services_test(Caller(s, u): Caller, ApiQuery(q): ApiQuery<ServiceQuery>) -> Result<Json<Vec<PurchasedService>>, ApiError> {
    Ok(Json(use_cases::verify_services(&s, &u, &q.service).await?))
}

/// Whether the company holds a signing token and the provider accepts it.
#[utoipa::path(get, path = "/api/verified/check/", tag = "addons", security(("bearer" = [])),
    responses((status = 200, body = TokenState), (status = 401, body = ErrorBody),
        (status = 403, description = "service_not_purchased, service_permission_missing", body = ErrorBody), (status = 502, description = "provider_*", body = ErrorBody)))]
async fn token_check(Caller(s, u): Caller) -> Result<Json<TokenState>, ApiError> {
    Ok(Json(use_cases::check_token(&s, &u).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"company": "5f2a9c01d4e8b7001a3c9e11", "email": "connect@example.com", "password": "secret-pass"}))]
pub struct TokenRegistration {
    /// The company's id at Verified (shown in the address when logged in at Verified).
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 100, pattern = "^[A-Za-z0-9_-]+$")]
    pub company: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 254, format = Email)]
    pub email: String,
    /// At least 6 characters.
    #[serde(default)]
    #[schema(required = true, min_length = 6, format = Password)]
    pub password: String,
}

/// Connects the company's Verified account (its company id at Verified and a
/// user's credentials); the token is kept per company and renewed with them.
#[utoipa::path(post, path = "/api/verified/", tag = "addons", security(("bearer" = [])), request_body = TokenRegistration,
    responses((status = 200, body = TokenState), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 502, body = ErrorBody)))]
async fn token_register(Caller(s, u): Caller, ApiJson(f): ApiJson<TokenRegistration>) -> Result<Json<TokenState>, ApiError> {
    Ok(Json(use_cases::register_token(&s, &u, &f.company, &f.email, &f.password).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"email": "sign@example.com", "password": "wrong-password"}))]
pub struct TokenLogin {
    #[serde(default)]
    #[schema(format = Email)]
    pub email: String,
    /// The company's id at Verified; none: the one connected before.
    #[serde(default)]
    pub company: Option<String>,
    #[serde(default)]
    #[schema(format = Password)]
    pub password: String,
}

/// Logs in to the company's signing account; the token is kept per company.
#[utoipa::path(post, path = "/api/verified/auth/", tag = "addons", security(("bearer" = [])), request_body = TokenLogin,
    responses((status = 200, body = TokenState), (status = 400, description = "verified_login_failed", body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 502, body = ErrorBody)))]
async fn token_login(Caller(s, u): Caller, ApiJson(f): ApiJson<TokenLogin>) -> Result<Json<TokenState>, ApiError> {
    Ok(Json(use_cases::login_token(&s, &u, &f.email, &f.password, f.company.as_deref()).await?))
}

/// The company's envelopes, newest first (sent ones polled at the provider).
#[utoipa::path(get, path = "/api/services/contract-sign/", tag = "addons", security(("bearer" = [])),
    responses((status = 200, body = [Envelope]), (status = 401, body = ErrorBody),
        (status = 403, description = "service_not_purchased, service_permission_missing, verified_token_missing", body = ErrorBody)))]
async fn envelope_list(Caller(s, u): Caller) -> Result<Json<Vec<Envelope>>, ApiError> {
    Ok(Json(use_cases::list_envelopes(&s, &u).await?))
}

/// A new draft envelope (PDFs only, recipients, enough signers), booked as
/// one use of the Verified plan.
#[utoipa::path(post, path = "/api/services/contract-sign/", tag = "addons", security(("bearer" = [])), request_body = EnvelopeForm,
    params(Idempotency),
    responses((status = 201, body = Envelope), (status = 400, description = "validation_failed, invalid_pdf, not_enough_signers, limit_reached", body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn envelope_create(c: Creating, ApiJson(f): ApiJson<EnvelopeForm>) -> Result<Created<Envelope>, ApiError> {
    let once = c.once(f.request_id.as_deref()).await?;
    Ok(Created(use_cases::create_envelope(&c.state, &c.user, &f, f.request_id.as_deref(), &once).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"name": "avtal.pdf"}))]
pub struct PdfUpload {
    /// A `.pdf` file name.
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub name: String,
}

/// A presigned PUT for a PDF of an envelope (its content is checked when the envelope is saved).
#[utoipa::path(post, path = "/api/services/contract-sign/upload-url/", tag = "addons", security(("bearer" = [])), request_body = PdfUpload,
    responses((status = 200, body = UploadTarget), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn envelope_upload_url(Caller(s, u): Caller, ApiJson(f): ApiJson<PdfUpload>) -> Result<Json<UploadTarget>, ApiError> {
    Ok(Json(use_cases::envelope_upload_url(&s, &u, &f.name).await?))
}

/// One envelope (polled at the provider when sent).
#[utoipa::path(get, path = "/api/services/contract-sign/{uid}/", tag = "addons", security(("bearer" = [])), params(("uid" = String, Path)),
    responses((status = 200, body = Envelope), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 502, body = ErrorBody)))]
async fn envelope_get(Caller(s, u): Caller, ApiPath(uid): ApiPath<String>) -> Result<Json<Envelope>, ApiError> {
    Ok(Json(use_cases::get_envelope(&s, &u, &uid).await?))
}

/// Changes a draft envelope.
#[utoipa::path(put, path = "/api/services/contract-sign/{uid}/", tag = "addons", security(("bearer" = [])), params(("uid" = String, Path)), request_body = EnvelopeForm,
    responses((status = 200, body = Envelope), (status = 400, description = "validation_failed, invalid_pdf, not_enough_signers, envelope_not_draft", body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn envelope_update(
    Caller(s, u): Caller,
    ApiPath(uid): ApiPath<String>,
    ApiJson(f): ApiJson<EnvelopeForm>,
) -> Result<Json<Envelope>, ApiError> {
    Ok(Json(use_cases::update_envelope(&s, &u, &uid, &f).await?))
}

/// Sends a draft to its recipients through the provider.
#[utoipa::path(post, path = "/api/services/contract-sign/{uid}/send/", tag = "addons", security(("bearer" = [])), params(("uid" = String, Path)),
    responses((status = 200, body = Envelope), (status = 400, description = "envelope_not_draft", body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 502, description = "provider_*", body = ErrorBody)))]
async fn envelope_send(Caller(s, u): Caller, ApiPath(uid): ApiPath<String>) -> Result<Json<Envelope>, ApiError> {
    Ok(Json(use_cases::send_envelope(&s, &u, &uid).await?))
}

/// Reminds the recipients of a sent envelope who have not signed.
#[utoipa::path(post, path = "/api/services/contract-sign/{uid}/remind/", tag = "addons", security(("bearer" = [])), params(("uid" = String, Path)),
    responses((status = 200, body = Envelope), (status = 400, description = "envelope_not_sent", body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 502, body = ErrorBody)))]
async fn envelope_remind(Caller(s, u): Caller, ApiPath(uid): ApiPath<String>) -> Result<Json<Envelope>, ApiError> {
    Ok(Json(use_cases::remind_envelope(&s, &u, &uid).await?))
}

/// Cancels a draft or a sent envelope.
#[utoipa::path(post, path = "/api/services/contract-sign/{uid}/cancel/", tag = "addons", security(("bearer" = [])), params(("uid" = String, Path)),
    responses((status = 200, body = Envelope), (status = 400, description = "envelope_not_sent", body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 502, body = ErrorBody)))]
async fn envelope_cancel(Caller(s, u): Caller, ApiPath(uid): ApiPath<String>) -> Result<Json<Envelope>, ApiError> {
    Ok(Json(use_cases::cancel_envelope(&s, &u, &uid).await?))
}

/// A download link for the signed PDF of a completed envelope.
#[utoipa::path(get, path = "/api/services/contract-sign/{uid}/download/", tag = "addons", security(("bearer" = [])), params(("uid" = String, Path)),
    responses((status = 200, body = DownloadUrl), (status = 400, description = "envelope_not_completed", body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn envelope_download(Caller(s, u): Caller, ApiPath(uid): ApiPath<String>) -> Result<Json<DownloadUrl>, ApiError> {
    Ok(Json(use_cases::signed_download(&s, &u, &uid).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"active": true, "account": "konto-1"}))]
pub struct CreditAccount {
    pub active: bool,
    /// The account at the provider (default: the customer's uid).
    pub account: Option<String>,
}

/// Admin or a sales person turns a customer's credit-information account on or off.
#[utoipa::path(put, path = "/api/customer/bisnode/{uid}/", tag = "addons", security(("bearer" = [])), params(("uid" = String, Path)), request_body = CreditAccount,
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn credit_account(
    Caller(s, u): Caller,
    ApiPath(uid): ApiPath<String>,
    ApiJson(f): ApiJson<CreditAccount>,
) -> Result<StatusCode, ApiError> {
    use_cases::set_credit_account(&s, &u, &uid, f.active, f.account.as_deref()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The company's credit reports, newest first (pending ones asked again).
#[utoipa::path(get, path = "/api/services/credit-check/", tag = "addons", security(("bearer" = [])),
    responses((status = 200, body = [CreditReport]), (status = 401, body = ErrorBody),
        (status = 403, description = "service_not_purchased, credit_account_inactive, service_permission_missing", body = ErrorBody)))]
async fn credit_list(Caller(s, u): Caller) -> Result<Json<Vec<CreditReport>>, ApiError> {
    Ok(Json(use_cases::credit_reports(&s, &u).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"kind": "company", "number": "556000-0001", "request_id": "0123456789abcdef0123456789abcdef"}))]
pub struct CreditLookup {
    /// `company` (organisationsnummer) or `person` (personnummer).
    #[serde(default)]
    #[schema(required = true, pattern = "^(company|person)$")]
    pub kind: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub number: String,
    /// A person's lookup (a sole trader too): the legitimate need for the
    /// report (required, kreditupplysningslagen), kept with it.
    #[schema(max_length = 500)]
    pub legitimate_need: Option<String>,
    /// A person's lookup: the person's e-mail address, where the copy of the
    /// report is sent at once; or else `copy_address`.
    #[schema(max_length = 254)]
    pub copy_email: Option<String>,
    /// A person's lookup without `copy_email`: the postal address the office
    /// posts the copy to.
    #[schema(max_length = 300)]
    pub copy_address: Option<String>,
    /// 32 hex digits drawn once per lookup: a retry answers the same report.
    /// Deprecated: send the `Idempotency-Key` header instead. Still accepted
    /// for this release: without the header it is the request's key.
    #[schema(deprecated)]
    #[schema(pattern = "^[0-9a-f]{32}$")]
    pub request_id: Option<String>,
}

/// Looks up a company or a person; the report (or a pending one, ready
/// later) is kept and booked as one use of the Bisnode plan. A person's
/// lookup requires its legitimate need and where the person's copy goes.
#[utoipa::path(post, path = "/api/services/credit-check/", tag = "addons", security(("bearer" = [])), request_body = CreditLookup,
    params(Idempotency),
    responses((status = 201, body = CreditReport), (status = 400, description = "validation_failed, limit_reached", body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 502, description = "provider_*", body = ErrorBody)))]
async fn credit_lookup(c: Creating, ApiJson(f): ApiJson<CreditLookup>) -> Result<Created<CreditReport>, ApiError> {
    let once = c.once(f.request_id.as_deref()).await?;
    let ask = use_cases::CreditAsk {
        kind: &f.kind,
        number: &f.number,
        legitimate_need: f.legitimate_need.as_deref(),
        copy_email: f.copy_email.as_deref(),
        copy_address: f.copy_address.as_deref(),
    };
    Ok(Created(use_cases::credit_lookup(&c.state, &c.user, &ask, f.request_id.as_deref(), &once).await?))
}

//! Debt collection (Inkasso: the account application, `inkasso-hashs/`,
//! claims, and the office's hand-overs to the collection agency), the contract-check link and the signing provider's callback
//! Routes, parsing and one service call each; the
//! use cases are `shared::services::{inkasso, verified_callback}`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use shared::api::{ApiBytes, ApiJson, ApiPath, ApiQuery, AppState, Caller, Created, Creating, ErrorBody, Idempotency};
use shared::domain::addons::{InkassoAccount, InkassoProspect};
use shared::domain::inkasso::{Claim, ClaimForm};
use shared::error::ApiError;
use shared::services::documents::{DownloadUrl, UploadTarget};
use shared::services::inkasso::{self as use_cases, ApplicationDecision, ClaimUpdate, ContractCheckLink, HandOvers, InkassoHash};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(inkasso_get, inkasso_apply))
        .routes(routes!(inkasso_hashes))
        .routes(routes!(claim_list, claim_register))
        .routes(routes!(claim_upload_url))
        .routes(routes!(handovers))
        .routes(routes!(handover_decide))
        .routes(routes!(handover_claim))
        .routes(routes!(handover_invoice))
        .routes(routes!(contract_check))
        .routes(routes!(verified_callback))
}

/// The company's Inkasso account application and its state (null before
/// applying).
#[utoipa::path(get, path = "/api/inkasso/prospect/", tag = "addons", security(("bearer" = [])),
    responses((status = 200, body = Option<InkassoProspect>), (status = 401, body = ErrorBody),
        (status = 403, description = "service_not_purchased, service_permission_missing", body = ErrorBody)))]
async fn inkasso_get(Caller(s, u): Caller) -> Result<Json<Option<InkassoProspect>>, ApiError> {
    Ok(Json(use_cases::prospect(&s, &u).await?))
}

/// Applies for the company's Inkasso account (spec §3 fields validated):
/// handed over to the office, which registers it with the collection agency.
#[utoipa::path(put, path = "/api/inkasso/prospect/", tag = "addons", security(("bearer" = [])), request_body = InkassoAccount,
    responses((status = 200, body = InkassoProspect), (status = 400, description = "validation_failed", body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody)))]
async fn inkasso_apply(Caller(s, u): Caller, ApiJson(f): ApiJson<InkassoAccount>) -> Result<Json<InkassoProspect>, ApiError> {
    Ok(Json(use_cases::apply(&s, &u, &f).await?))
}

/// The identifiers linking the company to its Inkasso account at the
/// collection agency (empty until approved).
#[utoipa::path(get, path = "/api/inkasso-hashs/", tag = "addons", security(("bearer" = [])),
    responses((status = 200, body = [InkassoHash]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn inkasso_hashes(Caller(s, u): Caller) -> Result<Json<Vec<InkassoHash>>, ApiError> {
    Ok(Json(use_cases::hashes(&s, &u).await?))
}

/// The company's claims, newest first, with the status staff recorded from the agency.
#[utoipa::path(get, path = "/api/services/inkasso/claims/", tag = "addons", security(("bearer" = [])),
    responses((status = 200, body = [Claim]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn claim_list(Caller(s, u): Caller) -> Result<Json<Vec<Claim>>, ApiError> {
    Ok(Json(use_cases::claims(&s, &u).await?))
}

/// Registers a claim, handed over to the collection agency through the office; booked as one use of the Incasso plan.
#[utoipa::path(post, path = "/api/services/inkasso/claims/", tag = "addons", security(("bearer" = [])), request_body = ClaimForm,
    params(Idempotency),
    responses((status = 201, body = Claim),
        (status = 400, description = "validation_failed, invalid_pdf, claim_amount_invalid, due_date_too_far, inkasso_account_not_approved, limit_reached", body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn claim_register(c: Creating, ApiJson(f): ApiJson<ClaimForm>) -> Result<Created<Claim>, ApiError> {
    let once = c.once(f.request_id.as_deref()).await?;
    Ok(Created(use_cases::register_claim(&c.state, &c.user, &f, &once).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"name": "faktura.pdf"}))]
pub struct InvoiceUpload {
    /// A `.pdf` file name.
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub name: String,
}

/// A presigned PUT for a claim's invoice PDF (its content is checked when the claim is registered).
#[utoipa::path(post, path = "/api/services/inkasso/claims/upload-url/", tag = "addons", security(("bearer" = [])), request_body = InvoiceUpload,
    responses((status = 200, body = UploadTarget), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn claim_upload_url(Caller(s, u): Caller, ApiJson(f): ApiJson<InvoiceUpload>) -> Result<Json<UploadTarget>, ApiError> {
    Ok(Json(use_cases::upload_url(&s, &u, &f.name).await?))
}

/// The office's open hand-overs to the collection agency (admin):
/// applications awaiting its answer, claims not closed.
#[utoipa::path(get, path = "/api/admin/inkasso/", tag = "addons", security(("bearer" = [])),
    responses((status = 200, body = HandOvers), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn handovers(Caller(s, u): Caller) -> Result<Json<HandOvers>, ApiError> {
    Ok(Json(use_cases::handovers(&s, &u).await?))
}

/// Records the agency's answer to a customer's application (admin).
#[utoipa::path(put, path = "/api/admin/inkasso/{customer_uid}/prospect/", tag = "addons", security(("bearer" = [])),
    params(("customer_uid" = String, Path)), request_body = ApplicationDecision,
    responses((status = 200, body = InkassoProspect), (status = 400, description = "validation_failed", body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn handover_decide(
    Caller(s, u): Caller,
    ApiPath(customer): ApiPath<String>,
    ApiJson(d): ApiJson<ApplicationDecision>,
) -> Result<Json<InkassoProspect>, ApiError> {
    Ok(Json(use_cases::decide(&s, &u, &customer, &d).await?))
}

/// Records a claim's status at the agency (admin).
#[utoipa::path(put, path = "/api/admin/inkasso/{customer_uid}/claims/{uid}/", tag = "addons", security(("bearer" = [])),
    params(("customer_uid" = String, Path), ("uid" = String, Path)), request_body = ClaimUpdate,
    responses((status = 200, body = Claim), (status = 400, description = "validation_failed", body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn handover_claim(
    Caller(s, u): Caller,
    ApiPath((customer, uid)): ApiPath<(String, String)>,
    ApiJson(f): ApiJson<ClaimUpdate>,
) -> Result<Json<Claim>, ApiError> {
    Ok(Json(use_cases::update_claim(&s, &u, &customer, &uid, &f).await?))
}

/// A presigned download of a claim's invoice PDF (admin; recorded in the audit trail).
#[utoipa::path(get, path = "/api/admin/inkasso/{customer_uid}/claims/{uid}/invoice/", tag = "addons", security(("bearer" = [])),
    params(("customer_uid" = String, Path), ("uid" = String, Path)),
    responses((status = 200, body = DownloadUrl), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn handover_invoice(
    Caller(s, u): Caller,
    ApiPath((customer, uid)): ApiPath<(String, String)>,
) -> Result<Json<DownloadUrl>, ApiError> {
    Ok(Json(use_cases::claim_invoice(&s, &u, &customer, &uid).await?))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LangQuery {
    /// sv (default) or en.
    #[serde(default)]
    pub lang: String,
}

/// The contract-check site's link (spec §2: the screen always shown, link out).
#[utoipa::path(get, path = "/api/services/kontracto/", tag = "addons", security(("bearer" = [])), params(LangQuery),
    responses((status = 200, body = ContractCheckLink), (status = 401, body = ErrorBody), (status = 403, description = "service_permission_missing", body = ErrorBody)))]
async fn contract_check(Caller(s, u): Caller, ApiQuery(q): ApiQuery<LangQuery>) -> Result<Json<ContractCheckLink>, ApiError> {
    Ok(Json(use_cases::contract_check(&s, &u, &q.lang).await?))
}

/// The signing provider's webhook, delivered by Amazon SNS. No user
/// session: every message must carry a valid SNS signature (certificate
/// from an Amazon SNS host); a subscription confirmation is confirmed, a
/// notification makes the named envelope be read again from the provider.
/// Repeating a message changes nothing.
#[utoipa::path(post, path = "/api/verified/callback/", tag = "addons", request_body(content = String, description = "An Amazon SNS message (JSON): Notification or SubscriptionConfirmation, signed by SNS.",
        example = json!("{\"Type\": \"Notification\", \"MessageId\": \"…\", \"TopicArn\": \"arn:aws:sns:…\", \"Message\": \"…\", \"Timestamp\": \"…\", \"SignatureVersion\": \"2\", \"Signature\": \"…\", \"SigningCertURL\": \"https://sns.eu-north-1.amazonaws.com/….pem\"}")),
    responses((status = 204), (status = 401, description = "not a message signed by Amazon SNS", body = ErrorBody),
        (status = 413, body = ErrorBody), (status = 502, description = "provider_*", body = ErrorBody)))]
async fn verified_callback(State(s): State<AppState>, ApiBytes(body): ApiBytes) -> Result<StatusCode, ApiError> {
    shared::services::verified_callback::envelope_changed(&s, &body).await?;
    Ok(StatusCode::NO_CONTENT)
}

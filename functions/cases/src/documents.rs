//! Case documents (spec §3 `files`, §5): routes only; the presigned-URL
//! flow and its checks are `shared::services::documents`.

use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use shared::api::{ApiJson, ApiQuery, AppState, Caller, Created, Creating, ErrorBody, Idempotency};
use shared::domain::case::CaseFile;
use shared::error::ApiError;
use shared::services::documents::{self, DocumentList, DownloadUrl, UploadTarget};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::CaseQuery;

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(upload_url))
        .routes(routes!(confirm))
        .routes(routes!(download))
        .routes(routes!(remove))
}

#[derive(Deserialize, ToSchema)]
// Its own schema name: the profile image's request is `UploadUrlRequest`.
#[schema(as = CaseFileUploadRequest, example = json!({"case_uid": "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a01", "name": "avtal.pdf"}))]
pub struct UploadUrlRequest {
    #[schema(format = "uuid")]
    pub case_uid: String,
    /// The user's file name; its extension decides the type.
    #[serde(default)]
    /// Longer names are shortened to 200 characters, keeping the extension.
    #[schema(required = true, min_length = 1)]
    pub name: String,
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"case_uid": "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a01", "key": "the key of the upload-url answer", "name": "avtal.pdf"}))]
pub struct ConfirmRequest {
    #[schema(format = "uuid")]
    pub case_uid: String,
    /// The `key` of the upload-url answer.
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub key: String,
    #[serde(default)]
    /// Longer names are shortened to 200 characters, keeping the extension.
    #[schema(required = true, min_length = 1)]
    pub name: String,
}

#[derive(Deserialize, ToSchema, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FileQuery {
    /// Case uid.
    #[serde(default)]
    pub case: String,
    /// The document's key.
    #[serde(default)]
    pub key: String,
}

/// A case's documents with what the caller may do (whoever may see the case).
#[utoipa::path(get, path = "/api/case/file/list/", tag = "cases", security(("bearer" = [])), params(CaseQuery),
    responses((status = 200, body = DocumentList), (status = 404, body = ErrorBody)))]
async fn list(Caller(s, u): Caller, ApiQuery(q): ApiQuery<CaseQuery>) -> Result<Json<DocumentList>, ApiError> {
    Ok(Json(documents::list(&s, &u, &q.case).await?))
}

/// A presigned PUT for a new document of the case (pdf, word, excel, jpg,
/// png, ppt by the name's extension); the key is chosen here.
#[utoipa::path(post, path = "/api/case/file/upload-url/", tag = "cases", security(("bearer" = [])), request_body = UploadUrlRequest,
    responses((status = 200, body = UploadTarget),
        (status = 400, description = "document_type_not_allowed, too_many_documents, validation_failed", body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn upload_url(Caller(s, u): Caller, ApiJson(req): ApiJson<UploadUrlRequest>) -> Result<Json<UploadTarget>, ApiError> {
    Ok(Json(documents::upload_url(&s, &u, &req.case_uid, &req.name).await?))
}

/// After the browser's PUT: the object must exist, be 1 byte to 25 MiB and
/// start with the magic bytes of its type; then it joins the case's files
/// (history entry `file`). Any refusal deletes the object. Confirming a key
/// the case already holds answers that file again (a retried request).
#[utoipa::path(post, path = "/api/case/file/confirm/", tag = "cases", security(("bearer" = [])), request_body = ConfirmRequest,
    params(Idempotency),
    responses((status = 201, body = CaseFile),
        (status = 400, description = "document_type_not_allowed, document_too_large, document_empty, document_not_uploaded, too_many_documents, validation_failed (key: invalid)", body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn confirm(c: Creating, ApiJson(req): ApiJson<ConfirmRequest>) -> Result<Created<CaseFile>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(documents::confirm(&c.state, &c.user, &req.case_uid, &req.key, &req.name, &once).await?))
}

/// A download link for one of the case's documents (whoever may see the case).
#[utoipa::path(get, path = "/api/case/file/download/", tag = "cases", security(("bearer" = [])), params(FileQuery),
    responses((status = 200, body = DownloadUrl), (status = 404, body = ErrorBody)))]
async fn download(Caller(s, u): Caller, ApiQuery(q): ApiQuery<FileQuery>) -> Result<Json<DownloadUrl>, ApiError> {
    Ok(Json(documents::download(&s, &u, &q.case, &q.key).await?))
}

/// Removes a document from the case (history entry `file`), then its object.
/// The provider's side may remove any; the customer side only what that
/// user added; nobody but admin once the case is closed.
#[utoipa::path(delete, path = "/api/case/file/delete/", tag = "cases", security(("bearer" = [])), params(FileQuery),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn remove(Caller(s, u): Caller, ApiQuery(q): ApiQuery<FileQuery>) -> Result<StatusCode, ApiError> {
    documents::remove(&s, &u, &q.case, &q.key).await?;
    Ok(StatusCode::NO_CONTENT)
}

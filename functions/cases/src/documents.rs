//! Case documents (spec §3 `files`, §5): the browser PUTs the file straight
//! to S3 with a presigned URL for a key the server chose
//! (`cases/<case uid>/<uuid>.<ext>`), then confirms; the confirm step checks
//! existence, size and the first bytes against the extension, and deletes
//! the object when it refuses, so a refused file leaves nothing behind.
//! Adding and removing a file rewrite the case conditionally on its revision
//! with a `file` history entry in the same transaction (retried), so two
//! concurrent additions never lose one. The rules are in
//! `shared::domain::document`.

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::Json;
use chrono::Utc;
use serde::{Deserialize, Serialize};
use shared::api::{ApiJson, AppState, CurrentUser, ErrorBody};
use shared::domain::case::{Case, CaseFile};
use shared::domain::document::{self, DocumentType, DOCUMENT_MAX_BYTES, MAX_FILES_PER_CASE};
use shared::domain::User;
use shared::error::ApiError;
use shared::error::Msg;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{entry, visible_case, CaseQuery};

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(upload_url))
        .routes(routes!(confirm))
        .routes(routes!(download))
        .routes(routes!(remove))
}

/// How often a file change is retried when another change of the case won the race.
const ATTEMPTS: usize = 8;

#[derive(Serialize, ToSchema)]
pub struct CaseDocument {
    #[serde(flatten)]
    pub file: CaseFile,
    /// Whether the caller may remove this one.
    pub can_remove: bool,
}

#[derive(Serialize, ToSchema)]
pub struct DocumentList {
    pub files: Vec<CaseDocument>,
    /// Whether the caller may add documents now.
    pub can_manage: bool,
    pub max_files: usize,
    pub max_bytes: i64,
    /// Accepted extensions (without the dot).
    pub extensions: Vec<&'static str>,
}

/// A case's documents with what the caller may do (whoever may see the case).
#[utoipa::path(get, path = "/api/case/file/list/", tag = "cases", security(("bearer" = [])), params(CaseQuery),
    responses((status = 200, body = DocumentList), (status = 404, body = ErrorBody)))]
async fn list(State(s): State<AppState>, CurrentUser(u): CurrentUser, Query(q): Query<CaseQuery>) -> Result<Json<DocumentList>, ApiError> {
    let (c, _) = visible_case(&s, &u, q.case.trim()).await?;
    let files = c
        .files
        .iter()
        .map(|f| CaseDocument { can_remove: document::may_remove_document(&u, &c, &f.uploaded_by), file: f.clone() })
        .collect();
    Ok(Json(DocumentList {
        files,
        can_manage: document::may_manage_documents(&u, &c),
        max_files: MAX_FILES_PER_CASE,
        max_bytes: DOCUMENT_MAX_BYTES,
        extensions: document::TYPES.iter().map(|t| t.ext).collect(),
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct UploadUrlRequest {
    pub case_uid: String,
    /// The user's file name; its extension decides the type.
    #[serde(default)]
    pub name: String,
}

#[derive(Serialize, ToSchema)]
pub struct UploadTarget {
    /// Presigned PUT URL (15 minutes). Send the file with exactly `content_type`.
    pub url: String,
    /// The key to confirm afterwards.
    pub key: String,
    pub content_type: String,
    /// The cleaned file name to confirm with.
    pub name: String,
    pub max_bytes: i64,
}

/// The case and whether the caller may add/remove its documents (403 if not;
/// 404 when they may not even see it).
async fn manageable(s: &AppState, u: &User, case_uid: &str) -> Result<(Case, u64), ApiError> {
    let (c, rev) = visible_case(s, u, case_uid).await?;
    if !document::may_manage_documents(u, &c) {
        return Err(ApiError::Forbidden);
    }
    Ok((c, rev))
}

fn name_and_type(raw: &str) -> Result<(String, DocumentType), ApiError> {
    let name = document::display_name(raw).ok_or_else(|| ApiError::field("name", Msg::Required))?;
    let t = document::type_of_name(&name).ok_or(ApiError::bad(document::DOCUMENT_TYPE_NOT_ALLOWED))?;
    Ok((name, t))
}

/// A presigned PUT for a new document of the case (pdf, word, excel, jpg,
/// png, ppt by the name's extension); the key is chosen here.
#[utoipa::path(post, path = "/api/case/file/upload-url/", tag = "cases", security(("bearer" = [])), request_body = UploadUrlRequest,
    responses((status = 200, body = UploadTarget),
        (status = 400, description = "document_type_not_allowed, too_many_documents, validation_failed", body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn upload_url(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<UploadUrlRequest>,
) -> Result<Json<UploadTarget>, ApiError> {
    let (c, _) = manageable(&s, &u, req.case_uid.trim()).await?;
    let (name, t) = name_and_type(&req.name)?;
    if c.files.len() >= MAX_FILES_PER_CASE {
        return Err(ApiError::bad(document::TOO_MANY_DOCUMENTS));
    }
    let key = document::object_key(&c.uid, &uuid::Uuid::new_v4(), t);
    let url = s.files.presign_upload(&key, t.content_type).await?;
    Ok(Json(UploadTarget { url, key, content_type: t.content_type.into(), name, max_bytes: DOCUMENT_MAX_BYTES }))
}

#[derive(Deserialize, ToSchema)]
pub struct ConfirmRequest {
    pub case_uid: String,
    #[serde(default)]
    pub key: String,
    #[serde(default)]
    pub name: String,
}

/// After the browser's PUT: the object must exist, be 1 byte to 25 MiB and
/// start with the magic bytes of its type; then it joins the case's files
/// (history entry `file`). Any refusal deletes the object. Confirming a key
/// the case already holds answers that file again (a retried request).
#[utoipa::path(post, path = "/api/case/file/confirm/", tag = "cases", security(("bearer" = [])), request_body = ConfirmRequest,
    responses((status = 201, body = CaseFile),
        (status = 400, description = "document_type_not_allowed, document_too_large, document_empty, document_not_uploaded, too_many_documents, validation_failed (key: invalid)", body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn confirm(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<ConfirmRequest>,
) -> Result<(StatusCode, Json<CaseFile>), ApiError> {
    // Seeing the case is enough to get this far; the right to add is checked
    // in `add`, so an upload whose confirm is refused (case closed meanwhile)
    // is deleted too.
    let (c, _) = visible_case(&s, &u, req.case_uid.trim()).await?;
    let key = req.key.trim();
    // Only keys this case's upload-url could have issued; another case's (or
    // any other) object is never touched, not even deleted.
    let key_type = document::case_key_type(&c.uid, key).ok_or_else(|| ApiError::field("key", Msg::Invalid))?;
    if let Some(f) = c.files.iter().find(|f| f.key == key) {
        return Ok((StatusCode::CREATED, Json(f.clone())));
    }
    match add(&s, &u, &c.uid, key, key_type, &req.name).await {
        Ok(f) => Ok((StatusCode::CREATED, Json(f))),
        Err(e) => {
            // Whatever refused it (type, size, limit, rights changed meanwhile),
            // the object must not stay: nothing refers to it.
            if !matches!(&e, ApiError::BadRequest { message, .. } if *message == document::DOCUMENT_NOT_UPLOADED) {
                if let Err(del) = s.files.delete(key).await {
                    eprintln!("WARN refused document {key} not deleted: {del}");
                }
            }
            Err(e)
        }
    }
}

async fn add(s: &AppState, u: &User, case_uid: &str, key: &str, key_type: DocumentType, raw_name: &str) -> Result<CaseFile, ApiError> {
    manageable(s, u, case_uid).await?;
    let (name, t) = name_and_type(raw_name)?;
    // The name confirmed must be of the type the key was issued for (jpg = jpeg).
    if t.content_type != key_type.content_type {
        return Err(ApiError::bad(document::DOCUMENT_TYPE_NOT_ALLOWED));
    }
    let size = s.files.size(key).await?;
    let head = match size {
        Some(n) if n > 0 => s.files.head_bytes(key, document::MAGIC_LEN).await?,
        _ => Vec::new(),
    };
    document::check_upload(key_type, size, &head, DOCUMENT_MAX_BYTES).map_err(ApiError::bad)?;
    let file = CaseFile {
        key: key.to_string(),
        name,
        size: size.unwrap_or_default(),
        uploaded_by: u.uid.clone(),
        uploaded_by_name: u.full_name(),
        uploaded_at: Some(Utc::now()),
    };
    for _ in 0..ATTEMPTS {
        let (prev, rev) = manageable(s, u, case_uid).await?;
        if let Some(f) = prev.files.iter().find(|f| f.key == key) {
            return Ok(f.clone());
        }
        if prev.files.len() >= MAX_FILES_PER_CASE {
            return Err(ApiError::bad(document::TOO_MANY_DOCUMENTS));
        }
        let mut next = prev.clone();
        next.files.push(file.clone());
        next.updated_at = Utc::now();
        let hist = entry(case_uid, u, "file", None, Some(file.name.clone()));
        if s.store.save_case(&prev, rev, &next, &[hist]).await? {
            return Ok(file);
        }
        pause().await;
    }
    Err(ApiError::bad(Msg::ChangedConcurrently))
}

async fn pause() {
    let ms = rand::random_range(5..40);
    tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
}

#[derive(Deserialize, ToSchema, utoipa::IntoParams)]
pub struct FileQuery {
    /// Case uid.
    #[serde(default)]
    pub case: String,
    /// The document's key.
    #[serde(default)]
    pub key: String,
}

#[derive(Serialize, ToSchema)]
pub struct DownloadUrl {
    /// Presigned GET (15 minutes) answering with `Content-Disposition: attachment` and the original name.
    pub url: String,
    pub name: String,
}

/// A download link for one of the case's documents (whoever may see the case).
#[utoipa::path(get, path = "/api/case/file/download/", tag = "cases", security(("bearer" = [])), params(FileQuery),
    responses((status = 200, body = DownloadUrl), (status = 404, body = ErrorBody)))]
async fn download(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Query(q): Query<FileQuery>,
) -> Result<Json<DownloadUrl>, ApiError> {
    let (c, _) = visible_case(&s, &u, q.case.trim()).await?;
    let f = c.files.iter().find(|f| f.key == q.key.trim()).ok_or(ApiError::NotFound)?;
    let url = s.files.presign_download(&f.key, &f.name).await?;
    Ok(Json(DownloadUrl { url, name: f.name.clone() }))
}

/// Removes a document from the case (history entry `file`), then its object.
/// The provider's side may remove any; the customer side only what that
/// user added; nobody but admin once the case is closed.
#[utoipa::path(delete, path = "/api/case/file/delete/", tag = "cases", security(("bearer" = [])), params(FileQuery),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn remove(State(s): State<AppState>, CurrentUser(u): CurrentUser, Query(q): Query<FileQuery>) -> Result<StatusCode, ApiError> {
    let key = q.key.trim();
    for _ in 0..ATTEMPTS {
        let (prev, rev) = visible_case(&s, &u, q.case.trim()).await?;
        let f = prev.files.iter().find(|f| f.key == key).cloned().ok_or(ApiError::NotFound)?;
        if !document::may_remove_document(&u, &prev, &f.uploaded_by) {
            return Err(ApiError::Forbidden);
        }
        let mut next = prev.clone();
        next.files.retain(|x| x.key != key);
        next.updated_at = Utc::now();
        let hist = entry(&prev.uid, &u, "file", Some(f.name.clone()), None);
        if s.store.save_case(&prev, rev, &next, &[hist]).await? {
            // After the write: were the object deleted first and the write
            // then failed, the case would list a file that is gone.
            if let Err(e) = s.files.delete(key).await {
                eprintln!("WARN removed document {key} not deleted: {e}");
            }
            return Ok(StatusCode::NO_CONTENT);
        }
        pause().await;
    }
    Err(ApiError::bad(Msg::ChangedConcurrently))
}

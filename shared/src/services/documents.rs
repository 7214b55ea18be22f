//! Case documents (spec §3 `files`, §5): the browser PUTs the file straight
//! to S3 with a presigned URL for a key the server chose
//! (`cases/<case uid>/<uuid>.<ext>`), then confirms; the confirm step checks
//! existence, size and the first bytes against the extension, and deletes
//! the object when it refuses, so a refused file leaves nothing behind.
//! Adding and removing a file rewrite the case conditionally on its revision
//! with a `file` history entry in the same transaction (retried), so two
//! concurrent additions never lose one. The rules are in
//! [`crate::domain::document`].

use chrono::Utc;
use serde::Serialize;
use utoipa::ToSchema;

use super::cases::{commit_case, commit_case_once, visible, visible_for_write};
use super::events::Event;
use super::retry::{self, Attempt};
use super::Context;
use crate::domain::audit::{AuditAction, AuditEvent};
use crate::domain::case::{CaseFile, HistoryEntry, ListOrder};
use crate::domain::document::{self, DocumentType, Family, DOCUMENT_MAX_BYTES, MAX_FILES_PER_CASE};
use crate::domain::message::Attachment;
use crate::domain::policy;
use crate::domain::User;
use crate::error::{ApiError, Msg};
use crate::store::cases::StoredCase;
use crate::store::idempotency::Once;

/// The case history field of documents.
const FILE: &str = "file";

/// A document of a case with whether the caller may remove it.
#[derive(Serialize, ToSchema)]
pub struct CaseDocument {
    #[serde(flatten)]
    pub file: CaseFile,
    /// Whether the caller may remove this one.
    pub can_remove: bool,
}

/// A case's documents and the rules of adding more.
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

/// A presigned upload for a new document.
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

/// A presigned download of a document.
#[derive(Serialize, ToSchema)]
pub struct DownloadUrl {
    /// Presigned GET (15 minutes) answering with `Content-Disposition: attachment` and the original name.
    pub url: String,
    pub name: String,
}

/// A case's documents with what the caller may do (whoever may see the case).
pub async fn list(ctx: &Context, user: &User, case_uid: &str) -> Result<DocumentList, ApiError> {
    let c = visible(ctx, user, case_uid).await?;
    let files = c
        .files
        .iter()
        .map(|f| CaseDocument { can_remove: document::may_remove_document(user, &c, &f.uploaded_by), file: f.clone() })
        .collect();
    Ok(DocumentList {
        files,
        can_manage: document::may_manage_documents(user, &c),
        max_files: MAX_FILES_PER_CASE,
        max_bytes: DOCUMENT_MAX_BYTES,
        extensions: document::TYPES.iter().map(|t| t.ext).collect(),
    })
}

/// The case and whether the caller may add/remove its documents (403 if not;
/// 404 when they may not even see it).
async fn manageable(ctx: &Context, user: &User, case_uid: &str) -> Result<StoredCase, ApiError> {
    let stored = visible_for_write(ctx, user, case_uid).await?;
    if !document::may_manage_documents(user, &stored.case) {
        return Err(ApiError::Forbidden);
    }
    Ok(stored)
}

fn name_and_type(raw: &str) -> Result<(String, DocumentType), ApiError> {
    named(raw, "name")
}

/// A file's name as shown and its type by the name's extension; `field`
/// names the name in a validation error.
pub(crate) fn named(raw: &str, field: &str) -> Result<(String, DocumentType), ApiError> {
    let name = document::display_name(raw).ok_or_else(|| ApiError::field(field, Msg::Required))?;
    let t = document::type_of_name(&name).ok_or(ApiError::bad(document::DOCUMENT_TYPE_NOT_ALLOWED))?;
    Ok((name, t))
}

/// A presigned PUT for a new document of the case (pdf, word, excel, jpg,
/// png, ppt by the name's extension); the key is chosen here.
pub async fn upload_url(ctx: &Context, user: &User, case_uid: &str, name: &str) -> Result<UploadTarget, ApiError> {
    let c = manageable(ctx, user, case_uid).await?.case;
    let (name, t) = name_and_type(name)?;
    if c.files.len() >= MAX_FILES_PER_CASE {
        return Err(ApiError::bad(document::TOO_MANY_DOCUMENTS));
    }
    let key = document::object_key(&c.uid, &uuid::Uuid::new_v4(), t);
    let url = ctx.files.presign_upload(&key, t.content_type).await?;
    Ok(UploadTarget { url, key, content_type: t.content_type.into(), name, max_bytes: DOCUMENT_MAX_BYTES })
}

/// After the browser's PUT: the object must exist, be 1 byte to 25 MiB and
/// start with the magic bytes of its type; then it joins the case's files
/// (history entry `file`). Any refusal deletes the object. Confirming a key
/// the case already holds answers that file again (a retried request).
pub async fn confirm(ctx: &Context, user: &User, case_uid: &str, key: &str, name: &str, once: &Once) -> Result<CaseFile, ApiError> {
    // Seeing the case is enough to get this far; the right to add is checked
    // in `add`, so an upload whose confirm is refused (case closed meanwhile)
    // is deleted too.
    let c = visible(ctx, user, case_uid).await?;
    let key = key.trim();
    // Only keys this case's upload-url could have issued; another case's (or
    // any other) object is never touched, not even deleted.
    let key_type = document::case_key_type(&c.uid, key).ok_or_else(|| ApiError::field("key", Msg::Invalid))?;
    if let Some(f) = c.files.iter().find(|f| f.key == key) {
        return Ok(f.clone());
    }
    let result = add(ctx, user, &c.uid, key, key_type, name, once).await;
    // Whatever refused it (type, size, limit, rights changed meanwhile), the
    // object must not stay: nothing refers to it.
    discard_refused(ctx, key, &result).await;
    result
}

async fn add(
    ctx: &Context,
    user: &User,
    case_uid: &str,
    key: &str,
    key_type: DocumentType,
    raw_name: &str,
    once: &Once,
) -> Result<CaseFile, ApiError> {
    manageable(ctx, user, case_uid).await?;
    let Attachment { name, size, .. } = claim(ctx, key, key_type, name_and_type(raw_name)).await?;
    let file = CaseFile {
        key: key.to_string(),
        name,
        size,
        uploaded_by: user.uid.clone(),
        uploaded_by_name: user.full_name(),
        uploaded_at: Some(Utc::now()),
    };
    let file = &file;
    retry::until_done(|_| async move {
        let prev = manageable(ctx, user, case_uid).await?;
        if let Some(f) = prev.case.files.iter().find(|f| f.key == key) {
            return Ok(Attempt::Done(f.clone()));
        }
        if prev.case.files.len() >= MAX_FILES_PER_CASE {
            return Err(ApiError::bad(document::TOO_MANY_DOCUMENTS));
        }
        let mut next = prev.case.clone();
        next.files.push(file.clone());
        next.updated_at = Utc::now();
        let history = HistoryEntry::new(case_uid, user, FILE, None, Some(file.name.clone()));
        let event = Event::CaseChanged { before: &prev.case, after: &next, by: user };
        let audit = AuditEvent::by(user, AuditAction::DocumentUploaded)
            .customer(Some(&next.customer))
            .subject(&file.name)
            .detail(&next.case_number);
        let written = commit_case_once(ctx, Some(&prev), &next, &[history], event, (once, file), Some(&audit)).await?;
        Ok(if written { Attempt::Done(file.clone()) } else { Attempt::Conflict })
    })
    .await
}

/// A download link for one of the case's documents (whoever may see the case).
pub async fn download(ctx: &Context, user: &User, case_uid: &str, key: &str) -> Result<DownloadUrl, ApiError> {
    let c = visible(ctx, user, case_uid).await?;
    let f = c.files.iter().find(|f| f.key == key.trim()).ok_or(ApiError::NotFound)?;
    let url = ctx.files.presign_download(&f.key, &f.name).await?;
    let event = AuditEvent::by(user, AuditAction::DocumentDownloaded).customer(Some(&c.customer)).subject(&f.name).detail(&c.case_number);
    super::audit::record(ctx, event).await;
    Ok(DownloadUrl { url, name: f.name.clone() })
}

/// Removes a document from the case (history entry `file`), then its object.
/// The provider's side may remove any; the customer side only what that
/// user added; nobody but admin once the case is closed.
pub async fn remove(ctx: &Context, user: &User, case_uid: &str, key: &str) -> Result<(), ApiError> {
    let key = key.trim();
    retry::until_done(|_| async move {
        let prev = visible_for_write(ctx, user, case_uid).await?;
        let f = prev.case.files.iter().find(|f| f.key == key).cloned().ok_or(ApiError::NotFound)?;
        if !document::may_remove_document(user, &prev.case, &f.uploaded_by) {
            return Err(ApiError::Forbidden);
        }
        let mut next = prev.case.clone();
        next.files.retain(|x| x.key != key);
        next.updated_at = Utc::now();
        let history = HistoryEntry::new(&prev.case.uid, user, FILE, Some(f.name.clone()), None);
        let written =
            commit_case(ctx, Some(&prev), &next, &[history], Event::CaseChanged { before: &prev.case, after: &next, by: user }).await?;
        Ok(if written { Attempt::Done(()) } else { Attempt::Conflict })
    })
    .await?;
    // After the write: were the object deleted first and the write then
    // failed, the case would list a file that is gone.
    if let Err(e) = ctx.files.delete(key).await {
        tracing::warn!(key = %key, error = %e, "removed document not deleted");
    }
    Ok(())
}

/// A presigned PUT for a file under `prefix` (support tickets and the
/// like): the name's type decides the key's extension and content type.
pub async fn issue_upload(ctx: &Context, prefix: &str, name: &str) -> Result<UploadTarget, ApiError> {
    let (name, t) = name_and_type(name)?;
    let key = format!("{prefix}{}.{}", uuid::Uuid::new_v4().simple(), t.ext);
    let url = ctx.files.presign_upload(&key, t.content_type).await?;
    Ok(UploadTarget { url, key, content_type: t.content_type.into(), name, max_bytes: DOCUMENT_MAX_BYTES })
}

/// The file uploaded with [`issue_upload`] under `prefix`, checked like a
/// case document (type by name and first bytes, size); a refused object is
/// deleted. `field` names the key in a validation error.
pub async fn checked_upload(ctx: &Context, prefix: &str, key: &str, name: &str, field: &str) -> Result<Attachment, ApiError> {
    let key = key.trim();
    let key_type = key
        .strip_prefix(prefix)
        .and_then(|rest| rest.rsplit_once('.'))
        .filter(|(id, _)| id.len() == 32 && id.chars().all(|c| c.is_ascii_hexdigit()))
        .and_then(|(_, ext)| document::TYPES.iter().copied().find(|t| t.ext == ext))
        .ok_or_else(|| ApiError::field(format!("{field}_key"), Msg::Invalid))?;
    claim_file(ctx, key, key_type, name_and_type(name)).await
}

/// An uploaded object claimed for good, as a file attached to something:
/// [`claim`], and a refused object deleted ([`discard_refused`]).
pub(crate) async fn claim_file(
    ctx: &Context,
    key: &str,
    key_type: DocumentType,
    named: Result<(String, DocumentType), ApiError>,
) -> Result<Attachment, ApiError> {
    let result = claim(ctx, key, key_type, named).await;
    discard_refused(ctx, key, &result).await;
    result
}

/// Every kind of upload (case documents, message attachments, support
/// attachments, templates) is claimed here: its name (`named`) must be of
/// the type the key was issued for (jpg = jpeg), the object is claimed
/// (no longer expires) and its content checked ([`checked_object`]).
async fn claim(
    ctx: &Context,
    key: &str,
    key_type: DocumentType,
    named: Result<(String, DocumentType), ApiError>,
) -> Result<Attachment, ApiError> {
    let (name, t) = named?;
    if t.content_type != key_type.content_type {
        return Err(ApiError::bad(document::DOCUMENT_TYPE_NOT_ALLOWED));
    }
    ctx.files.claim_upload(key).await?;
    let size = checked_object(ctx, key, key_type).await?;
    Ok(Attachment { key: key.to_string(), name, size })
}

/// Deletes the object of a refused upload (nothing refers to it), unless it
/// was never uploaded or the refusal is a replay of an earlier answer (the
/// first request kept the file).
async fn discard_refused<T>(ctx: &Context, key: &str, result: &Result<T, ApiError>) {
    let Err(e) = result else { return };
    if e.key() == document::DOCUMENT_NOT_UPLOADED || matches!(e, ApiError::Replay { .. } | ApiError::IdempotencyKeyReused) {
        return;
    }
    if let Err(del) = ctx.files.discard_upload(key).await {
        tracing::warn!(key = %key, error = %del, "refused upload not deleted");
    }
}

/// An uploaded object of type `key_type` checked by content: it exists, its
/// size is within the limit, its first bytes are of its type, and a PDF
/// parses without active content ([`crate::domain::pdf`]). Answers the size.
pub(crate) async fn checked_object(ctx: &Context, key: &str, key_type: DocumentType) -> Result<i64, ApiError> {
    let size = ctx.files.size(key).await?;
    let head = match size {
        Some(n) if n > 0 => ctx.files.head_bytes(key, document::MAGIC_LEN).await?,
        _ => Vec::new(),
    };
    document::check_upload(key_type, size, &head, DOCUMENT_MAX_BYTES).map_err(ApiError::bad)?;
    if key_type.family == Family::Pdf {
        pdf_verdict(ctx, key).await?.map_err(ApiError::bad)?;
    }
    Ok(size.unwrap_or_default())
}

/// The verdict of [`crate::domain::pdf::check`] on an uploaded object: read
/// whole, so only up to [`DOCUMENT_MAX_BYTES`] (larger is refused unread); a
/// missing object is no PDF.
pub(crate) async fn pdf_verdict(ctx: &Context, key: &str) -> Result<Result<(), Msg>, ApiError> {
    match ctx.files.size(key).await? {
        None | Some(0) => return Ok(Err(Msg::InvalidPdf)),
        Some(n) if n > DOCUMENT_MAX_BYTES => return Ok(Err(document::DOCUMENT_TOO_LARGE)),
        Some(_) => {}
    }
    Ok(crate::domain::pdf::check(&ctx.files.bytes(key).await?))
}

/// At most this many of a customer's cases are read for the documents page.
pub const ACROSS_CASES_MAX: usize = 300;

/// One document of one of the customer's cases (the Documents page).
#[derive(Serialize, ToSchema)]
pub struct CustomerDocument {
    pub case_uid: String,
    pub case_number: String,
    pub case_subject: String,
    #[serde(flatten)]
    pub file: CaseFile,
    /// `pdf`, `word`, `excel`, `ppt` or `image`.
    pub kind: &'static str,
}

/// The filters of the Documents page.
#[derive(Default)]
pub struct DocumentFilter<'a> {
    /// Part of the file name (any case).
    pub search: &'a str,
    pub case_uid: Option<&'a str>,
    /// `pdf`, `word`, `excel`, `ppt` or `image`.
    pub kind: Option<&'a str>,
}

/// The kind of document a file is, by its extension.
pub fn kind_of(name: &str) -> &'static str {
    match document::type_of_name(name).map(|t| t.ext) {
        Some("pdf") => "pdf",
        Some("doc" | "docx") => "word",
        Some("xls" | "xlsx") => "excel",
        Some("ppt" | "pptx") => "ppt",
        Some(_) => "image",
        None => "other",
    }
}

/// The documents of every case the caller may see as the customer side
/// (a customer its own; a contact its company's, or without
/// `view_all_cases` the ones it created or follows), newest first; download
/// each through `case/file/download/`, which checks the case again.
pub async fn across_cases(ctx: &Context, user: &User, filter: DocumentFilter<'_>) -> Result<Vec<CustomerDocument>, ApiError> {
    let customer = policy::acting_customer(user).ok_or(ApiError::Forbidden)?;
    let plan = policy::customer_side_plan(user, customer, vec![]);
    let search = filter.search.trim().to_lowercase();
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    let mut read = 0;
    loop {
        let page = ctx.store.list_cases(&plan, None, ListOrder::Desc, cursor.as_deref()).await?;
        read += page.results.len();
        for c in page.results.into_iter().filter(|c| policy::may_view(user, c)) {
            if filter.case_uid.is_some_and(|u| u != c.uid) {
                continue;
            }
            for f in &c.files {
                let kind = kind_of(&f.name);
                if filter.kind.is_some_and(|k| k != kind) || (!search.is_empty() && !f.name.to_lowercase().contains(&search)) {
                    continue;
                }
                out.push(CustomerDocument {
                    case_uid: c.uid.clone(),
                    case_number: c.case_number.clone(),
                    case_subject: c.subject.clone(),
                    file: f.clone(),
                    kind,
                });
            }
        }
        match page.next {
            Some(n) if read < ACROSS_CASES_MAX => cursor = Some(n),
            _ => break,
        }
    }
    out.sort_by_key(|d| std::cmp::Reverse(d.file.uploaded_at));
    Ok(out)
}

//! Public documents and templates (`template_file/`): admin uploads a file
//! through a presigned URL and confirms it with a title, a category and a
//! language; every signed-in user lists and downloads them. Files are
//! checked like case documents. Rules in [`crate::domain::template_file`].

use chrono::Utc;

use super::documents::{self, DownloadUrl, UploadTarget};
use super::Context;
use crate::domain::policy::{self, Action};
use crate::domain::template_file::{self, TemplateFile, KEY_PREFIX};
use crate::domain::User;
use crate::error::ApiError;
use crate::store::idempotency::Once;

/// Every template, newest first (any signed-in user), optionally of one language.
pub async fn list(ctx: &Context, _user: &User, language: Option<&str>) -> Result<Vec<TemplateFile>, ApiError> {
    let lang = language.map(|l| l.trim().to_ascii_lowercase()).filter(|l| !l.is_empty());
    Ok(ctx.store.template_files().await?.into_iter().filter(|f| lang.as_deref().is_none_or(|l| f.language == l)).collect())
}

/// A presigned PUT for a new template (admin).
pub async fn upload_url(ctx: &Context, user: &User, name: &str) -> Result<UploadTarget, ApiError> {
    policy::require(user, Action::ManageCatalogue)?;
    documents::issue_upload(ctx, KEY_PREFIX, name).await
}

/// After the PUT: the upload (`key`, file `name`) checked, then listed with
/// its title, category and language.
pub async fn create(
    ctx: &Context,
    user: &User,
    (key, name): (&str, &str),
    title: &str,
    category: &str,
    language: &str,
    once: &Once,
) -> Result<TemplateFile, ApiError> {
    policy::require(user, Action::ManageCatalogue)?;
    let (title, category, language) = template_file::validate(title, category, language)?;
    template_file::key_type(key.trim()).ok_or_else(|| ApiError::field("key", crate::error::Msg::Invalid))?;
    let file = documents::checked_upload(ctx, KEY_PREFIX, key, name, "file").await?;
    let t = TemplateFile {
        id: uuid::Uuid::new_v4().simple().to_string(),
        title,
        category,
        language,
        key: file.key,
        name: file.name,
        size: file.size,
        uploaded_at: Utc::now(),
        uploaded_by: user.uid.clone(),
    };
    ctx.store.create_template_file(&t, once).await?;
    Ok(t)
}

/// A download link (any signed-in user).
pub async fn download(ctx: &Context, _user: &User, id: &str) -> Result<DownloadUrl, ApiError> {
    let t = ctx.store.get_template_file(id.trim()).await?.ok_or(ApiError::NotFound)?;
    let url = ctx.files.presign_download(&t.key, &t.name).await?;
    Ok(DownloadUrl { url, name: t.name })
}

/// Admin removes a template and its file.
pub async fn delete(ctx: &Context, user: &User, id: &str) -> Result<(), ApiError> {
    policy::require(user, Action::ManageCatalogue)?;
    let t = ctx.store.get_template_file(id.trim()).await?.ok_or(ApiError::NotFound)?;
    ctx.store.delete_template_file(&t.id).await?;
    if let Err(e) = ctx.files.delete(&t.key).await {
        tracing::warn!(key = %t.key, error = %e, "template file not deleted");
    }
    Ok(())
}

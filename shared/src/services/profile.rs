//! The profile page (spec §2: not for admin): names, phone, and the image
//! uploaded straight to S3 through a presigned URL.

use crate::domain::contact::{
    check_names, content_type_of, image_extension, image_prefix, is_image_magic, is_own_image_key, normalize_phone, IMAGE_MAX_BYTES,
};
use crate::domain::policy::{self, Action};
use crate::domain::user::IMAGE_NOT_SET;
use crate::domain::{SessionUser, User};
use crate::error::Msg;
use crate::error::{ApiError, FieldErrors};
use crate::services::Context;

/// The session user as the API answers it: `image` is a presigned GET URL,
/// or the text 'not set'.
pub async fn session_user(s: &Context, user: &User) -> Result<SessionUser, ApiError> {
    let mut out = user.session();
    if user.image != IMAGE_NOT_SET && !user.image.is_empty() {
        out.image = s.files.presign_view(&user.image).await?;
    }
    Ok(out)
}

/// Names and phone of the signed-in user (not admin: no profile page);
/// answers the session user as it now is.
pub async fn update(s: &Context, mut user: User, first_name: &str, last_name: &str, phone: Option<&str>) -> Result<SessionUser, ApiError> {
    policy::require(&user, Action::EditOwnProfile)?;
    let mut errors = FieldErrors::new();
    check_names(&mut errors, first_name, last_name);
    let phone = normalize_phone(phone).unwrap_or_else(|k| {
        errors.add("phone", k);
        None
    });
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    user.first_name = first_name.trim().into();
    user.last_name = last_name.trim().into();
    user.phone = phone;
    s.store.put_user(&user).await?;
    session_user(s, &user).await
}

pub struct UploadTarget {
    pub url: String,
    pub key: String,
    pub content_type: &'static str,
}

/// A presigned PUT for a key the server chooses; only JPEG and PNG.
pub async fn upload_url(s: &Context, user: &User, content_type: &str) -> Result<UploadTarget, ApiError> {
    policy::require(user, Action::EditOwnProfile)?;
    let ext = image_extension(content_type).ok_or_else(|| ApiError::field("content_type", Msg::ImageTypeNotAllowed))?;
    let key = format!("{}{}.{ext}", image_prefix(&user.uid), uuid::Uuid::new_v4());
    let content_type = content_type_of(ext);
    let url = s.files.presign_upload(&key, content_type).await?;
    Ok(UploadTarget { url, key, content_type })
}

/// After the browser's PUT: the object must exist, be at most 2 MiB and start
/// with JPEG/PNG magic bytes; otherwise it is deleted and the answer is 400.
/// The previous image object is removed once the new one is stored.
/// Answers the session user with the new image's URL.
pub async fn confirm_image(s: &Context, mut user: User, key: &str) -> Result<SessionUser, ApiError> {
    policy::require(&user, Action::EditOwnProfile)?;
    let key = key.trim();
    if !is_own_image_key(&user.uid, key) {
        return Err(ApiError::field("key", Msg::Invalid));
    }
    s.files.claim_upload(key).await?;
    let size = s.files.size(key).await?.ok_or_else(|| ApiError::bad(Msg::ImageNotUploaded))?;
    if size > IMAGE_MAX_BYTES {
        s.files.discard_upload(key).await?;
        return Err(ApiError::bad(Msg::ImageTooLarge));
    }
    let head = if size > 0 { s.files.head_bytes(key, 8).await? } else { Vec::new() };
    if !is_image_magic(&head) {
        s.files.discard_upload(key).await?;
        return Err(ApiError::bad(Msg::ImageInvalid));
    }
    let old = std::mem::replace(&mut user.image, key.to_string());
    s.store.put_user(&user).await?;
    if old != IMAGE_NOT_SET && old != key && is_own_image_key(&user.uid, &old) {
        // Best effort: a leftover object costs little, a failed answer would confuse.
        let _ = s.files.delete(&old).await;
    }
    session_user(s, &user).await
}

//! Freja Academy: the lessons a user sees (grouped by topic in academy
//! order) with their own progress; admin creates, changes, orders,
//! publishes and removes lessons and uploads videos through presigned URLs.
//! Rules in [`crate::domain::academy`].

use chrono::Utc;
use serde::Serialize;
use utoipa::ToSchema;

use super::documents::UploadTarget;
use super::Context;
use crate::domain::academy::{self, Lesson, LessonForm, Progress, VIDEO_CONTENT_TYPE, VIDEO_MAX_BYTES};
use crate::domain::policy::{self, Action};
use crate::domain::User;
use crate::error::{ApiError, FieldErrors, Msg};
use crate::store::idempotency::Once;

/// A lesson as its viewer sees it: with their progress and, for an
/// uploaded video, a presigned address to play it.
#[derive(Serialize, ToSchema)]
pub struct LessonView {
    #[serde(flatten)]
    pub lesson: Lesson,
    pub progress: Progress,
    /// Presigned GET of the uploaded video (15 minutes).
    pub video_file_url: Option<String>,
}

/// A topic and its lessons in academy order.
#[derive(Serialize, ToSchema)]
pub struct Topic {
    pub topic: String,
    /// The topic's English name: the first of its lessons' English versions'.
    pub topic_en: Option<String>,
    pub lessons: Vec<LessonView>,
}

/// The caller's academy: the lessons they may see, by topic (topics in the
/// order of their first lesson), with the caller's own progress.
pub async fn academy(ctx: &Context, user: &User) -> Result<Vec<Topic>, ApiError> {
    let mut lessons: Vec<Lesson> = ctx.store.lessons().await?.into_iter().filter(|l| academy::may_see(user, l)).collect();
    academy::sort(&mut lessons);
    let progress = ctx.store.progress(&user.uid).await?;
    let mut topics: Vec<Topic> = Vec::new();
    for l in lessons {
        let p =
            progress.iter().find(|p| p.lesson_id == l.id).cloned().unwrap_or(Progress { lesson_id: l.id.clone(), ..Default::default() });
        let video_file_url = match &l.video_key {
            Some(k) => Some(ctx.files.presign_view(k).await?),
            None => None,
        };
        let view = LessonView { lesson: l, progress: p, video_file_url };
        match topics.iter_mut().find(|t| t.topic == view.lesson.topic) {
            Some(t) => {
                if t.topic_en.is_none() {
                    t.topic_en = view.lesson.en.as_ref().map(|en| en.topic.clone());
                }
                t.lessons.push(view)
            }
            None => {
                let topic_en = view.lesson.en.as_ref().map(|en| en.topic.clone());
                topics.push(Topic { topic: view.lesson.topic.clone(), topic_en, lessons: vec![view] })
            }
        }
    }
    Ok(topics)
}

async fn seen_lesson(ctx: &Context, user: &User, id: &str) -> Result<Lesson, ApiError> {
    let l = ctx.store.get_lesson(id.trim()).await?.ok_or(ApiError::NotFound)?;
    if !academy::may_see(user, &l) {
        return Err(ApiError::NotFound);
    }
    Ok(l)
}

/// The caller marks a lesson watched and/or completed (completed implies
/// watched; marks are the caller's own and only move forward unless
/// `completed` is sent false).
pub async fn set_progress(
    ctx: &Context,
    user: &User,
    id: &str,
    watched: Option<bool>,
    completed: Option<bool>,
) -> Result<Progress, ApiError> {
    let l = seen_lesson(ctx, user, id).await?;
    let prev = ctx.store.progress(&user.uid).await?.into_iter().find(|p| p.lesson_id == l.id).unwrap_or_default();
    let completed = completed.unwrap_or(prev.completed);
    let watched = completed || watched.unwrap_or(prev.watched);
    let p = Progress { lesson_id: l.id, watched, completed, updated_at: Some(Utc::now()) };
    ctx.store.put_progress(&user.uid, &p).await?;
    Ok(p)
}

fn admin(user: &User) -> Result<(), ApiError> {
    policy::require(user, Action::ManageCatalogue)
}

/// Admin creates a lesson (after the last one unless a position is given).
pub async fn create(ctx: &Context, user: &User, form: &LessonForm, once: &Once) -> Result<Lesson, ApiError> {
    admin(user)?;
    let c = academy::validate(form)?;
    let last = ctx.store.lessons().await?.iter().map(|l| l.position).max().unwrap_or(0);
    let now = Utc::now();
    let l = Lesson {
        id: uuid::Uuid::new_v4().simple().to_string(),
        topic: c.topic,
        title: c.title,
        text: c.text,
        video_url: c.video_url,
        video_key: None,
        position: form.position.unwrap_or(last + 1),
        published: form.published,
        audience: dedup(&form.audience),
        en: c.en,
        created_at: now,
        updated_at: now,
    };
    ctx.store.create_lesson(&l, once).await?;
    Ok(l)
}

fn dedup(a: &[academy::Audience]) -> Vec<academy::Audience> {
    let mut out = Vec::new();
    for x in a {
        if !out.contains(x) {
            out.push(*x);
        }
    }
    out
}

/// Admin changes a lesson (an uploaded video stays unless a URL replaces it).
pub async fn update(ctx: &Context, user: &User, id: &str, form: &LessonForm) -> Result<Lesson, ApiError> {
    admin(user)?;
    let c = academy::validate(form)?;
    let prev = ctx.store.get_lesson(id.trim()).await?.ok_or(ApiError::NotFound)?;
    let l = Lesson {
        topic: c.topic,
        title: c.title,
        text: c.text,
        video_key: if c.video_url.is_some() { None } else { prev.video_key.clone() },
        video_url: c.video_url,
        position: form.position.unwrap_or(prev.position),
        published: form.published,
        audience: dedup(&form.audience),
        en: c.en,
        updated_at: Utc::now(),
        ..prev.clone()
    };
    ctx.store.put_lesson(&l).await?;
    if let (Some(old), true) = (&prev.video_key, l.video_key.is_none()) {
        if let Err(e) = ctx.files.delete(old).await {
            tracing::warn!(key = %old, error = %e, "replaced lesson video not deleted");
        }
    }
    Ok(l)
}

/// Admin gives lessons a new order: `ids` first to last (positions 1, 2, ...).
pub async fn reorder(ctx: &Context, user: &User, ids: &[String]) -> Result<Vec<Lesson>, ApiError> {
    admin(user)?;
    let all = ctx.store.lessons().await?;
    if ids.len() > 99 {
        return Err(ApiError::bad(Msg::TooManyEntries));
    }
    let mut tx = ctx.store.tx();
    let mut out = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let mut l = all.iter().find(|l| &l.id == id).cloned().ok_or_else(|| ApiError::validation(FieldErrors::of("ids", Msg::Invalid)))?;
        l.position = i as u32 + 1;
        ctx.store.add_lesson_write(&mut tx, &l)?;
        out.push(l);
    }
    if !ctx.store.commit(tx).await? {
        return Err(ApiError::bad(Msg::ChangedConcurrently));
    }
    Ok(out)
}

/// Admin removes a lesson and its uploaded video.
pub async fn delete(ctx: &Context, user: &User, id: &str) -> Result<(), ApiError> {
    admin(user)?;
    let l = ctx.store.get_lesson(id.trim()).await?.ok_or(ApiError::NotFound)?;
    ctx.store.delete_lesson(&l.id).await?;
    if let Some(k) = &l.video_key {
        if let Err(e) = ctx.files.delete(k).await {
            tracing::warn!(key = %k, error = %e, "lesson video not deleted");
        }
    }
    Ok(())
}

/// A presigned PUT for a lesson's MP4 (admin); confirm afterwards.
pub async fn video_upload_url(ctx: &Context, user: &User, id: &str) -> Result<UploadTarget, ApiError> {
    admin(user)?;
    let l = ctx.store.get_lesson(id.trim()).await?.ok_or(ApiError::NotFound)?;
    let key = academy::video_key(&l.id, &uuid::Uuid::new_v4());
    let url = ctx.files.presign_upload(&key, VIDEO_CONTENT_TYPE).await?;
    Ok(UploadTarget { url, key, content_type: VIDEO_CONTENT_TYPE.into(), name: format!("{}.mp4", l.id), max_bytes: VIDEO_MAX_BYTES })
}

/// After the PUT: the object must be an MP4 within the limit; then it is the
/// lesson's video (replacing an embedded address or an earlier upload).
pub async fn confirm_video(ctx: &Context, user: &User, id: &str, key: &str) -> Result<Lesson, ApiError> {
    admin(user)?;
    let prev = ctx.store.get_lesson(id.trim()).await?.ok_or(ApiError::NotFound)?;
    let key = key.trim();
    if !academy::is_video_key(&prev.id, key) {
        return Err(ApiError::field("key", Msg::Invalid));
    }
    ctx.files.claim_upload(key).await?;
    let size = ctx.files.size(key).await?;
    let head = match size {
        Some(n) if n > 0 => ctx.files.head_bytes(key, 8).await?,
        _ => Vec::new(),
    };
    if let Err(m) = academy::check_video(size, &head) {
        if m != Msg::DocumentNotUploaded {
            let _ = ctx.files.discard_upload(key).await;
        }
        return Err(ApiError::bad(m));
    }
    let l = Lesson { video_key: Some(key.to_string()), video_url: None, updated_at: Utc::now(), ..prev.clone() };
    ctx.store.put_lesson(&l).await?;
    if let Some(old) = prev.video_key.filter(|o| o != key) {
        let _ = ctx.files.delete(&old).await;
    }
    Ok(l)
}

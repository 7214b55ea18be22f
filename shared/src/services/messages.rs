//! Messages in a case (spec §1, §6, §8): the case's lawyer and its customer
//! side talk in the case; staff read the conversation. A message may carry a
//! file, uploaded through a presigned URL and checked like a case document
//! (type by extension and first bytes, size); a refused file is deleted.
//! A message and its notification to the other party are one transaction.

use chrono::Utc;
use serde::Serialize;
use utoipa::ToSchema;

use super::cases::{visible, visible_for_write};
use super::documents::{DownloadUrl, UploadTarget};
use super::events::{self, Event};
use super::Context;
use crate::domain::audit::{AuditAction, AuditEvent};
use crate::domain::case::CaseStatus;
use crate::domain::document::{self, DocumentType, DOCUMENT_MAX_BYTES};
use crate::domain::message::{self, Attachment, Message, Side};
use crate::domain::User;
use crate::error::{ApiError, Msg};
use crate::store::idempotency::Once;
use crate::store::keys;
use crate::store::tx::Cond;

/// A message as a participant sees it: whether the other party has read it.
#[derive(Serialize, ToSchema)]
pub struct MessageView {
    #[serde(flatten)]
    pub message: Message,
    /// Whether the other side has read this message.
    pub read_by_other: bool,
}

/// One page of a case's conversation.
#[derive(Serialize, ToSchema)]
pub struct Conversation {
    /// Oldest first within the page (the panel shows the newest at the bottom).
    pub messages: Vec<MessageView>,
    /// Ask again with `before=<this>` for older messages; absent at the start.
    pub older: Option<String>,
    /// Whether the caller may write now, and if not, why (a message key).
    pub can_write: bool,
    pub cannot_write_because: Option<Msg>,
}

/// The object keys of a case's message files.
fn attachment_prefix(case_uid: &str) -> String {
    format!("cases/{case_uid}/messages/")
}

/// A page of the conversation (whoever may see the case); a participant's
/// read mark moves to the newest message they were shown.
pub async fn conversation(ctx: &Context, user: &User, case_uid: &str, before: Option<&str>) -> Result<Conversation, ApiError> {
    let c = visible(ctx, user, case_uid).await?;
    let page = ctx.store.messages(&c.uid, before, message::PAGE_SIZE).await?;
    super::audit::record(
        ctx,
        AuditEvent::by(user, AuditAction::MessagesRead).customer(Some(&c.customer)).subject(&c.uid).detail(&c.case_number),
    )
    .await;
    let marks = ctx.store.message_read_marks(&c.uid).await?;
    let writable = message::may_write(user, &c);
    let me = writable.as_ref().ok().copied();
    if let (Some(_), Some(newest)) = (me, page.messages.first()) {
        if before.is_none() {
            ctx.store.mark_messages_read(&c.uid, &user.uid, newest).await?;
        }
    }
    // The other side read a message when any of its people's marks reached it.
    let lawyer = c.lawyer.clone().unwrap_or_default();
    let mut messages: Vec<MessageView> = page
        .messages
        .into_iter()
        .map(|m| {
            let sk = keys::message::sk(m.at, &m.id);
            let read_by_other = marks.iter().any(|(who, mark)| {
                let is_lawyer = *who == lawyer;
                let other = match m.side {
                    Side::Lawyer => !is_lawyer,
                    Side::Customer => is_lawyer,
                };
                other && *mark >= sk
            });
            MessageView { message: m, read_by_other }
        })
        .collect();
    messages.reverse();
    let (can_write, cannot_write_because) = match writable {
        Ok(_) => (true, None),
        Err(e) => (false, Some(e.key())),
    };
    Ok(Conversation { messages, older: page.older, can_write, cannot_write_because })
}

/// A presigned PUT for a file to send with a message (the writer's own).
pub async fn attachment_upload_url(ctx: &Context, user: &User, case_uid: &str, name: &str) -> Result<UploadTarget, ApiError> {
    let c = visible(ctx, user, case_uid).await?;
    message::may_write(user, &c)?;
    let (name, t) = super::documents::named(name, "name")?;
    let key = format!("{}{}.{}", attachment_prefix(&c.uid), uuid::Uuid::new_v4(), t.ext);
    let url = ctx.files.presign_upload(&key, t.content_type).await?;
    Ok(UploadTarget { url, key, content_type: t.content_type.into(), name, max_bytes: DOCUMENT_MAX_BYTES })
}

/// The uploaded file of a message, checked; refused files are deleted.
async fn checked_attachment(ctx: &Context, case_uid: &str, key: &str, name: &str) -> Result<Attachment, ApiError> {
    let key = key.trim();
    let ext = key.strip_prefix(&attachment_prefix(case_uid)).and_then(|rest| rest.rsplit_once('.')).map(|(_, ext)| ext);
    let key_type: DocumentType = ext
        .and_then(|e| document::TYPES.iter().copied().find(|t| t.ext == e))
        .ok_or_else(|| ApiError::field("attachment_key", Msg::Invalid))?;
    super::documents::claim_file(ctx, key, key_type, super::documents::named(name, "attachment_name")).await
}

/// Writes a message (and, when given, the file uploaded for it) in the
/// case's conversation, with its notification to the other party, in one
/// transaction that also checks the case is still in progress.
pub async fn post(
    ctx: &Context,
    user: &User,
    case_uid: &str,
    text: &str,
    attachment: Option<(&str, &str)>,
    once: &Once,
) -> Result<Message, ApiError> {
    let stored = visible_for_write(ctx, user, case_uid).await?;
    let c = stored.case;
    let side = message::may_write(user, &c)?;
    let text = message::validate_text(text, attachment.is_some())?;
    let attachment = match attachment {
        Some((key, name)) => Some(checked_attachment(ctx, &c.uid, key, name).await?),
        None => None,
    };
    let m = Message {
        id: uuid::Uuid::new_v4().simple().to_string(),
        case_uid: c.uid.clone(),
        by: user.uid.clone(),
        by_name: user.full_name(),
        side,
        text,
        attachment,
        at: Utc::now(),
    };
    let mut tx = ctx.store.tx();
    tx.check(
        &keys::case::item(&c.uid),
        Cond::new("#st = :st").name("#st", "status").value(":st", crate::store::cases::status_value(CaseStatus::Inprogress)),
    )?;
    ctx.store.add_message(&mut tx, &m)?;
    once.record(&mut tx, &m)?;
    let queued = events::record(ctx, &mut tx, &[Event::MessagePosted { case: &c, message: &m, by: user }]).await?;
    if !events::commit(ctx, tx, queued).await? {
        // The case left 'in progress' meanwhile: say why, as a fresh read would.
        let now = visible(ctx, user, case_uid).await?;
        message::may_write(user, &now)?;
        return Err(ApiError::bad(Msg::ChangedConcurrently));
    }
    ctx.store.mark_messages_read(&c.uid, &user.uid, &m).await?;
    Ok(m)
}

/// A download link for a message's file (whoever may see the case).
pub async fn attachment_download(ctx: &Context, user: &User, case_uid: &str, key: &str, name: &str) -> Result<DownloadUrl, ApiError> {
    let c = visible(ctx, user, case_uid).await?;
    let key = key.trim();
    if !key.starts_with(&attachment_prefix(&c.uid)) || key.contains("..") {
        return Err(ApiError::NotFound);
    }
    ctx.files.size(key).await?.ok_or(ApiError::NotFound)?;
    let name = document::display_name(name).unwrap_or_else(|| "attachment".into());
    let url = ctx.files.presign_download(key, &name).await?;
    Ok(DownloadUrl { url, name })
}

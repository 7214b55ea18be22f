//! Support tickets: the customer side writes (with an optional case of
//! theirs and an optional file, checked like a case document), reads its
//! company's tickets and the answers; admin reads all, answers and closes.
//! A ticket change and its answer are one transaction conditional on the
//! ticket as read. Rules in [`crate::domain::support`].

use chrono::Utc;
use serde::Serialize;
use utoipa::ToSchema;

use super::cases::visible;
use super::documents::{self, DownloadUrl, UploadTarget};
use super::retry::{self, Attempt};
use super::Context;
use crate::domain::policy::acting_customer;
use crate::domain::support::{self, Answer, Ticket, TicketCounts, TicketStatus};
use crate::domain::{Role, User};
use crate::error::{ApiError, Msg};
use crate::store::content::{TicketPage, TicketScope};
use crate::store::idempotency::Once;

/// Tickets are numbered by this counter.
const COUNTER: &str = "ticket";
/// Tickets per list page.
pub const PAGE_SIZE: usize = 10;

/// A ticket with its answers, oldest first.
#[derive(Serialize, ToSchema)]
pub struct TicketDetails {
    #[serde(flatten)]
    pub ticket: Ticket,
    pub answers: Vec<Answer>,
    pub can_answer: bool,
    pub can_close: bool,
}

/// A page of tickets.
#[derive(Serialize, ToSchema)]
pub struct TicketList {
    pub results: Vec<Ticket>,
    pub next: Option<String>,
}

fn attachment_prefix(customer_uid: &str) -> String {
    format!("support/{customer_uid}/")
}

/// A presigned PUT for a file to send with a new ticket.
pub async fn attachment_upload_url(ctx: &Context, user: &User, name: &str) -> Result<UploadTarget, ApiError> {
    let customer = support::may_create(user)?;
    documents::issue_upload(ctx, &attachment_prefix(&customer), name).await
}

/// A new ticket of the caller's company.
pub async fn create(
    ctx: &Context,
    user: &User,
    subject: &str,
    message: &str,
    case_uid: Option<&str>,
    attachment: Option<(&str, &str)>,
    once: &Once,
) -> Result<Ticket, ApiError> {
    let customer = support::may_create(user)?;
    let (subject, message) = support::validate(subject, message)?;
    let case = match case_uid.map(str::trim).filter(|c| !c.is_empty()) {
        // Only a case the caller may see (another's answers 404 as unknown).
        Some(uid) => Some(visible(ctx, user, uid).await.map_err(|_| ApiError::field("case_uid", Msg::Invalid))?),
        None => None,
    };
    let attachment = match attachment {
        Some((key, name)) => Some(documents::checked_upload(ctx, &attachment_prefix(&customer), key, name, "attachment").await?),
        None => None,
    };
    let customer_name = match ctx.store.get_customer_profile_latest(&customer).await? {
        Some(p) => p.company_name.clone().filter(|n| !n.trim().is_empty()).unwrap_or_else(|| format!("{} {}", p.first_name, p.last_name)),
        None => user.full_name(),
    };
    let now = Utc::now();
    let t = Ticket {
        id: ctx.store.next_id(COUNTER).await?,
        customer_uid: customer,
        customer_name,
        case_uid: case.as_ref().map(|c| c.uid.clone()),
        case_number: case.as_ref().map(|c| c.case_number.clone()),
        subject,
        message,
        attachment,
        status: TicketStatus::Open,
        created_by: user.uid.clone(),
        created_by_name: user.full_name(),
        created_at: now,
        updated_at: now,
        answer_count: 0,
    };
    let mut tx = ctx.store.tx();
    ctx.store.add_ticket(&mut tx, &t)?;
    once.record(&mut tx, &t)?;
    if !ctx.store.commit(tx).await? {
        return Err(ApiError::internal("ticket number taken"));
    }
    Ok(t)
}

/// The caller's tickets: admin every ticket, the customer side its
/// company's; newest first, optionally of one status.
pub async fn list(ctx: &Context, user: &User, status: Option<&str>, cursor: Option<&str>) -> Result<TicketList, ApiError> {
    let status = match status.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => Some(TicketStatus::parse(s).ok_or(ApiError::bad(Msg::InvalidStatus))?),
        None => None,
    };
    let customer;
    let scope = if crate::domain::policy::is(user, Role::Admin) {
        TicketScope::All
    } else {
        customer = acting_customer(user).ok_or(ApiError::Forbidden)?;
        TicketScope::Customer(&customer)
    };
    let TicketPage { results, next } = ctx.store.tickets(scope, status, cursor, PAGE_SIZE).await?;
    Ok(TicketList { results, next })
}

async fn visible_ticket(ctx: &Context, user: &User, id: u64) -> Result<Ticket, ApiError> {
    let t = ctx.store.get_ticket(id).await?.ok_or(ApiError::NotFound)?;
    if !support::may_view(user, &t) {
        return Err(ApiError::NotFound);
    }
    Ok(t)
}

pub async fn details(ctx: &Context, user: &User, id: u64) -> Result<TicketDetails, ApiError> {
    let t = visible_ticket(ctx, user, id).await?;
    let answers = ctx.store.ticket_answers(id).await?;
    Ok(TicketDetails {
        can_answer: support::may_answer(user, &t).is_ok(),
        can_close: support::may_close(user, &t).is_ok() && t.status != TicketStatus::Closed,
        ticket: t,
        answers,
    })
}

/// An answer in a ticket (admin; or the customer side's follow-up).
pub async fn answer(ctx: &Context, user: &User, id: u64, text: &str, once: &Once) -> Result<Answer, ApiError> {
    let text = support::validate_answer(text)?;
    let text = &text;
    retry::until_done(|_| async move {
        let prev = visible_ticket(ctx, user, id).await?;
        let staff = support::may_answer(user, &prev)?;
        let now = Utc::now();
        let a = Answer {
            id: uuid::Uuid::new_v4().simple().to_string(),
            ticket_id: id,
            by: user.uid.clone(),
            by_name: user.full_name(),
            staff,
            text: text.clone(),
            at: now,
        };
        let next = Ticket { status: support::after_answer(staff), answer_count: prev.answer_count + 1, updated_at: now, ..prev.clone() };
        let mut tx = ctx.store.tx();
        ctx.store.replace_ticket(&mut tx, &prev, &next)?;
        ctx.store.add_answer(&mut tx, &a)?;
        once.record(&mut tx, &a)?;
        Ok(if ctx.store.commit(tx).await? { Attempt::Done(a) } else { Attempt::Conflict })
    })
    .await
}

/// Admin closes a ticket (closing a closed one answers it again).
pub async fn close(ctx: &Context, user: &User, id: u64) -> Result<Ticket, ApiError> {
    retry::until_done(|_| async move {
        let prev = visible_ticket(ctx, user, id).await?;
        support::may_close(user, &prev)?;
        if prev.status == TicketStatus::Closed {
            return Ok(Attempt::Done(prev));
        }
        let next = Ticket { status: TicketStatus::Closed, updated_at: Utc::now(), ..prev.clone() };
        let mut tx = ctx.store.tx();
        ctx.store.replace_ticket(&mut tx, &prev, &next)?;
        Ok(if ctx.store.commit(tx).await? { Attempt::Done(next) } else { Attempt::Conflict })
    })
    .await
}

/// The caller's company's tickets by status (Statistics → Support).
pub async fn counts(ctx: &Context, user: &User) -> Result<TicketCounts, ApiError> {
    let customer = support::may_create(user)?;
    let mut c = TicketCounts::default();
    for st in TicketStatus::ALL {
        c.set(st, ctx.store.count_tickets(&customer, st).await?);
    }
    Ok(c)
}

/// A download link for a ticket's file (whoever sees the ticket).
pub async fn attachment_download(ctx: &Context, user: &User, id: u64) -> Result<DownloadUrl, ApiError> {
    let t = visible_ticket(ctx, user, id).await?;
    let a = t.attachment.ok_or(ApiError::NotFound)?;
    let url = ctx.files.presign_download(&a.key, &a.name).await?;
    Ok(DownloadUrl { url, name: a.name })
}

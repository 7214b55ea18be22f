//! Sending the outbox's mail ([`crate::store::outbox`]): the step right after
//! a write's commit, and the scheduled job's sweep of what that step left.
//!
//! The write is stored before its mail is tried, so a send SES refuses (a
//! rejected or suppressed address, throttling, a paused account, a timeout)
//! never turns the write's answer into an error: it is logged (without the
//! address), counted (`MailsRefused`, by the mailer) and counted on the item,
//! and the sweep tries again later, backing off, until the item is marked
//! failed ([`crate::store::outbox::MAX_ATTEMPTS`]).

use chrono::{DateTime, Utc};

use crate::domain::User;
use crate::error::ApiError;
use crate::services::Context;
use crate::store::outbox::{self, Letter, OutboxMail, Refusal};
use crate::telemetry;

/// Outbox mail one sweep tries at most.
pub const SWEEP_LIMIT: usize = 25;

/// What one sweep did: mails sent, mails marked failed (their last try was
/// refused), mails refused and left for a later try.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepReport {
    pub sent: usize,
    pub failed: usize,
    pub deferred: usize,
}

/// Whether the step after the commit got its mail out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// Sent now, or earlier (nothing was left to send).
    Sent,
    /// Not sent: left to the sweep, or withdrawn ([`OnRefusal::Withdraw`]).
    NotSent,
}

/// What a refused send after the commit leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnRefusal {
    /// The item stays for the sweep (the write's answer is its success).
    Retry,
    /// The item is marked failed: the caller tells its user the mail could
    /// not be sent, so nothing may arrive later unannounced.
    Withdraw,
}

/// The mail of a new account's set-password link (`token`).
pub fn invitation_letter(origin: &str, user: &User, token: &str) -> Letter {
    let link = format!("{}/recovery/account?token={}", origin.trim_end_matches('/'), token);
    let body = format!(
        "Hej {name},\n\nDu har fått ett konto på plattformen. Öppna länken för att välja ditt lösenord. Den gäller i tre dygn och kan användas en gång:\n{link}\n\n\
         Hello {name},\n\nAn account has been created for you. Open the link to choose your password. It is valid for three days and can be used once:\n{link}\n",
        name = user.first_name
    );
    Letter { to: user.email.clone(), subject: "Välkommen / Welcome".into(), body }
}

/// How one try of an item ended.
enum Try {
    Sent,
    /// Nobody to write to (the account is gone, a kind this version does not know).
    Nothing,
    Refused(ApiError),
}

/// Tries `m` once (`user`: its addressee when the caller has it at hand).
async fn try_send(ctx: &Context, m: &OutboxMail, user: Option<&User>) -> Result<Try, ApiError> {
    let letter = match (m.kind.as_str(), &m.letter) {
        (outbox::INVITATION, _) => {
            let user = match user {
                Some(u) => Some(u.clone()),
                None => ctx.store.get_user(&m.user_uid).await?,
            };
            match user {
                Some(u) => invitation_letter(&ctx.config.web_origin, &u, &m.token),
                None => return Ok(Try::Nothing),
            }
        }
        (outbox::EVENT | outbox::NOTICE, Some(letter)) => letter.clone(),
        _ => return Ok(Try::Nothing),
    };
    Ok(match ctx.mail.send(&letter.to, &letter.subject, &letter.body).await {
        Ok(()) => Try::Sent,
        Err(e) => Try::Refused(e),
    })
}

/// Counts a refused send of `m` on the item and logs it (never the address:
/// SES's reason is masked).
async fn refused(ctx: &Context, m: &OutboxMail, err: &ApiError, now: DateTime<Utc>, give_up: bool) -> Result<Refusal, ApiError> {
    let refusal = ctx.store.record_mail_refused(m, now, give_up).await?;
    let attempts = m.attempts + 1;
    let reason = telemetry::redact(&err.to_string()).into_owned();
    match refusal {
        Refusal::Deferred => {
            tracing::warn!(mail = %m.sk, kind = %m.kind, attempts, error = %reason, "outbox mail refused: tried again later")
        }
        Refusal::Failed => {
            telemetry::mail_failed();
            tracing::warn!(mail = %m.sk, kind = %m.kind, attempts, error = %reason, "outbox mail refused: marked failed, not tried again");
        }
        Refusal::Stale => {}
    }
    Ok(refusal)
}

/// The step right after the commit of the write that queued `sk`: sends it
/// unless it was sent already, then marks it sent. Never fails, as the
/// write is stored: a refusal (or a store failure) is logged and, as
/// `on_refusal` says, left to the sweep or withdrawn. `user`: the
/// addressee of an invitation, when the caller has it (the account may be
/// too new for an eventually consistent read).
pub async fn send_after_commit(ctx: &Context, sk: &str, user: Option<&User>, on_refusal: OnRefusal) -> Delivery {
    let result: Result<Delivery, ApiError> = async {
        let Some(m) = ctx.store.unsent_mail(sk).await? else { return Ok(Delivery::Sent) };
        match try_send(ctx, &m, user).await? {
            Try::Sent | Try::Nothing => {
                ctx.store.mark_mail_sent(sk).await?;
                Ok(Delivery::Sent)
            }
            Try::Refused(e) => {
                refused(ctx, &m, &e, Utc::now(), on_refusal == OnRefusal::Withdraw).await?;
                Ok(Delivery::NotSent)
            }
        }
    }
    .await;
    result.unwrap_or_else(|e| {
        tracing::warn!(mail = %sk, error = %telemetry::redact(&e.to_string()), "outbox mail left to the sweep");
        Delivery::NotSent
    })
}

/// [`send_after_commit`] of each of `sks` (a transaction's event mails), each left to the sweep if refused.
pub async fn send_all_after_commit(ctx: &Context, sks: &[String]) {
    for sk in sks {
        send_after_commit(ctx, sk, None, OnRefusal::Retry).await;
    }
}

/// The sweep (the scheduled job): tries outbox mail written before `before`
/// (older than a request's own step), still unsent and due by `now`, at
/// most [`SWEEP_LIMIT`], oldest first. A refused mail is counted and backed
/// off, and the sweep goes on with the next: one address SES never takes
/// cannot hold up the others. Fails only when the table does.
pub async fn send_unsent(ctx: &Context, before: DateTime<Utc>, now: DateTime<Utc>) -> Result<SweepReport, ApiError> {
    let mut report = SweepReport::default();
    for listed in ctx.store.unsent_mail_before(before, now, SWEEP_LIMIT).await? {
        // Read again, strongly: the request's own step or another sweep may
        // have sent or counted it since the (eventually consistent) query.
        let Some(m) = ctx.store.unsent_mail(&listed.sk).await? else { continue };
        if m.attempts != listed.attempts {
            continue;
        }
        match try_send(ctx, &m, None).await? {
            Try::Sent => {
                ctx.store.mark_mail_sent(&m.sk).await?;
                report.sent += 1;
            }
            Try::Nothing => {
                tracing::warn!(mail = %m.sk, kind = %m.kind, "outbox mail not sendable: marked sent");
                ctx.store.mark_mail_sent(&m.sk).await?;
            }
            Try::Refused(e) => match refused(ctx, &m, &e, now, false).await? {
                Refusal::Deferred => report.deferred += 1,
                Refusal::Failed => report.failed += 1,
                Refusal::Stale => {}
            },
        }
    }
    Ok(report)
}

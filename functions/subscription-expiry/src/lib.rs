//! The scheduled subscription-expiry job (EventBridge, every 15 minutes on
//! AWS; a timer in the local gateway). It expires rows past `expire_on` and
//! renews those whose automatic update date asks for it (the renewed row is
//! the old one's `child`), tells customers and account managers of rows
//! ending within 7 days (once per row), then finishes follow-ups a stopped
//! process left behind and sends outbox mail (a new account's invitation, an
//! event's mail) that a stop, or SES refusing it, left unsent (a refused one
//! is tried again later, backing off, and after 8 tries marked failed). Idempotent: running it twice, or twice at once, ends
//! in the same state.

use chrono::{DateTime, Utc};
use shared::error::ApiError;
use shared::services::subscriptions::{self, ExpiryReport};
use shared::services::{events, notifications, outbox, Context};
use shared::telemetry;

/// One run of the job; its figures (or its failure) are logged and
/// written as metrics (`ExpiryRuns`, `ExpiryDue`, …: see
/// `shared::telemetry::expiry_run`), which the template's alarms watch.
pub async fn run(ctx: &Context, now: DateTime<Utc>) -> Result<ExpiryReport, ApiError> {
    let result = steps(ctx, now).await;
    match &result {
        Ok(r) => telemetry::expiry_run(Ok((r.due, r.expired, r.renewed))),
        Err(e) => {
            tracing::error!(error = %telemetry::redact(&e.to_string()), "subscription-expiry failed");
            telemetry::expiry_run(Err(()));
        }
    }
    telemetry::flush_metrics();
    result
}

async fn steps(ctx: &Context, now: DateTime<Utc>) -> Result<ExpiryReport, ApiError> {
    let report = subscriptions::expire_due(ctx, now).await?;
    let reminded = notifications::remind_expiring(ctx, now).await?;
    tracing::info!(due = report.due, expired = report.expired, renewed = report.renewed, reminded, "subscription-expiry");
    events::finish_pending(ctx).await?;
    // Older than a request's deadline: the request's own step is over.
    let now = now.min(Utc::now());
    let mail = outbox::send_unsent(ctx, now - chrono::Duration::minutes(1), now).await?;
    if mail != outbox::SweepReport::default() {
        tracing::info!(sent = mail.sent, failed = mail.failed, deferred = mail.deferred, "subscription-expiry: unsent mail tried");
    }
    Ok(report)
}

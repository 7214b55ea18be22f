//! The scheduled subscription-expiry job (EventBridge, every 15 minutes on
//! AWS; a timer in the local gateway). It expires rows past `expire_on` and
//! renews those whose automatic update date asks for it (the renewed row is
//! the old one's `child`), tells customers and account managers of rows
//! ending within 7 days (once per row), then finishes follow-ups a stopped
//! process left behind and sends outbox mail (a new account's invitation)
//! that a stop between its commit and its send left unsent. Idempotent: running it twice, or twice at once, ends
//! in the same state.

use chrono::{DateTime, Utc};
use shared::error::ApiError;
use shared::services::credentials::passwords;
use shared::services::subscriptions::{self, ExpiryReport};
use shared::services::{events, notifications, Context};

pub async fn run(ctx: &Context, now: DateTime<Utc>) -> Result<ExpiryReport, ApiError> {
    let report = subscriptions::expire_due(ctx, now).await?;
    let reminded = notifications::remind_expiring(ctx, now).await?;
    println!("subscription-expiry: due={} expired={} renewed={} reminded={reminded}", report.due, report.expired, report.renewed);
    events::finish_pending(ctx).await?;
    // Older than a request's deadline: the request's own step is over.
    let mailed = passwords::send_unsent(ctx, now.min(Utc::now()) - chrono::Duration::minutes(1)).await?;
    if mailed > 0 {
        println!("subscription-expiry: unsent mail sent={mailed}");
    }
    Ok(report)
}

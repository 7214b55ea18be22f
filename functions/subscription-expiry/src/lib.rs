//! The scheduled subscription-expiry job (EventBridge, every 15 minutes on
//! AWS; a timer in the local gateway). It expires rows past `expire_on` and
//! renews those whose automatic update date asks for it (the renewed row is
//! the old one's `child`). Idempotent: running it twice, or twice at once,
//! ends in the same state.

use chrono::{DateTime, Utc};
use shared::error::ApiError;
use shared::store::{subscriptions::ExpiryReport, Store};

pub async fn run(store: &Store, now: DateTime<Utc>) -> Result<ExpiryReport, ApiError> {
    let report = store.expire_due_subscriptions(now).await?;
    println!("subscription-expiry: due={} expired={} renewed={}", report.due, report.expired, report.renewed);
    Ok(report)
}

//! Per-user limits on use cases that a signed-in user could run in bulk to
//! harvest data or send mail: conflict searches and invitations. Each
//! answers a 429 with its own translated key, so the user sees what was
//! limited and that waiting helps.

use chrono::Utc;

use super::Context;
use crate::domain::User;
use crate::error::{ApiError, Msg};
use crate::store::rate_limit::{self, Limit};

/// Counts one use by `user` under each of `limits` (in order, stopping at
/// the first that is passed); `Throttled(key)` past any of them.
async fn per_user(ctx: &Context, user: &User, limits: &[Limit], key: Msg) -> Result<(), ApiError> {
    let t = Utc::now().timestamp();
    for &limit in limits {
        ctx.store.rate_limit(limit, &user.uid, t).await.map_err(|e| match e {
            ApiError::TooManyRequests => ApiError::Throttled(key),
            other => other,
        })?;
    }
    Ok(())
}

/// One conflict search: 30 a minute and 500 a day per user. Both counters
/// count at once (a search waits for one round trip, not two), so a search
/// refused by the minute's limit is counted in the day's too, as each
/// counter counts every attempt.
pub async fn conflict_search(ctx: &Context, user: &User) -> Result<(), ApiError> {
    let t = Utc::now().timestamp();
    let (minute, day) = tokio::join!(
        ctx.store.rate_limit(rate_limit::CONFLICT_SEARCH_PER_MINUTE, &user.uid, t),
        ctx.store.rate_limit(rate_limit::CONFLICT_SEARCH_PER_DAY, &user.uid, t)
    );
    minute.and(day).map_err(|e| match e {
        ApiError::TooManyRequests => ApiError::Throttled(Msg::TooManySearches),
        other => other,
    })
}

/// One account created for someone else (a customer's contact, a lawyer, a
/// sales person), each with an invitation mail: 20 an hour per user.
pub async fn invitation(ctx: &Context, user: &User) -> Result<(), ApiError> {
    per_user(ctx, user, &[rate_limit::INVITATIONS_PER_USER], Msg::TooManyInvitations).await
}

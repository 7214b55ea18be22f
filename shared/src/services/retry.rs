//! The one retry loop of the use cases.
//!
//! Writes are optimistic: a use case reads, decides, and commits conditional
//! on what it read. When a concurrent writer won ([`Attempt::Conflict`]) or
//! the store answered with a transient failure ([`ApiError::Unavailable`]),
//! the whole read–decide–write runs again after a jittered, growing pause,
//! until it succeeds, refuses for a real reason, or the deadline passes.
//! The deadline (not a count) bounds the work, so fifty writers of one
//! subscription row all get through, and nothing outlives the function's
//! timeout.

use std::future::Future;
use std::time::{Duration, Instant};

use crate::error::{ApiError, Msg};

/// The outcome of one try.
pub enum Attempt<T> {
    Done(T),
    /// Someone else changed what this try read: read again and decide again.
    Conflict,
}

/// Total time a use case keeps trying: before the request's deadline
/// (`Budgets::retries_deadline`), leaving room for the rest of the request.
pub fn deadline() -> Duration {
    crate::config::Budgets::from_env().retries_deadline()
}

const FIRST_PAUSE_MS: u64 = 5;
const MAX_PAUSE_MS: u64 = 250;

/// Runs `attempt(n)` (n = 0, 1, …) until it is done, fails for a reason that
/// is not transient, or [`deadline`] passes (then `changed_concurrently`, or
/// the last transient error).
pub async fn until_done<T, F, Fut>(attempt: F) -> Result<T, ApiError>
where
    F: FnMut(u32) -> Fut,
    Fut: Future<Output = Result<Attempt<T>, ApiError>>,
{
    until_done_within(deadline(), attempt).await
}

/// [`until_done`] with another deadline (tests).
pub async fn until_done_within<T, F, Fut>(deadline: Duration, mut attempt: F) -> Result<T, ApiError>
where
    F: FnMut(u32) -> Fut,
    Fut: Future<Output = Result<Attempt<T>, ApiError>>,
{
    let started = Instant::now();
    let mut n: u32 = 0;
    loop {
        let last = match attempt(n).await {
            Ok(Attempt::Done(v)) => return Ok(v),
            Ok(Attempt::Conflict) => ApiError::bad(Msg::ChangedConcurrently),
            Err(ApiError::Unavailable(detail)) => {
                tracing::warn!(detail = %crate::telemetry::redact(&detail), "transient store failure, trying again");
                ApiError::Unavailable(detail)
            }
            Err(e) => return Err(e),
        };
        let pause = pause_for(n);
        if started.elapsed() + pause >= deadline {
            return Err(last);
        }
        tokio::time::sleep(pause).await;
        n = n.saturating_add(1);
    }
}

/// Exponential with full jitter, so many writers spread out.
fn pause_for(n: u32) -> Duration {
    let cap = FIRST_PAUSE_MS.saturating_mul(1u64 << n.min(10)).min(MAX_PAUSE_MS);
    Duration::from_millis(rand::random_range(1..=cap.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[tokio::test]
    async fn conflicts_are_tried_again_until_done() {
        let tries = AtomicU32::new(0);
        let v = until_done(|n| {
            tries.fetch_add(1, Ordering::SeqCst);
            async move { Ok(if n < 3 { Attempt::Conflict } else { Attempt::Done(n) }) }
        })
        .await
        .unwrap();
        assert_eq!(v, 3);
        assert_eq!(tries.load(Ordering::SeqCst), 4);
    }

    #[tokio::test]
    async fn a_real_refusal_is_not_tried_again() {
        let tries = AtomicU32::new(0);
        let e = until_done(|_| {
            tries.fetch_add(1, Ordering::SeqCst);
            async { Err::<Attempt<()>, _>(ApiError::bad(Msg::LimitReached)) }
        })
        .await
        .unwrap_err();
        assert_eq!(e.key(), Msg::LimitReached);
        assert_eq!(tries.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn transient_failures_are_tried_again_and_the_deadline_ends_it() {
        let tries = AtomicU32::new(0);
        let e = until_done_within(Duration::from_millis(200), |_| {
            tries.fetch_add(1, Ordering::SeqCst);
            async { Err::<Attempt<()>, _>(ApiError::Unavailable("throttled".into())) }
        })
        .await
        .unwrap_err();
        assert_eq!(e.status(), 503);
        assert!(tries.load(Ordering::SeqCst) > 1);
        let e =
            until_done_within(Duration::from_millis(100), |_| async { Ok::<Attempt<()>, ApiError>(Attempt::Conflict) }).await.unwrap_err();
        assert_eq!(e.key(), Msg::ChangedConcurrently);
    }
}

//! Fixed-window rate-limit counters in the table (`RATE#<scope>#<key>`,
//! one item per window, removed by TTL). API Gateway HTTP APIs have no
//! per-client throttling, so sign-in, codes and recovery mail count here.
//! A window starts at a multiple of its length (epoch seconds), so tries
//! on either side of a window's end count in different windows.

use super::{keys, n, s, sdk_err, Store};
use crate::domain::sign_in;
use crate::error::ApiError;

#[derive(Clone, Copy, Debug)]
pub struct Limit {
    pub scope: &'static str,
    pub max: u32,
    pub window_secs: i64,
}

/// Failed sign-ins per account (e-mail) and per client address: successful
/// ones do not count, so colleagues behind one office address, or a user
/// signing in often, are never locked out by succeeding.
/// Per account, only failures from clients without the account's device
/// token count (see `domain::sign_in`): the cool-down a known device passes.
pub const LOGIN_PER_ACCOUNT: Limit = Limit { scope: "login-account", max: sign_in::ACCOUNT_MAX, window_secs: 15 * 60 };
pub const LOGIN_PER_ADDRESS: Limit = Limit { scope: "login-ip", max: sign_in::ADDRESS_MAX, window_secs: 15 * 60 };
/// Failures of one address on one account (growing delays, no hard limit).
pub const LOGIN_PER_PAIR: Limit = Limit { scope: "login-pair", max: u32::MAX, window_secs: 15 * 60 };
/// Failures of one device token.
pub const LOGIN_PER_DEVICE: Limit = Limit { scope: "login-device", max: sign_in::DEVICE_MAX, window_secs: 15 * 60 };
/// Code entries per account and per address (each code also allows 5 tries).
pub const CODE_PER_ACCOUNT: Limit = Limit { scope: "code-account", max: 20, window_secs: 15 * 60 };
pub const CODE_PER_ADDRESS: Limit = Limit { scope: "code-ip", max: 50, window_secs: 15 * 60 };
/// Mails sent on request (new codes, recovery links) per account and per address.
pub const MAIL_PER_ACCOUNT: Limit = Limit { scope: "mail-account", max: 5, window_secs: 15 * 60 };
pub const MAIL_PER_ADDRESS: Limit = Limit { scope: "mail-ip", max: 20, window_secs: 15 * 60 };

/// Mails one address receives on someone's request (set-password links,
/// activation links, recovery links, second-factor codes on resend), whoever
/// asks: a caller with the right to send cannot flood one inbox.
pub const MAIL_PER_RECIPIENT: Limit = Limit { scope: "mail-to", max: 5, window_secs: 15 * 60 };

/// Availability checks (e-mail, registration number: they tell whether an
/// account or a company is known) per client address. The forms check as
/// the user types (debounced), so a sign-up takes a handful.
pub const LOOKUP_PER_ADDRESS: Limit = Limit { scope: "lookup-ip", max: 100, window_secs: 15 * 60 };

impl Store {
    /// Whether the window's limit is already reached (reads, counts nothing).
    /// Read consistently: the failures counted a moment ago must be seen.
    pub async fn rate_exceeded(&self, limit: Limit, key: &str, now: i64) -> Result<bool, ApiError> {
        let window = now.div_euclid(limit.window_secs);
        let hits: u32 = self
            .get_latest(&keys::rate_limit::pk(limit.scope, key), &keys::rate_limit::sk(window))
            .await?
            .and_then(|i| i.get("hits").and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok()))
            .unwrap_or(0);
        Ok(hits >= limit.max)
    }

    /// The failures counted in the current window and when the last one was
    /// (0 and 0 when none), read consistently.
    pub async fn failures(&self, limit: Limit, key: &str, now: i64) -> Result<(u32, i64), ApiError> {
        let window = now.div_euclid(limit.window_secs);
        let item = self.get_latest(&keys::rate_limit::pk(limit.scope, key), &keys::rate_limit::sk(window)).await?;
        let num = |name: &str| item.as_ref().and_then(|i| i.get(name)).and_then(|v| v.as_n().ok()).and_then(|v| v.parse::<i64>().ok());
        Ok((num("hits").unwrap_or(0).clamp(0, u32::MAX as i64) as u32, num("last").unwrap_or(0)))
    }

    /// Counts one failure at `now` (its time kept for the growing delays).
    pub async fn count_failure(&self, limit: Limit, key: &str, now: i64) -> Result<(), ApiError> {
        let window = now.div_euclid(limit.window_secs);
        self.client
            .update_item()
            .table_name(&self.table)
            .key("PK", s(keys::rate_limit::pk(limit.scope, key)))
            .key("SK", s(keys::rate_limit::sk(window)))
            .update_expression("ADD hits :one SET #ttl = :ttl, #last = :now")
            .expression_attribute_names("#ttl", super::table::TTL_ATTRIBUTE)
            .expression_attribute_names("#last", "last")
            .expression_attribute_values(":one", n(1))
            .expression_attribute_values(":now", n(now))
            .expression_attribute_values(":ttl", n((window + 2) * limit.window_secs))
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(())
    }

    /// Counts one hit; `Err(TooManyRequests)` once the window's limit is passed.
    pub async fn rate_limit(&self, limit: Limit, key: &str, now: i64) -> Result<(), ApiError> {
        let window = now.div_euclid(limit.window_secs);
        let out = self
            .client
            .update_item()
            .table_name(&self.table)
            .key("PK", s(keys::rate_limit::pk(limit.scope, key)))
            .key("SK", s(keys::rate_limit::sk(window)))
            .update_expression("ADD hits :one SET #ttl = :ttl")
            .expression_attribute_names("#ttl", super::table::TTL_ATTRIBUTE)
            .expression_attribute_values(":one", n(1))
            .expression_attribute_values(":ttl", n((window + 2) * limit.window_secs))
            .return_values(aws_sdk_dynamodb::types::ReturnValue::UpdatedNew)
            .send()
            .await
            .map_err(sdk_err)?;
        let hits: u32 =
            out.attributes.and_then(|a| a.get("hits").and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok())).unwrap_or(u32::MAX);
        if hits > limit.max {
            Err(ApiError::TooManyRequests)
        } else {
            Ok(())
        }
    }
}

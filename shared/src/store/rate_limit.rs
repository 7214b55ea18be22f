//! Fixed-window rate-limit counters in the table (`RATE#<scope>#<key>`,
//! one item per window, removed by TTL). API Gateway HTTP APIs have no
//! per-client throttling, so sign-in, codes and recovery mail count here.
//! A window starts at a multiple of its length (epoch seconds), so tries
//! on either side of a window's end count in different windows.

use super::{keys, n, sdk_err, Store};
use crate::domain::sign_in;
use crate::error::ApiError;

#[derive(Clone, Copy, Debug)]
pub struct Limit {
    pub scope: &'static str,
    pub max: u32,
    pub window_secs: i64,
}

/// Failed sign-ins per client address, over every account: successful ones
/// do not count, so colleagues behind one office address are never locked
/// out by succeeding. There is no limit per account alone (see
/// `domain::sign_in`): that one anybody could fill from anywhere.
pub const LOGIN_PER_ADDRESS: Limit = Limit { scope: "login-ip", max: sign_in::ADDRESS_MAX, window_secs: 15 * 60 };
/// Failures of one address on one account (growing delays, no hard limit).
pub const LOGIN_PER_PAIR: Limit = Limit { scope: "login-pair", max: u32::MAX, window_secs: 15 * 60 };
/// Failures of one device token (growing delays, then closed).
pub const LOGIN_PER_DEVICE: Limit = Limit { scope: "login-device", max: sign_in::DEVICE_MAX, window_secs: 15 * 60 };
/// Wrong current passwords given by a signed-in user (password change,
/// turning two-factor off): their own budget, never a failed sign-in.
pub const PASSWORD_CHECK_PER_USER: Limit = Limit { scope: "password-check", max: 10, window_secs: 15 * 60 };
/// Code entries per account (enrolling or removing an authenticator, by
/// the signed-in user) and per address (also the sign-in's second step,
/// where each code allows 5 tries and is then replaced).
pub const CODE_PER_ACCOUNT: Limit = Limit { scope: "code-account", max: 20, window_secs: 15 * 60 };
pub const CODE_PER_ADDRESS: Limit = Limit { scope: "code-ip", max: 50, window_secs: 15 * 60 };
/// Sign-in code mails, apart from every other mail so that recovery
/// requests by anybody cannot stop them: per account and client address,
/// and per account from browsers without its device token.
pub const CODE_MAIL_PER_PAIR: Limit = Limit { scope: "code-mail-pair", max: 10, window_secs: 15 * 60 };
pub const CODE_MAIL_PER_ACCOUNT: Limit = Limit { scope: "code-mail-account", max: 30, window_secs: 15 * 60 };
/// Mails sent on request (new codes, recovery links) per account and per address.
pub const MAIL_PER_ACCOUNT: Limit = Limit { scope: "mail-account", max: 5, window_secs: 15 * 60 };
pub const MAIL_PER_ADDRESS: Limit = Limit { scope: "mail-ip", max: 20, window_secs: 15 * 60 };

/// Mails one address receives on someone's request (set-password links,
/// activation links, recovery links; not sign-in codes, see above), whoever
/// asks: a caller with the right to send cannot flood one inbox.
pub const MAIL_PER_RECIPIENT: Limit = Limit { scope: "mail-to", max: 5, window_secs: 15 * 60 };

/// Availability checks (e-mail, registration number: they tell whether an
/// account or a company is known) per client address. The forms check as
/// the user types (debounced), so a sign-up takes a handful.
pub const LOOKUP_PER_ADDRESS: Limit = Limit { scope: "lookup-ip", max: 100, window_secs: 15 * 60 };

/// BankID identifications started per client address (each one is an
/// order at BankID, billed to the firm): a sign-in's budget, apart from
/// the password's failures.
pub const BANKID_START_PER_ADDRESS: Limit = Limit { scope: "bankid-ip", max: 30, window_secs: 15 * 60 };

/// Sign-ups per client address: each well-formed one either creates an
/// account or mails the address, so it is a lookup too (an office signing
/// up several people stays well below).
pub const REGISTRATION_PER_ADDRESS: Limit = Limit { scope: "register-ip", max: 20, window_secs: 15 * 60 };

/// Conflict searches per user, per minute and per day (harvesting the
/// party index one name at a time).
pub const CONFLICT_SEARCH_PER_MINUTE: Limit = Limit { scope: "conflict-min", max: 30, window_secs: 60 };
pub const CONFLICT_SEARCH_PER_DAY: Limit = Limit { scope: "conflict-day", max: 500, window_secs: 24 * 60 * 60 };
/// Accounts a user creates for others (contacts, lawyers, sales persons),
/// each an invitation mail, per hour.
pub const INVITATIONS_PER_USER: Limit = Limit { scope: "invite", max: 20, window_secs: 60 * 60 };

impl Store {
    /// Whether the window's limit is already reached (reads, counts nothing).
    /// Read consistently: the failures counted a moment ago must be seen.
    pub async fn rate_exceeded(&self, limit: Limit, key: &str, now: i64) -> Result<bool, ApiError> {
        let window = now.div_euclid(limit.window_secs);
        let hits: u32 = self
            .get_consistent(&keys::rate_limit::item(limit.scope, key, window))
            .await?
            .and_then(|i| i.get("hits").and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok()))
            .unwrap_or(0);
        Ok(hits >= limit.max)
    }

    /// The failures counted in the current window and when the last one was
    /// (0 and 0 when none), read consistently.
    pub async fn failures(&self, limit: Limit, key: &str, now: i64) -> Result<(u32, i64), ApiError> {
        let window = now.div_euclid(limit.window_secs);
        let item = self.get_consistent(&keys::rate_limit::item(limit.scope, key, window)).await?;
        let num = |name: &str| item.as_ref().and_then(|i| i.get(name)).and_then(|v| v.as_n().ok()).and_then(|v| v.parse::<i64>().ok());
        Ok((num("hits").unwrap_or(0).clamp(0, u32::MAX as i64) as u32, num("last").unwrap_or(0)))
    }

    /// Counts one failure at `now` (its time kept for the growing delays).
    pub async fn count_failure(&self, limit: Limit, key: &str, now: i64) -> Result<(), ApiError> {
        let window = now.div_euclid(limit.window_secs);
        self.client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::rate_limit::item(limit.scope, key, window).item()))
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
            .set_key(Some(keys::rate_limit::item(limit.scope, key, window).item()))
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

//! Credentials: signing in and staying signed in ([`sessions`]), passwords
//! ([`passwords`]) and the second factor ([`two_factor`]). The pieces they
//! share live here, so the three depend on this module and not on each
//! other in a circle (sessions → two_factor is the one edge between them).

pub mod bankid;
pub mod passwords;
pub mod sessions;
pub mod two_factor;

use chrono::Utc;

use super::retry::{self, Attempt};
use super::Context;
use crate::auth::{password, TokenKind, TokenPair};
use crate::domain::customer::inactive_reason as inactive_reason_of;
use crate::domain::{Role, User};
use crate::error::{ApiError, Msg};
use crate::store::rate_limit::{self, Limit};

fn now() -> i64 {
    Utc::now().timestamp()
}

async fn limit_both(s: &Context, per_account: Limit, account: &str, per_address: Limit, address: &str) -> Result<(), ApiError> {
    let t = now();
    s.store.rate_limit(per_address, address, t).await?;
    s.store.rate_limit(per_account, account, t).await
}

/// Counts a failed sign-in under each of `counters` (see
/// `domain::sign_in`). A store error is not swallowed: a transient one is
/// tried again, anything else fails the request, so a failure is never left
/// uncounted.
pub async fn count_failed_sign_in(s: &Context, counters: &[(Limit, &str)], t: i64) -> Result<(), ApiError> {
    for &(limit, key) in counters {
        retry::until_done(|_| async move { s.store.count_failure(limit, key, t).await.map(Attempt::Done) }).await?;
    }
    Ok(())
}

/// Counts one requested mail to `to` (429 past [`rate_limit::MAIL_PER_RECIPIENT`]).
/// Called before anything is stored or sent.
pub async fn limit_mail_to(s: &Context, to: &str) -> Result<(), ApiError> {
    s.store.rate_limit(rate_limit::MAIL_PER_RECIPIENT, &crate::domain::normalize_email(to), now()).await
}

/// The limits on entering a second-factor code as a signed-in user, per
/// account and per address.
pub async fn limit_code_entry(s: &Context, uid: &str, client: &str) -> Result<(), ApiError> {
    limit_both(s, rate_limit::CODE_PER_ACCOUNT, uid, rate_limit::CODE_PER_ADDRESS, client).await
}

/// The limit on entering the sign-in's second-step code: per address only.
/// Each code allows a few tries and is then replaced, so a count per
/// account would only let whoever has the password stop the owner's right code.
pub async fn limit_sign_in_code_entry(s: &Context, client: &str) -> Result<(), ApiError> {
    let client: String = client.chars().take(64).collect();
    s.store.rate_limit(rate_limit::CODE_PER_ADDRESS, &client, now()).await
}

/// Whether `password` is the signed-in `user`'s current one (password
/// change, turning two-factor off). Wrong ones count on the user's own
/// budget (429 past it), never as failed sign-ins.
pub async fn current_password_matches(s: &Context, user: &User, password: &str) -> Result<bool, ApiError> {
    let t = now();
    if s.store.rate_exceeded(rate_limit::PASSWORD_CHECK_PER_USER, &user.uid, t).await? {
        return Err(ApiError::TooManyRequests);
    }
    let matches = password_matches(password.to_string(), Some(user.password_hash.clone())).await?;
    if !matches {
        s.store.count_failure(rate_limit::PASSWORD_CHECK_PER_USER, &user.uid, t).await?;
    }
    Ok(matches)
}

/// Runs the deliberately slow argon2 check off the async workers. Unknown
/// users cost the same time as known ones.
pub async fn password_matches(password: String, stored: Option<String>) -> Result<bool, ApiError> {
    tokio::task::spawn_blocking(move || match stored {
        Some(hash) => password::verify(&password, &hash),
        None => {
            password::verify_dummy(&password);
            false
        }
    })
    .await
    .map_err(ApiError::internal)
}

/// Hashes a new password off the async workers.
pub async fn hash_password(pw: &str) -> Result<String, ApiError> {
    let pw = pw.to_string();
    tokio::task::spawn_blocking(move || password::hash(&pw)).await.map_err(ApiError::internal)?.map_err(ApiError::internal)
}

/// A new sign-in: a fresh refresh-token family.
pub async fn start_session(s: &Context, user: &User) -> Result<TokenPair, ApiError> {
    let (pair, refresh) = s.jwt.issue_pair(user, None)?;
    s.store.save_refresh_token(&refresh).await?;
    Ok(pair)
}

/// A completed sign-in (password, and the second factor when it is on): a
/// new session plus a device token, which gives this browser its own
/// sign-in counter later (`domain::sign_in`). It carries the token version,
/// so a password change ends it with the sessions.
pub async fn complete_sign_in(s: &Context, user: &User) -> Result<TokenPair, ApiError> {
    complete_sign_in_by(s, user, None).await
}

/// [`complete_sign_in`], the audit event naming how (`bankid`) when not by password.
pub async fn complete_sign_in_by(s: &Context, user: &User, how: Option<&str>) -> Result<TokenPair, ApiError> {
    let mut pair = start_session(s, user).await?;
    let mut event = crate::domain::audit::AuditEvent::by(user, crate::domain::audit::AuditAction::SignedIn).customer(customer_of(user));
    if let Some(how) = how {
        event = event.detail(how);
    }
    crate::services::audit::record(s, event).await;
    let (device, _) = s.jwt.issue_with(&user.uid, TokenKind::Device, now(), user.token_version, None)?;
    pair.device_token = Some(device);
    Ok(pair)
}

/// The customer whose account `user` is (the customer itself, a contact's company).
pub fn customer_of(user: &User) -> Option<&str> {
    crate::domain::policy::customer_of(user)
}

/// Why an inactive user may not sign in (asked after the password matched).
pub async fn inactive_reason(s: &Context, user: &User) -> Result<Msg, ApiError> {
    let profile = match crate::domain::policy::is(user, Role::Customer) {
        true => s.store.get_customer_profile(&user.uid).await?,
        false => None,
    };
    Ok(inactive_reason_of(profile.as_ref()))
}

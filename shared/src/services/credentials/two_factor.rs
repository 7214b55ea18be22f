//! The user's own two-factor settings: on/off (e-mailed code), and enrolling
//! and removing an authenticator app (TOTP) with its recovery codes. The
//! sign-in's second step itself is in [`crate::sessions`].

use crate::error::Msg;
use chrono::Utc;
use serde::Serialize;
use utoipa::ToSchema;

use super::{current_password_matches, limit_code_entry, start_session};
use crate::auth::TokenPair;
use crate::domain::totp::{self, TotpAuthenticator, TotpCheck, TotpSetup};
use crate::domain::User;
use crate::error::{ApiError, FieldErrors};
use crate::services::Context;

pub const METHOD_EMAIL: &str = "email";
pub const METHOD_TOTP: &str = "totp";

#[derive(Serialize, ToSchema)]
pub struct TwoFactorStatus {
    pub enabled: bool,
    /// `email` or `totp`: how the second step is (or, when off, would be) done.
    pub method: &'static str,
    /// Unused recovery codes (0 without an authenticator app).
    pub recovery_codes_left: usize,
}

#[derive(Serialize, ToSchema)]
pub struct TotpSetupStarted {
    /// For the QR code.
    pub otpauth_uri: String,
    /// Base32, for typing into the app by hand.
    pub secret: String,
}

#[derive(Serialize, ToSchema)]
pub struct TotpConfirmed {
    pub method: &'static str,
    /// Shown once; only their hashes are stored.
    pub recovery_codes: Vec<String>,
    /// Other sessions have ended; this one continues with these tokens.
    #[serde(flatten)]
    pub auth: TokenPair,
}

fn now() -> i64 {
    Utc::now().timestamp()
}

/// The authenticator, when it is the user's active method.
pub async fn active_totp(s: &Context, user: &User) -> Result<Option<TotpAuthenticator>, ApiError> {
    if !user.two_factor {
        return Ok(None);
    }
    s.store.get_totp(&user.uid).await
}

pub async fn status(s: &Context, user: &User) -> Result<TwoFactorStatus, ApiError> {
    Ok(match active_totp(s, user).await? {
        Some(a) => TwoFactorStatus { enabled: true, method: METHOD_TOTP, recovery_codes_left: a.recovery_hashes.len() },
        None => TwoFactorStatus { enabled: user.two_factor, method: METHOD_EMAIL, recovery_codes_left: 0 },
    })
}

/// `2fa/toggle-activation/`: `Some(state)` sets it, `None` flips it (the
/// original call). Turning it on ends every session (spec §4). Turning it
/// off needs the current `password` (a stolen access token alone must not
/// remove a second factor; wrong tries count like failed sign-ins). An
/// authenticator app is only removed through [`disable_totp`], which asks for
/// the password or a code.
pub async fn set_enabled(s: &Context, mut user: User, desired: Option<bool>, password: &str) -> Result<TwoFactorStatus, ApiError> {
    let totp_on = active_totp(s, &user).await?;
    let target = desired.unwrap_or(!user.two_factor);
    if let Some(a) = totp_on {
        if !target {
            return Err(ApiError::bad(Msg::TotpDisableRequired));
        }
        return Ok(TwoFactorStatus { enabled: true, method: METHOD_TOTP, recovery_codes_left: a.recovery_hashes.len() });
    }
    if !target && user.two_factor {
        if password.is_empty() {
            return Err(ApiError::field("password", Msg::PasswordOrCodeRequired));
        }
        if !current_password_matches(s, &user, password).await? {
            return Err(ApiError::field("password", Msg::CurrentPasswordWrong));
        }
    }
    if target != user.two_factor {
        if target {
            // A leftover authenticator must not silently become the method.
            s.store.delete_totp(&user.uid).await?;
            user.end_all_sessions();
        }
        user.two_factor = target;
        s.store.put_user(&user).await?;
    }
    Ok(TwoFactorStatus { enabled: user.two_factor, method: METHOD_EMAIL, recovery_codes_left: 0 })
}

/// `2fa/totp/setup/`: a new pending secret. Refused while an authenticator is
/// active: it must be removed first (with the password or a code).
pub async fn start_totp_setup(s: &Context, user: &User) -> Result<TotpSetupStarted, ApiError> {
    if active_totp(s, user).await?.is_some() {
        return Err(ApiError::bad(Msg::TotpAlreadyEnabled));
    }
    let secret = totp::to_base32(&totp::new_secret());
    s.store
        .save_totp_setup(&TotpSetup {
            user_uid: user.uid.clone(),
            secret: secret.clone(),
            expires_at: now() + totp::SETUP_TTL_SECS,
            attempts: 0,
        })
        .await?;
    Ok(TotpSetupStarted { otpauth_uri: totp::otpauth_uri(&user.email, &secret), secret })
}

/// `2fa/totp/confirm/`: the first code from the app proves the enrolment;
/// the method becomes TOTP, other sessions end, and ten recovery codes are
/// returned once.
pub async fn confirm_totp(s: &Context, mut user: User, code: &str, client: &str) -> Result<TotpConfirmed, ApiError> {
    let code = code.trim();
    if code.len() != totp::DIGITS as usize || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::field("code", Msg::CodeFormat));
    }
    limit_code_entry(s, &user.uid, client).await?;
    let setup =
        s.store.get_totp_setup(&user.uid).await?.filter(|st| st.expires_at > now()).ok_or_else(|| ApiError::bad(Msg::TotpSetupExpired))?;
    if setup.attempts >= totp::SETUP_MAX_ATTEMPTS {
        return Err(ApiError::bad(Msg::TotpSetupAttemptsExceeded));
    }
    let secret = totp::from_base32(&setup.secret).ok_or_else(|| ApiError::internal("stored TOTP secret is not base32"))?;
    let TotpCheck::Accepted(step) = totp::check(&secret, code, now() as u64, None) else {
        return Err(if s.store.count_wrong_setup_code(&user.uid).await? {
            ApiError::field("code", Msg::CodeNotCorrect)
        } else {
            ApiError::bad(Msg::TotpSetupAttemptsExceeded)
        });
    };
    let recovery_codes = totp::new_recovery_codes();
    let authenticator = TotpAuthenticator {
        user_uid: user.uid.clone(),
        secret: setup.secret,
        // The confirming code is spent: it cannot also sign in.
        last_step: Some(step),
        recovery_hashes: recovery_codes
            .iter()
            .filter_map(|c| totp::normalize_recovery_code(c))
            .map(|c| totp::recovery_code_hash(&s.config.jwt_secret, &user.uid, &c))
            .collect(),
        confirmed_at: now(),
    };
    if !s.store.activate_totp(&authenticator).await? {
        return Err(ApiError::bad(Msg::TotpSetupExpired));
    }
    user.two_factor = true;
    user.end_all_sessions();
    s.store.put_user(&user).await?;
    let auth = start_session(s, &user).await?;
    Ok(TotpConfirmed { method: METHOD_TOTP, recovery_codes, auth })
}

/// Which second factor a code proved; spending it is the caller's next step.
pub enum ProvenBy {
    Step(u64),
    RecoveryCode { index: usize, hash: String },
}

/// Checks an app code or a recovery code against the authenticator, without
/// spending it. `Err` carries the refusal key.
pub fn check_factor(server_secret: &str, a: &TotpAuthenticator, input: &str, now: u64) -> Result<ProvenBy, Msg> {
    let input = input.trim();
    if input.len() == totp::DIGITS as usize && input.bytes().all(|b| b.is_ascii_digit()) {
        let secret = totp::from_base32(&a.secret).ok_or(Msg::CodeNotCorrect)?;
        return match totp::check(&secret, input, now, a.last_step) {
            TotpCheck::Accepted(step) => Ok(ProvenBy::Step(step)),
            TotpCheck::AlreadyUsed => Err(Msg::TotpCodeUsed),
            TotpCheck::Wrong => Err(Msg::CodeNotCorrect),
        };
    }
    let normalized = totp::normalize_recovery_code(input).ok_or(Msg::CodeNotCorrect)?;
    let hash = totp::recovery_code_hash(server_secret, &a.user_uid, &normalized);
    a.recovery_hashes.iter().position(|h| *h == hash).map(|index| ProvenBy::RecoveryCode { index, hash }).ok_or(Msg::CodeNotCorrect)
}

/// Spends what [`check_factor`] accepted; `false` if someone else spent it first.
pub async fn spend_factor(s: &Context, uid: &str, proven: &ProvenBy) -> Result<bool, ApiError> {
    match proven {
        ProvenBy::Step(step) => s.store.use_totp_step(uid, *step).await,
        ProvenBy::RecoveryCode { index, hash } => s.store.use_recovery_code(uid, *index, hash).await,
    }
}

/// Whether the input could be an app code or a recovery code at all.
pub fn is_factor_shaped(input: &str) -> bool {
    let input = input.trim();
    (input.len() == totp::DIGITS as usize && input.bytes().all(|b| b.is_ascii_digit())) || totp::normalize_recovery_code(input).is_some()
}

/// `2fa/totp/disable/`: removes the authenticator and turns two-factor off,
/// given the current password or a valid app or recovery code.
pub async fn disable_totp(s: &Context, mut user: User, password: &str, code: &str, client: &str) -> Result<TwoFactorStatus, ApiError> {
    if password.is_empty() && code.trim().is_empty() {
        let fields: FieldErrors = [("password", Msg::PasswordOrCodeRequired), ("code", Msg::PasswordOrCodeRequired)].into_iter().collect();
        return Err(ApiError::validation(fields));
    }
    limit_code_entry(s, &user.uid, client).await?;
    let Some(a) = active_totp(s, &user).await? else {
        return Err(ApiError::bad(Msg::TotpNotEnabled));
    };
    if !code.trim().is_empty() {
        let proven = check_factor(&s.config.jwt_secret, &a, code, now() as u64).map_err(|key| ApiError::field("code", key))?;
        if !spend_factor(s, &user.uid, &proven).await? {
            return Err(ApiError::field("code", Msg::TotpCodeUsed));
        }
    } else if !current_password_matches(s, &user, password).await? {
        return Err(ApiError::field("password", Msg::CurrentPasswordWrong));
    }
    s.store.delete_totp(&user.uid).await?;
    user.two_factor = false;
    s.store.put_user(&user).await?;
    Ok(TwoFactorStatus { enabled: false, method: METHOD_EMAIL, recovery_codes_left: 0 })
}

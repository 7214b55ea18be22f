//! Signing in and staying signed in: password check, the second factor
//! (e-mailed code or authenticator app), token refresh with rotation, logout, and ending all sessions.
//! Handlers in the identity function call these; the rules are here once.

use chrono::Utc;
use serde::Serialize;
use utoipa::ToSchema;

use super::two_factor as two_factor_settings;
use super::{complete_sign_in, count_failed_sign_in, customer_of, inactive_reason, limit_sign_in_code_entry, password_matches};
use crate::auth::{Claims, TokenKind, TokenPair, UserClaims};
use crate::domain::audit::{AuditAction, AuditEvent};
use crate::domain::totp::TotpAuthenticator;
use crate::domain::two_factor::{self, Challenge, CodeCheck};
use crate::domain::{normalize_email, sign_in, User};
use crate::error::{ApiError, FieldErrors, Msg};
use crate::services::Context;
use crate::store::rate_limit::{self};
use crate::store::refresh::Spend;

/// What `token/` answers: the tokens, or the second step when two-factor is on.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum LoginOutcome {
    Tokens(TokenPair),
    TwoFactor(TwoFactorPending),
}

#[derive(Serialize, ToSchema)]
pub struct TwoFactorPending {
    pub two_factor_required: bool,
    /// Short-lived proof of the password step, sent back with the code.
    pub two_factor_token: String,
    /// `email`: the code was mailed; `totp`: enter the authenticator app's
    /// code (or a recovery code), nothing was mailed.
    pub method: String,
}

fn now() -> i64 {
    Utc::now().timestamp()
}

/// [`login_from_device`] without a device token.
pub async fn login(s: &Context, email: &str, password: String, client: &str) -> Result<LoginOutcome, ApiError> {
    login_from_device(s, email, password, client, None).await
}

/// The password step of a sign-in, throttled as `domain::sign_in` says:
/// the per-address limit first (it is about no account, so refusing at once
/// tells nothing), then this address's (or this device's) counter on the
/// account; a try they refuse still looks the user up and checks the
/// password, so a refusal takes as long as a wrong password, and its answer
/// never depends on the password. A current device token of this account
/// (see [`super::complete_sign_in`]) counts its failures on its own.
pub async fn login_from_device(
    s: &Context,
    email: &str,
    password: String,
    client: &str,
    device_token: Option<&str>,
) -> Result<LoginOutcome, ApiError> {
    let email = normalize_email(email);
    // An address longer than any account's is no account: it signs in as an
    // unknown address would (same answer, same time), counted under one
    // placeholder instead of becoming a table key of any size.
    let email = if email.chars().count() > crate::domain::text::EMAIL_MAX { String::from("(too long)") } else { email };
    let client: String = client.chars().take(64).collect();
    let client = client.as_str();
    let t = now();
    if s.store.rate_exceeded(rate_limit::LOGIN_PER_ADDRESS, client, t).await? {
        crate::telemetry::sign_in_throttled();
        return Err(ApiError::TooManyRequests);
    }
    let user = s.store.find_user_by_email(&email).await?;
    // Only a device token of this account under its current token version:
    // one issued before a password change no longer counts apart.
    let device = device_token
        .and_then(|d| s.jwt.verify(d.trim(), TokenKind::Device).ok())
        .filter(|c| user.as_ref().is_some_and(|u| u.uid == c.sub && u.token_version == c.ver))
        .map(|c| c.jti);
    let pair_key = format!("{email}|{client}");
    // Both counters are read whatever the case, so every try costs the same.
    let ((pair, pair_last), (device_failures, device_last)) = tokio::try_join!(
        s.store.failures(rate_limit::LOGIN_PER_PAIR, &pair_key, t),
        s.store.failures(rate_limit::LOGIN_PER_DEVICE, device.as_deref().unwrap_or("-"), t),
    )?;
    let counters = sign_in::Counters {
        address: 0,
        pair: sign_in::Failures { count: pair, last: pair_last },
        device: device.as_ref().map(|_| sign_in::Failures { count: device_failures, last: device_last }),
    };
    let gate = sign_in::gate(&counters, t);
    // Unknown e-mail and wrong password answer alike (and take as long), so
    // the form does not reveal who has an account.
    let matches = password_matches(password, user.as_ref().map(|u| u.password_hash.clone())).await?;
    if let Err(refusal) = gate {
        tracing::warn!(refusal = ?refusal, "sign-in refused before its password counted");
        crate::telemetry::sign_in_throttled();
        count_failed_sign_in(s, &[(rate_limit::LOGIN_PER_ADDRESS, client)], t).await?;
        if let Some(u) = &user {
            let event = AuditEvent::by(u, AuditAction::SignInFailed).customer(customer_of(u)).detail("too_many_attempts");
            crate::services::audit::record(s, event).await;
        }
        return Err(ApiError::TooManyRequests);
    }
    if !matches {
        let own = match &device {
            Some(jti) => (rate_limit::LOGIN_PER_DEVICE, jti.as_str()),
            None => (rate_limit::LOGIN_PER_PAIR, pair_key.as_str()),
        };
        crate::telemetry::sign_in_refused();
        count_failed_sign_in(s, &[(rate_limit::LOGIN_PER_ADDRESS, client), own], t).await?;
        // The account tried, when there is one (never the address typed:
        // an unknown one is nobody's data).
        let event = match &user {
            Some(u) => AuditEvent::by(u, AuditAction::SignInFailed).customer(customer_of(u)),
            None => AuditEvent::anonymous(AuditAction::SignInFailed),
        };
        crate::services::audit::record(s, event.detail("wrong_password")).await;
        return Err(ApiError::InvalidCredentials);
    }
    let user = user.ok_or(ApiError::InvalidCredentials)?;
    if !user.active {
        // Pending customers (awaiting approval or activation) and deactivated
        // accounts get different, translated answers.
        return Err(ApiError::bad(inactive_reason(s, &user).await?));
    }
    if user.two_factor {
        if two_factor_settings::active_totp(s, &user).await?.is_some() {
            return Ok(LoginOutcome::TwoFactor(app_challenge(s, &user).await?));
        }
        limit_code_mail(s, &user, client, device.is_some()).await?;
        return Ok(LoginOutcome::TwoFactor(send_code(s, &user).await?));
    }
    Ok(LoginOutcome::Tokens(complete_sign_in(s, &user).await?))
}

/// Counts one sign-in code mail to `user` on its own budget (not shared
/// with recovery or invitation mails, which anybody can ask for): per
/// account and address, and per account for browsers without its device token.
async fn limit_code_mail(s: &Context, user: &User, client: &str, known_device: bool) -> Result<(), ApiError> {
    let t = now();
    let client: String = client.chars().take(64).collect();
    s.store.rate_limit(rate_limit::CODE_MAIL_PER_PAIR, &format!("{}|{client}", user.uid), t).await?;
    if !known_device {
        s.store.rate_limit(rate_limit::CODE_MAIL_PER_ACCOUNT, &user.uid, t).await?;
    }
    Ok(())
}

/// With an authenticator app nothing is sent: the challenge only carries the
/// expiry, the single use and the count of wrong tries (no code hash).
async fn app_challenge(s: &Context, user: &User) -> Result<TwoFactorPending, ApiError> {
    let t = now();
    let (token, claims) = s.jwt.issue_with(&user.uid, TokenKind::TwoFactor, t, user.token_version, None)?;
    let challenge = Challenge {
        id: claims.jti,
        user_uid: user.uid.clone(),
        code_hash: String::new(),
        expires_at: t + two_factor::CODE_TTL_SECS,
        attempts: 0,
        used: false,
    };
    s.store.save_challenge(&challenge).await?;
    Ok(TwoFactorPending { two_factor_required: true, two_factor_token: token, method: two_factor_settings::METHOD_TOTP.into() })
}

/// Creates a challenge, mails its code and returns the token that names it.
async fn send_code(s: &Context, user: &User) -> Result<TwoFactorPending, ApiError> {
    let t = now();
    let (token, claims) = s.jwt.issue_with(&user.uid, TokenKind::TwoFactor, t, user.token_version, None)?;
    let code = two_factor::new_code();
    let challenge = Challenge {
        code_hash: two_factor::code_hash(&s.config.jwt_secret, &claims.jti, &code),
        id: claims.jti,
        user_uid: user.uid.clone(),
        expires_at: t + two_factor::CODE_TTL_SECS,
        attempts: 0,
        used: false,
    };
    s.store.save_challenge(&challenge).await?;
    mail_code(s, user, &code).await?;
    Ok(TwoFactorPending { two_factor_required: true, two_factor_token: token, method: "email".into() })
}

async fn mail_code(s: &Context, user: &User, code: &str) -> Result<(), ApiError> {
    let body = format!(
        "Din inloggningskod är: {code}\nKoden gäller i 10 minuter och kan bara användas en gång.\n\n\
         Your sign-in code is: {code}\nThe code is valid for 10 minutes and can be used once.\n"
    );
    s.mail.send(&user.email, "Din inloggningskod / Your sign-in code", &body).await.map_err(|e| {
        tracing::warn!(error = %crate::telemetry::redact(&e.to_string()), "sending a two-factor code failed");
        ApiError::bad(Msg::CouldNotSendCode)
    })
}

/// After the last wrong try of a mailed code: the code is dead, and a new
/// one (same challenge, so the same token) goes to the owner's inbox, if the
/// code mails' budget allows. `code_replaced` when it went, else
/// `code_attempts_exceeded` (a new sign-in or a resend is needed).
async fn replace_code(s: &Context, user: &User, challenge: &Challenge, client: &str) -> ApiError {
    let replaced = async {
        limit_code_mail(s, user, client, false).await?;
        let code = two_factor::new_code();
        let hash = two_factor::code_hash(&s.config.jwt_secret, &challenge.id, &code);
        if !s.store.replace_code(&challenge.id, &hash, now() + two_factor::CODE_TTL_SECS).await? {
            // Another wrong try replaced it a moment earlier.
            return Ok::<_, ApiError>(true);
        }
        mail_code(s, user, &code).await.map(|_| true)
    };
    match replaced.await {
        Ok(true) => ApiError::bad(Msg::CodeReplaced),
        _ => ApiError::bad(Msg::CodeAttemptsExceeded),
    }
}

/// The user behind a two-factor token, still active and on the same token
/// version. An expired token has its own key: only a new login helps (a
/// new code would not).
async fn two_factor_user(s: &Context, token: &str) -> Result<(User, String), ApiError> {
    let claims = s.jwt.verify(token.trim(), TokenKind::TwoFactor).map_err(|e| match e {
        ApiError::TokenExpired => ApiError::bad(Msg::TwoFactorSessionExpired),
        _ => ApiError::NotAuthenticated,
    })?;
    let user = s.store.get_user(&claims.sub).await?.ok_or(ApiError::NotAuthenticated)?;
    if !user.active || user.token_version != claims.ver {
        return Err(ApiError::NotAuthenticated);
    }
    Ok((user, claims.jti))
}

pub async fn verify_code(s: &Context, token: &str, code: &str, client: &str) -> Result<TokenPair, ApiError> {
    let (user, challenge_id) = two_factor_user(s, token).await?;
    let code = code.trim();
    if let Some(authenticator) = two_factor_settings::active_totp(s, &user).await? {
        return verify_app_code(s, user, &challenge_id, &authenticator, code, client).await;
    }
    if !two_factor::is_code_shaped(code) {
        return Err(ApiError::BadRequest { message: Msg::ValidationFailed, fields: FieldErrors::of("code", Msg::CodeFormat) });
    }
    limit_sign_in_code_entry(s, client).await?;
    let challenge = s.store.get_challenge(&challenge_id).await?.ok_or_else(|| ApiError::bad(Msg::CodeExpired))?;
    let right = two_factor::code_matches(&s.config.jwt_secret, &challenge.id, code, &challenge.code_hash);
    match challenge.check(now(), right) {
        CodeCheck::Accepted => {
            if !s.store.spend_challenge(&challenge.id).await? {
                return Err(ApiError::bad(Msg::CodeExpired));
            }
            complete_sign_in(s, &user).await
        }
        // Wrong codes end the code, not the owner's sign-in: the last wrong
        // try has a new code mailed (see `replace_code`).
        CodeCheck::Wrong => {
            crate::telemetry::sign_in_refused();
            let counted = s.store.count_wrong_code(&challenge.id).await?;
            if counted && challenge.attempts + 1 < two_factor::MAX_ATTEMPTS {
                Err(ApiError::bad(Msg::CodeNotCorrect))
            } else {
                Err(replace_code(s, &user, &challenge, client).await)
            }
        }
        CodeCheck::TooManyAttempts => Err(replace_code(s, &user, &challenge, client).await),
        refused => Err(ApiError::bad(Challenge::error_key(&refused).unwrap_or(Msg::CodeExpired))),
    }
}

/// The second step with an authenticator app: its current code or one of the
/// recovery codes, each accepted once; at most 5 wrong tries per challenge,
/// then only a new login helps (`totp_attempts_exceeded`: there is no resend).
async fn verify_app_code(
    s: &Context,
    user: User,
    challenge_id: &str,
    authenticator: &TotpAuthenticator,
    code: &str,
    client: &str,
) -> Result<TokenPair, ApiError> {
    if !two_factor_settings::is_factor_shaped(code) {
        return Err(ApiError::BadRequest { message: Msg::ValidationFailed, fields: FieldErrors::of("code", Msg::TotpCodeFormat) });
    }
    limit_sign_in_code_entry(s, client).await?;
    let expired = || ApiError::bad(Msg::TwoFactorSessionExpired);
    let challenge = s.store.get_challenge(challenge_id).await?.ok_or_else(expired)?;
    let checked = two_factor_settings::check_factor(&s.config.jwt_secret, authenticator, code, now() as u64);
    match challenge.check(now(), checked.is_ok()) {
        CodeCheck::Accepted => {
            if !s.store.spend_challenge(&challenge.id).await? {
                return Err(expired());
            }
            let proven = checked.map_err(ApiError::bad)?;
            if !two_factor_settings::spend_factor(s, &user.uid, &proven).await? {
                // Another sign-in spent the same code a moment earlier.
                return Err(ApiError::bad(Msg::TotpCodeUsed));
            }
            complete_sign_in(s, &user).await
        }
        CodeCheck::Wrong => {
            crate::telemetry::sign_in_refused();
            let key = checked.err().unwrap_or(Msg::CodeNotCorrect);
            if s.store.count_wrong_code(&challenge.id).await? {
                Err(ApiError::bad(key))
            } else {
                Err(ApiError::bad(Msg::TotpAttemptsExceeded))
            }
        }
        CodeCheck::Expired => Err(expired()),
        CodeCheck::TooManyAttempts => Err(ApiError::bad(Msg::TotpAttemptsExceeded)),
    }
}

/// A new code (and token) for a pending two-factor sign-in. Nothing to send
/// for an authenticator app.
pub async fn resend_code(s: &Context, token: &str, client: &str) -> Result<TwoFactorPending, ApiError> {
    let (user, _) = two_factor_user(s, token).await?;
    if two_factor_settings::active_totp(s, &user).await?.is_some() {
        return Err(ApiError::bad(Msg::TotpNoResend));
    }
    s.store.rate_limit(rate_limit::MAIL_PER_ADDRESS, &client.chars().take(64).collect::<String>(), now()).await?;
    limit_code_mail(s, &user, client, false).await?;
    send_code(s, &user).await
}

/// The user behind an access token: signature, expiry and audience checked,
/// then [`confirm`].
pub async fn authenticate(s: &Context, access_token: &str) -> Result<User, ApiError> {
    let claims = s.jwt.verify(access_token.trim(), TokenKind::Access)?;
    confirm(s, &claims).await
}

/// The sign-in check of verified access-token claims: the user and the
/// token's sign-in read on every call (one consistent read), so a
/// deactivated account, a bumped token version, a logout or a replayed
/// refresh token (each revokes the sign-in's family) stops it at once.
/// A token that carries its user ([`UserClaims`]) must still grant what the
/// stored user may: reads start from what it says, so a changed role,
/// customer or permission is refused (401: the web renews the token, which
/// reads the user afresh, and asks again). Access tokens from before they
/// named their sign-in (`fam` absent) or carried their user expire within
/// 15 minutes. Answers the stored user.
pub async fn confirm(s: &Context, claims: &Claims) -> Result<User, ApiError> {
    let (user, live) = s.store.session_of(&claims.sub, claims.fam.as_deref()).await?;
    let user = user.ok_or(ApiError::NotAuthenticated)?;
    if !user.active || claims.ver != user.token_version || !live {
        return Err(ApiError::NotAuthenticated);
    }
    if claims.usr.as_deref().is_some_and(|said| !said.same_rights(&UserClaims::from(&user))) {
        tracing::info!(user_id = %user.uid, "access token grants more or other than its user now has: refused until renewed");
        return Err(ApiError::NotAuthenticated);
    }
    Ok(user)
}

/// Rotates a refresh token. A spent token presented again revokes its family.
pub async fn refresh(s: &Context, refresh_token: &str) -> Result<TokenPair, ApiError> {
    let claims = s.jwt.verify(refresh_token.trim(), TokenKind::Refresh)?;
    match s.store.spend_refresh_token(&claims).await? {
        Spend::Spent => {}
        Spend::Reused => {
            tracing::warn!(user_id = %claims.sub, "refresh token reused: family revoked");
            return Err(ApiError::NotAuthenticated);
        }
        Spend::Refused => return Err(ApiError::NotAuthenticated),
    }
    // Consistent: the new access token carries the user as it is now (a
    // token renewed because its user changed must describe the change).
    let user = s.store.get_user_latest(&claims.sub).await?.ok_or(ApiError::NotAuthenticated)?;
    if !user.active || user.token_version != claims.ver {
        return Err(ApiError::NotAuthenticated);
    }
    let (pair, next) = s.jwt.issue_pair(&user, claims.fam.clone())?;
    s.store.save_refresh_token(&next).await?;
    Ok(pair)
}

/// Ends the sign-in the refresh token belongs to. Invalid tokens are ignored:
/// logging out always succeeds for the user.
pub async fn logout(s: &Context, refresh_token: &str) -> Result<(), ApiError> {
    if let Ok(claims) = s.jwt.verify(refresh_token.trim(), TokenKind::Refresh) {
        if let Some(fam) = &claims.fam {
            s.store.revoke_family(fam).await?;
        }
    }
    Ok(())
}

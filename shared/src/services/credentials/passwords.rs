//! Changing and recovering passwords.

use crate::error::Msg;
use chrono::Utc;

use super::{current_password_matches, hash_password, start_session};
use crate::auth::TokenPair;
use crate::domain::{normalize_email, password_policy, two_factor, User};
use crate::error::ApiError;
use crate::services::outbox::{self, Delivery, OnRefusal};
use crate::services::Context;
use crate::store::rate_limit;
use crate::store::tx::Tx;

/// A recovery link is valid this long.
pub const RECOVERY_TTL_SECS: i64 = 60 * 60;

/// Sets a new password and ends every other session.
async fn set_password(s: &Context, user: &mut User, new_password: &str) -> Result<(), ApiError> {
    user.password_hash = hash_password(new_password).await?;
    user.end_all_sessions();
    s.store.put_user(user).await
}

/// Changes the password (the current one must be given); other sessions end,
/// this one continues with the returned tokens.
pub async fn change(s: &Context, mut user: User, old: String, new: &str, confirm: &str) -> Result<TokenPair, ApiError> {
    let mut errors = password_policy::check(new, Some(confirm), "new_password", "confirm_password", &user.personal_words());
    if !current_password_matches(s, &user, &old).await? {
        errors.add("old_password", Msg::CurrentPasswordWrong);
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    set_password(s, &mut user, new).await?;
    start_session(s, &user).await
}

/// Mails a recovery link if the address has an active account. The answer is
/// the same either way, so it cannot be used to find accounts.
pub async fn request_recovery(s: &Context, email: &str, client: &str) -> Result<(), ApiError> {
    let email = normalize_email(email);
    let now = Utc::now().timestamp();
    s.store.rate_limit(rate_limit::MAIL_PER_ADDRESS, client, now).await?;
    s.store.rate_limit(rate_limit::MAIL_PER_ACCOUNT, &email, now).await?;
    s.store.rate_limit(rate_limit::MAIL_PER_RECIPIENT, &email, now).await?;
    let Some(user) = s.store.find_user_by_email(&email).await?.filter(|u| u.active) else { return Ok(()) };
    let token = two_factor::new_link_token();
    s.store.save_recovery_link(&two_factor::link_digest(&token), &user.uid, user.token_version, now + RECOVERY_TTL_SECS).await?;
    let link = format!("{}/recovery/account?token={token}", s.config.web_origin.trim_end_matches('/'));
    let body = format!(
        "Hej {name},\n\nÖppna länken för att välja ett nytt lösenord. Den gäller i en timme och kan användas en gång:\n{link}\n\n\
         Hello {name},\n\nOpen the link to choose a new password. It is valid for one hour and can be used once:\n{link}\n\n\
         Om du inte bad om detta kan du bortse från mejlet. / If you did not ask for this, ignore this mail.\n",
        name = user.first_name
    );
    // Answered alike whether SES took it or not: an error here would tell
    // the caller that the address has an account. The refusal is logged
    // (without the address) and counted; the user asks again.
    if let Err(e) = s.mail.send(&user.email, "Återställ ditt lösenord / Reset your password", &body).await {
        tracing::warn!(error = %crate::telemetry::redact(&e.to_string()), "recovery mail refused");
    }
    Ok(())
}

/// Sets a new password through a recovery link (single use, one hour). The
/// reset ends every session and every other outstanding link of the user:
/// links carry the token version they were issued under, and the reset
/// bumps it.
pub async fn confirm_recovery(s: &Context, token: &str, new: &str, confirm: &str) -> Result<(), ApiError> {
    let errors = password_policy::check(new, Some(confirm), "password", "confirm_password", &[]);
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let digest = two_factor::link_digest(token.trim());
    // The owner's own data is checked before the link is spent: a refused
    // password leaves the link usable for the next try.
    if let Some(owner) = s.store.recovery_link_owner(&digest, Utc::now().timestamp()).await? {
        if let Some(user) = s.store.get_user(&owner).await? {
            password_policy::check(new, None, "password", "confirm_password", &user.personal_words()).check()?;
        }
    }
    let (uid, version) =
        s.store.spend_recovery_link(&digest, Utc::now().timestamp()).await?.ok_or_else(|| ApiError::bad(Msg::LinkInvalid))?;
    let mut user = s.store.get_user(&uid).await?.ok_or_else(|| ApiError::bad(Msg::LinkInvalid))?;
    if !two_factor::link_still_valid(version, user.token_version) {
        return Err(ApiError::bad(Msg::LinkInvalid));
    }
    set_password(s, &mut user, new).await
}

/// A welcome link is valid this long (staff create the account; the person
/// may not read mail the same day).
pub const INVITATION_TTL_SECS: i64 = 72 * 60 * 60;

/// A new account's set-password link: stored with the account (see
/// [`add_invitation`]), mailed once the account is written.
pub struct Invitation {
    /// Its mail in the outbox ([`crate::store::outbox`]).
    outbox: String,
}

/// Adds a single-use link to choose a password (the confirm-password screen
/// at /recovery/account, valid three days) for the new account `user` to
/// `tx`, the transaction that creates the account; mail it with
/// [`mail_invitation`] once that transaction committed. Each link stays
/// single use and expires on its own; a newer one replaces nothing.
///
/// Its mail is an outbox item of the same transaction: no account without
/// its mail, no mail without its account. A stop before [`mail_invitation`]
/// leaves it to the scheduled job's sweep ([`outbox::send_unsent`]).
pub fn add_invitation(s: &Context, tx: &mut Tx, user: &User) -> Result<Invitation, ApiError> {
    let token = two_factor::new_link_token();
    let expires_at = Utc::now().timestamp() + INVITATION_TTL_SECS;
    s.store.add_recovery_link(tx, &two_factor::link_digest(&token), &user.uid, user.token_version, expires_at)?;
    let outbox = s.store.add_outbox_mail(tx, crate::store::outbox::INVITATION, &user.uid, &token, Utc::now(), expires_at)?;
    Ok(Invitation { outbox })
}

/// Mails the invitation [`add_invitation`] stored (the step after the
/// commit), then marks it sent. The account is stored by then: a mail SES
/// refuses is left to the sweep and the create still answers its success
/// (`Ok(NotSent)`); only a stop (the test's fault point) fails here.
pub async fn mail_invitation(s: &Context, user: &User, invitation: &Invitation) -> Result<Delivery, ApiError> {
    s.faults.check("outbox.before_send")?;
    Ok(outbox::send_after_commit(s, &invitation.outbox, Some(user), OnRefusal::Retry).await)
}

/// Stores and mails a new invitation for an existing account (its own
/// write); at most a few per recipient in a window (`too_many_requests`).
///
/// Its only effect is the mail, so a refusal is told: 400
/// `could_not_send_mail` (as a sign-in code's `could_not_send_code`), and
/// the stored mail is withdrawn rather than left to the sweep, so a link
/// the caller was told was not sent does not arrive later beside the one
/// they ask for again.
pub async fn send_invitation(s: &Context, user: &User) -> Result<(), ApiError> {
    super::limit_mail_to(s, &user.email).await?;
    let mut tx = s.store.tx();
    let invitation = add_invitation(s, &mut tx, user)?;
    s.store.commit(tx).await?;
    s.faults.check("outbox.before_send")?;
    match outbox::send_after_commit(s, &invitation.outbox, Some(user), OnRefusal::Withdraw).await {
        Delivery::Sent => Ok(()),
        Delivery::NotSent => Err(ApiError::bad(Msg::CouldNotSendMail)),
    }
}

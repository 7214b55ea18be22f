//! Account states (spec §4): an admin approves a pending customer, the
//! customer activates the account from the mailed link, and an admin
//! activates or deactivates any non-admin user.

use chrono::Utc;

use super::base::{load, try_saved};
use crate::domain::customer::{split_activation_token, CustomerProfile, CustomerState, ACTIVATION_TTL_SECS};
use crate::domain::policy::{self, Action};
use crate::domain::{password_policy, two_factor, Role, User};
use crate::error::{ApiError, Msg};
use crate::services::credentials::hash_password;
use crate::services::retry::{self, Attempt};
use crate::services::Context;
use crate::store::tx::Tx;

/// An activation link stored in a transaction, mailed once it committed.
struct ActivationLink {
    token: String,
}

/// Adds a fresh activation link (72 h, single use) to `tx`; it replaces any
/// earlier one, which then stops working.
fn add_activation_link(ctx: &Context, tx: &mut Tx, user: &User) -> Result<ActivationLink, ApiError> {
    let token = format!("{}.{}", user.uid, two_factor::new_link_token());
    let expires = Utc::now().timestamp() + ACTIVATION_TTL_SECS;
    ctx.store.add_activation_link(tx, &user.uid, &two_factor::link_digest(&token), expires)?;
    Ok(ActivationLink { token })
}

async fn mail_activation_link(ctx: &Context, user: &User, link: &ActivationLink) -> Result<(), ApiError> {
    let link = format!("{}/approve/customer?token={}", ctx.config.web_origin.trim_end_matches('/'), link.token);
    let body = format!(
        "Hej {name},\n\nDitt konto har godkänts. Öppna länken för att bekräfta ditt lösenord och aktivera kontot. \
         Länken gäller i 72 timmar och kan användas en gång:\n{link}\n\n\
         Hello {name},\n\nYour account has been approved. Open the link to confirm your password and activate the account. \
         The link is valid for 72 hours and can be used once:\n{link}\n",
        name = user.first_name
    );
    ctx.mail.send(&user.email, "Aktivera ditt konto / Activate your account", &body).await.inspect_err(|e| {
        tracing::warn!(error = %crate::telemetry::redact(&e.to_string()), "activation mail refused");
    })
}

/// Admin approves a pending customer: the approval, the activation link and
/// the customer's index entries in one transaction, then the mail.
pub async fn approve(ctx: &Context, caller: &User, uid: &str) -> Result<CustomerProfile, ApiError> {
    policy::require(caller, Action::AdministerAccounts)?;
    // Every approval mails a (new) activation link: counted per recipient
    // like its resend, before anything is stored.
    if let Some(user) = ctx.store.get_user_latest(uid).await? {
        crate::services::credentials::limit_mail_to(ctx, &user.email).await?;
    }
    let (user, profile, link) = retry::until_done(|_| async {
        let (user, mut profile) = load(ctx, uid).await?;
        if profile.state != CustomerState::Pending {
            return Err(ApiError::bad(Msg::CustomerNotPending));
        }
        let mut tx = ctx.store.tx();
        let link = add_activation_link(ctx, &mut tx, &user)?;
        if profile.approved_at.is_some() {
            // Approved before: only a new link.
            let written = ctx.store.commit(tx).await?;
            return Ok(if written { Attempt::Done((user, profile, link)) } else { Attempt::Conflict });
        }
        profile.approved_at = Some(Utc::now());
        ctx.store.add_profile_put(&mut tx, &profile)?;
        let saved = profile.clone();
        try_saved(ctx, tx, &saved, (user, profile, link)).await
    })
    .await?;
    // The approval is stored: a refused mail (logged, counted) does not
    // undo it, and admin sends the link again (resend activation).
    let _ = mail_activation_link(ctx, &user, &link).await;
    Ok(profile)
}

/// Resends the activation mail of an approved, not yet activated customer
/// (admin); the earlier link stops working.
pub async fn resend_activation(ctx: &Context, caller: &User, uid: &str) -> Result<(), ApiError> {
    policy::require(caller, Action::AdministerAccounts)?;
    let (user, profile) = load(ctx, uid).await?;
    if profile.state != CustomerState::Pending {
        return Err(ApiError::bad(Msg::CustomerNotPending));
    }
    if profile.approved_at.is_none() {
        return Err(ApiError::bad(Msg::CustomerNotApproved));
    }
    crate::services::credentials::limit_mail_to(ctx, &user.email).await?;
    let mut tx = ctx.store.tx();
    let link = add_activation_link(ctx, &mut tx, &user)?;
    ctx.store.commit(tx).await?;
    // The mail is this call's only effect: a refusal is told (as a sign-in
    // code's `could_not_send_code`), and admin may try again.
    mail_activation_link(ctx, &user, &link).await.map_err(|_| ApiError::bad(Msg::CouldNotSendMail))
}

/// Is this activation link still usable (the web shows the invalid-link screen otherwise)?
pub async fn activation_link_valid(ctx: &Context, token: &str) -> Result<bool, ApiError> {
    let Some((uid, _)) = split_activation_token(token) else { return Ok(false) };
    ctx.store.activation_link_valid(uid, &two_factor::link_digest(token.trim()), Utc::now().timestamp()).await
}

/// The customer opens the link and confirms the password: the link is spent
/// and the account becomes active in one transaction (so a spent link always
/// means an active account).
pub async fn activate_with_link(ctx: &Context, token: &str, new: &str, confirm: &str) -> Result<(), ApiError> {
    password_policy::check(new, Some(confirm), "password", "confirm_password", &[]).check()?;
    let invalid = || ApiError::bad(Msg::LinkInvalid);
    let (uid, _) = split_activation_token(token).ok_or_else(invalid)?;
    let digest = two_factor::link_digest(token.trim());
    // The link is checked before the (deliberately slow) hashing.
    if !ctx.store.activation_link_valid(uid, &digest, Utc::now().timestamp()).await? {
        return Err(invalid());
    }
    if let Some(user) = ctx.store.get_user(uid).await? {
        let personal = user.personal_words();
        password_policy::check(new, None, "password", "confirm_password", &personal).check()?;
    }
    let password_hash = hash_password(new).await?;
    retry::until_done(|_| async {
        let (mut user, mut profile) = load(ctx, uid).await.map_err(|e| if matches!(e, ApiError::UserNotFound) { invalid() } else { e })?;
        if profile.state != CustomerState::Pending || profile.approved_at.is_none() {
            return Err(invalid());
        }
        let now = Utc::now();
        user.password_hash = password_hash.clone();
        user.active = true;
        profile.state = CustomerState::Active;
        profile.activated_at = Some(now);
        let mut tx = ctx.store.tx();
        ctx.store.add_activation_link_spend(&mut tx, uid, &digest, now.timestamp())?;
        ctx.store.add_user_put(&mut tx, &user)?;
        ctx.store.add_profile_put(&mut tx, &profile)?;
        match try_saved(ctx, tx, &profile, ()).await? {
            Attempt::Conflict if !ctx.store.activation_link_valid(uid, &digest, now.timestamp()).await? => Err(invalid()),
            attempt => Ok(attempt),
        }
    })
    .await
}

/// Admin activates a user (any but admin; a pending customer is approved
/// instead).
pub async fn activate_user(ctx: &Context, caller: &User, uid: &str) -> Result<User, ApiError> {
    policy::require(caller, Action::AdministerAccounts)?;
    set_user_active(ctx, uid, true).await
}

/// Admin deactivates a user (any but admin); their sessions end at once.
pub async fn deactivate_user(ctx: &Context, caller: &User, uid: &str) -> Result<User, ApiError> {
    policy::require(caller, Action::AdministerAccounts)?;
    set_user_active(ctx, uid, false).await
}

/// Activates or deactivates any non-admin user: the admin's action, asked
/// through [`activate_user`] / [`deactivate_user`]. Deactivation ends every
/// session at once (the token version moves on, so access and refresh tokens
/// stop working). A customer's profile state follows in the same transaction,
/// with its index entries; a pending customer is approved, not activated.
pub async fn set_user_active(ctx: &Context, uid: &str, active: bool) -> Result<User, ApiError> {
    let user = retry::until_done(|_| async {
        let mut user = ctx.store.get_user_latest(uid).await?.ok_or(ApiError::UserNotFound)?;
        if policy::is(&user, Role::Admin) {
            return Err(ApiError::bad(Msg::CannotChangeAdmin));
        }
        let mut profile = match policy::is(&user, Role::Customer) {
            true => ctx.store.get_customer_profile_latest(uid).await?,
            false => None,
        };
        if let Some(p) = profile.as_mut() {
            if active && p.state == CustomerState::Pending {
                return Err(ApiError::bad(Msg::CustomerPending));
            }
            p.state = if active { CustomerState::Active } else { CustomerState::Inactive };
        }
        if !active && user.active {
            user.end_all_sessions();
        }
        user.active = active;
        let mut tx = ctx.store.tx();
        ctx.store.add_user_put(&mut tx, &user)?;
        match profile {
            Some(p) => {
                ctx.store.add_profile_put(&mut tx, &p)?;
                try_saved(ctx, tx, &p, user).await
            }
            None => Ok(if ctx.store.commit(tx).await? { Attempt::Done(user) } else { Attempt::Conflict }),
        }
    })
    .await?;
    if policy::is_staff_person(&user) {
        // The staff lists show the state from their own item; the user item
        // (written first) is what sign-in and every call check.
        ctx.store.set_staff_active(uid, active).await?;
    }
    Ok(user)
}

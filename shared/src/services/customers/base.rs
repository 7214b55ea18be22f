//! What the customer use cases share: reading a customer before a change,
//! committing a change with the effects of [`Event::CustomerSaved`], and
//! reading back why a write did not commit.

use crate::domain::customer::CustomerProfile;
use crate::domain::{Role, User};
use crate::error::{ApiError, Msg};
use crate::services::events::{self, Event};
use crate::services::retry::Attempt;
use crate::services::Context;
use crate::store::tx::Tx;

/// Tests arm this ([`crate::services::Faults`]) to fail a customer write after its
/// transaction is built and before it is committed.
pub const BEFORE_COMMIT: &str = "customers.before_commit";

/// Adds the effects of saving `profile` to `tx` and commits it: `Ok(true)`
/// when everything was written, `Ok(false)` when a condition failed and
/// nothing was (the caller reads again).
pub(super) async fn commit_saved(ctx: &Context, tx: Tx, profile: &CustomerProfile) -> Result<bool, ApiError> {
    commit_saved_with(ctx, tx, profile, false).await
}

/// [`commit_saved`], for a sign-up also with [`Event::CustomerRegistered`]
/// (admins are told a customer awaits approval).
pub(super) async fn commit_saved_with(ctx: &Context, mut tx: Tx, profile: &CustomerProfile, registered: bool) -> Result<bool, ApiError> {
    let mut happened = vec![Event::CustomerSaved { profile }];
    if registered {
        happened.push(Event::CustomerRegistered { profile });
    }
    let queued = events::record(ctx, &mut tx, &happened).await?;
    ctx.faults.check(BEFORE_COMMIT)?;
    events::commit(ctx, tx, queued).await
}

/// [`commit_saved`] as one try of [`crate::services::retry::until_done`].
pub(super) async fn try_saved<T>(ctx: &Context, tx: Tx, profile: &CustomerProfile, done: T) -> Result<Attempt<T>, ApiError> {
    Ok(if commit_saved(ctx, tx, profile).await? { Attempt::Done(done) } else { Attempt::Conflict })
}

/// A customer's user and profile, read consistently (a write follows); 406
/// `user_not_found` when `uid` is not a customer.
pub(super) async fn load(ctx: &Context, uid: &str) -> Result<(User, CustomerProfile), ApiError> {
    if uid.contains('#') {
        return Err(ApiError::UserNotFound);
    }
    let user =
        ctx.store.get_user_latest(uid).await?.filter(|u| crate::domain::policy::is(u, Role::Customer)).ok_or(ApiError::UserNotFound)?;
    let profile = ctx.store.get_customer_profile_latest(uid).await?.ok_or(ApiError::UserNotFound)?;
    Ok((user, profile))
}

/// The uniqueness refusals a customer form can meet, checked before the
/// transaction (friendlier answers) and again after a failed one (why it
/// failed): the address or the registration number held by another account
/// than `own` (the customer being changed, if any).
pub(super) async fn taken(
    ctx: &Context,
    email: Option<&str>,
    regno: Option<&str>,
    own: Option<&str>,
) -> Result<Vec<(&'static str, Msg)>, ApiError> {
    let (email_owner, regno_owner) = tokio::try_join!(
        async {
            match email {
                Some(e) => ctx.store.email_owner(e).await,
                None => Ok(None),
            }
        },
        async {
            match regno {
                Some(n) => ctx.store.registration_number_owner(n).await,
                None => Ok(None),
            }
        }
    )?;
    let mut out = Vec::new();
    if email_owner.is_some_and(|o| Some(o.as_str()) != own) {
        out.push(("email", Msg::EmailExists));
    }
    if regno_owner.is_some_and(|o| Some(o.as_str()) != own) {
        out.push(("company_registration_number", Msg::RegistrationNumberTaken));
    }
    Ok(out)
}

/// After a customer transaction did not commit: the field another account
/// took meanwhile (a 400 naming it), or a concurrent change of the customer
/// (try again).
pub(super) async fn refused<T>(ctx: &Context, email: &str, regno: Option<&str>, own: Option<&str>) -> Result<Attempt<T>, ApiError> {
    match taken(ctx, Some(email), regno, own).await?.first() {
        Some((field, key)) => Err(ApiError::field(*field, *key)),
        None => Ok(Attempt::Conflict),
    }
}

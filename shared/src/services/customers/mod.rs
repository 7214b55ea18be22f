//! Customers (spec §3, §4, §5), one capability in four use-case groups:
//!
//! - [`registration`]: sign-up and the availability checks of its form;
//! - [`kept`]: admin and sales persons create and update customers;
//! - [`states`]: approval, activation by mailed link, (de)activating users;
//! - [`lists`]: the lists by state, dropdowns, details and entity counts;
//! - [`sectors`]: the business sectors the forms offer.
//!
//! Every write of a customer is one transaction ([`Tx`]) holding the user,
//! its e-mail item, the profile, the registration-number item, the
//! department link, any link the customer is mailed, and the effects of
//! [`Event::CustomerSaved`] (the customer's conflict-index entries): a saved
//! customer is findable by the conflict search the moment the call returns,
//! and a failed write leaves none of it. The index record's version
//! condition makes two concurrent changes of one customer meet in the
//! transaction: the loser reads again and decides again ([`retry`]).

pub mod kept;
pub mod lists;
pub mod registration;
pub mod sectors;
pub mod states;

pub use kept::{create, update};
pub use lists::{account_managers, counts, details, dropdown, list, CustomerDetails, EntityCounts, PersonRef};
pub use registration::{email_available, register, registration_number_available, seed_profile};
pub use states::{activate_user, activate_with_link, activation_link_valid, approve, deactivate_user, resend_activation, set_user_active};

use super::events::{self, Event};
use super::retry::Attempt;
use super::Context;
use crate::domain::customer::CustomerProfile;
use crate::domain::{Role, User};
use crate::error::{ApiError, Msg};
use crate::store::tx::Tx;

/// Tests arm this ([`super::Faults`]) to fail a customer write after its
/// transaction is built and before it is committed.
pub const BEFORE_COMMIT: &str = "customers.before_commit";

/// Adds the effects of saving `profile` to `tx` and commits it: `Ok(true)`
/// when everything was written, `Ok(false)` when a condition failed and
/// nothing was (the caller reads again).
async fn commit_saved(ctx: &Context, mut tx: Tx, profile: &CustomerProfile) -> Result<bool, ApiError> {
    let queued = events::record(ctx, &mut tx, &[Event::CustomerSaved { profile }]).await?;
    ctx.faults.check(BEFORE_COMMIT)?;
    events::commit(ctx, tx, queued).await
}

/// [`commit_saved`] as one try of [`super::retry::until_done`].
async fn try_saved<T>(ctx: &Context, tx: Tx, profile: &CustomerProfile, done: T) -> Result<Attempt<T>, ApiError> {
    Ok(if commit_saved(ctx, tx, profile).await? { Attempt::Done(done) } else { Attempt::Conflict })
}

/// A customer's user and profile, read consistently (a write follows); 406
/// `user_not_found` when `uid` is not a customer.
async fn load(ctx: &Context, uid: &str) -> Result<(User, CustomerProfile), ApiError> {
    if uid.contains('#') {
        return Err(ApiError::UserNotFound);
    }
    let user = ctx.store.get_user_latest(uid).await?.filter(|u| u.role() == Some(Role::Customer)).ok_or(ApiError::UserNotFound)?;
    let profile = ctx.store.get_customer_profile_latest(uid).await?.ok_or(ApiError::UserNotFound)?;
    Ok((user, profile))
}

/// The uniqueness refusals a customer form can meet, checked before the
/// transaction (friendlier answers) and again after a failed one (why it
/// failed): the address or the registration number held by another account
/// than `own` (the customer being changed, if any).
async fn taken(ctx: &Context, email: Option<&str>, regno: Option<&str>, own: Option<&str>) -> Result<Vec<(&'static str, Msg)>, ApiError> {
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
async fn refused<T>(ctx: &Context, email: &str, regno: Option<&str>, own: Option<&str>) -> Result<Attempt<T>, ApiError> {
    match taken(ctx, Some(email), regno, own).await?.first() {
        Some((field, key)) => Err(ApiError::field(*field, *key)),
        None => Ok(Attempt::Conflict),
    }
}

//! Sign-up (spec §5): the form's availability checks as the user types, and
//! the registration itself.

use chrono::Utc;

use super::base::{commit_saved, commit_saved_with, refused, taken};
use crate::domain::customer::{check_registration, is_valid_registration_number, CustomerProfile, CustomerType, Registration, SectorRef};
use crate::domain::user::is_valid_email;
use crate::domain::{normalize_email, Role};
use crate::error::{ApiError, FieldErrors, Msg};
use crate::services::accounts::{self, NewAccount};
use crate::services::retry::{self, Attempt};
use crate::services::Context;

/// Counts one availability check of `client` (429 past the limit).
async fn limit_lookup(ctx: &Context, client: &str) -> Result<(), ApiError> {
    let client: String = client.chars().take(64).collect();
    ctx.store.rate_limit(crate::store::rate_limit::LOOKUP_PER_ADDRESS, &client, Utc::now().timestamp()).await
}

/// `email/check/`: is the address free (case-insensitively)? Invalid → 400.
/// Throttled per client address: the answer tells who has an account.
pub async fn email_available(ctx: &Context, email: &str, client: &str) -> Result<bool, ApiError> {
    limit_lookup(ctx, client).await?;
    if email.trim().is_empty() {
        return Err(ApiError::field("email", Msg::Required));
    }
    if !is_valid_email(email) {
        return Err(ApiError::field("email", Msg::InvalidEmail));
    }
    Ok(ctx.store.email_owner(&normalize_email(email)).await?.is_none())
}

/// `company-registration-number/check/`: format, then availability
/// (throttled per client address like [`email_available`]).
pub async fn registration_number_available(ctx: &Context, number: &str, client: &str) -> Result<bool, ApiError> {
    limit_lookup(ctx, client).await?;
    let number = number.trim();
    if number.is_empty() {
        return Err(ApiError::field("company_registration_number", Msg::Required));
    }
    if !is_valid_registration_number(number) {
        return Err(ApiError::field("company_registration_number", Msg::InvalidRegistrationNumber));
    }
    Ok(ctx.store.registration_number_owner(number).await?.is_none())
}

/// Every rule of the form, with the stored data it needs: the address and
/// number free, the sector known. Returns the looked-up sector.
async fn check(ctx: &Context, r: &Registration) -> Result<Option<SectorRef>, ApiError> {
    let mut errors = check_registration(r);
    let company = r.customer_type == Some(CustomerType::Company);
    // Availability only for well-formed values.
    let email = (!errors.has("email")).then(|| normalize_email(&r.email));
    let regno = (company && !errors.has("company_registration_number")).then(|| r.company_registration_number.trim());
    let sector_id = r.sector.trim();
    let (refusals, sector) = tokio::try_join!(taken(ctx, email.as_deref(), regno, None), async {
        if company && !sector_id.is_empty() {
            ctx.store.get_business_sector(sector_id).await
        } else {
            Ok(None)
        }
    })?;
    for (field, key) in refusals {
        errors.add(field, key);
    }
    if company && !sector_id.is_empty() && sector.is_none() {
        errors.add("sector", Msg::InvalidSector);
    }
    errors.check()?;
    Ok(sector.map(|s| SectorRef { id: s.id, name: s.name }))
}

/// Sign-up: the customer user (inactive, so it cannot log in), its e-mail
/// item, its profile in state pending, for companies the registration-number
/// item, and the customer's conflict-index entries, in one transaction. Two
/// simultaneous sign-ups with one address or one number leave exactly one
/// account; the other is told which field was taken.
pub async fn register(ctx: &Context, r: Registration) -> Result<CustomerProfile, ApiError> {
    let sector = check(ctx, &r).await?;
    let accepted = super::super::legal::versions_to_accept(ctx, r.terms_version, r.privacy_version).await?;
    let user = accounts::new_user(
        &ctx.store,
        NewAccount {
            email: &r.email,
            password: &r.password,
            first_name: r.first_name.trim(),
            last_name: r.last_name.trim(),
            role: Role::Customer,
            user_sub_type: None,
            customer_id: None,
            company_id: None,
            active: false,
        },
    )
    .await?;
    let profile = CustomerProfile::registered(&r, &user, sector, Utc::now());
    retry::until_done(|_| async {
        let mut tx = ctx.store.tx();
        accounts::add_account(&ctx.store, &mut tx, &user)?;
        ctx.store.add_new_profile(&mut tx, &profile)?;
        if let Some(n) = profile.registration_number() {
            ctx.store.add_registration_number(&mut tx, n, &user.uid)?;
        }
        super::super::legal::add_acceptances(ctx, &mut tx, &user.uid, &accepted, profile.terms_accepted_at)?;
        if commit_saved_with(ctx, tx, &profile, true).await? {
            return Ok(Attempt::Done(()));
        }
        refused(ctx, &user.email, profile.registration_number(), None).await
    })
    .await?;
    Ok(profile)
}

/// Gives an existing customer user the profile `profile` (seed data), with
/// its registration number and conflict-index entries, in one transaction.
/// Idempotent: a customer that has a profile keeps it (`Ok(false)`).
pub async fn seed_profile(ctx: &Context, profile: &CustomerProfile) -> Result<bool, ApiError> {
    retry::until_done(|_| async {
        if ctx.store.get_customer_profile_latest(&profile.uid).await?.is_some() {
            return Ok(Attempt::Done(false));
        }
        let mut tx = ctx.store.tx();
        ctx.store.add_new_profile(&mut tx, profile)?;
        if let Some(n) = profile.registration_number() {
            ctx.store.add_registration_number_kept(&mut tx, n, &profile.uid)?;
        }
        if commit_saved(ctx, tx, profile).await? {
            return Ok(Attempt::Done(true));
        }
        match profile.registration_number() {
            Some(n) if ctx.store.registration_number_owner(n).await?.is_some_and(|o| o != profile.uid) => {
                Err(ApiError::validation(FieldErrors::of("company_registration_number", Msg::RegistrationNumberTaken)))
            }
            _ => Ok(Attempt::Conflict),
        }
    })
    .await
}

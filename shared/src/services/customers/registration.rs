//! Sign-up (spec §5): the form's availability checks as the user types, and
//! the registration itself.

use chrono::Utc;
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::base::{commit_saved, commit_saved_with, taken};
use crate::domain::customer::{check_registration, is_valid_registration_number, CustomerProfile, CustomerType, Registration, SectorRef};
use crate::domain::user::is_valid_email;
use crate::domain::{normalize_email, Role};
use crate::error::{ApiError, FieldErrors, Msg};
use crate::services::accounts::{self, NewAccount};
use crate::services::retry::{self, Attempt};
use crate::services::Context;
use crate::store::idempotency::Once;
use crate::store::outbox::{self, Letter};

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

/// Every rule of the form that does not depend on other accounts, and the
/// sector looked up. Whether the address or the number is taken is not
/// told here: [`register`] answers the same either way.
async fn check(ctx: &Context, r: &Registration) -> Result<Option<SectorRef>, ApiError> {
    let mut errors = check_registration(r);
    let company = r.customer_type == Some(CustomerType::Company);
    let sector_id = r.sector.trim();
    let sector = if company && !sector_id.is_empty() { ctx.store.get_business_sector(sector_id).await? } else { None };
    if company && !sector_id.is_empty() && sector.is_none() {
        errors.add("sector", Msg::InvalidSector);
    }
    errors.check()?;
    Ok(sector.map(|s| SectorRef { id: s.id, name: s.name }))
}

/// Sign-ups per client address (a sign-up is also a lookup: its mails tell
/// who has an account).
async fn limit_sign_up(ctx: &Context, client: &str) -> Result<(), ApiError> {
    let client: String = client.chars().take(64).collect();
    ctx.store.rate_limit(crate::store::rate_limit::REGISTRATION_PER_ADDRESS, &client, Utc::now().timestamp()).await
}

/// Why a well-formed sign-up created no account: the address or the
/// company's number already has one. Told by mail, never in the answer.
enum Taken {
    Email,
    RegistrationNumber,
}

async fn taken_by(ctx: &Context, email: &str, regno: Option<&str>) -> Result<Option<Taken>, ApiError> {
    Ok(match taken(ctx, Some(email), regno, None).await?.first() {
        Some(("email", _)) => Some(Taken::Email),
        Some(_) => Some(Taken::RegistrationNumber),
        None => None,
    })
}

/// What every well-formed sign-up answers (201), whether or not it created
/// an account, so the answer never tells who is a customer.
#[derive(Serialize, ToSchema)]
pub struct Registered {
    pub message: Msg,
}

fn received() -> Registered {
    Registered { message: Msg::RegistrationReceived }
}

/// The caller a sign-up's `Idempotency-Key` belongs to: nobody is signed
/// in, so the key is the address's own (a digest of it, so the table holds
/// no address in a key). Another address's request with the same key is
/// another request; the key cannot be used to learn anything of an address
/// whose keys the caller does not know.
pub fn idempotency_scope(email: &str) -> String {
    let digest: String = Sha256::digest(normalize_email(email).as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    format!("signup:{digest}")
}

/// Tells the address of a sign-up that created nothing why: it already has
/// an account, or the company is already registered. The mail is an outbox
/// item written with the sign-up's idempotency record, so a retried
/// sign-up mails once, like one that created an account. Counted per
/// recipient without ever refusing (a 429 here would tell the caller the
/// account exists): past the limit no mail is queued.
async fn tell_the_address(ctx: &Context, email: &str, why: Taken, once: &Once) -> Result<(), ApiError> {
    let mut tx = ctx.store.tx();
    once.record(&mut tx, &received())?;
    let limit = crate::store::rate_limit::MAIL_PER_RECIPIENT;
    let letter = if ctx.store.rate_limit(limit, email, Utc::now().timestamp()).await.is_ok() {
        let (subject, body) = notice(&ctx.config.web_origin, why);
        // The token only makes the item sendable once; the mail carries no link of it.
        let token = uuid::Uuid::new_v4().simple().to_string();
        let letter = Letter { to: email.to_string(), subject: subject.to_string(), body };
        Some(ctx.store.add_outbox_letter(&mut tx, outbox::NOTICE, "", &token, &letter, Utc::now())?)
    } else {
        None
    };
    if tx.is_empty() {
        return Ok(());
    }
    ctx.store.commit(tx).await?;
    if let Some(sk) = letter {
        use crate::services::outbox::{send_after_commit, OnRefusal};
        send_after_commit(ctx, &sk, None, OnRefusal::Retry).await;
    }
    Ok(())
}

/// The subject and text telling why a sign-up created nothing.
fn notice(origin: &str, why: Taken) -> (&'static str, String) {
    let origin = origin.trim_end_matches('/');
    match why {
        Taken::Email => (
            "Du har redan ett konto / You already have an account",
            format!(
                "Hej,\n\nNågon (kanske du) försökte registrera ett nytt konto med den här adressen, men du har redan ett konto. \
                 Logga in på {origin}/login eller välj ett nytt lösenord på {origin}/recovery om du har glömt det.\n\n\
                 Hello,\n\nSomeone (perhaps you) tried to register a new account with this address, but you already have one. \
                 Sign in at {origin}/login, or choose a new password at {origin}/recovery if you have forgotten it.\n\n\
                 Om det inte var du kan du bortse från mejlet. / If it was not you, ignore this mail.\n"
            ),
        ),
        Taken::RegistrationNumber => (
            "Företaget är redan registrerat / The company is already registered",
            "Hej,\n\nDin registrering skapade inget konto: företagets organisationsnummer har redan ett konto hos oss. \
             Be den som har företagets konto att lägga till dig som kontaktperson.\n\n\
             Hello,\n\nYour registration created no account: the company's registration number already has an account with us. \
             Ask the holder of the company's account to add you as a contact.\n"
                .to_string(),
        ),
    }
}

/// Sign-up: the customer user (inactive, so it cannot log in), its e-mail
/// item, its profile in state pending, for companies the registration-number
/// item, and the customer's conflict-index entries, in one transaction. Two
/// simultaneous sign-ups with one address or one number leave exactly one
/// account. The answer does not tell whether the address or the number was
/// free (that would find accounts): a taken one creates nothing and the
/// address is told by mail instead. Well-formed sign-ups are throttled per
/// client address. With a key (`once`, scoped by [`idempotency_scope`]),
/// either outcome records the answer in its own transaction, so a retry
/// answers the same and writes and mails nothing again.
pub async fn register(ctx: &Context, r: Registration, client: &str, once: &Once) -> Result<Registered, ApiError> {
    let sector = check(ctx, &r).await?;
    // Only well-formed sign-ups count: a refused form tells nothing.
    limit_sign_up(ctx, client).await?;
    let email = normalize_email(&r.email);
    let regno = (r.customer_type == Some(CustomerType::Company)).then(|| r.company_registration_number.trim());
    if let Some(why) = taken_by(ctx, &email, regno).await? {
        tell_the_address(ctx, &email, why, once).await?;
        return Ok(received());
    }
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
    let lost_to = retry::until_done(|_| async {
        let mut tx = ctx.store.tx();
        accounts::add_account(&ctx.store, &mut tx, &user)?;
        ctx.store.add_new_profile(&mut tx, &profile)?;
        if let Some(n) = profile.registration_number() {
            ctx.store.add_registration_number(&mut tx, n, &user.uid)?;
        }
        super::super::legal::add_acceptances(ctx, &mut tx, &user.uid, &accepted, profile.terms_accepted_at)?;
        once.record(&mut tx, &received())?;
        if commit_saved_with(ctx, tx, &profile, true).await? {
            return Ok(Attempt::Done(None));
        }
        // Another sign-up took the address or the number meanwhile.
        Ok(match taken_by(ctx, &user.email, profile.registration_number()).await? {
            Some(why) => Attempt::Done(Some(why)),
            None => Attempt::Conflict,
        })
    })
    .await?;
    if let Some(why) = lost_to {
        tell_the_address(ctx, &user.email, why, once).await?;
    }
    Ok(received())
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

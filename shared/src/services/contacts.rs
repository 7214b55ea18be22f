//! Customer contacts (user type 4): creating them with an activation mail,
//! editing, deactivating. The rules are in `domain::contact`; this module
//! ties them to the table and the mail. A contact's create and update write
//! the user and the effects of [`Event::ContactSaved`] (its name in the
//! conflict-of-interest index) in one transaction.

use crate::domain::contact::{check_names, contact_scope, may_see, normalize_phone, ContactScope};
use crate::domain::permissions::{parse_codes, Permission};
use crate::domain::{is_valid_email_addr, Role, User};
use crate::error::Msg;
use crate::error::{ApiError, FieldErrors};
use crate::services::accounts::{self, NewAccount};
use crate::services::credentials::passwords;
use crate::services::events::{self, Event};
use crate::services::retry::{self, Attempt};
use crate::services::Context;
use crate::store::idempotency::Once;
use crate::store::tx::Tx;
use crate::store::users::ContactPage;

pub struct ContactForm {
    pub first_name: String,
    pub last_name: String,
    pub phone: Option<String>,
    pub permissions: Vec<String>,
    /// Personnummer (optional; Luhn-checked, with or without dash and century).
    pub identity_number: Option<String>,
}

/// The form's identity number, checked (`identity_number` field error).
fn check_identity(form: &ContactForm, errors: &mut FieldErrors) -> Option<String> {
    crate::domain::identity_number::parse_identity_number(form.identity_number.as_deref().unwrap_or_default()).unwrap_or_else(|k| {
        errors.add("identity_number", k);
        None
    })
}

/// Validates names, phone and permission codes; all field errors at once.
fn check_form(form: &ContactForm, errors: &mut FieldErrors) -> (Option<String>, Vec<Permission>) {
    check_names(errors, &form.first_name, &form.last_name);
    let phone = normalize_phone(form.phone.as_deref()).unwrap_or_else(|k| {
        errors.add("phone", k);
        None
    });
    let perms = parse_codes(&form.permissions).unwrap_or_else(|k| {
        errors.add("permissions", k);
        Vec::new()
    });
    (phone, perms)
}

/// The customer whose contacts the caller addresses: its own, or (admin,
/// sales person) the one named, which must be a customer.
pub async fn customer_for(s: &Context, caller: &User, named: Option<&str>) -> Result<String, ApiError> {
    match contact_scope(caller)? {
        ContactScope::Own(c) => Ok(c),
        ContactScope::AnyCustomer => {
            let named = named.map(str::trim).filter(|c| !c.is_empty());
            let Some(uid) = named else {
                return Err(ApiError::field("customer", Msg::Required));
            };
            match s.store.get_user(uid).await? {
                Some(u) if crate::domain::policy::is(&u, Role::Customer) => Ok(u.uid),
                _ => Err(ApiError::field("customer", Msg::CustomerNotFound)),
            }
        }
    }
}

pub async fn list(s: &Context, caller: &User, customer: Option<&str>, cursor: Option<&str>) -> Result<ContactPage, ApiError> {
    let customer = customer_for(s, caller, customer).await?;
    s.store.list_contacts(&customer, cursor).await
}

/// A contact the caller may see, or 404.
pub async fn get(s: &Context, caller: &User, contact_id: &str) -> Result<User, ApiError> {
    visible(s, caller, contact_id, false).await
}

/// [`get`], read consistently when a write follows (`latest`).
async fn visible(s: &Context, caller: &User, contact_id: &str, latest: bool) -> Result<User, ApiError> {
    let scope = contact_scope(caller)?;
    let uid = contact_id.trim();
    let found = if latest { s.store.get_user_latest(uid).await? } else { s.store.get_user(uid).await? };
    let contact = found.ok_or(ApiError::NotFound)?;
    if !may_see(&scope, &contact) {
        return Err(ApiError::NotFound);
    }
    Ok(contact)
}

/// Creates an active contact with an unguessable password it never learns:
/// the user, its e-mail item, its set-password link (single use, three
/// days) and its entry in the conflict-of-interest index in one
/// transaction; the link is mailed after.
///
/// `answer` is what the handler answers with the new contact: it is kept
/// with the request's idempotency record (`once`) in the same transaction.
pub async fn create<A: serde::Serialize + Sync>(
    s: &Context,
    caller: &User,
    customer: Option<&str>,
    email: &str,
    form: ContactForm,
    once: &Once,
    answer: impl Fn(&User) -> A + Sync,
) -> Result<User, ApiError> {
    let customer = customer_for(s, caller, customer).await?;
    let mut errors = FieldErrors::new();
    if email.trim().is_empty() {
        errors.add("email", Msg::Required);
    } else if !is_valid_email_addr(email) {
        errors.add("email", Msg::InvalidEmail);
    }
    let (phone, permissions) = check_form(&form, &mut errors);
    let identity_number = check_identity(&form, &mut errors);
    errors.check()?;
    super::throttle::invitation(s, caller).await?;
    // The first invitation counts against the recipient's mail limit too.
    crate::services::credentials::limit_mail_to(s, email).await?;
    let placeholder = crate::domain::two_factor::new_link_token();
    let mut user = accounts::new_user(
        &s.store,
        NewAccount {
            email,
            password: &placeholder,
            first_name: form.first_name.trim(),
            last_name: form.last_name.trim(),
            role: Role::CustomerContact,
            user_sub_type: None,
            customer_id: Some(customer.clone()),
            company_id: Some(customer),
            active: true,
        },
    )
    .await?;
    user.phone = phone;
    user.permissions = permissions;
    user.identity_number = identity_number;
    let invitation = retry::until_done(|_| async {
        let mut tx = s.store.tx();
        accounts::add_account(&s.store, &mut tx, &user)?;
        let invitation = passwords::add_invitation(s, &mut tx, &user)?;
        once.record(&mut tx, &answer(&user))?;
        if !user.permissions.is_empty() {
            super::audit::add_to(&mut tx, &permissions_event(caller, &user, &[]))?;
        }
        if commit_saved(s, tx, &user).await? {
            return Ok(Attempt::Done(invitation));
        }
        if accounts::email_taken(&s.store, &user).await? {
            return Err(ApiError::field("email", Msg::EmailExists));
        }
        Ok(Attempt::Conflict)
    })
    .await?;
    // Best effort: the contact is stored; a refused mail is left to the sweep.
    passwords::mail_invitation(s, &user, &invitation).await?;
    Ok(user)
}

/// Adds the effects of saving `contact` (its name in the conflict-of-interest
/// index, under its company) to `tx` and commits; `Ok(false)`: a condition
/// failed and nothing was written.
async fn commit_saved(s: &Context, mut tx: Tx, contact: &User) -> Result<bool, ApiError> {
    let queued = events::record(s, &mut tx, &[Event::ContactSaved { contact }]).await?;
    events::commit(s, tx, queued).await
}

/// Names, phone and permissions of a contact the caller may see, with its
/// index entry, in one transaction. A contact may not change itself (it
/// could otherwise grant itself permissions).
pub async fn update(s: &Context, caller: &User, contact_id: &str, form: ContactForm) -> Result<User, ApiError> {
    retry::until_done(|_| async {
        let mut contact = visible(s, caller, contact_id, true).await?;
        if contact.uid == caller.uid {
            return Err(ApiError::Forbidden);
        }
        let mut errors = FieldErrors::new();
        let (phone, permissions) = check_form(&form, &mut errors);
        let identity_number = check_identity(&form, &mut errors);
        errors.check()?;
        contact.identity_number = identity_number;
        contact.first_name = form.first_name.trim().to_string();
        contact.last_name = form.last_name.trim().to_string();
        contact.phone = phone;
        // The audit names what the contact held (a row stored before the
        // case permissions held them by default).
        let before = crate::domain::policy::permission::listed(&contact);
        contact.permissions = permissions;
        // What the customer chose now is the whole list (no read-time default any more).
        contact.permissions_rev = crate::domain::permissions::PERMISSIONS_REV;
        let mut tx = s.store.tx();
        s.store.add_user_put(&mut tx, &contact)?;
        // Only a change of them (a form sent again is none).
        if before != contact.permissions {
            super::audit::add_to(&mut tx, &permissions_event(caller, &contact, &before))?;
        }
        Ok(if commit_saved(s, tx, &contact).await? { Attempt::Done(contact) } else { Attempt::Conflict })
    })
    .await
}

/// Mails a contact the caller may manage a new set-password link (single
/// use, three days), e.g. when the first one expired or was lost. A contact
/// may not send one to itself; earlier links stay single-use.
pub async fn send_password_link(s: &Context, caller: &User, contact_id: &str) -> Result<(), ApiError> {
    let contact = visible(s, caller, contact_id, true).await?;
    if contact.uid == caller.uid {
        return Err(ApiError::Forbidden);
    }
    passwords::send_invitation(s, &contact).await
}

/// Deactivating ends the contact's live sessions (token version bump).
pub async fn set_active(s: &Context, caller: &User, contact_id: &str, active: bool) -> Result<User, ApiError> {
    let mut contact = visible(s, caller, contact_id, true).await?;
    if contact.uid == caller.uid {
        return Err(ApiError::Forbidden);
    }
    if contact.active != active {
        contact.active = active;
        if !active {
            contact.end_all_sessions();
        }
        s.store.put_user(&contact).await?;
    }
    Ok(contact)
}

/// The audit event of `contact`'s permissions set by `caller`: before -> after, by their codes.
fn permissions_event(caller: &User, contact: &User, before: &[crate::domain::Permission]) -> crate::domain::audit::AuditEvent {
    let words = |p: &[crate::domain::Permission]| {
        p.iter()
            .map(|x| serde_json::to_value(x).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default())
            .collect::<Vec<_>>()
            .join(" ")
    };
    crate::domain::audit::AuditEvent::by(caller, crate::domain::audit::AuditAction::PermissionsChanged)
        .customer(contact.customer_id.as_deref())
        .subject(&contact.uid)
        .detail(format!("{} -> {}", words(before), words(&contact.permissions)))
}

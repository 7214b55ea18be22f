//! Customer contacts (user type 4): creating them with an activation mail,
//! editing, deactivating. The rules are in `domain::contact`; this module
//! ties them to the table and the mail.

use crate::domain::contact::{check_names, contact_scope, may_see, normalize_phone, ContactScope};
use crate::domain::permissions::{parse_codes, Permission};
use crate::domain::{is_valid_email_addr, Role, User};
use crate::error::Msg;
use crate::error::{ApiError, FieldErrors};
use crate::services::accounts::{new_user, NewAccount};
use crate::services::Context;
use crate::store::users::{ContactPage, CreateUserError};

pub struct ContactForm {
    pub first_name: String,
    pub last_name: String,
    pub phone: Option<String>,
    pub permissions: Vec<String>,
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
                Some(u) if u.role() == Some(Role::Customer) => Ok(u.uid),
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
    let scope = contact_scope(caller)?;
    let contact = s.store.get_user(contact_id.trim()).await?.ok_or(ApiError::NotFound)?;
    if !may_see(&scope, &contact) {
        return Err(ApiError::NotFound);
    }
    Ok(contact)
}

/// Creates an active contact with an unguessable password it never learns,
/// and mails a single-use link to the set-password screen.
pub async fn create(s: &Context, caller: &User, customer: Option<&str>, email: &str, form: ContactForm) -> Result<User, ApiError> {
    let customer = customer_for(s, caller, customer).await?;
    let mut errors = FieldErrors::new();
    if email.trim().is_empty() {
        errors.add("email", Msg::Required);
    } else if !is_valid_email_addr(email) {
        errors.add("email", Msg::InvalidEmail);
    }
    let (phone, permissions) = check_form(&form, &mut errors);
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let placeholder = crate::domain::two_factor::new_link_token();
    let mut user = new_user(
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
    match s.store.create_user(&user).await {
        Ok(()) => {}
        Err(CreateUserError::EmailTaken) => return Err(ApiError::field("email", Msg::EmailExists)),
        Err(CreateUserError::Other(e)) => return Err(e),
    }
    index(s, &user).await?;
    // The set-password mail: single use, three days (the recovery-link machinery).
    crate::services::credentials::passwords::send_invitation(s, &user).await?;
    Ok(user)
}

/// The contact's name in the conflict-of-interest index, under its company.
async fn index(s: &Context, contact: &User) -> Result<(), ApiError> {
    super::events::record_alone(s, &[super::events::Event::ContactSaved { contact }]).await
}

/// Names, phone and permissions of a contact the caller may see. A contact
/// may not change itself (it could otherwise grant itself permissions).
pub async fn update(s: &Context, caller: &User, contact_id: &str, form: ContactForm) -> Result<User, ApiError> {
    let mut contact = get(s, caller, contact_id).await?;
    if contact.uid == caller.uid {
        return Err(ApiError::Forbidden);
    }
    let mut errors = FieldErrors::new();
    let (phone, permissions) = check_form(&form, &mut errors);
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    contact.first_name = form.first_name.trim().to_string();
    contact.last_name = form.last_name.trim().to_string();
    contact.phone = phone;
    contact.permissions = permissions;
    s.store.put_user(&contact).await?;
    index(s, &contact).await?;
    Ok(contact)
}

/// Deactivating ends the contact's live sessions (token version bump).
pub async fn set_active(s: &Context, caller: &User, contact_id: &str, active: bool) -> Result<User, ApiError> {
    let mut contact = get(s, caller, contact_id).await?;
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

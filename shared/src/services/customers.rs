//! Customer accounts: registration, approval, activation by mailed link, and
//! activating/deactivating users (spec §4 customer states). The customer
//! function's handlers call these; the rules are here once.

use crate::error::Msg;
use chrono::Utc;

use crate::auth::password;
use crate::domain::customer::{
    check_registration, split_activation_token, CustomerProfile, CustomerState, CustomerType, Registration, SectorRef, ACTIVATION_TTL_SECS,
};
use crate::domain::{normalize_email, password_policy, two_factor, user::is_valid_email, Role, User};
use crate::error::ApiError;
use crate::services::accounts::{create_account_with, NewAccount};
use crate::services::Context;
use crate::store::customers::{new_profile_put, regno_put};
use crate::store::users::CreateUserWithError;

/// `email/check/`: is the address free (case-insensitively)? Invalid → 400.
pub async fn email_available(s: &Context, email: &str) -> Result<bool, ApiError> {
    if email.trim().is_empty() {
        return Err(ApiError::field("email", Msg::Required));
    }
    if !is_valid_email(email) {
        return Err(ApiError::field("email", Msg::InvalidEmail));
    }
    Ok(s.store.find_user_by_email(&normalize_email(email)).await?.is_none())
}

/// `company-registration-number/check/`: format, then availability.
pub async fn registration_number_available(s: &Context, number: &str) -> Result<bool, ApiError> {
    let number = number.trim();
    if number.is_empty() {
        return Err(ApiError::field("company_registration_number", Msg::Required));
    }
    if !crate::domain::customer::is_valid_registration_number(number) {
        return Err(ApiError::field("company_registration_number", Msg::InvalidRegistrationNumber));
    }
    Ok(!s.store.registration_number_taken(number).await?)
}

/// Sign-up: the customer user (inactive, so it cannot log in), its profile in
/// state pending and, for companies, the registration-number item, in one
/// transaction. Two simultaneous sign-ups with one address or one number
/// leave exactly one account.
pub async fn register(s: &Context, r: Registration) -> Result<CustomerProfile, ApiError> {
    let mut errors = check_registration(&r);
    let company = r.customer_type == Some(CustomerType::Company);
    let regno = r.company_registration_number.trim().to_string();
    // Availability only for well-formed values (friendlier answers before the
    // transaction, which is what really enforces uniqueness).
    if !errors.has("email") && s.store.find_user_by_email(&normalize_email(&r.email)).await?.is_some() {
        errors.add("email", Msg::EmailExists);
    }
    if company && !errors.has("company_registration_number") && s.store.registration_number_taken(&regno).await? {
        errors.add("company_registration_number", Msg::RegistrationNumberTaken);
    }
    let mut sector = None;
    if company && !r.sector.trim().is_empty() {
        match s.store.get_business_sector(r.sector.trim()).await? {
            Some(found) => sector = Some(SectorRef { id: found.id, name: found.name }),
            None => errors.add("sector", Msg::InvalidSector),
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let now = Utc::now();
    let customer_type = r.customer_type.unwrap_or(CustomerType::Individual);
    let trimmed = |a: &crate::domain::customer::Address| crate::domain::customer::Address {
        address_1: a.address_1.trim().into(),
        address_2: a.address_2.trim().into(),
        city: a.city.trim().into(),
        post_code: a.post_code.clone(),
        country: a.country,
    };
    let visiting = trimmed(&r.profile);
    let invoice = if r.same_invoice_address { visiting.clone() } else { trimmed(&r.invoice_address) };
    let mut profile_out = None;
    let res = create_account_with(
        &s.store,
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
        |user| {
            let profile = CustomerProfile {
                uid: user.uid.clone(),
                customer_type,
                company_name: company.then(|| r.company_name.trim().to_string()),
                company_registration_number: company.then(|| regno.clone()),
                sector: if company { sector.clone() } else { None },
                phone: r.phone.trim().to_string(),
                profile: visiting.clone(),
                same_invoice_address: r.same_invoice_address,
                invoice_address: invoice.clone(),
                terms_accepted_at: now,
                privacy_accepted_at: now,
                state: CustomerState::Pending,
                approved_at: None,
                activated_at: None,
                email: user.email.clone(),
                first_name: user.first_name.clone(),
                last_name: user.last_name.clone(),
                created_at: user.created_at,
                account_manager_uid: None,
                invoice_by: None,
                department_id: None,
                hourly_rate_ore: None,
                knowledge_sectors: Vec::new(),
                company_size: None,
            };
            let mut puts = vec![new_profile_put(&s.store.table, &profile)?];
            if company {
                puts.push(regno_put(&s.store.table, &regno, &user.uid)?);
            }
            profile_out = Some(profile);
            Ok(puts)
        },
    )
    .await;
    match res {
        Ok(_) => {
            let profile = profile_out.ok_or_else(|| ApiError::internal("profile not built"))?;
            crate::services::customer_admin::index_customer(s, &profile).await?;
            Ok(profile)
        }
        Err(CreateUserWithError::EmailTaken) => Err(ApiError::field("email", Msg::EmailExists)),
        // extra[1] is the registration-number item.
        Err(CreateUserWithError::ItemTaken(1)) => Err(ApiError::field("company_registration_number", Msg::RegistrationNumberTaken)),
        Err(CreateUserWithError::ItemTaken(_)) => Err(ApiError::internal("customer profile already exists")),
        Err(CreateUserWithError::Other(e)) => Err(e),
    }
}

async fn customer(s: &Context, uid: &str) -> Result<(User, CustomerProfile), ApiError> {
    let user = s.store.get_user(uid).await?.filter(|u| u.role() == Some(Role::Customer)).ok_or(ApiError::UserNotFound)?;
    let profile = s.store.get_customer_profile(uid).await?.ok_or(ApiError::UserNotFound)?;
    Ok((user, profile))
}

/// Mails a fresh activation link (72 h, single use); any earlier link stops working.
async fn send_activation_link(s: &Context, user: &User) -> Result<(), ApiError> {
    let token = format!("{}.{}", user.uid, two_factor::new_link_token());
    let expires = Utc::now().timestamp() + ACTIVATION_TTL_SECS;
    s.store.save_activation_link(&user.uid, &two_factor::link_digest(&token), expires).await?;
    let link = format!("{}/approve/customer?token={token}", s.config.web_origin.trim_end_matches('/'));
    let body = format!(
        "Hej {name},\n\nDitt konto har godkänts. Öppna länken för att bekräfta ditt lösenord och aktivera kontot. \
         Länken gäller i 72 timmar och kan användas en gång:\n{link}\n\n\
         Hello {name},\n\nYour account has been approved. Open the link to confirm your password and activate the account. \
         The link is valid for 72 hours and can be used once:\n{link}\n",
        name = user.first_name
    );
    s.mail.send(&user.email, "Aktivera ditt konto / Activate your account", &body).await
}

/// Admin approves a pending customer: the activation mail goes out.
pub async fn approve(s: &Context, uid: &str) -> Result<CustomerProfile, ApiError> {
    let (user, mut profile) = customer(s, uid).await?;
    if profile.state != CustomerState::Pending {
        return Err(ApiError::bad(Msg::CustomerNotPending));
    }
    if profile.approved_at.is_none() {
        profile.approved_at = Some(Utc::now());
        s.store.put_customer_profile(&profile).await?;
    }
    send_activation_link(s, &user).await?;
    Ok(profile)
}

/// Resends the activation mail of an approved, not yet activated customer.
pub async fn resend_activation(s: &Context, uid: &str) -> Result<(), ApiError> {
    let (user, profile) = customer(s, uid).await?;
    if profile.state != CustomerState::Pending {
        return Err(ApiError::bad(Msg::CustomerNotPending));
    }
    if profile.approved_at.is_none() {
        return Err(ApiError::bad(Msg::CustomerNotApproved));
    }
    send_activation_link(s, &user).await
}

/// Is this activation link still usable (the web shows the invalid-link screen otherwise)?
pub async fn activation_link_valid(s: &Context, token: &str) -> Result<bool, ApiError> {
    let Some((uid, _)) = split_activation_token(token) else { return Ok(false) };
    s.store.activation_link_valid(uid, &two_factor::link_digest(token.trim()), Utc::now().timestamp()).await
}

/// The customer opens the link and confirms the password: the account becomes active.
pub async fn activate_with_link(s: &Context, token: &str, new: &str, confirm: &str) -> Result<(), ApiError> {
    let errors = password_policy::check(new, Some(confirm), "password", "confirm_password");
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let (uid, _) = split_activation_token(token).ok_or_else(|| ApiError::bad(Msg::LinkInvalid))?;
    let (mut user, mut profile) = customer(s, uid).await.map_err(|_| ApiError::bad(Msg::LinkInvalid))?;
    if profile.state != CustomerState::Pending || profile.approved_at.is_none() {
        return Err(ApiError::bad(Msg::LinkInvalid));
    }
    if !s.store.spend_activation_link(uid, &two_factor::link_digest(token.trim()), Utc::now().timestamp()).await? {
        return Err(ApiError::bad(Msg::LinkInvalid));
    }
    let pw = new.to_string();
    user.password_hash =
        tokio::task::spawn_blocking(move || password::hash(&pw)).await.map_err(ApiError::internal)?.map_err(ApiError::internal)?;
    user.active = true;
    profile.state = CustomerState::Active;
    profile.activated_at = Some(Utc::now());
    s.store.put_user_and_profile(&user, Some(&profile)).await
}

/// Admin activates or deactivates any non-admin user. Deactivation ends every
/// session at once (the token version moves on, so access and refresh tokens
/// stop working). A customer's profile state follows; a pending customer is
/// approved, not activated.
pub async fn set_user_active(s: &Context, uid: &str, active: bool) -> Result<User, ApiError> {
    let mut user = s.store.get_user(uid).await?.ok_or(ApiError::UserNotFound)?;
    if user.role() == Some(Role::Admin) {
        return Err(ApiError::bad(Msg::CannotChangeAdmin));
    }
    let mut profile = if user.role() == Some(Role::Customer) { s.store.get_customer_profile(uid).await? } else { None };
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
    s.store.put_user_and_profile(&user, profile.as_ref()).await?;
    if matches!(user.role(), Some(Role::Lawyer | Role::SalesPerson)) {
        // The staff lists show the state from their own item; the user item
        // (written first) is what sign-in and every call check.
        s.store.set_staff_active(uid, active).await?;
    }
    Ok(user)
}

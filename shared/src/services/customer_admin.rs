//! Customers kept by staff (admin and sales persons): create, update and the
//! details the customer modal shows, plus the customer's entries in the
//! conflict-of-interest index (written whenever a profile is written).

use crate::error::Msg;
use chrono::Utc;
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::catalogue::NamedEntry;
use crate::domain::customer::{check_customer_form, Address, CustomerForm, CustomerProfile, CustomerState, CustomerType, SectorRef};
use crate::domain::staff::rate_to_ore;
use crate::domain::{normalize_email, Role, User};
use crate::error::ApiError;
use crate::services::accounts::{create_account_with, NewAccount};
use crate::services::Context;
use crate::store::catalogue::NamedKind;
use crate::store::customers::{new_profile_put, regno_put, UpdateCustomerError};
use crate::store::users::CreateUserWithError;

/// The customer's parties in the conflict index (see [`events`](super::events)).
pub async fn index_customer(s: &Context, p: &CustomerProfile) -> Result<(), ApiError> {
    super::events::record_alone(s, &[super::events::Event::CustomerSaved { profile: p }]).await
}

fn trimmed(a: &Address) -> Address {
    Address {
        address_1: a.address_1.trim().into(),
        address_2: a.address_2.trim().into(),
        city: a.city.trim().into(),
        post_code: a.post_code.clone(),
        country: a.country,
    }
}

/// The checked, looked-up parts of a form.
struct Checked {
    sector: Option<SectorRef>,
    hourly_rate_ore: Option<i64>,
    knowledge_sectors: Vec<u64>,
}

/// Every rule of the staff form; `uid` is the customer being updated (its own
/// e-mail and number are not "taken").
async fn check(s: &Context, f: &CustomerForm, uid: Option<&str>) -> Result<Checked, ApiError> {
    let mut errors = check_customer_form(f);
    let company = f.customer_type == Some(CustomerType::Company);
    if !errors.has("email") {
        if let Some(other) = s.store.find_user_by_email(&normalize_email(&f.email)).await? {
            if Some(other.uid.as_str()) != uid {
                errors.add("email", Msg::EmailExists);
            }
        }
    }
    let regno = f.company_registration_number.trim();
    if company && !errors.has("company_registration_number") && s.store.registration_number_taken(regno).await? {
        let owner = s.store.registration_number_owner(regno).await?;
        if owner.as_deref() != uid || uid.is_none() {
            errors.add("company_registration_number", Msg::RegistrationNumberTaken);
        }
    }
    let mut sector = None;
    if company && !f.sector.trim().is_empty() && !errors.has("sector") {
        match s.store.get_business_sector(f.sector.trim()).await? {
            Some(found) => sector = Some(SectorRef { id: found.id, name: found.name }),
            None => errors.add("sector", Msg::InvalidSector),
        }
    }
    if let Some(manager) = f.account_manager.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        let ok = !manager.contains('#') && s.store.get_user(manager).await?.is_some_and(|u| u.role() == Some(Role::SalesPerson));
        if !ok {
            errors.add("account_manager", Msg::InvalidAccountManager);
        }
    }
    if let Some(dep) = f.department {
        if s.store.get_named(NamedKind::Department, dep).await?.is_none() {
            errors.add("department", Msg::InvalidDepartment);
        }
    }
    let mut knowledge_sectors = f.knowledge_sectors.clone();
    knowledge_sectors.sort_unstable();
    knowledge_sectors.dedup();
    if !errors.has("knowledge_sectors") {
        for id in &knowledge_sectors {
            if s.store.get_named(NamedKind::KnowledgeSector, *id).await?.is_none() {
                errors.add("knowledge_sectors", Msg::InvalidKnowledgeSector);
                break;
            }
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    Ok(Checked { sector, hourly_rate_ore: f.hourly_rate.and_then(rate_to_ore), knowledge_sectors })
}

/// Copies the form onto a profile (everything but identity, state and dates).
fn apply(p: &mut CustomerProfile, f: &CustomerForm, c: Checked) {
    let company = f.customer_type == Some(CustomerType::Company);
    p.customer_type = f.customer_type.unwrap_or(CustomerType::Individual);
    p.company_name = company.then(|| f.company_name.trim().to_string());
    p.company_registration_number = company.then(|| f.company_registration_number.trim().to_string());
    p.sector = if company { c.sector } else { None };
    p.phone = f.phone.trim().to_string();
    p.profile = trimmed(&f.profile);
    p.same_invoice_address = f.same_invoice_address;
    p.invoice_address = if f.same_invoice_address { p.profile.clone() } else { trimmed(&f.invoice_address) };
    p.account_manager_uid = f.account_manager.as_deref().map(str::trim).filter(|m| !m.is_empty()).map(String::from);
    p.invoice_by = f.invoice_by;
    p.department_id = f.department;
    p.hourly_rate_ore = c.hourly_rate_ore;
    p.knowledge_sectors = c.knowledge_sectors;
    p.company_size = f.company_size.clone().filter(|v| !v.is_empty());
}

/// Admin or sales person creates a customer: active at once (no approval),
/// no password (the set-password invitation is mailed), no terms (the
/// customer accepts those when self-registering only).
pub async fn create(s: &Context, f: CustomerForm) -> Result<CustomerProfile, ApiError> {
    let checked = check(s, &f, None).await?;
    let company = f.customer_type == Some(CustomerType::Company);
    let regno = f.company_registration_number.trim().to_string();
    // A random password nobody knows until the invitation sets one.
    let placeholder = format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple());
    let now = Utc::now();
    let mut built = None;
    let res = create_account_with(
        &s.store,
        NewAccount {
            email: &f.email,
            password: &placeholder,
            first_name: f.first_name.trim(),
            last_name: f.last_name.trim(),
            role: Role::Customer,
            user_sub_type: None,
            customer_id: None,
            company_id: None,
            active: true,
        },
        |user| {
            let mut p = CustomerProfile {
                uid: user.uid.clone(),
                customer_type: CustomerType::Individual,
                company_name: None,
                company_registration_number: None,
                sector: None,
                phone: String::new(),
                profile: Address::default(),
                same_invoice_address: true,
                invoice_address: Address::default(),
                // Staff-created customers accept no terms here; the stamps
                // record when the account was made.
                terms_accepted_at: now,
                privacy_accepted_at: now,
                state: CustomerState::Active,
                approved_at: Some(now),
                activated_at: Some(now),
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
            apply(&mut p, &f, checked);
            let mut puts = vec![new_profile_put(&s.store.table, &p)?];
            if company {
                puts.push(regno_put(&s.store.table, &regno, &user.uid)?);
            }
            built = Some((user.clone(), p));
            Ok(puts)
        },
    )
    .await;
    let (user, profile) = match res {
        Ok(_) => built.ok_or_else(|| ApiError::internal("profile not built"))?,
        Err(CreateUserWithError::EmailTaken) => return Err(ApiError::field("email", Msg::EmailExists)),
        Err(CreateUserWithError::ItemTaken(1)) => return Err(ApiError::field("company_registration_number", Msg::RegistrationNumberTaken)),
        Err(CreateUserWithError::ItemTaken(_)) => return Err(ApiError::internal("customer profile already exists")),
        Err(CreateUserWithError::Other(e)) => return Err(e),
    };
    if let Some(dep) = profile.department_id {
        s.store.connect_customer_department(&profile.uid, dep).await?;
    }
    index_customer(s, &profile).await?;
    crate::services::credentials::passwords::send_invitation(s, &user).await?;
    Ok(profile)
}

async fn load(s: &Context, uid: &str) -> Result<(User, CustomerProfile), ApiError> {
    if uid.contains('#') {
        return Err(ApiError::UserNotFound);
    }
    let user = s.store.get_user(uid).await?.filter(|u| u.role() == Some(Role::Customer)).ok_or(ApiError::UserNotFound)?;
    let profile = s.store.get_customer_profile(uid).await?.ok_or(ApiError::UserNotFound)?;
    Ok((user, profile))
}

/// Admin or sales person updates a customer (any state; the state itself is
/// changed by approve/activate/deactivate).
pub async fn update(s: &Context, uid: &str, f: CustomerForm) -> Result<CustomerProfile, ApiError> {
    let (mut user, mut profile) = load(s, uid).await?;
    let checked = check(s, &f, Some(uid)).await?;
    let old_email = user.email.clone();
    let old_regno = profile.company_registration_number.clone().filter(|n| !n.trim().is_empty());
    apply(&mut profile, &f, checked);
    user.first_name = f.first_name.trim().to_string();
    user.last_name = f.last_name.trim().to_string();
    user.email = normalize_email(&f.email);
    profile.first_name = user.first_name.clone();
    profile.last_name = user.last_name.clone();
    profile.email = user.email.clone();
    match s.store.update_customer(&user, &profile, &old_email, old_regno.as_deref()).await {
        Ok(()) => {}
        Err(UpdateCustomerError::EmailTaken) => return Err(ApiError::field("email", Msg::EmailExists)),
        Err(UpdateCustomerError::RegistrationNumberTaken) => {
            return Err(ApiError::field("company_registration_number", Msg::RegistrationNumberTaken))
        }
        Err(UpdateCustomerError::Other(e)) => return Err(e),
    }
    if let Some(dep) = profile.department_id {
        s.store.connect_customer_department(&profile.uid, dep).await?;
    }
    index_customer(s, &profile).await?;
    Ok(profile)
}

/// A person shown by name (the account manager).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PersonRef {
    pub uid: String,
    pub first_name: String,
    pub last_name: String,
}

/// The spec §3 Customer object for the details modal and the edit form.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct CustomerDetails {
    #[serde(flatten)]
    pub profile: CustomerProfile,
    /// The user's profile image (S3 key) or 'not set'.
    pub image: String,
    pub active: bool,
    pub account_manager: Option<PersonRef>,
    pub department: Option<NamedEntry>,
    /// Names of `knowledge_sectors`, same order.
    pub knowledge_sector_names: Vec<String>,
}

pub async fn details(s: &Context, uid: &str) -> Result<CustomerDetails, ApiError> {
    let (user, profile) = load(s, uid).await?;
    let account_manager = match profile.account_manager_uid.as_deref() {
        Some(m) => s.store.get_user(m).await?.map(|u| PersonRef { uid: u.uid, first_name: u.first_name, last_name: u.last_name }),
        None => None,
    };
    let department = match profile.department_id {
        Some(d) => s.store.get_named(NamedKind::Department, d).await?,
        None => None,
    };
    let mut knowledge_sector_names = Vec::new();
    for id in &profile.knowledge_sectors {
        if let Some(k) = s.store.get_named(NamedKind::KnowledgeSector, *id).await? {
            knowledge_sector_names.push(k.name);
        }
    }
    Ok(CustomerDetails { image: user.image.clone(), active: user.active, profile, account_manager, department, knowledge_sector_names })
}

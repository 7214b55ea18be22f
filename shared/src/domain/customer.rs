//! Customers (spec §3 "Customer"), their account states (spec §4) and the
//! registration rules (spec §5). Pure: no AWS, no HTTP.
//!
//! A customer's uid is the uid of the customer's `User` (user_type 3); the
//! profile below lives on `CUSTOMER#<uid> / PROFILE`.

use crate::error::Msg;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::{password_policy, user::is_valid_email, User};
use crate::error::FieldErrors;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum CustomerType {
    Company,
    Individual,
}

/// Spec §4: pending (waits for admin approval, then for the customer to open
/// the activation link), active, inactive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum CustomerState {
    Pending,
    Active,
    Inactive,
}

impl CustomerState {
    pub fn as_str(self) -> &'static str {
        match self {
            CustomerState::Pending => "pending",
            CustomerState::Active => "active",
            CustomerState::Inactive => "inactive",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        match raw.trim() {
            "pending" => Some(CustomerState::Pending),
            "active" => Some(CustomerState::Active),
            "inactive" => Some(CustomerState::Inactive),
            _ => None,
        }
    }
}

/// Country list for registration: Sweden only (spec §3, value 1).
pub const COUNTRY_SWEDEN: u32 = 1;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Address {
    #[serde(default, deserialize_with = "super::text::clean::name")]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub address_1: String,
    #[serde(default, deserialize_with = "super::text::clean::name")]
    #[schema(max_length = 200)]
    pub address_2: String,
    #[serde(default, deserialize_with = "super::text::clean::name")]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub city: String,
    /// Five digits, no space.
    #[serde(default)]
    #[schema(required = true, pattern = "^[0-9]{5}$")]
    pub post_code: String,
    /// Country id; only 1 (Sweden) is offered.
    #[serde(default)]
    #[schema(required = true, minimum = 1, maximum = 1)]
    pub country: u32,
}

impl Address {
    /// The address as stored: lines and city trimmed.
    pub fn trimmed(&self) -> Address {
        Address {
            address_1: self.address_1.trim().into(),
            address_2: self.address_2.trim().into(),
            city: self.city.trim().into(),
            post_code: self.post_code.clone(),
            country: self.country,
        }
    }
}

/// `sector {id, name}` as the customer carries it (the name is copied so the
/// details modal needs no second read).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SectorRef {
    pub id: String,
    pub name: String,
}

/// The spec §3 customer fields registration collects, beyond the user.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CustomerProfile {
    /// The customer's user uid.
    pub uid: String,
    pub customer_type: CustomerType,
    #[serde(default)]
    pub company_name: Option<String>,
    #[serde(default)]
    pub company_registration_number: Option<String>,
    #[serde(default)]
    pub sector: Option<SectorRef>,
    pub phone: String,
    /// Visiting address (spec's `profile {address_1, ...}`).
    pub profile: Address,
    pub same_invoice_address: bool,
    pub invoice_address: Address,
    #[schema(value_type = String, format = DateTime)]
    pub terms_accepted_at: DateTime<Utc>,
    #[schema(value_type = String, format = DateTime)]
    pub privacy_accepted_at: DateTime<Utc>,
    pub state: CustomerState,
    /// Set when an admin approved a pending customer (the activation mail went out).
    #[serde(default)]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub approved_at: Option<DateTime<Utc>>,
    #[serde(default)]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub activated_at: Option<DateTime<Utc>>,
    /// Copies of the user's fields for admin lists and their search.
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: DateTime<Utc>,
    /// Staff-kept fields (spec §3 "Other fields"); absent on self-registered
    /// customers until staff fill them in.
    #[serde(default)]
    pub account_manager_uid: Option<String>,
    #[serde(default)]
    pub invoice_by: Option<InvoiceBy>,
    /// The catalogue department (the `CUSTOMER#<uid> / DEPARTMENT` link mirrors it).
    #[serde(default)]
    pub department_id: Option<u64>,
    /// SEK per hour in öre (hundredths), so sums never drift.
    #[serde(default)]
    pub hourly_rate_ore: Option<i64>,
    #[serde(default)]
    pub knowledge_sectors: Vec<u64>,
    /// A company-size band value of the catalogue (`COMPANY_SIZES`).
    #[serde(default)]
    pub company_size: Option<String>,
}

/// How the customer wants its invoices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum InvoiceBy {
    Post,
    Email,
}

/// What the admin and sales-person customer form sends (create and update).
/// No password (the customer chooses one from the invitation mail) and no
/// terms (those are for self-registration only).
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"customer_type": "Individual", "first_name": "Nils", "last_name": "Nyman", "email": "nils.nyman@example.com", "phone": "+46701234567",
    "profile": {"address_1": "Storgatan 1", "address_2": "", "city": "Stockholm", "post_code": "11122", "country": 1},
    "same_invoice_address": true, "invoice_by": "email"}))]
pub struct CustomerForm {
    #[serde(default)]
    #[schema(value_type = CustomerType, required = true)]
    pub customer_type: Option<CustomerType>,
    #[serde(default, deserialize_with = "super::text::clean::name")]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub first_name: String,
    #[serde(default, deserialize_with = "super::text::clean::name")]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub last_name: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 254, format = Email)]
    pub email: String,
    /// Required for a company.
    #[serde(default, deserialize_with = "super::text::clean::name")]
    #[schema(max_length = 200)]
    pub company_name: String,
    /// `XXXXXX-XXXX`; required for a company.
    #[serde(default)]
    #[schema(pattern = "^([0-9]{6}-[0-9]{4})?$")]
    pub company_registration_number: String,
    /// Business sector id; required for a company.
    #[serde(default)]
    #[schema(pattern = "^[0-9]*$")]
    pub sector: String,
    /// 7 to 15 digits, optionally a leading +, spaces, dashes, parentheses.
    #[serde(default)]
    #[schema(required = true, min_length = 7)]
    pub phone: String,
    /// Visiting address.
    #[serde(default)]
    #[schema(required = true)]
    pub profile: Address,
    #[serde(default)]
    pub same_invoice_address: bool,
    #[serde(default)]
    pub invoice_address: Address,
    /// A sales person's uid.
    #[serde(default)]
    pub account_manager: Option<String>,
    #[serde(default)]
    pub invoice_by: Option<InvoiceBy>,
    /// A catalogue department id.
    #[serde(default)]
    pub department: Option<u64>,
    /// SEK per hour, at most two decimals.
    #[serde(default)]
    #[schema(exclusive_minimum = 0, maximum = 100000)]
    pub hourly_rate: Option<f64>,
    /// Knowledge-sector ids.
    #[serde(default)]
    #[schema(max_items = 50)]
    pub knowledge_sectors: Vec<u64>,
    /// A company-size band value (`company-size/list/`).
    #[serde(default)]
    pub company_size: Option<String>,
}

/// The staff form's rules that need no stored data (spec §5): names, e-mail,
/// phone, company fields, addresses ('address_required' for a missing line 1,
/// city, post code or country), hourly rate, company size. E-mail and number
/// availability, sector, account manager, department and knowledge sectors
/// are checked by the caller.
pub fn check_customer_form(f: &CustomerForm) -> FieldErrors {
    let mut e = FieldErrors::new();
    check_person_and_company(
        &mut e,
        &PersonAndCompany {
            customer_type: f.customer_type,
            first_name: &f.first_name,
            last_name: &f.last_name,
            email: &f.email,
            company_name: &f.company_name,
            company_registration_number: &f.company_registration_number,
            sector: &f.sector,
            phone: &f.phone,
        },
    );
    let mut addr = FieldErrors::new();
    check_address(&f.profile, "profile", &mut addr);
    if !f.same_invoice_address {
        check_address(&f.invoice_address, "invoice_address", &mut addr);
    }
    // Spec §5 server rule: the staff screens show one message for a missing part.
    for (field, keys) in addr {
        for k in keys {
            e.add(field.clone(), if k == Msg::Required { Msg::AddressRequired } else { k });
        }
    }
    if let Some(rate) = f.hourly_rate {
        if crate::domain::staff::rate_to_ore(rate).is_none() {
            e.add("hourly_rate", Msg::InvalidPrice);
        }
    }
    if let Some(size) = f.company_size.as_deref().filter(|v| !v.is_empty()) {
        if !crate::domain::catalogue::COMPANY_SIZES.iter().any(|c| c.value == size) {
            e.add("company_size", Msg::InvalidCompanySize);
        }
    }
    if f.knowledge_sectors.len() > 50 {
        e.add("knowledge_sectors", Msg::TooLong);
    }
    e
}

impl CustomerProfile {
    /// Lower-case text the admin search matches against (name, e-mail, company).
    pub fn search_text(&self) -> String {
        format!("{} {} {} {}", self.first_name, self.last_name, self.email, self.company_name.as_deref().unwrap_or_default()).to_lowercase()
    }

    /// A self-registered customer of `user` (the new, inactive customer
    /// user): pending, terms and privacy accepted `now`. `sector` is the
    /// looked-up sector of a company.
    pub fn registered(r: &Registration, user: &User, sector: Option<SectorRef>, now: DateTime<Utc>) -> Self {
        let company = r.customer_type == Some(CustomerType::Company);
        let visiting = r.profile.trimmed();
        let invoice_address = if r.same_invoice_address { visiting.clone() } else { r.invoice_address.trimmed() };
        CustomerProfile {
            customer_type: r.customer_type.unwrap_or(CustomerType::Individual),
            company_name: company.then(|| r.company_name.trim().to_string()),
            company_registration_number: company.then(|| r.company_registration_number.trim().to_string()),
            sector: sector.filter(|_| company),
            phone: r.phone.trim().to_string(),
            profile: visiting,
            same_invoice_address: r.same_invoice_address,
            invoice_address,
            terms_accepted_at: now,
            privacy_accepted_at: now,
            state: CustomerState::Pending,
            approved_at: None,
            activated_at: None,
            ..CustomerProfile::blank(user)
        }
    }

    /// A customer staff make for `user`: active at once (no approval); the
    /// form's fields come with [`CustomerForm::apply`]. Staff-created
    /// customers accept no terms here; the stamps record when the account
    /// was made.
    pub fn made_by_staff(user: &User, now: DateTime<Utc>) -> Self {
        CustomerProfile {
            terms_accepted_at: now,
            privacy_accepted_at: now,
            state: CustomerState::Active,
            approved_at: Some(now),
            activated_at: Some(now),
            ..CustomerProfile::blank(user)
        }
    }

    /// An individual with nothing filled in but the user's copies.
    fn blank(user: &User) -> Self {
        CustomerProfile {
            uid: user.uid.clone(),
            customer_type: CustomerType::Individual,
            company_name: None,
            company_registration_number: None,
            sector: None,
            phone: String::new(),
            profile: Address::default(),
            same_invoice_address: true,
            invoice_address: Address::default(),
            terms_accepted_at: user.created_at,
            privacy_accepted_at: user.created_at,
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
        }
    }

    /// Takes over the copies of the user's names and e-mail.
    pub fn copy_user(&mut self, user: &User) {
        self.first_name = user.first_name.clone();
        self.last_name = user.last_name.clone();
        self.email = user.email.clone();
    }

    /// The customer's registration number, when it holds one.
    pub fn registration_number(&self) -> Option<&str> {
        self.company_registration_number.as_deref().map(str::trim).filter(|n| !n.is_empty())
    }

    /// How pickers show the customer: `Company (First Last)`, or the name.
    pub fn dropdown_label(&self) -> String {
        let name = format!("{} {}", self.first_name, self.last_name);
        match &self.company_name {
            Some(c) if !c.is_empty() => format!("{c} ({name})"),
            _ => name,
        }
    }
}

impl CustomerForm {
    pub fn is_company(&self) -> bool {
        self.customer_type == Some(CustomerType::Company)
    }

    /// The chosen account manager's uid, if any.
    pub fn account_manager_uid(&self) -> Option<&str> {
        self.account_manager.as_deref().map(str::trim).filter(|m| !m.is_empty())
    }

    /// The knowledge sectors named, sorted, each once.
    pub fn knowledge_sector_ids(&self) -> Vec<u64> {
        let mut ids = self.knowledge_sectors.clone();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Copies the form onto a profile: everything but identity, state and
    /// dates. `sector` is the looked-up business sector (companies); the
    /// form has passed [`check_customer_form`].
    pub fn apply(&self, p: &mut CustomerProfile, sector: Option<SectorRef>) {
        let company = self.is_company();
        p.customer_type = self.customer_type.unwrap_or(CustomerType::Individual);
        p.company_name = company.then(|| self.company_name.trim().to_string());
        p.company_registration_number = company.then(|| self.company_registration_number.trim().to_string());
        p.sector = sector.filter(|_| company);
        p.phone = self.phone.trim().to_string();
        p.profile = self.profile.trimmed();
        p.same_invoice_address = self.same_invoice_address;
        p.invoice_address = if self.same_invoice_address { p.profile.clone() } else { self.invoice_address.trimmed() };
        p.account_manager_uid = self.account_manager_uid().map(String::from);
        p.invoice_by = self.invoice_by;
        p.department_id = self.department;
        p.hourly_rate_ore = self.hourly_rate.and_then(crate::domain::staff::rate_to_ore);
        p.knowledge_sectors = self.knowledge_sector_ids();
        p.company_size = self.company_size.clone().filter(|v| !v.is_empty());
    }
}

/// The state a customer list shows, from its `status` parameter: active
/// when none is given, every state (`None`) for `all`, else the one named.
pub fn list_state(status: Option<&str>) -> Result<Option<CustomerState>, Msg> {
    match status.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(Some(CustomerState::Active)),
        Some("all") => Ok(None),
        Some(raw) => CustomerState::parse(raw).map(Some).ok_or(Msg::InvalidStatus),
    }
}

/// What the registration form sends (company or individual).
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"customer_type": "Individual", "first_name": "Nils", "last_name": "Nyman", "email": "nils.nyman@example.com",
    "password": "Nytt-lösen-2026!", "confirm_password": "Nytt-lösen-2026!", "phone": "+46701234567",
    "profile": {"address_1": "Storgatan 1", "address_2": "", "city": "Stockholm", "post_code": "11122", "country": 1},
    "same_invoice_address": true, "terms_accepted": true, "privacy_accepted": true}))]
pub struct Registration {
    #[serde(default)]
    #[schema(value_type = CustomerType, required = true)]
    pub customer_type: Option<CustomerType>,
    #[serde(default, deserialize_with = "super::text::clean::name")]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub first_name: String,
    #[serde(default, deserialize_with = "super::text::clean::name")]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub last_name: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 254, format = Email)]
    pub email: String,
    #[serde(default)]
    #[schema(required = true, min_length = 8, max_length = 128, format = Password)]
    pub password: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, format = Password)]
    pub confirm_password: String,
    /// Required for a company.
    #[serde(default, deserialize_with = "super::text::clean::name")]
    #[schema(max_length = 200)]
    pub company_name: String,
    /// `XXXXXX-XXXX`; required for a company.
    #[serde(default)]
    #[schema(pattern = "^([0-9]{6}-[0-9]{4})?$")]
    pub company_registration_number: String,
    /// Business sector id; required for a company.
    #[serde(default)]
    #[schema(pattern = "^[0-9]*$")]
    pub sector: String,
    /// 7 to 15 digits, optionally a leading +, spaces, dashes, parentheses.
    #[serde(default)]
    #[schema(required = true, min_length = 7)]
    pub phone: String,
    /// Visiting address.
    #[serde(default)]
    #[schema(required = true)]
    pub profile: Address,
    #[serde(default)]
    pub same_invoice_address: bool,
    /// Required unless `same_invoice_address`.
    #[serde(default)]
    pub invoice_address: Address,
    /// Must be true.
    #[serde(default)]
    #[schema(required = true)]
    pub terms_accepted: bool,
    /// Must be true.
    #[serde(default)]
    #[schema(required = true)]
    pub privacy_accepted: bool,
    /// The terms version the form showed (recorded with the time; refused
    /// when no longer current). None: the current one.
    #[serde(default)]
    pub terms_version: Option<u32>,
    /// The privacy policy version the form showed.
    #[serde(default)]
    pub privacy_version: Option<u32>,
}

/// The fields registration and the staff form share: who the customer is
/// and, for a company, the company (spec §5).
struct PersonAndCompany<'a> {
    customer_type: Option<CustomerType>,
    first_name: &'a str,
    last_name: &'a str,
    email: &'a str,
    company_name: &'a str,
    company_registration_number: &'a str,
    sector: &'a str,
    phone: &'a str,
}

fn check_person_and_company(e: &mut FieldErrors, f: &PersonAndCompany) {
    if f.customer_type.is_none() {
        e.add("customer_type", Msg::Required);
    }
    for (name, value) in [("first_name", f.first_name), ("last_name", f.last_name)] {
        if value.trim().is_empty() {
            e.add(name, Msg::Required);
        }
    }
    if f.email.trim().is_empty() {
        e.add("email", Msg::Required);
    } else if !is_valid_email(f.email) {
        e.add("email", Msg::InvalidEmail);
    }
    if f.customer_type == Some(CustomerType::Company) {
        if f.company_name.trim().is_empty() {
            e.add("company_name", Msg::Required);
        }
        if f.company_registration_number.trim().is_empty() {
            e.add("company_registration_number", Msg::Required);
        } else if !is_valid_registration_number(f.company_registration_number.trim()) {
            e.add("company_registration_number", Msg::InvalidRegistrationNumber);
        }
        if f.sector.trim().is_empty() {
            e.add("sector", Msg::Required);
        }
    }
    if f.phone.trim().is_empty() {
        e.add("phone", Msg::Required);
    } else if !is_valid_phone(f.phone) {
        e.add("phone", Msg::InvalidPhone);
    }
    check_lengths(
        e,
        &[
            ("first_name", f.first_name, MAX_NAME_LEN),
            ("last_name", f.last_name, MAX_NAME_LEN),
            ("company_name", f.company_name, MAX_TEXT_LEN),
            ("sector", f.sector, MAX_NAME_LEN),
        ],
    );
}

/// Spec §5: company registration number `XXXXXX-XXXX` (6 digits, dash, 4 digits).
pub fn is_valid_registration_number(raw: &str) -> bool {
    let b = raw.as_bytes();
    b.len() == 11 && b[6] == b'-' && b.iter().enumerate().all(|(i, c)| i == 6 || c.is_ascii_digit())
}

/// Spec §5: post code of exactly 5 digits, no space.
pub fn is_valid_post_code(raw: &str) -> bool {
    raw.len() == 5 && raw.bytes().all(|c| c.is_ascii_digit())
}

/// A phone number: digits with an optional leading `+`, spaces and dashes
/// allowed between them, 7 to 15 digits in all, at most 30 characters.
pub fn is_valid_phone(raw: &str) -> bool {
    let t = raw.trim();
    // Separators are free, but not endless.
    if t.len() > 30 {
        return false;
    }
    let rest = t.strip_prefix('+').unwrap_or(t);
    if rest.is_empty() || !rest.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    if !rest.chars().all(|c| c.is_ascii_digit() || c == ' ' || c == '-') {
        return false;
    }
    let digits = rest.chars().filter(|c| c.is_ascii_digit()).count();
    (7..=15).contains(&digits)
}

/// Longest accepted text fields (a DynamoDB item holds at most 400 KB; no
/// real name or address comes near these).
pub const MAX_NAME_LEN: usize = super::text::NAME_MAX;
pub const MAX_TEXT_LEN: usize = 200;

/// Adds `too_long` for every field longer than its limit (characters).
fn check_lengths(errors: &mut FieldErrors, fields: &[(&str, &str, usize)]) {
    for (name, value, max) in fields {
        if value.trim().chars().count() > *max && !errors.has(name) {
            errors.add(*name, Msg::TooLong);
        }
    }
}

/// Address rules (spec §5 server side): line 1, city, country and post code
/// required; post code 5 digits; country Sweden only. Keys go under `prefix.field`.
pub fn check_address(a: &Address, prefix: &str, errors: &mut FieldErrors) {
    let f = |name: &str| format!("{prefix}.{name}");
    if a.address_1.trim().is_empty() {
        errors.add(f("address_1"), Msg::Required);
    }
    if a.city.trim().is_empty() {
        errors.add(f("city"), Msg::Required);
    }
    if a.post_code.is_empty() {
        errors.add(f("post_code"), Msg::Required);
    } else if !is_valid_post_code(&a.post_code) {
        errors.add(f("post_code"), Msg::InvalidPostCode);
    }
    check_lengths(
        errors,
        &[
            (&f("address_1"), &a.address_1, MAX_TEXT_LEN),
            (&f("address_2"), &a.address_2, MAX_TEXT_LEN),
            (&f("city"), &a.city, MAX_NAME_LEN),
        ],
    );
    if a.country == 0 {
        errors.add(f("country"), Msg::Required);
    } else if a.country != COUNTRY_SWEDEN {
        errors.add(f("country"), Msg::InvalidCountry);
    }
}

/// Every registration rule of spec §5 that needs no stored data (e-mail and
/// registration-number availability and the sector's existence are checked
/// by the caller). Empty map = valid.
pub fn check_registration(r: &Registration) -> FieldErrors {
    let mut e = FieldErrors::new();
    check_person_and_company(
        &mut e,
        &PersonAndCompany {
            customer_type: r.customer_type,
            first_name: &r.first_name,
            last_name: &r.last_name,
            email: &r.email,
            company_name: &r.company_name,
            company_registration_number: &r.company_registration_number,
            sector: &r.sector,
            phone: &r.phone,
        },
    );
    if r.password.is_empty() {
        e.add("password", Msg::Required);
    }
    if r.confirm_password.is_empty() {
        e.add("confirm_password", Msg::Required);
    }
    if !r.password.is_empty() {
        let confirm = (!r.confirm_password.is_empty()).then_some(r.confirm_password.as_str());
        let personal = [r.email.as_str(), &r.first_name, &r.last_name, &r.company_name];
        e.merge(password_policy::check(&r.password, confirm, "password", "confirm_password", &personal));
    }
    if !r.terms_accepted {
        e.add("terms_accepted", Msg::TermsNotAgreed);
    }
    if !r.privacy_accepted {
        e.add("privacy_accepted", Msg::PrivacyNotAgreed);
    }
    check_address(&r.profile, "profile", &mut e);
    if !r.same_invoice_address {
        check_address(&r.invoice_address, "invoice_address", &mut e);
    }
    e
}

/// Activation links are valid this long (72 hours).
pub const ACTIVATION_TTL_SECS: i64 = 72 * 60 * 60;

/// An activation token is `<customer uid>.<random secret>`: the uid finds the
/// one stored link, the secret is compared by digest.
pub fn split_activation_token(token: &str) -> Option<(&str, &str)> {
    let (uid, secret) = token.trim().split_once('.')?;
    (!uid.is_empty() && secret.len() >= 32 && uid.len() <= 64 && !uid.contains('#')).then_some((uid, secret))
}

/// The business sectors seeded the first time the list is read (spec §3).
pub const SEEDED_SECTORS: [&str; 10] = [
    "Consumer goods",
    "Financial",
    "Health care",
    "Industrials",
    "Media",
    "Retail",
    "Telecommunications",
    "Building and construction",
    "Software developer",
    "Others",
];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BusinessSector {
    pub id: String,
    pub name: String,
}

/// A business sector name: required, at most 100 characters.
pub fn check_sector_name(name: &str) -> FieldErrors {
    let mut e = FieldErrors::new();
    if name.trim().is_empty() {
        e.add("name", Msg::Required);
    } else if name.trim().chars().count() > MAX_NAME_LEN {
        e.add("name", Msg::TooLong);
    }
    e
}

/// Why an inactive user may not sign in: a customer still pending (awaiting
/// approval or activation) is told so; everyone else is inactive.
pub fn inactive_reason(profile: Option<&CustomerProfile>) -> Msg {
    match profile {
        Some(p) if p.state == CustomerState::Pending => Msg::AccountPending,
        _ => Msg::AccountInactive,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn staff_form() -> CustomerForm {
        CustomerForm {
            customer_type: Some(CustomerType::Company),
            first_name: "Anna".into(),
            last_name: "Berg".into(),
            email: "anna@example.com".into(),
            company_name: "Berg AB".into(),
            company_registration_number: "556677-1234".into(),
            sector: "1".into(),
            phone: "0701234567".into(),
            profile: address(),
            same_invoice_address: true,
            hourly_rate: Some(1250.5),
            company_size: Some("100+".into()),
            ..Default::default()
        }
    }

    #[test]
    fn staff_form_rules() {
        assert!(check_customer_form(&staff_form()).is_empty(), "{:?}", check_customer_form(&staff_form()));
        let mut f = staff_form();
        f.profile = Address::default();
        f.same_invoice_address = false;
        let e = check_customer_form(&f);
        for k in ["profile.address_1", "profile.city", "profile.post_code", "profile.country", "invoice_address.address_1"] {
            assert_eq!(e[k], [Msg::AddressRequired], "{k}");
        }
        let mut f = staff_form();
        f.hourly_rate = Some(10.005);
        f.company_size = Some("7".into());
        f.company_registration_number = "5566771234".into();
        let e = check_customer_form(&f);
        assert_eq!(e["hourly_rate"], [Msg::InvalidPrice]);
        assert_eq!(e["company_size"], [Msg::InvalidCompanySize]);
        assert_eq!(e["company_registration_number"], [Msg::InvalidRegistrationNumber]);
        // No password, no terms on the staff form.
        assert!(!e.has("password") && !e.has("terms_accepted"));
    }

    #[test]
    fn the_staff_form_is_copied_onto_a_profile_trimmed() {
        let mut user = crate::domain::user::tests_support::sample(Some(3));
        (user.first_name, user.last_name) = ("Anna".into(), "Berg".into());
        let mut p = CustomerProfile::made_by_staff(&user, chrono::Utc::now());
        assert_eq!((p.state, p.uid.as_str(), p.email.as_str()), (CustomerState::Active, "u1", "anna@example.com"));
        let mut f = staff_form();
        f.company_name = " Berg AB ".into();
        f.profile.address_1 = " Storgatan 1 ".into();
        f.account_manager = Some(" sales-1 ".into());
        f.knowledge_sectors = vec![3, 1, 3];
        f.company_size = Some(String::new());
        let sector = SectorRef { id: "1".into(), name: "Consumer goods".into() };
        f.apply(&mut p, Some(sector.clone()));
        assert_eq!(p.customer_type, CustomerType::Company);
        assert_eq!((p.company_name.as_deref(), p.registration_number()), (Some("Berg AB"), Some("556677-1234")));
        assert_eq!(p.sector, Some(sector.clone()));
        assert_eq!(p.profile.address_1, "Storgatan 1");
        assert_eq!(p.invoice_address, p.profile, "same invoice address copies the visiting one");
        assert_eq!(p.account_manager_uid.as_deref(), Some("sales-1"));
        assert_eq!(p.knowledge_sectors, [1, 3]);
        assert_eq!((p.hourly_rate_ore, p.company_size.as_deref()), (Some(125050), None));
        assert_eq!(p.dropdown_label(), "Berg AB (Anna Berg)");

        // An individual keeps no company fields, whatever the form sends.
        f.customer_type = Some(CustomerType::Individual);
        f.apply(&mut p, Some(sector));
        assert_eq!((p.company_name.as_deref(), p.registration_number(), p.sector.as_ref()), (None, None, None));
    }

    #[test]
    fn a_registration_becomes_a_pending_profile() {
        let user = crate::domain::user::tests_support::sample(Some(3));
        let now = chrono::Utc::now();
        let mut r = company();
        r.same_invoice_address = false;
        r.invoice_address = Address { city: " Solna ".into(), ..address() };
        let p = CustomerProfile::registered(&r, &user, None, now);
        assert_eq!((p.state, p.approved_at, p.terms_accepted_at), (CustomerState::Pending, None, now));
        assert_eq!(p.invoice_address.city, "Solna");
        assert_eq!(p.registration_number(), Some("556677-1234"));
        let mut ind = company();
        ind.customer_type = Some(CustomerType::Individual);
        let sector = SectorRef { id: "1".into(), name: "Consumer goods".into() };
        let p = CustomerProfile::registered(&ind, &user, Some(sector), now);
        assert_eq!((p.company_name, p.sector), (None, None));
    }

    #[test]
    fn list_state_defaults_to_active() {
        assert_eq!(list_state(None), Ok(Some(CustomerState::Active)));
        assert_eq!(list_state(Some(" ")), Ok(Some(CustomerState::Active)));
        assert_eq!(list_state(Some("all")), Ok(None));
        assert_eq!(list_state(Some("pending")), Ok(Some(CustomerState::Pending)));
        assert_eq!(list_state(Some("weird")), Err(Msg::InvalidStatus));
    }

    fn address() -> Address {
        Address {
            address_1: "Storgatan 1".into(),
            address_2: String::new(),
            city: "Stockholm".into(),
            post_code: "11122".into(),
            country: 1,
        }
    }

    pub fn company() -> Registration {
        Registration {
            customer_type: Some(CustomerType::Company),
            first_name: "Anna".into(),
            last_name: "Berg".into(),
            email: "anna@example.com".into(),
            password: "Long-enough-pass-1".into(),
            confirm_password: "Long-enough-pass-1".into(),
            company_name: "Berg AB".into(),
            company_registration_number: "556677-1234".into(),
            sector: "1".into(),
            phone: "+46 70-123 45 67".into(),
            profile: address(),
            same_invoice_address: true,
            invoice_address: Address::default(),
            terms_accepted: true,
            privacy_accepted: true,
            terms_version: None,
            privacy_version: None,
        }
    }

    fn keys(r: &Registration, field: &str) -> Vec<Msg> {
        check_registration(r).get(field).to_vec()
    }

    #[test]
    fn a_complete_company_and_individual_pass() {
        assert!(check_registration(&company()).is_empty(), "{:?}", check_registration(&company()));
        let mut ind = company();
        ind.customer_type = Some(CustomerType::Individual);
        ind.company_name.clear();
        ind.company_registration_number.clear();
        ind.sector.clear();
        assert!(check_registration(&ind).is_empty());
    }

    #[test]
    fn names_and_type_are_required() {
        let mut r = company();
        r.first_name = "  ".into();
        r.last_name.clear();
        r.customer_type = None;
        assert_eq!(keys(&r, "first_name"), [Msg::Required]);
        assert_eq!(keys(&r, "last_name"), [Msg::Required]);
        assert_eq!(keys(&r, "customer_type"), [Msg::Required]);
    }

    #[test]
    fn email_must_be_valid() {
        let mut r = company();
        r.email = "not-an-address".into();
        assert_eq!(keys(&r, "email"), [Msg::InvalidEmail]);
        r.email.clear();
        assert_eq!(keys(&r, "email"), [Msg::Required]);
    }

    #[test]
    fn password_policy_and_confirmation() {
        let mut r = company();
        r.confirm_password = "Something-else-1".into();
        assert_eq!(keys(&r, "confirm_password"), [Msg::PasswordsDoNotMatch]);
        r.password = "short".into();
        r.confirm_password = "short".into();
        assert_eq!(keys(&r, "password"), [Msg::PasswordTooShort]);
        r.password = "password1".into();
        r.confirm_password = "password1".into();
        assert_eq!(keys(&r, "password"), [Msg::PasswordTooCommon]);
        // The customer's own e-mail (any case) is guessed first.
        r.password = r.email.to_uppercase();
        r.confirm_password = r.password.clone();
        assert_eq!(keys(&r, "password"), [Msg::PasswordTooWeak], "{}", r.password);
        r.password.clear();
        r.confirm_password.clear();
        assert_eq!(keys(&r, "password"), [Msg::Required]);
        assert_eq!(keys(&r, "confirm_password"), [Msg::Required]);
    }

    #[test]
    fn terms_and_privacy_must_be_accepted() {
        let mut r = company();
        r.terms_accepted = false;
        r.privacy_accepted = false;
        assert_eq!(keys(&r, "terms_accepted"), [Msg::TermsNotAgreed]);
        assert_eq!(keys(&r, "privacy_accepted"), [Msg::PrivacyNotAgreed]);
    }

    #[test]
    fn company_needs_name_number_and_sector() {
        let mut r = company();
        r.company_name.clear();
        r.company_registration_number.clear();
        r.sector.clear();
        assert_eq!(keys(&r, "company_name"), [Msg::Required]);
        assert_eq!(keys(&r, "company_registration_number"), [Msg::Required]);
        assert_eq!(keys(&r, "sector"), [Msg::Required]);
        r.company_registration_number = "5566771234".into();
        assert_eq!(keys(&r, "company_registration_number"), [Msg::InvalidRegistrationNumber]);
    }

    #[test]
    fn registration_number_is_six_digits_dash_four() {
        assert!(is_valid_registration_number("123456-7890"));
        for bad in ["1234567890", "12345-67890", "123456-789", "123456-78901", "12345a-7890", "123456 7890", "١٢٣٤٥٦-٧٨٩٠", ""] {
            assert!(!is_valid_registration_number(bad), "{bad}");
        }
    }

    #[test]
    fn post_code_is_exactly_five_digits() {
        assert!(is_valid_post_code("11122"));
        for bad in ["111 22", "1112", "111222", "1112a", " 11122"] {
            assert!(!is_valid_post_code(bad), "{bad}");
        }
        let mut r = company();
        r.profile.post_code = "111 22".into();
        assert_eq!(keys(&r, "profile.post_code"), [Msg::InvalidPostCode]);
    }

    #[test]
    fn phone_numbers() {
        for ok in ["0701234567", "+46701234567", "070-123 45 67", "+46 70 123 45 67", "1234567", "123456789012345"] {
            assert!(is_valid_phone(ok), "{ok}");
        }
        for bad in [
            "123456",
            "1234567890123456",
            "+",
            "070 123 45 6x",
            "++46701234567",
            "-0701234567",
            "(070) 1234567",
            "",
            "070------------------------------1234",
        ] {
            assert!(!is_valid_phone(bad), "{bad}");
        }
        let mut r = company();
        r.phone = "abc".into();
        assert_eq!(keys(&r, "phone"), [Msg::InvalidPhone]);
    }

    #[test]
    fn address_fields_and_country_sweden() {
        let mut r = company();
        r.profile = Address::default();
        for f in ["profile.address_1", "profile.city", "profile.post_code", "profile.country"] {
            assert_eq!(keys(&r, f), [Msg::Required], "{f}");
        }
        r.profile = address();
        r.profile.country = 2;
        assert_eq!(keys(&r, "profile.country"), [Msg::InvalidCountry]);
    }

    #[test]
    fn invoice_address_only_checked_when_different() {
        let mut r = company();
        assert!(!check_registration(&r).has("invoice_address.address_1"));
        r.same_invoice_address = false;
        assert_eq!(keys(&r, "invoice_address.address_1"), [Msg::Required]);
        r.invoice_address = address();
        assert!(check_registration(&r).is_empty());
    }

    #[test]
    fn overlong_text_is_refused() {
        let mut r = company();
        r.first_name = "a".repeat(MAX_NAME_LEN + 1);
        r.company_name = "b".repeat(201);
        r.profile.address_1 = "c".repeat(201);
        r.profile.city = "å".repeat(MAX_NAME_LEN);
        assert_eq!(keys(&r, "first_name"), [Msg::TooLong]);
        assert_eq!(keys(&r, "company_name"), [Msg::TooLong]);
        assert_eq!(keys(&r, "profile.address_1"), [Msg::TooLong]);
        assert!(keys(&r, "profile.city").is_empty(), "characters, not bytes");
    }

    #[test]
    fn activation_tokens_split_into_uid_and_secret() {
        let secret = "a".repeat(64);
        assert_eq!(split_activation_token(&format!("u-1.{secret}")), Some(("u-1", secret.as_str())));
        assert_eq!(split_activation_token("u-1.short"), None);
        assert_eq!(split_activation_token(&format!(".{secret}")), None);
        assert_eq!(split_activation_token("nodot"), None);
    }

    #[test]
    fn states_parse() {
        for s in [CustomerState::Pending, CustomerState::Active, CustomerState::Inactive] {
            assert_eq!(CustomerState::parse(s.as_str()), Some(s));
        }
        assert_eq!(CustomerState::parse("approved"), None);
    }

    #[test]
    fn sector_names() {
        assert_eq!(check_sector_name(" ")["name"], [Msg::Required]);
        assert_eq!(check_sector_name(&"x".repeat(MAX_NAME_LEN + 1))["name"], [Msg::TooLong]);
        assert!(check_sector_name("Retail").is_empty());
    }
}

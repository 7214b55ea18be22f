//! The customer (spec §3 "Customer"): its type, addresses, profile and
//! account states (spec §4), and why an inactive one may not sign in.

use crate::error::Msg;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::Registration;
use crate::domain::User;

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
    #[serde(default, deserialize_with = "crate::domain::text::clean::name")]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub address_1: String,
    #[serde(default, deserialize_with = "crate::domain::text::clean::name")]
    #[schema(max_length = 200)]
    pub address_2: String,
    #[serde(default, deserialize_with = "crate::domain::text::clean::name")]
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

/// The state a customer list shows, from its `status` parameter: active
/// when none is given, every state (`None`) for `all`, else the one named.
pub fn list_state(status: Option<&str>) -> Result<Option<CustomerState>, Msg> {
    match status.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(Some(CustomerState::Active)),
        Some("all") => Ok(None),
        Some(raw) => CustomerState::parse(raw).map(Some).ok_or(Msg::InvalidStatus),
    }
}

/// Why an inactive user may not sign in: a customer still pending (awaiting
/// approval or activation) is told so; everyone else is inactive.
pub fn inactive_reason(profile: Option<&CustomerProfile>) -> Msg {
    match profile {
        Some(p) if p.state == CustomerState::Pending => Msg::AccountPending,
        _ => Msg::AccountInactive,
    }
}

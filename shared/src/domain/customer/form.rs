//! The staff customer form (admins and sales persons, create and update).

use crate::error::{FieldErrors, Msg};
use serde::Deserialize;
use utoipa::ToSchema;

use super::fields::customer_form;
use super::{Address, CustomerProfile, CustomerType, InvoiceBy, SectorRef};

customer_form! {
/// What the admin and sales-person customer form sends (create and update).
/// No password (the customer chooses one from the invitation mail) and no
/// terms (those are for self-registration only).
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"customer_type": "Individual", "first_name": "Nils", "last_name": "Nyman", "email": "nils.nyman@example.com", "phone": "+46701234567",
    "profile": {"address_1": "Storgatan 1", "address_2": "", "city": "Stockholm", "post_code": "11122", "country": 1},
    "same_invoice_address": true, "invoice_by": "email"}))]
pub struct CustomerForm {
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
}

/// The staff form's rules that need no stored data (spec §5): names, e-mail,
/// phone, company fields, addresses ('address_required' for a missing line 1,
/// city, post code or country), hourly rate, company size. E-mail and number
/// availability, sector, account manager, department and knowledge sectors
/// are checked by the caller.
pub fn check_customer_form(f: &CustomerForm) -> FieldErrors {
    let mut e = FieldErrors::new();
    f.customer_fields().check(&mut e, Msg::AddressRequired);
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

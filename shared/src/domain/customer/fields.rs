//! The field rules registration and the staff form share (spec §5): who
//! the customer is, the company, phone, addresses, lengths.

use crate::domain::user::is_valid_email;
use crate::error::{FieldErrors, Msg};

use super::{Address, CustomerType, COUNTRY_SWEDEN};

/// The fields registration and the staff form share: who the customer is
/// and, for a company, the company (spec §5).
pub(super) struct PersonAndCompany<'a> {
    pub(super) customer_type: Option<CustomerType>,
    pub(super) first_name: &'a str,
    pub(super) last_name: &'a str,
    pub(super) email: &'a str,
    pub(super) company_name: &'a str,
    pub(super) company_registration_number: &'a str,
    pub(super) sector: &'a str,
    pub(super) phone: &'a str,
}

pub(super) fn check_person_and_company(e: &mut FieldErrors, f: &PersonAndCompany) {
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
pub const MAX_NAME_LEN: usize = crate::domain::text::NAME_MAX;
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

//! The field rules registration and the staff form share (spec §5): who
//! the customer is, the company, phone, addresses, lengths.

use crate::domain::user::is_valid_email;
use crate::error::{FieldErrors, Msg};

use super::{Address, CustomerType, COUNTRY_SWEDEN};

/// Declares a customer form (self-registration, the staff form): first the
/// fields every customer form carries, each with its JSON cleaning and
/// schema (who the customer is, the company, phone, addresses: spec §5),
/// then the form's own fields. Their one set of rules is
/// [`CustomerFields::check`], reached through the generated
/// `customer_fields()`.
macro_rules! customer_form {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $($(#[$fmeta:meta])* pub $field:ident: $ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            #[serde(default)]
            #[schema(value_type = CustomerType, required = true)]
            pub customer_type: Option<CustomerType>,
            #[serde(default, deserialize_with = "crate::domain::text::clean::name")]
            #[schema(required = true, min_length = 1, max_length = 200)]
            pub first_name: String,
            #[serde(default, deserialize_with = "crate::domain::text::clean::name")]
            #[schema(required = true, min_length = 1, max_length = 200)]
            pub last_name: String,
            #[serde(default)]
            #[schema(required = true, min_length = 1, max_length = 254, format = Email)]
            pub email: String,
            /// Required for a company.
            #[serde(default, deserialize_with = "crate::domain::text::clean::name")]
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
            $($(#[$fmeta])* pub $field: $ty,)*
        }

        impl $name {
            /// The fields every customer form shares, for their rules.
            pub(super) fn customer_fields(&self) -> super::fields::CustomerFields<'_> {
                super::fields::CustomerFields {
                    customer_type: self.customer_type,
                    first_name: &self.first_name,
                    last_name: &self.last_name,
                    email: &self.email,
                    company_name: &self.company_name,
                    company_registration_number: &self.company_registration_number,
                    sector: &self.sector,
                    phone: &self.phone,
                    profile: &self.profile,
                    same_invoice_address: self.same_invoice_address,
                    invoice_address: &self.invoice_address,
                }
            }
        }
    };
}
pub(super) use customer_form;

/// The fields every customer form shares (see [`customer_form`]), borrowed.
pub(super) struct CustomerFields<'a> {
    pub(super) customer_type: Option<CustomerType>,
    pub(super) first_name: &'a str,
    pub(super) last_name: &'a str,
    pub(super) email: &'a str,
    pub(super) company_name: &'a str,
    pub(super) company_registration_number: &'a str,
    pub(super) sector: &'a str,
    pub(super) phone: &'a str,
    pub(super) profile: &'a Address,
    pub(super) same_invoice_address: bool,
    pub(super) invoice_address: &'a Address,
}

impl CustomerFields<'_> {
    /// The rules of the shared fields that need no stored data (spec §5).
    /// `missing_address` is the key for a missing address part: the staff
    /// screens show one message for any of them.
    pub(super) fn check(&self, e: &mut FieldErrors, missing_address: Msg) {
        let f = self;
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
        check_address(f.profile, "profile", missing_address, e);
        if !f.same_invoice_address {
            check_address(f.invoice_address, "invoice_address", missing_address, e);
        }
    }
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
/// required (`missing` when not given); post code 5 digits; country Sweden
/// only. Keys go under `prefix.field`.
fn check_address(a: &Address, prefix: &str, missing: Msg, errors: &mut FieldErrors) {
    let f = |name: &str| format!("{prefix}.{name}");
    if a.address_1.trim().is_empty() {
        errors.add(f("address_1"), missing);
    }
    if a.city.trim().is_empty() {
        errors.add(f("city"), missing);
    }
    if a.post_code.is_empty() {
        errors.add(f("post_code"), missing);
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
        errors.add(f("country"), missing);
    } else if a.country != COUNTRY_SWEDEN {
        errors.add(f("country"), Msg::InvalidCountry);
    }
}

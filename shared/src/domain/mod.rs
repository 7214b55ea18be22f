//! The domain: types and rules in the spec's words. Nothing here knows about
//! DynamoDB, S3, SES or HTTP, so every rule can be unit-tested on its own.

pub mod academy;
pub mod additional_hour;
pub mod addons;
pub mod audit;
pub mod bankid;
pub mod calendar;
pub mod case;
pub mod catalogue;
pub mod city;
pub mod conflict;
pub mod contact;
pub mod country;
pub mod customer;
pub mod customer_search;
pub mod data_rights;
pub mod document;
pub mod identity_number;
pub mod inkasso;
pub mod legal;
pub mod meeting;
pub mod message;
pub mod notification;
pub mod password_policy;
pub mod pdf;
pub mod permissions;
pub mod policy;
pub mod rating;
pub mod retention;
pub mod sign_in;
pub mod staff;
pub mod statistics;
pub mod subscription;
pub mod support;
pub mod template_file;
pub mod text;
pub mod totp;
pub mod two_factor;
pub mod user;

/// The dates the platform accepts and reads: years 1900 to 2100.
/// Anything else in a form is `invalid_date`; in the table, a bad item.
pub fn date_in_range(d: chrono::NaiveDate) -> bool {
    use chrono::Datelike;
    (1900..=2100).contains(&d.year())
}

pub use permissions::Permission;
pub use user::{is_valid_email as is_valid_email_addr, normalize_email, Role, SessionUser, User, UserSubType};

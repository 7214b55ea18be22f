//! Self-registration (spec §5): the form, its rules and the activation link.

use crate::domain::password_policy;
use crate::error::{FieldErrors, Msg};
use serde::Deserialize;
use utoipa::ToSchema;

use super::fields::customer_form;
use super::{Address, CustomerType};

customer_form! {
/// What the registration form sends (company or individual).
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"customer_type": "Individual", "first_name": "Nils", "last_name": "Nyman", "email": "nils.nyman@example.com",
    "password": "Nytt-lösen-2026!", "confirm_password": "Nytt-lösen-2026!", "phone": "+46701234567",
    "profile": {"address_1": "Storgatan 1", "address_2": "", "city": "Stockholm", "post_code": "11122", "country": 1},
    "same_invoice_address": true, "terms_accepted": true, "privacy_accepted": true}))]
pub struct Registration {
    #[serde(default)]
    #[schema(required = true, min_length = 8, max_length = 128, format = Password)]
    pub password: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, format = Password)]
    pub confirm_password: String,
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
}

/// Every registration rule of spec §5 that needs no stored data (e-mail and
/// registration-number availability and the sector's existence are checked
/// by the caller). Empty map = valid.
pub fn check_registration(r: &Registration) -> FieldErrors {
    let mut e = FieldErrors::new();
    r.customer_fields().check(&mut e, Msg::Required);
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

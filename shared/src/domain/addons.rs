//! Add-on services (spec §5 service access rules, signing validation; §3
//! verified-signing token and signing envelope): who may use which service,
//! and the envelope form's rules. Pure: the use cases of
//! `services::addons` gather the facts and store what these rules allow.

use chrono::{DateTime, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::catalogue::{BISNODE, INCASSO, KONTRAKTO, VERIFIED, VIDEO_MEETING};
use super::permissions::Permission;
use super::subscription::PurchasedService;
use super::{Role, User};
use crate::error::{ApiError, FieldErrors, Msg};

/// The add-on services behind a purchase (spec §1; ids of `catalogue::SERVICES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Addon {
    Verified,
    Bisnode,
    Incasso,
    Kontrakto,
    VideoMeeting,
}

impl Addon {
    pub fn service_id(self) -> u8 {
        match self {
            Addon::Verified => VERIFIED,
            Addon::Bisnode => BISNODE,
            Addon::Incasso => INCASSO,
            Addon::Kontrakto => KONTRAKTO,
            Addon::VideoMeeting => VIDEO_MEETING,
        }
    }

    /// The `?service=` names of `customer/verify-services/` (spec §7, §10).
    pub fn from_name(name: &str) -> Option<Addon> {
        match name.trim().to_ascii_lowercase().as_str() {
            "verified" => Some(Addon::Verified),
            "bisnode" => Some(Addon::Bisnode),
            "incasso" | "inkasso" => Some(Addon::Incasso),
            "kontrakto" | "kontracto" => Some(Addon::Kontrakto),
            "video meeting" | "video-meeting" | "videomeeting" => Some(Addon::VideoMeeting),
            _ => None,
        }
    }

    /// The permission a customer contact needs (spec §3, §5); video meeting
    /// has none of its own.
    pub fn contact_permission(self) -> Option<Permission> {
        match self {
            Addon::Verified => Some(Permission::ViewVerify),
            Addon::Bisnode => Some(Permission::ViewBisnode),
            Addon::Incasso => Some(Permission::ViewInkasso),
            Addon::Kontrakto => Some(Permission::ViewKontracto),
            Addon::VideoMeeting => None,
        }
    }
}

/// What the access rule needs to know about the customer.
#[derive(Clone, Debug, Default)]
pub struct AccessFacts {
    /// The customer's rows (any state; the rule picks the usable ones).
    pub rows: Vec<PurchasedService>,
    /// The credit-information (Bisnode) account is active.
    pub bisnode_active: bool,
    /// A verified-signing token is held for the company.
    pub has_token: bool,
}

/// The customer a caller uses services for: a customer itself, a contact its
/// customer; nobody else uses add-on services.
pub fn customer_of(user: &User) -> Result<String, ApiError> {
    match user.role() {
        Some(Role::Customer) => Ok(user.uid.clone()),
        Some(Role::CustomerContact) => user.customer_id.clone().ok_or(ApiError::Forbidden),
        _ => Err(ApiError::Forbidden),
    }
}

/// The rows a use may be booked against: not expired, active, started.
pub fn usable_row(rows: &[PurchasedService], addon: Addon, now: NaiveDateTime) -> Option<&PurchasedService> {
    rows.iter().filter(|r| r.service.id == addon.service_id() && !r.expired && r.active && r.start_date <= now).min_by_key(|r| r.expire_on)
}

/// Spec §5 service access, step by step as the web's guard: the role; a
/// contact's permission (403 `service_permission_missing`: the web sends it
/// to /customer_contact/); the service among the purchased ones (403
/// `service_not_purchased`: the promotion screen); credit check also the
/// active account; signing also the token (except `token_exempt`, the
/// token's own registration). Contract check needs no purchase.
pub fn may_use(user: &User, addon: Addon, facts: &AccessFacts, now: NaiveDateTime, token_exempt: bool) -> Result<(), ApiError> {
    customer_of(user)?;
    if user.role() == Some(Role::CustomerContact) {
        if let Some(p) = addon.contact_permission() {
            if !user.permissions.contains(&p) {
                return Err(ApiError::ForbiddenBy(Msg::ServicePermissionMissing));
            }
        }
    }
    if addon == Addon::Kontrakto {
        return Ok(());
    }
    if usable_row(&facts.rows, addon, now).is_none() {
        return Err(ApiError::ForbiddenBy(Msg::ServiceNotPurchased));
    }
    if addon == Addon::Bisnode && !facts.bisnode_active {
        return Err(ApiError::ForbiddenBy(Msg::CreditAccountInactive));
    }
    if addon == Addon::Verified && !token_exempt && !facts.has_token {
        return Err(ApiError::ForbiddenBy(Msg::VerifiedTokenMissing));
    }
    Ok(())
}

// ------------------------------------------------------------ signing ----

/// Spec §3 verified-signing token, kept per company.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct VerifiedToken {
    pub token: String,
    pub company_id: String,
    pub user_id: String,
    pub created_at: DateTime<Utc>,
}

pub const LOCALES: [&str; 5] = ["nb", "sv", "en", "da", "fi"];
pub const ROLES: [&str; 3] = ["signer", "approver", "viewer"];
pub const SIGN_METHODS: [&str; 4] = ["bankid_no", "bankid_se", "touch_sign", "email"];

/// One recipient of an envelope (spec §2 contract sign).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Recipient {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub phone: String,
    /// nb (Norwegian), sv, en, da, fi.
    #[serde(default)]
    pub locale: String,
    /// signer, approver or viewer.
    #[serde(default)]
    pub role: String,
    #[serde(default)]
    pub notify_sms: bool,
    #[serde(default)]
    pub require_auth: bool,
    /// bankid_no, bankid_se, touch_sign or email.
    #[serde(default)]
    pub sign_method: String,
    /// Set from the provider's status: the recipient has signed (or approved).
    #[serde(default)]
    pub signed: bool,
}

/// A PDF of an envelope: the key from the upload URL, and its name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct EnvelopeDocument {
    pub key: String,
    pub name: String,
}

/// The create and update form.
#[derive(Clone, Debug, Deserialize, ToSchema)]
pub struct EnvelopeForm {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub documents: Vec<EnvelopeDocument>,
    #[serde(default)]
    pub recipients: Vec<Recipient>,
    /// Sign one after another (else all at once).
    #[serde(default)]
    pub sequential: bool,
    /// 32 hex digits the client draws once per form: a retried create
    /// answers the envelope made the first time.
    #[serde(default)]
    pub request_id: Option<String>,
}

/// draft → sent → completed, or cancelled / expired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EnvelopeState {
    Draft,
    Sent,
    Completed,
    Cancelled,
    Expired,
}

/// Spec §3 signing envelope, kept with the customer.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Envelope {
    pub uid: String,
    pub customer_uid: String,
    pub name: String,
    pub documents: Vec<EnvelopeDocument>,
    pub recipients: Vec<Recipient>,
    pub sequential: bool,
    pub state: EnvelopeState,
    /// The provider's id once sent.
    pub provider_id: Option<String>,
    /// The subscription row the envelope was booked against.
    pub purchase_id: u64,
    /// The signed PDF once fetched (completed).
    pub signed_key: Option<String>,
    pub created_by: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: DateTime<Utc>,
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: DateTime<Utc>,
}

impl Envelope {
    /// Signed (or approved) / recipients who sign or approve.
    pub fn progress(&self) -> (usize, usize) {
        let acting: Vec<&Recipient> = self.recipients.iter().filter(|r| r.role != "viewer").collect();
        (acting.iter().filter(|r| r.signed).count(), acting.len())
    }
}

/// How many signers an envelope needs at least.
pub const MIN_SIGNERS: usize = 1;
/// Bounds of the form.
pub const MAX_DOCUMENTS: usize = 10;
pub const MAX_RECIPIENTS: usize = 30;

/// Spec §5 signing validation: a name, one to ten documents (PDF by name;
/// the content is checked when saved), each recipient complete and valid,
/// and enough signers (`not_enough_signers`).
pub fn validate_envelope(f: &EnvelopeForm) -> Result<EnvelopeForm, ApiError> {
    let mut errors = FieldErrors::new();
    let name = f.name.trim();
    if name.is_empty() {
        errors.add("name", Msg::Required);
    } else if name.chars().count() > 200 {
        errors.add("name", Msg::Invalid);
    }
    if f.documents.is_empty() {
        errors.add("documents", Msg::Required);
    } else if f.documents.len() > MAX_DOCUMENTS {
        errors.add("documents", Msg::Invalid);
    }
    for (i, d) in f.documents.iter().enumerate() {
        if !d.name.trim().to_ascii_lowercase().ends_with(".pdf") {
            errors.add(format!("documents.{i}"), Msg::InvalidPdf);
        }
    }
    if f.recipients.is_empty() {
        errors.add("recipients", Msg::Required);
    } else if f.recipients.len() > MAX_RECIPIENTS {
        errors.add("recipients", Msg::Invalid);
    }
    let mut emails = std::collections::HashSet::new();
    for (i, r) in f.recipients.iter().enumerate() {
        let at = |field: &str| format!("recipients.{i}.{field}");
        if r.name.trim().is_empty() {
            errors.add(at("name"), Msg::Required);
        }
        let email = r.email.trim().to_ascii_lowercase();
        if email.is_empty() {
            errors.add(at("email"), Msg::Required);
        } else if !super::user::is_valid_email(&email) || !emails.insert(email) {
            errors.add(at("email"), Msg::InvalidEmail);
        }
        let phone = r.phone.trim();
        if (r.notify_sms && phone.is_empty()) || !phone.chars().all(|c| c.is_ascii_digit() || "+ -".contains(c)) || phone.len() > 20 {
            errors.add(at("phone"), if phone.is_empty() { Msg::Required } else { Msg::Invalid });
        }
        if !LOCALES.contains(&r.locale.as_str()) {
            errors.add(at("locale"), Msg::Invalid);
        }
        if !ROLES.contains(&r.role.as_str()) {
            errors.add(at("role"), if r.role.is_empty() { Msg::Required } else { Msg::Invalid });
        }
        if r.role == "signer" && !SIGN_METHODS.contains(&r.sign_method.as_str()) {
            errors.add(at("sign_method"), Msg::Invalid);
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    if f.recipients.iter().filter(|r| r.role == "signer").count() < MIN_SIGNERS {
        return Err(ApiError::bad(Msg::NotEnoughSigners));
    }
    Ok(EnvelopeForm {
        name: name.to_string(),
        documents: f
            .documents
            .iter()
            .map(|d| EnvelopeDocument { key: d.key.trim().to_string(), name: d.name.trim().to_string() })
            .collect(),
        recipients: f
            .recipients
            .iter()
            .map(|r| Recipient {
                name: r.name.trim().to_string(),
                email: r.email.trim().to_ascii_lowercase(),
                phone: r.phone.trim().to_string(),
                signed: false,
                sign_method: if r.role == "signer" { r.sign_method.clone() } else { String::new() },
                ..r.clone()
            })
            .collect(),
        sequential: f.sequential,
        request_id: f.request_id.clone(),
    })
}

// ------------------------------------------------------ credit check ----

/// A credit report (spec §2 credit check): kept with the customer.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct CreditReport {
    pub uid: String,
    pub customer_uid: String,
    /// `company` (organisationsnummer) or `person` (personnummer).
    pub kind: String,
    /// As `XXXXXX-XXXX`.
    pub number: String,
    /// pending until the provider has the report ('come back after 30 minutes').
    pub status: String,
    pub provider_id: String,
    pub name: Option<String>,
    /// AAA, AA, A, B, C (the provider's scale).
    pub rating: Option<String>,
    pub payment_remarks: Option<u32>,
    /// SEK; companies only.
    pub turnover: Option<i64>,
    pub purchase_id: u64,
    pub created_by: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: DateTime<Utc>,
}

/// The lookup form: an organisationsnummer (company) or a personnummer
/// (person), Luhn-checked; answers `(kind, XXXXXX-XXXX)`.
pub fn credit_lookup(kind: &str, number: &str) -> Result<(String, String), ApiError> {
    let kind = match kind.trim() {
        "company" | "" => "company",
        "person" => "person",
        _ => return Err(ApiError::field("kind", Msg::Invalid)),
    };
    if number.trim().is_empty() {
        return Err(ApiError::field("number", Msg::Required));
    }
    match super::conflict::parse_identity_number(number) {
        Ok(Some(n)) => Ok((kind.to_string(), n)),
        _ => Err(ApiError::field("number", Msg::InvalidRegistrationNumber)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recipient(role: &str) -> Recipient {
        Recipient {
            name: "Sam Signer".into(),
            email: format!("{role}@example.com"),
            phone: String::new(),
            locale: "sv".into(),
            role: role.into(),
            notify_sms: false,
            require_auth: false,
            sign_method: "bankid_se".into(),
            signed: false,
        }
    }

    fn form(recipients: Vec<Recipient>) -> EnvelopeForm {
        EnvelopeForm {
            name: "Avtal".into(),
            documents: vec![EnvelopeDocument { key: "k".into(), name: "a.pdf".into() }],
            recipients,
            sequential: false,
            request_id: None,
        }
    }

    #[test]
    fn an_envelope_needs_a_signer_and_complete_recipients() {
        assert!(validate_envelope(&form(vec![recipient("signer"), recipient("viewer")])).is_ok());
        let e = validate_envelope(&form(vec![recipient("viewer"), recipient("approver")])).unwrap_err();
        assert_eq!(e.key(), Msg::NotEnoughSigners);
        let mut bad = recipient("signer");
        bad.locale = "de".into();
        bad.notify_sms = true;
        bad.email = "nope".into();
        let e = validate_envelope(&form(vec![bad])).unwrap_err();
        let fields = e.fields();
        for f in ["recipients.0.locale", "recipients.0.phone", "recipients.0.email"] {
            assert!(fields.has(f), "{f}: {fields:?}");
        }
        let mut no_pdf = form(vec![recipient("signer")]);
        no_pdf.documents[0].name = "a.docx".into();
        assert_eq!(validate_envelope(&no_pdf).unwrap_err().fields().get("documents.0"), &[Msg::InvalidPdf]);
        let mut twice = form(vec![recipient("signer"), recipient("signer")]);
        twice.recipients[1].name = "Other".into();
        assert!(validate_envelope(&twice).unwrap_err().fields().has("recipients.1.email"));
    }

    #[test]
    fn credit_lookups_take_luhn_checked_numbers() {
        assert_eq!(credit_lookup("company", "5560000001").unwrap(), ("company".into(), "556000-0001".into()));
        assert_eq!(credit_lookup("company", "556000-0002").unwrap_err().fields().get("number"), &[Msg::InvalidRegistrationNumber]);
        assert!(credit_lookup("robot", "5560000001").is_err());
    }
}

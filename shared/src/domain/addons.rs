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
    super::policy::acting_customer(user).ok_or(ApiError::Forbidden)
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
/// token's own registration). Contract check is "always shown" (spec §5):
/// no purchase, and no contact permission either (§5 gates a contact's
/// create-case, users and credit-check routes, not this one).
pub fn may_use(user: &User, addon: Addon, facts: &AccessFacts, now: NaiveDateTime, token_exempt: bool) -> Result<(), ApiError> {
    customer_of(user)?;
    if addon == Addon::Kontrakto {
        return Ok(());
    }
    if super::policy::is(user, Role::CustomerContact) {
        if let Some(p) = addon.contact_permission() {
            if !user.permissions.contains(&p) {
                return Err(ApiError::ForbiddenBy(Msg::ServicePermissionMissing));
            }
        }
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
    /// The company's id at Verified (its `x-namespace`).
    pub company_id: String,
    pub user_id: String,
    /// Base64 of `username:password`: a token that runs out is renewed with it.
    #[serde(default)]
    pub basic_token: String,
    /// When the token runs out (renewed a minute before).
    #[serde(default)]
    pub expires_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

/// How far sending an envelope has come at the provider: each step's
/// answer is stored before the next step, so a send cut off by a crash or
/// a timeout resumes where it stopped and never makes a second envelope.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SendProgress {
    /// A send holds the envelope until then (a second concurrent send waits).
    #[serde(default)]
    pub lease_until: Option<DateTime<Utc>>,
    /// The create call went out (its answer is the envelope's uid).
    #[serde(default)]
    pub create_sent: bool,
    #[serde(default)]
    pub settings_done: bool,
    /// Per document in order: the provider's document id, file id, uploaded.
    #[serde(default)]
    pub documents: Vec<SentDocument>,
    /// The provider's ids of the recipients added so far, in order.
    #[serde(default)]
    pub recipients: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SentDocument {
    pub id: String,
    #[serde(default)]
    pub file_id: Option<String>,
    #[serde(default)]
    pub uploaded: bool,
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
#[schema(example = json!({"name": "Hyresavtal", "documents": [{"key": "the key of the upload-url answer", "name": "avtal.pdf"}],
    "recipients": [
        {"name": "Anna Andersson", "email": "anna@example.com", "phone": "+46701234567", "locale": "sv", "role": "signer", "notify_sms": false, "require_auth": true, "sign_method": "bankid_se"},
        {"name": "Bo Berg", "email": "bo@example.com", "phone": "+46701234568", "locale": "sv", "role": "signer", "notify_sms": false, "require_auth": true, "sign_method": "bankid_se"}],
    "sequential": true, "request_id": "0123456789abcdef0123456789abcdef"}))]
pub struct EnvelopeForm {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub name: String,
    /// PDF documents, 1 to 10.
    #[serde(default)]
    #[schema(required = true, min_items = 1, max_items = 10)]
    pub documents: Vec<EnvelopeDocument>,
    /// 1 to 30 recipients, at least two of them signers.
    #[serde(default)]
    #[schema(required = true, min_items = 1, max_items = 30)]
    pub recipients: Vec<Recipient>,
    /// Sign one after another (else all at once).
    #[serde(default)]
    pub sequential: bool,
    /// 32 hex digits the client draws once per form: a retried create
    /// answers the envelope made the first time.
    /// Deprecated: send the `Idempotency-Key` header instead. Still accepted
    /// for this release: without the header it is the request's key.
    #[schema(deprecated)]
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
    /// The send's steps at the provider (internal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(ignore)]
    pub sending: Option<SendProgress>,
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
    // Bounded as sent (the document's maxLength); a name over it is `invalid` for the provider.
    let name = super::text::required(&f.name, 200, super::text::clean_name).unwrap_or_else(|m| {
        errors.add("name", if m == Msg::TooLong { Msg::Invalid } else { m });
        String::new()
    });
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
        if super::text::clean_name(&r.name).is_empty() {
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
        name,
        documents: f
            .documents
            .iter()
            .map(|d| EnvelopeDocument { key: d.key.trim().to_string(), name: super::text::clean_name(&d.name) })
            .collect(),
        recipients: f
            .recipients
            .iter()
            .map(|r| Recipient {
                name: super::text::clean_name(&r.name),
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
    /// A person's report: the legitimate need recorded with the lookup.
    #[serde(default)]
    pub legitimate_need: Option<String>,
    /// A person's report: where the copy the law requires goes.
    #[serde(default)]
    pub subject_copy: Option<SubjectCopy>,
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
    match super::identity_number::parse_identity_number(number) {
        Ok(Some(n)) => Ok((kind.to_string(), n)),
        _ => Err(ApiError::field("number", Msg::InvalidRegistrationNumber)),
    }
}

/// How the person a report is about gets the copy the law requires
/// (kreditupplysningslagen: whoever is reported on as a private person, a
/// sole trader too, is sent a copy of the report, an omfrågekopia): by
/// e-mail from the platform, or by a letter the office posts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SubjectCopy {
    /// `email` or `letter`.
    pub channel: String,
    /// The e-mail address, or the letter's postal address.
    pub to: String,
    /// When the e-mail was sent (none: a letter for the office to post, or
    /// an e-mail that could not be sent yet).
    #[schema(value_type = Option<String>, format = DateTime)]
    pub sent_at: Option<DateTime<Utc>>,
}

/// A checked lookup: the kind, the number as `XXXXXX-XXXX`, and for a
/// person the recorded legitimate need and where the copy goes.
#[derive(Clone, Debug, PartialEq)]
pub struct CreditRequest {
    pub kind: String,
    pub number: String,
    pub legitimate_need: Option<String>,
    pub copy: Option<SubjectCopy>,
}

/// The longest legitimate need and postal address kept.
pub const MAX_NEED_CHARS: usize = 500;
pub const MAX_ADDRESS_CHARS: usize = 300;

/// [`credit_lookup`] with, for a person, the legitimate need (required) and
/// the copy's e-mail address or postal address (one of them required; the
/// e-mail when both are given). A company's lookup keeps none of them.
pub fn credit_request(
    kind: &str,
    number: &str,
    need: Option<&str>,
    copy_email: Option<&str>,
    copy_address: Option<&str>,
) -> Result<CreditRequest, ApiError> {
    let (kind, number) = credit_lookup(kind, number)?;
    if kind != "person" {
        return Ok(CreditRequest { kind, number, legitimate_need: None, copy: None });
    }
    let text = |v: Option<&str>| v.map(str::trim).filter(|v| !v.is_empty()).map(str::to_string);
    let (need, email, address) = (text(need), text(copy_email), text(copy_address));
    let mut errors = crate::error::FieldErrors::new();
    match &need {
        None => errors.add("legitimate_need", Msg::Required),
        Some(n) if n.chars().count() > MAX_NEED_CHARS => errors.add("legitimate_need", Msg::TooLong),
        Some(_) => {}
    }
    let copy = match (&email, &address) {
        (Some(e), _) if !super::user::is_valid_email(e) => {
            errors.add("copy_email", Msg::InvalidEmail);
            None
        }
        (Some(e), _) => Some(SubjectCopy { channel: "email".into(), to: super::user::normalize_email(e), sent_at: None }),
        (None, Some(a)) if a.chars().count() > MAX_ADDRESS_CHARS => {
            errors.add("copy_address", Msg::TooLong);
            None
        }
        (None, Some(a)) => Some(SubjectCopy { channel: "letter".into(), to: a.clone(), sent_at: None }),
        (None, None) => {
            errors.add("copy_email", Msg::Required);
            None
        }
    };
    errors.check()?;
    Ok(CreditRequest { kind, number, legitimate_need: need, copy })
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
    fn envelope_names_are_cleaned() {
        let mut f = form(vec![recipient("signer")]);
        f.name = "Avtal\u{202E}fdp.exe\u{1b}[2J".into();
        f.recipients[0].name = " Eva\u{0} ".into();
        let clean = validate_envelope(&f).unwrap();
        assert_eq!((clean.name.as_str(), clean.recipients[0].name.as_str()), ("Avtalfdp.exe", "Eva"));
        f.name = "\u{200B}".into();
        assert_eq!(validate_envelope(&f).unwrap_err().fields()["name"], vec![Msg::Required]);
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
    fn a_persons_lookup_records_its_need_and_where_the_copy_goes() {
        let company = credit_request("company", "5560000001", Some("ignored"), None, None).unwrap();
        assert_eq!((company.legitimate_need, company.copy), (None, None));
        let e = credit_request("person", "19121212-1212", None, None, None).unwrap_err().fields();
        assert_eq!((e.get("legitimate_need"), e.get("copy_email")), (&[Msg::Required][..], &[Msg::Required][..]));
        let mail =
            credit_request("person", "19121212-1212", Some(" Kreditprövning inför hyresavtal "), Some("Anna@Example.com"), Some("Gatan 1"))
                .unwrap();
        assert_eq!(mail.legitimate_need.as_deref(), Some("Kreditprövning inför hyresavtal"));
        assert_eq!(mail.copy, Some(SubjectCopy { channel: "email".into(), to: "anna@example.com".into(), sent_at: None }));
        let letter = credit_request("person", "121212-1212", Some("Avtal"), Some(" "), Some("Gatan 1, 111 22 Stad")).unwrap();
        assert_eq!(letter.copy.map(|c| (c.channel, c.to)), Some(("letter".into(), "Gatan 1, 111 22 Stad".into())));
        let e = credit_request("person", "121212-1212", Some(&"x".repeat(501)), Some("not-an-address"), None).unwrap_err().fields();
        assert_eq!((e.get("legitimate_need"), e.get("copy_email")), (&[Msg::TooLong][..], &[Msg::InvalidEmail][..]));
        let e = credit_request("person", "121212-1212", Some("Avtal"), None, Some(&"x".repeat(301))).unwrap_err().fields();
        assert_eq!(e.get("copy_address"), &[Msg::TooLong]);
    }

    #[test]
    fn credit_lookups_take_luhn_checked_numbers() {
        assert_eq!(credit_lookup("company", "5560000001").unwrap(), ("company".into(), "556000-0001".into()));
        assert_eq!(credit_lookup("company", "556000-0002").unwrap_err().fields().get("number"), &[Msg::InvalidRegistrationNumber]);
        assert!(credit_lookup("robot", "5560000001").is_err());
    }
}

// ------------------------------------------------------------- Inkasso ----

/// Spec §3 Inkasso account, as the customer applies with it (the prospect).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"home_page": "https://example.com", "bank_name": "Banken", "bank_account": "1234-5678901", "plus_giro": "",
    "bank_giro": "5050-1055", "iban": "SE45 5000 0000 0583 9825 7466", "bic": "ESSESESS", "approved_ip": "192.0.2.10", "contact_name": "Kim Kontakt", "organization_number": "556000-0001"}))]
pub struct InkassoAccount {
    #[serde(default)]
    pub home_page: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub bank_name: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub bank_account: String,
    #[serde(default)]
    pub plus_giro: String,
    #[serde(default)]
    pub bank_giro: String,
    #[serde(default)]
    pub iban: String,
    #[serde(default)]
    pub bic: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub approved_ip: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub contact_name: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub organization_number: String,
}

/// The application and its state: `applied` (handed over to the office,
/// which registers the company with the collection agency), then
/// `approved` or `rejected` as staff record the agency's answer.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct InkassoProspect {
    pub account: InkassoAccount,
    pub state: String,
    #[schema(value_type = String, format = DateTime)]
    pub applied_at: DateTime<Utc>,
    /// When the hand-over mail went out (none: not yet; it is sent again).
    #[serde(default)]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub handed_over_at: Option<DateTime<Utc>>,
    /// Set when approved.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub approved_date: Option<DateTime<Utc>>,
    /// The company's customer number at the collection agency, once
    /// approved (staff enter it; claims are handed over under it).
    #[serde(default)]
    pub creditor_id: Option<String>,
}

/// The Luhn (mod 10) check over every digit, as plus giro and bank giro numbers carry it.
fn luhn_all(digits: &str) -> bool {
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0') * if i % 2 == 1 { 2 } else { 1 };
            if d > 9 {
                d - 9
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

fn digits_only(raw: &str) -> Option<String> {
    let t: String = raw.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
    (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())).then_some(t)
}

/// A plus giro number: 2 to 8 digits with a check digit.
pub fn valid_plus_giro(raw: &str) -> bool {
    digits_only(raw).is_some_and(|d| (2..=8).contains(&d.len()) && luhn_all(&d))
}

/// A bank giro number: 7 or 8 digits with a check digit.
pub fn valid_bank_giro(raw: &str) -> bool {
    digits_only(raw).is_some_and(|d| (7..=8).contains(&d.len()) && luhn_all(&d))
}

/// An IBAN: country letters, check digits, up to 34 characters, mod 97 = 1.
pub fn valid_iban(raw: &str) -> bool {
    let t: String = raw.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_uppercase();
    if !(15..=34).contains(&t.len()) || !t.chars().all(|c| c.is_ascii_alphanumeric()) {
        return false;
    }
    let (head, rest) = t.split_at(4);
    if !head[..2].chars().all(|c| c.is_ascii_alphabetic()) || !head[2..].chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let mut remainder: u32 = 0;
    for c in rest.chars().chain(head.chars()) {
        let v = c.to_digit(36).unwrap_or(0);
        for d in if v >= 10 { vec![v / 10, v % 10] } else { vec![v] } {
            remainder = (remainder * 10 + d) % 97;
        }
    }
    remainder == 1
}

/// A BIC: 4 letters (bank), 2 letters (country), 2 letters or digits
/// (location), and optionally 3 more (branch).
pub fn valid_bic(raw: &str) -> bool {
    let t = raw.trim().to_ascii_uppercase();
    // ASCII first: slicing other text by bytes could split a character.
    t.is_ascii()
        && (t.len() == 8 || t.len() == 11)
        && t[..6].chars().all(|c| c.is_ascii_alphabetic())
        && t[6..].chars().all(|c| c.is_ascii_alphanumeric())
}

/// Spec §3 Inkasso account: required fields, the giro numbers, IBAN with
/// BIC, the approved IP address and the organisation number validated.
pub fn validate_inkasso(a: &InkassoAccount) -> Result<InkassoAccount, ApiError> {
    let mut errors = FieldErrors::blank(&[
        ("bank_name", &a.bank_name),
        ("bank_account", &a.bank_account),
        ("contact_name", &a.contact_name),
        ("organization_number", &a.organization_number),
        ("approved_ip", &a.approved_ip),
    ]);
    let home = a.home_page.trim();
    if !(home.is_empty() || home.starts_with("https://") || home.starts_with("http://")) {
        errors.add("home_page", Msg::InvalidUrl);
    }
    if !a.plus_giro.trim().is_empty() && !valid_plus_giro(&a.plus_giro) {
        errors.add("plus_giro", Msg::Invalid);
    }
    if !a.bank_giro.trim().is_empty() && !valid_bank_giro(&a.bank_giro) {
        errors.add("bank_giro", Msg::Invalid);
    }
    match (a.iban.trim().is_empty(), a.bic.trim().is_empty()) {
        (true, true) => {}
        (false, true) => errors.add("bic", Msg::Required),
        (true, false) => errors.add("iban", Msg::Required),
        (false, false) => {
            if !valid_iban(&a.iban) {
                errors.add("iban", Msg::Invalid);
            }
            if !valid_bic(&a.bic) {
                errors.add("bic", Msg::Invalid);
            }
        }
    }
    // The address exactly as written (the document's ipv4 / ipv6 formats):
    // no surrounding spaces.
    if !a.approved_ip.trim().is_empty() && a.approved_ip.parse::<std::net::IpAddr>().is_err() {
        errors.add("approved_ip", Msg::Invalid);
    }
    let org = super::identity_number::parse_identity_number(&a.organization_number);
    if !a.organization_number.trim().is_empty() && !matches!(org, Ok(Some(_))) {
        errors.add("organization_number", Msg::InvalidRegistrationNumber);
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let t = |s: &str| s.trim().chars().take(200).collect::<String>();
    Ok(InkassoAccount {
        home_page: t(&a.home_page),
        bank_name: t(&a.bank_name),
        bank_account: t(&a.bank_account),
        plus_giro: t(&a.plus_giro),
        bank_giro: t(&a.bank_giro),
        iban: a.iban.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_uppercase(),
        bic: a.bic.trim().to_ascii_uppercase(),
        approved_ip: t(&a.approved_ip),
        contact_name: t(&a.contact_name),
        organization_number: org.ok().flatten().unwrap_or_default(),
    })
}

#[cfg(test)]
mod inkasso_tests {
    use super::*;

    fn account() -> InkassoAccount {
        InkassoAccount {
            home_page: "https://kund.example.com".into(),
            bank_name: "Banken".into(),
            bank_account: "1234-5678901".into(),
            plus_giro: "4100-4".into(),
            bank_giro: "5050-1055".into(),
            iban: "SE45 5000 0000 0583 9825 7466".into(),
            bic: "ESSESESS".into(),
            approved_ip: "192.0.2.10".into(),
            contact_name: "Kim Kontakt".into(),
            organization_number: "556000-0001".into(),
        }
    }

    #[test]
    fn an_inkasso_account_is_validated_field_by_field() {
        let ok = validate_inkasso(&account()).unwrap();
        assert_eq!(ok.iban, "SE4550000000058398257466");
        let bad = InkassoAccount {
            plus_giro: "4100-5".into(),
            bank_giro: "5050-1056".into(),
            iban: "SE45 5000 0000 0583 9825 7467".into(),
            bic: "ESSE".into(),
            approved_ip: "999.1.1.1".into(),
            organization_number: "556000-0002".into(),
            home_page: "kund.example.com".into(),
            ..account()
        };
        let fields = validate_inkasso(&bad).unwrap_err().fields();
        for f in ["plus_giro", "bank_giro", "iban", "bic", "approved_ip", "organization_number", "home_page"] {
            assert!(fields.has(f), "{f}: {fields:?}");
        }
        let no_bic = InkassoAccount { bic: String::new(), ..account() };
        assert_eq!(validate_inkasso(&no_bic).unwrap_err().fields().get("bic"), &[Msg::Required]);
        let blank = validate_inkasso(&InkassoAccount::default()).unwrap_err().fields();
        assert!(blank.has("bank_name") && blank.has("contact_name") && blank.has("organization_number"));
    }

    #[test]
    fn the_approved_address_is_taken_as_written_and_a_bic_of_any_text_is_refused_not_a_crash() {
        assert_eq!(
            validate_inkasso(&InkassoAccount { approved_ip: "2001:db8::1".into(), ..account() }).unwrap().approved_ip,
            "2001:db8::1"
        );
        for ip in [" 192.0.2.10", "192.0.2.10 ", "192.0.2.010", "fe80::1%eth0"] {
            let f = validate_inkasso(&InkassoAccount { approved_ip: ip.into(), ..account() }).unwrap_err().fields();
            assert_eq!(f.get("approved_ip"), &[Msg::Invalid], "{ip:?}");
        }
        // Eight bytes, a two-byte letter across the sixth.
        assert!(!valid_bic("aaaaaÅa"));
        assert!(!valid_bic("ÅÅÅÅÅÅAA"));
    }
}

//! Debt collection (spec §2 Inkasso, §3 Inkasso account):
//! the claim a customer registers once its Inkasso account is approved, and
//! its rules. Pure: `services::inkasso` keeps what these rules allow and
//! hands it over to the collection agency.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::addons::EnvelopeDocument;
use crate::error::{ApiError, FieldErrors, Msg};

/// The largest claim, in öre (10 000 000 SEK).
pub const MAX_AMOUNT_ORE: i64 = 1_000_000_000;
/// A due date may lie at most this many days ahead (an invoice not yet due
/// can be registered, but not one dated years ahead by a typo).
pub const MAX_DAYS_AHEAD: i64 = 365;
pub const MAX_TEXT: usize = 200;
pub const MAX_INVOICE_NUMBER: usize = 50;

/// The claim form (spec §2 Inkasso: debtor, amount in SEK, due date, invoice PDF).
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"debtor_name": "Gäldenär AB", "debtor_number": "556000-0001", "debtor_address": "Storgatan 1, 111 22 Stockholm",
    "debtor_email": "ekonomi@example.com", "amount": 1250000, "invoice_number": "F-1001", "due_date": "2026-10-31",
    "invoice": {"key": "the key of the upload-url answer", "name": "faktura.pdf"}, "request_id": "0123456789abcdef0123456789abcdef"}))]
pub struct ClaimForm {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub debtor_name: String,
    /// The debtor's organisationsnummer or personnummer.
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub debtor_number: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub debtor_address: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 254, format = Email)]
    pub debtor_email: String,
    /// SEK in öre (integer).
    #[serde(default)]
    #[schema(required = true, minimum = 1, maximum = 1000000000)]
    pub amount: i64,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 50)]
    pub invoice_number: String,
    /// At most a year ahead; years 1900 to 2100.
    #[serde(default)]
    #[schema(required = true, format = Date)]
    pub due_date: String,
    /// The invoice PDF uploaded through `services/inkasso/claims/upload-url/`.
    #[schema(required = true)]
    pub invoice: Option<EnvelopeDocument>,
    /// 32 hex digits drawn once per form: a retry lands on the same claim.
    /// Deprecated: send the `Idempotency-Key` header instead. Still accepted
    /// for this release: without the header it is the request's key.
    #[schema(deprecated)]
    pub request_id: Option<String>,
}

/// A claim kept with the customer; `status` as staff last recorded it from
/// the collection agency.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Claim {
    pub uid: String,
    pub customer_uid: String,
    pub debtor_name: String,
    pub debtor_number: String,
    pub debtor_address: String,
    pub debtor_email: String,
    /// Öre.
    pub amount: i64,
    pub invoice_number: String,
    #[schema(value_type = String, format = Date)]
    pub due_date: NaiveDate,
    pub invoice: EnvelopeDocument,
    /// submitted (waiting for the office), then as the agency reports it:
    /// registered, reminder_sent, collection, paid, closed.
    pub status: String,
    /// The agency's reference for the claim (staff enter it).
    #[serde(default)]
    pub agency_reference: Option<String>,
    /// When the hand-over mail went out (none: not yet; it is sent again).
    #[serde(default)]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub handed_over_at: Option<DateTime<Utc>>,
    pub purchase_id: u64,
    pub created_by: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: DateTime<Utc>,
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: DateTime<Utc>,
}

impl Claim {
    /// The agency has nothing more to report.
    pub fn settled(&self) -> bool {
        self.status == "closed"
    }
}

/// The statuses of a claim in the order it goes through them: `submitted`
/// until the office has handed it to the agency, then the agency's.
pub const CLAIM_STATUSES: [&str; 6] = ["submitted", "registered", "reminder_sent", "collection", "paid", "closed"];

/// Longest agency customer number or claim reference kept.
pub const MAX_AGENCY_REFERENCE: usize = 64;

/// An agency reference as kept: trimmed, printable, bounded; none when blank.
pub fn agency_reference(raw: Option<&str>) -> Result<Option<String>, Msg> {
    let t = raw.unwrap_or("").trim();
    if t.is_empty() {
        return Ok(None);
    }
    if t.chars().count() > MAX_AGENCY_REFERENCE {
        return Err(Msg::TooLong);
    }
    if t.chars().any(char::is_control) {
        return Err(Msg::Invalid);
    }
    Ok(Some(t.to_string()))
}

/// A claim as validated: trimmed texts, the number as `XXXXXX-XXXX`, the date parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidClaim {
    pub debtor_name: String,
    pub debtor_number: String,
    pub debtor_address: String,
    pub debtor_email: String,
    pub amount: i64,
    pub invoice_number: String,
    pub due_date: NaiveDate,
    pub invoice: EnvelopeDocument,
}

fn text(errors: &mut FieldErrors, field: &str, value: &str, max: usize) -> String {
    let t = value.trim();
    if t.is_empty() {
        errors.add(field, Msg::Required);
    } else if t.chars().count() > max || t.chars().any(char::is_control) {
        errors.add(field, Msg::TooLong);
    }
    t.to_string()
}

/// The claim form's rules, each field with its message; `today` bounds the due date.
pub fn validate_claim(f: &ClaimForm, today: NaiveDate) -> Result<ValidClaim, ApiError> {
    let mut errors = FieldErrors::default();
    let debtor_name = text(&mut errors, "debtor_name", &f.debtor_name, MAX_TEXT);
    let debtor_address = text(&mut errors, "debtor_address", &f.debtor_address, MAX_TEXT);
    let invoice_number = text(&mut errors, "invoice_number", &f.invoice_number, MAX_INVOICE_NUMBER);
    let debtor_number = match super::identity_number::parse_identity_number(&f.debtor_number) {
        Ok(Some(n)) => n,
        Ok(None) => {
            errors.add("debtor_number", Msg::Required);
            String::new()
        }
        Err(_) => {
            errors.add("debtor_number", Msg::InvalidRegistrationNumber);
            String::new()
        }
    };
    let debtor_email = f.debtor_email.trim().to_ascii_lowercase();
    if debtor_email.is_empty() {
        errors.add("debtor_email", Msg::Required);
    } else if !super::user::is_valid_email(&debtor_email) {
        errors.add("debtor_email", Msg::InvalidEmail);
    }
    if f.amount <= 0 || f.amount > MAX_AMOUNT_ORE {
        errors.add("amount", Msg::ClaimAmountInvalid);
    }
    let due_date = match NaiveDate::parse_from_str(f.due_date.trim(), "%Y-%m-%d") {
        _ if f.due_date.trim().is_empty() => {
            errors.add("due_date", Msg::Required);
            None
        }
        Ok(d) if !super::date_in_range(d) => {
            errors.add("due_date", Msg::InvalidDate);
            None
        }
        Ok(d) if d > today + chrono::Duration::days(MAX_DAYS_AHEAD) => {
            errors.add("due_date", Msg::DueDateTooFar);
            None
        }
        Ok(d) => Some(d),
        Err(_) => {
            errors.add("due_date", Msg::InvalidDate);
            None
        }
    };
    let invoice = match &f.invoice {
        None => {
            errors.add("invoice", Msg::Required);
            None
        }
        Some(d) if !d.name.trim().to_ascii_lowercase().ends_with(".pdf") || d.key.trim().is_empty() => {
            errors.add("invoice", Msg::InvalidPdf);
            None
        }
        Some(d) => Some(EnvelopeDocument { key: d.key.trim().to_string(), name: d.name.trim().chars().take(MAX_TEXT).collect() }),
    };
    match (errors.is_empty(), due_date, invoice) {
        (true, Some(due_date), Some(invoice)) => {
            Ok(ValidClaim { debtor_name, debtor_number, debtor_address, debtor_email, amount: f.amount, invoice_number, due_date, invoice })
        }
        _ => Err(ApiError::validation(errors)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 24).unwrap()
    }

    fn form() -> ClaimForm {
        ClaimForm {
            debtor_name: "Gäldenär AB".into(),
            debtor_number: "5560000001".into(),
            debtor_address: "Storgatan 1, 111 22 Stockholm".into(),
            debtor_email: "Ekonomi@Example.com".into(),
            amount: 1_250_050,
            invoice_number: "F-2026-17".into(),
            due_date: "2026-10-31".into(),
            invoice: Some(EnvelopeDocument { key: "inkasso/c/x.pdf".into(), name: "faktura.pdf".into() }),
            request_id: None,
        }
    }

    fn fails(f: ClaimForm, field: &str, key: Msg) {
        let e = validate_claim(&f, today()).unwrap_err();
        assert_eq!(e.fields().get(field), &[key], "{field}: {:?}", e.fields());
    }

    #[test]
    fn a_valid_claim_is_kept_normalised() {
        let v = validate_claim(&form(), today()).unwrap();
        assert_eq!(v.debtor_number, "556000-0001");
        assert_eq!(v.debtor_email, "ekonomi@example.com");
        assert_eq!(v.due_date, NaiveDate::from_ymd_opt(2026, 10, 31).unwrap());
        // A personnummer is a debtor too; a due date a year ahead still passes.
        assert!(
            validate_claim(&ClaimForm { debtor_number: "19811218-9876".into(), due_date: "2027-11-24".into(), ..form() }, today()).is_ok()
        );
    }

    #[test]
    fn each_field_has_its_message() {
        fails(ClaimForm { debtor_name: " ".into(), ..form() }, "debtor_name", Msg::Required);
        fails(ClaimForm { debtor_name: "x".repeat(201), ..form() }, "debtor_name", Msg::TooLong);
        fails(ClaimForm { debtor_address: String::new(), ..form() }, "debtor_address", Msg::Required);
        fails(ClaimForm { debtor_number: String::new(), ..form() }, "debtor_number", Msg::Required);
        fails(ClaimForm { debtor_number: "556000-0002".into(), ..form() }, "debtor_number", Msg::InvalidRegistrationNumber);
        fails(ClaimForm { debtor_email: String::new(), ..form() }, "debtor_email", Msg::Required);
        fails(ClaimForm { debtor_email: "nope".into(), ..form() }, "debtor_email", Msg::InvalidEmail);
        fails(ClaimForm { amount: 0, ..form() }, "amount", Msg::ClaimAmountInvalid);
        fails(ClaimForm { amount: -5, ..form() }, "amount", Msg::ClaimAmountInvalid);
        fails(ClaimForm { amount: MAX_AMOUNT_ORE + 1, ..form() }, "amount", Msg::ClaimAmountInvalid);
        assert!(validate_claim(&ClaimForm { amount: MAX_AMOUNT_ORE, ..form() }, today()).is_ok());
        fails(ClaimForm { invoice_number: String::new(), ..form() }, "invoice_number", Msg::Required);
        fails(ClaimForm { invoice_number: "1".repeat(51), ..form() }, "invoice_number", Msg::TooLong);
        fails(ClaimForm { due_date: String::new(), ..form() }, "due_date", Msg::Required);
        fails(ClaimForm { due_date: "31/10/2026".into(), ..form() }, "due_date", Msg::InvalidDate);
        fails(ClaimForm { due_date: "1899-12-31".into(), ..form() }, "due_date", Msg::InvalidDate);
        fails(ClaimForm { due_date: "2101-01-01".into(), ..form() }, "due_date", Msg::InvalidDate);
        fails(ClaimForm { due_date: "2027-11-26".into(), ..form() }, "due_date", Msg::DueDateTooFar);
        fails(ClaimForm { invoice: None, ..form() }, "invoice", Msg::Required);
        let docx = Some(EnvelopeDocument { key: "inkasso/c/x.docx".into(), name: "faktura.docx".into() });
        fails(ClaimForm { invoice: docx, ..form() }, "invoice", Msg::InvalidPdf);
    }
}

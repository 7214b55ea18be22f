//! The case form (spec §3, §5): validation, and applying a validated form
//! with the field-level rights of who edits.

use crate::error::Msg;
use chrono::NaiveDate;
use serde::Deserialize;
use utoipa::ToSchema;

use super::entity::{Case, CaseAddress, CaseType, KnowledgeSector};
use crate::domain::catalogue::Hundredths;
use crate::domain::policy::{self, is_customer_side, Action};
use crate::domain::User;
use crate::error::{ApiError, FieldErrors};

/// The case with a validated form applied by `editor`, with the rule of who
/// may set which field (field-level rights on every write, new
/// cases and edits alike): only the provider's people set the short internal
/// description ([`Action::SeeInternal`]) and only staff choose the
/// direct-assign lawyer ([`Action::DirectAssign`]); anyone else's values of
/// those fields are ignored and the case keeps what it had (`prev`, or the
/// empty values of `base` for a new case). A lawyer's own new case is the
/// exception the creation service makes: it names the lawyer. Status, the
/// lawyer, hours consumed and invoiced flags are no form fields at all. The
/// customer side neither sees nor changes the disqualification control.
pub fn with_form(
    editor: &User,
    base: &Case,
    prev: Option<&Case>,
    input: CaseInput,
    case_type: CaseType,
    sector: Option<KnowledgeSector>,
) -> Case {
    let kept = prev.unwrap_or(base);
    let mut c = base.clone();
    c.address = input.address;
    c.subject = input.subject;
    c.description = input.description;
    c.case_type = case_type;
    c.knowledge_sector = if is_customer_side(editor) { kept.knowledge_sector.clone() } else { sector };
    if let Some(h) = input.estimated_hours {
        // Left out by the customer side: the case keeps the firm's estimate.
        c.estimated_hours = h;
    }
    c.client = input.client;
    c.direct_assign_lawyer = input.direct_assign_lawyer;
    c.counterpart = input.counterpart;
    c.counterpart_identity_number = input.counterpart_identity_number;
    c.disqualification_control = input.disqualification_control;
    c.short_internal_description = input.short_internal_description;
    c.start_date = input.start_date;
    c.deadline = input.deadline;
    c.contact_person = input.contact_person;
    c.note = input.note;
    if !policy::may(editor, Action::SeeInternal) {
        c.short_internal_description = kept.short_internal_description.clone();
    }
    if !policy::may_name_direct_lawyer(editor, prev.is_none(), c.direct_assign_lawyer.as_deref()) {
        c.direct_assign_lawyer = kept.direct_assign_lawyer.clone();
    }
    if is_customer_side(editor) {
        c.disqualification_control = kept.disqualification_control;
    }
    c
}

/// Internal notes are at most this long (characters).
pub const NOTE_MAX_CHARS: usize = crate::domain::text::LONG_MAX;

/// A note as it is stored: cleaned ([`crate::domain::text`]), not empty, bounded.
pub fn validate_note(text: &str) -> Result<String, ApiError> {
    use crate::domain::text::{clean_long, required};
    required(text, NOTE_MAX_CHARS, clean_long).map_err(|m| ApiError::field("note", m))
}

/// The editable fields of spec §3, as validated input.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseInput {
    pub address: CaseAddress,
    pub subject: String,
    pub description: String,
    pub case_type: u64,
    /// Knowledge sector id, none when not chosen.
    pub knowledge_sector: Option<u64>,
    /// None: not given (only the customer side may leave it out).
    pub estimated_hours: Option<Hundredths>,
    pub client: String,
    pub direct_assign_lawyer: Option<String>,
    pub counterpart: String,
    pub counterpart_identity_number: Option<String>,
    pub disqualification_control: bool,
    pub short_internal_description: String,
    pub start_date: Option<NaiveDate>,
    pub deadline: Option<NaiveDate>,
    pub contact_person: String,
    pub note: String,
}

/// Raw form values (strings as typed; hours may use a comma decimal).
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
pub struct CaseForm {
    #[serde(default)]
    pub address: CaseAddress,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 300)]
    pub subject: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 10000)]
    pub description: String,
    /// Case type id (catalogue `typeofcase/list/`).
    #[serde(rename = "type")]
    #[schema(value_type = u64, required = true)]
    pub case_type: Option<serde_json::Value>,
    /// Knowledge sector id (catalogue `knowledge/sector/list/`); empty or
    /// null: none. Staff and lawyers only (see [`KnowledgeSector`]).
    #[serde(default)]
    #[schema(value_type = Option<u64>)]
    pub knowledge_sector: Option<serde_json::Value>,
    /// The firm's estimate, two decimals: required from staff and lawyers,
    /// optional for the customer side.
    #[schema(value_type = Option<f64>, minimum = 0.01, maximum = 10000)]
    pub estimated_hours: Option<serde_json::Value>,
    #[serde(default)]
    #[schema(max_length = 200)]
    pub client: String,
    /// Staff only: the lawyer the case is handed to on publishing.
    #[schema(format = "uuid")]
    pub direct_assign_lawyer: Option<String>,
    /// Every opposing party of the case.
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub counterpart: String,
    /// Organisationsnummer or personnummer of the counterpart (optional):
    /// 10 or 12 digits, with or without dash, right check digit.
    #[serde(default)]
    pub counterpart_identity_number: Option<String>,
    #[serde(default)]
    pub disqualification_control: bool,
    /// Staff only.
    #[serde(default)]
    #[schema(max_length = 10000)]
    pub short_internal_description: String,
    /// Years 1900 to 2100.
    #[schema(format = Date)]
    pub start_date: Option<String>,
    /// Not before the start date.
    #[schema(format = Date)]
    pub deadline: Option<String>,
    #[serde(default)]
    #[schema(max_length = 200)]
    pub contact_person: String,
    #[serde(default)]
    #[schema(max_length = 10000)]
    pub note: String,
}

/// Hours from JSON ([`decimal`]), at most [`Hundredths::MAX_HOURS`].
pub fn hours(v: Option<&serde_json::Value>) -> Result<Option<Hundredths>, Msg> {
    match decimal(v)? {
        Some(h) if h > Hundredths::MAX_HOURS => Err(Msg::HoursTooLarge),
        h => Ok(h),
    }
}

/// A decimal from JSON: a number, or a string with a comma or dot decimal.
pub fn decimal(v: Option<&serde_json::Value>) -> Result<Option<Hundredths>, Msg> {
    match v {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(t)) if t.trim().is_empty() => Ok(None),
        Some(serde_json::Value::String(t)) => Hundredths::parse(t).map(Some).ok_or(Msg::InvalidNumber),
        Some(serde_json::Value::Number(n)) => Hundredths::parse(&n.to_string()).map(Some).ok_or(Msg::InvalidNumber),
        _ => Err(Msg::InvalidNumber),
    }
}

/// An optional date: `null` or absent is none; any text, the empty one
/// included, must be a date (a generated client sends `null` for none).
pub(super) fn date(v: &Option<String>) -> Result<Option<NaiveDate>, Msg> {
    match v.as_deref().map(str::trim) {
        None => Ok(None),
        Some(t) => NaiveDate::parse_from_str(t.get(..10).unwrap_or(t), "%Y-%m-%d")
            .ok()
            .filter(|d| crate::domain::date_in_range(*d))
            .map(Some)
            .ok_or(Msg::InvalidDate),
    }
}

/// Spec §5: subject, description, type and estimated hours are required;
/// hours at least 0.01; dates YYYY-MM-DD; the deadline not before the start.
pub fn validate(form: &CaseForm) -> Result<CaseInput, ApiError> {
    validate_with(form, true)
}

/// [`validate`] for who fills the form in: estimated hours are the firm's
/// estimate, so the customer side may leave them out (a customer cannot
/// know how long the lawyer's work takes); staff and lawyers must give them.
pub fn validate_by(editor: &User, form: &CaseForm) -> Result<CaseInput, ApiError> {
    validate_with(form, !is_customer_side(editor))
}

fn validate_with(form: &CaseForm, estimate_required: bool) -> Result<CaseInput, ApiError> {
    let mut f = FieldErrors::new();
    use crate::domain::text::{limit, LONG_MAX, NAME_MAX, PARTIES_MAX, SUBJECT_MAX};
    // Required means something visible is left after cleaning.
    if crate::domain::text::clean_name(&form.subject).is_empty() {
        f.add("subject", Msg::CaseSubjectRequired);
    }
    // Bounds count a text as sent, as the document's maxLength does.
    limit(&mut f, "subject", &form.subject, SUBJECT_MAX);
    if crate::domain::text::clean_long(&form.description).is_empty() {
        f.add("description", Msg::CaseDescriptionRequired);
    }
    for (field, value, max) in [
        ("description", &form.description, LONG_MAX),
        ("note", &form.note, LONG_MAX),
        ("short_internal_description", &form.short_internal_description, LONG_MAX),
        ("client", &form.client, NAME_MAX),
        ("counterpart", &form.counterpart, PARTIES_MAX),
        ("contact_person", &form.contact_person, NAME_MAX),
        ("address.address_1", &form.address.address_1, NAME_MAX),
        ("address.city", &form.address.city, NAME_MAX),
    ] {
        limit(&mut f, field, value, max);
    }
    // The country is picked from a list (a code); none is allowed, as the
    // whole address is optional on a case.
    let country = form.address.country.trim();
    let country = if country.is_empty() { Some("") } else { crate::domain::country::code(country) };
    if country.is_none() {
        f.add("address.country", Msg::InvalidCountry);
    }
    let case_type = match &form.case_type {
        Some(serde_json::Value::Number(n)) => n.as_u64(),
        Some(serde_json::Value::String(t)) => t.trim().parse().ok(),
        _ => None,
    };
    if case_type.is_none() {
        f.add("type", Msg::CaseTypeRequired);
    }
    let knowledge_sector = match &form.knowledge_sector {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(t)) if t.trim().is_empty() => None,
        Some(serde_json::Value::Number(n)) if n.as_u64().is_some() => n.as_u64(),
        Some(serde_json::Value::String(t)) if t.trim().parse::<u64>().is_ok() => t.trim().parse().ok(),
        Some(_) => {
            f.add("knowledge_sector", Msg::UnknownKnowledgeSector);
            None
        }
    };
    let hours = match hours(form.estimated_hours.as_ref()) {
        Ok(Some(h)) if h.0 >= 1 => Some(h),
        Ok(None) if !estimate_required => None,
        Ok(None) => {
            f.add("estimated_hours", Msg::EstimatedHoursRequired);
            None
        }
        Err(Msg::HoursTooLarge) => {
            f.add("estimated_hours", Msg::HoursTooLarge);
            None
        }
        _ => {
            f.add("estimated_hours", Msg::HourMin);
            None
        }
    };
    let start = f.read("start_date", Msg::InvalidDate, date(&form.start_date));
    let deadline = f.read("deadline", Msg::InvalidDate, date(&form.deadline));
    if let (Some(a), Some(b)) = (start, deadline) {
        if b < a {
            f.add("deadline", Msg::DeadlineBeforeStart);
        }
    }
    let counterpart_identity_number =
        crate::domain::identity_number::parse_identity_number(form.counterpart_identity_number.as_deref().unwrap_or_default())
            .unwrap_or_else(|k| {
                f.add("counterpart_identity_number", k);
                None
            });
    // Swedish post codes are five digits (spec §5); abroad, up to ten
    // letters, digits, spaces or dashes (e.g. 'SW1A 1AA', '0150').
    let pc = form.address.post_code.trim();
    let swedish = matches!(country, Some("") | Some(crate::domain::country::SWEDEN));
    let post_code_ok = if swedish {
        pc.len() == 5 && pc.chars().all(|c| c.is_ascii_digit())
    } else {
        pc.chars().count() <= 10 && pc.chars().all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '-')
    };
    if !pc.is_empty() && !post_code_ok {
        f.add("address.post_code", Msg::InvalidPostCode);
    }
    if !f.is_empty() {
        return Err(ApiError::validation(f));
    }
    let t = crate::domain::text::clean_name;
    let long = crate::domain::text::clean_long;
    Ok(CaseInput {
        address: CaseAddress {
            address_1: t(&form.address.address_1),
            city: t(&form.address.city),
            country: country.unwrap_or_default().to_string(),
            post_code: pc.to_string(),
        },
        subject: t(&form.subject),
        description: long(&form.description),
        case_type: case_type.unwrap_or_default(),
        knowledge_sector,
        estimated_hours: hours,
        client: t(&form.client),
        direct_assign_lawyer: form.direct_assign_lawyer.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(String::from),
        counterpart: t(&form.counterpart),
        counterpart_identity_number,
        disqualification_control: form.disqualification_control,
        short_internal_description: long(&form.short_internal_description),
        start_date: start,
        deadline,
        contact_person: t(&form.contact_person),
        note: long(&form.note),
    })
}

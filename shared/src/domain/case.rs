//! Cases (spec §3, §4, §5, §6): the case, its hours, and the status state
//! machine as pure functions, so every allowed and refused transition is
//! unit-tested without the store.

use crate::error::Msg;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::catalogue::Hundredths;
use super::permissions::{holds, Permission};
use super::policy::{self, Action};
use super::{Role, User};
use crate::error::{ApiError, FieldErrors};

/// Spec §3 case statuses. Draft is shown as 'Pending' (awaiting staff verification).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
pub enum CaseStatus {
    Draft,
    Waiting,
    Inprogress,
    Complete,
    /// A draft its customer withdrew before staff verified it (the spec
    /// names no such status; "other transitions: not shown"): kept, with
    /// its history, but in no list of open work.
    Withdrawn,
}

impl CaseStatus {
    pub fn parse(text: &str) -> Option<CaseStatus> {
        match text.trim().to_ascii_lowercase().as_str() {
            "draft" | "pending" => Some(CaseStatus::Draft),
            "waiting" | "available" => Some(CaseStatus::Waiting),
            "inprogress" | "active" | "in_progress" => Some(CaseStatus::Inprogress),
            "complete" | "closed" => Some(CaseStatus::Complete),
            "withdrawn" => Some(CaseStatus::Withdrawn),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CaseAddress {
    #[serde(default)]
    #[schema(max_length = 200)]
    pub address_1: String,
    #[serde(default)]
    #[schema(max_length = 200)]
    pub city: String,
    /// ISO 3166-1 alpha-2 code (see [`super::country`]); older cases' names
    /// are read as codes where they can be.
    #[serde(default, deserialize_with = "super::country::deserialize_normalized")]
    pub country: String,
    #[serde(default)]
    pub post_code: String,
}

/// The case's type as it was named when the case was saved, in both
/// languages (a copy, so lists need no second read).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CaseType {
    pub id: u64,
    pub name: String,
    #[serde(default)]
    pub name_en: Option<String>,
}

impl CaseType {
    /// The name a reader of `lang` sees.
    pub fn name_in(&self, lang: &str) -> &str {
        super::catalogue::localized(&self.name, self.name_en.as_deref(), lang)
    }
}

/// The knowledge sector a case is filed under (catalogue
/// `knowledge/sector/list/`).
///
/// Why a field on the case: spec §1 asks for legal statistics "by case
/// type and knowledge sector", yet §3 gives a case only a type and gives
/// knowledge sectors to lawyers (the fields of law they work in) and to
/// customers; neither tells which field one case is in (a lawyer or a
/// customer has several, and a case type has no sector). So the firm files
/// each case under one sector on the case form: staff and lawyers set it,
/// the customer side sees it but an edit of theirs keeps it (as with the
/// direct-assign lawyer). A case without one counts as "none".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct KnowledgeSector {
    pub id: u64,
    pub name: String,
    /// Its English name when admin gave one (see [`CaseType`]).
    #[serde(default)]
    pub name_en: Option<String>,
}

/// A stored case document (uploaded and checked, see [`super::document`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CaseFile {
    /// S3 key `cases/<case uid>/<uuid>.<ext>`, chosen by the server.
    pub key: String,
    /// The user's file name (cleaned), offered again on download.
    pub name: String,
    #[serde(default)]
    pub size: i64,
    /// uid of who added it.
    #[serde(default)]
    pub uploaded_by: String,
    #[serde(default)]
    pub uploaded_by_name: String,
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub uploaded_at: Option<DateTime<Utc>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Case {
    pub uid: String,
    /// Human-readable, e.g. "2026-000012".
    pub case_number: String,
    pub status: CaseStatus,
    /// The customer's uid (its user uid).
    pub customer: String,
    pub customer_name: String,
    pub address: CaseAddress,
    pub subject: String,
    pub description: String,
    #[serde(rename = "type")]
    pub case_type: CaseType,
    /// See [`KnowledgeSector`]; none on cases made before the field.
    #[serde(default)]
    pub knowledge_sector: Option<KnowledgeSector>,
    pub estimated_hours: Hundredths,
    pub client: String,
    /// Lawyer chosen at creation; publishing gives the case straight to them.
    pub direct_assign_lawyer: Option<String>,
    /// The lawyer working on the case (set on accept).
    pub lawyer: Option<String>,
    pub lawyer_name: Option<String>,
    pub files: Vec<CaseFile>,
    pub counterpart: String,
    /// The counterpart's organisationsnummer or personnummer (optional,
    /// `XXXXXX-XXXX`): a certain hit of the conflict search.
    #[serde(default)]
    pub counterpart_identity_number: Option<String>,
    pub disqualification_control: bool,
    pub short_internal_description: String,
    #[schema(value_type = Option<String>)]
    pub start_date: Option<NaiveDate>,
    #[schema(value_type = Option<String>)]
    pub deadline: Option<NaiveDate>,
    pub contact_person: String,
    pub note: String,
    pub created_by: String,
    #[schema(value_type = String)]
    pub created_at: DateTime<Utc>,
    #[schema(value_type = String)]
    pub updated_at: DateTime<Utc>,
    /// When the case entered its current status (its creation for a new
    /// case): the statistics' time to accept runs from here. None on cases
    /// stored before the field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub status_at: Option<DateTime<Utc>>,
    /// When the case was first published (left the draft status): the
    /// statistics' time to close runs from here, not from a draft's creation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub published_at: Option<DateTime<Utc>>,
}

impl Case {
    /// A new draft carrying only who and what it is; the form's fields are
    /// applied after (one place that knows every field's empty value).
    pub fn draft(
        uid: String,
        case_number: String,
        customer: String,
        customer_name: String,
        case_type: CaseType,
        created_by: String,
        at: DateTime<Utc>,
    ) -> Case {
        Case {
            uid,
            case_number,
            status: CaseStatus::Draft,
            customer,
            customer_name,
            address: CaseAddress::default(),
            subject: String::new(),
            description: String::new(),
            case_type,
            knowledge_sector: None,
            estimated_hours: Hundredths::ZERO,
            client: String::new(),
            direct_assign_lawyer: None,
            lawyer: None,
            lawyer_name: None,
            files: vec![],
            counterpart: String::new(),
            counterpart_identity_number: None,
            disqualification_control: false,
            short_internal_description: String::new(),
            start_date: None,
            deadline: None,
            contact_person: String::new(),
            note: String::new(),
            created_by,
            created_at: at,
            updated_at: at,
            status_at: Some(at),
            published_at: None,
        }
    }
}

/// The human-readable case number: the year of creation and a running
/// number, e.g. "2026-000012".
pub fn case_number(created_at: DateTime<Utc>, running: u64) -> String {
    format!("{}-{running:06}", created_at.format("%Y"))
}

/// A case as one caller may see it: the only shape in which a case leaves
/// the API (details, lists, statistics, exports). Its one constructor,
/// [`CaseView::for_user`], redacts, so a new view cannot forget to: a view
/// built from a bare [`Case`] does not type-check.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(transparent)]
pub struct CaseView(Case);

impl CaseView {
    /// The case as `user` may see it: the short internal description is for
    /// the provider's people only.
    pub fn for_user(user: &User, mut c: Case) -> CaseView {
        if !policy::may(user, Action::SeeInternal) {
            c.short_internal_description.clear();
        }
        CaseView(c)
    }

    /// Many cases for one caller.
    pub fn all_for(user: &User, cases: impl IntoIterator<Item = Case>) -> Vec<CaseView> {
        cases.into_iter().map(|c| CaseView::for_user(user, c)).collect()
    }
}

impl std::ops::Deref for CaseView {
    type Target = Case;
    fn deref(&self) -> &Case {
        &self.0
    }
}

// The view's schema is the case's: the documented shape stays `Case`.
impl utoipa::PartialSchema for CaseView {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        <Case as utoipa::PartialSchema>::schema()
    }
}

impl ToSchema for CaseView {
    fn name() -> std::borrow::Cow<'static, str> {
        <Case as ToSchema>::name()
    }
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>) {
        <Case as ToSchema>::schemas(schemas)
    }
}

/// The customer and its contacts, as opposed to the provider's people.
pub fn is_customer_side(user: &User) -> bool {
    matches!(user.role(), Some(Role::Customer | Role::CustomerContact))
}

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
    let own_new_case = prev.is_none() && editor.role() == Some(Role::Lawyer) && c.direct_assign_lawyer.as_deref() == Some(&editor.uid);
    if !policy::may(editor, Action::DirectAssign) && !own_new_case {
        c.direct_assign_lawyer = kept.direct_assign_lawyer.clone();
    }
    if is_customer_side(editor) {
        c.disqualification_control = kept.disqualification_control;
    }
    c
}

/// Which cases a list shows and how they are read (spec §2 lists per role,
/// §4 status display).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaseListPlan {
    /// All cases in one status (staff; lawyers for the available ones).
    ByStatus(CaseStatus),
    /// A customer's cases in the given statuses (all when empty).
    Customer(String, Vec<CaseStatus>),
    /// A lawyer's own cases in the given statuses.
    Lawyer(String, Vec<CaseStatus>),
    /// The cases one user opened in the given statuses (all when empty):
    /// staff's 'my cases', a contact's own without `view_all_cases`.
    CreatedBy(String, Vec<CaseStatus>),
    /// Every case, in every status (a sales person's 'all').
    All,
}

/// The list a role sees for a `status` word of `case/list/?status=`.
pub fn list_plan(user: &User, status: &str) -> Result<CaseListPlan, ApiError> {
    use CaseStatus::*;
    let word = status.trim().to_ascii_lowercase();
    let invalid = || ApiError::bad(Msg::InvalidStatus);
    Ok(match user.role() {
        // 'mine' is staff's "my cases": the cases they opened, whatever their
        // status (admin has no assigned cases; the one they entered are theirs
        // to follow). 'all' is every case (the sales person's first tab).
        Some(Role::Admin | Role::SalesPerson) => match word.as_str() {
            "mine" | "my-cases" => CaseListPlan::CreatedBy(user.uid.clone(), vec![]),
            "all" => CaseListPlan::All,
            "" | "my" | "active" | "inprogress" => CaseListPlan::ByStatus(Inprogress),
            "pending" | "draft" => CaseListPlan::ByStatus(Draft),
            "available" | "waiting" => CaseListPlan::ByStatus(Waiting),
            "closed" | "complete" => CaseListPlan::ByStatus(Complete),
            _ => return Err(invalid()),
        },
        Some(Role::Lawyer) => match word.as_str() {
            "" | "my" | "active" | "inprogress" => CaseListPlan::Lawyer(user.uid.clone(), vec![Inprogress]),
            "available" | "waiting" => CaseListPlan::ByStatus(Waiting),
            "closed" | "complete" => CaseListPlan::Lawyer(user.uid.clone(), vec![Complete]),
            "pending" | "draft" => CaseListPlan::Lawyer(user.uid.clone(), vec![Draft]),
            _ => return Err(invalid()),
        },
        Some(Role::Customer | Role::CustomerContact) => {
            let c = acting_customer(user).ok_or(ApiError::Forbidden)?;
            let statuses = match word.as_str() {
                // "Active": published and not closed; drafts ("pending")
                // have their own tab.
                "" | "my" => vec![Waiting, Inprogress],
                "active" | "inprogress" => vec![Inprogress],
                "available" | "waiting" => vec![Waiting],
                "pending" | "draft" => vec![Draft],
                "closed" | "complete" => vec![Complete],
                "all" => vec![],
                _ => return Err(invalid()),
            };
            customer_side_plan(user, c, statuses)
        }
        None => return Err(ApiError::Forbidden),
    })
}

/// The customer side's list of `customer`'s cases in `statuses`: a contact
/// without `view_all_cases` reads the cases it opened (its own pointers,
/// which carry the status), everyone else the company's.
pub fn customer_side_plan(user: &User, customer: String, statuses: Vec<CaseStatus>) -> CaseListPlan {
    if user.role() == Some(Role::CustomerContact) && !holds(user, Permission::ViewAllCases) {
        CaseListPlan::CreatedBy(user.uid.clone(), statuses)
    } else {
        CaseListPlan::Customer(customer, statuses)
    }
}

/// The text a case list's search box looks in: case number, subject,
/// customer and counterpart, folded (lower case, accents and Nordic
/// spellings folded, see [`super::conflict::fold`]) so 'Soderberg' finds
/// 'Söderberg'.
pub fn search_text(c: &Case) -> String {
    super::conflict::fold(&format!("{} {} {} {}", c.case_number, c.subject, c.customer_name, c.counterpart))
}

/// A list search as the store compares it, or None for no search. At most
/// 100 characters are used.
pub fn search_query(raw: &str) -> Option<String> {
    let q: String = super::conflict::fold(raw.trim()).chars().take(100).collect();
    (!q.trim().is_empty()).then(|| q.trim().to_string())
}

/// The order of a case list by creation date.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ListOrder {
    /// Newest first (the spec's default for lists).
    #[default]
    Desc,
    Asc,
}

/// Internal notes are at most this long (characters).
pub const NOTE_MAX_CHARS: usize = super::text::LONG_MAX;

/// A note as it is stored: cleaned ([`super::text`]), not empty, bounded.
pub fn validate_note(text: &str) -> Result<String, ApiError> {
    let text = super::text::clean_long(text);
    if text.is_empty() {
        return Err(ApiError::field("note", Msg::Required));
    }
    if text.chars().count() > NOTE_MAX_CHARS {
        return Err(ApiError::field("note", Msg::TooLong));
    }
    Ok(text)
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
fn date(v: &Option<String>) -> Result<Option<NaiveDate>, Msg> {
    match v.as_deref().map(str::trim) {
        None => Ok(None),
        Some(t) => NaiveDate::parse_from_str(t.get(..10).unwrap_or(t), "%Y-%m-%d")
            .ok()
            .filter(|d| super::date_in_range(*d))
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
    use super::text::{limit, LONG_MAX, NAME_MAX, PARTIES_MAX, SUBJECT_MAX};
    // Required means something visible is left after cleaning.
    if super::text::clean_name(&form.subject).is_empty() {
        f.add("subject", Msg::CaseSubjectRequired);
    }
    limit(&mut f, "subject", form.subject.trim(), SUBJECT_MAX);
    if super::text::clean_long(&form.description).is_empty() {
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
        limit(&mut f, field, value.trim(), max);
    }
    // The country is picked from a list (a code); none is allowed, as the
    // whole address is optional on a case.
    let country = form.address.country.trim();
    let country = if country.is_empty() { Some("") } else { super::country::code(country) };
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
    let start = date(&form.start_date).unwrap_or_else(|_| {
        f.add("start_date", Msg::InvalidDate);
        None
    });
    let deadline = date(&form.deadline).unwrap_or_else(|_| {
        f.add("deadline", Msg::InvalidDate);
        None
    });
    if let (Some(a), Some(b)) = (start, deadline) {
        if b < a {
            f.add("deadline", Msg::DeadlineBeforeStart);
        }
    }
    let counterpart_identity_number =
        super::conflict::parse_identity_number(form.counterpart_identity_number.as_deref().unwrap_or_default()).unwrap_or_else(|k| {
            f.add("counterpart_identity_number", k);
            None
        });
    // Swedish post codes are five digits (spec §5); abroad, up to ten
    // letters, digits, spaces or dashes (e.g. 'SW1A 1AA', '0150').
    let pc = form.address.post_code.trim();
    let swedish = matches!(country, Some("") | Some(super::country::SWEDEN));
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
    let t = super::text::clean_name;
    let long = super::text::clean_long;
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

/// Which creation call a user may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CreateVia {
    /// `case/create/`: sales person, admin.
    Staff,
    /// `case/create/by/customer/`: customer, or a contact holding add_case.
    Customer,
    /// `case/create/by/lawyer/`.
    Lawyer,
}

pub fn may_create(user: &User, via: CreateVia) -> bool {
    matches!(
        (user.role(), via),
        (Some(Role::Admin | Role::SalesPerson), CreateVia::Staff)
            | (Some(Role::Customer | Role::CustomerContact), CreateVia::Customer)
            | (Some(Role::Lawyer), CreateVia::Lawyer)
    )
}

/// The customer a customer or contact acts for.
pub fn acting_customer(user: &User) -> Option<String> {
    match user.role()? {
        Role::Customer => Some(user.uid.clone()),
        Role::CustomerContact => user.customer_id.clone(),
        _ => None,
    }
}

/// Who may read a case: admin and sales persons all; a lawyer the cases
/// assigned to them (or named for a draft: their 'pending' list) and the
/// available (Waiting) ones; the customer its own; a contact its company's
/// with `view_all_cases`, else only the ones it created.
pub fn may_view(user: &User, case: &Case) -> bool {
    match user.role() {
        Some(Role::Admin | Role::SalesPerson) => true,
        Some(Role::Lawyer) => case.status == CaseStatus::Waiting || lawyer_of_list(case) == Some(user.uid.as_str()),
        Some(Role::Customer) => acting_customer(user).as_deref() == Some(case.customer.as_str()),
        Some(Role::CustomerContact) => {
            acting_customer(user).as_deref() == Some(case.customer.as_str())
                && (holds(user, Permission::ViewAllCases) || case.created_by == user.uid)
        }
        None => false,
    }
}

/// Who may edit the fields: admin and sales persons (not once closed, except
/// admin); the assigned lawyer while in progress; the customer side only
/// while the case is still a draft (a contact only with add_case: editing a
/// draft is part of 'create new cases').
pub fn may_edit(user: &User, case: &Case) -> bool {
    match user.role() {
        Some(Role::Admin) => true,
        Some(Role::SalesPerson) => case.status != CaseStatus::Complete,
        // A lawyer also completes the draft they opened, until staff verify it.
        Some(Role::Lawyer) => {
            (case.status == CaseStatus::Inprogress && is_assigned(user, case))
                || (case.status == CaseStatus::Draft && case.created_by == user.uid && lawyer_of_list(case) == Some(user.uid.as_str()))
        }
        Some(Role::Customer | Role::CustomerContact) => {
            case.status == CaseStatus::Draft && may_view(user, case) && holds(user, Permission::AddCase)
        }
        None => false,
    }
}

/// The lawyer whose own lists show the case: the assigned one, or while a
/// draft awaits verification the direct-assign lawyer (a lawyer's own new
/// case, or one staff named a lawyer for), so it shows as their pending case.
pub fn lawyer_of_list(case: &Case) -> Option<&str> {
    match (&case.lawyer, case.status) {
        (Some(l), _) => Some(l),
        (None, CaseStatus::Draft) => case.direct_assign_lawyer.as_deref(),
        (None, _) => None,
    }
}

pub fn is_assigned(user: &User, case: &Case) -> bool {
    case.lawyer.as_deref() == Some(user.uid.as_str())
}

/// The status actions of spec §4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Transition {
    /// Staff verified the case: Draft → Waiting (or straight to the
    /// direct-assign lawyer: Draft → Inprogress).
    Publish,
    /// A lawyer takes an available case: Waiting → Inprogress.
    Accept,
    /// Inprogress → Complete.
    Complete,
    /// Complete → Inprogress.
    Reopen,
    /// Back to available: Inprogress → Waiting.
    Transfer,
    /// The customer side takes back its draft: Draft → Withdrawn.
    Withdraw,
}

pub const ONLY_WAITING_CAN_START: Msg = Msg::OnlyWaitingCanStart;
pub const ONLY_IN_PROGRESS_CAN_COMPLETE: Msg = Msg::OnlyInProgressCanComplete;
pub const STATUS_CHANGE_NOT_ALLOWED: Msg = Msg::StatusChangeNotAllowed;

/// The outcome of an allowed transition: the new status and lawyer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    pub status: CaseStatus,
    pub lawyer: Option<String>,
}

/// The state machine. Who first (an unauthorised user learns nothing about
/// the status), then the status precondition. `direct_lawyer_ok` tells
/// whether the direct-assign lawyer (if any) is an active lawyer.
pub fn transition(user: &User, case: &Case, t: Transition) -> Result<Moved, Msg> {
    let role = user.role();
    let admin = role == Some(Role::Admin);
    let assigned = role == Some(Role::Lawyer) && is_assigned(user, case);
    match t {
        Transition::Publish => {
            if !admin {
                return Err(STATUS_CHANGE_NOT_ALLOWED);
            }
            if case.status != CaseStatus::Draft {
                return Err(STATUS_CHANGE_NOT_ALLOWED);
            }
            Ok(match &case.direct_assign_lawyer {
                Some(l) => Moved { status: CaseStatus::Inprogress, lawyer: Some(l.clone()) },
                None => Moved { status: CaseStatus::Waiting, lawyer: None },
            })
        }
        Transition::Accept => {
            if role != Some(Role::Lawyer) {
                return Err(STATUS_CHANGE_NOT_ALLOWED);
            }
            if case.status != CaseStatus::Waiting {
                return Err(ONLY_WAITING_CAN_START);
            }
            Ok(Moved { status: CaseStatus::Inprogress, lawyer: Some(user.uid.clone()) })
        }
        Transition::Complete => {
            if !(admin || assigned) {
                return Err(STATUS_CHANGE_NOT_ALLOWED);
            }
            if case.status != CaseStatus::Inprogress {
                return Err(ONLY_IN_PROGRESS_CAN_COMPLETE);
            }
            Ok(Moved { status: CaseStatus::Complete, lawyer: case.lawyer.clone() })
        }
        Transition::Reopen => {
            if !(admin || assigned) || case.status != CaseStatus::Complete {
                return Err(STATUS_CHANGE_NOT_ALLOWED);
            }
            if case.lawyer.is_none() {
                // Nobody to work on it: it goes back to the available list.
                return Ok(Moved { status: CaseStatus::Waiting, lawyer: None });
            }
            Ok(Moved { status: CaseStatus::Inprogress, lawyer: case.lawyer.clone() })
        }
        Transition::Transfer => {
            if !(admin || assigned) || case.status != CaseStatus::Inprogress {
                return Err(STATUS_CHANGE_NOT_ALLOWED);
            }
            Ok(Moved { status: CaseStatus::Waiting, lawyer: None })
        }
        Transition::Withdraw => {
            // Whoever on the customer side may edit the draft (the customer;
            // a contact with add_case) may take it back, and only a draft.
            if !matches!(role, Some(Role::Customer | Role::CustomerContact)) || !may_view(user, case) || !holds(user, Permission::AddCase) {
                return Err(STATUS_CHANGE_NOT_ALLOWED);
            }
            if case.status != CaseStatus::Draft {
                return Err(Msg::OnlyDraftCanBeWithdrawn);
            }
            Ok(Moved { status: CaseStatus::Withdrawn, lawyer: None })
        }
    }
}

/// A change recorded in the case history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct HistoryEntry {
    pub case_uid: String,
    #[schema(value_type = String)]
    pub at: DateTime<Utc>,
    /// uid of who made the change.
    pub by: String,
    pub by_name: String,
    /// `status`, `subject`, `hour`, `created`...
    pub field: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

impl HistoryEntry {
    /// A change of `field` of a case by `by`, now.
    pub fn new(case_uid: &str, by: &User, field: &str, before: Option<String>, after: Option<String>) -> Self {
        HistoryEntry {
            case_uid: case_uid.into(),
            at: Utc::now(),
            by: by.uid.clone(),
            by_name: by.full_name(),
            field: field.into(),
            before,
            after,
        }
    }
}

/// The history of a status action: the status, and the lawyer when it changed.
pub fn status_history(by: &User, before: &Case, after: &Case) -> Vec<HistoryEntry> {
    let mut h =
        vec![HistoryEntry::new(&after.uid, by, "status", Some(format!("{:?}", before.status)), Some(format!("{:?}", after.status)))];
    if before.lawyer != after.lawyer {
        h.push(HistoryEntry::new(&after.uid, by, "lawyer", before.lawyer_name.clone(), after.lawyer_name.clone()));
    }
    h
}

/// The history of an edit: one entry per changed field.
pub fn edit_history(by: &User, before: &Case, after: &Case) -> Vec<HistoryEntry> {
    diff(before, after).into_iter().map(|(f, a, b)| HistoryEntry::new(&after.uid, by, &f, Some(a), Some(b))).collect()
}

/// The field-by-field differences of an edit, for the history.
pub fn diff(old: &Case, new: &Case) -> Vec<(String, String, String)> {
    let a = serde_json::to_value(old).unwrap_or_default();
    let b = serde_json::to_value(new).unwrap_or_default();
    let mut out = Vec::new();
    if let (Some(a), Some(b)) = (a.as_object(), b.as_object()) {
        for (k, va) in a {
            if k == "updated_at" {
                continue;
            }
            let vb = b.get(k).cloned().unwrap_or_default();
            if *va != vb {
                let show = |v: &serde_json::Value| match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                out.push((k.clone(), show(va), show(&vb)));
            }
        }
    }
    out
}

/// Spec §3 case hour.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CaseHour {
    pub id: String,
    pub case_uid: String,
    pub lawyer: String,
    pub lawyer_name: String,
    /// Billable: consumes the customer's hour subscription.
    pub hour: Hundredths,
    pub non_billable_hour: Hundredths,
    pub rattsskydd_hour: Hundredths,
    #[schema(value_type = String)]
    pub date: NaiveDate,
    /// "HH:MM" or empty.
    pub time: String,
    pub is_invoiced: bool,
    /// The purchased service row the billable hours were booked against.
    pub service: Option<u64>,
    pub description: String,
    #[schema(value_type = String)]
    pub created_at: DateTime<Utc>,
}

impl CaseHour {
    /// How the history shows an entry.
    pub fn summary(&self) -> String {
        format!(
            "{} {} h (non-billable {}, rättsskydd {})",
            self.date,
            self.hour.to_decimal_string(),
            self.non_billable_hour.to_decimal_string(),
            self.rattsskydd_hour.to_decimal_string()
        )
    }
}

/// An entry's history text with its invoiced flag (bulk changes).
pub fn invoiced_text(summary: String, invoiced: bool) -> String {
    format!("{summary} · {}", if invoiced { "invoiced" } else { "not invoiced" })
}

#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
pub struct HourForm {
    /// Billable hours, two decimals; the three kinds together at least 0.01.
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 10000)]
    pub hour: Option<serde_json::Value>,
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 10000)]
    pub non_billable_hour: Option<serde_json::Value>,
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 10000)]
    pub rattsskydd_hour: Option<serde_json::Value>,
    /// Years 1900 to 2100.
    #[schema(required = true, format = Date)]
    pub date: Option<String>,
    /// "HH:MM", or empty.
    #[serde(default)]
    #[schema(pattern = "^(([01][0-9]|2[0-3]):[0-5][0-9])?$", example = "09:00")]
    pub time: String,
    #[serde(default)]
    pub is_invoiced: bool,
    #[serde(default)]
    #[schema(max_length = 10000)]
    pub description: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct HourInput {
    pub hour: Hundredths,
    pub non_billable_hour: Hundredths,
    pub rattsskydd_hour: Hundredths,
    pub date: NaiveDate,
    pub time: String,
    pub is_invoiced: bool,
    pub description: String,
}

/// Hours are non-negative with two decimals (comma allowed), at least one
/// of them at least 0.01 (spec §9); a date is required.
pub fn validate_hours(form: &HourForm) -> Result<HourInput, ApiError> {
    let mut f = FieldErrors::new();
    let mut get = |name: &str, v: Option<&serde_json::Value>| match hours(v) {
        Ok(Some(h)) if h.0 >= 0 => h,
        Ok(None) => Hundredths::ZERO,
        Err(Msg::HoursTooLarge) => {
            f.add(name, Msg::HoursTooLarge);
            Hundredths::ZERO
        }
        _ => {
            f.add(name, Msg::InvalidHours);
            Hundredths::ZERO
        }
    };
    let hour = get("hour", form.hour.as_ref());
    let non_billable_hour = get("non_billable_hour", form.non_billable_hour.as_ref());
    let rattsskydd_hour = get("rattsskydd_hour", form.rattsskydd_hour.as_ref());
    if f.is_empty() && (hour + non_billable_hour + rattsskydd_hour).0 < 1 {
        f.add("hour", Msg::HourMin);
    }
    let d = match date(&form.date) {
        Ok(Some(d)) => Some(d),
        Ok(None) => {
            f.add("date", Msg::Required);
            None
        }
        Err(_) => {
            f.add("date", Msg::InvalidDate);
            None
        }
    };
    let description = super::text::clean_long(&form.description);
    super::text::limit(&mut f, "description", &description, super::text::LONG_MAX);
    let time = form.time.trim().to_string();
    if !time.is_empty() && chrono::NaiveTime::parse_from_str(&time, "%H:%M").is_err() {
        f.add("time", Msg::InvalidTime);
    }
    // Validation by construction: the date exists exactly when no field failed.
    let (Some(date), true) = (d, f.is_empty()) else {
        return Err(ApiError::validation(f));
    };
    Ok(HourInput { hour, non_billable_hour, rattsskydd_hour, date, time, is_invoiced: form.is_invoiced, description })
}

pub const ONLY_LAWYER_ENTERS_HOURS: Msg = Msg::OnlyLawyerEntersHours;
pub const CASE_NOT_ASSIGNED: Msg = Msg::CaseNotAssigned;

/// Spec §6: only lawyers enter their own hours, on a case assigned to them;
/// admin must name the lawyer (who must be the assigned one). Returns the
/// lawyer the hours are for.
pub fn hour_author(user: &User, case: &Case, named_lawyer: Option<&str>) -> Result<String, ApiError> {
    let lawyer = match user.role() {
        Some(Role::Lawyer) => user.uid.clone(),
        Some(Role::Admin) => {
            named_lawyer.filter(|l| !l.trim().is_empty()).ok_or(ApiError::bad(ONLY_LAWYER_ENTERS_HOURS))?.trim().to_string()
        }
        _ => return Err(ApiError::ForbiddenBy(ONLY_LAWYER_ENTERS_HOURS)),
    };
    if case.lawyer.as_deref() != Some(lawyer.as_str()) {
        return Err(ApiError::bad(CASE_NOT_ASSIGNED));
    }
    if case.status != CaseStatus::Inprogress {
        return Err(ApiError::bad(Msg::CaseNotInProgress));
    }
    Ok(lawyer)
}

/// Who may mark a case's hour entries invoiced or not. Invoicing is
/// bookkeeping that usually follows the closing, so admin may do it on any
/// entry at any time (`Ok(None)`: every lawyer's entries); the assigned
/// lawyer only their own while they may still change them (`Ok(Some(uid))`).
pub fn invoicing_author(user: &User, case: &Case) -> Result<Option<String>, ApiError> {
    match user.role() {
        Some(Role::Admin) => Ok(None),
        _ => hour_author(user, case, None).map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::user::tests_support::sample;

    /// The keys a refused form has on `field` (empty when it was accepted or refused otherwise).
    fn field_keys<T: std::fmt::Debug>(r: Result<T, ApiError>, field: &str) -> Vec<Msg> {
        match r {
            Err(ApiError::BadRequest { fields, .. }) => fields.get(field).to_vec(),
            other => panic!("expected refused fields, got {other:?}"),
        }
    }

    fn user(role: Role, uid: &str) -> User {
        let mut u = sample(role.user_type());
        u.is_staff = role == Role::Admin;
        u.uid = uid.into();
        if role == Role::CustomerContact {
            u.customer_id = Some("cust".into());
            u.permissions = vec![Permission::ViewAllCases];
        }
        u
    }

    fn case(status: CaseStatus, lawyer: Option<&str>) -> Case {
        let draft = Case::draft(
            "c1".into(),
            "2026-000001".into(),
            "cust".into(),
            "Acme".into(),
            CaseType { id: 1, name: "T".into(), name_en: None },
            "x".into(),
            Utc::now(),
        );
        Case {
            status,
            lawyer: lawyer.map(String::from),
            subject: "S".into(),
            description: "D".into(),
            estimated_hours: Hundredths(100),
            ..draft
        }
    }

    use CaseStatus::{Draft, Inprogress, Waiting};
    use Transition::{Accept, Publish, Reopen, Transfer};

    #[test]
    fn who_may_mark_hours_invoiced() {
        let admin = user(Role::Admin, "adm");
        let law = user(Role::Lawyer, "law");
        for s in [Inprogress, CaseStatus::Complete] {
            let c = case(s, Some("law"));
            assert_eq!(invoicing_author(&admin, &c).unwrap(), None, "{s:?}");
            assert_eq!(invoicing_author(&law, &c).ok(), (s == Inprogress).then(|| Some("law".to_string())), "{s:?}");
            assert_eq!(invoicing_author(&user(Role::Lawyer, "other"), &c).unwrap_err().key(), CASE_NOT_ASSIGNED, "{s:?}");
            assert_eq!(invoicing_author(&user(Role::SalesPerson, "sp"), &c).unwrap_err().key(), ONLY_LAWYER_ENTERS_HOURS);
            assert_eq!(invoicing_author(&user(Role::Customer, "cust"), &c).unwrap_err().key(), ONLY_LAWYER_ENTERS_HOURS);
        }
    }

    #[test]
    fn hours_and_dates_are_bounded() {
        let form = |h: serde_json::Value| CaseForm {
            subject: "S".into(),
            description: "D".into(),
            case_type: Some(serde_json::json!(1)),
            estimated_hours: Some(h),
            ..Default::default()
        };
        let e = validate(&form(serde_json::json!("92233720368547758,07"))).unwrap_err();
        assert_eq!(e.fields()["estimated_hours"], vec![Msg::HourMin]);
        let e = validate(&form(serde_json::json!("10000,01"))).unwrap_err();
        assert_eq!(e.fields()["estimated_hours"], vec![Msg::HoursTooLarge]);
        assert!(validate(&form(serde_json::json!(10000))).is_ok());
        let mut dated = form(serde_json::json!(1));
        dated.start_date = Some("0999-01-01".into());
        dated.deadline = Some("2101-01-01".into());
        let e = validate(&dated).unwrap_err();
        assert_eq!(e.fields()["start_date"], vec![Msg::InvalidDate]);
        assert_eq!(e.fields()["deadline"], vec![Msg::InvalidDate]);
        // No date is null, never an empty text (the document's `format: date`).
        dated.start_date = Some(String::new());
        dated.deadline = None;
        assert_eq!(validate(&dated).unwrap_err().fields()["start_date"], vec![Msg::InvalidDate]);
        let hour = |h: &str, date: &str| HourForm { hour: Some(serde_json::json!(h)), date: Some(date.into()), ..Default::default() };
        assert_eq!(validate_hours(&hour("9223372036854775807", "2026-01-01")).unwrap_err().fields()["hour"], vec![Msg::InvalidHours]);
        assert_eq!(validate_hours(&hour("10001", "2026-01-01")).unwrap_err().fields()["hour"], vec![Msg::HoursTooLarge]);
        assert_eq!(validate_hours(&hour("1", "0001-01-01")).unwrap_err().fields()["date"], vec![Msg::InvalidDate]);
        assert!(validate_hours(&hour("10000", "1900-01-01")).is_ok());
    }

    #[test]
    fn the_customer_side_never_sets_staff_only_fields() {
        let form = CaseForm {
            subject: "S".into(),
            description: "D".into(),
            case_type: Some(serde_json::json!(1)),
            estimated_hours: Some(serde_json::json!("2,5")),
            direct_assign_lawyer: Some("law".into()),
            short_internal_description: "chosen by the customer".into(),
            ..Default::default()
        };
        let t = CaseType { id: 1, name: "T".into(), name_en: None };
        let sector = Some(KnowledgeSector { id: 7, name: "Hyresrätt".into(), name_en: None });
        let draft = case(Draft, None);
        let mut contact = user(Role::CustomerContact, "cc");
        contact.permissions = vec![Permission::AddCase, Permission::ViewAllCases];
        for who in [user(Role::Customer, "cust"), contact] {
            let input = validate_by(&who, &form).unwrap();
            // A new case: neither field is taken from the form.
            let created = with_form(&who, &draft, None, input.clone(), t.clone(), sector.clone());
            assert_eq!((created.direct_assign_lawyer.as_deref(), created.short_internal_description.as_str()), (None, ""));
            assert_eq!(created.knowledge_sector, None);
            // An edit keeps what staff set.
            let mut staffed = draft.clone();
            staffed.direct_assign_lawyer = Some("staff's pick".into());
            staffed.short_internal_description = "staff's words".into();
            staffed.knowledge_sector = Some(KnowledgeSector { id: 8, name: "Arbetsrätt".into(), name_en: None });
            let edited = with_form(&who, &staffed, Some(&staffed), input, t.clone(), sector.clone());
            assert_eq!(edited.knowledge_sector.as_ref().map(|s| s.id), Some(8));
            assert_eq!(edited.direct_assign_lawyer.as_deref(), Some("staff's pick"));
            assert_eq!(edited.short_internal_description, "staff's words");
        }
        // Staff set both; a lawyer sets the internal description and names
        // only themselves on their own new case.
        let input = validate(&form).unwrap();
        let by_sales = with_form(&user(Role::SalesPerson, "sp"), &draft, None, input.clone(), t.clone(), sector.clone());
        assert_eq!(by_sales.knowledge_sector, sector);
        assert_eq!(
            (by_sales.direct_assign_lawyer.as_deref(), by_sales.short_internal_description.as_str()),
            (Some("law"), "chosen by the customer")
        );
        let other = with_form(&user(Role::Lawyer, "other"), &draft, None, input.clone(), t.clone(), None);
        assert_eq!(other.knowledge_sector, None);
        assert_eq!((other.direct_assign_lawyer.as_deref(), other.short_internal_description.as_str()), (None, "chosen by the customer"));
        let own = with_form(&user(Role::Lawyer, "law"), &draft, None, input, t, sector.clone());
        assert_eq!(own.knowledge_sector, sector);
        assert_eq!(own.direct_assign_lawyer.as_deref(), Some("law"));
    }

    #[test]
    fn the_knowledge_sector_is_an_id_or_none() {
        let form = |v: Option<serde_json::Value>| CaseForm {
            subject: "S".into(),
            description: "D".into(),
            case_type: Some(serde_json::json!(1)),
            estimated_hours: Some(serde_json::json!("2")),
            knowledge_sector: v,
            ..Default::default()
        };
        assert_eq!(validate(&form(None)).unwrap().knowledge_sector, None);
        assert_eq!(validate(&form(Some(serde_json::json!("")))).unwrap().knowledge_sector, None);
        assert_eq!(validate(&form(Some(serde_json::json!(3)))).unwrap().knowledge_sector, Some(3));
        assert_eq!(validate(&form(Some(serde_json::json!(" 4 ")))).unwrap().knowledge_sector, Some(4));
        for bad in [serde_json::json!("x"), serde_json::json!(-1), serde_json::json!([1])] {
            assert_eq!(field_keys(validate(&form(Some(bad.clone()))), "knowledge_sector"), [Msg::UnknownKnowledgeSector], "{bad}");
        }
    }

    #[test]
    fn who_may_edit() {
        let admin = user(Role::Admin, "adm");
        let law = user(Role::Lawyer, "law");
        let other = user(Role::Lawyer, "other");
        let sales = user(Role::SalesPerson, "sp");
        let cust = user(Role::Customer, "cust");
        let stranger = user(Role::Customer, "someone-else");
        let mut contact = user(Role::CustomerContact, "cc");
        let statuses = [Draft, Waiting, Inprogress, CaseStatus::Complete];
        for s in statuses {
            let c = case(s, if matches!(s, Inprogress | CaseStatus::Complete) { Some("law") } else { None });
            assert!(may_edit(&admin, &c), "{s:?}");
            assert_eq!(may_edit(&sales, &c), s != CaseStatus::Complete, "{s:?}");
            assert_eq!(may_edit(&law, &c), s == Inprogress, "{s:?}");
            assert!(!may_edit(&other, &c), "{s:?}");
            assert_eq!(may_edit(&cust, &c), s == Draft, "{s:?}");
            assert!(!may_edit(&stranger, &c), "{s:?}");
            contact.permissions = vec![Permission::ViewAllCases];
            assert!(!may_edit(&contact, &c), "{s:?}");
            contact.permissions = vec![Permission::AddCase, Permission::ViewAllCases];
            assert_eq!(may_edit(&contact, &c), s == Draft, "{s:?}");
        }
        // A lawyer's own draft: they see and edit it until staff verify it;
        // a lawyer staff merely named sees it but does not edit it.
        let mut own = case(Draft, None);
        own.direct_assign_lawyer = Some("law".into());
        own.created_by = "law".into();
        assert!(may_view(&law, &own) && may_edit(&law, &own));
        assert!(!may_view(&other, &own) && !may_edit(&other, &own));
        assert_eq!(lawyer_of_list(&own), Some("law"));
        own.created_by = "sp".into();
        assert!(may_view(&law, &own) && !may_edit(&law, &own));
        own.status = Waiting;
        assert_eq!(lawyer_of_list(&own), None);
        assert!(!may_edit(&law, &own));
    }

    #[test]
    fn every_transition_allowed_and_refused() {
        let admin = user(Role::Admin, "adm");
        let law = user(Role::Lawyer, "law");
        let other = user(Role::Lawyer, "other");
        let sales = user(Role::SalesPerson, "sp");
        let cust = user(Role::Customer, "cust");
        let contact = user(Role::CustomerContact, "cc");
        let statuses = [Draft, Waiting, Inprogress, CaseStatus::Complete, CaseStatus::Withdrawn];
        let ts = [Publish, Accept, Transition::Complete, Reopen, Transfer, Transition::Withdraw];
        for s in statuses {
            for t in ts {
                for u in [&admin, &law, &other, &sales, &cust, &contact] {
                    let c = case(s, if matches!(s, Inprogress | CaseStatus::Complete) { Some("law") } else { None });
                    let got = transition(u, &c, t);
                    let role = u.role().unwrap();
                    let expected: Result<CaseStatus, Msg> = match (t, role, s) {
                        (Publish, Role::Admin, Draft) => Ok(Waiting),
                        (Publish, _, _) => Err(STATUS_CHANGE_NOT_ALLOWED),
                        (Accept, Role::Lawyer, Waiting) => Ok(Inprogress),
                        (Accept, Role::Lawyer, _) => Err(ONLY_WAITING_CAN_START),
                        (Accept, _, _) => Err(STATUS_CHANGE_NOT_ALLOWED),
                        (Transition::Complete, Role::Admin, Inprogress) => Ok(CaseStatus::Complete),
                        (Transition::Complete, Role::Admin, _) => Err(ONLY_IN_PROGRESS_CAN_COMPLETE),
                        (Transition::Complete, Role::Lawyer, st) if u.uid == "law" && c.lawyer.is_some() => {
                            if st == Inprogress {
                                Ok(CaseStatus::Complete)
                            } else {
                                Err(ONLY_IN_PROGRESS_CAN_COMPLETE)
                            }
                        }
                        (Transition::Complete, _, _) => Err(STATUS_CHANGE_NOT_ALLOWED),
                        (Reopen, Role::Admin, CaseStatus::Complete) => Ok(Inprogress),
                        (Reopen, Role::Lawyer, CaseStatus::Complete) if u.uid == "law" => Ok(Inprogress),
                        (Reopen, _, _) => Err(STATUS_CHANGE_NOT_ALLOWED),
                        (Transfer, Role::Admin, Inprogress) => Ok(Waiting),
                        (Transfer, Role::Lawyer, Inprogress) if u.uid == "law" => Ok(Waiting),
                        (Transfer, _, _) => Err(STATUS_CHANGE_NOT_ALLOWED),
                        // The customer side's own draft, taken back by whoever may edit it.
                        (Transition::Withdraw, Role::Customer | Role::CustomerContact, st)
                            if may_view(u, &c) && holds(u, Permission::AddCase) =>
                        {
                            if st == Draft {
                                Ok(CaseStatus::Withdrawn)
                            } else {
                                Err(Msg::OnlyDraftCanBeWithdrawn)
                            }
                        }
                        (Transition::Withdraw, _, _) => Err(STATUS_CHANGE_NOT_ALLOWED),
                    };
                    assert_eq!(got.as_ref().map(|m| m.status).map_err(|e| *e), expected, "{t:?} by {} ({role:?}) from {s:?}", u.uid);
                }
            }
        }
    }

    #[test]
    fn accept_assigns_and_transfer_clears_the_lawyer() {
        let law = user(Role::Lawyer, "law");
        let m = transition(&law, &case(Waiting, None), Accept).unwrap();
        assert_eq!(m.lawyer.as_deref(), Some("law"));
        let m = transition(&law, &case(Inprogress, Some("law")), Transfer).unwrap();
        assert_eq!(m.lawyer, None);
        let mut c = case(Draft, None);
        c.direct_assign_lawyer = Some("law".into());
        let m = transition(&user(Role::Admin, "a"), &c, Publish).unwrap();
        assert_eq!(m, Moved { status: Inprogress, lawyer: Some("law".into()) });
    }

    #[test]
    fn visibility() {
        let c = case(Waiting, None);
        assert!(may_view(&user(Role::Lawyer, "any"), &c));
        let c = case(Inprogress, Some("law"));
        assert!(may_view(&user(Role::Lawyer, "law"), &c));
        assert!(!may_view(&user(Role::Lawyer, "other"), &c));
        assert!(may_view(&user(Role::Customer, "cust"), &c));
        assert!(may_view(&user(Role::CustomerContact, "cc"), &c));
        assert!(!may_view(&user(Role::Customer, "someone"), &c));
        assert!(may_view(&user(Role::SalesPerson, "sp"), &c));
    }

    #[test]
    fn a_contact_without_view_all_cases_sees_only_the_cases_it_created() {
        let mut own = user(Role::CustomerContact, "cc");
        own.permissions = vec![Permission::AddCase];
        let mut c = case(Inprogress, Some("law"));
        assert!(!may_view(&own, &c), "another's case of the company");
        assert!(!may_edit(&own, &case(Draft, None)));
        c.created_by = "cc".into();
        assert!(may_view(&own, &c));
        let mut draft = case(Draft, None);
        draft.created_by = "cc".into();
        assert!(may_edit(&own, &draft));
        // Another company's case stays hidden whoever made it.
        c.customer = "someone-else".into();
        assert!(!may_view(&own, &c));
        // Every list of the contact asks only for its own cases.
        for word in ["", "active", "draft", "closed", "all", "waiting"] {
            match list_plan(&own, word).unwrap() {
                CaseListPlan::CreatedBy(uid, _) => assert_eq!(uid, "cc"),
                other => panic!("{word}: {other:?}"),
            }
        }
        assert!(matches!(list_plan(&user(Role::CustomerContact, "cc"), "").unwrap(), CaseListPlan::Customer(..)));
    }

    #[test]
    fn spec_section_5_required_fields() {
        let err = validate(&CaseForm::default()).unwrap_err();
        let f = err.fields();
        assert_eq!(f["subject"], vec![Msg::CaseSubjectRequired]);
        assert_eq!(f["description"], vec![Msg::CaseDescriptionRequired]);
        assert_eq!(f["type"], vec![Msg::CaseTypeRequired]);
        assert_eq!(f["estimated_hours"], vec![Msg::EstimatedHoursRequired]);
        let form = CaseForm {
            subject: " Lease ".into(),
            description: "d".into(),
            case_type: Some(serde_json::json!(3)),
            estimated_hours: Some(serde_json::json!("1,5")),
            start_date: Some("2026-01-10".into()),
            deadline: Some("2026-01-01".into()),
            ..Default::default()
        };
        assert_eq!(validate(&form).unwrap_err().fields()["deadline"], vec![Msg::DeadlineBeforeStart]);
        let form = CaseForm { deadline: None, ..form };
        let ok = validate(&form).unwrap();
        assert_eq!(ok.subject, "Lease");
        assert_eq!(ok.estimated_hours, Some(Hundredths(150)));
        let bad = CaseForm { estimated_hours: Some(serde_json::json!("0")), ..form.clone() };
        assert_eq!(validate(&bad).unwrap_err().fields()["estimated_hours"], vec![Msg::HourMin]);
        // Zero-width spaces are no subject; escapes and overrides are stripped.
        let blank = CaseForm { subject: "\u{200B}\u{200B}".into(), description: "\u{FEFF}".into(), ..form.clone() };
        let f = validate(&blank).unwrap_err().fields();
        assert_eq!(f["subject"], vec![Msg::CaseSubjectRequired]);
        assert_eq!(f["description"], vec![Msg::CaseDescriptionRequired]);
        let dirty = CaseForm { description: "a\u{1b}[31m\r\nb\u{202E}".into(), ..form.clone() };
        assert_eq!(validate(&dirty).unwrap().description, "a\nb");
        // The customer side may leave the estimate out; staff may not.
        let none = CaseForm { estimated_hours: None, ..form };
        let customer = user(Role::Customer, "c");
        assert_eq!(validate_by(&customer, &none).unwrap().estimated_hours, None);
        assert_eq!(validate_by(&customer, &bad).unwrap_err().fields()["estimated_hours"], vec![Msg::HourMin]);
        assert_eq!(
            validate_by(&user(Role::SalesPerson, "s"), &none).unwrap_err().fields()["estimated_hours"],
            vec![Msg::EstimatedHoursRequired]
        );
    }

    #[test]
    fn address_country_is_a_code_and_the_post_code_follows_it() {
        let base = CaseForm {
            subject: "Lease".into(),
            description: "d".into(),
            case_type: Some(serde_json::json!(3)),
            estimated_hours: Some(serde_json::json!(2)),
            ..Default::default()
        };
        let with = |country: &str, post_code: &str| CaseForm {
            address: CaseAddress { address_1: "Gata 1".into(), city: "Stad".into(), country: country.into(), post_code: post_code.into() },
            ..base.clone()
        };
        assert_eq!(validate(&with("se", "11122")).unwrap().address.country, "SE");
        assert_eq!(validate(&with("", "11122")).unwrap().address.country, "");
        assert_eq!(validate(&with("Sweden", "11122")).unwrap_err().fields()["address.country"], vec![Msg::InvalidCountry]);
        assert_eq!(validate(&with("XK", "")).unwrap_err().fields()["address.country"], vec![Msg::InvalidCountry]);
        // Swedish post codes are five digits; abroad the form differs.
        assert_eq!(validate(&with("SE", "0150")).unwrap_err().fields()["address.post_code"], vec![Msg::InvalidPostCode]);
        assert_eq!(validate(&with("NO", "0150")).unwrap().address.post_code, "0150");
        assert_eq!(validate(&with("GB", "SW1A 1AA")).unwrap().address.post_code, "SW1A 1AA");
        assert_eq!(validate(&with("GB", "SW1A<1AA>")).unwrap_err().fields()["address.post_code"], vec![Msg::InvalidPostCode]);
    }

    #[test]
    fn a_stored_country_name_is_read_as_its_code() {
        let a: CaseAddress = serde_json::from_value(serde_json::json!({"country": "Sweden"})).unwrap();
        assert_eq!(a.country, "SE");
        let a: CaseAddress = serde_json::from_value(serde_json::json!({"country": "Atlantis"})).unwrap();
        assert_eq!(a.country, "Atlantis", "an unknown text is kept, not lost");
        let a: CaseAddress = serde_json::from_value(serde_json::json!({})).unwrap();
        assert_eq!(a.country, "");
    }

    #[test]
    fn hour_rules() {
        let form = HourForm { hour: Some(serde_json::json!("1,5")), date: Some("2026-03-01".into()), ..Default::default() };
        let ok = validate_hours(&form).unwrap();
        assert_eq!(ok.hour, Hundredths(150));
        assert_eq!(
            field_keys(validate_hours(&HourForm { hour: Some(serde_json::json!("-1")), ..form.clone() }), "hour"),
            [Msg::InvalidHours]
        );
        assert_eq!(field_keys(validate_hours(&HourForm { hour: None, ..form.clone() }), "hour"), [Msg::HourMin]);
        assert_eq!(field_keys(validate_hours(&HourForm { date: None, ..form }), "date"), [Msg::Required]);
        let c = case(Inprogress, Some("law"));
        assert_eq!(hour_author(&user(Role::Lawyer, "law"), &c, None).unwrap(), "law");
        assert_eq!(hour_author(&user(Role::Lawyer, "x"), &c, None).unwrap_err().key(), CASE_NOT_ASSIGNED);
        assert_eq!(hour_author(&user(Role::Admin, "a"), &c, None).unwrap_err().key(), ONLY_LAWYER_ENTERS_HOURS);
        assert_eq!(hour_author(&user(Role::Admin, "a"), &c, Some("law")).unwrap(), "law");
        assert_eq!(hour_author(&user(Role::Customer, "cust"), &c, None).unwrap_err().status(), 403);
    }
}

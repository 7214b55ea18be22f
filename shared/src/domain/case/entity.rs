//! The case as stored (spec §3): its status, address, type, files, and the
//! creation calls.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::catalogue::Hundredths;

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
    /// ISO 3166-1 alpha-2 code (see [`crate::domain::country`]); older cases' names
    /// are read as codes where they can be.
    #[serde(default, deserialize_with = "crate::domain::country::deserialize_normalized")]
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
        crate::domain::catalogue::localized(&self.name, self.name_en.as_deref(), lang)
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

/// A stored case document (uploaded and checked, see [`crate::domain::document`]).
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
    /// The customer-side users (the customer's own account, its contacts)
    /// who follow the case: they see it as if they had opened it and hear
    /// of it like its customer (spec §3: a contact without "view all
    /// cases" sees the cases it created or follows). At most
    /// [`MAX_FOLLOWERS`]; kept on the case so the policy decides from the
    /// case alone, and so adding one is a write on the case's revision.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub followers: Vec<String>,
    /// Set when its customer was erased (GDPR art. 17) while the firm must
    /// still keep the file: the case is frozen, every write refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal_hold: Option<LegalHold>,
}

/// How many users may follow one case: every write of the case rewrites a
/// list pointer per follower in its transaction (at most 100 items), so
/// the number is bounded well below that.
pub const MAX_FOLLOWERS: usize = 25;

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
            followers: vec![],
            legal_hold: None,
        }
    }
}

/// Why and until when a case is kept, frozen, after its customer was erased.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LegalHold {
    #[schema(value_type = String)]
    pub since: DateTime<Utc>,
    /// The end of the case file's retention (None while the matter is not
    /// closed: kept until its retention, which starts when it closes, ends).
    #[schema(value_type = Option<String>)]
    pub until: Option<NaiveDate>,
}

/// The human-readable case number: the year of creation and a running
/// number, e.g. "2026-000012".
pub fn case_number(created_at: DateTime<Utc>, running: u64) -> String {
    format!("{}-{running:06}", created_at.format("%Y"))
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

#[cfg(test)]
pub(crate) mod tests_support {
    use super::*;

    /// Case "c1" of `customer` (company "Acme", type "T"), opened `at` by
    /// `created_by`, in `status` with `lawyer`.
    pub fn sample(customer: &str, created_by: &str, status: CaseStatus, lawyer: Option<&str>, at: DateTime<Utc>) -> Case {
        let draft = Case::draft(
            "c1".into(),
            "2026-000001".into(),
            customer.into(),
            "Acme".into(),
            CaseType { id: 1, name: "T".into(), name_en: None },
            created_by.into(),
            at,
        );
        Case { status, lawyer: lawyer.map(String::from), ..draft }
    }
}

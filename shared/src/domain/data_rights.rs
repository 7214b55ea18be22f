//! The client's data rights (GDPR art. 15 and 20): an export of everything
//! the platform holds about a customer, built in the background as one ZIP
//! (a JSON file per kind of record, plus the files) that can be downloaded
//! for [`EXPORT_DAYS`] days.
//!
//! What goes into an export is decided here, on plain JSON, so the rule
//! "never a secret, never a staff-internal note" is tested without AWS.
//!
//! Erasure (GDPR art. 17): the customer asks, admin approves or refuses
//! with a reason. On approval what no law requires to keep is erased at
//! once; the cases (their files) are kept under legal hold until their
//! retention ends, and the customer is told what was kept and until when.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::error::ApiError;

/// How long a finished export can be downloaded (its object is then removed).
pub const EXPORT_DAYS: i64 = 7;

/// A running export whose worker stopped (a crash, a timeout) no longer
/// blocks a new one after this long.
pub const EXPORT_STALE_MINUTES: i64 = 30;

/// Where an export is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExportState {
    /// Asked for; the worker has not started.
    Queued,
    /// Being gathered (`step` of `steps`).
    Running,
    /// Downloadable until `expires_at`.
    Ready,
    /// The worker failed; a new export may be asked for.
    Failed,
    /// Past `expires_at`: the file is gone.
    Expired,
}

/// The parts of an export, in the order the worker gathers them (its
/// progress is the index of the part it is on).
pub const PARTS: [&str; 10] =
    ["profile", "contacts", "cases", "subscriptions", "services", "notifications", "support", "audit", "files", "archive"];

/// One export of one customer's data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DataExport {
    pub id: String,
    pub customer_uid: String,
    /// Who asked (the customer, or admin for it).
    pub requested_by: String,
    pub state: ExportState,
    /// Parts done so far, of [`PARTS`]`.len()`.
    pub step: u8,
    pub steps: u8,
    #[schema(value_type = String)]
    pub created_at: DateTime<Utc>,
    #[schema(value_type = Option<String>)]
    pub finished_at: Option<DateTime<Utc>>,
    /// When a ready export's file stops being downloadable.
    #[schema(value_type = Option<String>)]
    pub expires_at: Option<DateTime<Utc>>,
    /// The ZIP's size in bytes (when ready).
    pub size: Option<i64>,
    /// Files of the customer's cases, messages, tickets and profiles in it.
    pub files: Option<u32>,
}

impl DataExport {
    pub fn new(id: String, customer_uid: &str, requested_by: &str, now: DateTime<Utc>) -> DataExport {
        DataExport {
            id,
            customer_uid: customer_uid.to_string(),
            requested_by: requested_by.to_string(),
            state: ExportState::Queued,
            step: 0,
            steps: PARTS.len() as u8,
            created_at: now,
            finished_at: None,
            expires_at: None,
            size: None,
            files: None,
        }
    }

    /// Whether it still holds (or will hold) the per-customer "one at a
    /// time" slot at `now`.
    pub fn is_busy(&self, now: DateTime<Utc>) -> bool {
        matches!(self.state, ExportState::Queued | ExportState::Running) && now - self.created_at < Duration::minutes(EXPORT_STALE_MINUTES)
    }

    /// Its state as the reader sees it at `now` (a ready export past its
    /// expiry is expired even before the job marks it).
    pub fn state_at(&self, now: DateTime<Utc>) -> ExportState {
        match (self.state, self.expires_at) {
            (ExportState::Ready, Some(end)) if end <= now => ExportState::Expired,
            (s, _) => s,
        }
    }

    /// The object key of its ZIP.
    pub fn object_key(&self) -> String {
        format!("exports/{}/{}.zip", self.customer_uid, self.id)
    }

    /// The downloaded file's name.
    pub fn file_name(&self) -> String {
        format!("data-export-{}.zip", self.created_at.format("%Y-%m-%d"))
    }
}

/// Where an erasure request is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErasureState {
    /// Asked for; admin has not decided.
    Pending,
    /// Approved; its erasure has begun (steps that a re-run finishes).
    Approved,
    /// Approved and done: only what must be kept is left, under legal hold.
    Erased,
    /// Refused with a reason.
    Refused,
}

impl ErasureState {
    pub fn word(self) -> &'static str {
        match self {
            ErasureState::Pending => "pending",
            ErasureState::Approved => "approved",
            ErasureState::Erased => "erased",
            ErasureState::Refused => "refused",
        }
    }
}

/// A refusal's reason: at most this many characters.
pub const REASON_MAX: usize = 1_000;

/// The neutral text that replaces an erased person's names, phone and
/// address.
pub const ERASED_TEXT: &str = "[raderad]";

/// The address an erased account is left with: never deliverable
/// (`.invalid` is reserved), unique per account.
pub fn erased_email(uid: &str) -> String {
    format!("erased-{uid}@erased.invalid")
}

/// What an erasure keeps, by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum KeptKind {
    /// A case's file: its records and documents (the Bar's rules).
    Case,
    /// Accounting records: bought services and what was used of them
    /// (Bokföringslagen).
    Billing,
    /// The audit trail of who read or changed the customer's data.
    AuditTrail,
}

/// One thing an erasure kept, and until when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Kept {
    pub kind: KeptKind,
    /// The case number (for a case).
    pub reference: Option<String>,
    /// The day it is erased; None for a matter not yet closed (kept until
    /// its retention, which begins when it closes, ends).
    #[schema(value_type = Option<String>)]
    pub until: Option<NaiveDate>,
}

/// A customer's request to be forgotten.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ErasureRequest {
    pub id: String,
    pub customer_uid: String,
    /// The customer's name when it asked (shown in admin's list until erased).
    pub customer_name: String,
    pub state: ErasureState,
    #[schema(value_type = String)]
    pub created_at: DateTime<Utc>,
    #[schema(value_type = Option<String>)]
    pub decided_at: Option<DateTime<Utc>>,
    pub decided_by: Option<String>,
    /// A refusal's reason, shown to the customer.
    pub reason: Option<String>,
    /// What was kept and until when (once approved).
    #[serde(default)]
    pub kept: Vec<Kept>,
    #[schema(value_type = Option<String>)]
    pub erased_at: Option<DateTime<Utc>>,
}

impl ErasureRequest {
    pub fn new(id: String, customer_uid: &str, customer_name: &str, now: DateTime<Utc>) -> ErasureRequest {
        ErasureRequest {
            id,
            customer_uid: customer_uid.to_string(),
            customer_name: customer_name.to_string(),
            state: ErasureState::Pending,
            created_at: now,
            decided_at: None,
            decided_by: None,
            reason: None,
            kept: vec![],
            erased_at: None,
        }
    }
}

/// A refusal's reason as stored: one cleaned multi-line text, required,
/// at most [`REASON_MAX`] characters.
pub fn refusal_reason(raw: Option<&str>) -> Result<String, ApiError> {
    use crate::domain::text::{clean_long, required};
    required(raw.unwrap_or_default(), REASON_MAX, clean_long).map_err(|m| ApiError::field("reason", m))
}

/// Attributes never exported: secrets (password hashes, authenticator
/// secrets and recovery codes, link digests and tokens, provider tokens),
/// staff-internal text, and the table's own bookkeeping (keys, index keys,
/// revisions, search copies).
pub const WITHHELD: [&str; 22] = [
    "PK",
    "SK",
    "GSI1PK",
    "GSI1SK",
    "GSI2PK",
    "GSI2SK",
    "ttl",
    "rev",
    "ver",
    "search",
    "password_hash",
    "token_version",
    "secret",
    "pending_secret",
    "recovery_hashes",
    "digest",
    "token",
    "basic_token",
    "api_key",
    "short_internal_description",
    "internal_note",
    "nonce",
];

/// An item as the export shows it: every attribute but the [`WITHHELD`].
pub fn cleaned(mut item: Map<String, Value>) -> Value {
    for a in WITHHELD {
        item.remove(a);
    }
    Value::Object(item)
}

/// The file of the export a record of the customer's own partition goes
/// to, by its sort key; `None`: not exported (a secret, a guard, the
/// exports themselves).
pub fn customer_part(sk: &str) -> Option<&'static str> {
    let prefix = sk.split('#').next().unwrap_or(sk);
    Some(match prefix {
        "PROFILE" => "profile",
        "DEPARTMENT" | "BISNODE" => "profile",
        "PURCHASE" => "subscriptions",
        "ENVELOPE" => "envelopes",
        "CREDIT" => "credit_reports",
        "MEETING" => "meetings",
        "INKASSO" | "INKASSO_CLAIM" => "inkasso",
        // The activation link's digest, the signing provider's token, the
        // purchase guards, the exports and erasure requests themselves.
        "ACTIVATION" | "VERIFIED" | "PURCHASE_GUARD" | "EXPORT" | "EXPORT_RUNNING" | "ERASURE" | "ERASURE_OPEN" => return None,
        _ => "other",
    })
}

/// Whether a record of a case's partition is exported: everything the
/// customer side may see (the case, hours, history, messages, its rating),
/// never the staff's internal notes.
pub fn case_record_exported(sk: &str) -> bool {
    !sk.starts_with("NOTE#")
}

/// Whether a record of a user's own partition is exported: the account,
/// its mail setting, its acceptances of terms, its academy progress;
/// never its authenticator.
pub fn user_record_exported(sk: &str) -> bool {
    sk == "USER" || sk == "MAILPREFS" || sk.starts_with("ACCEPT#") || sk.starts_with("ACADEMY#")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn secrets_internal_text_and_keys_never_leave() {
        let item = json!({"PK": "USER#u", "SK": "USER", "email": "a@b.se", "password_hash": "$argon2", "secret": "S",
            "recovery_hashes": ["x"], "token": "t", "short_internal_description": "difficult client", "subject": "Avtal",
            "GSI1PK": "x", "rev": 3});
        let Value::Object(m) = item else { unreachable!() };
        let out = cleaned(m);
        assert_eq!(out, json!({"email": "a@b.se", "subject": "Avtal"}));
    }

    #[test]
    fn the_customer_partition_is_sorted_into_parts() {
        assert_eq!(customer_part("PROFILE"), Some("profile"));
        assert_eq!(customer_part("PURCHASE#000000000001"), Some("subscriptions"));
        assert_eq!(customer_part("ENVELOPE#e1"), Some("envelopes"));
        assert_eq!(customer_part("CREDIT#c1"), Some("credit_reports"));
        assert_eq!(customer_part("INKASSO_CLAIM#c"), Some("inkasso"));
        assert_eq!(customer_part("SOMETHING_NEW"), Some("other"));
        for withheld in ["ACTIVATION", "VERIFIED", "PURCHASE_GUARD#1", "EXPORT#x", "EXPORT_RUNNING", "ERASURE"] {
            assert_eq!(customer_part(withheld), None, "{withheld}");
        }
        assert!(!case_record_exported("NOTE#2026#x"));
        assert!(case_record_exported("MSG#2026#x") && case_record_exported("HOUR#1") && case_record_exported("CASE"));
        assert!(user_record_exported("USER") && user_record_exported("ACCEPT#terms#000001"));
        assert!(!user_record_exported("TOTP") && !user_record_exported("TOTP#SETUP"));
    }

    #[test]
    fn a_refusal_needs_a_reason_of_bounded_length() {
        assert_eq!(refusal_reason(Some("  Pågående tvist \r\n ")).unwrap(), "Pågående tvist");
        for bad in [None, Some(""), Some(" \u{200b} ")] {
            assert!(matches!(refusal_reason(bad), Err(ApiError::BadRequest { .. })), "{bad:?}");
        }
        assert!(refusal_reason(Some(&"a".repeat(REASON_MAX))).is_ok());
        assert!(refusal_reason(Some(&"a".repeat(REASON_MAX + 1))).is_err());
        assert_eq!(erased_email("u1"), "erased-u1@erased.invalid");
        assert!(customer_part("ERASURE#x").is_none() && customer_part("ERASURE_OPEN").is_none());
    }

    #[test]
    fn busy_until_finished_or_stale_and_expired_after_seven_days() {
        let t = Utc::now();
        let mut e = DataExport::new("x".into(), "c", "c", t);
        assert!(e.is_busy(t));
        assert!(!e.is_busy(t + Duration::minutes(EXPORT_STALE_MINUTES)));
        e.state = ExportState::Ready;
        e.expires_at = Some(t + Duration::days(EXPORT_DAYS));
        assert!(!e.is_busy(t));
        assert_eq!(e.state_at(t + Duration::days(6)), ExportState::Ready);
        assert_eq!(e.state_at(t + Duration::days(EXPORT_DAYS)), ExportState::Expired);
        assert_eq!(e.object_key(), "exports/c/x.zip");
    }
}

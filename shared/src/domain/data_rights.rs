//! The client's data rights (GDPR art. 15 and 20): an export of everything
//! the platform holds about a customer, built in the background as one ZIP
//! (a JSON file per kind of record, plus the files) that can be downloaded
//! for [`EXPORT_DAYS`] days.
//!
//! What goes into an export is decided here, on plain JSON, so the rule
//! "never a secret, never a staff-internal note" is tested without AWS.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

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
        "ACTIVATION" | "VERIFIED" | "PURCHASE_GUARD" | "EXPORT" | "EXPORT_RUNNING" | "ERASURE" => return None,
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

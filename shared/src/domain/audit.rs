//! The audit trail: an append-only record of who did what to client data
//! (a law firm must answer "who opened this client's documents?"). Each
//! event is one item, written with the change it records (in the change's
//! transaction) or beside the read it records; never updated or deleted by
//! the functions (their IAM role may only put it), removed by DynamoDB TTL
//! after the retention period.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;
use utoipa::ToSchema;

use super::User;

/// What happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AuditAction {
    /// A case's details were opened.
    CaseViewed,
    DocumentDownloaded,
    DocumentUploaded,
    /// A case's messages were read.
    MessagesRead,
    /// A CSV or Excel file was made.
    ExportMade,
    CustomerViewed,
    CustomerChanged,
    /// Staff changed a subscription row (dates, hours, activation, deletion).
    SubscriptionChanged,
    /// A contact's permissions changed.
    PermissionsChanged,
    SignedIn,
    SignInFailed,
    ConflictSearch,
    /// The retention job erased a record whose retention had ended (a case
    /// file: subject its case number; an export: its id); detail the kind.
    RecordsErased,
    /// A run of the retention job that found something due; detail
    /// `due=<n>;erased=<n>;kept=<n>;failed=<n>`.
    RetentionRun,
}

impl AuditAction {
    pub const ALL: [AuditAction; 14] = [
        AuditAction::CaseViewed,
        AuditAction::DocumentDownloaded,
        AuditAction::DocumentUploaded,
        AuditAction::MessagesRead,
        AuditAction::ExportMade,
        AuditAction::CustomerViewed,
        AuditAction::CustomerChanged,
        AuditAction::SubscriptionChanged,
        AuditAction::PermissionsChanged,
        AuditAction::SignedIn,
        AuditAction::SignInFailed,
        AuditAction::ConflictSearch,
        AuditAction::RecordsErased,
        AuditAction::RetentionRun,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            AuditAction::CaseViewed => "case_viewed",
            AuditAction::DocumentDownloaded => "document_downloaded",
            AuditAction::DocumentUploaded => "document_uploaded",
            AuditAction::MessagesRead => "messages_read",
            AuditAction::ExportMade => "export_made",
            AuditAction::CustomerViewed => "customer_viewed",
            AuditAction::CustomerChanged => "customer_changed",
            AuditAction::SubscriptionChanged => "subscription_changed",
            AuditAction::PermissionsChanged => "permissions_changed",
            AuditAction::SignedIn => "signed_in",
            AuditAction::SignInFailed => "sign_in_failed",
            AuditAction::ConflictSearch => "conflict_search",
            AuditAction::RecordsErased => "records_erased",
            AuditAction::RetentionRun => "retention_run",
        }
    }

    /// What a customer is shown of its own data: who at the firm opened
    /// its cases and documents (and changed its record or subscriptions).
    pub fn shown_to_customer(self) -> bool {
        matches!(
            self,
            AuditAction::CaseViewed
                | AuditAction::DocumentDownloaded
                | AuditAction::DocumentUploaded
                | AuditAction::MessagesRead
                | AuditAction::CustomerViewed
                | AuditAction::CustomerChanged
                | AuditAction::SubscriptionChanged
        )
    }
}

/// One recorded event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AuditEvent {
    pub id: String,
    #[schema(value_type = String, format = DateTime)]
    pub at: DateTime<Utc>,
    pub action: AuditAction,
    /// Who did it; empty for a failed sign-in to an unknown address.
    pub actor_uid: String,
    pub actor_name: String,
    /// `admin`, `lawyer`, `sales_person`, `customer`, `customer_contact`.
    pub actor_role: Option<String>,
    /// The customer whose data it concerns.
    pub customer_uid: Option<String>,
    /// What it concerns: a case uid, a document's name, an export's name.
    pub subject: Option<String>,
    /// A short, non-personal note (a case number, the fields changed).
    pub detail: Option<String>,
    /// A conflict search's number of possible conflicts (its query is the subject).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hits: Option<u32>,
    /// A conflict search's best hits' names, as the searcher saw them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
}

/// Most names a conflict search's event keeps.
pub const NAMES_MAX: usize = 10;

/// Longest subject or detail kept (bounded like every stored text).
pub const TEXT_MAX: usize = 300;

fn bounded(text: Option<String>) -> Option<String> {
    text.map(|t| t.chars().take(TEXT_MAX).collect::<String>()).filter(|t| !t.is_empty())
}

impl AuditEvent {
    /// An event by `actor` now.
    pub fn by(actor: &User, action: AuditAction) -> AuditEvent {
        AuditEvent {
            id: uuid::Uuid::new_v4().to_string(),
            at: Utc::now(),
            action,
            actor_uid: actor.uid.clone(),
            actor_name: actor.full_name(),
            actor_role: actor.role().map(|r| r.as_str().to_string()),
            customer_uid: None,
            subject: None,
            detail: None,
            hits: None,
            names: Vec::new(),
        }
    }

    /// An event of nobody known (a failed sign-in to an unknown address).
    pub fn anonymous(action: AuditAction) -> AuditEvent {
        AuditEvent {
            id: uuid::Uuid::new_v4().to_string(),
            at: Utc::now(),
            action,
            actor_uid: String::new(),
            actor_name: String::new(),
            actor_role: None,
            customer_uid: None,
            subject: None,
            detail: None,
            hits: None,
            names: Vec::new(),
        }
    }

    pub fn customer(mut self, uid: Option<&str>) -> Self {
        self.customer_uid = uid.filter(|u| !u.is_empty()).map(str::to_string);
        self
    }

    pub fn subject(mut self, subject: impl Into<String>) -> Self {
        self.subject = bounded(Some(subject.into()));
        self
    }

    pub fn detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = bounded(Some(detail.into()));
        self
    }

    /// A conflict search's outcome: how many parties matched, and the best names.
    pub fn found(mut self, hits: usize, names: Vec<String>) -> Self {
        self.hits = Some(u32::try_from(hits).unwrap_or(u32::MAX));
        self.names = names.into_iter().take(NAMES_MAX).filter_map(|n| bounded(Some(n))).collect();
        self
    }

    /// When DynamoDB's TTL removes it.
    pub fn expires_at(&self) -> DateTime<Utc> {
        self.at + Duration::days(retention_days())
    }
}

/// Default retention: ten years, the Swedish Bar's retention of case files.
pub const DEFAULT_RETENTION_DAYS: i64 = 3653;

/// `AUDIT_RETENTION_DAYS` (template parameter), read once; at least a year.
pub fn retention_days() -> i64 {
    static READ: OnceLock<i64> = OnceLock::new();
    *READ.get_or_init(|| retention_from(std::env::var("AUDIT_RETENTION_DAYS").ok().as_deref()))
}

fn retention_from(raw: Option<&str>) -> i64 {
    raw.and_then(|v| v.trim().parse::<i64>().ok()).filter(|d| (365..=36_525).contains(d)).unwrap_or(DEFAULT_RETENTION_DAYS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retention_defaults_to_ten_years_and_refuses_nonsense() {
        assert_eq!(retention_from(None), 3653);
        assert_eq!(retention_from(Some("730")), 730);
        for bad in ["0", "-5", "ten", "364", "99999999"] {
            assert_eq!(retention_from(Some(bad)), 3653, "{bad}");
        }
        let e = AuditEvent::anonymous(AuditAction::SignInFailed);
        assert!(e.expires_at() - e.at >= Duration::days(3650));
    }

    #[test]
    fn texts_are_bounded_and_every_action_has_its_word() {
        let e = AuditEvent::anonymous(AuditAction::ExportMade).subject("x".repeat(1000)).detail("");
        assert_eq!(e.subject.unwrap().chars().count(), TEXT_MAX);
        assert_eq!(e.detail, None);
        let f = AuditEvent::anonymous(AuditAction::ConflictSearch).found(40, (0..40).map(|i| format!("{i}{}", "y".repeat(400))).collect());
        assert_eq!((f.hits, f.names.len()), (Some(40), NAMES_MAX));
        assert!(f.names.iter().all(|n| n.chars().count() == TEXT_MAX));
        // Events of other kinds carry neither (nor do their stored items).
        let plain = serde_json::to_value(AuditEvent::anonymous(AuditAction::SignedIn)).unwrap();
        assert!(plain.get("hits").is_none() && plain.get("names").is_none(), "{plain}");
        for a in AuditAction::ALL {
            assert_eq!(serde_json::to_value(a).unwrap(), a.as_str());
        }
    }
}

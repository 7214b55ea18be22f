//! The case history: one entry per change.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::entity::Case;
use crate::domain::User;

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

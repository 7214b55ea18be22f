//! Case lists: which cases a list reads, its search text and order.

use serde::Deserialize;
use utoipa::ToSchema;

use super::entity::{Case, CaseStatus};

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
    /// staff's 'my cases', a contact's own without `view_all_cases` (for
    /// the customer side the pointers hold the cases it follows too).
    CreatedBy(String, Vec<CaseStatus>),
    /// Every case, in every status (a sales person's 'all').
    All,
}

/// The text a case list's search box looks in: case number, subject,
/// customer and counterpart, folded (lower case, accents and Nordic
/// spellings folded, see [`crate::domain::conflict::fold`]) so 'Soderberg' finds
/// 'Söderberg'.
pub fn search_text(c: &Case) -> String {
    crate::domain::conflict::fold(&format!("{} {} {} {}", c.case_number, c.subject, c.customer_name, c.counterpart))
}

/// A list search as the store compares it, or None for no search. At most
/// 100 characters are used.
pub fn search_query(raw: &str) -> Option<String> {
    let q: String = crate::domain::conflict::fold(raw.trim()).chars().take(100).collect();
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

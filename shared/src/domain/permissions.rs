//! Customer-contact permissions (spec §3, §5).
//!
//! A customer contact (user type 4) holds only the permissions listed on its
//! user; everyone else holds every permission "in this sense" (the checks
//! in [`super::policy::permission`] never narrow what other roles may do).
//!
//! The spec's contact form has eight labels but six codes. Reading chosen:
//! - "create new cases" → `add_case`
//! - "credit information" → `view_bisnode`
//! - "digital signing" → `view_verify`
//! - "contract check" → `view_kontracto`
//! - "administrate users" → `view_contact`
//! - `view_inkasso` has no label in the spec; the form shows it as "debt collection (Inkasso)".
//! - "chat in cases" → `chat_in_cases` (not among the spec's six codes: the
//!   messages of a case need it, so a company decides which contacts write
//!   to its lawyers);
//! - "view all cases" → `view_all_cases`: without it a contact sees only the
//!   cases it created, in every case view (lists, details, documents,
//!   messages, hours, statistics, exports);
//! - "view time bank" → `view_time_bank`: without it no answer carries the
//!   company's hours left (dashboard, subscription rows).
//!
//! Contacts stored before those two existed saw every case and the time
//! bank; they keep both until the customer edits them (read-time default,
//! [`super::policy::permission::listed`]), so an upgrade takes nothing away that nobody chose to take.

use crate::error::Msg;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Permission {
    ViewVerify,
    ViewBisnode,
    ViewInkasso,
    ViewKontracto,
    ViewContact,
    AddCase,
    ChatInCases,
    ViewAllCases,
    ViewTimeBank,
}

/// The revision of the permission list written on every user made or
/// edited now. Rows without it (0) were written before `view_all_cases` and
/// `view_time_bank` existed.
pub const PERMISSIONS_REV: u8 = 1;

impl Permission {
    pub const ALL: [Permission; 9] = [
        Permission::ViewVerify,
        Permission::ViewBisnode,
        Permission::ViewInkasso,
        Permission::ViewKontracto,
        Permission::ViewContact,
        Permission::AddCase,
        Permission::ChatInCases,
        Permission::ViewAllCases,
        Permission::ViewTimeBank,
    ];

    /// The spec's code, e.g. `view_verify`.
    pub fn code(self) -> &'static str {
        match self {
            Permission::ViewVerify => "view_verify",
            Permission::ViewBisnode => "view_bisnode",
            Permission::ViewInkasso => "view_inkasso",
            Permission::ViewKontracto => "view_kontracto",
            Permission::ViewContact => "view_contact",
            Permission::AddCase => "add_case",
            Permission::ChatInCases => "chat_in_cases",
            Permission::ViewAllCases => "view_all_cases",
            Permission::ViewTimeBank => "view_time_bank",
        }
    }

    pub fn from_code(code: &str) -> Option<Permission> {
        Permission::ALL.into_iter().find(|p| p.code() == code.trim())
    }
}

/// Parses codes from a form: unknown codes are an error (the field key
/// `invalid_permission`); duplicates collapse; the result is sorted.
pub fn parse_codes(codes: &[String]) -> Result<Vec<Permission>, Msg> {
    let mut out = Vec::new();
    for c in codes {
        let p = Permission::from_code(c).ok_or(Msg::InvalidPermission)?;
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_serialise_as_the_spec_names() {
        let json = serde_json::to_string(&Permission::ALL).unwrap();
        assert_eq!(
            json,
            r#"["view_verify","view_bisnode","view_inkasso","view_kontracto","view_contact","add_case","chat_in_cases","view_all_cases","view_time_bank"]"#
        );
        for p in Permission::ALL {
            assert_eq!(serde_json::to_value(p).unwrap(), p.code());
            assert_eq!(Permission::from_code(p.code()), Some(p));
        }
        assert_eq!(Permission::from_code("view_everything"), None);
    }

    #[test]
    fn parsing_rejects_unknown_codes_and_dedups() {
        let ok = parse_codes(&["add_case".into(), " view_verify".into(), "add_case".into()]).unwrap();
        assert_eq!(ok, vec![Permission::ViewVerify, Permission::AddCase]);
        assert_eq!(parse_codes(&["admin".into()]), Err(Msg::InvalidPermission));
        assert_eq!(parse_codes(&[]), Ok(vec![]));
    }
}

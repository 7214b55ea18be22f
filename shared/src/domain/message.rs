//! Messages inside a case (spec §1, §6): the case's lawyer, its customer
//! and the customer's contacts holding 'chat in cases' talk in the case;
//! staff read the conversation but do not write in it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::case::{Case, CaseStatus};
use super::policy;
use super::User;
use crate::error::{ApiError, Msg};

/// A message is at most this long (characters): a letter, not a document.
pub const TEXT_MAX_CHARS: usize = super::text::LONG_MAX;
/// Messages per page of a conversation.
pub const PAGE_SIZE: usize = 20;

/// A file sent with a message (checked like a case document).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Attachment {
    /// S3 key `cases/<case uid>/messages/<uuid>.<ext>`, chosen by the server.
    pub key: String,
    pub name: String,
    pub size: i64,
}

/// A message of a case's conversation. Named `CaseMessage` in the API
/// document: `Message` is the plain acknowledgement there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = CaseMessage)]
pub struct Message {
    pub id: String,
    pub case_uid: String,
    /// uid of the writer.
    pub by: String,
    pub by_name: String,
    /// The writer's side: `lawyer` or `customer` (the customer and its contacts).
    pub side: Side,
    pub text: String,
    pub attachment: Option<Attachment>,
    #[schema(value_type = String)]
    pub at: DateTime<Utc>,
}

/// The two parties of a conversation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Lawyer,
    Customer,
}

/// Who may write in the case's conversation now (spec §6, §8): only the
/// case's lawyer and its customer side (a contact with 'chat in cases');
/// only while the case is in progress (a closed case takes no messages).
pub fn may_write(user: &User, case: &Case) -> Result<Side, ApiError> {
    let side = if policy::writes_as_lawyer(user, case)? { Side::Lawyer } else { Side::Customer };
    match case.status {
        CaseStatus::Inprogress => Ok(side),
        CaseStatus::Complete => Err(ApiError::bad(Msg::CaseClosedForMessages)),
        _ => Err(ApiError::bad(Msg::CaseNotInProgress)),
    }
}

/// A message's text as stored: cleaned ([`super::text`]), not empty unless a file is sent,
/// bounded.
pub fn validate_text(text: &str, has_attachment: bool) -> Result<String, ApiError> {
    let text = super::text::bounded(text, TEXT_MAX_CHARS, super::text::clean_long).map_err(|m| ApiError::field("text", m))?;
    if text.is_empty() && !has_attachment {
        return Err(ApiError::field("text", Msg::Required));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::case::{Case, CaseType};
    use crate::domain::user::tests_support::with_role;
    use crate::domain::{Permission, Role};

    fn user(role: Role, uid: &str) -> User {
        with_role(role, uid, "cust", &[])
    }

    fn case(status: CaseStatus) -> Case {
        let mut c = Case::draft(
            "k".into(),
            "2026-000001".into(),
            "cust".into(),
            "Kund".into(),
            CaseType { id: 1, name: "T".into(), name_en: None },
            "cust".into(),
            Utc::now(),
        );
        c.status = status;
        c.lawyer = Some("law".into());
        c
    }

    #[test]
    fn only_the_parties_write_and_only_while_in_progress() {
        let c = case(CaseStatus::Inprogress);
        assert_eq!(may_write(&user(Role::Lawyer, "law"), &c).unwrap(), Side::Lawyer);
        assert_eq!(may_write(&user(Role::Customer, "cust"), &c).unwrap(), Side::Customer);
        assert_eq!(may_write(&user(Role::Lawyer, "other"), &c).unwrap_err().key(), Msg::CaseNotAssigned);
        assert_eq!(may_write(&user(Role::Admin, "a"), &c).unwrap_err().key(), Msg::OnlyLawyerOrCustomerMessages);
        assert_eq!(may_write(&user(Role::SalesPerson, "s"), &c).unwrap_err().key(), Msg::OnlyLawyerOrCustomerMessages);
        let mut contact = user(Role::CustomerContact, "k1");
        assert_eq!(may_write(&contact, &c).unwrap_err().status(), 403);
        contact.permissions = vec![Permission::ChatInCases, Permission::ViewAllCases];
        assert_eq!(may_write(&contact, &c).unwrap(), Side::Customer);
        assert_eq!(may_write(&user(Role::Customer, "cust"), &case(CaseStatus::Complete)).unwrap_err().key(), Msg::CaseClosedForMessages);
        assert_eq!(may_write(&user(Role::Customer, "cust"), &case(CaseStatus::Waiting)).unwrap_err().key(), Msg::CaseNotInProgress);
    }

    #[test]
    fn texts_are_bounded() {
        assert_eq!(validate_text("  Hej  ", false).unwrap(), "Hej");
        assert!(validate_text("  ", false).is_err());
        assert_eq!(validate_text("", true).unwrap(), "");
        assert!(validate_text(&"x".repeat(TEXT_MAX_CHARS + 1), false).is_err());
    }

    #[test]
    fn texts_are_cleaned_and_invisible_text_is_empty() {
        assert_eq!(validate_text("hej\u{1b}]0;owned\u{7}\u{202E}\r\nda", false).unwrap(), "hej\nda");
        assert!(validate_text("\u{200B}\u{200C}", false).is_err());
    }
}

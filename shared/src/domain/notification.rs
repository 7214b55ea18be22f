//! Notifications (spec §3 notification, §4 notification states, §7 calls):
//! what happened, to whom it is shown, and its seen/unread state.
//!
//! A notification belongs to one reader. It is *unseen* until the reader
//! opens the dropdown of its category (the badge counts the unseen ones and
//! goes to 0), and *unread* until the reader clicks it or reads all. Both are
//! kept without rewriting every item: opening a dropdown moves the
//! category's seen mark to now, and "read all" moves the read mark; a click
//! marks that one item.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, Msg};

/// Spec §3 `description`: what a notification is about. The messages
/// dropdown shows `message`; the notifications dropdown `case` and `others`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Case,
    Message,
    Others,
}

impl Category {
    pub fn word(self) -> &'static str {
        match self {
            Category::Case => "case",
            Category::Message => "message",
            Category::Others => "others",
        }
    }

    /// The dropdown a category belongs to (its seen mark is shared).
    pub fn dropdown(self) -> Dropdown {
        match self {
            Category::Message => Dropdown::Messages,
            Category::Case | Category::Others => Dropdown::Notifications,
        }
    }
}

/// The two header dropdowns (spec §2 common layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dropdown {
    Messages,
    Notifications,
}

impl Dropdown {
    pub fn categories(self) -> &'static [Category] {
        match self {
            Dropdown::Messages => &[Category::Message],
            Dropdown::Notifications => &[Category::Case, Category::Others],
        }
    }
}

/// The `description` filter of the calls: `message`, or `case,others` (any
/// comma-separated set); empty means every category.
pub fn categories(filter: Option<&str>) -> Result<Vec<Category>, ApiError> {
    let Some(filter) = filter.map(str::trim).filter(|f| !f.is_empty()) else {
        return Ok(vec![Category::Case, Category::Message, Category::Others]);
    };
    let mut out = Vec::new();
    for word in filter.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        let c = match word {
            "case" => Category::Case,
            "message" => Category::Message,
            "others" => Category::Others,
            _ => return Err(ApiError::field("description", Msg::Invalid)),
        };
        if !out.contains(&c) {
            out.push(c);
        }
    }
    // Only separators (`,`): nothing named, every category (as empty).
    if out.is_empty() {
        out = vec![Category::Case, Category::Message, Category::Others];
    }
    Ok(out)
}

/// The dropdown a `seen/update` or `seen/count` call addresses: the messages
/// one when the filter is only `message`, else the notifications one.
pub fn dropdown_of(cats: &[Category]) -> Dropdown {
    if cats == [Category::Message] {
        Dropdown::Messages
    } else {
        Dropdown::Notifications
    }
}

/// What happened, stored as a key and shown translated in the reader's
/// language (`notifications:verbs.<key>`), with the values of [`Params`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Verb {
    CaseCreated,
    CasePublished,
    CaseAccepted,
    CaseClosed,
    CaseReopened,
    CaseTransferred,
    HoursLogged,
    HoursEdited,
    MessageReceived,
    DocumentAdded,
    SubscriptionBought,
    SubscriptionChanged,
    SubscriptionActivated,
    SubscriptionExpiring,
    SubscriptionExpired,
    CustomerAwaitingApproval,
    CaseRated,
    MeetingBooked,
    MeetingCancelled,
    /// The reader was made a follower of a case.
    CaseFollowed,
}

impl Verb {
    pub fn category(self) -> Category {
        match self {
            Verb::MessageReceived => Category::Message,
            Verb::CaseCreated
            | Verb::CasePublished
            | Verb::CaseAccepted
            | Verb::CaseClosed
            | Verb::CaseReopened
            | Verb::CaseTransferred
            | Verb::HoursLogged
            | Verb::HoursEdited
            | Verb::DocumentAdded
            | Verb::CaseRated
            | Verb::MeetingBooked
            | Verb::MeetingCancelled
            | Verb::CaseFollowed => Category::Case,
            Verb::SubscriptionBought
            | Verb::SubscriptionChanged
            | Verb::SubscriptionActivated
            | Verb::SubscriptionExpiring
            | Verb::SubscriptionExpired
            | Verb::CustomerAwaitingApproval => Category::Others,
        }
    }
}

/// The values a verb's text names (all optional, all plain text).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Params {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case_number: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// Who did it (a person's name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// A subscription's plan, package or service name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service: Option<String>,
    /// A date the text names (an expiry), YYYY-MM-DD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// A customer's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer: Option<String>,
    /// The start of a message's text (at most 140 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
}

/// A notification as its reader gets it (spec §3: id, verb, timestamp,
/// unread, description, uid).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Notification {
    pub id: String,
    pub verb: Verb,
    pub params: Params,
    #[schema(value_type = String)]
    pub timestamp: DateTime<Utc>,
    pub unread: bool,
    /// `case`, `message` or `others`.
    pub description: Category,
    /// The case concerned (case and message notifications).
    pub uid: Option<String>,
}

/// A notification to write: what, and about which case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Draft {
    pub verb: Verb,
    pub params: Params,
    pub case_uid: Option<String>,
}

/// A notification on its way to its readers: one event's, with the time and
/// id every reader's copy shares (so writing it twice writes the same items).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outgoing {
    pub at: DateTime<Utc>,
    pub event_id: String,
    pub draft: Draft,
    pub readers: Vec<String>,
}

/// The first words of a message, for a notification's text.
pub fn excerpt(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= 140 {
        return one_line;
    }
    let cut: String = one_line.chars().take(139).collect();
    format!("{}…", cut.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_description_filter_of_the_calls() {
        assert_eq!(categories(Some("message")).unwrap(), [Category::Message]);
        assert_eq!(categories(Some("case,others")).unwrap(), [Category::Case, Category::Others]);
        assert_eq!(categories(Some(" case , case ")).unwrap(), [Category::Case]);
        assert_eq!(categories(None).unwrap().len(), 3);
        assert!(categories(Some("bogus")).is_err());
        assert_eq!(categories(Some(" ,\r\t,, ")).unwrap().len(), 3, "separators only: every category");
        assert_eq!(dropdown_of(&[Category::Message]), Dropdown::Messages);
        assert_eq!(dropdown_of(&[Category::Case, Category::Others]), Dropdown::Notifications);
    }

    #[test]
    fn verbs_fall_into_the_spec_categories() {
        assert_eq!(Verb::MessageReceived.category(), Category::Message);
        assert_eq!(Verb::CaseAccepted.category(), Category::Case);
        assert_eq!(Verb::SubscriptionExpiring.category(), Category::Others);
        assert_eq!(Category::Others.dropdown(), Dropdown::Notifications);
        assert_eq!(serde_json::to_value(Verb::HoursLogged).unwrap(), "hours_logged");
    }

    #[test]
    fn excerpts_are_one_short_line() {
        assert_eq!(excerpt("Hej!\n\nKan vi  ses?"), "Hej! Kan vi ses?");
        let long = "ord ".repeat(100);
        let e = excerpt(&long);
        assert!(e.chars().count() <= 140 && e.ends_with('…'));
    }
}

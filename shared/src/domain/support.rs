//! Support (spec §1 "support page", §2 customer Support and Statistics →
//! Support): a customer or contact writes a ticket (subject, message,
//! optionally a case of theirs and a file checked like a case document);
//! the customer's people see their company's tickets with the staff's
//! answers; admin sees every ticket, answers and closes it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::message::Attachment;
use super::policy;
use super::{Role, User};
use crate::error::{ApiError, FieldErrors, Msg};

pub const SUBJECT_MAX_CHARS: usize = super::text::SUBJECT_MAX;
pub const MESSAGE_MAX_CHARS: usize = super::text::LONG_MAX;
/// Answers a ticket may hold (a conversation, not a chat).
pub const MAX_ANSWERS: usize = 50;

/// open → answered (staff replied) → closed; a reply of the customer side
/// opens an answered ticket again; a closed ticket takes no more answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TicketStatus {
    Open,
    Answered,
    Closed,
}

impl TicketStatus {
    pub const ALL: [TicketStatus; 3] = [TicketStatus::Open, TicketStatus::Answered, TicketStatus::Closed];
    pub fn as_str(self) -> &'static str {
        match self {
            TicketStatus::Open => "open",
            TicketStatus::Answered => "answered",
            TicketStatus::Closed => "closed",
        }
    }
    pub fn parse(text: &str) -> Option<TicketStatus> {
        TicketStatus::ALL.into_iter().find(|s| s.as_str() == text.trim())
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Ticket {
    /// Human-readable number.
    pub id: u64,
    /// The customer (company) the ticket belongs to.
    pub customer_uid: String,
    pub customer_name: String,
    pub case_uid: Option<String>,
    pub case_number: Option<String>,
    pub subject: String,
    pub message: String,
    pub attachment: Option<Attachment>,
    pub status: TicketStatus,
    pub created_by: String,
    pub created_by_name: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: DateTime<Utc>,
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: DateTime<Utc>,
    #[serde(default)]
    pub answer_count: u32,
}

/// A reply in a ticket: staff's answer or the customer side's follow-up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Answer {
    pub id: String,
    pub ticket_id: u64,
    pub by: String,
    pub by_name: String,
    /// Whether the provider's staff wrote it.
    pub staff: bool,
    pub text: String,
    #[schema(value_type = String, format = DateTime)]
    pub at: DateTime<Utc>,
}

/// Who writes tickets: the customer and its contacts (for their company).
pub fn may_create(user: &User) -> Result<String, ApiError> {
    policy::ticket_customer(user)
}

/// Who sees a ticket: admin every one; the customer and its contacts their
/// company's. Others' tickets do not exist for them (404).
pub fn may_view(user: &User, t: &Ticket) -> bool {
    policy::may_view_ticket(user, &t.customer_uid)
}

/// Who answers: admin, and the ticket's customer side (a follow-up); never
/// in a closed ticket. Returns whether the writer is staff.
pub fn may_answer(user: &User, t: &Ticket) -> Result<bool, ApiError> {
    if !may_view(user, t) {
        return Err(ApiError::NotFound);
    }
    if t.status == TicketStatus::Closed {
        return Err(ApiError::bad(Msg::TicketClosed));
    }
    if t.answer_count as usize >= MAX_ANSWERS {
        return Err(ApiError::bad(Msg::TooManyEntries));
    }
    Ok(policy::is(user, Role::Admin))
}

/// Only admin closes a ticket.
pub fn may_close(user: &User, t: &Ticket) -> Result<(), ApiError> {
    if !may_view(user, t) {
        return Err(ApiError::NotFound);
    }
    if !policy::is(user, Role::Admin) {
        return Err(ApiError::Forbidden);
    }
    Ok(())
}

/// The status after an answer.
pub fn after_answer(staff: bool) -> TicketStatus {
    if staff {
        TicketStatus::Answered
    } else {
        TicketStatus::Open
    }
}

/// A new ticket's subject and message, cleaned ([`super::text`]) and bounded.
pub fn validate(subject: &str, message: &str) -> Result<(String, String), ApiError> {
    use super::text::{clean_long, clean_name, required};
    let mut e = FieldErrors::new();
    let subject = required(subject, SUBJECT_MAX_CHARS, clean_name).map_err(|m| e.add("subject", m));
    let message = required(message, MESSAGE_MAX_CHARS, clean_long).map_err(|m| e.add("message", m));
    e.check()?;
    Ok((subject.unwrap_or_default(), message.unwrap_or_default()))
}

/// An answer's text, cleaned ([`super::text`]) and bounded.
pub fn validate_answer(text: &str) -> Result<String, ApiError> {
    super::text::required(text, MESSAGE_MAX_CHARS, super::text::clean_long).map_err(|m| ApiError::field("text", m))
}

/// Tickets by status (the customer's Statistics → Support).
#[derive(Clone, Debug, Default, PartialEq, Serialize, ToSchema)]
pub struct TicketCounts {
    pub open: u32,
    pub answered: u32,
    pub closed: u32,
    pub total: u32,
}

impl TicketCounts {
    pub fn set(&mut self, s: TicketStatus, n: u32) {
        match s {
            TicketStatus::Open => self.open = n,
            TicketStatus::Answered => self.answered = n,
            TicketStatus::Closed => self.closed = n,
        }
        self.total = self.open + self.answered + self.closed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::user::tests_support::sample;

    fn ticket(customer: &str, status: TicketStatus) -> Ticket {
        Ticket {
            id: 1,
            customer_uid: customer.into(),
            customer_name: "Kund AB".into(),
            case_uid: None,
            case_number: None,
            subject: "s".into(),
            message: "m".into(),
            attachment: None,
            status,
            created_by: "c1".into(),
            created_by_name: "C".into(),
            created_at: Utc::now(),
            updated_at: Utc::now(),
            answer_count: 0,
        }
    }

    fn admin() -> User {
        let mut u = sample(None);
        u.is_staff = true;
        u
    }

    #[test]
    fn a_customer_sees_only_its_own_tickets_and_contacts_their_company() {
        let mut cust = sample(Some(3));
        cust.uid = "c1".into();
        let mut contact = sample(Some(4));
        contact.customer_id = Some("c1".into());
        let mut other = sample(Some(3));
        other.uid = "c2".into();
        let t = ticket("c1", TicketStatus::Open);
        assert!(may_view(&cust, &t) && may_view(&contact, &t) && may_view(&admin(), &t));
        assert!(!may_view(&other, &t));
        assert!(!may_view(&sample(Some(1)), &t), "lawyers do not read support");
        assert_eq!(may_answer(&other, &t).unwrap_err().status(), 404);
    }

    #[test]
    fn admin_answers_and_closes_closed_takes_nothing() {
        let mut cust = sample(Some(3));
        cust.uid = "c1".into();
        let t = ticket("c1", TicketStatus::Open);
        assert!(may_answer(&admin(), &t).unwrap());
        assert!(!may_answer(&cust, &t).unwrap());
        assert_eq!(may_close(&cust, &t).unwrap_err().status(), 403);
        assert!(may_close(&admin(), &t).is_ok());
        let closed = ticket("c1", TicketStatus::Closed);
        assert_eq!(may_answer(&admin(), &closed).unwrap_err().key(), Msg::TicketClosed);
        assert_eq!((after_answer(true), after_answer(false)), (TicketStatus::Answered, TicketStatus::Open));
    }

    #[test]
    fn only_customers_and_contacts_write_tickets() {
        let mut cust = sample(Some(3));
        cust.uid = "c1".into();
        assert_eq!(may_create(&cust).unwrap(), "c1");
        assert!(may_create(&admin()).is_err() && may_create(&sample(Some(1))).is_err());
    }

    #[test]
    fn subject_and_message_required_and_bounded() {
        let e = validate(" ", "").unwrap_err().fields();
        assert_eq!((e.get("subject"), e.get("message")), (&[Msg::Required][..], &[Msg::Required][..]));
        assert_eq!(validate(&"x".repeat(SUBJECT_MAX_CHARS + 1), "m").unwrap_err().fields().get("subject"), [Msg::TooLong]);
        let mut c = TicketCounts::default();
        c.set(TicketStatus::Open, 2);
        c.set(TicketStatus::Closed, 3);
        assert_eq!((c.open, c.answered, c.closed, c.total), (2, 0, 3, 5));
    }

    #[test]
    fn tickets_and_answers_are_cleaned_and_invisible_text_is_empty() {
        let e = validate("\u{200B}\u{200B}", "x").unwrap_err();
        assert_eq!(e.fields()["subject"], vec![Msg::Required]);
        let (subject, message) = validate("Faktura\u{202E}fdp.exe\u{0}", "rad 1\r\n\u{1b}[31mrad 2\u{1b}[0m").unwrap();
        assert_eq!((subject.as_str(), message.as_str()), ("Fakturafdp.exe", "rad 1\nrad 2"));
        assert_eq!(validate_answer("\u{FEFF} \u{2060}").unwrap_err().fields()["text"], vec![Msg::Required]);
        assert_eq!(validate_answer("ok\rsvar\u{7}").unwrap(), "ok\nsvar");
        // Bounded as sent (the document's maxLength): escape sequences the cleaning drops still count.
        let padded = format!("{}hej", "\u{1b}[1m".repeat(MESSAGE_MAX_CHARS / 4));
        assert_eq!(validate("Ämne", &padded).unwrap_err().fields()["message"], vec![Msg::TooLong]);
        assert_eq!(validate_answer(&padded).unwrap_err().fields()["text"], vec![Msg::TooLong]);
        assert_eq!(validate("Ämne", &padded[4..]).unwrap().1, "hej");
    }
}

//! Video meetings (spec §1 video meeting, §2 `services/video-meeting/`):
//! a lawyer offers times, a customer (or its contact)
//! books one with the lawyer of one of its cases and gets a meeting link;
//! either side may cancel. Pure rules: the slot form (length, bounds, no
//! overlap), who may book and who may cancel, and the Europe/Stockholm
//! wall clock the texts show.

use chrono::{DateTime, Duration, Timelike, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::case::{Case, CaseStatus};
use super::User;
use crate::error::{ApiError, Msg};

/// The lengths a lawyer may offer, in minutes.
pub const LENGTHS: [u32; 3] = [30, 45, 60];
/// How far ahead a slot may start.
pub const HORIZON_DAYS: i64 = 90;
/// Upcoming slots one lawyer may hold at once (keeps every read bounded).
pub const MAX_UPCOMING: usize = 200;

/// A time a lawyer offers; `meeting` is set while it is booked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Slot {
    /// `<start as unix seconds, 10 digits>-<8 hex>`: orders by start.
    pub uid: String,
    pub lawyer_uid: String,
    pub lawyer_name: String,
    #[schema(value_type = String, format = DateTime)]
    pub start: DateTime<Utc>,
    pub minutes: u32,
    pub meeting: Option<Meeting>,
}

impl Slot {
    pub fn end(&self) -> DateTime<Utc> {
        self.start + Duration::minutes(i64::from(self.minutes))
    }
}

/// A booked meeting: kept with the customer and on the lawyer's slot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Meeting {
    /// Also the provider's idempotency key (a retried booking makes one room).
    pub uid: String,
    pub slot_uid: String,
    pub lawyer_uid: String,
    pub lawyer_name: String,
    pub customer_uid: String,
    pub customer_name: String,
    pub case_uid: String,
    pub case_number: String,
    pub subject: String,
    #[schema(value_type = String, format = DateTime)]
    pub start: DateTime<Utc>,
    pub minutes: u32,
    /// The provider's room and its link.
    pub room_id: String,
    pub room_url: String,
    /// The subscription row the booking was counted on.
    pub purchase_id: u64,
    pub booked_by: String,
    pub booked_by_name: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: DateTime<Utc>,
}

impl Meeting {
    pub fn end(&self) -> DateTime<Utc> {
        self.start + Duration::minutes(i64::from(self.minutes))
    }
}

/// A slot's id: its start first, so the lawyer's partition orders by time.
pub fn slot_uid(start: DateTime<Utc>) -> String {
    format!("{:010}-{}", start.timestamp().max(0), &uuid::Uuid::new_v4().simple().to_string()[..8])
}

/// Spec-free bounds of a new slot (the brief: 30, 45 or 60 minutes, within
/// the next 90 days, on a whole minute, not overlapping the lawyer's other
/// slots, booked or free).
pub fn validate_slot(start: DateTime<Utc>, minutes: u32, now: DateTime<Utc>, existing: &[Slot]) -> Result<(), ApiError> {
    if !LENGTHS.contains(&minutes) {
        return Err(ApiError::field("minutes", Msg::Invalid));
    }
    if start.second() != 0 || start.nanosecond() != 0 {
        return Err(ApiError::field("start", Msg::Invalid));
    }
    // The web's picker offers only these days; the server's refusal is the generic one.
    if start <= now || start > now + Duration::days(HORIZON_DAYS) {
        return Err(ApiError::field("start", Msg::Invalid));
    }
    let end = start + Duration::minutes(i64::from(minutes));
    if existing.iter().any(|s| s.start < end && start < s.end()) {
        return Err(ApiError::field("start", Msg::MeetingSlotOverlaps));
    }
    // A bound no lawyer reaches in practice; its refusal shares the generic wording.
    if existing.iter().filter(|s| s.end() > now).count() >= MAX_UPCOMING {
        return Err(ApiError::field("start", Msg::Invalid));
    }
    Ok(())
}

/// Who may book `slot` about `case` (after the service access rule, spec
/// §5): the case is the caller's customer's, in progress with a lawyer, the
/// slot is that lawyer's, free and still ahead.
pub fn may_book(customer_uid: &str, case: &Case, slot: &Slot, now: DateTime<Utc>) -> Result<(), ApiError> {
    if case.customer != customer_uid {
        return Err(ApiError::NotFound);
    }
    let Some(lawyer) = case.lawyer.as_deref().filter(|_| case.status == CaseStatus::Inprogress) else {
        return Err(ApiError::bad(Msg::NoLawyerFound));
    };
    if slot.lawyer_uid != lawyer {
        return Err(ApiError::NotFound);
    }
    if slot.meeting.is_some() || slot.start <= now {
        return Err(ApiError::bad(Msg::MeetingSlotTaken));
    }
    Ok(())
}

/// Who may cancel a booked meeting: its lawyer, admin, and the customer
/// side it was booked for (the customer and its contacts); only before it
/// ends (after that: not found).
pub fn may_cancel(user: &User, m: &Meeting, now: DateTime<Utc>) -> Result<(), ApiError> {
    if !super::policy::may_cancel_meeting(user, &m.lawyer_uid, &m.customer_uid) {
        return Err(ApiError::Forbidden);
    }
    // An ended meeting has nothing left to cancel (the lists offer no cancel for it).
    if m.end() <= now {
        return Err(ApiError::NotFound);
    }
    Ok(())
}

pub use super::policy::may_manage_slots;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Role;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn slot(start: &str, minutes: u32) -> Slot {
        Slot { uid: slot_uid(at(start)), lawyer_uid: "l1".into(), lawyer_name: "Lena".into(), start: at(start), minutes, meeting: None }
    }

    #[test]
    fn slots_have_a_length_bounds_and_no_overlap() {
        let now = at("2026-11-24T08:00:00Z");
        let taken = [slot("2026-11-25T09:00:00Z", 60)];
        assert!(validate_slot(at("2026-11-25T10:00:00Z"), 30, now, &taken).is_ok(), "touching is not overlapping");
        assert!(validate_slot(at("2026-11-25T08:15:00Z"), 45, now, &taken).is_ok());
        let key = |r: Result<(), ApiError>| r.unwrap_err().fields().get("start").first().copied();
        assert_eq!(key(validate_slot(at("2026-11-25T08:30:00Z"), 45, now, &taken)), Some(Msg::MeetingSlotOverlaps));
        assert_eq!(key(validate_slot(at("2026-11-25T09:30:00Z"), 30, now, &taken)), Some(Msg::MeetingSlotOverlaps));
        assert_eq!(key(validate_slot(at("2026-11-24T07:00:00Z"), 30, now, &[])), Some(Msg::Invalid), "past");
        assert_eq!(key(validate_slot(at("2027-02-23T08:01:00Z"), 30, now, &[])), Some(Msg::Invalid), "past day 90");
        assert!(validate_slot(at("2027-02-22T08:00:00Z"), 30, now, &[]).is_ok(), "day 90 is inside");
        assert_eq!(key(validate_slot(at("2026-11-25T08:00:30Z"), 30, now, &[])), Some(Msg::Invalid));
        assert!(validate_slot(at("2026-11-25T08:00:00Z"), 20, now, &[]).unwrap_err().fields().has("minutes"));
    }

    #[test]
    fn slot_uids_order_by_start() {
        let a = slot_uid(at("2026-11-25T09:00:00Z"));
        let b = slot_uid(at("2026-11-25T10:00:00Z"));
        assert!(a < b && a.len() == 19, "{a} {b}");
    }

    fn user(role: Role, uid: &str, customer: Option<&str>) -> User {
        let mut u = crate::domain::user::tests_support::sample(role.user_type());
        u.is_staff = role == Role::Admin;
        u.uid = uid.into();
        u.customer_id = customer.map(String::from);
        u
    }

    fn meeting(end_in_minutes: i64, now: DateTime<Utc>) -> Meeting {
        Meeting {
            uid: "m1".into(),
            slot_uid: "s1".into(),
            lawyer_uid: "l1".into(),
            lawyer_name: "Lena".into(),
            customer_uid: "c1".into(),
            customer_name: "Kund AB".into(),
            case_uid: "case1".into(),
            case_number: "2026-1".into(),
            subject: "Avtal".into(),
            start: now + Duration::minutes(end_in_minutes - 30),
            minutes: 30,
            room_id: "room-1".into(),
            room_url: "https://meet.example.test/room-1".into(),
            purchase_id: 1,
            booked_by: "c1".into(),
            booked_by_name: "Kim".into(),
            created_at: now,
        }
    }

    #[test]
    fn who_may_cancel() {
        let now = at("2026-11-24T08:00:00Z");
        let m = meeting(60, now);
        assert!(may_cancel(&user(Role::Customer, "c1", None), &m, now).is_ok());
        assert!(may_cancel(&user(Role::CustomerContact, "k1", Some("c1")), &m, now).is_ok());
        assert!(may_cancel(&user(Role::Lawyer, "l1", None), &m, now).is_ok());
        assert!(may_cancel(&user(Role::Admin, "a1", None), &m, now).is_ok());
        assert_eq!(may_cancel(&user(Role::Customer, "c2", None), &m, now).unwrap_err().status(), 403);
        assert_eq!(may_cancel(&user(Role::CustomerContact, "k2", Some("c2")), &m, now).unwrap_err().status(), 403);
        assert_eq!(may_cancel(&user(Role::Lawyer, "l2", None), &m, now).unwrap_err().status(), 403);
        assert_eq!(may_cancel(&user(Role::SalesPerson, "s1", None), &m, now).unwrap_err().status(), 403);
        assert_eq!(may_cancel(&user(Role::Customer, "c1", None), &meeting(0, now), now).unwrap_err().status(), 404, "an ended meeting");
        assert!(may_manage_slots(&user(Role::Lawyer, "l1", None), "l1").is_ok());
        assert!(may_manage_slots(&user(Role::Lawyer, "l2", None), "l1").is_err());
        assert!(may_manage_slots(&user(Role::Customer, "l1", None), "l1").is_err());
    }

    #[test]
    fn who_may_book() {
        let now = at("2026-11-24T08:00:00Z");
        let draft = Case::draft(
            "case1".into(),
            "2026-000001".into(),
            "c1".into(),
            "Kund AB".into(),
            crate::domain::case::CaseType { id: 1, name: "T".into(), name_en: None },
            "x".into(),
            now,
        );
        let mut case = Case { status: CaseStatus::Inprogress, ..draft };
        case.lawyer = Some("l1".into());
        let free = slot("2026-11-25T09:00:00Z", 30);
        assert!(may_book("c1", &case, &free, now).is_ok());
        assert_eq!(may_book("c2", &case, &free, now).unwrap_err().status(), 404, "another customer's case");
        let other = Slot { lawyer_uid: "l2".into(), ..free.clone() };
        assert_eq!(may_book("c1", &case, &other, now).unwrap_err().status(), 404, "another lawyer's slot");
        let booked = Slot { meeting: Some(meeting(60, now)), ..free.clone() };
        assert_eq!(may_book("c1", &case, &booked, now).unwrap_err().key(), Msg::MeetingSlotTaken);
        assert_eq!(may_book("c1", &case, &free, at("2026-11-25T09:00:00Z")).unwrap_err().key(), Msg::MeetingSlotTaken);
        let waiting = Case { status: CaseStatus::Waiting, lawyer: None, ..case.clone() };
        assert_eq!(may_book("c1", &waiting, &free, now).unwrap_err().key(), Msg::NoLawyerFound);
    }
}

//! Video meetings (spec §2 `services/video-meeting/`): the
//! lawyer offers and removes times and sees the booked ones; the customer
//! (or a contact) with the video-meeting service books a time of the lawyer
//! of one of its cases and gets a meeting link; either side cancels.
//!
//! A booking asks the provider for a room first, outside any transaction,
//! with the booking's uid as the idempotency key (a retried request gets the
//! same room and lands on the same record); then ONE transaction books the
//! slot (conditional on its revision: a slot is booked once), writes the
//! meeting, counts one use on the video-meeting row under its limit and
//! writes the other side's notification. A booking that loses the slot or
//! the limit closes the room it made, so nothing is left half-done.
//!
//! Customer contacts: spec §5 names no permission for video meetings (its
//! four service permissions are signing, credit information, Inkasso and
//! contract check), so a contact books and cancels like its customer, with
//! the service bought; the cases offered are the customer's, which spec §5
//! lets every contact see.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::addons::{access, record_id, stored_row};
use super::events::{self, Event, SubscriptionChange};
use super::retry::{self, Attempt};
use super::Context;
use crate::domain::addons::Addon;
use crate::domain::case::{CaseStatus, ListOrder};
use crate::domain::catalogue::Hundredths;
use crate::domain::meeting::{self as rules, Meeting, Slot, HORIZON_DAYS};
use crate::domain::subscription::UsageEntry;
use crate::domain::{Role, User};
use crate::error::{ApiError, Msg};
use crate::store::idempotency::Once;

/// A case the customer may book a meeting about: in progress with a lawyer.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct BookableCase {
    pub uid: String,
    pub case_number: String,
    pub subject: String,
    pub lawyer_uid: String,
    pub lawyer_name: String,
}

/// At most this many cases are offered (5 pages of the customer's list).
pub const MAX_CASES: usize = 50;

/// The customer's cases with a lawyer (newest first).
pub async fn bookable_cases(ctx: &Context, user: &User) -> Result<Vec<BookableCase>, ApiError> {
    let (customer, _) = access(ctx, user, Addon::VideoMeeting, false).await?;
    let plan = crate::domain::policy::customer_side_plan(user, customer, vec![CaseStatus::Inprogress]);
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    while out.len() < MAX_CASES {
        let page = ctx.store.list_cases(&plan, None, ListOrder::Desc, cursor.as_deref()).await?;
        for c in page.results {
            if let Some(lawyer) = c.lawyer.clone() {
                out.push(BookableCase {
                    uid: c.uid,
                    case_number: c.case_number,
                    subject: c.subject,
                    lawyer_uid: lawyer,
                    lawyer_name: c.lawyer_name.unwrap_or_default(),
                });
            }
        }
        match page.next {
            Some(n) => cursor = Some(n),
            None => break,
        }
    }
    out.truncate(MAX_CASES);
    Ok(out)
}

/// A case of the caller's customer that has a lawyer.
async fn own_case(ctx: &Context, user: &User, customer: &str, case_uid: &str) -> Result<crate::domain::case::Case, ApiError> {
    let case = ctx
        .store
        .get_case(case_uid)
        .await?
        .map(|c| c.case)
        .filter(|c| c.customer == customer && crate::domain::policy::may_view(user, c))
        .ok_or(ApiError::NotFound)?;
    if case.status != CaseStatus::Inprogress || case.lawyer.is_none() {
        return Err(ApiError::bad(Msg::NoLawyerFound));
    }
    Ok(case)
}

/// The free times the lawyer of `case_uid` offers, from now on.
pub async fn free_slots(ctx: &Context, user: &User, case_uid: &str) -> Result<Vec<Slot>, ApiError> {
    let (customer, _) = access(ctx, user, Addon::VideoMeeting, false).await?;
    let case = own_case(ctx, user, &customer, case_uid).await?;
    let now = Utc::now();
    let lawyer = case.lawyer.unwrap_or_default();
    let slots = ctx.store.meeting_slots(&lawyer, now, now + Duration::days(HORIZON_DAYS)).await?;
    Ok(slots.into_iter().map(|(s, _)| s).filter(|s| s.meeting.is_none() && s.start > now).collect())
}

/// The customer's booked meetings, in start order (past ones of the last 30 days too).
pub async fn customer_meetings(ctx: &Context, user: &User) -> Result<Vec<Meeting>, ApiError> {
    let (customer, _) = access(ctx, user, Addon::VideoMeeting, false).await?;
    let since = Utc::now() - Duration::days(30);
    let mut found: Vec<Meeting> = ctx.store.meetings(&customer).await?.into_iter().filter(|m| m.end() > since).collect();
    if !crate::domain::policy::holds(user, crate::domain::Permission::ViewAllCases) {
        // A contact without view_all_cases: the meetings of the cases it may see.
        let mut seen = std::collections::BTreeMap::new();
        for m in &found {
            if !seen.contains_key(&m.case_uid) {
                let visible = ctx.store.get_case(&m.case_uid).await?.is_some_and(|c| crate::domain::policy::may_view(user, &c.case));
                seen.insert(m.case_uid.clone(), visible);
            }
        }
        found.retain(|m| seen.get(&m.case_uid) == Some(&true));
    }
    Ok(found)
}

#[derive(Clone, Debug, Deserialize, ToSchema)]
#[schema(example = json!({"case_uid": "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a01", "slot_uid": "a free slot's uid", "request_id": "0123456789abcdef0123456789abcdef"}))]
pub struct BookingForm {
    #[serde(default)]
    #[schema(required = true, min_length = 1, format = "uuid")]
    pub case_uid: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub slot_uid: String,
    /// 32 hex digits the client draws once per booking: a retried request
    /// answers the meeting made the first time (and the same room).
    /// Deprecated: send the `Idempotency-Key` header instead. Still accepted
    /// for this release: without the header it is the request's key.
    #[schema(deprecated)]
    pub request_id: Option<String>,
}

/// Books a free time of the case's lawyer: one use of the video-meeting
/// plan ('Limit has been reached, please upgrade your account').
pub async fn book(ctx: &Context, user: &User, form: &BookingForm, once: &Once) -> Result<Meeting, ApiError> {
    let (customer, facts) = access(ctx, user, Addon::VideoMeeting, false).await?;
    let uid = record_id(form.request_id.as_deref().or(once.stable_id().as_deref()));
    if let Some(done) = ctx.store.meeting(&customer, &uid).await? {
        return Ok(done);
    }
    let case = own_case(ctx, user, &customer, form.case_uid.trim()).await?;
    let lawyer = case.lawyer.clone().unwrap_or_default();
    let (slot, _) = ctx.store.meeting_slot(&lawyer, form.slot_uid.trim()).await?.ok_or(ApiError::NotFound)?;
    rules::may_book(&customer, &case, &slot, Utc::now())?;
    // The limit before the provider is asked (and again in the transaction).
    let row = crate::domain::addons::usable_row(&facts.rows, Addon::VideoMeeting, Utc::now().naive_utc())
        .cloned()
        .ok_or(ApiError::ForbiddenBy(Msg::ServiceNotPurchased))?;
    crate::domain::subscription::consume(&row, crate::domain::subscription::Usage::Count(1), Utc::now().naive_utc())
        .map_err(|e| ApiError::bad(e.key()))?;
    let title = format!("{} {}", case.case_number, case.subject).chars().take(200).collect::<String>();
    let room = ctx.providers.meeting.create_room(&uid, &title, slot.start, slot.minutes).await?;
    let written = write_booking(ctx, user, &customer, &uid, &case, (&slot, &room), once).await;
    if written.is_err() && !matches!(ctx.store.meeting(&customer, &uid).await, Ok(Some(_))) {
        // Lost the slot or the limit: the room must not outlive the refusal
        // (a failed close is left to the provider's own expiry of unused rooms).
        let _ = ctx.providers.meeting.cancel_room(&room.id).await;
    }
    written
}

async fn write_booking(
    ctx: &Context,
    user: &User,
    customer: &str,
    uid: &str,
    case: &crate::domain::case::Case,
    (slot, room): (&Slot, &crate::providers::meeting::Room),
    once: &Once,
) -> Result<Meeting, ApiError> {
    let customer_name = ctx.store.get_user(customer).await?.map(|u| u.full_name()).unwrap_or_default();
    let customer_name = if case.customer_name.trim().is_empty() { customer_name } else { case.customer_name.clone() };
    let customer_name = &customer_name;
    retry::until_done(|attempt| async move {
        // A try whose write landed although its answer was lost counts once.
        if attempt > 0 {
            if let Some(done) = ctx.store.meeting(customer, uid).await? {
                return Ok(Attempt::Done(done));
            }
        }
        let (mut fresh, rev) = ctx.store.meeting_slot(&slot.lawyer_uid, &slot.uid).await?.ok_or(ApiError::bad(Msg::MeetingSlotTaken))?;
        rules::may_book(customer, case, &fresh, Utc::now())?;
        let row = stored_row(ctx, customer, Addon::VideoMeeting).await?;
        let m = Meeting {
            uid: uid.to_string(),
            slot_uid: fresh.uid.clone(),
            lawyer_uid: fresh.lawyer_uid.clone(),
            lawyer_name: fresh.lawyer_name.clone(),
            customer_uid: customer.to_string(),
            customer_name: customer_name.clone(),
            case_uid: case.uid.clone(),
            case_number: case.case_number.clone(),
            subject: case.subject.clone(),
            start: fresh.start,
            minutes: fresh.minutes,
            room_id: room.id.clone(),
            room_url: room.url.clone(),
            purchase_id: row.row.id,
            booked_by: user.uid.clone(),
            booked_by_name: user.full_name(),
            created_at: Utc::now(),
        };
        fresh.meeting = Some(m.clone());
        let mut tx = ctx.store.tx();
        ctx.store.add_meeting_slot_write(&mut tx, &fresh, rev)?;
        ctx.store.add_meeting(&mut tx, &m)?;
        once.record(&mut tx, &m)?;
        // One use on the row under its limit, with its ledger entry (the CSV time report).
        let at = Utc::now().naive_utc();
        let entry = UsageEntry {
            entry_id: format!("meeting-{uid}"),
            purchase_id: row.row.id,
            date: at.date(),
            hours: Hundredths::ZERO,
            count: 1,
            case_uid: Some(case.uid.clone()),
            description: format!("Video meeting: {} {}", m.case_number, crate::domain::calendar::stockholm_text(m.start))
                .chars()
                .take(200)
                .collect(),
            lawyer: m.lawyer_name.clone(),
        };
        let next = crate::domain::subscription::consume(&row.row, entry.usage(), at).map_err(|e| ApiError::bad(e.key()))?;
        ctx.store.add_counted_use(&mut tx, &row.row, &entry, at)?;
        let queued = events::record(
            ctx,
            &mut tx,
            &[Event::SubscriptionChanged { row: &next, change: SubscriptionChange::Used }, Event::MeetingBooked { meeting: &m, by: user }],
        )
        .await?;
        Ok(if events::commit(ctx, tx, queued).await? { Attempt::Done(m) } else { Attempt::Conflict })
    })
    .await
}

/// Cancels `m` (the provider's room first, then the meeting, the slot's
/// release and the other side's notification in one transaction). The
/// booked use stays counted: the plan counts bookings.
async fn cancel(ctx: &Context, user: &User, m: Meeting) -> Result<Meeting, ApiError> {
    rules::may_cancel(user, &m, Utc::now())?;
    ctx.providers.meeting.cancel_room(&m.room_id).await?;
    let m = &m;
    retry::until_done(|_| async move {
        let Some(current) = ctx.store.meeting(&m.customer_uid, &m.uid).await? else {
            return Ok(Attempt::Done(m.clone()));
        };
        let mut tx = ctx.store.tx();
        ctx.store.add_meeting_delete(&mut tx, &current)?;
        if let Some((mut slot, rev)) = ctx.store.meeting_slot(&current.lawyer_uid, &current.slot_uid).await? {
            if slot.meeting.as_ref().is_some_and(|b| b.uid == current.uid) {
                slot.meeting = None;
                ctx.store.add_meeting_slot_write(&mut tx, &slot, rev)?;
            }
        }
        let queued = events::record(ctx, &mut tx, &[Event::MeetingCancelled { meeting: &current, by: user }]).await?;
        Ok(if events::commit(ctx, tx, queued).await? { Attempt::Done(current) } else { Attempt::Conflict })
    })
    .await
}

/// The customer side cancels one of its meetings.
pub async fn cancel_by_customer(ctx: &Context, user: &User, meeting_uid: &str) -> Result<Meeting, ApiError> {
    let customer = crate::domain::addons::customer_of(user)?;
    let m = ctx.store.meeting(&customer, meeting_uid).await?.ok_or(ApiError::NotFound)?;
    if !crate::domain::policy::holds(user, crate::domain::Permission::ViewAllCases) {
        // Another's case's meeting does not exist for a contact without view_all_cases.
        ctx.store.get_case(&m.case_uid).await?.filter(|c| crate::domain::policy::may_view(user, &c.case)).ok_or(ApiError::NotFound)?;
    }
    cancel(ctx, user, m).await
}

/// The lawyer (or admin) cancels the meeting booked on one of the lawyer's slots.
pub async fn cancel_by_lawyer(ctx: &Context, user: &User, lawyer_uid: &str, slot_uid: &str) -> Result<Meeting, ApiError> {
    rules::may_manage_slots(user, lawyer_uid)?;
    let (slot, _) = ctx.store.meeting_slot(lawyer_uid, slot_uid).await?.ok_or(ApiError::NotFound)?;
    let m = slot.meeting.ok_or(ApiError::NotFound)?;
    cancel(ctx, user, m).await
}

pub use crate::domain::policy::lawyer_for;

/// A lawyer's offered times from a day ago to the horizon, booked ones with their meeting.
pub async fn lawyer_slots(ctx: &Context, user: &User, lawyer_uid: &str) -> Result<Vec<Slot>, ApiError> {
    rules::may_manage_slots(user, lawyer_uid)?;
    let now = Utc::now();
    Ok(ctx
        .store
        .meeting_slots(lawyer_uid, now - Duration::days(1), now + Duration::days(HORIZON_DAYS + 1))
        .await?
        .into_iter()
        .map(|(s, _)| s)
        .collect())
}

#[derive(Clone, Debug, Deserialize, ToSchema)]
#[schema(example = json!({"start": "2026-12-01T09:00:00+01:00", "minutes": 30}))]
pub struct SlotForm {
    /// The start (RFC 3339; the web sends the Europe/Stockholm time it shows).
    #[schema(value_type = String, format = DateTime)]
    pub start: DateTime<Utc>,
    /// 30, 45 or 60.
    #[schema(minimum = 30, maximum = 60, multiple_of = 15)]
    pub minutes: u32,
}

/// The lawyer offers a time (no overlap with their other times, even under concurrent offers).
pub async fn offer_slot(ctx: &Context, user: &User, lawyer_uid: &str, form: &SlotForm, once: &Once) -> Result<Slot, ApiError> {
    rules::may_manage_slots(user, lawyer_uid)?;
    let lawyer = ctx.store.get_user(lawyer_uid).await?.filter(|u| crate::domain::policy::is(u, Role::Lawyer)).ok_or(ApiError::NotFound)?;
    let lawyer = &lawyer;
    retry::until_done(|_| async move {
        let now = Utc::now();
        let guard = ctx.store.meeting_slots_guard(lawyer_uid).await?;
        // Every slot that could overlap or count as upcoming: from a day before now.
        let existing: Vec<Slot> = ctx
            .store
            .meeting_slots(lawyer_uid, now - Duration::days(1), now + Duration::days(HORIZON_DAYS + 1))
            .await?
            .into_iter()
            .map(|(s, _)| s)
            .collect();
        rules::validate_slot(form.start, form.minutes, now, &existing)?;
        let slot = Slot {
            uid: rules::slot_uid(form.start),
            lawyer_uid: lawyer_uid.to_string(),
            lawyer_name: lawyer.full_name(),
            start: form.start,
            minutes: form.minutes,
            meeting: None,
        };
        let mut tx = ctx.store.tx();
        ctx.store.add_new_meeting_slot(&mut tx, &slot, guard)?;
        once.record(&mut tx, &slot)?;
        Ok(if ctx.store.commit(tx).await? { Attempt::Done(slot) } else { Attempt::Conflict })
    })
    .await
}

/// The lawyer removes a free time (a booked one is cancelled first).
pub async fn remove_slot(ctx: &Context, user: &User, lawyer_uid: &str, slot_uid: &str) -> Result<(), ApiError> {
    rules::may_manage_slots(user, lawyer_uid)?;
    retry::until_done(|_| async move {
        let Some((slot, rev)) = ctx.store.meeting_slot(lawyer_uid, slot_uid).await? else {
            return Ok(Attempt::Done(()));
        };
        if slot.meeting.is_some() {
            return Err(ApiError::bad(Msg::MeetingSlotTaken));
        }
        let mut tx = ctx.store.tx();
        ctx.store.add_meeting_slot_delete(&mut tx, lawyer_uid, slot_uid, rev)?;
        Ok(if ctx.store.commit(tx).await? { Attempt::Done(()) } else { Attempt::Conflict })
    })
    .await
}

//! A row's end (the scheduled job, spec §4): expiry, the advance row taking
//! over, renewal; and which hour row is current.

use chrono::NaiveDateTime;

use super::*;
use crate::domain::catalogue::Hundredths;

/// Whether the scheduled job acts on `row` now: not yet expired and its
/// `expire_on` reached.
pub fn is_due(row: &PurchasedService, now: NaiveDateTime) -> bool {
    !row.expired && row.expire_on <= now
}

/// `row` at its end: expired and no longer active.
pub fn expired(row: &PurchasedService) -> PurchasedService {
    let mut done = row.clone();
    done.expired = true;
    done.active = false;
    done
}

/// The advance row (bought ahead, not active) of the same customer and
/// service that takes over when the active `row` ends: the earliest one.
pub fn advance_successor<'a>(rows: &'a [PurchasedService], row: &PurchasedService) -> Option<&'a PurchasedService> {
    if !row.active {
        return None;
    }
    rows.iter()
        .filter(|r| r.id != row.id && r.service.id == row.service.id && r.advance && !r.active && !r.expired)
        .min_by_key(|r| (r.start_date, r.id))
}

/// An advance row taking over: active (it keeps `advance`, so the table
/// still tags it). When it takes over before its planned start (staff ended
/// the current row early), it starts now and keeps the span bought from
/// there: a row active but starting later would show "Deactivated" and
/// refuse the customer's cases until that date.
pub fn promoted(row: &PurchasedService, now: NaiveDateTime) -> PurchasedService {
    let mut next = row.clone();
    let now = whole_seconds(now);
    if now < row.start_date {
        next.start_date = now;
        next.expire_on = now + (row.expire_on - row.start_date);
    }
    next.active = true;
    next.updated_at = now;
    next
}

/// Ids from the purchase counter stay below this; a renewal's id is its
/// parent's plus this step. Deterministic, so two job runs renewing the same
/// row at once write the very same child item (never two children), and
/// unique, because each chain keeps its first row's id in the low bits.
pub const RENEWAL_ID_STEP: u64 = 1 << 40;

pub fn renewal_id(parent: u64) -> u64 {
    parent + RENEWAL_ID_STEP
}

/// The renewal of a row at its expiry (scheduled job): same grant, consumed
/// amounts back to zero, starting when the old one ended, for the same span.
/// `None` when the automatic update date does not ask for it.
pub fn renewal(row: &PurchasedService, new_id: u64, now: NaiveDateTime) -> Option<PurchasedService> {
    let until = row.auto_update_date_end?;
    if row.child.is_some() || row.expire_on.date() > until {
        return None;
    }
    let span = row.expire_on - row.start_date;
    let mut next = row.clone();
    next.id = new_id;
    next.consumed_limit = 0;
    next.consumed_hour = Hundredths::ZERO;
    next.expired = false;
    next.active = true;
    next.advance = false;
    next.start_date = row.expire_on;
    next.expire_on = row.expire_on + span;
    next.child = None;
    next.created_at = now;
    next.updated_at = now;
    next.refresh_flags();
    Some(next)
}

/// The hour-based row (service 1) a case's billable hours are booked
/// against now: active, not expired, started and not yet ended; the oldest
/// start first when several overlap.
pub fn current_hour_row(rows: Vec<PurchasedService>, now: NaiveDateTime) -> Option<PurchasedService> {
    rows.into_iter()
        .filter(|r| r.is_hour_based() && r.active && !r.expired && r.start_date <= now && r.expire_on > now)
        .min_by_key(|r| r.start_date)
}

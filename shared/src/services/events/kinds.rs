//! What can happen: the events a use case hands to [`super::record`]. The
//! effects (counters, notifications, index entries) read these types; the
//! types need none of them, so no effect module imports the recorder back.

use crate::domain::case::{Case, CaseHour};
use crate::domain::customer::CustomerProfile;
use crate::domain::meeting::Meeting;
use crate::domain::message::Message;
use crate::domain::rating::Rating;
use crate::domain::subscription::PurchasedService;
use crate::domain::User;

/// Something that happened, as the use case that made it happen saw it.
pub enum Event<'a> {
    /// A new case (any creation route).
    CaseCreated { case: &'a Case, by: &'a User },
    /// The fields of a case changed (an edit, a document added or removed).
    CaseChanged { before: &'a Case, after: &'a Case, by: &'a User },
    /// A status action moved the case.
    CaseStatusChanged { before: &'a Case, after: &'a Case, by: &'a User },
    /// Hours were logged, edited, deleted or marked invoiced on a case;
    /// `entries` are the changed entries as (before, after) (the
    /// statistics counters move by their difference).
    CaseHoursChanged { case: &'a Case, by: &'a User, change: HoursChange, entries: &'a [(Option<CaseHour>, Option<CaseHour>)] },
    /// A message was written in a case.
    MessagePosted { case: &'a Case, message: &'a Message, by: &'a User },
    /// The customer rated a closed case.
    CaseRated { case: &'a Case, rating: &'a Rating },
    /// A customer signed up or staff created or edited one.
    CustomerSaved { profile: &'a CustomerProfile },
    /// A customer signed up: a new account waits for approval.
    CustomerRegistered { profile: &'a CustomerProfile },
    /// A customer contact was created or edited.
    ContactSaved { contact: &'a User },
    /// A subscription row was bought, added, changed, activated, used,
    /// renewed, deleted or expired.
    SubscriptionChanged { row: &'a PurchasedService, change: SubscriptionChange },
    /// A video meeting was booked.
    MeetingBooked { meeting: &'a Meeting, by: &'a User },
    /// A booked video meeting was cancelled by either side.
    MeetingCancelled { meeting: &'a Meeting, by: &'a User },
    /// `follower` (a user uid) was made a follower of the case (`case` as
    /// it is after).
    FollowerAdded { case: &'a Case, follower: &'a str, by: &'a User },
    /// `follower` no longer follows the case (taken off, or stopped itself).
    FollowerRemoved { case: &'a Case, follower: &'a str, by: &'a User },
}

/// What happened to a case's hours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HoursChange {
    Logged,
    Edited,
    Deleted,
    Invoiced,
}

/// What happened to a subscription row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubscriptionChange {
    /// Bought by the customer or added by staff.
    Bought,
    /// Its dates, hours or automatic update date changed.
    Changed,
    Activated,
    /// A use (hours, a service use) was booked or taken back.
    Used,
    Deleted,
    Expired,
    /// Renewed as a child row, or an advance row became the current one.
    Renewed,
}

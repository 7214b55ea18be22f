//! Buying (spec §5): what a purchase grants, active and advance rows, and
//! the rule keys of subscriptions.

use crate::error::Msg;
use chrono::{Duration, NaiveDateTime};

use super::*;
use crate::domain::catalogue::{service, Hundredths, Package, ServicePlan, CONSULTANCY};

/// Rule keys of this module (translated in the web's server.json).
pub const ALREADY_ACTIVE_AND_ADVANCE: Msg = Msg::ActiveAndAdvanceSubscription;
pub const LIMIT_REACHED: Msg = Msg::LimitReached;
pub const NO_VALID_SUBSCRIPTION: Msg = Msg::NoValidSubscription;
pub const HOUR_MIN: Msg = Msg::HourMin;

#[derive(Debug, PartialEq, Eq)]
pub enum RuleError {
    AlreadyActiveAndAdvance,
    LimitReached,
    NoValidSubscription,
}

impl RuleError {
    pub fn key(&self) -> Msg {
        match self {
            RuleError::AlreadyActiveAndAdvance => ALREADY_ACTIVE_AND_ADVANCE,
            RuleError::LimitReached => LIMIT_REACHED,
            RuleError::NoValidSubscription => NO_VALID_SUBSCRIPTION,
        }
    }
}

/// What a purchase gives, before it becomes a row.
#[derive(Clone, Debug)]
pub struct Grant {
    pub service_id: u8,
    pub package: Option<NamedRef>,
    pub service_plan: Option<NamedRef>,
    pub limit: Option<u32>,
    pub hour: Hundredths,
    pub days: u32,
    /// What the customer pays (SEK in hundredths): the catalogue price, or
    /// a custom package's own. Kept on the row it makes.
    pub price: Option<Hundredths>,
}

impl Grant {
    pub fn from_package(p: &Package) -> Grant {
        Grant {
            service_id: CONSULTANCY,
            package: Some(NamedRef { id: Some(p.id), name: p.name.clone() }),
            service_plan: None,
            limit: None,
            hour: p.hours,
            days: p.duration_days,
            price: Some(p.price),
        }
    }

    pub fn from_plan(p: &ServicePlan) -> Grant {
        Grant {
            service_id: p.service_id,
            package: None,
            service_plan: Some(NamedRef { id: Some(p.id), name: p.name.clone() }),
            limit: if p.service_id == CONSULTANCY { None } else { p.limit },
            hour: if p.service_id == CONSULTANCY { p.hours.unwrap_or_default() } else { Hundredths::ZERO },
            days: p.expiry_days,
            price: Some(p.price),
        }
    }

    /// A custom package (admin): consultancy hours with no catalogue entry.
    pub fn custom(name: &str, hours: Hundredths, days: u32) -> Grant {
        Grant {
            service_id: CONSULTANCY,
            package: Some(NamedRef { id: None, name: name.to_string() }),
            service_plan: None,
            limit: None,
            hour: hours,
            days,
            price: None,
        }
    }

    /// The grant sold at `price` (a custom package's own price).
    pub fn priced(self, price: Hundredths) -> Grant {
        Grant { price: Some(price), ..self }
    }
}

/// Spec §5: a customer may not hold an active and an advance subscription at
/// once. Buying while an active row of the same service is held makes the new
/// row an advance one (bought ahead, inactive until staff activate it or the
/// current one ends); buying again while both exist is refused.
/// Returns whether the new row is an advance row.
pub fn purchase_kind(existing: &[PurchasedService], service_id: u8) -> Result<bool, RuleError> {
    let held = existing.iter().filter(|r| r.is_current() && r.service.id == service_id);
    let (mut active, mut advance) = (false, false);
    for r in held {
        active |= r.active;
        advance |= r.advance && !r.active;
    }
    match (active, advance) {
        (true, true) => Err(RuleError::AlreadyActiveAndAdvance),
        (true, false) => Ok(true),
        // An advance row alone, or nothing: the new row is the active one.
        _ => Ok(false),
    }
}

/// The new row for a grant. `now` starts it; an advance row starts when the
/// customer's current one ends.
pub fn new_row(id: u64, customer_uid: &str, grant: &Grant, advance: bool, start: NaiveDateTime, now: NaiveDateTime) -> PurchasedService {
    // Grants name the fixed services (a plan's id was checked when the plan
    // was made); an unknown id keeps its number and no name.
    let name = service(grant.service_id).map(|s| s.name).unwrap_or_default();
    // The wire and storage format has whole seconds.
    let (start, now) = (whole_seconds(start), whole_seconds(now));
    let mut row = PurchasedService {
        id,
        customer_uid: customer_uid.to_string(),
        package_id: grant.package.as_ref().and_then(|p| p.id),
        service: ServiceRef { id: grant.service_id, name: name.to_string() },
        service_plan: grant.service_plan.clone(),
        packages: grant.package.clone(),
        limit: grant.limit,
        consumed_limit: 0,
        hour: grant.hour,
        consumed_hour: Hundredths::ZERO,
        hour_less_than_consumed: false,
        advance,
        active: !advance,
        expired: false,
        start_date: start,
        expire_on: start + Duration::days(grant.days as i64),
        auto_update_date_end: None,
        child: None,
        updated_at: now,
        created_at: now,
        sold_by: None,
        price: grant.price,
    };
    row.refresh_flags();
    row
}

/// Where a purchase lands (spec §5, [`purchase_kind`]): whether the new row
/// is an advance row, and when it starts: now, or for an advance row when the
/// customer's current row of the service ends.
pub fn plan_purchase(existing: &[PurchasedService], service_id: u8, now: NaiveDateTime) -> Result<(bool, NaiveDateTime), RuleError> {
    let advance = purchase_kind(existing, service_id)?;
    let start = if advance {
        existing.iter().filter(|r| r.is_current() && r.active && r.service.id == service_id).map(|r| r.expire_on).max().unwrap_or(now)
    } else {
        now
    };
    Ok((advance, start))
}

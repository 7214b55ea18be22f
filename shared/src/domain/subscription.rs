//! Purchased services, the subscription rows of spec §3, their status (spec
//! §4) and the purchase and consumption rules (spec §5, §8). No storage here.

use crate::error::{FieldErrors, Msg};
use chrono::{Duration, NaiveDate, NaiveDateTime};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::catalogue::{service, Hundredths, Package, ServicePlan, CONSULTANCY};

/// Dates on the wire: 'YYYY-MM-DD HH:mm:ss' (spec §7, §9), UTC.
pub mod datetime_format {
    use chrono::NaiveDateTime;
    use serde::{Deserialize, Deserializer, Serializer};
    pub const FORMAT: &str = "%Y-%m-%d %H:%M:%S";
    pub fn serialize<S: Serializer>(v: &NaiveDateTime, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.format(FORMAT).to_string())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<NaiveDateTime, D::Error> {
        let t = String::deserialize(d)?;
        NaiveDateTime::parse_from_str(&t, FORMAT).map_err(serde::de::Error::custom)
    }
}

pub fn whole_seconds(t: NaiveDateTime) -> NaiveDateTime {
    use chrono::Timelike;
    t.with_nanosecond(0).unwrap_or(t)
}

pub fn parse_datetime(text: &str) -> Option<NaiveDateTime> {
    NaiveDateTime::parse_from_str(text.trim(), datetime_format::FORMAT).ok()
}

pub fn parse_date(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d").ok()
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ServiceRef {
    pub id: u8,
    pub name: String,
}

/// A named reference (`service_plan` / `packages` of a row).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct NamedRef {
    /// None for a custom package (it has no catalogue entry).
    pub id: Option<u64>,
    pub name: String,
}

/// Spec §3 purchased service row, as stored and as sent (plus `status`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PurchasedService {
    pub id: u64,
    /// The customer's uid (the customer User's uid).
    pub customer_uid: String,
    pub package_id: Option<u64>,
    pub service: ServiceRef,
    pub service_plan: Option<NamedRef>,
    pub packages: Option<NamedRef>,
    /// Uses allowed for a limited service (None for the hour-based one).
    pub limit: Option<u32>,
    pub consumed_limit: u32,
    pub hour: Hundredths,
    pub consumed_hour: Hundredths,
    pub hour_less_than_consumed: bool,
    pub advance: bool,
    pub active: bool,
    pub expired: bool,
    #[serde(with = "datetime_format")]
    #[schema(value_type = String, example = "2026-01-31 00:00:00")]
    pub start_date: NaiveDateTime,
    #[serde(with = "datetime_format")]
    #[schema(value_type = String, example = "2026-12-31 00:00:00")]
    pub expire_on: NaiveDateTime,
    /// Renew automatically at expiry while this date is not passed.
    #[schema(value_type = Option<String>, example = "2027-12-31")]
    pub auto_update_date_end: Option<NaiveDate>,
    /// The id of the row that renewed this one.
    pub child: Option<u64>,
    /// The 'last update date' column.
    #[serde(with = "datetime_format")]
    #[schema(value_type = String)]
    pub updated_at: NaiveDateTime,
    #[serde(with = "datetime_format")]
    #[schema(value_type = String)]
    pub created_at: NaiveDateTime,
}

/// Spec §4 subscription status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum Status {
    Expired,
    Deactivated,
    Active,
    Inactive,
    Consumed,
}

/// Spec §4, checked in this order. `now` is UTC.
pub fn status(row: &PurchasedService, now: NaiveDateTime) -> Status {
    if row.expired {
        Status::Expired
    } else if row.start_date > now {
        Status::Deactivated
    } else if row.active {
        Status::Active
    } else if row.advance {
        Status::Inactive
    } else if row.hour < row.consumed_hour {
        Status::Consumed
    } else {
        Status::Deactivated
    }
}

/// A row as the API sends it: the stored fields plus the status, computed
/// once here so every screen shows the same thing.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RowView {
    #[serde(flatten)]
    pub row: PurchasedService,
    pub status: Status,
}

impl PurchasedService {
    pub fn view(self, now: NaiveDateTime) -> RowView {
        let status = status(&self, now);
        RowView { row: self, status }
    }

    pub fn is_hour_based(&self) -> bool {
        self.service.id == CONSULTANCY
    }

    /// A row that still counts as held (not expired).
    pub fn is_current(&self) -> bool {
        !self.expired
    }

    /// Spec §4: activating is offered only when hours are below consumed.
    pub fn can_activate(&self) -> bool {
        !self.expired && self.hour < self.consumed_hour
    }

    /// Spec §4: editing the automatic update date only without a child.
    pub fn can_edit_auto_update(&self) -> bool {
        self.child.is_none()
    }

    fn refresh_flags(&mut self) {
        self.hour_less_than_consumed = self.hour < self.consumed_hour;
    }
}

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
        }
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
    let svc = service(grant.service_id).expect("grant of a known service");
    // The wire and storage format has whole seconds.
    let (start, now) = (whole_seconds(start), whole_seconds(now));
    let mut row = PurchasedService {
        id,
        customer_uid: customer_uid.to_string(),
        package_id: grant.package.as_ref().and_then(|p| p.id),
        service: ServiceRef { id: svc.id, name: svc.name.to_string() },
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
    };
    row.refresh_flags();
    row
}

/// What a use costs: a count for limited services, hours for service 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Usage {
    Count(u32),
    Hours(Hundredths),
}

/// Spec §8 'Limit has been reached, please upgrade your account': a use that
/// would take the consumed amount past the limit is refused, unless the row
/// is an advance one (bought ahead, so staff may run it over). Expired rows
/// cannot be used. Returns the updated row.
pub fn consume(row: &PurchasedService, amount: Usage, now: NaiveDateTime) -> Result<PurchasedService, RuleError> {
    if row.expired || row.start_date > now {
        return Err(RuleError::NoValidSubscription);
    }
    let mut next = row.clone();
    match amount {
        Usage::Count(n) => {
            let used = row.consumed_limit.saturating_add(n);
            if let Some(limit) = row.limit {
                if used > limit && !row.advance {
                    return Err(RuleError::LimitReached);
                }
            }
            next.consumed_limit = used;
        }
        Usage::Hours(h) => {
            let used = row.consumed_hour + h;
            if used > row.hour && !row.advance {
                return Err(RuleError::LimitReached);
            }
            next.consumed_hour = used;
        }
    }
    next.refresh_flags();
    next.updated_at = now;
    Ok(next)
}

/// Gives back a use (a case hour deleted): never below zero.
pub fn release(row: &PurchasedService, amount: Usage, now: NaiveDateTime) -> PurchasedService {
    let mut next = row.clone();
    match amount {
        Usage::Count(n) => next.consumed_limit = row.consumed_limit.saturating_sub(n),
        Usage::Hours(h) => next.consumed_hour = Hundredths((row.consumed_hour.0 - h.0).max(0)),
    }
    next.refresh_flags();
    next.updated_at = now;
    next
}

/// The change service form (spec §5): dates required, the end after the
/// start, hours only for service 1 and then at least 0.01.
pub fn change_service(
    row: &PurchasedService,
    start_date: Option<&str>,
    expire_on: Option<&str>,
    hour: Option<Hundredths>,
    now: NaiveDateTime,
) -> Result<PurchasedService, FieldErrors> {
    let mut p = FieldErrors::new();
    let mut add = |f: &str, k: Msg| p.add(f, k);
    let start = match start_date.map(str::trim).filter(|s| !s.is_empty()) {
        None => {
            add("start_date", Msg::StartDateRequired);
            None
        }
        Some(t) => parse_datetime(t).or_else(|| {
            add("start_date", Msg::InvalidDatetime);
            None
        }),
    };
    let end = match expire_on.map(str::trim).filter(|s| !s.is_empty()) {
        None => {
            add("expire_on", Msg::ExpireOnRequired);
            None
        }
        Some(t) => parse_datetime(t).or_else(|| {
            add("expire_on", Msg::InvalidDatetime);
            None
        }),
    };
    if let (Some(s), Some(e)) = (start, end) {
        if e <= s {
            add("expire_on", Msg::ExpireBeforeStart);
        }
    }
    if row.is_hour_based() {
        match hour {
            None => add("hour", Msg::HourRequired),
            Some(h) if h.0 < 1 => add("hour", HOUR_MIN),
            Some(_) => {}
        }
    } else if hour.is_some() {
        add("hour", Msg::HourOnlyForConsultancy);
    }
    if !p.is_empty() {
        return Err(p);
    }
    let mut next = row.clone();
    next.start_date = start.expect("checked");
    next.expire_on = end.expect("checked");
    if let Some(h) = hour {
        next.hour = h;
    }
    next.refresh_flags();
    next.updated_at = now;
    Ok(next)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn dt(s: &str) -> NaiveDateTime {
        parse_datetime(s).unwrap()
    }

    fn row() -> PurchasedService {
        let grant = Grant::custom("Custom", Hundredths(1000), 30);
        new_row(1, "c", &grant, false, dt("2026-01-01 00:00:00"), dt("2026-01-01 00:00:00"))
    }

    const NOW: &str = "2026-01-10 00:00:00";

    #[test]
    fn status_follows_the_spec_order() {
        let now = dt(NOW);
        // Expired wins over everything.
        let mut r = row();
        r.expired = true;
        r.start_date = dt("2027-01-01 00:00:00");
        assert_eq!(status(&r, now), Status::Expired);
        // Start in the future → Deactivated even when active.
        let mut r = row();
        r.start_date = dt("2026-02-01 00:00:00");
        assert!(r.active);
        assert_eq!(status(&r, now), Status::Deactivated);
        // Active.
        assert_eq!(status(&row(), now), Status::Active);
        // Not active but advance → Inactive (even if consumed).
        let mut r = row();
        r.active = false;
        r.advance = true;
        r.consumed_hour = Hundredths(2000);
        assert_eq!(status(&r, now), Status::Inactive);
        // Not active, not advance, hour < consumed → Consumed.
        let mut r = row();
        r.active = false;
        r.consumed_hour = Hundredths(1001);
        assert_eq!(status(&r, now), Status::Consumed);
        // Otherwise Deactivated (hour == consumed is not Consumed).
        let mut r = row();
        r.active = false;
        r.consumed_hour = Hundredths(1000);
        assert_eq!(status(&r, now), Status::Deactivated);
        // The view carries the status and the advance flag.
        let mut r = row();
        r.advance = true;
        let v = serde_json::to_value(r.view(now)).unwrap();
        assert_eq!(v["status"], "Active");
        assert_eq!(v["advance"], true);
        assert_eq!(v["hour"], 10.0);
        assert_eq!(v["start_date"], "2026-01-01 00:00:00");
    }

    #[test]
    fn an_active_and_an_advance_row_cannot_be_held_at_once() {
        assert_eq!(purchase_kind(&[], 1), Ok(false));
        let active = row();
        assert_eq!(purchase_kind(std::slice::from_ref(&active), 1), Ok(true));
        // Another service does not count.
        assert_eq!(purchase_kind(std::slice::from_ref(&active), 3), Ok(false));
        let mut adv = row();
        adv.active = false;
        adv.advance = true;
        assert_eq!(purchase_kind(&[active.clone(), adv.clone()], 1), Err(RuleError::AlreadyActiveAndAdvance));
        assert_eq!(RuleError::AlreadyActiveAndAdvance.key(), Msg::ActiveAndAdvanceSubscription);
        // Expired rows are not held.
        let mut old = active.clone();
        old.expired = true;
        assert_eq!(purchase_kind(&[old, adv], 1), Ok(false));
    }

    #[test]
    fn consumption_stops_at_the_limit_unless_advance() {
        let now = dt(NOW);
        let r = row();
        let r = consume(&r, Usage::Hours(Hundredths(999)), now).unwrap();
        assert_eq!(r.consumed_hour, Hundredths(999));
        let r = consume(&r, Usage::Hours(Hundredths(1)), now).unwrap();
        assert_eq!(r.consumed_hour, Hundredths(1000));
        assert_eq!(consume(&r, Usage::Hours(Hundredths(1)), now), Err(RuleError::LimitReached));
        assert_eq!(RuleError::LimitReached.key(), Msg::LimitReached);
        let mut adv = r.clone();
        adv.advance = true;
        let over = consume(&adv, Usage::Hours(Hundredths(50)), now).unwrap();
        assert!(over.hour_less_than_consumed);

        let plan = ServicePlan {
            id: 3,
            name: "Bisnode 2".into(),
            service_id: 3,
            limit: Some(2),
            hours: None,
            price: Hundredths(100),
            expiry_days: 30,
            public: true,
            created_at: chrono::Utc::now(),
        };
        let b = new_row(2, "c", &Grant::from_plan(&plan), false, dt("2026-01-01 00:00:00"), now);
        let b = consume(&b, Usage::Count(2), now).unwrap();
        assert_eq!(consume(&b, Usage::Count(1), now), Err(RuleError::LimitReached));
        assert_eq!(release(&b, Usage::Count(5), now).consumed_limit, 0);

        let mut gone = row();
        gone.expired = true;
        assert_eq!(consume(&gone, Usage::Count(1), now), Err(RuleError::NoValidSubscription));
    }

    #[test]
    fn change_service_validates_like_the_form() {
        let now = dt(NOW);
        let r = row();
        let e = change_service(&r, None, Some(""), None, now).unwrap_err();
        assert_eq!(e["start_date"], vec![Msg::StartDateRequired]);
        assert_eq!(e["expire_on"], vec![Msg::ExpireOnRequired]);
        assert_eq!(e["hour"], vec![Msg::HourRequired]);
        let e = change_service(&r, Some("2026-01-01"), Some("2026-01-02 00:00:00"), Some(Hundredths(0)), now).unwrap_err();
        assert_eq!(e["start_date"], vec![Msg::InvalidDatetime]);
        assert_eq!(e["hour"], vec![Msg::HourMin]);
        let e = change_service(&r, Some("2026-02-01 00:00:00"), Some("2026-01-02 00:00:00"), Some(Hundredths(1)), now).unwrap_err();
        assert_eq!(e["expire_on"], vec![Msg::ExpireBeforeStart]);
        let ok = change_service(&r, Some("2026-01-01 00:00:00"), Some("2026-03-01 12:00:00"), Some(Hundredths(1)), now).unwrap();
        assert_eq!(ok.hour, Hundredths(1));
        assert_eq!(ok.expire_on, dt("2026-03-01 12:00:00"));
        let mut b = r.clone();
        b.service = ServiceRef { id: 3, name: "Bisnode".into() };
        let e = change_service(&b, Some("2026-01-01 00:00:00"), Some("2026-03-01 12:00:00"), Some(Hundredths(1)), now).unwrap_err();
        assert_eq!(e["hour"], vec![Msg::HourOnlyForConsultancy]);
        assert!(change_service(&b, Some("2026-01-01 00:00:00"), Some("2026-03-01 12:00:00"), None, now).is_ok());
    }

    #[test]
    fn renewal_follows_the_automatic_update_date() {
        let now = dt(NOW);
        let mut r = row();
        assert!(renewal(&r, 2, now).is_none(), "no date, no renewal");
        r.auto_update_date_end = parse_date("2026-01-30");
        assert!(renewal(&r, 2, now).is_none(), "date before the expiry");
        r.auto_update_date_end = parse_date("2026-01-31");
        r.consumed_hour = Hundredths(300);
        let n = renewal(&r, 2, now).unwrap();
        assert_eq!(n.start_date, r.expire_on);
        assert_eq!(n.expire_on, r.expire_on + Duration::days(30));
        assert_eq!(n.consumed_hour, Hundredths::ZERO);
        assert!(n.active && !n.expired && n.child.is_none());
        assert_eq!(renewal_id(5), 5 + (1 << 40));
        assert_ne!(renewal_id(renewal_id(5)), renewal_id(6));
        r.child = Some(9);
        assert!(renewal(&r, 2, now).is_none(), "already renewed");
    }
}

//! Purchased services, the subscription rows of spec §3, their status (spec
//! §4) and the purchase and consumption rules (spec §5, §8). No storage here.

use crate::error::{ApiError, FieldErrors, Msg};
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

/// A form's date-time, within [`super::date_in_range`].
pub fn parse_datetime(text: &str) -> Option<NaiveDateTime> {
    NaiveDateTime::parse_from_str(text.trim(), datetime_format::FORMAT).ok().filter(|d| super::date_in_range(d.date()))
}

/// A form's date, within [`super::date_in_range`].
pub fn parse_date(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d").ok().filter(|d| super::date_in_range(*d))
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
    /// The customer's account manager when the row was sold (set by the
    /// purchase and the renewal): the sales person the sale counts for in
    /// the statistics, whoever manages the customer later.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sold_by: Option<String>,
    /// What the row sold for (SEK in hundredths), fixed at the purchase: a
    /// custom package's own price, a catalogue entry's price then (a later
    /// edit of the entry does not change what was bought). None on rows
    /// stored before the field (their catalogue entry's price counts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<Hundredths>,
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

    /// Recomputes what is derived from the hours (a row read back after an
    /// in-place arithmetic update carries a stale copy).
    pub fn refresh_flags(&mut self) {
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

/// One entry of a row's usage ledger (case hours or uses booked against it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UsageEntry {
    pub entry_id: String,
    pub purchase_id: u64,
    pub date: NaiveDate,
    /// Hours for the hour-based service; 0 for counted uses.
    pub hours: Hundredths,
    /// Uses for limited services; 0 for hours.
    pub count: u32,
    pub case_uid: Option<String>,
    pub description: String,
    pub lawyer: String,
}

impl UsageEntry {
    pub fn usage(&self) -> Usage {
        if self.count > 0 {
            Usage::Count(self.count)
        } else {
            Usage::Hours(self.hours)
        }
    }
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
            Some(h) if h > Hundredths::MAX_HOURS => add("hour", Msg::HoursTooLarge),
            Some(_) => {}
        }
    } else if hour.is_some() {
        add("hour", Msg::HourOnlyForConsultancy);
    }
    let (Some(start), Some(end), true) = (start, end, p.is_empty()) else {
        return Err(p);
    };
    let mut next = row.clone();
    next.start_date = start;
    next.expire_on = end;
    if let Some(h) = hour {
        next.hour = h;
    }
    next.refresh_flags();
    next.updated_at = now;
    Ok(next)
}

/// The change-service form (spec §5).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"start_date": "2026-01-01 00:00:00", "expire_on": "2027-12-31 00:00:00", "hour": 20}))]
pub struct ChangeService {
    /// 'YYYY-MM-DD HH:mm:ss', years 1900 to 2100.
    #[schema(
        required = true,
        min_length = 1,
        pattern = r"^(19[0-9]{2}|20[0-9]{2}|2100)-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01]) ([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$",
        example = "2026-01-01 00:00:00"
    )]
    pub start_date: Option<String>,
    /// 'YYYY-MM-DD HH:mm:ss', after the start.
    #[schema(
        required = true,
        min_length = 1,
        pattern = r"^(19[0-9]{2}|20[0-9]{2}|2100)-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01]) ([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$",
        example = "2027-12-31 00:00:00"
    )]
    pub expire_on: Option<String>,
    /// Service 1 only; at least 0.01; number or text with comma decimal.
    #[schema(value_type = Option<f64>, minimum = 0.01, maximum = 10000)]
    pub hour: Option<serde_json::Value>,
}

impl ChangeService {
    /// `row` as the form changes it ([`change_service`]); an unreadable hour
    /// is `hour_min`, like one below 0.01.
    pub fn apply(&self, row: &PurchasedService, now: NaiveDateTime) -> Result<PurchasedService, ApiError> {
        let hour = super::catalogue::decimal_field(self.hour.as_ref()).map_err(|_| ApiError::field("hour", HOUR_MIN))?;
        change_service(row, self.start_date.as_deref(), self.expire_on.as_deref(), hour, now).map_err(ApiError::validation)
    }
}

/// The automatic update date as the form sends it: 'YYYY-MM-DD', or null
/// to clear it (`""` is no date: a generated client sends null).
pub fn auto_update_date(raw: Option<&str>) -> Result<Option<NaiveDate>, ApiError> {
    match raw.map(str::trim) {
        None => Ok(None),
        Some(t) => parse_date(t).map(Some).ok_or_else(|| ApiError::field("auto_update_date_end", Msg::InvalidDate)),
    }
}

/// Staff add to a customer exactly one of: a catalogue package, a catalogue
/// service plan, or (admin) a custom package.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"customer_uid": "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a00", "package_id": 1}))]
pub struct AddToCustomer {
    #[serde(default)]
    #[schema(required = true, min_length = 1, format = "uuid")]
    pub customer_uid: String,
    /// A catalogue package (public or not).
    pub package_id: Option<u64>,
    /// A catalogue service plan.
    pub service_plan_id: Option<u64>,
    /// A custom package (admin only): hours and price above 0.
    #[serde(default)]
    pub custom: bool,
    #[serde(default)]
    #[schema(max_length = 200)]
    pub name: String,
    /// Custom package: required, two decimals.
    #[schema(value_type = Option<f64>, minimum = 0.01, maximum = 10000)]
    pub hours: Option<serde_json::Value>,
    /// Custom package: SEK, required, two decimals.
    #[schema(value_type = Option<f64>, minimum = 0.01, maximum = 100000000)]
    pub price: Option<serde_json::Value>,
    /// Custom package: required.
    #[schema(value_type = Option<u32>, minimum = 1, maximum = 3650)]
    pub duration_days: Option<serde_json::Value>,
}

/// What an [`AddToCustomer`] form adds, once checked.
#[derive(Clone, Debug)]
pub enum Addition {
    Package(u64),
    ServicePlan(u64),
    Custom(Grant),
}

impl AddToCustomer {
    /// The customer and the one thing to add, or the form's errors: a
    /// customer is required, exactly one choice, and a custom package's hours
    /// and price above 0 (the spec's one message for both).
    pub fn checked(&self) -> Result<(String, Addition), ApiError> {
        let mut p = FieldErrors::new();
        let customer = self.customer_uid.trim();
        if customer.is_empty() {
            p.add("customer_uid", Msg::Required);
        }
        let choice = match (self.custom, self.package_id, self.service_plan_id) {
            (true, None, None) => None,
            (false, Some(id), None) => Some(Addition::Package(id)),
            (false, None, Some(id)) => Some(Addition::ServicePlan(id)),
            _ => {
                p.add("package_id", Msg::ChoosePackageOrPlan);
                None
            }
        };
        p.check()?;
        let addition = match choice {
            Some(a) => a,
            None => Addition::Custom(self.custom_grant()?),
        };
        Ok((customer.to_string(), addition))
    }

    fn custom_grant(&self) -> Result<Grant, ApiError> {
        let mut p = FieldErrors::new();
        let hours = super::catalogue::decimal_field(self.hours.as_ref()).unwrap_or_else(|_| {
            p.add("hours", Msg::CustomPackageValuePositive);
            None
        });
        let price = super::catalogue::decimal_field(self.price.as_ref()).unwrap_or_else(|_| {
            p.add("price", Msg::CustomPackageValuePositive);
            None
        });
        let days = super::catalogue::count_field(self.duration_days.as_ref()).unwrap_or_else(|_| {
            p.add("duration_days", Msg::InvalidDuration);
            None
        });
        p.check()?;
        let name = if self.name.trim().is_empty() { "Custom package" } else { self.name.trim() };
        let (hours, days) = (hours.unwrap_or_default(), days.unwrap_or(0));
        let problems = super::catalogue::validate_package(name, hours, price.unwrap_or_default(), days);
        if problems.has("hours") || problems.has("price") {
            return Err(ApiError::BadRequest { message: Msg::CustomPackageValuePositive, fields: problems });
        }
        problems.check()?;
        Ok(Grant::custom(name, hours, days).priced(price.unwrap_or_default()))
    }
}

/// The date range of a time report: both dates required ('YYYY-MM-DD'),
/// the end not before the start.
pub fn report_range(start: Option<&str>, end: Option<&str>) -> Result<(NaiveDate, NaiveDate), ApiError> {
    let mut p = FieldErrors::new();
    let mut date = |field: &str, raw: Option<&str>, missing: Msg| match raw.map(str::trim).filter(|t| !t.is_empty()) {
        None => {
            p.add(field, missing);
            None
        }
        Some(t) => parse_date(t).or_else(|| {
            p.add(field, Msg::InvalidDate);
            None
        }),
    };
    let from = date("start_date", start, Msg::StartDateRequired);
    let to = date("end_date", end, Msg::EndDateRequired);
    if let (Some(f), Some(t)) = (from, to) {
        if t < f {
            p.add("end_date", Msg::EndBeforeStart);
        }
    }
    match (from, to, p.is_empty()) {
        (Some(f), Some(t), true) => Ok((f, t)),
        _ => Err(ApiError::validation(p)),
    }
}

/// A row's time report (spec §4 'CSV time report'): one line per ledger
/// entry, hours for the hour-based service and uses otherwise, and a total.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeReport {
    /// The file name without extension: the plan's, package's or service's name.
    pub file_name: String,
    /// The heading of the amount column: `Hours` or `Uses`.
    pub unit: &'static str,
    /// Date, case, description, lawyer, amount.
    pub lines: Vec<[String; 5]>,
    pub total: String,
}

pub fn time_report(row: &PurchasedService, entries: &[UsageEntry]) -> TimeReport {
    let hour_based = row.is_hour_based();
    let mut total_hours = Hundredths::ZERO;
    let mut total_count = 0u32;
    let lines = entries
        .iter()
        .map(|e| {
            total_hours = total_hours + e.hours;
            total_count += e.count;
            let amount = if hour_based { e.hours.to_decimal_string() } else { e.count.to_string() };
            [e.date.format("%Y-%m-%d").to_string(), e.case_uid.clone().unwrap_or_default(), e.description.clone(), e.lawyer.clone(), amount]
        })
        .collect();
    let name = row
        .service_plan
        .as_ref()
        .map(|p| p.name.as_str())
        .or_else(|| row.packages.as_ref().map(|p| p.name.as_str()))
        .unwrap_or(&row.service.name);
    TimeReport {
        file_name: file_name(name),
        unit: if hour_based { "Hours" } else { "Uses" },
        lines,
        total: if hour_based { total_hours.to_decimal_string() } else { total_count.to_string() },
    }
}

/// Keeps a file name to letters, digits, space, dot, dash and underscore.
pub fn file_name(name: &str) -> String {
    let clean: String = name.chars().map(|c| if c.is_alphanumeric() || " ._-".contains(c) { c } else { '_' }).collect();
    let clean = clean.trim();
    if clean.is_empty() {
        "services".into()
    } else {
        clean.to_string()
    }
}

/// The automatic update date set (or cleared) as the form asks: only on a
/// row without a child (spec §4), and only a valid date.
pub fn with_auto_update(row: &PurchasedService, raw: Option<&str>, now: NaiveDateTime) -> Result<PurchasedService, ApiError> {
    if !row.can_edit_auto_update() {
        return Err(ApiError::bad(Msg::ServiceAlreadyRenewed));
    }
    let mut next = row.clone();
    next.auto_update_date_end = auto_update_date(raw)?;
    next.updated_at = now;
    Ok(next)
}

/// The row activated again: offered only when its hours are below the
/// consumed hours (spec §4).
pub fn activated(row: &PurchasedService, now: NaiveDateTime) -> Result<PurchasedService, ApiError> {
    if !row.can_activate() {
        return Err(ApiError::bad(Msg::ServiceActivationFailed));
    }
    let mut next = row.clone();
    next.active = true;
    next.updated_at = now;
    Ok(next)
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn dt(s: &str) -> NaiveDateTime {
        parse_datetime(s).unwrap()
    }

    fn now() -> NaiveDateTime {
        dt(NOW)
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
            retired: false,
            bought: false,
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

    #[test]
    fn a_purchase_is_an_advance_row_starting_when_the_current_one_ends() {
        let now = dt(NOW);
        assert_eq!(plan_purchase(&[], CONSULTANCY, now), Ok((false, now)));
        let current = row();
        assert_eq!(plan_purchase(std::slice::from_ref(&current), CONSULTANCY, now), Ok((true, current.expire_on)));
        assert_eq!(plan_purchase(std::slice::from_ref(&current), 3, now), Ok((false, now)), "another service");
        let mut ahead = row();
        ahead.id = 2;
        ahead.advance = true;
        ahead.active = false;
        assert_eq!(plan_purchase(&[current.clone(), ahead.clone()], CONSULTANCY, now), Err(RuleError::AlreadyActiveAndAdvance));
        assert_eq!(advance_successor(&[current.clone(), ahead.clone()], &current).map(|r| r.id), Some(2));
        assert!(advance_successor(&[current.clone(), ahead.clone()], &ahead).is_none(), "only an active row hands over");
        let done = expired(&current);
        assert!(done.expired && !done.active && !is_due(&done, now));
        assert!(is_due(&current, current.expire_on) && !is_due(&current, now));
        assert!(promoted(&ahead, now).active);
    }

    #[test]
    fn a_row_promoted_before_its_start_starts_then_and_keeps_its_span() {
        let mut ahead = row();
        ahead.advance = true;
        ahead.active = false;
        ahead.start_date = dt("2026-02-01 00:00:00");
        ahead.expire_on = dt("2026-03-03 00:00:00");
        // Promoted early (the current row ended on 2026-01-10).
        let early = promoted(&ahead, now());
        assert_eq!((early.start_date, early.expire_on), (now(), dt("2026-02-09 00:00:00")));
        assert_eq!(status(&early, now()), Status::Active);
        // Promoted late (the job ran after the planned start): dates kept.
        let late_at = dt("2026-02-01 00:10:00");
        let late = promoted(&ahead, late_at);
        assert_eq!((late.start_date, late.expire_on), (ahead.start_date, ahead.expire_on));
        assert_eq!(status(&late, late_at), Status::Active);
    }

    #[test]
    fn staff_add_exactly_one_thing_and_custom_packages_above_zero() {
        let form = |v: serde_json::Value| serde_json::from_value::<AddToCustomer>(v).unwrap();
        let e = form(serde_json::json!({})).checked().unwrap_err().fields();
        assert_eq!((e["customer_uid"].to_vec(), e["package_id"].to_vec()), (vec![Msg::Required], vec![Msg::ChoosePackageOrPlan]));
        let e = form(serde_json::json!({"customer_uid": "c", "package_id": 1, "custom": true})).checked().unwrap_err().fields();
        assert_eq!(e["package_id"], vec![Msg::ChoosePackageOrPlan]);
        assert!(
            matches!(form(serde_json::json!({"customer_uid": " c ", "service_plan_id": 4})).checked(), Ok((c, Addition::ServicePlan(4))) if c == "c")
        );
        let zero = form(serde_json::json!({"customer_uid": "c", "custom": true, "hours": 0, "price": 0, "duration_days": 30}))
            .checked()
            .unwrap_err();
        assert_eq!(zero.key(), Msg::CustomPackageValuePositive);
        let ok = form(serde_json::json!({"customer_uid": "c", "custom": true, "hours": "2,25", "price": 5, "duration_days": 90})).checked();
        match ok {
            Ok((_, Addition::Custom(g))) => {
                assert_eq!((g.hour, g.days, g.package.map(|p| p.name)), (Hundredths(225), 90, Some("Custom package".into())))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn time_reports_list_the_range_with_a_total() {
        assert_eq!(report_range(None, Some("x")).unwrap_err().fields()["start_date"], vec![Msg::StartDateRequired]);
        assert_eq!(report_range(None, Some("x")).unwrap_err().fields()["end_date"], vec![Msg::InvalidDate]);
        assert_eq!(report_range(Some("2026-04-01"), Some("2026-03-01")).unwrap_err().fields()["end_date"], vec![Msg::EndBeforeStart]);
        let (from, to) = report_range(Some("2026-03-01"), Some("2026-03-31")).unwrap();
        assert_eq!((from.to_string(), to.to_string()), ("2026-03-01".into(), "2026-03-31".into()));
        let mut r = row();
        r.packages = Some(NamedRef { id: Some(1), name: "Gold: 10h".into() });
        let entry = |h: i64| UsageEntry {
            entry_id: "e".into(),
            purchase_id: 1,
            date: from,
            hours: Hundredths(h),
            count: 0,
            case_uid: Some("C".into()),
            description: "d".into(),
            lawyer: "L".into(),
        };
        let t = time_report(&r, &[entry(150), entry(25)]);
        assert_eq!((t.file_name.as_str(), t.unit, t.total.as_str()), ("Gold_ 10h", "Hours", "1.75"));
        assert_eq!(t.lines[0], ["2026-03-01", "C", "d", "L", "1.5"].map(String::from));
        assert_eq!(file_name("///"), "___");
        assert_eq!(file_name("  "), "services");
        assert_eq!(auto_update_date(None).unwrap(), None);
        assert_eq!(auto_update_date(Some("")).unwrap_err().fields()["auto_update_date_end"], vec![Msg::InvalidDate]);
        let mut renewed = row();
        renewed.child = Some(2);
        assert_eq!(with_auto_update(&renewed, Some("x"), now()).unwrap_err().key(), Msg::ServiceAlreadyRenewed);
        assert_eq!(with_auto_update(&row(), Some("2031-01-01"), now()).unwrap().auto_update_date_end, parse_date("2031-01-01"));
        assert_eq!(activated(&row(), now()).unwrap_err().key(), Msg::ServiceActivationFailed);
        assert_eq!(auto_update_date(Some("31/01/2031")).unwrap_err().fields()["auto_update_date_end"], vec![Msg::InvalidDate]);
    }
}

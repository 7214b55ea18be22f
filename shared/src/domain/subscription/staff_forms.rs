//! What staff change on rows (spec §5): the change-service form, adding a
//! package, plan or custom package to a customer, the automatic update date
//! and activating a row again.

use crate::error::{ApiError, FieldErrors, Msg};
use chrono::{NaiveDate, NaiveDateTime};
use serde::Deserialize;
use utoipa::ToSchema;

use super::*;
use crate::domain::catalogue::Hundredths;

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
        let hour = crate::domain::catalogue::decimal_field(self.hour.as_ref()).map_err(|_| ApiError::field("hour", HOUR_MIN))?;
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
        let hours = p.read("hours", Msg::CustomPackageValuePositive, crate::domain::catalogue::decimal_field(self.hours.as_ref()));
        let price = p.read("price", Msg::CustomPackageValuePositive, crate::domain::catalogue::decimal_field(self.price.as_ref()));
        let days = p.read("duration_days", Msg::InvalidDuration, crate::domain::catalogue::count_field(self.duration_days.as_ref()));
        p.check()?;
        let name = if self.name.trim().is_empty() { "Custom package" } else { self.name.trim() };
        let (hours, days) = (hours.unwrap_or_default(), days.unwrap_or(0));
        let problems = crate::domain::catalogue::validate_package(name, hours, price.unwrap_or_default(), days);
        if problems.has("hours") || problems.has("price") {
            return Err(ApiError::BadRequest { message: Msg::CustomPackageValuePositive, fields: problems });
        }
        problems.check()?;
        Ok(Grant::custom(name, hours, days).priced(price.unwrap_or_default()))
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

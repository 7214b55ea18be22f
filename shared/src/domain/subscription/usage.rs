//! Consumption (spec §5, §8): booking uses and hours against a row, giving
//! them back, and a row's time report.

use crate::error::{ApiError, FieldErrors, Msg};
use chrono::{NaiveDate, NaiveDateTime};
use serde::{Deserialize, Serialize};

use super::*;
use crate::domain::catalogue::Hundredths;

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

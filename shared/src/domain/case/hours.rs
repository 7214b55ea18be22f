//! A case's hour entries (spec §3, §9): the entry and its form.

use crate::error::Msg;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::form::{date, hours};
use crate::domain::catalogue::Hundredths;
use crate::error::{ApiError, FieldErrors};

/// Spec §3 case hour.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CaseHour {
    pub id: String,
    pub case_uid: String,
    pub lawyer: String,
    pub lawyer_name: String,
    /// Billable: consumes the customer's hour subscription.
    pub hour: Hundredths,
    pub non_billable_hour: Hundredths,
    pub rattsskydd_hour: Hundredths,
    #[schema(value_type = String)]
    pub date: NaiveDate,
    /// "HH:MM" or empty.
    pub time: String,
    pub is_invoiced: bool,
    /// The purchased service row the billable hours were booked against.
    pub service: Option<u64>,
    pub description: String,
    #[schema(value_type = String)]
    pub created_at: DateTime<Utc>,
}

impl CaseHour {
    /// How the history shows an entry.
    pub fn summary(&self) -> String {
        format!(
            "{} {} h (non-billable {}, rättsskydd {})",
            self.date,
            self.hour.to_decimal_string(),
            self.non_billable_hour.to_decimal_string(),
            self.rattsskydd_hour.to_decimal_string()
        )
    }
}

/// An entry's history text with its invoiced flag (bulk changes).
pub fn invoiced_text(summary: String, invoiced: bool) -> String {
    format!("{summary} · {}", if invoiced { "invoiced" } else { "not invoiced" })
}

#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
pub struct HourForm {
    /// Billable hours, two decimals; the three kinds together at least 0.01.
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 10000)]
    pub hour: Option<serde_json::Value>,
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 10000)]
    pub non_billable_hour: Option<serde_json::Value>,
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 10000)]
    pub rattsskydd_hour: Option<serde_json::Value>,
    /// Years 1900 to 2100.
    #[schema(required = true, format = Date)]
    pub date: Option<String>,
    /// "HH:MM", or empty.
    #[serde(default)]
    #[schema(pattern = "^(([01][0-9]|2[0-3]):[0-5][0-9])?$", example = "09:00")]
    pub time: String,
    #[serde(default)]
    pub is_invoiced: bool,
    #[serde(default)]
    #[schema(max_length = 10000)]
    pub description: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct HourInput {
    pub hour: Hundredths,
    pub non_billable_hour: Hundredths,
    pub rattsskydd_hour: Hundredths,
    pub date: NaiveDate,
    pub time: String,
    pub is_invoiced: bool,
    pub description: String,
}

impl HourInput {
    /// The entry of these values: a new one or an edited one keeps its id,
    /// case, lawyer (uid, name) and creation time; `service` is the
    /// subscription row its billable hours are booked against.
    pub fn entry(
        &self,
        id: String,
        case_uid: String,
        (lawyer, lawyer_name): (String, String),
        service: Option<u64>,
        created_at: DateTime<Utc>,
    ) -> CaseHour {
        CaseHour {
            id,
            case_uid,
            lawyer,
            lawyer_name,
            hour: self.hour,
            non_billable_hour: self.non_billable_hour,
            rattsskydd_hour: self.rattsskydd_hour,
            date: self.date,
            time: self.time.clone(),
            is_invoiced: self.is_invoiced,
            service,
            description: self.description.clone(),
            created_at,
        }
    }
}

/// Hours are non-negative with two decimals (comma allowed), at least one
/// of them at least 0.01 (spec §9); a date is required.
pub fn validate_hours(form: &HourForm) -> Result<HourInput, ApiError> {
    let mut f = FieldErrors::new();
    let mut get = |name: &str, v: Option<&serde_json::Value>| match hours(v) {
        Ok(Some(h)) if h.0 >= 0 => h,
        Ok(None) => Hundredths::ZERO,
        Err(Msg::HoursTooLarge) => {
            f.add(name, Msg::HoursTooLarge);
            Hundredths::ZERO
        }
        _ => {
            f.add(name, Msg::InvalidHours);
            Hundredths::ZERO
        }
    };
    let hour = get("hour", form.hour.as_ref());
    let non_billable_hour = get("non_billable_hour", form.non_billable_hour.as_ref());
    let rattsskydd_hour = get("rattsskydd_hour", form.rattsskydd_hour.as_ref());
    if f.is_empty() && (hour + non_billable_hour + rattsskydd_hour).0 < 1 {
        f.add("hour", Msg::HourMin);
    }
    let d = match date(&form.date) {
        Ok(Some(d)) => Some(d),
        Ok(None) => {
            f.add("date", Msg::Required);
            None
        }
        Err(_) => {
            f.add("date", Msg::InvalidDate);
            None
        }
    };
    use crate::domain::text::{bounded, clean_long, LONG_MAX};
    let description = bounded(&form.description, LONG_MAX, clean_long).unwrap_or_else(|m| {
        f.add("description", m);
        String::new()
    });
    let time = form.time.trim().to_string();
    if !time.is_empty() && chrono::NaiveTime::parse_from_str(&time, "%H:%M").is_err() {
        f.add("time", Msg::InvalidTime);
    }
    // Validation by construction: the date exists exactly when no field failed.
    let (Some(date), true) = (d, f.is_empty()) else {
        return Err(ApiError::validation(f));
    };
    Ok(HourInput { hour, non_billable_hour, rattsskydd_hour, date, time, is_invoiced: form.is_invoiced, description })
}

pub const ONLY_LAWYER_ENTERS_HOURS: Msg = Msg::OnlyLawyerEntersHours;
pub const CASE_NOT_ASSIGNED: Msg = Msg::CaseNotAssigned;

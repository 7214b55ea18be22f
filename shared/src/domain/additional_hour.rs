//! Additional hours (spec §3: month, total hour) and the bulk change of
//! hour entries.
//!
//! Reading of the spec: additional hours are the lawyer's extra time per
//! month on a case, reported beside the case hours. They do NOT consume the
//! customer's hour subscription: the spec ties consumption to case hours of
//! service 1 only, and a monthly summary figure charged on top of the
//! entries it sums up would charge the customer twice.
//!
//! Authoring follows the case-hour rule of spec §6 ([`super::policy::hour_author`]):
//! lawyers enter their own, admin must name the lawyer, the case must be
//! assigned to that lawyer and in progress. Closed cases take no additional
//! hours either: the work ended with the case; reopening it (admin or the
//! lawyer) is the way to report more.
//!
//! One month has at most one additional-hour entry per lawyer and case: it
//! is a monthly total, so a second one for the same month would be a
//! double report (the store guards it with a conditional put).

use crate::error::Msg;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::case::decimal;
use super::catalogue::Hundredths;
use crate::error::{ApiError, FieldErrors};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AdditionalHour {
    pub id: String,
    pub case_uid: String,
    pub lawyer: String,
    pub lawyer_name: String,
    /// "YYYY-MM".
    pub month: String,
    pub total_hour: Hundredths,
    /// Set by staff when the month has been invoiced (the bulk action).
    #[serde(default)]
    pub is_invoiced: bool,
    #[serde(default)]
    pub description: String,
    #[schema(value_type = String)]
    pub created_at: DateTime<Utc>,
    #[schema(value_type = String)]
    pub updated_at: DateTime<Utc>,
}

/// Raw form values; `total_hour` may use a comma decimal.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
pub struct AdditionalHourForm {
    /// "YYYY-MM" (a full date keeps its month), years 1900 to 2100.
    #[schema(value_type = String, required = true, example = "2026-11")]
    pub month: Option<String>,
    /// At most a month's 744 hours, two decimals.
    #[schema(value_type = f64, required = true, minimum = 0.01, maximum = 744)]
    pub total_hour: Option<serde_json::Value>,
    #[serde(default)]
    pub is_invoiced: bool,
    #[serde(default)]
    #[schema(max_length = 10000)]
    pub description: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AdditionalHourInput {
    pub month: String,
    pub total_hour: Hundredths,
    pub is_invoiced: bool,
    pub description: String,
}

pub const INVALID_MONTH: Msg = Msg::InvalidMonth;
pub const MONTH_TAKEN: Msg = Msg::AdditionalHourMonthTaken;
pub const DESCRIPTION_MAX: usize = super::text::LONG_MAX;

/// A month "YYYY-MM" (also accepts a full date "YYYY-MM-DD", two digits
/// each, and keeps its month), years 1900 to 2100.
pub fn parse_month(text: &str) -> Option<String> {
    let t = text.trim();
    let month = super::calendar::parse_month(t.get(..7)?)?;
    let rest = &t[7..];
    let day_ok = |d: &str| d.len() == 3 && d.starts_with('-') && d[1..].bytes().all(|c| c.is_ascii_digit());
    if !(rest.is_empty() || (day_ok(rest) && NaiveDate::parse_from_str(t, "%Y-%m-%d").is_ok())) {
        return None;
    }
    Some(month.format("%Y-%m").to_string())
}

/// Month required and valid; total hour at least 0.01 (spec §9), two
/// decimals, comma allowed.
pub fn validate(form: &AdditionalHourForm) -> Result<AdditionalHourInput, ApiError> {
    let mut f = FieldErrors::new();
    let month = match form.month.as_deref().map(str::trim) {
        None | Some("") => {
            f.add("month", Msg::Required);
            None
        }
        Some(t) => parse_month(t).or_else(|| {
            f.add("month", INVALID_MONTH);
            None
        }),
    };
    let total = match decimal(form.total_hour.as_ref()) {
        // A month has at most 744 hours (31 × 24).
        Ok(Some(h)) if h.0 >= 1 && h.0 <= 744 * 100 => Some(h),
        Ok(Some(h)) if (0..1).contains(&h.0) => {
            f.add("total_hour", Msg::HourMin);
            None
        }
        Ok(None) => {
            f.add("total_hour", Msg::Required);
            None
        }
        _ => {
            f.add("total_hour", Msg::InvalidHours);
            None
        }
    };
    let description = form.description.trim().to_string();
    if description.chars().count() > DESCRIPTION_MAX {
        f.add("description", Msg::TooLong);
    }
    // Validation by construction: both exist exactly when no field failed.
    let (Some(month), Some(total_hour), true) = (month, total, f.is_empty()) else {
        return Err(ApiError::validation(f));
    };
    Ok(AdditionalHourInput { month, total_hour, is_invoiced: form.is_invoiced, description })
}

/// How many entries one bulk change may name: it is one DynamoDB
/// transaction (at most 100 items) holding the case condition check plus,
/// per entry, the entry and its history item: 1 + 2 × 49 = 99. More are
/// refused rather than split, because split batches could not be
/// all-or-nothing.
pub const MASS_UPDATE_MAX: usize = 49;
pub const TOO_MANY_ENTRIES: Msg = Msg::TooManyEntries;

/// The ids of a bulk change: trimmed, without repeats (a transaction may
/// touch an item once), at least one, at most [`MASS_UPDATE_MAX`].
pub fn mass_update_ids(ids: &[String]) -> Result<Vec<String>, ApiError> {
    let mut f = FieldErrors::new();
    // Counted as sent (the document's maxItems) and none blank (its items'
    // pattern): a client names each entry once.
    if ids.is_empty() || ids.iter().any(|i| i.trim().is_empty()) {
        f.add("ids", Msg::Required);
    } else if ids.len() > MASS_UPDATE_MAX {
        f.add("ids", TOO_MANY_ENTRIES);
    }
    let mut out: Vec<String> = Vec::new();
    for id in ids.iter().map(|i| i.trim()) {
        if !out.iter().any(|o| o == id) {
            out.push(id.to_string());
        }
    }
    if !f.is_empty() {
        return Err(ApiError::validation(f));
    }
    Ok(out)
}

/// The history text of an entry.
pub fn summary(h: &AdditionalHour) -> String {
    format!("{} {} h{}", h.month, h.total_hour.to_decimal_string(), if h.is_invoiced { " (invoiced)" } else { "" })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn form(month: &str, total: serde_json::Value) -> AdditionalHourForm {
        AdditionalHourForm { month: Some(month.into()), total_hour: Some(total), ..Default::default() }
    }

    #[test]
    fn month_and_total_hour() {
        let ok = validate(&form("2026-03", json!("1,25"))).unwrap();
        assert_eq!((ok.month.as_str(), ok.total_hour), ("2026-03", Hundredths(125)));
        assert_eq!(validate(&form("2026-03-15", json!(2))).unwrap().month, "2026-03");
        for bad in [
            "2026-13",
            "2026-3",
            "March",
            "2026-03-40",
            "2026-03x",
            "0000-00",
            "1899-12",
            "2101-01",
            "2026-02-30",
            "2026-03- 5",
            "+2026-03",
        ] {
            assert_eq!(validate(&form(bad, json!(1))).unwrap_err().fields()["month"], vec![INVALID_MONTH], "{bad}");
        }
        assert_eq!(validate(&form("2026-03", json!("0"))).unwrap_err().fields()["total_hour"], vec![Msg::HourMin]);
        assert_eq!(validate(&form("2026-03", json!("0,001"))).unwrap_err().fields()["total_hour"], vec![Msg::InvalidHours]);
        assert_eq!(validate(&form("2026-03", json!("-1"))).unwrap_err().fields()["total_hour"], vec![Msg::InvalidHours]);
        assert_eq!(validate(&form("2026-03", json!("0,01"))).unwrap().total_hour, Hundredths(1));
        assert_eq!(validate(&form("2026-03", json!("745"))).unwrap_err().fields()["total_hour"], vec![Msg::InvalidHours]);
        let none = validate(&AdditionalHourForm::default()).unwrap_err().fields();
        assert_eq!((none["month"].to_vec(), none["total_hour"].to_vec()), (vec![Msg::Required], vec![Msg::Required]));
    }

    #[test]
    fn bulk_ids() {
        let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(mass_update_ids(&ids(&["a", " a ", "b"])).unwrap(), vec!["a", "b"]);
        assert_eq!(mass_update_ids(&ids(&[" "])).unwrap_err().fields()["ids"], vec![Msg::Required]);
        let many: Vec<String> = (0..50).map(|i| i.to_string()).collect();
        assert_eq!(mass_update_ids(&many).unwrap_err().fields()["ids"], vec![TOO_MANY_ENTRIES]);
        assert_eq!(mass_update_ids(&many[..49]).unwrap().len(), 49);
        assert_eq!(mass_update_ids(&ids(&["a", " "])).unwrap_err().fields()["ids"], vec![Msg::Required]);
        let repeated: Vec<String> = (0..50).map(|i| (i % 2).to_string()).collect();
        assert_eq!(mass_update_ids(&repeated).unwrap_err().fields()["ids"], vec![TOO_MANY_ENTRIES]);
    }
}

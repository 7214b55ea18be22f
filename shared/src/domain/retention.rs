//! How long each kind of client record is kept after it ends, and so when
//! the scheduled retention job erases it (and what a customer who asks to
//! be forgotten is told is kept, and until when).
//!
//! The periods are configuration (template parameters, read from the
//! environment once) with the defaults the law and the Bar ask for:
//! - a case file (the case, its documents, hours, history, messages,
//!   notes): ten years after the matter ends, the Swedish Bar's guidance on
//!   keeping a matter's file (`CASE_FILE_RETENTION_YEARS`);
//! - billing records (a subscription row, its usage, invoiced hours):
//!   Bokföringslagen (1999:1078) 7 kap. 2 § keeps accounting records until
//!   the end of the seventh year after the calendar year in which the
//!   financial year ended (`BILLING_RETENTION_YEARS`);
//! - the audit trail: `AUDIT_RETENTION_DAYS` (see [`super::audit`]);
//! - a data export's ZIP: its download period, [`EXPORT_DAYS`].
//!
//! Days are Stockholm days: a record ended late on 31 December (UTC) in
//! Stockholm's new year ends in the new year.

use chrono::{DateTime, Datelike, Duration, Months, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;
use utoipa::ToSchema;

use super::calendar::stockholm_date;
use super::data_rights::EXPORT_DAYS;

/// A kind of record with its own retention.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RecordKind {
    /// A closed case with its documents, hours, history and messages; ends
    /// when the case is closed.
    CaseFile,
    /// Accounting records: ends with the financial year (here the calendar
    /// year) of the transaction.
    Billing,
    /// An audit event; ends when it is written.
    AuditTrail,
    /// A data export's ZIP; ends when it is ready.
    Export,
}

impl RecordKind {
    pub const ALL: [RecordKind; 4] = [RecordKind::CaseFile, RecordKind::Billing, RecordKind::AuditTrail, RecordKind::Export];

    /// The word used in keys, logs and metrics.
    pub fn word(self) -> &'static str {
        match self {
            RecordKind::CaseFile => "case_file",
            RecordKind::Billing => "billing",
            RecordKind::AuditTrail => "audit_trail",
            RecordKind::Export => "export",
        }
    }
}

pub const DEFAULT_CASE_FILE_YEARS: u32 = 10;
pub const DEFAULT_BILLING_YEARS: u32 = 7;
/// Bounds of a configured period in years: under a year no law is met,
/// over a century is a typing error.
const YEARS: std::ops::RangeInclusive<u32> = 1..=100;

/// The retention periods in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retention {
    /// `CASE_FILE_RETENTION_YEARS`: years a case file is kept after the case is closed.
    pub case_file_years: u32,
    /// `BILLING_RETENTION_YEARS`: years after the end of the calendar year of the record.
    pub billing_years: u32,
    /// `AUDIT_RETENTION_DAYS`: days an audit event is kept.
    pub audit_days: i64,
    /// Days a data export can be downloaded; then its ZIP goes.
    pub export_days: i64,
}

impl Default for Retention {
    fn default() -> Retention {
        Retention {
            case_file_years: DEFAULT_CASE_FILE_YEARS,
            billing_years: DEFAULT_BILLING_YEARS,
            audit_days: super::audit::DEFAULT_RETENTION_DAYS,
            export_days: EXPORT_DAYS,
        }
    }
}

impl Retention {
    /// From the environment, read once per process.
    pub fn from_env() -> Retention {
        static READ: OnceLock<Retention> = OnceLock::new();
        *READ.get_or_init(|| {
            let r = Retention::from_vars(|k| std::env::var(k).ok());
            Retention { audit_days: super::audit::retention_days(), ..r }
        })
    }

    /// The periods from `lookup`; a missing, unreadable or out-of-bounds
    /// value keeps its default.
    pub fn from_vars(lookup: impl Fn(&str) -> Option<String>) -> Retention {
        let years = |k: &str, d: u32| lookup(k).and_then(|v| v.trim().parse().ok()).filter(|y| YEARS.contains(y)).unwrap_or(d);
        let d = Retention::default();
        Retention {
            case_file_years: years("CASE_FILE_RETENTION_YEARS", d.case_file_years),
            billing_years: years("BILLING_RETENTION_YEARS", d.billing_years),
            audit_days: lookup("AUDIT_RETENTION_DAYS")
                .and_then(|v| v.trim().parse().ok())
                .filter(|n| (365..=36_525).contains(n))
                .unwrap_or(d.audit_days),
            export_days: d.export_days,
        }
    }

    /// The last day a record of `kind` that ended at `ended_at` is kept;
    /// from the day after it is due for erasure.
    pub fn kept_until(&self, kind: RecordKind, ended_at: DateTime<Utc>) -> NaiveDate {
        let ended = stockholm_date(ended_at);
        let years_after = |d: NaiveDate, years: u32| d.checked_add_months(Months::new(years * 12)).unwrap_or(NaiveDate::MAX);
        match kind {
            RecordKind::CaseFile => years_after(ended, self.case_file_years),
            RecordKind::Billing => {
                let year_end = NaiveDate::from_ymd_opt(ended.year(), 12, 31).unwrap_or(NaiveDate::MAX);
                years_after(year_end, self.billing_years)
            }
            RecordKind::AuditTrail => ended.checked_add_signed(Duration::days(self.audit_days)).unwrap_or(NaiveDate::MAX),
            RecordKind::Export => ended.checked_add_signed(Duration::days(self.export_days)).unwrap_or(NaiveDate::MAX),
        }
    }

    /// Whether a record of `kind` that ended at `ended_at` is due for erasure at `now`.
    pub fn is_due(&self, kind: RecordKind, ended_at: DateTime<Utc>, now: DateTime<Utc>) -> bool {
        stockholm_date(now) > self.kept_until(kind, ended_at)
    }
}

/// The last day a record of `kind` that ended at `ended_at` is kept, under
/// the configured periods ([`Retention::from_env`]).
pub fn kept_until(kind: RecordKind, ended_at: DateTime<Utc>) -> NaiveDate {
    Retention::from_env().kept_until(kind, ended_at)
}

/// Whether it is due at `now`, under the configured periods.
pub fn is_due(kind: RecordKind, ended_at: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    Retention::from_env().is_due(kind, ended_at, now)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(y: i32, m: u32, d: u32, h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, h, 0, 0).unwrap()
    }
    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn a_case_file_is_kept_ten_years_after_the_case_is_closed() {
        let r = Retention::default();
        assert_eq!(r.kept_until(RecordKind::CaseFile, at(2026, 3, 15, 10)), day(2036, 3, 15));
        // A leap day ends on the last day of February.
        assert_eq!(r.kept_until(RecordKind::CaseFile, at(2028, 2, 29, 10)), day(2038, 2, 28));
        // Closed late on New Year's Eve (UTC) is the new year in Stockholm.
        assert_eq!(r.kept_until(RecordKind::CaseFile, at(2026, 12, 31, 23)), day(2037, 1, 1));
        let closed = at(2026, 3, 15, 10);
        assert!(!r.is_due(RecordKind::CaseFile, closed, at(2036, 3, 15, 22)), "the last day is kept (Stockholm's 15th, 23:00)");
        assert!(r.is_due(RecordKind::CaseFile, closed, at(2036, 3, 15, 23)), "Stockholm's 16th");
        assert!(!r.is_due(RecordKind::CaseFile, closed, at(2035, 1, 1, 0)));
    }

    #[test]
    fn billing_records_are_kept_to_the_end_of_the_seventh_year_after_their_year() {
        let r = Retention::default();
        assert_eq!(r.kept_until(RecordKind::Billing, at(2026, 1, 2, 10)), day(2033, 12, 31));
        assert_eq!(r.kept_until(RecordKind::Billing, at(2026, 12, 30, 10)), day(2033, 12, 31));
        assert!(!r.is_due(RecordKind::Billing, at(2026, 6, 1, 0), at(2033, 12, 31, 12)));
        assert!(r.is_due(RecordKind::Billing, at(2026, 6, 1, 0), at(2034, 1, 1, 12)));
    }

    #[test]
    fn exports_go_after_their_download_period_and_audit_events_after_theirs() {
        let r = Retention::default();
        assert_eq!(r.kept_until(RecordKind::Export, at(2026, 11, 1, 10)), day(2026, 11, 8));
        assert!(!r.is_due(RecordKind::Export, at(2026, 11, 1, 10), at(2026, 11, 2, 10)));
        assert!(r.is_due(RecordKind::Export, at(2026, 11, 1, 10), at(2026, 11, 9, 10)));
        assert_eq!(r.kept_until(RecordKind::AuditTrail, at(2026, 1, 1, 10)), day(2026, 1, 1) + Duration::days(3653));
    }

    #[test]
    fn the_periods_are_configurable_and_nonsense_keeps_the_defaults() {
        let vars =
            |pairs: &'static [(&'static str, &'static str)]| move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string());
        let r = Retention::from_vars(vars(&[
            ("CASE_FILE_RETENTION_YEARS", "12"),
            ("BILLING_RETENTION_YEARS", " 8 "),
            ("AUDIT_RETENTION_DAYS", "730"),
        ]));
        assert_eq!((r.case_file_years, r.billing_years, r.audit_days, r.export_days), (12, 8, 730, 7));
        assert_eq!(r.kept_until(RecordKind::CaseFile, at(2026, 3, 15, 10)), day(2038, 3, 15));
        assert_eq!(Retention::from_vars(vars(&[])), Retention::default());
        for bad in ["0", "-1", "ten", "101", ""] {
            let lookup = move |k: &str| (k != "AUDIT_RETENTION_DAYS").then(|| bad.to_string());
            assert_eq!(Retention::from_vars(lookup), Retention::default(), "{bad}");
        }
        // Far dates do not overflow.
        let huge = Retention { case_file_years: 100, ..Retention::default() };
        assert_eq!(huge.kept_until(RecordKind::CaseFile, at(2100, 1, 1, 12)), day(2200, 1, 1));
    }

    #[test]
    fn every_kind_has_its_own_word() {
        let words: std::collections::HashSet<_> = RecordKind::ALL.iter().map(|k| k.word()).collect();
        assert_eq!(words.len(), RecordKind::ALL.len());
    }
}

//! The Stockholm calendar (Europe/Stockholm: CET, CEST from the last Sunday
//! of March 01:00 UTC to the last Sunday of October 01:00 UTC): which day an
//! instant falls on, when a day starts, months and weeks. Statistics count
//! on these days.

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc, Weekday};

/// The last Sunday of `month` in `year`.
fn last_sunday(year: i32, month: u32) -> NaiveDate {
    let next = if month == 12 { NaiveDate::from_ymd_opt(year + 1, 1, 1) } else { NaiveDate::from_ymd_opt(year, month + 1, 1) };
    let mut d = next.expect("valid month") - Duration::days(1);
    while d.weekday() != Weekday::Sun {
        d -= Duration::days(1);
    }
    d
}

/// Stockholm's offset from UTC at instant `t` (hours: 1 or 2).
pub fn stockholm_offset_hours(t: DateTime<Utc>) -> i64 {
    let y = t.year();
    let start = Utc.from_utc_datetime(&last_sunday(y, 3).and_hms_opt(1, 0, 0).expect("time"));
    let end = Utc.from_utc_datetime(&last_sunday(y, 10).and_hms_opt(1, 0, 0).expect("time"));
    if t >= start && t < end {
        2
    } else {
        1
    }
}

/// The Stockholm calendar day of instant `t`.
pub fn stockholm_date(t: DateTime<Utc>) -> NaiveDate {
    (t + Duration::hours(stockholm_offset_hours(t))).date_naive()
}

/// `YYYY-MM-DD HH:mm` on the Stockholm wall clock at `t` (spec §9 display
/// format).
pub fn stockholm_text(t: DateTime<Utc>) -> String {
    (t + Duration::hours(stockholm_offset_hours(t))).naive_utc().format("%Y-%m-%d %H:%M").to_string()
}

/// The first instant (UTC) of Stockholm day `d`.
pub fn stockholm_day_start(d: NaiveDate) -> DateTime<Utc> {
    let midnight = d.and_hms_opt(0, 0, 0).expect("midnight");
    // Midnight is never inside a switch hour (those are at 02:00/03:00).
    let guess = Utc.from_utc_datetime(&midnight) - Duration::hours(1);
    Utc.from_utc_datetime(&midnight) - Duration::hours(stockholm_offset_hours(guess))
}

pub fn first_of_month(d: NaiveDate) -> NaiveDate {
    d.with_day(1).expect("day 1")
}

/// A month written `YYYY-MM` (ASCII digits, two for the month) in the
/// years dates may take (1900 to 2100, [`super::date_in_range`]), as its
/// first day; surrounding whitespace is ignored. Anything else (`2026-3`,
/// `0000-00`, `+2026-03`) is none: the document's pattern says the same.
pub fn parse_month(text: &str) -> Option<NaiveDate> {
    let t = text.trim();
    let b = t.as_bytes();
    let shape = b.len() == 7 && b[4] == b'-' && b.iter().enumerate().all(|(i, c)| i == 4 || c.is_ascii_digit());
    if !shape {
        return None;
    }
    let (year, month) = (t[..4].parse().ok()?, t[5..].parse().ok()?);
    NaiveDate::from_ymd_opt(year, month, 1).filter(|d| super::date_in_range(*d))
}

pub fn last_of_month(d: NaiveDate) -> NaiveDate {
    let (y, m) = (d.year(), d.month());
    let next = if m == 12 { NaiveDate::from_ymd_opt(y + 1, 1, 1) } else { NaiveDate::from_ymd_opt(y, m + 1, 1) };
    next.expect("valid month") - Duration::days(1)
}

/// The Monday of `d`'s week (Swedish weeks start on Monday).
pub fn week_start(d: NaiveDate) -> NaiveDate {
    d - Duration::days(d.weekday().num_days_from_monday() as i64)
}

/// Dates and instants written short, for the tests of every date rule.
#[cfg(test)]
pub(crate) mod tests_support {
    use chrono::{DateTime, NaiveDate, Utc};

    pub fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }
    pub fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }
}

#[cfg(test)]
mod tests {
    use super::tests_support::{d, utc};
    use super::*;

    #[test]
    fn stockholm_days_follow_summer_time() {
        // Winter: UTC+1. 23:30 UTC on 31 Jan is already 1 Feb in Stockholm.
        assert_eq!(stockholm_date(utc("2026-01-31T23:30:00Z")), d(2026, 2, 1));
        assert_eq!(stockholm_date(utc("2026-01-31T22:59:59Z")), d(2026, 1, 31));
        // Summer: UTC+2. 22:00 UTC on 30 June is 1 July.
        assert_eq!(stockholm_date(utc("2026-06-30T22:00:00Z")), d(2026, 7, 1));
        assert_eq!(stockholm_date(utc("2026-06-30T21:59:59Z")), d(2026, 6, 30));
        // Switches 2026: 29 March 01:00 UTC and 25 October 01:00 UTC.
        assert_eq!(stockholm_offset_hours(utc("2026-03-29T00:59:59Z")), 1);
        assert_eq!(stockholm_offset_hours(utc("2026-03-29T01:00:00Z")), 2);
        assert_eq!(stockholm_offset_hours(utc("2026-10-25T00:59:59Z")), 2);
        assert_eq!(stockholm_offset_hours(utc("2026-10-25T01:00:00Z")), 1);
        // Month end in summer time: 31 Oct 2026 23:30 local = 22:30 UTC (CET).
        assert_eq!(stockholm_date(utc("2026-10-31T22:30:00Z")), d(2026, 10, 31));
        assert_eq!(stockholm_date(utc("2026-10-31T23:00:00Z")), d(2026, 11, 1));
    }

    #[test]
    fn day_starts_are_local_midnight() {
        assert_eq!(stockholm_day_start(d(2026, 1, 1)), utc("2025-12-31T23:00:00Z"));
        assert_eq!(stockholm_day_start(d(2026, 7, 1)), utc("2026-06-30T22:00:00Z"));
        assert_eq!(stockholm_day_start(d(2026, 3, 29)), utc("2026-03-28T23:00:00Z"));
        assert_eq!(stockholm_day_start(d(2026, 3, 30)), utc("2026-03-29T22:00:00Z"));
        assert_eq!(stockholm_day_start(d(2026, 10, 26)), utc("2026-10-25T23:00:00Z"));
    }

    #[test]
    fn stockholm_follows_summer_time() {
        assert_eq!(stockholm_text(utc("2026-11-24T08:00:00Z")), "2026-11-24 09:00");
        assert_eq!(stockholm_text(utc("2026-07-01T08:00:00Z")), "2026-07-01 10:00");
        // 2026: summer time from 29 March 01:00 UTC to 25 October 01:00 UTC.
        assert_eq!(stockholm_text(utc("2026-03-29T00:59:00Z")), "2026-03-29 01:59");
        assert_eq!(stockholm_text(utc("2026-03-29T01:00:00Z")), "2026-03-29 03:00");
        assert_eq!(stockholm_text(utc("2026-10-25T00:59:00Z")), "2026-10-25 02:59");
        assert_eq!(stockholm_text(utc("2026-10-25T01:00:00Z")), "2026-10-25 02:00");
    }
}

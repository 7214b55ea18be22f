//! The period a statistics page asks for, cut into the months and days
//! the counters are stored by.

use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::MAX_PERIOD_DAYS;
use crate::domain::calendar::{first_of_month, last_of_month, stockholm_day_start};

/// The period filter of the statistics pages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PeriodKind {
    #[default]
    ThisMonth,
    LastMonth,
    ThisYear,
    Custom,
}

/// An inclusive range of Stockholm days.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Period {
    #[schema(value_type = String)]
    pub from: NaiveDate,
    #[schema(value_type = String)]
    pub to: NaiveDate,
}

/// Why a period was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeriodError {
    Reversed,
    TooLong,
}

impl Period {
    /// The period `kind` means on Stockholm day `today` (custom: `from`..=`to`).
    pub fn resolve(kind: PeriodKind, from: Option<NaiveDate>, to: Option<NaiveDate>, today: NaiveDate) -> Result<Period, PeriodError> {
        let p = match kind {
            PeriodKind::ThisMonth => Period { from: first_of_month(today), to: last_of_month(today) },
            PeriodKind::LastMonth => {
                let last = first_of_month(today) - Duration::days(1);
                Period { from: first_of_month(last), to: last }
            }
            PeriodKind::ThisYear => Period {
                from: NaiveDate::from_ymd_opt(today.year(), 1, 1).expect("1 Jan"),
                to: NaiveDate::from_ymd_opt(today.year(), 12, 31).expect("31 Dec"),
            },
            // A bound left out has a default, so that every combination of
            // the three parameters means a period (a generated client, which
            // cannot state "from and to with custom", gets no refusal for it).
            PeriodKind::Custom => {
                let to = to.unwrap_or(today);
                Period { from: from.unwrap_or_else(|| first_of_month(to)), to }
            }
        };
        if p.to < p.from {
            return Err(PeriodError::Reversed);
        }
        if (p.to - p.from).num_days() >= MAX_PERIOD_DAYS {
            return Err(PeriodError::TooLong);
        }
        Ok(p)
    }

    /// The period as instants: `[start of from, start of the day after to)`.
    pub fn instants(&self) -> (DateTime<Utc>, DateTime<Utc>) {
        (stockholm_day_start(self.from), stockholm_day_start(self.to + Duration::days(1)))
    }

    /// Charts by day for up to two months, else by month.
    pub fn by_day(&self) -> bool {
        (self.to - self.from).num_days() < 62
    }

    /// How the period is read: whole months as month items, the rest as
    /// day ranges within one month each.
    pub fn pieces(&self) -> Vec<Piece> {
        let mut out = Vec::new();
        let mut d = self.from;
        while d <= self.to {
            let end = last_of_month(d);
            if d == first_of_month(d) && end <= self.to {
                out.push(Piece::Month(d));
            } else {
                out.push(Piece::Days(d, end.min(self.to)));
            }
            d = end + Duration::days(1);
        }
        out
    }
}

/// A part of a period as stored: a whole month, or days of one month.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    Month(NaiveDate),
    Days(NaiveDate, NaiveDate),
}

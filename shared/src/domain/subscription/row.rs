//! The purchased-service row (spec §3) as stored and sent, its dates on the
//! wire and its status (spec §4).

use chrono::{NaiveDate, NaiveDateTime};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::catalogue::{Hundredths, CONSULTANCY};

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

/// A form's date-time, within [`crate::domain::date_in_range`].
pub fn parse_datetime(text: &str) -> Option<NaiveDateTime> {
    NaiveDateTime::parse_from_str(text.trim(), datetime_format::FORMAT).ok().filter(|d| crate::domain::date_in_range(d.date()))
}

/// A form's date, within [`crate::domain::date_in_range`].
pub fn parse_date(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d").ok().filter(|d| crate::domain::date_in_range(*d))
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

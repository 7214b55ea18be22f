//! The catalogue (spec §3, §9): the fixed services, packages, service plans,
//! the small named lists (knowledge sectors, case types, departments) and the
//! company-size bands. Amounts with decimals (hours, prices) are kept as
//! integer hundredths so nothing is lost on the way through JSON or DynamoDB.

use crate::error::{FieldErrors, Msg};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use utoipa::ToSchema;

/// A non-negative-or-negative amount with two decimals, stored as hundredths
/// (hours: 0.01 h; prices: öre). JSON carries it as a number (10.5); input
/// also accepts a string with a comma decimal ("10,5"), as the web shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, ToSchema)]
#[schema(value_type = f64)]
pub struct Hundredths(pub i64);

impl Hundredths {
    pub const ZERO: Hundredths = Hundredths(0);
    /// The most hours one entry, estimate, package or subscription row holds
    /// (bounded numbers): 10,000 h.
    pub const MAX_HOURS: Hundredths = Hundredths(1_000_000);
    /// The highest price: SEK 100 million.
    pub const MAX_PRICE: Hundredths = Hundredths(10_000_000_000);
    /// No amount the platform reads, from a form or from the table, is
    /// larger in either direction (10 billion units): a sum of millions of
    /// them still fits in an i64, so the arithmetic below cannot overflow.
    pub const LIMIT: i64 = 1_000_000_000_000;

    pub fn from_units(units: i64) -> Self {
        Hundredths(units * 100)
    }

    /// Exact parse of "12", "12.5", "12,50", "-1.25". More than two decimals,
    /// or anything else, is `None` (never rounded silently).
    pub fn parse(text: &str) -> Option<Self> {
        let t = text.trim().replace(',', ".");
        let (neg, t) = match t.strip_prefix('-') {
            Some(rest) => (true, rest.to_string()),
            None => (false, t),
        };
        let (whole, frac) = match t.split_once('.') {
            Some((w, f)) => (w.to_string(), f.to_string()),
            None => (t.clone(), String::new()),
        };
        if whole.is_empty() && frac.is_empty() {
            return None;
        }
        if !whole.chars().all(|c| c.is_ascii_digit()) || !frac.chars().all(|c| c.is_ascii_digit()) || frac.len() > 2 {
            return None;
        }
        let whole: i64 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
        let frac: i64 = if frac.is_empty() { 0 } else { format!("{frac:0<2}").parse().ok()? };
        let v = whole.checked_mul(100)?.checked_add(frac)?;
        (v <= Self::LIMIT).then_some(Hundredths(if neg { -v } else { v }))
    }

    /// "12.5", "12", "0.01" (dot decimal; the web formats for display).
    pub fn to_decimal_string(self) -> String {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        match a % 100 {
            0 => format!("{sign}{}", a / 100),
            f if f % 10 == 0 => format!("{sign}{}.{}", a / 100, f / 10),
            f => format!("{sign}{}.{f:02}", a / 100),
        }
    }
}

impl Hundredths {
    pub fn checked_add(self, o: Hundredths) -> Option<Hundredths> {
        self.0.checked_add(o.0).map(Hundredths)
    }

    pub fn checked_sub(self, o: Hundredths) -> Option<Hundredths> {
        self.0.checked_sub(o.0).map(Hundredths)
    }
}

/// Saturating: amounts are bounded by [`Hundredths::LIMIT`] when read, so
/// saturation is never reached; it only keeps a bad stored value from
/// panicking (release builds check overflow and abort on panic).
impl std::ops::Add for Hundredths {
    type Output = Hundredths;
    fn add(self, o: Hundredths) -> Hundredths {
        Hundredths(self.0.saturating_add(o.0))
    }
}

impl std::ops::Sub for Hundredths {
    type Output = Hundredths;
    fn sub(self, o: Hundredths) -> Hundredths {
        Hundredths(self.0.saturating_sub(o.0))
    }
}

impl Serialize for Hundredths {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // An f64 built from hundredths prints back as the same two-decimal
        // text (shortest round-trip formatting), so nothing is lost.
        s.serialize_f64(self.0 as f64 / 100.0)
    }
}

impl<'de> Deserialize<'de> for Hundredths {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Hundredths;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number with at most two decimals")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Hundredths, E> {
                v.checked_mul(100).filter(|h| h.abs() <= Hundredths::LIMIT).map(Hundredths).ok_or_else(|| E::custom("out of range"))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Hundredths, E> {
                i64::try_from(v).map_err(|_| E::custom("out of range")).and_then(|v| self.visit_i64(v))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Hundredths, E> {
                // Shortest round-trip text of the float is what the sender wrote.
                Hundredths::parse(&format!("{v}")).ok_or_else(|| E::custom("at most two decimals"))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Hundredths, E> {
                Hundredths::parse(v).ok_or_else(|| E::custom("at most two decimals"))
            }
        }
        d.deserialize_any(V)
    }
}

/// The fixed services (spec §1, §3, §9). Ids are part of the contract: id 1
/// is the hour-based consultancy service, id 2 Verified.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Service {
    pub id: u8,
    pub name: &'static str,
    /// true for the hour-based service (hours instead of a use limit).
    pub hour_based: bool,
}

pub const CONSULTANCY: u8 = 1;
pub const VERIFIED: u8 = 2;
pub const BISNODE: u8 = 3;
pub const INCASSO: u8 = 4;
pub const KONTRAKTO: u8 = 5;
pub const VIDEO_MEETING: u8 = 6;

pub const SERVICES: [Service; 6] = [
    Service { id: CONSULTANCY, name: "Consultancy hours", hour_based: true },
    Service { id: VERIFIED, name: "Verified", hour_based: false },
    Service { id: BISNODE, name: "Bisnode", hour_based: false },
    Service { id: INCASSO, name: "Incasso", hour_based: false },
    Service { id: KONTRAKTO, name: "Kontrakto", hour_based: false },
    Service { id: VIDEO_MEETING, name: "Video meeting", hour_based: false },
];

pub fn service(id: u8) -> Option<Service> {
    SERVICES.iter().copied().find(|s| s.id == id)
}

/// Spec §3 Package: hours of the consultancy service for a price, valid for a
/// number of days. Only public packages are offered to customers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Package {
    pub id: u64,
    pub name: String,
    pub hours: Hundredths,
    /// SEK.
    pub price: Hundredths,
    pub duration_days: u32,
    pub public: bool,
    #[schema(value_type = String)]
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// No longer sold, to customers or by staff; kept because rows bought
    /// earlier name it (they keep their own terms).
    #[serde(default)]
    pub retired: bool,
    /// Bought at least once, so never deleted (only retired).
    #[serde(default)]
    pub bought: bool,
}

/// Spec §3 Service plan: one service with a use limit (or hours for the
/// hour-based service), a price and an expiry in days.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ServicePlan {
    pub id: u64,
    pub name: String,
    pub service_id: u8,
    /// Uses allowed (limited services).
    pub limit: Option<u32>,
    /// Hours (service 1 only).
    pub hours: Option<Hundredths>,
    /// SEK.
    pub price: Hundredths,
    pub expiry_days: u32,
    pub public: bool,
    #[schema(value_type = String)]
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// As [`Package::retired`].
    #[serde(default)]
    pub retired: bool,
    /// As [`Package::bought`].
    #[serde(default)]
    pub bought: bool,
}

pub const MAX_DAYS: u32 = 3650;

impl Package {
    /// Offered to customers (the landing page, their dashboards, buying).
    pub fn on_offer(&self) -> bool {
        self.public && !self.retired
    }
}

impl ServicePlan {
    /// Offered to customers (the landing page, their dashboards, buying).
    pub fn on_offer(&self) -> bool {
        self.public && !self.retired
    }
}

#[cfg(any(test, feature = "testkit"))]
impl ServicePlan {
    /// A public plan of `limit` uses of a limited service (1 SEK, 30 days):
    /// the plan the unit and integration tests buy, made in one place.
    pub fn limited_for_tests(id: u64, name: &str, service_id: u8, limit: u32) -> ServicePlan {
        let draft = ServicePlanDraft {
            name: name.into(),
            service_id,
            limit: Some(limit),
            hours: None,
            price: Hundredths(100),
            expiry_days: 30,
            public: true,
        };
        draft.into_plan(id, chrono::Utc::now())
    }
}

/// Retiring or reinstating a package or service plan (admin).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"retired": true}))]
pub struct RetireRequest {
    /// true: no longer sold; false: sold again. Required: a missing value
    /// would silently reinstate.
    pub retired: bool,
}

/// Validation of a new package (admin form); custom packages use the same
/// rule: hours and price above 0 ('custom package value above 0').
pub fn validate_package(name: &str, hours: Hundredths, price: Hundredths, duration_days: u32) -> FieldErrors {
    let mut p = FieldErrors::new();
    if name.trim().is_empty() {
        p.add("name", Msg::Required);
    }
    super::text::limit(&mut p, "name", name.trim(), MAX_NAME_CHARS);
    if hours.0 <= 0 {
        p.add("hours", Msg::CustomPackageValuePositive);
    } else if hours > Hundredths::MAX_HOURS {
        p.add("hours", Msg::HoursTooLarge);
    }
    if price.0 <= 0 {
        p.add("price", Msg::CustomPackageValuePositive);
    } else if price > Hundredths::MAX_PRICE {
        p.add("price", Msg::PriceTooLarge);
    }
    if duration_days == 0 || duration_days > MAX_DAYS {
        p.add("duration_days", Msg::InvalidDuration);
    }
    p
}

pub fn validate_service_plan(
    name: &str,
    service_id: u8,
    limit: Option<u32>,
    hours: Option<Hundredths>,
    price: Hundredths,
    expiry_days: u32,
) -> FieldErrors {
    let mut p = FieldErrors::new();
    if name.trim().is_empty() {
        p.add("name", Msg::Required);
    }
    super::text::limit(&mut p, "name", name.trim(), MAX_NAME_CHARS);
    match service(service_id) {
        None => p.add("service_id", Msg::UnknownService),
        Some(s) if s.hour_based => {
            if hours.is_none_or(|h| h.0 < 1) {
                p.add("hours", Msg::HourMin);
            } else if hours.is_some_and(|h| h > Hundredths::MAX_HOURS) {
                p.add("hours", Msg::HoursTooLarge);
            }
        }
        Some(_) => {
            if limit.is_none_or(|l| l == 0) {
                p.add("limit", Msg::LimitAboveZero);
            }
        }
    }
    if price.0 < 0 {
        p.add("price", Msg::InvalidPrice);
    } else if price > Hundredths::MAX_PRICE {
        p.add("price", Msg::PriceTooLarge);
    }
    if expiry_days == 0 || expiry_days > MAX_DAYS {
        p.add("expiry_days", Msg::InvalidDuration);
    }
    p
}

/// The admin's package form. Numbers arrive as JSON numbers or as text with
/// a comma decimal ("10,5").
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"name": "Paket 10 h", "hours": 10, "price": 12000, "duration_days": 365, "public": true}))]
pub struct NewPackage {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub name: String,
    /// Number or text with comma decimal; two decimals.
    #[schema(value_type = f64, required = true, minimum = 0.01, maximum = 10000)]
    pub hours: Option<serde_json::Value>,
    /// SEK, two decimals.
    #[schema(value_type = f64, required = true, minimum = 0.01, maximum = 100000000)]
    pub price: Option<serde_json::Value>,
    #[schema(value_type = u32, required = true, minimum = 1, maximum = 3650)]
    pub duration_days: Option<serde_json::Value>,
    #[serde(default)]
    pub public: bool,
}

/// A package form that passed every rule; only an id and a date are missing.
#[derive(Clone, Debug, PartialEq)]
pub struct PackageDraft {
    pub name: String,
    pub hours: Hundredths,
    pub price: Hundredths,
    pub duration_days: u32,
    pub public: bool,
}

impl PackageDraft {
    pub fn into_package(self, id: u64, created_at: chrono::DateTime<chrono::Utc>) -> Package {
        Package {
            id,
            name: self.name,
            hours: self.hours,
            price: self.price,
            duration_days: self.duration_days,
            public: self.public,
            created_at,
            retired: false,
            bought: false,
        }
    }
}

impl NewPackage {
    /// The form's values, or every field error at once: unreadable numbers
    /// first, then the package rules ([`validate_package`]).
    pub fn checked(&self) -> Result<PackageDraft, FieldErrors> {
        let mut p = FieldErrors::new();
        let hours = p.read("hours", Msg::InvalidNumber, decimal_field(self.hours.as_ref()));
        let price = p.read("price", Msg::InvalidPrice, decimal_field(self.price.as_ref()));
        let days = p.read("duration_days", Msg::InvalidDuration, count_field(self.duration_days.as_ref()));
        if !p.is_empty() {
            return Err(p);
        }
        let draft = PackageDraft {
            name: self.name.trim().to_string(),
            hours: hours.unwrap_or_default(),
            price: price.unwrap_or_default(),
            duration_days: days.unwrap_or(0),
            public: self.public,
        };
        let p = validate_package(&self.name, draft.hours, draft.price, draft.duration_days);
        if p.is_empty() {
            Ok(draft)
        } else {
            Err(p)
        }
    }
}

/// The admin's service-plan form.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"name": "Plan 5 h", "service_id": 1, "hours": 5, "price": 6000, "expiry_days": 365, "public": true}))]
pub struct NewServicePlan {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub name: String,
    /// 1 consultancy hours, 2 Verified, 3 Bisnode, 4 Incasso, 5 Kontrakto, 6 video meeting.
    #[serde(default)]
    #[schema(required = true, minimum = 1, maximum = 6)]
    pub service_id: u8,
    /// Uses allowed: required (at least 1) for every service but 1.
    #[schema(value_type = Option<u32>, minimum = 1)]
    pub limit: Option<serde_json::Value>,
    /// Service 1 only (required there), two decimals.
    #[schema(value_type = Option<f64>, minimum = 0.01, maximum = 10000)]
    pub hours: Option<serde_json::Value>,
    /// SEK, two decimals.
    #[schema(value_type = f64, required = true, minimum = 0, maximum = 100000000)]
    pub price: Option<serde_json::Value>,
    #[schema(value_type = u32, required = true, minimum = 1, maximum = 3650)]
    pub expiry_days: Option<serde_json::Value>,
    #[serde(default)]
    pub public: bool,
}

/// A service-plan form that passed every rule: a limit for a limited
/// service, hours for the hour-based one (never both).
#[derive(Clone, Debug, PartialEq)]
pub struct ServicePlanDraft {
    pub name: String,
    pub service_id: u8,
    pub limit: Option<u32>,
    pub hours: Option<Hundredths>,
    pub price: Hundredths,
    pub expiry_days: u32,
    pub public: bool,
}

impl ServicePlanDraft {
    pub fn into_plan(self, id: u64, created_at: chrono::DateTime<chrono::Utc>) -> ServicePlan {
        ServicePlan {
            id,
            name: self.name,
            service_id: self.service_id,
            limit: self.limit,
            hours: self.hours,
            price: self.price,
            expiry_days: self.expiry_days,
            public: self.public,
            created_at,
            retired: false,
            bought: false,
        }
    }
}

impl NewServicePlan {
    /// The form's values, or every field error at once: unreadable numbers
    /// and a missing price first, then the plan rules ([`validate_service_plan`]).
    pub fn checked(&self) -> Result<ServicePlanDraft, FieldErrors> {
        let mut p = FieldErrors::new();
        let limit = p.read("limit", Msg::LimitAboveZero, count_field(self.limit.as_ref()));
        let hours = p.read("hours", Msg::InvalidNumber, decimal_field(self.hours.as_ref()));
        let price = p.read("price", Msg::InvalidPrice, decimal_field(self.price.as_ref()));
        let days = p.read("expiry_days", Msg::InvalidDuration, count_field(self.expiry_days.as_ref()));
        let price = match price {
            Some(price) => price,
            None => {
                if !p.has("price") {
                    p.add("price", Msg::Required);
                }
                return Err(p);
            }
        };
        if !p.is_empty() {
            return Err(p);
        }
        let days = days.unwrap_or(0);
        let p = validate_service_plan(&self.name, self.service_id, limit, hours, price, days);
        if !p.is_empty() {
            return Err(p);
        }
        let hour_based = service(self.service_id).is_some_and(|x| x.hour_based);
        Ok(ServicePlanDraft {
            name: self.name.trim().to_string(),
            service_id: self.service_id,
            limit: if hour_based { None } else { limit },
            hours: if hour_based { hours } else { None },
            price,
            expiry_days: days,
            public: self.public,
        })
    }
}

/// The named lists kept by admin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedKind {
    KnowledgeSector,
    CaseType,
    Department,
}

/// Names of named-list entries are at most this long.
pub const MAX_NAME_CHARS: usize = 200;

/// The admin's form of a named-list entry.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"name": "Hyresrätt", "name_en": "Tenancy law", "description": "Hyra av bostad och lokal"}))]
pub struct NamedRequest {
    /// The name in Swedish, the platform's default language (required).
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub name: String,
    /// The name in English; readers of English see `name` when it is empty.
    #[serde(default)]
    #[schema(max_length = 200)]
    pub name_en: Option<String>,
    #[serde(default)]
    #[schema(max_length = 10000)]
    pub description: String,
}

/// A named-list entry's names and description, trimmed and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedDraft {
    pub name: String,
    pub name_en: Option<String>,
    pub description: String,
}

impl NamedDraft {
    /// An entry named in Swedish only (seeds and tests).
    pub fn named(name: &str) -> NamedDraft {
        NamedDraft { name: name.trim().to_string(), name_en: None, description: String::new() }
    }
}

impl NamedRequest {
    /// A name is required; both names are at most [`MAX_NAME_CHARS`] long
    /// as sent, as the document's `maxLength` counts them (cleaning only
    /// removes characters: a name of escape sequences cleaned short was
    /// still too long).
    pub fn checked(&self) -> Result<NamedDraft, FieldErrors> {
        let mut errors = FieldErrors::default();
        let name = super::text::clean_name(&self.name);
        if self.name.chars().count() > MAX_NAME_CHARS {
            errors.add("name", Msg::TooLong);
        } else if name.is_empty() {
            errors.add("name", Msg::Required);
        }
        let name_en = self.name_en.as_deref().map(super::text::clean_name).filter(|n| !n.is_empty());
        if self.name_en.as_ref().is_some_and(|n| n.chars().count() > MAX_NAME_CHARS) {
            errors.add("name_en", Msg::TooLong);
        }
        if self.description.chars().count() > super::text::LONG_MAX {
            errors.add("description", Msg::TooLong);
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(NamedDraft { name, name_en, description: super::text::clean_long(&self.description) })
    }
}

/// A small named list entry: knowledge sector, case type, department. Admin
/// names it in both interface languages (data users read is in
/// their language); entries made before English names were added have a Swedish name only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct NamedEntry {
    pub id: u64,
    pub name: String,
    #[serde(default)]
    pub name_en: Option<String>,
    #[serde(default)]
    pub description: String,
}

impl NamedEntry {
    /// The name a reader of `lang` sees (English falls back to Swedish).
    pub fn name_in(&self, lang: &str) -> &str {
        localized(&self.name, self.name_en.as_deref(), lang)
    }
}

/// `sv` unless the reader reads English and an English text exists.
pub fn localized<'a>(sv: &'a str, en: Option<&'a str>, lang: &str) -> &'a str {
    match en {
        Some(en) if lang.starts_with("en") && !en.trim().is_empty() => en,
        _ => sv,
    }
}

/// Company-size bands (spec §3). The readings differ; we take the first one:
/// annual turnover bands in MSEK with the upper bounds 1, 10, 20, 50, 100 and
/// 100+, labelled as ranges. `value` is what a customer record stores.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct CompanySize {
    pub value: &'static str,
    pub label: &'static str,
}

pub const COMPANY_SIZES: [CompanySize; 6] = [
    CompanySize { value: "1", label: "0-1 MSEK" },
    CompanySize { value: "10", label: "1-10 MSEK" },
    CompanySize { value: "20", label: "10-20 MSEK" },
    CompanySize { value: "50", label: "20-50 MSEK" },
    CompanySize { value: "100", label: "50-100 MSEK" },
    CompanySize { value: "100+", label: "100+ MSEK" },
];

/// A decimal form field sent as a JSON number or a text with comma decimal.
/// `Ok(None)` when absent or null; `Err(())` when not a two-decimal number.
pub fn decimal_field(v: Option<&serde_json::Value>) -> Result<Option<Hundredths>, Msg> {
    match v {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::Number(n)) => Hundredths::parse(&n.to_string()).map(Some).ok_or(Msg::InvalidNumber),
        Some(serde_json::Value::String(t)) if t.trim().is_empty() => Ok(None),
        Some(serde_json::Value::String(t)) => Hundredths::parse(t).map(Some).ok_or(Msg::InvalidNumber),
        Some(_) => Err(Msg::InvalidNumber),
    }
}

/// A whole-number form field (days, limits): at most `i32::MAX`, the
/// range of the `int32` the document gives a `u32`.
pub fn count_field(v: Option<&serde_json::Value>) -> Result<Option<u32>, Msg> {
    let fits = |x: u64| u32::try_from(x).ok().filter(|x| i32::try_from(*x).is_ok());
    match v {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::Number(n)) => n.as_u64().and_then(fits).map(Some).ok_or(Msg::InvalidNumber),
        Some(serde_json::Value::String(t)) if t.trim().is_empty() => Ok(None),
        Some(serde_json::Value::String(t)) => t.trim().parse().ok().and_then(fits).map(Some).ok_or(Msg::InvalidNumber),
        Some(_) => Err(Msg::InvalidNumber),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hundredths_parse_exactly_and_never_round() {
        assert_eq!(Hundredths::parse("10"), Some(Hundredths(1000)));
        assert_eq!(Hundredths::parse("2,5"), Some(Hundredths(250)));
        assert_eq!(Hundredths::parse("0.01"), Some(Hundredths(1)));
        assert_eq!(Hundredths::parse(".5"), Some(Hundredths(50)));
        assert_eq!(Hundredths::parse("-1.25"), Some(Hundredths(-125)));
        assert_eq!(Hundredths::parse("0.001"), None);
        // The value that broke every list, and sums never overflow.
        assert_eq!(Hundredths::parse("92233720368547758,07"), None);
        assert_eq!(Hundredths::parse("10000000000"), Some(Hundredths(Hundredths::LIMIT)));
        assert_eq!(Hundredths::parse("10000000000.01"), None);
        assert!(serde_json::from_str::<Hundredths>("92233720368547758").is_err());
        assert!(serde_json::from_str::<Hundredths>("9.2e16").is_err());
        assert_eq!(Hundredths(i64::MAX) + Hundredths(1), Hundredths(i64::MAX));
        assert!(validate_package("P", Hundredths(1_000_001), Hundredths(1), 30).has("hours"));
        assert!(validate_package("P", Hundredths(1_000_000), Hundredths(10_000_000_001), 30).has("price"));
        assert!(validate_package("P", Hundredths(1_000_000), Hundredths(10_000_000_000), 30).is_empty());
        assert_eq!(Hundredths::parse("1e3"), None);
        assert_eq!(Hundredths::parse(""), None);
        assert_eq!(Hundredths(1050).to_decimal_string(), "10.5");
        assert_eq!(Hundredths(1).to_decimal_string(), "0.01");
        assert_eq!(Hundredths(200).to_decimal_string(), "2");
    }

    #[test]
    fn counts_fit_the_documented_int32() {
        assert_eq!(count_field(Some(&json!(2147483647))), Ok(Some(i32::MAX as u32)));
        assert_eq!(count_field(Some(&json!(2147483648u64))), Err(Msg::InvalidNumber));
        assert_eq!(count_field(Some(&json!("2147483648"))), Err(Msg::InvalidNumber));
        assert_eq!(count_field(Some(&json!(5.5))), Err(Msg::InvalidNumber));
        assert_eq!(count_field(Some(&json!(-1))), Err(Msg::InvalidNumber));
    }

    #[test]
    fn hundredths_json_round_trip() {
        let h: Hundredths = serde_json::from_str("0.29").unwrap();
        assert_eq!(h, Hundredths(29));
        assert_eq!(serde_json::to_string(&h).unwrap(), "0.29");
        let h: Hundredths = serde_json::from_str("\"1,75\"").unwrap();
        assert_eq!(h, Hundredths(175));
        assert!(serde_json::from_str::<Hundredths>("1.234").is_err());
        assert_eq!(serde_json::from_str::<Hundredths>("7").unwrap(), Hundredths(700));
    }

    #[test]
    fn service_ids_are_fixed() {
        assert_eq!(service(1).unwrap().name, "Consultancy hours");
        assert!(service(1).unwrap().hour_based);
        assert_eq!(service(2).unwrap().name, "Verified");
        assert_eq!(service(3).unwrap().name, "Bisnode");
        assert!(service(7).is_none());
    }

    #[test]
    fn package_values_must_be_above_zero() {
        let p = validate_package("Gold", Hundredths(0), Hundredths(-1), 30);
        assert_eq!(p["hours"], vec![Msg::CustomPackageValuePositive]);
        assert_eq!(p["price"], vec![Msg::CustomPackageValuePositive]);
        assert!(validate_package("Gold", Hundredths(1), Hundredths(1), 30).is_empty());
        assert!(validate_package(" ", Hundredths(1), Hundredths(1), 0).has("duration_days"));
    }

    #[test]
    fn forms_give_checked_values_or_every_field_error() {
        let form = NewPackage {
            name: " Gold ".into(),
            hours: Some(json!("10,5")),
            price: Some(json!(1000)),
            duration_days: Some(json!(30)),
            public: true,
        };
        let d = form.checked().unwrap();
        assert_eq!((d.name.as_str(), d.hours, d.price, d.duration_days), ("Gold", Hundredths(1050), Hundredths(100_000), 30));
        let bad =
            NewPackage { name: "X".into(), hours: Some(json!(0)), price: Some(json!("abc")), duration_days: Some(json!(1)), public: false };
        let e = bad.checked().unwrap_err();
        assert_eq!(e["price"], vec![Msg::InvalidPrice]);
        assert!(!e.has("hours"), "the package rules wait until every number reads");
        let plan = NewServicePlan {
            name: "P".into(),
            service_id: 3,
            limit: Some(json!(2)),
            hours: Some(json!(5)),
            price: Some(json!(99)),
            expiry_days: Some(json!(30)),
            public: true,
        };
        let d = plan.checked().unwrap();
        assert_eq!((d.limit, d.hours), (Some(2), None), "a limited service keeps no hours");
        let no_price = NewServicePlan { name: "P".into(), service_id: 3, limit: Some(json!(2)), ..Default::default() };
        assert_eq!(no_price.checked().unwrap_err()["price"], vec![Msg::Required]);
        assert_eq!(NamedRequest { name: "  ".into(), ..Default::default() }.checked().unwrap_err()["name"], vec![Msg::Required]);
        assert_eq!(NamedRequest { name: "a".repeat(201), ..Default::default() }.checked().unwrap_err()["name"], vec![Msg::TooLong]);
        // The bound counts the name as sent (the document's maxLength), escape sequences the cleaning drops included.
        let escapes = format!("{}Skatt", "\u{1b}[1m".repeat(50));
        assert_eq!(NamedRequest { name: escapes.clone(), ..Default::default() }.checked().unwrap_err()["name"], vec![Msg::TooLong]);
        let en = NamedRequest { name: "Skatt".into(), name_en: Some(escapes), ..Default::default() };
        assert_eq!(en.checked().unwrap_err()["name_en"], vec![Msg::TooLong]);
        assert_eq!(
            NamedRequest { name: format!("{}Skatt", "\u{1b}[1m".repeat(10)), ..Default::default() }.checked().unwrap().name,
            "Skatt"
        );
        assert_eq!(
            NamedRequest { name: " Tax ".into(), name_en: Some("  ".into()), description: " d ".into() }.checked().unwrap(),
            NamedDraft { name: "Tax".into(), name_en: None, description: "d".into() }
        );
        let both = NamedRequest { name: "Skatterätt".into(), name_en: Some(" Tax law\u{202E} ".into()), ..Default::default() };
        let both = both.checked().unwrap();
        assert_eq!(both.name_en.as_deref(), Some("Tax law"), "trimmed, bidirectional overrides removed");
        let long_en = NamedRequest { name: "S".into(), name_en: Some("e".repeat(201)), ..Default::default() };
        assert_eq!(long_en.checked().unwrap_err()["name_en"], vec![Msg::TooLong]);
    }

    #[test]
    fn named_entries_are_read_in_the_readers_language() {
        let e = NamedEntry { id: 1, name: "Hyresrätt".into(), name_en: Some("Tenancy law".into()), description: String::new() };
        assert_eq!(e.name_in("sv"), "Hyresrätt");
        assert_eq!(e.name_in("en"), "Tenancy law");
        assert_eq!(e.name_in("en-GB"), "Tenancy law");
        let sv_only = NamedEntry { name_en: None, ..e };
        assert_eq!(sv_only.name_in("en"), "Hyresrätt", "English falls back to the Swedish name");
    }

    #[test]
    fn service_plan_needs_hours_or_limit_by_service() {
        assert!(validate_service_plan("A", 1, None, None, Hundredths(0), 30).has("hours"));
        assert!(validate_service_plan("A", 3, None, None, Hundredths(0), 30).has("limit"));
        assert!(validate_service_plan("A", 9, None, None, Hundredths(0), 30).has("service_id"));
        assert!(validate_service_plan("A", 3, Some(5), None, Hundredths(100), 30).is_empty());
    }
}

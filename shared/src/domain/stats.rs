//! Statistics (spec §1 statistics): the counters kept with every
//! event, as pure functions.
//!
//! Most counters are a *contribution* of a thing's current state: a case
//! counts as opened on its creation day and in its status now, an hour
//! entry counts its hours on its date, a subscription row as bought on its
//! creation day, a customer as new on its sign-up day and in its state now.
//! An event's change is `contribution(after) − contribution(before)`, so a
//! retried request that re-reads and re-decides adds exactly the difference
//! once, and the recount ([`contributions`] summed over the raw items)
//! gives the same figures. A few counters are *flows* that the current state
//! cannot tell (a case accepted or closed, a subscription activated or
//! expired, a customer deactivated): they are added by the event alone and
//! listed in [`FLOW_METRICS`] (the recount reports but does not rebuild them).
//!
//! Days are Stockholm days ([`super::calendar`]).

use std::collections::BTreeMap;

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::calendar::{first_of_month, last_of_month, stockholm_date, stockholm_day_start};
use super::case::{Case, CaseHour, CaseStatus};
use super::customer::{CustomerProfile, CustomerState, CustomerType};
use super::subscription::PurchasedService;

/// Shards of the global counters (write-heavy: every event adds to them).
pub const ALL_SHARDS: u8 = 8;
/// Buckets of the per-customer breakdown (the customer statistics table).
/// A bucket's month item holds every breakdown metric of its customers
/// active that month, about 400 bytes a customer: 64 buckets keep it under
/// DynamoDB's 400 KB item limit up to some 55,000 customers active in one
/// month (40,000 with every number at its largest: the test below). With 16
/// an event's counter update failed past about 16,000.
pub const CUSTOMER_BUCKETS: u8 = 64;
/// DynamoDB's largest item (bytes).
pub const ITEM_LIMIT_BYTES: usize = 400 * 1024;
/// The longest custom period (days): a call reads at most this many days
/// of counters, whatever the data size.
pub const MAX_PERIOD_DAYS: i64 = 366 * 3;

/// Whose counters an item holds.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// Everything (admin's figures), sharded.
    All,
    /// One lawyer's own figures.
    Lawyer(String),
    /// One customer's (and so its contacts') figures.
    Customer(String),
    /// One sales person's customers (as account manager): the gauge
    /// `customers` and a `customer.<uid>` member mark per customer, their
    /// cases by status now, their active subscriptions due per day
    /// (`subs.due`), and the subscriptions sold while they managed the
    /// customer (`subs.bought`, `revenue.subs`).
    Sales(String),
    /// The per-customer breakdown: metrics named `<metric>@<customer uid>`
    /// of the customers whose uid hashes to this bucket.
    Bucket(u8),
}

impl Scope {
    pub fn key(&self) -> String {
        match self {
            Scope::All => "all".into(),
            Scope::Lawyer(uid) => format!("lawyer#{uid}"),
            Scope::Customer(uid) => format!("customer#{uid}"),
            Scope::Sales(uid) => format!("sales#{uid}"),
            Scope::Bucket(b) => format!("bucket#{b}"),
        }
    }
    pub fn shards(&self) -> u8 {
        match self {
            Scope::All => ALL_SHARDS,
            _ => 1,
        }
    }
    /// Every bucket of the per-customer breakdown.
    pub fn buckets() -> Vec<Scope> {
        (0..CUSTOMER_BUCKETS).map(Scope::Bucket).collect()
    }
    /// The bucket of a customer's breakdown metrics.
    pub fn bucket_of(customer_uid: &str) -> Scope {
        Scope::Bucket((fnv(customer_uid) % CUSTOMER_BUCKETS as u64) as u8)
    }
}

/// FNV-1a: a stable hash (shards, buckets) that never changes between builds.
pub fn fnv(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// When a counter counts: on a Stockholm day (its day and month items), or
/// now (a gauge: how many are in a state at present).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum When {
    Day(NaiveDate),
    Now,
}

/// Counter changes: scope → when → metric → amount.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Deltas(pub BTreeMap<(Scope, When), BTreeMap<String, i64>>);

impl Deltas {
    pub fn add(&mut self, scope: Scope, when: When, metric: impl Into<String>, v: i64) {
        if v == 0 {
            return;
        }
        let m = self.0.entry((scope, when)).or_default();
        let e = m.entry(metric.into()).or_insert(0);
        *e += v;
    }
    /// Adds every change of `other` times `sign` (1 or −1).
    pub fn merge(&mut self, other: &Deltas, sign: i64) {
        for ((scope, when), metrics) in &other.0 {
            for (m, v) in metrics {
                self.add(scope.clone(), *when, m.clone(), v * sign);
            }
        }
    }
    /// Without zero sums (an edit that changed nothing counted).
    pub fn pruned(mut self) -> Deltas {
        for m in self.0.values_mut() {
            m.retain(|_, v| *v != 0);
        }
        self.0.retain(|_, m| !m.is_empty());
        self
    }
    pub fn is_empty(&self) -> bool {
        self.0.values().all(|m| m.values().all(|v| *v == 0))
    }
    /// `after − before`.
    pub fn diff(before: &Deltas, after: &Deltas) -> Deltas {
        let mut d = after.clone();
        d.merge(before, -1);
        d.pruned()
    }
}

/// Metrics the current state cannot tell; only events add them.
pub const FLOW_METRICS: &[&str] = &[
    "cases.accepted",
    "cases.accept_secs",
    "cases.closed",
    "cases.close_secs",
    "subs.activated",
    "subs.expired",
    "customers.deactivated",
    "customers.reactivated",
];

/// Whether `metric` (with its dimension suffixes) is a flow.
pub fn is_flow(metric: &str) -> bool {
    let base = metric.split('@').next().unwrap_or(metric);
    FLOW_METRICS.iter().any(|f| base == *f || base.starts_with(&format!("{f}.")))
}

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
    Missing,
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
            PeriodKind::Custom => {
                let (Some(from), Some(to)) = (from, to) else { return Err(PeriodError::Missing) };
                Period { from, to }
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

// ------------------------------------------------------ contributions ----

pub fn status_word(s: CaseStatus) -> &'static str {
    match s {
        CaseStatus::Draft => "draft",
        CaseStatus::Waiting => "waiting",
        CaseStatus::Inprogress => "inprogress",
        CaseStatus::Complete => "complete",
        CaseStatus::Withdrawn => "withdrawn",
    }
}

/// The knowledge sector dimension of a case: its sector's id, or "none"
/// (see [`super::case::KnowledgeSector`] for how a case has one).
pub fn sector_of(c: &Case) -> String {
    c.knowledge_sector.as_ref().map(|s| s.id.to_string()).unwrap_or_else(|| "none".into())
}

/// The metric of a case type and knowledge sector pair: `<m>.pair.<type>.<sector>`.
pub fn pair_metric(metric: &str, c: &Case) -> String {
    format!("{metric}.pair.{}.{}", c.case_type.id, sector_of(c))
}

/// A customer's account manager (the sales person managing it), if any.
pub fn sales_of(p: &CustomerProfile) -> Option<String> {
    p.account_manager_uid.as_ref().map(|s| s.trim()).filter(|s| !s.is_empty()).map(String::from)
}

/// The case statuses counted now (`cases.status.<word>`).
pub const STATUS_WORDS: [&str; 4] = ["draft", "waiting", "inprogress", "complete"];

/// A case's contribution: opened on its creation day (by case type, by
/// knowledge sector and by the pair), and its status now, for everyone,
/// its customer, its lawyer and its customer's current account manager
/// `sales` (the case moves with the customer when the manager changes,
/// see [`sales_move`]).
pub fn case_contribution(c: &Case, sales: Option<&str>) -> Deltas {
    let mut d = Deltas::default();
    let day = When::Day(stockholm_date(c.created_at));
    let ty = c.case_type.id;
    let status = format!("cases.status.{}", status_word(c.status));
    for scope in [Scope::All, Scope::Customer(c.customer.clone())] {
        d.add(scope.clone(), day, "cases.opened", 1);
        d.add(scope.clone(), day, format!("cases.opened.type.{ty}"), 1);
        d.add(scope.clone(), day, format!("cases.opened.sector.{}", sector_of(c)), 1);
        d.add(scope.clone(), day, pair_metric("cases.opened", c), 1);
        d.add(scope.clone(), When::Now, status.clone(), 1);
        d.add(scope, When::Now, format!("{status}.type.{ty}"), 1);
    }
    d.add(Scope::bucket_of(&c.customer), day, format!("cases.opened@{}", c.customer), 1);
    if let Some(s) = sales {
        d.add(Scope::Sales(s.to_string()), When::Now, status.clone(), 1);
    }
    if let Some(l) = &c.lawyer {
        d.add(Scope::Lawyer(l.clone()), When::Now, status, 1);
    }
    d
}

/// An hour entry's contribution on its date (hundredths of hours; revenue
/// in öre at the customer's hourly rate `rate_ore`).
pub fn hour_contribution(c: &Case, h: &CaseHour, rate_ore: i64) -> Deltas {
    let mut d = Deltas::default();
    let day = When::Day(h.date);
    let (b, nb, rs) = (h.hour.0, h.non_billable_hour.0, h.rattsskydd_hour.0);
    let total = b + nb + rs;
    let revenue = b * rate_ore / 100;
    let ty = c.case_type.id;
    let invoiced = if h.is_invoiced { b } else { 0 };
    for scope in [Scope::All, Scope::Lawyer(h.lawyer.clone()), Scope::Customer(c.customer.clone())] {
        d.add(scope.clone(), day, "hours.billable", b);
        d.add(scope.clone(), day, "hours.nonbillable", nb);
        d.add(scope.clone(), day, "hours.rattsskydd", rs);
        d.add(scope.clone(), day, "hours.total", total);
        d.add(scope.clone(), day, "hours.invoiced", invoiced);
        d.add(scope.clone(), day, "hours.entries", 1);
        d.add(scope.clone(), day, "revenue.hours", revenue);
        d.add(scope.clone(), day, format!("hours.total.type.{ty}"), total);
        d.add(scope.clone(), day, format!("hours.total.sector.{}", sector_of(c)), total);
        d.add(scope, day, pair_metric("hours.total", c), total);
    }
    d.add(Scope::All, day, format!("hours.billable.lawyer.{}", h.lawyer), b);
    d.add(Scope::All, day, format!("hours.total.lawyer.{}", h.lawyer), total);
    d.add(Scope::All, day, format!("revenue.hours.lawyer.{}", h.lawyer), revenue);
    let cust = &c.customer;
    let own = Scope::Lawyer(h.lawyer.clone());
    d.add(own.clone(), day, format!("hours.total.customer.{cust}"), total);
    d.add(own.clone(), day, format!("hours.billable.customer.{cust}"), b);
    d.add(own, day, format!("revenue.hours.customer.{cust}"), revenue);
    d.add(Scope::bucket_of(cust), day, format!("hours.total@{cust}"), total);
    d.add(Scope::bucket_of(cust), day, format!("hours.billable@{cust}"), b);
    d.add(Scope::bucket_of(cust), day, format!("revenue.hours@{cust}"), revenue);
    d
}

/// What a subscription row sold for (öre): its package's or plan's price.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Price(pub i64);

/// The Stockholm day an active row is due to end (its `subs.due` day).
fn due_day(r: &PurchasedService) -> When {
    When::Day(stockholm_date(chrono::Utc.from_utc_datetime(&r.expire_on)))
}

/// A subscription row's contribution: bought on its creation day (revenue
/// by service, plan and package), active now, and while active due on the
/// day it ends (`subs.due`). For the sales scopes: due for the customer's
/// current account manager `sales` (moves with the customer, see
/// [`sales_move`]), and bought for the one who managed the customer when
/// it was sold (`sold_by`, kept on the row: a sale stays with whoever
/// managed the customer then, whoever manages it later).
pub fn subscription_contribution(r: &PurchasedService, price: Price, sales: Option<&str>) -> Deltas {
    let mut d = Deltas::default();
    let created = chrono::Utc.from_utc_datetime(&r.created_at);
    let day = When::Day(stockholm_date(created));
    let svc = r.service.id;
    let active = r.active && !r.expired;
    for scope in [Scope::All, Scope::Customer(r.customer_uid.clone())] {
        d.add(scope.clone(), day, "subs.bought", 1);
        d.add(scope.clone(), day, format!("subs.bought.service.{svc}"), 1);
        d.add(scope.clone(), day, "revenue.subs", price.0);
        d.add(scope.clone(), day, format!("revenue.service.{svc}"), price.0);
        if let Some(id) = r.service_plan.as_ref().and_then(|p| p.id) {
            d.add(scope.clone(), day, format!("revenue.plan.{id}"), price.0);
        }
        if let Some(id) = r.packages.as_ref().and_then(|p| p.id) {
            d.add(scope.clone(), day, format!("revenue.package.{id}"), price.0);
        }
        if active {
            d.add(scope.clone(), When::Now, "subs.active", 1);
            d.add(scope.clone(), When::Now, format!("subs.active.service.{svc}"), 1);
            // Due to end on that (Stockholm) day: "expiring within 30 days"
            // is the sum of the next 31 days' items, not a list of rows.
            d.add(scope, due_day(r), "subs.due", 1);
        }
    }
    if let Some(s) = sales.filter(|_| active) {
        d.add(Scope::Sales(s.to_string()), due_day(r), "subs.due", 1);
    }
    if let Some(s) = r.sold_by.as_deref().filter(|s| !s.is_empty()) {
        d.add(Scope::Sales(s.to_string()), day, "subs.bought", 1);
        d.add(Scope::Sales(s.to_string()), day, "revenue.subs", price.0);
    }
    let cust = &r.customer_uid;
    d.add(Scope::bucket_of(cust), day, format!("subs.bought@{cust}"), 1);
    d.add(Scope::bucket_of(cust), day, format!("revenue.subs@{cust}"), price.0);
    d
}

fn state_word(s: CustomerState) -> &'static str {
    match s {
        CustomerState::Pending => "pending",
        CustomerState::Active => "active",
        CustomerState::Inactive => "inactive",
    }
}

/// A customer's contribution: new on its sign-up day (by type, business
/// sector and size band), approved and activated on those days, and its
/// state now (by sector and size band).
pub fn customer_contribution(p: &CustomerProfile) -> Deltas {
    let mut d = Deltas::default();
    let all = Scope::All;
    let day = When::Day(stockholm_date(p.created_at));
    let ty = match p.customer_type {
        CustomerType::Company => "company",
        CustomerType::Individual => "individual",
    };
    let sector = p.sector.as_ref().map(|s| s.id.clone()).unwrap_or_else(|| "none".into());
    let size = p.company_size.clone().filter(|s| !s.is_empty()).unwrap_or_else(|| "none".into());
    d.add(all.clone(), day, "customers.new", 1);
    d.add(all.clone(), day, format!("customers.new.type.{ty}"), 1);
    d.add(all.clone(), day, format!("customers.new.sector.{sector}"), 1);
    d.add(all.clone(), day, format!("customers.new.size.{size}"), 1);
    if let Some(at) = p.approved_at {
        d.add(all.clone(), When::Day(stockholm_date(at)), "customers.approved", 1);
    }
    if let Some(at) = p.activated_at {
        d.add(all.clone(), When::Day(stockholm_date(at)), "customers.activated", 1);
    }
    let st = format!("customers.state.{}", state_word(p.state));
    d.add(all.clone(), When::Now, st.clone(), 1);
    d.add(all.clone(), When::Now, format!("{st}.sector.{sector}"), 1);
    d.add(all, When::Now, format!("{st}.size.{size}"), 1);
    if let Some(s) = sales_of(p) {
        d.add(Scope::Sales(s.clone()), When::Now, "customers", 1);
        d.add(Scope::Sales(s.clone()), When::Now, format!("customer.{}", p.uid), 1);
    }
    d
}

/// What a customer's current state gives its account manager `sales`:
/// its cases by status now (read from the customer's own now item,
/// `customer_now`) and its active rows due per day (`rows`: the customer's
/// subscription rows). Bounded by the one customer's items.
fn sales_state(customer_now: &BTreeMap<String, i64>, rows: &[PurchasedService], sales: &str) -> Deltas {
    let mut d = Deltas::default();
    let scope = Scope::Sales(sales.to_string());
    for w in STATUS_WORDS {
        let m = format!("cases.status.{w}");
        d.add(scope.clone(), When::Now, m.clone(), customer_now.get(&m).copied().unwrap_or(0));
    }
    for r in rows.iter().filter(|r| r.active && !r.expired) {
        d.add(scope.clone(), due_day(r), "subs.due", 1);
    }
    d
}

/// The move of a customer's current-state figures when its account
/// manager changes from `old` to `new` (set, changed or cleared): taken
/// from the old sales scope, given to the new. Sales already made stay
/// where they were made (`subs.bought`, `revenue.subs`).
pub fn sales_move(customer_now: &BTreeMap<String, i64>, rows: &[PurchasedService], old: Option<&str>, new: Option<&str>) -> Deltas {
    let mut d = Deltas::default();
    if old == new {
        return d;
    }
    if let Some(o) = old {
        d.merge(&sales_state(customer_now, rows, o), -1);
    }
    if let Some(n) = new {
        d.merge(&sales_state(customer_now, rows, n), 1);
    }
    d.pruned()
}

/// The flows of a status change at `at` (the case's new `status_at`):
/// accepted (waiting → in progress, or a draft published straight to its
/// direct-assign lawyer) with the seconds it waited since it became
/// available (a direct assignment waited none), and closed (→ complete)
/// with the seconds since it was published (a draft's time before it is not
/// the firm's), for everyone, the customer and the lawyer, by case type.
pub fn status_flows(before: &Case, after: &Case, at: DateTime<Utc>) -> Deltas {
    let mut d = Deltas::default();
    if before.status == after.status {
        return d;
    }
    let day = When::Day(stockholm_date(at));
    let since = |from: DateTime<Utc>| (at - from).num_seconds().max(0);
    let ty = after.case_type.id;
    let (what, secs) = match (before.status, after.status) {
        (CaseStatus::Waiting, CaseStatus::Inprogress) => {
            ("accept", since(before.status_at.or(before.published_at).unwrap_or(before.created_at)))
        }
        (CaseStatus::Draft, CaseStatus::Inprogress) => ("accept", 0),
        (_, CaseStatus::Complete) => ("close", since(before.published_at.unwrap_or(before.created_at))),
        _ => return d,
    };
    let (count, time) = if what == "accept" { ("cases.accepted", "cases.accept_secs") } else { ("cases.closed", "cases.close_secs") };
    let mut scopes = vec![Scope::All, Scope::Customer(after.customer.clone())];
    if let Some(l) = after.lawyer.as_ref().or(before.lawyer.as_ref()) {
        scopes.push(Scope::Lawyer(l.clone()));
    }
    for scope in scopes {
        d.add(scope.clone(), day, count, 1);
        d.add(scope.clone(), day, time, secs);
        d.add(scope.clone(), day, format!("{count}.type.{ty}"), 1);
        d.add(scope.clone(), day, format!("{time}.type.{ty}"), secs);
        d.add(scope.clone(), day, format!("{count}.sector.{}", sector_of(after)), 1);
        d.add(scope.clone(), day, pair_metric(count, after), 1);
        d.add(scope, day, pair_metric(time, after), secs);
    }
    if what == "close" {
        d.add(Scope::bucket_of(&after.customer), day, format!("cases.closed@{}", after.customer), 1);
    }
    d
}

/// The flows of a subscription change.
pub fn subscription_flows(before: Option<&PurchasedService>, after: Option<&PurchasedService>, now: DateTime<Utc>) -> Deltas {
    let mut d = Deltas::default();
    let day = When::Day(stockholm_date(now));
    let Some(a) = after else { return d };
    let was_active = before.is_some_and(|b| b.active && !b.expired);
    let was_expired = before.is_some_and(|b| b.expired);
    for scope in [Scope::All, Scope::Customer(a.customer_uid.clone())] {
        if before.is_some() && a.active && !a.expired && !was_active {
            d.add(scope.clone(), day, "subs.activated", 1);
        }
        if a.expired && !was_expired {
            d.add(scope, day, "subs.expired", 1);
        }
    }
    d
}

/// The flows of a customer change: deactivated, reactivated.
pub fn customer_flows(before: Option<&CustomerProfile>, after: &CustomerProfile, now: DateTime<Utc>) -> Deltas {
    let mut d = Deltas::default();
    let day = When::Day(stockholm_date(now));
    let Some(b) = before else { return d };
    match (b.state, after.state) {
        (CustomerState::Active | CustomerState::Pending, CustomerState::Inactive) => d.add(Scope::All, day, "customers.deactivated", 1),
        (CustomerState::Inactive, CustomerState::Active) => d.add(Scope::All, day, "customers.reactivated", 1),
        _ => {}
    }
    d
}

/// Sums metric maps (the shards of an item, or several items).
pub fn sum_into(into: &mut BTreeMap<String, i64>, from: &BTreeMap<String, i64>) {
    for (k, v) in from {
        *into.entry(k.clone()).or_insert(0) += v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::calendar::week_start;
    use std::collections::BTreeSet;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }
    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn periods_resolve_month_ends() {
        let today = d(2026, 3, 31);
        assert_eq!(Period::resolve(PeriodKind::ThisMonth, None, None, today).unwrap(), Period { from: d(2026, 3, 1), to: d(2026, 3, 31) });
        assert_eq!(Period::resolve(PeriodKind::LastMonth, None, None, today).unwrap(), Period { from: d(2026, 2, 1), to: d(2026, 2, 28) });
        let jan = d(2024, 1, 15);
        assert_eq!(Period::resolve(PeriodKind::LastMonth, None, None, jan).unwrap(), Period { from: d(2023, 12, 1), to: d(2023, 12, 31) });
        assert_eq!(
            Period::resolve(PeriodKind::LastMonth, None, None, d(2024, 3, 1)).unwrap(),
            Period { from: d(2024, 2, 1), to: d(2024, 2, 29) }
        );
        assert_eq!(Period::resolve(PeriodKind::ThisYear, None, None, today).unwrap(), Period { from: d(2026, 1, 1), to: d(2026, 12, 31) });
        assert_eq!(Period::resolve(PeriodKind::Custom, None, Some(today), today), Err(PeriodError::Missing));
        assert_eq!(Period::resolve(PeriodKind::Custom, Some(today), Some(d(2026, 3, 1)), today), Err(PeriodError::Reversed));
        assert_eq!(Period::resolve(PeriodKind::Custom, Some(d(2020, 1, 1)), Some(today), today), Err(PeriodError::TooLong));
    }

    #[test]
    fn periods_split_into_whole_months_and_days() {
        let p = Period { from: d(2026, 1, 15), to: d(2026, 4, 10) };
        assert_eq!(
            p.pieces(),
            vec![
                Piece::Days(d(2026, 1, 15), d(2026, 1, 31)),
                Piece::Month(d(2026, 2, 1)),
                Piece::Month(d(2026, 3, 1)),
                Piece::Days(d(2026, 4, 1), d(2026, 4, 10)),
            ]
        );
        assert_eq!(Period { from: d(2026, 2, 1), to: d(2026, 2, 28) }.pieces(), vec![Piece::Month(d(2026, 2, 1))]);
        assert_eq!(week_start(d(2026, 11, 22)), d(2026, 11, 16));
    }

    #[test]
    fn sales_scopes_count_current_state_for_the_manager_now_and_sales_for_the_seller() {
        use crate::domain::catalogue::Hundredths;
        use crate::domain::subscription::{new_row, Grant};
        let at = chrono::NaiveDate::from_ymd_opt(2026, 3, 2).unwrap().and_hms_opt(9, 0, 0).unwrap();
        let mut row = new_row(1, "c", &Grant::custom("Gold", Hundredths(1000), 30), false, at, at);
        row.sold_by = Some("s1".into());
        let d = subscription_contribution(&row, Price(500), Some("s2"));
        let sold = &d.0[&(Scope::Sales("s1".into()), When::Day(d_(2026, 3, 2)))];
        assert_eq!((sold["subs.bought"], sold["revenue.subs"]), (1, 500));
        assert_eq!(d.0[&(Scope::Sales("s2".into()), When::Day(d_(2026, 4, 1)))]["subs.due"], 1);
        assert!(!d.0.contains_key(&(Scope::Sales("s1".into()), When::Day(d_(2026, 4, 1)))), "due for the manager now");
        // A move takes the customer's cases by status and active rows' due days.
        let now: BTreeMap<String, i64> = [("cases.status.draft".to_string(), 2), ("cases.status.complete".to_string(), 1)].into();
        let m = sales_move(&now, &[row.clone()], Some("s2"), Some("s3"));
        assert_eq!(m.0[&(Scope::Sales("s2".into()), When::Now)]["cases.status.draft"], -2);
        assert_eq!(m.0[&(Scope::Sales("s3".into()), When::Now)]["cases.status.complete"], 1);
        assert_eq!(m.0[&(Scope::Sales("s3".into()), When::Day(d_(2026, 4, 1)))]["subs.due"], 1);
        assert_eq!(m.0[&(Scope::Sales("s2".into()), When::Day(d_(2026, 4, 1)))]["subs.due"], -1);
        assert!(m.0.keys().all(|(s, _)| *s != Scope::Sales("s1".into())), "sales made stay");
        assert!(sales_move(&now, &[row], Some("s2"), Some("s2")).is_empty());
    }

    fn d_(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn deltas_diff_cancels_what_did_not_change() {
        let mut a = Deltas::default();
        a.add(Scope::All, When::Now, "x", 2);
        a.add(Scope::All, When::Now, "y", 1);
        let mut b = Deltas::default();
        b.add(Scope::All, When::Now, "x", 2);
        b.add(Scope::All, When::Now, "z", 5);
        let d = Deltas::diff(&a, &b);
        assert_eq!(d.0.len(), 1);
        let m = &d.0[&(Scope::All, When::Now)];
        assert_eq!(m.get("x"), None);
        assert_eq!(m["y"], -1);
        assert_eq!(m["z"], 5);
        assert!(is_flow("cases.closed.type.3"));
        assert!(is_flow("cases.closed@abc"));
        assert!(!is_flow("cases.opened"));
    }

    /// Every breakdown metric (`<metric>@<customer>`) one customer can have
    /// in a month: a case opened and closed, an hour entry, a subscription sold.
    fn breakdown_metrics_of_a_busy_month(customer: &str) -> BTreeSet<String> {
        use super::super::case::CaseType;
        use super::super::catalogue::Hundredths;
        use super::super::subscription::ServiceRef;
        let at = utc("2026-03-10T10:00:00Z");
        let draft = Case::draft(
            "c1".into(),
            "2026-000001".into(),
            customer.into(),
            "Acme".into(),
            CaseType { id: 1, name: "T".into(), name_en: None },
            "x".into(),
            at,
        );
        let open = Case { status: CaseStatus::Inprogress, lawyer: Some("law".into()), ..draft };
        let closed = Case { status: CaseStatus::Complete, ..open.clone() };
        let hour = CaseHour {
            id: "h1".into(),
            case_uid: "c1".into(),
            lawyer: "law".into(),
            lawyer_name: String::new(),
            hour: Hundredths(150),
            non_billable_hour: Hundredths(25),
            rattsskydd_hour: Hundredths(0),
            date: d(2026, 3, 10),
            time: String::new(),
            is_invoiced: false,
            service: None,
            description: String::new(),
            created_at: at,
        };
        let row = PurchasedService {
            id: 1,
            customer_uid: customer.into(),
            package_id: None,
            service: ServiceRef { id: 1, name: "Consultancy".into() },
            service_plan: None,
            packages: None,
            limit: None,
            consumed_limit: 0,
            hour: Hundredths(1000),
            consumed_hour: Hundredths(0),
            hour_less_than_consumed: false,
            advance: false,
            active: true,
            expired: false,
            start_date: at.naive_utc(),
            expire_on: at.naive_utc() + Duration::days(30),
            auto_update_date_end: None,
            child: None,
            updated_at: at.naive_utc(),
            created_at: at.naive_utc(),
            sold_by: None,
            price: None,
        };
        let mut all = case_contribution(&open, None);
        for d in [
            hour_contribution(&open, &hour, 150_000),
            status_flows(&open, &closed, at),
            subscription_contribution(&row, Price(1_000_000), None),
        ] {
            for (k, m) in d.0 {
                all.0.entry(k).or_default().extend(m);
            }
        }
        all.0.into_iter().filter(|((scope, _), _)| matches!(scope, Scope::Bucket(_))).flat_map(|(_, m)| m.into_keys()).collect()
    }

    #[test]
    fn a_bucket_month_item_holds_forty_thousand_active_customers_under_the_item_limit() {
        // DynamoDB sizes an item by its attribute names' bytes and, per number,
        // at most 21 bytes; the key attributes and their names add some 100.
        const NUMBER_MAX: usize = 21;
        let names = breakdown_metrics_of_a_busy_month("0f8fad5b-d9cb-469f-a165-70867728950e");
        assert_eq!(names.len(), 7, "every breakdown metric: {names:?}");
        let mut per_bucket = vec![0usize; CUSTOMER_BUCKETS as usize];
        for i in 0..40_000u64 {
            // Customer uids as accounts makes them (UUID v4 text).
            let n = fnv(&i.to_string()) as u128 | ((fnv(&format!("{i}-")) as u128) << 64);
            let uid = uuid::Builder::from_random_bytes(n.to_be_bytes()).into_uuid().to_string();
            let Scope::Bucket(b) = Scope::bucket_of(&uid) else { unreachable!() };
            let bytes: usize = names.iter().map(|m| m.replace("0f8fad5b-d9cb-469f-a165-70867728950e", &uid).len() + NUMBER_MAX).sum();
            per_bucket[b as usize] += bytes;
        }
        let largest = per_bucket.iter().max().copied().unwrap_or(0) + 100;
        assert!(largest < ITEM_LIMIT_BYTES, "the fullest bucket's month item: {largest} bytes");
        assert!(per_bucket.iter().all(|b| *b > 0), "every bucket has customers");
    }
}

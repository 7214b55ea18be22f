//! Where counters live and how they add up: scopes (global shards, a
//! customer, a lawyer, a sales person, customer buckets), days and gauges,
//! the deltas of an event, and which metrics are flows.

use std::collections::BTreeMap;

use chrono::NaiveDate;

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
    /// Split into the figures of days (what happened in a period) and
    /// those of now (gauges: how many are in a state at present).
    pub fn split_now(&self) -> (Deltas, Deltas) {
        let (mut days, mut now) = (Deltas::default(), Deltas::default());
        for ((scope, when), metrics) in &self.0 {
            let into = if *when == When::Now { &mut now } else { &mut days };
            into.0.insert((scope.clone(), *when), metrics.clone());
        }
        (days, now)
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

/// Sums metric maps (the shards of an item, or several items).
pub fn sum_into(into: &mut BTreeMap<String, i64>, from: &BTreeMap<String, i64>) {
    for (k, v) in from {
        *into.entry(k.clone()).or_insert(0) += v;
    }
}

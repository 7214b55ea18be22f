//! Dashboards and statistics (spec §1 statistics, §2, §7 `dashboard/`,
//! `chart/`, `pie-chart/hour/`, `statistic/…`), read from the
//! counters kept with every event ([`crate::store::stats`]): every call
//! reads a bounded number of items (the period's day and month items of its
//! scopes times their shards, a handful of lists of 10), never a Scan, never
//! all cases or hours. Every answer says how many items it read.
//!
//! Who sees what: admin everything; a lawyer only their own figures; a
//! sales person the global account figures and their own customers (as
//! account manager); a customer and its contacts only their company's.
//!
//! One file a family of pages: `account`, `customers`, `finance`,
//! `activity`, `legal`, `charts` (chart and hour pie), `dashboard`; here
//! the shape of an answer and the bounded reader they share.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{Duration, NaiveDate, Utc};
use serde::Serialize;
use serde_json::{json, Value};
use utoipa::ToSchema;

use super::Context;
use crate::domain::calendar::week_start;
use crate::domain::case::{CaseListPlan, CaseStatus, CaseView, ListOrder};
use crate::domain::catalogue::{NamedKind, CONSULTANCY};
use crate::domain::policy::holds;
use crate::domain::statistics::{self as stats, Period, PeriodError, PeriodKind, Scope};
use crate::domain::{Permission, User};
use crate::error::{ApiError, Msg};
use crate::store::cases::OpenedBy;
use crate::store::stats::{Ask, Counts};

/// Today in Stockholm.
pub fn today() -> NaiveDate {
    crate::domain::calendar::stockholm_date(Utc::now())
}

/// The period a request names (400 `invalid_period` when it makes no sense).
pub fn period(kind: Option<PeriodKind>, from: Option<NaiveDate>, to: Option<NaiveDate>, today: NaiveDate) -> Result<Period, ApiError> {
    Period::resolve(kind.unwrap_or_default(), from, to, today).map_err(|e| match e {
        PeriodError::Reversed | PeriodError::TooLong => ApiError::field("to", Msg::InvalidPeriod),
    })
}

pub use crate::domain::policy::{viewer, Viewer};

/// A contact without `view_all_cases` sees only the cases it created or follows, so
/// none of the company's figures (counted over every case): refused.
fn company_figures(u: &User) -> Result<(), ApiError> {
    if holds(u, Permission::ViewAllCases) {
        Ok(())
    } else {
        Err(ApiError::Forbidden)
    }
}

/// A statistics page: its period, chart series (long form), pie slices,
/// and the table beneath (what the CSV and Excel exports hold).
#[derive(Clone, Debug, Default, Serialize, ToSchema)]
pub struct Statistic {
    #[schema(value_type = Object)]
    pub period: Option<Period>,
    /// Series by day (else by month).
    pub by_day: bool,
    pub series: Vec<Point>,
    pub pie: Vec<Slice>,
    pub table: Table,
    /// Items this answer read from the table (bounded by the period).
    pub items_read: u64,
}

/// One value of a chart series: `label` is a day or month, `metric` the
/// counter's name (the web translates it).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Point {
    pub label: String,
    pub metric: String,
    pub value: i64,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Slice {
    pub key: String,
    /// A catalogue or person name when the key is an id.
    pub name: String,
    pub value: i64,
}

/// Columns are keys (translated by the web; the exports use them as headers).
#[derive(Clone, Debug, Default, PartialEq, Serialize, ToSchema)]
pub struct Table {
    pub columns: Vec<String>,
    #[schema(value_type = Vec<Vec<TableCell>>)]
    pub rows: Vec<Vec<Value>>,
}

/// The schema of one [`Table`] cell (the rows hold JSON values): a key or
/// label, or a figure.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
#[allow(dead_code)] // only its schema is used
pub enum TableCell {
    Text(String),
    Number(f64),
}

fn g(c: &Counts, k: &str) -> i64 {
    c.get(k).copied().unwrap_or(0)
}

fn sum(series: &BTreeMap<String, Counts>) -> Counts {
    let mut out = Counts::new();
    for c in series.values() {
        stats::sum_into(&mut out, c);
    }
    out
}

fn points(series: &BTreeMap<String, Counts>, metrics: &[&str]) -> Vec<Point> {
    let mut out = Vec::new();
    for (label, c) in series {
        for m in metrics {
            out.push(Point { label: label.clone(), metric: (*m).to_string(), value: g(c, m) });
        }
    }
    out
}

/// Every label of the period (so days without counters show as 0).
fn labels(p: &Period, by_day: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut d = p.from;
    while d <= p.to {
        out.push(if by_day { d.format("%Y-%m-%d").to_string() } else { d.format("%Y-%m").to_string() });
        d = if by_day { d + Duration::days(1) } else { crate::domain::calendar::last_of_month(d) + Duration::days(1) };
    }
    out
}

struct Reader<'a> {
    ctx: &'a Context,
    items: u64,
}

impl<'a> Reader<'a> {
    fn new(ctx: &'a Context) -> Self {
        Reader { ctx, items: 0 }
    }
    /// A scope's figures per label of the period (every label present).
    async fn series(&mut self, scope: &Scope, p: &Period, by_day: bool) -> Result<BTreeMap<String, Counts>, ApiError> {
        let r = self.ctx.store.stats_series(scope, p, by_day).await?;
        self.items += r.items;
        let mut out: BTreeMap<String, Counts> = labels(p, by_day).into_iter().map(|l| (l, Counts::new())).collect();
        for (l, c) in r.value {
            stats::sum_into(out.entry(l).or_default(), &c);
        }
        Ok(out)
    }
    async fn total(&mut self, scope: &Scope, p: &Period) -> Result<Counts, ApiError> {
        let r = self.ctx.store.stats_series(scope, p, false).await?;
        self.items += r.items;
        Ok(sum(&r.value))
    }
    async fn now(&mut self, scope: &Scope) -> Result<Counts, ApiError> {
        let r = self.ctx.store.stats_now(scope).await?;
        self.items += r.items;
        Ok(r.value)
    }
    /// The per-customer breakdown of the period: customer uid → metrics
    /// (every bucket, read together).
    async fn per_customer(&mut self, p: &Period) -> Result<BTreeMap<String, Counts>, ApiError> {
        let r = self.ctx.store.stats_series_sum(&Scope::buckets(), p, false).await?;
        self.items += r.items;
        let mut out: BTreeMap<String, Counts> = BTreeMap::new();
        for (k, v) in sum(&r.value) {
            if let Some((metric, uid)) = k.split_once('@') {
                *out.entry(uid.to_string()).or_default().entry(metric.to_string()).or_insert(0) += v;
            }
        }
        Ok(out)
    }
    /// A sales person's customers (from their member marks).
    async fn sales_customers(&mut self, sales: &str) -> Result<BTreeSet<String>, ApiError> {
        let c = self.now(&Scope::Sales(sales.to_string())).await?;
        Ok(c.iter().filter(|(_, v)| **v > 0).filter_map(|(k, _)| k.strip_prefix("customer.").map(String::from)).collect())
    }
    /// Several figures at once (see [`crate::store::Store::stats_many`]).
    async fn many(&mut self, asks: &[Ask<'_>], only: Option<&[&str]>) -> Result<Vec<Counts>, ApiError> {
        let r = self.ctx.store.stats_many(asks, only).await?;
        self.items += r.items;
        Ok(r.value)
    }
    /// Customers' names by uid: one BatchGetItem per 100 (each uid asked is
    /// an item read, found or not, as each GetItem was).
    async fn customer_names(&mut self, uids: &[String]) -> Result<BTreeMap<String, String>, ApiError> {
        self.items += uids.len() as u64;
        let found = self.ctx.store.get_customer_profiles(uids).await?;
        Ok(found
            .into_iter()
            .map(|(uid, p)| {
                let name = p.company_name.clone().filter(|n| !n.is_empty()).unwrap_or_else(|| format!("{} {}", p.first_name, p.last_name));
                (uid, name)
            })
            .collect())
    }
    /// Users' names by uid: one BatchGetItem per 100.
    async fn user_names(&mut self, uids: &[String]) -> Result<BTreeMap<String, String>, ApiError> {
        self.items += uids.len() as u64;
        Ok(self.ctx.store.get_users(uids).await?.into_iter().map(|(uid, u)| (uid, u.full_name())).collect())
    }
    /// A named list's names (id → name) in the reader's language.
    async fn named(&mut self, kind: NamedKind, lang: &str) -> Result<BTreeMap<String, String>, ApiError> {
        let list = self.ctx.store.list_named(kind).await?;
        self.items += list.len() as u64;
        Ok(list.into_iter().map(|e| (e.id.to_string(), e.name_in(lang).to_string())).collect())
    }
}

/// The days whose `subs.due` counters say how many active subscriptions
/// end within `days` days (today included): a bounded read however many
/// subscriptions there are.
fn next_days(today: NaiveDate, days: i64) -> Period {
    Period { from: today, to: today + Duration::days(days) }
}

/// The figures of a [`crate::store::Store::stats_many`] read, one per ask.
fn figures<const N: usize>(read: Vec<Counts>) -> Result<[Counts; N], ApiError> {
    read.try_into().map_err(|v: Vec<Counts>| ApiError::internal(format!("{} figures read, {N} asked", v.len())))
}

fn forbidden<T>() -> Result<T, ApiError> {
    Err(ApiError::Forbidden)
}

/// Which metrics a row of a per-period table shows.
fn period_table(series: &BTreeMap<String, Counts>, columns: &[&str]) -> Table {
    let mut t = Table { columns: std::iter::once("period").chain(columns.iter().copied()).map(String::from).collect(), rows: vec![] };
    for (label, c) in series {
        let mut row = vec![json!(label)];
        row.extend(columns.iter().map(|m| json!(g(c, m))));
        t.rows.push(row);
    }
    t
}

mod account;
mod activity;
mod charts;
mod customers;
mod dashboard;
mod finance;
mod legal;

pub use account::account;
pub use activity::{activity, activity_cases, ActivityCases};
pub use charts::{chart, hour_pie};
pub use customers::customers;
pub use dashboard::*;
pub use finance::finance;
pub use legal::legal;

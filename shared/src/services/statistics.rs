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

// ------------------------------------------------------------ pages ------

/// `statistic/account/` (admin, sales person): new, approved, activated and
/// deactivated customers per period; customers by state now, by business
/// sector and size band.
pub async fn account(ctx: &Context, u: &User, p: Period) -> Result<Statistic, ApiError> {
    if !matches!(viewer(u)?, Viewer::Admin | Viewer::Sales(_)) {
        return forbidden();
    }
    let mut r = Reader::new(ctx);
    let by_day = p.by_day();
    let series = r.series(&Scope::All, &p, by_day).await?;
    let now = r.now(&Scope::All).await?;
    let total = sum(&series);
    let metrics = ["customers.new", "customers.approved", "customers.activated", "customers.deactivated"];
    let pie = ["active", "pending", "inactive"]
        .iter()
        .map(|s| Slice { key: format!("customers.state.{s}"), name: String::new(), value: g(&now, &format!("customers.state.{s}")) })
        .collect();
    let sectors: BTreeMap<String, String> = {
        let list = ctx.store.list_business_sectors().await?;
        r.items += list.len() as u64;
        list.into_iter().map(|s| (s.id.clone(), s.name.clone())).collect()
    };
    let mut table = Table {
        columns: ["dimension", "name", "customers.new", "customers.state.active", "customers.state.pending", "customers.state.inactive"]
            .map(String::from)
            .to_vec(),
        rows: vec![],
    };
    for dim in ["sector", "size"] {
        let mut keys: BTreeSet<String> = BTreeSet::new();
        for k in now.keys().chain(total.keys()) {
            if let Some(rest) = k.strip_prefix("customers.") {
                if let Some(i) = rest.find(&format!(".{dim}.")) {
                    keys.insert(rest[i + dim.len() + 2..].to_string());
                }
            }
        }
        for key in keys {
            let name = if dim == "sector" { sectors.get(&key).cloned().unwrap_or_else(|| key.clone()) } else { key.clone() };
            table.rows.push(vec![
                json!(dim),
                json!(name),
                json!(g(&total, &format!("customers.new.{dim}.{key}"))),
                json!(g(&now, &format!("customers.state.active.{dim}.{key}"))),
                json!(g(&now, &format!("customers.state.pending.{dim}.{key}"))),
                json!(g(&now, &format!("customers.state.inactive.{dim}.{key}"))),
            ]);
        }
    }
    Ok(Statistic { period: Some(p), by_day, series: points(&series, &metrics), pie, table, items_read: r.items })
}

/// `statistic/user/` (customer statistics: admin, lawyer, sales person):
/// per customer cases, hours, subscriptions and revenue in the period.
/// A lawyer sees their own hours per customer; a sales person their own
/// customers.
pub async fn customers(ctx: &Context, u: &User, p: Period) -> Result<Statistic, ApiError> {
    let who = viewer(u)?;
    let mut r = Reader::new(ctx);
    let by_day = p.by_day();
    let mut rows: BTreeMap<String, Counts> = match &who {
        Viewer::Admin => r.per_customer(&p).await?,
        Viewer::Sales(s) => {
            let mine = r.sales_customers(s).await?;
            r.per_customer(&p).await?.into_iter().filter(|(uid, _)| mine.contains(uid)).collect()
        }
        Viewer::Lawyer(l) => {
            let c = r.total(&Scope::Lawyer(l.clone()), &p).await?;
            let mut out: BTreeMap<String, Counts> = BTreeMap::new();
            for (k, v) in c {
                for m in ["hours.total", "hours.billable", "revenue.hours"] {
                    if let Some(uid) = k.strip_prefix(&format!("{m}.customer.")) {
                        out.entry(uid.to_string()).or_default().insert(m.to_string(), v);
                    }
                }
            }
            out
        }
        Viewer::Company(_) => return forbidden(),
    };
    for c in rows.values_mut() {
        let total = g(c, "revenue.hours") + g(c, "revenue.subs");
        c.insert("revenue.total".into(), total);
    }
    // The 200 customers with the most revenue (then hours) are listed.
    let mut order: Vec<(String, Counts)> = rows.into_iter().collect();
    order.sort_by_key(|(uid, c)| (-g(c, "revenue.total"), -g(c, "hours.total"), uid.clone()));
    order.truncate(200);
    let uids: Vec<String> = order.iter().map(|(u, _)| u.clone()).collect();
    let names = r.customer_names(&uids).await?;
    let columns: Vec<&str> = if matches!(who, Viewer::Lawyer(_)) {
        vec!["hours.total", "hours.billable", "revenue.hours"]
    } else {
        vec![
            "cases.opened",
            "cases.closed",
            "hours.total",
            "hours.billable",
            "subs.bought",
            "revenue.hours",
            "revenue.subs",
            "revenue.total",
        ]
    };
    let mut table = Table { columns: ["customer"].iter().chain(columns.iter()).map(|c| c.to_string()).collect(), rows: vec![] };
    let mut pie = Vec::new();
    for (uid, c) in &order {
        let name = names.get(uid).cloned().unwrap_or_else(|| uid.clone());
        let mut row = vec![json!(name.clone())];
        row.extend(columns.iter().map(|m| json!(g(c, m))));
        table.rows.push(row);
        if pie.len() < 10 {
            let key = if matches!(who, Viewer::Lawyer(_)) { "hours.total" } else { "revenue.total" };
            pie.push(Slice { key: uid.clone(), name, value: g(c, key) });
        }
    }
    Ok(Statistic { period: Some(p), by_day, series: vec![], pie, table, items_read: r.items })
}

/// `statistic/finance/` (admin): revenue per period (hours × the customer's
/// rate, packages and plans sold), by service, plan and package; invoiced
/// and not invoiced billable hours; the average rate.
pub async fn finance(ctx: &Context, u: &User, p: Period) -> Result<Statistic, ApiError> {
    if viewer(u)? != Viewer::Admin {
        return forbidden();
    }
    let mut r = Reader::new(ctx);
    let by_day = p.by_day();
    let mut series = r.series(&Scope::All, &p, by_day).await?;
    for c in series.values_mut() {
        let total = g(c, "revenue.hours") + g(c, "revenue.subs");
        c.insert("revenue.total".into(), total);
        let not = g(c, "hours.billable") - g(c, "hours.invoiced");
        c.insert("hours.not_invoiced".into(), not);
        let b = g(c, "hours.billable");
        c.insert("rate.average".into(), if b > 0 { g(c, "revenue.hours") * 100 / b } else { 0 });
    }
    let total = sum(&series);
    let packages: BTreeMap<String, String> = {
        let l = ctx.store.list_packages().await?;
        r.items += l.len() as u64;
        l.into_iter().map(|x| (x.id.to_string(), x.name)).collect()
    };
    let plans: BTreeMap<String, String> = {
        let l = ctx.store.list_service_plans().await?;
        r.items += l.len() as u64;
        l.into_iter().map(|x| (x.id.to_string(), x.name)).collect()
    };
    let mut pie = vec![Slice { key: "revenue.hours".into(), name: String::new(), value: g(&total, "revenue.hours") }];
    for (k, v) in &total {
        let named = |prefix: &str, names: &BTreeMap<String, String>| {
            k.strip_prefix(prefix).map(|id| names.get(id).cloned().unwrap_or_else(|| id.to_string()))
        };
        if let Some(name) = named("revenue.package.", &packages) {
            pie.push(Slice { key: k.clone(), name, value: *v });
        } else if let Some(name) = named("revenue.plan.", &plans) {
            pie.push(Slice { key: k.clone(), name, value: *v });
        }
    }
    let metrics =
        ["revenue.hours", "revenue.subs", "revenue.total", "hours.billable", "hours.invoiced", "hours.not_invoiced", "rate.average"];
    let table = period_table(&series, &metrics);
    Ok(Statistic {
        period: Some(p),
        by_day,
        series: points(&series, &["revenue.hours", "revenue.subs", "hours.billable", "hours.not_invoiced"]),
        pie,
        table,
        items_read: r.items,
    })
}

/// `statistic/activity/` (admin; a customer and its contacts for their
/// company): cases opened, accepted and closed, hours per period.
pub async fn activity(ctx: &Context, u: &User, p: Period) -> Result<Statistic, ApiError> {
    company_figures(u)?;
    let scope = match viewer(u)? {
        Viewer::Admin => Scope::All,
        Viewer::Company(c) => Scope::Customer(c),
        _ => return forbidden(),
    };
    let mut r = Reader::new(ctx);
    let by_day = p.by_day();
    let series = r.series(&scope, &p, by_day).await?;
    let now = r.now(&scope).await?;
    let pie = ["draft", "waiting", "inprogress", "complete"]
        .iter()
        .map(|s| Slice { key: format!("cases.status.{s}"), name: String::new(), value: g(&now, &format!("cases.status.{s}")) })
        .collect();
    let metrics = ["cases.opened", "cases.accepted", "cases.closed", "hours.total"];
    Ok(Statistic {
        period: Some(p),
        by_day,
        series: points(&series, &["cases.opened", "cases.closed"]),
        pie,
        table: period_table(&series, &metrics),
        items_read: r.items,
    })
}

/// `statistic/legal/` (admin; a lawyer their own): cases by case type and
/// knowledge sector (one row per pair; see
/// [`crate::domain::case::KnowledgeSector`] for how a case has a sector),
/// average time to accept and to close, hours per pair; the pie: hours per
/// case type. Figures counted before cases had sectors (only by type) show
/// under the type with no sector. Case types and sectors are named in
/// `lang`, the reader's language.
pub async fn legal(ctx: &Context, u: &User, p: Period, lang: &str) -> Result<Statistic, ApiError> {
    let scope = match viewer(u)? {
        Viewer::Admin => Scope::All,
        Viewer::Lawyer(l) => Scope::Lawyer(l),
        _ => return forbidden(),
    };
    let mut r = Reader::new(ctx);
    let by_day = p.by_day();
    let mut series = r.series(&scope, &p, by_day).await?;
    if matches!(scope, Scope::Lawyer(_)) {
        // A lawyer's opened cases are the ones they took on (accepted, or
        // published straight to them): a case is opened for a lawyer when
        // it becomes theirs, not when the customer wrote it.
        for c in series.values_mut() {
            lawyer_opened(c);
        }
    }
    let total = sum(&series);
    let types = r.named(NamedKind::CaseType, lang).await?;
    let sectors = r.named(NamedKind::KnowledgeSector, lang).await?;
    let measures = ["cases.opened", "cases.accepted", "cases.accept_secs", "cases.closed", "cases.close_secs", "hours.total"];
    // (type, sector) → measure → amount.
    let mut pairs: BTreeMap<(String, String), Counts> = BTreeMap::new();
    let mut type_ids: BTreeSet<String> = BTreeSet::new();
    for (k, v) in &total {
        // Only the case measures: the global scope also holds customers'
        // `customers.new.type.<company|individual>`.
        if let Some(id) = measures.iter().find_map(|m| k.strip_prefix(m).and_then(|x| x.strip_prefix(".type."))) {
            type_ids.insert(id.to_string());
        }
        for m in measures {
            let Some(rest) = k.strip_prefix(m).and_then(|x| x.strip_prefix(".pair.")) else { continue };
            if let Some((ty, sector)) = rest.split_once('.') {
                *pairs.entry((ty.to_string(), sector.to_string())).or_default().entry(m.to_string()).or_insert(0) += v;
            }
        }
    }
    for ty in &type_ids {
        for m in measures {
            let paired: i64 = pairs.iter().filter(|((t, _), _)| t == ty).map(|(_, c)| g(c, m)).sum();
            let rest = g(&total, &format!("{m}.type.{ty}")) - paired;
            if rest != 0 {
                *pairs.entry((ty.clone(), "none".into())).or_default().entry(m.to_string()).or_insert(0) += rest;
            }
        }
    }
    let columns = [
        "case_type",
        "knowledge_sector",
        "cases.opened",
        "cases.accepted",
        "avg_accept_hours",
        "cases.closed",
        "avg_close_days",
        "hours.total",
    ];
    let mut table = Table { columns: columns.map(String::from).to_vec(), rows: vec![] };
    for ((ty, sector), c) in &pairs {
        let (accepted, closed) = (g(c, "cases.accepted"), g(c, "cases.closed"));
        let avg_accept = if accepted > 0 { g(c, "cases.accept_secs") as f64 / accepted as f64 / 3600.0 } else { 0.0 };
        let avg_close = if closed > 0 { g(c, "cases.close_secs") as f64 / closed as f64 / 86400.0 } else { 0.0 };
        // No sector: an empty cell the page names in its language.
        let sector_name = if sector == "none" { String::new() } else { sectors.get(sector).cloned().unwrap_or_else(|| sector.clone()) };
        table.rows.push(vec![
            json!(types.get(ty).cloned().unwrap_or_else(|| ty.clone())),
            json!(sector_name),
            json!(g(c, "cases.opened")),
            json!(accepted),
            json!((avg_accept * 10.0).round() / 10.0),
            json!(closed),
            json!((avg_close * 10.0).round() / 10.0),
            json!(g(c, "hours.total")),
        ]);
    }
    let pie = type_ids
        .iter()
        .map(|id| Slice {
            key: format!("type.{id}"),
            name: types.get(id).cloned().unwrap_or_else(|| id.clone()),
            value: g(&total, &format!("hours.total.type.{id}")),
        })
        .collect();
    Ok(Statistic {
        period: Some(p),
        by_day,
        series: points(&series, &["cases.opened", "cases.accepted", "cases.closed"]),
        pie,
        table,
        items_read: r.items,
    })
}

/// A lawyer's `cases.opened` figures (with their dimensions) are their
/// `cases.accepted` ones.
fn lawyer_opened(c: &mut Counts) {
    let accepted: Vec<(String, i64)> =
        c.iter().filter_map(|(k, v)| k.strip_prefix("cases.accepted").map(|rest| (format!("cases.opened{rest}"), *v))).collect();
    c.retain(|k, _| !k.starts_with("cases.opened"));
    c.extend(accepted);
}

/// `chart/`: the caller's main series (admin: revenue and hours; a lawyer
/// their hours; a sales person their customers' purchases; a customer its
/// hours).
pub async fn chart(ctx: &Context, u: &User, p: Period) -> Result<Statistic, ApiError> {
    company_figures(u)?;
    let mut r = Reader::new(ctx);
    let by_day = p.by_day();
    let (series, metrics): (BTreeMap<String, Counts>, Vec<&str>) = match viewer(u)? {
        Viewer::Admin => (r.series(&Scope::All, &p, by_day).await?, vec!["revenue.hours", "revenue.subs", "hours.total"]),
        Viewer::Lawyer(l) => {
            (r.series(&Scope::Lawyer(l), &p, by_day).await?, vec!["hours.billable", "hours.nonbillable", "hours.rattsskydd"])
        }
        Viewer::Company(c) => (r.series(&Scope::Customer(c), &p, by_day).await?, vec!["hours.total", "cases.opened"]),
        Viewer::Sales(s) => {
            let mine = r.sales_customers(&s).await?;
            let mut out: BTreeMap<String, Counts> = labels(&p, by_day).into_iter().map(|l| (l, Counts::new())).collect();
            let read = r.ctx.store.stats_series_sum(&Scope::buckets(), &p, by_day).await?;
            r.items += read.items;
            for (label, c) in read.value {
                for (k, v) in c {
                    if let Some((metric, uid)) = k.split_once('@') {
                        if mine.contains(uid) {
                            *out.entry(label.clone()).or_default().entry(metric.to_string()).or_insert(0) += v;
                        }
                    }
                }
            }
            (out, vec!["subs.bought", "revenue.subs"])
        }
    };
    let table = period_table(&series, &metrics);
    Ok(Statistic { period: Some(p), by_day, series: points(&series, &metrics), pie: vec![], table, items_read: r.items })
}

/// `pie-chart/hour/`: billable, non-billable and rättsskydd hours of the
/// period in the caller's scope (a sales person: not offered).
pub async fn hour_pie(ctx: &Context, u: &User, p: Period) -> Result<Statistic, ApiError> {
    company_figures(u)?;
    let scope = match viewer(u)? {
        Viewer::Admin => Scope::All,
        Viewer::Lawyer(l) => Scope::Lawyer(l),
        Viewer::Company(c) => Scope::Customer(c),
        Viewer::Sales(_) => return forbidden(),
    };
    let mut r = Reader::new(ctx);
    let total = r.total(&scope, &p).await?;
    let keys = ["hours.billable", "hours.nonbillable", "hours.rattsskydd"];
    let pie: Vec<Slice> = keys.iter().map(|k| Slice { key: k.to_string(), name: String::new(), value: g(&total, k) }).collect();
    let table =
        Table { columns: vec!["kind".into(), "hours".into()], rows: pie.iter().map(|s| vec![json!(s.key), json!(s.value)]).collect() };
    Ok(Statistic { period: Some(p), by_day: false, series: vec![], pie, table, items_read: r.items })
}

// -------------------------------------------------------- activity cases --

/// A page of the cases opened in the period (admin: all; a customer and its
/// contacts: their company's), newest first, 10 a page.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ActivityCases {
    pub results: Vec<CaseView>,
    pub next: Option<String>,
    pub items_read: u64,
}

pub async fn activity_cases(ctx: &Context, u: &User, p: Period, cursor: Option<&str>, limit: usize) -> Result<ActivityCases, ApiError> {
    let customer = match viewer(u)? {
        Viewer::Admin => None,
        Viewer::Company(c) => Some(c),
        _ => return forbidden(),
    };
    let (from, to) = p.instants();
    // A contact without view_all_cases: the cases it opened or follows (its pointers).
    let opened = match customer {
        None => OpenedBy::All,
        Some(_) if !holds(u, Permission::ViewAllCases) => OpenedBy::Creator(&u.uid),
        Some(ref c) => OpenedBy::Customer(c),
    };
    let page = ctx.store.cases_opened_between(opened, from, to, cursor, limit).await?;
    let items = page.results.len() as u64 + 1;
    Ok(ActivityCases { results: CaseView::all_for(u, page.results), next: page.next, items_read: items })
}

// ------------------------------------------------------------ dashboards --

#[derive(Clone, Debug, Default, Serialize, ToSchema)]
pub struct HoursSplit {
    pub billable: i64,
    pub nonbillable: i64,
    pub rattsskydd: i64,
    pub total: i64,
}

impl HoursSplit {
    /// The metrics [`Self::of`] reads.
    const METRICS: [&str; 4] = ["hours.billable", "hours.nonbillable", "hours.rattsskydd", "hours.total"];
    fn of(c: &Counts) -> Self {
        let [billable, nonbillable, rattsskydd, total] = Self::METRICS.map(|m| g(c, m));
        HoursSplit { billable, nonbillable, rattsskydd, total }
    }
}

#[derive(Clone, Debug, Default, Serialize, ToSchema)]
pub struct StatusCounts {
    pub draft: i64,
    pub waiting: i64,
    pub inprogress: i64,
    pub complete: i64,
}

impl StatusCounts {
    /// The metrics [`Self::of`] reads.
    const METRICS: [&str; 4] = ["cases.status.draft", "cases.status.waiting", "cases.status.inprogress", "cases.status.complete"];
    fn of(c: &Counts) -> Self {
        let [draft, waiting, inprogress, complete] = Self::METRICS.map(|m| g(c, m));
        StatusCounts { draft, waiting, inprogress, complete }
    }
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Ranked {
    pub uid: String,
    pub name: String,
    pub value: i64,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Deadline {
    pub uid: String,
    pub case_number: String,
    pub subject: String,
    #[schema(value_type = String)]
    pub deadline: NaiveDate,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SubscriptionGauge {
    pub id: u64,
    pub name: String,
    /// Hundredths of hours (the hour-based service), else uses.
    pub limit: i64,
    pub used: i64,
    pub hour_based: bool,
    pub expire_on: String,
    pub expiring: bool,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RecentCase {
    pub uid: String,
    pub case_number: String,
    pub subject: String,
    pub status: CaseStatus,
    #[schema(value_type = String)]
    pub updated_at: chrono::DateTime<Utc>,
}

/// `dashboard/`: what the caller's role should see first.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Dashboard {
    Admin {
        pending_cases: i64,
        pending_customers: u64,
        cases: StatusCounts,
        hours_week: HoursSplit,
        hours_month: HoursSplit,
        active_subscriptions: i64,
        expiring_subscriptions: u64,
        /// öre
        revenue_month_hours: i64,
        revenue_month_subscriptions: i64,
        revenue_month: i64,
        top_lawyers: Vec<Ranked>,
        items_read: u64,
    },
    Lawyer {
        active_cases: i64,
        available_cases: i64,
        hours_week: HoursSplit,
        hours_month: HoursSplit,
        deadlines: Vec<Deadline>,
        rating_average: Option<f64>,
        rating_count: u64,
        items_read: u64,
    },
    Sales {
        /// Customers this sales person manages (as account manager) now.
        customers: i64,
        /// Draft cases of those customers.
        draft_cases: i64,
        /// Their active subscriptions ending within 30 days.
        expiring_subscriptions: u64,
        /// Subscriptions sold this month to customers while this sales
        /// person managed them (a sale stays with whoever managed the
        /// customer then).
        packages_sold_month: i64,
        /// öre
        revenue_month_subscriptions: i64,
        items_read: u64,
    },
    Customer {
        open_cases: i64,
        cases: StatusCounts,
        subscriptions: Vec<SubscriptionGauge>,
        recent: Vec<RecentCase>,
        expiring: Vec<SubscriptionGauge>,
        items_read: u64,
    },
}

fn month_of(today: NaiveDate) -> Period {
    Period { from: crate::domain::calendar::first_of_month(today), to: crate::domain::calendar::last_of_month(today) }
}

fn week_of(today: NaiveDate) -> Period {
    Period { from: week_start(today), to: week_start(today) + Duration::days(6) }
}

pub async fn dashboard(ctx: &Context, u: &User) -> Result<Dashboard, ApiError> {
    let today = today();
    let (month, week) = (month_of(today), week_of(today));
    let mut r = Reader::new(ctx);
    match viewer(u)? {
        Viewer::Admin => {
            // Every counter item of the page read at once (each item once:
            // the week and the next 31 days share days), beside the count
            // of customers awaiting approval. The month items are read
            // whole (their `hours.total.lawyer.<uid>` rank the lawyers),
            // the others only for the metrics shown.
            let due = next_days(today, 30);
            let shown: Vec<&str> =
                StatusCounts::METRICS.iter().chain(&HoursSplit::METRICS).chain(&["subs.active", "subs.due"]).copied().collect();
            let asks = [Ask::Now(&Scope::All), Ask::Total(&Scope::All, &week), Ask::Total(&Scope::All, &due)];
            let month_ask = [Ask::Total(&Scope::All, &month)];
            let (read, month_read, pending_customers) = tokio::try_join!(
                ctx.store.stats_many(&asks, Some(&shown)),
                ctx.store.stats_many(&month_ask, None),
                ctx.store.count_customers_awaiting_approval()
            )?;
            r.items += read.items + month_read.items + 1;
            let [now, w, due] = figures(read.value)?;
            let [m] = figures(month_read.value)?;
            let expiring = g(&due, "subs.due").max(0) as u64;
            let mut lawyers: Vec<(String, i64)> =
                m.iter().filter_map(|(k, v)| k.strip_prefix("hours.total.lawyer.").map(|uid| (uid.to_string(), *v))).collect();
            lawyers.sort_by_key(|(uid, v)| (-*v, uid.clone()));
            lawyers.truncate(5);
            let names = r.user_names(&lawyers.iter().map(|(u, _)| u.clone()).collect::<Vec<_>>()).await?;
            let top_lawyers = lawyers
                .into_iter()
                .map(|(uid, value)| Ranked { name: names.get(&uid).cloned().unwrap_or_else(|| uid.clone()), uid, value })
                .collect();
            Ok(Dashboard::Admin {
                pending_cases: g(&now, "cases.status.draft"),
                pending_customers,
                cases: StatusCounts::of(&now),
                hours_week: HoursSplit::of(&w),
                hours_month: HoursSplit::of(&m),
                active_subscriptions: g(&now, "subs.active"),
                expiring_subscriptions: expiring,
                revenue_month_hours: g(&m, "revenue.hours"),
                revenue_month_subscriptions: g(&m, "revenue.subs"),
                revenue_month: g(&m, "revenue.hours") + g(&m, "revenue.subs"),
                top_lawyers,
                items_read: r.items,
            })
        }
        Viewer::Lawyer(l) => {
            let scope = Scope::Lawyer(l.clone());
            let asks = [Ask::Now(&scope), Ask::Now(&Scope::All), Ask::Total(&scope, &month), Ask::Total(&scope, &week)];
            let plan = CaseListPlan::Lawyer(l.clone(), vec![CaseStatus::Inprogress]);
            let shown: Vec<&str> =
                HoursSplit::METRICS.iter().chain(&["cases.status.inprogress", "cases.status.waiting"]).copied().collect();
            let (read, page, staff) = tokio::try_join!(
                ctx.store.stats_many(&asks, Some(&shown)),
                ctx.store.list_cases(&plan, None, ListOrder::Desc, None),
                ctx.store.get_staff(&l)
            )?;
            r.items += read.items + page.results.len() as u64 + 1;
            let [own, all, m, w] = figures(read.value)?;
            let mut deadlines: Vec<Deadline> = page
                .results
                .iter()
                .filter_map(|c| {
                    c.deadline.filter(|d| *d >= today).map(|d| Deadline {
                        uid: c.uid.clone(),
                        case_number: c.case_number.clone(),
                        subject: c.subject.clone(),
                        deadline: d,
                    })
                })
                .collect();
            deadlines.sort_by_key(|d| d.deadline);
            let (rating_average, rating_count) = staff.map(|s| (s.rating_average, s.rating_count)).unwrap_or((None, 0));
            Ok(Dashboard::Lawyer {
                active_cases: g(&own, "cases.status.inprogress"),
                available_cases: g(&all, "cases.status.waiting"),
                hours_week: HoursSplit::of(&w),
                hours_month: HoursSplit::of(&m),
                deadlines,
                rating_average,
                rating_count,
                items_read: r.items,
            })
        }
        Viewer::Sales(s) => {
            // The sales scope holds the figures of the customers the sales
            // person manages now (cases by status, active rows due per
            // day) and of the sales made while managing them: a fixed
            // number of items however many customers and the firm have.
            let scope = Scope::Sales(s);
            let due = next_days(today, 30);
            let shown = ["customers", "cases.status.draft", "subs.bought", "revenue.subs", "subs.due"];
            let asks = [Ask::Now(&scope), Ask::Total(&scope, &month), Ask::Total(&scope, &due)];
            let [now, m, due] = figures(r.many(&asks, Some(&shown)).await?)?;
            let expiring = g(&due, "subs.due").max(0) as u64;
            Ok(Dashboard::Sales {
                customers: g(&now, "customers"),
                draft_cases: g(&now, "cases.status.draft"),
                expiring_subscriptions: expiring,
                packages_sold_month: g(&m, "subs.bought"),
                revenue_month_subscriptions: g(&m, "revenue.subs"),
                items_read: r.items,
            })
        }
        Viewer::Company(c) => {
            let scope = Scope::Customer(c.clone());
            let all_cases = holds(u, Permission::ViewAllCases);
            let plan = crate::domain::policy::customer_side_plan(u, c.clone(), vec![]);
            // The company's counters, or for a contact without
            // view_all_cases the statuses of the cases it opened or follows.
            let counts = async {
                if all_cases {
                    ctx.store.stats_now(&scope).await
                } else {
                    ctx.store.created_status_counts(&u.uid).await
                }
            };
            let (now, rows, page) =
                tokio::try_join!(counts, ctx.store.list_purchases(&c), ctx.store.list_cases(&plan, None, ListOrder::Desc, None))?;
            r.items += now.items + rows.len() as u64 + page.results.len() as u64;
            let now = now.value;
            // Without view_time_bank no hours left nor any hour row.
            let time_bank = holds(u, Permission::ViewTimeBank);
            let rows: Vec<_> = rows.into_iter().filter(|row| time_bank || row.service.id != CONSULTANCY).collect();
            let soon = Utc::now().naive_utc() + Duration::days(30);
            let gauges: Vec<SubscriptionGauge> = rows
                .iter()
                .filter(|row| row.active && !row.expired)
                .map(|row| {
                    let hour_based = row.service.id == CONSULTANCY;
                    SubscriptionGauge {
                        id: row.id,
                        name: row
                            .service_plan
                            .as_ref()
                            .or(row.packages.as_ref())
                            .map(|n| n.name.clone())
                            .unwrap_or_else(|| row.service.name.clone()),
                        limit: if hour_based { row.hour.0 } else { row.limit.unwrap_or(0) as i64 },
                        used: if hour_based { row.consumed_hour.0 } else { row.consumed_limit as i64 },
                        hour_based,
                        expire_on: row.expire_on.format("%Y-%m-%d").to_string(),
                        expiring: row.expire_on <= soon,
                    }
                })
                .collect();
            let expiring = gauges.iter().filter(|g| g.expiring).cloned().collect();
            // "Hours left per subscription": the hour-based rows only (the
            // other services' uses are not hours; they are in `expiring`).
            let gauges: Vec<SubscriptionGauge> = gauges.into_iter().filter(|g| g.hour_based).collect();
            let mut recent: Vec<RecentCase> = page
                .results
                .into_iter()
                .map(|x| RecentCase {
                    uid: x.uid,
                    case_number: x.case_number,
                    subject: x.subject,
                    status: x.status,
                    updated_at: x.updated_at,
                })
                .collect();
            recent.sort_by_key(|x| std::cmp::Reverse(x.updated_at));
            recent.truncate(5);
            let cases = StatusCounts::of(&now);
            Ok(Dashboard::Customer {
                // As the cases list's "Active" tab: published and not closed
                // (drafts wait under their own tab).
                open_cases: cases.waiting + cases.inprogress,
                cases,
                subscriptions: gauges,
                recent,
                expiring,
                items_read: r.items,
            })
        }
    }
}

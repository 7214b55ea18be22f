//! What each thing contributes to the counters in its current state, and
//! the flows of its changes (accepted, closed, activated, deactivated).

use std::collections::BTreeMap;

use chrono::{DateTime, TimeZone, Utc};

use super::*;
use crate::domain::calendar::stockholm_date;
use crate::domain::case::{Case, CaseHour, CaseStatus};
use crate::domain::customer::{CustomerProfile, CustomerState, CustomerType};
use crate::domain::subscription::PurchasedService;

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
/// (see [`crate::domain::case::KnowledgeSector`] for how a case has one).
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

//! Benchmark (not a test): loads cases and hour entries
//! (and the subscription rows of one sales person's customers)
//! into the stand-in through the store (BatchWriteItem, 25 a call, with the
//! counters they imply, computed by the same contribution functions the
//! events use), then prints for each dashboard and statistics call the
//! items read and the time, for each size given, side by side. Exits
//! non-zero when a call reads a different number of items at some size
//! (the items a call reads must not grow with the data).
//!
//! Arguments: sizes as `<cases>:<hours>` (default `100:1000 100000:1000000`).
//! Each size gets its own table `<TABLE_NAME>-<cases>`, with the same
//! accounts: made (and their password hashed) once, stored in each table.
//! Run through `infra/bench-statistics.sh`.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use chrono::{Datelike, Duration, Utc};
use shared::config::Config;
use shared::domain::calendar;
use shared::domain::case::{Case, CaseHour, CaseStatus, CaseType};
use shared::domain::catalogue::Hundredths;
use shared::domain::statistics::{self as stats, Period, PeriodKind, Scope};
use shared::domain::{Role, User};
use shared::services::accounts::{new_user, store_account, NewAccount};
use shared::services::{statistics as st, Context};
use shared::store::stats::{counter_writes, CounterWrite};
use shared::store::Store;

const LAWYERS: usize = 20;
/// Customers: one in each bucket of the per-customer breakdown (so every
/// bucket item exists at every size), and fewer than the smallest size's
/// cases, so that every customer has a case (and a figure this month) at
/// every size.
const CUSTOMERS: usize = stats::CUSTOMER_BUCKETS as usize;
/// Every this many customers one is managed by the benchmark's sales
/// person (the others have no account manager).
const SALES_EVERY: usize = 5;
const TYPES: u64 = 5;
/// Knowledge sectors the cases are filed under (plus "none").
const SECTORS: u64 = 4;
/// Lists the calls read a page of (cases of a lawyer, of a customer).
const PAGE: usize = shared::store::cases::PAGE_SIZE;

fn rnd(state: &mut u64) -> u64 {
    // xorshift: a fixed sequence, so every run loads the same data.
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// A new account (not stored): its password hashed once for every size.
async fn user(ctx: &Context, role: Role, n: usize, customer: Option<String>) -> User {
    let email = format!("bench-{}-{n}-{}@example.com", role.as_str(), uuid::Uuid::new_v4().simple());
    new_user(
        &ctx.store,
        NewAccount {
            email: &email,
            password: "Bench-pass-2026!",
            first_name: "Bench",
            last_name: &format!("{} {n}", role.as_str()),
            role,
            user_sub_type: None,
            customer_id: customer.clone(),
            company_id: customer,
            active: true,
        },
    )
    .await
    .expect("account")
}

struct World {
    admin: User,
    lawyer: User,
    sales: User,
    customer_uid: String,
    contact: User,
}

/// The accounts of every size: made once (hashing a password is most of
/// what making one costs), stored in each size's table.
struct Accounts {
    admin: User,
    lawyers: Vec<User>,
    contact: User,
    sales: User,
}

/// One customer in each bucket of the per-customer breakdown.
fn customers() -> Vec<String> {
    let mut per_bucket: Vec<Option<String>> = vec![None; CUSTOMERS];
    for i in 0.. {
        let uid = format!("bench-customer-{i:04}");
        if let Scope::Bucket(b) = Scope::bucket_of(&uid) {
            per_bucket[b as usize].get_or_insert(uid);
        }
        if per_bucket.iter().all(Option::is_some) {
            break;
        }
    }
    let customers: Vec<String> = per_bucket.into_iter().flatten().collect();
    let buckets: BTreeSet<Scope> = customers.iter().map(|c| Scope::bucket_of(c)).collect();
    assert_eq!(buckets.len(), stats::CUSTOMER_BUCKETS as usize, "the customers must fill every bucket of the breakdown");
    customers
}

async fn accounts(ctx: &Context) -> Accounts {
    let admin = user(ctx, Role::Admin, 0, None).await;
    let mut lawyers = Vec::new();
    for i in 0..LAWYERS {
        lawyers.push(user(ctx, Role::Lawyer, i, None).await);
    }
    // A contact holding every permission: the company-wide statistics are
    // for contacts that may view all cases and the time bank.
    let mut contact = user(ctx, Role::CustomerContact, 0, Some(customers()[0].clone())).await;
    contact.permissions = shared::domain::Permission::ALL.to_vec();
    let sales = user(ctx, Role::SalesPerson, 0, None).await;
    Accounts { admin, lawyers, contact, sales }
}

/// What a load wrote, for the report.
struct Loaded {
    world: World,
    items: usize,
    counter_items: usize,
}

/// One generated case: its customer, lawyer, status, creation time.
fn make_case(
    i: usize,
    customer: &str,
    lawyer: Option<&str>,
    status: CaseStatus,
    created: chrono::DateTime<Utc>,
    r: u64,
    admin: &str,
) -> Case {
    let ty = CaseType { id: 1 + r % TYPES, name: format!("Type {}", 1 + r % TYPES), name_en: None };
    let mut c = Case::draft(
        format!("bench{i:08}"),
        format!("2026-{i:06}"),
        customer.to_string(),
        customer.to_string(),
        ty,
        admin.to_string(),
        created,
    );
    // Sector ids 1..=SECTORS, and "none" for a fifth of the cases.
    let sector = (r >> 4) % (SECTORS + 1);
    c.knowledge_sector =
        (sector > 0).then(|| shared::domain::case::KnowledgeSector { id: sector, name: format!("Sector {sector}"), name_en: None });
    c.status = status;
    c.lawyer = lawyer.map(String::from);
    c
}

fn make_hour(j: usize, c: &Case, date: chrono::NaiveDate, r: u64, now: chrono::DateTime<Utc>) -> CaseHour {
    CaseHour {
        id: format!("h{j:09}"),
        case_uid: c.uid.clone(),
        lawyer: c.lawyer.clone().unwrap_or_default(),
        lawyer_name: String::new(),
        hour: Hundredths(((r >> 8) % 400) as i64),
        non_billable_hour: Hundredths(((r >> 20) % 100) as i64),
        rattsskydd_hour: Hundredths(((r >> 30) % 50) as i64),
        date,
        time: String::new(),
        is_invoiced: (r >> 50).is_multiple_of(2),
        service: None,
        description: String::new(),
        created_at: now,
    }
}

/// Loads `cases` cases and `hours` hour entries. The first cases and
/// hours cover every counter item the measured calls can read (so the
/// smallest size already has them all, and a larger size can only add
/// attributes to those items, never items): every customer has a case
/// opened this month; the first lawyer and the first customer have a
/// page of in-progress cases; there is an hour entry on every day of this
/// week and this month up to today and in every month of this year, on
/// every shard of the global scope, the first lawyer's and the first
/// customer's. The rest is random over 400 days, every type, sector and
/// status. (The week's days in the month before, when the week began in it,
/// were left to chance: in a month's first days the dashboards then read a
/// few more items at the larger size, and the run failed.)
async fn load(ctx: &Context, accounts: &Accounts, cases: usize, hours: usize) -> Loaded {
    for u in std::iter::once(&accounts.admin).chain(&accounts.lawyers).chain([&accounts.contact, &accounts.sales]) {
        store_account(&ctx.store, u).await.expect("account");
    }
    let admin = accounts.admin.clone();
    let lawyers: Vec<String> = accounts.lawyers.iter().map(|l| l.uid.clone()).collect();
    let customers = customers();
    let contact = accounts.contact.clone();
    let sales = accounts.sales.clone();
    // The sales person's customers (as account manager): their cases count
    // in the sales scope as the events count them.
    let managed: BTreeSet<String> = customers.iter().step_by(SALES_EVERY).cloned().collect();
    let now = Utc::now();
    let today = calendar::stockholm_date(now);
    let month_start = calendar::first_of_month(today);
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let cover_cases = CUSTOMERS + PAGE;
    assert!(cases >= cover_cases, "at least {cover_cases} cases (every customer, and a page of the first lawyer's)");
    let mut all_cases: Vec<Case> = Vec::with_capacity(cases);
    for i in 0..cases {
        let r = rnd(&mut seed);
        let c = if i < CUSTOMERS {
            // Every customer: a case opened this month, in progress.
            let created = calendar::stockholm_day_start(month_start + Duration::days((i as i64) % (today - month_start).num_days().max(1)))
                + Duration::hours(10);
            let created = created.min(now);
            make_case(i, &customers[i], Some(&lawyers[i % LAWYERS]), CaseStatus::Inprogress, created, r, &admin.uid)
        } else if i < cover_cases {
            // A page of in-progress cases of the first lawyer and customer.
            let created = now - Duration::minutes((r % (400 * 24 * 60)) as i64);
            make_case(i, &customers[0], Some(&lawyers[0]), CaseStatus::Inprogress, created, r, &admin.uid)
        } else {
            let created = now - Duration::minutes((r % (400 * 24 * 60)) as i64);
            let status = [CaseStatus::Draft, CaseStatus::Waiting, CaseStatus::Inprogress, CaseStatus::Complete][(r >> 16) as usize % 4];
            let lawyer =
                matches!(status, CaseStatus::Inprogress | CaseStatus::Complete).then(|| lawyers[(r >> 24) as usize % LAWYERS].as_str());
            make_case(i, &customers[(r >> 8) as usize % CUSTOMERS], lawyer, status, created, r, &admin.uid)
        };
        let mut c = c;
        if c.lawyer.is_some() {
            c.deadline = Some(today + Duration::days((r >> 32) as i64 % 60));
        }
        all_cases.push(c);
    }
    // Hours: (case index, date, shard seed).
    let mut plan: Vec<(usize, chrono::NaiveDate, u64)> = Vec::new();
    let shards = stats::ALL_SHARDS as u64;
    let mut d = month_start.min(calendar::week_start(today));
    let mut k = 0usize;
    while d <= today {
        for sh in 0..shards {
            // The first lawyer's and customer's cases take one a day.
            let i = if sh == 0 { CUSTOMERS + (k % PAGE) } else { k % CUSTOMERS };
            plan.push((i, d, sh));
            k += 1;
        }
        d += Duration::days(1);
    }
    let mut m = chrono::NaiveDate::from_ymd_opt(today.year(), 1, 1).expect("january");
    while m < month_start {
        for sh in 0..shards {
            plan.push((CUSTOMERS + (k % PAGE), m, sh));
            k += 1;
        }
        m = calendar::last_of_month(m) + Duration::days(1);
    }
    assert!(
        hours >= plan.len(),
        "at least {} hour entries (every day of this week and this month, every month of this year, every shard)",
        plan.len()
    );
    let worked: Vec<usize> = (0..cases).filter(|i| all_cases[*i].lawyer.is_some()).collect();
    while plan.len() < hours {
        let r = rnd(&mut seed);
        plan.push((worked[r as usize % worked.len()], today - Duration::days(((r >> 40) % 400) as i64), r >> 3));
    }
    let mut by_case: Vec<Vec<(CaseHour, u64)>> = vec![Vec::new(); cases];
    for (j, (i, date, sh)) in plan.into_iter().enumerate() {
        let r = rnd(&mut seed);
        by_case[i].push((make_hour(j, &all_cases[i], date, r, now), sh));
    }
    // Counters: the events' own contributions, each event on its shard
    // (as events::record picks one by the event id).
    // Merged as they come: a million entries' writes would not fit in memory one by one.
    let mut merged: BTreeMap<(String, String), BTreeMap<String, i64>> = BTreeMap::new();
    let mut merge = |ws: Vec<CounterWrite>| {
        for w in ws {
            let e = merged.entry((w.pk, w.sk)).or_default();
            for (m, v) in w.add {
                *e.entry(m).or_insert(0) += v;
            }
        }
    };
    let mut marks = stats::Deltas::default();
    for c in &managed {
        marks.add(Scope::Sales(sales.uid.clone()), stats::When::Now, "customers", 1);
        marks.add(Scope::Sales(sales.uid.clone()), stats::When::Now, format!("customer.{c}"), 1);
    }
    merge(counter_writes(&marks, 0));
    // Subscription rows of the sales person's customers, sold this month
    // by the sales person, one due on each of the next 31 days (the days
    // the sales and admin dashboards read), the same at every size.
    let mut managed_rows = Vec::new();
    let sold_at = calendar::stockholm_day_start(today).naive_utc().max(now.naive_utc() - Duration::hours(1));
    let sold_at = shared::domain::subscription::whole_seconds(sold_at);
    let list: Vec<&String> = managed.iter().collect();
    for d in 0..31u32 {
        let grant = shared::domain::subscription::Grant::custom("Bench", Hundredths(1000), d);
        let mut row = shared::domain::subscription::new_row(1 + d as u64, list[d as usize % list.len()], &grant, false, sold_at, sold_at);
        row.sold_by = Some(sales.uid.clone());
        merge(counter_writes(&stats::subscription_contribution(&row, stats::Price(0), Some(&sales.uid)), d as u64));
        managed_rows.push(shared::store::subscriptions::row_item(&row, 1).expect("row"));
    }
    let rows_loaded = managed_rows.len();
    ctx.store.batch_put(managed_rows).await.expect("rows");
    let mut items = Vec::new();
    let mut loaded = 0usize;
    for (i, c) in all_cases.iter().enumerate() {
        let manager = managed.contains(&c.customer).then_some(sales.uid.as_str());
        merge(counter_writes(&stats::case_contribution(c, manager), i as u64));
        for (h, sh) in &by_case[i] {
            merge(counter_writes(&stats::hour_contribution(c, h, 120_000), *sh));
        }
        let hs: Vec<CaseHour> = by_case[i].iter().map(|(h, _)| h.clone()).collect();
        items.extend(shared::store::cases::bulk_items(c, &hs).expect("items"));
        if items.len() >= 25_000 {
            loaded += items.len();
            ctx.store.batch_put(std::mem::take(&mut items)).await.expect("load");
        }
    }
    loaded += items.len();
    ctx.store.batch_put(items).await.expect("load");
    let writes: Vec<CounterWrite> =
        merged.into_iter().map(|((pk, sk), add)| CounterWrite { pk, sk, add: add.into_iter().collect() }).collect();
    let counters = Store::counter_items(&writes);
    let counter_items = counters.len();
    ctx.store.batch_put(counters).await.expect("counters");
    let lawyer = ctx.store.get_user(&lawyers[0]).await.expect("get").expect("lawyer");
    Loaded {
        world: World { admin, lawyer, sales, customer_uid: customers[0].clone(), contact },
        items: loaded + rows_loaded + counter_items,
        counter_items,
    }
}

type Figures = BTreeMap<String, (u64, f64)>;

async fn calls(ctx: &Context, w: &World) -> Figures {
    let today = st::today();
    let month = Period::resolve(PeriodKind::ThisMonth, None, None, today).expect("period");
    let year = Period::resolve(PeriodKind::ThisYear, None, None, today).expect("period");
    let mut out = Figures::new();
    macro_rules! time {
        ($name:expr, $call:expr) => {{
            let t = Instant::now();
            let items = $call.await.map(|x| x).expect($name);
            out.insert($name.to_string(), (items, t.elapsed().as_secs_f64() * 1000.0));
        }};
    }
    let read = |d: st::Dashboard| match d {
        st::Dashboard::Admin { items_read, .. }
        | st::Dashboard::Lawyer { items_read, .. }
        | st::Dashboard::Sales { items_read, .. }
        | st::Dashboard::Customer { items_read, .. } => items_read,
    };
    time!("dashboard/ admin", async { st::dashboard(ctx, &w.admin).await.map(read) });
    time!("dashboard/ lawyer", async { st::dashboard(ctx, &w.lawyer).await.map(read) });
    time!("dashboard/ sales", async { st::dashboard(ctx, &w.sales).await.map(read) });
    time!("dashboard/ contact", async { st::dashboard(ctx, &w.contact).await.map(read) });
    time!("chart/ admin this year", async { st::chart(ctx, &w.admin, year).await.map(|s| s.items_read) });
    time!("pie-chart/hour/ lawyer", async { st::hour_pie(ctx, &w.lawyer, month).await.map(|s| s.items_read) });
    time!("statistic/account/ this year", async { st::account(ctx, &w.admin, year).await.map(|s| s.items_read) });
    time!("statistic/user/ admin this month", async { st::customers(ctx, &w.admin, month).await.map(|s| s.items_read) });
    time!("statistic/finance/ this month", async { st::finance(ctx, &w.admin, month).await.map(|s| s.items_read) });
    time!("statistic/finance/ this year", async { st::finance(ctx, &w.admin, year).await.map(|s| s.items_read) });
    time!("statistic/activity/ contact", async { st::activity(ctx, &w.contact, year).await.map(|s| s.items_read) });
    time!("statistic/activity/cases admin", async { st::activity_cases(ctx, &w.admin, year, None, 10).await.map(|s| s.items_read) });
    time!("statistic/legal/ lawyer this year", async { st::legal(ctx, &w.lawyer, year, "sv").await.map(|s| s.items_read) });
    let _ = &w.customer_uid;
    out
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sizes: Vec<(usize, usize)> = {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let args = if args.is_empty() { vec!["100:1000".to_string(), "100000:1000000".to_string()] } else { args };
        args.iter()
            .map(|a| {
                let (c, h) = a.split_once(':').expect("<cases>:<hours>");
                (c.parse().expect("cases"), h.parse().expect("hours"))
            })
            .collect()
    };
    let base = Config::from_env()?;
    let mut results: Vec<((usize, usize), Figures, f64)> = Vec::new();
    let mut made: Option<Accounts> = None;
    for (cases, hours) in sizes {
        let mut config = base.clone();
        config.table_name = format!("{}-{cases}", base.table_name);
        let ctx = Context::new(config, None).await;
        ctx.store.ensure_table().await?;
        if made.is_none() {
            made = Some(accounts(&ctx).await);
        }
        let t = Instant::now();
        let loaded = load(&ctx, made.as_ref().expect("accounts"), cases, hours).await;
        let load_s = t.elapsed().as_secs_f64();
        eprintln!(
            "loaded {cases} cases and {hours} hour entries ({} items, {} of them counters) in {load_s:.1} s: {:.0} items/s",
            loaded.items,
            loaded.counter_items,
            loaded.items as f64 / load_s.max(1e-9)
        );
        let w = loaded.world;
        let _ = calls(&ctx, &w).await; // warm-up
        results.push(((cases, hours), calls(&ctx, &w).await, load_s));
    }
    print!("{:<36}", "call");
    for ((c, h), _, _) in &results {
        print!(" | {:>26}", format!("{c} cases / {h} hours"));
    }
    println!(" | same");
    let names: Vec<String> = results.first().map(|r| r.1.keys().cloned().collect()).unwrap_or_default();
    let mut growing = Vec::new();
    for n in names {
        print!("{n:<36}");
        for (_, f, _) in &results {
            let (items, ms) = f[&n];
            print!(" | {:>26}", format!("{items} items {ms:.1} ms"));
        }
        // The measure: the items a call reads do not grow with the data.
        let same = results.iter().all(|(_, f, _)| f[&n].0 == results[0].1[&n].0);
        println!(" | {}", if same { "yes" } else { "no" });
        if !same {
            growing.push(n);
        }
    }
    if growing.is_empty() {
        Ok(())
    } else {
        Err(format!("items read differ between sizes (column 'same'): {}", growing.join(", ")).into())
    }
}

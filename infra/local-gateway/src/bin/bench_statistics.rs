//! Benchmark (not a test; issue 16 item 5): loads cases and hour entries
//! into the stand-in through the store (BatchWriteItem, 25 a call, with the
//! counters they imply, computed by the same contribution functions the
//! events use), then prints for each dashboard and statistics call the
//! items read and the time, for each size given, side by side.
//!
//! Arguments: sizes as `<cases>:<hours>` (default `100:1000 100000:1000000`).
//! Each size gets its own table `<TABLE_NAME>-<cases>`. Run through
//! `infra/bench-statistics.sh`.

use std::collections::BTreeMap;
use std::time::Instant;

use chrono::{Duration, Utc};
use shared::config::Config;
use shared::domain::case::{Case, CaseHour, CaseStatus, CaseType};
use shared::domain::catalogue::Hundredths;
use shared::domain::stats::{self, Deltas, Period, PeriodKind};
use shared::domain::{Role, User};
use shared::services::accounts::{create_account, NewAccount};
use shared::services::{statistics as st, Context};
use shared::store::stats::{counter_writes, CounterWrite};
use shared::store::Store;

const LAWYERS: usize = 20;
const CUSTOMERS: usize = 200;
const TYPES: u64 = 5;

fn rnd(state: &mut u64) -> u64 {
    // xorshift: a fixed sequence, so every run loads the same data.
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

async fn user(ctx: &Context, role: Role, n: usize, customer: Option<String>) -> User {
    let email = format!("bench-{}-{n}-{}@example.com", role.as_str(), uuid::Uuid::new_v4().simple());
    create_account(
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
    customer_uid: String,
    contact: User,
}

async fn load(ctx: &Context, cases: usize, hours: usize) -> World {
    let admin = user(ctx, Role::Admin, 0, None).await;
    let mut lawyers = Vec::new();
    for i in 0..LAWYERS {
        lawyers.push(user(ctx, Role::Lawyer, i, None).await.uid);
    }
    let customers: Vec<String> = (0..CUSTOMERS).map(|i| format!("bench-customer-{i:04}")).collect();
    let contact = user(ctx, Role::CustomerContact, 0, Some(customers[0].clone())).await;
    let now = Utc::now();
    let today = stats::stockholm_date(now);
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut all_cases: Vec<Case> = Vec::with_capacity(cases);
    for i in 0..cases {
        let r = rnd(&mut seed);
        let created = now - Duration::minutes((r % (400 * 24 * 60)) as i64);
        let ty = CaseType { id: 1 + r % TYPES, name: format!("Type {}", 1 + r % TYPES) };
        let customer = customers[(r >> 8) as usize % CUSTOMERS].clone();
        let mut c = Case::draft(format!("bench{i:08}"), format!("2026-{i:06}"), customer.clone(), customer, ty, admin.uid.clone(), created);
        c.status = [CaseStatus::Draft, CaseStatus::Waiting, CaseStatus::Inprogress, CaseStatus::Complete][(r >> 16) as usize % 4];
        if matches!(c.status, CaseStatus::Inprogress | CaseStatus::Complete) {
            c.lawyer = Some(lawyers[(r >> 24) as usize % LAWYERS].clone());
            c.deadline = Some(today + Duration::days((r >> 32) as i64 % 60));
        }
        all_cases.push(c);
    }
    let mut by_case: Vec<Vec<CaseHour>> = vec![Vec::new(); cases];
    let worked: Vec<usize> = (0..cases).filter(|i| all_cases[*i].lawyer.is_some()).collect();
    for j in 0..hours {
        if worked.is_empty() {
            break;
        }
        let r = rnd(&mut seed);
        let i = worked[r as usize % worked.len()];
        let c = &all_cases[i];
        by_case[i].push(CaseHour {
            id: format!("h{j:09}"),
            case_uid: c.uid.clone(),
            lawyer: c.lawyer.clone().unwrap_or_default(),
            lawyer_name: String::new(),
            hour: Hundredths(((r >> 8) % 400) as i64),
            non_billable_hour: Hundredths(((r >> 20) % 100) as i64),
            rattsskydd_hour: Hundredths(((r >> 30) % 50) as i64),
            date: today - Duration::days(((r >> 40) % 400) as i64),
            time: String::new(),
            is_invoiced: (r >> 50).is_multiple_of(2),
            service: None,
            description: String::new(),
            created_at: now,
        });
    }
    // Counters: the events' own contributions, spread over the shards.
    let mut writes: Vec<CounterWrite> = Vec::new();
    let mut items = Vec::new();
    for (i, c) in all_cases.iter().enumerate() {
        let mut d: Deltas = stats::case_contribution(c);
        for h in &by_case[i] {
            d.merge(&stats::hour_contribution(c, h, 120_000), 1);
        }
        writes.extend(counter_writes(&d, i as u64));
        items.extend(shared::store::cases::bulk_items(c, &by_case[i]).expect("items"));
        if items.len() >= 25_000 {
            ctx.store.batch_put(std::mem::take(&mut items)).await.expect("load");
        }
    }
    ctx.store.batch_put(items).await.expect("load");
    ctx.store.batch_put(Store::counter_items(&writes)).await.expect("counters");
    let lawyer = ctx.store.get_user(&lawyers[0]).await.expect("get").expect("lawyer");
    World { admin, lawyer, customer_uid: customers[0].clone(), contact }
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
    time!("dashboard/ contact", async { st::dashboard(ctx, &w.contact).await.map(read) });
    time!("chart/ admin this year", async { st::chart(ctx, &w.admin, year).await.map(|s| s.items_read) });
    time!("pie-chart/hour/ lawyer", async { st::hour_pie(ctx, &w.lawyer, month).await.map(|s| s.items_read) });
    time!("statistic/account/ this year", async { st::account(ctx, &w.admin, year).await.map(|s| s.items_read) });
    time!("statistic/user/ admin this month", async { st::customers(ctx, &w.admin, month).await.map(|s| s.items_read) });
    time!("statistic/finance/ this month", async { st::finance(ctx, &w.admin, month).await.map(|s| s.items_read) });
    time!("statistic/finance/ this year", async { st::finance(ctx, &w.admin, year).await.map(|s| s.items_read) });
    time!("statistic/activity/ contact", async { st::activity(ctx, &w.contact, year).await.map(|s| s.items_read) });
    time!("statistic/activity/cases admin", async { st::activity_cases(ctx, &w.admin, year, None, 10).await.map(|s| s.items_read) });
    time!("statistic/legal/ lawyer this year", async { st::legal(ctx, &w.lawyer, year).await.map(|s| s.items_read) });
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
    for (cases, hours) in sizes {
        let mut config = base.clone();
        config.table_name = format!("{}-{cases}", base.table_name);
        let ctx = Context::new(config, None).await;
        ctx.store.ensure_table().await?;
        let t = Instant::now();
        let w = load(&ctx, cases, hours).await;
        let load_s = t.elapsed().as_secs_f64();
        eprintln!("loaded {cases} cases and {hours} hour entries in {load_s:.1} s");
        let _ = calls(&ctx, &w).await; // warm-up
        results.push(((cases, hours), calls(&ctx, &w).await, load_s));
    }
    print!("{:<36}", "call");
    for ((c, h), _, _) in &results {
        print!(" | {:>22}", format!("{c} cases / {h} hours"));
    }
    println!();
    let names: Vec<String> = results.first().map(|r| r.1.keys().cloned().collect()).unwrap_or_default();
    for n in names {
        print!("{n:<36}");
        for (_, f, _) in &results {
            let (items, ms) = f[&n];
            print!(" | {:>22}", format!("{items} items {ms:.1} ms"));
        }
        println!();
    }
    Ok(())
}

//! `statistic/user/`: figures per customer over a period.

use super::*;

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

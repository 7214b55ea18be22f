//! `statistic/finance/`: revenue, invoicing and rates over a period.

use super::*;
use crate::domain::catalogue::{Package, ServicePlan};

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
        let l = ctx.store.list_offers::<Package>().await?;
        r.items += l.len() as u64;
        l.into_iter().map(|x| (x.id.to_string(), x.name)).collect()
    };
    let plans: BTreeMap<String, String> = {
        let l = ctx.store.list_offers::<ServicePlan>().await?;
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

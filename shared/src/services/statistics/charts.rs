//! `chart/` and `pie-chart/hour/`: the caller's main series and its hours' split.

use super::*;

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

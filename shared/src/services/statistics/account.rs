//! `statistic/account/`: the customers' accounts over a period.

use super::*;

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

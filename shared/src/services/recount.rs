//! The operator's recount (`infra/recount.sh`): rebuilds
//! every counter that the raw items tell (cases, hour entries, subscription
//! rows, customer profiles, and the period figures kept from records the
//! retention job erased) with a Scan, compares it with the stored
//! counters summed over their shards, reports each difference and, with
//! `fix`, rewrites the counters (shard 0 holds the rebuilt figures and the
//! stored flows; the other shards are removed). A Scan reads the whole
//! table: an operator tool, never a request path. Flows
//! ([`crate::domain::statistics::FLOW_METRICS`]) cannot be rebuilt from the
//! current state: they are reported as kept.
//!
//! The sales scopes are rebuilt as the events keep them: cases by status
//! and active rows due for the manager each customer's profile names now,
//! sales for the manager the row names (`sold_by`).
//!
//! Revenue is rebuilt at today's prices and customer rates; a price or
//! rate changed since a sale shows as a difference (fix takes today's).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

use super::{counters, Context};
use crate::domain::case::{Case, CaseHour};
use crate::domain::statistics::{self as stats, is_flow, Deltas, Price};
use crate::error::ApiError;
use crate::store::stats::{counter_writes, Counts};

/// One counter that differs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// The counter item without its shard, e.g. `STATS#all#DAY#2026-03 2026-03-04`.
    pub item: String,
    pub metric: String,
    pub stored: i64,
    pub recounted: i64,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    pub cases: usize,
    pub hours: usize,
    pub subscriptions: usize,
    pub customers: usize,
    /// Counter items kept from records the retention job erased.
    pub kept_figures: usize,
    pub counter_items: usize,
    pub differences: Vec<Difference>,
    pub fixed: bool,
}

/// A logical counter item as stored: its non-flow sums, its flow sums, its physical keys.
type Stored = (Counts, Counts, Vec<(String, String)>);

/// `STATS#<scope>#<shard>#<rest>` → (`STATS#<scope>#<rest>`, shard).
pub fn unshard(pk: &str) -> Option<(String, u8)> {
    let (head, rest) = if let Some(h) = pk.strip_suffix("#NOW") {
        (h.to_string(), "NOW".to_string())
    } else {
        let mut parts = pk.rsplitn(3, '#');
        let period = parts.next()?;
        let kind = parts.next()?;
        (parts.next()?.to_string(), format!("{kind}#{period}"))
    };
    let (scope, shard) = head.rsplit_once('#')?;
    Some((format!("{scope}#{rest}"), shard.parse().ok()?))
}

fn logical(pk: &str, sk: &str) -> Option<(String, String)> {
    unshard(pk).map(|(l, _)| (l, sk.to_string()))
}

/// The counters the raw items tell, by logical item (shards summed), flows left out.
pub async fn expected(ctx: &Context, report: &mut Report) -> Result<BTreeMap<(String, String), Counts>, ApiError> {
    let mut cases: HashMap<String, Case> = HashMap::new();
    let mut hours: Vec<CaseHour> = Vec::new();
    for item in ctx.store.scan_prefix("CASE#").await? {
        let sk = item.get("SK").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
        if sk == "CASE" {
            let c = crate::store::cases::parse_case(item)?.case;
            cases.insert(c.uid.clone(), c);
        } else if sk.starts_with("HOUR#") {
            hours.push(serde_dynamo::from_item(item).map_err(ApiError::internal)?);
        }
    }
    let mut deltas = Deltas::default();
    let mut rates: HashMap<String, i64> = HashMap::new();
    // Customer uid → its account manager now (cases and active rows count
    // for the manager the customer has now; sales stay with `sold_by`).
    let mut managers: HashMap<String, String> = HashMap::new();
    let mut rows = Vec::new();
    let mut prices: HashMap<(Option<u64>, Option<u64>), Price> = HashMap::new();
    for item in ctx.store.scan_prefix("CUSTOMER#").await? {
        let sk = item.get("SK").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
        if sk == "PROFILE" {
            let p = crate::store::customers::from_item(item)?;
            rates.insert(p.uid.clone(), p.hourly_rate_ore.unwrap_or(0));
            if let Some(m) = stats::sales_of(&p) {
                managers.insert(p.uid.clone(), m);
            }
            deltas.merge(&stats::customer_contribution(&p), 1);
            report.customers += 1;
        } else if sk.starts_with("PURCHASE#") {
            rows.push(crate::store::subscriptions::parse_row(item)?.row);
        }
    }
    for row in &rows {
        let key = (row.packages.as_ref().and_then(|p| p.id), row.service_plan.as_ref().and_then(|p| p.id));
        // The row's own price first (kept at the purchase); the catalogue's
        // (read once per entry) for rows stored before rows kept it.
        let price = match (row.price, prices.get(&key)) {
            (Some(p), _) => Price(p.0),
            (None, Some(p)) => *p,
            (None, None) => {
                let p = counters::price_of(ctx, row).await?;
                prices.insert(key, p);
                p
            }
        };
        deltas.merge(&stats::subscription_contribution(row, price, managers.get(&row.customer_uid).map(String::as_str)), 1);
        report.subscriptions += 1;
    }
    for c in cases.values() {
        deltas.merge(&stats::case_contribution(c, managers.get(&c.customer).map(String::as_str)), 1);
    }
    for h in &hours {
        if let Some(c) = cases.get(&h.case_uid) {
            deltas.merge(&stats::hour_contribution(c, h, rates.get(&c.customer).copied().unwrap_or(0)), 1);
        }
    }
    report.cases = cases.len();
    report.hours = hours.len();
    let mut out: BTreeMap<(String, String), Counts> = BTreeMap::new();
    // What erased records counted in their periods stays counted (see the
    // retention job): their kept figures count as the live records do.
    let kept = ctx.store.scan_kept_figures().await?;
    report.kept_figures = kept.len();
    for w in counter_writes(&deltas.pruned(), 0).into_iter().chain(kept) {
        let Some(key) = logical(&w.pk, &w.sk) else { continue };
        let e = out.entry(key).or_default();
        for (m, v) in w.add {
            *e.entry(m).or_insert(0) += v;
        }
    }
    Ok(out)
}

/// Recounts, compares and (with `fix`) rewrites.
pub async fn recount(ctx: &Context, fix: bool) -> Result<Report, ApiError> {
    let mut report = Report::default();
    let expected = expected(ctx, &mut report).await?;
    let raw = ctx.store.scan_counter_items().await?;
    report.counter_items = raw.len();
    // Stored, by logical item: (non-flow sums, flow sums, physical keys).
    let mut stored: BTreeMap<(String, String), Stored> = BTreeMap::new();
    for ((pk, sk), counts) in &raw {
        let Some(key) = logical(pk, sk) else { continue };
        let e = stored.entry(key).or_default();
        for (m, v) in counts {
            let target = if is_flow(m) { &mut e.1 } else { &mut e.0 };
            *target.entry(m.clone()).or_insert(0) += v;
        }
        e.2.push((pk.clone(), sk.clone()));
    }
    let keys: BTreeSet<(String, String)> = expected.keys().chain(stored.keys()).cloned().collect();
    let empty = Counts::new();
    for key in &keys {
        let want = expected.get(key).unwrap_or(&empty);
        let have = stored.get(key).map(|s| &s.0).unwrap_or(&empty);
        let metrics: BTreeSet<&String> = want.keys().chain(have.keys()).collect();
        for m in metrics {
            let (a, b) = (have.get(m).copied().unwrap_or(0), want.get(m).copied().unwrap_or(0));
            if a != b {
                report.differences.push(Difference { item: format!("{} {}", key.0, key.1), metric: m.clone(), stored: a, recounted: b });
            }
        }
    }
    if fix && !report.differences.is_empty() {
        let dirty: BTreeSet<(String, String)> =
            report.differences.iter().filter_map(|d| d.item.split_once(' ').map(|(a, b)| (a.to_string(), b.to_string()))).collect();
        for key in dirty {
            let mut counts = expected.get(&key).cloned().unwrap_or_default();
            let physical = stored.get(&key).map(|s| s.2.clone()).unwrap_or_default();
            if let Some(s) = stored.get(&key) {
                stats::sum_into(&mut counts, &s.1);
            }
            for (pk, sk) in &physical {
                ctx.store.put_counter_item(pk, sk, &Counts::new()).await?;
            }
            let (pk, sk) = shard_zero(&key);
            ctx.store.put_counter_item(&pk, &sk, &counts).await?;
        }
        report.fixed = true;
    }
    Ok(report)
}

/// The shard-0 key of a logical item.
fn shard_zero(key: &(String, String)) -> (String, String) {
    let (pk, sk) = key;
    let (head, rest) = if let Some(h) = pk.strip_suffix("#NOW") {
        (h.to_string(), "NOW".to_string())
    } else {
        let mut parts = pk.rsplitn(3, '#');
        let period = parts.next().unwrap_or_default();
        let kind = parts.next().unwrap_or_default();
        (parts.next().unwrap_or_default().to_string(), format!("{kind}#{period}"))
    };
    (format!("{head}#0#{rest}"), sk.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_come_off_and_back() {
        assert_eq!(unshard("STATS#all#3#DAY#2026-03"), Some(("STATS#all#DAY#2026-03".into(), 3)));
        assert_eq!(unshard("STATS#lawyer#u1#0#MONTH#2026"), Some(("STATS#lawyer#u1#MONTH#2026".into(), 0)));
        assert_eq!(unshard("STATS#all#7#NOW"), Some(("STATS#all#NOW".into(), 7)));
        assert_eq!(shard_zero(&("STATS#lawyer#u1#MONTH#2026".into(), "2026-03".into())).0, "STATS#lawyer#u1#0#MONTH#2026");
        assert_eq!(shard_zero(&("STATS#all#NOW".into(), "NOW".into())).0, "STATS#all#0#NOW");
    }
}

//! `statistic/legal/`: cases and hours by case type and knowledge sector.

use super::*;

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

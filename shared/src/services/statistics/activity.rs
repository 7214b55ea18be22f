//! `statistic/activity/`: cases opened, accepted, closed and hours over a
//! period, and the page of the cases opened in it.

use super::*;

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

//! `dashboard/`: what each role sees first.

use super::*;

#[derive(Clone, Debug, Default, Serialize, ToSchema)]
pub struct HoursSplit {
    pub billable: i64,
    pub nonbillable: i64,
    pub rattsskydd: i64,
    pub total: i64,
}

impl HoursSplit {
    /// The metrics [`Self::of`] reads.
    const METRICS: [&str; 4] = ["hours.billable", "hours.nonbillable", "hours.rattsskydd", "hours.total"];
    fn of(c: &Counts) -> Self {
        let [billable, nonbillable, rattsskydd, total] = Self::METRICS.map(|m| g(c, m));
        HoursSplit { billable, nonbillable, rattsskydd, total }
    }
}

#[derive(Clone, Debug, Default, Serialize, ToSchema)]
pub struct StatusCounts {
    pub draft: i64,
    pub waiting: i64,
    pub inprogress: i64,
    pub complete: i64,
}

impl StatusCounts {
    /// The metrics [`Self::of`] reads.
    const METRICS: [&str; 4] = ["cases.status.draft", "cases.status.waiting", "cases.status.inprogress", "cases.status.complete"];
    fn of(c: &Counts) -> Self {
        let [draft, waiting, inprogress, complete] = Self::METRICS.map(|m| g(c, m));
        StatusCounts { draft, waiting, inprogress, complete }
    }
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Ranked {
    pub uid: String,
    pub name: String,
    pub value: i64,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Deadline {
    pub uid: String,
    pub case_number: String,
    pub subject: String,
    #[schema(value_type = String)]
    pub deadline: NaiveDate,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SubscriptionGauge {
    pub id: u64,
    pub name: String,
    /// Hundredths of hours (the hour-based service), else uses.
    pub limit: i64,
    pub used: i64,
    pub hour_based: bool,
    pub expire_on: String,
    pub expiring: bool,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RecentCase {
    pub uid: String,
    pub case_number: String,
    pub subject: String,
    pub status: CaseStatus,
    #[schema(value_type = String)]
    pub updated_at: chrono::DateTime<Utc>,
}

/// `dashboard/`: what the caller's role should see first.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Dashboard {
    Admin {
        pending_cases: i64,
        pending_customers: u64,
        cases: StatusCounts,
        hours_week: HoursSplit,
        hours_month: HoursSplit,
        active_subscriptions: i64,
        expiring_subscriptions: u64,
        /// öre
        revenue_month_hours: i64,
        revenue_month_subscriptions: i64,
        revenue_month: i64,
        top_lawyers: Vec<Ranked>,
        items_read: u64,
    },
    Lawyer {
        active_cases: i64,
        available_cases: i64,
        hours_week: HoursSplit,
        hours_month: HoursSplit,
        deadlines: Vec<Deadline>,
        rating_average: Option<f64>,
        rating_count: u64,
        items_read: u64,
    },
    Sales {
        /// Customers this sales person manages (as account manager) now.
        customers: i64,
        /// Draft cases of those customers.
        draft_cases: i64,
        /// Their active subscriptions ending within 30 days.
        expiring_subscriptions: u64,
        /// Subscriptions sold this month to customers while this sales
        /// person managed them (a sale stays with whoever managed the
        /// customer then).
        packages_sold_month: i64,
        /// öre
        revenue_month_subscriptions: i64,
        items_read: u64,
    },
    Customer {
        open_cases: i64,
        cases: StatusCounts,
        subscriptions: Vec<SubscriptionGauge>,
        recent: Vec<RecentCase>,
        expiring: Vec<SubscriptionGauge>,
        items_read: u64,
    },
}

fn month_of(today: NaiveDate) -> Period {
    Period { from: crate::domain::calendar::first_of_month(today), to: crate::domain::calendar::last_of_month(today) }
}

fn week_of(today: NaiveDate) -> Period {
    Period { from: week_start(today), to: week_start(today) + Duration::days(6) }
}

pub async fn dashboard(ctx: &Context, u: &User) -> Result<Dashboard, ApiError> {
    let today = today();
    let (month, week) = (month_of(today), week_of(today));
    let mut r = Reader::new(ctx);
    match viewer(u)? {
        Viewer::Admin => {
            // Every counter item of the page read at once (each item once:
            // the week and the next 31 days share days), beside the count
            // of customers awaiting approval. The month items are read
            // whole (their `hours.total.lawyer.<uid>` rank the lawyers),
            // the others only for the metrics shown.
            let due = next_days(today, 30);
            let shown: Vec<&str> =
                StatusCounts::METRICS.iter().chain(&HoursSplit::METRICS).chain(&["subs.active", "subs.due"]).copied().collect();
            let asks = [Ask::Now(&Scope::All), Ask::Total(&Scope::All, &week), Ask::Total(&Scope::All, &due)];
            let month_ask = [Ask::Total(&Scope::All, &month)];
            // The top lawyers' names come from the lawyers' lists, read beside
            // the counters (which rank them by uid): one round trip, where
            // reading the five ranked users after the ranking made two.
            let (read, month_read, pending_customers, (lawyer_names, names_read)) = tokio::try_join!(
                ctx.store.stats_many(&asks, Some(&shown)),
                ctx.store.stats_many(&month_ask, None),
                ctx.store.count_customers_awaiting_approval(),
                ctx.store.lawyer_names()
            )?;
            r.items += read.items + month_read.items + 1 + names_read;
            let [now, w, due] = figures(read.value)?;
            let [m] = figures(month_read.value)?;
            let expiring = g(&due, "subs.due").max(0) as u64;
            let mut lawyers: Vec<(String, i64)> =
                m.iter().filter_map(|(k, v)| k.strip_prefix("hours.total.lawyer.").map(|uid| (uid.to_string(), *v))).collect();
            lawyers.sort_by_key(|(uid, v)| (-*v, uid.clone()));
            lawyers.truncate(5);
            // A ranked uid on neither list (an account since removed): its
            // name read by uid, the one case of a second round trip.
            let unlisted: Vec<String> = lawyers.iter().map(|(u, _)| u.clone()).filter(|u| !lawyer_names.contains_key(u)).collect();
            let removed = if unlisted.is_empty() { Default::default() } else { r.user_names(&unlisted).await? };
            let top_lawyers = lawyers
                .into_iter()
                .map(|(uid, value)| {
                    let name = lawyer_names.get(&uid).or_else(|| removed.get(&uid)).cloned().unwrap_or_else(|| uid.clone());
                    Ranked { name, uid, value }
                })
                .collect();
            Ok(Dashboard::Admin {
                pending_cases: g(&now, "cases.status.draft"),
                pending_customers,
                cases: StatusCounts::of(&now),
                hours_week: HoursSplit::of(&w),
                hours_month: HoursSplit::of(&m),
                active_subscriptions: g(&now, "subs.active"),
                expiring_subscriptions: expiring,
                revenue_month_hours: g(&m, "revenue.hours"),
                revenue_month_subscriptions: g(&m, "revenue.subs"),
                revenue_month: g(&m, "revenue.hours") + g(&m, "revenue.subs"),
                top_lawyers,
                items_read: r.items,
            })
        }
        Viewer::Lawyer(l) => {
            let scope = Scope::Lawyer(l.clone());
            let asks = [Ask::Now(&scope), Ask::Now(&Scope::All), Ask::Total(&scope, &month), Ask::Total(&scope, &week)];
            let plan = CaseListPlan::Lawyer(l.clone(), vec![CaseStatus::Inprogress]);
            let shown: Vec<&str> =
                HoursSplit::METRICS.iter().chain(&["cases.status.inprogress", "cases.status.waiting"]).copied().collect();
            let (read, page, staff) = tokio::try_join!(
                ctx.store.stats_many(&asks, Some(&shown)),
                ctx.store.list_cases(&plan, None, ListOrder::Desc, None),
                ctx.store.get_staff(&l)
            )?;
            r.items += read.items + page.results.len() as u64 + 1;
            let [own, all, m, w] = figures(read.value)?;
            let mut deadlines: Vec<Deadline> = page
                .results
                .iter()
                .filter_map(|c| {
                    c.deadline.filter(|d| *d >= today).map(|d| Deadline {
                        uid: c.uid.clone(),
                        case_number: c.case_number.clone(),
                        subject: c.subject.clone(),
                        deadline: d,
                    })
                })
                .collect();
            deadlines.sort_by_key(|d| d.deadline);
            let (rating_average, rating_count) = staff.map(|s| (s.rating_average, s.rating_count)).unwrap_or((None, 0));
            Ok(Dashboard::Lawyer {
                active_cases: g(&own, "cases.status.inprogress"),
                available_cases: g(&all, "cases.status.waiting"),
                hours_week: HoursSplit::of(&w),
                hours_month: HoursSplit::of(&m),
                deadlines,
                rating_average,
                rating_count,
                items_read: r.items,
            })
        }
        Viewer::Sales(s) => {
            // The sales scope holds the figures of the customers the sales
            // person manages now (cases by status, active rows due per
            // day) and of the sales made while managing them: a fixed
            // number of items however many customers and the firm have.
            let scope = Scope::Sales(s);
            let due = next_days(today, 30);
            let shown = ["customers", "cases.status.draft", "subs.bought", "revenue.subs", "subs.due"];
            let asks = [Ask::Now(&scope), Ask::Total(&scope, &month), Ask::Total(&scope, &due)];
            let [now, m, due] = figures(r.many(&asks, Some(&shown)).await?)?;
            let expiring = g(&due, "subs.due").max(0) as u64;
            Ok(Dashboard::Sales {
                customers: g(&now, "customers"),
                draft_cases: g(&now, "cases.status.draft"),
                expiring_subscriptions: expiring,
                packages_sold_month: g(&m, "subs.bought"),
                revenue_month_subscriptions: g(&m, "revenue.subs"),
                items_read: r.items,
            })
        }
        Viewer::Company(c) => {
            let scope = Scope::Customer(c.clone());
            let all_cases = holds(u, Permission::ViewAllCases);
            let plan = crate::domain::policy::customer_side_plan(u, c.clone(), vec![]);
            // The company's counters, or for a contact without
            // view_all_cases the statuses of the cases it opened or follows.
            let counts = async {
                if all_cases {
                    ctx.store.stats_now(&scope).await
                } else {
                    ctx.store.created_status_counts(&u.uid).await
                }
            };
            let (now, rows, page) =
                tokio::try_join!(counts, ctx.store.list_purchases(&c), ctx.store.list_cases(&plan, None, ListOrder::Desc, None))?;
            r.items += now.items + rows.len() as u64 + page.results.len() as u64;
            let now = now.value;
            // Without view_time_bank no hours left nor any hour row.
            let time_bank = holds(u, Permission::ViewTimeBank);
            let rows: Vec<_> = rows.into_iter().filter(|row| time_bank || row.service.id != CONSULTANCY).collect();
            let soon = Utc::now().naive_utc() + Duration::days(30);
            let gauges: Vec<SubscriptionGauge> = rows
                .iter()
                .filter(|row| row.active && !row.expired)
                .map(|row| {
                    let hour_based = row.service.id == CONSULTANCY;
                    SubscriptionGauge {
                        id: row.id,
                        name: row
                            .service_plan
                            .as_ref()
                            .or(row.packages.as_ref())
                            .map(|n| n.name.clone())
                            .unwrap_or_else(|| row.service.name.clone()),
                        limit: if hour_based { row.hour.0 } else { row.limit.unwrap_or(0) as i64 },
                        used: if hour_based { row.consumed_hour.0 } else { row.consumed_limit as i64 },
                        hour_based,
                        expire_on: row.expire_on.format("%Y-%m-%d").to_string(),
                        expiring: row.expire_on <= soon,
                    }
                })
                .collect();
            let expiring = gauges.iter().filter(|g| g.expiring).cloned().collect();
            // "Hours left per subscription": the hour-based rows only (the
            // other services' uses are not hours; they are in `expiring`).
            let gauges: Vec<SubscriptionGauge> = gauges.into_iter().filter(|g| g.hour_based).collect();
            let mut recent: Vec<RecentCase> = page
                .results
                .into_iter()
                .map(|x| RecentCase {
                    uid: x.uid,
                    case_number: x.case_number,
                    subject: x.subject,
                    status: x.status,
                    updated_at: x.updated_at,
                })
                .collect();
            recent.sort_by_key(|x| std::cmp::Reverse(x.updated_at));
            recent.truncate(5);
            let cases = StatusCounts::of(&now);
            Ok(Dashboard::Customer {
                // As the cases list's "Active" tab: published and not closed
                // (drafts wait under their own tab).
                open_cases: cases.waiting + cases.inprogress,
                cases,
                subscriptions: gauges,
                recent,
                expiring,
                items_read: r.items,
            })
        }
    }
}

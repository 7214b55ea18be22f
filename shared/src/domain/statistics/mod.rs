//! Statistics (spec §1 statistics): the counters kept with every
//! event, as pure functions.
//!
//! Most counters are a *contribution* of a thing's current state: a case
//! counts as opened on its creation day and in its status now, an hour
//! entry counts its hours on its date, a subscription row as bought on its
//! creation day, a customer as new on its sign-up day and in its state now.
//! An event's change is `contribution(after) − contribution(before)`, so a
//! retried request that re-reads and re-decides adds exactly the difference
//! once, and the recount ([`contributions`] summed over the raw items)
//! gives the same figures. A few counters are *flows* that the current state
//! cannot tell (a case accepted or closed, a subscription activated or
//! expired, a customer deactivated): they are added by the event alone and
//! listed in [`FLOW_METRICS`] (the recount reports but does not rebuild them).
//!
//! Days are Stockholm days ([`crate::domain::calendar`]).

//!
//! One file an idea: scopes, deltas and flows (`counters`), the asked
//! period (`period`), what cases, hours, rows and customers count
//! (`contributions`).

pub mod contributions;
pub mod counters;
pub mod period;

pub use contributions::*;
pub use counters::*;
pub use period::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::calendar::tests_support::{d, utc};
    use crate::domain::calendar::week_start;
    use crate::domain::case::{Case, CaseHour, CaseStatus};
    use crate::domain::subscription::PurchasedService;
    use chrono::{Duration, NaiveDate};
    use std::collections::BTreeMap;
    use std::collections::BTreeSet;

    #[test]
    fn periods_resolve_month_ends() {
        let today = d(2026, 3, 31);
        assert_eq!(Period::resolve(PeriodKind::ThisMonth, None, None, today).unwrap(), Period { from: d(2026, 3, 1), to: d(2026, 3, 31) });
        assert_eq!(Period::resolve(PeriodKind::LastMonth, None, None, today).unwrap(), Period { from: d(2026, 2, 1), to: d(2026, 2, 28) });
        let jan = d(2024, 1, 15);
        assert_eq!(Period::resolve(PeriodKind::LastMonth, None, None, jan).unwrap(), Period { from: d(2023, 12, 1), to: d(2023, 12, 31) });
        assert_eq!(
            Period::resolve(PeriodKind::LastMonth, None, None, d(2024, 3, 1)).unwrap(),
            Period { from: d(2024, 2, 1), to: d(2024, 2, 29) }
        );
        assert_eq!(Period::resolve(PeriodKind::ThisYear, None, None, today).unwrap(), Period { from: d(2026, 1, 1), to: d(2026, 12, 31) });
        let mid = d(2026, 2, 14);
        assert_eq!(Period::resolve(PeriodKind::Custom, None, Some(mid), today).unwrap(), Period { from: d(2026, 2, 1), to: mid });
        assert_eq!(Period::resolve(PeriodKind::Custom, Some(mid), None, today).unwrap(), Period { from: mid, to: today });
        assert_eq!(Period::resolve(PeriodKind::Custom, None, None, today).unwrap(), Period { from: d(2026, 3, 1), to: today });
        assert_eq!(Period::resolve(PeriodKind::Custom, Some(d(2026, 4, 1)), None, today), Err(PeriodError::Reversed));
        assert_eq!(Period::resolve(PeriodKind::Custom, Some(today), Some(d(2026, 3, 1)), today), Err(PeriodError::Reversed));
        assert_eq!(Period::resolve(PeriodKind::Custom, Some(d(2020, 1, 1)), Some(today), today), Err(PeriodError::TooLong));
    }

    #[test]
    fn periods_split_into_whole_months_and_days() {
        let p = Period { from: d(2026, 1, 15), to: d(2026, 4, 10) };
        assert_eq!(
            p.pieces(),
            vec![
                Piece::Days(d(2026, 1, 15), d(2026, 1, 31)),
                Piece::Month(d(2026, 2, 1)),
                Piece::Month(d(2026, 3, 1)),
                Piece::Days(d(2026, 4, 1), d(2026, 4, 10)),
            ]
        );
        assert_eq!(Period { from: d(2026, 2, 1), to: d(2026, 2, 28) }.pieces(), vec![Piece::Month(d(2026, 2, 1))]);
        assert_eq!(week_start(d(2026, 11, 22)), d(2026, 11, 16));
    }

    #[test]
    fn sales_scopes_count_current_state_for_the_manager_now_and_sales_for_the_seller() {
        use crate::domain::catalogue::Hundredths;
        use crate::domain::subscription::{new_row, Grant};
        let at = chrono::NaiveDate::from_ymd_opt(2026, 3, 2).unwrap().and_hms_opt(9, 0, 0).unwrap();
        let mut row = new_row(1, "c", &Grant::custom("Gold", Hundredths(1000), 30), false, at, at);
        row.sold_by = Some("s1".into());
        let d = subscription_contribution(&row, Price(500), Some("s2"));
        let sold = &d.0[&(Scope::Sales("s1".into()), When::Day(d_(2026, 3, 2)))];
        assert_eq!((sold["subs.bought"], sold["revenue.subs"]), (1, 500));
        assert_eq!(d.0[&(Scope::Sales("s2".into()), When::Day(d_(2026, 4, 1)))]["subs.due"], 1);
        assert!(!d.0.contains_key(&(Scope::Sales("s1".into()), When::Day(d_(2026, 4, 1)))), "due for the manager now");
        // A move takes the customer's cases by status and active rows' due days.
        let now: BTreeMap<String, i64> = [("cases.status.draft".to_string(), 2), ("cases.status.complete".to_string(), 1)].into();
        let m = sales_move(&now, &[row.clone()], Some("s2"), Some("s3"));
        assert_eq!(m.0[&(Scope::Sales("s2".into()), When::Now)]["cases.status.draft"], -2);
        assert_eq!(m.0[&(Scope::Sales("s3".into()), When::Now)]["cases.status.complete"], 1);
        assert_eq!(m.0[&(Scope::Sales("s3".into()), When::Day(d_(2026, 4, 1)))]["subs.due"], 1);
        assert_eq!(m.0[&(Scope::Sales("s2".into()), When::Day(d_(2026, 4, 1)))]["subs.due"], -1);
        assert!(m.0.keys().all(|(s, _)| *s != Scope::Sales("s1".into())), "sales made stay");
        assert!(sales_move(&now, &[row], Some("s2"), Some("s2")).is_empty());
    }

    fn d_(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn split_now_parts_the_gauges_from_the_periods() {
        let mut d = Deltas::default();
        let day = NaiveDate::from_ymd_opt(2026, 3, 4).unwrap();
        d.add(Scope::All, When::Day(day), "cases.opened", 1);
        d.add(Scope::All, When::Now, "cases.status.complete", 1);
        d.add(Scope::Lawyer("l".into()), When::Now, "cases.status.complete", 1);
        let (days, now) = d.split_now();
        assert_eq!(days.0.keys().cloned().collect::<Vec<_>>(), vec![(Scope::All, When::Day(day))]);
        assert_eq!(now.0.len(), 2);
        assert!(now.0.keys().all(|(_, w)| *w == When::Now));
        let mut whole = days.clone();
        whole.merge(&now, 1);
        assert_eq!(whole, d);
    }

    #[test]
    fn deltas_diff_cancels_what_did_not_change() {
        let mut a = Deltas::default();
        a.add(Scope::All, When::Now, "x", 2);
        a.add(Scope::All, When::Now, "y", 1);
        let mut b = Deltas::default();
        b.add(Scope::All, When::Now, "x", 2);
        b.add(Scope::All, When::Now, "z", 5);
        let d = Deltas::diff(&a, &b);
        assert_eq!(d.0.len(), 1);
        let m = &d.0[&(Scope::All, When::Now)];
        assert_eq!(m.get("x"), None);
        assert_eq!(m["y"], -1);
        assert_eq!(m["z"], 5);
        assert!(is_flow("cases.closed.type.3"));
        assert!(is_flow("cases.closed@abc"));
        assert!(!is_flow("cases.opened"));
    }

    /// Every breakdown metric (`<metric>@<customer>`) one customer can have
    /// in a month: a case opened and closed, an hour entry, a subscription sold.
    fn breakdown_metrics_of_a_busy_month(customer: &str) -> BTreeSet<String> {
        use super::super::catalogue::Hundredths;
        use super::super::subscription::ServiceRef;
        let at = utc("2026-03-10T10:00:00Z");
        let open = crate::domain::case::tests_support::sample(customer, "x", CaseStatus::Inprogress, Some("law"), at);
        let closed = Case { status: CaseStatus::Complete, ..open.clone() };
        let hour = CaseHour {
            id: "h1".into(),
            case_uid: "c1".into(),
            lawyer: "law".into(),
            lawyer_name: String::new(),
            hour: Hundredths(150),
            non_billable_hour: Hundredths(25),
            rattsskydd_hour: Hundredths(0),
            date: d(2026, 3, 10),
            time: String::new(),
            is_invoiced: false,
            service: None,
            description: String::new(),
            created_at: at,
        };
        let row = PurchasedService {
            id: 1,
            customer_uid: customer.into(),
            package_id: None,
            service: ServiceRef { id: 1, name: "Consultancy".into() },
            service_plan: None,
            packages: None,
            limit: None,
            consumed_limit: 0,
            hour: Hundredths(1000),
            consumed_hour: Hundredths(0),
            hour_less_than_consumed: false,
            advance: false,
            active: true,
            expired: false,
            start_date: at.naive_utc(),
            expire_on: at.naive_utc() + Duration::days(30),
            auto_update_date_end: None,
            child: None,
            updated_at: at.naive_utc(),
            created_at: at.naive_utc(),
            sold_by: None,
            price: None,
        };
        let mut all = case_contribution(&open, None);
        for d in [
            hour_contribution(&open, &hour, 150_000),
            status_flows(&open, &closed, at),
            subscription_contribution(&row, Price(1_000_000), None),
        ] {
            for (k, m) in d.0 {
                all.0.entry(k).or_default().extend(m);
            }
        }
        all.0.into_iter().filter(|((scope, _), _)| matches!(scope, Scope::Bucket(_))).flat_map(|(_, m)| m.into_keys()).collect()
    }

    #[test]
    fn a_bucket_month_item_holds_forty_thousand_active_customers_under_the_item_limit() {
        // DynamoDB sizes an item by its attribute names' bytes and, per number,
        // at most 21 bytes; the key attributes and their names add some 100.
        const NUMBER_MAX: usize = 21;
        let names = breakdown_metrics_of_a_busy_month("0f8fad5b-d9cb-469f-a165-70867728950e");
        assert_eq!(names.len(), 7, "every breakdown metric: {names:?}");
        let mut per_bucket = vec![0usize; CUSTOMER_BUCKETS as usize];
        for i in 0..40_000u64 {
            // Customer uids as accounts makes them (UUID v4 text).
            let n = fnv(&i.to_string()) as u128 | ((fnv(&format!("{i}-")) as u128) << 64);
            let uid = uuid::Builder::from_random_bytes(n.to_be_bytes()).into_uuid().to_string();
            let Scope::Bucket(b) = Scope::bucket_of(&uid) else { unreachable!() };
            let bytes: usize = names.iter().map(|m| m.replace("0f8fad5b-d9cb-469f-a165-70867728950e", &uid).len() + NUMBER_MAX).sum();
            per_bucket[b as usize] += bytes;
        }
        let largest = per_bucket.iter().max().copied().unwrap_or(0) + 100;
        assert!(largest < ITEM_LIMIT_BYTES, "the fullest bucket's month item: {largest} bytes");
        assert!(per_bucket.iter().all(|b| *b > 0), "every bucket has customers");
    }
}

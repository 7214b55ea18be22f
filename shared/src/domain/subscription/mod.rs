//! Purchased services, the subscription rows of spec §3, their status (spec
//! §4) and the purchase and consumption rules (spec §5, §8). No storage here.

//!
//! One file an idea: the row and its status (`row`), buying (`purchase`),
//! consumption and time reports (`usage`), staff's changes (`staff_forms`),
//! a row's end and renewal (`lifecycle`).

pub mod lifecycle;
pub mod purchase;
pub mod row;
pub mod staff_forms;
pub mod usage;

pub use lifecycle::*;
pub use purchase::*;
pub use row::*;
pub use staff_forms::*;
pub use usage::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::catalogue::{Hundredths, ServicePlan, CONSULTANCY};
    use crate::error::Msg;
    use chrono::{Duration, NaiveDateTime};

    fn dt(s: &str) -> NaiveDateTime {
        parse_datetime(s).unwrap()
    }

    fn now() -> NaiveDateTime {
        dt(NOW)
    }

    fn row() -> PurchasedService {
        let grant = Grant::custom("Custom", Hundredths(1000), 30);
        new_row(1, "c", &grant, false, dt("2026-01-01 00:00:00"), dt("2026-01-01 00:00:00"))
    }

    const NOW: &str = "2026-01-10 00:00:00";

    #[test]
    fn status_follows_the_spec_order() {
        let now = dt(NOW);
        // Expired wins over everything.
        let mut r = row();
        r.expired = true;
        r.start_date = dt("2027-01-01 00:00:00");
        assert_eq!(status(&r, now), Status::Expired);
        // Start in the future → Deactivated even when active.
        let mut r = row();
        r.start_date = dt("2026-02-01 00:00:00");
        assert!(r.active);
        assert_eq!(status(&r, now), Status::Deactivated);
        // Active.
        assert_eq!(status(&row(), now), Status::Active);
        // Not active but advance → Inactive (even if consumed).
        let mut r = row();
        r.active = false;
        r.advance = true;
        r.consumed_hour = Hundredths(2000);
        assert_eq!(status(&r, now), Status::Inactive);
        // Not active, not advance, hour < consumed → Consumed.
        let mut r = row();
        r.active = false;
        r.consumed_hour = Hundredths(1001);
        assert_eq!(status(&r, now), Status::Consumed);
        // Otherwise Deactivated (hour == consumed is not Consumed).
        let mut r = row();
        r.active = false;
        r.consumed_hour = Hundredths(1000);
        assert_eq!(status(&r, now), Status::Deactivated);
        // The view carries the status and the advance flag.
        let mut r = row();
        r.advance = true;
        let v = serde_json::to_value(r.view(now)).unwrap();
        assert_eq!(v["status"], "Active");
        assert_eq!(v["advance"], true);
        assert_eq!(v["hour"], 10.0);
        assert_eq!(v["start_date"], "2026-01-01 00:00:00");
    }

    #[test]
    fn an_active_and_an_advance_row_cannot_be_held_at_once() {
        assert_eq!(purchase_kind(&[], 1), Ok(false));
        let active = row();
        assert_eq!(purchase_kind(std::slice::from_ref(&active), 1), Ok(true));
        // Another service does not count.
        assert_eq!(purchase_kind(std::slice::from_ref(&active), 3), Ok(false));
        let mut adv = row();
        adv.active = false;
        adv.advance = true;
        assert_eq!(purchase_kind(&[active.clone(), adv.clone()], 1), Err(RuleError::AlreadyActiveAndAdvance));
        assert_eq!(RuleError::AlreadyActiveAndAdvance.key(), Msg::ActiveAndAdvanceSubscription);
        // Expired rows are not held.
        let mut old = active.clone();
        old.expired = true;
        assert_eq!(purchase_kind(&[old, adv], 1), Ok(false));
    }

    #[test]
    fn consumption_stops_at_the_limit_unless_advance() {
        let now = dt(NOW);
        let r = row();
        let r = consume(&r, Usage::Hours(Hundredths(999)), now).unwrap();
        assert_eq!(r.consumed_hour, Hundredths(999));
        let r = consume(&r, Usage::Hours(Hundredths(1)), now).unwrap();
        assert_eq!(r.consumed_hour, Hundredths(1000));
        assert_eq!(consume(&r, Usage::Hours(Hundredths(1)), now), Err(RuleError::LimitReached));
        assert_eq!(RuleError::LimitReached.key(), Msg::LimitReached);
        let mut adv = r.clone();
        adv.advance = true;
        let over = consume(&adv, Usage::Hours(Hundredths(50)), now).unwrap();
        assert!(over.hour_less_than_consumed);

        let plan = ServicePlan::limited_for_tests(3, "Bisnode 2", 3, 2);
        let b = new_row(2, "c", &Grant::from_plan(&plan), false, dt("2026-01-01 00:00:00"), now);
        let b = consume(&b, Usage::Count(2), now).unwrap();
        assert_eq!(consume(&b, Usage::Count(1), now), Err(RuleError::LimitReached));
        assert_eq!(release(&b, Usage::Count(5), now).consumed_limit, 0);

        let mut gone = row();
        gone.expired = true;
        assert_eq!(consume(&gone, Usage::Count(1), now), Err(RuleError::NoValidSubscription));
    }

    #[test]
    fn change_service_validates_like_the_form() {
        let now = dt(NOW);
        let r = row();
        let e = change_service(&r, None, Some(""), None, now).unwrap_err();
        assert_eq!(e["start_date"], vec![Msg::StartDateRequired]);
        assert_eq!(e["expire_on"], vec![Msg::ExpireOnRequired]);
        assert_eq!(e["hour"], vec![Msg::HourRequired]);
        let e = change_service(&r, Some("2026-01-01"), Some("2026-01-02 00:00:00"), Some(Hundredths(0)), now).unwrap_err();
        assert_eq!(e["start_date"], vec![Msg::InvalidDatetime]);
        assert_eq!(e["hour"], vec![Msg::HourMin]);
        let e = change_service(&r, Some("2026-02-01 00:00:00"), Some("2026-01-02 00:00:00"), Some(Hundredths(1)), now).unwrap_err();
        assert_eq!(e["expire_on"], vec![Msg::ExpireBeforeStart]);
        let ok = change_service(&r, Some("2026-01-01 00:00:00"), Some("2026-03-01 12:00:00"), Some(Hundredths(1)), now).unwrap();
        assert_eq!(ok.hour, Hundredths(1));
        assert_eq!(ok.expire_on, dt("2026-03-01 12:00:00"));
        let mut b = r.clone();
        b.service = ServiceRef { id: 3, name: "Bisnode".into() };
        let e = change_service(&b, Some("2026-01-01 00:00:00"), Some("2026-03-01 12:00:00"), Some(Hundredths(1)), now).unwrap_err();
        assert_eq!(e["hour"], vec![Msg::HourOnlyForConsultancy]);
        assert!(change_service(&b, Some("2026-01-01 00:00:00"), Some("2026-03-01 12:00:00"), None, now).is_ok());
    }

    #[test]
    fn renewal_follows_the_automatic_update_date() {
        let now = dt(NOW);
        let mut r = row();
        assert!(renewal(&r, 2, now).is_none(), "no date, no renewal");
        r.auto_update_date_end = parse_date("2026-01-30");
        assert!(renewal(&r, 2, now).is_none(), "date before the expiry");
        r.auto_update_date_end = parse_date("2026-01-31");
        r.consumed_hour = Hundredths(300);
        let n = renewal(&r, 2, now).unwrap();
        assert_eq!(n.start_date, r.expire_on);
        assert_eq!(n.expire_on, r.expire_on + Duration::days(30));
        assert_eq!(n.consumed_hour, Hundredths::ZERO);
        assert!(n.active && !n.expired && n.child.is_none());
        assert_eq!(renewal_id(5), 5 + (1 << 40));
        assert_ne!(renewal_id(renewal_id(5)), renewal_id(6));
        r.child = Some(9);
        assert!(renewal(&r, 2, now).is_none(), "already renewed");
    }

    #[test]
    fn a_purchase_is_an_advance_row_starting_when_the_current_one_ends() {
        let now = dt(NOW);
        assert_eq!(plan_purchase(&[], CONSULTANCY, now), Ok((false, now)));
        let current = row();
        assert_eq!(plan_purchase(std::slice::from_ref(&current), CONSULTANCY, now), Ok((true, current.expire_on)));
        assert_eq!(plan_purchase(std::slice::from_ref(&current), 3, now), Ok((false, now)), "another service");
        let mut ahead = row();
        ahead.id = 2;
        ahead.advance = true;
        ahead.active = false;
        assert_eq!(plan_purchase(&[current.clone(), ahead.clone()], CONSULTANCY, now), Err(RuleError::AlreadyActiveAndAdvance));
        assert_eq!(advance_successor(&[current.clone(), ahead.clone()], &current).map(|r| r.id), Some(2));
        assert!(advance_successor(&[current.clone(), ahead.clone()], &ahead).is_none(), "only an active row hands over");
        let done = expired(&current);
        assert!(done.expired && !done.active && !is_due(&done, now));
        assert!(is_due(&current, current.expire_on) && !is_due(&current, now));
        assert!(promoted(&ahead, now).active);
    }

    #[test]
    fn a_row_promoted_before_its_start_starts_then_and_keeps_its_span() {
        let mut ahead = row();
        ahead.advance = true;
        ahead.active = false;
        ahead.start_date = dt("2026-02-01 00:00:00");
        ahead.expire_on = dt("2026-03-03 00:00:00");
        // Promoted early (the current row ended on 2026-01-10).
        let early = promoted(&ahead, now());
        assert_eq!((early.start_date, early.expire_on), (now(), dt("2026-02-09 00:00:00")));
        assert_eq!(status(&early, now()), Status::Active);
        // Promoted late (the job ran after the planned start): dates kept.
        let late_at = dt("2026-02-01 00:10:00");
        let late = promoted(&ahead, late_at);
        assert_eq!((late.start_date, late.expire_on), (ahead.start_date, ahead.expire_on));
        assert_eq!(status(&late, late_at), Status::Active);
    }

    #[test]
    fn staff_add_exactly_one_thing_and_custom_packages_above_zero() {
        let form = |v: serde_json::Value| serde_json::from_value::<AddToCustomer>(v).unwrap();
        let e = form(serde_json::json!({})).checked().unwrap_err().fields();
        assert_eq!((e["customer_uid"].to_vec(), e["package_id"].to_vec()), (vec![Msg::Required], vec![Msg::ChoosePackageOrPlan]));
        let e = form(serde_json::json!({"customer_uid": "c", "package_id": 1, "custom": true})).checked().unwrap_err().fields();
        assert_eq!(e["package_id"], vec![Msg::ChoosePackageOrPlan]);
        assert!(
            matches!(form(serde_json::json!({"customer_uid": " c ", "service_plan_id": 4})).checked(), Ok((c, Addition::ServicePlan(4))) if c == "c")
        );
        let zero = form(serde_json::json!({"customer_uid": "c", "custom": true, "hours": 0, "price": 0, "duration_days": 30}))
            .checked()
            .unwrap_err();
        assert_eq!(zero.key(), Msg::CustomPackageValuePositive);
        let ok = form(serde_json::json!({"customer_uid": "c", "custom": true, "hours": "2,25", "price": 5, "duration_days": 90})).checked();
        match ok {
            Ok((_, Addition::Custom(g))) => {
                assert_eq!((g.hour, g.days, g.package.map(|p| p.name)), (Hundredths(225), 90, Some("Custom package".into())))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn time_reports_list_the_range_with_a_total() {
        assert_eq!(report_range(None, Some("x")).unwrap_err().fields()["start_date"], vec![Msg::StartDateRequired]);
        assert_eq!(report_range(None, Some("x")).unwrap_err().fields()["end_date"], vec![Msg::InvalidDate]);
        assert_eq!(report_range(Some("2026-04-01"), Some("2026-03-01")).unwrap_err().fields()["end_date"], vec![Msg::EndBeforeStart]);
        let (from, to) = report_range(Some("2026-03-01"), Some("2026-03-31")).unwrap();
        assert_eq!((from.to_string(), to.to_string()), ("2026-03-01".into(), "2026-03-31".into()));
        let mut r = row();
        r.packages = Some(NamedRef { id: Some(1), name: "Gold: 10h".into() });
        let entry = |h: i64| UsageEntry {
            entry_id: "e".into(),
            purchase_id: 1,
            date: from,
            hours: Hundredths(h),
            count: 0,
            case_uid: Some("C".into()),
            description: "d".into(),
            lawyer: "L".into(),
        };
        let t = time_report(&r, &[entry(150), entry(25)]);
        assert_eq!((t.file_name.as_str(), t.unit, t.total.as_str()), ("Gold_ 10h", "Hours", "1.75"));
        assert_eq!(t.lines[0], ["2026-03-01", "C", "d", "L", "1.5"].map(String::from));
        assert_eq!(file_name("///"), "___");
        assert_eq!(file_name("  "), "services");
        assert_eq!(auto_update_date(None).unwrap(), None);
        assert_eq!(auto_update_date(Some("")).unwrap_err().fields()["auto_update_date_end"], vec![Msg::InvalidDate]);
        let mut renewed = row();
        renewed.child = Some(2);
        assert_eq!(with_auto_update(&renewed, Some("x"), now()).unwrap_err().key(), Msg::ServiceAlreadyRenewed);
        assert_eq!(with_auto_update(&row(), Some("2031-01-01"), now()).unwrap().auto_update_date_end, parse_date("2031-01-01"));
        assert_eq!(activated(&row(), now()).unwrap_err().key(), Msg::ServiceActivationFailed);
        assert_eq!(auto_update_date(Some("31/01/2031")).unwrap_err().fields()["auto_update_date_end"], vec![Msg::InvalidDate]);
    }
}

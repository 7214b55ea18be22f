//! Cases (spec §3, §4, §5, §6): the case, its hours, and the status state
//! machine as pure functions, so every allowed and refused transition is
//! unit-tested without the store.

pub mod entity;
pub mod form;
pub mod history;
pub mod hours;
pub mod lifecycle;
pub mod list;
pub mod view;

pub use entity::*;
pub use form::*;
pub use history::*;
pub use hours::*;
pub use lifecycle::*;
pub use list::*;
pub use view::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::catalogue::Hundredths;
    use crate::domain::permissions::Permission;
    use crate::domain::policy::*;
    use crate::domain::{Role, User};
    use crate::error::{ApiError, Msg};

    /// The keys a refused form has on `field` (empty when it was accepted or refused otherwise).
    fn field_keys<T: std::fmt::Debug>(r: Result<T, ApiError>, field: &str) -> Vec<Msg> {
        match r {
            Err(ApiError::BadRequest { fields, .. }) => fields.get(field).to_vec(),
            other => panic!("expected refused fields, got {other:?}"),
        }
    }

    fn user(role: Role, uid: &str) -> User {
        crate::domain::user::tests_support::with_role(role, uid, "cust", &[Permission::ViewAllCases])
    }

    fn case(status: CaseStatus, lawyer: Option<&str>) -> Case {
        let draft = entity::tests_support::sample("cust", "x", status, lawyer, chrono::Utc::now());
        Case { subject: "S".into(), description: "D".into(), estimated_hours: Hundredths(100), ..draft }
    }

    use CaseStatus::{Draft, Inprogress, Waiting};
    use Transition::{Accept, Publish, Reopen, Transfer};

    #[test]
    fn who_may_mark_hours_invoiced() {
        let admin = user(Role::Admin, "adm");
        let law = user(Role::Lawyer, "law");
        for s in [Inprogress, CaseStatus::Complete] {
            let c = case(s, Some("law"));
            assert_eq!(invoicing_author(&admin, &c).unwrap(), None, "{s:?}");
            assert_eq!(invoicing_author(&law, &c).ok(), (s == Inprogress).then(|| Some("law".to_string())), "{s:?}");
            assert_eq!(invoicing_author(&user(Role::Lawyer, "other"), &c).unwrap_err().key(), CASE_NOT_ASSIGNED, "{s:?}");
            assert_eq!(invoicing_author(&user(Role::SalesPerson, "sp"), &c).unwrap_err().key(), ONLY_LAWYER_ENTERS_HOURS);
            assert_eq!(invoicing_author(&user(Role::Customer, "cust"), &c).unwrap_err().key(), ONLY_LAWYER_ENTERS_HOURS);
        }
    }

    #[test]
    fn hours_and_dates_are_bounded() {
        let form = |h: serde_json::Value| CaseForm {
            subject: "S".into(),
            description: "D".into(),
            case_type: Some(serde_json::json!(1)),
            estimated_hours: Some(h),
            ..Default::default()
        };
        let e = validate(&form(serde_json::json!("92233720368547758,07"))).unwrap_err();
        assert_eq!(e.fields()["estimated_hours"], vec![Msg::HourMin]);
        let e = validate(&form(serde_json::json!("10000,01"))).unwrap_err();
        assert_eq!(e.fields()["estimated_hours"], vec![Msg::HoursTooLarge]);
        assert!(validate(&form(serde_json::json!(10000))).is_ok());
        let mut dated = form(serde_json::json!(1));
        dated.start_date = Some("0999-01-01".into());
        dated.deadline = Some("2101-01-01".into());
        let e = validate(&dated).unwrap_err();
        assert_eq!(e.fields()["start_date"], vec![Msg::InvalidDate]);
        assert_eq!(e.fields()["deadline"], vec![Msg::InvalidDate]);
        // No date is null, never an empty text (the document's `format: date`).
        dated.start_date = Some(String::new());
        dated.deadline = None;
        assert_eq!(validate(&dated).unwrap_err().fields()["start_date"], vec![Msg::InvalidDate]);
        let hour = |h: &str, date: &str| HourForm { hour: Some(serde_json::json!(h)), date: Some(date.into()), ..Default::default() };
        assert_eq!(validate_hours(&hour("9223372036854775807", "2026-01-01")).unwrap_err().fields()["hour"], vec![Msg::InvalidHours]);
        assert_eq!(validate_hours(&hour("10001", "2026-01-01")).unwrap_err().fields()["hour"], vec![Msg::HoursTooLarge]);
        assert_eq!(validate_hours(&hour("1", "0001-01-01")).unwrap_err().fields()["date"], vec![Msg::InvalidDate]);
        assert!(validate_hours(&hour("10000", "1900-01-01")).is_ok());
    }

    #[test]
    fn texts_are_bounded_as_sent() {
        use crate::domain::text::{LONG_MAX, SUBJECT_MAX};
        // Escape sequences the cleaning drops, and spaces the trimming drops, still count (the document's maxLength).
        let escapes = format!("{}ok", "\u{1b}[1m".repeat(LONG_MAX / 4));
        let entry = HourForm {
            hour: Some(serde_json::json!("1")),
            date: Some("2026-01-01".into()),
            description: escapes.clone(),
            ..Default::default()
        };
        assert_eq!(validate_hours(&entry).unwrap_err().fields()["description"], vec![Msg::TooLong]);
        let within = HourForm { description: escapes[4..].to_string(), ..entry };
        assert_eq!(validate_hours(&within).unwrap().description, "ok");
        let case = |subject: String| CaseForm {
            subject,
            description: "D".into(),
            case_type: Some(serde_json::json!(1)),
            estimated_hours: Some(serde_json::json!(1)),
            ..Default::default()
        };
        assert_eq!(validate(&case(format!(" {}", "s".repeat(SUBJECT_MAX)))).unwrap_err().fields()["subject"], vec![Msg::TooLong]);
        assert_eq!(validate(&case(format!(" {}", "s".repeat(SUBJECT_MAX - 1)))).unwrap().subject, "s".repeat(SUBJECT_MAX - 1));
    }

    #[test]
    fn the_customer_side_never_sets_staff_only_fields() {
        let form = CaseForm {
            subject: "S".into(),
            description: "D".into(),
            case_type: Some(serde_json::json!(1)),
            estimated_hours: Some(serde_json::json!("2,5")),
            direct_assign_lawyer: Some("law".into()),
            short_internal_description: "chosen by the customer".into(),
            ..Default::default()
        };
        let t = CaseType { id: 1, name: "T".into(), name_en: None };
        let sector = Some(KnowledgeSector { id: 7, name: "Hyresrätt".into(), name_en: None });
        let draft = case(Draft, None);
        let mut contact = user(Role::CustomerContact, "cc");
        contact.permissions = vec![Permission::AddCase, Permission::ViewAllCases];
        for who in [user(Role::Customer, "cust"), contact] {
            let input = validate_by(&who, &form).unwrap();
            // A new case: neither field is taken from the form.
            let created = with_form(&who, &draft, None, input.clone(), t.clone(), sector.clone());
            assert_eq!((created.direct_assign_lawyer.as_deref(), created.short_internal_description.as_str()), (None, ""));
            assert_eq!(created.knowledge_sector, None);
            // An edit keeps what staff set.
            let mut staffed = draft.clone();
            staffed.direct_assign_lawyer = Some("staff's pick".into());
            staffed.short_internal_description = "staff's words".into();
            staffed.knowledge_sector = Some(KnowledgeSector { id: 8, name: "Arbetsrätt".into(), name_en: None });
            let edited = with_form(&who, &staffed, Some(&staffed), input, t.clone(), sector.clone());
            assert_eq!(edited.knowledge_sector.as_ref().map(|s| s.id), Some(8));
            assert_eq!(edited.direct_assign_lawyer.as_deref(), Some("staff's pick"));
            assert_eq!(edited.short_internal_description, "staff's words");
        }
        // Staff set both; a lawyer sets the internal description and names
        // only themselves on their own new case.
        let input = validate(&form).unwrap();
        let by_sales = with_form(&user(Role::SalesPerson, "sp"), &draft, None, input.clone(), t.clone(), sector.clone());
        assert_eq!(by_sales.knowledge_sector, sector);
        assert_eq!(
            (by_sales.direct_assign_lawyer.as_deref(), by_sales.short_internal_description.as_str()),
            (Some("law"), "chosen by the customer")
        );
        let other = with_form(&user(Role::Lawyer, "other"), &draft, None, input.clone(), t.clone(), None);
        assert_eq!(other.knowledge_sector, None);
        assert_eq!((other.direct_assign_lawyer.as_deref(), other.short_internal_description.as_str()), (None, "chosen by the customer"));
        let own = with_form(&user(Role::Lawyer, "law"), &draft, None, input, t, sector.clone());
        assert_eq!(own.knowledge_sector, sector);
        assert_eq!(own.direct_assign_lawyer.as_deref(), Some("law"));
    }

    #[test]
    fn the_knowledge_sector_is_an_id_or_none() {
        let form = |v: Option<serde_json::Value>| CaseForm {
            subject: "S".into(),
            description: "D".into(),
            case_type: Some(serde_json::json!(1)),
            estimated_hours: Some(serde_json::json!("2")),
            knowledge_sector: v,
            ..Default::default()
        };
        assert_eq!(validate(&form(None)).unwrap().knowledge_sector, None);
        assert_eq!(validate(&form(Some(serde_json::json!("")))).unwrap().knowledge_sector, None);
        assert_eq!(validate(&form(Some(serde_json::json!(3)))).unwrap().knowledge_sector, Some(3));
        assert_eq!(validate(&form(Some(serde_json::json!(" 4 ")))).unwrap().knowledge_sector, Some(4));
        for bad in [serde_json::json!("x"), serde_json::json!(-1), serde_json::json!([1])] {
            assert_eq!(field_keys(validate(&form(Some(bad.clone()))), "knowledge_sector"), [Msg::UnknownKnowledgeSector], "{bad}");
        }
    }

    #[test]
    fn who_may_edit() {
        let admin = user(Role::Admin, "adm");
        let law = user(Role::Lawyer, "law");
        let other = user(Role::Lawyer, "other");
        let sales = user(Role::SalesPerson, "sp");
        let cust = user(Role::Customer, "cust");
        let stranger = user(Role::Customer, "someone-else");
        let mut contact = user(Role::CustomerContact, "cc");
        let statuses = [Draft, Waiting, Inprogress, CaseStatus::Complete];
        for s in statuses {
            let c = case(s, if matches!(s, Inprogress | CaseStatus::Complete) { Some("law") } else { None });
            assert!(may_edit(&admin, &c), "{s:?}");
            assert_eq!(may_edit(&sales, &c), s != CaseStatus::Complete, "{s:?}");
            assert_eq!(may_edit(&law, &c), s == Inprogress, "{s:?}");
            assert!(!may_edit(&other, &c), "{s:?}");
            assert_eq!(may_edit(&cust, &c), s == Draft, "{s:?}");
            assert!(!may_edit(&stranger, &c), "{s:?}");
            contact.permissions = vec![Permission::ViewAllCases];
            assert!(!may_edit(&contact, &c), "{s:?}");
            contact.permissions = vec![Permission::AddCase, Permission::ViewAllCases];
            assert_eq!(may_edit(&contact, &c), s == Draft, "{s:?}");
        }
        // A lawyer's own draft: they see and edit it until staff verify it;
        // a lawyer staff merely named sees it but does not edit it.
        let mut own = case(Draft, None);
        own.direct_assign_lawyer = Some("law".into());
        own.created_by = "law".into();
        assert!(may_view(&law, &own) && may_edit(&law, &own));
        assert!(!may_view(&other, &own) && !may_edit(&other, &own));
        assert_eq!(lawyer_of_list(&own), Some("law"));
        own.created_by = "sp".into();
        assert!(may_view(&law, &own) && !may_edit(&law, &own));
        own.status = Waiting;
        assert_eq!(lawyer_of_list(&own), None);
        assert!(!may_edit(&law, &own));
    }

    #[test]
    fn every_transition_allowed_and_refused() {
        let admin = user(Role::Admin, "adm");
        let law = user(Role::Lawyer, "law");
        let other = user(Role::Lawyer, "other");
        let sales = user(Role::SalesPerson, "sp");
        let cust = user(Role::Customer, "cust");
        let contact = user(Role::CustomerContact, "cc");
        let statuses = [Draft, Waiting, Inprogress, CaseStatus::Complete, CaseStatus::Withdrawn];
        let ts = [Publish, Accept, Transition::Complete, Reopen, Transfer, Transition::Withdraw];
        for s in statuses {
            for t in ts {
                for u in [&admin, &law, &other, &sales, &cust, &contact] {
                    let c = case(s, if matches!(s, Inprogress | CaseStatus::Complete) { Some("law") } else { None });
                    let got = transition(u, &c, t);
                    let role = u.role().unwrap();
                    let expected: Result<CaseStatus, Msg> = match (t, role, s) {
                        (Publish, Role::Admin, Draft) => Ok(Waiting),
                        (Publish, _, _) => Err(STATUS_CHANGE_NOT_ALLOWED),
                        (Accept, Role::Lawyer, Waiting) => Ok(Inprogress),
                        (Accept, Role::Lawyer, _) => Err(ONLY_WAITING_CAN_START),
                        (Accept, _, _) => Err(STATUS_CHANGE_NOT_ALLOWED),
                        (Transition::Complete, Role::Admin, Inprogress) => Ok(CaseStatus::Complete),
                        (Transition::Complete, Role::Admin, _) => Err(ONLY_IN_PROGRESS_CAN_COMPLETE),
                        (Transition::Complete, Role::Lawyer, st) if u.uid == "law" && c.lawyer.is_some() => {
                            if st == Inprogress {
                                Ok(CaseStatus::Complete)
                            } else {
                                Err(ONLY_IN_PROGRESS_CAN_COMPLETE)
                            }
                        }
                        (Transition::Complete, _, _) => Err(STATUS_CHANGE_NOT_ALLOWED),
                        (Reopen, Role::Admin, CaseStatus::Complete) => Ok(Inprogress),
                        (Reopen, Role::Lawyer, CaseStatus::Complete) if u.uid == "law" => Ok(Inprogress),
                        (Reopen, _, _) => Err(STATUS_CHANGE_NOT_ALLOWED),
                        (Transfer, Role::Admin, Inprogress) => Ok(Waiting),
                        (Transfer, Role::Lawyer, Inprogress) if u.uid == "law" => Ok(Waiting),
                        (Transfer, _, _) => Err(STATUS_CHANGE_NOT_ALLOWED),
                        // The customer side's own draft, taken back by whoever may edit it.
                        (Transition::Withdraw, Role::Customer | Role::CustomerContact, st)
                            if may_view(u, &c) && holds(u, Permission::AddCase) =>
                        {
                            if st == Draft {
                                Ok(CaseStatus::Withdrawn)
                            } else {
                                Err(Msg::OnlyDraftCanBeWithdrawn)
                            }
                        }
                        (Transition::Withdraw, _, _) => Err(STATUS_CHANGE_NOT_ALLOWED),
                    };
                    assert_eq!(got.as_ref().map(|m| m.status).map_err(|e| *e), expected, "{t:?} by {} ({role:?}) from {s:?}", u.uid);
                }
            }
        }
    }

    #[test]
    fn accept_assigns_and_transfer_clears_the_lawyer() {
        let law = user(Role::Lawyer, "law");
        let m = transition(&law, &case(Waiting, None), Accept).unwrap();
        assert_eq!(m.lawyer.as_deref(), Some("law"));
        let m = transition(&law, &case(Inprogress, Some("law")), Transfer).unwrap();
        assert_eq!(m.lawyer, None);
        let mut c = case(Draft, None);
        c.direct_assign_lawyer = Some("law".into());
        let m = transition(&user(Role::Admin, "a"), &c, Publish).unwrap();
        assert_eq!(m, Moved { status: Inprogress, lawyer: Some("law".into()) });
    }

    #[test]
    fn visibility() {
        let c = case(Waiting, None);
        assert!(may_view(&user(Role::Lawyer, "any"), &c));
        let c = case(Inprogress, Some("law"));
        assert!(may_view(&user(Role::Lawyer, "law"), &c));
        assert!(!may_view(&user(Role::Lawyer, "other"), &c));
        assert!(may_view(&user(Role::Customer, "cust"), &c));
        assert!(may_view(&user(Role::CustomerContact, "cc"), &c));
        assert!(!may_view(&user(Role::Customer, "someone"), &c));
        assert!(may_view(&user(Role::SalesPerson, "sp"), &c));
    }

    #[test]
    fn a_contact_without_view_all_cases_sees_only_the_cases_it_created() {
        let mut own = user(Role::CustomerContact, "cc");
        own.permissions = vec![Permission::AddCase];
        let mut c = case(Inprogress, Some("law"));
        assert!(!may_view(&own, &c), "another's case of the company");
        assert!(!may_edit(&own, &case(Draft, None)));
        c.created_by = "cc".into();
        assert!(may_view(&own, &c));
        let mut draft = case(Draft, None);
        draft.created_by = "cc".into();
        assert!(may_edit(&own, &draft));
        // Another company's case stays hidden whoever made it.
        c.customer = "someone-else".into();
        assert!(!may_view(&own, &c));
        // Every list of the contact asks only for its own cases.
        for word in ["", "active", "draft", "closed", "all", "waiting"] {
            match list_plan(&own, word).unwrap() {
                CaseListPlan::CreatedBy(uid, _) => assert_eq!(uid, "cc"),
                other => panic!("{word}: {other:?}"),
            }
        }
        assert!(matches!(list_plan(&user(Role::CustomerContact, "cc"), "").unwrap(), CaseListPlan::Customer(..)));
    }

    #[test]
    fn spec_section_5_required_fields() {
        let err = validate(&CaseForm::default()).unwrap_err();
        let f = err.fields();
        assert_eq!(f["subject"], vec![Msg::CaseSubjectRequired]);
        assert_eq!(f["description"], vec![Msg::CaseDescriptionRequired]);
        assert_eq!(f["type"], vec![Msg::CaseTypeRequired]);
        assert_eq!(f["estimated_hours"], vec![Msg::EstimatedHoursRequired]);
        let form = CaseForm {
            subject: " Lease ".into(),
            description: "d".into(),
            case_type: Some(serde_json::json!(3)),
            estimated_hours: Some(serde_json::json!("1,5")),
            start_date: Some("2026-01-10".into()),
            deadline: Some("2026-01-01".into()),
            ..Default::default()
        };
        assert_eq!(validate(&form).unwrap_err().fields()["deadline"], vec![Msg::DeadlineBeforeStart]);
        let form = CaseForm { deadline: None, ..form };
        let ok = validate(&form).unwrap();
        assert_eq!(ok.subject, "Lease");
        assert_eq!(ok.estimated_hours, Some(Hundredths(150)));
        let bad = CaseForm { estimated_hours: Some(serde_json::json!("0")), ..form.clone() };
        assert_eq!(validate(&bad).unwrap_err().fields()["estimated_hours"], vec![Msg::HourMin]);
        // Zero-width spaces are no subject; escapes and overrides are stripped.
        let blank = CaseForm { subject: "\u{200B}\u{200B}".into(), description: "\u{FEFF}".into(), ..form.clone() };
        let f = validate(&blank).unwrap_err().fields();
        assert_eq!(f["subject"], vec![Msg::CaseSubjectRequired]);
        assert_eq!(f["description"], vec![Msg::CaseDescriptionRequired]);
        let dirty = CaseForm { description: "a\u{1b}[31m\r\nb\u{202E}".into(), ..form.clone() };
        assert_eq!(validate(&dirty).unwrap().description, "a\nb");
        // The customer side may leave the estimate out; staff may not.
        let none = CaseForm { estimated_hours: None, ..form };
        let customer = user(Role::Customer, "c");
        assert_eq!(validate_by(&customer, &none).unwrap().estimated_hours, None);
        assert_eq!(validate_by(&customer, &bad).unwrap_err().fields()["estimated_hours"], vec![Msg::HourMin]);
        assert_eq!(
            validate_by(&user(Role::SalesPerson, "s"), &none).unwrap_err().fields()["estimated_hours"],
            vec![Msg::EstimatedHoursRequired]
        );
    }

    #[test]
    fn address_country_is_a_code_and_the_post_code_follows_it() {
        let base = CaseForm {
            subject: "Lease".into(),
            description: "d".into(),
            case_type: Some(serde_json::json!(3)),
            estimated_hours: Some(serde_json::json!(2)),
            ..Default::default()
        };
        let with = |country: &str, post_code: &str| CaseForm {
            address: CaseAddress { address_1: "Gata 1".into(), city: "Stad".into(), country: country.into(), post_code: post_code.into() },
            ..base.clone()
        };
        assert_eq!(validate(&with("se", "11122")).unwrap().address.country, "SE");
        assert_eq!(validate(&with("", "11122")).unwrap().address.country, "");
        assert_eq!(validate(&with("Sweden", "11122")).unwrap_err().fields()["address.country"], vec![Msg::InvalidCountry]);
        assert_eq!(validate(&with("XK", "")).unwrap_err().fields()["address.country"], vec![Msg::InvalidCountry]);
        // Swedish post codes are five digits; abroad the form differs.
        assert_eq!(validate(&with("SE", "0150")).unwrap_err().fields()["address.post_code"], vec![Msg::InvalidPostCode]);
        assert_eq!(validate(&with("NO", "0150")).unwrap().address.post_code, "0150");
        assert_eq!(validate(&with("GB", "SW1A 1AA")).unwrap().address.post_code, "SW1A 1AA");
        assert_eq!(validate(&with("GB", "SW1A<1AA>")).unwrap_err().fields()["address.post_code"], vec![Msg::InvalidPostCode]);
    }

    #[test]
    fn a_stored_country_name_is_read_as_its_code() {
        let a: CaseAddress = serde_json::from_value(serde_json::json!({"country": "Sweden"})).unwrap();
        assert_eq!(a.country, "SE");
        let a: CaseAddress = serde_json::from_value(serde_json::json!({"country": "Atlantis"})).unwrap();
        assert_eq!(a.country, "Atlantis", "an unknown text is kept, not lost");
        let a: CaseAddress = serde_json::from_value(serde_json::json!({})).unwrap();
        assert_eq!(a.country, "");
    }

    #[test]
    fn hour_rules() {
        let form = HourForm { hour: Some(serde_json::json!("1,5")), date: Some("2026-03-01".into()), ..Default::default() };
        let ok = validate_hours(&form).unwrap();
        assert_eq!(ok.hour, Hundredths(150));
        assert_eq!(
            field_keys(validate_hours(&HourForm { hour: Some(serde_json::json!("-1")), ..form.clone() }), "hour"),
            [Msg::InvalidHours]
        );
        assert_eq!(field_keys(validate_hours(&HourForm { hour: None, ..form.clone() }), "hour"), [Msg::HourMin]);
        assert_eq!(field_keys(validate_hours(&HourForm { date: None, ..form }), "date"), [Msg::Required]);
        let c = case(Inprogress, Some("law"));
        assert_eq!(hour_author(&user(Role::Lawyer, "law"), &c, None).unwrap(), "law");
        assert_eq!(hour_author(&user(Role::Lawyer, "x"), &c, None).unwrap_err().key(), CASE_NOT_ASSIGNED);
        assert_eq!(hour_author(&user(Role::Admin, "a"), &c, None).unwrap_err().key(), ONLY_LAWYER_ENTERS_HOURS);
        assert_eq!(hour_author(&user(Role::Admin, "a"), &c, Some("law")).unwrap(), "law");
        assert_eq!(hour_author(&user(Role::Customer, "cust"), &c, None).unwrap_err().status(), 403);
    }
}

//! Who may do what (spec §5, §6): the one place the server asks.
//!
//! Every use case asks [`may`] (or [`require`], which also picks the answer
//! a refusal gets) instead of matching on roles itself. The rules that need
//! a case's state (its status and lawyer) are in [`case`]; a customer
//! contact's permissions are checked by [`permission`].

pub mod case;
pub mod people;
pub mod permission;

pub use case::*;
pub use people::*;
pub use permission::holds;

use crate::domain::case::{Case, CreateVia};
use crate::domain::customer::CustomerState;
use crate::domain::permissions::Permission;
use crate::domain::{Role, User};
use crate::error::{ApiError, Msg};

/// An action on a resource. Variants carry the resource when the answer
/// depends on it.
#[derive(Clone, Copy, Debug)]
pub enum Action<'a> {
    /// Packages, service plans, knowledge sectors, case types, departments,
    /// business sectors, company connections: admin only.
    ManageCatalogue,
    /// The catalogue as staff see it (every entry, not only public ones) and
    /// the option lists of staff forms: admin, sales persons, lawyers.
    ReadStaffCatalogue,
    /// Create, edit, list and (de)activate lawyers and sales persons: admin
    /// only (spec §6, 'only admin creates lawyers and sales persons').
    ManageStaff,
    /// The lawyer dropdown: admin, sales persons, lawyers.
    PickLawyer,
    /// Create and edit customers and add subscriptions for them: admin and
    /// sales persons.
    ManageCustomers,
    /// Customer lists, details and dropdowns: admin, sales persons, lawyers.
    ReadCustomers,
    /// The customer list of one state (`None`: every state): admin any;
    /// sales persons all but pending; lawyers active and inactive.
    ListCustomers { state: Option<CustomerState> },
    /// Approve pending customers, (de)activate users, resend activation and
    /// password links, the entity counts: admin only.
    AdministerAccounts,
    /// A customer's subscription rows (`customer/{uid}/`): staff and internal
    /// lawyers, the customer itself and its contacts.
    ReadCustomerAccount { customer_uid: &'a str },
    /// Change, activate or delete a subscription row: admin and sales persons.
    ManageSubscriptions,
    /// A manual (custom) package: admin only (spec §6).
    SellCustomPackage,
    /// Buy a package or a service plan for one's own company: the customer.
    BuyForOwnCompany,
    /// The CSV time report of a subscription row (a row action of the
    /// subscriptions table, spec §4): admin, sales persons, lawyers. Which
    /// of its lines a caller reads is [`Action::ReadCaseReport`]'s answer.
    ReadTimeReport,
    /// The hours of one case in a report (the case's hours workbook, the
    /// lines of a subscription row's time report): admin and sales persons
    /// any case; a lawyer only a case assigned to them (or their own draft
    /// awaiting verification), never one of the available pool; the
    /// customer side its own company's cases.
    ReadCaseReport(&'a Case),
    /// The conflict-of-interest search: admin and lawyers.
    SearchConflicts,
    /// The audit of conflict searches: admin.
    ReadConflictAudit,
    /// The whole audit trail: admin.
    ReadAudit,
    /// The trail of one's own company's data (who at the firm opened its
    /// cases and documents): the customer.
    ReadOwnAudit,
    /// The debt-collection hand-overs (customers' account applications and
    /// claims for the collection agency): read them, mark them done, record
    /// what the agency reports. Admin only (the office).
    HandOverInkasso,
    /// Open a case by one of the creation calls.
    CreateCase(CreateVia),
    /// Read a case (and its history, hours and documents).
    ViewCase(&'a Case),
    /// Edit a case's fields.
    EditCase(&'a Case),
    /// Internal notes and the short internal description: the provider's
    /// people (admin, sales persons, lawyers), never the customer side. The
    /// same people set the short internal description on a case they create
    /// or edit; on the customer side's forms it is ignored.
    SeeInternal,
    /// Choose a case's direct-assign lawyer (who gets the case on
    /// publishing, skipping the available pool): admin and sales persons. A
    /// lawyer's own new case names the lawyer (the service sets it); the
    /// customer side's forms never set it.
    DirectAssign,
    /// The own profile page (names, phone, image): everyone but admin (spec §6).
    EditOwnProfile,
    /// Ask for and read a customer's data exports (GDPR art. 15 and 20):
    /// the customer itself (its account, not its contacts) and admin.
    ExportCustomerData { customer_uid: &'a str },
    /// Ask to be forgotten (GDPR art. 17): the customer itself (its
    /// account, never a contact, never staff on its behalf).
    RequestErasure { customer_uid: &'a str },
    /// Approve or refuse an erasure, list every data-rights request: admin.
    DecideErasure,
    /// Add and remove a case's followers: see [`may_manage_followers`].
    ManageFollowers(&'a Case),
}

/// Whether `user` may take `action`.
pub fn may(user: &User, action: Action<'_>) -> bool {
    let role = user.role();
    let admin = role == Some(Role::Admin);
    let sales = role == Some(Role::SalesPerson);
    let lawyer = role == Some(Role::Lawyer);
    match action {
        Action::ManageCatalogue
        | Action::ManageStaff
        | Action::AdministerAccounts
        | Action::SellCustomPackage
        | Action::ReadConflictAudit
        | Action::ReadAudit
        | Action::HandOverInkasso => admin,
        Action::ReadStaffCatalogue | Action::PickLawyer | Action::ReadCustomers | Action::SeeInternal | Action::ReadTimeReport => {
            admin || sales || lawyer
        }
        Action::ManageCustomers | Action::ManageSubscriptions | Action::DirectAssign => admin || sales,
        Action::ListCustomers { state } => {
            admin
                || (sales && state != Some(CustomerState::Pending))
                || (lawyer && matches!(state, Some(CustomerState::Active | CustomerState::Inactive)))
        }
        Action::EditOwnProfile => role.is_some() && !admin,
        Action::ExportCustomerData { customer_uid } => admin || (role == Some(Role::Customer) && user.uid == customer_uid),
        Action::RequestErasure { customer_uid } => role == Some(Role::Customer) && user.uid == customer_uid,
        Action::DecideErasure => admin,
        Action::ReadCustomerAccount { customer_uid } => match role {
            Some(Role::Admin | Role::SalesPerson) => true,
            // External lawyers are another firm's people: a customer's
            // subscriptions (what it bought, for how much) are not theirs.
            Some(Role::Lawyer) => user.user_sub_type != Some(crate::domain::UserSubType::External),
            Some(Role::Customer) => user.uid == customer_uid,
            Some(Role::CustomerContact) => user.customer_id.as_deref() == Some(customer_uid),
            None => false,
        },
        Action::BuyForOwnCompany | Action::ReadOwnAudit => role == Some(Role::Customer),
        Action::SearchConflicts => admin || lawyer,
        Action::CreateCase(via) => may_create(user, via) && (via != CreateVia::Customer || holds(user, Permission::AddCase)),
        Action::ViewCase(c) => may_view(user, c),
        Action::ManageFollowers(c) => may_manage_followers(user, c),
        Action::EditCase(c) => may_edit(user, c),
        Action::ReadCaseReport(c) => match role {
            Some(Role::Lawyer) => lawyer_of_list(c) == Some(user.uid.as_str()),
            _ => may_view(user, c),
        },
    }
}

/// [`may`], answered as the API answers a refusal: a case the caller may not
/// see does not exist for them (404, so ids cannot be probed); staff
/// management names the spec's rule; everything else is 403.
pub fn require(user: &User, action: Action<'_>) -> Result<(), ApiError> {
    if may(user, action) {
        return Ok(());
    }
    Err(match action {
        Action::ViewCase(_) | Action::ReadCaseReport(_) => ApiError::NotFound,
        Action::ManageStaff => ApiError::ForbiddenBy(Msg::OnlyAdminCreatesStaff),
        _ => ApiError::Forbidden,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::user::tests_support::with_role;

    fn user(role: Role) -> User {
        with_role(role, &format!("{role:?}"), "Customer", &[Permission::ViewAllCases])
    }

    const ROLES: [Role; 5] = [Role::Admin, Role::SalesPerson, Role::Lawyer, Role::Customer, Role::CustomerContact];

    fn who(action: Action<'_>) -> Vec<Role> {
        ROLES.into_iter().filter(|r| may(&user(*r), action)).collect()
    }

    #[test]
    fn every_case_list_word_is_some_roles_and_no_other_word_is() {
        let read_by_some = |word: &str| ROLES.iter().any(|r| case::list_plan(&user(*r), word).is_ok());
        for word in case::LIST_WORDS {
            assert!(read_by_some(word) && read_by_some(&format!(" {} ", word.to_ascii_uppercase())), "{word}");
        }
        assert!(read_by_some(""), "none is my");
        for other in ["mi", "alla", "open", "my cases", "all,my", "\u{1f}my"] {
            assert!(!read_by_some(other), "{other}");
        }
    }

    #[test]
    fn role_actions_follow_the_spec() {
        use Role::*;
        assert_eq!(who(Action::ManageCatalogue), [Admin]);
        assert_eq!(who(Action::ManageStaff), [Admin]);
        assert_eq!(who(Action::AdministerAccounts), [Admin]);
        assert_eq!(who(Action::SellCustomPackage), [Admin]);
        assert_eq!(who(Action::ReadConflictAudit), [Admin]);
        assert_eq!(who(Action::ReadAudit), [Admin]);
        assert_eq!(who(Action::HandOverInkasso), [Admin]);
        assert_eq!(who(Action::ReadOwnAudit), [Customer]);
        // The customer's own data (uid "Customer"), never its contact's, nor another customer's.
        assert_eq!(who(Action::ExportCustomerData { customer_uid: "Customer" }), [Admin, Customer]);
        assert_eq!(who(Action::ExportCustomerData { customer_uid: "another" }), [Admin]);
        assert_eq!(who(Action::RequestErasure { customer_uid: "Customer" }), [Customer]);
        assert_eq!(who(Action::RequestErasure { customer_uid: "another" }), Vec::<Role>::new());
        assert_eq!(who(Action::DecideErasure), [Admin]);
        assert_eq!(who(Action::ManageCustomers), [Admin, SalesPerson]);
        assert_eq!(who(Action::ManageSubscriptions), [Admin, SalesPerson]);
        assert_eq!(who(Action::ReadCustomers), [Admin, SalesPerson, Lawyer]);
        assert_eq!(who(Action::ReadStaffCatalogue), [Admin, SalesPerson, Lawyer]);
        assert_eq!(who(Action::PickLawyer), [Admin, SalesPerson, Lawyer]);
        assert_eq!(who(Action::SeeInternal), [Admin, SalesPerson, Lawyer]);
        assert_eq!(who(Action::ReadTimeReport), [Admin, SalesPerson, Lawyer]);
        assert_eq!(who(Action::SearchConflicts), [Admin, Lawyer]);
        assert_eq!(who(Action::DirectAssign), [Admin, SalesPerson]);
        assert_eq!(who(Action::BuyForOwnCompany), [Customer]);
        assert_eq!(who(Action::CreateCase(CreateVia::Staff)), [Admin, SalesPerson]);
        assert_eq!(who(Action::CreateCase(CreateVia::Lawyer)), [Lawyer]);
        assert_eq!(who(Action::CreateCase(CreateVia::Customer)), [Customer]);
        assert_eq!(who(Action::EditOwnProfile), [SalesPerson, Lawyer, Customer, CustomerContact]);
    }

    #[test]
    fn the_firm_is_admin_lawyers_and_sales_persons_as_written_in_the_audit() {
        let firm: Vec<Role> = ROLES.into_iter().filter(|r| is_firm_role(user(*r).role().map(|r| r.as_str()))).collect();
        assert_eq!(firm, [Role::Admin, Role::SalesPerson, Role::Lawyer]);
        assert!(!is_firm_role(None), "the system is not the firm's people");
        assert!(!is_firm_role(Some("Admin")), "roles are written in lower case");
    }

    #[test]
    fn customer_lists_by_role_and_state() {
        use Role::*;
        let list = |state| who(Action::ListCustomers { state });
        assert_eq!(list(Some(CustomerState::Pending)), [Admin]);
        assert_eq!(list(Some(CustomerState::Active)), [Admin, SalesPerson, Lawyer]);
        assert_eq!(list(Some(CustomerState::Inactive)), [Admin, SalesPerson, Lawyer]);
        assert_eq!(list(None), [Admin, SalesPerson]);
    }

    #[test]
    fn the_customer_side_reads_only_its_own_company() {
        use Role::*;
        assert_eq!(who(Action::ReadCustomerAccount { customer_uid: "Customer" }), ROLES);
        assert_eq!(who(Action::ReadCustomerAccount { customer_uid: "someone-else" }), [Admin, SalesPerson, Lawyer]);
        let mut external = user(Lawyer);
        external.user_sub_type = Some(crate::domain::UserSubType::External);
        assert!(!may(&external, Action::ReadCustomerAccount { customer_uid: "someone-else" }));
        let mut contact = user(CustomerContact);
        contact.permissions = vec![Permission::AddCase];
        assert!(may(&contact, Action::CreateCase(CreateVia::Customer)));
    }

    #[test]
    fn refusals_answer_as_the_api_does() {
        let sales = user(Role::SalesPerson);
        assert_eq!(require(&sales, Action::ManageStaff).unwrap_err().key(), Msg::OnlyAdminCreatesStaff);
        assert_eq!(require(&sales, Action::ManageCatalogue).unwrap_err().status(), 403);
        assert!(require(&user(Role::Admin), Action::ManageCatalogue).is_ok());
    }

    #[test]
    fn a_lawyer_reads_reports_only_of_cases_assigned_to_them() {
        use crate::domain::case::CaseStatus;
        use Role::*;
        let mut c = company_case();
        assert_eq!(who(Action::ReadCaseReport(&c)), ROLES);
        c.lawyer = Some("another lawyer".into());
        assert_eq!(who(Action::ReadCaseReport(&c)), [Admin, SalesPerson, Customer, CustomerContact]);
        // The available pool: a lawyer may see the case, not its hours.
        c.status = CaseStatus::Waiting;
        c.lawyer = None;
        assert!(may(&user(Lawyer), Action::ViewCase(&c)));
        assert!(!may(&user(Lawyer), Action::ReadCaseReport(&c)));
        c.customer = "someone-else".into();
        assert_eq!(who(Action::ReadCaseReport(&c)), [Admin, SalesPerson]);
        assert_eq!(require(&user(Lawyer), Action::ReadCaseReport(&c)).unwrap_err().status(), 404);
    }

    /// A case of company "Customer" in progress with "Lawyer", for the follower rules.
    fn company_case() -> Case {
        crate::domain::case::tests_support::sample(
            "Customer",
            "SalesPerson",
            crate::domain::case::CaseStatus::Inprogress,
            Some("Lawyer"),
            chrono::Utc::now(),
        )
    }

    #[test]
    fn a_contact_sees_the_cases_it_created_or_follows_and_who_manages_followers() {
        // Every role, with and without "view all cases", as the case's
        // creator, a follower, or neither.
        for role in ROLES {
            for view_all in [false, true] {
                for (created, followed) in [(false, false), (true, false), (false, true)] {
                    let mut u = user(role);
                    u.permissions = if view_all { vec![Permission::ViewAllCases] } else { vec![] };
                    let mut c = company_case();
                    if created {
                        c.created_by = u.uid.clone();
                    }
                    if followed {
                        c.followers = vec![u.uid.clone()];
                    }
                    let view = may(&u, Action::ViewCase(&c));
                    let manage = may(&u, Action::ManageFollowers(&c));
                    let case = format!("{role:?} view_all={view_all} created={created} followed={followed}");
                    match role {
                        Role::Admin | Role::SalesPerson | Role::Customer => assert!(view && manage, "{case}"),
                        Role::Lawyer => assert!(view && manage, "{case}: the assigned lawyer"),
                        Role::CustomerContact => {
                            assert_eq!(view, view_all || created || followed, "{case}");
                            // A follower that neither created the case nor sees all may not bring in others.
                            assert_eq!(manage, view_all || created, "{case}");
                            // ... but may always stop following.
                            assert_eq!(may_remove_follower(&u, &c, &u.uid), view_all || created || followed, "{case}");
                            assert_eq!(may_remove_follower(&u, &c, "someone"), manage, "{case}");
                        }
                    }
                }
            }
        }
        // Another company's contact: neither created nor followed counts.
        let mut other = user(Role::CustomerContact);
        other.customer_id = Some("another company".into());
        let mut c = company_case();
        c.created_by = other.uid.clone();
        c.followers = vec![other.uid.clone()];
        assert!(!may(&other, Action::ViewCase(&c)));
        assert!(!may(&other, Action::ManageFollowers(&c)));
        assert!(!may_remove_follower(&other, &c, &other.uid));
        assert_eq!(require(&other, Action::ViewCase(&c)).unwrap_err().status(), 404);
        // A lawyer who is not the case's lawyer (an available case they may look at) manages no followers.
        c.status = crate::domain::case::CaseStatus::Waiting;
        c.lawyer = None;
        assert!(may(&user(Role::Lawyer), Action::ViewCase(&c)));
        assert!(!may(&user(Role::Lawyer), Action::ManageFollowers(&c)));
    }

    #[test]
    fn only_the_case_companys_active_users_may_follow() {
        let c = company_case();
        assert!(may_follow(&user(Role::Customer), &c));
        assert!(may_follow(&user(Role::CustomerContact), &c));
        let mut inactive = user(Role::CustomerContact);
        inactive.active = false;
        assert!(!may_follow(&inactive, &c));
        let mut other = user(Role::CustomerContact);
        other.customer_id = Some("another company".into());
        assert!(!may_follow(&other, &c));
        for staff in [Role::Admin, Role::SalesPerson, Role::Lawyer] {
            assert!(!may_follow(&user(staff), &c), "{staff:?}");
        }
    }
}

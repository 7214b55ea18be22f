//! Who may do what with a case (spec §5, §6): create, read, edit, move its
//! status, enter and invoice hours, and which list a role reads.

use crate::domain::case::{Case, CaseListPlan, CaseStatus, CreateVia, Transition, CASE_NOT_ASSIGNED, ONLY_LAWYER_ENTERS_HOURS};
use crate::domain::permissions::Permission;
use crate::domain::{Role, User};
use crate::error::{ApiError, Msg};

use super::people::{acting_customer, is_customer_side};
use super::permission::holds;

/// Every `status` word of `case/list/?status=` some role reads (in any
/// ASCII letter case, spaces around it; none is `my`): `mine` and
/// `my-cases` are staff's, `all` is not a lawyer's.
pub const LIST_WORDS: [&str; 12] =
    ["my", "mine", "my-cases", "all", "active", "inprogress", "pending", "draft", "available", "waiting", "closed", "complete"];

/// The list a role sees for a `status` word of `case/list/?status=`.
pub fn list_plan(user: &User, status: &str) -> Result<CaseListPlan, ApiError> {
    use CaseStatus::*;
    let word = status.trim().to_ascii_lowercase();
    let invalid = || ApiError::bad(Msg::InvalidStatus);
    Ok(match user.role() {
        // 'mine' is staff's "my cases": the cases they opened, whatever their
        // status (admin has no assigned cases; the one they entered are theirs
        // to follow). 'all' is every case (the sales person's first tab).
        Some(Role::Admin | Role::SalesPerson) => match word.as_str() {
            "mine" | "my-cases" => CaseListPlan::CreatedBy(user.uid.clone(), vec![]),
            "all" => CaseListPlan::All,
            "" | "my" | "active" | "inprogress" => CaseListPlan::ByStatus(Inprogress),
            "pending" | "draft" => CaseListPlan::ByStatus(Draft),
            "available" | "waiting" => CaseListPlan::ByStatus(Waiting),
            "closed" | "complete" => CaseListPlan::ByStatus(Complete),
            _ => return Err(invalid()),
        },
        Some(Role::Lawyer) => match word.as_str() {
            "" | "my" | "active" | "inprogress" => CaseListPlan::Lawyer(user.uid.clone(), vec![Inprogress]),
            "available" | "waiting" => CaseListPlan::ByStatus(Waiting),
            "closed" | "complete" => CaseListPlan::Lawyer(user.uid.clone(), vec![Complete]),
            "pending" | "draft" => CaseListPlan::Lawyer(user.uid.clone(), vec![Draft]),
            _ => return Err(invalid()),
        },
        Some(Role::Customer | Role::CustomerContact) => {
            let c = acting_customer(user).ok_or(ApiError::Forbidden)?;
            let statuses = match word.as_str() {
                // "Active": published and not closed; drafts ("pending")
                // have their own tab.
                "" | "my" => vec![Waiting, Inprogress],
                "active" | "inprogress" => vec![Inprogress],
                "available" | "waiting" => vec![Waiting],
                "pending" | "draft" => vec![Draft],
                "closed" | "complete" => vec![Complete],
                "all" => vec![],
                _ => return Err(invalid()),
            };
            customer_side_plan(user, c, statuses)
        }
        None => return Err(ApiError::Forbidden),
    })
}

/// The customer side's list of `customer`'s cases in `statuses`: a contact
/// without `view_all_cases` reads the cases it opened (its own pointers,
/// which carry the status), everyone else the company's.
pub fn customer_side_plan(user: &User, customer: String, statuses: Vec<CaseStatus>) -> CaseListPlan {
    if user.role() == Some(Role::CustomerContact) && !holds(user, Permission::ViewAllCases) {
        CaseListPlan::CreatedBy(user.uid.clone(), statuses)
    } else {
        CaseListPlan::Customer(customer, statuses)
    }
}

pub fn may_create(user: &User, via: CreateVia) -> bool {
    matches!(
        (user.role(), via),
        (Some(Role::Admin | Role::SalesPerson), CreateVia::Staff)
            | (Some(Role::Customer | Role::CustomerContact), CreateVia::Customer)
            | (Some(Role::Lawyer), CreateVia::Lawyer)
    )
}

/// Who may read a case: admin and sales persons all; a lawyer the cases
/// assigned to them (or named for a draft: their 'pending' list) and the
/// available (Waiting) ones; the customer its own; a contact its company's
/// with `view_all_cases`, else (spec §3) "the cases it created or follows".
pub fn may_view(user: &User, case: &Case) -> bool {
    match user.role() {
        Some(Role::Admin | Role::SalesPerson) => true,
        Some(Role::Lawyer) => case.status == CaseStatus::Waiting || lawyer_of_list(case) == Some(user.uid.as_str()),
        Some(Role::Customer) => acting_customer(user).as_deref() == Some(case.customer.as_str()),
        Some(Role::CustomerContact) => {
            acting_customer(user).as_deref() == Some(case.customer.as_str())
                && (holds(user, Permission::ViewAllCases) || case.created_by == user.uid || follows(user, case))
        }
        None => false,
    }
}

/// Whether `user` follows `case`.
pub fn follows(user: &User, case: &Case) -> bool {
    case.followers.contains(&user.uid)
}

/// Who may add and remove a case's followers: on the customer side the
/// customer account, its contacts with "view all cases" (they see every
/// case of the company anyway) and the contact who created the case — a
/// follower who only follows may not bring in others. Of the provider's
/// people admin, sales persons and the case's own lawyer: the office opens
/// cases on a customer's behalf (then nobody on the customer side created
/// it) and a customer asks it to keep a colleague informed; followers are
/// always the case's own company's users, so this never shows a case
/// outside that company. A lawyer who merely may look at an available
/// case is not its lawyer yet.
pub fn may_manage_followers(user: &User, case: &Case) -> bool {
    if !may_view(user, case) {
        return false;
    }
    match user.role() {
        Some(Role::Admin | Role::SalesPerson | Role::Customer) => true,
        Some(Role::Lawyer) => lawyer_of_list(case) == Some(user.uid.as_str()),
        Some(Role::CustomerContact) => holds(user, Permission::ViewAllCases) || case.created_by == user.uid,
        None => false,
    }
}

/// Who may take `follower` off `case`'s followers: whoever may manage them,
/// and the follower itself ("anyone may stop following a case they follow").
pub fn may_remove_follower(user: &User, case: &Case, follower: &str) -> bool {
    may_manage_followers(user, case) || (follower == user.uid && follows(user, case) && may_view(user, case))
}

/// Who may follow `case`: the users of the case's own company (its
/// customer account and its active contacts), never anyone else's.
pub fn may_follow(target: &User, case: &Case) -> bool {
    target.active && is_customer_side(target) && acting_customer(target).as_deref() == Some(case.customer.as_str())
}

/// Who may edit the fields: admin and sales persons (not once closed, except
/// admin); the assigned lawyer while in progress; the customer side only
/// while the case is still a draft (a contact only with add_case: editing a
/// draft is part of 'create new cases').
pub fn may_edit(user: &User, case: &Case) -> bool {
    match user.role() {
        Some(Role::Admin) => true,
        Some(Role::SalesPerson) => case.status != CaseStatus::Complete,
        // A lawyer also completes the draft they opened, until staff verify it.
        Some(Role::Lawyer) => {
            (case.status == CaseStatus::Inprogress && is_assigned(user, case))
                || (case.status == CaseStatus::Draft && case.created_by == user.uid && lawyer_of_list(case) == Some(user.uid.as_str()))
        }
        Some(Role::Customer | Role::CustomerContact) => {
            case.status == CaseStatus::Draft && may_view(user, case) && holds(user, Permission::AddCase)
        }
        None => false,
    }
}

/// The lawyer whose own lists show the case: the assigned one, or while a
/// draft awaits verification the direct-assign lawyer (a lawyer's own new
/// case, or one staff named a lawyer for), so it shows as their pending case.
pub fn lawyer_of_list(case: &Case) -> Option<&str> {
    match (&case.lawyer, case.status) {
        (Some(l), _) => Some(l),
        (None, CaseStatus::Draft) => case.direct_assign_lawyer.as_deref(),
        (None, _) => None,
    }
}

pub fn is_assigned(user: &User, case: &Case) -> bool {
    case.lawyer.as_deref() == Some(user.uid.as_str())
}

/// Spec §6: only lawyers enter their own hours, on a case assigned to them;
/// admin must name the lawyer (who must be the assigned one). Returns the
/// lawyer the hours are for.
pub fn hour_author(user: &User, case: &Case, named_lawyer: Option<&str>) -> Result<String, ApiError> {
    let lawyer = match user.role() {
        Some(Role::Lawyer) => user.uid.clone(),
        Some(Role::Admin) => {
            named_lawyer.filter(|l| !l.trim().is_empty()).ok_or(ApiError::bad(ONLY_LAWYER_ENTERS_HOURS))?.trim().to_string()
        }
        _ => return Err(ApiError::ForbiddenBy(ONLY_LAWYER_ENTERS_HOURS)),
    };
    if case.lawyer.as_deref() != Some(lawyer.as_str()) {
        return Err(ApiError::bad(CASE_NOT_ASSIGNED));
    }
    if case.status != CaseStatus::Inprogress {
        return Err(ApiError::bad(Msg::CaseNotInProgress));
    }
    Ok(lawyer)
}

/// Who may mark a case's hour entries invoiced or not. Invoicing is
/// bookkeeping that usually follows the closing, so admin may do it on any
/// entry at any time (`Ok(None)`: every lawyer's entries); the assigned
/// lawyer only their own while they may still change them (`Ok(Some(uid))`).
pub fn invoicing_author(user: &User, case: &Case) -> Result<Option<String>, ApiError> {
    match user.role() {
        Some(Role::Admin) => Ok(None),
        _ => hour_author(user, case, None).map(Some),
    }
}

/// Who may move a case's status (spec §4), before its status is looked at:
/// admin publishes; a lawyer accepts an available case; admin or the
/// assigned lawyer completes, reopens and transfers; whoever on the customer
/// side may edit the draft (the customer; a contact with add_case) takes it
/// back.
pub fn may_move(user: &User, case: &Case, t: Transition) -> bool {
    let role = user.role();
    let admin = role == Some(Role::Admin);
    let assigned = role == Some(Role::Lawyer) && is_assigned(user, case);
    match t {
        Transition::Publish => admin,
        Transition::Accept => role == Some(Role::Lawyer),
        Transition::Complete | Transition::Reopen | Transition::Transfer => admin || assigned,
        Transition::Withdraw => is_customer_side(user) && may_view(user, case) && holds(user, Permission::AddCase),
    }
}

/// Whether `editor`'s form sets a case's direct-assign lawyer: staff
/// ([`super::Action::DirectAssign`]), and a lawyer naming themselves on their
/// own new case.
pub fn may_name_direct_lawyer(editor: &User, new_case: bool, lawyer: Option<&str>) -> bool {
    super::may(editor, super::Action::DirectAssign)
        || (new_case && editor.role() == Some(Role::Lawyer) && lawyer == Some(editor.uid.as_str()))
}

/// Whether the case's page offers `user` the hour form: the case is in
/// progress and the user is its assigned lawyer or admin (who names the
/// lawyer, see [`hour_author`]).
pub fn can_enter_hours(user: &User, case: &Case) -> bool {
    case.status == CaseStatus::Inprogress && (is_assigned(user, case) || user.role() == Some(Role::Admin))
}

/// Who may add and remove documents. Whoever may edit the case; besides, the
/// documents are how the customer and the lawyer exchange material during
/// the whole matter, so the customer side (the customer's own case), the
/// assigned lawyer and sales persons may add them as long as the case is not
/// closed — the fields themselves stay locked for the customer once staff
/// verified the case. A closed case's documents are a record: only admin
/// (who may edit anything) changes them.
pub fn may_manage_documents(user: &User, c: &Case) -> bool {
    if may_edit(user, c) {
        return true;
    }
    if c.status == CaseStatus::Complete {
        return false;
    }
    match user.role() {
        Some(Role::Admin | Role::SalesPerson) => true,
        Some(Role::Lawyer) => is_assigned(user, c),
        Some(Role::Customer | Role::CustomerContact) => may_view(user, c),
        None => false,
    }
}

/// Removing a document: the provider's side (admin, sales persons, the
/// assigned lawyer) any document they may manage; the customer side only
/// the ones that user uploaded, so a customer cannot make the lawyer's
/// material disappear.
pub fn may_remove_document(user: &User, c: &Case, uploaded_by: &str) -> bool {
    if !may_manage_documents(user, c) {
        return false;
    }
    match user.role() {
        Some(Role::Customer | Role::CustomerContact) => uploaded_by == user.uid,
        _ => true,
    }
}

/// Who writes in a case's conversation (spec §6, §8): its assigned lawyer
/// (`Ok(true)`) and its customer side (`Ok(false)`: the customer, a contact
/// with 'chat in cases'); nobody else.
pub fn writes_as_lawyer(user: &User, case: &Case) -> Result<bool, ApiError> {
    match user.role() {
        Some(Role::Lawyer) if is_assigned(user, case) => Ok(true),
        Some(Role::Lawyer) => Err(ApiError::bad(Msg::CaseNotAssigned)),
        Some(Role::Customer) => Ok(false),
        Some(Role::CustomerContact) if holds(user, Permission::ChatInCases) => Ok(false),
        Some(Role::CustomerContact) => Err(ApiError::Forbidden),
        _ => Err(ApiError::ForbiddenBy(Msg::OnlyLawyerOrCustomerMessages)),
    }
}

//! Who a user is and whom they act for: the facts every other rule starts
//! from. Only the policy reads a user's role; the rest of the code asks
//! these (a test keeps it so).

use crate::domain::permissions::Permission;
use crate::domain::{Role, User};
use crate::error::{ApiError, Msg};

use super::permission::holds;

/// Whether `user`'s account is of `role` (a named customer must be a
/// customer, a named lawyer a lawyer).
pub fn is(user: &User, role: Role) -> bool {
    user.role() == Some(role)
}

/// A lawyer or a sales person: the people admin creates and manages.
pub fn is_staff_person(user: &User) -> bool {
    matches!(user.role(), Some(Role::Lawyer | Role::SalesPerson))
}

/// Whether a role written down (an audit event's actor) is one of the
/// firm's people (admin, lawyers, sales persons), as opposed to the
/// customer side or no one (the system).
pub fn is_firm_role(role: Option<&str>) -> bool {
    [Role::Admin, Role::Lawyer, Role::SalesPerson].iter().any(|r| role == Some(r.as_str()))
}

/// The customer and its contacts, as opposed to the provider's people.
pub fn is_customer_side(user: &User) -> bool {
    matches!(user.role(), Some(Role::Customer | Role::CustomerContact))
}

/// The customer whose account `user` is (the customer itself, a contact's company).
pub fn customer_of(user: &User) -> Option<&str> {
    match user.role() {
        Some(Role::Customer) => Some(&user.uid),
        Some(Role::CustomerContact) => user.customer_id.as_deref(),
        _ => None,
    }
}

/// The customer a customer or contact acts for.
pub fn acting_customer(user: &User) -> Option<String> {
    customer_of(user).map(str::to_string)
}

/// Whose figures a caller reads in the statistics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Viewer {
    Admin,
    Lawyer(String),
    Sales(String),
    /// A customer or one of its contacts: the company's uid.
    Company(String),
}

/// The statistics' [`Viewer`] of `u`: admin the firm's, a lawyer and a sales
/// person their own, the customer side its company's.
pub fn viewer(u: &User) -> Result<Viewer, ApiError> {
    match u.role() {
        Some(Role::Admin) => Ok(Viewer::Admin),
        Some(Role::Lawyer) => Ok(Viewer::Lawyer(u.uid.clone())),
        Some(Role::SalesPerson) => Ok(Viewer::Sales(u.uid.clone())),
        Some(Role::Customer) => Ok(Viewer::Company(u.uid.clone())),
        Some(Role::CustomerContact) => u.customer_id.clone().map(Viewer::Company).ok_or(ApiError::Forbidden),
        _ => Err(ApiError::Forbidden),
    }
}

/// The lawyer a staff call about a lawyer's times is for: a lawyer
/// themselves; admin names one.
pub fn lawyer_for(user: &User, named: Option<&str>) -> Result<String, ApiError> {
    match (user.role(), named.map(str::trim).filter(|n| !n.is_empty())) {
        (Some(Role::Lawyer), _) => Ok(user.uid.clone()),
        (Some(Role::Admin), Some(n)) => Ok(n.to_string()),
        (Some(Role::Admin), None) => Err(ApiError::field("lawyer", Msg::Required)),
        _ => Err(ApiError::Forbidden),
    }
}

/// Whose ratings a caller reads: a lawyer their own; admin names the lawyer
/// (anyone else is refused as staff management is).
pub fn ratings_of(user: &User, named: Option<&str>) -> Result<String, ApiError> {
    if is(user, Role::Lawyer) {
        return Ok(user.uid.clone());
    }
    super::require(user, super::Action::ManageStaff)?;
    Ok(named.map(str::trim).filter(|l| !l.is_empty()).ok_or_else(|| ApiError::field("lawyer", Msg::Required))?.to_string())
}

/// Who manages a lawyer's offered times: the lawyer; admin for any lawyer.
pub fn may_manage_slots(user: &User, lawyer_uid: &str) -> Result<(), ApiError> {
    match user.role() {
        Some(Role::Admin) => Ok(()),
        Some(Role::Lawyer) if user.uid == lawyer_uid => Ok(()),
        _ => Err(ApiError::Forbidden),
    }
}

/// Who may cancel a booked meeting of `lawyer_uid` with `customer_uid`: its
/// lawyer, admin, and the customer side it was booked for.
pub fn may_cancel_meeting(user: &User, lawyer_uid: &str, customer_uid: &str) -> bool {
    match user.role() {
        Some(Role::Admin) => true,
        Some(Role::Lawyer) => user.uid == lawyer_uid,
        Some(Role::Customer | Role::CustomerContact) => customer_of(user) == Some(customer_uid),
        _ => false,
    }
}

/// Who writes tickets: the customer and its contacts, for their company.
pub fn ticket_customer(user: &User) -> Result<String, ApiError> {
    acting_customer(user).ok_or(ApiError::Forbidden)
}

/// Who sees a ticket of `customer_uid`: admin every one; the customer and
/// its contacts their company's.
pub fn may_view_ticket(user: &User, customer_uid: &str) -> bool {
    match user.role() {
        Some(Role::Admin) => true,
        Some(Role::Customer | Role::CustomerContact) => customer_of(user) == Some(customer_uid),
        _ => false,
    }
}

/// Whose contacts a caller manages: `Ok(None)` any customer's (admin, sales
/// persons; the customer is named per call), `Ok(Some(uid))` its own
/// company's (the customer; a contact with view_contact); 403 for lawyers,
/// accountless roles and contacts without view_contact.
pub fn contacts_of(user: &User) -> Result<Option<String>, ApiError> {
    match user.role() {
        Some(Role::Admin) | Some(Role::SalesPerson) => Ok(None),
        Some(Role::Customer) => Ok(Some(user.uid.clone())),
        Some(Role::CustomerContact) => {
            super::permission::require(user, Permission::ViewContact)?;
            user.customer_id.clone().map(Some).ok_or(ApiError::Forbidden)
        }
        _ => Err(ApiError::Forbidden),
    }
}

/// Whether a contact is refused an add-on service for want of its
/// permission (the customer and everyone else are not asked).
pub fn lacks_service_permission(user: &User, permission: Option<Permission>) -> bool {
    is(user, Role::CustomerContact) && permission.is_some_and(|p| !holds(user, p))
}

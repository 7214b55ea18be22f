//! The catalogue (spec §3, §6, §9): packages, service plans, the named lists
//! (knowledge sectors, case types, departments) and a customer's department.
//! Only admin changes it; customers and contacts see only the public
//! packages and plans.

use chrono::Utc;

use super::Context;
use crate::domain::catalogue::{NamedEntry, NamedKind, NamedRequest, NewPackage, NewServicePlan, Package, ServicePlan};
use crate::domain::policy::{self, Action};
use crate::domain::{Role, User};
use crate::error::{ApiError, FieldErrors, Msg};
/// Which catalogue an offer is in (packages or service plans): the routes name it.
pub use crate::store::catalogue::Offer;
use crate::store::idempotency::Once;

/// The counters that number packages and service plans.
const PACKAGE_COUNTER: &str = "package";
const SERVICE_PLAN_COUNTER: &str = "service_plan";

/// Staff see every entry (retired ones too, marked); customers and contacts
/// only those on offer.
fn visible<T>(caller: &User, all: Vec<T>, public: impl Fn(&T) -> bool) -> Vec<T> {
    if policy::may(caller, Action::ReadStaffCatalogue) {
        all
    } else {
        all.into_iter().filter(|x| public(x)).collect()
    }
}

/// Packages the caller may see, oldest first.
pub async fn packages(ctx: &Context, caller: &User) -> Result<Vec<Package>, ApiError> {
    Ok(visible(caller, ctx.store.list_offers::<Package>().await?, Package::on_offer))
}

/// The public packages and service plans, for anyone (the landing page's offer).
pub async fn public_offer(ctx: &Context) -> Result<(Vec<Package>, Vec<ServicePlan>), ApiError> {
    let packages = ctx.store.list_offers::<Package>().await?.into_iter().filter(Package::on_offer).collect();
    let plans = ctx.store.list_offers::<ServicePlan>().await?.into_iter().filter(ServicePlan::on_offer).collect();
    Ok((packages, plans))
}

/// Create a package (admin): hours and price above 0, a duration in days.
pub async fn create_package(ctx: &Context, caller: &User, form: &NewPackage, once: &Once) -> Result<Package, ApiError> {
    policy::require(caller, Action::ManageCatalogue)?;
    let draft = form.checked().map_err(ApiError::validation)?;
    let package = draft.into_package(ctx.store.next_id(PACKAGE_COUNTER).await?, Utc::now());
    ctx.store.create_offer(&package, once).await?;
    Ok(package)
}

/// Service plans the caller may see.
pub async fn service_plans(ctx: &Context, caller: &User) -> Result<Vec<ServicePlan>, ApiError> {
    Ok(visible(caller, ctx.store.list_offers::<ServicePlan>().await?, ServicePlan::on_offer))
}

/// Create a service plan (admin): a limit for a limited service, hours for
/// the hour-based one.
pub async fn create_service_plan(ctx: &Context, caller: &User, form: &NewServicePlan, once: &Once) -> Result<ServicePlan, ApiError> {
    policy::require(caller, Action::ManageCatalogue)?;
    let draft = form.checked().map_err(ApiError::validation)?;
    let plan = draft.into_plan(ctx.store.next_id(SERVICE_PLAN_COUNTER).await?, Utc::now());
    ctx.store.create_offer(&plan, once).await?;
    Ok(plan)
}

/// New terms of a package (admin). Rows bought earlier keep theirs: each
/// row holds its own hours, price and dates.
pub async fn update_package(ctx: &Context, caller: &User, id: u64, form: &NewPackage) -> Result<Package, ApiError> {
    policy::require(caller, Action::ManageCatalogue)?;
    let draft = form.checked().map_err(ApiError::validation)?;
    ctx.store.update_package(id, &draft).await
}

/// New terms of a service plan (admin); bought rows keep theirs.
pub async fn update_service_plan(ctx: &Context, caller: &User, id: u64, form: &NewServicePlan) -> Result<ServicePlan, ApiError> {
    policy::require(caller, Action::ManageCatalogue)?;
    let draft = form.checked().map_err(ApiError::validation)?;
    ctx.store.update_service_plan(id, &draft).await
}

/// Retire (no longer sold, to anyone) or reinstate a package (admin).
pub async fn retire_package(ctx: &Context, caller: &User, id: u64, retired: bool) -> Result<Package, ApiError> {
    policy::require(caller, Action::ManageCatalogue)?;
    ctx.store.set_offer_retired(Offer::Package, id, retired).await
}

/// Retire or reinstate a service plan (admin).
pub async fn retire_service_plan(ctx: &Context, caller: &User, id: u64, retired: bool) -> Result<ServicePlan, ApiError> {
    policy::require(caller, Action::ManageCatalogue)?;
    ctx.store.set_offer_retired(Offer::Plan, id, retired).await
}

/// Delete a package or plan (admin): only one never bought; a bought one
/// is refused (`offer_bought`: retire it instead), as its rows name it.
pub async fn delete_offer(ctx: &Context, caller: &User, offer: Offer, id: u64) -> Result<(), ApiError> {
    policy::require(caller, Action::ManageCatalogue)?;
    if ctx.store.delete_offer_unbought(offer, id).await? {
        Ok(())
    } else {
        Err(ApiError::bad(Msg::OfferBought))
    }
}

/// Who reads a named list: knowledge sectors and case types are offered to
/// every signed-in user (customers pick case types); departments are staff's.
fn may_read(caller: &User, kind: NamedKind) -> Result<(), ApiError> {
    match kind {
        NamedKind::Department => policy::require(caller, Action::ReadStaffCatalogue),
        NamedKind::KnowledgeSector | NamedKind::CaseType => Ok(()),
    }
}

/// A named list (one Query).
pub async fn named_list(ctx: &Context, caller: &User, kind: NamedKind) -> Result<Vec<NamedEntry>, ApiError> {
    may_read(caller, kind)?;
    ctx.store.list_named(kind).await
}

/// One entry of a named list, for the edit screen.
pub async fn named_entry(ctx: &Context, caller: &User, kind: NamedKind, id: u64) -> Result<NamedEntry, ApiError> {
    may_read(caller, kind)?;
    ctx.store.get_named(kind, id).await?.ok_or(ApiError::NotFound)
}

/// Add an entry to a named list (admin).
pub async fn create_named(ctx: &Context, caller: &User, kind: NamedKind, form: &NamedRequest, once: &Once) -> Result<NamedEntry, ApiError> {
    policy::require(caller, Action::ManageCatalogue)?;
    let draft = form.checked().map_err(ApiError::validation)?;
    ctx.store.create_named_entry(kind, &draft, once).await
}

/// Rename an entry of a named list (admin); a gone entry is not found.
pub async fn update_named(ctx: &Context, caller: &User, kind: NamedKind, id: u64, form: &NamedRequest) -> Result<NamedEntry, ApiError> {
    policy::require(caller, Action::ManageCatalogue)?;
    let draft = form.checked().map_err(ApiError::validation)?;
    ctx.store.update_named(kind, id, &draft).await
}

/// Delete an entry of a named list (admin); a gone entry is not found. A
/// department customers are connected to is refused (`department_in_use`):
/// their department would name nothing.
pub async fn delete_named(ctx: &Context, caller: &User, kind: NamedKind, id: u64) -> Result<(), ApiError> {
    policy::require(caller, Action::ManageCatalogue)?;
    if kind == NamedKind::Department && ctx.store.department_in_use(id).await? {
        return Err(ApiError::bad(Msg::DepartmentInUse));
    }
    ctx.store.delete_named(kind, id).await
}

/// Whether every id names an entry of the list: one read of the list
/// however many ids (nothing read for none).
pub async fn all_exist(ctx: &Context, kind: NamedKind, ids: &[u64]) -> Result<bool, ApiError> {
    if ids.is_empty() {
        return Ok(true);
    }
    let known: std::collections::HashSet<u64> = ctx.store.list_named(kind).await?.into_iter().map(|e| e.id).collect();
    Ok(ids.iter().all(|id| known.contains(id)))
}

/// Connect a customer to a department (admin): one department per customer,
/// a new connection replaces the old one.
pub async fn connect_department(ctx: &Context, caller: &User, customer_uid: &str, department_id: u64) -> Result<(), ApiError> {
    policy::require(caller, Action::ManageCatalogue)?;
    let customer_uid = customer_uid.trim();
    let mut errors = FieldErrors::new();
    if customer_uid.is_empty() {
        errors.add("customer_uid", Msg::Required);
    }
    if department_id == 0 {
        errors.add("department_id", Msg::Required);
    }
    errors.check()?;
    let customer = ctx.store.get_user(customer_uid).await?;
    if !customer.is_some_and(|c| crate::domain::policy::is(&c, Role::Customer)) {
        return Err(ApiError::NotFound);
    }
    if ctx.store.get_named(NamedKind::Department, department_id).await?.is_none() {
        return Err(ApiError::NotFound);
    }
    ctx.store.connect_customer_department(customer_uid, department_id).await
}

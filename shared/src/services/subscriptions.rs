//! Subscriptions (spec §3, §4, §5): customers buying packages and service
//! plans, staff adding them to a customer, a customer's rows
//! (`customer/{uid}/`), the row actions of the subscriptions table (change
//! service, automatic update date, activate, delete, CSV time report), uses
//! booked against a row, and the scheduled expiry and renewal.
//!
//! Every change of a row is one transaction with its
//! [`Event::SubscriptionChanged`], conditional on what was read (the row's
//! `rev`, the purchase guard); a concurrent writer makes the use case read
//! and decide again ([`retry::until_done`]).

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};

use super::events::{self, Event, SubscriptionChange};
use super::retry::{self, Attempt};
use super::Context;
use crate::domain::catalogue::{Package, ServicePlan};
use crate::domain::customer::CustomerType;
use crate::domain::policy::{self, Action};
use crate::domain::subscription::{self, AddToCustomer, Addition, ChangeService, Grant, PurchasedService, RowView, TimeReport, UsageEntry};
use crate::domain::{Role, User};
use crate::error::{ApiError, Msg};
use crate::store::idempotency::Once;

fn now() -> NaiveDateTime {
    Utc::now().naive_utc()
}

/// Row ids in paths are numbers; anything else names nothing.
fn row_id(raw: &str) -> Result<u64, ApiError> {
    raw.parse().map_err(|_| ApiError::NotFound)
}

/// The customer behind a uid: a user of the customer role, else not found.
async fn customer(ctx: &Context, uid: &str) -> Result<User, ApiError> {
    match ctx.store.get_user(uid).await? {
        Some(u) if policy::is(&u, Role::Customer) => Ok(u),
        _ => Err(ApiError::NotFound),
    }
}

/// A customer's subscription rows (with their status, spec §4) and its
/// credit-information (Bisnode) account.
pub struct CustomerServices {
    pub rows: Vec<RowView>,
    pub bisnode_account_active: bool,
    pub bisnode_account: Option<String>,
    /// Company or individual: the customer side words its pages for a
    /// company or for a person (None: no profile).
    pub customer_type: Option<CustomerType>,
}

/// `customer/{uid}/`: staff, lawyers, the customer itself and its contacts.
pub async fn customer_services(ctx: &Context, caller: &User, customer_uid: &str) -> Result<CustomerServices, ApiError> {
    policy::require(caller, Action::ReadCustomerAccount { customer_uid })?;
    // The customer reading its own account was read just now, to
    // authenticate it; for anyone else the customer's user is read with
    // its Bisnode account and type (one BatchGetItem). The rows are read beside.
    let own = caller.uid == customer_uid;
    let (account, rows) = tokio::try_join!(ctx.store.customer_account(customer_uid, !own), ctx.store.list_purchases(customer_uid))?;
    let is_customer =
        if own { policy::is(caller, Role::Customer) } else { account.user.as_ref().is_some_and(|u| policy::is(u, Role::Customer)) };
    let ((active, account), customer_type) = (account.bisnode, account.customer_type);
    if !is_customer {
        return Err(ApiError::NotFound);
    }
    let at = now();
    // A contact without view_time_bank reads no hour row (the time bank:
    // hours bought, used, left); the other services' rows decide its access.
    let time_bank = crate::domain::policy::holds(caller, crate::domain::Permission::ViewTimeBank);
    let rows = rows.into_iter().filter(|r| time_bank || !r.is_hour_based()).map(|r| r.view(at)).collect();
    Ok(CustomerServices { rows, bisnode_account_active: active, bisnode_account: account, customer_type })
}

/// [`customer_services`] of the caller's own company: the customer's, or
/// its contact's customer's. Staff have no company of their own (403); they
/// name the customer.
pub async fn own_services(ctx: &Context, caller: &User) -> Result<CustomerServices, ApiError> {
    let company = policy::acting_customer(caller).ok_or(ApiError::Forbidden)?;
    customer_services(ctx, caller, &company).await
}

/// The customer buys a public package: a consultancy-hours row.
pub async fn buy_package(ctx: &Context, caller: &User, package_id: u64, once: &Once) -> Result<RowView, ApiError> {
    policy::require(caller, Action::BuyForOwnCompany)?;
    let package = ctx.store.get_offer::<Package>(package_id).await?.filter(Package::on_offer).ok_or(ApiError::NotFound)?;
    let at = now();
    Ok(grant_once(ctx, &caller.uid, &Grant::from_package(&package), at, once, None).await?.view(at))
}

/// The customer buys a public service plan.
pub async fn buy_service_plan(ctx: &Context, caller: &User, plan_id: u64, once: &Once) -> Result<RowView, ApiError> {
    policy::require(caller, Action::BuyForOwnCompany)?;
    let plan = ctx.store.get_offer::<ServicePlan>(plan_id).await?.filter(ServicePlan::on_offer).ok_or(ApiError::NotFound)?;
    let at = now();
    Ok(grant_once(ctx, &caller.uid, &Grant::from_plan(&plan), at, once, None).await?.view(at))
}

/// Admin or a sales person adds a package or a service plan (public or not)
/// to a customer; only admin adds a custom package (spec §6).
pub async fn add_to_customer(ctx: &Context, caller: &User, form: &AddToCustomer, once: &Once) -> Result<RowView, ApiError> {
    policy::require(caller, Action::ManageSubscriptions)?;
    if form.custom {
        policy::require(caller, Action::SellCustomPackage)?;
    }
    let (customer_uid, addition) = form.checked()?;
    let grant_of = match addition {
        // Staff add unpublished entries too, but nobody a retired one.
        Addition::Package(id) => {
            Grant::from_package(&ctx.store.get_offer::<Package>(id).await?.filter(|p| !p.retired).ok_or(ApiError::NotFound)?)
        }
        Addition::ServicePlan(id) => {
            Grant::from_plan(&ctx.store.get_offer::<ServicePlan>(id).await?.filter(|p| !p.retired).ok_or(ApiError::NotFound)?)
        }
        Addition::Custom(g) => g,
    };
    let c = customer(ctx, &customer_uid).await?;
    let at = now();
    Ok(grant_once(ctx, &c.uid, &grant_of, at, once, Some(caller)).await?.view(at))
}

/// A new row of `grant` for a customer (bought or added by staff). Spec §5:
/// bought while an active row of the service is held, it is an advance row
/// starting when that one ends; with both held, it is refused. The decision
/// reads the customer's rows and purchase guard; the guard's bump in the
/// same transaction makes a concurrent purchase of the service fail it, and
/// the loser reads and decides again: it gets an advance row, or the rule's
/// own refusal (`active_and_advance_subscription`), never a bare conflict.
pub async fn grant(ctx: &Context, customer_uid: &str, grant: &Grant, now: NaiveDateTime) -> Result<PurchasedService, ApiError> {
    grant_once(ctx, customer_uid, grant, now, &Once::none(), None).await
}

/// [`grant`] for a request: its idempotency record (the row's view as the
/// answer) in the row's transaction, and when `staff` added it, its audit
/// event (so a retried request records it once, as it adds it once).
async fn grant_once(
    ctx: &Context,
    customer_uid: &str,
    grant: &Grant,
    now: NaiveDateTime,
    once: &Once,
    staff: Option<&User>,
) -> Result<PurchasedService, ApiError> {
    retry::until_done(|n| async move {
        // The transaction marks the catalogue entry bought only while it is
        // not retired: after a failed try, a retirement is why (not found).
        if n > 0 && !still_sold(ctx, grant).await? {
            return Err(ApiError::NotFound);
        }
        let seen = ctx.store.purchase_guard(customer_uid, grant.service_id).await?;
        let existing: Vec<PurchasedService> = ctx.store.purchases_of(customer_uid).await?.into_iter().map(|r| r.row).collect();
        let (advance, start) = subscription::plan_purchase(&existing, grant.service_id, now).map_err(|e| ApiError::bad(e.key()))?;
        let mut row = subscription::new_row(ctx.store.next_purchase_id().await?, customer_uid, grant, advance, start, now);
        row.sold_by = manager_of(ctx, customer_uid).await?;
        let mut tx = ctx.store.tx();
        ctx.store.add_purchase(&mut tx, &row, seen)?;
        once.record(&mut tx, &row.clone().view(now))?;
        if let Some(by) = staff {
            let added = crate::domain::audit::AuditEvent::by(by, crate::domain::audit::AuditAction::SubscriptionChanged)
                .customer(Some(customer_uid))
                .subject(row.id.to_string())
                .detail("added");
            super::audit::add_to(&mut tx, &added)?;
        }
        let queued = events::record(ctx, &mut tx, &[Event::SubscriptionChanged { row: &row, change: SubscriptionChange::Bought }]).await?;
        Ok(if events::commit(ctx, tx, queued).await? { Attempt::Done(row) } else { Attempt::Conflict })
    })
    .await
}

/// Whether the catalogue entry a grant names (if any) is still sold.
async fn still_sold(ctx: &Context, grant: &Grant) -> Result<bool, ApiError> {
    if let Some(id) = grant.package.as_ref().and_then(|p| p.id) {
        return Ok(ctx.store.get_offer::<Package>(id).await?.is_some_and(|p| !p.retired));
    }
    if let Some(id) = grant.service_plan.as_ref().and_then(|p| p.id) {
        return Ok(ctx.store.get_offer::<ServicePlan>(id).await?.is_some_and(|p| !p.retired));
    }
    Ok(true)
}

/// The customer's account manager now (the sales person a sale counts for).
async fn manager_of(ctx: &Context, customer_uid: &str) -> Result<Option<String>, ApiError> {
    Ok(ctx.store.get_customer_profile_latest(customer_uid).await?.as_ref().and_then(crate::domain::statistics::sales_of))
}

/// Reads row `id` (not found when gone), lets `change` decide the new row
/// and writes it over the revision read, with its event.
async fn rewrite(
    ctx: &Context,
    by: &User,
    id: u64,
    what: SubscriptionChange,
    change: impl Fn(&PurchasedService) -> Result<PurchasedService, ApiError>,
) -> Result<PurchasedService, ApiError> {
    retry::until_done(|_| async {
        let stored = ctx.store.get_purchase(id).await?.ok_or(ApiError::NotFound)?;
        let next = change(&stored.row)?;
        let mut tx = ctx.store.tx();
        ctx.store.add_row(&mut tx, &next, Some(stored.rev))?;
        // A change asked again (a retried request) finds nothing to change: no second event.
        let mut before = stored.row.clone();
        before.updated_at = next.updated_at;
        if before != next {
            super::audit::add_to(&mut tx, &staff_change(by, &next, what))?;
        }
        let queued = events::record(ctx, &mut tx, &[Event::SubscriptionChanged { row: &next, change: what }]).await?;
        Ok(if events::commit(ctx, tx, queued).await? { Attempt::Done(next) } else { Attempt::Conflict })
    })
    .await
}

/// The audit event of staff changing a row (written in the change's transaction).
fn staff_change(by: &User, row: &PurchasedService, what: SubscriptionChange) -> crate::domain::audit::AuditEvent {
    crate::domain::audit::AuditEvent::by(by, crate::domain::audit::AuditAction::SubscriptionChanged)
        .customer(Some(&row.customer_uid))
        .subject(row.id.to_string())
        .detail(format!("{what:?}").to_lowercase())
}

/// Change service (spec §5): start and expiry dates, hours for service 1.
pub async fn change_service(ctx: &Context, caller: &User, raw_id: &str, form: &ChangeService) -> Result<RowView, ApiError> {
    policy::require(caller, Action::ManageSubscriptions)?;
    let id = row_id(raw_id)?;
    let at = now();
    let changed = rewrite(ctx, caller, id, SubscriptionChange::Changed, |row| form.apply(row, at)).await?;
    if !subscription::is_due(&changed, at) {
        return Ok(changed.view(at));
    }
    // Ended early by staff: the row expires and its advance successor takes
    // over now, not at the job's next run, so the customer is never left
    // without a current row. Should this step not run, the job does it.
    expire_row(ctx, &changed.customer_uid, id, at).await?;
    let stored = ctx.store.get_purchase(id).await?.ok_or(ApiError::NotFound)?;
    Ok(stored.row.view(at))
}

/// Set (`'YYYY-MM-DD'`) or clear (none) the automatic update date of a row
/// without a child.
pub async fn set_auto_update(ctx: &Context, caller: &User, raw_id: &str, date: Option<&str>) -> Result<(), ApiError> {
    policy::require(caller, Action::ManageSubscriptions)?;
    let id = row_id(raw_id)?;
    let at = now();
    rewrite(ctx, caller, id, SubscriptionChange::Changed, |row| subscription::with_auto_update(row, date, at)).await?;
    Ok(())
}

/// Activate a row whose hours are below the consumed hours.
pub async fn activate(ctx: &Context, caller: &User, raw_id: &str) -> Result<(), ApiError> {
    policy::require(caller, Action::ManageSubscriptions)?;
    let id = row_id(raw_id)?;
    let at = now();
    rewrite(ctx, caller, id, SubscriptionChange::Activated, |row| subscription::activated(row, at)).await?;
    Ok(())
}

/// Delete a row (after the web's confirmation).
pub async fn delete(ctx: &Context, caller: &User, raw_id: &str) -> Result<(), ApiError> {
    policy::require(caller, Action::ManageSubscriptions)?;
    let id = row_id(raw_id)?;
    retry::until_done(|_| async {
        let stored = ctx.store.get_purchase(id).await?.ok_or(ApiError::NotFound)?;
        let mut tx = ctx.store.tx();
        ctx.store.add_row_delete(&mut tx, &stored.row, stored.rev)?;
        super::audit::add_to(&mut tx, &staff_change(caller, &stored.row, SubscriptionChange::Deleted))?;
        let queued =
            events::record(ctx, &mut tx, &[Event::SubscriptionChanged { row: &stored.row, change: SubscriptionChange::Deleted }]).await?;
        Ok(if events::commit(ctx, tx, queued).await? { Attempt::Done(()) } else { Attempt::Conflict })
    })
    .await
}

/// The CSV time report of a row: the uses booked against it dated
/// `start_date..=end_date` ('YYYY-MM-DD'), under the plan's, package's or
/// service's name. A lawyer reads only the lines of cases assigned to them
/// ([`Action::ReadCaseReport`]); the other lines are left out
/// (object-level rights on every report).
pub async fn time_report(
    ctx: &Context,
    caller: &User,
    raw_id: &str,
    start_date: Option<&str>,
    end_date: Option<&str>,
) -> Result<TimeReport, ApiError> {
    policy::require(caller, Action::ReadTimeReport)?;
    let (from, to) = subscription::report_range(start_date, end_date)?;
    let stored = ctx.store.get_purchase(row_id(raw_id)?).await?.ok_or(ApiError::NotFound)?;
    let mut entries = ctx.store.list_usage(stored.row.id, from, to).await?;
    if !policy::may(caller, Action::ManageSubscriptions) {
        let mut readable: std::collections::HashMap<String, bool> = std::collections::HashMap::new();
        for uid in entries.iter().filter_map(|e| e.case_uid.clone()) {
            if let std::collections::hash_map::Entry::Vacant(slot) = readable.entry(uid) {
                let case = ctx.store.get_case(slot.key()).await?;
                slot.insert(case.is_some_and(|c| policy::may(caller, Action::ReadCaseReport(&c.case))));
            }
        }
        entries.retain(|e| e.case_uid.as_ref().is_some_and(|uid| readable.get(uid).copied().unwrap_or(false)));
    }
    super::audit::export_made(ctx, caller, &format!("subscription time report {}", stored.row.id), Some(&stored.row.customer_uid)).await;
    Ok(subscription::time_report(&stored.row, &entries))
}

/// Books a use against its row: the consumed amount raised (refused past the
/// limit, spec §8) and the ledger entry, with the row's event.
pub async fn record_usage(ctx: &Context, entry: &UsageEntry, now: NaiveDateTime) -> Result<PurchasedService, ApiError> {
    retry::until_done(|_| async {
        let (row, items) = ctx.store.usage_items(entry, now).await?;
        let mut tx = ctx.store.tx();
        items.into_iter().for_each(|i| tx.push(i));
        let queued = events::record(ctx, &mut tx, &[Event::SubscriptionChanged { row: &row, change: SubscriptionChange::Used }]).await?;
        if events::commit(ctx, tx, queued).await? {
            return Ok(Attempt::Done(row));
        }
        // The entry is booked already: trying again would not change that.
        if ctx.store.has_usage(entry.purchase_id, entry.date, &entry.entry_id).await? {
            return Err(ApiError::bad(Msg::ChangedConcurrently));
        }
        Ok(Attempt::Conflict)
    })
    .await
}

/// Takes a booked use back: the consumed amount lowered (never below zero)
/// and the ledger entry removed, with the row's event.
pub async fn release_usage(ctx: &Context, purchase_id: u64, date: NaiveDate, entry_id: &str, now: NaiveDateTime) -> Result<(), ApiError> {
    retry::until_done(|_| async {
        let (row, items) = ctx.store.release_usage_items(purchase_id, date, entry_id, now).await?;
        let mut tx = ctx.store.tx();
        items.into_iter().for_each(|i| tx.push(i));
        let queued = events::record(ctx, &mut tx, &[Event::SubscriptionChanged { row: &row, change: SubscriptionChange::Used }]).await?;
        Ok(if events::commit(ctx, tx, queued).await? { Attempt::Done(()) } else { Attempt::Conflict })
    })
    .await
}

/// What a run of the scheduled job did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ExpiryReport {
    /// Rows found due.
    pub due: usize,
    /// Rows this run marked expired (others were done by a concurrent run).
    pub expired: usize,
    /// Of those, rows this run renewed (a child row was created).
    pub renewed: usize,
}

/// What happened to one due row.
enum Expiry {
    /// Nothing (gone, not due any more, or done by a concurrent run).
    Untouched,
    Expired,
    Renewed,
}

/// The scheduled job: every row whose `expire_on` has come is expired; it is
/// renewed when its automatic update date asks for it (the renewal is the
/// old row's `child`), otherwise the customer's advance row of the service,
/// if any, takes over. Idempotent and exact when runs overlap: each row's
/// change is conditional on the revision read, so exactly one run makes it
/// and the others find it done.
pub async fn expire_due(ctx: &Context, now: DateTime<Utc>) -> Result<ExpiryReport, ApiError> {
    let at = now.naive_utc();
    let mut report = ExpiryReport::default();
    for (customer_uid, id) in ctx.store.due_purchases(now).await? {
        report.due += 1;
        match expire_row(ctx, &customer_uid, id, at).await? {
            Expiry::Untouched => {}
            Expiry::Expired => report.expired += 1,
            Expiry::Renewed => {
                report.expired += 1;
                report.renewed += 1;
            }
        }
    }
    Ok(report)
}

/// Expires one row with its renewal or its advance successor, in one
/// transaction with the events of every row it changes.
async fn expire_row(ctx: &Context, customer_uid: &str, id: u64, now: NaiveDateTime) -> Result<Expiry, ApiError> {
    retry::until_done(|_| async {
        // The due index lags; the row itself says whether it is still due.
        let Some(stored) = ctx.store.purchase_of(customer_uid, id).await? else { return Ok(Attempt::Done(Expiry::Untouched)) };
        if !subscription::is_due(&stored.row, now) {
            return Ok(Attempt::Done(Expiry::Untouched));
        }
        let mut done = subscription::expired(&stored.row);
        let mut tx = ctx.store.tx();
        let (outcome, changed) = match subscription::renewal(&stored.row, subscription::renewal_id(id), now) {
            Some(mut child) => {
                // A renewal is a new sale: it counts for the manager the customer has now.
                child.sold_by = manager_of(ctx, customer_uid).await?;
                done.child = Some(child.id);
                done.updated_at = now;
                ctx.store.add_row(&mut tx, &done, Some(stored.rev))?;
                ctx.store.add_row(&mut tx, &child, None)?;
                (Expiry::Renewed, vec![done, child])
            }
            None => {
                let rows = if stored.row.active { ctx.store.purchases_of(customer_uid).await? } else { Vec::new() };
                let listed: Vec<PurchasedService> = rows.iter().map(|r| r.row.clone()).collect();
                let successor =
                    subscription::advance_successor(&listed, &stored.row).and_then(|next| rows.iter().find(|r| r.row.id == next.id));
                match successor {
                    Some(next) => {
                        done.updated_at = now;
                        let promoted = subscription::promoted(&next.row, now);
                        ctx.store.add_row(&mut tx, &done, Some(stored.rev))?;
                        ctx.store.add_row(&mut tx, &promoted, Some(next.rev))?;
                        (Expiry::Expired, vec![done, promoted])
                    }
                    None => {
                        ctx.store.add_row(&mut tx, &done, Some(stored.rev))?;
                        (Expiry::Expired, vec![done])
                    }
                }
            }
        };
        // The row that ended is expired; a child or a promoted advance row is renewed.
        let happened: Vec<Event> = changed
            .iter()
            .map(|row| Event::SubscriptionChanged {
                row,
                change: if row.id == id { SubscriptionChange::Expired } else { SubscriptionChange::Renewed },
            })
            .collect();
        let queued = events::record(ctx, &mut tx, &happened).await?;
        Ok(if events::commit(ctx, tx, queued).await? { Attempt::Done(outcome) } else { Attempt::Conflict })
    })
    .await
}

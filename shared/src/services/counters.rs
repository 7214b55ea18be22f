//! The statistics counters an event changes, computed for
//! [`super::events::record`], which adds them to the event's transaction.
//!
//! Each change is `contribution(after) − contribution(before)` of the thing
//! the event changed ([`crate::domain::statistics`]), plus the event's flows. The
//! "before" is what the use case read (cases, hour entries: carried by the
//! event) or what is stored now (customer profiles, subscription rows: read
//! here, consistently, after the conflict index read, so a concurrent change
//! makes this transaction fail on the version it checks and the use case
//! decides again). Either way the transaction commits once with exactly
//! that difference, or not at all.
//!
//! The sales scopes (`sales#<account manager>`) need the customer's
//! account manager: read once per customer per event batch from its
//! profile, and guarded ([`Guard`]): the transaction checks that the
//! manager is still the one read, and a change of manager checks that the
//! customer's figures it moves (its now item, its active rows) are still
//! the ones read. A concurrent case or subscription change and a change of
//! manager so never both commit on a stale read: one fails and decides again.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::Utc;

use super::events::kinds::{Event, SubscriptionChange};
use super::Context;
use crate::domain::catalogue::{Package, ServicePlan};
use crate::domain::statistics::{self as stats, Deltas, Price, Scope};
use crate::domain::subscription::PurchasedService;
use crate::error::ApiError;
use crate::store::keys;
use crate::store::tx::Cond;

/// What a subscription row sold for (öre): the price kept on the row at the
/// purchase; for a row stored before rows kept it, its catalogue package's
/// or service plan's price (0 for a custom package of then).
pub async fn price_of(ctx: &Context, row: &PurchasedService) -> Result<Price, ApiError> {
    if let Some(p) = row.price {
        return Ok(Price(p.0));
    }
    if let Some(id) = row.packages.as_ref().and_then(|p| p.id) {
        return Ok(Price(ctx.store.get_offer::<Package>(id).await?.map(|p| p.price.0).unwrap_or(0)));
    }
    if let Some(id) = row.service_plan.as_ref().and_then(|p| p.id) {
        return Ok(Price(ctx.store.get_offer::<ServicePlan>(id).await?.map(|p| p.price.0).unwrap_or(0)));
    }
    Ok(Price(0))
}

/// A customer's hourly rate (öre), 0 when none is set.
pub async fn rate_of(ctx: &Context, customer_uid: &str) -> Result<i64, ApiError> {
    Ok(ctx.store.get_customer_profile(customer_uid).await?.and_then(|p| p.hourly_rate_ore).unwrap_or(0))
}

/// A condition the event's transaction checks on an item the counters were
/// computed from.
pub struct Guard {
    pub key: keys::Key,
    pub cond: Cond,
}

/// The counter changes of an event batch and the reads they rest on.
#[derive(Default)]
pub struct Counted {
    pub deltas: Deltas,
    pub guards: Vec<Guard>,
}

/// Customers' account managers as read for one event batch (one read per
/// customer), each with the guard that it is still the manager at commit.
#[derive(Default)]
struct Managers(HashMap<String, Option<String>>);

impl Managers {
    async fn of(&mut self, ctx: &Context, guards: &mut Vec<Guard>, customer_uid: &str) -> Result<Option<String>, ApiError> {
        if let Some(m) = self.0.get(customer_uid) {
            return Ok(m.clone());
        }
        let m = ctx.store.get_customer_profile_latest(customer_uid).await?.as_ref().and_then(stats::sales_of);
        guards.push(manager_guard(customer_uid, m.as_deref()));
        self.0.insert(customer_uid.to_string(), m.clone());
        Ok(m)
    }
}

/// The profile still names `manager` (none: no manager, or an empty one).
fn manager_guard(customer_uid: &str, manager: Option<&str>) -> Guard {
    let cond = match manager {
        Some(m) => Cond::new("#am = :am").name("#am", "account_manager_uid").value(":am", AttributeValue::S(m.to_string())),
        None => Cond::new("attribute_not_exists(#am) OR attribute_type(#am, :null) OR #am = :empty")
            .name("#am", "account_manager_uid")
            .value(":null", AttributeValue::S("NULL".into()))
            .value(":empty", AttributeValue::S(String::new())),
    };
    Guard { key: keys::customer::profile(customer_uid), cond }
}

/// The customer's now item still holds `counts` for the metrics moved
/// (its cases by status, its active rows count).
fn counts_guard(customer_uid: &str, counts: &crate::store::stats::Counts) -> Guard {
    let mut cond = Cond::new("").value(":zero", AttributeValue::N("0".into()));
    let mut parts = Vec::new();
    let metrics = stats::STATUS_WORDS.iter().map(|w| format!("cases.status.{w}")).chain(["subs.active".to_string()]);
    for (i, m) in metrics.enumerate() {
        let v = counts.get(&m).copied().unwrap_or(0);
        cond = cond.name(&format!("#m{i}"), &m);
        if v == 0 {
            parts.push(format!("(attribute_not_exists(#m{i}) OR #m{i} = :zero)"));
        } else {
            cond = cond.value(&format!(":v{i}"), AttributeValue::N(v.to_string()));
            parts.push(format!("#m{i} = :v{i}"));
        }
    }
    let key = Scope::Customer(customer_uid.to_string()).key();
    Guard { key: keys::stats::now(&key, 0), cond: cond.with_expr(parts.join(" AND ")) }
}

/// The counter changes of `events`.
pub async fn deltas(ctx: &Context, events: &[Event<'_>]) -> Result<Counted, ApiError> {
    let now = Utc::now();
    let mut out = Deltas::default();
    let mut guards = Vec::new();
    let mut managers = Managers::default();
    for e in events {
        match e {
            Event::CaseCreated { case, .. } => {
                let am = managers.of(ctx, &mut guards, &case.customer).await?;
                out.merge(&stats::case_contribution(case, am.as_deref()), 1)
            }
            Event::CaseChanged { before, after, .. } => {
                let (old, new) =
                    (managers.of(ctx, &mut guards, &before.customer).await?, managers.of(ctx, &mut guards, &after.customer).await?);
                out.merge(
                    &Deltas::diff(&stats::case_contribution(before, old.as_deref()), &stats::case_contribution(after, new.as_deref())),
                    1,
                );
                // The case's hours count under its case type and knowledge
                // sector: a new type or sector moves them (one Query of the
                // case's entries, bounded by the case).
                if before.case_type.id != after.case_type.id || stats::sector_of(before) != stats::sector_of(after) {
                    let rate = rate_of(ctx, &after.customer).await?;
                    for h in ctx.store.case_hours(&after.uid).await? {
                        let old = stats::hour_contribution(before, &h, rate);
                        out.merge(&Deltas::diff(&old, &stats::hour_contribution(after, &h, rate)), 1);
                    }
                }
            }
            Event::CaseStatusChanged { before, after, .. } => {
                let (old, new) =
                    (managers.of(ctx, &mut guards, &before.customer).await?, managers.of(ctx, &mut guards, &after.customer).await?);
                out.merge(
                    &Deltas::diff(&stats::case_contribution(before, old.as_deref()), &stats::case_contribution(after, new.as_deref())),
                    1,
                );
                // The change's own moment (a status change sets it); now for a
                // change that did not.
                let at = after.status_at.filter(|_| after.status_at != before.status_at).unwrap_or(now);
                out.merge(&stats::status_flows(before, after, at), 1);
            }
            Event::CaseHoursChanged { case, entries, .. } => {
                if entries.is_empty() {
                    continue;
                }
                let rate = rate_of(ctx, &case.customer).await?;
                for (old, new) in entries.iter() {
                    let before = old.as_ref().map(|h| stats::hour_contribution(case, h, rate)).unwrap_or_default();
                    let after = new.as_ref().map(|h| stats::hour_contribution(case, h, rate)).unwrap_or_default();
                    out.merge(&Deltas::diff(&before, &after), 1);
                }
            }
            Event::CustomerSaved { profile } => {
                let before = ctx.store.get_customer_profile_latest(&profile.uid).await?;
                let old = before.as_ref().map(stats::customer_contribution).unwrap_or_default();
                out.merge(&Deltas::diff(&old, &stats::customer_contribution(profile)), 1);
                out.merge(&stats::customer_flows(before.as_ref(), profile, now), 1);
                // A new account manager takes the customer's current figures
                // with it (its cases by status, its active rows due): one
                // item and the customer's own rows, never the firm's.
                let (was, is) = (before.as_ref().and_then(stats::sales_of), stats::sales_of(profile));
                if before.is_some() && was != is {
                    let key = Scope::Customer(profile.uid.clone()).key();
                    let counts = ctx.store.counter_item_latest(&keys::stats::now(&key, 0)).await?;
                    let rows = ctx.store.purchases_of(&profile.uid).await?;
                    let listed: Vec<PurchasedService> = rows.iter().map(|r| r.row.clone()).collect();
                    out.merge(&stats::sales_move(&counts, &listed, was.as_deref(), is.as_deref()), 1);
                    guards.push(counts_guard(&profile.uid, &counts));
                    for r in rows.iter().filter(|r| r.row.active && !r.row.expired) {
                        let cond = Cond::new("rev = :rev").value(":rev", AttributeValue::N(r.rev.to_string()));
                        guards.push(Guard { key: keys::purchase::item(&profile.uid, r.row.id), cond });
                    }
                }
                managers.0.insert(profile.uid.clone(), is);
            }
            Event::SubscriptionChanged { row, change } => {
                let before = ctx.store.purchase_of(&row.customer_uid, row.id).await?.map(|s| s.row);
                let after = (*change != SubscriptionChange::Deleted).then_some(*row);
                let price = price_of(ctx, row).await?;
                let am = managers.of(ctx, &mut guards, &row.customer_uid).await?;
                let old = before.as_ref().map(|r| stats::subscription_contribution(r, price, am.as_deref())).unwrap_or_default();
                let new = after.map(|r| stats::subscription_contribution(r, price, am.as_deref())).unwrap_or_default();
                out.merge(&Deltas::diff(&old, &new), 1);
                out.merge(&stats::subscription_flows(before.as_ref(), after, now), 1);
            }
            Event::MessagePosted { .. } | Event::CaseRated { .. } | Event::CustomerRegistered { .. } | Event::ContactSaved { .. } => {}
            // The booking's use moves the subscription counters through its own SubscriptionChanged.
            Event::MeetingBooked { .. } | Event::MeetingCancelled { .. } => {}
            Event::FollowerAdded { .. } | Event::FollowerRemoved { .. } => {}
        }
    }
    Ok(Counted { deltas: out.pruned(), guards })
}

//! The statistics counters an event changes (issue 16), computed for
//! [`super::events::record`], which adds them to the event's transaction.
//!
//! Each change is `contribution(after) − contribution(before)` of the thing
//! the event changed ([`crate::domain::stats`]), plus the event's flows. The
//! "before" is what the use case read (cases, hour entries: carried by the
//! event) or what is stored now (customer profiles, subscription rows: read
//! here, consistently, after the conflict index read, so a concurrent change
//! makes this transaction fail on the version it checks and the use case
//! decides again). Either way the transaction commits once with exactly
//! that difference, or not at all.

use chrono::Utc;

use super::events::Event;
use super::Context;
use crate::domain::stats::{self, Deltas, Price};
use crate::domain::subscription::PurchasedService;
use crate::error::ApiError;

/// What a subscription row sold for: its catalogue package's or service
/// plan's price (öre); a custom package has no catalogue price (0).
pub async fn price_of(ctx: &Context, row: &PurchasedService) -> Result<Price, ApiError> {
    if let Some(id) = row.packages.as_ref().and_then(|p| p.id) {
        return Ok(Price(ctx.store.get_package(id).await?.map(|p| p.price.0).unwrap_or(0)));
    }
    if let Some(id) = row.service_plan.as_ref().and_then(|p| p.id) {
        return Ok(Price(ctx.store.get_service_plan(id).await?.map(|p| p.price.0).unwrap_or(0)));
    }
    Ok(Price(0))
}

/// A customer's hourly rate (öre), 0 when none is set.
pub async fn rate_of(ctx: &Context, customer_uid: &str) -> Result<i64, ApiError> {
    Ok(ctx.store.get_customer_profile(customer_uid).await?.and_then(|p| p.hourly_rate_ore).unwrap_or(0))
}

/// The counter changes of `events`.
pub async fn deltas(ctx: &Context, events: &[Event<'_>]) -> Result<Deltas, ApiError> {
    let now = Utc::now();
    let mut out = Deltas::default();
    for e in events {
        match e {
            Event::CaseCreated { case, .. } => out.merge(&stats::case_contribution(case), 1),
            Event::CaseChanged { before, after, .. } => {
                out.merge(&Deltas::diff(&stats::case_contribution(before), &stats::case_contribution(after)), 1)
            }
            Event::CaseStatusChanged { before, after, .. } => {
                out.merge(&Deltas::diff(&stats::case_contribution(before), &stats::case_contribution(after)), 1);
                out.merge(&stats::status_flows(before, after, now), 1);
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
            }
            Event::SubscriptionChanged { row, change } => {
                let before = ctx.store.purchase_of(&row.customer_uid, row.id).await?.map(|s| s.row);
                let after = (*change != super::events::SubscriptionChange::Deleted).then_some(*row);
                let price = price_of(ctx, row).await?;
                let old = before.as_ref().map(|r| stats::subscription_contribution(r, price)).unwrap_or_default();
                let new = after.map(|r| stats::subscription_contribution(r, price)).unwrap_or_default();
                out.merge(&Deltas::diff(&old, &new), 1);
                out.merge(&stats::subscription_flows(before.as_ref(), after, now), 1);
            }
            Event::MessagePosted { .. } | Event::CaseRated { .. } | Event::CustomerRegistered { .. } | Event::ContactSaved { .. } => {}
        }
    }
    Ok(out.pruned())
}

//! Add-on services' records in the customer's partition: the
//! verified-signing token, signing envelopes and credit reports (see
//! `table.rs`). Envelopes and reports carry `rev`; every later write is
//! conditional on it.

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::NaiveDateTime;

use super::tx::{Cond, Tx};
use super::{keys, n, s, Item, Store};
use crate::domain::addons::{CreditReport, Envelope, InkassoProspect, VerifiedToken};
use crate::domain::subscription::{PurchasedService, UsageEntry};
use crate::error::ApiError;

fn with_rev<T: serde::Serialize>(value: &T, key: keys::Key, entity: &str, rev: u64) -> Result<Item, ApiError> {
    let mut item: Item = serde_dynamo::to_item(value).map_err(ApiError::internal)?;
    key.stamp(&mut item);
    item.insert("entity".into(), s(entity));
    item.insert("rev".into(), n(rev));
    Ok(item)
}

fn rev_of(item: &Item) -> u64 {
    item.get("rev").and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok()).unwrap_or(0)
}

/// `attribute_not_exists` for a new record (`rev` None), else `rev = :rev`.
fn rev_cond(rev: Option<u64>) -> Cond {
    match rev {
        None => Cond::absent(),
        Some(r) => Cond::new("rev = :rev").value(":rev", n(r)),
    }
}

impl Store {
    pub async fn verified_token(&self, customer_uid: &str) -> Result<Option<VerifiedToken>, ApiError> {
        self.get_consistent_as(&keys::addons::verified(customer_uid)).await
    }

    pub async fn put_verified_token(&self, customer_uid: &str, token: &VerifiedToken) -> Result<(), ApiError> {
        let mut item: Item = serde_dynamo::to_item(token).map_err(ApiError::internal)?;
        keys::addons::verified(customer_uid).stamp(&mut item);
        item.insert("entity".into(), s("verified_token"));
        self.client.put_item().table_name(&self.table).set_item(Some(item)).send().await.map_err(super::sdk_err)?;
        Ok(())
    }

    /// Adds to `tx` the write of `e` over revision `rev` (a new one when None).
    pub fn add_envelope(&self, tx: &mut Tx, e: &Envelope, rev: Option<u64>) -> Result<(), ApiError> {
        let item = with_rev(e, keys::addons::envelope(&e.customer_uid, &e.uid), "envelope", rev.map_or(1, |r| r + 1))?;
        tx.put_if(item, Some(rev_cond(rev)))
    }

    /// An envelope and its revision, read consistently.
    pub async fn envelope(&self, customer_uid: &str, uid: &str) -> Result<Option<(Envelope, u64)>, ApiError> {
        let Some(item) = self.get_consistent(&keys::addons::envelope(customer_uid, uid)).await? else {
            return Ok(None);
        };
        let rev = rev_of(&item);
        Ok(Some((serde_dynamo::from_item(item).map_err(ApiError::internal)?, rev)))
    }

    /// A customer's envelopes, newest first (one Query).
    pub async fn envelopes(&self, customer_uid: &str) -> Result<Vec<Envelope>, ApiError> {
        let items = self.query_prefix(&keys::customer::pk(customer_uid), keys::addons::ENVELOPE_PREFIX).await?;
        let mut out: Vec<Envelope> = super::readable_items(items);
        out.sort_by_key(|e| std::cmp::Reverse(e.created_at));
        Ok(out)
    }

    pub fn add_credit_report(&self, tx: &mut Tx, r: &CreditReport, rev: Option<u64>) -> Result<(), ApiError> {
        let item = with_rev(r, keys::addons::credit(&r.customer_uid, &r.uid), "credit_report", rev.map_or(1, |r| r + 1))?;
        tx.put_if(item, Some(rev_cond(rev)))
    }

    pub async fn credit_report(&self, customer_uid: &str, uid: &str) -> Result<Option<(CreditReport, u64)>, ApiError> {
        let Some(item) = self.get_consistent(&keys::addons::credit(customer_uid, uid)).await? else {
            return Ok(None);
        };
        let rev = rev_of(&item);
        Ok(Some((serde_dynamo::from_item(item).map_err(ApiError::internal)?, rev)))
    }

    /// A customer's credit reports, newest first (one Query).
    pub async fn credit_reports(&self, customer_uid: &str) -> Result<Vec<CreditReport>, ApiError> {
        let items = self.query_prefix(&keys::customer::pk(customer_uid), keys::addons::CREDIT_PREFIX).await?;
        let mut out: Vec<CreditReport> = super::readable_items(items);
        out.sort_by_key(|e| std::cmp::Reverse(e.created_at));
        Ok(out)
    }

    /// Books one counted use of `read` in place: `consumed_limit` raised by
    /// one, conditional on the row not having expired, its dates unchanged
    /// and — unless it is an advance row — the limit still holding for
    /// whatever other uses landed meanwhile; plus the ledger entry. Like the
    /// hour bookings (`add_consumed_hours_change`), concurrent uses of one
    /// row commute instead of failing on its revision, and the condition
    /// keeps the limit exact.
    pub fn add_counted_use(&self, tx: &mut Tx, read: &PurchasedService, entry: &UsageEntry, now: NaiveDateTime) -> Result<(), ApiError> {
        let stored: Item = serde_dynamo::to_item(PurchasedService { updated_at: now, ..read.clone() }).map_err(ApiError::internal)?;
        let field = |name: &str| stored.get(name).cloned().ok_or_else(|| ApiError::internal(format!("row without {name}")));
        let mut expr = String::from("attribute_exists(PK) AND #expired = :f AND start_date = :start AND expire_on = :end");
        let mut cond = Cond::new("")
            .name("#expired", "expired")
            .value(":f", AttributeValue::Bool(false))
            .value(":start", field("start_date")?)
            .value(":end", field("expire_on")?)
            .value(":now", field("updated_at")?)
            .value(":one", n(1));
        if let (Some(limit), false) = (read.limit, read.advance) {
            expr.push_str(" AND consumed_limit < :cap");
            cond = cond.value(":cap", n(limit));
        }
        tx.update_if(
            &keys::purchase::item(&read.customer_uid, read.id),
            "SET consumed_limit = consumed_limit + :one, updated_at = :now ADD rev :one",
            cond.with_expr(expr),
        )?;
        let mut ledger: Item = serde_dynamo::to_item(entry).map_err(ApiError::internal)?;
        keys::purchase::usage(entry.purchase_id, entry.date, &entry.entry_id).stamp(&mut ledger);
        ledger.insert("entity".into(), s("usage"));
        tx.put_new(ledger)
    }

    /// The company's application and its revision (0: written before revisions), read consistently.
    pub async fn inkasso_prospect(&self, customer_uid: &str) -> Result<Option<(InkassoProspect, u64)>, ApiError> {
        let Some(item) = self.get_consistent(&keys::addons::inkasso(customer_uid)).await? else { return Ok(None) };
        let rev = item.get("rev").and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok()).unwrap_or(0);
        Ok(Some((serde_dynamo::from_item(item).map_err(ApiError::internal)?, rev)))
    }

    /// Adds to `tx` the write of the application over revision `rev` (new when None).
    pub fn add_inkasso_prospect(&self, tx: &mut Tx, customer_uid: &str, p: &InkassoProspect, rev: Option<u64>) -> Result<(), ApiError> {
        let mut item: Item = serde_dynamo::to_item(p).map_err(ApiError::internal)?;
        keys::addons::inkasso(customer_uid).stamp(&mut item);
        item.insert("entity".into(), s("inkasso_prospect"));
        item.insert("rev".into(), n(rev.map_or(1, |r| r + 1)));
        let cond = match rev {
            None => Cond::absent(),
            Some(0) => Cond::new("attribute_not_exists(rev)"),
            Some(r) => Cond::new("rev = :rev").value(":rev", n(r)),
        };
        tx.put_if(item, Some(cond))
    }
}

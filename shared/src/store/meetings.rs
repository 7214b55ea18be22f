//! Video meetings' records (see `table.rs`): a lawyer's
//! offered slots (each carrying its booking) in the lawyer's slot partition,
//! and the booked meetings in the customer's partition. Slots carry `rev`;
//! booking, cancelling and removing are conditional on it, so a slot is
//! booked once however many try at the same time.

use chrono::{DateTime, Utc};

use super::tx::{Cond, Tx};
use super::{keys, n, s, Item, Store};
use crate::domain::meeting::{Meeting, Slot};
use crate::error::ApiError;

fn rev_of(item: &Item) -> u64 {
    item.get("rev").and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok()).unwrap_or(0)
}

fn slot_item(slot: &Slot, rev: u64) -> Result<Item, ApiError> {
    let mut item: Item = serde_dynamo::to_item(slot).map_err(ApiError::internal)?;
    keys::meeting::slot(&slot.lawyer_uid, &slot.uid).stamp(&mut item);
    item.insert("entity".into(), s("meeting_slot"));
    item.insert("rev".into(), n(rev));
    Ok(item)
}

fn rev_is(rev: u64) -> Cond {
    Cond::new("rev = :rev").value(":rev", n(rev))
}

impl Store {
    /// A lawyer's slots starting in `[from, to]`, in start order, with their revisions (one Query).
    pub async fn meeting_slots(&self, lawyer_uid: &str, from: DateTime<Utc>, to: DateTime<Utc>) -> Result<Vec<(Slot, u64)>, ApiError> {
        let low = keys::meeting::slot_sk(&format!("{:010}", from.timestamp().max(0)));
        let high = keys::meeting::slot_sk(&format!("{:010}~", to.timestamp().max(0)));
        let mut out = Vec::new();
        let query = self
            .client
            .query()
            .table_name(&self.table)
            .consistent_read(true)
            .key_condition_expression("PK = :p AND SK BETWEEN :lo AND :hi")
            .expression_attribute_values(":p", s(keys::meeting::slots_pk(lawyer_uid)))
            .expression_attribute_values(":lo", s(low.clone()))
            .expression_attribute_values(":hi", s(high.clone()));
        let items = self.query_all(query).await?;
        for item in &items {
            let rev = rev_of(item);
            if let Ok(slot) = serde_dynamo::from_item::<_, Slot>(item.clone()) {
                out.push((slot, rev));
            }
        }
        Ok(out)
    }

    /// One slot and its revision, read consistently.
    pub async fn meeting_slot(&self, lawyer_uid: &str, slot_uid: &str) -> Result<Option<(Slot, u64)>, ApiError> {
        let Some(item) = self.get_consistent(&keys::meeting::slot(lawyer_uid, slot_uid)).await? else {
            return Ok(None);
        };
        let rev = rev_of(&item);
        Ok(Some((serde_dynamo::from_item(item).map_err(ApiError::internal)?, rev)))
    }

    /// The revision of a lawyer's slots guard (0 before the first slot).
    pub async fn meeting_slots_guard(&self, lawyer_uid: &str) -> Result<u64, ApiError> {
        let item = self.get_consistent(&keys::meeting::slots_guard(lawyer_uid)).await?;
        Ok(item.as_ref().map(rev_of).unwrap_or(0))
    }

    /// Adds to `tx` a new slot and the guard's bump from `guard` (the
    /// revision the overlap check read): a concurrent offer fails one of them.
    pub fn add_new_meeting_slot(&self, tx: &mut Tx, slot: &Slot, guard: u64) -> Result<(), ApiError> {
        tx.put_if(slot_item(slot, 1)?, Some(Cond::absent()))?;
        let cond = if guard == 0 { Cond::new("attribute_not_exists(rev)") } else { rev_is(guard) };
        tx.update_if(&keys::meeting::slots_guard(&slot.lawyer_uid), "SET rev = :next", cond.value(":next", n(guard + 1)))
    }

    /// Adds to `tx` the write of `slot` over revision `rev` (booking or releasing it).
    pub fn add_meeting_slot_write(&self, tx: &mut Tx, slot: &Slot, rev: u64) -> Result<(), ApiError> {
        tx.put_if(slot_item(slot, rev + 1)?, Some(rev_is(rev)))
    }

    /// Adds to `tx` the removal of a slot as read at `rev`.
    pub fn add_meeting_slot_delete(&self, tx: &mut Tx, lawyer_uid: &str, slot_uid: &str, rev: u64) -> Result<(), ApiError> {
        tx.delete(&keys::meeting::slot(lawyer_uid, slot_uid), Some(rev_is(rev)))
    }

    /// Adds to `tx` a new booked meeting (its uid is the booking's idempotency key).
    pub fn add_meeting(&self, tx: &mut Tx, m: &Meeting) -> Result<(), ApiError> {
        let mut item: Item = serde_dynamo::to_item(m).map_err(ApiError::internal)?;
        keys::meeting::meeting(&m.customer_uid, &m.uid).stamp(&mut item);
        item.insert("entity".into(), s("meeting"));
        tx.put_if(item, Some(Cond::absent()))
    }

    /// Adds to `tx` the removal of a booked meeting (it must still be there).
    pub fn add_meeting_delete(&self, tx: &mut Tx, m: &Meeting) -> Result<(), ApiError> {
        tx.delete(&keys::meeting::meeting(&m.customer_uid, &m.uid), Some(Cond::present()))
    }

    pub async fn meeting(&self, customer_uid: &str, uid: &str) -> Result<Option<Meeting>, ApiError> {
        self.get_consistent_as(&keys::meeting::meeting(customer_uid, uid)).await
    }

    /// A customer's booked meetings in start order (one Query).
    pub async fn meetings(&self, customer_uid: &str) -> Result<Vec<Meeting>, ApiError> {
        let items = self.query_prefix(&keys::customer::pk(customer_uid), keys::meeting::MEETING_PREFIX).await?;
        let mut out: Vec<Meeting> = super::readable_items(items);
        out.sort_by_key(|m| m.start);
        Ok(out)
    }
}

//! Debt-collection claims in the customer's partition, the office's open
//! hand-overs to the collection agency, and the pointer from the signing provider's envelope id to ours (the
//! callback's way in); see `table.rs`. Claims carry `rev`; a status update
//! is conditional on it.

use super::tx::{Cond, Tx};
use super::{keys, n, s, Item, Store};
use crate::domain::inkasso::Claim;
use crate::error::ApiError;

fn rev_of(item: &Item) -> u64 {
    item.get("rev").and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok()).unwrap_or(0)
}

impl Store {
    /// Adds to `tx` the write of `c` over revision `rev` (new when None).
    pub fn add_claim(&self, tx: &mut Tx, c: &Claim, rev: Option<u64>) -> Result<(), ApiError> {
        let mut item: Item = serde_dynamo::to_item(c).map_err(ApiError::internal)?;
        keys::inkasso::claim(&c.customer_uid, &c.uid).stamp(&mut item);
        item.insert("entity".into(), s("inkasso_claim"));
        item.insert("rev".into(), n(rev.map_or(1, |r| r + 1)));
        let cond = match rev {
            None => Cond::absent(),
            Some(r) => Cond::new("rev = :rev").value(":rev", n(r)),
        };
        tx.put_if(item, Some(cond))
    }

    /// A claim and its revision, read consistently.
    pub async fn claim(&self, customer_uid: &str, uid: &str) -> Result<Option<(Claim, u64)>, ApiError> {
        let Some(item) = self.get_consistent(&keys::inkasso::claim(customer_uid, uid)).await? else {
            return Ok(None);
        };
        let rev = rev_of(&item);
        Ok(Some((serde_dynamo::from_item(item).map_err(ApiError::internal)?, rev)))
    }

    /// A customer's claims, newest first (one Query).
    pub async fn claims(&self, customer_uid: &str) -> Result<Vec<Claim>, ApiError> {
        let items = self.query_prefix(&keys::customer::pk(customer_uid), keys::inkasso::CLAIM_PREFIX).await?;
        let mut out: Vec<Claim> = super::readable_items(items);
        out.sort_by_key(|c| std::cmp::Reverse(c.created_at));
        Ok(out)
    }

    /// Adds to `tx` an open hand-over: the application of `customer_uid`
    /// (`claim` None) or one of its claims (put again while it stays open).
    pub fn add_handover(&self, tx: &mut Tx, customer_uid: &str, claim: Option<&str>) -> Result<(), ApiError> {
        let key = match claim {
            None => keys::inkasso_handover::application(customer_uid),
            Some(uid) => keys::inkasso_handover::claim(customer_uid, uid),
        };
        let mut item = key.item();
        item.insert("entity".into(), s("inkasso_handover"));
        item.insert("customer_uid".into(), s(customer_uid));
        if let Some(uid) = claim {
            item.insert("uid".into(), s(uid));
        }
        tx.put_if(item, None)
    }

    /// Adds to `tx` the removal of an open hand-over (done: the agency answered, or the claim is closed).
    pub fn remove_handover(&self, tx: &mut Tx, customer_uid: &str, claim: Option<&str>) -> Result<(), ApiError> {
        let key = match claim {
            None => keys::inkasso_handover::application(customer_uid),
            Some(uid) => keys::inkasso_handover::claim(customer_uid, uid),
        };
        tx.delete(&key, None)
    }

    /// The open hand-overs as `(customer uid, claim uid)` (None: the
    /// application): applications first (one Query each kind).
    pub async fn handovers(&self) -> Result<Vec<(String, Option<String>)>, ApiError> {
        let mut items = self.query_prefix(keys::inkasso_handover::PK, keys::inkasso_handover::APPLICATION_PREFIX).await?;
        items.extend(self.query_prefix(keys::inkasso_handover::PK, keys::inkasso_handover::CLAIM_PREFIX).await?);
        Ok(items
            .iter()
            .filter_map(|i| {
                let customer = i.get("customer_uid").and_then(|v| v.as_s().ok())?.clone();
                Some((customer, i.get("uid").and_then(|v| v.as_s().ok()).cloned()))
            })
            .collect())
    }

    /// Adds to `tx` the pointer from the provider's envelope id to ours.
    pub fn add_envelope_pointer(&self, tx: &mut Tx, provider_id: &str, customer_uid: &str, uid: &str) -> Result<(), ApiError> {
        let mut item = Item::new();
        keys::verified_envelope::item(provider_id).stamp(&mut item);
        item.insert("entity".into(), s("envelope_pointer"));
        item.insert("customer_uid".into(), s(customer_uid));
        item.insert("uid".into(), s(uid));
        tx.put_if(item, None)
    }

    /// `(customer uid, envelope uid)` of the provider's envelope.
    pub async fn envelope_pointer(&self, provider_id: &str) -> Result<Option<(String, String)>, ApiError> {
        let Some(item) = self.get_consistent(&keys::verified_envelope::item(provider_id)).await? else {
            return Ok(None);
        };
        let text = |k: &str| item.get(k).and_then(|v| v.as_s().ok()).cloned();
        Ok(text("customer_uid").zip(text("uid")))
    }
}

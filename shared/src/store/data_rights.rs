//! The data-rights records (see `table.rs`): a customer's exports in its own
//! partition, the one-at-a-time slot beside them, the worker's queue, and
//! the plain reads an export gathers (whole partitions and index
//! partitions, as raw items).

use chrono::{DateTime, Utc};

use super::tx::{Cond, Tx};
use super::{keys, n, s, sdk_err, Item, Store};
use crate::domain::data_rights::{DataExport, ErasureRequest, ErasureState, ExportState};
use crate::error::ApiError;

fn export_item(e: &DataExport) -> Result<Item, ApiError> {
    let mut item: Item = serde_dynamo::to_item(e).map_err(ApiError::internal)?;
    keys::data_rights::export(&e.customer_uid, &e.id).stamp(&mut item);
    keys::IndexKey::gsi1(keys::data_rights::REQUESTS_GSI1PK, keys::created_sk(e.created_at, &e.id)).stamp(&mut item);
    item.insert("entity".into(), s("data_export"));
    Ok(item)
}

fn erasure_item(r: &ErasureRequest) -> Result<Item, ApiError> {
    let mut item: Item = serde_dynamo::to_item(r).map_err(ApiError::internal)?;
    keys::data_rights::erasure(&r.customer_uid, &r.id).stamp(&mut item);
    keys::IndexKey::gsi1(keys::data_rights::REQUESTS_GSI1PK, keys::created_sk(r.created_at, &r.id)).stamp(&mut item);
    item.insert("entity".into(), s("erasure_request"));
    Ok(item)
}

fn state_is(state: ExportState) -> Cond {
    Cond::new("#state = :state").name("#state", "state").value(":state", s(state_word(state)))
}

fn state_word(state: ExportState) -> &'static str {
    match state {
        ExportState::Queued => "queued",
        ExportState::Running => "running",
        ExportState::Ready => "ready",
        ExportState::Failed => "failed",
        ExportState::Expired => "expired",
    }
}

/// An item as plain JSON (numbers as numbers, sets as lists).
pub fn item_json(item: Item) -> serde_json::Map<String, serde_json::Value> {
    match serde_dynamo::from_item::<_, serde_json::Value>(item) {
        Ok(serde_json::Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    }
}

impl Store {
    /// Adds to `tx` a new export, the customer's one-at-a-time slot (taken
    /// unless another export holds it and is not stale) and the worker's
    /// queue entry.
    pub fn add_export_request(&self, tx: &mut Tx, e: &DataExport, now: DateTime<Utc>) -> Result<(), ApiError> {
        tx.put_new(export_item(e)?)?;
        let stale = now - chrono::Duration::minutes(crate::domain::data_rights::EXPORT_STALE_MINUTES);
        tx.put_if(
            keys::data_rights::export_slot(&e.customer_uid).with([("export_id", s(&e.id)), ("taken_at", n(now.timestamp()))]),
            Some(Cond::new("attribute_not_exists(PK) OR taken_at < :stale").value(":stale", n(stale.timestamp()))),
        )?;
        tx.put_new(keys::data_rights::queued(e.created_at, &e.id).with([("customer_uid", s(&e.customer_uid)), ("export_id", s(&e.id))]))
    }

    /// One export (consistent).
    pub async fn data_export(&self, customer_uid: &str, id: &str) -> Result<Option<DataExport>, ApiError> {
        self.get_consistent_as(&keys::data_rights::export(customer_uid, id)).await
    }

    /// A customer's exports, newest first, at most `limit` (Query of its
    /// partition, `begins_with(SK, EXPORT#)` descending).
    pub async fn data_exports(&self, customer_uid: &str, limit: i32) -> Result<Vec<DataExport>, ApiError> {
        self.newest_requests(customer_uid, keys::data_rights::EXPORT_PREFIX, limit).await
    }

    /// A customer's newest requests of one kind (`prefix`), consistent.
    async fn newest_requests<T: serde::de::DeserializeOwned>(
        &self,
        customer_uid: &str,
        prefix: &str,
        limit: i32,
    ) -> Result<Vec<T>, ApiError> {
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .consistent_read(true)
            .key_condition_expression("PK = :p AND begins_with(SK, :e)")
            .expression_attribute_values(":p", s(keys::customer::pk(customer_uid)))
            .expression_attribute_values(":e", s(prefix))
            .scan_index_forward(false)
            .limit(limit)
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(super::readable_items(out.items.unwrap_or_default()))
    }

    /// Every customer's requests (exports and erasures) newest first, raw,
    /// a page of at most `limit` after `cursor`, only those in state `state`
    /// when given (admin's requests list: Query GSI1 `DATAREQ`, filtered on
    /// the request's own `state`; rounds go on until the page is full or the
    /// index ends, so a filtered list still fills its page).
    pub async fn data_requests(
        &self,
        cursor: Option<&str>,
        limit: usize,
        state: Option<&str>,
    ) -> Result<(Vec<Item>, Option<String>), ApiError> {
        let mut items = Vec::new();
        let mut after = cursor.map(str::to_string);
        let at = super::ListAt::gsi1(keys::data_rights::REQUESTS_GSI1PK);
        loop {
            let narrow = |q: super::QueryFluentBuilder| match state {
                Some(st) => q
                    .filter_expression("#state = :state")
                    .expression_attribute_names("#state", "state")
                    .expression_attribute_values(":state", s(st)),
                None => q,
            };
            let round = self.round_after(&at, after.as_deref(), false, (limit * 2).clamp(10, 100) as i32, narrow).await?;
            for item in round.items {
                if items.len() == limit {
                    break;
                }
                after = item.get("GSI1SK").and_then(|v| v.as_s().ok()).cloned();
                items.push(item);
            }
            if items.len() == limit {
                return Ok((items, after));
            }
            match round.stopped_at {
                Some(k) => after = Some(k),
                None => return Ok((items, None)),
            }
        }
    }

    /// Adds to `tx` a new erasure request and the customer's "one open
    /// request" slot (only if no request is open).
    pub fn add_erasure_request(&self, tx: &mut Tx, r: &ErasureRequest) -> Result<(), ApiError> {
        tx.put_new(erasure_item(r)?)?;
        tx.put_new(keys::data_rights::erasure_slot(&r.customer_uid).with([("request_id", s(&r.id))]))
    }

    /// Adds to `tx` the rewrite of `r`, conditional on its stored state being `from`.
    pub fn add_erasure_move(&self, tx: &mut Tx, r: &ErasureRequest, from: ErasureState) -> Result<(), ApiError> {
        tx.put_if(erasure_item(r)?, Some(Cond::new("#state = :state").name("#state", "state").value(":state", s(from.word()))))
    }

    /// Adds to `tx` the release of the customer's open-request slot (a refusal).
    pub fn add_erasure_slot_release(&self, tx: &mut Tx, customer_uid: &str, id: &str) -> Result<(), ApiError> {
        tx.delete(&keys::data_rights::erasure_slot(customer_uid), Some(Cond::new("request_id = :id").value(":id", s(id))))
    }

    /// One erasure request (consistent).
    pub async fn erasure_request(&self, customer_uid: &str, id: &str) -> Result<Option<ErasureRequest>, ApiError> {
        self.get_consistent_as(&keys::data_rights::erasure(customer_uid, id)).await
    }

    /// A customer's erasure requests, newest first (Query `begins_with(SK, ERASURE#)` descending, consistent).
    pub async fn erasure_requests(&self, customer_uid: &str, limit: i32) -> Result<Vec<ErasureRequest>, ApiError> {
        self.newest_requests(customer_uid, keys::data_rights::ERASURE_PREFIX, limit).await
    }

    /// Deletes each item by key (idempotent: an absent item is no error).
    pub async fn delete_keys(&self, keys: &[keys::Key]) -> Result<(), ApiError> {
        for key in keys {
            self.client.delete_item().table_name(&self.table).set_key(Some(key.item())).send().await.map_err(sdk_err)?;
        }
        Ok(())
    }

    /// The worker's queue: (customer uid, export id), oldest first, at most `limit`.
    pub async fn queued_exports(&self, limit: i32) -> Result<Vec<(String, String)>, ApiError> {
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .consistent_read(true)
            .key_condition_expression("PK = :p")
            .expression_attribute_values(":p", s(keys::data_rights::QUEUE_PK))
            .limit(limit)
            .send()
            .await
            .map_err(sdk_err)?;
        let text = |i: &Item, a: &str| i.get(a).and_then(|v| v.as_s().ok()).cloned();
        Ok(out.items.unwrap_or_default().iter().filter_map(|i| Some((text(i, "customer_uid")?, text(i, "export_id")?))).collect())
    }

    /// Moves `e` from `from` to its current state and step (conditional on
    /// `from`); false when another worker moved it first.
    pub async fn move_export(&self, e: &DataExport, from: ExportState) -> Result<bool, ApiError> {
        let mut tx = self.tx();
        tx.put_if(export_item(e)?, Some(state_is(from)))?;
        self.commit(tx).await
    }

    /// Adds to `tx` the end of `e`'s run (ready or failed, from running):
    /// its record, its queue entry and its slot released.
    /// A ready export's ZIP is filed for the retention job under the last
    /// day it may be downloaded.
    pub fn add_export_finished(&self, tx: &mut Tx, e: &DataExport) -> Result<(), ApiError> {
        tx.put_if(export_item(e)?, Some(state_is(ExportState::Running)))?;
        if let (ExportState::Ready, Some(ready_at)) = (e.state, e.finished_at) {
            let kept_until = crate::domain::retention::kept_until(crate::domain::retention::RecordKind::Export, ready_at);
            let record = super::retention::DueRecord::Export { customer_uid: e.customer_uid.clone(), export_id: e.id.clone() };
            self.add_retention_due(tx, &record, kept_until)?;
        }
        tx.delete(&keys::data_rights::queued(e.created_at, &e.id), None)?;
        tx.delete(&keys::data_rights::export_slot(&e.customer_uid), Some(Cond::new("export_id = :id").value(":id", s(&e.id))))
    }

    /// Marks a ready export expired (its ZIP is gone), conditional on it
    /// still being ready; false when it was not.
    pub fn add_export_expired(&self, tx: &mut Tx, e: &DataExport) -> Result<(), ApiError> {
        let mut gone = e.clone();
        gone.state = ExportState::Expired;
        tx.put_if(export_item(&gone)?, Some(state_is(ExportState::Ready)))
    }

    /// Drops a queue entry whose export is gone or finished (a worker that
    /// stopped between its steps).
    pub async fn drop_queued_export(&self, created_at: DateTime<Utc>, id: &str) -> Result<(), ApiError> {
        self.client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(keys::data_rights::queued(created_at, id).item()))
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(())
    }

    /// Every item of partition `pk` whose sort key begins with `prefix`
    /// (empty: the whole partition).
    pub async fn partition_items(&self, pk: &str, prefix: &str) -> Result<Vec<Item>, ApiError> {
        let q = self.client.query().table_name(&self.table).expression_attribute_values(":p", s(pk));
        let q = if prefix.is_empty() {
            q.key_condition_expression("PK = :p")
        } else {
            q.key_condition_expression("PK = :p AND begins_with(SK, :b)").expression_attribute_values(":b", s(prefix))
        };
        self.query_all(q).await
    }

    /// Every item under `pk` of index `index` (`GSI1` or `GSI2`).
    pub async fn index_items(&self, index: &str, pk: &str) -> Result<Vec<Item>, ApiError> {
        self.query_all(self.index_query(index, pk)).await
    }
}

//! The conflict-of-interest index and its audit trail.
//!
//! When a party (customer, company, contact person, case counterpart) is
//! saved, it is written under each of its search keys
//! ([`crate::domain::conflict::index_keys`]): `PK = CONFLICT#<key>`,
//! `SK = <kind>#<uid>`, carrying the name and identity number to score. A
//! record item (`CONFLICTREC#<kind>#<uid>` / `KEYS`) remembers the keys, so a
//! re-save removes the keys the new name no longer has. A search reads the
//! partitions of the query's keys (one Query each, bounded), never the table.
//!
//! Every search is recorded under `AUDIT#CONFLICT#<yyyy-mm>` for the firm's
//! audit, newest first by sort key.

use std::collections::{BTreeMap, HashSet};

use aws_sdk_dynamodb::types::{AttributeValue, Delete, Put, TransactWriteItem};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{keys, n, s, sdk_err, Item, Store};
use crate::domain::conflict::{self, Match, PartyKind};
use crate::error::ApiError;

/// At most this many index items are read per key: a search stays bounded
/// even for very common prefixes.
const PER_KEY_LIMIT: i32 = 500;
/// DynamoDB transactions take at most 100 items.
const TRANSACTION_LIMIT: usize = 100;

/// A party as the index knows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Party {
    pub kind: PartyKind,
    /// The uid of the record (customer, contact, case).
    pub uid: String,
    /// The name that is searched and shown.
    pub name: String,
    /// Organisationsnummer or personnummer, when known.
    pub identity_number: Option<String>,
    /// The customer the party belongs to (a contact's company, a case's
    /// customer), for the result page's link.
    pub customer_uid: Option<String>,
    /// Free text shown beside the hit, e.g. the case subject.
    pub context: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct Hit {
    pub party: Party,
    #[serde(flatten)]
    pub matched: Match,
}

/// One recorded search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SearchAudit {
    #[schema(value_type = String, format = DateTime)]
    pub at: DateTime<Utc>,
    pub user_uid: String,
    pub user_email: String,
    pub query: String,
    pub hits: usize,
    /// The best hits' names, as the searcher saw them.
    pub top: Vec<String>,
}

fn index_item(key: &str, p: &Party) -> Result<Item, ApiError> {
    let mut item: Item = serde_dynamo::to_item(p).map_err(ApiError::internal)?;
    item.insert("PK".into(), s(keys::conflict::index_pk(key)));
    item.insert("SK".into(), s(keys::conflict::index_sk(p.kind, &p.uid)));
    item.insert("entity".into(), s("conflict_index"));
    Ok(item)
}

impl Store {
    /// Writes (or rewrites) a party's search keys; keys its previous name had
    /// and the new one lacks are removed.
    pub async fn index_party(&self, party: &Party) -> Result<(), ApiError> {
        let keys = conflict::index_keys(&party.name, party.identity_number.as_deref());
        let old = self.indexed_keys(party.kind, &party.uid).await?;
        let mut writes: Vec<TransactWriteItem> = Vec::new();
        for key in &keys {
            let put = Put::builder().table_name(&self.table).set_item(Some(index_item(key, party)?)).build().map_err(ApiError::internal)?;
            writes.push(TransactWriteItem::builder().put(put).build());
        }
        let sk = keys::conflict::index_sk(party.kind, &party.uid);
        for stale in old.iter().filter(|k| !keys.contains(k)) {
            let del = Delete::builder()
                .table_name(&self.table)
                .key("PK", s(keys::conflict::index_pk(stale)))
                .key("SK", s(&sk))
                .build()
                .map_err(ApiError::internal)?;
            writes.push(TransactWriteItem::builder().delete(del).build());
        }
        let record = Put::builder()
            .table_name(&self.table)
            .item("PK", s(keys::conflict::record_pk(party.kind, &party.uid)))
            .item("SK", s(keys::conflict::RECORD_SK))
            .item("entity", s("conflict_record"))
            .item("search_keys", AttributeValue::L(keys.iter().map(s).collect()))
            .build()
            .map_err(ApiError::internal)?;
        writes.push(TransactWriteItem::builder().put(record).build());
        // Names have a handful of words, so this is one transaction in practice;
        // a very long name is written in chunks (the record item last).
        for chunk in writes.chunks(TRANSACTION_LIMIT) {
            self.client.transact_write_items().set_transact_items(Some(chunk.to_vec())).send().await.map_err(sdk_err)?;
        }
        Ok(())
    }

    /// Removes a party from the index (e.g. a deleted counterpart).
    pub async fn unindex_party(&self, kind: PartyKind, uid: &str) -> Result<(), ApiError> {
        let sk = keys::conflict::index_sk(kind, uid);
        for key in self.indexed_keys(kind, uid).await? {
            self.client
                .delete_item()
                .table_name(&self.table)
                .key("PK", s(keys::conflict::index_pk(&key)))
                .key("SK", s(&sk))
                .send()
                .await
                .map_err(sdk_err)?;
        }
        self.client
            .delete_item()
            .table_name(&self.table)
            .key("PK", s(keys::conflict::record_pk(kind, uid)))
            .key("SK", s(keys::conflict::RECORD_SK))
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(())
    }

    async fn indexed_keys(&self, kind: PartyKind, uid: &str) -> Result<Vec<String>, ApiError> {
        let Some(item) = self.get(&keys::conflict::record_pk(kind, uid), keys::conflict::RECORD_SK).await? else { return Ok(vec![]) };
        Ok(item
            .get("search_keys")
            .and_then(|v| v.as_l().ok())
            .map(|l| l.iter().filter_map(|v| v.as_s().ok().cloned()).collect())
            .unwrap_or_default())
    }

    /// Candidates under the query's keys, scored; best first.
    pub async fn search_parties(&self, query: &str) -> Result<Vec<Hit>, ApiError> {
        let mut candidates: BTreeMap<String, Party> = BTreeMap::new();
        for key in conflict::query_keys(query) {
            let out = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("PK = :pk")
                .expression_attribute_values(":pk", s(keys::conflict::index_pk(&key)))
                .limit(PER_KEY_LIMIT)
                .send()
                .await
                .map_err(sdk_err)?;
            for item in out.items() {
                let party: Party = serde_dynamo::from_item(item.clone()).map_err(ApiError::internal)?;
                candidates.entry(keys::conflict::index_sk(party.kind, &party.uid)).or_insert(party);
            }
        }
        let mut hits: Vec<Hit> = candidates
            .into_values()
            .filter_map(|party| conflict::score(query, &party.name, party.identity_number.as_deref()).map(|matched| Hit { party, matched }))
            .collect();
        hits.sort_by(|a, b| b.matched.score.total_cmp(&a.matched.score).then_with(|| a.party.name.cmp(&b.party.name)));
        Ok(hits)
    }

    /// Records a search for the audit trail.
    pub async fn record_conflict_search(&self, audit: &SearchAudit) -> Result<(), ApiError> {
        let mut item: Item = serde_dynamo::to_item(audit).map_err(ApiError::internal)?;
        item.insert("PK".into(), s(keys::conflict::audit_pk(audit.at)));
        item.insert("SK".into(), s(keys::conflict::audit_sk(audit.at, &uuid::Uuid::new_v4().to_string())));
        item.insert("entity".into(), s("conflict_search_audit"));
        item.insert("hit_count".into(), n(audit.hits));
        self.client.put_item().table_name(&self.table).set_item(Some(item)).send().await.map_err(sdk_err)?;
        Ok(())
    }

    /// The searches of one month, newest first.
    pub async fn conflict_searches(&self, month_of: DateTime<Utc>, limit: i32) -> Result<Vec<SearchAudit>, ApiError> {
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :pk")
            .expression_attribute_values(":pk", s(keys::conflict::audit_pk(month_of)))
            .scan_index_forward(false)
            .limit(limit)
            .send()
            .await
            .map_err(sdk_err)?;
        out.items().iter().map(|i| serde_dynamo::from_item(i.clone()).map_err(ApiError::internal)).collect()
    }
}

/// Distinct names, in order, for the audit's `top`.
pub fn top_names(hits: &[Hit], n: usize) -> Vec<String> {
    let mut seen = HashSet::new();
    hits.iter().map(|h| h.party.name.clone()).filter(|name| seen.insert(name.clone())).take(n).collect()
}

//! The conflict-of-interest index and its audit trail.
//!
//! When a party (customer, company, contact person, case counterpart) is
//! saved, it is written under each of its search keys
//! ([`crate::domain::conflict::index_keys`]): `PK = CONFLICT#<key>`,
//! `SK = <kind>#<uid>`, carrying the name and identity number to score. A
//! record item (`CONFLICTREC#<kind>#<uid>` / `KEYS`) remembers the keys, so a
//! re-save removes the keys the new name no longer has. A search reads the
//! partitions of its most specific word's keys (one Query each, at most
//! [`PER_KEY_LIMIT`] items), never the table: every hit has a word close to
//! each word of the query, so one word read whole finds them all. When no
//! word can be read whole, the search answers `search_too_broad` (type more
//! letters) instead of leaving hits out.
//!
//! Every search is recorded under `AUDIT#CONFLICT#<yyyy-mm>` for the firm's
//! audit, newest first by sort key.

use std::collections::{BTreeMap, HashSet};

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::tx::{Cond, Tx};
use super::{keys, n, s, sdk_err, Item, Store};
use crate::domain::conflict::{self, Match, PartyKind};
use crate::error::ApiError;

/// At most this many index items are read per key. A key holding more is
/// too broad to read whole: its word cannot vouch for every hit (another
/// word of the query may; otherwise the search asks for more letters).
pub const PER_KEY_LIMIT: i32 = 400;

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

/// A search's hits and the index items it read (the benchmark's figure).
pub struct PartySearch {
    pub hits: Vec<Hit>,
    pub items_read: usize,
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
    keys::conflict::index(key, p.kind, &p.uid).stamp(&mut item);
    item.insert("entity".into(), s("conflict_index"));
    Ok(item)
}

/// What the index holds of a party now: its keys and the version of its
/// record (None: never indexed). Read consistently before a write, so the
/// write can be conditional on it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Indexed {
    pub keys: Vec<String>,
    pub ver: Option<u64>,
}

/// The index change of one party: index it under its current name
/// (`Some`), or remove it (`None`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IndexChange {
    pub kind: PartyKind,
    pub uid: String,
    pub party: Option<Party>,
}

impl IndexChange {
    pub fn index(party: Party) -> Self {
        IndexChange { kind: party.kind, uid: party.uid.clone(), party: Some(party) }
    }
    pub fn remove(kind: PartyKind, uid: &str) -> Self {
        IndexChange { kind, uid: uid.to_string(), party: None }
    }
    fn wanted_keys(&self) -> Vec<String> {
        match &self.party {
            Some(p) => conflict::index_keys(&p.name, p.identity_number.as_deref()),
            None => Vec::new(),
        }
    }
    /// How many transaction items [`Store::add_index_writes`] adds.
    pub fn item_count(&self, now: &Indexed) -> usize {
        let wanted = self.wanted_keys();
        let stale = now.keys.iter().filter(|k| !wanted.contains(k)).count();
        let record = usize::from(self.party.is_some() || now.ver.is_some());
        wanted.len() + stale + record
    }
    fn follow_up_sk(&self) -> String {
        keys::follow_up::sk(FOLLOW_UP_KIND, &keys::conflict::index_sk(self.kind, &self.uid))
    }
}

/// Follow-ups of this kind finish an index change too big for its transaction.
pub const FOLLOW_UP_KIND: &str = "conflict_index";

impl Store {
    /// What the index holds of a party (consistent read).
    pub async fn indexed(&self, kind: PartyKind, uid: &str) -> Result<Indexed, ApiError> {
        let Some(item) = self.get_consistent(&keys::conflict::record(kind, uid)).await? else {
            return Ok(Indexed::default());
        };
        Ok(Indexed {
            keys: item
                .get("search_keys")
                .and_then(|v| v.as_l().ok())
                .map(|l| l.iter().filter_map(|v| v.as_s().ok().cloned()).collect())
                .unwrap_or_default(),
            ver: Some(item.get("ver").and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok()).unwrap_or(0)),
        })
    }

    /// Adds to `tx` what makes the index hold `change`, given what it holds
    /// `now`: an item under each new key, deletes of keys the party no longer
    /// has, and the record, conditional on the version read (a concurrent
    /// re-index of the same party fails the transaction instead of leaving
    /// stale keys behind).
    pub fn add_index_writes(&self, tx: &mut Tx, change: &IndexChange, now: &Indexed) -> Result<(), ApiError> {
        let wanted = change.wanted_keys();
        if let Some(party) = &change.party {
            for key in &wanted {
                tx.put(index_item(key, party)?)?;
            }
        }
        for stale in now.keys.iter().filter(|k| !wanted.contains(k)) {
            tx.delete(&keys::conflict::index(stale, change.kind, &change.uid), None)?;
        }
        let version = match now.ver {
            None => Cond::absent(),
            Some(v) => Cond::new("ver = :ver").value(":ver", n(v)),
        };
        match (&change.party, now.ver) {
            (Some(_), _) => {
                let mut record = keys::conflict::record(change.kind, &change.uid).item();
                record.insert("entity".into(), s("conflict_record"));
                record.insert("search_keys".into(), AttributeValue::L(wanted.iter().map(s).collect()));
                record.insert("ver".into(), n(now.ver.map_or(1, |v| v + 1)));
                tx.put_if(record, Some(version))?;
            }
            (None, Some(_)) => tx.delete(&keys::conflict::record(change.kind, &change.uid), Some(version))?,
            (None, None) => {}
        }
        Ok(())
    }

    /// Adds the follow-up item that finishes `change` after the transaction
    /// commits (or, should the process stop first, at the next search or
    /// scheduled sweep). Idempotent: finishing it twice leaves the same index.
    pub fn add_index_follow_up(&self, tx: &mut Tx, change: &IndexChange) -> Result<String, ApiError> {
        let nonce = uuid::Uuid::new_v4().simple().to_string();
        let mut item: Item = serde_dynamo::to_item(change).map_err(ApiError::internal)?;
        keys::follow_up::at_sk(&change.follow_up_sk()).stamp(&mut item);
        item.insert("entity".into(), s("follow_up"));
        item.insert("nonce".into(), s(&nonce));
        tx.put(item)?;
        Ok(change.follow_up_sk())
    }

    /// Finishes one queued index change: the index writes in as many
    /// transactions as they need (the record last), then the follow-up item
    /// is removed if nobody queued a newer one meanwhile. `Ok(false)`: a
    /// concurrent change won; the newer follow-up finishes the work.
    pub async fn finish_index_follow_up(&self, follow_up_sk: &str) -> Result<bool, ApiError> {
        let Some(item) = self.get_consistent(&keys::follow_up::at_sk(follow_up_sk)).await? else { return Ok(true) };
        let nonce = item.get("nonce").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
        let change: IndexChange = serde_dynamo::from_item(item).map_err(ApiError::internal)?;
        let now = self.indexed(change.kind, &change.uid).await?;
        let mut all = self.tx();
        self.add_index_writes(&mut all, &change, &now)?;
        // The record (conditional on the version read) is the last item:
        // chunks before it only add wanted keys or remove stale ones, which is
        // harmless to repeat. Every chunk holds only while this follow-up is
        // the party's current one (a later save removes or replaces it), so a
        // superseded follow-up never writes over a newer index; a change that
        // fits goes in one transaction with the record.
        let mut items = all.into_items();
        let record = items.pop();
        let fits = items.len() + 2 <= super::tx::MAX_ITEMS;
        let mut last = self.tx();
        if fits {
            items.drain(..).for_each(|i| last.push(i));
        }
        for chunk in items.chunks(super::tx::MAX_ITEMS - 2) {
            let mut tx = self.tx();
            for i in chunk {
                tx.push(i.clone());
            }
            tx.push(self.follow_up_current(follow_up_sk, &nonce)?);
            if !self.commit(tx).await? {
                return Ok(false);
            }
        }
        if let Some(r) = record {
            last.push(r);
        }
        last.delete(&keys::follow_up::at_sk(follow_up_sk), Some(Cond::new("nonce = :n").value(":n", s(nonce))))?;
        self.commit(last).await
    }

    /// Adds to `tx` the removal of the party's pending follow-up, if any: a
    /// save that writes the party's index itself supersedes the state an
    /// older, unfinished follow-up carries.
    pub fn add_follow_up_superseded(&self, tx: &mut Tx, change: &IndexChange) -> Result<(), ApiError> {
        let del = aws_sdk_dynamodb::types::Delete::builder()
            .table_name(&self.table)
            .set_key(Some(keys::follow_up::at_sk(&change.follow_up_sk()).item()))
            .build()
            .map_err(ApiError::internal)?;
        tx.push(aws_sdk_dynamodb::types::TransactWriteItem::builder().delete(del).build());
        Ok(())
    }

    /// A check that the follow-up at `follow_up_sk` is still the one with `nonce`.
    fn follow_up_current(&self, follow_up_sk: &str, nonce: &str) -> Result<aws_sdk_dynamodb::types::TransactWriteItem, ApiError> {
        let check = aws_sdk_dynamodb::types::ConditionCheck::builder()
            .table_name(&self.table)
            .set_key(Some(keys::follow_up::at_sk(follow_up_sk).item()))
            .condition_expression("nonce = :n")
            .expression_attribute_values(":n", s(nonce))
            .build()
            .map_err(ApiError::internal)?;
        Ok(aws_sdk_dynamodb::types::TransactWriteItem::builder().condition_check(check).build())
    }

    /// Index follow-ups still waiting (a process stopped between a
    /// transaction and its follow-up), at most `limit`.
    pub async fn pending_index_follow_ups(&self, limit: i32) -> Result<Vec<String>, ApiError> {
        self.pending_follow_ups(FOLLOW_UP_KIND, limit).await
    }

    /// Candidates under the query's keys, scored; best first. A 400
    /// `search_too_broad` on the field `search` when no word of the query
    /// (nor its identity number) could be read whole.
    pub async fn search_parties(&self, query: &str) -> Result<Vec<Hit>, ApiError> {
        Ok(self.search_parties_counted(query).await?.hits)
    }

    /// [`Store::search_parties`] with the number of index items it read.
    /// Every number's keys and the most specific word's are read at once
    /// (one round trip); a further word's only when the words before could
    /// not be read whole.
    pub async fn search_parties_counted(&self, query: &str) -> Result<PartySearch, ApiError> {
        let plan = conflict::query_plan(query);
        let mut candidates: BTreeMap<String, Party> = BTreeMap::new();
        let mut items_read = 0usize;
        let mut add = |read: Vec<(bool, Vec<Party>)>| {
            let mut whole = true;
            for (w, parties) in read {
                whole &= w;
                items_read += parties.len();
                for party in parties {
                    candidates.entry(keys::conflict::index_sk(party.kind, &party.uid)).or_insert(party);
                }
            }
            whole
        };
        let mut words = plan.words.iter().map(|(_, keys)| keys);
        let first = words.next();
        let mut read = self.read_keys(plan.numbers.iter().chain(first.into_iter().flatten())).await?;
        let of_words = read.split_off(plan.numbers.len());
        // Identity numbers: exact keys, read whole.
        let numbers_whole = add(read);
        // Words, most specific first, until one was read whole.
        let mut words_whole = add(of_words) || first.is_none();
        while !words_whole {
            let Some(keys) = words.next() else { break };
            words_whole = add(self.read_keys(keys.iter()).await?);
        }
        if !numbers_whole || !words_whole || (plan.words.is_empty() && plan.numbers.is_empty()) {
            return Err(ApiError::field("search", crate::error::Msg::SearchTooBroad));
        }
        let mut hits: Vec<Hit> = candidates
            .into_values()
            .filter_map(|party| conflict::score(query, &party.name, party.identity_number.as_deref()).map(|matched| Hit { party, matched }))
            .collect();
        hits.sort_by(|a, b| b.matched.score.total_cmp(&a.matched.score).then_with(|| a.party.name.cmp(&b.party.name)));
        Ok(PartySearch { hits, items_read })
    }

    /// [`Store::read_key`] of each key, side by side; in the keys' order.
    async fn read_keys(&self, keys: impl Iterator<Item = &String>) -> Result<Vec<(bool, Vec<Party>)>, ApiError> {
        let mut calls = tokio::task::JoinSet::new();
        for (i, key) in keys.enumerate() {
            let (store, key) = (self.clone(), key.clone());
            // Within the request: its log line counts these requests too.
            calls.spawn(crate::telemetry::within_request(async move { (i, store.read_key(&key).await) }));
        }
        let mut read = Vec::with_capacity(calls.len());
        while let Some(done) = calls.join_next().await {
            let (i, r) = done.map_err(ApiError::internal)?;
            read.push((i, r?));
        }
        read.sort_by_key(|(i, _)| *i);
        Ok(read.into_iter().map(|(_, r)| r).collect())
    }

    /// Reads one key's partition: whether it was read whole (`false` when
    /// it holds more than [`PER_KEY_LIMIT`] items) and its parties.
    async fn read_key(&self, key: &str) -> Result<(bool, Vec<Party>), ApiError> {
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :pk")
            .expression_attribute_values(":pk", s(keys::conflict::index_pk(key)))
            // One more than the limit tells a partition of exactly the limit
            // from a broader one.
            .limit(PER_KEY_LIMIT + 1)
            .send()
            .await
            .map_err(sdk_err)?;
        let whole = out.items().len() <= PER_KEY_LIMIT as usize && out.last_evaluated_key.as_ref().is_none_or(|k| k.is_empty());
        let parties =
            out.items().iter().map(|item| serde_dynamo::from_item(item.clone()).map_err(ApiError::internal)).collect::<Result<_, _>>()?;
        Ok((whole, parties))
    }

    /// The Query of one month's searches, newest first.
    fn conflict_month(&self, month_of: DateTime<Utc>) -> super::QueryFluentBuilder {
        self.newest_of(&keys::conflict::audit_pk(month_of))
    }

    /// The searches of one month, newest first, as recorded before the
    /// audit trail kept them (read until they age out).
    pub async fn conflict_searches(&self, month_of: DateTime<Utc>, limit: i32) -> Result<Vec<SearchAudit>, ApiError> {
        let out = self.conflict_month(month_of).limit(limit).send().await.map_err(sdk_err)?;
        out.items().iter().map(|i| serde_dynamo::from_item(i.clone()).map_err(ApiError::internal)).collect()
    }
}

impl Store {
    /// Every search of one month, newest first (pages of 500), at most `max`.
    pub async fn conflict_searches_of_month(&self, month_of: DateTime<Utc>, max: usize) -> Result<Vec<SearchAudit>, ApiError> {
        let query = self.conflict_month(month_of).limit(500);
        let mut pages = super::Pages::new(query, None);
        let mut out = Vec::new();
        while let Some(page) = pages.next().await? {
            for i in page.items.unwrap_or_default() {
                out.push(serde_dynamo::from_item(i).map_err(ApiError::internal)?);
            }
            if out.len() >= max {
                break;
            }
        }
        out.truncate(max);
        Ok(out)
    }
}

/// Distinct names, in order, for the audit's `top`.
pub fn top_names(hits: &[Hit], n: usize) -> Vec<String> {
    let mut seen = HashSet::new();
    hits.iter().map(|h| h.party.name.clone()).filter(|name| seen.insert(name.clone())).take(n).collect()
}

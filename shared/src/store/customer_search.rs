//! The customer search index: one item per word of a customer's
//! name, company name, e-mail and registration number, so the customer
//! lists and dropdowns find any customer by any of those words with a
//! bounded number of reads, however many customers the firm has.
//!
//! - Word item: `PK = CUSTWORD#<first two letters of the word>`,
//!   `SK = <word>#<customer uid>`, with the customer's whole word list. A
//!   search reads the key range `begins_with(SK, <query word>)` of its
//!   longest word (only the items whose word begins so), keeps the customers
//!   that have a word beginning with each other query word, and reads their
//!   profiles with one BatchGetItem.
//! - Word record: `CUSTWORDS#<uid>` / `WORDS`: the words the customer is
//!   indexed under and a version `ver`; a save deletes the words the customer
//!   no longer has and puts the new ones, conditional on the version read.
//!
//! Written in the transaction of every customer save
//! ([`crate::services::events`], `CustomerSaved`). Customers saved before
//! this index existed are indexed on their next save, or at once by
//! `infra/reindex-search.sh`.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use super::tx::{Cond, Tx};
use super::{keys, n, s, Item, Store};
use crate::domain::customer::{CustomerProfile, CustomerState};
use crate::domain::customer_search::{search_words, SEARCH_WORD_MIN};
use crate::error::{ApiError, FieldErrors, Msg};

/// Index items read per round of a search page; rounds are bounded too.
const ROUND_ITEMS: i32 = 50;
/// Rounds of one page at most: a page reads at most `ROUNDS × ROUND_ITEMS`
/// index items and as many profiles, then answers with what it found and a
/// cursor to go on.
const ROUNDS: usize = 6;

/// What the index holds of one customer: its words and the record version.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IndexedWords {
    pub words: Vec<String>,
    pub ver: Option<u64>,
}

/// One page of a customer search: profiles, the index items read, and the
/// cursor (the last index item's sort key) when there may be more.
pub struct SearchPage {
    pub results: Vec<CustomerProfile>,
    pub next: Option<String>,
    pub items_read: usize,
}

/// The words of a query, folded like the index's; `Err` when none is long
/// enough to read a bounded key range.
pub fn query_words(query: &str) -> Result<Vec<String>, ApiError> {
    let words: Vec<String> =
        crate::domain::customer_search::fold_words(query).into_iter().filter(|w| w.chars().count() >= SEARCH_WORD_MIN).collect();
    if words.is_empty() {
        return Err(ApiError::field("search", Msg::SearchTooBroad));
    }
    Ok(words)
}

fn word_item(word: &str, uid: &str, all: &[String]) -> Item {
    keys::customer_search::word(word, uid).with([
        ("entity", s("customer_word")),
        ("customer_uid", s(uid)),
        ("word", s(word)),
        ("words", AttributeValue::L(all.iter().map(s).collect())),
    ])
}

impl Store {
    /// The words a customer is indexed under (consistent read, before a save).
    pub async fn customer_words(&self, uid: &str) -> Result<IndexedWords, ApiError> {
        let Some(item) = self.get_consistent(&keys::customer_search::record(uid)).await? else {
            return Ok(IndexedWords::default());
        };
        Ok(IndexedWords {
            words: item
                .get("words")
                .and_then(|v| v.as_l().ok())
                .map(|l| l.iter().filter_map(|v| v.as_s().ok().cloned()).collect())
                .unwrap_or_default(),
            ver: Some(item.get("ver").and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok()).unwrap_or(0)),
        })
    }

    /// How many items [`Store::add_customer_words`] adds for `profile`.
    pub fn customer_words_item_count(profile: &CustomerProfile, now: &IndexedWords) -> usize {
        let wanted = search_words(profile);
        if wanted == now.words {
            return 0;
        }
        // Every word item carries the whole list: all are rewritten when it changes.
        wanted.len() + now.words.iter().filter(|w| !wanted.contains(w)).count() + 1
    }

    /// Adds to `tx` what makes the index hold `profile`'s words, given what
    /// it holds `now`: the word items (each carrying the whole list), the
    /// deletes of words it no longer has, and the record conditional on the
    /// version read. Nothing when the words did not change.
    pub fn add_customer_words(&self, tx: &mut Tx, profile: &CustomerProfile, now: &IndexedWords) -> Result<(), ApiError> {
        let wanted = search_words(profile);
        if wanted == now.words {
            return Ok(());
        }
        for w in &wanted {
            tx.put(word_item(w, &profile.uid, &wanted))?;
        }
        for stale in now.words.iter().filter(|w| !wanted.contains(w)) {
            tx.delete(&keys::customer_search::word(stale, &profile.uid), None)?;
        }
        let version = match now.ver {
            None => Cond::absent(),
            Some(v) => Cond::new("ver = :ver").value(":ver", n(v)),
        };
        let record = keys::customer_search::record(&profile.uid).with([
            ("entity", s("customer_words")),
            ("words", AttributeValue::L(wanted.iter().map(s).collect())),
            ("ver", n(now.ver.map_or(1, |v| v + 1))),
        ]);
        tx.put_if(record, Some(version))
    }

    /// Customers with a word beginning with each word of `query` (name,
    /// company name, e-mail, registration number), in `state` (any when
    /// `None`), in the order of the matched word; `limit` a page. `cursor`
    /// is a page's `next`. Reads only the index items whose word begins with
    /// the query's longest word, at most a bounded number per page.
    pub async fn search_customers(
        &self,
        state: Option<CustomerState>,
        query: &str,
        cursor: Option<&str>,
        limit: usize,
        companies_only: bool,
    ) -> Result<SearchPage, ApiError> {
        let words = query_words(query)?;
        let lead = words.iter().max_by_key(|w| (w.chars().count(), std::cmp::Reverse((*w).clone()))).cloned().unwrap_or_default();
        let pk = keys::customer_search::word_pk(&lead);
        let start: Option<HashMap<String, AttributeValue>> = match cursor.filter(|c| !c.is_empty()) {
            Some(c) if c.starts_with(lead.as_str()) && c.contains('#') => {
                Some(HashMap::from([("PK".to_string(), s(&pk)), ("SK".to_string(), s(c))]))
            }
            Some(_) => {
                return Err(ApiError::BadRequest { message: Msg::ValidationFailed, fields: FieldErrors::of("cursor", Msg::InvalidCursor) })
            }
            None => None,
        };
        let mut results: Vec<CustomerProfile> = Vec::new();
        let mut items_read = 0usize;
        let mut last_sk: Option<String> = None;
        let query = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :pk AND begins_with(SK, :w)")
            .expression_attribute_values(":pk", s(&pk))
            .expression_attribute_values(":w", s(&lead))
            .limit(ROUND_ITEMS);
        let mut pages = super::Pages::new(query, start);
        for _ in 0..ROUNDS {
            let Some(out) = pages.next().await? else { break };
            items_read += out.items().len();
            // Items of customers that have every query word, each customer
            // once (under its first word beginning with the lead word).
            let mut wanted: Vec<(String, String)> = Vec::new();
            for item in out.items() {
                let text = |k: &str| item.get(k).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
                let all: Vec<String> = item
                    .get("words")
                    .and_then(|v| v.as_l().ok())
                    .map(|l| l.iter().filter_map(|v| v.as_s().ok().cloned()).collect())
                    .unwrap_or_default();
                let word = text("word");
                let first = all.iter().filter(|w| w.starts_with(lead.as_str())).min();
                let every = words.iter().all(|q| all.iter().any(|w| w.starts_with(q.as_str())));
                if every && first == Some(&word) {
                    wanted.push((text("customer_uid"), text("SK")));
                }
            }
            let profiles = self.get_customer_profiles(&wanted.iter().map(|(u, _)| u.clone()).collect::<Vec<_>>()).await?;
            items_read += profiles.len();
            let more = pages.more();
            let mut full = false;
            for (uid, sk) in &wanted {
                let Some(p) = profiles.get(uid) else { continue };
                if state.is_some_and(|st| p.state != st)
                    || (companies_only && p.customer_type != crate::domain::customer::CustomerType::Company)
                {
                    last_sk = Some(sk.clone());
                    continue;
                }
                if results.len() == limit {
                    full = true;
                    break;
                }
                results.push(p.clone());
                last_sk = Some(sk.clone());
            }
            if full {
                return Ok(SearchPage { results, next: last_sk, items_read });
            }
            if !more {
                return Ok(SearchPage { results, next: None, items_read });
            }
            // Go on after the last item this round read.
            last_sk = pages.start().and_then(|k| k.get("SK")).and_then(|v| v.as_s().ok()).cloned();
        }
        Ok(SearchPage { results, next: last_sk, items_read })
    }

    /// Profiles by customer uid (absent ones left out): one BatchGetItem
    /// per 100, unprocessed keys asked again.
    pub async fn get_customer_profiles(&self, uids: &[String]) -> Result<HashMap<String, CustomerProfile>, ApiError> {
        let keys: Vec<keys::Key> = uids.iter().map(|u| keys::customer::profile(u)).collect();
        let mut out = HashMap::new();
        for item in self.batch_get(&keys).await? {
            let p: CustomerProfile = serde_dynamo::from_item(item).map_err(ApiError::internal)?;
            out.insert(p.uid.clone(), p);
        }
        Ok(out)
    }
}

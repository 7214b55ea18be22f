//! Statistics counters: written with `UpdateItem ADD` in the
//! transaction of the event that changes them (or in an idempotent
//! follow-up when that transaction is full), read by a bounded number of
//! GetItem / Query calls: the items of the period's months and days times
//! the shards, whatever the data size. See [`crate::domain::statistics`] for
//! what each counter means and [`super::table`] for the keys.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::{AttributeValue, KeysAndAttributes};
use chrono::{Datelike, NaiveDate};

use super::keys::{follow_up, stats as k};
use super::tx::{Cond, Tx};
use super::{s, sdk_err, Item, Key, Store};
use crate::domain::calendar::{first_of_month, last_of_month};
use crate::domain::statistics::{Deltas, Period, Piece, Scope, When};
use crate::error::ApiError;

/// Metric → amount.
pub type Counts = BTreeMap<String, i64>;

/// One counter item's additions.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CounterWrite {
    pub pk: String,
    pub sk: String,
    pub add: Vec<(String, i64)>,
}

/// Updates per follow-up transaction (one more item deletes the follow-up).
const FOLLOW_UP_CHUNK: usize = 90;

fn shard_of(scope: &Scope, seed: u64) -> u8 {
    (seed % scope.shards() as u64) as u8
}

/// The item writes of `deltas`: a dated change goes to its day and its
/// month item, a gauge to the now item; scopes with shards use the shard
/// `seed` picks (a hash of the event id), so concurrent events spread.
pub fn counter_writes(deltas: &Deltas, seed: u64) -> Vec<CounterWrite> {
    let mut items: BTreeMap<(String, String), Counts> = BTreeMap::new();
    for ((scope, when), metrics) in &deltas.0 {
        let shard = shard_of(scope, seed);
        let key = scope.key();
        let targets = match when {
            When::Day(d) => vec![(k::day_pk(&key, shard, *d), k::day_sk(*d)), (k::month_pk(&key, shard, d.year()), k::month_sk(*d))],
            When::Now => vec![(k::now_pk(&key, shard), k::NOW_SK.to_string())],
        };
        for t in targets {
            let e = items.entry(t).or_default();
            for (m, v) in metrics {
                *e.entry(m.clone()).or_insert(0) += v;
            }
        }
    }
    items
        .into_iter()
        .filter_map(|((pk, sk), m)| {
            let add: Vec<(String, i64)> = m.into_iter().filter(|(_, v)| *v != 0).collect();
            (!add.is_empty()).then_some(CounterWrite { pk, sk, add })
        })
        .collect()
}

/// The metrics of a counter item (without its keys).
fn counts_of(item: &Item) -> Counts {
    item.iter()
        .filter(|(name, _)| name.as_str() != "PK" && name.as_str() != "SK")
        .filter_map(|(name, v)| v.as_n().ok().and_then(|n| n.parse::<i64>().ok()).map(|n| (name.clone(), n)))
        .collect()
}

fn add_counts(into: &mut Counts, from: &Counts) {
    for (m, v) in from {
        *into.entry(m.clone()).or_insert(0) += v;
    }
}

/// One figure of [`Store::stats_many`]: a scope's gauges now, or its
/// total over a period.
#[derive(Clone, Copy, Debug)]
pub enum Ask<'a> {
    Now(&'a Scope),
    Total(&'a Scope, &'a Period),
}

/// Figures read, with the number of items it took.
#[derive(Clone, Debug, Default)]
pub struct Read<T> {
    pub value: T,
    pub items: u64,
}

impl Store {
    /// Adds counter updates to `tx`.
    pub fn add_counters(&self, tx: &mut Tx, writes: &[CounterWrite]) -> Result<(), ApiError> {
        for w in writes {
            tx.add_numbers(&Key::new(&w.pk, &w.sk), &w.add)?;
        }
        Ok(())
    }

    /// Puts follow-up items holding `writes` (chunks of at most 90 items):
    /// each is finished by one transaction that adds its chunk and deletes
    /// it conditionally, so it counts once however often it is finished.
    pub fn add_counters_follow_up(&self, tx: &mut Tx, event_id: &str, writes: &[CounterWrite]) -> Result<Vec<String>, ApiError> {
        let mut sks = Vec::new();
        for (i, chunk) in writes.chunks(FOLLOW_UP_CHUNK).enumerate() {
            let sk = follow_up::sk(k::FOLLOW_UP, &format!("{event_id}#{i}"));
            let body = serde_json::to_string(chunk).map_err(ApiError::internal)?;
            let mut item = follow_up::at_sk(&sk).item();
            item.insert("writes".into(), s(body));
            tx.put_new(item)?;
            sks.push(sk);
        }
        Ok(sks)
    }

    /// Applies a counters follow-up (idempotent: the follow-up is deleted
    /// in the same transaction, conditional on its existence).
    pub async fn finish_counters_follow_up(&self, sk: &str) -> Result<(), ApiError> {
        for attempt in 0..8u32 {
            let Some(item) = self.get_consistent(&follow_up::at_sk(sk)).await? else { return Ok(()) };
            let body = item.get("writes").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
            let writes: Vec<CounterWrite> = serde_json::from_str(&body).map_err(ApiError::internal)?;
            let mut tx = self.tx();
            self.add_counters(&mut tx, &writes)?;
            tx.delete(&follow_up::at_sk(sk), Some(Cond::present()))?;
            if self.commit(tx).await? {
                return Ok(());
            }
            // Finished by someone else (gone on the next read), or a
            // concurrent transaction touched a counter: read and try again.
            tokio::time::sleep(std::time::Duration::from_millis(20 << attempt.min(5))).await;
        }
        Err(ApiError::Unavailable(format!("counters follow-up {sk} not finished")))
    }

    /// Counter follow-ups a stopped process left behind (at most `limit`).
    pub async fn pending_counters_follow_ups(&self, limit: i32) -> Result<Vec<String>, ApiError> {
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :p AND begins_with(SK, :s)")
            .expression_attribute_values(":p", s(follow_up::PK))
            .expression_attribute_values(":s", s(format!("{}#", k::FOLLOW_UP)))
            .limit(limit)
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(out.items().iter().filter_map(|i| i.get("SK").and_then(|v| v.as_s().ok()).cloned()).collect())
    }

    /// The gauges of a scope now (its shards summed).
    pub async fn stats_now(&self, scope: &Scope) -> Result<Read<Counts>, ApiError> {
        let key = scope.key();
        let keys: Vec<Key> = (0..scope.shards()).map(|sh| k::now(&key, sh)).collect();
        let items = self.batch_get(&keys).await?;
        let mut value = Counts::new();
        for i in &items {
            add_counts(&mut value, &counts_of(i));
        }
        Ok(Read { value, items: items.len() as u64 })
    }

    /// One counter item's metrics, read consistently (a change that moves
    /// them follows, guarded on what was read); empty when absent.
    pub async fn counter_item_latest(&self, key: &Key) -> Result<Counts, ApiError> {
        Ok(self.get_consistent(key).await?.as_ref().map(counts_of).unwrap_or_default())
    }

    /// Several scopes' gauges at once (e.g. a sales person's customers).
    pub async fn stats_now_many(&self, scopes: &[Scope]) -> Result<Read<Vec<Counts>>, ApiError> {
        self.stats_many(&scopes.iter().map(Ask::Now).collect::<Vec<_>>(), None).await
    }

    /// Several figures of a page at once (a dashboard's gauges now, its
    /// month, week and next 31 days): the keys of every ask read together
    /// in one BatchGetItem per 100, each item once however many asks
    /// share it (a week and the next 31 days overlap), instead of a read
    /// per figure. A total over a long period (more than
    /// [`POINT_READ_MAX_KEYS`] keys) is read as [`Self::stats_series`]
    /// reads it. `items`: the distinct items read.
    ///
    /// `only`: the metrics the page shows, when it names them all (the
    /// items are read with just those; every other metric reads as absent).
    pub async fn stats_many(&self, asks: &[Ask<'_>], only: Option<&[&str]>) -> Result<Read<Vec<Counts>>, ApiError> {
        let keys_of = |ask: &Ask<'_>| -> Option<Vec<Key>> {
            match ask {
                Ask::Now(scope) => {
                    let key = scope.key();
                    Some((0..scope.shards()).map(|sh| k::now(&key, sh)).collect())
                }
                Ask::Total(scope, period) => {
                    let keys = point_keys(&scope.key(), scope.shards(), &period.pieces());
                    (keys.len() <= POINT_READ_MAX_KEYS).then_some(keys)
                }
            }
        };
        let wanted: Vec<Option<Vec<Key>>> = asks.iter().map(keys_of).collect();
        let all: std::collections::BTreeSet<Key> = wanted.iter().flatten().flatten().cloned().collect();
        let all: Vec<Key> = all.into_iter().collect();
        let items = match only {
            Some(metrics) => self.batch_get_only(&all, metrics).await?,
            None => self.batch_get(&all).await?,
        };
        let mut read = items.len() as u64;
        let found: std::collections::HashMap<Key, Counts> = items.iter().filter_map(|i| Some((Key::of(i)?, counts_of(i)))).collect();
        let mut value = Vec::with_capacity(asks.len());
        for (ask, keys) in asks.iter().zip(wanted) {
            let mut total = Counts::new();
            match (keys, ask) {
                (Some(keys), _) => keys.iter().filter_map(|key| found.get(key)).for_each(|c| add_counts(&mut total, c)),
                (None, Ask::Total(scope, period)) => {
                    let r = self.stats_series(scope, period, false).await?;
                    read += r.items;
                    r.value.values().for_each(|c| add_counts(&mut total, c));
                    if let Some(metrics) = only {
                        total.retain(|m, _| metrics.contains(&m.as_str()));
                    }
                }
                (None, Ask::Now(_)) => {}
            }
            value.push(total);
        }
        Ok(Read { value, items: read })
    }

    /// A scope's figures over `period`, per day (`by_day`) or per month
    /// (labels `YYYY-MM-DD` / `YYYY-MM`; days of a partial month are
    /// summed into its month). Reads the period's day items where it must
    /// and month items for whole months, on every shard.
    pub async fn stats_series(&self, scope: &Scope, period: &Period, by_day: bool) -> Result<Read<BTreeMap<String, Counts>>, ApiError> {
        self.stats_series_sum(std::slice::from_ref(scope), period, by_day).await
    }

    /// Several scopes' figures over `period`, summed per label (the
    /// per-customer breakdown's buckets: their metrics never overlap, so
    /// the sum is every bucket's metrics side by side).
    pub async fn stats_series_sum(
        &self,
        scopes: &[Scope],
        period: &Period,
        by_day: bool,
    ) -> Result<Read<BTreeMap<String, Counts>>, ApiError> {
        let mut series: BTreeMap<String, Counts> = BTreeMap::new();
        let mut read = 0u64;
        let pieces: Vec<Piece> = if by_day {
            // Day items only, one range per month.
            let mut out = Vec::new();
            let mut d = period.from;
            while d <= period.to {
                let end = last_of_month(d).min(period.to);
                out.push(Piece::Days(d, end));
                d = end + chrono::Duration::days(1);
            }
            out
        } else {
            period.pieces()
        };
        // Whole months of one year: one Query per year and shard.
        let mut months: BTreeMap<i32, (NaiveDate, NaiveDate)> = BTreeMap::new();
        for p in &pieces {
            if let Piece::Month(m) = p {
                let e = months.entry(m.year()).or_insert((*m, *m));
                e.0 = e.0.min(*m);
                e.1 = e.1.max(*m);
            }
        }
        // Few items a scope (a dashboard's month, week or next 31 days; a
        // year of the breakdown's buckets): their keys are known, so one
        // BatchGetItem per 100 of them instead of a Query per scope, shard
        // and piece (a dashboard made 20–40 sequential calls; on the
        // stand-in, which answers one call at a time, that took seconds
        // under load). Not for long periods: a BatchGetItem is paid per key
        // asked, found or not, a Query by what it returns.
        let day_pieces = pieces.iter().filter(|p| matches!(p, Piece::Days(..))).count();
        let mut point = Vec::new();
        let mut queries = 0usize;
        let mut few = true;
        for scope in scopes {
            let keys = point_keys(&scope.key(), scope.shards(), &pieces);
            few &= keys.len() <= POINT_READ_MAX_KEYS;
            point.extend(keys);
            queries += scope.shards() as usize * (months.len() + day_pieces);
        }
        if few && point.len().div_ceil(100) < queries {
            let items = self.batch_get(&point).await?;
            for i in &items {
                let pk = i.get("PK").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
                let sk = i.get("SK").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
                // A day item (`…#DAY#…`) counts for its month unless days were asked.
                let label = if pk.contains("#DAY#") && !by_day {
                    NaiveDate::parse_from_str(&sk, "%Y-%m-%d").map(|d| k::month_sk(first_of_month(d))).unwrap_or(sk)
                } else {
                    sk
                };
                add_counts(series.entry(label).or_default(), &counts_of(i));
            }
            return Ok(Read { value: series, items: items.len() as u64 });
        }
        for scope in scopes {
            let key = scope.key();
            for shard in 0..scope.shards() {
                for (year, (a, b)) in &months {
                    let items = self.query_between(&k::month_pk(&key, shard, *year), &k::month_sk(*a), &k::month_sk(*b)).await?;
                    read += items.len() as u64;
                    for i in &items {
                        let label = i.get("SK").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
                        add_counts(series.entry(label).or_default(), &counts_of(i));
                    }
                }
                for p in &pieces {
                    if let Piece::Days(a, b) = p {
                        let items = self.query_between(&k::day_pk(&key, shard, *a), &k::day_sk(*a), &k::day_sk(*b)).await?;
                        read += items.len() as u64;
                        for i in &items {
                            let sk = i.get("SK").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
                            let label = if by_day { sk } else { k::month_sk(first_of_month(*a)) };
                            add_counts(series.entry(label).or_default(), &counts_of(i));
                        }
                    }
                }
            }
        }
        Ok(Read { value: series, items: read })
    }

    async fn query_between(&self, pk: &str, from: &str, to: &str) -> Result<Vec<Item>, ApiError> {
        let query = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :p AND SK BETWEEN :a AND :b")
            .expression_attribute_values(":p", s(pk))
            .expression_attribute_values(":a", s(from))
            .expression_attribute_values(":b", s(to));
        self.query_all(query).await
    }

    /// BatchGetItem of up to any number of keys (100 a call, the calls
    /// concurrent), found items only, in no particular order.
    pub async fn batch_get(&self, keys: &[Key]) -> Result<Vec<Item>, ApiError> {
        self.batch_get_with(keys, false, None).await
    }

    /// [`Self::batch_get`], strongly consistent: every item as last written.
    pub async fn batch_get_latest(&self, keys: &[Key]) -> Result<Vec<Item>, ApiError> {
        self.batch_get_with(keys, true, None).await
    }

    /// [`Self::batch_get`] of only some attributes of each item (and its
    /// keys): DynamoDB charges the whole item, but sends, and the stand-in
    /// encodes, only these.
    pub async fn batch_get_only(&self, keys: &[Key], attributes: &[&str]) -> Result<Vec<Item>, ApiError> {
        self.batch_get_with(keys, false, Some(attributes.iter().map(|a| a.to_string()).collect())).await
    }

    async fn batch_get_with(&self, keys: &[Key], consistent: bool, only: Option<Vec<String>>) -> Result<Vec<Item>, ApiError> {
        // DynamoDB refuses a call that names a key twice.
        let keys: Vec<Key> = keys.iter().cloned().collect::<std::collections::BTreeSet<_>>().into_iter().collect();
        if keys.len() <= 100 {
            return self.batch_get_chunk(keys, consistent, only).await;
        }
        // Independent calls: on DynamoDB they run side by side.
        let mut calls = tokio::task::JoinSet::new();
        for chunk in keys.chunks(100) {
            let (store, chunk, only) = (self.clone(), chunk.to_vec(), only.clone());
            calls.spawn(async move { store.batch_get_chunk(chunk, consistent, only).await });
        }
        let mut out = Vec::new();
        while let Some(done) = calls.join_next().await {
            out.extend(done.map_err(ApiError::internal)??);
        }
        Ok(out)
    }

    /// One BatchGetItem of at most 100 keys (none for no keys).
    async fn batch_get_chunk(&self, chunk: Vec<Key>, consistent: bool, only: Option<Vec<String>>) -> Result<Vec<Item>, ApiError> {
        let mut out = Vec::new();
        let mut want: Vec<std::collections::HashMap<String, AttributeValue>> = chunk.iter().map(Key::item).collect();
        // Keys DynamoDB left unprocessed (throttled, or past its 16 MB a
        // response) are asked again, with a growing pause; never dropped.
        for round in 0..8u32 {
            if want.is_empty() {
                return Ok(out);
            }
            if round > 0 {
                tokio::time::sleep(std::time::Duration::from_millis(25 << round.min(5))).await;
            }
            let mut ka = KeysAndAttributes::builder().set_keys(Some(want.clone())).consistent_read(consistent);
            if let Some(only) = &only {
                // Metric names hold dots (a path in an expression): every name by placeholder.
                let names: Vec<String> = ["PK", "SK"].into_iter().map(String::from).chain(only.iter().cloned()).collect();
                ka = ka.projection_expression((0..names.len()).map(|i| format!("#a{i}")).collect::<Vec<_>>().join(", "));
                for (i, n) in names.into_iter().enumerate() {
                    ka = ka.expression_attribute_names(format!("#a{i}"), n);
                }
            }
            let ka = ka.build().map_err(ApiError::internal)?;
            let res = self.client.batch_get_item().request_items(&self.table, ka).send().await.map_err(sdk_err)?;
            if let Some(items) = res.responses.and_then(|mut r| r.remove(&self.table)) {
                out.extend(items);
            }
            want = res.unprocessed_keys.and_then(|mut u| u.remove(&self.table)).map(|ka| ka.keys).unwrap_or_default();
        }
        if want.is_empty() {
            Ok(out)
        } else {
            Err(ApiError::internal(format!("{} keys still unprocessed after retries", want.len())))
        }
    }

    /// Writes items with BatchWriteItem, 25 a call (bulk loads only:
    /// benchmarks; no conditions, no transaction).
    pub async fn batch_put(&self, items: Vec<Item>) -> Result<(), ApiError> {
        use aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
        for chunk in items.chunks(25) {
            let mut reqs: Vec<WriteRequest> = chunk
                .iter()
                .map(|i| {
                    Ok(WriteRequest::builder()
                        .put_request(PutRequest::builder().set_item(Some(i.clone())).build().map_err(ApiError::internal)?)
                        .build())
                })
                .collect::<Result<_, ApiError>>()?;
            while !reqs.is_empty() {
                let out = self.client.batch_write_item().request_items(&self.table, reqs).send().await.map_err(sdk_err)?;
                reqs = out.unprocessed_items.and_then(|mut u| u.remove(&self.table)).unwrap_or_default();
            }
        }
        Ok(())
    }

    /// Counter writes as whole items (a bulk load into an empty table).
    pub fn counter_items(writes: &[CounterWrite]) -> Vec<Item> {
        let mut merged: BTreeMap<(String, String), Counts> = BTreeMap::new();
        for w in writes {
            let e = merged.entry((w.pk.clone(), w.sk.clone())).or_default();
            for (m, v) in &w.add {
                *e.entry(m.clone()).or_insert(0) += v;
            }
        }
        merged
            .into_iter()
            .map(|((pk, sk), counts)| {
                let mut item = Key::new(pk, sk).item();
                for (m, v) in counts.into_iter().filter(|(_, v)| *v != 0) {
                    item.insert(m, super::n(v));
                }
                item
            })
            .collect()
    }

    /// Every counter item (operator's recount only: a Scan, never a request path).
    pub async fn scan_counter_items(&self) -> Result<BTreeMap<(String, String), Counts>, ApiError> {
        let mut out = BTreeMap::new();
        for item in self.scan_prefix("STATS#").await? {
            let pk = item.get("PK").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
            let sk = item.get("SK").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
            out.insert((pk, sk), counts_of(&item));
        }
        Ok(out)
    }

    /// Every item whose PK starts with `prefix` (operator tools only: Scan).
    pub async fn scan_prefix(&self, prefix: &str) -> Result<Vec<Item>, ApiError> {
        let mut out = Vec::new();
        let mut start = None;
        // A Scan (the recount's whole-table read), which `Pages` (Queries) does not page.
        loop {
            let page = self
                .client
                .scan()
                .table_name(&self.table)
                .filter_expression("begins_with(PK, :p)")
                .expression_attribute_values(":p", s(prefix))
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(sdk_err)?;
            out.extend(page.items().iter().cloned());
            start = page.last_evaluated_key;
            if start.is_none() {
                return Ok(out);
            }
        }
    }

    /// Overwrites a counter item with `counts` (recount `--fix`), or
    /// deletes it when empty.
    pub async fn put_counter_item(&self, pk: &str, sk: &str, counts: &Counts) -> Result<(), ApiError> {
        if counts.values().all(|v| *v == 0) {
            self.client.delete_item().table_name(&self.table).key("PK", s(pk)).key("SK", s(sk)).send().await.map_err(sdk_err)?;
            return Ok(());
        }
        let mut item = Item::new();
        item.insert("PK".into(), s(pk));
        item.insert("SK".into(), s(sk));
        for (m, v) in counts.iter().filter(|(_, v)| **v != 0) {
            item.insert(m.clone(), super::n(v));
        }
        self.client.put_item().table_name(&self.table).set_item(Some(item)).send().await.map_err(sdk_err)?;
        Ok(())
    }
}

/// The most item keys a series reads by key (about a month of days on
/// every shard of `all`); more are read by Query.
pub const POINT_READ_MAX_KEYS: usize = 300;

/// Every item key of a period's pieces on every shard: a whole month's
/// month item, each day's day item.
fn point_keys(scope_key: &str, shards: u8, pieces: &[Piece]) -> Vec<Key> {
    let mut out = Vec::new();
    for shard in 0..shards {
        for p in pieces {
            match p {
                Piece::Month(m) => out.push(k::month(scope_key, shard, *m)),
                Piece::Days(a, b) => {
                    let mut d = *a;
                    while d <= *b {
                        out.push(k::day(scope_key, shard, d));
                        d += chrono::Duration::days(1);
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_go_to_day_month_and_now_items_of_one_shard() {
        let d = NaiveDate::from_ymd_opt(2026, 3, 4).unwrap();
        let mut deltas = Deltas::default();
        deltas.add(Scope::All, When::Day(d), "hours.total", 150);
        deltas.add(Scope::All, When::Now, "cases.status.draft", 1);
        deltas.add(Scope::Lawyer("l".into()), When::Day(d), "hours.total", 150);
        let w = counter_writes(&deltas, 11);
        let keys: Vec<(&str, &str)> = w.iter().map(|w| (w.pk.as_str(), w.sk.as_str())).collect();
        assert_eq!(
            keys,
            vec![
                ("STATS#all#3#DAY#2026-03", "2026-03-04"),
                ("STATS#all#3#MONTH#2026", "2026-03"),
                ("STATS#all#3#NOW", "NOW"),
                ("STATS#lawyer#l#0#DAY#2026-03", "2026-03-04"),
                ("STATS#lawyer#l#0#MONTH#2026", "2026-03"),
            ]
        );
        assert_eq!(w[0].add, vec![("hours.total".to_string(), 150)]);
    }
}

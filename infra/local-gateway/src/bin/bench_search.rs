//! Benchmark of the conflict search at a firm's size: prints figures and
//! exits non-zero when a goal does not hold (precision and recall at least
//! 0.98 at every size; every search reads the same number of index items at
//! every size, so what a search costs does not grow with the firm).
//!
//! For each size given (number of parties, e.g. `1000 100000`), a fresh
//! table is filled through the store's own index writes
//! (`Store::add_index_writes`, items sent with BatchWriteItem, 25 a call):
//! the labelled set's parties (`shared/src/domain/conflict_labelled.tsv`),
//! 5 % of the size (5,000 of 100,000) sharing the first three letters of the
//! labelled names, and the rest made of random Nordic-looking syllables.
//! When the size before's parties are the first of this size's (a size
//! under the labelled set's has no others, as the quick run's first), only
//! the rest are added to its table: the same writes in the same order as a
//! fresh table's, without loading the first ones again.
//! Every labelled query is then searched through `Store::search_parties_counted`:
//! - precision: of the parties found that have a label for the query or are
//!   filler, the share labelled as hits (filler counts as a false hit);
//! - recall: of the parties labelled as hits, the share found (a query the
//!   search route refuses, or a `search_too_broad` answer, finds none);
//! - index items read per search (median, max) and time per search (p50, p99),
//!   and per query whether it read as many items as at the first size.
//!
//! Run through `infra/bench-search.sh SIZE...`.

use std::collections::{HashMap, HashSet};
use std::process::ExitCode;
use std::time::Instant;

use aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shared::domain::conflict::{labelled_pairs, PartyKind};
use shared::store::conflict::{IndexChange, Indexed, Party};
use shared::store::Store;

const SYLLABLES: &[&str] = &[
    "ka", "ri", "to", "mu", "sel", "vin", "dor", "pa", "lu", "gre", "tho", "bri", "nax", "fjo", "quil", "ez", "yr", "oph", "ulv", "zan",
    "krem", "plo", "sku", "trav", "wel", "xio", "jub", "hap", "dri", "gno",
];

fn random_word(rng: &mut StdRng, prefix: &str) -> String {
    let mut w = prefix.to_string();
    let n = rng.random_range(2..=4);
    for _ in 0..n {
        w.push_str(SYLLABLES[rng.random_range(0..SYLLABLES.len())]);
    }
    let mut c = w.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => w,
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

async fn write_batch(store: &Store, table: &str, batch: &mut Vec<WriteRequest>) {
    while !batch.is_empty() {
        let chunk: Vec<WriteRequest> = batch.drain(..batch.len().min(25)).collect();
        let mut pending = Some(HashMap::from([(table.to_string(), chunk)]));
        while let Some(req) = pending.take() {
            let out = store.client.batch_write_item().set_request_items(Some(req)).send().await.expect("batch write");
            pending = out.unprocessed_items.filter(|u| u.values().any(|v| !v.is_empty()));
        }
    }
}

async fn load(store: &Store, table: &str, parties: &[Party]) {
    let mut batch: Vec<WriteRequest> = Vec::new();
    for p in parties {
        let mut tx = store.tx();
        store.add_index_writes(&mut tx, &IndexChange::index(p.clone()), &Indexed::default()).expect("index writes");
        for item in tx.into_items() {
            if let Some(put) = item.put {
                batch.push(WriteRequest::builder().put_request(PutRequest::builder().set_item(Some(put.item)).build().unwrap()).build());
            }
        }
        if batch.len() >= 500 {
            write_batch(store, table, &mut batch).await;
        }
    }
    write_batch(store, table, &mut batch).await;
}

/// The labelled pair a labelled party's uid (`label-<line>`) stands for.
fn label_index(uid: &str) -> usize {
    uid.trim_start_matches("label-").parse().unwrap_or(0)
}

fn party(uid: String, name: String, identity: Option<String>) -> Party {
    Party { kind: PartyKind::Counterpart, uid, name, identity_number: identity, customer_uid: None, context: None }
}

/// The goal of precision and recall at every size.
const GOAL: f64 = 0.98;

#[tokio::main]
async fn main() -> ExitCode {
    let sizes: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![1_000, 100_000] } else { sizes };
    let config = shared::config::Config::from_env().expect("configuration");
    let run = config.table_name.clone();
    let client = aws_sdk_dynamodb::Client::new(&shared::aws::sdk_config(&config.region, config.endpoint_url.as_deref()).await);
    let pairs = labelled_pairs();
    println!(
        "labelled set: {} pairs ({} hits, {} look-alike non-hits)",
        pairs.len(),
        pairs.iter().filter(|p| p.hit).count(),
        pairs.iter().filter(|p| !p.hit).count()
    );
    println!(
        "| parties | index items | precision | recall | items read / search (median, max) | time / search (p50, p99) | too broad | searches reading as at the first size |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut failures: Vec<String> = Vec::new();
    // Items read per query at the first size, to compare the others with.
    let mut first_reads: Option<HashMap<String, usize>> = None;
    // The table of the size before and the parties in it.
    let mut previous: Option<(String, Vec<Party>)> = None;
    for size in sizes {
        let mut rng = StdRng::seed_from_u64(17);
        // The labelled parties: one per pair, uid = its line.
        let mut parties: Vec<Party> =
            pairs.iter().enumerate().map(|(i, p)| party(format!("label-{i}"), p.name.clone(), p.identity.clone())).collect();
        let prefixes: Vec<String> = pairs
            .iter()
            .flat_map(|p| shared::domain::conflict::words(&p.name))
            .filter(|w| w.chars().count() >= 3)
            .map(|w| w.chars().take(3).collect())
            .collect();
        let sharing = size / 20;
        let mut i = 0usize;
        while parties.len() < size.max(pairs.len()) {
            let name = if i < sharing {
                let prefix = &prefixes[i % prefixes.len()];
                format!("{} {}", random_word(&mut rng, prefix), random_word(&mut rng, ""))
            } else {
                format!("{} {}", random_word(&mut rng, ""), random_word(&mut rng, ""))
            };
            parties.push(party(format!("fill-{i}"), name, None));
            i += 1;
        }
        let same_party = |a: &Party, b: &Party| a.uid == b.uid && a.name == b.name && a.identity_number == b.identity_number;
        let (table, loaded) = match previous.take() {
            Some((table, before)) if before.len() <= parties.len() && before.iter().zip(&parties).all(|(a, b)| same_party(a, b)) => {
                (table, before.len())
            }
            other => {
                if let Some((table, _)) = other {
                    let _ = client.delete_table().table_name(&table).send().await;
                }
                (format!("{run}-{size}"), 0)
            }
        };
        let store = Store::new(client.clone(), &table);
        store.ensure_table().await.expect("table");
        let started = Instant::now();
        load(&store, &table, &parties[loaded..]).await;
        let items: usize = parties.iter().map(|p| shared::domain::conflict::index_keys(&p.name, p.identity_number.as_deref()).len()).sum();
        let kept = if loaded > 0 { format!(" ({loaded} of the parties kept from the size before)") } else { String::new() };
        eprintln!("{size} parties: {items} index items{kept} loaded in {:.1} s", started.elapsed().as_secs_f64());

        // Labels per query: uid → hit?
        let mut labels: HashMap<&str, HashMap<String, bool>> = HashMap::new();
        for (i, p) in pairs.iter().enumerate() {
            labels.entry(p.query.as_str()).or_default().insert(format!("label-{i}"), p.hit);
        }
        let (mut tp, mut fp, mut fneg, mut broad) = (0usize, 0usize, 0usize, 0usize);
        let mut reads: Vec<f64> = Vec::new();
        let mut reads_of: HashMap<String, usize> = HashMap::new();
        // What the figures count against the search, printed under them.
        let (mut refused, mut wrong): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
        let mut times: Vec<f64> = Vec::new();
        for (query, labelled) in &labels {
            // As the search route does: a query it refuses (only a number,
            // with a wrong check digit) finds nothing and reads nothing.
            if let Err(e) = shared::domain::conflict::search_query(query) {
                refused.push(format!("{query}: {e:?}"));
                fneg += labelled.values().filter(|hit| **hit).count();
                continue;
            }
            let t = Instant::now();
            let res = store.search_parties_counted(query).await;
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            let found: HashSet<String> = match res {
                Ok(r) => {
                    reads.push(r.items_read as f64);
                    reads_of.insert(query.to_string(), r.items_read);
                    r.hits.into_iter().map(|h| h.party.uid).collect()
                }
                Err(e) => {
                    broad += 1;
                    refused.push(format!("{query}: {e:?}"));
                    HashSet::new()
                }
            };
            for (uid, hit) in labelled {
                match (*hit, found.contains(uid)) {
                    (true, true) => tp += 1,
                    (true, false) => {
                        fneg += 1;
                        wrong.push(format!("missed: {query} / {}", pairs[label_index(uid)].name));
                    }
                    (false, true) => {
                        fp += 1;
                        wrong.push(format!("found, labelled a non-hit: {query} / {}", pairs[label_index(uid)].name));
                    }
                    (false, false) => {}
                }
            }
            for filler in found.iter().filter(|u| u.starts_with("fill-")) {
                fp += 1;
                wrong.push(format!("found a filler party: {query} / {filler}"));
            }
        }
        reads.sort_by(f64::total_cmp);
        times.sort_by(f64::total_cmp);
        let precision = tp as f64 / (tp + fp).max(1) as f64;
        let recall = tp as f64 / (tp + fneg).max(1) as f64;
        let first = first_reads.get_or_insert_with(|| reads_of.clone());
        let mut differing: Vec<String> = labels
            .keys()
            .filter(|q| first.get(**q) != reads_of.get(**q))
            .map(|q| format!("{q} ({:?} → {:?})", first.get(*q), reads_of.get(*q)))
            .collect();
        differing.sort();
        println!(
            "| {size} | {items} | {precision:.3} | {recall:.3} | {:.0}, {:.0} | {:.1} ms, {:.1} ms | {broad} | {} of {} |",
            percentile(&reads, 0.5),
            reads.last().copied().unwrap_or(0.0),
            percentile(&times, 0.5),
            percentile(&times, 0.99),
            labels.len() - differing.len(),
            labels.len()
        );
        refused.sort();
        wrong.sort();
        for line in
            refused.iter().map(|r| format!("refused ({size} parties): {r}")).chain(wrong.iter().map(|w| format!("{w} ({size} parties)")))
        {
            eprintln!("  {line}");
        }
        if precision < GOAL || recall < GOAL {
            failures.push(format!("{size} parties: precision {precision:.3}, recall {recall:.3} (goal {GOAL} each)"));
        }
        if !differing.is_empty() {
            failures.push(format!("{size} parties: searches reading otherwise than at the first size: {}", differing.join(", ")));
        }
        previous = Some((table, parties));
    }
    if let Some((table, _)) = previous {
        let _ = client.delete_table().table_name(&table).send().await;
    }
    if failures.is_empty() {
        println!("goals met: precision and recall >= {GOAL} and the same items read per search at every size");
        ExitCode::SUCCESS
    } else {
        for f in &failures {
            eprintln!("goal not met: {f}");
        }
        ExitCode::FAILURE
    }
}

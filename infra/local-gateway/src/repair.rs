//! The one-off repair of items written before the bounds on numbers and dates: hours
//! past 10,000 (or past what an amount can hold, e.g. "92233720368547758,07"),
//! negative hours, dates outside 1900–2100. Such items are skipped when read
//! (`shared::store::readable`); this command makes them readable again, so
//! they show up in the lists and can be corrected through the API.
//!
//! Each fix is the smallest that makes the item valid and is printed:
//! - an hours attribute out of range or unreadable → the nearest bound
//!   (0 or 10,000 h), so nothing is silently dropped and staff see the entry;
//! - a price out of range → the highest price;
//! - a work date (`date`) outside the range → the day the item was created
//!   (`created_at`), else 1900-01-01 or 2100-12-31 whichever is nearer;
//! - a case's optional date (`start_date`, `deadline`) outside the range →
//!   removed (null); any other date (a subscription row's) → the nearest
//!   bound, 1900-01-01 or 2100-12-31, keeping a time of day.
//!
//! It also gives items written before the retention job's indexes what the
//! job finds them by, so they are erased when their time ends:
//! - a notification about a case gets its per-case index key (`GSI1PK`
//!   `CASENOTIF#<case>`, `GSI1SK` `<reader>#<id>`): the job erases a case's
//!   notifications through that key, and one without it would outlive the
//!   case's file;
//! - an expired subscription row without a billing due item gets one
//!   (`RETAIN` / `<last kept day>#billing#<customer>#<id>`, the day from the
//!   row's end as the job reckons it): the job reads only the due items,
//!   so the row and its usage ledger would be kept for ever.
//!
//! Run with the functions' environment (TABLE_NAME, AWS_ENDPOINT_URL
//! locally): `cargo run -p local-gateway --bin repair` (add `--dry-run` to
//! only list). Idempotent: a second run changes nothing.

use std::collections::{BTreeSet, HashSet};

use aws_sdk_dynamodb::types::AttributeValue;
use shared::domain::catalogue::Hundredths;
use shared::domain::retention::{kept_until, RecordKind};
use shared::error::ApiError;
use shared::store::retention::DueRecord;
use shared::store::subscriptions::billing_ended;
use shared::store::{keys, sdk_err, Item, Store};

/// Attributes holding hours (hundredths in JSON numbers).
const HOURS: [&str; 9] =
    ["estimated_hours", "hour", "non_billable_hour", "rattsskydd_hour", "hours", "consumed_hour", "total_hour", "limit_hour", "hour_limit"];
/// Attributes holding prices.
const PRICES: [&str; 3] = ["price", "hourly_rate", "amount"];
/// A required work date: replaced by the day the item was created.
const WORK_DATES: [&str; 1] = ["date"];
/// A case's optional dates: removed when out of range.
const CASE_DATES: [&str; 2] = ["start_date", "deadline"];
/// Other dates and date-times (subscription rows): the nearest bound.
const BOUNDED_DATES: [&str; 4] = ["start_date", "expire_on", "auto_update_date_end", "month"];

/// What one run found and changed.
#[derive(Debug, Default, PartialEq)]
pub struct Report {
    pub scanned: usize,
    pub repaired: usize,
    /// One line per change: "PK SK attribute: before -> after".
    pub changes: Vec<String>,
}

fn bounded(n: &str, max: Hundredths) -> Option<String> {
    match Hundredths::parse(n) {
        Some(h) if h.0 >= 0 && h <= max => None,
        Some(h) if h.0 < 0 => Some("0".into()),
        _ if n.trim_start().starts_with('-') => Some("0".into()),
        _ => Some(max.to_decimal_string()),
    }
}

/// The year of a 'YYYY-…' text, when it starts with a number.
fn year(text: &str) -> Option<i64> {
    let digits: String = text.trim().chars().take_while(|c| c.is_ascii_digit() || *c == '-').collect();
    let neg = digits.starts_with('-');
    let y: i64 = digits.trim_start_matches('-').split('-').next()?.parse().ok()?;
    Some(if neg { -y } else { y })
}

fn date_ok(text: &str) -> bool {
    year(text).is_some_and(|y| (1900..=2100).contains(&y))
}

/// The fixes one item needs, applied to it; each as "attribute: before -> after".
pub fn repair_item(item: &mut Item) -> Vec<String> {
    let mut changes = Vec::new();
    for (attrs, max) in [(&HOURS[..], Hundredths::MAX_HOURS), (&PRICES[..], Hundredths::MAX_PRICE)] {
        for a in attrs {
            let fixed = match item.get(*a) {
                Some(AttributeValue::N(n)) => bounded(n, max).map(|to| (n.clone(), to)),
                _ => None,
            };
            if let Some((from, to)) = fixed {
                changes.push(format!("{a}: {from} -> {to}"));
                item.insert(a.to_string(), AttributeValue::N(to));
            }
        }
    }
    for a in WORK_DATES {
        if let Some(AttributeValue::S(d)) = item.get(a).cloned() {
            if !date_ok(&d) {
                let created = item.get("created_at").and_then(|v| v.as_s().ok()).and_then(|c| c.get(..10)).filter(|c| date_ok(c));
                let to = created
                    .map(String::from)
                    .unwrap_or_else(|| if year(&d).is_some_and(|y| y > 2100) { "2100-12-31" } else { "1900-01-01" }.to_string());
                changes.push(format!("{a}: {d} -> {to}"));
                item.insert(a.to_string(), AttributeValue::S(to));
            }
        }
    }
    let is_case = item.get("SK").and_then(|v| v.as_s().ok()).is_some_and(|sk| sk == shared::store::keys::case::SK);
    let dates: &[&str] = if is_case { &CASE_DATES } else { &BOUNDED_DATES };
    for a in dates {
        if let Some(AttributeValue::S(d)) = item.get(*a).cloned() {
            if d.trim().is_empty() || date_ok(&d) {
                continue;
            }
            let to = if is_case {
                AttributeValue::Null(true)
            } else {
                let bound = if year(&d).is_some_and(|y| y > 2100) { "2100-12-31" } else { "1900-01-01" };
                let rest = d.find([' ', 'T']).map(|i| &d[i..]).unwrap_or("");
                AttributeValue::S(if *a == "month" { bound[..7].to_string() } else { format!("{bound}{rest}") })
            };
            changes.push(format!("{a}: {d} -> {}", to.as_s().map(String::as_str).unwrap_or("null")));
            item.insert(a.to_string(), to);
        }
    }
    changes.extend(index_notification(item));
    changes
}

/// A notification about a case stored before the per-case index key
/// existed: the key, as [`shared::store::collaboration::notification_item`]
/// writes it (reader from the partition, id from the sort key).
fn index_notification(item: &mut Item) -> Option<String> {
    if item.contains_key("GSI1PK") {
        return None;
    }
    let text = |a: &str| item.get(a).and_then(|v| v.as_s().ok()).cloned();
    let pk = text("PK")?;
    let reader = pk.strip_prefix(&keys::notification::pk(""))?;
    let sk = text("SK")?;
    let id = sk.strip_prefix(keys::notification::PREFIX)?;
    let case = text("uid").filter(|c| !c.trim().is_empty())?;
    let (gsi1pk, gsi1sk) = (keys::notification::case_gsi1pk(&case), keys::notification::case_gsi1sk(reader, id));
    item.insert("GSI1PK".into(), AttributeValue::S(gsi1pk.clone()));
    item.insert("GSI1SK".into(), AttributeValue::S(gsi1sk));
    Some(format!("GSI1PK: (none) -> {gsi1pk}"))
}

/// An expired subscription row as scanned: (customer uid, row id).
fn ended_row(item: &Item) -> Option<(String, u64)> {
    let text = |a: &str| item.get(a).and_then(|v| v.as_s().ok());
    if text("entity").map(String::as_str) != Some("purchased_service") {
        return None;
    }
    if item.get("expired").and_then(|v| v.as_bool().ok()) != Some(&true) {
        return None;
    }
    let id = item.get("id").and_then(|v| v.as_n().ok()).and_then(|n| n.parse().ok())?;
    Some((text("customer_uid")?.clone(), id))
}

/// Files the billing due item of every expired row in `ended` that has
/// none, under the last day the retention job keeps it (the row read again,
/// consistently, so the day is the one its own expiry would have filed).
async fn file_billing_due(store: &Store, ended: BTreeSet<(String, u64)>, dry_run: bool, report: &mut Report) -> Result<(), ApiError> {
    let filed: HashSet<(String, u64)> = store
        .retention_due_all()
        .await?
        .into_iter()
        .filter_map(|d| match d.record {
            DueRecord::Billing { customer_uid, purchase_id } => Some((customer_uid, purchase_id)),
            _ => None,
        })
        .collect();
    for (customer_uid, id) in ended {
        if filed.contains(&(customer_uid.clone(), id)) {
            continue;
        }
        // Gone or running again meanwhile: nothing to file (a later expiry files its own).
        let Some(stored) = store.purchase_of(&customer_uid, id).await?.filter(|s| s.row.expired) else { continue };
        let until = kept_until(RecordKind::Billing, billing_ended(&stored.row));
        let record = DueRecord::Billing { customer_uid: customer_uid.clone(), purchase_id: id };
        report.changes.push(format!(
            "{} {} retention due: (none) -> {} {}",
            keys::customer::pk(&customer_uid),
            keys::purchase::sk(id),
            keys::retention::PK,
            record.due_sk(until)
        ));
        report.repaired += 1;
        if dry_run {
            continue;
        }
        let mut tx = store.tx();
        store.add_retention_due(&mut tx, &record, until)?;
        store.commit(tx).await?;
    }
    Ok(())
}

/// Scans the whole table once and writes back every item that needed a fix
/// (unless `dry_run`), then files the billing due items that expired rows
/// lack. An item with a `rev` is put back conditional on it; one without
/// gets only its changed attributes (so a concurrent change of another
/// attribute, a notification marked read, is kept).
pub async fn run(store: &Store, dry_run: bool) -> Result<Report, ApiError> {
    let mut report = Report::default();
    let mut ended = BTreeSet::new();
    let mut start = None;
    loop {
        let page = store.client.scan().table_name(&store.table).set_exclusive_start_key(start).send().await.map_err(sdk_err)?;
        for original in page.items() {
            report.scanned += 1;
            ended.extend(ended_row(original));
            let mut item = original.clone();
            let changes = repair_item(&mut item);
            if changes.is_empty() {
                continue;
            }
            let key = |a: &str| item.get(a).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
            let at = format!("{} {}", key("PK"), key("SK"));
            report.changes.extend(changes.iter().map(|c| format!("{at} {c}")));
            report.repaired += 1;
            if dry_run {
                continue;
            }
            match original.get("rev") {
                Some(rev) => {
                    let put = store.client.put_item().table_name(&store.table).set_item(Some(item.clone()));
                    put.condition_expression("rev = :rev")
                        .expression_attribute_values(":rev", rev.clone())
                        .send()
                        .await
                        .map_err(sdk_err)?;
                }
                None => {
                    let mut update = store
                        .client
                        .update_item()
                        .table_name(&store.table)
                        .key("PK", item["PK"].clone())
                        .key("SK", item["SK"].clone())
                        .condition_expression("attribute_exists(PK)");
                    let mut sets = Vec::new();
                    for (i, (a, v)) in item.iter().filter(|(a, v)| original.get(*a) != Some(*v)).enumerate() {
                        sets.push(format!("#a{i} = :a{i}"));
                        update =
                            update.expression_attribute_names(format!("#a{i}"), a).expression_attribute_values(format!(":a{i}"), v.clone());
                    }
                    update.update_expression(format!("SET {}", sets.join(", "))).send().await.map_err(sdk_err)?;
                }
            }
        }
        start = page.last_evaluated_key;
        if start.is_none() {
            break;
        }
    }
    file_billing_due(store, ended, dry_run, &mut report).await?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(v: &str) -> AttributeValue {
        AttributeValue::N(v.into())
    }

    fn s(v: &str) -> AttributeValue {
        AttributeValue::S(v.into())
    }

    #[test]
    fn out_of_range_values_are_brought_to_the_nearest_bound() {
        let mut item: Item = [
            ("estimated_hours", n("92233720368547758.07")),
            ("hour", n("-3")),
            ("non_billable_hour", n("2.5")),
            ("price", n("1e30")),
            ("date", s("0999-05-01")),
            ("created_at", s("2026-03-04T10:00:00Z")),
            ("deadline", s("2101-01-01")),
            ("start_date", s("2026-01-01")),
            ("SK", s(shared::store::keys::case::SK)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let changes = repair_item(&mut item);
        assert_eq!(changes.len(), 5, "{changes:?}");
        assert_eq!(item["estimated_hours"], n("10000"));
        assert_eq!(item["hour"], n("0"));
        assert_eq!(item["non_billable_hour"], n("2.5"));
        assert_eq!(item["price"], n("100000000"));
        assert_eq!(item["date"], s("2026-03-04"));
        assert_eq!(item["deadline"], AttributeValue::Null(true));
        assert_eq!(item["start_date"], s("2026-01-01"));
        // Idempotent.
        assert!(repair_item(&mut item).is_empty());
        let mut year_one: Item = [("date".to_string(), s("0001-01-01"))].into_iter().collect();
        repair_item(&mut year_one);
        assert_eq!(year_one["date"], s("1900-01-01"));
        let mut row: Item =
            [("SK".to_string(), s("PURCHASE#1")), ("expire_on".to_string(), s("9999-01-01 10:00:00"))].into_iter().collect();
        repair_item(&mut row);
        assert_eq!(row["expire_on"], s("2100-12-31 10:00:00"));
    }

    #[test]
    fn a_notification_about_a_case_gets_the_key_the_retention_job_finds_it_by() {
        let draft = shared::domain::notification::Draft {
            verb: shared::domain::notification::Verb::CaseClosed,
            params: Default::default(),
            case_uid: Some("c1".into()),
        };
        let at = chrono::DateTime::parse_from_rfc3339("2016-03-04T05:06:07Z").unwrap().to_utc();
        let now_written = shared::store::collaboration::notification_item("law-1", at, "e1", &draft).unwrap();
        let mut old = now_written.clone();
        old.remove("GSI1PK");
        old.remove("GSI1SK");
        assert_eq!(repair_item(&mut old), vec!["GSI1PK: (none) -> CASENOTIF#c1".to_string()]);
        assert_eq!(old, now_written, "exactly as a notification is written now");
        assert!(repair_item(&mut old).is_empty(), "idempotent");
        // Not about a case, or not a notification: nothing to index.
        let mut others = shared::store::collaboration::notification_item(
            "law-1",
            at,
            "e2",
            &shared::domain::notification::Draft { case_uid: None, ..draft.clone() },
        )
        .unwrap();
        assert!(repair_item(&mut others).is_empty());
        let mut marks: Item =
            [("PK".to_string(), s("NOTIF#law-1")), ("SK".to_string(), s("MARKS")), ("uid".to_string(), s("c1"))].into_iter().collect();
        assert!(repair_item(&mut marks).is_empty());
    }
}

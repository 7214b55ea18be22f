//! The retention job's records (see `table.rs`): a "due" item per record
//! whose retention ends on a day (a closed case's file, a ready export),
//! written in the transaction that starts the retention.

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use super::stats::CounterWrite;
use super::tx::Tx;
use super::{keys, s, sdk_err, Item, Key, Store};
use crate::domain::retention::RecordKind;
use crate::error::ApiError;

/// Counter items one kept-figures chunk holds (a chunk stays well under
/// DynamoDB's 400 KB item size).
const FIGURES_CHUNK: usize = 40;

/// What a due item points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DueRecord {
    /// A closed case's file.
    Case { case_uid: String },
    /// A data export's ZIP.
    Export { customer_uid: String, export_id: String },
    /// An expired (or deleted) subscription row with its usage ledger.
    Billing { customer_uid: String, purchase_id: u64 },
}

impl DueRecord {
    pub fn kind(&self) -> RecordKind {
        match self {
            DueRecord::Case { .. } => RecordKind::CaseFile,
            DueRecord::Export { .. } => RecordKind::Export,
            DueRecord::Billing { .. } => RecordKind::Billing,
        }
    }
    fn id(&self) -> String {
        match self {
            DueRecord::Case { case_uid } => case_uid.clone(),
            DueRecord::Export { customer_uid, export_id } => format!("{customer_uid}#{export_id}"),
            DueRecord::Billing { customer_uid, purchase_id } => format!("{customer_uid}#{purchase_id:012}"),
        }
    }
    /// Its due item's sort key when it is kept until `kept_until`.
    pub fn due_sk(&self, kept_until: NaiveDate) -> String {
        keys::retention::due_sk(kept_until, self.kind().word(), &self.id())
    }
}

/// One due item as read: its sort key (to delete or move it) and record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Due {
    pub sk: String,
    pub record: DueRecord,
}

fn due_item(record: &DueRecord, kept_until: NaiveDate) -> Item {
    let mut item = keys::retention::due_at(&record.due_sk(kept_until)).with([
        ("entity".to_string(), s("retention_due")),
        ("kind".to_string(), s(record.kind().word())),
        ("kept_until".to_string(), s(kept_until.format("%Y-%m-%d").to_string())),
    ]);
    match record {
        DueRecord::Case { case_uid } => {
            item.insert("case_uid".into(), s(case_uid));
        }
        DueRecord::Export { customer_uid, export_id } => {
            item.insert("customer_uid".into(), s(customer_uid));
            item.insert("export_id".into(), s(export_id));
        }
        DueRecord::Billing { customer_uid, purchase_id } => {
            item.insert("customer_uid".into(), s(customer_uid));
            item.insert("purchase_id".into(), s(purchase_id.to_string()));
        }
    }
    item
}

fn parse_due(item: &Item) -> Option<Due> {
    let text = |a: &str| item.get(a).and_then(|v| v.as_s().ok()).cloned();
    let record = match text("kind")?.as_str() {
        "case_file" => DueRecord::Case { case_uid: text("case_uid")? },
        "export" => DueRecord::Export { customer_uid: text("customer_uid")?, export_id: text("export_id")? },
        "billing" => DueRecord::Billing { customer_uid: text("customer_uid")?, purchase_id: text("purchase_id")?.parse().ok()? },
        _ => return None,
    };
    Some(Due { sk: text("SK")?, record })
}

/// What one run of the retention job did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetentionRun {
    pub at: DateTime<Utc>,
    /// Records whose retention had ended by the run's day.
    pub due: u32,
    /// Of those, erased (with everything that belongs to them).
    pub erased: u32,
    /// Of those, kept after all (a case reopened or closed again, a longer
    /// period configured): filed again under their new end.
    pub kept: u32,
    /// Of those, not erased because a step failed: the next run tries again.
    pub failed: u32,
}

impl Store {
    /// Adds to `tx` the due item of `record`, kept until `kept_until`.
    pub fn add_retention_due(&self, tx: &mut Tx, record: &DueRecord, kept_until: NaiveDate) -> Result<(), ApiError> {
        tx.put(due_item(record, kept_until))
    }

    /// Due items whose last kept day is before `today`, oldest first: a
    /// page of at most `limit` after `after` (the last sort key of the
    /// page before).
    pub async fn retention_due(&self, today: NaiveDate, after: Option<&str>, limit: i32) -> Result<Vec<Due>, ApiError> {
        let mut q = self
            .client
            .query()
            .table_name(&self.table)
            .consistent_read(true)
            .key_condition_expression("PK = :p AND SK < :today")
            .expression_attribute_values(":p", s(keys::retention::PK))
            .expression_attribute_values(":today", s(keys::retention::not_due_from(today)))
            .limit(limit);
        // Not `round_after`: the key condition already bounds the sort key (`< today`).
        if let Some(sk) = after {
            q = q.exclusive_start_key("PK", s(keys::retention::PK)).exclusive_start_key("SK", AttributeValue::S(sk.to_string()));
        }
        let out = q.send().await.map_err(sdk_err)?;
        Ok(out.items().iter().filter_map(parse_due).collect())
    }

    /// Every due item (the tests' view).
    pub async fn retention_due_all(&self) -> Result<Vec<Due>, ApiError> {
        Ok(self.partition_items(keys::retention::PK, "").await?.iter().filter_map(parse_due).collect())
    }

    /// Moves a due item to its record's new end (`kept_until`), in one transaction.
    pub async fn refile_retention_due(&self, due: &Due, kept_until: NaiveDate) -> Result<(), ApiError> {
        let mut tx = self.tx();
        tx.delete(&keys::retention::due_at(&due.sk), None)?;
        if due.record.due_sk(kept_until) != due.sk {
            tx.put(due_item(&due.record, kept_until))?;
        }
        self.commit(tx).await?;
        Ok(())
    }

    /// Adds to `tx` the removal of a due item.
    pub fn add_retention_done(&self, tx: &mut Tx, due: &Due) -> Result<(), ApiError> {
        tx.delete(&keys::retention::due_at(&due.sk), None)
    }

    /// Where the one-off filing of cases closed before the due items existed
    /// stands: `None` not begun, `Some(None)` done, `Some(Some(cursor))` the
    /// last closed case's `GSI1SK` filed so far.
    pub async fn retention_backfill(&self) -> Result<Option<Option<String>>, ApiError> {
        let Some(item) = self.get_consistent(&keys::retention::backfill()).await? else { return Ok(None) };
        let done = item.get("done").and_then(|v| v.as_bool().ok()).copied().unwrap_or(false);
        Ok(Some(if done { None } else { item.get("cursor").and_then(|v| v.as_s().ok()).cloned() }))
    }

    /// Files the due items of `filed` and moves the backfill's mark to
    /// `cursor` (`None`: done), in one transaction.
    pub async fn file_retention_backfill(&self, filed: &[(DueRecord, NaiveDate)], cursor: Option<&str>) -> Result<(), ApiError> {
        let mut tx = self.tx();
        for (record, kept_until) in filed {
            tx.put(due_item(record, *kept_until))?;
        }
        let mut mark =
            keys::retention::backfill().with([("entity", s("retention_backfill")), ("done", AttributeValue::Bool(cursor.is_none()))]);
        if let Some(c) = cursor {
            mark.insert("cursor".into(), s(c));
        }
        tx.put(mark)?;
        self.commit(tx).await?;
        Ok(())
    }

    /// The keys of every reader's notification about a case (Query GSI1).
    pub async fn case_notification_keys(&self, case_uid: &str) -> Result<Vec<Key>, ApiError> {
        let items = self.index_items(super::table::GSI1, &keys::notification::case_gsi1pk(case_uid)).await?;
        Ok(items.iter().filter_map(Key::of).collect())
    }

    /// Whether the period figures of an erased record were kept already
    /// (all its chunks are written in one transaction).
    pub async fn figures_kept(&self, kind: RecordKind, id: &str) -> Result<bool, ApiError> {
        Ok(self.get_consistent(&keys::retention::figures(kind.word(), id, 0)).await?.is_some())
    }

    /// Keeps the period figures `writes` of an erased record, in chunks,
    /// in one transaction. Nothing when there are none.
    pub async fn keep_figures(&self, kind: RecordKind, id: &str, writes: &[CounterWrite]) -> Result<(), ApiError> {
        if writes.is_empty() {
            return Ok(());
        }
        let mut tx = self.tx();
        for (i, chunk) in writes.chunks(FIGURES_CHUNK).enumerate() {
            tx.put(
                keys::retention::figures(kind.word(), id, i)
                    .with([("entity", s("kept_figures")), ("writes", s(serde_json::to_string(chunk).map_err(ApiError::internal)?))]),
            )?;
        }
        self.commit(tx).await?;
        Ok(())
    }

    /// Every kept figure of erased records (the recount's: Scan, an operator tool).
    pub async fn scan_kept_figures(&self) -> Result<Vec<CounterWrite>, ApiError> {
        let mut out = Vec::new();
        for item in self.scan_prefix(keys::retention::FIGURES_PREFIX).await? {
            let Some(text) = item.get("writes").and_then(|v| v.as_s().ok()) else { continue };
            out.extend(serde_json::from_str::<Vec<CounterWrite>>(text).map_err(ApiError::internal)?);
        }
        Ok(out)
    }

    /// Deletes the items at `keys` (PK, SK), in transactions of at most
    /// 100 (a delete of an item that is gone is no error: repeating it is harmless).
    pub async fn delete_items(&self, keys: &[Key]) -> Result<(), ApiError> {
        for chunk in keys.chunks(super::tx::MAX_ITEMS) {
            let mut tx = self.tx();
            for key in chunk {
                tx.delete(key, None)?;
            }
            self.commit(tx).await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_due_item_reads_back_as_its_record() {
        let d = NaiveDate::from_ymd_opt(2036, 3, 15).unwrap();
        for record in [
            DueRecord::Case { case_uid: "c1".into() },
            DueRecord::Export { customer_uid: "u1".into(), export_id: "20261101-abc".into() },
            DueRecord::Billing { customer_uid: "u1".into(), purchase_id: 42 },
        ] {
            let item = due_item(&record, d);
            assert_eq!(parse_due(&item), Some(Due { sk: record.due_sk(d), record: record.clone() }));
        }
        assert_eq!(DueRecord::Case { case_uid: "c1".into() }.due_sk(d), "2036-03-15#case_file#c1");
        assert_eq!(DueRecord::Billing { customer_uid: "u1".into(), purchase_id: 42 }.due_sk(d), "2036-03-15#billing#u1#000000000042");
        let mut odd = due_item(&DueRecord::Case { case_uid: "c1".into() }, d);
        odd.insert("kind".into(), s("something_else"));
        assert_eq!(parse_due(&odd), None);
    }
}

//! Cases, their history, notes and hours (key design in [`super::table`]).
//!
//! Every change of a case is one transaction: the case item conditional on
//! its `rev` (so two writers cannot both win; two lawyers accepting at once
//! → one transaction fails), the history items, and the lawyer's pointer
//! item. Billable hours add the subscription row (conditional on its `rev`)
//! and the usage-ledger item to the same transaction.

use crate::error::Msg;
use aws_sdk_dynamodb::types::{ConditionCheck, Delete, Put, TransactWriteItem};
use chrono::{DateTime, Utc};

use super::subscriptions::{is_conditional, UsageEntry};
use super::{keys, n, s, sdk_err, Item, Store};
use crate::domain::case::{lawyer_of_list, Case, CaseHour, CaseStatus, HistoryEntry};
use crate::domain::catalogue::Hundredths;
use crate::domain::subscription::{self, PurchasedService, Usage};
use crate::error::ApiError;

/// Newest first by creation; the uid makes it unique.
pub fn list_sk(case: &Case) -> String {
    keys::created_sk(case.created_at, &case.uid)
}

/// A case and the revision its next write must match.
#[derive(Clone, Debug)]
pub struct StoredCase {
    pub case: Case,
    pub rev: u64,
}

/// One page of a list: up to 10, newest first, and the cursor of the next.
#[derive(Clone, Debug)]
pub struct CasePage {
    pub results: Vec<Case>,
    pub next: Option<String>,
}

pub const PAGE_SIZE: usize = 10;

fn hex(text: &str) -> String {
    text.bytes().map(|b| format!("{b:02x}")).collect()
}
fn unhex(text: &str) -> Option<String> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    let bytes: Option<Vec<u8>> = (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect();
    String::from_utf8(bytes?).ok()
}

/// Which list and how it is read.
#[derive(Clone, Debug)]
pub enum CaseList {
    /// All cases in one status (staff; lawyers for Waiting): Query GSI1.
    ByStatus(CaseStatus),
    /// A customer's cases, optionally in given statuses: Query GSI2 + filter.
    Customer(String, Vec<CaseStatus>),
    /// A lawyer's own cases in given statuses: Query the pointer partition + filter.
    Lawyer(String, Vec<CaseStatus>),
}

fn case_item(c: &Case, rev: u64) -> Result<Item, ApiError> {
    let mut item: Item = serde_dynamo::to_item(c).map_err(ApiError::internal)?;
    item.insert("PK".into(), s(keys::case::pk(&c.uid)));
    item.insert("SK".into(), s(keys::case::SK));
    item.insert("entity".into(), s("case"));
    item.insert("rev".into(), n(rev));
    item.insert("GSI1PK".into(), s(keys::case::state_gsi1pk(c.status)));
    item.insert("GSI1SK".into(), s(list_sk(c)));
    item.insert("GSI2PK".into(), s(keys::case::customer_gsi2pk(&c.customer)));
    item.insert("GSI2SK".into(), s(list_sk(c)));
    Ok(item)
}

fn parse_case(item: Item) -> Result<StoredCase, ApiError> {
    let rev = item.get("rev").and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok()).unwrap_or(0);
    Ok(StoredCase { case: serde_dynamo::from_item(item).map_err(ApiError::internal)?, rev })
}

impl Store {
    pub(crate) fn tx_put(&self, item: Item, condition: Option<&str>) -> Result<TransactWriteItem, ApiError> {
        let put = Put::builder().table_name(&self.table).set_item(Some(item)).set_condition_expression(condition.map(String::from));
        Ok(TransactWriteItem::builder().put(put.build().map_err(ApiError::internal)?).build())
    }

    /// The case item over revision `rev` (None: a new case).
    fn case_put(&self, c: &Case, rev: Option<u64>) -> Result<TransactWriteItem, ApiError> {
        let put = Put::builder().table_name(&self.table).set_item(Some(case_item(c, rev.map_or(1, |r| r + 1))?));
        let put = match rev {
            None => put.condition_expression("attribute_not_exists(PK)"),
            Some(r) => put.condition_expression("rev = :rev").expression_attribute_values(":rev", n(r)),
        };
        Ok(TransactWriteItem::builder().put(put.build().map_err(ApiError::internal)?).build())
    }

    pub fn history_put(&self, h: &HistoryEntry) -> Result<TransactWriteItem, ApiError> {
        let mut item: Item = serde_dynamo::to_item(h).map_err(ApiError::internal)?;
        item.insert("PK".into(), s(keys::case::pk(&h.case_uid)));
        item.insert("SK".into(), s(keys::case::history_sk(h.at, &uuid::Uuid::new_v4().simple().to_string())));
        item.insert("entity".into(), s("case_history"));
        self.tx_put(item, Some("attribute_not_exists(PK)"))
    }

    /// The lawyer's pointer to a case (their "my cases" / "closed" lists).
    fn pointer_put(&self, lawyer: &str, c: &Case) -> Result<TransactWriteItem, ApiError> {
        let mut item = Item::new();
        item.insert("PK".into(), s(keys::case::lawyer_pk(lawyer)));
        item.insert("SK".into(), s(list_sk(c)));
        item.insert("entity".into(), s("lawyer_case"));
        item.insert("case_uid".into(), s(&c.uid));
        item.insert("status".into(), s(keys::case::state_word(c.status)));
        self.tx_put(item, None)
    }

    fn pointer_delete(&self, lawyer: &str, c: &Case) -> Result<TransactWriteItem, ApiError> {
        let del = Delete::builder()
            .table_name(&self.table)
            .key("PK", s(keys::case::lawyer_pk(lawyer)))
            .key("SK", s(list_sk(c)))
            .build()
            .map_err(ApiError::internal)?;
        Ok(TransactWriteItem::builder().delete(del).build())
    }

    pub(crate) async fn transact(&self, items: Vec<TransactWriteItem>) -> Result<bool, ApiError> {
        match self.client.transact_write_items().set_transact_items(Some(items)).send().await {
            Ok(_) => Ok(true),
            Err(e) if is_conditional(&e) => Ok(false),
            Err(e) => Err(sdk_err(e)),
        }
    }

    pub async fn get_case(&self, uid: &str) -> Result<Option<StoredCase>, ApiError> {
        self.get(&keys::case::pk(uid), keys::case::SK).await?.map(parse_case).transpose()
    }

    /// Writes a new case with its 'created' history entry.
    pub async fn create_case(&self, c: &Case, history: &HistoryEntry) -> Result<(), ApiError> {
        let mut items = vec![self.case_put(c, None)?, self.history_put(history)?];
        if let Some(l) = lawyer_of_list(c) {
            items.push(self.pointer_put(l, c)?);
        }
        if self.transact(items).await? {
            Ok(())
        } else {
            Err(ApiError::bad(Msg::ChangedConcurrently))
        }
    }

    /// Writes `next` over `prev` (read at `rev`) with its history entries;
    /// keeps the lawyers' pointers in step. `Ok(false)` when someone changed
    /// the case since it was read (the caller re-reads and re-decides).
    pub async fn save_case(&self, prev: &Case, rev: u64, next: &Case, history: &[HistoryEntry]) -> Result<bool, ApiError> {
        let mut items = vec![self.case_put(next, Some(rev))?];
        for h in history {
            items.push(self.history_put(h)?);
        }
        if let Some(old) = lawyer_of_list(prev) {
            if lawyer_of_list(next) != Some(old) {
                items.push(self.pointer_delete(old, prev)?);
            }
        }
        if let Some(l) = lawyer_of_list(next) {
            items.push(self.pointer_put(l, next)?);
        }
        self.transact(items).await
    }

    /// A case's history, oldest first.
    pub async fn case_history(&self, uid: &str) -> Result<Vec<HistoryEntry>, ApiError> {
        self.query_prefix(&keys::case::pk(uid), keys::case::HISTORY_PREFIX)
            .await?
            .into_iter()
            .map(|i| serde_dynamo::from_item(i).map_err(ApiError::internal))
            .collect()
    }

    /// One page of a list, newest first. The cursor is the last sort key
    /// (hex); each round asks for keys below it, so filtered lists still
    /// fill a page without a Scan.
    pub async fn list_cases(&self, list: &CaseList, cursor: Option<&str>) -> Result<CasePage, ApiError> {
        let mut below = match cursor {
            Some(c) if !c.is_empty() => Some(unhex(c).ok_or(ApiError::bad(Msg::InvalidCursor))?),
            _ => None,
        };
        let (index, pk_attr, sk_attr, pk, statuses) = match list {
            CaseList::ByStatus(st) => (Some(super::table::GSI1), "GSI1PK", "GSI1SK", keys::case::state_gsi1pk(*st), vec![]),
            CaseList::Customer(c, st) => (Some(super::table::GSI2), "GSI2PK", "GSI2SK", keys::case::customer_gsi2pk(c), st.clone()),
            CaseList::Lawyer(l, st) => (None, "PK", "SK", keys::case::lawyer_pk(l), st.clone()),
        };
        let mut results = Vec::new();
        loop {
            let mut q = self
                .client
                .query()
                .table_name(&self.table)
                .set_index_name(index.map(String::from))
                .scan_index_forward(false)
                .limit(25)
                .expression_attribute_names("#pk", pk_attr)
                .expression_attribute_values(":pk", s(&pk));
            q = match &below {
                Some(b) => q
                    .key_condition_expression("#pk = :pk AND #sk < :below")
                    .expression_attribute_names("#sk", sk_attr)
                    .expression_attribute_values(":below", s(b)),
                None => q.key_condition_expression("#pk = :pk"),
            };
            let out = q.send().await.map_err(sdk_err)?;
            let exhausted = out.last_evaluated_key.is_none();
            let count = out.items().len();
            for (i, item) in out.items().iter().enumerate() {
                let sk = item.get(sk_attr).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
                below = Some(sk.clone());
                let case = match list {
                    CaseList::Lawyer(..) => {
                        let uid = item.get("case_uid").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
                        match self.get_case(&uid).await? {
                            Some(c) => c.case,
                            None => continue,
                        }
                    }
                    _ => parse_case(item.clone())?.case,
                };
                if !statuses.is_empty() && !statuses.contains(&case.status) {
                    continue;
                }
                results.push(case);
                if results.len() == PAGE_SIZE {
                    // More may follow if this page or the partition goes on.
                    let more = i + 1 < count || !exhausted;
                    return Ok(CasePage { results, next: more.then(|| hex(&sk)) });
                }
            }
            if exhausted {
                return Ok(CasePage { results, next: None });
            }
        }
    }

    pub async fn add_case_note(&self, case_uid: &str, by: &str, by_name: &str, text: &str, at: DateTime<Utc>) -> Result<(), ApiError> {
        let mut item = Item::new();
        item.insert("PK".into(), s(keys::case::pk(case_uid)));
        item.insert("SK".into(), s(keys::case::note_sk(at, &uuid::Uuid::new_v4().simple().to_string())));
        item.insert("entity".into(), s("case_note"));
        item.insert("by".into(), s(by));
        item.insert("by_name".into(), s(by_name));
        item.insert("note".into(), s(text));
        item.insert("at".into(), s(keys::at(at)));
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
            .send()
            .await
            .map_err(|_| ApiError::bad(Msg::CaseNoteSaveFailed))?;
        Ok(())
    }

    pub async fn case_notes(&self, case_uid: &str) -> Result<Vec<(String, String, String, String)>, ApiError> {
        let items = self.query_prefix(&keys::case::pk(case_uid), keys::case::NOTE_PREFIX).await?;
        let g = |i: &Item, k: &str| i.get(k).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
        Ok(items.iter().map(|i| (g(i, "by"), g(i, "by_name"), g(i, "note"), g(i, "at"))).collect())
    }

    /// The customer's hour-based row (service 1) that is in force now.
    pub async fn current_hour_row(&self, customer: &str, now: chrono::NaiveDateTime) -> Result<Option<PurchasedService>, ApiError> {
        let mut rows: Vec<PurchasedService> = self
            .list_purchases(customer)
            .await?
            .into_iter()
            .filter(|r| r.is_hour_based() && r.active && !r.expired && r.start_date <= now && r.expire_on > now)
            .collect();
        rows.sort_by_key(|r| r.start_date);
        Ok(rows.into_iter().next())
    }

    pub async fn case_hours(&self, case_uid: &str) -> Result<Vec<CaseHour>, ApiError> {
        let mut out: Vec<CaseHour> = self
            .query_prefix(&keys::case::pk(case_uid), keys::case::HOUR_PREFIX)
            .await?
            .into_iter()
            .map(|i| serde_dynamo::from_item(i).map_err(ApiError::internal))
            .collect::<Result<_, _>>()?;
        out.sort_by_key(|h| std::cmp::Reverse((h.date, h.created_at)));
        Ok(out)
    }

    pub async fn get_case_hour(&self, case_uid: &str, id: &str) -> Result<Option<CaseHour>, ApiError> {
        self.get(&keys::case::pk(case_uid), &keys::case::hour_sk(id))
            .await?
            .map(|i| serde_dynamo::from_item(i).map_err(ApiError::internal))
            .transpose()
    }

    /// Writes an hour entry (new when `old` is None, else replacing `old`),
    /// moving the billable difference on the subscription row, all in one
    /// transaction with the ledger items, a history entry and a check that
    /// the case is still in progress with this lawyer. `Ok(false)`: a
    /// concurrent writer won; the caller retries from fresh reads.
    pub async fn write_case_hour(
        &self,
        case: &Case,
        old: Option<&CaseHour>,
        new: Option<&CaseHour>,
        history: &HistoryEntry,
        now: chrono::NaiveDateTime,
    ) -> Result<bool, ApiError> {
        let mut items = Vec::new();
        let lawyer = new.or(old).map(|h| h.lawyer.clone()).unwrap_or_default();
        let check = ConditionCheck::builder()
            .table_name(&self.table)
            .key("PK", s(keys::case::pk(&case.uid)))
            .key("SK", s(keys::case::SK))
            .condition_expression("#st = :st AND lawyer = :l")
            .expression_attribute_names("#st", "status")
            .expression_attribute_values(":st", s("Inprogress"))
            .expression_attribute_values(":l", s(&lawyer))
            .build()
            .map_err(ApiError::internal)?;
        items.push(TransactWriteItem::builder().condition_check(check).build());
        // The subscription row: give back what `old` booked, book what `new` needs.
        let old_booked = old.and_then(|h| h.service.map(|p| (p, h)));
        let needs = new.filter(|h| h.hour.0 > 0);
        let row_id = old_booked.map(|(p, _)| p).or(needs.and_then(|h| h.service));
        if let Some(pid) = row_id {
            let stored = self.get_purchase(pid).await?.ok_or(ApiError::bad(subscription::NO_VALID_SUBSCRIPTION))?;
            let mut row = stored.row.clone();
            if let Some((_, h)) = old_booked {
                row = subscription::release(&row, Usage::Hours(h.hour), now);
                // Same ledger key again: the put below overwrites it (a
                // transaction may touch an item once).
                let rewritten = needs.is_some_and(|n| n.date == h.date && n.id == h.id);
                if !rewritten {
                    let del = Delete::builder()
                        .table_name(&self.table)
                        .key("PK", s(keys::purchase::usage_pk(pid)))
                        .key("SK", s(keys::purchase::usage_sk(h.date, &h.id)))
                        .build()
                        .map_err(ApiError::internal)?;
                    items.push(TransactWriteItem::builder().delete(del).build());
                }
            }
            if let Some(h) = needs {
                row = subscription::consume(&row, Usage::Hours(h.hour), now).map_err(|e| ApiError::bad(e.key()))?;
                let entry = UsageEntry {
                    entry_id: h.id.clone(),
                    purchase_id: pid,
                    date: h.date,
                    hours: h.hour,
                    count: 0,
                    case_uid: Some(case.uid.clone()),
                    description: format!("{} {}", case.case_number, h.description).trim().to_string(),
                    lawyer: h.lawyer_name.clone(),
                };
                let mut ledger: Item = serde_dynamo::to_item(&entry).map_err(ApiError::internal)?;
                ledger.insert("PK".into(), s(keys::purchase::usage_pk(pid)));
                ledger.insert("SK".into(), s(keys::purchase::usage_sk(h.date, &h.id)));
                ledger.insert("entity".into(), s("usage"));
                items.push(self.tx_put(ledger, None)?);
            }
            items.push(self.row_put(&row, Some(stored.rev))?);
        }
        match new {
            Some(h) => {
                let mut item: Item = serde_dynamo::to_item(h).map_err(ApiError::internal)?;
                item.insert("PK".into(), s(keys::case::pk(&case.uid)));
                item.insert("SK".into(), s(keys::case::hour_sk(&h.id)));
                item.insert("entity".into(), s("case_hour"));
                let cond = if old.is_some() { "attribute_exists(PK)" } else { "attribute_not_exists(PK)" };
                items.push(self.tx_put(item, Some(cond))?);
            }
            None => {
                let h = old.ok_or(ApiError::NotFound)?;
                let del = Delete::builder()
                    .table_name(&self.table)
                    .key("PK", s(keys::case::pk(&case.uid)))
                    .key("SK", s(keys::case::hour_sk(&h.id)))
                    .condition_expression("attribute_exists(PK)")
                    .build()
                    .map_err(ApiError::internal)?;
                items.push(TransactWriteItem::builder().delete(del).build());
            }
        }
        items.push(self.history_put(history)?);
        self.transact(items).await
    }
}

/// Sum of billable hours of entries.
pub fn billable(hours: &[CaseHour]) -> Hundredths {
    hours.iter().fold(Hundredths::ZERO, |a, h| a + h.hour)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn cursor_round_trip() {
        let k = "2026-01-01T00:00:00.000000Z#abc";
        assert_eq!(unhex(&hex(k)).as_deref(), Some(k));
        assert_eq!(unhex("zz"), None);
        assert_eq!(unhex("abc"), None);
    }
}

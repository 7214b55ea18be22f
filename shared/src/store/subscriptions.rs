//! Purchased services (subscription rows), their usage ledger, the Bisnode
//! account item and the scheduled expiry and renewal.
//!
//! A row lives at `PK = CUSTOMER#<customer uid>`, `SK = PURCHASE#<id>`, with
//! `GSI1PK = PSVC#<id>` for the lookup by id. It carries `GSI2PK =
//! DUE#SUBSCRIPTION`, `GSI2SK = <expire_on RFC 3339>#<id>` while it is not
//! expired, so the job finds due rows with one Query on a sparse index and
//! never scans the table. Every write of a row is conditional on its `rev`
//! attribute (optimistic concurrency), so concurrent writers cannot lose
//! each other's changes.

use crate::error::Msg;
use aws_sdk_dynamodb::types::{AttributeValue, Delete, Put, TransactWriteItem, Update};
use chrono::{DateTime, NaiveDate, NaiveDateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};

use super::{keys, n, s, sdk_err, Item, Store};
use crate::domain::catalogue::Hundredths;
use crate::domain::subscription::{self, PurchasedService, RuleError, Usage};
use crate::error::ApiError;

#[derive(Debug, Default, PartialEq, Eq)]
pub struct ExpiryReport {
    /// Rows found due.
    pub due: usize,
    /// Rows this run marked expired (others were done by a concurrent run).
    pub expired: usize,
    /// Of those, rows this run renewed (a child row was created).
    pub renewed: usize,
}

/// A stored row and the revision its next write must match.
#[derive(Clone, Debug)]
pub struct StoredRow {
    pub row: PurchasedService,
    pub rev: u64,
}

/// One entry of a row's usage ledger (case hours booked against it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UsageEntry {
    pub entry_id: String,
    pub purchase_id: u64,
    pub date: NaiveDate,
    /// Hours for the hour-based service; 0 for counted uses.
    pub hours: Hundredths,
    /// Uses for limited services; 0 for hours.
    pub count: u32,
    pub case_uid: Option<String>,
    pub description: String,
    pub lawyer: String,
}

impl UsageEntry {
    pub fn usage(&self) -> Usage {
        if self.count > 0 {
            Usage::Count(self.count)
        } else {
            Usage::Hours(self.hours)
        }
    }
}

fn row_item(row: &PurchasedService, rev: u64) -> Result<Item, ApiError> {
    let mut item: Item = serde_dynamo::to_item(row).map_err(ApiError::internal)?;
    item.insert("PK".into(), s(keys::customer::pk(&row.customer_uid)));
    item.insert("SK".into(), s(keys::purchase::sk(row.id)));
    item.insert("entity".into(), s("purchased_service"));
    item.insert("rev".into(), n(rev));
    // Derived, so it can never disagree with the hours it describes.
    item.insert("hour_less_than_consumed".into(), AttributeValue::Bool(row.hour < row.consumed_hour));
    item.insert("GSI1PK".into(), s(keys::purchase::gsi1pk(row.id)));
    item.insert("GSI1SK".into(), s(keys::purchase::GSI1SK));
    if !row.expired {
        item.insert("GSI2PK".into(), s(keys::purchase::DUE_GSI2PK));
        item.insert("GSI2SK".into(), s(keys::purchase::due_gsi2sk(row.expire_on.and_utc(), &row.id.to_string())));
    }
    Ok(item)
}

fn parse_row(item: Item) -> Result<StoredRow, ApiError> {
    let rev = item.get("rev").and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok()).unwrap_or(0);
    let row = serde_dynamo::from_item(item).map_err(ApiError::internal)?;
    Ok(StoredRow { row, rev })
}

pub(crate) fn is_conditional<E: aws_sdk_dynamodb::error::ProvideErrorMetadata>(e: &aws_sdk_dynamodb::error::SdkError<E>) -> bool {
    e.as_service_error()
        .and_then(|se| se.code())
        .is_some_and(|c| c == "ConditionalCheckFailedException" || c == "TransactionCanceledException")
}

impl Store {
    /// The transaction item that writes `row` over revision `rev` (or as a new
    /// row when `rev` is None).
    pub fn row_put(&self, row: &PurchasedService, rev: Option<u64>) -> Result<TransactWriteItem, ApiError> {
        let put = Put::builder().table_name(&self.table).set_item(Some(row_item(row, rev.map_or(1, |r| r + 1))?));
        let put = match rev {
            None => put.condition_expression("attribute_not_exists(PK)"),
            Some(r) => put.condition_expression("rev = :rev").expression_attribute_values(":rev", n(r)),
        };
        Ok(TransactWriteItem::builder().put(put.build().map_err(ApiError::internal)?).build())
    }

    /// A customer's rows, oldest first.
    pub async fn list_purchases(&self, customer_uid: &str) -> Result<Vec<PurchasedService>, ApiError> {
        self.query_prefix(&keys::customer::pk(customer_uid), keys::purchase::PREFIX)
            .await?
            .into_iter()
            .map(|i| parse_row(i).map(|r| r.row))
            .collect()
    }

    /// A row by id (Query GSI1 `PSVC#<id>`).
    pub async fn get_purchase(&self, id: u64) -> Result<Option<StoredRow>, ApiError> {
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .index_name(super::table::GSI1)
            .key_condition_expression("GSI1PK = :p AND GSI1SK = :s")
            .expression_attribute_values(":p", s(keys::purchase::gsi1pk(id)))
            .expression_attribute_values(":s", s(keys::purchase::GSI1SK))
            .send()
            .await
            .map_err(sdk_err)?;
        let Some(found) = out.items().first() else { return Ok(None) };
        // The index may lag; read the row itself by its full key.
        let (pk, sk) =
            (found["PK"].as_s().map_err(|_| ApiError::internal("PK"))?, found["SK"].as_s().map_err(|_| ApiError::internal("SK"))?);
        match self.get(pk, sk).await? {
            Some(item) => Ok(Some(parse_row(item)?)),
            None => Ok(None),
        }
    }

    /// Buys: checks the active/advance rule and writes the new row, in one
    /// transaction with the customer's per-service guard item so two
    /// concurrent purchases cannot both pass the check.
    pub async fn purchase(
        &self,
        customer_uid: &str,
        grant: &subscription::Grant,
        now: NaiveDateTime,
    ) -> Result<PurchasedService, ApiError> {
        let pk = keys::customer::pk(customer_uid);
        let guard = self.get(&pk, &keys::purchase::guard_sk(grant.service_id)).await?;
        let seen: u64 = guard.as_ref().and_then(|g| g.get("ver")).and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok()).unwrap_or(0);
        let existing = self.list_purchases(customer_uid).await?;
        let advance = subscription::purchase_kind(&existing, grant.service_id).map_err(|e| ApiError::bad(e.key()))?;
        // An advance row starts when the current one of the service ends.
        let start = if advance {
            existing
                .iter()
                .filter(|r| r.is_current() && r.active && r.service.id == grant.service_id)
                .map(|r| r.expire_on)
                .max()
                .unwrap_or(now)
        } else {
            now
        };
        let id = self.next_id("purchase").await?;
        let row = subscription::new_row(id, customer_uid, grant, advance, start, now);
        let guard_update = Update::builder()
            .table_name(&self.table)
            .key("PK", s(&pk))
            .key("SK", s(keys::purchase::guard_sk(grant.service_id)))
            .update_expression("SET ver = :next")
            .condition_expression("attribute_not_exists(ver) OR ver = :seen")
            .expression_attribute_values(":next", n(seen + 1))
            .expression_attribute_values(":seen", n(seen))
            .build()
            .map_err(ApiError::internal)?;
        let res = self
            .client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().update(guard_update).build())
            .transact_items(self.row_put(&row, None)?)
            .send()
            .await;
        match res {
            Ok(_) => Ok(row),
            // Someone bought the same service at the same moment: the rule
            // must be checked again against their row.
            Err(e) if is_conditional(&e) => Err(ApiError::bad(Msg::PurchaseConflict)),
            Err(e) => Err(sdk_err(e)),
        }
    }

    /// Writes a changed row over the revision it was read at.
    pub async fn save_purchase(&self, row: &PurchasedService, rev: u64) -> Result<(), ApiError> {
        let res = self.client.transact_write_items().transact_items(self.row_put(row, Some(rev))?).send().await;
        match res {
            Ok(_) => Ok(()),
            Err(e) if is_conditional(&e) => Err(ApiError::bad(Msg::ChangedConcurrently)),
            Err(e) => Err(sdk_err(e)),
        }
    }

    pub async fn delete_purchase(&self, row: &PurchasedService) -> Result<(), ApiError> {
        let res = self
            .client
            .delete_item()
            .table_name(&self.table)
            .key("PK", s(keys::customer::pk(&row.customer_uid)))
            .key("SK", s(keys::purchase::sk(row.id)))
            .condition_expression("attribute_exists(PK)")
            .send()
            .await;
        match res {
            Ok(_) => Ok(()),
            Err(e) if is_conditional(&e) => Err(ApiError::NotFound),
            Err(e) => Err(sdk_err(e)),
        }
    }

    /// The transaction items that book `entry` against its row: the row
    /// with the consumed amount raised (refused by the limit rule) and the
    /// ledger item. The cases issue adds these to its own transaction.
    pub async fn usage_items(
        &self,
        entry: &UsageEntry,
        now: NaiveDateTime,
    ) -> Result<(PurchasedService, Vec<TransactWriteItem>), ApiError> {
        let stored = self.get_purchase(entry.purchase_id).await?.ok_or(ApiError::bad(subscription::NO_VALID_SUBSCRIPTION))?;
        let next = subscription::consume(&stored.row, entry.usage(), now).map_err(|e: RuleError| ApiError::bad(e.key()))?;
        let mut ledger: Item = serde_dynamo::to_item(entry).map_err(ApiError::internal)?;
        ledger.insert("PK".into(), s(keys::purchase::usage_pk(entry.purchase_id)));
        ledger.insert("SK".into(), s(keys::purchase::usage_sk(entry.date, &entry.entry_id)));
        ledger.insert("entity".into(), s("usage"));
        let put = Put::builder()
            .table_name(&self.table)
            .set_item(Some(ledger))
            .condition_expression("attribute_not_exists(PK)")
            .build()
            .map_err(ApiError::internal)?;
        Ok((next.clone(), vec![self.row_put(&next, Some(stored.rev))?, TransactWriteItem::builder().put(put).build()]))
    }

    /// Books a use against a row (see [`Store::usage_items`]).
    pub async fn record_usage(&self, entry: &UsageEntry, now: NaiveDateTime) -> Result<PurchasedService, ApiError> {
        let (row, items) = self.usage_items(entry, now).await?;
        let res = self.client.transact_write_items().set_transact_items(Some(items)).send().await;
        match res {
            Ok(_) => Ok(row),
            Err(e) if is_conditional(&e) => Err(ApiError::bad(Msg::ChangedConcurrently)),
            Err(e) => Err(sdk_err(e)),
        }
    }

    /// The transaction items that take a ledger entry back: the row's
    /// consumed amount lowered and the ledger item deleted.
    pub async fn release_items(
        &self,
        purchase_id: u64,
        date: NaiveDate,
        entry_id: &str,
        now: NaiveDateTime,
    ) -> Result<Vec<TransactWriteItem>, ApiError> {
        let item =
            self.get(&keys::purchase::usage_pk(purchase_id), &keys::purchase::usage_sk(date, entry_id)).await?.ok_or(ApiError::NotFound)?;
        let entry: UsageEntry = serde_dynamo::from_item(item).map_err(ApiError::internal)?;
        let stored = self.get_purchase(purchase_id).await?.ok_or(ApiError::NotFound)?;
        let next = subscription::release(&stored.row, entry.usage(), now);
        let del = Delete::builder()
            .table_name(&self.table)
            .key("PK", s(keys::purchase::usage_pk(purchase_id)))
            .key("SK", s(keys::purchase::usage_sk(date, entry_id)))
            .condition_expression("attribute_exists(PK)")
            .build()
            .map_err(ApiError::internal)?;
        Ok(vec![self.row_put(&next, Some(stored.rev))?, TransactWriteItem::builder().delete(del).build()])
    }

    pub async fn release_usage(&self, purchase_id: u64, date: NaiveDate, entry_id: &str, now: NaiveDateTime) -> Result<(), ApiError> {
        let items = self.release_items(purchase_id, date, entry_id, now).await?;
        match self.client.transact_write_items().set_transact_items(Some(items)).send().await {
            Ok(_) => Ok(()),
            Err(e) if is_conditional(&e) => Err(ApiError::bad(Msg::ChangedConcurrently)),
            Err(e) => Err(sdk_err(e)),
        }
    }

    /// Ledger entries of a row dated `from..=to` (one Query on the row's partition).
    pub async fn list_usage(&self, purchase_id: u64, from: NaiveDate, to: NaiveDate) -> Result<Vec<UsageEntry>, ApiError> {
        let mut out = Vec::new();
        let mut start = None;
        loop {
            let page = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("PK = :p AND SK BETWEEN :a AND :b")
                .expression_attribute_values(":p", s(keys::purchase::usage_pk(purchase_id)))
                .expression_attribute_values(":a", s(keys::purchase::usage_from(from)))
                .expression_attribute_values(":b", s(keys::purchase::usage_to(to)))
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(sdk_err)?;
            for i in page.items() {
                out.push(serde_dynamo::from_item(i.clone()).map_err(ApiError::internal)?);
            }
            start = page.last_evaluated_key;
            if start.is_none() {
                return Ok(out);
            }
        }
    }

    /// The customer's credit-information (Bisnode) account: `(active, account)`.
    pub async fn bisnode_account(&self, customer_uid: &str) -> Result<(bool, Option<String>), ApiError> {
        let item = self.get(&keys::customer::pk(customer_uid), keys::customer::BISNODE_SK).await?;
        Ok(match item {
            None => (false, None),
            Some(i) => (
                i.get("active").and_then(|v| v.as_bool().ok()).copied().unwrap_or(false),
                i.get("account").and_then(|v| v.as_s().ok()).cloned(),
            ),
        })
    }

    pub async fn put_bisnode_account(&self, customer_uid: &str, active: bool, account: Option<&str>) -> Result<(), ApiError> {
        let mut put = self
            .client
            .put_item()
            .table_name(&self.table)
            .item("PK", s(keys::customer::pk(customer_uid)))
            .item("SK", s(keys::customer::BISNODE_SK))
            .item("entity", s("bisnode_account"))
            .item("active", AttributeValue::Bool(active));
        if let Some(a) = account {
            put = put.item("account", s(a));
        }
        put.send().await.map_err(sdk_err)?;
        Ok(())
    }

    /// Marks every row whose `expire_on` is at or before `now` as expired,
    /// renews those whose automatic update date asks for it (the renewed row
    /// becomes the old one's `child`) and otherwise activates the customer's
    /// advance row of the same service, if any. Idempotent and safe to run
    /// concurrently: each row is flipped by a conditional write that only one
    /// run can win, and a renewal is written in the same transaction.
    pub async fn expire_due_subscriptions(&self, now: DateTime<Utc>) -> Result<ExpiryReport, ApiError> {
        // '~' sorts after every character used in ids, so rows due exactly now are included.
        let upper = format!("{}~", now.to_rfc3339_opts(SecondsFormat::Secs, true));
        let mut report = ExpiryReport::default();
        let mut start = None;
        loop {
            let page = self
                .client
                .query()
                .table_name(&self.table)
                .index_name(super::table::GSI2)
                .key_condition_expression("GSI2PK = :p AND GSI2SK <= :u")
                .expression_attribute_values(":p", s(keys::purchase::DUE_GSI2PK))
                .expression_attribute_values(":u", s(&upper))
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(sdk_err)?;
            for item in page.items() {
                let (Some(pk), Some(sk)) = (item.get("PK"), item.get("SK")) else { continue };
                report.due += 1;
                // The index is eventually consistent: act on the row itself.
                let (pk, sk) = (pk.as_s().map_err(|_| ApiError::internal("PK"))?, sk.as_s().map_err(|_| ApiError::internal("SK"))?);
                let Some(current) = self.get(pk, sk).await? else { continue };
                if !current.contains_key("GSI2PK") {
                    continue;
                }
                let stored = parse_row(current)?;
                let renewed = match stored.row.auto_update_date_end {
                    Some(_) if stored.row.child.is_none() => self.renew(&stored, now.naive_utc()).await?,
                    _ => None,
                };
                match renewed {
                    Some(true) => {
                        report.expired += 1;
                        report.renewed += 1;
                    }
                    Some(false) => {}
                    None => {
                        let done = match self.advance_successor(&stored.row).await? {
                            Some(next) => self.expire_and_promote(&stored, &next, now.naive_utc()).await?,
                            None => self.flip_expired(pk, sk).await?,
                        };
                        if done {
                            report.expired += 1;
                        }
                    }
                }
            }
            start = page.last_evaluated_key;
            if start.is_none() {
                break;
            }
        }
        Ok(report)
    }

    /// The advance row (bought ahead, not active) of the same customer and
    /// service that takes over when `row` ends: the earliest one.
    async fn advance_successor(&self, row: &PurchasedService) -> Result<Option<StoredRow>, ApiError> {
        if !row.active {
            return Ok(None);
        }
        let mut waiting: Vec<StoredRow> = self
            .query_prefix(&keys::customer::pk(&row.customer_uid), keys::purchase::PREFIX)
            .await?
            .into_iter()
            .map(parse_row)
            .collect::<Result<_, _>>()?;
        waiting.retain(|r| r.row.id != row.id && r.row.service.id == row.service.id && r.row.advance && !r.row.active && !r.row.expired);
        waiting.sort_by_key(|r| (r.row.start_date, r.row.id));
        Ok(waiting.into_iter().next())
    }

    /// Expires `old` and activates its advance successor in one transaction
    /// (the successor keeps `advance`, so the table still tags it).
    async fn expire_and_promote(&self, old: &StoredRow, next: &StoredRow, now: NaiveDateTime) -> Result<bool, ApiError> {
        let mut done = old.row.clone();
        done.expired = true;
        done.active = false;
        done.updated_at = now;
        let mut promoted = next.row.clone();
        promoted.active = true;
        promoted.updated_at = now;
        let res = self
            .client
            .transact_write_items()
            .transact_items(self.row_put(&done, Some(old.rev))?)
            .transact_items(self.row_put(&promoted, Some(next.rev))?)
            .send()
            .await;
        match res {
            Ok(_) => Ok(true),
            Err(e) if is_conditional(&e) => Ok(false),
            Err(e) => Err(sdk_err(e)),
        }
    }

    async fn flip_expired(&self, pk: &str, sk: &str) -> Result<bool, ApiError> {
        let res = self
            .client
            .update_item()
            .table_name(&self.table)
            .key("PK", s(pk))
            .key("SK", s(sk))
            .update_expression("SET expired = :t, active = :f ADD rev :one REMOVE GSI2PK, GSI2SK")
            .condition_expression("attribute_exists(GSI2PK)")
            .expression_attribute_values(":t", AttributeValue::Bool(true))
            .expression_attribute_values(":f", AttributeValue::Bool(false))
            .expression_attribute_values(":one", n(1))
            .send()
            .await;
        match res {
            Ok(_) => Ok(true),
            Err(e) if is_conditional(&e) => Ok(false),
            Err(e) => Err(sdk_err(e)),
        }
    }

    /// Expires `old` and creates its renewal in one transaction. `None` when
    /// the row is not to be renewed; `Some(false)` when a concurrent run won.
    async fn renew(&self, old: &StoredRow, now: NaiveDateTime) -> Result<Option<bool>, ApiError> {
        let id = subscription::renewal_id(old.row.id);
        let Some(child) = subscription::renewal(&old.row, id, now) else { return Ok(None) };
        let mut done = old.row.clone();
        done.expired = true;
        done.active = false;
        done.child = Some(id);
        done.updated_at = now;
        let res = self
            .client
            .transact_write_items()
            .transact_items(self.row_put(&done, Some(old.rev))?)
            .transact_items(self.row_put(&child, None)?)
            .send()
            .await;
        match res {
            Ok(_) => Ok(Some(true)),
            Err(e) if is_conditional(&e) => Ok(Some(false)),
            Err(e) => Err(sdk_err(e)),
        }
    }
}

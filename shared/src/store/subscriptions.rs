//! Purchased services (subscription rows), their usage ledger, the purchase
//! guards and the Bisnode account item.
//!
//! A row lives at `PK = CUSTOMER#<customer uid>`, `SK = PURCHASE#<id>`, with
//! `GSI1PK = PSVC#<id>` for the lookup by id. It carries `GSI2PK =
//! DUE#SUBSCRIPTION`, `GSI2SK = <expire_on RFC 3339>#<id>` while it is not
//! expired, so the scheduled job finds due rows with one Query on a sparse
//! index and never scans the table. Every write of a row is conditional on its
//! `rev` attribute (optimistic concurrency), so concurrent writers cannot lose
//! each other's changes.
//!
//! The functions here read rows (consistently where a conditional write
//! follows) and add row changes to a transaction ([`Tx`]); the use cases of
//! `services::subscriptions` decide with the domain rules and commit each
//! change together with its events.

use aws_sdk_dynamodb::types::{AttributeValue, Delete, Put, TransactWriteItem, Update};
use chrono::{DateTime, NaiveDate, NaiveDateTime, SecondsFormat, Utc};

use super::retention::DueRecord;
use super::tx::Tx;
use super::{keys, n, s, sdk_err, Item, Store};
use crate::domain::customer::CustomerType;
use crate::domain::retention::{self, RecordKind};
use crate::domain::subscription::{self, PurchasedService, RuleError};
use crate::error::ApiError;

/// The ledger entry is a domain type; the store's callers find it here too.
pub use crate::domain::subscription::UsageEntry;

/// The counter that numbers purchased services.
const PURCHASE_COUNTER: &str = "purchase";

/// A stored row and the revision its next write must match.
#[derive(Clone, Debug)]
pub struct StoredRow {
    pub row: PurchasedService,
    pub rev: u64,
}

/// The stored item of `row` at revision `rev` (also what a bulk load of
/// the benchmark writes: BatchWriteItem, no transaction, no events).
pub fn row_item(row: &PurchasedService, rev: u64) -> Result<Item, ApiError> {
    let mut item: Item = serde_dynamo::to_item(row).map_err(ApiError::internal)?;
    keys::purchase::item(&row.customer_uid, row.id).stamp(&mut item);
    item.insert("entity".into(), s("purchased_service"));
    item.insert("rev".into(), n(rev));
    // Derived, so it can never disagree with the hours it describes.
    item.insert("hour_less_than_consumed".into(), AttributeValue::Bool(row.hour < row.consumed_hour));
    keys::IndexKey::gsi1(keys::purchase::gsi1pk(row.id), keys::purchase::GSI1SK).stamp(&mut item);
    if !row.expired {
        keys::IndexKey::gsi2(keys::purchase::DUE_GSI2PK, keys::purchase::due_gsi2sk(row.expire_on.and_utc(), &row.id.to_string()))
            .stamp(&mut item);
    }
    Ok(item)
}

/// When an ended row's accounting record ends (its retention begins): its
/// end, or its last change when that came later.
pub fn billing_ended(row: &PurchasedService) -> DateTime<Utc> {
    row.expire_on.max(row.updated_at).and_utc()
}

/// What [`Store::customer_account`] read.
pub struct CustomerAccount {
    /// The customer's user, when asked for.
    pub user: Option<crate::domain::User>,
    /// Its Bisnode account: (active, account number).
    pub bisnode: (bool, Option<String>),
    /// Company or individual; None without a profile.
    pub customer_type: Option<CustomerType>,
}

/// A customer's Bisnode account: (active, account number); inactive when absent.
fn bisnode_of(item: Option<&Item>) -> (bool, Option<String>) {
    match item {
        None => (false, None),
        Some(i) => (
            i.get("active").and_then(|v| v.as_bool().ok()).copied().unwrap_or(false),
            i.get("account").and_then(|v| v.as_s().ok()).cloned(),
        ),
    }
}

pub(crate) fn parse_row(item: Item) -> Result<StoredRow, ApiError> {
    let rev = item.get("rev").and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut row: PurchasedService = serde_dynamo::from_item(item).map_err(ApiError::internal)?;
    // Hour bookings update the consumed hours in place (no read-modify-write
    // of the row), so the stored flag may lag: derive it again.
    row.refresh_flags();
    Ok(StoredRow { row, rev })
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

    /// Adds to `tx` the write of `row` over revision `rev` (a new row when None).
    /// An expired row is an accounting record from then on: its retention's
    /// due item is written with it (the same item again when it is
    /// rewritten unchanged; a later end files a later one, and the job
    /// moves the earlier to the row's end when it meets it).
    pub fn add_row(&self, tx: &mut Tx, row: &PurchasedService, rev: Option<u64>) -> Result<(), ApiError> {
        tx.push(self.row_put(row, rev)?);
        if row.expired {
            self.add_billing_due(tx, row, billing_ended(row))?;
        }
        Ok(())
    }

    fn add_billing_due(&self, tx: &mut Tx, row: &PurchasedService, ended: DateTime<Utc>) -> Result<(), ApiError> {
        let record = DueRecord::Billing { customer_uid: row.customer_uid.clone(), purchase_id: row.id };
        self.add_retention_due(tx, &record, retention::kept_until(RecordKind::Billing, ended))
    }

    /// Adds to `tx` the removal of `row` as it was read at revision `rev`
    /// (the retention job's, at the end of its accounting record).
    pub fn add_row_delete_only(&self, tx: &mut Tx, row: &PurchasedService, rev: u64) -> Result<(), ApiError> {
        let del = Delete::builder()
            .table_name(&self.table)
            .set_key(Some(keys::purchase::item(&row.customer_uid, row.id).item()))
            .condition_expression("rev = :rev")
            .expression_attribute_values(":rev", n(rev))
            .build()
            .map_err(ApiError::internal)?;
        tx.push(TransactWriteItem::builder().delete(del).build());
        Ok(())
    }

    /// Adds to `tx` the removal of `row` as it was read at revision `rev`
    /// (a staff deletion: its usage ledger stays until its retention ends).
    pub fn add_row_delete(&self, tx: &mut Tx, row: &PurchasedService, rev: u64) -> Result<(), ApiError> {
        self.add_row_delete_only(tx, row, rev)?;
        // Its usage ledger is kept as the accounting records it is.
        self.add_billing_due(tx, row, billing_ended(row).max(Utc::now()))
    }

    /// Adds a purchase to `tx`: the new row and the bump of the customer's
    /// guard of its service from the version `guard_seen` that the decision
    /// read, so two concurrent purchases of a service cannot both pass the
    /// active/advance rule.
    pub fn add_purchase(&self, tx: &mut Tx, row: &PurchasedService, guard_seen: u64) -> Result<(), ApiError> {
        let guard = Update::builder()
            .table_name(&self.table)
            .set_key(Some(keys::purchase::guard(&row.customer_uid, row.service.id).item()))
            .update_expression("SET ver = :next")
            .condition_expression("attribute_not_exists(ver) OR ver = :seen")
            .expression_attribute_values(":next", n(guard_seen + 1))
            .expression_attribute_values(":seen", n(guard_seen))
            .build()
            .map_err(ApiError::internal)?;
        tx.push(TransactWriteItem::builder().update(guard).build());
        // The catalogue entry bought is marked so it is never deleted.
        if let Some(id) = row.packages.as_ref().and_then(|p| p.id) {
            self.add_bought_mark(tx, super::catalogue::Offer::Package, id)?;
        }
        if let Some(id) = row.service_plan.as_ref().and_then(|p| p.id) {
            self.add_bought_mark(tx, super::catalogue::Offer::Plan, id)?;
        }
        self.add_row(tx, row, None)
    }

    /// The version of the customer's purchase guard of a service (0 before
    /// the first purchase), read consistently.
    pub async fn purchase_guard(&self, customer_uid: &str, service_id: u8) -> Result<u64, ApiError> {
        let guard = self.get_consistent(&keys::purchase::guard(customer_uid, service_id)).await?;
        Ok(guard.as_ref().and_then(|g| g.get("ver")).and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok()).unwrap_or(0))
    }

    /// The id of a new row.
    pub async fn next_purchase_id(&self) -> Result<u64, ApiError> {
        self.next_id(PURCHASE_COUNTER).await
    }

    /// A customer's rows, oldest first.
    pub async fn list_purchases(&self, customer_uid: &str) -> Result<Vec<PurchasedService>, ApiError> {
        let rows = self.query_prefix(&keys::customer::pk(customer_uid), keys::purchase::PREFIX).await?;
        Ok(super::readable(rows, |i| parse_row(i).map(|r| r.row)))
    }

    /// A customer's rows with their revisions, read consistently (one Query),
    /// for a decision that a conditional write then relies on.
    pub async fn purchases_of(&self, customer_uid: &str) -> Result<Vec<StoredRow>, ApiError> {
        self.purchases_where(customer_uid, None).await
    }

    /// [`Self::purchases_of`], only the rows of one service (an add-on's
    /// access rule looks at no other): the others are left out by DynamoDB.
    pub async fn purchases_of_service(&self, customer_uid: &str, service_id: u8) -> Result<Vec<StoredRow>, ApiError> {
        self.purchases_where(customer_uid, Some(service_id)).await
    }

    async fn purchases_where(&self, customer_uid: &str, service_id: Option<u8>) -> Result<Vec<StoredRow>, ApiError> {
        let pk = keys::customer::pk(customer_uid);
        let mut q = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :p AND begins_with(SK, :s)")
            .expression_attribute_values(":p", s(&pk))
            .expression_attribute_values(":s", s(keys::purchase::PREFIX))
            .consistent_read(true);
        if let Some(id) = service_id {
            q = q
                .filter_expression("#service.#id = :service")
                .expression_attribute_names("#service", "service")
                .expression_attribute_names("#id", "id")
                .expression_attribute_values(":service", n(id));
        }
        self.query_all(q).await?.into_iter().map(parse_row).collect()
    }

    /// A row by id (Query GSI1 `PSVC#<id>`, then the row itself, read
    /// consistently: its `rev` is what the next write is conditional on).
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
        let Some(customer) = out.items().first().and_then(|i| i.get("customer_uid")).and_then(|v| v.as_s().ok()) else { return Ok(None) };
        self.purchase_of(customer, id).await
    }

    /// A customer's row by id, read consistently.
    pub async fn purchase_of(&self, customer_uid: &str, id: u64) -> Result<Option<StoredRow>, ApiError> {
        self.get_consistent(&keys::purchase::item(customer_uid, id)).await?.map(parse_row).transpose()
    }

    /// Rows not yet expired whose `expire_on` is at or before `now`, as
    /// (customer uid, id): one Query of the sparse due index (all pages).
    pub async fn due_purchases(&self, now: DateTime<Utc>) -> Result<Vec<(String, u64)>, ApiError> {
        // '~' sorts after every character used in ids, so rows due exactly now are included.
        let upper = format!("{}~", now.to_rfc3339_opts(SecondsFormat::Secs, true));
        let query = self
            .client
            .query()
            .table_name(&self.table)
            .index_name(super::table::GSI2)
            .key_condition_expression("GSI2PK = :p AND GSI2SK <= :u")
            .expression_attribute_values(":p", s(keys::purchase::DUE_GSI2PK))
            .expression_attribute_values(":u", s(&upper));
        Ok(due_refs(&self.query_all(query).await?))
    }

    /// Subscription rows not expired whose `expire_on` lies in `[from, to]`,
    /// as (customer uid, id): one Query of the due index's range (the
    /// statistics' rows due in a period; here beside the index's other reader).
    pub async fn due_between(
        &self,
        from: chrono::DateTime<chrono::Utc>,
        to: chrono::DateTime<chrono::Utc>,
    ) -> Result<Vec<(String, u64)>, ApiError> {
        use chrono::SecondsFormat;
        let a = from.to_rfc3339_opts(SecondsFormat::Secs, true);
        let b = format!("{}~", to.to_rfc3339_opts(SecondsFormat::Secs, true));
        let query = self
            .client
            .query()
            .table_name(&self.table)
            .index_name(super::table::GSI2)
            .key_condition_expression("GSI2PK = :p AND GSI2SK BETWEEN :a AND :b")
            .expression_attribute_values(":p", s(super::keys::purchase::DUE_GSI2PK))
            .expression_attribute_values(":a", s(&a))
            .expression_attribute_values(":b", s(&b));
        Ok(due_refs(&self.query_all(query).await?))
    }

    /// The transaction items that book `entry` against its row: the row
    /// with the consumed amount raised (refused by the limit rule) and the
    /// ledger item. A use case adds these to its own transaction.
    pub async fn usage_items(
        &self,
        entry: &UsageEntry,
        now: NaiveDateTime,
    ) -> Result<(PurchasedService, Vec<TransactWriteItem>), ApiError> {
        let stored = self.get_purchase(entry.purchase_id).await?.ok_or(ApiError::bad(subscription::NO_VALID_SUBSCRIPTION))?;
        let next = subscription::consume(&stored.row, entry.usage(), now).map_err(|e: RuleError| ApiError::bad(e.key()))?;
        let mut ledger: Item = serde_dynamo::to_item(entry).map_err(ApiError::internal)?;
        keys::purchase::usage(entry.purchase_id, entry.date, &entry.entry_id).stamp(&mut ledger);
        ledger.insert("entity".into(), s("usage"));
        let put = Put::builder()
            .table_name(&self.table)
            .set_item(Some(ledger))
            .condition_expression("attribute_not_exists(PK)")
            .build()
            .map_err(ApiError::internal)?;
        Ok((next.clone(), vec![self.row_put(&next, Some(stored.rev))?, TransactWriteItem::builder().put(put).build()]))
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
        Ok(self.release_usage_items(purchase_id, date, entry_id, now).await?.1)
    }

    /// [`Store::release_items`], with the row as it will be.
    pub async fn release_usage_items(
        &self,
        purchase_id: u64,
        date: NaiveDate,
        entry_id: &str,
        now: NaiveDateTime,
    ) -> Result<(PurchasedService, Vec<TransactWriteItem>), ApiError> {
        let item = self.get(&keys::purchase::usage(purchase_id, date, entry_id)).await?.ok_or(ApiError::NotFound)?;
        let entry: UsageEntry = serde_dynamo::from_item(item).map_err(ApiError::internal)?;
        let stored = self.get_purchase(purchase_id).await?.ok_or(ApiError::NotFound)?;
        let next = subscription::release(&stored.row, entry.usage(), now);
        let del = Delete::builder()
            .table_name(&self.table)
            .set_key(Some(keys::purchase::usage(purchase_id, date, entry_id).item()))
            .condition_expression("attribute_exists(PK)")
            .build()
            .map_err(ApiError::internal)?;
        Ok((next.clone(), vec![self.row_put(&next, Some(stored.rev))?, TransactWriteItem::builder().delete(del).build()]))
    }

    /// Whether the ledger holds an entry (read consistently).
    pub async fn has_usage(&self, purchase_id: u64, date: NaiveDate, entry_id: &str) -> Result<bool, ApiError> {
        Ok(self.get_consistent(&keys::purchase::usage(purchase_id, date, entry_id)).await?.is_some())
    }

    /// Ledger entries of a row dated `from..=to` (one Query on the row's partition).
    pub async fn list_usage(&self, purchase_id: u64, from: NaiveDate, to: NaiveDate) -> Result<Vec<UsageEntry>, ApiError> {
        let mut out = Vec::new();
        let query = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :p AND SK BETWEEN :a AND :b")
            .expression_attribute_values(":p", s(keys::purchase::usage_pk(purchase_id)))
            .expression_attribute_values(":a", s(keys::purchase::usage_from(from)))
            .expression_attribute_values(":b", s(keys::purchase::usage_to(to)));
        let items = self.query_all(query).await?;
        out.extend(super::readable_items(items.iter().cloned()));
        Ok(out)
    }

    /// The customer's credit-information (Bisnode) account: `(active, account)`.
    pub async fn bisnode_account(&self, customer_uid: &str) -> Result<(bool, Option<String>), ApiError> {
        Ok(bisnode_of(self.get(&keys::customer::bisnode(customer_uid)).await?.as_ref()))
    }

    /// What `customer/{uid}/` reads of a customer beside its rows, in one
    /// BatchGetItem: its Bisnode account, its type (from its profile) and,
    /// when `with_user` (staff: the customer reading itself was read to
    /// authenticate it), its user.
    pub async fn customer_account(&self, uid: &str, with_user: bool) -> Result<CustomerAccount, ApiError> {
        let user_key = keys::user::item(uid);
        let mut wanted = vec![keys::customer::bisnode(uid), keys::customer::profile(uid)];
        if with_user {
            wanted.push(user_key.clone());
        }
        let (mut user, mut bisnode, mut customer_type) = (None, None, None);
        for item in self.batch_get(&wanted).await? {
            let key = |a: &str| item.get(a).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
            let (pk, sk) = (key("PK"), key("SK"));
            if pk == user_key.pk {
                user = Some(super::users::from_item(item)?);
            } else if sk == keys::customer::PROFILE_SK {
                customer_type = item
                    .get("customer_type")
                    .and_then(|v| v.as_s().ok())
                    .and_then(|t| serde_json::from_value::<CustomerType>(serde_json::Value::String(t.clone())).ok());
            } else {
                bisnode = Some(item);
            }
        }
        Ok(CustomerAccount { user, bisnode: bisnode_of(bisnode.as_ref()), customer_type })
    }

    pub async fn put_bisnode_account(&self, customer_uid: &str, active: bool, account: Option<&str>) -> Result<(), ApiError> {
        let mut put = self
            .client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(keys::customer::bisnode(customer_uid).item()))
            .item("entity", s("bisnode_account"))
            .item("active", AttributeValue::Bool(active));
        if let Some(a) = account {
            put = put.item("account", s(a));
        }
        put.send().await.map_err(sdk_err)?;
        Ok(())
    }
}

/// Fixtures for tests that need rows in a given state without going through
/// the use cases (which add the events of every change); never in production
/// code.
#[cfg(feature = "testkit")]
impl Store {
    /// A row bought for `customer_uid` as `services::subscriptions::grant`
    /// buys it (same rule, same guard), without the events.
    pub async fn purchase(
        &self,
        customer_uid: &str,
        grant: &subscription::Grant,
        now: NaiveDateTime,
    ) -> Result<PurchasedService, ApiError> {
        let seen = self.purchase_guard(customer_uid, grant.service_id).await?;
        let existing: Vec<PurchasedService> = self.purchases_of(customer_uid).await?.into_iter().map(|r| r.row).collect();
        let (advance, start) = subscription::plan_purchase(&existing, grant.service_id, now).map_err(|e| ApiError::bad(e.key()))?;
        let row = subscription::new_row(self.next_purchase_id().await?, customer_uid, grant, advance, start, now);
        let mut tx = self.tx();
        self.add_purchase(&mut tx, &row, seen)?;
        if self.commit(tx).await? {
            Ok(row)
        } else {
            Err(ApiError::bad(crate::error::Msg::ChangedConcurrently))
        }
    }

    /// Writes `row` over revision `rev` as it is (e.g. a state no use case
    /// reaches in one step).
    pub async fn save_purchase(&self, row: &PurchasedService, rev: u64) -> Result<(), ApiError> {
        let mut tx = self.tx();
        self.add_row(&mut tx, row, Some(rev))?;
        if self.commit(tx).await? {
            Ok(())
        } else {
            Err(ApiError::bad(crate::error::Msg::ChangedConcurrently))
        }
    }
}

/// (customer uid, id) of the due index's items, as the expiry job and the
/// statistics' rows due in a period read them (an item without both is left out).
pub(super) fn due_refs(items: &[Item]) -> Vec<(String, u64)> {
    items
        .iter()
        .filter_map(|item| {
            let customer = item.get("customer_uid").and_then(|v| v.as_s().ok())?;
            let id = item.get("id").and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok())?;
            Some((customer.clone(), id))
        })
        .collect()
}

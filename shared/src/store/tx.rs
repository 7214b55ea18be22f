//! One DynamoDB transaction being built: a change and all its side effects
//! (history, conflict-index entries, follow-up items), committed at once or
//! not at all.

use aws_sdk_dynamodb::types::{AttributeValue, ConditionCheck, Delete, Put, TransactWriteItem, Update};

use super::{sdk_err, Item, Key, Store};
use crate::error::ApiError;

/// DynamoDB's limit of items in one TransactWriteItems call.
pub const MAX_ITEMS: usize = 100;

/// The items of one transaction. Two items may not name the same key (a
/// DynamoDB rule), so builders that may touch one key twice merge first.
pub struct Tx {
    table: String,
    items: Vec<TransactWriteItem>,
    /// The idempotency record this transaction puts (its key and the
    /// request's fingerprint), so a commit that fails on it answers the
    /// first request's answer ([`super::idempotency`]).
    pub(super) once: Option<(String, String)>,
}

/// A condition expression with its placeholder names and values, e.g.
/// `Cond::new("rev = :rev").value(":rev", n(3))`.
#[derive(Clone, Debug)]
pub struct Cond {
    expr: String,
    names: Vec<(String, String)>,
    values: Vec<(String, AttributeValue)>,
}

impl Cond {
    pub fn new(expr: impl Into<String>) -> Self {
        Cond { expr: expr.into(), names: Vec::new(), values: Vec::new() }
    }
    /// The same names and values with another expression (built up while
    /// the values were added).
    pub fn with_expr(mut self, expr: impl Into<String>) -> Self {
        self.expr = expr.into();
        self
    }
    /// `attribute_not_exists(PK)`: the item does not exist yet.
    pub fn absent() -> Self {
        Cond::new("attribute_not_exists(PK)")
    }
    /// `attribute_exists(PK)`: the item exists.
    pub fn present() -> Self {
        Cond::new("attribute_exists(PK)")
    }
    pub fn value(mut self, placeholder: &str, v: AttributeValue) -> Self {
        self.values.push((placeholder.into(), v));
        self
    }
    /// A `#name` placeholder (for reserved words such as `status`).
    pub fn name(mut self, placeholder: &str, attribute: &str) -> Self {
        self.names.push((placeholder.into(), attribute.into()));
        self
    }
}

/// Applies a condition to any of the SDK's transaction-item builders.
macro_rules! with_cond {
    ($b:expr, $c:expr) => {{
        let mut b = $b.condition_expression($c.expr);
        for (k, v) in $c.names {
            b = b.expression_attribute_names(k, v);
        }
        for (k, v) in $c.values {
            b = b.expression_attribute_values(k, v);
        }
        b
    }};
}

fn built<T, E: std::fmt::Display>(r: Result<T, E>) -> Result<T, ApiError> {
    r.map_err(ApiError::internal)
}

impl Tx {
    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Whether an item of this transaction names `key` (a second one
    /// may not: DynamoDB refuses two operations on one item).
    pub fn touches(&self, key: &Key) -> bool {
        let is = |m: Option<&Item>| m.is_some_and(|m| key.names(m));
        self.items.iter().any(|i| {
            is(i.put().map(|p| p.item()))
                || is(i.update().map(|u| u.key()))
                || is(i.delete().map(|d| d.key()))
                || is(i.condition_check().map(|c| c.key()))
        })
    }

    /// How many more items fit.
    pub fn room(&self) -> usize {
        MAX_ITEMS.saturating_sub(self.items.len())
    }

    /// The built items (to split work that cannot be one transaction).
    pub fn into_items(self) -> Vec<TransactWriteItem> {
        self.items
    }

    pub fn push(&mut self, item: TransactWriteItem) {
        self.items.push(item);
    }

    /// Writes `item` whatever is there.
    pub fn put(&mut self, item: Item) -> Result<(), ApiError> {
        self.put_if(item, None)
    }

    /// Writes `item` only if no item has its key yet.
    pub fn put_new(&mut self, item: Item) -> Result<(), ApiError> {
        self.put_if(item, Some(Cond::absent()))
    }

    /// Writes `item` if `condition` holds for the stored one.
    pub fn put_if(&mut self, item: Item, condition: Option<Cond>) -> Result<(), ApiError> {
        let mut put = Put::builder().table_name(&self.table).set_item(Some(item));
        if let Some(c) = condition {
            put = with_cond!(put, c);
        }
        self.items.push(TransactWriteItem::builder().put(built(put.build())?).build());
        Ok(())
    }

    /// Deletes the item at `key` (if `condition` holds, when given).
    pub fn delete(&mut self, key: &Key, condition: Option<Cond>) -> Result<(), ApiError> {
        let mut del = Delete::builder().table_name(&self.table).set_key(Some(key.item()));
        if let Some(c) = condition {
            del = with_cond!(del, c);
        }
        self.items.push(TransactWriteItem::builder().delete(built(del.build())?).build());
        Ok(())
    }

    /// Fails the transaction unless `condition` holds for the item at `key`.
    pub fn check(&mut self, key: &Key, condition: Cond) -> Result<(), ApiError> {
        let c = with_cond!(ConditionCheck::builder().table_name(&self.table).set_key(Some(key.item())), condition);
        self.items.push(TransactWriteItem::builder().condition_check(built(c.build())?).build());
        Ok(())
    }

    /// Adds numbers to attributes of the item at `key` (created if
    /// absent): one unconditional `ADD #a0 :v0, #a1 :v1, …` (counters).
    pub fn add_numbers(&mut self, key: &Key, values: &[(String, i64)]) -> Result<(), ApiError> {
        let expr: Vec<String> = (0..values.len()).map(|i| format!("#a{i} :v{i}")).collect();
        let mut up =
            Update::builder().table_name(&self.table).set_key(Some(key.item())).update_expression(format!("ADD {}", expr.join(", ")));
        for (i, (name, v)) in values.iter().enumerate() {
            up = up.expression_attribute_names(format!("#a{i}"), name).expression_attribute_values(format!(":v{i}"), super::n(v));
        }
        self.items.push(TransactWriteItem::builder().update(built(up.build())?).build());
        Ok(())
    }

    /// Updates the item at `key`: `update` is the expression, with
    /// `condition`'s names and values shared by both.
    pub fn update_if(&mut self, key: &Key, update: &str, condition: Cond) -> Result<(), ApiError> {
        let up = Update::builder().table_name(&self.table).set_key(Some(key.item())).update_expression(update);
        let up = with_cond!(up, condition);
        self.items.push(TransactWriteItem::builder().update(built(up.build())?).build());
        Ok(())
    }
}

impl Store {
    /// A new, empty transaction on this table.
    pub fn tx(&self) -> Tx {
        Tx { table: self.table.clone(), items: Vec::new(), once: None }
    }

    /// Commits `tx`: `Ok(true)` when written, `Ok(false)` when a condition
    /// failed or a concurrent transaction touched the same items (the caller
    /// reads again and decides again). More than [`MAX_ITEMS`] items is a
    /// programming error: such work goes through a follow-up item.
    pub async fn commit(&self, tx: Tx) -> Result<bool, ApiError> {
        if tx.items.is_empty() {
            return Ok(true);
        }
        if tx.items.len() > MAX_ITEMS {
            return Err(ApiError::internal(format!("a transaction of {} items (the limit is {MAX_ITEMS})", tx.items.len())));
        }
        match self.client.transact_write_items().set_transact_items(Some(tx.items)).send().await {
            Ok(_) => Ok(true),
            Err(e) if super::is_conditional(&e) => match tx.once {
                // A concurrent request with the same key may have committed
                // first: then its answer is this one's.
                Some((pk, fingerprint)) => self.replay_record(&pk, &fingerprint).await.map(|()| false),
                None => Ok(false),
            },
            Err(e) => Err(sdk_err(e)),
        }
    }
}

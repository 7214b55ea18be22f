//! One DynamoDB transaction being built: a change and all its side effects
//! (history, conflict-index entries, follow-up items), committed at once or
//! not at all.

use aws_sdk_dynamodb::types::{AttributeValue, ConditionCheck, Delete, Put, TransactWriteItem, Update};

use super::{s, sdk_err, Item, Store};
use crate::error::ApiError;

/// DynamoDB's limit of items in one TransactWriteItems call.
pub const MAX_ITEMS: usize = 100;

/// The items of one transaction. Two items may not name the same key (a
/// DynamoDB rule), so builders that may touch one key twice merge first.
pub struct Tx {
    table: String,
    items: Vec<TransactWriteItem>,
}

/// A condition with its placeholder values, e.g. `("rev = :rev", [(":rev", n(3))])`.
pub type Condition<'a> = (&'a str, Vec<(&'a str, AttributeValue)>);

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
        self.put_if(item, Some(("attribute_not_exists(PK)", vec![])))
    }

    /// Writes `item` if `condition` holds for the stored one.
    pub fn put_if(&mut self, item: Item, condition: Option<Condition<'_>>) -> Result<(), ApiError> {
        let mut put = Put::builder().table_name(&self.table).set_item(Some(item));
        if let Some((expr, values)) = condition {
            put = put.condition_expression(expr);
            for (k, v) in values {
                put = put.expression_attribute_values(k, v);
            }
        }
        self.items.push(TransactWriteItem::builder().put(built(put.build())?).build());
        Ok(())
    }

    /// Deletes the item at `pk`/`sk` (if `condition` holds, when given).
    pub fn delete(&mut self, pk: &str, sk: &str, condition: Option<Condition<'_>>) -> Result<(), ApiError> {
        let mut del = Delete::builder().table_name(&self.table).key("PK", s(pk)).key("SK", s(sk));
        if let Some((expr, values)) = condition {
            del = del.condition_expression(expr);
            for (k, v) in values {
                del = del.expression_attribute_values(k, v);
            }
        }
        self.items.push(TransactWriteItem::builder().delete(built(del.build())?).build());
        Ok(())
    }

    /// Fails the transaction unless `condition` holds for the item at `pk`/`sk`.
    pub fn check(&mut self, pk: &str, sk: &str, condition: Condition<'_>) -> Result<(), ApiError> {
        let (expr, values) = condition;
        let mut c = ConditionCheck::builder().table_name(&self.table).key("PK", s(pk)).key("SK", s(sk)).condition_expression(expr);
        for (k, v) in values {
            c = c.expression_attribute_values(k, v);
        }
        self.items.push(TransactWriteItem::builder().condition_check(built(c.build())?).build());
        Ok(())
    }

    /// An update built by the caller (its table name is set here).
    pub fn update(&mut self, update: aws_sdk_dynamodb::types::builders::UpdateBuilder) -> Result<(), ApiError> {
        let up: Update = built(update.table_name(&self.table).build())?;
        self.items.push(TransactWriteItem::builder().update(up).build());
        Ok(())
    }
}

impl Store {
    /// A new, empty transaction on this table.
    pub fn tx(&self) -> Tx {
        Tx { table: self.table.clone(), items: Vec::new() }
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
            Err(e) if super::is_conditional(&e) => Ok(false),
            Err(e) => Err(sdk_err(e)),
        }
    }
}

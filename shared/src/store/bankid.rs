//! BankID orders (`BANKID#<orderRef>`, removed by TTL) and the link of a
//! personal number to one account (`PNR#<number>` with the user's `BANKID`
//! item, written together).

use aws_sdk_dynamodb::types::AttributeValue;

use super::tx::Cond;
use super::{keys, n, s, sdk_err, Item, Store};
use crate::domain::bankid::Order;
use crate::error::ApiError;

/// How linking a number went.
#[derive(Debug, PartialEq, Eq)]
pub enum Linked {
    Done,
    /// The number belongs to another account.
    NumberTaken,
    /// This account already has a number.
    AccountHasOne,
}

impl Store {
    pub async fn save_bankid_order(&self, order: &Order) -> Result<(), ApiError> {
        let mut item: Item = serde_dynamo::to_item(order).map_err(ApiError::internal)?;
        keys::bankid_order::item(&order.order_ref).stamp(&mut item);
        item.insert("entity".into(), s("bankid_order"));
        item.insert(super::table::TTL_ATTRIBUTE.into(), n(order.expires_at));
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
            .condition_expression("attribute_not_exists(PK)")
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(())
    }

    /// The order (consistent: its `finished` decides what a poll may do).
    pub async fn get_bankid_order(&self, order_ref: &str) -> Result<Option<Order>, ApiError> {
        self.get_consistent_as(&keys::bankid_order::item(order_ref)).await
    }

    /// Marks the order finished; `false` when another call finished it first.
    pub async fn finish_bankid_order(&self, order_ref: &str) -> Result<bool, ApiError> {
        let out = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::bankid_order::item(order_ref).item()))
            .update_expression("SET finished = :t")
            .condition_expression("attribute_exists(PK) AND finished = :f")
            .expression_attribute_values(":t", AttributeValue::Bool(true))
            .expression_attribute_values(":f", AttributeValue::Bool(false))
            .send()
            .await;
        super::applied(out)
    }

    /// The account a personal number is linked to.
    pub async fn personal_number_owner(&self, personal_number: &str) -> Result<Option<String>, ApiError> {
        Ok(self
            .get_consistent(&keys::personal_number::item(personal_number))
            .await?
            .and_then(|i| i.get("user_uid").and_then(|v| v.as_s().ok()).cloned()))
    }

    /// The personal number linked to `uid`.
    pub async fn bankid_link_of(&self, uid: &str) -> Result<Option<String>, ApiError> {
        Ok(self.get_consistent(&keys::user::bankid(uid)).await?.and_then(|i| i.get("personal_number").and_then(|v| v.as_s().ok()).cloned()))
    }

    /// Links `personal_number` to `uid` in one transaction: the number's
    /// item and the user's, each only if new.
    pub async fn link_bankid(&self, uid: &str, personal_number: &str, at: i64) -> Result<Linked, ApiError> {
        let mut tx = self.tx();
        tx.put_new(keys::personal_number::item(personal_number).with([("entity", s("personal_number")), ("user_uid", s(uid))]))?;
        tx.put_new(keys::user::bankid(uid).with([
            ("entity", s("bankid_link")),
            ("personal_number", s(personal_number)),
            ("linked_at", n(at)),
        ]))?;
        if self.commit(tx).await? {
            return Ok(Linked::Done);
        }
        match self.personal_number_owner(personal_number).await? {
            Some(owner) if owner != uid => Ok(Linked::NumberTaken),
            _ => Ok(Linked::AccountHasOne),
        }
    }

    /// Removes `uid`'s link (both items, only while they still name each
    /// other); `false` when it had none.
    pub async fn unlink_bankid(&self, uid: &str) -> Result<bool, ApiError> {
        let Some(number) = self.bankid_link_of(uid).await? else { return Ok(false) };
        let mut tx = self.tx();
        tx.delete(&keys::personal_number::item(&number), Some(Cond::new("user_uid = :u").value(":u", s(uid))))?;
        tx.delete(&keys::user::bankid(uid), Some(Cond::present()))?;
        self.commit(tx).await
    }
}

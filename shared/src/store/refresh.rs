//! Refresh tokens and their families.
//!
//! Each sign-in starts a family (`FAMILY#<id>`); every refresh token is stored
//! by its `jti` and may be spent once. Spending checks, in one transaction,
//! that the token is unspent and its family not revoked. Presenting a spent
//! token again means it was stolen or replayed: the whole family is revoked.
//! Logout revokes the family too.

use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{AttributeValue, ConditionCheck, TransactWriteItem, Update};

use super::{keys, n, s, sdk_err, Store};
use crate::auth::{jwt::REFRESH_TTL_SECS, Claims};
use crate::error::ApiError;

#[derive(Debug, PartialEq, Eq)]
pub enum Spend {
    Spent,
    /// Already spent before: the family has now been revoked.
    Reused,
    /// Unknown token or revoked family.
    Refused,
}

impl Store {
    /// Stores a refresh token, creating its family on first use.
    pub async fn save_refresh_token(&self, claims: &Claims) -> Result<(), ApiError> {
        let fam = claims.fam.as_deref().ok_or_else(|| ApiError::internal("refresh token without family"))?;
        // Creating the family is idempotent and never un-revokes it.
        self.client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::refresh_family::item(fam).item()))
            .update_expression("SET user_uid = :u, revoked = if_not_exists(revoked, :f), #ttl = :ttl")
            .expression_attribute_names("#ttl", super::table::TTL_ATTRIBUTE)
            .expression_attribute_values(":u", s(&claims.sub))
            .expression_attribute_values(":f", AttributeValue::Bool(false))
            .expression_attribute_values(":ttl", n(claims.iat + REFRESH_TTL_SECS * 2))
            .send()
            .await
            .map_err(sdk_err)?;
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(keys::refresh_token::item(&claims.jti).item()))
            .item("entity", s("refresh_token"))
            .item("user_uid", s(&claims.sub))
            .item("family_id", s(fam))
            .item("used", AttributeValue::Bool(false))
            .item(super::table::TTL_ATTRIBUTE, n(claims.exp))
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(())
    }

    /// Spends a refresh token. Two concurrent uses yield one winner.
    pub async fn spend_refresh_token(&self, claims: &Claims) -> Result<Spend, ApiError> {
        let Some(fam) = claims.fam.as_deref() else { return Ok(Spend::Refused) };
        let spend = Update::builder()
            .table_name(&self.table)
            .set_key(Some(keys::refresh_token::item(&claims.jti).item()))
            .update_expression("SET used = :t")
            .condition_expression("attribute_exists(PK) AND used = :f AND user_uid = :u AND family_id = :fam")
            .expression_attribute_values(":t", AttributeValue::Bool(true))
            .expression_attribute_values(":f", AttributeValue::Bool(false))
            .expression_attribute_values(":u", s(&claims.sub))
            .expression_attribute_values(":fam", s(fam))
            .build()
            .map_err(ApiError::internal)?;
        let live_family = ConditionCheck::builder()
            .table_name(&self.table)
            .set_key(Some(keys::refresh_family::item(fam).item()))
            .condition_expression("revoked = :f")
            .expression_attribute_values(":f", AttributeValue::Bool(false))
            .build()
            .map_err(ApiError::internal)?;
        let res = self
            .client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().update(spend).build())
            .transact_items(TransactWriteItem::builder().condition_check(live_family).build())
            .send()
            .await;
        match res {
            Ok(_) => Ok(Spend::Spent),
            Err(e) => {
                let Some(TransactWriteItemsError::TransactionCanceledException(tc)) = e.as_service_error() else {
                    return Err(sdk_err(e));
                };
                let token_failed = tc.cancellation_reasons().first().and_then(|r| r.code()) == Some("ConditionalCheckFailed");
                if token_failed && self.refresh_token_was_spent(claims).await? {
                    self.revoke_family(fam).await?;
                    return Ok(Spend::Reused);
                }
                Ok(Spend::Refused)
            }
        }
    }

    async fn refresh_token_was_spent(&self, claims: &Claims) -> Result<bool, ApiError> {
        Ok(self
            .get(&keys::refresh_token::item(&claims.jti))
            .await?
            .is_some_and(|i| i.get("used").and_then(|v| v.as_bool().ok()).copied() == Some(true)))
    }

    /// Ends every session of one sign-in (logout, or a replayed token).
    pub async fn revoke_family(&self, fam: &str) -> Result<(), ApiError> {
        let res = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::refresh_family::item(fam).item()))
            .update_expression("SET revoked = :t")
            .condition_expression("attribute_exists(PK)")
            .expression_attribute_values(":t", AttributeValue::Bool(true))
            .send()
            .await;
        super::applied(res).map(|_| ())
    }
}

//! Pending two-factor codes (`TWOFA#<challenge id>`), removed by TTL.

use aws_sdk_dynamodb::types::AttributeValue;

use super::{keys, n, s, sdk_err, Store};
use crate::domain::two_factor::{Challenge, MAX_ATTEMPTS};
use crate::error::ApiError;

impl Store {
    pub async fn save_challenge(&self, ch: &Challenge) -> Result<(), ApiError> {
        let mut item: super::Item = serde_dynamo::to_item(ch).map_err(ApiError::internal)?;
        keys::two_factor_challenge::item(&ch.id).stamp(&mut item);
        item.insert("entity".into(), s("two_factor_challenge"));
        item.insert(super::table::TTL_ATTRIBUTE.into(), n(ch.expires_at + 3600));
        self.client.put_item().table_name(&self.table).set_item(Some(item)).send().await.map_err(sdk_err)?;
        Ok(())
    }

    pub async fn get_challenge(&self, id: &str) -> Result<Option<Challenge>, ApiError> {
        self.get_as(&keys::two_factor_challenge::item(id)).await
    }

    /// Counts a wrong try; the condition keeps the count from passing the
    /// limit even under concurrent guesses. `false` when the limit was reached.
    pub async fn count_wrong_code(&self, id: &str) -> Result<bool, ApiError> {
        self.conditional(id, "SET attempts = attempts + :one", "attempts < :max").await
    }

    /// Puts a new code in place of one whose tries are used up (tries from
    /// zero, a new expiry); `false` when the code was not used up (another
    /// caller replaced it first) or is spent.
    pub async fn replace_code(&self, id: &str, code_hash: &str, expires_at: i64) -> Result<bool, ApiError> {
        let out = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::two_factor_challenge::item(id).item()))
            .update_expression("SET code_hash = :h, attempts = :zero, expires_at = :exp, #ttl = :ttl")
            .condition_expression("attribute_exists(PK) AND attempts >= :max AND used = :f")
            .expression_attribute_names("#ttl", super::table::TTL_ATTRIBUTE)
            .expression_attribute_values(":h", s(code_hash))
            .expression_attribute_values(":zero", n(0))
            .expression_attribute_values(":exp", n(expires_at))
            .expression_attribute_values(":ttl", n(expires_at + 3600))
            .expression_attribute_values(":max", n(MAX_ATTEMPTS))
            .expression_attribute_values(":f", AttributeValue::Bool(false))
            .send()
            .await;
        super::applied(out)
    }

    /// Spends the code; only one concurrent caller can win.
    pub async fn spend_challenge(&self, id: &str) -> Result<bool, ApiError> {
        self.conditional(id, "SET used = :t", "used = :f AND attempts < :max").await
    }

    async fn conditional(&self, id: &str, update: &str, condition: &str) -> Result<bool, ApiError> {
        let mut req = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::two_factor_challenge::item(id).item()))
            .update_expression(update)
            .condition_expression(format!("attribute_exists(PK) AND {condition}"))
            .expression_attribute_values(":max", n(MAX_ATTEMPTS));
        if update.contains(":one") {
            req = req.expression_attribute_values(":one", n(1));
        }
        if update.contains(":t") {
            req = req
                .expression_attribute_values(":t", AttributeValue::Bool(true))
                .expression_attribute_values(":f", AttributeValue::Bool(false));
        }
        super::applied(req.send().await)
    }
}

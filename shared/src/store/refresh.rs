//! Refresh tokens: each is stored by its `jti` and may be used once.

use super::{n, s, sdk_err, Store};
use crate::auth::Claims;
use crate::error::ApiError;

fn pk(jti: &str) -> String {
    format!("REFRESH#{jti}")
}
const SK: &str = "REFRESH";

impl Store {
    pub async fn save_refresh_token(&self, claims: &Claims) -> Result<(), ApiError> {
        self.client
            .put_item()
            .table_name(&self.table)
            .item("PK", s(pk(&claims.jti)))
            .item("SK", s(SK))
            .item("entity", s("refresh_token"))
            .item("user_uid", s(&claims.sub))
            .item("used", aws_sdk_dynamodb::types::AttributeValue::Bool(false))
            .item(super::table::TTL_ATTRIBUTE, n(claims.exp))
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(())
    }

    /// Marks the token used. `false` when it is unknown or was used before:
    /// the conditional write makes two concurrent uses yield one winner.
    pub async fn consume_refresh_token(&self, claims: &Claims) -> Result<bool, ApiError> {
        let res = self
            .client
            .update_item()
            .table_name(&self.table)
            .key("PK", s(pk(&claims.jti)))
            .key("SK", s(SK))
            .update_expression("SET used = :t")
            .condition_expression("attribute_exists(PK) AND used = :f AND user_uid = :u")
            .expression_attribute_values(":t", aws_sdk_dynamodb::types::AttributeValue::Bool(true))
            .expression_attribute_values(":f", aws_sdk_dynamodb::types::AttributeValue::Bool(false))
            .expression_attribute_values(":u", s(&claims.sub))
            .send()
            .await;
        match res {
            Ok(_) => Ok(true),
            Err(e) if e.as_service_error().is_some_and(|se| se.is_conditional_check_failed_exception()) => Ok(false),
            Err(e) => Err(sdk_err(e)),
        }
    }
}

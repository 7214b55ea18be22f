//! One-time password-recovery links (`RESET#<sha256 of the token>`).

use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue};

use super::{keys, n, s, sdk_err, Store};
use crate::error::ApiError;

impl Store {
    pub async fn save_recovery_link(&self, digest: &str, user_uid: &str, expires_at: i64) -> Result<(), ApiError> {
        self.client
            .put_item()
            .table_name(&self.table)
            .item("PK", s(keys::recovery_link::pk(digest)))
            .item("SK", s(keys::recovery_link::SK))
            .item("entity", s("recovery_link"))
            .item("user_uid", s(user_uid))
            .item("expires_at", n(expires_at))
            .item("used", AttributeValue::Bool(false))
            .item(super::table::TTL_ATTRIBUTE, n(expires_at))
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(())
    }

    /// Spends a link that exists, is unused and unexpired; returns its user.
    /// Single use even under concurrent clicks.
    pub async fn spend_recovery_link(&self, digest: &str, now: i64) -> Result<Option<String>, ApiError> {
        let res = self
            .client
            .update_item()
            .table_name(&self.table)
            .key("PK", s(keys::recovery_link::pk(digest)))
            .key("SK", s(keys::recovery_link::SK))
            .update_expression("SET used = :t")
            .condition_expression("attribute_exists(PK) AND used = :f AND expires_at > :now")
            .expression_attribute_values(":t", AttributeValue::Bool(true))
            .expression_attribute_values(":f", AttributeValue::Bool(false))
            .expression_attribute_values(":now", n(now))
            .return_values(ReturnValue::AllNew)
            .send()
            .await;
        match res {
            Ok(out) => Ok(out.attributes.and_then(|a| a.get("user_uid").and_then(|v| v.as_s().ok()).cloned())),
            Err(e) if e.as_service_error().is_some_and(|se| se.is_conditional_check_failed_exception()) => Ok(None),
            Err(e) => Err(sdk_err(e)),
        }
    }
}

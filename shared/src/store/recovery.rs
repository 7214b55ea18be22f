//! One-time password-recovery links (`RESET#<sha256 of the token>`).

use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue};

use super::tx::Tx;
use super::{keys, n, s, sdk_err, Store};
use crate::error::ApiError;

impl Store {
    /// Adds a new single-use link to `tx` (a recovery link, or the
    /// invitation of a new account, written with the account). `version` is
    /// the user's token version now: a link outlives no password change or
    /// reset (see [`Store::spend_recovery_link`]).
    pub fn add_recovery_link(&self, tx: &mut Tx, digest: &str, user_uid: &str, version: u32, expires_at: i64) -> Result<(), ApiError> {
        tx.put(keys::recovery_link::item(digest).with([
            ("entity".to_string(), s("recovery_link")),
            ("user_uid".to_string(), s(user_uid)),
            ("token_version".to_string(), n(version)),
            ("expires_at".to_string(), n(expires_at)),
            ("used".to_string(), AttributeValue::Bool(false)),
            (super::table::TTL_ATTRIBUTE.to_string(), n(expires_at)),
        ]))
    }

    /// Stores a new single-use link on its own.
    pub async fn save_recovery_link(&self, digest: &str, user_uid: &str, version: u32, expires_at: i64) -> Result<(), ApiError> {
        let mut tx = self.tx();
        self.add_recovery_link(&mut tx, digest, user_uid, version, expires_at)?;
        self.commit(tx).await?;
        Ok(())
    }

    /// The user of a link that exists, is unused and unexpired, without
    /// spending it (to check a new password against its owner first).
    pub async fn recovery_link_owner(&self, digest: &str, now: i64) -> Result<Option<String>, ApiError> {
        let Some(item) = self.get(&keys::recovery_link::item(digest)).await? else { return Ok(None) };
        let usable = item.get("used").and_then(|v| v.as_bool().ok()) == Some(&false)
            && item.get("expires_at").and_then(|v| v.as_n().ok()).and_then(|v| v.parse::<i64>().ok()).is_some_and(|e| e > now);
        Ok(usable.then(|| item.get("user_uid").and_then(|v| v.as_s().ok()).cloned()).flatten())
    }

    /// Spends a link that exists, is unused and unexpired; returns its user
    /// and the token version it was issued under (`None` for links stored
    /// before versions were). Single use even under concurrent clicks.
    pub async fn spend_recovery_link(&self, digest: &str, now: i64) -> Result<Option<(String, Option<u32>)>, ApiError> {
        let res = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::recovery_link::item(digest).item()))
            .update_expression("SET used = :t")
            .condition_expression("attribute_exists(PK) AND used = :f AND expires_at > :now")
            .expression_attribute_values(":t", AttributeValue::Bool(true))
            .expression_attribute_values(":f", AttributeValue::Bool(false))
            .expression_attribute_values(":now", n(now))
            .return_values(ReturnValue::AllNew)
            .send()
            .await;
        match res {
            Ok(out) => Ok(out.attributes.and_then(|a| {
                let uid = a.get("user_uid").and_then(|v| v.as_s().ok()).cloned()?;
                let version = a.get("token_version").and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok());
                Some((uid, version))
            })),
            Err(e) if e.as_service_error().is_some_and(|se| se.is_conditional_check_failed_exception()) => Ok(None),
            Err(e) => Err(sdk_err(e)),
        }
    }
}

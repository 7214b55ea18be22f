//! The authenticator-app factor: the confirmed authenticator (`USER#<uid>` /
//! `TOTP`) and a started enrolment (`USER#<uid>` / `TOTP#SETUP`, TTL). Secrets
//! live only here, never in tokens or the session user.

use aws_sdk_dynamodb::types::{AttributeValue, Delete, Put, TransactWriteItem};

use super::{keys, n, s, sdk_err, Store};
use crate::domain::totp::{TotpAuthenticator, TotpSetup, SETUP_MAX_ATTEMPTS};
use crate::error::ApiError;

impl Store {
    /// Starts (or restarts) an enrolment; a newer one replaces an older one.
    pub async fn save_totp_setup(&self, setup: &TotpSetup) -> Result<(), ApiError> {
        let mut item: super::Item = serde_dynamo::to_item(setup).map_err(ApiError::internal)?;
        keys::user::totp_setup(&setup.user_uid).stamp(&mut item);
        item.insert("entity".into(), s("totp_setup"));
        item.insert(super::table::TTL_ATTRIBUTE.into(), n(setup.expires_at + 3600));
        self.client.put_item().table_name(&self.table).set_item(Some(item)).send().await.map_err(sdk_err)?;
        Ok(())
    }

    pub async fn get_totp_setup(&self, uid: &str) -> Result<Option<TotpSetup>, ApiError> {
        self.get_as(&keys::user::totp_setup(uid)).await
    }

    /// Counts a wrong confirmation code; `false` once the limit is reached.
    pub async fn count_wrong_setup_code(&self, uid: &str) -> Result<bool, ApiError> {
        let res = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::user::totp_setup(uid).item()))
            .update_expression("SET attempts = attempts + :one")
            .condition_expression("attribute_exists(PK) AND attempts < :max")
            .expression_attribute_values(":one", n(1))
            .expression_attribute_values(":max", n(SETUP_MAX_ATTEMPTS))
            .send()
            .await;
        super::applied(res)
    }

    /// Turns a confirmed enrolment into the authenticator in one transaction:
    /// the enrolment must still exist, so two concurrent confirmations cannot
    /// both succeed. `false` when it was already used or gone.
    pub async fn activate_totp(&self, auth: &TotpAuthenticator) -> Result<bool, ApiError> {
        let mut item: super::Item = serde_dynamo::to_item(auth).map_err(ApiError::internal)?;
        keys::user::totp(&auth.user_uid).stamp(&mut item);
        item.insert("entity".into(), s("totp"));
        let put = Put::builder().table_name(&self.table).set_item(Some(item)).build().map_err(ApiError::internal)?;
        let delete = Delete::builder()
            .table_name(&self.table)
            .set_key(Some(keys::user::totp_setup(&auth.user_uid).item()))
            .condition_expression("attribute_exists(PK)")
            .build()
            .map_err(ApiError::internal)?;
        let res = self
            .client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().put(put).build())
            .transact_items(TransactWriteItem::builder().delete(delete).build())
            .send()
            .await;
        super::applied(res)
    }

    /// The confirmed authenticator, read consistently: spending a recovery
    /// code is conditional on the list position read here.
    pub async fn get_totp(&self, uid: &str) -> Result<Option<TotpAuthenticator>, ApiError> {
        self.get_consistent_as(&keys::user::totp(uid)).await
    }

    /// Removes the authenticator (and any started enrolment).
    pub async fn delete_totp(&self, uid: &str) -> Result<(), ApiError> {
        for key in [keys::user::totp(uid), keys::user::totp_setup(uid)] {
            self.client.delete_item().table_name(&self.table).set_key(Some(key.item())).send().await.map_err(sdk_err)?;
        }
        Ok(())
    }

    /// Records `step` as used; only a later step than the stored one wins, so
    /// a code is accepted once even under concurrent sign-ins.
    pub async fn use_totp_step(&self, uid: &str, step: u64) -> Result<bool, ApiError> {
        let res = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::user::totp(uid).item()))
            .update_expression("SET last_step = :step")
            .condition_expression("attribute_exists(PK) AND (attribute_not_exists(last_step) OR last_step < :step)")
            .expression_attribute_values(":step", n(step))
            .send()
            .await;
        super::applied(res)
    }

    /// Spends one recovery code by hash: removes list element `index` only if
    /// it still holds that hash, so each code works once.
    pub async fn use_recovery_code(&self, uid: &str, index: usize, hash: &str) -> Result<bool, ApiError> {
        let res = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::user::totp(uid).item()))
            .update_expression(format!("REMOVE recovery_hashes[{index}]"))
            .condition_expression(format!("recovery_hashes[{index}] = :h"))
            .expression_attribute_values(":h", AttributeValue::S(hash.to_string()))
            .send()
            .await;
        super::applied(res)
    }
}

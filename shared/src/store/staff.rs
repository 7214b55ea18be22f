//! Lawyers' and sales persons' profiles (`USER#<uid>` / `STAFF`).
//!
//! The item repeats the names and e-mail so the admin lists read one index
//! partition (`GSI1PK = STAFF#lawyer#internal | STAFF#lawyer#external |
//! STAFF#sales_person`, newest first) without fetching each user.

use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{keys, s, sdk_err, users, Item, Store};
use crate::domain::staff::LawyerDetails;
use crate::domain::{Role, User};
use crate::error::ApiError;

/// What the admin screens show of a lawyer or a sales person.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StaffProfile {
    pub uid: String,
    pub role: Role,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    /// Mirrors the user's `active` (kept in step by [`Store::set_staff_active`]).
    pub active: bool,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: DateTime<Utc>,
    pub lawyer: Option<LawyerDetails>,
}

pub fn staff_item(p: &StaffProfile) -> Result<Item, ApiError> {
    let mut item: Item = serde_dynamo::to_item(p).map_err(ApiError::internal)?;
    item.insert("PK".into(), s(keys::user::pk(&p.uid)));
    item.insert("SK".into(), s(keys::staff::SK));
    item.insert("entity".into(), s("staff_profile"));
    item.insert("GSI1PK".into(), s(keys::staff::list_gsi1pk(p.role, p.lawyer.as_ref().map(|l| l.user_sub_type))));
    item.insert("GSI1SK".into(), s(format!("{}#{}", p.created_at.to_rfc3339(), p.uid)));
    Ok(item)
}

/// One page of a list and where the next starts.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StaffPage {
    pub results: Vec<StaffProfile>,
    /// Pass as `cursor` for the next page; absent on the last.
    pub next: Option<String>,
}

impl Store {
    pub async fn get_staff(&self, uid: &str) -> Result<Option<StaffProfile>, ApiError> {
        self.get(&keys::user::pk(uid), keys::staff::SK).await?.map(|i| serde_dynamo::from_item(i).map_err(ApiError::internal)).transpose()
    }

    /// Writes the user and its profile together (names live on both).
    pub async fn put_staff(&self, user: &User, profile: &StaffProfile) -> Result<(), ApiError> {
        let put = |item: Item| {
            Put::builder()
                .table_name(&self.table)
                .set_item(Some(item))
                .condition_expression("attribute_exists(PK)")
                .build()
                .map(|p| TransactWriteItem::builder().put(p).build())
                .map_err(ApiError::internal)
        };
        self.client
            .transact_write_items()
            .transact_items(put(users::to_item(user)?)?)
            .transact_items(put(staff_item(profile)?)?)
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(())
    }

    /// Keeps the list's `active` in step after a (de)activation.
    pub async fn set_staff_active(&self, uid: &str, active: bool) -> Result<(), ApiError> {
        let res = self
            .client
            .update_item()
            .table_name(&self.table)
            .key("PK", s(keys::user::pk(uid)))
            .key("SK", s(keys::staff::SK))
            .update_expression("SET active = :a")
            .condition_expression("attribute_exists(PK)")
            .expression_attribute_values(":a", AttributeValue::Bool(active))
            .send()
            .await;
        match res {
            Ok(_) => Ok(()),
            // Not a lawyer or sales person: nothing to keep in step.
            Err(e) if e.as_service_error().is_some_and(|se| se.is_conditional_check_failed_exception()) => Ok(()),
            Err(e) => Err(sdk_err(e)),
        }
    }

    /// A page of one list, newest first.
    pub async fn list_staff(&self, partition: &str, limit: i32, cursor: Option<&str>) -> Result<StaffPage, ApiError> {
        let mut q = self
            .client
            .query()
            .table_name(&self.table)
            .index_name(super::table::GSI1)
            .key_condition_expression("GSI1PK = :p")
            .expression_attribute_values(":p", s(partition))
            .scan_index_forward(false)
            .limit(limit);
        if let Some(c) = cursor {
            // The cursor is the last item's GSI1SK; its uid is its tail.
            let uid = c.rsplit('#').next().unwrap_or_default();
            q = q
                .exclusive_start_key("GSI1PK", s(partition))
                .exclusive_start_key("GSI1SK", s(c))
                .exclusive_start_key("PK", s(keys::user::pk(uid)))
                .exclusive_start_key("SK", s(keys::staff::SK));
        }
        let out = q.send().await.map_err(sdk_err)?;
        let results: Vec<StaffProfile> =
            out.items().iter().map(|i| serde_dynamo::from_item(i.clone()).map_err(ApiError::internal)).collect::<Result<_, _>>()?;
        let next = out.last_evaluated_key().and_then(|k| k.get("GSI1SK")).and_then(|v| v.as_s().ok()).cloned();
        Ok(StaffPage { results, next })
    }
}

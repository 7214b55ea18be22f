//! The one table: key design and access patterns.
//!
//! Every item has `PK` and `SK`; two overloaded, sparse GSIs serve the lists.
//! No request path uses Scan.
//!
//! | Entity | PK | SK | GSI1PK / GSI1SK | GSI2PK / GSI2SK | Access patterns |
//! |---|---|---|---|---|---|
//! | User (all roles) | `USER#<uid>` | `USER` | `ROLE#<role>` / `<created_at>#<uid>` | | user by uid (GetItem); users of a role, newest first (Query GSI1) |
//! | E-mail uniqueness | `EMAIL#<lower-case e-mail>` | `EMAIL` | | | login by e-mail (GetItem, then the user); written in the same transaction as the user, so an address exists once |
//! | Counter | `COUNTER#<name>` | `COUNTER` | | | next human-readable id (UpdateItem ADD) |
//! | Refresh token | `REFRESH#<jti>` | `REFRESH` | | | single use: conditional update `used = false → true` in one transaction with a check that its family is live; TTL |
//! | Refresh-token family | `FAMILY#<id>` | `FAMILY` | | | one per sign-in; `revoked` ends it (logout, replayed token); TTL |
//! | Two-factor code | `TWOFA#<challenge id>` | `TWOFA` | | | HMAC of the code, expiry, attempts (conditional `attempts < 5`), single use; TTL |
//! | Recovery link | `RESET#<sha256 of token>` | `RESET` | | | single use, conditional on unused and unexpired; TTL |
//! | Rate-limit counter | `RATE#<scope>#<key>` | `<window number>` | | | UpdateItem ADD per attempt, per account and per client address; TTL |
//! | Purchased service (subscription row) | `CUSTOMER#<customer uid>` | `PURCHASE#<id, 12 digits>` | `PSVC#<id>` / `PURCHASE` | `DUE#SUBSCRIPTION` / `<expire_on>#<id>` (only while not expired) | a customer's subscriptions (Query PK, `begins_with(SK, PURCHASE#)`); a row by id (Query GSI1); rows due to expire or renew (Query GSI2 `GSI2SK <= now`); every write conditional on `rev` |
//! | Purchase guard | `CUSTOMER#<customer uid>` | `PURCHASE_GUARD#<service id>` | | | `ver` bumped conditionally in the purchase transaction, so two concurrent purchases of a service cannot both pass the active/advance rule |
//! | Usage ledger entry | `PSVC#<purchase id>` | `USAGE#<YYYY-MM-DD>#<entry id>` | | | case hours / uses booked against a row (written with the row's consumed amount in one transaction); a row's usage in a date range (Query `SK BETWEEN`) for the CSV report |
//! | Bisnode account | `CUSTOMER#<customer uid>` | `BISNODE` | | | credit-information account status of a customer (GetItem) |
//! | Package | `CATALOGUE#PACKAGE` | `PACKAGE#<id, 12 digits>` | | | package list (Query PK); package by id (GetItem) |
//! | Service plan | `CATALOGUE#SERVICEPLAN` | `PLAN#<id, 12 digits>` | | | service plan list (Query PK); plan by id (GetItem) |
//! | Knowledge sector / case type / department | `CATALOGUE#KNOWLEDGE_SECTOR` / `CATALOGUE#CASE_TYPE` / `CATALOGUE#DEPARTMENT` | `ENTRY#<id, 12 digits>` | | | list (Query PK); by id (GetItem); rename, delete (conditional on existence) |
//! | Customer's department | `CUSTOMER#<customer uid>` | `DEPARTMENT` | `DEPARTMENT#<department id>` / `<customer uid>` | | a customer's department (GetItem); customers of a department (Query GSI1) |
//!
//! The TTL attribute is `ttl` (epoch seconds). The CloudFormation definition in
//! `template.yaml` mirrors [`ensure_table`]'s.

use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, Projection, ProjectionType,
    ScalarAttributeType, TimeToLiveSpecification,
};

use super::{sdk_err, Store};
use crate::error::ApiError;

pub const GSI1: &str = "GSI1";
pub const GSI2: &str = "GSI2";
pub const TTL_ATTRIBUTE: &str = "ttl";

fn key(name: &str, kt: KeyType) -> KeySchemaElement {
    KeySchemaElement::builder().attribute_name(name).key_type(kt).build().expect("key schema")
}

fn attr(name: &str) -> AttributeDefinition {
    AttributeDefinition::builder().attribute_name(name).attribute_type(ScalarAttributeType::S).build().expect("attr")
}

fn gsi(name: &str) -> GlobalSecondaryIndex {
    GlobalSecondaryIndex::builder()
        .index_name(name)
        .key_schema(key(&format!("{name}PK"), KeyType::Hash))
        .key_schema(key(&format!("{name}SK"), KeyType::Range))
        .projection(Projection::builder().projection_type(ProjectionType::All).build())
        .build()
        .expect("gsi")
}

impl Store {
    /// Creates the table if it does not exist (local stand-in and tests; on AWS
    /// CloudFormation owns it). Idempotent.
    pub async fn ensure_table(&self) -> Result<bool, ApiError> {
        if self.client.describe_table().table_name(&self.table).send().await.is_ok() {
            return Ok(false);
        }
        let res = self
            .client
            .create_table()
            .table_name(&self.table)
            .billing_mode(BillingMode::PayPerRequest)
            .key_schema(key("PK", KeyType::Hash))
            .key_schema(key("SK", KeyType::Range))
            .set_attribute_definitions(Some(
                ["PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK"].into_iter().map(attr).collect(),
            ))
            .global_secondary_indexes(gsi(GSI1))
            .global_secondary_indexes(gsi(GSI2))
            .send()
            .await;
        match res {
            Ok(_) => {}
            // Someone else created it between our describe and create.
            Err(e) if e.as_service_error().is_some_and(|s| s.is_resource_in_use_exception()) => return Ok(false),
            Err(e) => return Err(sdk_err(e)),
        }
        self.client
            .update_time_to_live()
            .table_name(&self.table)
            .time_to_live_specification(
                TimeToLiveSpecification::builder().enabled(true).attribute_name(TTL_ATTRIBUTE).build().expect("ttl"),
            )
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(true)
    }

    /// Next value of a named counter (1, 2, 3, ...), atomically.
    pub async fn next_id(&self, counter: &str) -> Result<u64, ApiError> {
        let out = self
            .client
            .update_item()
            .table_name(&self.table)
            .key("PK", super::s(format!("COUNTER#{counter}")))
            .key("SK", super::s("COUNTER"))
            .update_expression("ADD #v :one")
            .expression_attribute_names("#v", "value")
            .expression_attribute_values(":one", super::n(1))
            .return_values(aws_sdk_dynamodb::types::ReturnValue::UpdatedNew)
            .send()
            .await
            .map_err(sdk_err)?;
        out.attributes
            .and_then(|a| a.get("value").and_then(|v| v.as_n().ok()).and_then(|n| n.parse().ok()))
            .ok_or_else(|| ApiError::internal("counter without value"))
    }
}

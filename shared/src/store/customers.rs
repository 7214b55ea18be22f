//! Customer profiles (`CUSTOMER#<uid> / PROFILE`), registration-number
//! uniqueness (`REGNO#<number>`), activation links (`CUSTOMER#<uid> / ACTIVATION`)
//! and business sectors (`BUSINESS_SECTOR / SECTOR#<id>`).

use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem};
use std::collections::HashMap;

use super::{keys, n, s, sdk_err, Item, Store};
use crate::domain::customer::{BusinessSector, CustomerProfile, CustomerState, SEEDED_SECTORS};
use crate::domain::User;
use crate::error::{ApiError, FieldErrors, Msg};

/// One page of a customer list: newest first; `next` is the cursor of the
/// following page (the last row's `GSI1SK`), `None` at the end.
pub struct CustomerPage {
    pub results: Vec<CustomerProfile>,
    pub next: Option<String>,
}

pub fn profile_item(p: &CustomerProfile) -> Result<Item, ApiError> {
    let mut item: Item = serde_dynamo::to_item(p).map_err(ApiError::internal)?;
    item.insert("PK".into(), s(keys::customer::pk(&p.uid)));
    item.insert("SK".into(), s(keys::customer::PROFILE_SK));
    item.insert("entity".into(), s("customer_profile"));
    item.insert("GSI1PK".into(), s(keys::customer::state_gsi1pk(p.state)));
    item.insert("GSI1SK".into(), s(format!("{}#{}", p.created_at.to_rfc3339(), p.uid)));
    // Every customer whatever its state (sales persons' "all" list).
    item.insert("GSI2PK".into(), s(keys::customer::ALL_GSI2PK));
    item.insert("GSI2SK".into(), s(format!("{}#{}", p.created_at.to_rfc3339(), p.uid)));
    item.insert("search".into(), s(p.search_text()));
    // Sparse attribute: the bubble counts pending customers still waiting for approval.
    if p.state == CustomerState::Pending && p.approved_at.is_none() {
        item.insert("awaiting_approval".into(), AttributeValue::Bool(true));
    }
    Ok(item)
}

fn from_item(item: Item) -> Result<CustomerProfile, ApiError> {
    serde_dynamo::from_item(item).map_err(ApiError::internal)
}

/// The put that creates a profile (fails if one exists), for the sign-up transaction.
pub fn new_profile_put(table: &str, p: &CustomerProfile) -> Result<Put, ApiError> {
    Put::builder()
        .table_name(table)
        .set_item(Some(profile_item(p)?))
        .condition_expression("attribute_not_exists(PK)")
        .build()
        .map_err(ApiError::internal)
}

/// The put that claims a company registration number, for the same transaction.
pub fn regno_put(table: &str, number: &str, customer_uid: &str) -> Result<Put, ApiError> {
    Put::builder()
        .table_name(table)
        .item("PK", s(keys::registration_number::pk(number)))
        .item("SK", s(keys::registration_number::SK))
        .item("entity", s("registration_number"))
        .item("customer_uid", s(customer_uid))
        .condition_expression("attribute_not_exists(PK)")
        .build()
        .map_err(ApiError::internal)
}

impl Store {
    pub async fn get_customer_profile(&self, uid: &str) -> Result<Option<CustomerProfile>, ApiError> {
        self.get(&keys::customer::pk(uid), keys::customer::PROFILE_SK).await?.map(from_item).transpose()
    }

    /// Replaces an existing profile (its state index follows `state`).
    pub async fn put_customer_profile(&self, p: &CustomerProfile) -> Result<(), ApiError> {
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(profile_item(p)?))
            .condition_expression("attribute_exists(PK)")
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(())
    }

    /// Replaces a user and (when given) its customer profile in one
    /// transaction, so the account and its state never disagree.
    pub async fn put_user_and_profile(&self, user: &User, profile: Option<&CustomerProfile>) -> Result<(), ApiError> {
        let user_put = Put::builder()
            .table_name(&self.table)
            .set_item(Some(super::users::to_item(user)?))
            .condition_expression("attribute_exists(PK)")
            .build()
            .map_err(ApiError::internal)?;
        let mut tx = self.client.transact_write_items().transact_items(TransactWriteItem::builder().put(user_put).build());
        if let Some(p) = profile {
            let put = Put::builder()
                .table_name(&self.table)
                .set_item(Some(profile_item(p)?))
                .condition_expression("attribute_exists(PK)")
                .build()
                .map_err(ApiError::internal)?;
            tx = tx.transact_items(TransactWriteItem::builder().put(put).build());
        }
        tx.send().await.map_err(sdk_err)?;
        Ok(())
    }

    /// Number of items under one GSI1 partition (entity counts of `bubbles/`).
    pub async fn count_gsi1(&self, gsi1pk: &str) -> Result<u64, ApiError> {
        let mut total = 0u64;
        let mut start = None;
        loop {
            let out = self
                .client
                .query()
                .table_name(&self.table)
                .index_name(super::table::GSI1)
                .key_condition_expression("GSI1PK = :pk")
                .expression_attribute_values(":pk", s(gsi1pk))
                .select(aws_sdk_dynamodb::types::Select::Count)
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(sdk_err)?;
            total += out.count.max(0) as u64;
            match out.last_evaluated_key {
                Some(k) if !k.is_empty() => start = Some(k),
                _ => return Ok(total),
            }
        }
    }

    /// Writes a profile whether or not it exists (seed data).
    pub async fn upsert_customer_profile(&self, p: &CustomerProfile) -> Result<(), ApiError> {
        self.client.put_item().table_name(&self.table).set_item(Some(profile_item(p)?)).send().await.map_err(sdk_err)?;
        Ok(())
    }

    /// Claims a registration number outside a sign-up (seed data); false when taken by someone else.
    pub async fn claim_registration_number(&self, number: &str, customer_uid: &str) -> Result<bool, ApiError> {
        let res = self
            .client
            .put_item()
            .table_name(&self.table)
            .item("PK", s(keys::registration_number::pk(number)))
            .item("SK", s(keys::registration_number::SK))
            .item("entity", s("registration_number"))
            .item("customer_uid", s(customer_uid))
            .condition_expression("attribute_not_exists(PK) OR customer_uid = :u")
            .expression_attribute_values(":u", s(customer_uid))
            .send()
            .await;
        match res {
            Ok(_) => Ok(true),
            Err(e) if e.as_service_error().is_some_and(|se| se.is_conditional_check_failed_exception()) => Ok(false),
            Err(e) => Err(sdk_err(e)),
        }
    }

    /// The customer uid holding a registration number.
    pub async fn registration_number_owner(&self, number: &str) -> Result<Option<String>, ApiError> {
        Ok(self
            .get(&keys::registration_number::pk(number), keys::registration_number::SK)
            .await?
            .and_then(|i| i.get("customer_uid").and_then(|v| v.as_s().ok()).cloned()))
    }

    pub async fn registration_number_taken(&self, number: &str) -> Result<bool, ApiError> {
        Ok(self.get(&keys::registration_number::pk(number), keys::registration_number::SK).await?.is_some())
    }

    /// Customers in one state, newest first, `limit` per page, optionally only
    /// those whose name, e-mail or company contains `search` (case-insensitive).
    /// Query on GSI1 `CUSTSTATE#<state>`; with a search the filter may need
    /// several reads, and the cursor is the last returned row's key.
    pub async fn list_customers(
        &self,
        state: CustomerState,
        cursor: Option<&str>,
        search: Option<&str>,
        limit: usize,
    ) -> Result<CustomerPage, ApiError> {
        self.list_customers_in(ListIndex::State(state), cursor, search, limit).await
    }

    /// Every customer whatever its state, newest first (Query GSI2 `CUSTOMERS`).
    pub async fn list_all_customers(&self, cursor: Option<&str>, search: Option<&str>, limit: usize) -> Result<CustomerPage, ApiError> {
        self.list_customers_in(ListIndex::All, cursor, search, limit).await
    }

    async fn list_customers_in(
        &self,
        index: ListIndex,
        cursor: Option<&str>,
        search: Option<&str>,
        limit: usize,
    ) -> Result<CustomerPage, ApiError> {
        let search = search.map(|q| q.trim().to_lowercase()).filter(|q| !q.is_empty());
        let mut start: Option<HashMap<String, AttributeValue>> = match cursor {
            Some(c) => Some(cursor_key(index, c)?),
            None => None,
        };
        let (index_name, pk_attr, pk) = match index {
            ListIndex::State(state) => (super::table::GSI1, "GSI1PK", keys::customer::state_gsi1pk(state)),
            ListIndex::All => (super::table::GSI2, "GSI2PK", keys::customer::ALL_GSI2PK.to_string()),
        };
        let mut results = Vec::new();
        loop {
            let mut q = self
                .client
                .query()
                .table_name(&self.table)
                .index_name(index_name)
                .key_condition_expression(format!("{pk_attr} = :pk"))
                .expression_attribute_values(":pk", s(&pk))
                .scan_index_forward(false)
                // One more than a page tells whether another page exists.
                .limit((limit + 1 - results.len().min(limit)) as i32)
                .set_exclusive_start_key(start.take());
            if let Some(text) = &search {
                q = q
                    .filter_expression("contains(#search, :q)")
                    .expression_attribute_names("#search", "search")
                    .expression_attribute_values(":q", s(text));
            }
            let out = q.send().await.map_err(sdk_err)?;
            for item in out.items.unwrap_or_default() {
                results.push(from_item(item)?);
            }
            if results.len() > limit {
                results.truncate(limit);
                let last = results.last().expect("a full page");
                return Ok(CustomerPage { next: Some(format!("{}#{}", last.created_at.to_rfc3339(), last.uid)), results });
            }
            match out.last_evaluated_key {
                Some(k) if !k.is_empty() => start = Some(k),
                _ => return Ok(CustomerPage { results, next: None }),
            }
        }
    }

    /// Staff update of a customer: user and profile in one transaction; a
    /// changed e-mail swaps the `EMAIL#` item and a changed registration
    /// number swaps the `REGNO#` item in the same transaction, so neither is
    /// ever held by two customers or left behind.
    pub async fn update_customer(
        &self,
        user: &User,
        profile: &CustomerProfile,
        old_email: &str,
        old_regno: Option<&str>,
    ) -> Result<(), UpdateCustomerError> {
        use super::users::to_item;
        use aws_sdk_dynamodb::types::Delete;
        let mut items = vec![
            TransactWriteItem::builder()
                .put(
                    Put::builder()
                        .table_name(&self.table)
                        .set_item(Some(to_item(user)?))
                        .condition_expression("attribute_exists(PK)")
                        .build()
                        .map_err(ApiError::internal)?,
                )
                .build(),
            TransactWriteItem::builder()
                .put(Put::builder().table_name(&self.table).set_item(Some(profile_item(profile)?)).build().map_err(ApiError::internal)?)
                .build(),
        ];
        let mut email_at = None;
        let mut regno_at = None;
        if user.email != old_email {
            items.push(
                TransactWriteItem::builder()
                    .delete(
                        Delete::builder()
                            .table_name(&self.table)
                            .key("PK", s(keys::email::pk(old_email)))
                            .key("SK", s(keys::email::SK))
                            .build()
                            .map_err(ApiError::internal)?,
                    )
                    .build(),
            );
            email_at = Some(items.len());
            items.push(
                TransactWriteItem::builder()
                    .put(
                        Put::builder()
                            .table_name(&self.table)
                            .item("PK", s(keys::email::pk(&user.email)))
                            .item("SK", s(keys::email::SK))
                            .item("entity", s("email"))
                            .item("user_uid", s(&user.uid))
                            .condition_expression("attribute_not_exists(PK)")
                            .build()
                            .map_err(ApiError::internal)?,
                    )
                    .build(),
            );
        }
        let new_regno = profile.company_registration_number.as_deref().map(str::trim).filter(|n| !n.is_empty());
        if new_regno != old_regno {
            if let Some(old) = old_regno {
                // Only the customer's own item is removed.
                items.push(
                    TransactWriteItem::builder()
                        .delete(
                            Delete::builder()
                                .table_name(&self.table)
                                .key("PK", s(keys::registration_number::pk(old)))
                                .key("SK", s(keys::registration_number::SK))
                                .condition_expression("attribute_not_exists(PK) OR customer_uid = :u")
                                .expression_attribute_values(":u", s(&user.uid))
                                .build()
                                .map_err(ApiError::internal)?,
                        )
                        .build(),
                );
            }
            if let Some(new) = new_regno {
                regno_at = Some(items.len());
                items.push(TransactWriteItem::builder().put(regno_put(&self.table, new, &user.uid)?).build());
            }
        }
        match self.client.transact_write_items().set_transact_items(Some(items)).send().await {
            Ok(_) => Ok(()),
            Err(e) => {
                use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
                let failed: Vec<usize> = match e.as_service_error() {
                    Some(TransactWriteItemsError::TransactionCanceledException(tc)) => tc
                        .cancellation_reasons()
                        .iter()
                        .enumerate()
                        .filter(|(_, r)| r.code() == Some("ConditionalCheckFailed"))
                        .map(|(i, _)| i)
                        .collect(),
                    _ => Vec::new(),
                };
                if email_at.is_some_and(|i| failed.contains(&i)) {
                    Err(UpdateCustomerError::EmailTaken)
                } else if regno_at.is_some_and(|i| failed.contains(&i)) {
                    Err(UpdateCustomerError::RegistrationNumberTaken)
                } else if failed.contains(&0) {
                    Err(UpdateCustomerError::Other(ApiError::UserNotFound))
                } else {
                    Err(UpdateCustomerError::Other(sdk_err(e)))
                }
            }
        }
    }

    /// Pending customers still waiting for an admin's approval (the bubble).
    pub async fn count_customers_awaiting_approval(&self) -> Result<u64, ApiError> {
        let mut total = 0u64;
        let mut start = None;
        loop {
            let out = self
                .client
                .query()
                .table_name(&self.table)
                .index_name(super::table::GSI1)
                .key_condition_expression("GSI1PK = :pk")
                .filter_expression("awaiting_approval = :t")
                .expression_attribute_values(":pk", s(keys::customer::state_gsi1pk(CustomerState::Pending)))
                .expression_attribute_values(":t", AttributeValue::Bool(true))
                .select(aws_sdk_dynamodb::types::Select::Count)
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(sdk_err)?;
            total += out.count.max(0) as u64;
            match out.last_evaluated_key {
                Some(k) if !k.is_empty() => start = Some(k),
                _ => return Ok(total),
            }
        }
    }

    /// Stores the customer's one activation link (a new one replaces the
    /// earlier, which then stops working).
    pub async fn save_activation_link(&self, uid: &str, digest: &str, expires_at: i64) -> Result<(), ApiError> {
        self.client
            .put_item()
            .table_name(&self.table)
            .item("PK", s(keys::customer::pk(uid)))
            .item("SK", s(keys::customer::ACTIVATION_SK))
            .item("entity", s("activation_link"))
            .item("digest", s(digest))
            .item("expires_at", n(expires_at))
            .item("used", AttributeValue::Bool(false))
            .item(super::table::TTL_ATTRIBUTE, n(expires_at))
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(())
    }

    /// True when the link is the customer's current one, unused and unexpired.
    pub async fn activation_link_valid(&self, uid: &str, digest: &str, now: i64) -> Result<bool, ApiError> {
        let Some(item) = self.get(&keys::customer::pk(uid), keys::customer::ACTIVATION_SK).await? else { return Ok(false) };
        let text = |k: &str| item.get(k).and_then(|v| v.as_s().ok()).cloned();
        let num = |k: &str| item.get(k).and_then(|v| v.as_n().ok()).and_then(|v| v.parse::<i64>().ok());
        let used = item.get("used").and_then(|v| v.as_bool().ok()).copied().unwrap_or(true);
        Ok(text("digest").as_deref() == Some(digest) && !used && num("expires_at").is_some_and(|e| e > now))
    }

    /// Spends the link: single use even under concurrent clicks.
    pub async fn spend_activation_link(&self, uid: &str, digest: &str, now: i64) -> Result<bool, ApiError> {
        let res = self
            .client
            .update_item()
            .table_name(&self.table)
            .key("PK", s(keys::customer::pk(uid)))
            .key("SK", s(keys::customer::ACTIVATION_SK))
            .update_expression("SET used = :t")
            .condition_expression("attribute_exists(PK) AND digest = :d AND used = :f AND expires_at > :now")
            .expression_attribute_values(":t", AttributeValue::Bool(true))
            .expression_attribute_values(":f", AttributeValue::Bool(false))
            .expression_attribute_values(":d", s(digest))
            .expression_attribute_values(":now", n(now))
            .send()
            .await;
        match res {
            Ok(_) => Ok(true),
            Err(e) if e.as_service_error().is_some_and(|se| se.is_conditional_check_failed_exception()) => Ok(false),
            Err(e) => Err(sdk_err(e)),
        }
    }

    /// Business sectors by name. The spec's list is written the first time
    /// the list is read (conditional puts: concurrent first reads are harmless),
    /// so a fresh deployment needs no setup step.
    pub async fn list_business_sectors(&self) -> Result<Vec<BusinessSector>, ApiError> {
        let (mut sectors, seeded) = self.read_sectors().await?;
        if !seeded {
            self.seed_business_sectors().await?;
            sectors = self.read_sectors().await?.0;
        }
        sectors.sort_by_key(|s| s.name.to_lowercase());
        Ok(sectors)
    }

    async fn read_sectors(&self) -> Result<(Vec<BusinessSector>, bool), ApiError> {
        let mut sectors = Vec::new();
        let mut seeded = false;
        let mut start = None;
        loop {
            let out = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("PK = :pk")
                .expression_attribute_values(":pk", s(keys::business_sector::PK))
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(sdk_err)?;
            for item in out.items.unwrap_or_default() {
                let text = |k: &str| item.get(k).and_then(|v| v.as_s().ok()).cloned();
                if text("SK").as_deref() == Some(keys::business_sector::SEEDED_SK) {
                    seeded = true;
                } else if let (Some(id), Some(name)) = (text("id"), text("name")) {
                    sectors.push(BusinessSector { id, name });
                }
            }
            match out.last_evaluated_key {
                Some(k) if !k.is_empty() => start = Some(k),
                _ => return Ok((sectors, seeded)),
            }
        }
    }

    async fn seed_business_sectors(&self) -> Result<(), ApiError> {
        for (i, name) in SEEDED_SECTORS.iter().enumerate() {
            self.put_sector_if_new(&(i + 1).to_string(), name).await?;
        }
        self.client
            .put_item()
            .table_name(&self.table)
            .item("PK", s(keys::business_sector::PK))
            .item("SK", s(keys::business_sector::SEEDED_SK))
            .item("entity", s("business_sector_seed"))
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(())
    }

    async fn put_sector_if_new(&self, id: &str, name: &str) -> Result<bool, ApiError> {
        let res = self
            .client
            .put_item()
            .table_name(&self.table)
            .item("PK", s(keys::business_sector::PK))
            .item("SK", s(keys::business_sector::sk(id)))
            .item("entity", s("business_sector"))
            .item("id", s(id))
            .item("name", s(name.trim()))
            .condition_expression("attribute_not_exists(PK)")
            .send()
            .await;
        match res {
            Ok(_) => Ok(true),
            Err(e) if e.as_service_error().is_some_and(|se| se.is_conditional_check_failed_exception()) => Ok(false),
            Err(e) => Err(sdk_err(e)),
        }
    }

    pub async fn get_business_sector(&self, id: &str) -> Result<Option<BusinessSector>, ApiError> {
        if id.contains('#') {
            return Ok(None);
        }
        let Some(item) = self.get(keys::business_sector::PK, &keys::business_sector::sk(id)).await? else { return Ok(None) };
        let name = item.get("name").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
        Ok(Some(BusinessSector { id: id.to_string(), name }))
    }

    /// A new sector with the next free numeric id (the seeded ones take 1..10;
    /// the counter skips ids in use).
    pub async fn create_business_sector(&self, name: &str) -> Result<BusinessSector, ApiError> {
        // Make sure the seeded ids exist before numbering new ones.
        self.list_business_sectors().await?;
        for _ in 0..(SEEDED_SECTORS.len() + 20) {
            let id = self.next_id("business_sector").await?.to_string();
            if self.put_sector_if_new(&id, name).await? {
                return Ok(BusinessSector { id, name: name.trim().to_string() });
            }
        }
        Err(ApiError::internal("no free business sector id"))
    }

    /// Renames a sector; false when it does not exist.
    pub async fn update_business_sector(&self, id: &str, name: &str) -> Result<bool, ApiError> {
        if id.contains('#') {
            return Ok(false);
        }
        let res = self
            .client
            .update_item()
            .table_name(&self.table)
            .key("PK", s(keys::business_sector::PK))
            .key("SK", s(keys::business_sector::sk(id)))
            .update_expression("SET #name = :n")
            .condition_expression("attribute_exists(PK)")
            .expression_attribute_names("#name", "name")
            .expression_attribute_values(":n", s(name.trim()))
            .send()
            .await;
        match res {
            Ok(_) => Ok(true),
            Err(e) if e.as_service_error().is_some_and(|se| se.is_conditional_check_failed_exception()) => Ok(false),
            Err(e) => Err(sdk_err(e)),
        }
    }

    /// Deletes a sector; false when it does not exist. Customers keep the
    /// name they registered with (copied on their profile).
    pub async fn delete_business_sector(&self, id: &str) -> Result<bool, ApiError> {
        if id.contains('#') {
            return Ok(false);
        }
        let res = self
            .client
            .delete_item()
            .table_name(&self.table)
            .key("PK", s(keys::business_sector::PK))
            .key("SK", s(keys::business_sector::sk(id)))
            .condition_expression("attribute_exists(PK)")
            .send()
            .await;
        match res {
            Ok(_) => Ok(true),
            Err(e) if e.as_service_error().is_some_and(|se| se.is_conditional_check_failed_exception()) => Ok(false),
            Err(e) => Err(sdk_err(e)),
        }
    }
}

/// Which list a page comes from.
#[derive(Clone, Copy)]
enum ListIndex {
    State(CustomerState),
    All,
}

#[derive(Debug, thiserror::Error)]
pub enum UpdateCustomerError {
    #[error("e-mail already exists")]
    EmailTaken,
    #[error("registration number taken")]
    RegistrationNumberTaken,
    #[error(transparent)]
    Other(#[from] ApiError),
}

/// Rebuilds a list query's start key from a cursor `<created_at>#<uid>`.
fn cursor_key(index: ListIndex, cursor: &str) -> Result<HashMap<String, AttributeValue>, ApiError> {
    let bad = || ApiError::BadRequest { message: Msg::ValidationFailed, fields: FieldErrors::of("cursor", Msg::InvalidCursor) };
    let (created, uid) = cursor.rsplit_once('#').ok_or_else(bad)?;
    if uid.is_empty() || chrono::DateTime::parse_from_rfc3339(created).is_err() {
        return Err(bad());
    }
    let mut key = HashMap::from([("PK".to_string(), s(keys::customer::pk(uid))), ("SK".to_string(), s(keys::customer::PROFILE_SK))]);
    match index {
        ListIndex::State(state) => {
            key.insert("GSI1PK".to_string(), s(keys::customer::state_gsi1pk(state)));
            key.insert("GSI1SK".to_string(), s(cursor));
        }
        ListIndex::All => {
            key.insert("GSI2PK".to_string(), s(keys::customer::ALL_GSI2PK));
            key.insert("GSI2SK".to_string(), s(cursor));
        }
    }
    Ok(key)
}

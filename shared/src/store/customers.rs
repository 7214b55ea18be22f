//! Customer profiles (`CUSTOMER#<uid> / PROFILE`), registration-number
//! uniqueness (`REGNO#<number>`), activation links (`CUSTOMER#<uid> / ACTIVATION`)
//! and business sectors (`BUSINESS_SECTOR / SECTOR#<id>`).

use aws_sdk_dynamodb::types::AttributeValue;
use std::collections::HashMap;

use super::idempotency::Once;
use super::tx::{Cond, Tx};
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
    keys::customer::profile(&p.uid).stamp(&mut item);
    item.insert("entity".into(), s("customer_profile"));
    keys::IndexKey::gsi1(keys::customer::state_gsi1pk(p.state), format!("{}#{}", p.created_at.to_rfc3339(), p.uid)).stamp(&mut item);
    // Every customer whatever its state (sales persons' "all" list).
    keys::IndexKey::gsi2(keys::customer::ALL_GSI2PK, format!("{}#{}", p.created_at.to_rfc3339(), p.uid)).stamp(&mut item);
    item.insert("search".into(), s(p.search_text()));
    // Sparse attribute: the bubble counts pending customers still waiting for approval.
    if p.state == CustomerState::Pending && p.approved_at.is_none() {
        item.insert("awaiting_approval".into(), AttributeValue::Bool(true));
    }
    Ok(item)
}

pub(crate) fn from_item(item: Item) -> Result<CustomerProfile, ApiError> {
    serde_dynamo::from_item(item).map_err(ApiError::internal)
}

/// The counter that numbers new business sectors (after the seeded ones).
const SECTOR_COUNTER: &str = "business_sector";

/// The item that makes an organisationsnummer belong to one customer.
fn registration_number_item(number: &str, customer_uid: &str) -> Item {
    keys::registration_number::item(number).with([("entity", s("registration_number")), ("customer_uid", s(customer_uid))])
}

/// The customer's department link (`CUSTOMER#<uid> / DEPARTMENT`, GSI1
/// `DEPARTMENT#<id>`): the item [`Store::connect_customer_department`] writes.
fn department_link_item(customer_uid: &str, department_id: u64) -> Item {
    keys::customer::department(customer_uid).with([
        ("entity", s("customer_department")),
        ("customer_uid", s(customer_uid)),
        ("department_id", n(department_id)),
        ("GSI1PK", s(keys::department_members::gsi1pk(department_id))),
        ("GSI1SK", s(customer_uid)),
    ])
}

/// What a customer change adds to its transaction: the profile (new or
/// rewritten), the registration number it claims or releases, and its
/// department link. The user and its e-mail item are added by
/// [`Store::add_new_user`] / [`Store::add_user_put`] beside these.
impl Store {
    /// A new profile (only if the customer has none yet).
    pub fn add_new_profile(&self, tx: &mut Tx, p: &CustomerProfile) -> Result<(), ApiError> {
        tx.put_new(profile_item(p)?)
    }

    /// The rewrite of an existing profile (its state index follows `state`).
    pub fn add_profile_put(&self, tx: &mut Tx, p: &CustomerProfile) -> Result<(), ApiError> {
        tx.put_if(profile_item(p)?, Some(Cond::present()))
    }

    /// The rewrite of a profile only if the stored one is still exactly
    /// `read` (every attribute as read, none added): a profile has no
    /// version, and the rest of the transaction (counters moved, a number
    /// released) was decided from `read`, so a change between the read and
    /// this write must fail it all.
    pub fn add_profile_put_as_read(&self, tx: &mut Tx, p: &CustomerProfile, read: &Item) -> Result<(), ApiError> {
        let item = profile_item(p)?;
        let mut cond = Cond::new("");
        let mut clauses = Vec::new();
        let mut names: Vec<&String> = read.keys().chain(item.keys().filter(|a| !read.contains_key(*a))).collect();
        names.sort();
        names.dedup();
        for (i, a) in names.into_iter().enumerate() {
            cond = cond.name(&format!("#r{i}"), a);
            match read.get(a) {
                Some(v) => {
                    cond = cond.value(&format!(":r{i}"), v.clone());
                    clauses.push(format!("#r{i} = :r{i}"));
                }
                None => clauses.push(format!("attribute_not_exists(#r{i})")),
            }
        }
        tx.put_if(item, Some(cond.with_expr(clauses.join(" AND "))))
    }

    /// Claims a registration number for the customer, only if nobody holds it.
    pub fn add_registration_number(&self, tx: &mut Tx, number: &str, customer_uid: &str) -> Result<(), ApiError> {
        tx.put_new(registration_number_item(number, customer_uid))
    }

    /// Claims a registration number unless another customer holds it (the
    /// customer's own claim is kept: seed data, which runs again).
    pub fn add_registration_number_kept(&self, tx: &mut Tx, number: &str, customer_uid: &str) -> Result<(), ApiError> {
        tx.put_if(
            registration_number_item(number, customer_uid),
            Some(Cond::new("attribute_not_exists(PK) OR customer_uid = :u").value(":u", s(customer_uid))),
        )
    }

    /// Releases a registration number, only if it is the customer's own.
    pub fn add_registration_number_release(&self, tx: &mut Tx, number: &str, customer_uid: &str) -> Result<(), ApiError> {
        tx.delete(
            &keys::registration_number::item(number),
            Some(Cond::new("attribute_not_exists(PK) OR customer_uid = :u").value(":u", s(customer_uid))),
        )
    }

    /// Connects the customer to a department (one per customer; a new one replaces the old).
    pub fn add_department_link(&self, tx: &mut Tx, customer_uid: &str, department_id: u64) -> Result<(), ApiError> {
        tx.put(department_link_item(customer_uid, department_id))
    }

    /// The customer's one activation link (a new one replaces the earlier,
    /// which then stops working).
    pub fn add_activation_link(&self, tx: &mut Tx, uid: &str, digest: &str, expires_at: i64) -> Result<(), ApiError> {
        tx.put(keys::customer::activation(uid).with([
            ("entity".to_string(), s("activation_link")),
            ("digest".to_string(), s(digest)),
            ("expires_at".to_string(), n(expires_at)),
            ("used".to_string(), AttributeValue::Bool(false)),
            (super::table::TTL_ATTRIBUTE.to_string(), n(expires_at)),
        ]))
    }

    /// Spends the activation link: the transaction fails unless it is the
    /// customer's current one, unused and unexpired (single use even under
    /// concurrent clicks).
    pub fn add_activation_link_spend(&self, tx: &mut Tx, uid: &str, digest: &str, now: i64) -> Result<(), ApiError> {
        tx.update_if(
            &keys::customer::activation(uid),
            "SET used = :t",
            Cond::new("attribute_exists(PK) AND digest = :d AND used = :f AND expires_at > :now")
                .value(":t", AttributeValue::Bool(true))
                .value(":f", AttributeValue::Bool(false))
                .value(":d", s(digest))
                .value(":now", n(now)),
        )
    }
}

impl Store {
    pub async fn get_customer_profile(&self, uid: &str) -> Result<Option<CustomerProfile>, ApiError> {
        self.get(&keys::customer::profile(uid)).await?.map(from_item).transpose()
    }

    /// Replaces a user and (when given) its customer profile in one
    /// transaction, so the account and its state never disagree (test and
    /// seed set-ups; use cases add both to their own transaction).
    pub async fn put_user_and_profile(&self, user: &User, profile: Option<&CustomerProfile>) -> Result<(), ApiError> {
        let mut tx = self.tx();
        self.add_user_put(&mut tx, user)?;
        if let Some(p) = profile {
            self.add_profile_put(&mut tx, p)?;
        }
        if self.commit(tx).await? {
            Ok(())
        } else {
            Err(ApiError::internal("the user or its profile does not exist"))
        }
    }

    /// Number of items under one GSI1 partition (entity counts of `bubbles/`).
    pub async fn count_gsi1(&self, gsi1pk: &str) -> Result<u64, ApiError> {
        let query = self.index_query(super::table::GSI1, gsi1pk);
        self.count_all(query).await
    }

    /// The customer uid holding a registration number, read consistently:
    /// the answer decides whether a write may claim it, or why a claim failed.
    pub async fn registration_number_owner(&self, number: &str) -> Result<Option<String>, ApiError> {
        Ok(self
            .get_consistent(&keys::registration_number::item(number))
            .await?
            .and_then(|i| i.get("customer_uid").and_then(|v| v.as_s().ok()).cloned()))
    }

    pub async fn registration_number_taken(&self, number: &str) -> Result<bool, ApiError> {
        Ok(self.registration_number_owner(number).await?.is_some())
    }

    /// The profile (consistent read), before a change that rewrites it.
    pub async fn get_customer_profile_latest(&self, uid: &str) -> Result<Option<CustomerProfile>, ApiError> {
        self.get_consistent(&keys::customer::profile(uid)).await?.map(from_item).transpose()
    }

    /// [`Store::get_customer_profile_latest`] with the item as stored (for
    /// [`Store::add_profile_put_as_read`]).
    pub async fn get_customer_profile_as_stored(&self, uid: &str) -> Result<Option<(CustomerProfile, Item)>, ApiError> {
        let Some(item) = self.get_consistent(&keys::customer::profile(uid)).await? else { return Ok(None) };
        Ok(Some((from_item(item.clone())?, item)))
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
        let start: Option<HashMap<String, AttributeValue>> = match cursor {
            Some(c) => Some(cursor_key(index, c)?),
            None => None,
        };
        let (index_name, pk_attr, pk) = match index {
            ListIndex::State(state) => (super::table::GSI1, "GSI1PK", keys::customer::state_gsi1pk(state)),
            ListIndex::All => (super::table::GSI2, "GSI2PK", keys::customer::ALL_GSI2PK.to_string()),
        };
        let mut q = self
            .client
            .query()
            .table_name(&self.table)
            .index_name(index_name)
            .key_condition_expression(format!("{pk_attr} = :pk"))
            .expression_attribute_values(":pk", s(&pk))
            .scan_index_forward(false);
        if let Some(text) = &search {
            q = q
                .filter_expression("contains(#search, :q)")
                .expression_attribute_names("#search", "search")
                .expression_attribute_values(":q", s(text));
        }
        let mut pages = super::Pages::new(q, start);
        let mut results = Vec::new();
        loop {
            // One more than a page tells whether another page exists.
            pages.limit((limit + 1 - results.len().min(limit)) as i32);
            let Some(out) = pages.next().await? else {
                return Ok(CustomerPage { results, next: None });
            };
            results.extend(super::readable(out.items.unwrap_or_default(), from_item));
            if results.len() > limit {
                results.truncate(limit);
                let next = results.last().map(|last| format!("{}#{}", last.created_at.to_rfc3339(), last.uid));
                return Ok(CustomerPage { next, results });
            }
        }
    }

    /// Pending customers still waiting for an admin's approval (the bubble).
    pub async fn count_customers_awaiting_approval(&self) -> Result<u64, ApiError> {
        let query = self
            .index_query(super::table::GSI1, &keys::customer::state_gsi1pk(CustomerState::Pending))
            .filter_expression("awaiting_approval = :t")
            .expression_attribute_values(":t", AttributeValue::Bool(true));
        self.count_all(query).await
    }

    /// Stores the customer's one activation link on its own (tests); use
    /// cases add [`Store::add_activation_link`] to their transaction.
    pub async fn save_activation_link(&self, uid: &str, digest: &str, expires_at: i64) -> Result<(), ApiError> {
        let mut tx = self.tx();
        self.add_activation_link(&mut tx, uid, digest, expires_at)?;
        self.commit(tx).await?;
        Ok(())
    }

    /// True when the link is the customer's current one, unused and unexpired.
    pub async fn activation_link_valid(&self, uid: &str, digest: &str, now: i64) -> Result<bool, ApiError> {
        // Consistent: also asked after a failed activation, to tell a spent link from a concurrent change.
        let Some(item) = self.get_consistent(&keys::customer::activation(uid)).await? else { return Ok(false) };
        let text = |k: &str| item.get(k).and_then(|v| v.as_s().ok()).cloned();
        let num = |k: &str| item.get(k).and_then(|v| v.as_n().ok()).and_then(|v| v.parse::<i64>().ok());
        let used = item.get("used").and_then(|v| v.as_bool().ok()).copied().unwrap_or(true);
        Ok(text("digest").as_deref() == Some(digest) && !used && num("expires_at").is_some_and(|e| e > now))
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
        let query = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :pk")
            .expression_attribute_values(":pk", s(keys::business_sector::PK));
        let mut sectors = Vec::new();
        let mut seeded = false;
        for item in self.query_all(query).await? {
            let text = |k: &str| item.get(k).and_then(|v| v.as_s().ok()).cloned();
            if text("SK").as_deref() == Some(keys::business_sector::SEEDED_SK) {
                seeded = true;
            } else if let (Some(id), Some(name)) = (text("id"), text("name")) {
                sectors.push(BusinessSector { id, name });
            }
        }
        Ok((sectors, seeded))
    }

    async fn seed_business_sectors(&self) -> Result<(), ApiError> {
        for (i, name) in SEEDED_SECTORS.iter().enumerate() {
            self.put_sector_if_new(&(i + 1).to_string(), name).await?;
        }
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(keys::business_sector::seeded().item()))
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
            .set_item(Some(keys::business_sector::item(id).item()))
            .item("entity", s("business_sector"))
            .item("id", s(id))
            .item("name", s(name.trim()))
            .condition_expression("attribute_not_exists(PK)")
            .send()
            .await;
        super::applied(res)
    }

    pub async fn get_business_sector(&self, id: &str) -> Result<Option<BusinessSector>, ApiError> {
        if id.contains('#') {
            return Ok(None);
        }
        let Some(item) = self.get(&keys::business_sector::item(id)).await? else { return Ok(None) };
        let name = item.get("name").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
        Ok(Some(BusinessSector { id: id.to_string(), name }))
    }

    /// The id of a new sector: the next value of its counter, which first
    /// moves past the seeded ids (1..10) if it has not yet.
    pub async fn next_business_sector_id(&self) -> Result<String, ApiError> {
        let seeded = SEEDED_SECTORS.len();
        let res = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::counter::item(SECTOR_COUNTER).item()))
            .update_expression("SET #v = :seeded")
            .condition_expression("attribute_not_exists(#v) OR #v < :seeded")
            .expression_attribute_names("#v", "value")
            .expression_attribute_values(":seeded", n(seeded))
            .send()
            .await;
        match res {
            Ok(_) => {}
            Err(e) if e.as_service_error().is_some_and(|se| se.is_conditional_check_failed_exception()) => {}
            Err(e) => return Err(sdk_err(e)),
        }
        Ok(self.next_id(SECTOR_COUNTER).await?.to_string())
    }

    /// Writes a new sector under `id`; false when the id is in use.
    /// A new sector under `id` with the request's idempotency record
    /// (`once`, answering `answer`) in one transaction; false when `id` is
    /// taken.
    pub async fn create_business_sector_as(&self, id: &str, name: &str, once: &Once, answer: &BusinessSector) -> Result<bool, ApiError> {
        let mut tx = self.tx();
        tx.put_new(keys::business_sector::item(id).with([("entity", s("business_sector")), ("id", s(id)), ("name", s(name.trim()))]))?;
        once.record(&mut tx, answer)?;
        self.commit(tx).await
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
            .set_key(Some(keys::business_sector::item(id).item()))
            .update_expression("SET #name = :n")
            .condition_expression("attribute_exists(PK)")
            .expression_attribute_names("#name", "name")
            .expression_attribute_values(":n", s(name.trim()))
            .send()
            .await;
        super::applied(res)
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
            .set_key(Some(keys::business_sector::item(id).item()))
            .condition_expression("attribute_exists(PK)")
            .send()
            .await;
        super::applied(res)
    }
}

/// Which list a page comes from.
#[derive(Clone, Copy)]
enum ListIndex {
    State(CustomerState),
    All,
}

/// Rebuilds a list query's start key from a cursor `<created_at>#<uid>`.
fn cursor_key(index: ListIndex, cursor: &str) -> Result<HashMap<String, AttributeValue>, ApiError> {
    let bad = || ApiError::BadRequest { message: Msg::ValidationFailed, fields: FieldErrors::of("cursor", Msg::InvalidCursor) };
    let (created, uid) = cursor.rsplit_once('#').ok_or_else(bad)?;
    if uid.is_empty() || chrono::DateTime::parse_from_rfc3339(created).is_err() {
        return Err(bad());
    }
    let mut key = keys::customer::profile(uid).item();
    match index {
        ListIndex::State(state) => {
            keys::IndexKey::gsi1(keys::customer::state_gsi1pk(state), cursor).stamp(&mut key);
        }
        ListIndex::All => {
            keys::IndexKey::gsi2(keys::customer::ALL_GSI2PK, cursor).stamp(&mut key);
        }
    }
    Ok(key)
}

//! Catalogue items: packages, service plans, the named lists (knowledge
//! sectors, case types, departments) and a customer's department link.
//! Each list is one partition (`CATALOGUE#<kind>`), read with one Query.

use aws_sdk_dynamodb::types::AttributeValue;
use serde::{de::DeserializeOwned, Serialize};

use super::idempotency::Once;
use super::tx::{Cond, Tx};
use super::{keys, s, sdk_err, Item, Store};
use crate::domain::catalogue::{NamedDraft, NamedEntry, Package, PackageDraft, ServicePlan, ServicePlanDraft};
use crate::error::ApiError;

/// The named lists kept by admin (a domain type; re-exported where the
/// store's callers always found it).
pub use crate::domain::catalogue::NamedKind;

/// The two kinds of catalogue entry customers buy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    Package,
    Plan,
}

impl Offer {
    fn key(self, id: u64) -> keys::Key {
        match self {
            Offer::Package => keys::catalogue::package(id),
            Offer::Plan => keys::catalogue::plan(id),
        }
    }
    /// The partition and sort-key prefix all entries of the kind share.
    fn partition(self) -> (&'static str, &'static str) {
        match self {
            Offer::Package => (keys::catalogue::PACKAGES_PK, keys::catalogue::PACKAGE_PREFIX),
            Offer::Plan => (keys::catalogue::PLANS_PK, keys::catalogue::PLAN_PREFIX),
        }
    }
    /// The item's `entity` attribute.
    fn entity(self) -> &'static str {
        match self {
            Offer::Package => "package",
            Offer::Plan => "service_plan",
        }
    }
}

/// A stored catalogue entry of one [`Offer`] kind: packages and service
/// plans are created, read and listed by the same code, their kind
/// choosing the partition.
pub trait OfferEntry: Serialize + DeserializeOwned {
    const OFFER: Offer;
    fn id(&self) -> u64;
}

impl OfferEntry for Package {
    const OFFER: Offer = Offer::Package;
    fn id(&self) -> u64 {
        self.id
    }
}

impl OfferEntry for ServicePlan {
    const OFFER: Offer = Offer::Plan;
    fn id(&self) -> u64 {
        self.id
    }
}

fn attr<T: Serialize>(v: &T) -> Result<AttributeValue, ApiError> {
    serde_dynamo::to_attribute_value(v).map_err(ApiError::internal)
}

impl NamedKind {
    pub fn pk(self) -> &'static str {
        match self {
            NamedKind::KnowledgeSector => keys::catalogue::KNOWLEDGE_SECTORS_PK,
            NamedKind::CaseType => keys::catalogue::CASE_TYPES_PK,
            NamedKind::Department => keys::catalogue::DEPARTMENTS_PK,
        }
    }
    fn counter(self) -> &'static str {
        match self {
            NamedKind::KnowledgeSector => "knowledge_sector",
            NamedKind::CaseType => "case_type",
            NamedKind::Department => "department",
        }
    }
}

impl Store {
    /// Every item of a partition whose sort key starts with `prefix` (all pages).
    pub async fn query_prefix(&self, pk: &str, prefix: &str) -> Result<Vec<Item>, ApiError> {
        let query = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :p AND begins_with(SK, :s)")
            .expression_attribute_values(":p", s(pk))
            .expression_attribute_values(":s", s(prefix));
        self.query_all(query).await
    }

    /// Writes a new item with the request's idempotency record (`once`,
    /// answering `value`) in one transaction: a retry of a create that
    /// committed answers the first answer instead of adding a second item.
    async fn put_new<T: Serialize>(&self, key: &keys::Key, entity: &str, value: &T, once: &Once) -> Result<(), ApiError> {
        let mut item: Item = serde_dynamo::to_item(value).map_err(ApiError::internal)?;
        key.stamp(&mut item);
        item.insert("entity".into(), s(entity));
        let mut tx = self.tx();
        tx.put_new(item)?;
        once.record(&mut tx, value)?;
        if !self.commit(tx).await? {
            // Ids come from a counter: an item already under this one is a broken counter.
            return Err(ApiError::internal(format!("{entity} {} exists", key.sk)));
        }
        Ok(())
    }

    fn parse_all<T: DeserializeOwned>(items: Vec<Item>) -> Result<Vec<T>, ApiError> {
        Ok(super::readable_items(items))
    }

    pub async fn create_offer<T: OfferEntry>(&self, entry: &T, once: &Once) -> Result<(), ApiError> {
        self.put_new(&T::OFFER.key(entry.id()), T::OFFER.entity(), entry, once).await
    }
    pub async fn get_offer<T: OfferEntry>(&self, id: u64) -> Result<Option<T>, ApiError> {
        self.get_as(&T::OFFER.key(id)).await
    }
    /// Every entry of the kind, retired ones too.
    pub async fn list_offers<T: OfferEntry>(&self) -> Result<Vec<T>, ApiError> {
        let (pk, prefix) = T::OFFER.partition();
        Self::parse_all(self.query_prefix(pk, prefix).await?)
    }

    /// Changes the terms of a package or plan (`offer`), leaving
    /// `bought` and `retired` as they are (a purchase may mark it bought
    /// meanwhile); the stored entry after the change, `NotFound` if it is gone.
    async fn update_offer<T: DeserializeOwned>(&self, offer: Offer, id: u64, set: &[(&str, AttributeValue)]) -> Result<T, ApiError> {
        let key = offer.key(id);
        let expr: Vec<String> = (0..set.len()).map(|i| format!("#a{i} = :v{i}")).collect();
        let mut req = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key.item()))
            .update_expression(format!("SET {}", expr.join(", ")))
            .condition_expression("attribute_exists(PK)")
            .return_values(aws_sdk_dynamodb::types::ReturnValue::AllNew);
        for (i, (name, v)) in set.iter().enumerate() {
            req = req.expression_attribute_names(format!("#a{i}"), *name).expression_attribute_values(format!(":v{i}"), v.clone());
        }
        match req.send().await {
            Ok(out) => serde_dynamo::from_item(out.attributes.unwrap_or_default()).map_err(ApiError::internal),
            Err(e) if e.as_service_error().is_some_and(|x| x.is_conditional_check_failed_exception()) => Err(ApiError::NotFound),
            Err(e) => Err(sdk_err(e)),
        }
    }

    /// New terms of a package (bought rows keep theirs: they hold copies).
    pub async fn update_package(&self, id: u64, d: &PackageDraft) -> Result<Package, ApiError> {
        let set = [
            ("name", s(&d.name)),
            ("hours", attr(&d.hours)?),
            ("price", attr(&d.price)?),
            ("duration_days", attr(&d.duration_days)?),
            ("public", AttributeValue::Bool(d.public)),
        ];
        self.update_offer(Offer::Package, id, &set).await
    }

    /// New terms of a service plan (bought rows keep theirs).
    pub async fn update_service_plan(&self, id: u64, d: &ServicePlanDraft) -> Result<ServicePlan, ApiError> {
        let set = [
            ("name", s(&d.name)),
            ("service_id", attr(&d.service_id)?),
            ("limit", attr(&d.limit)?),
            ("hours", attr(&d.hours)?),
            ("price", attr(&d.price)?),
            ("expiry_days", attr(&d.expiry_days)?),
            ("public", AttributeValue::Bool(d.public)),
        ];
        self.update_offer(Offer::Plan, id, &set).await
    }

    /// Retires (or reinstates) a package or plan.
    pub async fn set_offer_retired<T: DeserializeOwned>(&self, offer: Offer, id: u64, retired: bool) -> Result<T, ApiError> {
        self.update_offer(offer, id, &[("retired", AttributeValue::Bool(retired))]).await
    }

    /// Deletes a package or plan never bought: `Ok(false)` when it was
    /// bought (it stays), `NotFound` when it is gone. The condition makes a
    /// purchase committed meanwhile win.
    pub async fn delete_offer_unbought(&self, offer: Offer, id: u64) -> Result<bool, ApiError> {
        let key = offer.key(id);
        let res = self
            .client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(key.item()))
            .condition_expression("attribute_exists(PK) AND (attribute_not_exists(bought) OR bought = :f)")
            .expression_attribute_values(":f", AttributeValue::Bool(false))
            .send()
            .await;
        match res {
            Ok(_) => Ok(true),
            Err(e) if e.as_service_error().is_some_and(|x| x.is_conditional_check_failed_exception()) => {
                if self.get(&key).await?.is_some() {
                    Ok(false)
                } else {
                    Err(ApiError::NotFound)
                }
            }
            Err(e) => Err(sdk_err(e)),
        }
    }

    /// Adds to `tx` the mark that a purchase of `offer` `id` happened, on
    /// the condition that it still exists and is not retired (a retirement
    /// committed meanwhile wins; the buyer's retry then reads it retired).
    pub fn add_bought_mark(&self, tx: &mut Tx, offer: Offer, id: u64) -> Result<(), ApiError> {
        let key = offer.key(id);
        let cond = Cond::new("attribute_exists(PK) AND (attribute_not_exists(retired) OR retired = :f)")
            .value(":f", AttributeValue::Bool(false))
            .value(":t", AttributeValue::Bool(true));
        tx.update_if(&key, "SET bought = :t", cond)
    }

    /// An entry named in Swedish only (seeds and tests).
    pub async fn create_named(&self, kind: NamedKind, name: &str, description: &str) -> Result<NamedEntry, ApiError> {
        self.create_named_entry(kind, &NamedDraft { description: description.trim().to_string(), ..NamedDraft::named(name) }, &Once::none())
            .await
    }
    pub async fn create_named_entry(&self, kind: NamedKind, draft: &NamedDraft, once: &Once) -> Result<NamedEntry, ApiError> {
        let entry = NamedEntry {
            id: self.next_id(kind.counter()).await?,
            name: draft.name.clone(),
            name_en: draft.name_en.clone(),
            description: draft.description.clone(),
        };
        self.put_new(&keys::catalogue::entry(kind.pk(), entry.id), kind.counter(), &entry, once).await?;
        Ok(entry)
    }
    pub async fn get_named(&self, kind: NamedKind, id: u64) -> Result<Option<NamedEntry>, ApiError> {
        self.get_as(&keys::catalogue::entry(kind.pk(), id)).await
    }
    pub async fn list_named(&self, kind: NamedKind) -> Result<Vec<NamedEntry>, ApiError> {
        Self::parse_all(self.query_prefix(kind.pk(), keys::catalogue::ENTRY_PREFIX).await?)
    }
    /// Renames an existing entry (both languages); `NotFound` if it is gone.
    pub async fn update_named(&self, kind: NamedKind, id: u64, draft: &NamedDraft) -> Result<NamedEntry, ApiError> {
        let (update, en) = match &draft.name_en {
            Some(en) => ("SET #n = :n, name_en = :e, description = :d", Some(en)),
            None => ("SET #n = :n, description = :d REMOVE name_en", None),
        };
        let mut req = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::catalogue::entry(kind.pk(), id).item()))
            .update_expression(update)
            .condition_expression("attribute_exists(PK)")
            .expression_attribute_names("#n", "name")
            .expression_attribute_values(":n", s(&draft.name))
            .expression_attribute_values(":d", s(&draft.description));
        if let Some(en) = en {
            req = req.expression_attribute_values(":e", s(en));
        }
        match req.send().await {
            Ok(_) => {
                Ok(NamedEntry { id, name: draft.name.clone(), name_en: draft.name_en.clone(), description: draft.description.clone() })
            }
            Err(e) if e.as_service_error().is_some_and(|x| x.is_conditional_check_failed_exception()) => Err(ApiError::NotFound),
            Err(e) => Err(sdk_err(e)),
        }
    }
    pub async fn delete_named(&self, kind: NamedKind, id: u64) -> Result<(), ApiError> {
        let res = self
            .client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(keys::catalogue::entry(kind.pk(), id).item()))
            .condition_expression("attribute_exists(PK)")
            .send()
            .await;
        match res {
            Ok(_) => Ok(()),
            Err(e) if e.as_service_error().is_some_and(|x| x.is_conditional_check_failed_exception()) => Err(ApiError::NotFound),
            Err(e) => Err(sdk_err(e)),
        }
    }

    /// Connects a customer to a department (one department per customer; a
    /// new connection replaces the old one).
    pub async fn connect_customer_department(&self, customer_uid: &str, department_id: u64) -> Result<(), ApiError> {
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(keys::customer::department(customer_uid).item()))
            .item("entity", s("customer_department"))
            .item("customer_uid", s(customer_uid))
            .item("department_id", AttributeValue::N(department_id.to_string()))
            .item("GSI1PK", s(keys::department_members::gsi1pk(department_id)))
            .item("GSI1SK", s(customer_uid))
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(())
    }

    pub async fn customer_department(&self, customer_uid: &str) -> Result<Option<u64>, ApiError> {
        Ok(self
            .get(&keys::customer::department(customer_uid))
            .await?
            .and_then(|i| i.get("department_id").and_then(|v| v.as_n().ok()).and_then(|n| n.parse().ok())))
    }

    /// The Query of a department's customers (GSI1), for its two readers below.
    fn department_members(&self, department_id: u64) -> aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder {
        self.client
            .query()
            .table_name(&self.table)
            .index_name(super::table::GSI1)
            .key_condition_expression("GSI1PK = :p")
            .expression_attribute_values(":p", s(keys::department_members::gsi1pk(department_id)))
    }

    /// Whether any customer is connected to a department (one item).
    pub async fn department_in_use(&self, department_id: u64) -> Result<bool, ApiError> {
        let out = self.department_members(department_id).limit(1).send().await.map_err(sdk_err)?;
        Ok(out.count > 0)
    }

    /// Customers connected to a department.
    pub async fn department_customers(&self, department_id: u64) -> Result<Vec<String>, ApiError> {
        let out = self.department_members(department_id).send().await.map_err(sdk_err)?;
        Ok(out.items().iter().filter_map(|i| i.get("customer_uid").and_then(|v| v.as_s().ok()).cloned()).collect())
    }
}

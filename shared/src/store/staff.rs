//! Lawyers' and sales persons' profiles (`USER#<uid>` / `STAFF`).
//!
//! The item repeats the names and e-mail so the admin lists read one index
//! partition (`GSI1PK = STAFF#lawyer#internal | STAFF#lawyer#external |
//! STAFF#sales_person`, newest first) without fetching each user.

use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem, Update};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use utoipa::ToSchema;

use super::tx::Tx;
use super::{keys, s, users, Item, Store};
use crate::domain::staff::LawyerDetails;
use crate::domain::{Role, User, UserSubType};
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
    /// A lawyer's ratings: the sum of their stars and how many there are
    /// (raised in the transaction of each rating).
    #[serde(default)]
    pub rating_sum: u64,
    #[serde(default)]
    pub rating_count: u64,
    /// The average of the ratings, one decimal (derived when read).
    #[serde(default)]
    pub rating_average: Option<f64>,
}

impl StaffProfile {
    /// The profile of a new lawyer or sales person `user`.
    pub fn of(user: &User, role: Role, lawyer: Option<LawyerDetails>) -> StaffProfile {
        StaffProfile {
            uid: user.uid.clone(),
            role,
            first_name: user.first_name.clone(),
            last_name: user.last_name.clone(),
            email: user.email.clone(),
            active: user.active,
            created_at: user.created_at,
            lawyer,
            rating_sum: 0,
            rating_count: 0,
            rating_average: None,
        }
    }

    /// A profile as read: its derived values filled in.
    fn read(item: Item) -> Result<StaffProfile, ApiError> {
        let mut p: StaffProfile = serde_dynamo::from_item(item).map_err(ApiError::internal)?;
        p.rating_average = crate::domain::rating::average(p.rating_sum, p.rating_count);
        Ok(p)
    }

    fn sub_type(&self) -> Option<UserSubType> {
        self.lawyer.as_ref().map(|l| l.user_sub_type)
    }
}

pub fn staff_item(p: &StaffProfile) -> Result<Item, ApiError> {
    let mut item: Item = serde_dynamo::to_item(p).map_err(ApiError::internal)?;
    // Derived when read, never stored.
    item.remove("rating_average");
    keys::staff::item(&p.uid).stamp(&mut item);
    item.insert("entity".into(), s("staff_profile"));
    keys::IndexKey::gsi1(keys::staff::list_gsi1pk(p.role, p.sub_type()), keys::staff::list_gsi1sk(p.created_at, &p.uid)).stamp(&mut item);
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
        self.get(&keys::staff::item(uid)).await?.map(StaffProfile::read).transpose()
    }

    /// Adds a new lawyer or sales person to `tx`: the user, its e-mail item
    /// and its profile, each only if its key is free (an address taken in any
    /// letter case fails the transaction).
    pub fn add_new_staff(&self, tx: &mut Tx, user: &User, profile: &StaffProfile) -> Result<(), ApiError> {
        tx.put_new(users::to_item(user)?)?;
        tx.put_new(email_item(user))?;
        tx.put_new(staff_item(profile)?)
    }

    /// Adds to `tx` what an edit of a lawyer or sales person changes: the
    /// names and sub type on the user and the profile (and the profile's list
    /// partition, which follows the sub type). Only these attributes are
    /// set, so a password chosen or a (de)activation made meanwhile stays.
    pub fn add_staff_update(&self, tx: &mut Tx, profile: &StaffProfile) -> Result<(), ApiError> {
        let user = Update::builder()
            .table_name(&self.table)
            .set_key(Some(keys::user::item(&profile.uid).item()))
            .update_expression("SET first_name = :f, last_name = :l, user_sub_type = :t")
            .condition_expression("attribute_exists(PK)")
            .expression_attribute_values(":f", s(&profile.first_name))
            .expression_attribute_values(":l", s(&profile.last_name))
            .expression_attribute_values(":t", attribute(&profile.sub_type())?)
            .build()
            .map_err(ApiError::internal)?;
        let staff = Update::builder()
            .table_name(&self.table)
            .set_key(Some(keys::staff::item(&profile.uid).item()))
            .update_expression("SET first_name = :f, last_name = :l, lawyer = :d, GSI1PK = :g")
            .condition_expression("attribute_exists(PK)")
            .expression_attribute_values(":f", s(&profile.first_name))
            .expression_attribute_values(":l", s(&profile.last_name))
            .expression_attribute_values(":d", attribute(&profile.lawyer)?)
            .expression_attribute_values(":g", s(keys::staff::list_gsi1pk(profile.role, profile.sub_type())))
            .build()
            .map_err(ApiError::internal)?;
        tx.push(TransactWriteItem::builder().update(user).build());
        tx.push(TransactWriteItem::builder().update(staff).build());
        Ok(())
    }

    /// Keeps the list's `active` in step after a (de)activation.
    pub async fn set_staff_active(&self, uid: &str, active: bool) -> Result<(), ApiError> {
        let res = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::staff::item(uid).item()))
            .update_expression("SET active = :a")
            .condition_expression("attribute_exists(PK)")
            .expression_attribute_values(":a", AttributeValue::Bool(active))
            .send()
            .await;
        // Not a lawyer or sales person: nothing to keep in step.
        super::applied(res).map(|_| ())
    }

    /// The Query of one staff list (its GSI1 partition), to be narrowed.
    fn staff_list(&self, partition: &str) -> aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder {
        self.client
            .query()
            .table_name(&self.table)
            .index_name(super::table::GSI1)
            .key_condition_expression("GSI1PK = :p")
            .expression_attribute_values(":p", s(partition))
    }

    /// A page of one list, newest first.
    pub async fn list_staff(&self, partition: &str, limit: i32, cursor: Option<&str>) -> Result<StaffPage, ApiError> {
        // The cursor is the last item's GSI1SK.
        let at = super::ListAt::gsi1(partition);
        let round = self.round_after(&at, cursor, false, limit, |q| q).await?;
        Ok(StaffPage { results: super::readable(round.items, StaffProfile::read), next: round.stopped_at })
    }

    /// Every lawyer's name by uid, from both lists (internal and external,
    /// active or not: a lawyer since deactivated still ranks for the hours
    /// they logged), and the items read. A firm's lawyers are a few hundred
    /// at most, so each list is one page of a Query (up to 1 MB); the two
    /// go at once, beside whatever else the caller reads.
    pub async fn lawyer_names(&self) -> Result<(HashMap<String, String>, u64), ApiError> {
        let [internal, external] = [UserSubType::Internal, UserSubType::External].map(|k| keys::staff::list_gsi1pk(Role::Lawyer, Some(k)));
        let ((a, a_read), (b, b_read)) = tokio::try_join!(self.staff_names_of(&internal), self.staff_names_of(&external))?;
        Ok((a.into_iter().chain(b).collect(), a_read + b_read))
    }

    async fn staff_names_of(&self, partition: &str) -> Result<(Vec<(String, String)>, u64), ApiError> {
        let items = self.query_all(self.staff_list(partition).projection_expression("uid, first_name, last_name")).await?;
        let text = |item: &Item, a: &str| item.get(a).and_then(|v| v.as_s().ok()).map(|t| t.trim().to_string()).unwrap_or_default();
        // As `User::full_name` writes it.
        let names = items
            .iter()
            .filter(|i| !text(i, "uid").is_empty())
            .map(|i| (text(i, "uid"), format!("{} {}", text(i, "first_name"), text(i, "last_name")).trim().to_string()))
            .collect();
        Ok((names, items.len() as u64))
    }
}

/// The item that makes `user`'s address belong to it (as `store::users`
/// writes it for every account).
fn email_item(user: &User) -> Item {
    keys::email::item(&user.email).with([("entity", s("email")), ("user_uid", s(&user.uid))])
}

fn attribute<T: Serialize>(v: &T) -> Result<AttributeValue, ApiError> {
    serde_dynamo::to_attribute_value(v).map_err(ApiError::internal)
}

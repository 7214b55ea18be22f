//! Users and their e-mail uniqueness items.

use crate::error::Msg;

use super::tx::{Cond, Tx};
use super::{hex, keys, s, sdk_err, unhex, Item, Store};
use crate::domain::User;
use crate::error::ApiError;
use std::collections::HashMap;

/// Contacts per page (spec §9: lists fetch 10 items, newest first).
pub const CONTACTS_PAGE: i32 = 10;

/// One page of a customer's contacts and the cursor of the next page.
pub struct ContactPage {
    pub contacts: Vec<User>,
    pub next: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum CreateUserError {
    #[error("e-mail already exists")]
    EmailTaken,
    #[error(transparent)]
    Other(#[from] ApiError),
}

pub(crate) fn to_item(user: &User) -> Result<Item, ApiError> {
    let mut item: Item = serde_dynamo::to_item(user).map_err(ApiError::internal)?;
    let role = user.role().map(|r| r.as_str()).unwrap_or("none");
    keys::user::item(&user.uid).stamp(&mut item);
    item.insert("entity".into(), s("user"));
    keys::IndexKey::gsi1(keys::user::role_gsi1pk(role), format!("{}#{}", user.created_at.to_rfc3339(), user.uid)).stamp(&mut item);
    // A customer's contacts, newest first (GSI2 keeps the role list on GSI1 intact).
    if crate::domain::policy::is(user, crate::domain::Role::CustomerContact) {
        if let Some(customer) = &user.customer_id {
            keys::IndexKey::gsi2(keys::user::contacts_gsi2pk(customer), keys::created_sk(user.created_at, &user.uid)).stamp(&mut item);
        }
    }
    Ok(item)
}

pub(crate) fn from_item(item: Item) -> Result<User, ApiError> {
    serde_dynamo::from_item(item).map_err(ApiError::internal)
}

/// The item that makes `email` (normalized) belong to the user `uid`.
fn email_item(email: &str, uid: &str) -> Item {
    keys::email::item(email).with([("entity", s("email")), ("user_uid", s(uid))])
}

impl Store {
    /// Adds a new user and its e-mail item to `tx`, each only if new: the
    /// transaction commits only while the address (in any letter case) is
    /// free, so an address belongs to one account even under concurrent
    /// sign-ups.
    pub fn add_new_user(&self, tx: &mut Tx, user: &User) -> Result<(), ApiError> {
        tx.put_new(to_item(user)?)?;
        tx.put_new(email_item(&user.email, &user.uid))
    }

    /// Adds the rewrite of an existing user to `tx` (same uid; the e-mail
    /// item moves with [`Store::add_email_move`]).
    pub fn add_user_put(&self, tx: &mut Tx, user: &User) -> Result<(), ApiError> {
        tx.put_if(to_item(user)?, Some(Cond::present()))
    }

    /// Adds the move of `uid`'s e-mail item from `old` to `new` to `tx`: the
    /// old address is freed and the new one claimed only if nobody holds it.
    pub fn add_email_move(&self, tx: &mut Tx, uid: &str, old: &str, new: &str) -> Result<(), ApiError> {
        tx.delete(&keys::email::item(old), None)?;
        tx.put_new(email_item(new, uid))
    }

    /// The uid holding an address (normalized), read consistently: the answer
    /// decides whether a write may claim it, or why a claim failed.
    pub async fn email_owner(&self, normalized_email: &str) -> Result<Option<String>, ApiError> {
        Ok(self
            .get_consistent(&keys::email::item(normalized_email))
            .await?
            .and_then(|i| i.get("user_uid").and_then(|v| v.as_s().ok()).cloned()))
    }

    /// The user (consistent read), before a change that rewrites it.
    pub async fn get_user_latest(&self, uid: &str) -> Result<Option<User>, ApiError> {
        self.get_consistent(&keys::user::item(uid)).await?.map(from_item).transpose()
    }

    pub async fn get_user(&self, uid: &str) -> Result<Option<User>, ApiError> {
        self.get(&keys::user::item(uid)).await?.map(from_item).transpose()
    }

    /// Users by uid (absent ones left out): one BatchGetItem per 100.
    pub async fn get_users(&self, uids: &[String]) -> Result<HashMap<String, User>, ApiError> {
        let keys: Vec<keys::Key> = uids.iter().map(|u| keys::user::item(u)).collect();
        let mut out = HashMap::new();
        for item in self.batch_get(&keys).await? {
            let u = from_item(item)?;
            out.insert(u.uid.clone(), u);
        }
        Ok(out)
    }

    /// What authenticating a request needs, in one strongly consistent
    /// BatchGetItem instead of a GetItem each: the user, and whether the
    /// sign-in (refresh family) `fam` is still live (always, without one).
    /// Strongly consistent: a revoked sign-in, a deactivated user or a new
    /// token version counts from the next request on.
    pub async fn session_of(&self, uid: &str, fam: Option<&str>) -> Result<(Option<User>, bool), ApiError> {
        let user_key = keys::user::item(uid);
        let fam_key = fam.map(keys::refresh_family::item);
        let wanted: Vec<keys::Key> = std::iter::once(user_key.clone()).chain(fam_key.clone()).collect();
        let (mut user, mut live) = (None, fam.is_none());
        for item in self.batch_get_latest(&wanted).await? {
            let key = keys::Key::of(&item);
            if key.as_ref() == Some(&user_key) {
                user = Some(from_item(item)?);
            } else if key.is_some() && key == fam_key {
                live = item.get("revoked").and_then(|v| v.as_bool().ok()).copied() == Some(false);
            }
        }
        Ok((user, live))
    }

    /// Two GetItems: the e-mail item, then the user it points to.
    pub async fn find_user_by_email(&self, normalized_email: &str) -> Result<Option<User>, ApiError> {
        let Some(item) = self.get(&keys::email::item(normalized_email)).await? else { return Ok(None) };
        let uid = item.get("user_uid").and_then(|v| v.as_s().ok()).ok_or_else(|| ApiError::internal("e-mail item without user"))?;
        self.get_user(uid).await
    }

    /// Replaces the stored user (same uid and e-mail).
    pub async fn put_user(&self, user: &User) -> Result<(), ApiError> {
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(to_item(user)?))
            .condition_expression("attribute_exists(PK)")
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(())
    }
}

impl Store {
    /// A customer's contacts, newest first, `CONTACTS_PAGE` at a time (Query
    /// GSI2 `CONTACTS#<customer uid>`, descending). `cursor` is the opaque
    /// `next` of the previous page; a malformed one is a 400.
    pub async fn list_contacts(&self, customer_uid: &str, cursor: Option<&str>) -> Result<ContactPage, ApiError> {
        // The cursor is the hex of the last item's GSI2SK, `<created_at>#<uid>`.
        let after = match cursor.filter(|c| !c.is_empty()) {
            Some(c) => {
                let sk = unhex(c).ok_or_else(|| ApiError::bad(Msg::InvalidCursor))?;
                sk.rsplit_once('#')
                    .filter(|(ts, uid)| !ts.is_empty() && !uid.is_empty())
                    .ok_or_else(|| ApiError::bad(Msg::InvalidCursor))?;
                Some(sk)
            }
            None => None,
        };
        let pk = keys::user::contacts_gsi2pk(customer_uid);
        let at = super::ListAt::gsi2(&pk);
        let round = self.round_after(&at, after.as_deref(), false, CONTACTS_PAGE, |q| q).await?;
        Ok(ContactPage { contacts: super::readable(round.items, from_item), next: round.stopped_at.map(|v| hex(&v)) })
    }
}

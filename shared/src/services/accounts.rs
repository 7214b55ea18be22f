//! Creating accounts: the one place a user is born (registration, staff
//! screens, contacts, seed data, tests), so every account gets the same
//! hashing, id and uniqueness rules.
//!
//! A use case builds the user with [`new_user`], adds it with [`add_account`]
//! to its own transaction beside what belongs to the account (a customer
//! profile, a registration number, conflict-index entries, an invitation
//! link), and commits once: the account exists with all of it or not at all.
//! The e-mail item in that transaction is what keeps an address to one
//! account; when a commit fails, [`email_taken`] tells whether that is why.

use chrono::Utc;

use super::retry::{self, Attempt};
use crate::auth::password;
use crate::domain::{normalize_email, user::IMAGE_NOT_SET, Role, User, UserSubType};
use crate::error::ApiError;
use crate::store::tx::Tx;
use crate::store::users::CreateUserError;
use crate::store::Store;

pub struct NewAccount<'a> {
    pub email: &'a str,
    pub password: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub role: Role,
    pub user_sub_type: Option<UserSubType>,
    pub customer_id: Option<String>,
    pub company_id: Option<String>,
    pub active: bool,
}

/// The user an account would be, not yet stored: the password hashed (off
/// the async workers), a new uid and the next human-readable id.
pub async fn new_user(store: &Store, new: NewAccount<'_>) -> Result<User, ApiError> {
    let uid = uuid::Uuid::new_v4().to_string();
    let password_hash = {
        let pw = new.password.to_string();
        tokio::task::spawn_blocking(move || password::hash(&pw)).await.map_err(ApiError::internal)?.map_err(ApiError::internal)?
    };
    let id = store.next_id("user").await?;
    let user = User {
        profile_id: (new.role != Role::Admin).then(|| uid.clone()),
        uid,
        id,
        email: normalize_email(new.email),
        password_hash,
        first_name: new.first_name.into(),
        last_name: new.last_name.into(),
        is_staff: new.role == Role::Admin,
        is_superuser: new.role == Role::Admin,
        user_type: new.role.user_type(),
        user_sub_type: new.user_sub_type,
        customer_id: new.customer_id,
        company_id: new.company_id,
        image: IMAGE_NOT_SET.into(),
        active: new.active,
        created_at: Utc::now(),
        two_factor: false,
        token_version: 0,
        phone: None,
        permissions: Vec::new(),
        permissions_rev: crate::domain::permissions::PERMISSIONS_REV,
        identity_number: None,
    };
    Ok(user)
}

/// Adds `user` and its e-mail item to `tx`: the transaction commits only
/// while the address (in any letter case) is free.
pub fn add_account(store: &Store, tx: &mut Tx, user: &User) -> Result<(), ApiError> {
    store.add_new_user(tx, user)
}

/// After a transaction holding [`add_account`] did not commit: whether
/// another account holds the address (then that is why), read consistently.
pub async fn email_taken(store: &Store, user: &User) -> Result<bool, ApiError> {
    Ok(store.email_owner(&user.email).await?.is_some_and(|owner| owner != user.uid))
}

/// Stores a built user as a new account (user and e-mail item in one
/// transaction); `EmailTaken` when the address belongs to another account.
pub async fn store_account(store: &Store, user: &User) -> Result<(), CreateUserError> {
    let stored = retry::until_done(|_| async {
        let mut tx = store.tx();
        add_account(store, &mut tx, user)?;
        if store.commit(tx).await? {
            return Ok(Attempt::Done(true));
        }
        // The uid is new, so the address is what a concurrent writer took;
        // anything else (a transaction conflict) is tried again.
        Ok(if email_taken(store, user).await? { Attempt::Done(false) } else { Attempt::Conflict })
    })
    .await?;
    if stored {
        Ok(())
    } else {
        Err(CreateUserError::EmailTaken)
    }
}

/// A plain account of its own (no profile): [`new_user`] then [`store_account`].
pub async fn create_account(store: &Store, new: NewAccount<'_>) -> Result<User, CreateUserError> {
    let user = new_user(store, new).await?;
    store_account(store, &user).await?;
    Ok(user)
}

//! Creating accounts: the one place a user is born (seed data, tests, and
//! later registration and staff screens), so every account gets the same
//! hashing, id and uniqueness rules.

use chrono::Utc;

use crate::auth::password;
use crate::domain::{normalize_email, user::IMAGE_NOT_SET, Role, User, UserSubType};
use crate::error::ApiError;
use aws_sdk_dynamodb::types::Put;

use crate::store::users::{CreateUserError, CreateUserWithError};
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

pub async fn create_account(store: &Store, new: NewAccount<'_>) -> Result<User, CreateUserError> {
    let user = new_user(store, new).await?;
    store.create_user(&user).await?;
    Ok(user)
}

/// Like [`create_account`], writing the items `extra` builds for the new user
/// in the same transaction (registration: customer profile and the
/// registration-number uniqueness item).
pub async fn create_account_with(
    store: &Store,
    new: NewAccount<'_>,
    extra: impl FnOnce(&User) -> Result<Vec<Put>, ApiError>,
) -> Result<User, CreateUserWithError> {
    let user = new_user(store, new).await?;
    let puts = extra(&user)?;
    store.create_user_with(&user, puts).await?;
    Ok(user)
}

/// The user `create_account` would store, not yet stored: callers that set
/// more fields (a contact's permissions) store it with `Store::create_user`,
/// still in one transaction with its e-mail item.
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
    };
    Ok(user)
}

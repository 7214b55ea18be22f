//! Business sectors (spec §3): the list the registration and customer
//! forms offer (public), kept by admin.

use crate::domain::customer::{check_sector_name, BusinessSector};
use crate::domain::policy::{self, Action};
use crate::domain::User;
use crate::error::ApiError;
use crate::services::retry::{self, Attempt};
use crate::services::Context;
use crate::store::idempotency::Once;

/// Every sector by name (the spec's list is written on the first read).
pub async fn list(ctx: &Context) -> Result<Vec<BusinessSector>, ApiError> {
    ctx.store.list_business_sectors().await
}

/// Adds a sector under the next free id (admin).
pub async fn create(ctx: &Context, caller: &User, name: &str, once: &Once) -> Result<BusinessSector, ApiError> {
    policy::require(caller, Action::ManageCatalogue)?;
    check_sector_name(name).check()?;
    // The seeded ids exist before new ones are numbered after them.
    ctx.store.list_business_sectors().await?;
    retry::until_done(|_| async {
        let id = ctx.store.next_business_sector_id().await?;
        let sector = BusinessSector { id, name: name.trim().to_string() };
        Ok(if ctx.store.create_business_sector_as(&sector.id, name, once, &sector).await? {
            Attempt::Done(sector)
        } else {
            Attempt::Conflict
        })
    })
    .await
}

/// Renames a sector (admin); 404 when there is none with `id`.
pub async fn rename(ctx: &Context, caller: &User, id: &str, name: &str) -> Result<BusinessSector, ApiError> {
    policy::require(caller, Action::ManageCatalogue)?;
    check_sector_name(name).check()?;
    if !ctx.store.update_business_sector(id, name).await? {
        return Err(ApiError::NotFound);
    }
    Ok(BusinessSector { id: id.to_string(), name: name.trim().to_string() })
}

/// Deletes a sector (admin); 404 when there is none with `id`. Customers
/// keep the name they registered with.
pub async fn delete(ctx: &Context, caller: &User, id: &str) -> Result<(), ApiError> {
    policy::require(caller, Action::ManageCatalogue)?;
    if !ctx.store.delete_business_sector(id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(())
}

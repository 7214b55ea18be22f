//! Customers kept by staff (admin and sales persons): create and update.

use chrono::Utc;

use super::base::{load, refused, taken, try_saved};
use crate::domain::audit::{AuditAction, AuditEvent};
use crate::domain::customer::{check_customer_form, CustomerForm, CustomerProfile, SectorRef};
use crate::domain::policy::{self, Action};
use crate::domain::{normalize_email, Role, User};
use crate::error::{ApiError, Msg};
use crate::services::accounts::{self, NewAccount};
use crate::services::credentials::passwords;
use crate::services::retry::{self, Attempt};
use crate::services::Context;
use crate::store::catalogue::NamedKind;
use crate::store::idempotency::Once;

/// Every rule of the staff form, with the stored data it needs; `own` is
/// the customer being updated (its own e-mail and number are not "taken").
/// The lookups run side by side; knowledge sectors are read with one Query.
/// Returns the looked-up business sector.
async fn check(ctx: &Context, f: &CustomerForm, own: Option<&str>) -> Result<Option<SectorRef>, ApiError> {
    let mut errors = check_customer_form(f);
    let company = f.is_company();
    let email = (!errors.has("email")).then(|| normalize_email(&f.email));
    let regno = (company && !errors.has("company_registration_number")).then(|| f.company_registration_number.trim());
    let sector_id = f.sector.trim();
    let knowledge_sectors = f.knowledge_sector_ids();
    let check_sectors = !errors.has("knowledge_sectors") && !knowledge_sectors.is_empty();
    let (refusals, sector, manager, department, known_sectors) = tokio::try_join!(
        taken(ctx, email.as_deref(), regno, own),
        async {
            if company && !sector_id.is_empty() && !errors.has("sector") {
                ctx.store.get_business_sector(sector_id).await.map(Some)
            } else {
                Ok(None)
            }
        },
        async {
            match f.account_manager_uid() {
                Some(m) if m.contains('#') => Ok(Some(None)),
                Some(m) => ctx.store.get_user(m).await.map(Some),
                None => Ok(None),
            }
        },
        async {
            match f.department {
                Some(dep) => ctx.store.get_named(NamedKind::Department, dep).await.map(Some),
                None => Ok(None),
            }
        },
        async {
            if check_sectors {
                ctx.store.list_named(NamedKind::KnowledgeSector).await
            } else {
                Ok(Vec::new())
            }
        },
    )?;
    for (field, key) in refusals {
        errors.add(field, key);
    }
    if let Some(None) = &sector {
        errors.add("sector", Msg::InvalidSector);
    }
    if manager.is_some_and(|m: Option<User>| !m.is_some_and(|u| crate::domain::policy::is(&u, Role::SalesPerson))) {
        errors.add("account_manager", Msg::InvalidAccountManager);
    }
    if department.is_some_and(|d| d.is_none()) {
        errors.add("department", Msg::InvalidDepartment);
    }
    if check_sectors && !knowledge_sectors.iter().all(|id| known_sectors.iter().any(|k| k.id == *id)) {
        errors.add("knowledge_sectors", Msg::InvalidKnowledgeSector);
    }
    errors.check()?;
    Ok(sector.flatten().map(|s| SectorRef { id: s.id, name: s.name }))
}

/// Admin or sales person creates a customer: active at once (no approval),
/// no password (the set-password invitation is mailed), no terms (the
/// customer accepts those when self-registering only). User, e-mail item,
/// profile, registration number, department link, the invitation link and
/// the conflict-index entries are one transaction; the mail goes out after.
pub async fn create(ctx: &Context, caller: &User, f: CustomerForm, once: &Once) -> Result<CustomerProfile, ApiError> {
    policy::require(caller, Action::ManageCustomers)?;
    let sector = check(ctx, &f, None).await?;
    // The first invitation counts against the recipient's mail limit too.
    crate::services::credentials::limit_mail_to(ctx, &f.email).await?;
    // A random password nobody knows until the invitation sets one.
    let placeholder = format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple());
    let user = accounts::new_user(
        &ctx.store,
        NewAccount {
            email: &f.email,
            password: &placeholder,
            first_name: f.first_name.trim(),
            last_name: f.last_name.trim(),
            role: Role::Customer,
            user_sub_type: None,
            customer_id: None,
            company_id: None,
            active: true,
        },
    )
    .await?;
    let mut profile = CustomerProfile::made_by_staff(&user, Utc::now());
    f.apply(&mut profile, sector);
    let invitation = retry::until_done(|_| async {
        let mut tx = ctx.store.tx();
        accounts::add_account(&ctx.store, &mut tx, &user)?;
        ctx.store.add_new_profile(&mut tx, &profile)?;
        if let Some(n) = profile.registration_number() {
            ctx.store.add_registration_number(&mut tx, n, &user.uid)?;
        }
        if let Some(dep) = profile.department_id {
            ctx.store.add_department_link(&mut tx, &user.uid, dep)?;
        }
        let invitation = passwords::add_invitation(ctx, &mut tx, &user)?;
        once.record(&mut tx, &profile)?;
        let event = AuditEvent::by(caller, AuditAction::CustomerChanged).customer(Some(&user.uid)).subject(&user.uid).detail("created");
        crate::services::audit::add_to(&mut tx, &event)?;
        match try_saved(ctx, tx, &profile, invitation).await? {
            Attempt::Conflict => refused(ctx, &user.email, profile.registration_number(), None).await,
            done => Ok(done),
        }
    })
    .await?;
    // Best effort: the customer is stored; a refused mail is left to the sweep.
    passwords::mail_invitation(ctx, &user, &invitation).await?;
    Ok(profile)
}

/// Admin or sales person updates a customer (any state; the state itself is
/// changed by approve/activate/deactivate). User and profile are rewritten
/// in one transaction with, when they changed, the e-mail item and the
/// registration-number item moved (the old number only if it is the
/// customer's), the department link and the conflict-index entries.
pub async fn update(ctx: &Context, caller: &User, uid: &str, f: CustomerForm) -> Result<CustomerProfile, ApiError> {
    policy::require(caller, Action::ManageCustomers)?;
    retry::until_done(|_| async {
        let (mut user, mut profile) = load(ctx, uid).await?;
        let sector = check(ctx, &f, Some(uid)).await?;
        let before = serde_json::to_value(&profile).map_err(ApiError::internal)?;
        let old_email = user.email.clone();
        let old_regno = profile.registration_number().map(String::from);
        f.apply(&mut profile, sector);
        user.first_name = f.first_name.trim().to_string();
        user.last_name = f.last_name.trim().to_string();
        user.email = normalize_email(&f.email);
        profile.copy_user(&user);
        let new_regno = profile.registration_number();

        let mut tx = ctx.store.tx();
        ctx.store.add_user_put(&mut tx, &user)?;
        ctx.store.add_profile_put(&mut tx, &profile)?;
        if user.email != old_email {
            ctx.store.add_email_move(&mut tx, uid, &old_email, &user.email)?;
        }
        if new_regno != old_regno.as_deref() {
            if let Some(old) = &old_regno {
                ctx.store.add_registration_number_release(&mut tx, old, uid)?;
            }
            if let Some(new) = new_regno {
                ctx.store.add_registration_number(&mut tx, new, uid)?;
            }
        }
        if let Some(dep) = profile.department_id {
            ctx.store.add_department_link(&mut tx, uid, dep)?;
        }
        let after = serde_json::to_value(&profile).map_err(ApiError::internal)?;
        let fields = changed_fields(&before, &after);
        // A form sent again unchanged (a retry) changes nothing: no second event.
        if !fields.is_empty() {
            let event = AuditEvent::by(caller, AuditAction::CustomerChanged).customer(Some(uid)).subject(uid).detail(fields);
            crate::services::audit::add_to(&mut tx, &event)?;
        }
        match try_saved(ctx, tx, &profile, profile.clone()).await? {
            Attempt::Conflict => refused(ctx, &user.email, new_regno, Some(uid)).await,
            done => Ok(done),
        }
    })
    .await
}

/// The names of the fields that differ (the trail says what changed, not
/// the values: they are personal data, and the record holds them anyway).
fn changed_fields(before: &serde_json::Value, after: &serde_json::Value) -> String {
    let empty = serde_json::Map::new();
    let (b, a) = (before.as_object().unwrap_or(&empty), after.as_object().unwrap_or(&empty));
    let mut names: Vec<&str> =
        a.keys().chain(b.keys()).map(String::as_str).filter(|k| !["updated_at", "search"].contains(k) && b.get(*k) != a.get(*k)).collect();
    names.sort_unstable();
    names.dedup();
    names.join(", ")
}

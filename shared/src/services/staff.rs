//! Lawyers and sales persons (spec §2 admin routes, §3, §6): only admin
//! creates, edits and lists them; each new account gets a single-use link by
//! mail to choose its password. Lists read one index partition each, newest
//! first.

use serde::Serialize;
use utoipa::ToSchema;

use super::accounts::{new_user, NewAccount};
use super::credentials::passwords::{add_invitation, mail_invitation, send_invitation};
use super::retry::{self, Attempt};
use super::Context;
use crate::domain::catalogue::NamedKind;
use crate::domain::policy::{self, Action};
use crate::domain::staff::{list_cursor, LawyerDetails, StaffFields, StaffInput};
use crate::domain::{Role, User, UserSubType};
use crate::error::{ApiError, FieldErrors, Msg};
use crate::store::idempotency::Once;
use crate::store::keys::staff::list_gsi1pk;
/// What the staff use cases answer with.
pub use crate::store::staff::{StaffPage, StaffProfile};

/// Lists fetch 10 items (spec §9).
pub const PAGE_SIZE: i32 = 10;
/// Dropdowns show at most this many names.
pub const DROPDOWN_LIMIT: usize = 20;

/// A lawyer in the lawyer dropdown.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct LawyerOption {
    pub uid: String,
    pub full_name: String,
    pub user_sub_type: Option<UserSubType>,
}

/// The roles this module keeps.
fn staff_role(role: Role) -> Result<Role, ApiError> {
    match role {
        Role::Lawyer | Role::SalesPerson => Ok(role),
        other => Err(ApiError::internal(format!("{other:?} is not a staff role"))),
    }
}

/// The form's rules, then that every chosen knowledge sector exists (one
/// read of the sector list).
async fn checked(ctx: &Context, input: &StaffInput, role: Role) -> Result<StaffFields, ApiError> {
    let fields = input.validate(role)?;
    if let Some(lawyer) = &fields.lawyer {
        if !super::catalogue::all_exist(ctx, NamedKind::KnowledgeSector, &lawyer.knowledge_sectors).await? {
            return Err(ApiError::field("knowledge_sectors", Msg::UnknownKnowledgeSector));
        }
    }
    Ok(fields)
}

/// Create a lawyer or a sales person (admin): the user, its e-mail item, its
/// profile and its set-password link in one transaction (no account without
/// its link, no link without its account), then the mail with the link. A
/// stop before the mail leaves an account whose link admin sends again
/// ([`send_password_link`]).
pub async fn create(ctx: &Context, caller: &User, role: Role, input: StaffInput, once: &Once) -> Result<StaffProfile, ApiError> {
    policy::require(caller, Action::ManageStaff)?;
    let role = staff_role(role)?;
    let fields = checked(ctx, &input, role).await?;
    super::throttle::invitation(ctx, caller).await?;
    // Nobody knows this password: the owner chooses one through the mailed link.
    let unusable = format!("{}{}", uuid::Uuid::new_v4(), uuid::Uuid::new_v4());
    let user = new_user(
        &ctx.store,
        NewAccount {
            email: &fields.email,
            password: &unusable,
            first_name: &fields.first_name,
            last_name: &fields.last_name,
            role,
            user_sub_type: fields.lawyer.as_ref().map(|l| l.user_sub_type),
            customer_id: None,
            company_id: None,
            active: true,
        },
    )
    .await?;
    let profile = StaffProfile::of(&user, role, fields.lawyer);
    let invitation = retry::until_done(|_| async {
        let mut tx = ctx.store.tx();
        ctx.store.add_new_staff(&mut tx, &user, &profile)?;
        let invitation = add_invitation(ctx, &mut tx, &user)?;
        once.record(&mut tx, &profile)?;
        ctx.faults.check("staff.before_commit")?;
        if ctx.store.commit(tx).await? {
            return Ok(Attempt::Done(invitation));
        }
        // The uid is new, so only the address can be taken; otherwise a
        // concurrent transaction touched the same items: try again.
        if ctx.store.find_user_by_email(&user.email).await?.is_some() {
            return Err(ApiError::BadRequest { message: Msg::EmailExists, fields: FieldErrors::of("email", Msg::EmailExists) });
        }
        Ok(Attempt::Conflict)
    })
    .await?;
    // The first invitation counts against the recipient's mail limit (only
    // once the account exists: a refused create mails nothing). The account
    // is stored, so a full limit (others' recovery requests for the address
    // count too) neither fails the create nor holds back its one invitation.
    if let Err(e) = crate::services::credentials::limit_mail_to(ctx, &user.email).await {
        tracing::warn!(error = %e.key().as_str(), "a new account's invitation not counted against the recipient's mail limit: sent anyway");
    }
    // Best effort: the account is stored; a refused mail is left to the sweep.
    mail_invitation(ctx, &user, &invitation).await?;
    Ok(profile)
}

/// Edit a lawyer or a sales person (admin). The e-mail is the sign-in name
/// and has its own uniqueness item: it stays as it is, whatever the form sends.
pub async fn update(ctx: &Context, caller: &User, role: Role, uid: &str, input: StaffInput) -> Result<StaffProfile, ApiError> {
    policy::require(caller, Action::ManageStaff)?;
    let role = staff_role(role)?;
    let user = ctx.store.get_user(uid).await?.filter(|u| policy::is(u, role)).ok_or(ApiError::NotFound)?;
    let mut profile = ctx.store.get_staff(uid).await?.ok_or(ApiError::NotFound)?;
    let input = StaffInput { email: user.email.clone(), ..input };
    let fields = checked(ctx, &input, role).await?;
    profile.first_name = fields.first_name;
    profile.last_name = fields.last_name;
    profile.lawyer = fields.lawyer;
    profile.active = user.active;
    retry::until_done(|_| async {
        let mut tx = ctx.store.tx();
        ctx.store.add_staff_update(&mut tx, &profile)?;
        // Conditions only ask that both items still exist.
        Ok(if ctx.store.commit(tx).await? { Attempt::Done(()) } else { Attempt::Conflict })
    })
    .await?;
    Ok(profile)
}

/// Gives an existing lawyer or sales person user (seed data) its staff
/// profile, so it is listed and offered like any staff member. Idempotent:
/// a user that has a profile keeps it (`Ok(false)`).
pub async fn seed_profile(ctx: &Context, user: &User, lawyer: Option<LawyerDetails>) -> Result<bool, ApiError> {
    let role = [Role::Lawyer, Role::SalesPerson].into_iter().find(|r| policy::is(user, *r)).ok_or(ApiError::NotFound)?;
    let profile = StaffProfile::of(user, role, lawyer);
    retry::until_done(|_| async {
        if ctx.store.get_staff(&user.uid).await?.is_some() {
            return Ok(Attempt::Done(false));
        }
        let mut tx = ctx.store.tx();
        tx.put_new(crate::store::staff::staff_item(&profile)?)?;
        Ok(if ctx.store.commit(tx).await? { Attempt::Done(true) } else { Attempt::Conflict })
    })
    .await
}

/// One lawyer or sales person (admin); another role's uid is not found.
pub async fn get(ctx: &Context, caller: &User, role: Role, uid: &str) -> Result<StaffProfile, ApiError> {
    policy::require(caller, Action::ManageStaff)?;
    ctx.store.get_staff(uid).await?.filter(|p| p.role == role).ok_or(ApiError::NotFound)
}

/// A page of lawyers of one kind (internal by default) or of sales persons,
/// newest first (admin). `cursor` is the previous page's `next`.
pub async fn list(
    ctx: &Context,
    caller: &User,
    role: Role,
    kind: Option<UserSubType>,
    cursor: Option<&str>,
) -> Result<StaffPage, ApiError> {
    policy::require(caller, Action::ManageStaff)?;
    let cursor = list_cursor(cursor)?;
    let partition = match staff_role(role)? {
        Role::Lawyer => list_gsi1pk(Role::Lawyer, kind),
        other => list_gsi1pk(other, None),
    };
    ctx.store.list_staff(&partition, PAGE_SIZE, cursor).await
}

/// Active lawyers whose name or e-mail contains `search`, by name, at most
/// [`DROPDOWN_LIMIT`] (admin, sales persons and lawyers pick a lawyer for a case).
pub async fn lawyer_dropdown(ctx: &Context, caller: &User, search: &str) -> Result<Vec<LawyerOption>, ApiError> {
    policy::require(caller, Action::PickLawyer)?;
    let needle = search.trim().to_lowercase();
    let mut out = Vec::new();
    for kind in [UserSubType::Internal, UserSubType::External] {
        // Lawyers are a firm's staff: a few hundred at most, read page by page.
        let partition = list_gsi1pk(Role::Lawyer, Some(kind));
        let mut cursor: Option<String> = None;
        loop {
            let page = ctx.store.list_staff(&partition, 100, cursor.as_deref()).await?;
            for l in page.results.into_iter().filter(|l| l.active) {
                let name = format!("{} {}", l.first_name, l.last_name);
                if needle.is_empty() || name.to_lowercase().contains(&needle) || l.email.contains(&needle) {
                    out.push(LawyerOption { uid: l.uid, full_name: name, user_sub_type: Some(kind) });
                }
            }
            match page.next {
                Some(n) if out.len() < DROPDOWN_LIMIT => cursor = Some(n),
                _ => break,
            }
        }
    }
    out.sort_by_key(|a| a.full_name.to_lowercase());
    out.truncate(DROPDOWN_LIMIT);
    Ok(out)
}

/// The company affiliations lawyers have (spec §3 "company affiliation"),
/// distinct, sorted, filtered by `search` (admin: the lawyer form suggests
/// them, so one firm is spelt one way).
pub async fn company_affiliations(ctx: &Context, caller: &User, search: &str) -> Result<Vec<String>, ApiError> {
    policy::require(caller, Action::ManageStaff)?;
    let needle = search.trim().to_lowercase();
    let mut out = std::collections::BTreeMap::new();
    for kind in [UserSubType::Internal, UserSubType::External] {
        // A firm's lawyers: a few hundred at most, read page by page.
        let partition = list_gsi1pk(Role::Lawyer, Some(kind));
        let mut cursor: Option<String> = None;
        loop {
            let page = ctx.store.list_staff(&partition, 100, cursor.as_deref()).await?;
            for a in page.results.into_iter().filter_map(|l| l.lawyer.and_then(|d| d.company_affiliation)) {
                let folded = a.trim().to_lowercase();
                if !folded.is_empty() && folded.contains(&needle) {
                    out.entry(folded).or_insert_with(|| a.trim().to_string());
                }
            }
            match page.next {
                Some(n) => cursor = Some(n),
                None => break,
            }
        }
    }
    Ok(out.into_values().collect())
}

/// Mail a lawyer or sales person a new set-password link (admin), e.g. when
/// the first one expired. Earlier links stay single-use and expire on their own.
pub async fn send_password_link(ctx: &Context, caller: &User, uid: &str) -> Result<(), ApiError> {
    policy::require(caller, Action::ManageStaff)?;
    let user = ctx.store.get_user(uid).await?.filter(policy::is_staff_person).ok_or(ApiError::NotFound)?;
    send_invitation(ctx, &user).await
}

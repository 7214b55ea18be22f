//! Reading customers: the lists by state, the pickers, the details modal,
//! the account-manager choices and the admin's entity counts.

use serde::Serialize;
use utoipa::ToSchema;

use super::base::load;
use crate::domain::case::CaseStatus;
use crate::domain::catalogue::NamedEntry;
use crate::domain::customer::{list_state, CustomerProfile, CustomerState, CustomerType};
use crate::domain::policy::{self, Action};
use crate::domain::{Role, User};
use crate::error::ApiError;
use crate::services::Context;
use crate::store::catalogue::NamedKind;
use crate::store::customers::CustomerPage;
use crate::store::keys;
use crate::store::staff::StaffProfile;

/// Lists fetch 10 items, newest first (spec §9).
pub const PAGE_SIZE: usize = 10;
/// Dropdowns show at most this many options.
pub const DROPDOWN_SIZE: usize = 20;
/// Pages a dropdown reads at most to fill its options.
const DROPDOWN_PAGES: usize = 10;

/// Customers in one state (`status`: pending, active, inactive or all;
/// active when absent), newest first, 10 per page. With `search`, those
/// with a word (name, company name, e-mail, registration number) beginning
/// with each word of it, through the customer search index
/// ([`crate::store::customer_search`]: bounded reads whatever the number of
/// customers), in the order of the matched word, each page newest first. Admin sees every list;
/// sales persons all, active and inactive; lawyers active and inactive.
pub async fn list(
    ctx: &Context,
    caller: &User,
    status: Option<&str>,
    cursor: Option<&str>,
    search: Option<&str>,
) -> Result<CustomerPage, ApiError> {
    policy::require(caller, Action::ReadCustomers)?;
    let state = list_state(status).map_err(|key| ApiError::field("status", key))?;
    policy::require(caller, Action::ListCustomers { state })?;
    let cursor = cursor.filter(|c| !c.is_empty());
    if let Some(q) = search.map(str::trim).filter(|q| !q.is_empty()) {
        let page = ctx.store.search_customers(state, q, cursor, PAGE_SIZE, false).await?;
        return Ok(CustomerPage { results: newest_first(page.results), next: page.next });
    }
    match state {
        Some(state) => ctx.store.list_customers(state, cursor, search, PAGE_SIZE).await,
        None => ctx.store.list_all_customers(cursor, search, PAGE_SIZE).await,
    }
}

/// Active customers matching `search` (a word of the name, company,
/// e-mail or registration number beginning with each word of it, through
/// the customer search index) for pickers, at most [`DROPDOWN_SIZE`];
/// `companies_only` for the company dropdown. Without a search, pages of the
/// active list until enough are found (bounded). A search too short to read
/// a bounded range (one letter) offers nothing yet.
pub async fn dropdown(ctx: &Context, caller: &User, search: Option<&str>, companies_only: bool) -> Result<Vec<CustomerProfile>, ApiError> {
    policy::require(caller, Action::ReadCustomers)?;
    if let Some(q) = search.map(str::trim).filter(|q| !q.is_empty()) {
        if crate::store::customer_search::query_words(q).is_err() {
            return Ok(Vec::new());
        }
        let page = ctx.store.search_customers(Some(CustomerState::Active), q, None, DROPDOWN_SIZE, companies_only).await?;
        return Ok(page.results);
    }
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..DROPDOWN_PAGES {
        let page = ctx.store.list_customers(CustomerState::Active, cursor.as_deref(), search, DROPDOWN_SIZE).await?;
        out.extend(page.results.into_iter().filter(|p| !companies_only || p.customer_type == CustomerType::Company));
        if out.len() >= DROPDOWN_SIZE || page.next.is_none() {
            break;
        }
        cursor = page.next;
    }
    out.truncate(DROPDOWN_SIZE);
    Ok(out)
}

/// A page's profiles newest first (a search page comes in word order).
fn newest_first(mut results: Vec<CustomerProfile>) -> Vec<CustomerProfile> {
    results.sort_by(|a, b| b.created_at.cmp(&a.created_at).then_with(|| b.uid.cmp(&a.uid)));
    results
}

/// Active sales persons, for the customer form's account-manager select
/// (admin, sales persons). Reads the sales-person list a page of 100 at a
/// time (a firm has a handful; bounded).
pub async fn account_managers(ctx: &Context, caller: &User) -> Result<Vec<StaffProfile>, ApiError> {
    policy::require(caller, Action::ManageCustomers)?;
    let partition = keys::staff::list_gsi1pk(Role::SalesPerson, None);
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..10 {
        let page = ctx.store.list_staff(&partition, 100, cursor.as_deref()).await?;
        out.extend(page.results.into_iter().filter(|p| p.active));
        match page.next {
            Some(n) => cursor = Some(n),
            None => break,
        }
    }
    Ok(out)
}

/// A person shown by name (the account manager).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PersonRef {
    pub uid: String,
    pub first_name: String,
    pub last_name: String,
}

/// The spec §3 Customer object for the details modal and the edit form.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct CustomerDetails {
    #[serde(flatten)]
    pub profile: CustomerProfile,
    /// The user's profile image (S3 key) or 'not set'.
    pub image: String,
    pub active: bool,
    pub account_manager: Option<PersonRef>,
    pub department: Option<NamedEntry>,
    /// Names of `knowledge_sectors`, same order.
    pub knowledge_sector_names: Vec<String>,
}

/// The full customer (admin, sales persons, lawyers). The knowledge
/// sectors' names come from one read of their list.
pub async fn details(ctx: &Context, caller: &User, uid: &str) -> Result<CustomerDetails, ApiError> {
    policy::require(caller, Action::ReadCustomers)?;
    let (user, profile) = load(ctx, uid).await?;
    let event =
        crate::domain::audit::AuditEvent::by(caller, crate::domain::audit::AuditAction::CustomerViewed).customer(Some(uid)).subject(uid);
    crate::services::audit::record(ctx, event).await;
    let (manager, department, sectors) = tokio::try_join!(
        async {
            match profile.account_manager_uid.as_deref() {
                Some(m) => ctx.store.get_user(m).await,
                None => Ok(None),
            }
        },
        async {
            match profile.department_id {
                Some(d) => ctx.store.get_named(NamedKind::Department, d).await,
                None => Ok(None),
            }
        },
        async {
            if profile.knowledge_sectors.is_empty() {
                Ok(Vec::new())
            } else {
                ctx.store.list_named(NamedKind::KnowledgeSector).await
            }
        },
    )?;
    let knowledge_sector_names =
        profile.knowledge_sectors.iter().filter_map(|id| sectors.iter().find(|k| k.id == *id).map(|k| k.name.clone())).collect();
    Ok(CustomerDetails {
        image: user.image,
        active: user.active,
        account_manager: manager.map(|u| PersonRef { uid: u.uid, first_name: u.first_name, last_name: u.last_name }),
        department,
        knowledge_sector_names,
        profile,
    })
}

/// The spec §3 entity counts behind the admin menu's badges.
pub struct EntityCounts {
    /// Cases waiting for admin to verify them (drafts).
    pub pending_cases: u64,
    /// Pending customers not yet approved.
    pub pending_customers: u64,
}

/// The entity counts (admin).
pub async fn counts(ctx: &Context, caller: &User) -> Result<EntityCounts, ApiError> {
    policy::require(caller, Action::AdministerAccounts)?;
    let pending = keys::case::state_gsi1pk(CaseStatus::Draft);
    let (cases, customers) = tokio::try_join!(ctx.store.count_gsi1(&pending), ctx.store.count_customers_awaiting_approval())?;
    Ok(EntityCounts { pending_cases: cases, pending_customers: customers })
}

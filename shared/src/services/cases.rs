//! Cases (spec §3, §4, §6): opening a case by every route that may, its
//! details with what the caller may do, edits, the status lifecycle, the
//! per-role lists, history, notes, and the customer picker of the case form.
//!
//! Every change of a case is one transaction: the case over the revision it
//! was read at, its history entries, the lawyer's pointer, and the effects
//! of its [`Event`] (the counterpart's conflict-index entries, …). A
//! concurrent change makes the transaction fail; the use case then reads
//! and decides again ([`retry::until_done`]).

use chrono::Utc;
use serde::Serialize;
use utoipa::ToSchema;

use super::events::{self, Event};
use super::retry::{self, Attempt};
use super::Context;
use crate::domain::audit::{AuditAction, AuditEvent};
use crate::domain::case::{self, Case, CaseForm, CaseStatus, CaseType, CaseView, CreateVia, HistoryEntry, ListOrder, Transition};
use crate::domain::customer::CustomerState;
use crate::domain::policy::{self, Action};
use crate::domain::subscription::whole_seconds;
use crate::domain::{Role, User};
use crate::error::{ApiError, Msg};
use crate::store::cases::StoredCase;
use crate::store::catalogue::NamedKind;
use crate::store::idempotency::Once;

/// The case `user` may see, as stored now (404 for anyone who may not see it).
pub(crate) async fn visible(ctx: &Context, user: &User, uid: &str) -> Result<Case, ApiError> {
    let stored = ctx.store.get_case(uid.trim()).await?.ok_or(ApiError::NotFound)?;
    policy::require(user, Action::ViewCase(&stored.case))?;
    Ok(stored.case)
}

/// Like [`visible`], read consistently with its revision, for a change
/// (409 `case_on_legal_hold` for a frozen case).
pub(crate) async fn visible_for_write(ctx: &Context, user: &User, uid: &str) -> Result<StoredCase, ApiError> {
    let stored = ctx.store.get_case_for_write(uid.trim()).await?.ok_or(ApiError::NotFound)?;
    policy::require(user, Action::ViewCase(&stored.case))?;
    // A case kept under legal hold after its customer was erased is frozen.
    super::erasure::writable(&stored.case)?;
    Ok(stored)
}

/// Writes `next` over `prev` (None: a new case) with its history and the
/// effects of `event`, in one transaction. `Ok(false)`: someone changed
/// the case meanwhile.
pub(crate) async fn commit_case(
    ctx: &Context,
    prev: Option<&StoredCase>,
    next: &Case,
    history: &[HistoryEntry],
    event: Event<'_>,
) -> Result<bool, ApiError> {
    commit_case_once(ctx, prev, next, history, event, (&Once::none(), &()), None).await
}

/// [`commit_case`] with the idempotency record of the request, whose
/// answer is `answer`, in the same transaction.
pub(crate) async fn commit_case_once<T: serde::Serialize + Sync>(
    ctx: &Context,
    prev: Option<&StoredCase>,
    next: &Case,
    history: &[HistoryEntry],
    event: Event<'_>,
    // The idempotency record and the answer it keeps.
    (once, answer): (&Once, &T),
    audit: Option<&AuditEvent>,
) -> Result<bool, ApiError> {
    let mut tx = ctx.store.tx();
    ctx.store.add_case_write(&mut tx, prev.map(|p| (&p.case, p.rev)), next)?;
    for h in history {
        ctx.store.add_history(&mut tx, h)?;
    }
    once.record(&mut tx, answer)?;
    if let Some(a) = audit {
        super::audit::add_to(&mut tx, a)?;
    }
    let queued = events::record(ctx, &mut tx, &[event]).await?;
    events::commit(ctx, tx, queued).await
}

fn done_if<T>(written: bool, value: T) -> Attempt<T> {
    if written {
        Attempt::Done(value)
    } else {
        Attempt::Conflict
    }
}

/// Checks the references of a validated form: the case type exists, and a
/// direct-assign lawyer chosen by staff is an active lawyer (anyone else's
/// choice is ignored by [`case::with_form`], so it is not looked up either:
/// no probing of lawyer ids).
async fn case_type(ctx: &Context, user: &User, input: &case::CaseInput) -> Result<CaseType, ApiError> {
    let t =
        ctx.store.get_named(NamedKind::CaseType, input.case_type).await?.ok_or_else(|| ApiError::field("type", Msg::CaseTypeRequired))?;
    let chosen = input.direct_assign_lawyer.as_ref().filter(|_| policy::may(user, Action::DirectAssign));
    if let Some(l) = chosen {
        let lawyer = ctx.store.get_user(l).await?.filter(|u| policy::is(u, Role::Lawyer) && u.active);
        if lawyer.is_none() {
            return Err(ApiError::field("direct_assign_lawyer", Msg::NoLawyerFound));
        }
    }
    Ok(CaseType { id: t.id, name: t.name, name_en: t.name_en })
}

/// The form's knowledge sector from the catalogue (none when not chosen).
async fn knowledge_sector(ctx: &Context, input: &case::CaseInput) -> Result<Option<case::KnowledgeSector>, ApiError> {
    let Some(id) = input.knowledge_sector else { return Ok(None) };
    let s = ctx
        .store
        .get_named(NamedKind::KnowledgeSector, id)
        .await?
        .ok_or_else(|| ApiError::field("knowledge_sector", Msg::UnknownKnowledgeSector))?;
    Ok(Some(case::KnowledgeSector { id: s.id, name: s.name, name_en: s.name_en }))
}

/// The name a case shows for its customer: the company, else the person.
async fn customer_name(ctx: &Context, customer: &str) -> Result<String, ApiError> {
    let user = ctx
        .store
        .get_user(customer)
        .await?
        .filter(|u| policy::is(u, Role::Customer))
        .ok_or_else(|| ApiError::field("customer", Msg::CustomerNotFound))?;
    let company = ctx.store.get_customer_profile(customer).await?.and_then(|p| p.company_name).filter(|c| !c.trim().is_empty());
    Ok(company.unwrap_or_else(|| user.full_name()))
}

fn now() -> chrono::NaiveDateTime {
    whole_seconds(Utc::now().naive_utc())
}

/// Opens a case (status Draft, shown as 'Pending'): staff and lawyers for a
/// named customer, the customer side for its own company (which needs an
/// active consultancy service). A lawyer's own case names them as its
/// direct-assign lawyer, so staff publishing it hand it straight to them.
pub async fn create(ctx: &Context, user: &User, via: CreateVia, customer: &str, form: CaseForm, once: &Once) -> Result<CaseView, ApiError> {
    Ok(CaseView::for_user(user, open(ctx, user, via, customer, form, Utc::now(), once).await?))
}

/// [`create`] with the moment the case is opened: now on every request
/// path; earlier only for the local demo, whose history (opened last month,
/// accepted and closed days later) the statistics pages show.
pub async fn open(
    ctx: &Context,
    user: &User,
    via: CreateVia,
    customer: &str,
    mut form: CaseForm,
    at: chrono::DateTime<Utc>,
    once: &Once,
) -> Result<Case, ApiError> {
    policy::require(user, Action::CreateCase(via))?;
    let customer = match via {
        CreateVia::Customer => {
            let own = policy::acting_customer(user).ok_or(ApiError::Forbidden)?;
            if ctx.store.current_hour_row(&own, now()).await?.is_none() {
                return Err(ApiError::bad(Msg::ConsultancyServiceRequired));
            }
            own
        }
        CreateVia::Staff | CreateVia::Lawyer => {
            let named = customer.trim();
            if named.is_empty() {
                return Err(ApiError::field("customer", Msg::Required));
            }
            named.to_string()
        }
    };
    if via == CreateVia::Lawyer {
        form.direct_assign_lawyer = Some(user.uid.clone());
    }
    let input = case::validate_by(user, &form)?;
    let name = customer_name(ctx, &customer).await?;
    let t = case_type(ctx, user, &input).await?;
    let sector = knowledge_sector(ctx, &input).await?;
    let running = ctx.store.next_id("case").await?;
    let at = at.min(Utc::now());
    let draft =
        Case::draft(uuid::Uuid::new_v4().to_string(), case::case_number(at, running), customer, name, t.clone(), user.uid.clone(), at);
    let c = case::with_form(user, &draft, None, input, t, sector);
    let created = HistoryEntry::new(&c.uid, user, "created", None, Some(c.case_number.clone()));
    // A new case meets no writer of its own items; a failed condition is the
    // counters' guard (its customer's account manager changed meanwhile):
    // record again with the manager read anew.
    for _ in 0..3 {
        if commit_case_once(ctx, None, &c, std::slice::from_ref(&created), Event::CaseCreated { case: &c, by: user }, (once, &c), None)
            .await?
        {
            return Ok(c);
        }
    }
    Err(ApiError::bad(Msg::ChangedConcurrently))
}

/// A case with what the caller may do with it.
#[derive(Serialize, ToSchema)]
pub struct CaseDetails {
    #[serde(flatten)]
    pub case: CaseView,
    /// Status actions the caller may take now.
    pub actions: Vec<Transition>,
    pub can_edit: bool,
    pub can_enter_hours: bool,
}

/// Case details (admin, sales persons, the assigned lawyer, lawyers for
/// available cases, the customer and its contacts).
pub async fn details(ctx: &Context, user: &User, uid: &str) -> Result<CaseDetails, ApiError> {
    let c = visible(ctx, user, uid).await?;
    super::audit::record(
        ctx,
        AuditEvent::by(user, AuditAction::CaseViewed).customer(Some(&c.customer)).subject(&c.uid).detail(&c.case_number),
    )
    .await;
    // A case under legal hold is read only: it offers no change.
    let frozen = c.legal_hold.is_some();
    let actions =
        [Transition::Publish, Transition::Accept, Transition::Complete, Transition::Reopen, Transition::Transfer, Transition::Withdraw]
            .into_iter()
            .filter(|t| !frozen && case::transition(user, &c, *t).is_ok())
            .collect();
    let can_enter_hours = !frozen && policy::can_enter_hours(user, &c);
    let can_edit = !frozen && policy::may(user, Action::EditCase(&c));
    Ok(CaseDetails { can_edit, actions, can_enter_hours, case: CaseView::for_user(user, c) })
}

/// Edits the fields; every changed field is written to the history in the
/// same transaction.
pub async fn update(ctx: &Context, user: &User, uid: &str, form: CaseForm) -> Result<CaseView, ApiError> {
    let input = case::validate_by(user, &form)?;
    let t = case_type(ctx, user, &input).await?;
    let sector = knowledge_sector(ctx, &input).await?;
    let (input, t, sector) = (&input, &t, &sector);
    let c = retry::until_done(|_| async move {
        let prev = visible_for_write(ctx, user, uid).await?;
        if !policy::may(user, Action::EditCase(&prev.case)) {
            return Err(ApiError::Forbidden);
        }
        let mut next = case::with_form(user, &prev.case, Some(&prev.case), input.clone(), t.clone(), sector.clone());
        next.updated_at = Utc::now();
        let history = case::edit_history(user, &prev.case, &next);
        if history.is_empty() {
            return Ok(Attempt::Done(prev.case));
        }
        let written =
            commit_case(ctx, Some(&prev), &next, &history, Event::CaseChanged { before: &prev.case, after: &next, by: user }).await?;
        Ok(done_if(written, next))
    })
    .await?;
    Ok(CaseView::for_user(user, c))
}

/// A status action (publish, accept, complete, reopen, transfer), a write
/// conditional on the case's revision: of two lawyers accepting at once
/// exactly one wins; the others are told the case was just taken (409).
pub async fn change_status(ctx: &Context, user: &User, uid: &str, action: Transition) -> Result<CaseView, ApiError> {
    change_status_at(ctx, user, uid, action, Utc::now()).await
}

/// [`change_status`] at the moment `at` (never later than now): now on
/// every request path; earlier only for the local demo's history and the
/// statistics tests, whose times to accept and close must be days apart.
/// The moment is the case's `status_at` (and `published_at` when it leaves
/// the draft status), its history entries' time and the day its flows count on.
pub async fn change_status_at(
    ctx: &Context,
    user: &User,
    uid: &str,
    action: Transition,
    at: chrono::DateTime<Utc>,
) -> Result<CaseView, ApiError> {
    let at = at.min(Utc::now());
    let c = retry::until_done(|_| async move {
        let prev = match visible_for_write(ctx, user, uid).await {
            Err(ApiError::NotFound) if action == Transition::Accept => return Err(taken_or_not_found(ctx, user, uid).await?),
            read => read?,
        };
        let moved = case::transition(user, &prev.case, action).map_err(ApiError::bad)?;
        let mut next = prev.case.clone();
        next.status = moved.status;
        next.lawyer_name = match &moved.lawyer {
            Some(l) if Some(l) == prev.case.lawyer.as_ref() => prev.case.lawyer_name.clone(),
            Some(l) => Some(ctx.store.get_user(l).await?.map(|x| x.full_name()).ok_or(ApiError::bad(Msg::NoLawyerFound))?),
            None => None,
        };
        next.lawyer = moved.lawyer;
        next.updated_at = at;
        next.status_at = Some(at);
        if prev.case.status == CaseStatus::Draft && next.published_at.is_none() {
            next.published_at = Some(at);
        }
        let mut history = case::status_history(user, &prev.case, &next);
        for h in &mut history {
            h.at = at;
        }
        let written =
            commit_case(ctx, Some(&prev), &next, &history, Event::CaseStatusChanged { before: &prev.case, after: &next, by: user }).await?;
        Ok(done_if(written, next))
    })
    .await?;
    Ok(CaseView::for_user(user, c))
}

/// Why a lawyer cannot accept a case they do not see: another lawyer has
/// it now (it left the available pool to them: `case_already_taken`), or it
/// is not theirs to know of (404, like every case they may not see).
async fn taken_or_not_found(ctx: &Context, user: &User, uid: &str) -> Result<ApiError, ApiError> {
    if !policy::is(user, Role::Lawyer) {
        return Ok(ApiError::NotFound);
    }
    let taken = ctx.store.get_case(uid.trim()).await?.is_some_and(|c| {
        matches!(c.case.status, CaseStatus::Inprogress | CaseStatus::Complete) && c.case.lawyer.as_deref().is_some_and(|l| l != user.uid)
    });
    Ok(if taken { ApiError::Conflict(Msg::CaseAlreadyTaken) } else { ApiError::NotFound })
}

/// A page of cases as the caller may see them.
#[derive(Clone, Debug)]
pub struct CaseViewPage {
    pub results: Vec<CaseView>,
    pub next: Option<String>,
}

/// The caller's case list for a `status` word: 10 per page, newest first
/// (or oldest first), optionally searched by case number, subject, customer
/// or counterpart; key-paged (`next` → `cursor`).
pub async fn list(
    ctx: &Context,
    user: &User,
    status: &str,
    search: &str,
    order: ListOrder,
    cursor: Option<&str>,
) -> Result<CaseViewPage, ApiError> {
    let plan = policy::list_plan(user, status)?;
    let page = ctx.store.list_cases(&plan, case::search_query(search).as_deref(), order, cursor).await?;
    Ok(CaseViewPage { results: CaseView::all_for(user, page.results), next: page.next })
}

/// Every recorded change of a case, oldest first; the customer side does not
/// see changes of the internal description.
pub async fn history(ctx: &Context, user: &User, uid: &str) -> Result<Vec<HistoryEntry>, ApiError> {
    let c = visible(ctx, user, uid).await?;
    let mut h = ctx.store.case_history(&c.uid).await?;
    if !policy::may(user, Action::SeeInternal) {
        h.retain(|e| e.field != "short_internal_description");
    }
    Ok(h)
}

/// What names a case in headings and links.
#[derive(Serialize, ToSchema)]
pub struct CaseName {
    pub uid: String,
    pub case_number: String,
    pub subject: String,
    pub status: CaseStatus,
    pub customer_name: String,
}

/// The case's number and subject, for whoever may see the case.
pub async fn name(ctx: &Context, user: &User, uid: &str) -> Result<CaseName, ApiError> {
    let c = visible(ctx, user, uid).await?;
    Ok(CaseName { uid: c.uid, case_number: c.case_number, subject: c.subject, status: c.status, customer_name: c.customer_name })
}

/// An internal note of a case.
#[derive(Serialize, ToSchema)]
pub struct Note {
    pub by: String,
    pub by_name: String,
    pub note: String,
    pub at: String,
}

/// Adds an internal note (the provider's people who may see the case).
pub async fn add_note(ctx: &Context, user: &User, case_uid: &str, text: &str, once: &Once) -> Result<Note, ApiError> {
    policy::require(user, Action::SeeInternal)?;
    let c = visible(ctx, user, case_uid).await?;
    super::erasure::writable(&c)?;
    let text = case::validate_note(text)?;
    let at = Utc::now();
    let note = Note { by: user.uid.clone(), by_name: user.full_name(), note: text, at: at.to_rfc3339() };
    let mut tx = ctx.store.tx();
    ctx.store.add_case_note(&mut tx, &c.uid, &note.by, &note.by_name, &note.note, at)?;
    once.record(&mut tx, &note)?;
    match ctx.store.commit(tx).await {
        Ok(true) => Ok(note),
        // The note has no condition of its own: only its key's record can fail.
        Ok(false) => Err(ApiError::bad(Msg::ChangedConcurrently)),
        Err(e @ (ApiError::Replay { .. } | ApiError::IdempotencyKeyReused)) => Err(e),
        Err(e) => {
            tracing::warn!(error = %e, "case note not saved");
            Err(ApiError::bad(Msg::CaseNoteSaveFailed))
        }
    }
}

/// A case's internal notes, oldest first.
pub async fn notes(ctx: &Context, user: &User, case_uid: &str) -> Result<Vec<Note>, ApiError> {
    policy::require(user, Action::SeeInternal)?;
    let c = visible(ctx, user, case_uid).await?;
    Ok(ctx.store.case_notes(&c.uid).await?.into_iter().map(|(by, by_name, note, at)| Note { by, by_name, note, at }).collect())
}

/// One option of the case form's customer picker.
#[derive(Serialize, ToSchema)]
pub struct CustomerOption {
    pub uid: String,
    pub name: String,
}

/// The address a new case of `customer` starts with: the customer's visiting
/// address. The customer side asks for its own company (the
/// named customer is ignored); staff and lawyers name one.
pub async fn default_address(ctx: &Context, user: &User, customer: Option<&str>) -> Result<case::CaseAddress, ApiError> {
    let uid = match policy::acting_customer(user) {
        Some(own) => own,
        None => {
            policy::require(user, Action::ReadCustomers)?;
            customer.map(str::trim).filter(|c| !c.is_empty()).ok_or_else(|| ApiError::field("customer", Msg::Required))?.to_string()
        }
    };
    let Some(p) = ctx.store.get_customer_profile(&uid).await? else {
        return Ok(case::CaseAddress::default());
    };
    let a = p.profile;
    Ok(case::CaseAddress {
        address_1: a.address_1,
        city: a.city,
        post_code: a.post_code,
        // A customer's country is Sweden (id 1, the only one offered, spec §5).
        country: if a.country == crate::domain::customer::COUNTRY_SWEDEN {
            crate::domain::country::SWEDEN.to_string()
        } else {
            String::new()
        },
    })
}

/// Active customers matching `search` (name, e-mail or company), at most 20.
pub async fn customer_options(ctx: &Context, user: &User, search: &str) -> Result<Vec<CustomerOption>, ApiError> {
    policy::require(user, Action::ReadCustomers)?;
    // A search reads the customer search words (bounded); an empty
    // or one-letter one pages the active list as before.
    let q = search.trim();
    let results = if crate::store::customer_search::query_words(q).is_ok() {
        ctx.store.search_customers(Some(CustomerState::Active), q, None, 20, false).await?.results
    } else {
        ctx.store.list_customers(CustomerState::Active, None, Some(q), 20).await?.results
    };
    Ok(results
        .into_iter()
        .map(|p| {
            let person = format!("{} {}", p.first_name, p.last_name);
            let name = match p.company_name.filter(|c| !c.trim().is_empty()) {
                Some(c) => format!("{c} ({person})"),
                None => person,
            };
            CustomerOption { uid: p.uid, name }
        })
        .collect())
}

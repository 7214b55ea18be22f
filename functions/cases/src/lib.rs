//! Cases: creation by every role that may, details, edits, the status
//! lifecycle, per-role lists, history, notes and case hours with their
//! subscription consumption. The rules live in `shared::domain::case`; this
//! crate parses, checks who may act and maps errors.

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::{NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};
use shared::api::{ApiJson, AppState, CurrentUser, ErrorBody};
use shared::domain::case::{
    self, Case, CaseForm, CaseHour, CaseInput, CaseStatus, CaseType, CreateVia, HistoryEntry, HourForm, Transition,
};
use shared::domain::permissions::{require, Permission};
use shared::domain::subscription::whole_seconds;
use shared::domain::{Role, User};
use shared::error::ApiError;
use shared::error::Msg;
use shared::store::cases::CaseList;
use shared::store::catalogue::NamedKind;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

mod additional_hours;
mod documents;
mod export;
mod hours;

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_by_staff))
        .routes(routes!(create_by_customer))
        .routes(routes!(create_by_lawyer))
        .routes(routes!(details))
        .routes(routes!(update))
        .routes(routes!(change_status))
        .routes(routes!(list))
        .routes(routes!(history))
        .routes(routes!(case_name))
        .routes(routes!(add_note, notes))
        .routes(routes!(hour_create))
        .routes(routes!(hour_list))
        .routes(routes!(hour_edit))
        .routes(routes!(hour_delete))
        .routes(routes!(hour_excel))
        .routes(routes!(customer_options))
        .merge(hours::api())
        .merge(additional_hours::api())
        .merge(documents::api())
}

fn now() -> NaiveDateTime {
    whole_seconds(Utc::now().naive_utc())
}

fn entry(case_uid: &str, by: &User, field: &str, before: Option<String>, after: Option<String>) -> HistoryEntry {
    HistoryEntry {
        case_uid: case_uid.into(),
        at: Utc::now(),
        by: by.uid.clone(),
        by_name: by.full_name(),
        field: field.into(),
        before,
        after,
    }
}

/// A case request: the form and, for staff and lawyers, the customer.
#[derive(Deserialize, ToSchema)]
pub struct CaseRequest {
    /// The customer's uid (staff and lawyers; ignored for the customer side).
    #[serde(default)]
    pub customer: String,
    #[serde(flatten)]
    pub form: CaseForm,
}

/// Checks the references of a validated form: the case type and the
/// direct-assign lawyer exist.
async fn resolve(s: &AppState, input: &CaseInput) -> Result<(CaseType, Option<String>), ApiError> {
    let t = s.store.get_named(NamedKind::CaseType, input.case_type).await?.ok_or_else(|| ApiError::field("type", Msg::CaseTypeRequired))?;
    let lawyer_name = match &input.direct_assign_lawyer {
        Some(l) => {
            let u = s.store.get_user(l).await?.filter(|u| u.role() == Some(Role::Lawyer) && u.active);
            Some(u.ok_or_else(|| ApiError::field("direct_assign_lawyer", Msg::NoLawyerFound))?.full_name())
        }
        None => None,
    };
    Ok((CaseType { id: t.id, name: t.name }, lawyer_name))
}

async fn customer_name(s: &AppState, customer: &str) -> Result<String, ApiError> {
    let user = s
        .store
        .get_user(customer)
        .await?
        .filter(|u| u.role() == Some(Role::Customer))
        .ok_or_else(|| ApiError::field("customer", Msg::CustomerNotFound))?;
    let company = s.store.get_customer_profile(customer).await?.and_then(|p| p.company_name).filter(|c| !c.trim().is_empty());
    Ok(company.unwrap_or_else(|| user.full_name()))
}

fn apply(c: &mut Case, input: CaseInput, t: CaseType) {
    c.address = input.address;
    c.subject = input.subject;
    c.description = input.description;
    c.case_type = t;
    c.estimated_hours = input.estimated_hours;
    c.client = input.client;
    c.direct_assign_lawyer = input.direct_assign_lawyer;
    c.counterpart = input.counterpart;
    c.disqualification_control = input.disqualification_control;
    c.short_internal_description = input.short_internal_description;
    c.start_date = input.start_date;
    c.deadline = input.deadline;
    c.contact_person = input.contact_person;
    c.note = input.note;
}

/// The counterpart goes into the conflict-of-interest index.
async fn index_counterpart(s: &AppState, c: &Case) -> Result<(), ApiError> {
    shared::services::events::record_alone(s, &[shared::services::events::Event::CaseCreated { case: c }]).await
}

async fn create(s: &AppState, user: &User, customer: String, form: &CaseForm) -> Result<(StatusCode, Json<Case>), ApiError> {
    let input = case::validate(form)?;
    let name = customer_name(s, &customer).await?;
    let (t, _) = resolve(s, &input).await?;
    let id = s.store.next_id("case").await?;
    let at = Utc::now();
    let mut c = Case::draft(
        uuid::Uuid::new_v4().to_string(),
        format!("{}-{id:06}", at.format("%Y")),
        customer,
        name,
        t.clone(),
        user.uid.clone(),
        at,
    );
    apply(&mut c, input, t);
    let h = entry(&c.uid, user, "created", None, Some(c.case_number.clone()));
    s.store.create_case(&c, &h).await?;
    index_counterpart(s, &c).await?;
    Ok((StatusCode::CREATED, Json(c)))
}

/// Sales person or admin creates a case for a customer (status Draft = 'Pending').
#[utoipa::path(post, path = "/api/case/create/", tag = "cases", security(("bearer" = [])), request_body = CaseRequest,
    responses((status = 201, body = Case), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn create_by_staff(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<CaseRequest>,
) -> Result<(StatusCode, Json<Case>), ApiError> {
    if !case::may_create(&u, CreateVia::Staff) {
        return Err(ApiError::Forbidden);
    }
    if req.customer.trim().is_empty() {
        return Err(ApiError::field("customer", Msg::Required));
    }
    create(&s, &u, req.customer.trim().to_string(), &req.form).await
}

/// The customer (or a contact holding add_case) opens a case; needs an
/// active consultancy (hour) service.
#[utoipa::path(post, path = "/api/case/create/by/customer/", tag = "cases", security(("bearer" = [])), request_body = CaseRequest,
    responses((status = 201, body = Case), (status = 400, description = "consultancy_service_required, validation_failed", body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn create_by_customer(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<CaseRequest>,
) -> Result<(StatusCode, Json<Case>), ApiError> {
    if !case::may_create(&u, CreateVia::Customer) {
        return Err(ApiError::Forbidden);
    }
    require(&u, Permission::AddCase)?;
    let customer = case::acting_customer(&u).ok_or(ApiError::Forbidden)?;
    if s.store.current_hour_row(&customer, now()).await?.is_none() {
        return Err(ApiError::bad(Msg::ConsultancyServiceRequired));
    }
    create(&s, &u, customer, &req.form).await
}

/// A lawyer opens a case for a customer; it is assigned to them once staff publish it.
#[utoipa::path(post, path = "/api/case/create/by/lawyer/", tag = "cases", security(("bearer" = [])), request_body = CaseRequest,
    responses((status = 201, body = Case), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn create_by_lawyer(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(mut req): ApiJson<CaseRequest>,
) -> Result<(StatusCode, Json<Case>), ApiError> {
    if !case::may_create(&u, CreateVia::Lawyer) {
        return Err(ApiError::Forbidden);
    }
    if req.customer.trim().is_empty() {
        return Err(ApiError::field("customer", Msg::Required));
    }
    req.form.direct_assign_lawyer = Some(u.uid.clone());
    create(&s, &u, req.customer.trim().to_string(), &req.form).await
}

/// A case with what the caller may do with it.
#[derive(Serialize, ToSchema)]
pub struct CaseDetails {
    #[serde(flatten)]
    pub case: Case,
    /// Status actions the caller may take now.
    pub actions: Vec<Transition>,
    pub can_edit: bool,
    pub can_enter_hours: bool,
}

async fn visible_case(s: &AppState, u: &User, uid: &str) -> Result<(Case, u64), ApiError> {
    let stored = s.store.get_case(uid).await?.ok_or(ApiError::NotFound)?;
    if !case::may_view(u, &stored.case) {
        return Err(ApiError::NotFound);
    }
    Ok((stored.case, stored.rev))
}

fn strip_internal(u: &User, mut c: Case) -> Case {
    // The short internal description is for the provider's people only.
    if matches!(u.role(), Some(Role::Customer | Role::CustomerContact)) {
        c.short_internal_description.clear();
    }
    c
}

/// Case details (admin, sales persons, the assigned lawyer, lawyers for
/// available cases, the customer and its contacts).
#[utoipa::path(get, path = "/api/case/{id}/", tag = "cases", security(("bearer" = [])), params(("id" = String, Path, description = "Case uid")),
    responses((status = 200, body = CaseDetails), (status = 404, body = ErrorBody)))]
async fn details(State(s): State<AppState>, CurrentUser(u): CurrentUser, Path(id): Path<String>) -> Result<Json<CaseDetails>, ApiError> {
    let (c, _) = visible_case(&s, &u, &id).await?;
    let actions = [Transition::Publish, Transition::Accept, Transition::Complete, Transition::Reopen, Transition::Transfer]
        .into_iter()
        .filter(|t| case::transition(&u, &c, *t).is_ok())
        .collect();
    let can_enter_hours = c.status == CaseStatus::Inprogress && (case::is_assigned(&u, &c) || u.role() == Some(Role::Admin));
    Ok(Json(CaseDetails { can_edit: case::may_edit(&u, &c), actions, can_enter_hours, case: strip_internal(&u, c) }))
}

/// Edits the fields; every changed field is written to the history in the same transaction.
#[utoipa::path(put, path = "/api/case/update/{uid}/", tag = "cases", security(("bearer" = [])), request_body = CaseRequest,
    params(("uid" = String, Path, description = "Case uid")),
    responses((status = 200, body = Case), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn update(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(uid): Path<String>,
    ApiJson(req): ApiJson<CaseRequest>,
) -> Result<Json<Case>, ApiError> {
    let input = case::validate(&req.form)?;
    let (t, _) = resolve(&s, &input).await?;
    for _ in 0..5 {
        let (prev, rev) = visible_case(&s, &u, &uid).await?;
        if !case::may_edit(&u, &prev) {
            return Err(ApiError::Forbidden);
        }
        let mut next = prev.clone();
        apply(&mut next, input.clone(), t.clone());
        if matches!(u.role(), Some(Role::Customer | Role::CustomerContact)) {
            // The customer side never sees nor changes the internal description.
            next.short_internal_description = prev.short_internal_description.clone();
        }
        if !matches!(u.role(), Some(Role::Admin | Role::SalesPerson)) {
            // Only staff choose the direct-assign lawyer; the others' forms
            // do not carry it, so an edit must not clear it.
            next.direct_assign_lawyer = prev.direct_assign_lawyer.clone();
        }
        next.updated_at = Utc::now();
        let hist: Vec<HistoryEntry> = case::diff(&prev, &next).into_iter().map(|(f, a, b)| entry(&uid, &u, &f, Some(a), Some(b))).collect();
        if hist.is_empty() {
            return Ok(Json(strip_internal(&u, prev)));
        }
        if s.store.save_case(&prev, rev, &next, &hist).await? {
            index_counterpart(&s, &next).await?;
            return Ok(Json(strip_internal(&u, next)));
        }
    }
    Err(ApiError::bad(Msg::ChangedConcurrently))
}

#[derive(Deserialize, ToSchema)]
pub struct StatusRequest {
    pub action: Transition,
}

/// A status action (publish, accept, complete, reopen, transfer). A
/// conditional write on the case's revision: of two lawyers accepting at
/// once exactly one wins; the other is told the case is no longer waiting.
#[utoipa::path(post, path = "/api/case/status/{uid}/", tag = "cases", security(("bearer" = [])), request_body = StatusRequest,
    params(("uid" = String, Path, description = "Case uid")),
    responses((status = 200, body = Case), (status = 400, description = "only_waiting_can_start, only_in_progress_can_complete, status_change_not_allowed", body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn change_status(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(uid): Path<String>,
    ApiJson(req): ApiJson<StatusRequest>,
) -> Result<Json<Case>, ApiError> {
    for _ in 0..5 {
        let (prev, rev) = visible_case(&s, &u, &uid).await?;
        let moved = case::transition(&u, &prev, req.action).map_err(ApiError::bad)?;
        let mut next = prev.clone();
        next.status = moved.status;
        next.lawyer_name = match &moved.lawyer {
            Some(l) if Some(l) == prev.lawyer.as_ref() => prev.lawyer_name.clone(),
            Some(l) => Some(s.store.get_user(l).await?.map(|x| x.full_name()).ok_or(ApiError::bad(Msg::NoLawyerFound))?),
            None => None,
        };
        next.lawyer = moved.lawyer;
        next.updated_at = Utc::now();
        let mut hist = vec![entry(&uid, &u, "status", Some(format!("{:?}", prev.status)), Some(format!("{:?}", next.status)))];
        if prev.lawyer != next.lawyer {
            hist.push(entry(&uid, &u, "lawyer", prev.lawyer_name.clone(), next.lawyer_name.clone()));
        }
        if s.store.save_case(&prev, rev, &next, &hist).await? {
            return Ok(Json(strip_internal(&u, next)));
        }
        // Someone else changed the case: decide again on what it is now.
    }
    Err(ApiError::bad(Msg::ChangedConcurrently))
}

#[derive(Deserialize, ToSchema, utoipa::IntoParams)]
pub struct ListQuery {
    /// my (default), pending, draft, available, active, closed, all.
    pub status: Option<String>,
    pub cursor: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct CaseListPage {
    pub results: Vec<Case>,
    pub next: Option<String>,
}

/// Which list a role sees for a `status` word.
fn list_for(u: &User, status: &str) -> Result<CaseList, ApiError> {
    use CaseStatus::*;
    let word = status.trim().to_ascii_lowercase();
    Ok(match u.role() {
        Some(Role::Admin | Role::SalesPerson) => CaseList::ByStatus(match word.as_str() {
            "" | "my" | "active" | "inprogress" => Inprogress,
            "pending" | "draft" => Draft,
            "available" | "waiting" => Waiting,
            "closed" | "complete" => Complete,
            _ => return Err(ApiError::bad(Msg::InvalidStatus)),
        }),
        Some(Role::Lawyer) => match word.as_str() {
            "" | "my" | "active" | "inprogress" => CaseList::Lawyer(u.uid.clone(), vec![Inprogress]),
            "available" | "waiting" => CaseList::ByStatus(Waiting),
            "closed" | "complete" => CaseList::Lawyer(u.uid.clone(), vec![Complete]),
            "pending" | "draft" => CaseList::Lawyer(u.uid.clone(), vec![Draft]),
            _ => return Err(ApiError::bad(Msg::InvalidStatus)),
        },
        Some(Role::Customer | Role::CustomerContact) => {
            let c = case::acting_customer(u).ok_or(ApiError::Forbidden)?;
            CaseList::Customer(
                c,
                match word.as_str() {
                    "" | "my" => vec![Draft, Waiting, Inprogress],
                    "active" | "inprogress" => vec![Inprogress],
                    "available" | "waiting" => vec![Waiting],
                    "pending" | "draft" => vec![Draft],
                    "closed" | "complete" => vec![Complete],
                    "all" => vec![],
                    _ => return Err(ApiError::bad(Msg::InvalidStatus)),
                },
            )
        }
        None => return Err(ApiError::Forbidden),
    })
}

/// The caller's case lists: 10 per page, newest first, key-paged (`next` → `cursor`).
#[utoipa::path(get, path = "/api/case/list/", tag = "cases", security(("bearer" = [])), params(ListQuery),
    responses((status = 200, body = CaseListPage), (status = 400, description = "invalid_status, invalid_cursor", body = ErrorBody)))]
async fn list(State(s): State<AppState>, CurrentUser(u): CurrentUser, Query(q): Query<ListQuery>) -> Result<Json<CaseListPage>, ApiError> {
    let which = list_for(&u, q.status.as_deref().unwrap_or(""))?;
    let page = s.store.list_cases(&which, q.cursor.as_deref()).await?;
    Ok(Json(CaseListPage { results: page.results.into_iter().map(|c| strip_internal(&u, c)).collect(), next: page.next }))
}

/// Every recorded change of a case, oldest first.
#[utoipa::path(get, path = "/api/case/history/{id}/", tag = "cases", security(("bearer" = [])), params(("id" = String, Path, description = "Case uid")),
    responses((status = 200, body = Vec<HistoryEntry>), (status = 404, body = ErrorBody)))]
async fn history(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<Vec<HistoryEntry>>, ApiError> {
    visible_case(&s, &u, &id).await?;
    let mut h = s.store.case_history(&id).await?;
    if matches!(u.role(), Some(Role::Customer | Role::CustomerContact)) {
        h.retain(|e| e.field != "short_internal_description");
    }
    Ok(Json(h))
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

/// The case's number and subject for headings (history pages, hour
/// updates): one read, for whoever may see the case.
#[utoipa::path(get, path = "/api/case/name/{id}/", tag = "cases", security(("bearer" = [])), params(("id" = String, Path, description = "Case uid")),
    responses((status = 200, body = CaseName), (status = 404, body = ErrorBody)))]
async fn case_name(State(s): State<AppState>, CurrentUser(u): CurrentUser, Path(id): Path<String>) -> Result<Json<CaseName>, ApiError> {
    let (c, _) = visible_case(&s, &u, &id).await?;
    Ok(Json(CaseName { uid: c.uid, case_number: c.case_number, subject: c.subject, status: c.status, customer_name: c.customer_name }))
}

#[derive(Deserialize, ToSchema)]
pub struct NoteRequest {
    pub case_uid: String,
    #[serde(default)]
    pub note: String,
}

#[derive(Serialize, ToSchema)]
pub struct Note {
    pub by: String,
    pub by_name: String,
    pub note: String,
    pub at: String,
}

fn staff_side(u: &User) -> Result<(), ApiError> {
    match u.role() {
        Some(Role::Admin | Role::Lawyer | Role::SalesPerson) => Ok(()),
        _ => Err(ApiError::Forbidden),
    }
}

/// Adds an internal note to a case (lawyers and staff who may see it).
#[utoipa::path(post, path = "/api/case/lawyer/note/", tag = "cases", security(("bearer" = [])), request_body = NoteRequest,
    responses((status = 201, body = Note), (status = 400, description = "case_note_save_failed", body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn add_note(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<NoteRequest>,
) -> Result<(StatusCode, Json<Note>), ApiError> {
    staff_side(&u)?;
    visible_case(&s, &u, &req.case_uid).await?;
    let text = req.note.trim();
    if text.is_empty() {
        return Err(ApiError::field("note", Msg::Required));
    }
    if text.chars().count() > 5000 {
        return Err(ApiError::field("note", Msg::TooLong));
    }
    let at = Utc::now();
    s.store.add_case_note(&req.case_uid, &u.uid, &u.full_name(), text, at).await?;
    Ok((StatusCode::CREATED, Json(Note { by: u.uid.clone(), by_name: u.full_name(), note: text.into(), at: at.to_rfc3339() })))
}

#[derive(Deserialize, ToSchema, utoipa::IntoParams)]
pub struct CaseQuery {
    /// Case uid.
    pub case: String,
}

/// A case's internal notes, oldest first.
#[utoipa::path(get, path = "/api/case/lawyer/note/", tag = "cases", security(("bearer" = [])), params(CaseQuery),
    responses((status = 200, body = Vec<Note>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn notes(State(s): State<AppState>, CurrentUser(u): CurrentUser, Query(q): Query<CaseQuery>) -> Result<Json<Vec<Note>>, ApiError> {
    staff_side(&u)?;
    visible_case(&s, &u, &q.case).await?;
    let n = s.store.case_notes(&q.case).await?;
    Ok(Json(n.into_iter().map(|(by, by_name, note, at)| Note { by, by_name, note, at }).collect()))
}

#[derive(Deserialize, ToSchema)]
pub struct HourRequest {
    pub case_uid: String,
    /// Admin only: the lawyer the hours are for (spec §6).
    pub lawyer: Option<String>,
    #[serde(flatten)]
    pub form: HourForm,
}

/// Retries a hour write while concurrent writers win (bounded), with a
/// random pause so many writers spread out.
async fn pause(attempt: u32) {
    let ms = rand::random_range(2..(10 + 10 * attempt.min(20) as u64));
    tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
}

const HOUR_ATTEMPTS: u32 = 200;

/// A lawyer enters hours on their in-progress case (admin names the
/// lawyer). Billable hours consume the customer's hour subscription in the
/// same transaction as the entry, the usage ledger and the history.
#[utoipa::path(post, path = "/api/case/hour/create/", tag = "cases", security(("bearer" = [])), request_body = HourRequest,
    responses((status = 201, body = CaseHour), (status = 400, description = "only_lawyer_enters_hours, case_not_assigned, no_active_subscription_for_case, limit_reached", body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn hour_create(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    ApiJson(req): ApiJson<HourRequest>,
) -> Result<(StatusCode, Json<CaseHour>), ApiError> {
    let input = case::validate_hours(&req.form)?;
    let id = uuid::Uuid::new_v4().simple().to_string();
    for attempt in 0..HOUR_ATTEMPTS {
        match try_hour_create(&s, &u, &req, &input, &id, attempt).await {
            Ok(Some(h)) => return Ok((StatusCode::CREATED, Json(h))),
            Ok(None) => {}
            // A transient store failure (throttling, a 5xx): the bounded loop
            // tries again; the entry id makes a write that did land count once.
            Err(ApiError::Internal(detail)) if attempt + 1 < HOUR_ATTEMPTS => eprintln!("WARN hour write retried: {detail}"),
            Err(e) => return Err(e),
        }
        pause(attempt).await;
    }
    Err(ApiError::bad(Msg::ChangedConcurrently))
}

async fn try_hour_create(
    s: &AppState,
    u: &User,
    req: &HourRequest,
    input: &case::HourInput,
    id: &str,
    attempt: u32,
) -> Result<Option<CaseHour>, ApiError> {
    let (c, _) = visible_case(s, u, &req.case_uid).await?;
    if attempt > 0 {
        if let Some(done) = s.store.get_case_hour(&c.uid, id).await? {
            return Ok(Some(done));
        }
    }
    let lawyer = case::hour_author(u, &c, req.lawyer.as_deref())?;
    let lawyer_name = s.store.get_user(&lawyer).await?.map(|x| x.full_name()).unwrap_or_default();
    let service = if input.hour.0 > 0 {
        Some(s.store.current_hour_row(&c.customer, now()).await?.ok_or(ApiError::bad(Msg::NoActiveSubscriptionForCase))?.id)
    } else {
        None
    };
    let h = CaseHour {
        id: id.to_string(),
        case_uid: c.uid.clone(),
        lawyer,
        lawyer_name,
        hour: input.hour,
        non_billable_hour: input.non_billable_hour,
        rattsskydd_hour: input.rattsskydd_hour,
        date: input.date,
        time: input.time.clone(),
        is_invoiced: input.is_invoiced,
        service,
        description: input.description.clone(),
        created_at: Utc::now(),
    };
    let hist = entry(&c.uid, u, "hour", None, Some(summary(&h)));
    Ok(s.store.write_case_hour(&c, None, Some(&h), &hist, now()).await?.then_some(h))
}

fn summary(h: &CaseHour) -> String {
    format!(
        "{} {} h (non-billable {}, rättsskydd {})",
        h.date,
        h.hour.to_decimal_string(),
        h.non_billable_hour.to_decimal_string(),
        h.rattsskydd_hour.to_decimal_string()
    )
}

/// A case's hour entries, newest first (whoever may see the case).
#[utoipa::path(get, path = "/api/case/hour/list/", tag = "cases", security(("bearer" = [])), params(CaseQuery),
    responses((status = 200, body = Vec<CaseHour>), (status = 404, body = ErrorBody)))]
async fn hour_list(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Query(q): Query<CaseQuery>,
) -> Result<Json<Vec<CaseHour>>, ApiError> {
    visible_case(&s, &u, &q.case).await?;
    Ok(Json(s.store.case_hours(&q.case).await?))
}

/// Who may change an existing entry: its lawyer (still assigned) or admin.
fn may_change_hour(u: &User, c: &Case, h: &CaseHour) -> Result<(), ApiError> {
    case::hour_author(u, c, Some(&h.lawyer)).and_then(|l| if l == h.lawyer { Ok(()) } else { Err(ApiError::bad(case::CASE_NOT_ASSIGNED)) })
}

/// Edits an entry; the billable difference moves on the subscription row
/// exactly (given back, then booked again, in one transaction).
#[utoipa::path(put, path = "/api/case/hour/edit/{id}/", tag = "cases", security(("bearer" = [])), request_body = HourRequest,
    params(("id" = String, Path, description = "Hour entry id")),
    responses((status = 200, body = CaseHour), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn hour_edit(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<HourRequest>,
) -> Result<Json<CaseHour>, ApiError> {
    let input = case::validate_hours(&req.form)?;
    for attempt in 0..HOUR_ATTEMPTS {
        let (c, _) = visible_case(&s, &u, &req.case_uid).await?;
        let old = s.store.get_case_hour(&c.uid, &id).await?.ok_or(ApiError::NotFound)?;
        may_change_hour(&u, &c, &old)?;
        let service = if input.hour.0 > 0 {
            match old.service {
                Some(p) => Some(p),
                None => {
                    Some(s.store.current_hour_row(&c.customer, now()).await?.ok_or(ApiError::bad(Msg::NoActiveSubscriptionForCase))?.id)
                }
            }
        } else {
            None
        };
        let h = CaseHour {
            hour: input.hour,
            non_billable_hour: input.non_billable_hour,
            rattsskydd_hour: input.rattsskydd_hour,
            date: input.date,
            time: input.time.clone(),
            is_invoiced: input.is_invoiced,
            service,
            description: input.description.clone(),
            ..old.clone()
        };
        let hist = entry(&c.uid, &u, "hour", Some(summary(&old)), Some(summary(&h)));
        if s.store.write_case_hour(&c, Some(&old), Some(&h), &hist, now()).await? {
            return Ok(Json(h));
        }
        pause(attempt).await;
    }
    Err(ApiError::bad(Msg::ChangedConcurrently))
}

/// Deletes an entry; its billable hours go back to the subscription row.
#[utoipa::path(delete, path = "/api/case/hour/delete/{id}/", tag = "cases", security(("bearer" = [])), params(("id" = String, Path, description = "Hour entry id"), CaseQuery),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn hour_delete(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<CaseQuery>,
) -> Result<StatusCode, ApiError> {
    for attempt in 0..HOUR_ATTEMPTS {
        let (c, _) = visible_case(&s, &u, &q.case).await?;
        let old = s.store.get_case_hour(&c.uid, &id).await?.ok_or(ApiError::NotFound)?;
        may_change_hour(&u, &c, &old)?;
        let hist = entry(&c.uid, &u, "hour", Some(summary(&old)), None);
        if s.store.write_case_hour(&c, Some(&old), None, &hist, now()).await? {
            return Ok(StatusCode::NO_CONTENT);
        }
        pause(attempt).await;
    }
    Err(ApiError::bad(Msg::ChangedConcurrently))
}

#[derive(Deserialize, ToSchema, utoipa::IntoParams)]
pub struct ExcelQuery {
    /// Case uid.
    pub case: String,
    /// Language of the column titles: sv (default) or en.
    pub lang: Option<String>,
}

/// The case's hours as an Excel workbook (whoever may see the case).
#[utoipa::path(get, path = "/api/case/hour/excel/", tag = "cases", security(("bearer" = [])), params(ExcelQuery),
    responses((status = 200, description = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), (status = 404, body = ErrorBody)))]
async fn hour_excel(State(s): State<AppState>, CurrentUser(u): CurrentUser, Query(q): Query<ExcelQuery>) -> Result<Response, ApiError> {
    let (c, _) = visible_case(&s, &u, &q.case).await?;
    let hours = s.store.case_hours(&c.uid).await?;
    let body = export::hours_workbook(&c, &hours, q.lang.as_deref().unwrap_or("sv"))?;
    let name = format!("attachment; filename=\"case-{}-hours.xlsx\"", c.case_number);
    Ok(([(header::CONTENT_TYPE, export::XLSX_CONTENT_TYPE.to_string()), (header::CONTENT_DISPOSITION, name)], body).into_response())
}

#[derive(Deserialize, ToSchema, utoipa::IntoParams)]
pub struct SearchQuery {
    #[serde(default)]
    pub search: String,
}

#[derive(Serialize, ToSchema)]
pub struct CustomerOption {
    pub uid: String,
    pub name: String,
}

/// Active customers matching `search` (name, e-mail or company), for the
/// case form's customer picker (admin, sales persons, lawyers); at most 20.
#[utoipa::path(get, path = "/api/case/customer/list/", tag = "cases", security(("bearer" = [])), params(SearchQuery),
    responses((status = 200, body = Vec<CustomerOption>), (status = 403, body = ErrorBody)))]
async fn customer_options(
    State(s): State<AppState>,
    CurrentUser(u): CurrentUser,
    Query(q): Query<SearchQuery>,
) -> Result<Json<Vec<CustomerOption>>, ApiError> {
    staff_side(&u)?;
    let page = s.store.list_customers(shared::domain::customer::CustomerState::Active, None, Some(q.search.trim()), 20).await?;
    Ok(Json(
        page.results
            .into_iter()
            .map(|p| {
                let person = format!("{} {}", p.first_name, p.last_name);
                let name = match p.company_name.filter(|c| !c.trim().is_empty()) {
                    Some(c) => format!("{c} ({person})"),
                    None => person,
                };
                CustomerOption { uid: p.uid, name }
            })
            .collect(),
    ))
}

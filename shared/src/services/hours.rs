//! Hours of a case (spec §3 case hour, §6): a lawyer logs, edits and deletes
//! their entries on their case in progress (admin names the lawyer);
//! billable hours consume the customer's hour subscription in the same
//! transaction as the entry, the usage ledger and the history; bulk
//! invoiced changes; and the additional hours of a month (spec §3), which
//! consume nothing (see [`crate::domain::additional_hour`]).

use std::future::Future;

use chrono::Utc;
use serde::Deserialize;
use utoipa::ToSchema;

use super::cases::{visible, visible_for_write};
use super::events::{self, Event, HoursChange};
use super::retry::{self, Attempt};
use super::Context;
use crate::domain::additional_hour::{self as add, AdditionalHour, AdditionalHourForm};
use crate::domain::case::{self, invoiced_text, Case, CaseHour, HistoryEntry, HourForm};
use crate::domain::policy::{self, Action};
use crate::domain::subscription::whole_seconds;
use crate::domain::User;
use crate::error::{ApiError, Msg};
use crate::store::case_hours::StoredAdditional;
use crate::store::idempotency::Once;
use crate::store::tx::Tx;

/// The case history field of hour entries.
const HOUR: &str = "hour";
/// The additional-hour history field.
const ADDITIONAL: &str = "additional_hour";

fn now() -> chrono::NaiveDateTime {
    whole_seconds(Utc::now().naive_utc())
}

fn done_if<T>(written: bool, value: T) -> Attempt<T> {
    if written {
        Attempt::Done(value)
    } else {
        Attempt::Conflict
    }
}

/// Commits an hour change with the case's hours event.
async fn commit_hours(
    ctx: &Context,
    mut tx: Tx,
    case: &Case,
    by: &User,
    change: HoursChange,
    entries: &[(Option<CaseHour>, Option<CaseHour>)],
) -> Result<bool, ApiError> {
    let queued = events::record(ctx, &mut tx, &[Event::CaseHoursChanged { case, by, change, entries }]).await?;
    events::commit(ctx, tx, queued).await
}

/// Who may change an existing entry: its lawyer (still assigned) or admin.
fn may_change(user: &User, c: &Case, lawyer: &str) -> Result<(), ApiError> {
    let author = policy::hour_author(user, c, Some(lawyer))?;
    if author == lawyer {
        Ok(())
    } else {
        Err(ApiError::bad(case::CASE_NOT_ASSIGNED))
    }
}

/// The subscription row new billable hours are booked against: the one the
/// entry already used, else the customer's current hour row.
async fn booking_row(ctx: &Context, c: &Case, billable: bool, already: Option<u64>) -> Result<Option<u64>, ApiError> {
    if !billable {
        return Ok(None);
    }
    if let Some(id) = already {
        return Ok(Some(id));
    }
    let row = ctx.store.current_hour_row(&c.customer, now()).await?.ok_or(ApiError::bad(Msg::NoActiveSubscriptionForCase))?;
    Ok(Some(row.id))
}

/// A lawyer enters hours on their in-progress case (admin names the lawyer).
pub async fn log(
    ctx: &Context,
    user: &User,
    case_uid: &str,
    lawyer: Option<&str>,
    form: &HourForm,
    once: &Once,
) -> Result<CaseHour, ApiError> {
    let input = case::validate_hours(form)?;
    // One id for every try: an entry whose write landed although its answer
    // was lost counts once.
    let id = uuid::Uuid::new_v4().simple().to_string();
    let (input, id) = (&input, &id);
    retry::until_done(|attempt| async move {
        let c = visible_for_write(ctx, user, case_uid).await?.case;
        if attempt > 0 {
            if let Some(done) = ctx.store.get_case_hour(&c.uid, id).await? {
                return Ok(Attempt::Done(done));
            }
        }
        let lawyer = policy::hour_author(user, &c, lawyer)?;
        let lawyer_name = ctx.store.get_user(&lawyer).await?.map(|x| x.full_name()).unwrap_or_default();
        let service = booking_row(ctx, &c, input.hour.0 > 0, None).await?;
        let h = input.entry(id.clone(), c.uid.clone(), (lawyer, lawyer_name), service, Utc::now());
        let mut tx = ctx.store.tx();
        ctx.store.add_case_hour_write(&mut tx, &c, None, Some(&h), now()).await?;
        ctx.store.add_history(&mut tx, &HistoryEntry::new(&c.uid, user, HOUR, None, Some(h.summary())))?;
        once.record(&mut tx, &h)?;
        Ok(done_if(commit_hours(ctx, tx, &c, user, HoursChange::Logged, &[(None, Some(h.clone()))]).await?, h))
    })
    .await
}

/// A case's hour entries, newest first (whoever may see the case).
pub async fn list(ctx: &Context, user: &User, case_uid: &str) -> Result<Vec<CaseHour>, ApiError> {
    let c = visible(ctx, user, case_uid).await?;
    ctx.store.case_hours(&c.uid).await
}

/// One entry (the update page), for whoever may see the case.
pub async fn get(ctx: &Context, user: &User, case_uid: &str, id: &str) -> Result<CaseHour, ApiError> {
    let c = visible(ctx, user, case_uid).await?;
    ctx.store.get_case_hour(&c.uid, id).await?.ok_or(ApiError::NotFound)
}

/// The case and its entries, for the hours workbook: for whoever may read
/// the case's report ([`Action::ReadCaseReport`]: a lawyer only a case
/// assigned to them, not one of the available pool).
pub async fn for_export(ctx: &Context, user: &User, case_uid: &str) -> Result<(Case, Vec<CaseHour>), ApiError> {
    let c = visible(ctx, user, case_uid).await?;
    policy::require(user, Action::ReadCaseReport(&c))?;
    let hours = ctx.store.case_hours(&c.uid).await?;
    super::audit::export_made(ctx, user, &format!("case/hour/excel {}", c.case_number), Some(&c.customer)).await;
    Ok((c, hours))
}

/// Edits an entry; the billable difference moves on the subscription row
/// exactly (given back, then booked again, in one transaction).
pub async fn edit(ctx: &Context, user: &User, case_uid: &str, id: &str, form: &HourForm) -> Result<CaseHour, ApiError> {
    let input = case::validate_hours(form)?;
    let input = &input;
    retry::until_done(|_| async move {
        let c = visible_for_write(ctx, user, case_uid).await?.case;
        let old = ctx.store.get_case_hour(&c.uid, id).await?.ok_or(ApiError::NotFound)?;
        may_change(user, &c, &old.lawyer)?;
        let service = booking_row(ctx, &c, input.hour.0 > 0, old.service).await?;
        let owner = (old.lawyer.clone(), old.lawyer_name.clone());
        let h = input.entry(old.id.clone(), old.case_uid.clone(), owner, service, old.created_at);
        let mut tx = ctx.store.tx();
        ctx.store.add_case_hour_write(&mut tx, &c, Some(&old), Some(&h), now()).await?;
        ctx.store.add_history(&mut tx, &HistoryEntry::new(&c.uid, user, HOUR, Some(old.summary()), Some(h.summary())))?;
        Ok(done_if(commit_hours(ctx, tx, &c, user, HoursChange::Edited, &[(Some(old.clone()), Some(h.clone()))]).await?, h))
    })
    .await
}

/// Deletes an entry; its billable hours go back to the subscription row.
pub async fn delete(ctx: &Context, user: &User, case_uid: &str, id: &str) -> Result<(), ApiError> {
    retry::until_done(|_| async move {
        let c = visible_for_write(ctx, user, case_uid).await?.case;
        let old = ctx.store.get_case_hour(&c.uid, id).await?.ok_or(ApiError::NotFound)?;
        may_change(user, &c, &old.lawyer)?;
        let mut tx = ctx.store.tx();
        ctx.store.add_case_hour_write(&mut tx, &c, Some(&old), None, now()).await?;
        ctx.store.add_history(&mut tx, &HistoryEntry::new(&c.uid, user, HOUR, Some(old.summary()), None))?;
        Ok(done_if(commit_hours(ctx, tx, &c, user, HoursChange::Deleted, &[(Some(old.clone()), None)]).await?, ()))
    })
    .await
}

/// A bulk invoicing request's entry ids (bounded, none blank) and the value
/// to set, which must be sent: the same for hours and additional hours.
fn invoicing_request(ids: &[String], is_invoiced: Option<bool>) -> Result<(Vec<String>, bool), ApiError> {
    let ids = add::mass_update_ids(ids)?;
    let value = is_invoiced.ok_or_else(|| ApiError::field("is_invoiced", Msg::Required))?;
    Ok((ids, value))
}

/// The entries of `all` that `ids` name, in their order: an id not on this
/// case is 404 and, when `only` is a lawyer (not admin), another lawyer's
/// entry refuses them all. `id_and_lawyer` reads an entry's two fields.
fn named_for_invoicing<'a, T>(
    all: &'a [T],
    ids: &[String],
    only: Option<&str>,
    id_and_lawyer: impl Fn(&T) -> (&String, &String),
) -> Result<Vec<&'a T>, ApiError> {
    let named: Vec<&T> =
        ids.iter().map(|id| all.iter().find(|e| id_and_lawyer(e).0 == id).ok_or(ApiError::NotFound)).collect::<Result<_, _>>()?;
    if let Some(l) = only {
        if named.iter().any(|e| id_and_lawyer(e).1 != l) {
            return Err(ApiError::bad(case::CASE_NOT_ASSIGNED));
        }
    }
    Ok(named)
}

/// An entry kind a bulk invoicing change marks: hour entries ([`CaseHour`])
/// and additional hours ([`AdditionalHour`]). [`mark_invoiced`] applies the
/// rules both share; the kind reads the case's entries and writes the change.
pub trait Invoiced: Sized + Send {
    /// Marks the entries named (an id not on the case: 404; a lawyer's
    /// batch: their own entries only) in the attempt's transaction, with a
    /// history item per changed entry; commits only when one changes.
    /// Answers the named entries as they now are.
    fn mark(m: Marking<'_>) -> impl Future<Output = Result<Attempt<Vec<Self>>, ApiError>> + Send;
}

/// One attempt of a bulk invoicing change, for its entry kind to finish.
pub struct Marking<'a> {
    ctx: &'a Context,
    user: &'a User,
    case: &'a Case,
    /// Holds the invoicing check already.
    tx: Tx,
    /// The lawyer whose own entries alone may be named; none for admin.
    only: Option<&'a str>,
    ids: &'a [String],
    value: bool,
}

/// A bulk change: the named entries of one case (hour entries or
/// additional hours, `K`) marked invoiced or not, all or nothing (one
/// transaction with a history item per changed entry). Admin at any time
/// (closed cases too: invoicing follows the work), the assigned lawyer their
/// own entries while the case is in progress. An id not on this case → 404
/// and nothing changes. Returns the named entries as they now are.
pub async fn mark_invoiced<K: Invoiced>(
    ctx: &Context,
    user: &User,
    case_uid: &str,
    ids: &[String],
    is_invoiced: Option<bool>,
) -> Result<Vec<K>, ApiError> {
    let (ids, value) = invoicing_request(ids, is_invoiced)?;
    let ids = &ids;
    retry::until_done(|_| async move {
        let c = visible_for_write(ctx, user, case_uid).await?.case;
        // Who first: a customer or sales person learns nothing about the ids.
        let only = policy::invoicing_author(user, &c)?;
        let mut tx = ctx.store.tx();
        ctx.store.add_invoicing_check(&mut tx, &c.uid, only.as_deref())?;
        K::mark(Marking { ctx, user, case: &c, tx, only: only.as_deref(), ids, value }).await
    })
    .await
}

impl Invoiced for CaseHour {
    async fn mark(m: Marking<'_>) -> Result<Attempt<Vec<CaseHour>>, ApiError> {
        let Marking { ctx, user, case: c, mut tx, only, ids, value } = m;
        let all = ctx.store.case_hours(&c.uid).await?;
        let named = named_for_invoicing(&all, ids, only, |h| (&h.id, &h.lawyer))?;
        let after: Vec<CaseHour> = named.iter().map(|h| CaseHour { is_invoiced: value, ..(*h).clone() }).collect();
        let changing: Vec<&CaseHour> = named.iter().copied().filter(|h| h.is_invoiced != value).collect();
        if changing.is_empty() {
            return Ok(Attempt::Done(after));
        }
        ctx.store.add_hours_invoiced(&mut tx, &c.uid, only, &changing, value)?;
        for h in &changing {
            let text = h.summary();
            let entry =
                HistoryEntry::new(&c.uid, user, HOUR, Some(invoiced_text(text.clone(), h.is_invoiced)), Some(invoiced_text(text, value)));
            ctx.store.add_history(&mut tx, &entry)?;
        }
        let entries: Vec<(Option<CaseHour>, Option<CaseHour>)> =
            changing.iter().map(|h| (Some((*h).clone()), Some(CaseHour { is_invoiced: value, ..(*h).clone() }))).collect();
        Ok(done_if(commit_hours(ctx, tx, c, user, HoursChange::Invoiced, &entries).await?, after))
    }
}

/// An additional-hour request: the form and, for admin, the lawyer.
#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"case_uid": "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a01", "month": "2026-11", "total_hour": 2, "description": "Extra arbete"}))]
pub struct AdditionalHourRequest {
    #[schema(format = "uuid")]
    pub case_uid: String,
    /// Admin only: the lawyer the hours are for (spec §6).
    #[serde(default, deserialize_with = "crate::domain::text::clean::opt_uuid")]
    #[schema(format = "uuid")]
    pub lawyer: Option<String>,
    #[serde(flatten)]
    pub form: AdditionalHourForm,
}

fn month_taken() -> ApiError {
    ApiError::field("month", add::MONTH_TAKEN)
}

/// Commits an additional-hour change with its own history item.
async fn commit_additional(
    ctx: &Context,
    mut tx: Tx,
    history: &[HistoryEntry],
    case: &Case,
    by: &User,
    change: HoursChange,
) -> Result<bool, ApiError> {
    for h in history {
        ctx.store.add_additional_history(&mut tx, h)?;
    }
    commit_hours(ctx, tx, case, by, change, &[]).await
}

/// The lawyer's additional hours of one month on a case (admin names the
/// lawyer). One entry per month and lawyer; no subscription is consumed.
pub async fn add_additional(ctx: &Context, user: &User, req: &AdditionalHourRequest, once: &Once) -> Result<AdditionalHour, ApiError> {
    let input = add::validate(&req.form)?;
    let id = uuid::Uuid::new_v4().simple().to_string();
    let (input, id) = (&input, &id);
    retry::until_done(|attempt| async move {
        let c = visible_for_write(ctx, user, &req.case_uid).await?.case;
        let lawyer = policy::hour_author(user, &c, req.lawyer.as_deref())?;
        if attempt > 0 {
            if let Some(done) = ctx.store.get_additional_hour(&c.uid, id).await? {
                return Ok(Attempt::Done(done.entry));
            }
        }
        if ctx.store.additional_month_owner(&c.uid, &input.month, &lawyer).await?.is_some() {
            return Err(month_taken());
        }
        let lawyer_name = ctx.store.get_user(&lawyer).await?.map(|x| x.full_name()).unwrap_or_default();
        let now = Utc::now();
        let e = AdditionalHour {
            id: id.clone(),
            case_uid: c.uid.clone(),
            lawyer,
            lawyer_name,
            month: input.month.clone(),
            total_hour: input.total_hour,
            is_invoiced: input.is_invoiced,
            description: input.description.clone(),
            created_at: now,
            updated_at: now,
        };
        let mut tx = ctx.store.tx();
        ctx.store.add_additional_hour_write(&mut tx, &c.uid, None, Some(&e))?;
        let history = HistoryEntry::new(&c.uid, user, ADDITIONAL, None, Some(add::summary(&e)));
        once.record(&mut tx, &e)?;
        Ok(done_if(commit_additional(ctx, tx, &[history], &c, user, HoursChange::Logged).await?, e))
    })
    .await
}

/// A case's additional hours, newest month first (whoever may see the case).
pub async fn additional(ctx: &Context, user: &User, case_uid: &str) -> Result<Vec<AdditionalHour>, ApiError> {
    let c = visible(ctx, user, case_uid).await?;
    Ok(ctx.store.additional_hours(&c.uid).await?.into_iter().map(|a| a.entry).collect())
}

/// One additional-hour entry (the update page).
pub async fn additional_one(ctx: &Context, user: &User, case_uid: &str, id: &str) -> Result<AdditionalHour, ApiError> {
    let c = visible(ctx, user, case_uid).await?;
    Ok(ctx.store.get_additional_hour(&c.uid, id).await?.ok_or(ApiError::NotFound)?.entry)
}

async fn changeable(ctx: &Context, user: &User, case_uid: &str, id: &str) -> Result<(Case, StoredAdditional), ApiError> {
    let c = visible_for_write(ctx, user, case_uid).await?.case;
    let old = ctx.store.get_additional_hour(&c.uid, id).await?.ok_or(ApiError::NotFound)?;
    may_change(user, &c, &old.entry.lawyer)?;
    Ok((c, old))
}

/// Edits an additional-hour entry (month, total hour, invoiced, description);
/// the history keeps before and after.
pub async fn edit_additional(ctx: &Context, user: &User, id: &str, req: &AdditionalHourRequest) -> Result<AdditionalHour, ApiError> {
    let input = add::validate(&req.form)?;
    let input = &input;
    retry::until_done(|_| async move {
        let (c, old) = changeable(ctx, user, &req.case_uid, id).await?;
        if input.month != old.entry.month {
            if let Some(owner) = ctx.store.additional_month_owner(&c.uid, &input.month, &old.entry.lawyer).await? {
                if owner != id {
                    return Err(month_taken());
                }
            }
        }
        let e = AdditionalHour {
            month: input.month.clone(),
            total_hour: input.total_hour,
            is_invoiced: input.is_invoiced,
            description: input.description.clone(),
            updated_at: Utc::now(),
            ..old.entry.clone()
        };
        let mut tx = ctx.store.tx();
        ctx.store.add_additional_hour_write(&mut tx, &c.uid, Some(&old), Some(&e))?;
        let history = HistoryEntry::new(&c.uid, user, ADDITIONAL, Some(add::summary(&old.entry)), Some(add::summary(&e)));
        Ok(done_if(commit_additional(ctx, tx, &[history], &c, user, HoursChange::Edited).await?, e))
    })
    .await
}

/// Deletes an additional-hour entry (and frees its month).
pub async fn delete_additional(ctx: &Context, user: &User, case_uid: &str, id: &str) -> Result<(), ApiError> {
    retry::until_done(|_| async move {
        let (c, old) = changeable(ctx, user, case_uid, id).await?;
        let mut tx = ctx.store.tx();
        ctx.store.add_additional_hour_write(&mut tx, &c.uid, Some(&old), None)?;
        let history = HistoryEntry::new(&c.uid, user, ADDITIONAL, Some(add::summary(&old.entry)), None);
        Ok(done_if(commit_additional(ctx, tx, &[history], &c, user, HoursChange::Deleted).await?, ()))
    })
    .await
}

/// Additional hours are marked with the rules of [`mark_invoiced`]; the
/// case's entries are read with one Query, and a changed entry's
/// `updated_at` is the change's time.
impl Invoiced for AdditionalHour {
    async fn mark(m: Marking<'_>) -> Result<Attempt<Vec<AdditionalHour>>, ApiError> {
        let Marking { ctx, user, case: c, mut tx, only, ids, value } = m;
        let all = ctx.store.additional_hours(&c.uid).await?;
        let named = named_for_invoicing(&all, ids, only, |e| (&e.entry.id, &e.entry.lawyer))?;
        let at = Utc::now();
        let changing: Vec<&StoredAdditional> = named.iter().copied().filter(|e| e.entry.is_invoiced != value).collect();
        let after = |stamp: bool| -> Vec<AdditionalHour> {
            named
                .iter()
                .map(|e| {
                    let changed = e.entry.is_invoiced != value;
                    AdditionalHour {
                        is_invoiced: value,
                        updated_at: if stamp && changed { at } else { e.entry.updated_at },
                        ..e.entry.clone()
                    }
                })
                .collect()
        };
        if changing.is_empty() {
            return Ok(Attempt::Done(after(false)));
        }
        ctx.store.add_additional_invoiced(&mut tx, &c.uid, &changing, value, at)?;
        let history: Vec<HistoryEntry> = changing
            .iter()
            .map(|e| {
                let text = add::summary(&AdditionalHour { is_invoiced: false, ..e.entry.clone() });
                HistoryEntry::new(
                    &c.uid,
                    user,
                    ADDITIONAL,
                    Some(invoiced_text(text.clone(), e.entry.is_invoiced)),
                    Some(invoiced_text(text, value)),
                )
            })
            .collect();
        Ok(done_if(commit_additional(ctx, tx, &history, c, user, HoursChange::Invoiced).await?, after(true)))
    }
}

/// Every recorded change of the case's additional hours, oldest first.
pub async fn additional_history(ctx: &Context, user: &User, case_uid: &str) -> Result<Vec<HistoryEntry>, ApiError> {
    let c = visible(ctx, user, case_uid).await?;
    ctx.store.additional_history(&c.uid).await
}

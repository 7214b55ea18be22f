//! The right to erasure (GDPR art. 17) with the firm's duty to keep case
//! files ([`crate::domain::data_rights`]).
//!
//! The customer asks (one open request at a time); admin approves or
//! refuses with a reason. The decision, its audit event and the mail that
//! tells the customer (to the address it had, written before the address is
//! erased) are one transaction. The erasure itself touches more items than
//! one transaction holds, so it is a row of idempotent steps, each safe to
//! run again, that ends by marking the request erased: [`erase`] runs right
//! after the approval, and again by admin's "approve" on a request still
//! `approved` (a stop between steps). What is erased or anonymised: the
//! contacts' and the customer's accounts (names, address, phone, e-mail
//! replaced by a neutral text, passwords, authenticators, BankID links,
//! mail settings, notifications, mail windows, profile images removed, the
//! accounts made inactive and their sessions ended), the company profile
//! and its search words, the customer's services (signing envelopes,
//! credit reports, meetings, debt-collection claims), support tickets, and
//! exports. Kept, frozen: its cases with their documents (legal hold: every
//! write refused) until their retention ends, and the audit trail.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::Context;
use crate::domain::audit::{AuditAction, AuditEvent};
use crate::domain::case::{Case, CaseStatus, LegalHold};
use crate::domain::data_rights::{self, ErasureRequest, ErasureState, Kept, KeptKind, ERASED_TEXT};
use crate::domain::policy::{self, Action};
use crate::domain::retention::{self, RecordKind};
use crate::domain::statistics as stats;
use crate::domain::User;
use crate::error::{ApiError, Msg};
use crate::store::idempotency::Once;
use crate::store::outbox::{self, Letter};
use crate::store::{keys, table, Item};

/// Requests a customer's page lists.
pub const LIST_LIMIT: i32 = 10;
/// Requests a page of admin's list.
pub const PAGE_SIZE: usize = 20;

/// Refuses a write to a case under legal hold.
pub fn writable(c: &Case) -> Result<(), ApiError> {
    match c.legal_hold {
        Some(_) => Err(ApiError::Conflict(Msg::CaseOnLegalHold)),
        None => Ok(()),
    }
}

/// The day a case's file may be erased: the retention of a case file from
/// the day the matter closed (None while it is open: its retention has not
/// begun).
pub fn case_kept_until(c: &Case) -> Option<NaiveDate> {
    (c.status == CaseStatus::Complete).then(|| retention::kept_until(RecordKind::CaseFile, c.status_at.unwrap_or(c.updated_at)))
}

fn new_id(now: DateTime<Utc>) -> String {
    format!("{}-{}", now.format("%Y%m%d%H%M%S"), &uuid::Uuid::new_v4().simple().to_string()[..12])
}

/// The customer asks to be forgotten. One open request per customer (409
/// `erasure_open`); the customer's own account only (a contact, staff: 403).
pub async fn request(ctx: &Context, caller: &User, customer_uid: &str, once: &Once) -> Result<ErasureRequest, ApiError> {
    policy::require(caller, Action::RequestErasure { customer_uid })?;
    let profile = ctx.store.get_customer_profile(customer_uid).await?.ok_or(ApiError::NotFound)?;
    let now = Utc::now();
    let name =
        profile.company_name.clone().filter(|n| !n.is_empty()).unwrap_or_else(|| format!("{} {}", profile.first_name, profile.last_name));
    let r = ErasureRequest::new(new_id(now), customer_uid, name.trim(), now);
    let mut tx = ctx.store.tx();
    ctx.store.add_erasure_request(&mut tx, &r)?;
    super::audit::add_to(
        &mut tx,
        &AuditEvent::by(caller, AuditAction::CustomerChanged)
            .subject("erasure_requested")
            .detail(r.id.clone())
            .customer(Some(customer_uid)),
    )?;
    once.record(&mut tx, &r)?;
    if !ctx.store.commit(tx).await? {
        return Err(ApiError::Conflict(Msg::ErasureOpen));
    }
    Ok(r)
}

/// A customer's erasure requests, newest first: the customer itself, or admin.
pub async fn requests_of(ctx: &Context, caller: &User, customer_uid: &str) -> Result<Vec<ErasureRequest>, ApiError> {
    policy::require(caller, Action::ExportCustomerData { customer_uid })?;
    if ctx.store.get_customer_profile(customer_uid).await?.is_none() {
        return Err(ApiError::NotFound);
    }
    ctx.store.erasure_requests(customer_uid, LIST_LIMIT).await
}

/// Admin's decision.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[schema(example = json!({"approve": true}))]
pub struct Decision {
    /// Approve (erase now) or refuse.
    pub approve: bool,
    /// Required to refuse (shown to the customer), at most 1000 characters.
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub reason: Option<String>,
}

/// Approves or refuses a pending request (409 `erasure_decided` once
/// decided). Approving a request whose erasure stopped half-way finishes it.
pub async fn decide(ctx: &Context, caller: &User, customer_uid: &str, id: &str, d: &Decision) -> Result<ErasureRequest, ApiError> {
    policy::require(caller, Action::DecideErasure)?;
    // The form first, then the request it names.
    let reason = if d.approve {
        // Not needed to approve, but bounded like any text.
        if d.reason.as_deref().is_some_and(|r| r.chars().count() > data_rights::REASON_MAX) {
            return Err(ApiError::field("reason", Msg::TooLong));
        }
        None
    } else {
        Some(data_rights::refusal_reason(d.reason.as_deref())?)
    };
    let mut r = ctx.store.erasure_request(customer_uid, id.trim()).await?.ok_or(ApiError::NotFound)?;
    match (r.state, d.approve) {
        (ErasureState::Pending, _) => {}
        // A re-run of a stopped erasure.
        (ErasureState::Approved, true) => return erase(ctx, r).await,
        _ => return Err(ApiError::Conflict(Msg::ErasureDecided)),
    }
    let now = Utc::now();
    let customer = ctx.store.get_user(customer_uid).await?.ok_or(ApiError::NotFound)?;
    r.decided_at = Some(now);
    r.decided_by = Some(caller.uid.clone());
    let mut tx = ctx.store.tx();
    let letter;
    if d.approve {
        r.state = ErasureState::Approved;
        r.kept = kept(ctx, customer_uid, now).await?;
        letter = approved_letter(&customer, &r);
    } else {
        r.state = ErasureState::Refused;
        r.reason = reason;
        ctx.store.add_erasure_slot_release(&mut tx, customer_uid, &r.id)?;
        letter = refused_letter(&ctx.config.web_origin, &customer, &r);
    }
    ctx.store.add_erasure_move(&mut tx, &r, ErasureState::Pending)?;
    let subject = if d.approve { "erasure_approved" } else { "erasure_refused" };
    super::audit::add_to(
        &mut tx,
        &AuditEvent::by(caller, AuditAction::CustomerChanged).subject(subject).detail(r.id.clone()).customer(Some(customer_uid)),
    )?;
    let token = uuid::Uuid::new_v4().simple().to_string();
    let mail = ctx.store.add_outbox_letter(&mut tx, outbox::NOTICE, &customer.uid, &token, &letter, now)?;
    if !ctx.store.commit(tx).await? {
        return Err(ApiError::Conflict(Msg::ErasureDecided));
    }
    // Sent before the address is erased (a failure is left to the sweep,
    // which still has the address on the letter).
    super::outbox::send_after_commit(ctx, &mail, None, super::outbox::OnRefusal::Retry).await;
    if d.approve {
        return erase(ctx, r).await;
    }
    Ok(r)
}

/// What an erasure keeps: each case with the day its file may go, and the
/// audit trail.
async fn kept(ctx: &Context, customer_uid: &str, now: DateTime<Utc>) -> Result<Vec<Kept>, ApiError> {
    let mut out = Vec::new();
    for c in cases_of(ctx, customer_uid).await? {
        out.push(Kept { kind: KeptKind::Case, reference: Some(c.case_number.clone()), until: case_kept_until(&c) });
    }
    // Bought services and what was used of them are accounting records,
    // each kept from the end of its row (the latest of them tells).
    let rows = ctx.store.list_purchases(customer_uid).await?;
    if let Some(end) = rows
        .iter()
        .map(|r| {
            let ended = crate::store::subscriptions::billing_ended(r);
            if r.expired {
                ended
            } else {
                ended.max(now)
            }
        })
        .max()
    {
        out.push(Kept { kind: KeptKind::Billing, reference: None, until: Some(retention::kept_until(RecordKind::Billing, end)) });
    }
    let audit_end = retention::kept_until(RecordKind::AuditTrail, now);
    out.push(Kept { kind: KeptKind::AuditTrail, reference: None, until: Some(audit_end) });
    Ok(out)
}

async fn cases_of(ctx: &Context, customer_uid: &str) -> Result<Vec<Case>, ApiError> {
    let mut out = Vec::new();
    for item in ctx.store.index_items(table::GSI2, &keys::case::customer_gsi2pk(customer_uid)).await? {
        let Some(uid) = text(&item, "PK").and_then(|pk| pk.strip_prefix("CASE#").map(str::to_string)) else { continue };
        if let Some(c) = ctx.store.get_case(&uid).await? {
            out.push(c.case);
        }
    }
    out.sort_by(|a, b| a.case_number.cmp(&b.case_number));
    Ok(out)
}

fn text(item: &Item, a: &str) -> Option<String> {
    item.get(a).and_then(|v| v.as_s().ok()).cloned()
}

fn kept_lines(r: &ErasureRequest, sv: bool) -> String {
    r.kept
        .iter()
        .map(|k| {
            let until = k.until.map(|d| d.format("%Y-%m-%d").to_string());
            match (k.kind, sv) {
                (KeptKind::Case, true) => format!(
                    "- Ärende {}: sparas till och med {}",
                    k.reference.as_deref().unwrap_or_default(),
                    until.unwrap_or_else(|| "tio år efter att ärendet avslutats".into())
                ),
                (KeptKind::Case, false) => format!(
                    "- Case {}: kept until {}",
                    k.reference.as_deref().unwrap_or_default(),
                    until.unwrap_or_else(|| "ten years after the matter ends".into())
                ),
                (KeptKind::Billing, true) => {
                    format!("- Bokföringen (köpta tjänster och deras förbrukning): sparas till och med {}", until.unwrap_or_default())
                }
                (KeptKind::Billing, false) => {
                    format!("- Accounting records (bought services and their use): kept until {}", until.unwrap_or_default())
                }
                (KeptKind::AuditTrail, true) => format!("- Granskningsloggen: sparas till och med {}", until.unwrap_or_default()),
                (KeptKind::AuditTrail, false) => format!("- The audit trail: kept until {}", until.unwrap_or_default()),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn approved_letter(customer: &User, r: &ErasureRequest) -> Letter {
    Letter {
        to: customer.email.clone(),
        subject: "Dina uppgifter raderas / Your data is being erased".into(),
        body: format!(
            "Hej,\n\nVi har godkänt din begäran om radering. Dina kontouppgifter, kontaktpersoner, inloggningar och notiser \
             raderas nu och du kan inte längre logga in. Advokatsamfundets regler kräver att vi sparar ärendenas akter; \
             de låses och raderas när tiden löper ut:\n{}\n\n\
             Hello,\n\nWe have approved your request to be forgotten. Your account details, contacts, sign-ins and \
             notifications are being erased and you can no longer sign in. The Bar's rules require us to keep the case \
             files; they are frozen and erased when their time ends:\n{}\n",
            kept_lines(r, true),
            kept_lines(r, false)
        ),
    }
}

fn refused_letter(origin: &str, customer: &User, r: &ErasureRequest) -> Letter {
    let origin = origin.trim_end_matches('/');
    let reason = r.reason.as_deref().unwrap_or_default();
    Letter {
        to: customer.email.clone(),
        subject: "Din begäran om radering / Your request to be forgotten".into(),
        body: format!(
            "Hej {name},\n\nVi kan inte radera dina uppgifter nu. Skäl: {reason}\nLäs mer under Mina uppgifter: {origin}/user/my-data/\n\n\
             Hello {name},\n\nWe cannot erase your data now. Reason: {reason}\nRead more under My data: {origin}/user/my-data/\n",
            name = customer.first_name
        ),
    }
}

/// The erasure's steps, each safe to run again; the request ends `erased`.
pub async fn erase(ctx: &Context, mut r: ErasureRequest) -> Result<ErasureRequest, ApiError> {
    let uid = r.customer_uid.clone();
    let now = Utc::now();
    // 1. Freeze the cases (before anything else: no write may reach them meanwhile).
    let until: std::collections::HashMap<String, Option<NaiveDate>> =
        r.kept.iter().filter(|k| k.kind == KeptKind::Case).filter_map(|k| Some((k.reference.clone()?, k.until))).collect();
    for c in cases_of(ctx, &uid).await? {
        hold(ctx, &c.uid, until.get(&c.case_number).copied().flatten(), now).await?;
    }
    // 2. The people: the contacts and the customer's own account.
    let mut people = Vec::new();
    for item in ctx.store.index_items(table::GSI2, &keys::user::contacts_gsi2pk(&uid)).await? {
        if let Some(contact) = text(&item, "PK").and_then(|pk| pk.strip_prefix("USER#").map(str::to_string)) {
            people.push(contact);
        }
    }
    people.push(uid.clone());
    // 3. What the staff were told about them (notifications, mail), found
    // by their names and addresses while these are still known.
    let mut names = Vec::new();
    for person in &people {
        if let Some(u) = ctx.store.get_user(person).await?.filter(|u| u.email != data_rights::erased_email(person)) {
            names.push(u.email.clone());
            names.push(u.full_name());
        }
    }
    if let Some(p) = ctx.store.get_customer_profile(&uid).await?.filter(|p| p.email != data_rights::erased_email(&uid)) {
        names.extend(p.company_name.clone());
        names.push(p.email.clone());
    }
    names.retain(|n| n.trim().chars().count() >= 3);
    forget_in_staff_news(ctx, &people, &names).await?;
    for person in &people {
        forget_person(ctx, person).await?;
    }
    // 4. The company: its profile, search words, services, tickets, exports.
    forget_customer(ctx, &uid).await?;
    // 5. Done: the request itself keeps no name.
    let from = r.state;
    r.state = ErasureState::Erased;
    r.erased_at = Some(now);
    r.customer_name = ERASED_TEXT.to_string();
    let mut tx = ctx.store.tx();
    ctx.store.add_erasure_move(&mut tx, &r, from)?;
    if !ctx.store.commit(tx).await? {
        // Another run finished it first.
        return ctx.store.erasure_request(&uid, &r.id).await?.ok_or(ApiError::NotFound);
    }
    Ok(r)
}

/// Puts a case under legal hold (nothing when it is already).
async fn hold(ctx: &Context, case_uid: &str, until: Option<NaiveDate>, now: DateTime<Utc>) -> Result<(), ApiError> {
    super::retry::until_done(|_| async {
        let Some(prev) = ctx.store.get_case_for_write(case_uid).await? else { return Ok(super::retry::Attempt::Done(())) };
        if prev.case.legal_hold.is_some() {
            return Ok(super::retry::Attempt::Done(()));
        }
        let mut next = prev.case.clone();
        next.legal_hold = Some(LegalHold { since: now, until });
        let mut tx = ctx.store.tx();
        ctx.store.add_case_write(&mut tx, Some((&prev.case, prev.rev)), &next)?;
        Ok(if ctx.store.commit(tx).await? { super::retry::Attempt::Done(()) } else { super::retry::Attempt::Conflict })
    })
    .await
}

/// Whether an item names one of `names` (case-insensitively, anywhere in its texts).
fn names_any(item: &Item, names: &[String]) -> bool {
    let json = serde_json::Value::Object(crate::store::data_rights::item_json(item.clone())).to_string().to_lowercase();
    names.iter().any(|n| json.contains(&n.to_lowercase()))
}

/// Deletes the staff's notifications and the mail in the outbox that name
/// the erased people (who did what, whose case), and the outbox's mail to
/// them (but the unsent erasure letter). Staff are few: each one's
/// notifications are read.
async fn forget_in_staff_news(ctx: &Context, people: &[String], names: &[String]) -> Result<(), ApiError> {
    let mut gone: Vec<keys::Key> = Vec::new();
    for role in ["admin", "lawyer", "sales_person"] {
        for staff in ctx.store.index_items(table::GSI1, &keys::user::role_gsi1pk(role)).await? {
            let Some(staff_uid) = text(&staff, "PK").and_then(|pk| pk.strip_prefix("USER#").map(str::to_string)) else { continue };
            let pk = keys::notification::pk(&staff_uid);
            for item in ctx.store.partition_items(&pk, keys::notification::PREFIX).await? {
                if names_any(&item, names) {
                    gone.push(keys::Key::new(pk.clone(), text(&item, "SK").unwrap_or_default()));
                }
            }
        }
    }
    for item in ctx.store.partition_items(keys::outbox::PK, "").await? {
        // An unsent notice to them is the erasure's own letter (sent by the
        // sweep when its first sending failed): it goes once sent.
        let unsent_notice = text(&item, "kind").as_deref() == Some(outbox::NOTICE) && !item.contains_key("sent_at");
        let theirs = text(&item, "user_uid").is_some_and(|u| people.contains(&u));
        if (theirs && !unsent_notice) || (!theirs && names_any(&item, names)) {
            gone.push(keys::outbox::at_sk(&text(&item, "SK").unwrap_or_default()));
        }
    }
    ctx.store.delete_keys(&gone).await
}

/// Erases one account: its own records, notifications, mail windows,
/// profile image; the account itself anonymised, inactive,
/// its sessions ended, its address freed.
async fn forget_person(ctx: &Context, uid: &str) -> Result<(), ApiError> {
    let mut gone: Vec<keys::Key> = Vec::new();
    for item in ctx.store.partition_items(&keys::user::pk(uid), "").await? {
        let sk = text(&item, "SK").unwrap_or_default();
        // The account (rewritten below) and its acceptances of terms (no personal data; proof of consent).
        if sk == keys::user::SK || sk.starts_with("ACCEPT#") {
            continue;
        }
        if sk == keys::user::BANKID_SK {
            if let Some(number) = text(&item, "personal_number") {
                gone.push(keys::personal_number::item(&number));
            }
        }
        gone.push(keys::Key::new(keys::user::pk(uid), sk));
    }
    for pk in [keys::notification::pk(uid), keys::event_mail::window_pk(uid)] {
        for item in ctx.store.partition_items(&pk, "").await? {
            gone.push(keys::Key::new(pk.clone(), text(&item, "SK").unwrap_or_default()));
        }
    }
    ctx.store.delete_keys(&gone).await?;
    for key in ctx.files.keys_under(&format!("profile-images/{uid}/")).await? {
        ctx.files.delete(&key).await?;
    }
    let Some(user) = ctx.store.get_user(uid).await? else { return Ok(()) };
    let erased = data_rights::erased_email(uid);
    if user.email == erased {
        return Ok(());
    }
    let mut next = user.clone();
    next.email = erased.clone();
    next.first_name = ERASED_TEXT.into();
    next.last_name = ERASED_TEXT.into();
    next.password_hash = String::new();
    next.phone = None;
    next.image = String::new();
    next.identity_number = None;
    next.two_factor = false;
    next.active = false;
    next.token_version = user.token_version.wrapping_add(1);
    let mut tx = ctx.store.tx();
    ctx.store.add_user_put(&mut tx, &next)?;
    ctx.store.add_email_move(&mut tx, uid, &user.email, &erased)?;
    if !ctx.store.commit(tx).await? {
        return Err(ApiError::bad(Msg::ChangedConcurrently));
    }
    Ok(())
}

/// Sort-key prefixes of the customer's partition that are erased: the
/// activation link, the signing provider's token, the credit-information
/// account, signing envelopes, credit reports, meetings, debt collection.
const CUSTOMER_ERASED: [&str; 8] = ["ACTIVATION", "VERIFIED", "BISNODE", "ENVELOPE#", "CREDIT#", "MEETING#", "INKASSO", "EXPORT#"];

/// Erases the company's own data: the profile anonymised (inactive, its
/// registration number freed, its search words replaced), its services'
/// records and files, its support tickets, its exports.
async fn forget_customer(ctx: &Context, uid: &str) -> Result<(), ApiError> {
    let mut gone: Vec<keys::Key> = Vec::new();
    for item in ctx.store.partition_items(&keys::customer::pk(uid), "").await? {
        let sk = text(&item, "SK").unwrap_or_default();
        if CUSTOMER_ERASED.iter().any(|p| sk.starts_with(p)) {
            gone.push(keys::Key::new(keys::customer::pk(uid), sk));
        }
    }
    for item in ctx.store.index_items(table::GSI1, &keys::ticket::customer_gsi1pk(uid)).await? {
        let Some(pk) = text(&item, "PK") else { continue };
        for t in ctx.store.partition_items(&pk, "").await? {
            gone.push(keys::Key::new(pk.clone(), text(&t, "SK").unwrap_or_default()));
        }
    }
    ctx.store.delete_keys(&gone).await?;
    for folder in ["support", "envelopes", "inkasso", "exports"] {
        for key in ctx.files.keys_under(&format!("{folder}/{uid}/")).await? {
            ctx.files.delete(&key).await?;
        }
    }
    // The profile's rewrite is decided from the profile as read; a change
    // meanwhile (staff deactivating or editing the customer) fails it, and
    // it is read and decided again.
    super::retry::until_done(|_| async {
        let Some(tx) = profile_erasure(ctx, uid).await? else { return Ok(super::retry::Attempt::Done(())) };
        Ok(if ctx.store.commit(tx).await? { super::retry::Attempt::Done(()) } else { super::retry::Attempt::Conflict })
    })
    .await
}

/// The company profile anonymised, with what follows from it (the
/// dashboards' counters moved, its registration number freed, its search
/// words replaced), as one transaction conditional on the profile exactly
/// as read here: committed after a change of the profile, it writes
/// nothing. `None` when there is no profile or it is erased already.
/// (Public so a test can change the profile between this read and the commit.)
pub async fn profile_erasure(ctx: &Context, uid: &str) -> Result<Option<crate::store::tx::Tx>, ApiError> {
    let Some((profile, read)) = ctx.store.get_customer_profile_as_stored(uid).await? else { return Ok(None) };
    let erased = data_rights::erased_email(uid);
    if profile.email == erased {
        return Ok(None);
    }
    let mut next = profile.clone();
    let blank = |a: &crate::domain::customer::Address| crate::domain::customer::Address {
        address_1: ERASED_TEXT.into(),
        address_2: String::new(),
        city: ERASED_TEXT.into(),
        post_code: String::new(),
        country: a.country,
    };
    next.email = erased;
    next.first_name = ERASED_TEXT.into();
    next.last_name = ERASED_TEXT.into();
    next.company_name = next.company_name.as_ref().map(|_| ERASED_TEXT.to_string());
    next.company_registration_number = None;
    next.phone = ERASED_TEXT.into();
    next.profile = blank(&profile.profile);
    next.invoice_address = blank(&profile.invoice_address);
    next.state = crate::domain::customer::CustomerState::Inactive;
    let words = ctx.store.customer_words(uid).await?;
    let mut tx = ctx.store.tx();
    // The dashboards: the customer is no longer active (it counts as
    // inactive now, and as deactivated today); its sign-up and approval
    // stay counted on their days. Its cases are kept under legal hold and
    // count as what they are until the retention job erases them.
    let mut moved = stats::Deltas::diff(&stats::customer_contribution(&profile), &stats::customer_contribution(&next));
    moved.merge(&stats::customer_flows(Some(&profile), &next, Utc::now()), 1);
    ctx.store.add_counters(&mut tx, &crate::store::stats::counter_writes(&moved.pruned(), stats::fnv(uid)))?;
    ctx.store.add_profile_put_as_read(&mut tx, &next, &read)?;
    if let Some(number) = &profile.company_registration_number {
        ctx.store.add_registration_number_release(&mut tx, number, uid)?;
    }
    ctx.store.add_customer_words(&mut tx, &next, &words)?;
    Ok(Some(tx))
}

/// One row of admin's data-rights requests list.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RequestRow {
    /// `export` or `erasure`.
    pub kind: String,
    pub id: String,
    pub customer_uid: String,
    /// The customer's name as it is now (erased customers show the neutral text).
    pub customer_name: String,
    /// An export's `queued|running|ready|failed|expired`, an erasure's `pending|approved|erased|refused`.
    pub state: String,
    #[schema(value_type = String)]
    pub created_at: DateTime<Utc>,
    /// When it was decided (an erasure) or finished (an export).
    #[schema(value_type = Option<String>)]
    pub done_at: Option<DateTime<Utc>>,
    /// A refusal's reason.
    pub reason: Option<String>,
}

/// A page of admin's list.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RequestPage {
    pub results: Vec<RequestRow>,
    /// Pass as `cursor` for the next page; absent on the last.
    pub next: Option<String>,
}

/// The states admin's list filters on.
pub const STATES: [&str; 9] = ["queued", "running", "ready", "failed", "expired", "pending", "approved", "erased", "refused"];

/// Every customer's data-rights requests, newest first, optionally in one
/// state: admin.
pub async fn all_requests(ctx: &Context, caller: &User, state: Option<&str>, cursor: Option<&str>) -> Result<RequestPage, ApiError> {
    policy::require(caller, Action::DecideErasure)?;
    let state = state.map(str::trim).filter(|s| !s.is_empty());
    if state.is_some_and(|s| !STATES.contains(&s)) {
        return Err(ApiError::field("status", Msg::Invalid));
    }
    let cursor = cursor.map(str::trim).filter(|c| !c.is_empty());
    if cursor.is_some_and(|c| c.len() > 200) {
        return Err(ApiError::field("cursor", Msg::Invalid));
    }
    let now = Utc::now();
    let (items, next) = ctx.store.data_requests(cursor, PAGE_SIZE, state).await?;
    let mut rows = Vec::new();
    for item in items {
        let kind = text(&item, "entity").unwrap_or_default();
        let row = match kind.as_str() {
            "data_export" => {
                let Ok(e) = serde_dynamo::from_item::<_, data_rights::DataExport>(item) else { continue };
                RequestRow {
                    kind: "export".into(),
                    id: e.id.clone(),
                    customer_uid: e.customer_uid.clone(),
                    customer_name: String::new(),
                    state: serde_json::to_value(e.state_at(now)).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default(),
                    created_at: e.created_at,
                    done_at: e.finished_at,
                    reason: None,
                }
            }
            "erasure_request" => {
                let Ok(r) = serde_dynamo::from_item::<_, ErasureRequest>(item) else { continue };
                RequestRow {
                    kind: "erasure".into(),
                    id: r.id,
                    customer_uid: r.customer_uid,
                    customer_name: String::new(),
                    state: r.state.word().into(),
                    created_at: r.created_at,
                    done_at: r.decided_at,
                    reason: r.reason,
                }
            }
            _ => continue,
        };
        rows.push(row);
    }
    let uids: Vec<String> = rows.iter().map(|r| r.customer_uid.clone()).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
    let profiles = ctx.store.get_customer_profiles(&uids).await?;
    for row in &mut rows {
        if let Some(p) = profiles.get(&row.customer_uid) {
            row.customer_name = p
                .company_name
                .clone()
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| format!("{} {}", p.first_name, p.last_name))
                .trim()
                .to_string();
        }
    }
    Ok(RequestPage { results: rows, next })
}

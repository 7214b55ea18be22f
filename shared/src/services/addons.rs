//! Add-on services behind their purchase: the access rule of spec
//! §5 on every call, the verified-signing token, signing envelopes and
//! credit reports. Each use is booked on the service's subscription row in
//! the same transaction as its record (the row's consumed count raised under
//! the limit rule, the ledger entry), so the limit holds exactly under
//! concurrent use and the use shows in the subscriptions table and the CSV
//! time report. Provider calls never run inside a transaction: what a call
//! answers is written afterwards, idempotently (the record's uid is the
//! provider's idempotency key).

use chrono::{NaiveDateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::events::{self, Event, SubscriptionChange};
use super::retry::{self, Attempt};
use super::Context;
use crate::domain::addons::{
    self as rules, AccessFacts, Addon, CreditReport, Envelope, EnvelopeForm, EnvelopeState, SentDocument, VerifiedToken,
};
use crate::domain::policy::{self, Action};
use crate::domain::subscription::{PurchasedService, UsageEntry};
use crate::domain::{Role, User};
use crate::error::{ApiError, Msg};
use crate::providers::http::ProviderError;
use crate::providers::signing::{token_expiry, EnvelopeFlags, Session};
use crate::store::idempotency::Once;
use crate::store::subscriptions::StoredRow;
use crate::store::tx::Tx;

fn now() -> NaiveDateTime {
    Utc::now().naive_utc()
}

/// The facts of the access rule for a customer and `addon`: its rows of
/// that service (the rule looks at no other), read beside the rest.
async fn facts(ctx: &Context, customer_uid: &str, addon: Addon) -> Result<AccessFacts, ApiError> {
    let (rows, (bisnode_active, _), token) = tokio::try_join!(
        ctx.store.purchases_of_service(customer_uid, addon.service_id()),
        ctx.store.bisnode_account(customer_uid),
        ctx.store.verified_token(customer_uid)
    )?;
    Ok(AccessFacts { rows: rows.into_iter().map(|r| r.row).collect(), bisnode_active, has_token: token.is_some() })
}

/// Spec §5 for `addon`: the customer the caller works for and the facts.
pub async fn access(ctx: &Context, user: &User, addon: Addon, token_exempt: bool) -> Result<(String, AccessFacts), ApiError> {
    let customer = rules::customer_of(user)?;
    let f = facts(ctx, &customer, addon).await?;
    rules::may_use(user, addon, &f, now(), token_exempt)?;
    Ok((customer, f))
}

/// A usable row of the service (re-read: the one a booking is made on).
fn row_for(f: &AccessFacts, addon: Addon) -> Result<PurchasedService, ApiError> {
    rules::usable_row(&f.rows, addon, now()).cloned().ok_or(ApiError::ForbiddenBy(Msg::ServiceNotPurchased))
}

/// The usable row of `addon`, read consistently with its revision (the one
/// a booking is conditional on).
pub(crate) async fn stored_row(ctx: &Context, customer: &str, addon: Addon) -> Result<StoredRow, ApiError> {
    let rows = ctx.store.purchases_of_service(customer, addon.service_id()).await?;
    let listed: Vec<PurchasedService> = rows.iter().map(|r| r.row.clone()).collect();
    let id = rules::usable_row(&listed, addon, now()).map(|r| r.id).ok_or(ApiError::ForbiddenBy(Msg::ServiceNotPurchased))?;
    rows.into_iter().find(|r| r.row.id == id).ok_or(ApiError::ForbiddenBy(Msg::ServiceNotPurchased))
}

/// Adds to `tx` one use of `row` (ledger entry `entry_id`) with its event.
pub(crate) async fn book(
    ctx: &Context,
    tx: &mut Tx,
    row: &StoredRow,
    entry_id: &str,
    user: &User,
    what: &str,
) -> Result<events::Queued, ApiError> {
    let at = now();
    let entry = UsageEntry {
        entry_id: entry_id.to_string(),
        purchase_id: row.row.id,
        date: at.date(),
        hours: crate::domain::catalogue::Hundredths::ZERO,
        count: 1,
        case_uid: None,
        description: what.chars().take(200).collect(),
        lawyer: user.full_name(),
    };
    // The rules on the row as read (expired, not started, the limit); the
    // booking's own condition holds the limit against concurrent uses.
    let next = crate::domain::subscription::consume(&row.row, entry.usage(), at).map_err(|e| ApiError::bad(e.key()))?;
    ctx.store.add_counted_use(tx, &row.row, &entry, at)?;
    events::record(ctx, tx, &[Event::SubscriptionChanged { row: &next, change: SubscriptionChange::Used }]).await
}

/// A request id from the client (32 hex digits) makes a retried request
/// land on the same record; without one, a new id. The older `request_id`
/// body fields still count (one release); the `Idempotency-Key` header
/// gives the same through [`Once::stable_id`].
pub(crate) fn record_id(request_id: Option<&str>) -> String {
    match request_id.map(str::trim) {
        Some(r) if r.len() == 32 && r.chars().all(|c| c.is_ascii_hexdigit()) => r.to_ascii_lowercase(),
        _ => uuid::Uuid::new_v4().simple().to_string(),
    }
}

// ----------------------------------------------------- verify services ----

/// `customer/verify-services/?service=`: the caller's usable rows of the
/// named service (spec §7; at least one means allowed). A contact without
/// the service's permission gets none.
pub async fn verify_services(ctx: &Context, user: &User, service: &str) -> Result<Vec<PurchasedService>, ApiError> {
    let addon = Addon::from_name(service).ok_or(ApiError::field("service", Msg::Invalid))?;
    let customer = rules::customer_of(user)?;
    if crate::domain::policy::lacks_service_permission(user, addon.contact_permission()) {
        return Ok(Vec::new());
    }
    let rows: Vec<PurchasedService> =
        ctx.store.purchases_of_service(&customer, addon.service_id()).await?.into_iter().map(|r| r.row).collect();
    Ok(rules::usable_row(&rows, addon, now()).cloned().into_iter().collect())
}

// --------------------------------------------------------------- token ----

#[derive(Serialize, ToSchema)]
pub struct TokenState {
    /// A token is held for the company.
    pub registered: bool,
    /// The provider accepts it.
    pub valid: bool,
}

fn login_error(e: ProviderError) -> ApiError {
    match e {
        ProviderError::Refused(401 | 403 | 404 | 422) => ApiError::bad(Msg::VerifiedLoginFailed),
        e => e.into(),
    }
}

/// A token without an `exp` is taken to last this long.
const TOKEN_FALLBACK_SECS: i64 = 30 * 60;
/// A token is renewed this long before it runs out.
const TOKEN_MARGIN_SECS: i64 = 60;

fn basic_of(username: &str, password: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(format!("{username}:{password}"))
}

fn unbasic(basic: &str) -> Option<(String, String)> {
    use base64::Engine;
    let raw = base64::engine::general_purpose::STANDARD.decode(basic).ok()?;
    let (u, p) = std::str::from_utf8(&raw).ok()?.split_once(':')?;
    Some((u.to_string(), p.to_string()))
}

/// The company's id at Verified: the characters its ids have, bounded (the
/// API document's pattern, `api_docs::patterns::company_id`).
pub fn company_id(raw: &str) -> Result<String, ApiError> {
    let id = raw.trim();
    let ok = !id.is_empty() && id.len() <= 100 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(id.to_string())
    } else {
        Err(ApiError::field("company", Msg::Invalid))
    }
}

/// Logs in at the provider (`POST /auth`), checks the token against the
/// company, and keeps token, company, user and the Basic credential (to
/// renew the token when it runs out).
async fn open_session(
    ctx: &Context,
    customer: &str,
    user: &User,
    email: &str,
    password: &str,
    company: &str,
) -> Result<TokenState, ApiError> {
    let signing = &ctx.providers.signing;
    let token = signing.auth(email, password).await.map_err(login_error)?;
    let session = Session { token: token.clone(), company_id: company.to_string() };
    if !signing.check(&session).await? {
        return Err(ApiError::bad(Msg::VerifiedLoginFailed));
    }
    let at = Utc::now();
    let t = VerifiedToken {
        expires_at: Some(token_expiry(&token, at, TOKEN_FALLBACK_SECS)),
        token,
        company_id: company.to_string(),
        user_id: user.uid.clone(),
        basic_token: basic_of(email, password),
        created_at: at,
    };
    ctx.store.put_verified_token(customer, &t).await?;
    Ok(TokenState { registered: true, valid: true })
}

/// `verified/`: connects the company's Verified account (its company id and
/// the credentials of a user of it) and keeps the token.
pub async fn register_token(ctx: &Context, user: &User, company: &str, email: &str, password: &str) -> Result<TokenState, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, true).await?;
    let email = email.trim().to_ascii_lowercase();
    if !crate::domain::user::is_valid_email(&email) {
        return Err(ApiError::field("email", Msg::InvalidEmail));
    }
    if password.chars().count() < 6 || password.len() > 200 {
        return Err(ApiError::field("password", Msg::Invalid));
    }
    let company = company_id(company)?;
    open_session(ctx, &customer, user, &email, password, &company).await
}

/// `verified/auth/`: logs in again (another user, a changed password) for
/// the company connected before, or the one given.
pub async fn login_token(ctx: &Context, user: &User, email: &str, password: &str, company: Option<&str>) -> Result<TokenState, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, true).await?;
    let email = email.trim().to_ascii_lowercase();
    if email.is_empty() || password.is_empty() || password.len() > 200 {
        return Err(ApiError::bad(Msg::VerifiedLoginFailed));
    }
    let company = match company.map(str::trim).filter(|c| !c.is_empty()) {
        Some(c) => company_id(c)?,
        None => ctx.store.verified_token(&customer).await?.map(|t| t.company_id).ok_or(ApiError::bad(Msg::VerifiedLoginFailed))?,
    };
    open_session(ctx, &customer, user, &email, password, &company).await
}

/// `verified/check/`: whether a token is held and the provider accepts it
/// (renewed first when it ran out).
pub async fn check_token(ctx: &Context, user: &User) -> Result<TokenState, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, true).await?;
    if ctx.store.verified_token(&customer).await?.is_none() {
        return Ok(TokenState { registered: false, valid: false });
    }
    let valid = match session_of(ctx, &customer).await {
        Ok(s) => ctx.providers.signing.check(&s).await?,
        Err(ApiError::BadRequest { .. }) => false,
        Err(e) => return Err(e),
    };
    Ok(TokenState { registered: true, valid })
}

/// A new token from the kept credential; none kept, or refused: the
/// company must log in again.
async fn renew(ctx: &Context, customer: &str, mut t: VerifiedToken) -> Result<Session, ApiError> {
    let (u, p) = unbasic(&t.basic_token).ok_or(ApiError::bad(Msg::VerifiedLoginFailed))?;
    let token = ctx.providers.signing.auth(&u, &p).await.map_err(login_error)?;
    t.expires_at = Some(token_expiry(&token, Utc::now(), TOKEN_FALLBACK_SECS));
    t.token = token;
    ctx.store.put_verified_token(customer, &t).await?;
    Ok(Session { token: t.token, company_id: t.company_id })
}

/// The company's session at the provider, renewed when it runs out within a minute.
pub(crate) async fn session_of(ctx: &Context, customer: &str) -> Result<Session, ApiError> {
    let t = ctx.store.verified_token(customer).await?.ok_or(ApiError::ForbiddenBy(Msg::VerifiedTokenMissing))?;
    let fresh = t.expires_at.is_some_and(|e| e - chrono::Duration::seconds(TOKEN_MARGIN_SECS) > Utc::now());
    if fresh || t.basic_token.is_empty() {
        Ok(Session { token: t.token, company_id: t.company_id })
    } else {
        renew(ctx, customer, t).await
    }
}

/// `call` with the company's session; a 401 (the token revoked or run out
/// early) renews the token once and calls again.
pub(crate) async fn signed<'c, T>(
    ctx: &'c Context,
    customer: &str,
    call: impl Fn(Session) -> crate::providers::Fut<'c, T>,
) -> Result<T, ApiError> {
    let s = session_of(ctx, customer).await?;
    match call(s).await {
        Err(ProviderError::Refused(401)) => {
            let t = ctx.store.verified_token(customer).await?.ok_or(ApiError::ForbiddenBy(Msg::VerifiedTokenMissing))?;
            let s = renew(ctx, customer, t).await?;
            Ok(call(s).await?)
        }
        r => Ok(r?),
    }
}

// ------------------------------------------------------------ envelopes ----

fn envelope_prefix(customer: &str) -> String {
    format!("envelopes/{customer}/")
}

/// A presigned PUT for a PDF of an envelope (checked by content when saved).
pub async fn envelope_upload_url(ctx: &Context, user: &User, name: &str) -> Result<super::documents::UploadTarget, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, false).await?;
    if !name.trim().to_ascii_lowercase().ends_with(".pdf") {
        return Err(ApiError::field("name", Msg::InvalidPdf));
    }
    super::documents::issue_upload(ctx, &envelope_prefix(&customer), name).await
}

/// Every document is an uploaded, well-formed PDF of this customer without
/// active content ([`crate::domain::pdf`]).
async fn check_documents(ctx: &Context, customer: &str, form: &EnvelopeForm) -> Result<(), ApiError> {
    let prefix = envelope_prefix(customer);
    for (i, d) in form.documents.iter().enumerate() {
        let ours = d.key.starts_with(&prefix) && d.key.ends_with(".pdf") && !d.key.contains("..");
        if ours {
            // Uploads land under pending/ (expired after a day unless confirmed): this save confirms it.
            ctx.files.claim_upload(&d.key).await?;
        }
        // Parsed whole: a PDF with scripts, actions or embedded files is
        // never sent to signers.
        let verdict = if ours { super::documents::pdf_verdict(ctx, &d.key).await? } else { Err(Msg::InvalidPdf) };
        if let Err(why) = verdict {
            if ours {
                ctx.files.discard_upload(&d.key).await?;
            }
            return Err(ApiError::field(format!("documents.{i}"), why));
        }
    }
    Ok(())
}

/// Creates a draft envelope, booked as one use of the Verified plan in the
/// same transaction ('Limit has been reached, please upgrade your account').
pub async fn create_envelope(
    ctx: &Context,
    user: &User,
    form: &EnvelopeForm,
    request_id: Option<&str>,
    once: &Once,
) -> Result<Envelope, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, false).await?;
    let form = rules::validate_envelope(form)?;
    check_documents(ctx, &customer, &form).await?;
    let uid = record_id(request_id.or(once.stable_id().as_deref()));
    let (customer, uid, form) = (&customer, &uid, &form);
    retry::until_done(|attempt| async move {
        // A try whose write landed although its answer was lost counts once.
        if attempt > 0 {
            if let Some((done, _)) = ctx.store.envelope(customer, uid).await? {
                return Ok(Attempt::Done(done));
            }
        }
        let row = stored_row(ctx, customer, Addon::Verified).await?;
        let at = Utc::now();
        let e = Envelope {
            uid: uid.clone(),
            customer_uid: customer.clone(),
            name: form.name.clone(),
            documents: form.documents.clone(),
            recipients: form.recipients.clone(),
            sequential: form.sequential,
            state: EnvelopeState::Draft,
            provider_id: None,
            purchase_id: row.row.id,
            signed_key: None,
            sending: None,
            created_by: user.uid.clone(),
            created_at: at,
            updated_at: at,
        };
        let mut tx = ctx.store.tx();
        ctx.store.add_envelope(&mut tx, &e, None)?;
        once.record(&mut tx, &e)?;
        let queued = book(ctx, &mut tx, &row, &format!("envelope-{uid}"), user, &format!("Verified: {}", e.name)).await?;
        Ok(if events::commit(ctx, tx, queued).await? { Attempt::Done(e) } else { Attempt::Conflict })
    })
    .await
}

async fn own_envelope(ctx: &Context, customer: &str, uid: &str) -> Result<(Envelope, u64), ApiError> {
    ctx.store.envelope(customer, uid).await?.ok_or(ApiError::NotFound)
}

/// Writes `e` over revision `rev`; false when someone changed it meanwhile.
async fn save_envelope(ctx: &Context, e: &Envelope, rev: u64) -> Result<bool, ApiError> {
    let mut tx = ctx.store.tx();
    ctx.store.add_envelope(&mut tx, e, Some(rev))?;
    ctx.store.commit(tx).await
}

/// Changes a draft (same rules as create).
pub async fn update_envelope(ctx: &Context, user: &User, uid: &str, form: &EnvelopeForm) -> Result<Envelope, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, false).await?;
    let form = rules::validate_envelope(form)?;
    check_documents(ctx, &customer, &form).await?;
    let (customer, form) = (&customer, &form);
    retry::until_done(|_| async move {
        let (mut e, rev) = own_envelope(ctx, customer, uid).await?;
        if e.state != EnvelopeState::Draft {
            return Err(ApiError::bad(Msg::EnvelopeNotDraft));
        }
        e.name = form.name.clone();
        e.documents = form.documents.clone();
        e.recipients = form.recipients.clone();
        e.sequential = form.sequential;
        e.updated_at = Utc::now();
        Ok(if save_envelope(ctx, &e, rev).await? { Attempt::Done(e) } else { Attempt::Conflict })
    })
    .await
}

/// How long one send holds the envelope (a second send meanwhile waits).
const SEND_LEASE_SECS: i64 = 120;

/// Sends a draft: the provider's steps one by one (outside any
/// transaction), each answer stored before the next step, so a send cut off
/// by a crash or a timeout resumes where it stopped (the envelope's uid at
/// the provider is stored right after it is created; no second envelope,
/// document or recipient is made for one draft). Published, it is `sent`.
pub async fn send_envelope(ctx: &Context, user: &User, uid: &str) -> Result<Envelope, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, false).await?;
    session_of(ctx, &customer).await?;
    let (mut e, mut rev) = own_envelope(ctx, &customer, uid).await?;
    if e.state != EnvelopeState::Draft {
        return Err(ApiError::bad(Msg::EnvelopeNotDraft));
    }
    let now = Utc::now();
    let mut p = e.sending.clone().unwrap_or_default();
    if p.lease_until.is_some_and(|l| l > now) {
        // Another send of this draft is under way: it is answered as it stands.
        return Ok(e);
    }
    p.lease_until = Some(now + chrono::Duration::seconds(SEND_LEASE_SECS));
    e.sending = Some(p);
    if !save_envelope(ctx, &e, rev).await? {
        return Ok(own_envelope(ctx, &customer, uid).await?.0);
    }
    rev += 1;
    match send_steps(ctx, &customer, &mut e, &mut rev).await {
        Ok(()) => Ok(e),
        Err(err) => {
            // The lease is let go so a retry may resume at once.
            if let Some(p) = e.sending.as_mut() {
                p.lease_until = None;
                let _ = save_envelope(ctx, &e, rev).await;
            }
            Err(err)
        }
    }
}

/// Writes the progress (`e` over `rev`); someone else's write meanwhile
/// (the draft cancelled) stops the send.
async fn step_done(ctx: &Context, e: &Envelope, rev: &mut u64) -> Result<(), ApiError> {
    if save_envelope(ctx, e, *rev).await? {
        *rev += 1;
        Ok(())
    } else {
        Err(ApiError::Conflict(Msg::EnvelopeNotDraft))
    }
}

async fn send_steps(ctx: &Context, customer: &str, e: &mut Envelope, rev: &mut u64) -> Result<(), ApiError> {
    let signing = &ctx.providers.signing;
    let id = match e.provider_id.clone() {
        Some(id) => id,
        None => {
            let id = signed(ctx, customer, |s| Box::pin(async move { signing.create(&s).await })).await?;
            e.provider_id = Some(id.clone());
            step_done(ctx, e, rev).await?;
            id
        }
    };
    let id = id.as_str();
    let mut p = e.sending.clone().unwrap_or_default();
    if !p.settings_done {
        let sequential = e.sequential;
        signed(ctx, customer, |s| Box::pin(async move { signing.settings(&s, id, sequential).await })).await?;
        p.settings_done = true;
        e.sending = Some(p.clone());
        step_done(ctx, e, rev).await?;
    }
    // A resumed send first looks for what an interrupted one added.
    let mut found_docs = if p.documents.len() < e.documents.len() {
        signed(ctx, customer, |s| Box::pin(async move { signing.documents(&s, id).await })).await?
    } else {
        Vec::new()
    };
    found_docs.retain(|(doc, _)| !p.documents.iter().any(|d| &d.id == doc));
    for (i, d) in e.documents.clone().iter().enumerate() {
        if p.documents.len() <= i {
            let doc = match found_docs.iter().position(|(_, name)| name == &d.name) {
                Some(at) => found_docs.remove(at).0,
                None => signed(ctx, customer, |s| Box::pin(async move { signing.add_document(&s, id, &d.name).await })).await?,
            };
            p.documents.push(SentDocument { id: doc, file_id: None, uploaded: false });
            e.sending = Some(p.clone());
            step_done(ctx, e, rev).await?;
        }
        if !p.documents[i].uploaded {
            let doc = p.documents[i].id.clone();
            let doc = doc.as_str();
            let slot = signed(ctx, customer, |s| Box::pin(async move { signing.add_file(&s, id, doc, &d.name).await })).await?;
            let pdf = ctx.files.bytes(&d.key).await?;
            signing.upload(&slot.url, pdf).await?;
            p.documents[i].file_id = Some(slot.file_id);
            p.documents[i].uploaded = true;
            e.sending = Some(p.clone());
            step_done(ctx, e, rev).await?;
        }
    }
    let mut found = if p.recipients.len() < e.recipients.len() {
        signed(ctx, customer, |s| Box::pin(async move { signing.recipients(&s, id).await })).await?
    } else {
        Vec::new()
    };
    found.retain(|(rid, _)| !p.recipients.contains(rid));
    for (i, r) in e.recipients.clone().iter().enumerate().skip(p.recipients.len()) {
        let order = if e.sequential { i as u32 + 1 } else { 1 };
        let rid = match found.iter().position(|(_, email)| email.eq_ignore_ascii_case(&r.email)) {
            Some(at) => found.remove(at).0,
            None => signed(ctx, customer, |s| Box::pin(async move { signing.add_recipient(&s, id, r, order).await })).await?,
        };
        p.recipients.push(rid);
        e.sending = Some(p.clone());
        step_done(ctx, e, rev).await?;
    }
    signed(ctx, customer, |s| Box::pin(async move { signing.publish(&s, id).await })).await?;
    p.lease_until = None;
    e.sending = Some(p);
    e.state = EnvelopeState::Sent;
    e.updated_at = Utc::now();
    // With the pointer the provider's callback finds the envelope.
    let mut tx = ctx.store.tx();
    ctx.store.add_envelope(&mut tx, e, Some(*rev))?;
    ctx.store.add_envelope_pointer(&mut tx, id, customer, &e.uid)?;
    if ctx.store.commit(tx).await? {
        *rev += 1;
        Ok(())
    } else {
        Err(ApiError::Conflict(Msg::EnvelopeNotDraft))
    }
}

/// The provider's ids of the recipients who sign or approve and have not yet.
fn waiting_recipients(e: &Envelope) -> Vec<String> {
    let ids = e.sending.as_ref().map(|p| p.recipients.clone()).unwrap_or_default();
    e.recipients.iter().zip(ids).filter(|(r, _)| r.role != "viewer" && !r.signed).map(|(_, id)| id).collect()
}

/// Reminds the recipients who have not signed a sent envelope (the
/// provider's `send.notification` job, one per recipient).
pub async fn remind_envelope(ctx: &Context, user: &User, uid: &str) -> Result<Envelope, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, false).await?;
    let (e, _) = own_envelope(ctx, &customer, uid).await?;
    let (EnvelopeState::Sent, Some(id)) = (e.state, e.provider_id.as_deref()) else { return Err(ApiError::bad(Msg::EnvelopeNotSent)) };
    let signing = &ctx.providers.signing;
    for rid in waiting_recipients(&e) {
        let rid = rid.as_str();
        signed(ctx, &customer, |s| Box::pin(async move { signing.remind(&s, id, rid).await })).await?;
    }
    Ok(e)
}

/// The signing page of the envelope's recipient with `email` (the
/// provider's `get.sign.link` job), for signing in the portal; back to the
/// envelope's page afterwards.
pub async fn sign_link(ctx: &Context, user: &User, uid: &str, email: &str) -> Result<String, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, false).await?;
    let (e, _) = own_envelope(ctx, &customer, uid).await?;
    let (EnvelopeState::Sent, Some(id)) = (e.state, e.provider_id.as_deref()) else { return Err(ApiError::bad(Msg::EnvelopeNotSent)) };
    let ids = e.sending.as_ref().map(|p| p.recipients.clone()).unwrap_or_default();
    let rid = e
        .recipients
        .iter()
        .zip(ids)
        .find(|(r, _)| r.role != "viewer" && r.email.eq_ignore_ascii_case(email.trim()))
        .map(|(_, id)| id)
        .ok_or(ApiError::NotFound)?;
    let redirect = format!("{}/customer/services/contract-sign/", ctx.config.web_origin.trim_end_matches('/'));
    let (signing, rid, redirect) = (&ctx.providers.signing, rid.as_str(), redirect.as_str());
    signed(ctx, &customer, |s| Box::pin(async move { signing.sign_link(&s, id, rid, redirect).await })).await
}

/// Cancels a draft (here) or a sent envelope (aborted at the provider first).
pub async fn cancel_envelope(ctx: &Context, user: &User, uid: &str) -> Result<Envelope, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, false).await?;
    let (e, _) = own_envelope(ctx, &customer, uid).await?;
    match (e.state, e.provider_id.as_deref()) {
        (EnvelopeState::Sent, Some(id)) => {
            let signing = &ctx.providers.signing;
            signed(ctx, &customer, |s| Box::pin(async move { signing.abort(&s, id).await })).await?
        }
        (EnvelopeState::Draft, _) => {}
        _ => return Err(ApiError::bad(Msg::EnvelopeNotSent)),
    }
    let customer = &customer;
    retry::until_done(|_| async move {
        let (mut e, rev) = own_envelope(ctx, customer, uid).await?;
        if matches!(e.state, EnvelopeState::Completed | EnvelopeState::Cancelled | EnvelopeState::Expired) {
            return Ok(Attempt::Done(e));
        }
        e.state = EnvelopeState::Cancelled;
        e.updated_at = Utc::now();
        Ok(if save_envelope(ctx, &e, rev).await? { Attempt::Done(e) } else { Attempt::Conflict })
    })
    .await
}

/// Asks the provider about a sent envelope and applies its flags (see
/// [`apply_status`]). A provider failure leaves the envelope as it was.
pub(crate) async fn sync(ctx: &Context, e: Envelope) -> Result<Envelope, ApiError> {
    let (Some(id), EnvelopeState::Sent) = (e.provider_id.clone(), e.state) else { return Ok(e) };
    let (signing, id) = (&ctx.providers.signing, id.as_str());
    let flags = signed(ctx, &e.customer_uid, |s| Box::pin(async move { signing.status(&s, id).await })).await?;
    apply_status(ctx, &e.customer_uid, &e.uid, &flags).await
}

/// What the provider's flags say about a sent envelope (polled, or read
/// when its webhook tells of a change: one path for both). Completed, every
/// recipient who signs or approves has, and the signed PDF is kept with the
/// customer. An answer that changes nothing writes nothing, so a repeated
/// webhook or poll is harmless.
pub(crate) async fn apply_status(ctx: &Context, customer: &str, uid: &str, flags: &EnvelopeFlags) -> Result<Envelope, ApiError> {
    let state = match flags.state() {
        "completed" => EnvelopeState::Completed,
        "cancelled" => EnvelopeState::Cancelled,
        "expired" => EnvelopeState::Expired,
        _ => EnvelopeState::Sent,
    };
    let (current, _) = own_envelope(ctx, customer, uid).await?;
    let signed_key = match (state, current.state, current.provider_id.as_deref(), current.sending.as_ref()) {
        (EnvelopeState::Completed, EnvelopeState::Sent, Some(id), Some(p)) => match p.documents.first() {
            Some(SentDocument { id: doc, file_id: Some(file), .. }) => {
                let (signing, doc, file) = (&ctx.providers.signing, doc.as_str(), file.as_str());
                let pdf = signed(ctx, customer, |s| Box::pin(async move { signing.signed_pdf(&s, id, doc, file).await })).await?;
                let key = format!("{}{}-signed.pdf", envelope_prefix(customer), uid);
                ctx.files.put_bytes(&key, "application/pdf", pdf).await?;
                Some(key)
            }
            _ => None,
        },
        _ => None,
    };
    let signed_key = &signed_key;
    retry::until_done(|_| async move {
        let (mut e, rev) = own_envelope(ctx, customer, uid).await?;
        if e.state != EnvelopeState::Sent || state == EnvelopeState::Sent {
            return Ok(Attempt::Done(e));
        }
        if state == EnvelopeState::Completed {
            e.recipients.iter_mut().filter(|r| r.role != "viewer").for_each(|r| r.signed = true);
        }
        e.state = state;
        e.signed_key = signed_key.clone().or(e.signed_key);
        e.updated_at = Utc::now();
        Ok(if save_envelope(ctx, &e, rev).await? { Attempt::Done(e) } else { Attempt::Conflict })
    })
    .await
}

/// At most this many sent envelopes are polled per list.
pub const SYNC_PER_LIST: usize = 10;

/// The customer's envelopes, newest first; sent ones polled (a provider
/// failure shows them as last known).
pub async fn list_envelopes(ctx: &Context, user: &User) -> Result<Vec<Envelope>, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, false).await?;
    session_of(ctx, &customer).await?;
    let mut out = Vec::new();
    let mut polled = 0;
    for e in ctx.store.envelopes(&customer).await? {
        if e.state == EnvelopeState::Sent && polled < SYNC_PER_LIST {
            polled += 1;
            let kept = e.clone();
            out.push(sync(ctx, e).await.unwrap_or(kept));
        } else {
            out.push(e);
        }
    }
    Ok(out)
}

/// One envelope (polled when sent).
pub async fn get_envelope(ctx: &Context, user: &User, uid: &str) -> Result<Envelope, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, false).await?;
    session_of(ctx, &customer).await?;
    let (e, _) = own_envelope(ctx, &customer, uid).await?;
    sync(ctx, e).await
}

/// The signed PDF of a completed envelope.
pub async fn signed_download(ctx: &Context, user: &User, uid: &str) -> Result<super::documents::DownloadUrl, ApiError> {
    let e = get_envelope(ctx, user, uid).await?;
    match (&e.state, &e.signed_key) {
        (EnvelopeState::Completed, Some(key)) => {
            let name = format!("{}-signed.pdf", e.name);
            Ok(super::documents::DownloadUrl { url: ctx.files.presign_download(key, &name).await?, name })
        }
        _ => Err(ApiError::bad(Msg::EnvelopeNotCompleted)),
    }
}

// -------------------------------------------------------- credit check ----

/// Admin or a sales person turns a customer's credit-information account
/// on or off (`customer/bisnode/`, customer details).
pub async fn set_credit_account(
    ctx: &Context,
    caller: &User,
    customer_uid: &str,
    active: bool,
    account: Option<&str>,
) -> Result<(), ApiError> {
    policy::require(caller, Action::ManageSubscriptions)?;
    match ctx.store.get_user(customer_uid).await? {
        Some(u) if crate::domain::policy::is(&u, Role::Customer) => {}
        _ => return Err(ApiError::NotFound),
    }
    let account = account.map(str::trim).filter(|a| !a.is_empty()).map(|a| a.chars().take(100).collect::<String>());
    let account = account.or_else(|| active.then(|| customer_uid.to_string()));
    ctx.store.put_bisnode_account(customer_uid, active, account.as_deref()).await
}

/// What a lookup asks for, as sent (checked by [`rules::credit_request`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct CreditAsk<'a> {
    pub kind: &'a str,
    pub number: &'a str,
    pub legitimate_need: Option<&'a str>,
    pub copy_email: Option<&'a str>,
    pub copy_address: Option<&'a str>,
}

/// Looks up a company or a person: the provider's report (or a pending one,
/// ready later), kept with the customer and booked as one use. The use is
/// checked before the provider is asked, and booked with the report. A
/// person's report keeps its legitimate need, and the person is sent the
/// copy by e-mail at once (or it is recorded as a letter for the office to
/// post).
pub async fn credit_lookup(
    ctx: &Context,
    user: &User,
    ask: &CreditAsk<'_>,
    request_id: Option<&str>,
    once: &Once,
) -> Result<CreditReport, ApiError> {
    let (customer, f) = access(ctx, user, Addon::Bisnode, false).await?;
    let checked = rules::credit_request(ask.kind, ask.number, ask.legitimate_need, ask.copy_email, ask.copy_address)?;
    let (kind, number) = (checked.kind.clone(), checked.number.clone());
    let uid = record_id(request_id.or(once.stable_id().as_deref()));
    if let Some((done, _)) = ctx.store.credit_report(&customer, &uid).await? {
        return Ok(done);
    }
    let row = row_for(&f, Addon::Bisnode)?;
    crate::domain::subscription::consume(&row, crate::domain::subscription::Usage::Count(1), now()).map_err(|e| ApiError::bad(e.key()))?;
    let (_, account) = ctx.store.bisnode_account(&customer).await?;
    let account = account.unwrap_or_else(|| customer.clone());
    let answer = ctx.providers.credit.order(&account, &uid, &kind, &number).await?;
    let (customer, uid, kind, number, answer, checked) = (&customer, &uid, &kind, &number, &answer, &checked);
    let report = retry::until_done(|attempt| async move {
        if attempt > 0 {
            if let Some((done, _)) = ctx.store.credit_report(customer, uid).await? {
                return Ok(Attempt::Done(done));
            }
        }
        let row = stored_row(ctx, customer, Addon::Bisnode).await?;
        let r = CreditReport {
            uid: uid.clone(),
            customer_uid: customer.clone(),
            kind: kind.clone(),
            number: number.clone(),
            status: answer.status.clone(),
            provider_id: answer.id.clone(),
            name: answer.report.as_ref().map(|b| b.name.clone()),
            rating: answer.report.as_ref().map(|b| b.rating.clone()),
            payment_remarks: answer.report.as_ref().map(|b| b.payment_remarks),
            turnover: answer.report.as_ref().and_then(|b| b.turnover),
            legitimate_need: checked.legitimate_need.clone(),
            subject_copy: checked.copy.clone(),
            purchase_id: row.row.id,
            created_by: user.uid.clone(),
            created_at: Utc::now(),
        };
        let mut tx = ctx.store.tx();
        ctx.store.add_credit_report(&mut tx, &r, None)?;
        once.record(&mut tx, &r)?;
        let queued = book(ctx, &mut tx, &row, &format!("credit-{uid}"), user, &format!("Bisnode: {number}")).await?;
        Ok(if events::commit(ctx, tx, queued).await? { Attempt::Done(r) } else { Attempt::Conflict })
    })
    .await?;
    Ok(send_copy(ctx, user, report).await)
}

/// Sends a person's report's copy by e-mail when it has not gone yet, and
/// records when it went; a failed send leaves it unsent (the list shows it
/// and the next listing tries again). A report with nothing to send is
/// answered as it is.
async fn send_copy(ctx: &Context, user: &User, report: CreditReport) -> CreditReport {
    let Some(copy) = report.subject_copy.as_ref().filter(|c| c.channel == "email" && c.sent_at.is_none()) else { return report };
    let body = copy_mail(&report, &user.full_name());
    if let Err(e) = ctx.mail.send(&copy.to, "Kopia av kreditupplysning / Copy of a credit report", &body).await {
        tracing::warn!(error = %e, "credit report copy not sent");
        return report;
    }
    let sent = async {
        let Some((mut stored, rev)) = ctx.store.credit_report(&report.customer_uid, &report.uid).await? else { return Ok(None) };
        if let Some(c) = stored.subject_copy.as_mut() {
            c.sent_at = Some(Utc::now());
        }
        let mut tx = ctx.store.tx();
        ctx.store.add_credit_report(&mut tx, &stored, Some(rev))?;
        ctx.store.commit(tx).await?;
        Ok::<_, ApiError>(Some(stored))
    };
    match sent.await {
        Ok(Some(stored)) => stored,
        // Sent, not recorded: a later listing may send it once more, never none.
        _ => report,
    }
}

/// The copy's text, Swedish then English: who asked, when, about whom, why,
/// and what the report said.
pub fn copy_mail(r: &CreditReport, asked_by: &str) -> String {
    let when = r.created_at.format("%Y-%m-%d %H:%M UTC");
    let name = r.name.as_deref().unwrap_or("–");
    let rating = r.rating.as_deref().unwrap_or("–");
    let remarks = r.payment_remarks.map_or_else(|| "–".to_string(), |n| n.to_string());
    let turnover = r.turnover.map_or_else(|| "–".to_string(), |t| format!("{t} SEK"));
    let need = r.legitimate_need.as_deref().unwrap_or("–");
    format!(
        "Hej!\n\nEn kreditupplysning om dig ({number}) har tagits fram {when} från Dun & Bradstreet på begäran av {asked_by}. \
         Enligt kreditupplysningslagen får du en kopia av upplysningen.\n\nBerättigat behov: {need}\nNamn: {name}\nRating: {rating}\n\
         Betalningsanmärkningar: {remarks}\nOmsättning: {turnover}\n\n---\n\nHello,\n\nA credit report on you ({number}) was obtained {when} \
         from Dun & Bradstreet at the request of {asked_by}. By Swedish law (kreditupplysningslagen) you receive a copy of it.\n\n\
         Legitimate need: {need}\nName: {name}\nRating: {rating}\nPayment remarks: {remarks}\nTurnover: {turnover}\n",
        number = r.number,
    )
}

/// The customer's reports, newest first; pending ones asked again (at most
/// [`SYNC_PER_LIST`]), a provider failure leaving them pending.
pub async fn credit_reports(ctx: &Context, user: &User) -> Result<Vec<CreditReport>, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Bisnode, false).await?;
    let (_, account) = ctx.store.bisnode_account(&customer).await?;
    let account = account.unwrap_or_else(|| customer.clone());
    let mut out = Vec::new();
    let mut polled = 0;
    for r in ctx.store.credit_reports(&customer).await? {
        if r.status == "pending" && polled < SYNC_PER_LIST {
            polled += 1;
            if let Ok(a) = ctx.providers.credit.fetch(&account, &r.provider_id).await {
                if let (Some(body), Some((mut stored, rev))) = (a.report, ctx.store.credit_report(&customer, &r.uid).await?) {
                    stored.status = "ready".into();
                    stored.name = Some(body.name);
                    stored.rating = Some(body.rating);
                    stored.payment_remarks = Some(body.payment_remarks);
                    stored.turnover = body.turnover;
                    let mut tx = ctx.store.tx();
                    ctx.store.add_credit_report(&mut tx, &stored, Some(rev))?;
                    ctx.store.commit(tx).await?;
                    out.push(stored);
                    continue;
                }
            }
        }
        out.push(r);
    }
    // Copies that could not be sent at the lookup: tried again, a few a listing.
    let mut resent = 0;
    for r in out.iter_mut() {
        let unsent = r.subject_copy.as_ref().is_some_and(|c| c.channel == "email" && c.sent_at.is_none());
        if unsent && resent < SYNC_PER_LIST {
            resent += 1;
            *r = send_copy(ctx, user, r.clone()).await;
        }
    }
    Ok(out)
}

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
use crate::domain::addons::{self as rules, AccessFacts, Addon, CreditReport, Envelope, EnvelopeForm, EnvelopeState, VerifiedToken};
use crate::domain::policy::{self, Action};
use crate::domain::subscription::{PurchasedService, UsageEntry};
use crate::domain::{Role, User};
use crate::error::{ApiError, Msg};
use crate::providers::http::ProviderError;
use crate::providers::signing::{NewEnvelope, SendDocument};
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
    if user.role() == Some(Role::CustomerContact) && addon.contact_permission().is_some_and(|p| !crate::domain::permissions::holds(user, p))
    {
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
        ProviderError::Refused(401 | 403 | 422) => ApiError::bad(Msg::VerifiedLoginFailed),
        e => e.into(),
    }
}

async fn keep_token(ctx: &Context, customer: &str, user: &User, token: String) -> Result<TokenState, ApiError> {
    let t = VerifiedToken { token, company_id: customer.to_string(), user_id: user.uid.clone(), created_at: Utc::now() };
    ctx.store.put_verified_token(customer, &t).await?;
    Ok(TokenState { registered: true, valid: true })
}

/// `verified/`: registers the company at the signing provider and keeps the token.
pub async fn register_token(ctx: &Context, user: &User, company: &str, email: &str, password: &str) -> Result<TokenState, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, true).await?;
    let email = email.trim().to_ascii_lowercase();
    if !crate::domain::user::is_valid_email(&email) {
        return Err(ApiError::field("email", Msg::InvalidEmail));
    }
    if password.chars().count() < 6 {
        return Err(ApiError::field("password", Msg::Invalid));
    }
    let token = ctx.providers.signing.register(company.trim(), &email, password).await.map_err(login_error)?;
    keep_token(ctx, &customer, user, token).await
}

/// `verified/auth/`: logs in to an existing provider account and keeps the token.
pub async fn login_token(ctx: &Context, user: &User, email: &str, password: &str) -> Result<TokenState, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, true).await?;
    let email = email.trim().to_ascii_lowercase();
    if email.is_empty() || password.is_empty() {
        return Err(ApiError::bad(Msg::VerifiedLoginFailed));
    }
    let token = ctx.providers.signing.login(&email, password).await.map_err(login_error)?;
    keep_token(ctx, &customer, user, token).await
}

/// `verified/check/`: whether a token is held and the provider accepts it.
pub async fn check_token(ctx: &Context, user: &User) -> Result<TokenState, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, true).await?;
    match ctx.store.verified_token(&customer).await? {
        None => Ok(TokenState { registered: false, valid: false }),
        Some(t) => Ok(TokenState { registered: true, valid: ctx.providers.signing.check(&t.token).await? }),
    }
}

pub(crate) async fn token_of(ctx: &Context, customer: &str) -> Result<String, ApiError> {
    Ok(ctx.store.verified_token(customer).await?.ok_or(ApiError::ForbiddenBy(Msg::VerifiedTokenMissing))?.token)
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

/// Sends a draft to the provider (outside any transaction; the envelope's
/// uid is the idempotency key, so a retry finds the same provider envelope),
/// then marks it sent.
pub async fn send_envelope(ctx: &Context, user: &User, uid: &str) -> Result<Envelope, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, false).await?;
    let token = token_of(ctx, &customer).await?;
    let (e, _) = own_envelope(ctx, &customer, uid).await?;
    if e.state != EnvelopeState::Draft {
        return Err(ApiError::bad(Msg::EnvelopeNotDraft));
    }
    let mut documents = Vec::new();
    for d in &e.documents {
        documents.push(SendDocument { name: d.name.clone(), url: ctx.files.presign_download(&d.key, &d.name).await? });
    }
    let outgoing = NewEnvelope { name: e.name.clone(), sequential: e.sequential, documents, recipients: e.recipients.clone() };
    let status = ctx.providers.signing.create(&token, &e.uid, &outgoing).await?;
    let (customer, status) = (&customer, &status);
    retry::until_done(|_| async move {
        let (mut e, rev) = own_envelope(ctx, customer, uid).await?;
        if e.state != EnvelopeState::Draft {
            return Ok(Attempt::Done(e));
        }
        e.state = EnvelopeState::Sent;
        e.provider_id = Some(status.id.clone());
        e.updated_at = Utc::now();
        // With the pointer the provider's callback finds the envelope.
        let mut tx = ctx.store.tx();
        ctx.store.add_envelope(&mut tx, &e, Some(rev))?;
        ctx.store.add_envelope_pointer(&mut tx, &status.id, customer, uid)?;
        Ok(if ctx.store.commit(tx).await? { Attempt::Done(e) } else { Attempt::Conflict })
    })
    .await
}

/// Reminds the recipients who have not signed a sent envelope.
pub async fn remind_envelope(ctx: &Context, user: &User, uid: &str) -> Result<Envelope, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, false).await?;
    let (e, _) = own_envelope(ctx, &customer, uid).await?;
    match (e.state, &e.provider_id) {
        (EnvelopeState::Sent, Some(id)) => {
            ctx.providers.signing.remind(&token_of(ctx, &customer).await?, id).await?;
            Ok(e)
        }
        _ => Err(ApiError::bad(Msg::EnvelopeNotSent)),
    }
}

/// Cancels a draft (here) or a sent envelope (at the provider first).
pub async fn cancel_envelope(ctx: &Context, user: &User, uid: &str) -> Result<Envelope, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, false).await?;
    let (e, _) = own_envelope(ctx, &customer, uid).await?;
    match (e.state, &e.provider_id) {
        (EnvelopeState::Sent, Some(id)) => ctx.providers.signing.cancel(&token_of(ctx, &customer).await?, id).await?,
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

/// Polls the provider for a sent envelope (see [`apply_status`]). A
/// provider failure leaves the envelope as it was.
async fn sync(ctx: &Context, token: &str, e: Envelope) -> Result<Envelope, ApiError> {
    let (Some(id), EnvelopeState::Sent) = (e.provider_id.clone(), e.state) else { return Ok(e) };
    let status = ctx.providers.signing.status(token, &id).await?;
    apply_status(ctx, token, &e.customer_uid, &e.uid, &status).await
}

/// What the provider says about a sent envelope, by polling or by its
/// callback (one path for both): recipients' progress (a signature is never
/// taken back), and on completion the signed PDF kept with the customer.
/// An answer that changes nothing writes nothing, so a repeated callback
/// or poll is harmless.
pub(crate) async fn apply_status(
    ctx: &Context,
    token: &str,
    customer: &str,
    uid: &str,
    status: &crate::providers::signing::EnvelopeStatus,
) -> Result<Envelope, ApiError> {
    let state = match status.state.as_str() {
        "completed" => EnvelopeState::Completed,
        "cancelled" => EnvelopeState::Cancelled,
        "expired" => EnvelopeState::Expired,
        _ => EnvelopeState::Sent,
    };
    let (current, _) = own_envelope(ctx, customer, uid).await?;
    let signed_key = if state == EnvelopeState::Completed && current.state == EnvelopeState::Sent {
        let id = current.provider_id.clone().unwrap_or_else(|| status.id.clone());
        let pdf = ctx.providers.signing.signed_pdf(token, &id).await?;
        let key = format!("{}{}-signed.pdf", envelope_prefix(customer), uid);
        ctx.files.put_bytes(&key, "application/pdf", pdf).await?;
        Some(key)
    } else {
        None
    };
    let signed_key = &signed_key;
    retry::until_done(|_| async move {
        let (mut e, rev) = own_envelope(ctx, customer, uid).await?;
        if e.state != EnvelopeState::Sent {
            return Ok(Attempt::Done(e));
        }
        let before = (e.recipients.iter().map(|r| r.signed).collect::<Vec<_>>(), e.state);
        for r in e.recipients.iter_mut() {
            r.signed = r.signed || status.recipients.iter().any(|s| s.email.eq_ignore_ascii_case(&r.email) && s.signed);
        }
        e.state = state;
        if before == (e.recipients.iter().map(|r| r.signed).collect::<Vec<_>>(), e.state) {
            return Ok(Attempt::Done(e));
        }
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
    let token = token_of(ctx, &customer).await?;
    let mut out = Vec::new();
    let mut polled = 0;
    for e in ctx.store.envelopes(&customer).await? {
        if e.state == EnvelopeState::Sent && polled < SYNC_PER_LIST {
            polled += 1;
            let kept = e.clone();
            out.push(sync(ctx, &token, e).await.unwrap_or(kept));
        } else {
            out.push(e);
        }
    }
    Ok(out)
}

/// One envelope (polled when sent).
pub async fn get_envelope(ctx: &Context, user: &User, uid: &str) -> Result<Envelope, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Verified, false).await?;
    let token = token_of(ctx, &customer).await?;
    let (e, _) = own_envelope(ctx, &customer, uid).await?;
    sync(ctx, &token, e).await
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
        Some(u) if u.role() == Some(Role::Customer) => {}
        _ => return Err(ApiError::NotFound),
    }
    let account = account.map(str::trim).filter(|a| !a.is_empty()).map(|a| a.chars().take(100).collect::<String>());
    let account = account.or_else(|| active.then(|| customer_uid.to_string()));
    ctx.store.put_bisnode_account(customer_uid, active, account.as_deref()).await
}

/// Looks up a company or a person: the provider's report (or a pending one,
/// ready later), kept with the customer and booked as one use. The use is
/// checked before the provider is asked, and booked with the report.
pub async fn credit_lookup(
    ctx: &Context,
    user: &User,
    kind: &str,
    number: &str,
    request_id: Option<&str>,
    once: &Once,
) -> Result<CreditReport, ApiError> {
    let (customer, f) = access(ctx, user, Addon::Bisnode, false).await?;
    let (kind, number) = rules::credit_lookup(kind, number)?;
    let uid = record_id(request_id.or(once.stable_id().as_deref()));
    if let Some((done, _)) = ctx.store.credit_report(&customer, &uid).await? {
        return Ok(done);
    }
    let row = row_for(&f, Addon::Bisnode)?;
    crate::domain::subscription::consume(&row, crate::domain::subscription::Usage::Count(1), now()).map_err(|e| ApiError::bad(e.key()))?;
    let (_, account) = ctx.store.bisnode_account(&customer).await?;
    let account = account.unwrap_or_else(|| customer.clone());
    let answer = ctx.providers.credit.order(&account, &uid, &kind, &number).await?;
    let (customer, uid, kind, number, answer) = (&customer, &uid, &kind, &number, &answer);
    retry::until_done(|attempt| async move {
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
    .await
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
    Ok(out)
}

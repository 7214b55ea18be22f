//! Debt collection and the contract-check link.
//!
//! The Inkasso account application (spec §3) goes to the provider, which
//! decides later ('come back after 30 minutes', spec §9): while `applied`,
//! each read of the application asks the provider once (bounded, as the
//! delayed credit report), and its decision is kept. Once approved, the
//! customer registers claims under the creditor account the provider gave;
//! each claim is one use of the Incasso plan, booked in the same
//! transaction as its record (exact under concurrent use). Provider calls
//! never run inside a transaction; the claim's uid is the provider's
//! idempotency key, so a retried request never makes two claims.

use chrono::Utc;
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::addons::{access, book, record_id, stored_row, SYNC_PER_LIST};
use super::events;
use super::retry::{self, Attempt};
use super::Context;
use crate::domain::addons::{self as rules, Addon, InkassoAccount, InkassoProspect};
use crate::domain::inkasso::{validate_claim, Claim, ClaimForm};
use crate::domain::User;
use crate::error::{ApiError, Msg};
use crate::providers::inkasso::{NewClaim, ProspectAnswer};
use crate::store::idempotency::Once;

/// Spec §9: an application (like a delayed credit report) is answered
/// within this many minutes; the screen says to come back after them.
pub const COME_BACK_MINUTES: i64 = 30;

fn claim_prefix(customer: &str) -> String {
    format!("inkasso/{customer}/")
}

/// Keeps what the provider decided about the application.
fn decided(mut p: InkassoProspect, a: &ProspectAnswer) -> InkassoProspect {
    p.provider_id = Some(a.id.clone());
    if a.state == "approved" || a.state == "rejected" {
        p.state = a.state.clone();
        p.approved_date = (a.state == "approved").then(Utc::now);
        p.creditor_id = a.creditor_id.clone();
        p.creditor_hash = a.creditor_hash.clone();
    }
    p
}

/// An `applied` application asked at the provider once; its decision kept.
/// A provider failure shows the last known state.
async fn follow(ctx: &Context, customer: &str, p: InkassoProspect) -> Result<InkassoProspect, ApiError> {
    let (Some(id), "applied") = (p.provider_id.clone(), p.state.as_str()) else { return Ok(p) };
    match ctx.providers.inkasso.prospect(&id).await {
        Ok(a) if a.state != "pending" => {
            let next = decided(p, &a);
            ctx.store.put_inkasso_prospect(customer, &next).await?;
            Ok(next)
        }
        _ => Ok(p),
    }
}

/// `inkasso/prospect/`: the company's Inkasso account application, if any
/// (asked again at the provider while undecided).
pub async fn prospect(ctx: &Context, user: &User) -> Result<Option<InkassoProspect>, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Incasso, false).await?;
    match ctx.store.inkasso_prospect(&customer).await? {
        Some(p) => Ok(Some(follow(ctx, &customer, p).await?)),
        None => Ok(None),
    }
}

/// The idempotency key of an application: the company and what it applies
/// with, so a retried submission is the same application at the provider
/// and a corrected one (after a rejection) a new one.
fn application_key(customer: &str, account: &InkassoAccount) -> String {
    let body = serde_json::to_vec(account).unwrap_or_default();
    let digest: String = Sha256::digest([customer.as_bytes(), b":", &body].concat()).iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!("prospect-{digest}")
}

/// Applies for (or corrects) the company's Inkasso account (spec §3 fields
/// validated) and submits it to the provider; the application is `applied`
/// until the provider decides. An approved account stays as it is.
pub async fn apply(ctx: &Context, user: &User, form: &InkassoAccount) -> Result<InkassoProspect, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Incasso, false).await?;
    let account = rules::validate_inkasso(form)?;
    let current = ctx.store.inkasso_prospect(&customer).await?;
    if let Some(p) = &current {
        if p.state == "approved" || (p.state == "applied" && p.account == account && p.provider_id.is_some()) {
            return Ok(p.clone());
        }
    }
    let answer = ctx.providers.inkasso.apply(&application_key(&customer, &account), &account).await?;
    let p = InkassoProspect {
        account,
        state: "applied".into(),
        applied_at: Utc::now(),
        approved_date: None,
        provider_id: None,
        creditor_id: None,
        creditor_hash: None,
    };
    let p = decided(p, &answer);
    ctx.store.put_inkasso_prospect(&customer, &p).await?;
    Ok(p)
}

/// One identifier linking the company to its account at the provider.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct InkassoHash {
    /// The company's organisation number, as applied with.
    pub organization_number: String,
    /// The provider's creditor account id.
    pub creditor_id: String,
    /// The hash the provider identifies the company's account by.
    pub hash: String,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub approved_date: Option<chrono::DateTime<Utc>>,
}

/// `inkasso-hashs/` (spec §7 lists only the name). Our reading: the hashes
/// (identifiers) that link the company to its Inkasso account at the
/// provider, given when the provider approves the application — the
/// creditor account claims are registered under and the hash the provider
/// knows the company by. Empty until approved; a list because the call's
/// name is plural, though a company holds one account.
pub async fn hashes(ctx: &Context, user: &User) -> Result<Vec<InkassoHash>, ApiError> {
    let Some(p) = prospect(ctx, user).await? else { return Ok(Vec::new()) };
    match (p.state.as_str(), p.creditor_id, p.creditor_hash) {
        ("approved", Some(creditor_id), Some(hash)) => {
            Ok(vec![InkassoHash { organization_number: p.account.organization_number, creditor_id, hash, approved_date: p.approved_date }])
        }
        _ => Ok(Vec::new()),
    }
}

/// The creditor account of an approved application ('come back after 30
/// minutes' while the provider has not decided).
async fn creditor(ctx: &Context, user: &User) -> Result<String, ApiError> {
    match prospect(ctx, user).await? {
        Some(InkassoProspect { creditor_id: Some(c), state, .. }) if state == "approved" => Ok(c),
        _ => Err(ApiError::bad(Msg::InkassoAccountNotApproved)),
    }
}

/// A presigned PUT for a claim's invoice PDF (checked by content when the claim is registered).
pub async fn upload_url(ctx: &Context, user: &User, name: &str) -> Result<super::documents::UploadTarget, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Incasso, false).await?;
    if !name.trim().to_ascii_lowercase().ends_with(".pdf") {
        return Err(ApiError::field("name", Msg::InvalidPdf));
    }
    super::documents::issue_upload(ctx, &claim_prefix(&customer), name).await
}

/// The invoice is a well-formed PDF this customer uploaded, without active
/// content ([`crate::domain::pdf`]).
async fn check_invoice(ctx: &Context, customer: &str, key: &str) -> Result<(), ApiError> {
    let ours = key.starts_with(&claim_prefix(customer)) && key.ends_with(".pdf") && !key.contains("..");
    if ours {
        // Uploads land under pending/ (expired after a day unless confirmed): the claim confirms it.
        ctx.files.claim_upload(key).await?;
    }
    let verdict = if ours { super::documents::pdf_verdict(ctx, key).await? } else { Err(Msg::InvalidPdf) };
    if let Err(why) = verdict {
        if ours {
            ctx.files.discard_upload(key).await?;
        }
        return Err(ApiError::field("invoice", why));
    }
    Ok(())
}

/// Registers a claim with the provider and keeps it, booked as one use of
/// the Incasso plan ('Limit has been reached, please upgrade your account').
/// The limit is checked before the provider is asked and held by the
/// booking's condition; a provider failure stores nothing.
pub async fn register_claim(ctx: &Context, user: &User, form: &ClaimForm, once: &Once) -> Result<Claim, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Incasso, false).await?;
    let creditor = creditor(ctx, user).await?;
    let valid = validate_claim(form, Utc::now().date_naive())?;
    let uid = record_id(form.request_id.as_deref().or(once.stable_id().as_deref()));
    if let Some((done, _)) = ctx.store.claim(&customer, &uid).await? {
        return Ok(done);
    }
    check_invoice(ctx, &customer, &valid.invoice.key).await?;
    let row = stored_row(ctx, &customer, Addon::Incasso).await?;
    let now = Utc::now().naive_utc();
    crate::domain::subscription::consume(&row.row, crate::domain::subscription::Usage::Count(1), now)
        .map_err(|e| ApiError::bad(e.key()))?;
    let outgoing = NewClaim {
        debtor_name: valid.debtor_name.clone(),
        debtor_number: valid.debtor_number.clone(),
        debtor_address: valid.debtor_address.clone(),
        debtor_email: valid.debtor_email.clone(),
        amount: valid.amount,
        currency: "SEK".into(),
        invoice_number: valid.invoice_number.clone(),
        due_date: valid.due_date.format("%Y-%m-%d").to_string(),
        invoice_url: ctx.files.presign_download(&valid.invoice.key, &valid.invoice.name).await?,
    };
    let answer = ctx.providers.inkasso.register_claim(&creditor, &uid, &outgoing).await?;
    let (customer, uid, valid, answer) = (&customer, &uid, &valid, &answer);
    retry::until_done(|attempt| async move {
        // A try whose write landed although its answer was lost counts once.
        if attempt > 0 {
            if let Some((done, _)) = ctx.store.claim(customer, uid).await? {
                return Ok(Attempt::Done(done));
            }
        }
        let row = stored_row(ctx, customer, Addon::Incasso).await?;
        let at = Utc::now();
        let c = Claim {
            uid: uid.clone(),
            customer_uid: customer.clone(),
            debtor_name: valid.debtor_name.clone(),
            debtor_number: valid.debtor_number.clone(),
            debtor_address: valid.debtor_address.clone(),
            debtor_email: valid.debtor_email.clone(),
            amount: valid.amount,
            invoice_number: valid.invoice_number.clone(),
            due_date: valid.due_date,
            invoice: valid.invoice.clone(),
            status: answer.status.clone(),
            provider_id: answer.id.clone(),
            purchase_id: row.row.id,
            created_by: user.uid.clone(),
            created_at: at,
            updated_at: at,
        };
        let mut tx = ctx.store.tx();
        ctx.store.add_claim(&mut tx, &c, None)?;
        once.record(&mut tx, &c)?;
        let what = format!("Inkasso: {} {}", c.invoice_number, c.debtor_name);
        let queued = book(ctx, &mut tx, &row, &format!("claim-{uid}"), user, &what).await?;
        Ok(if events::commit(ctx, tx, queued).await? { Attempt::Done(c) } else { Attempt::Conflict })
    })
    .await
}

/// The customer's claims, newest first; the status of open ones asked at
/// the provider (at most [`SYNC_PER_LIST`]; a provider failure shows the
/// last known status).
pub async fn claims(ctx: &Context, user: &User) -> Result<Vec<Claim>, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Incasso, false).await?;
    let stored = ctx.store.claims(&customer).await?;
    if stored.is_empty() {
        return Ok(stored);
    }
    let creditor = ctx.store.inkasso_prospect(&customer).await?.and_then(|p| p.creditor_id).unwrap_or_default();
    let mut out = Vec::new();
    let mut polled = 0;
    for c in stored {
        if c.settled() || polled >= SYNC_PER_LIST {
            out.push(c);
            continue;
        }
        polled += 1;
        match ctx.providers.inkasso.claim(&creditor, &c.provider_id).await {
            Ok(a) if a.status != c.status => {
                if let Some((mut current, rev)) = ctx.store.claim(&customer, &c.uid).await? {
                    current.status = a.status;
                    current.updated_at = Utc::now();
                    let mut tx = ctx.store.tx();
                    ctx.store.add_claim(&mut tx, &current, Some(rev))?;
                    // A concurrent read wrote first: its answer is as good.
                    ctx.store.commit(tx).await?;
                    out.push(current);
                } else {
                    out.push(c);
                }
            }
            _ => out.push(c),
        }
    }
    Ok(out)
}

/// Where the contract-check screen links to.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ContractCheckLink {
    pub url: String,
    /// Whom to call with questions (configuration; none: the switchboard).
    pub phone: Option<String>,
    /// Whom to mail with questions (configuration).
    pub email: Option<String>,
}

/// The contract-check site's link (spec §2, §5: the screen always shown,
/// also to a contact without view_kontracto).
pub async fn contract_check(ctx: &Context, user: &User, lang: &str) -> Result<ContractCheckLink, ApiError> {
    access(ctx, user, Addon::Kontrakto, false).await?;
    let (phone, email) = ctx.providers.contract_check.contact();
    let url = ctx.providers.contract_check.link(lang);
    if url.is_empty() {
        // No address configured: no placeholder link.
        return Err(ApiError::Provider(Msg::ProviderUnavailable));
    }
    Ok(ContractCheckLink { url, phone, email })
}

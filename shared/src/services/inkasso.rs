//! Debt collection and the contract-check link.
//!
//! No collection agency publishes an API for this (see
//! [`crate::providers::inkasso`]), so the hand-over is manual. The Inkasso
//! account application (spec §3) is kept `applied` and mailed to the
//! configured hand-over address with what the agency needs to register the
//! company; staff register it with the agency and record the answer
//! (`approved` with the company's customer number at the agency, or
//! `rejected`) on the hand-over page, which lists every open hand-over.
//! Once approved, the customer registers claims: each is kept `submitted`,
//! booked as one use of the Incasso plan in the same transaction (exact
//! under concurrent use), and mailed likewise; staff record its status as
//! the agency reports it. A mail that fails is sent again at the next read
//! (the screen shows it as not yet handed over); it never loses the record.

use chrono::Utc;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::addons::{access, book, record_id, stored_row, SYNC_PER_LIST};
use super::audit;
use super::events;
use super::retry::{self, Attempt};
use super::Context;
use crate::domain::addons::{self as rules, Addon, InkassoAccount, InkassoProspect};
use crate::domain::audit::{AuditAction, AuditEvent};
use crate::domain::inkasso::{agency_reference, validate_claim, Claim, ClaimForm, CLAIM_STATUSES};
use crate::domain::policy::{self, Action};
use crate::domain::User;
use crate::error::{ApiError, FieldErrors, Msg};
use crate::providers::inkasso::HandOver;
use crate::store::idempotency::Once;

/// Spec §9: an application (like a delayed credit report) is answered
/// within this many minutes; the screen says to come back after them.
pub const COME_BACK_MINUTES: i64 = 30;

fn claim_prefix(customer: &str) -> String {
    format!("inkasso/{customer}/")
}

/// The customer's name as the agency knows a creditor: the company's, else the person's.
async fn customer_name(ctx: &Context, customer: &str) -> Result<String, ApiError> {
    if let Some(name) = ctx.store.get_customer_profile(customer).await?.and_then(|p| p.company_name).filter(|n| !n.trim().is_empty()) {
        return Ok(name);
    }
    Ok(ctx.store.get_user(customer).await?.map(|u| u.full_name()).unwrap_or_default())
}

/// The application's hand-over mail (Swedish, then English): the spec §3
/// account fields, what the agency registers a creditor with.
pub fn application_mail(customer: &str, p: &InkassoProspect) -> HandOver {
    let a = &p.account;
    let or_dash = |s: &str| if s.is_empty() { "–".to_string() } else { s.to_string() };
    let fields = [
        ("Organisationsnummer / Organisation number", a.organization_number.clone()),
        ("Kontaktperson / Contact", a.contact_name.clone()),
        ("Hemsida / Home page", or_dash(&a.home_page)),
        ("Bank", a.bank_name.clone()),
        ("Bankkonto / Bank account", a.bank_account.clone()),
        ("Plusgiro", or_dash(&a.plus_giro)),
        ("Bankgiro", or_dash(&a.bank_giro)),
        ("IBAN", or_dash(&a.iban)),
        ("BIC", or_dash(&a.bic)),
        ("Godkänd IP-adress / Approved IP address", a.approved_ip.clone()),
    ];
    let lines: String = fields.iter().map(|(k, v)| format!("{k}: {v}\n")).collect();
    HandOver {
        subject: format!("Inkasso: ansökan om konto / account application – {customer}"),
        body: format!(
            "Ny ansökan om inkassokonto från {customer}, inkommen {at}. Registrera kunden hos inkassobolaget och markera \
             ansökan som klar på plattformens sida Inkasso – överlämningar.\n\nNew debt-collection account application from \
             {customer}, received {at}. Register the client with the collection agency and mark the application done on the \
             platform's Inkasso hand-overs page.\n\nKund / Client: {customer}\n{lines}",
            at = p.applied_at.format("%Y-%m-%d %H:%M UTC"),
        ),
    }
}

/// A claim's hand-over mail (Swedish, then English): creditor, debtor,
/// amount, invoice; the invoice PDF is on the hand-over page.
pub fn claim_mail(customer: &str, creditor_id: &str, c: &Claim) -> HandOver {
    let amount = format!("{},{:02} SEK", c.amount / 100, c.amount % 100);
    HandOver {
        subject: format!("Inkasso: nytt ärende / new claim {} – {customer}", c.invoice_number),
        body: format!(
            "Nytt inkassoärende från {customer} (kundnummer hos inkassobolaget {creditor_id}). Lämna över det till \
             inkassobolaget med fakturan (PDF på plattformens sida Inkasso – överlämningar) och för in dess status där.\n\n\
             New claim from {customer} (customer number at the collection agency {creditor_id}). Hand it to the agency with \
             the invoice (PDF on the platform's Inkasso hand-overs page) and record its status there.\n\n\
             Borgenär / Creditor: {customer} ({creditor_id})\nGäldenär / Debtor: {debtor}\n\
             Person- eller organisationsnummer / Identity number: {number}\nAdress / Address: {address}\n\
             E-post / E-mail: {email}\nBelopp / Amount: {amount}\nFakturanummer / Invoice number: {invoice}\n\
             Förfallodag / Due date: {due}\nÄrende / Claim: {uid}\n",
            debtor = c.debtor_name,
            number = c.debtor_number,
            address = c.debtor_address,
            email = c.debtor_email,
            invoice = c.invoice_number,
            due = c.due_date.format("%Y-%m-%d"),
            uid = c.uid,
        ),
    }
}

/// Mails the application if it has not gone yet and records when it went;
/// a failed mail leaves it to the next read.
async fn hand_over_application(ctx: &Context, customer: &str, p: InkassoProspect) -> InkassoProspect {
    if p.handed_over_at.is_some() || p.state != "applied" {
        return p;
    }
    let sent = async {
        let mail = application_mail(&customer_name(ctx, customer).await?, &p);
        ctx.providers.inkasso.hand_over(&ctx.mail, &mail).await.map_err(|e| ApiError::Provider(e.key()))?;
        let Some((mut stored, rev)) = ctx.store.inkasso_prospect(customer).await? else { return Ok(None) };
        if stored.state != "applied" || stored.account != p.account {
            return Ok(Some(stored));
        }
        stored.handed_over_at = Some(Utc::now());
        let mut tx = ctx.store.tx();
        ctx.store.add_inkasso_prospect(&mut tx, customer, &stored, Some(rev))?;
        // A concurrent read recorded it first: as good (at most one extra mail).
        ctx.store.commit(tx).await?;
        Ok::<_, ApiError>(Some(stored))
    };
    match sent.await {
        Ok(Some(stored)) => stored,
        Ok(None) => p,
        Err(e) => {
            tracing::warn!(error = %e, "inkasso application not handed over yet");
            p
        }
    }
}

/// `inkasso/prospect/`: the company's Inkasso account application, if any
/// (its hand-over mail sent again if it has not gone).
pub async fn prospect(ctx: &Context, user: &User) -> Result<Option<InkassoProspect>, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Incasso, false).await?;
    match ctx.store.inkasso_prospect(&customer).await? {
        Some((p, _)) => Ok(Some(hand_over_application(ctx, &customer, p).await)),
        None => Ok(None),
    }
}

/// Applies for (or corrects) the company's Inkasso account (spec §3 fields
/// validated): kept `applied` with an open hand-over for the office, and
/// mailed. An approved account stays as it is; the same application again
/// is the one already made.
pub async fn apply(ctx: &Context, user: &User, form: &InkassoAccount) -> Result<InkassoProspect, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Incasso, false).await?;
    let account = rules::validate_inkasso(form)?;
    let (customer, account) = (&customer, &account);
    let p = retry::until_done(|_| async move {
        let current = ctx.store.inkasso_prospect(customer).await?;
        if let Some((p, _)) = &current {
            if p.state == "approved" || (p.state == "applied" && p.account == *account) {
                return Ok(Attempt::Done(p.clone()));
            }
        }
        let p = InkassoProspect {
            account: account.clone(),
            state: "applied".into(),
            applied_at: Utc::now(),
            handed_over_at: None,
            approved_date: None,
            creditor_id: None,
        };
        let mut tx = ctx.store.tx();
        ctx.store.add_inkasso_prospect(&mut tx, customer, &p, current.map(|(_, rev)| rev))?;
        ctx.store.add_handover(&mut tx, customer, None)?;
        Ok(if ctx.store.commit(tx).await? { Attempt::Done(p) } else { Attempt::Conflict })
    })
    .await?;
    Ok(hand_over_application(ctx, customer, p).await)
}

/// One identifier linking the company to its account at the agency.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct InkassoHash {
    /// The company's organisation number, as applied with.
    pub organization_number: String,
    /// The company's customer number at the collection agency.
    pub creditor_id: String,
    /// What the agency identifies the company's account by: its customer number.
    pub hash: String,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub approved_date: Option<chrono::DateTime<Utc>>,
}

/// `inkasso-hashs/` (spec §7 lists only the name). Our reading: the
/// identifiers that link the company to its Inkasso account at the agency,
/// recorded when staff mark the application approved. Empty until then; a
/// list because the call's name is plural, though a company holds one
/// account.
pub async fn hashes(ctx: &Context, user: &User) -> Result<Vec<InkassoHash>, ApiError> {
    let Some(p) = prospect(ctx, user).await? else { return Ok(Vec::new()) };
    match (p.state.as_str(), p.creditor_id) {
        ("approved", Some(creditor_id)) => Ok(vec![InkassoHash {
            organization_number: p.account.organization_number,
            hash: creditor_id.clone(),
            creditor_id,
            approved_date: p.approved_date,
        }]),
        _ => Ok(Vec::new()),
    }
}

/// The customer number at the agency of an approved application ('come
/// back after 30 minutes' while the office has not recorded it).
async fn creditor(ctx: &Context, customer: &str) -> Result<String, ApiError> {
    match ctx.store.inkasso_prospect(customer).await? {
        Some((InkassoProspect { creditor_id: Some(c), state, .. }, _)) if state == "approved" => Ok(c),
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

/// Mails a claim if it has not gone yet and records when it went; a failed
/// mail leaves it to the next listing.
async fn hand_over_claim(ctx: &Context, c: Claim) -> Claim {
    if c.handed_over_at.is_some() {
        return c;
    }
    let sent = async {
        let creditor = creditor(ctx, &c.customer_uid).await.unwrap_or_default();
        let mail = claim_mail(&customer_name(ctx, &c.customer_uid).await?, &creditor, &c);
        ctx.providers.inkasso.hand_over(&ctx.mail, &mail).await.map_err(|e| ApiError::Provider(e.key()))?;
        let Some((mut stored, rev)) = ctx.store.claim(&c.customer_uid, &c.uid).await? else { return Ok(None) };
        stored.handed_over_at = Some(Utc::now());
        let mut tx = ctx.store.tx();
        ctx.store.add_claim(&mut tx, &stored, Some(rev))?;
        // A concurrent write came first: the next listing records it.
        ctx.store.commit(tx).await?;
        Ok::<_, ApiError>(Some(stored))
    };
    match sent.await {
        Ok(Some(stored)) => stored,
        Ok(None) => c,
        Err(e) => {
            tracing::warn!(error = %e, "inkasso claim not handed over yet");
            c
        }
    }
}

/// Registers a claim (kept `submitted` with an open hand-over, booked as
/// one use of the Incasso plan: 'Limit has been reached, please upgrade
/// your account') and mails it to the hand-over address. The limit is
/// checked first and held by the booking's condition; a retried request is
/// the same claim, booked once.
pub async fn register_claim(ctx: &Context, user: &User, form: &ClaimForm, once: &Once) -> Result<Claim, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Incasso, false).await?;
    creditor(ctx, &customer).await?;
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
    let (customer, uid, valid) = (&customer, &uid, &valid);
    let claim = retry::until_done(|attempt| async move {
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
            status: CLAIM_STATUSES[0].into(),
            agency_reference: None,
            handed_over_at: None,
            purchase_id: row.row.id,
            created_by: user.uid.clone(),
            created_at: at,
            updated_at: at,
        };
        let mut tx = ctx.store.tx();
        ctx.store.add_claim(&mut tx, &c, None)?;
        ctx.store.add_handover(&mut tx, customer, Some(uid))?;
        once.record(&mut tx, &c)?;
        let what = format!("Inkasso: {} {}", c.invoice_number, c.debtor_name);
        let queued = book(ctx, &mut tx, &row, &format!("claim-{uid}"), user, &what).await?;
        Ok(if events::commit(ctx, tx, queued).await? { Attempt::Done(c) } else { Attempt::Conflict })
    })
    .await?;
    Ok(hand_over_claim(ctx, claim).await)
}

/// The customer's claims, newest first, with the status staff last
/// recorded; a claim whose hand-over mail has not gone is mailed again (at
/// most [`SYNC_PER_LIST`] a listing).
pub async fn claims(ctx: &Context, user: &User) -> Result<Vec<Claim>, ApiError> {
    let (customer, _) = access(ctx, user, Addon::Incasso, false).await?;
    let mut out = Vec::new();
    let mut tried = 0;
    for c in ctx.store.claims(&customer).await? {
        if c.handed_over_at.is_none() && tried < SYNC_PER_LIST {
            tried += 1;
            out.push(hand_over_claim(ctx, c).await);
        } else {
            out.push(c);
        }
    }
    Ok(out)
}

// ------------------------------------------------------ the office's side ----

/// An open application, as the hand-over page shows it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ApplicationHandOver {
    pub customer_uid: String,
    pub customer_name: String,
    pub prospect: InkassoProspect,
}

/// An open claim, with its creditor's customer number at the agency.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ClaimHandOver {
    pub customer_uid: String,
    pub customer_name: String,
    pub creditor_id: Option<String>,
    pub claim: Claim,
}

/// Every open hand-over: applications awaiting the agency's answer, claims not closed.
#[derive(Clone, Debug, Default, Serialize, ToSchema)]
pub struct HandOvers {
    pub applications: Vec<ApplicationHandOver>,
    pub claims: Vec<ClaimHandOver>,
}

/// `admin/inkasso/`: the office's open hand-overs (admin).
pub async fn handovers(ctx: &Context, user: &User) -> Result<HandOvers, ApiError> {
    policy::require(user, Action::HandOverInkasso)?;
    let mut out = HandOvers::default();
    let mut names = std::collections::HashMap::new();
    for (customer, claim) in ctx.store.handovers().await? {
        if !names.contains_key(&customer) {
            names.insert(customer.clone(), customer_name(ctx, &customer).await?);
        }
        let customer_name = names[&customer].clone();
        let prospect = ctx.store.inkasso_prospect(&customer).await?.map(|(p, _)| p);
        match claim {
            None => {
                // Left behind by a decision that raced it: shown only while open.
                if let Some(p) = prospect.filter(|p| p.state == "applied") {
                    out.applications.push(ApplicationHandOver { customer_uid: customer, customer_name, prospect: p });
                }
            }
            Some(uid) => {
                if let Some((c, _)) = ctx.store.claim(&customer, &uid).await?.filter(|(c, _)| !c.settled()) {
                    let creditor_id = prospect.and_then(|p| p.creditor_id);
                    out.claims.push(ClaimHandOver { customer_uid: customer, customer_name, creditor_id, claim: c });
                }
            }
        }
    }
    out.applications.sort_by_key(|a| a.prospect.applied_at);
    out.claims.sort_by_key(|c| c.claim.created_at);
    Ok(out)
}

/// What staff record of the agency's answer to an application.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"state": "approved", "creditor_id": "K-10234"}))]
pub struct ApplicationDecision {
    /// approved or rejected.
    #[serde(default)]
    #[schema(required = true, pattern = "^(approved|rejected)$")]
    pub state: String,
    /// The company's customer number at the agency (required when approved): at most 64 characters once trimmed, no
    /// control characters.
    #[serde(default)]
    pub creditor_id: Option<String>,
}

/// Records the agency's answer to a customer's application (admin): the
/// hand-over closes in the same transaction. Staff may correct an earlier answer.
pub async fn decide(ctx: &Context, user: &User, customer: &str, d: &ApplicationDecision) -> Result<InkassoProspect, ApiError> {
    policy::require(user, Action::HandOverInkasso)?;
    let mut errors = FieldErrors::default();
    if d.state != "approved" && d.state != "rejected" {
        errors.add("state", Msg::Invalid);
    }
    let number = agency_reference(d.creditor_id.as_deref()).unwrap_or_else(|why| {
        errors.add("creditor_id", why);
        None
    });
    if d.state == "approved" && number.is_none() && !errors.has("creditor_id") {
        errors.add("creditor_id", Msg::Required);
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let number = &number;
    retry::until_done(|_| async move {
        let Some((mut p, rev)) = ctx.store.inkasso_prospect(customer).await? else { return Err(ApiError::NotFound) };
        let approved = d.state == "approved";
        if p.state == d.state && (!approved || p.creditor_id == *number) {
            return Ok(Attempt::Done(p));
        }
        p.state = d.state.clone();
        p.approved_date = approved.then(Utc::now);
        p.creditor_id = if approved { number.clone() } else { None };
        let mut tx = ctx.store.tx();
        ctx.store.add_inkasso_prospect(&mut tx, customer, &p, Some(rev))?;
        ctx.store.remove_handover(&mut tx, customer, None)?;
        Ok(if ctx.store.commit(tx).await? { Attempt::Done(p) } else { Attempt::Conflict })
    })
    .await
}

/// What staff record of a claim as the agency reports it.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"status": "registered", "agency_reference": "INK-2026-0042"}))]
pub struct ClaimUpdate {
    /// submitted, registered, reminder_sent, collection, paid or closed.
    #[serde(default)]
    #[schema(required = true, pattern = "^(submitted|registered|reminder_sent|collection|paid|closed)$")]
    pub status: String,
    /// The agency's reference for the claim (none: kept as it was): at most 64 characters once trimmed, no control
    /// characters.
    #[serde(default)]
    pub agency_reference: Option<String>,
}

/// Records a claim's status at the agency (admin); a closed claim leaves
/// the open hand-overs in the same transaction.
pub async fn update_claim(ctx: &Context, user: &User, customer: &str, uid: &str, u: &ClaimUpdate) -> Result<Claim, ApiError> {
    policy::require(user, Action::HandOverInkasso)?;
    let mut errors = FieldErrors::default();
    if !CLAIM_STATUSES.contains(&u.status.as_str()) {
        errors.add("status", Msg::Invalid);
    }
    let reference = agency_reference(u.agency_reference.as_deref()).unwrap_or_else(|why| {
        errors.add("agency_reference", why);
        None
    });
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let reference = &reference;
    retry::until_done(|_| async move {
        let Some((mut c, rev)) = ctx.store.claim(customer, uid).await? else { return Err(ApiError::NotFound) };
        if c.status == u.status && (reference.is_none() || c.agency_reference == *reference) {
            return Ok(Attempt::Done(c));
        }
        c.status = u.status.clone();
        if reference.is_some() {
            c.agency_reference = reference.clone();
        }
        c.updated_at = Utc::now();
        let mut tx = ctx.store.tx();
        ctx.store.add_claim(&mut tx, &c, Some(rev))?;
        if c.settled() {
            ctx.store.remove_handover(&mut tx, customer, Some(uid))?;
        } else {
            ctx.store.add_handover(&mut tx, customer, Some(uid))?;
        }
        Ok(if ctx.store.commit(tx).await? { Attempt::Done(c) } else { Attempt::Conflict })
    })
    .await
}

/// A short-lived link to a claim's invoice PDF for staff (admin), recorded
/// in the audit trail as a document download.
pub async fn claim_invoice(ctx: &Context, user: &User, customer: &str, uid: &str) -> Result<super::documents::DownloadUrl, ApiError> {
    policy::require(user, Action::HandOverInkasso)?;
    let Some((c, _)) = ctx.store.claim(customer, uid).await? else { return Err(ApiError::NotFound) };
    let url = ctx.files.presign_download(&c.invoice.key, &c.invoice.name).await?;
    let event =
        AuditEvent::by(user, AuditAction::DocumentDownloaded).customer(Some(customer)).subject(&c.invoice.name).detail(&c.invoice_number);
    audit::record(ctx, event).await;
    Ok(super::documents::DownloadUrl { url, name: c.invoice.name.clone() })
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

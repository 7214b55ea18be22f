//! The client's data rights' use cases ([`crate::domain::data_rights`]).
//!
//! Export (GDPR art. 15 and 20): the customer, or admin for it, asks; the
//! request stores the export, takes the customer's one-at-a-time slot and
//! queues it, in one transaction (with its idempotency record). The worker
//! ([`run_queued`]: on AWS the data-rights function, started by the table's
//! stream when the queue entry is written, and by its schedule for anything
//! left behind; locally the gateway's timer) gathers every record of the
//! customer part by part (its progress is on the export), writes one ZIP
//! (a JSON file per kind of record and the files) to S3 and, in one
//! transaction, marks it ready, releases the slot, writes the audit event
//! and the mail that tells the customer. The ZIP is downloaded through a
//! presigned link for [`EXPORT_DAYS`] days.

use std::collections::BTreeMap;
use std::io::Write;

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use serde_json::{json, Value};
use utoipa::ToSchema;

use super::Context;
use crate::domain::audit::{AuditAction, AuditEvent};
use crate::domain::data_rights::{self, DataExport, ExportState, EXPORT_DAYS};
use crate::domain::policy::{self, Action};
use crate::domain::User;
use crate::error::{ApiError, Msg};
use crate::store::data_rights::item_json;
use crate::store::idempotency::Once;
use crate::store::outbox::{self, Letter};
use crate::store::{keys, table, Item};

/// Exports the worker takes in one run.
pub const RUN_LIMIT: i32 = 5;
/// Exports a customer's page lists.
pub const LIST_LIMIT: i32 = 10;

/// An export as its reader sees it: with a download link while it is ready.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ExportView {
    #[serde(flatten)]
    pub export: DataExport,
    /// A presigned link to the ZIP, valid until `expires_at` (only while ready).
    pub download_url: Option<String>,
}

async fn checked(ctx: &Context, caller: &User, customer_uid: &str) -> Result<(), ApiError> {
    policy::require(caller, Action::ExportCustomerData { customer_uid })?;
    if ctx.store.get_customer_profile(customer_uid).await?.is_none() {
        return Err(ApiError::NotFound);
    }
    Ok(())
}

async fn view(ctx: &Context, e: DataExport, now: DateTime<Utc>) -> Result<ExportView, ApiError> {
    let mut e = e;
    e.state = e.state_at(now);
    let download_url = match (e.state, e.expires_at) {
        (ExportState::Ready, Some(end)) => {
            let ttl = (end - now).to_std().unwrap_or_default();
            Some(ctx.files.presign_download_for(&e.object_key(), &e.file_name(), ttl).await?)
        }
        _ => None,
    };
    Ok(ExportView { export: e, download_url })
}

/// Asks for an export of `customer_uid`'s data. One at a time per customer:
/// while one is queued or running (and not stale) the answer is 409
/// `export_running`.
pub async fn request_export(ctx: &Context, caller: &User, customer_uid: &str, once: &Once) -> Result<ExportView, ApiError> {
    checked(ctx, caller, customer_uid).await?;
    let now = Utc::now();
    let id = format!("{}-{}", now.format("%Y%m%d%H%M%S"), &uuid::Uuid::new_v4().simple().to_string()[..12]);
    let export = DataExport::new(id, customer_uid, &caller.uid, now);
    let answer = ExportView { export: export.clone(), download_url: None };
    let mut tx = ctx.store.tx();
    ctx.store.add_export_request(&mut tx, &export, now)?;
    once.record(&mut tx, &answer)?;
    if !ctx.store.commit(tx).await? {
        return Err(ApiError::Conflict(Msg::ExportRunning));
    }
    Ok(answer)
}

/// A customer's exports, newest first, with a download link for the ready ones.
pub async fn exports(ctx: &Context, caller: &User, customer_uid: &str) -> Result<Vec<ExportView>, ApiError> {
    checked(ctx, caller, customer_uid).await?;
    let now = Utc::now();
    let mut out = Vec::new();
    for e in ctx.store.data_exports(customer_uid, LIST_LIMIT).await? {
        out.push(view(ctx, e, now).await?);
    }
    Ok(out)
}

/// What one worker run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ExportRun {
    pub built: usize,
    pub failed: usize,
}

/// The worker: builds the queued exports (at most [`RUN_LIMIT`]). Two
/// workers at once build each export once (the start is conditional on
/// the export still being queued).
pub async fn run_queued(ctx: &Context) -> Result<ExportRun, ApiError> {
    let mut run = ExportRun::default();
    for (customer_uid, id) in ctx.store.queued_exports(RUN_LIMIT).await? {
        let Some(mut e) = ctx.store.data_export(&customer_uid, &id).await? else { continue };
        match e.state {
            ExportState::Queued => {}
            // A worker that stopped mid-way: the export is failed once stale, so a new one can be asked for.
            ExportState::Running if !e.is_busy(Utc::now()) => {
                finish(ctx, &mut e, Err(ApiError::internal("the worker stopped"))).await?;
                run.failed += 1;
                continue;
            }
            ExportState::Running => continue,
            _ => {
                ctx.store.drop_queued_export(e.created_at, &e.id).await?;
                continue;
            }
        }
        e.state = ExportState::Running;
        if !ctx.store.move_export(&e, ExportState::Queued).await? {
            continue;
        }
        let result = build(ctx, &mut e).await;
        if result.is_err() {
            run.failed += 1;
        } else {
            run.built += 1;
        }
        finish(ctx, &mut e, result).await?;
    }
    Ok(run)
}

/// Ends a run: ready (with its audit event and mail) or failed.
async fn finish(ctx: &Context, e: &mut DataExport, result: Result<(i64, u32), ApiError>) -> Result<(), ApiError> {
    let now = Utc::now();
    e.finished_at = Some(now);
    let mut tx = ctx.store.tx();
    let mut mail = None;
    match result {
        Ok((size, files)) => {
            e.state = ExportState::Ready;
            e.step = e.steps;
            e.size = Some(size);
            e.files = Some(files);
            e.expires_at = Some(now + Duration::days(EXPORT_DAYS));
            let requester = ctx.store.get_user(&e.requested_by).await?;
            let event = match &requester {
                Some(u) => AuditEvent::by(u, AuditAction::ExportMade),
                None => AuditEvent::anonymous(AuditAction::ExportMade),
            };
            super::audit::add_to(&mut tx, &event.subject("data_export").detail(e.id.clone()).customer(Some(&e.customer_uid)))?;
            if let Some(customer) = ctx.store.get_user(&e.customer_uid).await? {
                let letter = ready_letter(&ctx.config.web_origin, &customer, e);
                let token = uuid::Uuid::new_v4().simple().to_string();
                mail = Some(ctx.store.add_outbox_letter(&mut tx, outbox::NOTICE, &customer.uid, &token, &letter, now)?);
            }
        }
        Err(err) => {
            tracing::error!(export = %e.id, error = %crate::telemetry::redact(&err.to_string()), "data export failed");
            e.state = ExportState::Failed;
        }
    }
    ctx.store.add_export_finished(&mut tx, e)?;
    if ctx.store.commit(tx).await? {
        if let Some(sk) = mail {
            super::outbox::send_after_commit(ctx, &sk, None, super::outbox::OnRefusal::Retry).await;
        }
    }
    Ok(())
}

/// The mail telling that an export is ready (both languages: the page, not
/// the mail, holds the link, so no credential travels by mail).
fn ready_letter(origin: &str, customer: &User, e: &DataExport) -> Letter {
    let origin = origin.trim_end_matches('/');
    let until = e.expires_at.map(|t| t.format("%Y-%m-%d").to_string()).unwrap_or_default();
    Letter {
        to: customer.email.clone(),
        subject: "Din dataexport är klar / Your data export is ready".into(),
        body: format!(
            "Hej {name},\n\nExporten av dina uppgifter är klar. Ladda ner den under Mina uppgifter: {origin}/user/my-data/ \
             (till och med {until}).\n\n\
             Hello {name},\n\nThe export of your data is ready. Download it under My data: {origin}/user/my-data/ \
             (until {until}).\n",
            name = customer.first_name
        ),
    }
}

/// One record as exported: the item without its withheld attributes.
fn record(item: Item) -> Value {
    data_rights::cleaned(item_json(item))
}

fn text(item: &Item, a: &str) -> Option<String> {
    item.get(a).and_then(|v| v.as_s().ok()).cloned()
}

/// Moves the progress on (conditional on the export still running).
async fn stepped(ctx: &Context, e: &mut DataExport) -> Result<(), ApiError> {
    e.step = (e.step + 1).min(e.steps);
    if !ctx.store.move_export(e, ExportState::Running).await? {
        return Err(ApiError::internal("the export was moved by another worker"));
    }
    Ok(())
}

/// Everything the platform holds about the customer, as JSON files by
/// part name, and the object keys of its files.
pub async fn gather(ctx: &Context, e: &mut DataExport) -> Result<(BTreeMap<String, Value>, Vec<String>), ApiError> {
    let uid = e.customer_uid.clone();
    // Every kind of record has its file, an empty list when there is none.
    let mut parts: BTreeMap<String, Vec<Value>> = [
        "account",
        "profile",
        "contacts",
        "cases",
        "subscriptions",
        "subscription_usage",
        "envelopes",
        "credit_reports",
        "meetings",
        "inkasso",
        "notifications",
        "support",
        "audit_trail",
    ]
    .into_iter()
    .map(|p| (p.to_string(), Vec::new()))
    .collect();
    let mut push = |part: &str, v: Value| parts.entry(part.to_string()).or_default().push(v);

    // profile: the account, and the customer's own partition sorted into parts.
    for item in ctx.store.partition_items(&keys::user::pk(&uid), "").await? {
        if text(&item, "SK").is_some_and(|sk| data_rights::user_record_exported(&sk)) {
            push("account", record(item));
        }
    }
    let mut purchases = Vec::new();
    for item in ctx.store.partition_items(&keys::customer::pk(&uid), "").await? {
        let sk = text(&item, "SK").unwrap_or_default();
        if let Some(part) = data_rights::customer_part(&sk) {
            if let Some(id) = sk.strip_prefix(keys::purchase::PREFIX).and_then(|n| n.parse::<u64>().ok()) {
                purchases.push(id);
            }
            push(part, record(item));
        }
    }
    stepped(ctx, e).await?;

    // contacts: their accounts and own records.
    let mut people = vec![uid.clone()];
    for item in ctx.store.index_items(table::GSI2, &keys::user::contacts_gsi2pk(&uid)).await? {
        let Some(contact) = text(&item, "PK").and_then(|pk| pk.strip_prefix("USER#").map(str::to_string)) else { continue };
        let mut own = Vec::new();
        for mine in ctx.store.partition_items(&keys::user::pk(&contact), "").await? {
            if text(&mine, "SK").is_some_and(|sk| sk != keys::user::SK && data_rights::user_record_exported(&sk)) {
                own.push(record(mine));
            }
        }
        push("contacts", json!({"account": record(item), "records": own}));
        people.push(contact);
    }
    stepped(ctx, e).await?;

    // cases: each with its hours, history, messages and rating (never its internal notes).
    let mut files = Vec::new();
    for item in ctx.store.index_items(table::GSI2, &keys::case::customer_gsi2pk(&uid)).await? {
        let Some(pk) = text(&item, "PK") else { continue };
        let case_uid = pk.trim_start_matches("CASE#").to_string();
        let mut case = BTreeMap::<String, Vec<Value>>::new();
        for r in ctx.store.partition_items(&pk, "").await? {
            let sk = text(&r, "SK").unwrap_or_default();
            if !data_rights::case_record_exported(&sk) {
                continue;
            }
            let kind = match sk.split('#').next().unwrap_or_default() {
                "CASE" => "case",
                "HOUR" => "hours",
                "ADDHOUR" => "additional_hours",
                "HIST" | "HISTADD" => "history",
                "MSG" => "messages",
                "MSGREAD" => "read_marks",
                "RATING" => "rating",
                _ => "other",
            };
            case.entry(kind.to_string()).or_default().push(record(r));
        }
        push("cases", json!(case));
        files.extend(ctx.files.keys_under(&format!("cases/{case_uid}/")).await?);
    }
    stepped(ctx, e).await?;

    // subscriptions' usage ledgers (the rows are in the customer's partition).
    for id in purchases {
        for item in ctx.store.partition_items(&keys::purchase::usage_pk(id), "").await? {
            push("subscription_usage", record(item));
        }
    }
    stepped(ctx, e).await?;
    // services: envelopes, credit reports, meetings and claims came with the partition.
    stepped(ctx, e).await?;

    for person in &people {
        for item in ctx.store.partition_items(&keys::notification::pk(person), "").await? {
            push("notifications", record(item));
        }
        files.extend(ctx.files.keys_under(&format!("profile-images/{person}/")).await?);
    }
    stepped(ctx, e).await?;

    for item in ctx.store.index_items(table::GSI1, &keys::ticket::customer_gsi1pk(&uid)).await? {
        let Some(pk) = text(&item, "PK") else { continue };
        let answers: Vec<Value> = ctx.store.partition_items(&pk, keys::ticket::ANSWER_PREFIX).await?.into_iter().map(record).collect();
        push("support", json!({"ticket": record(item), "answers": answers}));
    }
    // The customer's own folders: support attachments, signing documents, claim invoices.
    for folder in ["support", "envelopes", "inkasso"] {
        files.extend(ctx.files.keys_under(&format!("{folder}/{uid}/")).await?);
    }
    stepped(ctx, e).await?;

    for item in ctx.store.index_items(table::GSI1, &keys::audit::customer_gsi1pk(&uid)).await? {
        push("audit_trail", record(item));
    }
    stepped(ctx, e).await?;

    files.retain(|k| !k.starts_with(crate::files::PENDING_PREFIX));
    files.sort();
    files.dedup();
    let out = parts.into_iter().map(|(k, v)| (k, Value::Array(v))).collect();
    Ok((out, files))
}

const README: &str = "Dataexport / Data export\n\n\
Svenska: Den här filen innehåller allt vi har sparat om er: konto och profil, kontaktpersoner, ärenden med timmar, \
historik och meddelanden, abonnemang, signeringar, kreditupplysningar, möten, inkasso, notiser, supportärenden, \
granskningsloggen och era filer (mappen files/). En JSON-fil per slag av uppgift. Interna anteckningar och \
säkerhetsuppgifter (lösenord, koder) ingår inte.\n\n\
English: This file holds everything we keep about you: account and profile, contacts, cases with hours, history and \
messages, subscriptions, signing envelopes, credit reports, meetings, debt collection, notifications, support \
tickets, the audit trail and your files (the files/ folder). One JSON file per kind of record. Staff-internal notes \
and security data (passwords, codes) are not included.\n";

/// Gathers, zips and uploads; the ZIP's size and its number of files.
async fn build(ctx: &Context, e: &mut DataExport) -> Result<(i64, u32), ApiError> {
    let (parts, files) = gather(ctx, e).await?;
    let path = std::env::temp_dir().join(format!("data-export-{}.zip", e.id));
    let result = write_zip(ctx, &path, e, &parts, &files).await;
    let uploaded = match result {
        Ok(()) => ctx.files.put_file(&e.object_key(), "application/zip", &path).await,
        Err(err) => Err(err),
    };
    let size = std::fs::metadata(&path).map(|m| m.len() as i64).unwrap_or(0);
    let _ = std::fs::remove_file(&path);
    uploaded?;
    stepped(ctx, e).await?;
    Ok((size, files.len() as u32))
}

async fn write_zip(
    ctx: &Context,
    path: &std::path::Path,
    e: &mut DataExport,
    parts: &BTreeMap<String, Value>,
    files: &[String],
) -> Result<(), ApiError> {
    let file = std::fs::File::create(path).map_err(ApiError::internal)?;
    let mut zip = zip::ZipWriter::new(file);
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    let add = |zip: &mut zip::ZipWriter<std::fs::File>, name: &str, bytes: &[u8]| -> Result<(), ApiError> {
        zip.start_file(name, options).map_err(ApiError::internal)?;
        zip.write_all(bytes).map_err(ApiError::internal)
    };
    add(&mut zip, "README.txt", README.as_bytes())?;
    let about = json!({"customer_uid": e.customer_uid, "export_id": e.id, "created_at": e.created_at, "files": files});
    add(&mut zip, "export.json", &serde_json::to_vec_pretty(&about).map_err(ApiError::internal)?)?;
    for (name, value) in parts {
        add(&mut zip, &format!("{name}.json"), &serde_json::to_vec_pretty(value).map_err(ApiError::internal)?)?;
    }
    for key in files {
        let bytes = ctx.files.bytes(key).await?;
        add(&mut zip, &format!("files/{key}"), &bytes)?;
    }
    zip.finish().map_err(ApiError::internal)?;
    stepped(ctx, e).await
}

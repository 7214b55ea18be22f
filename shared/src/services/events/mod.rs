//! Events and their side effects, written in the event's own transaction.
//!
//! A use case that changes a case, an hour entry, a customer, a contact or a
//! subscription row builds its transaction ([`Tx`]) with the change, then
//! hands the [`Event`]s it caused to [`record`], which adds every side effect
//! to the same transaction:
//!
//! - the conflict-of-interest index entries of the parties the event saves
//!   (a customer, a contact, a case's counterpart), so a saved party is
//!   always findable by the conflict search, and a failed write leaves
//!   neither the record nor its index entries;
//! - the customer search's word items of a saved customer
//!   ([`crate::store::customer_search`]);
//! - the notifications of the people the event concerns
//!   ([`super::notifications::outgoing`]: who is told what);
//! - the statistics counters the event changes ([`super::counters`]:
//!   `UpdateItem ADD` on the day, month and gauge items of each scope,
//!   the global ones on a shard picked by a hash of the event id), so
//!   every one is written exactly once with the event or not at all.
//!
//! Effects that would carry the transaction past DynamoDB's 100 items go into
//! an idempotent follow-up item written in the transaction; [`commit`]
//! finishes them right after, and the conflict search and the scheduled job
//! finish any left behind by a process that stopped in between.
//! The case history is written by the case use cases themselves (its
//! entries are the event's own record, with the wording of the change).

use crate::domain::case::Case;
use crate::domain::conflict::PartyKind;
use crate::domain::customer::{CustomerProfile, CustomerType};
use crate::error::ApiError;
use crate::store::conflict::{IndexChange, Party};
use crate::store::tx::Tx;

use super::{counters, notifications, Context};

pub mod kinds;

pub use kinds::{Event, HoursChange, SubscriptionChange};

/// Items kept free in a transaction for the effects added after the index.
const RESERVE: usize = 4;

/// Follow-up work a transaction queued, finished by [`commit`].
#[derive(Default)]
pub struct Queued {
    index_follow_ups: Vec<String>,
    notify_follow_ups: Vec<String>,
    counter_follow_ups: Vec<String>,
    /// Mail when something happens: outbox items sent after the commit.
    mails: super::event_mail::Mails,
}

/// Adds the side effects of `events` to `tx`.
pub async fn record(ctx: &Context, tx: &mut Tx, events: &[Event<'_>]) -> Result<Queued, ApiError> {
    let mut queued = Queued::default();
    // The customer search's words first (bounded: at most 2 × 16 + 1
    // items); the conflict index below moves to a follow-up if it no longer fits.
    for event in events {
        if let Event::CustomerSaved { profile } = event {
            let now = ctx.store.customer_words(&profile.uid).await?;
            ctx.store.add_customer_words(tx, profile, &now)?;
        }
    }
    let changes: Vec<IndexChange> = events.iter().flat_map(index_changes).collect();
    for change in changes {
        let now = ctx.store.indexed(change.kind, &change.uid).await?;
        // One more item: the removal of a follow-up of the party that an
        // earlier, stopped process left (its state is older than this one).
        if change.item_count(&now) + 1 + RESERVE <= tx.room() {
            ctx.store.add_index_writes(tx, &change, &now)?;
            ctx.store.add_follow_up_superseded(tx, &change)?;
        } else {
            queued.index_follow_ups.push(ctx.store.add_index_follow_up(tx, &change)?);
        }
    }
    // The statistics counters: in the transaction when they fit, else in
    // follow-up items (each applied once, see `finish_counters_follow_up`).
    let counted = counters::deltas(ctx, events).await?;
    let deltas = counted.deltas;
    if !deltas.is_empty() {
        let event_id = uuid::Uuid::new_v4().simple().to_string();
        let writes = crate::store::stats::counter_writes(&deltas, crate::domain::statistics::fnv(&event_id));
        if writes.len() + counted.guards.len() + RESERVE <= tx.room() {
            ctx.store.add_counters(tx, &writes)?;
        } else {
            queued.counter_follow_ups = ctx.store.add_counters_follow_up(tx, &event_id, &writes)?;
        }
    }
    // What the counters were computed from must still hold at commit (the
    // customer's account manager, the figures a new manager takes over).
    // An item this transaction already writes is left out (one operation
    // per item): its own write or an event of this batch moves it.
    for g in counted.guards {
        if !tx.touches(&g.key) {
            tx.check(&g.key, g.cond)?;
        }
    }
    // The notifications of the event: in the transaction when they fit
    // (the usual case: one or two readers), else one follow-up item that
    // fans them out after the commit.
    for out in notifications::outgoing(ctx, events).await? {
        if out.readers.len() + RESERVE <= tx.room() {
            for reader in &out.readers {
                ctx.store.add_notification(tx, reader, out.at, &out.event_id, &out.draft)?;
            }
            if let Some(case) = &out.draft.case_uid {
                let topic = format!("case#{case}");
                super::event_mail::queue(ctx, tx, &mut queued.mails, &out.draft, &topic, &out.readers, RESERVE).await?;
            }
        } else {
            queued.notify_follow_ups.push(ctx.store.add_notify_follow_up(tx, &out)?);
        }
    }
    Ok(queued)
}

/// Commits `tx`; once written, finishes its queued follow-ups. `Ok(false)`:
/// a condition failed (nothing was written; the caller reads again).
pub async fn commit(ctx: &Context, tx: Tx, queued: Queued) -> Result<bool, ApiError> {
    ctx.faults.check("events.before_commit")?;
    // Tests arm this to play a concurrent writer winning: the use case reads
    // and decides again, and nothing of this try may remain.
    if ctx.faults.trip("events.conflict") || !ctx.store.commit(tx).await? {
        return Ok(false);
    }
    ctx.faults.check("events.after_commit")?;
    finish(ctx, &queued.index_follow_ups).await?;
    for sk in &queued.notify_follow_ups {
        ctx.store.finish_notify_follow_up(sk).await?;
    }
    for sk in &queued.counter_follow_ups {
        ctx.store.finish_counters_follow_up(sk).await?;
    }
    super::outbox::send_all_after_commit(ctx, &queued.mails.outbox).await;
    Ok(true)
}

async fn finish(ctx: &Context, index_follow_ups: &[String]) -> Result<(), ApiError> {
    for sk in index_follow_ups {
        ctx.store.finish_index_follow_up(sk).await?;
    }
    Ok(())
}

/// Finishes follow-ups a stopped process left behind (bounded per call):
/// index changes, notifications still to fan out, counters to add.
pub async fn finish_pending(ctx: &Context) -> Result<(), ApiError> {
    finish_found(ctx, &pending(ctx).await?).await
}

/// Follow-ups a stopped process left behind, the first 25 of each kind.
#[derive(Debug, Default)]
pub struct Pending {
    pub index: Vec<String>,
    pub notify: Vec<String>,
    pub counters: Vec<String>,
}

impl Pending {
    pub fn is_empty(&self) -> bool {
        self.index.is_empty() && self.notify.is_empty() && self.counters.is_empty()
    }
}

/// The follow-ups [`finish_pending`] finishes, each kind's read at once.
pub async fn pending(ctx: &Context) -> Result<Pending, ApiError> {
    let (index, notify, counters) = tokio::try_join!(
        ctx.store.pending_index_follow_ups(25),
        ctx.store.pending_notify_follow_ups(25),
        ctx.store.pending_counters_follow_ups(25)
    )?;
    Ok(Pending { index, notify, counters })
}

/// Finishes the follow-ups [`pending`] found.
pub async fn finish_found(ctx: &Context, pending: &Pending) -> Result<(), ApiError> {
    finish(ctx, &pending.index).await?;
    for sk in &pending.notify {
        ctx.store.finish_notify_follow_up(sk).await?;
    }
    for sk in &pending.counters {
        ctx.store.finish_counters_follow_up(sk).await?;
    }
    Ok(())
}

/// The conflict-index changes an event implies.
fn index_changes(event: &Event<'_>) -> Vec<IndexChange> {
    match event {
        Event::CaseCreated { case, .. } => vec![counterpart(case)],
        Event::CaseChanged { before, after, .. }
            if before.counterpart != after.counterpart
                || before.subject != after.subject
                || before.counterpart_identity_number != after.counterpart_identity_number =>
        {
            vec![counterpart(after)]
        }
        Event::CustomerSaved { profile } => customer_parties(profile),
        Event::ContactSaved { contact } => vec![IndexChange::index(Party {
            kind: PartyKind::ContactPerson,
            uid: contact.uid.clone(),
            name: contact.full_name(),
            identity_number: contact.identity_number.clone(),
            customer_uid: contact.customer_id.clone(),
            context: None,
        })],
        _ => vec![],
    }
}

/// A case's counterpart, under the case (removed when the field is emptied).
pub(crate) fn counterpart(c: &Case) -> IndexChange {
    if c.counterpart.trim().is_empty() && c.counterpart_identity_number.is_none() {
        return IndexChange::remove(PartyKind::Counterpart, &c.uid);
    }
    IndexChange::index(Party {
        kind: PartyKind::Counterpart,
        uid: c.uid.clone(),
        name: c.counterpart.clone(),
        identity_number: c.counterpart_identity_number.clone(),
        customer_uid: Some(c.customer.clone()),
        context: Some(format!("{} {}", c.case_number, c.subject)),
    })
}

/// A company under its name and organisationsnummer plus its contact person
/// (the customer user's name); an individual under the person's name. Kinds
/// the customer no longer has (a company turned individual) are removed.
fn customer_parties(p: &CustomerProfile) -> Vec<IndexChange> {
    let person = format!("{} {}", p.first_name, p.last_name).trim().to_string();
    let party = |kind, name: String, identity_number: Option<String>, context: Option<String>| Party {
        kind,
        uid: p.uid.clone(),
        name,
        identity_number,
        customer_uid: Some(p.uid.clone()),
        context,
    };
    match p.customer_type {
        CustomerType::Company => {
            let company = p.company_name.clone().unwrap_or_default();
            vec![
                IndexChange::index(party(PartyKind::Company, company.clone(), p.company_registration_number.clone(), None)),
                IndexChange::index(party(PartyKind::ContactPerson, person, None, Some(company))),
                IndexChange::remove(PartyKind::Customer, &p.uid),
            ]
        }
        CustomerType::Individual => vec![
            IndexChange::index(party(PartyKind::Customer, person, None, None)),
            IndexChange::remove(PartyKind::Company, &p.uid),
            IndexChange::remove(PartyKind::ContactPerson, &p.uid),
        ],
    }
}

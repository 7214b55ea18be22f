//! One-off rebuild of the search indexes (the migration to them): every
//! customer's customer-search words and conflict-index entries, every
//! contact's and every case counterpart's conflict-index entries, written
//! as a save would write them (the same transaction builders, version
//! conditions and follow-ups), so parties saved before the new keys existed
//! are found at once. Idempotent; run by `infra/reindex-search.sh`. A save
//! of any party does the same for that party.

use super::events::{self, Event};
use super::retry::{self, Attempt};
use super::Context;
use crate::domain::case::{Case, CaseListPlan, ListOrder};
use crate::error::ApiError;

/// What a rebuild touched.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Reindexed {
    pub customers: usize,
    pub contacts: usize,
    pub cases: usize,
}

/// Rebuilds every index entry (pages through customers, their contacts and
/// every case; bounded per page, unbounded in all: a maintenance command).
pub async fn all(ctx: &Context) -> Result<Reindexed, ApiError> {
    let mut done = Reindexed::default();
    let mut cursor: Option<String> = None;
    loop {
        let page = ctx.store.list_all_customers(cursor.as_deref(), None, 100).await?;
        for p in &page.results {
            customer(ctx, &p.uid).await?;
            done.customers += 1;
            let mut contacts_cursor: Option<String> = None;
            loop {
                let contacts = ctx.store.list_contacts(&p.uid, contacts_cursor.as_deref()).await?;
                for c in &contacts.contacts {
                    contact(ctx, &c.uid).await?;
                    done.contacts += 1;
                }
                match contacts.next {
                    Some(n) => contacts_cursor = Some(n),
                    None => break,
                }
            }
        }
        match page.next {
            Some(n) => cursor = Some(n),
            None => break,
        }
    }
    let mut cursor: Option<String> = None;
    loop {
        let page = ctx.store.list_cases(&CaseListPlan::All, None, ListOrder::Desc, cursor.as_deref()).await?;
        for c in &page.results {
            case(ctx, c).await?;
            done.cases += 1;
        }
        match page.next {
            Some(n) => cursor = Some(n),
            None => break,
        }
    }
    Ok(done)
}

/// A customer's words and conflict-index entries, as its save writes them.
pub async fn customer(ctx: &Context, uid: &str) -> Result<(), ApiError> {
    retry::until_done(|_| async {
        let Some(profile) = ctx.store.get_customer_profile_latest(uid).await? else { return Ok(Attempt::Done(())) };
        let mut tx = ctx.store.tx();
        let queued = events::record(ctx, &mut tx, &[Event::CustomerSaved { profile: &profile }]).await?;
        Ok(if events::commit(ctx, tx, queued).await? { Attempt::Done(()) } else { Attempt::Conflict })
    })
    .await
}

/// A contact's conflict-index entry.
pub async fn contact(ctx: &Context, uid: &str) -> Result<(), ApiError> {
    retry::until_done(|_| async {
        let Some(user) = ctx.store.get_user_latest(uid).await? else { return Ok(Attempt::Done(())) };
        let mut tx = ctx.store.tx();
        let queued = events::record(ctx, &mut tx, &[Event::ContactSaved { contact: &user }]).await?;
        Ok(if events::commit(ctx, tx, queued).await? { Attempt::Done(()) } else { Attempt::Conflict })
    })
    .await
}

/// A case counterpart's conflict-index entries (nothing else of the case).
pub async fn case(ctx: &Context, c: &Case) -> Result<(), ApiError> {
    retry::until_done(|_| async {
        let change = events::counterpart(c);
        let now = ctx.store.indexed(change.kind, &change.uid).await?;
        let mut tx = ctx.store.tx();
        if change.item_count(&now) < tx.room() {
            ctx.store.add_index_writes(&mut tx, &change, &now)?;
            ctx.store.add_follow_up_superseded(&mut tx, &change)?;
            return Ok(if ctx.store.commit(tx).await? { Attempt::Done(()) } else { Attempt::Conflict });
        }
        let sk = ctx.store.add_index_follow_up(&mut tx, &change)?;
        if !ctx.store.commit(tx).await? {
            return Ok(Attempt::Conflict);
        }
        ctx.store.finish_index_follow_up(&sk).await?;
        Ok(Attempt::Done(()))
    })
    .await
}

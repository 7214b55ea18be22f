//! Following a case (spec §3: a customer contact without "view all cases"
//! sees the cases it created or follows): the followers of a case, adding
//! and removing one. The rules of who may are the policy's
//! ([`policy::may_manage_followers`], [`policy::may_remove_follower`],
//! [`policy::may_follow`]).
//!
//! A change is a write of the case over its revision (its `followers` list
//! and the follower's list pointer) with the history entry and the event's
//! effects — the added follower's notification — in one transaction
//! ([`super::cases::commit_case_once`]). Adding a follower twice, or
//! removing one who does not follow, changes nothing and answers as if it
//! had.

use serde::Serialize;
use utoipa::ToSchema;

use super::cases::{commit_case, commit_case_once, visible, visible_for_write};
use super::events::Event;
use super::retry::{self, Attempt};
use super::Context;
use crate::domain::case::{Case, HistoryEntry, MAX_FOLLOWERS};
use crate::domain::policy::{self, Action};
use crate::domain::User;
use crate::error::{ApiError, Msg};
use crate::store::idempotency::Once;

/// Longer than any user's uid.
const MAX_UID_LEN: usize = 100;

/// The history field of a follower's coming and going.
pub const HISTORY_FIELD: &str = "follower";

/// A user who follows (or may follow) a case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Follower {
    #[schema(format = "uuid")]
    pub uid: String,
    pub name: String,
}

impl Follower {
    fn of(u: &User) -> Follower {
        Follower { uid: u.uid.clone(), name: u.full_name() }
    }
}

/// A case's followers as the caller may act on them.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Followers {
    /// Who follows the case, by name.
    pub followers: Vec<Follower>,
    /// Whether the caller may add followers and take others off.
    pub can_manage: bool,
    /// Whether the caller follows the case (and so may stop).
    pub following: bool,
    /// The company's active contacts who do not follow yet (only for a
    /// caller who may manage; else empty).
    pub candidates: Vec<Follower>,
    /// How many may follow one case.
    pub max: usize,
}

/// The followers of a case `user` may see.
pub async fn list(ctx: &Context, user: &User, case_uid: &str) -> Result<Followers, ApiError> {
    let c = visible(ctx, user, case_uid).await?;
    view(ctx, user, &c).await
}

async fn view(ctx: &Context, user: &User, c: &Case) -> Result<Followers, ApiError> {
    let users = ctx.store.get_users(&c.followers).await?;
    // A follower whose account is gone still shows (by its uid) until taken off.
    let followers = c
        .followers
        .iter()
        .map(|f| users.get(f).map(Follower::of).unwrap_or_else(|| Follower { uid: f.clone(), name: f.clone() }))
        .collect();
    let can_manage = policy::may(user, Action::ManageFollowers(c));
    let mut candidates = Vec::new();
    if can_manage {
        let mut cursor: Option<String> = None;
        loop {
            let page = ctx.store.list_contacts(&c.customer, cursor.as_deref()).await?;
            candidates.extend(page.contacts.iter().filter(|u| policy::may_follow(u, c) && !c.followers.contains(&u.uid)).map(Follower::of));
            match page.next {
                Some(n) => cursor = Some(n),
                None => break,
            }
        }
        candidates.sort_by_key(|a| a.name.to_lowercase());
    }
    Ok(Followers { followers, can_manage, following: policy::follows(user, c), candidates, max: MAX_FOLLOWERS })
}

/// Makes `follower` (the case's customer account or one of its active
/// contacts; anyone else does not exist here: 404) follow the case. Already
/// following: nothing changes, the same answer.
pub async fn add(ctx: &Context, user: &User, case_uid: &str, follower: &str, once: &Once) -> Result<Follower, ApiError> {
    let follower = follower.trim();
    if follower.is_empty() {
        return Err(ApiError::field("user", Msg::Required));
    }
    // Longer than any uid: nobody (and no key the table would refuse).
    if follower.len() > MAX_UID_LEN {
        return Err(ApiError::NotFound);
    }
    retry::until_done(|_| async move {
        let prev = visible_for_write(ctx, user, case_uid).await?;
        policy::require(user, Action::ManageFollowers(&prev.case))?;
        let target = ctx.store.get_user(follower).await?.filter(|t| policy::may_follow(t, &prev.case)).ok_or(ApiError::NotFound)?;
        let answer = Follower::of(&target);
        if prev.case.followers.contains(&target.uid) {
            return Ok(Attempt::Done(answer));
        }
        if prev.case.followers.len() >= MAX_FOLLOWERS {
            return Err(ApiError::bad(Msg::TooManyFollowers));
        }
        let mut next = prev.case.clone();
        next.followers.push(target.uid.clone());
        let history = [HistoryEntry::new(&next.uid, user, HISTORY_FIELD, None, Some(answer.name.clone()))];
        let event = Event::FollowerAdded { case: &next, follower: &target.uid, by: user };
        let written = commit_case_once(ctx, Some(&prev), &next, &history, event, (once, &answer), None).await?;
        Ok(if written { Attempt::Done(answer) } else { Attempt::Conflict })
    })
    .await
}

/// Takes `follower` off the case's followers: whoever may manage them, or
/// the follower itself. Not a follower: nothing changes.
pub async fn remove(ctx: &Context, user: &User, case_uid: &str, follower: &str) -> Result<(), ApiError> {
    let follower = follower.trim();
    retry::until_done(|_| async move {
        let prev = visible_for_write(ctx, user, case_uid).await?;
        if !policy::may_remove_follower(user, &prev.case, follower) {
            return Err(ApiError::Forbidden);
        }
        if !prev.case.followers.iter().any(|f| f == follower) {
            return Ok(Attempt::Done(()));
        }
        let name = match ctx.store.get_user(follower).await? {
            Some(u) => u.full_name(),
            None => follower.to_string(),
        };
        let mut next = prev.case.clone();
        next.followers.retain(|f| f != follower);
        let history = [HistoryEntry::new(&next.uid, user, HISTORY_FIELD, Some(name), None)];
        let event = Event::FollowerRemoved { case: &next, follower, by: user };
        let written = commit_case(ctx, Some(&prev), &next, &history, event).await?;
        Ok(if written { Attempt::Done(()) } else { Attempt::Conflict })
    })
    .await
}

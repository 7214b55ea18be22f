//! Notifications (spec §3, §4, §7): who is told what when something happens
//! ([`outgoing`], called by [`super::events::record`] so every notification is
//! written in its event's transaction), and the reader's calls: the list,
//! the unseen count of a dropdown, opening a dropdown, reading one, reading
//! all. Each reader reads only their own.

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::events::kinds::{Event, HoursChange, SubscriptionChange};
use super::retry::{self, Attempt};

use super::Context;
use crate::domain::case::{Case, CaseStatus};
use crate::domain::meeting::Meeting;
use crate::domain::message::Side;
use crate::domain::notification::{self, excerpt, Draft, Notification, Outgoing, Params, Verb};
use crate::domain::permissions::Permission;
use crate::domain::policy::holds;
use crate::domain::subscription::PurchasedService;
use crate::domain::{Role, User};
use crate::error::{ApiError, Msg};
use crate::store::collaboration::COUNT_CAP;
/// How far into a reader's notifications a page may start (`offset`): the
/// store's bound, which the API document states.
pub use crate::store::collaboration::OFFSET_MAX;
use crate::store::keys;

/// Who a notification goes to, before it is resolved to uids.
enum To {
    User(String),
    /// Every active user of a role (admins; lawyers who may take a case).
    Role(Role),
    /// The customer and its contacts who write in cases and see the case
    /// (the customer's uid, the case's creator, its followers).
    CustomerSide(String, String, Vec<String>),
}

/// The case's customer and its followers: whoever on the customer side is
/// told of what happens to the case (a follower hears of it as its
/// customer does).
fn customer_and_followers(c: &Case) -> Vec<To> {
    std::iter::once(c.customer.clone()).chain(c.followers.iter().cloned()).map(To::User).collect()
}

fn case_params(c: &Case, actor: Option<&User>) -> Params {
    Params {
        case_number: Some(c.case_number.clone()),
        subject: Some(c.subject.clone()),
        customer: Some(c.customer_name.clone()),
        actor: actor.map(User::full_name),
        ..Params::default()
    }
}

fn about_case(verb: Verb, c: &Case, actor: Option<&User>) -> Draft {
    Draft { verb, params: case_params(c, actor), case_uid: Some(c.uid.clone()) }
}

fn row_params(row: &PurchasedService) -> Params {
    let service = row.service_plan.as_ref().or(row.packages.as_ref()).map(|n| n.name.clone()).unwrap_or_else(|| row.service.name.clone());
    Params { service: Some(service), date: Some(row.expire_on.date().to_string()), ..Params::default() }
}

/// The drafts an event causes and for whom (the actor is never told of
/// their own act).
async fn drafts(ctx: &Context, event: &Event<'_>) -> Result<Vec<(Vec<To>, Draft)>, ApiError> {
    Ok(match event {
        Event::CaseCreated { case, by } => vec![(vec![To::Role(Role::Admin)], about_case(Verb::CaseCreated, case, Some(by)))],
        Event::CaseStatusChanged { before, after, by } => {
            let customer = customer_and_followers(after);
            match (before.status, after.status) {
                // Published: to the lawyers who may take it, or straight to its lawyer.
                (CaseStatus::Draft, CaseStatus::Waiting) => {
                    vec![(vec![To::Role(Role::Lawyer)], about_case(Verb::CasePublished, after, None))]
                }
                (CaseStatus::Draft, CaseStatus::Inprogress) => {
                    let lawyer = after.lawyer.clone().map(To::User).into_iter().collect();
                    vec![(lawyer, about_case(Verb::CasePublished, after, None)), (customer, about_case(Verb::CaseAccepted, after, None))]
                }
                (CaseStatus::Waiting, CaseStatus::Inprogress) => vec![(customer, about_case(Verb::CaseAccepted, after, Some(by)))],
                (CaseStatus::Inprogress, CaseStatus::Complete) => {
                    let mut to = customer;
                    to.extend(after.lawyer.clone().map(To::User));
                    vec![(to, about_case(Verb::CaseClosed, after, Some(by)))]
                }
                (CaseStatus::Complete, _) => {
                    let mut to = customer;
                    to.extend(before.lawyer.clone().map(To::User));
                    vec![(to, about_case(Verb::CaseReopened, after, Some(by)))]
                }
                (CaseStatus::Inprogress, CaseStatus::Waiting) => {
                    let mut to = customer;
                    to.extend(before.lawyer.clone().map(To::User));
                    vec![
                        (to, about_case(Verb::CaseTransferred, after, Some(by))),
                        (vec![To::Role(Role::Lawyer)], about_case(Verb::CasePublished, after, None)),
                    ]
                }
                _ => vec![],
            }
        }
        Event::CaseHoursChanged { case, by, change, .. } => match change {
            HoursChange::Logged => vec![(customer_and_followers(case), about_case(Verb::HoursLogged, case, Some(by)))],
            HoursChange::Edited => vec![(customer_and_followers(case), about_case(Verb::HoursEdited, case, Some(by)))],
            HoursChange::Deleted | HoursChange::Invoiced => vec![],
        },
        Event::CaseChanged { before, after, by } => {
            let added = after.files.iter().any(|f| !before.files.iter().any(|b| b.key == f.key));
            if !added {
                return Ok(vec![]);
            }
            // To the other party: the lawyer when the customer side added it, else the customer.
            let to = if crate::domain::policy::is_customer_side(by) {
                after.lawyer.clone().map(To::User).into_iter().collect()
            } else {
                customer_and_followers(after)
            };
            vec![(to, about_case(Verb::DocumentAdded, after, Some(by)))]
        }
        Event::MessagePosted { case, message, by } => {
            let to = match message.side {
                Side::Lawyer => vec![To::CustomerSide(case.customer.clone(), case.created_by.clone(), case.followers.clone())],
                Side::Customer => case.lawyer.clone().map(To::User).into_iter().collect(),
            };
            let mut d = about_case(Verb::MessageReceived, case, Some(by));
            d.params.excerpt = Some(excerpt(&message.text));
            vec![(to, d)]
        }
        Event::CaseRated { case, rating } => {
            let mut d = about_case(Verb::CaseRated, case, None);
            d.params.excerpt = Some("★".repeat(rating.stars as usize));
            vec![(vec![To::User(rating.lawyer.clone())], d)]
        }
        Event::CustomerRegistered { profile } => {
            let name = profile
                .company_name
                .clone()
                .filter(|c| !c.is_empty())
                .unwrap_or_else(|| format!("{} {}", profile.first_name, profile.last_name));
            let d = Draft {
                verb: Verb::CustomerAwaitingApproval,
                params: Params { customer: Some(name), ..Params::default() },
                case_uid: None,
            };
            vec![(vec![To::Role(Role::Admin)], d)]
        }
        Event::SubscriptionChanged { row, change } => {
            let verb = match change {
                SubscriptionChange::Bought => Verb::SubscriptionBought,
                SubscriptionChange::Changed => Verb::SubscriptionChanged,
                SubscriptionChange::Activated => Verb::SubscriptionActivated,
                SubscriptionChange::Expired => Verb::SubscriptionExpired,
                SubscriptionChange::Used | SubscriptionChange::Deleted | SubscriptionChange::Renewed => return Ok(vec![]),
            };
            vec![(subscription_readers(ctx, row).await?, Draft { verb, params: row_params(row), case_uid: None })]
        }
        Event::CustomerSaved { .. } | Event::ContactSaved { .. } => vec![],
        Event::FollowerAdded { case, follower, by } => {
            vec![(vec![To::User(follower.to_string())], about_case(Verb::CaseFollowed, case, Some(by)))]
        }
        Event::FollowerRemoved { .. } => vec![],
        Event::MeetingBooked { meeting, by } => vec![meeting_news(Verb::MeetingBooked, meeting, by)],
        Event::MeetingCancelled { meeting, by } => vec![meeting_news(Verb::MeetingCancelled, meeting, by)],
    })
}

/// A meeting's news go to the other side: the lawyer when the customer
/// side acted, else the customer and whoever of its side booked it.
fn meeting_news(verb: Verb, m: &Meeting, by: &User) -> (Vec<To>, Draft) {
    let to = if crate::domain::policy::is_customer_side(by) {
        vec![To::User(m.lawyer_uid.clone())]
    } else {
        vec![To::User(m.customer_uid.clone()), To::User(m.booked_by.clone())]
    };
    let params = Params {
        case_number: Some(m.case_number.clone()),
        subject: Some(m.subject.clone()),
        customer: Some(m.customer_name.clone()),
        actor: Some(by.full_name()),
        date: Some(crate::domain::calendar::stockholm_text(m.start)),
        ..Params::default()
    };
    (to, Draft { verb, params, case_uid: Some(m.case_uid.clone()) })
}

/// A subscription's news go to the customer and its account manager.
async fn subscription_readers(ctx: &Context, row: &PurchasedService) -> Result<Vec<To>, ApiError> {
    let mut to = vec![To::User(row.customer_uid.clone())];
    if let Some(manager) = ctx.store.get_customer_profile(&row.customer_uid).await?.and_then(|p| p.account_manager_uid) {
        to.push(To::User(manager));
    }
    Ok(to)
}

/// The customer and its contacts who write in cases.
async fn customer_side(ctx: &Context, customer: &str, case_creator: &str, followers: &[String]) -> Result<Vec<String>, ApiError> {
    let mut out = vec![customer.to_string()];
    let mut cursor: Option<String> = None;
    loop {
        let page = ctx.store.list_contacts(customer, cursor.as_deref()).await?;
        // A contact without view_all_cases hears only of the cases it opened or follows.
        let reads = |c: &User| holds(c, Permission::ViewAllCases) || c.uid == case_creator || followers.contains(&c.uid);
        out.extend(page.contacts.iter().filter(|c| c.active && holds(c, Permission::ChatInCases) && reads(c)).map(|c| c.uid.clone()));
        match page.next {
            Some(n) => cursor = Some(n),
            None => return Ok(out),
        }
    }
}

/// The notifications `events` cause, resolved to their readers.
pub async fn outgoing(ctx: &Context, events: &[Event<'_>]) -> Result<Vec<Outgoing>, ApiError> {
    let mut out = Vec::new();
    for event in events {
        let actor = actor_of(event);
        for (to, draft) in drafts(ctx, event).await? {
            let mut readers: Vec<String> = Vec::new();
            for t in to {
                match t {
                    To::User(u) => readers.push(u),
                    To::Role(r) => readers.extend(ctx.store.active_users_of_role(r).await?),
                    To::CustomerSide(c, creator, followers) => readers.extend(customer_side(ctx, &c, &creator, &followers).await?),
                }
            }
            readers.retain(|r| Some(r.as_str()) != actor);
            readers.sort();
            readers.dedup();
            if readers.is_empty() {
                continue;
            }
            out.push(Outgoing { at: Utc::now(), event_id: uuid::Uuid::new_v4().simple().to_string(), draft, readers });
        }
    }
    Ok(out)
}

fn actor_of<'a>(event: &'a Event<'_>) -> Option<&'a str> {
    match event {
        Event::CaseCreated { by, .. }
        | Event::CaseChanged { by, .. }
        | Event::CaseStatusChanged { by, .. }
        | Event::CaseHoursChanged { by, .. }
        | Event::MessagePosted { by, .. }
        | Event::MeetingBooked { by, .. }
        | Event::MeetingCancelled { by, .. }
        | Event::FollowerAdded { by, .. }
        | Event::FollowerRemoved { by, .. } => Some(by.uid.as_str()),
        _ => None,
    }
}

/// A page of the caller's notifications.
#[derive(Serialize, ToSchema)]
pub struct NotificationList {
    pub results: Vec<Notification>,
    /// Whether more follow (ask again with `offset` + `limit`).
    pub more: bool,
}

/// `notification/?offset&limit&ordering=-timestamp&description=…`: the
/// caller's notifications, newest first.
/// The one order of the notification list's `ordering` (newest first);
/// left out or blank is the same.
pub const ORDERING: &str = "-timestamp";

pub async fn list(
    ctx: &Context,
    user: &User,
    description: Option<&str>,
    offset: usize,
    limit: usize,
    ordering: Option<&str>,
) -> Result<NotificationList, ApiError> {
    let cats = notification::categories(description)?;
    if !matches!(ordering.map(str::trim), None | Some("") | Some(ORDERING)) {
        return Err(ApiError::field("ordering", Msg::Invalid));
    }
    let limit = limit.clamp(1, 50);
    let page = ctx.store.notifications(&user.uid, &cats, offset, limit).await?;
    Ok(NotificationList { results: page.results, more: page.more })
}

/// `notification/seen/count?description=…`: the badge of a dropdown.
pub async fn unseen_count(ctx: &Context, user: &User, description: Option<&str>) -> Result<u32, ApiError> {
    let cats = notification::categories(description)?;
    let count = ctx.store.unseen_notifications(&user.uid, &cats, notification::dropdown_of(&cats)).await?;
    Ok(count.min(COUNT_CAP as u32))
}

/// `notification/seen/update?description=…`: the dropdown was opened, its badge goes to 0.
pub async fn mark_seen(ctx: &Context, user: &User, description: Option<&str>) -> Result<(), ApiError> {
    let cats = notification::categories(description)?;
    ctx.store.mark_notifications_seen(&user.uid, notification::dropdown_of(&cats), Utc::now()).await
}

/// `PATCH notification/{id}/ {unread: false}`: one of the caller's own, read.
pub async fn mark_read(ctx: &Context, user: &User, id: &str) -> Result<Notification, ApiError> {
    // Only ids of the shape the store gives out; anything else names nothing.
    if id.is_empty() || id.len() > 200 || id.contains(['/', '\\']) {
        return Err(ApiError::NotFound);
    }
    ctx.store.mark_notification_read(&user.uid, id).await
}

/// Read all: every notification the caller has, read.
pub async fn read_all(ctx: &Context, user: &User) -> Result<(), ApiError> {
    ctx.store.mark_all_notifications_read(&user.uid, Utc::now()).await
}

/// How long before its end a subscription's reader is told it expires.
pub const EXPIRING_NOTICE_DAYS: i64 = 7;

/// The scheduled job's reminder: every subscription row ending within
/// [`EXPIRING_NOTICE_DAYS`] tells its customer and account manager once (a
/// guard item per row and end date, written with the notifications, makes a
/// re-run or a concurrent run write nothing). Returns how many rows were told.
pub async fn remind_expiring(ctx: &Context, now: DateTime<Utc>) -> Result<usize, ApiError> {
    let mut told = 0;
    for (customer, id) in ctx.store.due_purchases(now + Duration::days(EXPIRING_NOTICE_DAYS)).await? {
        let Some(stored) = ctx.store.purchase_of(&customer, id).await? else { continue };
        let row = stored.row;
        if row.expired || row.expire_on <= now.naive_utc() {
            continue;
        }
        let guard = keys::follow_up::sk("expiring_notice", &format!("{id}#{}", row.expire_on.format("%Y%m%d%H%M%S")));
        let readers = subscription_readers(ctx, &row).await?;
        let readers: Vec<String> = readers.into_iter().filter_map(|t| if let To::User(u) = t { Some(u) } else { None }).collect();
        let draft = Draft { verb: Verb::SubscriptionExpiring, params: row_params(&row), case_uid: None };
        let topic = format!("subscription#{id}");
        let written = retry::until_done(|_| async {
            if ctx.store.get_consistent(&keys::follow_up::at_sk(&guard)).await?.is_some() {
                return Ok(Attempt::Done(None));
            }
            let mut tx = ctx.store.tx();
            tx.put_new(keys::follow_up::at_sk(&guard).with([
                ("entity".to_string(), crate::store::s("expiring_notice")),
                // Kept a month past the end date (a renewal gets a new date and so a new guard), then gone.
                (
                    crate::store::table::TTL_ATTRIBUTE.to_string(),
                    crate::store::n((row.expire_on.and_utc() + Duration::days(31)).timestamp()),
                ),
            ]))?;
            let event_id = format!("expiring-{id}");
            for r in &readers {
                ctx.store.add_notification(&mut tx, r, now, &event_id, &draft)?;
            }
            let mut mails = crate::services::event_mail::Mails::default();
            crate::services::event_mail::queue(ctx, &mut tx, &mut mails, &draft, &topic, &readers, 0).await?;
            Ok(if ctx.store.commit(tx).await? { Attempt::Done(Some(mails)) } else { Attempt::Conflict })
        })
        .await?;
        if let Some(mails) = written {
            crate::services::outbox::send_all_after_commit(ctx, &mails.outbox).await;
            told += 1;
        }
    }
    Ok(told)
}

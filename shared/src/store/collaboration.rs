//! Messages, notifications and ratings (key design in [`super::table`]).

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Utc};

use super::tx::{Cond, Tx};
use super::{hex, keys, n, s, sdk_err, unhex, Item, Store};
use crate::domain::message::Message;
use crate::domain::notification::{Category, Draft, Dropdown, Notification, Outgoing};
use crate::domain::rating::Rating;
use crate::domain::Role;
use crate::error::{ApiError, Msg};

/// A page of a conversation, newest first, and the cursor of older messages.
pub struct MessagePage {
    pub messages: Vec<Message>,
    pub older: Option<String>,
}

/// A page of a reader's notifications.
pub struct NotificationPage {
    pub results: Vec<Notification>,
    /// How many more of these categories follow (at most [`COUNT_CAP`]).
    pub more: bool,
}

/// Follow-ups of this kind fan a notification out to many readers.
pub const NOTIFY_FOLLOW_UP: &str = "notify";

/// Unseen counts stop here: a badge shows "99+" long before.
pub const COUNT_CAP: i32 = 200;
/// How far an `offset` may reach into a reader's notifications.
pub const OFFSET_MAX: usize = 500;

/// The marks of a reader: where each dropdown was last opened, and "read all".
#[derive(Clone, Debug, Default)]
struct Marks {
    seen_messages: Option<String>,
    seen_notifications: Option<String>,
    read_all: Option<String>,
}

impl Marks {
    fn seen(&self, d: Dropdown) -> Option<&str> {
        match d {
            Dropdown::Messages => self.seen_messages.as_deref(),
            Dropdown::Notifications => self.seen_notifications.as_deref(),
        }
    }
}

fn seen_attr(d: Dropdown) -> &'static str {
    match d {
        Dropdown::Messages => "seen_messages",
        Dropdown::Notifications => "seen_notifications",
    }
}

impl Store {
    // ------------------------------------------------------------ messages

    pub fn add_message(&self, tx: &mut Tx, m: &Message) -> Result<(), ApiError> {
        let mut item: Item = serde_dynamo::to_item(m).map_err(ApiError::internal)?;
        keys::message::item(&m.case_uid, m.at, &m.id).stamp(&mut item);
        item.insert("entity".into(), s("message"));
        tx.put_new(item)
    }

    /// One page of a case's conversation, newest first (`older`: the cursor
    /// of the page before it).
    pub async fn messages(&self, case_uid: &str, older_than: Option<&str>, limit: usize) -> Result<MessagePage, ApiError> {
        let below = match older_than.filter(|c| !c.is_empty()) {
            Some(c) => unhex(c).filter(|k| k.starts_with(keys::message::PREFIX)).ok_or(ApiError::bad(Msg::InvalidCursor))?,
            None => format!("{}~", keys::message::PREFIX),
        };
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :pk AND SK BETWEEN :from AND :below")
            .expression_attribute_values(":pk", s(keys::case::pk(case_uid)))
            .expression_attribute_values(":from", s(keys::message::PREFIX))
            .expression_attribute_values(":below", s(&below))
            .scan_index_forward(false)
            // BETWEEN includes the cursor itself: one more, and one to tell
            // whether older ones follow.
            .limit(limit as i32 + 2)
            .send()
            .await
            .map_err(sdk_err)?;
        let rows: Vec<(String, Item)> = out
            .items()
            .iter()
            .filter_map(|i| Some((i.get("SK")?.as_s().ok()?.clone(), i.clone())))
            .filter(|(sk, _)| *sk != below)
            .collect();
        let older = (rows.len() > limit).then(|| hex(&rows[limit - 1].0));
        let messages = rows
            .into_iter()
            .take(limit)
            .filter_map(|(sk, i)| match serde_dynamo::from_item(i) {
                Ok(m) => Some(m),
                Err(e) => {
                    tracing::warn!(sk = %sk, error = %crate::telemetry::redact(&e.to_string()), "unreadable message item skipped");
                    None
                }
            })
            .collect();
        Ok(MessagePage { messages, older })
    }

    /// Moves `user`'s read mark of the conversation forward to `message`
    /// (never back).
    pub async fn mark_messages_read(&self, case_uid: &str, user_uid: &str, m: &Message) -> Result<(), ApiError> {
        let mark = keys::message::sk(m.at, &m.id);
        let res = self
            .client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(keys::message::read(case_uid, user_uid).item()))
            .item("entity", s("message_read_mark"))
            .item("user_uid", s(user_uid))
            .item("mark", s(&mark))
            .condition_expression("attribute_not_exists(PK) OR #m < :m")
            .expression_attribute_names("#m", "mark")
            .expression_attribute_values(":m", s(&mark))
            .send()
            .await;
        super::applied(res).map(|_| ())
    }

    /// Every participant's read mark of a conversation: user uid → the sort
    /// key of the last message they read.
    pub async fn message_read_marks(&self, case_uid: &str) -> Result<HashMap<String, String>, ApiError> {
        Ok(self
            .query_prefix(&keys::case::pk(case_uid), keys::message::READ_PREFIX)
            .await?
            .iter()
            .filter_map(|i| Some((i.get("user_uid")?.as_s().ok()?.clone(), i.get("mark")?.as_s().ok()?.clone())))
            .collect())
    }

    // ------------------------------------------------------- notifications

    /// Adds a notification for `reader` (its id is fixed by the event, so a
    /// follow-up finished twice writes the same item).
    pub fn add_notification(&self, tx: &mut Tx, reader: &str, at: DateTime<Utc>, event_id: &str, d: &Draft) -> Result<(), ApiError> {
        tx.put(notification_item(reader, at, event_id, d)?)
    }

    /// Writes notifications outside a transaction (a follow-up's fan-out),
    /// 25 per BatchWriteItem.
    pub async fn put_notifications(&self, items: Vec<Item>) -> Result<(), ApiError> {
        use aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
        for chunk in items.chunks(25) {
            let mut requests: Vec<WriteRequest> = chunk
                .iter()
                .map(|i| PutRequest::builder().set_item(Some(i.clone())).build().map(|p| WriteRequest::builder().put_request(p).build()))
                .collect::<Result<_, _>>()
                .map_err(ApiError::internal)?;
            while !requests.is_empty() {
                let out = self.client.batch_write_item().request_items(&self.table, requests).send().await.map_err(sdk_err)?;
                requests = out.unprocessed_items().and_then(|u| u.get(&self.table)).cloned().unwrap_or_default();
            }
        }
        Ok(())
    }

    async fn marks(&self, reader: &str) -> Result<Marks, ApiError> {
        let Some(item) = self.get_consistent(&keys::notification::marks(reader)).await? else {
            return Ok(Marks::default());
        };
        let text = |k: &str| item.get(k).and_then(|v| v.as_s().ok()).cloned();
        Ok(Marks { seen_messages: text("seen_messages"), seen_notifications: text("seen_notifications"), read_all: text("read_all") })
    }

    /// A reader's notifications of `categories`, newest first, from `offset`.
    pub async fn notifications(
        &self,
        reader: &str,
        categories: &[Category],
        offset: usize,
        limit: usize,
    ) -> Result<NotificationPage, ApiError> {
        if offset > OFFSET_MAX {
            return Err(ApiError::field("offset", Msg::Invalid));
        }
        let wanted = offset + limit + 1;
        let query = self.newest_notifications(reader).limit(50);
        let page = async {
            let mut pages = super::Pages::new(with_categories(query, categories), None);
            let mut found: Vec<Item> = Vec::new();
            while let Some(out) = pages.next().await? {
                found.extend(out.items.unwrap_or_default());
                if found.len() >= wanted {
                    break;
                }
            }
            Ok::<_, ApiError>(found)
        };
        // The marks only decide what is shown as read: read beside the page.
        let (marks, found) = tokio::try_join!(self.marks(reader), page)?;
        let more = found.len() > offset + limit;
        let results = found.into_iter().skip(offset).take(limit).filter_map(|i| parse_notification(i, &marks)).collect();
        Ok(NotificationPage { results, more })
    }

    /// The Query of a reader's notifications, newest first.
    fn newest_notifications(&self, reader: &str) -> super::QueryFluentBuilder {
        self.client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :pk AND begins_with(SK, :p)")
            .expression_attribute_values(":pk", s(keys::notification::pk(reader)))
            .expression_attribute_values(":p", s(keys::notification::PREFIX))
            .scan_index_forward(false)
    }

    /// How many notifications of `categories` the reader has not seen (the
    /// badge): of the newest [`COUNT_CAP`] notifications, those after the
    /// mark. They are read beside the reader's marks rather than after them
    /// (from the mark up), so the badge waits for one round trip; the price
    /// is reading seen ones too, at most [`COUNT_CAP`] small items.
    pub async fn unseen_notifications(&self, reader: &str, categories: &[Category], dropdown: Dropdown) -> Result<u32, ApiError> {
        let newest = self.newest_notifications(reader).projection_expression("SK").limit(COUNT_CAP);
        let newest = with_categories(newest, categories);
        let (marks, page) = tokio::try_join!(self.marks(reader), async { newest.send().await.map_err(sdk_err) })?;
        let from = marks.seen(dropdown).unwrap_or(keys::notification::PREFIX);
        Ok(page.items().iter().filter(|i| i.get("SK").and_then(|v| v.as_s().ok()).is_some_and(|sk| sk.as_str() > from)).count() as u32)
    }

    /// Opening a dropdown: everything of its categories up to `now` is seen.
    pub async fn mark_notifications_seen(&self, reader: &str, dropdown: Dropdown, now: DateTime<Utc>) -> Result<(), ApiError> {
        self.set_mark(reader, seen_attr(dropdown), now).await
    }

    /// "Read all": every notification up to `now` is read.
    pub async fn mark_all_notifications_read(&self, reader: &str, now: DateTime<Utc>) -> Result<(), ApiError> {
        self.set_mark(reader, "read_all", now).await
    }

    async fn set_mark(&self, reader: &str, attr: &str, now: DateTime<Utc>) -> Result<(), ApiError> {
        let mark = keys::notification::mark(now);
        let res = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::notification::marks(reader).item()))
            .update_expression("SET #m = :m, entity = :e")
            .condition_expression("attribute_not_exists(#m) OR #m < :m")
            .expression_attribute_names("#m", attr)
            .expression_attribute_values(":m", s(mark))
            .expression_attribute_values(":e", s("notification_marks"))
            .send()
            .await;
        // A later mark is there already (two tabs): keep it.
        super::applied(res).map(|_| ())
    }

    /// One notification marked read (its reader's own only): the item as it is now.
    pub async fn mark_notification_read(&self, reader: &str, id: &str) -> Result<Notification, ApiError> {
        let res = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::notification::item(reader, id).item()))
            .update_expression("SET #r = :t")
            .condition_expression("attribute_exists(PK)")
            .expression_attribute_names("#r", "read")
            .expression_attribute_values(":t", AttributeValue::Bool(true))
            .return_values(aws_sdk_dynamodb::types::ReturnValue::AllNew)
            .send()
            .await;
        let item = match res {
            Ok(out) => out.attributes.ok_or(ApiError::NotFound)?,
            Err(e) if super::is_conditional(&e) => return Err(ApiError::NotFound),
            Err(e) => return Err(sdk_err(e)),
        };
        parse_notification(item, &Marks::default()).ok_or_else(|| ApiError::internal("a notification that does not parse"))
    }

    /// Adds the follow-up that fans `out` to its readers after the commit
    /// (when they are more than the transaction holds); its sort key.
    pub fn add_notify_follow_up(&self, tx: &mut Tx, out: &Outgoing) -> Result<String, ApiError> {
        let sk = keys::follow_up::sk(NOTIFY_FOLLOW_UP, &out.event_id);
        let mut item = keys::follow_up::at_sk(&sk).item();
        item.insert("entity".into(), s("follow_up"));
        item.insert("outgoing".into(), s(serde_json::to_string(out).map_err(ApiError::internal)?));
        tx.put(item)?;
        Ok(sk)
    }

    /// Writes the notifications of a follow-up, then removes it. Idempotent:
    /// each reader's copy has the same key however often this runs.
    pub async fn finish_notify_follow_up(&self, sk: &str) -> Result<(), ApiError> {
        let Some(item) = self.get_consistent(&keys::follow_up::at_sk(sk)).await? else { return Ok(()) };
        let text =
            item.get("outgoing").and_then(|v| v.as_s().ok()).ok_or_else(|| ApiError::internal("follow-up without its notification"))?;
        let out: Outgoing = serde_json::from_str(text).map_err(ApiError::internal)?;
        let items = out.readers.iter().map(|r| notification_item(r, out.at, &out.event_id, &out.draft)).collect::<Result<Vec<_>, _>>()?;
        self.put_notifications(items).await?;
        self.client.delete_item().table_name(&self.table).set_key(Some(keys::follow_up::at_sk(sk).item())).send().await.map_err(sdk_err)?;
        Ok(())
    }

    /// Notification follow-ups a stopped process left behind, at most `limit`.
    pub async fn pending_notify_follow_ups(&self, limit: i32) -> Result<Vec<String>, ApiError> {
        self.pending_follow_ups(NOTIFY_FOLLOW_UP, limit).await
    }

    /// The uids of the active users of a role (recipients of a role's
    /// notifications): one Query of the role's index partition.
    pub async fn active_users_of_role(&self, role: Role) -> Result<Vec<String>, ApiError> {
        let query = self
            .index_query(super::table::GSI1, &keys::user::role_gsi1pk(role.as_str()))
            .filter_expression("active = :t")
            .projection_expression("#u")
            .expression_attribute_names("#u", "uid")
            .expression_attribute_values(":t", AttributeValue::Bool(true));
        Ok(self.query_all(query).await?.iter().filter_map(|i| i.get("uid").and_then(|v| v.as_s().ok()).cloned()).collect())
    }

    // ------------------------------------------------------------- ratings

    /// Adds a case's rating (once: a second one fails the transaction), the
    /// lawyer's copy of it, and — when the lawyer has a staff profile — the
    /// lawyer's running sum and count on it.
    pub fn add_rating(&self, tx: &mut Tx, r: &Rating, lawyer_has_profile: bool) -> Result<(), ApiError> {
        let mut item: Item = serde_dynamo::to_item(r).map_err(ApiError::internal)?;
        keys::rating::item(&r.case_uid).stamp(&mut item);
        item.insert("entity".into(), s("rating"));
        tx.put_new(item.clone())?;
        keys::rating::lawyer(&r.lawyer, r.at, &r.case_uid).stamp(&mut item);
        item.insert("entity".into(), s("lawyer_rating"));
        tx.put_new(item)?;
        if !lawyer_has_profile {
            return Ok(());
        }
        tx.update_if(
            &keys::staff::item(&r.lawyer),
            "ADD rating_sum :s, rating_count :one",
            Cond::present().value(":s", n(r.stars)).value(":one", n(1)),
        )
    }

    pub async fn get_rating(&self, case_uid: &str) -> Result<Option<Rating>, ApiError> {
        self.get_as(&keys::rating::item(case_uid)).await
    }

    /// A lawyer's ratings, newest first (at most `limit`).
    pub async fn lawyer_ratings(&self, lawyer: &str, limit: i32) -> Result<Vec<Rating>, ApiError> {
        let out = self.newest_of(&keys::rating::lawyer_pk(lawyer)).limit(limit).send().await.map_err(sdk_err)?;
        Ok(out.items().iter().filter_map(|i| serde_dynamo::from_item(i.clone()).ok()).collect())
    }
}

fn with_categories(
    mut q: aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder,
    categories: &[Category],
) -> aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder {
    if categories.len() < 3 {
        let mut names = Vec::new();
        for (i, c) in categories.iter().enumerate() {
            let ph = format!(":c{i}");
            q = q.expression_attribute_values(&ph, s(c.word()));
            names.push(ph);
        }
        q = q.filter_expression(format!("#cat IN ({})", names.join(", "))).expression_attribute_names("#cat", "description");
    }
    q
}

/// A notification item as stored.
pub fn notification_item(reader: &str, at: DateTime<Utc>, event_id: &str, d: &Draft) -> Result<Item, ApiError> {
    let id = keys::notification::id(at, event_id);
    let n = Notification {
        id: id.clone(),
        verb: d.verb,
        params: d.params.clone(),
        timestamp: at,
        unread: true,
        description: d.verb.category(),
        uid: d.case_uid.clone(),
    };
    let mut item: Item = serde_dynamo::to_item(&n).map_err(ApiError::internal)?;
    keys::notification::item(reader, &id).stamp(&mut item);
    item.insert("entity".into(), s("notification"));
    item.insert("read".into(), AttributeValue::Bool(false));
    if let Some(case) = &d.case_uid {
        keys::IndexKey::gsi1(keys::notification::case_gsi1pk(case), keys::notification::case_gsi1sk(reader, &id)).stamp(&mut item);
    }
    Ok(item)
}

fn parse_notification(item: Item, marks: &Marks) -> Option<Notification> {
    let sk = item.get("SK").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
    let read = item.get("read").and_then(|v| v.as_bool().ok()).copied().unwrap_or(false);
    match serde_dynamo::from_item::<_, Notification>(item) {
        Ok(mut n) => {
            n.unread = !read && marks.read_all.as_deref().is_none_or(|m| sk.as_str() > m);
            Some(n)
        }
        Err(e) => {
            tracing::warn!(sk = %sk, error = %crate::telemetry::redact(&e.to_string()), "unreadable notification skipped");
            None
        }
    }
}

//! Mail that belongs to a write: an outbox item put in the write's own
//! transaction, sent by its own step right after the commit and then marked
//! sent, or by the scheduled job's sweep when a stop came between. Sending
//! is at least once (a mail sent just before a stop is sent again); marking
//! is once (conditional on the item still holding its link), and an item
//! marked sent is never sent again.
//!
//! The item holds the set-password link's token until it is sent (the mail
//! must carry it; the table keeps only the link's digest): marking sent
//! removes it. Items expire with their link (TTL).
//!
//! A send SES refuses is counted on the item (`attempts`) with the time of
//! the next try (`next_attempt_at`, backing off), so one refused address
//! neither blocks the sweep nor is tried every run. After
//! [`MAX_ATTEMPTS`] the item is marked failed: its token goes (it leaves
//! the unsent set for good) and `failed_at` says when, while the rest of it
//! stays for operations until its TTL.

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Utc};

use super::tx::Tx;
use super::{keys, n, s, sdk_err, Item, Store};
use crate::error::ApiError;

/// An unsent mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxMail {
    /// Its sort key (the item's id).
    pub sk: String,
    /// What to send: `invitation` (a new account's set-password link) or
    /// `event` (something happened: the text is on the item).
    pub kind: String,
    pub user_uid: String,
    /// The link the mail carries (an invitation's set-password token, an
    /// event mail's unsubscribe token); removed once sent.
    pub token: String,
    /// An event mail's address, subject and text (written in the reader's
    /// language when the event happened).
    pub letter: Option<Letter>,
    /// Sends SES refused so far.
    pub attempts: u32,
}

/// Refused sends after which an item is marked failed. With the sweep every
/// 15 minutes and [`retry_after`]'s waits, the last try comes about 20
/// hours after the first: an SES pause fixed within a working day still
/// gets every mail out; an address SES will never take stops being tried.
pub const MAX_ATTEMPTS: u32 = 8;

/// The wait after the `attempts`-th refused send: 15 minutes, doubling, at
/// most 6 hours.
pub fn retry_after(attempts: u32) -> chrono::Duration {
    let minutes = 15i64.saturating_mul(1i64 << attempts.saturating_sub(1).min(10));
    chrono::Duration::minutes(minutes.min(6 * 60))
}

/// What [`Store::record_mail_refused`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Counted; the next try is due at the time given.
    Deferred,
    /// The last try: the item is marked failed and is no longer sent.
    Failed,
    /// Nothing: the item was sent, failed or counted by another step since it was read.
    Stale,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Letter {
    pub to: String,
    pub subject: String,
    pub body: String,
}

/// The kind of a new account's set-password mail.
pub const INVITATION: &str = "invitation";
/// The kind of a mail telling that something happened (a message, a case's
/// new state, hours logged, a subscription about to end).
pub const EVENT: &str = "event";
/// The kind of a mail answering a request that could not say it in its
/// answer (a sign-up with an address or a company that has an account).
pub const NOTICE: &str = "notice";

fn parse(item: &Item) -> Option<OutboxMail> {
    let text = |a: &str| item.get(a).and_then(|v| v.as_s().ok()).cloned();
    let letter = match (text("to"), text("subject"), text("body")) {
        (Some(to), Some(subject), Some(body)) => Some(Letter { to, subject, body }),
        _ => None,
    };
    let attempts = item.get("attempts").and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok()).unwrap_or(0);
    Some(OutboxMail { sk: text("SK")?, kind: text("kind")?, user_uid: text("user_uid")?, token: text("token")?, letter, attempts })
}

/// A new unsent item of `kind` for `user_uid`, written at `at` and kept
/// until `expires_at`, with `more` fields; its sort key (its id) and item.
fn outbox_item<const N: usize>(
    kind: &str,
    user_uid: &str,
    token: &str,
    at: DateTime<Utc>,
    expires_at: i64,
    more: [(&str, AttributeValue); N],
) -> (String, Item) {
    let sk = keys::outbox::sk(at, &uuid::Uuid::new_v4().simple().to_string());
    let mut item = keys::outbox::at_sk(&sk).with([
        ("entity", s("outbox")),
        ("kind", s(kind)),
        ("user_uid", s(user_uid)),
        ("token", s(token)),
        (super::table::TTL_ATTRIBUTE, n(expires_at)),
    ]);
    item.extend(more.into_iter().map(|(k, v)| (k.to_string(), v)));
    (sk, item)
}

impl Store {
    /// Puts an unsent mail into `tx` (the transaction of the write it
    /// belongs to); its id.
    pub fn add_outbox_mail(
        &self,
        tx: &mut Tx,
        kind: &str,
        user_uid: &str,
        token: &str,
        at: DateTime<Utc>,
        expires_at: i64,
    ) -> Result<String, ApiError> {
        let (sk, item) = outbox_item(kind, user_uid, token, at, expires_at, []);
        tx.put_new(item)?;
        Ok(sk)
    }

    /// Puts an unsent letter of `kind` ([`EVENT`] or [`NOTICE`]) into `tx`
    /// (the transaction of what it tells); its id. `token` is an event
    /// mail's unsubscribe link's (a notice's only marks it unsent).
    pub fn add_outbox_letter(
        &self,
        tx: &mut Tx,
        kind: &str,
        user_uid: &str,
        token: &str,
        letter: &Letter,
        at: DateTime<Utc>,
    ) -> Result<String, ApiError> {
        // Unsent after a week, it is news no more.
        let expires_at = at.timestamp() + 7 * 24 * 60 * 60;
        let (sk, item) = outbox_item(
            kind,
            user_uid,
            token,
            at,
            expires_at,
            [("to", s(&letter.to)), ("subject", s(&letter.subject)), ("body", s(&letter.body))],
        );
        tx.put_new(item)?;
        Ok(sk)
    }

    /// The mail `sk` if it is still unsent (strongly consistent).
    pub async fn unsent_mail(&self, sk: &str) -> Result<Option<OutboxMail>, ApiError> {
        Ok(self.get_consistent(&keys::outbox::at_sk(sk)).await?.as_ref().and_then(parse))
    }

    /// Marks `sk` sent (its token removed); false when it already was.
    pub async fn mark_mail_sent(&self, sk: &str) -> Result<bool, ApiError> {
        let res = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::outbox::at_sk(sk).item()))
            .update_expression("SET sent_at = :now REMOVE #token, next_attempt_at")
            .condition_expression("attribute_exists(#token)")
            .expression_attribute_names("#token", "token")
            .expression_attribute_values(":now", n(Utc::now().timestamp()))
            .send()
            .await;
        super::applied(res)
    }

    /// Counts one refused send of `m` (as read: the update is conditional on
    /// the count read, so two steps that saw the same refusal count it
    /// once) in one update: the next try is due [`retry_after`] from `now`,
    /// or, at the [`MAX_ATTEMPTS`]-th, the item is marked failed (token
    /// removed, `failed_at` set). `give_up` marks it failed at once (a
    /// refusal the caller was told of: nothing may be sent later).
    pub async fn record_mail_refused(&self, m: &OutboxMail, now: DateTime<Utc>, give_up: bool) -> Result<Refusal, ApiError> {
        let attempts = m.attempts.saturating_add(1);
        let failed = give_up || attempts >= MAX_ATTEMPTS;
        let seen = if m.attempts == 0 { "attribute_not_exists(attempts)" } else { "attempts = :seen" };
        let mut update = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::outbox::at_sk(&m.sk).item()))
            .condition_expression(format!("attribute_exists(#token) AND {seen}"))
            .expression_attribute_names("#token", "token")
            .expression_attribute_values(":attempts", n(attempts))
            .expression_attribute_values(":now", n(now.timestamp()));
        if m.attempts > 0 {
            update = update.expression_attribute_values(":seen", n(m.attempts));
        }
        update = if failed {
            update.update_expression("SET attempts = :attempts, failed_at = :now REMOVE #token, next_attempt_at")
        } else {
            update
                .update_expression("SET attempts = :attempts, refused_at = :now, next_attempt_at = :next")
                .expression_attribute_values(":next", n((now + retry_after(attempts)).timestamp()))
        };
        match update.send().await {
            Ok(_) if failed => Ok(Refusal::Failed),
            Ok(_) => Ok(Refusal::Deferred),
            Err(e) if super::is_conditional(&e) => Ok(Refusal::Stale),
            Err(e) => Err(sdk_err(e)),
        }
    }

    /// Unsent mail written before `before` whose next try is due by `now`,
    /// oldest first, at most `limit` (the sweep: Query of the partition
    /// with a filter on the token and the next try's time).
    pub async fn unsent_mail_before(&self, before: DateTime<Utc>, now: DateTime<Utc>, limit: usize) -> Result<Vec<OutboxMail>, ApiError> {
        let query = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :p AND SK < :before")
            .filter_expression("attribute_exists(#token) AND (attribute_not_exists(next_attempt_at) OR next_attempt_at <= :now)")
            .expression_attribute_names("#token", "token")
            .expression_attribute_values(":p", s(keys::outbox::PK))
            .expression_attribute_values(":before", AttributeValue::S(keys::at(before)))
            .expression_attribute_values(":now", n(now.timestamp()));
        let mut pages = super::Pages::new(query, None);
        let mut out = Vec::new();
        while let Some(page) = pages.next().await? {
            out.extend(page.items().iter().filter_map(parse));
            if out.len() >= limit {
                break;
            }
        }
        out.truncate(limit);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refused_mail_waits_longer_each_time_up_to_six_hours_and_the_last_try_comes_within_a_day() {
        let minutes = |a| retry_after(a).num_minutes();
        assert_eq!([minutes(1), minutes(2), minutes(3), minutes(5), minutes(6), minutes(40)], [15, 30, 60, 240, 360, 360]);
        let waited: i64 = (1..MAX_ATTEMPTS).map(minutes).sum();
        assert!((18 * 60..24 * 60).contains(&waited), "{waited} minutes from the first try to the last");
    }
}

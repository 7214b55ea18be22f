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
    Some(OutboxMail { sk: text("SK")?, kind: text("kind")?, user_uid: text("user_uid")?, token: text("token")?, letter })
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
        let sk = keys::outbox::sk(at, &uuid::Uuid::new_v4().simple().to_string());
        tx.put_new(Item::from([
            ("PK".to_string(), s(keys::outbox::PK)),
            ("SK".to_string(), s(&sk)),
            ("entity".to_string(), s("outbox")),
            ("kind".to_string(), s(kind)),
            ("user_uid".to_string(), s(user_uid)),
            ("token".to_string(), s(token)),
            (super::table::TTL_ATTRIBUTE.to_string(), n(expires_at)),
        ]))?;
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
        let sk = keys::outbox::sk(at, &uuid::Uuid::new_v4().simple().to_string());
        tx.put_new(Item::from([
            ("PK".to_string(), s(keys::outbox::PK)),
            ("SK".to_string(), s(&sk)),
            ("entity".to_string(), s("outbox")),
            ("kind".to_string(), s(kind)),
            ("user_uid".to_string(), s(user_uid)),
            ("token".to_string(), s(token)),
            ("to".to_string(), s(&letter.to)),
            ("subject".to_string(), s(&letter.subject)),
            ("body".to_string(), s(&letter.body)),
            // Unsent after a week, it is news no more.
            (super::table::TTL_ATTRIBUTE.to_string(), n(at.timestamp() + 7 * 24 * 60 * 60)),
        ]))?;
        Ok(sk)
    }

    /// The mail `sk` if it is still unsent (strongly consistent).
    pub async fn unsent_mail(&self, sk: &str) -> Result<Option<OutboxMail>, ApiError> {
        Ok(self.get_consistent(keys::outbox::PK, sk).await?.as_ref().and_then(parse))
    }

    /// Marks `sk` sent (its token removed); false when it already was.
    pub async fn mark_mail_sent(&self, sk: &str) -> Result<bool, ApiError> {
        let res = self
            .client
            .update_item()
            .table_name(&self.table)
            .key("PK", s(keys::outbox::PK))
            .key("SK", s(sk))
            .update_expression("SET sent_at = :now REMOVE #token")
            .condition_expression("attribute_exists(#token)")
            .expression_attribute_names("#token", "token")
            .expression_attribute_values(":now", n(Utc::now().timestamp()))
            .send()
            .await;
        match res {
            Ok(_) => Ok(true),
            Err(e) if super::is_conditional(&e) => Ok(false),
            Err(e) => Err(sdk_err(e)),
        }
    }

    /// Unsent mail written before `before`, oldest first, at most `limit`
    /// (the sweep: Query of the partition with a filter on the token).
    pub async fn unsent_mail_before(&self, before: DateTime<Utc>, limit: usize) -> Result<Vec<OutboxMail>, ApiError> {
        let query = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :p AND SK < :before")
            .filter_expression("attribute_exists(#token)")
            .expression_attribute_names("#token", "token")
            .expression_attribute_values(":p", s(keys::outbox::PK))
            .expression_attribute_values(":before", AttributeValue::S(keys::at(before)));
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

//! Mail when something happens: each user's setting (on unless turned off,
//! in the language the user reads) and the batch windows that keep it to at
//! most one mail per case (or subscription) and recipient in
//! [`WINDOW_SECS`].

use chrono::{DateTime, Utc};

use super::tx::Tx;
use super::{keys, n, s, sdk_err, Store};
use crate::error::ApiError;

/// One mail per topic and recipient at most this often.
pub const WINDOW_SECS: i64 = 15 * 60;

/// A user's mail setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailPrefs {
    /// Mail when something happens (on by default).
    pub on: bool,
    /// `sv` (the default) or `en`.
    pub language: String,
}

impl Default for MailPrefs {
    fn default() -> Self {
        MailPrefs { on: true, language: "sv".into() }
    }
}

impl Store {
    /// `uid`'s setting (the default when never saved).
    pub async fn mail_prefs(&self, uid: &str) -> Result<MailPrefs, ApiError> {
        let Some(item) = self.get(&keys::event_mail::prefs(uid)).await? else { return Ok(MailPrefs::default()) };
        let on = item.get("on").and_then(|v| v.as_bool().ok()).copied().unwrap_or(true);
        let language = item.get("language").and_then(|v| v.as_s().ok()).filter(|l| *l == "en").map_or("sv", |_| "en");
        Ok(MailPrefs { on, language: language.into() })
    }

    /// Saves `uid`'s setting (a plain put: the last save wins).
    pub async fn put_mail_prefs(&self, uid: &str, prefs: &MailPrefs) -> Result<(), ApiError> {
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(keys::event_mail::prefs(uid).item()))
            .item("entity", s("mail_prefs"))
            .item("on", aws_sdk_dynamodb::types::AttributeValue::Bool(prefs.on))
            .item("language", s(&prefs.language))
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(())
    }

    /// Whether `uid` was mailed about `topic` less than [`WINDOW_SECS`] ago.
    pub async fn mail_window_open(&self, uid: &str, topic: &str, now: DateTime<Utc>) -> Result<bool, ApiError> {
        let item = self.get_consistent(&keys::event_mail::window(uid, topic)).await?;
        let until = item.as_ref().and_then(|i| i.get("until")).and_then(|v| v.as_n().ok()).and_then(|v| v.parse::<i64>().ok());
        Ok(until.is_some_and(|u| u > now.timestamp()))
    }

    /// Opens `uid`'s window on `topic` from `now`, in the transaction of the
    /// mail it belongs to. A plain put (no condition): a failed condition
    /// would undo the event's own write; two events at the very same moment
    /// may each send their mail.
    pub fn add_mail_window(&self, tx: &mut Tx, uid: &str, topic: &str, now: DateTime<Utc>) -> Result<(), ApiError> {
        let until = now.timestamp() + WINDOW_SECS;
        tx.put(keys::event_mail::window(uid, topic).with([
            ("entity".to_string(), s("mail_window")),
            ("until".to_string(), n(until)),
            (super::table::TTL_ATTRIBUTE.to_string(), n(until)),
        ]))
    }
}

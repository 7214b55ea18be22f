//! The video-meeting provider, Whereby (Whereby Embedded's REST API, base
//! `https://api.whereby.dev/v1`, as its published OpenAPI description says:
//! `shared/contracts/whereby/`, read by the contract tests). Participants
//! join in the browser, without an installed app.
//!
//! - Every call carries the API key as `Authorization: Bearer <key>`.
//! - `POST /meetings` with `endDate` (and `roomMode`, `roomNamePrefix`,
//!   `fields`) answers 201 with the meeting: `meetingId`, `roomUrl` (and
//!   `hostRoomUrl` when asked for in `fields`). The room lives until an hour
//!   after `endDate`, then Whereby deletes it by itself.
//! - `DELETE /meetings/{meetingId}` answers 204, also for a meeting deleted
//!   before (the API calls it idempotent).
//! - A throttled call is answered 429 with `Retry-After` (seconds).
//!
//! The API has no idempotency key, so a create is sent once (never retried:
//! a retry after a lost answer would make a second room). The booking's uid
//! is the room name's prefix, so a room at Whereby can be traced to its
//! booking; a room whose answer was lost is never handed out and expires an
//! hour after its end.
//!
//! [`MeetingRooms`] is all the use cases see.

use bytes::Bytes;
use chrono::{DateTime, Utc};
use hyper::Method;
use serde::{Deserialize, Serialize};

use super::http::{JsonClient, ProviderError};
use super::Fut;

/// A room at the provider and the link the participants open.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Room {
    pub id: String,
    pub url: String,
}

impl Room {
    /// An answer must name its meeting and give an https link.
    fn checked(self) -> Result<Room, ProviderError> {
        let id_ok = !self.id.is_empty() && self.id.len() <= 100 && self.id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
        if id_ok && self.url.starts_with("https://") && self.url.len() <= 500 {
            Ok(self)
        } else {
            Err(ProviderError::BadAnswer)
        }
    }
}

pub trait MeetingRooms: Send + Sync {
    /// A room for a meeting of `minutes` from `start`; `key` (the booking's
    /// uid) names it at the provider.
    fn create_room<'a>(&'a self, key: &'a str, title: &'a str, start: DateTime<Utc>, minutes: u32) -> Fut<'a, Room>;
    /// Deletes a room (deleting a deleted or expired room is no error).
    fn cancel_room<'a>(&'a self, id: &'a str) -> Fut<'a, ()>;
}

/// Whereby's REST API over [`JsonClient`].
pub struct Whereby {
    pub client: JsonClient,
    /// The organisation's API key (from Secrets Manager on AWS).
    pub api_key: String,
}

/// Slack after the booked end: a meeting that runs over keeps its room
/// (Whereby itself keeps it an hour after `endDate`).
pub const OVERRUN_MINUTES: i64 = 30;

/// The room name's prefix: the booking's uid in the characters the API
/// allows (lower-case letters and digits, at most 39).
pub fn room_prefix(key: &str) -> String {
    key.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).take(39).collect()
}

/// The body of `POST /meetings` for a meeting of `minutes` from `start`.
/// The title stays here: Whereby's meeting has no field for it.
pub fn create_body(key: &str, start: DateTime<Utc>, minutes: u32) -> serde_json::Value {
    let end = start + chrono::Duration::minutes(i64::from(minutes) + OVERRUN_MINUTES);
    let mut body = serde_json::json!({
        "endDate": end.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        // A lawyer and the customer's people: up to 4 is Whereby's `normal` room.
        "roomMode": "normal",
        "isLocked": false,
        "fields": [],
    });
    let prefix = room_prefix(key);
    if !prefix.is_empty() {
        body["roomNamePrefix"] = prefix.into();
    }
    body
}

impl Whereby {
    fn auth(&self) -> [(&'static str, String); 1] {
        [("authorization", format!("Bearer {}", self.api_key))]
    }
}

impl MeetingRooms for Whereby {
    fn create_room<'a>(&'a self, key: &'a str, _title: &'a str, start: DateTime<Utc>, minutes: u32) -> Fut<'a, Room> {
        Box::pin(async move {
            let body = Bytes::from(create_body(key, start, minutes).to_string());
            // Sent once: the API has no idempotency key (see the module docs).
            let result = self
                .client
                .request(Method::POST, "/meetings", &self.auth(), Some(("application/json", body)), false)
                .await
                .map_err(ProviderError::from);
            super::http::count("meeting", result.as_ref().map(|_| ()).map_err(|e| *e));
            #[derive(Deserialize)]
            #[serde(rename_all = "camelCase")]
            struct Meeting {
                meeting_id: String,
                room_url: String,
            }
            let m: Meeting = serde_json::from_slice(&result?.body).map_err(|_| ProviderError::BadAnswer)?;
            Room { id: m.meeting_id, url: m.room_url }.checked()
        })
    }

    fn cancel_room<'a>(&'a self, id: &'a str) -> Fut<'a, ()> {
        Box::pin(async move {
            let id: String = id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
            // Idempotent at Whereby: retried. A meeting it no longer knows
            // (expired, or deleted before) is deleted.
            let result = match self
                .client
                .request(Method::DELETE, &format!("/meetings/{id}"), &self.auth(), None, true)
                .await
                .map_err(ProviderError::from)
            {
                Ok(_) | Err(ProviderError::Refused(404)) => Ok(()),
                Err(e) => Err(e),
            };
            super::http::count("meeting", result);
            result
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_has_the_end_and_a_prefix_the_api_allows() {
        let start = DateTime::parse_from_rfc3339("2026-12-01T09:00:00Z").unwrap().with_timezone(&Utc);
        let b = create_body("0A1b-2C3d", start, 60);
        assert_eq!(b["endDate"], "2026-12-01T10:30:00Z");
        assert_eq!(b["roomNamePrefix"], "0a1b2c3d");
        assert_eq!(b["roomMode"], "normal");
        assert_eq!(room_prefix(&"f".repeat(50)).len(), 39);
        assert!(create_body("--", start, 30).get("roomNamePrefix").is_none());
    }
}

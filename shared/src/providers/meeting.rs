//! The video-meeting provider: a room for a booked meeting (its link) and
//! the room's cancellation. [`MeetingRooms`] is all the use cases see;
//! [`HttpMeetingRooms`] speaks the provider's REST API (or the local
//! stand-in's copy of it, `providers::stand_in`).

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
    /// An answer must name its room and give an https link.
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
    /// A room for a meeting; `key` (the booking's uid) makes a retry answer the same room.
    fn create_room<'a>(&'a self, key: &'a str, title: &'a str, start: DateTime<Utc>, minutes: u32) -> Fut<'a, Room>;
    /// Closes a room (closing a closed room is no error).
    fn cancel_room<'a>(&'a self, id: &'a str) -> Fut<'a, ()>;
}

pub struct HttpMeetingRooms(pub JsonClient);

impl MeetingRooms for HttpMeetingRooms {
    fn create_room<'a>(&'a self, key: &'a str, title: &'a str, start: DateTime<Utc>, minutes: u32) -> Fut<'a, Room> {
        Box::pin(async move {
            let body = serde_json::json!({"title": title, "start": start.to_rfc3339(), "minutes": minutes});
            let room: Room = self.0.json(Method::POST, "/meeting/rooms", Some(&body), None, Some(key)).await?;
            room.checked()
        })
    }

    fn cancel_room<'a>(&'a self, id: &'a str) -> Fut<'a, ()> {
        Box::pin(async move {
            let id: String = id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
            // Cancelling twice is harmless, so the cancel carries a key and may be retried.
            let key = format!("cancel-{id}");
            self.0.send(Method::POST, &format!("/meeting/rooms/{id}/cancel"), None, None, Some(&key)).await.map(|_| ())
        })
    }
}

//! The signing provider's webhook, delivered by Amazon SNS: every message's
//! SNS signature is checked (`providers::callback`); a subscription
//! confirmation is confirmed (a GET of its SubscribeURL, an SNS host); a
//! notification names an envelope that changed, whose state is then read
//! from the provider's API with the company's token (the message itself is
//! never trusted for the state) and applied as polling does
//! (`addons::apply_status`, which writes nothing for an answer that changes
//! nothing, so a repeated message is harmless).

use super::addons::sync;
use super::Context;
use crate::error::ApiError;

/// Bodies above this are not an SNS message (SNS's own limit is 256 KiB).
pub const MAX_BODY: usize = 256 * 1024;
/// At most this many of a message's strings are looked up as envelope ids.
const MAX_LOOKUPS: usize = 8;

/// What was done with a verified message.
#[derive(Debug, PartialEq, Eq)]
pub enum Handled {
    Confirmed,
    Updated,
    /// A verified message that concerns no envelope here (or an unsubscribe).
    Ignored,
}

/// The strings of a notification's message that may be an envelope's id
/// (the provider's ids are short and plain): its payload's shape is the
/// provider's, so every short string of it is tried against the ids of the
/// envelopes sent from here, not a field name guessed.
fn candidate_ids(message: &str) -> Vec<String> {
    fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => {
                let plain = !s.is_empty() && s.len() <= 100 && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
                if plain && !out.contains(s) {
                    out.push(s.clone());
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            serde_json::Value::Object(o) => o.values().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    match serde_json::from_str::<serde_json::Value>(message) {
        Ok(v) => walk(&v, &mut out),
        Err(_) => walk(&serde_json::Value::String(message.trim().to_string()), &mut out),
    }
    out.truncate(MAX_LOOKUPS);
    out
}

pub async fn envelope_changed(ctx: &Context, body: &[u8]) -> Result<Handled, ApiError> {
    if body.len() > MAX_BODY {
        return Err(ApiError::PayloadTooLarge);
    }
    let m = match ctx.providers.sns.verify(body).await {
        Ok(m) => m,
        Err(why) => {
            tracing::warn!(why = ?why, "signing callback refused");
            return Err(ApiError::NotAuthenticated);
        }
    };
    match m.kind.as_str() {
        "SubscriptionConfirmation" => {
            let url = m.subscribe_url.as_deref().filter(|u| crate::providers::callback::sns_host(u).is_some());
            let Some(url) = url else { return Err(ApiError::NotAuthenticated) };
            ctx.providers.sns.certs.confirm(url).await?;
            Ok(Handled::Confirmed)
        }
        "Notification" => {
            for id in candidate_ids(&m.message) {
                if let Some((customer, uid)) = ctx.store.envelope_pointer(&id).await? {
                    let Some((e, _)) = ctx.store.envelope(&customer, &uid).await? else { continue };
                    sync(ctx, e).await?;
                    return Ok(Handled::Updated);
                }
            }
            Ok(Handled::Ignored)
        }
        _ => Ok(Handled::Ignored),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_short_plain_string_of_the_message_is_a_candidate() {
        let ids = candidate_ids(r#"{"event":"envelope.completed","data":{"envelope":{"id":"5f1c-ab"}},"n":3,"long":"a b"}"#);
        assert!(ids.contains(&"5f1c-ab".to_string()));
        assert!(!ids.contains(&"a b".to_string()));
        assert_eq!(candidate_ids("plain-id"), vec!["plain-id".to_string()]);
        let many = serde_json::json!((0..50).map(|i| format!("id{i}")).collect::<Vec<_>>()).to_string();
        assert_eq!(candidate_ids(&many).len(), MAX_LOOKUPS);
    }
}

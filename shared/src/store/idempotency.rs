//! Writes done once although asked twice: the `Idempotency-Key` request
//! header (IETF httpapi draft "The Idempotency-Key HTTP Header Field").
//!
//! A use case that creates something puts one record in the transaction of
//! its write: the caller, the key, a fingerprint of the request (method,
//! path and body) and the answer it is about to give (status and JSON body),
//! conditional on no live record with that key. So the record exists exactly
//! when the write does. A retry with the same key and the same request gets
//! the stored answer and writes nothing; the same key with another request
//! answers 422 `idempotency_key_reused`. Two requests with one key at once:
//! the one whose transaction commits second fails on the record and answers
//! the first's answer. Records live 24 hours (TTL; an expired record not yet
//! removed by DynamoDB counts as absent).
//!
//! No `409 idempotency_key_in_flight` (the draft's answer to a retry while
//! the first attempt still runs): it would need a record written *before*
//! the work, i.e. a second commit and a lock that a stopped attempt leaves
//! behind. Here the record is written *with* the work, so at any moment the
//! first attempt has either committed (the retry gets its answer) or has
//! not (the retry does the work itself, and whichever of the two commits
//! second fails on the record and answers the first's answer). There is no
//! observable "in flight" state to report, and none that can outlive a
//! crash.

use chrono::Utc;
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::tx::{Cond, Tx};
use super::{keys, n, s, Item, Store};
use crate::error::ApiError;

/// How long a key holds its answer.
pub const LIFETIME_SECS: i64 = 24 * 60 * 60;

/// The longest key accepted (the draft sets no limit; UUIDs are 36).
pub const MAX_KEY_LEN: usize = 255;

/// A key as the header carries it: a structured-field string (`"…"`, the
/// draft's syntax) or, leniently, the bare token; 1 to [`MAX_KEY_LEN`]
/// visible ASCII characters. `None` when unusable.
pub fn parse_key(header: &str) -> Option<String> {
    let v = header.trim();
    let v = match v.strip_prefix('"') {
        Some(rest) => rest.strip_suffix('"')?,
        None => v,
    };
    let ok = !v.is_empty() && v.len() <= MAX_KEY_LEN && v.bytes().all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\\');
    ok.then(|| v.to_string())
}

/// SHA-256 of what makes a request the same request: method, path and
/// query, body (hex).
pub fn fingerprint(method: &str, path_and_query: &str, body: &[u8]) -> String {
    let mut h = Sha256::new();
    h.update(method.as_bytes());
    h.update(b" ");
    h.update(path_and_query.as_bytes());
    h.update(b"\n");
    h.update(body);
    hex(&h.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One request's idempotency: none (no key sent), or the record its write
/// will put and the status the handler answers with.
#[derive(Clone, Debug, Default)]
pub struct Once {
    keyed: Option<Keyed>,
}

#[derive(Clone, Debug)]
struct Keyed {
    pk: String,
    caller: String,
    fingerprint: String,
    status: u16,
}

impl Once {
    /// No key: the write happens every time it is asked (callers outside HTTP, tests).
    pub fn none() -> Self {
        Once::default()
    }

    /// `caller`'s `key` for a request of `fingerprint`, answered with `status`.
    pub fn new(caller: &str, key: &str, fingerprint: &str, status: u16) -> Self {
        Once {
            keyed: Some(Keyed { pk: keys::idempotency::pk(caller, key), caller: caller.into(), fingerprint: fingerprint.into(), status }),
        }
    }

    pub fn is_keyed(&self) -> bool {
        self.keyed.is_some()
    }

    /// 32 hex digits that stay the same for every retry with this key: the
    /// id of a record a provider also knows (a credit report, a meeting, a
    /// claim), so a retry after a lost answer asks the provider for the
    /// same thing. `None` without a key.
    pub fn stable_id(&self) -> Option<String> {
        self.keyed.as_ref().map(|k| hex(&Sha256::digest(k.pk.as_bytes())[..16]))
    }

    /// Puts the record into `tx`, holding `answer` as the body of the answer
    /// the handler gives when `tx` commits. Nothing without a key.
    pub fn record<T: Serialize>(&self, tx: &mut Tx, answer: &T) -> Result<(), ApiError> {
        let Some(k) = &self.keyed else { return Ok(()) };
        if tx.once.is_some() {
            // One record per request: a use case of several commits records with the one that creates.
            return Ok(());
        }
        let body = serde_json::to_string(answer).map_err(ApiError::internal)?;
        let now = Utc::now().timestamp();
        let item: Item = [
            ("PK".to_string(), s(&k.pk)),
            ("SK".to_string(), s(keys::idempotency::SK)),
            ("caller".to_string(), s(&k.caller)),
            ("fingerprint".to_string(), s(&k.fingerprint)),
            ("status".to_string(), n(k.status)),
            ("body".to_string(), s(body)),
            ("created_at".to_string(), n(now)),
            (super::table::TTL_ATTRIBUTE.to_string(), n(now + LIFETIME_SECS)),
        ]
        .into_iter()
        .collect();
        // An expired record DynamoDB has not removed yet does not hold the key.
        let cond = Cond::new("attribute_not_exists(PK) OR #ttl < :now").name("#ttl", super::table::TTL_ATTRIBUTE).value(":now", n(now));
        tx.put_if(item, Some(cond))?;
        tx.once = Some((k.pk.clone(), k.fingerprint.clone()));
        Ok(())
    }
}

impl Store {
    /// Before a keyed write: `Err(Replay)` with the first answer when this
    /// key was used for the same request, `Err(IdempotencyKeyReused)` when
    /// for another, `Ok` when the key is new (or there is none).
    pub async fn replay(&self, once: &Once) -> Result<(), ApiError> {
        match &once.keyed {
            Some(k) => self.replay_record(&k.pk, &k.fingerprint).await,
            None => Ok(()),
        }
    }

    pub(super) async fn replay_record(&self, pk: &str, fingerprint: &str) -> Result<(), ApiError> {
        let Some(item) = self.get_consistent(&keys::Key::new(pk, keys::idempotency::SK)).await? else { return Ok(()) };
        let num = |a: &str| item.get(a).and_then(|v| v.as_n().ok()).and_then(|v| v.parse::<i64>().ok());
        let text = |a: &str| item.get(a).and_then(|v| v.as_s().ok()).cloned();
        if num(super::table::TTL_ATTRIBUTE).is_some_and(|t| t < Utc::now().timestamp()) {
            return Ok(());
        }
        if text("fingerprint").as_deref() != Some(fingerprint) {
            return Err(ApiError::IdempotencyKeyReused);
        }
        let status =
            num("status").and_then(|v| u16::try_from(v).ok()).ok_or_else(|| ApiError::internal("idempotency record without status"))?;
        Err(ApiError::Replay { status, body: text("body").unwrap_or_default() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_structured_field_strings_or_bare_tokens() {
        assert_eq!(parse_key("\"8e03978e-40d5-43e8-bc93-6894a57f9324\"").as_deref(), Some("8e03978e-40d5-43e8-bc93-6894a57f9324"));
        assert_eq!(parse_key(" abc ").as_deref(), Some("abc"));
        assert_eq!(parse_key("\"\""), None);
        assert_eq!(parse_key(""), None);
        assert_eq!(parse_key("\"open"), None);
        assert_eq!(parse_key("a b"), None);
        assert_eq!(parse_key("å"), None);
        assert_eq!(parse_key(&"k".repeat(MAX_KEY_LEN)).map(|k| k.len()), Some(MAX_KEY_LEN));
        assert_eq!(parse_key(&"k".repeat(MAX_KEY_LEN + 1)), None);
    }

    #[test]
    fn a_fingerprint_names_method_address_and_body() {
        let a = fingerprint("POST", "/api/message/", b"{\"a\":1}");
        assert_eq!(a.len(), 64);
        assert_eq!(a, fingerprint("POST", "/api/message/", b"{\"a\":1}"));
        assert_ne!(a, fingerprint("POST", "/api/message/", b"{\"a\":2}"));
        assert_ne!(a, fingerprint("POST", "/api/support/", b"{\"a\":1}"));
    }

    #[test]
    fn a_stable_id_follows_caller_and_key() {
        let id = Once::new("u1", "k", "f", 201).stable_id().unwrap();
        assert_eq!(id.len(), 32);
        assert_eq!(Some(id.clone()), Once::new("u1", "k", "other", 200).stable_id());
        assert_ne!(Some(id), Once::new("u2", "k", "f", 201).stable_id());
        assert_eq!(Once::none().stable_id(), None);
    }
}

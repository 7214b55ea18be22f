//! The signing provider's callbacks (status updates "by
//! polling or callback into a function"): the provider posts an envelope's
//! status to `verified/callback/` with the header
//! `x-verified-signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` over
//! `"<t>.<body>"` with the shared secret. The timestamp is inside the MAC,
//! so an old request cannot be replayed with a fresh one; a request older
//! (or newer) than [`MAX_SKEW_SECS`] is refused, and within that window a
//! replay changes nothing (the update is idempotent).

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

pub const HEADER: &str = "x-verified-signature";
/// How far a callback's timestamp may be from our clock.
pub const MAX_SKEW_SECS: i64 = 300;

fn mac(secret: &str, timestamp: i64, body: &[u8]) -> Hmac<Sha256> {
    let mut m = <Hmac<Sha256> as KeyInit>::new_from_slice(secret.as_bytes()).expect("any key length");
    m.update(timestamp.to_string().as_bytes());
    m.update(b".");
    m.update(body);
    m
}

/// The header value for `body` sent at `timestamp`.
pub fn sign(secret: &str, timestamp: i64, body: &[u8]) -> String {
    let hex: String = mac(secret, timestamp, body).finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect();
    format!("t={timestamp},v1={hex}")
}

/// Why a callback is refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// No secret configured: no callback can be trusted.
    NoSecret,
    Malformed,
    Stale,
    BadSignature,
}

/// Checks `header` against `body` at `now` (unix seconds); the MAC is
/// compared in constant time.
pub fn verify(secret: &str, header: Option<&str>, body: &[u8], now: i64) -> Result<(), Refused> {
    if secret.is_empty() {
        return Err(Refused::NoSecret);
    }
    let header = header.ok_or(Refused::Malformed)?;
    let (mut t, mut v1) = (None, None);
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", v)) => t = v.parse::<i64>().ok(),
            Some(("v1", v)) if v.len() == 64 => {
                v1 = (0..64).step_by(2).map(|i| u8::from_str_radix(&v[i..i + 2], 16).ok()).collect::<Option<Vec<u8>>>()
            }
            _ => {}
        }
    }
    let (Some(t), Some(v1)) = (t, v1) else { return Err(Refused::Malformed) };
    if (now - t).abs() > MAX_SKEW_SECS {
        return Err(Refused::Stale);
    }
    mac(secret, t, body).verify_slice(&v1).map_err(|_| Refused::BadSignature)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_is_good_only_for_its_body_secret_and_time() {
        let body = br#"{"id":"env-1","state":"completed","recipients":[]}"#;
        let h = sign("s3cret", 1_000_000, body);
        assert_eq!(verify("s3cret", Some(&h), body, 1_000_010), Ok(()));
        assert_eq!(verify("other", Some(&h), body, 1_000_010), Err(Refused::BadSignature));
        assert_eq!(verify("s3cret", Some(&h), b"{}", 1_000_010), Err(Refused::BadSignature));
        assert_eq!(verify("s3cret", Some(&h), body, 1_000_000 + MAX_SKEW_SECS + 1), Err(Refused::Stale));
        // A fresh timestamp with the old MAC does not pass.
        let moved = h.replace("t=1000000", "t=1000300");
        assert_eq!(verify("s3cret", Some(&moved), body, 1_000_300), Err(Refused::BadSignature));
        assert_eq!(verify("s3cret", None, body, 1_000_000), Err(Refused::Malformed));
        assert_eq!(verify("s3cret", Some("t=1,v1=zz"), body, 1), Err(Refused::Malformed));
        assert_eq!(verify("", Some(&h), body, 1_000_000), Err(Refused::NoSecret));
    }
}

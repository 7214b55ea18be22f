//! The e-mailed two-factor code (spec §4): 6 digits, single use, stored only
//! as an HMAC, valid 10 minutes, at most 5 wrong tries; then a new code is needed.
//! Also the one-time link tokens (password recovery), stored only as digests.

use crate::error::Msg;
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

pub const CODE_TTL_SECS: i64 = 10 * 60;
pub const MAX_ATTEMPTS: u32 = 5;

/// A fresh uniformly random 6-digit code.
pub fn new_code() -> String {
    format!("{:06}", rand::random_range(0..1_000_000u32))
}

/// Spec §5: a 2FA code is exactly 6 digits.
pub fn is_code_shaped(code: &str) -> bool {
    code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit())
}

fn mac(secret: &str, challenge_id: &str, code: &str) -> Hmac<Sha256> {
    let mut m = <Hmac<Sha256> as KeyInit>::new_from_slice(secret.as_bytes()).expect("any key length");
    m.update(challenge_id.as_bytes());
    m.update(b":");
    m.update(code.as_bytes());
    m
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    (0..s.len()).step_by(2).map(|i| s.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok())).collect()
}

/// What is stored for a code: keyed with the server secret and bound to its
/// challenge, so a leaked table row does not give the code away.
pub fn code_hash(secret: &str, challenge_id: &str, code: &str) -> String {
    hex(&mac(secret, challenge_id, code).finalize().into_bytes())
}

/// Constant-time comparison against the stored hash.
pub fn code_matches(secret: &str, challenge_id: &str, code: &str, stored: &str) -> bool {
    unhex(stored).is_some_and(|bytes| mac(secret, challenge_id, code).verify_slice(&bytes).is_ok())
}

/// A random URL-safe token for one-time links (256 bits).
pub fn new_link_token() -> String {
    let bytes: [u8; 32] = rand::random();
    hex(&bytes)
}

/// What is stored for a link token: its SHA-256, so the table never holds a usable link.
pub fn link_digest(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Whether a recovery or invitation link issued under token version
/// `issued` may still set a password now that the user is on `current`: a
/// password change or reset (each bumps the version) ends every link
/// outstanding before it. Links stored before versions were (`None`) keep
/// working until they expire on their own (three days at most).
pub fn link_still_valid(issued: Option<u32>, current: u32) -> bool {
    issued.is_none_or(|v| v == current)
}

/// A pending code as stored.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Challenge {
    pub id: String,
    pub user_uid: String,
    pub code_hash: String,
    /// Epoch seconds.
    pub expires_at: i64,
    pub attempts: u32,
    pub used: bool,
}

#[derive(Debug, PartialEq, Eq)]
pub enum CodeCheck {
    Accepted,
    Wrong,
    /// Expired or already used: a new code is needed.
    Expired,
    TooManyAttempts,
}

impl Challenge {
    pub fn check(&self, now: i64, code_is_right: bool) -> CodeCheck {
        if self.used || now >= self.expires_at {
            CodeCheck::Expired
        } else if self.attempts >= MAX_ATTEMPTS {
            CodeCheck::TooManyAttempts
        } else if code_is_right {
            CodeCheck::Accepted
        } else {
            CodeCheck::Wrong
        }
    }

    /// The error key for a refused check.
    pub fn error_key(check: &CodeCheck) -> Option<Msg> {
        match check {
            CodeCheck::Accepted => None,
            CodeCheck::Wrong => Some(Msg::CodeNotCorrect),
            CodeCheck::Expired => Some(Msg::CodeExpired),
            CodeCheck::TooManyAttempts => Some(Msg::CodeAttemptsExceeded),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_link_outlives_no_password_change() {
        assert!(super::link_still_valid(Some(3), 3));
        assert!(!super::link_still_valid(Some(3), 4));
        assert!(super::link_still_valid(None, 4), "links stored before versions expire on their own");
    }

    use super::*;

    const S: &str = "secret-secret-secret-secret-secret";

    #[test]
    fn codes_are_six_digits() {
        for _ in 0..200 {
            let c = new_code();
            assert!(is_code_shaped(&c), "{c}");
        }
        assert!(!is_code_shaped("12345"));
        assert!(!is_code_shaped("1234567"));
        assert!(!is_code_shaped("12a456"));
        assert!(!is_code_shaped("１２３４５６"));
    }

    #[test]
    fn hashes_bind_code_to_challenge_and_secret() {
        let h = code_hash(S, "c1", "123456");
        assert!(!h.contains("123456"));
        assert!(code_matches(S, "c1", "123456", &h));
        assert!(!code_matches(S, "c1", "123457", &h));
        assert!(!code_matches(S, "c2", "123456", &h));
        assert!(!code_matches("other-secret-other-secret-other", "c1", "123456", &h));
        assert!(!code_matches(S, "c1", "123456", "zz"));
    }

    #[test]
    fn check_follows_expiry_use_and_attempts() {
        let ch = Challenge { id: "c".into(), user_uid: "u".into(), code_hash: String::new(), expires_at: 1000, attempts: 0, used: false };
        assert_eq!(ch.check(999, true), CodeCheck::Accepted);
        assert_eq!(ch.check(999, false), CodeCheck::Wrong);
        assert_eq!(ch.check(1000, true), CodeCheck::Expired);
        assert_eq!(Challenge { used: true, ..ch.clone() }.check(10, true), CodeCheck::Expired);
        assert_eq!(Challenge { attempts: MAX_ATTEMPTS - 1, ..ch.clone() }.check(10, true), CodeCheck::Accepted);
        assert_eq!(Challenge { attempts: MAX_ATTEMPTS, ..ch.clone() }.check(10, true), CodeCheck::TooManyAttempts);
    }

    #[test]
    fn link_tokens_are_random_and_stored_as_digests() {
        let t = new_link_token();
        assert_eq!(t.len(), 64);
        assert_ne!(t, new_link_token());
        assert_eq!(link_digest(&t), link_digest(&t));
        assert_ne!(link_digest(&t), t);
    }
}

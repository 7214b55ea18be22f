//! The authenticator-app second factor (RFC 6238 TOTP), chosen instead of the
//! e-mailed code: SHA-1, 6 digits, 30-second steps, one step of clock skew
//! either way, and each code accepted at most once (the last used step is
//! remembered). Plus the one-time recovery codes shown once at enrolment and
//! stored only as keyed hashes.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use totp_rs::{Algorithm, Builder, Secret, Totp};

pub const DIGITS: u8 = 6;
pub const STEP_SECS: u64 = 30;
/// Steps accepted before and after the current one (clock drift, typing time).
pub const SKEW_STEPS: u64 = 1;
/// RFC 4226 recommends 160 bits.
pub const SECRET_BYTES: usize = 20;
pub const RECOVERY_CODE_COUNT: usize = 10;
/// A started enrolment must be confirmed within this time.
pub const SETUP_TTL_SECS: i64 = 15 * 60;
/// Wrong codes allowed while confirming one enrolment.
pub const SETUP_MAX_ATTEMPTS: u32 = 5;
/// Shown as the account's issuer in the authenticator app.
pub const ISSUER: &str = "Legal Services";

/// Recovery codes: 10 characters from an alphabet without look-alikes
/// (no 0/O, 1/I/L), shown as `XXXXX-XXXXX` — about 50 bits each.
const RECOVERY_ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";
const RECOVERY_LEN: usize = 10;

/// A fresh random 20-byte secret.
pub fn new_secret() -> Vec<u8> {
    let bytes: [u8; SECRET_BYTES] = rand::random();
    bytes.to_vec()
}

/// Base32 (RFC 4648, no padding for 20 bytes) as authenticator apps expect.
pub fn to_base32(secret: &[u8]) -> String {
    Secret::from(secret.to_vec()).to_base32()
}

pub fn from_base32(encoded: &str) -> Option<Vec<u8>> {
    Secret::try_from_base32(encoded.trim().to_uppercase()).ok().map(|s| s.as_ref().to_vec())
}

fn totp(secret: &[u8], skew: u64) -> Totp {
    // Only the secret length could make the builder refuse; ours is always 20 bytes.
    Builder::new()
        .with_algorithm(Algorithm::SHA1)
        .with_digits(DIGITS)
        .with_skew(skew as u16)
        .with_step_duration(STEP_SECS)
        .with_secret(secret.to_vec())
        .build_noncompliant()
}

/// The code of the step containing `unix_time` (tests and the e2e helper use this).
pub fn code_at(secret: &[u8], unix_time: u64) -> String {
    totp(secret, 0).generate(unix_time).to_string()
}

/// The `otpauth://` URI the QR code carries.
pub fn otpauth_uri(account: &str, secret_base32: &str) -> String {
    use super::text::percent_encode as percent;
    let label = format!("{}:{}", percent(ISSUER), percent(account));
    format!("otpauth://totp/{label}?secret={secret_base32}&issuer={}&algorithm=SHA1&digits={DIGITS}&period={STEP_SECS}", percent(ISSUER))
}

#[derive(Debug, PartialEq, Eq)]
pub enum TotpCheck {
    /// Right code for this step; remember it as the last used step.
    Accepted(u64),
    /// Right code, but its step (or a later one) was already used: a replay.
    AlreadyUsed,
    Wrong,
}

/// Checks `code` at `now` within ±[`SKEW_STEPS`], refusing steps at or before
/// `last_used_step` so a code works once even inside its validity window.
pub fn check(secret: &[u8], code: &str, now: u64, last_used_step: Option<u64>) -> TotpCheck {
    let code = code.trim();
    if code.len() != DIGITS as usize || !code.bytes().all(|b| b.is_ascii_digit()) {
        return TotpCheck::Wrong;
    }
    let one_step = totp(secret, 0);
    let origin = now / STEP_SECS;
    let mut replayed = false;
    for step in origin.saturating_sub(SKEW_STEPS)..=origin + SKEW_STEPS {
        // Constant-time comparison inside the crate.
        if one_step.check(code, step * STEP_SECS).is_some() {
            if last_used_step.is_some_and(|last| step <= last) {
                replayed = true;
            } else {
                return TotpCheck::Accepted(step);
            }
        }
    }
    if replayed {
        TotpCheck::AlreadyUsed
    } else {
        TotpCheck::Wrong
    }
}

/// Ten fresh recovery codes, formatted for display.
pub fn new_recovery_codes() -> Vec<String> {
    (0..RECOVERY_CODE_COUNT)
        .map(|_| {
            let raw: String =
                (0..RECOVERY_LEN).map(|_| RECOVERY_ALPHABET[rand::random_range(0..RECOVERY_ALPHABET.len())] as char).collect();
            format!("{}-{}", &raw[..5], &raw[5..])
        })
        .collect()
}

/// What the user typed, without dashes, spaces and case: `abcde fghjk` = `ABCDE-FGHJK`.
pub fn normalize_recovery_code(input: &str) -> Option<String> {
    let cleaned: String = input.chars().filter(|c| !c.is_whitespace() && *c != '-').collect::<String>().to_uppercase();
    (cleaned.len() == RECOVERY_LEN && cleaned.bytes().all(|b| RECOVERY_ALPHABET.contains(&b))).then_some(cleaned)
}

/// Stored for a recovery code: HMAC with the server secret, bound to the user,
/// so the table alone does not give codes away.
pub fn recovery_code_hash(server_secret: &str, user_uid: &str, normalized: &str) -> String {
    let mut m = <Hmac<Sha256> as KeyInit>::new_from_slice(server_secret.as_bytes()).expect("any key length");
    m.update(b"recovery:");
    m.update(user_uid.as_bytes());
    m.update(b":");
    m.update(normalized.as_bytes());
    m.finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect()
}

/// The authenticator as stored once confirmed (never in tokens or the session user).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TotpAuthenticator {
    pub user_uid: String,
    /// Base32 secret.
    pub secret: String,
    /// The last accepted step: codes of this step or earlier are refused.
    /// Absent rather than NULL when unset, so the store's condition can test it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_step: Option<u64>,
    /// Hashes of the unused recovery codes.
    pub recovery_hashes: Vec<String>,
    pub confirmed_at: i64,
}

impl TotpAuthenticator {
    /// Spends a recovery code (by hash): `true` once, `false` after.
    pub fn use_recovery_code(&mut self, hash: &str) -> bool {
        let before = self.recovery_hashes.len();
        self.recovery_hashes.retain(|h| h != hash);
        self.recovery_hashes.len() < before
    }
}

/// A started enrolment waiting for the first code from the app.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TotpSetup {
    pub user_uid: String,
    pub secret: String,
    pub expires_at: i64,
    pub attempts: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6238 appendix B, SHA-1 seed.
    const RFC_SEED: &[u8] = b"12345678901234567890";

    #[test]
    fn rfc6238_sha1_vectors_truncated_to_six_digits() {
        // The 8-digit vectors modulo 10^6 are the 6-digit codes.
        for (time, eight) in [
            (59u64, "94287082"),
            (1111111109, "07081804"),
            (1111111111, "14050471"),
            (1234567890, "89005924"),
            (2000000000, "69279037"),
            (20000000000, "65353130"),
        ] {
            assert_eq!(code_at(RFC_SEED, time), eight[2..], "t={time}");
            assert_eq!(check(RFC_SEED, &eight[2..], time, None), TotpCheck::Accepted(time / 30), "t={time}");
        }
    }

    #[test]
    fn one_step_of_skew_either_way_and_no_more() {
        let t = 1_111_111_109u64; // step 37037036
        let step = t / 30;
        let code = code_at(RFC_SEED, t);
        assert_eq!(check(RFC_SEED, &code, t + 30, None), TotpCheck::Accepted(step));
        assert_eq!(check(RFC_SEED, &code, t - 30, None), TotpCheck::Accepted(step));
        assert_eq!(check(RFC_SEED, &code, t + 60, None), TotpCheck::Wrong);
        assert_eq!(check(RFC_SEED, &code, t - 60, None), TotpCheck::Wrong);
    }

    #[test]
    fn a_code_is_accepted_once() {
        let t = 1_234_567_890u64;
        let step = t / 30;
        let code = code_at(RFC_SEED, t);
        assert_eq!(check(RFC_SEED, &code, t, Some(step - 1)), TotpCheck::Accepted(step));
        assert_eq!(check(RFC_SEED, &code, t, Some(step)), TotpCheck::AlreadyUsed);
        assert_eq!(check(RFC_SEED, &code, t + 30, Some(step)), TotpCheck::AlreadyUsed);
        // an older step's code cannot be used after a newer one
        let previous = code_at(RFC_SEED, t - 30);
        assert_eq!(check(RFC_SEED, &previous, t, Some(step)), TotpCheck::AlreadyUsed);
        // the next step's code is still fine
        let next = code_at(RFC_SEED, t + 30);
        assert_eq!(check(RFC_SEED, &next, t + 30, Some(step)), TotpCheck::Accepted(step + 1));
    }

    #[test]
    fn malformed_codes_are_wrong() {
        for bad in ["", "12345", "1234567", "12a456", "+12345", "１２３４５６"] {
            assert_eq!(check(RFC_SEED, bad, 59, None), TotpCheck::Wrong, "{bad:?}");
        }
    }

    #[test]
    fn secrets_are_twenty_random_bytes_in_base32() {
        let s = new_secret();
        assert_eq!(s.len(), 20);
        assert_ne!(s, new_secret());
        let b32 = to_base32(&s);
        assert_eq!(b32.len(), 32);
        assert!(b32.bytes().all(|b| b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b)), "{b32}");
        assert_eq!(from_base32(&b32).unwrap(), s);
        assert_eq!(to_base32(RFC_SEED), "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    }

    #[test]
    fn otpauth_uri_names_issuer_account_and_parameters() {
        let uri = otpauth_uri("anna+1@example.com", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
        assert_eq!(
            uri,
            "otpauth://totp/Legal%20Services:anna%2B1%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ\
             &issuer=Legal%20Services&algorithm=SHA1&digits=6&period=30"
        );
    }

    #[test]
    fn recovery_codes_are_distinct_normalised_and_hashed() {
        let codes = new_recovery_codes();
        assert_eq!(codes.len(), 10);
        let unique: std::collections::HashSet<_> = codes.iter().collect();
        assert_eq!(unique.len(), 10);
        for c in &codes {
            assert_eq!(c.len(), 11);
            let n = normalize_recovery_code(c).expect(c);
            assert_eq!(normalize_recovery_code(&format!(" {} ", c.to_lowercase().replace('-', " "))), Some(n.clone()));
            let h = recovery_code_hash("server-secret", "u1", &n);
            assert!(!h.contains(&n));
            assert_ne!(h, recovery_code_hash("server-secret", "u2", &n));
            assert_ne!(h, recovery_code_hash("other-secret", "u1", &n));
        }
        let mut auth = TotpAuthenticator {
            user_uid: "u1".into(),
            secret: String::new(),
            last_step: None,
            recovery_hashes: codes.iter().map(|c| recovery_code_hash("k", "u1", &normalize_recovery_code(c).unwrap())).collect(),
            confirmed_at: 0,
        };
        let first = recovery_code_hash("k", "u1", &normalize_recovery_code(&codes[0]).unwrap());
        assert!(auth.use_recovery_code(&first));
        assert!(!auth.use_recovery_code(&first), "single use");
        assert_eq!(auth.recovery_hashes.len(), 9);
        assert_eq!(normalize_recovery_code("123456"), None);
        assert_eq!(normalize_recovery_code("ABCDE-FGHI0"), None, "0 is not in the alphabet");
    }
}

//! Rules for a new password: at least 8 characters, at most 128, not one of
//! the commonest passwords, hard enough to guess by zxcvbn's estimate (its
//! dictionaries, keyboard patterns, dates and the owner's own e-mail and
//! names plus the product's name), and the confirmation must match.

use crate::error::FieldErrors;
use crate::error::Msg;

pub const MIN_LEN: usize = 8;
pub const MAX_LEN: usize = 128;

/// The commonest passwords of the public breach lists, compared case-insensitively.
const COMMON: &str = include_str!("common-passwords.txt");

pub fn is_common(password: &str) -> bool {
    let p = password.trim().to_lowercase();
    COMMON.lines().any(|l| l == p)
}

/// zxcvbn's score (0-4) a password needs: 3 is "safely unguessable" (about
/// 10^8 guesses and more), what its authors advise as the least to accept.
pub const MIN_SCORE: u8 = 3;

/// The product's names in both languages: a password built on them is among
/// the first an attacker of this site tries.
pub const PRODUCT_WORDS: &[&str] = &["legal services", "legalservices", "juridiska tjänster", "juridiskatjanster", "juridik", "freja"];

/// What a password must not be built on, most telling first (zxcvbn ranks
/// these words by their place): the owner's e-mail (whole, its local part
/// and its words), names and company (also without their spaces and
/// dots), the product's name, then the common-password list, which adds the
/// Swedish words ("sommar", "hejsan") zxcvbn's English lists lack.
fn guessable_inputs(personal: &[&str]) -> Vec<String> {
    let mut inputs: Vec<String> = vec![];
    for p in personal.iter().map(|p| p.trim().to_lowercase()).filter(|p| !p.is_empty()) {
        if let Some((local, _)) = p.split_once('@') {
            inputs.push(local.to_string());
        }
        inputs.push(p.chars().filter(|c| c.is_alphanumeric()).collect());
        inputs.extend(p.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() >= 3).map(str::to_string));
        inputs.push(p);
    }
    inputs.extend(PRODUCT_WORDS.iter().map(|w| w.to_string()));
    inputs.extend(COMMON.lines().map(str::to_string));
    inputs
}

/// Is `password` hard enough to guess for its owner (`personal`: e-mail,
/// names, company)?
pub fn is_strong(password: &str, personal: &[&str]) -> bool {
    let inputs = guessable_inputs(personal);
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    u8::from(zxcvbn::zxcvbn(password, &inputs).score()) >= MIN_SCORE
}

/// Checks `password` (and `confirm` when given) for the owner whose e-mail,
/// names and company are `personal`, and reports under `field`.
pub fn check(password: &str, confirm: Option<&str>, field: &str, confirm_field: &str, personal: &[&str]) -> FieldErrors {
    let mut errors = FieldErrors::new();
    let len = password.chars().count();
    let problem = if len < MIN_LEN {
        Some(Msg::PasswordTooShort)
    } else if len > MAX_LEN {
        Some(Msg::PasswordTooLong)
    } else if is_common(password) {
        Some(Msg::PasswordTooCommon)
    } else if !is_strong(password, personal) {
        Some(Msg::PasswordTooWeak)
    } else {
        None
    };
    if let Some(p) = problem {
        errors.add(field, p);
    }
    if confirm.is_some_and(|c| c != password) {
        errors.add(confirm_field, Msg::PasswordsDoNotMatch);
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    const ANNA: &[&str] = &["anna.svensson@example.se", "Anna", "Svensson"];

    fn problem(password: &str) -> Vec<Msg> {
        check(password, None, "p", "c", ANNA).get("p").to_vec()
    }

    #[test]
    fn length_bounds_are_8_to_128_characters() {
        assert_eq!(problem("Ab1-xyz"), [Msg::PasswordTooShort]);
        assert_eq!(problem("Qz7-vbn!K"), [] as [Msg; 0], "9 characters of no pattern");
        assert_eq!(problem(&"åøæ".repeat(42)[..].chars().take(128).collect::<String>()), [Msg::PasswordTooWeak], "a repeat");
        assert_eq!(problem(&"Ωk9ß-Jq2é".repeat(16).chars().take(128).collect::<String>()), [] as [Msg; 0], "characters, not bytes");
        assert_eq!(problem(&"a".repeat(129)), [Msg::PasswordTooLong]);
    }

    #[test]
    fn commonest_passwords_are_refused_in_any_case() {
        for p in ["password", "Password1", "12345678", "QWERTY123", "iloveyou"] {
            assert_eq!(problem(p), [Msg::PasswordTooCommon], "{p}");
        }
        assert!(!is_common("Correct-horse-battery"));
    }

    #[test]
    fn easily_guessed_passwords_are_refused() {
        for p in ["aaaaaaaa", "Sommar2024!", "abcd1234efgh", "Qwertyuiop1", "Stockholm2026", "19850612"] {
            assert_eq!(problem(p), [Msg::PasswordTooWeak], "{p}");
        }
    }

    #[test]
    fn the_owners_own_data_and_the_product_name_are_refused() {
        for p in [
            "anna.svensson@example.se",
            "Anna.Svensson1",
            "SvenssonAnna!",
            "Legal Services",
            "LegalServices1!",
            "Juridiska tjänster",
            "Freja-2026",
        ] {
            assert_eq!(problem(p), [Msg::PasswordTooWeak], "{p}");
        }
    }

    #[test]
    fn strong_passwords_pass_including_the_demo_and_test_ones() {
        for p in ["Demo-2026-pass!", "Very-secret-pass-1", "Correct-horse-battery-staple", "tåg kaffe moln sjutton", "Qz7-vbn!K"] {
            assert_eq!(problem(p), [] as [Msg; 0], "{p}");
        }
    }

    #[test]
    fn confirmation_must_match() {
        let e = check("Long-enough-1", Some("Long-enough-2"), "new_password", "confirm_password", &[]);
        assert_eq!(e["confirm_password"], vec![Msg::PasswordsDoNotMatch]);
        assert!(!e.has("new_password"));
    }
}

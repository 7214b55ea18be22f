//! Rules for a new password (issue: at least 8 characters, at most 128, not
//! one of the commonest passwords, and the confirmation must match).

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

/// Checks `password` (and `confirm` when given) and reports under `field`.
pub fn check(password: &str, confirm: Option<&str>, field: &str, confirm_field: &str) -> FieldErrors {
    let mut errors = FieldErrors::new();
    let len = password.chars().count();
    let problem = if len < MIN_LEN {
        Some(Msg::PasswordTooShort)
    } else if len > MAX_LEN {
        Some(Msg::PasswordTooLong)
    } else if is_common(password) {
        Some(Msg::PasswordTooCommon)
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

    #[test]
    fn length_bounds_are_8_to_128_characters() {
        assert_eq!(check("Ab1-xyz", None, "p", "c")["p"], vec![Msg::PasswordTooShort]);
        assert!(check("Ab1-xyzq", None, "p", "c").is_empty());
        assert!(check(&"å".repeat(128), None, "p", "c").is_empty(), "characters, not bytes");
        assert_eq!(check(&"a".repeat(129), None, "p", "c")["p"], vec![Msg::PasswordTooLong]);
    }

    #[test]
    fn commonest_passwords_are_refused_in_any_case() {
        for p in ["password", "Password1", "12345678", "QWERTY123", "iloveyou"] {
            assert_eq!(check(p, None, "p", "c")["p"], vec![Msg::PasswordTooCommon], "{p}");
        }
        assert!(!is_common("Correct-horse-battery"));
    }

    #[test]
    fn confirmation_must_match() {
        let e = check("Long-enough-1", Some("Long-enough-2"), "new_password", "confirm_password");
        assert_eq!(e["confirm_password"], vec![Msg::PasswordsDoNotMatch]);
        assert!(!e.has("new_password"));
    }
}

//! Text limits and cleaning (issue 22, spec §5): one place for the longest
//! text each kind of field takes and for what is stripped from names.

use crate::error::{FieldErrors, Msg};

/// Names: people, companies, clients, counterparts, contact persons, address lines.
pub const NAME_MAX: usize = 200;
/// A case's counterparts: the field lists every opposing party of the case
/// (each is indexed for the conflict search), so it takes more than one name.
pub const PARTIES_MAX: usize = 1_000;
/// A case's subject.
pub const SUBJECT_MAX: usize = 300;
/// Descriptions and notes.
pub const LONG_MAX: usize = 10_000;
/// An e-mail address (RFC 5321).
pub const EMAIL_MAX: usize = 254;

/// Bidirectional formatting characters: they make a name display as
/// something else (`invoice` + U+202E + `fdp.exe` shows as "invoiceexe.pdf").
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// A one-line name as stored: control characters (newlines, tabs, NUL …)
/// and bidirectional overrides removed, trimmed.
pub fn clean_name(raw: &str) -> String {
    raw.chars().filter(|c| !c.is_control() && !is_bidi_control(*c)).collect::<String>().trim().to_string()
}

/// A multi-line text as stored: bidirectional overrides and control
/// characters other than line breaks and tabs removed, trimmed.
pub fn clean_long(raw: &str) -> String {
    raw.chars()
        .filter(|c| !is_bidi_control(*c) && (!c.is_control() || matches!(c, '\n' | '\r' | '\t')))
        .collect::<String>()
        .trim()
        .to_string()
}

/// A link (e.g. a lawyer's video-meeting address).
pub const URL_MAX: usize = 2_000;

/// Cleaning at the edge: `#[serde(deserialize_with = "…")]` on a form's
/// text fields, so every handler that reads the form gets the stored shape
/// (limits are then checked on what is stored, by the form's own rules).
pub mod clean {
    use serde::{Deserialize, Deserializer};

    /// A one-line name ([`super::clean_name`]); `null` reads as empty.
    pub fn name<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        Ok(Option::<String>::deserialize(d)?.map(|s| super::clean_name(&s)).unwrap_or_default())
    }

    /// An optional one-line name; empty after cleaning reads as absent.
    pub fn opt_name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        Ok(Option::<String>::deserialize(d)?.map(|s| super::clean_name(&s)).filter(|s| !s.is_empty()))
    }

    /// An optional multi-line text ([`super::clean_long`]).
    pub fn opt_long<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        Ok(Option::<String>::deserialize(d)?.map(|s| super::clean_long(&s)).filter(|s| !s.is_empty()))
    }
}

/// Adds `too_long` on `field` when `value` has more than `max` characters.
pub fn limit(errors: &mut FieldErrors, field: &str, value: &str, max: usize) {
    if value.chars().count() > max && !errors.has(field) {
        errors.add(field, Msg::TooLong);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_control_and_bidi_characters() {
        assert_eq!(clean_name(" Acme\u{202E}fdp.exe\n\u{0}AB "), "Acmefdp.exeAB");
        assert_eq!(clean_long("a\nb\u{2066}\u{7}c"), "a\nbc");
        let mut e = FieldErrors::new();
        limit(&mut e, "subject", &"x".repeat(SUBJECT_MAX), SUBJECT_MAX);
        assert!(e.is_empty());
        limit(&mut e, "subject", &"x".repeat(SUBJECT_MAX + 1), SUBJECT_MAX);
        assert_eq!(e["subject"], vec![Msg::TooLong]);
    }

    #[derive(serde::Deserialize)]
    struct Form {
        #[serde(default, deserialize_with = "clean::name")]
        name: String,
        #[serde(default, deserialize_with = "clean::opt_name")]
        firm: Option<String>,
        #[serde(default, deserialize_with = "clean::opt_long")]
        about: Option<String>,
    }

    #[test]
    fn forms_are_cleaned_as_they_are_read() {
        let f: Form = serde_json::from_str(r#"{"name":" Eve\u202e\u0000 ","firm":"\u2066\n","about":"a\nb\u200f"}"#).unwrap();
        assert_eq!((f.name.as_str(), f.firm, f.about.as_deref()), ("Eve", None, Some("a\nb")));
        let f: Form = serde_json::from_str(r#"{"name":null}"#).unwrap();
        assert_eq!(f.name, "");
        assert!(serde_json::from_str::<Form>(r#"{"name":5}"#).is_err());
    }
}

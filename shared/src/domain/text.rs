//! Text limits and cleaning (spec §5): one place for the longest text each
//! kind of field takes and for what is stripped from every free text.

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

/// Characters that show nothing: a text of only these (and spaces) is empty.
/// Kept inside other text (U+200D joins emoji, U+00AD marks hyphenation).
fn is_invisible(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}' | '\u{180E}' | '\u{034F}')
}

/// The text without ANSI/ECMA-48 escape sequences (colours, cursor moves,
/// terminal titles: `ESC [ … m`, `ESC ] … BEL`): a staff member's terminal
/// or log viewer would run them. Other control characters are left to the
/// caller's filter.
fn without_escapes(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        let csi = c == '\u{9B}' || (c == '\u{1B}' && chars.peek() == Some(&'['));
        let osc = c == '\u{9D}' || (c == '\u{1B}' && chars.peek() == Some(&']'));
        if c == '\u{1B}' && (csi || osc) {
            chars.next();
        }
        if csi {
            // Parameters and intermediates, then one final byte (@ to ~).
            while chars.next_if(|n| (' '..='?').contains(n)).is_some() {}
            chars.next_if(|n| ('@'..='~').contains(n));
        } else if osc {
            // Up to BEL or ST (ESC \\).
            while let Some(n) = chars.next() {
                if n == '\u{7}' || n == '\u{9C}' || (n == '\u{1B}' && chars.next_if_eq(&'\\').is_some()) {
                    break;
                }
            }
        } else if c == '\u{1B}' {
            // A two-character escape (ESC c, ESC 7 …): drop the second too.
            chars.next_if(|n| (' '..='~').contains(n));
        } else {
            out.push(c);
        }
    }
    out
}

/// A character that shows in a cleaned text: not a control character
/// (removed), not a bidirectional override (removed), not invisible. A
/// required text must keep one after cleaning; the API document's pattern
/// of required texts is generated from this (`api_docs::patterns::VISIBLE`).
pub fn shows(c: char) -> bool {
    !c.is_control() && !is_bidi_control(c) && !is_invisible(c)
}

/// The escape sequences' introducers ([`without_escapes`]): ESC, CSI and OSC.
/// An escape sequence shows nothing, whatever it holds.
pub const ESCAPE_INTRODUCERS: [char; 3] = ['\u{1B}', '\u{9B}', '\u{9D}'];

/// Empty when nothing visible is left (zero-width spaces and the like).
fn visible_or_empty(text: String) -> String {
    if text.chars().all(is_invisible) {
        String::new()
    } else {
        text
    }
}

/// A one-line name as stored: escape sequences, control characters
/// (newlines, tabs, NUL …) and bidirectional overrides removed, trimmed;
/// empty when nothing visible is left.
pub fn clean_name(raw: &str) -> String {
    let text: String = without_escapes(raw).chars().filter(|c| !c.is_control() && !is_bidi_control(*c)).collect();
    visible_or_empty(text.trim().to_string())
}

/// The one sanitiser of every multi-line free text (messages, support
/// tickets and answers, notes, descriptions, comments): escape sequences,
/// bidirectional overrides and control characters other than line breaks
/// and tabs removed, CR LF and lone CR made LF, trimmed; empty when nothing
/// visible is left, so a required field of zero-width spaces is refused.
pub fn clean_long(raw: &str) -> String {
    let text: String = without_escapes(&raw.replace("\r\n", "\n").replace('\r', "\n"))
        .chars()
        .filter(|c| !is_bidi_control(*c) && (!c.is_control() || matches!(c, '\n' | '\t')))
        .collect();
    visible_or_empty(text.trim().to_string())
}

/// A link (e.g. a lawyer's video-meeting address).
pub const URL_MAX: usize = 2_000;

/// Percent-encodes everything but RFC 3986 unreserved characters (a
/// label or query value inside an address).
pub fn percent_encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Cleaning at the edge: `#[serde(deserialize_with = "…")]` on a form's
/// text fields, so every handler that reads the form gets the stored shape
/// (limits are then checked on what is stored, by the form's own rules).
/// A text longer than its kind's bound as sent (a name [`super::NAME_MAX`],
/// a long text [`super::LONG_MAX`], the document's `maxLength`) is refused
/// here, before cleaning could shorten it: `invalid length`, which the body
/// reader answers as the field's `too_long`.
pub mod clean {
    use serde::{de::Error, Deserialize, Deserializer};

    /// The text as sent, if within `max` characters; cleaned by `clean`.
    fn within<'de, D: Deserializer<'de>>(d: D, max: usize, clean: fn(&str) -> String) -> Result<Option<String>, D::Error> {
        match Option::<String>::deserialize(d)? {
            Some(s) if s.chars().count() > max => Err(D::Error::invalid_length(s.chars().count(), &"a text within its maxLength")),
            s => Ok(s.map(|s| clean(&s))),
        }
    }

    /// A one-line name ([`super::clean_name`]); `null` reads as empty.
    pub fn name<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        Ok(within(d, super::NAME_MAX, super::clean_name)?.unwrap_or_default())
    }

    /// An optional one-line name; empty after cleaning reads as absent.
    pub fn opt_name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        Ok(within(d, super::NAME_MAX, super::clean_name)?.filter(|s| !s.is_empty()))
    }

    /// An optional uid (`format: uuid` in the document): absent or `null`
    /// is none; any other text, the empty one included, must be a UUID (a
    /// generated client sends `null` for none, never `""`).
    pub fn opt_uuid<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        let v = Option::<String>::deserialize(d)?;
        match &v {
            Some(s) if uuid::Uuid::try_parse(s).is_err() => Err(serde::de::Error::invalid_value(serde::de::Unexpected::Str(s), &"a UUID")),
            _ => Ok(v),
        }
    }

    /// An optional multi-line text ([`super::clean_long`]).
    pub fn opt_long<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        Ok(within(d, super::LONG_MAX, super::clean_long)?.filter(|s| !s.is_empty()))
    }
}

/// A free text as stored (cleaned by `clean`: [`clean_name`] or
/// [`clean_long`]), bounded as sent: the API document's `maxLength` counts
/// the string a client sent, and cleaning only removes characters, so a text
/// whose escape sequences or control characters the cleaning drops is still
/// too long. Empty when nothing visible is left (the caller decides whether
/// that is allowed: [`required`]).
pub fn bounded(raw: &str, max: usize, clean: fn(&str) -> String) -> Result<String, Msg> {
    if raw.chars().count() > max {
        return Err(Msg::TooLong);
    }
    Ok(clean(raw))
}

/// [`bounded`], and `required` when nothing visible is left.
pub fn required(raw: &str, max: usize, clean: fn(&str) -> String) -> Result<String, Msg> {
    bounded(raw, max, clean).and_then(|t| if t.is_empty() { Err(Msg::Required) } else { Ok(t) })
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
    fn a_text_is_bounded_as_sent_and_stored_cleaned() {
        // Escape sequences the cleaning drops still count against the bound.
        let escapes = format!("{}Hej", "\u{1b}[1m".repeat(10));
        assert_eq!(bounded(&escapes, 50, clean_long), Ok("Hej".to_string()));
        assert_eq!(bounded(&escapes, 42, clean_long), Err(Msg::TooLong));
        assert_eq!(bounded(&"x".repeat(43), 43, clean_name), Ok("x".repeat(43)));
        assert_eq!(bounded(" \u{200b} ", 10, clean_long), Ok(String::new()));
        assert_eq!(required(" \u{200b} ", 10, clean_long), Err(Msg::Required));
        assert_eq!(required(&"\u{1b}[1m".repeat(20), 10, clean_name), Err(Msg::TooLong));
        assert_eq!(required(" Hej\r\nDå ", 10, clean_long), Ok("Hej\nDå".to_string()));
    }

    #[test]
    fn an_optional_uid_is_null_or_a_uuid_never_an_empty_text() {
        #[derive(serde::Deserialize)]
        struct F {
            #[serde(default, deserialize_with = "clean::opt_uuid")]
            uid: Option<String>,
        }
        let read = |v: serde_json::Value| serde_json::from_value::<F>(v).map(|f| f.uid);
        assert_eq!(read(serde_json::json!({})).unwrap(), None);
        assert_eq!(read(serde_json::json!({"uid": null})).unwrap(), None);
        let uid = "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a00";
        assert_eq!(read(serde_json::json!({"uid": uid})).unwrap().as_deref(), Some(uid));
        for bad in ["", " ", "x", "0b7e2c1a"] {
            assert!(read(serde_json::json!({"uid": bad})).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn texts_lose_escapes_and_invisible_only_text_is_empty() {
        assert_eq!(clean_long("\u{1b}[31;1mröd\u{1b}[0m text\u{1b}]0;title\u{7} \u{1b}]8;;http://x\u{1b}\\länk\u{1b}c!"), "röd text länk!");
        assert_eq!(clean_long("\u{9b}2Jx"), "x");
        assert_eq!(clean_long("rad 1\r\nrad 2\rrad 3\u{0}\u{8}\ttab"), "rad 1\nrad 2\nrad 3\ttab");
        assert_eq!(clean_long("a\u{202E}b\u{2067}c\u{202A}"), "abc");
        for blank in ["\u{200B}\u{200B}", " \u{FEFF}\u{2060} \n\u{200C}\u{200D}", "\u{1b}[0m", "\u{202E}"] {
            assert_eq!(clean_long(blank), "", "{blank:?}");
            assert_eq!(clean_name(blank), "", "{blank:?}");
        }
        // Joiners inside visible text stay (emoji sequences).
        assert_eq!(clean_long("👩\u{200D}⚖️ jurist"), "👩\u{200D}⚖️ jurist");
        assert_eq!(clean_name("Ärende\u{1b}[2K\u{1b}[1A nr 5"), "Ärende nr 5");
    }

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

    #[test]
    fn a_form_text_over_its_bound_as_sent_is_refused_before_cleaning() {
        // 50 escape sequences and a name: 203 characters as sent, "Eve" cleaned.
        let escapes = format!("{}Eve", "\u{1b}[1m".repeat(50));
        let refused = serde_json::from_value::<Form>(serde_json::json!({ "name": escapes })).err().unwrap();
        assert!(refused.to_string().starts_with("invalid length 203"), "{refused}");
        let firm = serde_json::from_value::<Form>(serde_json::json!({ "firm": escapes })).err().unwrap();
        assert!(firm.to_string().starts_with("invalid length"), "{firm}");
        let about = serde_json::from_value::<Form>(serde_json::json!({ "about": "\u{7}".repeat(LONG_MAX + 1) })).err().unwrap();
        assert!(about.to_string().starts_with("invalid length"), "{about}");
        let within = serde_json::from_value::<Form>(serde_json::json!({ "name": &escapes[4..] })).unwrap();
        assert_eq!(within.name, "Eve");
    }
}

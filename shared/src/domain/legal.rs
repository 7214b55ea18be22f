//! Terms and privacy (spec §1 "terms", §5 "customer must agree to privacy and
//! purchase terms"): versioned texts in Swedish and English that admin
//! publishes, readable by anyone through `public/`; a customer accepts the
//! current version of each at registration and, after a new version is
//! published, once more after signing in. Texts are Markdown, rendered by
//! the web with HTML escaped.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{Role, User};
use crate::error::{ApiError, FieldErrors, Msg};

/// A text is at most this long (characters, each language): real terms run
/// to tens of thousands. Its publish route has its own body limit
/// ([`PUBLISH_BODY_BYTES`]) and each language its own item (one text's
/// 400,000 bytes of UTF-8 at most fit DynamoDB's 400 KB item).
pub const TEXT_MAX_CHARS: usize = 100_000;

/// The body limit of the publish route (`crate::api::OWN_BODY_LIMITS`): both
/// texts at [`TEXT_MAX_CHARS`] in any JSON encoding (a character written as
/// two `\uXXXX` escapes is 12 bytes) and the rest of the object, so a text
/// the form allows never answers 413. Within what reaches the function on
/// AWS: API Gateway takes 10 MB, Lambda's event 6 MB, in which the body is
/// a JSON string again (each byte at most two) or base64 (4/3).
pub const PUBLISH_BODY_BYTES: usize = 2 * TEXT_MAX_CHARS * 12 + 16 * 1024;

// Checked when compiled: Lambda's event (6 MB) holds the body as a JSON
// string, each byte at most escaped to two, or base64, beside headers (API
// Gateway: 10 KB of request line and headers); one language's text, four
// bytes of UTF-8 a character at most, fits one DynamoDB item (400 KB, keys
// and names included).
const _: () = {
    let lambda_event = 6 * 1000 * 1000;
    assert!(2 * PUBLISH_BODY_BYTES + 64 * 1024 < lambda_event);
    assert!(PUBLISH_BODY_BYTES.div_ceil(3) * 4 + 64 * 1024 < lambda_event);
    assert!(TEXT_MAX_CHARS * 4 + 1024 < 400 * 1024);
};

/// The two texts a customer accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum LegalKind {
    Terms,
    Privacy,
}

impl LegalKind {
    pub const ALL: [LegalKind; 2] = [LegalKind::Terms, LegalKind::Privacy];

    pub fn as_str(self) -> &'static str {
        match self {
            LegalKind::Terms => "terms",
            LegalKind::Privacy => "privacy",
        }
    }

    pub fn parse(text: &str) -> Option<LegalKind> {
        LegalKind::ALL.into_iter().find(|k| k.as_str() == text.trim())
    }

    /// The registration field that records its acceptance.
    pub fn registration_field(self) -> &'static str {
        match self {
            LegalKind::Terms => "terms_accepted",
            LegalKind::Privacy => "privacy_accepted",
        }
    }
}

/// One published version of a text. Versions are never changed: an edit
/// publishes the next version.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LegalText {
    pub kind: LegalKind,
    /// 1, 2, 3, ...
    pub version: u32,
    /// Markdown, Swedish.
    pub sv: String,
    /// Markdown, English.
    pub en: String,
    #[schema(value_type = String, format = DateTime)]
    pub published_at: DateTime<Utc>,
    #[serde(default)]
    pub published_by: String,
}

/// A published version without its texts: admin's list of versions, and
/// the answer to publishing (the client has the texts it sent).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LegalVersion {
    pub kind: LegalKind,
    pub version: u32,
    #[schema(value_type = String, format = DateTime)]
    pub published_at: DateTime<Utc>,
    #[serde(default)]
    pub published_by: String,
}

impl LegalText {
    pub fn summary(&self) -> LegalVersion {
        LegalVersion { kind: self.kind, version: self.version, published_at: self.published_at, published_by: self.published_by.clone() }
    }
}

/// A user's acceptance of one version.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Acceptance {
    pub kind: LegalKind,
    pub version: u32,
    #[schema(value_type = String, format = DateTime)]
    pub accepted_at: DateTime<Utc>,
}

/// The two texts of a new version, cleaned as every long text
/// ([`crate::domain::text::clean_long`]): both languages required (some
/// visible character), each at most [`TEXT_MAX_CHARS`].
pub fn validate_texts(sv: &str, en: &str) -> Result<(String, String), ApiError> {
    use crate::domain::text::{clean_long, required};
    let mut e = FieldErrors::new();
    let sv = required(sv, TEXT_MAX_CHARS, clean_long).map_err(|m| e.add("sv", m));
    let en = required(en, TEXT_MAX_CHARS, clean_long).map_err(|m| e.add("en", m));
    e.check()?;
    Ok((sv.unwrap_or_default(), en.unwrap_or_default()))
}

/// Who is asked to accept a newly published version after signing in: the
/// customer (the party of the contract; its contacts act under it).
pub fn must_accept(user: &User) -> bool {
    super::policy::is(user, Role::Customer)
}

/// The version a registration (or a later acceptance) records for `kind`:
/// the current one. A version the user saw that is no longer current is
/// refused, so nobody accepts a text they were not shown; no version sent
/// means the current one (older clients).
pub fn version_to_record(kind: LegalKind, current: Option<u32>, sent: Option<u32>) -> Result<Option<u32>, ApiError> {
    match (current, sent) {
        (None, _) => Ok(None),
        (Some(c), None) => Ok(Some(c)),
        (Some(c), Some(s)) if s == c => Ok(Some(c)),
        (Some(_), Some(_)) => Err(ApiError::field(kind.registration_field(), Msg::LegalVersionOutdated)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::user::tests_support::sample;

    #[test]
    fn kinds_parse_and_name_their_field() {
        assert_eq!(LegalKind::parse("terms"), Some(LegalKind::Terms));
        assert_eq!(LegalKind::parse("privacy"), Some(LegalKind::Privacy));
        assert_eq!(LegalKind::parse("cookies"), None);
        assert_eq!(LegalKind::Privacy.registration_field(), "privacy_accepted");
    }

    #[test]
    fn both_languages_are_required_and_bounded() {
        let e = validate_texts("  ", "x").unwrap_err();
        assert_eq!(e.fields().get("sv"), [Msg::Required]);
        let long = "a".repeat(TEXT_MAX_CHARS + 1);
        assert_eq!(validate_texts("a", &long).unwrap_err().fields().get("en"), [Msg::TooLong]);
        assert_eq!(validate_texts(" # Villkor ", "# Terms").unwrap(), ("# Villkor".into(), "# Terms".into()));
        assert_eq!(validate_texts("\u{1}\u{200B}", "# Terms").unwrap_err().fields().get("sv"), [Msg::Required]);
        // Two texts at the limit, every character escaped as JSON's longest
        // form, are a body the publish route reads.
        let body =
            serde_json::json!({"kind": "privacy", "sv": "\u{1F600}".repeat(TEXT_MAX_CHARS), "en": "\u{1F600}".repeat(TEXT_MAX_CHARS)});
        let escaped = body.to_string().replace('\u{1F600}', "\\ud83d\\ude00");
        assert!(escaped.len() < crate::api::body_limit(crate::api::LEGAL_PUBLISH_PATH), "{} bytes", escaped.len());
        assert_eq!(crate::api::body_limit(crate::api::LEGAL_PUBLISH_PATH), PUBLISH_BODY_BYTES);
    }

    #[test]
    fn only_the_current_version_is_recorded() {
        assert_eq!(version_to_record(LegalKind::Terms, None, Some(3)).unwrap(), None);
        assert_eq!(version_to_record(LegalKind::Terms, Some(2), None).unwrap(), Some(2));
        assert_eq!(version_to_record(LegalKind::Terms, Some(2), Some(2)).unwrap(), Some(2));
        let e = version_to_record(LegalKind::Privacy, Some(2), Some(1)).unwrap_err();
        assert_eq!(e.fields().get("privacy_accepted"), [Msg::LegalVersionOutdated]);
    }

    #[test]
    fn customers_accept_new_versions() {
        assert!(must_accept(&sample(Some(3))));
        assert!(!must_accept(&sample(Some(4))));
        assert!(!must_accept(&sample(Some(1))));
    }
}

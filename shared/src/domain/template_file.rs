//! Public documents and templates (spec §7 `template_file/`, `template_file/list/`;
//! the customer's Documents page): files admin uploads through presigned
//! URLs with a title, a category and a language; every signed-in user may
//! list and download them. Types and checks are the case documents' ones.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::document::DocumentType;
use crate::error::{ApiError, FieldErrors, Msg};

pub const TITLE_MAX_CHARS: usize = 200;
pub const CATEGORY_MAX_CHARS: usize = 60;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TemplateFile {
    pub id: String,
    pub title: String,
    pub category: String,
    /// `sv` or `en`.
    pub language: String,
    /// `templates/<uuid>.<ext>`, chosen by the server.
    pub key: String,
    /// The file's name (offered on download).
    pub name: String,
    pub size: i64,
    #[schema(value_type = String, format = DateTime)]
    pub uploaded_at: DateTime<Utc>,
    pub uploaded_by: String,
}

/// Title, category and language of a template, trimmed and checked.
pub fn validate(title: &str, category: &str, language: &str) -> Result<(String, String, String), ApiError> {
    use super::text::{clean_name, required};
    let mut e = FieldErrors::new();
    let title = required(title, TITLE_MAX_CHARS, clean_name).map_err(|m| e.add("title", m));
    let category = required(category, CATEGORY_MAX_CHARS, clean_name).map_err(|m| e.add("category", m));
    let language = language.trim().to_ascii_lowercase();
    if !matches!(language.as_str(), "sv" | "en") {
        e.add("language", Msg::Invalid);
    }
    e.check()?;
    Ok((title.unwrap_or_default(), category.unwrap_or_default(), language))
}

pub const KEY_PREFIX: &str = "templates/";

pub fn object_key(id: &uuid::Uuid, t: DocumentType) -> String {
    format!("{KEY_PREFIX}{}.{}", id.simple(), t.ext)
}

/// The type a template key was issued for, if it is one.
pub fn key_type(key: &str) -> Option<DocumentType> {
    let (id, ext) = key.strip_prefix(KEY_PREFIX)?.rsplit_once('.')?;
    if id.len() != 32 || !id.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    super::document::TYPES.iter().copied().find(|t| t.ext == ext)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_keys() {
        let e = validate("", "", "de").unwrap_err().fields();
        assert!(e.has("title") && e.has("category") && e.has("language"));
        assert_eq!(validate(" Avtal ", " Mallar ", "SV").unwrap(), ("Avtal".into(), "Mallar".into(), "sv".into()));
        let t = crate::domain::document::type_of_name("a.pdf").unwrap();
        let k = object_key(&uuid::Uuid::new_v4(), t);
        assert_eq!(key_type(&k), Some(t));
        assert_eq!(key_type("cases/x/y.pdf"), None);
        assert_eq!(key_type("templates/../x.pdf"), None);
    }
}

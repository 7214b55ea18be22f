//! Case documents (spec §3 "Allowed document types: pdf, word, excel, jpg,
//! png, ppt"; §5 "Case documents: the types listed above"): which files are
//! accepted, by the extension of the user's file name AND by the first bytes
//! of what was actually uploaded, the limits, the display name and the S3 key
//! layout. No AWS here: the confirm step reads the size and the first bytes
//! and asks [`check_upload`].

pub use super::policy::{may_manage_documents, may_remove_document};
use crate::error::Msg;

/// Largest accepted document: 25 MiB. Scanned contracts and court papers are
/// a few MiB; 25 MiB is the common e-mail attachment ceiling, so anything a
/// customer could have mailed to the firm fits, while one upload cannot fill
/// the bucket. The bytes never pass through Lambda (presigned PUT straight to
/// S3), so the limit is a policy, not a payload cap; it is checked on confirm.
pub const DOCUMENT_MAX_BYTES: i64 = 25 * 1024 * 1024;

/// At most this many documents on one case: the details page lists them all
/// without paging, and the case item (which holds the list) stays small.
pub const MAX_FILES_PER_CASE: usize = 20;

/// Longest display name kept (characters); longer names are cut, keeping the extension.
pub const NAME_MAX_CHARS: usize = 150;

/// How many leading bytes [`check_upload`] needs.
pub const MAGIC_LEN: usize = 8;

/// What the first bytes of a file of that family look like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `%PDF-`
    Pdf,
    /// `FF D8 FF`
    Jpeg,
    /// `89 50 4E 47 0D 0A 1A 0A`
    Png,
    /// Legacy Office (doc, xls, ppt): OLE2 compound file `D0 CF 11 E0 A1 B1 1A E1`.
    Ole2,
    /// Office Open XML (docx, xlsx, pptx): a ZIP, `50 4B 03 04`.
    Ooxml,
}

impl Family {
    fn magic(self) -> &'static [u8] {
        match self {
            Family::Pdf => b"%PDF-",
            Family::Jpeg => &[0xFF, 0xD8, 0xFF],
            Family::Png => &[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
            Family::Ole2 => &[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1],
            Family::Ooxml => &[0x50, 0x4B, 0x03, 0x04],
        }
    }
}

/// One accepted document type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DocumentType {
    /// Lower-case extension without the dot; also the S3 key's extension.
    pub ext: &'static str,
    /// What the browser must send with the presigned PUT (it is signed) and what S3 serves.
    pub content_type: &'static str,
    pub family: Family,
}

const fn t(ext: &'static str, content_type: &'static str, family: Family) -> DocumentType {
    DocumentType { ext, content_type, family }
}

/// The spec's types: pdf, word, excel, jpg, png, ppt (legacy and OOXML forms).
pub const TYPES: &[DocumentType] = &[
    t("pdf", "application/pdf", Family::Pdf),
    t("doc", "application/msword", Family::Ole2),
    t("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", Family::Ooxml),
    t("xls", "application/vnd.ms-excel", Family::Ole2),
    t("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", Family::Ooxml),
    t("ppt", "application/vnd.ms-powerpoint", Family::Ole2),
    t("pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation", Family::Ooxml),
    t("jpg", "image/jpeg", Family::Jpeg),
    t("jpeg", "image/jpeg", Family::Jpeg),
    t("png", "image/png", Family::Png),
];

/// The type of a file by the extension of its name (case-insensitive), if accepted.
pub fn type_of_name(name: &str) -> Option<DocumentType> {
    let (_, ext) = name.rsplit_once('.')?;
    let ext = ext.to_ascii_lowercase();
    TYPES.iter().copied().find(|t| t.ext == ext)
}

/// The user's file name as shown and as offered on download: the last path
/// part (browsers on Windows may send `C:\...`), without control characters
/// or quotes, trimmed, at most [`NAME_MAX_CHARS`] (the extension kept).
/// `None` when nothing usable is left.
pub fn display_name(raw: &str) -> Option<String> {
    let last = raw.rsplit(['/', '\\']).next().unwrap_or("");
    let clean: String = super::text::clean_name(last).chars().filter(|c| *c != '"').collect();
    let clean = clean.trim().trim_start_matches('.').trim().to_string();
    if clean.is_empty() {
        return None;
    }
    if clean.chars().count() <= NAME_MAX_CHARS {
        return Some(clean);
    }
    let (stem, ext) = match clean.rsplit_once('.') {
        Some((s, e)) if e.chars().count() <= 5 => (s.to_string(), format!(".{e}")),
        _ => (clean.clone(), String::new()),
    };
    let keep = NAME_MAX_CHARS - ext.chars().count();
    Some(format!("{}{ext}", stem.chars().take(keep).collect::<String>().trim_end()))
}

/// Why an uploaded object is refused (the message keys of the API).
pub const DOCUMENT_TYPE_NOT_ALLOWED: Msg = Msg::DocumentTypeNotAllowed;
pub const DOCUMENT_TOO_LARGE: Msg = Msg::DocumentTooLarge;
pub const DOCUMENT_NOT_UPLOADED: Msg = Msg::DocumentNotUploaded;
pub const DOCUMENT_EMPTY: Msg = Msg::DocumentEmpty;
pub const TOO_MANY_DOCUMENTS: Msg = Msg::TooManyDocuments;

/// The confirm step's verdict on an uploaded object of type `t`: it exists
/// (`size` is `Some`), is not empty, is at most `max_bytes`, and starts with
/// the magic bytes of the extension's family (a PNG named .pdf, a ZIP named
/// .pdf or an EXE named .docx are all refused).
pub fn check_upload(t: DocumentType, size: Option<i64>, head: &[u8], max_bytes: i64) -> Result<(), Msg> {
    let size = size.ok_or(DOCUMENT_NOT_UPLOADED)?;
    if size <= 0 {
        return Err(DOCUMENT_EMPTY);
    }
    if size > max_bytes {
        return Err(DOCUMENT_TOO_LARGE);
    }
    if !head.starts_with(t.family.magic()) {
        return Err(DOCUMENT_TYPE_NOT_ALLOWED);
    }
    Ok(())
}

/// Every document of a case lives under this prefix; keys are chosen by the server.
pub fn key_prefix(case_uid: &str) -> String {
    format!("cases/{case_uid}/")
}

/// `cases/<case uid>/<uuid>.<ext>`.
pub fn object_key(case_uid: &str, id: &uuid::Uuid, t: DocumentType) -> String {
    format!("{}{id}.{}", key_prefix(case_uid), t.ext)
}

/// The type of `key` when it is one the server could have chosen for this
/// case (`cases/<case uid>/<uuid>.<accepted ext>`), else `None`.
pub fn case_key_type(case_uid: &str, key: &str) -> Option<DocumentType> {
    let rest = key.strip_prefix(&key_prefix(case_uid))?;
    let (id, ext) = rest.rsplit_once('.')?;
    if uuid::Uuid::parse_str(id).is_err() || id.len() != 36 {
        return None;
    }
    TYPES.iter().copied().find(|t| t.ext == ext)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::case::{Case, CaseStatus};
    use crate::domain::{Role, User};

    const PDF: &[u8] = b"%PDF-1.4\n%";
    const PNG: &[u8] = &[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A];
    const JPG: &[u8] = &[0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, b'J', b'F'];
    const OLE: &[u8] = &[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
    const ZIP: &[u8] = &[0x50, 0x4B, 0x03, 0x04, 0x14, 0, 0x06, 0];
    const EXE: &[u8] = b"MZ\x90\0\x03\0\0\0";

    fn ok(name: &str, head: &[u8]) -> Result<(), Msg> {
        check_upload(type_of_name(name).expect(name), Some(head.len() as i64 + 1000), head, DOCUMENT_MAX_BYTES)
    }

    #[test]
    fn every_type_with_its_own_magic_is_accepted() {
        for (name, head) in [
            ("a.pdf", PDF),
            ("a.doc", OLE),
            ("a.docx", ZIP),
            ("a.xls", OLE),
            ("a.xlsx", ZIP),
            ("a.ppt", OLE),
            ("a.pptx", ZIP),
            ("a.jpg", JPG),
            ("a.JPEG", JPG),
            ("a.png", PNG),
            ("Avtal.final.PDF", PDF),
        ] {
            assert_eq!(ok(name, head), Ok(()), "{name}");
        }
        assert_eq!(TYPES.len(), 10);
        assert_eq!(type_of_name("x.docx").unwrap().content_type, "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
        assert_eq!(type_of_name("x.JPG").unwrap().content_type, "image/jpeg");
    }

    #[test]
    fn other_extensions_are_refused_by_name() {
        for name in ["a.exe", "a.gif", "a.txt", "a.zip", "a.html", "pdf", "a.pdf.exe", "a.", "", "a.svg"] {
            assert!(type_of_name(name).is_none(), "{name}");
        }
    }

    #[test]
    fn magic_must_match_the_family_of_the_extension() {
        assert_eq!(ok("a.pdf", PNG), Err(DOCUMENT_TYPE_NOT_ALLOWED), "a PNG named .pdf");
        assert_eq!(ok("a.pdf", ZIP), Err(DOCUMENT_TYPE_NOT_ALLOWED), "a ZIP named .pdf");
        assert_eq!(ok("a.pdf", EXE), Err(DOCUMENT_TYPE_NOT_ALLOWED), "an EXE named .pdf");
        assert_eq!(ok("a.docx", EXE), Err(DOCUMENT_TYPE_NOT_ALLOWED));
        assert_eq!(ok("a.docx", OLE), Err(DOCUMENT_TYPE_NOT_ALLOWED), "legacy bytes under a new extension");
        assert_eq!(ok("a.doc", ZIP), Err(DOCUMENT_TYPE_NOT_ALLOWED));
        assert_eq!(ok("a.png", JPG), Err(DOCUMENT_TYPE_NOT_ALLOWED));
        assert_eq!(ok("a.jpg", PNG), Err(DOCUMENT_TYPE_NOT_ALLOWED));
        assert_eq!(ok("a.xlsx", PDF), Err(DOCUMENT_TYPE_NOT_ALLOWED));
        assert_eq!(ok("a.pdf", b"%PD"), Err(DOCUMENT_TYPE_NOT_ALLOWED), "a truncated signature");
    }

    #[test]
    fn missing_empty_and_over_limit() {
        let pdf = type_of_name("a.pdf").unwrap();
        assert_eq!(check_upload(pdf, None, b"", DOCUMENT_MAX_BYTES), Err(DOCUMENT_NOT_UPLOADED));
        assert_eq!(check_upload(pdf, Some(0), b"", DOCUMENT_MAX_BYTES), Err(DOCUMENT_EMPTY));
        assert_eq!(check_upload(pdf, Some(DOCUMENT_MAX_BYTES + 1), PDF, DOCUMENT_MAX_BYTES), Err(DOCUMENT_TOO_LARGE));
        assert_eq!(check_upload(pdf, Some(DOCUMENT_MAX_BYTES), PDF, DOCUMENT_MAX_BYTES), Ok(()));
        // size first: a huge file is "too large" whatever its bytes
        assert_eq!(check_upload(pdf, Some(DOCUMENT_MAX_BYTES + 1), EXE, DOCUMENT_MAX_BYTES), Err(DOCUMENT_TOO_LARGE));
    }

    #[test]
    fn display_names_are_cleaned() {
        assert_eq!(display_name("C:\\Users\\kund\\Hyresavtal.pdf").as_deref(), Some("Hyresavtal.pdf"));
        assert_eq!(display_name("../../etc/passwd.pdf").as_deref(), Some("passwd.pdf"));
        assert_eq!(display_name("  Avtal\u{0}\n\"x\".pdf ").as_deref(), Some("Avtalx.pdf"));
        assert_eq!(display_name("Överlåtelse åäö.docx").as_deref(), Some("Överlåtelse åäö.docx"));
        assert_eq!(display_name("dir/"), None);
        assert_eq!(display_name("   "), None);
        let long = format!("{}.pdf", "a".repeat(400));
        let cut = display_name(&long).unwrap();
        assert_eq!(cut.chars().count(), NAME_MAX_CHARS);
        assert!(cut.ends_with(".pdf"));
    }

    #[test]
    fn keys_belong_to_one_case() {
        let id = uuid::Uuid::new_v4();
        let key = object_key("c1", &id, type_of_name("x.pdf").unwrap());
        assert_eq!(key, format!("cases/c1/{id}.pdf"));
        assert_eq!(case_key_type("c1", &key).unwrap().ext, "pdf");
        assert!(case_key_type("c2", &key).is_none());
        assert!(case_key_type("c1", &format!("cases/c1/../c2/{id}.pdf")).is_none());
        assert!(case_key_type("c1", &format!("cases/c1/{id}.exe")).is_none());
        assert!(case_key_type("c1", "cases/c1/x.pdf").is_none());
        assert!(case_key_type("c1", &format!("profile-images/c1/{id}.png")).is_none());
    }

    fn user(role: Role, uid: &str) -> User {
        crate::domain::user::tests_support::with_role(role, uid, "cust", &[crate::domain::Permission::ViewAllCases])
    }

    fn case(status: CaseStatus, lawyer: Option<&str>) -> Case {
        crate::domain::case::tests_support::sample("cust", "x", status, lawyer, chrono::Utc::now())
    }

    #[test]
    fn who_manages_documents() {
        use CaseStatus::*;
        let admin = user(Role::Admin, "adm");
        let sales = user(Role::SalesPerson, "sp");
        let law = user(Role::Lawyer, "law");
        let other_lawyer = user(Role::Lawyer, "other");
        let cust = user(Role::Customer, "cust");
        let contact = user(Role::CustomerContact, "cc");
        let stranger = user(Role::Customer, "someone");
        for status in [Draft, Waiting, Inprogress, Complete] {
            let c = case(status, matches!(status, Inprogress | Complete).then_some("law"));
            let open = status != Complete;
            assert!(may_manage_documents(&admin, &c), "admin {status:?}");
            assert_eq!(may_manage_documents(&sales, &c), open, "sales {status:?}");
            assert_eq!(may_manage_documents(&law, &c), open && c.lawyer.is_some(), "lawyer {status:?}");
            assert!(!may_manage_documents(&other_lawyer, &c), "other lawyer {status:?}");
            assert_eq!(may_manage_documents(&cust, &c), open, "customer {status:?}");
            assert_eq!(may_manage_documents(&contact, &c), open, "contact {status:?}");
            assert!(!may_manage_documents(&stranger, &c), "stranger {status:?}");
        }
        let c = case(Inprogress, Some("law"));
        assert!(may_remove_document(&cust, &c, "cust"));
        assert!(!may_remove_document(&cust, &c, "law"), "the customer cannot remove the lawyer's document");
        assert!(may_remove_document(&law, &c, "cust"));
        assert!(!may_remove_document(&cust, &case(Complete, Some("law")), "cust"));
    }
}

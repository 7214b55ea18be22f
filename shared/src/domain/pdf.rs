//! What an uploaded PDF may carry (documents for signing, case documents,
//! support and Inkasso attachments): it must parse as a PDF with a catalog
//! and pages, and carry no active content — scripts (`/JavaScript`, `/JS`),
//! automatic or triggered actions (`/OpenAction`, `/AA`), launching other
//! programs (`/Launch`), embedded files (`/EmbeddedFiles`) or rich media
//! (`/RichMedia`). Signers and staff open these files; a PDF reader that runs
//! them would run them on their machines. A `%PDF-` file that is an HTML page
//! too (a polyglot a browser would render) is refused as well.

use lopdf::{Dictionary, Document, LoadOptions, Object};

use crate::error::Msg;

/// Keys (and action types) that make a PDF active.
const ACTIVE: &[&[u8]] = &[b"JavaScript", b"JS", b"OpenAction", b"AA", b"Launch", b"EmbeddedFiles", b"RichMedia"];

/// Most a compressed stream may inflate to while a PDF is checked: a small
/// upload must not unfold into gigabytes (a decompression bomb).
const MAX_INFLATED: usize = 64 * 1024 * 1024;

/// How far into the file a browser sniffs for HTML.
const SNIFF_LEN: usize = 1024;

/// The verdict on an uploaded PDF's bytes: `InvalidPdf` when it is not a
/// well-formed PDF, `PdfActiveContent` when it carries active content.
pub fn check(bytes: &[u8]) -> Result<(), Msg> {
    if !bytes.starts_with(b"%PDF-") || looks_like_html(bytes) {
        return Err(Msg::InvalidPdf);
    }
    let options = LoadOptions { max_decompressed_size: Some(MAX_INFLATED), ..LoadOptions::default() };
    let doc = Document::load_mem_with_options(bytes, options).map_err(|_| Msg::InvalidPdf)?;
    if doc.catalog().is_err() || doc.get_pages().is_empty() {
        return Err(Msg::InvalidPdf);
    }
    if is_active(&doc.trailer) || doc.objects.values().any(object_is_active) {
        return Err(Msg::PdfActiveContent);
    }
    Ok(())
}

fn looks_like_html(bytes: &[u8]) -> bool {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(SNIFF_LEN)]).to_ascii_lowercase();
    ["<html", "<script", "<!doctype", "<body", "<iframe", "<svg"].iter().any(|tag| head.contains(tag))
}

fn is_active(d: &Dictionary) -> bool {
    d.iter().any(|(key, value)| ACTIVE.contains(&key.as_slice()) || key.starts_with(b"RichMedia") || object_is_active(value))
}

/// Walks the object (nested dictionaries and arrays; references are separate
/// objects, each walked on its own): an active key anywhere, or an action
/// whose type (`/S`) or subtype is a script, a launch or rich media.
fn object_is_active(o: &Object) -> bool {
    match o {
        Object::Name(n) => matches!(n.as_slice(), b"JavaScript" | b"Launch" | b"RichMedia" | b"RichMediaExecute" | b"ImportData"),
        Object::Array(items) => items.iter().any(object_is_active),
        Object::Dictionary(d) => is_active(d),
        Object::Stream(s) => is_active(&s.dict),
        _ => false,
    }
}

/// A small well-formed PDF of one empty page with a correct
/// cross-reference table, for tests: `catalog_extra` goes into the catalog
/// dictionary, `extra_objects` after the page (objects 4, 5, …).
#[cfg(any(test, feature = "testkit"))]
pub fn sample(catalog_extra: &str, extra_objects: &[&str]) -> Vec<u8> {
    let mut objects = vec![
        format!("<< /Type /Catalog /Pages 2 0 R {catalog_extra} >>"),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>".to_string(),
    ];
    objects.extend(extra_objects.iter().map(|o| o.to_string()));
    let mut out = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend(format!("{} 0 obj\n{o}\nendobj\n", i + 1).into_bytes());
    }
    let xref = out.len();
    out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).into_bytes());
    for off in offsets {
        out.extend(format!("{off:010} 00000 n \n").into_bytes());
    }
    out.extend(format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).into_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_pdf_is_accepted() {
        assert_eq!(check(&sample("", &[])), Ok(()));
        // Without a cross-reference table: read by scanning, as readers do.
        assert_eq!(check(b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"), Ok(()));
        // Links and outlines are no actions that run by themselves.
        assert_eq!(
            check(&sample("/PageMode /UseOutlines", &["<< /Type /Annot /Subtype /Link /A << /S /URI /URI (https://example.com) >> >>"])),
            Ok(())
        );
    }

    #[test]
    fn active_content_is_refused() {
        let cases: &[(&str, &[&str])] = &[
            ("/OpenAction << /S /JavaScript /JS (app.alert(1)) >>", &[]),
            ("/OpenAction 4 0 R", &["<< /S /JavaScript /JS (app.alert(1)) >>"]),
            ("/Names << /JavaScript 4 0 R >>", &["<< /Names [(x) 5 0 R] >>", "<< /S /JavaScript /JS (x) >>"]),
            ("/AA << /O << /S /Launch /F (calc.exe) >> >>", &[]),
            ("", &["<< /Type /Action /S /Launch /F (cmd.exe) >>"]),
            ("/Names << /EmbeddedFiles << /Names [(a.exe) 4 0 R] >> >>", &["<< /Type /Filespec /F (a.exe) >>"]),
            ("", &["<< /Type /Annot /Subtype /RichMedia /RichMediaContent << >> >>"]),
            // Names with #-escapes are the same names.
            ("/OpenAction << /S /J#61vaScript /J#53 (x) >>", &[]),
        ];
        for (catalog, objects) in cases {
            assert_eq!(check(&sample(catalog, objects)), Err(Msg::PdfActiveContent), "{catalog} {objects:?}");
        }
    }

    #[test]
    fn what_is_no_well_formed_pdf_is_refused() {
        assert_eq!(check(b"%PDF-1.4\n<html><script>alert(document.cookie)</script></html>"), Err(Msg::InvalidPdf));
        // A real PDF that is also an HTML page in a browser.
        let mut polyglot = b"%PDF-1.7\n%<html><body><script>alert(1)</script>\n".to_vec();
        polyglot.extend_from_slice(&sample("", &[])[9..]);
        assert_eq!(check(&polyglot), Err(Msg::InvalidPdf));
        assert_eq!(check(b"%PDF-1.7\nnot a pdf at all"), Err(Msg::InvalidPdf));
        assert_eq!(check(b"PK\x03\x04 a zip"), Err(Msg::InvalidPdf));
        assert_eq!(check(b""), Err(Msg::InvalidPdf));
        // A catalog without pages.
        let mut no_pages = sample("", &[]);
        no_pages = String::from_utf8_lossy(&no_pages).replace("/Kids [3 0 R] /Count 1", "/Kids [] /Count 0").into_bytes();
        assert_eq!(check(&no_pages), Err(Msg::InvalidPdf));
    }
}

//! The one writer of every CSV and Excel export (conflict-search audit, case
//! hours, statistics, subscription time reports). A cell that starts with
//! `=`, `+`, `-`, `@`, a tab, a carriage return or NUL is read by Excel,
//! LibreOffice and Google Sheets as a formula (`=cmd|'/c calc'!A1`), so it
//! is neutralised as OWASP's CSV-injection guidance and ASVS 1.2.10 ask: a
//! leading `'` in CSV; in a workbook the cell keeps its text and carries
//! Excel's quote-prefix ("this is text") flag. Quoting and escaping of
//! separators and quotes follow RFC 4180 (the `csv` crate).

use std::borrow::Cow;

use rust_xlsxwriter::{Format, Worksheet, XlsxError};

use crate::error::ApiError;

/// Whether a spreadsheet would read `cell` as a formula.
pub fn is_formula_like(cell: &str) -> bool {
    matches!(cell.chars().next(), Some('=' | '+' | '-' | '@' | '\t' | '\r' | '\0'))
}

/// A cell as a CSV export writes it: a leading `'` before a formula-like start.
pub fn neutralised(cell: &str) -> Cow<'_, str> {
    if is_formula_like(cell) {
        Cow::Owned(format!("'{cell}"))
    } else {
        Cow::Borrowed(cell)
    }
}

/// A CSV export: every cell neutralised, optionally led by a byte-order mark
/// (Excel reads UTF-8 — å, ä, ö — only with one).
pub struct Csv {
    w: csv::Writer<Vec<u8>>,
}

impl Csv {
    pub fn new() -> Csv {
        Csv { w: csv::Writer::from_writer(Vec::new()) }
    }

    pub fn with_bom() -> Csv {
        Csv { w: csv::Writer::from_writer("\u{feff}".as_bytes().to_vec()) }
    }

    /// One line.
    pub fn row<I, S>(&mut self, cells: I) -> Result<(), ApiError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.w.write_record(cells.into_iter().map(|c| neutralised(c.as_ref()).into_owned())).map_err(ApiError::internal)
    }

    /// The file's bytes.
    pub fn finish(self) -> Result<Vec<u8>, ApiError> {
        self.w.into_inner().map_err(|e| ApiError::internal(e.to_string()))
    }
}

impl Default for Csv {
    fn default() -> Csv {
        Csv::new()
    }
}

/// Text into a workbook cell, flagged as text (Excel's quote prefix) when it
/// looks like a formula, so no edit or re-save turns it into one. `format`
/// is the cell's own format (bold…), kept.
pub fn write_text(sheet: &mut Worksheet, row: u32, col: u16, text: &str, format: Option<&Format>) -> Result<(), XlsxError> {
    match (is_formula_like(text), format) {
        (true, f) => {
            let f = f.cloned().unwrap_or_default().set_quote_prefix();
            sheet.write_string_with_format(row, col, text, &f)?;
        }
        (false, Some(f)) => {
            sheet.write_string_with_format(row, col, text, f)?;
        }
        (false, None) => {
            sheet.write_string(row, col, text)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_starts_get_a_leading_quote() {
        for bad in ["=1+1+cmd|'/c calc'!A1", "+1", "-2+3", "@SUM(A1)", "\tx", "\rx", "\0x"] {
            assert_eq!(neutralised(bad), format!("'{bad}"));
        }
        for fine in ["", "Acme", "1.25", "a=b", " =x", "'=x"] {
            assert_eq!(neutralised(fine), fine);
        }
    }

    #[test]
    fn csv_rows_are_neutralised_and_quoted_as_rfc_4180_asks() {
        let mut c = Csv::new();
        c.row(["=HYPERLINK(\"http://x\")", "a,b", "ok"]).unwrap();
        let text = String::from_utf8(c.finish().unwrap()).unwrap();
        assert_eq!(text, "\"'=HYPERLINK(\"\"http://x\"\")\",\"a,b\",ok\n");
        let mut c = Csv::with_bom();
        c.row(["x"]).unwrap();
        assert_eq!(c.finish().unwrap(), "\u{feff}x\n".as_bytes());
    }

    fn styles_of(texts: &[&str]) -> String {
        let mut book = rust_xlsxwriter::Workbook::new();
        let sheet = book.add_worksheet();
        for (i, t) in texts.iter().enumerate() {
            write_text(sheet, i as u32, 0, t, Some(&Format::new().set_bold())).unwrap();
        }
        let bytes = book.save_to_buffer().unwrap();
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        let mut styles = String::new();
        std::io::Read::read_to_string(&mut zip.by_name("xl/styles.xml").unwrap(), &mut styles).unwrap();
        styles
    }

    #[test]
    fn workbook_formula_like_text_is_flagged_as_text() {
        assert!(styles_of(&["=1+1+cmd|'/c calc'!A1"]).contains("quotePrefix=\"1\""));
        assert!(!styles_of(&["plain", "a=b"]).contains("quotePrefix"));
    }
}

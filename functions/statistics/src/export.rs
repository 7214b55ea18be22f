//! A statistics table as CSV or as an Excel workbook: the same columns and
//! numbers as the page's table (hours in hours, money in SEK, from the
//! counters' hundredths and öre).

use std::sync::OnceLock;

use rust_xlsxwriter::{Format, Workbook, XlsxError};
use serde_json::Value;
use shared::error::ApiError;
use shared::services::statistics::Table;

pub const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/// The statistics texts of the web app, so that an export's headers are
/// word for word the headers of the page's table in the reader's language.
const TEXTS_SV: &str = include_str!("../../../web/src/locales/sv/statistics.json");
const TEXTS_EN: &str = include_str!("../../../web/src/locales/en/statistics.json");

fn texts(lang: &str) -> &'static Value {
    static SV: OnceLock<Value> = OnceLock::new();
    static EN: OnceLock<Value> = OnceLock::new();
    let (cell, source) = if lang.starts_with("en") { (&EN, TEXTS_EN) } else { (&SV, TEXTS_SV) };
    cell.get_or_init(|| serde_json::from_str(source).expect("the web's statistics texts are JSON"))
}

/// A column's header in `lang` (sv unless en), found as the page finds it:
/// `column.<key>`, else the metric `metric.<key>` (its dots a path), else
/// the activity cases list's `activityCases.<key>`; `None` for a key
/// without a text (a test requires one for every column).
pub fn header_text(column: &str, lang: &str) -> Option<String> {
    let t = texts(lang);
    let path = |prefix: &str| {
        let mut v = &t[prefix];
        for part in column.split('.') {
            v = &v[part];
        }
        v.as_str().map(String::from)
    };
    t["column"][column]
        .as_str()
        .map(String::from)
        .or_else(|| path("metric"))
        .or_else(|| t["activityCases"][column].as_str().map(String::from))
}

/// A column's header in `lang` (the key itself only if it has no text).
pub fn header(column: &str, lang: &str) -> String {
    header_text(column, lang).unwrap_or_else(|| column.to_string())
}

/// Columns whose counters are hundredths (hours) or öre (money): shown in
/// whole units with two decimals.
pub fn in_hundredths(column: &str) -> bool {
    column.starts_with("hours") || column.starts_with("revenue") || column.starts_with("rate")
}

/// A cell as the exports write it.
pub fn cell(column: &str, v: &Value) -> String {
    match v {
        Value::Number(n) if in_hundredths(column) => format!("{:.2}", n.as_f64().unwrap_or(0.0) / 100.0),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The table as CSV, headers in `lang`. It starts with a byte-order mark:
/// Excel, where most readers open it, reads UTF-8 (å, ä, ö) only with one.
pub fn csv(t: &Table, lang: &str) -> Result<Vec<u8>, ApiError> {
    let mut w = shared::export::Csv::with_bom();
    w.row(t.columns.iter().map(|c| header(c, lang)))?;
    for row in &t.rows {
        w.row(row.iter().zip(&t.columns).map(|(v, c)| cell(c, v)))?;
    }
    w.finish()
}

/// The table as a workbook, headers in `lang`.
pub fn xlsx(t: &Table, sheet: &str, lang: &str) -> Result<Vec<u8>, ApiError> {
    build(t, sheet, lang).map_err(ApiError::internal)
}

fn build(t: &Table, sheet_name: &str, lang: &str) -> Result<Vec<u8>, XlsxError> {
    let bold = Format::new().set_bold();
    let num = Format::new().set_num_format("0.00");
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    sheet.set_name(sheet_name.chars().take(31).collect::<String>())?;
    for (c, name) in t.columns.iter().enumerate() {
        shared::export::write_text(sheet, 0, c as u16, &header(name, lang), Some(&bold))?;
    }
    for (r, row) in t.rows.iter().enumerate() {
        let r = r as u32 + 1;
        for (c, (v, col)) in row.iter().zip(&t.columns).enumerate() {
            let c = c as u16;
            match v {
                Value::Number(n) if in_hundredths(col) => {
                    sheet.write_number_with_format(r, c, n.as_f64().unwrap_or(0.0) / 100.0, &num)?;
                }
                Value::Number(n) => {
                    sheet.write_number(r, c, n.as_f64().unwrap_or(0.0))?;
                }
                other => {
                    shared::export::write_text(sheet, r, c, &cell(col, other), None)?;
                }
            }
        }
    }
    book.save_to_buffer()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_the_pages_texts_in_the_readers_language() {
        assert_eq!(header("hours.billable", "sv"), "Debiterbara timmar");
        assert_eq!(header("hours.billable", "en"), "Billable hours");
        assert_eq!(header("period", "en"), "Period");
        assert_eq!(header("avg_close_days", "sv"), "Snittid till stängt (dagar)");
        assert_eq!(header("case_number", "en"), "Case number");
        assert_eq!(header("customers.state.inactive", "sv"), "Inaktiva");
        // Not a leaf (a group of texts): no header text.
        assert_eq!(header_text("hours", "en").as_deref(), Some("Hours"));
        assert_eq!(header_text("cases.status", "en"), None);
        assert_eq!(header_text("no_such_column", "sv"), None);
    }

    #[test]
    fn csv_has_a_byte_order_mark_and_translated_headers() {
        let t = Table {
            columns: vec!["period".into(), "hours.total".into()],
            rows: vec![vec![serde_json::json!("2026-11"), serde_json::json!(125)]],
        };
        let text = String::from_utf8(csv(&t, "sv").unwrap()).unwrap();
        assert_eq!(text, "\u{feff}Period,Timmar\n2026-11,1.25\n");
    }

    #[test]
    fn exports_neutralise_formula_cells() {
        let t = Table {
            columns: vec!["case_number".into(), "subject".into()],
            rows: vec![vec![serde_json::json!("2026-000001"), serde_json::json!("=1+1+cmd|'/c calc'!A1")]],
        };
        let text = String::from_utf8(csv(&t, "en").unwrap()).unwrap();
        assert_eq!(text.lines().nth(1).unwrap(), "2026-000001,'=1+1+cmd|'/c calc'!A1");
        let book = xlsx(&t, "activity-cases", "en").unwrap();
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(book)).unwrap();
        let mut styles = String::new();
        std::io::Read::read_to_string(&mut zip.by_name("xl/styles.xml").unwrap(), &mut styles).unwrap();
        assert!(styles.contains("quotePrefix=\"1\""), "{styles}");
    }
}

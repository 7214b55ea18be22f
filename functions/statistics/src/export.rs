//! A statistics table as CSV or as an Excel workbook: the same columns and
//! numbers as the page's table (hours in hours, money in SEK, from the
//! counters' hundredths and öre).

use rust_xlsxwriter::{Format, Workbook, XlsxError};
use serde_json::Value;
use shared::error::ApiError;
use shared::services::statistics::Table;

pub const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

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

pub fn csv(t: &Table) -> Result<Vec<u8>, ApiError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(&t.columns).map_err(ApiError::internal)?;
    for row in &t.rows {
        w.write_record(row.iter().zip(&t.columns).map(|(v, c)| cell(c, v))).map_err(ApiError::internal)?;
    }
    w.into_inner().map_err(|e| ApiError::internal(e.to_string()))
}

pub fn xlsx(t: &Table, sheet: &str, _lang: &str) -> Result<Vec<u8>, ApiError> {
    build(t, sheet).map_err(ApiError::internal)
}

fn build(t: &Table, sheet_name: &str) -> Result<Vec<u8>, XlsxError> {
    let bold = Format::new().set_bold();
    let num = Format::new().set_num_format("0.00");
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    sheet.set_name(sheet_name.chars().take(31).collect::<String>())?;
    for (c, name) in t.columns.iter().enumerate() {
        sheet.write_string_with_format(0, c as u16, name, &bold)?;
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
                    sheet.write_string(r, c, cell(col, other))?;
                }
            }
        }
    }
    book.save_to_buffer()
}

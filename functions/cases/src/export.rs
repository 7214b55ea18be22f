//! A case's hours as an Excel workbook (spec §7 `case/hour/excel/`): real
//! numbers and dates, so the customer's or the firm's spreadsheet can sum
//! and filter them in either locale, which a CSV cannot promise (Swedish
//! Excel splits on ';' and reads '1.5' as text).

use rust_xlsxwriter::{ExcelDateTime, Format, Workbook, XlsxError};
use shared::domain::case::{Case, CaseHour};
use shared::domain::catalogue::Hundredths;
use shared::error::ApiError;

pub const XLSX_CONTENT_TYPE: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/// Column titles and words in the two interface languages (Swedish default).
struct Words {
    sheet: &'static str,
    case: &'static str,
    columns: [&'static str; 8],
    yes: &'static str,
    no: &'static str,
    total: &'static str,
}

const SV: Words = Words {
    sheet: "Timmar",
    case: "Ärende",
    columns: ["Datum", "Tid", "Jurist", "Debiterbara timmar", "Ej debiterbara timmar", "Rättsskyddstimmar", "Fakturerad", "Beskrivning"],
    yes: "Ja",
    no: "Nej",
    total: "Summa",
};

const EN: Words = Words {
    sheet: "Hours",
    case: "Case",
    columns: ["Date", "Time", "Lawyer", "Billable hours", "Non-billable hours", "Rättsskydd hours", "Invoiced", "Description"],
    yes: "Yes",
    no: "No",
    total: "Total",
};

fn hours(h: Hundredths) -> f64 {
    h.0 as f64 / 100.0
}

/// The workbook bytes: a title row, the column titles, one row per entry
/// (as listed: newest first) and a totals row.
pub fn hours_workbook(case: &Case, entries: &[CaseHour], lang: &str) -> Result<Vec<u8>, ApiError> {
    build(case, entries, if lang.starts_with("en") { &EN } else { &SV }).map_err(ApiError::internal)
}

fn build(case: &Case, entries: &[CaseHour], w: &Words) -> Result<Vec<u8>, XlsxError> {
    let bold = Format::new().set_bold();
    let date = Format::new().set_num_format("yyyy-mm-dd");
    let num = Format::new().set_num_format("0.00");
    let total = Format::new().set_bold().set_num_format("0.00").set_border_top(rust_xlsxwriter::FormatBorder::Thin);

    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    sheet.set_name(w.sheet)?;
    sheet.write_string_with_format(0, 0, format!("{} {} – {} ({})", w.case, case.case_number, case.subject, case.customer_name), &bold)?;
    for (c, title) in w.columns.iter().enumerate() {
        sheet.write_string_with_format(2, c as u16, *title, &bold)?;
    }
    let mut sums = [Hundredths::ZERO; 3];
    let mut row = 3u32;
    for h in entries {
        let d = &h.date;
        use chrono::Datelike;
        sheet.write_datetime_with_format(row, 0, ExcelDateTime::from_ymd(d.year() as u16, d.month() as u8, d.day() as u8)?, &date)?;
        sheet.write_string(row, 1, &h.time)?;
        sheet.write_string(row, 2, &h.lawyer_name)?;
        for (i, v) in [h.hour, h.non_billable_hour, h.rattsskydd_hour].into_iter().enumerate() {
            sheet.write_number_with_format(row, 3 + i as u16, hours(v), &num)?;
            sums[i] = sums[i] + v;
        }
        sheet.write_string(row, 6, if h.is_invoiced { w.yes } else { w.no })?;
        sheet.write_string(row, 7, &h.description)?;
        row += 1;
    }
    sheet.write_string_with_format(row, 0, w.total, &bold)?;
    for (i, v) in sums.into_iter().enumerate() {
        sheet.write_number_with_format(row, 3 + i as u16, hours(v), &total)?;
    }
    sheet.set_freeze_panes(3, 0)?;
    for (c, width) in [12, 8, 24, 18, 20, 18, 11, 48].into_iter().enumerate() {
        sheet.set_column_width(c as u16, width)?;
    }
    book.save_to_buffer()
}

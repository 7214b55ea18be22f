//! A case's hours as an Excel workbook (spec §7 `case/hour/excel/`): real
//! numbers and dates, so the customer's or the firm's spreadsheet can sum
//! and filter them in either locale, which a CSV cannot promise (Swedish
//! Excel splits on ';' and reads '1.5' as text).

use rust_xlsxwriter::{ExcelDateTime, Format, Workbook, XlsxError};
use shared::domain::case::{Case, CaseHour};
use shared::domain::catalogue::Hundredths;
use shared::error::ApiError;
use shared::export::write_text;

pub const XLSX_CONTENT_TYPE: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/// Column titles and words, each as `[Swedish, English]` (Swedish the
/// default): one table, so a text cannot be added in one language only.
struct Words {
    sheet: [&'static str; 2],
    case: [&'static str; 2],
    columns: [[&'static str; 2]; 8],
    yes: [&'static str; 2],
    no: [&'static str; 2],
    total: [&'static str; 2],
}

const WORDS: Words = Words {
    sheet: ["Timmar", "Hours"],
    case: ["Ärende", "Case"],
    columns: [
        ["Datum", "Date"],
        ["Tid", "Time"],
        ["Jurist", "Lawyer"],
        ["Debiterbara timmar", "Billable hours"],
        ["Ej debiterbara timmar", "Non-billable hours"],
        ["Rättsskyddstimmar", "Rättsskydd hours"],
        ["Fakturerad", "Invoiced"],
        ["Beskrivning", "Description"],
    ],
    yes: ["Ja", "Yes"],
    no: ["Nej", "No"],
    total: ["Summa", "Total"],
};

fn hours(h: Hundredths) -> f64 {
    h.0 as f64 / 100.0
}

/// The workbook bytes: a title row, the column titles, one row per entry
/// (as listed: newest first) and a totals row.
pub fn hours_workbook(case: &Case, entries: &[CaseHour], lang: &str) -> Result<Vec<u8>, ApiError> {
    build(case, entries, usize::from(lang.starts_with("en"))).map_err(ApiError::internal)
}

/// `l`: the language's column in [`WORDS`] (0 Swedish, 1 English).
fn build(case: &Case, entries: &[CaseHour], l: usize) -> Result<Vec<u8>, XlsxError> {
    let bold = Format::new().set_bold();
    let date = Format::new().set_num_format("yyyy-mm-dd");
    let num = Format::new().set_num_format("0.00");
    let total = Format::new().set_bold().set_num_format("0.00").set_border_top(rust_xlsxwriter::FormatBorder::Thin);

    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    let w = &WORDS;
    sheet.set_name(w.sheet[l])?;
    let title = format!("{} {} – {} ({})", w.case[l], case.case_number, case.subject, case.customer_name);
    write_text(sheet, 0, 0, &title, Some(&bold))?;
    for (c, title) in w.columns.iter().enumerate() {
        sheet.write_string_with_format(2, c as u16, title[l], &bold)?;
    }
    let mut sums = [Hundredths::ZERO; 3];
    let mut row = 3u32;
    for h in entries {
        let d = &h.date;
        use chrono::Datelike;
        sheet.write_datetime_with_format(row, 0, ExcelDateTime::from_ymd(d.year() as u16, d.month() as u8, d.day() as u8)?, &date)?;
        write_text(sheet, row, 1, &h.time, None)?;
        write_text(sheet, row, 2, &h.lawyer_name, None)?;
        for (i, v) in [h.hour, h.non_billable_hour, h.rattsskydd_hour].into_iter().enumerate() {
            sheet.write_number_with_format(row, 3 + i as u16, hours(v), &num)?;
            sums[i] = sums[i] + v;
        }
        sheet.write_string(row, 6, if h.is_invoiced { w.yes[l] } else { w.no[l] })?;
        write_text(sheet, row, 7, &h.description, None)?;
        row += 1;
    }
    sheet.write_string_with_format(row, 0, w.total[l], &bold)?;
    for (i, v) in sums.into_iter().enumerate() {
        sheet.write_number_with_format(row, 3 + i as u16, hours(v), &total)?;
    }
    sheet.set_freeze_panes(3, 0)?;
    for (c, width) in [12, 8, 24, 18, 20, 18, 11, 48].into_iter().enumerate() {
        sheet.set_column_width(c as u16, width)?;
    }
    book.save_to_buffer()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::domain::case::CaseType;

    #[test]
    fn hours_workbook_flags_formula_like_text_as_text() {
        let at = chrono::Utc::now();
        let case = Case::draft(
            "c1".into(),
            "2026-000001".into(),
            "u1".into(),
            "Acme".into(),
            CaseType { id: 1, name: "Hyresrätt".into(), name_en: None },
            "a".into(),
            at,
        );
        let hour = |description: &str| CaseHour {
            id: "h1".into(),
            case_uid: "c1".into(),
            lawyer: "l1".into(),
            lawyer_name: "Lena".into(),
            hour: Hundredths(150),
            non_billable_hour: Hundredths::ZERO,
            rattsskydd_hour: Hundredths::ZERO,
            date: at.date_naive(),
            time: String::new(),
            is_invoiced: false,
            service: None,
            description: description.into(),
            created_at: at,
        };
        let styles = |h: CaseHour| {
            let book = hours_workbook(&case, &[h], "sv").unwrap();
            let mut zip = zip::ZipArchive::new(std::io::Cursor::new(book)).unwrap();
            let mut styles = String::new();
            std::io::Read::read_to_string(&mut zip.by_name("xl/styles.xml").unwrap(), &mut styles).unwrap();
            styles
        };
        assert!(styles(hour("=1+1+cmd|'/c calc'!A1")).contains("quotePrefix=\"1\""));
        assert!(!styles(hour("Genomgång av avtal")).contains("quotePrefix"));
    }
}

//! Swedish identity numbers (organisationsnummer, personnummer, samordningsnummer):
//! their shapes (with or without century, dash or plus; inside a text; as a
//! VAT number) and the Luhn check digit. Cases (the counterpart), contacts,
//! add-ons, debt collection and the conflict search read them here.

use crate::error::Msg;

/// The ten digits that identify a company or a person: an organisationsnummer
/// (XXXXXX-XXXX) or a personnummer with or without century and dash.
pub fn identity_number(text: &str) -> Option<String> {
    let t = text.trim();
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit() || c == '-' || c == '+' || c == ' ') {
        return None;
    }
    let digits: String = t.chars().filter(char::is_ascii_digit).collect();
    match digits.len() {
        10 => Some(digits),
        12 if digits.starts_with("19") || digits.starts_with("20") || digits.starts_with("16") || digits.starts_with("18") => {
            Some(digits[2..].to_string())
        }
        _ => None,
    }
}

/// Identity numbers written anywhere in a text ("Acme 556677-8899"): ten
/// or twelve digits, with at most a dash or plus before the last four
/// (so a case number such as 2026-000012 is not one).
pub fn identity_numbers_in(text: &str) -> Vec<String> {
    let mut out = vat_numbers_in(text);
    out.extend(
        text.split(|c: char| !(c.is_ascii_digit() || c == '-' || c == '+'))
            .map(|t| t.trim_matches(|c| c == '-' || c == '+'))
            .filter(|t| {
                let digits = t.chars().filter(char::is_ascii_digit).count();
                match t.find(['-', '+']) {
                    None => true,
                    Some(i) => t.len() - i == 5 && t[i + 1..].chars().all(|c| c.is_ascii_digit()) && digits >= 10,
                }
            })
            .filter_map(identity_number),
    );
    out.sort();
    out.dedup();
    out
}

/// Organisation numbers written as Swedish VAT numbers ('SE556016068001',
/// 'SE 556016-0680 01'): SE, the ten digits, 01.
fn vat_numbers_in(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    for i in 0..chars.len().saturating_sub(1) {
        let starts_word = i == 0 || !chars[i - 1].is_alphanumeric();
        if !(starts_word && chars[i].eq_ignore_ascii_case(&'s') && chars[i + 1].eq_ignore_ascii_case(&'e')) {
            continue;
        }
        let mut digits = String::new();
        let mut j = i + 2;
        while j < chars.len() && digits.len() < 13 && (chars[j].is_ascii_digit() || chars[j] == ' ' || chars[j] == '-') {
            if chars[j].is_ascii_digit() {
                digits.push(chars[j]);
            }
            j += 1;
        }
        if digits.len() == 12 && digits.ends_with("01") {
            out.push(digits[..10].to_string());
        }
    }
    out
}

/// The identity numbers written in a text whose check digit is right: only
/// these can make a hit by number (a mistyped number is never a certain hit).
pub fn checked_numbers_in(text: &str) -> Vec<String> {
    identity_numbers_in(text).into_iter().filter(|n| luhn_ok(n)).collect()
}

/// The Luhn check of the last ten digits (what Skatteverket's numbers carry).
pub fn luhn_ok(ten_digits: &str) -> bool {
    if ten_digits.len() != 10 || !ten_digits.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let sum: u32 = ten_digits
        .bytes()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0') * if i % 2 == 0 { 2 } else { 1 };
            if d > 9 {
                d - 9
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// An organisationsnummer or personnummer as typed on a form (optional):
/// ten digits, or twelve with the century (16, 18, 19, 20), with or without
/// a dash (or a plus) before the last four, and a right check digit.
/// Empty is `Ok(None)`; a valid number is kept as `XXXXXX-XXXX`.
pub fn parse_identity_number(raw: &str) -> Result<Option<String>, Msg> {
    let t = raw.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let shaped = identity_numbers_in(t);
    let whole = identity_number(t);
    match whole {
        Some(n) if shaped.contains(&n) && luhn_ok(&n) => Ok(Some(format!("{}-{}", &n[..6], &n[6..]))),
        _ => Err(Msg::InvalidIdentityNumber),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_numbers_with_or_without_dash_or_century() {
        assert_eq!(identity_number("556677-8899").as_deref(), Some("5566778899"));
        assert_eq!(identity_number("5566778899").as_deref(), Some("5566778899"));
        assert_eq!(identity_number("19800101-1234").as_deref(), Some("8001011234"));
        assert_eq!(identity_number("800101-1234").as_deref(), Some("8001011234"));
        assert_eq!(identity_number("12345"), None);
        assert_eq!(identity_number("abc"), None);
    }

    #[test]
    fn identity_numbers_are_checked_with_luhn() {
        assert_eq!(parse_identity_number("556036-0793"), Ok(Some("556036-0793".into())));
        assert_eq!(parse_identity_number("5560360793"), Ok(Some("556036-0793".into())));
        assert_eq!(parse_identity_number("16556036-0793"), Ok(Some("556036-0793".into())));
        assert_eq!(parse_identity_number("19811218-9876"), Ok(Some("811218-9876".into())));
        assert_eq!(parse_identity_number("198112189876"), Ok(Some("811218-9876".into())));
        assert_eq!(parse_identity_number("811218+9876"), Ok(Some("811218-9876".into())));
        assert_eq!(parse_identity_number("  "), Ok(None));
        for bad in ["556036-0794", "811218-9875", "55603-60793", "12345", "abc", "5560360793x"] {
            assert_eq!(parse_identity_number(bad), Err(crate::error::Msg::InvalidIdentityNumber), "{bad}");
        }
    }
}

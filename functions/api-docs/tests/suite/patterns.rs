//! Each pattern the document gives a field says what the server's check of
//! that field accepts: both run on the same samples (valid and invalid
//! ones, the edges of each rule) and must agree.

use api_docs::patterns::*;
use shared::domain::{
    academy::embed_url,
    contact::normalize_phone,
    customer::{is_valid_phone, is_valid_post_code},
    identity_number,
    user::is_valid_email,
};

fn re(p: &str) -> regex::Regex {
    regex::Regex::new(p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

fn agree(name: &str, pattern: &str, samples: &[&str], check: impl Fn(&str) -> bool) {
    let r = re(pattern);
    let wrong: Vec<_> = samples.iter().filter(|s| r.is_match(s) != check(s)).map(|s| (s, check(s))).collect();
    assert!(wrong.is_empty(), "{name}: pattern and server disagree on (sample, server accepts) {wrong:?}");
}

#[test]
fn phone_patterns_are_the_servers_checks() {
    let samples = [
        "+46701234567",
        "070-123 45 67",
        "0701234567-",
        "1234567",
        "123456",
        "+1234567",
        "123456789012345",
        "1234567890123456",
        "+46 70 123 45 67 ",
        "+",
        "",
        "46+701234567",
        "070abc1234",
        "-0701234567",
        "(070) 123 45 67",
        "+46 (0)70-123 45 67",
        "070--123--45--67----------------",
        "0 7 0 1 2 3 4 5 6 7 8 9 0 1 2",
        "0 7 0 1 2 3 4 5 6 7 8 9 0 1 2 3",
    ];
    // The customer's phone: maxLength 30 beside the pattern.
    let short: Vec<&str> = samples.iter().filter(|s| s.chars().count() <= 30).copied().collect();
    agree("PHONE", PHONE, &short, is_valid_phone);
    let r = re(PHONE);
    for s in samples.iter().filter(|s| r.is_match(s)) {
        assert_eq!(s.chars().count() <= 30, is_valid_phone(s), "{s}");
    }
    agree("CONTACT_PHONE", CONTACT_PHONE, &samples, |s| normalize_phone(Some(s)).is_ok());
    agree("CONTACT_PHONE", CONTACT_PHONE, &["  ", " +46 70 ", " +46 701 23 45 67 ", "+(46)7012345", "(+46)7012345"], |s| {
        normalize_phone(Some(s)).is_ok()
    });
    let r = re(RECIPIENT_PHONE);
    for (s, ok) in [("+46 70-123 45 67", true), ("", true), ("070abc", false), ("123456789012345678901", false), ("(070) 1", false)] {
        assert_eq!(r.is_match(s), ok, "{s}");
    }
}

#[test]
fn identity_number_patterns_are_the_servers_shape() {
    // Right check digits: the server accepts exactly what the pattern does.
    let valid = ["556016-0680", "5560160680", "16556016-0680", "198112189876", "19811218-9876", "811218+9876", "  5560160680  "];
    let wrong_shape = ["556016 0680", "55601-60680", "556016-068", "SE556016068001", "21556016-0680", "556016--0680", "x5560160680"];
    let all: Vec<&str> = valid.iter().chain(wrong_shape.iter()).copied().collect();
    for (name, pattern) in [("IDENTITY_NUMBER", IDENTITY_NUMBER), ("ORGANISATION_NUMBER", ORGANISATION_NUMBER)] {
        agree(name, pattern, &all, |s| matches!(identity_number::parse_identity_number(s), Ok(Some(_))));
    }
    assert!(re(IDENTITY_NUMBER).is_match(""), "an identity number may be left empty");
    // A wrong check digit fits the pattern; only the server refuses it.
    assert!(re(IDENTITY_NUMBER).is_match("556016-0681"));
    assert!(identity_number::parse_identity_number("556016-0681").is_err());
}

#[test]
fn the_video_url_pattern_is_the_players_allow_list() {
    let samples = [
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=3",
        "https://youtu.be/dQw4w9WgXcQ",
        "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
        "https://vimeo.com/76979871",
        "https://player.vimeo.com/video/76979871?h=1",
        "http://m.youtube.com/shorts/dQw4w9WgXcQ",
        "https://youtube.com/watch?feature=share&v=dQw4w9WgXcQ",
        "https://youtube.com/embed/dQw4w9WgXcQ/",
        " https://youtu.be/dQw4w9WgXcQ ",
        "https://evil.example/watch?v=dQw4w9WgXcQ",
        "https://youtu.be/short",
        "https://youtu.be/",
        "https://vimeo.com/abc",
        "https://vimeo.com/1234567890123",
        "ftp://youtu.be/dQw4w9WgXcQ",
        "https://youtube.com.evil.example/embed/dQw4w9WgXcQ",
        "javascript:alert(1)",
        "https://youtu.be/dQw4w9WgXcQ!",
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ#t=1",
    ];
    agree("VIDEO_URL", VIDEO_URL, &samples, |s| embed_url(s).is_some());
    assert!(re(VIDEO_URL).is_match(""), "a lesson may have no video");
}

#[test]
fn the_email_pattern_is_the_servers_check() {
    let samples = [
        "a@b.se",
        "a@b",
        "@b.se",
        "a b@c.se",
        "a@@c.se",
        "a@.b.se",
        "a@b.se.",
        "a@b..se",
        " a@b.se ",
        "a.b+c@d-e.f.g",
        "a@b.c@d.e",
        "ä@ö.se",
        "a@b\u{a0}.se",
    ];
    agree("EMAIL", EMAIL, &samples, is_valid_email);
}

#[test]
fn the_address_patterns_say_the_servers_rules() {
    let cases: &[(&str, &[(&str, bool)])] = &[
        (
            HOME_PAGE,
            &[
                ("", true),
                ("https://example.com", true),
                ("http://x", true),
                (" https://a b", true),
                ("example.com", false),
                ("ftp://x", false),
            ],
        ),
        (
            VIDEO_CARE_URL,
            &[
                ("", true),
                ("https://meet.example/room", true),
                ("https://a b", false),
                ("javascript:alert(1)", false),
                (&*format!("https://{}", "x".repeat(492)), true),
                (&*format!("https://{}", "x".repeat(493)), false),
            ],
        ),
        (CASE_POST_CODE, &[("", true), ("11122", true), ("SW1A 1AA", true), ("0150", true), ("12345678901", false), ("123_45", false)]),
    ];
    for (pattern, samples) in cases {
        let r = re(pattern);
        for (s, ok) in *samples {
            assert_eq!(r.is_match(s), *ok, "{pattern} on {s:?}");
        }
    }
}

#[test]
fn the_post_code_pattern_is_the_servers_check() {
    let samples = ["11122", "111 22", "1112", "111222", "1112a", "", " 11122", "١١١٢٢"];
    agree("POST_CODE", POST_CODE, &samples, is_valid_post_code);
}

#[test]
fn the_month_patterns_are_the_servers_checks() {
    let samples = [
        "2026-03",
        " 2026-03 ",
        "1900-01",
        "2100-12",
        "1899-12",
        "2101-01",
        "0000-00",
        "2026-00",
        "2026-13",
        "2026-3",
        "+2026-03",
        "2026-03x",
        "March",
        "2026-03-15",
        "2026-03-31",
        "2026-04-31",
        "2026-02-28",
        "2026-02-29",
        "2028-02-29",
        "2000-02-29",
        "1900-02-29",
        "2100-02-29",
        "1904-02-29",
        "2026-03-00",
        "2026-03-40",
        "2026-03- 5",
        "2026-03-5",
    ];
    agree("MONTH_OR_DATE", MONTH_OR_DATE, &samples, |s| shared::domain::additional_hour::parse_month(s).is_some());
    // The audit export's month: no day; blank is this month.
    agree("MONTH", MONTH, &samples, |s| shared::domain::calendar::parse_month(s).is_some());
    assert!(re(MONTH).is_match("") && re(MONTH).is_match("  "), "a blank month is this month");
    assert!(!re(MONTH_OR_DATE).is_match(""), "an additional hour's month is required");
}

#[test]
fn the_bank_patterns_are_the_servers_shapes() {
    use shared::domain::addons::{valid_bank_giro, valid_bic, valid_iban, valid_plus_giro};
    // Right check digits: the server accepts exactly what the pattern does.
    let ibans = ["SE45 5000 0000 0583 9825 7466", "se4550000000058398257466", "GB82WEST12345698765432", " SE4550000000058398257466 "];
    let wrong_shape =
        ["SE4", "S145500000000583982574", "SEX550000000058398257466", "SE45-5000-0000-0583", "SE45500000000583982574660000000000000"];
    let all: Vec<&str> = ibans.iter().chain(wrong_shape.iter()).copied().collect();
    agree("IBAN", IBAN, &all, valid_iban);
    assert!(re(IBAN).is_match(""), "no IBAN");
    // A wrong check digit fits the pattern; only the server refuses it.
    assert!(re(IBAN).is_match("SE45 5000 0000 0583 9825 7467") && !valid_iban("SE45 5000 0000 0583 9825 7467"));
    let bics = ["ESSESESS", "essesess", "ESSESESSXXX", " ESSESESS ", "ESSE", "ESSESES", "ESSESESSX", "1SSESESS", "ESSESE-S", "aaaaaÅa"];
    agree("BIC", BIC, &bics, valid_bic);
    // Giro numbers: Luhn-valid samples of each length, and shapes.
    let plus = ["4100-4", "41004", "4 1 0 0 4", "9-1", "1", "123456789", "41o04", "4100\t4"];
    agree("PLUS_GIRO", PLUS_GIRO, &plus, valid_plus_giro);
    agree("BANK_GIRO", BANK_GIRO, &["5050-1055", "50501055", "1234", "505010550", "5050-105x"], valid_bank_giro);
}

#[test]
fn the_file_name_patterns_are_the_servers_checks() {
    use shared::domain::document::{display_name, type_of_name};
    let samples = [
        "avtal.pdf",
        "Avtal.PDF",
        "bild.jpeg",
        "bild.JPG",
        "tabell.xlsx",
        "brev.docx",
        "bild.png ",
        "C:\\Users\\anna\\avtal.pdf",
        "mapp/avtal.pdf",
        "mapp/.pdf",
        ".pdf",
        "..avtal.pdf",
        " .pdf",
        "\"avtal.pdf\"",
        "avtal.pdf\u{0}",
        "avtal.pdf\u{202e}",
        "\u{202e}.pdf",
        "avtal",
        "avtal.exe",
        "avtal.pdf.exe",
        "avtal.pd f",
        "Hyresrätt",
        "",
        "a\u{1b}]x.pdf",
    ];
    agree("FILE_NAME", FILE_NAME, &samples, |s| display_name(s).and_then(|n| type_of_name(&n)).is_some());
    let pdf = |s: &str| s.trim().to_ascii_lowercase().ends_with(".pdf") && display_name(s).and_then(|n| type_of_name(&n)).is_some();
    agree("PDF_FILE_NAME", PDF_FILE_NAME, &samples, pdf);
    agree("PDF_NAME", PDF_NAME, &samples, |s| s.trim().to_ascii_lowercase().ends_with(".pdf"));
}

#[test]
fn filter_patterns_are_the_servers_checks() {
    use shared::domain::{notification::categories, permissions::Permission, support::TicketStatus};
    let filters = [
        "",
        " ",
        ",",
        "case",
        "message",
        "others",
        "case,others",
        " case , others ",
        "case,,message,",
        ",others",
        "case, message ,others",
        "casemessage",
        "case others",
        "Case",
        "cases",
        "case,x",
        "x",
        "message;case",
        "case,\u{8b}",
    ];
    agree("CATEGORIES", CATEGORIES, &filters, |s| categories(Some(s)).is_ok());
    let statuses = ["open", " answered ", "closed\n", "", " ", "Open", "opened", "open,closed", "\u{8b}open"];
    // Nothing is every status (services::support::list).
    agree("TICKET_STATUS", TICKET_STATUS, &statuses, |s| s.trim().is_empty() || TicketStatus::parse(s).is_some());
    let states = ["", " ", "active", " pending ", "inactive\n", "all", "All", "activ", "active,all", "\u{8b}"];
    agree("CUSTOMER_LIST_STATE", CUSTOMER_LIST_STATE, &states, |s| shared::domain::customer::list_state(Some(s)).is_ok());
    let codes = ["add_case", " view_time_bank ", "chat_in_cases", "", "admin", "add_case,view_contact", "ADD_CASE", "view_all_cases\t"];
    agree("permission_code", &permission_code(), &codes, |s| Permission::from_code(s).is_some());
    for p in Permission::ALL {
        assert!(re(&permission_code()).is_match(p.code()), "{}", p.code());
    }
}

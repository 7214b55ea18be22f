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
        "a@ö.se",
        "a@b\u{a0}.se",
        "a(b@c.se",
        "\"x\"@c.se",
        "a,b@c.se",
        "a..b@c.se",
        "a@-c.se",
        "a@c-.se",
        "a@c_d.se",
        "a@b×c.se",
        "o'brien+x@exempel.se",
        "A1!#$%&'*+/=?^_`{|}~-@b.se",
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

/// Every string over `alphabet` of up to `len` characters.
fn every_string(alphabet: &[char], len: usize) -> Vec<String> {
    let mut all = vec![String::new()];
    let mut last = vec![String::new()];
    for _ in 0..len {
        last = last.iter().flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}"))).collect();
        all.extend(last.iter().cloned());
    }
    all
}

#[test]
fn the_visible_text_pattern_is_the_servers_cleaning() {
    use shared::domain::text::{clean_long, clean_name, shows};
    let r = re(&visible());
    // The escape sequences' parts, text that shows (ASCII and not), and
    // what shows nothing (space, line breaks, NUL, zero-width, bidi).
    let alphabet =
        ['\u{1b}', '\u{9b}', '\u{9d}', '\u{7}', '\u{9c}', '[', ']', '\\', '1', 'm', ' ', 'ä', '\u{200B}', '\n', '\r', '\u{202E}'];
    let mut wrong = vec![];
    for s in every_string(&alphabet, 4) {
        let kept = !clean_name(&s).is_empty();
        assert_eq!(kept, !clean_long(&s).is_empty(), "{s:?}: a name and a long text keep the same");
        if r.is_match(&s) != kept {
            wrong.push((s, kept));
        }
    }
    // Longer ones, drawn (a fixed linear congruential sequence).
    let mut x: u64 = 22;
    for _ in 0..100_000 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let len = 5 + (x >> 60) as usize;
        let s: String = (0..len)
            .map(|i| {
                let n = x.rotate_left(7 * i as u32) >> 59;
                alphabet[n as usize % alphabet.len()]
            })
            .collect();
        let kept = !clean_name(&s).is_empty();
        if r.is_match(&s) != kept {
            wrong.push((s, kept));
        }
    }
    assert!(wrong.is_empty(), "pattern and server disagree on (text, server keeps some) {:?}", &wrong[..wrong.len().min(20)]);
    // Each character alone: it shows or it does not (the classes are the rule's).
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        let s = c.to_string();
        if r.is_match(&s) != shows(c) {
            panic!("{c:?}: pattern {} but shows() {}", r.is_match(&s), shows(c));
        }
    }
    for ok in ["Anna", " a ", "\u{1b}[31mröd", "\u{1b}]0;titel\u{7}x", "\u{1b}Xy", "👩\u{200D}⚖️"] {
        assert!(r.is_match(ok), "{ok:?}");
    }
    for blank in ["", "  ", "\u{1}", "\u{8b}", "\u{200B}", "\u{1b}[31m", "\u{1b}]8;;http://x\u{1b}\\", "\u{1b}X", "\u{202E}\n"] {
        assert!(!r.is_match(blank), "{blank:?}");
    }
}

#[test]
fn the_space_class_is_what_trim_removes() {
    let r = re(&format!("^{}$", space()));
    let kept = re(&not_space());
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        assert_eq!(r.is_match(&c.to_string()), c.is_whitespace(), "{c:?}");
        assert_eq!(kept.is_match(&c.to_string()), !c.is_whitespace(), "{c:?}");
    }
    // A required name the server only trims (e.g. a package's).
    let names = ["Paket", " x ", "", " \n\t", "\u{a0}", "\u{1f}", "\u{200B}", "\u{85}", "\u{feff}"];
    agree("not_space", &not_space(), &names, |s| {
        shared::domain::catalogue::validate_package(s, Default::default(), Default::default(), 0).get("name").is_empty()
    });
}

#[test]
fn the_uid_pattern_is_the_servers_reading() {
    #[derive(serde::Deserialize)]
    struct F {
        #[serde(default, deserialize_with = "shared::domain::text::clean::opt_uuid")]
        #[allow(dead_code)]
        uid: Option<String>,
    }
    let hyphens = "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a00";
    let samples = [
        hyphens.to_string(),
        hyphens.to_uppercase(),
        hyphens.replace('-', ""),
        format!("{{{hyphens}}}"),
        format!("urn:uuid:{hyphens}"),
        format!("URN:UUID:{hyphens}"),
        format!("urn:uid:{hyphens}"),
        format!("{{{hyphens}"),
        format!("{hyphens}}}"),
        format!(" {hyphens}"),
        format!("{hyphens} "),
        hyphens[..35].to_string(),
        format!("{hyphens}0"),
        hyphens.replace('b', "g"),
        "0b7e2c1a5d7f-4c3e-9a1b-2f6d8e4c1a00".to_string(),
        String::new(),
        " ".to_string(),
        "x".to_string(),
    ];
    let r = re(UUID);
    for s in &samples {
        let server = serde_json::from_value::<F>(serde_json::json!({"uid": s})).is_ok();
        assert_eq!(r.is_match(s), server, "{s:?}");
    }
}

#[test]
fn the_day_patterns_are_the_servers_readings() {
    let days = [
        "2026-11-24",
        " 2026-11-24 ",
        "2026-11-24T10:00",
        "2026-11-24x",
        "1900-01-01",
        "2100-12-31",
        "1899-12-31",
        "2101-01-01",
        "0115-12-13",
        "2026-02-29",
        "2028-02-29",
        "2026-04-31",
        "2026-13-01",
        "",
        " ",
        "24/11/2026",
        "\u{a0}2026-11-24",
        "\u{1f}2026-11-24",
    ];
    // A case form's start: its first ten characters, spaces trimmed.
    let case = |s: &str| {
        let form: shared::domain::case::CaseForm = serde_json::from_value(serde_json::json!({"start_date": s})).unwrap();
        shared::domain::case::validate(&form).err().is_none_or(|e| !e.fields().has("start_date"))
    };
    agree("day_first", &day_first(), &days, case);
    agree("day_only", &day_only(), &days, |s| shared::domain::subscription::parse_date(s).is_some());
}

#[test]
fn the_meeting_start_pattern_is_a_whole_minute_the_server_reads() {
    let starts = [
        "2026-12-01T09:00:00+01:00",
        "2026-12-01T09:00:00Z",
        "2026-12-01t09:15:00z",
        "2026-12-01 09:15:00Z",
        "2026-12-01T09:00:00.000Z",
        "2026-12-01T09:00:00.000000000Z",
        "2026-12-01T09:00:01Z",
        "2026-12-01T09:00:00.5Z",
        "2029-11-29T11:30:03.819489127Z",
        "2026-12-01T24:00:00Z",
        "2026-12-01T09:00Z",
        "2026-12-01",
        "",
    ];
    let r = re(WHOLE_MINUTE);
    for s in starts {
        let read = serde_json::from_value::<shared::services::meetings::SlotForm>(serde_json::json!({"start": s, "minutes": 30}));
        let server = read.is_ok_and(|f| f.start.timestamp() % 60 == 0 && f.start.timestamp_subsec_nanos() == 0);
        // The pattern may be narrower than chrono's reading, never wider.
        if r.is_match(s) {
            assert!(server, "{s:?}: the pattern allows what the server refuses");
        }
        assert_eq!(r.is_match(s), server, "{s:?}");
    }
}

/// The document's request-only case address (`CaseAddressForm`): its
/// `oneOf` per country agrees with the case form's validation.
#[test]
fn the_case_address_form_is_the_servers_rule_per_country() {
    let doc = serde_json::to_value(api_docs::document()).unwrap();
    let form = &doc["components"]["schemas"]["CaseAddressForm"];
    let branches = form["allOf"][1]["oneOf"].as_array().expect("a oneOf per country");
    let fits = |branch: &serde_json::Value, address: &serde_json::Value| {
        let required = branch["required"].as_array().into_iter().flatten().all(|f| address.get(f.as_str().unwrap()).is_some());
        required
            && branch["properties"].as_object().unwrap().iter().all(|(field, p)| match address.get(field) {
                None => true,
                Some(v) => re(p["pattern"].as_str().unwrap()).is_match(v.as_str().unwrap()),
            })
    };
    let mut samples = vec![];
    for country in [
        None,
        Some(""),
        Some("SE"),
        Some(" se "),
        Some("NO"),
        Some("gb"),
        Some("Sweden"),
        Some(" NORGE"),
        Some("Ísland"),
        Some("Atlantis"),
        Some("XK"),
        Some("S E"),
    ] {
        for post_code in [None, Some(""), Some("11122"), Some(" 111 22"), Some("0150"), Some("SW1A 1AA"), Some("12345678901"), Some("1_2")]
        {
            let mut a = serde_json::json!({"address_1": "Gata 1", "city": "Stad"});
            if let Some(c) = country {
                a["country"] = c.into();
            }
            if let Some(p) = post_code {
                a["post_code"] = p.into();
            }
            samples.push(a);
        }
    }
    for address in samples {
        let matched = branches.iter().filter(|b| fits(b, &address)).count();
        assert!(matched <= 1, "{address}: more than one branch");
        let case: shared::domain::case::CaseForm = serde_json::from_value(serde_json::json!({"address": address})).unwrap();
        let server = shared::domain::case::validate(&case)
            .err()
            .is_none_or(|e| !e.fields().has("address.country") && !e.fields().has("address.post_code"));
        assert_eq!(matched == 1, server, "{address}");
    }
    let case_form = &doc["components"]["schemas"]["CaseForm"]["properties"]["address"];
    assert_eq!(case_form["$ref"], "#/components/schemas/CaseAddressForm");
}

#[test]
fn the_agency_reference_patterns_are_the_servers_reading() {
    use shared::domain::inkasso::{agency_reference as server, MAX_AGENCY_REFERENCE as MAX};
    let mut samples: Vec<String> =
        ["K-10234", " K 1 ", "", " ", "\t K-1 \n", "K\u{1}1", "\u{1}", "\u{85}K\u{85}", "K\u{9f}", "\u{a0}", "😀", "\u{feff}"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    for n in [MAX - 1, MAX, MAX + 1] {
        samples.push("x".repeat(n));
        samples.push(format!("  {}\t", "x".repeat(n)));
        samples.push(format!("x{}x", " ".repeat(n.saturating_sub(2))));
    }
    samples.extend(every_string(&['a', ' ', '\t', '\u{7}'], 3));
    let samples: Vec<&str> = samples.iter().map(String::as_str).collect();
    agree("agency_reference", &agency_reference(false), &samples, |s| server(Some(s)).is_ok());
    agree("agency_reference required", &agency_reference(true), &samples, |s| matches!(server(Some(s)), Ok(Some(_))));
}

#[test]
fn the_signing_company_pattern_is_the_servers_check() {
    let samples = ["5f2a9c01d4e8b7001a3c9e11", " acme_1-2 ", "", " ", "😍", "a b", "a.b", &*"x".repeat(100), &*"x".repeat(101), "\u{1f}x"];
    let server = |s: &str| shared::services::addons::company_id(s).is_ok();
    agree("company_id", &company_id(false), &samples, server);
    agree("company_id optional", &company_id(true), &samples, |s| s.trim().is_empty() || server(s));
}

#[test]
fn the_generated_query_patterns_say_the_servers_words() {
    let patterns = query_generated();
    let of = |path: &str, name: &str| re(&patterns.iter().find(|(_, p, n, _)| *p == path && *n == name).unwrap().3);
    // Each word some role reads (shared's policy tests hold the words to list_plan).
    let status = of("/api/case/list/", "status");
    for word in shared::domain::policy::LIST_WORDS {
        assert!(status.is_match(word) && status.is_match(&format!(" {} ", word.to_ascii_uppercase())), "{word}");
    }
    for (s, ok) in [("", true), (" ", true), ("mi", false), ("my cases", false), ("p\u{a1}", false), ("all,my", false)] {
        assert_eq!(status.is_match(s), ok, "{s:?}");
    }
    let ordering = of("/api/notification/", "ordering");
    for (s, ok) in
        [("", true), ("-timestamp", true), (" -timestamp\n", true), ("timestamp", false), ("-Timestamp", false), ("\u{dd}", false)]
    {
        assert_eq!(ordering.is_match(s), ok, "{s:?}");
    }
}

#[test]
fn the_data_request_state_pattern_is_the_servers_list() {
    use shared::services::erasure::STATES;
    let mut samples: Vec<String> = STATES.iter().map(|s| s.to_string()).collect();
    samples.extend(STATES.iter().map(|s| format!(" {s}\t")));
    samples.extend(["", "  ", "all", "Pending", "queued,ready", "\u{e}\u{c6}\u{fe}", "erasedx"].map(String::from));
    let samples: Vec<&str> = samples.iter().map(String::as_str).collect();
    agree("DATA_REQUEST_STATE", DATA_REQUEST_STATE, &samples, |s| {
        let s = s.trim();
        s.is_empty() || STATES.contains(&s)
    });
}

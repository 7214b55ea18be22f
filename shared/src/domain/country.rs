//! Countries of a case's address (data users read is in their
//! language). A case stores the ISO 3166-1 alpha-2 code; the web names it in
//! the reader's language (`Intl.DisplayNames`). Customers' own addresses keep
//! the spec's country id (Sweden only, spec §5); a case's address may be
//! abroad (a counterpart's, a property's), so any country is offered.
//!
//! Cases saved before codes were used hold a country's name; reading maps the
//! names we wrote (and their usual spellings) to codes, and keeps any other
//! text as it was, so nothing stored is lost.

use serde::{Deserialize, Deserializer};

/// The officially assigned ISO 3166-1 alpha-2 codes. The web's list
/// (`web/src/types/countries.ts`) must hold the same codes (a test checks).
pub const ISO_3166_ALPHA2: [&str; 249] = [
    "AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ", "BA", "BB", "BD", "BE", "BF", "BG",
    "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS", "BT", "BV", "BW", "BY", "BZ", "CA", "CC", "CD", "CF", "CG", "CH", "CI",
    "CK", "CL", "CM", "CN", "CO", "CR", "CU", "CV", "CW", "CX", "CY", "CZ", "DE", "DJ", "DK", "DM", "DO", "DZ", "EC", "EE", "EG", "EH",
    "ER", "ES", "ET", "FI", "FJ", "FK", "FM", "FO", "FR", "GA", "GB", "GD", "GE", "GF", "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ",
    "GR", "GS", "GT", "GU", "GW", "GY", "HK", "HM", "HN", "HR", "HT", "HU", "ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT",
    "JE", "JM", "JO", "JP", "KE", "KG", "KH", "KI", "KM", "KN", "KP", "KR", "KW", "KY", "KZ", "LA", "LB", "LC", "LI", "LK", "LR", "LS",
    "LT", "LU", "LV", "LY", "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK", "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS", "MT", "MU",
    "MV", "MW", "MX", "MY", "MZ", "NA", "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU", "NZ", "OM", "PA", "PE", "PF", "PG",
    "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT", "PW", "PY", "QA", "RE", "RO", "RS", "RU", "RW", "SA", "SB", "SC", "SD", "SE", "SG",
    "SH", "SI", "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS", "ST", "SV", "SX", "SY", "SZ", "TC", "TD", "TF", "TG", "TH", "TJ", "TK",
    "TL", "TM", "TN", "TO", "TR", "TT", "TV", "TW", "TZ", "UA", "UG", "UM", "US", "UY", "UZ", "VA", "VC", "VE", "VG", "VI", "VN", "VU",
    "WF", "WS", "YE", "YT", "ZA", "ZM", "ZW",
];

/// Sweden, the default of a new case (the platform's customers are Swedish).
pub const SWEDEN: &str = "SE";

/// `Some(code)` when `text` is an assigned code (any case).
pub fn code(text: &str) -> Option<&'static str> {
    let t = text.trim();
    ISO_3166_ALPHA2.iter().copied().find(|c| c.eq_ignore_ascii_case(t))
}

/// A stored country as a code where it can be recognised: an assigned code,
/// or a Nordic country's name in Swedish, English or its own language (the
/// texts the old free-text field held). Anything else is kept unchanged.
pub fn normalized(text: &str) -> String {
    if let Some(c) = code(text) {
        return c.to_string();
    }
    let folded = text.trim().to_lowercase();
    let known = NAMES.iter().find(|(name, _)| *name == folded).map(|(_, code)| *code);
    known.map(str::to_string).unwrap_or_else(|| text.to_string())
}

/// The Nordic countries' names (lower case) read as their codes: in
/// Swedish, English and their own language.
pub const NAMES: [(&str, &str); 12] = [
    ("sweden", "SE"),
    ("sverige", "SE"),
    ("norway", "NO"),
    ("norge", "NO"),
    ("noreg", "NO"),
    ("denmark", "DK"),
    ("danmark", "DK"),
    ("finland", "FI"),
    ("suomi", "FI"),
    ("iceland", "IS"),
    ("island", "IS"),
    ("ísland", "IS"),
];

/// Serde: read a stored country through [`normalized`].
pub fn deserialize_normalized<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(normalized(&String::deserialize(d)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_recognised_in_any_case() {
        assert_eq!(code("se"), Some("SE"));
        assert_eq!(code(" NO "), Some("NO"));
        assert_eq!(code("XK"), None, "user-assigned codes are not offered");
        assert_eq!(code("Sweden"), None);
    }

    #[test]
    fn old_names_become_codes_and_other_texts_stay() {
        assert_eq!(normalized("Sweden"), "SE");
        assert_eq!(normalized("sverige"), "SE");
        assert_eq!(normalized("Danmark"), "DK");
        assert_eq!(normalized("Atlantis"), "Atlantis");
        assert_eq!(normalized(""), "");
    }

    #[test]
    fn the_web_offers_the_same_codes() {
        let web = include_str!("../../../web/src/types/countries.ts");
        let start = web.find("COUNTRY_CODES = [").expect("the web's list");
        let list = &web[start..start + web[start..].find(']').expect("its end")];
        let listed: Vec<&str> = list
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| w.len() == 2 && w.chars().all(|c| c.is_ascii_uppercase()))
            .collect();
        assert_eq!(listed, ISO_3166_ALPHA2.to_vec());
    }
}

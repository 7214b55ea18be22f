//! Conflict-of-interest matching (issue 8): does a name someone types match a
//! customer, company, contact person or case counterpart we already have, even
//! when it is spelled differently?
//!
//! The pipeline, used both when a record is saved (to compute its search keys)
//! and when a query runs (to score candidates):
//! 1. fold: lower case; Nordic spellings to one form (å/aa → a, ä/æ/ae → a,
//!    ö/ø/oe → o), other accents stripped (`deunicode`);
//! 2. words: split on anything but letters and digits; drop company suffixes
//!    (AB, HB, KB, AS, ASA, ApS, Oy, Ltd …) and joining words (och, &, and …);
//!    common Swedish nicknames map to the full name (Kalle → karl);
//! 3. score: every query word must find a word of the record (any order) with
//!    Jaro-Winkler ≥ [`WORD_THRESHOLD`] or the same Nordic sound key; the score
//!    is the mean of the best word scores;
//! 4. identity numbers: an organisationsnummer or personnummer (with or without
//!    dash or century) equal to the record's is a certain hit (score 1.0).
//!
//! Retrieval without a Scan: each record is indexed under the sound key and
//! the two-letter prefix of each of its words ([`index_keys`]); a query reads
//! those partitions for its own words and scores what it finds.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A query word matches a record word at or above this Jaro-Winkler score.
/// High enough that 'jon' does not match 'ronjon' nor 'smith' 'arrowsmith'.
pub const WORD_THRESHOLD: f64 = 0.9;

/// Company-form suffixes that say nothing about who the party is.
const COMPANY_SUFFIXES: &[&str] = &[
    "ab",
    "publ",
    "hb",
    "kb",
    "as",
    "asa",
    "aps",
    "a/s",
    "oy",
    "oyj",
    "ltd",
    "limited",
    "inc",
    "gmbh",
    "llc",
    "plc",
    "aktiebolag",
    "handelsbolag",
    "kommanditbolag",
    "ek",
    "for",
];

/// Joining words and signs ('&' is dropped by the word split).
const JOINING_WORDS: &[&str] = &["och", "and", "og", "und", "et", "samt"];

/// Common Swedish short forms, so 'Kalle Andersson' finds 'Karl Andersson'.
const NICKNAMES: &[(&str, &str)] = &[
    ("kalle", "karl"),
    ("calle", "karl"),
    ("pelle", "per"),
    ("olle", "olof"),
    ("nisse", "nils"),
    ("lasse", "lars"),
    ("bosse", "bo"),
    ("janne", "jan"),
    ("micke", "mikael"),
    ("mikke", "mikael"),
    ("jocke", "joakim"),
    ("stina", "kristina"),
    ("kicki", "kristina"),
    ("lisa", "elisabet"),
    ("lotta", "charlotta"),
    ("maja", "maria"),
    ("sussie", "susanne"),
    ("gurra", "gustav"),
    ("totte", "torsten"),
    ("affe", "alfred"),
];

/// What kind of record a hit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PartyKind {
    Customer,
    Company,
    ContactPerson,
    Counterpart,
}

/// Lower case, Nordic spellings folded to one form, other accents stripped.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        match c {
            'å' | 'ä' | 'æ' | 'à' | 'á' | 'â' => out.push('a'),
            'ö' | 'ø' | 'ò' | 'ó' | 'ô' => out.push('o'),
            'ü' => out.push('u'),
            c if c.is_ascii() => out.push(c),
            c => out.push_str(&deunicode::deunicode_char(c).unwrap_or("").to_lowercase()),
        }
    }
    // Transliterations typed on keyboards without å, ä, ö (Danish 'aa',
    // German-style 'ae'/'oe') fold to the same letters.
    out.replace("aa", "a").replace("ae", "a").replace("oe", "o")
}

/// The words of a name that identify a party, folded.
pub fn words(text: &str) -> Vec<String> {
    // 'A/S' is one suffix: join it before splitting.
    let lower = text.to_lowercase().replace("a/s", " as ");
    // Suffixes are recognised before folding, so the name 'Åsa' is not taken
    // for the Norwegian 'ASA'; a name made only of a suffix keeps it.
    let raw: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let significant: Vec<&str> = raw.iter().copied().filter(|w| !COMPANY_SUFFIXES.contains(w) && !JOINING_WORDS.contains(w)).collect();
    let kept = if significant.is_empty() { raw } else { significant };
    kept.into_iter()
        .map(fold)
        .flat_map(|w| w.split(|c: char| !c.is_ascii_alphanumeric()).map(str::to_string).collect::<Vec<_>>())
        .filter(|w| !w.is_empty() && !w.chars().all(|c| c.is_ascii_digit()))
        .map(|w| NICKNAMES.iter().find(|(n, _)| *n == w).map(|(_, full)| full.to_string()).unwrap_or(w))
        .collect()
}

/// A Nordic sound key: letters that sound alike in Swedish (and its
/// neighbours) collapse, vowels after the first letter drop, doubles collapse.
/// 'Karlsson', 'Carlson' → "krlsn"; 'Sjöberg', 'Schöberg' → "$brg".
pub fn sound_key(word: &str) -> String {
    let w: Vec<char> = fold(word).chars().filter(|c| c.is_ascii_alphabetic()).collect();
    let soft = |i: usize| matches!(w.get(i), Some('e' | 'i' | 'y'));
    let mut codes: Vec<char> = Vec::with_capacity(w.len());
    let mut i = 0;
    while i < w.len() {
        let rest: String = w[i..].iter().take(3).collect();
        let (code, used) = if rest.starts_with("sch") || rest.starts_with("skj") || rest.starts_with("stj") {
            ('$', 3)
        } else if rest.starts_with("ch") {
            // Names mostly read 'ch' as k (Michael, Christer); a leading 'ch'
            // before a vowel is the sj-sound (Charlotte).
            let sj = i == 0 && matches!(w.get(2), Some('a' | 'e' | 'i' | 'o' | 'u' | 'y'));
            (if sj { '$' } else { 'k' }, 2)
        } else if rest.starts_with("sj") || rest.starts_with("sh") || (rest.starts_with("sk") && soft(i + 2)) {
            ('$', 2)
        } else if rest.starts_with("tj") || rest.starts_with("kj") {
            ('c', 2)
        } else if rest.starts_with("dj") || rest.starts_with("gj") || rest.starts_with("hj") || rest.starts_with("lj") {
            ('j', 2)
        } else if rest.starts_with("ph") {
            ('f', 2)
        } else if rest.starts_with("th") || rest.starts_with("dt") {
            ('t', 2)
        } else if rest.starts_with("ck") {
            ('k', 2)
        } else if rest.starts_with('x') {
            // 'x' sounds as 'ks': push the k here and let the s follow.
            codes.push('k');
            ('s', 1)
        } else {
            let c = w[i];
            let code = match c {
                'k' if soft(i + 1) && i == 0 => 'c',
                'g' if soft(i + 1) && i == 0 => 'j',
                'c' if soft(i + 1) => 's',
                'c' | 'q' => 'k',
                'z' => 's',
                'w' => 'v',
                'a' | 'e' | 'i' | 'o' | 'u' | 'y' | 'h' if i > 0 => '\0',
                'a' | 'e' | 'i' | 'o' | 'u' | 'y' => 'a',
                c => c,
            };
            (code, 1)
        };
        codes.push(code);
        i += used;
    }
    let mut key = String::with_capacity(codes.len());
    let mut last = None;
    for c in codes {
        if c == '\0' {
            last = None;
            continue;
        }
        if Some(c) != last {
            key.push(c);
        }
        last = Some(c);
    }
    key
}

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
        12 if digits.starts_with("19") || digits.starts_with("20") || digits.starts_with("16") => Some(digits[2..].to_string()),
        _ => None,
    }
}

/// Identity numbers found anywhere in a query ("Acme 556677-8899").
pub fn identity_numbers_in(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '-')).filter_map(identity_number).collect()
}

/// Keys a record is indexed under (written when the record is saved).
pub fn index_keys(name: &str, identity: Option<&str>) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for w in words(name) {
        keys.push(format!("S#{}", sound_key(&w)));
        keys.push(format!("P#{}", prefix(&w)));
    }
    if let Some(id) = identity.and_then(identity_number) {
        keys.push(format!("N#{id}"));
    }
    keys.sort();
    keys.dedup();
    keys
}

/// The keys a query reads.
pub fn query_keys(query: &str) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for w in words(query) {
        keys.push(format!("S#{}", sound_key(&w)));
        keys.push(format!("P#{}", prefix(&w)));
    }
    for id in identity_numbers_in(query) {
        keys.push(format!("N#{id}"));
    }
    keys.sort();
    keys.dedup();
    keys
}

/// Longer queries are refused: names and numbers are short, and each word
/// costs index reads.
pub const MAX_QUERY_CHARS: usize = 200;
/// Results returned per search, best first.
pub const MAX_RESULTS: usize = 50;

/// A search box's text as searched: trimmed, not empty, at most
/// [`MAX_QUERY_CHARS`] long.
pub fn search_query(raw: &str) -> Result<String, crate::error::Msg> {
    use crate::error::Msg;
    let query = raw.trim();
    if query.is_empty() {
        Err(Msg::Required)
    } else if query.chars().count() > MAX_QUERY_CHARS {
        Err(Msg::TooLong)
    } else {
        Ok(query.to_string())
    }
}

fn prefix(word: &str) -> String {
    word.chars().take(2).collect()
}

/// Why a record matched, for the result page.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct WordMatch {
    pub query: String,
    pub matched: String,
    pub score: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct Match {
    /// 0..=1, 1 being certain.
    pub score: f64,
    /// True when an identity number matched exactly.
    pub identity_match: bool,
    pub words: Vec<WordMatch>,
}

/// Scores a record's name (and identity number) against a query; `None` when
/// it does not match.
pub fn score(query: &str, name: &str, identity: Option<&str>) -> Option<Match> {
    if let Some(id) = identity.and_then(identity_number) {
        if identity_numbers_in(query).contains(&id) {
            return Some(Match { score: 1.0, identity_match: true, words: vec![] });
        }
    }
    let q = words(query);
    let r = words(name);
    if q.is_empty() || r.is_empty() {
        return None;
    }
    let mut matched = Vec::with_capacity(q.len());
    for qw in &q {
        let best = r.iter().map(|rw| (rw, word_score(qw, rw))).max_by(|a, b| a.1.total_cmp(&b.1)).filter(|(_, s)| *s >= WORD_THRESHOLD)?;
        matched.push(WordMatch { query: qw.clone(), matched: best.0.clone(), score: round(best.1) });
    }
    let mean = matched.iter().map(|m| m.score).sum::<f64>() / matched.len() as f64;
    Some(Match { score: round(mean), identity_match: false, words: matched })
}

fn word_score(a: &str, b: &str) -> f64 {
    let jw = strsim::jaro_winkler(a, b);
    // Same sound in longer words counts as a strong match (Carlsson/Karlsson);
    // short words would collide too often on sound alone.
    if a.len() >= 3 && b.len() >= 3 && sound_key(a) == sound_key(b) {
        jw.max(0.92)
    } else {
        jw
    }
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(q: &str, name: &str) -> bool {
        score(q, name, None).is_some()
    }

    #[test]
    fn folds_nordic_spellings_to_one_form() {
        assert_eq!(fold("Åsa Ängström"), fold("Aasa Aengstroem"));
        assert_eq!(fold("Søren Ærø"), fold("Sören Ärö"));
        assert_eq!(fold("Café Müller"), "cafe muller");
    }

    #[test]
    fn drops_company_suffixes_and_joining_words() {
        assert_eq!(words("Söderberg & Partners AB"), vec!["soderberg", "partners"]);
        assert_eq!(words("Soderberg och Partners"), vec!["soderberg", "partners"]);
        assert_eq!(words("Nordic Fish A/S"), vec!["nordic", "fish"]);
        assert_eq!(words("Oy Suomi Ltd"), vec!["suomi"]);
        assert_eq!(words("Kalle Anka"), vec!["karl", "anka"]);
    }

    #[test]
    fn sound_keys_collapse_nordic_sounds() {
        assert_eq!(sound_key("Karlsson"), sound_key("Carlson"));
        assert_eq!(sound_key("Eriksson"), sound_key("Ericson"));
        assert_eq!(sound_key("Sjöberg"), sound_key("Schöberg"));
        assert_eq!(sound_key("Philipsson"), sound_key("Filipson"));
        assert_eq!(sound_key("Nyqvist"), sound_key("Nykvist"));
        assert_ne!(sound_key("Lindberg"), sound_key("Lundgren"));
    }

    #[test]
    fn identity_numbers_with_or_without_dash_or_century() {
        assert_eq!(identity_number("556677-8899").as_deref(), Some("5566778899"));
        assert_eq!(identity_number("5566778899").as_deref(), Some("5566778899"));
        assert_eq!(identity_number("19800101-1234").as_deref(), Some("8001011234"));
        assert_eq!(identity_number("800101-1234").as_deref(), Some("8001011234"));
        assert_eq!(identity_number("12345"), None);
        assert_eq!(identity_number("abc"), None);
    }

    /// The table of tricky pairs: expected hits and expected non-hits.
    #[test]
    fn tricky_pairs() {
        let hits = [
            ("Söderberg & Partners AB", "Soderberg och Partners"),
            ("Soderberg och Partners", "Söderberg & Partners AB"),
            ("Anna Lindqvist", "Lindqvist Anna"),
            ("Lindkvist Anna", "Anna Lindqvist"),
            ("Kalle Karlsson", "Karl Carlsson"),
            ("Eriksson Bygg", "Ericson Bygg AB"),
            ("Aasa Aangstroem", "Åsa Ångström"),
            ("Søren Ærø", "Sören Ärö"),
            ("Nordic Fish", "Nordic Fish A/S"),
            ("Sjöberg", "Schöberg Advokatbyrå"),
            ("Andersson", "Anderson"),
            ("Mikael Johansson", "Michael Johanson"),
        ];
        for (q, name) in hits {
            assert!(hit(q, name), "expected '{q}' to find '{name}' ({:?})", score(q, name, None));
        }
        let misses = [
            ("Jon Smith", "Ronjon Arrowsmith"),
            ("Anna Lind", "Hanna Lundgren"),
            ("Lindberg", "Lundgren"),
            ("Berg", "Bergström Fastigheter"),
            ("Volvo AB", "Saab AB"),
            ("Söderberg", "Nordberg"),
            ("Karl Svensson", "Karl Persson"),
        ];
        for (q, name) in misses {
            assert!(!hit(q, name), "expected '{q}' not to find '{name}' ({:?})", score(q, name, None));
        }
    }

    #[test]
    fn an_exact_identity_number_is_a_certain_hit() {
        let m = score("5566778899", "Completely Different AB", Some("556677-8899")).unwrap();
        assert_eq!(m.score, 1.0);
        assert!(m.identity_match);
        let m = score("19800101-1234", "Anna Berg", Some("800101-1234")).unwrap();
        assert!(m.identity_match);
        assert!(score("556677-8898", "Completely Different AB", Some("556677-8899")).is_none());
    }

    #[test]
    fn better_spellings_score_higher() {
        let exact = score("Söderberg Partners", "Söderberg & Partners AB", None).unwrap().score;
        let typo = score("Sodreberg Partners", "Söderberg & Partners AB", None).unwrap().score;
        assert!(exact > typo, "{exact} > {typo}");
        assert_eq!(exact, 1.0);
    }

    #[test]
    fn query_keys_meet_the_index_keys_of_matching_records() {
        for (q, name) in [("Soderberg och Partners", "Söderberg & Partners AB"), ("Kalle Carlson", "Karl Karlsson"), ("Aasa", "Åsa Berg")]
        {
            let idx = index_keys(name, None);
            assert!(query_keys(q).iter().any(|k| idx.contains(k)), "{q} / {name}");
        }
        assert!(query_keys("556677-8899").contains(&"N#5566778899".to_string()));
        assert!(index_keys("X AB", Some("5566778899")).contains(&"N#5566778899".to_string()));
    }
}

//! Conflict-of-interest matching: does a name someone types match a
//! customer, company, contact person or case counterpart we already have, even
//! when it is spelled differently?
//!
//! The pipeline, used both when a record is saved (to compute its search keys)
//! and when a query runs (to score candidates):
//! 1. fold: lower case; Nordic spellings to one form (å/aa → a, ä/æ/ae → a,
//!    ö/ø/oe → o), other accents stripped (`deunicode`);
//! 2. words: split on anything but letters and digits; drop company suffixes
//!    (AB, HB, KB, AS, ASA, ApS, Oy, Ltd …) and joining words (och, &, and …);
//!    the Arabic article before the names written with it (Al-Hassan,
//!    Alhassan → hassan) and 'Abd' apart joined to its name (Abdul Rahman →
//!    abdulrahman); common Swedish nicknames map to the full name (Kalle →
//!    karl);
//! 3. score: every query word must match its own word of the name (any
//!    order) by [`word_alike`]: the same spelling ([`spelling`]: Carlson /
//!    Karlsson; the transliterations of one name, Mohammed / Muhammad), an
//!    initial the user typed ('K.'), a swapped pair of letters (not the first),
//!    and from eight letters one letter more, less or different (not one
//!    vowel for another); short words (up to three letters) only exactly.
//!    The score counts the name's unmatched words against it;
//! 4. identity numbers: an organisationsnummer or personnummer (with or without
//!    dash or century, the 16 prefix, as a VAT number; coordination numbers
//!    too) equal to the record's, or to one written in its name, is a certain
//!    hit (score 1.0), never one whose check digit is wrong.
//!
//! Retrieval without a Scan: each record is indexed under keys specific to
//! each word ([`word_keys`]: its spelling, its letters, its spelling less one
//! letter) and its identity numbers ([`index_keys`]); a query reads the keys
//! of its most specific word and scores what it finds ([`query_plan`]). No
//! key gathers parties merely because their names begin alike, so what a
//! search reads does not grow with the firm; a key too broad to read whole
//! is reported (type more letters), never silently cut.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::identity_number::{checked_numbers_in, identity_number, identity_numbers_in, luhn_ok};

/// Company forms written as abbreviations, compared before folding (so the
/// name 'Åsa' is not taken for the Norwegian 'ASA'): Swedish, Nordic and a
/// few foreign ones. They say nothing about who the party is.
const COMPANY_FORM_ABBREVIATIONS: &[&str] =
    &["ab", "publ", "hb", "kb", "brf", "as", "asa", "aps", "oy", "oyj", "abp", "ky", "ltd", "limited", "inc", "gmbh", "llc", "plc"];

/// Company forms written out (folded): aktiebolag, handelsbolag,
/// kommanditbolag, stiftelse, bostadsrättsförening, with or without the
/// definite ending. Words that are forms only beside another word
/// ('ekonomisk förening', 'enskild firma') are in [`COMPANY_FORM_PAIRS`]:
/// 'Skandinaviska Enskilda Banken' keeps its 'enskilda'.
const COMPANY_FORM_WORDS: &[&str] = &[
    "aktiebolag",
    "aktiebolaget",
    "handelsbolag",
    "handelsbolaget",
    "kommanditbolag",
    "kommanditbolaget",
    "stiftelse",
    "stiftelsen",
    "bostadsrattsforening",
    "bostadsrattsforeningen",
];

/// Company forms of two words (folded), dropped together: 'ek. för.' (not
/// 'ek' alone: Ek is a surname), ekonomisk/ideell förening, enskild firma,
/// publikt aktiebolag.
const COMPANY_FORM_PAIRS: &[(&str, &str)] = &[
    ("ek", "for"),
    ("ekonomisk", "forening"),
    ("ekonomiska", "foreningen"),
    ("ideell", "forening"),
    ("ideella", "foreningen"),
    ("enskild", "firma"),
    ("enskilda", "firman"),
    ("publikt", "aktiebolag"),
];

/// Endings that make a compound company form ('Fastighetsaktiebolaget',
/// 'Försäkringsaktiebolaget', 'Bankaktiebolaget', 'Telefonaktiebolaget'):
/// the form is dropped and the first part kept, so 'Fastighets AB Balder'
/// and 'Fastighetsaktiebolaget Balder' have the same words.
const COMPOUND_FORM_ENDINGS: &[&str] = &["aktiebolaget", "aktiebolag"];

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
    fold_digraphs(out)
}

/// 'aa' → a, 'ae' → a, 'oe' → o, repeated until none is left, so folding a
/// folded word changes nothing (the index keys words already folded; the
/// name families are keyed by their names folded once). An 'ae' or 'oe'
/// before another 'e' is no ä or ö but a long e (Saeed, Naeem): kept.
fn fold_digraphs(mut text: String) -> String {
    loop {
        let chars: Vec<char> = text.chars().collect();
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        while i < chars.len() {
            let (c, next, after) = (chars[i], chars.get(i + 1).copied(), chars.get(i + 2).copied());
            let digraph = match (c, next) {
                ('a', Some('a')) => true,
                ('a' | 'o', Some('e')) => after != Some('e'),
                _ => false,
            };
            out.push(c);
            i += if digraph { 2 } else { 1 };
        }
        if out == text {
            return out;
        }
        text = out;
    }
}

/// The words of a name that identify a party, folded.
pub fn words(text: &str) -> Vec<String> {
    name_words(text).words
}

/// A name's words and the company forms left out of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NameWords {
    /// The words that identify the party, folded, in the name's order.
    pub words: Vec<String>,
    /// The company forms dropped, folded ('ab', 'aktiebolaget'), in order.
    pub forms: Vec<String>,
    /// The words written with the Arabic article (al-, el-, as- …), which
    /// is dropped for matching: 'Al-Hassan' and 'Alhassan' are the word
    /// 'hassan' here.
    pub with_article: Vec<String>,
}

/// The Arabic article as a word of its own ('Al Hassan', 'El-Hassan'), and
/// as written before a sun letter ('as-Saadi', 'ar-Rashid', 'an-Nasser'),
/// where it is dropped only before a name that begins with its consonant.
const ARTICLES: &[&str] = &["al", "el", "ul"];
const SUN_LETTER_ARTICLES: &[&str] = &["ad", "an", "ar", "as", "ash", "at", "az", "ed", "en", "er", "es", "esh", "et", "ez"];

/// 'Abd' ('servant of') written apart from the name it belongs to ('Abdul
/// Rahman', 'Abd al-Rahman', 'Abdel Karim'): joined to it, so the name is
/// one word as in 'Abdulrahman' (see [`base_spelling`] for its spellings).
/// 'Abdi' apart is a Somali first name of its own and stays so.
const ABD_WORDS: &[&str] = &["abd", "abdul", "abdel", "abdal", "abdol", "abdoul", "abdur", "abdus", "abder", "abdes"];

/// The names written with the article (`conflict_article_names.tsv`) and
/// every name of the variant families, by their spelling: the article is
/// dropped before these only, so 'El-Service AB', 'Al Bygg' and 'Alberg'
/// keep their first syllable.
static ARTICLE_NAMES: std::sync::LazyLock<std::collections::HashSet<String>> = std::sync::LazyLock::new(|| {
    let listed = include_str!("conflict_article_names.tsv")
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(spelling);
    listed.chain(NAME_VARIANTS.values().cloned()).collect()
});

/// Whether a folded word is a name the article is written before.
fn article_name(word: &str) -> bool {
    word.chars().count() >= 3 && ARTICLE_NAMES.contains(&spelling(word))
}

/// Joins and drops the Arabic name particles of a name's words (raw and
/// folded alike): 'Abdul Rahman' → 'abdulrahman', 'Al-Hassan' and
/// 'Alhassan' → 'hassan' (returned among the words with the article).
fn arabic_particles(raw: Vec<String>, folded: Vec<String>) -> (Vec<String>, Vec<String>, Vec<String>) {
    let (mut out_raw, mut out_folded, mut with_article) = (Vec::new(), Vec::new(), Vec::new());
    let mut i = 0;
    while i < folded.len() {
        let w = folded[i].as_str();
        let next = folded.get(i + 1).map(String::as_str);
        let after = folded.get(i + 2).map(String::as_str);
        let is_article = |a: &str, name: &str| {
            (ARTICLES.contains(&a) || (SUN_LETTER_ARTICLES.contains(&a) && name.starts_with(&a[a.len() - 1..]))) && article_name(name)
        };
        if ABD_WORDS.contains(&w) && next.is_some_and(|n| n.chars().all(|c| c.is_ascii_alphabetic())) {
            // 'Abd al-Rahman': the article between is part of the compound.
            let (name, used) = match (next, after) {
                (Some(a), Some(n)) if ARTICLES.contains(&a) || SUN_LETTER_ARTICLES.contains(&a) => (format!("{w}{a}{n}"), 3),
                (Some(n), _) => (format!("{w}{n}"), 2),
                (None, _) => unreachable!("checked above"),
            };
            out_raw.push(name.clone());
            out_folded.push(name);
            i += used;
            continue;
        }
        if let Some(n) = next.filter(|n| is_article(w, n)) {
            with_article.push(spelling(n));
            i += 1;
            continue;
        }
        let glued = ["al", "el"].iter().find_map(|a| w.strip_prefix(a)).filter(|rest| article_name(rest));
        match glued {
            Some(rest) => {
                with_article.push(spelling(rest));
                out_raw.push(rest.to_string());
                out_folded.push(rest.to_string());
            }
            None => {
                out_raw.push(raw[i].clone());
                out_folded.push(folded[i].clone());
            }
        }
        i += 1;
    }
    (out_raw, out_folded, with_article)
}

/// Splits a name into the words that identify the party and the company
/// forms it carries (kept for display, ignored for matching).
pub fn name_words(text: &str) -> NameWords {
    // 'A/S' is one form: join it before splitting. 'Đ' (Đorđević) is written
    // 'Dj' in Swedish registers; deunicode would make it a bare 'D'.
    let lower = text.to_lowercase().replace("a/s", " as ").replace('đ', "dj");
    // Abbreviations are recognised before folding, so the name 'Åsa' is not
    // taken for the Norwegian 'ASA'; a name made only of forms keeps them.
    let raw: Vec<String> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_string).collect();
    let folded: Vec<String> = raw.iter().map(|w| fold(w)).collect();
    let (raw, folded, with_article) = arabic_particles(raw, folded);
    let raw: Vec<&str> = raw.iter().map(String::as_str).collect();
    // Per raw word: the company form it is (if any) and, for a compound
    // form, the first part that names the party.
    let mut forms: Vec<Option<(String, Option<String>)>> = vec![None; raw.len()];
    for i in 0..raw.len() {
        let f = folded[i].as_str();
        if forms[i].is_some() {
            continue;
        }
        if COMPANY_FORM_ABBREVIATIONS.contains(&raw[i]) || COMPANY_FORM_WORDS.contains(&f) {
            forms[i] = Some((f.to_string(), None));
        } else if let Some(next) = folded.get(i + 1).filter(|next| COMPANY_FORM_PAIRS.iter().any(|(a, b)| *a == f && b == *next)) {
            forms[i] = Some((format!("{f} {next}"), None));
            forms[i + 1] = Some((String::new(), None));
        } else if let Some(end) = COMPOUND_FORM_ENDINGS.iter().find(|e| f.len() > e.len() + 2 && f.ends_with(*e)) {
            forms[i] = Some((end.to_string(), Some(f[..f.len() - end.len()].to_string())));
        }
    }
    let joining = |i: usize| JOINING_WORDS.contains(&raw[i]);
    // A name made only of forms and joining words keeps them all.
    let only_forms = (0..raw.len()).all(|i| joining(i) || forms[i].as_ref().is_some_and(|(_, part)| part.is_none()));
    let mut out = NameWords { with_article, ..NameWords::default() };
    for i in 0..raw.len() {
        let word = match &forms[i] {
            _ if only_forms => folded[i].clone(),
            _ if joining(i) => continue,
            None => folded[i].clone(),
            Some((form, part)) => {
                if !form.is_empty() {
                    out.forms.push(form.clone());
                }
                match part {
                    Some(part) => part.clone(),
                    None => continue,
                }
            }
        };
        for w in word.split(|c: char| !c.is_ascii_alphanumeric()) {
            if w.is_empty() || w.chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            let w = NICKNAMES.iter().find(|(n, _)| *n == w).map_or_else(|| w.to_string(), |(_, full)| full.to_string());
            out.words.push(w);
        }
    }
    out
}

/// A Nordic sound key: letters that sound alike in Swedish (and its
/// neighbours) collapse, vowels after the first letter drop, doubles collapse.
/// 'Karlsson', 'Carlson' → "krlsn"; 'Sjöberg', 'Schöberg' → "$brg". Coarse
/// (Berg and Borg share it): shown to explain a match, no longer used to
/// decide one (see [`spelling`]).
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

fn is_vowel(c: char) -> bool {
    matches!(c, 'a' | 'e' | 'i' | 'o' | 'u' | 'y')
}

/// The spelling key of a folded word: the alternative spellings of one
/// Nordic name written one way, vowels kept (so Berg ≠ Borg, Lindberg ≠
/// Lundberg): c/ck/ch/q → k (c before e, i, y → s), qu → kv, x → ks, z → s,
/// w → v, ph → f, th/dt → t, sch/sj/sh/skj/stj (and a leading ch before a
/// vowel) → $, an h after a consonant drops, doubled letters collapse.
/// 'Karlsson', 'Carlson' → "karlson"; 'Nyquist', 'Nykvist' → "nykvist";
/// 'Mattias', 'Mathias' → "matias".
/// Names written in other alphabets reach Swedish registers in several
/// spellings ('Mohammed', 'Muhammad', 'Maxamed'): every spelling of a name in
/// one family of `conflict_name_variants.tsv` has the family's spelling.
pub fn spelling(word: &str) -> String {
    let own = base_spelling(word);
    match NAME_VARIANTS.get(&own) {
        Some(family) => family.clone(),
        None => own,
    }
}

/// The name-variant families (`conflict_name_variants.tsv`), by the
/// [`base_spelling`] of each variant: the spelling of the family's first name.
/// A table, not a phonetic code: Double Metaphone and similar codes drop the
/// vowels after the first letter, which would make Lindberg and Lundberg one
/// name; here only the spellings listed meet.
static NAME_VARIANTS: std::sync::LazyLock<std::collections::HashMap<String, String>> = std::sync::LazyLock::new(|| {
    let mut map = std::collections::HashMap::new();
    for (family, variants) in name_variant_families() {
        for v in variants {
            map.insert(base_spelling(&v), base_spelling(&family));
        }
    }
    map
});

/// The families of `conflict_name_variants.tsv`: (first name, every name of
/// the line, the first included).
pub fn name_variant_families() -> Vec<(String, Vec<String>)> {
    include_str!("conflict_name_variants.tsv")
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .filter_map(|l| {
            let names: Vec<String> = l.split_whitespace().map(str::to_string).collect();
            names.first().cloned().map(|first| (first, names))
        })
        .collect()
}

/// The spelling key before name families (see [`spelling`]).
fn base_spelling(word: &str) -> String {
    let w: Vec<char> = fold(word).chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    let mut out: Vec<char> = Vec::with_capacity(w.len() + 2);
    let at = |i: usize| w.get(i).copied();
    let mut i = 0;
    while i < w.len() {
        let c = w[i];
        let next = at(i + 1);
        let (codes, used): (&[char], usize) = match (c, next, at(i + 2)) {
            ('s', Some('c'), Some('h')) | ('s', Some('k'), Some('j')) | ('s', Some('t'), Some('j')) => (&['$'], 3),
            ('s', Some('j' | 'h'), _) => (&['$'], 2),
            ('c', Some('h'), third) if i == 0 && third.is_some_and(is_vowel) => (&['$'], 2),
            ('c', Some('h' | 'k'), _) => (&['k'], 2),
            ('c', Some('e' | 'i' | 'y'), _) => (&['s'], 1),
            ('c', _, _) => (&['k'], 1),
            ('q', Some('u'), _) => (&['k', 'v'], 2),
            ('q', _, _) => (&['k'], 1),
            ('x', _, _) => (&['k', 's'], 1),
            ('z', _, _) => (&['s'], 1),
            // Gustaf/Gustav, Olofsson/Olovsson.
            ('f', None | Some('s'), _) if i > 0 => (&['v'], 1),
            ('w', _, _) => (&['v'], 1),
            ('p', Some('h'), _) => (&['f'], 2),
            ('t', Some('h'), _) | ('d', Some('t'), _) => (&['t'], 2),
            ('h', _, _) if i > 0 && !is_vowel(w[i - 1]) && w[i - 1].is_ascii_alphabetic() => (&[], 1),
            // Letters spelled out and transliterations (both sides alike):
            // ü written 'ue' (Mueller/Müller), French-style 'ou' (Youssef,
            // Moustafa), y or j before a vowel (Yusuf/Jusuf, Tatyana/Tatjana),
            // a closing i or y after a vowel (Sergei/Sergey/Sergej), a closing
            // y after a consonant (Dmitry/Dmitri, Kowalsky/Kowalski), and the
            // Swedish 'tj' for ć (Jovanovitj/Jovanović).
            ('u', Some('e'), _) if i > 0 => (&['u'], 2),
            ('o', Some('u'), _) => (&['u'], 2),
            ('y', Some(n), _) if is_vowel(n) && n != 'y' => (&['j'], 1),
            ('i' | 'y', None, _) if i > 0 && is_vowel(w[i - 1]) && w[i - 1] != 'i' => (&['j'], 1),
            ('y', None, _) if i > 0 => (&['i'], 1),
            ('t', Some('j'), None) => (&['k'], 2),
            _ => (std::slice::from_ref(&w[i]), 1),
        };
        for &code in codes {
            if out.last() != Some(&code) {
                out.push(code);
            }
        }
        i += used;
    }
    abd_compound(out.into_iter().collect())
}

/// 'Abd' and the name it joins, whatever joins them: Abdulrahman,
/// Abdelrahman, Abdirahman, Abdurrahman and Abd al-Rahman are 'abd' +
/// 'rahman' (the connecting vowels and the article's 'l' dropped; doubled
/// letters are already one). Only when a name of three letters or more
/// follows: 'Abdi' or 'Abdullah' alone keep their spelling (the families
/// join Abdullah and Abdallah).
fn abd_compound(spelled: String) -> String {
    let Some(rest) = spelled.strip_prefix("abd") else { return spelled };
    let rest = rest.trim_start_matches(is_vowel);
    let rest = rest.strip_prefix('l').unwrap_or(rest);
    if rest.chars().count() >= 3 && rest.starts_with(|c: char| !is_vowel(c)) {
        format!("abd{rest}")
    } else {
        spelled
    }
}

/// How alike one word of a query is to one word of a name (both folded, as
/// [`words`] gives them), `None` when not alike. The rules:
/// - the same spelling ([`spelling`]): 1.0 when the folded words are equal,
///   0.95 for another spelling of the same name (Carlson/Karlsson);
/// - a one-letter query word is an initial the user typed ('K. Johansson'):
///   it matches a word beginning with that letter (0.85); no other prefix
///   ever matches (Berg does not find Bergström);
/// - words of up to three letters match only so;
/// - when the longer word has up to seven letters, two neighbouring letters
///   swapped (a typo) still match (0.9), but not the first two (Ahmad ≠
///   Hamad); any other difference does not (Scania ≠ Skandia, Berg ≠ Borg);
/// - from eight letters on, one letter added, dropped, swapped with its
///   neighbour or replaced matches (0.9), except one vowel for another
///   (Lindberg ≠ Lundberg, Hansen ≠ Hanson).
pub fn word_alike(query_word: &str, name_word: &str) -> Option<f64> {
    if query_word == name_word {
        return Some(1.0);
    }
    let q1 = query_word.chars().count() == 1;
    if q1 {
        return name_word.starts_with(query_word).then_some(INITIAL_SCORE);
    }
    let (a, b) = (spelling(query_word), spelling(name_word));
    if a == b {
        return Some(SPELLING_SCORE);
    }
    let (la, lb) = (a.chars().count(), b.chars().count());
    if la.min(lb) <= 3 {
        return None;
    }
    let longer = la.max(lb);
    let d = strsim::osa_distance(&a, &b);
    if d != 1 {
        return None;
    }
    if longer <= TRANSPOSITION_ONLY_UP_TO {
        // Not the first letter: a name is rarely mistyped there, and Ahmad
        // and Hamad are two names.
        let same_start = a.chars().next() == b.chars().next();
        return (la == lb && same_start && sorted(&a) == sorted(&b)).then_some(TYPO_SCORE);
    }
    if la == lb {
        // A replaced letter (or a swap): one vowel for another makes another name.
        let diff: Vec<(char, char)> = a.chars().zip(b.chars()).filter(|(x, y)| x != y).collect();
        if diff.len() == 1 && is_vowel(diff[0].0) && is_vowel(diff[0].1) {
            return None;
        }
    }
    Some(TYPO_SCORE)
}

/// The score of a name word matched by another spelling of it.
pub const SPELLING_SCORE: f64 = 0.95;
/// The score of a one-letter typo.
pub const TYPO_SCORE: f64 = 0.9;
/// The score of an initial matching a word.
pub const INITIAL_SCORE: f64 = 0.85;
/// Words whose longer side has at most this many letters (of the spelling)
/// tolerate only a swap of two neighbouring letters.
pub const TRANSPOSITION_ONLY_UP_TO: usize = 7;

/// Letters of a word that key it (see [`word_keys`]).
pub const MAX_KEYED_LETTERS: usize = 40;
/// How much an unmatched word of the name weighs against the score, next to
/// a query word (1.0).
pub const UNMATCHED_NAME_WORD_WEIGHT: f64 = 0.5;

fn sorted(s: &str) -> String {
    let mut c: Vec<char> = s.chars().collect();
    c.sort_unstable();
    c.into_iter().collect()
}

/// The folded word keys of the index: words whose spelling has up to three
/// letters are found only by their exact spelling (`W#`); four to seven
/// letters by their first letter and the others in order (`A#`, the same
/// for a swap of two neighbours after the first, the only swap
/// [`word_alike`] forgives; not for any anagram: 'Kremtoez' does not meet
/// 'Ekström');
/// seven letters and more by their spelling (`D#`), and from eight on also
/// by each spelling with one letter dropped (so one letter added, dropped,
/// replaced or swapped still meets). Every key holds only the parties with
/// a word close to this one, however many parties the firm has.
pub fn word_keys(word: &str) -> Vec<String> {
    // A word keys one deletion per letter, so its keys grow with the square
    // of its length: a 600-letter "word" (a counterpart field of one long
    // token) made the index change larger than a DynamoDB item. No name has
    // words this long; the first letters key it (indexing and search alike).
    let sp: String = spelling(word).chars().take(MAX_KEYED_LETTERS).collect();
    let chars: Vec<char> = sp.chars().collect();
    let n = chars.len();
    let mut keys = Vec::new();
    if n == 0 || word.chars().count() == 1 {
        return keys;
    }
    if n <= 3 {
        keys.push(format!("W#{sp}"));
    }
    if (4..=TRANSPOSITION_ONLY_UP_TO).contains(&n) {
        let first: String = chars[..1].iter().collect();
        keys.push(format!("A#{first}{}", sorted(&sp[first.len()..])));
    }
    if n >= TRANSPOSITION_ONLY_UP_TO {
        keys.push(format!("D#{sp}"));
    }
    if n > TRANSPOSITION_ONLY_UP_TO {
        for i in 0..n {
            let del: String = chars.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, c)| *c).collect();
            keys.push(format!("D#{del}"));
        }
    }
    keys.sort();
    keys.dedup();
    keys
}

/// Keys a record is indexed under (written when the record is saved): the
/// [`word_keys`] of each word of its name, and `N#<ten digits>` for its
/// identity number and every number written in its name.
pub fn index_keys(name: &str, identity: Option<&str>) -> Vec<String> {
    let mut keys: Vec<String> = words(name).iter().flat_map(|w| word_keys(w)).collect();
    for id in record_numbers(name, identity) {
        keys.push(format!("N#{id}"));
    }
    keys.sort();
    keys.dedup();
    keys
}

/// The identity numbers a record is known by: its own and those in its name.
fn record_numbers(name: &str, identity: Option<&str>) -> Vec<String> {
    let mut ids = checked_numbers_in(name);
    ids.extend(identity.and_then(identity_number).filter(|n| luhn_ok(n)));
    ids.sort();
    ids.dedup();
    ids
}

/// What a query reads: the keys of each word that can find a party (an
/// initial cannot: it only narrows), most specific word first, and the
/// identity numbers it names.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QueryPlan {
    /// Per word, its keys; longest words first. Every hit has a word close
    /// to each of them, so one word read completely finds every hit.
    pub words: Vec<(String, Vec<String>)>,
    /// `N#<number>` keys.
    pub numbers: Vec<String>,
}

pub fn query_plan(query: &str) -> QueryPlan {
    let mut ws: Vec<String> = words(query).into_iter().filter(|w| w.chars().count() > 1).collect();
    ws.sort_by(|a, b| spelling(b).len().cmp(&spelling(a).len()).then_with(|| a.cmp(b)));
    ws.dedup();
    QueryPlan {
        words: ws.into_iter().map(|w| (w.clone(), word_keys(&w))).filter(|(_, k)| !k.is_empty()).collect(),
        numbers: checked_numbers_in(query).into_iter().map(|n| format!("N#{n}")).collect(),
    }
}

/// The keys a query may read (every word's and number's).
pub fn query_keys(query: &str) -> Vec<String> {
    let plan = query_plan(query);
    let mut keys: Vec<String> = plan.words.into_iter().flat_map(|(_, k)| k).chain(plan.numbers).collect();
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
    } else if words(query).is_empty() && !identity_numbers_in(query).is_empty() && checked_numbers_in(query).is_empty() {
        // Only a number, and its check digit is wrong: say so rather than
        // "no possible conflict" (a mistyped number is never a hit).
        Err(Msg::InvalidIdentityNumber)
    } else {
        Ok(query.to_string())
    }
}

/// Why a record matched, for the result page.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct WordMatch {
    pub query: String,
    pub matched: String,
    pub score: f64,
}

/// Why a record matched, so a lawyer can judge a hit quickly (shown
/// translated beside it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchReason {
    /// The same organisation, personal or coordination number.
    SameNumber,
    /// Every word searched for is in the name, spelled the same.
    SameName,
    /// A word is spelled differently (another transliteration, letters
    /// spelled out, a typo).
    SpelledDifferently,
    /// An initial matched a word.
    Initial,
    /// Company forms (AB, Aktiebolaget, HB …) differ and were ignored.
    CompanyFormIgnored,
    /// The words are in another order.
    NameOrder,
    /// The name has words the search did not name.
    MoreWordsInName,
}

#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct Match {
    /// 0..=1, 1 being certain.
    pub score: f64,
    /// True when an identity number matched exactly.
    pub identity_match: bool,
    pub words: Vec<WordMatch>,
    /// Why it matched, most telling first.
    pub reasons: Vec<MatchReason>,
}

/// Scores a record's name (and identity numbers: its own and any written in
/// its name) against a query; `None` when it does not match. Every word of
/// the query must match its own word of the name ([`word_alike`], any
/// order); the score is the sum of the word scores over the query's words
/// plus half a point per word of the name left unmatched.
pub fn score(query: &str, name: &str, identity: Option<&str>) -> Option<Match> {
    let ids = record_numbers(name, identity);
    if checked_numbers_in(query).iter().any(|q| ids.contains(q)) {
        return Some(Match { score: 1.0, identity_match: true, words: vec![], reasons: vec![MatchReason::SameNumber] });
    }
    let query_words = name_words(query);
    let name_words = name_words(name);
    let (q, r) = (&query_words.words, &name_words.words);
    if q.is_empty() || r.is_empty() {
        return None;
    }
    // Every pair that is alike, best first; each word used once (greedy).
    let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
    for (i, qw) in q.iter().enumerate() {
        for (j, rw) in r.iter().enumerate() {
            if let Some(s) = word_alike(qw, rw) {
                pairs.push((s, i, j));
            }
        }
    }
    pairs.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut q_used = vec![None; q.len()];
    let mut r_used = vec![false; r.len()];
    for (s, i, j) in pairs {
        if q_used[i].is_none() && !r_used[j] {
            q_used[i] = Some((j, s));
            r_used[j] = true;
        }
    }
    let mut matched = Vec::with_capacity(q.len());
    let mut positions = Vec::with_capacity(q.len());
    for (i, qw) in q.iter().enumerate() {
        let (j, s) = q_used[i]?;
        matched.push(WordMatch { query: qw.clone(), matched: r[j].clone(), score: round(s) });
        positions.push(j);
    }
    let unmatched = r_used.iter().filter(|u| !**u).count();
    let total = matched.iter().map(|m| m.score).sum::<f64>() / (q.len() as f64 + UNMATCHED_NAME_WORD_WEIGHT * unmatched as f64);
    let mut reasons = Vec::new();
    // 'Alhassan' for 'Hassan': the same word once the article is dropped,
    // but not the name as written.
    let articles_differ = sorted_words(&query_words.with_article) != sorted_words(&name_words.with_article);
    if matched.iter().all(|m| m.score == 1.0) && !articles_differ {
        reasons.push(MatchReason::SameName);
    }
    if articles_differ || matched.iter().any(|m| m.score < 1.0 && m.score != INITIAL_SCORE) {
        reasons.push(MatchReason::SpelledDifferently);
    }
    if matched.iter().any(|m| m.score == INITIAL_SCORE) {
        reasons.push(MatchReason::Initial);
    }
    if forms_differ(&query_words.forms, &name_words.forms) {
        reasons.push(MatchReason::CompanyFormIgnored);
    }
    if positions.windows(2).any(|p| p[0] > p[1]) {
        reasons.push(MatchReason::NameOrder);
    }
    if unmatched > 0 {
        reasons.push(MatchReason::MoreWordsInName);
    }
    Some(Match { score: round(total), identity_match: false, words: matched, reasons })
}

/// Whether two names carry different company forms ('Aktiebolaget Volvo' and
/// 'AB Volvo' do; 'AB Volvo' and 'Volvo AB' do not), telling long forms by
/// their abbreviation.
fn forms_differ(a: &[String], b: &[String]) -> bool {
    let short = |forms: &[String]| {
        let mut out: Vec<String> = forms
            .iter()
            .map(|f| {
                match f.as_str() {
                    "aktiebolag" | "aktiebolaget" => "ab",
                    "handelsbolag" | "handelsbolaget" => "hb",
                    "kommanditbolag" | "kommanditbolaget" => "kb",
                    "bostadsrattsforening" | "bostadsrattsforeningen" => "brf",
                    "stiftelsen" => "stiftelse",
                    "publikt aktiebolag" => "publ",
                    "ekonomisk forening" | "ekonomiska foreningen" | "ek for" => "ek for",
                    "ideella foreningen" => "ideell forening",
                    "enskilda firman" => "enskild firma",
                    other => other,
                }
                .to_string()
            })
            .collect();
        out.sort();
        out.dedup();
        out
    };
    short(a) != short(b)
}

fn sorted_words(words: &[String]) -> Vec<&String> {
    let mut out: Vec<&String> = words.iter().collect();
    out.sort();
    out
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// One labelled pair of the test set: should `query` find the party `name`
/// (with its identity number)?
#[derive(Clone, Debug, PartialEq)]
pub struct LabelledPair {
    pub hit: bool,
    pub query: String,
    pub name: String,
    pub identity: Option<String>,
}

/// The labelled set (`conflict_labelled.tsv`): the conflict search's
/// precision and recall are measured on it, by the unit test below and by
/// `infra/bench-search.sh` among many other parties.
pub fn labelled_pairs() -> Vec<LabelledPair> {
    include_str!("conflict_labelled.tsv")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            LabelledPair {
                hit: cols[0] == "hit",
                query: cols[1].to_string(),
                name: cols[2].to_string(),
                identity: cols.get(3).map(|s| s.to_string()),
            }
        })
        .collect()
}

/// Precision and recall of [`score`] over labelled pairs, with the pairs it
/// got wrong.
pub fn precision_recall(pairs: &[LabelledPair]) -> (f64, f64, Vec<LabelledPair>) {
    let (mut tp, mut fp, mut fneg) = (0usize, 0usize, 0usize);
    let mut wrong = Vec::new();
    for p in pairs {
        let found = score(&p.query, &p.name, p.identity.as_deref()).is_some();
        match (p.hit, found) {
            (true, true) => tp += 1,
            (false, true) => fp += 1,
            (true, false) => fneg += 1,
            (false, false) => {}
        }
        if p.hit != found {
            wrong.push(p.clone());
        }
    }
    let precision = if tp + fp == 0 { 1.0 } else { tp as f64 / (tp + fp) as f64 };
    let recall = if tp + fneg == 0 { 1.0 } else { tp as f64 / (tp + fneg) as f64 };
    (precision, recall, wrong)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::identity_number::parse_identity_number;

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
    fn folding_a_folded_word_changes_nothing() {
        let names = name_variant_families().into_iter().flat_map(|(_, v)| v);
        let labelled = labelled_pairs().into_iter().flat_map(|p| [p.query, p.name]);
        for text in names.chain(labelled).chain(["Saeed", "Saaed", "Haaaland", "Noeel", "Maeaeae"].map(String::from)) {
            let once = fold(&text);
            assert_eq!(fold(&once), once, "{text}");
        }
        // A long e is kept: Saeed is the Said family's, not another name.
        assert_eq!(fold("Saeed"), "saeed");
        assert_eq!(word_alike(&words("Saeed")[0], &words("Said")[0]), Some(SPELLING_SCORE));
        assert_eq!(fold("Aasa Haaland"), "asa haland");
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
        let m = score("19811218-9876", "Anna Berg", Some("811218-9876")).unwrap();
        assert!(m.identity_match);
        assert_eq!(m.reasons, vec![MatchReason::SameNumber]);
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

    /// The labelled set: at least 520 pairs, precision and recall ≥ 0.98
    /// (the pairs it gets wrong are printed).

    #[test]
    fn labelled_set_precision_and_recall() {
        let pairs = labelled_pairs();
        assert!(pairs.len() >= 520, "{} pairs", pairs.len());
        assert!(pairs.iter().filter(|p| p.hit).count() >= 290 && pairs.iter().filter(|p| !p.hit).count() >= 220);
        let (precision, recall, wrong) = precision_recall(&pairs);
        println!("precision {precision:.3} recall {recall:.3} over {} pairs; wrong: {wrong:#?}", pairs.len());
        assert!(precision >= 0.98, "precision {precision:.3}: {wrong:#?}");
        assert!(recall >= 0.98, "recall {recall:.3}: {wrong:#?}");
    }

    /// Every labelled hit is found through the index: its name's keys meet
    /// the keys of the query's most specific word (or its number).

    #[test]
    fn labelled_hits_meet_in_the_index() {
        for p in labelled_pairs().into_iter().filter(|p| p.hit && score(&p.query, &p.name, p.identity.as_deref()).is_some()) {
            let idx = index_keys(&p.name, p.identity.as_deref());
            let plan = query_plan(&p.query);
            let by_word = plan.words.first().is_some_and(|(_, keys)| keys.iter().any(|k| idx.contains(k)));
            let by_number = plan.numbers.iter().any(|k| idx.contains(k));
            assert!(by_word || by_number, "{p:?}: {plan:?} / {idx:?}");
        }
    }

    #[test]
    fn a_very_long_word_keys_a_bounded_index() {
        let long = "x".repeat(1_000);
        let keys = index_keys(&long, None);
        assert!(keys.len() <= MAX_KEYED_LETTERS + 1, "{} keys", keys.len());
        assert!(keys.iter().all(|k| k.len() <= MAX_KEYED_LETTERS + 2));
        // Searching the same long word still meets it.
        let plan = query_plan(&long);
        assert!(plan.words[0].1.iter().any(|k| keys.contains(k)));
    }

    #[test]
    fn short_words_prefixes_and_stems() {
        assert_eq!(word_alike("berg", "bergstrom"), None);
        assert_eq!(word_alike("ek", "eka"), None);
        assert_eq!(word_alike("ahmad", "hamad"), None);
        assert_eq!(word_alike("hamad", "hamda"), Some(TYPO_SCORE));
        assert_eq!(word_alike("k", "karl"), Some(INITIAL_SCORE));
        assert_eq!(word_alike("karl", "k"), None);
        assert_eq!(word_alike("scania", "skandia"), None);
        assert_eq!(word_alike("karlsson", "carlson"), Some(SPELLING_SCORE));
        assert_eq!(word_alike("sodreberg", "soderberg"), Some(TYPO_SCORE));
        assert_eq!(word_alike("lindberg", "lundberg"), None);
        assert_eq!(word_alike("johanssn", "johansson"), Some(TYPO_SCORE));
    }

    #[test]
    fn unmatched_name_words_lower_the_score() {
        let whole = score("Anna Lindqvist", "Anna Lindqvist", None).unwrap().score;
        let part = score("Lindqvist", "Anna Lindqvist", None).unwrap().score;
        assert_eq!(whole, 1.0);
        assert!(part < whole && part > 0.5, "{part}");
    }

    #[test]
    fn word_keys_do_not_gather_names_that_begin_alike() {
        // Nothing is keyed by a bare prefix: Berg and Bergström share no key.
        let berg = index_keys("Berg", None);
        assert!(index_keys("Bergström", None).iter().all(|k| !berg.contains(k)));
        assert!(index_keys("Skandia Liv", None).iter().all(|k| !index_keys("Scania", None).contains(k)));
        // Nor merely the same letters in another order; a swap after the first letter does meet.
        assert!(index_keys("Kremtoez", None).iter().all(|k| !index_keys("Ekström", None).contains(k)));
        assert!(index_keys("Ekstörm", None).iter().any(|k| index_keys("Ekström", None).contains(k)));
        // An initial reads nothing; the other word does.
        let plan = query_plan("K. Johansson");
        assert_eq!(plan.words.len(), 1);
        assert_eq!(plan.words[0].0, "johansson");
    }

    #[test]
    fn numbers_written_in_a_name_count() {
        assert_eq!(identity_numbers_in("Motpart AB (556036-0793)"), vec!["5560360793"]);
        assert!(identity_numbers_in("ärende 2026-000012").is_empty());
        assert!(index_keys("Motpart AB 556036-0793", None).contains(&"N#5560360793".to_string()));
        assert!(score("5560360793", "Motpart AB (556036-0793)", None).unwrap().identity_match);
    }

    #[test]
    fn transliterated_names_meet_and_look_alikes_do_not() {
        for (q, name) in [
            ("Ahmed Hassan", "Ahmad Hasan"),
            ("Mohammed Ali", "Muhammad Ali"),
            ("Maxamed", "Mohamed"),
            ("Youssef", "Yusuf"),
            ("Hüseyin", "Hussein"),
            ("Aleksandr", "Oleksandr"),
            ("Sergei", "Sergej"),
            ("Sergey", "Sergej"),
            ("Tatyana", "Tatjana"),
            ("Dmitry", "Dmitri"),
            ("Jovanovitj", "Jovanović"),
            ("Jovanovich", "Jovanovic"),
            ("Kowalsky", "Kowalski"),
            ("Müller", "Mueller"),
        ] {
            let m = score(q, name, None).unwrap_or_else(|| panic!("expected '{q}' to find '{name}'"));
            assert!(m.reasons.contains(&MatchReason::SpelledDifferently), "{q} / {name}: {m:?}");
            // Found through the index too, not only when scored.
            assert!(query_keys(q).iter().any(|k| index_keys(name, None).contains(k)), "{q} / {name}");
        }
        // Letters that fold to the same spelling are the same name.
        for (q, name) in [("Strauß", "Strauss"), ("Đorđević", "Djordjevic"), ("Öztürk", "Ozturk")] {
            assert_eq!(score(q, name, None).map(|m| m.reasons), Some(vec![MatchReason::SameName]), "{q} / {name}");
        }
        for (q, name) in
            [("Ahmed Hassan", "Ahmad Hassani"), ("Mohammed", "Mahmoud"), ("Oleksandr Ivanov", "Aleksandr Ivanenko"), ("Müller", "Möller")]
        {
            assert!(!hit(q, name), "expected '{q}' not to find '{name}' ({:?})", score(q, name, None));
        }
    }

    #[test]
    fn the_arabic_article_and_abd_compounds_are_written_many_ways() {
        for (q, name) in [
            ("Alhassan", "Hassan"),
            ("Omar Alhassan", "Omar Hassan"),
            ("El Hassan Ahmad", "Ahmed Al-Hassan"),
            ("Mohammed Alsaadi", "Muhammad As-Saadi"),
            ("Khaled Al Hamad", "Khalid Alhamad"),
            ("Hassan Alali", "Hassan Ali"),
            ("Abdul Rahman Ali", "Abdulrahman Ali"),
            ("Abd al-Rahman Hassan", "Abdirahman Hassan"),
            ("Abdel Karim Nasser", "Abdulkarim Nasser"),
            ("Abdurrahman Omar", "Abdelrahman Omar"),
        ] {
            assert!(hit(q, name), "expected '{q}' to find '{name}'");
            assert!(query_keys(q).iter().any(|k| index_keys(name, None).contains(k)), "{q} / {name}");
        }
        // With the article left out, the name is not written the same way.
        let m = score("Omar Alhassan", "Omar Hassan", None).unwrap();
        assert_eq!(m.reasons, vec![MatchReason::SpelledDifferently]);
        let m = score("Abd al-Rahman Hassan", "Abdirahman Hassan", None).unwrap();
        assert_eq!(m.reasons, vec![MatchReason::SpelledDifferently]);
        // Written the same way but for the hyphen or a space: the same name.
        assert_eq!(score("Al-Hassan", "Al Hassan", None).map(|m| m.reasons), Some(vec![MatchReason::SameName]));
        assert_eq!(score("Alhassan", "Al-Hassan", None).map(|m| m.reasons), Some(vec![MatchReason::SameName]));
        assert_eq!(score("Abdul Rahman", "Abdulrahman", None).map(|m| m.reasons), Some(vec![MatchReason::SameName]));
        assert_eq!(words("Al-Hassan Omar"), vec!["hassan", "omar"]);
        assert_eq!(name_words("Alhassan").with_article, vec![spelling("hassan")]);
        // The article is dropped only before names it is written with.
        for (q, name) in [
            ("El-Service AB", "Service Partner AB"),
            ("Al Bygg", "Bygg AB"),
            ("Alberg Konsult", "Berg Konsult"),
            ("Alissa Berg", "Issa Berg"),
            ("Abdul Karim Nasser", "Abdul Rahman Nasser"),
            ("Abdi Hassan", "Abdirahman Hassan"),
        ] {
            assert!(!hit(q, name), "expected '{q}' not to find '{name}' ({:?})", score(q, name, None));
        }
        for first in [
            "Alexander",
            "Alice",
            "Alina",
            "Alma",
            "Alva",
            "Alvin",
            "Albin",
            "Alfred",
            "Elias",
            "Elin",
            "Elsa",
            "Ellen",
            "Elvira",
            "Elena",
            "Elise",
            "Alissa",
            "Alawi",
            "Abdullah",
            "Abdi",
        ] {
            assert_eq!(words(first), vec![fold(first)], "{first}");
        }
    }

    #[test]
    fn every_spelling_belongs_to_one_family_only() {
        let mut seen = std::collections::HashMap::new();
        for (family, variants) in name_variant_families() {
            assert!(variants.len() >= 2, "{family}: a family needs two spellings");
            for v in variants {
                if let Some(other) = seen.insert(base_spelling(&v), family.clone()) {
                    assert_eq!(other, family, "{v} is in the families {other} and {family}");
                }
            }
        }
    }

    #[test]
    fn company_forms_are_ignored_for_matching_and_kept_apart() {
        assert_eq!(words("Aktiebolaget Volvo"), vec!["volvo"]);
        assert_eq!(words("AB Volvo (publ)"), vec!["volvo"]);
        assert_eq!(words("Fastighetsaktiebolaget Balder"), words("Fastighets AB Balder"));
        assert_eq!(words("Telefonaktiebolaget L M Ericsson"), vec!["telefon", "l", "m", "ericsson"]);
        assert_eq!(words("Bostadsrättsföreningen Solgläntan"), vec!["solglantan"]);
        assert_eq!(words("Brf Solgläntan"), vec!["solglantan"]);
        assert_eq!(words("Lantmännen ek. för."), vec!["lantmannen"]);
        assert_eq!(words("Lantmännen ekonomisk förening"), vec!["lantmannen"]);
        assert_eq!(words("Berglund Måleri enskild firma"), vec!["berglund", "maleri"]);
        assert_eq!(words("Kesko Abp"), vec!["kesko"]);
        // Words that are forms only beside another stay: Enskilda Banken, Ek the surname.
        assert_eq!(words("Skandinaviska Enskilda Banken"), vec!["skandinaviska", "enskilda", "banken"]);
        assert_eq!(words("Anna Ek"), vec!["anna", "ek"]);
        // A name made only of forms keeps them.
        assert_eq!(words("AB"), vec!["ab"]);
        assert_eq!(name_words("Aktiebolaget Volvo").forms, vec!["aktiebolaget"]);
        // The same form written out or abbreviated is no difference to report.
        let m = score("Aktiebolaget Volvo", "AB Volvo", None).unwrap();
        assert_eq!(m.reasons, vec![MatchReason::SameName]);
        let m = score("AB Volvo", "Volvo AB", None).unwrap();
        assert_eq!(m.reasons, vec![MatchReason::SameName]);
        let m = score("Volvo", "Volvo Handelsbolag", None).unwrap();
        assert_eq!(m.reasons, vec![MatchReason::SameName, MatchReason::CompanyFormIgnored]);
        let m = score("Lind & Son HB", "Lind & Son AB", None).unwrap();
        assert_eq!(m.reasons, vec![MatchReason::SameName, MatchReason::CompanyFormIgnored]);
    }

    #[test]
    fn reasons_say_why_a_name_matched() {
        let m = score("Lindqvist Anna", "Anna Lindkvist", None).unwrap();
        assert_eq!(m.reasons, vec![MatchReason::SpelledDifferently, MatchReason::NameOrder]);
        let m = score("K. Johansson", "Karin Johansson", None).unwrap();
        assert_eq!(m.reasons, vec![MatchReason::Initial]);
        let m = score("Ericsson", "Telefonaktiebolaget LM Ericsson", None).unwrap();
        assert_eq!(m.reasons, vec![MatchReason::SameName, MatchReason::CompanyFormIgnored, MatchReason::MoreWordsInName]);
    }

    #[test]
    fn numbers_match_in_every_written_form_and_only_with_a_right_check_digit() {
        let ericsson = Some("556016-0680");
        for q in ["SE556016068001", "SE 556016-0680 01", "se556016068001", "16556016-0680", "165560160680", "5560160680", "556016-0680"] {
            let m = score(q, "Telefonaktiebolaget LM Ericsson", ericsson).unwrap_or_else(|| panic!("{q}"));
            assert!(m.identity_match, "{q}");
            assert!(query_keys(q).contains(&"N#5560160680".to_string()), "{q}");
        }
        assert!(index_keys("Ericsson AB (SE556016068001)", None).contains(&"N#5560160680".to_string()));
        for q in ["SE556016068002", "SE55601606800", "556016-0681"] {
            assert!(score(q, "Telefonaktiebolaget LM Ericsson", ericsson).is_none(), "{q}");
        }
        // A wrong check digit is never a hit by number, not even on a record
        // stored with the same wrong number; it is not indexed either.
        assert!(score("556016-0681", "Kontorsmöbler AB", Some("556016-0681")).is_none());
        assert!(!index_keys("Kontorsmöbler AB", Some("556016-0681")).iter().any(|k| k.starts_with("N#")));
        // Personal numbers with or without century, dash or plus.
        for q in ["19811218-9876", "198112189876", "811218+9876", "8112189876"] {
            assert!(score(q, "Anna Berg", Some("811218-9876")).unwrap().identity_match, "{q}");
        }
        // A coordination number (the day plus 60) is recognised and matches.
        assert_eq!(parse_identity_number("19701063-2391"), Ok(Some("701063-2391".into())));
        assert!(score("197010632391", "Bo Ek", Some("701063-2391")).unwrap().identity_match);
        assert!(score("701063-2392", "Bo Ek", Some("701063-2392")).is_none());
    }
}

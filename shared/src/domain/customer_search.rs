//! Which words find a customer in the customer lists and dropdowns (issue
//! 17): every word of its name, company name, e-mail and registration
//! number, folded like the conflict search's names (lower case, Nordic
//! letters folded). A query finds a customer when each of its words begins
//! one of the customer's words ("berg" finds "Anna Bergström", "556000"
//! and "5560000001" find "556000-0001").

use super::customer::CustomerProfile;

/// Query words shorter than this read nothing (a one-letter key range
/// would be most of the firm); the search asks for more letters.
pub const SEARCH_WORD_MIN: usize = 2;
/// A customer is indexed under at most this many words (names first), so
/// its save stays well inside one transaction.
pub const MAX_SEARCH_WORDS: usize = 16;

/// The folded words of a text: split on anything but letters and digits.
pub fn fold_words(text: &str) -> Vec<String> {
    super::conflict::fold(text).split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_string).collect()
}

/// The words a customer is found by, in a fixed order (names, company,
/// e-mail, registration number), each once, at most [`MAX_SEARCH_WORDS`].
pub fn search_words(p: &CustomerProfile) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |w: String| {
        if w.chars().count() >= SEARCH_WORD_MIN && !out.contains(&w) && out.len() < MAX_SEARCH_WORDS {
            out.push(w);
        }
    };
    for text in [p.first_name.as_str(), p.last_name.as_str(), p.company_name.as_deref().unwrap_or_default(), p.email.as_str()] {
        fold_words(text).into_iter().for_each(&mut add);
    }
    if let Some(n) = p.registration_number() {
        let digits: String = n.chars().filter(char::is_ascii_digit).collect();
        add(digits);
        fold_words(n).into_iter().for_each(&mut add);
    }
    out
}

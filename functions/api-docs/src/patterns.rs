//! The shapes the server checks for phone numbers, post codes, identity
//! and organisation numbers, addresses of the web and e-mail addresses,
//! written as the JSON Schema patterns of the fields that carry them
//! ([`FIELDS`], and those generated from the server's own rules:
//! [`all_fields`]). Each pattern says what its server check accepts (the
//! check named beside it; `tests/suite/patterns.rs` runs both on the same
//! samples), so a generated client refuses what the server would; what a
//! pattern cannot say (a check digit) is listed with its reason in the
//! fuzz's refusals.

/// The characters `keep` accepts, as the ranges of a regex class (`\uXXXX`
/// escapes: JSON Schema's, Python's and Rust's regexes read them alike).
/// Only the Basic Multilingual Plane: the classes built here name control,
/// space and format characters, all of them in it.
pub fn class(keep: impl Fn(char) -> bool) -> String {
    let mut out = String::new();
    let mut run: Option<(u32, u32)> = None;
    let flush = |r: (u32, u32), out: &mut String| {
        out.push_str(&format!("\\u{:04x}", r.0));
        if r.1 > r.0 {
            out.push_str(&format!("-\\u{:04x}", r.1));
        }
    };
    for n in 0..=0xFFFFu32 {
        let kept = char::from_u32(n).is_some_and(&keep);
        run = match (run, kept) {
            (Some((a, b)), true) if b + 1 == n => Some((a, n)),
            (Some(r), true) => {
                flush(r, &mut out);
                Some((n, n))
            }
            (None, true) => Some((n, n)),
            (Some(r), false) => {
                flush(r, &mut out);
                None
            }
            (None, false) => None,
        };
    }
    if let Some(r) = run {
        flush(r, &mut out);
    }
    out
}

/// What `char::is_whitespace` (Rust's `trim`) removes, as a class: the
/// regexes' own `\s` differ (Python's takes U+001C to U+001F, ECMAScript's
/// U+FEFF), so a generated client would send spaces the server keeps.
pub fn space() -> String {
    format!("[{}]", class(char::is_whitespace))
}

/// A required text as the server reads it (`shared::domain::text`,
/// `clean_name` and `clean_long`): some character that shows
/// ([`shared::domain::text::shows`]) is left once escape sequences,
/// control characters and bidirectional overrides are removed. An escape
/// sequence hides what it holds (`ESC [ 1 m`, `ESC ] … BEL`, `ESC x`), so
/// the pattern follows the server's reading of them: states N (text), E
/// (after ESC), C (a CSI's parameters) and O (an OSC's text, up to BEL, ST
/// or ESC \\), written as a regex.
pub fn visible() -> String {
    use shared::domain::text::{shows, ESCAPE_INTRODUCERS};
    let intro = |c: char| ESCAPE_INTRODUCERS.contains(&c);
    let hidden = class(|c| !shows(c));
    // Shows: any character; one past ASCII (after ESC or inside a CSI every
    // ASCII character is the sequence's own).
    let shows_any = format!("[^{hidden}]");
    let shows_wide = format!(r"[^{hidden}\u0000-\u007f]");
    // Shows nothing and starts no sequence; the same but the space (which
    // an ESC or a CSI takes as its own).
    let quiet = format!("[{}]", class(|c| !shows(c) && !intro(c)));
    let quiet_wide = format!("[{}]", class(|c| !shows(c) && !intro(c) && c != ' '));
    // From inside an OSC back to text: up to BEL or ST, an ESC before
    // anything but `\` being the OSC's own.
    let osc = r"(?:[^\x07\x9c\x1b]|\x1b+[^\x1b\\\x07\x9c])*(?:[\x07\x9c]|\x1b+[\\\x07\x9c])";
    // ESC then at most `[` or CSI, a CSI's parameters after it.
    let csi_first = r"\x9b[ -?\x9b]*";
    let step = r"\x1b(?:[\[\x9b][ -?\x9b]*)?";
    let after_esc = format!(r"(?:{csi_first})?(?:{step})*\x1b");
    let in_csi = format!(r"(?:(?:{csi_first})?(?:{step})*\x1b[\[\x9b][ -?\x9b]*|{csi_first})");
    // Back to text from after an ESC (a second character of its own, an
    // OSC, or one past ASCII the ESC leaves alone) or from a CSI (its final
    // character, or one past ASCII).
    let esc_end = format!(r"(?:[ -Z\\^-~]|{quiet_wide}|[\]\x9d]{osc})");
    let csi_end = format!(r"(?:[@-~]|{quiet_wide}|\x9d{osc})");
    format!(r"^(?:{quiet}|\x9d{osc}|{after_esc}{esc_end}|{in_csi}{csi_end})*(?:{shows_any}|(?:{after_esc}|{in_csi}){shows_wide})")
}

/// `shared::domain::customer::is_valid_phone`: an optional `+`, then 7 to
/// 15 digits with spaces or dashes between (and after) them, at most 30
/// characters (`maxLength`).
pub const PHONE: &str = r"^\+?[0-9](?:[ -]*[0-9]){6,14}[ -]*$";
/// `shared::domain::contact::normalize_phone`: empty (no phone), or 7 to
/// 15 digits with spaces, dashes or parentheses around them, a `+` only
/// first.
pub const CONTACT_PHONE: &str = r"^\s*(?:\+?[ ()-]*(?:[0-9][ ()-]*){7,15})?\s*$";
/// A signing recipient's phone (`shared::domain::addons`): digits, `+`,
/// spaces and dashes, at most 20.
pub const RECIPIENT_PHONE: &str = r"^\s*[0-9+ -]{0,20}\s*$";
/// `shared::domain::identity_number::parse_identity_number` (its shape; the
/// check digit is the server's alone): ten digits, or twelve from a
/// century 16, 18, 19 or 20, a dash or plus before the last four if any;
/// empty for none.
pub const IDENTITY_NUMBER: &str = r"^\s*(?:(?:16|18|19|20)?[0-9]{6}[-+]?[0-9]{4})?\s*$";
/// The same for an organisation number that must be given.
pub const ORGANISATION_NUMBER: &str = r"^\s*(?:16|18|19|20)?[0-9]{6}[-+]?[0-9]{4}\s*$";
/// `shared::domain::customer::is_valid_post_code`: a customer's Swedish
/// post code, five digits written without the space (spec §5).
pub const POST_CODE: &str = r"^[0-9]{5}$";
/// A case address's post code (`shared::domain::case::validate`): up to
/// ten letters, digits, spaces or dashes (a Swedish one must be five
/// digits, which depends on the country: listed, not a pattern).
pub const CASE_POST_CODE: &str = r"^\s*[A-Za-z0-9 -]{0,10}\s*$";
/// An inkasso account's home page: empty, or an http(s) address.
pub const HOME_PAGE: &str = r"^\s*(?:https?://[\s\S]*)?$";
/// A lawyer's video-meeting address (`shared::domain::staff`): empty, or
/// an http(s) address without spaces, at most 500 characters.
pub const VIDEO_CARE_URL: &str = r"^\s*(?:https://\S{0,492}|http://\S{0,493})?\s*$";
/// `shared::domain::academy::embed_url`, the lesson player's allow-list:
/// empty, or a YouTube (watch, embed, shorts, youtu.be, nocookie) or
/// Vimeo address of a video id.
pub const VIDEO_URL: &str = concat!(
    r"^\s*(?:https?://(?:www\.)?(?:m\.)?(?:",
    r"youtube\.com/(?:watch\?(?:[^&]*&)*v=|embed/|shorts/)[A-Za-z0-9_-]{6,20}",
    r"|youtu\.be/[A-Za-z0-9_-]{6,20}",
    r"|youtube-nocookie\.com/embed/[A-Za-z0-9_-]{6,20}",
    r"|(?:player\.vimeo\.com/video/|vimeo\.com/)[0-9]{1,12}",
    r")(?:[?&#/][\s\S]*)?)?\s*$"
);
/// `shared::domain::user::is_valid_email`: a local part, `@`, a domain with
/// a dot neither first nor last; no spaces, one `@`.
pub const EMAIL: &str = r"^\s*[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F](?:[A-Za-z0-9\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F-]*[A-Za-z0-9\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F])?\.)+[A-Za-z0-9\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F](?:[A-Za-z0-9\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F-]*[A-Za-z0-9\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F])?\s*$";

/// `shared::domain::calendar::parse_month`: `YYYY-MM` of the years 1900
/// to 2100, or blank (the conflict-search audit export: this month).
pub const MONTH: &str = r"^\s*(?:(?:19[0-9]{2}|20[0-9]{2}|2100)-(?:0[1-9]|1[0-2]))?\s*$";
/// `shared::domain::additional_hour::parse_month`: a month as [`MONTH`], or
/// a day of the calendar `YYYY-MM-DD` in it (29 February of leap years
/// only: every fourth year but 1900 and 2100).
pub const MONTH_OR_DATE: &str = concat!(
    r"^\s*(?:(?:19[0-9]{2}|20[0-9]{2}|2100)-(?:",
    r"(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|1[0-9]|2[0-8]))?",
    r"|(?:0[13-9]|1[0-2])-(?:29|30)",
    r"|(?:0[13578]|1[02])-31)",
    r"|(?:19(?:0[48]|[2468][048]|[13579][26])|20(?:[02468][048]|[13579][26]))-02-29)\s*$"
);

/// `shared::domain::addons::valid_iban`'s shape (the mod-97 check digits
/// are the server's alone): two letters, two digits, 11 to 30 letters or
/// digits, spaces anywhere; empty for none.
pub const IBAN: &str = r"^\s*(?:(?:[A-Za-z]\s*){2}(?:[0-9]\s*){2}(?:[A-Za-z0-9]\s*){11,30})?$";
/// `shared::domain::addons::valid_bic`: six letters, two letters or
/// digits, optionally three more; empty for none.
pub const BIC: &str = r"^\s*(?:[A-Za-z]{6}[A-Za-z0-9]{2}(?:[A-Za-z0-9]{3})?)?\s*$";
/// `shared::domain::addons::valid_plus_giro`'s shape (the Luhn check digit
/// is the server's): 2 to 8 digits with spaces or dashes; blank for none.
pub const PLUS_GIRO: &str = r"^(?:\s*|[ -]*(?:[0-9][ -]*){2,8})$";
/// `shared::domain::addons::valid_bank_giro`'s shape: 7 or 8 digits.
pub const BANK_GIRO: &str = r"^(?:\s*|[ -]*(?:[0-9][ -]*){7,8})$";

// A file name as `shared::domain::document::display_name` reads it: its
// last path part (after `/` or `\\`, no escape sequence in it) holds a
// character that cleaning keeps and that is no dot, space or quote, before
// the extension; what follows the extension is removed (spaces, control
// and bidirectional characters, quotes).
macro_rules! last_part {
    () => {
        r#"^(?:[\s\S]*[/\\])?[^/\\\x1b\x9b\x9d]*[^/\\\s."\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069][^/\\\x1b\x9b\x9d]*\."#
    };
}
macro_rules! removed_after {
    () => {
        r#"[\s\x00-\x1a\x1c-\x1f\x7f-\x9a\x9c\x9e\x9f"\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]*$"#
    };
}
/// A document's file name (`shared::domain::document::type_of_name`): its
/// extension one of pdf, doc(x), xls(x), ppt(x), jpg, jpeg, png, in any
/// letter case.
pub const FILE_NAME: &str = concat!(
    last_part!(),
    r"(?:[pP][dD][fF]|[dD][oO][cC][xX]?|[xX][lL][sS][xX]?|[pP][pP][tT][xX]?|[jJ][pP][eE]?[gG]|[pP][nN][gG])",
    removed_after!()
);
/// A PDF to upload for signing or as an invoice: a [`FILE_NAME`] of a PDF
/// that ends in `.pdf` but for spaces (the services check the raw name too).
pub const PDF_FILE_NAME: &str = concat!(last_part!(), r"[pP][dD][fF]\s*$");
/// An envelope's document as named in its form: ends in `.pdf` but for spaces.
pub const PDF_NAME: &str = r"\.[pP][dD][fF]\s*$";

/// `shared::domain::notification::categories`: the `description` filter,
/// a comma-separated set of `case`, `message` and `others` (spaces and
/// empty items between them), or nothing (every category).
pub const CATEGORIES: &str =
    concat!(r"^[ \t\r\n,]*(?:(?:case|message|others)[ \t\r\n]*", r"(?:,[ \t\r\n,]*(?:case|message|others)[ \t\r\n]*)*[ \t\r\n,]*)?$");
/// `shared::domain::support::TicketStatus::parse`: one of the statuses,
/// spaces around it, or nothing (every status, as `services::support::list` reads it).
pub const TICKET_STATUS: &str = r"^[ \t\r\n]*(?:open|answered|closed)?[ \t\r\n]*$";
/// `shared::domain::customer::list_state`: a customer list's state, `all`,
/// or nothing (active), spaces around it.
pub const CUSTOMER_LIST_STATE: &str = r"^[ \t\r\n]*(?:pending|active|inactive|all)?[ \t\r\n]*$";
/// `shared::services::erasure::all_requests`: one of the data-rights
/// requests' states (`shared::services::erasure::STATES`), spaces around it,
/// or nothing (every state).
pub const DATA_REQUEST_STATE: &str = r"^[ \t\r\n]*(?:queued|running|ready|failed|expired|pending|approved|erased|refused)?[ \t\r\n]*$";
/// `shared::domain::permissions::Permission::from_code`: one of the codes,
/// spaces around it (the codes themselves: [`permission_code`]).
pub fn permission_code() -> String {
    use shared::domain::permissions::Permission;
    let codes: Vec<&str> = Permission::ALL.iter().map(|p| p.code()).collect();
    format!(r"^[ \t\r\n]*(?:{})[ \t\r\n]*$", codes.join("|"))
}

/// (method, path, query parameter, pattern) of every query parameter the
/// server checks the shape of.
pub const QUERY: &[(&str, &str, &str, &str)] = &[
    ("get", "/api/search/fuzzy/audit/csv/", "month", MONTH),
    ("get", "/api/notification/", "description", CATEGORIES),
    ("get", "/api/notification/seen/count/", "description", CATEGORIES),
    ("post", "/api/notification/seen/update/", "description", CATEGORIES),
    ("get", "/api/support/", "status", TICKET_STATUS),
    ("get", "/api/customer/list/", "status", CUSTOMER_LIST_STATE),
    ("get", "/api/data-requests/", "status", DATA_REQUEST_STATE),
];

/// (method, path, query parameter) of every day the server reads as
/// `shared::domain::subscription::parse_date` does: [`day_only`], in place of
/// `format: date` (a generator draws days of any year, and nearly all of them
/// would then fail the years' pattern: Schemathesis gave up on the
/// operation, "too many generated examples are filtered out").
pub const QUERY_DAYS: &[(&str, &str, &str)] = &[
    ("get", "/api/customer/purchase-services/{id}/excel/", "start_date"),
    ("get", "/api/customer/purchase-services/{id}/excel/", "end_date"),
];

/// (method, path, query parameter, pattern) of the query parameters whose
/// patterns are generated from the server's words.
pub fn query_generated() -> Vec<(&'static str, &'static str, &'static str, String)> {
    let sp = space();
    let words: Vec<String> = shared::domain::policy::LIST_WORDS.iter().map(|w| any_ascii_case(w)).collect();
    vec![
        ("get", "/api/case/list/", "status", format!("^{sp}*(?:{})?{sp}*$", words.join("|"))),
        ("get", "/api/notification/", "ordering", format!("^{sp}*(?:{})?{sp}*$", shared::services::notifications::ORDERING)),
    ]
}

/// `word` in either case of each ASCII letter (`eq_ignore_ascii_case`,
/// `to_ascii_lowercase`), other characters as they are.
pub fn any_ascii_case(word: &str) -> String {
    word.chars()
        .map(|c| if c.is_ascii_alphabetic() { format!("[{}{}]", c.to_ascii_uppercase(), c.to_ascii_lowercase()) } else { c.to_string() })
        .collect()
}

/// (schema, array property) of every list of permission codes.
pub const PERMISSION_LISTS: &[(&str, &str)] = &[("CreateContactRequest", "permissions"), ("UpdateContactRequest", "permissions")];

/// `shared::domain::date_in_range` beside `format: date`: a form's day is
/// in the years 1900 to 2100.
pub const DATE_IN_RANGE: &str = r"^\s*(?:19[0-9]{2}|20[0-9]{2}|2100)-";

/// (schema, property, pattern, maxLength to add) of every request body
/// field the server checks the shape of.
pub const FIELDS: &[(&str, &str, &str, Option<usize>)] = &[
    ("CustomerForm", "phone", PHONE, Some(30)),
    ("Registration", "phone", PHONE, Some(30)),
    ("CreateContactRequest", "phone", CONTACT_PHONE, None),
    ("UpdateContactRequest", "phone", CONTACT_PHONE, None),
    ("ProfileUpdateRequest", "phone", CONTACT_PHONE, None),
    ("Recipient", "phone", RECIPIENT_PHONE, None),
    ("CreateContactRequest", "identity_number", IDENTITY_NUMBER, None),
    ("UpdateContactRequest", "identity_number", IDENTITY_NUMBER, None),
    ("CaseForm", "counterpart_identity_number", IDENTITY_NUMBER, None),
    ("InkassoAccount", "organization_number", ORGANISATION_NUMBER, None),
    ("Address", "post_code", POST_CODE, None),
    ("CaseAddress", "post_code", CASE_POST_CODE, None),
    ("InkassoAccount", "home_page", HOME_PAGE, None),
    ("StaffInput", "video_care_url", VIDEO_CARE_URL, None),
    ("LessonForm", "video_url", VIDEO_URL, None),
    ("CustomerForm", "email", EMAIL, None),
    ("Registration", "email", EMAIL, None),
    ("CreateContactRequest", "email", EMAIL, None),
    ("StaffInput", "email", EMAIL, None),
    ("ClaimForm", "debtor_email", EMAIL, None),
    ("Recipient", "email", EMAIL, None),
    ("AdditionalHourForm", "month", MONTH_OR_DATE, None),
    ("AutoUpdate", "auto_update_date_end", DATE_IN_RANGE, None),
    ("NameRequest", "name", FILE_NAME, None),
    ("BankIdOrderRequest", "order_ref", NOT_BLANK, None),
    ("TemplateRequest", "name", FILE_NAME, None),
    ("CaseFileUploadRequest", "name", FILE_NAME, None),
    ("ConfirmRequest", "name", FILE_NAME, None),
    ("UploadRequest", "name", FILE_NAME, None),
    ("PdfUpload", "name", PDF_FILE_NAME, None),
    ("InvoiceUpload", "name", PDF_FILE_NAME, None),
    ("EnvelopeDocument", "name", PDF_NAME, None),
    ("InkassoAccount", "iban", IBAN, None),
    ("InkassoAccount", "bic", BIC, None),
    ("InkassoAccount", "plus_giro", PLUS_GIRO, None),
    ("InkassoAccount", "bank_giro", BANK_GIRO, None),
];

/// (schema, property) of every required text the server cleans and then
/// requires (`shared::domain::text`): [`visible`], beside its `minLength`.
pub const VISIBLE_TEXTS: &[(&str, &str)] = &[
    ("Address", "address_1"),
    ("Address", "city"),
    ("AnswerRequest", "text"),
    ("CaseForm", "subject"),
    ("CaseForm", "description"),
    ("ClaimForm", "debtor_name"),
    ("ClaimForm", "debtor_address"),
    ("CreateContactRequest", "first_name"),
    ("CreateContactRequest", "last_name"),
    ("UpdateContactRequest", "first_name"),
    ("UpdateContactRequest", "last_name"),
    ("ProfileUpdateRequest", "first_name"),
    ("ProfileUpdateRequest", "last_name"),
    ("CustomerForm", "first_name"),
    ("CustomerForm", "last_name"),
    ("Registration", "first_name"),
    ("Registration", "last_name"),
    ("StaffInput", "first_name"),
    ("StaffInput", "last_name"),
    ("EnvelopeForm", "name"),
    ("NamedRequest", "name"),
    ("NoteRequest", "note"),
    ("PublishRequest", "sv"),
    ("PublishRequest", "en"),
    ("TemplateRequest", "title"),
    ("TemplateRequest", "category"),
    ("TicketRequest", "subject"),
    ("TicketRequest", "message"),
];

/// (schema, property) of every required text the server only trims before
/// requiring it (`trim().is_empty()`: catalogue names, lessons, an Inkasso
/// account's names): [`not_space`].
pub const TRIMMED_TEXTS: &[(&str, &str)] = &[
    ("InkassoAccount", "bank_name"),
    ("InkassoAccount", "contact_name"),
    ("LessonForm", "topic"),
    ("LessonForm", "title"),
    ("LessonEnglish", "topic"),
    ("LessonEnglish", "title"),
    ("NewPackage", "name"),
    ("NewServicePlan", "name"),
    ("SectorRequest", "name"),
];

/// Some character Rust's `trim` keeps (see [`space`]).
pub fn not_space() -> String {
    format!("[^{}]", class(char::is_whitespace))
}

/// (schema, property) of every optional uid the server reads with
/// `shared::domain::text::clean::opt_uuid`: [`UUID`] (a generator may draw
/// `""` for `format: uuid`, which the server refuses).
pub const UIDS: &[(&str, &str)] = &[
    ("HourRequest", "lawyer"),
    ("AdditionalHourRequest", "lawyer"),
    ("CaseRequest", "customer"),
    ("TicketRequest", "case_uid"),
    ("CreateContactRequest", "customer"),
];

/// (schema, property) of every day a case form or an hour entry reads as
/// `shared::domain::case::form::date` does: [`day_first`], in place of
/// `format: date` (see [`QUERY_DAYS`]).
pub const DAYS_FIRST: &[(&str, &str)] = &[("CaseForm", "start_date"), ("CaseForm", "deadline"), ("HourForm", "date")];

/// (schema, property) of a start on a whole minute ([`WHOLE_MINUTE`]), in
/// place of `format: date-time` (see [`QUERY_DAYS`]).
pub const WHOLE_MINUTES: &[(&str, &str)] = &[("SlotForm", "start")];

/// Every body field's pattern: [`FIELDS`] and the generated ones.
pub fn all_fields() -> Vec<(&'static str, &'static str, String)> {
    let mut out: Vec<_> = FIELDS.iter().map(|(s, f, p, _)| (*s, *f, (*p).to_string())).collect();
    let visible = visible();
    out.extend(VISIBLE_TEXTS.iter().map(|(s, f)| (*s, *f, visible.clone())));
    out.extend(TRIMMED_TEXTS.iter().map(|(s, f)| (*s, *f, not_space())));
    out.extend(UIDS.iter().map(|(s, f)| (*s, *f, UUID.to_string())));
    out.extend(DAYS_FIRST.iter().map(|(s, f)| (*s, *f, day_first())));
    out.extend(WHOLE_MINUTES.iter().map(|(s, f)| (*s, *f, WHOLE_MINUTE.to_string())));
    out.push(("ApplicationDecision", "creditor_id", agency_reference(false)));
    out.push(("ClaimUpdate", "agency_reference", agency_reference(false)));
    out.push(("TokenRegistration", "company", company_id(false)));
    out.push(("TokenLogin", "company", company_id(true)));
    out
}

/// An agency's reference (`shared::domain::inkasso::agency_reference`):
/// once trimmed ([`space`]), at most `MAX_AGENCY_REFERENCE` characters and
/// none a control character; blank is none unless `required` (an approval's
/// customer number). The bound is the pattern's, not a `maxLength`: the
/// server counts the trimmed text.
pub fn agency_reference(required: bool) -> String {
    let (control, space) = (class(char::is_control), class(char::is_whitespace));
    let max = shared::domain::inkasso::MAX_AGENCY_REFERENCE;
    let text = format!("[^{control}]{{0,{}}}[^{control}{space}]", max - 1);
    let text = if required { text } else { format!("(?:{text})?") };
    format!("^[{space}]*{text}[{space}]*$")
}

/// A company's id at the signing provider (`shared::services::addons`'s
/// `company_id`): 1 to 100 letters, digits, `-` or `_`, spaces around it;
/// when `optional`, blank for the one connected before.
pub fn company_id(optional: bool) -> String {
    format!("^{s}*(?:[A-Za-z0-9_-]{{1,100}}){}{s}*$", if optional { "?" } else { "" }, s = space())
}

/// A day of the calendar, `YYYY-MM-DD`, in the years 1900 to 2100
/// (`shared::domain::date_in_range`; 29 February of leap years only).
pub const DAY: &str = concat!(
    r"(?:(?:19[0-9]{2}|20[0-9]{2}|2100)-(?:",
    r"(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])",
    r"|(?:0[13-9]|1[0-2])-(?:29|30)",
    r"|(?:0[13578]|1[02])-31)",
    r"|(?:19(?:0[48]|[2468][048]|[13579][26])|20(?:[02468][048]|[13579][26]))-02-29)"
);

/// A case form's day (`shared::domain::case::form::date`): spaces, then a
/// [`DAY`]; the server reads its first ten characters.
pub fn day_first() -> String {
    format!("^{}*{DAY}", space())
}

/// A day between spaces (`shared::domain::subscription::parse_date`).
pub fn day_only() -> String {
    format!("^{s}*{DAY}{s}*$", s = space())
}

/// `uuid::Uuid::try_parse`: 32 hex digits, plain, hyphenated 8-4-4-4-12,
/// braced or as a URN.
pub const UUID: &str = concat!(
    r"^(?:[0-9a-fA-F]{32}",
    r"|(?:[uU][rR][nN]:[uU][uU][iI][dD]:)?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
    r"|\{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\})$"
);

/// A meeting slot's start (`shared::domain::meeting::validate_slot`): an
/// RFC 3339 time on a whole minute (no seconds, no fraction but zeros).
/// That it lies ahead, within the booking horizon, depends on the clock.
pub const WHOLE_MINUTE: &str = concat!(
    "^",
    r"(?:(?:19[0-9]{2}|20[0-9]{2}|2100)-(?:",
    r"(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])",
    r"|(?:0[13-9]|1[0-2])-(?:29|30)",
    r"|(?:0[13578]|1[02])-31)",
    r"|(?:19(?:0[48]|[2468][048]|[13579][26])|20(?:[02468][048]|[13579][26]))-02-29)",
    r"[Tt ](?:[01][0-9]|2[0-3]):[0-5][0-9]:00(?:\.0{1,9})?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$"
);

/// (schema, array property, pattern) of every list whose items the server
/// checks the shape of: the ids of a bulk change are none blank.
pub const ITEMS: &[(&str, &str, &str)] = &[("MassUpdateRequest", "ids", NOT_BLANK)];

/// Some character other than whitespace.
pub const NOT_BLANK: &str = r"\S";

/// Sets every [`QUERY`] pattern on its operation's parameter.
pub fn apply_query(paths: &mut utoipa::openapi::path::Paths) {
    use utoipa::openapi::{schema::Schema, RefOr};
    for (method, path, name, pattern) in QUERY {
        let Some(item) = paths.paths.get_mut(*path) else { panic!("no path {path}") };
        let op = match *method {
            "get" => item.get.as_mut(),
            "post" => item.post.as_mut(),
            other => panic!("query patterns are set on get and post only, not {other}"),
        };
        let Some(op) = op else { panic!("no {method} {path}") };
        let Some(p) = op.parameters.iter_mut().flatten().find(|p| p.name == *name) else { panic!("no parameter {name} of {path}") };
        let Some(RefOr::T(Schema::Object(o))) = p.schema.as_mut() else { panic!("{path} {name}: not an object schema") };
        o.pattern = Some((*pattern).to_string());
    }
    for (method, path, name, pattern) in query_generated() {
        let Some(op) = paths.paths.get_mut(path).and_then(|item| if method == "get" { item.get.as_mut() } else { None }) else {
            panic!("no {method} {path}")
        };
        let Some(p) = op.parameters.iter_mut().flatten().find(|p| p.name == name) else { panic!("no parameter {name} of {path}") };
        let Some(RefOr::T(Schema::Object(o))) = p.schema.as_mut() else { panic!("{path} {name}: not an object schema") };
        o.pattern = Some(pattern);
    }
    for (method, path, name) in QUERY_DAYS {
        let Some(op) = paths.paths.get_mut(*path).and_then(|item| if *method == "get" { item.get.as_mut() } else { None }) else {
            panic!("no {method} {path}")
        };
        let Some(p) = op.parameters.iter_mut().flatten().find(|p| p.name == *name) else { panic!("no parameter {name} of {path}") };
        let Some(RefOr::T(Schema::Object(o))) = p.schema.as_mut() else { panic!("{path} {name}: not an object schema") };
        o.pattern = Some(day_only());
        o.format = None;
    }
}

/// The object schema of `field` in `schema`: a property of the object, or
/// of an object among its `allOf` parts.
fn property_mut<'a>(
    schemas: &'a mut std::collections::BTreeMap<String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>>,
    schema: &str,
    field: &str,
) -> &'a mut utoipa::openapi::schema::Object {
    use utoipa::openapi::{schema::Schema, RefOr};
    fn find<'b>(s: &'b mut Schema, field: &str) -> Option<&'b mut utoipa::openapi::schema::Object> {
        match s {
            Schema::Object(o) => match o.properties.get_mut(field) {
                Some(RefOr::T(Schema::Object(p))) => Some(p),
                _ => None,
            },
            Schema::AllOf(all) => all.items.iter_mut().find_map(|i| match i {
                RefOr::T(s) => find(s, field),
                RefOr::Ref(_) => None,
            }),
            _ => None,
        }
    }
    let Some(RefOr::T(s)) = schemas.get_mut(schema) else { panic!("no schema {schema}") };
    find(s, field).unwrap_or_else(|| panic!("no property {schema}.{field}"))
}

/// Sets every [`FIELDS`] pattern and the generated ones ([`all_fields`]) on
/// its schema's property (a day's or a start's in place of its format).
pub fn apply(components: &mut utoipa::openapi::Components) {
    let schemas = &mut components.schemas;
    use utoipa::openapi::{schema::Schema, RefOr};
    for (schema, field, _, max) in FIELDS {
        if max.is_some() {
            property_mut(schemas, schema, field).max_length = *max;
        }
    }
    for (schema, field, pattern) in all_fields() {
        let p = property_mut(schemas, schema, field);
        p.pattern = Some(pattern);
        if DAYS_FIRST.contains(&(schema, field)) || WHOLE_MINUTES.contains(&(schema, field)) {
            p.format = None;
        }
    }
    for (schema, field) in PERMISSION_LISTS {
        use utoipa::openapi::schema::ArrayItems;
        let Some(RefOr::T(Schema::Object(o))) = schemas.get_mut(*schema) else { panic!("no object schema {schema}") };
        let Some(RefOr::T(Schema::Array(a))) = o.properties.get_mut(*field) else { panic!("no array {schema}.{field}") };
        let ArrayItems::RefOrSchema(item) = &mut a.items else { panic!("{schema}.{field}: no item schema") };
        let RefOr::T(Schema::Object(item)) = item.as_mut() else { panic!("{schema}.{field}: items not an object schema") };
        item.pattern = Some(permission_code());
    }
    for (schema, field, pattern) in ITEMS {
        use utoipa::openapi::schema::ArrayItems;
        let Some(RefOr::T(Schema::Object(o))) = schemas.get_mut(*schema) else { panic!("no object schema {schema}") };
        let Some(RefOr::T(Schema::Array(a))) = o.properties.get_mut(*field) else { panic!("no array {schema}.{field}") };
        let ArrayItems::RefOrSchema(item) = &mut a.items else { panic!("{schema}.{field}: no item schema") };
        let RefOr::T(Schema::Object(item)) = item.as_mut() else { panic!("{schema}.{field}: items not an object schema") };
        item.pattern = Some((*pattern).to_string());
        item.min_length = Some(1);
    }
}

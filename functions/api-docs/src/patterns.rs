//! The shapes the server checks for phone numbers, post codes, identity
//! and organisation numbers, addresses of the web and e-mail addresses,
//! written as the JSON Schema patterns of the fields that carry them
//! ([`FIELDS`]). Each pattern says what its server check accepts (the
//! check named beside it; `tests/suite/patterns.rs` runs both on the same
//! samples), so a generated client refuses what the server would; what a
//! pattern cannot say (a check digit, a case's post code that depends on
//! its country) is listed with its reason in the examples test and the
//! fuzz's refusals.

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
pub const EMAIL: &str = r"^\s*[^\s@]+@[^\s@.][^\s@]*\.[^\s@]*[^\s@.]\s*$";

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
];

/// Sets every [`FIELDS`] pattern on its schema's property.
pub fn apply(components: &mut utoipa::openapi::Components) {
    let schemas = &mut components.schemas;
    use utoipa::openapi::{schema::Schema, RefOr};
    for (schema, field, pattern, max) in FIELDS {
        let Some(RefOr::T(Schema::Object(o))) = schemas.get_mut(*schema) else { panic!("no object schema {schema}") };
        let Some(RefOr::T(Schema::Object(p))) = o.properties.get_mut(*field) else { panic!("no property {schema}.{field}") };
        p.pattern = Some((*pattern).to_string());
        if max.is_some() {
            p.max_length = *max;
        }
    }
}

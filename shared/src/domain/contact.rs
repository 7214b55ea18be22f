//! Customer contacts and profiles: who may manage whose contacts, and the
//! form rules (spec §3, §5, §6). Pure rules; the store and mail are elsewhere.

use super::policy;
use super::{Role, User};
use crate::error::Msg;
use crate::error::{ApiError, FieldErrors};

/// Whose contacts the caller may manage.
#[derive(Debug, PartialEq, Eq)]
pub enum ContactScope {
    /// The contacts of this one customer (a customer itself, or one of its contacts holding view_contact).
    Own(String),
    /// Any customer's (admin, sales person); the customer is named per call.
    AnyCustomer,
}

/// The scope of `user`: 403 for lawyers, accountless roles and contacts
/// without view_contact.
pub fn contact_scope(user: &User) -> Result<ContactScope, ApiError> {
    Ok(match policy::contacts_of(user)? {
        None => ContactScope::AnyCustomer,
        Some(customer) => ContactScope::Own(customer),
    })
}

/// Whether `contact` is a contact the caller in `scope` may see: other
/// companies' contacts (and non-contacts) are answered 404, not 403, so ids
/// of other companies cannot be probed.
pub fn may_see(scope: &ContactScope, contact: &User) -> bool {
    if !policy::is(contact, Role::CustomerContact) {
        return false;
    }
    match scope {
        ContactScope::AnyCustomer => true,
        ContactScope::Own(customer) => contact.customer_id.as_deref() == Some(customer.as_str()),
    }
}

/// Names take what every name field takes.
pub const NAME_MAX: usize = super::text::NAME_MAX;

/// First and last name: required, at most [`NAME_MAX`] characters.
pub fn check_names(errors: &mut FieldErrors, first_name: &str, last_name: &str) {
    for (field, v) in [("first_name", first_name), ("last_name", last_name)] {
        if v.trim().is_empty() {
            errors.add(field, Msg::Required);
        } else if v.trim().chars().count() > NAME_MAX {
            errors.add(field, Msg::TooLong);
        }
    }
}

/// A valid phone (spec §5): digits with optional leading +, spaces, dashes
/// and parentheses; 7 to 15 digits. Empty means "no phone".
pub fn normalize_phone(raw: Option<&str>) -> Result<Option<String>, Msg> {
    let Some(p) = raw.map(str::trim).filter(|p| !p.is_empty()) else { return Ok(None) };
    let allowed = p.chars().enumerate().all(|(i, c)| c.is_ascii_digit() || " -()".contains(c) || (c == '+' && i == 0));
    let digits = p.chars().filter(|c| c.is_ascii_digit()).count();
    if allowed && (7..=15).contains(&digits) {
        Ok(Some(p.to_string()))
    } else {
        Err(Msg::InvalidPhone)
    }
}

/// Largest profile image accepted.
pub const IMAGE_MAX_BYTES: i64 = 2 * 1024 * 1024;

/// Profile image types: the content type the browser must send, and the key's extension.
pub fn image_extension(content_type: &str) -> Option<&'static str> {
    match content_type.trim().to_ascii_lowercase().as_str() {
        "image/jpeg" | "image/jpg" => Some("jpg"),
        "image/png" => Some("png"),
        _ => None,
    }
}

pub fn content_type_of(ext: &str) -> &'static str {
    if ext == "png" {
        "image/png"
    } else {
        "image/jpeg"
    }
}

/// The bytes must start with the JPEG or PNG signature.
pub fn is_image_magic(head: &[u8]) -> bool {
    head.starts_with(&[0xFF, 0xD8, 0xFF]) || head.starts_with(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A])
}

/// The key prefix of a user's profile images; keys are always chosen by the server.
pub fn image_prefix(uid: &str) -> String {
    format!("profile-images/{uid}/")
}

/// Whether `key` is one the server could have chosen for `uid`:
/// `profile-images/<uid>/<uuid>.<jpg|png>`.
pub fn is_own_image_key(uid: &str, key: &str) -> bool {
    let Some(rest) = key.strip_prefix(&image_prefix(uid)) else { return false };
    let Some((name, ext)) = rest.rsplit_once('.') else { return false };
    matches!(ext, "jpg" | "png") && uuid_shaped(name)
}

fn uuid_shaped(s: &str) -> bool {
    s.len() == 36 && s.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::user::tests_support::sample;
    use crate::domain::Permission;

    #[test]
    fn scope_follows_role_and_view_contact() {
        let customer = sample(Some(3));
        assert_eq!(contact_scope(&customer).unwrap(), ContactScope::Own("u1".into()));
        let mut admin = sample(None);
        admin.is_staff = true;
        assert_eq!(contact_scope(&admin).unwrap(), ContactScope::AnyCustomer);
        assert_eq!(contact_scope(&sample(Some(2))).unwrap(), ContactScope::AnyCustomer);
        assert!(matches!(contact_scope(&sample(Some(1))), Err(ApiError::Forbidden)));

        let mut contact = sample(Some(4));
        contact.customer_id = Some("cust".into());
        assert!(matches!(contact_scope(&contact), Err(ApiError::Forbidden)));
        contact.permissions = vec![Permission::ViewContact];
        assert_eq!(contact_scope(&contact).unwrap(), ContactScope::Own("cust".into()));
    }

    #[test]
    fn only_own_company_contacts_are_visible() {
        let mut c = sample(Some(4));
        c.customer_id = Some("a".into());
        assert!(may_see(&ContactScope::Own("a".into()), &c));
        assert!(!may_see(&ContactScope::Own("b".into()), &c));
        assert!(may_see(&ContactScope::AnyCustomer, &c));
        // a customer is never "a contact" here
        assert!(!may_see(&ContactScope::AnyCustomer, &sample(Some(3))));
    }

    #[test]
    fn phone_and_names() {
        assert_eq!(normalize_phone(Some(" +46 70-123 45 67 ")), Ok(Some("+46 70-123 45 67".into())));
        assert_eq!(normalize_phone(Some("")), Ok(None));
        assert_eq!(normalize_phone(None), Ok(None));
        assert_eq!(normalize_phone(Some("12345")), Err(Msg::InvalidPhone));
        assert_eq!(normalize_phone(Some("070abc1234")), Err(Msg::InvalidPhone));
        assert_eq!(normalize_phone(Some("46+701234567")), Err(Msg::InvalidPhone));
        let mut e = FieldErrors::new();
        check_names(&mut e, " ", &"x".repeat(NAME_MAX + 1));
        assert_eq!(e["first_name"], vec![Msg::Required]);
        assert_eq!(e["last_name"], vec![Msg::TooLong]);
    }

    #[test]
    fn image_rules() {
        assert_eq!(image_extension("image/png"), Some("png"));
        assert_eq!(image_extension("IMAGE/JPEG"), Some("jpg"));
        assert_eq!(image_extension("image/gif"), None);
        assert!(is_image_magic(&[0xFF, 0xD8, 0xFF, 0xE0]));
        assert!(is_image_magic(b"\x89PNG\r\n\x1a\n...."));
        assert!(!is_image_magic(b"GIF89a"));
        assert!(!is_image_magic(b""));
        let key = "profile-images/u1/0b7e4e9a-9c1f-4b59-8f0e-3a1f2b3c4d5e.png";
        assert!(is_own_image_key("u1", key));
        assert!(!is_own_image_key("u2", key));
        assert!(!is_own_image_key("u1", "profile-images/u1/../u2/x.png"));
        assert!(!is_own_image_key("u1", "profile-images/u1/0b7e4e9a-9c1f-4b59-8f0e-3a1f2b3c4d5e.gif"));
    }
}

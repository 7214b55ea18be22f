//! Users of all five roles and the session user the web keeps (spec §3, §6).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The five roles of spec §1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Admin,
    Lawyer,
    SalesPerson,
    Customer,
    CustomerContact,
}

impl Role {
    /// Spec §6, first reading: `is_staff` → admin; user_type 1 lawyer,
    /// 2 sales person, 3 customer, 4 customer contact; otherwise none.
    /// (The second reading, role ids 1..5, is not what the session user carries.)
    pub fn resolve(is_staff: bool, user_type: Option<u8>) -> Option<Role> {
        if is_staff {
            return Some(Role::Admin);
        }
        match user_type? {
            1 => Some(Role::Lawyer),
            2 => Some(Role::SalesPerson),
            3 => Some(Role::Customer),
            4 => Some(Role::CustomerContact),
            _ => None,
        }
    }

    /// The `user_type` a non-staff user of this role carries.
    pub fn user_type(self) -> Option<u8> {
        match self {
            Role::Admin => None,
            Role::Lawyer => Some(1),
            Role::SalesPerson => Some(2),
            Role::Customer => Some(3),
            Role::CustomerContact => Some(4),
        }
    }

    /// The web prefix each role may enter (spec §2 guards).
    pub fn prefix(self) -> &'static str {
        match self {
            Role::Admin => "/admin/",
            Role::Lawyer => "/lawyer/",
            Role::SalesPerson => "/sales/",
            Role::Customer => "/user/",
            Role::CustomerContact => "/customer_contact/",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Lawyer => "lawyer",
            Role::SalesPerson => "sales_person",
            Role::Customer => "customer",
            Role::CustomerContact => "customer_contact",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum UserSubType {
    Internal,
    External,
}

/// The avatar shows the image unless it is this text (spec §2).
pub const IMAGE_NOT_SET: &str = "not set";

/// A person who can sign in, as stored. Role-specific data (customer profile,
/// lawyer details) live on their own items and link here by `uid`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct User {
    pub uid: String,
    /// Human-friendly number, unique, from a counter item.
    pub id: u64,
    /// Normalised (trimmed, lower case): uniqueness is case-insensitive.
    pub email: String,
    pub password_hash: String,
    pub first_name: String,
    pub last_name: String,
    pub is_staff: bool,
    pub is_superuser: bool,
    pub user_type: Option<u8>,
    pub user_sub_type: Option<UserSubType>,
    pub customer_id: Option<String>,
    pub company_id: Option<String>,
    pub profile_id: Option<String>,
    pub image: String,
    pub active: bool,
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// Two-factor sign-in by e-mailed code (spec §4).
    #[serde(default)]
    pub two_factor: bool,
    /// Tokens carry the version they were issued under; bumping it (password
    /// change or reset, enabling two-factor) ends every session at once.
    #[serde(default)]
    pub token_version: u32,
    /// Optional phone (profile page, contact form).
    #[serde(default)]
    pub phone: Option<String>,
    /// A customer contact's permissions (spec §3); empty and ignored for
    /// every other role (see `domain::permissions`).
    #[serde(default)]
    pub permissions: Vec<super::permissions::Permission>,
    /// The revision `permissions` was written under (0: before
    /// `view_all_cases` and `view_time_bank`, see [`super::policy::permission::listed`]).
    #[serde(default)]
    pub permissions_rev: u8,
    /// A customer contact's personnummer (optional, `XXXXXX-XXXX`): a certain
    /// hit of the conflict search.
    #[serde(default)]
    pub identity_number: Option<String>,
}

impl User {
    pub fn role(&self) -> Option<Role> {
        Role::resolve(self.is_staff, self.user_type)
    }

    /// What a password of this user must not be built on (e-mail and names;
    /// see `password_policy`).
    pub fn personal_words(&self) -> [&str; 3] {
        [&self.email, &self.first_name, &self.last_name]
    }

    /// Ends every session of the user: tokens issued under the old version
    /// stop working at once (password change or reset, deactivation,
    /// second factor turned on).
    pub fn end_all_sessions(&mut self) {
        self.token_version = self.token_version.wrapping_add(1);
    }

    pub fn full_name(&self) -> String {
        format!("{} {}", self.first_name.trim(), self.last_name.trim()).trim().to_string()
    }

    /// What `GET /api/profile/` returns (spec §3 session user).
    pub fn session(&self) -> SessionUser {
        SessionUser {
            email: self.email.clone(),
            id: self.id,
            customer_id: self.customer_id.clone(),
            company_id: self.company_id.clone(),
            is_staff: self.is_staff,
            is_superuser: self.is_superuser,
            user_sub_type: self.user_sub_type,
            user_type: self.user_type,
            username: self.email.clone(),
            full_name: self.full_name(),
            profile_id: self.profile_id.clone(),
            image: self.image.clone(),
            uid: self.uid.clone(),
            phone: self.phone.clone(),
            first_name: self.first_name.clone(),
            last_name: self.last_name.clone(),
        }
    }
}

/// Spec §3 "Session user".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SessionUser {
    pub email: String,
    pub id: u64,
    pub customer_id: Option<String>,
    pub company_id: Option<String>,
    pub is_staff: bool,
    pub is_superuser: bool,
    pub user_sub_type: Option<UserSubType>,
    pub user_type: Option<u8>,
    pub username: String,
    pub full_name: String,
    pub profile_id: Option<String>,
    /// The stored value is an S3 key; the API answers a presigned GET URL,
    /// or the text 'not set'.
    pub image: String,
    pub uid: String,
    /// Not in the spec's list; the profile page shows and edits it.
    #[serde(default)]
    pub phone: Option<String>,
    /// Not in the spec's list; the profile form edits them separately.
    #[serde(default)]
    pub first_name: String,
    #[serde(default)]
    pub last_name: String,
}

/// E-mail addresses are compared case-insensitively and without surrounding space.
pub fn normalize_email(raw: &str) -> String {
    raw.trim().to_lowercase()
}

/// A shape check; the real proof of an address is the activation mail. The
/// local part is RFC 5322's dot-atom in ASCII and the domain dot-separated
/// labels of letters, digits and hyphens (Latin letters beyond ASCII, as in
/// `domän.se`, allowed there; the API document's pattern says the same):
/// what a mail service sends to. A looser check let an address through that
/// the mail service then refused (`a(b@c.se`, `"x"@c.se`), and the account it
/// was made for got no mail.
pub fn is_valid_email(raw: &str) -> bool {
    const ATEXT: &str = "!#$%&'*+/=?^_`{|}~-";
    let e = raw.trim();
    let Some((local, domain)) = e.split_once('@') else { return false };
    let dot_atom = |part: &str, ok: &dyn Fn(char) -> bool| !part.is_empty() && part.split('.').all(|w| !w.is_empty() && w.chars().all(ok));
    let letter = |c: char| c.is_ascii_alphanumeric() || matches!(c, '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}' | '\u{F8}'..='\u{24F}');
    let label_ok = |l: &str| !l.starts_with('-') && !l.ends_with('-');
    e.len() <= 254
        && dot_atom(local, &|c| c.is_ascii_alphanumeric() || ATEXT.contains(c))
        && domain.contains('.')
        && dot_atom(domain, &|c| letter(c) || c == '-')
        && domain.split('.').all(label_ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_resolution_follows_spec_order() {
        // is_staff wins over any user_type
        assert_eq!(Role::resolve(true, Some(3)), Some(Role::Admin));
        assert_eq!(Role::resolve(true, None), Some(Role::Admin));
        assert_eq!(Role::resolve(false, Some(1)), Some(Role::Lawyer));
        assert_eq!(Role::resolve(false, Some(2)), Some(Role::SalesPerson));
        assert_eq!(Role::resolve(false, Some(3)), Some(Role::Customer));
        assert_eq!(Role::resolve(false, Some(4)), Some(Role::CustomerContact));
        assert_eq!(Role::resolve(false, Some(5)), None);
        assert_eq!(Role::resolve(false, None), None);
    }

    #[test]
    fn user_type_round_trips_through_resolution() {
        for role in [Role::Lawyer, Role::SalesPerson, Role::Customer, Role::CustomerContact] {
            assert_eq!(Role::resolve(false, role.user_type()), Some(role));
        }
    }

    #[test]
    fn emails_compare_case_insensitively() {
        assert_eq!(normalize_email("  Anna.Berg@Example.COM "), "anna.berg@example.com");
        assert!(is_valid_email("a@b.se"));
        assert!(!is_valid_email("a@b"));
        assert!(!is_valid_email("@b.se"));
        assert!(!is_valid_email("a b@c.se"));
        assert!(!is_valid_email("a@@c.se"));
        // What a mail service refuses: the shape is refused before any mail is tried.
        for bad in [
            "a(b@c.se",
            "\"x\"@c.se",
            "a,b@c.se",
            "a<b@c.se",
            "a@c.se>",
            "a..b@c.se",
            ".a@c.se",
            "a@-c.se",
            "a@c..se",
            "a@c_d.se",
            "a;b@c.se",
        ] {
            assert!(!is_valid_email(bad), "{bad}");
        }
        for good in ["anna.berg+kund@example.com", "o'brien@exempel.se", "x_y-z@sub.domän.se", "A1!#$%&'*+/=?^_`{|}~-@b.se"] {
            assert!(is_valid_email(good), "{good}");
        }
    }

    #[test]
    fn full_name_trims() {
        let u = sample();
        assert_eq!(u.full_name(), "Anna Berg");
        let s = u.session();
        assert_eq!(s.username, "anna@example.com");
        assert_eq!(s.full_name, "Anna Berg");
    }

    fn sample() -> User {
        super::tests_support::sample(Some(3))
    }
}

#[cfg(test)]
pub(crate) mod tests_support {
    use super::*;
    use crate::domain::Permission;

    /// A user of `role` with the id `uid` (admin as staff); a customer
    /// contact belongs to `customer` and holds `permissions`.
    pub fn with_role(role: Role, uid: &str, customer: &str, permissions: &[Permission]) -> User {
        let mut u = sample(role.user_type());
        u.is_staff = role == Role::Admin;
        u.uid = uid.into();
        if role == Role::CustomerContact {
            u.customer_id = Some(customer.into());
            u.permissions = permissions.to_vec();
        }
        u
    }

    /// Anna Berg of the given user type (None = no type).
    pub fn sample(user_type: Option<u8>) -> User {
        User {
            uid: "u1".into(),
            id: 1,
            email: "anna@example.com".into(),
            password_hash: String::new(),
            first_name: " Anna".into(),
            last_name: "Berg ".into(),
            is_staff: false,
            is_superuser: false,
            user_type,
            user_sub_type: None,
            customer_id: None,
            company_id: None,
            profile_id: None,
            image: IMAGE_NOT_SET.into(),
            active: true,
            created_at: chrono::Utc::now(),
            two_factor: false,
            token_version: 0,
            phone: None,
            permissions: Vec::new(),
            permissions_rev: super::super::permissions::PERMISSIONS_REV,
            identity_number: None,
        }
    }
}

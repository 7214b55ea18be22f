//! Access and refresh tokens: HS256 only (the algorithm is pinned on both sides,
//! so a token claiming `none` or RS256 is refused), with audience, expiry and
//! token kind checked on every use.

use chrono::Utc;
use jsonwebtoken::{decode, encode, errors::ErrorKind, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::{Permission, User, UserSubType};
use crate::error::ApiError;

pub const ALGORITHM: Algorithm = Algorithm::HS256;
pub const AUDIENCE: &str = "legal-platform";
pub const ISSUER: &str = "legal-platform-api";
/// Access tokens are short-lived; the web refreshes them transparently.
pub const ACCESS_TTL_SECS: i64 = 15 * 60;
pub const REFRESH_TTL_SECS: i64 = 14 * 24 * 60 * 60;
/// A device token (issued on each successful sign-in, kept by the browser)
/// lets the right password through an account's cool-down for this long.
pub const DEVICE_TTL_SECS: i64 = 180 * 24 * 60 * 60;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenKind {
    Access,
    Refresh,
    /// Proves a correct password while the e-mailed code is pending.
    TwoFactor,
    /// Names a browser that signed in to the account before (`domain::sign_in`).
    Device,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Claims {
    /// The user's uid.
    pub sub: String,
    pub aud: String,
    pub iss: String,
    pub iat: i64,
    pub exp: i64,
    /// Unique id; refresh tokens are stored under it so each is used once.
    pub jti: String,
    pub typ: TokenKind,
    /// The user's token version when issued; bumping it ends every session.
    #[serde(default)]
    pub ver: u32,
    /// Refresh-token family (one per sign-in); reuse of a spent token revokes
    /// it. Access tokens carry it too, so logout or a replay ends them at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fam: Option<String>,
    /// Access tokens only: the user as stored when the token was issued, so
    /// a read starts its data reads at once while the sign-in check (the
    /// stored user and sign-in, compared with this) runs beside them
    /// (`api::CurrentUser`). Absent in tokens from before it was added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usr: Option<Box<UserClaims>>,
}

/// What an access token says of its user: every stored field except the
/// password hash and the personnummer (neither travels to the browser),
/// and the uid and token version, which are `sub` and `ver`. The token is
/// signed and lives 15 minutes; it holds nothing the user's own profile
/// page does not show them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UserClaims {
    pub id: u64,
    pub email: String,
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
    pub created_at: chrono::DateTime<Utc>,
    pub two_factor: bool,
    pub phone: Option<String>,
    pub permissions: Vec<Permission>,
    pub permissions_rev: u8,
}

impl From<&User> for UserClaims {
    fn from(u: &User) -> Self {
        // Spelled out so that a new field of `User` needs a decision here.
        let User {
            uid: _,
            id,
            email,
            password_hash: _,
            first_name,
            last_name,
            is_staff,
            is_superuser,
            user_type,
            user_sub_type,
            customer_id,
            company_id,
            profile_id,
            image,
            active,
            created_at,
            two_factor,
            token_version: _,
            phone,
            permissions,
            permissions_rev,
            identity_number: _,
        } = u.clone();
        UserClaims {
            id,
            email,
            first_name,
            last_name,
            is_staff,
            is_superuser,
            user_type,
            user_sub_type,
            customer_id,
            company_id,
            profile_id,
            image,
            active,
            created_at,
            two_factor,
            phone,
            permissions,
            permissions_rev,
        }
    }
}

impl UserClaims {
    /// Whether `other` grants what these claims grant: the same role (staff,
    /// superuser, type and sub-type), customer and company, permissions
    /// (and their revision) and activity. The rest (names, e-mail, phone,
    /// picture, two-factor) only describes the user.
    pub fn same_rights(&self, other: &UserClaims) -> bool {
        let rights = |c: &UserClaims| {
            (
                c.is_staff,
                c.is_superuser,
                c.user_type,
                c.user_sub_type,
                c.customer_id.clone(),
                c.company_id.clone(),
                c.active,
                c.permissions_rev,
            )
        };
        rights(self) == rights(other) && self.permissions == other.permissions
    }

    /// The user these claims describe; the password hash and the
    /// personnummer are left empty (a handler needing them reads the user).
    pub fn user(&self, uid: &str, token_version: u32) -> User {
        let c = self.clone();
        User {
            uid: uid.to_string(),
            id: c.id,
            email: c.email,
            password_hash: String::new(),
            first_name: c.first_name,
            last_name: c.last_name,
            is_staff: c.is_staff,
            is_superuser: c.is_superuser,
            user_type: c.user_type,
            user_sub_type: c.user_sub_type,
            customer_id: c.customer_id,
            company_id: c.company_id,
            profile_id: c.profile_id,
            image: c.image,
            active: c.active,
            created_at: c.created_at,
            two_factor: c.two_factor,
            token_version,
            phone: c.phone,
            permissions: c.permissions,
            permissions_rev: c.permissions_rev,
            identity_number: None,
        }
    }
}

/// Spec §3 "Auth".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TokenPair {
    pub access_token: String,
    pub refresh_token: String,
    /// Seconds until the access token expires.
    pub expires_in: i64,
    pub token_type: String,
    /// On a completed sign-in only: the device token to send back with the
    /// next `token/` request, so this browser passes the account's cool-down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_token: Option<String>,
}

#[derive(Clone)]
pub struct Jwt {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

impl Jwt {
    pub fn new(secret: &str) -> Self {
        Jwt { encoding: EncodingKey::from_secret(secret.as_bytes()), decoding: DecodingKey::from_secret(secret.as_bytes()) }
    }

    pub fn issue(&self, sub: &str, typ: TokenKind, now: i64) -> Result<(String, Claims), ApiError> {
        self.issue_with(sub, typ, now, 0, None)
    }

    pub fn issue_with(&self, sub: &str, typ: TokenKind, now: i64, ver: u32, fam: Option<String>) -> Result<(String, Claims), ApiError> {
        let ttl = match typ {
            TokenKind::Access => ACCESS_TTL_SECS,
            TokenKind::Refresh => REFRESH_TTL_SECS,
            TokenKind::TwoFactor => crate::domain::two_factor::CODE_TTL_SECS,
            TokenKind::Device => DEVICE_TTL_SECS,
        };
        let claims = Claims {
            sub: sub.to_string(),
            aud: AUDIENCE.into(),
            iss: ISSUER.into(),
            iat: now,
            exp: now + ttl,
            jti: uuid::Uuid::new_v4().simple().to_string(),
            typ,
            ver,
            fam,
            usr: None,
        };
        let token = encode(&Header::new(ALGORITHM), &claims, &self.encoding).map_err(ApiError::internal)?;
        Ok((token, claims))
    }

    /// An access token of `user` in sign-in `fam`, carrying the user ([`UserClaims`]).
    pub fn issue_access(&self, user: &User, now: i64, fam: String) -> Result<(String, Claims), ApiError> {
        let mut claims = self.issue_with(&user.uid, TokenKind::Access, now, user.token_version, Some(fam))?.1;
        claims.usr = Some(Box::new(UserClaims::from(user)));
        let token = encode(&Header::new(ALGORITHM), &claims, &self.encoding).map_err(ApiError::internal)?;
        Ok((token, claims))
    }

    /// A new access token of `user` plus a new refresh token in family
    /// `fam` (a new family when `None`); returns the refresh claims so the
    /// caller can store them.
    pub fn issue_pair(&self, user: &User, fam: Option<String>) -> Result<(TokenPair, Claims), ApiError> {
        let now = Utc::now().timestamp();
        let fam = fam.unwrap_or_else(|| uuid::Uuid::new_v4().simple().to_string());
        let (access_token, _) = self.issue_access(user, now, fam.clone())?;
        let (refresh_token, refresh) = self.issue_with(&user.uid, TokenKind::Refresh, now, user.token_version, Some(fam))?;
        let pair = TokenPair { access_token, refresh_token, expires_in: ACCESS_TTL_SECS, token_type: "Bearer".into(), device_token: None };
        Ok((pair, refresh))
    }

    /// Checks signature (HS256 only), expiry (no leeway), audience, issuer and kind.
    pub fn verify(&self, token: &str, expected: TokenKind) -> Result<Claims, ApiError> {
        let mut v = Validation::new(ALGORITHM);
        v.set_audience(&[AUDIENCE]);
        v.set_issuer(&[ISSUER]);
        v.set_required_spec_claims(&["exp", "aud", "iss", "sub"]);
        v.leeway = 0;
        let data = decode::<Claims>(token, &self.decoding, &v).map_err(|e| match e.kind() {
            ErrorKind::ExpiredSignature => ApiError::TokenExpired,
            _ => ApiError::NotAuthenticated,
        })?;
        if data.claims.typ != expected {
            return Err(ApiError::NotAuthenticated);
        }
        Ok(data.claims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "test-secret-that-is-long-enough-0123456789";

    fn user() -> User {
        User {
            uid: "user-1".into(),
            id: 7,
            email: "cora@example.com".into(),
            password_hash: "$argon2id$secret".into(),
            first_name: "Cora".into(),
            last_name: "Contact".into(),
            is_staff: false,
            is_superuser: false,
            user_type: Some(3),
            user_sub_type: None,
            customer_id: Some("customer-1".into()),
            company_id: Some("customer-1".into()),
            profile_id: None,
            image: crate::domain::user::IMAGE_NOT_SET.into(),
            active: true,
            created_at: Utc::now(),
            two_factor: false,
            token_version: 4,
            phone: Some("+46701234567".into()),
            permissions: vec![Permission::ViewAllCases],
            permissions_rev: 1,
            identity_number: Some("19800101-0000".into()),
        }
    }

    #[test]
    fn access_tokens_carry_their_user_without_password_hash_or_personnummer() {
        let jwt = Jwt::new(SECRET);
        let u = user();
        let (pair, refresh) = jwt.issue_pair(&u, None).unwrap();
        let access = jwt.verify(&pair.access_token, TokenKind::Access).unwrap();
        let said = access.usr.as_deref().expect("the access token carries its user");
        assert_eq!(**access.usr.as_ref().unwrap(), UserClaims::from(&u));
        let read = said.user(&access.sub, access.ver);
        assert_eq!(read, User { password_hash: String::new(), identity_number: None, ..u.clone() });
        let payload = pair.access_token.split('.').nth(1).unwrap();
        use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
        let text = String::from_utf8(URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
        assert!(!text.contains("argon2") && !text.contains("19800101"), "{text}");
        // Refresh tokens only name their user: the user is read on renewal.
        assert!(refresh.usr.is_none());
        assert!(!pair.refresh_token.contains(payload));
    }

    #[test]
    fn tokens_from_before_the_user_claims_still_verify() {
        let jwt = Jwt::new(SECRET);
        let (old, _) = jwt.issue_with("user-1", TokenKind::Access, Utc::now().timestamp(), 4, Some("fam".into())).unwrap();
        let c = jwt.verify(&old, TokenKind::Access).unwrap();
        assert_eq!((c.usr, c.ver, c.fam.as_deref()), (None, 4, Some("fam")));
    }

    #[test]
    fn issued_access_token_verifies() {
        let jwt = Jwt::new(SECRET);
        let (pair, _) = jwt.issue_pair(&user(), None).unwrap();
        assert_eq!(pair.token_type, "Bearer");
        assert_eq!(pair.expires_in, ACCESS_TTL_SECS);
        let c = jwt.verify(&pair.access_token, TokenKind::Access).unwrap();
        assert_eq!(c.sub, "user-1");
    }

    #[test]
    fn access_tokens_name_their_sign_in_and_device_tokens_are_their_own_kind() {
        let jwt = Jwt::new(SECRET);
        let (pair, refresh) = jwt.issue_pair(&user(), None).unwrap();
        assert_eq!(jwt.verify(&pair.access_token, TokenKind::Access).unwrap().fam, refresh.fam);
        let (device, _) = jwt.issue("user-1", TokenKind::Device, Utc::now().timestamp()).unwrap();
        assert!(jwt.verify(&device, TokenKind::Access).is_err());
        assert!(jwt.verify(&pair.access_token, TokenKind::Device).is_err());
        assert_eq!(jwt.verify(&device, TokenKind::Device).unwrap().sub, "user-1");
    }

    #[test]
    fn refresh_token_is_not_an_access_token() {
        let jwt = Jwt::new(SECRET);
        let (pair, _) = jwt.issue_pair(&user(), None).unwrap();
        assert!(matches!(jwt.verify(&pair.refresh_token, TokenKind::Access), Err(ApiError::NotAuthenticated)));
        assert!(matches!(jwt.verify(&pair.access_token, TokenKind::Refresh), Err(ApiError::NotAuthenticated)));
    }

    #[test]
    fn expired_tampered_and_foreign_tokens_are_refused() {
        let jwt = Jwt::new(SECRET);
        let (old, _) = jwt.issue("u", TokenKind::Access, Utc::now().timestamp() - ACCESS_TTL_SECS - 5).unwrap();
        assert!(matches!(jwt.verify(&old, TokenKind::Access), Err(ApiError::TokenExpired)));

        let (good, _) = jwt.issue("u", TokenKind::Access, Utc::now().timestamp()).unwrap();
        let mut parts: Vec<String> = good.split('.').map(String::from).collect();
        parts[1] = parts[1].chars().rev().collect();
        assert!(matches!(jwt.verify(&parts.join("."), TokenKind::Access), Err(ApiError::NotAuthenticated)));

        let other = Jwt::new("another-secret-that-is-long-enough-xxxxxx");
        assert!(matches!(other.verify(&good, TokenKind::Access), Err(ApiError::NotAuthenticated)));
    }

    #[test]
    fn algorithm_none_is_refused() {
        use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
        let b64 = |b: &[u8]| URL_SAFE_NO_PAD.encode(b);
        let jwt = Jwt::new(SECRET);
        let now = Utc::now().timestamp();
        let header = b64(br#"{"alg":"none","typ":"JWT"}"#);
        let body =
            b64(format!(r#"{{"sub":"u","aud":"{AUDIENCE}","iss":"{ISSUER}","iat":{now},"exp":{},"jti":"x","typ":"access"}}"#, now + 60)
                .as_bytes());
        let token = format!("{header}.{body}.");
        assert!(jwt.verify(&token, TokenKind::Access).is_err());
    }
}

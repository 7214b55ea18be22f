//! Passwords and tokens.

pub mod jwt;
pub mod password;

pub use jwt::{Claims, Jwt, TokenKind, TokenPair, UserClaims};

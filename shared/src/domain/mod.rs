//! The domain: types and rules in the spec's words. Nothing here knows about
//! DynamoDB, S3, SES or HTTP, so every rule can be unit-tested on its own.

pub mod catalogue;
pub mod password_policy;
pub mod subscription;
pub mod two_factor;
pub mod user;

pub use user::{normalize_email, Role, SessionUser, User, UserSubType};

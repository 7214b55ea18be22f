//! The shared library of the platform.
//!
//! - [`domain`]: types, rules and state machines in the spec's words. No AWS, no HTTP.
//! - [`auth`]: password hashing (argon2id) and tokens (JWT, algorithm pinned).
//! - [`store`]: the single DynamoDB table (key design documented in [`store::table`]).
//! - [`mail`]: SES, plus the local outbox.
//! - [`files`]: S3 documents with presigned URLs.
//! - [`api`]: the HTTP glue every function crate uses (state, extractors, error responses, Lambda runner).
//! - [`config`]: everything read from the environment, in one place.

pub mod api;
pub mod auth;
pub mod aws;
pub mod config;
pub mod domain;
pub mod error;
pub mod files;
pub mod mail;
pub mod services;
pub mod store;

#[cfg(feature = "testkit")]
pub mod testkit;

pub use error::ApiError;

//! The shared library of the platform, in layers that read top-down; each
//! layer uses only the ones below it (no import circles):
//!
//! ```text
//!   functions/*          routes, request parsing, one service call, response
//!        │
//!   api                  AppState, extractors (CurrentUser, ApiJson, ClientIp), error → JSON
//!        │
//!   services             one module per capability, one function per use case;
//!        │               a change and all its side effects in one transaction (events)
//!   store · mail · files the table (typed keys, access patterns), SES, S3 presigned URLs
//!        │
//!   domain · error       rules in the spec's words (policy, state machines, validation),
//!                        message keys and field errors — no AWS, no HTTP
//! ```
//!
//! Where to find a rule of the spec in one hop:
//! - who may do what (§5, §6): [`domain::policy`], a case's rules (who may
//!   view, edit, move its status, enter hours) in [`domain::policy::case`],
//!   a contact's permissions in [`domain::policy::permission`]; a case's
//!   entity, form, lifecycle, history and hours: [`domain::case`]; subscription status
//!   and limits (§4): [`domain::subscription`]; validation rules (§5): the
//!   `validate`/`check_*` functions of each [`domain`] module;
//! - what happens when (a use case and its effects): [`services`], e.g.
//!   [`services::cases`], [`services::hours`], [`services::events`];
//! - how it is stored (keys, access patterns, transactions): [`store::table`]
//!   and [`store::keys`];
//! - the error keys and their statuses (§8): [`error`].
//!
//! Beside them: [`auth`] (argon2id, JWT), [`config`] (the environment),
//! [`aws`] (SDK configuration), [`telemetry`] (log events, metrics).

pub mod api;
pub mod auth;
pub mod aws;
pub mod config;
pub mod domain;
pub mod error;
pub mod export;
pub mod files;
pub mod mail;
pub mod providers;
pub mod services;
pub mod store;
pub mod telemetry;

#[cfg(feature = "testkit")]
pub mod testkit;

pub use error::ApiError;

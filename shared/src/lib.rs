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
//! Where each section of the spec (`product-spec.md`) is decided, in one hop:
//!
//! | spec | module |
//! |---|---|
//! | §1 statistics | [`domain::statistics`] (counters: scopes and deltas, the asked period, what each thing contributes), [`domain::calendar`] (Stockholm days), [`services::statistics`] (figures, dashboards), [`services::counters`] (an event's counter changes) |
//! | §2 screens and routes | the functions crates (`functions/*`); the web's route catalogue |
//! | §3 entities | the [`domain`] module of each: [`domain::case`] (entity, form, list, lifecycle, history, hours, view), [`domain::customer`] (entity, shared field rules, staff form, registration, sectors), [`domain::subscription`] (row, purchase, usage, staff forms, lifecycle), [`domain::user`], [`domain::permissions`] (a contact's permission codes), [`domain::catalogue`] |
//! | §4 states and transitions | [`domain::case::lifecycle`], [`domain::subscription::row`] (row status), [`domain::subscription::lifecycle`] (expiry, renewal), [`domain::customer::entity`] (states) |
//! | §5 validation | the `validate`/`check_*` functions of each [`domain`] module ([`domain::customer::fields`] for the customer forms); [`domain::identity_number`] (registration and personal numbers, Luhn); [`domain::addons`] (service access) |
//! | §5, §6 who may do what | [`domain::policy`] (every role rule: [`domain::policy::may`]), [`domain::policy::case`] (a case: view, edit, status moves, hours, messages, documents), [`domain::policy::permission`] (a contact's permissions), [`domain::policy::people`] (who a user is, whom they act for) |
//! | §7 calls | `functions/*` (routes) → [`services`] (one function per use case; [`services::events`] for their effects, the event types in [`services::events::kinds`]) |
//! | §8 errors | [`error`] (every key with its status) |
//! | §9 constants and limits | [`domain::text`] (lengths), [`domain::catalogue`] (hours), [`domain::document`] (files) |
//!
//! How it is stored (keys, access patterns, transactions): [`store::table`]
//! and [`store::keys`].
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

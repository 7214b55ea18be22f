//! The use cases: one module per capability, one function per use case.
//!
//! A use case reads what it needs from the [`store`](crate::store), decides
//! with the [`domain`](crate::domain) rules, and writes the change together
//! with all its side effects (history, conflict-search index entries, and the
//! effects of [`events`]) in one transaction ([`crate::store::tx::Tx`]).
//! Function crates call exactly one of these per request; they never touch
//! the store or the AWS SDK themselves.

pub mod academy;
pub mod accounts;
pub mod addons;
pub mod audit;
pub mod cases;
pub mod catalogue;
pub mod conflict;
pub mod contacts;
pub mod counters;
pub mod credentials;
pub mod customers;
pub mod data_rights;
pub mod documents;
pub mod erasure;
pub mod event_mail;
pub mod events;
pub mod followers;
pub mod hours;
pub mod inkasso;
pub mod legal;
pub mod meetings;
pub mod messages;
pub mod notifications;
pub mod outbox;
pub mod profile;
pub mod ratings;
pub mod recount;
pub mod reindex;
pub mod retention;
pub mod retry;
pub mod staff;
pub mod statistics;
pub mod subscriptions;
pub mod support;
pub mod templates;
pub mod throttle;
pub mod verified_callback;

use std::sync::Arc;

use crate::auth::Jwt;
use crate::config::Config;
use crate::files::FileStore;
use crate::mail::{Mailer, Outbox};
use crate::store::Store;

/// Everything a use case may use; built once per cold start.
pub struct Context {
    pub config: Config,
    pub store: Store,
    pub mail: Mailer,
    pub files: FileStore,
    pub jwt: Jwt,
    /// Tests arm named failure points here (see [`Faults`]); never armed in production.
    pub faults: Faults,
    /// The add-on services' providers.
    pub providers: crate::providers::Providers,
}

impl Context {
    pub async fn new(config: Config, outbox: Option<Outbox>) -> Arc<Context> {
        Context::with_providers(config, outbox, crate::providers::Providers::from_env()).await
    }

    /// [`Context::new`] with the given provider adapters (the local gateway's
    /// stand-in, a test's own).
    pub async fn with_providers(config: Config, outbox: Option<Outbox>, providers: crate::providers::Providers) -> Arc<Context> {
        let sdk = crate::aws::sdk_config(&config.region, config.endpoint_url.as_deref()).await;
        let dynamo_conf = aws_sdk_dynamodb::config::Builder::from(&sdk).interceptor(crate::telemetry::DynamoDbRequests).build();
        let dynamo = aws_sdk_dynamodb::Client::from_conf(dynamo_conf);
        // Path-style addressing: the local stand-in has no per-bucket host names.
        let s3_conf = aws_sdk_s3::config::Builder::from(&sdk).force_path_style(config.endpoint_url.is_some()).build();
        let s3 = aws_sdk_s3::Client::from_conf(s3_conf);
        let ses = aws_sdk_sesv2::Client::new(&sdk);
        let outbox = if config.local_outbox { Some(outbox.unwrap_or_default()) } else { None };
        Arc::new(Context {
            store: Store::new(dynamo, config.table_name.clone()),
            mail: Mailer::new(ses, config.ses_sender.clone(), outbox),
            files: FileStore::new(s3, config.documents_bucket.clone()),
            jwt: Jwt::new(&config.jwt_secret),
            config,
            faults: Faults::default(),
            providers,
        })
    }
}

/// Named failure points a test can arm, to prove that a use case leaves
/// either everything or nothing behind (e.g. a crash between a transaction
/// and the follow-up work it queued). Each armed point fails once.
#[derive(Default)]
pub struct Faults(std::sync::Mutex<Vec<&'static str>>);

impl Faults {
    /// Makes the next pass through `point` fail.
    pub fn arm(&self, point: &'static str) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(point);
    }

    /// Whether `point` is armed (then disarmed: it trips once).
    pub fn trip(&self, point: &'static str) -> bool {
        let mut armed = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match armed.iter().position(|p| *p == point) {
            Some(i) => {
                armed.remove(i);
                true
            }
            None => false,
        }
    }

    /// Fails (once) if `point` is armed.
    pub fn check(&self, point: &'static str) -> Result<(), crate::error::ApiError> {
        let mut armed = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match armed.iter().position(|p| *p == point) {
            Some(i) => {
                armed.remove(i);
                Err(crate::error::ApiError::internal(format!("injected failure at {point}")))
            }
            None => Ok(()),
        }
    }
}

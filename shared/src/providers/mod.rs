//! External providers of the add-on services, each behind a
//! small trait: [`signing::Signing`] (Verified), [`credit::Credit`]
//! (Bisnode), [`meeting::MeetingRooms`] (video meetings). The use cases hold `Arc<dyn …>` in [`Providers`] and never know
//! whether they talk to the provider or to the local stand-in
//! ([`stand_in`], served by the local gateway and the tests on loopback):
//! both are reached over HTTP by the same client ([`http::JsonClient`]:
//! timeouts, bounded retries with backoff, errors as `provider_*` keys).
//!
//! Configuration: `PROVIDERS_URL` is the base URL (the provider's API on
//! AWS, `http://127.0.0.1:<port>/local/providers` locally); the API key is
//! `PROVIDERS_API_KEY`, or on AWS the Secrets Manager secret named by
//! `PROVIDERS_SECRET_ARN` (read once at cold start, as the JWT key).
//! `PROVIDERS_TIMEOUT_MS`, `PROVIDERS_ATTEMPTS` and `PROVIDERS_BACKOFF_MS`
//! tune the client ([`crate::config::Budgets`]).
//! `CONTRACT_CHECK_URL` is where the contract-check screen links to (default:
//! the stand-in's page under the base URL); `CONTRACT_CHECK_PHONE` and
//! `CONTRACT_CHECK_EMAIL` whom the screen names for questions. `VERIFIED_CALLBACK_SECRET` signs
//! the signing provider's callbacks (default: the API key; an empty secret
//! refuses every callback).

pub mod callback;
pub mod contract_check;
pub mod credit;
pub mod http;
pub mod inkasso;
pub mod meeting;
pub mod signing;
pub mod stand_in;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use self::http::{JsonClient, Limits, ProviderError};

/// What a provider call returns (boxed, so the traits can be used as `dyn`).
pub type Fut<'a, T> = Pin<Box<dyn Future<Output = Result<T, ProviderError>> + Send + 'a>>;

/// The adapters the use cases call.
#[derive(Clone)]
pub struct Providers {
    pub signing: Arc<dyn signing::Signing>,
    pub credit: Arc<dyn credit::Credit>,
    pub inkasso: Arc<dyn inkasso::Inkasso>,
    pub contract_check: Arc<dyn contract_check::ContractCheck>,
    /// The shared secret of the signing provider's callbacks (HMAC).
    pub callback_secret: Arc<str>,
    pub meeting: Arc<dyn meeting::MeetingRooms>,
}

impl Providers {
    /// Every provider over HTTP at `base` (one API gateway for all, as the
    /// stand-in serves them).
    pub fn http(base: &str, api_key: &str, limits: Limits) -> Providers {
        let client = JsonClient::new(base, api_key, limits);
        Providers {
            signing: Arc::new(signing::HttpSigning(client.clone())),
            credit: Arc::new(credit::HttpCredit(client.clone())),
            inkasso: Arc::new(inkasso::HttpInkasso(client.clone())),
            meeting: Arc::new(meeting::HttpMeetingRooms(client)),
            contract_check: Arc::new(contract_check::ConfiguredLink(format!("{}/kontrakto/", base.trim_end_matches('/')))),
            callback_secret: api_key.into(),
        }
    }

    /// The same providers with another callback secret (the local gateway
    /// draws one per run and gives it to its stand-in).
    pub fn with_callback_secret(mut self, secret: &str) -> Providers {
        self.callback_secret = secret.into();
        self
    }

    /// From the environment (see the module docs); without `PROVIDERS_URL`
    /// the local stand-in at the gateway's default address.
    pub fn from_env() -> Providers {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
        let base = var("PROVIDERS_URL").unwrap_or_else(|| "http://127.0.0.1:3000/local/providers".into());
        let key = match (var("PROVIDERS_API_KEY"), var("PROVIDERS_SECRET_ARN")) {
            (Some(k), _) => k,
            (None, Some(arn)) => read_key(&arn),
            (None, None) => String::new(),
        };
        let mut p = Providers::http(&base, &key, Limits::of(&crate::config::Budgets::from_env()));
        let url = var("CONTRACT_CHECK_URL").unwrap_or_else(|| format!("{}/kontrakto/", base.trim_end_matches('/')));
        let (phone, email) = (var("CONTRACT_CHECK_PHONE"), var("CONTRACT_CHECK_EMAIL"));
        p.contract_check = Arc::new(contract_check::WithContact { link: contract_check::ConfiguredLink(url), phone, email });
        if let Some(secret) = var("VERIFIED_CALLBACK_SECRET") {
            p.callback_secret = secret.into();
        }
        p
    }
}

/// The API key from Secrets Manager, once per process (cold start).
fn read_key(arn: &str) -> String {
    let region = std::env::var("AWS_REGION").unwrap_or_else(|_| "eu-north-1".into());
    let endpoint = std::env::var("AWS_ENDPOINT_URL").ok();
    let arn = arn.to_string();
    let read = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
        rt.block_on(crate::config::read_secret(&region, endpoint.as_deref(), &arn))
    })
    .join();
    match read {
        Ok(Ok(k)) => k,
        Ok(Err(e)) => {
            tracing::warn!(error = %crate::telemetry::redact(&e.to_string()), "provider API key not read");
            String::new()
        }
        Err(_) => String::new(),
    }
}

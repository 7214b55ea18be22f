//! The one HTTP client of the provider adapters: JSON over HTTP/1.1 (rustls,
//! the connector the AWS SDK already builds), a timeout per attempt, bounded
//! retries with exponential backoff on timeouts, dropped connections, 429 and
//! 5xx, and every failure mapped to a [`ProviderError`]. A POST is retried
//! only with an idempotency key, so a retry never makes a second envelope or
//! report at the provider.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use hyper::{Method, Request};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

use crate::error::{ApiError, Msg};

/// How a provider call failed, after the retries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProviderError {
    /// No answer within the timeout (every attempt).
    Timeout,
    /// Connection refused or dropped, 429 or 5xx (every attempt).
    Unavailable,
    /// A 2xx whose body is not what the provider's API documents.
    BadAnswer,
    /// A 4xx: the provider refused this request (not retried).
    Refused(u16),
}

impl ProviderError {
    pub fn key(self) -> Msg {
        match self {
            ProviderError::Timeout => Msg::ProviderTimeout,
            ProviderError::Unavailable => Msg::ProviderUnavailable,
            ProviderError::BadAnswer => Msg::ProviderBadAnswer,
            ProviderError::Refused(_) => Msg::ProviderRefused,
        }
    }
}

impl From<ProviderError> for ApiError {
    fn from(e: ProviderError) -> Self {
        ApiError::Provider(e.key())
    }
}

/// Timeouts and retries of one provider.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Per attempt, including reading the body.
    pub timeout: Duration,
    /// Attempts in all (at least 1).
    pub attempts: u32,
    /// Wait before the second attempt; doubled for each one after.
    pub backoff: Duration,
}

impl Limits {
    /// The provider part of the request's time budgets.
    pub fn of(b: &crate::config::Budgets) -> Limits {
        Limits { timeout: b.provider_timeout, attempts: b.provider_attempts, backoff: b.provider_backoff }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::of(&crate::config::Budgets::DEFAULT)
    }
}

type Https = HttpsConnector<HttpConnector>;

/// A provider's base URL, its API key and the client (built at the first
/// call: functions that never call a provider do not load the system's root
/// certificates at cold start).
#[derive(Clone)]
pub struct JsonClient {
    client: std::sync::Arc<std::sync::OnceLock<Client<Https, Full<Bytes>>>>,
    base: String,
    api_key: String,
    limits: Limits,
    /// A TLS configuration of the provider's own (BankID: its CA as the only
    /// root, and the relying party's certificate for mutual TLS).
    tls: Option<std::sync::Arc<rustls::ClientConfig>>,
}

fn connector_with(tls: Option<&rustls::ClientConfig>) -> Https {
    match tls {
        Some(c) => hyper_rustls::HttpsConnectorBuilder::new().with_tls_config(c.clone()).https_or_http().enable_http1().build(),
        None => connector(),
    }
}

fn connector() -> Https {
    let provider = rustls::crypto::aws_lc_rs::default_provider();
    let builder = match hyper_rustls::HttpsConnectorBuilder::new().with_provider_and_native_roots(provider) {
        Ok(b) => b,
        Err(e) => {
            // No system roots (a bare container): only plain http (the local stand-in) can work.
            tracing::warn!(error = %e, "provider client without system root certificates");
            let config = rustls::ClientConfig::builder_with_provider(rustls::crypto::aws_lc_rs::default_provider().into())
                .with_safe_default_protocol_versions()
                .map(|b| b.with_root_certificates(rustls::RootCertStore::empty()).with_no_client_auth());
            match config {
                Ok(c) => hyper_rustls::HttpsConnectorBuilder::new().with_tls_config(c),
                Err(e) => panic!("no TLS configuration for the provider client: {e}"),
            }
        }
    };
    builder.https_or_http().enable_http1().build()
}

/// What one attempt gave.
enum Outcome {
    Done(Answer),
    /// With the provider's Retry-After, when it gave one.
    Retry(ProviderError, Option<Duration>),
    /// With the answer's body (a 4xx's error details).
    Fail(ProviderError, Vec<u8>),
}

/// A successful answer: its body and `Location` header (where the provider
/// names a new resource).
#[derive(Debug)]
pub struct Answer {
    pub body: Vec<u8>,
    pub location: Option<String>,
}

/// A failed request after the retries: why, and a refusal's body (the
/// provider's error details in a 4xx; empty otherwise). `?` turns it into
/// the [`ProviderError`] alone where the details do not matter.
#[derive(Debug)]
pub struct Failure {
    pub error: ProviderError,
    pub body: Vec<u8>,
}

impl From<Failure> for ProviderError {
    fn from(f: Failure) -> Self {
        f.error
    }
}

impl JsonClient {
    pub fn new(base: &str, api_key: &str, limits: Limits) -> Self {
        JsonClient {
            client: Default::default(),
            base: base.trim_end_matches('/').to_string(),
            api_key: api_key.to_string(),
            limits,
            tls: None,
        }
    }

    /// [`JsonClient::new`] over the given TLS configuration.
    pub fn with_tls(base: &str, limits: Limits, tls: rustls::ClientConfig) -> Self {
        JsonClient { tls: Some(std::sync::Arc::new(tls)), ..JsonClient::new(base, "", limits) }
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    /// One request to `url` (absolute) with `headers`; the answer's body and
    /// its `Location` header.
    async fn one_request(
        &self,
        method: &Method,
        url: &str,
        headers: &[(&str, String)],
        content_type: Option<&str>,
        body: &Bytes,
    ) -> Outcome {
        let mut req = Request::builder().method(method.clone()).uri(url).header(ACCEPT, "application/json");
        if let Some(ct) = content_type {
            req = req.header(CONTENT_TYPE, ct);
        }
        for (k, v) in headers {
            req = req.header(*k, v);
        }
        let Ok(req) = req.body(Full::new(body.clone())) else { return Outcome::Fail(ProviderError::BadAnswer, Vec::new()) };
        let exchange = async {
            let client = self.client.get_or_init(|| Client::builder(TokioExecutor::new()).build(connector_with(self.tls.as_deref())));
            let res = client.request(req).await.map_err(|_| ProviderError::Unavailable)?;
            let status = res.status().as_u16();
            let header = |name: &str| res.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
            let (location, retry_after) = (header("location"), header("retry-after"));
            let bytes = res.into_body().collect().await.map_err(|_| ProviderError::Unavailable)?.to_bytes();
            Ok::<_, ProviderError>((status, location, retry_after, bytes))
        };
        match tokio::time::timeout(self.limits.timeout, exchange).await {
            Err(_) => Outcome::Retry(ProviderError::Timeout, None),
            Ok(Err(e)) => Outcome::Retry(e, None),
            Ok(Ok((status, _, retry_after, _))) if status == 429 || status >= 500 => {
                // Retry-After in seconds (an HTTP date is treated as "no hint").
                let wait = retry_after.and_then(|v| v.trim().parse::<u64>().ok()).map(Duration::from_secs);
                Outcome::Retry(ProviderError::Unavailable, wait)
            }
            Ok(Ok((status, _, _, bytes))) if !(200..300).contains(&status) => Outcome::Fail(ProviderError::Refused(status), bytes.to_vec()),
            Ok(Ok((_, location, _, bytes))) => Outcome::Done(Answer { body: bytes.to_vec(), location }),
        }
    }

    /// A request with its own headers (the provider's auth scheme), to a path
    /// under the base or an absolute URL; retried with backoff when
    /// `retriable` (the provider recognises it again). A `Retry-After`
    /// longer than the request's budget is not waited for: the call answers
    /// `Unavailable` at once. A failure keeps a refusal's body.
    pub async fn request(
        &self,
        method: Method,
        path_or_url: &str,
        headers: &[(&str, String)],
        body: Option<(&str, Bytes)>,
        retriable: bool,
    ) -> Result<Answer, Failure> {
        let url = if path_or_url.starts_with("http://") || path_or_url.starts_with("https://") {
            path_or_url.to_string()
        } else {
            format!("{}{path_or_url}", self.base)
        };
        let (ct, bytes) = match body {
            Some((ct, b)) => (Some(ct), b),
            None => (None, Bytes::new()),
        };
        let attempts = if retriable { self.limits.attempts.max(1) } else { 1 };
        let mut last = ProviderError::Unavailable;
        let mut hint = None;
        for n in 0..attempts {
            if n > 0 {
                let backoff = self.limits.backoff * 2u32.saturating_pow(n - 1);
                let wait = hint.map_or(backoff, |h: Duration| h.max(backoff));
                if wait > self.limits.timeout * 2 {
                    return Err(Failure { error: last, body: Vec::new() });
                }
                tokio::time::sleep(wait).await;
            }
            match self.one_request(&method, &url, headers, ct, &bytes).await {
                Outcome::Done(a) => return Ok(a),
                Outcome::Fail(error, body) => return Err(Failure { error, body }),
                Outcome::Retry(e, h) => {
                    last = e;
                    hint = h;
                }
            }
        }
        Err(Failure { error: last, body: Vec::new() })
    }

    /// A JSON request under the base (`body` serialised) with the client's
    /// API key, and a bearer token and an idempotency key when given; sent
    /// by [`JsonClient::request`], which retries only a GET or a request
    /// with an idempotency key (one the provider recognises again). The raw
    /// body of a successful answer; the call counted by provider.
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<&serde_json::Value>,
        bearer: Option<&str>,
        idempotency_key: Option<&str>,
    ) -> Result<Vec<u8>, ProviderError> {
        let mut headers: Vec<(&str, String)> = Vec::new();
        if !self.api_key.is_empty() {
            headers.push(("x-api-key", self.api_key.clone()));
        }
        if let Some(t) = bearer {
            headers.push((AUTHORIZATION.as_str(), format!("Bearer {t}")));
        }
        if let Some(k) = idempotency_key {
            headers.push(("idempotency-key", k.to_string()));
        }
        let retriable = method == Method::GET || idempotency_key.is_some();
        let result = match body.map(serde_json::to_vec).transpose() {
            Ok(json) => {
                let body = json.map(|b| ("application/json", Bytes::from(b)));
                self.request(method, path, &headers, body, retriable).await.map(|a| a.body).map_err(ProviderError::from)
            }
            Err(_) => Err(ProviderError::BadAnswer),
        };
        record(path, result.as_ref().map(|_| ()).map_err(|e| *e));
        result
    }
}

/// Counts one call by provider (the path's first segment) and outcome.
fn record(path: &str, result: Result<(), ProviderError>) {
    let provider = match path.trim_start_matches('/').split('/').next().unwrap_or_default() {
        "verified" => "signing",
        "bisnode" => "credit",
        "meeting" => "meeting",
        _ => "other",
    };
    count(provider, result);
}

/// Counts one call of `provider` by outcome (`shared::telemetry::provider_call`),
/// and logs a failed one.
pub fn count(provider: &'static str, result: Result<(), ProviderError>) {
    let outcome = match result {
        Ok(()) => "ok",
        Err(ProviderError::Refused(_)) => "refused",
        Err(ProviderError::Unavailable) => "unavailable",
        Err(ProviderError::Timeout) => "timeout",
        Err(ProviderError::BadAnswer) => "bad_answer",
    };
    if let Err(e) = result {
        tracing::warn!(provider, outcome, error = ?e, "provider call failed");
    }
    crate::telemetry::provider_call(provider, outcome);
}

//! External providers of the add-on services, each behind a
//! small trait: [`signing::Signing`] (Verified), [`credit::Credit`]
//! (Dun & Bradstreet, formerly Bisnode), [`meeting::MeetingRooms`] (video
//! meetings), [`inkasso::Inkasso`] (the collection agency: a hand-over by
//! e-mail, as no agency publishes an API). The use cases hold `Arc<dyn …>` in [`Providers`] and never know
//! whether they talk to the provider or to the local stand-in
//! ([`stand_in`], served by the local gateway and the tests on loopback):
//! both are reached over HTTP by the same client ([`http::JsonClient`]:
//! timeouts, bounded retries with backoff, errors as `provider_*` keys).
//!
//! Configuration: `PROVIDERS_URL` is the local stand-ins' base URL
//! (`http://127.0.0.1:<port>/local/providers`; each provider's own URL
//! below replaces it on AWS, where it is not set); the stand-ins' API key is
//! `PROVIDERS_API_KEY`. `INKASSO_HANDOVER_EMAIL` is where the collection
//! hand-overs are mailed (a required template parameter; with the local
//! stand-in as the base it defaults to [`inkasso::LOCAL_HANDOVER`], whose
//! mails the local outbox keeps).
//! `PROVIDERS_TIMEOUT_MS`, `PROVIDERS_ATTEMPTS` and `PROVIDERS_BACKOFF_MS`
//! tune the client ([`crate::config::Budgets`]).
//! `CONTRACT_CHECK_URL` is where the contract-check screen links to (a
//! required template parameter; only with the local stand-in as the base
//! does it default to the stand-in's page, else the screen's link answers
//! `provider_unavailable`); `CONTRACT_CHECK_PHONE` and
//! `CONTRACT_CHECK_EMAIL` whom the screen names for questions.
//!
//! Verified (signing) has its own base URL, `VERIFIED_URL` (on AWS
//! `https://app.verified.eu/api`; default `<PROVIDERS_URL>/verified`, the
//! stand-in's copy), its timeout `VERIFIED_TIMEOUT_MS` (default the
//! providers' one), the envelope descriptor `VERIFIED_DESCRIPTOR` (default
//! `default`) and the SNS topic its webhooks come from,
//! `VERIFIED_SNS_TOPIC_ARN` (none: any topic; the signature is checked
//! either way). Its credentials are each company's own (kept with the
//! company's token), so it has no secret of the platform's.
//!
//! Whereby (video rooms) likewise: `WHEREBY_URL` (on AWS
//! `https://api.whereby.dev/v1`; default `<PROVIDERS_URL>/whereby/v1`, the
//! stand-in's copy), `WHEREBY_TIMEOUT_MS`, and its API key
//! `WHEREBY_API_KEY`, or on AWS the secret named by `WHEREBY_SECRET_ARN`
//! (none: the providers' key).
//!
//! BankID (signing in): `BANKID_URL`, `BANKID_TIMEOUT_MS` and the relying
//! party's certificate, see [`bankid`].
//!
//! D&B Direct+ (credit information): `DNB_URL` (on AWS
//! `https://plus.dnb.com`; default `<PROVIDERS_URL>/dnb`), `DNB_TIMEOUT_MS`,
//! and its credentials `<API key>:<API secret>` in `DNB_CREDENTIALS`, or on
//! AWS the secret named by `DNB_SECRET_ARN`.

pub mod bankid;
pub mod callback;
#[cfg(feature = "stand-in")]
pub mod contract;
pub mod contract_check;
pub mod credit;
pub mod http;
pub mod inkasso;
pub mod meeting;
pub mod signing;
#[cfg(feature = "stand-in")]
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
    /// How the signing provider's SNS callbacks are checked.
    pub sns: callback::SnsVerifier,
    pub meeting: Arc<dyn meeting::MeetingRooms>,
    /// Signing in with BankID.
    pub bankid: Arc<dyn bankid::BankId>,
}

impl Providers {
    /// Every provider over HTTP at `base` (one API gateway for all, as the
    /// stand-in serves them); the collection hand-overs to the local address.
    pub fn http(base: &str, api_key: &str, limits: Limits) -> Providers {
        Providers {
            signing: Arc::new(signing::HttpSigning::new(JsonClient::new(&format!("{}/verified", base.trim_end_matches('/')), "", limits))),
            credit: Arc::new(credit::DirectPlus::new(
                JsonClient::new(&format!("{}/dnb", base.trim_end_matches('/')), "", limits),
                &format!("{api_key}:{api_key}"),
            )),
            inkasso: Arc::new(inkasso::MailHandOver { to: Some(inkasso::LOCAL_HANDOVER.into()) }),
            meeting: Arc::new(meeting::Whereby {
                client: JsonClient::new(&format!("{}/whereby/v1", base.trim_end_matches('/')), "", limits),
                api_key: api_key.to_string(),
            }),
            contract_check: Arc::new(contract_check::ConfiguredLink(format!("{}/kontrakto/", base.trim_end_matches('/')))),
            sns: callback::SnsVerifier { certs: Arc::new(callback::HttpsCerts::new(limits)), topic_arn: None },
            bankid: Arc::new(bankid::RpApi { client: JsonClient::new(&format!("{}/bankid", base.trim_end_matches('/')), "", limits) }),
        }
    }

    /// From the environment (see the module docs); without `PROVIDERS_URL`
    /// the local stand-in at the gateway's default address.
    pub fn from_env() -> Providers {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
        let base = var("PROVIDERS_URL").unwrap_or_else(|| "http://127.0.0.1:3000/local/providers".into());
        let key = var("PROVIDERS_API_KEY").unwrap_or_default();
        let limits = Limits::of(&crate::config::Budgets::from_env());
        let mut p = Providers::http(&base, &key, limits);
        let verified = var("VERIFIED_URL").unwrap_or_else(|| format!("{}/verified", base.trim_end_matches('/')));
        let limits_of = |name: &str| match var(name).and_then(|v| v.parse::<u64>().ok()).filter(|ms| (100..=30_000).contains(ms)) {
            Some(ms) => Limits { timeout: std::time::Duration::from_millis(ms), ..limits },
            None => limits,
        };
        let verified_limits = limits_of("VERIFIED_TIMEOUT_MS");
        p.signing = Arc::new(signing::HttpSigning {
            client: JsonClient::new(&verified, "", verified_limits),
            descriptor: var("VERIFIED_DESCRIPTOR").unwrap_or_else(|| "default".into()),
        });
        p.sns.topic_arn = var("VERIFIED_SNS_TOPIC_ARN");
        let whereby = var("WHEREBY_URL").unwrap_or_else(|| format!("{}/whereby/v1", base.trim_end_matches('/')));
        let whereby_key = match (var("WHEREBY_API_KEY"), var("WHEREBY_SECRET_ARN")) {
            (Some(k), _) => k,
            (None, Some(arn)) => read_key(&arn),
            (None, None) => key.clone(),
        };
        let dnb = var("DNB_URL").unwrap_or_else(|| format!("{}/dnb", base.trim_end_matches('/')));
        let dnb_credentials = match (var("DNB_CREDENTIALS"), var("DNB_SECRET_ARN")) {
            (Some(c), _) => c,
            (None, Some(arn)) => read_key(&arn),
            (None, None) => format!("{key}:{key}"),
        };
        p.credit = Arc::new(credit::DirectPlus::new(JsonClient::new(&dnb, "", limits_of("DNB_TIMEOUT_MS")), &dnb_credentials));
        p.meeting =
            Arc::new(meeting::Whereby { client: JsonClient::new(&whereby, "", limits_of("WHEREBY_TIMEOUT_MS")), api_key: whereby_key });
        // The stand-in's page only where the providers are the local stand-in:
        // on AWS the template requires the address.
        let local = base.starts_with("http://127.0.0.1") || base.starts_with("http://localhost");
        let url =
            var("CONTRACT_CHECK_URL").or_else(|| local.then(|| format!("{}/kontrakto/", base.trim_end_matches('/')))).unwrap_or_default();
        let (phone, email) = (var("CONTRACT_CHECK_PHONE"), var("CONTRACT_CHECK_EMAIL"));
        let handover = var("INKASSO_HANDOVER_EMAIL").or_else(|| local.then(|| inkasso::LOCAL_HANDOVER.to_string()));
        p.inkasso = Arc::new(inkasso::MailHandOver { to: handover });
        p.contract_check = Arc::new(contract_check::WithContact { link: contract_check::ConfiguredLink(url), phone, email });
        p.bankid = Arc::new(bankid::from_env(&base, limits_of("BANKID_TIMEOUT_MS")));
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

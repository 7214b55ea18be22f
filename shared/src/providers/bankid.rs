//! BankID, the Relying Party API v6 (BankID's published description):
//! JSON over HTTPS with mutual TLS, the relying party's certificate as the
//! client's and BankID's own CA as the only trusted root.
//!
//! - `POST /rp/v6.0/auth` with `endUserIp` (and optionally
//!   `userVisibleData`, base64, in `userVisibleDataFormat`) answers
//!   `orderRef`, `autoStartToken`, `qrStartToken`, `qrStartSecret`.
//! - `POST /rp/v6.0/collect` with `orderRef` answers `status` (`pending`,
//!   `failed`, `complete`), `hintCode`, and for a complete order
//!   `completionData.user` (`personalNumber`, `name`, `givenName`, `surname`).
//!   Called every two seconds while pending.
//! - `POST /rp/v6.0/cancel` with `orderRef` answers `{}`.
//! - A refusal is a 4xx with `{"errorCode", "details"}`: `alreadyInProgress`
//!   (an order for the same person is running), `invalidParameters` (among
//!   others an orderRef BankID no longer knows), `unauthorized`, `notFound`;
//!   `internalError` and `maintenance` are 5xx (tried again).
//!
//! Configuration: `BANKID_URL` (test `https://appapi2.test.bankid.com`,
//! production `https://appapi2.bankid.com`; default `<PROVIDERS_URL>/bankid`,
//! the local stand-in's copy, over plain HTTP) and the relying party's
//! certificate, key and BankID's CA as PEM: on AWS the JSON secret
//! `{"certificate", "key", "ca"}` named by `BANKID_SECRET_ARN`, locally
//! `BANKID_CERTIFICATE`, `BANKID_KEY`, `BANKID_CA` (none: no client
//! certificate, for the stand-in).

use std::future::Future;
use std::pin::Pin;

use base64::Engine;
use bytes::Bytes;
use hyper::Method;
use serde::{Deserialize, Serialize};

use super::http::{Failure, JsonClient, Limits, ProviderError};
use crate::domain::bankid::OrderStatus;

/// What `auth` answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthStarted {
    pub order_ref: String,
    pub auto_start_token: String,
    pub qr_start_token: String,
    pub qr_start_secret: String,
}

/// What `collect` answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collected {
    pub status: OrderStatus,
    pub hint_code: Option<String>,
    /// The verified person, when complete.
    pub personal_number: Option<String>,
    pub name: Option<String>,
}

/// How a BankID call failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BankIdError {
    /// No usable answer after the client's retries.
    Call(ProviderError),
    /// A refusal with BankID's `errorCode`.
    Refused(String),
}

pub type BankIdFut<'a, T> = Pin<Box<dyn Future<Output = Result<T, BankIdError>> + Send + 'a>>;

pub trait BankId: Send + Sync {
    /// Starts an identification for the user at `end_user_ip`.
    fn auth<'a>(&'a self, end_user_ip: &'a str, visible_text: &'a str) -> BankIdFut<'a, AuthStarted>;
    fn collect<'a>(&'a self, order_ref: &'a str) -> BankIdFut<'a, Collected>;
    fn cancel<'a>(&'a self, order_ref: &'a str) -> BankIdFut<'a, ()>;
}

/// The RP API over [`JsonClient`].
pub struct RpApi {
    pub client: JsonClient,
}

/// The relying party's certificate chain and key and BankID's CA, as PEM.
#[derive(Clone, Deserialize)]
pub struct Identity {
    pub certificate: String,
    pub key: String,
    pub ca: String,
}

impl Identity {
    /// The TLS configuration for mutual TLS: only BankID's CA is trusted,
    /// and the relying party's certificate answers the server's request.
    pub fn tls(&self) -> Result<rustls::ClientConfig, String> {
        use rustls_pki_types::pem::PemObject;
        use rustls_pki_types::{CertificateDer, PrivateKeyDer};
        let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(self.certificate.as_bytes())
            .collect::<Result<_, _>>()
            .map_err(|e| format!("certificate: {e}"))?;
        if certs.is_empty() {
            return Err("certificate: no PEM certificate".into());
        }
        let key = PrivateKeyDer::from_pem_slice(self.key.as_bytes()).map_err(|e| format!("key: {e}"))?;
        let mut roots = rustls::RootCertStore::empty();
        for ca in CertificateDer::pem_slice_iter(self.ca.as_bytes()) {
            roots.add(ca.map_err(|e| format!("ca: {e}"))?).map_err(|e| format!("ca: {e}"))?;
        }
        if roots.is_empty() {
            return Err("ca: no PEM certificate".into());
        }
        rustls::ClientConfig::builder_with_provider(rustls::crypto::aws_lc_rs::default_provider().into())
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_root_certificates(roots)
            .with_client_auth_cert(certs, key)
            .map_err(|e| format!("certificate and key: {e}"))
    }
}

impl RpApi {
    /// The API at `base` (without `/rp/v6.0`), with mutual TLS when an
    /// identity is given.
    pub fn new(base: &str, limits: Limits, identity: Option<&Identity>) -> Result<RpApi, String> {
        let client = match identity {
            Some(id) => JsonClient::with_tls(base, limits, id.tls()?),
            None => JsonClient::new(base, "", limits),
        };
        Ok(RpApi { client })
    }

    async fn call<T: serde::de::DeserializeOwned>(&self, op: &str, body: serde_json::Value, retriable: bool) -> Result<T, BankIdError> {
        let body = Bytes::from(body.to_string());
        let path = format!("/rp/v6.0/{op}");
        let result = self.client.request(Method::POST, &path, &[], Some(("application/json", body)), retriable).await;
        super::http::count("bankid", result.as_ref().map(|_| ()).map_err(|f| f.error));
        match result {
            Ok(a) => serde_json::from_slice(&a.body).map_err(|_| BankIdError::Call(ProviderError::BadAnswer)),
            Err(Failure { error: ProviderError::Refused(_), body }) => {
                #[derive(Deserialize)]
                #[serde(rename_all = "camelCase")]
                struct Refusal {
                    error_code: String,
                }
                match serde_json::from_slice::<Refusal>(&body) {
                    Ok(r) => Err(BankIdError::Refused(r.error_code.chars().take(64).collect())),
                    Err(_) => Err(BankIdError::Call(ProviderError::BadAnswer)),
                }
            }
            Err(f) => Err(BankIdError::Call(f.error)),
        }
    }
}

/// The `auth` body: the user's address and the text the app shows.
pub fn auth_body(end_user_ip: &str, visible_text: &str) -> serde_json::Value {
    let mut body = serde_json::json!({ "endUserIp": end_user_ip });
    if !visible_text.is_empty() {
        body["userVisibleData"] = base64::engine::general_purpose::STANDARD.encode(visible_text).into();
        body["userVisibleDataFormat"] = "simpleMarkdownV1".into();
    }
    body
}

/// `collect`'s answer as BankID documents it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CollectAnswer {
    status: OrderStatus,
    #[serde(default)]
    hint_code: Option<String>,
    #[serde(default)]
    completion_data: Option<CompletionData>,
}

#[derive(Deserialize)]
struct CompletionData {
    user: CompletedUser,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CompletedUser {
    personal_number: String,
    #[serde(default)]
    name: Option<String>,
}

impl CollectAnswer {
    fn checked(self) -> Result<Collected, BankIdError> {
        let bad = || BankIdError::Call(ProviderError::BadAnswer);
        let hint_code = self.hint_code.filter(|h| h.len() <= 64 && h.chars().all(|c| c.is_ascii_alphanumeric()));
        match (self.status, self.completion_data) {
            (OrderStatus::Complete, Some(d)) => {
                if !crate::domain::bankid::is_personal_number(&d.user.personal_number) {
                    return Err(bad());
                }
                Ok(Collected {
                    status: OrderStatus::Complete,
                    hint_code: None,
                    personal_number: Some(d.user.personal_number),
                    name: d.user.name.map(|n| n.chars().take(200).collect()),
                })
            }
            (OrderStatus::Complete, None) => Err(bad()),
            (status, _) => Ok(Collected { status, hint_code, personal_number: None, name: None }),
        }
    }
}

impl BankId for RpApi {
    fn auth<'a>(&'a self, end_user_ip: &'a str, visible_text: &'a str) -> BankIdFut<'a, AuthStarted> {
        Box::pin(async move {
            // Sent once: a second order for a lost answer would only wait unused.
            let a: AuthStarted = self.call("auth", auth_body(end_user_ip, visible_text), false).await?;
            let sane = |v: &str| !v.is_empty() && v.len() <= 100 && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
            if [&a.order_ref, &a.auto_start_token, &a.qr_start_token, &a.qr_start_secret].iter().all(|v| sane(v)) {
                Ok(a)
            } else {
                Err(BankIdError::Call(ProviderError::BadAnswer))
            }
        })
    }

    fn collect<'a>(&'a self, order_ref: &'a str) -> BankIdFut<'a, Collected> {
        Box::pin(async move {
            let a: CollectAnswer = self.call("collect", serde_json::json!({ "orderRef": order_ref }), true).await?;
            a.checked()
        })
    }

    fn cancel<'a>(&'a self, order_ref: &'a str) -> BankIdFut<'a, ()> {
        Box::pin(async move {
            let _: serde_json::Value = self.call("cancel", serde_json::json!({ "orderRef": order_ref }), true).await?;
            Ok(())
        })
    }
}

/// From the environment (see the module docs); `providers` is the stand-ins' base.
pub fn from_env(providers_base: &str, limits: Limits) -> RpApi {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
    let base = var("BANKID_URL").unwrap_or_else(|| format!("{}/bankid", providers_base.trim_end_matches('/')));
    let identity = match (var("BANKID_CERTIFICATE"), var("BANKID_KEY"), var("BANKID_CA"), var("BANKID_SECRET_ARN")) {
        (Some(certificate), Some(key), Some(ca), _) => Some(Identity { certificate, key, ca }),
        (_, _, _, Some(arn)) => match serde_json::from_str::<Identity>(&super::read_key(&arn)) {
            Ok(id) => Some(id),
            Err(_) => {
                tracing::warn!("the BankID secret is not JSON with certificate, key and ca: BankID calls will fail");
                None
            }
        },
        _ => None,
    };
    match RpApi::new(&base, limits, identity.as_ref()) {
        Ok(api) => api,
        Err(e) => {
            tracing::warn!(error = %e, "BankID's certificate does not load: BankID calls will fail");
            RpApi { client: JsonClient::new(&base, "", limits) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_auth_body_has_the_address_and_the_text_in_base64() {
        let b = auth_body("192.0.2.1", "Logga in");
        assert_eq!(b["endUserIp"], "192.0.2.1");
        assert_eq!(b["userVisibleData"], "TG9nZ2EgaW4=");
        assert_eq!(b["userVisibleDataFormat"], "simpleMarkdownV1");
        assert!(auth_body("::1", "").get("userVisibleData").is_none());
    }

    #[test]
    fn collect_answers_are_read_as_documented() {
        let pending: CollectAnswer =
            serde_json::from_str(r#"{"orderRef":"o","status":"pending","hintCode":"outstandingTransaction"}"#).unwrap();
        let c = pending.checked().unwrap();
        assert_eq!((c.status, c.hint_code.as_deref()), (OrderStatus::Pending, Some("outstandingTransaction")));
        let complete: CollectAnswer = serde_json::from_str(
            r#"{"orderRef":"o","status":"complete","completionData":{"user":{"personalNumber":"199001012385","name":"Test Testsson","givenName":"Test","surname":"Testsson"},"device":{"ipAddress":"192.0.2.1","uhi":"x"},"bankIdIssueDate":"2026-01-01","signature":"c2ln","ocspResponse":"b2NzcA=="}}"#,
        )
        .unwrap();
        assert_eq!(complete.checked().unwrap().personal_number.as_deref(), Some("199001012385"));
        let forged: CollectAnswer =
            serde_json::from_str(r#"{"orderRef":"o","status":"complete","completionData":{"user":{"personalNumber":"1990"}}}"#).unwrap();
        assert_eq!(forged.checked(), Err(BankIdError::Call(ProviderError::BadAnswer)));
        let empty: CollectAnswer = serde_json::from_str(r#"{"orderRef":"o","status":"complete"}"#).unwrap();
        assert!(empty.checked().is_err());
    }

    #[test]
    fn an_identity_without_pem_is_refused() {
        let id = Identity { certificate: "nope".into(), key: "nope".into(), ca: "nope".into() };
        assert!(id.tls().is_err());
    }
}

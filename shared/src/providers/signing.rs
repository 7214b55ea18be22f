//! The digital contract-signing provider (Verified): token registration and
//! login, envelopes (create with documents and recipients, status, remind,
//! cancel) and the signed PDF. [`Signing`] is all the use cases see;
//! [`HttpSigning`] speaks the provider's REST API (or the local stand-in's
//! copy of it, `providers::stand_in`).

use hyper::Method;
use serde::{Deserialize, Serialize};

use super::http::{JsonClient, ProviderError};
use super::Fut;
use crate::domain::addons::Recipient;

/// A document the provider fetches (a short-lived download URL).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SendDocument {
    pub name: String,
    pub url: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NewEnvelope {
    pub name: String,
    pub sequential: bool,
    pub documents: Vec<SendDocument>,
    pub recipients: Vec<Recipient>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecipientStatus {
    pub email: String,
    pub signed: bool,
}

/// The provider's view of an envelope: `sent`, `completed`, `cancelled` or `expired`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EnvelopeStatus {
    pub id: String,
    pub state: String,
    pub recipients: Vec<RecipientStatus>,
}

#[derive(Deserialize)]
struct TokenAnswer {
    token: String,
}

#[derive(Deserialize)]
struct ValidAnswer {
    valid: bool,
}

pub trait Signing: Send + Sync {
    /// A new account at the provider for the company: its API token.
    fn register<'a>(&'a self, company: &'a str, email: &'a str, password: &'a str) -> Fut<'a, String>;
    /// An existing account's API token (`Refused(401)` for a wrong password).
    fn login<'a>(&'a self, email: &'a str, password: &'a str) -> Fut<'a, String>;
    /// Whether the provider still accepts the token.
    fn check<'a>(&'a self, token: &'a str) -> Fut<'a, bool>;
    /// Creates and sends an envelope; `key` makes a retry answer the same envelope.
    fn create<'a>(&'a self, token: &'a str, key: &'a str, envelope: &'a NewEnvelope) -> Fut<'a, EnvelopeStatus>;
    fn status<'a>(&'a self, token: &'a str, id: &'a str) -> Fut<'a, EnvelopeStatus>;
    fn remind<'a>(&'a self, token: &'a str, id: &'a str) -> Fut<'a, ()>;
    fn cancel<'a>(&'a self, token: &'a str, id: &'a str) -> Fut<'a, ()>;
    /// The signed PDF of a completed envelope.
    fn signed_pdf<'a>(&'a self, token: &'a str, id: &'a str) -> Fut<'a, Vec<u8>>;
}

/// The provider's REST API over [`JsonClient`].
pub struct HttpSigning(pub JsonClient);

fn id_path(id: &str, rest: &str) -> String {
    let id: String = id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
    format!("/verified/envelopes/{id}{rest}")
}

impl Signing for HttpSigning {
    fn register<'a>(&'a self, company: &'a str, email: &'a str, password: &'a str) -> Fut<'a, String> {
        Box::pin(async move {
            let body = serde_json::json!({"company": company, "email": email, "password": password});
            let a: TokenAnswer = self.0.json(Method::POST, "/verified/auth/register", Some(&body), None, Some(email)).await?;
            Ok(a.token)
        })
    }

    fn login<'a>(&'a self, email: &'a str, password: &'a str) -> Fut<'a, String> {
        Box::pin(async move {
            let body = serde_json::json!({"email": email, "password": password});
            let a: TokenAnswer = self.0.json(Method::POST, "/verified/auth/login", Some(&body), None, Some(email)).await?;
            Ok(a.token)
        })
    }

    fn check<'a>(&'a self, token: &'a str) -> Fut<'a, bool> {
        Box::pin(async move {
            match self.0.json::<ValidAnswer>(Method::GET, "/verified/auth/check", None::<&()>, Some(token), None).await {
                Ok(a) => Ok(a.valid),
                Err(ProviderError::Refused(401 | 403)) => Ok(false),
                Err(e) => Err(e),
            }
        })
    }

    fn create<'a>(&'a self, token: &'a str, key: &'a str, envelope: &'a NewEnvelope) -> Fut<'a, EnvelopeStatus> {
        Box::pin(async move { self.0.json(Method::POST, "/verified/envelopes", Some(envelope), Some(token), Some(key)).await })
    }

    fn status<'a>(&'a self, token: &'a str, id: &'a str) -> Fut<'a, EnvelopeStatus> {
        Box::pin(async move { self.0.json(Method::GET, &id_path(id, ""), None::<&()>, Some(token), None).await })
    }

    fn remind<'a>(&'a self, token: &'a str, id: &'a str) -> Fut<'a, ()> {
        Box::pin(async move {
            let key = format!("remind-{id}-{}", chrono::Utc::now().timestamp() / 60);
            self.0.send(Method::POST, &id_path(id, "/remind"), None, Some(token), Some(&key)).await.map(|_| ())
        })
    }

    fn cancel<'a>(&'a self, token: &'a str, id: &'a str) -> Fut<'a, ()> {
        Box::pin(async move {
            let key = format!("cancel-{id}");
            self.0.send(Method::POST, &id_path(id, "/cancel"), None, Some(token), Some(&key)).await.map(|_| ())
        })
    }

    fn signed_pdf<'a>(&'a self, token: &'a str, id: &'a str) -> Fut<'a, Vec<u8>> {
        Box::pin(async move {
            let bytes = self.0.send(Method::GET, &id_path(id, "/signed.pdf"), None, Some(token), None).await?;
            if bytes.starts_with(b"%PDF-") {
                Ok(bytes)
            } else {
                Err(ProviderError::BadAnswer)
            }
        })
    }
}

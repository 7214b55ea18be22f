//! The digital contract-signing provider, Verified (app.verified.eu, base
//! `/api`), as its published connector definition describes the API
//! (`shared/contracts/verified/`, read by the contract tests):
//!
//! - `POST /auth` with Basic credentials answers `{token}`; every other call
//!   sends `authorization: JWT <token>` and, for the company's data,
//!   `x-namespace: /companies/<company id>`.
//! - An envelope is made in steps: created from an envelope descriptor
//!   (`POST /envelope-descriptors/<descriptor>/envelopes` → `{uid}`), its
//!   settings (`PUT /envelopes/<id>`), a document
//!   (`POST /envelopes/<id>/documents` → `Location`), a file for it
//!   (`POST …/documents/<doc>/files` → the file with an upload `url`, the PDF
//!   PUT there), recipients (`POST /envelopes/<id>/recipients` → `Location`),
//!   then published (`PUT /envelopes/<id>/publish-status`).
//! - Its state is the flags of `GET /envelopes/<id>`; reminders and sign
//!   links are jobs (`send.notification`, `get.sign.link`); abort is
//!   `PUT …/abort-status`; the signed file is a file of the document, read
//!   from its `url`.
//!
//! [`Signing`] is all the use cases see; each step is one call, so the use
//! case can store what each gave and resume after a crash.

use bytes::Bytes;
use hyper::Method;
use serde::{Deserialize, Serialize};

use super::http::{Answer, JsonClient, ProviderError};
use super::Fut;
use crate::domain::addons::Recipient;

/// The company's access: the token and the company it works for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    pub token: String,
    pub company_id: String,
}

/// The envelope's flags as the provider reports them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvelopeFlags {
    #[serde(default)]
    pub published: bool,
    #[serde(default)]
    pub completed: bool,
    #[serde(default)]
    pub aborted: bool,
    #[serde(default)]
    pub trashed: bool,
    #[serde(default)]
    pub expired: bool,
}

/// `completed`, `cancelled` (aborted or trashed), `expired` or `sent`.
impl EnvelopeFlags {
    pub fn state(&self) -> &'static str {
        if self.completed {
            "completed"
        } else if self.aborted || self.trashed {
            "cancelled"
        } else if self.expired {
            "expired"
        } else {
            "sent"
        }
    }
}

/// A file the provider made for a document: its id and where to PUT the PDF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UploadSlot {
    pub file_id: String,
    pub url: String,
}

pub trait Signing: Send + Sync {
    /// `POST /auth` with Basic `username:password`: the token.
    fn auth<'a>(&'a self, username: &'a str, password: &'a str) -> Fut<'a, String>;
    /// Whether the token is accepted for the company (`GET /companies/<id>`).
    fn check<'a>(&'a self, s: &'a Session) -> Fut<'a, bool>;
    /// A new envelope from the descriptor: its uid.
    fn create<'a>(&'a self, s: &'a Session) -> Fut<'a, String>;
    /// Signing order (`sequentialSigning`).
    fn settings<'a>(&'a self, s: &'a Session, id: &'a str, sequential: bool) -> Fut<'a, ()>;
    /// A document of the envelope: its id.
    fn add_document<'a>(&'a self, s: &'a Session, id: &'a str, name: &'a str) -> Fut<'a, String>;
    /// A PDF file of the document: where to put it.
    fn add_file<'a>(&'a self, s: &'a Session, id: &'a str, doc: &'a str, name: &'a str) -> Fut<'a, UploadSlot>;
    /// PUTs the PDF to the upload URL.
    fn upload<'a>(&'a self, url: &'a str, pdf: Vec<u8>) -> Fut<'a, ()>;
    /// A recipient (order from 1): its id.
    fn add_recipient<'a>(&'a self, s: &'a Session, id: &'a str, r: &'a Recipient, order: u32) -> Fut<'a, String>;
    /// The envelope's documents as (id, name) (a resumed send finds those it added).
    fn documents<'a>(&'a self, s: &'a Session, id: &'a str) -> Fut<'a, Vec<(String, String)>>;
    /// The envelope's recipients as (id, e-mail).
    fn recipients<'a>(&'a self, s: &'a Session, id: &'a str) -> Fut<'a, Vec<(String, String)>>;
    fn publish<'a>(&'a self, s: &'a Session, id: &'a str) -> Fut<'a, ()>;
    fn status<'a>(&'a self, s: &'a Session, id: &'a str) -> Fut<'a, EnvelopeFlags>;
    /// Sends the recipient a notification (a reminder).
    fn remind<'a>(&'a self, s: &'a Session, id: &'a str, recipient: &'a str) -> Fut<'a, ()>;
    /// The recipient's signing page, returning to `redirect` afterwards.
    fn sign_link<'a>(&'a self, s: &'a Session, id: &'a str, recipient: &'a str, redirect: &'a str) -> Fut<'a, String>;
    fn abort<'a>(&'a self, s: &'a Session, id: &'a str) -> Fut<'a, ()>;
    /// The signed PDF of a document: a file of it other than `uploaded`.
    fn signed_pdf<'a>(&'a self, s: &'a Session, id: &'a str, doc: &'a str, uploaded: &'a str) -> Fut<'a, Vec<u8>>;
}

/// Verified's REST API over [`JsonClient`] (base `https://app.verified.eu/api`).
pub struct HttpSigning {
    pub client: JsonClient,
    /// The envelope descriptor envelopes are created from (`default`, or the
    /// id of one set up for the company).
    pub descriptor: String,
}

impl HttpSigning {
    pub fn new(client: JsonClient) -> Self {
        HttpSigning { client, descriptor: "default".into() }
    }
}

/// Only the characters an id of the provider has (path segments stay segments).
fn seg(id: &str) -> String {
    id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_' || *c == '.').collect()
}

fn headers(s: &Session, namespaced: bool) -> Vec<(&'static str, String)> {
    let mut h = vec![("authorization", format!("JWT {}", s.token))];
    if namespaced {
        h.push(("x-namespace", format!("/companies/{}", seg(&s.company_id))));
    }
    h
}

fn json_body(v: &serde_json::Value) -> Option<(&'static str, Bytes)> {
    Some(("application/json", Bytes::from(v.to_string())))
}

fn parse<T: serde::de::DeserializeOwned>(a: &Answer) -> Result<T, ProviderError> {
    serde_json::from_slice(&a.body).map_err(|_| ProviderError::BadAnswer)
}

/// The id at the end of a `Location` header (a path or a URL).
fn located(a: &Answer) -> Result<String, ProviderError> {
    let last = a.location.as_deref().and_then(|l| l.trim_end_matches('/').rsplit('/').next()).map(seg).unwrap_or_default();
    if last.is_empty() || last.len() > 100 {
        Err(ProviderError::BadAnswer)
    } else {
        Ok(last)
    }
}

/// The provider's language for our locales (its list has no English: an
/// English recipient gets the Swedish pages).
pub fn language(locale: &str) -> &'static str {
    match locale {
        "nb" => "nb-NO",
        "da" => "da-DK",
        "fi" => "fi-FI",
        _ => "sv-SE",
    }
}

/// The provider's signing method for ours.
pub fn signing_method(m: &str) -> &'static str {
    match m {
        "bankid_se" => "bankid-se",
        "bankid_no" => "bankid-no",
        "touch_sign" => "touch-sign",
        _ => "email",
    }
}

/// The role object of a recipient: signers sign, approvers review, viewers get a copy.
fn role(r: &str) -> serde_json::Value {
    let (action, label) = match r {
        "approver" => ("review", "Approver"),
        "viewer" => ("copy", "Viewer"),
        _ => ("sign", "Signer"),
    };
    serde_json::json!({"action": action, "name": r, "label": label})
}

/// `Förnamn Efternamn` as given and family name (the last word; one word is both).
fn names(full: &str) -> (String, String) {
    let full = full.trim();
    match full.rsplit_once(' ') {
        Some((given, family)) => (given.trim().to_string(), family.to_string()),
        None => (full.to_string(), full.to_string()),
    }
}

impl Signing for HttpSigning {
    fn auth<'a>(&'a self, username: &'a str, password: &'a str) -> Fut<'a, String> {
        Box::pin(async move {
            use base64::Engine;
            let basic = base64::engine::general_purpose::STANDARD.encode(format!("{username}:{password}"));
            let h = [("authorization", format!("Basic {basic}"))];
            let a = self.client.request(Method::POST, "/auth", &h, None, true).await?;
            #[derive(Deserialize)]
            struct Token {
                token: String,
            }
            let t: Token = parse(&a)?;
            if t.token.is_empty() || t.token.len() > 8192 {
                return Err(ProviderError::BadAnswer);
            }
            Ok(t.token)
        })
    }

    fn check<'a>(&'a self, s: &'a Session) -> Fut<'a, bool> {
        Box::pin(async move {
            let path = format!("/companies/{}", seg(&s.company_id));
            match self.client.request(Method::GET, &path, &headers(s, false), None, true).await.map_err(ProviderError::from) {
                Ok(_) => Ok(true),
                Err(ProviderError::Refused(401 | 403 | 404)) => Ok(false),
                Err(e) => Err(e),
            }
        })
    }

    fn create<'a>(&'a self, s: &'a Session) -> Fut<'a, String> {
        Box::pin(async move {
            let path = format!("/envelope-descriptors/{}/envelopes", seg(&self.descriptor));
            // Never retried: the answer is the only way to know the envelope,
            // so a lost answer is the caller's to resolve (it stores the uid).
            let a = self.client.request(Method::POST, &path, &headers(s, true), json_body(&serde_json::json!({})), false).await?;
            #[derive(Deserialize)]
            struct Created {
                uid: String,
            }
            let c: Created = parse(&a)?;
            match seg(&c.uid) {
                uid if !uid.is_empty() && uid == c.uid => Ok(uid),
                _ => Err(ProviderError::BadAnswer),
            }
        })
    }

    fn settings<'a>(&'a self, s: &'a Session, id: &'a str, sequential: bool) -> Fut<'a, ()> {
        Box::pin(async move {
            let body = serde_json::json!({"sequentialSigning": sequential});
            self.client
                .request(Method::PUT, &format!("/envelopes/{}", seg(id)), &headers(s, true), json_body(&body), true)
                .await
                .map(|_| ())
                .map_err(ProviderError::from)
        })
    }

    fn add_document<'a>(&'a self, s: &'a Session, id: &'a str, name: &'a str) -> Fut<'a, String> {
        Box::pin(async move {
            let body = serde_json::json!({"name": name});
            let path = format!("/envelopes/{}/documents", seg(id));
            located(&self.client.request(Method::POST, &path, &headers(s, true), json_body(&body), false).await?)
        })
    }

    fn add_file<'a>(&'a self, s: &'a Session, id: &'a str, doc: &'a str, name: &'a str) -> Fut<'a, UploadSlot> {
        Box::pin(async move {
            let body = serde_json::json!({"name": name, "fileType": "document"});
            let path = format!("/envelopes/{}/documents/{}/files", seg(id), seg(doc));
            let a = self.client.request(Method::POST, &path, &headers(s, true), json_body(&body), false).await?;
            #[derive(Deserialize)]
            struct File {
                id: String,
                url: String,
            }
            let f: File = parse(&a)?;
            let url_ok = (f.url.starts_with("https://") || f.url.starts_with("http://127.0.0.1")) && f.url.len() <= 4096;
            if f.id.is_empty() || seg(&f.id) != f.id || !url_ok {
                return Err(ProviderError::BadAnswer);
            }
            Ok(UploadSlot { file_id: f.id, url: f.url })
        })
    }

    fn upload<'a>(&'a self, url: &'a str, pdf: Vec<u8>) -> Fut<'a, ()> {
        // A PUT of the same bytes to the same URL is idempotent: retried.
        Box::pin(async move {
            self.client
                .request(Method::PUT, url, &[], Some(("application/pdf", Bytes::from(pdf))), true)
                .await
                .map(|_| ())
                .map_err(ProviderError::from)
        })
    }

    fn add_recipient<'a>(&'a self, s: &'a Session, id: &'a str, r: &'a Recipient, order: u32) -> Fut<'a, String> {
        Box::pin(async move {
            let (given, family) = names(&r.name);
            let mut body = serde_json::json!({
                "givenName": given,
                "familyName": family,
                "email": r.email,
                "language": language(&r.locale),
                "signingMethod": signing_method(&r.sign_method),
                "order": order,
                "role": role(&r.role),
            });
            if !r.phone.trim().is_empty() {
                body["telephone"] = r.phone.chars().filter(|c| c.is_ascii_digit() || *c == '+').collect::<String>().into();
            }
            if r.notify_sms {
                body["sms"] = true.into();
            }
            let path = format!("/envelopes/{}/recipients", seg(id));
            located(&self.client.request(Method::POST, &path, &headers(s, true), json_body(&body), false).await?)
        })
    }

    fn documents<'a>(&'a self, s: &'a Session, id: &'a str) -> Fut<'a, Vec<(String, String)>> {
        Box::pin(async move {
            #[derive(Deserialize)]
            struct Doc {
                #[serde(default)]
                id: String,
                #[serde(default)]
                name: String,
            }
            let path = format!("/envelopes/{}/documents", seg(id));
            let docs: Vec<Doc> = parse(&self.client.request(Method::GET, &path, &headers(s, true), None, true).await?)?;
            Ok(docs.into_iter().filter(|d| !d.id.is_empty()).map(|d| (d.id, d.name)).collect())
        })
    }

    fn recipients<'a>(&'a self, s: &'a Session, id: &'a str) -> Fut<'a, Vec<(String, String)>> {
        Box::pin(async move {
            #[derive(Deserialize)]
            struct Rec {
                #[serde(default)]
                id: String,
                #[serde(default)]
                email: String,
            }
            let path = format!("/envelopes/{}/recipients", seg(id));
            let rs: Vec<Rec> = parse(&self.client.request(Method::GET, &path, &headers(s, true), None, true).await?)?;
            Ok(rs.into_iter().filter(|r| !r.id.is_empty()).map(|r| (r.id, r.email)).collect())
        })
    }

    fn publish<'a>(&'a self, s: &'a Session, id: &'a str) -> Fut<'a, ()> {
        Box::pin(async move {
            let body = serde_json::json!({"published": true});
            let path = format!("/envelopes/{}/publish-status", seg(id));
            self.client
                .request(Method::PUT, &path, &headers(s, true), json_body(&body), true)
                .await
                .map(|_| ())
                .map_err(ProviderError::from)
        })
    }

    fn status<'a>(&'a self, s: &'a Session, id: &'a str) -> Fut<'a, EnvelopeFlags> {
        Box::pin(async move {
            parse(&self.client.request(Method::GET, &format!("/envelopes/{}", seg(id)), &headers(s, true), None, true).await?)
        })
    }

    fn remind<'a>(&'a self, s: &'a Session, id: &'a str, recipient: &'a str) -> Fut<'a, ()> {
        Box::pin(async move {
            let body = serde_json::json!({"recipient": {"id": recipient}});
            let path = format!("/envelopes/{}/jobs/send.notification", seg(id));
            self.client
                .request(Method::POST, &path, &headers(s, true), json_body(&body), false)
                .await
                .map(|_| ())
                .map_err(ProviderError::from)
        })
    }

    fn sign_link<'a>(&'a self, s: &'a Session, id: &'a str, recipient: &'a str, redirect: &'a str) -> Fut<'a, String> {
        Box::pin(async move {
            let body = serde_json::json!({"recipient": {"id": recipient}, "redirectTo": redirect});
            let path = format!("/envelopes/{}/jobs/get.sign.link", seg(id));
            let a = self.client.request(Method::POST, &path, &headers(s, true), json_body(&body), true).await?;
            let v: serde_json::Value = parse(&a)?;
            let url = v["getSignLink"]["recipient"][recipient]["url"].as_str().unwrap_or_default();
            if url.starts_with("https://") || url.starts_with("http://127.0.0.1") {
                Ok(url.to_string())
            } else {
                Err(ProviderError::BadAnswer)
            }
        })
    }

    fn abort<'a>(&'a self, s: &'a Session, id: &'a str) -> Fut<'a, ()> {
        Box::pin(async move {
            let path = format!("/envelopes/{}/abort-status", seg(id));
            self.client
                .request(Method::PUT, &path, &headers(s, true), json_body(&serde_json::json!({})), true)
                .await
                .map(|_| ())
                .map_err(ProviderError::from)
        })
    }

    fn signed_pdf<'a>(&'a self, s: &'a Session, id: &'a str, doc: &'a str, uploaded: &'a str) -> Fut<'a, Vec<u8>> {
        Box::pin(async move {
            let path = format!("/envelopes/{}/documents/{}/files", seg(id), seg(doc));
            #[derive(Deserialize)]
            struct File {
                #[serde(default)]
                id: String,
                #[serde(default)]
                url: String,
            }
            let files: Vec<File> = parse(&self.client.request(Method::GET, &path, &headers(s, true), None, true).await?)?;
            // The signed file is the one the provider added beside ours (the last such).
            let signed = files.iter().rev().find(|f| f.id != uploaded && !f.url.is_empty()).ok_or(ProviderError::BadAnswer)?;
            if !(signed.url.starts_with("https://") || signed.url.starts_with("http://127.0.0.1")) {
                return Err(ProviderError::BadAnswer);
            }
            let pdf = self.client.request(Method::GET, &signed.url, &[], None, true).await?.body;
            if pdf.starts_with(b"%PDF-") {
                Ok(pdf)
            } else {
                Err(ProviderError::BadAnswer)
            }
        })
    }
}

/// When a token runs out: the `exp` of its JWT payload (read, not verified:
/// the provider checks it), else `fallback` seconds from now.
pub fn token_expiry(token: &str, now: chrono::DateTime<chrono::Utc>, fallback: i64) -> chrono::DateTime<chrono::Utc> {
    use base64::Engine;
    let exp = token
        .split('.')
        .nth(1)
        .and_then(|p| base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(p.trim_end_matches('=')).ok())
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|v| v["exp"].as_i64())
        .and_then(|e| chrono::DateTime::from_timestamp(e, 0));
    exp.unwrap_or(now + chrono::Duration::seconds(fallback))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mapping_uses_the_values_the_description_lists() {
        assert_eq!((language("nb"), language("en"), language("sv")), ("nb-NO", "sv-SE", "sv-SE"));
        assert_eq!(
            (signing_method("bankid_se"), signing_method("touch_sign"), signing_method("email")),
            ("bankid-se", "touch-sign", "email")
        );
        assert_eq!(names("Anna Maria Berg"), ("Anna Maria".into(), "Berg".into()));
        assert_eq!(names("Cher"), ("Cher".into(), "Cher".into()));
        let flags = |c, a, e| EnvelopeFlags { published: true, completed: c, aborted: a, trashed: false, expired: e };
        assert_eq!((flags(false, false, false).state(), flags(true, false, false).state()), ("sent", "completed"));
        assert_eq!((flags(false, true, false).state(), flags(false, false, true).state()), ("cancelled", "expired"));
    }

    #[test]
    fn the_expiry_is_read_from_the_token() {
        use base64::Engine;
        let now = chrono::Utc::now();
        let payload = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(br#"{"exp":2000000000}"#);
        assert_eq!(token_expiry(&format!("h.{payload}.s"), now, 60).timestamp(), 2_000_000_000);
        assert_eq!(token_expiry("opaque", now, 60), now + chrono::Duration::seconds(60));
    }
}

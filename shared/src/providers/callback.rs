//! The signing provider's callbacks: Verified sends its webhooks through
//! Amazon SNS, so `verified/callback/` receives SNS messages over HTTPS.
//! Each one is checked as AWS describes ("Verifying the signatures of
//! Amazon SNS messages"): the signing certificate is fetched over HTTPS only
//! from an Amazon SNS host (`sns.<region>.amazonaws.com`, path ending
//! `.pem`), must be valid for that host name, and its RSA key must verify
//! the signature (SignatureVersion 1: SHA1, 2: SHA256) over the message's
//! fields in the documented order. With a topic configured, a message from
//! another topic is refused. Anything else is refused.
//!
//! A `SubscriptionConfirmation` is confirmed by a GET of its `SubscribeURL`
//! (an SNS host too); a `Notification` only tells that an envelope changed:
//! its state is then read from the provider's API, never taken from the
//! message.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use base64::Engine;
use serde::Deserialize;

use super::http::{JsonClient, ProviderError};
use super::Fut;

/// An SNS message as posted to an HTTP(S) subscriber.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct SnsMessage {
    #[serde(rename = "Type")]
    pub kind: String,
    pub message_id: String,
    #[serde(default)]
    pub token: Option<String>,
    pub topic_arn: String,
    #[serde(default)]
    pub subject: Option<String>,
    pub message: String,
    pub timestamp: String,
    pub signature_version: String,
    pub signature: String,
    #[serde(rename = "SigningCertURL")]
    pub signing_cert_url: String,
    #[serde(rename = "SubscribeURL", default)]
    pub subscribe_url: Option<String>,
}

/// Why a callback is refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    Malformed,
    /// The certificate URL (or the subscribe URL) is not an Amazon SNS host.
    NotSns,
    /// Another topic than the configured one.
    WrongTopic,
    /// The certificate was not to be had, or is not SNS's.
    BadCertificate,
    BadSignature,
}

/// The host of an `https://` URL when it is an Amazon SNS endpoint
/// (`sns.<region>.amazonaws.com`, or `.amazonaws.com.cn`), without user info
/// or port.
pub fn sns_host(url: &str) -> Option<&str> {
    let rest = url.strip_prefix("https://")?;
    let host = rest.split(['/', '?', '#']).next()?;
    let region = host
        .strip_prefix("sns.")?
        .strip_suffix(".amazonaws.com")
        .or_else(|| host.strip_prefix("sns.")?.strip_suffix(".amazonaws.com.cn"))?;
    let region_ok =
        !region.is_empty() && region.len() <= 30 && region.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    region_ok.then_some(host)
}

/// Whether `url` may be the signing certificate: an SNS host, a `.pem` path.
pub fn cert_url_ok(url: &str) -> bool {
    sns_host(url).is_some() && url.split(['?', '#']).next().is_some_and(|p| p.ends_with(".pem"))
}

/// The text SNS signs: the named fields, each as `name\nvalue\n`, in the
/// documented order (`Subject` only when the message has one).
pub fn string_to_sign(m: &SnsMessage) -> Result<String, Refused> {
    let mut out = String::new();
    let mut add = |k: &str, v: &str| {
        out.push_str(k);
        out.push('\n');
        out.push_str(v);
        out.push('\n');
    };
    match m.kind.as_str() {
        "Notification" => {
            add("Message", &m.message);
            add("MessageId", &m.message_id);
            if let Some(s) = &m.subject {
                add("Subject", s);
            }
            add("Timestamp", &m.timestamp);
            add("TopicArn", &m.topic_arn);
            add("Type", &m.kind);
        }
        "SubscriptionConfirmation" | "UnsubscribeConfirmation" => {
            let (Some(url), Some(token)) = (&m.subscribe_url, &m.token) else { return Err(Refused::Malformed) };
            add("Message", &m.message);
            add("MessageId", &m.message_id);
            add("SubscribeURL", url);
            add("Timestamp", &m.timestamp);
            add("Token", token);
            add("TopicArn", &m.topic_arn);
            add("Type", &m.kind);
        }
        _ => return Err(Refused::Malformed),
    }
    Ok(out)
}

/// Checks `m`'s signature with the PEM certificate fetched from its
/// `SigningCertURL` (which must be valid for that SNS host).
pub fn verify_with_cert(m: &SnsMessage, cert_pem: &[u8]) -> Result<(), Refused> {
    use aws_lc_rs::signature::{self, UnparsedPublicKey};
    use rustls_pki_types::pem::PemObject;
    use rustls_pki_types::{CertificateDer, ServerName};
    let host = sns_host(&m.signing_cert_url).ok_or(Refused::NotSns)?;
    let der = CertificateDer::from_pem_slice(cert_pem).map_err(|_| Refused::BadCertificate)?;
    let cert = webpki::EndEntityCert::try_from(&der).map_err(|_| Refused::BadCertificate)?;
    let name = ServerName::try_from(host).map_err(|_| Refused::NotSns)?;
    cert.verify_is_valid_for_subject_name(&name).map_err(|_| Refused::BadCertificate)?;
    let alg: &'static signature::RsaParameters = match m.signature_version.as_str() {
        "1" => &signature::RSA_PKCS1_2048_8192_SHA1_FOR_LEGACY_USE_ONLY,
        "2" => &signature::RSA_PKCS1_2048_8192_SHA256,
        _ => return Err(Refused::Malformed),
    };
    let sig = base64::engine::general_purpose::STANDARD.decode(m.signature.trim()).map_err(|_| Refused::Malformed)?;
    let spki = cert.subject_public_key_info();
    UnparsedPublicKey::new(alg, spki.as_ref()).verify(string_to_sign(m)?.as_bytes(), &sig).map_err(|_| Refused::BadSignature)
}

/// Where signing certificates come from.
pub trait CertSource: Send + Sync {
    /// The PEM at `url` (already checked to be an SNS certificate URL).
    fn pem<'a>(&'a self, url: &'a str) -> Fut<'a, Vec<u8>>;
    /// A GET of a subscription's `SubscribeURL` (already checked to be an SNS host).
    fn confirm<'a>(&'a self, url: &'a str) -> Fut<'a, ()>;
}

/// Certificates fetched over HTTPS and kept per URL for the process's life
/// (SNS rotates them under new URLs).
pub struct HttpsCerts {
    client: JsonClient,
    cache: Mutex<HashMap<String, Vec<u8>>>,
}

impl HttpsCerts {
    pub fn new(limits: super::http::Limits) -> Self {
        HttpsCerts { client: JsonClient::new("https://sns.invalid", "", limits), cache: Mutex::default() }
    }
}

/// At most this many certificates are kept (a flood of URLs cannot grow it).
const MAX_CACHED: usize = 16;

impl CertSource for HttpsCerts {
    fn pem<'a>(&'a self, url: &'a str) -> Fut<'a, Vec<u8>> {
        Box::pin(async move {
            if let Some(p) = self.cache.lock().unwrap_or_else(|e| e.into_inner()).get(url) {
                return Ok(p.clone());
            }
            let pem = self.client.request(hyper::Method::GET, url, &[], None, true).await?.body;
            if pem.len() > 16 * 1024 {
                return Err(ProviderError::BadAnswer);
            }
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            if cache.len() >= MAX_CACHED {
                cache.clear();
            }
            cache.insert(url.to_string(), pem.clone());
            Ok(pem)
        })
    }

    fn confirm<'a>(&'a self, url: &'a str) -> Fut<'a, ()> {
        Box::pin(
            async move { self.client.request(hyper::Method::GET, url, &[], None, true).await.map(|_| ()).map_err(ProviderError::from) },
        )
    }
}

/// The callback's checks: what a verified message is and where its
/// certificates come from.
#[derive(Clone)]
pub struct SnsVerifier {
    pub certs: Arc<dyn CertSource>,
    /// The topic Verified publishes the company's webhooks to (none: any topic).
    pub topic_arn: Option<String>,
}

impl SnsVerifier {
    /// Parses and verifies `body`: the message when it is SNS's.
    pub async fn verify(&self, body: &[u8]) -> Result<SnsMessage, Refused> {
        let m: SnsMessage = serde_json::from_slice(body).map_err(|_| Refused::Malformed)?;
        if !cert_url_ok(&m.signing_cert_url) {
            return Err(Refused::NotSns);
        }
        if self.topic_arn.as_deref().is_some_and(|t| t != m.topic_arn) {
            return Err(Refused::WrongTopic);
        }
        string_to_sign(&m)?;
        let pem = self.certs.pem(&m.signing_cert_url).await.map_err(|_| Refused::BadCertificate)?;
        verify_with_cert(&m, &pem)?;
        Ok(m)
    }
}

#[cfg(any(test, feature = "testkit"))]
pub mod test_signer {
    //! A test certificate for `sns.eu-north-1.amazonaws.com` (self-signed,
    //! made for these tests only) and messages signed with its key.
    use super::*;

    pub const CERT_URL: &str = "https://sns.eu-north-1.amazonaws.com/SimpleNotificationService-test.pem";
    pub const CERT_PEM: &[u8] = include_bytes!("testdata/sns-test-cert.pem");
    const KEY_PKCS8: &[u8] = include_bytes!("testdata/sns-test-key.pk8");

    /// Serves [`CERT_PEM`] for [`CERT_URL`] and records confirmations ([`confirmed`]).
    #[derive(Default)]
    pub struct TestCerts;

    static CONFIRMED: Mutex<Vec<String>> = Mutex::new(Vec::new());

    /// The SubscribeURLs confirmed so far (by any test of the process).
    pub fn confirmed() -> Vec<String> {
        CONFIRMED.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    impl CertSource for TestCerts {
        fn pem<'a>(&'a self, url: &'a str) -> Fut<'a, Vec<u8>> {
            Box::pin(async move {
                if url == CERT_URL {
                    Ok(CERT_PEM.to_vec())
                } else {
                    Err(ProviderError::Refused(404))
                }
            })
        }
        fn confirm<'a>(&'a self, url: &'a str) -> Fut<'a, ()> {
            Box::pin(async move {
                CONFIRMED.lock().unwrap_or_else(|e| e.into_inner()).push(url.to_string());
                Ok(())
            })
        }
    }

    /// A `Notification` of `message` on `topic`, signed (SignatureVersion 2).
    pub fn notification(topic: &str, message: &str) -> serde_json::Value {
        sign(serde_json::json!({
            "Type": "Notification",
            "MessageId": uuid::Uuid::new_v4().to_string(),
            "TopicArn": topic,
            "Message": message,
            "Timestamp": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            "SignatureVersion": "2",
            "SigningCertURL": CERT_URL,
        }))
    }

    /// A `SubscriptionConfirmation` for `topic`, signed.
    pub fn subscription(topic: &str) -> serde_json::Value {
        let token = uuid::Uuid::new_v4().simple().to_string();
        sign(serde_json::json!({
            "Type": "SubscriptionConfirmation",
            "MessageId": uuid::Uuid::new_v4().to_string(),
            "Token": token,
            "TopicArn": topic,
            "Message": "You have chosen to subscribe to the topic.",
            "SubscribeURL": format!("https://sns.eu-north-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn={topic}&Token={token}"),
            "Timestamp": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            "SignatureVersion": "2",
            "SigningCertURL": CERT_URL,
        }))
    }

    /// `m` with its `Signature` (RSA-SHA256 over the string to sign).
    pub fn sign(mut m: serde_json::Value) -> serde_json::Value {
        use aws_lc_rs::signature::{RsaKeyPair, RSA_PKCS1_SHA256};
        let parsed: SnsMessage = serde_json::from_value({
            let mut v = m.clone();
            v["Signature"] = "".into();
            v
        })
        .expect("an SNS message");
        let text = string_to_sign(&parsed).expect("signable");
        let key = RsaKeyPair::from_pkcs8(KEY_PKCS8).expect("the test key");
        let mut sig = vec![0; key.public_modulus_len()];
        key.sign(&RSA_PKCS1_SHA256, &aws_lc_rs::rand::SystemRandom::new(), text.as_bytes(), &mut sig).expect("signed");
        m["Signature"] = base64::engine::general_purpose::STANDARD.encode(sig).into();
        m
    }
}

#[cfg(test)]
mod tests {
    use super::test_signer::*;
    use super::*;

    fn verifier(topic: Option<&str>) -> SnsVerifier {
        SnsVerifier { certs: Arc::new(TestCerts), topic_arn: topic.map(str::to_string) }
    }

    const TOPIC: &str = "arn:aws:sns:eu-north-1:123456789012:verified-company";

    #[test]
    fn only_sns_hosts_serve_certificates() {
        assert!(cert_url_ok("https://sns.eu-north-1.amazonaws.com/SimpleNotificationService-abc.pem"));
        assert!(cert_url_ok("https://sns.cn-north-1.amazonaws.com.cn/x.pem"));
        for bad in [
            "http://sns.eu-north-1.amazonaws.com/x.pem",
            "https://sns.eu-north-1.amazonaws.com.evil.example/x.pem",
            "https://evil.example/sns.eu-north-1.amazonaws.com/x.pem",
            "https://sns.eu-north-1.amazonaws.com@evil.example/x.pem",
            "https://sns.eu-north-1.amazonaws.com:8443/x.pem",
            "https://sns.eu-north-1.amazonaws.com/x.txt",
            "https://s3.eu-north-1.amazonaws.com/x.pem",
            "https://sns..amazonaws.com/x.pem",
        ] {
            assert!(!cert_url_ok(bad), "{bad}");
        }
    }

    #[tokio::test]
    async fn a_signed_message_passes_and_any_change_is_refused() {
        let v = verifier(Some(TOPIC));
        let good = notification(TOPIC, r#"{"envelope":"abc"}"#);
        let m = v.verify(good.to_string().as_bytes()).await.unwrap();
        assert_eq!(m.message, r#"{"envelope":"abc"}"#);
        let mut changed = good.clone();
        changed["Message"] = r#"{"envelope":"other"}"#.into();
        assert_eq!(v.verify(changed.to_string().as_bytes()).await.unwrap_err(), Refused::BadSignature);
        let mut v1 = good.clone();
        v1["SignatureVersion"] = "1".into();
        assert_eq!(v.verify(v1.to_string().as_bytes()).await.unwrap_err(), Refused::BadSignature);
        let mut elsewhere = good.clone();
        elsewhere["SigningCertURL"] = "https://evil.example/cert.pem".into();
        assert_eq!(v.verify(elsewhere.to_string().as_bytes()).await.unwrap_err(), Refused::NotSns);
        // Another SNS host's certificate URL: the test certificate is not valid for it.
        let mut other_region = good.clone();
        other_region["SigningCertURL"] = "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-test.pem".into();
        assert_eq!(v.verify(other_region.to_string().as_bytes()).await.unwrap_err(), Refused::BadCertificate);
        let other_topic = notification("arn:aws:sns:eu-north-1:123456789012:other", "{}");
        assert_eq!(v.verify(other_topic.to_string().as_bytes()).await.unwrap_err(), Refused::WrongTopic);
        assert!(verifier(None).verify(other_topic.to_string().as_bytes()).await.is_ok());
        assert_eq!(v.verify(b"{\"Type\":\"Notification\"}").await.unwrap_err(), Refused::Malformed);
        let mut unknown = good.clone();
        unknown["Type"] = "Other".into();
        assert_eq!(v.verify(unknown.to_string().as_bytes()).await.unwrap_err(), Refused::Malformed);
        let sub = subscription(TOPIC);
        assert_eq!(v.verify(sub.to_string().as_bytes()).await.unwrap().kind, "SubscriptionConfirmation");
    }

    #[test]
    fn a_signature_version_1_message_is_checked_with_sha1() {
        // Signed once with `openssl dgst -sha1 -sign` over the string to sign.
        let m: SnsMessage = serde_json::from_str(include_str!("testdata/sns-v1-notification.json")).unwrap();
        assert_eq!(verify_with_cert(&m, CERT_PEM), Ok(()));
        let mut changed = m.clone();
        changed.message_id = "other".into();
        assert_eq!(verify_with_cert(&changed, CERT_PEM), Err(Refused::BadSignature));
    }
}

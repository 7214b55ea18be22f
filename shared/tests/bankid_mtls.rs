//! The BankID client's mutual TLS, over a real handshake: a local TLS
//! server that asks for a client certificate signed by the relying-party
//! CA it trusts (as BankID's servers do), and the client configured the way
//! production configures it (`Identity`: the relying party's certificate
//! and key, BankID's CA as the only trusted root). The certificates are made
//! here. The handshake succeeds with the right certificate and the call
//! reaches `/rp/v6.0/auth`; it fails without a client certificate, with one
//! of another CA, and when the client trusts another CA than the server's.

use std::sync::Arc;
use std::time::Duration;

use rcgen::{BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair, KeyUsagePurpose};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use shared::providers::bankid::{BankId, BankIdError, Identity, RpApi};
use shared::providers::http::{JsonClient, Limits, ProviderError};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;

/// A certificate authority made for the test.
struct Ca {
    pem: String,
    issuer: Issuer<'static, KeyPair>,
}

fn ca(name: &str) -> Ca {
    let key = KeyPair::generate().unwrap();
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.distinguished_name.push(DnType::CommonName, name);
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign, KeyUsagePurpose::DigitalSignature];
    let cert = params.self_signed(&key).unwrap();
    Ca { pem: cert.pem(), issuer: Issuer::new(params, key) }
}

/// A certificate signed by `ca`, with its key (PEM): a server's for
/// 127.0.0.1, or a client's (the relying party's).
fn leaf(ca: &Ca, name: &str, server: bool) -> (String, String) {
    let key = KeyPair::generate().unwrap();
    let names = if server { vec!["127.0.0.1".to_string()] } else { Vec::new() };
    let mut params = CertificateParams::new(names).unwrap();
    params.distinguished_name.push(DnType::CommonName, name);
    params.extended_key_usages = vec![if server { ExtendedKeyUsagePurpose::ServerAuth } else { ExtendedKeyUsagePurpose::ClientAuth }];
    let cert = params.signed_by(&key, &ca.issuer).unwrap();
    (cert.pem(), key.serialize_pem())
}

fn der(pem: &str) -> CertificateDer<'static> {
    CertificateDer::from_pem_slice(pem.as_bytes()).unwrap()
}

/// What the server saw of one connection: the client's certificate after
/// a completed handshake (and the request's first line), or the TLS error.
type Seen = Result<(Option<CertificateDer<'static>>, String), rustls::Error>;

/// A TLS server on a free port that requires a client certificate signed
/// by `client_ca` and answers every request with an `auth` answer.
async fn server(server_ca: &Ca, client_ca: &Ca) -> (String, mpsc::UnboundedReceiver<Seen>) {
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let mut trusted = rustls::RootCertStore::empty();
    trusted.add(der(&client_ca.pem)).unwrap();
    let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(Arc::new(trusted), provider.clone()).build().unwrap();
    let (cert, key) = leaf(server_ca, "appapi2.test.bankid.com", true);
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_client_cert_verifier(verifier)
        .with_single_cert(vec![der(&cert)], PrivateKeyDer::from_pem_slice(key.as_bytes()).unwrap())
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("https://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        loop {
            let Ok((tcp, _)) = listener.accept().await else { return };
            let (acceptor, tx) = (acceptor.clone(), tx.clone());
            tokio::spawn(async move {
                let mut tls = match acceptor.accept(tcp).await {
                    Ok(t) => t,
                    Err(e) => {
                        let tls_error = e.get_ref().and_then(|i| i.downcast_ref::<rustls::Error>()).cloned();
                        let _ = tx.send(Err(tls_error.unwrap_or_else(|| rustls::Error::General(e.to_string()))));
                        return;
                    }
                };
                let peer = tls.get_ref().1.peer_certificates().and_then(|c| c.first()).map(|c| c.clone().into_owned());
                // The request: headers, then the body its length names.
                let mut request = Vec::new();
                let mut buf = [0u8; 4096];
                loop {
                    let n = tls.read(&mut buf).await.unwrap_or(0);
                    if n == 0 {
                        break;
                    }
                    request.extend_from_slice(&buf[..n]);
                    let text = String::from_utf8_lossy(&request).to_string();
                    if let Some(end) = text.find("\r\n\r\n") {
                        let length = text[..end]
                            .lines()
                            .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse().unwrap_or(0)))
                            .unwrap_or(0usize);
                        if request.len() >= end + 4 + length {
                            break;
                        }
                    }
                }
                let first_line = String::from_utf8_lossy(&request).lines().next().unwrap_or_default().to_string();
                let body = r#"{"orderRef":"131daac9-16c6-4618-beb0-365768f37288","autoStartToken":"7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6","qrStartToken":"67df3917-fa0d-44e5-b327-edcc928297f8","qrStartSecret":"d28db9a7-4cde-429e-a983-359be676944c"}"#;
                let answer = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = tls.write_all(answer.as_bytes()).await;
                let _ = tls.shutdown().await;
                let _ = tx.send(Ok((peer, first_line)));
            });
        }
    });
    (base, rx)
}

fn limits() -> Limits {
    Limits { timeout: Duration::from_secs(10), attempts: 1, backoff: Duration::from_millis(10) }
}

async fn seen(rx: &mut mpsc::UnboundedReceiver<Seen>) -> Seen {
    tokio::time::timeout(Duration::from_secs(10), rx.recv()).await.expect("the server saw the connection").unwrap()
}

#[tokio::test]
async fn the_handshake_succeeds_with_the_relying_partys_certificate_and_bankids_ca() {
    let (bankid_ca, rp_ca) = (ca("Test BankID SSL Root CA"), ca("Test BankID RP CA"));
    let (base, mut rx) = server(&bankid_ca, &rp_ca).await;
    let (certificate, key) = leaf(&rp_ca, "Testbolaget AB (relying party)", false);
    let identity = Identity { certificate: certificate.clone(), key, ca: bankid_ca.pem.clone() };
    let api = RpApi::new(&base, limits(), Some(&identity)).unwrap();
    let started = api.auth("192.0.2.10", "").await.unwrap();
    assert_eq!(started.order_ref, "131daac9-16c6-4618-beb0-365768f37288");
    let (peer, line) = seen(&mut rx).await.unwrap();
    assert_eq!(peer, Some(der(&certificate)), "the server was shown the relying party's certificate");
    assert!(line.starts_with("POST /rp/v6.0/auth "), "{line}");
}

#[tokio::test]
async fn the_handshake_fails_without_a_client_certificate() {
    let (bankid_ca, rp_ca) = (ca("Test BankID SSL Root CA"), ca("Test BankID RP CA"));
    let (base, mut rx) = server(&bankid_ca, &rp_ca).await;
    // The same trust, no certificate of the client's.
    let mut roots = rustls::RootCertStore::empty();
    roots.add(der(&bankid_ca.pem)).unwrap();
    let config = rustls::ClientConfig::builder_with_provider(rustls::crypto::aws_lc_rs::default_provider().into())
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let client = JsonClient::with_tls(&base, limits(), config);
    let body = Some(("application/json", bytes::Bytes::from_static(br#"{"endUserIp":"192.0.2.10"}"#)));
    let answer = client.request(hyper::Method::POST, "/rp/v6.0/auth", &[], body, false).await;
    assert_eq!(answer.err().map(|f| f.error), Some(ProviderError::Unavailable));
    assert_eq!(seen(&mut rx).await.err(), Some(rustls::Error::NoCertificatesPresented));
}

#[tokio::test]
async fn the_handshake_fails_with_a_certificate_of_another_ca() {
    let (bankid_ca, rp_ca, stranger) = (ca("Test BankID SSL Root CA"), ca("Test BankID RP CA"), ca("Someone Else's CA"));
    let (base, mut rx) = server(&bankid_ca, &rp_ca).await;
    let (certificate, key) = leaf(&stranger, "Testbolaget AB (relying party)", false);
    let api = RpApi::new(&base, limits(), Some(&Identity { certificate, key, ca: bankid_ca.pem.clone() })).unwrap();
    assert_eq!(api.auth("192.0.2.10", "").await.err(), Some(BankIdError::Call(ProviderError::Unavailable)));
    assert_eq!(
        seen(&mut rx).await.err(),
        Some(rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer)),
        "the server refused the client's certificate"
    );
}

#[tokio::test]
async fn the_client_refuses_a_server_that_bankids_ca_did_not_sign() {
    let (bankid_ca, rp_ca, other) = (ca("Test BankID SSL Root CA"), ca("Test BankID RP CA"), ca("Another Root CA"));
    // The server's certificate is another CA's; the client trusts BankID's only.
    let (base, mut rx) = server(&other, &rp_ca).await;
    let (certificate, key) = leaf(&rp_ca, "Testbolaget AB (relying party)", false);
    let api = RpApi::new(&base, limits(), Some(&Identity { certificate, key, ca: bankid_ca.pem.clone() })).unwrap();
    assert_eq!(api.auth("192.0.2.10", "").await.err(), Some(BankIdError::Call(ProviderError::Unavailable)));
    let refused = seen(&mut rx).await.err();
    assert!(
        matches!(refused, Some(rustls::Error::AlertReceived(rustls::AlertDescription::UnknownCA))),
        "the client broke off the handshake: {refused:?}"
    );
}

//! AWS SDK configuration: the same code on Lambda and locally; locally every
//! client gets the stand-in's endpoint (`AWS_ENDPOINT_URL`).

use aws_config::{BehaviorVersion, Region, SdkConfig};
use aws_sdk_dynamodb::config::SharedHttpClient;
use aws_smithy_http_client::tls::{self, rustls_provider::CryptoMode, TlsContext, TrustStore};

/// The roots AWS endpoints' certificates chain to (Amazon Trust Services'
/// five, as its repository recommends for a custom trust store).
///
/// Why not the system's store: the SDK's default client reads every system
/// root certificate when a function starts (on this machine the bundle and
/// 146 files of /etc/ssl/certs: about 4 ms of an 8 ms cold start), although
/// the clients only ever speak to AWS. Parsing these five costs microseconds.
const AMAZON_TRUST_SERVICES_ROOTS: &str = include_str!("../certs/amazon-trust-services-roots.pem");

/// Extra roots from the file `AWS_CA_BUNDLE` names (the variable the AWS CLI
/// and SDKs read), for an endpoint whose certificate does not chain to
/// Amazon's roots (a proxy that re-signs TLS, say). The file is taken only
/// when every certificate in it is one rustls accepts as a root, because the
/// SDK's client would panic on the first request over a bad one; otherwise
/// it is reported and left out.
fn extra_roots(path: Option<String>) -> Option<Vec<u8>> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::CertificateDer;
    let path = path.filter(|p| !p.trim().is_empty())?;
    let pem = std::fs::read(&path).map_err(|e| tracing::warn!(path = %path, error = %e, "AWS_CA_BUNDLE left out")).ok()?;
    let certs = CertificateDer::pem_slice_iter(&pem).collect::<Result<Vec<_>, _>>().unwrap_or_default();
    let mut store = rustls::RootCertStore::empty();
    let all_roots = !certs.is_empty() && certs.into_iter().all(|c| store.add(c).is_ok());
    if !all_roots {
        tracing::warn!(path = %path, "AWS_CA_BUNDLE left out: not a PEM file of root certificates");
        return None;
    }
    Some(pem)
}

/// The HTTPS client the SDK clients of a tokio runtime share (rustls with
/// aws-lc, as the SDK's default), trusting [`AMAZON_TRUST_SERVICES_ROOTS`]
/// and those of `AWS_CA_BUNDLE`, if any. Made once per runtime: each SDK
/// client otherwise builds its own TLS settings (the roots parsed again) for
/// every configuration made, and tests make one for every service context.
///
/// Not once per process: a kept-alive connection runs as a task of the
/// runtime that opened it, so a request another runtime sends over it fails
/// ("runtime dropped the dispatch task") when that runtime ends meanwhile.
/// Tests run side by side, each on a runtime of its own, and a Lambda
/// function reads its secrets on small runtimes of their own (`config`,
/// `providers`). A function and the local gateway serve on one runtime, so
/// all their clients share one pool of connections.
fn https_client() -> SharedHttpClient {
    static CLIENTS: RuntimeKept<SharedHttpClient> = std::sync::Mutex::new(Vec::new());
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) => kept_for(&CLIENTS, runtime.id(), new_https_client),
        Err(_) => new_https_client(),
    }
}

/// What was made for each of the runtimes seen last (tests make hundreds,
/// one after another, each gone with its test).
type RuntimeKept<T> = std::sync::Mutex<Vec<(tokio::runtime::Id, T)>>;
const RUNTIMES_KEPT: usize = 16;

/// The value kept for `runtime`, made with `make` the first time.
fn kept_for<T: Clone>(kept: &RuntimeKept<T>, runtime: tokio::runtime::Id, make: impl FnOnce() -> T) -> T {
    let mut kept = kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, value)) = kept.iter().find(|(id, _)| *id == runtime) {
        return value.clone();
    }
    if kept.len() >= RUNTIMES_KEPT {
        kept.remove(0);
    }
    let value = make();
    kept.push((runtime, value.clone()));
    value
}

fn new_https_client() -> SharedHttpClient {
    match tls_context(extra_roots(std::env::var("AWS_CA_BUNDLE").ok())) {
        Ok(ctx) => {
            aws_smithy_http_client::Builder::new().tls_provider(tls::Provider::Rustls(CryptoMode::AwsLc)).tls_context(ctx).build_https()
        }
        // Not reached (the roots are compiled in and checked by a test);
        // the SDK's default client still works, only slower to start.
        Err(e) => {
            tracing::warn!(error = %e, "AWS clients with the system's root certificates");
            aws_smithy_http_client::Builder::new().tls_provider(tls::Provider::Rustls(CryptoMode::AwsLc)).build_https()
        }
    }
}

/// The TLS settings of [`https_client`]: Amazon's roots and `extra`, nothing of the system's.
fn tls_context(extra: Option<Vec<u8>>) -> Result<TlsContext, aws_smithy_http_client::HttpClientError> {
    let mut trust = TrustStore::empty().with_native_roots(false).with_pem_certificate(AMAZON_TRUST_SERVICES_ROOTS.as_bytes());
    if let Some(extra) = extra {
        trust = trust.with_pem_certificate(extra);
    }
    TlsContext::builder().with_trust_store(trust).build()
}

/// The SDK configuration for `region`, and the stand-in's endpoint when one
/// is given (locally; on AWS none).
pub async fn sdk_config(region: &str, endpoint_url: Option<&str>) -> SdkConfig {
    let mut loader = aws_config::defaults(BehaviorVersion::latest()).region(Region::new(region.to_string())).http_client(https_client());
    if let Some(url) = endpoint_url {
        loader = loader.endpoint_url(url);
    }
    loader.load().await
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::CertificateDer;
    use sha2::{Digest, Sha256};

    /// One HTTPS client per runtime: the same for every configuration a
    /// runtime makes, another for another runtime (a kept-alive connection
    /// belongs to the runtime that opened it).
    #[test]
    fn one_client_is_kept_per_runtime() {
        let kept: RuntimeKept<usize> = std::sync::Mutex::new(Vec::new());
        let made = std::sync::atomic::AtomicUsize::new(0);
        let make = || made.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let runtime = || tokio::runtime::Builder::new_current_thread().build().unwrap();
        let (a, b) = (runtime(), runtime());
        let in_a = kept_for(&kept, a.handle().id(), make);
        assert_eq!(kept_for(&kept, a.handle().id(), make), in_a, "a second configuration of the runtime");
        let in_b = kept_for(&kept, b.handle().id(), make);
        assert_ne!(in_b, in_a, "another runtime");
        assert_eq!(kept_for(&kept, a.handle().id(), make), in_a);
        // The oldest runtimes' are let go once more have come.
        for _ in 0..RUNTIMES_KEPT {
            kept_for(&kept, runtime().handle().id(), make);
        }
        assert_ne!(kept_for(&kept, a.handle().id(), make), in_a, "a runtime not seen for long gets a new one");
        assert_eq!(kept.lock().unwrap().len(), RUNTIMES_KEPT);
    }

    /// Amazon Trust Services' published SHA-256 of each root's public key
    /// (https://www.amazontrust.com/repository/).
    const PUBLISHED_SPKI_SHA256: [&str; 5] = [
        "fbe3018031f9586bcbf41727e417b7d1c45c2f47f93be372a17b96b50757d5a2", // Amazon Root CA 1
        "7f4296fc5b6a4e3b35d3c369623e364ab1af381d8fa7121533c9d6c633ea2461", // Amazon Root CA 2
        "36abc32656acfc645c61b71613c4bf21c787f5cabbee48348d58597803d7abc9", // Amazon Root CA 3
        "f7ecded5c66047d28ed6466b543c40e0743abe81d109254dcf845d4c2c7853c5", // Amazon Root CA 4
        "2b071c59a0a0ae76b0eadb2bad23bad4580b69c3601b630c2eaf0613afa83f92", // Starfield Services Root CA - G2
    ];

    /// One DER element at the start of `der`: (its whole encoding, its content).
    fn element(der: &[u8]) -> (&[u8], &[u8]) {
        let (len, head) = match der[1] {
            n if n < 0x80 => (n as usize, 2),
            n => {
                let k = (n & 0x7f) as usize;
                (der[2..2 + k].iter().fold(0usize, |a, b| a << 8 | *b as usize), 2 + k)
            }
        };
        (&der[..head + len], &der[head..head + len])
    }

    /// The certificate's SubjectPublicKeyInfo (RFC 5280: the seventh field of
    /// tbsCertificate, counting the explicit version).
    fn spki(cert: &[u8]) -> &[u8] {
        let (_, certificate) = element(cert);
        let (_, mut tbs) = element(certificate);
        for _ in 0..6 {
            let (field, _) = element(tbs);
            tbs = &tbs[field.len()..];
        }
        element(tbs).0
    }

    #[test]
    fn the_aws_clients_trust_exactly_amazon_trust_services_published_roots() {
        // Parsed as the SDK's client parses its trust store (comments between
        // the certificates are skipped), each one a valid root for rustls.
        let certs: Vec<CertificateDer> =
            CertificateDer::pem_slice_iter(AMAZON_TRUST_SERVICES_ROOTS.as_bytes()).collect::<Result<_, _>>().unwrap();
        let mut store = rustls::RootCertStore::empty();
        for cert in &certs {
            store.add(cert.clone()).unwrap();
        }
        let hashes: Vec<String> = certs.iter().map(|c| Sha256::digest(spki(c)).iter().map(|b| format!("{b:02x}")).collect()).collect();
        assert_eq!(hashes, PUBLISHED_SPKI_SHA256);
        assert_eq!(store.len(), 5);
    }

    #[test]
    fn an_extra_bundle_is_taken_only_when_it_holds_root_certificates_alone() {
        let dir = std::env::temp_dir().join(format!("aws-ca-bundle-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.pem");
        std::fs::write(&good, AMAZON_TRUST_SERVICES_ROOTS).unwrap();
        let bad = dir.join("bad.pem");
        std::fs::write(&bad, format!("{AMAZON_TRUST_SERVICES_ROOTS}-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"))
            .unwrap();
        let empty = dir.join("empty.pem");
        std::fs::write(&empty, "no certificates here\n").unwrap();
        let path = |p: &std::path::Path| Some(p.to_string_lossy().to_string());
        assert_eq!(extra_roots(path(&good)).as_deref(), Some(AMAZON_TRUST_SERVICES_ROOTS.as_bytes()));
        assert_eq!(extra_roots(path(&bad)), None);
        assert_eq!(extra_roots(path(&empty)), None);
        assert_eq!(extra_roots(path(&dir.join("missing.pem"))), None);
        assert_eq!(extra_roots(Some(" ".into())), None);
        assert_eq!(extra_roots(None), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_compiled_in_roots_make_the_tls_settings_so_the_system_store_is_never_the_fallback() {
        assert!(tls_context(None).is_ok());
        let extra = AMAZON_TRUST_SERVICES_ROOTS.as_bytes().to_vec();
        assert!(tls_context(Some(extra)).is_ok(), "an AWS_CA_BUNDLE of roots is added");
    }

    #[tokio::test]
    async fn the_sdk_configuration_has_the_region_and_the_stand_ins_endpoint() {
        let sdk = sdk_config("eu-north-1", Some("http://127.0.0.1:1")).await;
        assert_eq!(sdk.region().map(|r| r.as_ref()), Some("eu-north-1"));
        assert_eq!(sdk.endpoint_url(), Some("http://127.0.0.1:1"));
    }
}

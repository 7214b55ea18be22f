//! Configuration, read once from the environment at cold start.
//!
//! The only difference between AWS and the local stand-in is `AWS_ENDPOINT_URL`
//! (and `LOCAL_OUTBOX`); every client is built from this one struct.
//!
//! The JWT key: on AWS the environment names the Secrets Manager secret
//! (`JWT_SECRET_ARN`, template.yaml), whose value is read once per process at
//! cold start and kept in memory, so it never sits in the function's
//! configuration; locally and in tests `JWT_SECRET` holds the key itself.

use std::env;
use std::sync::OnceLock;
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct Config {
    pub region: String,
    pub table_name: String,
    pub documents_bucket: String,
    pub ses_sender: String,
    pub jwt_secret: String,
    /// Public URL of the web app, used for links in mail.
    pub web_origin: String,
    /// Endpoint override for every AWS client (the local stand-in); `None` on AWS.
    pub endpoint_url: Option<String>,
    /// Keep a copy of every sent mail in memory and print it (local only).
    pub local_outbox: bool,
}

/// The time budgets of a request, each set in template.yaml (`Globals`)
/// and read here, so they add up: a provider call's attempts, timeouts and
/// back-off end before the request's deadline (then the caller gets
/// `provider_timeout`, not `request_timed_out`); the deadline ends before
/// the function's `Timeout` (the caller gets the API's 504, not Lambda's);
/// and that ends before API Gateway's 30 s. The defaults are the template's
/// values (a test holds them equal), so local runs keep the same budgets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// `REQUEST_DEADLINE_MS`: every request answers within this.
    pub request_deadline: Duration,
    /// `PROVIDERS_TIMEOUT_MS`: one attempt of a provider call.
    pub provider_timeout: Duration,
    /// `PROVIDERS_ATTEMPTS`: attempts of a retriable provider call.
    pub provider_attempts: u32,
    /// `PROVIDERS_BACKOFF_MS`: the pause before the second attempt, doubled after.
    pub provider_backoff: Duration,
}

impl Budgets {
    pub const DEFAULT: Budgets = Budgets {
        request_deadline: Duration::from_millis(9_500),
        provider_timeout: Duration::from_millis(2_000),
        provider_attempts: 3,
        provider_backoff: Duration::from_millis(200),
    };

    /// From the environment, read once per process.
    pub fn from_env() -> Budgets {
        static READ: OnceLock<Budgets> = OnceLock::new();
        *READ.get_or_init(|| Budgets::from_vars(|k| env::var(k).ok()))
    }

    /// The budgets from `lookup`; a missing or unreadable value keeps its default.
    pub fn from_vars(lookup: impl Fn(&str) -> Option<String>) -> Budgets {
        let ms = |k: &str, d: Duration| lookup(k).and_then(|v| v.trim().parse().ok()).map(Duration::from_millis).unwrap_or(d);
        let d = Budgets::DEFAULT;
        Budgets {
            request_deadline: ms("REQUEST_DEADLINE_MS", d.request_deadline),
            provider_timeout: ms("PROVIDERS_TIMEOUT_MS", d.provider_timeout),
            provider_attempts: lookup("PROVIDERS_ATTEMPTS")
                .and_then(|v| v.trim().parse().ok())
                .filter(|n| *n >= 1)
                .unwrap_or(d.provider_attempts),
            provider_backoff: ms("PROVIDERS_BACKOFF_MS", d.provider_backoff),
        }
    }

    /// The longest a provider call takes before it gives up: every attempt
    /// timing out, with the pauses between them.
    pub fn provider_worst_case(&self) -> Duration {
        let pauses: Duration = (1..self.provider_attempts).map(|n| self.provider_backoff * 2u32.saturating_pow(n - 1)).sum();
        self.provider_timeout * self.provider_attempts + pauses
    }

    /// How long a use case keeps retrying a write that lost a race (or met
    /// a transient store failure): 1.5 s before the request's deadline, the
    /// rest of the request's time for its answer. 8 s with the template's
    /// budgets; a longer deadline (the test runs' on a busy machine) gives
    /// the retries the same share of it.
    pub fn retries_deadline(&self) -> Duration {
        self.request_deadline.saturating_sub(Duration::from_millis(1_500))
    }
}

/// Shortest JWT secret accepted: HS256 needs at least 256 bits of key.
pub const MIN_JWT_SECRET_LEN: usize = 32;

/// JWT secrets that are written in this repository (tests, tools, and the
/// fixed secret `infra/dev.sh` used before it drew one per start): refused
/// outside loopback.
pub const KNOWN_DEVELOPMENT_SECRETS: &[&str] = &[
    "local-development-secret-not-for-production",
    "integration-test-secret-0123456789abcdef",
    "recount-only-no-tokens-are-issued-0123456789",
];

/// Whether `addr` (`host:port` or a bare host) is a loopback address or
/// `localhost`.
pub fn is_loopback_addr(addr: &str) -> bool {
    let host = match addr.strip_prefix('[') {
        // [::1]:3000
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None if addr.matches(':').count() > 1 => addr,
        None => addr.rsplit_once(':').map_or(addr, |(h, _)| h),
    };
    host.eq_ignore_ascii_case("localhost") || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

impl Config {
    pub fn from_env() -> Result<Self, String> {
        Self::from_vars(|k| env::var(k).ok())
    }

    /// [`Config::from_env`] with the variables from `lookup`.
    pub fn from_vars(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, String> {
        let var = |k: &str| lookup(k).filter(|v| !v.trim().is_empty());
        let need = |k: &str| var(k).ok_or_else(|| format!("missing environment variable {k}"));
        let region = var("AWS_REGION").or_else(|| var("AWS_DEFAULT_REGION")).unwrap_or_else(|| "eu-north-1".into());
        let endpoint_url = var("AWS_ENDPOINT_URL");
        let jwt_secret = match (var("JWT_SECRET"), var("JWT_SECRET_ARN")) {
            (Some(key), _) => key,
            (None, Some(arn)) => jwt_secret_from_secrets_manager(&region, endpoint_url.as_deref(), &arn)?,
            (None, None) => return Err("missing environment variable JWT_SECRET (or JWT_SECRET_ARN)".into()),
        };
        let cfg = Config {
            region,
            table_name: need("TABLE_NAME")?,
            documents_bucket: need("DOCUMENTS_BUCKET")?,
            ses_sender: need("SES_SENDER")?,
            jwt_secret,
            web_origin: var("WEB_ORIGIN").unwrap_or_else(|| "http://127.0.0.1:3000".into()),
            endpoint_url,
            local_outbox: var("LOCAL_OUTBOX").is_some_and(|v| v == "1" || v == "true"),
        };
        if cfg.jwt_secret.len() < MIN_JWT_SECRET_LEN {
            return Err(format!("JWT_SECRET must be at least {MIN_JWT_SECRET_LEN} characters"));
        }
        // A secret written in the repository lets anyone forge an admin
        // token: it may sign tokens only on this machine (tests, a local
        // gateway on loopback), never in Lambda or on another address.
        if KNOWN_DEVELOPMENT_SECRETS.contains(&cfg.jwt_secret.as_str()) {
            let in_lambda = var("AWS_LAMBDA_FUNCTION_NAME").is_some();
            let exposed = var("GATEWAY_ADDR").is_some_and(|addr| !is_loopback_addr(&addr));
            if in_lambda || exposed {
                return Err(
                    "JWT_SECRET is a development secret from the repository: set a secret of your own (at least 32 random characters)"
                        .into(),
                );
            }
        }
        Ok(cfg)
    }
}

/// The secret's value, read from Secrets Manager once per process (the cold
/// start) and kept: later configurations of the same process reuse it.
///
/// `from_env` is synchronous and runs inside the binaries' async `main`, so
/// the one call runs on a helper thread with its own small runtime.
fn jwt_secret_from_secrets_manager(region: &str, endpoint_url: Option<&str>, arn: &str) -> Result<String, String> {
    static KEPT: OnceLock<(String, String)> = OnceLock::new();
    if let Some((kept_arn, value)) = KEPT.get() {
        if kept_arn == arn {
            return Ok(value.clone());
        }
    }
    let value = std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
                rt.block_on(read_secret(region, endpoint_url, arn))
            })
            .join()
            .map_err(|_| "reading the JWT secret panicked".to_string())?
    })?;
    let _ = KEPT.set((arn.to_string(), value.clone()));
    Ok(value)
}

/// One `GetSecretValue` of the secret's current version.
pub async fn read_secret(region: &str, endpoint_url: Option<&str>, arn: &str) -> Result<String, String> {
    let client = aws_sdk_secretsmanager::Client::new(&crate::aws::sdk_config(region, endpoint_url).await);
    let out = client
        .get_secret_value()
        .secret_id(arn)
        .send()
        .await
        .map_err(|e| format!("reading the JWT secret {arn} failed: {}", aws_sdk_secretsmanager::error::DisplayErrorContext(e)))?;
    out.secret_string().map(str::to_string).ok_or_else(|| format!("the JWT secret {arn} has no string value"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn vars(extra: &[(&str, &str)]) -> HashMap<String, String> {
        let mut v: HashMap<String, String> =
            [("TABLE_NAME", "t"), ("DOCUMENTS_BUCKET", "b"), ("SES_SENDER", "no-reply@example.com"), ("AWS_REGION", "eu-north-1")]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
        v.extend(extra.iter().map(|(k, x)| (k.to_string(), x.to_string())));
        v
    }

    /// The function settings of template.yaml's `Globals`: its `Timeout`
    /// (seconds) and its environment variables.
    fn template_globals() -> (u64, HashMap<String, String>) {
        let text = std::fs::read_to_string(format!("{}/../template.yaml", env!("CARGO_MANIFEST_DIR"))).expect("template.yaml");
        let globals: Vec<&str> = text
            .lines()
            .skip_while(|l| *l != "Globals:")
            .skip(1)
            .take_while(|l| l.is_empty() || l.starts_with(' ') || l.starts_with('#'))
            .collect();
        let timeout = globals
            .iter()
            .find_map(|l| l.strip_prefix("    Timeout: "))
            .and_then(|v| v.trim().parse().ok())
            .expect("Globals.Function.Timeout");
        let vars = globals
            .iter()
            .filter_map(|l| l.strip_prefix("        "))
            .filter(|l| !l.starts_with(' ') && !l.starts_with('#'))
            .filter_map(|l| l.split_once(": "))
            .map(|(k, v)| (k.to_string(), v.trim().trim_matches('"').to_string()))
            .collect();
        (timeout, vars)
    }

    #[test]
    fn the_templates_time_budgets_add_up_and_are_the_defaults() {
        let (timeout_s, vars) = template_globals();
        for k in ["REQUEST_DEADLINE_MS", "PROVIDERS_TIMEOUT_MS", "PROVIDERS_ATTEMPTS", "PROVIDERS_BACKOFF_MS"] {
            assert!(vars.contains_key(k), "template.yaml Globals sets {k}: {vars:?}");
        }
        let b = Budgets::from_vars(|k| vars.get(k).cloned());
        assert_eq!(b, Budgets::DEFAULT, "local runs keep the template's budgets");
        let function_timeout = Duration::from_secs(timeout_s);
        assert!(b.provider_worst_case() < b.request_deadline, "{:?} < {:?}", b.provider_worst_case(), b.request_deadline);
        assert!(b.retries_deadline() < b.request_deadline, "the use cases' retries end before the deadline");
        assert_eq!(b.retries_deadline(), Duration::from_secs(8));
        assert!(b.request_deadline < function_timeout, "{:?} < {function_timeout:?}", b.request_deadline);
        assert!(function_timeout < Duration::from_secs(30), "under API Gateway's 30 s");
        // 3 attempts of 2 s with 200 + 400 ms between them.
        let three =
            Budgets { provider_attempts: 3, provider_timeout: Duration::from_secs(2), provider_backoff: Duration::from_millis(200), ..b };
        assert_eq!(three.provider_worst_case(), Duration::from_millis(6_600));
        // Unreadable values keep the defaults; zero attempts is not a client.
        let odd = Budgets::from_vars(|k| (k == "PROVIDERS_ATTEMPTS").then(|| "0".into()).or_else(|| Some("x".into())));
        assert_eq!(odd, Budgets::DEFAULT);
    }

    #[test]
    fn the_key_itself_is_taken_as_is_and_a_missing_or_short_one_refused() {
        let key = "k".repeat(MIN_JWT_SECRET_LEN);
        let v = vars(&[("JWT_SECRET", &key)]);
        assert_eq!(Config::from_vars(|k| v.get(k).cloned()).unwrap().jwt_secret, key);
        let v = vars(&[]);
        assert!(Config::from_vars(|k| v.get(k).cloned()).unwrap_err().contains("JWT_SECRET"));
        let v = vars(&[("JWT_SECRET", "short")]);
        assert!(Config::from_vars(|k| v.get(k).cloned()).is_err());
    }

    /// On AWS: the secret's ARN in the environment, its value from Secrets
    /// Manager (here the stand-in), read once and kept.
    #[tokio::test(flavor = "multi_thread")]
    async fn the_key_is_read_from_secrets_manager_by_arn_once() {
        let Ok(endpoint) = env::var("AWS_ENDPOINT_URL") else {
            eprintln!("skipped: AWS_ENDPOINT_URL (the stand-in) is not set");
            return;
        };
        for (k, v) in [("AWS_ACCESS_KEY_ID", "testing"), ("AWS_SECRET_ACCESS_KEY", "testing")] {
            if env::var(k).is_err() {
                env::set_var(k, v);
            }
        }
        let sdk = aws_config::defaults(aws_config::BehaviorVersion::latest())
            .region(aws_config::Region::new("eu-north-1"))
            .endpoint_url(&endpoint)
            .load()
            .await;
        let client = aws_sdk_secretsmanager::Client::new(&sdk);
        let key = format!("{}-0123456789abcdef0123456789abcdef", uuid::Uuid::new_v4().simple());
        let created =
            client.create_secret().name(format!("jwt-{}", uuid::Uuid::new_v4().simple())).secret_string(&key).send().await.unwrap();
        let arn = created.arn().unwrap().to_string();
        let v = vars(&[("JWT_SECRET_ARN", &arn), ("AWS_ENDPOINT_URL", &endpoint)]);
        let cfg = Config::from_vars(|k| v.get(k).cloned()).unwrap();
        assert_eq!(cfg.jwt_secret, key);
        // kept: a later configuration of this process does not read it again
        client.put_secret_value().secret_id(&arn).secret_string(format!("{key}-rotated")).send().await.unwrap();
        assert_eq!(Config::from_vars(|k| v.get(k).cloned()).unwrap().jwt_secret, key);
        // an unknown secret is a clear start-up error
        let v = vars(&[
            ("JWT_SECRET_ARN", "arn:aws:secretsmanager:eu-north-1:123456789012:secret:none-AbCdEf"),
            ("AWS_ENDPOINT_URL", &endpoint),
        ]);
        assert!(Config::from_vars(|k| v.get(k).cloned()).unwrap_err().contains("reading the JWT secret"));
    }

    #[test]
    fn a_development_secret_from_the_repository_signs_only_on_loopback() {
        let dev = KNOWN_DEVELOPMENT_SECRETS[0];
        let base = [("TABLE_NAME", "t"), ("DOCUMENTS_BUCKET", "b"), ("SES_SENDER", "s@example.com"), ("JWT_SECRET", dev)];
        let with = |extra: &[(&'static str, &'static str)]| {
            let all: Vec<(&str, &str)> = base.iter().chain(extra).copied().collect();
            let v = vars(&all);
            Config::from_vars(|k| v.get(k).cloned())
        };
        assert!(with(&[]).is_ok());
        assert!(with(&[("GATEWAY_ADDR", "127.0.0.1:3000")]).is_ok());
        assert!(with(&[("GATEWAY_ADDR", "localhost:3000")]).is_ok());
        assert!(with(&[("GATEWAY_ADDR", "[::1]:3000")]).is_ok());
        for extra in [[("GATEWAY_ADDR", "0.0.0.0:3000")], [("GATEWAY_ADDR", "192.168.1.5:3000")], [("AWS_LAMBDA_FUNCTION_NAME", "cases")]] {
            let err = with(&extra).unwrap_err();
            assert!(err.contains("development secret"), "{extra:?}: {err}");
        }
        // A secret of one's own is fine anywhere.
        let own = "9f1c2e7a5b3d4f60a1b2c3d4e5f60718";
        let v = vars(&[
            ("TABLE_NAME", "t"),
            ("DOCUMENTS_BUCKET", "b"),
            ("SES_SENDER", "s@example.com"),
            ("JWT_SECRET", own),
            ("AWS_LAMBDA_FUNCTION_NAME", "cases"),
        ]);
        assert!(Config::from_vars(|k| v.get(k).cloned()).is_ok());
        assert!(!is_loopback_addr("evil.example.com"));
        assert!(!is_loopback_addr("127.0.0.1.evil.example.com:80"));
    }
}

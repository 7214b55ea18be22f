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

/// Shortest JWT secret accepted: HS256 needs at least 256 bits of key.
pub const MIN_JWT_SECRET_LEN: usize = 32;

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
}

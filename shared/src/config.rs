//! Configuration, read once from the environment at cold start.
//!
//! The only difference between AWS and the local stand-in is `AWS_ENDPOINT_URL`
//! (and `LOCAL_OUTBOX`); every client is built from this one struct.

use std::env;

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
        let var = |k: &str| env::var(k).ok().filter(|v| !v.trim().is_empty());
        let need = |k: &str| var(k).ok_or_else(|| format!("missing environment variable {k}"));
        let cfg = Config {
            region: var("AWS_REGION").or_else(|| var("AWS_DEFAULT_REGION")).unwrap_or_else(|| "eu-north-1".into()),
            table_name: need("TABLE_NAME")?,
            documents_bucket: need("DOCUMENTS_BUCKET")?,
            ses_sender: need("SES_SENDER")?,
            jwt_secret: need("JWT_SECRET")?,
            web_origin: var("WEB_ORIGIN").unwrap_or_else(|| "http://127.0.0.1:3000".into()),
            endpoint_url: var("AWS_ENDPOINT_URL"),
            local_outbox: var("LOCAL_OUTBOX").is_some_and(|v| v == "1" || v == "true"),
        };
        if cfg.jwt_secret.len() < MIN_JWT_SECRET_LEN {
            return Err(format!("JWT_SECRET must be at least {MIN_JWT_SECRET_LEN} characters"));
        }
        Ok(cfg)
    }
}

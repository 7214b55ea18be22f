//! Integration-test support: a fresh table, bucket and sender in the local
//! stand-in for every test, so tests never see each other's data.
//! The stand-in's address comes from `AWS_ENDPOINT_URL` (set by infra/test.sh).

use crate::api::{AppState, Services};
use crate::config::Config;

pub const TEST_JWT_SECRET: &str = "integration-test-secret-0123456789abcdef";

pub fn endpoint() -> String {
    std::env::var("AWS_ENDPOINT_URL").expect(
        "AWS_ENDPOINT_URL is not set: integration tests need the local AWS stand-in; run them with infra/test.sh",
    )
}

/// Services on a brand-new table and bucket.
pub async fn services() -> AppState {
    static ENV: std::sync::Once = std::sync::Once::new();
    ENV.call_once(|| {
        // The stand-in accepts any credentials; tests must never pick up real ones.
        for (k, v) in [("AWS_ACCESS_KEY_ID", "testing"), ("AWS_SECRET_ACCESS_KEY", "testing")] {
            if std::env::var(k).is_err() {
                std::env::set_var(k, v);
            }
        }
    });
    let id = uuid::Uuid::new_v4().simple().to_string();
    let config = Config {
        region: "eu-north-1".into(),
        table_name: format!("test-{id}"),
        documents_bucket: format!("test-{}", &id[..20]),
        ses_sender: "no-reply@example.com".into(),
        jwt_secret: TEST_JWT_SECRET.into(),
        web_origin: "http://127.0.0.1:3000".into(),
        endpoint_url: Some(endpoint()),
        local_outbox: true,
    };
    let state = Services::new(config, None).await;
    state.store.ensure_table().await.expect("create table");
    state.files.ensure_bucket(&state.config.region).await.expect("create bucket");
    state.mail.ensure_sender().await.expect("verify sender");
    state
}

// The job's future nests the whole expiry run (services, store, the SDK's
// calls): its layout is deeper than rustc's default query depth of 128.
#![recursion_limit = "256"]

use lambda_http::lambda_runtime::{self, service_fn, LambdaEvent};

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    shared::telemetry::init_lambda(env!("CARGO_PKG_NAME"));
    let config = shared::config::Config::from_env()?;
    let state = shared::services::Context::new(config, None).await;
    lambda_runtime::run(service_fn(|_event: LambdaEvent<serde_json::Value>| {
        let state = state.clone();
        async move {
            let report = subscription_expiry::run(&state, chrono::Utc::now()).await?;
            Ok::<_, lambda_runtime::Error>(serde_json::json!({ "due": report.due, "expired": report.expired, "renewed": report.renewed }))
        }
    }))
    .await
}

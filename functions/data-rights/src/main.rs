use lambda_http::lambda_runtime::{self, service_fn, LambdaEvent};

/// Started by the table's stream when an export is queued, and by its
/// schedule (the retention sweep, and any export a stopped run left): every
/// event runs the same idempotent job.
#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    shared::telemetry::init_lambda(env!("CARGO_PKG_NAME"));
    let config = shared::config::Config::from_env()?;
    let state = shared::services::Context::new(config, None).await;
    lambda_runtime::run(service_fn(|_event: LambdaEvent<serde_json::Value>| {
        let state = state.clone();
        async move {
            let report = data_rights::run(&state, chrono::Utc::now()).await?;
            Ok::<_, lambda_runtime::Error>(serde_json::to_value(report)?)
        }
    }))
    .await
}

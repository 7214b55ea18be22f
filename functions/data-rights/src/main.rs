use lambda_http::lambda_runtime::{self, service_fn, LambdaEvent};

/// Started by the table's stream when an export is queued, by its hourly
/// schedule (any export a stopped run left), both the exports' idempotent
/// job, and by its daily schedule with `{"job": "retention"}`: the
/// retention job.
#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    shared::telemetry::init_lambda(env!("CARGO_PKG_NAME"));
    let config = shared::config::Config::from_env()?;
    let state = shared::services::Context::new(config, None).await;
    lambda_runtime::run(service_fn(|event: LambdaEvent<serde_json::Value>| {
        let state = state.clone();
        async move {
            let now = chrono::Utc::now();
            match data_rights::Job::of(&event.payload) {
                data_rights::Job::Retention => {
                    let report = data_rights::run_retention(&state, now).await?;
                    Ok::<_, lambda_runtime::Error>(serde_json::to_value(report)?)
                }
                data_rights::Job::Exports => {
                    let report = data_rights::run(&state, now).await?;
                    Ok::<_, lambda_runtime::Error>(serde_json::to_value(report)?)
                }
            }
        }
    }))
    .await
}

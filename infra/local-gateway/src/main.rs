//! `local-gateway`: sets up the stand-in (table, bucket, sender), seeds the
//! demo accounts, runs the expiry, data-rights and retention jobs on timers and serves everything.
//!
//! Environment: the same variables as the Lambda functions (see
//! `shared::config`), plus GATEWAY_ADDR (default 127.0.0.1:3000), WEB_DIST
//! (default web/dist), SEED_DEMO (default 1), SEED_E2E (browser-test accounts), SEED_DEMO_CASES
//! (demo cases through the API; dev.sh sets it), EXPIRY_INTERVAL_SECS (default 60),
//! DATA_RIGHTS_INTERVAL_SECS (the data-rights worker's timer, default 2), PROVIDERS_URL
//! (default: the gateway's own provider stand-in at /local/providers).

use local_gateway::{app, default_web_dist, seed, setup};
use shared::config::Config;
use shared::services::Context;
use std::time::Duration;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The same events as on Lambda (one `request` line per request, warnings), as readable lines.
    shared::telemetry::init_local();
    let config = Config::from_env()?;
    let addr = std::env::var("GATEWAY_ADDR").unwrap_or_else(|_| "127.0.0.1:3000".into());
    let web_dist = std::env::var("WEB_DIST").map(Into::into).unwrap_or_else(|_| default_web_dist());
    // The add-on providers: PROVIDERS_URL when set, else this gateway's own stand-in.
    let providers = match std::env::var("PROVIDERS_URL").ok().filter(|v| !v.is_empty()) {
        Some(_) => shared::providers::Providers::from_env(),
        None => shared::providers::Providers::http(
            &format!("http://{addr}/local/providers"),
            shared::providers::stand_in::API_KEY,
            Default::default(),
        ),
    };
    let state = Context::with_providers(config, None, providers).await;

    setup(&state).await.map_err(|e| format!("setting up the local stand-in failed: {e}"))?;
    if std::env::var("SEED_DEMO").map(|v| v != "0").unwrap_or(true) {
        let created = seed::seed_demo_accounts(&state).await?;
        println!("seeded {created} new demo account(s)");
        seed::seed_demo_bankid(&state).await?;
    }
    if std::env::var("SEED_E2E").is_ok_and(|v| v == "1") {
        seed::seed_accounts(&state, &seed::E2E_ACCOUNTS).await?;
    }

    let every = std::env::var("EXPIRY_INTERVAL_SECS").ok().and_then(|v| v.parse().ok()).unwrap_or(60);
    let job_state = state.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(every));
        loop {
            tick.tick().await;
            // A failure is logged by the job itself.
            let _ = subscription_expiry::run(&job_state, chrono::Utc::now()).await;
        }
    });

    // The data-rights worker: on AWS the table's stream starts it when an
    // export is queued; here a short timer finds the queue's entries.
    let every = std::env::var("DATA_RIGHTS_INTERVAL_SECS").ok().and_then(|v| v.parse().ok()).unwrap_or(2);
    let job_state = state.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(every));
        loop {
            tick.tick().await;
            // A failure is logged by the job itself.
            let _ = data_rights::run(&job_state, chrono::Utc::now()).await;
        }
    });

    // The retention job: daily on AWS; here every hour from the start
    // (idempotent, and a fresh world has nothing due).
    let every = std::env::var("RETENTION_INTERVAL_SECS").ok().and_then(|v| v.parse().ok()).unwrap_or(3600);
    let job_state = state.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(every));
        loop {
            tick.tick().await;
            // A failure is logged by the job itself.
            let _ = data_rights::run_retention(&job_state, chrono::Utc::now()).await;
        }
    });

    let router = app(state.clone(), web_dist);
    if std::env::var("SEED_DEMO_CASES").is_ok_and(|v| v == "1") {
        let made = local_gateway::demo_cases::seed_demo_cases(&state, &router).await?;
        println!("seeded {made} demo case(s)");
        let docs = local_gateway::demo_documents::seed_demo_documents(&state).await?;
        println!("seeded {docs} demo document(s)");
    }

    let listener = tokio::net::TcpListener::bind(&addr).await?;
    seed::print_demo_accounts(&format!("http://{}", listener.local_addr()?));
    axum::serve(listener, router.into_make_service_with_connect_info::<std::net::SocketAddr>())
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}

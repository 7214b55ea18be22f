//! Benchmark (not a test): prints figures, asserts nothing.
//!
//! 1. Cold start: each Lambda binary's time from process start to its first
//!    answered request, median of 20 starts. The binaries run against a small
//!    stand-in for the Lambda Runtime API served here.
//! 2. `GET /api/profile/` through the real router, p50/p99, next to a raw
//!    DynamoDB GetItem from this same process in the same run, as a ratio.
//!
//! Run through `infra/bench.sh`, which builds release binaries and starts the
//! AWS stand-in. Arguments: paths of the Lambda binaries to start.

use axum::body::{to_bytes, Body};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, Request, StatusCode};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value};
use shared::api::finish;
use shared::config::Config;
use shared::services::Context;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, Mutex};
use tower::ServiceExt;

const STARTS: usize = 20;
const REQUESTS: usize = 500;

struct Runtime {
    event: Mutex<Value>,
    served: Mutex<bool>,
    done: mpsc::UnboundedSender<Result<(), String>>,
}

async fn next(State(rt): State<Arc<Runtime>>) -> (HeaderMap, String) {
    let already = std::mem::replace(&mut *rt.served.lock().await, true);
    if already {
        // One event per process: park the runtime's next poll until it is killed.
        std::future::pending::<()>().await;
    }
    let mut h = HeaderMap::new();
    h.insert("lambda-runtime-aws-request-id", "bench-request".parse().unwrap());
    let deadline = (chrono::Utc::now().timestamp_millis() + 30_000).to_string();
    h.insert("lambda-runtime-deadline-ms", deadline.parse().unwrap());
    h.insert("lambda-runtime-invoked-function-arn", "arn:aws:lambda:eu-north-1:000000000000:function:bench".parse().unwrap());
    (h, rt.event.lock().await.to_string())
}

async fn response(State(rt): State<Arc<Runtime>>, Path(_id): Path<String>) -> StatusCode {
    let _ = rt.done.send(Ok(()));
    StatusCode::ACCEPTED
}

async fn error(State(rt): State<Arc<Runtime>>, body: String) -> StatusCode {
    let _ = rt.done.send(Err(body));
    StatusCode::ACCEPTED
}

fn http_event(method: &str, path: &str, token: Option<&str>) -> Value {
    let mut headers = json!({ "host": "bench.local", "user-agent": "bench" });
    if let Some(t) = token {
        headers["authorization"] = json!(format!("Bearer {t}"));
    }
    json!({
        "version": "2.0", "routeKey": "$default", "rawPath": path, "rawQueryString": "",
        "headers": headers, "isBase64Encoded": false,
        "requestContext": {
            "accountId": "000000000000", "apiId": "bench", "domainName": "bench.local", "domainPrefix": "bench",
            "http": { "method": method, "path": path, "protocol": "HTTP/1.1", "sourceIp": "127.0.0.1", "userAgent": "bench" },
            "requestId": "bench", "routeKey": "$default", "stage": "$default",
            "time": "23/Nov/2026:10:00:00 +0000", "timeEpoch": 0
        }
    })
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let config = Config::from_env()?;
    let state = Context::new(config.clone(), None).await;
    local_gateway::setup(&state).await?;
    local_gateway::seed::seed_demo_accounts(&state).await?;
    let router = finish(local_gateway::api_routes(), state.clone());

    // a real session for the profile calls
    let login = Request::post("/api/token/")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(json!({ "email": "customer@example.com", "password": local_gateway::seed::DEMO_PASSWORD }).to_string()))?;
    let auth: Value = serde_json::from_slice(&to_bytes(router.clone().oneshot(login).await?.into_body(), 1 << 20).await?)?;
    let token = auth["access_token"].as_str().ok_or("login failed")?.to_string();

    // ---- 1. cold starts
    println!("Cold start: process start → first answered request (median of {STARTS} starts)");
    println!("{:<24} {:>10} {:>10} {:>10}", "function", "median ms", "min ms", "max ms");
    for bin in std::env::args().skip(1) {
        let name = std::path::Path::new(&bin).file_name().unwrap().to_string_lossy().to_string();
        let event = match name.as_str() {
            "identity" => http_event("GET", "/api/profile/", Some(&token)),
            "api-docs" => http_event("GET", "/api/openapi.json", None),
            _ => json!({ "source": "aws.scheduler", "detail-type": "Scheduled Event", "detail": {} }),
        };
        let mut times = Vec::new();
        for _ in 0..STARTS {
            let (tx, mut rx) = mpsc::unbounded_channel();
            let rt = Arc::new(Runtime { event: Mutex::new(event.clone()), served: Mutex::new(false), done: tx });
            let app = Router::new()
                .route("/2018-06-01/runtime/invocation/next", get(next))
                .route("/2018-06-01/runtime/invocation/{id}/response", post(response))
                .route("/2018-06-01/runtime/invocation/{id}/error", post(error))
                .route("/2018-06-01/runtime/init/error", post(error))
                .with_state(rt);
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
            let api = listener.local_addr()?;
            let server = tokio::spawn(async move { axum::serve(listener, app).await });
            let started = Instant::now();
            let mut child = tokio::process::Command::new(&bin)
                .env("AWS_LAMBDA_RUNTIME_API", api.to_string())
                .env("AWS_LAMBDA_FUNCTION_NAME", &name)
                .env("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256")
                .env("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST")
                .env("AWS_LAMBDA_LOG_STREAM_NAME", "bench")
                .env("AWS_LAMBDA_LOG_GROUP_NAME", "bench")
                .stdout(std::process::Stdio::null())
                .kill_on_drop(true)
                .spawn()?;
            let outcome = tokio::time::timeout(Duration::from_secs(30), rx.recv()).await;
            let elapsed = started.elapsed();
            let _ = child.kill().await;
            server.abort();
            match outcome {
                Ok(Some(Ok(()))) => times.push(elapsed),
                Ok(Some(Err(e))) => return Err(format!("{name} answered with an error: {e}").into()),
                _ => return Err(format!("{name} did not answer within 30 s").into()),
            }
        }
        times.sort();
        println!("{:<24} {:>10.1} {:>10.1} {:>10.1}", name, ms(pct(&times, 0.5)), ms(times[0]), ms(times[times.len() - 1]));
    }

    // ---- 2. profile vs raw GetItem, same process, same run
    let user = state.store.find_user_by_email("customer@example.com").await?.ok_or("no demo customer")?;
    let mut profile = Vec::with_capacity(REQUESTS);
    let mut raw = Vec::with_capacity(REQUESTS);
    for i in 0..REQUESTS + 20 {
        let req = Request::get("/api/profile/").header(header::AUTHORIZATION, format!("Bearer {token}")).body(Body::empty())?;
        let t = Instant::now();
        let res = router.clone().oneshot(req).await?;
        let _ = to_bytes(res.into_body(), 1 << 20).await?;
        let p = t.elapsed();
        let t = Instant::now();
        state
            .store
            .client
            .get_item()
            .table_name(&state.store.table)
            .key("PK", shared::store::s(shared::store::keys::user::pk(&user.uid)))
            .key("SK", shared::store::s(shared::store::keys::user::SK))
            .send()
            .await?;
        let r = t.elapsed();
        if i >= 20 {
            // the first 20 warm connections and caches
            profile.push(p);
            raw.push(r);
        }
    }
    profile.sort();
    raw.sort();
    println!(
        "\nGET /api/profile/ vs raw DynamoDB GetItem ({REQUESTS} each, interleaved, against {})",
        config.endpoint_url.as_deref().unwrap_or("AWS")
    );
    println!("{:<24} {:>10} {:>10}", "", "p50 ms", "p99 ms");
    println!("{:<24} {:>10.2} {:>10.2}", "GET /api/profile/", ms(pct(&profile, 0.5)), ms(pct(&profile, 0.99)));
    println!("{:<24} {:>10.2} {:>10.2}", "GetItem", ms(pct(&raw, 0.5)), ms(pct(&raw, 0.99)));
    println!(
        "{:<24} {:>10.2} {:>10.2}",
        "ratio profile/GetItem",
        ms(pct(&profile, 0.5)) / ms(pct(&raw, 0.5)),
        ms(pct(&profile, 0.99)) / ms(pct(&raw, 0.99))
    );
    Ok(())
}

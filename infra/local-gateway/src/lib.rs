//! The local gateway: every function crate's router under `/api/`, the built
//! web app at `/`, a local-only mail outbox, and the scheduled jobs on a timer.
//! It plays API Gateway + CloudFront + EventBridge for a machine without AWS.

use axum::extract::{Request, State};
use axum::http::{StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use shared::api::AppState;
use shared::error::ApiError;
use shared::mail::SentMail;
use std::path::{Path, PathBuf};
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};
use utoipa_axum::router::OpenApiRouter;

/// The providers' stand-in, mounted at `/local/providers`. With
/// `STAND_IN_STATE` set (`PERSIST=1 infra/dev.sh`) its state is kept beside
/// the AWS stand-in's, in `<STAND_IN_STATE>.providers.json`. (Verified's
/// webhooks come through Amazon SNS, which has no local copy: locally the
/// envelopes are polled.)
fn stand_in() -> Router {
    use shared::providers::stand_in::{router_with, StandIn};
    let kept = std::env::var("STAND_IN_STATE")
        .ok()
        .filter(|p| !p.trim().is_empty())
        .map(|p| StandIn::kept_in(std::path::Path::new(&format!("{p}.providers.json"))))
        .unwrap_or_default();
    router_with(kept.at_prefix("/local/providers"))
}

/// All API routes, exactly as the Lambda functions serve them.
pub fn api_routes() -> OpenApiRouter<AppState> {
    api_docs::all_routes().into_iter().fold(OpenApiRouter::new(), |acc, r| acc.merge(r))
}

/// [`api_routes`] without their OpenAPI description, made once per process:
/// making them assembles the whole description too, the costliest part of an
/// [`app`] (the gateway's tests make one for every copy of their world, a
/// few hundred a run). A router is cheap to clone and gets its state later.
fn api_router() -> Router<AppState> {
    static API: std::sync::OnceLock<Router<AppState>> = std::sync::OnceLock::new();
    API.get_or_init(|| api_routes().split_for_parts().0).clone()
}

/// The API, the local pages and `web/dist` the way CloudFront serves it
/// (see [`headers`] and the template's `Distribution`):
///
/// - `/` is the static landing page (`landing.html`) when the build has one;
/// - a path whose last segment has no `.` gets `index.html` (the app's router
///   decides), any other the file of `dist/` or a JSON 404; never for `/api/`,
///   which answers JSON errors;
/// - each file in its gzip or brotli copy (`x.js.br`, `x.js.gz`, made by the
///   web build) when the browser accepts it: compressed once, never per request;
/// - caching and security headers by [`headers::edge`].
pub fn app(state: AppState, web_dist: PathBuf) -> Router {
    let api = api_router();
    let file = |path: PathBuf| ServeFile::new(path).precompressed_br().precompressed_gzip();
    let files = ServeDir::new(&web_dist).precompressed_br().precompressed_gzip();
    let index = file(web_dist.join("index.html"));
    let landing = web_dist.join("landing.html");
    let landing = landing.is_file().then(|| file(landing));
    let edge = headers::Edge::new(&state.config);
    let routes = api
        .route("/local/outbox", get(outbox_html))
        .route("/local/outbox.json", get(outbox_json))
        // The add-on providers' stand-in, on loopback: see `shared::providers::stand_in`.
        .nest_service("/local/providers", stand_in())
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .fallback(move |uri: Uri, req: Request| async move {
            let path = uri.path();
            if path.starts_with("/api/") || path == "/api" {
                return ApiError::NotFound.into_response();
            }
            // As the template's SpaRewriteFunction: a last segment without a '.' is a route of the app.
            let served = match &landing {
                Some(landing) if path == "/" => landing.clone().oneshot(req).await,
                _ if !path.rsplit('/').next().unwrap_or_default().contains('.') => index.clone().oneshot(req).await,
                _ => files.clone().oneshot(req).await,
            };
            match served {
                Ok(res) if res.status() == StatusCode::NOT_FOUND => ApiError::NotFound.into_response(),
                Ok(res) => res.into_response(),
                Err(e) => ApiError::internal(e).into_response(),
            }
        });
    // The API's limits (body, query, deadline: `shared::api::limits`) on
    // everything, so their refusals get the edge headers too. The deadline is
    // REQUEST_DEADLINE_MS's: the browser tests allow a longer one, as the
    // stand-in answers one request at a time, and with five browsers crawling
    // on a busy two-core machine a dashboard took longer than the Lambda's 9.5 s.
    shared::api::limits(routes)
        .with_state(state)
        .layer(middleware::from_fn(local_pages_on_loopback_only))
        .layer(middleware::from_fn_with_state(edge, headers::edge))
}

/// `/local/*` (the outbox with sign-in codes and reset links, the providers'
/// stand-in) answers only requests addressed to this machine by a loopback
/// name: a page of another site that rebinds its DNS name to 127.0.0.1 sends
/// its own name as Host and gets a 404. (A request without Host, as the
/// in-process tests send, is no browser's.)
async fn local_pages_on_loopback_only(req: Request, next: Next) -> Response {
    if req.uri().path().starts_with("/local/") {
        let host = req.headers().get(axum::http::header::HOST).map(|h| h.to_str().unwrap_or("?"));
        if host.is_some_and(|h| !shared::config::is_loopback_addr(h)) {
            return ApiError::NotFound.into_response();
        }
    }
    next.run(req).await
}

fn sent(state: &AppState) -> Vec<SentMail> {
    state.mail.outbox().map(|o| o.lock().unwrap_or_else(|p| p.into_inner()).clone()).unwrap_or_default()
}

/// Local only: every mail sent, newest first.
async fn outbox_json(State(state): State<AppState>) -> Json<Vec<SentMail>> {
    let mut mails = sent(&state);
    mails.reverse();
    Json(mails)
}

async fn outbox_html(State(state): State<AppState>) -> Response {
    if state.mail.outbox().is_none() {
        return (StatusCode::NOT_FOUND, "outbox is only kept locally").into_response();
    }
    let esc = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let rows: String = sent(&state)
        .iter()
        .rev()
        .map(|m| {
            format!(
                "<article><h3>{}</h3><p>To: {} · {}</p><pre>{}</pre></article>",
                esc(&m.subject),
                esc(&m.to),
                m.sent_at.format("%Y-%m-%d %H:%M:%S"),
                esc(&m.body)
            )
        })
        .collect();
    let empty = if rows.is_empty() { "<p>No mail sent yet.</p>" } else { "" };
    Html(format!(
        "<!doctype html><meta charset=utf-8><title>Local outbox</title>\
         <style>body{{font-family:sans-serif;max-width:50rem;margin:2rem auto}}pre{{white-space:pre-wrap;background:#f6f6f6;padding:1rem}}</style>\
         <h1>Local outbox</h1>{empty}{rows}"
    ))
    .into_response()
}

/// Creates the table, bucket and sender identity if missing (idempotent).
pub async fn setup(state: &AppState) -> Result<(), ApiError> {
    state.store.ensure_table().await?;
    state.files.ensure_bucket(&state.config.region).await?;
    state.mail.ensure_sender().await?;
    Ok(())
}

pub mod demo_cases;
pub mod demo_documents;
pub mod demo_files;
pub mod headers;
pub mod repair;
pub mod seed;
pub mod seed_content;

pub fn default_web_dist() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/dist")
}

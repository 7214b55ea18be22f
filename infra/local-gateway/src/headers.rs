//! The edge's response headers, as CloudFront adds them on AWS (template.yaml:
//! `WebResponseHeaders`, `AssetsResponseHeaders`, `ApiResponseHeaders`):
//! security headers on every answer, caching by kind of answer.
//!
//! - every answer: a strict Content-Security-Policy (scripts only from the
//!   site itself, never inline; no framing), `X-Content-Type-Options:
//!   nosniff`, `X-Frame-Options: DENY`, `Referrer-Policy`;
//! - `/assets/*` (file names carry a content hash): `public, max-age=31536000,
//!   immutable`; the HTML pages and other files: `no-cache` (revalidated, so a
//!   deploy shows at once);
//! - `/api/*` and `/local/*`: `no-store` ([`shared::api::api_headers`]).
//!
//! HSTS is sent on AWS only (CloudFront answers over HTTPS; locally it is
//! plain HTTP, where browsers ignore it).

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use shared::config::Config;
use std::sync::Arc;

/// `Cache-Control` of hashed assets (`/assets/…`).
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// `Cache-Control` of the HTML pages and unhashed files.
pub const REVALIDATE: &str = "no-cache";
pub const REFERRER_POLICY: &str = "strict-origin-when-cross-origin";
pub const FRAME_OPTIONS: &str = "DENY";

/// The Content-Security-Policy of the site. `documents` is the origin of the
/// documents bucket, which the browser reaches with presigned URLs (uploads
/// with `fetch`/PUT, profile images): `https://<bucket>.s3.<region>.amazonaws.com`
/// on AWS, the stand-in locally; academy videos play from there too
/// (`media-src`), and embedded lesson players come only from
/// youtube-nocookie and Vimeo (`frame-src`). Styles allow `'unsafe-inline'` because antd
/// writes its component styles at run time (CSS-in-JS); scripts do not.
pub fn content_security_policy(documents: &str) -> String {
    format!(
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: {documents}; \
         font-src 'self' data:; connect-src 'self' {documents}; media-src 'self' blob: {documents}; \
         frame-src https://www.youtube-nocookie.com https://player.vimeo.com; object-src 'none'; base-uri 'self'; \
         form-action 'self'; frame-ancestors 'none'"
    )
}

/// Where presigned document URLs point (see [`content_security_policy`]).
pub fn documents_origin(config: &Config) -> String {
    match &config.endpoint_url {
        Some(url) => url.trim_end_matches('/').to_string(),
        None => format!("https://{}.s3.{}.amazonaws.com", config.documents_bucket, config.region),
    }
}

/// The headers every answer gets, built once.
pub struct Edge {
    security: HeaderMap,
}

impl Edge {
    pub fn new(config: &Config) -> Arc<Self> {
        let mut security = HeaderMap::new();
        let csp = HeaderValue::from_str(&content_security_policy(&documents_origin(config)))
            .unwrap_or(HeaderValue::from_static("default-src 'self'"));
        security.insert(header::CONTENT_SECURITY_POLICY, csp);
        security.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        security.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static(FRAME_OPTIONS));
        security.insert(header::REFERRER_POLICY, HeaderValue::from_static(REFERRER_POLICY));
        Arc::new(Edge { security })
    }
}

fn is_api(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/") || path.starts_with("/local/")
}

/// Middleware: the security headers on every answer, and its caching.
pub async fn edge(State(edge): State<Arc<Edge>>, req: Request, next: Next) -> Response {
    let path = req.uri().path().to_string();
    let mut res = next.run(req).await;
    if is_api(&path) {
        res = shared::api::api_headers(res).await;
    } else {
        let cache = if path.starts_with("/assets/") && res.status().is_success() { IMMUTABLE } else { REVALIDATE };
        res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        // The answer depends on Accept-Encoding (precompressed copies), as CloudFront's does.
        res.headers_mut().insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    }
    for (name, value) in &edge.security {
        res.headers_mut().insert(HeaderName::clone(name), value.clone());
    }
    res
}

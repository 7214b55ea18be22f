//! The local gateway serves `web/dist` the way CloudFront does:
//! gzip and brotli copies by Accept-Encoding, year-long immutable
//! caching of hashed assets, `no-cache` on the HTML, the static landing page
//! at `/`, the security headers of the template's response-headers policies on
//! every answer, and `no-store` on the API's.

use axum::body::{to_bytes, Body};
use axum::http::{header, HeaderMap, Request, StatusCode};
use axum::Router;
use local_gateway::{app, headers};
use shared::testkit;
use tower::ServiceExt;

struct Dist(std::path::PathBuf);

impl Drop for Dist {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A built web app in miniature: index.html and landing.html with their
/// compressed copies (as the web build writes them), one hashed asset.
async fn gateway() -> (Router, Dist, String) {
    let state = testkit::services().await;
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!("edge-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    let write = |name: &str, body: &str| {
        std::fs::write(dir.join(name), body).unwrap();
        std::fs::write(dir.join(format!("{name}.gz")), format!("gzip of {name}")).unwrap();
        std::fs::write(dir.join(format!("{name}.br")), format!("brotli of {name}")).unwrap();
    };
    write("index.html", "<!doctype html><div id=root></div>");
    write("landing.html", "<!doctype html><div data-testid=landing></div>");
    write("assets/app-0a1b2c3d.js", "console.log(1)");
    write("favicon.svg", "<svg/>");
    let csp = headers::content_security_policy(&headers::documents_origin(&state.config));
    (app(state, dir.clone()), Dist(dir), csp)
}

async fn get(router: &Router, path: &str, accept: Option<&str>) -> (StatusCode, HeaderMap, String) {
    let mut req = Request::get(path);
    if let Some(a) = accept {
        req = req.header(header::ACCEPT_ENCODING, a);
    }
    let res = router.clone().oneshot(req.body(Body::empty()).unwrap()).await.unwrap();
    let (parts, body) = res.into_parts();
    let body = String::from_utf8_lossy(&to_bytes(body, 1 << 20).await.unwrap()).to_string();
    (parts.status, parts.headers, body)
}

fn h(headers: &HeaderMap, name: header::HeaderName) -> &str {
    headers.get(&name).map(|v| v.to_str().unwrap()).unwrap_or("")
}

fn assert_security_headers(headers: &HeaderMap, csp: &str, path: &str) {
    assert_eq!(h(headers, header::CONTENT_SECURITY_POLICY), csp, "{path}");
    assert_eq!(h(headers, header::X_CONTENT_TYPE_OPTIONS), "nosniff", "{path}");
    assert_eq!(h(headers, header::X_FRAME_OPTIONS), "DENY", "{path}");
    assert_eq!(h(headers, header::REFERRER_POLICY), headers::REFERRER_POLICY, "{path}");
}

#[tokio::test]
async fn files_come_precompressed_by_accept_encoding() {
    let (router, _dist, _) = gateway().await;
    let (status, headers, body) = get(&router, "/assets/app-0a1b2c3d.js", Some("gzip, deflate, br")).await;
    assert_eq!((status, body.as_str(), h(&headers, header::CONTENT_ENCODING)), (StatusCode::OK, "brotli of assets/app-0a1b2c3d.js", "br"));
    assert!(h(&headers, header::CONTENT_TYPE).starts_with("text/javascript"), "{headers:?}");
    assert!(h(&headers, header::VARY).to_ascii_lowercase().contains("accept-encoding"), "{headers:?}");
    let (_, headers, body) = get(&router, "/assets/app-0a1b2c3d.js", Some("gzip")).await;
    assert_eq!((body.as_str(), h(&headers, header::CONTENT_ENCODING)), ("gzip of assets/app-0a1b2c3d.js", "gzip"));
    let (_, headers, body) = get(&router, "/assets/app-0a1b2c3d.js", None).await;
    assert_eq!((body.as_str(), h(&headers, header::CONTENT_ENCODING)), ("console.log(1)", ""));
    // the app's fallback page too
    let (status, headers, body) = get(&router, "/admin/customers/", Some("br")).await;
    assert_eq!((status, body.as_str(), h(&headers, header::CONTENT_ENCODING)), (StatusCode::OK, "brotli of index.html", "br"));
}

#[tokio::test]
async fn hashed_assets_are_immutable_and_pages_are_revalidated() {
    let (router, _dist, _) = gateway().await;
    let (_, headers, _) = get(&router, "/assets/app-0a1b2c3d.js", Some("br")).await;
    assert_eq!(h(&headers, header::CACHE_CONTROL), "public, max-age=31536000, immutable");
    for path in ["/", "/login", "/admin/", "/favicon.svg"] {
        let (status, headers, _) = get(&router, path, Some("br")).await;
        assert_eq!((status, h(&headers, header::CACHE_CONTROL)), (StatusCode::OK, "no-cache"), "{path}");
    }
    // a missing file is a JSON 404 (not the app's page), not cached for a year
    let (status, headers, body) = get(&router, "/assets/gone-00000000.js", None).await;
    assert_eq!((status, h(&headers, header::CACHE_CONTROL)), (StatusCode::NOT_FOUND, "no-cache"));
    assert_eq!(serde_json::from_str::<serde_json::Value>(&body).unwrap()["message"], "not_found");
}

#[tokio::test]
async fn the_root_is_the_static_landing_page_and_other_paths_the_app() {
    let (router, _dist, _) = gateway().await;
    let (_, _, body) = get(&router, "/", None).await;
    assert!(body.contains("data-testid=landing"), "{body}");
    let (_, _, body) = get(&router, "/login", None).await;
    assert!(body.contains("<div id=root>"), "{body}");
}

#[tokio::test]
async fn every_answer_has_the_security_headers_and_api_answers_are_not_stored() {
    let (router, _dist, csp) = gateway().await;
    for path in
        ["/", "/login", "/assets/app-0a1b2c3d.js", "/api/openapi.json", "/api/profile/", "/api/no-such-thing/", "/local/outbox.json"]
    {
        let (status, headers, _) = get(&router, path, None).await;
        assert_security_headers(&headers, &csp, path);
        if path.starts_with("/api/") || path.starts_with("/local/") {
            assert_eq!(h(&headers, header::CACHE_CONTROL), "no-store", "{path} {status}");
        }
    }
    // the policy has no inline scripts and no framing
    assert!(csp.contains("script-src 'self';") && !csp.contains("script-src 'self' 'unsafe-inline'"), "{csp}");
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    // a token answer, refused or not, is never stored
    let req = Request::post("/api/token/")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(r#"{"email":"nobody@example.com","password":"wrong-password"}"#))
        .unwrap();
    let res = router.clone().oneshot(req).await.unwrap();
    assert_eq!(h(res.headers(), header::CACHE_CONTROL), "no-store");
}

/// CloudFront sends the same values on AWS: the template's response-headers
/// policies hold this very Content-Security-Policy (with the documents
/// bucket's address) and caching.
#[test]
fn the_template_sends_the_same_headers_on_aws() {
    let template = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../template.yaml")).unwrap();
    let csp = headers::content_security_policy("https://${DocumentsBucket.RegionalDomainName}");
    assert!(template.contains(&format!("ContentSecurityPolicy: !Sub \"{csp}\"")), "template.yaml lacks the CSP {csp}");
    for value in [headers::IMMUTABLE, headers::REVALIDATE, "no-store", headers::REFERRER_POLICY] {
        assert!(
            template.contains(&format!("Value: \"{value}\"")) || template.contains(&format!("ReferrerPolicy: {value}")),
            "template.yaml lacks {value}"
        );
    }
    assert!(template.contains("FrameOption: DENY"));
    assert!(template.contains("ContentTypeOptions:"));
}

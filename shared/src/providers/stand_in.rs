//! The local stand-in of the providers' APIs, served on loopback by the local
//! gateway (under `/local/providers`) and by the tests: deterministic
//! answers, state in memory, and a script of failures for tests.
//!
//! - Signing (Verified, under `/verified`): see [`verified`], in the
//!   shapes of Verified's published API description.
//! - Credit: a company number starting `55` is `ready` at once; any other
//!   number is `pending` when ordered and `ready` on the first fetch. The
//!   rating and payment remarks follow the number's digits.
//! - Inkasso: an application is `pending` when submitted (the same one for
//!   the same `Idempotency-Key`) and decided at the first status read:
//!   `rejected` when its approved IP is in 203.0.113.0/24 (TEST-NET-3),
//!   else `approved` with a creditor id and hash. A claim (under an approved
//!   creditor's id as bearer) is `registered`, and each status read after
//!   the first moves it one step on: `reminder_sent`, `collection`, `paid`,
//!   `closed`.
//! - Contract check: `GET /kontrakto/` is the page the screen links out to.
//! - Meeting: a room is `room-<n>` with the link
//!   `https://meet.example.test/room-<n>` (the same one for the same
//!   `Idempotency-Key`); cancelling marks it cancelled (twice is no error).
//! - `POST /_script {"fail": "timeout"|"5xx"|"429"|"malformed", "times": n,
//!   "delay_ms": ms, "after": k}`: after `k` calls (default 0) the next `n`
//!   provider calls fail that way (a timeout
//!   answers after `delay_ms`, default 3000; a 429 says `Retry-After: 1`).
//! - [`StandIn::kept_in`]: the state is loaded from a file and saved there
//!   after every call (a temporary file renamed over it), so a meeting
//!   booked before a restart can still be cancelled and a new one never
//!   gets its room (the local gateway keeps it beside the AWS stand-in's
//!   saved state when `PERSIST=1`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::credit::{CreditAnswer, ReportBody};
use super::inkasso::{ClaimAnswer, NewClaim, ProspectAnswer, CLAIM_STATUSES};

#[path = "stand_in_verified.rs"]
pub mod verified;
use crate::domain::addons::InkassoAccount;

#[derive(Default)]
struct Script {
    fail: String,
    times: u32,
    delay_ms: u64,
    /// Calls answered normally before the failures start.
    after: u32,
}

#[derive(Default, Serialize, Deserialize)]
struct Inner {
    #[serde(skip)]
    script: Script,
    /// Verified's accounts, tokens and envelopes.
    #[serde(default)]
    verified: verified::VState,
    /// The path the stand-in is mounted under (its URLs for uploads and files).
    #[serde(skip)]
    prefix: String,
    /// idempotency key → report, prospect, claim or room id
    keys: HashMap<String, String>,
    reports: HashMap<String, CreditAnswer>,
    /// prospect id → (the decision it gets at the first read, decided yet)
    prospects: HashMap<String, (ProspectAnswer, bool)>,
    /// claim id → (creditor id, step in `CLAIM_STATUSES`, read yet)
    claims: HashMap<String, (String, usize, bool)>,
    /// room id → cancelled
    rooms: HashMap<String, bool>,
    #[serde(skip)]
    calls: u64,
    /// Where the state is kept between runs (none: memory only).
    #[serde(skip)]
    file: Option<std::path::PathBuf>,
}

impl Inner {
    /// Writes the state to its file, if it has one: a temporary file renamed
    /// over it, so a stop in the middle leaves the previous state whole.
    fn save(&self) {
        let Some(path) = &self.file else { return };
        let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
        let written = serde_json::to_vec(self)
            .map_err(std::io::Error::other)
            .and_then(|bytes| std::fs::write(&tmp, bytes))
            .and_then(|_| std::fs::rename(&tmp, path));
        if let Err(e) = written {
            tracing::warn!(path = %path.display(), error = %e, "providers' stand-in: state NOT saved");
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

#[derive(Clone, Default)]
pub struct StandIn(Arc<Mutex<Inner>>);

impl StandIn {
    fn with<T>(&self, f: impl FnOnce(&mut Inner) -> T) -> T {
        let mut g = self.0.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut g)
    }

    /// The same stand-in mounted under `prefix` (`/local/providers` in the gateway).
    pub fn at_prefix(self, prefix: &str) -> StandIn {
        self.with(|i| i.prefix = prefix.trim_end_matches('/').to_string());
        self
    }

    fn prefix(&self) -> String {
        self.with(|i| i.prefix.clone())
    }

    /// Provider calls answered so far (not counting `/_script`).
    pub fn calls(&self) -> u64 {
        self.with(|i| i.calls)
    }

    /// The stand-in with the state saved in `path` (empty when there is none
    /// or it does not read), saving there after every call.
    pub fn kept_in(path: &std::path::Path) -> StandIn {
        let mut inner = match std::fs::read(path) {
            Ok(bytes) => serde_json::from_slice::<Inner>(&bytes).unwrap_or_else(|e| {
                tracing::warn!(path = %path.display(), error = %e, "providers' stand-in: state does not read; starting empty");
                Inner::default()
            }),
            Err(_) => Inner::default(),
        };
        inner.file = Some(path.to_path_buf());
        StandIn(Arc::new(Mutex::new(inner)))
    }
}

/// The stand-in's routes (mount them under a prefix with `nest`).
pub fn router() -> Router {
    router_with(StandIn::default())
}

pub fn router_with(state: StandIn) -> Router {
    let verified = verified::routes().layer(middleware::from_fn_with_state(state.clone(), recorded));
    Router::new()
        .nest("/verified", verified)
        .route("/bisnode/reports", post(order))
        .route("/bisnode/reports/{id}", get(fetch))
        .route("/inkasso/prospects", post(apply))
        .route("/inkasso/prospects/{id}", get(prospect))
        .route("/inkasso/claims", post(register_claim))
        .route("/inkasso/claims/{id}", get(claim))
        .route("/kontrakto/", get(kontrakto))
        .route("/meeting/rooms", post(create_room))
        .route("/meeting/rooms/{id}/cancel", post(cancel_room))
        .layer(middleware::from_fn_with_state(state.clone(), scripted))
        .route("/_script", post(script))
        .with_state(state)
}

/// Serves the stand-in on a free loopback port: its base URL (tests).
pub async fn serve_on_loopback() -> (String, StandIn) {
    serve_state(StandIn::default()).await
}

async fn serve_state(state: StandIn) -> (String, StandIn) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind the provider stand-in");
    let addr = listener.local_addr().expect("stand-in address");
    let app = router_with(state.clone());
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (format!("http://{addr}"), state)
}

#[derive(Deserialize)]
struct ScriptForm {
    fail: String,
    #[serde(default = "one")]
    times: u32,
    #[serde(default)]
    delay_ms: u64,
    #[serde(default)]
    after: u32,
}

fn one() -> u32 {
    1
}

async fn script(State(s): State<StandIn>, Json(f): Json<ScriptForm>) -> StatusCode {
    s.with(|i| {
        i.script = Script { fail: f.fail, times: f.times, delay_ms: if f.delay_ms == 0 { 3000 } else { f.delay_ms }, after: f.after }
    });
    StatusCode::NO_CONTENT
}

async fn scripted(State(s): State<StandIn>, req: Request, next: Next) -> Response {
    let fail = s.with(|i| {
        i.calls += 1;
        if i.script.times > 0 && i.script.after > 0 {
            i.script.after -= 1;
            None
        } else if i.script.times > 0 {
            i.script.times -= 1;
            Some((i.script.fail.clone(), i.script.delay_ms))
        } else {
            None
        }
    });
    match fail {
        Some((kind, delay)) if kind == "timeout" => {
            tokio::time::sleep(Duration::from_millis(delay)).await;
            (StatusCode::GATEWAY_TIMEOUT, "late").into_response()
        }
        Some((kind, _)) if kind == "429" => {
            (StatusCode::TOO_MANY_REQUESTS, [("retry-after", "1")], Json(json!({"code": 429, "message": "slow down"}))).into_response()
        }
        Some((kind, _)) if kind == "malformed" => {
            (StatusCode::OK, [("content-type", "application/json")], "{\"id\": 12, \"stat").into_response()
        }
        Some(_) => (StatusCode::SERVICE_UNAVAILABLE, Json(json!({"error": "unavailable"}))).into_response(),
        None => {
            let answer = next.run(req).await;
            // Reads move the state on too (an envelope's signers, a claim's steps).
            s.with(|i| i.save());
            answer
        }
    }
}

/// Records each request to Verified's copy (not the upload and signing
/// URLs it hands out, nor its test-only `sign-all`) for the contract tests.
async fn recorded(State(s): State<StandIn>, req: Request, next: Next) -> Response {
    let (parts, body) = req.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, 16 * 1024 * 1024).await else { return StatusCode::PAYLOAD_TOO_LARGE.into_response() };
    let path = parts.uri.path().to_string();
    if !path.starts_with("/_") && !path.ends_with("/sign-all") {
        verified::record(&s, &parts.method, &path, &parts.headers, &bytes);
    }
    next.run(Request::from_parts(parts, axum::body::Body::from(bytes))).await
}

fn bearer(h: &HeaderMap) -> String {
    h.get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer ")).unwrap_or_default().to_string()
}

fn idem(h: &HeaderMap) -> Option<String> {
    h.get("idempotency-key").and_then(|v| v.to_str().ok()).map(str::to_string)
}

fn unauthorized() -> Response {
    (StatusCode::UNAUTHORIZED, Json(json!({"error": "invalid token"}))).into_response()
}

/// A one-page PDF saying which envelope was signed.
pub fn signed_pdf_bytes(id: &str) -> Vec<u8> {
    format!("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\n% signed envelope {id}\ntrailer<</Root 1 0 R>>\n%%EOF\n").into_bytes()
}

fn report_of(kind: &str, number: &str) -> ReportBody {
    let digits: Vec<u32> = number.chars().filter_map(|c| c.to_digit(10)).collect();
    let sum: u32 = digits.iter().sum();
    let rating = ["AAA", "AA", "A", "B", "C"][(sum % 5) as usize];
    ReportBody {
        name: if kind == "person" { format!("Person {number}") } else { format!("Företag {number} AB") },
        rating: rating.into(),
        payment_remarks: sum % 3,
        turnover: (kind != "person").then(|| i64::from(sum) * 1_250_000),
    }
}

async fn order(State(s): State<StandIn>, h: HeaderMap, Json(v): Json<Value>) -> Response {
    let kind = v["kind"].as_str().unwrap_or("company").to_string();
    let number = v["number"].as_str().unwrap_or_default().to_string();
    if number.is_empty() {
        return (StatusCode::UNPROCESSABLE_ENTITY, Json(json!({"error": "number"}))).into_response();
    }
    s.with(|i| {
        if let Some(id) = idem(&h).and_then(|k| i.keys.get(&k).cloned()) {
            return Json(i.reports[&id].clone()).into_response();
        }
        let id = format!("rep-{}", i.reports.len() + 1);
        let ready = kind == "company" && number.starts_with("55");
        let answer = CreditAnswer {
            id: id.clone(),
            status: if ready { "ready" } else { "pending" }.into(),
            report: ready.then(|| report_of(&kind, &number)),
        };
        // A pending one is ready at the next fetch.
        let later = CreditAnswer { id: id.clone(), status: "ready".into(), report: Some(report_of(&kind, &number)) };
        i.reports.insert(id.clone(), later);
        if let Some(k) = idem(&h) {
            i.keys.insert(k, id);
        }
        Json(answer).into_response()
    })
}

async fn fetch(State(s): State<StandIn>, Path(id): Path<String>) -> Response {
    match s.with(|i| i.reports.get(&id).cloned()) {
        Some(a) => Json(a).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn apply(State(s): State<StandIn>, h: HeaderMap, Json(a): Json<InkassoAccount>) -> Response {
    if a.organization_number.trim().is_empty() {
        return (StatusCode::UNPROCESSABLE_ENTITY, Json(json!({"error": "organization_number"}))).into_response();
    }
    s.with(|i| {
        let key = idem(&h).map(|k| format!("prospect:{k}"));
        if let Some(id) = key.as_ref().and_then(|k| i.keys.get(k).cloned()) {
            let (decided, read) = &i.prospects[&id];
            return Json(if *read { decided.clone() } else { pending(&id) }).into_response();
        }
        let id = format!("pros-{}", i.prospects.len() + 1);
        let rejected = a.approved_ip.trim().starts_with("203.0.113.");
        let decided = if rejected {
            ProspectAnswer { id: id.clone(), state: "rejected".into(), creditor_id: None, creditor_hash: None }
        } else {
            ProspectAnswer {
                id: id.clone(),
                state: "approved".into(),
                creditor_id: Some(format!("cred-{}", i.prospects.len() + 1)),
                creditor_hash: Some(creditor_hash(&a.organization_number, &id)),
            }
        };
        i.prospects.insert(id.clone(), (decided, false));
        if let Some(k) = key {
            i.keys.insert(k, id.clone());
        }
        Json(pending(&id)).into_response()
    })
}

fn pending(id: &str) -> ProspectAnswer {
    ProspectAnswer { id: id.to_string(), state: "pending".into(), creditor_id: None, creditor_hash: None }
}

/// A stable hash of the organisation number and the application.
fn creditor_hash(org: &str, id: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(format!("{org}:{id}").as_bytes()).iter().take(16).map(|b| format!("{b:02x}")).collect()
}

async fn prospect(State(s): State<StandIn>, Path(id): Path<String>) -> Response {
    s.with(|i| match i.prospects.get_mut(&id) {
        Some((decided, read)) => {
            *read = true;
            Json(decided.clone()).into_response()
        }
        None => StatusCode::NOT_FOUND.into_response(),
    })
}

fn creditor_known(i: &Inner, creditor: &str) -> bool {
    !creditor.is_empty() && i.prospects.values().any(|(p, _)| p.creditor_id.as_deref() == Some(creditor))
}

async fn register_claim(State(s): State<StandIn>, h: HeaderMap, Json(c): Json<NewClaim>) -> Response {
    let creditor = bearer(&h);
    if c.amount <= 0 || c.invoice_url.is_empty() {
        return (StatusCode::UNPROCESSABLE_ENTITY, Json(json!({"error": "amount and invoice"}))).into_response();
    }
    s.with(|i| {
        if !creditor_known(i, &creditor) {
            return unauthorized();
        }
        let key = idem(&h).map(|k| format!("claim:{k}"));
        if let Some(id) = key.as_ref().and_then(|k| i.keys.get(k).cloned()) {
            return Json(ClaimAnswer { id: id.clone(), status: CLAIM_STATUSES[i.claims[&id].1].into() }).into_response();
        }
        let id = format!("claim-{}", i.claims.len() + 1);
        i.claims.insert(id.clone(), (creditor, 0, false));
        if let Some(k) = key {
            i.keys.insert(k, id.clone());
        }
        Json(ClaimAnswer { id, status: CLAIM_STATUSES[0].into() }).into_response()
    })
}

async fn claim(State(s): State<StandIn>, h: HeaderMap, Path(id): Path<String>) -> Response {
    let creditor = bearer(&h);
    s.with(|i| match i.claims.get_mut(&id) {
        Some((owner, step, read)) if *owner == creditor => {
            // The first read tells what was registered; each later one a step on.
            if *read {
                *step = (*step + 1).min(CLAIM_STATUSES.len() - 1);
            }
            *read = true;
            Json(ClaimAnswer { id: id.clone(), status: CLAIM_STATUSES[*step].into() }).into_response()
        }
        Some(_) => unauthorized(),
        None => StatusCode::NOT_FOUND.into_response(),
    })
}

async fn kontrakto() -> Response {
    axum::response::Html(
        "<!doctype html><html lang=\"sv\"><head><meta charset=\"utf-8\"><title>Avtalskollen</title></head>\
         <body><h1>Avtalskollen</h1><p>Kontraktsgranskning (lokal ersättare) · Contract check (local stand-in)</p></body></html>",
    )
    .into_response()
}

async fn create_room(State(s): State<StandIn>, h: HeaderMap, Json(v): Json<Value>) -> Response {
    if v["title"].as_str().is_none_or(str::is_empty) || v["minutes"].as_u64().is_none() {
        return (StatusCode::UNPROCESSABLE_ENTITY, Json(json!({"error": "title and minutes"}))).into_response();
    }
    s.with(|i| {
        let key = idem(&h).map(|k| format!("room:{k}"));
        let id = match key.as_ref().and_then(|k| i.keys.get(k).cloned()) {
            Some(id) => id,
            None => {
                let id = format!("room-{}", i.rooms.len() + 1);
                i.rooms.insert(id.clone(), false);
                if let Some(k) = key {
                    i.keys.insert(k, id.clone());
                }
                id
            }
        };
        Json(json!({"id": id, "url": format!("https://meet.example.test/{id}")})).into_response()
    })
}

async fn cancel_room(State(s): State<StandIn>, Path(id): Path<String>) -> Response {
    s.with(|i| match i.rooms.get_mut(&id) {
        Some(cancelled) => {
            *cancelled = true;
            Json(json!({})).into_response()
        }
        None => StatusCode::NOT_FOUND.into_response(),
    })
}

impl StandIn {
    /// Rooms made so far and how many of them are cancelled (tests).
    pub fn rooms(&self) -> (usize, usize) {
        self.with(|i| (i.rooms.len(), i.rooms.values().filter(|c| **c).count()))
    }
}

#[cfg(test)]
mod kept {
    use super::*;

    #[tokio::test]
    async fn a_kept_stand_in_remembers_rooms_across_a_restart() {
        let dir = std::env::temp_dir().join(format!("providers-stand-in-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.providers.json");
        let client = |base: &str| super::super::http::JsonClient::new(base, "", super::super::http::Limits::default());
        let (base, _) = serve_state(StandIn::kept_in(&path)).await;
        let room: Value = client(&base)
            .json(hyper::Method::POST, "/meeting/rooms", Some(&json!({"title": "Möte", "minutes": 30})), None, Some("k1"))
            .await
            .unwrap();
        assert_eq!(room["id"], "room-1");
        // Restarted: the booked room is known (cancelling it works) and a new one gets another id.
        let (again, kept) = serve_state(StandIn::kept_in(&path)).await;
        client(&again).send(hyper::Method::POST, "/meeting/rooms/room-1/cancel", None, None, Some("c1")).await.unwrap();
        assert_eq!(kept.rooms(), (1, 1));
        let next: Value = client(&again)
            .json(hyper::Method::POST, "/meeting/rooms", Some(&json!({"title": "Möte", "minutes": 30})), None, Some("k2"))
            .await
            .unwrap();
        assert_eq!(next["id"], "room-2");
        assert!(std::fs::read_dir(&dir).unwrap().all(|e| !e.unwrap().file_name().to_string_lossy().contains("tmp-")));
        // Memory only: a fresh stand-in knows nothing of it.
        let (fresh, _) = serve_on_loopback().await;
        assert!(client(&fresh).send(hyper::Method::POST, "/meeting/rooms/room-1/cancel", None, None, Some("c2")).await.is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::super::http::{JsonClient, Limits, ProviderError};
    use super::super::signing::{HttpSigning, Session, Signing};
    use super::*;

    fn quick() -> Limits {
        Limits { timeout: Duration::from_millis(300), attempts: 2, backoff: Duration::from_millis(10) }
    }

    async fn scripted_failure(base: &str, fail: &str, times: u32) {
        let c = JsonClient::new(base, "", quick());
        c.send(hyper::Method::POST, "/_script", Some(&json!({"fail": fail, "times": times, "delay_ms": 1000})), None, None).await.unwrap();
    }

    fn verified(base: &str) -> HttpSigning {
        HttpSigning::new(JsonClient::new(&format!("{base}/verified"), "", quick()))
    }

    fn recipient(n: u32, role: &str) -> crate::domain::addons::Recipient {
        crate::domain::addons::Recipient {
            name: format!("Anna {n} Berg"),
            email: format!("r{n}@example.com"),
            phone: "+46 70 123 45 67".into(),
            locale: if n == 1 { "en".into() } else { "sv".into() },
            role: role.into(),
            notify_sms: n == 1,
            require_auth: false,
            sign_method: "bankid_se".into(),
            signed: false,
        }
    }

    #[tokio::test]
    async fn the_client_retries_within_bounds_and_maps_failures() {
        let (base, stand_in) = serve_on_loopback().await;
        let s = verified(&base);
        let token = s.auth("a@example.com", "secret-1").await.unwrap();
        assert_eq!(s.auth("a@example.com", "wrong").await, Err(ProviderError::Refused(401)));
        let session = Session { token, company_id: "c1".into() };
        assert!(s.check(&session).await.unwrap());
        // One 5xx is retried away; two are the answer.
        scripted_failure(&base, "5xx", 1).await;
        assert!(s.check(&session).await.unwrap());
        scripted_failure(&base, "5xx", 2).await;
        assert_eq!(s.check(&session).await, Err(ProviderError::Unavailable));
        scripted_failure(&base, "timeout", 2).await;
        assert_eq!(s.check(&session).await, Err(ProviderError::Timeout));
        scripted_failure(&base, "malformed", 1).await;
        assert_eq!(s.status(&session, "nope").await, Err(ProviderError::BadAnswer));
        // A 429's Retry-After (1 s) is waited for when it fits the budget, else given up at once.
        scripted_failure(&base, "429", 1).await;
        let patient =
            HttpSigning::new(JsonClient::new(&format!("{base}/verified"), "", Limits { timeout: Duration::from_secs(1), ..quick() }));
        let started = std::time::Instant::now();
        assert!(patient.check(&session).await.unwrap());
        assert!(started.elapsed() >= Duration::from_secs(1));
        scripted_failure(&base, "429", 1).await;
        assert_eq!(s.check(&session).await, Err(ProviderError::Unavailable));
        // The create call is never sent twice: its answer is the only way to know the envelope.
        let before = stand_in.calls();
        scripted_failure(&base, "5xx", 1).await;
        assert_eq!(s.create(&session).await, Err(ProviderError::Unavailable));
        assert_eq!(stand_in.calls() - before, 1);
        assert_eq!(stand_in.verified_envelopes(), 0);
        // Unknown envelopes are 404; another company's namespace is 403.
        assert_eq!(s.status(&session, "env-none").await, Err(ProviderError::Refused(404)));
        let other = Session { company_id: "c2".into(), ..session.clone() };
        assert_eq!(s.create(&other).await, Err(ProviderError::Refused(403)));
        // An expired token is refused with 401.
        stand_in.verified_token_ttl(-1);
        let old = Session { token: s.auth("a@example.com", "secret-1").await.unwrap(), company_id: "c1".into() };
        assert_eq!(s.create(&old).await, Err(ProviderError::Refused(401)));
        let errors = crate::providers::contract::Verified::new().check_all(&stand_in.verified_requests());
        assert!(errors.is_empty(), "{errors:#?}");
    }

    #[tokio::test]
    async fn an_envelope_is_made_in_steps_and_signed_as_the_description_says() {
        let (base, stand_in) = serve_on_loopback().await;
        let s = verified(&base);
        let session = Session { token: s.auth("a@example.com", "secret-1").await.unwrap(), company_id: "c1".into() };
        assert!(s.check(&session).await.unwrap());
        let id = s.create(&session).await.unwrap();
        s.settings(&session, &id, true).await.unwrap();
        let doc = s.add_document(&session, &id, "avtal.pdf").await.unwrap();
        let slot = s.add_file(&session, &id, &doc, "avtal.pdf").await.unwrap();
        assert_eq!(s.upload(&slot.url, b"not a pdf".to_vec()).await, Err(ProviderError::Refused(400)));
        s.upload(&slot.url, signed_pdf_bytes("x")).await.unwrap();
        assert_eq!(s.documents(&session, &id).await.unwrap(), vec![(doc.clone(), "avtal.pdf".to_string())]);
        let r1 = s.add_recipient(&session, &id, &recipient(1, "signer"), 1).await.unwrap();
        let r2 = s.add_recipient(&session, &id, &recipient(2, "viewer"), 2).await.unwrap();
        let listed = s.recipients(&session, &id).await.unwrap();
        assert_eq!(listed, vec![(r1.clone(), "r1@example.com".to_string()), (r2.clone(), "r2@example.com".to_string())]);
        assert_eq!(s.status(&session, &id).await.unwrap().state(), "sent");
        s.publish(&session, &id).await.unwrap();
        s.remind(&session, &id, &r1).await.unwrap();
        assert_eq!(stand_in.verified_notifications(&id), 1);
        let link = s.sign_link(&session, &id, &r1, "http://127.0.0.1/back").await.unwrap();
        assert!(link.contains(&r1));
        // Not signed yet: only the uploaded file.
        assert_eq!(s.signed_pdf(&session, &id, &doc, &slot.file_id).await, Err(ProviderError::BadAnswer));
        // One read signs the signer (the viewer does not sign); the next shows it completed.
        assert_eq!(s.status(&session, &id).await.unwrap().state(), "sent");
        let flags = s.status(&session, &id).await.unwrap();
        assert!(flags.published && flags.completed);
        let pdf = s.signed_pdf(&session, &id, &doc, &slot.file_id).await.unwrap();
        assert!(pdf.starts_with(b"%PDF-"));
        assert_eq!(s.abort(&session, &id).await, Err(ProviderError::Refused(409)));
        let id2 = s.create(&session).await.unwrap();
        s.abort(&session, &id2).await.unwrap();
        assert_eq!(s.status(&session, &id2).await.unwrap().state(), "cancelled");
        // Every request the adapter sent is one the description has.
        let requests = stand_in.verified_requests();
        assert!(requests.len() >= 15);
        let errors = crate::providers::contract::Verified::new().check_all(&requests);
        assert!(errors.is_empty(), "{errors:#?}");
    }

    #[tokio::test]
    async fn a_retried_room_request_makes_one_room() {
        use super::super::meeting::{HttpMeetingRooms, MeetingRooms};
        let (base, stand_in) = serve_on_loopback().await;
        let rooms = HttpMeetingRooms(JsonClient::new(&base, "", quick()));
        let start = chrono::Utc::now();
        // A 5xx on the first attempt: the retry carries the same key.
        scripted_failure(&base, "5xx", 1).await;
        let a = rooms.create_room("booking-1", "2026-1 Avtal", start, 30).await.unwrap();
        let again = rooms.create_room("booking-1", "2026-1 Avtal", start, 30).await.unwrap();
        assert_eq!(a, again);
        assert!(a.url.starts_with("https://meet.example.test/room-"));
        let b = rooms.create_room("booking-2", "2026-1 Avtal", start, 30).await.unwrap();
        assert_ne!(a.id, b.id);
        assert_eq!(stand_in.rooms(), (2, 0));
        rooms.cancel_room(&a.id).await.unwrap();
        rooms.cancel_room(&a.id).await.unwrap();
        assert_eq!(stand_in.rooms(), (2, 1));
        scripted_failure(&base, "malformed", 1).await;
        assert_eq!(rooms.create_room("booking-3", "x", start, 30).await, Err(ProviderError::BadAnswer));
    }
}

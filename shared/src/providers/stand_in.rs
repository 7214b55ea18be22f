//! The local stand-in of the providers' APIs, served on loopback by the local
//! gateway (under `/local/providers`) and by the tests: deterministic
//! answers, state in memory, and a script of failures for tests.
//!
//! - Signing (Verified, under `/verified`): see [`verified`], in the
//!   shapes of Verified's published API description.
//! - Credit (D&B Direct+, under `/dnb`, in the shapes its documentation
//!   shows): `POST /v2/token` with Basic `<key>:<secret>` (a key or secret
//!   with `wrong` in it is 401) answers a token valid for
//!   [`StandIn::dnb_token_ttl`] seconds (default 86400); an unknown or
//!   expired token is 401. `cleanseMatch` with `countryISOAlpha2Code=SE`
//!   and a ten-digit `registrationNumber` answers one candidate with
//!   confidence 10 and a D-U-N-S number of its own; a number starting `99`
//!   matches nothing (404). `data/duns/<duns>` answers the blocks asked for
//!   of a matched number: its name, Nordic AAA rating, payment remarks and
//!   turnover follow the number's digits.
//! - Contract check: `GET /kontrakto/` is the page the screen links out to.
//! - Meeting (Whereby, under `/whereby/v1`, in the shapes of its published
//!   description): `POST /meetings` with a bearer key and a future
//!   `endDate` answers 201 with meeting `<n>` and its `roomUrl`
//!   `https://meet.example.test/<roomNamePrefix><uuid>`; `DELETE
//!   /meetings/<n>` answers 204 (again too), an unknown meeting 404. No
//!   bearer, or a key with `wrong` in it, is 401; a body without a valid
//!   future `endDate` 400; a scripted 429 has Whereby's throttle body.
//! - BankID (under `/bankid`, the Relying Party API v6): see [`bankid`].
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

#[path = "stand_in_bankid.rs"]
pub mod bankid;
#[path = "stand_in_verified.rs"]
pub mod verified;

/// The API key the local gateway and the tests give the stand-in's
/// providers (Whereby's copy refuses a call without one).
pub const API_KEY: &str = "local-stand-in";

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
    /// D&B: D-U-N-S number → the registration number it was matched from.
    #[serde(default)]
    duns: HashMap<String, String>,
    /// D&B tokens → when they run out (unix seconds).
    #[serde(default)]
    dnb_tokens: HashMap<String, i64>,
    /// D&B's token lifetime in seconds (0: the default 86400).
    #[serde(skip)]
    dnb_ttl: i64,
    /// Whereby meeting id → deleted
    rooms: HashMap<String, bool>,
    /// The requests to Whereby's and D&B's copies, for the contract tests.
    #[serde(skip)]
    whereby: Vec<verified::Request>,
    #[serde(skip)]
    dnb: Vec<verified::Request>,
    #[serde(skip)]
    calls: u64,
    /// BankID's orders (minutes long: not kept across a restart).
    #[serde(skip)]
    bankid: bankid::BState,
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
    let whereby = Router::new()
        .route("/meetings", post(create_room))
        .route("/meetings/{id}", axum::routing::delete(delete_room))
        .layer(middleware::from_fn_with_state(state.clone(), recorded_whereby));
    let dnb = Router::new()
        .route("/v2/token", post(dnb_token))
        .route("/v1/match/cleanseMatch", get(dnb_match))
        .route("/v1/data/duns/{duns}", get(dnb_blocks))
        .layer(middleware::from_fn_with_state(state.clone(), recorded_dnb));
    Router::new()
        .nest("/verified", verified)
        .nest("/dnb", dnb)
        .route("/kontrakto/", get(kontrakto))
        .nest("/whereby/v1", whereby)
        .nest("/bankid", bankid::routes())
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
        Some((kind, _)) if kind == "429" && req.uri().path().starts_with("/whereby/") => {
            let body = json!({"error": "Rate limit active for throttle key: organization:1", "data": {"msLeft": 1000}});
            (StatusCode::TOO_MANY_REQUESTS, [("retry-after", "1")], Json(body)).into_response()
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
            // Reads move the state on too (an envelope's signers).
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

/// Records each request to Whereby's copy for the contract tests.
async fn recorded_whereby(State(s): State<StandIn>, req: Request, next: Next) -> Response {
    record_into(s, req, next, |i| &mut i.whereby).await
}

/// Records each request to D&B's copy for the contract tests.
async fn recorded_dnb(State(s): State<StandIn>, req: Request, next: Next) -> Response {
    record_into(s, req, next, |i| &mut i.dnb).await
}

/// Keeps the request (its path with the query) in `list` (the last 1000).
async fn record_into(s: StandIn, req: Request, next: Next, list: fn(&mut Inner) -> &mut Vec<verified::Request>) -> Response {
    let (parts, body) = req.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, 1024 * 1024).await else { return StatusCode::PAYLOAD_TOO_LARGE.into_response() };
    let headers = parts.headers.iter().map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or_default().to_string())).collect();
    let body = (!bytes.is_empty()).then(|| serde_json::from_slice(&bytes).unwrap_or(Value::String("<not json>".into())));
    let path = parts.uri.path_and_query().map_or_else(|| parts.uri.path().to_string(), |p| p.as_str().to_string());
    let r = verified::Request { method: parts.method.to_string(), path, headers, body };
    s.with(|i| {
        let l = list(i);
        if l.len() >= 1000 {
            l.remove(0);
        }
        l.push(r);
    });
    next.run(Request::from_parts(parts, axum::body::Body::from(bytes))).await
}

fn bearer(h: &HeaderMap) -> String {
    h.get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer ")).unwrap_or_default().to_string()
}

/// A one-page PDF saying which envelope was signed.
pub fn signed_pdf_bytes(id: &str) -> Vec<u8> {
    format!("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\n% signed envelope {id}\ntrailer<</Root 1 0 R>>\n%%EOF\n").into_bytes()
}

fn dnb_error(status: StatusCode, code: &str, message: &str) -> Response {
    let body = json!({"transactionDetail": {"transactionID": "stand-in", "inLanguage": "en-US"}, "error": {"errorCode": code, "errorMessage": message}});
    (status, Json(body)).into_response()
}

/// A valid D&B bearer token of the request.
fn dnb_authorized(i: &Inner, h: &HeaderMap) -> bool {
    let token = bearer(h);
    i.dnb_tokens.get(&token).is_some_and(|until| *until > chrono::Utc::now().timestamp())
}

async fn dnb_token(State(s): State<StandIn>, h: HeaderMap, body: axum::body::Bytes) -> Response {
    use base64::Engine;
    let basic = h.get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Basic ")).unwrap_or_default();
    let decoded = base64::engine::general_purpose::STANDARD.decode(basic.trim()).ok().and_then(|b| String::from_utf8(b).ok());
    let ok = decoded.as_deref().and_then(|d| d.split_once(':')).is_some_and(|(k, p)| !k.is_empty() && !p.is_empty() && !d_wrong(k, p));
    if !ok {
        return dnb_error(StatusCode::UNAUTHORIZED, "00040", "Invalid credentials");
    }
    let grant = serde_json::from_slice::<Value>(&body).ok().and_then(|v| v["grant_type"].as_str().map(str::to_string));
    if grant.as_deref() != Some("client_credentials") {
        return dnb_error(StatusCode::BAD_REQUEST, "00041", "grant_type must be client_credentials");
    }
    s.with(|i| {
        let ttl = if i.dnb_ttl == 0 { 86_400 } else { i.dnb_ttl };
        let token = format!("dnb-{}", uuid::Uuid::new_v4().simple());
        i.dnb_tokens.retain(|_, until| *until > chrono::Utc::now().timestamp());
        i.dnb_tokens.insert(token.clone(), chrono::Utc::now().timestamp() + ttl);
        Json(json!({"access_token": token, "expiresIn": ttl})).into_response()
    })
}

fn d_wrong(key: &str, secret: &str) -> bool {
    key.contains("wrong") || secret.contains("wrong")
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct MatchQuery {
    #[serde(default, rename = "countryISOAlpha2Code")]
    country: String,
    #[serde(default)]
    registration_number: String,
}

/// The stand-in's D-U-N-S number for a registration number (nine digits).
fn duns_of(number: &str) -> String {
    use sha2::{Digest, Sha256};
    let n = Sha256::digest(number.as_bytes()).iter().take(4).fold(0u64, |a, b| a * 256 + u64::from(*b));
    format!("35{:07}", n % 10_000_000)
}

async fn dnb_match(State(s): State<StandIn>, h: HeaderMap, axum::extract::Query(q): axum::extract::Query<MatchQuery>) -> Response {
    if !s.with(|i| dnb_authorized(i, &h)) {
        return dnb_error(StatusCode::UNAUTHORIZED, "00004", "Invalid or expired token");
    }
    if q.country.len() != 2 {
        return dnb_error(StatusCode::BAD_REQUEST, "10001", "countryISOAlpha2Code is required");
    }
    let digits = q.registration_number;
    if q.country != "SE" || digits.len() != 10 || !digits.chars().all(|c| c.is_ascii_digit()) || digits.starts_with("99") {
        return dnb_error(StatusCode::NOT_FOUND, "20502", "No match found for the given input criteria");
    }
    let duns = duns_of(&digits);
    s.with(|i| i.duns.insert(duns.clone(), digits.clone()));
    Json(json!({
        "transactionDetail": {"transactionID": "stand-in", "inLanguage": "en-US"},
        "inquiryDetail": {"registrationNumber": digits, "countryISOAlpha2Code": "SE"},
        "candidatesMatchedQuantity": 1,
        "matchCandidates": [{
            "displaySequence": 1,
            "organization": {"duns": duns, "primaryName": format!("Företag {digits} AB"), "countryISOAlpha2Code": "SE"},
            "matchQualityInformation": {"confidenceCode": 10, "matchGrade": "AZZZZZZZFZZ"}
        }]
    }))
    .into_response()
}

#[derive(Deserialize)]
struct BlocksQuery {
    #[serde(default, rename = "blockIDs")]
    block_ids: String,
}

async fn dnb_blocks(
    State(s): State<StandIn>,
    h: HeaderMap,
    Path(duns): Path<String>,
    axum::extract::Query(q): axum::extract::Query<BlocksQuery>,
) -> Response {
    let (authorized, number) = s.with(|i| (dnb_authorized(i, &h), i.duns.get(&duns).cloned()));
    if !authorized {
        return dnb_error(StatusCode::UNAUTHORIZED, "00004", "Invalid or expired token");
    }
    if q.block_ids.trim().is_empty() {
        return dnb_error(StatusCode::BAD_REQUEST, "10001", "blockIDs is required");
    }
    let Some(number) = number else { return dnb_error(StatusCode::NOT_FOUND, "40105", "D-U-N-S number not found") };
    let digits: Vec<u32> = number.chars().filter_map(|c| c.to_digit(10)).collect();
    let sum: u32 = digits.iter().sum();
    let blocks: Vec<&str> = q.block_ids.split(',').map(str::trim).collect();
    let mut org = json!({"duns": duns, "primaryName": format!("Företag {number} AB"), "countryISOAlpha2Code": "SE"});
    if blocks.iter().any(|b| b.starts_with("companyinfo_")) {
        org["financials"] = json!([{"yearlyRevenue": [{"value": i64::from(sum) * 1_250_000, "currency": "SEK"}]}]);
    }
    if blocks.iter().any(|b| b.starts_with("financialstrengthinsight_")) {
        let segment = sum % 5 + 1;
        org["dnbAssessment"] = json!({
            "standardRating": {"rating": "--"},
            "nordicAAARating": {"rating": format!("A{segment}"), "riskSegment": {"description": segment.to_string()}}
        });
    }
    if blocks.iter().any(|b| b.starts_with("paymentinsight_")) {
        org["businessTrading"] = json!([{"summary": [{"negativePaymentsCount": sum % 3}]}]);
    }
    let status: Vec<Value> = blocks.iter().map(|b| json!({"blockID": b, "status": "ok", "reason": null})).collect();
    Json(json!({
        "transactionDetail": {"transactionID": "stand-in", "inLanguage": "en-US"},
        "inquiryDetail": {"duns": duns, "blockIDs": blocks},
        "blockStatus": status,
        "organization": org
    }))
    .into_response()
}

async fn kontrakto() -> Response {
    axum::response::Html(
        "<!doctype html><html lang=\"sv\"><head><meta charset=\"utf-8\"><title>Avtalskollen</title></head>\
         <body><h1>Avtalskollen</h1><p>Kontraktsgranskning (lokal ersättare) · Contract check (local stand-in)</p></body></html>",
    )
    .into_response()
}

/// Whereby's answer to a missing or refused API key.
fn whereby_key_ok(h: &HeaderMap) -> bool {
    let key = bearer(h);
    !key.trim().is_empty() && !key.contains("wrong")
}

fn whereby_error(status: StatusCode, error: &str) -> Response {
    (status, Json(json!({"error": error}))).into_response()
}

/// The meeting as Whereby answers it.
fn whereby_meeting(id: &str, prefix: &str, end: &str) -> Value {
    use sha2::{Digest, Sha256};
    let h: String = Sha256::digest(format!("meeting:{id}").as_bytes()).iter().take(16).map(|b| format!("{b:02x}")).collect();
    let room = format!("/{prefix}{}-{}-{}-{}-{}", &h[..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32]);
    json!({"meetingId": id, "roomName": room, "roomUrl": format!("https://meet.example.test{room}"), "startDate": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true), "endDate": end})
}

async fn create_room(State(s): State<StandIn>, h: HeaderMap, body: axum::body::Bytes) -> Response {
    if !whereby_key_ok(&h) {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    let Ok(v) = serde_json::from_slice::<Value>(&body) else { return whereby_error(StatusCode::BAD_REQUEST, "Invalid JSON") };
    let end = v["endDate"].as_str().and_then(|d| chrono::DateTime::parse_from_rfc3339(d).ok());
    let Some(end) = end.filter(|e| *e >= chrono::Utc::now()) else {
        return whereby_error(StatusCode::BAD_REQUEST, "endDate must be a date-time at or after now");
    };
    let prefix = v["roomNamePrefix"].as_str().unwrap_or_default();
    if prefix.len() > 39 || !prefix.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()) {
        return whereby_error(StatusCode::BAD_REQUEST, "roomNamePrefix");
    }
    let end = end.with_timezone(&chrono::Utc).to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    s.with(|i| {
        let id = (i.rooms.len() + 1).to_string();
        i.rooms.insert(id.clone(), false);
        (StatusCode::CREATED, Json(whereby_meeting(&id, prefix, &end))).into_response()
    })
}

async fn delete_room(State(s): State<StandIn>, h: HeaderMap, Path(id): Path<String>) -> Response {
    if !whereby_key_ok(&h) {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    s.with(|i| match i.rooms.get_mut(&id) {
        Some(deleted) => {
            *deleted = true;
            StatusCode::NO_CONTENT.into_response()
        }
        None => StatusCode::NOT_FOUND.into_response(),
    })
}

impl StandIn {
    /// Rooms made so far and how many of them are deleted (tests).
    pub fn rooms(&self) -> (usize, usize) {
        self.with(|i| (i.rooms.len(), i.rooms.values().filter(|c| **c).count()))
    }

    /// The requests Whereby's copy received (contract tests).
    pub fn whereby_requests(&self) -> Vec<verified::Request> {
        self.with(|i| i.whereby.clone())
    }

    /// The requests D&B's copy received (contract tests).
    pub fn dnb_requests(&self) -> Vec<verified::Request> {
        self.with(|i| i.dnb.clone())
    }

    /// D&B's tokens from now on are valid this many seconds (tests).
    pub fn dnb_token_ttl(&self, secs: i64) {
        self.with(|i| i.dnb_ttl = secs);
    }

    /// Every D&B token issued so far runs out now (tests).
    pub fn dnb_expire_tokens(&self) {
        self.with(|i| i.dnb_tokens.clear());
    }
}

#[cfg(test)]
mod kept {
    use super::*;

    #[tokio::test]
    async fn a_kept_stand_in_remembers_rooms_across_a_restart() {
        use super::super::meeting::{MeetingRooms, Whereby};
        let dir = std::env::temp_dir().join(format!("providers-stand-in-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.providers.json");
        let rooms = |base: &str| Whereby {
            client: super::super::http::JsonClient::new(&format!("{base}/whereby/v1"), "", super::super::http::Limits::default()),
            api_key: API_KEY.into(),
        };
        let start = chrono::Utc::now() + chrono::Duration::hours(1);
        let (base, _) = serve_state(StandIn::kept_in(&path)).await;
        let room = rooms(&base).create_room("k1", "Möte", start, 30).await.unwrap();
        assert_eq!(room.id, "1");
        // Restarted: the booked room is known (deleting it is recorded) and a new one gets another id.
        let (again, kept) = serve_state(StandIn::kept_in(&path)).await;
        rooms(&again).cancel_room("1").await.unwrap();
        assert_eq!(kept.rooms(), (1, 1));
        assert_eq!(rooms(&again).create_room("k2", "Möte", start, 30).await.unwrap().id, "2");
        assert!(std::fs::read_dir(&dir).unwrap().all(|e| !e.unwrap().file_name().to_string_lossy().contains("tmp-")));
        // Memory only: a fresh stand-in knows nothing of it.
        let (_, fresh) = serve_on_loopback().await;
        assert_eq!(fresh.rooms(), (0, 0));
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
    async fn rooms_are_made_and_deleted_as_the_whereby_description_says() {
        use super::super::meeting::{MeetingRooms, Whereby};
        let (base, stand_in) = serve_on_loopback().await;
        let whereby = |key: &str| Whereby { client: JsonClient::new(&format!("{base}/whereby/v1"), "", quick()), api_key: key.into() };
        let rooms = whereby(API_KEY);
        let start = chrono::Utc::now() + chrono::Duration::hours(2);
        let a = rooms.create_room("0a1b2c3d", "2026-1 Avtal", start, 30).await.unwrap();
        assert!(a.url.starts_with("https://meet.example.test/0a1b2c3d"), "{a:?}");
        let b = rooms.create_room("0a1b2c3e", "2026-1 Avtal", start, 30).await.unwrap();
        assert_ne!((&a.id, &a.url), (&b.id, &b.url));
        // A create is sent once: a 5xx (or a 429) is the answer, and no room is made.
        let before = stand_in.calls();
        scripted_failure(&base, "5xx", 1).await;
        assert_eq!(rooms.create_room("k3", "x", start, 30).await, Err(ProviderError::Unavailable));
        assert_eq!((stand_in.calls() - before, stand_in.rooms()), (1, (2, 0)));
        // Deleting is idempotent, so retried; a deleted or unknown meeting is deleted.
        scripted_failure(&base, "5xx", 1).await;
        rooms.cancel_room(&a.id).await.unwrap();
        rooms.cancel_room(&a.id).await.unwrap();
        rooms.cancel_room("999").await.unwrap();
        assert_eq!(stand_in.rooms(), (2, 1));
        // A throttled delete waits for Retry-After only within the budget.
        scripted_failure(&base, "429", 1).await;
        assert_eq!(rooms.cancel_room(&b.id).await, Err(ProviderError::Unavailable));
        // Refused keys, an end in the past, a malformed answer.
        assert_eq!(whereby("wrong-key").create_room("k4", "x", start, 30).await, Err(ProviderError::Refused(401)));
        assert_eq!(whereby("").cancel_room(&b.id).await, Err(ProviderError::Refused(401)));
        let past = chrono::Utc::now() - chrono::Duration::hours(3);
        assert_eq!(rooms.create_room("k5", "x", past, 30).await, Err(ProviderError::Refused(400)));
        scripted_failure(&base, "malformed", 1).await;
        assert_eq!(rooms.create_room("k6", "x", start, 30).await, Err(ProviderError::BadAnswer));
        // The requests with a key are the description's (the refused ones lack it on purpose).
        let sent: Vec<_> = stand_in
            .whereby_requests()
            .into_iter()
            .filter(|r| r.headers.iter().any(|(k, v)| k == "authorization" && v.contains(API_KEY)))
            .collect();
        assert!(sent.len() >= 6, "{sent:#?}");
        let errors = crate::providers::contract::OpenApi::whereby().check_all(&sent);
        assert!(errors.is_empty(), "{errors:#?}");
    }

    #[tokio::test]
    async fn credit_reports_come_from_direct_plus_as_its_documentation_says() {
        use super::super::credit::{Credit, DirectPlus};
        let (base, stand_in) = serve_on_loopback().await;
        let dnb = |credentials: &str| DirectPlus::new(JsonClient::new(&format!("{base}/dnb"), "", quick()), credentials);
        let tokens = || stand_in.dnb_requests().iter().filter(|r| r.path == "/v2/token").count();
        let credit = dnb("key-1:secret-1");
        let a = credit.order("acc", "k1", "company", "556000-0001").await.unwrap();
        assert_eq!(a.status, "ready");
        assert!(super::super::credit::is_duns(&a.id), "{a:?}");
        let report = a.report.clone().unwrap();
        assert_eq!(report.name, "Företag 5560000001 AB");
        assert!(["AAA", "AA", "A", "B", "C"].contains(&report.rating.as_str()), "{report:?}");
        assert_eq!(report.turnover, Some(17 * 1_250_000));
        // The token is kept: a second lookup and a fetch ask for none.
        assert_eq!(credit.fetch("acc", &a.id).await.unwrap(), a);
        credit.order("acc", "k2", "person", "121212-1212").await.unwrap();
        assert_eq!(tokens(), 1);
        // Ran out at D&B before its time: the 401 renews it once.
        stand_in.dnb_expire_tokens();
        assert_eq!(credit.fetch("acc", &a.id).await.unwrap(), a);
        assert_eq!(tokens(), 2);
        // A token about to run out is renewed before it is used.
        stand_in.dnb_token_ttl(30);
        let short = dnb("key-1:secret-1");
        short.fetch("acc", &a.id).await.unwrap();
        short.fetch("acc", &a.id).await.unwrap();
        assert_eq!(tokens(), 4);
        // No match, an unknown D-U-N-S, refused credentials, a 5xx retried away, a malformed answer.
        assert_eq!(credit.order("acc", "k3", "company", "990000-0001").await, Err(ProviderError::Refused(404)));
        assert_eq!(credit.fetch("acc", "123456789").await, Err(ProviderError::Refused(404)));
        assert_eq!(dnb("key-1:wrong").order("acc", "k4", "company", "556000-0001").await, Err(ProviderError::Refused(401)));
        scripted_failure(&base, "5xx", 1).await;
        assert_eq!(credit.fetch("acc", &a.id).await.unwrap(), a);
        scripted_failure(&base, "malformed", 1).await;
        assert_eq!(credit.fetch("acc", &a.id).await, Err(ProviderError::BadAnswer));
        // Every request with credentials is the description's.
        let sent = stand_in.dnb_requests();
        assert!(sent.len() >= 12, "{sent:#?}");
        let errors = crate::providers::contract::OpenApi::direct_plus().check_all(&sent);
        assert!(errors.is_empty(), "{errors:#?}");
    }
}

//! BankID's copy in the providers' stand-in (under `/bankid`): the Relying
//! Party API v6 in its documented shapes, plain HTTP on loopback (the real
//! service wants mutual TLS).
//!
//! - `POST /rp/v6.0/auth` (JSON, a valid `endUserIp`, `userVisibleData` in
//!   base64 if given) answers `orderRef`, `autoStartToken`, `qrStartToken`,
//!   `qrStartSecret` (UUIDs). Anything else is 400 `invalidParameters`; a
//!   body that is not JSON is 415 (as the service).
//! - `POST /rp/v6.0/collect` `{orderRef}`: each call moves the order one
//!   step along its path of pending hint codes, then answers its end:
//!   `complete` with `completionData` (user, device, issue date, signature,
//!   OCSP response) or `failed` with its hint code, again on every later
//!   call. An unknown orderRef is 400 `invalidParameters`.
//! - `POST /rp/v6.0/cancel` `{orderRef}` answers `{}` and forgets the order.
//! - The path of the next orders is scripted by `POST /bankid/_next`
//!   `{"personalNumber", "name", "hints": [...], "end": "complete" | a
//!   failure hint code, "error": "alreadyInProgress" | …}` (a queue; each
//!   auth takes one). Without a script an order goes `outstandingTransaction`,
//!   `started`, `userSign`, then completes for [`DEFAULT_PERSON`].

use std::collections::{HashMap, VecDeque};

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::StandIn;

/// The person an unscripted order completes for.
pub const DEFAULT_PERSON: &str = "199001012385";

/// One order's path, as scripted.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Path {
    #[serde(default = "default_person")]
    pub personal_number: String,
    #[serde(default = "default_name")]
    pub name: String,
    #[serde(default = "default_hints")]
    pub hints: Vec<String>,
    /// `complete`, or the hint code of a failure.
    #[serde(default = "complete")]
    pub end: String,
    /// An error code `auth` answers instead of starting (400).
    #[serde(default)]
    pub error: Option<String>,
}

fn default_person() -> String {
    DEFAULT_PERSON.into()
}
fn default_name() -> String {
    "Test Testsson".into()
}
fn default_hints() -> Vec<String> {
    ["outstandingTransaction", "started", "userSign"].map(String::from).to_vec()
}
fn complete() -> String {
    "complete".into()
}

impl Default for Path {
    fn default() -> Self {
        Path { personal_number: default_person(), name: default_name(), hints: default_hints(), end: complete(), error: None }
    }
}

#[derive(Clone, Debug)]
struct Order {
    path: Path,
    /// Collects answered so far.
    step: usize,
    end_user_ip: String,
}

#[derive(Default)]
pub struct BState {
    next: VecDeque<Path>,
    orders: HashMap<String, Order>,
    /// How many auth calls were answered (for tests).
    pub auths: u64,
    /// How many cancel calls were answered.
    pub cancels: u64,
}

pub fn routes() -> Router<StandIn> {
    Router::new()
        .route("/rp/v6.0/auth", post(auth))
        .route("/rp/v6.0/collect", post(collect))
        .route("/rp/v6.0/cancel", post(cancel))
        .route("/_next", post(next))
}

fn refused(code: &str, details: &str) -> Response {
    (StatusCode::BAD_REQUEST, Json(json!({"errorCode": code, "details": details}))).into_response()
}

/// The JSON body, or the service's answer to a request without one.
fn json_body(h: &HeaderMap, body: &[u8]) -> Result<Value, Box<Response>> {
    let json = h.get("content-type").and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("application/json"));
    if !json {
        let body = Json(json!({"errorCode": "unsupportedMediaType", "details": "Content-Type"}));
        return Err(Box::new((StatusCode::UNSUPPORTED_MEDIA_TYPE, body).into_response()));
    }
    serde_json::from_slice(body).map_err(|_| Box::new(refused("invalidParameters", "Invalid JSON")))
}

fn order_ref_of(v: &Value) -> Option<String> {
    v.get("orderRef").and_then(Value::as_str).map(str::to_string)
}

async fn auth(State(s): State<StandIn>, h: HeaderMap, body: axum::body::Bytes) -> Response {
    let v = match json_body(&h, &body) {
        Ok(v) => v,
        Err(r) => return *r,
    };
    let Some(ip) = v.get("endUserIp").and_then(Value::as_str).filter(|ip| ip.parse::<std::net::IpAddr>().is_ok()) else {
        return refused("invalidParameters", "Invalid endUserIp");
    };
    if let Some(data) = v.get("userVisibleData") {
        let ok = data.as_str().is_some_and(|d| d.len() <= 1500 && base64::engine::general_purpose::STANDARD.decode(d).is_ok());
        if !ok {
            return refused("invalidParameters", "Invalid userVisibleData");
        }
    }
    let path = s.with(|i| {
        i.bankid.auths += 1;
        i.bankid.next.pop_front().unwrap_or_default()
    });
    if let Some(code) = &path.error {
        return refused(code, "Scripted refusal");
    }
    let id = || uuid::Uuid::new_v4().to_string();
    let (order_ref, auto, qr_token, qr_secret) = (id(), id(), id(), id());
    s.with(|i| i.bankid.orders.insert(order_ref.clone(), Order { path, step: 0, end_user_ip: ip.to_string() }));
    Json(json!({"orderRef": order_ref, "autoStartToken": auto, "qrStartToken": qr_token, "qrStartSecret": qr_secret})).into_response()
}

async fn collect(State(s): State<StandIn>, h: HeaderMap, body: axum::body::Bytes) -> Response {
    let v = match json_body(&h, &body) {
        Ok(v) => v,
        Err(r) => return *r,
    };
    let Some(order_ref) = order_ref_of(&v) else { return refused("invalidParameters", "Invalid orderRef") };
    let Some(order) = s.with(|i| {
        let o = i.bankid.orders.get_mut(&order_ref)?;
        o.step += 1;
        Some(o.clone())
    }) else {
        return refused("invalidParameters", "No such order");
    };
    let p = &order.path;
    if order.step <= p.hints.len() {
        return Json(json!({"orderRef": order_ref, "status": "pending", "hintCode": p.hints[order.step - 1]})).into_response();
    }
    if p.end != "complete" {
        return Json(json!({"orderRef": order_ref, "status": "failed", "hintCode": p.end})).into_response();
    }
    let (given, surname) = p.name.split_once(' ').unwrap_or((&p.name, ""));
    let b64 = |t: &str| base64::engine::general_purpose::STANDARD.encode(t);
    Json(json!({
        "orderRef": order_ref,
        "status": "complete",
        "completionData": {
            "user": {"personalNumber": p.personal_number, "name": p.name, "givenName": given, "surname": surname},
            "device": {"ipAddress": order.end_user_ip, "uhi": "OZvYM9VvyiAmG7NA5jU5zqGcVpo="},
            "bankIdIssueDate": "2024-01-01",
            "stepUp": {"mrtd": false},
            "signature": b64("<Signature>stand-in</Signature>"),
            "ocspResponse": b64("stand-in OCSP response"),
        }
    }))
    .into_response()
}

async fn cancel(State(s): State<StandIn>, h: HeaderMap, body: axum::body::Bytes) -> Response {
    let v = match json_body(&h, &body) {
        Ok(v) => v,
        Err(r) => return *r,
    };
    let Some(order_ref) = order_ref_of(&v) else { return refused("invalidParameters", "Invalid orderRef") };
    let known = s.with(|i| {
        i.bankid.cancels += 1;
        i.bankid.orders.remove(&order_ref).is_some()
    });
    if known {
        Json(json!({})).into_response()
    } else {
        refused("invalidParameters", "No such order")
    }
}

/// Queues the path of the next order (test hook, not part of BankID's API).
async fn next(State(s): State<StandIn>, Json(p): Json<Path>) -> StatusCode {
    s.with(|i| i.bankid.next.push_back(p));
    StatusCode::NO_CONTENT
}

impl StandIn {
    /// Queues the path of the next BankID order.
    pub fn bankid_next(&self, path: Path) {
        self.with(|i| i.bankid.next.push_back(path));
    }

    /// BankID `auth` and `cancel` calls answered so far.
    pub fn bankid_calls(&self) -> (u64, u64) {
        self.with(|i| (i.bankid.auths, i.bankid.cancels))
    }
}

//! The stand-in's copy of Verified's API (under `/verified`), in the shapes
//! of its published connector definition (`shared/contracts/verified/`):
//!
//! - `POST /auth` with Basic credentials: a JWT-shaped token (its payload's
//!   `exp` [`VState::token_ttl_secs`] ahead). An unknown user is taken as a
//!   new account (password at least 6 characters), a known one needs its
//!   password (else 401); a password with `wrong` in it is always refused.
//!   An expired or unknown token is answered 401.
//! - `GET /companies/<id>`: the account's company (an account belongs to
//!   the first company it asks for; another one is 403).
//! - Envelopes (`x-namespace: /companies/<id>` required): created from a
//!   descriptor (`201 {uid}`), documents and recipients answered with a
//!   `Location`, a file's answer carries an upload `url` (a PUT there
//!   stores the PDF), published by `publish-status`. Once published, each
//!   `GET /envelopes/<id>` signs the next recipient who signs or reviews
//!   (seen at the next read); with all signed the envelope is `completed`
//!   and each document gets a signed file (its `url` gives a PDF).
//!   `POST …/sign-all` (the stand-in's own, for tests and the demo) signs
//!   all at once. `abort-status` aborts; jobs `send.notification` and
//!   `get.sign.link` answer as described. Unknown ids are 404.
//! - Every request under `/verified` is recorded ([`Request`]) for the
//!   contract tests.

use std::collections::HashMap;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::StandIn;

/// One request as the stand-in received it (contract tests).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Request {
    pub method: String,
    /// The path under the API's base (`/envelopes/…`).
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<Value>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct File {
    id: String,
    name: String,
    uploaded: bool,
    signed: bool,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Doc {
    id: String,
    name: String,
    files: Vec<File>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Rec {
    id: String,
    email: String,
    action: String,
    body: Value,
    signed: bool,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Envelope {
    company: String,
    published: bool,
    completed: bool,
    aborted: bool,
    sequential: bool,
    documents: Vec<Doc>,
    recipients: Vec<Rec>,
    notifications: u32,
}

/// Verified's side of the stand-in's state.
#[derive(Default, Serialize, Deserialize)]
pub struct VState {
    /// username → (password, company once asked for)
    accounts: HashMap<String, (String, Option<String>)>,
    /// token → (username, expiry in unix seconds)
    tokens: HashMap<String, (String, i64)>,
    envelopes: HashMap<String, Envelope>,
    next: u64,
    /// How long a token lasts (seconds; 0: an hour; negative: born expired).
    #[serde(default)]
    pub token_ttl_secs: i64,
    #[serde(skip)]
    pub requests: Vec<Request>,
}

/// At most this many requests are recorded (the oldest go first).
const MAX_RECORDED: usize = 2000;

impl VState {
    fn id(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{:06x}{:x}", self.next, rand::random::<u32>())
    }
}

pub fn routes() -> Router<StandIn> {
    Router::new()
        .route("/auth", post(auth))
        .route("/companies/{id}", get(company))
        .route("/envelope-descriptors/{descriptor}/envelopes", post(create))
        .route("/envelopes/{id}", get(envelope).put(settings))
        .route("/envelopes/{id}/documents", get(documents).post(add_document))
        .route("/envelopes/{id}/documents/{doc}/files", get(files).post(add_file))
        .route("/envelopes/{id}/recipients", get(recipients).post(add_recipient))
        .route("/envelopes/{id}/publish-status", put(publish))
        .route("/envelopes/{id}/abort-status", put(abort))
        .route("/envelopes/{id}/jobs/send.notification", post(notify))
        .route("/envelopes/{id}/jobs/get.sign.link", post(sign_link))
        .route("/envelopes/{id}/sign-all", post(sign_all))
        .route("/_files/{id}/{doc}/{file}", put(upload).get(download))
        .route("/_sign/{id}/{recipient}", get(sign_page))
}

/// Records a request (called by the stand-in's middleware for `/verified`).
pub fn record(s: &StandIn, method: &Method, path: &str, headers: &HeaderMap, body: &[u8]) {
    let headers = headers.iter().map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or_default().to_string())).collect();
    let body = if body.is_empty() { None } else { Some(serde_json::from_slice(body).unwrap_or(Value::String("<not json>".into()))) };
    let r = Request { method: method.to_string(), path: path.to_string(), headers, body };
    s.with(|i| {
        if i.verified.requests.len() >= MAX_RECORDED {
            i.verified.requests.remove(0);
        }
        i.verified.requests.push(r);
    });
}

fn error(status: StatusCode, message: &str) -> Response {
    (status, Json(json!({"code": status.as_u16(), "message": message}))).into_response()
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// The user of a valid `authorization: JWT <token>`.
fn user_of(st: &VState, h: &HeaderMap) -> Result<String, Box<Response>> {
    let token = h.get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("JWT ")).unwrap_or_default();
    match st.tokens.get(token) {
        Some((user, exp)) if *exp > now() => Ok(user.clone()),
        Some(_) => Err(Box::new(error(StatusCode::UNAUTHORIZED, "token expired"))),
        None => Err(Box::new(error(StatusCode::UNAUTHORIZED, "invalid token"))),
    }
}

/// The user and the company of `x-namespace`, which must be the user's.
fn company_of(st: &VState, h: &HeaderMap) -> Result<String, Box<Response>> {
    let user = user_of(st, h)?;
    let ns = h.get("x-namespace").and_then(|v| v.to_str().ok()).unwrap_or_default();
    let Some(company) = ns.strip_prefix("/companies/").filter(|c| !c.is_empty() && !c.contains('/')) else {
        return Err(Box::new(error(StatusCode::BAD_REQUEST, "x-namespace")));
    };
    match &st.accounts.get(&user).and_then(|a| a.1.clone()) {
        Some(c) if c == company => Ok(company.to_string()),
        _ => Err(Box::new(error(StatusCode::FORBIDDEN, "not this company's"))),
    }
}

/// The envelope `id` of the caller's company.
fn with_envelope<T>(s: &StandIn, h: &HeaderMap, id: &str, f: impl FnOnce(&mut Envelope, &mut VState) -> T) -> Result<T, Box<Response>> {
    s.with(|i| {
        let company = company_of(&i.verified, h)?;
        let mut e = match i.verified.envelopes.get(id) {
            Some(e) if e.company == company => e.clone(),
            _ => return Err(Box::new(error(StatusCode::NOT_FOUND, "envelope"))),
        };
        let out = f(&mut e, &mut i.verified);
        i.verified.envelopes.insert(id.to_string(), e);
        Ok(out)
    })
}

fn answer(r: Result<Response, Box<Response>>) -> Response {
    r.unwrap_or_else(|e| *e)
}

/// The API's base URL as the caller reached it (for upload and file URLs);
/// read before [`StandIn::with`] (its lock is not reentrant).
fn base_of(s: &StandIn, h: &HeaderMap) -> String {
    let host = h.get("host").and_then(|v| v.to_str().ok()).unwrap_or("127.0.0.1");
    format!("http://{host}{}/verified", s.prefix())
}

async fn auth(State(s): State<StandIn>, h: HeaderMap) -> Response {
    let basic = h.get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Basic ")).unwrap_or_default();
    let decoded = base64::engine::general_purpose::STANDARD.decode(basic.trim()).ok().and_then(|b| String::from_utf8(b).ok());
    let Some((user, password)) = decoded.as_deref().and_then(|d| d.split_once(':')) else {
        return error(StatusCode::UNAUTHORIZED, "basic credentials");
    };
    let user = user.to_ascii_lowercase();
    s.with(|i| {
        let st = &mut i.verified;
        match st.accounts.get(&user) {
            // A password with "wrong" in it is always refused (a failed login, scripted).
            _ if password.contains("wrong") => return error(StatusCode::UNAUTHORIZED, "wrong credentials"),
            Some((p, _)) if p != password => return error(StatusCode::UNAUTHORIZED, "wrong credentials"),
            Some(_) => {}
            None if password.len() < 6 || !user.contains('@') => return error(StatusCode::UNAUTHORIZED, "wrong credentials"),
            None => {
                st.accounts.insert(user.clone(), (password.to_string(), None));
            }
        }
        let ttl = if st.token_ttl_secs != 0 { st.token_ttl_secs } else { 3600 };
        let exp = now() + ttl;
        let enc = |v: Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
        let token =
            format!("{}.{}.{}", enc(json!({"alg": "none", "typ": "JWT"})), enc(json!({"sub": user, "exp": exp, "n": st.next})), st.id("s"));
        st.tokens.insert(token.clone(), (user, exp));
        Json(json!({"token": token})).into_response()
    })
}

async fn company(State(s): State<StandIn>, h: HeaderMap, Path(id): Path<String>) -> Response {
    s.with(|i| {
        let st = &mut i.verified;
        let user = match user_of(st, &h) {
            Ok(u) => u,
            Err(r) => return *r,
        };
        let account = st.accounts.get_mut(&user).expect("a token's account");
        match &account.1 {
            Some(c) if *c != id => error(StatusCode::FORBIDDEN, "not this company's"),
            _ => {
                account.1 = Some(id.clone());
                Json(json!({"id": id, "uid": id, "name": format!("Company {id}")})).into_response()
            }
        }
    })
}

async fn create(State(s): State<StandIn>, h: HeaderMap, Path(_descriptor): Path<String>) -> Response {
    s.with(|i| {
        let company = match company_of(&i.verified, &h) {
            Ok(c) => c,
            Err(r) => return *r,
        };
        let uid = i.verified.id("env");
        i.verified.envelopes.insert(uid.clone(), Envelope { company, ..Default::default() });
        (StatusCode::CREATED, Json(json!({"uid": uid}))).into_response()
    })
}

fn envelope_json(id: &str, e: &Envelope) -> Value {
    json!({
        "id": id, "uid": id, "published": e.published, "completed": e.completed, "aborted": e.aborted,
        "trashed": false, "expired": false, "sequentialSigning": e.sequential,
        "documents": e.documents.iter().map(|d| json!({"id": d.id, "uid": d.id, "name": d.name, "signed": e.completed})).collect::<Vec<_>>(),
        "recipients": e.recipients.iter().map(recipient_json).collect::<Vec<_>>(),
    })
}

fn recipient_json(r: &Rec) -> Value {
    let mut v = r.body.clone();
    v["id"] = r.id.clone().into();
    v["uid"] = r.id.clone().into();
    v
}

fn complete_if_signed(e: &mut Envelope) {
    if e.published && !e.aborted && e.recipients.iter().filter(|r| r.action != "copy").all(|r| r.signed) {
        e.completed = true;
        for d in &mut e.documents {
            if !d.files.iter().any(|f| f.signed) {
                let id = format!("{}-signed", d.id);
                d.files.push(File { id, name: format!("{}-signed.pdf", d.name.trim_end_matches(".pdf")), uploaded: true, signed: true });
            }
        }
    }
}

async fn envelope(State(s): State<StandIn>, h: HeaderMap, Path(id): Path<String>) -> Response {
    answer(with_envelope(&s, &h, &id, |e, _| {
        let out = Json(envelope_json(&id, e)).into_response();
        // The next one signs, seen at the next read.
        if e.published && !e.completed && !e.aborted {
            if let Some(r) = e.recipients.iter_mut().find(|r| !r.signed && r.action != "copy") {
                r.signed = true;
            }
            complete_if_signed(e);
        }
        out
    }))
}

async fn sign_all(State(s): State<StandIn>, h: HeaderMap, Path(id): Path<String>) -> Response {
    answer(with_envelope(&s, &h, &id, |e, _| {
        if e.published && !e.aborted {
            e.recipients.iter_mut().for_each(|r| r.signed = true);
            complete_if_signed(e);
        }
        Json(envelope_json(&id, e)).into_response()
    }))
}

async fn settings(State(s): State<StandIn>, h: HeaderMap, Path(id): Path<String>, Json(v): Json<Value>) -> Response {
    answer(with_envelope(&s, &h, &id, |e, _| {
        if let Some(seq) = v["sequentialSigning"].as_bool() {
            e.sequential = seq;
        }
        StatusCode::ACCEPTED.into_response()
    }))
}

async fn documents(State(s): State<StandIn>, h: HeaderMap, Path(id): Path<String>) -> Response {
    answer(with_envelope(&s, &h, &id, |e, _| {
        Json(e.documents.iter().map(|d| json!({"id": d.id, "uid": d.id, "name": d.name})).collect::<Vec<_>>()).into_response()
    }))
}

fn draft_only(e: &Envelope) -> Option<Response> {
    (e.published || e.aborted).then(|| error(StatusCode::CONFLICT, "published"))
}

async fn add_document(State(s): State<StandIn>, h: HeaderMap, Path(id): Path<String>, Json(v): Json<Value>) -> Response {
    let Some(name) = v["name"].as_str().filter(|n| !n.is_empty()).map(str::to_string) else {
        return error(StatusCode::BAD_REQUEST, "name");
    };
    let base = base_of(&s, &h);
    answer(with_envelope(&s, &h, &id, |e, st| {
        if let Some(r) = draft_only(e) {
            return r;
        }
        let doc = st.id("doc");
        e.documents.push(Doc { id: doc.clone(), name, files: Vec::new() });
        let location = format!("{base}/envelopes/{id}/documents/{doc}");
        (StatusCode::OK, [("location", location)], Json(json!({}))).into_response()
    }))
}

fn file_json(base: &str, id: &str, doc: &str, f: &File) -> Value {
    json!({"id": f.id, "uid": f.id, "name": f.name, "fileType": if f.signed { "signed-document" } else { "document" },
        "url": format!("{base}/_files/{id}/{doc}/{}", f.id)})
}

async fn files(State(s): State<StandIn>, h: HeaderMap, Path((id, doc)): Path<(String, String)>) -> Response {
    let base = base_of(&s, &h);
    answer(with_envelope(&s, &h, &id, |e, _| match e.documents.iter().find(|d| d.id == doc) {
        Some(d) => Json(d.files.iter().filter(|f| f.uploaded).map(|f| file_json(&base, &id, &doc, f)).collect::<Vec<_>>()).into_response(),
        None => error(StatusCode::NOT_FOUND, "document"),
    }))
}

async fn add_file(State(s): State<StandIn>, h: HeaderMap, Path((id, doc)): Path<(String, String)>, Json(v): Json<Value>) -> Response {
    let (Some(name), Some(_)) = (v["name"].as_str(), v["fileType"].as_str()) else {
        return error(StatusCode::BAD_REQUEST, "name and fileType");
    };
    let base = base_of(&s, &h);
    answer(with_envelope(&s, &h, &id, |e, st| {
        if let Some(r) = draft_only(e) {
            return r;
        }
        let file = File { id: st.id("file"), name: name.to_string(), uploaded: false, signed: false };
        let Some(d) = e.documents.iter_mut().find(|d| d.id == doc) else { return error(StatusCode::NOT_FOUND, "document") };
        let out = file_json(&base, &id, &doc, &file);
        d.files.push(file);
        Json(out).into_response()
    }))
}

/// The upload URL: the PDF is kept as "uploaded" (the bytes are not kept).
async fn upload(State(s): State<StandIn>, Path((id, doc, file)): Path<(String, String, String)>, body: axum::body::Bytes) -> Response {
    if !body.starts_with(b"%PDF-") {
        return error(StatusCode::BAD_REQUEST, "not a PDF");
    }
    s.with(|i| {
        let f = i
            .verified
            .envelopes
            .get_mut(&id)
            .and_then(|e| e.documents.iter_mut().find(|d| d.id == doc))
            .and_then(|d| d.files.iter_mut().find(|f| f.id == file));
        match f {
            Some(f) => {
                f.uploaded = true;
                StatusCode::OK.into_response()
            }
            None => error(StatusCode::NOT_FOUND, "file"),
        }
    })
}

/// A file's `url`: the signed one is a one-page PDF naming the envelope.
async fn download(State(s): State<StandIn>, Path((id, doc, file)): Path<(String, String, String)>) -> Response {
    let found = s.with(|i| {
        i.verified
            .envelopes
            .get(&id)
            .and_then(|e| e.documents.iter().find(|d| d.id == doc))
            .and_then(|d| d.files.iter().find(|f| f.id == file))
            .cloned()
    });
    match found {
        Some(f) if f.uploaded => ([("content-type", "application/pdf")], super::signed_pdf_bytes(&id)).into_response(),
        _ => error(StatusCode::NOT_FOUND, "file"),
    }
}

async fn recipients(State(s): State<StandIn>, h: HeaderMap, Path(id): Path<String>) -> Response {
    answer(with_envelope(&s, &h, &id, |e, _| Json(e.recipients.iter().map(recipient_json).collect::<Vec<_>>()).into_response()))
}

async fn add_recipient(State(s): State<StandIn>, h: HeaderMap, Path(id): Path<String>, Json(v): Json<Value>) -> Response {
    let required = ["givenName", "familyName", "language", "email", "signingMethod"];
    if required.iter().any(|k| v[k].as_str().is_none_or(str::is_empty)) || v["role"]["action"].as_str().is_none() {
        return error(StatusCode::BAD_REQUEST, "recipient");
    }
    let base = base_of(&s, &h);
    answer(with_envelope(&s, &h, &id, |e, st| {
        if let Some(r) = draft_only(e) {
            return r;
        }
        let rid = st.id("rec");
        let action = v["role"]["action"].as_str().unwrap_or_default().to_string();
        e.recipients.push(Rec {
            id: rid.clone(),
            email: v["email"].as_str().unwrap_or_default().to_string(),
            action,
            body: v.clone(),
            signed: false,
        });
        let location = format!("{base}/envelopes/{id}/recipients/{rid}");
        (StatusCode::OK, [("location", location)], Json(json!({}))).into_response()
    }))
}

async fn publish(State(s): State<StandIn>, h: HeaderMap, Path(id): Path<String>, Json(v): Json<Value>) -> Response {
    answer(with_envelope(&s, &h, &id, |e, _| {
        if e.aborted {
            return error(StatusCode::CONFLICT, "aborted");
        }
        let ready = !e.documents.is_empty() && e.documents.iter().all(|d| d.files.iter().any(|f| f.uploaded)) && !e.recipients.is_empty();
        if v["published"].as_bool() == Some(true) && !ready {
            return error(StatusCode::BAD_REQUEST, "documents and recipients first");
        }
        e.published = e.published || v["published"].as_bool() == Some(true);
        StatusCode::ACCEPTED.into_response()
    }))
}

async fn abort(State(s): State<StandIn>, h: HeaderMap, Path(id): Path<String>) -> Response {
    answer(with_envelope(&s, &h, &id, |e, _| {
        if e.completed {
            return error(StatusCode::CONFLICT, "completed");
        }
        e.aborted = true;
        StatusCode::ACCEPTED.into_response()
    }))
}

async fn notify(State(s): State<StandIn>, h: HeaderMap, Path(id): Path<String>, Json(v): Json<Value>) -> Response {
    let rid = v["recipient"]["id"].as_str().unwrap_or_default().to_string();
    answer(with_envelope(&s, &h, &id, |e, _| {
        if !e.published || e.completed || e.aborted {
            return error(StatusCode::CONFLICT, "not out for signing");
        }
        if !e.recipients.iter().any(|r| r.id == rid) {
            return error(StatusCode::NOT_FOUND, "recipient");
        }
        e.notifications += 1;
        StatusCode::ACCEPTED.into_response()
    }))
}

async fn sign_link(State(s): State<StandIn>, h: HeaderMap, Path(id): Path<String>, Json(v): Json<Value>) -> Response {
    let rid = v["recipient"]["id"].as_str().unwrap_or_default().to_string();
    let base = base_of(&s, &h);
    answer(with_envelope(&s, &h, &id, |e, _| {
        if !e.published || e.completed || e.aborted {
            return error(StatusCode::CONFLICT, "not out for signing");
        }
        if !e.recipients.iter().any(|r| r.id == rid) {
            return error(StatusCode::NOT_FOUND, "recipient");
        }
        let url = format!("{base}/_sign/{id}/{rid}");
        Json(json!({"getSignLink": {"recipient": {rid.clone(): {"url": url}}}})).into_response()
    }))
}

/// The signing page of the stand-in: opening it signs for the recipient.
async fn sign_page(State(s): State<StandIn>, Path((id, rid)): Path<(String, String)>) -> Response {
    let done = s.with(|i| {
        let Some(e) = i.verified.envelopes.get_mut(&id) else { return false };
        let Some(r) = e.recipients.iter_mut().find(|r| r.id == rid) else { return false };
        r.signed = true;
        complete_if_signed(e);
        true
    });
    if done {
        axum::response::Html("<!doctype html><html lang=\"sv\"><head><meta charset=\"utf-8\"><title>Signerat</title></head><body><p>Signerat · Signed (lokal ersättare)</p></body></html>").into_response()
    } else {
        error(StatusCode::NOT_FOUND, "recipient")
    }
}

impl StandIn {
    /// The requests Verified's stand-in received so far (contract tests).
    pub fn verified_requests(&self) -> Vec<Request> {
        self.with(|i| i.verified.requests.clone())
    }

    /// Notifications sent for an envelope (tests).
    pub fn verified_notifications(&self, id: &str) -> u32 {
        self.with(|i| i.verified.envelopes.get(id).map_or(0, |e| e.notifications))
    }

    /// Envelopes made so far (tests: a resumed send makes none).
    pub fn verified_envelopes(&self) -> usize {
        self.with(|i| i.verified.envelopes.len())
    }

    /// Tokens last this long from now on (tests of the renewal).
    pub fn verified_token_ttl(&self, secs: i64) {
        self.with(|i| i.verified.token_ttl_secs = secs);
    }
}

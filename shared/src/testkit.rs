//! Integration-test support: a fresh table, bucket and sender in the local
//! stand-in for every test, so tests never see each other's data.
//! The stand-in's address comes from `AWS_ENDPOINT_URL` (set by infra/test.sh).

use crate::api::AppState;
use crate::config::Config;
use crate::services::Context;

pub const TEST_JWT_SECRET: &str = "integration-test-secret-0123456789abcdef";

pub fn endpoint() -> String {
    std::env::var("AWS_ENDPOINT_URL")
        .expect("AWS_ENDPOINT_URL is not set: integration tests need the local AWS stand-in; run them with infra/test.sh")
}

/// Services on a brand-new table and bucket.
pub async fn services() -> AppState {
    services_with(None).await
}

/// [`services`] whose providers are a fresh stand-in on loopback:
/// the state and the stand-in's base URL (to script failures).
pub async fn services_with_stand_in() -> (AppState, String) {
    let (state, base, _) = services_with_stand_in_handle().await;
    (state, base)
}

fn quick_limits() -> crate::providers::http::Limits {
    crate::providers::http::Limits {
        timeout: std::time::Duration::from_millis(400),
        attempts: 2,
        backoff: std::time::Duration::from_millis(10),
    }
}

/// The stand-in's providers with SNS certificates from the test signer
/// (`providers::callback::test_signer`), so tests can post signed messages.
fn stand_in_providers(base: &str, limits: crate::providers::http::Limits) -> crate::providers::Providers {
    let mut p = crate::providers::Providers::http(base, crate::providers::stand_in::API_KEY, limits);
    p.sns.certs = std::sync::Arc::new(crate::providers::callback::test_signer::TestCerts);
    p
}

/// [`services_with_stand_in`] with the stand-in itself (its recorded
/// requests and counters).
pub async fn services_with_stand_in_handle() -> (AppState, String, crate::providers::stand_in::StandIn) {
    let (base, stand_in) = crate::providers::stand_in::serve_on_loopback().await;
    (services_with(Some(stand_in_providers(&base, quick_limits()))).await, base, stand_in)
}

/// [`services_with_stand_in`] with another collection-agency adapter (a test's own).
pub async fn services_with_inkasso(inkasso: std::sync::Arc<dyn crate::providers::inkasso::Inkasso>) -> (AppState, String) {
    let (base, _) = crate::providers::stand_in::serve_on_loopback().await;
    let mut p = stand_in_providers(&base, quick_limits());
    p.inkasso = inkasso;
    (services_with(Some(p)).await, base)
}

/// [`services_with_stand_in`] whose providers' client keeps `limits` (the
/// template's budgets, to test that they add up).
pub async fn services_with_stand_in_within(limits: crate::providers::http::Limits) -> (AppState, String) {
    let (base, _) = crate::providers::stand_in::serve_on_loopback().await;
    (services_with(Some(stand_in_providers(&base, limits))).await, base)
}

/// [`services`] that reach the stand-in through `endpoint` (a [`Proxy`]).
pub async fn services_at(endpoint: &str) -> AppState {
    services_at_with(endpoint, None).await
}

async fn services_with(providers: Option<crate::providers::Providers>) -> AppState {
    services_at_with(&endpoint(), providers).await
}

async fn services_at_with(endpoint: &str, providers: Option<crate::providers::Providers>) -> AppState {
    static ENV: std::sync::Once = std::sync::Once::new();
    ENV.call_once(|| {
        // The stand-in accepts any credentials; tests must never pick up real ones.
        for (k, v) in [("AWS_ACCESS_KEY_ID", "testing"), ("AWS_SECRET_ACCESS_KEY", "testing")] {
            if std::env::var(k).is_err() {
                std::env::set_var(k, v);
            }
        }
    });
    let id = uuid::Uuid::new_v4().simple().to_string();
    let config = Config {
        region: "eu-north-1".into(),
        table_name: format!("test-{id}"),
        documents_bucket: format!("test-{}", &id[..20]),
        ses_sender: "no-reply@example.com".into(),
        jwt_secret: TEST_JWT_SECRET.into(),
        web_origin: "http://127.0.0.1:3000".into(),
        endpoint_url: Some(endpoint.to_string()),
        local_outbox: true,
    };
    let state = match providers {
        Some(p) => Context::with_providers(config, None, p).await,
        None => Context::new(config, None).await,
    };
    state.store.ensure_table().await.expect("create table");
    state.files.ensure_bucket(&state.config.region).await.expect("create bucket");
    state.mail.ensure_sender().await.expect("verify sender");
    state
}

/// The DynamoDB operations a state made (`GetItem`, `BatchGetItem`, …,
/// one per attempt, in order), to hold a request to the calls it should
/// make: the stand-in answers one call at a time, so each one counts. Each
/// is timed from sending to its answer, so the calls that waited for one
/// another can be counted too ([`Trips::in_a_row`]).
#[derive(Clone, Debug, Default)]
pub struct Calls(std::sync::Arc<std::sync::Mutex<Log>>);

/// The requests since the last take; each take starts a new generation.
#[derive(Debug, Default)]
struct Log {
    generation: u64,
    trips: Vec<Trip>,
}

/// One DynamoDB request: its operation, when it was sent and answered.
#[derive(Clone, Debug)]
struct Trip {
    op: String,
    sent: std::time::Instant,
    answered: Option<std::time::Instant>,
}

/// What [`Calls::take_trips`] saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trips {
    /// The operations, in the order they were sent.
    pub ops: Vec<String>,
    /// DynamoDB round trips in a row: the longest chain of requests each
    /// sent after the one before was answered. Requests in flight together
    /// count once, so it says how many round trips a caller waits for,
    /// where timing would not (the stand-in serialises requests).
    pub in_a_row: usize,
}

/// Which [`Trip`] an SDK attempt is (kept in the attempt's config bag).
#[derive(Clone, Debug)]
struct TripIndex(u64, usize);

impl aws_smithy_types::config_bag::Storable for TripIndex {
    type Storer = aws_smithy_types::config_bag::StoreReplace<Self>;
}

impl Calls {
    /// The operations since the last `take`.
    pub fn take(&self) -> Vec<String> {
        self.take_trips().ops
    }

    /// The operations since the last `take`, and how many round trips in a row they made.
    pub fn take_trips(&self) -> Trips {
        let trips = {
            let mut log = self.0.lock().unwrap_or_else(|e| e.into_inner());
            log.generation += 1;
            std::mem::take(&mut log.trips)
        };
        let now = std::time::Instant::now();
        // Longest chain by start: chain[i] = 1 + the longest one answered before trip i was sent.
        let mut chain = vec![0usize; trips.len()];
        for i in 0..trips.len() {
            let before = (0..i).filter(|&j| trips[j].answered.unwrap_or(now) <= trips[i].sent).map(|j| chain[j]).max().unwrap_or(0);
            chain[i] = before + 1;
        }
        Trips { in_a_row: chain.into_iter().max().unwrap_or(0), ops: trips.into_iter().map(|t| t.op).collect() }
    }
}

impl aws_sdk_dynamodb::config::Intercept for Calls {
    fn name(&self) -> &'static str {
        "testkit::Calls"
    }
    fn read_before_transmit(
        &self,
        context: &aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef<'_>,
        _: &aws_sdk_dynamodb::config::RuntimeComponents,
        cfg: &mut aws_sdk_dynamodb::config::ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        // `DynamoDB_20120810.GetItem`: the operation after the dot.
        let target = context.request().headers().get("x-amz-target").unwrap_or_default();
        let op = target.rsplit('.').next().unwrap_or_default().to_string();
        let mut log = self.0.lock().unwrap_or_else(|e| e.into_inner());
        cfg.interceptor_state().store_put(TripIndex(log.generation, log.trips.len()));
        log.trips.push(Trip { op, sent: std::time::Instant::now(), answered: None });
        Ok(())
    }
    fn read_after_attempt(
        &self,
        _: &aws_sdk_dynamodb::config::interceptors::FinalizerInterceptorContextRef<'_>,
        _: &aws_sdk_dynamodb::config::RuntimeComponents,
        cfg: &mut aws_sdk_dynamodb::config::ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        if let Some(TripIndex(generation, i)) = cfg.load::<TripIndex>().cloned() {
            let mut log = self.0.lock().unwrap_or_else(|e| e.into_inner());
            // Gone when a `take` came between sending and the answer.
            if log.generation == generation {
                if let Some(trip) = log.trips.get_mut(i) {
                    trip.answered = Some(std::time::Instant::now());
                }
            }
        }
        Ok(())
    }
}

/// [`services`] whose DynamoDB calls are counted in the returned [`Calls`].
pub async fn services_counting_calls() -> (AppState, Calls) {
    counting_calls(services().await).await
}

/// `state` (whose only owner is the caller) with its DynamoDB calls counted in the returned [`Calls`].
pub async fn counting_calls(mut state: AppState) -> (AppState, Calls) {
    let calls = Calls::default();
    let sdk = crate::aws::sdk_config(&state.config.region, state.config.endpoint_url.as_deref()).await;
    let conf =
        aws_sdk_dynamodb::config::Builder::from(&sdk).interceptor(calls.clone()).interceptor(crate::telemetry::DynamoDbRequests).build();
    let table = state.config.table_name.clone();
    let ctx = std::sync::Arc::get_mut(&mut state).expect("a new state has no other owner");
    ctx.store = crate::store::Store::new(aws_sdk_dynamodb::Client::from_conf(conf), table);
    (state, calls)
}

/// One request through a router, in process; the body is parsed as JSON
/// (`Value::Null` when it is not JSON).
pub async fn call(
    router: &axum::Router,
    method: axum::http::Method,
    path: &str,
    token: Option<&str>,
    body: Option<serde_json::Value>,
) -> (axum::http::StatusCode, serde_json::Value) {
    let (status, text) = call_text(router, method, path, token, body).await;
    (status, serde_json::from_str(&text).unwrap_or(serde_json::Value::Null))
}

/// Like [`call`], returning the body as text.
pub async fn call_text(
    router: &axum::Router,
    method: axum::http::Method,
    path: &str,
    token: Option<&str>,
    body: Option<serde_json::Value>,
) -> (axum::http::StatusCode, String) {
    let (status, _, bytes) = call_bytes(router, method, path, token, body).await;
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

/// A request whose answer is a file: status, headers and the raw bytes.
pub async fn call_bytes(
    router: &axum::Router,
    method: axum::http::Method,
    path: &str,
    token: Option<&str>,
    body: Option<serde_json::Value>,
) -> (axum::http::StatusCode, axum::http::HeaderMap, Vec<u8>) {
    call_with_headers(router, method, path, token, body, &[]).await
}

/// Like [`call_bytes`], with more request headers (e.g. `Idempotency-Key`).
pub async fn call_with_headers(
    router: &axum::Router,
    method: axum::http::Method,
    path: &str,
    token: Option<&str>,
    body: Option<serde_json::Value>,
    headers: &[(&str, &str)],
) -> (axum::http::StatusCode, axum::http::HeaderMap, Vec<u8>) {
    use axum::http::{header, Request};
    use tower::ServiceExt;
    let mut req = Request::builder().method(method).uri(path);
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let req = match body {
        Some(b) => req.header(header::CONTENT_TYPE, "application/json").body(axum::body::Body::from(b.to_string())),
        None => req.body(axum::body::Body::empty()),
    }
    .expect("request");
    let res = router.clone().oneshot(req).await.expect("router answers");
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = axum::body::to_bytes(res.into_body(), 16 << 20).await.expect("body");
    (status, headers, bytes.to_vec())
}

/// The message keys of one field in an error answer (empty when it has none).
pub fn field<'a>(body: &'a serde_json::Value, name: &str) -> Vec<&'a str> {
    body["errors"][name].as_array().map(|a| a.iter().filter_map(|v| v.as_str()).collect()).unwrap_or_default()
}

/// Signs in through `POST /api/token/` (the identity routes must be mounted).
pub async fn login(router: &axum::Router, email: &str, password: &str) -> (axum::http::StatusCode, serde_json::Value) {
    let body = serde_json::json!({ "email": email, "password": password });
    call(router, axum::http::Method::POST, "/api/token/", None, Some(body)).await
}

/// An active account of `role` named Anna Berg with `password`.
pub async fn account(state: &AppState, email: &str, password: &str, role: crate::domain::Role) -> crate::domain::User {
    crate::services::accounts::create_account(
        &state.store,
        crate::services::accounts::NewAccount {
            email,
            password,
            first_name: "Anna",
            last_name: "Berg",
            role,
            user_sub_type: None,
            customer_id: None,
            company_id: None,
            active: true,
        },
    )
    .await
    .expect("create account")
}

/// A signed-in active account of `role` with a unique address: the user and
/// its access token.
pub async fn signed_in(state: &AppState, role: crate::domain::Role) -> (crate::domain::User, String) {
    let email = format!("{}-{}@example.com", role.as_str(), uuid::Uuid::new_v4().simple());
    let user = account(state, &email, "Testing-pass-2026!", role).await;
    let pair = crate::services::credentials::start_session(state, &user).await.expect("start session");
    (user, pair.access_token)
}

/// An active contact person (Cora Contact) of `customer` with `email` and
/// `password`, stored holding `permissions`.
pub async fn contact(
    state: &AppState,
    email: &str,
    password: &str,
    customer: &crate::domain::User,
    permissions: &[crate::domain::Permission],
) -> crate::domain::User {
    let mut user = crate::services::accounts::new_user(
        &state.store,
        crate::services::accounts::NewAccount {
            email,
            password,
            first_name: "Cora",
            last_name: "Contact",
            role: crate::domain::Role::CustomerContact,
            user_sub_type: None,
            customer_id: Some(customer.uid.clone()),
            company_id: Some(customer.uid.clone()),
            active: true,
        },
    )
    .await
    .expect("build contact");
    user.permissions = permissions.to_vec();
    crate::services::accounts::store_account(&state.store, &user).await.expect("store contact");
    user
}

/// A signed-in active contact person (Cora Contact) of `customer` holding
/// `permissions`, with a unique address: the user and its access token.
pub async fn signed_in_contact(
    state: &AppState,
    customer: &crate::domain::User,
    permissions: Vec<crate::domain::Permission>,
) -> (crate::domain::User, String) {
    let email = format!("contact-{}@example.com", uuid::Uuid::new_v4().simple());
    let user = contact(state, &email, "Testing-pass-2026!", customer, &permissions).await;
    let pair = crate::services::credentials::start_session(state, &user).await.expect("start session");
    (user, pair.access_token)
}

/// A plain HTTP/1.1 exchange with the stand-in, as the browser does with a
/// presigned URL: the status, the lower-case headers and the body.
pub async fn http(method: &str, url: &str, content_type: Option<&str>, body: &[u8]) -> (u16, Vec<(String, String)>, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let rest = url.strip_prefix("http://").expect("the stand-in speaks http");
    let (host, path) = rest.split_at(rest.find('/').unwrap());
    let mut stream = tokio::net::TcpStream::connect(host).await.unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
    if let Some(ct) = content_type {
        head.push_str(&format!("Content-Type: {ct}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").expect("headers");
    let text = String::from_utf8_lossy(&answer[..split]).into_owned();
    let mut lines = text.split("\r\n");
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|c| c.parse().ok()).unwrap_or(0);
    let headers = lines.filter_map(|l| l.split_once(':')).map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string())).collect();
    (status, headers, answer[split + 4..].to_vec())
}

/// Indexes `party` for the conflict search as a saved record would (tests
/// of the search itself, which need parties without their records).
pub async fn index_party(state: &AppState, party: &crate::store::conflict::Party) {
    let change = crate::store::conflict::IndexChange::index(party.clone());
    let now = state.store.indexed(party.kind, &party.uid).await.expect("read index record");
    let mut tx = state.store.tx();
    state.store.add_index_writes(&mut tx, &change, &now).expect("index writes");
    assert!(state.store.commit(tx).await.expect("commit"), "index written");
}

/// A proxy in front of the stand-in that can hold back the answer of a
/// DynamoDB transaction *after* the stand-in committed it: the fault of an
/// answer lost after the commit (a paused network or stand-in), which the
/// caller sees as a timeout although the write is stored. It can also play
/// SES refusing the mail to an address ([`Proxy::refuse_mail_to`]).
pub struct Proxy {
    /// Its base URL, for [`services_at`].
    pub url: String,
    hold: std::sync::Arc<std::sync::atomic::AtomicBool>,
    held: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    refused: std::sync::Arc<std::sync::Mutex<std::collections::HashSet<String>>>,
}

/// SES v2's answer to a SendEmail it refuses (API reference: `MessageRejected`,
/// HTTP 400; restJson1 names the error in `x-amzn-ErrorType`): the one it
/// gives for an address it may not send to, naming the address as SES does.
fn ses_message_rejected(to: &str) -> axum::response::Response {
    let body = serde_json::json!({
        "message": format!("Email address is not verified. The following identities failed the check in region EU-NORTH-1: {to}")
    });
    let mut res = axum::response::Response::new(axum::body::Body::from(body.to_string()));
    *res.status_mut() = axum::http::StatusCode::BAD_REQUEST;
    res.headers_mut().insert("x-amzn-errortype", axum::http::HeaderValue::from_static("MessageRejected"));
    res.headers_mut().insert("content-type", axum::http::HeaderValue::from_static("application/json"));
    res
}

/// The first address of an SES v2 SendEmail body that is in `refused`.
fn refused_recipient(body: &[u8], refused: &std::collections::HashSet<String>) -> Option<String> {
    let v: serde_json::Value = serde_json::from_slice(body).ok()?;
    v["Destination"]["ToAddresses"].as_array()?.iter().filter_map(|a| a.as_str()).find(|a| refused.contains(*a)).map(String::from)
}

impl Proxy {
    /// A proxy on loopback forwarding to the stand-in; a held answer comes
    /// back after `hold_for` (longer than the router's deadline).
    pub async fn start(hold_for: std::time::Duration) -> Proxy {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        use std::sync::Arc;
        let upstream = endpoint().trim_start_matches("http://").trim_end_matches('/').to_string();
        let hold = Arc::new(AtomicBool::new(false));
        let held = Arc::new(AtomicUsize::new(0));
        let refused: Arc<std::sync::Mutex<std::collections::HashSet<String>>> = Arc::default();
        let (h, n, r) = (hold.clone(), held.clone(), refused.clone());
        let app = axum::Router::new().fallback(move |req: axum::extract::Request| {
            let (upstream, hold, held, refused) = (upstream.clone(), h.clone(), n.clone(), r.clone());
            async move {
                let (parts, body) = req.into_parts();
                let body = axum::body::to_bytes(body, usize::MAX).await.unwrap_or_default();
                if parts.method == axum::http::Method::POST && parts.uri.path() == "/v2/email/outbound-emails" {
                    let refused = refused.lock().unwrap_or_else(|e| e.into_inner()).clone();
                    if let Some(to) = refused_recipient(&body, &refused) {
                        return ses_message_rejected(&to);
                    }
                }
                let transaction = parts.headers.get("x-amz-target").is_some_and(|v| v.as_bytes().ends_with(b".TransactWriteItems"));
                let held_now = transaction && hold.swap(false, Ordering::SeqCst);
                // Spawned: the request reaches the stand-in whatever becomes of its caller.
                let (status, headers, bytes) = tokio::spawn(forward(upstream, parts, body)).await.expect("forward");
                if held_now {
                    held.fetch_add(1, Ordering::SeqCst);
                    tokio::time::sleep(hold_for).await;
                }
                let mut res = axum::response::Response::new(axum::body::Body::from(bytes));
                *res.status_mut() = axum::http::StatusCode::from_u16(status).unwrap_or(axum::http::StatusCode::BAD_GATEWAY);
                for (k, v) in headers {
                    if !matches!(k.as_str(), "content-length" | "connection" | "transfer-encoding" | "keep-alive") {
                        if let (Ok(k), Ok(v)) = (axum::http::HeaderName::try_from(k), axum::http::HeaderValue::try_from(v)) {
                            res.headers_mut().append(k, v);
                        }
                    }
                }
                res
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind proxy");
        let url = format!("http://{}", listener.local_addr().expect("proxy address"));
        tokio::spawn(async move { axum::serve(listener, app).await.expect("proxy") });
        Proxy { url, hold, held, refused }
    }

    /// SES refuses every mail to `to` (`MessageRejected`) until [`Proxy::accept_mail_to`].
    pub fn refuse_mail_to(&self, to: &str) {
        self.refused.lock().unwrap_or_else(|e| e.into_inner()).insert(to.to_string());
    }

    /// SES takes mail to `to` again.
    pub fn accept_mail_to(&self, to: &str) {
        self.refused.lock().unwrap_or_else(|e| e.into_inner()).remove(to);
    }

    /// The next DynamoDB transaction commits, but its answer is held.
    pub fn hold_next_transaction(&self) {
        self.hold.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// How many answers were held so far.
    pub fn held(&self) -> usize {
        self.held.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// One request to the stand-in as HTTP/1.0 (one connection each, never a
/// chunked answer): status, lower-case headers, body.
async fn forward(upstream: String, parts: axum::http::request::Parts, body: axum::body::Bytes) -> (u16, Vec<(String, String)>, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let path = parts.uri.path_and_query().map(|p| p.as_str()).unwrap_or("/");
    let mut head = format!("{} {path} HTTP/1.0\r\nHost: {upstream}\r\nContent-Length: {}\r\n", parts.method, body.len());
    for (k, v) in &parts.headers {
        if !matches!(k.as_str(), "host" | "content-length" | "connection" | "transfer-encoding" | "expect" | "keep-alive") {
            head.push_str(&format!("{k}: {}\r\n", String::from_utf8_lossy(v.as_bytes())));
        }
    }
    head.push_str("\r\n");
    let mut stream = tokio::net::TcpStream::connect(&upstream).await.expect("stand-in");
    stream.write_all(head.as_bytes()).await.expect("write head");
    stream.write_all(&body).await.expect("write body");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.expect("read answer");
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").expect("headers");
    let text = String::from_utf8_lossy(&answer[..split]).into_owned();
    let mut lines = text.split("\r\n");
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|c| c.parse().ok()).unwrap_or(502);
    let headers = lines.filter_map(|l| l.split_once(':')).map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string())).collect();
    (status, headers, answer[split + 4..].to_vec())
}

//! HTTP glue shared by every function crate: the application state, the
//! error response, extractors, and the one code path that serves a router on
//! Lambda (the local gateway serves the very same routers).

use crate::error::Msg;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::{header, request::Parts, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use serde::{de::DeserializeOwned, Serialize};
use std::sync::Arc;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::config::Config;
use crate::domain::User;
use crate::error::{ApiError, FieldErrors};
use crate::services::Context;

pub mod strict;

/// The application context every handler gets (built once per cold start).
pub type AppState = Arc<Context>;

/// The JSON body of every error (spec §8: the web lists `message` and every
/// per-field key, translated).
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    pub status: u16,
    /// Stable key, translated by the web under `server.<key>`.
    pub message: String,
    pub errors: FieldErrors,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Replay { status, body } = self {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
            let mut res = (status, body).into_response();
            res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
            res.headers_mut().insert(IDEMPOTENT_REPLAY, HeaderValue::from_static("true"));
            return res;
        }
        match &self {
            ApiError::Internal(detail) => tracing::error!(detail = %crate::telemetry::redact(detail), "internal error"),
            ApiError::Unavailable(detail) => tracing::warn!(detail = %crate::telemetry::redact(detail), "unavailable after retries"),
            ApiError::Timeout => tracing::warn!("request over its deadline"),
            _ => {}
        }
        let status = StatusCode::from_u16(self.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = ErrorBody { status: self.status(), message: self.key().to_string(), errors: self.fields() };
        (status, axum::Json(body)).into_response()
    }
}

/// The largest request body the API reads (every body is JSON: documents
/// and images go straight to S3 by presigned URL). The longest form, a case
/// with a 10,000-character description, note and internal description, is
/// well under it; a bigger body answers 413 in the API's error shape. The
/// routes of [`OWN_BODY_LIMITS`] have their own.
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// Where admin publishes the terms and the privacy policy.
pub const LEGAL_PUBLISH_PATH: &str = "/api/legal/publish/";

/// The routes that read more than [`MAX_BODY_BYTES`], each with its limit:
/// a legal text's two languages ([`crate::domain::legal::PUBLISH_BODY_BYTES`]).
/// Only these: a larger limit everywhere would let any request hold the
/// function's memory and time.
pub const OWN_BODY_LIMITS: &[(&str, usize)] = &[(LEGAL_PUBLISH_PATH, crate::domain::legal::PUBLISH_BODY_BYTES)];

/// The largest body a request to `path` may carry.
pub fn body_limit(path: &str) -> usize {
    OWN_BODY_LIMITS.iter().find(|(p, _)| *p == path).map_or(MAX_BODY_BYTES, |(_, limit)| *limit)
}

/// The longest query string the API reads (a search box, a cursor, a few
/// ids); a longer one answers 414 in the API's error shape.
pub const MAX_QUERY_BYTES: usize = 8 * 1024;

/// Every request ends within this time (`REQUEST_DEADLINE_MS` of
/// template.yaml, [`crate::config::Budgets`]): under the function's
/// `Timeout`, so a slow dependency answers 504 in the API's error shape
/// instead of the platform's own page. The use cases' retries and a
/// provider call's attempts end sooner.
pub fn request_deadline() -> std::time::Duration {
    crate::config::Budgets::from_env().request_deadline
}

/// A refused part of a request as the API answers it: 413 when the body is
/// over its route's [`body_limit`], else 400 with `key` on `field` (a missing query
/// or body field is named with `required`). Only the kind of refusal is
/// logged: the extractor's words can quote the refused value.
fn refused(status: StatusCode, detail: String, field: &str, key: Msg) -> ApiError {
    tracing::warn!(status = status.as_u16(), part = field, missing = missing_field(&detail), "request refused");
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::PayloadTooLarge;
    }
    let mut fields = FieldErrors::of(field, key);
    if let Some(name) = missing_field(&detail) {
        fields.add(name, Msg::Required);
    }
    ApiError::BadRequest { message: key, fields }
}

/// The field serde names in "missing field `case`".
fn missing_field(detail: &str) -> Option<&str> {
    let rest = &detail[detail.find("missing field `")? + "missing field `".len()..];
    Some(&rest[..rest.find('`')?]).filter(|f| !f.is_empty() && f.len() <= 64)
}

/// A JSON body whose rejections (bad JSON, wrong content type, missing
/// fields, too large) answer in the API's error shape instead of axum's plain text.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<serde_json::Value>::from_request(req, state).await {
            Ok(axum::Json(v)) => read_body(v).map(ApiJson),
            Err(r) => Err(refused(r.status(), r.body_text(), "body", Msg::InvalidRequestBody)),
        }
    }
}

/// A parsed JSON body as `T`, by the rules of [`strict`] (whole numbers
/// written `5.0` read, arrays for objects and integers outside their
/// documented format refused). A refusal is 400 `invalid_request_body`,
/// naming the field at fault with `invalid` (`invalid_number` for a number
/// that does not fit) or a missing one with `required`.
pub fn read_body<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, ApiError> {
    strict::from_value(value).map_err(|e| {
        let detail = e.inner().to_string();
        let mut err = refused(StatusCode::BAD_REQUEST, detail.clone(), "body", Msg::InvalidRequestBody);
        let path = e.path().to_string();
        if path != "." && missing_field(&detail).is_none() && path.len() <= 128 {
            let key = if detail.contains("integer `") || detail.contains("floating point `") {
                Msg::InvalidNumber
            } else if detail.starts_with("invalid length") {
                // A text over its bound as sent (domain::text::clean).
                Msg::TooLong
            } else {
                Msg::Invalid
            };
            if let ApiError::BadRequest { fields, .. } = &mut err {
                fields.add(&path, key);
            }
        }
        err
    })
}

/// The raw body (for calls whose body is optional), with the same limit and
/// error shape as [`ApiJson`].
pub struct ApiBytes(pub axum::body::Bytes);

impl<S: Send + Sync> FromRequest<S> for ApiBytes {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::body::Bytes::from_request(req, state).await {
            Ok(b) => Ok(ApiBytes(b)),
            Err(r) => Err(refused(r.status(), r.body_text(), "body", Msg::InvalidRequestBody)),
        }
    }
}

/// Query parameters whose rejections (a missing or malformed parameter, a
/// value outside an enumeration) answer 400 `invalid_query` in the API's
/// error shape, naming a missing parameter with `required`.
pub struct ApiQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(v)) => Ok(ApiQuery(v)),
            Err(r) => Err(refused(r.status(), r.body_text(), "query", Msg::InvalidQuery)),
        }
    }
}

/// Path parameters whose rejections (e.g. invalid UTF-8 after
/// percent-decoding) answer 400 `invalid_path` in the API's error shape.
pub struct ApiPath<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for ApiPath<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(v)) => Ok(ApiPath(v)),
            Err(r) => Err(refused(StatusCode::BAD_REQUEST, r.body_text(), "path", Msg::InvalidPath)),
        }
    }
}

/// The signed-in user, from `Authorization: Bearer <access token>`. The
/// user and the sign-in are read on every call (`sessions::confirm`), so a
/// deactivated account or an ended sign-in stops working at once.
///
/// A write waits for that check before its handler runs, and gets the
/// stored user. A read (GET, HEAD) whose token carries its user
/// ([`crate::auth::UserClaims`]) does not: its handler gets the user the
/// token describes and reads its data while the check runs beside it (one
/// DynamoDB round trip before the data instead of two), and [`limits`]
/// sends the answer only when the check succeeded, else 401 and nothing of
/// the data. When the stored user has the same rights but is described
/// otherwise (a new name, two-factor turned off), the read is answered again
/// with the stored user, so an answer never shows an older user. That user
/// has no password hash and no personnummer: a read needing them reads the
/// stored user.
pub struct CurrentUser(pub User);

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        use crate::services::credentials::sessions;
        let raw = parts.headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).ok_or(ApiError::NotAuthenticated)?;
        let (scheme, token) = raw.trim().split_once(' ').ok_or(ApiError::NotAuthenticated)?;
        if !scheme.eq_ignore_ascii_case("bearer") {
            return Err(ApiError::NotAuthenticated);
        }
        let claims = state.jwt.verify(token.trim(), crate::auth::TokenKind::Access)?;
        // A read answered again: its check has just read this user.
        if let Some(Confirmed(user)) = parts.extensions.get::<Confirmed>().filter(|c| c.0.uid == claims.sub) {
            return Ok(CurrentUser(user.clone()));
        }
        // Without the layer that awaits it (a router not built by `limits`)
        // the check is awaited here, as for a write.
        let pending = parts.extensions.get::<PendingChecks>().filter(|_| is_read(&parts.method));
        let user = match (claims.usr.clone(), pending) {
            (Some(said), Some(pending)) => {
                let user = said.user(&claims.sub, claims.ver);
                let state = state.clone();
                let check = crate::telemetry::within_request(async move {
                    let stored = sessions::confirm(&state, &claims).await?;
                    Ok((crate::auth::UserClaims::from(&stored) != *said).then_some(stored))
                });
                pending.0.lock().unwrap_or_else(|e| e.into_inner()).push(tokio::spawn(check));
                user
            }
            _ => sessions::confirm(state, &claims).await?,
        };
        // On a read, the caller the signed token names, before its check
        // ends: a refused one is logged under it with its 401.
        crate::telemetry::set_caller(&user.uid, user.role());
        Ok(CurrentUser(user))
    }
}

fn is_read(method: &axum::http::Method) -> bool {
    method == axum::http::Method::GET || method == axum::http::Method::HEAD
}

/// The sign-in checks [`CurrentUser`] started beside a read's handler.
#[derive(Clone, Default)]
struct PendingChecks(Arc<std::sync::Mutex<Vec<SignInCheck>>>);

/// One sign-in check running beside a read's handler: the stored user when
/// the token describes it otherwise (same rights), else nothing.
type SignInCheck = tokio::task::JoinHandle<Result<Option<User>, ApiError>>;

/// The stored user, for a read answered again (see [`CurrentUser`]).
#[derive(Clone)]
struct Confirmed(User);

/// Sends a read's answer only once the sign-in checks started beside its
/// handler succeeded; a failed one answers in the answer's place (401,
/// whatever the handler found: a refused sign-in learns nothing). A read
/// whose token describes its user otherwise is answered again with the
/// stored user (reads have no body, so the request is whole again).
async fn check_before_answer(mut req: Request, next: axum::middleware::Next) -> Response {
    let pending = PendingChecks::default();
    req.extensions_mut().insert(pending.clone());
    let again = is_read(req.method()).then(|| {
        let mut copy = Request::new(axum::body::Body::empty());
        *copy.method_mut() = req.method().clone();
        *copy.uri_mut() = req.uri().clone();
        *copy.version_mut() = req.version();
        *copy.headers_mut() = req.headers().clone();
        *copy.extensions_mut() = req.extensions().clone();
        (copy, next.clone())
    });
    let res = next.run(req).await;
    let checks = std::mem::take(&mut *pending.0.lock().unwrap_or_else(|e| e.into_inner()));
    let mut stored = None;
    for check in checks {
        match check.await {
            Ok(Ok(user)) => stored = stored.or(user),
            Ok(Err(e)) => return e.into_response(),
            Err(e) => return ApiError::internal(e).into_response(),
        }
    }
    match (stored, again) {
        (Some(user), Some((mut copy, next))) => {
            tracing::info!(user_id = %user.uid, "read answered again: its token describes an older user");
            copy.extensions_mut().insert(Confirmed(user));
            next.run(copy).await
        }
        _ => res,
    }
}

/// The request header that makes a write happen once (IETF httpapi draft
/// "The Idempotency-Key HTTP Header Field"; [`crate::store::idempotency`]).
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";

/// Set on an answer repeated from the first request with the same key.
pub const IDEMPOTENT_REPLAY: &str = "idempotent-replayed";

/// What a write request brings for [`Idempotency`]: its key, if any, and
/// its fingerprint (method, address, body), set by [`limits`] on every
/// POST before the handler reads the body.
#[derive(Clone, Debug)]
struct WriteRequest {
    /// `Err` when the header is there but unusable: refused by the
    /// handlers that take it (others ignore the header).
    key: Result<Option<String>, ()>,
    fingerprint: String,
}

/// Reads every body once, within its route's [`body_limit`] (413 past it,
/// whether or not the handler reads the body), and fingerprints a POST's
/// with its `Idempotency-Key`; then hands the body on.
async fn bounded_body(req: Request, next: axum::middleware::Next) -> Response {
    let (mut parts, body) = req.into_parts();
    let bytes = match axum::body::to_bytes(body, body_limit(parts.uri.path())).await {
        Ok(b) => b,
        Err(_) => return ApiError::PayloadTooLarge.into_response(),
    };
    if parts.method == axum::http::Method::POST {
        let key = match parts.headers.get(IDEMPOTENCY_KEY) {
            None => Ok(None),
            Some(v) => v.to_str().ok().and_then(crate::store::idempotency::parse_key).map(Some).ok_or(()),
        };
        let address = parts.uri.path_and_query().map(|p| p.as_str()).unwrap_or("/");
        let fingerprint = crate::store::idempotency::fingerprint(parts.method.as_str(), address, &bytes);
        parts.extensions.insert(WriteRequest { key, fingerprint });
    }
    next.run(Request::from_parts(parts, axum::body::Body::from(bytes))).await
}

/// A creating POST's `Idempotency-Key` (optional). The handler turns it into
/// the use case's [`Once`](crate::store::idempotency::Once) with
/// [`Idempotency::begin`], which answers a repeated request at once.
pub struct Idempotency(Option<WriteRequest>);

impl<S: Send + Sync> FromRequestParts<S> for Idempotency {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(Idempotency(parts.extensions.get::<WriteRequest>().cloned()))
    }
}

/// Documents the header where a handler takes [`Idempotency`]: name the
/// extractor in the route's `params(...)` (the API document adds the 422
/// `idempotency_key_reused` answer to every operation with the header).
impl utoipa::IntoParams for Idempotency {
    fn into_params(_: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>) -> Vec<utoipa::openapi::path::Parameter> {
        use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
        use utoipa::openapi::{schema::Type, ObjectBuilder, Required};
        vec![ParameterBuilder::new()
            .name("Idempotency-Key")
            .parameter_in(ParameterIn::Header)
            .required(Required::False)
            .description(Some(
                "Makes the write happen once: a key the client draws per action (a UUID, as a structured-field string, e.g. \
                 Idempotency-Key: \"8e03978e-40d5-43e8-bc93-6894a57f9324\"), kept 24 hours. A retry with the same key and body gets \
                 the first answer (status and body, header idempotent-replayed) without a second write; the same key with another \
                 body answers 422 idempotency_key_reused.",
            ))
            .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
            .build()]
    }
}

impl Idempotency {
    /// The use case's [`Once`](crate::store::idempotency::Once) for `caller`, whose
    /// success answers `status`. `legacy_request_id` is a body's older
    /// `request_id` (credit checks, meetings, claims): used as the key
    /// when the header is absent. A key seen before answers here:
    /// `Err(Replay)` with the first answer, or 422 `idempotency_key_reused`;
    /// an unusable key 400 `validation_failed` on the header.
    pub async fn begin(
        &self,
        state: &AppState,
        caller: &User,
        status: StatusCode,
        legacy_request_id: Option<&str>,
    ) -> Result<crate::store::idempotency::Once, ApiError> {
        self.begin_scoped(state, &caller.uid, status, legacy_request_id).await
    }

    /// [`begin`](Self::begin) for a caller who is not signed in: `scope`
    /// stands for the caller (what its request names as its own, e.g. a
    /// sign-up's address), so one caller's key never answers another's
    /// request.
    pub async fn begin_scoped(
        &self,
        state: &AppState,
        scope: &str,
        status: StatusCode,
        legacy_request_id: Option<&str>,
    ) -> Result<crate::store::idempotency::Once, ApiError> {
        use crate::store::idempotency::{parse_key, Once};
        let Some(w) = &self.0 else { return Ok(Once::none()) };
        let header = w.key.clone().map_err(|()| ApiError::field("Idempotency-Key", Msg::Invalid))?;
        let key = header.or_else(|| legacy_request_id.and_then(parse_key).map(|r| format!("request_id:{r}")));
        let Some(key) = key else { return Ok(Once::none()) };
        let once = Once::new(scope, &key, &w.fingerprint, status.as_u16());
        state.store.replay(&once).await?;
        Ok(once)
    }
}

/// A signed-in request's state and caller, the two every signed-in handler
/// takes: `Caller(s, u): Caller` reads the sign-in as [`CurrentUser`] does.
pub struct Caller(pub AppState, pub User);

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let CurrentUser(user) = CurrentUser::from_request_parts(parts, state).await?;
        Ok(Caller(state.clone(), user))
    }
}

/// A signed-in creating POST: the state, the caller and the request's
/// `Idempotency-Key`, the three every such handler takes. The handler reads
/// its body first and then asks [`Creating::once`], so a body the API
/// refuses is refused before the key is looked up, as with the parts apart.
pub struct Creating {
    pub state: AppState,
    pub user: User,
    idem: Idempotency,
}

impl FromRequestParts<AppState> for Creating {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let Caller(state, user) = Caller::from_request_parts(parts, state).await?;
        let Ok(idem) = Idempotency::from_request_parts(parts, &state).await;
        Ok(Creating { state, user, idem })
    }
}

impl Creating {
    /// [`Idempotency::begin`] for a success that answers 201 Created
    /// ([`Created`]); `legacy_request_id` as there.
    pub async fn once(&self, legacy_request_id: Option<&str>) -> Result<crate::store::idempotency::Once, ApiError> {
        self.idem.begin(&self.state, &self.user, StatusCode::CREATED, legacy_request_id).await
    }
}

/// A created resource's answer: 201 with the resource as JSON.
pub struct Created<T>(pub T);

impl<T: Serialize> IntoResponse for Created<T> {
    fn into_response(self) -> Response {
        (StatusCode::CREATED, axum::Json(self.0)).into_response()
    }
}

/// Unknown paths under /api/ answer 404 in the API's error shape.
pub async fn not_found() -> ApiError {
    ApiError::NotFound
}

/// The API's limits on every router (each Lambda's and the local
/// gateway's): a read's answer waits for its sign-in check
/// ([`CurrentUser`]), the body limit of each route ([`body_limit`]), the query limit ([`MAX_QUERY_BYTES`]) and the request
/// deadline ([`request_deadline`]), each answered in the API's error shape;
/// outermost, one log line and the metrics of every request
/// ([`crate::telemetry::observe`]).
pub fn limits<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    limits_within(router, request_deadline())
}

/// [`limits`] with another deadline (tests).
pub fn limits_within<S: Clone + Send + Sync + 'static>(router: Router<S>, deadline: std::time::Duration) -> Router<S> {
    router
        .layer(axum::middleware::from_fn(check_before_answer))
        .layer(axum::middleware::from_fn(bounded_body))
        .layer(axum::middleware::from_fn(move |req: Request, next: axum::middleware::Next| async move {
            if req.uri().query().is_some_and(|q| q.len() > MAX_QUERY_BYTES) {
                return ApiError::UriTooLong.into_response();
            }
            match tokio::time::timeout(deadline, next.run(req)).await {
                Ok(res) => res,
                Err(_) => ApiError::Timeout.into_response(),
            }
        }))
        // bounded_body has read each body within its route's limit: axum's
        // own default (2 MB) would refuse a legal text's larger one.
        .layer(axum::extract::DefaultBodyLimit::disable())
        .layer(axum::middleware::from_fn(crate::telemetry::observe))
}

/// Headers of every API answer: answers carry tokens or personal
/// data, so no browser or shared cache may keep them (`Cache-Control:
/// no-store`, unless a handler chose otherwise), and their type is never
/// sniffed. CloudFront's response-headers policy adds the same on AWS; the
/// local gateway applies this to `/api/` too.
pub async fn api_headers(mut res: Response) -> Response {
    let headers = res.headers_mut();
    headers.entry(header::CACHE_CONTROL).or_insert(HeaderValue::from_static("no-store"));
    headers.entry(header::X_CONTENT_TYPE_OPTIONS).or_insert(HeaderValue::from_static("nosniff"));
    res
}

/// Turns a function crate's router into a service: unknown routes become
/// API errors, the API's [`limits`] apply, every answer (refusals included)
/// gets [`api_headers`] and the state is attached.
pub fn finish(api: OpenApiRouter<AppState>, state: AppState) -> Router {
    let (router, _) = api.split_for_parts();
    limits(router.fallback(not_found).method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed }))
        .layer(axum::middleware::map_response(api_headers))
        .with_state(state)
}

/// The Lambda entry point of every HTTP function: the same router the local
/// gateway serves, wrapped by `lambda_http`. `function` names it in logs and
/// metrics (the crate's name).
pub async fn run_lambda(function: &'static str, api: OpenApiRouter<AppState>) -> Result<(), lambda_http::Error> {
    crate::telemetry::init_lambda(function);
    let config = Config::from_env()?;
    let state = Context::new(config, None).await;
    lambda_http::run(finish(api, state)).await
}

/// The client's address, for per-address rate limits: API Gateway's source IP
/// on Lambda, the socket peer in the local gateway.
pub struct ClientIp(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        use lambda_http::request::RequestContext;
        let from_lambda = match parts.extensions.get::<RequestContext>() {
            Some(RequestContext::ApiGatewayV2(ctx)) => ctx.http.source_ip.clone(),
            _ => None,
        };
        let from_socket = || parts.extensions.get::<axum::extract::ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip().to_string());
        Ok(ClientIp(from_lambda.or_else(from_socket).unwrap_or_else(|| "unknown".into())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn api_answers_are_never_stored_unless_a_handler_says_otherwise() {
        let res = api_headers(ApiError::NotFound.into_response()).await;
        assert_eq!(res.headers()[header::CACHE_CONTROL], "no-store");
        assert_eq!(res.headers()[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
        let mut own = axum::Json(serde_json::json!({})).into_response();
        own.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("private, max-age=60"));
        assert_eq!(api_headers(own).await.headers()[header::CACHE_CONTROL], "private, max-age=60");
    }

    #[test]
    fn a_name_over_its_bound_as_sent_is_the_fields_too_long() {
        #[derive(Debug, serde::Deserialize)]
        struct Form {
            #[serde(deserialize_with = "crate::domain::text::clean::name")]
            #[allow(dead_code)]
            first_name: String,
        }
        let sent = serde_json::json!({ "first_name": format!("{}Eve", "\u{1b}[1m".repeat(50)) });
        let Err(ApiError::BadRequest { message, fields }) = read_body::<Form>(sent) else { panic!("accepted") };
        assert_eq!(message, Msg::InvalidRequestBody);
        assert_eq!(fields.get("first_name"), [Msg::TooLong]);
    }
}

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
        match &self {
            ApiError::Internal(detail) => eprintln!("ERROR internal: {detail}"),
            ApiError::Unavailable(detail) => eprintln!("WARN unavailable after retries: {detail}"),
            _ => {}
        }
        let status = StatusCode::from_u16(self.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = ErrorBody { status: self.status(), message: self.key().to_string(), errors: self.fields() };
        (status, axum::Json(body)).into_response()
    }
}

/// A JSON body whose rejections (bad JSON, wrong content type, missing
/// fields) answer in the API's error shape instead of axum's plain text.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(ApiJson(v)),
            Err(rejection) => {
                // The parser's words stay in the log; the caller gets the key.
                eprintln!("WARN request body refused: {}", rejection.body_text());
                Err(ApiError::BadRequest { message: Msg::InvalidRequestBody, fields: FieldErrors::of("body", Msg::InvalidRequestBody) })
            }
        }
    }
}

/// The signed-in user, from `Authorization: Bearer <access token>`. The user
/// is read on every call, so a deactivated account stops working at once.
pub struct CurrentUser(pub User);

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let raw = parts.headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).ok_or(ApiError::NotAuthenticated)?;
        let (scheme, token) = raw.trim().split_once(' ').ok_or(ApiError::NotAuthenticated)?;
        if !scheme.eq_ignore_ascii_case("bearer") {
            return Err(ApiError::NotAuthenticated);
        }
        let user = crate::services::credentials::sessions::authenticate(state, token).await?;
        Ok(CurrentUser(user))
    }
}

/// Unknown paths under /api/ answer 404 in the API's error shape.
pub async fn not_found() -> ApiError {
    ApiError::NotFound
}

/// Headers of every API answer (issue 22): answers carry tokens or personal
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
/// API errors, every answer gets [`api_headers`] and the state is attached.
pub fn finish(api: OpenApiRouter<AppState>, state: AppState) -> Router {
    let (router, _) = api.split_for_parts();
    router
        .fallback(not_found)
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(axum::middleware::map_response(api_headers))
        .with_state(state)
}

/// The Lambda entry point of every HTTP function: the same router the local
/// gateway serves, wrapped by `lambda_http`.
pub async fn run_lambda(api: OpenApiRouter<AppState>) -> Result<(), lambda_http::Error> {
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
}

//! Identity endpoints: sign-in (`token/`), token refresh and the session
//! user (`profile/`). Routes, request parsing and error mapping only; the
//! rules live in `shared`.

use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use shared::api::{ApiJson, AppState, CurrentUser, ErrorBody};
use shared::auth::{password, TokenKind, TokenPair};
use shared::domain::{normalize_email, SessionUser, User};
use shared::error::{ApiError, FieldErrors};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(login)).routes(routes!(refresh)).routes(routes!(profile))
}

#[derive(Deserialize, ToSchema)]
pub struct LoginRequest {
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub password: String,
}

#[derive(Deserialize, ToSchema)]
pub struct RefreshRequest {
    #[serde(default)]
    pub refresh_token: String,
}

/// Runs the (deliberately slow) argon2 check off the async workers.
async fn password_matches(password: String, user: Option<&User>) -> Result<bool, ApiError> {
    let stored = user.map(|u| u.password_hash.clone());
    tokio::task::spawn_blocking(move || match stored {
        Some(hash) => password::verify(&password, &hash),
        None => {
            password::verify_dummy(&password);
            false
        }
    })
    .await
    .map_err(ApiError::internal)
}

async fn issue_tokens(state: &AppState, user: &User) -> Result<TokenPair, ApiError> {
    let (pair, refresh_claims) = state.jwt.issue_pair(&user.uid)?;
    state.store.save_refresh_token(&refresh_claims).await?;
    Ok(pair)
}

/// Sign in with e-mail and password.
#[utoipa::path(post, path = "/api/token/", tag = "auth", request_body = LoginRequest,
    responses(
        (status = 200, description = "Signed in", body = TokenPair),
        (status = 400, description = "Missing fields, wrong e-mail or password, or inactive account", body = ErrorBody),
    ))]
async fn login(State(state): State<AppState>, ApiJson(req): ApiJson<LoginRequest>) -> Result<Json<TokenPair>, ApiError> {
    let mut fields = FieldErrors::new();
    if req.email.trim().is_empty() {
        fields.insert("email".into(), vec!["required".into()]);
    }
    if req.password.is_empty() {
        fields.insert("password".into(), vec!["required".into()]);
    }
    if !fields.is_empty() {
        return Err(ApiError::validation(fields));
    }
    let user = state.store.find_user_by_email(&normalize_email(&req.email)).await?;
    // Unknown e-mail and wrong password answer alike (and take as long), so
    // the form does not reveal who has an account.
    if !password_matches(req.password, user.as_ref()).await? {
        return Err(ApiError::InvalidCredentials);
    }
    let user = user.ok_or(ApiError::InvalidCredentials)?;
    if !user.active {
        return Err(ApiError::BadRequest { message: "account_inactive", fields: FieldErrors::new() });
    }
    Ok(Json(issue_tokens(&state, &user).await?))
}

/// Exchange a refresh token for a new pair. Each refresh token works once.
#[utoipa::path(post, path = "/api/token/refresh/", tag = "auth", request_body = RefreshRequest,
    responses(
        (status = 200, description = "New tokens", body = TokenPair),
        (status = 401, description = "Invalid, expired or already used refresh token", body = ErrorBody),
    ))]
async fn refresh(State(state): State<AppState>, ApiJson(req): ApiJson<RefreshRequest>) -> Result<Json<TokenPair>, ApiError> {
    let claims = state.jwt.verify(req.refresh_token.trim(), TokenKind::Refresh)?;
    if !state.store.consume_refresh_token(&claims).await? {
        return Err(ApiError::NotAuthenticated);
    }
    let user = state.store.get_user(&claims.sub).await?.filter(|u| u.active).ok_or(ApiError::NotAuthenticated)?;
    Ok(Json(issue_tokens(&state, &user).await?))
}

/// The signed-in user (spec §3 session user).
#[utoipa::path(get, path = "/api/profile/", tag = "auth", security(("bearer" = [])),
    responses(
        (status = 200, description = "The session user", body = SessionUser),
        (status = 401, description = "Missing, expired or invalid token", body = ErrorBody),
    ))]
async fn profile(CurrentUser(user): CurrentUser) -> Json<SessionUser> {
    Json(user.session())
}

//! A case's followers (spec §3: a contact without "view all cases" sees the
//! cases it created or follows): routes only; the rules are
//! `shared::domain::policy`, the use cases `shared::services::followers`.

use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use shared::api::{ApiJson, ApiPath, AppState, Caller, Created, Creating, ErrorBody, Idempotency};
use shared::error::ApiError;
use shared::services::followers::{self, Follower, Followers};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list, add)).routes(routes!(remove))
}

/// Who is to follow the case.
#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"user": "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a02"}))]
pub struct FollowerRequest {
    /// The uid of the case's customer account or one of its active contacts.
    #[serde(default)]
    #[schema(required = true, format = "uuid")]
    pub user: String,
}

/// The case's followers, whether the caller may add and remove them (and
/// then the company's contacts who may be added), and whether the caller
/// follows it.
#[utoipa::path(get, path = "/api/case/followers/{id}/", tag = "cases", security(("bearer" = [])), params(("id" = String, Path, description = "Case uid")),
    responses((status = 200, body = Followers), (status = 404, body = ErrorBody)))]
async fn list(Caller(s, u): Caller, ApiPath(id): ApiPath<String>) -> Result<Json<Followers>, ApiError> {
    Ok(Json(followers::list(&s, &u, &id).await?))
}

/// Makes a user of the case's company follow the case (the customer, its
/// contacts with "view all cases", the contact who created the case; admin,
/// sales persons and the case's lawyer). Already following: the same answer,
/// nothing written. Another company's user, or one unknown: 404.
#[utoipa::path(post, path = "/api/case/followers/{id}/", tag = "cases", security(("bearer" = [])), params(("id" = String, Path, description = "Case uid"), Idempotency),
    request_body = FollowerRequest,
    responses((status = 201, body = Follower),
        (status = 400, description = "too_many_followers, changed_concurrently", body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn add(c: Creating, ApiPath(id): ApiPath<String>, ApiJson(req): ApiJson<FollowerRequest>) -> Result<Created<Follower>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(followers::add(&c.state, &c.user, &id, &req.user, &once).await?))
}

/// Takes a follower off the case (whoever may add followers), or stops
/// following it (the follower itself). Not a follower: nothing changes.
#[utoipa::path(delete, path = "/api/case/followers/{id}/{user}/", tag = "cases", security(("bearer" = [])),
    params(("id" = String, Path, description = "Case uid"), ("user" = String, Path, description = "The follower's uid")),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn remove(Caller(s, u): Caller, ApiPath((id, user)): ApiPath<(String, String)>) -> Result<StatusCode, ApiError> {
    followers::remove(&s, &u, &id, &user).await?;
    Ok(StatusCode::NO_CONTENT)
}

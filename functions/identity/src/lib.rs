//! Identity endpoints: sign-in with an optional second factor (e-mailed code
//! or authenticator app), token
//! refresh and logout, two-factor settings, the session user, and password
//! change and recovery. Routes, request parsing and error mapping only; the
//! rules live in `shared::services::credentials::sessions` and `shared::services::credentials::passwords`.

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use shared::api::{ApiBytes, ApiJson, AppState, Caller, ClientIp, CurrentUser, ErrorBody};
use shared::auth::TokenPair;
use shared::domain::SessionUser;
use shared::error::Msg;
use shared::error::{ApiError, FieldErrors};
use shared::services::credentials::passwords;
use shared::services::credentials::sessions::{self, LoginOutcome, TwoFactorPending};
use shared::services::credentials::two_factor::{self, TotpConfirmed, TotpSetupStarted, TwoFactorStatus};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(login))
        .routes(routes!(verify_code))
        .routes(routes!(resend_code))
        .routes(routes!(refresh))
        .routes(routes!(logout))
        .routes(routes!(profile))
        .routes(routes!(two_factor_status))
        .routes(routes!(toggle_two_factor))
        .routes(routes!(totp_setup))
        .routes(routes!(totp_confirm))
        .routes(routes!(totp_disable))
        .routes(routes!(change_password))
        .routes(routes!(recover_password))
        .routes(routes!(confirm_recovery))
        .routes(routes!(bankid_auth))
        .routes(routes!(bankid_collect))
        .routes(routes!(bankid_cancel))
        .routes(routes!(bankid_link_state, bankid_link_start, bankid_unlink))
}

/// A plain acknowledgement with a translatable message key.
#[derive(Serialize, ToSchema)]
pub struct Message {
    pub message: Msg,
}

fn required(fields: &[(&str, &str)]) -> Result<(), ApiError> {
    FieldErrors::blank(fields).check()
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"email": "customer@example.com", "password": "Demo-2026-pass!"}))]
pub struct LoginRequest {
    #[serde(default)]
    #[schema(required = true, min_length = 1, format = Email)]
    pub email: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, format = Password)]
    pub password: String,
    /// The `device_token` of this browser's last completed sign-in to the
    /// account: with it, the right password passes the account's cool-down.
    #[serde(default)]
    pub device_token: Option<String>,
}

/// Sign in with e-mail and password. With two-factor on, a code is mailed
/// and the answer names the pending second step instead of giving tokens.
#[utoipa::path(post, path = "/api/token/", tag = "auth", request_body = LoginRequest,
    responses(
        (status = 200, description = "Signed in, or the code was mailed", body = LoginOutcome),
        (status = 400, description = "Missing fields, wrong e-mail or password, or inactive account", body = ErrorBody),
        (status = 429, description = "Too many attempts for this account or address", body = ErrorBody),
    ))]
async fn login(
    State(s): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<LoginRequest>,
) -> Result<Json<LoginOutcome>, ApiError> {
    required(&[("email", &req.email), ("password", &req.password)])?;
    Ok(Json(sessions::login_from_device(&s, &req.email, req.password, &ip, req.device_token.as_deref()).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"two_factor_token": "2fa-token-from-the-sign-in-answer", "code": "123456"}))]
pub struct CodeRequest {
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub two_factor_token: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub code: String,
}

/// Complete a two-factor sign-in with the mailed 6-digit code, or (method
/// `totp`) the authenticator app's code or a recovery code; each works once.
#[utoipa::path(post, path = "/api/token/2fa/", tag = "auth", request_body = CodeRequest,
    responses(
        (status = 200, description = "Signed in", body = TokenPair),
        (status = 400, description = "code_not_correct, code_expired, code_attempts_exceeded, totp_code_used, totp_attempts_exceeded or two_factor_session_expired", body = ErrorBody),
        (status = 401, description = "Invalid two-factor token", body = ErrorBody),
        (status = 429, description = "Too many attempts", body = ErrorBody),
    ))]
async fn verify_code(
    State(s): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<CodeRequest>,
) -> Result<Json<TokenPair>, ApiError> {
    required(&[("two_factor_token", &req.two_factor_token), ("code", &req.code)])?;
    Ok(Json(sessions::verify_code(&s, &req.two_factor_token, &req.code, &ip).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"two_factor_token": "2fa-token-from-the-sign-in-answer"}))]
pub struct ResendRequest {
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub two_factor_token: String,
}

#[derive(Serialize, ToSchema)]
pub struct CodeSent {
    pub message: Msg,
    #[serde(flatten)]
    pub pending: TwoFactorPending,
}

/// Mail a new code; the earlier one stops counting once the new token is used.
/// Not for authenticator-app users (`totp_no_resend`).
#[utoipa::path(post, path = "/api/resend/2fa/", tag = "auth", request_body = ResendRequest,
    responses(
        (status = 200, description = "A new code was mailed", body = CodeSent),
        (status = 400, description = "two_factor_session_expired (log in again) or totp_no_resend", body = ErrorBody),
        (status = 401, description = "Invalid two-factor token", body = ErrorBody),
        (status = 429, description = "Too many mails", body = ErrorBody),
    ))]
async fn resend_code(
    State(s): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<ResendRequest>,
) -> Result<Json<CodeSent>, ApiError> {
    required(&[("two_factor_token", &req.two_factor_token)])?;
    let pending = sessions::resend_code(&s, &req.two_factor_token, &ip).await?;
    Ok(Json(CodeSent { message: Msg::CodeSent, pending }))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"refresh_token": "refresh-token-from-the-sign-in-answer"}))]
pub struct RefreshRequest {
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub refresh_token: String,
}

/// Exchange a refresh token for a new pair. Each refresh token works once;
/// presenting a spent one ends that sign-in everywhere.
#[utoipa::path(post, path = "/api/token/refresh/", tag = "auth", request_body = RefreshRequest,
    responses(
        (status = 200, description = "New tokens", body = TokenPair),
        (status = 401, description = "Invalid, expired, spent or revoked refresh token", body = ErrorBody),
    ))]
async fn refresh(State(s): State<AppState>, ApiJson(req): ApiJson<RefreshRequest>) -> Result<Json<TokenPair>, ApiError> {
    Ok(Json(sessions::refresh(&s, &req.refresh_token).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"refresh_token": "refresh-token-from-the-sign-in-answer"}))]
pub struct LogoutRequest {
    /// The sign-in's refresh token; without it (or with one that no longer
    /// works) logging out still answers 200: there is nothing to end.
    #[serde(default)]
    pub refresh_token: String,
}

/// End this sign-in: its refresh tokens stop working.
#[utoipa::path(post, path = "/api/logout/", tag = "auth", request_body = LogoutRequest,
    responses((status = 200, description = "Logged out", body = Message)))]
async fn logout(State(s): State<AppState>, ApiJson(req): ApiJson<LogoutRequest>) -> Result<Json<Message>, ApiError> {
    sessions::logout(&s, &req.refresh_token).await?;
    Ok(Json(Message { message: Msg::LoggedOut }))
}

/// The signed-in user (spec §3 session user).
#[utoipa::path(get, path = "/api/profile/", tag = "auth", security(("bearer" = [])),
    responses(
        (status = 200, description = "The session user", body = SessionUser),
        (status = 401, description = "Missing, expired or invalid token", body = ErrorBody),
    ))]
async fn profile(Caller(s, user): Caller) -> Result<Json<SessionUser>, ApiError> {
    // `image` is a presigned URL of the stored key, or 'not set'.
    Ok(Json(shared::services::profile::session_user(&s, &user).await?))
}

/// Whether two-factor sign-in is on, by which method, and how many recovery
/// codes are left.
#[utoipa::path(get, path = "/api/2fa/status/", tag = "auth", security(("bearer" = [])),
    responses((status = 200, body = TwoFactorStatus), (status = 401, body = ErrorBody)))]
async fn two_factor_status(Caller(s, user): Caller) -> Result<Json<TwoFactorStatus>, ApiError> {
    Ok(Json(two_factor::status(&s, &user).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"enabled": true, "password": "Demo-2026-pass!"}))]
pub struct ToggleRequest {
    /// The state to set; without it (or without a body) the state flips.
    pub enabled: Option<bool>,
    /// The current password: required to turn two-factor off.
    #[serde(default)]
    pub password: String,
}

/// Turn two-factor sign-in (e-mailed code) on or off: `{"enabled": bool}`
/// sets the state, an empty body flips it. Turning it on ends every session,
/// so the user signs in again with a code (spec §4). Turning it off needs
/// `password` (`password_or_code_required`, `current_password_wrong`). An authenticator app is
/// removed only through `2fa/totp/disable/` (`totp_disable_required`).
#[utoipa::path(post, path = "/api/2fa/toggle-activation/", tag = "auth", security(("bearer" = [])),
    request_body(content = Option<ToggleRequest>, description = "Optional", example = json!({"enabled": true, "password": "Demo-2026-pass!"})),
    responses(
        (status = 200, description = "The new state", body = TwoFactorStatus),
        (status = 400, description = "invalid_request_body, totp_disable_required, or (turning off) password_or_code_required / current_password_wrong (field password)", body = ErrorBody),
        (status = 401, body = ErrorBody),
        (status = 429, description = "Too many wrong passwords", body = ErrorBody),
    ))]
async fn toggle_two_factor(Caller(s, user): Caller, ApiBytes(body): ApiBytes) -> Result<Json<TwoFactorStatus>, ApiError> {
    // The body is optional (older clients send none), so it is parsed here
    // rather than by the JSON extractor, which requires one.
    let req = if body.iter().all(u8::is_ascii_whitespace) {
        ToggleRequest { enabled: None, password: String::new() }
    } else {
        let value = serde_json::from_slice(&body).map_err(|e| {
            tracing::warn!(line = e.line(), column = e.column(), "request body refused");
            ApiError::BadRequest { message: Msg::InvalidRequestBody, fields: FieldErrors::of("body", Msg::InvalidRequestBody) }
        })?;
        shared::api::read_body::<ToggleRequest>(value)?
    };
    Ok(Json(two_factor::set_enabled(&s, user, req.enabled, &req.password).await?))
}

/// Start enrolling an authenticator app: a new pending secret (valid 15
/// minutes) as an `otpauth://` URI for the QR code and as base32 text.
#[utoipa::path(post, path = "/api/2fa/totp/setup/", tag = "auth", security(("bearer" = [])),
    responses(
        (status = 200, body = TotpSetupStarted),
        (status = 400, description = "totp_already_enabled", body = ErrorBody),
        (status = 401, body = ErrorBody),
    ))]
async fn totp_setup(Caller(s, user): Caller) -> Result<Json<TotpSetupStarted>, ApiError> {
    Ok(Json(two_factor::start_totp_setup(&s, &user).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"code": "123456"}))]
pub struct TotpConfirmRequest {
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub code: String,
}

/// Confirm the enrolment with the app's first code: the method becomes the
/// authenticator app, other sessions end, and ten one-time recovery codes are
/// returned (this once only) with new tokens for this session.
#[utoipa::path(post, path = "/api/2fa/totp/confirm/", tag = "auth", security(("bearer" = [])), request_body = TotpConfirmRequest,
    responses(
        (status = 200, body = TotpConfirmed),
        (status = 400, description = "code_format or code_not_correct (field code), totp_setup_attempts_exceeded, totp_setup_expired", body = ErrorBody),
        (status = 401, body = ErrorBody),
        (status = 429, body = ErrorBody),
    ))]
async fn totp_confirm(
    State(s): State<AppState>,
    ClientIp(ip): ClientIp,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<TotpConfirmRequest>,
) -> Result<Json<TotpConfirmed>, ApiError> {
    required(&[("code", &req.code)])?;
    Ok(Json(two_factor::confirm_totp(&s, user, &req.code, &ip).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"password": "Demo-2026-pass!", "code": "123456"}))]
pub struct TotpDisableRequest {
    #[serde(default)]
    pub password: String,
    /// An app code or a recovery code.
    #[serde(default)]
    pub code: String,
}

/// Remove the authenticator app and turn two-factor off, given the current
/// password or a valid app or recovery code.
#[utoipa::path(post, path = "/api/2fa/totp/disable/", tag = "auth", security(("bearer" = [])), request_body = TotpDisableRequest,
    responses(
        (status = 200, description = "Two-factor is off", body = TwoFactorStatus),
        (status = 400, description = "password_or_code_required, current_password_wrong (field password), code_not_correct or totp_code_used (field code), totp_not_enabled", body = ErrorBody),
        (status = 401, body = ErrorBody),
        (status = 429, body = ErrorBody),
    ))]
async fn totp_disable(
    State(s): State<AppState>,
    ClientIp(ip): ClientIp,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<TotpDisableRequest>,
) -> Result<Json<TwoFactorStatus>, ApiError> {
    Ok(Json(two_factor::disable_totp(&s, user, &req.password, &req.code, &ip).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"old_password": "Demo-2026-pass!", "new_password": "Nytt-lösen-2026!", "confirm_password": "Nytt-lösen-2026!"}))]
pub struct ChangePasswordRequest {
    #[serde(default)]
    #[schema(required = true, min_length = 1, format = Password)]
    pub old_password: String,
    #[serde(default)]
    #[schema(required = true, min_length = 8, max_length = 128, format = Password)]
    pub new_password: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, format = Password)]
    pub confirm_password: String,
}

/// Change the password, giving the current one. Other sessions end; this one
/// continues with the returned tokens.
#[utoipa::path(post, path = "/api/password/change/", tag = "auth", security(("bearer" = [])), request_body = ChangePasswordRequest,
    responses(
        (status = 200, description = "Changed; new tokens for this session", body = TokenPair),
        (status = 400, description = "current_password_wrong, password rules, passwords_do_not_match (per field)", body = ErrorBody),
        (status = 401, body = ErrorBody),
    ))]
async fn change_password(Caller(s, user): Caller, ApiJson(req): ApiJson<ChangePasswordRequest>) -> Result<Json<TokenPair>, ApiError> {
    required(&[("old_password", &req.old_password), ("new_password", &req.new_password), ("confirm_password", &req.confirm_password)])?;
    Ok(Json(passwords::change(&s, user, req.old_password, &req.new_password, &req.confirm_password).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"email": "customer@example.com"}))]
pub struct RecoverRequest {
    #[serde(default)]
    #[schema(required = true, min_length = 1, format = Email)]
    pub email: String,
}

/// Forgot password: mails a one-time link when the address has an active
/// account. Known and unknown addresses get the same answer.
#[utoipa::path(post, path = "/api/password/recover/", tag = "auth", request_body = RecoverRequest,
    responses((status = 200, body = Message), (status = 429, body = ErrorBody)))]
async fn recover_password(
    State(s): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<RecoverRequest>,
) -> Result<Json<Message>, ApiError> {
    required(&[("email", &req.email)])?;
    passwords::request_recovery(&s, &req.email, &ip).await?;
    Ok(Json(Message { message: Msg::RecoverySent }))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"token": "token-from-the-recovery-mail", "password": "Nytt-lösen-2026!", "confirm_password": "Nytt-lösen-2026!"}))]
pub struct ConfirmRecoveryRequest {
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub token: String,
    #[serde(default)]
    #[schema(required = true, min_length = 8, max_length = 128, format = Password)]
    pub password: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, format = Password)]
    pub confirm_password: String,
}

/// Set a new password from a recovery link (single use, valid one hour).
#[utoipa::path(post, path = "/api/password/recover/confirm/", tag = "auth", request_body = ConfirmRecoveryRequest,
    responses(
        (status = 200, body = Message),
        (status = 400, description = "link_invalid, or password rules per field", body = ErrorBody),
    ))]
async fn confirm_recovery(State(s): State<AppState>, ApiJson(req): ApiJson<ConfirmRecoveryRequest>) -> Result<Json<Message>, ApiError> {
    required(&[("token", &req.token), ("password", &req.password), ("confirm_password", &req.confirm_password)])?;
    passwords::confirm_recovery(&s, &req.token, &req.password, &req.confirm_password).await?;
    Ok(Json(Message { message: Msg::PasswordReset }))
}

// ---- BankID -------------------------------------------------------------

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"device": "qr"}))]
pub struct BankIdStartRequest {
    /// `qr` (the app on another device scans the code) or `this_device`
    /// (the app is started here by its autostart link): which messages BankID recommends.
    pub device: bankid_rules::Device,
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"order_ref": "131daac9-16c6-4618-beb0-365768f37288"}))]
pub struct BankIdOrderRequest {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 100)]
    pub order_ref: String,
}

use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::HeaderMap;
use axum::response::IntoResponse;
use shared::domain::bankid as bankid_rules;
use shared::services::credentials::bankid::{self, BankIdLink, BankIdProgress, BankIdStarted};

/// The order's cookie: HttpOnly (no script reads it), only sent to the
/// BankID calls, Secure wherever the app is served over https.
fn order_cookie(s: &AppState, secret: &str) -> String {
    let secure = if s.config.web_origin.starts_with("https://") { "; Secure" } else { "" };
    let ttl = bankid_rules::ORDER_TTL_SECS;
    format!("{}={secret}; Path=/api/bankid/; Max-Age={ttl}; HttpOnly; SameSite=Strict{secure}", bankid::COOKIE)
}

/// The order cookie's value, if the browser sent one.
fn order_secret(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == bankid::COOKIE)
        .map(|(_, value)| value.chars().take(128).collect())
}

/// The signed-in caller when the request carries a bearer token (a link
/// order's poll), else nobody; a bad token is a 401.
async fn optional_caller(s: &AppState, headers: &HeaderMap) -> Result<Option<shared::domain::User>, ApiError> {
    let Some(raw) = headers.get(axum::http::header::AUTHORIZATION) else { return Ok(None) };
    let raw = raw.to_str().map_err(|_| ApiError::NotAuthenticated)?;
    let (scheme, token) = raw.trim().split_once(' ').ok_or(ApiError::NotAuthenticated)?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(ApiError::NotAuthenticated);
    }
    Ok(Some(sessions::authenticate(s, token).await?))
}

/// Start signing in with BankID: an order at BankID for this browser
/// (bound to it by an HttpOnly cookie). Show `qr_data` as a QR code (and
/// `qr_data_next` a second later), or open
/// `bankid:///?autostarttoken=<auto_start_token>&redirect=null` on this
/// device; then poll `bankid/collect/` every `poll_ms`.
#[utoipa::path(post, path = "/api/bankid/auth/", tag = "auth", request_body = BankIdStartRequest,
    responses(
        (status = 200, description = "The order started; sets the `bankid_order` cookie", body = BankIdStarted),
        (status = 400, description = "bankid_rfa4 (an identification for this person is already running)", body = ErrorBody),
        (status = 429, description = "Too many starts or failed sign-ins from this address", body = ErrorBody),
        (status = 502, description = "BankID failed: bankid_rfa5 or bankid_rfa22", body = ErrorBody),
    ))]
async fn bankid_auth(
    State(s): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<BankIdStartRequest>,
) -> Result<impl IntoResponse, ApiError> {
    let (started, secret) = bankid::start(&s, None, req.device, &ip).await?;
    Ok(([(SET_COOKIE, order_cookie(&s, &secret))], Json(started)))
}

/// Poll a BankID order of this browser (its cookie; a link order also the
/// same signed-in user): BankID's state, the message BankID recommends
/// (`message`, a key of the web's `bankid:message.*`: `rfa1`, `rfa9`, …), the QR code's data while pending, and
/// on completion the sign-in's tokens (`auth`) or `linked`.
#[utoipa::path(post, path = "/api/bankid/collect/", tag = "auth", request_body = BankIdOrderRequest,
    responses(
        (status = 200, description = "pending, failed or complete", body = BankIdProgress),
        (status = 400, description = "bankid_order_finished (a finished order again), bankid_unknown_person (no account has this personal number), bankid_number_taken, bankid_already_linked, account_inactive", body = ErrorBody),
        (status = 401, description = "A bearer token that is not valid", body = ErrorBody),
        (status = 404, description = "No such order of this browser", body = ErrorBody),
        (status = 502, description = "BankID failed: bankid_rfa5 or bankid_rfa22", body = ErrorBody),
    ))]
async fn bankid_collect(
    State(s): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ApiJson(req): ApiJson<BankIdOrderRequest>,
) -> Result<Json<BankIdProgress>, ApiError> {
    let caller = optional_caller(&s, &headers).await?;
    Ok(Json(bankid::collect(&s, req.order_ref.trim(), order_secret(&headers).as_deref(), caller.as_ref(), &ip).await?))
}

/// Cancel this browser's BankID order (the user pressed cancel or left).
#[utoipa::path(post, path = "/api/bankid/cancel/", tag = "auth", request_body = BankIdOrderRequest,
    responses(
        (status = 200, description = "Cancelled", body = Message),
        (status = 400, description = "bankid_order_finished", body = ErrorBody),
        (status = 401, description = "A bearer token that is not valid", body = ErrorBody),
        (status = 404, description = "No such order of this browser", body = ErrorBody),
        (status = 502, description = "BankID failed: bankid_rfa5 or bankid_rfa22", body = ErrorBody),
    ))]
async fn bankid_cancel(
    State(s): State<AppState>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<BankIdOrderRequest>,
) -> Result<Json<Message>, ApiError> {
    let caller = optional_caller(&s, &headers).await?;
    bankid::cancel(&s, req.order_ref.trim(), order_secret(&headers).as_deref(), caller.as_ref()).await?;
    Ok(Json(Message { message: Msg::BankidCancelled }))
}

/// Whether the signed-in user has linked a personal number (BankID sign-in).
#[utoipa::path(get, path = "/api/bankid/link/", tag = "auth", security(("bearer" = [])),
    responses((status = 200, body = BankIdLink), (status = 401, body = ErrorBody)))]
async fn bankid_link_state(Caller(s, user): Caller) -> Result<Json<BankIdLink>, ApiError> {
    Ok(Json(bankid::link_state(&s, &user).await?))
}

/// Start linking BankID to the signed-in account: an order like
/// `bankid/auth/`; when it completes, the verified personal number is
/// linked (one account per number, one number per account).
#[utoipa::path(post, path = "/api/bankid/link/", tag = "auth", security(("bearer" = [])), request_body = BankIdStartRequest,
    responses(
        (status = 200, description = "The order started; sets the `bankid_order` cookie", body = BankIdStarted),
        (status = 400, description = "bankid_already_linked, bankid_rfa4", body = ErrorBody),
        (status = 401, body = ErrorBody),
        (status = 429, description = "Too many starts from this address", body = ErrorBody),
        (status = 502, description = "BankID failed: bankid_rfa5 or bankid_rfa22", body = ErrorBody),
    ))]
async fn bankid_link_start(
    State(s): State<AppState>,
    ClientIp(ip): ClientIp,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<BankIdStartRequest>,
) -> Result<impl IntoResponse, ApiError> {
    let (started, secret) = bankid::start(&s, Some(&user), req.device, &ip).await?;
    Ok(([(SET_COOKIE, order_cookie(&s, &secret))], Json(started)))
}

/// Remove the signed-in user's BankID link.
#[utoipa::path(delete, path = "/api/bankid/link/", tag = "auth", security(("bearer" = [])),
    responses(
        (status = 200, description = "Unlinked", body = Message),
        (status = 400, description = "bankid_not_linked", body = ErrorBody),
        (status = 401, body = ErrorBody),
    ))]
async fn bankid_unlink(Caller(s, user): Caller) -> Result<Json<Message>, ApiError> {
    bankid::unlink(&s, &user).await?;
    Ok(Json(Message { message: Msg::BankidUnlinked }))
}

//! The one error type of the API.
//!
//! Each variant maps to an HTTP status (spec §8 error catalogue) and a stable
//! message key that the web translates (`server.<key>` in its locales).
//! No HTTP types here: the `api` module turns this into a response.

use std::collections::BTreeMap;

/// Per-field error keys, e.g. `{"email": ["invalid_email"]}`.
pub type FieldErrors = BTreeMap<String, Vec<String>>;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400 with a message key and optional per-field keys.
    #[error("bad request: {message}")]
    BadRequest { message: &'static str, fields: FieldErrors },
    /// 400: wrong e-mail or password. Unknown e-mails answer the same, so the
    /// login form cannot be used to find out who has an account.
    #[error("invalid credentials")]
    InvalidCredentials,
    /// 401: no token, a tampered one, or the user is gone or inactive.
    #[error("not authenticated")]
    NotAuthenticated,
    /// 401: the token was valid but has expired.
    #[error("token expired")]
    TokenExpired,
    /// 403
    #[error("forbidden")]
    Forbidden,
    /// 403 naming the rule that refused (e.g. `only_admin_creates_staff`),
    /// for the spec's translated server messages.
    #[error("forbidden: {0}")]
    ForbiddenBy(&'static str),
    /// 404
    #[error("not found")]
    NotFound,
    /// 406: the spec's user-not-found answer.
    #[error("user not found")]
    UserNotFound,
    /// 405
    #[error("method not allowed")]
    MethodNotAllowed,
    /// 429: rate limit of sign-in, code or mail attempts.
    #[error("too many requests")]
    TooManyRequests,
    /// 500: details are logged, never sent.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    pub fn status(&self) -> u16 {
        match self {
            ApiError::BadRequest { .. } | ApiError::InvalidCredentials => 400,
            ApiError::NotAuthenticated | ApiError::TokenExpired => 401,
            ApiError::Forbidden | ApiError::ForbiddenBy(_) => 403,
            ApiError::NotFound => 404,
            ApiError::MethodNotAllowed => 405,
            ApiError::UserNotFound => 406,
            ApiError::TooManyRequests => 429,
            ApiError::Internal(_) => 500,
        }
    }

    /// Stable key the web translates.
    pub fn key(&self) -> &'static str {
        match self {
            ApiError::BadRequest { message, .. } => message,
            ApiError::InvalidCredentials => "invalid_credentials",
            ApiError::NotAuthenticated => "not_authenticated",
            ApiError::TokenExpired => "token_expired",
            ApiError::Forbidden => "forbidden",
            ApiError::ForbiddenBy(key) => key,
            ApiError::NotFound => "not_found",
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::UserNotFound => "user_not_found",
            ApiError::TooManyRequests => "too_many_requests",
            ApiError::Internal(_) => "internal",
        }
    }

    pub fn fields(&self) -> FieldErrors {
        match self {
            ApiError::BadRequest { fields, .. } => fields.clone(),
            _ => FieldErrors::new(),
        }
    }

    pub fn validation(fields: FieldErrors) -> Self {
        ApiError::BadRequest { message: "validation_failed", fields }
    }

    /// A 400 with one message key and no field errors.
    pub fn bad(message: &'static str) -> Self {
        ApiError::BadRequest { message, fields: FieldErrors::new() }
    }

    pub fn internal(e: impl std::fmt::Display) -> Self {
        ApiError::Internal(e.to_string())
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_follow_the_error_catalogue() {
        assert_eq!(ApiError::InvalidCredentials.status(), 400);
        assert_eq!(ApiError::NotAuthenticated.status(), 401);
        assert_eq!(ApiError::TokenExpired.status(), 401);
        assert_eq!(ApiError::Forbidden.status(), 403);
        assert_eq!(ApiError::ForbiddenBy("only_admin_creates_staff").status(), 403);
        assert_eq!(ApiError::ForbiddenBy("only_admin_creates_staff").key(), "only_admin_creates_staff");
        assert_eq!(ApiError::NotFound.status(), 404);
        assert_eq!(ApiError::UserNotFound.status(), 406);
        assert_eq!(ApiError::internal("boom").status(), 500);
        assert_eq!(ApiError::internal("boom").key(), "internal");
    }
}

//! Ratings (spec §1, §6): only the customer rates, once per closed case,
//! 1–5 stars with an optional comment; the lawyer sees their ratings and
//! admin each lawyer's average.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::case::{Case, CaseStatus};
use super::{Role, User};
use crate::error::{ApiError, FieldErrors, Msg};

/// A comment is at most this long (characters).
pub const COMMENT_MAX_CHARS: usize = 2000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Rating {
    pub case_uid: String,
    pub case_number: String,
    pub subject: String,
    pub lawyer: String,
    pub lawyer_name: String,
    pub customer: String,
    pub customer_name: String,
    /// 1 to 5.
    pub stars: u8,
    pub comment: String,
    #[schema(value_type = String)]
    pub at: DateTime<Utc>,
}

/// Who may rate this case now: its customer (not a contact, not staff), once
/// the case is closed and had a lawyer.
pub fn may_rate(user: &User, case: &Case) -> Result<String, ApiError> {
    if !super::policy::is(user, Role::Customer) {
        return Err(ApiError::ForbiddenBy(Msg::OnlyCustomerRates));
    }
    if case.customer != user.uid {
        return Err(ApiError::NotFound);
    }
    if case.status != CaseStatus::Complete {
        return Err(ApiError::bad(Msg::RateClosedCasesOnly));
    }
    case.lawyer.clone().ok_or(ApiError::bad(Msg::RateClosedCasesOnly))
}

/// Stars 1–5 and a bounded comment.
pub fn validate(stars: Option<i64>, comment: &str) -> Result<(u8, String), ApiError> {
    let mut f = FieldErrors::new();
    let stars = match stars {
        Some(s @ 1..=5) => s as u8,
        Some(_) => {
            f.add("stars", Msg::Invalid);
            0
        }
        None => {
            f.add("stars", Msg::Required);
            0
        }
    };
    let comment = super::text::bounded(comment, COMMENT_MAX_CHARS, super::text::clean_long).map_err(|m| f.add("comment", m));
    f.check()?;
    Ok((stars, comment.unwrap_or_default()))
}

/// A lawyer's average, one decimal, from the sum and count kept with each rating.
pub fn average(sum: u64, count: u64) -> Option<f64> {
    (count > 0).then(|| (sum as f64 / count as f64 * 10.0).round() / 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stars_and_comments() {
        assert_eq!(validate(Some(5), " Bra ").unwrap(), (5, "Bra".into()));
        assert_eq!(validate(Some(0), "").unwrap_err().fields()["stars"], [Msg::Invalid]);
        assert_eq!(validate(Some(6), "").unwrap_err().fields()["stars"], [Msg::Invalid]);
        assert_eq!(validate(None, "").unwrap_err().fields()["stars"], [Msg::Required]);
        assert!(validate(Some(3), &"x".repeat(COMMENT_MAX_CHARS + 1)).is_err());
        assert_eq!(average(9, 2), Some(4.5));
        assert_eq!(average(10, 3), Some(3.3));
        assert_eq!(average(0, 0), None);
    }
}

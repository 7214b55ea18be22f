//! Ratings (spec §1, §6): the customer rates a closed case once; the lawyer
//! reads their ratings and admin each lawyer's (their average and count are
//! on the lawyer's staff profile, raised in the rating's transaction).

use chrono::Utc;

use super::cases::visible;
use super::events::{self, Event};
use super::Context;
use crate::domain::policy;
use crate::domain::rating::{self, Rating};
use crate::domain::User;
use crate::error::{ApiError, Msg};
use crate::store::idempotency::Once;

/// A lawyer's page of ratings shows at most this many, newest first.
pub const LIST_LIMIT: i32 = 100;

/// `rating/create/`: the customer rates its closed case, once.
pub async fn rate(ctx: &Context, user: &User, case_uid: &str, stars: Option<i64>, comment: &str, once: &Once) -> Result<Rating, ApiError> {
    let c = visible(ctx, user, case_uid).await?;
    super::erasure::writable(&c)?;
    let lawyer = rating::may_rate(user, &c)?;
    let (stars, comment) = rating::validate(stars, comment)?;
    let lawyer_name = c.lawyer_name.clone().unwrap_or_default();
    let r = Rating {
        case_uid: c.uid.clone(),
        case_number: c.case_number.clone(),
        subject: c.subject.clone(),
        lawyer,
        lawyer_name,
        customer: user.uid.clone(),
        customer_name: c.customer_name.clone(),
        stars,
        comment,
        at: Utc::now(),
    };
    let has_profile = ctx.store.get_staff(&r.lawyer).await?.is_some();
    let mut tx = ctx.store.tx();
    ctx.store.add_rating(&mut tx, &r, has_profile)?;
    once.record(&mut tx, &r)?;
    let queued = events::record(ctx, &mut tx, &[Event::CaseRated { case: &c, rating: &r }]).await?;
    if !events::commit(ctx, tx, queued).await? {
        return Err(ApiError::bad(Msg::AlreadyRated));
    }
    Ok(r)
}

/// The rating of a case, if any (whoever may see the case).
pub async fn of_case(ctx: &Context, user: &User, case_uid: &str) -> Result<Option<Rating>, ApiError> {
    let c = visible(ctx, user, case_uid).await?;
    ctx.store.get_rating(&c.uid).await
}

/// `rating/`: a lawyer's own ratings; admin names the lawyer.
pub async fn of_lawyer(ctx: &Context, user: &User, lawyer: Option<&str>) -> Result<Vec<Rating>, ApiError> {
    let lawyer = policy::ratings_of(user, lawyer)?;
    ctx.store.lawyer_ratings(&lawyer, LIST_LIMIT).await
}

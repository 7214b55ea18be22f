//! Terms and privacy: the current texts for anyone (`public/`), admin
//! publishing a new version, the versions a registration accepts (recorded
//! in its transaction), and the customer's acceptance of a newer version
//! after signing in. Rules in [`crate::domain::legal`].

use chrono::{DateTime, Utc};

use super::Context;
use crate::domain::legal::{self, Acceptance, LegalKind, LegalText, LegalVersion};
use crate::domain::policy::{self, Action};
use crate::domain::User;
use crate::error::{ApiError, FieldErrors, Msg};
use crate::store::idempotency::Once;
use crate::store::tx::Tx;

/// The current version of a text, or `None` before any is published.
pub async fn current_if_any(ctx: &Context, kind: LegalKind) -> Result<Option<LegalText>, ApiError> {
    ctx.store.current_legal(kind).await
}

/// Every version of a text, newest first, without the texts (admin; the
/// current text is `public/`'s).
pub async fn versions(ctx: &Context, user: &User, kind: LegalKind) -> Result<Vec<LegalVersion>, ApiError> {
    policy::require(user, Action::ManageCatalogue)?;
    ctx.store.legal_versions(kind).await
}

/// Admin publishes the next version of a text; signed-in customers are
/// asked to accept it once. Answers the version without its texts, which
/// the caller sent (and a replay's record stays small).
pub async fn publish(ctx: &Context, user: &User, kind: LegalKind, sv: &str, en: &str, once: &Once) -> Result<LegalVersion, ApiError> {
    policy::require(user, Action::ManageCatalogue)?;
    let (sv, en) = legal::validate_texts(sv, en)?;
    for _ in 0..5 {
        let version = ctx.store.current_legal_version(kind).await?.map_or(1, |t| t.version + 1);
        let t = LegalText { kind, version, sv: sv.clone(), en: en.clone(), published_at: Utc::now(), published_by: user.uid.clone() };
        let mut tx = ctx.store.tx();
        ctx.store.add_legal_version(&mut tx, &t)?;
        once.record(&mut tx, &t.summary())?;
        if ctx.store.commit(tx).await? {
            return Ok(t.summary());
        }
    }
    Err(ApiError::bad(Msg::ChangedConcurrently))
}

/// The versions a registration records: the current one of each text
/// (refused when the form showed an older one).
pub async fn versions_to_accept(ctx: &Context, terms: Option<u32>, privacy: Option<u32>) -> Result<Vec<(LegalKind, u32)>, ApiError> {
    let mut out = Vec::new();
    let mut errors = FieldErrors::new();
    for (kind, sent) in [(LegalKind::Terms, terms), (LegalKind::Privacy, privacy)] {
        let current = ctx.store.current_legal_version(kind).await?.map(|t| t.version);
        match legal::version_to_record(kind, current, sent) {
            Ok(Some(v)) => out.push((kind, v)),
            Ok(None) => {}
            Err(e) => errors.merge(e.fields()),
        }
    }
    errors.check()?;
    Ok(out)
}

/// Adds the acceptances of `versions` by `user_uid` at `at` to a transaction.
pub fn add_acceptances(
    ctx: &Context,
    tx: &mut Tx,
    user_uid: &str,
    versions: &[(LegalKind, u32)],
    at: DateTime<Utc>,
) -> Result<(), ApiError> {
    for &(kind, version) in versions {
        ctx.store.add_acceptance(tx, user_uid, &Acceptance { kind, version, accepted_at: at })?;
    }
    Ok(())
}

/// The current texts the caller has not accepted (customers only; empty
/// for everyone else).
pub async fn pending(ctx: &Context, user: &User) -> Result<Vec<LegalText>, ApiError> {
    if !legal::must_accept(user) {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for kind in LegalKind::ALL {
        // The texts (up to 800 KB each) are read only when not accepted yet.
        if let Some(v) = ctx.store.current_legal_version(kind).await? {
            if ctx.store.acceptance(&user.uid, kind, v.version).await?.is_none() {
                out.extend(ctx.store.current_legal(kind).await?);
            }
        }
    }
    Ok(out)
}

/// The caller accepts `version` of a text: only the current one.
pub async fn accept(ctx: &Context, user: &User, kind: LegalKind, version: u32) -> Result<Acceptance, ApiError> {
    let current = ctx.store.current_legal_version(kind).await?.ok_or(ApiError::NotFound)?;
    if current.version != version {
        return Err(ApiError::field("version", Msg::LegalVersionOutdated));
    }
    let a = Acceptance { kind, version, accepted_at: Utc::now() };
    ctx.store.put_acceptance(&user.uid, &a).await?;
    Ok(ctx.store.acceptance(&user.uid, kind, version).await?.unwrap_or(a))
}

/// The caller's own acceptances (the profile shows them).
pub async fn my_acceptances(ctx: &Context, user: &User) -> Result<Vec<Acceptance>, ApiError> {
    ctx.store.acceptances(&user.uid).await
}

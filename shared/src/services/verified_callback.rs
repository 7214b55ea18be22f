//! The signing provider's callback: an envelope changed
//! at the provider. Authenticated by the HMAC signature of
//! `providers::callback` (shared secret from configuration, stale
//! timestamps refused); the envelope is then updated exactly as polling
//! does (`addons::apply_status`), which writes nothing for an answer that
//! changes nothing, so a repeated callback is harmless.

use super::addons::{apply_status, token_of};
use super::Context;
use crate::error::{ApiError, Msg};
use crate::providers::callback;
use crate::providers::signing::EnvelopeStatus;

/// Bodies above this are not a status update.
pub const MAX_BODY: usize = 64 * 1024;

pub async fn envelope_changed(ctx: &Context, signature: Option<&str>, body: &[u8]) -> Result<(), ApiError> {
    if body.len() > MAX_BODY {
        return Err(ApiError::PayloadTooLarge);
    }
    if let Err(why) = callback::verify(&ctx.providers.callback_secret, signature, body, chrono::Utc::now().timestamp()) {
        tracing::warn!(why = ?why, "signing callback refused");
        return Err(ApiError::NotAuthenticated);
    }
    let status: EnvelopeStatus = serde_json::from_slice(body).map_err(|_| ApiError::bad(Msg::Invalid))?;
    let (customer, uid) = ctx.store.envelope_pointer(&status.id).await?.ok_or(ApiError::NotFound)?;
    let token = token_of(ctx, &customer).await?;
    apply_status(ctx, &token, &customer, &uid, &status).await?;
    Ok(())
}

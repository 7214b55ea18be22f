//! Signing in with BankID, and linking a personal number to an account.
//!
//! An order is started for the browser (`start`), which then polls every
//! two seconds (`collect`): each poll asks BankID once and answers the
//! state, the message BankID recommends for it, and the QR code's data for
//! this second and the next (the browser shows the second one a second
//! later), so the QR secret stays here.
//!
//! Binding to the browser: `start` sets an HttpOnly, SameSite=Strict cookie
//! holding a random secret (only its SHA-256 is stored with the order);
//! every poll and cancel must carry it. The browser's scripts never see it,
//! and an orderRef seen elsewhere (a shared screen, a log) is useless
//! without it. (The device token cannot do this: a browser that never
//! signed in has none.) An order ends once: the call that sees it complete,
//! fail or be cancelled marks it finished (conditionally), and any later
//! call with its orderRef is refused.
//!
//! A completed sign-in order signs in the account linked to the verified
//! personal number: both factors at once, the same tokens and audit event as
//! a password-and-code sign-in (detail `bankid`). An unknown number is
//! refused (`bankid_unknown_person`) and counts as a failed sign-in of the
//! address; no account is made. A number is linked by the signed-in user
//! completing an order of their own (never by typing it), one number per
//! account and one account per number.

use chrono::Utc;
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::{complete_sign_in_by, count_failed_sign_in, customer_of, inactive_reason};
use crate::auth::TokenPair;
use crate::domain::audit::{AuditAction, AuditEvent};
use crate::domain::bankid::{self as rules, Device, Order, OrderStatus, Purpose};
use crate::domain::User;
use crate::error::{ApiError, Msg};
use crate::providers::bankid::{BankIdError, Collected};
use crate::providers::http::ProviderError;
use crate::services::Context;
use crate::store::bankid::Linked;
use crate::store::rate_limit;

/// The cookie that binds an order to its browser.
pub const COOKIE: &str = "bankid_order";

/// What `start` answers (the cookie's secret goes in a header).
#[derive(Serialize, ToSchema)]
pub struct BankIdStarted {
    pub order_ref: String,
    /// For `bankid:///?autostarttoken=<token>&redirect=null` on this device.
    pub auto_start_token: String,
    /// The QR code's data now, and a second later.
    pub qr_data: String,
    pub qr_data_next: String,
    /// How long to wait before the next poll.
    pub poll_ms: u32,
}

/// What a poll answers.
#[derive(Serialize, ToSchema)]
pub struct BankIdProgress {
    pub status: OrderStatus,
    /// BankID's hint code, as it came.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint_code: Option<String>,
    /// The message BankID recommends: a key of the web's `bankid:message.*`
    /// (`rfa1`, `rfa9`, …, or `complete`).
    pub message: &'static str,
    /// While pending: the QR code's data now, and a second later.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qr_data: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qr_data_next: Option<String>,
    /// A completed sign-in: the tokens (as `token/2fa/` answers them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auth: Option<TokenPair>,
    /// A completed link.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub linked: bool,
}

/// Whether the signed-in user has a personal number linked.
#[derive(Serialize, ToSchema)]
pub struct BankIdLink {
    pub linked: bool,
    /// The number with its last four digits hidden (`19900101-****`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub personal_number: Option<String>,
}

fn now_ms() -> i64 {
    Utc::now().timestamp_millis()
}

fn digest(secret: &str) -> String {
    Sha256::digest(secret.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// An address BankID accepts as `endUserIp` (the local gateway's peer is
/// one; anything else, which API Gateway never sends, becomes loopback).
fn end_user_ip(client: &str) -> String {
    client.parse::<std::net::IpAddr>().map(|ip| ip.to_string()).unwrap_or_else(|_| "127.0.0.1".into())
}

fn provider_error(e: BankIdError) -> ApiError {
    match e {
        BankIdError::Refused(code) if code == "alreadyInProgress" => ApiError::bad(Msg::BankidRfa4),
        BankIdError::Refused(code) => {
            tracing::warn!(error_code = %code, "BankID refused a call");
            ApiError::Provider(Msg::BankidRfa22)
        }
        BankIdError::Call(ProviderError::Timeout | ProviderError::Unavailable) => ApiError::Provider(Msg::BankidRfa5),
        BankIdError::Call(_) => ApiError::Provider(Msg::BankidRfa22),
    }
}

/// Starts an order: to sign in (`user` none), or to link the signed-in
/// `user`. The second value is the cookie's secret.
pub async fn start(s: &Context, user: Option<&User>, device: Device, client: &str) -> Result<(BankIdStarted, String), ApiError> {
    let client: String = client.chars().take(64).collect();
    let t = Utc::now().timestamp();
    // An address refused for failed sign-ins is refused here too.
    if s.store.rate_exceeded(rate_limit::LOGIN_PER_ADDRESS, &client, t).await? {
        return Err(ApiError::TooManyRequests);
    }
    s.store.rate_limit(rate_limit::BANKID_START_PER_ADDRESS, &client, t).await?;
    if let Some(u) = user {
        may_link(s, u).await?;
    }
    let text = match user {
        None => "Logga in / Sign in",
        Some(_) => "Koppla BankID till ditt konto / Link BankID to your account",
    };
    let a = s.providers.bankid.auth(&end_user_ip(&client), text).await.map_err(provider_error)?;
    let started_ms = now_ms();
    let secret = format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple());
    let order = Order {
        order_ref: a.order_ref.clone(),
        purpose: if user.is_some() { Purpose::Link } else { Purpose::Login },
        user_uid: user.map(|u| u.uid.clone()).unwrap_or_default(),
        qr_start_token: a.qr_start_token,
        qr_start_secret: a.qr_start_secret,
        started_ms,
        browser: digest(&secret),
        device,
        finished: false,
        expires_at: started_ms / 1000 + rules::ORDER_TTL_SECS,
    };
    s.store.save_bankid_order(&order).await?;
    let started = BankIdStarted {
        order_ref: a.order_ref,
        auto_start_token: a.auto_start_token,
        qr_data: order.qr_at(started_ms),
        qr_data_next: order.qr_at(started_ms + 1000),
        poll_ms: rules::POLL_MS,
    };
    Ok((started, secret))
}

/// The order `order_ref` if this browser (`secret`) started it and, for a
/// link, the same user polls; anything else is not found (a foreign
/// orderRef tells nothing). A finished one is refused.
async fn own_order(s: &Context, order_ref: &str, secret: Option<&str>, caller: Option<&User>) -> Result<Order, ApiError> {
    // The field's own rules first (as documented), then the lookup: an order of another browser is not found.
    if order_ref.is_empty() {
        return Err(ApiError::field("order_ref", Msg::Required));
    }
    if order_ref.chars().count() > 100 {
        return Err(ApiError::field("order_ref", Msg::TooLong));
    }
    let order = s.store.get_bankid_order(order_ref).await?.ok_or(ApiError::NotFound)?;
    let same_browser = secret.is_some_and(|v| digest(v) == order.browser);
    let same_user = match order.purpose {
        Purpose::Login => true,
        Purpose::Link => caller.is_some_and(|u| u.uid == order.user_uid),
    };
    if !same_browser || !same_user || order.expires_at <= Utc::now().timestamp() {
        return Err(ApiError::NotFound);
    }
    if order.finished {
        return Err(ApiError::bad(Msg::BankidOrderFinished));
    }
    Ok(order)
}

/// One poll: asks BankID once and acts on a completed or failed order.
pub async fn collect(
    s: &Context,
    order_ref: &str,
    secret: Option<&str>,
    caller: Option<&User>,
    client: &str,
) -> Result<BankIdProgress, ApiError> {
    let order = own_order(s, order_ref, secret, caller).await?;
    let collected = match s.providers.bankid.collect(&order.order_ref).await {
        Ok(c) => c,
        // BankID no longer knows the order (ended on its side).
        Err(BankIdError::Refused(code)) if code == "invalidParameters" => {
            s.store.finish_bankid_order(&order.order_ref).await?;
            Collected { status: OrderStatus::Failed, hint_code: None, personal_number: None, name: None }
        }
        Err(e) => return Err(provider_error(e)),
    };
    let message = rules::message(collected.status, collected.hint_code.as_deref(), order.device);
    let mut progress = BankIdProgress {
        status: collected.status,
        hint_code: collected.hint_code.clone(),
        message,
        qr_data: None,
        qr_data_next: None,
        auth: None,
        linked: false,
    };
    match collected.status {
        OrderStatus::Pending => {
            let t = now_ms();
            progress.qr_data = Some(order.qr_at(t));
            progress.qr_data_next = Some(order.qr_at(t + 1000));
            Ok(progress)
        }
        OrderStatus::Failed => {
            s.store.finish_bankid_order(&order.order_ref).await?;
            Ok(progress)
        }
        OrderStatus::Complete => {
            if !s.store.finish_bankid_order(&order.order_ref).await? {
                // Another poll of the same order completed it first.
                return Err(ApiError::bad(Msg::BankidOrderFinished));
            }
            let number = collected.personal_number.ok_or(ApiError::Provider(Msg::BankidRfa22))?;
            match order.purpose {
                Purpose::Login => progress.auth = Some(sign_in(s, &number, client).await?),
                Purpose::Link => {
                    let user = caller.ok_or(ApiError::NotAuthenticated)?;
                    link(s, user, &number).await?;
                    progress.linked = true;
                }
            }
            Ok(progress)
        }
    }
}

async fn sign_in(s: &Context, number: &str, client: &str) -> Result<TokenPair, ApiError> {
    let owner = s.store.personal_number_owner(number).await?;
    let user = match owner {
        Some(uid) => s.store.get_user(&uid).await?,
        None => None,
    };
    let Some(user) = user else {
        let client: String = client.chars().take(64).collect();
        count_failed_sign_in(s, &[(rate_limit::LOGIN_PER_ADDRESS, client.as_str())], Utc::now().timestamp()).await?;
        crate::services::audit::record(s, AuditEvent::anonymous(AuditAction::SignInFailed).detail("bankid_unknown_person")).await;
        return Err(ApiError::bad(Msg::BankidUnknownPerson));
    };
    if !user.active {
        return Err(ApiError::bad(inactive_reason(s, &user).await?));
    }
    complete_sign_in_by(s, &user, Some("bankid")).await
}

async fn link(s: &Context, user: &User, number: &str) -> Result<(), ApiError> {
    match s.store.link_bankid(&user.uid, number, Utc::now().timestamp()).await? {
        Linked::Done => {
            let event = AuditEvent::by(user, AuditAction::CustomerChanged).customer(customer_of(user)).detail("bankid_linked");
            crate::services::audit::record(s, event).await;
            Ok(())
        }
        Linked::NumberTaken => Err(ApiError::bad(Msg::BankidNumberTaken)),
        Linked::AccountHasOne => Err(ApiError::bad(Msg::BankidAlreadyLinked)),
    }
}

/// Cancels the browser's order at BankID (the user left or pressed cancel).
pub async fn cancel(s: &Context, order_ref: &str, secret: Option<&str>, caller: Option<&User>) -> Result<(), ApiError> {
    let order = own_order(s, order_ref, secret, caller).await?;
    s.store.finish_bankid_order(&order.order_ref).await?;
    match s.providers.bankid.cancel(&order.order_ref).await {
        // Already over at BankID: nothing left to cancel.
        Ok(()) | Err(BankIdError::Refused(_)) => Ok(()),
        Err(e) => Err(provider_error(e)),
    }
}

pub async fn link_state(s: &Context, user: &User) -> Result<BankIdLink, ApiError> {
    let number = s.store.bankid_link_of(&user.uid).await?;
    Ok(BankIdLink { linked: number.is_some(), personal_number: number.map(|n| format!("{}-****", &n[..n.len().min(8)])) })
}

/// Removes the user's link (`bankid_not_linked` without one).
pub async fn unlink(s: &Context, user: &User) -> Result<(), ApiError> {
    if s.store.unlink_bankid(&user.uid).await? {
        Ok(())
    } else {
        Err(ApiError::bad(Msg::BankidNotLinked))
    }
}

/// Whether a link order is refused before it starts: one number per account.
pub async fn may_link(s: &Context, user: &User) -> Result<(), ApiError> {
    match s.store.bankid_link_of(&user.uid).await? {
        Some(_) => Err(ApiError::bad(Msg::BankidAlreadyLinked)),
        None => Ok(()),
    }
}

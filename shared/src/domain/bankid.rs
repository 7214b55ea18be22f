//! Signing in with BankID (the Relying Party API v6): the animated QR code's
//! data, the user messages BankID recommends for each state (its "RFA"
//! texts, translated in the web under `server.bankid_rfa*`), and the order
//! kept while the user answers in the app. The messages are keys of the
//! web's `bankid` namespace (`message.rfa*`), which loads with the BankID
//! panel only.
//!
//! - `auth` answers `orderRef`, `autoStartToken`, `qrStartToken` and
//!   `qrStartSecret`. The QR code shows `bankid.<qrStartToken>.<seconds>.<qrAuthCode>`,
//!   where `seconds` is the whole seconds since that answer and `qrAuthCode`
//!   the hex HMAC-SHA256 of `seconds` (as a decimal string) under
//!   `qrStartSecret`. It changes every second and is computed on the server:
//!   the secret never reaches the browser.
//! - `collect` answers `status` `pending`, `failed` or `complete`; a pending
//!   or failed order has a `hintCode`, a complete one `completionData.user`
//!   with the verified `personalNumber`.

use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

/// How long an order is kept: BankID ends an unanswered order after 30
/// seconds of QR codes or a few minutes in the app; this covers both.
pub const ORDER_TTL_SECS: i64 = 10 * 60;

/// How often the browser asks (BankID: collect every two seconds).
pub const POLL_MS: u32 = 2000;

/// The QR code's data `seconds` after the `auth` answer.
pub fn qr_data(qr_start_token: &str, qr_start_secret: &str, seconds: u64) -> String {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(qr_start_secret.as_bytes()).expect("any key length");
    mac.update(seconds.to_string().as_bytes());
    let code: String = mac.finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect();
    format!("bankid.{qr_start_token}.{seconds}.{code}")
}

/// A personal number as BankID returns it: twelve digits (YYYYMMDDNNNC).
pub fn is_personal_number(text: &str) -> bool {
    text.len() == 12 && text.bytes().all(|b| b.is_ascii_digit()) && crate::domain::identity_number::luhn_ok(&text[2..])
}

/// An order's state as `collect` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum OrderStatus {
    Pending,
    Failed,
    Complete,
}

/// What the order is for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// Signing in: the person's linked account.
    Login,
    /// Linking the person to the signed-in user `uid`.
    Link,
}

/// An order while the user answers it (`BANKID#<orderRef>`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Order {
    pub order_ref: String,
    pub purpose: Purpose,
    /// The user linking (purpose `link`), else empty.
    #[serde(default)]
    pub user_uid: String,
    pub qr_start_token: String,
    pub qr_start_secret: String,
    /// When `auth` answered (unix milliseconds): the QR code's clock.
    pub started_ms: i64,
    /// SHA-256 (hex) of the secret in the browser's `bankid_order` cookie.
    pub browser: String,
    /// How the app is started (which texts BankID recommends).
    #[serde(default)]
    pub device: Device,
    /// Set once, by the call that saw the order end (completed, failed or
    /// cancelled): a later call with the same orderRef is refused.
    #[serde(default)]
    pub finished: bool,
    pub expires_at: i64,
}

impl Order {
    /// Whole seconds since `auth` answered, at `now_ms`.
    pub fn qr_seconds(&self, now_ms: i64) -> u64 {
        u64::try_from((now_ms - self.started_ms).max(0) / 1000).unwrap_or(0)
    }

    pub fn qr_at(&self, now_ms: i64) -> String {
        qr_data(&self.qr_start_token, &self.qr_start_secret, self.qr_seconds(now_ms))
    }
}

/// How the user started the app: the QR code on another device, or the
/// autostart link on this one (BankID recommends other texts for each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Device {
    #[default]
    Qr,
    ThisDevice,
}

/// The hint codes BankID documents for a pending order.
pub const PENDING_HINTS: [&str; 6] = ["outstandingTransaction", "noClient", "started", "userMrtd", "userCallConfirm", "userSign"];
/// The hint codes BankID documents for a failed order.
pub const FAILED_HINTS: [&str; 8] = [
    "expiredTransaction",
    "certificateErr",
    "userCancel",
    "cancelled",
    "startFailed",
    "userDeclinedCall",
    "notSupportedByUserApp",
    "transactionRiskBlocked",
];

/// The message BankID recommends for a pending or failed order's hint (its
/// "RFA" table), as a key of the web's `bankid:message.*`. An unknown hint gets the generic text of its status, as
/// BankID asks (new hint codes may come without notice).
pub fn message(status: OrderStatus, hint: Option<&str>, device: Device) -> &'static str {
    match (status, hint.unwrap_or_default()) {
        (OrderStatus::Pending, "outstandingTransaction" | "noClient") => match device {
            Device::Qr => "rfa1",
            Device::ThisDevice => "rfa13",
        },
        (OrderStatus::Pending, "started") => match device {
            Device::Qr => "rfa14",
            Device::ThisDevice => "rfa15",
        },
        (OrderStatus::Pending, "userMrtd") => "rfa23",
        (OrderStatus::Pending, "userSign") => "rfa9",
        (OrderStatus::Pending, _) => "rfa21",
        (OrderStatus::Failed, "expiredTransaction") => "rfa8",
        (OrderStatus::Failed, "certificateErr") => "rfa16",
        (OrderStatus::Failed, "userCancel") => "rfa6",
        (OrderStatus::Failed, "cancelled") => "rfa3",
        (OrderStatus::Failed, "startFailed") => match device {
            Device::Qr => "rfa17b",
            Device::ThisDevice => "rfa17a",
        },
        (OrderStatus::Failed, _) => "rfa22",
        (OrderStatus::Complete, _) => "complete",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qr_data_follows_the_published_example() {
        // BankID's own example: this token and secret at 0 and 1 seconds.
        let (token, secret) = ("67df3917-fa0d-44e5-b327-edcc928297f8", "d28db9a7-4cde-429e-a983-359be676944c");
        assert_eq!(
            qr_data(token, secret, 0),
            "bankid.67df3917-fa0d-44e5-b327-edcc928297f8.0.dc69358e712458a66a7525beef148ae8526b1c71610eff2c16cdffb4cdac9bf8"
        );
        assert_eq!(
            qr_data(token, secret, 1),
            "bankid.67df3917-fa0d-44e5-b327-edcc928297f8.1.949d559bf23403952a94d103e67743126381eda00f0b3cbddbf7c96b1adcbce2"
        );
        let order = Order {
            order_ref: "o".into(),
            purpose: Purpose::Login,
            user_uid: String::new(),
            qr_start_token: token.into(),
            qr_start_secret: secret.into(),
            started_ms: 1_000_000,
            browser: String::new(),
            device: Device::Qr,
            finished: false,
            expires_at: 0,
        };
        assert_eq!(order.qr_seconds(1_002_999), 2);
        assert_eq!(order.qr_seconds(999_000), 0);
        assert!(order.qr_at(1_001_500).ends_with(".1.949d559bf23403952a94d103e67743126381eda00f0b3cbddbf7c96b1adcbce2"));
    }

    #[test]
    fn every_documented_hint_has_its_recommended_message() {
        use Device::*;
        use OrderStatus::*;
        let cases = [
            (Pending, "outstandingTransaction", Qr, "rfa1"),
            (Pending, "outstandingTransaction", ThisDevice, "rfa13"),
            (Pending, "noClient", Qr, "rfa1"),
            (Pending, "started", Qr, "rfa14"),
            (Pending, "started", ThisDevice, "rfa15"),
            (Pending, "userSign", Qr, "rfa9"),
            (Pending, "userMrtd", Qr, "rfa23"),
            (Pending, "userCallConfirm", Qr, "rfa21"),
            (Pending, "somethingNew", Qr, "rfa21"),
            (Failed, "userCancel", Qr, "rfa6"),
            (Failed, "expiredTransaction", Qr, "rfa8"),
            (Failed, "certificateErr", Qr, "rfa16"),
            (Failed, "startFailed", Qr, "rfa17b"),
            (Failed, "startFailed", ThisDevice, "rfa17a"),
            (Failed, "cancelled", Qr, "rfa3"),
            (Failed, "transactionRiskBlocked", Qr, "rfa22"),
            (Failed, "somethingNew", Qr, "rfa22"),
        ];
        for (status, hint, device, want) in cases {
            assert_eq!(message(status, Some(hint), device), want, "{status:?} {hint} {device:?}");
        }
        for hint in PENDING_HINTS {
            assert!(message(Pending, Some(hint), Qr).starts_with("rfa"));
        }
        for hint in FAILED_HINTS {
            assert!(message(Failed, Some(hint), Qr).starts_with("rfa"));
        }
    }

    #[test]
    fn personal_numbers_are_twelve_digits_with_a_check_digit() {
        assert!(is_personal_number("199001012385"));
        assert!(!is_personal_number("199001012386"));
        assert!(!is_personal_number("9001012385"));
        assert!(!is_personal_number("19900101238x"));
    }
}

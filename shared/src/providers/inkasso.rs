//! The collection agency (Inkasso). No agency the platform works with
//! publishes an API for registering a creditor or handing over claims, so
//! the hand-over is manual: each account application and each claim is
//! mailed, from the platform's configured sender, to the configured
//! hand-over address (the office's collection mailbox, or the agency's own
//! intake address), with everything the agency needs; staff then register
//! the company or the claim with the agency and record its answer on the
//! hand-over page. [`Inkasso`] is all the use cases see, so an agency's API
//! can take the mail's place behind it without touching them.

use super::http::ProviderError;
use super::Fut;
use crate::mail::Mailer;

/// Where the hand-overs go with the local stand-ins (the local outbox keeps
/// them; the `.invalid` domain never reaches anyone).
pub const LOCAL_HANDOVER: &str = "inkasso@handover.invalid";

/// One hand-over: the mail's subject and text (Swedish, then English).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandOver {
    pub subject: String,
    pub body: String,
}

pub trait Inkasso: Send + Sync {
    /// Hands `h` over to the agency (an account application or a claim).
    fn hand_over<'a>(&'a self, mail: &'a Mailer, h: &'a HandOver) -> Fut<'a, ()>;
}

/// The hand-over by e-mail to `to` (`INKASSO_HANDOVER_EMAIL`; none: not
/// configured, so nothing can be handed over and the use case says the
/// service is unavailable).
pub struct MailHandOver {
    pub to: Option<String>,
}

impl Inkasso for MailHandOver {
    fn hand_over<'a>(&'a self, mail: &'a Mailer, h: &'a HandOver) -> Fut<'a, ()> {
        Box::pin(async move {
            let result = match self.to.as_deref() {
                Some(to) => mail.send(to, &h.subject, &h.body).await.map_err(|_| ProviderError::Unavailable),
                None => Err(ProviderError::Unavailable),
            };
            // Counted with the providers' calls: the provider-error alarm sees a failing hand-over.
            super::http::count("inkasso", result);
            result
        })
    }
}

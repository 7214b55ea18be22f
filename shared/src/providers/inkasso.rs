//! The debt-collection provider (Inkasso): the company's account application
//! (the prospect, decided later by the provider: `pending`, then `approved`
//! or `rejected`), and claims registered under the approved account with
//! their status as the provider follows them up (`registered`,
//! `reminder_sent`, `collection`, `paid`, `closed`). [`Inkasso`] is all the
//! use cases see; [`HttpInkasso`] speaks the provider's REST API (or the
//! local stand-in's copy of it, `providers::stand_in`).

use hyper::Method;
use serde::{Deserialize, Serialize};

use super::http::{JsonClient, ProviderError};
use super::Fut;
use crate::domain::addons::InkassoAccount;

/// The provider's answer about an application. When approved it names the
/// creditor account (`creditor_id`) and the hash the provider identifies the
/// company's account by (`creditor_hash`, see `inkasso-hashs/`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProspectAnswer {
    pub id: String,
    pub state: String,
    #[serde(default)]
    pub creditor_id: Option<String>,
    #[serde(default)]
    pub creditor_hash: Option<String>,
}

impl ProspectAnswer {
    /// An approved answer carries its account; a pending or rejected one none.
    fn checked(self) -> Result<ProspectAnswer, ProviderError> {
        match (self.state.as_str(), &self.creditor_id, &self.creditor_hash) {
            ("approved", Some(_), Some(_)) | ("pending" | "rejected", None, None) => Ok(self),
            _ => Err(ProviderError::BadAnswer),
        }
    }
}

/// A claim as the provider receives it: the invoice is a short-lived
/// download URL of the PDF.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NewClaim {
    pub debtor_name: String,
    pub debtor_number: String,
    pub debtor_address: String,
    pub debtor_email: String,
    /// Öre.
    pub amount: i64,
    pub currency: String,
    pub invoice_number: String,
    /// YYYY-MM-DD.
    pub due_date: String,
    pub invoice_url: String,
}

/// The statuses the provider reports, in the order a claim goes through them.
pub const CLAIM_STATUSES: [&str; 5] = ["registered", "reminder_sent", "collection", "paid", "closed"];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimAnswer {
    pub id: String,
    pub status: String,
}

impl ClaimAnswer {
    fn checked(self) -> Result<ClaimAnswer, ProviderError> {
        if CLAIM_STATUSES.contains(&self.status.as_str()) && !self.id.is_empty() {
            Ok(self)
        } else {
            Err(ProviderError::BadAnswer)
        }
    }
}

pub trait Inkasso: Send + Sync {
    /// Submits the account application; `key` makes a retry answer the same one.
    fn apply<'a>(&'a self, key: &'a str, account: &'a InkassoAccount) -> Fut<'a, ProspectAnswer>;
    /// The provider's decision so far.
    fn prospect<'a>(&'a self, id: &'a str) -> Fut<'a, ProspectAnswer>;
    /// Registers a claim under the creditor account; `key` makes a retry answer the same claim.
    fn register_claim<'a>(&'a self, creditor: &'a str, key: &'a str, claim: &'a NewClaim) -> Fut<'a, ClaimAnswer>;
    fn claim<'a>(&'a self, creditor: &'a str, id: &'a str) -> Fut<'a, ClaimAnswer>;
}

pub struct HttpInkasso(pub JsonClient);

fn clean(id: &str) -> String {
    id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect()
}

impl Inkasso for HttpInkasso {
    fn apply<'a>(&'a self, key: &'a str, account: &'a InkassoAccount) -> Fut<'a, ProspectAnswer> {
        Box::pin(async move {
            let a: ProspectAnswer = self.0.json(Method::POST, "/inkasso/prospects", Some(account), None, Some(key)).await?;
            a.checked()
        })
    }

    fn prospect<'a>(&'a self, id: &'a str) -> Fut<'a, ProspectAnswer> {
        Box::pin(async move {
            let a: ProspectAnswer = self.0.json(Method::GET, &format!("/inkasso/prospects/{}", clean(id)), None::<&()>, None, None).await?;
            a.checked()
        })
    }

    fn register_claim<'a>(&'a self, creditor: &'a str, key: &'a str, claim: &'a NewClaim) -> Fut<'a, ClaimAnswer> {
        Box::pin(async move {
            let a: ClaimAnswer = self.0.json(Method::POST, "/inkasso/claims", Some(claim), Some(creditor), Some(key)).await?;
            a.checked()
        })
    }

    fn claim<'a>(&'a self, creditor: &'a str, id: &'a str) -> Fut<'a, ClaimAnswer> {
        Box::pin(async move {
            let a: ClaimAnswer =
                self.0.json(Method::GET, &format!("/inkasso/claims/{}", clean(id)), None::<&()>, Some(creditor), None).await?;
            a.checked()
        })
    }
}

//! The credit-information provider (Bisnode): order a report on a company
//! (organisationsnummer) or a person (personnummer), and fetch one that was
//! not ready at once ('come back after 30 minutes').

use hyper::Method;
use serde::{Deserialize, Serialize};

use super::http::{JsonClient, ProviderError};
use super::Fut;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportBody {
    pub name: String,
    pub rating: String,
    pub payment_remarks: u32,
    pub turnover: Option<i64>,
}

/// `ready` with the report, or `pending` without it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CreditAnswer {
    pub id: String,
    pub status: String,
    pub report: Option<ReportBody>,
}

impl CreditAnswer {
    /// A ready answer must carry its report.
    fn checked(self) -> Result<CreditAnswer, ProviderError> {
        match (self.status.as_str(), &self.report) {
            ("ready", Some(_)) | ("pending", None) => Ok(self),
            _ => Err(ProviderError::BadAnswer),
        }
    }
}

pub trait Credit: Send + Sync {
    /// Orders a report; `key` makes a retry answer the same report.
    fn order<'a>(&'a self, account: &'a str, key: &'a str, kind: &'a str, number: &'a str) -> Fut<'a, CreditAnswer>;
    fn fetch<'a>(&'a self, account: &'a str, id: &'a str) -> Fut<'a, CreditAnswer>;
}

pub struct HttpCredit(pub JsonClient);

impl Credit for HttpCredit {
    fn order<'a>(&'a self, account: &'a str, key: &'a str, kind: &'a str, number: &'a str) -> Fut<'a, CreditAnswer> {
        Box::pin(async move {
            let body = serde_json::json!({"kind": kind, "number": number});
            let a: CreditAnswer = self.0.json(Method::POST, "/bisnode/reports", Some(&body), Some(account), Some(key)).await?;
            a.checked()
        })
    }

    fn fetch<'a>(&'a self, account: &'a str, id: &'a str) -> Fut<'a, CreditAnswer> {
        Box::pin(async move {
            let id: String = id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
            let a: CreditAnswer = self.0.json(Method::GET, &format!("/bisnode/reports/{id}"), None::<&()>, Some(account), None).await?;
            a.checked()
        })
    }
}

//! The credit-information provider: Dun & Bradstreet (Bisnode's Nordic
//! business), through its D&B Direct+ REST API (`https://plus.dnb.com`), as
//! its documentation describes it (`shared/contracts/dnb/`, read by the
//! contract tests; the pages used are named in its SOURCE.md):
//!
//! - `POST /v2/token` with Basic `<key>:<secret>` and
//!   `{"grant_type": "client_credentials"}` answers `{access_token,
//!   expiresIn}` (seconds). The token is kept until a minute before it runs
//!   out, and renewed early when the API answers 401.
//! - `GET /v1/match/cleanseMatch?countryISOAlpha2Code=SE&registrationNumber=…`
//!   matches a Swedish organisation number (a sole trader's is the owner's
//!   personnummer) to a D-U-N-S number: `matchCandidates[].organization.duns`
//!   with `matchQualityInformation.confidenceCode` (1–10).
//! - `GET /v1/data/duns/<duns>?blockIDs=…` reads the data blocks the report
//!   is built from ([`report_from_blocks`]).
//!
//! Direct+ answers at once, so a report is `ready` when ordered; the
//! provider's id of a report is its D-U-N-S number.

use std::sync::Mutex;

use chrono::{DateTime, Utc};
use hyper::Method;
use serde::{Deserialize, Serialize};

use super::http::{Answer, JsonClient, ProviderError};
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

pub trait Credit: Send + Sync {
    /// A report on the company (or sole trader) with this number
    /// (`XXXXXX-XXXX`); `key` is the lookup's own id.
    fn order<'a>(&'a self, account: &'a str, key: &'a str, kind: &'a str, number: &'a str) -> Fut<'a, CreditAnswer>;
    /// A report again by the provider's id.
    fn fetch<'a>(&'a self, account: &'a str, id: &'a str) -> Fut<'a, CreditAnswer>;
}

/// The data blocks a report is read from: the company's name and figures,
/// its ratings and scores, and its payment experiences.
pub const BLOCKS: &str = "companyinfo_L2_v1,financialstrengthinsight_L2_v1,paymentinsight_L1_v1";

/// The lowest match confidence taken as the company (D&B's scale is 1–10;
/// a registration number that matches gives 10).
pub const MIN_CONFIDENCE: u64 = 8;

/// Renewed this long before the token runs out.
const TOKEN_MARGIN_SECS: i64 = 60;

/// D&B Direct+ over [`JsonClient`].
pub struct DirectPlus {
    pub client: JsonClient,
    /// `<API key>:<API secret>` (Secrets Manager on AWS).
    pub credentials: String,
    token: Mutex<Option<(String, DateTime<Utc>)>>,
}

impl DirectPlus {
    pub fn new(client: JsonClient, credentials: &str) -> Self {
        DirectPlus { client, credentials: credentials.to_string(), token: Mutex::new(None) }
    }

    fn cached(&self) -> Option<String> {
        let guard = self.token.lock().unwrap_or_else(|e| e.into_inner());
        guard.as_ref().filter(|(_, until)| *until - chrono::Duration::seconds(TOKEN_MARGIN_SECS) > Utc::now()).map(|(t, _)| t.clone())
    }

    /// The kept token, or a new one (`renew`: a new one in any case).
    async fn token(&self, renew: bool) -> Result<String, ProviderError> {
        if !renew {
            if let Some(t) = self.cached() {
                return Ok(t);
            }
        }
        use base64::Engine;
        let basic = base64::engine::general_purpose::STANDARD.encode(&self.credentials);
        let body = bytes::Bytes::from(serde_json::json!({"grant_type": "client_credentials"}).to_string());
        // Asking for a token twice makes no second anything: retried.
        let a = self
            .client
            .request(Method::POST, "/v2/token", &[("authorization", format!("Basic {basic}"))], Some(("application/json", body)), true)
            .await?;
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Token {
            #[serde(rename = "access_token")]
            access_token: String,
            expires_in: i64,
        }
        let t: Token = serde_json::from_slice(&a.body).map_err(|_| ProviderError::BadAnswer)?;
        if t.access_token.is_empty() || t.access_token.len() > 8192 || t.expires_in <= 0 {
            return Err(ProviderError::BadAnswer);
        }
        let until = Utc::now() + chrono::Duration::seconds(t.expires_in.min(7 * 86_400));
        *self.token.lock().unwrap_or_else(|e| e.into_inner()) = Some((t.access_token.clone(), until));
        Ok(t.access_token)
    }

    /// A GET with the bearer token; a 401 renews the token once.
    async fn get(&self, path: &str) -> Result<Answer, ProviderError> {
        let token = self.token(false).await?;
        match self
            .client
            .request(Method::GET, path, &[("authorization", format!("Bearer {token}"))], None, true)
            .await
            .map_err(ProviderError::from)
        {
            Err(ProviderError::Refused(401)) => {
                let token = self.token(true).await?;
                self.client
                    .request(Method::GET, path, &[("authorization", format!("Bearer {token}"))], None, true)
                    .await
                    .map_err(ProviderError::from)
            }
            other => other,
        }
    }

    /// The D-U-N-S number of the Swedish registration number `number`.
    pub async fn match_duns(&self, number: &str) -> Result<String, ProviderError> {
        let digits: String = number.chars().filter(char::is_ascii_digit).collect();
        let path = format!("/v1/match/cleanseMatch?countryISOAlpha2Code=SE&registrationNumber={digits}");
        let v: serde_json::Value = parse(&self.get(&path).await?)?;
        let best = v["matchCandidates"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| c["matchQualityInformation"]["confidenceCode"].as_u64().is_some_and(|n| n >= MIN_CONFIDENCE))
            .find_map(|c| c["organization"]["duns"].as_str().filter(|d| is_duns(d)).map(str::to_string));
        // No company that surely is this one: as D&B's own "no match" answer.
        best.ok_or(ProviderError::Refused(404))
    }

    async fn report(&self, duns: &str) -> Result<CreditAnswer, ProviderError> {
        if !is_duns(duns) {
            return Err(ProviderError::Refused(404));
        }
        let v: serde_json::Value = parse(&self.get(&format!("/v1/data/duns/{duns}?blockIDs={BLOCKS}")).await?)?;
        let report = report_from_blocks(&v).ok_or(ProviderError::BadAnswer)?;
        Ok(CreditAnswer { id: duns.to_string(), status: "ready".into(), report: Some(report) })
    }
}

fn parse<T: serde::de::DeserializeOwned>(a: &Answer) -> Result<T, ProviderError> {
    serde_json::from_slice(&a.body).map_err(|_| ProviderError::BadAnswer)
}

/// Nine digits.
pub fn is_duns(s: &str) -> bool {
    s.len() == 9 && s.chars().all(|c| c.is_ascii_digit())
}

/// The report the screen shows, from the blocks' `organization`:
/// - name: `primaryName`;
/// - rating: the Nordic AAA rating's risk segment 1–5 as AAA, AA, A, B, C
///   (`dnbAssessment.nordicAAARating.riskSegment.description`), else its
///   `rating`, else the D&B standard rating (`standardRating.rating`);
/// - payment remarks: the negative payment experiences of the latest
///   summary (`businessTrading[0].summary[0].negativePaymentsCount`), none
///   when the block has none;
/// - turnover: the latest yearly revenue in SEK (`financials[0].yearlyRevenue`).
pub fn report_from_blocks(v: &serde_json::Value) -> Option<ReportBody> {
    let org = &v["organization"];
    let name = org["primaryName"].as_str().map(str::trim).filter(|n| !n.is_empty())?.chars().take(200).collect::<String>();
    let assessment = &org["dnbAssessment"];
    let segment = assessment["nordicAAARating"]["riskSegment"]["description"].as_str().and_then(|s| match s.trim() {
        "1" => Some("AAA"),
        "2" => Some("AA"),
        "3" => Some("A"),
        "4" => Some("B"),
        "5" => Some("C"),
        _ => None,
    });
    let text = |v: &serde_json::Value| v.as_str().map(str::trim).filter(|s| !s.is_empty()).map(|s| s.chars().take(20).collect::<String>());
    let rating = segment
        .map(str::to_string)
        .or_else(|| text(&assessment["nordicAAARating"]["rating"]))
        .or_else(|| text(&assessment["standardRating"]["rating"]))
        .unwrap_or_else(|| "-".into());
    let remarks = org["businessTrading"][0]["summary"][0]["negativePaymentsCount"].as_f64().unwrap_or(0.0);
    let payment_remarks = if remarks.is_finite() && remarks > 0.0 { remarks.min(f64::from(u32::MAX)).round() as u32 } else { 0 };
    let turnover = org["financials"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|f| f["yearlyRevenue"].as_array().into_iter().flatten())
        .find(|r| r["currency"] == "SEK")
        .and_then(|r| r["value"].as_f64())
        .filter(|x| x.is_finite() && x.abs() < 1e15)
        .map(|x| x.round() as i64);
    Some(ReportBody { name, rating, payment_remarks, turnover })
}

impl Credit for DirectPlus {
    fn order<'a>(&'a self, _account: &'a str, _key: &'a str, _kind: &'a str, number: &'a str) -> Fut<'a, CreditAnswer> {
        Box::pin(async move {
            let result = async { self.report(&self.match_duns(number).await?).await }.await;
            super::http::count("credit", result.as_ref().map(|_| ()).map_err(|e| *e));
            result
        })
    }

    fn fetch<'a>(&'a self, _account: &'a str, id: &'a str) -> Fut<'a, CreditAnswer> {
        Box::pin(async move {
            let result = self.report(id).await;
            super::http::count("credit", result.as_ref().map(|_| ()).map_err(|e| *e));
            result
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_report_is_read_from_the_blocks() {
        let nordic = json!({"organization": {"duns": "354000001", "primaryName": "Lyse Tele AS",
            "dnbAssessment": {"standardRating": {"rating": "N2"}, "nordicAAARating": {"rating": "A2", "riskSegment": {"description": "2"}}},
            "financials": [{"yearlyRevenue": [{"value": 1250000.4, "currency": "SEK"}]}],
            "businessTrading": [{"summary": [{"negativePaymentsCount": 2}]}]}});
        assert_eq!(
            report_from_blocks(&nordic),
            Some(ReportBody { name: "Lyse Tele AS".into(), rating: "AA".into(), payment_remarks: 2, turnover: Some(1_250_000) })
        );
        // Elsewhere the standard rating; no figures in SEK, no payment block.
        let us = json!({"organization": {"primaryName": "Meta Platforms, Inc.", "dnbAssessment": {"standardRating": {"rating": "5A3"}, "nordicAAARating": []},
            "financials": [{"yearlyRevenue": [{"value": 9, "currency": "USD"}]}]}});
        assert_eq!(
            report_from_blocks(&us),
            Some(ReportBody { name: "Meta Platforms, Inc.".into(), rating: "5A3".into(), payment_remarks: 0, turnover: None })
        );
        assert_eq!(report_from_blocks(&json!({"organization": {}})), None);
        assert!(is_duns("123456789") && !is_duns("12345678") && !is_duns("12345678x"));
    }
}

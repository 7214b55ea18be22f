//! Purchased services (subscription rows): the part the scheduled expiry job needs.
//!
//! A row carries `GSI2PK = DUE#SUBSCRIPTION`, `GSI2SK = <expire_on RFC 3339>#<id>`
//! while it is not expired, so the job finds due rows with one Query on a
//! sparse index and never scans the table.

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, SecondsFormat, Utc};

use super::{s, sdk_err, Store};
use crate::error::ApiError;

pub const DUE_PARTITION: &str = "DUE#SUBSCRIPTION";

pub fn due_sort_key(expire_on: DateTime<Utc>, id: &str) -> String {
    format!("{}#{id}", expire_on.to_rfc3339_opts(SecondsFormat::Secs, true))
}

#[derive(Debug, Default, PartialEq, Eq)]
pub struct ExpiryReport {
    /// Rows found due.
    pub due: usize,
    /// Rows this run marked expired (others were done by a concurrent run).
    pub expired: usize,
}

impl Store {
    /// Marks every row whose `expire_on` is at or before `now` as expired.
    /// Idempotent and safe to run concurrently: each row is flipped by a
    /// conditional write that only one run can win.
    pub async fn expire_due_subscriptions(&self, now: DateTime<Utc>) -> Result<ExpiryReport, ApiError> {
        // '~' sorts after every character used in ids, so rows due exactly now are included.
        let upper = format!("{}~", now.to_rfc3339_opts(SecondsFormat::Secs, true));
        let mut report = ExpiryReport::default();
        let mut start = None;
        loop {
            let page = self
                .client
                .query()
                .table_name(&self.table)
                .index_name(super::table::GSI2)
                .key_condition_expression("GSI2PK = :p AND GSI2SK <= :u")
                .expression_attribute_values(":p", s(DUE_PARTITION))
                .expression_attribute_values(":u", s(&upper))
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(sdk_err)?;
            for item in page.items() {
                let (Some(pk), Some(sk)) = (item.get("PK"), item.get("SK")) else { continue };
                report.due += 1;
                let res = self
                    .client
                    .update_item()
                    .table_name(&self.table)
                    .key("PK", pk.clone())
                    .key("SK", sk.clone())
                    .update_expression("SET expired = :t, active = :f REMOVE GSI2PK, GSI2SK")
                    .condition_expression("attribute_exists(GSI2PK)")
                    .expression_attribute_values(":t", AttributeValue::Bool(true))
                    .expression_attribute_values(":f", AttributeValue::Bool(false))
                    .send()
                    .await;
                match res {
                    Ok(_) => report.expired += 1,
                    Err(e) if e.as_service_error().is_some_and(|se| se.is_conditional_check_failed_exception()) => {}
                    Err(e) => return Err(sdk_err(e)),
                }
            }
            start = page.last_evaluated_key;
            if start.is_none() {
                break;
            }
        }
        Ok(report)
    }
}

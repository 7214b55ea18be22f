//! The audit trail's items ([`crate::domain::audit`]): put only, read per
//! customer (GSI1), per actor (GSI2) or per period (the month partitions),
//! newest first. Keys in [`super::keys::audit`].

use chrono::{DateTime, Datelike, NaiveDate, TimeZone, Utc};
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;

use super::{keys, n, readable_items, s, sdk_err, Item, Store};
use crate::domain::audit::{AuditAction, AuditEvent};
use crate::error::{ApiError, Msg};

/// What a page of the trail is read by. `from`/`to` bound the time (both
/// inclusive); a customer or actor narrows it.
#[derive(Clone, Debug, Default)]
pub struct AuditFilter {
    pub customer_uid: Option<String>,
    pub actor_uid: Option<String>,
    /// One kind of event only (e.g. the conflict searches).
    pub action: Option<AuditAction>,
    pub from: Option<DateTime<Utc>>,
    pub to: Option<DateTime<Utc>>,
}

/// A page, newest first; `next` is the cursor of the page after.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditPage {
    pub results: Vec<AuditEvent>,
    pub next: Option<String>,
    /// The admin's page: the names of the customers its events concern
    /// (uid → company or person), so the list reads without a look-up per row.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub customers: BTreeMap<String, String>,
}

/// Reads a page makes at most (a filter on the actor within a customer's
/// events, or empty months, may need several).
const ROUNDS: usize = 24;

/// Items a read of one kind of event evaluates at a time.
const FILTERED_READ: i32 = 1000;

/// The item of `event`, for a transaction or a put.
pub fn audit_item(event: &AuditEvent) -> Result<Item, ApiError> {
    let mut item: Item = serde_dynamo::to_item(event).map_err(ApiError::internal)?;
    let sk = keys::audit::sk(event.at, &event.id);
    keys::audit::item(event.at, &event.id).stamp(&mut item);
    item.insert("entity".into(), s("audit"));
    if let Some(c) = &event.customer_uid {
        keys::IndexKey::gsi1(keys::audit::customer_gsi1pk(c), &sk).stamp(&mut item);
    }
    if !event.actor_uid.is_empty() {
        keys::IndexKey::gsi2(keys::audit::actor_gsi2pk(&event.actor_uid), &sk).stamp(&mut item);
    }
    item.insert(super::table::TTL_ATTRIBUTE.into(), n(event.expires_at().timestamp()));
    Ok(item)
}

/// The time a cursor (an item's SK) names.
fn cursor_time(cursor: &str) -> Result<DateTime<Utc>, ApiError> {
    let at = cursor.split('#').next().unwrap_or_default();
    DateTime::parse_from_rfc3339(at).map(|t| t.with_timezone(&Utc)).map_err(|_| ApiError::bad(Msg::InvalidQuery))
}

fn month_start(t: DateTime<Utc>) -> DateTime<Utc> {
    let d = NaiveDate::from_ymd_opt(t.year(), t.month(), 1).expect("first of a month");
    Utc.from_utc_datetime(&d.and_hms_opt(0, 0, 0).expect("midnight"))
}

fn previous_month(t: DateTime<Utc>) -> DateTime<Utc> {
    month_start(month_start(t) - chrono::Duration::days(1))
}

impl Store {
    /// Records `event` on its own (a read's event, written beside the read).
    pub async fn put_audit(&self, event: &AuditEvent) -> Result<(), ApiError> {
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(audit_item(event)?))
            // An event is written once: a repeated put of one id changes nothing.
            .condition_expression("attribute_not_exists(PK)")
            .send()
            .await
            .map(|_| ())
            .or_else(|e| match e.as_service_error() {
                Some(se) if se.is_conditional_check_failed_exception() => Ok(()),
                _ => Err(sdk_err(e)),
            })
    }

    /// A page of the trail, newest first, at most `limit` events.
    pub async fn audit_page(&self, f: &AuditFilter, cursor: Option<&str>, limit: usize) -> Result<AuditPage, ApiError> {
        let low = keys::at(f.from.unwrap_or(DateTime::<Utc>::MIN_UTC));
        // `~` sorts after every `#<id>` tail, so events at `to` are in.
        let high = format!("{}~", keys::at(f.to.unwrap_or_else(Utc::now)));
        let cursor_at = cursor.map(cursor_time).transpose()?;
        let mut results = Vec::new();
        let mut start = cursor.map(str::to_string);
        let index = match (&f.customer_uid, &f.actor_uid) {
            (Some(c), _) => Some(("GSI1", keys::audit::customer_gsi1pk(c))),
            (None, Some(a)) => Some(("GSI2", keys::audit::actor_gsi2pk(a))),
            (None, None) => None,
        };
        // Per period: month partitions from the cursor's (or `to`'s) back to `from`'s.
        let mut month = month_start(cursor_at.or(f.to).unwrap_or_else(Utc::now));
        let first_month = month_start(f.from.unwrap_or(DateTime::<Utc>::MIN_UTC));
        for _ in 0..ROUNDS {
            // A filter reads items it then drops: read more at a time then.
            let wanted = if f.action.is_some() { FILTERED_READ } else { (limit - results.len()) as i32 + 1 };
            let mut q = self.client.query().table_name(&self.table).scan_index_forward(false).limit(wanted);
            let (pk_name, sk_name) = match &index {
                Some((name, pk)) => {
                    q = q.index_name(*name).expression_attribute_values(":pk", s(pk));
                    (format!("{name}PK"), format!("{name}SK"))
                }
                None => {
                    q = q.expression_attribute_values(":pk", s(keys::audit::pk(month)));
                    ("PK".to_string(), "SK".to_string())
                }
            };
            q = q
                .key_condition_expression(format!("{pk_name} = :pk AND {sk_name} BETWEEN :low AND :high"))
                .expression_attribute_values(":low", s(&low))
                .expression_attribute_values(":high", s(&high));
            let mut conditions = Vec::new();
            if let (Some(_), Some(a)) = (&f.customer_uid, &f.actor_uid) {
                conditions.push("actor_uid = :actor");
                q = q.expression_attribute_values(":actor", s(a));
            }
            if let Some(a) = f.action {
                conditions.push("#action = :action");
                q = q.expression_attribute_names("#action", "action").expression_attribute_values(":action", s(a.as_str()));
            }
            if !conditions.is_empty() {
                q = q.filter_expression(conditions.join(" AND "));
            }
            // Not `round_after`: a page spans month partitions within `BETWEEN` bounds.
            if let Some(c) = &start {
                let t = cursor_time(c)?;
                q = q.exclusive_start_key("PK", s(keys::audit::pk(t))).exclusive_start_key("SK", s(c));
                if let Some((name, pk)) = &index {
                    q = q.exclusive_start_key(format!("{name}PK"), s(pk)).exclusive_start_key(format!("{name}SK"), s(c));
                }
            }
            let out = q.send().await.map_err(sdk_err)?;
            let page: Vec<AuditEvent> = readable_items(out.items().iter().cloned());
            let more_here = out.last_evaluated_key().is_some_and(|k| !k.is_empty());
            let last_read = out.last_evaluated_key().and_then(|k| k.get("SK")).and_then(|v| v.as_s().ok()).cloned();
            for e in page {
                if results.len() == limit {
                    let last: &AuditEvent = results.last().expect("a full page");
                    return Ok(AuditPage { next: Some(keys::audit::sk(last.at, &last.id)), results, customers: BTreeMap::new() });
                }
                results.push(e);
            }
            if more_here {
                start = last_read;
                continue;
            }
            if index.is_some() || month <= first_month {
                break;
            }
            month = previous_month(month);
            start = None;
        }
        // Rounds used up with more to read: go on from the last event read.
        let next = if results.len() == limit || (index.is_none() && month > first_month) || start.is_some() {
            results.last().map(|e| keys::audit::sk(e.at, &e.id)).or(start)
        } else {
            None
        };
        Ok(AuditPage { results, next, customers: BTreeMap::new() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_step_back_over_year_ends() {
        let t = Utc.with_ymd_and_hms(2026, 1, 15, 12, 0, 0).unwrap();
        assert_eq!(previous_month(t), Utc.with_ymd_and_hms(2025, 12, 1, 0, 0, 0).unwrap());
        assert_eq!(month_start(t), Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap());
        assert!(cursor_time("nonsense").is_err());
        assert_eq!(cursor_time("2026-03-04T05:06:07.000000Z#x").unwrap(), Utc.with_ymd_and_hms(2026, 3, 4, 5, 6, 7).unwrap());
    }
}

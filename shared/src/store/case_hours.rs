//! Bulk changes of case hours and the additional hours of a case (key
//! design in [`super::table`]). Every change is one transaction holding a
//! condition check that the case is still in progress with the entries'
//! lawyer, the entries and one history item per entry, so a change is
//! all-or-nothing and always recorded. `Ok(false)`: a concurrent writer
//! won; the caller re-reads and decides again.

use aws_sdk_dynamodb::types::{ConditionCheck, Delete, TransactWriteItem, Update};

use chrono::{DateTime, SecondsFormat, Utc};

use super::{keys, n, s, Item, Store};
use crate::domain::additional_hour::AdditionalHour;
use crate::domain::case::{CaseHour, HistoryEntry};
use crate::error::ApiError;

/// An additional-hour entry and the revision its next write must match.
#[derive(Clone, Debug)]
pub struct StoredAdditional {
    pub entry: AdditionalHour,
    pub rev: u64,
}

fn parse_additional(item: Item) -> Result<StoredAdditional, ApiError> {
    let rev = item.get("rev").and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok()).unwrap_or(0);
    Ok(StoredAdditional { entry: serde_dynamo::from_item(item).map_err(ApiError::internal)?, rev })
}

impl Store {
    /// The case is in progress with `lawyer` (checked inside the transaction).
    fn case_in_progress_with(&self, case_uid: &str, lawyer: &str) -> Result<TransactWriteItem, ApiError> {
        let check = ConditionCheck::builder()
            .table_name(&self.table)
            .key("PK", s(keys::case::pk(case_uid)))
            .key("SK", s(keys::case::SK))
            .condition_expression("#st = :st AND lawyer = :l")
            .expression_attribute_names("#st", "status")
            .expression_attribute_values(":st", s("Inprogress"))
            .expression_attribute_values(":l", s(lawyer))
            .build()
            .map_err(ApiError::internal)?;
        Ok(TransactWriteItem::builder().condition_check(check).build())
    }

    /// The case check of a bulk invoiced change: in progress with the lawyer
    /// (`Some`), or for admin (`None`) only that the case exists.
    fn invoicing_check(&self, case_uid: &str, only_lawyer: Option<&str>) -> Result<TransactWriteItem, ApiError> {
        if let Some(l) = only_lawyer {
            return self.case_in_progress_with(case_uid, l);
        }
        let check = ConditionCheck::builder()
            .table_name(&self.table)
            .key("PK", s(keys::case::pk(case_uid)))
            .key("SK", s(keys::case::SK))
            .condition_expression("attribute_exists(PK)")
            .build()
            .map_err(ApiError::internal)?;
        Ok(TransactWriteItem::builder().condition_check(check).build())
    }

    /// Sets `is_invoiced` on case-hour entries, each conditional on the
    /// value it was read with, with one history item each. Only the flag is
    /// written (an update, not a put), so a concurrent edit of the hours is
    /// never overwritten, and billable hours, hence the subscription row,
    /// stay as they are. `only_lawyer`: the entries must be theirs and the
    /// case in progress with them (a lawyer); None (admin): any entries of a
    /// case that exists.
    pub async fn mass_update_case_hours(
        &self,
        case_uid: &str,
        only_lawyer: Option<&str>,
        entries: &[&CaseHour],
        is_invoiced: bool,
        history: &[HistoryEntry],
    ) -> Result<bool, ApiError> {
        let mut items = vec![self.invoicing_check(case_uid, only_lawyer)?];
        for h in entries {
            let mut up = Update::builder()
                .table_name(&self.table)
                .key("PK", s(keys::case::pk(case_uid)))
                .key("SK", s(keys::case::hour_sk(&h.id)))
                .update_expression("SET is_invoiced = :v")
                .expression_attribute_values(":v", aws_sdk_dynamodb::types::AttributeValue::Bool(is_invoiced))
                .expression_attribute_values(":old", aws_sdk_dynamodb::types::AttributeValue::Bool(h.is_invoiced));
            up = match only_lawyer {
                Some(l) => up
                    .condition_expression("attribute_exists(PK) AND is_invoiced = :old AND lawyer = :l")
                    .expression_attribute_values(":l", s(l)),
                None => up.condition_expression("attribute_exists(PK) AND is_invoiced = :old"),
            };
            items.push(TransactWriteItem::builder().update(up.build().map_err(ApiError::internal)?).build());
        }
        for h in history {
            items.push(self.history_put(h)?);
        }
        self.transact(items).await
    }

    /// A case's additional hours, newest month first.
    pub async fn additional_hours(&self, case_uid: &str) -> Result<Vec<AdditionalHour>, ApiError> {
        let mut out: Vec<AdditionalHour> = self
            .query_prefix(&keys::case::pk(case_uid), keys::case::ADDITIONAL_PREFIX)
            .await?
            .into_iter()
            .map(|i| parse_additional(i).map(|a| a.entry))
            .collect::<Result<_, _>>()?;
        out.sort_by(|a, b| (&b.month, b.created_at).cmp(&(&a.month, a.created_at)));
        Ok(out)
    }

    pub async fn get_additional_hour(&self, case_uid: &str, id: &str) -> Result<Option<StoredAdditional>, ApiError> {
        self.get(&keys::case::pk(case_uid), &keys::case::additional_sk(id)).await?.map(parse_additional).transpose()
    }

    /// Whether `lawyer` already has an entry for `month` on the case (and which).
    pub async fn additional_month_owner(&self, case_uid: &str, month: &str, lawyer: &str) -> Result<Option<String>, ApiError> {
        Ok(self
            .get(&keys::case::pk(case_uid), &keys::case::additional_month_sk(month, lawyer))
            .await?
            .and_then(|i| i.get("id").and_then(|v| v.as_s().ok()).cloned()))
    }

    /// A history item of the additional hours (`HISTADD#`), apart from the
    /// case history so each page reads its own.
    pub fn additional_history_put(&self, h: &HistoryEntry) -> Result<TransactWriteItem, ApiError> {
        let mut item: Item = serde_dynamo::to_item(h).map_err(ApiError::internal)?;
        item.insert("PK".into(), s(keys::case::pk(&h.case_uid)));
        item.insert("SK".into(), s(keys::case::additional_history_sk(h.at, &uuid::Uuid::new_v4().simple().to_string())));
        item.insert("entity".into(), s("additional_hour_history"));
        self.tx_put(item, Some("attribute_not_exists(PK)"))
    }

    fn guard_put(&self, case_uid: &str, e: &AdditionalHour) -> Result<TransactWriteItem, ApiError> {
        let mut item = Item::new();
        item.insert("PK".into(), s(keys::case::pk(case_uid)));
        item.insert("SK".into(), s(keys::case::additional_month_sk(&e.month, &e.lawyer)));
        item.insert("entity".into(), s("additional_hour_month"));
        item.insert("id".into(), s(&e.id));
        self.tx_put(item, Some("attribute_not_exists(PK)"))
    }

    fn guard_delete(&self, case_uid: &str, e: &AdditionalHour) -> Result<TransactWriteItem, ApiError> {
        let del = Delete::builder()
            .table_name(&self.table)
            .key("PK", s(keys::case::pk(case_uid)))
            .key("SK", s(keys::case::additional_month_sk(&e.month, &e.lawyer)))
            .condition_expression("id = :id")
            .expression_attribute_values(":id", s(&e.id))
            .build()
            .map_err(ApiError::internal)?;
        Ok(TransactWriteItem::builder().delete(del).build())
    }

    /// Creates (`old` None), replaces or deletes (`new` None) an
    /// additional-hour entry: the case check, the entry on its revision, the
    /// month guard moved with the month, and the history item, in one
    /// transaction. No subscription row is touched (see
    /// [`crate::domain::additional_hour`]).
    pub async fn write_additional_hour(
        &self,
        case_uid: &str,
        old: Option<&StoredAdditional>,
        new: Option<&AdditionalHour>,
        history: &HistoryEntry,
    ) -> Result<bool, ApiError> {
        let lawyer = new.map(|e| e.lawyer.clone()).or(old.map(|o| o.entry.lawyer.clone())).unwrap_or_default();
        let mut items = vec![self.case_in_progress_with(case_uid, &lawyer)?];
        match (old, new) {
            (_, Some(e)) => {
                let mut item: Item = serde_dynamo::to_item(e).map_err(ApiError::internal)?;
                item.insert("PK".into(), s(keys::case::pk(case_uid)));
                item.insert("SK".into(), s(keys::case::additional_sk(&e.id)));
                item.insert("entity".into(), s("additional_hour"));
                item.insert("rev".into(), n(old.map_or(1, |o| o.rev + 1)));
                let put = aws_sdk_dynamodb::types::Put::builder().table_name(&self.table).set_item(Some(item));
                let put = match old {
                    None => put.condition_expression("attribute_not_exists(PK)"),
                    Some(o) => put.condition_expression("rev = :rev").expression_attribute_values(":rev", n(o.rev)),
                };
                items.push(TransactWriteItem::builder().put(put.build().map_err(ApiError::internal)?).build());
            }
            (Some(o), None) => {
                let del = Delete::builder()
                    .table_name(&self.table)
                    .key("PK", s(keys::case::pk(case_uid)))
                    .key("SK", s(keys::case::additional_sk(&o.entry.id)))
                    .condition_expression("rev = :rev")
                    .expression_attribute_values(":rev", n(o.rev))
                    .build()
                    .map_err(ApiError::internal)?;
                items.push(TransactWriteItem::builder().delete(del).build());
            }
            (None, None) => return Err(ApiError::NotFound),
        }
        let same_month = |a: &AdditionalHour, b: &AdditionalHour| a.month == b.month && a.lawyer == b.lawyer;
        if let Some(o) = old {
            if !new.is_some_and(|e| same_month(e, &o.entry)) {
                items.push(self.guard_delete(case_uid, &o.entry)?);
            }
        }
        if let Some(e) = new {
            if !old.is_some_and(|o| same_month(e, &o.entry)) {
                items.push(self.guard_put(case_uid, e)?);
            }
        }
        items.push(self.additional_history_put(history)?);
        self.transact(items).await
    }

    /// Sets `is_invoiced` on additional-hour entries, each on its revision,
    /// with one history item each (`only_lawyer` as for case hours).
    pub async fn mass_update_additional_hours(
        &self,
        case_uid: &str,
        only_lawyer: Option<&str>,
        entries: &[&StoredAdditional],
        is_invoiced: bool,
        at: DateTime<Utc>,
        history: &[HistoryEntry],
    ) -> Result<bool, ApiError> {
        let mut items = vec![self.invoicing_check(case_uid, only_lawyer)?];
        for e in entries {
            let up = Update::builder()
                .table_name(&self.table)
                .key("PK", s(keys::case::pk(case_uid)))
                .key("SK", s(keys::case::additional_sk(&e.entry.id)))
                .update_expression("SET is_invoiced = :v, rev = :next, updated_at = :at")
                .condition_expression("rev = :rev")
                .expression_attribute_values(":v", aws_sdk_dynamodb::types::AttributeValue::Bool(is_invoiced))
                .expression_attribute_values(":next", n(e.rev + 1))
                .expression_attribute_values(":rev", n(e.rev))
                .expression_attribute_values(":at", s(at.to_rfc3339_opts(SecondsFormat::AutoSi, true)))
                .build()
                .map_err(ApiError::internal)?;
            items.push(TransactWriteItem::builder().update(up).build());
        }
        for h in history {
            items.push(self.additional_history_put(h)?);
        }
        self.transact(items).await
    }

    /// The additional-hour history of a case, oldest first.
    pub async fn additional_history(&self, case_uid: &str) -> Result<Vec<HistoryEntry>, ApiError> {
        self.query_prefix(&keys::case::pk(case_uid), keys::case::ADDITIONAL_HISTORY_PREFIX)
            .await?
            .into_iter()
            .map(|i| serde_dynamo::from_item(i).map_err(ApiError::internal))
            .collect()
    }
}

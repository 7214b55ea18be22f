//! Bulk changes of case hours and the additional hours of a case (key
//! design in [`super::table`]). The pieces here are added to the change's
//! one transaction ([`Tx`]): a condition check that the case is still in
//! progress with the entries' lawyer, the entries, and one history item per
//! entry, so a change is all-or-nothing and always recorded.

use aws_sdk_dynamodb::types::AttributeValue;

use chrono::{DateTime, SecondsFormat, Utc};

use super::tx::{Cond, Tx};
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
    /// The case check of a bulk invoiced change: in progress with the lawyer
    /// (`Some`), or for admin (`None`) only that the case exists.
    pub fn add_invoicing_check(&self, tx: &mut Tx, case_uid: &str, only_lawyer: Option<&str>) -> Result<(), ApiError> {
        match only_lawyer {
            Some(l) => self.add_in_progress_check(tx, case_uid, l),
            None => tx.check(&keys::case::item(case_uid), Cond::present()),
        }
    }

    /// Sets `is_invoiced` on case-hour entries, each conditional on the
    /// value it was read with. Only the flag is written (an update, not a
    /// put), so a concurrent edit of the hours is never overwritten, and
    /// billable hours, hence the subscription row, stay as they are.
    /// `only_lawyer`: the entries must be theirs (a lawyer); None (admin): any.
    pub fn add_hours_invoiced(
        &self,
        tx: &mut Tx,
        case_uid: &str,
        only_lawyer: Option<&str>,
        entries: &[&CaseHour],
        is_invoiced: bool,
    ) -> Result<(), ApiError> {
        for h in entries {
            let cond = Cond::new(match only_lawyer {
                Some(_) => "attribute_exists(PK) AND is_invoiced = :old AND lawyer = :l",
                None => "attribute_exists(PK) AND is_invoiced = :old",
            })
            .value(":v", AttributeValue::Bool(is_invoiced))
            .value(":old", AttributeValue::Bool(h.is_invoiced));
            let cond = match only_lawyer {
                Some(l) => cond.value(":l", s(l)),
                None => cond,
            };
            tx.update_if(&keys::case::hour(case_uid, &h.id), "SET is_invoiced = :v", cond)?;
        }
        Ok(())
    }

    /// A case's additional hours with their revisions, newest month first (one Query).
    pub async fn additional_hours(&self, case_uid: &str) -> Result<Vec<StoredAdditional>, ApiError> {
        let mut out: Vec<StoredAdditional> =
            super::readable(self.query_prefix(&keys::case::pk(case_uid), keys::case::ADDITIONAL_PREFIX).await?, parse_additional);
        out.sort_by(|a, b| (&b.entry.month, b.entry.created_at).cmp(&(&a.entry.month, a.entry.created_at)));
        Ok(out)
    }

    pub async fn get_additional_hour(&self, case_uid: &str, id: &str) -> Result<Option<StoredAdditional>, ApiError> {
        self.get_consistent(&keys::case::additional(case_uid, id)).await?.map(parse_additional).transpose()
    }

    /// Whether `lawyer` already has an entry for `month` on the case (and which).
    pub async fn additional_month_owner(&self, case_uid: &str, month: &str, lawyer: &str) -> Result<Option<String>, ApiError> {
        Ok(self
            .get_consistent(&keys::case::additional_month(case_uid, month, lawyer))
            .await?
            .and_then(|i| i.get("id").and_then(|v| v.as_s().ok()).cloned()))
    }

    /// A history item of the additional hours (`HISTADD#`), apart from the
    /// case history so each page reads its own.
    pub fn add_additional_history(&self, tx: &mut Tx, h: &HistoryEntry) -> Result<(), ApiError> {
        let mut item: Item = serde_dynamo::to_item(h).map_err(ApiError::internal)?;
        keys::case::additional_history(&h.case_uid, h.at, &uuid::Uuid::new_v4().simple().to_string()).stamp(&mut item);
        item.insert("entity".into(), s("additional_hour_history"));
        tx.put_new(item)
    }

    /// Creates (`old` None), replaces or deletes (`new` None) an
    /// additional-hour entry: the case check, the entry on its revision and
    /// the month guard moved with the month. No subscription row is touched
    /// (see [`crate::domain::additional_hour`]).
    pub fn add_additional_hour_write(
        &self,
        tx: &mut Tx,
        case_uid: &str,
        old: Option<&StoredAdditional>,
        new: Option<&AdditionalHour>,
    ) -> Result<(), ApiError> {
        let lawyer = new.map(|e| e.lawyer.clone()).or(old.map(|o| o.entry.lawyer.clone())).unwrap_or_default();
        self.add_in_progress_check(tx, case_uid, &lawyer)?;
        let on_rev = |o: &StoredAdditional| Cond::new("rev = :rev").value(":rev", n(o.rev));
        match (old, new) {
            (_, Some(e)) => {
                let mut item: Item = serde_dynamo::to_item(e).map_err(ApiError::internal)?;
                keys::case::additional(case_uid, &e.id).stamp(&mut item);
                item.insert("entity".into(), s("additional_hour"));
                item.insert("rev".into(), n(old.map_or(1, |o| o.rev + 1)));
                tx.put_if(item, Some(old.map_or_else(Cond::absent, on_rev)))?;
            }
            (Some(o), None) => tx.delete(&keys::case::additional(case_uid, &o.entry.id), Some(on_rev(o)))?,
            (None, None) => return Err(ApiError::NotFound),
        }
        let same_month = |a: &AdditionalHour, b: &AdditionalHour| a.month == b.month && a.lawyer == b.lawyer;
        if let Some(o) = old {
            if !new.is_some_and(|e| same_month(e, &o.entry)) {
                let month = keys::case::additional_month(case_uid, &o.entry.month, &o.entry.lawyer);
                tx.delete(&month, Some(Cond::new("id = :id").value(":id", s(&o.entry.id))))?;
            }
        }
        if let Some(e) = new {
            if !old.is_some_and(|o| same_month(e, &o.entry)) {
                let mut item = Item::new();
                keys::case::additional_month(case_uid, &e.month, &e.lawyer).stamp(&mut item);
                item.insert("entity".into(), s("additional_hour_month"));
                item.insert("id".into(), s(&e.id));
                tx.put_new(item)?;
            }
        }
        Ok(())
    }

    /// Sets `is_invoiced` on additional-hour entries, each on its revision.
    pub fn add_additional_invoiced(
        &self,
        tx: &mut Tx,
        case_uid: &str,
        entries: &[&StoredAdditional],
        is_invoiced: bool,
        at: DateTime<Utc>,
    ) -> Result<(), ApiError> {
        for e in entries {
            tx.update_if(
                &keys::case::additional(case_uid, &e.entry.id),
                "SET is_invoiced = :v, rev = :next, updated_at = :at",
                Cond::new("rev = :rev")
                    .value(":v", AttributeValue::Bool(is_invoiced))
                    .value(":next", n(e.rev + 1))
                    .value(":rev", n(e.rev))
                    .value(":at", s(at.to_rfc3339_opts(SecondsFormat::AutoSi, true))),
            )?;
        }
        Ok(())
    }

    /// The additional-hour history of a case, oldest first.
    pub async fn additional_history(&self, case_uid: &str) -> Result<Vec<HistoryEntry>, ApiError> {
        Ok(super::readable_items(self.query_prefix(&keys::case::pk(case_uid), keys::case::ADDITIONAL_HISTORY_PREFIX).await?))
    }
}

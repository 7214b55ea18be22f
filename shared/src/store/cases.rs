//! Cases, their history, notes and hours (key design in [`super::table`]).
//!
//! Every change of a case is one transaction built by the case use cases
//! ([`crate::services::cases`]) from the pieces here: the case item
//! conditional on its `rev` (so two writers cannot both win; two lawyers
//! accepting at once → one transaction fails), the history items, the
//! lawyer's pointer item, and the event's side effects. Billable hours add
//! the subscription row (conditional on its `rev`) and the usage-ledger item
//! to the same transaction.

use crate::error::Msg;
use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Utc};

use super::subscriptions::UsageEntry;
use super::tx::{Cond, Tx};
use super::{hex, keys, n, s, sdk_err, unhex, Item, Store};
use crate::domain::case::{self, Case, CaseHour, CaseListPlan, CaseStatus, HistoryEntry, ListOrder};
use crate::domain::catalogue::Hundredths;
use crate::domain::policy::lawyer_of_list;
use crate::domain::subscription::{self, PurchasedService, Usage};
use crate::error::ApiError;

/// Newest first by creation; the uid makes it unique.
pub fn list_sk(case: &Case) -> String {
    keys::created_sk(case.created_at, &case.uid)
}

/// A case and the revision its next write must match.
#[derive(Clone, Debug)]
pub struct StoredCase {
    pub case: Case,
    pub rev: u64,
}

/// One page of a list: up to 10, newest first, and the cursor of the next.
#[derive(Clone, Debug)]
pub struct CasePage {
    pub results: Vec<Case>,
    pub next: Option<String>,
}

pub const PAGE_SIZE: usize = 10;
/// Query rounds (of 25 items) one searching list call reads at most.
pub const SEARCH_ROUNDS: usize = 8;

fn case_item(c: &Case, rev: u64) -> Result<Item, ApiError> {
    let mut item: Item = serde_dynamo::to_item(c).map_err(ApiError::internal)?;
    keys::case::item(&c.uid).stamp(&mut item);
    item.insert("entity".into(), s("case"));
    item.insert("rev".into(), n(rev));
    keys::IndexKey::gsi1(keys::case::state_gsi1pk(c.status), list_sk(c)).stamp(&mut item);
    keys::IndexKey::gsi2(keys::case::customer_gsi2pk(&c.customer), list_sk(c)).stamp(&mut item);
    item.insert("search".into(), s(case::search_text(c)));
    Ok(item)
}

pub(crate) fn parse_case(item: Item) -> Result<StoredCase, ApiError> {
    let rev = item.get("rev").and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok()).unwrap_or(0);
    Ok(StoredCase { case: serde_dynamo::from_item(item).map_err(ApiError::internal)?, rev })
}

/// The stored `status` value of a case status (as serde writes it).
pub fn status_value(status: CaseStatus) -> AttributeValue {
    serde_dynamo::to_attribute_value(status).unwrap_or_else(|_| s(format!("{status:?}")))
}

fn history_item(h: &HistoryEntry, key: keys::Key, entity: &str) -> Result<Item, ApiError> {
    let mut item: Item = serde_dynamo::to_item(h).map_err(ApiError::internal)?;
    key.stamp(&mut item);
    item.insert("entity".into(), s(entity));
    Ok(item)
}

/// The partitions holding a list pointer of `c`: every case, its opener's
/// and its followers' (a contact's own list: "the cases it created or
/// follows"; one partition, so that list stays one Query), and its lawyer's.
fn pointer_pks(c: &Case) -> Vec<String> {
    let mut pointers = vec![keys::case::ALL_PK.to_string(), keys::case::creator_pk(&c.created_by)];
    for f in &c.followers {
        let pk = keys::case::creator_pk(f);
        if !pointers.contains(&pk) {
            pointers.push(pk);
        }
    }
    if let Some(l) = lawyer_of_list(c) {
        pointers.push(keys::case::lawyer_pk(l));
    }
    pointers
}

impl Store {
    /// Adds the case written over revision `prev_rev` (None: a new case) and
    /// the lawyers' pointers kept in step (`prev`: the case as read).
    pub fn add_case_write(&self, tx: &mut Tx, prev: Option<(&Case, u64)>, next: &Case) -> Result<(), ApiError> {
        let rev = prev.map(|(_, r)| r);
        let item = case_item(next, rev.map_or(1, |r| r + 1))?;
        match rev {
            None => tx.put_new(item)?,
            Some(r) => tx.put_if(item, Some(Cond::new("rev = :rev").value(":rev", n(r))))?,
        }
        if let Some((prev, _)) = prev {
            if let Some(old) = lawyer_of_list(prev) {
                if lawyer_of_list(next) != Some(old) || list_sk(prev) != list_sk(next) {
                    tx.delete(&keys::case::lawyer_pointer(old, &list_sk(prev)), None)?;
                }
            }
        }
        // A follower taken off loses its pointer (unless it opened the case:
        // then the pointer is the creator's own).
        if let Some((prev, _)) = prev {
            for gone in prev.followers.iter().filter(|f| !next.followers.contains(f) && **f != next.created_by) {
                tx.delete(&keys::case::creator_pointer(gone, &list_sk(prev)), None)?;
            }
        }
        // Closing starts the case file's retention: its due item is filed
        // under the last day it is kept, for the retention job to find. A
        // reopened case keeps the item; the job finds it not due then.
        if next.status == CaseStatus::Complete && prev.is_none_or(|(p, _)| p.status != CaseStatus::Complete) {
            let closed_at = next.status_at.unwrap_or(next.updated_at);
            let kept_until = crate::domain::retention::kept_until(crate::domain::retention::RecordKind::CaseFile, closed_at);
            self.add_retention_due(tx, &super::retention::DueRecord::Case { case_uid: next.uid.clone() }, kept_until)?;
        }
        // The pointers of the lists read by partition: the lawyer's own, the
        // cases a staff member opened, and every case. Each carries the
        // status and search text, so the lists filter before reading cases;
        // all are rewritten with every write of the case, so they never lag.
        for pk in pointer_pks(next) {
            let mut item = Item::new();
            item.insert("PK".into(), s(pk));
            item.insert("SK".into(), s(list_sk(next)));
            item.insert("entity".into(), s("case_pointer"));
            item.insert("case_uid".into(), s(&next.uid));
            item.insert("status".into(), status_value(next.status));
            item.insert("search".into(), s(case::search_text(next)));
            tx.put(item)?;
        }
        Ok(())
    }

    /// Adds to `tx` the removal of every list pointer of `c` (its erasure).
    pub fn add_case_pointers_removal(&self, tx: &mut Tx, c: &Case) -> Result<(), ApiError> {
        for pk in pointer_pks(c) {
            tx.delete(&keys::Key::new(pk, list_sk(c)), None)?;
        }
        Ok(())
    }

    /// Adds a case history item.
    pub fn add_history(&self, tx: &mut Tx, h: &HistoryEntry) -> Result<(), ApiError> {
        tx.put_new(history_item(h, keys::case::history(&h.case_uid, h.at, &uuid::Uuid::new_v4().simple().to_string()), "case_history")?)
    }

    /// Adds a check that the case is in progress with `lawyer`.
    pub fn add_in_progress_check(&self, tx: &mut Tx, case_uid: &str, lawyer: &str) -> Result<(), ApiError> {
        tx.check(
            &keys::case::item(case_uid),
            Cond::new("#st = :st AND lawyer = :l")
                .name("#st", "status")
                .value(":st", status_value(CaseStatus::Inprogress))
                .value(":l", s(lawyer)),
        )
    }

    pub async fn get_case(&self, uid: &str) -> Result<Option<StoredCase>, ApiError> {
        self.get(&keys::case::item(uid)).await?.map(parse_case).transpose()
    }

    /// The case as it is now (a consistent read), for a write conditional on
    /// its revision.
    pub async fn get_case_for_write(&self, uid: &str) -> Result<Option<StoredCase>, ApiError> {
        self.get_consistent(&keys::case::item(uid)).await?.map(parse_case).transpose()
    }

    /// A case's history, oldest first.
    pub async fn case_history(&self, uid: &str) -> Result<Vec<HistoryEntry>, ApiError> {
        Ok(super::readable_items(self.query_prefix(&keys::case::pk(uid), keys::case::HISTORY_PREFIX).await?))
    }

    /// One page of a list, newest (or oldest) first. The cursor is the last
    /// sort key (hex); each round asks for keys past it, so filtered lists
    /// still fill a page without a Scan. A lawyer's list reads the pointers
    /// (filtered by the status and search text they carry) and the page's
    /// cases with one BatchGetItem. A search reads at most
    /// [`SEARCH_ROUNDS`] rounds per call: a page may then hold fewer than 10
    /// with a cursor to go on, so one request never reads a whole partition.
    pub async fn list_cases(
        &self,
        plan: &CaseListPlan,
        search: Option<&str>,
        order: ListOrder,
        cursor: Option<&str>,
    ) -> Result<CasePage, ApiError> {
        let mut below = match cursor {
            Some(c) if !c.is_empty() => Some(unhex(c).ok_or(ApiError::bad(Msg::InvalidCursor))?),
            _ => None,
        };
        let (index, pk_attr, sk_attr, pk, statuses) = match plan {
            CaseListPlan::ByStatus(st) => (Some(super::table::GSI1), "GSI1PK", "GSI1SK", keys::case::state_gsi1pk(*st), vec![]),
            CaseListPlan::Customer(c, st) => (Some(super::table::GSI2), "GSI2PK", "GSI2SK", keys::case::customer_gsi2pk(c), st.clone()),
            CaseListPlan::Lawyer(l, st) => (None, "PK", "SK", keys::case::lawyer_pk(l), st.clone()),
            CaseListPlan::CreatedBy(u, st) => (None, "PK", "SK", keys::case::creator_pk(u), st.clone()),
            CaseListPlan::All => (None, "PK", "SK", keys::case::ALL_PK.to_string(), vec![]),
        };
        // (sort key, the case or — for pointers — its uid)
        let mut rows: Vec<(String, Result<Case, String>)> = Vec::new();
        let mut more = false;
        let mut rounds = 0;
        // Unfiltered, a page and one more item (whether another page
        // follows) is all a round needs; filtered, more a round, so a page
        // fills in few rounds.
        let limit = if statuses.is_empty() && search.is_none() { PAGE_SIZE as i32 + 1 } else { 25 };
        let at = super::ListAt { index, pk_attr, sk_attr, pk: &pk };
        'pages: loop {
            rounds += 1;
            let narrow = |mut q: super::QueryFluentBuilder| {
                let mut filters = Vec::new();
                if !statuses.is_empty() {
                    let mut names = Vec::new();
                    for (i, st) in statuses.iter().enumerate() {
                        let ph = format!(":st{i}");
                        q = q.expression_attribute_values(&ph, status_value(*st));
                        names.push(ph);
                    }
                    filters.push(format!("#status IN ({})", names.join(", ")));
                    q = q.expression_attribute_names("#status", "status");
                }
                if let Some(text) = search {
                    filters.push("contains(#search, :q)".into());
                    q = q.expression_attribute_names("#search", "search").expression_attribute_values(":q", s(text));
                }
                if !filters.is_empty() {
                    q = q.filter_expression(filters.join(" AND "));
                }
                q
            };
            let round = self.round_after(&at, below.as_deref(), order == ListOrder::Asc, limit, narrow).await?;
            let exhausted = round.stopped_at.is_none();
            // Where this round stopped reading, even if its last items were filtered out.
            if let Some(last) = round.stopped_at {
                below = Some(last);
            }
            let items = &round.items;
            for (i, item) in items.iter().enumerate() {
                let sk = item.get(sk_attr).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
                let row = match plan {
                    CaseListPlan::Lawyer(..) | CaseListPlan::CreatedBy(..) | CaseListPlan::All => {
                        Err(item.get("case_uid").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default())
                    }
                    _ => match parse_case(item.clone()) {
                        Ok(c) => Ok(c.case),
                        Err(e) => {
                            // One bad item must not take the whole list down.
                            tracing::warn!(sk = %sk, error = %crate::telemetry::redact(&e.to_string()), "unreadable case item skipped");
                            continue;
                        }
                    },
                };
                rows.push((sk, row));
                if rows.len() == PAGE_SIZE {
                    more = i + 1 < items.len() || !exhausted;
                    break 'pages;
                }
            }
            if exhausted {
                break;
            }
            if search.is_some() && rounds >= SEARCH_ROUNDS {
                // Bounded: go on from where this call stopped reading.
                let next = below.as_deref().map(hex);
                let wanted: Vec<String> = rows.iter().filter_map(|(_, r)| r.as_ref().err().cloned()).collect();
                let mut fetched = self.batch_get_cases(&wanted).await?;
                let results = rows.into_iter().filter_map(|(_, r)| r.or_else(|uid| fetched.remove(&uid).ok_or(())).ok()).collect();
                return Ok(CasePage { results, next });
            }
        }
        let wanted: Vec<String> = rows.iter().filter_map(|(_, r)| r.as_ref().err().cloned()).collect();
        let mut fetched = self.batch_get_cases(&wanted).await?;
        let next = if more { rows.last().map(|(sk, _)| hex(sk)) } else { None };
        let results = rows
            .into_iter()
            .filter_map(|(_, r)| match r {
                Ok(c) => Some(c),
                Err(uid) => fetched.remove(&uid),
            })
            .collect();
        Ok(CasePage { results, next })
    }

    /// Cases by uid with one BatchGetItem per 100 (unprocessed keys asked again).
    async fn batch_get_cases(&self, uids: &[String]) -> Result<std::collections::HashMap<String, Case>, ApiError> {
        use aws_sdk_dynamodb::types::KeysAndAttributes;
        let mut out = std::collections::HashMap::new();
        for chunk in uids.chunks(100) {
            let mut keys: Vec<Item> = chunk.iter().map(|u| keys::case::item(u).item()).collect();
            while !keys.is_empty() {
                let ka = KeysAndAttributes::builder().set_keys(Some(keys)).build().map_err(ApiError::internal)?;
                let res = self.client.batch_get_item().request_items(&self.table, ka).send().await.map_err(sdk_err)?;
                for item in res.responses().and_then(|r| r.get(&self.table)).cloned().unwrap_or_default() {
                    match parse_case(item) {
                        Ok(c) => {
                            out.insert(c.case.uid.clone(), c.case);
                        }
                        Err(e) => tracing::warn!(error = %crate::telemetry::redact(&e.to_string()), "unreadable case item skipped"),
                    }
                }
                keys = res.unprocessed_keys().and_then(|u| u.get(&self.table)).map(|k| k.keys().to_vec()).unwrap_or_default();
            }
        }
        Ok(out)
    }

    /// Puts a case note into `tx`.
    pub fn add_case_note(
        &self,
        tx: &mut super::tx::Tx,
        case_uid: &str,
        by: &str,
        by_name: &str,
        text: &str,
        at: DateTime<Utc>,
    ) -> Result<(), ApiError> {
        let mut item = Item::new();
        keys::case::note(case_uid, at, &uuid::Uuid::new_v4().simple().to_string()).stamp(&mut item);
        item.insert("entity".into(), s("case_note"));
        item.insert("by".into(), s(by));
        item.insert("by_name".into(), s(by_name));
        item.insert("note".into(), s(text));
        item.insert("at".into(), s(keys::at(at)));
        tx.put(item)
    }

    pub async fn case_notes(&self, case_uid: &str) -> Result<Vec<(String, String, String, String)>, ApiError> {
        let items = self.query_prefix(&keys::case::pk(case_uid), keys::case::NOTE_PREFIX).await?;
        let g = |i: &Item, k: &str| i.get(k).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
        Ok(items.iter().map(|i| (g(i, "by"), g(i, "by_name"), g(i, "note"), g(i, "at"))).collect())
    }

    /// The customer's hour-based row (service 1) that is in force now.
    pub async fn current_hour_row(&self, customer: &str, now: chrono::NaiveDateTime) -> Result<Option<PurchasedService>, ApiError> {
        Ok(subscription::current_hour_row(self.list_purchases(customer).await?, now))
    }

    pub async fn case_hours(&self, case_uid: &str) -> Result<Vec<CaseHour>, ApiError> {
        // An entry dated outside 1900-2100 (accepted before the date bounds) is as
        // unreadable as a malformed one: the workbook cannot show it.
        let mut out: Vec<CaseHour> = super::readable(self.query_prefix(&keys::case::pk(case_uid), keys::case::HOUR_PREFIX).await?, |i| {
            let h: CaseHour = serde_dynamo::from_item(i).map_err(ApiError::internal)?;
            if crate::domain::date_in_range(h.date) {
                Ok(h)
            } else {
                Err(ApiError::internal(format!("hour entry {} dated {}", h.id, h.date)))
            }
        });
        out.sort_by_key(|h| std::cmp::Reverse((h.date, h.created_at)));
        Ok(out)
    }

    pub async fn get_case_hour(&self, case_uid: &str, id: &str) -> Result<Option<CaseHour>, ApiError> {
        self.get_as(&keys::case::hour(case_uid, id)).await
    }

    /// Adds an hour entry's write (new when `old` is None, else replacing
    /// `old`; deleted when `new` is None): a check that the case is still in
    /// progress with the entry's lawyer, the billable difference moved on the
    /// subscription row (conditional on its revision) with the usage-ledger
    /// items, and the entry itself. The caller adds the history.
    pub async fn add_case_hour_write(
        &self,
        tx: &mut Tx,
        case: &Case,
        old: Option<&CaseHour>,
        new: Option<&CaseHour>,
        now: chrono::NaiveDateTime,
    ) -> Result<(), ApiError> {
        let lawyer = new.or(old).map(|h| h.lawyer.clone()).unwrap_or_default();
        self.add_in_progress_check(tx, &case.uid, &lawyer)?;
        // The subscription row: give back what `old` booked, book what `new`
        // needs. The rules (expired, not started, over the limit unless in
        // advance) are decided on the row as read; the row is then changed in
        // place by the difference, conditional on what the decision relied
        // on, so concurrent bookings of one row commute instead of all but
        // one failing on its revision.
        let old_booked = old.and_then(|h| h.service.map(|p| (p, h)));
        let needs = new.filter(|h| h.hour.0 > 0);
        let row_id = old_booked.map(|(p, _)| p).or(needs.and_then(|h| h.service));
        if let Some(pid) = row_id {
            let stored = self.get_purchase(pid).await?.ok_or(ApiError::bad(subscription::NO_VALID_SUBSCRIPTION))?;
            let mut row = stored.row.clone();
            if let Some((_, h)) = old_booked {
                row = subscription::release(&row, Usage::Hours(h.hour), now);
                // Same ledger key again: the put below overwrites it (a
                // transaction may touch an item once).
                let rewritten = needs.is_some_and(|n| n.date == h.date && n.id == h.id);
                if !rewritten {
                    tx.delete(&keys::purchase::usage(pid, h.date, &h.id), None)?;
                }
            }
            if let Some(h) = needs {
                row = subscription::consume(&row, Usage::Hours(h.hour), now).map_err(|e| ApiError::bad(e.key()))?;
                let entry = UsageEntry {
                    entry_id: h.id.clone(),
                    purchase_id: pid,
                    date: h.date,
                    hours: h.hour,
                    count: 0,
                    case_uid: Some(case.uid.clone()),
                    description: format!("{} {}", case.case_number, h.description).trim().to_string(),
                    lawyer: h.lawyer_name.clone(),
                };
                let mut ledger: Item = serde_dynamo::to_item(&entry).map_err(ApiError::internal)?;
                keys::purchase::usage(pid, h.date, &h.id).stamp(&mut ledger);
                ledger.insert("entity".into(), s("usage"));
                tx.put(ledger)?;
            }
            self.add_consumed_hours_change(tx, &stored.row, row.consumed_hour, now)?;
        }
        match new {
            Some(h) => {
                let mut item: Item = serde_dynamo::to_item(h).map_err(ApiError::internal)?;
                keys::case::hour(&case.uid, &h.id).stamp(&mut item);
                item.insert("entity".into(), s("case_hour"));
                tx.put_if(item, Some(if old.is_some() { Cond::present() } else { Cond::absent() }))?;
            }
            None => {
                let h = old.ok_or(ApiError::NotFound)?;
                tx.delete(&keys::case::hour(&case.uid, &h.id), Some(Cond::present()))?;
            }
        }
        Ok(())
    }
}

impl Store {
    /// Moves a row's consumed hours from what was read (`read.consumed_hour`)
    /// to `consumed` by their difference, in place. Conditional on the limit
    /// and dates the decision was made on being unchanged, on the row not
    /// having expired, and — when the change uses more hours on a row not
    /// booked in advance — on the limit still holding for whatever other
    /// bookings landed meanwhile. The revision moves on, so a staff change of
    /// the row made from an older read fails and reads again.
    pub fn add_consumed_hours_change(
        &self,
        tx: &mut Tx,
        read: &PurchasedService,
        consumed: Hundredths,
        now: chrono::NaiveDateTime,
    ) -> Result<(), ApiError> {
        let delta = consumed.0 - read.consumed_hour.0;
        let num = |h: Hundredths| serde_dynamo::to_attribute_value::<_, AttributeValue>(h).map_err(ApiError::internal);
        // The row's fields exactly as the row item stores them (its own date format).
        let stored: Item = serde_dynamo::to_item(PurchasedService { updated_at: now, ..read.clone() }).map_err(ApiError::internal)?;
        let field = |name: &str| stored.get(name).cloned().ok_or_else(|| ApiError::internal(format!("row without {name}")));
        let mut expr =
            String::from("attribute_exists(PK) AND #expired = :f AND #hour = :hour AND start_date = :start AND expire_on = :end");
        let mut cond = Cond::new("")
            .name("#expired", "expired")
            .name("#hour", "hour")
            .value(":f", AttributeValue::Bool(false))
            .value(":hour", field("hour")?)
            .value(":start", field("start_date")?)
            .value(":end", field("expire_on")?)
            .value(":d", num(Hundredths(delta))?)
            .value(":now", field("updated_at")?)
            .value(":one", n(1));
        if delta > 0 && !read.advance {
            expr.push_str(" AND consumed_hour <= :cap");
            cond = cond.value(":cap", num(Hundredths(read.hour.0 - delta))?);
        }
        if delta < 0 {
            // Never below zero.
            expr.push_str(" AND consumed_hour >= :give");
            cond = cond.value(":give", num(Hundredths(-delta))?);
        }
        tx.update_if(
            &keys::purchase::item(&read.customer_uid, read.id),
            "SET consumed_hour = consumed_hour + :d, updated_at = :now ADD rev :one",
            cond.with_expr(expr),
        )
    }
}

/// Sum of billable hours of entries.
pub fn billable(hours: &[CaseHour]) -> Hundredths {
    hours.iter().fold(Hundredths::ZERO, |a, h| a + h.hour)
}

/// Whose cases [`Store::cases_opened_between`] reads.
#[derive(Clone, Copy, Debug)]
pub enum OpenedBy<'a> {
    /// Every case (the `ALLCASES` pointers).
    All,
    /// One customer's (its GSI2 partition).
    Customer(&'a str),
    /// The ones one user opened (its `CREATEDCASES#` pointers; for a
    /// customer contact also the ones it follows).
    Creator(&'a str),
}

impl Store {
    /// The cases `creator` opened (or, on the customer side, follows), counted by status under the counters'
    /// names (`cases.status.<status>`): a contact without `view_all_cases`
    /// reads its own figures from its pointers (status only; one Query page
    /// holds thousands), not from the company's counters.
    pub async fn created_status_counts(&self, creator: &str) -> Result<super::stats::Read<super::stats::Counts>, ApiError> {
        let mut value = super::stats::Counts::new();
        let mut items = 0u64;
        let query = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :pk")
            .expression_attribute_values(":pk", s(keys::case::creator_pk(creator)))
            .projection_expression("#st")
            .expression_attribute_names("#st", "status");
        let mut pages = super::Pages::new(query, None);
        while let Some(out) = pages.next().await? {
            for item in out.items() {
                items += 1;
                let status = item.get("status").and_then(|v| serde_dynamo::from_attribute_value::<_, CaseStatus>(v.clone()).ok());
                if let Some(st) = status {
                    *value.entry(format!("cases.status.{}", crate::domain::statistics::status_word(st))).or_insert(0) += 1;
                }
            }
        }
        Ok(super::stats::Read { value, items })
    }

    /// Closed cases (Query GSI1 `CASESTATE#complete`, oldest first), a page
    /// of `limit` after `cursor`, and the cursor of the next page.
    pub async fn closed_cases_after(
        &self,
        cursor: Option<&str>,
        limit: i32,
    ) -> Result<(Vec<crate::domain::case::Case>, Option<String>), ApiError> {
        let pk = keys::case::state_gsi1pk(crate::domain::case::CaseStatus::Complete);
        let at = super::ListAt::gsi1(&pk);
        let round = self.round_after(&at, cursor, true, limit, |q| q).await?;
        // Unfiltered: where DynamoDB stopped is the last item's sort key.
        Ok((super::readable(round.items, |i| parse_case(i).map(|c| c.case)), round.stopped_at))
    }

    /// Cases opened in `[from, to)`, newest first, `limit` a page (the
    /// activity statistics list): every case from the `ALLCASES` pointers,
    /// or one customer's from its GSI2 partition; `cursor` is the last sort
    /// key of the page before. Reads the page only.
    pub async fn cases_opened_between(
        &self,
        opened: OpenedBy<'_>,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        cursor: Option<&str>,
        limit: usize,
    ) -> Result<CasePage, ApiError> {
        let (index, pk_attr, sk_attr, pk) = match opened {
            OpenedBy::Customer(c) => (Some(super::table::GSI2), "GSI2PK", "GSI2SK", keys::case::customer_gsi2pk(c)),
            OpenedBy::All => (None, "PK", "SK", keys::case::ALL_PK.to_string()),
            OpenedBy::Creator(u) => (None, "PK", "SK", keys::case::creator_pk(u)),
        };
        let customer = matches!(opened, OpenedBy::Customer(_));
        // The cursor comes from the client: an empty one, or one outside the
        // period, would be an invalid key condition (a 500, found by the
        // fuzz); it is clamped into the period instead.
        let (lower, end) = (keys::at(from), keys::at(to));
        let upper = match cursor.filter(|c| !c.is_empty()) {
            Some(c) => c.to_string().max(lower.clone()).min(end),
            None => end,
        };
        let res = self
            .client
            .query()
            .table_name(&self.table)
            .set_index_name(index.map(String::from))
            .key_condition_expression(format!("{pk_attr} = :p AND {sk_attr} BETWEEN :a AND :b"))
            .expression_attribute_values(":p", s(&pk))
            .expression_attribute_values(":a", s(&lower))
            .expression_attribute_values(":b", s(&upper))
            .scan_index_forward(false)
            .limit(limit as i32 + 1)
            .send()
            .await
            .map_err(sdk_err)?;
        let mut rows: Vec<(String, Item)> = res
            .items()
            .iter()
            .filter_map(|i| i.get(sk_attr).and_then(|v| v.as_s().ok()).map(|sk| (sk.clone(), i.clone())))
            .filter(|(sk, _)| Some(sk.as_str()) != cursor)
            .collect();
        let more = rows.len() > limit || res.last_evaluated_key.is_some() && rows.len() == limit;
        rows.truncate(limit);
        let next = if more { rows.last().map(|(sk, _)| sk.clone()) } else { None };
        let results = if customer {
            rows.into_iter().filter_map(|(_, i)| parse_case(i).ok().map(|c| c.case)).collect()
        } else {
            let uids: Vec<String> = rows.iter().filter_map(|(sk, _)| sk.rsplit_once('#').map(|(_, u)| u.to_string())).collect();
            let mut fetched = self.batch_get_cases(&uids).await?;
            uids.iter().filter_map(|u| fetched.remove(u)).collect()
        };
        Ok(CasePage { results, next })
    }
}

/// The items of a case and its hour entries as a bulk load writes them
/// (benchmarks: BatchWriteItem, no transaction, no events): the case, its
/// list pointers and the entries.
pub fn bulk_items(c: &Case, hours: &[CaseHour]) -> Result<Vec<Item>, ApiError> {
    let mut out = vec![case_item(c, 1)?];
    for pk in pointer_pks(c) {
        let mut item = Item::new();
        item.insert("PK".into(), s(pk));
        item.insert("SK".into(), s(list_sk(c)));
        item.insert("entity".into(), s("case_pointer"));
        item.insert("case_uid".into(), s(&c.uid));
        item.insert("status".into(), status_value(c.status));
        item.insert("search".into(), s(case::search_text(c)));
        out.push(item);
    }
    for h in hours {
        let mut item: Item = serde_dynamo::to_item(h).map_err(ApiError::internal)?;
        keys::case::hour(&c.uid, &h.id).stamp(&mut item);
        item.insert("entity".into(), s("case_hour"));
        out.push(item);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn cursor_round_trip() {
        let k = "2026-01-01T00:00:00.000000Z#abc";
        assert_eq!(unhex(&hex(k)).as_deref(), Some(k));
        assert_eq!(unhex("zz"), None);
        assert_eq!(unhex("abc"), None);
    }
}

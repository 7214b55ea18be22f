//! Terms and privacy versions and their acceptances, public documents and
//! templates, support tickets, academy lessons and progress (key design in
//! [`super::table`]).

use aws_sdk_dynamodb::types::AttributeValue;
use serde::{de::DeserializeOwned, Serialize};

use super::idempotency::Once;
use super::tx::{Cond, Tx};
use super::{hex, keys, n, s, sdk_err, unhex, Item, Store};
use crate::domain::academy::{Lesson, Progress};
use crate::domain::legal::{Acceptance, LegalKind, LegalText, LegalVersion};
use crate::domain::support::{Answer, Ticket, TicketStatus};
use crate::domain::template_file::TemplateFile;
use crate::error::{ApiError, Msg};

fn item_of<T: Serialize>(v: &T, key: keys::Key, entity: &str) -> Result<Item, ApiError> {
    let mut item: Item = serde_dynamo::to_item(v).map_err(ApiError::internal)?;
    key.stamp(&mut item);
    item.insert("entity".into(), s(entity));
    Ok(item)
}

fn parse_all<T: DeserializeOwned>(items: &[Item], what: &str) -> Vec<T> {
    items
        .iter()
        .filter_map(|i| match serde_dynamo::from_item(i.clone()) {
            Ok(v) => Some(v),
            Err(e) => {
                tracing::warn!(what = %what, error = %crate::telemetry::redact(&e.to_string()), "unreadable item skipped");
                None
            }
        })
        .collect()
}

/// A version item as stored: its texts inline only if written before they
/// had items of their own.
#[derive(serde::Deserialize)]
struct StoredVersion {
    kind: LegalKind,
    version: u32,
    published_at: chrono::DateTime<chrono::Utc>,
    #[serde(default)]
    published_by: String,
    sv: Option<String>,
    en: Option<String>,
}

/// One language's text of a version.
#[derive(Serialize, serde::Deserialize)]
struct StoredText {
    text: String,
}

/// The status attribute of a ticket item (a reserved word: `#st`).
pub fn ticket_status_value(st: TicketStatus) -> AttributeValue {
    s(st.as_str())
}

/// Which tickets a list shows.
pub enum TicketScope<'a> {
    Customer(&'a str),
    All,
}

/// A page of tickets, newest first.
pub struct TicketPage {
    pub results: Vec<Ticket>,
    pub next: Option<String>,
}

impl Store {
    /// Every item of a partition under a sort-key prefix (small partitions only).
    async fn content_query(&self, pk: &str, prefix: &str, newest_first: bool, limit: Option<i32>) -> Result<Vec<Item>, ApiError> {
        let query = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :pk AND begins_with(SK, :p)")
            .expression_attribute_values(":pk", s(pk))
            .expression_attribute_values(":p", s(prefix))
            .scan_index_forward(!newest_first)
            .set_limit(limit);
        if limit.is_some() {
            // The first `limit` items: one page.
            return Ok(query.send().await.map_err(sdk_err)?.items.unwrap_or_default());
        }
        self.query_all(query).await
    }

    // ----------------------------------------------------- terms, privacy

    /// The current (newest) version of a text, without its texts.
    pub async fn current_legal_version(&self, kind: LegalKind) -> Result<Option<LegalVersion>, ApiError> {
        Ok(self.legal_version_items(kind, 1).await?.into_iter().next())
    }

    /// The current (newest) version of a text with both languages.
    pub async fn current_legal(&self, kind: LegalKind) -> Result<Option<LegalText>, ApiError> {
        let pk = keys::legal::pk(kind.as_str());
        // The newest version and the newest two texts at once (one round
        // trip, as every read): the texts are that version's unless a
        // publication came between the two reads, when they are read by
        // the version's keys.
        let (versions, newest_texts) = tokio::try_join!(
            self.content_query(&pk, keys::legal::VERSION_PREFIX, true, Some(1)),
            self.content_query(&pk, keys::legal::TEXT_PREFIX, true, Some(2))
        )?;
        let Some(item) = versions.into_iter().next() else { return Ok(None) };
        let StoredVersion { kind, version, published_at, published_by, sv, en } =
            serde_dynamo::from_item(item).map_err(ApiError::internal)?;
        let read_along = |language: &str| {
            let sk = keys::legal::text_sk(version, language);
            newest_texts
                .iter()
                .find(|i| i.get("SK").and_then(|v| v.as_s().ok()) == Some(&sk))
                .and_then(|i| serde_dynamo::from_item::<_, StoredText>(i.clone()).ok())
                .map(|t| t.text)
        };
        let (sv, en) = match (sv, en, read_along("sv"), read_along("en")) {
            // Written before the texts had items of their own.
            (Some(sv), Some(en), _, _) => (sv, en),
            (_, _, Some(sv), Some(en)) => (sv, en),
            _ => {
                let text = |language: &'static str| {
                    let key = keys::legal::text(kind.as_str(), version, language);
                    async move {
                        let item = self.get(&key).await?.ok_or_else(|| ApiError::internal(format!("legal text {} missing", key.sk)))?;
                        let t: StoredText = serde_dynamo::from_item(item).map_err(ApiError::internal)?;
                        Ok::<_, ApiError>(t.text)
                    }
                };
                tokio::try_join!(text("sv"), text("en"))?
            }
        };
        Ok(Some(LegalText { kind, version, sv, en, published_at, published_by }))
    }

    /// The newest versions of a text (at most 50), newest first, without
    /// their texts.
    pub async fn legal_versions(&self, kind: LegalKind) -> Result<Vec<LegalVersion>, ApiError> {
        self.legal_version_items(kind, 50).await
    }

    /// The newest `limit` version items, only their small attributes (a
    /// version written before the texts had items of their own holds them).
    async fn legal_version_items(&self, kind: LegalKind, limit: i32) -> Result<Vec<LegalVersion>, ApiError> {
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :pk AND begins_with(SK, :p)")
            .expression_attribute_values(":pk", s(keys::legal::pk(kind.as_str())))
            .expression_attribute_values(":p", s(keys::legal::VERSION_PREFIX))
            .projection_expression("#k, #v, #at, #by")
            .expression_attribute_names("#k", "kind")
            .expression_attribute_names("#v", "version")
            .expression_attribute_names("#at", "published_at")
            .expression_attribute_names("#by", "published_by")
            .scan_index_forward(false)
            .limit(limit)
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(parse_all(&out.items.unwrap_or_default(), "legal version"))
    }

    /// Publishes a version: its item (fails the transaction if that version
    /// exists) and one item per language.
    pub fn add_legal_version(&self, tx: &mut Tx, t: &LegalText) -> Result<(), ApiError> {
        let kind = t.kind.as_str();
        tx.put_new(item_of(&t.summary(), keys::legal::version(kind, t.version), "legal_text")?)?;
        for (language, text) in [("sv", &t.sv), ("en", &t.en)] {
            tx.put_new(item_of(&StoredText { text: text.clone() }, keys::legal::text(kind, t.version, language), "legal_text_body")?)?;
        }
        Ok(())
    }

    /// Records that `user_uid` accepted a version (in the caller's transaction).
    pub fn add_acceptance(&self, tx: &mut Tx, user_uid: &str, a: &Acceptance) -> Result<(), ApiError> {
        tx.put(item_of(a, keys::legal::acceptance(user_uid, a.kind.as_str(), a.version), "acceptance")?)
    }

    /// Records an acceptance once: a second one keeps the first time.
    pub async fn put_acceptance(&self, user_uid: &str, a: &Acceptance) -> Result<(), ApiError> {
        let item = item_of(a, keys::legal::acceptance(user_uid, a.kind.as_str(), a.version), "acceptance")?;
        let res = self
            .client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
            .condition_expression("attribute_not_exists(PK)")
            .send()
            .await;
        super::applied(res).map(|_| ())
    }

    /// A user's acceptance of one version, if any.
    pub async fn acceptance(&self, user_uid: &str, kind: LegalKind, version: u32) -> Result<Option<Acceptance>, ApiError> {
        self.get_as(&keys::legal::acceptance(user_uid, kind.as_str(), version)).await
    }

    /// Every acceptance of a user, oldest version first.
    pub async fn acceptances(&self, user_uid: &str) -> Result<Vec<Acceptance>, ApiError> {
        let items = self.content_query(&keys::user::pk(user_uid), "ACCEPT#", false, None).await?;
        Ok(parse_all(&items, "acceptance"))
    }

    // ------------------------------------------------- template files

    pub async fn put_template_file(&self, f: &TemplateFile) -> Result<(), ApiError> {
        let item = item_of(f, keys::template_file::item(&f.id), "template_file")?;
        self.client.put_item().table_name(&self.table).set_item(Some(item)).send().await.map_err(sdk_err)?;
        Ok(())
    }

    /// A new template file with the request's idempotency record (`once`,
    /// answering the file) in one transaction.
    pub async fn create_template_file(&self, f: &TemplateFile, once: &Once) -> Result<(), ApiError> {
        let mut tx = self.tx();
        tx.put_new(item_of(f, keys::template_file::item(&f.id), "template_file")?)?;
        once.record(&mut tx, f)?;
        self.commit_new(tx).await
    }

    pub async fn template_files(&self) -> Result<Vec<TemplateFile>, ApiError> {
        let items = self.content_query(keys::template_file::PK, "FILE#", false, None).await?;
        let mut all: Vec<TemplateFile> = parse_all(&items, "template file");
        all.sort_by_key(|f| std::cmp::Reverse(f.uploaded_at));
        Ok(all)
    }

    pub async fn get_template_file(&self, id: &str) -> Result<Option<TemplateFile>, ApiError> {
        self.get_as(&keys::template_file::item(id)).await
    }

    pub async fn delete_template_file(&self, id: &str) -> Result<(), ApiError> {
        self.client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(keys::template_file::item(id).item()))
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(())
    }

    // ---------------------------------------------------------- tickets

    fn ticket_item(t: &Ticket) -> Result<Item, ApiError> {
        let mut item = item_of(t, keys::ticket::item(t.id), "ticket")?;
        let sk = keys::created_sk(t.created_at, &format!("{:012}", t.id));
        keys::IndexKey::gsi1(keys::ticket::customer_gsi1pk(&t.customer_uid), &sk).stamp(&mut item);
        keys::IndexKey::gsi2(keys::ticket::ALL_GSI2PK, sk).stamp(&mut item);
        Ok(item)
    }

    /// A new ticket.
    pub fn add_ticket(&self, tx: &mut Tx, t: &Ticket) -> Result<(), ApiError> {
        tx.put_new(Self::ticket_item(t)?)
    }

    /// Rewrites a ticket if it is still as `prev` was read (status and answer count).
    pub fn replace_ticket(&self, tx: &mut Tx, prev: &Ticket, next: &Ticket) -> Result<(), ApiError> {
        let cond = Cond::new("#st = :st AND answer_count = :ac")
            .name("#st", "status")
            .value(":st", ticket_status_value(prev.status))
            .value(":ac", n(prev.answer_count));
        tx.put_if(Self::ticket_item(next)?, Some(cond))
    }

    pub fn add_answer(&self, tx: &mut Tx, a: &Answer) -> Result<(), ApiError> {
        tx.put_new(item_of(a, keys::ticket::answer(a.ticket_id, a.at, &a.id), "ticket_answer")?)
    }

    pub async fn get_ticket(&self, id: u64) -> Result<Option<Ticket>, ApiError> {
        self.get_consistent_as(&keys::ticket::item(id)).await
    }

    /// A ticket's answers, oldest first.
    pub async fn ticket_answers(&self, id: u64) -> Result<Vec<Answer>, ApiError> {
        let items = self.content_query(&keys::ticket::pk(id), keys::ticket::ANSWER_PREFIX, false, None).await?;
        Ok(parse_all(&items, "ticket answer"))
    }

    /// A page of tickets newest first, optionally of one status; `cursor`
    /// is the `next` of the page before.
    pub async fn tickets(
        &self,
        scope: TicketScope<'_>,
        status: Option<TicketStatus>,
        cursor: Option<&str>,
        limit: usize,
    ) -> Result<TicketPage, ApiError> {
        let (index, pk_attr, sk_attr, pk) = match scope {
            TicketScope::Customer(c) => (super::table::GSI1, "GSI1PK", "GSI1SK", keys::ticket::customer_gsi1pk(c)),
            TicketScope::All => (super::table::GSI2, "GSI2PK", "GSI2SK", keys::ticket::ALL_GSI2PK.to_string()),
        };
        let mut below = match cursor.filter(|c| !c.is_empty()) {
            Some(c) => Some(unhex(c).ok_or(ApiError::bad(Msg::InvalidCursor))?),
            None => None,
        };
        let mut results: Vec<(String, Ticket)> = Vec::new();
        // A status filter may skip many: read at most a few rounds per call.
        let at = super::ListAt { index: Some(index), pk_attr, sk_attr, pk: &pk };
        for _ in 0..8 {
            let narrow = |q: super::QueryFluentBuilder| match status {
                Some(st) => q
                    .filter_expression("#st = :st")
                    .expression_attribute_names("#st", "status")
                    .expression_attribute_values(":st", ticket_status_value(st)),
                None => q,
            };
            let round = self.round_after(&at, below.as_deref(), false, 25, narrow).await?;
            for item in &round.items {
                let sk = item.get(sk_attr).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
                if let Ok(t) = serde_dynamo::from_item(item.clone()) {
                    results.push((sk, t));
                }
                if results.len() == limit {
                    let next = hex(&results[limit - 1].0);
                    return Ok(TicketPage { results: results.into_iter().map(|(_, t)| t).collect(), next: Some(next) });
                }
            }
            match round.stopped_at {
                Some(last) => below = Some(last),
                None => return Ok(TicketPage { results: results.into_iter().map(|(_, t)| t).collect(), next: None }),
            }
        }
        let next = below.map(|b| hex(&b));
        Ok(TicketPage { results: results.into_iter().map(|(_, t)| t).collect(), next })
    }

    /// How many of a customer's tickets are in `status` (Select COUNT).
    pub async fn count_tickets(&self, customer_uid: &str, status: TicketStatus) -> Result<u32, ApiError> {
        let query = self
            .index_query(super::table::GSI1, &keys::ticket::customer_gsi1pk(customer_uid))
            .filter_expression("#st = :st")
            .expression_attribute_names("#st", "status")
            .expression_attribute_values(":st", ticket_status_value(status));
        Ok(u32::try_from(self.count_all(query).await?).unwrap_or(u32::MAX))
    }

    // ---------------------------------------------------------- academy

    pub async fn lessons(&self) -> Result<Vec<Lesson>, ApiError> {
        let items = self.content_query(keys::lesson::PK, keys::lesson::PREFIX, false, None).await?;
        Ok(parse_all(&items, "lesson"))
    }

    pub async fn get_lesson(&self, id: &str) -> Result<Option<Lesson>, ApiError> {
        self.get_as(&keys::lesson::item(id)).await
    }

    pub async fn put_lesson(&self, l: &Lesson) -> Result<(), ApiError> {
        let item = item_of(l, keys::lesson::item(&l.id), "lesson")?;
        self.client.put_item().table_name(&self.table).set_item(Some(item)).send().await.map_err(sdk_err)?;
        Ok(())
    }

    /// A new lesson with the request's idempotency record (`once`,
    /// answering the lesson) in one transaction.
    pub async fn create_lesson(&self, l: &Lesson, once: &Once) -> Result<(), ApiError> {
        let mut tx = self.tx();
        tx.put_new(item_of(l, keys::lesson::item(&l.id), "lesson")?)?;
        once.record(&mut tx, l)?;
        self.commit_new(tx).await
    }

    /// Commits a transaction that adds an item under a fresh random id: a
    /// failed condition is a replayed request (answered by `commit`) or, never
    /// in practice, a taken id.
    async fn commit_new(&self, tx: Tx) -> Result<(), ApiError> {
        if self.commit(tx).await? {
            Ok(())
        } else {
            Err(ApiError::internal("a new item's id is taken"))
        }
    }

    /// Several lessons rewritten at once (a new order).
    pub fn add_lesson_write(&self, tx: &mut Tx, l: &Lesson) -> Result<(), ApiError> {
        tx.put_if(item_of(l, keys::lesson::item(&l.id), "lesson")?, Some(Cond::present()))
    }

    pub async fn delete_lesson(&self, id: &str) -> Result<(), ApiError> {
        self.client.delete_item().table_name(&self.table).set_key(Some(keys::lesson::item(id).item())).send().await.map_err(sdk_err)?;
        Ok(())
    }

    /// A user's progress in every lesson they started.
    pub async fn progress(&self, user_uid: &str) -> Result<Vec<Progress>, ApiError> {
        let items = self.content_query(&keys::user::pk(user_uid), keys::lesson::PROGRESS_PREFIX, false, None).await?;
        Ok(parse_all(&items, "progress"))
    }

    pub async fn put_progress(&self, user_uid: &str, p: &Progress) -> Result<(), ApiError> {
        let item = item_of(p, keys::lesson::progress(user_uid, &p.lesson_id), "progress")?;
        self.client.put_item().table_name(&self.table).set_item(Some(item)).send().await.map_err(sdk_err)?;
        Ok(())
    }
}

//! The single DynamoDB table. The key design and every access pattern are
//! documented in [`table`]; each entity has its own small module.

pub mod addons;
pub mod audit;
pub mod bankid;
pub mod case_hours;
pub mod cases;
pub mod catalogue;
pub mod collaboration;
pub mod conflict;
pub mod content;
pub mod customer_search;
pub mod customers;
pub mod data_rights;
pub mod event_mail;
pub mod idempotency;
pub mod inkasso;
pub mod keys;
pub mod meetings;
pub mod outbox;
pub mod rate_limit;
pub mod recovery;
pub mod refresh;
pub mod retention;
pub mod staff;
pub mod stats;
pub mod subscriptions;
pub mod table;
pub mod totp;
pub mod two_factor;
pub mod tx;
pub mod users;

pub(crate) use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::operation::query::QueryOutput;
use aws_sdk_dynamodb::types::{AttributeValue, Select};
use aws_sdk_dynamodb::Client;
use std::collections::HashMap;

use crate::error::ApiError;
pub use keys::Key;

pub type Item = HashMap<String, AttributeValue>;

/// The items of a list read with `parse`, an unreadable one (a value out of
/// range, a missing field) skipped and logged with its key: one bad item
/// never takes the whole list down. `infra/local-gateway`'s
/// `repair` command mends such items.
pub fn readable<T>(items: impl IntoIterator<Item = Item>, parse: impl Fn(Item) -> Result<T, ApiError>) -> Vec<T> {
    items
        .into_iter()
        .filter_map(|item| {
            let key = |a: &str| item.get(a).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
            let (pk, sk) = (key("PK"), key("SK"));
            match parse(item) {
                Ok(v) => Some(v),
                Err(e) => {
                    tracing::warn!(pk = %crate::telemetry::redact(&pk), sk = %crate::telemetry::redact(&sk), error = %crate::telemetry::redact(&e.to_string()), "unreadable item skipped");
                    None
                }
            }
        })
        .collect()
}

/// [`readable`] with serde.
pub fn readable_items<T: serde::de::DeserializeOwned>(items: impl IntoIterator<Item = Item>) -> Vec<T> {
    readable(items, |i| serde_dynamo::from_item(i).map_err(ApiError::internal))
}

#[derive(Clone)]
pub struct Store {
    pub client: Client,
    pub table: String,
}

impl Store {
    pub fn new(client: Client, table: impl Into<String>) -> Self {
        Store { client, table: table.into() }
    }

    /// One GetItem by full key.
    pub async fn get(&self, key: &Key) -> Result<Option<Item>, ApiError> {
        let out = self.client.get_item().table_name(&self.table).set_key(Some(key.item())).send().await.map_err(sdk_err)?;
        Ok(out.item)
    }
}

impl Store {
    /// One GetItem by full key, strongly consistent: for a read that a
    /// conditional write then relies on.
    pub async fn get_consistent(&self, key: &Key) -> Result<Option<Item>, ApiError> {
        let out =
            self.client.get_item().table_name(&self.table).set_key(Some(key.item())).consistent_read(true).send().await.map_err(sdk_err)?;
        Ok(out.item)
    }

    /// One item by key read with serde (`None` when absent).
    pub async fn get_as<T: serde::de::DeserializeOwned>(&self, key: &Key) -> Result<Option<T>, ApiError> {
        self.get(key).await?.map(|i| serde_dynamo::from_item(i).map_err(ApiError::internal)).transpose()
    }

    /// [`Self::get_as`], strongly consistent.
    pub async fn get_consistent_as<T: serde::de::DeserializeOwned>(&self, key: &Key) -> Result<Option<T>, ApiError> {
        self.get_consistent(key).await?.map(|i| serde_dynamo::from_item(i).map_err(ApiError::internal)).transpose()
    }

    /// The Query of one partition `pk` of `index` (`GSI1`, `GSI2`), to be
    /// narrowed (a filter, a projection) before it is sent.
    pub(crate) fn index_query(&self, index: &str, pk: &str) -> QueryFluentBuilder {
        self.client
            .query()
            .table_name(&self.table)
            .index_name(index)
            .key_condition_expression("#ipk = :ipk")
            .expression_attribute_names("#ipk", format!("{index}PK"))
            .expression_attribute_values(":ipk", s(pk))
    }

    /// The Query of one table partition, newest (last sort key) first.
    pub(crate) fn newest_of(&self, pk: &str) -> QueryFluentBuilder {
        self.client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :pk")
            .expression_attribute_values(":pk", s(pk))
            .scan_index_forward(false)
    }

    /// The sort keys of the follow-ups of `kind` still waiting (a process
    /// stopped between a transaction and its follow-up), at most `limit`,
    /// read consistently.
    pub(crate) async fn pending_follow_ups(&self, kind: &str, limit: i32) -> Result<Vec<String>, ApiError> {
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :pk AND begins_with(SK, :p)")
            .expression_attribute_values(":pk", s(keys::follow_up::PK))
            .expression_attribute_values(":p", s(format!("{kind}#")))
            .consistent_read(true)
            .limit(limit)
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(out.items().iter().filter_map(|i| i.get("SK").and_then(|v| v.as_s().ok()).cloned()).collect())
    }

    /// Every item a Query answers, page after page (DynamoDB answers at
    /// most 1 MB a page): `query` is the whole request but its start key.
    pub(crate) async fn query_all(&self, query: QueryFluentBuilder) -> Result<Vec<Item>, ApiError> {
        let mut pages = Pages::new(query, None);
        let mut out = Vec::new();
        while let Some(page) = pages.next().await? {
            out.extend(page.items.unwrap_or_default());
        }
        Ok(out)
    }

    /// How many items a Query matches (after its filter), counted page
    /// after page: `query` is the whole request but its start key and `Select`.
    pub(crate) async fn count_all(&self, query: QueryFluentBuilder) -> Result<u64, ApiError> {
        let mut pages = Pages::new(query.select(Select::Count), None);
        let mut total = 0u64;
        while let Some(page) = pages.next().await? {
            total += page.count.max(0) as u64;
        }
        Ok(total)
    }
}

/// Where a list is read: one partition of the table (`index` None) or of
/// an index, by its key attributes' names, ordered by `sk_attr`.
pub(crate) struct ListAt<'a> {
    pub index: Option<&'static str>,
    pub pk_attr: &'a str,
    pub sk_attr: &'a str,
    pub pk: &'a str,
}

impl<'a> ListAt<'a> {
    pub(crate) fn gsi1(pk: &'a str) -> Self {
        ListAt { index: Some(table::GSI1), pk_attr: "GSI1PK", sk_attr: "GSI1SK", pk }
    }
    pub(crate) fn gsi2(pk: &'a str) -> Self {
        ListAt { index: Some(table::GSI2), pk_attr: "GSI2PK", sk_attr: "GSI2SK", pk }
    }
}

/// One round of a list read past a cursor: the items and, while DynamoDB
/// holds more, the sort key it stopped at (past items a filter dropped).
pub(crate) struct Round {
    pub items: Vec<Item>,
    pub stopped_at: Option<String>,
}

impl Store {
    /// One round of a list read by sort key, the one place a cursor becomes
    /// a key condition: up to `limit` items of `at` past the sort key
    /// `after` (newest first unless `ascending`), narrowed by `narrow` (a
    /// filter, a projection). A sort key names one item, so "past it" is
    /// where the previous page ended even if that item is gone.
    pub(crate) async fn round_after(
        &self,
        at: &ListAt<'_>,
        after: Option<&str>,
        ascending: bool,
        limit: i32,
        narrow: impl FnOnce(QueryFluentBuilder) -> QueryFluentBuilder,
    ) -> Result<Round, ApiError> {
        let q = self
            .client
            .query()
            .table_name(&self.table)
            .set_index_name(at.index.map(String::from))
            .scan_index_forward(ascending)
            .limit(limit)
            .expression_attribute_names("#lpk", at.pk_attr)
            .expression_attribute_values(":lpk", s(at.pk));
        let q = match after {
            Some(a) => q
                .key_condition_expression(format!("#lpk = :lpk AND #lsk {} :lafter", if ascending { ">" } else { "<" }))
                .expression_attribute_names("#lsk", at.sk_attr)
                .expression_attribute_values(":lafter", s(a)),
            None => q.key_condition_expression("#lpk = :lpk"),
        };
        let out = narrow(q).send().await.map_err(sdk_err)?;
        let stopped_at = out.last_evaluated_key().and_then(|k| k.get(at.sk_attr)).and_then(|v| v.as_s().ok()).cloned();
        Ok(Round { items: out.items.unwrap_or_default(), stopped_at })
    }
}

/// The pages of one Query, read one at a time (`next`) from `start` (a
/// list's cursor, or the beginning) until DynamoDB has no more: the one
/// place that passes a page's last key on as the next page's start, for
/// loops that stop early, count, or do more work between pages.
pub(crate) struct Pages {
    query: QueryFluentBuilder,
    start: Option<Item>,
    done: bool,
}

impl Pages {
    pub(crate) fn new(query: QueryFluentBuilder, start: Option<Item>) -> Self {
        Pages { query, start, done: false }
    }

    /// The next page, or `None` after the last one.
    pub(crate) async fn next(&mut self) -> Result<Option<QueryOutput>, ApiError> {
        if self.done {
            return Ok(None);
        }
        let page = self.query.clone().set_exclusive_start_key(self.start.take()).send().await.map_err(sdk_err)?;
        self.start = page.last_evaluated_key.clone().filter(|k| !k.is_empty());
        self.done = self.start.is_none();
        Ok(Some(page))
    }

    /// Whether DynamoDB holds another page.
    pub(crate) fn more(&self) -> bool {
        !self.done
    }

    /// The key the next page starts after (the last key the previous one read).
    pub(crate) fn start(&self) -> Option<&Item> {
        self.start.as_ref()
    }

    /// Asks the next pages for at most `n` items each.
    pub(crate) fn limit(&mut self, n: i32) {
        self.query = self.query.clone().limit(n);
    }
}

/// A list cursor as a client holds it: the sort key a page ended on, in
/// hex (opaque, and safe in a query string).
pub(crate) fn hex(sort_key: &str) -> String {
    sort_key.bytes().map(|b| format!("{b:02x}")).collect()
}

/// The sort key of a cursor from [`hex`]; `None` for one this store never
/// hands out (odd length, not hex, not UTF-8, longer than 400).
pub(crate) fn unhex(cursor: &str) -> Option<String> {
    if !cursor.len().is_multiple_of(2) || cursor.len() > 400 {
        return None;
    }
    let bytes: Option<Vec<u8>> = (0..cursor.len()).step_by(2).map(|i| u8::from_str_radix(cursor.get(i..i + 2)?, 16).ok()).collect();
    String::from_utf8(bytes?).ok()
}

pub fn s(v: impl Into<String>) -> AttributeValue {
    AttributeValue::S(v.into())
}

pub fn n(v: impl ToString) -> AttributeValue {
    AttributeValue::N(v.to_string())
}

/// An SDK error as an API error: throttling, timeouts, dropped connections
/// and the service's own 5xx are transient ([`ApiError::Unavailable`], which
/// the retry helper tries again); anything else is a logged 500.
pub fn sdk_err<E, R>(e: aws_sdk_dynamodb::error::SdkError<E, R>) -> ApiError
where
    E: aws_sdk_dynamodb::error::ProvideErrorMetadata + std::error::Error + 'static,
    R: std::fmt::Debug,
{
    use aws_sdk_dynamodb::error::SdkError;
    let transient = match &e {
        SdkError::TimeoutError(_) | SdkError::DispatchFailure(_) | SdkError::ResponseError(_) => true,
        SdkError::ServiceError(se) => matches!(
            se.err().code(),
            Some(
                "ProvisionedThroughputExceededException"
                    | "ThrottlingException"
                    | "RequestLimitExceeded"
                    | "InternalServerError"
                    | "ServiceUnavailable"
                    | "TransactionInProgressException"
            )
        ),
        _ => false,
    };
    let detail = aws_sdk_dynamodb::error::DisplayErrorContext(e).to_string();
    if transient {
        ApiError::Unavailable(detail)
    } else {
        ApiError::Internal(detail)
    }
}

/// Whether a single conditional write was done: `false` when its
/// condition failed, any other failure an error.
pub(crate) fn applied<T, E>(res: Result<T, aws_sdk_dynamodb::error::SdkError<E>>) -> Result<bool, ApiError>
where
    E: aws_sdk_dynamodb::error::ProvideErrorMetadata + std::error::Error + 'static,
{
    match res {
        Ok(_) => Ok(true),
        Err(e) if is_conditional(&e) => Ok(false),
        Err(e) => Err(sdk_err(e)),
    }
}

/// Whether a write failed on its condition (or, for a transaction, was
/// cancelled: a condition failed or a concurrent transaction touched its
/// items); the caller reads again and decides again.
pub(crate) fn is_conditional<E: aws_sdk_dynamodb::error::ProvideErrorMetadata>(e: &aws_sdk_dynamodb::error::SdkError<E>) -> bool {
    e.as_service_error()
        .and_then(|se| se.code())
        .is_some_and(|c| c == "ConditionalCheckFailedException" || c == "TransactionCanceledException")
}

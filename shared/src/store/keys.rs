//! Every key of the one table, built in one place: a module per entity with
//! its partition key, sort key (or sort-key prefix for `begin_with` reads)
//! and index keys. The table documentation ([`super::table`]) names the same
//! strings, and the tests below assert each literal, so a key format cannot
//! change without a test failing.

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};

use super::Item;

use crate::domain::case::CaseStatus;
use crate::domain::conflict::PartyKind;
use crate::domain::customer::CustomerState;
use crate::domain::{Role, UserSubType};

/// One item's whole key: its partition and sort key built together by its
/// entity's constructor (`user::item(uid)`, `case::hour(case, id)`), so a
/// partition key cannot be paired with another entity's sort key. Every
/// GetItem, DeleteItem, UpdateItem, condition check and Put takes one.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub pk: String,
    pub sk: String,
}

impl Key {
    /// Only for a pair read back from a stored item or a cursor; new keys
    /// come from the entity modules below.
    pub fn new(pk: impl Into<String>, sk: impl Into<String>) -> Self {
        Key { pk: pk.into(), sk: sk.into() }
    }

    /// The key as DynamoDB names it (`PK`, `SK`).
    pub fn item(&self) -> Item {
        Item::from([("PK".to_string(), AttributeValue::S(self.pk.clone())), ("SK".to_string(), AttributeValue::S(self.sk.clone()))])
    }

    /// An item to put: this key and `fields`.
    pub fn with<A: Into<String>>(&self, fields: impl IntoIterator<Item = (A, AttributeValue)>) -> Item {
        let mut item = self.item();
        item.extend(fields.into_iter().map(|(k, v)| (k.into(), v)));
        item
    }

    /// Writes this key into `item` (an entity serialised by serde).
    pub fn stamp(&self, item: &mut Item) {
        item.extend(self.item());
    }

    /// The key of a stored item (`None` if it lacks one).
    pub fn of(item: &Item) -> Option<Key> {
        let part = |a: &str| item.get(a).and_then(|v| v.as_s().ok()).cloned();
        Some(Key { pk: part("PK")?, sk: part("SK")? })
    }

    /// Whether `item` carries this key.
    pub fn names(&self, item: &Item) -> bool {
        let is = |a: &str, want: &str| item.get(a).and_then(|v| v.as_s().ok()).is_some_and(|v| v == want);
        is("PK", &self.pk) && is("SK", &self.sk)
    }
}

/// A secondary index's key pair on an item (`GSI1PK`/`GSI1SK` or
/// `GSI2PK`/`GSI2SK`), written together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexKey {
    index: u8,
    pub pk: String,
    pub sk: String,
}

impl IndexKey {
    pub fn gsi1(pk: impl Into<String>, sk: impl Into<String>) -> Self {
        IndexKey { index: 1, pk: pk.into(), sk: sk.into() }
    }
    pub fn gsi2(pk: impl Into<String>, sk: impl Into<String>) -> Self {
        IndexKey { index: 2, pk: pk.into(), sk: sk.into() }
    }
    /// Writes both attributes into `item`.
    pub fn stamp(&self, item: &mut Item) {
        let i = self.index;
        item.insert(format!("GSI{i}PK"), AttributeValue::S(self.pk.clone()));
        item.insert(format!("GSI{i}SK"), AttributeValue::S(self.sk.clone()));
    }
}

/// A creation time as a sort-key part: fixed width (microseconds, `Z`), so
/// keys order by time.
pub fn at(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Micros, true)
}

/// Newest-first list position of a thing created at `t`: the uid makes it unique.
pub fn created_sk(t: DateTime<Utc>, uid: &str) -> String {
    format!("{}#{uid}", at(t))
}

/// A user of any role, its authenticator and its enrolment.
pub mod user {
    pub fn pk(uid: &str) -> String {
        format!("USER#{uid}")
    }
    pub const SK: &str = "USER";
    /// GSI1: users of a role.
    pub fn role_gsi1pk(role: &str) -> String {
        format!("ROLE#{role}")
    }
    /// GSI2 of a customer contact: the customer's contacts.
    pub fn contacts_gsi2pk(customer_uid: &str) -> String {
        format!("CONTACTS#{customer_uid}")
    }
    pub const TOTP_SK: &str = "TOTP";
    pub const TOTP_SETUP_SK: &str = "TOTP#SETUP";
    /// The personal number linked for signing in with BankID.
    pub const BANKID_SK: &str = "BANKID";
    use super::Key;
    /// The user item.
    pub fn item(uid: &str) -> Key {
        Key::new(pk(uid), SK)
    }
    pub fn totp(uid: &str) -> Key {
        Key::new(pk(uid), TOTP_SK)
    }
    pub fn totp_setup(uid: &str) -> Key {
        Key::new(pk(uid), TOTP_SETUP_SK)
    }
    pub fn bankid(uid: &str) -> Key {
        Key::new(pk(uid), BANKID_SK)
    }
}

/// The item that makes an e-mail address belong to one user.
pub mod email {
    pub fn pk(normalized_email: &str) -> String {
        format!("EMAIL#{normalized_email}")
    }
    pub const SK: &str = "EMAIL";
    pub fn item(normalized_email: &str) -> super::Key {
        super::Key::new(pk(normalized_email), SK)
    }
}

/// A lawyer's or sales person's profile (beside the user item).
pub mod staff {
    use super::*;
    pub const SK: &str = "STAFF";
    /// GSI1: the admin lists (internal lawyers, external lawyers, sales persons).
    pub fn list_gsi1pk(role: Role, sub_type: Option<UserSubType>) -> String {
        match (role, sub_type) {
            (Role::Lawyer, Some(UserSubType::External)) => "STAFF#lawyer#external".into(),
            (Role::Lawyer, _) => "STAFF#lawyer#internal".into(),
            (r, _) => format!("STAFF#{}", r.as_str()),
        }
    }
    /// GSI1 sort key of the lists: newest first by creation. RFC 3339 with
    /// the `+00:00` offset (what the stored items and the list cursors hold).
    pub fn list_gsi1sk(created_at: DateTime<Utc>, uid: &str) -> String {
        format!("{}#{uid}", created_at.to_rfc3339())
    }
    /// Beside the user item.
    pub fn item(uid: &str) -> Key {
        Key::new(user::pk(uid), SK)
    }
}

/// A write done under an `Idempotency-Key`: the caller's key, the request's
/// fingerprint and the answer given ([`super::idempotency`]).
pub mod idempotency {
    pub fn pk(caller_uid: &str, key: &str) -> String {
        format!("IDEM#{caller_uid}#{key}")
    }
    pub const SK: &str = "IDEM";
    pub fn item(caller_uid: &str, key: &str) -> super::Key {
        super::Key::new(pk(caller_uid, key), SK)
    }
}

/// A user's mail settings and the event mails' batch windows
/// ([`super::event_mail`]).
pub mod event_mail {
    /// Beside the user item (`USER#<uid>`).
    pub const PREFS_SK: &str = "MAILPREFS";
    pub fn window_pk(user_uid: &str) -> String {
        format!("MAILWIN#{user_uid}")
    }
    use super::Key;
    pub fn prefs(user_uid: &str) -> Key {
        Key::new(super::user::pk(user_uid), PREFS_SK)
    }
    /// A topic's batch window.
    pub fn window(user_uid: &str, topic: &str) -> Key {
        Key::new(window_pk(user_uid), topic)
    }
}

/// Mail written with the write it belongs to ([`super::outbox`]).
pub mod outbox {
    use super::*;
    pub const PK: &str = "OUTBOX";
    /// Oldest first by the time it was written.
    pub fn sk(written_at: DateTime<Utc>, id: &str) -> String {
        format!("{}#{id}", at(written_at))
    }
    pub fn item(written_at: DateTime<Utc>, id: &str) -> Key {
        Key::new(PK, sk(written_at, id))
    }
    /// A mail by its sort key (as a list hands it on).
    pub fn at_sk(sk: &str) -> Key {
        Key::new(PK, sk)
    }
}

/// Named counters (next human-readable id).
pub mod counter {
    pub fn pk(name: &str) -> String {
        format!("COUNTER#{name}")
    }
    pub const SK: &str = "COUNTER";
    pub fn item(name: &str) -> super::Key {
        super::Key::new(pk(name), SK)
    }
}

pub mod refresh_token {
    pub fn pk(jti: &str) -> String {
        format!("REFRESH#{jti}")
    }
    pub const SK: &str = "REFRESH";
    pub fn item(jti: &str) -> super::Key {
        super::Key::new(pk(jti), SK)
    }
}

pub mod refresh_family {
    pub fn pk(family: &str) -> String {
        format!("FAMILY#{family}")
    }
    pub const SK: &str = "FAMILY";
    pub fn item(family: &str) -> super::Key {
        super::Key::new(pk(family), SK)
    }
}

pub mod two_factor_challenge {
    pub fn pk(id: &str) -> String {
        format!("TWOFA#{id}")
    }
    pub const SK: &str = "TWOFA";
    pub fn item(id: &str) -> super::Key {
        super::Key::new(pk(id), SK)
    }
}

/// A BankID order while the user answers it.
pub mod bankid_order {
    pub fn pk(order_ref: &str) -> String {
        format!("BANKID#{order_ref}")
    }
    pub const SK: &str = "BANKID";
    pub fn item(order_ref: &str) -> super::Key {
        super::Key::new(pk(order_ref), SK)
    }
}

/// A personal number's owner (one account per person, for BankID).
pub mod personal_number {
    pub fn pk(personal_number: &str) -> String {
        format!("PNR#{personal_number}")
    }
    pub const SK: &str = "PNR";
    pub fn item(personal_number: &str) -> super::Key {
        super::Key::new(pk(personal_number), SK)
    }
}

pub mod recovery_link {
    pub fn pk(digest: &str) -> String {
        format!("RESET#{digest}")
    }
    pub const SK: &str = "RESET";
    pub fn item(digest: &str) -> super::Key {
        super::Key::new(pk(digest), SK)
    }
}

pub mod rate_limit {
    pub fn pk(scope: &str, key: &str) -> String {
        format!("RATE#{scope}#{key}")
    }
    pub fn sk(window: i64) -> String {
        window.to_string()
    }
    pub fn item(scope: &str, key: &str, window: i64) -> super::Key {
        super::Key::new(pk(scope, key), sk(window))
    }
}

/// A customer's partition: profile, activation link, subscription rows,
/// purchase guards, credit-information account, department.
pub mod customer {
    use super::*;
    pub fn pk(uid: &str) -> String {
        format!("CUSTOMER#{uid}")
    }
    pub const PROFILE_SK: &str = "PROFILE";
    pub const ACTIVATION_SK: &str = "ACTIVATION";
    pub const BISNODE_SK: &str = "BISNODE";
    pub const DEPARTMENT_SK: &str = "DEPARTMENT";
    /// GSI1 of the profile: customers in one state.
    pub fn state_gsi1pk(state: CustomerState) -> String {
        format!("CUSTSTATE#{}", state.as_str())
    }
    /// GSI2 of the profile: every customer.
    pub const ALL_GSI2PK: &str = "CUSTOMERS";
    pub fn profile(uid: &str) -> Key {
        Key::new(pk(uid), PROFILE_SK)
    }
    pub fn activation(uid: &str) -> Key {
        Key::new(pk(uid), ACTIVATION_SK)
    }
    pub fn bisnode(uid: &str) -> Key {
        Key::new(pk(uid), BISNODE_SK)
    }
    pub fn department(uid: &str) -> Key {
        Key::new(pk(uid), DEPARTMENT_SK)
    }
}

/// The item that makes an organisationsnummer belong to one customer.
pub mod registration_number {
    pub fn pk(number: &str) -> String {
        format!("REGNO#{}", number.trim())
    }
    pub const SK: &str = "REGNO";
    pub fn item(number: &str) -> super::Key {
        super::Key::new(pk(number), SK)
    }
}

pub mod business_sector {
    pub const PK: &str = "BUSINESS_SECTOR";
    pub const PREFIX: &str = "SECTOR#";
    pub fn sk(id: &str) -> String {
        format!("SECTOR#{id}")
    }
    /// Written once the spec's list has been seeded.
    pub const SEEDED_SK: &str = "SEEDED";
    pub fn item(id: &str) -> super::Key {
        super::Key::new(PK, sk(id))
    }
    pub fn seeded() -> super::Key {
        super::Key::new(PK, SEEDED_SK)
    }
}

/// Customers of a department (GSI1 of the customer's `DEPARTMENT` item).
pub mod department_members {
    pub fn gsi1pk(department_id: u64) -> String {
        format!("DEPARTMENT#{department_id}")
    }
}

/// Packages, service plans and the named lists, ids zero-padded so they sort.
pub mod catalogue {
    pub const PACKAGES_PK: &str = "CATALOGUE#PACKAGE";
    pub const PLANS_PK: &str = "CATALOGUE#SERVICEPLAN";
    pub const KNOWLEDGE_SECTORS_PK: &str = "CATALOGUE#KNOWLEDGE_SECTOR";
    pub const CASE_TYPES_PK: &str = "CATALOGUE#CASE_TYPE";
    pub const DEPARTMENTS_PK: &str = "CATALOGUE#DEPARTMENT";
    pub const PACKAGE_PREFIX: &str = "PACKAGE#";
    pub const PLAN_PREFIX: &str = "PLAN#";
    pub const ENTRY_PREFIX: &str = "ENTRY#";
    pub fn package_sk(id: u64) -> String {
        format!("PACKAGE#{id:012}")
    }
    pub fn plan_sk(id: u64) -> String {
        format!("PLAN#{id:012}")
    }
    pub fn entry_sk(id: u64) -> String {
        format!("ENTRY#{id:012}")
    }
    use super::Key;
    pub fn package(id: u64) -> Key {
        Key::new(PACKAGES_PK, package_sk(id))
    }
    pub fn plan(id: u64) -> Key {
        Key::new(PLANS_PK, plan_sk(id))
    }
    /// An entry of the named list whose partition is `list_pk` (one of the `*_PK` above).
    pub fn entry(list_pk: &str, id: u64) -> Key {
        Key::new(list_pk, entry_sk(id))
    }
}

/// A purchased service (subscription row) and what hangs on it.
pub mod purchase {
    use super::*;
    pub const PREFIX: &str = "PURCHASE#";
    /// In the customer's partition ([`customer::pk`]).
    pub fn sk(id: u64) -> String {
        format!("PURCHASE#{id:012}")
    }
    /// GSI1: a row by id.
    pub fn gsi1pk(id: u64) -> String {
        format!("PSVC#{id}")
    }
    pub const GSI1SK: &str = "PURCHASE";
    /// GSI2 of rows not yet expired: due by `expire_on`.
    pub const DUE_GSI2PK: &str = "DUE#SUBSCRIPTION";
    pub fn due_gsi2sk(expire_on: DateTime<Utc>, id: &str) -> String {
        format!("{}#{id}", expire_on.to_rfc3339_opts(SecondsFormat::Secs, true))
    }
    /// In the customer's partition: serialises purchases of one service.
    pub fn guard_sk(service_id: u8) -> String {
        format!("PURCHASE_GUARD#{service_id}")
    }
    /// The usage ledger of a row.
    pub fn usage_pk(id: u64) -> String {
        format!("PSVC#{id}")
    }
    pub fn usage_sk(date: NaiveDate, entry_id: &str) -> String {
        format!("USAGE#{}#{entry_id}", date.format("%Y-%m-%d"))
    }
    /// Bounds of a date range of the ledger (`SK BETWEEN from AND to`).
    pub fn usage_from(date: NaiveDate) -> String {
        format!("USAGE#{}", date.format("%Y-%m-%d"))
    }
    pub fn usage_to(date: NaiveDate) -> String {
        format!("USAGE#{}#~", date.format("%Y-%m-%d"))
    }
    /// The row, in its customer's partition.
    pub fn item(customer_uid: &str, id: u64) -> Key {
        Key::new(customer::pk(customer_uid), sk(id))
    }
    pub fn guard(customer_uid: &str, service_id: u8) -> Key {
        Key::new(customer::pk(customer_uid), guard_sk(service_id))
    }
    pub fn usage(id: u64, date: NaiveDate, entry_id: &str) -> Key {
        Key::new(usage_pk(id), usage_sk(date, entry_id))
    }
}

/// A case and the items in its partition.
pub mod case {
    use super::*;
    pub fn pk(uid: &str) -> String {
        format!("CASE#{uid}")
    }
    pub const SK: &str = "CASE";
    /// GSI1: cases in one status (the word `pending` for Draft is what `bubbles/` counts).
    pub fn state_gsi1pk(status: CaseStatus) -> String {
        format!("CASESTATE#{}", state_word(status))
    }
    pub fn state_word(status: CaseStatus) -> &'static str {
        match status {
            CaseStatus::Draft => "pending",
            CaseStatus::Waiting => "waiting",
            CaseStatus::Inprogress => "inprogress",
            CaseStatus::Complete => "complete",
            CaseStatus::Withdrawn => "withdrawn",
        }
    }
    /// GSI2: a customer's cases.
    pub fn customer_gsi2pk(customer_uid: &str) -> String {
        format!("CASECUST#{customer_uid}")
    }
    /// The lawyer's pointer partition (their own cases).
    pub fn lawyer_pk(lawyer_uid: &str) -> String {
        format!("LAWYERCASES#{lawyer_uid}")
    }
    /// The pointer partition of the cases a staff member opened.
    pub fn creator_pk(creator_uid: &str) -> String {
        format!("CREATEDCASES#{creator_uid}")
    }
    /// The pointer partition of every case.
    pub const ALL_PK: &str = "ALLCASES";
    pub const HISTORY_PREFIX: &str = "HIST#";
    pub fn history_sk(t: DateTime<Utc>, id: &str) -> String {
        format!("HIST#{}#{id}", at(t))
    }
    pub const NOTE_PREFIX: &str = "NOTE#";
    pub fn note_sk(t: DateTime<Utc>, id: &str) -> String {
        format!("NOTE#{}#{id}", at(t))
    }
    pub const HOUR_PREFIX: &str = "HOUR#";
    pub fn hour_sk(id: &str) -> String {
        format!("HOUR#{id}")
    }
    pub const ADDITIONAL_PREFIX: &str = "ADDHOUR#";
    pub fn additional_sk(id: &str) -> String {
        format!("ADDHOUR#{id}")
    }
    pub fn additional_month_sk(month: &str, lawyer_uid: &str) -> String {
        format!("ADDHOURMONTH#{month}#{lawyer_uid}")
    }
    pub const ADDITIONAL_HISTORY_PREFIX: &str = "HISTADD#";
    pub fn additional_history_sk(t: DateTime<Utc>, id: &str) -> String {
        format!("HISTADD#{}#{id}", at(t))
    }
    /// The case item.
    pub fn item(uid: &str) -> Key {
        Key::new(pk(uid), SK)
    }
    /// A lawyer's pointer to a case at its list position.
    pub fn lawyer_pointer(lawyer_uid: &str, list_sk: &str) -> Key {
        Key::new(lawyer_pk(lawyer_uid), list_sk)
    }
    pub fn creator_pointer(creator_uid: &str, list_sk: &str) -> Key {
        Key::new(creator_pk(creator_uid), list_sk)
    }
    pub fn all_pointer(list_sk: &str) -> Key {
        Key::new(ALL_PK, list_sk)
    }
    pub fn history(uid: &str, t: DateTime<Utc>, id: &str) -> Key {
        Key::new(pk(uid), history_sk(t, id))
    }
    pub fn note(uid: &str, t: DateTime<Utc>, id: &str) -> Key {
        Key::new(pk(uid), note_sk(t, id))
    }
    pub fn hour(uid: &str, id: &str) -> Key {
        Key::new(pk(uid), hour_sk(id))
    }
    pub fn additional(uid: &str, id: &str) -> Key {
        Key::new(pk(uid), additional_sk(id))
    }
    pub fn additional_month(uid: &str, month: &str, lawyer_uid: &str) -> Key {
        Key::new(pk(uid), additional_month_sk(month, lawyer_uid))
    }
    pub fn additional_history(uid: &str, t: DateTime<Utc>, id: &str) -> Key {
        Key::new(pk(uid), additional_history_sk(t, id))
    }
}

/// A case's conversation: messages and each participant's read mark, in
/// the case's partition ([`case::pk`]).
pub mod message {
    use super::*;
    pub const PREFIX: &str = "MSG#";
    pub fn sk(t: DateTime<Utc>, id: &str) -> String {
        format!("MSG#{}#{id}", at(t))
    }
    pub const READ_PREFIX: &str = "MSGREAD#";
    pub fn read_sk(user_uid: &str) -> String {
        format!("MSGREAD#{user_uid}")
    }
    pub fn item(case_uid: &str, t: DateTime<Utc>, id: &str) -> Key {
        Key::new(case::pk(case_uid), sk(t, id))
    }
    pub fn read(case_uid: &str, user_uid: &str) -> Key {
        Key::new(case::pk(case_uid), read_sk(user_uid))
    }
}

/// A reader's notifications and their seen/read marks.
pub mod notification {
    use super::*;
    pub fn pk(user_uid: &str) -> String {
        format!("NOTIF#{user_uid}")
    }
    pub const PREFIX: &str = "N#";
    /// The id a reader addresses a notification by (its sort key without the prefix).
    pub fn id(t: DateTime<Utc>, event: &str) -> String {
        format!("{}#{event}", at(t))
    }
    pub fn sk(id: &str) -> String {
        format!("N#{id}")
    }
    /// The first sort key after every notification at or before `t`.
    pub fn mark(t: DateTime<Utc>) -> String {
        format!("N#{}#~", at(t))
    }
    /// Above every notification's sort key.
    pub const END: &str = "N#~";
    pub const MARKS_SK: &str = "MARKS";
    /// GSI1 of a notification about a case: every reader's copy, found by
    /// the case (the retention job erases them with the case's file).
    pub fn case_gsi1pk(case_uid: &str) -> String {
        format!("CASENOTIF#{case_uid}")
    }
    pub fn case_gsi1sk(reader: &str, id: &str) -> String {
        format!("{reader}#{id}")
    }
    /// A reader's notification by its id.
    pub fn item(user_uid: &str, id: &str) -> Key {
        Key::new(pk(user_uid), sk(id))
    }
    pub fn marks(user_uid: &str) -> Key {
        Key::new(pk(user_uid), MARKS_SK)
    }
}

/// A case's rating (in the case's partition) and a lawyer's ratings.
pub mod rating {
    use super::*;
    pub const SK: &str = "RATING";
    pub fn lawyer_pk(lawyer_uid: &str) -> String {
        format!("RATINGS#{lawyer_uid}")
    }
    pub fn lawyer_sk(t: DateTime<Utc>, case_uid: &str) -> String {
        created_sk(t, case_uid)
    }
    /// A case's rating, in the case's partition.
    pub fn item(case_uid: &str) -> Key {
        Key::new(case::pk(case_uid), SK)
    }
    pub fn lawyer(lawyer_uid: &str, t: DateTime<Utc>, case_uid: &str) -> Key {
        Key::new(lawyer_pk(lawyer_uid), lawyer_sk(t, case_uid))
    }
}

/// The conflict-of-interest index.
pub mod conflict {
    use super::*;
    /// A candidate partition: `key` is `W#<spelling>`, `A#<first letter, the others sorted>`,
    /// `D#<spelling, or it less one letter>` or `N#<identity number>`
    /// ([`crate::domain::conflict::word_keys`]).
    pub fn index_pk(key: &str) -> String {
        format!("CONFLICT#{key}")
    }
    pub fn index_sk(kind: PartyKind, uid: &str) -> String {
        format!("{}#{uid}", kind_word(kind))
    }
    /// The keys a party is indexed under.
    pub fn record_pk(kind: PartyKind, uid: &str) -> String {
        format!("CONFLICTREC#{}#{uid}", kind_word(kind))
    }
    pub const RECORD_SK: &str = "KEYS";
    pub fn audit_pk(t: DateTime<Utc>) -> String {
        format!("AUDIT#CONFLICT#{}", t.format("%Y-%m"))
    }
    pub fn audit_sk(t: DateTime<Utc>, id: &str) -> String {
        format!("{}#{id}", at(t))
    }
    pub fn kind_word(kind: PartyKind) -> &'static str {
        match kind {
            PartyKind::Customer => "customer",
            PartyKind::Company => "company",
            PartyKind::ContactPerson => "contact_person",
            PartyKind::Counterpart => "counterpart",
        }
    }
    pub fn index(key: &str, kind: PartyKind, uid: &str) -> Key {
        Key::new(index_pk(key), index_sk(kind, uid))
    }
    pub fn record(kind: PartyKind, uid: &str) -> Key {
        Key::new(record_pk(kind, uid), RECORD_SK)
    }
    pub fn audit(t: DateTime<Utc>, id: &str) -> Key {
        Key::new(audit_pk(t), audit_sk(t, id))
    }
}

/// The audit trail ([`super::audit`]): one item per event in its month's
/// partition, indexed per customer (GSI1) and per actor (GSI2).
pub mod audit {
    use super::*;
    /// Every key of the trail starts so; the functions' IAM role may put
    /// items under it but not update or delete them (template.yaml).
    pub const PREFIX: &str = "AUDIT#";
    pub fn pk(t: DateTime<Utc>) -> String {
        format!("AUDIT#{}", t.format("%Y-%m"))
    }
    pub fn sk(t: DateTime<Utc>, id: &str) -> String {
        format!("{}#{id}", at(t))
    }
    pub fn customer_gsi1pk(customer_uid: &str) -> String {
        format!("AUDITCUST#{customer_uid}")
    }
    pub fn actor_gsi2pk(actor_uid: &str) -> String {
        format!("AUDITUSER#{actor_uid}")
    }
    pub fn item(t: DateTime<Utc>, id: &str) -> Key {
        Key::new(pk(t), sk(t, id))
    }
}

/// The customer search index ([`super::customer_search`]).
pub mod customer_search {
    /// A word's partition: its first two letters (a query reads the key
    /// range of its word inside it, never the whole partition).
    pub fn word_pk(word: &str) -> String {
        format!("CUSTWORD#{}", word.chars().take(2).collect::<String>())
    }
    pub fn word_sk(word: &str, customer_uid: &str) -> String {
        format!("{word}#{customer_uid}")
    }
    /// The words a customer is indexed under.
    pub fn record_pk(customer_uid: &str) -> String {
        format!("CUSTWORDS#{customer_uid}")
    }
    pub const RECORD_SK: &str = "WORDS";
    use super::Key;
    pub fn word(word: &str, customer_uid: &str) -> Key {
        Key::new(word_pk(word), word_sk(word, customer_uid))
    }
    pub fn record(customer_uid: &str) -> Key {
        Key::new(record_pk(customer_uid), RECORD_SK)
    }
}

/// The client's data rights: a customer's exports (`CUSTOMER#<uid>` /
/// `EXPORT#<id>`, also on GSI1 `DATAREQ` for admin's list), its
/// one-at-a-time slot, and the worker's queue.
pub mod data_rights {
    use chrono::{DateTime, Utc};

    pub const EXPORT_PREFIX: &str = "EXPORT#";
    pub fn export_sk(id: &str) -> String {
        format!("{EXPORT_PREFIX}{id}")
    }
    pub const EXPORT_SLOT_SK: &str = "EXPORT_RUNNING";
    pub const ERASURE_PREFIX: &str = "ERASURE#";
    pub fn erasure_sk(id: &str) -> String {
        format!("{ERASURE_PREFIX}{id}")
    }
    pub const ERASURE_SLOT_SK: &str = "ERASURE_OPEN";
    pub const REQUESTS_GSI1PK: &str = "DATAREQ";
    pub const QUEUE_PK: &str = "DATAJOBS";
    pub fn queue_sk(created_at: DateTime<Utc>, id: &str) -> String {
        super::created_sk(created_at, id)
    }
    use super::{customer, Key};
    pub fn export(customer_uid: &str, id: &str) -> Key {
        Key::new(customer::pk(customer_uid), export_sk(id))
    }
    pub fn export_slot(customer_uid: &str) -> Key {
        Key::new(customer::pk(customer_uid), EXPORT_SLOT_SK)
    }
    pub fn erasure(customer_uid: &str, id: &str) -> Key {
        Key::new(customer::pk(customer_uid), erasure_sk(id))
    }
    pub fn erasure_slot(customer_uid: &str) -> Key {
        Key::new(customer::pk(customer_uid), ERASURE_SLOT_SK)
    }
    pub fn queued(created_at: DateTime<Utc>, id: &str) -> Key {
        Key::new(QUEUE_PK, queue_sk(created_at, id))
    }
}

/// The retention job's work: one "due" item per record with a retention
/// end (a closed case's file, a ready export), keyed by the last day it is
/// kept, so the job's Query `SK < <today>` finds exactly what has reached
/// its end.
pub mod retention {
    use chrono::NaiveDate;
    pub const PK: &str = "RETAIN";
    pub fn due_sk(kept_until: NaiveDate, kind: &str, id: &str) -> String {
        format!("{}#{kind}#{id}", kept_until.format("%Y-%m-%d"))
    }
    /// The lower bound of the due items not yet due on `today`.
    pub fn not_due_from(today: NaiveDate) -> String {
        today.format("%Y-%m-%d").to_string()
    }
    /// The one-off filing of cases closed before the due items existed:
    /// its mark sorts after every day, so the job's Query never reads it.
    pub const BACKFILL_SK: &str = "~BACKFILL";
    /// The figures an erased record had added to the statistics' periods
    /// (kept, so a recount still counts them), in chunks.
    pub fn figures_pk(kind: &str, id: &str) -> String {
        format!("FIGURES#{kind}#{id}")
    }
    pub fn figures_sk(chunk: usize) -> String {
        format!("CHUNK#{chunk:04}")
    }
    pub const FIGURES_PREFIX: &str = "FIGURES#";
    use super::Key;
    pub fn due(kept_until: NaiveDate, kind: &str, id: &str) -> Key {
        Key::new(PK, due_sk(kept_until, kind, id))
    }
    /// A due item by its sort key (as the job's Query hands it on).
    pub fn due_at(sk: &str) -> Key {
        Key::new(PK, sk)
    }
    pub fn backfill() -> Key {
        Key::new(PK, BACKFILL_SK)
    }
    pub fn figures(kind: &str, id: &str, chunk: usize) -> Key {
        Key::new(figures_pk(kind, id), figures_sk(chunk))
    }
}

/// Work a transaction could not hold (it would pass 100 items), written in
/// that transaction and finished right after, or by the next sweep.
pub mod follow_up {
    pub const PK: &str = "FOLLOWUP";
    pub fn sk(kind: &str, id: &str) -> String {
        format!("{kind}#{id}")
    }
    pub fn item(kind: &str, id: &str) -> super::Key {
        super::Key::new(PK, sk(kind, id))
    }
    /// A follow-up by its sort key (as the sweep's Query hands it on).
    pub fn at_sk(sk: &str) -> super::Key {
        super::Key::new(PK, sk)
    }
}

/// Statistics counters: a scope's figures of a day, a month, or
/// now (gauges), one item per shard; see [`crate::domain::statistics`].
pub mod stats {
    use chrono::{Datelike, NaiveDate};
    pub fn day_pk(scope: &str, shard: u8, d: NaiveDate) -> String {
        format!("STATS#{scope}#{shard}#DAY#{:04}-{:02}", d.year(), d.month())
    }
    pub fn day_sk(d: NaiveDate) -> String {
        d.format("%Y-%m-%d").to_string()
    }
    pub fn month_pk(scope: &str, shard: u8, year: i32) -> String {
        format!("STATS#{scope}#{shard}#MONTH#{year:04}")
    }
    pub fn month_sk(d: NaiveDate) -> String {
        format!("{:04}-{:02}", d.year(), d.month())
    }
    pub fn now_pk(scope: &str, shard: u8) -> String {
        format!("STATS#{scope}#{shard}#NOW")
    }
    pub const NOW_SK: &str = "NOW";
    /// The follow-up kind of counter changes that did not fit in their
    /// event's transaction.
    pub const FOLLOW_UP: &str = "counters";
    use super::Key;
    pub fn day(scope: &str, shard: u8, d: NaiveDate) -> Key {
        Key::new(day_pk(scope, shard, d), day_sk(d))
    }
    pub fn month(scope: &str, shard: u8, d: NaiveDate) -> Key {
        Key::new(month_pk(scope, shard, d.year()), month_sk(d))
    }
    pub fn now(scope: &str, shard: u8) -> Key {
        Key::new(now_pk(scope, shard), NOW_SK)
    }
}

/// Terms and privacy: the published versions of a text, and a user's
/// acceptance of one version (on the user's partition).
pub mod legal {
    pub fn pk(kind: &str) -> String {
        format!("LEGAL#{kind}")
    }
    pub const VERSION_PREFIX: &str = "V#";
    /// Zero-padded, so versions sort in order.
    pub fn version_sk(version: u32) -> String {
        format!("V#{version:06}")
    }
    /// The texts' sort keys: the newest version's two sort last.
    pub const TEXT_PREFIX: &str = "T#";
    /// One language's text of a version (`sv`, `en`), beside its version
    /// item: a text may fill an item alone.
    pub fn text_sk(version: u32, language: &str) -> String {
        format!("T#{version:06}#{language}")
    }
    /// On `USER#<uid>`.
    pub fn acceptance_sk(kind: &str, version: u32) -> String {
        format!("ACCEPT#{kind}#{version:06}")
    }
    use super::Key;
    pub fn version(kind: &str, version: u32) -> Key {
        Key::new(pk(kind), version_sk(version))
    }
    pub fn text(kind: &str, version: u32, language: &str) -> Key {
        Key::new(pk(kind), text_sk(version, language))
    }
    pub fn acceptance(user_uid: &str, kind: &str, version: u32) -> Key {
        Key::new(super::user::pk(user_uid), acceptance_sk(kind, version))
    }
}

/// Public documents and templates: one small partition.
pub mod template_file {
    pub const PK: &str = "TEMPLATEFILES";
    pub fn sk(id: &str) -> String {
        format!("FILE#{id}")
    }
    pub fn item(id: &str) -> super::Key {
        super::Key::new(PK, sk(id))
    }
}

/// Support tickets and their answers.
pub mod ticket {
    pub fn pk(id: u64) -> String {
        format!("TICKET#{id:012}")
    }
    pub const SK: &str = "TICKET";
    pub const ANSWER_PREFIX: &str = "ANSWER#";
    pub fn answer_sk(t: super::DateTime<super::Utc>, id: &str) -> String {
        format!("ANSWER#{}#{id}", super::at(t))
    }
    /// GSI1: a customer's tickets (the customer and its contacts).
    pub fn customer_gsi1pk(customer_uid: &str) -> String {
        format!("TICKETS#{customer_uid}")
    }
    /// GSI2: every ticket (admin).
    pub const ALL_GSI2PK: &str = "TICKETS";
    pub fn item(id: u64) -> super::Key {
        super::Key::new(pk(id), SK)
    }
    pub fn answer(ticket_id: u64, t: super::DateTime<super::Utc>, id: &str) -> super::Key {
        super::Key::new(pk(ticket_id), answer_sk(t, id))
    }
}

/// Freja Academy: the lessons (one partition) and a user's progress (on the
/// user's partition).
pub mod lesson {
    pub const PK: &str = "ACADEMY";
    pub const PREFIX: &str = "LESSON#";
    pub fn sk(id: &str) -> String {
        format!("LESSON#{id}")
    }
    pub const PROGRESS_PREFIX: &str = "ACADEMY#";
    /// On `USER#<uid>`.
    pub fn progress_sk(lesson_id: &str) -> String {
        format!("ACADEMY#{lesson_id}")
    }
    use super::Key;
    pub fn item(id: &str) -> Key {
        Key::new(PK, sk(id))
    }
    pub fn progress(user_uid: &str, lesson_id: &str) -> Key {
        Key::new(super::user::pk(user_uid), progress_sk(lesson_id))
    }
}

/// Add-on services, in the customer's partition ([`customer::pk`]).
pub mod addons {
    /// The company's verified-signing token.
    pub const VERIFIED_SK: &str = "VERIFIED";
    pub const ENVELOPE_PREFIX: &str = "ENVELOPE#";
    pub fn envelope_sk(uid: &str) -> String {
        format!("ENVELOPE#{uid}")
    }
    pub const CREDIT_PREFIX: &str = "CREDIT#";
    pub fn credit_sk(uid: &str) -> String {
        format!("CREDIT#{uid}")
    }
    /// The company's Inkasso account application (the prospect).
    pub const INKASSO_SK: &str = "INKASSO";
    use super::{customer, Key};
    pub fn verified(customer_uid: &str) -> Key {
        Key::new(customer::pk(customer_uid), VERIFIED_SK)
    }
    pub fn envelope(customer_uid: &str, uid: &str) -> Key {
        Key::new(customer::pk(customer_uid), envelope_sk(uid))
    }
    pub fn credit(customer_uid: &str, uid: &str) -> Key {
        Key::new(customer::pk(customer_uid), credit_sk(uid))
    }
    pub fn inkasso(customer_uid: &str) -> Key {
        Key::new(customer::pk(customer_uid), INKASSO_SK)
    }
}

/// Video meetings: a lawyer's offered times and the
/// customer's booked meetings.
pub mod meeting {
    /// A lawyer's offered times (each carries its booking).
    pub fn slots_pk(lawyer_uid: &str) -> String {
        format!("MEETSLOTS#{lawyer_uid}")
    }
    pub const SLOT_PREFIX: &str = "SLOT#";
    pub fn slot_sk(slot_uid: &str) -> String {
        format!("SLOT#{slot_uid}")
    }
    /// Bumped with every new slot, so two concurrent offers cannot overlap.
    pub const SLOTS_GUARD_SK: &str = "SLOTS_GUARD";
    /// In the customer's partition ([`super::customer::pk`]).
    pub const MEETING_PREFIX: &str = "MEETING#";
    pub fn meeting_sk(uid: &str) -> String {
        format!("MEETING#{uid}")
    }
    use super::{customer, Key};
    pub fn slot(lawyer_uid: &str, slot_uid: &str) -> Key {
        Key::new(slots_pk(lawyer_uid), slot_sk(slot_uid))
    }
    pub fn slots_guard(lawyer_uid: &str) -> Key {
        Key::new(slots_pk(lawyer_uid), SLOTS_GUARD_SK)
    }
    /// A booked meeting, in the customer's partition.
    pub fn meeting(customer_uid: &str, uid: &str) -> Key {
        Key::new(customer::pk(customer_uid), meeting_sk(uid))
    }
}

/// Debt-collection claims, in the customer's partition.
pub mod inkasso {
    pub const CLAIM_PREFIX: &str = "INKASSO_CLAIM#";
    pub fn claim_sk(uid: &str) -> String {
        format!("INKASSO_CLAIM#{uid}")
    }
    pub fn claim(customer_uid: &str, uid: &str) -> super::Key {
        super::Key::new(super::customer::pk(customer_uid), claim_sk(uid))
    }
}

/// The office's open collection hand-overs: one partition, as only a few
/// are open at a time (each leaves it when staff record the agency's
/// answer, a claim when it is closed).
pub mod inkasso_handover {
    pub const PK: &str = "INKASSO_HANDOVER";
    pub const APPLICATION_PREFIX: &str = "APPLICATION#";
    pub const CLAIM_PREFIX: &str = "CLAIM#";
    pub fn application_sk(customer_uid: &str) -> String {
        format!("APPLICATION#{customer_uid}")
    }
    pub fn claim_sk(customer_uid: &str, uid: &str) -> String {
        format!("CLAIM#{customer_uid}#{uid}")
    }
    use super::Key;
    pub fn application(customer_uid: &str) -> Key {
        Key::new(PK, application_sk(customer_uid))
    }
    pub fn claim(customer_uid: &str, uid: &str) -> Key {
        Key::new(PK, claim_sk(customer_uid, uid))
    }
}

/// The signing provider's envelope id → our envelope (the callback names
/// only the provider's id).
pub mod verified_envelope {
    pub fn pk(provider_id: &str) -> String {
        format!("VERIFIED_ENVELOPE#{provider_id}")
    }
    pub const SK: &str = "POINTER";
    pub fn item(provider_id: &str) -> super::Key {
        super::Key::new(pk(provider_id), SK)
    }
}

#[cfg(test)]
mod retention_key_tests {
    use chrono::NaiveDate;

    #[test]
    fn retention_keys_are_literal_and_sort_by_day() {
        let d = NaiveDate::from_ymd_opt(2036, 3, 15).unwrap();
        assert_eq!(super::retention::PK, "RETAIN");
        assert_eq!(super::retention::due_sk(d, "case_file", "c1"), "2036-03-15#case_file#c1");
        let today = super::retention::not_due_from(NaiveDate::from_ymd_opt(2036, 3, 16).unwrap());
        assert_eq!(today, "2036-03-16");
        assert!(
            super::retention::BACKFILL_SK > super::retention::due_sk(NaiveDate::from_ymd_opt(2100, 12, 31).unwrap(), "x", "y").as_str()
        );
        assert!(super::retention::due_sk(d, "export", "zz") < today);
        assert!(super::retention::due_sk(d.succ_opt().unwrap(), "case_file", "a") > today);
    }
}

#[cfg(test)]
mod inkasso_key_tests {
    #[test]
    fn inkasso_and_callback_keys_are_literal() {
        assert_eq!(super::inkasso::CLAIM_PREFIX, "INKASSO_CLAIM#");
        assert_eq!(super::inkasso::claim_sk("c1"), "INKASSO_CLAIM#c1");
        assert_eq!(super::inkasso_handover::PK, "INKASSO_HANDOVER");
        assert_eq!(super::inkasso_handover::application_sk("c1"), "APPLICATION#c1");
        assert_eq!(super::inkasso_handover::claim_sk("c1", "u1"), "CLAIM#c1#u1");
        assert_eq!(super::verified_envelope::pk("env-1"), "VERIFIED_ENVELOPE#env-1");
        assert_eq!(super::verified_envelope::SK, "POINTER");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn meeting_keys() {
        assert_eq!(meeting::slots_pk("l1"), "MEETSLOTS#l1");
        assert_eq!(meeting::SLOT_PREFIX, "SLOT#");
        assert_eq!(meeting::slot_sk("1764000000-ab12cd34"), "SLOT#1764000000-ab12cd34");
        assert_eq!(meeting::SLOTS_GUARD_SK, "SLOTS_GUARD");
        assert_eq!(meeting::MEETING_PREFIX, "MEETING#");
        assert_eq!(meeting::meeting_sk("m1"), "MEETING#m1");
    }

    use super::*;
    use chrono::TimeZone;

    fn t() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 4, 5, 6, 7).unwrap()
    }

    #[test]
    fn user_keys() {
        assert_eq!(user::pk("u1"), "USER#u1");
        assert_eq!(user::SK, "USER");
        assert_eq!(user::role_gsi1pk("lawyer"), "ROLE#lawyer");
        assert_eq!(user::contacts_gsi2pk("c1"), "CONTACTS#c1");
        assert_eq!(user::TOTP_SK, "TOTP");
        assert_eq!(user::TOTP_SETUP_SK, "TOTP#SETUP");
        assert_eq!(email::pk("a@b.se"), "EMAIL#a@b.se");
        assert_eq!(email::SK, "EMAIL");
        assert_eq!(idempotency::pk("u1", "k-1"), "IDEM#u1#k-1");
        assert_eq!(idempotency::SK, "IDEM");
        assert_eq!(outbox::PK, "OUTBOX");
        assert_eq!(outbox::sk(t(), "m1"), "2026-03-04T05:06:07.000000Z#m1");
        assert_eq!(staff::SK, "STAFF");
        assert_eq!(staff::list_gsi1pk(Role::Lawyer, Some(UserSubType::External)), "STAFF#lawyer#external");
        assert_eq!(staff::list_gsi1pk(Role::Lawyer, None), "STAFF#lawyer#internal");
        assert_eq!(staff::list_gsi1pk(Role::SalesPerson, None), "STAFF#sales_person");
        assert_eq!(staff::list_gsi1sk(t(), "u"), "2026-03-04T05:06:07+00:00#u");
        assert_eq!(created_sk(t(), "u1"), "2026-03-04T05:06:07.000000Z#u1");
    }

    #[test]
    fn session_keys() {
        assert_eq!(counter::pk("case"), "COUNTER#case");
        assert_eq!(counter::SK, "COUNTER");
        assert_eq!(refresh_token::pk("j"), "REFRESH#j");
        assert_eq!(refresh_token::SK, "REFRESH");
        assert_eq!(refresh_family::pk("f"), "FAMILY#f");
        assert_eq!(refresh_family::SK, "FAMILY");
        assert_eq!(two_factor_challenge::pk("c"), "TWOFA#c");
        assert_eq!(two_factor_challenge::SK, "TWOFA");
        assert_eq!(recovery_link::pk("d"), "RESET#d");
        assert_eq!(recovery_link::SK, "RESET");
        assert_eq!(bankid_order::pk("o"), "BANKID#o");
        assert_eq!(bankid_order::SK, "BANKID");
        assert_eq!(personal_number::pk("199001012385"), "PNR#199001012385");
        assert_eq!(personal_number::SK, "PNR");
        assert_eq!(user::BANKID_SK, "BANKID");
        assert_eq!(rate_limit::pk("login-ip", "1.2.3.4"), "RATE#login-ip#1.2.3.4");
        assert_eq!(rate_limit::sk(42), "42");
    }

    #[test]
    fn customer_and_catalogue_keys() {
        assert_eq!(customer::pk("c"), "CUSTOMER#c");
        assert_eq!(customer::PROFILE_SK, "PROFILE");
        assert_eq!(customer::ACTIVATION_SK, "ACTIVATION");
        assert_eq!(customer::BISNODE_SK, "BISNODE");
        assert_eq!(customer::DEPARTMENT_SK, "DEPARTMENT");
        assert_eq!(customer::state_gsi1pk(CustomerState::Pending), "CUSTSTATE#pending");
        assert_eq!(customer::state_gsi1pk(CustomerState::Active), "CUSTSTATE#active");
        assert_eq!(customer::state_gsi1pk(CustomerState::Inactive), "CUSTSTATE#inactive");
        assert_eq!(customer::ALL_GSI2PK, "CUSTOMERS");
        assert_eq!(registration_number::pk(" 556000-0001 "), "REGNO#556000-0001");
        assert_eq!(registration_number::SK, "REGNO");
        assert_eq!(business_sector::PK, "BUSINESS_SECTOR");
        assert_eq!(business_sector::sk("7"), "SECTOR#7");
        assert_eq!(business_sector::SEEDED_SK, "SEEDED");
        assert_eq!(department_members::gsi1pk(3), "DEPARTMENT#3");
        assert_eq!(catalogue::PACKAGES_PK, "CATALOGUE#PACKAGE");
        assert_eq!(catalogue::PLANS_PK, "CATALOGUE#SERVICEPLAN");
        assert_eq!(catalogue::KNOWLEDGE_SECTORS_PK, "CATALOGUE#KNOWLEDGE_SECTOR");
        assert_eq!(catalogue::CASE_TYPES_PK, "CATALOGUE#CASE_TYPE");
        assert_eq!(catalogue::DEPARTMENTS_PK, "CATALOGUE#DEPARTMENT");
        assert_eq!(catalogue::package_sk(12), "PACKAGE#000000000012");
        assert_eq!(catalogue::plan_sk(12), "PLAN#000000000012");
        assert_eq!(catalogue::entry_sk(12), "ENTRY#000000000012");
    }

    #[test]
    fn subscription_keys() {
        let d = NaiveDate::from_ymd_opt(2026, 3, 4).unwrap();
        assert_eq!(purchase::sk(7), "PURCHASE#000000000007");
        assert_eq!(purchase::gsi1pk(7), "PSVC#7");
        assert_eq!(purchase::GSI1SK, "PURCHASE");
        assert_eq!(purchase::DUE_GSI2PK, "DUE#SUBSCRIPTION");
        assert_eq!(purchase::due_gsi2sk(t(), "7"), "2026-03-04T05:06:07Z#7");
        assert_eq!(purchase::guard_sk(1), "PURCHASE_GUARD#1");
        assert_eq!(purchase::usage_pk(7), "PSVC#7");
        assert_eq!(purchase::usage_sk(d, "h1"), "USAGE#2026-03-04#h1");
        assert_eq!(purchase::usage_from(d), "USAGE#2026-03-04");
        assert_eq!(purchase::usage_to(d), "USAGE#2026-03-04#~");
    }

    #[test]
    fn case_keys() {
        assert_eq!(case::pk("k"), "CASE#k");
        assert_eq!(case::SK, "CASE");
        assert_eq!(case::state_gsi1pk(CaseStatus::Draft), "CASESTATE#pending");
        assert_eq!(case::state_gsi1pk(CaseStatus::Waiting), "CASESTATE#waiting");
        assert_eq!(case::state_gsi1pk(CaseStatus::Inprogress), "CASESTATE#inprogress");
        assert_eq!(case::state_gsi1pk(CaseStatus::Complete), "CASESTATE#complete");
        assert_eq!(case::customer_gsi2pk("c"), "CASECUST#c");
        assert_eq!(case::lawyer_pk("l"), "LAWYERCASES#l");
        assert_eq!(case::creator_pk("a"), "CREATEDCASES#a");
        assert_eq!(case::ALL_PK, "ALLCASES");
        assert_eq!(case::history_sk(t(), "x"), "HIST#2026-03-04T05:06:07.000000Z#x");
        assert_eq!(case::HISTORY_PREFIX, "HIST#");
        assert_eq!(case::note_sk(t(), "x"), "NOTE#2026-03-04T05:06:07.000000Z#x");
        assert_eq!(case::NOTE_PREFIX, "NOTE#");
        assert_eq!(case::hour_sk("h"), "HOUR#h");
        assert_eq!(case::HOUR_PREFIX, "HOUR#");
        assert_eq!(case::additional_sk("a"), "ADDHOUR#a");
        assert_eq!(case::ADDITIONAL_PREFIX, "ADDHOUR#");
        assert_eq!(case::additional_month_sk("2026-03", "l"), "ADDHOURMONTH#2026-03#l");
        assert_eq!(case::additional_history_sk(t(), "x"), "HISTADD#2026-03-04T05:06:07.000000Z#x");
        assert_eq!(case::ADDITIONAL_HISTORY_PREFIX, "HISTADD#");
    }

    #[test]
    fn collaboration_keys() {
        assert_eq!(message::sk(t(), "m"), "MSG#2026-03-04T05:06:07.000000Z#m");
        assert_eq!(message::PREFIX, "MSG#");
        assert_eq!(message::read_sk("u"), "MSGREAD#u");
        assert_eq!(message::READ_PREFIX, "MSGREAD#");
        assert_eq!(notification::pk("u"), "NOTIF#u");
        assert_eq!(notification::case_gsi1pk("c"), "CASENOTIF#c");
        assert_eq!(notification::case_gsi1sk("u", "2026#e"), "u#2026#e");
        assert_eq!(retention::figures_pk("case_file", "c"), "FIGURES#case_file#c");
        assert_eq!(retention::figures_sk(3), "CHUNK#0003");
        assert_eq!(notification::id(t(), "e"), "2026-03-04T05:06:07.000000Z#e");
        assert_eq!(notification::sk("2026-03-04T05:06:07.000000Z#e"), "N#2026-03-04T05:06:07.000000Z#e");
        assert_eq!(notification::mark(t()), "N#2026-03-04T05:06:07.000000Z#~");
        assert!(notification::mark(t()).as_str() > notification::sk(&notification::id(t(), "zzz")).as_str());
        assert_eq!(notification::END, "N#~");
        assert_eq!(notification::MARKS_SK, "MARKS");
        assert_eq!(rating::SK, "RATING");
        assert_eq!(rating::lawyer_pk("l"), "RATINGS#l");
        assert_eq!(rating::lawyer_sk(t(), "k"), "2026-03-04T05:06:07.000000Z#k");
    }

    #[test]
    fn conflict_and_follow_up_keys() {
        assert_eq!(conflict::index_pk("S#KRLSN"), "CONFLICT#S#KRLSN");
        assert_eq!(conflict::index_sk(PartyKind::Counterpart, "k"), "counterpart#k");
        assert_eq!(conflict::record_pk(PartyKind::ContactPerson, "u"), "CONFLICTREC#contact_person#u");
        assert_eq!(conflict::record_pk(PartyKind::Company, "u"), "CONFLICTREC#company#u");
        assert_eq!(conflict::record_pk(PartyKind::Customer, "u"), "CONFLICTREC#customer#u");
        assert_eq!(conflict::RECORD_SK, "KEYS");
        assert_eq!(audit::pk(t()), "AUDIT#2026-03");
        assert_eq!(audit::sk(t(), "i"), "2026-03-04T05:06:07.000000Z#i");
        assert_eq!(audit::customer_gsi1pk("c"), "AUDITCUST#c");
        assert_eq!(audit::actor_gsi2pk("u"), "AUDITUSER#u");
        assert!(audit::pk(t()).starts_with(audit::PREFIX) && conflict::audit_pk(t()).starts_with(audit::PREFIX));
        assert_eq!(conflict::audit_pk(t()), "AUDIT#CONFLICT#2026-03");
        assert_eq!(conflict::audit_sk(t(), "i"), "2026-03-04T05:06:07.000000Z#i");
        assert_eq!(follow_up::PK, "FOLLOWUP");
        assert_eq!(conflict::index_pk("D#johanson"), "CONFLICT#D#johanson");
        assert_eq!(customer_search::word_pk("bergstrom"), "CUSTWORD#be");
        assert_eq!(customer_search::word_sk("bergstrom", "u"), "bergstrom#u");
        assert_eq!(customer_search::record_pk("u"), "CUSTWORDS#u");
        assert_eq!(customer_search::RECORD_SK, "WORDS");
        assert_eq!(follow_up::sk("conflict_index", "counterpart#k"), "conflict_index#counterpart#k");
    }
    #[test]
    fn stats_keys() {
        let d = NaiveDate::from_ymd_opt(2026, 3, 4).unwrap();
        assert_eq!(stats::day_pk("all", 3, d), "STATS#all#3#DAY#2026-03");
        assert_eq!(stats::day_sk(d), "2026-03-04");
        assert_eq!(stats::month_pk("lawyer#u", 0, 2026), "STATS#lawyer#u#0#MONTH#2026");
        assert_eq!(stats::month_sk(d), "2026-03");
        assert_eq!(stats::now_pk("customer#c", 0), "STATS#customer#c#0#NOW");
        assert_eq!(stats::NOW_SK, "NOW");
        assert_eq!(follow_up::sk(stats::FOLLOW_UP, "e#0"), "counters#e#0");
    }

    #[test]
    fn legal_template_ticket_and_academy_keys() {
        assert_eq!(legal::pk("terms"), "LEGAL#terms");
        assert_eq!(legal::text_sk(3, "sv"), "T#000003#sv");
        assert!(!legal::text_sk(3, "sv").starts_with(legal::VERSION_PREFIX));
        assert!(legal::text_sk(3, "sv").starts_with(legal::TEXT_PREFIX));
        assert_eq!(legal::version_sk(12), "V#000012");
        assert_eq!(legal::VERSION_PREFIX, "V#");
        assert_eq!(legal::acceptance_sk("privacy", 3), "ACCEPT#privacy#000003");
        assert_eq!(template_file::PK, "TEMPLATEFILES");
        assert_eq!(template_file::sk("f"), "FILE#f");
        assert_eq!(ticket::pk(42), "TICKET#000000000042");
        assert_eq!(ticket::SK, "TICKET");
        assert_eq!(ticket::answer_sk(t(), "a"), "ANSWER#2026-03-04T05:06:07.000000Z#a");
        assert_eq!(ticket::ANSWER_PREFIX, "ANSWER#");
        assert_eq!(ticket::customer_gsi1pk("c"), "TICKETS#c");
        assert_eq!(data_rights::export_sk("20261129-ab"), "EXPORT#20261129-ab");
        assert_eq!((data_rights::erasure_sk("e1").as_str(), data_rights::ERASURE_SLOT_SK), ("ERASURE#e1", "ERASURE_OPEN"));
        assert_eq!(
            (data_rights::EXPORT_SLOT_SK, data_rights::REQUESTS_GSI1PK, data_rights::QUEUE_PK),
            ("EXPORT_RUNNING", "DATAREQ", "DATAJOBS")
        );
        assert_eq!(ticket::ALL_GSI2PK, "TICKETS");
        assert_eq!(lesson::PK, "ACADEMY");
        assert_eq!(lesson::sk("l"), "LESSON#l");
        assert_eq!(lesson::PREFIX, "LESSON#");
        assert_eq!(lesson::progress_sk("l"), "ACADEMY#l");
        assert_eq!(lesson::PROGRESS_PREFIX, "ACADEMY#");
    }

    #[test]
    fn pairs_join_their_entitys_keys() {
        let d = NaiveDate::from_ymd_opt(2026, 3, 4).unwrap();
        let pair = |k: Key| (k.pk, k.sk);
        let p = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(pair(user::item("u1")), p("USER#u1", "USER"));
        assert_eq!(pair(user::totp("u1")), p("USER#u1", "TOTP"));
        assert_eq!(pair(user::totp_setup("u1")), p("USER#u1", "TOTP#SETUP"));
        assert_eq!(pair(user::bankid("u1")), p("USER#u1", "BANKID"));
        assert_eq!(pair(staff::item("u1")), p("USER#u1", "STAFF"));
        assert_eq!(pair(email::item("a@b.se")), p("EMAIL#a@b.se", "EMAIL"));
        assert_eq!(pair(idempotency::item("u1", "k")), p("IDEM#u1#k", "IDEM"));
        assert_eq!(pair(event_mail::prefs("u1")), p("USER#u1", "MAILPREFS"));
        assert_eq!(pair(event_mail::window("u1", "case")), p("MAILWIN#u1", "case"));
        assert_eq!(pair(outbox::item(t(), "m")), p("OUTBOX", "2026-03-04T05:06:07.000000Z#m"));
        assert_eq!(pair(counter::item("case")), p("COUNTER#case", "COUNTER"));
        assert_eq!(pair(refresh_token::item("j")), p("REFRESH#j", "REFRESH"));
        assert_eq!(pair(refresh_family::item("f")), p("FAMILY#f", "FAMILY"));
        assert_eq!(pair(two_factor_challenge::item("c")), p("TWOFA#c", "TWOFA"));
        assert_eq!(pair(bankid_order::item("o")), p("BANKID#o", "BANKID"));
        assert_eq!(pair(personal_number::item("1990")), p("PNR#1990", "PNR"));
        assert_eq!(pair(recovery_link::item("d")), p("RESET#d", "RESET"));
        assert_eq!(pair(rate_limit::item("login-ip", "1.2.3.4", 42)), p("RATE#login-ip#1.2.3.4", "42"));
        assert_eq!(pair(customer::profile("c")), p("CUSTOMER#c", "PROFILE"));
        assert_eq!(pair(customer::activation("c")), p("CUSTOMER#c", "ACTIVATION"));
        assert_eq!(pair(customer::bisnode("c")), p("CUSTOMER#c", "BISNODE"));
        assert_eq!(pair(customer::department("c")), p("CUSTOMER#c", "DEPARTMENT"));
        assert_eq!(pair(registration_number::item("556000-0001")), p("REGNO#556000-0001", "REGNO"));
        assert_eq!(pair(business_sector::item("7")), p("BUSINESS_SECTOR", "SECTOR#7"));
        assert_eq!(pair(business_sector::seeded()), p("BUSINESS_SECTOR", "SEEDED"));
        assert_eq!(pair(catalogue::package(12)), p("CATALOGUE#PACKAGE", "PACKAGE#000000000012"));
        assert_eq!(pair(catalogue::plan(12)), p("CATALOGUE#SERVICEPLAN", "PLAN#000000000012"));
        assert_eq!(pair(catalogue::entry(catalogue::CASE_TYPES_PK, 12)), p("CATALOGUE#CASE_TYPE", "ENTRY#000000000012"));
        assert_eq!(pair(purchase::item("c", 7)), p("CUSTOMER#c", "PURCHASE#000000000007"));
        assert_eq!(pair(purchase::guard("c", 1)), p("CUSTOMER#c", "PURCHASE_GUARD#1"));
        assert_eq!(pair(purchase::usage(7, d, "h1")), p("PSVC#7", "USAGE#2026-03-04#h1"));
        assert_eq!(pair(case::item("k")), p("CASE#k", "CASE"));
        assert_eq!(pair(case::lawyer_pointer("l", "s")), p("LAWYERCASES#l", "s"));
        assert_eq!(pair(case::creator_pointer("a", "s")), p("CREATEDCASES#a", "s"));
        assert_eq!(pair(case::all_pointer("s")), p("ALLCASES", "s"));
        assert_eq!(pair(case::history("k", t(), "x")), p("CASE#k", "HIST#2026-03-04T05:06:07.000000Z#x"));
        assert_eq!(pair(case::note("k", t(), "x")), p("CASE#k", "NOTE#2026-03-04T05:06:07.000000Z#x"));
        assert_eq!(pair(case::hour("k", "h")), p("CASE#k", "HOUR#h"));
        assert_eq!(pair(case::additional("k", "a")), p("CASE#k", "ADDHOUR#a"));
        assert_eq!(pair(case::additional_month("k", "2026-03", "l")), p("CASE#k", "ADDHOURMONTH#2026-03#l"));
        assert_eq!(pair(case::additional_history("k", t(), "x")), p("CASE#k", "HISTADD#2026-03-04T05:06:07.000000Z#x"));
        assert_eq!(pair(message::item("k", t(), "m")), p("CASE#k", "MSG#2026-03-04T05:06:07.000000Z#m"));
        assert_eq!(pair(message::read("k", "u")), p("CASE#k", "MSGREAD#u"));
        assert_eq!(pair(notification::item("u", "i")), p("NOTIF#u", "N#i"));
        assert_eq!(pair(notification::marks("u")), p("NOTIF#u", "MARKS"));
        assert_eq!(pair(rating::item("k")), p("CASE#k", "RATING"));
        assert_eq!(pair(rating::lawyer("l", t(), "k")), p("RATINGS#l", "2026-03-04T05:06:07.000000Z#k"));
        assert_eq!(pair(conflict::index("W#x", PartyKind::Company, "u")), p("CONFLICT#W#x", "company#u"));
        assert_eq!(pair(conflict::record(PartyKind::Customer, "u")), p("CONFLICTREC#customer#u", "KEYS"));
        assert_eq!(pair(conflict::audit(t(), "i")), p("AUDIT#CONFLICT#2026-03", "2026-03-04T05:06:07.000000Z#i"));
        assert_eq!(pair(audit::item(t(), "i")), p("AUDIT#2026-03", "2026-03-04T05:06:07.000000Z#i"));
        assert_eq!(pair(customer_search::word("bergstrom", "u")), p("CUSTWORD#be", "bergstrom#u"));
        assert_eq!(pair(customer_search::record("u")), p("CUSTWORDS#u", "WORDS"));
        assert_eq!(pair(data_rights::export("c", "e")), p("CUSTOMER#c", "EXPORT#e"));
        assert_eq!(pair(data_rights::export_slot("c")), p("CUSTOMER#c", "EXPORT_RUNNING"));
        assert_eq!(pair(data_rights::erasure("c", "e")), p("CUSTOMER#c", "ERASURE#e"));
        assert_eq!(pair(data_rights::erasure_slot("c")), p("CUSTOMER#c", "ERASURE_OPEN"));
        assert_eq!(pair(data_rights::queued(t(), "e")), p("DATAJOBS", "2026-03-04T05:06:07.000000Z#e"));
        assert_eq!(pair(retention::due(d, "export", "e")), p("RETAIN", "2026-03-04#export#e"));
        assert_eq!(pair(retention::backfill()), p("RETAIN", "~BACKFILL"));
        assert_eq!(pair(retention::figures("case_file", "c", 3)), p("FIGURES#case_file#c", "CHUNK#0003"));
        assert_eq!(pair(follow_up::item("counters", "e#0")), p("FOLLOWUP", "counters#e#0"));
        assert_eq!(pair(stats::day("all", 3, d)), p("STATS#all#3#DAY#2026-03", "2026-03-04"));
        assert_eq!(pair(stats::month("all", 0, d)), p("STATS#all#0#MONTH#2026", "2026-03"));
        assert_eq!(pair(stats::now("all", 0)), p("STATS#all#0#NOW", "NOW"));
        assert_eq!(pair(legal::version("terms", 12)), p("LEGAL#terms", "V#000012"));
        assert_eq!(pair(legal::text("terms", 3, "sv")), p("LEGAL#terms", "T#000003#sv"));
        assert_eq!(pair(legal::acceptance("u", "privacy", 3)), p("USER#u", "ACCEPT#privacy#000003"));
        assert_eq!(pair(template_file::item("f")), p("TEMPLATEFILES", "FILE#f"));
        assert_eq!(pair(ticket::item(42)), p("TICKET#000000000042", "TICKET"));
        assert_eq!(pair(ticket::answer(42, t(), "a")), p("TICKET#000000000042", "ANSWER#2026-03-04T05:06:07.000000Z#a"));
        assert_eq!(pair(lesson::item("l")), p("ACADEMY", "LESSON#l"));
        assert_eq!(pair(lesson::progress("u", "l")), p("USER#u", "ACADEMY#l"));
        assert_eq!(pair(addons::verified("c")), p("CUSTOMER#c", "VERIFIED"));
        assert_eq!(pair(addons::envelope("c", "e")), p("CUSTOMER#c", "ENVELOPE#e"));
        assert_eq!(pair(addons::credit("c", "r")), p("CUSTOMER#c", "CREDIT#r"));
        assert_eq!(pair(addons::inkasso("c")), p("CUSTOMER#c", "INKASSO"));
        assert_eq!(pair(meeting::slot("l", "s")), p("MEETSLOTS#l", "SLOT#s"));
        assert_eq!(pair(meeting::slots_guard("l")), p("MEETSLOTS#l", "SLOTS_GUARD"));
        assert_eq!(pair(meeting::meeting("c", "m")), p("CUSTOMER#c", "MEETING#m"));
        assert_eq!(pair(inkasso::claim("c", "u")), p("CUSTOMER#c", "INKASSO_CLAIM#u"));
        assert_eq!(pair(inkasso_handover::application("c")), p("INKASSO_HANDOVER", "APPLICATION#c"));
        assert_eq!(pair(inkasso_handover::claim("c", "u")), p("INKASSO_HANDOVER", "CLAIM#c#u"));
        assert_eq!(pair(verified_envelope::item("env")), p("VERIFIED_ENVELOPE#env", "POINTER"));
    }

    #[test]
    fn a_pair_is_written_and_read_as_the_tables_attributes() {
        let k = case::hour("k", "h");
        let item = k.with([("entity", AttributeValue::S("hour".into()))]);
        assert_eq!(item.get("PK").and_then(|v| v.as_s().ok()).map(String::as_str), Some("CASE#k"));
        assert_eq!(item.get("SK").and_then(|v| v.as_s().ok()).map(String::as_str), Some("HOUR#h"));
        assert_eq!(item.len(), 3);
        assert_eq!(Key::of(&item), Some(k.clone()));
        assert!(k.names(&item) && !case::item("k").names(&item));
        let mut indexed = Item::new();
        IndexKey::gsi2("CASECUST#c", "s").stamp(&mut indexed);
        assert_eq!(indexed.get("GSI2PK").and_then(|v| v.as_s().ok()).map(String::as_str), Some("CASECUST#c"));
        assert_eq!(indexed.get("GSI2SK").and_then(|v| v.as_s().ok()).map(String::as_str), Some("s"));
    }

    #[test]
    fn addon_keys() {
        assert_eq!(addons::VERIFIED_SK, "VERIFIED");
        assert_eq!(addons::envelope_sk("e1"), "ENVELOPE#e1");
        assert_eq!(addons::ENVELOPE_PREFIX, "ENVELOPE#");
        assert_eq!(addons::credit_sk("r1"), "CREDIT#r1");
        assert_eq!(addons::CREDIT_PREFIX, "CREDIT#");
        assert_eq!(addons::INKASSO_SK, "INKASSO");
    }
}

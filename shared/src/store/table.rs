//! The one table: key design and access patterns.
//!
//! Every item has `PK` and `SK`; two overloaded, sparse GSIs serve the lists.
//! No request path uses Scan. Every key below is built by one function of
//! [`super::keys`], whose tests assert these literal strings.
//!
//! | Entity | PK | SK | GSI1PK / GSI1SK | GSI2PK / GSI2SK | Access patterns |
//! |---|---|---|---|---|---|
//! | User (all roles) | `USER#<uid>` | `USER` | `ROLE#<role>` / `<created_at>#<uid>` | contacts only: `CONTACTS#<customer uid>` / `<created_at>#<uid>` | user by uid (GetItem); a request's authentication: the user and its sign-in's `FAMILY#` item in one strongly consistent BatchGetItem; several users' names (a dashboard's top lawyers) in one BatchGetItem per 100; users of a role, newest first (Query GSI1); a customer's contacts, newest first, 10 a page with the last GSI2SK (hex) as cursor (Query GSI2 descending). A contact's permissions are the `permissions` list on its user item; its profile image is the S3 key in `image`. A contact's create (user, `EMAIL#`, invitation) and update are each one transaction with its conflict-index entry |
//! | E-mail uniqueness | `EMAIL#<lower-case e-mail>` | `EMAIL` | | | login by e-mail (GetItem, then the user); written in the same transaction as the user, so an address exists once |
//! | Counter | `COUNTER#<name>` | `COUNTER` | | | next human-readable id (UpdateItem ADD) |
//! | Refresh token | `REFRESH#<jti>` | `REFRESH` | | | single use: conditional update `used = false → true` in one transaction with a check that its family is live; TTL |
//! | Refresh-token family | `FAMILY#<id>` | `FAMILY` | | | one per sign-in; `revoked` ends it (logout, replayed token), read with the user on every authenticated request (see User); TTL |
//! | Authenticator app (TOTP) | `USER#<uid>` | `TOTP` | | | the user's confirmed authenticator (GetItem): base32 secret, `last_step` (conditional update `last_step < :step`: a code works once), HMACs of unused recovery codes (conditional `REMOVE recovery_hashes[i]` if it still holds that hash); its presence with `two_factor` on means the method is `totp` |
//! | Authenticator enrolment | `USER#<uid>` | `TOTP#SETUP` | | | a started enrolment (GetItem): pending secret, expiry, wrong tries (conditional `attempts < 5`); deleted in the same transaction that writes `TOTP`; TTL |
//! | Two-factor code | `TWOFA#<challenge id>` | `TWOFA` | | | HMAC of the code (empty for an authenticator-app challenge), expiry, attempts (conditional `attempts < 5`), single use; TTL |
//! | BankID order | `BANKID#<orderRef>` | `BANKID` | | | an identification while the user answers it ([`bankid`](super::bankid)): the QR code's start token and secret, when `auth` answered, what it is for (sign-in, or linking the user `user_uid`), the SHA-256 of the secret in the starting browser's cookie; read consistently on every poll; `finished` set once (conditional `finished = false`), so a completed, failed or cancelled order is never used again; TTL |
//! | Personal number | `PNR#<twelve digits>` | `PNR` | | | the account a person signs in to with BankID (GetItem after a completed order); put `attribute_not_exists` in one transaction with the user's `BANKID` item, so a number belongs to one account and an account has one number; both deleted together when unlinked |
//! | BankID link | `USER#<uid>` | `BANKID` | | | the user's linked personal number (GetItem: the profile's BankID state, unlinking) |
//! | Recovery link | `RESET#<sha256 of token>` | `RESET` | | | single use, conditional on unused and unexpired; TTL. A new account's invitation (choose a password) is one too, written in the account's transaction with its mail (`OUTBOX`) |
//! | Outbox mail | `OUTBOX` | `<written at>#<uuid>` | | | mail that belongs to a write ([`outbox`](super::outbox)): put in the write's transaction (a new lawyer's, sales person's, contact's or staff-made customer's account with its invitation, a resent link, an event's mails, a sign-up's notice that the address or company has an account), holding the link's token; sent by its own step right after the commit, then marked sent (conditional `SET sent_at REMOVE token` on the token still being there: once); a stop between leaves it to the scheduled job's sweep (Query `SK < now − 1 min`, filter `attribute_exists(token)`, at most 25 a run, oldest first). A second delivery of one item sends nothing. TTL = the link's expiry |
//! | Mail setting | `USER#<uid>` | `MAILPREFS` | | | the user's "mail when something happens" ([`event_mail`](super::event_mail)): `on` (absent = on) and `language` (`sv`/`en`); GetItem per reader of a mailed event; PutItem from the profile page or the signed unsubscribe link (no sign-in) |
//! | Event-mail window | `MAILWIN#<user uid>` | `case#<uid>` or `subscription#<row id>` | | | when the user was last mailed about that case or subscription (`until` = then + 15 min): GetItem (consistent) before a mailed event; put (unconditional: a failed condition would undo the event) in the event's transaction with the mail's `OUTBOX` item (kind `event`: address, subject and text in the reader's language, the unsubscribe token as `token`), so at most one mail per case and reader in 15 minutes; sent after the commit, or by the sweep; TTL = `until` |
//! | Idempotency record | `IDEM#<caller uid>#<Idempotency-Key>` (a sign-up, with nobody signed in: `IDEM#signup:<SHA-256 of the address>#<key>`) | `IDEM` | | | a creating POST sent with an `Idempotency-Key` ([`idempotency`](super::idempotency)): caller, SHA-256 fingerprint of method, address and body, the answer given (status, JSON body); put in the transaction of the write, conditional on no live record (`attribute_not_exists(PK) OR ttl < now`). Read (GetItem, consistent) before the write: the same fingerprint answers the stored answer, another answers 422 `idempotency_key_reused`; a transaction that fails on it (the same request at once) answers the record's answer. TTL 24 h |
//! | Rate-limit counter | `RATE#<scope>#<key>` | `<window number>` | | | UpdateItem ADD per attempt, per account and per client address; TTL |
//! | Lawyer / sales-person profile | `USER#<uid>` | `STAFF` | `STAFF#lawyer#internal`, `STAFF#lawyer#external` or `STAFF#sales_person` / `<created_at>#<uid>` | | admin lists of lawyers (internal, external) and sales persons, newest first, 10 per page (Query GSI1); written with the user, its `EMAIL#` item, its invitation (`RESET#`) and the invitation's mail (`OUTBOX`) in one transaction, so there is no account without its link to choose a password nor without its mail; the mail is sent by its own step after the commit, or by the scheduled job's sweep after a stop |
//! | Conflict-search index entry | `CONFLICT#<W#spelling (≤ 3 letters) \| A#first letter and the others sorted (4–7) \| D#spelling, and from 8 letters the spelling less each letter \| N#ten-digit identity number>` | `<kind>#<uid>` | | | candidates for a conflict search ([`conflict`](super::conflict)): a Query (at most 400 items) per key of the query's most specific word, until one word is read whole, plus one per identity number (of the party's own number field and any number in its name); a key holding more answers `search_too_broad` (type more letters) unless another word was read whole. No key gathers names merely beginning alike, so a search reads about the same at 1,000 and 100,000 parties. Written in the transaction of the customer, contact or case whose party it is (see Follow-up); older `S#`/`P#` keys are removed on the party's next save or by `infra/reindex-search.sh` |
//! | Conflict-search record | `CONFLICTREC#<kind>#<uid>` | `KEYS` | | | the keys a party is indexed under and a version `ver` (consistent GetItem before a save); put conditional on the version read, in the party's transaction, so a concurrent re-index fails instead of leaving stale keys; a re-save deletes the keys the new name lacks |
//! | Follow-up | `FOLLOWUP` | `<kind>#<id>` (`conflict_index#<party kind>#<uid>`) | | | work a transaction could not hold. A DynamoDB transaction takes at most 100 items; when a party's index entries would not fit beside the change (a very long counterpart or company name), the transaction writes this one item holding the index change instead (latest wins, with a `nonce`), and the use case finishes it right after the commit: the index writes in as many transactions as they need, the record last, then the follow-up deleted conditional on its nonce. Idempotent. Follow-ups a stopped process left behind are finished before every conflict search (Query `begins_with(SK, conflict_index#)`, at most 25) and by the scheduled job. The conflict index and notifications fanned out to many readers (`notify#<event id>`) use follow-ups |
//! | Conflict-search audit | `AUDIT#CONFLICT#<yyyy-mm>` | `<at>#<uuid>` | | | who searched what and how many hits, a month newest first (Query, descending) |
//! | Audit event | `AUDIT#<yyyy-mm>` | `<at>#<uuid>` | `AUDITCUST#<customer uid>` / the SK (events concerning a customer) | `AUDITUSER#<actor uid>` / the SK (events with a known actor) | the audit trail ([`audit`](super::audit)): who did what to client data (case opened, document downloaded or uploaded, messages read, export made, customer viewed or changed, subscription changed by staff, permissions changed, sign-in and failed sign-in, conflict search). A change's event is put in the change's transaction (`attribute_not_exists`), so it exists exactly when the change does and a replayed idempotent request writes none; a read's event is put beside the read (a failure is logged, the read answers). Per customer: Query GSI1 (`GSI1SK BETWEEN` the period, descending, optional filter on `actor_uid`); per user: Query GSI2; per period: Query each month's partition newest first (at most 366 days a call). Pages of 25, cursor = the last SK (its time names the month). Never updated or deleted by a function (IAM Deny on `dynamodb:LeadingKeys` `AUDIT#*`); TTL = `AUDIT_RETENTION_DAYS` (default 3653) after the event |
//! | Customer profile | `CUSTOMER#<uid>` (the customer user's uid) | `PROFILE` | `CUSTSTATE#<pending\|active\|inactive>` / `<created_at>#<uid>` | `CUSTOMERS` / `<created_at>#<uid>` | profile by uid (GetItem); customers in one state, newest first, 10 per page, cursor = last `GSI1SK`, optional `contains(search, :q)` filter on the lower-case name/e-mail/company copy (Query GSI1); pending customers awaiting approval: sparse `awaiting_approval` filter, `Select COUNT` (bubbles). Every customer whatever its state, newest first, same cursor and filter (Query GSI2 `CUSTOMERS`: sales persons' "all" list). Dropdowns (customer, company) without a search: pages of the active list until 20 options (at most 10 reads). With a search, lists and dropdowns read the customer search words instead (below); the `search` attribute and its filter are no longer read. Every write of a customer is one transaction holding the customer's conflict-index entries (company + contact person, or customer; their record conditional on its version, so two changes of one customer cannot both commit): sign-up = user, `EMAIL#`, profile, `REGNO#`; staff create = the same plus the department link and the invitation (`RESET#`); staff update = user and profile with, when changed, the old `EMAIL#`/`REGNO#` deleted (REGNO only if it is the customer's) and the new one put with `attribute_not_exists`, and the department link; approval = profile and activation link; activation = the link spent, user and profile; (de)activation = user and profile |
//! | Customer search word | `CUSTWORD#<first two letters of the word>` | `<folded word>#<customer uid>` | | | customer lists and dropdowns with `search` ([`customer_search`](super::customer_search)): one Query `begins_with(SK, <longest query word>)` (only items whose word begins so: 50 a round, at most 6 rounds a page), the customer's whole word list on the item to require every other query word, then one BatchGetItem of the profiles (state and company filter on them). One item per word (≤ 16) of the name, company name, e-mail and registration number (with and without dash), written in the customer's transaction; all rewritten when the list changes |
//! | Customer search record | `CUSTWORDS#<customer uid>` | `WORDS` | | | the words a customer is indexed under and `ver` (consistent GetItem before a save; put conditional on the version read, so a concurrent save fails instead of leaving stale words) |
//! | Company registration number | `REGNO#<XXXXXX-XXXX>` | `REGNO` | | | availability check (GetItem); written in the sign-up transaction with `attribute_not_exists`, so a number belongs to one customer |
//! | Activation link | `CUSTOMER#<uid>` | `ACTIVATION` | | | the customer's one current link: SHA-256 of the token, expiry (72 h), `used`; spent by conditional update `digest = :d AND used = false AND expires_at > now` in the transaction that activates the account; resending overwrites it, so the earlier link stops working; TTL |
//! | Business sector | `BUSINESS_SECTOR` | `SECTOR#<id>` | | | all sectors (Query PK); one by id (GetItem); rename/delete conditional on existence. Marker `SK = SEEDED`: written after the spec's list is seeded with conditional puts on the first read; new ids from the counter `business_sector`, first moved past the seeded ids (conditional `SET`) |
//! | Entity count: pending cases | | | `CASESTATE#pending` / `<created_at>#<uid>` (the Draft case items themselves) | | `bubbles/` counts it (Query GSI1 `Select COUNT`) |
//! | Case | `CASE#<uid>` | `CASE` | `CASESTATE#<pending\|waiting\|inprogress\|complete>` / `<created_at>#<uid>` | `CASECUST#<customer uid>` / `<created_at>#<uid>` | case by uid (GetItem); staff lists and lawyers' available list by status, newest first, 10 a page, cursor = last GSI1SK (hex), next page `GSI1SK < cursor` (Query GSI1 descending); a customer's (and its contacts') lists, status filter, same paging (Query GSI2 descending); every list may sort oldest first (ascending) and search (`contains(search, :q)` on the folded case number, subject, customer and counterpart, at most 8 rounds per call); a round reads 11 items unfiltered (the page and whether another follows), 25 with a status filter or search. Every write conditional on `rev` (two lawyers accepting: one wins), in one transaction with its history items and the lawyer pointer |
//! | Lawyer's case pointer | `LAWYERCASES#<lawyer uid>` | `<created_at>#<case uid>` | | | a lawyer's own cases (my cases, pending drafts they are named for, closed): one Query of the partition descending with a filter on the pointer's own `status` (kept equal to the case's: the pointer is rewritten in every transaction that writes the case), then one BatchGetItem of the page's cases; put/deleted in the case's transaction when `lawyer_of_list` (assigned lawyer, or a draft's direct-assign lawyer) changes |
//! | Case pointer: opened by | `CREATEDCASES#<creator uid>` | `<created_at>#<case uid>` | | | staff's "my cases" (the cases they opened, every status): the same reading as the lawyer's pointers; written in every transaction that writes the case |
//! | Case pointer: every case | `ALLCASES` | `<created_at>#<case uid>` | | | the sales person's "all" list (every case, newest first; the search filter on the pointer's `search`); written in every transaction that writes the case (one partition: writes are case changes, far below a partition's limit) |
//! | Case history entry | `CASE#<uid>` | `HIST#<at>#<uuid>` | | | who, when, field, before, after; a case's history oldest first (Query `begins_with(SK, HIST#)`); written in the same transaction as every change of the case, its status or its hours |
//! | Case note | `CASE#<uid>` | `NOTE#<at>#<uuid>` | | | internal notes of a case (Query `begins_with(SK, NOTE#)`) |
//! | Case hour | `CASE#<uid>` | `HOUR#<id>` | | | a case's hour entries (Query `begins_with(SK, HOUR#)`); an entry (GetItem). Billable hours: one transaction = case condition check (status Inprogress, this lawyer) + the subscription row's consumed hours changed in place by the difference (`SET consumed_hour = consumed_hour + :d ADD rev :one`, conditional on the limit, dates and expiry read, and on `consumed_hour <= limit − d` unless booked in advance: concurrent bookings commute and the limit holds exactly) + usage-ledger item (`PSVC#<row>` / `USAGE#<date>#<hour id>`) + the hour item + a history item + the event's effects; on a conflict the use case reads and decides again (`services::retry`, deadline-bounded) |
//! | Case hour, bulk change (`case/hour/mass-update/`) | `CASE#<uid>` | `HOUR#<id>` | | | the case's entries (Query `begins_with(SK, HOUR#)`, then pick the named ids: an unknown id → 404, nothing written); one transaction = case condition check (Inprogress, this lawyer) + per entry an UpdateItem `SET is_invoiced` conditional on the value read and the lawyer + one `HIST#` item per entry; at most 49 entries (1 + 2 × 49 ≤ 100 items); no subscription row or ledger item (billable hours unchanged) |
//! | Additional hour | `CASE#<uid>` | `ADDHOUR#<id>` | | | a case's additional hours (Query `begins_with(SK, ADDHOUR#)`, sorted newest month first); one entry (GetItem); every write conditional on its `rev`, in one transaction with a case condition check (Inprogress, this lawyer), the month guard and a `HISTADD#` history item; bulk `is_invoiced` change like the hours (UpdateItem on `rev`, ≤ 49 entries). Never touches a subscription row |
//! | Additional-hour month guard | `CASE#<uid>` | `ADDHOURMONTH#<YYYY-MM>#<lawyer uid>` | | | one entry per month, lawyer and case: put with `attribute_not_exists` in the entry's create transaction (a second one for the month fails), moved (delete conditional on `id` + new put) when an edit changes the month, deleted with the entry; GetItem tells which entry holds a month |
//! | Additional-hour history entry | `CASE#<uid>` | `HISTADD#<at>#<uuid>` | | | who, when, before, after of each additional-hour change (`case/history-additional/{id}/`: Query `begins_with(SK, HISTADD#)`, oldest first); written in the same transaction as the change |
//! | Purchased service (subscription row) | `CUSTOMER#<customer uid>` | `PURCHASE#<id, 12 digits>` | `PSVC#<id>` / `PURCHASE` | `DUE#SUBSCRIPTION` / `<expire_on>#<id>` (only while not expired) | a customer's subscriptions (Query PK, `begins_with(SK, PURCHASE#)`; an add-on's access rule with a filter on `service.id`); a row by id (Query GSI1); rows due to expire or renew (Query GSI2 `GSI2SK <= now`); every write conditional on `rev`; `sold_by`: the customer's account manager when the row was bought or renewed (the sales statistics) |
//! | Purchase guard | `CUSTOMER#<customer uid>` | `PURCHASE_GUARD#<service id>` | | | `ver` bumped conditionally in the purchase transaction, so two concurrent purchases of a service cannot both pass the active/advance rule |
//! | Usage ledger entry | `PSVC#<purchase id>` | `USAGE#<YYYY-MM-DD>#<entry id>` | | | case hours / uses booked against a row (written with the row's consumed amount in one transaction); a row's usage in a date range (Query `SK BETWEEN`) for the CSV report |
//! | Bisnode account | `CUSTOMER#<customer uid>` | `BISNODE` | | | credit-information account status of a customer (GetItem; staff opening `customer/{uid}/` read it with the customer's user in one BatchGetItem) |
//! | Verified-signing token | `CUSTOMER#<customer uid>` | `VERIFIED` | | | the company's token for the signing provider (GetItem; checked on every signing call) |
//! | Signing envelope | `CUSTOMER#<customer uid>` | `ENVELOPE#<uid>` | | | a customer's envelopes (Query PK, `begins_with(SK, ENVELOPE#)`); created in one transaction with its use booked on the Verified row (`PSVC#<row>` consumed + `USAGE#` ledger entry, limit condition); sent/updated conditional on `rev` |
//! | Inkasso prospect | `CUSTOMER#<customer uid>` | `INKASSO` | | | the company's Inkasso account application and its state (GetItem); written conditional on `rev` in one transaction with its hand-over item |
//! | Inkasso hand-over | `INKASSO_HANDOVER` | `APPLICATION#<customer uid>` / `CLAIM#<customer uid>#<claim uid>` | | | the office's open hand-overs to the collection agency (Query PK; few at a time): put with the application or claim, deleted in the transaction that records the agency's decision or closes the claim |
//! | Meeting slot | `MEETSLOTS#<lawyer uid>` | `SLOT#<start unix seconds, 10 digits>-<8 hex>` | | | a lawyer's offered times in start order, each with its booking (Query PK, `SK BETWEEN` from a day ago to the horizon); added in one transaction with the guard below; booked and cancelled by a put conditional on `rev` (a slot is booked once), removed when free (delete conditional on `rev`) |
//! | Meeting slots guard | `MEETSLOTS#<lawyer uid>` | `SLOTS_GUARD` | | | `rev` bumped conditionally with every new slot, so two concurrent offers cannot overlap |
//! | Booked meeting | `CUSTOMER#<customer uid>` | `MEETING#<uid>` | | | a customer's meetings (Query PK, `begins_with(SK, MEETING#)`); written with `attribute_not_exists` (uid = the booking's idempotency key) in one transaction with the slot's booking, its use on the video-meeting row and the notifications; deleted with the slot's release when cancelled |
//! | Credit report | `CUSTOMER#<customer uid>` | `CREDIT#<uid>` | | | a customer's reports (Query PK, `begins_with(SK, CREDIT#)`); created with `attribute_not_exists` (uid = the request's idempotency key) in one transaction with its use booked on the Bisnode row; a pending one updated when ready |
//! | Inkasso claim | `CUSTOMER#<customer uid>` | `INKASSO_CLAIM#<uid>` | | | a customer's claims (Query PK, `begins_with(SK, INKASSO_CLAIM#)`); created with `attribute_not_exists` (uid = the request's idempotency key) in one transaction with its use booked on the Incasso row and its hand-over item; status updated by staff conditional on `rev` |
//! | Envelope pointer | `VERIFIED_ENVELOPE#<provider's envelope id>` | `POINTER` | | | the signing callback finds the envelope (GetItem); written in the transaction that marks the envelope sent |
//! | Package | `CATALOGUE#PACKAGE` | `PACKAGE#<id, 12 digits>` | | | package list (Query PK); package by id (GetItem); new terms, retire/reinstate (UpdateItem, conditional on existence; `bought`/`retired` kept); delete only while `bought` is unset (conditional DeleteItem); a purchase sets `bought` in its transaction, conditional on existence and not `retired` |
//! | Service plan | `CATALOGUE#SERVICEPLAN` | `PLAN#<id, 12 digits>` | | | service plan list (Query PK); plan by id (GetItem); change, retire, delete and the purchase's `bought` mark as packages |
//! | Knowledge sector / case type / department | `CATALOGUE#KNOWLEDGE_SECTOR` / `CATALOGUE#CASE_TYPE` / `CATALOGUE#DEPARTMENT` | `ENTRY#<id, 12 digits>` | | | list (Query PK); by id (GetItem); rename, delete (conditional on existence; a department is deleted only without connected customers: Query GSI1 `DEPARTMENT#<id>` with `Limit 1` first) |
//! | Customer's department | `CUSTOMER#<customer uid>` | `DEPARTMENT` | `DEPARTMENT#<department id>` / `<customer uid>` | | a customer's department (GetItem); customers of a department (Query GSI1) |
//! | Message in a case | `CASE#<uid>` | `MSG#<at>#<uuid>` | | | a case's conversation, a page of 20 newest first (Query `SK BETWEEN MSG# AND` the page's oldest, descending), shown oldest first; text, side (lawyer / customer), author, optional attachment (S3 key under `cases/<uid>/messages/`, name, size); written in one transaction with the case's condition check (status not Complete) and the notifications of the other side |
//! | Message read mark | `CASE#<uid>` | `MSGREAD#<user uid>` | | | up to which message a participant has read (Query `begins_with(SK, MSGREAD#)`: every mark of the case, to show "read" under one's own messages); put conditional on `#m < :m`, so a mark only moves forward |
//! | Notification | `NOTIF#<reader uid>` | `N#<at>#<event id>` | | | a reader's notifications newest first, 10 a page (Query `begins_with(SK, N#)` descending, category filter for the messages / notifications dropdown); unseen count of a dropdown = Query `SK BETWEEN` its seen mark `AND N#~`, `Select COUNT` (capped at 99); mark one read (UpdateItem `SET read`, conditional on existence). The id is fixed by the event, so writing it twice is harmless. Written in the event's transaction when the readers fit; otherwise a `notify#` follow-up holds the event and the use case fans it out after the commit (BatchWriteItem, 25 a request) |
//! | Notification marks | `NOTIF#<reader uid>` | `MARKS` | | | the reader's `seen_messages`, `seen_notifications` (opening a dropdown) and `read_all` times (GetItem, consistent); UpdateItem `SET` |
//! | Expiry notice guard | `FOLLOWUP` | `expiring_notice#<row id>#<end date>` | | | the scheduled job tells a subscription's readers once per end date: put with `attribute_not_exists` in the transaction of the notifications; TTL a month after the end date |
//! | Case rating | `CASE#<uid>` | `RATING` | | | the customer's one rating of a closed case (GetItem); put with `attribute_not_exists` in one transaction with the lawyer's pointer and the staff profile's `ADD rating_sum, rating_count` (the average read with the profile, no scan) |
//! | Lawyer's rating pointer | `RATINGS#<lawyer uid>` | `<at>#<case uid>` | | | a lawyer's ratings, newest first (Query descending) |
//! | Terms / privacy version | `LEGAL#<terms\|privacy>` | `V#<version, 6 digits>` | | | the current text (Query `begins_with(SK, V#)` descending, limit 1: `public/terms/`, `public/privacy/`, read by anyone); admin's version list (same, limit 50); publishing puts the next version with `attribute_not_exists` (two admins publishing at once: one wins, the other reads again). Versions are never changed |
//! | Acceptance of a version | `USER#<uid>` | `ACCEPT#<terms\|privacy>#<version, 6 digits>` | | | whether a customer accepted the current version (GetItem, after sign-in); the user's acceptances (Query `begins_with(SK, ACCEPT#)`); written in the registration's transaction for the versions the form showed, later by a put with `attribute_not_exists` (the first time is kept) |
//! | Public document / template | `TEMPLATEFILES` | `FILE#<id>` | | | every template (Query PK; a small list admin keeps, sorted newest first in memory); one (GetItem); put after the upload is checked; deleted with its object |
//! | Support ticket | `TICKET#<number, 12 digits>` | `TICKET` | `TICKETS#<customer uid>` / `<created_at>#<number>` | `TICKETS` / `<created_at>#<number>` | a ticket (GetItem, consistent); a customer's tickets (its contacts too), newest first, 10 a page, cursor = last GSI1SK (hex), optional `status` filter (Query GSI1 descending); every ticket for admin the same way (Query GSI2); counts by status of a customer (Query GSI1, `status` filter, `Select COUNT`); number from the counter `ticket`; an answer or closing rewrites it conditional on the `status` and `answer_count` read |
//! | Ticket answer | `TICKET#<number>` | `ANSWER#<at>#<uuid>` | | | a ticket's answers oldest first (Query `begins_with(SK, ANSWER#)`); put in one transaction with the ticket's rewrite |
//! | Academy lesson | `ACADEMY` | `LESSON#<id>` | | | every lesson (Query PK; a small list, ordered by `position` in memory, filtered by audience and `published`); one (GetItem); a new order rewrites the lessons in one transaction (conditional on existence) |
//! | Academy progress | `USER#<uid>` | `ACADEMY#<lesson id>` | | | a user's progress in every lesson (Query `begins_with(SK, ACADEMY#)`); put on each change (watched, completed) |
//! | Statistics counter: a day | `STATS#<scope>#<shard>#DAY#<YYYY-MM>` | `<YYYY-MM-DD>` (Stockholm day) | | | dashboards and statistics ([`crate::domain::stats`], [`super::stats`]). One number attribute per metric, changed only by `UpdateItem ADD` in the transaction of the event that changes it ([`crate::services::events::record`]: `contribution(after) − contribution(before)` of the case, hour entry, subscription row or customer, plus the event's flows), or, when that transaction would pass 100 items, by a counters follow-up. Scopes: `all` (admin's figures, 8 shards picked by a hash of the event id, so no single hot item; summed on read), `lawyer#<uid>`, `customer#<uid>` (the customer and its contacts), `bucket#<0..63>` (the per-customer breakdown: metrics `<metric>@<customer uid>`, customers spread by a hash of their uid; 64 buckets keep a month item under the 400 KB item limit up to some 55,000 customers active in a month; all buckets are read together, by key where that makes fewer calls, and a metric counts for its customer in whichever bucket it lies, so a change of the bucket count leaves every figure right, and `recount --fix` moves the gauges and sums to their new buckets), `sales#<uid>` (a sales person's customers as account manager: their cases by status and active subscriptions' `subs.due` for the manager the customer has now, `subs.bought` and `revenue.subs` for the manager at the time of the sale; the sales dashboard reads its now item, its month item and the 31 due days, whatever the number of customers or the firm's size). A period's days of one month = one Query per shard (`SK BETWEEN`); a short period (at most 300 item keys over its shards: a dashboard's week, month or next 31 days) is read by key instead, BatchGetItem 100 keys a call, when that makes fewer calls (`store::stats::POINT_READ_MAX_KEYS`); a dashboard reads all its figures' keys (now items, month, week, next 31 days) in one set of BatchGetItems, each item once (`Store::stats_many`) |
//! | Statistics counter: a month | `STATS#<scope>#<shard>#MONTH#<YYYY>` | `<YYYY-MM>` | | | the same changes as the day items, summed by month: whole months of a period are one Query per year and shard. A call reads at most (days of its partial months + its months) × shards items, whatever the data size (no Scan, no reading cases or hours) |
//! | Statistics gauge | `STATS#<scope>#<shard>#NOW` | `NOW` | | | how many are in a state now: `cases.status.<draft\|waiting\|inprogress\|complete>` (+`.type.<id>`) in `all`, `customer#`, `lawyer#`; `subs.active` (+`.service.<id>`); `customers.state.<pending\|active\|inactive>` (+`.sector.<id>`, `.size.<band>`); in `sales#<uid>`: `customers`, a `customer.<uid>` mark per managed customer and `cases.status.<…>` of their cases (no `.type.`). A customer's account manager set, changed or cleared moves, in the customer save's transaction, the customer's `cases.status.*` (read from its `customer#` now item) and its active rows' `subs.due` days (its own `PURCHASE#` rows) from the old `sales#` scope to the new, guarded by a condition check that the customer's now item and active rows are still as read; the events that count for a manager check that the profile still names it. GetItem / BatchGetItem of the shards |
//! | Data export | `CUSTOMER#<customer uid>` | `EXPORT#<id: yyyymmddhhmmss-12 hex>` | `DATAREQ` / `<created_at>#<id>` | | a customer's exports, newest first, 10 (Query `begins_with(SK, EXPORT#)` descending, consistent); admin's list of every customer's requests (Query GSI1 descending); state `queued → running → ready \| failed` (the worker's every move a put conditional on the state it read, so two workers build an export once); `step`/`steps` its progress; `expires_at` 7 days after it is ready. Put in the request's transaction with the slot, the queue entry and the idempotency record; its end (ready or failed) in one transaction with the queue entry's and slot's removal, the `export_made` audit event and the mail (`OUTBOX`) |
//! | Data export slot | `CUSTOMER#<customer uid>` | `EXPORT_RUNNING` | | | one export at a time per customer: put with `attribute_not_exists(PK) OR taken_at < now − 30 min` (a stale one no longer blocks) in the request's transaction; deleted conditional on its `export_id` when the export ends |
//! | Data export queue | `DATAJOBS` | `<created_at>#<export id>` | | | the worker's work: Query the partition (consistent, 5 a run, oldest first); its INSERT on the table's stream (filtered to `PK = DATAJOBS`) starts the data-rights function on AWS, the local gateway's timer polls it; deleted when the export ends |
//! | Counters follow-up | `FOLLOWUP` | `counters#<event id>#<n>` | | | counter updates that did not fit in their event's transaction (a bulk invoicing of 49 entries), ≤ 90 items each (JSON `writes`); applied by one transaction that adds them and deletes the follow-up conditional on its existence, so a counter moves once however often it is finished; right after the commit, or by the next sweep (`events::finish_pending`) |
//!
//! Counter metrics (hours in hundredths, money in öre): `cases.opened` (+`.type.<id>`, `.sector.<knowledge sector id\|none>`, `.pair.<type id>.<sector id\|none>`; day of creation), `cases.accepted`, `cases.accept_secs`, `cases.closed`, `cases.close_secs` (+`.type.<id>`, `.pair.<type>.<sector>`, counts also `.sector.<id>`; flows at the status change), `hours.billable`, `hours.nonbillable`, `hours.rattsskydd`, `hours.total`, `hours.invoiced`, `hours.entries`, `revenue.hours` (billable × the customer's hourly rate) on the entry's date (+ in `all`: `.lawyer.<uid>`, in `lawyer#`: `.customer.<uid>`, everywhere `hours.total.type.<id>`, `hours.total.sector.<id>`, `hours.total.pair.<type>.<sector>`; a case filed under another type or sector moves its entries' figures in the edit's transaction), `subs.bought` (+`.service.<id>`), `revenue.subs`, `subs.due` (in `all`, `customer#` and the current manager's `sales#`: an active subscription on the Stockholm day it ends, so the admin and sales dashboards' "expiring within 30 days" sums the next 31 days' items instead of listing rows); in `sales#`: `subs.bought`, `revenue.subs` on the row's creation day for the row's `sold_by` (the customer's account manager when it was bought or renewed, kept on the row: a sale stays with whoever managed the customer then), `revenue.service.<id>`, `revenue.plan.<id>`, `revenue.package.<id>` (the row's creation day; catalogue price), `subs.activated`, `subs.expired` (flows), `customers.new` (+`.type.`, `.sector.`, `.size.`), `customers.approved`, `customers.activated` (their days), `customers.deactivated`, `customers.reactivated` (flows). `infra/recount.sh` rebuilds every non-flow metric from the raw items (Scan) and reports differences.
//!
//! Documents live in S3 (the `DocumentsBucket`), never in the table; keys are
//! always chosen by the server and reached by the browser only through
//! presigned URLs ([`crate::files`]):
//!
//! | Object | Key | Referenced by | Access patterns |
//! |---|---|---|---|
//! | Profile image | `profile-images/<user uid>/<uuid>.<jpg\|png>` | the user item's `image` | presigned PUT → confirm (HEAD, first bytes) → `image` set; old object deleted on replace |
//! | Case document | `cases/<case uid>/<uuid>.<pdf\|doc\|docx\|xls\|xlsx\|ppt\|pptx\|jpg\|jpeg\|png>` | the case item's `files` list (`key`, `name`, `size`, `uploaded_by`, `uploaded_at`) | presigned PUT → confirm (HEAD for the size, ranged GET of 8 bytes for the magic) → the case rewritten on `rev` with a `file` history item in one transaction; a refused object is deleted at once; download = presigned GET with `Content-Disposition: attachment` and the original name; removal rewrites the case (history) and then deletes the object. The Cases function's IAM is limited to `cases/*` |
//! | Message attachment | `cases/<case uid>/messages/<uuid>.<ext>` | the message's `attachment` | the documents flow: presigned PUT → checked on posting (size, type, magic bytes; a refused object deleted at once) → download by a presigned GET for whoever may read the case |
//! | Public document / template | `templates/<uuid>.<ext>` | the template item's `key` | admin's presigned PUT → checked like a case document when listed → download by a presigned GET for any signed-in user; deleted with the item |
//! | Support ticket file | `support/<customer uid>/<uuid>.<ext>` | the ticket's `attachment` | presigned PUT for the customer side → checked when the ticket is sent (a refused object deleted at once) → download by a presigned GET for whoever sees the ticket |
//! | Academy video | `academy/<lesson id>/<uuid>.mp4` | the lesson's `video_key` | admin's presigned PUT (`video/mp4`) → confirm (size ≤ 500 MiB, `ftyp` at byte 4) → played through a presigned GET; the replaced one deleted |
//!
//! One commit per use case: two commits in a row, where a stop between them
//! leaves a state no user can repair, are not allowed. Found and fixed:
//!
//! | Use case | Was | Now |
//! |---|---|---|
//! | New lawyer or sales person | the account (user, `EMAIL#`, profile), then the invitation link: a stop between left an account without its link, and the retry answered `email_exists` | one transaction with the link and its mail (`OUTBOX`, above); sending is the outbox's own step, finished by the sweep after a stop |
//! | New contact, staff-made customer, resent link | the account and link in one transaction, then the mail: a stop between left an account whose owner never heard of it | the mail an `OUTBOX` item of the same transaction, as above |
//! | Any creating POST retried after a lost answer (hours, additional hours, messages, cases, notes, documents' confirm, tickets and answers, purchases, contacts, staff, ratings, envelopes, credit checks, meetings, claims, sign-ups) | a second write: the first had committed | the `Idempotency-Key` record in the write's transaction (above): the retry answers the first answer |
//! | Case note | its own put with no guard | one transaction with its idempotency record |
//!
//! Reviewed and left as two steps, because a stop between leaves nothing a
//! user cannot repair: a message, then the writer's own read mark (the
//! writer sees its message unread until opened); a document's removal from
//! the case, then its object (an object nothing refers to, never shown); a
//! case's or ticket's number drawn from its counter before the write (a gap
//! in the numbering).
//! | Staff ending a subscription row early | the row's new dates only: its advance successor took over at the job's next run, still starting at the old date (shown "Deactivated", cases refused) | the row's change, then its expiry and hand-over at once (the promoted row starts now and keeps its bought span); a stop between is finished by the scheduled job, the same conditional step |
//!
//! The TTL attribute is `ttl` (epoch seconds). The CloudFormation definition in
//! `template.yaml` mirrors [`ensure_table`]'s.

use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, Projection, ProjectionType, ScalarAttributeType,
    TimeToLiveSpecification,
};

use super::{sdk_err, Store};
use crate::error::ApiError;

pub const GSI1: &str = "GSI1";
pub const GSI2: &str = "GSI2";
pub const TTL_ATTRIBUTE: &str = "ttl";

fn key(name: &str, kt: KeyType) -> KeySchemaElement {
    KeySchemaElement::builder().attribute_name(name).key_type(kt).build().expect("key schema")
}

fn attr(name: &str) -> AttributeDefinition {
    AttributeDefinition::builder().attribute_name(name).attribute_type(ScalarAttributeType::S).build().expect("attr")
}

fn gsi(name: &str) -> GlobalSecondaryIndex {
    GlobalSecondaryIndex::builder()
        .index_name(name)
        .key_schema(key(&format!("{name}PK"), KeyType::Hash))
        .key_schema(key(&format!("{name}SK"), KeyType::Range))
        .projection(Projection::builder().projection_type(ProjectionType::All).build())
        .build()
        .expect("gsi")
}

impl Store {
    /// Creates the table if it does not exist (local stand-in and tests; on AWS
    /// CloudFormation owns it). Idempotent.
    pub async fn ensure_table(&self) -> Result<bool, ApiError> {
        if self.client.describe_table().table_name(&self.table).send().await.is_ok() {
            return Ok(false);
        }
        let res = self
            .client
            .create_table()
            .table_name(&self.table)
            .billing_mode(BillingMode::PayPerRequest)
            .key_schema(key("PK", KeyType::Hash))
            .key_schema(key("SK", KeyType::Range))
            .set_attribute_definitions(Some(["PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK"].into_iter().map(attr).collect()))
            .global_secondary_indexes(gsi(GSI1))
            .global_secondary_indexes(gsi(GSI2))
            .send()
            .await;
        match res {
            Ok(_) => {}
            // Someone else created it between our describe and create.
            Err(e) if e.as_service_error().is_some_and(|s| s.is_resource_in_use_exception()) => return Ok(false),
            Err(e) => return Err(sdk_err(e)),
        }
        self.client
            .update_time_to_live()
            .table_name(&self.table)
            .time_to_live_specification(
                TimeToLiveSpecification::builder().enabled(true).attribute_name(TTL_ATTRIBUTE).build().expect("ttl"),
            )
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(true)
    }

    /// Next value of a named counter (1, 2, 3, ...), atomically.
    pub async fn next_id(&self, counter: &str) -> Result<u64, ApiError> {
        let out = self
            .client
            .update_item()
            .table_name(&self.table)
            .key("PK", super::s(super::keys::counter::pk(counter)))
            .key("SK", super::s(super::keys::counter::SK))
            .update_expression("ADD #v :one")
            .expression_attribute_names("#v", "value")
            .expression_attribute_values(":one", super::n(1))
            .return_values(aws_sdk_dynamodb::types::ReturnValue::UpdatedNew)
            .send()
            .await
            .map_err(sdk_err)?;
        out.attributes
            .and_then(|a| a.get("value").and_then(|v| v.as_n().ok()).and_then(|n| n.parse().ok()))
            .ok_or_else(|| ApiError::internal("counter without value"))
    }
}

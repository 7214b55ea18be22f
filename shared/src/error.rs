//! The one error type of the API, and the one set of message keys.
//!
//! Each [`ApiError`] variant maps to an HTTP status (spec §8 error catalogue)
//! and a stable message key ([`Msg`]) that the web translates
//! (`server.<key>` in `web/src/locales/*/server.json`; a test checks both
//! lists hold the same keys). Per-field errors are collected in one
//! [`FieldErrors`]. No HTTP types here: the `api` module turns this into a
//! response.

use std::collections::BTreeMap;

use serde::{Serialize, Serializer};

macro_rules! message_keys {
    ($($variant:ident => $key:literal),* $(,)?) => {
        /// Every message key the API sends (errors, per-field errors and
        /// acknowledgements). Serialised as its snake_case key.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Msg {
            $($variant),*
        }

        impl Msg {
            /// Every key, for the test against the web's translations.
            pub const ALL: &'static [Msg] = &[$(Msg::$variant),*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(Msg::$variant => $key),*
                }
            }
        }
    };
}

message_keys! {
    AccountActivated => "account_activated",
    AccountInactive => "account_inactive",
    AccountPending => "account_pending",
    ActivationLinkSent => "activation_link_sent",
    ActiveAndAdvanceSubscription => "active_and_advance_subscription",
    AdditionalHourMonthTaken => "additional_hour_month_taken",
    AddressRequired => "address_required",
    AtLeastOneSector => "at_least_one_sector",
    BankidAlreadyLinked => "bankid_already_linked",
    BankidCancelled => "bankid_cancelled",
    BankidLinked => "bankid_linked",
    BankidNotLinked => "bankid_not_linked",
    BankidNumberTaken => "bankid_number_taken",
    BankidOrderFinished => "bankid_order_finished",
    BankidUnknownPerson => "bankid_unknown_person",
    BankidUnlinked => "bankid_unlinked",
    BankidRfa4 => "bankid_rfa4",
    BankidRfa5 => "bankid_rfa5",
    BankidRfa22 => "bankid_rfa22",
    BusinessSectorDeleted => "business_sector_deleted",
    CannotChangeAdmin => "cannot_change_admin",
    CaseDescriptionRequired => "case_description_required",
    CaseAlreadyTaken => "case_already_taken",
    ExportRunning => "export_running",
    CaseOnLegalHold => "case_on_legal_hold",
    ErasureOpen => "erasure_open",
    ErasureDecided => "erasure_decided",
    ErasureRequested => "erasure_requested",
    CaseClosedForMessages => "case_closed_for_messages",
    CaseNotAssigned => "case_not_assigned",
    CaseNotInProgress => "case_not_in_progress",
    CaseNoteSaveFailed => "case_note_save_failed",
    CaseSubjectRequired => "case_subject_required",
    CaseTypeRequired => "case_type_required",
    CaseWithdrawn => "case_withdrawn",
    ChangedConcurrently => "changed_concurrently",
    IdempotencyKeyReused => "idempotency_key_reused",
    ChoosePackageOrPlan => "choose_package_or_plan",
    CodeAttemptsExceeded => "code_attempts_exceeded",
    CodeReplaced => "code_replaced",
    CodeExpired => "code_expired",
    CodeFormat => "code_format",
    CodeIncorrect => "code_incorrect",
    CodeNotCorrect => "code_not_correct",
    CodeNotSent => "code_not_sent",
    CodeSent => "code_sent",
    ConsultancyServiceRequired => "consultancy_service_required",
    CouldNotSendCode => "could_not_send_code",
    CouldNotSendMail => "could_not_send_mail",
    CurrentPasswordWrong => "current_password_wrong",
    CustomPackageValuePositive => "custom_package_value_positive",
    CustomerNotApproved => "customer_not_approved",
    CustomerNotFound => "customer_not_found",
    CustomerNotPending => "customer_not_pending",
    CustomerPending => "customer_pending",
    DateChanged => "date_changed",
    DeadlineBeforeStart => "deadline_before_start",
    Deleted => "deleted",
    DepartmentConnected => "department_connected",
    DepartmentInUse => "department_in_use",
    DepartmentSaveFailed => "department_save_failed",
    DepartmentUpdateFailed => "department_update_failed",
    DocumentEmpty => "document_empty",
    DocumentNotUploaded => "document_not_uploaded",
    DocumentTooLarge => "document_too_large",
    DocumentTypeNotAllowed => "document_type_not_allowed",
    EmailExists => "email_exists",
    EndBeforeStart => "end_before_start",
    EndDateRequired => "end_date_required",
    EstimatedHoursRequired => "estimated_hours_required",
    ExpireBeforeStart => "expire_before_start",
    ExpireOnRequired => "expire_on_required",
    ExternalLawyerRequiresCompanyAndRate => "external_lawyer_requires_company_and_rate",
    Forbidden => "forbidden",
    HourMin => "hour_min",
    HourOnlyForConsultancy => "hour_only_for_consultancy",
    HourRequired => "hour_required",
    ImageInvalid => "image_invalid",
    ImageNotUploaded => "image_not_uploaded",
    HoursTooLarge => "hours_too_large",
    ImageTooLarge => "image_too_large",
    ImageTypeNotAllowed => "image_type_not_allowed",
    Internal => "internal",
    Invalid => "invalid",
    InvalidAccountManager => "invalid_account_manager",
    InvalidCompanySize => "invalid_company_size",
    InvalidCountry => "invalid_country",
    InvalidCredentials => "invalid_credentials",
    InvalidCursor => "invalid_cursor",
    InvalidDate => "invalid_date",
    InvalidDatetime => "invalid_datetime",
    InvalidDepartment => "invalid_department",
    InvalidDuration => "invalid_duration",
    InvalidEmail => "invalid_email",
    InvalidHours => "invalid_hours",
    InvalidIdentityNumber => "invalid_identity_number",
    InvalidKnowledgeSector => "invalid_knowledge_sector",
    InvalidMonth => "invalid_month",
    InvalidPeriod => "invalid_period",
    InvalidNumber => "invalid_number",
    InvalidPath => "invalid_path",
    InvalidPdf => "invalid_pdf",
    OfferBought => "offer_bought",
    OnlyDraftCanBeWithdrawn => "only_draft_can_be_withdrawn",
    PdfActiveContent => "pdf_active_content",
    InvalidPermission => "invalid_permission",
    InvalidPhone => "invalid_phone",
    InvalidPostCode => "invalid_post_code",
    InvalidPrice => "invalid_price",
    InvalidQuery => "invalid_query",
    InvalidRegistrationNumber => "invalid_registration_number",
    InvalidRequestBody => "invalid_request_body",
    InvalidSector => "invalid_sector",
    InvalidStatus => "invalid_status",
    InvalidTime => "invalid_time",
    InvalidUrl => "invalid_url",
    LimitAboveZero => "limit_above_zero",
    LimitReached => "limit_reached",
    LinkInvalid => "link_invalid",
    LoggedOut => "logged_out",
    MethodNotAllowed => "method_not_allowed",
    NoActiveSubscriptionForCase => "no_active_subscription_for_case",
    NoLawyerFound => "no_lawyer_found",
    NoValidSubscription => "no_valid_subscription",
    NotAuthenticated => "not_authenticated",
    NotEnoughSigners => "not_enough_signers",
    NotFound => "not_found",
    OnlyAdminCreatesStaff => "only_admin_creates_staff",
    OnlyCustomerRates => "only_customer_rates",
    OnlyInProgressCanComplete => "only_in_progress_can_complete",
    OnlyLawyerEntersHours => "only_lawyer_enters_hours",
    OnlyLawyerOrCustomerMessages => "only_lawyer_or_customer_messages",
    OnlyWaitingCanStart => "only_waiting_can_start",
    PasswordChanged => "password_changed",
    PasswordLinkSent => "password_link_sent",
    PasswordOrCodeRequired => "password_or_code_required",
    PasswordReset => "password_reset",
    PasswordTooCommon => "password_too_common",
    PriceTooLarge => "price_too_large",
    PasswordTooLong => "password_too_long",
    PasswordTooShort => "password_too_short",
    PasswordTooWeak => "password_too_weak",
    PasswordsDoNotMatch => "passwords_do_not_match",
    PrivacyNotAgreed => "privacy_not_agreed",
    RateClosedCasesOnly => "rate_closed_cases_only",
    AlreadyRated => "already_rated",
    RecoverySent => "recovery_sent",
    RegistrationNumberTaken => "registration_number_taken",
    RegistrationReceived => "registration_received",
    RequestTimedOut => "request_timed_out",
    RequestTooLarge => "request_too_large",
    Required => "required",
    SearchTooBroad => "search_too_broad",
    ServiceActivated => "service_activated",
    ServiceActivationFailed => "service_activation_failed",
    ServiceAlreadyRenewed => "service_already_renewed",
    ServiceDeleted => "service_deleted",
    ServiceUnavailable => "service_unavailable",
    ServiceUpdated => "service_updated",
    StartDateRequired => "start_date_required",
    StatusChangeNotAllowed => "status_change_not_allowed",
    TermsNotAgreed => "terms_not_agreed",
    TokenExpired => "token_expired",
    TooLong => "too_long",
    TooManyDocuments => "too_many_documents",
    TooManyEntries => "too_many_entries",
    TooManyFollowers => "too_many_followers",
    TooManyRequests => "too_many_requests",
    TooManySearches => "too_many_searches",
    TooManyInvitations => "too_many_invitations",
    TotpAlreadyEnabled => "totp_already_enabled",
    TotpAttemptsExceeded => "totp_attempts_exceeded",
    TotpCodeFormat => "totp_code_format",
    TotpCodeUsed => "totp_code_used",
    TotpDisableRequired => "totp_disable_required",
    TotpNoResend => "totp_no_resend",
    TotpNotEnabled => "totp_not_enabled",
    TotpSetupAttemptsExceeded => "totp_setup_attempts_exceeded",
    TotpSetupExpired => "totp_setup_expired",
    TwoFactorDisabled => "two_factor_disabled",
    TwoFactorEnabled => "two_factor_enabled",
    TwoFactorSessionExpired => "two_factor_session_expired",
    UnknownKnowledgeSector => "unknown_knowledge_sector",
    UnknownService => "unknown_service",
    UriTooLong => "uri_too_long",
    UserNotFound => "user_not_found",
    ValidationFailed => "validation_failed",
    VideoUrlNotAllowed => "video_url_not_allowed",
    TicketClosed => "ticket_closed",
    LegalVersionOutdated => "legal_version_outdated",
    // Video meetings.
    MeetingSlotOverlaps => "slot_overlaps",
    MeetingSlotTaken => "slot_taken",
    // Add-on services.
    CreditAccountInactive => "credit_account_inactive",
    EnvelopeNotCompleted => "envelope_not_completed",
    EnvelopeNotDraft => "envelope_not_draft",
    EnvelopeNotSent => "envelope_not_sent",
    ProviderBadAnswer => "provider_bad_answer",
    ProviderRefused => "provider_refused",
    ProviderTimeout => "provider_timeout",
    ProviderUnavailable => "provider_unavailable",
    ServiceNotPurchased => "service_not_purchased",
    ServicePermissionMissing => "service_permission_missing",
    VerifiedLoginFailed => "verified_login_failed",
    VerifiedTokenMissing => "verified_token_missing",
    // Debt collection.
    ClaimAmountInvalid => "claim_amount_invalid",
    DueDateTooFar => "due_date_too_far",
    InkassoAccountNotApproved => "inkasso_account_not_approved",
}

impl std::fmt::Display for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Msg {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl utoipa::PartialSchema for Msg {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(Msg::ALL.iter().map(|m| m.as_str())))
            .description(Some("A message key; the web translates it under `server.<key>`."))
            .into()
    }
}

impl utoipa::ToSchema for Msg {}

/// Per-field error keys, e.g. `{"email": ["invalid_email"]}`: the one way
/// every validator collects them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FieldErrors(BTreeMap<String, Vec<Msg>>);

impl FieldErrors {
    pub fn new() -> Self {
        FieldErrors::default()
    }

    /// Adds `key` to `field` (a field may collect several keys).
    pub fn add(&mut self, field: impl Into<String>, key: Msg) {
        self.0.entry(field.into()).or_default().push(key);
    }

    /// A parsed optional field's value; an unreadable one adds `key` to
    /// `field` and counts as absent, so that a form reports every field at once.
    pub fn read<T, E>(&mut self, field: &str, key: Msg, parsed: Result<Option<T>, E>) -> Option<T> {
        parsed.unwrap_or_else(|_| {
            self.add(field, key);
            None
        })
    }

    /// One field, one key.
    pub fn of(field: impl Into<String>, key: Msg) -> Self {
        let mut f = FieldErrors::new();
        f.add(field, key);
        f
    }

    /// `required` for each named value that is blank.
    pub fn blank(values: &[(&str, &str)]) -> Self {
        values.iter().filter(|(_, v)| v.trim().is_empty()).map(|(k, _)| (*k, Msg::Required)).collect()
    }

    pub fn has(&self, field: &str) -> bool {
        self.0.contains_key(field)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The keys of one field (empty when it has none).
    pub fn get(&self, field: &str) -> &[Msg] {
        self.0.get(field).map(Vec::as_slice).unwrap_or(&[])
    }

    pub fn fields(&self) -> impl Iterator<Item = (&str, &[Msg])> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_slice()))
    }

    /// Takes over every key of `other`.
    pub fn merge(&mut self, other: FieldErrors) {
        for (field, keys) in other.0 {
            self.0.entry(field).or_default().extend(keys);
        }
    }

    /// `Ok` when nothing was collected, else the 400 `validation_failed`.
    pub fn check(self) -> Result<(), ApiError> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(ApiError::validation(self))
        }
    }
}

impl IntoIterator for FieldErrors {
    type Item = (String, Vec<Msg>);
    type IntoIter = std::collections::btree_map::IntoIter<String, Vec<Msg>>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl std::ops::Index<&str> for FieldErrors {
    type Output = [Msg];
    fn index(&self, field: &str) -> &[Msg] {
        self.get(field)
    }
}

impl<F: Into<String>> FromIterator<(F, Msg)> for FieldErrors {
    fn from_iter<I: IntoIterator<Item = (F, Msg)>>(iter: I) -> Self {
        let mut f = FieldErrors::new();
        for (field, key) in iter {
            f.add(field, key);
        }
        f
    }
}

impl utoipa::PartialSchema for FieldErrors {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
        ObjectBuilder::new()
            .additional_properties(Some(ArrayBuilder::new().items(ObjectBuilder::new().schema_type(Type::String))))
            .description(Some("Per-field message keys."))
            .into()
    }
}

impl utoipa::ToSchema for FieldErrors {}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400 with a message key and optional per-field keys.
    #[error("bad request: {message}")]
    BadRequest { message: Msg, fields: FieldErrors },
    /// 400: wrong e-mail or password. Unknown e-mails answer the same, so the
    /// login form cannot be used to find out who has an account.
    #[error("invalid credentials")]
    InvalidCredentials,
    /// 401: no token, a tampered one, or the user is gone or inactive.
    #[error("not authenticated")]
    NotAuthenticated,
    /// 401: the token was valid but has expired.
    #[error("token expired")]
    TokenExpired,
    /// 403
    #[error("forbidden")]
    Forbidden,
    /// 403 naming the rule that refused (e.g. `only_admin_creates_staff`),
    /// for the spec's translated server messages.
    #[error("forbidden: {0}")]
    ForbiddenBy(Msg),
    /// 404
    #[error("not found")]
    NotFound,
    /// 406: the spec's user-not-found answer.
    #[error("user not found")]
    UserNotFound,
    /// 405
    #[error("method not allowed")]
    MethodNotAllowed,
    /// 409: a concurrent request took what this one asked for (the case
    /// another lawyer just accepted); the key names what happened.
    #[error("conflict: {0:?}")]
    Conflict(Msg),
    /// 413: the request body is over the API's limit ([`crate::api::MAX_BODY_BYTES`]).
    #[error("payload too large")]
    PayloadTooLarge,
    /// 414: the address (its query string) is over the API's limit.
    #[error("uri too long")]
    UriTooLong,
    /// 429: rate limit of sign-in, code or mail attempts.
    #[error("too many requests")]
    TooManyRequests,
    /// 429 with its own key: a per-user limit of a use case (conflict
    /// searches, invitations) that says what was limited.
    #[error("too many requests: {0:?}")]
    Throttled(Msg),
    /// 500: details are logged, never sent.
    #[error("internal error: {0}")]
    Internal(String),
    /// 503: a transient failure of a service we depend on (throttling, a
    /// timeout, a dropped connection) that outlasted the retries.
    #[error("unavailable: {0}")]
    Unavailable(String),
    /// 504: the request did not finish within the API's deadline (under the
    /// function timeout, so the caller still gets this shape).
    #[error("timed out")]
    Timeout,
    /// 502: an add-on provider (signing, credit information, Inkasso, video
    /// meeting) failed after the adapter's retries (`provider_*` keys).
    #[error("provider failed: {0:?}")]
    Provider(Msg),
    /// 422: an `Idempotency-Key` this caller already used with another
    /// request (another body or address) within its 24 hours.
    #[error("idempotency key reused")]
    IdempotencyKeyReused,
    /// Not a failure: the stored answer of the first request with this
    /// `Idempotency-Key` (status and JSON body), answered again instead of
    /// doing the write twice. An error variant so that every handler's
    /// `Result` can carry it with `?`.
    #[error("the answer given before ({status})")]
    Replay { status: u16, body: String },
}

impl ApiError {
    pub fn status(&self) -> u16 {
        match self {
            ApiError::BadRequest { .. } | ApiError::InvalidCredentials => 400,
            ApiError::NotAuthenticated | ApiError::TokenExpired => 401,
            ApiError::Forbidden | ApiError::ForbiddenBy(_) => 403,
            ApiError::NotFound => 404,
            ApiError::MethodNotAllowed => 405,
            ApiError::Conflict(_) => 409,
            ApiError::UserNotFound => 406,
            ApiError::PayloadTooLarge => 413,
            ApiError::UriTooLong => 414,
            ApiError::TooManyRequests | ApiError::Throttled(_) => 429,
            ApiError::Internal(_) => 500,
            ApiError::Unavailable(_) => 503,
            ApiError::Timeout => 504,
            ApiError::Provider(_) => 502,
            ApiError::IdempotencyKeyReused => 422,
            ApiError::Replay { status, .. } => *status,
        }
    }

    /// Stable key the web translates.
    pub fn key(&self) -> Msg {
        match self {
            ApiError::BadRequest { message, .. } => *message,
            ApiError::InvalidCredentials => Msg::InvalidCredentials,
            ApiError::NotAuthenticated => Msg::NotAuthenticated,
            ApiError::TokenExpired => Msg::TokenExpired,
            ApiError::Forbidden => Msg::Forbidden,
            ApiError::ForbiddenBy(key) => *key,
            ApiError::NotFound => Msg::NotFound,
            ApiError::MethodNotAllowed => Msg::MethodNotAllowed,
            ApiError::Conflict(key) => *key,
            ApiError::UserNotFound => Msg::UserNotFound,
            ApiError::PayloadTooLarge => Msg::RequestTooLarge,
            ApiError::UriTooLong => Msg::UriTooLong,
            ApiError::TooManyRequests => Msg::TooManyRequests,
            ApiError::Throttled(key) => *key,
            ApiError::Internal(_) => Msg::Internal,
            ApiError::Unavailable(_) => Msg::ServiceUnavailable,
            ApiError::Timeout => Msg::RequestTimedOut,
            ApiError::Provider(key) => *key,
            ApiError::IdempotencyKeyReused => Msg::IdempotencyKeyReused,
            // Never rendered as an error body (see the api module).
            ApiError::Replay { .. } => Msg::Internal,
        }
    }

    pub fn fields(&self) -> FieldErrors {
        match self {
            ApiError::BadRequest { fields, .. } => fields.clone(),
            _ => FieldErrors::new(),
        }
    }

    pub fn validation(fields: FieldErrors) -> Self {
        ApiError::BadRequest { message: Msg::ValidationFailed, fields }
    }

    /// A 400 `validation_failed` naming one field.
    pub fn field(field: impl Into<String>, key: Msg) -> Self {
        ApiError::validation(FieldErrors::of(field, key))
    }

    /// A 400 with one message key and no field errors.
    pub fn bad(message: Msg) -> Self {
        ApiError::BadRequest { message, fields: FieldErrors::new() }
    }

    pub fn internal(e: impl std::fmt::Display) -> Self {
        ApiError::Internal(e.to_string())
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_follow_the_error_catalogue() {
        assert_eq!(ApiError::InvalidCredentials.status(), 400);
        assert_eq!(ApiError::NotAuthenticated.status(), 401);
        assert_eq!(ApiError::TokenExpired.status(), 401);
        assert_eq!(ApiError::Forbidden.status(), 403);
        assert_eq!(ApiError::ForbiddenBy(Msg::OnlyAdminCreatesStaff).status(), 403);
        assert_eq!(ApiError::ForbiddenBy(Msg::OnlyAdminCreatesStaff).key().as_str(), "only_admin_creates_staff");
        assert_eq!(ApiError::NotFound.status(), 404);
        assert_eq!(ApiError::MethodNotAllowed.key().as_str(), "method_not_allowed");
        assert_eq!(ApiError::UserNotFound.status(), 406);
        assert_eq!(ApiError::Conflict(Msg::CaseAlreadyTaken).status(), 409);
        assert_eq!(ApiError::Conflict(Msg::CaseAlreadyTaken).key().as_str(), "case_already_taken");
        assert_eq!(ApiError::internal("boom").status(), 500);
        assert_eq!(ApiError::internal("boom").key(), Msg::Internal);
        assert_eq!(ApiError::IdempotencyKeyReused.status(), 422);
        assert_eq!(ApiError::IdempotencyKeyReused.key().as_str(), "idempotency_key_reused");
        assert_eq!(ApiError::Replay { status: 201, body: "{}".into() }.status(), 201);
    }

    #[test]
    fn field_errors_collect_and_serialise_as_keys() {
        let mut f = FieldErrors::new();
        f.add("email", Msg::Required);
        f.add("email", Msg::InvalidEmail);
        f.add("name", Msg::TooLong);
        assert_eq!(f["email"], [Msg::Required, Msg::InvalidEmail]);
        assert!(f["phone"].is_empty());
        assert_eq!(serde_json::to_value(&f).unwrap(), serde_json::json!({"email": ["required", "invalid_email"], "name": ["too_long"]}));
        assert!(FieldErrors::new().check().is_ok());
        assert_eq!(f.check().unwrap_err().key(), Msg::ValidationFailed);
    }

    /// The server's keys and the web's translations (sv and en) are the same
    /// set: a key without a translation, or a translation of a key the
    /// server no longer sends, fails here.
    #[test]
    fn every_key_is_translated_in_both_languages_and_nothing_else_is() {
        let ours: std::collections::BTreeSet<&str> = Msg::ALL.iter().map(|m| m.as_str()).collect();
        assert_eq!(ours.len(), Msg::ALL.len(), "two variants share a key");
        for lang in ["sv", "en"] {
            let path = format!("{}/../web/src/locales/{lang}/server.json", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let json: serde_json::Value = serde_json::from_str(&text).expect("server.json parses");
            let theirs: std::collections::BTreeSet<&str> = json.as_object().expect("an object").keys().map(String::as_str).collect();
            let untranslated: Vec<_> = ours.difference(&theirs).collect();
            let unknown: Vec<_> = theirs.difference(&ours).collect();
            assert!(untranslated.is_empty(), "{lang}: keys without a translation: {untranslated:?}");
            assert!(unknown.is_empty(), "{lang}: translations of keys the server does not send: {unknown:?}");
        }
    }
}

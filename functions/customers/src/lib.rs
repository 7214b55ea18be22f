//! Customer accounts: public registration (with the e-mail and
//! registration-number checks and the business-sector list), activation by
//! mailed link, and the admin side: customer lists by state, approval,
//! resending the activation mail, activating/deactivating users, business
//! sectors and the `bubbles/` entity counts. Routes, parsing and the
//! response shapes only; each handler makes one call of
//! `shared::services::customers` (the use cases and their access rules).

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use shared::api::{ApiJson, ApiPath, ApiQuery, AppState, Caller, ClientIp, Created, Creating, ErrorBody, Idempotency};
use shared::domain::catalogue::{CompanySize, COMPANY_SIZES};
use shared::domain::city::{self, City};
use shared::domain::country;
use shared::domain::customer::{BusinessSector, CustomerForm, CustomerProfile, CustomerType, Registration, COUNTRY_SWEDEN};
use shared::domain::data_rights::ErasureRequest;
use shared::domain::policy::{self, Action};
use shared::domain::User;
use shared::error::Msg;
use shared::error::{ApiError, FieldErrors};
use shared::services::customers::registration::{self, Registered};
use shared::services::customers::{self, sectors, CustomerDetails};
use shared::services::data_rights::{self, ExportView};
use shared::services::erasure::{self, Decision, RequestPage};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

/// Admin lists fetch 10 items, newest first (spec §9).
pub const PAGE_SIZE: usize = customers::lists::PAGE_SIZE;

/// Spec §3's customer types, in the form's order.
const CUSTOMER_TYPES: [CustomerType; 2] = [CustomerType::Company, CustomerType::Individual];

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(register))
        .routes(routes!(email_check))
        .routes(routes!(create_customer_email_check))
        .routes(routes!(registration_number_check))
        .routes(routes!(list_sectors))
        .routes(routes!(create_sector))
        .routes(routes!(update_sector))
        .routes(routes!(delete_sector))
        .routes(routes!(list_customers))
        .routes(routes!(approve_customer))
        .routes(routes!(send_password_link))
        .routes(routes!(activation_check))
        .routes(routes!(activate_account))
        .routes(routes!(deactivate_user))
        .routes(routes!(activate_user))
        .routes(routes!(bubbles))
        .routes(routes!(create_customer))
        .routes(routes!(update_customer))
        .routes(routes!(customer_details))
        .routes(routes!(customer_dropdown))
        .routes(routes!(company_dropdown))
        .routes(routes!(company_alias))
        .routes(routes!(company_list_alias))
        .routes(routes!(affiliation_dropdown_alias))
        .routes(routes!(customer_types))
        .routes(routes!(registration_init))
        .routes(routes!(city_list))
        .routes(routes!(account_manager_dropdown))
        .routes(routes!(data_exports, request_data_export))
        .routes(routes!(erasure_requests, request_erasure))
        .routes(routes!(decide_erasure))
        .routes(routes!(data_requests))
}

/// A plain acknowledgement with a translatable message key.
#[derive(Serialize, ToSchema)]
pub struct Message {
    pub message: Msg,
}

/// Register a company or individual customer. The account is pending: it
/// cannot log in until an admin approves it and the customer activates it
/// from the mailed link. An address or registration number that already has
/// an account gets the same answer; the address is mailed why nothing was
/// created. An `Idempotency-Key` belongs to the address (nobody is signed
/// in): a retry with it answers the first answer without a second account
/// or mail, whether or not the first created one.
#[utoipa::path(post, path = "/api/registration/", tag = "customers", request_body = Registration,
    params(("Idempotency-Key" = Option<String>, Header, description = "Makes the sign-up happen once: a key the client draws per form body (a UUID, as a structured-field string, e.g. Idempotency-Key: \"8e03978e-40d5-43e8-bc93-6894a57f9324\"), kept 24 hours, scoped by the address. A retry with the same key and body gets the first answer (header idempotent-replayed) without a second account or mail; the same key with another body for the same address answers 422 idempotency_key_reused.")),
    responses(
        (status = 201, description = "Received (awaiting approval, or the address was mailed why not)", body = Registered),
        (status = 400, description = "Per-field keys: required, invalid_email, password rules, \
            passwords_do_not_match, terms_not_agreed, privacy_not_agreed, invalid_registration_number, \
            invalid_sector, invalid_phone, invalid_post_code, invalid_country; Idempotency-Key: invalid", body = ErrorBody),
        (status = 422, description = "idempotency_key_reused: the Idempotency-Key was sent before with another sign-up of the same address", body = ErrorBody),
        (status = 429, description = "Too many sign-ups from this address", body = ErrorBody)))]
async fn register(
    State(s): State<AppState>,
    ClientIp(ip): ClientIp,
    idem: Idempotency,
    ApiJson(req): ApiJson<Registration>,
) -> Result<(StatusCode, Json<Registered>), ApiError> {
    let once = idem.begin_scoped(&s, &registration::idempotency_scope(&req.email), StatusCode::CREATED, None).await?;
    Ok((StatusCode::CREATED, Json(customers::register(&s, req, &ip, &once).await?)))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"email": "nils.nyman@example.com"}))]
pub struct EmailCheck {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 254, format = Email)]
    pub email: String,
}

#[derive(Serialize, ToSchema)]
pub struct Availability {
    pub available: bool,
}

/// Is this e-mail free (case-insensitively)? For the registration form as the user types.
#[utoipa::path(post, path = "/api/email/check/", tag = "customers", request_body = EmailCheck,
    responses((status = 200, body = Availability), (status = 400, description = "email: required or invalid_email", body = ErrorBody),
        (status = 429, description = "Too many checks from this address", body = ErrorBody)))]
async fn email_check(
    State(s): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<EmailCheck>,
) -> Result<Json<Availability>, ApiError> {
    Ok(Json(Availability { available: customers::email_available(&s, &req.email, &ip).await? }))
}

/// The same check for staff screens that create customers.
#[utoipa::path(post, path = "/api/create/customer/email/check/", tag = "customers", request_body = EmailCheck,
    responses((status = 200, body = Availability), (status = 400, description = "email: required or invalid_email", body = ErrorBody),
        (status = 429, description = "Too many checks from this address", body = ErrorBody)))]
async fn create_customer_email_check(
    State(s): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<EmailCheck>,
) -> Result<Json<Availability>, ApiError> {
    Ok(Json(Availability { available: customers::email_available(&s, &req.email, &ip).await? }))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"company_registration_number": "556000-0001"}))]
pub struct RegistrationNumberCheck {
    /// `XXXXXX-XXXX`.
    #[serde(default)]
    #[schema(required = true, pattern = "^[0-9]{6}-[0-9]{4}$")]
    pub company_registration_number: String,
}

/// Is this company registration number (XXXXXX-XXXX) well-formed and free?
#[utoipa::path(post, path = "/api/create/customer/company-registration-number/check/", tag = "customers",
    request_body = RegistrationNumberCheck,
    responses((status = 200, body = Availability),
        (status = 400, description = "company_registration_number: required or invalid_registration_number", body = ErrorBody),
        (status = 429, description = "Too many checks from this address", body = ErrorBody)))]
async fn registration_number_check(
    State(s): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<RegistrationNumberCheck>,
) -> Result<Json<Availability>, ApiError> {
    Ok(Json(Availability { available: customers::registration_number_available(&s, &req.company_registration_number, &ip).await? }))
}

/// The business sectors (public: the registration form offers them).
#[utoipa::path(get, path = "/api/business-sector/", tag = "business sectors",
    responses((status = 200, body = Vec<BusinessSector>)))]
async fn list_sectors(State(s): State<AppState>) -> Result<Json<Vec<BusinessSector>>, ApiError> {
    Ok(Json(sectors::list(&s).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"name": "Bygg och fastighet"}))]
pub struct SectorRequest {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub name: String,
}

/// Add a business sector (admin).
#[utoipa::path(post, path = "/api/business-sector/create/", tag = "business sectors", security(("bearer" = [])),
    params(Idempotency),
    request_body = SectorRequest,
    responses((status = 201, body = BusinessSector), (status = 400, description = "name: required or too_long", body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn create_sector(c: Creating, ApiJson(req): ApiJson<SectorRequest>) -> Result<Created<BusinessSector>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(sectors::create(&c.state, &c.user, &req.name, &once).await?))
}

/// Rename a business sector (admin).
#[utoipa::path(put, path = "/api/business-sector/update/{id}/", tag = "business sectors", security(("bearer" = [])),
    params(("id" = String, Path, description = "Business sector id")), request_body = SectorRequest,
    responses((status = 200, body = BusinessSector), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn update_sector(
    Caller(s, user): Caller,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<SectorRequest>,
) -> Result<Json<BusinessSector>, ApiError> {
    Ok(Json(sectors::rename(&s, &user, &id, &req.name).await?))
}

/// Delete a business sector (admin). Customers keep the name they registered with.
#[utoipa::path(delete, path = "/api/business-sector/delete/{id}/", tag = "business sectors", security(("bearer" = [])),
    params(("id" = String, Path, description = "Business sector id")),
    responses((status = 200, body = Message), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn delete_sector(Caller(s, user): Caller, ApiPath(id): ApiPath<String>) -> Result<Json<Message>, ApiError> {
    sectors::delete(&s, &user, &id).await?;
    Ok(Json(Message { message: Msg::BusinessSectorDeleted }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// pending, active, inactive or all (default active). Lawyers: active or
    /// inactive; sales persons: active, inactive or all.
    pub status: Option<String>,
    /// The `next` of the previous page.
    pub cursor: Option<String>,
    /// Part of a name, e-mail or company name.
    pub search: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct CustomerList {
    pub results: Vec<CustomerProfile>,
    /// Cursor of the next page; null on the last page.
    pub next: Option<String>,
}

/// The query of a customer read. A caller who may not read customers is
/// told so before hearing that the query is malformed.
fn read_query<T>(user: &User, query: Result<ApiQuery<T>, ApiError>) -> Result<T, ApiError> {
    match query {
        Ok(ApiQuery(q)) => Ok(q),
        Err(_) => {
            policy::require(user, Action::ReadCustomers)?;
            Err(ApiError::bad(Msg::InvalidQuery))
        }
    }
}

/// Customers in one state (or all), newest first, 10 per page. Admin sees
/// every list; sales persons all, active and inactive; lawyers active and
/// inactive (read-only: they have no other customer route).
#[utoipa::path(get, path = "/api/customer/list/", tag = "customers", security(("bearer" = [])), params(ListQuery),
    responses((status = 200, body = CustomerList), (status = 400, description = "status: invalid_status; cursor: invalid_cursor", body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_customers(Caller(s, user): Caller, query: Result<ApiQuery<ListQuery>, ApiError>) -> Result<Json<CustomerList>, ApiError> {
    let q = read_query(&user, query)?;
    let page = customers::list(&s, &user, q.status.as_deref(), q.cursor.as_deref(), q.search.as_deref()).await?;
    Ok(Json(CustomerList { results: page.results, next: page.next }))
}

/// Create a company or individual customer (admin, sales person). The
/// customer is active at once and is mailed a link to choose a password.
#[utoipa::path(post, path = "/api/customer/create/", tag = "customers", security(("bearer" = [])), request_body = CustomerForm,
    params(Idempotency),
    responses((status = 201, body = CustomerProfile), (status = 400, description = "Per-field keys: required, invalid_email, email_exists, invalid_registration_number, \
            registration_number_taken, invalid_sector, invalid_phone, address_required, invalid_post_code, invalid_country, \
            invalid_account_manager, invalid_department, invalid_knowledge_sector, invalid_price, invalid_company_size", body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn create_customer(c: Creating, ApiJson(req): ApiJson<CustomerForm>) -> Result<Created<CustomerProfile>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(customers::create(&c.state, &c.user, req, &once).await?))
}

/// Update a customer (admin, sales person). A changed e-mail or registration
/// number moves its uniqueness item in the same transaction.
#[utoipa::path(put, path = "/api/customer/update/{uid}/", tag = "customers", security(("bearer" = [])),
    params(("uid" = String, Path, description = "Customer uid")), request_body = CustomerForm,
    responses((status = 200, body = CustomerProfile), (status = 400, description = "As for create", body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 406, body = ErrorBody)))]
async fn update_customer(
    Caller(s, user): Caller,
    ApiPath(uid): ApiPath<String>,
    ApiJson(req): ApiJson<CustomerForm>,
) -> Result<Json<CustomerProfile>, ApiError> {
    Ok(Json(customers::update(&s, &user, &uid, req).await?))
}

/// The full customer (spec §3) for the details modal and the edit form
/// (admin, sales persons, lawyers). Purchased services come from `customer/{uid}/`.
#[utoipa::path(get, path = "/api/customer/details/{uid}/", tag = "customers", security(("bearer" = [])),
    params(("uid" = String, Path, description = "Customer uid")),
    responses((status = 200, body = CustomerDetails), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 406, body = ErrorBody)))]
async fn customer_details(Caller(s, user): Caller, ApiPath(uid): ApiPath<String>) -> Result<Json<CustomerDetails>, ApiError> {
    Ok(Json(customers::details(&s, &user, &uid).await?))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DropdownQuery {
    /// Part of a name, e-mail or company name.
    pub search: Option<String>,
}

/// One dropdown option.
#[derive(Serialize, ToSchema)]
pub struct DropdownOption {
    pub uid: String,
    pub label: String,
    pub email: String,
    pub company_name: Option<String>,
}

impl From<CustomerProfile> for DropdownOption {
    fn from(p: CustomerProfile) -> Self {
        DropdownOption { label: p.dropdown_label(), uid: p.uid, email: p.email, company_name: p.company_name }
    }
}

fn options(found: Vec<CustomerProfile>) -> Json<Vec<DropdownOption>> {
    Json(found.into_iter().map(DropdownOption::from).collect())
}

/// Active customers matching the search (name, company, e-mail), at most 20 (staff).
#[utoipa::path(get, path = "/api/customer/dropdown/list/", tag = "customers", security(("bearer" = [])), params(DropdownQuery),
    responses((status = 200, body = [DropdownOption]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn customer_dropdown(
    Caller(s, user): Caller,
    query: Result<ApiQuery<DropdownQuery>, ApiError>,
) -> Result<Json<Vec<DropdownOption>>, ApiError> {
    let q = read_query(&user, query)?;
    Ok(options(customers::dropdown(&s, &user, q.search.as_deref(), false).await?))
}

/// Active company customers matching the search, at most 20 (staff).
#[utoipa::path(get, path = "/api/company/dropdown/list/", tag = "customers", security(("bearer" = [])), params(DropdownQuery),
    responses((status = 200, body = [DropdownOption]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn company_dropdown(
    Caller(s, user): Caller,
    query: Result<ApiQuery<DropdownQuery>, ApiError>,
) -> Result<Json<Vec<DropdownOption>>, ApiError> {
    let q = read_query(&user, query)?;
    Ok(options(customers::dropdown(&s, &user, q.search.as_deref(), true).await?))
}

// Spec §7 names these paths without saying what they answer; each serves
// the same data as the existing path it aliases (said in its summary).

/// Alias of GET company/dropdown/list/ (staff).
#[utoipa::path(get, path = "/api/company/", tag = "customers", security(("bearer" = [])), params(DropdownQuery),
    responses((status = 200, body = [DropdownOption]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn company_alias(caller: Caller, query: Result<ApiQuery<DropdownQuery>, ApiError>) -> Result<Json<Vec<DropdownOption>>, ApiError> {
    company_dropdown(caller, query).await
}

/// Alias of GET company/dropdown/list/ (staff).
#[utoipa::path(get, path = "/api/company/list/", tag = "customers", security(("bearer" = [])), params(DropdownQuery),
    responses((status = 200, body = [DropdownOption]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn company_list_alias(
    caller: Caller,
    query: Result<ApiQuery<DropdownQuery>, ApiError>,
) -> Result<Json<Vec<DropdownOption>>, ApiError> {
    company_dropdown(caller, query).await
}

/// Alias of GET company/dropdown/list/ (staff): the companies a customer may be affiliated with.
///
/// Spec §7 `customer/affiliation/dropdown/list`: a company customer is what
/// an individual or a contact is affiliated with.
#[utoipa::path(get, path = "/api/customer/affiliation/dropdown/list/", tag = "customers", security(("bearer" = [])), params(DropdownQuery),
    responses((status = 200, body = [DropdownOption]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn affiliation_dropdown_alias(
    caller: Caller,
    query: Result<ApiQuery<DropdownQuery>, ApiError>,
) -> Result<Json<Vec<DropdownOption>>, ApiError> {
    company_dropdown(caller, query).await
}

/// The customer types (spec §3: Company or Individual); public, like the registration form's other lists.
#[utoipa::path(get, path = "/api/customer-type/", tag = "customers",
    responses((status = 200, body = [CustomerType])))]
async fn customer_types() -> Json<Vec<CustomerType>> {
    Json(CUSTOMER_TYPES.to_vec())
}

/// The registration form's country choice (spec §3: Sweden only, value 1).
#[derive(Serialize, ToSchema)]
pub struct CountryOption {
    pub value: u32,
    /// ISO 3166-1 alpha-2; the web names it in the reader's language.
    pub code: &'static str,
}

/// Everything the registration form offers, in one call.
#[derive(Serialize, ToSchema)]
pub struct RegistrationInit {
    pub customer_types: Vec<CustomerType>,
    pub business_sectors: Vec<BusinessSector>,
    pub company_sizes: Vec<CompanySize>,
    pub countries: Vec<CountryOption>,
}

/// The registration form's lists in one call (public): the answers of GET customer-type/, business-sector/ and company-size/list/, and the countries.
#[utoipa::path(get, path = "/api/customer/registration/init/", tag = "customers",
    responses((status = 200, body = RegistrationInit)))]
async fn registration_init(State(s): State<AppState>) -> Result<Json<RegistrationInit>, ApiError> {
    Ok(Json(RegistrationInit {
        customer_types: CUSTOMER_TYPES.to_vec(),
        business_sectors: sectors::list(&s).await?,
        company_sizes: COMPANY_SIZES.to_vec(),
        countries: vec![CountryOption { value: COUNTRY_SWEDEN, code: country::SWEDEN }],
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CityQuery {
    /// Part of a municipality's name (case-insensitive).
    pub search: Option<String>,
}

/// Sweden's 290 municipalities, filtered by `search` (public: the address forms suggest them).
#[utoipa::path(get, path = "/api/city/list/", tag = "customers", params(CityQuery),
    responses((status = 200, body = [City]), (status = 400, body = ErrorBody)))]
async fn city_list(query: Result<ApiQuery<CityQuery>, ApiError>) -> Result<Json<Vec<City>>, ApiError> {
    let ApiQuery(q) = query.map_err(|_| ApiError::bad(Msg::InvalidQuery))?;
    Ok(Json(city::cities(q.search.as_deref())))
}

/// An account manager option.
#[derive(Serialize, ToSchema)]
pub struct AccountManagerOption {
    pub uid: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
}

/// Active sales persons, for the customer form's account-manager select (admin, sales person).
#[utoipa::path(get, path = "/api/account_manager/dropdown/list/", tag = "customers", security(("bearer" = [])),
    responses((status = 200, body = [AccountManagerOption]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn account_manager_dropdown(Caller(s, user): Caller) -> Result<Json<Vec<AccountManagerOption>>, ApiError> {
    let managers = customers::account_managers(&s, &user).await?;
    Ok(Json(
        managers
            .into_iter()
            .map(|p| AccountManagerOption { uid: p.uid, first_name: p.first_name, last_name: p.last_name, email: p.email })
            .collect(),
    ))
}

/// Approve a pending customer (admin): the activation mail goes out.
#[utoipa::path(post, path = "/api/customer/approve/{uid}/", tag = "customers", security(("bearer" = [])),
    params(("uid" = String, Path, description = "Customer uid")),
    responses((status = 200, body = CustomerProfile), (status = 400, description = "customer_not_pending", body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 406, body = ErrorBody)))]
async fn approve_customer(Caller(s, user): Caller, ApiPath(uid): ApiPath<String>) -> Result<Json<CustomerProfile>, ApiError> {
    Ok(Json(customers::approve(&s, &user, &uid).await?))
}

/// Resend the activation mail of an approved customer (admin); the earlier link stops working.
#[utoipa::path(post, path = "/api/admin/customer-user/send-password-link/{uid}/", tag = "customers", security(("bearer" = [])),
    params(("uid" = String, Path, description = "Customer uid")),
    responses((status = 200, body = Message), (status = 400, description = "customer_not_pending, customer_not_approved, or could_not_send_mail (the mail service refused the mail)", body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 406, body = ErrorBody)))]
async fn send_password_link(Caller(s, user): Caller, ApiPath(uid): ApiPath<String>) -> Result<Json<Message>, ApiError> {
    customers::resend_activation(&s, &user, &uid).await?;
    Ok(Json(Message { message: Msg::ActivationLinkSent }))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"token": "token-from-the-activation-mail"}))]
pub struct ActivationCheck {
    #[serde(default)]
    pub token: String,
}

#[derive(Serialize, ToSchema)]
pub struct LinkValidity {
    pub valid: bool,
}

/// Is an activation link still usable? The web shows the invalid-link screen otherwise.
#[utoipa::path(post, path = "/api/customer/activation/check/", tag = "customers", request_body = ActivationCheck,
    responses((status = 200, body = LinkValidity)))]
async fn activation_check(State(s): State<AppState>, ApiJson(req): ApiJson<ActivationCheck>) -> Result<Json<LinkValidity>, ApiError> {
    Ok(Json(LinkValidity { valid: customers::activation_link_valid(&s, &req.token).await? }))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"token": "token-from-the-activation-mail", "password": "Nytt-lösen-2026!", "confirm_password": "Nytt-lösen-2026!"}))]
pub struct ActivationRequest {
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub token: String,
    #[serde(default)]
    #[schema(required = true, min_length = 8, max_length = 128, format = Password)]
    pub password: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, format = Password)]
    pub confirm_password: String,
}

/// Activate an approved customer from the mailed link, confirming the password.
#[utoipa::path(post, path = "/api/customer/activation/", tag = "customers", request_body = ActivationRequest,
    responses((status = 200, body = Message),
        (status = 400, description = "link_invalid, or password rules per field", body = ErrorBody)))]
async fn activate_account(State(s): State<AppState>, ApiJson(req): ApiJson<ActivationRequest>) -> Result<Json<Message>, ApiError> {
    let missing = FieldErrors::blank(&[("token", &req.token), ("password", &req.password), ("confirm_password", &req.confirm_password)]);
    if !missing.is_empty() {
        return Err(ApiError::validation(missing));
    }
    customers::activate_with_link(&s, &req.token, &req.password, &req.confirm_password).await?;
    Ok(Json(Message { message: Msg::AccountActivated }))
}

#[derive(Serialize, ToSchema)]
pub struct UserState {
    pub uid: String,
    pub active: bool,
}

/// Deactivate a user (admin; any non-admin user). Their sessions end at once.
#[utoipa::path(post, path = "/api/user/deactivate/{uid}/", tag = "customers", security(("bearer" = [])),
    params(("uid" = String, Path, description = "User uid")),
    responses((status = 200, body = UserState), (status = 400, description = "cannot_change_admin", body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 406, body = ErrorBody)))]
async fn deactivate_user(Caller(s, user): Caller, ApiPath(uid): ApiPath<String>) -> Result<Json<UserState>, ApiError> {
    let target = customers::deactivate_user(&s, &user, &uid).await?;
    Ok(Json(UserState { uid: target.uid, active: target.active }))
}

/// Reactivate a user (admin; any non-admin user; pending customers are approved instead).
#[utoipa::path(post, path = "/api/user/activate/{uid}/", tag = "customers", security(("bearer" = [])),
    params(("uid" = String, Path, description = "User uid")),
    responses((status = 200, body = UserState), (status = 400, description = "cannot_change_admin or customer_pending", body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 406, body = ErrorBody)))]
async fn activate_user(Caller(s, user): Caller, ApiPath(uid): ApiPath<String>) -> Result<Json<UserState>, ApiError> {
    let target = customers::activate_user(&s, &user, &uid).await?;
    Ok(Json(UserState { uid: target.uid, active: target.active }))
}

/// Spec §3 entity counts.
#[derive(Serialize, ToSchema)]
pub struct Bubbles {
    pub pending_cases: u64,
    pub pending_customers: u64,
}

/// Entity counts for the admin menu badges (polled every 10 minutes).
#[utoipa::path(get, path = "/api/bubbles/", tag = "customers", security(("bearer" = [])),
    responses((status = 200, body = Bubbles), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn bubbles(Caller(s, user): Caller) -> Result<Json<Bubbles>, ApiError> {
    let counts = customers::counts(&s, &user).await?;
    Ok(Json(Bubbles { pending_cases: counts.pending_cases, pending_customers: counts.pending_customers }))
}

/// The customer's data exports (GDPR art. 15 and 20), newest first, each
/// with its progress and, while ready, a download link valid until its
/// expiry (7 days after it was made). The customer itself, or admin.
#[utoipa::path(get, path = "/api/customer/data-export/{uid}/", tag = "customers", security(("bearer" = [])),
    params(("uid" = String, Path, description = "Customer uid")),
    responses((status = 200, body = [ExportView]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn data_exports(Caller(s, user): Caller, ApiPath(uid): ApiPath<String>) -> Result<Json<Vec<ExportView>>, ApiError> {
    Ok(Json(data_rights::exports(&s, &user, &uid).await?))
}

/// Asks for an export of everything the platform holds about the customer:
/// built in the background (follow its progress with the GET), one ZIP of
/// JSON files and the customer's files, announced by mail. One at a time
/// per customer. The customer itself, or admin.
#[utoipa::path(post, path = "/api/customer/data-export/{uid}/", tag = "customers", security(("bearer" = [])),
    params(("uid" = String, Path, description = "Customer uid"), Idempotency),
    responses((status = 202, body = ExportView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, description = "export_running: an export of this customer is being made", body = ErrorBody)))]
async fn request_data_export(
    Caller(s, user): Caller,
    idem: Idempotency,
    ApiPath(uid): ApiPath<String>,
) -> Result<(StatusCode, Json<ExportView>), ApiError> {
    let once = idem.begin(&s, &user, StatusCode::ACCEPTED, None).await?;
    Ok((StatusCode::ACCEPTED, Json(data_rights::request_export(&s, &user, &uid, &once).await?)))
}

/// The customer's requests to be forgotten (GDPR art. 17), newest first:
/// their state, a refusal's reason, and once approved what was kept (the
/// case files under legal hold, the audit trail) and until when. The
/// customer itself, or admin.
#[utoipa::path(get, path = "/api/customer/erasure/{uid}/", tag = "customers", security(("bearer" = [])),
    params(("uid" = String, Path, description = "Customer uid")),
    responses((status = 200, body = [ErasureRequest]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn erasure_requests(Caller(s, user): Caller, ApiPath(uid): ApiPath<String>) -> Result<Json<Vec<ErasureRequest>>, ApiError> {
    Ok(Json(erasure::requests_of(&s, &user, &uid).await?))
}

/// The customer asks to be forgotten; admin decides. Only the customer's
/// own account (never a contact, never staff on its behalf); one open
/// request at a time.
#[utoipa::path(post, path = "/api/customer/erasure/{uid}/", tag = "customers", security(("bearer" = [])),
    params(("uid" = String, Path, description = "Customer uid"), Idempotency),
    responses((status = 201, body = ErasureRequest), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, description = "erasure_open: a request of this customer awaits its decision", body = ErrorBody)))]
async fn request_erasure(c: Creating, ApiPath(uid): ApiPath<String>) -> Result<Created<ErasureRequest>, ApiError> {
    let once = c.once(None).await?;
    Ok(Created(erasure::request(&c.state, &c.user, &uid, &once).await?))
}

/// Admin approves (the customer is erased at once, its cases kept under
/// legal hold) or refuses with a reason; the customer is told by mail.
/// Approving a request whose erasure stopped half-way finishes it.
#[utoipa::path(post, path = "/api/customer/erasure/{uid}/{id}/decide/", tag = "customers", security(("bearer" = [])),
    params(("uid" = String, Path, description = "Customer uid"), ("id" = String, Path, description = "Erasure request id")),
    request_body = Decision,
    responses((status = 200, body = ErasureRequest),
        (status = 400, description = "reason: required or too_long (to refuse)", body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, description = "erasure_decided: the request was decided already", body = ErrorBody)))]
async fn decide_erasure(
    Caller(s, user): Caller,
    ApiPath((uid, id)): ApiPath<(String, String)>,
    ApiJson(req): ApiJson<Decision>,
) -> Result<Json<ErasureRequest>, ApiError> {
    Ok(Json(erasure::decide(&s, &user, &uid, &id, &req).await?))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DataRequestQuery {
    /// Only requests in this state: an export's queued, running, ready,
    /// failed or expired; an erasure's pending, approved, erased or refused.
    pub status: Option<String>,
    /// The `next` of the previous page.
    pub cursor: Option<String>,
}

/// Every customer's data-rights requests (exports and erasures), newest
/// first, 20 a page, optionally in one state: admin.
#[utoipa::path(get, path = "/api/data-requests/", tag = "customers", security(("bearer" = [])), params(DataRequestQuery),
    responses((status = 200, body = RequestPage), (status = 400, description = "status: invalid", body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn data_requests(
    Caller(s, user): Caller,
    query: Result<ApiQuery<DataRequestQuery>, ApiError>,
) -> Result<Json<RequestPage>, ApiError> {
    let q = match query {
        Ok(ApiQuery(q)) => q,
        Err(_) => {
            policy::require(&user, Action::DecideErasure)?;
            return Err(ApiError::bad(Msg::InvalidQuery));
        }
    };
    Ok(Json(erasure::all_requests(&s, &user, q.status.as_deref(), q.cursor.as_deref()).await?))
}

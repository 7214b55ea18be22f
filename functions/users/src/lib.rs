//! Customer contacts with their permissions, and the profile page: the
//! signed-in user's permission codes, a customer's contacts (list, create
//! with an activation mail, read, update, deactivate, activate), and profile
//! names, phone and image. Routes and request parsing only; the rules live in
//! `shared::domain::{permissions, contact}`, `shared::services::contacts` and `shared::services::profile`.

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use shared::api::{ApiJson, ApiPath, ApiQuery, AppState, Caller, Created, Creating, CurrentUser, ErrorBody, Idempotency};
use shared::domain::{policy, Permission, SessionUser, User};
use shared::error::{ApiError, Msg};
use shared::services::contacts::{self, ContactForm};
use shared::services::{event_mail, profile};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(my_permissions))
        .routes(routes!(all_permissions))
        .routes(routes!(list_contacts))
        .routes(routes!(create_contact))
        .routes(routes!(get_contact))
        .routes(routes!(update_contact))
        .routes(routes!(deactivate_contact))
        .routes(routes!(activate_contact))
        .routes(routes!(send_contact_password_link))
        .routes(routes!(update_profile))
        .routes(routes!(image_upload_url))
        .routes(routes!(confirm_image))
        .routes(routes!(mail_settings, save_mail_settings))
        .routes(routes!(unsubscribe))
}

/// Mail when something happens (a new message, a case accepted, closed or
/// reopened, hours logged, a subscription about to end): on unless turned off.
#[derive(Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"on": true, "language": "sv"}))]
pub struct MailSettings {
    /// Whether such mail is sent (at most one per case every 15 minutes).
    pub on: bool,
    /// The mails' language: `sv` (default, also when blank) or `en`.
    #[serde(default)]
    #[schema(pattern = r"^\s*(sv|en)?\s*$")]
    pub language: String,
}

impl From<event_mail::MailPrefs> for MailSettings {
    fn from(p: event_mail::MailPrefs) -> Self {
        MailSettings { on: p.on, language: p.language }
    }
}

/// The signed-in user's mail setting.
#[utoipa::path(get, path = "/api/profile/mail/", tag = "profile", security(("bearer" = [])),
    responses((status = 200, body = MailSettings), (status = 401, body = ErrorBody)))]
async fn mail_settings(Caller(s, user): Caller) -> Result<Json<MailSettings>, ApiError> {
    Ok(Json(event_mail::prefs(&s, &user).await?.into()))
}

/// Saves the signed-in user's mail setting.
#[utoipa::path(put, path = "/api/profile/mail/", tag = "profile", security(("bearer" = [])), request_body = MailSettings,
    responses((status = 200, body = MailSettings), (status = 400, description = "language: invalid", body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn save_mail_settings(Caller(s, user): Caller, ApiJson(req): ApiJson<MailSettings>) -> Result<Json<MailSettings>, ApiError> {
    Ok(Json(event_mail::save(&s, &user, req.on, &req.language).await?.into()))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"token": "the token of the mail's unsubscribe link"}))]
pub struct UnsubscribeRequest {
    #[serde(default)]
    #[schema(required = true, max_length = 200)]
    pub token: String,
}

/// The unsubscribe link of an event mail (no sign-in): turns its user's
/// mail off. 400 `link_invalid` when the link is not a real one.
#[utoipa::path(post, path = "/api/profile/mail/unsubscribe/", tag = "profile", request_body = UnsubscribeRequest,
    responses((status = 200, body = MailSettings), (status = 400, description = "link_invalid: not a real link", body = ErrorBody)))]
async fn unsubscribe(State(s): State<AppState>, ApiJson(req): ApiJson<UnsubscribeRequest>) -> Result<Json<MailSettings>, ApiError> {
    Ok(Json(event_mail::unsubscribe(&s, &req.token).await?.into()))
}

/// The signed-in user's permission codes.
#[derive(Serialize, ToSchema)]
pub struct PermissionList {
    pub permissions: Vec<Permission>,
}

/// The signed-in user's customer-contact permission codes (spec §3). Every
/// role but the contact holds all of them.
#[utoipa::path(get, path = "/api/permission/", tag = "users", security(("bearer" = [])),
    responses((status = 200, body = PermissionList), (status = 401, body = ErrorBody)))]
async fn my_permissions(CurrentUser(user): CurrentUser) -> Json<PermissionList> {
    Json(PermissionList { permissions: policy::permission::effective(&user) })
}

/// Every permission a customer contact may be given (spec §3), in the
/// order the contact form lists them; the web names each in the reader's
/// language.
///
/// Spec §7 `permissions/` (the catalogue; `permission/` is the caller's own):
/// the same shape and access as `GET permission/` (any signed-in user).
#[utoipa::path(get, path = "/api/permissions/", tag = "users", security(("bearer" = [])),
    responses((status = 200, body = PermissionList), (status = 401, body = ErrorBody)))]
async fn all_permissions(CurrentUser(_user): CurrentUser) -> Json<PermissionList> {
    Json(PermissionList { permissions: Permission::ALL.to_vec() })
}

/// A customer contact as the contact screens show it.
#[derive(Serialize, ToSchema)]
pub struct Contact {
    pub uid: String,
    pub id: u64,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub full_name: String,
    pub phone: Option<String>,
    pub permissions: Vec<Permission>,
    /// Personnummer (`XXXXXX-XXXX`), when given.
    pub identity_number: Option<String>,
    pub active: bool,
    pub customer_id: Option<String>,
    /// RFC 3339.
    #[schema(value_type = String, format = DateTime)]
    pub created_at: chrono::DateTime<chrono::Utc>,
}

impl From<User> for Contact {
    fn from(u: User) -> Self {
        let permissions = shared::domain::policy::permission::listed(&u);
        Contact {
            full_name: u.full_name(),
            uid: u.uid,
            id: u.id,
            email: u.email,
            first_name: u.first_name,
            last_name: u.last_name,
            phone: u.phone,
            permissions,
            identity_number: u.identity_number,
            active: u.active,
            customer_id: u.customer_id,
            created_at: u.created_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct ContactList {
    /// Newest first, at most 10.
    pub results: Vec<Contact>,
    /// Cursor of the next page; absent on the last one.
    pub next: Option<String>,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Customer uid (admin and sales person only; others get their own company's).
    pub customer: Option<String>,
    /// `next` of the previous page.
    pub cursor: Option<String>,
}

/// The contacts of the caller's customer, newest first, 10 a page. Admin and
/// sales person name the customer with `?customer=`.
#[utoipa::path(get, path = "/api/user/list/", tag = "users", security(("bearer" = [])), params(ListQuery),
    responses(
        (status = 200, body = ContactList),
        (status = 400, description = "customer missing or unknown (admin, sales), invalid_cursor", body = ErrorBody),
        (status = 403, description = "Lawyer, or a contact without view_contact", body = ErrorBody)))]
async fn list_contacts(Caller(s, user): Caller, ApiQuery(q): ApiQuery<ListQuery>) -> Result<Json<ContactList>, ApiError> {
    let page = contacts::list(&s, &user, q.customer.as_deref(), q.cursor.as_deref()).await?;
    Ok(Json(ContactList { results: page.contacts.into_iter().map(Contact::from).collect(), next: page.next }))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"customer": "0b7e2c1a-5d7f-4c3e-9a1b-2f6d8e4c1a00", "first_name": "Ny", "last_name": "Kontakt",
    "email": "ny.kontakt@example.com", "phone": "+46701234567", "permissions": ["add_case"]}))]
pub struct CreateContactRequest {
    /// Customer uid: required for admin and sales person, ignored for others.
    #[serde(default, deserialize_with = "shared::domain::text::clean::opt_uuid")]
    #[schema(format = "uuid")]
    pub customer: Option<String>,
    #[serde(default, deserialize_with = "shared::domain::text::clean::name")]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub first_name: String,
    #[serde(default, deserialize_with = "shared::domain::text::clean::name")]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub last_name: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 254, format = Email)]
    pub email: String,
    #[serde(default)]
    pub phone: Option<String>,
    /// Permission codes, e.g. `["add_case", "view_bisnode"]`.
    #[serde(default)]
    pub permissions: Vec<String>,
    /// Personnummer (optional): 10 or 12 digits, with or without dash, right check digit.
    #[serde(default)]
    pub identity_number: Option<String>,
}

/// Create a contact under the customer; it gets a single-use link (valid
/// three days) to choose its password.
#[utoipa::path(post, path = "/api/customers/user/create/", tag = "users", security(("bearer" = [])), request_body = CreateContactRequest,
    params(Idempotency),
    responses(
        (status = 201, body = Contact),
        (status = 400, description = "Per field: required, invalid_email, email_exists, invalid_phone, invalid_permission, customer_not_found", body = ErrorBody),
        (status = 403, body = ErrorBody)))]
async fn create_contact(c: Creating, ApiJson(req): ApiJson<CreateContactRequest>) -> Result<Created<Contact>, ApiError> {
    let once = c.once(None).await?;
    let form = ContactForm {
        first_name: req.first_name,
        last_name: req.last_name,
        phone: req.phone,
        permissions: req.permissions,
        identity_number: req.identity_number,
    };
    let contact =
        contacts::create(&c.state, &c.user, req.customer.as_deref(), &req.email, form, &once, |k| Contact::from(k.clone())).await?;
    Ok(Created(contact.into()))
}

/// One contact of the caller's customer (any customer's for admin and sales person).
#[utoipa::path(get, path = "/api/customers/user/{contact_id}/", tag = "users", security(("bearer" = [])),
    params(("contact_id" = String, Path, description = "The contact's uid")),
    responses((status = 200, body = Contact), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_contact(Caller(s, user): Caller, ApiPath(contact_id): ApiPath<String>) -> Result<Json<Contact>, ApiError> {
    Ok(Json(contacts::get(&s, &user, &contact_id).await?.into()))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"first_name": "Ny", "last_name": "Kontakt", "phone": "+46701234567", "permissions": ["add_case"]}))]
pub struct UpdateContactRequest {
    #[serde(default, deserialize_with = "shared::domain::text::clean::name")]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub first_name: String,
    #[serde(default, deserialize_with = "shared::domain::text::clean::name")]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub last_name: String,
    #[serde(default)]
    pub phone: Option<String>,
    #[serde(default)]
    pub permissions: Vec<String>,
    /// Personnummer (optional); empty or absent clears it.
    #[serde(default)]
    pub identity_number: Option<String>,
}

/// Names, phone and permissions. The e-mail is not changed here.
#[utoipa::path(put, path = "/api/customers/user/update/{contact_id}/", tag = "users", security(("bearer" = [])),
    params(("contact_id" = String, Path)), request_body = UpdateContactRequest,
    responses(
        (status = 200, body = Contact),
        (status = 400, body = ErrorBody),
        (status = 403, description = "No view_contact, or a contact editing itself", body = ErrorBody),
        (status = 404, description = "Not a contact of the caller's customer", body = ErrorBody)))]
async fn update_contact(
    Caller(s, user): Caller,
    ApiPath(contact_id): ApiPath<String>,
    ApiJson(req): ApiJson<UpdateContactRequest>,
) -> Result<Json<Contact>, ApiError> {
    let form = ContactForm {
        first_name: req.first_name,
        last_name: req.last_name,
        phone: req.phone,
        permissions: req.permissions,
        identity_number: req.identity_number,
    };
    Ok(Json(contacts::update(&s, &user, &contact_id, form).await?.into()))
}

/// Deactivate: the contact cannot sign in and its live sessions end.
#[utoipa::path(post, path = "/api/customers/user/deactivate/{contact_id}/", tag = "users", security(("bearer" = [])),
    params(("contact_id" = String, Path)),
    responses((status = 200, body = Contact), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn deactivate_contact(Caller(s, user): Caller, ApiPath(contact_id): ApiPath<String>) -> Result<Json<Contact>, ApiError> {
    Ok(Json(contacts::set_active(&s, &user, &contact_id, false).await?.into()))
}

/// Activate a deactivated contact again.
#[utoipa::path(post, path = "/api/customers/user/activate/{contact_id}/", tag = "users", security(("bearer" = [])),
    params(("contact_id" = String, Path)),
    responses((status = 200, body = Contact), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn activate_contact(Caller(s, user): Caller, ApiPath(contact_id): ApiPath<String>) -> Result<Json<Contact>, ApiError> {
    Ok(Json(contacts::set_active(&s, &user, &contact_id, true).await?.into()))
}

#[derive(Serialize, ToSchema)]
pub struct LinkSent {
    /// `password_link_sent`
    pub message: Msg,
}

/// Mail the contact a new set-password link (admin, sales person, the
/// customer, a contact with view_contact; not to oneself).
#[utoipa::path(post, path = "/api/customers/user/send-password-link/{contact_id}/", tag = "users", security(("bearer" = [])),
    params(("contact_id" = String, Path)),
    responses((status = 200, body = LinkSent), (status = 400, description = "A parameter is missing or invalid, or could_not_send_mail: the mail service refused the mail (nothing is sent later)", body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn send_contact_password_link(Caller(s, user): Caller, ApiPath(contact_id): ApiPath<String>) -> Result<Json<LinkSent>, ApiError> {
    contacts::send_password_link(&s, &user, &contact_id).await?;
    Ok(Json(LinkSent { message: Msg::PasswordLinkSent }))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"first_name": "Anna", "last_name": "Berg", "phone": "+46701234567"}))]
pub struct ProfileUpdateRequest {
    #[serde(default, deserialize_with = "shared::domain::text::clean::name")]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub first_name: String,
    #[serde(default, deserialize_with = "shared::domain::text::clean::name")]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub last_name: String,
    #[serde(default)]
    pub phone: Option<String>,
}

/// Update the signed-in user's names and phone (not admin: no profile page).
#[utoipa::path(put, path = "/api/profile/update/", tag = "profile", security(("bearer" = [])), request_body = ProfileUpdateRequest,
    responses((status = 200, body = SessionUser), (status = 400, body = ErrorBody), (status = 403, description = "Admin", body = ErrorBody)))]
async fn update_profile(Caller(s, user): Caller, ApiJson(req): ApiJson<ProfileUpdateRequest>) -> Result<Json<SessionUser>, ApiError> {
    Ok(Json(profile::update(&s, user, &req.first_name, &req.last_name, req.phone.as_deref()).await?))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"content_type": "image/png"}))]
pub struct UploadUrlRequest {
    /// `image/jpeg` or `image/png` (the server also takes other letter cases).
    #[serde(default)]
    #[schema(required = true, min_length = 1, pattern = "^image/(jpeg|jpg|png)$")]
    pub content_type: String,
}

#[derive(Serialize, ToSchema)]
pub struct UploadUrl {
    /// PUT the file here with exactly `content_type` as Content-Type; valid 15 minutes.
    pub url: String,
    /// Send back to the confirm call.
    pub key: String,
    pub content_type: String,
    pub max_bytes: i64,
}

/// A presigned S3 PUT for a new profile image (JPEG or PNG, at most 2 MiB).
#[utoipa::path(post, path = "/api/profile/image/upload-url/", tag = "profile", security(("bearer" = [])), request_body = UploadUrlRequest,
    responses((status = 200, body = UploadUrl), (status = 400, description = "image_type_not_allowed", body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn image_upload_url(Caller(s, user): Caller, ApiJson(req): ApiJson<UploadUrlRequest>) -> Result<Json<UploadUrl>, ApiError> {
    let t = profile::upload_url(&s, &user, &req.content_type).await?;
    Ok(Json(UploadUrl { url: t.url, key: t.key, content_type: t.content_type.into(), max_bytes: shared::domain::contact::IMAGE_MAX_BYTES }))
}

#[derive(Deserialize, ToSchema)]
#[schema(example = json!({"key": "the key of the upload-url answer"}))]
pub struct ConfirmImageRequest {
    /// The `key` of the upload-url answer.
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub key: String,
}

/// Check the uploaded object (exists, ≤ 2 MiB, JPEG/PNG bytes) and make it
/// the profile image; a bad object is deleted.
#[utoipa::path(post, path = "/api/profile/image/confirm/", tag = "profile", security(("bearer" = [])), request_body = ConfirmImageRequest,
    responses(
        (status = 200, description = "The session user with the new image URL", body = SessionUser),
        (status = 400, description = "image_not_uploaded, image_too_large, image_invalid, or key invalid", body = ErrorBody),
        (status = 403, body = ErrorBody)))]
async fn confirm_image(Caller(s, user): Caller, ApiJson(req): ApiJson<ConfirmImageRequest>) -> Result<Json<SessionUser>, ApiError> {
    Ok(Json(profile::confirm_image(&s, user, &req.key).await?))
}

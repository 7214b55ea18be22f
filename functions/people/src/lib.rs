//! Lawyers and sales persons (spec §2 admin routes, §3, §6): only admin
//! creates and edits them; each new account gets a single-use link by mail to
//! choose a password. Lists read one index partition each, newest first.

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use shared::api::{ApiJson, AppState, CurrentUser, ErrorBody};
use shared::domain::staff::{StaffFields, StaffInput};
use shared::domain::{Role, User, UserSubType};
use shared::error::Msg;
use shared::error::{ApiError, FieldErrors};
use shared::services::accounts::{create_account_with, NewAccount};
use shared::services::credentials::passwords::send_invitation;
use shared::store::catalogue::NamedKind;
use shared::store::keys::staff::list_gsi1pk as list_partition;
use shared::store::staff::{staff_item, StaffPage, StaffProfile};
use shared::store::users::CreateUserWithError;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

/// Lists fetch 10 items (spec §9).
pub const PAGE_SIZE: i32 = 10;
/// Dropdowns show at most this many names.
pub const DROPDOWN_LIMIT: usize = 20;

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_lawyer))
        .routes(routes!(list_lawyers))
        .routes(routes!(lawyer_dropdown))
        .routes(routes!(get_lawyer))
        .routes(routes!(update_lawyer))
        .routes(routes!(create_sales_person))
        .routes(routes!(list_sales_persons))
        .routes(routes!(get_sales_person))
        .routes(routes!(update_sales_person))
        .routes(routes!(send_password_link))
}

/// Spec §6: only admin creates (and here edits and lists) lawyers and sales persons.
fn admin_only(user: &User) -> Result<(), ApiError> {
    if user.role() == Some(Role::Admin) {
        Ok(())
    } else {
        Err(ApiError::ForbiddenBy(Msg::OnlyAdminCreatesStaff))
    }
}

/// The form's rules, then that every chosen knowledge sector exists.
async fn checked(s: &AppState, input: &StaffInput, role: Role) -> Result<StaffFields, ApiError> {
    let fields = input.validate(role)?;
    if let Some(lawyer) = &fields.lawyer {
        for id in &lawyer.knowledge_sectors {
            if s.store.get_named(NamedKind::KnowledgeSector, *id).await?.is_none() {
                let mut f = FieldErrors::new();
                f.add("knowledge_sectors", Msg::UnknownKnowledgeSector);
                return Err(ApiError::validation(f));
            }
        }
    }
    Ok(fields)
}

async fn create(s: &AppState, role: Role, input: StaffInput) -> Result<StaffProfile, ApiError> {
    let fields = checked(s, &input, role).await?;
    // Nobody knows this password: the owner chooses one through the mailed link.
    let unusable = format!("{}{}", uuid::Uuid::new_v4(), uuid::Uuid::new_v4());
    let mut profile = None;
    let res = create_account_with(
        &s.store,
        NewAccount {
            email: &fields.email,
            password: &unusable,
            first_name: &fields.first_name,
            last_name: &fields.last_name,
            role,
            user_sub_type: fields.lawyer.as_ref().map(|l| l.user_sub_type),
            customer_id: None,
            company_id: None,
            active: true,
        },
        |user| {
            let p = StaffProfile {
                uid: user.uid.clone(),
                role,
                first_name: user.first_name.clone(),
                last_name: user.last_name.clone(),
                email: user.email.clone(),
                active: true,
                created_at: user.created_at,
                lawyer: fields.lawyer.clone(),
            };
            let put = aws_sdk_dynamodb::types::Put::builder()
                .table_name(&s.store.table)
                .set_item(Some(staff_item(&p)?))
                .condition_expression("attribute_not_exists(PK)")
                .build()
                .map_err(ApiError::internal)?;
            profile = Some(p);
            Ok(vec![put])
        },
    )
    .await;
    let user = match res {
        Ok(u) => u,
        Err(CreateUserWithError::EmailTaken) => {
            let mut f = FieldErrors::new();
            f.add("email", Msg::EmailExists);
            return Err(ApiError::BadRequest { message: Msg::EmailExists, fields: f });
        }
        Err(CreateUserWithError::ItemTaken(_)) => return Err(ApiError::internal("staff profile already exists")),
        Err(CreateUserWithError::Other(e)) => return Err(e),
    };
    send_invitation(s, &user).await?;
    profile.ok_or_else(|| ApiError::internal("profile not built"))
}

async fn update(s: &AppState, role: Role, uid: &str, input: StaffInput) -> Result<StaffProfile, ApiError> {
    let mut user = s.store.get_user(uid).await?.filter(|u| u.role() == Some(role)).ok_or(ApiError::NotFound)?;
    let mut profile = s.store.get_staff(uid).await?.ok_or(ApiError::NotFound)?;
    // The e-mail is the sign-in name and has its own uniqueness item: it is not
    // changed here, whatever the form sends.
    let input = StaffInput { email: user.email.clone(), ..input };
    let fields = checked(s, &input, role).await?;
    user.first_name = fields.first_name.clone();
    user.last_name = fields.last_name.clone();
    user.user_sub_type = fields.lawyer.as_ref().map(|l| l.user_sub_type);
    profile.first_name = fields.first_name;
    profile.last_name = fields.last_name;
    profile.lawyer = fields.lawyer;
    profile.active = user.active;
    s.store.put_staff(&user, &profile).await?;
    Ok(profile)
}

#[derive(Deserialize, IntoParams)]
pub struct ListParams {
    /// Lawyers: `internal` (default) or `external`.
    #[serde(default, rename = "type")]
    pub kind: Option<UserSubType>,
    /// From the previous page's `next`.
    pub cursor: Option<String>,
}

/// A cursor is the last row's `<created_at>#<uid>`; anything else is refused
/// before it reaches the table.
fn valid_cursor(cursor: Option<&str>) -> Result<Option<&str>, ApiError> {
    let Some(c) = cursor.filter(|c| !c.is_empty()) else { return Ok(None) };
    let ok =
        c.rsplit_once('#').is_some_and(|(at, uid)| chrono::DateTime::parse_from_rfc3339(at).is_ok() && uuid::Uuid::parse_str(uid).is_ok());
    if ok {
        Ok(Some(c))
    } else {
        let mut f = FieldErrors::new();
        f.add("cursor", Msg::InvalidCursor);
        Err(ApiError::validation(f))
    }
}

/// Create a lawyer (admin). Internal or external; an external lawyer needs a
/// company name and an hourly rate.
#[utoipa::path(post, path = "/api/lawyer/create/", tag = "people", request_body = StaffInput,
    responses(
        (status = 201, description = "Created; a set-password link was mailed", body = StaffProfile),
        (status = 400, description = "Validation (external_lawyer_requires_company_and_rate, email_exists, …)", body = ErrorBody),
        (status = 403, description = "Not admin", body = ErrorBody),
    ))]
async fn create_lawyer(
    State(s): State<AppState>,
    CurrentUser(me): CurrentUser,
    ApiJson(input): ApiJson<StaffInput>,
) -> Result<(StatusCode, Json<StaffProfile>), ApiError> {
    admin_only(&me)?;
    Ok((StatusCode::CREATED, Json(create(&s, Role::Lawyer, input).await?)))
}

/// Lawyers of one kind, newest first, 10 per page (admin).
#[utoipa::path(get, path = "/api/lawyer/list/", tag = "people", params(ListParams),
    responses((status = 200, body = StaffPage), (status = 403, body = ErrorBody)))]
async fn list_lawyers(
    State(s): State<AppState>,
    CurrentUser(me): CurrentUser,
    Query(p): Query<ListParams>,
) -> Result<Json<StaffPage>, ApiError> {
    admin_only(&me)?;
    let partition = list_partition(Role::Lawyer, p.kind);
    Ok(Json(s.store.list_staff(&partition, PAGE_SIZE, valid_cursor(p.cursor.as_deref())?).await?))
}

#[derive(Deserialize, IntoParams)]
pub struct DropdownParams {
    #[serde(default)]
    pub search: String,
}

#[derive(Serialize, ToSchema)]
pub struct LawyerOption {
    pub uid: String,
    pub full_name: String,
    pub user_sub_type: Option<UserSubType>,
}

/// Active lawyers whose name or e-mail contains `search` (admin, sales
/// persons and lawyers pick a lawyer for a case).
#[utoipa::path(get, path = "/api/lawyer/dropdown/list/", tag = "people", params(DropdownParams),
    responses((status = 200, body = Vec<LawyerOption>), (status = 403, body = ErrorBody)))]
async fn lawyer_dropdown(
    State(s): State<AppState>,
    CurrentUser(me): CurrentUser,
    Query(p): Query<DropdownParams>,
) -> Result<Json<Vec<LawyerOption>>, ApiError> {
    if !matches!(me.role(), Some(Role::Admin | Role::SalesPerson | Role::Lawyer)) {
        return Err(ApiError::Forbidden);
    }
    let needle = p.search.trim().to_lowercase();
    let mut out = Vec::new();
    for kind in [UserSubType::Internal, UserSubType::External] {
        // Lawyers are a firm's staff: a few hundred at most, read page by page.
        let partition = list_partition(Role::Lawyer, Some(kind));
        let mut cursor: Option<String> = None;
        loop {
            let page = s.store.list_staff(&partition, 100, cursor.as_deref()).await?;
            for l in page.results.into_iter().filter(|l| l.active) {
                let name = format!("{} {}", l.first_name, l.last_name);
                if needle.is_empty() || name.to_lowercase().contains(&needle) || l.email.contains(&needle) {
                    out.push(LawyerOption { uid: l.uid, full_name: name, user_sub_type: Some(kind) });
                }
            }
            match page.next {
                Some(n) if out.len() < DROPDOWN_LIMIT => cursor = Some(n),
                _ => break,
            }
        }
    }
    out.sort_by_key(|a| a.full_name.to_lowercase());
    out.truncate(DROPDOWN_LIMIT);
    Ok(Json(out))
}

/// One lawyer (admin).
#[utoipa::path(get, path = "/api/lawyer/{uid}/", tag = "people", params(("uid" = String, Path)),
    responses((status = 200, body = StaffProfile), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_lawyer(
    State(s): State<AppState>,
    CurrentUser(me): CurrentUser,
    Path(uid): Path<String>,
) -> Result<Json<StaffProfile>, ApiError> {
    admin_only(&me)?;
    s.store.get_staff(&uid).await?.filter(|p| p.role == Role::Lawyer).map(Json).ok_or(ApiError::NotFound)
}

/// Update a lawyer (admin). The e-mail stays as it is.
#[utoipa::path(put, path = "/api/lawyer/update/{uid}/", tag = "people", params(("uid" = String, Path)), request_body = StaffInput,
    responses((status = 200, body = StaffProfile), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn update_lawyer(
    State(s): State<AppState>,
    CurrentUser(me): CurrentUser,
    Path(uid): Path<String>,
    ApiJson(input): ApiJson<StaffInput>,
) -> Result<Json<StaffProfile>, ApiError> {
    admin_only(&me)?;
    Ok(Json(update(&s, Role::Lawyer, &uid, input).await?))
}

/// Create a sales person (admin).
#[utoipa::path(post, path = "/api/salesperson/create/", tag = "people", request_body = StaffInput,
    responses(
        (status = 201, description = "Created; a set-password link was mailed", body = StaffProfile),
        (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody),
    ))]
async fn create_sales_person(
    State(s): State<AppState>,
    CurrentUser(me): CurrentUser,
    ApiJson(input): ApiJson<StaffInput>,
) -> Result<(StatusCode, Json<StaffProfile>), ApiError> {
    admin_only(&me)?;
    Ok((StatusCode::CREATED, Json(create(&s, Role::SalesPerson, input).await?)))
}

/// Sales persons, newest first, 10 per page (admin).
#[utoipa::path(get, path = "/api/salesperson/list/", tag = "people", params(ListParams),
    responses((status = 200, body = StaffPage), (status = 403, body = ErrorBody)))]
async fn list_sales_persons(
    State(s): State<AppState>,
    CurrentUser(me): CurrentUser,
    Query(p): Query<ListParams>,
) -> Result<Json<StaffPage>, ApiError> {
    admin_only(&me)?;
    let partition = list_partition(Role::SalesPerson, None);
    Ok(Json(s.store.list_staff(&partition, PAGE_SIZE, valid_cursor(p.cursor.as_deref())?).await?))
}

/// One sales person (admin).
#[utoipa::path(get, path = "/api/salesperson/{uid}/", tag = "people", params(("uid" = String, Path)),
    responses((status = 200, body = StaffProfile), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_sales_person(
    State(s): State<AppState>,
    CurrentUser(me): CurrentUser,
    Path(uid): Path<String>,
) -> Result<Json<StaffProfile>, ApiError> {
    admin_only(&me)?;
    s.store.get_staff(&uid).await?.filter(|p| p.role == Role::SalesPerson).map(Json).ok_or(ApiError::NotFound)
}

/// Update a sales person (admin).
#[utoipa::path(put, path = "/api/salesperson/update/{uid}/", tag = "people", params(("uid" = String, Path)), request_body = StaffInput,
    responses((status = 200, body = StaffProfile), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn update_sales_person(
    State(s): State<AppState>,
    CurrentUser(me): CurrentUser,
    Path(uid): Path<String>,
    ApiJson(input): ApiJson<StaffInput>,
) -> Result<Json<StaffProfile>, ApiError> {
    admin_only(&me)?;
    Ok(Json(update(&s, Role::SalesPerson, &uid, input).await?))
}

#[derive(Serialize, ToSchema)]
pub struct Message {
    pub message: Msg,
}

/// Mail a lawyer or sales person a new set-password link (admin), e.g. when
/// the first one expired. Earlier links stay single-use and expire on their own.
#[utoipa::path(post, path = "/api/staff/send-password-link/{uid}/", tag = "people", params(("uid" = String, Path)),
    responses((status = 200, body = Message), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn send_password_link(
    State(s): State<AppState>,
    CurrentUser(me): CurrentUser,
    Path(uid): Path<String>,
) -> Result<Json<Message>, ApiError> {
    admin_only(&me)?;
    let user =
        s.store.get_user(&uid).await?.filter(|u| matches!(u.role(), Some(Role::Lawyer | Role::SalesPerson))).ok_or(ApiError::NotFound)?;
    send_invitation(&s, &user).await?;
    Ok(Json(Message { message: Msg::PasswordLinkSent }))
}

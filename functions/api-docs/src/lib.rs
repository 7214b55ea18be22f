//! The OpenAPI document of the whole API, built from every function crate's
//! annotated routes, so it cannot fall behind the code.

use axum::Json;
use shared::api::AppState;
use std::sync::OnceLock;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::OpenApi;
use utoipa_axum::{router::OpenApiRouter, routes};

#[derive(OpenApi)]
#[openapi(
    info(title = "Legal services platform API", version = "1.0.0",
         description = "Every path follows the product specification's endpoint catalogue under /api/. Errors answer {status, message (a stable key), errors (per-field keys)}."),
    modifiers(&Bearer),
    // Named only by query parameters, which utoipa does not collect.
    components(schemas(shared::domain::case::ListOrder))
)]
struct ApiDoc;

struct Bearer;
impl utoipa::Modify for Bearer {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build()),
        );
    }
}

/// Every function crate's routes. Add a new crate here and in the gateway.
pub fn all_routes() -> Vec<OpenApiRouter<AppState>> {
    vec![
        identity::api(),
        users::api(),
        customers::api(),
        people::api(),
        catalogue::api(),
        subscriptions::api(),
        cases::api(),
        collaboration::api(),
        statistics::api(),
        content::api(),
        addons::api(),
        conflict_search::api(),
        api(),
    ]
}

pub fn document() -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    for part in all_routes() {
        doc.merge(part.split_for_parts().1);
    }
    tighten(&mut doc);
    doc
}

/// The operations anyone may call without a bearer token (issue 22: every
/// other operation is documented as secured).
pub const PUBLIC: &[(&str, &str)] = &[
    ("get", "/api/business-sector/"),
    ("get", "/api/company-size/list/"),
    ("post", "/api/create/customer/company-registration-number/check/"),
    ("post", "/api/create/customer/email/check/"),
    ("post", "/api/customer/activation/"),
    ("post", "/api/customer/activation/check/"),
    ("post", "/api/email/check/"),
    ("post", "/api/logout/"),
    ("get", "/api/openapi.json"),
    ("post", "/api/password/recover/"),
    ("post", "/api/password/recover/confirm/"),
    ("get", "/api/public/offer/"),
    ("get", "/api/public/privacy/"),
    ("get", "/api/public/terms/"),
    ("post", "/api/registration/"),
    ("post", "/api/resend/2fa/"),
    ("post", "/api/token/"),
    ("post", "/api/token/2fa/"),
    ("post", "/api/token/refresh/"),
];

fn operations(item: &mut utoipa::openapi::PathItem) -> Vec<(&'static str, &mut utoipa::openapi::path::Operation)> {
    [
        ("get", item.get.as_mut()),
        ("put", item.put.as_mut()),
        ("post", item.post.as_mut()),
        ("delete", item.delete.as_mut()),
        ("patch", item.patch.as_mut()),
        ("head", item.head.as_mut()),
        ("options", item.options.as_mut()),
        ("trace", item.trace.as_mut()),
    ]
    .into_iter()
    .filter_map(|(m, op)| op.map(|o| (m, o)))
    .collect()
}

fn error_response(description: &str) -> utoipa::openapi::RefOr<utoipa::openapi::Response> {
    use utoipa::openapi::{content::ContentBuilder, Ref, ResponseBuilder};
    ResponseBuilder::new()
        .description(description)
        .content("application/json", ContentBuilder::new().schema(Some(Ref::from_schema_name("ErrorBody"))).build())
        .build()
        .into()
}

/// What the annotations alone leave loose (issue 22, item 8): security on
/// every operation but the [`PUBLIC`] ones, 401 (and, outside the user's
/// own account operations, 403) on every secured one, unique operationIds
/// (a repeated handler name becomes method + path), and a parameter the
/// path does not name is a query parameter.
pub fn tighten(doc: &mut utoipa::openapi::OpenApi) {
    use std::collections::HashMap;
    use utoipa::openapi::path::ParameterIn;
    use utoipa::openapi::security::SecurityRequirement;
    let mut seen: HashMap<String, usize> = HashMap::new();
    for item in doc.paths.paths.values_mut() {
        for (_, op) in operations(item) {
            if let Some(id) = &op.operation_id {
                *seen.entry(id.clone()).or_default() += 1;
            }
        }
    }
    for (path, item) in doc.paths.paths.iter_mut() {
        for (method, op) in operations(item) {
            if PUBLIC.contains(&(method, path.as_str())) {
                op.security = None;
            } else {
                if op.security.as_ref().is_none_or(|s| s.is_empty()) {
                    op.security = Some(vec![SecurityRequirement::new("bearer", Vec::<String>::new())]);
                }
                let own_account = op.tags.as_ref().is_some_and(|t| t.iter().any(|t| t == "auth"));
                let responses = &mut op.responses.responses;
                responses.entry("401".into()).or_insert_with(|| error_response("Missing, expired or invalid access token"));
                if !own_account {
                    responses.entry("403".into()).or_insert_with(|| error_response("The caller's role or rights do not allow this"));
                }
            }
            if op.operation_id.as_ref().is_none_or(|id| seen.get(id).copied().unwrap_or(0) > 1) {
                let slug: String = path
                    .trim_start_matches("/api/")
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' })
                    .collect::<String>()
                    .split('_')
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join("_");
                op.operation_id = Some(format!("{method}_{slug}"));
            }
            for p in op.parameters.iter_mut().flatten() {
                if matches!(p.parameter_in, ParameterIn::Path) && !path.contains(&format!("{{{}}}", p.name)) {
                    p.parameter_in = ParameterIn::Query;
                    p.required = utoipa::openapi::Required::False;
                }
            }
        }
    }
}

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(openapi_json))
}

/// This document.
#[utoipa::path(get, path = "/api/openapi.json", tag = "meta",
    responses((status = 200, description = "OpenAPI 3.1 document of the whole API")))]
async fn openapi_json() -> Json<&'static utoipa::openapi::OpenApi> {
    static DOC: OnceLock<utoipa::openapi::OpenApi> = OnceLock::new();
    Json(DOC.get_or_init(document))
}

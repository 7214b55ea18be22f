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
    modifiers(&Bearer)
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
    doc
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

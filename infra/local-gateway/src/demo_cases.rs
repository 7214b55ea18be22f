//! Demo cases for the local platform (`infra/dev.sh`): a few cases of the
//! demo customer in every state, made through the API exactly as the demo
//! users would (customer creates, admin publishes, lawyer accepts and logs
//! hours), so the seed never bypasses a rule. Idempotent: nothing happens
//! once the demo customer has cases. Off in tests (SEED_DEMO_CASES=1 turns it on).

use axum::body::Body;
use axum::http::{header, Method, Request};
use axum::Router;
use serde_json::{json, Value};
use shared::api::AppState;
use shared::domain::catalogue::Hundredths;
use shared::domain::subscription::{whole_seconds, Grant};
use shared::error::ApiError;
use tower::ServiceExt;

use crate::seed::DEMO_CUSTOMER_EMAIL;

pub const DEMO_CASE_TYPES: [&str; 5] = ["Hyresrätt", "Arbetsrätt", "Avtalsrätt", "Familjerätt", "Bolagsrätt"];

struct Caller<'a> {
    router: &'a Router,
    token: String,
}

impl Caller<'_> {
    async fn call(&self, method: Method, path: &str, body: Option<Value>) -> Result<Value, ApiError> {
        let req = Request::builder()
            .method(method.clone())
            .uri(path)
            .header(header::AUTHORIZATION, format!("Bearer {}", self.token))
            .header(header::CONTENT_TYPE, "application/json")
            .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
            .map_err(ApiError::internal)?;
        let res = self.router.clone().oneshot(req).await.map_err(ApiError::internal)?;
        let status = res.status();
        let bytes = axum::body::to_bytes(res.into_body(), 1 << 20).await.map_err(ApiError::internal)?;
        let value: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        if !status.is_success() {
            return Err(ApiError::internal(format!("demo cases: {method} {path} answered {status}: {value}")));
        }
        Ok(value)
    }
}

async fn caller<'a>(state: &AppState, router: &'a Router, email: &str) -> Result<(Caller<'a>, String), ApiError> {
    let user = state.store.find_user_by_email(email).await?.ok_or_else(|| ApiError::internal(format!("demo cases need {email}")))?;
    let token = shared::services::credentials::start_session(state, &user).await?.access_token;
    Ok((Caller { router, token }, user.uid))
}

fn form(subject: &str, description: &str, case_type: &Value, hours: &str, counterpart: &str) -> Value {
    json!({
        "subject": subject, "description": description, "type": case_type, "estimated_hours": hours,
        "counterpart": counterpart, "contact_person": "Karin Kund",
        "address": {"address_1": "Storgatan 1", "city": "Stockholm", "country": "Sweden", "post_code": "11122"},
    })
}

/// Returns how many cases were made (0 when the demo customer already has some).
pub async fn seed_demo_cases(state: &AppState, router: &Router) -> Result<usize, ApiError> {
    let (customer, customer_uid) = caller(state, router, DEMO_CUSTOMER_EMAIL).await?;
    let existing = customer.call(Method::GET, "/api/case/list/?status=all", None).await?;
    if existing["results"].as_array().is_some_and(|r| !r.is_empty()) {
        return Ok(0);
    }
    let (admin, _) = caller(state, router, "admin@example.com").await?;
    let (lawyer, _) = caller(state, router, "lawyer@example.com").await?;
    let (sales, _) = caller(state, router, "sales@example.com").await?;

    let mut types = admin.call(Method::GET, "/api/typeofcase/list/", None).await?;
    if types.as_array().is_none_or(|t| t.is_empty()) {
        for name in DEMO_CASE_TYPES {
            admin.call(Method::POST, "/api/typeofcase/", Some(json!({"name": name, "description": ""}))).await?;
        }
        types = admin.call(Method::GET, "/api/typeofcase/list/", None).await?;
    }
    let type_id = |name: &str| {
        types.as_array().and_then(|l| l.iter().find(|t| t["name"] == name).or(l.first())).map(|t| t["id"].clone()).unwrap_or(Value::Null)
    };

    // Cases need the consultancy-hours service (spec §8).
    let now = whole_seconds(chrono::Utc::now().naive_utc());
    if state.store.current_hour_row(&customer_uid, now).await?.is_none() {
        let hours = Hundredths(20 * 100);
        shared::services::subscriptions::grant(
            state,
            &customer_uid,
            &Grant::custom("Konsulttimmar 20 h", hours, 365),
            now - chrono::Duration::seconds(1),
        )
        .await?;
    }

    // In progress with hours: created by the customer, published, accepted.
    let active = customer
        .call(
            Method::POST,
            "/api/case/create/by/customer/",
            Some(form(
                "Uppsägning av lokalhyresavtal",
                "Hyresvärden har sagt upp kontoret på Storgatan; vi vill pröva uppsägningen.",
                &type_id("Hyresrätt"),
                "8",
                "Fastighets AB Storgatan",
            )),
        )
        .await?;
    let uid = active["uid"].as_str().unwrap_or_default();
    admin.call(Method::POST, &format!("/api/case/status/{uid}/"), Some(json!({"action": "publish"}))).await?;
    lawyer.call(Method::POST, &format!("/api/case/status/{uid}/"), Some(json!({"action": "accept"}))).await?;
    let today = chrono::Utc::now().date_naive();
    for (days_ago, hour, text) in [(3, "2,5", "Genomgång av hyresavtalet"), (1, "1,25", "Brev till hyresvärden")] {
        let date = (today - chrono::Duration::days(days_ago)).to_string();
        lawyer
            .call(
                Method::POST,
                "/api/case/hour/create/",
                Some(json!({"case_uid": uid, "hour": hour, "date": date, "time": "09:00", "description": text})),
            )
            .await?;
    }

    // Available to lawyers: created by the sales person, published by admin.
    let mut body =
        form("Anställningsavtal för ny VD", "Utkast till anställningsavtal med konkurrensklausul.", &type_id("Arbetsrätt"), "4", "");
    body["customer"] = json!(customer_uid);
    body["short_internal_description"] = json!("Brådskande enligt säljaren");
    let available = sales.call(Method::POST, "/api/case/create/", Some(body)).await?;
    let uid = available["uid"].as_str().unwrap_or_default();
    admin.call(Method::POST, &format!("/api/case/status/{uid}/"), Some(json!({"action": "publish"}))).await?;

    // Pending: waits for admin to verify it.
    customer
        .call(
            Method::POST,
            "/api/case/create/by/customer/",
            Some(form(
                "Granskning av leverantörsavtal",
                "Ramavtal med ny leverantör, 3 år, vite vid försening.",
                &type_id("Avtalsrätt"),
                "3,5",
                "Leverantören AB",
            )),
        )
        .await?;
    Ok(3)
}

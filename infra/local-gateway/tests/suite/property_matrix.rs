//! The property-level matrix, beside the authorization matrix: EVERY read
//! (GET) and write (POST, PUT, PATCH) operation of the OpenAPI document,
//! called by each kind of caller, shows exactly the staff-only or foreign
//! properties that `infra/security/property-matrix.csv` says. The seeded
//! world's case gets an internal description and a lawyer's note, an
//! external lawyer with an hourly rate is added, and each property is found
//! in an answer by a marker only it carries:
//! - `internal`: the case's short internal description,
//! - `note`: the lawyer's internal note on the case,
//! - `rate`: the external lawyer's hourly rate,
//! - `subscriptions`: the customer's hour subscription row (its name): the
//!   time bank, which a contact reads only with view_time_bank,
//! - `case`: the seeded case (its uid), which a contact reads only with
//!   view_all_cases (the case was opened by staff, not by the contact),
//! - `other_tenant`: the other customer (its uid or e-mail).
//!
//! Reads share one copy of that world; each write cell runs on a fresh copy
//! (as in the authorization matrix), so a write answers with what it made or
//! changed from the same starting point for every caller.
//!
//! A cell is the properties seen (`+`-joined), `-` for an answer without
//! any, or the status when the call is refused. Besides the table, what must
//! never happen is checked on its own: the customer side (the customer, a
//! contact with and without permissions) never sees `internal`, `note` or
//! `rate`, nor `other_tenant`; the contact without permissions never sees
//! `case` nor `subscriptions`; an external lawyer never sees `subscriptions`
//! (`GET /api/customer/{uid}/` refuses them). `PROPERTY_MATRIX_RECORD=1`
//! rewrites the table from the answers (every cell is then reviewed).

use crate::world;

use axum::http::Method;
use serde_json::{json, Value};
use shared::testkit;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use world::*;

const CALLERS: [&str; 8] = ["customer", "contact", "contact_all", "lawyer", "lawyer_external", "lawyer_other", "sales_person", "admin"];
const CUSTOMER_SIDE: [&str; 3] = ["customer", "contact", "contact_all"];

const INTERNAL: &str = "INTERN-BESKRIVNING-7f3a";
const NOTE: &str = "INTERN-ANTECKNING-2c9d";
const RATE: f64 = 1234.5;
const RATE_ORE: i64 = 123_450;
/// The name of the customer's subscription row in the seeded world.
const SUBSCRIPTION: &str = "Konsulttimmar 40 h";

fn table_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../security/property-matrix.csv")
}

/// Whether a key named `hourly_rate…` anywhere in `v` holds the marker rate.
fn has_rate(v: &Value) -> bool {
    match v {
        Value::Object(m) => m
            .iter()
            .any(|(k, x)| (k.starts_with("hourly_rate") && (x.as_f64() == Some(RATE) || x.as_i64() == Some(RATE_ORE))) || has_rate(x)),
        Value::Array(a) => a.iter().any(has_rate),
        _ => false,
    }
}

/// The properties an answer shows (`other`: the other customer's uid and
/// e-mail, then the seeded case's uid).
fn properties(body: &[u8], other: &[String]) -> Vec<&'static str> {
    let (case, other) = other.split_last().expect("the case's uid");
    let text = String::from_utf8_lossy(body);
    let json: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let mut seen = vec![];
    if text.contains(INTERNAL) {
        seen.push("internal");
    }
    if text.contains(NOTE) {
        seen.push("note");
    }
    if has_rate(&json) || text.contains("1234.50") {
        seen.push("rate");
    }
    if text.contains(SUBSCRIPTION) {
        seen.push("subscriptions");
    }
    if text.contains(case.as_str()) {
        seen.push("case");
    }
    if other.iter().any(|o| text.contains(o.as_str())) {
        seen.push("other_tenant");
    }
    seen
}

/// Every read and write operation of the document, by path then method
/// (DELETE answers carry no data).
fn operations() -> Vec<(String, String)> {
    let doc = serde_json::to_value(api_docs::document()).unwrap();
    let mut out = vec![];
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            if ["get", "put", "post", "patch"].contains(&method.as_str()) {
                out.push((method.clone(), path.clone()));
            }
        }
    }
    out.sort_by(|a, b| (&a.1, &a.0).cmp(&(&b.1, &b.0)));
    out
}

/// The matrix's cell for one answer.
fn cell(status: axum::http::StatusCode, body: &[u8], other: &[String]) -> String {
    if !status.is_success() {
        return status.as_u16().to_string();
    }
    let seen = properties(body, other);
    if seen.is_empty() {
        "-".to_string()
    } else {
        seen.join("+")
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_caller_sees_only_the_properties_the_matrix_says() {
    let mut seeded = seed().await;
    let (state, router) = copy(&seeded).await;
    let ids = &seeded.ids;
    let admin = seeded.tokens["admin"].clone().unwrap();
    let lawyer = seeded.tokens["lawyer"].clone().unwrap();
    let call = |token: &str, m: Method, path: &str, body: Option<Value>| {
        let (router, token, path) = (router.clone(), token.to_string(), path.to_string());
        async move { testkit::call(&router, m, &path, Some(&token), body).await }
    };
    // The staff-only data of the world: the case's internal description
    // (staff write it), the assigned lawyer's note, an external lawyer's rate.
    let mut body = case_body(ids.case_type, None);
    body["short_internal_description"] = json!(INTERNAL);
    ok("internal description", call(&admin, Method::PUT, &format!("/api/case/update/{}/", ids.case), Some(body)).await);
    ok("note", call(&lawyer, Method::POST, "/api/case/lawyer/note/", Some(json!({"case_uid": ids.case, "note": NOTE}))).await);
    // Staff open the case once before the reads: the audit trail's answers then
    // hold it whatever order the reads (which add their own events) run in.
    ok("case opened", call(&admin, Method::GET, &format!("/api/case/{}/", ids.case), None).await);
    let email = "extern-jurist@example.com";
    let mut external = staff_body(email, ids.knowledge_sector);
    external["user_sub_type"] = json!("external");
    external["company_name"] = json!("Extern Byrå AB");
    external["hourly_rate"] = json!(RATE);
    ok("external lawyer", call(&admin, Method::POST, "/api/lawyer/create/", Some(external)).await);
    // A contact holding every permission and a second lawyer (not on the case).
    local_gateway::seed::seed_accounts(&state, &local_gateway::seed::E2E_ACCOUNTS).await.unwrap();
    let mut tokens: BTreeMap<&str, String> = BTreeMap::new();
    for caller in ["customer", "contact", "lawyer", "sales_person", "admin"] {
        tokens.insert(caller, seeded.tokens[caller].clone().unwrap());
    }
    for (caller, email) in
        [("contact_all", "contact-admin@example.com"), ("lawyer_other", "lawyer2@example.com"), ("lawyer_external", email)]
    {
        let user = state.store.find_user_by_email(email).await.unwrap().unwrap_or_else(|| panic!("{email}"));
        tokens.insert(caller, shared::services::credentials::start_session(&state, &user).await.unwrap().access_token);
    }
    let other = seeded.template.store.find_user_by_email(local_gateway::seed::DEMO_CUSTOMER2_EMAIL).await.unwrap().unwrap();
    let other = Arc::new(vec![other.uid.clone(), other.email.clone(), seeded.ids.case.clone()]);
    // This world (staff data, accounts and sessions included) is what every
    // write cell starts from.
    let world = Arc::new(World {
        snapshot: snapshot(&state).await,
        template: state,
        ids: std::mem::take(&mut seeded.ids),
        tokens: seeded.tokens.clone(),
    });
    let tokens = Arc::new(tokens);

    let operations = operations();
    let mut rows = tokio::task::JoinSet::new();
    let limit = Arc::new(tokio::sync::Semaphore::new(4));
    for (row, (method, path)) in operations.iter().cloned().enumerate() {
        let (world, reads, tokens, other, limit) = (world.clone(), router.clone(), tokens.clone(), other.clone(), limit.clone());
        rows.spawn(async move {
            let _permit = limit.acquire().await.unwrap();
            let m = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            // A write row starts on a fresh copy and takes a new one after
            // every cell that may have changed it (a refused call changes nothing).
            let mut router = if method == "get" { Some(reads) } else { None };
            let mut cells = vec![];
            for caller in CALLERS {
                let current = match router.take() {
                    Some(r) => r,
                    None => copy(&world).await.1,
                };
                let (uri, body) = request(&method, &path, &world.ids);
                let (status, _, answer) = testkit::call_bytes(&current, m.clone(), &uri, Some(&tokens[caller]), body).await;
                if method == "get" || status.is_client_error() {
                    router = Some(current);
                }
                cells.push(cell(status, &answer, &other));
            }
            (row, cells)
        });
    }
    let mut actual: Vec<Vec<String>> = vec![vec![]; operations.len()];
    while let Some(done) = rows.join_next().await {
        let (row, cells) = done.unwrap();
        actual[row] = cells;
    }
    let labels: Vec<String> = operations.iter().map(|(m, p)| format!("{} {p}", m.to_uppercase())).collect();

    // What must never happen, whatever the table says.
    let mut broken = vec![];
    for (op, row) in labels.iter().zip(&actual) {
        for (caller, cell) in CALLERS.iter().zip(row) {
            let seen: Vec<&str> = cell.split('+').collect();
            if CUSTOMER_SIDE.contains(caller) {
                for staff_only in ["internal", "note", "rate", "other_tenant"] {
                    if seen.contains(&staff_only) {
                        broken.push(format!("{op}: {caller} sees {staff_only}"));
                    }
                }
            }
            // A contact without view_all_cases and view_time_bank: neither
            // the company's case nor its hours left, in any answer.
            if *caller == "contact" {
                for hidden in ["case", "subscriptions"] {
                    if seen.contains(&hidden) {
                        broken.push(format!("{op}: a contact without the permission sees {hidden}"));
                    }
                }
            }
            if *caller == "lawyer_external" && seen.contains(&"subscriptions") {
                broken.push(format!("{op}: an external lawyer sees the customer's subscriptions"));
            }
        }
    }
    let account = CALLERS.iter().position(|c| *c == "lawyer_external").unwrap();
    let at = labels.iter().position(|p| p == "GET /api/customer/{uid}/").expect("GET /api/customer/{uid}/");
    if actual[at][account] != "403" {
        broken.push(format!("GET /api/customer/{{uid}}/: an external lawyer got {}, not 403", actual[at][account]));
    }

    let render = || {
        let mut s = format!("operation,{}\n", CALLERS.join(","));
        for (op, row) in labels.iter().zip(&actual) {
            s.push_str(&format!("{op},{}\n", row.join(",")));
        }
        s
    };
    if std::env::var_os("PROPERTY_MATRIX_RECORD").is_some() {
        std::fs::write(table_path(), render()).unwrap();
    }
    assert!(broken.is_empty(), "property matrix:\n{}", broken.join("\n"));
    let expected = std::fs::read_to_string(table_path()).expect("infra/security/property-matrix.csv");
    let expected_rows: BTreeMap<&str, &str> = expected.lines().skip(1).filter_map(|l| l.split_once(',')).collect();
    let mut differences = vec![];
    for (op, row) in labels.iter().zip(&actual) {
        let got = row.join(",");
        match expected_rows.get(op.as_str()) {
            Some(want) if *want == got => {}
            Some(want) => differences.push(format!("{op}: table {want}, router {got} ({})", CALLERS.join(","))),
            None => differences.push(format!("{op}: not in the table (router {got})")),
        }
    }
    for op in expected_rows.keys() {
        if !labels.iter().any(|l| l == op) {
            differences.push(format!("{op}: in the table, not in the document"));
        }
    }
    assert!(differences.is_empty(), "property matrix differs:\n{}", differences.join("\n"));
}

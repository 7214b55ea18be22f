//! The authorization matrix (issue 22, item 10): every GET operation of the
//! OpenAPI document that names no path parameter, called by each kind of
//! caller, answers the status `infra/security/authz-matrix.csv` says. A new
//! such operation fails the test until its row is added; a changed answer
//! fails it until the table (reviewed) is changed.
//! `AUTHZ_MATRIX_RECORD=1` rewrites the table from what the router answers.

use axum::http::Method;
use axum::Router;
use shared::api::AppState;
use shared::domain::Role;
use shared::services::accounts::{self, NewAccount};
use shared::testkit;
use std::collections::BTreeMap;
use std::path::PathBuf;

const CALLERS: [&str; 6] = ["anonymous", "customer", "contact", "lawyer", "sales_person", "admin"];

fn table_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../security/authz-matrix.csv")
}

async fn token(state: &AppState, role: Role, customer_id: Option<String>) -> (String, String) {
    let email = format!("{}-{}@example.com", role.as_str(), uuid::Uuid::new_v4().simple());
    let user = accounts::create_account(
        &state.store,
        NewAccount {
            email: &email,
            password: "Testing-pass-2026!",
            first_name: "Anna",
            last_name: "Berg",
            role,
            user_sub_type: None,
            customer_id,
            company_id: None,
            active: true,
        },
    )
    .await
    .unwrap();
    let pair = shared::services::credentials::start_session(state, &user).await.unwrap();
    (user.uid, pair.access_token)
}

fn operations() -> Vec<String> {
    let doc = serde_json::to_value(api_docs::document()).unwrap();
    let mut out: Vec<String> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(path, item)| !path.contains('{') && item.get("get").is_some())
        .map(|(path, _)| path.clone())
        .collect();
    out.sort();
    out
}

#[tokio::test]
async fn every_caller_gets_the_status_the_matrix_says() {
    let state = testkit::services().await;
    let router: Router = local_gateway::app(state.clone(), std::env::temp_dir());
    let (customer_uid, customer) = token(&state, Role::Customer, None).await;
    let (_, contact) = token(&state, Role::CustomerContact, Some(customer_uid)).await;
    let mut tokens: BTreeMap<&str, Option<String>> = BTreeMap::new();
    tokens.insert("anonymous", None);
    tokens.insert("customer", Some(customer));
    tokens.insert("contact", Some(contact));
    tokens.insert("lawyer", Some(token(&state, Role::Lawyer, None).await.1));
    tokens.insert("sales_person", Some(token(&state, Role::SalesPerson, None).await.1));
    tokens.insert("admin", Some(token(&state, Role::Admin, None).await.1));

    let mut actual: Vec<(String, Vec<u16>)> = vec![];
    for path in operations() {
        let mut row = vec![];
        for caller in CALLERS {
            let (status, _) = testkit::call(&router, Method::GET, &path, tokens[caller].as_deref(), None).await;
            row.push(status.as_u16());
        }
        actual.push((format!("GET {path}"), row));
    }
    let render = |rows: &[(String, Vec<u16>)]| {
        let mut s = format!("operation,{}\n", CALLERS.join(","));
        for (op, row) in rows {
            s.push_str(&format!("{op},{}\n", row.iter().map(u16::to_string).collect::<Vec<_>>().join(",")));
        }
        s
    };
    if std::env::var_os("AUTHZ_MATRIX_RECORD").is_some() {
        std::fs::write(table_path(), render(&actual)).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(table_path()).expect("infra/security/authz-matrix.csv");
    let mut differences = vec![];
    let expected_rows: BTreeMap<&str, &str> = expected.lines().skip(1).filter_map(|l| l.split_once(',')).collect();
    for (op, row) in &actual {
        let got = row.iter().map(u16::to_string).collect::<Vec<_>>().join(",");
        match expected_rows.get(op.as_str()) {
            Some(want) if *want == got => {}
            Some(want) => differences.push(format!("{op}: table {want}, router {got} ({})", CALLERS.join(","))),
            None => differences.push(format!("{op}: not in the table (router {got})")),
        }
    }
    for op in expected_rows.keys() {
        if !actual.iter().any(|(a, _)| a == op) {
            differences.push(format!("{op}: in the table, not in the document"));
        }
    }
    assert!(differences.is_empty(), "authorization matrix differs:\n{}", differences.join("\n"));
    // The matrix means something: anonymous callers get 401 on every operation
    // that is not public, and no caller ever gets a 5xx.
    for (op, row) in &actual {
        let public = api_docs::PUBLIC.iter().any(|(m, p)| *m == "get" && op == &format!("GET {p}"));
        assert!(public || row[0] == 401, "{op}: anonymous got {}", row[0]);
        assert!(row.iter().all(|s| *s < 500), "{op}: {row:?}");
    }
}

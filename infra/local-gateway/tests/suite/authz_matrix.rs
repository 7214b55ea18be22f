//! The authorization matrix: EVERY operation of the
//! OpenAPI document (reads, writes, operations with path parameters), called
//! by each kind of caller, answers the status `infra/security/authz-matrix.csv`
//! says. Path parameters address the objects of one seeded customer (a case,
//! its hours, a contact, a subscription row, an envelope, a support ticket,
//! a notification); the `other_customer` column is a second customer calling
//! with those ids, and may never get a 2xx. Each write cell runs against a
//! fresh copy of the seeded world, so cells cannot disturb each other.
//! A new operation fails the test until its row is added; a changed answer
//! fails it until the table (reviewed) is changed.
//! `AUTHZ_MATRIX_RECORD=1` rewrites the table from what the router answers
//! (every cell is then reviewed before it is committed).
//!
//! Reviewed cells: `contact` is a contact WITHOUT permissions, `contact_all`
//! one holding every permission. Without permissions a contact still gets
//! 200 on `support/`, may open a support ticket, and reads the activity
//! statistics' case list and its export: spec §2 gives the contact menu
//! "Dashboard, Cases, Documents, Statistics, Support, Academy" for every
//! contact and makes only Users and Services conditional on permissions
//! (§5). Without `view_all_cases` it reads only the cases it created, so the
//! company's case (opened by staff) answers 404 in every case view, and the
//! company's figures (`statistic/activity/`, `chart/`, `pie-chart/hour/`)
//! 403; the contract check is always shown (§5), also without
//! `view_kontracto`.

use crate::world;

use axum::http::Method;
use shared::testkit;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use world::*;

fn table_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../security/authz-matrix.csv")
}

/// Operations whose path parameter addresses one of the first customer's
/// objects (the rest address the shared catalogue, staff or lessons).
fn owned_by_the_customer(path: &str) -> bool {
    const PREFIXES: [&str; 12] = [
        "/api/case/",
        "/api/customer/approve/",
        "/api/customer/bisnode/",
        "/api/customer/data-export/",
        "/api/customer/erasure/",
        "/api/customer/details/",
        "/api/customer/update/",
        "/api/customer/purchase-services/",
        "/api/customers/user/",
        "/api/notification/",
        "/api/services/contract-sign/",
        "/api/support/",
    ];
    path.contains('{')
        && (PREFIXES.iter().any(|p| path.starts_with(p))
            || [
                "/api/customer/{uid}/",
                "/api/admin/customer-user/send-password-link/{uid}/",
                "/api/user/activate/{uid}/",
                "/api/user/deactivate/{uid}/",
            ]
            .contains(&path)
            || path.starts_with("/api/puchasedservices/")
            || path.starts_with("/api/services/update/auto/"))
}

fn operations() -> Vec<(String, String)> {
    let doc = serde_json::to_value(api_docs::document()).unwrap();
    let mut out = vec![];
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            if ["get", "put", "post", "delete", "patch"].contains(&method.as_str()) {
                out.push((method.clone(), path.clone()));
            }
        }
    }
    out.sort_by(|a, b| (&a.1, &a.0).cmp(&(&b.1, &b.0)));
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_caller_gets_the_status_the_matrix_says() {
    let world = Arc::new(seed().await);
    // Reads share one copy of the world; every write cell gets its own.
    let (_, reads) = copy(&world).await;
    let mut actual: Vec<(String, Vec<u16>)> = vec![];
    let mut rows = tokio::task::JoinSet::new();
    let limit = Arc::new(tokio::sync::Semaphore::new(4));
    for (row, (method, path)) in operations().into_iter().enumerate() {
        actual.push((format!("{} {path}", method.to_uppercase()), vec![]));
        let (world, reads, limit) = (world.clone(), reads.clone(), limit.clone());
        rows.spawn(async move {
            let _permit = limit.acquire().await.unwrap();
            let m = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            // A write row starts on a fresh copy and takes a new one after
            // every cell that may have changed it (a refused call changes nothing).
            let mut router = if method == "get" { Some(reads) } else { None };
            let mut statuses = vec![];
            for caller in CALLERS {
                let current = match router.take() {
                    Some(r) => r,
                    None => copy(&world).await.1,
                };
                let (uri, body) = request(&method, &path, &world.ids);
                let (status, _) = testkit::call(&current, m.clone(), &uri, world.tokens[caller].as_deref(), body).await;
                if method == "get" || status.is_client_error() {
                    router = Some(current);
                }
                statuses.push(status.as_u16());
            }
            (row, statuses)
        });
    }
    while let Some(done) = rows.join_next().await {
        let (row, statuses) = done.unwrap();
        actual[row].1 = statuses;
    }
    let render = |rows: &[(String, Vec<u16>)]| {
        let mut s = format!("operation,{}\n", CALLERS.join(","));
        for (op, row) in rows {
            s.push_str(&format!("{op},{}\n", row.iter().map(u16::to_string).collect::<Vec<_>>().join(",")));
        }
        s
    };
    // The matrix means something: anonymous callers get 401 on every
    // operation that is not public, no caller ever gets a 5xx, and the other
    // customer never gets a 2xx on an operation addressing the first
    // customer's objects.
    let mut broken = vec![];
    for (op, row) in &actual {
        let (method, path) = op.split_once(' ').unwrap();
        let public = api_docs::PUBLIC.iter().any(|(m, p)| m.eq_ignore_ascii_case(method) && *p == path);
        if !public && row[0] != 401 {
            broken.push(format!("{op}: anonymous got {}", row[0]));
        }
        if row.iter().any(|s| *s >= 500) {
            broken.push(format!("{op}: a 5xx in {row:?}"));
        }
        if owned_by_the_customer(path) && (200..300).contains(&row[6]) {
            broken.push(format!("{op}: the other customer got {}", row[6]));
        }
    }
    // Every answer the matrix sees is one the document lists for the
    // operation.
    let doc = serde_json::to_value(api_docs::document()).unwrap();
    for (op, row) in &actual {
        let (method, path) = op.split_once(' ').unwrap();
        let responses = &doc["paths"][path][method.to_lowercase()]["responses"];
        for status in row.iter().collect::<std::collections::BTreeSet<_>>() {
            if responses.get(status.to_string()).is_none() {
                broken.push(format!("{op}: answers {status}, which the document does not list"));
            }
        }
    }
    if std::env::var_os("AUTHZ_MATRIX_RECORD").is_some() {
        std::fs::write(table_path(), render(&actual)).unwrap();
    }
    assert!(broken.is_empty(), "authorization matrix:\n{}", broken.join("\n"));
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
}

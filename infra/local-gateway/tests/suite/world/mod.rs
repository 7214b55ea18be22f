//! The seeded world of the router tests that call every operation (the
//! authorization matrix, the OpenAPI document's request examples): one
//! customer's objects made through the API, copies of it on fresh tables,
//! and a request per operation with its path filled from the world.

#![allow(dead_code)]

use axum::http::Method;
use axum::Router;
use serde_json::{json, Value};
use shared::api::AppState;
use shared::domain::catalogue::Hundredths;
use shared::domain::subscription::Grant;
use shared::domain::Role;
use shared::store::Item;
use shared::testkit;
use std::collections::BTreeMap;

/// `contact`: a contact of the customer without any permission (not even
/// view_all_cases nor view_time_bank); `contact_all`: one holding every permission.
pub const CALLERS: [&str; 8] = ["anonymous", "customer", "contact", "lawyer", "sales_person", "admin", "other_customer", "contact_all"];
pub const PASSWORD: &str = local_gateway::seed::DEMO_PASSWORD;
pub const PDF: &[u8] = b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";

/// The seeded world's ids: the customer's objects unless named otherwise.
#[derive(Default, Debug)]
pub struct Ids {
    pub customer: String,
    pub customer_email: String,
    pub contact: String,
    pub lawyer: String,
    pub sales_person: String,
    pub case: String,
    pub draft_case: String,
    pub hour: String,
    pub additional_hour: String,
    pub purchase: u64,
    pub envelope: String,
    pub ticket: String,
    pub notification: String,
    pub department: u64,
    pub knowledge_sector: u64,
    pub case_type: u64,
    pub business_sector: u64,
    pub lesson: String,
    pub template: String,
    pub package: u64,
    pub service_plan: u64,
    pub refresh_token: String,
}

pub struct World {
    pub template: AppState,
    /// A backup of the seeded table, which every copy is restored from.
    pub snapshot: String,
    pub ids: Ids,
    pub tokens: BTreeMap<&'static str, Option<String>>,
}

pub fn ok(what: &str, (status, body): (axum::http::StatusCode, Value)) -> Value {
    assert!(status.is_success(), "seeding the matrix world: {what} answered {status}: {body}");
    body
}

pub fn id_of(v: &Value) -> String {
    match &v["id"] {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => v["uid"].as_str().map(str::to_string).unwrap_or_else(|| panic!("no id in {v}")),
    }
}

pub fn num(v: &Value) -> u64 {
    id_of(v).parse().unwrap_or_else(|_| panic!("no numeric id in {v}"))
}

/// Seeds the world once through the API, as its users would; every copy
/// starts from a backup of its table.
pub async fn seed() -> World {
    let (state, _) = testkit::services_with_stand_in().await;
    let app: Router = local_gateway::app(state.clone(), std::env::temp_dir());
    // The demo accounts (admin, lawyer and sales person with staff records,
    // two customers with company profiles, the first holding the Verified
    // plan), a contact of the first customer without any permission and one with all.
    local_gateway::seed::seed_demo_accounts(&state).await.unwrap();
    const NO_PERMISSIONS: [local_gateway::seed::DemoAccount; 2] = [
        local_gateway::seed::DemoAccount {
            email: "contact-none@example.com",
            role: Role::CustomerContact,
            first_name: "Nora",
            last_name: "Behörighetslös",
            permissions: &[],
        },
        local_gateway::seed::DemoAccount {
            email: "contact-all@example.com",
            role: Role::CustomerContact,
            first_name: "Alla",
            last_name: "Behörigheter",
            permissions: &shared::domain::Permission::ALL,
        },
    ];
    local_gateway::seed::seed_accounts(&state, &NO_PERMISSIONS).await.unwrap();
    let user = |email: &'static str| {
        let state = state.clone();
        async move { state.store.find_user_by_email(email).await.unwrap().unwrap() }
    };
    let admin = user("admin@example.com").await;
    let lawyer = user("lawyer@example.com").await;
    let sales = user("sales@example.com").await;
    let customer = user(local_gateway::seed::DEMO_CUSTOMER_EMAIL).await;
    let other = user(local_gateway::seed::DEMO_CUSTOMER2_EMAIL).await;
    let contact = user("contact-none@example.com").await;
    let contact_all = user("contact-all@example.com").await;
    let mut tokens: BTreeMap<&'static str, Option<String>> = BTreeMap::new();
    tokens.insert("anonymous", None);
    let mut refresh_token = String::new();
    for (name, user) in [
        ("customer", &customer),
        ("contact", &contact),
        ("lawyer", &lawyer),
        ("sales_person", &sales),
        ("admin", &admin),
        ("other_customer", &other),
        ("contact_all", &contact_all),
    ] {
        let pair = shared::services::credentials::start_session(&state, user).await.unwrap();
        if name == "customer" {
            refresh_token = pair.refresh_token.clone();
        }
        tokens.insert(name, Some(pair.access_token));
    }
    let t = |name: &str| tokens[name].clone().unwrap();
    let call = |who: &str, m: Method, path: &str, body: Option<Value>| {
        let token = t(who);
        let app = app.clone();
        let path = path.to_string();
        async move { testkit::call(&app, m, &path, Some(&token), body).await }
    };
    let mut ids = Ids {
        customer: customer.uid.clone(),
        customer_email: customer.email.clone(),
        contact: contact.uid.clone(),
        lawyer: lawyer.uid.clone(),
        sales_person: sales.uid.clone(),
        refresh_token,
        ..Ids::default()
    };

    // Catalogue rows admin keeps.
    let named = json!({"name": "Matrisrätt", "description": "Sektor för behörighetsmatrisen"});
    ok("knowledge sector", call("admin", Method::POST, "/api/knowledge/sector/", Some(named.clone())).await);
    let sectors = ok("sectors", call("admin", Method::GET, "/api/knowledge/sector/list/", None).await);
    ids.knowledge_sector = num(&sectors[0]);
    ok("case type", call("admin", Method::POST, "/api/typeofcase/", Some(named.clone())).await);
    let types = ok("case types", call("admin", Method::GET, "/api/typeofcase/list/", None).await);
    ids.case_type = num(&types[0]);
    let bs =
        ok("business sector", call("admin", Method::POST, "/api/business-sector/create/", Some(json!({"name": "Matrisbransch"}))).await);
    ids.business_sector = num(&bs);
    let dep = ok("department", call("admin", Method::POST, "/api/customer/department/", Some(named.clone())).await);
    ids.department = num(&dep);
    let pkg = ok(
        "package",
        call(
            "admin",
            Method::POST,
            "/api/packages/",
            Some(json!({"name": "Paket 10 h", "hours": 10, "price": 12000, "duration_days": 365, "public": true})),
        )
        .await,
    );
    ids.package = num(&pkg);
    let plan = json!({"name": "Plan 5 h", "service_id": 1, "hours": 5, "price": 6000, "expiry_days": 365, "public": true});
    ids.service_plan = num(&ok("service plan", call("admin", Method::POST, "/api/serviceplans/", Some(plan)).await));
    let lesson = ok(
        "lesson",
        call(
            "admin",
            Method::POST,
            "/api/academy/lessons/",
            Some(json!({"topic": "Avtal", "title": "Grunder", "text": "Text", "video_url": "", "published": true, "audience": []})),
        )
        .await,
    );
    ids.lesson = id_of(&lesson);
    let up = ok("template upload", call("admin", Method::POST, "/api/template_file/upload-url/", Some(json!({"name": "mall.pdf"}))).await);
    let (st, _, _) = testkit::http("PUT", up["url"].as_str().unwrap(), Some("application/pdf"), PDF).await;
    assert_eq!(st, 200, "template upload");
    let tpl = json!({"key": up["key"], "name": "mall.pdf", "title": "Mall", "category": "Avtal", "language": "sv"});
    ids.template = id_of(&ok("template", call("admin", Method::POST, "/api/template_file/", Some(tpl)).await));

    // Both customers: profiles as admin makes them, the hour service, a case.
    for (who, user) in [("customer", &customer), ("other_customer", &other)] {
        let now = chrono::Utc::now().naive_utc() - chrono::Duration::seconds(5);
        let row =
            shared::services::subscriptions::grant(&state, &user.uid, &Grant::custom("Konsulttimmar 40 h", Hundredths(4000), 365), now)
                .await
                .unwrap();
        if who == "other_customer" {
            // The first customer holds the demo's Verified plan already.
            let verified =
                Grant { service_id: 2, package: None, service_plan: None, limit: Some(5), hour: Hundredths::ZERO, days: 30, price: None };
            shared::services::subscriptions::grant(&state, &user.uid, &verified, now).await.unwrap();
        }
        let case = ok("case", call(who, Method::POST, "/api/case/create/by/customer/", Some(case_body(ids.case_type, None))).await);
        if who == "customer" {
            ids.purchase = row.id;
            ids.case = case["uid"].as_str().unwrap().to_string();
        }
    }
    ok("publish", call("admin", Method::POST, &format!("/api/case/status/{}/", ids.case), Some(json!({"action": "publish"}))).await);
    ok("accept", call("lawyer", Method::POST, &format!("/api/case/status/{}/", ids.case), Some(json!({"action": "accept"}))).await);
    let draft =
        ok("draft case", call("customer", Method::POST, "/api/case/create/by/customer/", Some(case_body(ids.case_type, None))).await);
    ids.draft_case = draft["uid"].as_str().unwrap().to_string();
    let hour = ok("hour", call("lawyer", Method::POST, "/api/case/hour/create/", Some(hour_body(&ids.case))).await);
    ids.hour = id_of(&hour);
    let extra =
        ok("additional hour", call("lawyer", Method::POST, "/api/case/additional_hour/create/", Some(additional_body(&ids.case))).await);
    ids.additional_hour = id_of(&extra);
    ok("message", call("customer", Method::POST, "/api/message/", Some(json!({"case_uid": ids.case, "text": "Hej"}))).await);
    let notes = ok("notifications", call("customer", Method::GET, "/api/notification/?offset=0&limit=10", None).await);
    ids.notification = notes["results"][0]["id"]
        .as_str()
        .map(str::to_string)
        .or_else(|| notes["results"][0]["id"].as_u64().map(|n| n.to_string()))
        .unwrap_or_else(|| panic!("no notification: {notes}"));
    let ticket =
        ok("ticket", call("customer", Method::POST, "/api/support/", Some(json!({"subject": "Fråga", "message": "Hur gör jag?"}))).await);
    ids.ticket = id_of(&ticket);
    ok(
        "verified token",
        call(
            "customer",
            Method::POST,
            "/api/verified/",
            Some(json!({"company": "kund-ab", "email": "sign@example.com", "password": "secret-pass"})),
        )
        .await,
    );
    let up = ok(
        "envelope upload",
        call("customer", Method::POST, "/api/services/contract-sign/upload-url/", Some(json!({"name": "avtal.pdf"}))).await,
    );
    let (st, _, _) = testkit::http("PUT", up["url"].as_str().unwrap(), Some("application/pdf"), PDF).await;
    assert_eq!(st, 200, "envelope upload");
    let envelope = ok(
        "envelope",
        call("customer", Method::POST, "/api/services/contract-sign/", Some(envelope_body(up["key"].as_str().unwrap()))).await,
    );
    ids.envelope = envelope["uid"].as_str().unwrap().to_string();

    let snapshot = snapshot(&state).await;
    World { template: state, snapshot, ids, tokens }
}

pub fn case_body(case_type: u64, customer: Option<&str>) -> Value {
    let mut b = json!({
        "subject": "Hyrestvist", "description": "Hyresvärden har sagt upp lokalen.", "type": case_type, "estimated_hours": 4,
        "counterpart": "Fastighets AB", "contact_person": "Karin",
        "address": {"address_1": "Storgatan 1", "city": "Stockholm", "country": "Sweden", "post_code": "11122"},
    });
    if let Some(c) = customer {
        b["customer"] = json!(c);
    }
    b
}

pub fn hour_body(case: &str) -> Value {
    let date = chrono::Utc::now().date_naive().to_string();
    json!({"case_uid": case, "hour": 1.5, "date": date, "time": "09:00", "description": "Genomgång"})
}

pub fn additional_body(case: &str) -> Value {
    let month = chrono::Utc::now().format("%Y-%m").to_string();
    json!({"case_uid": case, "month": month, "total_hour": 2, "description": "Extra"})
}

pub fn envelope_body(key: &str) -> Value {
    let signer = |n: u32| {
        json!({"name": format!("Signer {n}"), "email": format!("s{n}@example.com"), "phone": "+46701234567", "locale": "sv",
            "role": "signer", "notify_sms": false, "require_auth": true, "sign_method": "bankid_se"})
    };
    json!({"name": "Avtal", "documents": [{"key": key, "name": "avtal.pdf"}], "recipients": [signer(1), signer(2)], "sequential": true})
}

pub fn staff_body(email: &str, sector: u64) -> Value {
    json!({"first_name": "Lova", "last_name": "Jurist", "email": email, "user_sub_type": "internal", "knowledge_sectors": [sector]})
}

pub fn customer_form(email: &str, sector: u64) -> Value {
    let address = json!({"address_1": "Storgatan 1", "address_2": "", "city": "Stockholm", "post_code": "11122", "country": 1});
    json!({"customer_type": "Individual", "first_name": "Nils", "last_name": "Nyman", "email": email, "phone": "+46701234567",
        "sector": sector.to_string(), "profile": address, "same_invoice_address": true, "invoice_address": address})
}

/// Every item of the seeded table.
pub async fn scan(state: &AppState) -> Vec<Item> {
    let mut out = vec![];
    let mut start = None;
    loop {
        let page = state
            .store
            .client
            .scan()
            .table_name(&state.config.table_name)
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("scan the seeded world");
        out.extend(page.items.unwrap_or_default());
        start = page.last_evaluated_key;
        if start.is_none() {
            return out;
        }
    }
}

/// A backup of the table as it is now (DynamoDB's CreateBackup), for
/// [`copy`] to restore from.
pub async fn snapshot(state: &AppState) -> String {
    let out = state
        .store
        .client
        .create_backup()
        .table_name(&state.config.table_name)
        .backup_name(format!("world-{}", uuid::Uuid::new_v4().simple()))
        .send()
        .await
        .expect("back up the seeded world");
    out.backup_details.expect("backup details").backup_arn
}

/// A fresh table holding the seeded world's items, and a router on it.
/// Restored from the world's backup in one request: the stand-in copies
/// the table in memory. Written item by item (a CreateTable, then a
/// BatchWriteItem per 25 items, each parsed and stored by the stand-in one
/// request at a time), the copies were most of the matrices' minutes: a
/// write cell takes a fresh copy after every call that may have changed it.
pub async fn copy(world: &World) -> (AppState, Router) {
    let mut config = world.template.config.clone();
    config.table_name = format!("matrix-{}", uuid::Uuid::new_v4().simple());
    let state = shared::services::Context::with_providers(config, None, world.template.providers.clone()).await;
    state
        .store
        .client
        .restore_table_from_backup()
        .target_table_name(&state.config.table_name)
        .backup_arn(&world.snapshot)
        .send()
        .await
        .expect("restore the seeded world");
    let router = local_gateway::app(state.clone(), std::env::temp_dir());
    (state, router)
}

/// The request of one cell: the path with its parameters (and the query
/// parameters the operation needs) filled from the world, and a body its
/// permitted callers would send.
pub fn request(method: &str, path: &str, w: &Ids) -> (String, Option<Value>) {
    let fill = |id: &str| {
        // Ids may hold characters a path must escape (e.g. `#`).
        let id: String = id
            .bytes()
            .map(|b| if b.is_ascii_alphanumeric() || b"-_.".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") })
            .collect();
        path.replace("{id}", &id).replace("{uid}", &id).replace("{contact_id}", &id)
    };
    let filled = match path {
        p if p.starts_with("/api/academy/") => fill(&w.lesson),
        p if p.starts_with("/api/business-sector/") => fill(&w.business_sector.to_string()),
        p if p.starts_with("/api/case/additional_hour/") => format!("{}?case={}", fill(&w.additional_hour), w.case),
        p if p.starts_with("/api/case/hour/") && p.contains('{') => format!("{}?case={}", fill(&w.hour), w.case),
        // The case's followers: the world's contact (without permissions) is the one added or taken off.
        p if p.starts_with("/api/case/followers/") => fill(&w.case).replace("{user}", &w.contact),
        p if p.starts_with("/api/case/") && p.contains('{') => fill(&w.case),
        p if p.starts_with("/api/customer/department/") => fill(&w.department.to_string()),
        p if p.starts_with("/api/customer/purchase-services/") && p.ends_with("/excel/") => {
            format!("{}?start_date=2020-01-01&end_date=2099-12-31", fill(&w.purchase.to_string()))
        }
        p if p.starts_with("/api/customer/purchase-services/")
            || p.starts_with("/api/puchasedservices/")
            || p.starts_with("/api/services/update/auto/") =>
        {
            fill(&w.purchase.to_string())
        }
        p if p.starts_with("/api/customer/") => fill(&w.customer),
        // The world's customer has applied for no Inkasso account and registered no claim.
        p if p.starts_with("/api/admin/inkasso/") => fill("no-such-claim").replace("{customer_uid}", &w.customer),
        p if p.starts_with("/api/customers/user/") || p.starts_with("/api/admin/customer-user/") || p.starts_with("/api/user/") => {
            fill(&w.contact)
        }
        p if p.starts_with("/api/knowledge/sector/") => fill(&w.knowledge_sector.to_string()),
        p if p.starts_with("/api/lawyer/") || p.starts_with("/api/staff/") => fill(&w.lawyer),
        p if p.starts_with("/api/salesperson/") => fill(&w.sales_person),
        p if p.starts_with("/api/notification/") => fill(&w.notification),
        p if p.starts_with("/api/packages/") => fill(&w.package.to_string()),
        p if p.starts_with("/api/serviceplans/") => fill(&w.service_plan.to_string()),
        p if p.starts_with("/api/services/contract-sign/") => fill(&w.envelope),
        // A case's free meeting times; a meeting the world has none of (every
        // caller: not found, or refused before the look-up).
        p if p.starts_with("/api/services/video-meeting/cases/") => fill(&w.case),
        p if p.starts_with("/api/services/video-meeting/") => fill("no-such-meeting"),
        p if p.starts_with("/api/support/") => fill(&w.ticket),
        p if p.starts_with("/api/template_file/") => fill(&w.template),
        p if p.starts_with("/api/typeofcase/") => fill(&w.case_type.to_string()),
        p => {
            assert!(!p.contains('{'), "{method} {p}: the matrix does not know which object its path parameter addresses");
            p.to_string()
        }
    };
    // Query parameters the operation needs to reach its access check.
    let filled = match (method, path) {
        ("get", "/api/case/additional_hour/list/")
        | ("get", "/api/case/file/list/")
        | ("get", "/api/case/hour/excel/")
        | ("get", "/api/case/hour/list/")
        | ("get", "/api/case/lawyer/note/")
        | ("get", "/api/message/")
        | ("get", "/api/rating/case/") => format!("{filled}?case={}", w.case),
        ("get", "/api/customer/verify-services/") | ("get", "/api/services/test/") => format!("{filled}?service=Verified"),
        ("get", "/api/legal/versions/") => format!("{filled}?kind=terms"),
        ("post", "/api/notification/seen/update/") => format!("{filled}?description=case"),
        ("delete", "/api/case/file/delete/") => format!("{filled}?case={}&key=cases/none", w.case),
        _ => filled,
    };
    let email = format!("new-{}@example.com", uuid::Uuid::new_v4().simple());
    let named = json!({"name": format!("Ny {}", &email[4..12]), "description": "Beskrivning"});
    let body = match (method, path) {
        ("get", _) | ("delete", _) => None,
        ("post", "/api/2fa/toggle-activation/") => Some(json!({"enabled": true, "password": PASSWORD})),
        ("post", "/api/customer/erasure/{uid}/{id}/decide/") => Some(json!({"approve": false, "reason": "Pågående tvist"})),
        ("post", "/api/2fa/totp/confirm/") => Some(json!({"code": "123456"})),
        ("post", "/api/bankid/auth/") | ("post", "/api/bankid/link/") => Some(json!({"device": "qr"})),
        // No browser has an order: every caller's poll or cancel finds none.
        ("post", "/api/bankid/collect/") | ("post", "/api/bankid/cancel/") => Some(json!({"order_ref": "no-such-order"})),
        ("post", "/api/2fa/totp/disable/") => Some(json!({"password": PASSWORD, "code": "123456"})),
        ("post", "/api/academy/lessons/") | ("put", "/api/academy/lessons/{id}/") => {
            Some(json!({"topic": "Avtal", "title": "Ny lektion", "text": "Text", "video_url": "", "published": true, "audience": []}))
        }
        ("post", "/api/academy/lessons/order/") => Some(json!({"ids": [w.lesson]})),
        ("post", "/api/academy/lessons/{id}/video/confirm/") => Some(json!({"key": "academy/none.mp4"})),
        ("post", "/api/academy/{id}/progress/") => Some(json!({"watched": true, "completed": true})),
        ("post", "/api/business-sector/create/") | ("put", "/api/business-sector/update/{id}/") => Some(json!({"name": named["name"]})),
        ("post", "/api/case/additional_hour/create/") | ("put", "/api/case/additional_hour/edit/{id}/") => Some(additional_body(&w.case)),
        ("put", "/api/case/additional_hour/mass-update/") | ("put", "/api/case/hour/mass-update/") => {
            let id = if path.contains("additional") { &w.additional_hour } else { &w.hour };
            Some(json!({"case_uid": w.case, "ids": [id], "is_invoiced": true}))
        }
        ("post", "/api/case/create/") | ("post", "/api/case/create/by/lawyer/") => Some(case_body(w.case_type, Some(&w.customer))),
        ("post", "/api/case/create/by/customer/") | ("put", "/api/case/update/{uid}/") => Some(case_body(w.case_type, None)),
        ("post", "/api/case/file/confirm/") => Some(json!({"case_uid": w.case, "key": "cases/none", "name": "a.pdf"})),
        ("post", "/api/case/file/upload-url/") => Some(json!({"case_uid": w.case, "name": "a.pdf", "content_type": "application/pdf"})),
        ("post", "/api/case/hour/create/") | ("put", "/api/case/hour/edit/{id}/") => Some(hour_body(&w.case)),
        ("post", "/api/case/lawyer/note/") => Some(json!({"case_uid": w.case, "note": "Anteckning"})),
        ("post", "/api/case/followers/{id}/") => Some(json!({"user": w.contact})),
        ("post", "/api/case/status/{uid}/") => Some(json!({"action": "complete"})),
        ("post", "/api/create/customer/company-registration-number/check/") => Some(json!({"company_registration_number": "556000-0001"})),
        ("post", "/api/create/customer/email/check/") | ("post", "/api/email/check/") => Some(json!({"email": email})),
        ("post", "/api/customer/activation/") => {
            Some(json!({"token": "0123456789abcdef", "password": "Nytt-lösen-2026!", "confirm_password": "Nytt-lösen-2026!"}))
        }
        ("post", "/api/customer/activation/check/") => Some(json!({"token": "0123456789abcdef"})),
        ("put", "/api/customer/bisnode/{uid}/") => Some(json!({"active": true, "account": "konto-1"})),
        ("post", "/api/customer/create/") | ("put", "/api/customer/update/{uid}/") => Some(customer_form(&email, w.business_sector)),
        ("post", "/api/customer/customer-department/") => Some(json!({"customer_uid": w.customer, "department_id": w.department})),
        ("post", "/api/customer/department/")
        | ("put", "/api/customer/department/{id}/")
        | ("post", "/api/knowledge/sector/")
        | ("put", "/api/knowledge/sector/{id}/")
        | ("post", "/api/typeofcase/")
        | ("put", "/api/typeofcase/{id}/") => Some(named),
        ("post", "/api/customer/purchase-services/") | ("post", "/api/services/add/") => {
            Some(json!({"customer_uid": w.customer, "package_id": w.package}))
        }
        ("post", "/api/customers/user/create/") => {
            Some(json!({"customer": w.customer, "first_name": "Ny", "last_name": "Kontakt", "email": email, "permissions": ["add_case"]}))
        }
        ("put", "/api/customers/user/update/{contact_id}/") => {
            Some(json!({"first_name": "Ny", "last_name": "Kontakt", "permissions": ["add_case"]}))
        }
        ("put", "/api/admin/inkasso/{customer_uid}/prospect/") => Some(json!({"state": "approved", "creditor_id": "K-1"})),
        ("put", "/api/admin/inkasso/{customer_uid}/claims/{uid}/") => Some(json!({"status": "registered", "agency_reference": "R-1"})),
        ("put", "/api/inkasso/prospect/") => {
            Some(json!({"home_page": "https://example.com", "bank_name": "Bank", "bank_account": "1234-5678",
            "plus_giro": "", "bank_giro": "123-4567", "iban": "", "bic": "", "approved_ip": "", "contact_name": "Karin",
            "organization_number": "556000-0001"}))
        }
        ("post", "/api/lawyer/create/") | ("put", "/api/lawyer/update/{uid}/") | ("post", "/api/salesperson/create/") => {
            Some(staff_body(&email, w.knowledge_sector))
        }
        ("put", "/api/salesperson/update/{uid}/") => Some(json!({"first_name": "Sara", "last_name": "Säljare", "email": email})),
        ("post", "/api/legal/accept/") => Some(json!({"kind": "terms", "version": 1})),
        ("post", "/api/legal/publish/") => Some(json!({"kind": "terms", "sv": "Villkor", "en": "Terms"})),
        ("post", "/api/logout/") | ("post", "/api/token/refresh/") => Some(json!({"refresh_token": w.refresh_token})),
        ("post", "/api/message/") => Some(json!({"case_uid": w.case, "text": "Hej"})),
        ("post", "/api/message/file/upload-url/") => Some(json!({"case_uid": w.case, "name": "a.pdf"})),
        ("patch", "/api/notification/{id}/") => Some(json!({"unread": false})),
        ("post", "/api/packages/{id}/retire/") | ("post", "/api/serviceplans/{id}/retire/") => Some(json!({"retired": true})),
        ("post", "/api/packages/") | ("put", "/api/packages/{id}/") => {
            Some(json!({"name": "Paket 5 h", "hours": 5, "price": 6000, "duration_days": 365, "public": true}))
        }
        ("post", "/api/password/change/") => {
            Some(json!({"old_password": PASSWORD, "new_password": "Nytt-lösen-2026!", "confirm_password": "Nytt-lösen-2026!"}))
        }
        ("post", "/api/password/recover/") => Some(json!({"email": w.customer_email})),
        ("post", "/api/password/recover/confirm/") => {
            Some(json!({"token": "0123456789abcdef", "password": "Nytt-lösen-2026!", "confirm_password": "Nytt-lösen-2026!"}))
        }
        ("post", "/api/profile/image/confirm/") => Some(json!({"key": "profiles/none.png"})),
        ("post", "/api/profile/image/upload-url/") | ("post", "/api/case/file/upload-url/x") => Some(json!({"content_type": "image/png"})),
        ("put", "/api/profile/mail/") => Some(json!({"on": false, "language": "en"})),
        ("post", "/api/profile/mail/unsubscribe/") => Some(json!({"token": "not-a-token"})),
        ("put", "/api/profile/update/") => Some(json!({"first_name": "Anna", "last_name": "Berg", "phone": "+46701234567"})),
        ("patch", "/api/puchasedservices/{id}/") => {
            Some(json!({"start_date": "2026-01-01 00:00:00", "expire_on": "2027-12-31 00:00:00", "hour": 20}))
        }
        ("post", "/api/rating/create/") => Some(json!({"case_uid": w.case, "stars": 5, "comment": "Bra"})),
        ("post", "/api/registration/") => {
            let mut b = customer_form(&email, w.business_sector);
            b["password"] = json!("Nytt-lösen-2026!");
            b["confirm_password"] = json!("Nytt-lösen-2026!");
            b["terms_accepted"] = json!(true);
            b["privacy_accepted"] = json!(true);
            Some(b)
        }
        ("post", "/api/resend/2fa/") => Some(json!({"two_factor_token": "not-a-token"})),
        ("post", "/api/token/2fa/") => Some(json!({"two_factor_token": "not-a-token", "code": "123456"})),
        ("post", "/api/token/") => Some(json!({"email": w.customer_email, "password": PASSWORD})),
        ("post", "/api/serviceplans/") | ("put", "/api/serviceplans/{id}/") => {
            Some(json!({"name": "Plan", "service_id": 1, "hours": 5, "price": 6000, "expiry_days": 365, "public": true}))
        }
        ("post", "/api/services/contract-sign/") | ("put", "/api/services/contract-sign/{uid}/") => {
            Some(envelope_body("envelopes/none.pdf"))
        }
        ("post", "/api/services/contract-sign/upload-url/")
        | ("post", "/api/support/file/upload-url/")
        | ("post", "/api/template_file/upload-url/") => Some(json!({"name": "avtal.pdf"})),
        ("post", "/api/services/credit-check/") => Some(json!({"kind": "company", "number": "556000-0001"})),
        ("put", "/api/services/update/auto/{id}/") => Some(json!({"auto_update_date_end": "2027-06-30"})),
        ("post", "/api/subscription/packages/") => Some(json!({"package_id": w.package})),
        ("post", "/api/subscription/serviceplans/") => Some(json!({"service_plan_id": w.service_plan})),
        ("post", "/api/support/") => Some(json!({"subject": "Fråga", "message": "Hur gör jag?"})),
        ("post", "/api/support/{id}/answer/") => Some(json!({"text": "Svar"})),
        ("post", "/api/template_file/") => {
            Some(json!({"key": "templates/none.pdf", "name": "mall.pdf", "title": "Mall", "category": "Avtal", "language": "sv"}))
        }
        ("post", "/api/verified/") => Some(json!({"company": "kund-ab", "email": "sign@example.com", "password": "secret-pass"})),
        ("post", "/api/verified/auth/") => Some(json!({"email": "sign@example.com", "password": "secret-pass", "company": "kund-ab"})),
        _ => None,
    };
    (filled, body)
}

//! The spec §7 catalogue paths that answer a lookup or alias another path:
//! each answers its allowed callers the data it says (the same as its twin
//! for an alias) and refuses the others as its twin does.

use crate::world::*;

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use shared::domain::Permission;
use shared::testkit;

#[tokio::test]
async fn the_catalogue_paths_answer_their_lookup_or_their_twins_data() {
    let world = seed().await;
    let (_, app) = copy(&world).await;
    let get = |who: &'static str, path: &str| {
        let app = app.clone();
        let token = world.tokens[who].clone();
        let path = path.to_string();
        async move { testkit::call(&app, Method::GET, &path, token.as_deref(), None).await }
    };
    let ok = |(status, body): (StatusCode, Value)| {
        assert_eq!(status, StatusCode::OK, "{body}");
        body
    };

    // Public lookups of the registration form.
    let cities = ok(get("anonymous", "/api/city/list/").await);
    assert_eq!(cities.as_array().unwrap().len(), 290);
    assert_eq!(ok(get("anonymous", "/api/city/list/?search=MALM").await), json!([{"name": "Malmö", "county": "Skåne län"}]));
    assert_eq!(ok(get("anonymous", "/api/customer-type/").await), json!(["Company", "Individual"]));
    let init = ok(get("anonymous", "/api/customer/registration/init/").await);
    assert_eq!(init["customer_types"], json!(["Company", "Individual"]));
    assert_eq!(init["countries"], json!([{"value": 1, "code": "SE"}]));
    assert_eq!(init["business_sectors"], ok(get("anonymous", "/api/business-sector/").await));
    assert_eq!(init["company_sizes"], ok(get("anonymous", "/api/company-size/list/").await));

    // Company aliases: staff get the company dropdown's answer, others not.
    let companies = ok(get("admin", "/api/company/dropdown/list/?search=demo").await);
    assert!(!companies.as_array().unwrap().is_empty(), "{companies}");
    for alias in ["/api/company/", "/api/company/list/", "/api/customer/affiliation/dropdown/list/"] {
        assert_eq!(ok(get("admin", &format!("{alias}?search=demo")).await), companies, "{alias}");
        assert_eq!(ok(get("sales_person", &format!("{alias}?search=demo")).await), companies, "{alias}");
        for who in ["customer", "contact"] {
            assert_eq!(get(who, alias).await.0, StatusCode::FORBIDDEN, "{who} {alias}");
        }
        assert_eq!(get("anonymous", alias).await.0, StatusCode::UNAUTHORIZED, "{alias}");
    }

    // The permission catalogue: every permission, whoever asks (a contact
    // without permissions holds none of them itself).
    let all: Vec<Value> = Permission::ALL.iter().map(|p| serde_json::to_value(p).unwrap()).collect();
    for who in ["contact", "customer", "admin"] {
        assert_eq!(ok(get(who, "/api/permissions/").await), json!({"permissions": all}), "{who}");
    }
    assert_eq!(ok(get("contact", "/api/permission/").await), json!({"permissions": []}));
    assert_eq!(get("anonymous", "/api/permissions/").await.0, StatusCode::UNAUTHORIZED);

    // Lawyers' company affiliations: distinct (whatever the case), sorted, searchable; admin only.
    for (email, affiliation) in
        [("aff1@example.com", "Advokatfirman Norr AB"), ("aff2@example.com", " advokatfirman norr ab"), ("aff3@example.com", "Byrå Syd KB")]
    {
        let mut body = staff_body(email, world.ids.knowledge_sector);
        body["company_affiliation"] = json!(affiliation);
        let (status, made) = testkit::call(&app, Method::POST, "/api/lawyer/create/", world.tokens["admin"].as_deref(), Some(body)).await;
        assert_eq!(status, StatusCode::CREATED, "{made}");
    }
    let affiliations = ok(get("admin", "/api/company-affiliation/").await);
    let affiliations: Vec<&str> = affiliations.as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(affiliations.iter().filter(|a| a.eq_ignore_ascii_case("Advokatfirman Norr AB")).count(), 1, "{affiliations:?}");
    assert!(affiliations.contains(&"Byrå Syd KB"), "{affiliations:?}");
    assert!(affiliations.windows(2).all(|w| w[0].to_lowercase() <= w[1].to_lowercase()), "{affiliations:?}");
    assert_eq!(ok(get("admin", "/api/company-affiliation/?search=syd").await), json!(["Byrå Syd KB"]));
    for who in ["sales_person", "lawyer", "customer"] {
        assert_eq!(get(who, "/api/company-affiliation/").await.0, StatusCode::FORBIDDEN, "{who}");
    }

    // The caller's own company's rows: customer/{uid}/ without the uid.
    let own = ok(get("customer", &format!("/api/customer/{}/", world.ids.customer)).await);
    assert!(!own["purchased_services"].as_array().unwrap().is_empty());
    // With its type: the customer side words its pages for a company or a person.
    assert_eq!(own["customer_type"], "Company");
    let person = testkit::call(
        &app,
        Method::POST,
        "/api/customer/create/",
        world.tokens["admin"].as_deref(),
        Some(customer_form("ida.ek@example.com", world.ids.business_sector)),
    )
    .await;
    let person = person.1["uid"].as_str().unwrap_or_else(|| panic!("{}", person.1)).to_string();
    assert_eq!(ok(get("admin", &format!("/api/customer/{person}/")).await)["customer_type"], "Individual");
    assert_eq!(ok(get("customer", "/api/subscription/services/").await), own);
    assert_eq!(ok(get("contact_all", "/api/subscription/services/").await), own);
    // A contact without view_time_bank: the same rows but the hour-based one (the time bank).
    let limited = ok(get("contact", "/api/subscription/services/").await);
    let hourless: Vec<&Value> = own["purchased_services"].as_array().unwrap().iter().filter(|r| r["service"]["id"] != 1).collect();
    assert!(hourless.len() < own["purchased_services"].as_array().unwrap().len(), "{own}");
    assert_eq!(limited["purchased_services"].as_array().unwrap().iter().collect::<Vec<_>>(), hourless);
    let other = ok(get("other_customer", "/api/subscription/services/").await);
    assert_ne!(other, own, "the other customer gets its own rows");
    let bisnode = ok(get("customer", "/api/bisnode/login/").await);
    assert_eq!(bisnode, json!({"bisnode_account_active": own["bisnode_account_active"], "bisnode_account": own["bisnode_account"]}));
    for path in ["/api/subscription/services/", "/api/bisnode/login/"] {
        for who in ["admin", "sales_person", "lawyer"] {
            assert_eq!(get(who, path).await.0, StatusCode::FORBIDDEN, "{who} {path}");
        }
        assert_eq!(get("anonymous", path).await.0, StatusCode::UNAUTHORIZED, "{path}");
    }

    // services/test/ answers what customer/verify-services/ answers.
    for who in ["customer", "contact", "other_customer"] {
        for service in ["Verified", "Bisnode"] {
            assert_eq!(
                get(who, &format!("/api/services/test/?service={service}")).await,
                get(who, &format!("/api/customer/verify-services/?service={service}")).await,
                "{who} {service}"
            );
        }
    }

    // services/add/ adds a row as customer/purchase-services/ does.
    let add = json!({"customer_uid": world.ids.customer, "package_id": world.ids.package});
    let (status, row) =
        testkit::call(&app, Method::POST, "/api/services/add/", world.tokens["sales_person"].as_deref(), Some(add.clone())).await;
    assert_eq!(status, StatusCode::CREATED, "{row}");
    assert!(row["id"].is_u64() && row["packages"].is_object(), "{row}");
    let after = ok(get("customer", "/api/subscription/services/").await);
    assert!(after["purchased_services"].as_array().unwrap().iter().any(|r| r["id"] == row["id"]));
    for who in ["customer", "contact", "lawyer"] {
        let (status, _) = testkit::call(&app, Method::POST, "/api/services/add/", world.tokens[who].as_deref(), Some(add.clone())).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{who}");
    }
}

//! The right to erasure (GDPR art. 17) with legal hold: only the customer
//! itself asks (one open request), admin approves or refuses with a reason
//! (once); an approved erasure leaves no personal data of the customer or
//! its contacts outside what must be kept (its cases and their documents,
//! frozen; the audit trail; the conflict index), while the other customer's
//! data is intact; the customer can no longer sign in and is told by mail
//! what was kept and until when.

use crate::world::*;

use axum::http::{Method, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use shared::api::AppState;
use shared::store::Item;
use shared::testkit;

/// A copy of the world (as [`own_copy`]) whose customer has asked to be
/// forgotten: its state, its router, the customer's erasure path and the request.
async fn asked_to_be_forgotten(world: &World) -> (AppState, Router, String, Value) {
    let (state, app) = own_copy(world).await;
    let path = format!("/api/customer/erasure/{}/", world.ids.customer);
    let customer = world.tokens["customer"].clone().unwrap();
    let asked = ok("ask", testkit::call(&app, Method::POST, &path, Some(&customer), None).await);
    (state, app, path, asked)
}

/// A copy of the world with its own table and its own bucket (an erasure
/// deletes objects that the other tests' copies read from the shared one).
async fn own_copy(world: &World) -> (AppState, Router) {
    let (state, _) = copy(world).await;
    let mut config = state.config.clone();
    config.documents_bucket = format!("erase-{}", &uuid::Uuid::new_v4().simple().to_string()[..16]);
    let own = shared::services::Context::with_providers(config, None, world.template.providers.clone()).await;
    own.files.ensure_bucket(&own.config.region).await.unwrap();
    for key in world.template.files.keys_under("").await.unwrap() {
        let bytes = world.template.files.bytes(&key).await.unwrap();
        own.files.put_bytes(&key, "application/octet-stream", bytes).await.unwrap();
    }
    let router = local_gateway::app(own.clone(), std::env::temp_dir());
    (own, router)
}

/// The dashboards' count of active customers now (summed over its shards).
async fn active_customers(state: &AppState) -> i64 {
    let mut n = 0;
    for ((pk, _), counts) in state.store.scan_counter_items().await.unwrap() {
        if shared::services::recount::unshard(&pk).is_some_and(|(l, _)| l == "STATS#all#NOW") {
            n += counts.get("customers.state.active").copied().unwrap_or(0);
        }
    }
    n
}

/// Every text of an item (attribute values, nested), lower case.
fn texts(item: &Item) -> Vec<String> {
    let json = serde_json::to_value(shared::store::data_rights::item_json(item.clone())).unwrap();
    let mut out = vec![];
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(s.to_lowercase()),
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            Value::Object(m) => m.values().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    walk(&json, &mut out);
    out
}

/// A person's or company's identifiers: texts found anywhere (addresses,
/// company name, registration number, full names) and names found as a
/// whole value (a last name alone).
struct Identifiers {
    anywhere: Vec<String>,
    whole: Vec<String>,
}

impl Identifiers {
    fn found_in(&self, item: &Item) -> Option<String> {
        let texts = texts(item);
        for t in &texts {
            if let Some(hit) = self.anywhere.iter().find(|i| t.contains(i.as_str())) {
                return Some(hit.clone());
            }
            if let Some(hit) = self.whole.iter().find(|i| t == *i) {
                return Some(hit.clone());
            }
        }
        None
    }
}

async fn identifiers_of(state: &AppState, customer_uid: &str) -> Identifiers {
    let mut anywhere = vec![];
    let mut whole = vec![];
    let profile = state.store.get_customer_profile(customer_uid).await.unwrap().unwrap();
    anywhere.extend(profile.company_name.clone());
    anywhere.extend(profile.company_registration_number.clone());
    anywhere.push(profile.email.clone());
    let mut people = vec![state.store.get_user(customer_uid).await.unwrap().unwrap()];
    for c in state.store.list_contacts(customer_uid, None).await.unwrap().contacts {
        people.push(c);
    }
    for p in people {
        anywhere.push(p.email.clone());
        anywhere.push(format!("{} {}", p.first_name, p.last_name));
        // (A first name alone is no identifier: the world's cases name a contact person "Karin".)
        whole.push(p.last_name.clone());
    }
    Identifiers {
        anywhere: anywhere.into_iter().filter(|s| !s.is_empty()).map(|s| s.to_lowercase()).collect(),
        whole: whole.into_iter().filter(|s| !s.is_empty()).map(|s| s.to_lowercase()).collect(),
    }
}

fn text(item: &Item, a: &str) -> String {
    item.get(a).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default()
}

#[tokio::test]
async fn an_erased_customer_leaves_personal_data_only_under_legal_hold() {
    let world = seed().await;
    let (state, app) = own_copy(&world).await;
    let ids = &world.ids;
    let t = |who: &str| world.tokens[who].clone().unwrap();
    let other = state.store.find_user_by_email(local_gateway::seed::DEMO_CUSTOMER2_EMAIL).await.unwrap().unwrap();
    let ours = identifiers_of(&state, &ids.customer).await;
    let theirs = identifiers_of(&state, &other.uid).await;
    assert!(ours.whole.len() >= 3, "the customer and its contacts: {:?}", ours.whole);
    // A document on the case (kept with it) and a profile image (erased).
    let document = format!("cases/{}/4f1c.pdf", ids.case);
    state.files.put_bytes(&document, "application/pdf", PDF.to_vec()).await.unwrap();
    let image = format!("profile-images/{}/me.png", ids.customer);
    state.files.put_bytes(&image, "image/png", vec![0x89, b'P', b'N', b'G']).await.unwrap();
    let their_image = format!("profile-images/{}/me.png", other.uid);
    state.files.put_bytes(&their_image, "image/png", vec![0x89, b'P', b'N', b'G']).await.unwrap();
    assert!(state.files.keys_under(&format!("envelopes/{}/", ids.customer)).await.unwrap().len() == 1, "the envelope's file");

    let path = format!("/api/customer/erasure/{}/", ids.customer);
    // Only the customer itself asks: never a contact, staff or another customer.
    for who in ["contact_all", "contact", "admin", "lawyer", "sales_person", "other_customer"] {
        let (status, body) = testkit::call(&app, Method::POST, &path, Some(&t(who)), None).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{who}: {body}");
    }
    let key = [("idempotency-key", "\"erase-1\"")];
    let (status, _, body) = testkit::call_with_headers(&app, Method::POST, &path, Some(&t("customer")), None, &key).await;
    assert_eq!(status, StatusCode::CREATED, "{}", String::from_utf8_lossy(&body));
    let asked: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(asked["state"], "pending", "{asked}");
    let id = asked["id"].as_str().unwrap().to_string();
    // The same request again is the first; another one waits for the decision.
    let (status, _, again) = testkit::call_with_headers(&app, Method::POST, &path, Some(&t("customer")), None, &key).await;
    assert_eq!((status, serde_json::from_slice::<Value>(&again).unwrap()["id"].clone()), (StatusCode::CREATED, asked["id"].clone()));
    let (status, open) = testkit::call(&app, Method::POST, &path, Some(&t("customer")), None).await;
    assert_eq!((status, open["message"].as_str()), (StatusCode::CONFLICT, Some("erasure_open")), "{open}");

    // Admin's list shows it among the pending requests.
    let (status, list) = testkit::call(&app, Method::GET, "/api/data-requests/?status=pending", Some(&t("admin")), None).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let row = list["results"].as_array().unwrap().iter().find(|r| r["id"] == id.as_str()).expect("the request is listed");
    assert_eq!((row["kind"].as_str(), row["customer_name"].as_str()), (Some("erasure"), Some(local_gateway::seed::DEMO_COMPANY)));
    let (status, none) = testkit::call(&app, Method::GET, "/api/data-requests/?status=refused", Some(&t("admin")), None).await;
    assert_eq!((status, none["results"].as_array().map(Vec::len)), (StatusCode::OK, Some(0)), "{none}");
    for who in ["customer", "lawyer", "sales_person"] {
        assert_eq!(testkit::call(&app, Method::GET, "/api/data-requests/", Some(&t(who)), None).await.0, StatusCode::FORBIDDEN);
    }
    assert_eq!(testkit::call(&app, Method::GET, "/api/data-requests/?status=x", Some(&t("admin")), None).await.0, StatusCode::BAD_REQUEST);

    // Only admin decides; twice at once is once.
    // The dashboards' counters before: what a recount finds different now
    // (a copied world's) must be all it finds after the erasure too.
    let differing_before = shared::services::recount::recount(&state, false).await.unwrap().differences;
    let active_before = active_customers(&state).await;
    let decide = format!("/api/customer/erasure/{}/{id}/decide/", ids.customer);
    let approve = json!({"approve": true});
    assert_eq!(testkit::call(&app, Method::POST, &decide, Some(&t("lawyer")), Some(approve.clone())).await.0, StatusCode::FORBIDDEN);
    let admin = t("admin");
    let (a, b) = tokio::join!(
        testkit::call(&app, Method::POST, &decide, Some(&admin), Some(approve.clone())),
        testkit::call(&app, Method::POST, &decide, Some(&admin), Some(approve.clone()))
    );
    let done = if a.0 == StatusCode::OK { a.1.clone() } else { b.1.clone() };
    assert!(a.0 == StatusCode::OK || b.0 == StatusCode::OK, "{a:?} {b:?}");
    assert_eq!(done["state"], "erased", "{done}");
    let after_first = scan(&state).await.len();
    let (status, twice) = testkit::call(&app, Method::POST, &decide, Some(&t("admin")), Some(approve.clone())).await;
    assert_eq!((status, twice["message"].as_str()), (StatusCode::CONFLICT, Some("erasure_decided")), "{twice}");
    let refuse = json!({"approve": false, "reason": "För sent"});
    assert_eq!(testkit::call(&app, Method::POST, &decide, Some(&t("admin")), Some(refuse)).await.0, StatusCode::CONFLICT);
    assert_eq!(scan(&state).await.len(), after_first, "a second decision changes nothing");

    // The customer no longer counts as active; the counters and a recount agree.
    assert_eq!(active_customers(&state).await, active_before - 1);
    assert_eq!(shared::services::recount::recount(&state, false).await.unwrap().differences, differing_before);

    // What was kept and until when: both cases (the open ones until ten
    // years after they close) and the audit trail.
    let kept = done["kept"].as_array().unwrap();
    assert_eq!(kept.iter().filter(|k| k["kind"] == "case").count(), 2, "{done}");
    for kind in ["audit_trail", "billing"] {
        assert!(kept.iter().any(|k| k["kind"] == kind && k["until"].is_string()), "{kind}: {done}");
    }

    // The customer was told, at the address it had, before it was erased.
    let mails: Vec<_> = state.mail.outbox().unwrap().lock().unwrap().iter().filter(|m| m.to == ids.customer_email).cloned().collect();
    let mail = mails.iter().find(|m| m.subject.contains("raderas")).expect("the erasure's mail");
    let case_number = kept[0]["reference"].as_str().unwrap();
    assert!(mail.body.contains(case_number) && mail.body.contains("Case "), "{}", mail.body);

    // The customer can no longer sign in, nor use its session.
    let login = json!({"email": ids.customer_email, "password": local_gateway::seed::DEMO_PASSWORD});
    let (status, _) = testkit::call(&app, Method::POST, "/api/token/", None, Some(login)).await;
    assert!(!status.is_success(), "signed in after erasure: {status}");
    assert_eq!(testkit::call(&app, Method::GET, &path, Some(&t("customer")), None).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(testkit::call(&app, Method::GET, "/api/2fa/status/", Some(&t("contact_all")), None).await.0, StatusCode::UNAUTHORIZED);

    // The cases are frozen: staff read them with the hold, every write is refused.
    let (status, case) = testkit::call(&app, Method::GET, &format!("/api/case/{}/", ids.case), Some(&t("lawyer")), None).await;
    assert_eq!(status, StatusCode::OK, "{case}");
    assert!(case["legal_hold"]["since"].is_string(), "{case}");
    assert_eq!(
        (case["actions"].clone(), case["can_edit"].clone(), case["can_enter_hours"].clone()),
        (json!([]), json!(false), json!(false))
    );
    let writes = [
        ("/api/case/hour/create/", hour_body(&ids.case)),
        ("/api/message/", json!({"case_uid": ids.case, "text": "Hej igen"})),
        ("/api/case/lawyer/note/", json!({"case_uid": ids.case, "note": "Anteckning"})),
        (&*format!("/api/case/status/{}/", ids.case), json!({"action": "complete"})),
    ];
    for (p, body) in writes {
        let (status, answer) = testkit::call(&app, Method::POST, p, Some(&t("lawyer")), Some(body)).await;
        assert_eq!((status, answer["message"].as_str()), (StatusCode::CONFLICT, Some("case_on_legal_hold")), "{p}: {answer}");
    }

    // The scan: the customer's identifiers only in what is kept; the other customer's intact.
    let held: Vec<String> = [ids.case.clone(), ids.draft_case.clone()].to_vec();
    let items = scan(&state).await;
    let day_ahead = chrono::Utc::now().timestamp() + 86_400 + 600;
    let mut leaks = vec![];
    for item in &items {
        let Some(hit) = ours.found_in(item) else { continue };
        let (pk, sk) = (text(item, "PK"), text(item, "SK"));
        let under_hold = held.iter().any(|c| pk == format!("CASE#{c}") || sk.ends_with(&format!("#{c}")));
        // Kept by law: the audit trail (10 years, never changed), the
        // accounting records (a subscription row's use), the conflict index
        // (names of parties as long as their files are kept).
        let kept_by_law = pk.starts_with("AUDIT#") || pk.starts_with("PSVC#") || pk.starts_with("CONFLICT");
        // Records that expire within a day on their own (idempotency answers, rate counters).
        let short_lived = item.get("ttl").and_then(|v| v.as_n().ok()).and_then(|n| n.parse::<i64>().ok()).is_some_and(|t| t <= day_ahead);
        if !(under_hold || kept_by_law || short_lived) {
            leaks.push(format!("{pk} / {sk}: {hit}"));
        }
    }
    assert!(leaks.is_empty(), "personal data of the erased customer outside legal hold:\n{}", leaks.join("\n"));
    for needle in [other.email.to_lowercase(), local_gateway::seed::DEMO_COMPANY2.to_lowercase()] {
        assert!(items.iter().any(|i| texts(i).iter().any(|t| t.contains(&needle))), "the other customer's {needle} is gone");
    }
    assert!(items.iter().filter(|i| theirs.found_in(i).is_some()).count() > 10, "the other customer's data is intact");
    let other_login = json!({"email": other.email, "password": local_gateway::seed::DEMO_PASSWORD});
    assert_eq!(testkit::call(&app, Method::POST, "/api/token/", None, Some(other_login)).await.0, StatusCode::OK);

    // The bucket: the case's document kept; the profile image, the envelope's file gone.
    let keys = state.files.keys_under("").await.unwrap();
    assert!(keys.contains(&document), "{keys:?}");
    let people: Vec<String> = [ids.customer.clone(), ids.contact.clone()].to_vec();
    for k in &keys {
        assert!(!people.iter().any(|p| k.contains(p.as_str())) || k.starts_with("cases/"), "{k} survived the erasure");
    }
    assert!(keys.contains(&their_image), "the other customer's files are intact: {keys:?}");
}

#[tokio::test]
async fn a_refused_erasure_tells_the_customer_why_and_it_may_ask_again() {
    let world = seed().await;
    let (state, app, path, asked) = asked_to_be_forgotten(&world).await;
    let ids = &world.ids;
    let t = |who: &str| world.tokens[who].clone().unwrap();
    let decide = format!("/api/customer/erasure/{}/{}/decide/", ids.customer, asked["id"].as_str().unwrap());
    // A refusal needs its reason, bounded.
    for bad in [json!({"approve": false}), json!({"approve": false, "reason": " "}), json!({"approve": false, "reason": "x".repeat(1001)})]
    {
        let (status, answer) = testkit::call(&app, Method::POST, &decide, Some(&t("admin")), Some(bad)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        assert!(
            answer["fields"]["reason"].is_array() || answer["errors"]["reason"].is_array() || answer.to_string().contains("reason"),
            "{answer}"
        );
    }
    let reason = "Pågående tvist i ärendet: uppgifterna behövs för att försvara rättsliga anspråk.";
    let refused = ok(
        "refuse",
        testkit::call(&app, Method::POST, &decide, Some(&t("admin")), Some(json!({"approve": false, "reason": reason}))).await,
    );
    assert_eq!((refused["state"].as_str(), refused["reason"].as_str()), (Some("refused"), Some(reason)), "{refused}");

    // The customer reads it on its page and by mail; nothing was erased.
    let mine = ok("mine", testkit::call(&app, Method::GET, &path, Some(&t("customer")), None).await);
    assert_eq!((mine[0]["state"].as_str(), mine[0]["reason"].as_str()), (Some("refused"), Some(reason)), "{mine}");
    let mails = state.mail.outbox().unwrap().lock().unwrap().clone();
    assert!(mails.iter().any(|m| m.to == ids.customer_email && m.body.contains(reason)), "the refusal's mail");
    let case = ok("case", testkit::call(&app, Method::GET, &format!("/api/case/{}/", ids.case), Some(&t("lawyer")), None).await);
    assert!(case.get("legal_hold").is_none(), "{case}");
    ok("hour", testkit::call(&app, Method::POST, "/api/case/hour/create/", Some(&t("lawyer")), Some(hour_body(&ids.case))).await);
    // A contact may read nothing of it; admin reads it; the customer may ask again.
    assert_eq!(testkit::call(&app, Method::GET, &path, Some(&t("contact_all")), None).await.0, StatusCode::FORBIDDEN);
    ok("admin reads", testkit::call(&app, Method::GET, &path, Some(&t("admin")), None).await);
    assert_eq!(testkit::call(&app, Method::POST, &path, Some(&t("customer")), None).await.0, StatusCode::CREATED);
}

#[tokio::test]
async fn a_profile_changed_while_it_is_erased_is_read_again_and_the_counters_stay_right() {
    let world = seed().await;
    let (state, app, _, asked) = asked_to_be_forgotten(&world).await;
    let ids = &world.ids;
    let t = |who: &str| world.tokens[who].clone().unwrap();
    let differing_before = shared::services::recount::recount(&state, false).await.unwrap().differences;
    let active_before = active_customers(&state).await;

    // The erasure read the profile and decided its rewrite (the customer
    // active: one active customer fewer) ...
    let stale = shared::services::erasure::profile_erasure(&state, &ids.customer).await.unwrap().expect("a profile to erase");
    // ... while admin deactivated the customer (one active customer fewer, counted).
    let deactivate = format!("/api/user/deactivate/{}/", ids.customer);
    ok("deactivate", testkit::call(&app, Method::POST, &deactivate, Some(&t("admin")), None).await);
    assert_eq!(active_customers(&state).await, active_before - 1);
    // Its write, decided from what it read, writes nothing now: not the
    // profile, not the counters (the customer is not taken away twice).
    assert!(!state.store.commit(stale).await.unwrap(), "a rewrite decided from a profile that changed meanwhile");
    let profile = state.store.get_customer_profile_latest(&ids.customer).await.unwrap().unwrap();
    assert_eq!(profile.company_name.as_deref(), Some(local_gateway::seed::DEMO_COMPANY), "the deactivation stands, nothing erased");
    assert_eq!(active_customers(&state).await, active_before - 1);
    assert_eq!(shared::services::recount::recount(&state, false).await.unwrap().differences, differing_before);

    // The erasure itself reads the profile again and completes.
    let decide = format!("/api/customer/erasure/{}/{}/decide/", ids.customer, asked["id"].as_str().unwrap());
    let done = ok("approve", testkit::call(&app, Method::POST, &decide, Some(&t("admin")), Some(json!({"approve": true}))).await);
    assert_eq!(done["state"], "erased", "{done}");
    let profile = state.store.get_customer_profile_latest(&ids.customer).await.unwrap().unwrap();
    assert_eq!(
        (profile.email.clone(), profile.company_name.as_deref()),
        (shared::domain::data_rights::erased_email(&ids.customer), Some(shared::domain::data_rights::ERASED_TEXT))
    );
    assert_eq!(active_customers(&state).await, active_before - 1, "inactive once");
    assert_eq!(shared::services::recount::recount(&state, false).await.unwrap().differences, differing_before);
}

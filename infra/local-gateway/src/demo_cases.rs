//! Demo cases for the local platform (`infra/dev.sh`): the two demo
//! customers' cases in every state, enough for every list to page, made
//! through the API exactly as the demo users would (customers and staff
//! create, admin publishes, the lawyer accepts, logs hours and closes), so
//! the seed never bypasses a rule. Idempotent: nothing happens once the demo
//! customer has cases (checked before anyone signs in). Off in tests
//! (SEED_DEMO_CASES=1 turns it on).

use axum::body::Body;
use axum::http::{header, Method, Request};
use axum::Router;
use serde_json::{json, Value};
use shared::api::AppState;
use shared::domain::case::ListOrder;
use shared::domain::catalogue::{Hundredths, Package, ServicePlan};
use shared::domain::subscription::{whole_seconds, Grant};
use shared::error::ApiError;
use tower::ServiceExt;

use crate::seed::{DEMO_CUSTOMER2_EMAIL, DEMO_CUSTOMER_EMAIL};

/// The demo's case types, the same fields of law as its knowledge sectors,
/// named in Swedish and English.
pub const DEMO_CASE_TYPES: [(&str, &str); 5] = crate::seed::DEMO_KNOWLEDGE_SECTORS;

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

    async fn act(&self, uid: &str, action: &str) -> Result<(), ApiError> {
        self.call(Method::POST, &format!("/api/case/status/{uid}/"), Some(json!({ "action": action }))).await.map(|_| ())
    }
}

async fn caller<'a>(state: &AppState, router: &'a Router, email: &str) -> Result<(Caller<'a>, String), ApiError> {
    let user = state.store.find_user_by_email(email).await?.ok_or_else(|| ApiError::internal(format!("demo cases need {email}")))?;
    let token = shared::services::credentials::start_session(state, &user).await?.access_token;
    Ok((Caller { router, token }, user.uid))
}

/// What happens to a demo case after it is created.
#[derive(Clone, Copy, PartialEq)]
enum Fate {
    /// Stays a draft for admin to verify ('Pending').
    Pending,
    /// Published: waits for a lawyer ('Available').
    Available,
    /// Accepted by the demo lawyer, with these hours logged ('Active').
    Active(&'static [(&'static str, &'static str)]),
    /// Worked on and closed ('Closed').
    Closed(&'static [(&'static str, &'static str)]),
}

/// Who opens a demo case.
#[derive(Clone, Copy)]
enum By {
    Customer,
    Sales,
    Admin,
    Lawyer,
}

/// One demo case, written positionally so that each reads as one row of
/// the table below: the second customer's (else the first's), who opens it,
/// subject, description, case type, estimated hours, counterpart, fate.
#[derive(Clone, Copy)]
struct Demo(bool, By, &'static str, &'static str, &'static str, &'static str, &'static str, Fate);

const H1: &[(&str, &str)] = &[("2,5", "Genomgång av handlingarna"), ("1,25", "Brev till motparten")];
const H2: &[(&str, &str)] =
    &[("1", "Telefonmöte med klienten"), ("3", "Utkast till avtal"), ("0,75", "Justeringar efter klientens synpunkter")];
const H3: &[(&str, &str)] = &[("4", "Processinlaga"), ("2", "Förberedelse inför förhandling")];

/// The demo cases, oldest first (both customers, every state, ≥ 25).
const DEMOS: [Demo; 27] = [
    Demo(
        false,
        By::Customer,
        "Uppsägning av lokalhyresavtal",
        "Hyresvärden har sagt upp kontoret på Storgatan; vi vill pröva uppsägningen.",
        "Hyresrätt",
        "8",
        "Fastighets AB Storgatan",
        Fate::Active(H1),
    ),
    Demo(
        false,
        By::Sales,
        "Anställningsavtal för ny VD",
        "Utkast till anställningsavtal med konkurrensklausul.",
        "Arbetsrätt",
        "4",
        "",
        Fate::Available,
    ),
    Demo(
        false,
        By::Customer,
        "Granskning av leverantörsavtal",
        "Ramavtal med ny leverantör, 3 år, vite vid försening.",
        "Avtalsrätt",
        "3,5",
        "Leverantören AB",
        Fate::Pending,
    ),
    Demo(
        false,
        By::Customer,
        "Tvist om obetald faktura",
        "Kunden betalar inte för levererade varor; krav på 180 000 kr.",
        "Avtalsrätt",
        "6",
        "Handelshuset Nord AB",
        Fate::Closed(H3),
    ),
    Demo(
        false,
        By::Admin,
        "Aktieägaravtal inför nyemission",
        "Tre nya delägare; hembud och förköp ska regleras.",
        "Bolagsrätt",
        "10",
        "",
        Fate::Active(H2),
    ),
    Demo(
        false,
        By::Lawyer,
        "Omförhandling av hyra",
        "Indexuppräkning som överstiger avtalet.",
        "Hyresrätt",
        "5",
        "Fastighets AB Storgatan",
        Fate::Active(H1),
    ),
    Demo(
        false,
        By::Customer,
        "Varsel om uppsägning på grund av arbetsbrist",
        "Turordning och förhandling med facket.",
        "Arbetsrätt",
        "12",
        "Unionen",
        Fate::Closed(H2),
    ),
    Demo(
        false,
        By::Sales,
        "Licensavtal för programvara",
        "Leverantörens standardvillkor behöver granskas.",
        "Avtalsrätt",
        "3",
        "Mjukvaruhuset AB",
        Fate::Available,
    ),
    Demo(
        false,
        By::Customer,
        "Sekretessavtal med konsult",
        "NDA inför projekt med extern konsult.",
        "Avtalsrätt",
        "1,5",
        "Konsultbolaget i Stockholm AB",
        Fate::Closed(H1),
    ),
    Demo(
        false,
        By::Customer,
        "Skadestånd efter vattenskada",
        "Vattenskada i lagret; försäkringsbolaget nekar ersättning.",
        "Avtalsrätt",
        "7",
        "Försäkringsbolaget Trygg",
        Fate::Pending,
    ),
    Demo(
        false,
        By::Admin,
        "Styrelseansvar vid kontrollbalansräkning",
        "Revisorn flaggar att kapitalet understiger hälften.",
        "Bolagsrätt",
        "6",
        "",
        Fate::Available,
    ),
    Demo(
        false,
        By::Customer,
        "Arbetsmiljöfrågor i lagret",
        "Arbetsmiljöverket har begärt åtgärder.",
        "Arbetsrätt",
        "4",
        "Arbetsmiljöverket",
        Fate::Active(H3),
    ),
    Demo(
        false,
        By::Sales,
        "Samarbetsavtal med distributör",
        "Exklusivitet i Norden under två år.",
        "Avtalsrätt",
        "5",
        "Nordisk Distribution AS",
        Fate::Pending,
    ),
    Demo(
        false,
        By::Customer,
        "Överlåtelse av hyreskontrakt",
        "Verksamheten säljs; kontraktet ska följa med.",
        "Hyresrätt",
        "2",
        "Fastighets AB Storgatan",
        Fate::Closed(H2),
    ),
    Demo(
        true,
        By::Customer,
        "Entreprenadtvist om försenad byggnation",
        "Beställaren kräver vite för försening av etapp 2.",
        "Avtalsrätt",
        "20",
        "Bostadsrättsföreningen Ekbacken",
        Fate::Active(H2),
    ),
    Demo(
        true,
        By::Sales,
        "Ramavtal med underentreprenör",
        "AB 04 med tillägg för arbetsmiljöansvar.",
        "Avtalsrätt",
        "6",
        "Plåt & Tak i Väst AB",
        Fate::Available,
    ),
    Demo(
        true,
        By::Customer,
        "Olycksfall på arbetsplatsen",
        "Anställd skadad; utredning av arbetsgivarens ansvar.",
        "Arbetsrätt",
        "8",
        "",
        Fate::Closed(H3),
    ),
    Demo(
        true,
        By::Customer,
        "Detaljplan och bygglov",
        "Överklagande av kommunens beslut om bygglov.",
        "Bolagsrätt",
        "9",
        "Göteborgs kommun",
        Fate::Pending,
    ),
    Demo(
        true,
        By::Admin,
        "Köp av fastighetsbolag",
        "Due diligence inför förvärv av bolag med tre fastigheter.",
        "Bolagsrätt",
        "30",
        "Fastighetsförvaltning Väst AB",
        Fate::Active(H1),
    ),
    Demo(true, By::Customer, "Uppsägning av platschef", "Samarbetssvårigheter; saklig grund?", "Arbetsrätt", "5", "", Fate::Closed(H1)),
    Demo(
        true,
        By::Lawyer,
        "Hyresavtal för bodetablering",
        "Korttidsavtal för mark och bodar under byggtiden.",
        "Hyresrätt",
        "2",
        "Markägarna i Mölndal",
        Fate::Active(H1),
    ),
    Demo(
        true,
        By::Customer,
        "Garantiärende efter slutbesiktning",
        "Fukt i två lägenheter upptäckt efter slutbesiktning.",
        "Avtalsrätt",
        "6",
        "Bostadsrättsföreningen Ekbacken",
        Fate::Active(H3),
    ),
    Demo(
        true,
        By::Sales,
        "Föräldraledighet och vikariat",
        "Vikariatsavtal och föräldraledighet för två anställda.",
        "Familjerätt",
        "2",
        "",
        Fate::Pending,
    ),
    Demo(
        true,
        By::Customer,
        "Kreditupplysning på ny beställare",
        "Ny beställare vill ha lång betaltid.",
        "Avtalsrätt",
        "1",
        "Nybygget i Borås AB",
        Fate::Closed(H2),
    ),
    Demo(
        true,
        By::Customer,
        "Leverans av felaktigt virke",
        "Reklamation av virke som inte höll utlovad klass.",
        "Avtalsrätt",
        "4",
        "Trävaruhuset Syd AB",
        Fate::Available,
    ),
    Demo(
        false,
        By::Customer,
        "Bodelning efter skilsmässa",
        "Delägarens privata angelägenhet som påverkar aktierna.",
        "Familjerätt",
        "3",
        "",
        Fate::Pending,
    ),
    Demo(
        true,
        By::Customer,
        "Överklagan av miljösanktionsavgift",
        "Avgift för buller vid nattarbete.",
        "Bolagsrätt",
        "3",
        "Länsstyrelsen Västra Götaland",
        Fate::Closed(H1),
    ),
];

/// Returns how many cases were made (0 when the demo customer already has some).
pub async fn seed_demo_cases(state: &AppState, router: &Router) -> Result<usize, ApiError> {
    let customer_user = state
        .store
        .find_user_by_email(DEMO_CUSTOMER_EMAIL)
        .await?
        .ok_or_else(|| ApiError::internal("demo cases need the demo customer"))?;
    // Checked before anyone signs in, so a restart leaves no session behind.
    let existing = shared::services::cases::list(state, &customer_user, "all", "", ListOrder::Desc, None).await?;
    if !existing.results.is_empty() {
        return Ok(0);
    }
    let (customer, customer_uid) = caller(state, router, DEMO_CUSTOMER_EMAIL).await?;
    let (customer2, customer2_uid) = caller(state, router, DEMO_CUSTOMER2_EMAIL).await?;
    let (admin, _) = caller(state, router, "admin@example.com").await?;
    let (lawyer, _) = caller(state, router, "lawyer@example.com").await?;
    let (sales, _) = caller(state, router, "sales@example.com").await?;

    let mut types = admin.call(Method::GET, "/api/typeofcase/list/", None).await?;
    if types.as_array().is_none_or(|t| t.is_empty()) {
        for (name, name_en) in DEMO_CASE_TYPES {
            admin.call(Method::POST, "/api/typeofcase/", Some(json!({"name": name, "name_en": name_en, "description": ""}))).await?;
        }
        types = admin.call(Method::GET, "/api/typeofcase/list/", None).await?;
    }
    let type_id = |name: &str| {
        types.as_array().and_then(|l| l.iter().find(|t| t["name"] == name).or(l.first())).map(|t| t["id"].clone()).unwrap_or(Value::Null)
    };

    // Cases need the consultancy-hours service (spec §8).
    let now = whole_seconds(chrono::Utc::now().naive_utc());
    // Enough for the cases below and the past cases of `seed_demo_history`.
    for (uid, hours) in [(&customer_uid, 60), (&customer2_uid, 60)] {
        if state.store.current_hour_row(uid, now).await?.is_none() {
            let grant = Grant::custom(&format!("Konsulttimmar {hours} h"), Hundredths(hours * 100), 365);
            shared::services::subscriptions::grant(state, uid, &grant, now - chrono::Duration::seconds(1)).await?;
        }
    }

    let today = chrono::Utc::now().date_naive();
    for &Demo(second_customer, by, subject, description, case_type, estimated, counterpart, fate) in &DEMOS {
        let (owner, owner_uid) = if second_customer { (&customer2, &customer2_uid) } else { (&customer, &customer_uid) };
        let mut body = json!({
            "subject": subject, "description": description, "type": type_id(case_type), "estimated_hours": estimated,
            "counterpart": counterpart, "contact_person": "Kontaktperson hos kunden",
            "address": {"address_1": "Storgatan 1", "city": "Stockholm", "country": "SE", "post_code": "11122"},
        });
        let (who, path) = match by {
            By::Customer => (owner, "/api/case/create/by/customer/"),
            By::Sales => (&sales, "/api/case/create/"),
            By::Admin => (&admin, "/api/case/create/"),
            By::Lawyer => (&lawyer, "/api/case/create/by/lawyer/"),
        };
        if !matches!(by, By::Customer) {
            body["customer"] = json!(owner_uid);
        }
        if matches!(by, By::Sales) {
            body["short_internal_description"] = json!("Kunden vill ha återkoppling inom en vecka");
        }
        let created = who.call(Method::POST, path, Some(body)).await?;
        let uid = created["uid"].as_str().unwrap_or_default().to_string();
        if fate == Fate::Pending {
            continue;
        }
        admin.act(&uid, "publish").await?;
        let (hours, close) = match fate {
            Fate::Active(h) => (h, false),
            Fate::Closed(h) => (h, true),
            _ => continue,
        };
        // A lawyer's own case went straight to them when published.
        if !matches!(by, By::Lawyer) {
            lawyer.act(&uid, "accept").await?;
        }
        for (i, (hour, text)) in hours.iter().enumerate() {
            let date = (today - chrono::Duration::days(2 * (hours.len() - i) as i64)).to_string();
            let entry = json!({"case_uid": uid, "hour": hour, "date": date, "time": "09:00", "description": text});
            lawyer.call(Method::POST, "/api/case/hour/create/", Some(entry)).await?;
        }
        if close {
            lawyer.act(&uid, "complete").await?;
        }
    }
    seed_demo_history(state, &admin, &lawyer, [&customer, &customer2]).await?;
    Ok(DEMOS.len())
}

// ------------------------------------------------- statistics history ----

/// A case the demo lawyer worked on last month (every dashboard
/// and statistics page shows figures for this month and last month).
struct Past {
    customer2: bool,
    subject: &'static str,
    case_type: &'static str,
    /// Day of last month the case was opened (Stockholm).
    opened: u32,
    /// (day of last month, billable, non-billable, rättsskydd, text).
    hours: &'static [(u32, &'static str, &'static str, &'static str, &'static str)],
    /// One more entry yesterday (this month when yesterday is): billable,
    /// non-billable, rättsskydd.
    recent: Option<(&'static str, &'static str, &'static str)>,
    /// The admin marks its entries invoiced.
    invoiced: bool,
    closed: bool,
}

const PAST: [Past; 4] = [
    Past {
        customer2: false,
        subject: "Förhandling om lokalhyra i Solna",
        case_type: "Hyresrätt",
        opened: 3,
        hours: &[(5, "3", "0,5", "0", "Genomgång av hyresavtalet"), (9, "2,25", "0", "0", "Förhandlingsmöte med hyresvärden")],
        recent: None,
        invoiced: true,
        closed: true,
    },
    Past {
        customer2: true,
        subject: "Tvist med beställare om ÄTA-arbeten",
        case_type: "Avtalsrätt",
        opened: 6,
        hours: &[
            (8, "4", "1", "0", "Genomgång av ÄTA-listor"),
            (15, "3,5", "0", "1,5", "Stämningsansökan"),
            (22, "2", "0", "0", "Förlikningsförslag"),
        ],
        recent: Some(("1,5", "0,5", "0,75")),
        invoiced: true,
        closed: false,
    },
    Past {
        customer2: false,
        subject: "Omplacering av lagerpersonal",
        case_type: "Arbetsrätt",
        opened: 12,
        hours: &[(13, "1,5", "0", "0", "Rådgivning om omplacering"), (19, "2", "0,25", "0", "Underlag till MBL-förhandling")],
        recent: Some(("2", "0,25", "1")),
        invoiced: false,
        closed: false,
    },
    Past {
        customer2: true,
        subject: "Bolagsordning efter fusion",
        case_type: "Bolagsrätt",
        opened: 17,
        hours: &[(18, "5", "0", "0", "Utkast till ny bolagsordning"), (24, "1,75", "0,5", "0", "Stämmoprotokoll")],
        recent: None,
        invoiced: false,
        closed: true,
    },
];

/// Day `day` of the month before `today`'s (clamped to its last day).
fn last_month_day(today: chrono::NaiveDate, day: u32) -> chrono::NaiveDate {
    use chrono::Datelike;
    use shared::domain::calendar::{first_of_month, last_of_month};
    let last = first_of_month(today) - chrono::Duration::days(1);
    first_of_month(last).with_day(day.min(last_of_month(last).day())).unwrap_or(last)
}

/// The demo's history for the statistics: cases opened last month,
/// published and accepted hours later and closed since (so the legal page's
/// times to accept are hours and to close days, not the seconds the cases
/// above took), hours on last month's dates, some invoiced, and packages and
/// plans sold this month and last month. The cases are opened, published
/// and accepted through the cases use cases at earlier moments (the only
/// way to have a past); everything else goes through the API like the cases
/// above.
async fn seed_demo_history(state: &AppState, admin: &Caller<'_>, lawyer: &Caller<'_>, customers: [&Caller<'_>; 2]) -> Result<(), ApiError> {
    use shared::domain::calendar::{stockholm_date, stockholm_day_start};
    use shared::domain::case::{CaseForm, CreateVia};
    let admin_user =
        state.store.find_user_by_email("admin@example.com").await?.ok_or_else(|| ApiError::internal("demo history needs the admin"))?;
    let lawyer_user =
        state.store.find_user_by_email("lawyer@example.com").await?.ok_or_else(|| ApiError::internal("demo history needs the lawyer"))?;
    let customer_uid = |second: bool| async move {
        let email = if second { DEMO_CUSTOMER2_EMAIL } else { DEMO_CUSTOMER_EMAIL };
        state.store.find_user_by_email(email).await.map(|u| u.map(|u| u.uid).unwrap_or_default())
    };
    let types = admin.call(Method::GET, "/api/typeofcase/list/", None).await?;
    let type_id = |name: &str| types.as_array().and_then(|l| l.iter().find(|t| t["name"] == name)).map(|t| t["id"].clone());
    // The demo's knowledge sectors carry the case types' names: the firm
    // files each past case under its field of law (the legal page's pairs).
    let sectors = admin.call(Method::GET, "/api/knowledge/sector/list/", None).await?;
    let sector_id = |name: &str| sectors.as_array().and_then(|l| l.iter().find(|t| t["name"] == name)).map(|t| t["id"].clone());
    let today = stockholm_date(chrono::Utc::now());
    let yesterday = today - chrono::Duration::days(1);
    for p in &PAST {
        let form: CaseForm = serde_json::from_value(json!({
            "subject": p.subject, "description": p.subject, "type": type_id(p.case_type), "estimated_hours": "12",
            "knowledge_sector": sector_id(p.case_type),
            // Open cases have a deadline ahead (the lawyer's dashboard).
            "deadline": (!p.closed).then(|| (today + chrono::Duration::days(7 + 5 * p.opened as i64 % 14)).to_string()),
            "contact_person": "Kontaktperson hos kunden",
            "address": {"address_1": "Storgatan 1", "city": "Stockholm", "country": "Sweden", "post_code": "11122"},
        }))
        .map_err(ApiError::internal)?;
        let opened = stockholm_day_start(last_month_day(today, p.opened)) + chrono::Duration::hours(9);
        let customer = customer_uid(p.customer2).await?;
        let case = shared::services::cases::open(
            state,
            &admin_user,
            CreateVia::Staff,
            &customer,
            form,
            opened,
            &shared::store::idempotency::Once::none(),
        )
        .await?;
        // Published an hour after it was opened and accepted some hours
        // later, at those moments (the legal page's time to accept).
        use shared::domain::case::Transition;
        shared::services::cases::change_status_at(state, &admin_user, &case.uid, Transition::Publish, opened + chrono::Duration::hours(1))
            .await?;
        let accepted = opened + chrono::Duration::hours(3 + i64::from(p.opened % 5));
        shared::services::cases::change_status_at(state, &lawyer_user, &case.uid, Transition::Accept, accepted).await?;
        let mut ids = Vec::new();
        let recent = p.recent.map(|(b, nb, rs)| (yesterday, b, nb, rs, "Uppföljning med klienten"));
        let entries = p.hours.iter().map(|(d, b, nb, rs, text)| (last_month_day(today, *d), *b, *nb, *rs, *text)).chain(recent);
        for (date, hour, nb, rs, text) in entries {
            let entry = json!({"case_uid": case.uid, "hour": hour, "non_billable_hour": nb, "rattsskydd_hour": rs,
                "date": date.to_string(), "time": "10:00", "description": text});
            let made = lawyer.call(Method::POST, "/api/case/hour/create/", Some(entry)).await?;
            ids.push(made["id"].clone());
        }
        if p.invoiced {
            let body = json!({"case_uid": case.uid, "ids": ids, "is_invoiced": true});
            admin.call(Method::PUT, "/api/case/hour/mass-update/", Some(body)).await?;
        }
        if p.closed {
            lawyer.act(&case.uid, "complete").await?;
            // The customer rates the closed case (the lawyer's rating).
            let stars = if p.customer2 { 4 } else { 5 };
            let rating = json!({"case_uid": case.uid, "stars": stars, "comment": "Snabbt och tydligt besked."});
            customers[usize::from(p.customer2)].call(Method::POST, "/api/rating/create/", Some(rating)).await?;
        }
    }
    // Sold: a credit-check plan last month (the first customer), a package
    // of hours this month (the second, in advance of its current hours).
    let first = customer_uid(false).await?;
    let plans = state.store.list_offers::<ServicePlan>().await?;
    if let Some(plan) = plans.iter().find(|p| p.service_id == shared::domain::catalogue::BISNODE) {
        let sold = last_month_day(today, 10);
        let at = stockholm_day_start(sold) + chrono::Duration::hours(11);
        // A trial that ends in 20 days, so the dashboards' subscriptions
        // expiring within 30 days show it.
        let days = ((today - sold).num_days() + 20) as u32;
        let grant = shared::domain::subscription::Grant { days, ..shared::domain::subscription::Grant::from_plan(plan) };
        shared::services::subscriptions::grant(state, &first, &grant, whole_seconds(at.naive_utc())).await?;
    }
    let package = state.store.list_offers::<Package>().await?.into_iter().filter(|p| p.public).max_by_key(|p| p.price.0);
    if let Some(p) = package {
        customers[1].call(Method::POST, "/api/subscription/packages/", Some(json!({"package_id": p.id}))).await?;
    }
    register_pending_customer(state, admin.router).await
}

/// A company that registered and waits for admin's approval (the admin
/// dashboard's and menu's pending customers), through the public form.
async fn register_pending_customer(state: &AppState, router: &Router) -> Result<(), ApiError> {
    const EMAIL: &str = "kafe.vantan@example.com";
    if state.store.find_user_by_email(EMAIL).await?.is_some() {
        return Ok(());
    }
    let sector = state.store.list_business_sectors().await?.into_iter().find(|s| s.name == "Retail").map(|s| s.id).unwrap_or_default();
    let address = json!({"address_1": "Väntevägen 3", "address_2": "", "city": "Uppsala", "post_code": "75320", "country": 1});
    let body = json!({
        "customer_type": "Company", "first_name": "Vera", "last_name": "Väntan", "email": EMAIL,
        "password": crate::seed::DEMO_PASSWORD, "confirm_password": crate::seed::DEMO_PASSWORD,
        "company_name": "Kafé Väntan AB", "company_registration_number": "556000-0043", "sector": sector.to_string(),
        "phone": "+46 70 765 43 21", "profile": address, "same_invoice_address": true, "invoice_address": address,
        "terms_accepted": true, "privacy_accepted": true,
    });
    let req = Request::builder()
        .method(Method::POST)
        .uri("/api/registration/")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .map_err(ApiError::internal)?;
    let res = router.clone().oneshot(req).await.map_err(ApiError::internal)?;
    if !res.status().is_success() {
        let bytes = axum::body::to_bytes(res.into_body(), 1 << 20).await.map_err(ApiError::internal)?;
        return Err(ApiError::internal(format!("demo registration: {}", String::from_utf8_lossy(&bytes))));
    }
    Ok(())
}

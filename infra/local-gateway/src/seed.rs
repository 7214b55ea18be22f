//! Demo accounts, one per role, created by the dev command (idempotent).

use shared::api::AppState;
use shared::domain::customer::{Address, CustomerProfile, CustomerState, CustomerType, SectorRef, COUNTRY_SWEDEN};
use shared::domain::staff::LawyerDetails;
use shared::domain::{Permission, Role, User, UserSubType};
use shared::error::ApiError;
use shared::services::accounts::{new_user, store_account, NewAccount};
use shared::store::users::CreateUserError;

/// Shared by every demo account; printed at start and listed in the README.
pub const DEMO_PASSWORD: &str = "Demo-2026-pass!";

pub struct DemoAccount {
    pub email: &'static str,
    pub role: Role,
    pub first_name: &'static str,
    pub last_name: &'static str,
    /// Customer contacts only (spec §3).
    pub permissions: &'static [Permission],
}

/// The demo contact: cases, chat in cases and most services, but NOT
/// view_contact, so the demo shows a contact without the Users menu.
pub const DEMO_CONTACT_PERMISSIONS: &[Permission] = &[
    Permission::ViewVerify,
    Permission::ViewBisnode,
    Permission::ViewKontracto,
    Permission::AddCase,
    Permission::ChatInCases,
    Permission::ViewAllCases,
    Permission::ViewTimeBank,
];

/// The customer demo and e2e contacts belong to.
pub const DEMO_CUSTOMER_EMAIL: &str = "customer@example.com";

/// The second demo customer (a construction company), so lists hold more
/// than one customer's cases.
pub const DEMO_CUSTOMER2_EMAIL: &str = "customer2@example.com";

pub const DEMO_ACCOUNTS: [DemoAccount; 6] = [
    DemoAccount { email: "admin@example.com", role: Role::Admin, first_name: "Astrid", last_name: "Admin", permissions: &[] },
    DemoAccount { email: "lawyer@example.com", role: Role::Lawyer, first_name: "Lars", last_name: "Advokat", permissions: &[] },
    DemoAccount { email: "sales@example.com", role: Role::SalesPerson, first_name: "Sara", last_name: "Säljare", permissions: &[] },
    DemoAccount { email: "customer@example.com", role: Role::Customer, first_name: "Karin", last_name: "Kund", permissions: &[] },
    DemoAccount {
        email: "contact@example.com",
        role: Role::CustomerContact,
        first_name: "Kalle",
        last_name: "Kontakt",
        permissions: DEMO_CONTACT_PERMISSIONS,
    },
    DemoAccount { email: DEMO_CUSTOMER2_EMAIL, role: Role::Customer, first_name: "Bengt", last_name: "Byggare", permissions: &[] },
];

/// Extra customers the browser tests change (two-factor on and off, password
/// recovery, authenticator-app enrolment, the Users screens as a contact,
/// buying and losing subscriptions), so the demo accounts stay as printed.
/// Seeded with `SEED_E2E=1`.
pub const E2E_ACCOUNTS: [DemoAccount; 8] = [
    DemoAccount { email: "twofactor@example.com", role: Role::Customer, first_name: "Tove", last_name: "Tvåsteg", permissions: &[] },
    DemoAccount { email: "recovery@example.com", role: Role::Customer, first_name: "Rut", last_name: "Återställning", permissions: &[] },
    DemoAccount { email: "totp@example.com", role: Role::Customer, first_name: "Tim", last_name: "Tidskod", permissions: &[] },
    // Buys and loses subscriptions in the subscriptions e2e test.
    DemoAccount { email: "subscriber@example.com", role: Role::Customer, first_name: "Siv", last_name: "Abonnent", permissions: &[] },
    // Opens a case and follows its hours in the cases e2e test.
    DemoAccount { email: "case-customer@example.com", role: Role::Customer, first_name: "Cecilia", last_name: "Ärende", permissions: &[] },
    // A contact of the demo customer holding every permission (the Users screens as a contact).
    DemoAccount {
        email: "contact-admin@example.com",
        role: Role::CustomerContact,
        first_name: "Alva",
        last_name: "Administratör",
        permissions: &Permission::ALL,
    },
    // A second lawyer: finds another lawyer's case by its counterpart in the conflict search e2e test.
    DemoAccount { email: "lawyer2@example.com", role: Role::Lawyer, first_name: "Lova", last_name: "Jurist", permissions: &[] },
    // Links BankID on the profile page and signs in with it (the providers' stand-in) in the BankID e2e test.
    DemoAccount { email: "bankid@example.com", role: Role::Customer, first_name: "Bo", last_name: "Bankid", permissions: &[] },
];

/// The demo accounts one signs in to with BankID (the providers' stand-in
/// answers as BankID's test environment does): (e-mail, personal number).
/// The demo customer's number is the one an order completes for when
/// nothing was scripted, so "Logga in med BankID" signs it in as it is;
/// the lawyer's is scripted first (README, Demo accounts).
pub const DEMO_BANKID: [(&str, &str); 2] =
    [(DEMO_CUSTOMER_EMAIL, shared::providers::stand_in::bankid::DEFAULT_PERSON), ("lawyer@example.com", "198001011231")];

/// Links the demo BankID accounts' personal numbers (as a completed link
/// order does). Once: an account that has a link, or a number that is
/// someone's, is left as it is. Not in the tests' worlds, whose customer
/// and lawyer link BankID themselves.
pub async fn seed_demo_bankid(state: &AppState) -> Result<usize, ApiError> {
    let mut linked = 0;
    for (email, number) in DEMO_BANKID {
        let Some(user) = state.store.find_user_by_email(email).await? else { continue };
        if state.store.bankid_link_of(&user.uid).await?.is_some() || state.store.personal_number_owner(number).await?.is_some() {
            continue;
        }
        if state.store.link_bankid(&user.uid, number, chrono::Utc::now().timestamp()).await? == shared::store::bankid::Linked::Done {
            linked += 1;
        }
    }
    Ok(linked)
}

/// Knowledge sectors of the demo (a lawyer works in at least one).
/// Named in Swedish and English, as admin names them (data users read is in their language).
pub const DEMO_KNOWLEDGE_SECTORS: [(&str, &str); 5] = [
    ("Hyresrätt", "Tenancy law"),
    ("Arbetsrätt", "Employment law"),
    ("Avtalsrätt", "Contract law"),
    ("Familjerätt", "Family law"),
    ("Bolagsrätt", "Company law"),
];

/// Creates the accounts that do not exist yet; returns how many were new.
/// The demo lawyer and sales person get complete staff records (the lawyer
/// in the demo knowledge sectors), so they are listed and offered in every
/// list and dropdown like staff made through the admin screens.
pub async fn seed_demo_accounts(state: &AppState) -> Result<usize, ApiError> {
    crate::seed_content::seed_demo_content(state).await?;
    let created = seed_accounts(state, &DEMO_ACCOUNTS).await?;
    let sectors = ensure_knowledge_sectors(state).await?;
    for email in ["lawyer@example.com", "sales@example.com"] {
        let Some(user) = state.store.find_user_by_email(email).await? else { continue };
        let lawyer = shared::domain::policy::is(&user, Role::Lawyer).then(|| LawyerDetails {
            user_sub_type: UserSubType::Internal,
            company_name: None,
            hourly_rate_ore: Some(185_000),
            knowledge_sectors: sectors.clone(),
            company_affiliation: Some("Demo Advokatbyrå".into()),
            description: "Affärsjurist med inriktning på hyres-, arbets- och avtalsrätt.".into(),
            video_care_url: None,
        });
        shared::services::staff::seed_profile(state, &user, lawyer).await?;
    }
    seed_demo_verified_plan(state).await?;
    seed_demo_inkasso(state).await?;
    seed_demo_video_meeting_plan(state).await?;
    Ok(created)
}

/// The demo customer holds the seeded Verified plan (digital
/// signing), so the demo shows the service; the second demo customer has
/// none and shows the promotion screen. Once: not when it has any row of it.
async fn seed_demo_verified_plan(state: &AppState) -> Result<(), ApiError> {
    use shared::domain::catalogue::{ServicePlan, VERIFIED};
    let Some(user) = state.store.find_user_by_email("customer@example.com").await? else { return Ok(()) };
    if state.store.list_purchases(&user.uid).await?.iter().any(|r| r.service.id == VERIFIED) {
        return Ok(());
    }
    let Some(plan) = state.store.list_offers::<ServicePlan>().await?.into_iter().find(|p| p.service_id == VERIFIED) else { return Ok(()) };
    let now = chrono::Utc::now().naive_utc() - chrono::Duration::seconds(1);
    shared::services::subscriptions::grant(state, &user.uid, &shared::domain::subscription::Grant::from_plan(&plan), now).await?;
    Ok(())
}

/// The demo customer also holds debt collection (Inkasso,
/// 20 claims for a year), so the demo and the browser test show the account
/// application and claims. No Inkasso plan is in the seeded catalogue, so
/// the row is granted as admin grants a service.
async fn seed_demo_inkasso(state: &AppState) -> Result<(), ApiError> {
    grant_demo_service(state, shared::domain::catalogue::INCASSO, 20).await
}

/// The demo customer holds a video-meeting plan of 10
/// bookings for a year, so the demo books meetings with its lawyer.
async fn seed_demo_video_meeting_plan(state: &AppState) -> Result<(), ApiError> {
    grant_demo_service(state, shared::domain::catalogue::VIDEO_MEETING, 10).await
}

/// Grants the demo customer `limit` uses of a service for a year, as admin
/// grants one. Once: not when it has any row of that service.
async fn grant_demo_service(state: &AppState, service_id: u8, limit: u32) -> Result<(), ApiError> {
    let Some(user) = state.store.find_user_by_email("customer@example.com").await? else { return Ok(()) };
    if state.store.list_purchases(&user.uid).await?.iter().any(|r| r.service.id == service_id) {
        return Ok(());
    }
    let grant = shared::domain::subscription::Grant {
        service_id,
        package: None,
        service_plan: None,
        limit: Some(limit),
        hour: shared::domain::catalogue::Hundredths::ZERO,
        days: 365,
        price: None,
    };
    let now = chrono::Utc::now().naive_utc() - chrono::Duration::seconds(1);
    shared::services::subscriptions::grant(state, &user.uid, &grant, now).await?;
    Ok(())
}

/// The demo knowledge sectors (created once, as admin would); their ids.
async fn ensure_knowledge_sectors(state: &AppState) -> Result<Vec<u64>, ApiError> {
    use shared::domain::catalogue::NamedKind;
    let mut have = state.store.list_named(NamedKind::KnowledgeSector).await?;
    if have.is_empty() {
        for (sv, en) in DEMO_KNOWLEDGE_SECTORS {
            let draft =
                shared::domain::catalogue::NamedDraft { name_en: Some(en.into()), ..shared::domain::catalogue::NamedDraft::named(sv) };
            state.store.create_named_entry(NamedKind::KnowledgeSector, &draft, &shared::store::idempotency::Once::none()).await?;
        }
        have = state.store.list_named(NamedKind::KnowledgeSector).await?;
    }
    Ok(have.into_iter().map(|s| s.id).collect())
}

pub async fn seed_accounts(state: &AppState, accounts: &[DemoAccount]) -> Result<usize, ApiError> {
    let mut created = 0;
    // Contacts listed without their customer in the same list join the demo customer.
    let mut customer_uid = state.store.find_user_by_email(DEMO_CUSTOMER_EMAIL).await?.map(|u| u.uid);
    crate::seed_content::ensure_legal_texts(state).await?;
    for a in accounts {
        if let Some(existing) = state.store.find_user_by_email(a.email).await? {
            if a.role == Role::Customer {
                ensure_customer_profile(state, &existing).await?;
                crate::seed_content::accept_current(state, &existing).await?;
            }
            if a.role == Role::Customer && a.email == DEMO_CUSTOMER_EMAIL {
                customer_uid = Some(existing.uid);
            }
            continue;
        }
        let mut user = new_user(
            &state.store,
            NewAccount {
                email: a.email,
                password: DEMO_PASSWORD,
                first_name: a.first_name,
                last_name: a.last_name,
                role: a.role,
                user_sub_type: (a.role == Role::Lawyer).then_some(UserSubType::Internal),
                // The contact belongs to the demo customer's company.
                customer_id: if a.role == Role::CustomerContact { customer_uid.clone() } else { None },
                company_id: if a.role == Role::CustomerContact { customer_uid.clone() } else { None },
                active: true,
            },
        )
        .await?;
        if a.role == Role::CustomerContact {
            user.permissions = a.permissions.to_vec();
        }
        match store_account(&state.store, &user).await {
            Ok(()) => {
                created += 1;
                if a.role == Role::Customer {
                    ensure_customer_profile(state, &user).await?;
                    crate::seed_content::accept_current(state, &user).await?;
                }
                if a.role == Role::Customer && a.email == DEMO_CUSTOMER_EMAIL {
                    customer_uid = Some(user.uid);
                }
            }
            Err(CreateUserError::EmailTaken) => {}
            Err(CreateUserError::Other(e)) => return Err(e),
        }
    }
    Ok(created)
}

/// The demo customer's company (the browser tests read these values).
pub const DEMO_COMPANY: &str = "Kund Demo AB";
pub const DEMO_REGISTRATION_NUMBER: &str = "556000-0001";
/// The second demo customer's company.
pub const DEMO_COMPANY2: &str = "Bygg & Fastighet Demo AB";
pub const DEMO_REGISTRATION_NUMBER2: &str = "556000-0019";

/// Gives a seeded customer an active customer profile if it has none: the
/// demo customer a company, the browser-test customers individual ones
/// (with the registration number and the conflict-index entries, in one
/// transaction). Idempotent: an existing profile is left as it is.
async fn ensure_customer_profile(state: &AppState, user: &User) -> Result<(), ApiError> {
    if state.store.get_customer_profile(&user.uid).await?.is_some() {
        return Ok(());
    }
    // (company name, registration number, business sector, street, post code, city)
    let company = match user.email.as_str() {
        DEMO_CUSTOMER_EMAIL => Some((DEMO_COMPANY, DEMO_REGISTRATION_NUMBER, "Consumer goods", "Storgatan 1", "11122", "Stockholm")),
        DEMO_CUSTOMER2_EMAIL => {
            Some((DEMO_COMPANY2, DEMO_REGISTRATION_NUMBER2, "Building and construction", "Byggvägen 4", "41104", "Göteborg"))
        }
        _ => None,
    };
    let sector = match company {
        Some((_, _, sector, ..)) => {
            state.store.list_business_sectors().await?.into_iter().find(|s| s.name == sector).map(|s| SectorRef { id: s.id, name: s.name })
        }
        None => None,
    };
    let (street, post_code, city) = company.map_or(("Storgatan 1", "11122", "Stockholm"), |(_, _, _, st, pc, c)| (st, pc, c));
    let address = Address {
        address_1: street.into(),
        address_2: String::new(),
        city: city.into(),
        post_code: post_code.into(),
        country: COUNTRY_SWEDEN,
    };
    // The demo companies are the demo sales person's customers.
    let account_manager_uid = match company {
        Some(_) => state.store.find_user_by_email("sales@example.com").await?.map(|u| u.uid),
        None => None,
    };
    let now = chrono::Utc::now();
    let profile = CustomerProfile {
        uid: user.uid.clone(),
        customer_type: if company.is_some() { CustomerType::Company } else { CustomerType::Individual },
        company_name: company.map(|c| c.0.to_string()),
        company_registration_number: company.map(|c| c.1.to_string()),
        sector,
        phone: "+46 70 123 45 67".into(),
        profile: address.clone(),
        same_invoice_address: true,
        invoice_address: address,
        terms_accepted_at: now,
        privacy_accepted_at: now,
        state: if user.active { CustomerState::Active } else { CustomerState::Inactive },
        approved_at: Some(now),
        activated_at: Some(now),
        email: user.email.clone(),
        first_name: user.first_name.clone(),
        last_name: user.last_name.clone(),
        created_at: user.created_at,
        account_manager_uid,
        invoice_by: None,
        department_id: None,
        // The demo companies' agreed rates (SEK/h, öre): hours logged on
        // their cases count as revenue at this rate in the statistics.
        hourly_rate_ore: match user.email.as_str() {
            DEMO_CUSTOMER_EMAIL => Some(165_000),
            DEMO_CUSTOMER2_EMAIL => Some(145_000),
            _ => None,
        },
        knowledge_sectors: Vec::new(),
        company_size: None,
    };
    shared::services::customers::seed_profile(state, &profile).await.map_err(|e| match e {
        ApiError::BadRequest { .. } => ApiError::internal("the demo registration number belongs to another customer"),
        e => e,
    })?;
    Ok(())
}

pub fn print_demo_accounts(url: &str) {
    println!("\nThe platform is running at {url}");
    println!("Local outbox (mail sent by the platform): {url}/local/outbox");
    println!("API description: {url}/api/openapi.json\n");
    println!("Demo accounts (password for all: {DEMO_PASSWORD}):");
    for a in &DEMO_ACCOUNTS {
        println!("  {:<16} {}", a.role.as_str(), a.email);
    }
    println!();
}

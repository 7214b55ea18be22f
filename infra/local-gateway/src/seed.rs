//! Demo accounts, one per role, created by the dev command (idempotent).

use shared::accounts::{create_account, NewAccount};
use shared::api::AppState;
use shared::domain::{Role, UserSubType};
use shared::error::ApiError;
use shared::store::users::CreateUserError;

/// Shared by every demo account; printed at start and listed in the README.
pub const DEMO_PASSWORD: &str = "Demo-2026-pass!";

pub struct DemoAccount {
    pub email: &'static str,
    pub role: Role,
    pub first_name: &'static str,
    pub last_name: &'static str,
}

pub const DEMO_ACCOUNTS: [DemoAccount; 5] = [
    DemoAccount { email: "admin@example.com", role: Role::Admin, first_name: "Astrid", last_name: "Admin" },
    DemoAccount { email: "lawyer@example.com", role: Role::Lawyer, first_name: "Lars", last_name: "Advokat" },
    DemoAccount { email: "sales@example.com", role: Role::SalesPerson, first_name: "Sara", last_name: "Säljare" },
    DemoAccount { email: "customer@example.com", role: Role::Customer, first_name: "Karin", last_name: "Kund" },
    DemoAccount { email: "contact@example.com", role: Role::CustomerContact, first_name: "Kalle", last_name: "Kontakt" },
];

/// Extra customers the browser tests change (two-factor on and off, password
/// recovery), so the demo accounts stay as printed. Seeded with `SEED_E2E=1`.
pub const E2E_ACCOUNTS: [DemoAccount; 3] = [
    DemoAccount { email: "twofactor@example.com", role: Role::Customer, first_name: "Tove", last_name: "Tvåsteg" },
    DemoAccount { email: "recovery@example.com", role: Role::Customer, first_name: "Rut", last_name: "Återställning" },
    // Buys and loses subscriptions in the subscriptions e2e test.
    DemoAccount { email: "subscriber@example.com", role: Role::Customer, first_name: "Siv", last_name: "Abonnent" },
];

/// Creates the accounts that do not exist yet; returns how many were new.
pub async fn seed_demo_accounts(state: &AppState) -> Result<usize, ApiError> {
    seed_accounts(state, &DEMO_ACCOUNTS).await
}

pub async fn seed_accounts(state: &AppState, accounts: &[DemoAccount]) -> Result<usize, ApiError> {
    let mut created = 0;
    let mut customer_uid = None;
    for a in accounts {
        if let Some(existing) = state.store.find_user_by_email(a.email).await? {
            if a.role == Role::Customer {
                customer_uid = Some(existing.uid);
            }
            continue;
        }
        let res = create_account(
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
        .await;
        match res {
            Ok(user) => {
                created += 1;
                if a.role == Role::Customer {
                    customer_uid = Some(user.uid);
                }
            }
            Err(CreateUserError::EmailTaken) => {}
            Err(CreateUserError::Other(e)) => return Err(e),
        }
    }
    Ok(created)
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

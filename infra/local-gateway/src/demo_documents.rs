//! Demo documents on the demo cases, so the customer's Documents page
//! (case documents across cases, filtered by case and type,
//! searched by name) has something in every filter: small but real files
//! (a one-page PDF, a Word document, an Excel workbook, a PowerPoint
//! presentation, a PNG image) added
//! through the same upload-url → PUT → confirm flow as the browser's, by
//! the users who would add them (the customer, the assigned lawyer, admin on
//! a closed case), so every rule of `shared::services::documents` applies.
//! The second demo customer gets one too: a contact of the first must never
//! see it. Idempotent: nothing happens once the demo customer has documents.

use shared::api::AppState;
use shared::domain::case::{Case, CaseStatus, ListOrder};
use shared::domain::User;
use shared::error::ApiError;
use shared::services::documents::{self, DocumentFilter};

use crate::demo_files::file_bytes;
use crate::seed::{DEMO_CUSTOMER2_EMAIL, DEMO_CUSTOMER_EMAIL};

/// Who adds a demo document.
#[derive(Clone, Copy)]
enum By {
    Customer,
    Lawyer,
    Admin,
}

/// Which case a demo document goes to: the demo customer's newest case in
/// this state (or the second customer's).
struct DemoDocument {
    customer2: bool,
    status: CaseStatus,
    by: By,
    name: &'static str,
    /// The one line of text the file holds.
    text: &'static str,
}

// One line per document reads better than struct literals.
const fn doc(customer2: bool, status: CaseStatus, by: By, name: &'static str, text: &'static str) -> DemoDocument {
    DemoDocument { customer2, status, by, name, text }
}

const DOCUMENTS: [DemoDocument; 8] = [
    doc(false, CaseStatus::Inprogress, By::Customer, "Hyresavtal 2025.pdf", "Hyresavtal mellan hyresvärd och hyresgäst"),
    doc(false, CaseStatus::Inprogress, By::Lawyer, "Yttrande till motparten.docx", "Yttrande till motparten"),
    doc(false, CaseStatus::Inprogress, By::Customer, "Foto av lokalen.png", ""),
    doc(false, CaseStatus::Waiting, By::Customer, "Anställningsavtal.pdf", "Anställningsavtal, tillsvidare"),
    doc(false, CaseStatus::Draft, By::Customer, "Leverantörsavtal utkast.docx", "Leverantörsavtal, utkast"),
    doc(false, CaseStatus::Complete, By::Admin, "Tidsammanställning.xlsx", "Tidsammanställning"),
    doc(false, CaseStatus::Inprogress, By::Lawyer, "Genomgång med klienten.pptx", "Genomgång med klienten"),
    doc(true, CaseStatus::Inprogress, By::Customer, "Bygglov Kv. Eken.pdf", "Bygglov, Kv. Eken 4"),
];

/// Returns how many documents were added (0 when the demo customer already
/// has some, or has no cases yet).
pub async fn seed_demo_documents(state: &AppState) -> Result<usize, ApiError> {
    let user = |email: &'static str| async move {
        state.store.find_user_by_email(email).await?.ok_or_else(|| ApiError::internal(format!("demo documents need {email}")))
    };
    let customer = user(DEMO_CUSTOMER_EMAIL).await?;
    if !documents::across_cases(state, &customer, DocumentFilter::default()).await?.is_empty() {
        return Ok(0);
    }
    let customer2 = user(DEMO_CUSTOMER2_EMAIL).await?;
    let lawyer = user("lawyer@example.com").await?;
    let admin = user("admin@example.com").await?;
    let cases = [cases_of(state, &customer).await?, cases_of(state, &customer2).await?];
    let mut added = 0;
    for d in &DOCUMENTS {
        let Some(c) = cases[usize::from(d.customer2)].iter().find(|c| c.status == d.status) else { continue };
        let who = match d.by {
            By::Customer if d.customer2 => &customer2,
            By::Customer => &customer,
            By::Lawyer => &lawyer,
            By::Admin => &admin,
        };
        let target = documents::upload_url(state, who, &c.uid, d.name).await?;
        // The browser PUTs to the presigned URL; the seed writes the same
        // object directly (confirm takes an object already in place as well).
        state.files.put_bytes(&target.key, &target.content_type, file_bytes(d.name, d.text)?).await?;
        documents::confirm(state, who, &c.uid, &target.key, d.name, &shared::store::idempotency::Once::none()).await?;
        added += 1;
    }
    Ok(added)
}

/// A customer's cases (the first page is plenty: the demo has fewer).
async fn cases_of(state: &AppState, customer: &User) -> Result<Vec<Case>, ApiError> {
    Ok(shared::services::cases::list(state, customer, "all", "", ListOrder::Desc, None)
        .await?
        .results
        .iter()
        .map(|c| Case::clone(c))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::domain::document::{check_upload, type_of_name};

    #[test]
    fn every_demo_file_passes_the_upload_check_of_its_type() {
        for d in &DOCUMENTS {
            let bytes = file_bytes(d.name, d.text).unwrap();
            let t = type_of_name(d.name).unwrap();
            assert_eq!(check_upload(t, Some(bytes.len() as i64), &bytes[..8], 1 << 20), Ok(()), "{}", d.name);
        }
    }
}

//! Demo content (idempotent): terms and privacy version 1 in Swedish and
//! English, a few academy lessons, public documents and templates, and the seeded
//! customers' acceptance of the current texts (so signing in as a demo
//! customer does not ask for it; a newly published version does).

use chrono::Utc;
use shared::api::AppState;
use shared::domain::academy::{Audience, Lesson, LessonEnglish};
use shared::domain::legal::{Acceptance, LegalKind, LegalText};
use shared::domain::template_file::{self, TemplateFile};
use shared::domain::{Role, User};
use shared::error::ApiError;

const TERMS_SV: &str = "# Allmänna villkor\n\nDessa villkor gäller när ditt företag eller du som privatperson använder plattformen för juridiska tjänster.\n\n## 1. Tjänsten\n\nVi erbjuder **paket med advokattimmar** och tjänsteplaner (kreditupplysning, digital signering, avtalskontroll, videomöte och inkasso). Priserna anges i svenska kronor exklusive moms.\n\n## 2. Ärenden\n\n- Du öppnar ärenden i plattformen och kommunicerar med din advokat i ärendet.\n- Nedlagd tid dras från ditt paket.\n- Ett stängt ärende kan öppnas igen efter bekräftelse.\n\n## 3. Betalning och giltighet\n\nEtt paket gäller det antal dagar som anges vid köpet. Outnyttjade timmar återbetalas inte.\n\n## 4. Ansvar\n\nVi ansvarar för att rådgivningen utförs med omsorg enligt god advokatsed.\n\n## 5. Ändringar\n\nNär villkoren ändras ber vi dig godkänna den nya versionen nästa gång du loggar in.\n";
const TERMS_EN: &str = "# Terms of service\n\nThese terms apply when your company, or you as a private person, use the legal-services platform.\n\n## 1. The service\n\nWe offer **packages of lawyer hours** and service plans (credit check, digital signing, contract check, video meeting and debt collection). Prices are in Swedish kronor (SEK), excluding VAT.\n\n## 2. Cases\n\n- You open cases on the platform and talk with your lawyer in the case.\n- Time spent is drawn from your package.\n- A closed case can be reopened after confirmation.\n\n## 3. Payment and validity\n\nA package is valid for the number of days stated at purchase. Unused hours are not refunded.\n\n## 4. Liability\n\nWe are responsible for giving advice with care, following good legal practice.\n\n## 5. Changes\n\nWhen the terms change we ask you to accept the new version the next time you sign in.\n";
const PRIVACY_SV: &str = "# Integritetspolicy\n\nVi behandlar personuppgifter enligt dataskyddsförordningen (GDPR).\n\n## Vilka uppgifter\n\nNamn, e-postadress, telefon, adress, organisationsnummer samt de handlingar och meddelanden du lägger in i dina ärenden.\n\n## Varför\n\n- för att utföra de juridiska tjänster du beställer,\n- för att fakturera och följa upp avtal,\n- för att uppfylla lagkrav, bland annat jävskontroll.\n\n## Hur länge\n\nÄrendehandlingar sparas så länge god advokatsed kräver, därefter raderas de.\n\n## Dina rättigheter\n\nDu har rätt att begära utdrag, rättelse och radering. Kontakta oss via supportsidan.\n";
const PRIVACY_EN: &str = "# Privacy policy\n\nWe process personal data under the General Data Protection Regulation (GDPR).\n\n## What we keep\n\nName, e-mail address, phone, address, company registration number, and the documents and messages you add to your cases.\n\n## Why\n\n- to provide the legal services you order,\n- to invoice and follow up agreements,\n- to meet legal duties, such as conflict-of-interest checks.\n\n## How long\n\nCase documents are kept as long as good legal practice requires, then deleted.\n\n## Your rights\n\nYou may ask for a copy, correction or erasure of your data. Contact us through the support page.\n";

/// A demo lesson: topic, title and text in Swedish, then in English, its
/// embedded video and audience.
struct DemoLesson {
    sv: [&'static str; 3],
    en: [&'static str; 3],
    video: Option<&'static str>,
    audience: &'static [Audience],
}

const LESSONS: [DemoLesson; 4] = [
    DemoLesson {
        sv: [
            "Kom igång",
            "Välkommen till plattformen",
            "En kort rundtur: **ärenden**, dokument, meddelanden och support.\n\n1. Öppna ett ärende\n2. Ladda upp handlingar\n3. Följ timmarna",
        ],
        en: [
            "Getting started",
            "Welcome to the platform",
            "A short tour: **cases**, documents, messages and support.\n\n1. Open a case\n2. Upload documents\n3. Follow the hours",
        ],
        video: Some("https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ"),
        audience: &[],
    },
    DemoLesson {
        sv: [
            "Kom igång",
            "Så fungerar paket och timmar",
            "Ett paket ger ett antal advokattimmar som gäller ett visst antal dagar. Nedlagd tid dras från paketet.",
        ],
        en: [
            "Getting started",
            "How packages and hours work",
            "A package gives a number of lawyer hours, valid for a number of days. Time spent is drawn from the package.",
        ],
        video: None,
        audience: &[Audience::Customer],
    },
    DemoLesson {
        sv: ["Ärendehantering", "Tidrapportering i ärenden", "Registrera debiterbar och ej debiterbar tid samma dag som arbetet utförs."],
        en: ["Case work", "Reporting time in cases", "Enter billable and non-billable time on the day the work is done."],
        video: Some("https://player.vimeo.com/video/76979871"),
        audience: &[Audience::Lawyer],
    },
    DemoLesson {
        sv: [
            "Försäljning",
            "Skapa kund och paket",
            "Skapa kunden, koppla ett paket och kontrollera att kunden har en aktiv tjänst innan ärendet öppnas.",
        ],
        en: [
            "Sales",
            "Creating a customer and a package",
            "Create the customer, connect a package and check that the customer has an active service before the case is opened.",
        ],
        video: None,
        audience: &[Audience::Sales],
    },
];

/// Public documents and templates: title, category, language, file name,
/// the file's one line of text. Both languages, several categories, PDF and
/// Word.
const TEMPLATES: [(&str, &str, &str, &str, &str); 5] = [
    ("Mall: Fullmakt", "Mallar", "sv", "fullmakt.pdf", "Fullmakt"),
    ("Mall: Sekretessavtal", "Mallar", "sv", "sekretessavtal.docx", "Sekretessavtal mellan parterna"),
    ("Template: Power of attorney", "Templates", "en", "power-of-attorney.pdf", "Power of attorney"),
    ("Guide: Inför första mötet med advokaten", "Guider", "sv", "infor-forsta-motet.pdf", "Inför första mötet med advokaten"),
    ("Price list 2026", "Price lists", "en", "price-list-2026.pdf", "Price list 2026, prices in SEK excluding VAT"),
];

/// Terms and privacy version 1, once.
pub async fn ensure_legal_texts(state: &AppState) -> Result<(), ApiError> {
    for (kind, sv, en) in [(LegalKind::Terms, TERMS_SV, TERMS_EN), (LegalKind::Privacy, PRIVACY_SV, PRIVACY_EN)] {
        if state.store.current_legal_version(kind).await?.is_some() {
            continue;
        }
        let t = LegalText { kind, version: 1, sv: sv.into(), en: en.into(), published_at: Utc::now(), published_by: "seed".into() };
        let mut tx = state.store.tx();
        state.store.add_legal_version(&mut tx, &t)?;
        state.store.commit(tx).await?;
    }
    Ok(())
}

/// A seeded customer has accepted the current texts.
pub async fn accept_current(state: &AppState, user: &User) -> Result<(), ApiError> {
    if !shared::domain::policy::is(user, Role::Customer) {
        return Ok(());
    }
    for kind in LegalKind::ALL {
        if let Some(t) = state.store.current_legal_version(kind).await? {
            state.store.put_acceptance(&user.uid, &Acceptance { kind, version: t.version, accepted_at: Utc::now() }).await?;
        }
    }
    Ok(())
}

/// The public offer of the demo (the landing page shows it), once: three
/// packages of consultancy hours and two service plans.
async fn ensure_offer(state: &AppState) -> Result<(), ApiError> {
    use shared::domain::catalogue::{Hundredths, Package, ServicePlan, BISNODE, VERIFIED};
    if !state.store.list_offers::<Package>().await?.is_empty() || !state.store.list_offers::<ServicePlan>().await?.is_empty() {
        return Ok(());
    }
    let now = Utc::now();
    for (name, hours, price) in [("Start 5 h", 5, 9_500), ("Bas 10 h", 10, 17_500), ("Företag 25 h", 25, 39_900)] {
        let p = Package {
            id: state.store.next_id("package").await?,
            name: name.into(),
            hours: Hundredths::from_units(hours),
            price: Hundredths::from_units(price),
            duration_days: 365,
            public: true,
            created_at: now,
            retired: false,
            bought: false,
        };
        state.store.create_offer(&p, &shared::store::idempotency::Once::none()).await?;
    }
    for (name, service_id, limit, price) in [("Digital signering 20", VERIFIED, 20, 1_900), ("Kreditupplysning 50", BISNODE, 50, 2_900)] {
        let p = ServicePlan {
            id: state.store.next_id("service_plan").await?,
            name: name.into(),
            service_id,
            limit: Some(limit),
            hours: None,
            price: Hundredths::from_units(price),
            expiry_days: 365,
            public: true,
            created_at: now,
            retired: false,
            bought: false,
        };
        state.store.create_offer(&p, &shared::store::idempotency::Once::none()).await?;
    }
    Ok(())
}

/// The demo lessons, template and public offer, once.
pub async fn seed_demo_content(state: &AppState) -> Result<(), ApiError> {
    ensure_legal_texts(state).await?;
    ensure_offer(state).await?;
    if state.store.lessons().await?.is_empty() {
        let now = Utc::now();
        for (i, d) in LESSONS.iter().enumerate() {
            let ([topic, title, text], [topic_en, title_en, text_en]) = (d.sv, d.en);
            let l = Lesson {
                id: uuid::Uuid::new_v4().simple().to_string(),
                topic: topic.into(),
                title: title.into(),
                text: text.into(),
                video_url: d.video.map(String::from),
                video_key: None,
                position: i as u32 + 1,
                published: true,
                audience: d.audience.to_vec(),
                en: Some(LessonEnglish { topic: topic_en.into(), title: title_en.into(), text: text_en.into() }),
                created_at: now,
                updated_at: now,
            };
            state.store.put_lesson(&l).await?;
        }
    }
    // Each demo template once, by title (a database seeded before more were
    // added gets the missing ones).
    let have: Vec<String> = state.store.template_files().await?.into_iter().map(|f| f.title).collect();
    for (title, category, language, name, text) in TEMPLATES {
        if have.iter().any(|h| h == title) {
            continue;
        }
        let t = shared::domain::document::type_of_name(name).ok_or_else(|| ApiError::internal(format!("template type of {name}")))?;
        let bytes = if t.ext == "pdf" { crate::demo_files::pdf(text) } else { crate::demo_files::docx(text)? };
        let key = template_file::object_key(&uuid::Uuid::new_v4(), t);
        let size = bytes.len() as i64;
        state.files.put_bytes(&key, t.content_type, bytes).await?;
        let f = TemplateFile {
            id: uuid::Uuid::new_v4().simple().to_string(),
            title: title.into(),
            category: category.into(),
            language: language.into(),
            key,
            name: name.into(),
            size,
            uploaded_at: Utc::now(),
            uploaded_by: "seed".into(),
        };
        state.store.put_template_file(&f).await?;
    }
    Ok(())
}

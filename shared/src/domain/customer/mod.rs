//! Customers (spec §3 "Customer"), their account states (spec §4) and the
//! registration rules (spec §5). Pure: no AWS, no HTTP.
//!
//! A customer's uid is the uid of the customer's `User` (user_type 3); the
//! profile lives on `CUSTOMER#<uid> / PROFILE`. One file an idea: the
//! customer and its states (`entity`), the field rules both forms share
//! (`fields`), the staff form (`form`), self-registration (`registration`),
//! business sectors (`sectors`).

pub mod entity;
pub mod fields;
pub mod form;
pub mod registration;
pub mod sectors;

pub use entity::*;
pub use fields::*;
pub use form::*;
pub use registration::*;
pub use sectors::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Msg;

    fn staff_form() -> CustomerForm {
        CustomerForm {
            customer_type: Some(CustomerType::Company),
            first_name: "Anna".into(),
            last_name: "Berg".into(),
            email: "anna@example.com".into(),
            company_name: "Berg AB".into(),
            company_registration_number: "556677-1234".into(),
            sector: "1".into(),
            phone: "0701234567".into(),
            profile: address(),
            same_invoice_address: true,
            hourly_rate: Some(1250.5),
            company_size: Some("100+".into()),
            ..Default::default()
        }
    }

    #[test]
    fn staff_form_rules() {
        assert!(check_customer_form(&staff_form()).is_empty(), "{:?}", check_customer_form(&staff_form()));
        let mut f = staff_form();
        f.profile = Address::default();
        f.same_invoice_address = false;
        let e = check_customer_form(&f);
        for k in ["profile.address_1", "profile.city", "profile.post_code", "profile.country", "invoice_address.address_1"] {
            assert_eq!(e[k], [Msg::AddressRequired], "{k}");
        }
        let mut f = staff_form();
        f.hourly_rate = Some(10.005);
        f.company_size = Some("7".into());
        f.company_registration_number = "5566771234".into();
        let e = check_customer_form(&f);
        assert_eq!(e["hourly_rate"], [Msg::InvalidPrice]);
        assert_eq!(e["company_size"], [Msg::InvalidCompanySize]);
        assert_eq!(e["company_registration_number"], [Msg::InvalidRegistrationNumber]);
        // No password, no terms on the staff form.
        assert!(!e.has("password") && !e.has("terms_accepted"));
    }

    #[test]
    fn the_staff_form_is_copied_onto_a_profile_trimmed() {
        let mut user = crate::domain::user::tests_support::sample(Some(3));
        (user.first_name, user.last_name) = ("Anna".into(), "Berg".into());
        let mut p = CustomerProfile::made_by_staff(&user, chrono::Utc::now());
        assert_eq!((p.state, p.uid.as_str(), p.email.as_str()), (CustomerState::Active, "u1", "anna@example.com"));
        let mut f = staff_form();
        f.company_name = " Berg AB ".into();
        f.profile.address_1 = " Storgatan 1 ".into();
        f.account_manager = Some(" sales-1 ".into());
        f.knowledge_sectors = vec![3, 1, 3];
        f.company_size = Some(String::new());
        let sector = SectorRef { id: "1".into(), name: "Consumer goods".into() };
        f.apply(&mut p, Some(sector.clone()));
        assert_eq!(p.customer_type, CustomerType::Company);
        assert_eq!((p.company_name.as_deref(), p.registration_number()), (Some("Berg AB"), Some("556677-1234")));
        assert_eq!(p.sector, Some(sector.clone()));
        assert_eq!(p.profile.address_1, "Storgatan 1");
        assert_eq!(p.invoice_address, p.profile, "same invoice address copies the visiting one");
        assert_eq!(p.account_manager_uid.as_deref(), Some("sales-1"));
        assert_eq!(p.knowledge_sectors, [1, 3]);
        assert_eq!((p.hourly_rate_ore, p.company_size.as_deref()), (Some(125050), None));
        assert_eq!(p.dropdown_label(), "Berg AB (Anna Berg)");

        // An individual keeps no company fields, whatever the form sends.
        f.customer_type = Some(CustomerType::Individual);
        f.apply(&mut p, Some(sector));
        assert_eq!((p.company_name.as_deref(), p.registration_number(), p.sector.as_ref()), (None, None, None));
    }

    #[test]
    fn a_registration_becomes_a_pending_profile() {
        let user = crate::domain::user::tests_support::sample(Some(3));
        let now = chrono::Utc::now();
        let mut r = company();
        r.same_invoice_address = false;
        r.invoice_address = Address { city: " Solna ".into(), ..address() };
        let p = CustomerProfile::registered(&r, &user, None, now);
        assert_eq!((p.state, p.approved_at, p.terms_accepted_at), (CustomerState::Pending, None, now));
        assert_eq!(p.invoice_address.city, "Solna");
        assert_eq!(p.registration_number(), Some("556677-1234"));
        let mut ind = company();
        ind.customer_type = Some(CustomerType::Individual);
        let sector = SectorRef { id: "1".into(), name: "Consumer goods".into() };
        let p = CustomerProfile::registered(&ind, &user, Some(sector), now);
        assert_eq!((p.company_name, p.sector), (None, None));
    }

    #[test]
    fn list_state_defaults_to_active() {
        assert_eq!(list_state(None), Ok(Some(CustomerState::Active)));
        assert_eq!(list_state(Some(" ")), Ok(Some(CustomerState::Active)));
        assert_eq!(list_state(Some("all")), Ok(None));
        assert_eq!(list_state(Some("pending")), Ok(Some(CustomerState::Pending)));
        assert_eq!(list_state(Some("weird")), Err(Msg::InvalidStatus));
    }

    fn address() -> Address {
        Address {
            address_1: "Storgatan 1".into(),
            address_2: String::new(),
            city: "Stockholm".into(),
            post_code: "11122".into(),
            country: 1,
        }
    }

    pub fn company() -> Registration {
        Registration {
            customer_type: Some(CustomerType::Company),
            first_name: "Anna".into(),
            last_name: "Berg".into(),
            email: "anna@example.com".into(),
            password: "Long-enough-pass-1".into(),
            confirm_password: "Long-enough-pass-1".into(),
            company_name: "Berg AB".into(),
            company_registration_number: "556677-1234".into(),
            sector: "1".into(),
            phone: "+46 70-123 45 67".into(),
            profile: address(),
            same_invoice_address: true,
            invoice_address: Address::default(),
            terms_accepted: true,
            privacy_accepted: true,
            terms_version: None,
            privacy_version: None,
        }
    }

    fn keys(r: &Registration, field: &str) -> Vec<Msg> {
        check_registration(r).get(field).to_vec()
    }

    #[test]
    fn a_complete_company_and_individual_pass() {
        assert!(check_registration(&company()).is_empty(), "{:?}", check_registration(&company()));
        let mut ind = company();
        ind.customer_type = Some(CustomerType::Individual);
        ind.company_name.clear();
        ind.company_registration_number.clear();
        ind.sector.clear();
        assert!(check_registration(&ind).is_empty());
    }

    #[test]
    fn names_and_type_are_required() {
        let mut r = company();
        r.first_name = "  ".into();
        r.last_name.clear();
        r.customer_type = None;
        assert_eq!(keys(&r, "first_name"), [Msg::Required]);
        assert_eq!(keys(&r, "last_name"), [Msg::Required]);
        assert_eq!(keys(&r, "customer_type"), [Msg::Required]);
    }

    #[test]
    fn email_must_be_valid() {
        let mut r = company();
        r.email = "not-an-address".into();
        assert_eq!(keys(&r, "email"), [Msg::InvalidEmail]);
        r.email.clear();
        assert_eq!(keys(&r, "email"), [Msg::Required]);
    }

    #[test]
    fn password_policy_and_confirmation() {
        let mut r = company();
        r.confirm_password = "Something-else-1".into();
        assert_eq!(keys(&r, "confirm_password"), [Msg::PasswordsDoNotMatch]);
        r.password = "short".into();
        r.confirm_password = "short".into();
        assert_eq!(keys(&r, "password"), [Msg::PasswordTooShort]);
        r.password = "password1".into();
        r.confirm_password = "password1".into();
        assert_eq!(keys(&r, "password"), [Msg::PasswordTooCommon]);
        // The customer's own e-mail (any case) is guessed first.
        r.password = r.email.to_uppercase();
        r.confirm_password = r.password.clone();
        assert_eq!(keys(&r, "password"), [Msg::PasswordTooWeak], "{}", r.password);
        r.password.clear();
        r.confirm_password.clear();
        assert_eq!(keys(&r, "password"), [Msg::Required]);
        assert_eq!(keys(&r, "confirm_password"), [Msg::Required]);
    }

    #[test]
    fn terms_and_privacy_must_be_accepted() {
        let mut r = company();
        r.terms_accepted = false;
        r.privacy_accepted = false;
        assert_eq!(keys(&r, "terms_accepted"), [Msg::TermsNotAgreed]);
        assert_eq!(keys(&r, "privacy_accepted"), [Msg::PrivacyNotAgreed]);
    }

    #[test]
    fn company_needs_name_number_and_sector() {
        let mut r = company();
        r.company_name.clear();
        r.company_registration_number.clear();
        r.sector.clear();
        assert_eq!(keys(&r, "company_name"), [Msg::Required]);
        assert_eq!(keys(&r, "company_registration_number"), [Msg::Required]);
        assert_eq!(keys(&r, "sector"), [Msg::Required]);
        r.company_registration_number = "5566771234".into();
        assert_eq!(keys(&r, "company_registration_number"), [Msg::InvalidRegistrationNumber]);
    }

    #[test]
    fn registration_number_is_six_digits_dash_four() {
        assert!(is_valid_registration_number("123456-7890"));
        for bad in ["1234567890", "12345-67890", "123456-789", "123456-78901", "12345a-7890", "123456 7890", "١٢٣٤٥٦-٧٨٩٠", ""] {
            assert!(!is_valid_registration_number(bad), "{bad}");
        }
    }

    #[test]
    fn post_code_is_exactly_five_digits() {
        assert!(is_valid_post_code("11122"));
        for bad in ["111 22", "1112", "111222", "1112a", " 11122"] {
            assert!(!is_valid_post_code(bad), "{bad}");
        }
        let mut r = company();
        r.profile.post_code = "111 22".into();
        assert_eq!(keys(&r, "profile.post_code"), [Msg::InvalidPostCode]);
    }

    #[test]
    fn phone_numbers() {
        for ok in ["0701234567", "+46701234567", "070-123 45 67", "+46 70 123 45 67", "1234567", "123456789012345"] {
            assert!(is_valid_phone(ok), "{ok}");
        }
        for bad in [
            "123456",
            "1234567890123456",
            "+",
            "070 123 45 6x",
            "++46701234567",
            "-0701234567",
            "(070) 1234567",
            "",
            "070------------------------------1234",
        ] {
            assert!(!is_valid_phone(bad), "{bad}");
        }
        let mut r = company();
        r.phone = "abc".into();
        assert_eq!(keys(&r, "phone"), [Msg::InvalidPhone]);
    }

    #[test]
    fn address_fields_and_country_sweden() {
        let mut r = company();
        r.profile = Address::default();
        for f in ["profile.address_1", "profile.city", "profile.post_code", "profile.country"] {
            assert_eq!(keys(&r, f), [Msg::Required], "{f}");
        }
        r.profile = address();
        r.profile.country = 2;
        assert_eq!(keys(&r, "profile.country"), [Msg::InvalidCountry]);
    }

    #[test]
    fn invoice_address_only_checked_when_different() {
        let mut r = company();
        assert!(!check_registration(&r).has("invoice_address.address_1"));
        r.same_invoice_address = false;
        assert_eq!(keys(&r, "invoice_address.address_1"), [Msg::Required]);
        r.invoice_address = address();
        assert!(check_registration(&r).is_empty());
    }

    #[test]
    fn overlong_text_is_refused() {
        let mut r = company();
        r.first_name = "a".repeat(MAX_NAME_LEN + 1);
        r.company_name = "b".repeat(201);
        r.profile.address_1 = "c".repeat(201);
        r.profile.city = "å".repeat(MAX_NAME_LEN);
        assert_eq!(keys(&r, "first_name"), [Msg::TooLong]);
        assert_eq!(keys(&r, "company_name"), [Msg::TooLong]);
        assert_eq!(keys(&r, "profile.address_1"), [Msg::TooLong]);
        assert!(keys(&r, "profile.city").is_empty(), "characters, not bytes");
    }

    /// Both forms declare the shared fields once and check them with one set
    /// of rules: the same bad input gets the same keys from either (but for
    /// the staff screens' one key for a missing address part).
    #[test]
    fn both_forms_check_the_shared_fields_alike() {
        let body = serde_json::json!({
            "customer_type": "Company", "first_name": " ", "last_name": "b".repeat(MAX_NAME_LEN),
            "email": "not-an-address", "company_name": "", "company_registration_number": "5566771234",
            "sector": "", "phone": "abc", "same_invoice_address": false,
            "profile": {"address_1": "", "city": "Stockholm", "post_code": "111 22", "country": 2},
            "invoice_address": {"address_1": "Storgatan 1", "city": "", "post_code": "", "country": 0},
        });
        // A name over its bound as sent is refused as either form is read (domain::text::clean), alike.
        let mut too_long = body.clone();
        too_long["last_name"] = serde_json::json!("b".repeat(MAX_NAME_LEN + 1));
        let staff_read = serde_json::from_value::<CustomerForm>(too_long.clone()).err().unwrap().to_string();
        let reg_read = serde_json::from_value::<Registration>(too_long).err().unwrap().to_string();
        assert!(staff_read.starts_with("invalid length 201") && reg_read == staff_read, "{staff_read} / {reg_read}");
        let staff = check_customer_form(&serde_json::from_value(body.clone()).unwrap());
        let reg = check_registration(&serde_json::from_value(body).unwrap());
        assert!(!staff.has("last_name") && !reg.has("last_name"), "{} names are within the bound", MAX_NAME_LEN);
        let shared = [
            ("first_name", Msg::Required),
            ("email", Msg::InvalidEmail),
            ("company_name", Msg::Required),
            ("company_registration_number", Msg::InvalidRegistrationNumber),
            ("sector", Msg::Required),
            ("phone", Msg::InvalidPhone),
            ("profile.post_code", Msg::InvalidPostCode),
            ("profile.country", Msg::InvalidCountry),
        ];
        for (field, key) in shared {
            assert_eq!(staff[field], [key], "staff {field}");
            assert_eq!(reg[field], [key], "registration {field}");
        }
        for field in ["profile.address_1", "invoice_address.city", "invoice_address.post_code", "invoice_address.country"] {
            assert_eq!(staff[field], [Msg::AddressRequired], "staff {field}");
            assert_eq!(reg[field], [Msg::Required], "registration {field}");
        }
        // The registration's own rules stay its own.
        assert!(!staff.has("password") && reg.has("password"));
    }

    #[test]
    fn activation_tokens_split_into_uid_and_secret() {
        let secret = "a".repeat(64);
        assert_eq!(split_activation_token(&format!("u-1.{secret}")), Some(("u-1", secret.as_str())));
        assert_eq!(split_activation_token("u-1.short"), None);
        assert_eq!(split_activation_token(&format!(".{secret}")), None);
        assert_eq!(split_activation_token("nodot"), None);
    }

    #[test]
    fn states_parse() {
        for s in [CustomerState::Pending, CustomerState::Active, CustomerState::Inactive] {
            assert_eq!(CustomerState::parse(s.as_str()), Some(s));
        }
        assert_eq!(CustomerState::parse("approved"), None);
    }

    #[test]
    fn sector_names() {
        assert_eq!(check_sector_name(" ")["name"], [Msg::Required]);
        assert_eq!(check_sector_name(&"x".repeat(MAX_NAME_LEN + 1))["name"], [Msg::TooLong]);
        assert!(check_sector_name("Retail").is_empty());
    }
}

//! Lawyers and sales persons as the admin keeps them (spec §3, §5, §6): only
//! admin creates them; an external lawyer needs a company name and an hourly
//! rate; a lawyer works in at least one knowledge sector.

use crate::error::Msg;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::user::{is_valid_email, Role, UserSubType};
use crate::error::{ApiError, FieldErrors};

/// Hourly rates above this (SEK) are taken for typing mistakes.
pub const MAX_HOURLY_RATE_SEK: f64 = 100_000.0;

/// What the lawyer and sales-person forms send.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
#[schema(example = json!({"first_name": "Lova", "last_name": "Jurist", "email": "lova.jurist@example.com", "user_sub_type": "internal", "knowledge_sectors": [1]}))]
pub struct StaffInput {
    // The document drops the `""` default serde's `default` gives a
    // required field (api-docs' `tighten`), so the minimum stands alone.
    #[serde(deserialize_with = "super::text::clean::name")]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub first_name: String,
    #[serde(deserialize_with = "super::text::clean::name")]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub last_name: String,
    #[schema(required = true, min_length = 1, max_length = 254)]
    pub email: String,
    /// Lawyers only: internal or external.
    pub user_sub_type: Option<UserSubType>,
    /// External lawyers: their firm.
    #[serde(deserialize_with = "super::text::clean::opt_name")]
    #[schema(max_length = 200)]
    pub company_name: Option<String>,
    /// External lawyers: SEK per hour, at most two decimals.
    #[schema(exclusive_minimum = 0, maximum = 100000)]
    pub hourly_rate: Option<f64>,
    /// Lawyers: knowledge-sector ids, at least one.
    #[schema(max_items = 50)]
    pub knowledge_sectors: Vec<u64>,
    #[serde(deserialize_with = "super::text::clean::opt_name")]
    #[schema(max_length = 200)]
    pub company_affiliation: Option<String>,
    #[serde(deserialize_with = "super::text::clean::opt_long")]
    #[schema(max_length = 10000)]
    pub description: Option<String>,
    pub video_care_url: Option<String>,
}

/// Lawyer-only details.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LawyerDetails {
    pub user_sub_type: UserSubType,
    pub company_name: Option<String>,
    /// SEK per hour in öre, so sums never drift.
    pub hourly_rate_ore: Option<i64>,
    pub knowledge_sectors: Vec<u64>,
    pub company_affiliation: Option<String>,
    pub description: String,
    pub video_care_url: Option<String>,
}

/// The cleaned, validated form.
#[derive(Clone, Debug, PartialEq)]
pub struct StaffFields {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub lawyer: Option<LawyerDetails>,
}

fn trimmed(v: &Option<String>) -> Option<String> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string)
}

/// SEK with at most two decimals → öre.
pub fn rate_to_ore(rate: f64) -> Option<i64> {
    if !rate.is_finite() || rate <= 0.0 || rate > MAX_HOURLY_RATE_SEK {
        return None;
    }
    let ore = (rate * 100.0).round();
    ((rate * 100.0 - ore).abs() < 1e-6).then_some(ore as i64)
}

/// A staff list's cursor is the last row's `<created_at>#<uid>`; anything
/// else is refused before it reaches the table. Empty means the first page.
pub fn list_cursor(cursor: Option<&str>) -> Result<Option<&str>, ApiError> {
    let Some(c) = cursor.filter(|c| !c.is_empty()) else { return Ok(None) };
    let ok =
        c.rsplit_once('#').is_some_and(|(at, uid)| chrono::DateTime::parse_from_rfc3339(at).is_ok() && uuid::Uuid::parse_str(uid).is_ok());
    if ok {
        Ok(Some(c))
    } else {
        Err(ApiError::field("cursor", Msg::InvalidCursor))
    }
}

impl StaffInput {
    /// Checks the form for `role` (lawyer or sales person). Field keys are
    /// translated by the web under `server:`; the message of an external
    /// lawyer without firm or rate is the spec's own.
    pub fn validate(&self, role: Role) -> Result<StaffFields, ApiError> {
        let mut errors = FieldErrors::new();
        let first_name = self.first_name.trim().to_string();
        let last_name = self.last_name.trim().to_string();
        if first_name.is_empty() {
            errors.add("first_name", Msg::Required);
        }
        if last_name.is_empty() {
            errors.add("last_name", Msg::Required);
        }
        if self.email.trim().is_empty() {
            errors.add("email", Msg::Required);
        } else if !is_valid_email(&self.email) {
            errors.add("email", Msg::InvalidEmail);
        }
        // Bounded texts: names 200, descriptions 10,000 characters; e-mail 254 (in is_valid_email).
        {
            use super::text::{limit, LONG_MAX, NAME_MAX};
            limit(&mut errors, "first_name", &first_name, NAME_MAX);
            limit(&mut errors, "last_name", &last_name, NAME_MAX);
            limit(&mut errors, "company_name", self.company_name.as_deref().unwrap_or_default(), NAME_MAX);
            limit(&mut errors, "company_affiliation", self.company_affiliation.as_deref().unwrap_or_default(), NAME_MAX);
            limit(&mut errors, "description", self.description.as_deref().unwrap_or_default(), LONG_MAX);
            if self.knowledge_sectors.len() > 50 {
                errors.add("knowledge_sectors", Msg::TooLong);
            }
        }
        let mut message = Msg::ValidationFailed;
        // Checked for every role: a sales person's form keeps no video link, but a bad one is
        // refused as the document says rather than dropped unseen.
        let video_care_url = trimmed(&self.video_care_url);
        if let Some(url) = &video_care_url {
            let ok = (url.starts_with("https://") || url.starts_with("http://")) && !url.contains(char::is_whitespace) && url.len() <= 500;
            if !ok {
                errors.add("video_care_url", Msg::InvalidUrl);
            }
        }
        let lawyer = if role == Role::Lawyer {
            let sub_type = self.user_sub_type.unwrap_or(UserSubType::Internal);
            let mut sectors = self.knowledge_sectors.clone();
            sectors.sort();
            sectors.dedup();
            if sectors.is_empty() {
                errors.add("knowledge_sectors", Msg::AtLeastOneSector);
            }
            let company_name = trimmed(&self.company_name);
            let hourly_rate_ore = match self.hourly_rate {
                None => None,
                Some(r) => match rate_to_ore(r) {
                    Some(ore) => Some(ore),
                    None => {
                        errors.add("hourly_rate", Msg::InvalidPrice);
                        None
                    }
                },
            };
            if sub_type == UserSubType::External {
                if company_name.is_none() {
                    errors.add("company_name", Msg::Required);
                }
                if self.hourly_rate.is_none() {
                    errors.add("hourly_rate", Msg::Required);
                }
                if company_name.is_none() || hourly_rate_ore.is_none() {
                    message = Msg::ExternalLawyerRequiresCompanyAndRate;
                }
            }
            Some(LawyerDetails {
                user_sub_type: sub_type,
                // An internal lawyer works for the firm: no own firm or rate.
                company_name: if sub_type == UserSubType::External { company_name } else { None },
                hourly_rate_ore: if sub_type == UserSubType::External { hourly_rate_ore } else { None },
                knowledge_sectors: sectors,
                company_affiliation: trimmed(&self.company_affiliation),
                description: trimmed(&self.description).unwrap_or_default(),
                video_care_url,
            })
        } else {
            None
        };
        if !errors.is_empty() {
            return Err(ApiError::BadRequest { message, fields: errors });
        }
        Ok(StaffFields { first_name, last_name, email: super::normalize_email(&self.email), lawyer })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lawyer() -> StaffInput {
        StaffInput {
            first_name: "Lars".into(),
            last_name: "Advokat".into(),
            email: "Lars@Example.com".into(),
            knowledge_sectors: vec![1],
            ..Default::default()
        }
    }

    #[test]
    fn names_and_texts_are_cleaned_and_bounded() {
        let f: StaffInput = serde_json::from_value(serde_json::json!({
            "first_name": "La\u{202e}rs\n", "last_name": "Advokat", "email": "l@example.com", "knowledge_sectors": [1],
            "company_affiliation": "\u{0}", "description": "rad 1\nrad 2\u{2066}"
        }))
        .unwrap();
        let v = f.validate(Role::Lawyer).unwrap();
        assert_eq!(v.first_name, "Lars");
        let l = v.lawyer.unwrap();
        assert_eq!((l.company_affiliation, l.description.as_str()), (None, "rad 1\nrad 2"));
        for (field, value) in
            [("first_name", "x".repeat(201)), ("company_affiliation", "x".repeat(201)), ("description", "x".repeat(10_001))]
        {
            let mut f = lawyer();
            match field {
                "first_name" => f.first_name = value,
                "company_affiliation" => f.company_affiliation = Some(value),
                _ => f.description = Some(value),
            }
            let Err(ApiError::BadRequest { fields, .. }) = f.validate(Role::Lawyer) else { panic!("{field} accepted") };
            assert_eq!(fields[field], vec![Msg::TooLong], "{field}");
        }
    }

    #[test]
    fn an_internal_lawyer_needs_names_email_and_a_sector() {
        let ok = lawyer().validate(Role::Lawyer).unwrap();
        assert_eq!(ok.email, "lars@example.com");
        assert_eq!(ok.lawyer.unwrap().user_sub_type, UserSubType::Internal);
        let errors = StaffInput::default().validate(Role::Lawyer).unwrap_err().fields();
        for f in ["first_name", "last_name", "email", "knowledge_sectors"] {
            assert!(errors.has(f), "{f}: {errors:?}");
        }
        assert_eq!(errors["knowledge_sectors"], vec![Msg::AtLeastOneSector]);
    }

    #[test]
    fn an_external_lawyer_needs_company_name_and_hourly_rate() {
        let mut i = lawyer();
        i.user_sub_type = Some(UserSubType::External);
        let refused = i.validate(Role::Lawyer).unwrap_err();
        assert_eq!(refused.key(), Msg::ExternalLawyerRequiresCompanyAndRate);
        let errors = refused.fields();
        assert!(errors.has("company_name") && errors.has("hourly_rate"));
        i.company_name = Some("Byrå AB".into());
        i.hourly_rate = Some(1850.5);
        let ok = i.validate(Role::Lawyer).unwrap().lawyer.unwrap();
        assert_eq!(ok.hourly_rate_ore, Some(185_050));
        assert_eq!(ok.company_name.as_deref(), Some("Byrå AB"));
    }

    #[test]
    fn rates_are_positive_with_at_most_two_decimals() {
        assert_eq!(rate_to_ore(1200.0), Some(120_000));
        assert_eq!(rate_to_ore(0.01), Some(1));
        assert_eq!(rate_to_ore(0.0), None);
        assert_eq!(rate_to_ore(-5.0), None);
        assert_eq!(rate_to_ore(12.345), None);
        assert_eq!(rate_to_ore(f64::NAN), None);
        assert_eq!(rate_to_ore(1e9), None);
    }

    #[test]
    fn list_cursors_are_a_time_and_a_uid() {
        assert_eq!(list_cursor(None).unwrap(), None);
        assert_eq!(list_cursor(Some("")).unwrap(), None);
        let c = "2026-01-01T00:00:00+00:00#6f1c2f8e-3b7a-4c3e-9a59-2f0f1b7d4c11";
        assert_eq!(list_cursor(Some(c)).unwrap(), Some(c));
        assert_eq!(list_cursor(Some("garbage")).unwrap_err().fields()["cursor"], vec![Msg::InvalidCursor]);
    }

    #[test]
    fn sales_persons_have_no_lawyer_details_and_urls_are_checked() {
        let s = StaffInput { first_name: "Sara".into(), last_name: "S".into(), email: "s@example.com".into(), ..Default::default() };
        assert!(s.validate(Role::SalesPerson).unwrap().lawyer.is_none());
        let mut i = lawyer();
        i.video_care_url = Some("javascript:alert(1)".into());
        let errors = i.validate(Role::Lawyer).unwrap_err().fields();
        assert_eq!(errors["video_care_url"], vec![Msg::InvalidUrl]);
        // A sales person's form is refused for the same link, not stripped of it unseen.
        let s = StaffInput { video_care_url: Some("x".into()), ..s };
        assert_eq!(s.validate(Role::SalesPerson).unwrap_err().fields()["video_care_url"], vec![Msg::InvalidUrl]);
    }
}

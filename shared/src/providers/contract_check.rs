//! The contract-check site (Kontrakto, spec §2 contract check: the screen is
//! always shown and links out). There is no API to call: the adapter only
//! knows, from configuration, where the link goes — `CONTRACT_CHECK_URL` on
//! AWS, the stand-in's page locally — and whom to call or mail with questions
//! (`CONTRACT_CHECK_PHONE`, `CONTRACT_CHECK_EMAIL`; none: the screen says to
//! call the switchboard).

/// Where the contract-check screen links to.
pub trait ContractCheck: Send + Sync {
    /// The external site's address for a user reading `lang` (sv or en);
    /// empty when none is configured.
    fn link(&self, lang: &str) -> String;
    /// The phone number and mailbox for questions, when configured.
    fn contact(&self) -> (Option<String>, Option<String>) {
        (None, None)
    }
}

/// A configured base address; the language is passed on as `?lang=`.
pub struct ConfiguredLink(pub String);

/// A link with the configured phone number and mailbox for questions.
pub struct WithContact {
    pub link: ConfiguredLink,
    pub phone: Option<String>,
    pub email: Option<String>,
}

impl ContractCheck for WithContact {
    fn link(&self, lang: &str) -> String {
        self.link.link(lang)
    }
    fn contact(&self) -> (Option<String>, Option<String>) {
        (self.phone.clone(), self.email.clone())
    }
}

impl ContractCheck for ConfiguredLink {
    fn link(&self, lang: &str) -> String {
        if self.0.is_empty() {
            return String::new();
        }
        let lang = if lang == "en" { "en" } else { "sv" };
        let sep = if self.0.contains('?') { '&' } else { '?' };
        format!("{}{sep}lang={lang}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_link_carries_a_known_language() {
        let c = ConfiguredLink("https://example.com/check/".into());
        assert_eq!(c.link("en"), "https://example.com/check/?lang=en");
        assert_eq!(c.link("de"), "https://example.com/check/?lang=sv");
        assert_eq!(ConfiguredLink("https://x.se/?a=1".into()).link("sv"), "https://x.se/?a=1&lang=sv");
        assert_eq!(c.contact(), (None, None));
        assert_eq!(ConfiguredLink(String::new()).link("sv"), "");
        let w = WithContact { link: c, phone: Some("08-123 45 67".into()), email: None };
        assert_eq!(w.link("en"), "https://example.com/check/?lang=en");
        assert_eq!(w.contact(), (Some("08-123 45 67".into()), None));
    }
}

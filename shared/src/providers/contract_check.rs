//! The contract-check site (Kontrakto, spec §2 contract check: the screen is
//! always shown and links out). There is no API to call: the adapter only
//! knows, from configuration, where the link goes — `CONTRACT_CHECK_URL` on
//! AWS, the stand-in's page locally.

/// Where the contract-check screen links to.
pub trait ContractCheck: Send + Sync {
    /// The external site's address for a user reading `lang` (sv or en).
    fn link(&self, lang: &str) -> String;
}

/// A configured base address; the language is passed on as `?lang=`.
pub struct ConfiguredLink(pub String);

impl ContractCheck for ConfiguredLink {
    fn link(&self, lang: &str) -> String {
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
    }
}

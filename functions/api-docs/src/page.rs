//! The API reference for people (`/api/docs`): a page that loads Redoc, a
//! well-kept OpenAPI renderer, which draws `/api/openapi.json`. Redoc's
//! bundle and the page's script come from the web app's build at fixed
//! names (`web/vite.config.ts` `apiReference`: `/api-reference/…`, served
//! by the site itself, as the Content-Security-Policy allows scripts only
//! from there and none inline), so no page of the app loads them.

/// Where the web build puts Redoc's standalone bundle.
pub const REDOC_SCRIPT: &str = "/api-reference/redoc.standalone.js";
/// Where the web build puts the page's script (language, texts, `Redoc.init`).
pub const INIT_SCRIPT: &str = "/api-reference/init.js";
/// The document the page draws.
pub const SPEC_URL: &str = "/api/openapi.json";

/// The page: an element Redoc draws into, the document's address for
/// readers without script, and the two scripts.
pub fn html() -> String {
    format!(
        "<!doctype html><html lang=\"sv\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>API</title><link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\">\
         <style>body{{margin:0;font-family:system-ui,sans-serif}}#api-reference>p{{padding:16px}}</style></head>\
         <body><div id=\"api-reference\" data-spec-url=\"{SPEC_URL}\"></div>\
         <noscript><p>Referensen behöver JavaScript / The reference needs JavaScript: \
         <a href=\"{SPEC_URL}\">{SPEC_URL}</a> (OpenAPI 3.1).</p></noscript>\
         <script src=\"{REDOC_SCRIPT}\"></script><script src=\"{INIT_SCRIPT}\"></script></body></html>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_loads_redoc_and_its_script_from_the_site_with_no_inline_script() {
        let page = html();
        assert!(page.contains(&format!("data-spec-url=\"{SPEC_URL}\"")), "{page}");
        let scripts: Vec<&str> = page.match_indices("<script").map(|(i, _)| &page[i..]).collect();
        assert_eq!(scripts.len(), 2, "{page}");
        assert!(scripts[0].starts_with(&format!("<script src=\"{REDOC_SCRIPT}\"></script>")), "Redoc first");
        assert!(scripts[1].starts_with(&format!("<script src=\"{INIT_SCRIPT}\"></script>")), "then the page's script");
        assert!(REDOC_SCRIPT.starts_with('/') && !REDOC_SCRIPT.starts_with("//"), "served by the site, not another origin");
    }
}

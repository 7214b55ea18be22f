//! Every documented operation is routed to a function in template.yaml, and
//! every HttpApi route in the template is documented: the deployed API and
//! the OpenAPI document cannot drift apart.

use std::collections::BTreeSet;

fn template_routes() -> BTreeSet<(String, String)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../template.yaml")).expect("template.yaml");
    text.lines()
        .filter(|l| l.contains("ApiId: !Ref HttpApi"))
        .map(|l| {
            let field = |name: &str| {
                // Paths with `{param}` segments are quoted (braces inside a YAML flow mapping).
                let v = l.split(&format!("{name}: ")).nth(1).expect(name);
                match v.strip_prefix('"') {
                    Some(quoted) => quoted.split('"').next().expect(name).to_string(),
                    None => v.split([',', ' ', '}']).next().expect(name).to_string(),
                }
            };
            (field("Method").to_lowercase(), field("Path"))
        })
        .collect()
}

#[test]
fn template_routes_match_the_openapi_document() {
    let doc = serde_json::to_value(api_docs::document()).unwrap();
    let documented: BTreeSet<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, ops)| {
            // HTTP API route keys cannot end in '/'; see the template's comment.
            let route = path.trim_end_matches('/').to_string();
            ops.as_object().unwrap().keys().map(move |m| (m.clone(), route.clone()))
        })
        .collect();
    let routed = template_routes();
    assert!(routed.len() >= 3, "no routes found in template.yaml");
    let missing: Vec<_> = documented.difference(&routed).collect();
    let undocumented: Vec<_> = routed.difference(&documented).collect();
    assert!(missing.is_empty(), "documented but not routed in template.yaml: {missing:?}");
    assert!(undocumented.is_empty(), "routed in template.yaml but not documented: {undocumented:?}");
}

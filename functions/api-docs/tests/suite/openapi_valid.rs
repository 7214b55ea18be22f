//! The OpenAPI document is exact: valid under
//! `openapi-spec-validator` (from the project venv, installed by
//! `infra/lib.sh ensure_venv`), unique operationIds, security and 401 on every
//! operation but the public ones.

use std::collections::HashMap;
use std::path::Path;

fn doc() -> serde_json::Value {
    serde_json::to_value(api_docs::document()).unwrap()
}

fn operations(doc: &serde_json::Value) -> Vec<(String, String, serde_json::Value)> {
    let mut out = vec![];
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            if ["get", "put", "post", "delete", "patch"].contains(&method.as_str()) {
                out.push((method.clone(), path.clone(), op.clone()));
            }
        }
    }
    out
}

#[test]
fn operation_ids_are_unique_and_every_secured_operation_says_so() {
    let doc = doc();
    let ops = operations(&doc);
    assert!(ops.len() > 150, "{} operations", ops.len());
    let mut ids: HashMap<String, Vec<String>> = HashMap::new();
    for (method, path, op) in &ops {
        let id = op["operationId"].as_str().unwrap_or_else(|| panic!("{method} {path} has no operationId"));
        ids.entry(id.to_string()).or_default().push(format!("{method} {path}"));
        let public = api_docs::PUBLIC.contains(&(method.as_str(), path.as_str()));
        let secured = op["security"].as_array().is_some_and(|s| !s.is_empty());
        assert_eq!(secured, !public, "{method} {path}: security");
        // A provider's callback is secured by its signature, never a bearer token.
        let signed = api_docs::SIGNED.iter().find(|(m, p, ..)| m == method && p == path);
        let scheme = signed.map_or("bearer", |(_, _, scheme, _, _)| scheme);
        if secured {
            assert!(op["security"][0].get(scheme).is_some(), "{method} {path}: secured by {scheme}, not {}", op["security"]);
            assert!(doc["components"]["securitySchemes"].get(scheme).is_some(), "{scheme} is not a security scheme");
        }
        if secured {
            assert_eq!(
                op["responses"]["401"]["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/ErrorBody",
                "{method} {path}"
            );
        }
        for p in op["parameters"].as_array().into_iter().flatten() {
            if p["in"] == "path" {
                assert!(path.contains(&format!("{{{}}}", p["name"].as_str().unwrap())), "{method} {path}: path parameter {p}");
            }
        }
    }
    let repeated: Vec<_> = ids.iter().filter(|(_, v)| v.len() > 1).collect();
    assert!(repeated.is_empty(), "repeated operationIds: {repeated:?}");
    for (method, path) in api_docs::PUBLIC {
        assert!(ops.iter().any(|(m, p, _)| m == method && p == path), "PUBLIC names {method} {path}, which the document lacks");
    }
}

#[test]
fn the_document_passes_openapi_spec_validator() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let python = root.join(".venv/bin/python");
    let has_validator =
        std::process::Command::new(&python).args(["-c", "import openapi_spec_validator"]).status().is_ok_and(|s| s.success());
    if !has_validator {
        assert!(std::env::var_os("CI").is_none(), "openapi-spec-validator missing from .venv (infra/lib.sh ensure_venv installs it)");
        eprintln!("SKIP: openapi-spec-validator is not in .venv; run `source infra/lib.sh && ensure_venv`");
        return;
    }
    let file = std::env::temp_dir().join(format!("openapi-{}.json", std::process::id()));
    std::fs::write(&file, serde_json::to_vec(&doc()).unwrap()).unwrap();
    let out = std::process::Command::new(&python)
        .args(["-m", "openapi_spec_validator", "--validation-errors", "all"])
        .arg(&file)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "openapi-spec-validator:\n{}", &text[..text.len().min(4000)]);
}

/// Every operation documents, with the error schema, what
/// its kind can answer: 404 when it addresses an object by path, 400 when it
/// takes parameters or a body, 413 with a body, 406 and 429 exactly on the
/// operations listed as loading a customer account or counting a limit.
#[test]
fn every_operation_documents_the_errors_it_can_answer() {
    let doc = doc();
    let error = |op: &serde_json::Value, status: &str| {
        let mut response = &op["responses"][status];
        if let Some(name) = response["$ref"].as_str().and_then(|r| r.strip_prefix("#/components/responses/")) {
            response = &doc["components"]["responses"][name];
        }
        response["content"]["application/json"]["schema"]["$ref"] == "#/components/schemas/ErrorBody"
    };
    let mut missing = vec![];
    for (method, path, op) in operations(&doc) {
        let key = (method.as_str(), path.as_str());
        let has_body = op.get("requestBody").is_some();
        let has_params = op["parameters"].as_array().is_some_and(|p| !p.is_empty());
        // The shared limits' and retries' answers, on every route.
        let mut want: Vec<&str> = api_docs::SHARED_RESPONSES.iter().map(|(_, status, _)| *status).collect();
        assert_eq!(want, ["414", "503", "504"]);
        if path.contains('{') {
            want.push("404");
        }
        if has_body || has_params {
            want.push("400");
        }
        if has_body {
            want.push("413");
        }
        if api_docs::THROTTLED.contains(&key) {
            want.push("429");
        }
        if api_docs::USER_NOT_FOUND.contains(&key) {
            want.push("406");
        }
        if !api_docs::PUBLIC.contains(&key) {
            want.push("401");
        }
        for status in want {
            if !error(&op, status) {
                missing.push(format!("{method} {path}: {status}"));
            }
        }
        // 406 and 429 only where the server can answer them.
        for (status, list) in [("406", api_docs::USER_NOT_FOUND), ("429", api_docs::THROTTLED)] {
            if op["responses"].get(status).is_some() && !list.contains(&key) {
                missing.push(format!("{method} {path}: documents {status}, which it never answers"));
            }
        }
    }
    for (method, path) in api_docs::THROTTLED.iter().chain(api_docs::USER_NOT_FOUND) {
        assert!(operations(&doc).iter().any(|(m, p, _)| m == method && p == path), "{method} {path} is not in the document");
    }
    assert!(missing.is_empty(), "undocumented answers:\n{}", missing.join("\n"));
}

/// Every request body has an example that fits its schema
/// (checked with the `jsonschema` Schemathesis brings into .venv), names
/// every field its schema marks required, and every object body marks what
/// it requires — but the bodies in [`NOTHING_REQUIRED`], whose fields are
/// all optional to the server. That the marks and bounds are the server's
/// own is checked against the router by local-gateway's `openapi_examples`.
#[test]
fn every_request_body_has_an_example_that_fits_its_schema() {
    /// Bodies the server takes with any or no field (each field defaults).
    const NOTHING_REQUIRED: &[(&str, &str, &str)] = &[
        ("post", "/api/2fa/toggle-activation/", "no body flips two-factor; the password only to turn it off"),
        ("post", "/api/academy/{id}/progress/", "either flag, or none"),
        ("post", "/api/customer/activation/check/", "a missing token is an invalid link (valid: false)"),
        ("post", "/api/logout/", "without a refresh token there is nothing to end (200)"),
        ("put", "/api/services/update/auto/{id}/", "no date clears the automatic update"),
        ("post", "/api/verified/auth/", "the provider judges the credentials"),
        ("post", "/api/2fa/totp/disable/", "the password or a current code, either (anyOf is not derived from the type)"),
    ];
    let doc = doc();
    let mut missing = vec![];
    let mut checks = vec![];
    for (method, path, op) in operations(&doc) {
        let Some(content) = op["requestBody"]["content"].as_object() else { continue };
        for (media_type, media) in content {
            let schema = &media["schema"];
            let resolved = resolve(&doc, schema);
            let example = media.get("example").cloned().or_else(|| find_example(&doc, schema));
            let Some(example) = example else {
                missing.push(format!("{method} {path} ({media_type}): no example"));
                continue;
            };
            let required = required_of(&doc, &resolved);
            for field in &required {
                if example.get(field).is_none() {
                    missing.push(format!("{method} {path}: the example lacks required {field}"));
                }
            }
            let is_object = resolved["type"] == "object" || resolved.get("allOf").is_some() || resolved.get("properties").is_some();
            let exempt = NOTHING_REQUIRED.iter().any(|(m, p, _)| *m == method && *p == path);
            if is_object && required.is_empty() && !exempt {
                missing.push(format!("{method} {path}: the body marks no field required"));
            }
            checks.push(serde_json::json!({"op": format!("{method} {path}"), "schema": schema, "example": example}));
        }
    }
    assert!(missing.is_empty(), "request bodies:\n{}", missing.join("\n"));
    // Each example against its schema, with the document's components.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let python = root.join(".venv/bin/python");
    if !std::process::Command::new(&python).args(["-c", "import jsonschema"]).status().is_ok_and(|s| s.success()) {
        assert!(std::env::var_os("CI").is_none(), "jsonschema missing from .venv (infra/lib.sh ensure_venv installs schemathesis)");
        eprintln!("SKIP: jsonschema is not in .venv");
        return;
    }
    let file = std::env::temp_dir().join(format!("examples-{}.json", std::process::id()));
    std::fs::write(&file, serde_json::to_vec(&serde_json::json!({"components": doc["components"], "checks": checks})).unwrap()).unwrap();
    let script = r#"
import json, sys, jsonschema
d = json.load(open(sys.argv[1]))
bad = []
for c in d["checks"]:
    schema = dict(c["schema"], components=d["components"])
    v = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    for e in v.iter_errors(c["example"]):
        bad.append(f'{c["op"]}: {e.message} at {list(e.absolute_path)}')
print("\n".join(bad))
sys.exit(1 if bad else 0)
"#;
    let out = std::process::Command::new(&python).args(["-c", script]).arg(&file).output().unwrap();
    let _ = std::fs::remove_file(&file);
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "examples that do not fit their schemas:\n{text}");
}

fn resolve(doc: &serde_json::Value, schema: &serde_json::Value) -> serde_json::Value {
    match schema.get("$ref").and_then(|r| r.as_str()) {
        Some(r) => resolve(doc, &doc["components"]["schemas"][r.rsplit('/').next().unwrap()]),
        None => match schema.get("oneOf").and_then(|b| b.as_array()) {
            Some(branches) => branches.iter().find(|b| b.get("type") != Some(&"null".into())).map(|b| resolve(doc, b)).unwrap_or_default(),
            None => schema.clone(),
        },
    }
}

fn find_example(doc: &serde_json::Value, schema: &serde_json::Value) -> Option<serde_json::Value> {
    let s = resolve(doc, schema);
    s.get("example").filter(|e| !e.is_null()).cloned().or_else(|| s["allOf"].as_array()?.iter().find_map(|p| find_example(doc, p)))
}

fn required_of(doc: &serde_json::Value, s: &serde_json::Value) -> Vec<String> {
    let mut out: Vec<String> = s["required"].as_array().into_iter().flatten().filter_map(|v| v.as_str().map(str::to_string)).collect();
    for p in s["allOf"].as_array().into_iter().flatten() {
        out.extend(required_of(doc, &resolve(doc, p)));
    }
    out
}

/// The query parameters say what the server reads: a parameter the server
/// cannot do without is required, and the statistics' period and days are
/// an enum and dates (a generated client sends only values it accepts).
#[test]
fn query_parameters_are_required_and_typed_as_the_server_reads_them() {
    let doc = doc();
    let param = |method: &str, path: &str, name: &str| {
        doc["paths"][path][method]["parameters"]
            .as_array()
            .and_then(|ps| ps.iter().find(|p| p["name"] == name && p["in"] == "query"))
            .cloned()
            .unwrap_or_else(|| panic!("{method} {path}: no query parameter {name}"))
    };
    for (method, path, name) in [
        ("get", "/api/case/hour/list/", "case"),
        ("get", "/api/case/additional_hour/list/", "case"),
        ("get", "/api/message/", "case"),
        ("get", "/api/legal/versions/", "kind"),
        ("get", "/api/customer/verify-services/", "service"),
        ("get", "/api/template_file/download/", "id"),
    ] {
        assert_eq!(param(method, path, name)["required"], true, "{method} {path}: {name}");
    }
    for (method, path, name) in
        [("get", "/api/case/list/", "status"), ("get", "/api/case/list/", "cursor"), ("get", "/api/customer/list/", "search")]
    {
        assert_eq!(param(method, path, name)["required"], false, "{method} {path}: {name} is optional");
    }
    // The notifications' offset: at most the store reads past.
    let offset = param("get", "/api/notification/", "offset");
    assert_eq!(offset["schema"]["maximum"], serde_json::json!(shared::store::collaboration::OFFSET_MAX), "{offset}");
    let period = param("get", "/api/statistic/finance/", "period");
    assert_eq!(period["schema"]["enum"], serde_json::json!(["this_month", "last_month", "this_year", "custom"]));
    for day in ["from", "to"] {
        assert_eq!(param("get", "/api/statistic/finance/", day)["schema"]["format"], "date", "{day}");
    }
    // The exports: the format an enum, each answer's content type documented.
    assert_eq!(param("get", "/api/statistic/finance/", "format")["schema"]["enum"], serde_json::json!(["csv", "xlsx"]));
    let answers = &doc["paths"]["/api/statistic/finance/"]["get"]["responses"]["200"]["content"];
    for media in ["application/json", "text/csv", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"] {
        assert!(answers.get(media).is_some(), "statistics answer {media}: {answers}");
    }
}

/// Two Rust types of one name are one schema in the document (the last
/// merged wins, and every `$ref` to the other then points at it): each
/// function crate's schemas must agree with every other's on each name.
#[test]
fn no_two_types_share_a_schema_name() {
    let mut seen: HashMap<String, (usize, serde_json::Value)> = HashMap::new();
    let mut clashes = vec![];
    for (n, part) in api_docs::all_routes().into_iter().enumerate() {
        let doc = serde_json::to_value(part.split_for_parts().1).unwrap();
        for (name, schema) in doc["components"]["schemas"].as_object().into_iter().flatten() {
            match seen.get(name) {
                Some((first, s)) if s != schema => clashes.push(format!("{name} (routers {first} and {n})")),
                Some(_) => {}
                None => {
                    seen.insert(name.clone(), (n, schema.clone()));
                }
            }
        }
    }
    assert!(clashes.is_empty(), "schemas of one name but different types (rename one with #[schema(as = ...)]): {clashes:?}");
}

#[test]
fn the_idempotency_key_bound_is_the_stores() {
    assert_eq!(api_docs::IDEMPOTENCY_KEY_MAX, shared::store::idempotency::MAX_KEY_LEN);
}

/// A reference renderer shows `info.license` as a line: one without a name
/// (utoipa's default when Cargo.toml names no license) is an empty line.
#[test]
fn the_document_names_no_license_it_does_not_have() {
    let doc = doc();
    let license = doc["info"].get("license");
    assert!(license.is_none_or(|l| l["name"].as_str().is_some_and(|n| !n.trim().is_empty())), "info.license: {license:?}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let has_license = manifest.lines().any(|l| l.trim_start().starts_with("license")) || root.join("LICENSE").exists();
    assert_eq!(license.is_some(), has_license, "the workspace's license (Cargo.toml, LICENSE) and info.license");
}

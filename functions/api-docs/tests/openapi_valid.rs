//! The OpenAPI document is exact (issue 22, item 8): valid under
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

//! The served document (`openapi.json`, what the Lambda answers) is exactly
//! what the annotated routes document. After changing a route or a body type:
//! `UPDATE_OPENAPI=1 cargo test -p api-docs openapi_file` rewrites it.

#[test]
fn the_served_file_is_the_document_of_the_code() {
    let current = api_docs::document_json();
    if std::env::var("UPDATE_OPENAPI").is_ok_and(|v| v == "1") {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.json");
        std::fs::write(path, &current).expect("write openapi.json");
        return;
    }
    assert!(
        api_docs::OPENAPI_JSON == current,
        "functions/api-docs/openapi.json is not the document of the code: run `UPDATE_OPENAPI=1 cargo test -p api-docs openapi_file` and commit it"
    );
}

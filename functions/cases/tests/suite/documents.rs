//! Case documents against the local stand-in (DynamoDB and S3), each test on
//! its own table and bucket: presigned upload, the confirm step's checks
//! (type by extension and by magic bytes, size, existence, the key's case),
//! download with Content-Disposition, removal, who may do what, and the
//! history entries. Every refusal must leave no object behind.

use crate::common;

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use shared::domain::document::DOCUMENT_MAX_BYTES;
use shared::domain::{Role, User};
use shared::testkit;

const PDF: &[u8] = b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
const ZIP: &[u8] = b"PK\x03\x04\x14\0\x06\0word/document.xml";
const EXE: &[u8] = b"MZ\x90\0\x03\0\0\0\x04\0\0\0\xff\xff";

/// The case tests' world (tests/common) with an admin and a customer signed in.
struct World {
    base: common::World,
    admin: String,
    customer: User,
    ct: String,
}

impl std::ops::Deref for World {
    type Target = common::World;
    fn deref(&self) -> &common::World {
        &self.base
    }
}

async fn world() -> World {
    let base = common::world().await;
    let (_, admin) = base.user(Role::Admin).await;
    let (customer, ct) = base.user(Role::Customer).await;
    World { base, admin, customer, ct }
}

impl World {
    /// A Draft case of the customer, created by admin.
    async fn new_case(&self) -> String {
        self.base.new_case(&self.admin, &self.customer).await
    }

    async fn upload_url(&self, token: &str, case: &str, name: &str) -> (StatusCode, Value) {
        self.call(Method::POST, "/api/case/file/upload-url/", token, Some(json!({"case_uid": case, "name": name}))).await
    }

    /// upload-url and the presigned PUT; the key.
    async fn put(&self, token: &str, case: &str, name: &str, bytes: &[u8]) -> String {
        let (st, target) = self.upload_url(token, case, name).await;
        assert_eq!(st, StatusCode::OK, "{target}");
        let (code, _, _) = testkit::http("PUT", target["url"].as_str().unwrap(), target["content_type"].as_str(), bytes).await;
        assert_eq!(code, 200, "presigned PUT");
        target["key"].as_str().unwrap().to_string()
    }

    async fn confirm(&self, token: &str, case: &str, key: &str, name: &str) -> (StatusCode, Value) {
        self.call(Method::POST, "/api/case/file/confirm/", token, Some(json!({"case_uid": case, "key": key, "name": name}))).await
    }

    async fn add(&self, token: &str, case: &str, name: &str, bytes: &[u8]) -> Value {
        let key = self.put(token, case, name, bytes).await;
        let (st, f) = self.confirm(token, case, &key, name).await;
        assert_eq!(st, StatusCode::CREATED, "{f}");
        f
    }

    async fn files(&self, case: &str) -> Vec<String> {
        let c = self.state.store.get_case(case).await.unwrap().unwrap().case;
        c.files.into_iter().map(|f| f.name).collect()
    }

    /// The object is there, confirmed or still waiting under pending/.
    async fn exists(&self, key: &str) -> bool {
        self.state.files.size(key).await.unwrap().is_some()
            || self.state.files.size(&shared::files::pending_key(key)).await.unwrap().is_some()
    }

    async fn history(&self, case: &str) -> Vec<(Option<String>, Option<String>)> {
        let h = self.state.store.case_history(case).await.unwrap();
        h.into_iter().filter(|e| e.field == "file").map(|e| (e.before, e.after)).collect()
    }
}

#[tokio::test]
async fn the_customer_adds_a_pdf_staff_download_it_and_it_can_be_removed() {
    let w = world().await;
    let case = w.new_case().await;
    let name = "Hyresavtal åäö.pdf";

    let key = w.put(&w.ct, &case, name, PDF).await;
    assert!(key.starts_with(&format!("cases/{case}/")) && key.ends_with(".pdf"), "{key}");
    let (st, f) = w.confirm(&w.ct, &case, &key, name).await;
    assert_eq!(st, StatusCode::CREATED, "{f}");
    assert_eq!((f["key"].as_str(), f["name"].as_str(), f["size"].as_i64()), (Some(key.as_str()), Some(name), Some(PDF.len() as i64)));
    assert_eq!(f["uploaded_by"], json!(w.customer.uid));

    // A retried confirm answers the same file; the case holds it once.
    let (st, again) = w.confirm(&w.ct, &case, &key, name).await;
    assert_eq!((st, again["key"].as_str()), (StatusCode::CREATED, Some(key.as_str())));
    let (st, details) = w.call(Method::GET, &format!("/api/case/{case}/"), &w.ct, None).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(details["files"].as_array().unwrap().len(), 1);
    assert_eq!(details["files"][0]["name"], name);
    assert_eq!(w.history(&case).await, vec![(None, Some(name.to_string()))]);

    // Admin downloads it: the bytes, as an attachment under the original name.
    let q = format!("/api/case/file/download/?case={case}&key={key}");
    let (st, d) = w.call(Method::GET, &q, &w.admin, None).await;
    assert_eq!(st, StatusCode::OK, "{d}");
    let (code, headers, body) = testkit::http("GET", d["url"].as_str().unwrap(), None, b"").await;
    assert_eq!(code, 200);
    assert_eq!(body, PDF);
    let disposition = headers.iter().find(|(k, _)| k == "content-disposition").map(|(_, v)| v.clone()).unwrap_or_default();
    assert!(disposition.starts_with("attachment;"), "{disposition}");
    assert!(disposition.contains("filename*=UTF-8''Hyresavtal%20%C3%A5%C3%A4%C3%B6.pdf"), "{disposition}");

    // A stranger (another customer) learns nothing: 404 everywhere.
    let (_, other) = testkit::signed_in(&w.state, Role::Customer).await;
    assert_eq!(w.call(Method::GET, &q, &other, None).await.0, StatusCode::NOT_FOUND);
    assert_eq!(w.upload_url(&other, &case, "x.pdf").await.0, StatusCode::NOT_FOUND);
    assert_eq!(w.confirm(&other, &case, &key, name).await.0, StatusCode::NOT_FOUND);
    assert_eq!(
        w.call(Method::DELETE, &format!("/api/case/file/delete/?case={case}&key={key}"), &other, None).await.0,
        StatusCode::NOT_FOUND
    );
    // ...and so does a lawyer before the case is available.
    let (_, lawyer) = testkit::signed_in(&w.state, Role::Lawyer).await;
    assert_eq!(w.call(Method::GET, &q, &lawyer, None).await.0, StatusCode::NOT_FOUND);
    // A key the case does not hold: 404.
    let (st, _) = w.call(Method::GET, &format!("/api/case/file/download/?case={case}&key=cases/{case}/nope.pdf"), &w.admin, None).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert!(w.exists(&key).await);

    // The customer removes it: gone from the case and from S3, recorded.
    let (st, body) = w.call(Method::DELETE, &format!("/api/case/file/delete/?case={case}&key={key}"), &w.ct, None).await;
    assert_eq!(st, StatusCode::NO_CONTENT, "{body}");
    assert!(w.files(&case).await.is_empty());
    assert!(!w.exists(&key).await);
    assert_eq!(w.history(&case).await, vec![(None, Some(name.to_string())), (Some(name.to_string()), None)]);
    assert_eq!(
        w.call(Method::DELETE, &format!("/api/case/file/delete/?case={case}&key={key}"), &w.ct, None).await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn refused_files_leave_no_object_and_the_case_unchanged() {
    let w = world().await;
    let case = w.new_case().await;
    let refused = |v: &Value| v["message"].as_str().unwrap_or_default().to_string();

    // Wrong extension: no URL at all.
    for name in ["setup.exe", "photo.gif", "notes.txt", "archive.zip", "noextension"] {
        let (st, v) = w.upload_url(&w.ct, &case, name).await;
        assert_eq!((st, refused(&v).as_str()), (StatusCode::BAD_REQUEST, "document_type_not_allowed"), "{name}");
    }
    let (st, v) = w.upload_url(&w.ct, &case, "  ").await;
    assert_eq!((st, v["errors"]["name"][0].as_str()), (StatusCode::BAD_REQUEST, Some("required")));

    // Right extension, wrong bytes: a PNG, a ZIP and an EXE named .pdf; an EXE named .docx.
    for (name, bytes) in [("a.pdf", PNG), ("b.pdf", ZIP), ("c.pdf", EXE), ("d.docx", EXE), ("e.png", PDF)] {
        let key = w.put(&w.ct, &case, name, bytes).await;
        assert!(w.exists(&key).await);
        let (st, v) = w.confirm(&w.ct, &case, &key, name).await;
        assert_eq!((st, refused(&v).as_str()), (StatusCode::BAD_REQUEST, "document_type_not_allowed"), "{name}");
        assert!(!w.exists(&key).await, "{name}: the object is gone");
    }

    // PDFs are parsed: active content (scripts, actions, launches, embedded
    // files) and what is no well-formed PDF (an HTML polyglot) are refused.
    let sample = shared::domain::pdf::sample;
    let active = [
        sample("/OpenAction << /S /JavaScript /JS (app.alert(1)) >>", &[]),
        sample("/AA << /O << /S /Launch /F (cmd.exe) >> >>", &[]),
        sample("/Names << /EmbeddedFiles << /Names [(a.exe) 4 0 R] >> >>", &["<< /Type /Filespec /F (a.exe) >>"]),
    ];
    for bytes in active {
        let key = w.put(&w.ct, &case, "active.pdf", &bytes).await;
        let (st, v) = w.confirm(&w.ct, &case, &key, "active.pdf").await;
        assert_eq!((st, refused(&v).as_str()), (StatusCode::BAD_REQUEST, "pdf_active_content"), "{v}");
        assert!(!w.exists(&key).await);
    }
    let key = w.put(&w.ct, &case, "page.pdf", b"%PDF-1.4\n<html><script>alert(document.cookie)</script></html>").await;
    let (st, v) = w.confirm(&w.ct, &case, &key, "page.pdf").await;
    assert_eq!((st, refused(&v).as_str()), (StatusCode::BAD_REQUEST, "invalid_pdf"));
    assert!(!w.exists(&key).await);

    // Empty.
    let key = w.put(&w.ct, &case, "empty.pdf", b"").await;
    let (st, v) = w.confirm(&w.ct, &case, &key, "empty.pdf").await;
    assert_eq!((st, refused(&v).as_str()), (StatusCode::BAD_REQUEST, "document_empty"));
    assert!(!w.exists(&key).await);

    // One byte over the limit, with a PDF signature.
    let mut big = PDF.to_vec();
    big.resize(DOCUMENT_MAX_BYTES as usize + 1, b' ');
    let key = w.put(&w.ct, &case, "big.pdf", &big).await;
    let (st, v) = w.confirm(&w.ct, &case, &key, "big.pdf").await;
    assert_eq!((st, refused(&v).as_str()), (StatusCode::BAD_REQUEST, "document_too_large"));
    assert!(!w.exists(&key).await);
    drop(big);

    // Never uploaded.
    let (_, target) = w.upload_url(&w.ct, &case, "later.pdf").await;
    let (st, v) = w.confirm(&w.ct, &case, target["key"].as_str().unwrap(), "later.pdf").await;
    assert_eq!((st, refused(&v).as_str()), (StatusCode::BAD_REQUEST, "document_not_uploaded"));

    // Confirmed under a name of another type than the key was issued for.
    let key = w.put(&w.ct, &case, "real.pdf", PDF).await;
    let (st, v) = w.confirm(&w.ct, &case, &key, "real.png").await;
    assert_eq!((st, refused(&v).as_str()), (StatusCode::BAD_REQUEST, "document_type_not_allowed"));
    assert!(!w.exists(&key).await);

    // A key of another case (or none the server could have chosen): 400, and
    // the other case's object is not touched.
    let other_case = w.new_case().await;
    let foreign = w.put(&w.admin, &other_case, "theirs.pdf", PDF).await;
    for key in [foreign.as_str(), "profile-images/x/y.png", "cases/../etc.pdf", ""] {
        let (st, v) = w.confirm(&w.ct, &case, key, "theirs.pdf").await;
        assert_eq!((st, v["errors"]["key"][0].as_str()), (StatusCode::BAD_REQUEST, Some("invalid")), "{key}");
    }
    assert!(w.exists(&foreign).await, "another case's object is never deleted by a refusal");
    assert!(w.files(&other_case).await.is_empty());

    assert!(w.files(&case).await.is_empty(), "the case's files are unchanged");
    assert!(w.history(&case).await.is_empty(), "no file history");
}

#[tokio::test]
async fn who_may_add_and_remove_as_the_case_moves_and_parallel_additions_all_land() {
    let w = world().await;
    let case = w.new_case().await;
    let (lawyer, lt) = testkit::signed_in(&w.state, Role::Lawyer).await;
    let cust_file = w.add(&w.ct, &case, "from-customer.pdf", PDF).await;

    // Published and accepted: the customer still adds documents, the lawyer too.
    assert_eq!(
        w.call(Method::POST, &format!("/api/case/status/{case}/"), &w.admin, Some(json!({"action": "publish"}))).await.0,
        StatusCode::OK
    );
    // An unassigned lawyer sees the available case and may download, not add.
    let (st, _) =
        w.call(Method::GET, &format!("/api/case/file/download/?case={case}&key={}", cust_file["key"].as_str().unwrap()), &lt, None).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(w.upload_url(&lt, &case, "x.pdf").await.0, StatusCode::FORBIDDEN);
    assert_eq!(w.call(Method::POST, &format!("/api/case/status/{case}/"), &lt, Some(json!({"action": "accept"}))).await.0, StatusCode::OK);
    let law_file = w.add(&lt, &case, "Yttrande.docx", ZIP).await;
    assert_eq!(law_file["uploaded_by"], json!(lawyer.uid));
    w.add(&w.ct, &case, "kvitto.jpg", b"\xFF\xD8\xFF\xE0\0\x10JFIF").await;

    // The customer may not remove the lawyer's document; the lawyer may remove the customer's.
    // The list tells each caller what they may do.
    let (st, l) = w.call(Method::GET, &format!("/api/case/file/list/?case={case}"), &w.ct, None).await;
    assert_eq!(st, StatusCode::OK, "{l}");
    assert_eq!(l["can_manage"], true);
    assert_eq!(l["max_files"], 20);
    let can_remove: Vec<(String, bool)> = l["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["name"].as_str().unwrap().to_string(), f["can_remove"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        can_remove,
        [("from-customer.pdf".to_string(), true), ("Yttrande.docx".to_string(), false), ("kvitto.jpg".to_string(), true)]
    );
    let (_, stranger) = testkit::signed_in(&w.state, Role::Customer).await;
    assert_eq!(w.call(Method::GET, &format!("/api/case/file/list/?case={case}"), &stranger, None).await.0, StatusCode::NOT_FOUND);

    let del = |k: &Value| format!("/api/case/file/delete/?case={case}&key={}", k["key"].as_str().unwrap());
    assert_eq!(w.call(Method::DELETE, &del(&law_file), &w.ct, None).await.0, StatusCode::FORBIDDEN);
    assert!(w.exists(law_file["key"].as_str().unwrap()).await);
    assert_eq!(w.call(Method::DELETE, &del(&cust_file), &lt, None).await.0, StatusCode::NO_CONTENT);

    // Several documents confirmed at once: every one lands (conditional writes, retried).
    let mut keys = Vec::new();
    for i in 0..5 {
        keys.push((w.put(&w.ct, &case, &format!("bilaga-{i}.pdf"), PDF).await, format!("bilaga-{i}.pdf")));
    }
    let mut tasks = tokio::task::JoinSet::new();
    for (key, name) in keys {
        let (router, t, case) = (w.router.clone(), w.ct.clone(), case.clone());
        tasks.spawn(async move {
            testkit::call(
                &router,
                Method::POST,
                "/api/case/file/confirm/",
                Some(&t),
                Some(json!({"case_uid": case, "key": key, "name": name})),
            )
            .await
            .0
        });
    }
    while let Some(st) = tasks.join_next().await {
        assert_eq!(st.unwrap(), StatusCode::CREATED);
    }
    let mut names = w.files(&case).await;
    names.sort();
    assert_eq!(names, ["Yttrande.docx", "bilaga-0.pdf", "bilaga-1.pdf", "bilaga-2.pdf", "bilaga-3.pdf", "bilaga-4.pdf", "kvitto.jpg"]);

    // Closed: the customer and the lawyer can no longer change the documents; admin can.
    let late_key = w.put(&w.ct, &case, "late.pdf", PDF).await;
    assert_eq!(
        w.call(Method::POST, &format!("/api/case/status/{case}/"), &lt, Some(json!({"action": "complete"}))).await.0,
        StatusCode::OK
    );
    assert_eq!(w.upload_url(&w.ct, &case, "late.pdf").await.0, StatusCode::FORBIDDEN);
    // An upload begun before the case closed is refused on confirm, and removed.
    let (st, v) = w.confirm(&w.ct, &case, &late_key, "late.pdf").await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    assert!(!w.exists(&late_key).await);
    assert_eq!(w.upload_url(&lt, &case, "late.pdf").await.0, StatusCode::FORBIDDEN);
    assert_eq!(w.call(Method::DELETE, &del(&law_file), &lt, None).await.0, StatusCode::FORBIDDEN);
    assert_eq!(w.upload_url(&w.admin, &case, "archive.pdf").await.0, StatusCode::OK);
    let (_, l) = w.call(Method::GET, &format!("/api/case/file/list/?case={case}"), &w.ct, None).await;
    assert_eq!(l["can_manage"], false);
    assert!(l["files"].as_array().unwrap().iter().all(|f| f["can_remove"] == false));
    // Downloads stay open to whoever sees the case.
    assert_eq!(
        w.call(Method::GET, &format!("/api/case/file/download/?case={case}&key={}", law_file["key"].as_str().unwrap()), &w.ct, None)
            .await
            .0,
        StatusCode::OK
    );

    // At most 20 documents per case.
    let mut count = w.files(&case).await.len();
    while count < 20 {
        w.add(&w.admin, &case, &format!("fill-{count}.pdf"), PDF).await;
        count += 1;
    }
    let (st, v) = w.upload_url(&w.admin, &case, "21.pdf").await;
    assert_eq!((st, v["message"].as_str()), (StatusCode::BAD_REQUEST, Some("too_many_documents")));
    assert_eq!(w.history(&case).await.len(), 1 + 1 + 1 + 1 + 5 + (20 - 7));
}

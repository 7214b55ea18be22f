//! The profile page's API: names and phone, and the image through a presigned
//! S3 PUT, checked on confirm (size, magic bytes) against the stand-in.

use crate::common;

use axum::http::{Method, StatusCode};
use axum::Router;
use common::{call, setup, token, PASSWORD};
use serde_json::json;
use shared::domain::Role;
use shared::testkit;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

async fn upload(router: &Router, t: &str, content_type: &str, bytes: &[u8]) -> String {
    let (status, target) =
        call(router, Method::POST, "/api/profile/image/upload-url/", t, Some(json!({"content_type": content_type}))).await;
    assert_eq!(status, StatusCode::OK, "{target}");
    let (code, _, _) = testkit::http("PUT", target["url"].as_str().unwrap(), target["content_type"].as_str(), bytes).await;
    assert_eq!(code, 200, "presigned PUT");
    target["key"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn profile_update_changes_names_and_phone_but_not_for_admin() {
    let (state, router) = setup().await;
    let lawyer = testkit::account(&state, "lawyer@example.com", PASSWORD, Role::Lawyer).await;
    let t = token(&state, &lawyer).await;
    let (status, me) = call(
        &router,
        Method::PUT,
        "/api/profile/update/",
        &t,
        Some(json!({"first_name": " La\u{202e}rs\n ", "last_name": "Lag\u{0}", "phone": "08-123 456 78"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{me}");
    assert_eq!(me["full_name"], "Lars Lag");
    assert_eq!(me["phone"], "08-123 456 78");
    assert_eq!(me["image"], "not set");
    let stored = state.store.get_user(&lawyer.uid).await.unwrap().unwrap();
    assert_eq!((stored.first_name.as_str(), stored.last_name.as_str()), ("Lars", "Lag"));

    let (status, body) =
        call(&router, Method::PUT, "/api/profile/update/", &t, Some(json!({"first_name": "", "last_name": "Lag", "phone": "abc"}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["errors"]["first_name"][0], "required");
    assert_eq!(body["errors"]["phone"][0], "invalid_phone");

    let admin = testkit::account(&state, "admin@example.com", PASSWORD, Role::Admin).await;
    let at = token(&state, &admin).await;
    let (status, body) = call(&router, Method::PUT, "/api/profile/update/", &at, Some(json!({"first_name": "A", "last_name": "B"}))).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, _) = call(&router, Method::POST, "/api/profile/image/upload-url/", &at, Some(json!({"content_type": "image/png"}))).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(state.store.get_user(&admin.uid).await.unwrap().unwrap().first_name, "Anna");
}

#[tokio::test]
async fn an_uploaded_png_becomes_the_profile_image() {
    let (state, router) = setup().await;
    let customer = testkit::account(&state, "kund@example.com", PASSWORD, Role::Customer).await;
    let t = token(&state, &customer).await;

    let (status, body) =
        call(&router, Method::POST, "/api/profile/image/upload-url/", &t, Some(json!({"content_type": "image/gif"}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["errors"]["content_type"][0], "image_type_not_allowed");

    let key = upload(&router, &t, "image/png", PNG).await;
    assert!(key.starts_with(&format!("profile-images/{}/", customer.uid)) && key.ends_with(".png"), "{key}");
    // Until confirmed, the upload waits under pending/, which expires after a day.
    let pending = shared::files::pending_key(&key);
    assert_eq!((state.files.size(&key).await.unwrap(), state.files.size(&pending).await.unwrap()), (None, Some(PNG.len() as i64)));
    let rules = state.files.lifecycle_rules().await.unwrap();
    assert!(rules.contains(&(shared::files::PENDING_RULE_ID.into(), "pending/".into(), Some(1))), "{rules:?}");
    let (status, me) = call(&router, Method::POST, "/api/profile/image/confirm/", &t, Some(json!({"key": key}))).await;
    assert_eq!(status, StatusCode::OK, "{me}");
    assert_eq!((state.files.size(&key).await.unwrap(), state.files.size(&pending).await.unwrap()), (Some(PNG.len() as i64), None));
    let url = me["image"].as_str().unwrap();
    assert!(url.starts_with("http") && url.contains(&key) && url.contains("X-Amz-Signature"), "{url}");
    assert_eq!(state.store.get_user(&customer.uid).await.unwrap().unwrap().image, key);

    // a second image replaces the first, whose object is removed
    let key2 = upload(&router, &t, "image/jpeg", b"\xFF\xD8\xFF\xE0\0\x10JFIF").await;
    let (status, _) = call(&router, Method::POST, "/api/profile/image/confirm/", &t, Some(json!({"key": key2}))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state.files.size(&key).await.unwrap(), None);
    assert!(state.files.size(&key2).await.unwrap().is_some());
}

#[tokio::test]
async fn wrong_bytes_too_big_missing_or_foreign_keys_are_refused() {
    let (state, router) = setup().await;
    let customer = testkit::account(&state, "kund@example.com", PASSWORD, Role::Customer).await;
    let t = token(&state, &customer).await;

    // a GIF sent as PNG: refused and deleted
    let key = upload(&router, &t, "image/png", b"GIF89a-not-a-png").await;
    assert!(state.files.size(&shared::files::pending_key(&key)).await.unwrap().is_some());
    let (status, body) = call(&router, Method::POST, "/api/profile/image/confirm/", &t, Some(json!({"key": key}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], "image_invalid");
    assert_eq!(state.files.size(&key).await.unwrap(), None, "the object is gone");

    // 2 MiB + 1 byte with a PNG signature: refused and deleted
    let mut big = PNG.to_vec();
    big.resize(2 * 1024 * 1024 + 1, 0);
    let key = upload(&router, &t, "image/png", &big).await;
    let (status, body) = call(&router, Method::POST, "/api/profile/image/confirm/", &t, Some(json!({"key": key}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], "image_too_large");
    assert_eq!(state.files.size(&key).await.unwrap(), None);

    // exactly 2 MiB is fine
    big.truncate(2 * 1024 * 1024);
    let key = upload(&router, &t, "image/png", &big).await;
    let (status, _) = call(&router, Method::POST, "/api/profile/image/confirm/", &t, Some(json!({"key": key}))).await;
    assert_eq!(status, StatusCode::OK);

    // never uploaded
    let (_, target) = call(&router, Method::POST, "/api/profile/image/upload-url/", &t, Some(json!({"content_type": "image/png"}))).await;
    let (status, body) = call(&router, Method::POST, "/api/profile/image/confirm/", &t, Some(json!({"key": target["key"]}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], "image_not_uploaded");

    // someone else's key
    let other = testkit::account(&state, "other@example.com", PASSWORD, Role::Customer).await;
    let ot = token(&state, &other).await;
    let (status, body) = call(&router, Method::POST, "/api/profile/image/confirm/", &ot, Some(json!({"key": key}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["errors"]["key"][0], "invalid");
    assert_eq!(state.store.get_user(&other.uid).await.unwrap().unwrap().image, "not set");
}

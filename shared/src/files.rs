//! Documents in S3, reached by the browser through presigned URLs only.

use aws_sdk_s3::presigning::PresigningConfig;
use std::time::Duration;

use crate::error::ApiError;

/// How long a presigned URL stays valid.
pub const PRESIGN_TTL: Duration = Duration::from_secs(15 * 60);

/// Uploads land under this prefix and move to their key only when confirmed
/// ([`FileStore::claim_upload`]); the bucket's lifecycle rule (template.yaml,
/// and [`FileStore::ensure_bucket`] locally) expires what stays there after
/// [`PENDING_EXPIRY_DAYS`], so an upload nobody confirms does not stay forever.
pub const PENDING_PREFIX: &str = "pending/";
pub const PENDING_EXPIRY_DAYS: i32 = 1;
/// The lifecycle rule's id (the same in the template).
pub const PENDING_RULE_ID: &str = "ExpireUnconfirmedUploads";

/// A customer's data exports (`exports/<customer uid>/<id>.zip`) are
/// removed by the bucket's lifecycle rule once their download period is
/// over (the retention job marks the export expired and removes the
/// object too, whichever comes first).
pub const EXPORTS_PREFIX: &str = "exports/";
pub const EXPORTS_RULE_ID: &str = "ExpireDataExports";
/// A day past the download period: the rule counts from the object's creation.
pub const EXPORTS_EXPIRY_DAYS: i32 = crate::domain::data_rights::EXPORT_DAYS as i32 + 1;

/// Where the browser's PUT for `key` lands until it is confirmed.
pub fn pending_key(key: &str) -> String {
    format!("{PENDING_PREFIX}{key}")
}

/// `Content-Disposition: attachment` for `filename` (RFC 6266): an ASCII
/// `filename` for old clients and the exact UTF-8 name in `filename*`, so
/// Swedish names (å, ä, ö) survive the download.
pub fn attachment(filename: &str) -> String {
    let clean: String = filename.chars().filter(|c| !c.is_control() && *c != '"' && *c != '\\').collect();
    let ascii: String = clean.chars().map(|c| if c.is_ascii() { c } else { '_' }).collect();
    let mut encoded = String::new();
    for b in clean.bytes() {
        if b.is_ascii_alphanumeric() || b"!#$&+-.^_`|~".contains(&b) {
            encoded.push(b as char);
        } else {
            encoded.push_str(&format!("%{b:02X}"));
        }
    }
    format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}")
}

#[derive(Clone)]
pub struct FileStore {
    client: aws_sdk_s3::Client,
    bucket: String,
}

fn err(e: impl std::error::Error + 'static) -> ApiError {
    ApiError::internal(aws_sdk_s3::error::DisplayErrorContext(e))
}

impl FileStore {
    pub fn new(client: aws_sdk_s3::Client, bucket: impl Into<String>) -> Self {
        FileStore { client, bucket: bucket.into() }
    }

    pub fn bucket(&self) -> &str {
        &self.bucket
    }

    /// URL the browser PUTs the file to; the key is always chosen by the
    /// server. The object lands under [`PENDING_PREFIX`] and reaches `key`
    /// only through [`FileStore::claim_upload`] when the upload is confirmed.
    pub async fn presign_upload(&self, key: &str, content_type: &str) -> Result<String, ApiError> {
        let req = self
            .client
            .put_object()
            .bucket(&self.bucket)
            .key(pending_key(key))
            .content_type(content_type)
            .presigned(PresigningConfig::expires_in(PRESIGN_TTL).map_err(err)?)
            .await
            .map_err(err)?;
        Ok(req.uri().to_string())
    }

    /// URL that downloads the object as an attachment named `filename`.
    pub async fn presign_download(&self, key: &str, filename: &str) -> Result<String, ApiError> {
        self.presign_download_for(key, filename, PRESIGN_TTL).await
    }

    /// [`FileStore::presign_download`] valid for `ttl` (at most 7 days, SigV4's limit).
    pub async fn presign_download_for(&self, key: &str, filename: &str, ttl: Duration) -> Result<String, ApiError> {
        let ttl = ttl.clamp(Duration::from_secs(1), Duration::from_secs(7 * 24 * 60 * 60));
        let req = self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(key)
            .response_content_disposition(attachment(filename))
            .presigned(PresigningConfig::expires_in(ttl).map_err(err)?)
            .await
            .map_err(err)?;
        Ok(req.uri().to_string())
    }

    /// Every object key under `prefix` (ListObjectsV2, page after page).
    pub async fn keys_under(&self, prefix: &str) -> Result<Vec<String>, ApiError> {
        let mut out = Vec::new();
        let mut token: Option<String> = None;
        loop {
            let page = self
                .client
                .list_objects_v2()
                .bucket(&self.bucket)
                .prefix(prefix)
                .set_continuation_token(token)
                .send()
                .await
                .map_err(err)?;
            out.extend(page.contents().iter().filter_map(|o| o.key().map(str::to_string)));
            token = page.next_continuation_token().map(str::to_string);
            if token.is_none() {
                return Ok(out);
            }
        }
    }

    /// Writes the file at `path` as the object `key` (a data export's ZIP,
    /// built on local disk so its size is not bounded by memory).
    pub async fn put_file(&self, key: &str, content_type: &str, path: &std::path::Path) -> Result<(), ApiError> {
        let body = aws_sdk_s3::primitives::ByteStream::from_path(path).await.map_err(ApiError::internal)?;
        self.client.put_object().bucket(&self.bucket).key(key).content_type(content_type).body(body).send().await.map_err(err)?;
        Ok(())
    }

    /// URL that shows the object inline (profile images in an `<img>`).
    pub async fn presign_view(&self, key: &str) -> Result<String, ApiError> {
        let req = self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(key)
            .presigned(PresigningConfig::expires_in(PRESIGN_TTL).map_err(err)?)
            .await
            .map_err(err)?;
        Ok(req.uri().to_string())
    }

    /// Moves a confirmed upload from under [`PENDING_PREFIX`] to `key` (a
    /// server-side copy, then the pending object is deleted). Nothing to move
    /// (a retried confirm, or an object written directly) is not an error:
    /// the caller's checks of `key` decide.
    pub async fn claim_upload(&self, key: &str) -> Result<(), ApiError> {
        let pending = pending_key(key);
        if self.size(&pending).await?.is_none() {
            return Ok(());
        }
        // The copy source is URL-encoded; keys are chosen by the server, so
        // only '/' and unreserved characters need to pass as they are.
        let encoded: String = pending
            .bytes()
            .map(|b| if b.is_ascii_alphanumeric() || b"-_.~/".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") })
            .collect();
        let source = format!("{}/{encoded}", self.bucket);
        match self.client.copy_object().bucket(&self.bucket).key(key).copy_source(source).send().await {
            Ok(_) => self.delete(&pending).await,
            // Claimed meanwhile by a concurrent confirm of the same upload: as above.
            Err(e) if e.raw_response().is_some_and(|r| r.status().as_u16() == 404) => Ok(()),
            Err(e) => Err(err(e)),
        }
    }

    /// Removes a refused upload: the object at `key` and its copy still
    /// waiting under [`PENDING_PREFIX`] (either may be missing).
    pub async fn discard_upload(&self, key: &str) -> Result<(), ApiError> {
        self.delete(&pending_key(key)).await?;
        self.delete(key).await
    }

    /// The object's size in bytes, or `None` when it does not exist.
    pub async fn size(&self, key: &str) -> Result<Option<i64>, ApiError> {
        match self.client.head_object().bucket(&self.bucket).key(key).send().await {
            Ok(out) => Ok(Some(out.content_length.unwrap_or(0))),
            Err(e) if e.as_service_error().is_some_and(|s| s.is_not_found()) => Ok(None),
            Err(e) if e.raw_response().is_some_and(|r| r.status().as_u16() == 404) => Ok(None),
            Err(e) => Err(err(e)),
        }
    }

    /// The first `n` bytes of the object (fewer when it is shorter).
    pub async fn head_bytes(&self, key: &str, n: usize) -> Result<Vec<u8>, ApiError> {
        let out = self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(key)
            .range(format!("bytes=0-{}", n.saturating_sub(1)))
            .send()
            .await
            .map_err(err)?;
        let bytes = out.body.collect().await.map_err(ApiError::internal)?.into_bytes();
        Ok(bytes.iter().take(n).copied().collect())
    }

    /// The whole object (callers check its size first).
    pub async fn bytes(&self, key: &str) -> Result<Vec<u8>, ApiError> {
        let out = self.client.get_object().bucket(&self.bucket).key(key).send().await.map_err(err)?;
        Ok(out.body.collect().await.map_err(ApiError::internal)?.into_bytes().to_vec())
    }

    /// Writes an object directly (seed data and tests; the platform's own
    /// uploads always go through presigned URLs).
    pub async fn put_bytes(&self, key: &str, content_type: &str, bytes: Vec<u8>) -> Result<(), ApiError> {
        self.client.put_object().bucket(&self.bucket).key(key).content_type(content_type).body(bytes.into()).send().await.map_err(err)?;
        Ok(())
    }

    pub async fn delete(&self, key: &str) -> Result<(), ApiError> {
        self.client.delete_object().bucket(&self.bucket).key(key).send().await.map_err(err)?;
        Ok(())
    }

    /// Creates the bucket if missing (local stand-in; on AWS the template owns it).
    pub async fn ensure_bucket(&self, region: &str) -> Result<(), ApiError> {
        if self.client.head_bucket().bucket(&self.bucket).send().await.is_ok() {
            return Ok(());
        }
        let mut req = self.client.create_bucket().bucket(&self.bucket);
        if region != "us-east-1" {
            req = req.create_bucket_configuration(
                aws_sdk_s3::types::CreateBucketConfiguration::builder()
                    .location_constraint(aws_sdk_s3::types::BucketLocationConstraint::from(region))
                    .build(),
            );
        }
        match req.send().await {
            Ok(_) => {}
            Err(e) if e.as_service_error().is_some_and(|s| s.is_bucket_already_owned_by_you() || s.is_bucket_already_exists()) => {}
            Err(e) => return Err(err(e)),
        }
        self.ensure_pending_expiry().await
    }

    /// The template's lifecycle rule on [`PENDING_PREFIX`], for a bucket the
    /// template does not own (the local stand-in).
    pub async fn ensure_pending_expiry(&self) -> Result<(), ApiError> {
        use aws_sdk_s3::types::{
            AbortIncompleteMultipartUpload, BucketLifecycleConfiguration, ExpirationStatus, LifecycleExpiration, LifecycleRule,
            LifecycleRuleFilter,
        };
        let rule = LifecycleRule::builder()
            .id(PENDING_RULE_ID)
            .status(ExpirationStatus::Enabled)
            .filter(LifecycleRuleFilter::builder().prefix(PENDING_PREFIX).build())
            .expiration(LifecycleExpiration::builder().days(PENDING_EXPIRY_DAYS).build())
            .abort_incomplete_multipart_upload(AbortIncompleteMultipartUpload::builder().days_after_initiation(PENDING_EXPIRY_DAYS).build())
            .build()
            .map_err(ApiError::internal)?;
        let exports = LifecycleRule::builder()
            .id(EXPORTS_RULE_ID)
            .status(ExpirationStatus::Enabled)
            .filter(LifecycleRuleFilter::builder().prefix(EXPORTS_PREFIX).build())
            .expiration(LifecycleExpiration::builder().days(EXPORTS_EXPIRY_DAYS).build())
            .build()
            .map_err(ApiError::internal)?;
        let config = BucketLifecycleConfiguration::builder().rules(rule).rules(exports).build().map_err(ApiError::internal)?;
        self.client.put_bucket_lifecycle_configuration().bucket(&self.bucket).lifecycle_configuration(config).send().await.map_err(err)?;
        Ok(())
    }

    /// The bucket's lifecycle rules as (id, prefix, expiry days) (tests).
    pub async fn lifecycle_rules(&self) -> Result<Vec<(String, String, Option<i32>)>, ApiError> {
        let out = self.client.get_bucket_lifecycle_configuration().bucket(&self.bucket).send().await.map_err(err)?;
        Ok(out
            .rules()
            .iter()
            .map(|r| {
                let prefix = r.filter().and_then(|f| f.prefix()).unwrap_or_default().to_string();
                (r.id().unwrap_or_default().to_string(), prefix, r.expiration().and_then(|e| e.days()))
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn attachment_keeps_the_utf8_name() {
        assert_eq!(super::attachment("Avtal 1.pdf"), "attachment; filename=\"Avtal 1.pdf\"; filename*=UTF-8''Avtal%201.pdf");
        assert_eq!(
            super::attachment("Överlåtelse\n\".pdf"),
            "attachment; filename=\"_verl_telse.pdf\"; filename*=UTF-8''%C3%96verl%C3%A5telse.pdf"
        );
    }
}

//! The data-rights worker: builds the customers' queued data exports
//! (`shared::services::data_rights`). On AWS the table's stream starts it
//! when an export is queued and EventBridge every hour; locally the
//! gateway's timer. Idempotent: two runs at once build each export once.

use chrono::{DateTime, Utc};
use serde::Serialize;
use shared::error::ApiError;
use shared::services::{data_rights, Context};
use shared::telemetry;

/// What one run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    pub exports_built: usize,
    pub exports_failed: usize,
}

/// One run; its figures (or its failure) are logged and written as
/// metrics (`DataRightsRuns`, `ExportsBuilt`, …: see
/// `shared::telemetry::data_rights_run`).
pub async fn run(ctx: &Context, now: DateTime<Utc>) -> Result<Report, ApiError> {
    let result = steps(ctx, now).await;
    match &result {
        Ok(r) => telemetry::data_rights_run(Ok((r.exports_built, r.exports_failed))),
        Err(e) => {
            tracing::error!(error = %telemetry::redact(&e.to_string()), "data-rights failed");
            telemetry::data_rights_run(Err(()));
        }
    }
    telemetry::flush_metrics();
    result
}

async fn steps(ctx: &Context, _now: DateTime<Utc>) -> Result<Report, ApiError> {
    let exports = data_rights::run_queued(ctx).await?;
    let report = Report { exports_built: exports.built, exports_failed: exports.failed };
    if report != Report::default() {
        tracing::info!(exports_built = report.exports_built, exports_failed = report.exports_failed, "data-rights");
    }
    Ok(report)
}

//! The data-rights worker: builds the customers' queued data exports
//! (`shared::services::data_rights`), and once a day runs the retention
//! job (`shared::services::retention`). On AWS the table's stream starts it
//! when an export is queued, EventBridge every hour (exports a stopped run
//! left) and every day with `{"job": "retention"}`; locally the gateway's
//! timers. Idempotent: two runs at once build each export once, and a
//! retention run repeated (or finishing one that stopped) erases nothing twice.

use chrono::{DateTime, Utc};
use serde::Serialize;
use shared::error::ApiError;
use shared::services::retention::RetentionRun;
use shared::services::{data_rights, retention, Context};
use shared::telemetry;

/// What one run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    pub exports_built: usize,
    pub exports_failed: usize,
}

/// The job an event asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    Exports,
    Retention,
}

impl Job {
    /// The daily schedule's input names the retention job; every other
    /// event (the stream's, the hourly schedule's) is the exports'.
    pub fn of(event: &serde_json::Value) -> Job {
        match event.get("job").and_then(|j| j.as_str()) {
            Some("retention") => Job::Retention,
            _ => Job::Exports,
        }
    }
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

/// One run of the retention job: its figures are logged (every run, zeros
/// too), written as metrics (`RetentionRuns`, `RetentionDue`,
/// `RetentionErased`, `RetentionKept`, `RetentionFailed`: see
/// `shared::telemetry::retention_run`) and recorded for the admin.
pub async fn run_retention(ctx: &Context, now: DateTime<Utc>) -> Result<RetentionRun, ApiError> {
    let result = retention::run_due(ctx, now).await;
    match &result {
        Ok(r) => {
            tracing::info!(due = r.due, erased = r.erased, kept = r.kept, failed = r.failed, "retention");
            telemetry::retention_run(Ok((r.due, r.erased, r.kept, r.failed)));
        }
        Err(e) => {
            tracing::error!(error = %telemetry::redact(&e.to_string()), "retention failed");
            telemetry::retention_run(Err(()));
        }
    }
    telemetry::flush_metrics();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_daily_schedule_asks_for_retention_and_everything_else_for_exports() {
        assert_eq!(Job::of(&serde_json::json!({"job": "retention"})), Job::Retention);
        assert_eq!(Job::of(&serde_json::json!({})), Job::Exports);
        assert_eq!(Job::of(&serde_json::json!({"Records": []})), Job::Exports);
        assert_eq!(Job::of(&serde_json::json!({"job": "other"})), Job::Exports);
    }
}

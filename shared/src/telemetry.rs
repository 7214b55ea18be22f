//! What the platform tells its operators: log events through `tracing` and
//! metrics through the `metrics` facade.
//!
//! - On Lambda every line is a JSON object in Lambda's JSON log format
//!   (`LoggingConfig: LogFormat: JSON` in template.yaml: `timestamp`, `level`,
//!   `message`, the event's fields beside them); the local gateway prints the
//!   same events as readable lines.
//! - [`observe`] writes one `request` event per request (function, route
//!   template, status, duration, DynamoDB requests, the caller's user id and
//!   role, the API Gateway and Lambda request ids) and counts it.
//! - Metrics are written in CloudWatch's embedded metric format by
//!   `metrics_cloudwatch_embedded`, flushed after each request or job run
//!   ([`flush_metrics`]); CloudWatch turns those lines into metrics of the
//!   namespace [`NAMESPACE`], which template.yaml's alarms and dashboard read.
//!
//! No personal data is logged: no e-mail addresses, names, identity numbers,
//! message texts or tokens. Events carry ids, keys and statuses; a free-text
//! error detail (an SDK's message can name an address) goes through [`redact`].

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use std::borrow::Cow;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;
use tracing::Instrument;

/// The CloudWatch namespace of every metric (template.yaml's alarms read it).
pub const NAMESPACE: &str = "LegalPlatform";

/// Metric names (CloudWatch's), in one place for the alarms and the tests.
pub mod metric {
    pub const REQUESTS: &str = "Requests";
    pub const RESPONSES_4XX: &str = "Responses4xx";
    pub const RESPONSES_5XX: &str = "Responses5xx";
    pub const LATENCY: &str = "Latency";
    pub const PROVIDER_CALLS: &str = "ProviderCalls";
    pub const SIGN_IN_REFUSED: &str = "SignInRefused";
    pub const SIGN_IN_THROTTLED: &str = "SignInThrottled";
    pub const EXPIRY_DUE: &str = "ExpiryDue";
    pub const EXPIRY_EXPIRED: &str = "ExpiryExpired";
    pub const EXPIRY_RENEWED: &str = "ExpiryRenewed";
    pub const EXPIRY_FAILED: &str = "ExpiryFailed";
    pub const EXPIRY_RUNS: &str = "ExpiryRuns";
    pub const DATA_RIGHTS_RUNS: &str = "DataRightsRuns";
    pub const DATA_RIGHTS_FAILED: &str = "DataRightsFailed";
    pub const EXPORTS_BUILT: &str = "ExportsBuilt";
    pub const EXPORTS_FAILED: &str = "ExportsFailed";
    pub const RETENTION_RUNS: &str = "RetentionRuns";
    pub const RETENTION_DUE: &str = "RetentionDue";
    pub const RETENTION_ERASED: &str = "RetentionErased";
    pub const RETENTION_KEPT: &str = "RetentionKept";
    pub const RETENTION_FAILED: &str = "RetentionFailed";
    pub const MAILS_SENT: &str = "MailsSent";
    pub const MAILS_REFUSED: &str = "MailsRefused";
    pub const MAILS_FAILED: &str = "MailsFailed";
}

/// This process's function (the crate's name on Lambda; `local-gateway`).
static FUNCTION: OnceLock<&'static str> = OnceLock::new();

/// Where metric lines go, when metrics are on (Lambda; a test's buffer).
type Sink = Box<dyn Fn(&[u8]) + Send + Sync>;
static METRICS: OnceLock<(&'static metrics_cloudwatch_embedded::Collector, Sink)> = OnceLock::new();

fn function() -> &'static str {
    FUNCTION.get().copied().unwrap_or("local")
}

/// The log level: Lambda's `AWS_LAMBDA_LOG_LEVEL` (the template's
/// `ApplicationLogLevel`), else `RUST_LOG`, else INFO.
fn level() -> tracing::level_filters::LevelFilter {
    std::env::var("AWS_LAMBDA_LOG_LEVEL")
        .or_else(|_| std::env::var("RUST_LOG"))
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(tracing::level_filters::LevelFilter::INFO)
}

/// The JSON subscriber of Lambda's JSON log format, writing to `writer`:
/// one object a line with `timestamp`, `level`, `message` and the event's
/// fields at the top level, and the request span's ids under `span`.
pub fn json_subscriber<W>(writer: W) -> impl tracing::Subscriber + Send + Sync
where
    W: for<'w> tracing_subscriber::fmt::MakeWriter<'w> + Send + Sync + 'static,
{
    tracing_subscriber::fmt()
        .json()
        .flatten_event(true)
        .with_current_span(true)
        .with_span_list(false)
        .with_target(false)
        .with_max_level(level())
        .with_writer(writer)
        .finish()
}

/// A Lambda function's start: JSON logs to stdout (plain lines when
/// `AWS_LAMBDA_LOG_FORMAT` is not JSON, as `sam local` runs it) and metrics
/// in the embedded metric format. Cheap: no I/O, no threads.
pub fn init_lambda(function: &'static str) {
    let _ = FUNCTION.set(function);
    let json = std::env::var("AWS_LAMBDA_LOG_FORMAT").is_ok_and(|f| f.eq_ignore_ascii_case("json"));
    let _ = if json {
        tracing::subscriber::set_global_default(json_subscriber(std::io::stdout))
    } else {
        tracing::subscriber::set_global_default(readable_subscriber())
    };
    init_metrics(function, Box::new(write_stdout));
}

fn write_stdout(lines: &[u8]) {
    use std::io::Write;
    // One write of whole lines: never interleaved with a log line.
    let _ = std::io::stdout().lock().write_all(lines);
}

fn readable_subscriber() -> impl tracing::Subscriber + Send + Sync {
    tracing_subscriber::fmt().compact().with_target(false).with_max_level(level()).finish()
}

/// The local gateway's start: the same events as readable lines; no
/// metric lines (nothing reads them locally).
pub fn init_local() {
    let _ = FUNCTION.set("local-gateway");
    let _ = tracing::subscriber::set_global_default(readable_subscriber());
}

/// Turns metrics on: every [`flush_metrics`] hands the lines written since
/// the last one to `sink`. Once per process (the `metrics` recorder is
/// global); a second call changes nothing.
pub fn init_metrics(function: &'static str, sink: Sink) {
    let _ = FUNCTION.set(function);
    if METRICS.get().is_some() {
        return;
    }
    let Ok(collector) = metrics_cloudwatch_embedded::Builder::new().cloudwatch_namespace(NAMESPACE).init() else {
        return;
    };
    metrics::describe_histogram!(metric::LATENCY, metrics::Unit::Milliseconds, "request duration");
    let _ = METRICS.set((collector, sink));
}

/// Writes the metrics gathered since the last flush (one embedded metric
/// format line per set of dimensions) and starts anew. After every request
/// on Lambda, and after each run of the expiry job.
pub fn flush_metrics() {
    let Some((collector, sink)) = METRICS.get() else { return };
    let mut lines = Vec::new();
    if let Err(e) = collector.flush(&mut lines) {
        tracing::warn!(error = %e, "metrics not written");
        return;
    }
    if !lines.is_empty() {
        sink(&lines);
    }
}

/// What one request did, gathered while it runs (see [`observe`]).
#[derive(Default)]
struct Scope {
    dynamodb_requests: AtomicU32,
    caller: Mutex<Option<(String, &'static str)>>,
}

tokio::task_local! {
    static REQUEST: Arc<Scope>;
}

/// Counts one DynamoDB request (an attempt) toward the running request's
/// `dynamodb_requests` (the store's client calls it; outside a request it
/// does nothing).
pub fn count_dynamodb_request() {
    let _ = REQUEST.try_with(|s| s.dynamodb_requests.fetch_add(1, Ordering::Relaxed));
}

/// `fut` as part of the running request, for a task spawned beside its
/// handler (the sign-in check of a read): its DynamoDB requests count
/// toward the request and its log lines carry the request's span.
pub fn within_request<F: std::future::Future>(fut: F) -> impl std::future::Future<Output = F::Output> {
    let scope = REQUEST.try_with(|s| s.clone()).ok();
    let fut = fut.in_current_span();
    async move {
        match scope {
            Some(scope) => REQUEST.scope(scope, fut).await,
            None => fut.await,
        }
    }
}

/// The store's SDK interceptor that counts each DynamoDB request (every
/// attempt, retries included) toward the running request.
#[derive(Debug)]
pub struct DynamoDbRequests;

impl aws_sdk_dynamodb::config::Intercept for DynamoDbRequests {
    fn name(&self) -> &'static str {
        "telemetry::DynamoDbRequests"
    }
    fn read_before_transmit(
        &self,
        _: &aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef<'_>,
        _: &aws_sdk_dynamodb::config::RuntimeComponents,
        _: &mut aws_sdk_dynamodb::config::ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        count_dynamodb_request();
        Ok(())
    }
}

/// Names the signed-in caller of the running request (its user id, never
/// its address; its role).
pub fn set_caller(uid: &str, role: Option<crate::domain::Role>) {
    let _ = REQUEST.try_with(|s| {
        *s.caller.lock().unwrap_or_else(|p| p.into_inner()) = Some((uid.to_string(), role.map_or("none", |r| r.as_str())));
    });
}

/// The request ids API Gateway and Lambda give a request (none locally).
fn request_ids(req: &Request) -> (Option<String>, Option<String>) {
    use lambda_http::request::RequestContext;
    let api = match req.extensions().get::<RequestContext>() {
        Some(RequestContext::ApiGatewayV2(ctx)) => ctx.request_id.clone(),
        _ => None,
    };
    let lambda = req.extensions().get::<lambda_http::Context>().map(|c| c.request_id.clone());
    (api, lambda)
}

/// The one line per request, and its metrics (`Requests`, `Responses4xx`,
/// `Responses5xx`, `Latency` by `Function`). Outermost of the API's layers
/// ([`crate::api::limits`]), so refusals and timeouts are counted too.
pub async fn observe(req: Request, next: Next) -> Response {
    let started = Instant::now();
    // The template (`/api/case/{uid}/`), never the path: a path can carry ids and search words.
    let route = req.extensions().get::<MatchedPath>().map_or_else(|| "unmatched".to_string(), |p| p.as_str().to_string());
    let method = req.method().clone();
    let (api_request_id, lambda_request_id) = request_ids(&req);
    let scope = Arc::new(Scope::default());
    let span = tracing::info_span!("request", route = %route, api_request_id = api_request_id.as_deref());
    let res = REQUEST.scope(scope.clone(), next.run(req)).instrument(span).await;

    let duration_ms = started.elapsed().as_secs_f64() * 1000.0;
    let status = res.status().as_u16();
    let caller = scope.caller.lock().unwrap_or_else(|p| p.into_inner()).take();
    let function = function();
    tracing::info!(
        function,
        method = %method,
        route = %route,
        status,
        duration_ms = (duration_ms * 10.0).round() / 10.0,
        dynamodb_requests = scope.dynamodb_requests.load(Ordering::Relaxed),
        user_id = caller.as_ref().map(|c| c.0.as_str()),
        role = caller.as_ref().map(|c| c.1),
        api_request_id = api_request_id.as_deref(),
        requestId = lambda_request_id.as_deref(),
        "request"
    );
    metrics::counter!(metric::REQUESTS, "Function" => function).increment(1);
    if (400..500).contains(&status) {
        metrics::counter!(metric::RESPONSES_4XX, "Function" => function).increment(1);
    }
    if status >= 500 {
        metrics::counter!(metric::RESPONSES_5XX, "Function" => function).increment(1);
    }
    metrics::histogram!(metric::LATENCY, "Function" => function).record(duration_ms);
    flush_metrics();
    res
}

/// One call to an add-on provider and how it ended (`ok`, `refused`: the
/// provider said no, `unavailable`: a 5xx, 429 or no answer after the
/// retries, `timeout`, `bad_answer`), by provider and outcome and by outcome
/// alone (bounded sets of values; template.yaml's ProviderErrorRateAlarm).
pub fn provider_call(provider: &'static str, outcome: &'static str) {
    metrics::counter!(metric::PROVIDER_CALLS, "Provider" => provider, "Outcome" => outcome).increment(1);
    // By outcome alone too: the error-rate alarm adds up a fixed set of series.
    metrics::counter!(metric::PROVIDER_CALLS, "Outcome" => outcome).increment(1);
}

/// A sign-in refused for its credentials or code.
pub fn sign_in_refused() {
    metrics::counter!(metric::SIGN_IN_REFUSED).increment(1);
}

/// A sign-in refused by a rate limit.
pub fn sign_in_throttled() {
    metrics::counter!(metric::SIGN_IN_THROTTLED).increment(1);
}

/// A mail handed to SES, or one SES refused.
pub fn mail(sent: bool) {
    metrics::counter!(if sent { metric::MAILS_SENT } else { metric::MAILS_REFUSED }).increment(1);
}

/// An outbox mail marked failed: its last try was refused, it is not sent.
pub fn mail_failed() {
    metrics::counter!(metric::MAILS_FAILED).increment(1);
}

/// One run of the expiry job: what was due, expired and renewed, or that it
/// failed (`ExpiryRuns` counts every run, so an alarm sees one missing).
pub fn expiry_run(report: Result<(usize, usize, usize), ()>) {
    metrics::counter!(metric::EXPIRY_RUNS).increment(1);
    match report {
        Ok((due, expired, renewed)) => {
            // Zeros too: a quiet day is a figure, not a gap in the graph.
            metrics::gauge!(metric::EXPIRY_DUE).set(due as f64);
            metrics::gauge!(metric::EXPIRY_EXPIRED).set(expired as f64);
            metrics::gauge!(metric::EXPIRY_RENEWED).set(renewed as f64);
            metrics::gauge!(metric::EXPIRY_FAILED).set(0.0);
        }
        Err(()) => metrics::gauge!(metric::EXPIRY_FAILED).set(1.0),
    }
}

/// One run of the data-rights worker: exports built and failed, or that
/// the run failed (`DataRightsRuns` counts every run).
pub fn data_rights_run(report: Result<(usize, usize), ()>) {
    metrics::counter!(metric::DATA_RIGHTS_RUNS).increment(1);
    match report {
        Ok((built, failed)) => {
            metrics::counter!(metric::EXPORTS_BUILT).increment(built as u64);
            metrics::counter!(metric::EXPORTS_FAILED).increment(failed as u64);
            metrics::gauge!(metric::DATA_RIGHTS_FAILED).set(0.0);
        }
        Err(()) => metrics::gauge!(metric::DATA_RIGHTS_FAILED).set(1.0),
    }
}

/// One run of the retention job: records due, erased, kept after all and
/// failed (`failed` > 0, or the run itself failing, sets
/// `RetentionFailed`); `RetentionRuns` counts every run.
pub fn retention_run(report: Result<(u32, u32, u32, u32), ()>) {
    metrics::counter!(metric::RETENTION_RUNS).increment(1);
    match report {
        Ok((due, erased, kept, failed)) => {
            metrics::gauge!(metric::RETENTION_DUE).set(f64::from(due));
            metrics::gauge!(metric::RETENTION_ERASED).set(f64::from(erased));
            metrics::gauge!(metric::RETENTION_KEPT).set(f64::from(kept));
            metrics::gauge!(metric::RETENTION_FAILED).set(f64::from(failed));
        }
        Err(()) => metrics::gauge!(metric::RETENTION_FAILED).set(1.0),
    }
}

/// A free-text detail (an SDK's or a parser's message) fit for the log:
/// e-mail addresses and numbers of 6 or more digits (identity and phone
/// numbers, written with spaces, `-` or `+` or not) are masked; long texts
/// are cut.
pub fn redact(detail: &str) -> Cow<'_, str> {
    const MAX: usize = 600;
    let digits = detail.chars().filter(char::is_ascii_digit).count();
    if detail.len() <= MAX && !detail.contains('@') && digits < 6 {
        return Cow::Borrowed(detail);
    }
    let is_gap = |c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | ',' | ';' | '(' | ')' | '[' | ']');
    // Addresses: a word with an `@`.
    let mut words = String::with_capacity(detail.len());
    for word in detail.split_inclusive(is_gap) {
        let core = word.trim_end_matches(is_gap);
        words.push_str(if core.contains('@') { "[email]" } else { core });
        words.push_str(&word[core.len()..]);
    }
    // Numbers: a run of digits, spaces, `-` and `+` that holds 6 digits or more.
    let mut out = String::with_capacity(words.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        let trimmed = run.trim_end_matches([' ', '-', '+']);
        if trimmed.chars().filter(char::is_ascii_digit).count() >= 6 {
            out.push_str("[number]");
            out.push_str(&run[trimmed.len()..]);
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for c in words.chars() {
        if c.is_ascii_digit() || (matches!(c, ' ' | '-' | '+') && (!run.is_empty() || c == '+')) {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    if out.len() > MAX {
        let mut cut = MAX;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push('…');
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;
    use axum::routing::get;
    use serde_json::Value;
    use tower::ServiceExt;

    #[test]
    fn details_lose_addresses_and_numbers_but_keep_the_rest() {
        let d = redact("MessageRejected: identities failed the check: anna.svensson@example.se, 19121212-1212 and +46 70 123 45 67");
        assert!(!d.contains("anna") && !d.contains("1212") && !d.contains("123 45"), "{d}");
        assert!(d.starts_with("MessageRejected: identities failed the check: [email], [number]"), "{d}");
        assert_eq!(redact("ConditionalCheckFailed on CASE#7"), "ConditionalCheckFailed on CASE#7");
        let long = "x".repeat(5000);
        assert!(redact(&long).chars().count() <= 601);
        assert!(redact("ååå@b").contains("[email]"));
    }

    /// template.yaml watches what this module writes: every function logs
    /// JSON, is traced and has its failure alarm; every alarm on a
    /// `LegalPlatform` metric names one this module writes; every alarm's
    /// runbook anchor is a section of infra/RUNBOOK.md.
    #[test]
    fn the_template_alarms_on_these_metrics_and_each_alarm_has_its_runbook_section() {
        let read = |p: &str| std::fs::read_to_string(format!("{}/../{p}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let (template, waf, runbook) = (read("template.yaml"), read("infra/waf.yaml"), read("infra/RUNBOOK.md"));
        let functions = template.matches("Type: AWS::Serverless::Function\n").count();
        assert!(functions >= 14, "{functions}");
        assert_eq!(template.matches("        LogFormat: JSON\n").count(), functions, "every function logs JSON");
        assert_eq!(template.matches("FailingAlarm:\n").count(), functions, "every function has its errors/throttles alarm");
        assert!(template.contains("\n    Tracing: Active\n"), "X-Ray active tracing in Globals");

        let ours = [
            metric::REQUESTS,
            metric::RESPONSES_4XX,
            metric::RESPONSES_5XX,
            metric::LATENCY,
            metric::PROVIDER_CALLS,
            metric::SIGN_IN_REFUSED,
            metric::SIGN_IN_THROTTLED,
            metric::EXPIRY_DUE,
            metric::EXPIRY_EXPIRED,
            metric::EXPIRY_RENEWED,
            metric::EXPIRY_FAILED,
            metric::EXPIRY_RUNS,
            metric::DATA_RIGHTS_RUNS,
            metric::DATA_RIGHTS_FAILED,
            metric::EXPORTS_BUILT,
            metric::EXPORTS_FAILED,
            metric::RETENTION_RUNS,
            metric::RETENTION_DUE,
            metric::RETENTION_ERASED,
            metric::RETENTION_KEPT,
            metric::RETENTION_FAILED,
            metric::MAILS_SENT,
            metric::MAILS_REFUSED,
            metric::MAILS_FAILED,
        ];
        let lines: Vec<&str> = template.lines().collect();
        let mut watched = 0;
        for (i, line) in lines.iter().enumerate() {
            // `Namespace: LegalPlatform` then `MetricName: X` on the next line, or one flow mapping.
            let name = if line.contains("Namespace: LegalPlatform, MetricName: ") {
                line.split("MetricName: ").nth(1).and_then(|r| r.split([',', ' ']).next())
            } else if line.trim() == "Namespace: LegalPlatform" {
                lines.get(i + 1).and_then(|n| n.trim().strip_prefix("MetricName: "))
            } else {
                None
            };
            if let Some(name) = name {
                assert!(ours.contains(&name), "template.yaml alarms on {name}, which shared::telemetry does not write");
                watched += 1;
            }
        }
        assert!(watched >= 7, "{watched} alarm metrics found");

        let mut anchors = 0;
        for text in [&template, &waf] {
            for anchor in text.split("Runbook: infra/RUNBOOK.md#").skip(1).map(|r| r.split_whitespace().next().unwrap()) {
                assert!(runbook.contains(&format!("\n### {anchor}\n")), "RUNBOOK.md has no section `{anchor}`");
                anchors += 1;
            }
        }
        assert!(anchors >= 20, "{anchors}");
    }

    /// The embedded metric format lines CloudWatch reads: the per-request
    /// metrics by function and the use cases' counters, with units.
    #[tokio::test]
    async fn metrics_are_written_as_embedded_metric_format_lines() {
        let lines: &'static Mutex<Vec<u8>> = Box::leak(Box::default());
        init_metrics("metrics-test", Box::new(|b| lines.lock().unwrap().extend_from_slice(b)));
        let router = crate::api::limits(
            axum::Router::new()
                .route("/ok/{id}", get(|| async { "ok" }))
                .route("/boom", get(|| async { StatusCode::INTERNAL_SERVER_ERROR })),
        );
        for path in ["/ok/1", "/ok/2", "/boom", "/missing"] {
            let req = axum::http::Request::get(path).body(axum::body::Body::empty()).unwrap();
            router.clone().oneshot(req).await.unwrap();
        }
        provider_call("credit", "unavailable");
        sign_in_refused();
        sign_in_throttled();
        mail(true);
        expiry_run(Ok((3, 2, 1)));
        flush_metrics();

        let text = String::from_utf8(lines.lock().unwrap().clone()).unwrap();
        let docs: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("one JSON object a line")).collect();
        // The documents that hold metric `name` with dimensions `dims` (and no other).
        let having = |name: &str, dims: &[&str]| -> Vec<Value> {
            docs.iter()
                .filter(|d| {
                    let set = &d["_aws"]["CloudWatchMetrics"][0];
                    set["Namespace"] == NAMESPACE
                        && set["Dimensions"][0].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect::<Vec<_>>() == dims
                        && set["Metrics"].as_array().unwrap().iter().any(|m| m["Name"] == name)
                        && d.get(name).is_some()
                })
                .cloned()
                .collect()
        };
        let find = |name: &str, dims: &[&str]| having(name, dims).pop().unwrap_or_else(|| panic!("no {name} by {dims:?} in\n{text}"));
        // Each request flushes its own line: a counter's lines add up.
        let total = |name: &str| -> u64 { having(name, &["Function"]).iter().filter_map(|d| d[name].as_u64()).sum() };
        let per_function = having(metric::REQUESTS, &["Function"]);
        assert_eq!(per_function.len(), 4, "one line per request:\n{text}");
        assert!(per_function.iter().all(|d| d["Function"] == "metrics-test"));
        assert_eq!(total(metric::REQUESTS), 4);
        assert_eq!(total(metric::RESPONSES_4XX), 1);
        assert_eq!(total(metric::RESPONSES_5XX), 1);
        assert!(per_function.iter().all(|d| d[metric::LATENCY].as_array().map(Vec::len) == Some(1)));
        let per_function = &per_function[0];
        let unit = per_function["_aws"]["CloudWatchMetrics"][0]["Metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["Name"] == metric::LATENCY)
            .map(|m| m["Unit"].clone());
        assert_eq!(unit, Some(Value::from("Milliseconds")));
        assert!(per_function["_aws"]["Timestamp"].as_u64().is_some());

        // Other tests of this process may count provider calls, sign-ins and
        // mail at the same time (the recorder is global): at least ours.
        let provider = having(metric::PROVIDER_CALLS, &["Provider", "Outcome"]);
        assert!(
            provider
                .iter()
                .any(|d| d["Provider"] == "credit" && d["Outcome"] == "unavailable" && d[metric::PROVIDER_CALLS].as_u64() >= Some(1)),
            "{text}"
        );
        let by_outcome = having(metric::PROVIDER_CALLS, &["Outcome"]);
        assert!(by_outcome.iter().any(|d| d["Outcome"] == "unavailable" && d[metric::PROVIDER_CALLS].as_u64() >= Some(1)), "{text}");
        let plain = find(metric::EXPIRY_RUNS, &[]);
        assert!(plain[metric::SIGN_IN_REFUSED].as_u64() >= Some(1));
        assert!(plain[metric::SIGN_IN_THROTTLED].as_u64() >= Some(1));
        assert!(plain[metric::MAILS_SENT].as_u64() >= Some(1));
        assert_eq!(
            (plain[metric::EXPIRY_DUE].as_f64(), plain[metric::EXPIRY_EXPIRED].as_f64(), plain[metric::EXPIRY_RENEWED].as_f64()),
            (Some(3.0), Some(2.0), Some(1.0))
        );
        assert_eq!(plain[metric::EXPIRY_RUNS], 1);

        // A flush writes only what is new: counters start again from zero.
        lines.lock().unwrap().clear();
        flush_metrics();
        let again = String::from_utf8(lines.lock().unwrap().clone()).unwrap();
        assert!(!again.contains(metric::REQUESTS) && !again.contains(metric::EXPIRY_RUNS), "{again}");
    }
}

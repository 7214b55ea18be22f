//! `repair`: the one-off migration of items written before the bounds on
//! numbers and dates (see `local_gateway::repair`). Environment as the functions'
//! (TABLE_NAME, and AWS_ENDPOINT_URL for the local stand-in). `--dry-run`
//! lists the changes without writing them.

use shared::config::Config;
use shared::services::Context;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dry_run = std::env::args().any(|a| a == "--dry-run");
    let state = Context::new(Config::from_env()?, None).await;
    let report = local_gateway::repair::run(&state.store, dry_run).await?;
    for line in &report.changes {
        println!("{line}");
    }
    let verb = if dry_run { "would repair" } else { "repaired" };
    println!("scanned {} item(s), {verb} {}", report.scanned, report.repaired);
    Ok(())
}

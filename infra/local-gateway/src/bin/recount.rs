//! The operator's recount: rebuilds every statistics
//! counter the raw items tell (a Scan of the table), reports the
//! differences from the stored counters, and with `--fix` rewrites them.
//! Run through `infra/recount.sh`; the same environment as the functions
//! (TABLE_NAME, AWS_ENDPOINT_URL locally). Exit code 1 when a difference
//! was found (and not fixed), so a script can alert on it.

use shared::config::Config;
use shared::services::{recount, Context};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let fix = std::env::args().any(|a| a == "--fix");
    let json = std::env::args().any(|a| a == "--json");
    let state = Context::new(Config::from_env()?, None).await;
    let report = recount::recount(&state, fix).await.map_err(|e| format!("recount failed: {e:?}"))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "recounted {} cases, {} hour entries, {} subscription rows, {} customers; {} counter items stored",
            report.cases, report.hours, report.subscriptions, report.customers, report.counter_items
        );
        for d in &report.differences {
            println!("DIFF {} {}: stored {} recounted {}", d.item, d.metric, d.stored, d.recounted);
        }
        println!("{} difference(s){}", report.differences.len(), if report.fixed { ", fixed" } else { "" });
    }
    if !report.differences.is_empty() && !report.fixed {
        std::process::exit(1);
    }
    Ok(())
}

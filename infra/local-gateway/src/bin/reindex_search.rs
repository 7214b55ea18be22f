//! One-off migration to the indexed customer search and identity-number
//! conflict index: rebuilds every customer's search words
//! and every party's conflict-index entries (new keys, identity numbers),
//! as a save of each would. Idempotent. Run through `infra/reindex-search.sh`
//! with the deployment's `TABLE_NAME` (and `AWS_ENDPOINT_URL` locally).

use shared::config::Config;
use shared::services::Context;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let config = Config::from_env()?;
    let ctx = Context::new(config, None).await;
    let done = shared::services::reindex::all(&ctx).await.map_err(|e| format!("{e:?}"))?;
    println!("reindexed {} customers, {} contacts, {} cases", done.customers, done.contacts, done.cases);
    Ok(())
}

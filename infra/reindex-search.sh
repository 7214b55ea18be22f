#!/usr/bin/env bash
# One-off migration to the indexed customer search: rebuilds the customer search words and the
# conflict-index entries of every customer, contact and case counterpart in
# the table named by TABLE_NAME (the deployment's environment: TABLE_NAME,
# DOCUMENTS_BUCKET, SES_SENDER, JWT_SECRET, AWS credentials and region;
# AWS_ENDPOINT_URL for the local stand-in). Idempotent: safe to run again.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
cargo build --release --quiet -p local-gateway --bin reindex_search
"$(cargo_target_dir)/release/reindex_search"

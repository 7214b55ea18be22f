#!/usr/bin/env bash
# Operator tool: rebuilds every statistics counter from the raw
# items (cases, hour entries, subscription rows, customer profiles) with a
# Scan and reports each difference from the stored counters; `--fix`
# rewrites the counters that differ; `--json` prints the report as JSON.
# Exit 1 when a difference is found and not fixed.
#
# Against AWS: TABLE_NAME=<table> AWS_REGION=... ./infra/recount.sh
# Locally (the gateway's stand-in): TABLE_NAME=legal-platform AWS_ENDPOINT_URL=http://127.0.0.1:4566 ./infra/recount.sh
# A Scan reads the whole table: run it in a quiet hour, never per request.
# After deploying the per-sales-person counters (sales#<uid>: cases by
# status, subs.due, subs.bought, revenue.subs), run it once with --fix: it
# builds them for the data written before (rows sold before have no
# sold_by and count for no sales person). The same run moves the
# per-customer breakdown from 16 to its 64 buckets (README: "Statistics
# counters after an upgrade").
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
export DOCUMENTS_BUCKET=${DOCUMENTS_BUCKET:-unused} SES_SENDER=${SES_SENDER:-no-reply@example.com}
export JWT_SECRET=${JWT_SECRET:-recount-only-no-tokens-are-issued-0123456789}
cargo build --quiet -p local-gateway --bin recount
exec "${CARGO_TARGET_DIR:-$ROOT/target}/debug/recount" "$@"

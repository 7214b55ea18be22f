#!/usr/bin/env bash
# Benchmark (prints figures, asserts nothing): Lambda binaries' cold start and
# GET /api/profile/ against a raw GetItem. Builds release binaries for this
# machine and starts a private AWS stand-in.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
ensure_venv
FUNCTIONS=$(ls functions)
log "building release binaries: $(echo $FUNCTIONS) bench"
cargo build --release --quiet $(for f in $FUNCTIONS; do printf -- '-p %s ' "$f"; done) -p local-gateway --bin bench
MOTO_PORT=$(free_port)
start_stand_in "$MOTO_PORT" "$ROOT/.local/bench-moto.log"
trap 'kill $MOTO_PID 2>/dev/null || true' EXIT
RUN_ID="bench-$$"
export TABLE_NAME=$RUN_ID DOCUMENTS_BUCKET=$RUN_ID SES_SENDER=no-reply@example.com
export JWT_SECRET="bench-secret-$RUN_ID-0123456789abcdefghij"
"$ROOT/target/release/bench" $(for f in $FUNCTIONS; do printf '%s ' "$ROOT/target/release/$f"; done)

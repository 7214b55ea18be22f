#!/usr/bin/env bash
# Starts the whole platform locally: the AWS stand-in (moto), the table,
# bucket and sender, the demo accounts, and the gateway serving the API and
# the built web app. Installs whatever is missing first. Ctrl-C stops it all.
#
#   ./infra/dev.sh            # http://127.0.0.1:3000
#   PORT=8080 ./infra/dev.sh  # another port
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

PORT=${PORT:-3000}
MOTO_PORT=${MOTO_PORT:-4566}

ensure_venv
build_web
log "building the local gateway"
cargo build --quiet -p local-gateway

log "starting the local AWS stand-in on 127.0.0.1:$MOTO_PORT"
start_stand_in "$MOTO_PORT"
trap 'kill $MOTO_PID 2>/dev/null || true' EXIT INT TERM

export TABLE_NAME=${TABLE_NAME:-legal-platform}
export DOCUMENTS_BUCKET=${DOCUMENTS_BUCKET:-legal-platform-documents}
export SES_SENDER=${SES_SENDER:-no-reply@example.com}
# Local only: a fixed development secret. On AWS it comes from Secrets Manager.
export JWT_SECRET=${JWT_SECRET:-local-development-secret-not-for-production}
export WEB_ORIGIN=${WEB_ORIGIN:-http://127.0.0.1:$PORT}
export LOCAL_OUTBOX=1
# A few cases of the demo customer in every state (made through the API).
export SEED_DEMO_CASES=${SEED_DEMO_CASES:-1}
export GATEWAY_ADDR=127.0.0.1:$PORT
export WEB_DIST="$ROOT/web/dist"

log "starting the gateway"
"$(cargo_target_dir)/debug/local-gateway"

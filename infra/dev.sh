#!/usr/bin/env bash
# Starts the whole platform locally: the AWS stand-in (moto), the table,
# bucket and sender, the demo accounts, and the gateway serving the API and
# the built web app. Installs whatever is missing first. Ctrl-C stops it all.
#
#   ./infra/dev.sh            # http://127.0.0.1:3000
#   PORT=8080 ./infra/dev.sh  # another port
#   PERSIST=1 ./infra/dev.sh  # keep the data: the stand-in's state (table,
#                             # documents, sent mail) is saved to
#                             # .local/stand-in-state.pickle on Ctrl-C or
#                             # SIGTERM and loaded on the next start
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

PORT=${PORT:-3000}
MOTO_PORT=${MOTO_PORT:-4566}
MOTO_LOG="$ROOT/.local/moto-$MOTO_PORT.log"
if [ "${PERSIST:-0}" = 1 ]; then
  export STAND_IN_STATE=${STAND_IN_STATE:-$ROOT/.local/stand-in-state.pickle}
else
  unset STAND_IN_STATE
fi

ensure_venv
build_web
log "building the local gateway"
cargo build --quiet -p local-gateway

log "starting the local AWS stand-in on 127.0.0.1:$MOTO_PORT"
start_stand_in "$MOTO_PORT" "$MOTO_LOG"
[ -n "${STAND_IN_STATE:-}" ] && grep '^stand-in: .*state' "$MOTO_LOG" || true

GATEWAY_PID=""
STOPPED=""
stop_all() {
  [ -n "$STOPPED" ] && return
  STOPPED=1
  [ -n "$GATEWAY_PID" ] && kill "$GATEWAY_PID" 2>/dev/null || true
  [ -n "${STAND_IN_STATE:-}" ] && [ -n "${MOTO_PID:-}" ] && log "stopping the stand-in (saving its state to $STAND_IN_STATE)"
  stop_stand_in
  [ -n "${STAND_IN_STATE:-}" ] && grep '^stand-in: \(state saved\|state NOT saved\|.*: not saved\)' "$MOTO_LOG" || true
}
trap stop_all EXIT
trap 'stop_all; exit 130' INT
trap 'stop_all; exit 143' TERM

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
# In the background, so Ctrl-C and SIGTERM reach this script's trap at once
# (the trap stops the gateway, then the stand-in, which saves when PERSIST=1).
"$(cargo_target_dir)/debug/local-gateway" &
GATEWAY_PID=$!
wait "$GATEWAY_PID"

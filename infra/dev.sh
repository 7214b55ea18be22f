#!/usr/bin/env bash
# Starts the whole platform locally: the AWS stand-in (moto), the table,
# bucket and sender, the demo accounts, and the gateway serving the API and
# the built web app. Installs whatever is missing first. Ctrl-C stops it all.
#
#   ./infra/dev.sh            # http://127.0.0.1:3000
#   PORT=8080 ./infra/dev.sh  # another port
#   PERSIST=1 ./infra/dev.sh  # keep the data: the stand-in's state (table,
#                             # documents, sent mail) is saved to
#                             # .local/stand-in-state.pickle a few seconds
#                             # after writes and on Ctrl-C, SIGTERM or SIGHUP,
#                             # and loaded on the next start; the add-on
#                             # providers' stand-in keeps its state beside it
#                             # (.local/stand-in-state.pickle.providers.json)
#
# When the stand-in stops on its own, the gateway is stopped too and the
# script exits with a message (instead of a gateway answering 503).
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

GATEWAY_PID=""
BUILD_PID=""
STOPPED=""
stop_all() {
  [ -n "$STOPPED" ] && return
  STOPPED=1
  [ -n "$BUILD_PID" ] && kill "$BUILD_PID" 2>/dev/null || true
  [ -n "$GATEWAY_PID" ] && kill "$GATEWAY_PID" 2>/dev/null || true
  [ -n "$GATEWAY_PID" ] && wait "$GATEWAY_PID" 2>/dev/null || true
  [ -n "${MOTO_PID:-}" ] || return 0
  local logged alive=""
  logged=$(wc -l <"$MOTO_LOG")
  kill -0 "$MOTO_PID" 2>/dev/null && alive=1
  [ -n "${STAND_IN_STATE:-}" ] && [ -n "$alive" ] && log "stopping the stand-in (saving its state to $STAND_IN_STATE)"
  stop_stand_in
  [ -n "${STAND_IN_STATE:-}" ] || return 0
  # Only what this stop wrote: an earlier autosave does not count as a save now.
  if [ -n "$alive" ] && tail -n +"$((logged + 1))" "$MOTO_LOG" | grep -q '^stand-in: state saved'; then
    tail -n +"$((logged + 1))" "$MOTO_LOG" | grep '^stand-in: \(state saved\|.*: not saved\)' || true
  else
    log "the state was NOT saved at this stop; $STAND_IN_STATE keeps the last save:"
    grep '^stand-in: state saved' "$MOTO_LOG" | tail -n 1 || echo "(none in this run)"
  fi
}
trap stop_all EXIT
trap 'stop_all; exit 130' INT
trap 'stop_all; exit 143' TERM

# The gateway's build is most of a first start (a debug build of every
# function): it runs in the background while the stand-in is installed and
# started and the web app is built or reused (ensure_web_dist: by a digest of
# its sources, no npm install when unchanged). Only the gateway's own binary:
# the package's six others (benchmarks, repair tools) are six more links of
# the whole platform that a start does not need.
log "building the local gateway (in the background)"
cargo build --quiet -p local-gateway --bin local-gateway &
BUILD_PID=$!
ensure_venv --stand-in
log "starting the local AWS stand-in on 127.0.0.1:$MOTO_PORT"
start_stand_in "$MOTO_PORT" "$MOTO_LOG"
[ -n "${STAND_IN_STATE:-}" ] && grep '^stand-in: .*state' "$MOTO_LOG" || true
ensure_web_dist
log "waiting for the gateway's build"
build_status=0
wait "$BUILD_PID" || build_status=$?
BUILD_PID=""
[ "$build_status" = 0 ] || { log "building the local gateway failed (exit $build_status)"; exit 1; }

export TABLE_NAME=${TABLE_NAME:-legal-platform}
export DOCUMENTS_BUCKET=${DOCUMENTS_BUCKET:-legal-platform-documents}
export SES_SENDER=${SES_SENDER:-no-reply@example.com}
# Local only: a token secret drawn at random per start, so nobody can forge
# a token from a secret written in the repository (with PERSIST=1 it is kept
# in .local/ beside the saved state, so sign-ins survive a restart). On AWS it
# comes from Secrets Manager; config refuses known development secrets
# outside loopback.
if [ -z "${JWT_SECRET:-}" ]; then
  secret_file="$ROOT/.local/jwt-secret"
  if [ "${PERSIST:-0}" = 1 ] && [ -s "$secret_file" ]; then
    JWT_SECRET=$(cat "$secret_file")
  else
    JWT_SECRET=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
    if [ "${PERSIST:-0}" = 1 ]; then
      mkdir -p "$ROOT/.local"
      (umask 077 && printf '%s' "$JWT_SECRET" >"$secret_file")
    fi
  fi
fi
export JWT_SECRET
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
# Whichever stops first. A stand-in that stopped on its own (a crash, an
# out-of-memory kill) stops the gateway too: it could only answer 503.
status=0
wait -n "$GATEWAY_PID" "$MOTO_PID" || status=$?
if ! kill -0 "$MOTO_PID" 2>/dev/null; then
  log "the AWS stand-in stopped (exit $status); stopping the gateway. Its last lines ($MOTO_LOG):"
  tail -n 15 "$MOTO_LOG" >&2
  exit 1
fi
exit "$status"

#!/usr/bin/env bash
# Web benchmark (prints figures, asserts nothing; the budgets are enforced by
# web/src/budget.test.ts): builds the web app, serves it through the local
# gateway (as CloudFront serves it: precompressed, cached, same headers) on a
# private stand-in, and opens each budgeted page cold in headless Chromium on a
# throttled network and CPU (infra/bench_web.mjs); then Lighthouse 12's
# default mobile profile on the public pages (infra/bench_lighthouse.mjs: score,
# FCP, LCP, TBT; installed into infra/lighthouse/ on the first run).
#
#   infra/bench-web.sh                   build web/dist and measure it
#   WEB_DIST=/some/dist infra/bench-web.sh   measure another build (e.g. an older one), no build
#   RUNS=5 infra/bench-web.sh            median of 5 loads per page (default 3)
#   LIGHTHOUSE=0 infra/bench-web.sh      without Lighthouse; LIGHTHOUSE_ALL=1: the dashboards too
#   QUICK=1 infra/bench-web.sh           one load per page with the CPU not slowed (the network still is),
#                                        Lighthouse on the login page only (one run): the test command
#                                        runs it so (WEB_DIST its build, EXPECT_BUILT=1), so the benchmark
#                                        cannot go stale; its figures there are not the goals' measure
#   CPU_SLOWDOWN=N infra/bench-web.sh    the CPU N times slower (default 4; quick mode 1)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
ensure_venv
ensure_chromium
if [ "${LIGHTHOUSE:-1}" = 1 ]; then ensure_lighthouse; fi
if [ -z "${WEB_DIST:-}" ]; then
  build_web
  WEB_DIST="$ROOT/web/dist"
else
  ensure_web_deps
fi
cargo_build --quiet -p local-gateway
RUN_ID="bench-web-$$"
mkdir -p "$ROOT/.local"
GATEWAY_BIN="$ROOT/.local/$RUN_ID-gateway"
cp "$(cargo_target_dir)/debug/local-gateway" "$GATEWAY_BIN"
MOTO_PORT=$(free_port)
start_stand_in "$MOTO_PORT" "$ROOT/.local/$RUN_ID-moto.log"
GATEWAY_PID=""
cleanup() {
  [ -n "$GATEWAY_PID" ] && kill "$GATEWAY_PID" 2>/dev/null || true
  kill "$MOTO_PID" 2>/dev/null || true
  rm -f "$GATEWAY_BIN"
}
trap cleanup EXIT INT TERM
PORT=$(free_port)
TABLE_NAME="$RUN_ID" DOCUMENTS_BUCKET="$RUN_ID" SES_SENDER=no-reply@example.com \
  JWT_SECRET="bench-web-$RUN_ID-0123456789abcdef" WEB_ORIGIN="http://127.0.0.1:$PORT" \
  GATEWAY_ADDR="127.0.0.1:$PORT" WEB_DIST="$WEB_DIST" EXPIRY_INTERVAL_SECS=3600 \
  "$GATEWAY_BIN" >"$ROOT/.local/$RUN_ID-gateway.log" 2>&1 &
GATEWAY_PID=$!
wait_for_http "http://127.0.0.1:$PORT/api/openapi.json" 120 || { cat "$ROOT/.local/$RUN_ID-gateway.log"; exit 1; }
log "measuring $WEB_DIST"
# Quick mode does not slow the CPU: Chromium's throttling spins the renderer,
# nine loads cost 31 CPU-s of renderers slowed and 8 not (on the test
# command's busy machine, about 12 s of its time for figures it does not use).
[ "${QUICK:-0}" = 1 ] && export RUNS="${RUNS:-1}" CPU_SLOWDOWN="${CPU_SLOWDOWN:-1}"
node infra/bench_web.mjs "http://127.0.0.1:$PORT"
if [ "${LIGHTHOUSE:-1}" = 1 ]; then
  LIGHTHOUSE_ONLY="${ONLY:-}"
  if [ "${QUICK:-0}" = 1 ]; then
    # Each Lighthouse run is a cold Chromium of its own (15-30 s on a loaded machine): quick mode keeps one.
    log "quick mode: Lighthouse on the login page only, one run (QUICK=0 for every public page, RUNS=3)"
    LIGHTHOUSE_ONLY=login
  fi
  # Lighthouse's Chromium finder and its flags: Debian's, never a downloaded one.
  CHROME_PATH=/usr/bin/chromium ONLY="$LIGHTHOUSE_ONLY" node infra/bench_lighthouse.mjs "http://127.0.0.1:$PORT"
fi

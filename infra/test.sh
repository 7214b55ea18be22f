#!/usr/bin/env bash
# Runs every test. Beside the Rust build it installs what is missing
# (project venv with moto and cfn-lint, npm packages, Debian's chromium),
# checks the AWS stand-in itself (its DynamoDB answers equal plain moto's, its
# saved state survives a restart, its costs do not grow with the table:
# infra/tests and QUICK=1 infra/bench-stand-in.sh), lints the template
# (cfn-lint, and checkov: 0 failed checks, skips carry their reason in the
# template), builds the web app and starts a private AWS stand-in on a free
# loopback port; then it runs
#   1. cargo fmt --check, one build of every test and binary with clippy's
#      lints (warnings are errors), then Rust unit and integration tests (each
#      test on its own table; the gateway's beside the others', in three
#      parts, each on a stand-in of its own),
#   2. web unit tests (vitest), beside the Rust tests once those are built,
#   3. browser end-to-end tests (playwright-core + /usr/bin/chromium) in three
#      shards side by side (web/e2e/shard-accounts.mjs, shard-cases.mjs,
#      shard-pages.mjs), each
#      against a gateway on its own port, table and stand-in, and beside them
#      two lanes: the quick benchmarks one after another (QUICK=1
#      infra/bench.sh: every function binary started once with a request of
#      its own, 3 calls, and each typical call's DynamoDB round trips in a
#      row, which must meet their goals; the search and statistics
#      benchmarks at small sizes; after them, beside the second part of
#      admin's fuzz, the web benchmark's: QUICK=1 infra/bench-web.sh), so
#      none can go stale; and the generated fuzz of every
#      operation (infra/fuzz.sh: Schemathesis from the project venv;
#      FUZZ_QUICK=0 for more examples) on a gateway with its own table and
#      stand-in, started once the gateways are up; the second part of
#      admin's operations starts when the benchmarks or the first shard are
#      done, on another.
# Each step's time is printed at the end.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
started=$(date +%s)
# Each step's duration, printed at the end (and on failure), to see where the
# time goes.
STEP_NAMES=()
STEP_TIMES=()
STEP_START=$started
STEP_NAME="Rust components"
step() {
  local now
  now=$(date +%s)
  STEP_NAMES+=("$STEP_NAME")
  STEP_TIMES+=("$((now - STEP_START))")
  STEP_START=$now
  STEP_NAME="$*"
  log "$*"
}
print_step_times() {
  local now i
  now=$(date +%s)
  echo
  echo "==> time per step (s)"
  for i in "${!STEP_NAMES[@]}"; do printf '%6d  %s\n' "${STEP_TIMES[$i]}" "${STEP_NAMES[$i]}"; done
  printf '%6d  %s\n' "$((now - STEP_START))" "$STEP_NAME"
  printf '%6d  %s\n' "$((now - started))" "in all"
}

ensure_rust_tools
# CI builds once from a clean clone: incremental caches (about 2 GB here) only
# fill its small disk (a run failed with "No space left on device").
[ "${CI:-}" = true ] && export CARGO_INCREMENTAL=0

RUN_ID="test-$$-$(date +%s)"
mkdir -p "$ROOT/.local"
GATEWAY_PIDS=()
EXTRA_MOTO_PIDS=()
MOTO_PID=""
BUILD_PID=""
WEB_BUILD_PID=""
STAND_IN_CHECKS_PID=""
WEB_UNIT_PID=""
SIDE_PID=""
FUZZ_LANE_PID=""
FUZZ_ADMIN_PID=""
WEB_BENCH_PID=""
declare -A SHARD_PIDS=()
GATEWAY_TESTS_PID=""
RUST_LANE5_PID=""
cleanup() {
  print_step_times
  local pid
  for pid in "$BUILD_PID" "$WEB_BUILD_PID" "$WEB_UNIT_PID" "$SIDE_PID" "$FUZZ_LANE_PID" "$FUZZ_ADMIN_PID" "$WEB_BENCH_PID" "${SHARD_PIDS[@]}" "$GATEWAY_TESTS_PID" "$RUST_LANE5_PID"; do
    [ -n "$pid" ] && kill -- -"$pid" 2>/dev/null || true
  done
  [ -n "$STAND_IN_CHECKS_PID" ] && kill "$STAND_IN_CHECKS_PID" 2>/dev/null || true
  for pid in "${GATEWAY_PIDS[@]}" "${EXTRA_MOTO_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -n "$MOTO_PID" ] && kill "$MOTO_PID" 2>/dev/null || true
}
trap cleanup EXIT INT TERM
# status_of PID VAR: the exit status of a part started in the background,
# into VAR: from REAPED when `wait -n` already waited for it (waiting again
# would fail), else by waiting for it.
declare -A REAPED=()
status_of() {
  local s=0
  if [ -n "${REAPED[$1]+set}" ]; then s=${REAPED[$1]}; else wait "$1" || s=$?; fi
  printf -v "$2" '%s' "$s"
}
# await_part PID_VAR LOG WHAT [MORE_LOG]: waits for a part started in the
# background, clears its PID (the cleanup has nothing left to stop), shows
# its log and stops the run if it failed (with MORE_LOG's last lines).
await_part() {
  local rc
  status_of "${!1}" rc
  printf -v "$1" '%s' ""
  cat "$2"
  [ "$rc" -eq 0 ] && return
  echo "$3 failed (exit $rc)"
  [ -z "${4:-}" ] || tail -50 "$4"
  exit 1
}
# stand_in NAME: a stand-in of its own (it answers one request at a time:
# what runs side by side below gets one each); its address in LAST_STAND_IN,
# its PID kept for the cleanup.
stand_in() {
  local port
  port=$(free_port)
  "$VENV/bin/python" infra/stand_in.py 127.0.0.1 "$port" >"$ROOT/.local/$RUN_ID-$1-moto.log" 2>&1 &
  EXTRA_MOTO_PIDS+=("$!")
  LAST_STAND_IN="http://127.0.0.1:$port"
}

step "Rust formatting (cargo fmt --check)"
cargo fmt --all --check

# The build needs both cores for minutes; what installs (the venv's pip,
# npm ci: mostly downloads and disk) runs beside it instead of before it, and
# so do the stand-in's own checks, the template's lint and checkov (Python,
# one core) and the web build, each with its output printed when the build
# is done.
step "Rust: one build of every test and binary, with clippy's lints (warnings are errors); beside it the installs, the stand-in's checks, the template's lint and checkov, and the web build"
# The lints in the build itself: clippy's driver compiles the workspace's own
# crates (what `cargo clippy` runs) and lints them, so the dependencies are
# built once instead of a second time in check mode for clippy (about 3 of
# the run's minutes, cold). Exported for every later build of this run
# (benchmarks, the gateway): a build without it would compile the
# workspace's crates again. Covers what `cargo clippy --workspace
# --all-targets -- -D warnings` does: libraries with and without cfg(test),
# integration tests, binaries (there are no benches or examples).
RUSTC_WORKSPACE_WRAPPER="$(rustc --print sysroot)/bin/clippy-driver"
CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
export RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS
# No crate has doc examples: skipping doctests saves a rustdoc run per crate.
# Two selections, so that only the libraries with unit tests get a test
# binary (`--workspace --lib` made one for every library, tests or not: a
# compile and a link of the whole function each, 10 of 16 empty): the
# packages whose sources hold unit tests (found below), then every package's
# integration tests (`--test '*'`: one binary per package, tests/suite; no
# binary has unit tests, and `--tests` would add a test harness per binary).
# The second also builds the binaries (functions, gateway, benchmarks), as
# cargo does for integration tests, and with the tests' features (the
# gateway enables shared's testkit too), so the later builds of this run
# (the gateway, the benchmarks) compile nothing: before, a second build of
# shared, every function and 21 binaries.
UNIT_TESTED=$(cargo metadata --no-deps --format-version 1 | python3 -c '
import json, os, re, sys
test = re.compile(r"#\[(cfg\(test\)|test\]|tokio::test)")
for p in json.load(sys.stdin)["packages"]:
    src = os.path.join(os.path.dirname(p["manifest_path"]), "src")
    if any(test.search(open(os.path.join(d, f), encoding="utf-8").read())
           for d, _, files in os.walk(src) for f in files if f.endswith(".rs")):
        print("-p", p["name"])
')
[ -n "$UNIT_TESTED" ] || { echo "no package with unit tests found (expected shared's at least)"; exit 1; }
BUILD_LOG="$ROOT/.local/$RUN_ID-build.log"
set -m # its own process group: a failure elsewhere stops cargo and its compilers too
# shellcheck disable=SC2086 # one word per -p and name
{ cargo test $UNIT_TESTED --lib --quiet --no-run && cargo test --workspace --test '*' --quiet --no-run; } >"$BUILD_LOG" 2>&1 &
BUILD_PID=$!
set +m
ensure_venv
ensure_chromium
ensure_web_deps
ensure_lighthouse
STAND_IN_LOG="$ROOT/.local/$RUN_ID-stand-in-checks.log"
( "$VENV/bin/python" -m unittest discover -s infra/tests && QUICK=1 "$VENV/bin/python" infra/bench_stand_in.py &&
  echo "==> template lint" && bash infra/lint-template.sh &&
  echo "==> checkov on template.yaml and infra/waf.yaml" && bash infra/checkov.sh ) >"$STAND_IN_LOG" 2>&1 &
STAND_IN_CHECKS_PID=$!
WEB_BUILD_LOG="$ROOT/.local/$RUN_ID-web-build.log"
set -m
build_web >"$WEB_BUILD_LOG" 2>&1 &
WEB_BUILD_PID=$!
set +m
MOTO_PORT=$(free_port)
log "starting a private AWS stand-in on 127.0.0.1:$MOTO_PORT"
start_stand_in "$MOTO_PORT" "$ROOT/.local/$RUN_ID-moto.log"
# The second lane's: the gateway's Rust tests, later the browser tests' pages
# shard (started now, so it is up when the build is done).
stand_in lane2
LANE2_ENDPOINT=$LAST_STAND_IN
await_part BUILD_PID "$BUILD_LOG" "the Rust build"
await_part STAND_IN_CHECKS_PID "$STAND_IN_LOG" "the stand-in's own checks, the template's lint or checkov"
await_part WEB_BUILD_PID "$WEB_BUILD_LOG" "the web build"

# The Rust tests mostly wait for their stand-ins (one core each, the first
# lane's also with the web unit tests beside it), once the build that needs
# both cores is done. The web unit tests' output follows the Rust tests'.
step "Rust tests, and beside them the web unit tests (with the page budgets of web/src/budget.test.ts)"
WEB_UNIT_LOG="$ROOT/.local/$RUN_ID-web-unit.log"
set -m # its own process group: a failure elsewhere stops vitest and its workers too, not only the subshell
(cd web && npm test --silent) >"$WEB_UNIT_LOG" 2>&1 &
WEB_UNIT_PID=$!
set +m
# The tests are not timing tests: with the request deadline of the template
# (9.5 s), fifty writers queued on the one-request-at-a-time stand-in, on a
# machine busy with other work, were cut off with 504 before their turn; with
# 29 s, a hundred parallel hour entries still were, at a load average of 38.
# The Rust tests allow two minutes (the retries get their share of it:
# config::Budgets::retries_deadline); the browser tests' gateway keeps API
# Gateway's 29 s. Tests of the deadline itself set their own.
export REQUEST_DEADLINE_MS=120000
# The gateway's tests (the slowest binary: its authorization matrix, property
# matrix and request examples each take minutes, most of it waiting for a
# stand-in that answers one request at a time) in three parts side by side,
# each on its own stand-in: the authorization matrix, the property matrix,
# and the rest; beside them everything else's tests on the run's stand-in.
# Its test binaries run as cargo runs them (from the package's directory),
# their output printed after the other lane's.
stand_in lane3
LANE3_ENDPOINT=$LAST_STAND_IN
stand_in lane4
LANE4_ENDPOINT=$LAST_STAND_IN
for lane in lane2:$LANE2_ENDPOINT lane3:$LANE3_ENDPOINT lane4:$LANE4_ENDPOINT; do
  wait_for_http "${lane#*:}/moto-api/" 300 || { cat "$ROOT/.local/$RUN_ID-${lane%%:*}-moto.log"; exit 1; }
done
GATEWAY_TESTS=$(cargo test -p local-gateway --test '*' --quiet --no-run --message-format=json-render-diagnostics |
  python3 infra/cargo_built.py "the gateway's test listing" |
  python3 -c 'import json, sys; [print(m["executable"]) for m in map(json.loads, sys.stdin) if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]]')
GATEWAY_TESTS_LOG="$ROOT/.local/$RUN_ID-gateway-tests.log"
# gateway_tests ENDPOINT FILTER…: every gateway test binary with these test filters, one after another.
gateway_tests() {
  local endpoint=$1 exe
  shift
  for exe in $GATEWAY_TESTS; do
    echo "     Running $(basename "$exe") (local-gateway) $*"
    AWS_ENDPOINT_URL="$endpoint" "$exe" -q "$@" || return $?
  done
}
set -m # its own process group: a failure elsewhere stops the test binaries too
(
  cd infra/local-gateway
  gateway_tests "$LANE2_ENDPOINT" authz_matrix >"$GATEWAY_TESTS_LOG.authz" 2>&1 &
  authz=$!
  gateway_tests "$LANE3_ENDPOINT" property_matrix >"$GATEWAY_TESTS_LOG.property" 2>&1 &
  property=$!
  rc=0
  gateway_tests "$LANE4_ENDPOINT" --skip authz_matrix --skip property_matrix || rc=$?
  wait "$authz" || rc=$?
  wait "$property" || rc=$?
  cat "$GATEWAY_TESTS_LOG.authz" "$GATEWAY_TESTS_LOG.property"
  exit "$rc"
) >"$GATEWAY_TESTS_LOG" 2>&1 &
GATEWAY_TESTS_PID=$!
set +m
# Everything else's test binaries (the unit-tested libraries', every other
# package's integration tests) on two lanes, the run's stand-in and one more:
# two workers take the binaries from one list (longest first, as they took
# before), each binary run as cargo runs it (from its package's directory).
# shellcheck disable=SC2086
{
  cargo test $UNIT_TESTED --lib --quiet --no-run --message-format=json-render-diagnostics
  cargo test --workspace --exclude local-gateway --test '*' --quiet --no-run --message-format=json-render-diagnostics
} | python3 infra/cargo_built.py "the test listing" | python3 -c '
import json, os, sys
# Longest first (the minutes each took on one stand-in), so the two lanes end together.
order = ["cases", "identity", "customers", "addons", "users", "subscriptions", "collaboration", "content"]
seen, tests = set(), []
for m in map(json.loads, sys.stdin):
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"] and m["executable"] not in seen:
        seen.add(m["executable"])
        name = m["package_id"].split("#")[0].rsplit("/", 1)[-1].split("@")[0]
        tests.append((order.index(name) if name in order else len(order), os.path.dirname(m["manifest_path"]), m["executable"]))
for _, d, exe in sorted(tests, key=lambda t: t[0]):
    print(d, exe)
' >"$ROOT/.local/$RUN_ID-rust-tests.txt"
stand_in lane5
LANE5_ENDPOINT=$LAST_STAND_IN
wait_for_http "$LANE5_ENDPOINT/moto-api/" 300 || { cat "$ROOT/.local/$RUN_ID-lane5-moto.log"; exit 1; }
CLAIMS="$ROOT/.local/$RUN_ID-rust-claims"
mkdir -p "$CLAIMS"
# rust_lane ENDPOINT: runs every binary of the list no other lane has claimed (mkdir claims one atomically).
rust_lane() {
  local endpoint=$1 i=0 dir exe
  while read -r dir exe; do
    i=$((i + 1))
    mkdir "$CLAIMS/$i" 2>/dev/null || continue
    echo "     Running $(basename "$exe") ($(basename "$dir"))"
    (cd "$dir" && AWS_ENDPOINT_URL="$endpoint" "$exe" -q) || return $?
  done <"$ROOT/.local/$RUN_ID-rust-tests.txt"
}
set -m # its own process group: a failure elsewhere stops its test binary too
rust_lane "$LANE5_ENDPOINT" >"$ROOT/.local/$RUN_ID-rust-lane5.log" 2>&1 &
RUST_LANE5_PID=$!
set +m
rust_lane_ok=0
rust_lane "$AWS_ENDPOINT_URL" || rust_lane_ok=$?
lane5_ok=0
wait "$RUST_LANE5_PID" || lane5_ok=$?
RUST_LANE5_PID=""
cat "$ROOT/.local/$RUN_ID-rust-lane5.log"
[ "$rust_lane_ok" -eq 0 ] && [ "$lane5_ok" -eq 0 ] || { echo "Rust tests failed (exit $rust_lane_ok and $lane5_ok)"; exit 1; }
unset REQUEST_DEADLINE_MS
step "the gateway's Rust tests (run beside the others)"
await_part GATEWAY_TESTS_PID "$GATEWAY_TESTS_LOG" "the gateway's Rust tests"
# The browser tests' gateways start while the web unit tests finish: their
# last files left a core idle for about 40 s, and seeding five gateways is
# CPU work that fills it.
step "five gateways: one per browser-test shard and two for the fuzz (each its own table and stand-in), while the web unit tests finish"
EXPECT_BUILT=1 cargo_build --quiet -p local-gateway
# A private copy: worktrees may share one CARGO_TARGET_DIR, whose
# debug/local-gateway another build can replace while this run uses it.
GATEWAY_BIN="$ROOT/.local/$RUN_ID-gateway"
cp "$(cargo_target_dir)/debug/local-gateway" "$GATEWAY_BIN"
stand_in fuzz
FUZZ_ENDPOINT=$LAST_STAND_IN
stand_in fuzz-admin
FUZZ_ADMIN_ENDPOINT=$LAST_STAND_IN
for s in fuzz:$FUZZ_ENDPOINT fuzz-admin:$FUZZ_ADMIN_ENDPOINT; do
  wait_for_http "${s#*:}/moto-api/" 300 || { cat "$ROOT/.local/$RUN_ID-${s%%:*}-moto.log"; exit 1; }
done
# gateway NAME PORT ENDPOINT: a gateway on its own table, with the demo and
# browser-test accounts and the demo cases (about 10 s: the click-only crawl,
# web/e2e/crawl.e2e.mjs, needs cases in every state to reach every route, as
# a demo user would). Its PID kept for the cleanup.
gateway() {
  local name=$1 port=$2 endpoint=$3
  AWS_ENDPOINT_URL="$endpoint" TABLE_NAME="$RUN_ID-$name" DOCUMENTS_BUCKET="$RUN_ID-$name" SES_SENDER=no-reply@example.com \
    JWT_SECRET="e2e-secret-$RUN_ID-0123456789abcdef" WEB_ORIGIN="http://127.0.0.1:$port" \
    REQUEST_DEADLINE_MS=29000 LOCAL_OUTBOX=1 SEED_E2E=1 SEED_DEMO_CASES=1 GATEWAY_ADDR="127.0.0.1:$port" WEB_DIST="$ROOT/web/dist" \
    "$GATEWAY_BIN" >"$ROOT/.local/$RUN_ID-$name-gateway.log" 2>&1 &
  GATEWAY_PIDS+=("$!")
}
# The browser tests in three shards side by side (web/e2e/shard-*.mjs; they
# mostly wait for pages and for their stand-in, which answers one request at a
# time): the flows that change data in two (accounts and people; cases and
# services), the crawl and the accessibility check in the third. In one shard
# the flows took about 10 minutes, the longest step of the run.
stand_in e2e-cases
CASES_ENDPOINT=$LAST_STAND_IN
wait_for_http "$CASES_ENDPOINT/moto-api/" 300 || { cat "$ROOT/.local/$RUN_ID-e2e-cases-moto.log"; exit 1; }
ACCOUNTS_PORT=$(free_port)
gateway e2e-accounts "$ACCOUNTS_PORT" "$AWS_ENDPOINT_URL"
CASES_PORT=$(free_port)
gateway e2e-cases "$CASES_PORT" "$CASES_ENDPOINT"
PAGES_PORT=$(free_port)
gateway e2e-pages "$PAGES_PORT" "$LANE2_ENDPOINT"
FUZZ_PORT=$(free_port)
gateway fuzz "$FUZZ_PORT" "$FUZZ_ENDPOINT"
FUZZ_ADMIN_PORT=$(free_port)
gateway fuzz-admin "$FUZZ_ADMIN_PORT" "$FUZZ_ADMIN_ENDPOINT"
for g in e2e-accounts:$ACCOUNTS_PORT e2e-cases:$CASES_PORT e2e-pages:$PAGES_PORT fuzz:$FUZZ_PORT fuzz-admin:$FUZZ_ADMIN_PORT; do
  wait_for_http "http://127.0.0.1:${g#*:}/api/openapi.json" 300 || { cat "$ROOT/.local/$RUN_ID-${g%%:*}-gateway.log"; exit 1; }
done
side() { # NAME COMMAND…: one part, logged with its duration; stops its lane when it fails
  local name=$1 t0=$SECONDS rc=0
  shift
  printf '\n==> [%s] %s\n' "$(date -u +%H:%M:%S)" "$name"
  "$@" 2>&1 || rc=$?
  printf '==> %s: %d s%s\n' "$name" "$((SECONDS - t0))" "$([ $rc -eq 0 ] || echo ", FAILED (exit $rc)")"
  return $rc
}
# The fuzz's first lane, the longest of the browser tests' step (it ended 43 s
# after the last shard in a whole run), starts as soon as the gateways are up:
# the web unit tests' last files leave part of the machine idle, and it needs
# nothing of theirs. Its own process group (job control on), so a failure
# elsewhere stops all of it.
FUZZ_LANE_LOG="$ROOT/.local/$RUN_ID-fuzz-lane.log"
set -m
(
  side "generated fuzz of every operation as a customer and a lawyer, and of the first part of admin's (Schemathesis, quick; from when its gateway was up)" \
    env BASE_URL="http://127.0.0.1:$FUZZ_PORT" QUICK="${FUZZ_QUICK:-1}" ADMIN_PART=first bash infra/fuzz.sh
) >"$FUZZ_LANE_LOG" 2>&1 &
FUZZ_LANE_PID=$!
set +m
step "web unit tests (started beside the Rust tests)"
await_part WEB_UNIT_PID "$WEB_UNIT_LOG" "web unit tests"

# Beside the browser tests, in two lanes of parts one after another: the quick
# benchmarks (figures only, so they cannot go stale: their figures here are
# not the goals' measure; but the search benchmark's precision, recall and
# items read per search are counts, not times, and must hold at its quick
# sizes too) in one; the generated fuzz (on its own gateway: admin's
# generated writes would change data the browser tests read) in the other,
# started before them (above). Each benchmark starts its own stand-in (the search
# benchmark uses AWS_ENDPOINT_URL's when set: unset here, so it loads its
# parties elsewhere). In one lane the parts took about 14 minutes, 3.5 more
# than the shards: the run's last minutes had only the fuzz running. Output is
# printed after the browser tests', each part with its time. Not split: with
# admin's part in a lane and on a gateway of its own from the start, the step
# took 753 s instead of 644 (admin's part alone 741 s instead of 232): the
# fuzz sends one request at a time, and beside the shards each answer waits
# for a core. Once the shards are done, though, admin's part alone left a core
# idle (its last 140 s at 52% busy): so the lane runs the first part of
# admin's operations (infra/fuzz.sh ADMIN_PART, about two thirds of its time),
# and the second part starts when the benchmarks or the first shard are done
# (below; started when all shards were, it left the machine about a sixth idle
# in the last shard's final minute), beside it, on a gateway of its own (admin's writes must not change what the
# first part reads).
step "browser tests: three shards side by side (accounts, cases, pages), and beside them two lanes: the quick benchmarks; the generated fuzz"
SIDE_LOG="$ROOT/.local/$RUN_ID-side.log"
# Each lane its own process group (job control on for these jobs), so a
# failure elsewhere stops all of it.
set -m
(
  side "conflict search benchmark, quick (300 and 1,000 parties; precision, recall and items read per search)" env -u AWS_ENDPOINT_URL QUICK=1 EXPECT_BUILT=1 bash infra/bench-search.sh &&
    side "Lambda benchmark, quick mode (the round trips in a row must meet their goals)" env QUICK=1 EXPECT_BUILT=1 COUNTS_MUST_HOLD=1 bash infra/bench.sh &&
    side "statistics benchmark, quick sizes" env QUICK=1 EXPECT_BUILT=1 bash infra/bench-statistics.sh
) >"$SIDE_LOG" 2>&1 &
SIDE_PID=$!
set +m
# Each shard in the background in its own process group (so a failure
# elsewhere stops its browser too), its output printed when all are done.
declare -A SHARD_PIDS=()
for shard in accounts:$ACCOUNTS_PORT cases:$CASES_PORT pages:$PAGES_PORT; do
  name=${shard%%:*}
  set -m
  BASE_URL="http://127.0.0.1:${shard#*:}" node --test --test-concurrency=1 "web/e2e/shard-$name.mjs" >"$ROOT/.local/$RUN_ID-e2e-$name.log" 2>&1 &
  SHARD_PIDS[$name]=$!
  set +m
done
# The second part of admin's fuzz starts when the benchmarks' lane or the
# first shard is done, whichever is first (a core is then free for it; the
# benchmarks usually end about a minute before the first shard, and started
# with the first shard it ended 14 s after everything else); the shards'
# output is printed in order once all are. The part `wait -n` waited for
# keeps its status in REAPED (see status_of).
FUZZ_ADMIN_LOG="$ROOT/.local/$RUN_ID-fuzz-admin.log"
first_rc=0 first_pid=""
wait -n -p first_pid "${SHARD_PIDS[@]}" "$SIDE_PID" || first_rc=$?
REAPED[$first_pid]=$first_rc
set -m
(
  side "generated fuzz of the second part of admin's operations (Schemathesis, quick; from when the benchmarks or the first browser-test shard were done)" \
    env BASE_URL="http://127.0.0.1:$FUZZ_ADMIN_PORT" QUICK="${FUZZ_QUICK:-1}" ROLES=admin@example.com ADMIN_PART=second bash infra/fuzz.sh
) >"$FUZZ_ADMIN_LOG" 2>&1 &
FUZZ_ADMIN_PID=$!
set +m
# The web benchmark, quick (figures only: each budgeted page loaded once in
# Chromium on the throttled network, the CPU not slowed, and Lighthouse on the
# login page; its own gateway and stand-in), beside admin's second part and
# from the same moment: in the benchmarks' lane it would hold that part back
# by its minute. About 20 CPU-s, most of it Chromium.
WEB_BENCH_LOG="$ROOT/.local/$RUN_ID-web-bench.log"
set -m
(
  side "web benchmark, quick (each budgeted page once on a throttled network; Lighthouse on the login page; from when the benchmarks or the first browser-test shard were done)" \
    env QUICK=1 EXPECT_BUILT=1 WEB_DIST="$ROOT/web/dist" bash infra/bench-web.sh
) >"$WEB_BENCH_LOG" 2>&1 &
WEB_BENCH_PID=$!
set +m
shards_ok=0
for name in accounts cases pages; do
  rc=0
  status_of "${SHARD_PIDS[$name]}" rc
  unset "SHARD_PIDS[$name]"
  printf '\n==> browser tests, the %s shard (web/e2e/shard-%s.mjs)%s\n' "$name" "$name" "$([ $rc -eq 0 ] || echo ": FAILED (exit $rc)")"
  cat "$ROOT/.local/$RUN_ID-e2e-$name.log"
  if [ "$rc" -ne 0 ]; then
    shards_ok=$rc
    tail -50 "$ROOT/.local/$RUN_ID-e2e-$name-gateway.log"
  fi
done
[ "$shards_ok" -eq 0 ] || { echo "browser tests failed (the shards marked FAILED above)"; exit 1; }

step "the quick benchmarks (run beside the browser tests)"
await_part SIDE_PID "$SIDE_LOG" "a benchmark beside the browser tests"
step "the generated fuzz (run beside the browser tests)"
await_part FUZZ_LANE_PID "$FUZZ_LANE_LOG" "the fuzz beside the browser tests" "$ROOT/.local/$RUN_ID-fuzz-gateway.log"
step "the second part of admin's fuzz (started when the benchmarks or the first browser-test shard were done)"
await_part FUZZ_ADMIN_PID "$FUZZ_ADMIN_LOG" "the second part of admin's fuzz" "$ROOT/.local/$RUN_ID-fuzz-admin-gateway.log"
step "the web benchmark (started with the second part of admin's fuzz)"
await_part WEB_BENCH_PID "$WEB_BENCH_LOG" "the web benchmark"

step "all tests passed in $(( $(date +%s) - started )) s"

#!/usr/bin/env bash
# Benchmark (prints figures and whether each goal holds; fails only when
# something does not run): for every Lambda binary under functions/, its cold
# start (median of 20 starts, each with a real request of its own, then the same
# request warm: what being cold adds, beside the first answer and the
# initialisation alone), its zip size, and p50/p99 of one typical call next to a
# raw DynamoDB GetItem of the same run, with the stand-in's share of the call,
# and the call's DynamoDB round trips in a row, now and with an access token of
# the older format (the stand-in serialises requests: they are counted, not timed).
# Starts a private AWS stand-in. See infra/local-gateway/src/bin/bench.rs.
#
#   infra/bench.sh            release binaries for this machine, 20 starts, 500 calls
#   QUICK=1 infra/bench.sh    what infra/test.sh runs: 1 start (a cold and a warm
#                             request) and 3 calls after 1 warm-up per function, the
#                             tracing comparison on one function, the round trips as
#                             in full, on the debug binaries the tests already built
#                             (figures are not the goals' measure there; it proves
#                             the bench runs)
#   COUNTS_MUST_HOLD=1 …      fails when a count goal (round trips in a row) misses
#                             (the timed goals are only reported: load misses them)
#   PACKAGE=1 infra/bench.sh  also builds the arm64 Lambda zips with infra/package.sh
#                             (cargo-lambda; needs the aarch64 Rust standard library)
#                             and reports their sizes instead of the host binary's
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
# Only the stand-in (moto): the test tools are the test run's (0.4 CPU-s to check).
ensure_venv --stand-in
QUICK=${QUICK:-0}
FUNCTIONS=$(for m in functions/*/Cargo.toml; do sed -n 's/^name *= *"\([^"]*\)".*/\1/p' "$m" | head -n 1; done)
TARGET_DIR=$(cargo_target_dir)
if [ "$QUICK" = 1 ]; then PROFILE=debug; PROFILE_FLAG=(); else PROFILE=release; PROFILE_FLAG=(--release); fi
log "building $PROFILE binaries: $(echo $FUNCTIONS) bench"
# One build of every function binary and of the bench (a bare `-p <crate>`
# list with `--bin bench` would build the bench alone).
cargo_build "${PROFILE_FLAG[@]}" --quiet $(for f in $FUNCTIONS; do printf -- '--bin %s ' "$f"; done) --bin bench
# Private copies: worktrees may share one target directory, whose binaries
# another build can replace while this run uses them. Hard links where the
# file system allows (a build writes a new file, so the link keeps this
# one): copying the debug binaries (about 800 MB) cost 1.5 CPU-seconds.
RUN_ID="bench-$$"
BIN_DIR="$ROOT/.local/$RUN_ID-bin"
mkdir -p "$BIN_DIR"
for f in $FUNCTIONS bench; do cp -l "$TARGET_DIR/$PROFILE/$f" "$BIN_DIR/" 2>/dev/null || cp "$TARGET_DIR/$PROFILE/$f" "$BIN_DIR/"; done

# Zip sizes: the Lambda zips when PACKAGE=1, else each release binary
# (stripped by the release profile) zipped as cargo-lambda zips it (one
# `bootstrap` entry, deflate). Not in the quick mode: debug binaries say nothing.
SIZES="$BIN_DIR/sizes.txt"
: >"$SIZES"
if [ "${PACKAGE:-0}" = 1 ]; then
  bash infra/package.sh >&2
  for f in $FUNCTIONS; do echo "$f $(stat -c %s "$TARGET_DIR/lambda/$f/bootstrap.zip") arm64 Lambda zips from infra/package.sh (cargo-lambda)"; done >"$SIZES"
elif [ "$QUICK" != 1 ]; then
  for f in $FUNCTIONS; do
    bytes=$(python3 -c 'import io, sys, zipfile
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z: z.write(sys.argv[1], "bootstrap")
print(len(buf.getvalue()))' "$BIN_DIR/$f")
    echo "$f $bytes the stripped $(uname -m) release binary zipped as bootstrap (the arm64 zips need PACKAGE=1 and the aarch64 Rust standard library)"
  done >"$SIZES"
fi

MOTO_PORT=$(free_port)
start_stand_in "$MOTO_PORT" "$ROOT/.local/$RUN_ID-moto.log"
trap 'kill $MOTO_PID 2>/dev/null || true; rm -rf "$BIN_DIR"' EXIT
export TABLE_NAME=$RUN_ID DOCUMENTS_BUCKET=$RUN_ID SES_SENDER=no-reply@example.com
export JWT_SECRET="bench-secret-$RUN_ID-0123456789abcdefghij"
QUICK=$QUICK SIZES=$SIZES BENCH_PROFILE=$PROFILE "$BIN_DIR/bench" $(for f in $FUNCTIONS; do printf '%s ' "$BIN_DIR/$f"; done)


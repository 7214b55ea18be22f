#!/usr/bin/env bash
# Benchmark (prints figures; fails when a call's items read differ between
# sizes, the column 'same'): loads cases
# and hour entries into a private AWS stand-in through the store
# (BatchWriteItem, with the counters they imply) and prints, for every
# dashboard and statistics call, the items it read and its time at each size.
#
#   ./infra/bench-statistics.sh                      # 100:1000 and 100000:1000000
#   ./infra/bench-statistics.sh 100:1000 10000:100000
#   QUICK=1 ./infra/bench-statistics.sh              # 80:400 and 240:1200 (infra/test.sh runs this)
#   RELEASE=1 ./infra/bench-statistics.sh ...         # the release build (a faster load at the big sizes)
#
# The smallest size must hold at least 74 cases and about 340 hour entries:
# the generator first covers every counter item the calls can read (every
# customer, a page of one lawyer's cases, every day of this month and every
# month of this year on every shard), so the small size already reads what
# the big one reads, and the last column says whether the items read are the
# same at every size. It prints the load rate (items/s) of each size. The
# quick sizes are about the smallest and three times that: the stand-in's
# handling of the load is most of the run's CPU, and the items read are a
# count, the same at every size or not.
#
# The stand-in holds everything in memory (see shared/notes local-aws): the
# full size needs several GB and long minutes to load on 2 cores. Measured
# 2026-11-24 (debug build; the patched stand-in, not the Rust side, is the
# bottleneck): 100000:1000000 = 1.39 M items loaded in 34 min (673 items/s)
# on a machine shared with five builds and browser runs, the stand-in ~3.3 GB.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
# Only the stand-in (moto): the test tools are the test run's (0.4 CPU-s to check).
ensure_venv --stand-in
if [ "${QUICK:-0}" = 1 ] && [ $# -eq 0 ]; then set -- 80:400 240:1200; fi
PROFILE=debug
PROFILE_FLAG=()
if [ "${RELEASE:-0}" = 1 ]; then PROFILE=release; PROFILE_FLAG=(--release); fi
cargo_build --quiet "${PROFILE_FLAG[@]}" -p local-gateway --bin bench_statistics
MOTO_PORT=$(free_port)
start_stand_in "$MOTO_PORT" "$ROOT/.local/bench-statistics-moto.log"
trap 'kill $MOTO_PID 2>/dev/null || true' EXIT
RUN_ID="benchstats-$$"
export TABLE_NAME=$RUN_ID DOCUMENTS_BUCKET=$RUN_ID SES_SENDER=no-reply@example.com
export JWT_SECRET="bench-secret-$RUN_ID-0123456789abcdefghij"
"$(cargo_target_dir)/$PROFILE/bench_statistics" "$@"

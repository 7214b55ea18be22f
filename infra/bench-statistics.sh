#!/usr/bin/env bash
# Benchmark (prints figures, asserts nothing; issue 16 item 5): loads cases
# and hour entries into a private AWS stand-in through the store
# (BatchWriteItem, with the counters they imply) and prints, for every
# dashboard and statistics call, the items it read and its time at each size.
#
#   ./infra/bench-statistics.sh                      # 100:1000 and 100000:1000000
#   ./infra/bench-statistics.sh 100:1000 10000:100000
#   QUICK=1 ./infra/bench-statistics.sh              # 20:100 and 200:2000 (infra/test.sh runs this)
#
# The stand-in holds everything in memory (see shared/notes local-aws): the
# full size needs several GB and long minutes to load on 2 cores.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
ensure_venv
if [ "${QUICK:-0}" = 1 ] && [ $# -eq 0 ]; then set -- 20:100 200:2000; fi
cargo build --quiet -p local-gateway --bin bench_statistics
MOTO_PORT=$(free_port)
start_stand_in "$MOTO_PORT" "$ROOT/.local/bench-statistics-moto.log"
trap 'kill $MOTO_PID 2>/dev/null || true' EXIT
RUN_ID="benchstats-$$"
export TABLE_NAME=$RUN_ID DOCUMENTS_BUCKET=$RUN_ID SES_SENDER=no-reply@example.com
export JWT_SECRET="bench-secret-$RUN_ID-0123456789abcdefghij"
"$(cargo_target_dir)/debug/bench_statistics" "$@"

#!/usr/bin/env bash
# Benchmark of the local AWS stand-in's DynamoDB (infra/bench_stand_in.py):
# GetItem, table Query, GSI Query and a 10-item TransactWriteItems (p50/p99)
# at a small and a large table, loaded with BatchWriteItem with items shaped
# like the project's, and the stand-in's RSS after 100 concurrent
# transactions. Exits non-zero unless each p50 grows at most 2x from the small
# to the large table and RSS stays under 2 GB.
#
#   ./infra/bench-stand-in.sh                         # 1,000 and 100,000 items, and plain moto at 1,000
#   QUICK=1 ./infra/bench-stand-in.sh                 # 500 and 5,000 items (infra/test.sh runs this)
#   UNPATCHED_SIZES=1000,10000 ./infra/bench-stand-in.sh   # plain moto at other sizes (slow, and
#                                                     # several GB: it copies the table per item)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
ensure_venv
exec "$VENV/bin/python" "$ROOT/infra/bench_stand_in.py"

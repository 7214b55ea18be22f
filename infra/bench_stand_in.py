"""Benchmark of the stand-in's DynamoDB: does a call cost what it touches?

Loads items shaped like the project's (case partitions of 10 items: the case,
with GSI1 CASESTATE#<state> and GSI2 CASECUST#<customer> entries, history,
hour and note items) with BatchWriteItem, and times at a small and a large
table size:

  GetItem          one case item
  table Query      one case partition (10 items)
  GSI Query        one customer's cases on GSI2, newest first, Limit 10 (10 items)
  transaction      TransactWriteItems of 10 items (condition check, 2 updates, 7 puts)

then runs 100 transactions at once and reads the stand-in's RSS. Goals: each
p50 at the large size at most 2x the small size's; RSS under 2 GB.

Informational lines: the first GSI Query of a table (builds the index map),
and a GSI partition that grows with the table (GSI1 CASESTATE#pending), which
costs in proportion to that partition, as moto's Query reads a whole
partition before it pages.

Environment: QUICK=1 (500 and 5,000 items, fewer samples; what infra/test.sh
runs), SIZES=small,large, SAMPLES=n, UNPATCHED_SIZES=a,b (plain moto at these
sizes for comparison; default: the small size, none in quick mode).
Exit status 1 if a goal is not met, except in quick mode: there it only
proves the benchmark runs (its figures, on a machine busy with the Rust build
beside it, are not the goals' measure), like the other quick benchmarks.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tests"))
from standin_harness import StandIn  # noqa: E402

QUICK = os.environ.get("QUICK") == "1"
SIZES = [int(s) for s in os.environ.get("SIZES", "500,5000" if QUICK else "1000,100000").split(",")]
SAMPLES = int(os.environ.get("SAMPLES", "40" if QUICK else "200"))
UNPATCHED_SIZES = [int(s) for s in os.environ.get("UNPATCHED_SIZES", "" if QUICK else str(SIZES[0])).split(",") if s]
CONCURRENT = 100
TABLE = "bench"
GROWTH_LIMIT = 2.0
RSS_LIMIT = 2 * 1024**3
PER_CASE = 10
STATES = ("pending", "waiting", "inprogress", "complete")
TEXT = "Hyresvärden har sagt upp kontoret på Storgatan; vi vill pröva uppsägningen. " * 3


def S(v: str) -> dict:
    return {"S": v}


def N(v: object) -> dict:
    return {"N": str(v)}


def case_items(c: int) -> list[dict]:
    uid = f"c{c:07d}"
    created = f"2026-{c % 12 + 1:02d}-{c % 28 + 1:02d}T{c % 24:02d}:00:00Z#{uid}"
    pk = S(f"CASE#{uid}")
    items = [{
        "PK": pk, "SK": S("CASE"), "status": S(STATES[c % 4]), "rev": N(1), "subject": S(f"Ärende {uid}"),
        "description": S(TEXT), "customer": S(f"cust{c // 10:06d}"), "estimated_hours": N("8.5"),
        "GSI1PK": S(f"CASESTATE#{STATES[c % 4]}"), "GSI1SK": S(created),
        "GSI2PK": S(f"CASECUST#cust{c // 10:06d}"), "GSI2SK": S(created),
    }]
    for h in range(5):
        items.append({"PK": pk, "SK": S(f"HIST#2026-02-{h + 1:02d}T09:00:00Z#{h}"), "who": S("lawyer"), "field": S("status"),
                      "before": S("waiting"), "after": S("inprogress")})
    for h in range(3):
        items.append({"PK": pk, "SK": S(f"HOUR#{c:07d}{h}"), "hours": N("1.25"), "date": S("2026-03-01"),
                      "description": S("Genomgång av hyresavtalet"), "is_invoiced": {"BOOL": False}})
    items.append({"PK": pk, "SK": S("NOTE#2026-03-02T00:00:00Z#1"), "text": S(TEXT)})
    assert len(items) == PER_CASE
    return items


def create_table(client) -> None:
    client.create_table(
        TableName=TABLE, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK")],
        GlobalSecondaryIndexes=[{
            "IndexName": g, "Projection": {"ProjectionType": "ALL"},
            "KeySchema": [{"AttributeName": f"{g}PK", "KeyType": "HASH"}, {"AttributeName": f"{g}SK", "KeyType": "RANGE"}],
        } for g in ("GSI1", "GSI2")],
    )
    client.update_time_to_live(TableName=TABLE, TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"})


def load(stand_in: StandIn, cases_from: int, cases_to: int) -> float:
    started = time.monotonic()
    local = threading.local()

    def put(batch_start: int) -> None:
        if not hasattr(local, "client"):
            local.client = stand_in.client()
        items = [it for c in range(batch_start, min(batch_start + 5, cases_to)) for it in case_items(c)]
        for i in range(0, len(items), 25):
            request = {TABLE: [{"PutRequest": {"Item": it}} for it in items[i:i + 25]]}
            while request:
                request = local.client.batch_write_item(RequestItems=request).get("UnprocessedItems")

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(put, range(cases_from, cases_to, 5)))
    return time.monotonic() - started


def transaction(c: int, slot: int) -> list[dict]:
    uid = f"c{c:07d}"
    ops: list[dict] = [
        {"ConditionCheck": {"TableName": TABLE, "Key": {"PK": S(f"CASE#{uid}"), "SK": S("CASE")},
                            "ConditionExpression": "attribute_exists(PK)"}},
        {"Update": {"TableName": TABLE, "Key": {"PK": S(f"CASE#{uid}"), "SK": S("HOUR#" + f"{c:07d}0")},
                    "UpdateExpression": "SET hours = hours + :h", "ConditionExpression": "attribute_exists(PK)",
                    "ExpressionAttributeValues": {":h": N("0.25")}}},
        {"Update": {"TableName": TABLE, "Key": {"PK": S(f"COUNTER#bench{slot % 50}"), "SK": S("COUNTER")},
                    "UpdateExpression": "ADD #v :one", "ExpressionAttributeNames": {"#v": "value"},
                    "ExpressionAttributeValues": {":one": N(1)}}},
    ]
    for k in range(7):  # overwrites: the table keeps its size
        ops.append({"Put": {"TableName": TABLE, "Item": {"PK": S(f"TXN#{slot}"), "SK": S(f"ITEM#{k}"), "amount": N(k),
                                                         "description": S("Brev till hyresvärden")}}})
    return ops


def timed(fn, samples: int) -> list[float]:
    out = []
    for i in range(samples):
        started = time.perf_counter()
        fn(i)
        out.append((time.perf_counter() - started) * 1000)
    return out


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)  # nearest rank
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def measure(stand_in: StandIn, cases: int, samples: int, rnd: random.Random) -> dict:
    client = stand_in.client()
    pick = [rnd.randrange(cases) for _ in range(samples)]
    customers = max(1, cases // 10)
    figures: dict[str, object] = {}

    def get(i):
        client.get_item(TableName=TABLE, Key={"PK": S(f"CASE#c{pick[i]:07d}"), "SK": S("CASE")})

    def table_query(i):
        r = client.query(TableName=TABLE, KeyConditionExpression="PK = :p",
                         ExpressionAttributeValues={":p": S(f"CASE#c{pick[i]:07d}")})
        assert r["Count"] == PER_CASE, r["Count"]

    def gsi_query(i):
        r = client.query(TableName=TABLE, IndexName="GSI2", KeyConditionExpression="GSI2PK = :p", ScanIndexForward=False,
                         Limit=10, ExpressionAttributeValues={":p": S(f"CASECUST#cust{pick[i] % customers:06d}")})
        assert r["Count"] == min(10, cases), r["Count"]

    def growing_gsi_query(i):
        client.query(TableName=TABLE, IndexName="GSI1", KeyConditionExpression="GSI1PK = :p", ScanIndexForward=False,
                     Limit=10, ExpressionAttributeValues={":p": S("CASESTATE#pending")})

    def txn(i):
        client.transact_write_items(TransactItems=transaction(pick[i], i))

    started = time.perf_counter()
    gsi_query(0)
    figures["first GSI Query"] = (time.perf_counter() - started) * 1000
    for name, fn in (("GetItem", get), ("table Query", table_query), ("GSI Query", gsi_query),
                     ("transaction (10 items)", txn), ("growing GSI partition", growing_gsi_query)):
        fn(0)  # warm
        runs = samples if name != "growing GSI partition" else max(5, samples // 4)
        figures[name] = timed(fn, runs)
    return figures


def concurrent_transactions(stand_in: StandIn, cases: int) -> tuple[float, int, int]:
    client = stand_in.client(max_pool_connections=CONCURRENT)  # one connection per thread
    barrier = threading.Barrier(CONCURRENT)

    def one(i: int) -> None:
        barrier.wait()
        client.transact_write_items(TransactItems=transaction(i * max(1, cases // CONCURRENT) % cases, 1000 + i))

    started = time.monotonic()
    with ThreadPoolExecutor(CONCURRENT) as pool:
        list(pool.map(one, range(CONCURRENT)))
    elapsed = time.monotonic() - started
    rss, peak = stand_in.rss_bytes()
    return elapsed, rss, peak


OPS = ("GetItem", "table Query", "GSI Query", "transaction (10 items)")


def run(patched: bool, sizes: list[int], samples: int) -> dict[int, dict]:
    label = "patched stand-in" if patched else "plain moto (--no-patch)"
    stand_in = StandIn(*(() if patched else ("--no-patch",)))
    results: dict[int, dict] = {}
    try:
        create_table(stand_in.client())
        loaded = 0
        rnd = random.Random(21)
        for size in sizes:
            cases = size // PER_CASE
            seconds = load(stand_in, loaded, cases)
            print(f"  {label}: loaded {cases * PER_CASE:,} items ({(cases - loaded) * PER_CASE:,} in {seconds:.1f} s)", flush=True)
            loaded = cases
            figures = measure(stand_in, cases, samples, rnd)
            elapsed, rss, peak = concurrent_transactions(stand_in, cases)
            figures.update(concurrent=elapsed, rss=rss, peak=peak)
            results[size] = figures
            report(label, size, figures)
        status = stand_in.status()
        if patched:
            if not status.get("patched"):
                raise SystemExit("the stand-in under test is not patched")
            print(f"  patched stand-in's paths: {status['stats']}\n")
    finally:
        stand_in.stop()
    return results


def report(label: str, size: int, f: dict) -> None:
    print(f"\n  {label}, {size:,} items (p50 / p99 ms):")
    for name in (*OPS, "growing GSI partition"):
        values = f[name]
        extra = f"  (GSI1 CASESTATE#pending: {size // PER_CASE // 4:,} items, Limit 10)" if name == "growing GSI partition" else ""
        print(f"    {name:<24} {statistics.median(values):8.1f} / {pct(values, 99):8.1f}{extra}")
    print(f"    {'first GSI Query':<24} {f['first GSI Query']:8.1f}  (patched: builds the index map if the table has none yet)")
    print(f"    {CONCURRENT} concurrent transactions: {f['concurrent']:.1f} s; stand-in RSS after: "
          f"{f['rss'] / 2**20:,.0f} MB (peak {f['peak'] / 2**20:,.0f} MB)\n", flush=True)


def main() -> int:
    small, large = SIZES
    print(f"Stand-in benchmark{' (quick)' if QUICK else ''}: {small:,} and {large:,} items, {SAMPLES} samples per call", flush=True)
    unpatched = {}
    for size in UNPATCHED_SIZES:
        unpatched.update(run(False, [size], SAMPLES if size <= small else max(5, SAMPLES // 20)))
    patched = run(True, [small, large], SAMPLES)

    print("Summary (p50 ms; p99 in brackets):")
    header = "".join(f"{'plain ' + format(s, ','):>22}" for s in unpatched) + f"{'patched ' + format(small, ','):>22}{'patched ' + format(large, ','):>22}   growth"
    print(f"  {'':<24}{header}")
    ok = True
    for name in OPS:
        cells = [f"{statistics.median(unpatched[s][name]):9.1f} ({pct(unpatched[s][name], 99):7.1f})" for s in unpatched]
        a, b = patched[small][name], patched[large][name]
        growth = statistics.median(b) / statistics.median(a)
        ok &= growth <= GROWTH_LIMIT
        cells += [f"{statistics.median(a):9.1f} ({pct(a, 99):7.1f})", f"{statistics.median(b):9.1f} ({pct(b, 99):7.1f})"]
        print(f"  {name:<24}" + "".join(f"{c:>22}" for c in cells) + f"   {growth:5.2f}x {'ok' if growth <= GROWTH_LIMIT else 'TOO MUCH'}")
    rss = patched[large]["rss"]
    rss_ok = rss < RSS_LIMIT
    print(f"\n  RSS after {CONCURRENT} concurrent transactions at {large:,} items: {rss / 2**20:,.0f} MB "
          f"({'ok' if rss_ok else 'TOO MUCH'}, goal < {RSS_LIMIT / 2**30:.0f} GB)")
    for s in unpatched:
        print(f"  plain moto at {s:,} items: RSS {unpatched[s]['rss'] / 2**20:,.0f} MB after {CONCURRENT} concurrent transactions")
    ok &= rss_ok
    print(f"\nGoals (p50 grows at most {GROWTH_LIMIT:.0f}x from {small:,} to {large:,} items; RSS < 2 GB): "
          f"{'met' if ok else 'NOT MET'}")
    return 0 if ok or QUICK else 1


if __name__ == "__main__":
    sys.exit(main())

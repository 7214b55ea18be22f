"""Passes cargo's JSON messages (stdin, `--message-format=json…`) through to
stdout, and fails naming what cargo compiled if anything was not already
built. infra/test.sh builds everything once; every later cargo call of the
run (the test listings, the gateway, the benchmarks) must find it all built:
a compile there means two calls resolved some crate's features differently,
and the chain above it (once the AWS SDKs, `shared` and every function,
about 500 CPU-seconds) was compiled a second time beside the tests."""
import json
import sys

compiled = []
lines = sys.stdin.readlines()
for line in lines:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact" and not m.get("fresh", True):
        compiled.append(m["package_id"] + " " + m["target"]["name"] + (" (test)" if m["profile"]["test"] else ""))
if compiled:
    label = sys.argv[1] if len(sys.argv) > 1 else "a later cargo call"
    print(f"{label} compiled what the build step had not built ({len(compiled)}):", file=sys.stderr)
    for c in compiled:
        print("  " + c, file=sys.stderr)
    sys.exit(1)
sys.stdout.writelines(lines)

#!/usr/bin/env bash
# Checks the deployment templates (template.yaml and infra/waf.yaml) against
# AWS's security guidance with checkov (PyPI). Any failed check fails the
# script; a check that does not apply is skipped in the template itself
# (Metadata: checkov: skip:, each with a one-line reason), and the skipped
# checks are listed with their reasons.
#
# checkov pins many packages (boto3, …) of its own, so it lives in its own
# venv (.venv-checkov), apart from the stand-in's .venv.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
CHECKOV_VENV="$ROOT/.venv-checkov"
CHECKOV_PIN="3.3.*"
if [ ! -x "$CHECKOV_VENV/bin/checkov" ]; then
  log "installing checkov into .venv-checkov"
  python3 -m venv "$CHECKOV_VENV"
  venv_install "$CHECKOV_VENV" "checkov==$CHECKOV_PIN"
fi
# No network besides the package registries: no guideline download, no version check.
export BC_SKIP_MAPPING=TRUE CHECKOV_RUN_SCA_PACKAGE_SCAN_V2=false
TEMPLATES=(template.yaml infra/waf.yaml)
# One checkov run for both templates (its start-up, loading every check, is
# most of its time: four runs took about 12 CPU-s, one takes 4), with JSON
# output read below; --soft-fail, so that a non-zero exit is checkov itself
# failing (a failed check is counted from the report instead).
args=()
for t in "${TEMPLATES[@]}"; do args+=(-f "$t"); done
err="$ROOT/.local/checkov-$$.err"
mkdir -p "$ROOT/.local"
report=$("$CHECKOV_VENV/bin/checkov" "${args[@]}" --framework cloudformation --output json --skip-download --soft-fail 2>"$err") ||
  { cat "$err"; rm -f "$err"; log "checkov failed to run"; exit 1; }
rm -f "$err"
# Per template: its counts, each failed check with its place and guideline,
# and what was skipped and why (the reasons live in the templates). Fails on
# a failed check, a parsing error, or a template checkov did not read.
printf '%s' "$report" | python3 -c '
import collections, json, sys
data = json.load(sys.stdin)
reports = data if isinstance(data, list) else [data]
templates = sys.argv[1:]
by_file = {t: collections.defaultdict(list) for t in templates}
errors = []
for report in reports:
    results = report.get("results", {})
    errors += results.get("parsing_errors", [])
    for kind in ("passed_checks", "failed_checks", "skipped_checks"):
        for c in results.get(kind, []):
            by_file.setdefault(c["file_path"].lstrip("/"), collections.defaultdict(list))[kind].append(c)
ok = not errors
for e in errors:
    print(f"parsing error: {e}")
for t, checks in by_file.items():
    passed, failed, skipped = (checks[k] for k in ("passed_checks", "failed_checks", "skipped_checks"))
    print(f"{t}: Passed checks: {len(passed)}, Failed checks: {len(failed)}, Skipped checks: {len(skipped)}")
    if not (passed or failed or skipped):
        print(f"  {t}: no check ran (not read as a CloudFormation template?)")
        ok = False
    for c in failed:
        ok = False
        cid, name, resource = c["check_id"], c.get("check_name", ""), c["resource"]
        lines, guideline = "-".join(map(str, c.get("file_line_range") or [])), c.get("guideline") or ""
        print(f"  FAILED {cid} {name}: {resource} (lines {lines}) {guideline}".rstrip())
    seen = collections.OrderedDict()
    for c in skipped:
        seen.setdefault((c["check_id"], c.get("check_result", {}).get("suppress_comment", "")), []).append(c["resource"].split(".")[-1])
    for (cid, why), where in seen.items():
        names = ", ".join(where)
        print(f"  skipped {cid} ({len(where)}: {names}): {why}")
sys.exit(0 if ok else 1)
' "${TEMPLATES[@]}"

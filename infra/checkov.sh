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
status=0
for t in template.yaml infra/waf.yaml; do
  out=$("$CHECKOV_VENV/bin/checkov" -f "$t" --framework cloudformation --compact --quiet --skip-download 2>/dev/null) || status=1
  summary=$(printf '%s\n' "$out" | grep -E '^Passed checks' || true)
  echo "$t: ${summary:-no summary}"
  [ "$status" = 0 ] || printf '%s\n' "$out"
  # What was skipped, and why (the reasons live in the template).
  "$CHECKOV_VENV/bin/checkov" -f "$t" --framework cloudformation --output json --skip-download 2>/dev/null |
    python3 -c '
import json, sys, collections
data = json.load(sys.stdin)
for report in (data if isinstance(data, list) else [data]):
    seen = collections.OrderedDict()
    for c in report.get("results", {}).get("skipped_checks", []):
        seen.setdefault((c["check_id"], c.get("check_result", {}).get("suppress_comment", "")), []).append(c["resource"].split(".")[-1])
    for (cid, why), where in seen.items():
        names = ", ".join(where)
        print(f"  skipped {cid} ({len(where)}: {names}): {why}")
' || true
done
exit "$status"

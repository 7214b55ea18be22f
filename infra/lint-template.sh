#!/usr/bin/env bash
# Lints template.yaml with cfn-lint from the project venv (.venv at the repo
# root, created and given cfn-lint here if missing). Any finding, error or
# warning, fails the script. Informational notes are not counted.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"

if [[ ! -x "$venv/bin/python" ]]; then
    echo "creating $venv" >&2
    python3 -m venv "$venv"
fi
if [[ ! -x "$venv/bin/cfn-lint" ]]; then
    echo "installing cfn-lint into $venv" >&2
    "$venv/bin/pip" install --quiet "cfn-lint==1.58.*"
fi

cd "$root"
"$venv/bin/cfn-lint" --version >&2
# Exit code is non-zero for errors and warnings (cfn-lint's default level).
if "$venv/bin/cfn-lint" --non-zero-exit-code warning -- template.yaml; then
    echo "template.yaml: no cfn-lint findings" >&2
else
    status=$?
    echo "template.yaml: cfn-lint findings (exit $status)" >&2
    exit "$status"
fi

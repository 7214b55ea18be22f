#!/usr/bin/env bash
# The generated fuzz: Schemathesis (PyPI, in the project venv) runs every
# operation of the gateway's OpenAPI document as a signed-in customer,
# lawyer and admin (tokens through the API, signed in again as they age),
# with every check it has (`--checks all`): no 5xx, answers conform to the
# documented schema, statuses and headers, the stateful checks, and every
# 4xx is the JSON error shape of spec §8 (infra/security/fuzz_hooks.py).
# Among them valid data accepted (positive_data_acceptance) and invalid
# data refused (negative_data_rejection): the document says exactly what
# the server takes. The refusals of valid data that depend on state or role
# a generated request cannot know, or on a rule across fields, are listed,
# each with its reason, in infra/security/fuzz-refusals.tsv; any other
# finding fails the run (FUZZ_ACCEPTANCE=0 leaves those two checks out).
# Usage: BASE_URL=http://127.0.0.1:PORT infra/fuzz.sh   (a running gateway
# with the demo accounts; test.sh runs it beside the browser tests, on a
# gateway of its own, since admin's generated writes change data).
# QUICK=1: fewer examples and phases (the test command's mode).
# ROLES: the accounts to run as, in order (default all three; e.g.
# ROLES=admin@example.com for admin's part alone).
# ADMIN_PART=first|second: half of admin's operations (the two together are
# all of them). The first: the cases', customers', lawyers', academy's and
# support's operations, about two thirds of admin's time; the second: the
# rest. The test command runs the first after the customer and the lawyer,
# beside the browser tests, and the second from when the first of their
# shards is done, on a gateway of its own beside the first: alone, admin's
# part left one core idle for its last two minutes.
# Left out: the operations that end the caller's sessions or spend its
# sign-in and mail limits (the run would lock itself out), see EXCLUDE.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
ensure_venv
: "${BASE_URL:?BASE_URL of a running gateway}"
EXAMPLES=${EXAMPLES:-$([ "${QUICK:-0}" = 1 ] && echo 2 || echo 40)}
# The coverage phase (boundary values of every schema: lengths, bounds,
# formats) is most of the run time. Quick mode (the test command's) keeps
# it for admin, who reaches the most operations, and gives the customer the
# examples and the random fuzz: about 2 to 4 minutes on the 2-core dev
# machine under load instead of 8.
# One worker: with two, Hypothesis parses lambdas' source in both threads
# at once and CPython 3.11's ast raises "AST constructor recursion depth
# mismatch" (python/cpython#106905), a tool error that fails the run.
phases() { # email → Schemathesis phases
  if [ "${QUICK:-0}" != 1 ]; then echo examples,coverage,fuzzing,stateful
  elif [ "$1" = admin@example.com ]; then echo examples,coverage,fuzzing
  else echo examples,fuzzing; fi
}
# positive_data_acceptance is run as positive_data_acceptance_or_listed
# (fuzz_hooks.py: its refusals of valid data listed with their reasons).
if [ "${FUZZ_ACCEPTANCE:-1}" = 1 ]; then EXCLUDED_CHECKS=positive_data_acceptance
else EXCLUDED_CHECKS=positive_data_acceptance,positive_data_acceptance_or_listed,negative_data_rejection; fi
EXCLUDE='^/api/(token/|token/2fa/|token/refresh/|logout/|resend/2fa/|2fa/toggle-activation/|2fa/totp/|password/change/|password/recover/|profile/update/)'
ADMIN_FIRST_PART='^/api/(case|customer|lawyer|academy|support)/'

token() { # email → access token, through the API as the web signs in
  "$VENV/bin/python" - "$BASE_URL" "$1" <<'PY'
import json, sys, urllib.request
base, email = sys.argv[1], sys.argv[2]
req = urllib.request.Request(base + "/api/token/", method="POST", headers={"Content-Type": "application/json"},
    data=json.dumps({"email": email, "password": "Demo-2026-pass!"}).encode())
print(json.load(urllib.request.urlopen(req))["access_token"])
PY
}

status=0
# The customer and the lawyer first: admin's generated writes reach ids
# from earlier answers and may deactivate them (a later sign-in would fail).
for who in ${ROLES:-customer@example.com lawyer@example.com admin@example.com}; do
  include=() exclude=$EXCLUDE report=${who%%@*} what="every operation"
  if [ "$who" = admin@example.com ] && [ -n "${ADMIN_PART:-}" ]; then
    case $ADMIN_PART in
      first) include=(--include-path-regex "$ADMIN_FIRST_PART") ;;
      second) exclude="$EXCLUDE|$ADMIN_FIRST_PART" ;;
      *) log "fuzz: ADMIN_PART is first or second, not $ADMIN_PART"; exit 2 ;;
    esac
    report=admin-$ADMIN_PART what="the $ADMIN_PART part of the operations"
  fi
  log "fuzz: $what as $who ($EXAMPLES examples each)"
  # Its own step, so a failed sign-in stops the run instead of fuzzing
  # with an empty token (every operation 401, nothing tested).
  access=$(token "$who")
  [ -n "$access" ] || { log "fuzz: no access token for $who"; exit 1; }
  # The hooks' auth provider signs in and again as the token ages
  # (fuzz_hooks.SignedIn), not a fixed --header that would expire mid-run.
  FUZZ_BASE_URL="$BASE_URL" FUZZ_EMAIL="$who" FUZZ_PASSWORD="Demo-2026-pass!" \
  SCHEMATHESIS_HOOKS=fuzz_hooks PYTHONPATH="$ROOT/infra/security" \
    "$VENV/bin/st" run "$BASE_URL/api/openapi.json" \
    --checks all --exclude-checks "$EXCLUDED_CHECKS" \
    --max-examples "$EXAMPLES" --seed 22 --generation-deterministic \
    --phases "$(phases "$who")" --workers 1 --request-timeout 10 \
    --exclude-path-regex "$exclude" "${include[@]}" --continue-on-failure \
    --report junit --report-junit-path "$ROOT/.local/fuzz-$report.xml" \
    || status=1
done
exit $status

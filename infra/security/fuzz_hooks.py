"""Schemathesis hooks of the generated fuzz (infra/fuzz.sh).

Every 4xx answer must be the JSON error shape of spec §8:
{"status": <the HTTP status>, "message": <a stable key>, "errors": {field: [keys]}}.

Valid data must be accepted (Schemathesis' positive_data_acceptance), but
for the refusals listed in fuzz-refusals.tsv: answers that depend on state
a generated request cannot know (an e-mail already taken, a case not in the
status a move needs). Each is listed with its reason; any other refusal of
valid data fails the run, as does a listed key on another operation.
"""
import json
import os
import pathlib
import urllib.request

import schemathesis
from schemathesis.specs.openapi.checks import positive_data_acceptance as builtin_positive_data_acceptance

LIST = pathlib.Path(__file__).with_name("fuzz-refusals.tsv")


def load(path=LIST):
    """(METHOD, path, key) -> reason; `*` for both matches every operation."""
    listed = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 4 or not parts[3].strip():
            raise ValueError(f"{path.name}:{n}: want METHOD<TAB>path<TAB>key<TAB>reason, got {line!r}")
        method, op_path, key, reason = (p.strip() for p in parts)
        listed[(method.upper(), op_path, key)] = reason
    return listed


LISTED = load()


def keys_of(response):
    """The message key and every per-field key of an error answer."""
    try:
        body = response.json()
    except Exception:  # noqa: BLE001 - not JSON: nothing is listed for it
        return set()
    if not isinstance(body, dict):
        return set()
    keys = {body.get("message")}
    for field_keys in (body.get("errors") or {}).values():
        keys.update(field_keys if isinstance(field_keys, list) else [])
    return {k for k in keys if isinstance(k, str)}


def listed_refusal(case, response):
    """The listed reason this refusal of valid data is expected, if any."""
    method, path = case.operation.method.upper(), case.operation.path
    for key in keys_of(response):
        reason = LISTED.get((method, path, key)) or LISTED.get(("*", "*", key))
        if reason:
            return reason
    return None


@schemathesis.check
def positive_data_acceptance_or_listed(ctx, response, case):
    """positive_data_acceptance, but for the refusals fuzz-refusals.tsv lists."""
    try:
        return builtin_positive_data_acceptance(ctx, response, case)
    except AssertionError:
        if listed_refusal(case, response) is not None:
            return None
        raise


@schemathesis.check
def json_error_shape(ctx, response, case):
    if not 400 <= response.status_code < 500:
        return None
    try:
        body = response.json()
    except Exception as e:  # noqa: BLE001 - any parse failure is the finding
        raise AssertionError(f"{response.status_code} answer is not JSON: {response.text[:200]!r}") from e
    assert isinstance(body, dict), f"{response.status_code} answer is not an object: {body!r}"
    assert body.get("status") == response.status_code, f"status field {body.get('status')!r} != {response.status_code}"
    assert isinstance(body.get("message"), str) and body["message"], f"no message key: {body!r}"
    errors = body.get("errors", {})
    assert isinstance(errors, dict) and all(
        isinstance(v, list) and all(isinstance(k, str) for k in v) for v in errors.values()
    ), f"errors is not {{field: [keys]}}: {errors!r}"
    return None


# Access tokens live 15 minutes (shared::auth::jwt::ACCESS_TTL_SECS); a run
# on a loaded machine outlives several. With FUZZ_EMAIL set (infra/fuzz.sh),
# Schemathesis' own auth provider signs in through the API and sets the
# bearer token on every generated case, signed in again once the last token
# is 10 minutes old. (A command-line `--header` is not renewed: Schemathesis
# adds it after the hooks, so a run once met 173 operations answering only
# 401 after its first token expired.) Schemathesis leaves the header out
# itself where a check means to (missing_required_header, ignored_auth).
# No reactive sign-in on 401 (`retry_on`): the checks that send no token
# would sign in again each time and spend the account's sign-in limit.
TOKEN_AGE = 600


def sign_in(base_url, email, password):
    """An access token, signed in through the API as the web does."""
    req = urllib.request.Request(
        base_url + "/api/token/",
        method="POST",
        headers={"Content-Type": "application/json"},
        data=json.dumps({"email": email, "password": password}).encode(),
    )
    return json.load(urllib.request.urlopen(req, timeout=30))["access_token"]


class SignedIn:
    """The bearer token of FUZZ_EMAIL (schemathesis.AuthProvider)."""

    def get(self, case, ctx):
        return sign_in(os.environ["FUZZ_BASE_URL"], os.environ["FUZZ_EMAIL"], os.environ["FUZZ_PASSWORD"])

    def set(self, case, data, ctx):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


if os.environ.get("FUZZ_EMAIL"):
    schemathesis.auth(refresh_interval=TOKEN_AGE, retry_on=[])(SignedIn)

"""Schemathesis hooks of the generated fuzz (infra/fuzz.sh).

Every 4xx answer must be the JSON error shape of spec §8:
{"status": <the HTTP status>, "message": <a stable key>, "errors": {field: [keys]}}.
"""
import schemathesis


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

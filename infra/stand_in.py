"""The local AWS stand-in: moto's server, with each request handled under one
lock, and moto's DynamoDB made to cost what the call touches.

moto keeps its state in Python objects and does not make a conditional write
atomic with respect to other threads, so two concurrent TransactWriteItems or
conditional updates can both pass their conditions (DynamoDB never lets that
happen). Serialising the requests gives the stand-in DynamoDB's behaviour, so
the concurrency tests (two lawyers accepting one case, parallel hour entries,
two expiry runs at once) check the real rules, not moto's races. Connections
are still accepted in parallel; only the handling is one at a time.

At start it patches moto (infra/stand_in_dynamodb.py): a Query reads only
the queried partition (table or index), a transaction backs up only the items
it writes. Answers are moto's own, item for item. It refuses to start (exit
3) if moto is not the version the patch was written for.

Usage: python infra/stand_in.py HOST PORT [--state FILE] [--no-patch]

  --state FILE  load the state saved in FILE at start (if any; a bad file is
                reported and set aside) and save the whole state there on
                SIGTERM or SIGINT, before exiting.
  --no-patch    plain moto (the conformance test compares against it).

GET /_stand_in/status answers {"patched": ..., "moto": ..., "stats": {...}};
its "requests" and "handling_us" count the requests handled and the time
spent handling them (inside the lock), so a benchmark can tell what of a
call's time is the stand-in's.
"""

import argparse
import json
import os
import signal
import sys
import threading
import time

from werkzeug.serving import run_simple

# This directory, for the sibling modules (also when run from elsewhere).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description="moto server, one request at a time")
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--state", help="load the state from this file at start, save it there on exit")
    parser.add_argument("--no-patch", action="store_true", help="plain moto, without the DynamoDB patch")
    args = parser.parse_args()
    os.environ.setdefault("MOTO_PORT", str(args.port))

    import stand_in_dynamodb

    if not args.no_patch:
        try:
            stand_in_dynamodb.apply()
        except stand_in_dynamodb.PatchMismatch as e:
            log(f"stand-in: refusing to start: {e}")
            sys.exit(3)
        log(f"stand-in: moto {stand_in_dynamodb.MOTO_VERSION} with the DynamoDB patch (Query by partition, per-item transaction backup, top-level projections, attribute maps copied into answers)")
    else:
        log("stand-in: plain moto (--no-patch)")

    from moto import backends
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app

    # moto finds each request's service among its modules by listing its
    # package directory (a listdir and ~170 isdir calls per request); the
    # list cannot change while the server runs, so it is read once.
    moto_modules = tuple(backends.list_of_moto_modules())
    backends.list_of_moto_modules = lambda: moto_modules

    class FailuresLogged(MotoRequestHandler):
        """Logs the requests that failed only: a line for every request (which
        says no more than "POST / 200") was a tenth of the stand-in's time."""

        def log_request(self, code: object = "-", size: object = "-") -> None:
            try:
                failed = int(getattr(code, "value", code)) >= 400  # type: ignore[call-overload]
            except (TypeError, ValueError):
                failed = True
            if failed:
                super().log_request(code, size)

    app = DomainDispatcherApplication(create_backend_app)
    lock = threading.Lock()

    if args.state:
        import stand_in_state

        stand_in_state.load(args.state, log)
        saving = threading.Lock()

        def save_and_exit(signum, _frame):
            if not saving.acquire(blocking=False):
                return  # already saving (Ctrl-C and the script's TERM both arrive)
            log(f"stand-in: signal {signum}: saving the state")
            lock.acquire()  # wait for the request in hand; take no more
            try:
                stand_in_state.save(args.state, log)
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(0)

        signal.signal(signal.SIGTERM, save_and_exit)
        signal.signal(signal.SIGINT, save_and_exit)

    def one_at_a_time(environ, start_response):
        if environ.get("PATH_INFO") == "/_stand_in/status":
            with lock:
                body = json.dumps(stand_in_dynamodb.status()).encode()
            start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
            return [body]
        with lock:
            # Consume the body inside the lock: the whole request is handled at once.
            started = time.perf_counter_ns()
            try:
                return list(app(environ, start_response))
            finally:
                stand_in_dynamodb.STATS["requests"] += 1
                stand_in_dynamodb.STATS["handling_us"] += (time.perf_counter_ns() - started) // 1000

    run_simple(args.host, args.port, one_at_a_time, threaded=True, request_handler=FailuresLogged)


if __name__ == "__main__":
    main()

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
                reported and set aside) and save the whole state there: a few
                seconds after writes (SAVE_AFTER_SECONDS of quiet, at most
                SAVE_AT_MOST_SECONDS after the first unsaved write), so a
                crash or an out-of-memory kill loses only the last seconds;
                and on SIGTERM, SIGINT or SIGHUP (a closed terminal), before
                exiting. Every save writes a temporary file and renames it
                over FILE. A stop whose save failed says so and exits 1.
  --no-patch    plain moto (the conformance test compares against it).

GET /_stand_in/status answers {"patched": ..., "moto": ..., "stats": {...}};
its "requests" and "handling_us" count the requests handled and the time
spent handling them (inside the lock), so a benchmark can tell what of a
call's time is the stand-in's.
"""

import argparse
import io
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


# A save after this many seconds without a write, or at the latest this many
# seconds after the first unsaved one (a steady stream of writes is saved too).
SAVE_AFTER_SECONDS = float(os.environ.get("STAND_IN_SAVE_AFTER_SECONDS", "1"))
SAVE_AT_MOST_SECONDS = float(os.environ.get("STAND_IN_SAVE_AT_MOST_SECONDS", "3"))

# Requests that change nothing (DynamoDB reads by their X-Amz-Target; S3 and
# the rest by method), so a read-only session does not rewrite the file.
READS = {
    "GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems", "DescribeTable", "ListTables",
    "DescribeTimeToLive", "DescribeContinuousBackups", "ListTagsOfResource", "DescribeEndpoints",
}


def changes_state(environ: dict) -> bool:
    target = environ.get("HTTP_X_AMZ_TARGET", "")
    if target:
        return target.rsplit(".", 1)[-1] not in READS
    return environ.get("REQUEST_METHOD", "GET") not in ("GET", "HEAD", "OPTIONS")


class Autosave:
    """Saves the state a few seconds after writes, on its own thread, under
    the request lock (a save sees no request half done)."""

    def __init__(self, path: str, lock: threading.Lock) -> None:
        self.path, self.lock = path, lock
        self.first_unsaved: float | None = None
        self.last_write = 0.0
        self.guard = threading.Lock()
        threading.Thread(target=self._run, name="autosave", daemon=True).start()

    def wrote(self) -> None:
        now = time.monotonic()
        with self.guard:
            self.last_write = now
            if self.first_unsaved is None:
                self.first_unsaved = now

    def _due(self) -> bool:
        with self.guard:
            if self.first_unsaved is None:
                return False
            now = time.monotonic()
            return now - self.last_write >= SAVE_AFTER_SECONDS or now - self.first_unsaved >= SAVE_AT_MOST_SECONDS

    def _run(self) -> None:
        import stand_in_state

        while True:
            time.sleep(min(SAVE_AFTER_SECONDS, 0.5))
            if not self._due():
                continue
            with self.lock:
                with self.guard:
                    self.first_unsaved = None
                try:
                    saved = stand_in_state.save(self.path, log)
                except Exception as e:  # noqa: BLE001 - the server keeps serving; the next write tries again
                    log(f"stand-in: state NOT saved: {type(e).__name__}: {e}")
                    saved = False
            if not saved:
                self.wrote()  # still unsaved: try again,
                time.sleep(5)  # but not in a tight loop on a full disk


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

    class KeptAlive(FailuresLogged):
        """Keeps the connection open for the client's next request (HTTP/1.1
        keep-alive), where werkzeug's development server closes every
        connection after one answer: each request then cost the stand-in a
        new connection and a new thread, and the client a new connection.
        The request body is read whole before the app runs (its
        Content-Length, or its chunks), so the stream always stands at the
        next request, whatever the app read of it."""

        disable_nagle_algorithm = True  # each answer is sent whole at once: nothing to gather

        def run_wsgi(self) -> None:
            if self.headers.get("Expect", "").lower().strip(" \t") == "100-continue":
                self.wfile.write(b"HTTP/1.1 100 Continue\r\n\r\n")
            environ = self.environ = self.make_environ()
            body = read_body(environ)
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("wsgi.input_terminated", None)
            answer: list = []

            def start_response(status, headers, exc_info=None):
                answer[:] = [status, headers]
                return lambda data: None  # moto returns its body; nothing writes

            try:
                chunks = b"".join(self.server.app(environ, start_response))
            except Exception as e:  # noqa: BLE001 - answered as werkzeug does: a 500, the traceback logged
                from werkzeug.debug.tbtools import DebugTraceback
                from werkzeug.exceptions import InternalServerError

                self.server.log("error", f"Error on request:\n{DebugTraceback(e).render_traceback_text()}")
                self.close_connection = True
                chunks = b"".join(InternalServerError()(environ, start_response))
            status, headers = answer
            code_str, _, msg = status.partition(" ")
            code = int(code_str)
            self.send_response(code, msg)
            names = set()
            for key, value in headers:
                self.send_header(key, value)
                names.add(key.lower())
            head = environ["REQUEST_METHOD"] == "HEAD"
            if "content-length" not in names and not head and not (100 <= code < 200 or code in (204, 304)):
                self.send_header("Content-Length", str(len(chunks)))
            if self.close_connection:
                self.send_header("Connection", "close")
            # The head and the body in one write (end_headers writes the head
            # alone): written apart, a kept-alive connection waited about 40 ms
            # an answer for the client's delayed acknowledgement.
            self._headers_buffer.append(b"\r\n")
            if chunks and not head:
                self._headers_buffer.append(chunks)
            self.flush_headers()

    def read_body(environ: dict) -> bytes:
        stream = environ["wsgi.input"]
        if environ.get("wsgi.input_terminated"):  # chunked: read to its last chunk
            return stream.read()
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        return stream.read(length) if length > 0 else b""

    app = DomainDispatcherApplication(create_backend_app)
    lock = threading.Lock()

    autosave = None
    if args.state:
        import stand_in_state

        stand_in_state.load(args.state, log)
        autosave = Autosave(args.state, lock)
        saving = threading.Lock()

        def save_and_exit(signum, _frame):
            if not saving.acquire(blocking=False):
                return  # already saving (Ctrl-C and the script's TERM both arrive)
            log(f"stand-in: signal {signum}: saving the state")
            lock.acquire()  # wait for the request in hand (or a save); take no more
            saved = False
            try:
                saved = stand_in_state.save(args.state, log)
            finally:
                if not saved:
                    log(f"stand-in: stopped WITHOUT saving the state: {args.state} keeps the last save")
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(0 if saved else 1)

        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, save_and_exit)

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
                if autosave is not None and changes_state(environ):
                    autosave.wrote()
                stand_in_dynamodb.STATS["requests"] += 1
                stand_in_dynamodb.STATS["handling_us"] += (time.perf_counter_ns() - started) // 1000

    run_simple(args.host, args.port, one_at_a_time, threaded=True, request_handler=KeptAlive)


if __name__ == "__main__":
    main()

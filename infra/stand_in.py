"""The local AWS stand-in: moto's server, with each request handled under one
lock.

moto keeps its state in Python objects and does not make a conditional write
atomic with respect to other threads, so two concurrent TransactWriteItems or
conditional updates can both pass their conditions (DynamoDB never lets that
happen). Serialising the requests gives the stand-in DynamoDB's behaviour, so
the concurrency tests (two lawyers accepting one case, parallel hour entries,
two expiry runs at once) check the real rules, not moto's races. Connections
are still accepted in parallel; only the handling is one at a time.

Usage: python infra/stand_in.py HOST PORT
"""

import os
import sys
import threading

from werkzeug.serving import run_simple
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app


def main() -> None:
    host, port = sys.argv[1], int(sys.argv[2])
    os.environ.setdefault("MOTO_PORT", str(port))
    app = DomainDispatcherApplication(create_backend_app)
    lock = threading.Lock()

    def one_at_a_time(environ, start_response):
        with lock:
            # Consume the body inside the lock: the whole request is handled at once.
            return list(app(environ, start_response))

    run_simple(host, port, one_at_a_time, threaded=True, request_handler=MotoRequestHandler)


if __name__ == "__main__":
    main()

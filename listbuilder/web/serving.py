"""gunicorn settings for ``make run``, the benchmarks and the server tests.

    gunicorn --config python:listbuilder.web.serving --bind 127.0.0.1:8000 wsgi:app

Threaded workers (``gthread``), two processes per CPU of two threads each: a heavy request (a
1000-list batch, a 1 MiB import, a PDF, a big preview, a roster pack) holds one thread and
never a whole process, and ``/health`` or a list read goes to a free thread, most often in a
process no heavy request is computing in (threads of one process share Python's lock). With two
sync workers, two heavy requests held every worker and ``/health`` waited behind them (the
figures are in docs/performance.md). Python switches threads every
``switch_interval`` seconds when one of them computes; the default is long enough that a light
request paid it several times over behind a heavy one, so workers switch every millisecond.

Work budgets (``listbuilder.combat.budget``, ``listbuilder.formats.lists``) keep every request
well under a second; the worker timeout catches a worker whose main loop stops (a thread
stuck in C): a worker silent for ``timeout`` seconds is killed and replaced. ``max_requests`` with jitter recycles workers one at
a time, so a slow leak can never take the service down and the workers never restart together.
Request-line and header limits are gunicorn's own; the errors gunicorn answers itself (414, 431, 400 for broken
HTTP) use the API's JSON error shape instead of gunicorn's HTML page, and no answer names the
server software (no ``Server: gunicorn``).

gunicorn's control socket (``gunicornc``) is off: its default is one fixed path per user, so a
second instance on the same machine took the first one's socket. Set
``LISTBUILDER_CONTROL_SOCKET`` to a path of this instance's own to turn it on.

Environment: ``WEB_CONCURRENCY`` (worker processes, default two per CPU), ``LISTBUILDER_THREADS``
(threads per worker, default 2), ``LISTBUILDER_CONTROL_SOCKET`` (see above).
"""

from __future__ import annotations

import os
import sys

from listbuilder.compat.gunicorn import answer_errors_with, hide_server_header, write_head_with_body
from listbuilder.web.http.errors import gunicorn_error_response

preload_app = True  # books are loaded once in the master and shared by the workers
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * (os.cpu_count() or 1)))
worker_class = "gthread"
threads = int(os.environ.get("LISTBUILDER_THREADS", "2"))
switch_interval = 0.001  # seconds a computing thread runs before another may take the GIL
timeout = 10  # seconds a worker may stay silent before it is killed and replaced
graceful_timeout = 10  # seconds a worker has to finish its request on reload or shutdown
max_requests = 50_000  # recycle a worker after this many requests (a slow leak stays small) ...
max_requests_jitter = 5000  # ... plus up to this many, so workers do not recycle together
limit_request_line = 4094  # bytes in the request line (method, path, query): 414 beyond
limit_request_fields = 100  # header fields: 431 beyond
limit_request_field_size = 8190  # bytes in one header field: 431 beyond
control_socket_disable = not os.environ.get("LISTBUILDER_CONTROL_SOCKET")
if not control_socket_disable:
    control_socket = os.environ["LISTBUILDER_CONTROL_SOCKET"]


# The requests gunicorn answers itself (414, 431, broken HTTP): in the API's error shape; no
# answer names the server software; an answer's head and body leave in one write, so an instance
# killed under load never leaves the proxy in front a head without its body (docs/deploy.md).
answer_errors_with(gunicorn_error_response)
hide_server_header()
write_head_with_body()


def post_worker_init(worker: object) -> None:
    sys.setswitchinterval(switch_interval)

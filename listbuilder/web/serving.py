"""gunicorn settings for ``make run``, the benchmarks and the server tests.

    gunicorn --config python:listbuilder.web.serving --bind 127.0.0.1:8000 wsgi:app

Work budgets (``listbuilder.combat.budget``, ``listbuilder.schemas.lists``) keep every request
well under a second, so the worker timeout only catches the unexpected: a worker silent for
``timeout`` seconds is killed and replaced. ``max_requests`` with jitter recycles workers one at
a time, so a slow leak can never take the service down and the workers never restart together.
Request-line and header limits are gunicorn's own; the errors gunicorn answers itself (414, 431, 400 for broken
HTTP) use the API's JSON error shape instead of gunicorn's HTML page.
"""

from __future__ import annotations

import socket

from gunicorn import util

from listbuilder.web.errors import gunicorn_error_response

preload_app = True          # books are loaded once in the master and shared by the workers
workers = 2
timeout = 10                # seconds a worker may stay silent before it is killed and replaced
graceful_timeout = 10       # seconds a worker has to finish its request on reload or shutdown
max_requests = 50_000      # recycle a worker after this many requests (a slow leak stays small) ...
max_requests_jitter = 5000  # ... plus up to this many, so workers do not recycle together
limit_request_line = 4094   # bytes in the request line (method, path, query): 414 beyond
limit_request_fields = 100  # header fields: 431 beyond
limit_request_field_size = 8190  # bytes in one header field: 431 beyond


def _write_json_error(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    util.write_nonblock(sock, gunicorn_error_response(status_int, reason, mesg))


# gunicorn writes its own HTML error page through this one function; answer in our shape.
util.write_error = _write_json_error

"""gunicorn internals we rely on (written against gunicorn 27): the error answers gunicorn writes
itself in our JSON error shape, and no ``Server`` header.

Requests gunicorn cannot parse (a request line or headers over its limits, broken HTTP) are
answered by its worker before the app sees them, with an HTML page written by
``gunicorn.util.write_error``; it has no setting for that page, so :func:`answer_errors_with`
replaces the function. Every response's first lines come from ``Response.default_headers``
(``gunicorn.http.wsgi``), which always names the server software; it has no setting to leave
that out, so :func:`hide_server_header` wraps the method. ``tests/compat/test_gunicorn.py``
checks that a worker's ``handle_error`` and a response's ``send_headers`` still go through them.

``Response.write`` sends the head (``send_headers``) and the body in two writes, so an instance
killed between them left nginx holding a head it had already passed on and no body: a read it
could no longer retry on another instance (tests/deploy). :func:`write_head_with_body` sends a
whole body given in one piece with its head, in one write: the instance dies before it (nginx
retries the read elsewhere) or after it (the kernel still delivers the answer).
"""

from __future__ import annotations

import socket
from collections.abc import Callable

from gunicorn import util
from gunicorn.http import wsgi


def answer_errors_with(response: Callable[[int, str, str], bytes]) -> None:
    """Make gunicorn answer the errors it handles itself with ``response(status, reason, message)``,
    a whole HTTP response as bytes."""

    def write_error(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
        util.write_nonblock(sock, response(status_int, reason, mesg))

    util.write_error = write_error


def hide_server_header() -> None:
    """Leave ``Server: gunicorn/...`` out of every response gunicorn writes (once)."""
    default_headers = wsgi.Response.default_headers
    if getattr(default_headers, "hides_server", False):
        return

    def anonymous_headers(response: wsgi.Response) -> list[str]:
        return [line for line in default_headers(response) if not line.startswith("Server:")]

    anonymous_headers.hides_server = True  # type: ignore[attr-defined]
    wsgi.Response.default_headers = anonymous_headers  # type: ignore[method-assign]


def write_head_with_body() -> None:
    """A response whose whole body comes in one piece (its Content-Length) goes out with its head
    in one write (once). Chunked, streamed and bodiless answers are written as gunicorn writes them."""
    write = wsgi.Response.write
    if getattr(write, "joins_head", False):
        return

    def joined_write(response: wsgi.Response, data: bytes) -> None:
        if (
            response.headers_sent
            or response.chunked
            or response._omits_body
            or not isinstance(data, bytes)
            or response.response_length != len(data)
        ):
            return write(response, data)
        head = response.default_headers()  # as send_headers makes it
        head.extend(f"{name}: {value}\r\n" for name, value in response.headers)
        response.headers_sent = True
        response.sent += len(data)
        util.write(response.sock, util.to_bytestring("".join(head) + "\r\n", "latin-1") + data)
        return None

    joined_write.joins_head = True  # type: ignore[attr-defined]
    wsgi.Response.write = joined_write  # type: ignore[method-assign]

"""Security headers on every response: a strict Content-Security-Policy and its companions.

Pages load scripts and styles from our own ``static/`` only (no inline ``<script>``, no
``style`` attributes, no ``<style>`` blocks: see templates/ and static/js/), so the policy
allows nothing else. Scripts may still set ``element.style.x`` (CSSOM is not inline style).
The Swagger UI page (``/api/v1/docs``) is ours too and passes the same policy. Framing is allowed from our own origin only,
so a print preview can sit in a frame of the builder and no other site can frame us.
"""

from __future__ import annotations

from flask import Flask, Response

_DIRECTIVES = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "frame-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'self'",
}


CONTENT_SECURITY_POLICY = "; ".join(f"{name} {value}" for name, value in _DIRECTIVES.items())

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "SAMEORIGIN",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}
_NAMES = frozenset(name.lower() for name in HEADERS)


def add_headers(response: Response) -> Response:
    """Each header of HEADERS the response does not set itself.

    Read off the response's header names once: werkzeug's ``setdefault`` (and ``in``) looks a
    header up by raising and catching a KeyError when it is missing, which is the usual case,
    and five of them cost about as much as the rest of a ``/health`` request's own work.
    """
    headers = response.headers
    present = {name.lower() for name, _ in headers.items()} & _NAMES
    if not present:
        headers.extend(HEADERS)
    else:
        headers.extend({name: value for name, value in HEADERS.items() if name.lower() not in present})
    return response


def init_app(app: Flask) -> None:
    app.after_request(add_headers)

"""Security headers on every response: a strict Content-Security-Policy and its companions.

Pages load scripts and styles from our own ``static/`` only (no inline ``<script>``, no
``style`` attributes, no ``<style>`` blocks: see templates/ and static/js/), so the policy
allows nothing else. Scripts may still set ``element.style.x`` (CSSOM is not inline style).
The Swagger UI page (``/api/v1/docs``) is ours too and passes the same policy. Framing is allowed from our own origin only,
so a print preview can sit in a frame of the builder and no other site can frame us.

Two more, per answer (:func:`private_and_secure`):

- ``Cache-Control: no-store`` on every answer that hands out a token (a new list's edit token,
  an event's organiser token, a player's token) and on every answer to a request that carried
  one (``Authorization``: edits, the organiser's report, CSV, roster pack): no browser cache or
  proxy keeps a copy of a secret, or of an organiser's view of an event.
- ``Strict-Transport-Security`` when the request came over HTTPS (``wsgi.url_scheme``, which a
  configured ``LISTBUILDER_PUBLIC_URL`` of ``https://`` sets), for ``LISTBUILDER_HSTS_SECONDS``
  (one year by default; 0 sends none).
"""

from __future__ import annotations

from flask import Flask, Response, current_app, request

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


# Endpoints whose answer body holds a token handed out now.
TOKEN_ENDPOINTS = frozenset(
    {
        "saved_lists.SavedLists",
        "saved_lists.Copy",
        "events.Events",
        "events.Submissions",
        "day_api.Handover",
        "day_api.HandoverClaim",
    }
)


def private_and_secure(response: Response) -> Response:
    environ = request.environ
    if "HTTP_AUTHORIZATION" in environ or request.endpoint in TOKEN_ENDPOINTS:
        response.headers["Cache-Control"] = "no-store"
    if environ["wsgi.url_scheme"] == "https" and (seconds := current_app.config["HSTS_SECONDS"]):
        response.headers["Strict-Transport-Security"] = f"max-age={int(seconds)}"
    return response


def init_app(app: Flask) -> None:
    app.config.setdefault("HSTS_SECONDS", 365 * 24 * 3600)
    app.after_request(add_headers)
    app.after_request(private_and_secure)

"""One JSON error shape for every 4xx and 5xx: ``{code, status, message, errors}``.

``errors`` maps a field path in the request (``units[2].count``, ``book``) to messages, so a
client can point at what it sent wrong. Where they come from::

    HTTPException        werkzeug and flask-smorest: 404, 405 (with Allow), 413, 422 from schemas
    BodyError            listbuilder.web.http.bodies: malformed JSON (400), deep or non-text (422), 415
    ListError            listbuilder.lists.documents: unknown system or book (404/422)
    RosterTooLarge       listbuilder.printing.budget: a roster over its work budget (413)
    Exception            anything unexpected: 500, logged, no traceback sent

A person asking for a page that does not exist gets the HTML not-found page; everything else
(the API, assets, wrong methods) gets JSON. Errors that gunicorn answers itself before the app
sees the request (414, 431, 400 for broken HTTP) get the same shape from
:func:`gunicorn_error_response`.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.http import HTTP_STATUS_CODES

from listbuilder.lists.documents import ListError, field_errors
from listbuilder.printing.budget import RosterTooLarge
from listbuilder.store.errors import StaleVersion, StoreError, TokenMissing, TokenWrong
from listbuilder.web.http.bodies import BodyError, load_json_body

log = logging.getLogger(__name__)

_NAMES = {
    400: "Bad Request",
    404: "Not Found",
    413: "Content Too Large",
    414: "URI Too Long",
    415: "Unsupported Media Type",
    422: "Unprocessable Entity",
    431: "Request Header Fields Too Large",
}


def error_body(status: int, name: str, message: str, errors: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"code": status, "status": name, "message": message, "errors": errors or {}}


def _http_error(error: HTTPException) -> Any:
    status = error.code or 500
    if status == 404 and request.method == "GET" and not request.path.startswith("/api/"):
        return render_template("not_found.html", message=f"There is no page at {request.path}."), 404
    data = getattr(error, "data", None) or {}
    errors = data.get("errors") or data.get("messages") or {}
    if errors:
        # webargs nests body errors under the location ("json"); flatten them to field paths.
        errors = field_errors(errors.get("json", errors) if isinstance(errors, dict) else errors)
    message = data.get("message") or error.description or error.name
    if status == 422 and not data.get("message"):
        message = "the request body has invalid fields: see errors"
    if status == 400 and errors and not data.get("message"):  # webargs' own: a body it could not read
        message = "the request body is not valid JSON"
        errors = {"(body)": [_json_problem()]}
    response = jsonify(error_body(status, error.name, message, errors))
    response.status_code = status
    for name, value in error.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value  # Allow on 405, Retry-After, ...
    return response


def _json_problem() -> str:
    """Where the body stops being JSON (for parsers other than listbuilder.web.http.bodies')."""
    try:
        load_json_body(request.get_data())
    except BodyError as exc:
        return next(iter(exc.errors.values()))[0]
    return "not valid JSON"


def _body_error(error: BodyError) -> Any:
    return jsonify(
        error_body(error.status, _NAMES.get(error.status, "Bad Request"), error.message, error.errors)
    ), error.status


def _roster_too_large(error: RosterTooLarge) -> Any:
    return jsonify(error.as_dict()), error.status


def _list_error(error: ListError) -> Any:
    name = HTTP_STATUS_CODES.get(error.status, "Unprocessable Entity")
    return jsonify(error_body(error.status, name, error.message, error.errors)), error.status


def _unexpected(error: Exception) -> Any:
    log.exception("unhandled error", exc_info=error)
    server = InternalServerError()
    return jsonify(error_body(500, server.name, "internal error; the request was not processed")), 500


def gunicorn_error_response(status: int, reason: str, message: str) -> bytes:
    """A whole HTTP/1.1 error response in our shape, for errors gunicorn answers itself."""
    body = json.dumps(
        error_body(status, reason, message or reason, {"(request)": [message]} if message else {})
    ).encode()
    head = f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    head += "X-Content-Type-Options: nosniff\r\n\r\n"
    return head.encode("latin-1") + body


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(BodyError, _body_error)
    app.register_error_handler(ListError, _list_error)
    app.register_error_handler(RosterTooLarge, _roster_too_large)
    app.register_error_handler(Exception, _unexpected)


def store_error_response(error: StoreError) -> Any:
    """A store error in the API's one error shape, naming the header or field at fault
    (saved lists and events answer the same way)."""
    field = {TokenMissing: "Authorization", TokenWrong: "Authorization", StaleVersion: "If-Match"}.get(
        type(error), error.field
    )
    body = error_body(
        error.status, HTTP_STATUS_CODES.get(error.status, "Error"), error.message, {field: [error.message]}
    )
    response = jsonify(body)
    response.status_code = error.status
    if isinstance(error, TokenMissing):
        response.headers["WWW-Authenticate"] = 'Bearer realm="listbuilder"'
    if isinstance(error, StaleVersion):
        response.headers["ETag"] = etag(error.current)
    return response


def etag(number: int) -> str:
    """The ETag of a saved version (``"v3"``); a stale write answers with the current one."""
    return f'"v{number}"'

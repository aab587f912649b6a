"""One JSON error shape for every 4xx and 5xx: ``{code, status, message, errors}``.

``errors`` maps a field path in the request (``units[2].count``, ``book``) to messages, so a
client can point at what it sent wrong. Unexpected exceptions become a 500 in the same shape
without leaking a traceback.
"""

from __future__ import annotations

import logging
from typing import Any

import json

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException, InternalServerError

from listbuilder.lists import ListError, field_errors

log = logging.getLogger(__name__)


def error_body(status: int, name: str, message: str, errors: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"code": status, "status": name, "message": message, "errors": errors or {}}


def _http_error(error: HTTPException) -> Any:
    data = getattr(error, "data", None) or {}
    errors = data.get("errors") or data.get("messages") or {}
    if errors:
        # webargs nests body errors under the location ("json"); flatten them to field paths.
        errors = field_errors(errors.get("json", errors) if isinstance(errors, dict) else errors)
    message = data.get("message") or error.description or error.name
    if error.code == 422 and not data.get("message"):
        message = "the request body has invalid fields: see errors"
    if error.code == 400 and errors:
        message = "the request body is not valid JSON"
        errors = {"(body)": [_json_problem()]}
    return jsonify(error_body(error.code or 500, error.name, message, errors)), error.code


def _json_problem() -> str:
    """Where the body stops being JSON, so the client can find the typo."""
    try:
        json.loads(request.get_data(as_text=True))
    except json.JSONDecodeError as exc:
        return f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
    except UnicodeDecodeError:
        return "not valid JSON: the body is not UTF-8 text"
    return "not valid JSON"


def _list_error(error: ListError) -> Any:
    name = "Not Found" if error.status == 404 else "Unprocessable Entity"
    return jsonify(error_body(error.status, name, error.message, error.errors)), error.status


def _unexpected(error: Exception) -> Any:
    log.exception("unhandled error", exc_info=error)
    server = InternalServerError()
    return jsonify(error_body(500, server.name, "internal error; the request was not processed")), 500


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(ListError, _list_error)
    app.register_error_handler(Exception, _unexpected)

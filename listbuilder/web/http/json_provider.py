"""JSON answers encoded by orjson: the same values as Flask's encoder, at a fraction of the cost.

A combat preview answers with hundreds of probabilities, and the standard library spends more
time writing them (the shortest text that reads back as the same double, found digit by
digit) than the rest of the request outside the engine. orjson writes every double so that it
reads back bit for bit too; only its text may differ (``1e-5`` for ``1e-05``), and it writes
non-ASCII text as UTF-8 instead of ``\\u`` escapes. Both are the same JSON values.

Whatever orjson would write differently from Flask's provider, or cannot write, goes through
Flask's provider unchanged: dates and dataclasses (Flask has its own formats for them),
integers past 64 bits, text with lone surrogates, anything else it does not know. Debug mode's
indented output is Flask's too. Only :meth:`response` changes; ``dumps`` and ``loads`` (used by
templates' ``tojson``) stay Flask's.
"""

from __future__ import annotations

import weakref
from typing import Any, NoReturn

import orjson
from flask import Flask, Response
from flask.json.provider import DefaultJSONProvider

_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def _not_here(value: Any) -> NoReturn:
    raise TypeError(f"{type(value).__name__} is written by Flask's encoder")


def response_value(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """What ``jsonify(*args, **kwargs)`` writes, as Flask documents it: nothing is None, one
    value is itself, several are a list, keyword arguments a dict; never both kinds."""
    if args and kwargs:
        raise TypeError("app.json.response() takes either args or kwargs, not both")
    if kwargs:
        return kwargs
    return None if not args else args[0] if len(args) == 1 else args


class OrjsonProvider(DefaultJSONProvider):
    """Flask's JSON provider with orjson for response bodies (see the module docstring)."""

    sort_keys = False  # keep payloads in schema order

    def __init__(self, app: Flask) -> None:
        super().__init__(app)
        self.app = weakref.proxy(app)  # a proxy, as Flask's own: the app holds its provider

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = response_value(args, kwargs)
        if self.compact is False or (self.compact is None and self.app.debug):
            return super().response(obj)
        try:
            body = orjson.dumps(
                obj, default=_not_here, option=_OPTIONS | (orjson.OPT_SORT_KEYS if self.sort_keys else 0)
            )
        except TypeError:  # orjson.JSONEncodeError is one
            return super().response(obj)
        return self.app.response_class(body + b"\n", mimetype=self.mimetype)

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

from typing import Any, NoReturn

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider

_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def _not_here(value: Any) -> NoReturn:
    raise TypeError(f"{type(value).__name__} is written by Flask's encoder")


class OrjsonProvider(DefaultJSONProvider):
    """Flask's JSON provider with orjson for response bodies (see the module docstring)."""

    sort_keys = False  # keep payloads in schema order

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        if self.compact is False or (self.compact is None and self._app.debug):
            return super().response(obj)
        try:
            body = orjson.dumps(obj, default=_not_here, option=_OPTIONS | (orjson.OPT_SORT_KEYS if self.sort_keys else 0))
        except TypeError:  # orjson.JSONEncodeError is one
            return super().response(obj)
        return self._app.response_class(body + b"\n", mimetype=self.mimetype)

"""Reading request bodies: strict JSON with bounded nesting, and a byte limit streams obey too.

Python's ``json`` accepts more than JSON (``NaN``, ``Infinity``), turns ``1e999`` into
infinity, refuses integers of more than 4300 digits with a bare ValueError, recurses once per
nesting level (RecursionError near depth 1000) and lets lone surrogates (``"\\ud800"``)
through into strings that cannot be encoded again. Each of those became a 500 somewhere
further in. :func:`load_json_body` turns all of them into a :class:`BodyError`, a 4xx naming
the position in the body or the field, before any schema sees the data.

API blueprints read bodies with :class:`JsonBodyParser` (``listbuilder.web.http.rest.Blueprint``
sets it up). :func:`init_app` makes chunked bodies (no
Content-Length) obey ``MAX_CONTENT_LENGTH`` too: werkzeug stops reading them at the limit
without a word, so a 20 MB stream used to arrive as truncated, "unterminated" JSON.
"""

from __future__ import annotations

import json
import re
from typing import Any

import flask
import orjson
from marshmallow import Schema
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import RequestEntityTooLarge

# No legal request nests deeper than 8 (a preview side holding a list: side, list, units,
# entry, upgrades, row); 20 leaves room and stays far from the interpreter's recursion limit.
MAX_DEPTH = 20

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
# A NUL character can only reach a JSON string escaped; any text with one is refused (below).
_NUL_ESCAPE = b"\\u0000"
_LONG_DIGITS = re.compile(r"\d{4300,}")

# orjson reads an integer past 64 bits as a float; a body with a run of 19 digits anywhere
# (even in a string) is read by the standard library, which keeps it an integer.
_DIGITS_AS_ZEROS = bytes.maketrans(b"123456789", b"000000000")
_NINETEEN_DIGITS = b"0" * 19


class BodyError(Exception):
    """A body that is not acceptable JSON: ``status`` 400 (syntax) or 422 (a field's value).

    ``errors`` maps ``(body)`` or a field path (``units[0].name``) to messages, like every
    other error of the API.
    """

    def __init__(self, status: int, message: str, errors: dict[str, list[str]]):
        super().__init__(message)
        self.status = status
        self.message = message
        self.errors = errors


class _NotFinite(ValueError):
    def __init__(self, literal: str):
        super().__init__(literal)
        self.literal = literal


def _position(text: str, index: int) -> str:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return f"line {line} column {column}"


def _syntax(message: str) -> BodyError:
    return BodyError(400, "the request body is not valid JSON", {"(body)": [message]})


def _too_deep(path: str) -> BodyError:
    return BodyError(
        422,
        f"the request body nests deeper than {MAX_DEPTH} levels",
        {path or "(body)": [f"nested deeper than {MAX_DEPTH} levels"]},
    )


def _finite_float(literal: str) -> float:
    value = float(literal)
    if value in (float("inf"), float("-inf")):
        raise _NotFinite(literal)
    return value


def _no_constant(literal: str) -> Any:
    raise _NotFinite(literal)


def load_json_body(data: bytes) -> Any:
    """UTF-8 JSON bytes -> Python data; raises :class:`BodyError` naming where it goes wrong.

    orjson reads well-formed bodies (twice as fast as the standard library); it refuses
    everything above that Python's ``json`` lets through except deep nesting (up to 1024
    levels), so only depth is checked after it. Whatever it refuses is read again by the
    standard library, whose errors name the line and column.
    """
    if _NINETEEN_DIGITS not in data.translate(_DIGITS_AS_ZEROS):
        try:
            value = orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
        else:
            if may_hold_nul(data):
                _check_shape(value, check_text=True)
            elif not _shallow(data):
                _check_shape(value, check_text=False)
            return value
    return _load_with_json(data)


# Of a JSON text, keep the characters that open and close strings and containers, with both
# kinds of bracket written as [ and ]: what _shallow measures the nesting on.
_STRUCTURE = bytes.maketrans(b"{}", b"[]")
_NOT_STRUCTURE = bytes(set(range(256)) - set(b'"[]{}'))


def _shallow(data: bytes) -> bool:
    """Whether well-formed JSON *data* certainly nests at most MAX_DEPTH deep, read off the
    text in a few passes of C (False: a string holds a bracket, or it nests deeper; then
    :func:`_check_shape` walks the data). Walking the data costs more than reading it.

    Escaped backslashes and quotes are dropped first (left to right, so ``\\\\"`` still
    closes its string); then a string without brackets is an adjacent pair of quotes, and
    each pass that removes every ``[]`` takes one level off the nesting.
    """
    marks = data.replace(b"\\\\", b"").replace(b'\\"', b"").translate(_STRUCTURE, _NOT_STRUCTURE).replace(b'""', b"")
    if b'"' in marks:
        return False
    for _ in range(MAX_DEPTH):
        if not marks:
            return True
        marks = marks.replace(b"[]", b"")
    return not marks


def may_hold_nul(data: bytes) -> bool:
    """Whether JSON *data* may hold a NUL character in a string: a reader that skips
    :func:`load_json_body` (the list schemas' fast reader) must leave such a body to it."""
    return _NUL_ESCAPE in data


def _load_with_json(data: bytes) -> Any:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _syntax(f"not UTF-8 text: byte {exc.start} (0x{data[exc.start]:02x}) starts no UTF-8 character") from None
    try:
        value = json.loads(text, parse_float=_finite_float, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise _syntax(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except _NotFinite as exc:
        where = text.find(exc.literal)
        raise _syntax(
            f"the number {exc.literal[:20]} at {_position(text, where)} is not a finite JSON number"
        ) from None
    except RecursionError:
        raise _too_deep("") from None
    except ValueError:
        found = _LONG_DIGITS.search(text)
        where = _position(text, found.start()) if found else "somewhere in the body"
        raise _syntax(f"a number at {where} has more than 4300 digits") from None
    _check_shape(value, check_text=_SURROGATE_ESCAPE.search(text) is not None or "\\u0000" in text)
    return value


def _within_depth(value: Any) -> bool:
    """Whether *value* nests at most MAX_DEPTH deep (level by level, no paths: the fast case)."""
    level = [value] if type(value) in (dict, list) else []
    for _ in range(MAX_DEPTH):
        below = []
        for node in level:
            for child in node.values() if type(node) is dict else node:
                if type(child) in (dict, list):
                    below.append(child)
        if not below:
            return True
        level = below
    return False


def _check_shape(value: Any, check_text: bool) -> None:
    """Depth within MAX_DEPTH and, when the text had surrogate or NUL escapes, every string
    encodable and free of NUL (``_check_text``).

    The walk that names the path only runs when one of them may fail.
    """
    if not check_text and _within_depth(value):
        return
    stack: list[tuple[Any, str, int]] = [(value, "", 1)]
    while stack:
        node, path, depth = stack.pop()
        if isinstance(node, dict):
            items: Any = node.items()
            name = "{}{}" if not path else "{}.{}"
        elif isinstance(node, list):
            items = enumerate(node)
            name = "{}[{}]"
        else:
            if check_text and isinstance(node, str):
                _check_text(node, path)
            continue
        if depth > MAX_DEPTH:
            raise _too_deep(path)
        for key, child in items:
            where = name.format(path, key)
            if check_text and isinstance(key, str):
                _check_text(key, where)
            if isinstance(child, (dict, list)) or check_text:
                stack.append((child, where, depth + 1))


def _check_text(text: str, path: str) -> None:
    """Every string is sound Unicode and free of NUL: PostgreSQL cannot store a NUL in any text
    (a name with one was a 500 there, and SQLite stored it), and no name, note or list ever
    needs one; refused here once, for every field of every body, naming the field."""
    if "\0" in text:
        raise BodyError(
            422,
            "the request body has a NUL character in a text",
            {path or "(body)": [f"a NUL character (\\u0000) at character {text.index(chr(0))} is not allowed in text"]},
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(text[exc.start])
        raise BodyError(
            422,
            "the request body has text that is not Unicode",
            {path or "(body)": [f"a lone surrogate \\u{code:04x} at character {exc.start} is not text"]},
        ) from None


class JsonBodyParser(FlaskParser):
    """webargs' Flask parser with :func:`load_json_body`, and 415 for bodies sent as non-JSON."""

    def load_json(self, req: flask.Request, schema: Schema) -> Any:
        if not is_json_request(req):
            if req.content_length or req.headers.get("Transfer-Encoding"):
                raise BodyError(
                    415,
                    "send the body as JSON with Content-Type: application/json",
                    {"(body)": [f"content type {req.mimetype or 'none'} is not application/json"]},
                )
            return core.missing
        data = req.get_data(cache=True)
        if not data:
            return core.missing
        return load_json_body(data)


def refuse_long_streams() -> None:
    """413 for a chunked body longer than MAX_CONTENT_LENGTH (one with a length is refused
    by werkzeug before it is read). An endpoint named in the ``BODY_LIMITS`` config (endpoint
    -> bytes) is held to its own limit instead."""
    request = flask.request
    larger = flask.current_app.config.get("BODY_LIMITS", {}).get(request.endpoint)
    if larger is not None:
        request.max_content_length = larger
    if request.content_length is not None or "chunked" not in request.headers.get("Transfer-Encoding", "").lower():
        return
    limit = request.max_content_length
    data = request.get_data(cache=True)  # werkzeug reads at most `limit` bytes
    if limit is not None and len(data) >= limit and request.environ["wsgi.input"].read(1):
        raise RequestEntityTooLarge(f"the request body is over {limit} bytes")


def init_app(app: flask.Flask) -> None:
    app.before_request(refuse_long_streams)

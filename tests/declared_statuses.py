"""Every status an API operation answers in a test is one its OpenAPI entry declares (issue 29).

``default: ErrorOut`` is there for what the app itself never sends (a proxy's 502, gunicorn's
414), so it does not count: each operation must list each status it really answers. The tests
conftest.py hears every response any app sends in any test (Flask's ``request_finished``
signal) and fails the test when an ``/api/v1`` operation answered a status missing from its
entry. Every error path the suite drives (401, 403, 409, 412, 428, ...) is audited that way.
The JSON answers heard are kept too, for ``tests/answer_schemas.py`` to check against the
schemas their entries declare (issue 38).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import flask

from listbuilder.families import FAMILIES
from listbuilder.web.http.rest import built_spec
from tests.answer_schemas import Answer, document_key

METHODS = {"get", "put", "post", "delete", "patch"}
_DECLARED: dict[tuple[str, str], frozenset[str]] = {}
_READ: set[int] = set()  # apps whose documents were read (each once)
_DOCUMENTS: dict[int, str] = {}  # app -> the key of its document (tests/answer_schemas.py)
_FAMILIES_AT_START = frozenset(FAMILIES)


def openapi_path(rule: str) -> str:
    """``/api/v1/lists/<list_id>`` (or ``<string:list_id>``) as OpenAPI writes it."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def declared(spec: dict[str, Any]) -> dict[tuple[str, str], frozenset[str]]:
    """(path, METHOD) -> the statuses the operation declares, ``default`` left out."""
    return {
        (path, method.upper()): frozenset(status for status in operation["responses"] if status != "default")
        for path, item in spec["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    }


def undeclared(app: flask.Flask, response: flask.Response) -> str | None:
    """What is wrong with *response* to the current request, if it is an operation's status
    that the operation does not declare."""
    rule = flask.request.url_rule
    if rule is None or not rule.rule.startswith("/api/v1/"):
        return None
    if flask.request.method.lower() not in METHODS:
        return None  # HEAD, OPTIONS: no operation of their own
    key = (openapi_path(rule.rule), flask.request.method)
    if key not in _DECLARED and id(app) not in _READ:  # an app with operations not seen yet
        _read(app)
    statuses = _DECLARED.get(key)
    if statuses is None:  # not an operation: HEAD, OPTIONS, a 405 for a method it lacks
        return None
    if str(response.status_code) in statuses or f"{response.status_code // 100}XX" in statuses:
        return None
    return f"{key[1]} {key[0]} answered {response.status_code}, which its OpenAPI entry does not declare ({', '.join(sorted(statuses))})"


def _read(app: flask.Flask) -> None:
    _READ.add(id(app))
    spec = built_spec(app).to_dict()
    _DECLARED.update(declared(spec))
    _DOCUMENTS[id(app)] = document_key(spec)


def document_of(app: flask.Flask) -> str:
    """The key of *app*'s document (built now if no answer has needed it yet)."""
    if id(app) not in _DOCUMENTS:
        _read(app)
    return _DOCUMENTS[id(app)]


def json_answer(app: flask.Flask, response: flask.Response) -> Answer | None:
    """The current request's answer, if it is JSON from an ``/api/v1`` operation. Its app's
    document is read when the answer is checked, after the test (a test may assert that
    serving builds none: tests/web/test_startup.py), or now while a test has registered a
    family of its own (gone by then)."""
    rule = flask.request.url_rule
    if rule is None or not rule.rule.startswith("/api/v1/") or flask.request.method.lower() not in METHODS:
        return None
    if response.is_streamed or response.mimetype != "application/json" or response.status_code == 204:
        return None
    if set(FAMILIES) != _FAMILIES_AT_START:
        document_of(app)
    body = response.get_json(silent=True)
    return Answer(app, openapi_path(rule.rule), flask.request.method.lower(), response.status_code, body)


@contextmanager
def statuses_heard(answers: list[Answer] | None = None) -> Iterator[list[str]]:
    """The undeclared statuses any app answers while inside (and its JSON answers, into *answers*)."""
    heard: list[str] = []

    def check(sender: flask.Flask, response: flask.Response, **_: Any) -> None:
        problem = undeclared(sender, response)
        if problem:
            heard.append(problem)
        if answers is not None and (answer := json_answer(sender, response)) is not None:
            answers.append(answer)

    flask.request_finished.connect(check)
    try:
        yield heard
    finally:
        flask.request_finished.disconnect(check)

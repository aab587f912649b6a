"""Request bodies read by orjson and answers written by it: the same values as the standard
library's reading and Flask's writing, whichever path a body or an answer takes."""

from __future__ import annotations

import dataclasses
import datetime
import json

import pytest
from flask import Flask, jsonify

from listbuilder.web.http.bodies import MAX_DEPTH, BodyError, _load_with_json, _shallow, load_json_body
from listbuilder.web.http.json_provider import OrjsonProvider

BODIES = [
    b'{"name": "Host", "units": [{"key": "a", "upgrades": [{"section": "s", "option": "o", "count": 2}]}]}',
    b'{"name": "say \\"[hi]\\" \\\\", "n": [1, 2.5, -0.0, 1e-7, 12345678901234567890]}',
    b'{"big": 123456789012345678901234567890, "neg": -9223372036854775809}',  # past 64 bits
    b'{"text": "caf\\u00e9 \\ud83d\\ude00 \xc3\xa9", "brackets": "]]]}}}[[[{{{"}',
    b'[[[[[[[[[[[[[[[[[[[["deep enough"]]]]]]]]]]]]]]]]]]]]',
    b'"\\\\"',
    b"7",
]


@pytest.mark.parametrize("body", BODIES)
def test_orjson_reads_what_the_standard_library_reads(body):
    fast, slow = load_json_body(body), _load_with_json(body)
    assert fast == slow
    assert json.dumps(fast) == json.dumps(slow)  # same types too (integers stay integers)


def test_integers_past_64_bits_stay_integers():
    value = load_json_body(b'{"points_limit": 123456789012345678901234567890}')
    assert value["points_limit"] == 123456789012345678901234567890


def nest(depth: int, inner: str) -> bytes:
    return ("[" * depth + inner + "]" * depth).encode()


def test_nesting_at_the_limit_is_read():
    assert load_json_body(nest(MAX_DEPTH, '"x"')) is not None
    assert _shallow(nest(MAX_DEPTH, '"x"'))


@pytest.mark.parametrize("inner", ['"x"', '"]]]]]]"', '"[[[[", "]]]]"', '"\\\\"', '"\\"]"'])
def test_nesting_past_the_limit_is_refused_whatever_the_strings_hold(inner):
    with pytest.raises(BodyError) as raised:
        load_json_body(nest(MAX_DEPTH + 1, inner))
    assert raised.value.status == 422
    assert list(raised.value.errors.values()) == [[f"nested deeper than {MAX_DEPTH} levels"]]


def test_brackets_in_strings_never_make_a_deep_body_look_shallow():
    # A string that closes levels early would make the text look shallower than the data.
    body = b"[[" + b"[" * (MAX_DEPTH - 2) + b'"]]", 1' + b"]" * (MAX_DEPTH - 2) + b', "[["]]'
    assert not _shallow(body)


@pytest.fixture
def app():
    app = Flask(__name__)
    app.json = OrjsonProvider(app)
    return app


@dataclasses.dataclass
class Point:
    x: int


@pytest.mark.parametrize(
    "value",
    [
        {"p": [1e-05, 2.5e-13, 0.1, 1 / 3, 13.33333333333331], "name": "Königsberg ’24", "order": {"b": 1, "a": 2}},
        {"when": datetime.datetime(2026, 11, 23, 12, 0), "day": datetime.date(2026, 11, 23)},  # Flask's date format
        {"point": Point(3)},  # Flask's dataclass handling
        {"big": 2**70},  # past orjson's 64 bits
        {"text": "lone \ud800"},  # orjson writes no surrogates
    ],
)
def test_answers_hold_the_values_flask_writes(app, value):
    with app.app_context():
        answer = jsonify(value)
        app.json.compact = False  # debug-style indented output is Flask's own
        flask_answer = jsonify(value)
    assert answer.mimetype == "application/json"
    assert answer.get_data().endswith(b"\n")
    assert json.loads(answer.get_data()) == json.loads(flask_answer.get_data())
    assert list(json.loads(answer.get_data())) == list(value)  # keys in the order given

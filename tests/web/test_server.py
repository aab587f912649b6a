"""One real server process (gunicorn, with the settings ``make run`` uses) on loopback, spoken
to over HTTP like any client, including requests gunicorn itself refuses."""

from __future__ import annotations

import json

import pytest

from tests.loopback import Server, raw_request, request

ERROR_KEYS = {"code", "status", "message", "errors"}


@pytest.fixture(scope="module")
def server():
    with Server(workers=1) as served:
        yield served


@pytest.mark.server
def test_real_server_validates_a_list(server, registry):
    book = registry.books_of("grimdark-future")[0]
    unit = book.units[0]
    body = {
        "system": "grimdark-future",
        "book": book.id,
        "points_limit": 2000,
        "units": [{"key": "a", "unit": unit.id}],
    }
    answer = request(server.port, "POST", "/api/v1/lists/validate", body, timeout=5)
    assert answer.status == 200 and answer.json()["totals"]["pts"] == unit.cost["pts"]


@pytest.mark.server
def test_real_server_answers_bad_json_with_400(server):
    answer = request(server.port, "POST", "/api/v1/lists/validate", b"{nope", timeout=5)
    assert answer.status == 400 and answer.json()["status"] == "Bad Request"


@pytest.mark.server
@pytest.mark.parametrize(
    "request_bytes, status",
    [
        (b"GET /api/v1/" + b"a" * 5000 + b" HTTP/1.1\r\nHost: t\r\n\r\n", 414),
        (b"GET /api/v1/health HTTP/1.1\r\nHost: t\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n", 431),
        (
            b"GET /api/v1/health HTTP/1.1\r\nHost: t\r\n" + b"".join(b"X-H%d: 1\r\n" % i for i in range(150)) + b"\r\n",
            431,
        ),
    ],
)
def test_gunicorn_refusals_use_the_json_error_shape(server, request_bytes, status):
    answer = raw_request(server.port, request_bytes, timeout=10)
    assert answer.status == status
    assert answer.headers["Content-Type"] == "application/json"
    assert set(answer.json()) == ERROR_KEYS and answer.json()["code"] == status


@pytest.mark.server
def test_a_long_chunked_body_is_413_not_truncated_json(server):
    body = b'{"name": "' + b"x" * 3_000_000 + b'"}'
    chunks = b"".join(
        b"%x\r\n%s\r\n" % (len(body[i : i + 65536]), body[i : i + 65536]) for i in range(0, len(body), 65536)
    )
    head = b"POST /api/v1/lists/validate HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    answer = raw_request(server.port, head + chunks + b"0\r\n\r\n", timeout=10)
    assert answer.status == 413 and answer.json()["code"] == 413


@pytest.mark.server
def test_a_short_chunked_body_is_read_whole(server, registry):
    book = registry.books_of("grimdark-future")[0]
    body = json.dumps(
        {"system": "grimdark-future", "book": book.id, "units": [{"key": "a", "unit": book.units[0].id}]}
    ).encode()
    head = b"POST /api/v1/lists/validate HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    answer = raw_request(server.port, head + b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body), timeout=10)
    assert answer.status == 200 and answer.json()["totals"]["units"] == 1


@pytest.mark.server
def test_security_headers_over_http(server):
    answer = request(server.port, "GET", "/", timeout=5)
    assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
    assert answer.headers["X-Content-Type-Options"] == "nosniff"

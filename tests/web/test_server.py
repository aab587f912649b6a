"""One real server process (gunicorn, with the settings ``make run`` uses) on loopback, spoken
to over HTTP like any client, including requests gunicorn itself refuses."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = free_port()
    gunicorn = Path(sys.executable).with_name("gunicorn")
    database = tmp_path_factory.mktemp("db") / "server.sqlite3"
    proc = subprocess.Popen(
        [str(gunicorn), "--config", "python:listbuilder.web.serving", "--workers", "1", "--bind", f"127.0.0.1:{port}", "wsgi:app"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, "DATABASE_URL": f"sqlite:///{database}"},
    )
    base = f"http://127.0.0.1:{port}"
    # start-up includes wsgi.warm_up (database, WeasyPrint and one roster): seconds on a busy machine
    deadline = time.monotonic() + 60
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/v1/health", timeout=1):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(proc.stderr.read().decode() if proc.poll() is not None else "server did not start in 60 s")
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stderr.close()


@pytest.mark.server
def test_real_server_validates_a_list(server, registry):
    book = registry.books_of("grimdark-future")[0]
    unit = book.units[0]
    body = {"system": "grimdark-future", "book": book.id, "points_limit": 2000, "units": [{"key": "a", "unit": unit.id}]}
    request = urllib.request.Request(f"{server}/api/v1/lists/validate", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        report = json.loads(response.read())
    assert report["totals"]["pts"] == unit.cost["pts"]


@pytest.mark.server
def test_real_server_answers_bad_json_with_400(server):
    request = urllib.request.Request(f"{server}/api/v1/lists/validate", data=b"{nope", headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=5)
    with caught.value as error:
        assert error.code == 400
        assert json.loads(error.read())["status"] == "Bad Request"


ERROR_KEYS = {"code", "status", "message", "errors"}


def raw(base: str, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send bytes as they are; the status, headers and body of the answer."""
    host, port = base.removeprefix("http://").split(":")
    received = bytearray()
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        def read() -> None:
            try:
                while chunk := sock.recv(65536):
                    received.extend(chunk)
            except OSError:
                pass
        reader = threading.Thread(target=read)
        reader.start()
        try:
            sock.sendall(data)
        except OSError:
            pass  # answered and closed before everything was read
        reader.join(10)
    head, _, body = bytes(received).partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), headers, body


@pytest.mark.server
@pytest.mark.parametrize("request_bytes, status", [
    (b"GET /api/v1/" + b"a" * 5000 + b" HTTP/1.1\r\nHost: t\r\n\r\n", 414),
    (b"GET /api/v1/health HTTP/1.1\r\nHost: t\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n", 431),
    (b"GET /api/v1/health HTTP/1.1\r\nHost: t\r\n" + b"".join(b"X-H%d: 1\r\n" % i for i in range(150)) + b"\r\n", 431),
])
def test_gunicorn_refusals_use_the_json_error_shape(server, request_bytes, status):
    got, headers, body = raw(server, request_bytes)
    assert got == status
    assert headers["Content-Type"] == "application/json"
    assert set(json.loads(body)) == ERROR_KEYS and json.loads(body)["code"] == status


@pytest.mark.server
def test_a_long_chunked_body_is_413_not_truncated_json(server):
    body = b'{"name": "' + b"x" * 3_000_000 + b'"}'
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 65536]), body[i:i + 65536]) for i in range(0, len(body), 65536))
    head = b"POST /api/v1/lists/validate HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    status, _, answer = raw(server, head + chunks + b"0\r\n\r\n")
    assert status == 413 and json.loads(answer)["code"] == 413


@pytest.mark.server
def test_a_short_chunked_body_is_read_whole(server, registry):
    book = registry.books_of("grimdark-future")[0]
    body = json.dumps({"system": "grimdark-future", "book": book.id, "units": [{"key": "a", "unit": book.units[0].id}]}).encode()
    head = b"POST /api/v1/lists/validate HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    status, _, answer = raw(server, head + b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))
    assert status == 200 and json.loads(answer)["totals"]["units"] == 1


@pytest.mark.server
def test_security_headers_over_http(server):
    with urllib.request.urlopen(f"{server}/", timeout=5) as response:
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
        assert response.headers["X-Content-Type-Options"] == "nosniff"

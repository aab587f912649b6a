"""One real server process (gunicorn) on loopback, spoken to over HTTP like any client."""

from __future__ import annotations

import json
import os
import socket
import subprocess
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
        [str(gunicorn), "--workers", "1", "--bind", f"127.0.0.1:{port}", "wsgi:app"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, "DATABASE_URL": f"sqlite:///{database}"},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"{base}/api/v1/health", timeout=1):
                    break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail(proc.stderr.read().decode())
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

"""The production stack (deploy/, issue 36) for real: nginx in front of two gunicorn instances on
free loopback ports, sharing one database (PostgreSQL when TEST_DATABASE_URL is set, else one
SQLite file) and, when TEST_REDIS_URL answers, one Redis; started by ``deploy.stack.Stack``, the
code ``make stack`` runs. Skipped when nginx is not installed (``make nginx`` installs Debian's).

Slow clients: gunicorn alone, as ``make run`` serves (2 workers of 2 threads), answered none of
the /health probes within 1 s beside 20 slow-body and 20 slow-header clients (0/30 over 30 s,
measured with ``python -m tests.deploy.slow_clients``; the issue measured 0/14 with 8 slow-body
clients): each slow client holds one of its threads. Behind nginx, which reads every request
whole before an instance sees it, 150/150. A Redis of the test's own is SIGKILLed under load (rate
limits on, roster PDFs cached in it) and started again: no 5xx.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import threading
import time
from contextlib import nullcontext
from pathlib import Path

import pytest

from deploy import render
from deploy.stack import Stack, free_port, modules_folder, nginx_binary
from listbuilder.web.http.static_files import IMMUTABLE, REVALIDATE
from tests.deploy.slow_clients import measure
from tests.deploy.test_static_files import STATIC, offline_files, on_disk
from tests.loopback import request
from tests.web.test_saved_api import LIST

pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed (make nginx installs Debian's)"),
]


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    from tests.conftest import private_postgres_database

    env = {"LISTBUILDER_RATELIMIT_ENABLED": "false", "LISTBUILDER_THREADS": "2"}  # one client, thousands of requests
    redis_url = os.environ.get("TEST_REDIS_URL")
    sqlite = f"sqlite:///{tmp_path_factory.mktemp('db') / 'stack.sqlite3'}"
    database = private_postgres_database() if os.environ.get("TEST_DATABASE_URL") else nullcontext(sqlite)
    with database as url, open(tmp_path_factory.mktemp("stack") / "instances.log", "w+b") as log:
        with Stack(workers=2, database_url=url, redis_url=redis_url, env=env, output=log) as running:
            yield running


def test_what_nginx_serves_itself_and_what_it_passes_on(stack):
    health = request(stack.port, "GET", "/api/v1/health")
    assert health.status == 200 and health.headers["Server"] == "nginx"  # no version
    assert "X-Content-Type-Options" in health.headers  # the app's own headers, passed on

    static = request(stack.port, "GET", "/static/js/builder.js", headers={"Accept-Encoding": "gzip"})
    assert static.status == 200 and static.headers["Content-Encoding"] == "gzip"
    assert static.headers["Cache-Control"] == "public, max-age=300, must-revalidate"  # a plain name: no version
    assert static.headers["X-Content-Type-Options"] == "nosniff" and "Content-Security-Policy" in static.headers
    again = request(stack.port, "GET", "/static/js/builder.js", headers={"If-None-Match": static.headers["ETag"]})
    assert again.status == 304

    worker = request(stack.port, "GET", "/sw.js")
    assert worker.status == 200 and worker.headers["Content-Type"] == "text/javascript"
    assert worker.headers["Cache-Control"] == "no-cache"
    assert worker.body == Path("static/app/sw.js").read_bytes()

    too_big = request(stack.port, "POST", "/api/v1/lists/validate", b"[" + b" " * (1024 * 1024), timeout=10)
    assert too_big.status == 413 and too_big.json()["code"] == 413  # the API's error shape, from nginx


def test_a_saved_list_keeps_its_strong_etag_through_nginx(stack):
    made = request(stack.port, "POST", "/api/v1/lists", LIST)
    assert made.status == 201
    read = request(stack.port, "GET", f"/api/v1/lists/{made.json()['id']}", headers={"Accept-Encoding": "gzip, br"})
    assert read.status == 200 and len(read.body) > 1024  # long enough for gzip, were it compressed
    assert read.headers["ETag"] == '"v1"' and "Content-Encoding" not in read.headers  # gzip makes it W/"v1"


def served_version(stack: Stack) -> str:
    """The version whose prefix nginx keeps a year, as render.py wrote it into the running site."""
    site = (stack.folder / "listbuilder.conf").read_text()
    found = re.search(r"location \^~ /static/([0-9a-f]{16})/ ", site)
    assert found, "no versioned location in the site"
    return found.group(1)


def test_pages_name_this_releases_static_files_and_nginx_serves_them_for_a_year(stack):
    """The version in the pages (the instances') is the prefix nginx keeps a year (render's), and
    nginx serves those files from disk: no instance is named in its log for them."""
    version = served_version(stack)
    since = len(stack.access_log.read_text().splitlines())
    urls: set[str] = set()
    for page in ("/", "/build/gf-cinder-covenant", "/lists"):
        html = request(stack.port, "GET", page).body.decode()
        urls |= set(STATIC.findall(html))
    assert len(urls) >= 5 and all(url.startswith(f"/static/{version}/") for url in urls), urls
    for url in sorted(urls):
        answer = request(stack.port, "GET", url)
        assert answer.status == 200 and answer.headers["Cache-Control"] == IMMUTABLE, url
        assert answer.body == on_disk(url) and "Content-Security-Policy" in answer.headers
        again = request(stack.port, "GET", url, headers={"If-None-Match": answer.headers["ETag"]})
        assert again.status == 304 and again.headers["Cache-Control"] == IMMUTABLE
    served = [line for line in stack.access_log.read_text().splitlines()[since:] if f"/static/{version}/" in line]
    assert len(served) == 2 * len(urls) and all(" upstream=- " in line for line in served)

    other = "0123456789abcdef" if version != "0123456789abcdef" else "fedcba9876543210"
    stale = request(stack.port, "GET", f"/static/{other}/js/builder.js")  # a page of another release
    assert stale.status == 200 and stale.headers["Cache-Control"] == REVALIDATE
    assert stale.body == on_disk("/static/js/builder.js")


def test_the_service_workers_files_load_through_nginx(stack):
    for name in offline_files():
        answer = request(stack.port, "GET", name)
        assert answer.status == 200, name
        if name.startswith("/static/"):
            assert answer.headers["Cache-Control"] == REVALIDATE and answer.body == on_disk(name)


def _has_brotli() -> bool:
    nginx = nginx_binary()
    return nginx is not None and render.brotli_module(modules_folder(nginx)) is not None


@pytest.mark.skipif(not _has_brotli(), reason="nginx has no brotli module here (make nginx installs Debian's)")
def test_brotli_for_whoever_accepts_it_static_or_from_the_app(stack):
    brotli = pytest.importorskip("brotli")
    url = f"/static/{served_version(stack)}/js/builder.js"
    for accepted in ("br", "gzip, deflate, br"):
        answer = request(stack.port, "GET", url, headers={"Accept-Encoding": accepted})
        assert answer.headers["Content-Encoding"] == "br" and "Accept-Encoding" in answer.headers["Vary"], accepted
        assert brotli.decompress(answer.body) == on_disk(url)
    gzipped = request(stack.port, "GET", url, headers={"Accept-Encoding": "gzip"})
    assert gzipped.headers["Content-Encoding"] == "gzip"
    systems = request(stack.port, "GET", "/api/v1/systems", headers={"Accept-Encoding": "br"})
    assert systems.headers["Content-Encoding"] == "br" and json.loads(brotli.decompress(systems.body))


def test_slow_clients_hold_nginx_not_the_instances(stack):
    """20 slow-body clients (Content-Length: 100000, then a byte a second) and 20 sending a header
    line a second, for 30 s: /health, probed every 0.2 s, answers within 1 s at least 99 % of
    the time (gunicorn alone: 0 %, see the module's docstring)."""
    probes = measure(stack.port, seconds=30)
    assert probes.sent >= 140 and probes.rate >= 0.99, probes


def _upstreams(stack: Stack, since: int) -> list[str]:
    lines = stack.access_log.read_text().splitlines()[since:]
    return [m.group(1) for line in lines if (m := re.search(r" upstream=(\S+) upstream_status=200\b", line))]


def test_an_instance_killed_under_load_costs_no_read_and_comes_back(stack):
    made = request(stack.port, "POST", "/api/v1/lists", LIST).json()
    paths = ["/api/v1/health", "/api/v1/systems", f"/api/v1/lists/{made['id']}", "/"]
    failures: list[str] = []
    reads = [0]
    writes: dict[str, int] = {}  # acknowledged list id -> status, or "refused <n>"
    stopping = threading.Event()

    def read(n: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=10)
        while not stopping.is_set():
            path = paths[(reads[0] + n) % len(paths)]
            try:
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
                if response.status != 200:
                    failures.append(f"GET {path}: {response.status}")
                reads[0] += 1
            except (OSError, http.client.HTTPException) as error:
                failures.append(f"GET {path}: {error!r}")
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=10)
        conn.close()

    def write() -> None:
        n = 0
        while not stopping.is_set():
            n += 1
            try:
                answer = request(stack.port, "POST", "/api/v1/lists", {**LIST, "name": f"write {n}"}, timeout=10)
            except (OSError, http.client.HTTPException) as error:
                failures.append(f"POST: {error!r}")
                continue
            if answer.status == 201:
                writes[answer.json()["id"]] = n
            elif answer.status != 502:  # refused by nginx: the instance died under it, nothing claimed
                failures.append(f"POST: {answer.status}")

    workers = [threading.Thread(target=read, args=(n,)) for n in range(4)] + [threading.Thread(target=write)]
    for thread in workers:
        thread.start()
    try:
        time.sleep(2)
        before = reads[0]
        stack.kill_instance(0)
        time.sleep(4)
        assert reads[0] > before + 50  # the load went on
    finally:
        stopping.set()
        for thread in workers:
            thread.join(15)
    assert failures == []
    for list_id, n in writes.items():  # every acknowledged write is there, on whichever instance answers
        read_back = request(stack.port, "GET", f"/api/v1/lists/{list_id}")
        assert read_back.status == 200 and read_back.json()["list"]["name"] == f"write {n}"

    since = len(stack.access_log.read_text().splitlines())
    stack.restart_instance(0)
    back = f"127.0.0.1:{stack.ports[0]}"
    deadline = time.monotonic() + 15  # nginx tries it again once fail_timeout (3 s) has passed
    while back not in _upstreams(stack, since) and time.monotonic() < deadline:
        assert request(stack.port, "GET", "/api/v1/systems").status == 200
        time.sleep(0.05)
    assert back in _upstreams(stack, since)


@pytest.fixture()
def own_redis(tmp_path):
    """A redis-server of this test's own on a free loopback port (it gets killed: never the
    machine's), started again on the same port by calling the returned function."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed: the Redis outage through the stack is not tried")
    port = free_port()
    processes: list[subprocess.Popen[bytes]] = []

    def start() -> subprocess.Popen[bytes]:
        command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        processes.append(process)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return process
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    start()
    yield f"redis://127.0.0.1:{port}/0", start, processes
    for process in processes:
        process.kill()
        process.wait(10)


def test_redis_killed_and_restarted_under_load_costs_no_error(own_redis, tmp_path):
    """The rate limits (on, with budgets no test reaches) and the roster cache live in a Redis
    that is SIGKILLed under load and started again: no answer is a 5xx, none is lost."""
    redis_url, start_redis, processes = own_redis
    env = {
        "LISTBUILDER_RATELIMIT_ENABLED": "true",
        "LISTBUILDER_RATE_LIMIT": "1000000/minute",
        "LISTBUILDER_HEAVY_RATE_LIMIT": "1000000/minute",
        "LISTBUILDER_THREADS": "2",
    }
    database = f"sqlite:///{tmp_path / 'stack.sqlite3'}"
    with (
        open(tmp_path / "instances.log", "w+b") as log,
        Stack(workers=2, database_url=database, redis_url=redis_url, env=env, output=log) as stack,
    ):
        calls = [("GET", "/api/v1/systems", None), ("POST", "/api/v1/rosters/pdf?paper=a4&layout=sheet", LIST)]
        failures: list[str] = []
        answered = [0]
        stopping = threading.Event()

        def load(n: int) -> None:
            while not stopping.is_set():
                method, path, body = calls[(answered[0] + n) % len(calls)]
                try:
                    status = request(stack.port, method, path, body, timeout=15).status
                except (OSError, http.client.HTTPException) as error:
                    failures.append(f"{method} {path}: {error!r}")
                    continue
                answered[0] += 1
                if status != 200:
                    failures.append(f"{method} {path}: {status}")

        threads = [threading.Thread(target=load, args=(n,)) for n in range(4)]
        for thread in threads:
            thread.start()
        try:
            time.sleep(2)
            processes[-1].kill()
            time.sleep(3)
            before = answered[0]
            start_redis()
            time.sleep(3)
            assert answered[0] > before + 20
        finally:
            stopping.set()
            for thread in threads:
                thread.join(20)
    assert failures == []

"""The quotas with Redis (issue 36): one budget per client, shared by every endpoint and every
instance; and a Redis that stalls or drops its connections while requests are in flight,
between the limiter's check and its header reads, never makes an answer a 5xx.

Redis is the tests' own (``TEST_REDIS_URL``, as ``.ci/run`` sets it); without one these skip.
Each test is a client address of its own (a random one in the documentation prefix), so the
counts of an earlier run still inside their minute never meet this one's.
"""

from __future__ import annotations

import os
import random
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.web.test_saved_api import LIST


@pytest.fixture()
def redis_url() -> str:
    url = os.environ.get("TEST_REDIS_URL")
    if not url:
        pytest.skip("TEST_REDIS_URL is not set: the shared counts need a Redis")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        pytest.skip(f"Redis at TEST_REDIS_URL does not answer: {exc}")
    return url


@pytest.fixture()
def limited_on(registry, database_url, monkeypatch):
    """``make(redis_url, **config)``: a new app instance with the limits on, counting in that Redis."""
    from listbuilder.web import create_app

    made = []

    def make(url: str, **config):
        monkeypatch.setenv("REDIS_URL", url)  # read by create_app, as each instance reads its environment
        settings = {"TESTING": True, "REGISTRY": registry, "DATABASE_URL": database_url, "RATELIMIT_ENABLED": True}
        made.append(create_app({**settings, **config}))
        return made[-1]

    yield make
    for app in made:
        if (opened := app.extensions.get("listbuilder.database")) is not None:
            opened.dispose()


def a_client() -> dict[str, str]:
    return {"REMOTE_ADDR": f"2001:db8::{random.getrandbits(32):x}:{random.getrandbits(16):x}"}


def test_one_budget_per_client_across_endpoints_and_instances(limited_on, redis_url):
    one, two = limited_on(redis_url, RATE_LIMIT="10/minute"), limited_on(redis_url, RATE_LIMIT="10/minute")
    client, other = a_client(), a_client()
    paths = ["/api/v1/systems", "/api/v1/books", "/api/v1/openapi.json", "/api/v1/lists/AAAAAAAAAAAA", "/"]
    answers = [
        (app.test_client().get(paths[n % len(paths)], environ_base=client).status_code)
        for n, app in enumerate([one, two] * 10)
    ]
    assert answers.count(429) == 10 and 429 not in answers[:10], answers  # 5 from each instance, then none
    for app in (one, two):
        refused = app.test_client().get("/api/v1/books", environ_base=client)
        assert refused.status_code == 429 and "LISTBUILDER_RATE_LIMIT" in refused.json["message"]
        assert int(refused.headers["Retry-After"]) > 0
    assert two.test_client().get("/api/v1/books", environ_base=other).status_code == 200  # another client
    assert one.test_client().get("/api/v1/health", environ_base=client).status_code == 200  # never counted


def test_a_heavy_request_spends_from_both_budgets(limited_on, redis_url):
    app = limited_on(redis_url, RATE_LIMIT="3/minute", HEAVY_RATE_LIMIT="5/minute")
    client, web = a_client(), app.test_client()
    assert web.post("/api/v1/lists/validate-batch", json={"lists": [LIST]}, environ_base=client).status_code == 200
    assert [web.get("/api/v1/systems", environ_base=client).status_code for _ in range(3)] == [200, 200, 429]


class RedisGate:
    """A TCP relay on loopback in front of the tests' Redis, which a test can make fail while
    requests are in flight: ``stall()`` forwards nothing more (a Redis that hangs), ``cut()``
    closes every connection and then accepts new ones only to close them (a Redis that died),
    ``open()`` forwards again."""

    def __init__(self, upstream: str):
        parts = urlsplit(upstream)
        self.upstream = (parts.hostname or "127.0.0.1", parts.port or 6379)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.05)
        port = self.listener.getsockname()[1]
        self.url = urlunsplit(parts._replace(netloc=f"127.0.0.1:{port}"))
        self.mode = "open"
        self.sockets: set[socket.socket] = set()
        self.lock = threading.Lock()
        self.running = True
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def open(self) -> None:
        self.mode = "open"

    def stall(self) -> None:
        self.mode = "stall"

    def cut(self) -> None:
        self.mode = "cut"
        with self.lock:
            for sock in self.sockets:
                _close(sock)
            self.sockets.clear()

    def close(self) -> None:
        self.running = False
        self.cut()
        self.thread.join(5)
        self.listener.close()

    def _accept(self) -> None:
        while self.running:
            try:
                client, _ = self.listener.accept()
            except TimeoutError:
                continue
            if self.mode == "cut":
                _close(client)
                continue
            try:
                server = socket.create_connection(self.upstream, timeout=2)
            except OSError:
                _close(client)
                continue
            with self.lock:
                self.sockets |= {client, server}
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                while self.mode == "stall":
                    time.sleep(0.01)
                if self.mode == "cut":
                    break
                sink.sendall(data)
        except OSError:
            pass
        _close(source)
        _close(sink)


def _close(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()


@pytest.fixture()
def gate(redis_url) -> Iterator[RedisGate]:
    relay = RedisGate(redis_url)
    yield relay
    relay.close()


def test_redis_failing_between_the_check_and_the_headers_answers_no_5xx(limited_on, gate):
    """Every request passes its check against Redis, then Redis hangs while all of them read it
    again for their ``X-RateLimit`` headers: the first to fail switches the limiter to counting
    in memory, and the others, already waiting on Redis, fail after it (that gave a 500 before)."""
    from listbuilder.web.http import quotas

    app = limited_on(gate.url, RATE_LIMIT="1000/minute")
    quotas.start(app)
    threads = 8
    checked = threading.Barrier(threads, action=gate.stall, timeout=30)

    @app.after_request  # runs before the limiter's own (Flask runs the last added first)
    def hold(response):
        checked.wait()
        return response

    statuses: list[int] = []

    def ask(n: int) -> None:
        path = ["/api/v1/systems", "/api/v1/books"][n % 2]
        statuses.append(app.test_client().get(path, environ_base=a_client()).status_code)

    workers = [threading.Thread(target=ask, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert statuses == [200] * threads


def test_redis_stalling_and_dying_under_load_answers_no_5xx(limited_on, gate):
    """Eight clients for three seconds over five endpoints, while Redis in turn answers, hangs
    and drops every connection: not one 5xx, and the load is still answered."""
    app = limited_on(gate.url, RATE_LIMIT="100000/minute")
    calls = [
        ("GET", "/api/v1/systems", None),
        ("GET", "/api/v1/books", None),
        ("GET", "/api/v1/lists/AAAAAAAAAAAA", None),
        ("POST", "/api/v1/lists/validate", LIST),
        ("GET", "/", None),
    ]
    statuses: Counter[int] = Counter()
    done = threading.Event()

    def load(n: int) -> None:
        web, client = app.test_client(), a_client()
        while not done.is_set():
            method, path, body = calls[n % len(calls)]
            statuses[web.open(path, method=method, json=body, environ_base=client).status_code] += 1
            n += 1

    def weather() -> None:
        while not done.is_set():
            for step in (gate.open, gate.stall, gate.cut):
                step()
                time.sleep(0.2)
        gate.open()

    workers = [threading.Thread(target=load, args=(n,)) for n in range(8)] + [threading.Thread(target=weather)]
    for worker in workers:
        worker.start()
    time.sleep(3)
    done.set()
    for worker in workers:
        worker.join(60)
    assert not [status for status in statuses if status >= 500], statuses
    assert statuses[200] > 100, statuses

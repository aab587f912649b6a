"""The app under real gunicorn on a free loopback port, and the plain HTTP clients that talk to it.

Shared by the server tests (``tests/web/test_server.py``, ``test_saved_server.py``) and the
benchmarks (``benchmarks/server.py``, ``store.py``, ``events.py``), which import it as
``tests.loopback`` as they already import the Monte Carlo simulator. It lives beside the tests,
not in ``listbuilder/``: it is how we exercise the service, not part of it, and the wheel
ships only ``listbuilder``. No pytest here, so a benchmark runs without it.

Everything talks to 127.0.0.1 only, and every wait is bounded in time.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Answer(NamedTuple):
    """One HTTP answer: its status, the seconds it took, its body and its headers."""

    status: int
    seconds: float
    body: bytes
    headers: dict[str, str]

    def json(self) -> Any:
        """The body as JSON ({} when empty)."""
        return json.loads(self.body) if self.body else {}


def request(
    port: int,
    method: str,
    path: str,
    body: bytes | dict | list | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 35,
) -> Answer:
    """One request on a new connection (a dict or list body is sent as JSON). Raises OSError
    and http.client's errors when the server dies under it."""
    data = json.dumps(body).encode() if isinstance(body, (dict, list)) else body
    sent = {**({"Content-Type": "application/json"} if data is not None else {}), **(headers or {})}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    start = time.perf_counter()
    try:
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        received = response.read()
        return Answer(response.status, time.perf_counter() - start, received, dict(response.getheaders()))
    finally:
        conn.close()


def raw_request(port: int, data: bytes, timeout: float = 35) -> Answer:
    """Bytes sent as they are, for what http.client refuses to send (over-long request lines,
    hand-made chunked bodies). Status 0 when no HTTP answer came back."""
    start = time.perf_counter()
    received = bytearray()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:

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
            pass  # the server answered and closed before reading everything: that is the point
        reader.join(timeout)
    head, _, body = bytes(received).partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines[0].startswith("HTTP/") else 0
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return Answer(status, time.perf_counter() - start, body, headers)


class Server:
    """gunicorn with ``make run``'s settings (``listbuilder.web.serving``: preloaded app, threaded
    workers, its limits) on a free loopback port, in a process group of its own; *env* adds to
    the environment it starts with (``LISTBUILDER_*`` settings). The per-client rate limits
    (``web.quotas``) are off unless *env* sets ``LISTBUILDER_RATELIMIT_ENABLED``: tests and
    benchmarks are one client sending thousands of requests.

    *database_url* defaults to a throw-away SQLite file, never the instance folder's real one.
    Starting waits until every worker is forked and ``/health`` answers (``wsgi.warm_up``
    opens the database and prints one roster first: seconds on a busy machine), else raises
    RuntimeError with the end of gunicorn's log. Use it as a context manager, or call stop().
    """

    def __init__(
        self,
        database_url: str | None = None,
        workers: int = 2,
        start_timeout: float = 60,
        env: dict[str, str] | None = None,
    ):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._scratch = tempfile.TemporaryDirectory(prefix="listbuilder-server-")
        self._log = tempfile.TemporaryFile()
        database_url = database_url or f"sqlite:///{Path(self._scratch.name) / 'server.sqlite3'}"
        command = [
            str(Path(sys.executable).with_name("gunicorn")),
            "--config",
            "python:listbuilder.web.serving",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{self.port}",
            "wsgi:app",
        ]
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": database_url, "LISTBUILDER_RATELIMIT_ENABLED": "false", **(env or {})},
            stdout=self._log,
            stderr=self._log,
            start_new_session=True,
        )
        try:
            self._wait_until_serving(workers, start_timeout)
        except BaseException:
            self.stop()
            raise

    def _wait_until_serving(self, workers: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.process.poll() is None:
            if len(self.workers()) >= workers:
                try:
                    if request(self.port, "GET", "/api/v1/health", timeout=2).status == 200:
                        return
                except (OSError, http.client.HTTPException):
                    pass
            time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not start in {timeout:g} s:\n{self.log()[-2000:]}")

    def workers(self) -> list[int]:
        """PIDs of the master's worker processes (a killed one stays listed until reaped)."""
        try:
            return [
                int(pid)
                for pid in Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
            ]
        except OSError:
            return []

    def log(self) -> str:
        """What gunicorn and the app wrote so far."""
        self._log.seek(0)
        return self._log.read().decode(errors="replace")

    def kill(self) -> None:
        """SIGKILL to the master and its workers at once (as a machine that loses power)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=15)

    def stop(self) -> None:
        """Shut down gracefully (SIGTERM), then kill whatever is left of the group."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # workers the master left behind
        except ProcessLookupError:
            pass
        self.process.wait(timeout=15)
        self._log.close()
        self._scratch.cleanup()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

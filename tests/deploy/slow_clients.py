"""Slow clients, as an attacker or a venue's bad Wi-Fi would send them, and a /health probe beside them.

Used by tests/deploy/test_stack.py against the stack; run alone it measures gunicorn alone (as
``make run`` serves: 2 workers of 2 threads) and then the stack, the same clients for each:

    .venv/bin/python -m tests.deploy.slow_clients [seconds]
"""

from __future__ import annotations

import http.client
import socket
import sys
import threading
import time
from typing import NamedTuple

BODY_HEAD = (
    b"POST /api/v1/lists/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: 100000\r\n\r\n"
)
HEADER_HEAD = b"GET /api/v1/systems HTTP/1.1\r\nHost: 127.0.0.1\r\n"


class SlowClients:
    """*bodies* clients announcing a 100000-byte body and sending one byte a second, and
    *headers* clients sending one header line a second, each connecting again when the server
    closes on it, until ``stop()``. A context manager."""

    def __init__(self, port: int, bodies: int = 20, headers: int = 20, every: float = 1.0):
        self.port, self.every = port, every
        self.stopping = threading.Event()
        self.connections = 0
        self._lock = threading.Lock()
        self.threads = [threading.Thread(target=self._body, daemon=True) for _ in range(bodies)]
        self.threads += [threading.Thread(target=self._header, daemon=True) for _ in range(headers)]

    def _connect(self) -> socket.socket:
        with self._lock:
            self.connections += 1
        return socket.create_connection(("127.0.0.1", self.port), timeout=5)

    def _trickle(self, head: bytes, piece: bytes) -> None:
        while not self.stopping.is_set():
            try:
                with self._connect() as sock:
                    sock.sendall(head)
                    while not self.stopping.wait(self.every):
                        sock.sendall(piece)
            except OSError:
                self.stopping.wait(0.1)  # closed on us: come back, as an attacker would

    def _body(self) -> None:
        self._trickle(BODY_HEAD, b" ")

    def _header(self) -> None:
        self._trickle(HEADER_HEAD, b"X-Slow: 1\r\n")

    def __enter__(self) -> SlowClients:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(10)


class Probes(NamedTuple):
    """How many probes were answered 200 within the limit, of how many sent."""

    answered: int
    sent: int

    @property
    def rate(self) -> float:
        return self.answered / self.sent if self.sent else 0.0


def probe(port: int, seconds: float, every: float = 0.2, within: float = 1.0, path: str = "/api/v1/health") -> Probes:
    """GET *path* on a new connection every *every* seconds for *seconds*: how many were
    answered 200 within *within* seconds (a probe still waiting then counts as unanswered)."""
    answered = sent = 0
    start = time.monotonic()
    while (now := time.monotonic()) - start < seconds:
        sent += 1
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=within)
        try:
            conn.request("GET", path)
            if conn.getresponse().status == 200 and time.monotonic() - now <= within:
                answered += 1
        except (OSError, http.client.HTTPException):
            pass
        finally:
            conn.close()
        time.sleep(max(0.0, now + every - time.monotonic()))
    return Probes(answered, sent)


def measure(port: int, seconds: float, bodies: int = 20, headers: int = 20) -> Probes:
    """The probe under *bodies* slow-body and *headers* slow-header clients (started first)."""
    with SlowClients(port, bodies, headers):
        time.sleep(1.5)  # every slow client connected and holding on
        return probe(port, seconds)


def main() -> None:  # pragma: no cover - a measurement, run by hand
    from deploy.stack import Stack
    from tests.loopback import Server

    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 30
    with Server(workers=2, env={"LISTBUILDER_THREADS": "2"}) as server:
        alone = measure(server.port, seconds)
    print(f"gunicorn alone (2 workers x 2 threads): {alone.answered}/{alone.sent} probes within 1 s")
    with Stack(workers=2, env={"LISTBUILDER_THREADS": "2", "LISTBUILDER_RATELIMIT_ENABLED": "false"}) as stack:
        behind = measure(stack.port, seconds)
    print(f"nginx + 2 instances (2 workers x 2 threads each): {behind.answered}/{behind.sent} probes within 1 s")


if __name__ == "__main__":
    main()

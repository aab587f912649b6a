"""Issue 25: a heavy request must not hold up light ones. With one gunicorn worker process (the
worst case), /health asked while a 1000-list validate-batch is being worked on is answered
before the batch is, because the worker serves it on another thread. No timing thresholds:
only which answer comes first."""

from __future__ import annotations

import json
import socket
import threading
from pathlib import Path

import pytest

from tests.loopback import Server, request

pytestmark = pytest.mark.server
ROOT = Path(__file__).resolve().parents[2]


def test_health_is_answered_while_one_worker_validates_1000_lists():
    golden = [json.loads(p.read_text())["list"] for p in sorted((ROOT / "tests" / "golden").glob("*/*.json"))]
    largest = sorted(golden, key=lambda army: len(json.dumps(army)))[-4:]
    batch = {"lists": [largest[i % 4] for i in range(1000)]}
    with Server(workers=1) as server:
        finished: list[str] = []
        sent = threading.Event()
        body = json.dumps(batch).encode()
        head = (
            b"POST /api/v1/lists/validate-batch HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n"
            % len(body)
        )

        def heavy() -> None:
            with socket.create_connection(("127.0.0.1", server.port), timeout=120) as sock:
                sock.sendall(head + body)  # 2 MiB: returns once the worker has read most of it
                sent.set()
                answer = sock.makefile("rb").readline()
            assert answer.startswith(b"HTTP/1.1 200"), answer
            finished.append("batch")

        worker = threading.Thread(target=heavy)
        worker.start()
        assert sent.wait(60)
        for _ in range(3):
            assert request(server.port, "GET", "/api/v1/health", timeout=120).status == 200
            finished.append("health")
        worker.join(120)
        assert finished[:3] == ["health"] * 3, finished

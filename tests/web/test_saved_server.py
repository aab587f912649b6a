"""Saved lists under real gunicorn workers: nothing acknowledged is lost to kill -9, and of two
concurrent saves from the same version exactly one wins. SQLite always, PostgreSQL when set.

Load stays on loopback and every loop is bounded in time and count.
"""

from __future__ import annotations

import http.client
import os
import signal
import threading
import time

import pytest

from listbuilder.lists.documents import parse_list
from tests.loopback import Server, request
from tests.web.test_saved_api import LIST

pytestmark = pytest.mark.server


def call(port: int, method: str, path: str, body: dict | None = None, headers: dict | None = None) -> tuple[int, dict]:
    """One request on a new connection: (status, JSON body or {}). Raises OSError and
    http.client errors when the worker dies under it."""
    answer = request(port, method, path, body, headers, timeout=20)
    return answer.status, answer.json() if answer.headers.get("Content-Type", "").startswith("application/json") else {}


def document(writer: int, step: int) -> dict:
    """A different list for every save: the name and the unit mix change."""
    units = [dict(u) for u in LIST["units"]]
    units[0]["upgrades"] = [{"section": "cc-rifle-specials", "option": "flamer", "count": 1 + step % 2}]
    if step % 3 == 0:
        units.append({"key": f"z{step}", "unit": "cc-cinder-zealots"})
    return {**LIST, "name": f"writer {writer} save {step}", "units": units}


def test_every_acknowledged_save_survives_kill_9_of_workers_and_then_of_everything(database_url):
    acknowledged: list[tuple[str, int, dict]] = []  # (list id, version, what was sent)
    failures = [0]
    lock = threading.Lock()
    stop = [0.0]  # set once the server answers: starting it may take seconds on a loaded machine

    def writer(number: int, port: int) -> None:
        list_id, token, version, step = None, None, 0, 0
        while time.monotonic() < stop[0] and step < 400:
            step += 1
            sent = document(number, step)
            try:
                if list_id is None:
                    status, body = call(port, "POST", "/api/v1/lists", sent)
                    if status == 201:
                        list_id, token, version = body["id"], body["edit_token"], 1
                else:
                    status, body = call(
                        port,
                        "PUT",
                        f"/api/v1/lists/{list_id}",
                        sent,
                        {"Authorization": f"Bearer {token}", "If-Match": f'"v{version}"'},
                    )
                    if status == 412:  # a save whose answer was lost may have landed: catch up
                        status, body = call(port, "GET", f"/api/v1/lists/{list_id}")
                        version = body["version"]
                        continue
                    if status == 200:
                        version = body["version"]
                if status in (200, 201):
                    with lock:
                        acknowledged.append((list_id, version, sent))
            except (OSError, http.client.HTTPException):
                with lock:
                    failures[0] += 1  # the worker died under this request: not acknowledged

    with Server(database_url, workers=3) as server:
        stop[0] = time.monotonic() + 6.0
        threads = [threading.Thread(target=writer, args=(n, server.port)) for n in range(6)]
        for t in threads:
            t.start()
        killed: list[int] = []
        for pause in (1.5, 1.5):
            time.sleep(pause)
            victim = next(
                pid for pid in server.workers() if pid not in killed
            )  # a dead worker stays listed until reaped
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)
        for t in threads:
            t.join(timeout=60)
        deadline = time.monotonic() + 30  # the master reaps and replaces them; slow on a loaded machine
        while any(pid in server.workers() for pid in killed) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert all(pid not in server.workers() for pid in killed)
        server.kill()  # and now everything at once, master included

    print(f"{len(acknowledged)} acknowledged saves, {failures[0]} requests cut off by kill -9")
    assert len(acknowledged) > 50, f"too few saves to mean anything ({len(acknowledged)}, {failures[0]} failed)"
    with Server(database_url, workers=1) as fresh:
        latest: dict[str, int] = {}
        for list_id, version, sent in acknowledged:
            status, body = call(fresh.port, "GET", f"/api/v1/lists/{list_id}/versions/{version}")
            assert status == 200, (list_id, version, status)
            assert parse_list(body["list"]) == parse_list(sent), (list_id, version)
            latest[list_id] = max(latest.get(list_id, 0), version)
        for list_id, version in latest.items():
            status, body = call(fresh.port, "GET", f"/api/v1/lists/{list_id}/versions?limit=1000")
            assert [v["version"] for v in body["versions"]] == list(range(1, body["current"] + 1))
            assert body["current"] >= version


def test_of_two_concurrent_puts_with_the_same_if_match_exactly_one_wins(database_url):
    with Server(database_url, workers=4) as server:
        for round_ in range(12):
            _, made = call(server.port, "POST", "/api/v1/lists", LIST)
            headers = {"Authorization": f"Bearer {made['edit_token']}", "If-Match": '"v1"'}
            barrier = threading.Barrier(2)
            statuses: list[int] = []

            def put(name: str) -> None:
                barrier.wait()
                statuses.append(
                    call(server.port, "PUT", f"/api/v1/lists/{made['id']}", {**LIST, "name": name}, headers)[0]
                )

            threads = [threading.Thread(target=put, args=(f"racer {i}",)) for i in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=30)
            assert sorted(statuses) == [200, 412], f"round {round_}: {statuses}"
            _, versions = call(server.port, "GET", f"/api/v1/lists/{made['id']}/versions")
            assert [v["version"] for v in versions["versions"]] == [1, 2]

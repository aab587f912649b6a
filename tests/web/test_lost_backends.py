"""PostgreSQL loses every session (a restart, a failover, pg_terminate_backend): no request fails.

A connection the server dropped only shows it when next used. Pooled connections are pinged
when taken from the pool, and the connection each worker keeps for the hottest read is
replaced by a new one, so the first request after the loss is answered like any other.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator

import pytest

from tests.conftest import private_postgres_database
from tests.loopback import Server, request
from tests.web.test_saved_api import LIST

pytestmark = pytest.mark.server


@pytest.fixture()
def own_postgres() -> Iterator[str]:
    """A database of this test's own: every session of it is ended, none of another test's."""
    if not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip("TEST_DATABASE_URL is not set: losing PostgreSQL's sessions needs a PostgreSQL server")
    from sqlalchemy.exc import OperationalError

    try:
        with private_postgres_database() as url:
            yield url
    except OperationalError as exc:
        pytest.skip(f"PostgreSQL at TEST_DATABASE_URL does not answer: {exc.orig}")


def end_every_session(url: str) -> int:
    """pg_terminate_backend of every session of *url*'s database; how many were ended."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.pool import NullPool

    from listbuilder.store.database import normalise_url

    engine = create_engine(normalise_url(url), isolation_level="AUTOCOMMIT", poolclass=NullPool)
    try:
        with engine.connect() as conn:
            return len(
                conn.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :name AND pid <> pg_backend_pid()"
                    ),
                    {"name": make_url(url).database},
                ).all()
            )
    finally:
        engine.dispose()


def statuses(port: int, calls: list[tuple[str, str, dict | None, dict | None]], threads: int) -> list[int]:
    """Run *calls* from *threads* threads at once; each one's status (0: no answer)."""
    found: list[int] = []
    lock = threading.Lock()
    queue = list(calls)

    def worker() -> None:
        while True:
            with lock:
                if not queue:
                    return
                method, path, body, headers = queue.pop()
            try:
                status = request(port, method, path, body, headers, timeout=30).status
            except OSError:
                status = 0
            with lock:
                found.append(status)

    running = [threading.Thread(target=worker) for _ in range(threads)]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join()
    return found


def test_after_every_postgresql_session_is_ended_no_request_fails(own_postgres):
    with Server(own_postgres, workers=2) as server:
        made = request(server.port, "POST", "/api/v1/lists", LIST).json()
        auth = {"Authorization": f"Bearer {made['edit_token']}"}
        path = f"/api/v1/lists/{made['id']}"
        # Every kind of database use: the kept connection (GET), pooled reads (versions, other
        # threads' GETs) and writes (a new list, a save over whatever is current).
        mix = (
            [("GET", path, None, None)] * 6
            + [("GET", f"{path}/versions", None, None)] * 2
            + [
                ("POST", "/api/v1/lists", LIST, None),
                ("PUT", path, LIST, {**auth, "If-Match": "*"}),
            ]
        )
        warm = statuses(server.port, mix * 6, threads=8)
        assert set(warm) <= {200, 201}, (warm, server.log()[-3000:])
        ended = end_every_session(own_postgres)
        assert ended >= 2  # at least each worker's kept connection
        after = statuses(server.port, mix * 6, threads=8)
        failed = [s for s in after if s not in (200, 201)]
        print(f"\n{ended} sessions ended; {len(after)} requests after, {len(failed)} failed")
        assert failed == [], server.log()[-3000:]

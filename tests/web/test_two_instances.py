"""Scale-out (issue 25): two gunicorn instances on loopback, one database (PostgreSQL when
TEST_DATABASE_URL is set; SQLite's file works too on one machine) and, when it answers, one
Redis. What one instance acknowledges the other reads at once, and of two saves from the same
version sent to different instances exactly one wins. Each instance starts with no gunicorn
control socket, and answers without naming its server software."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tests.loopback import Server, request
from tests.web.test_saved_api import LIST
from tests.web.test_saved_server import call, document

pytestmark = pytest.mark.server
TRIALS = 30


@pytest.fixture()
def two(database_url, tmp_path):
    """Two instances, each with a HOME and runtime folder of its own (where gunicorn's control
    socket would go), sharing the database and the tests' Redis when it answers."""
    shared = {}
    if os.environ.get("TEST_REDIS_URL"):
        shared["REDIS_URL"] = os.environ["TEST_REDIS_URL"]
    homes = [tmp_path / "a", tmp_path / "b"]
    servers = []
    try:
        for home in homes:
            home.mkdir()
            servers.append(
                Server(database_url, workers=2, env={**shared, "HOME": str(home), "XDG_RUNTIME_DIR": str(home)})
            )
        yield servers, homes
    finally:
        for server in servers:
            server.stop()


def test_what_one_instance_acknowledges_the_other_reads_at_once(two):
    (a, b), _ = two
    for trial in range(TRIALS):
        status, made = call(a.port, "POST", "/api/v1/lists", {**LIST, "name": f"trial {trial}"})
        assert status == 201
        status, read = call(b.port, "GET", f"/api/v1/lists/{made['id']}")
        assert (status, read["version"], read["list"]["name"]) == (200, 1, f"trial {trial}")
        status, saved = call(
            b.port,
            "PUT",
            f"/api/v1/lists/{made['id']}",
            document(1, trial),
            {"Authorization": f"Bearer {made['edit_token']}", "If-Match": '"v1"'},
        )
        assert status == 200 and saved["version"] == 2
        status, again = call(a.port, "GET", f"/api/v1/lists/{made['id']}")
        assert (status, again["version"], again["list"]["name"]) == (200, 2, f"writer 1 save {trial}")


def test_of_two_saves_from_one_version_on_two_instances_exactly_one_wins(two):
    (a, b), _ = two
    for trial in range(TRIALS):
        status, made = call(a.port, "POST", "/api/v1/lists", LIST)
        assert status == 201
        headers = {"Authorization": f"Bearer {made['edit_token']}", "If-Match": '"v1"'}
        results: dict[int, int] = {}
        barrier = threading.Barrier(2)

        def save(n: int, port: int) -> None:
            barrier.wait(5)
            results[n] = call(port, "PUT", f"/api/v1/lists/{made['id']}", document(n, trial), headers)[0]

        writers = [threading.Thread(target=save, args=(n, server.port)) for n, server in enumerate((a, b))]
        for w in writers:
            w.start()
        for w in writers:
            w.join(30)
        assert sorted(results.values()) == [200, 412], (trial, results)
        status, read = call(b.port, "GET", f"/api/v1/lists/{made['id']}")
        winner = next(n for n, s in results.items() if s == 200)
        assert (read["version"], read["list"]["name"]) == (2, f"writer {winner} save {trial}")


def test_instances_open_no_control_socket_and_do_not_name_their_server(two):
    (a, b), homes = two
    for home in homes:
        assert not [p for p in Path(home).rglob("*") if p.name.endswith(".ctl")], list(Path(home).rglob("*"))
    for server in (a, b):
        answer = request(server.port, "GET", "/api/v1/health")
        assert answer.status == 200 and "Server" not in answer.headers


def test_a_forged_host_on_one_instance_never_reaches_a_roster_the_other_serves(two):
    """Without LISTBUILDER_PUBLIC_URL the printed link follows the Host, and the shared cache
    (Redis, when the tests have one) is keyed by the link: a roster asked for under a forged
    name is cached under that name only, never served to a reader of the real one."""
    from tests.printing.test_pdf import pdf_pages

    (a, b), _ = two
    status, made = call(a.port, "POST", "/api/v1/lists", {**LIST, "name": "Forged host"})
    url = f"/api/v1/lists/{made['id']}/roster.pdf"
    forged = request(a.port, "GET", url, headers={"Host": "evil.example"})
    honest = request(b.port, "GET", url, headers={"Host": "lists.club.example"})
    assert status == 201 and forged.status == honest.status == 200
    text = "".join(pdf_pages(honest.body)).replace("\n", "")  # the printed link wraps
    assert f"http://lists.club.example/l/{made['id']}" in text and "evil.example" not in text
    assert (
        request(a.port, "GET", url, headers={"Host": "lists.club.example"}).body == honest.body
    )  # one entry per link, shared

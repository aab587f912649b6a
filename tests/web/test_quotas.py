"""Rate limits per client and caps (issue 25): each a 429 or 413 in the API's error shape."""

from __future__ import annotations

import pytest

from tests.web.test_events_api import EVENT, submit
from tests.web.test_saved_api import LIST, create

ERROR_KEYS = {"code", "status", "message", "errors"}


@pytest.fixture()
def limited(registry, database_url):
    """An app with limits on (tests run without them) and small numbers, on a fresh in-memory count."""
    from listbuilder.web import create_app

    made = []

    def make(**config):
        settings = {
            "TESTING": True,
            "REGISTRY": registry,
            "DATABASE_URL": database_url,
            "RATELIMIT_ENABLED": True,
            **config,
        }
        made.append(create_app(settings))
        return made[-1].test_client()

    yield make
    for app in made:
        if (opened := app.extensions.get("listbuilder.database")) is not None:
            opened.dispose()


def too_many(answer, setting):
    assert answer.status_code == 429 and set(answer.json) == ERROR_KEYS and answer.json["code"] == 429
    assert setting in answer.json["message"] and int(answer.headers["Retry-After"]) > 0


def test_a_client_over_the_rate_limit_gets_429_and_another_client_does_not(limited):
    client = limited(RATE_LIMIT="3/minute")
    for _ in range(3):
        assert client.get("/api/v1/systems").status_code == 200
    answer = client.get("/api/v1/systems")
    assert answer.status_code == 429 and set(answer.json) == ERROR_KEYS and int(answer.headers["Retry-After"]) > 0
    assert client.get("/api/v1/systems", environ_base={"REMOTE_ADDR": "192.0.2.9"}).status_code == 200
    assert client.get("/api/v1/health").status_code == 200  # a load balancer's check is never refused


def test_first_requests_arriving_together_are_all_counted(limited):
    """The limiter is made by the first request (``quotas._LimitsFirst``): threads arriving at
    once wait for it, none passes uncounted and none finds the app half set up."""
    import threading

    client = limited(RATE_LIMIT="2/minute")
    app = client.application
    together = threading.Barrier(4)
    statuses = []

    def ask():
        together.wait()
        statuses.append(app.test_client().get("/api/v1/systems").status_code)

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 200, 429, 429]


def test_heavy_requests_share_one_smaller_budget(limited):
    client = limited(HEAVY_RATE_LIMIT="2/minute")
    assert client.post("/api/v1/lists/validate-batch", json={"lists": [LIST]}).status_code == 200
    assert client.post("/api/v1/rosters/pdf", json=LIST).status_code == 200
    too_many(client.post("/api/v1/previews", json={}), "LISTBUILDER_HEAVY_RATE_LIMIT")
    assert client.post("/api/v1/lists/validate", json=LIST).status_code == 200  # light work goes on


def test_imported_books_per_hour_are_capped(limited):
    client = limited(IMPORTS_PER_HOUR=1)
    first = client.post("/api/v1/books/import", json={})
    assert first.status_code in (400, 422)  # counted even when refused: parsing 1 MiB is the cost
    too_many(client.post("/api/v1/books/import", json={}), "LISTBUILDER_IMPORTS_PER_HOUR")


def test_new_lists_and_events_per_hour_are_capped(limited):
    client = limited(LISTS_PER_HOUR=2, EVENTS_PER_HOUR=1)
    made = create(client)
    assert client.post(f"/api/v1/lists/{made['id']}/copy").status_code == 201
    too_many(client.post("/api/v1/lists", json=LIST), "LISTBUILDER_LISTS_PER_HOUR")
    assert client.get(f"/api/v1/lists/{made['id']}").status_code == 200  # reading is not creating
    assert client.post("/api/v1/events", json=EVENT).status_code == 201
    too_many(client.post("/api/v1/events", json=EVENT), "LISTBUILDER_EVENTS_PER_HOUR")


def test_an_event_takes_at_most_max_players_but_a_player_may_submit_again(limited, saved_client):
    client = limited(MAX_PLAYERS=2, RATELIMIT_ENABLED=False)
    event = client.post("/api/v1/events", json=EVENT).json
    first = submit(client, event, create(client), player="Ann").json
    assert submit(client, event, create(client), player="Bo").status_code == 201
    full = submit(client, event, create(client), player="Cy")
    assert full.status_code == 413 and set(full.json) == ERROR_KEYS and list(full.json["errors"]) == ["player"]
    again = submit(client, event, create(client), player="ann", player_token=first["player_token"])
    assert again.status_code == 201


def test_with_redis_down_the_limits_count_in_the_worker_and_nothing_fails(limited, monkeypatch):
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:9/0")  # nothing listens on port 9
    client = limited(RATE_LIMIT="2/minute")
    assert [client.get("/api/v1/systems").status_code for _ in range(3)] == [200, 200, 429]


def test_the_openapi_document_names_the_429_of_every_limited_operation(saved_client):
    paths = saved_client.get("/api/v1/openapi.json").json["paths"]
    assert "429" not in paths["/api/v1/health"]["get"]["responses"]
    limited = [
        op
        for path, ops in paths.items()
        if path != "/api/v1/health"
        for op in ops.values()
        if isinstance(op, dict) and "responses" in op
    ]
    assert limited and all(
        "429" in op["responses"] and "Retry-After" in op["responses"]["429"]["headers"] for op in limited
    )

"""A deleted event answers 410 on every endpoint that names it, whatever the token and the body
(issue 36): before, a DELETE or a close without a token said 401, a POST with an incomplete
body 422, and the event's pages 500 or 404.

The endpoints are read from the app's URL map (every rule with an ``event_id``), so one added
later is covered without touching this test.
"""

from __future__ import annotations

import re

import pytest

from tests.web.test_events_api import EVENT, submit
from tests.web.test_saved_api import ERROR_KEYS, auth, create

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
ARGUMENT = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")


def event_urls(app, event_id: str) -> list[tuple[str, str, str]]:
    """(method, url, endpoint) for every rule of the app whose URL names an event."""
    found = []
    for rule in app.url_map.iter_rules():
        if "event_id" not in rule.arguments:
            continue

        def value(match: re.Match) -> str:
            converter, name = match.groups()
            return event_id if name == "event_id" else "1" if converter == "int" else "x"

        url = ARGUMENT.sub(value, rule.rule)
        found += [(method, url, rule.endpoint) for method in METHODS if method in rule.methods]
    return found


@pytest.fixture()
def deleted(saved_client):
    """A deleted event that had a player, its organiser token and the player's list token."""
    event = saved_client.post("/api/v1/events", json=EVENT).json
    made = create(saved_client)
    assert submit(saved_client, event, made).status_code == 201
    gone = saved_client.delete(f"/api/v1/events/{event['id']}", headers=auth(event["organiser_token"]))
    assert gone.status_code == 204
    return event, made


def test_every_endpoint_of_a_deleted_event_answers_410_whatever_the_token_and_body(saved_client, deleted):
    event, made = deleted
    calls = event_urls(saved_client.application, event["id"])
    assert len(calls) >= 30 and {endpoint.split(".")[0] for _, _, endpoint in calls} >= {
        "events",
        "rounds",
        "event_pages",
        "round_pages",
    }
    tokens = {
        "none": {},
        "wrong": auth("not-a-token"),
        "organiser": auth(event["organiser_token"]),
        "player": auth(made["edit_token"]),
    }
    bodies = {"none": {}, "empty": {"json": {}}, "junk": {"data": b"{not json", "content_type": "application/json"}}
    wrong = []
    for method, url, endpoint in calls:
        for token_name, headers in tokens.items():
            for body_name, body in bodies.items() if method != "GET" else [("none", {})]:
                answer = saved_client.open(url, method=method, headers=headers, **body)
                if answer.status_code != 410:
                    wrong.append(
                        f"{method} {url} ({endpoint}), token {token_name}, body {body_name}: {answer.status_code}"
                    )
                elif url.startswith("/api/"):
                    assert set(answer.json) == ERROR_KEYS and answer.json["code"] == 410, (method, url)
                    assert "WWW-Authenticate" not in answer.headers
                else:
                    assert answer.mimetype == "text/html" and b"deleted by its organiser" in answer.data
    assert wrong == [], "\n".join(wrong)


def test_an_unknown_event_stays_404_and_a_live_one_still_asks_for_its_token(saved_client):
    assert saved_client.get("/api/v1/events/AAAAAAAAAAAAAAAA").status_code == 404
    assert saved_client.get("/events/AAAAAAAAAAAAAAAA").status_code == 404
    event = saved_client.post("/api/v1/events", json=EVENT).json
    assert saved_client.delete(f"/api/v1/events/{event['id']}").status_code == 401
    assert saved_client.post(f"/api/v1/events/{event['id']}/close").status_code == 401
    assert saved_client.post(f"/api/v1/events/{event['id']}/withdrawals", json={}).status_code == 422
    assert saved_client.get(f"/events/{event['id']}/standings").status_code == 200

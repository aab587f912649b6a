"""A saved list names the events it was submitted to (issue 37), on SQLite and on PostgreSQL
when TEST_DATABASE_URL is set: My lists says which event holds a locked list in any browser,
not only the one that submitted it. Every answer here is also checked against the OpenAPI
document by the suite's answer check (tests/conftest.py)."""

from __future__ import annotations

import re

from tests.conftest import round_trips
from tests.web.test_events_api import make_event, organiser, submit
from tests.web.test_saved_api import LIST, auth, create


def submitted(client, name="Autumn Open", player="Ann", made=None):
    """An event named *name* and a list submitted to it (a new one unless *made* is given)."""
    event = make_event(client, name=name)
    made = made or create(client)
    response = submit(client, event, made, player=player)
    assert response.status_code == 201, response.json
    return event, made


def test_a_list_never_submitted_names_no_event(saved_client):
    made = create(saved_client)
    assert saved_client.get(made["url"]).json["events"] == []
    locked = saved_client.post(f"{made['url']}/lock", headers=auth(made["edit_token"]))
    assert locked.status_code == 200 and locked.json["locked"] is True and locked.json["events"] == []
    other = create(saved_client)
    saved = saved_client.put(other["url"], json=LIST, headers=auth(other["edit_token"], '"v1"'))
    assert saved.status_code == 200 and saved.json["events"] == []


def test_a_submitted_list_names_its_event_with_a_link_to_its_page(saved_client):
    event, made = submitted(saved_client, name="Autumn <Open> & Co")
    body = saved_client.get(made["url"]).json
    assert body["locked"] is True
    assert body["events"] == [
        {
            "id": event["id"],
            "name": "Autumn <Open> & Co",
            "deleted": False,
            "url": f"http://localhost/events/{event['id']}",
        }
    ]
    assert saved_client.get(body["events"][0]["url"]).status_code == 200


def test_each_event_is_named_once_in_the_order_it_was_first_submitted_to(saved_client):
    first, made = submitted(saved_client, name="First Cup")
    again = submit(saved_client, first, made, player="Ann")  # the same player again: the same submission
    assert again.status_code in (200, 201), again.json
    second, _ = submitted(saved_client, name="Second Cup", made=made)  # a locked list may enter another event
    names = [(e["id"], e["name"]) for e in saved_client.get(made["url"]).json["events"]]
    assert names == [(first["id"], "First Cup"), (second["id"], "Second Cup")]


def test_a_deleted_event_says_so_without_its_name_even_after_the_answer_was_kept(saved_client):
    """Bodies are kept rendered per version; an event deleted since must not leave its name in one."""
    event, made = submitted(saved_client, name="Gone Cup")
    assert saved_client.get(made["url"]).json["events"][0]["name"] == "Gone Cup"  # rendered and kept
    assert saved_client.delete(f"/api/v1/events/{event['id']}", headers=organiser(event)).status_code == 204
    after = saved_client.get(made["url"]).json
    assert after["events"] == [{"id": event["id"], "name": None, "deleted": True, "url": None}]
    assert after["locked"] is True  # the lock stays: what was submitted stays as it was


def test_a_list_submitted_after_its_answer_was_kept_names_the_event(saved_client):
    made = create(saved_client)
    saved_client.post(f"{made['url']}/lock", headers=auth(made["edit_token"]))
    assert saved_client.get(made["url"]).json["events"] == []  # locked, kept, no event yet
    event, _ = submitted(saved_client, name="Late Cup", made=made)
    assert [e["name"] for e in saved_client.get(made["url"]).json["events"]] == ["Late Cup"]


def test_the_events_are_read_in_the_same_statement_as_the_list_whatever_their_number(saved_client, saved_app):
    """No query per event: a list in three events is read with the statements of a list in none
    (the freshness check, then the list with its events), and a kept answer with one."""
    made = create(saved_client)
    db = saved_app.extensions["listbuilder.database"]  # opened by the first request
    for name in ("One", "Two", "Three"):
        submitted(saved_client, name=name, made=made)
    saved_client.get(made["url"])
    with round_trips(db) as kept:
        assert len(saved_client.get(made["url"]).json["events"]) == 3
    assert len(kept) == 1 and not re.search(r"\b(BEGIN|COMMIT)\b", kept[0], re.IGNORECASE), kept
    make_event(saved_client, name="Unrelated")
    submitted(saved_client, name="Four", made=made)  # a new event: the kept answer is stale
    with round_trips(db) as fresh:
        assert len(saved_client.get(made["url"]).json["events"]) == 4
    assert statements(db, fresh) == 2, fresh


def statements(db, sent):
    """How many statements were run: SQLite traces each one's SQL, libpq each Execute message
    (of a prepared statement, whose SQL is not sent again)."""
    pattern = r"\bExecute\b" if db.backend == "postgresql" else r"^\s*SELECT\b"
    return sum(len(re.findall(pattern, entry, re.IGNORECASE)) for entry in sent)

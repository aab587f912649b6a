"""Text that reaches the database: no NUL anywhere (a 422 naming the field, on both backends),
and player names whose folded key is longer than the name (issue 25: 500s on PostgreSQL only)."""

from __future__ import annotations

import json

import pytest

from tests.web.test_book_import import fixture
from tests.web.test_events_api import EVENT, make_event, submit
from tests.web.test_saved_api import LIST, create

NUL = "\u0000"


def refused(response, field: str) -> None:
    assert response.status_code == 422, (response.status_code, response.get_json())
    body = response.get_json()
    assert set(body) == {"code", "status", "message", "errors"}
    assert list(body["errors"]) == [field] and "NUL" in body["errors"][field][0]


def test_a_nul_in_an_event_name_is_422_naming_it(saved_client):
    refused(saved_client.post("/api/v1/events", json={**EVENT, "name": f"Autumn{NUL}Open"}), "name")


def test_a_nul_in_a_player_name_is_422_naming_it(saved_client):
    event, made = make_event(saved_client), create(saved_client)
    refused(submit(saved_client, event, made, player=f"Ann{NUL}"), "player")
    assert submit(saved_client, event, made, player="Ann").status_code == 201  # nothing was stored or locked


def test_a_nul_in_an_imported_books_name_is_422_naming_it(saved_client):
    book = fixture("gf-rustbound-book")
    refused(saved_client.post("/api/v1/books/import", json={**book, "name": f"Rust{NUL}bound"}), "name")


def test_a_nul_in_a_saved_lists_name_or_deeper_is_422_naming_the_path(saved_client):
    refused(saved_client.post("/api/v1/lists", json={**LIST, "name": f"Mine{NUL}"}), "name")
    units = [{**LIST["units"][0], "key": f"a{NUL}"}, *LIST["units"][1:]]
    refused(saved_client.post("/api/v1/lists", json={**LIST, "units": units}), "units[0].key")


def test_a_nul_in_a_key_or_a_body_read_by_the_standard_library_is_refused_too(saved_client):
    # 19 digits in a row send the body to the standard library's reader instead of orjson's
    body = json.dumps({**EVENT, "name": f"Open{NUL}", "points_limit": 1000, "note": "1234567890123456789"}).encode()
    response = saved_client.post("/api/v1/events", data=body, content_type="application/json")
    refused(response, "name")
    refused(saved_client.post("/api/v1/events", json={**EVENT, f"na{NUL}me": "x"}), f"na{NUL}me")


def test_an_escaped_backslash_before_u0000_is_plain_text(saved_client):
    made = create(saved_client, {**LIST, "name": "C:\\u0000 drive"})
    assert saved_client.get(f"/api/v1/lists/{made['id']}").get_json()["list"]["name"] == "C:\\u0000 drive"


@pytest.mark.parametrize("player", ["ß" * 100, "ﬃ" * 60, "\ufdfa" * 100])
def test_a_name_whose_folded_key_is_longer_than_the_name_is_taken(saved_client, player):
    # "ß" folds to "ss", "ﬃ" to "ffi", "ﷺ" to 18 characters: String(100) was a 500 on PostgreSQL.
    event, made = make_event(saved_client), create(saved_client)
    first = submit(saved_client, event, made, player=player)
    assert first.status_code == 201, first.get_json()
    again = submit(saved_client, event, made, player=player)  # a repeat finds the player by that key
    assert again.status_code == 200 and again.get_json()["player_token"] == first.get_json()["player_token"]

"""Disputed tables (issue 39): a player's entry that contradicts the opponent's is kept, not
refused; the table shows both entries until a player agrees or the organiser decides with one
override. On SQLite and on PostgreSQL when TEST_DATABASE_URL is set."""

from __future__ import annotations

from tests.web.test_events_api import make_event, organiser
from tests.web.test_rounds_api import confirm, register, result, start, url, win
from tests.web.test_saved_api import auth


def _table_of_two(client):
    event = make_event(client)
    tokens = register(client, event, 2, names=["Ann", "Bob"])
    start(client, event)
    return event, tokens


def test_a_contradicting_entry_is_recorded_and_the_table_shows_both_entries(saved_client):
    event, tokens = _table_of_two(saved_client)
    assert result(saved_client, event, 1, tokens["Ann"], table=1, **win("Ann", "Bob", 10, 2)).status_code == 201
    differs = result(saved_client, event, 1, tokens["Bob"], table=1, **win("Bob", "Ann", 8, 3))
    assert differs.status_code == 201, differs.json  # was 409, with nothing kept
    assert differs.json["recorded"] == "dispute" and differs.json["status"] == "disputed"
    table = saved_client.get(url(event, "/rounds/1")).json["pairings"][0]
    assert table["status"] == "disputed" and table["result"] is None
    assert table["entries"] == [
        {"by": "Ann", "result": win("Ann", "Bob", 10, 2)},
        {"by": "Bob", "result": win("Bob", "Ann", 8, 3)},
    ]
    record = saved_client.get(url(event, "/log"), headers=organiser(event)).json
    assert [r["kind"] for r in record["results"]] == ["entry", "dispute"]  # the organiser sees it in the record
    # the organiser's bare confirmation cannot pick one of two: they enter the result that counts
    refused = saved_client.post(url(event, "/rounds/1/confirmations"), json={"table": 1}, headers=organiser(event))
    assert refused.status_code == 409
    decided = saved_client.post(
        url(event, "/rounds/1/results"), json={"table": 1, **table["entries"][1]["result"]}, headers=organiser(event)
    )
    assert decided.status_code == 201 and decided.json["status"] == "decided"
    standings = {s["player"]: s["score"] for s in saved_client.get(url(event, "/standings")).json["standings"]}
    assert standings == {"Bob": 3, "Ann": 0}
    assert "entries" not in saved_client.get(url(event, "/rounds/1")).json["pairings"][0]


def test_either_player_settles_a_dispute_by_confirming_the_others_entry(saved_client):
    event, tokens = _table_of_two(saved_client)
    result(saved_client, event, 1, tokens["Ann"], table=1, **win("Ann", "Bob"))
    result(saved_client, event, 1, tokens["Bob"], table=1, **win("Bob", "Ann"))
    # Ann changes her mind about her own entry: still disputed, hers replaced
    again = result(saved_client, event, 1, tokens["Ann"], table=1, **win("Ann", "Bob", 5, 0))
    assert again.json["recorded"] == "dispute" and again.json["status"] == "disputed"
    assert again.json["entries"][0] == {"by": "Ann", "result": win("Ann", "Bob", 5, 0)}
    # then she accepts Bob's
    agreed = confirm(saved_client, event, 1, tokens["Ann"], 1)
    assert agreed.status_code == 201 and agreed.json["status"] == "confirmed"
    assert agreed.json["result"] == win("Bob", "Ann")
    late = result(saved_client, event, 1, tokens["Bob"], table=1, **win("Ann", "Bob"))
    assert late.status_code == 409  # confirmed: only the organiser changes it now


def test_entering_the_opponents_result_during_a_dispute_confirms_it(saved_client):
    event, tokens = _table_of_two(saved_client)
    result(saved_client, event, 1, tokens["Ann"], table=1, **win("Ann", "Bob"))
    result(saved_client, event, 1, tokens["Bob"], table=1, **win("Bob", "Ann"))
    same = saved_client.post(
        url(event, "/rounds/1/results"), json={"table": 1, **win("Ann", "Bob")}, headers=auth(tokens["Bob"])
    )
    assert same.json["recorded"] == "confirmation" and same.json["status"] == "confirmed"
    assert same.json["scores"]["Ann"]["points"] == 3

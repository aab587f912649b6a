"""Writes and reads of the tournament day that do not grow with the event (issue 35, item 6).

A result (entered, confirmed, overridden) reads and writes only its table's rows and the event's
row; the standings are computed once per change of the day and kept, with an ETag that a poll
sends back to get 304; they come in pages. On SQLite, and on PostgreSQL when TEST_DATABASE_URL
is set.
"""

from __future__ import annotations

import threading

import pytest

from listbuilder.store import rounds as store
from tests.web.test_events_api import make_event, organiser
from tests.web.test_rounds_api import confirm, register, result, start, url, win


def seated(client, event, tokens, number=1):
    """Round *number*'s games: (table, player, opponent, the player's token)."""
    body = client.get(url(event, f"/rounds/{number}")).json
    return [(t["table"], *t["players"], tokens[t["players"][0]]) for t in body["pairings"] if None not in t["players"]]


def test_a_result_is_entered_confirmed_and_overridden_without_reading_the_whole_day(saved_client, monkeypatch):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 12)
    start(saved_client, event)
    (table, a, b, token), *_ = seated(saved_client, event, tokens)

    def whole_day(*args, **kwargs):
        raise AssertionError("a result read every player's rows")

    monkeypatch.setattr(store, "_load", whole_day)
    entered = result(saved_client, event, 1, token, table=table, **win(a, b, 5, 2))
    assert entered.status_code == 201, entered.json
    assert (entered.json["status"], entered.json["recorded"]) == ("waiting", "entry")
    confirmed = confirm(saved_client, event, 1, tokens[b], table)
    assert confirmed.status_code == 201, confirmed.json
    assert confirmed.json["status"] == "confirmed"
    assert confirmed.json["scores"][a]["outcome"] == "win"
    overridden = saved_client.post(
        url(event, "/rounds/1/results"), json={"table": table, **win(b, a)}, headers=organiser(event)
    )
    assert overridden.status_code == 201, overridden.json
    assert (overridden.json["status"], overridden.json["recorded"]) == ("decided", "override")


@pytest.mark.parametrize("players", [4, 16])
def test_the_day_a_table_sees_holds_its_two_players_whatever_the_size_of_the_event(saved_client, db, players):
    event = make_event(saved_client)
    tokens = register(saved_client, event, players)
    start(saved_client, event)
    (table, a, b, token), *_ = seated(saved_client, event, tokens)
    assert result(saved_client, event, 1, token, table=table, **win(a, b)).status_code == 201
    seen = []
    store.change_day(db, event["id"], token, lambda day: seen.append(day) or [], table=(1, table))
    (day,) = seen
    assert {s.player for s in day.submissions} == {a, b}
    assert [r.tables for r in day.rounds] == [((table, a, b),)]
    assert {r.table for r in day.results} == {table}
    assert day.caller.player == a
    from listbuilder.events import rounds as day_rules

    with pytest.raises(AssertionError, match="whole day"):
        day_rules.round_body(day, 1, "points")


def test_a_renamed_player_swapped_to_another_table_still_enters_there(saved_client):
    """The table's day follows swaps and renames: the player's token finds the seat they have now."""
    event = make_event(saved_client)
    tokens = register(saved_client, event, 4, names=["Ann", "Bob", "Cid", "Dee"])
    first = start(saved_client, event, seed_order=["Ann", "Bob", "Cid", "Dee"])  # Ann v Cid, Bob v Dee
    assert [t["players"] for t in first["pairings"]] == [["Ann", "Cid"], ["Bob", "Dee"]]
    renamed = saved_client.post(
        url(event, "/renames"), json={"player": "ann", "name": "Anne"}, headers=organiser(event)
    )
    assert renamed.status_code in (200, 201), renamed.json
    swapped = saved_client.post(
        url(event, "/rounds/1/swaps"), json={"players": ["Anne", "Bob"]}, headers=organiser(event)
    )
    assert swapped.status_code in (200, 201), swapped.json
    entered = result(saved_client, event, 1, tokens["Ann"], table=2, **win("anne", "Dee", 3, 1))
    assert entered.status_code == 201, entered.json
    assert entered.json["players"] == ["Anne", "Dee"]
    refused = result(saved_client, event, 1, tokens["Ann"], table=1, **win("Bob", "Cid"))
    assert refused.status_code == 403, refused.json


# --------------------------------------------------------------------------------------------
# The standings: kept, with an ETag, in pages


def standings(client, event, etag=None, **query):
    headers = {"If-None-Match": etag} if etag else {}
    return client.get(url(event, "/standings"), query_string=query, headers=headers)


def test_standings_answer_304_to_their_etag_until_the_day_changes(saved_client):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 4)
    start(saved_client, event)
    first = standings(saved_client, event)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    again = standings(saved_client, event, etag)
    assert (again.status_code, again.headers["ETag"], again.data) == (304, etag, b"")
    (table, a, b, token), *_ = seated(saved_client, event, tokens)
    result(saved_client, event, 1, token, table=table, **win(a, b))
    waiting = standings(saved_client, event, etag)
    assert waiting.status_code == 200 and waiting.headers["ETag"] != etag  # an entry is a change of the day
    confirm(saved_client, event, 1, tokens[b], table)
    changed = standings(saved_client, event, waiting.headers["ETag"])
    assert changed.status_code == 200
    assert next(s for s in changed.json["standings"] if s["player"] == a)["wins"] == 1
    renamed = saved_client.post(url(event, "/renames"), json={"player": a, "name": a + "x"}, headers=organiser(event))
    assert renamed.status_code in (200, 201)
    after = standings(saved_client, event, changed.headers["ETag"])
    assert after.status_code == 200 and a + "x" in [s["player"] for s in after.json["standings"]]


def test_a_new_submission_changes_the_standings_etag(saved_client):
    event = make_event(saved_client)
    register(saved_client, event, 2, names=["Ann", "Bob"])
    etag = standings(saved_client, event).headers["ETag"]
    register(saved_client, event, 1, names=["Cid"])
    after = standings(saved_client, event, etag)
    assert after.status_code == 200
    assert [s["player"] for s in after.json["standings"]] == ["Ann", "Bob", "Cid"]


def test_standings_are_computed_once_per_change_and_again_by_other_code(saved_client, monkeypatch):
    from listbuilder.web import context

    calls = []
    computed = context.standings_rows
    monkeypatch.setattr(context, "standings_rows", lambda day: calls.append(1) or computed(day))
    event = make_event(saved_client)
    register(saved_client, event, 3)
    for _ in range(3):
        assert standings(saved_client, event).status_code == 200
    assert saved_client.get(url(event, "/standings.csv")).status_code == 200
    assert len(calls) == 1
    register(saved_client, event, 1, names=["Late"])
    assert standings(saved_client, event).status_code == 200
    assert len(calls) == 2
    monkeypatch.setattr(context, "answers_code", lambda: "another release")
    assert standings(saved_client, event).status_code == 200
    assert len(calls) == 3


def test_standings_come_in_pages_with_a_next_link(saved_client):
    event = make_event(saved_client)
    register(saved_client, event, 5)
    whole = standings(saved_client, event).json
    assert (whole["total"], whole["next"]) == (5, None)
    rows, page = [], standings(saved_client, event, limit=2).json
    while True:
        rows += page["standings"]
        assert page["total"] == 5
        if page["next"] is None:
            break
        page = saved_client.get(page["next"]).json
    assert rows == whole["standings"]
    linked = standings(saved_client, event, limit=2, offset=2)
    assert linked.headers["Link"] == f'<{linked.json["next"]}>; rel="next"'
    assert "offset=4" in linked.json["next"]
    for bad in ({"limit": 0}, {"offset": -1}, {"limit": "many"}):
        refused = standings(saved_client, event, **bad)
        assert refused.status_code == 422, (bad, refused.json)


def test_standings_read_while_results_race_in_end_as_the_day_stands(saved_app):
    """Readers keeping standings while writers add results: the last answer is the day's, never
    an older one kept after it (each kept body is of the count it was read at)."""
    client = saved_app.test_client()
    event = make_event(client)
    tokens = register(client, event, 16)
    start(client, event)
    games = seated(client, event, tokens)
    stop = threading.Event()

    def read():
        reader = saved_app.test_client()
        while not stop.is_set():
            assert standings(reader, event).status_code == 200

    readers = [threading.Thread(target=read) for _ in range(3)]
    for t in readers:
        t.start()
    try:
        for table, a, b, token in games:
            writer = saved_app.test_client()
            assert result(writer, event, 1, token, table=table, **win(a, b)).status_code == 201
            assert confirm(writer, event, 1, tokens[b], table).status_code == 201
    finally:
        stop.set()
        for t in readers:
            t.join()
    final = standings(client, event).json["standings"]
    assert sorted(s["player"] for s in final if s["wins"] == 1) == sorted(a for _, a, _, _ in games)


def test_a_round_answers_304_to_its_etag_until_the_day_changes(saved_client):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 4)
    start(saved_client, event)
    first = saved_client.get(url(event, "/rounds/1"))
    etag = first.headers["ETag"]
    again = saved_client.get(url(event, "/rounds/1"), headers={"If-None-Match": etag})
    assert (again.status_code, again.data) == (304, b"")
    (table, a, b, token), *_ = seated(saved_client, event, tokens)
    result(saved_client, event, 1, token, table=table, **win(a, b))
    changed = saved_client.get(url(event, "/rounds/1"), headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert next(t for t in changed.json["pairings"] if t["table"] == table)["status"] == "waiting"
    other = saved_client.get(url(event, "/rounds/2"), headers={"If-None-Match": etag})
    assert other.status_code == 404  # another round's ETag never matches, and round 2 has not started


def test_a_round_is_computed_once_per_change_however_many_phones_ask(saved_client, monkeypatch):
    from listbuilder.events import rounds as day_rules

    event = make_event(saved_client)
    tokens = register(saved_client, event, 6)
    start(saved_client, event)
    calls = []
    computed = day_rules.round_body
    monkeypatch.setattr(day_rules, "round_body", lambda *a: calls.append(1) or computed(*a))
    bodies = [saved_client.get(url(event, "/rounds/1")).json for _ in range(5)]
    assert len(calls) == 0 and all(b == bodies[0] for b in bodies)  # the start answered it and kept it
    (table, a, b, token), *_ = seated(saved_client, event, tokens)
    result(saved_client, event, 1, token, table=table, **win(a, b))
    after = saved_client.get(url(event, "/rounds/1")).json
    assert [saved_client.get(url(event, "/rounds/1")).json for _ in range(3)] == [after] * 3
    assert len(calls) == 1
    assert next(t for t in after["pairings"] if t["table"] == table)["status"] == "waiting"


def test_one_table_is_read_from_its_own_rows_and_a_missing_one_is_404(saved_client, monkeypatch):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 5)  # an odd field: the last table is a bye
    paired = start(saved_client, event)
    (table, a, b, token), *_ = seated(saved_client, event, tokens)
    result(saved_client, event, 1, token, table=table, **win(a, b, 4, 2))

    def whole_day(*args, **kwargs):
        raise AssertionError("one table read every player's rows")

    monkeypatch.setattr(store, "_load", whole_day)
    one = saved_client.get(url(event, f"/rounds/1/tables/{table}"))
    assert one.status_code == 200, one.json
    assert (one.json["players"], one.json["status"], one.json["entered_by"]) == ([a, b], "waiting", a)
    bye = paired["pairings"][-1]
    assert saved_client.get(url(event, f"/rounds/1/tables/{bye['table']}")).json["status"] == "bye"
    for missing in ("/rounds/1/tables/99", "/rounds/7/tables/1"):
        assert saved_client.get(url(event, missing)).status_code == 404

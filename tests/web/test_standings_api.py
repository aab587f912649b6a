"""Standings over the API (issue 35): the tiebreakers ``sos`` and ``secondary_difference`` in the
organiser's order, end to end (PATCH of the event's settings, then GET /standings as JSON, CSV
and PDF), and who the standings leave out: players withdrawn before they played. The event is
the worked example of docs/events.md, played through the API; on SQLite, and on PostgreSQL
when TEST_DATABASE_URL is set."""

from __future__ import annotations

import csv
import io

import pytest
from pypdf import PdfReader

from tests.web.test_events_api import EVENT, make_event, organiser
from tests.web.test_rounds_api import register, start, url, win

# The worked example of docs/events.md: Dee arrives for round 2, Cid has the bye of round 1.
# Each round's games as (winner, loser, winner's secondary, loser's secondary).
ROUNDS = {
    1: [("Ann", "Bob", 10, 4)],
    2: [("Ann", "Cid", 8, 6), ("Dee", "Bob", 7, 2)],
    3: [("Dee", "Ann", 9, 3), ("Bob", "Cid", 7, 5)],
}
HAND = {  # computed by hand in docs/events.md
    "Ann": {"score": 6, "buchholz": 12, "sos": 4, "secondary_difference": 2},
    "Bob": {"score": 3, "buchholz": 15, "sos": 5, "secondary_difference": -9},
    "Cid": {"score": 3, "buchholz": 9, "sos": 4.5, "secondary_difference": -4},
    "Dee": {"score": 6, "buchholz": 9, "sos": 4.5, "secondary_difference": 11},
}


def post(client, event, path, body):
    response = client.post(url(event, path), json=body, headers=organiser(event))
    assert response.status_code in (200, 201), response.json
    return response.json


def standings(client, event):
    response = client.get(url(event, "/standings"))
    assert response.status_code == 200, response.json
    return response.json


def play(client, event, number, paired):
    """Enter round *number*'s results as the organiser, after checking the tables are the example's."""
    games = ROUNDS[number]
    tables = {frozenset(t["players"]) - {None}: t["table"] for t in paired["pairings"] if None not in t["players"]}
    assert set(tables) == {frozenset(g[:2]) for g in games}, paired["pairings"]
    for winner, loser, won, lost in games:
        post(
            client,
            event,
            f"/rounds/{number}/results",
            {"table": tables[frozenset((winner, loser))], **win(winner, loser, won, lost)},
        )


def run_example(client, order):
    """The worked example with the tiebreakers in *order* (None: never set, the default), plus
    Eve, who withdraws before round 1 and never comes; Bob withdraws after round 3."""
    event = make_event(client)
    register(client, event, 5, names=["Ann", "Bob", "Cid", "Dee", "Eve"])
    if order is not None:
        edited = client.patch(url(event), json={"tiebreakers": order}, headers=organiser(event))
        assert edited.status_code == 200, edited.json
    for name in ("Dee", "Eve"):
        post(client, event, "/withdrawals", {"player": name})
    first = start(client, event, seed_order=["Ann", "Bob", "Cid"])
    assert [t["players"] for t in first["pairings"]] == [["Ann", "Bob"], ["Cid", None]]
    assert [s["player"] for s in standings(client, event)["standings"]] == ["Cid", "Ann", "Bob"]  # no Dee, no Eve
    play(client, event, 1, first)
    post(client, event, "/reinstatements", {"player": "Dee"})  # Dee arrives for round 2
    dee = next(s for s in standings(client, event)["standings"] if s["player"] == "Dee")
    assert (dee["played"], dee["withdrawn"]) == (0, False)
    play(client, event, 2, start(client, event))
    play(client, event, 3, start(client, event))
    post(client, event, "/withdrawals", {"player": "Bob"})  # after playing: stays, flagged
    return event


@pytest.mark.parametrize(
    ("order", "ranked"),
    [
        (["sos", "secondary_difference"], ["Dee", "Ann", "Bob", "Cid"]),
        (["secondary_difference", "sos", "buchholz"], ["Dee", "Ann", "Cid", "Bob"]),
        (None, ["Ann", "Dee", "Bob", "Cid"]),  # the default: Buchholz first, as before issue 35
    ],
)
def test_standings_rank_by_the_organisers_tiebreakers_as_json_csv_and_pdf(saved_client, order, ranked):
    event = run_example(saved_client, order)
    shown = order or ["buchholz", "opponents_strength", "secondary", "head_to_head"]
    body = standings(saved_client, event)
    assert body["rounds"] == 3 and body["tiebreakers"] == shown
    rows = body["standings"]
    assert [r["player"] for r in rows] == ranked and [r["rank"] for r in rows] == [1, 2, 3, 4]
    for r in rows:
        hand = HAND[r["player"]]
        assert r["score"] == hand["score"] and list(r["tiebreakers"]) == shown
        assert {t: v for t, v in r["tiebreakers"].items() if t in hand} == {t: hand[t] for t in shown if t in hand}
    assert {r["player"]: r["withdrawn"] for r in rows} == {"Ann": False, "Bob": True, "Cid": False, "Dee": False}
    assert {r["player"]: (r["played"], r["byes"]) for r in rows} == {
        "Ann": (3, 0),
        "Bob": (3, 0),
        "Cid": (3, 1),
        "Dee": (2, 0),
    }

    exported = list(csv.reader(io.StringIO(saved_client.get(url(event, "/standings.csv")).get_data(as_text=True))))
    header, lines = exported[0], exported[1:]
    assert header[-len(shown) :] == shown and [line[1] for line in lines] == ranked  # Eve left out here too
    for line in lines:
        cells = dict(zip(header, line, strict=True))
        for t in shown:
            if t in HAND[cells["player"]]:
                assert float(cells[t]) == HAND[cells["player"]][t]  # -9, not '-9: numbers stay numbers

    sheet = saved_client.get(url(event, "/standings.pdf?paper=a4"))
    assert sheet.status_code == 200
    text = PdfReader(io.BytesIO(sheet.data)).pages[0].extract_text()
    assert "Eve" not in text and "Bob (withdrawn)" in text
    assert [text.index(p) for p in ranked] == sorted(text.index(p) for p in ranked)
    if order is not None:
        assert "SoS" in text and "secondary difference" in text.lower()
        page = saved_client.get(f"/events/{event['id']}/standings").get_data(as_text=True)  # the public page
        assert '<th scope="col">SoS</th>' in page and "Eve" not in page


def test_a_player_withdrawn_before_they_played_is_left_out_and_one_withdrawn_after_playing_stays(saved_client):
    event = make_event(saved_client)
    register(saved_client, event, 5, names=["Ann", "Bob", "Cid", "Dee", "Eve"])
    post(saved_client, event, "/withdrawals", {"player": "Eve"})  # a no-show: withdrawn before round 1
    assert "Eve" not in {r["player"] for r in standings(saved_client, event)["standings"]}
    first = start(saved_client, event, seed_order=["Ann", "Bob", "Cid", "Dee"])  # Ann v Cid, Bob v Dee
    # Ann withdraws while her round 1 game is on: she was seated, so she stays, and her game counts
    post(saved_client, event, "/withdrawals", {"player": "Ann"})
    ann = next(r for r in standings(saved_client, event)["standings"] if r["player"] == "Ann")
    assert (ann["withdrawn"], ann["played"]) == (True, 0)
    for t in first["pairings"]:
        post(saved_client, event, "/rounds/1/results", {"table": t["table"], **win(*t["players"])})
    rows = {r["player"]: r for r in standings(saved_client, event)["standings"]}
    assert set(rows) == {"Ann", "Bob", "Cid", "Dee"}
    assert (rows["Ann"]["withdrawn"], rows["Ann"]["played"], rows["Ann"]["wins"]) == (True, 1, 1)
    second = start(saved_client, event)
    assert "Ann" not in {p for t in second["pairings"] for p in t["players"]}
    assert "Eve" not in saved_client.get(url(event, "/standings.csv")).get_data(as_text=True)
    # the organiser's report of entries still lists every player who submitted, Eve too
    entries = saved_client.get(url(event, "/report.csv"), headers=organiser(event)).get_data(as_text=True)
    assert "Eve" in entries


def test_the_tiebreakers_setting_takes_every_name_once_in_any_order(saved_client):
    event = make_event(saved_client)
    every = ["secondary_difference", "head_to_head", "sos", "secondary", "opponents_strength", "buchholz"]
    for body, status in (
        ({"tiebreakers": every}, 200),
        ({"tiebreakers": ["sos"]}, 200),
        ({"tiebreakers": []}, 200),  # the score alone, then names
        ({"tiebreakers": ["sos", "sos"]}, 422),
        ({"tiebreakers": ["median_buchholz"]}, 422),
        ({"tiebreakers": "sos"}, 422),
    ):
        answer = saved_client.patch(url(event), json=body, headers=organiser(event))
        assert answer.status_code == status, (body, answer.json)
        if status == 422:
            assert [k.split("[")[0] for k in answer.json["errors"]] == ["tiebreakers"], answer.json
    saved_client.patch(url(event), json={"tiebreakers": every}, headers=organiser(event))
    assert standings(saved_client, event)["tiebreakers"] == every


def test_the_openapi_document_names_the_six_tiebreakers_each_at_most_once(saved_client):
    spec = saved_client.get("/api/v1/openapi.json").get_json()
    schema = spec["components"]["schemas"]["EventEditIn"]["properties"]["tiebreakers"]
    assert schema["uniqueItems"] is True and schema["maxItems"] == 6
    assert set(schema["items"]["enum"]) == {
        "buchholz",
        "opponents_strength",
        "secondary",
        "head_to_head",
        "sos",
        "secondary_difference",
    }


def test_the_day_settings_are_given_when_the_event_is_created(saved_client):
    """``POST /events`` takes the tiebreakers (and the other day settings) as PATCH does, logged alike."""
    order = ["secondary_difference", "sos"]
    event = make_event(saved_client, tiebreakers=order, lists_after_start=True)
    register(saved_client, event, 2, names=["Ann", "Bob"])
    assert standings(saved_client, event)["tiebreakers"] == order
    log = saved_client.get(url(event, "/log"), headers=organiser(event)).json["log"]
    assert [(e["kind"], e["data"]["after"]["day"]) for e in log] == [
        ("settings", {"tiebreakers": order, "lists_after_start": True})
    ]
    start(saved_client, event)
    register(saved_client, event, 1, names=["Cid"])  # lists_after_start: a late list is taken


def test_an_unknown_or_repeated_tiebreaker_at_creation_is_422_naming_the_field(saved_client):
    for bad in (["sos", "sos"], ["coin_toss"]):
        refused = saved_client.post("/api/v1/events", json={**EVENT, "tiebreakers": bad})
        assert refused.status_code == 422, refused.json
        assert "tiebreakers" in str(refused.json), refused.json

"""Fixed tables and table names over the API (issue 39): set with the day's settings (POST
/events, PATCH, also after round 1), kept by the pairing, shown in the round, the table, the
player's day and the printed sheets; on SQLite and on PostgreSQL when TEST_DATABASE_URL is set."""

from __future__ import annotations

import io

from pypdf import PdfReader

from tests.web.test_events_api import EVENT, make_event, organiser
from tests.web.test_rounds_api import confirm, register, result, start, url, win
from tests.web.test_saved_api import auth

NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def patch(client, event, **body):
    return client.patch(url(event), json=body, headers=organiser(event))


def seat_of(body, player):
    return next(t for t in body["pairings"] if player in t["players"])


def play_out(client, event, number, tokens):
    for t in client.get(url(event, f"/rounds/{number}")).json["pairings"]:
        a, b = t["players"]
        if b is not None:
            assert result(client, event, number, tokens[b], table=t["table"], **win(a, b)).status_code == 201
            assert confirm(client, event, number, tokens[a], t["table"]).status_code == 201


def test_a_fixed_player_keeps_their_table_every_round_even_renamed(saved_client):
    event = make_event(saved_client, fixed_tables={"  hal ": 2}, table_names={"2": "Step-free · by the door"})
    tokens = register(saved_client, event, 8, names=NAMES)
    first = start(saved_client, event, seed=7)
    at = seat_of(first, "Hal")
    assert at["table"] == 2 and at["table_name"] == "Step-free · by the door"
    assert sorted(t["table"] for t in first["pairings"]) == [1, 2, 3, 4] and first["notes"] == []
    assert [t["table_name"] for t in first["pairings"] if t["table"] != 2] == [None, None, None]
    table = saved_client.get(url(event, "/rounds/1/tables/2")).json
    assert table["table_name"] == "Step-free · by the door" and "Hal" in table["players"]
    me = saved_client.get(url(event, "/me"), headers=auth(tokens["Hal"])).json
    assert me["table"]["table"] == 2 and me["table"]["table_name"] == "Step-free · by the door"
    # renamed, Hal is still the one player of table 2: the setting holds the key, not a spelling
    renamed = saved_client.post(
        url(event, "/renames"), json={"player": "Hal", "name": "Harold"}, headers=organiser(event)
    )
    assert renamed.status_code == 201, renamed.json
    tokens["Harold"] = tokens.pop("Hal")
    play_out(saved_client, event, 1, tokens)
    second = start(saved_client, event)
    assert seat_of(second, "Harold")["table"] == 2
    room = saved_client.get(url(event, "/tables"), headers=organiser(event)).json
    assert room == {
        "names": [{"table": 2, "name": "Step-free · by the door"}],
        "fixed": [{"player": "Harold", "table": 2}],
    }
    assert saved_client.get(url(event, "/tables")).status_code == 401
    assert saved_client.get(url(event, "/tables"), headers=auth(tokens["Ann"])).status_code == 403


def test_the_room_changes_after_round_1_and_seats_the_next_round_the_rest_stays_fixed(saved_client):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 8, names=NAMES)
    start(saved_client, event, seed=3)
    moved = patch(saved_client, event, fixed_tables={"Ann": 9}, table_names={"1": "Forest board", "9": "Stall"})
    assert moved.status_code == 200, moved.json
    assert saved_client.get(url(event, "/rounds/1")).json["pairings"][0]["table_name"] == "Forest board"
    standings = saved_client.get(f"/events/{event['id']}/standings").get_data(as_text=True)  # find your table
    assert "Table 1 · Forest board</span>" in standings
    late = patch(saved_client, event, name="Too late", fixed_tables={"Ann": 9})
    assert late.status_code == 409 and "fixed_tables" in late.json["message"]
    play_out(saved_client, event, 1, tokens)
    second = start(saved_client, event)
    assert seat_of(second, "Ann")["table"] == 9 and seat_of(second, "Ann")["table_name"] == "Stall"
    assert sorted(t["table"] for t in second["pairings"]) == [1, 2, 3, 9]
    record = saved_client.get(url(event, "/log"), headers=organiser(event)).json["log"]
    assert record[-1]["kind"] == "settings" and record[-1]["data"]["after"]["day"]["fixed_tables"] == {"ann": 9}
    # cleared: an empty set
    assert patch(saved_client, event, fixed_tables={}, table_names={}).status_code == 200
    assert saved_client.get(url(event, "/tables"), headers=organiser(event)).json == {"names": [], "fixed": []}


def test_two_fixed_players_who_meet_play_at_the_lower_table_and_the_round_says_so(saved_client):
    event = make_event(saved_client, fixed_tables={"Ann": 4, "Cid": 2})
    register(saved_client, event, 4, names=NAMES[:4])
    body = start(saved_client, event, seed_order=["Ann", "Ben", "Cid", "Dee"])  # folded: Ann v Cid, Ben v Dee
    assert seat_of(body, "Ann")["table"] == 2 and set(seat_of(body, "Ann")["players"]) == {"Ann", "Cid"}
    assert seat_of(body, "Ben")["table"] == 1
    assert body["notes"] == ["Ann (table 4) and Cid (table 2) are both fixed and play each other at table 2"]
    assert saved_client.get(url(event, "/rounds/1")).json["notes"] == body["notes"]


def test_bad_room_settings_are_named_422s(saved_client):
    event = make_event(saved_client)
    register(saved_client, event, 2, names=NAMES[:2])
    cases = [
        {"fixed_tables": {"Ann": 3, "Ben": 3}},  # one table, two fixed players
        {"fixed_tables": {"Ann": 3, "ANN": 4}},  # one player twice
        {"fixed_tables": {"Ann": 0}},
        {"fixed_tables": {"Ann": 10000}},
        {"fixed_tables": {" ": 1}},
        {"table_names": {"0": "Zero"}},
        {"table_names": {"two": "Forest"}},
        {"table_names": {"2": "   "}},
        {"table_names": {"2": "x" * 61}},
        {"table_names": {str(n): "T" for n in range(1, 2002)}},  # more tables than an event has players
    ]
    for body in cases:
        refused = patch(saved_client, event, **body)
        assert refused.status_code == 422, (body, refused.json)
        assert next(iter(body)) in str(refused.json["errors"]), refused.json
    assert saved_client.post("/api/v1/events", json={**EVENT, "table_names": {"x": "y"}}).status_code == 422


def test_the_sheets_and_slips_name_the_tables(saved_client):
    event = make_event(saved_client, table_names={"1": "Forest board", "2": "Desert <b>dunes</b>"})
    register(saved_client, event, 4, names=NAMES[:4])
    start(saved_client, event, seed=1)
    for sheet in ("pairings.pdf", "find-your-table.pdf", "slips.pdf"):
        pdf = saved_client.get(url(event, f"/rounds/1/{sheet}"))
        assert pdf.status_code == 200, sheet
        text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.data)).pages)
        assert "Forest board" in text and "Desert <b>dunes</b>" in text, (sheet, text)

"""The tournament day over the API (/api/v1/events/<id>/rounds, results, standings …), on SQLite and on PostgreSQL when TEST_DATABASE_URL is set."""

from __future__ import annotations

import csv
import io
import json
import math
import random
from pathlib import Path

from pypdf import PdfReader

from tests.web.test_events_api import EVENT, FUTURE, ILLEGAL, make_event, organiser, submit
from tests.web.test_saved_api import ERROR_KEYS, LIST, auth, count_rows, create

GOLDEN_HEX = Path(__file__).resolve().parents[1] / "golden" / "armour-hex" / "legal-standard-hammerdeep.json"


def hex_list():
    return json.loads(GOLDEN_HEX.read_text())["list"]


def url(event, path=""):
    return f"/api/v1/events/{event['id']}{path}"


def register(client, event, n, body=None, names=None):
    """n players, each with a list of their own: name -> player token."""
    tokens = {}
    for i in range(n):
        name = names[i] if names else f"Player {i:02d}"
        made = create(client, body or LIST)
        response = submit(client, event, made, player=name)
        assert response.status_code == 201, response.json
        tokens[name] = response.json["player_token"]
    return tokens


def start(client, event, **body):
    response = client.post(url(event, "/rounds"), json=body, headers=organiser(event))
    assert response.status_code == 201, response.json
    return response.json


def result(client, event, number, token, **body):
    return client.post(url(event, f"/rounds/{number}/results"), json=body, headers=auth(token))


def confirm(client, event, number, token, table):
    return client.post(url(event, f"/rounds/{number}/confirmations"), json={"table": table}, headers=auth(token))


def win(a, b, sa=0, sb=0):
    return {"outcome": {a: "win", b: "loss"}, "secondary": {a: sa, b: sb}}


# --------------------------------------------------------------------------------------------
# Done when: a whole event through the API


def test_a_64_player_5_round_event_runs_end_to_end_through_the_api(saved_client):
    rng = random.Random(64)
    event = make_event(saved_client, name="Spring Swiss")
    tokens = register(saved_client, event, 64)
    assert saved_client.post(url(event, "/close"), headers=organiser(event)).status_code == 200
    wins = dict.fromkeys(tokens, 0)
    secondary = dict.fromkeys(tokens, 0)
    met = {p: set() for p in tokens}
    for number in range(1, 6):
        body = start(saved_client, event, **({"seed": 2026} if number == 1 else {}))
        assert body["number"] == number and len(body["pairings"]) == 32
        seated = [p for t in body["pairings"] for p in t["players"]]
        assert sorted(seated) == sorted(tokens) and [t["table"] for t in body["pairings"]] == list(range(1, 33))
        assert saved_client.get(url(event, f"/rounds/{number}")).json["pairings"] == body["pairings"]
        for t in body["pairings"]:
            a, b = t["players"]
            assert b not in met[a], f"round {number}: a rematch"
            met[a].add(b), met[b].add(a)
            winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
            points = rng.randrange(0, 15)
            game = win(winner, loser, points, 0)
            if t["table"] % 8 == 0:  # the organiser enters some results themselves
                entered = saved_client.post(
                    url(event, f"/rounds/{number}/results"),
                    json={"table": t["table"], **game},
                    headers=organiser(event),
                )
                assert entered.status_code == 201 and entered.json["recorded"] == "override"
            else:
                entered = result(saved_client, event, number, tokens[loser], table=t["table"], **game)
                assert entered.status_code == 201 and entered.json["status"] == "waiting"
                confirmed = confirm(saved_client, event, number, tokens[winner], t["table"])
                assert confirmed.status_code == 201 and confirmed.json["status"] == "confirmed", confirmed.json
            wins[winner] += 1
            secondary[winner] += points
        # the pairing of the next round pairs close scores: a round's total score difference is small
    standings = saved_client.get(url(event, "/standings")).json
    rows = standings["standings"]
    assert standings["rounds"] == 5 and len(rows) == 64
    assert {r["player"]: r["score"] for r in rows} == {p: 3 * w for p, w in wins.items()}
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    for r in rows:  # Buchholz (the first tiebreaker by default) recomputed here from the games
        assert r["tiebreakers"]["buchholz"] == sum(3 * wins[o] for o in met[r["player"]])
        assert r["tiebreakers"]["secondary"] == secondary[r["player"]]
    # 5 rounds of Swiss over 64 players: exactly two undefeated is impossible to promise, but the top is 5-0
    assert rows[0]["wins"] == 5 and rows[0]["played"] == 5
    page = saved_client.get(f"/events/{event['id']}/standings").get_data(as_text=True)  # the public page
    assert page.count("<tr") == 65 and page.index(rows[0]["player"]) < page.index(rows[-1]["player"])
    assert saved_client.get(f"/events/{event['id']}/day").status_code == 200
    exported = list(csv.reader(io.StringIO(saved_client.get(url(event, "/standings.csv")).get_data(as_text=True))))
    assert exported[0][:4] == ["rank", "player", "faction", "score"] and len(exported) == 65
    for path in ("/rounds/5/pairings.pdf?paper=letter", "/standings.pdf?paper=a4"):
        sheet = saved_client.get(url(event, path))
        assert sheet.status_code == 200 and sheet.mimetype == "application/pdf"
        pages = PdfReader(io.BytesIO(sheet.data)).pages
        assert len(pages) == (1 if "pairings" in path else 2)  # 32 tables; 64 rows at 40 a page
        assert rows[0]["player"] in pages[0].extract_text() or "pairings" in path


def test_a_round_cannot_start_while_a_table_of_the_last_one_has_no_result(saved_client):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 4)
    first = start(saved_client, event)
    a, b = first["pairings"][0]["players"]
    assert result(saved_client, event, 1, tokens[a], table=1, **win(a, b)).status_code == 201
    refused = saved_client.post(url(event, "/rounds"), json={}, headers=organiser(event))
    assert (
        refused.status_code == 409 and set(refused.json) == ERROR_KEYS and "[1, 2]" in refused.json["message"]
    )  # table 1 waits for confirmation


def test_an_odd_field_gives_a_bye_as_null_at_the_last_table(saved_client):
    event = make_event(saved_client)
    register(saved_client, event, 5)
    body = start(saved_client, event, seed=1)
    assert body["pairings"][-1]["table"] == 3 and body["pairings"][-1]["players"][1] is None
    assert body["pairings"][-1]["status"] == "bye"
    standing = saved_client.get(url(event, "/standings")).json["standings"]
    bye = next(s for s in standing if s["player"] == body["pairings"][-1]["players"][0])
    assert bye["score"] == 3 and bye["byes"] == 1


def test_round_1_by_seed_order_and_by_seed_is_reproducible(saved_client):
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
    event = make_event(saved_client)
    register(saved_client, event, 8, names=names)
    body = start(saved_client, event, seed_order=list(reversed(names)))
    assert [t["players"] for t in body["pairings"]] == [
        ["Hal", "Dee"],
        ["Gus", "Cid"],
        ["Fay", "Bob"],
        ["Eve", "Ann"],
    ]  # 1 v 5, 2 v 6 …
    drawn = []
    for _ in range(2):  # two events, the same players and seed: the same round 1
        other = make_event(saved_client)
        register(saved_client, other, 8, names=names)
        drawn.append(start(saved_client, other, seed=77))
    assert drawn[0]["seed"] == drawn[1]["seed"] == 77 and drawn[0]["pairings"] == drawn[1]["pairings"]
    unseeded = make_event(saved_client)
    register(saved_client, unseeded, 8, names=names)
    assert isinstance(start(saved_client, unseeded)["seed"], int)  # drawn, and shown so the round can be made again


def test_later_rounds_refuse_a_seed_and_an_unknown_seed_order_is_422(saved_client):
    event = make_event(saved_client)
    register(saved_client, event, 2, names=["Ann", "Bob"])
    bad = saved_client.post(url(event, "/rounds"), json={"seed_order": ["Ann", "Zed"]}, headers=organiser(event))
    assert bad.status_code == 422 and "seed_order" in bad.json["errors"]


# --------------------------------------------------------------------------------------------
# Results: enter, confirm, dispute, override; all kept


def test_a_player_enters_the_opponent_confirms_and_the_organiser_overrides_with_everything_kept(saved_client, db):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 2, names=["Ann", "Bob"])
    start(saved_client, event)
    entered = result(
        saved_client,
        event,
        1,
        tokens["Ann"],
        table=1,
        outcome={"ann": "win", "BOB": "loss"},
        secondary={"Ann": 12, "Bob": 4},
    )
    assert entered.status_code == 201 and entered.json["status"] == "waiting" and entered.json["entered_by"] == "Ann"
    own = confirm(saved_client, event, 1, tokens["Ann"], 1)
    assert own.status_code == 409  # nobody confirms their own result
    agreed = result(
        saved_client, event, 1, tokens["Bob"], table=1, **win("Ann", "Bob", 12, 4)
    )  # the same result confirms
    assert agreed.json["recorded"] == "confirmation" and agreed.json["status"] == "confirmed"
    assert agreed.json["scores"]["Ann"] == {"points": 3, "secondary": 12, "outcome": "win"}
    late = result(saved_client, event, 1, tokens["Ann"], table=1, **win("Bob", "Ann"))
    assert late.status_code == 409
    decided = saved_client.post(
        url(event, "/rounds/1/results"),
        json={"table": 1, "outcome": {"Ann": "draw", "Bob": "draw"}},
        headers=organiser(event),
    )
    assert decided.status_code == 201 and decided.json["status"] == "decided"
    assert [s["score"] for s in saved_client.get(url(event, "/standings")).json["standings"]] == [1, 1]
    record = saved_client.get(url(event, "/log"), headers=organiser(event)).json
    assert [r["kind"] for r in record["results"]] == ["entry", "confirmation", "override"]
    assert saved_client.get(url(event, "/log"), headers=auth(tokens["Ann"])).status_code == 403


def test_an_override_of_an_earlier_round_moves_the_standings_recomputed_from_every_result(saved_client):
    event = make_event(saved_client)
    register(saved_client, event, 4, names=["Ann", "Bob", "Cid", "Dee"])
    first = start(saved_client, event, seed_order=["Ann", "Bob", "Cid", "Dee"])  # Ann v Cid, Bob v Dee
    for t in first["pairings"]:
        a, b = t["players"]
        saved_client.post(
            url(event, "/rounds/1/results"), json={"table": t["table"], **win(a, b)}, headers=organiser(event)
        )
    start(saved_client, event)
    before = {s["player"]: s["score"] for s in saved_client.get(url(event, "/standings")).json["standings"]}
    assert before == {"Ann": 3, "Bob": 3, "Cid": 0, "Dee": 0}
    fixed = saved_client.post(
        url(event, "/rounds/1/results"), json={"table": 1, **win("Cid", "Ann")}, headers=organiser(event)
    )
    assert fixed.status_code == 201 and fixed.json["status"] == "decided"
    after = {s["player"]: s for s in saved_client.get(url(event, "/standings")).json["standings"]}
    assert {p: s["score"] for p, s in after.items()} == {"Ann": 0, "Bob": 3, "Cid": 3, "Dee": 0}
    assert after["Bob"]["tiebreakers"]["buchholz"] == 0  # Dee scored 0; round 2 has no result yet
    kinds = [
        r["kind"]
        for r in saved_client.get(url(event, "/log"), headers=organiser(event)).json["results"]
        if r["round"] == 1 and r["table"] == 1
    ]
    assert kinds == ["override", "override"]  # both kept


def test_a_player_may_not_enter_a_result_for_another_table(saved_client):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 4)
    body = start(saved_client, event)
    a, b = body["pairings"][0]["players"]
    c, d = body["pairings"][1]["players"]
    refused = result(saved_client, event, 1, tokens[c], table=1, **win(a, b))
    assert refused.status_code == 403 and set(refused.json) == ERROR_KEYS
    unknown = result(saved_client, event, 1, tokens[a], table=1, **win(a, c))
    assert unknown.status_code == 422 and "outcome" in unknown.json["errors"]
    assert result(saved_client, event, 1, "not-a-token", table=1, **win(a, b)).status_code == 403
    assert saved_client.post(url(event, "/rounds/1/results"), json={"table": 1, **win(a, b)}).status_code == 401
    assert result(saved_client, event, 1, tokens[a], table=9, **win(a, b)).status_code == 404
    assert result(saved_client, event, 7, tokens[a], table=1, **win(a, b)).status_code == 404


# --------------------------------------------------------------------------------------------
# Organiser controls


def test_the_organiser_swaps_two_players_before_their_games_start_and_the_swap_is_logged(saved_client):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 4)
    body = start(saved_client, event)
    (a, b), (c, d) = (t["players"] for t in body["pairings"])
    swapped = saved_client.post(url(event, "/rounds/1/swaps"), json={"players": [b, d]}, headers=organiser(event))
    assert swapped.status_code == 201 and [t["players"] for t in swapped.json["pairings"]] == [[a, d], [c, b]]
    record = saved_client.get(url(event, "/log"), headers=organiser(event)).json
    assert record["log"][-1]["kind"] == "swap" and record["log"][-1]["data"] == {"round": 1, "players": [b, d]}
    assert [t[1:] for t in record["rounds"][0]["tables"]] == [[a, b], [c, d]]  # the tables as paired are kept
    assert result(saved_client, event, 1, tokens[a], table=1, **win(a, d)).status_code == 201
    late = saved_client.post(url(event, "/rounds/1/swaps"), json={"players": [a, c]}, headers=organiser(event))
    assert late.status_code == 409
    assert (
        saved_client.post(url(event, "/rounds/1/swaps"), json={"players": [a, c]}, headers=auth(tokens[a])).status_code
        == 403
    )


def test_a_withdrawn_player_is_left_out_of_later_rounds_and_can_be_reinstated(saved_client):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 4, names=["Ann", "Bob", "Cid", "Dee"])
    body = start(saved_client, event)
    for t in body["pairings"]:
        a, b = t["players"]
        assert (
            saved_client.post(
                url(event, "/rounds/1/results"), json={"table": t["table"], **win(a, b)}, headers=organiser(event)
            ).status_code
            == 201
        )
    assert (
        saved_client.post(url(event, "/withdrawals"), json={"player": "ann"}, headers=organiser(event)).status_code
        == 201
    )
    assert (
        saved_client.post(url(event, "/withdrawals"), json={"player": "Ann"}, headers=organiser(event)).status_code
        == 409
    )
    assert (
        saved_client.post(url(event, "/withdrawals"), json={"player": "Zed"}, headers=organiser(event)).status_code
        == 422
    )
    second = start(saved_client, event)
    assert (
        "Ann" not in [p for t in second["pairings"] for p in t["players"]]
        and second["pairings"][-1]["players"][1] is None
    )
    ann = next(s for s in saved_client.get(url(event, "/standings")).json["standings"] if s["player"] == "Ann")
    assert ann["withdrawn"] is True and ann["played"] == 1  # her game stays
    assert (
        saved_client.post(url(event, "/reinstatements"), json={"player": "Ann"}, headers=organiser(event)).status_code
        == 201
    )
    assert (
        saved_client.post(url(event, "/withdrawals"), json={"player": "Bob"}, headers=auth(tokens["Bob"])).status_code
        == 403
    )


def test_a_deadline_already_past_is_refused_with_422_at_creation_and_on_edit(saved_client, db):
    from listbuilder.store.events import events

    before = count_rows(db, events)
    refused = saved_client.post("/api/v1/events", json={**EVENT, "deadline": "2020-05-01T09:30:00+02:00"})
    assert refused.status_code == 422 and "deadline" in refused.json["errors"] and count_rows(db, events) == before
    event = make_event(saved_client)
    edit = saved_client.patch(url(event), json={"deadline": "2020-01-01T00:00:00+00:00"}, headers=organiser(event))
    assert edit.status_code == 422 and "deadline" in edit.json["errors"]


def test_the_organiser_edits_the_event_before_round_1_and_not_after(saved_client):
    event = make_event(saved_client)
    edited = saved_client.patch(
        url(event),
        json={
            "name": "Winter Open",
            "deadline": "2099-02-01T10:00:00+00:00",
            "points_limit": 1500,
            "tiebreakers": ["head_to_head", "secondary"],
        },
        headers=organiser(event),
    )
    assert edited.status_code == 200, edited.json
    assert (
        edited.json["name"] == "Winter Open"
        and edited.json["settings"]["points_limit"] == 1500
        and edited.json["deadline"].startswith("2099-02-01T10:00")
    )
    assert saved_client.patch(url(event), json={"name": "X"}, headers=auth("wrong")).status_code == 403
    register(saved_client, event, 2, body={**LIST, "points_limit": 1500})
    locked = saved_client.patch(url(event), json={"points_limit": 500}, headers=organiser(event))
    assert locked.status_code == 409 and "points_limit" in locked.json["errors"]
    start(saved_client, event)
    assert saved_client.get(url(event, "/standings")).json["tiebreakers"] == ["head_to_head", "secondary"]
    late = saved_client.patch(url(event), json={"name": "Too late"}, headers=organiser(event))
    assert late.status_code == 409
    record = saved_client.get(url(event, "/log"), headers=organiser(event)).json["log"]
    assert (
        record[0]["kind"] == "settings"
        and record[0]["data"]["before"]["name"] == "Autumn Open"
        and record[0]["data"]["after"]["name"] == "Winter Open"
    )


def test_closing_and_reopening_submissions(saved_client):
    event = make_event(saved_client)
    closed = saved_client.post(url(event, "/close"), headers=organiser(event))
    assert closed.status_code == 200 and closed.json["open"] is False
    assert saved_client.post(url(event, "/close"), headers=organiser(event)).status_code == 409
    assert submit(saved_client, event, create(saved_client)).status_code == 409
    assert (
        saved_client.post(
            url(event, "/reopen"), json={"deadline": "2020-01-01T00:00:00Z"}, headers=organiser(event)
        ).status_code
        == 422
    )
    reopened = saved_client.post(url(event, "/reopen"), json={"deadline": FUTURE}, headers=organiser(event))
    assert reopened.status_code == 200 and reopened.json["open"] is True
    assert submit(saved_client, event, create(saved_client)).status_code == 201


def test_deleting_an_event_answers_410_and_keeps_its_lists_locked(saved_client):
    event = make_event(saved_client)
    made = create(saved_client)
    assert submit(saved_client, event, made).status_code == 201
    assert saved_client.delete(url(event), headers=auth("wrong")).status_code == 403
    assert saved_client.delete(url(event), headers=organiser(event)).status_code == 204
    for path in ("", "/standings", "/rounds"):
        gone = saved_client.get(url(event, path))
        assert gone.status_code == 410 and set(gone.json) == ERROR_KEYS
    assert saved_client.get(f"/api/v1/lists/{made['id']}").json["locked"] is True
    assert submit(saved_client, event, create(saved_client), player="Bo").status_code == 410


def test_the_pre_check_says_legal_or_not_and_why_and_records_nothing(saved_client, db):
    from listbuilder.store.events import event_submissions

    event = make_event(saved_client)
    before = count_rows(db, event_submissions)
    good = create(saved_client)
    answer = saved_client.post(url(event, "/precheck"), json={"list_id": good["id"]})
    assert (
        answer.status_code == 200
        and answer.json["legal"] is True
        and answer.json["reasons"] == []
        and answer.json["verification_code"]
    )
    bad = create(saved_client, ILLEGAL)
    answer = saved_client.post(url(event, "/precheck"), json={"list_id": bad["id"]})
    assert answer.json["legal"] is False and any("upgrade.count" in r for r in answer.json["reasons"])
    other = create(saved_client, hex_list())
    answer = saved_client.post(url(event, "/precheck"), json={"list_id": other["id"]})
    assert answer.json["legal"] is False and "armour-hex" in answer.json["reasons"][0]
    assert count_rows(db, event_submissions) == before
    assert saved_client.get(f"/api/v1/lists/{good['id']}").json["locked"] is False
    assert saved_client.post(url(event, "/precheck"), json={"list_id": "nosuchlist000000"}).status_code == 404


# --------------------------------------------------------------------------------------------
# armour-hex: the rulebook's tournament scoring from the locked lists


def test_004_victory_condition_fixed_time_scores_from_the_locked_lists_costs(saved_client):
    army = hex_list()
    event = make_event(saved_client, system="armour-hex", books=[{"book": army["book"]}], points_limit=None)
    tokens = register(saved_client, event, 2, body=army, names=["Ann", "Bob"])
    start(saved_client, event)
    # Hammerdeep standard list: fortress 10 IP, anvil 4, bellows 3, mortar 3, gyro 2 (22 IP);
    # guard 2 MP + 10 CP + 12 XP (24), sappers 1 + 2 + 3 (6), rams 2 + 3 (5), smith 1 + 1 + 2 (4): 39 other points.
    # Ann destroys Bob's fortress and crippled his guard; Bob destroys Ann's gyro.
    sides = {"Ann": {"destroyed": ["fortress"], "crippled": ["guard"]}, "Bob": {"destroyed": ["gyro"], "crippled": []}}
    entered = result(saved_client, event, 1, tokens["Ann"], table=1, sides=sides)
    assert entered.status_code == 201, entered.json
    confirmed = confirm(saved_client, event, 1, tokens["Bob"], 1)
    # Ann: 6 x 10 destroyed + 1 x 24 crippled + 3 x (22 - 2) own IP + 1 x 39 own others = 183, +16 = 199.
    # Bob: 6 x 2 destroyed + 3 x (22 - 10) own IP + 39 own others (the guard crippled, still his) = 87.
    scores = confirmed.json["scores"]
    assert scores["Ann"] == {"points": round(math.sqrt(199), 3), "secondary": 199, "outcome": "win"}
    assert scores["Bob"] == {"points": round(math.sqrt(87), 3), "secondary": 87, "outcome": "loss"}
    bad = result(
        saved_client, event, 1, tokens["Ann"], table=1, sides={"Ann": {"destroyed": ["no-such-unit"]}, "Bob": {}}
    )
    assert bad.status_code in (409, 422)


def test_an_armour_hex_result_naming_a_unit_not_in_the_enemy_list_is_422(saved_client):
    army = hex_list()
    event = make_event(saved_client, system="armour-hex", books=[{"book": army["book"]}], points_limit=None)
    tokens = register(saved_client, event, 2, body=army, names=["Ann", "Bob"])
    start(saved_client, event)
    bad = result(
        saved_client, event, 1, tokens["Ann"], table=1, sides={"Ann": {"destroyed": ["no-such-unit"]}, "Bob": {}}
    )
    assert bad.status_code == 422 and "sides.Ann.destroyed" in bad.json["errors"]

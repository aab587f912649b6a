"""The room on the event day over the API (issue 39): undoing a round, check-ins and no-shows,
adjustments in the standings, refused submissions kept for the organiser, and the statistics
that join results to lists. On SQLite and on PostgreSQL when TEST_DATABASE_URL is set."""

from __future__ import annotations

import csv
import io

from tests.web.test_events_api import ILLEGAL, make_event, organiser, submit
from tests.web.test_rounds_api import confirm, register, result, start, url, win
from tests.web.test_saved_api import ERROR_KEYS, LIST, auth, create

SPORES = {
    "system": "grimdark-future",
    "book": "gf-spore-choir",
    "name": "Brood",
    "points_limit": 1000,
    "units": [{"key": "s", "unit": "sc-seed-swarm"}],
}


def standings(client, event):
    return {s["player"]: s for s in client.get(url(event, "/standings")).json["standings"]}


# --------------------------------------------------------------------------------------------
# DELETE /rounds/<n>


def test_the_organiser_undoes_the_last_round_while_it_has_no_result_and_pairs_again(saved_client):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 4)
    first = start(saved_client, event, seed=7)
    a, b = first["pairings"][0]["players"]
    c = first["pairings"][1]["players"][0]
    swapped = saved_client.post(url(event, "/rounds/1/swaps"), json={"players": [b, c]}, headers=organiser(event))
    assert swapped.status_code == 201
    assert saved_client.delete(url(event, "/rounds/1"), headers=auth(tokens[a])).status_code == 403
    assert saved_client.delete(url(event, "/rounds/1")).status_code == 401
    assert saved_client.delete(url(event, "/rounds/2"), headers=organiser(event)).status_code == 404
    undone = saved_client.delete(url(event, "/rounds/1"), headers=organiser(event))
    assert undone.status_code == 204 and undone.data == b""
    assert saved_client.get(url(event, "/rounds/1")).status_code == 404
    assert saved_client.get(url(event, "/rounds")).json["rounds"] == []
    again = start(saved_client, event, seed=7)  # the same seed pairs as before: the swap of the undone round is gone
    assert again["pairings"] == first["pairings"]
    record = saved_client.get(url(event, "/log"), headers=organiser(event)).json
    assert [e["kind"] for e in record["log"]] == ["swap", "undo_round"]
    assert record["log"][1]["data"]["tables"] == [[t["table"], *t["players"]] for t in first["pairings"]]


def test_a_round_with_any_result_or_not_the_last_cannot_be_undone(saved_client):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 2, names=["Ann", "Bob"])
    start(saved_client, event)
    result(saved_client, event, 1, tokens["Ann"], table=1, **win("Ann", "Bob"))  # waiting: a result all the same
    refused = saved_client.delete(url(event, "/rounds/1"), headers=organiser(event))
    assert refused.status_code == 409 and set(refused.json) == ERROR_KEYS and "[1]" in refused.json["message"]
    confirm(saved_client, event, 1, tokens["Bob"], 1)
    start(saved_client, event)
    earlier = saved_client.delete(url(event, "/rounds/1"), headers=organiser(event))
    assert earlier.status_code == 409 and "last round" in earlier.json["message"]
    assert saved_client.delete(url(event, "/rounds/2"), headers=organiser(event)).status_code == 204


# --------------------------------------------------------------------------------------------
# POST /checkins, POST /no-shows


def test_players_check_themselves_in_and_a_retry_changes_nothing(saved_client):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 3, names=["Ann", "Bob", "Cid"])
    first = saved_client.post(url(event, "/checkins"), json={"player": "ann"}, headers=auth(tokens["Ann"]))
    assert first.status_code == 201 and first.json == {
        "player": "Ann",
        "checked_in": True,
        "withdrawn": False,
        "no_show": False,
    }
    again = saved_client.post(url(event, "/checkins"), json={"player": "Ann"}, headers=auth(tokens["Ann"]))
    assert again.status_code == 200 and again.json == first.json
    other = saved_client.post(url(event, "/checkins"), json={"player": "Bob"}, headers=auth(tokens["Ann"]))
    assert other.status_code == 403  # nobody checks another player in but the organiser
    by_organiser = saved_client.post(url(event, "/checkins"), json={"player": "Bob"}, headers=organiser(event))
    assert by_organiser.status_code == 201
    unknown = saved_client.post(url(event, "/checkins"), json={"player": "Zed"}, headers=organiser(event))
    assert unknown.status_code == 422 and "player" in unknown.json["errors"]
    blank = saved_client.post(url(event, "/checkins"), json={"player": " "}, headers=organiser(event))
    assert blank.status_code == 422 and "player" in blank.json["errors"]
    called = saved_client.get(url(event, "/checkins")).json["players"]
    assert [(p["player"], p["checked_in"]) for p in called] == [("Ann", True), ("Bob", True), ("Cid", False)]
    log = saved_client.get(url(event, "/log"), headers=organiser(event)).json["log"]
    assert [e["kind"] for e in log] == ["checkin", "checkin"]


def test_no_shows_are_withdrawn_at_once_and_a_late_check_in_plays_from_the_next_round(saved_client):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 5, names=["Ann", "Bob", "Cid", "Dee", "Eve"])
    for name in ("Ann", "Bob", "Cid", "Dee"):
        saved_client.post(url(event, "/checkins"), json={"player": name}, headers=auth(tokens[name]))
    assert saved_client.post(url(event, "/no-shows"), headers=auth(tokens["Ann"])).status_code == 403
    swept = saved_client.post(url(event, "/no-shows"), headers=organiser(event))
    assert swept.status_code == 200
    assert [p["player"] for p in swept.json["players"] if p["withdrawn"]] == ["Eve"]
    first = start(saved_client, event)
    assert len(first["pairings"]) == 2 and "Eve" not in [p for t in first["pairings"] for p in t["players"]]
    late = saved_client.post(url(event, "/checkins"), json={"player": "Eve"}, headers=auth(tokens["Eve"]))
    assert late.status_code == 201 and late.json == {
        "player": "Eve",
        "checked_in": True,
        "withdrawn": False,
        "no_show": False,
    }
    for t in first["pairings"]:
        a, b = t["players"]
        result(saved_client, event, 1, tokens[a], table=t["table"], **win(a, b))
        confirm(saved_client, event, 1, tokens[b], t["table"])
    eve = standings(saved_client, event)["Eve"]
    assert eve["played"] == 0 and eve["score"] == 0  # nothing for the round she missed
    second = start(saved_client, event)
    assert "Eve" in [p for t in second["pairings"] for p in t["players"]]


def test_the_organiser_counts_a_late_arrivals_missed_rounds_as_losses_when_they_choose(saved_client):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 5, names=["Ann", "Bob", "Cid", "Dee", "Eve"])
    for name in ("Ann", "Bob", "Cid", "Dee"):
        saved_client.post(url(event, "/checkins"), json={"player": name}, headers=auth(tokens[name]))
    swept = saved_client.post(url(event, "/no-shows"), headers=organiser(event)).json["players"]
    assert [p["player"] for p in swept if p["no_show"]] == ["Eve"]
    first = start(saved_client, event)
    for t in first["pairings"]:
        a, b = t["players"]
        result(saved_client, event, 1, tokens[a], table=t["table"], **win(a, b))
        confirm(saved_client, event, 1, tokens[b], t["table"])
    own = saved_client.post(
        url(event, "/checkins"), json={"player": "Eve", "missed": "loss"}, headers=auth(tokens["Eve"])
    )
    assert own.status_code == 403  # the organiser's choice, not the late player's
    bad = saved_client.post(url(event, "/checkins"), json={"player": "Eve", "missed": "win"}, headers=organiser(event))
    assert bad.status_code == 422 and "missed" in bad.json["errors"]
    late = saved_client.post(
        url(event, "/checkins"), json={"player": "Eve", "missed": "loss"}, headers=organiser(event)
    )
    assert late.status_code == 201 and late.json["withdrawn"] is False
    eve = standings(saved_client, event)["Eve"]
    assert (eve["losses"], eve["played"], eve["byes"], eve["score"]) == (1, 0, 0, 0)  # round 1 missed: a loss
    second = start(saved_client, event)
    assert "Eve" in [p for t in second["pairings"] for p in t["players"]]


def test_a_player_the_organiser_withdrew_stays_out_when_they_check_in(saved_client):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 3, names=["Ann", "Bob", "Cid"])
    saved_client.post(url(event, "/withdrawals"), json={"player": "Cid"}, headers=organiser(event))
    saved_client.post(url(event, "/checkins"), json={"player": "Cid"}, headers=auth(tokens["Cid"]))
    assert {p["player"]: p["withdrawn"] for p in saved_client.get(url(event, "/checkins")).json["players"]}["Cid"]


# --------------------------------------------------------------------------------------------
# POST /adjustments


def test_an_adjustment_moves_the_score_shows_in_the_standings_and_a_retry_changes_nothing(saved_client):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 2, names=["Ann", "Bob"])
    start(saved_client, event)
    result(saved_client, event, 1, tokens["Ann"], table=1, **win("Ann", "Bob"))
    confirm(saved_client, event, 1, tokens["Bob"], 1)
    assert [s["player"] for s in saved_client.get(url(event, "/standings")).json["standings"]] == ["Ann", "Bob"]
    penalty = {"player": "ann", "points": -3, "reason": "late to the table"}
    given = saved_client.post(url(event, "/adjustments"), json=penalty, headers=organiser(event))
    assert given.status_code == 201, given.json
    assert given.json["player"] == "Ann" and given.json["points"] == -3 and given.json["round"] == 1
    retried = saved_client.post(url(event, "/adjustments"), json=penalty, headers=organiser(event))
    assert retried.status_code == 200
    rows = saved_client.get(url(event, "/standings")).json["standings"]
    assert [(r["player"], r["score"], r["adjustment"]) for r in rows] == [("Ann", 0, -3), ("Bob", 0, 0)] or [
        (r["player"], r["score"], r["adjustment"]) for r in rows
    ] == [("Bob", 0, 0), ("Ann", 0, -3)]
    assert rows[1]["tiebreakers"]["buchholz"] == 3 or rows[0]["tiebreakers"]["buchholz"] == 3  # Bob's: Ann's games
    bonus = saved_client.post(
        url(event, "/adjustments"),
        json={"player": "Bob", "points": 0.5, "reason": "painting"},
        headers=organiser(event),
    )
    assert bonus.status_code == 201
    assert [(r["player"], r["score"]) for r in saved_client.get(url(event, "/standings")).json["standings"]] == [
        ("Bob", 0.5),
        ("Ann", 0),
    ]
    listed = saved_client.get(url(event, "/adjustments"), headers=organiser(event)).json["adjustments"]
    assert [(a["player"], a["points"], a["reason"]) for a in listed] == [
        ("Ann", -3, "late to the table"),
        ("Bob", 0.5, "painting"),
    ]
    assert saved_client.get(url(event, "/adjustments"), headers=auth(tokens["Ann"])).status_code == 403


def test_an_adjustment_is_the_organisers_and_names_a_bad_field(saved_client):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 2, names=["Ann", "Bob"])
    body = {"player": "Ann", "points": -1, "reason": "slow play"}
    assert saved_client.post(url(event, "/adjustments"), json=body, headers=auth(tokens["Bob"])).status_code == 403
    assert saved_client.post(url(event, "/adjustments"), json=body).status_code == 401
    for bad, field in (
        ({**body, "points": 0}, "points"),
        ({**body, "points": "many"}, "points"),
        ({**body, "reason": ""}, "reason"),
        ({"player": "Ann", "points": 1}, "reason"),
        ({**body, "player": "Zed"}, "player"),
    ):
        answer = saved_client.post(url(event, "/adjustments"), json=bad, headers=organiser(event))
        assert answer.status_code == 422 and field in answer.json["errors"], (bad, answer.json)


# --------------------------------------------------------------------------------------------
# GET /refusals


def test_a_refused_illegal_list_is_kept_for_the_organiser(saved_client):
    event = make_event(saved_client)
    made = create(saved_client, ILLEGAL)
    refused = submit(saved_client, event, made, player="Ann <b>")
    assert refused.status_code == 422 and refused.json["message"].startswith("the list is not legal")
    listed = saved_client.get(url(event, "/refusals"), headers=organiser(event))
    assert listed.status_code == 200
    (kept,) = listed.json["refusals"]
    assert kept["player"] == "Ann <b>" and kept["list_id"] == made["id"]
    assert kept["problems"] and all(p.startswith("list.") for p in kept["problems"])
    assert saved_client.get(url(event, "/refusals")).status_code == 401
    player = register(saved_client, event, 1, names=["Bob"])["Bob"]
    assert saved_client.get(url(event, "/refusals"), headers=auth(player)).status_code == 403


# --------------------------------------------------------------------------------------------
# GET /statistics


def test_statistics_join_the_games_to_the_lists_and_open_when_the_organiser_says(saved_client):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 2, names=["Ann", "Bob"])  # Cinder Covenant lists
    spores = create(saved_client, SPORES)
    answer = submit(saved_client, event, spores, player="Cid")
    assert answer.status_code == 201, answer.json
    tokens["Cid"] = answer.json["player_token"]
    tokens.update(register(saved_client, event, 1, names=["Dee"], body=SPORES))
    apart = {"avoid_same_faction_first_round": True}
    assert saved_client.patch(url(event), json=apart, headers=organiser(event)).status_code == 200
    first = start(saved_client, event)  # each covenant player meets a spore player
    # Ann (covenant) wins; the other covenant player draws with the other spore player
    for t in first["pairings"]:
        a, b = t["players"]
        body = win("Ann", b if a == "Ann" else a) if "Ann" in (a, b) else {"outcome": {a: "draw", b: "draw"}}
        result(saved_client, event, 1, tokens[a], table=t["table"], **body)
        confirm(saved_client, event, 1, tokens[b], t["table"])
    assert saved_client.get(url(event, "/statistics")).status_code == 401
    assert saved_client.get(url(event, "/statistics"), headers=auth(tokens["Ann"])).status_code == 403
    seen = saved_client.get(url(event, "/statistics"), headers=organiser(event))
    assert seen.status_code == 200 and seen.json["public"] is False
    factions = {f["book"]: f for f in seen.json["factions"]}
    assert factions["gf-cinder-covenant"] == {
        "book": "gf-cinder-covenant",
        "players": 2,
        "wins": 1,
        "draws": 1,
        "losses": 0,
        "win_rate": 0.75,
    }
    assert factions["gf-spore-choir"]["win_rate"] == 0.25 and factions["gf-spore-choir"]["losses"] == 1
    units = {(u["book"], u["unit"]): u for u in seen.json["units"]}
    assert units["gf-cinder-covenant", "cc-ash-wardens"] == {
        "book": "gf-cinder-covenant",
        "unit": "cc-ash-wardens",
        "lists": 2,
        "win_rate": 0.75,
    }
    assert units["gf-spore-choir", "sc-seed-swarm"]["lists"] == 2
    assert {c["category"] for c in seen.json["categories"]} == {"heroes", "units"}
    assert (
        saved_client.put(url(event, "/statistics"), json={"public": True}, headers=auth(tokens["Ann"])).status_code
        == 403
    )
    opened = saved_client.put(url(event, "/statistics"), json={"public": True}, headers=organiser(event))
    assert opened.status_code == 200 and opened.json["public"] is True
    public = saved_client.get(url(event, "/statistics"))
    assert public.status_code == 200 and public.json == opened.json
    rows = list(csv.reader(io.StringIO(saved_client.get(url(event, "/statistics.csv")).get_data(as_text=True))))
    assert rows[0][:4] == ["kind", "book", "unit", "players_or_lists"]
    assert ["faction", "gf-cinder-covenant", "", "2", "1", "1", "0", "0.750"] in rows
    bad = saved_client.put(url(event, "/statistics"), json={"public": "yes please"}, headers=organiser(event))
    assert bad.status_code == 422 and "public" in bad.json["errors"]


def test_every_new_route_is_declared_in_the_openapi_document(saved_client):
    paths = saved_client.get("/api/v1/openapi.json").json["paths"]
    declared = {
        ("/api/v1/events/{event_id}/rounds/{number}", "delete"),
        ("/api/v1/events/{event_id}/checkins", "post"),
        ("/api/v1/events/{event_id}/checkins", "get"),
        ("/api/v1/events/{event_id}/no-shows", "post"),
        ("/api/v1/events/{event_id}/adjustments", "post"),
        ("/api/v1/events/{event_id}/refusals", "get"),
        ("/api/v1/events/{event_id}/statistics", "get"),
        ("/api/v1/events/{event_id}/statistics", "put"),
        ("/api/v1/events/{event_id}/statistics.csv", "get"),
    }
    for path, method in declared:
        assert method in paths.get(path, {}), (path, method)
    assert LIST  # the lists the tests above submit are the saved-list tests' own


# --------------------------------------------------------------------------------------------
# GET /me: a player's own day


def test_a_player_reads_their_entry_table_opponents_list_and_standing(saved_client):
    event = make_event(saved_client)
    tokens = register(saved_client, event, 2, names=["Ann", "Bob"])
    before = saved_client.get(url(event, "/me"), headers=auth(tokens["Ann"]))
    assert before.status_code == 200, before.json
    mine = before.json
    assert mine["player"] == "Ann" and mine["table"] is None and mine["checked_in"] is False
    assert mine["entry"]["valid"] is True and mine["entry"]["verification_code"] and mine["entry"]["points"]
    assert mine["entry"]["book"] == "gf-cinder-covenant" and mine["entry"]["problems"] == []
    start(saved_client, event)
    result(saved_client, event, 1, tokens["Bob"], table=1, **win("Bob", "Ann"))
    seen = saved_client.get(url(event, "/me"), headers=auth(tokens["Ann"])).json
    table = seen["table"]
    assert table["round"] == 1 and table["opponent"] == "Bob" and table["status"] == "waiting"
    assert table["entered_by"] == "Bob" and table["result"] == win("Bob", "Ann")
    bob = table["opponent_list"]
    assert [u["key"] for u in bob["units"]] == ["a", "p"] and bob["units"][0]["name"] == "Ash Wardens"
    assert bob["verification_code"] and bob["list_id"]
    assert seen["standing"]["score"] == 0
    confirm(saved_client, event, 1, tokens["Ann"], 1)
    after = saved_client.get(url(event, "/me"), headers=auth(tokens["Ann"])).json
    assert after["table"]["status"] == "confirmed" and after["standing"]["losses"] == 1
    assert saved_client.get(url(event, "/me")).status_code == 401
    assert saved_client.get(url(event, "/me"), headers=organiser(event)).status_code == 403
    assert saved_client.get(url(event, "/me"), headers=auth("x" * 43)).status_code == 403


# --------------------------------------------------------------------------------------------
# PUT /timer, GET /timer: the round timer


def test_the_organiser_sets_the_round_timer_everyone_reads_it_and_a_new_round_has_none(saved_client):
    import datetime as dt

    event = make_event(saved_client)
    tokens = register(saved_client, event, 2, names=["Ann", "Bob"])
    assert saved_client.get(url(event, "/timer")).json["ends_at"] is None
    early = saved_client.put(url(event, "/timer"), json={"minutes": 90}, headers=organiser(event))
    assert early.status_code == 409  # no round yet
    start(saved_client, event)
    assert saved_client.put(url(event, "/timer"), json={"minutes": 90}, headers=auth(tokens["Ann"])).status_code == 403
    for bad in ({"minutes": 0}, {"minutes": "soon"}, {"minutes": 9999}, {}):
        answer = saved_client.put(url(event, "/timer"), json=bad, headers=organiser(event))
        assert answer.status_code == 422 and "minutes" in answer.json["errors"], bad
    set_ = saved_client.put(url(event, "/timer"), json={"minutes": 90}, headers=organiser(event)).json
    left = dt.datetime.fromisoformat(set_["ends_at"]) - dt.datetime.fromisoformat(set_["now"])
    assert set_["round"] == 1 and dt.timedelta(minutes=89) < left <= dt.timedelta(minutes=90)
    assert saved_client.get(url(event, "/timer")).json["ends_at"] == set_["ends_at"]  # public, for every page
    stopped = saved_client.put(url(event, "/timer"), json={"minutes": None}, headers=organiser(event)).json
    assert stopped["ends_at"] is None
    saved_client.put(url(event, "/timer"), json={"minutes": 60}, headers=organiser(event))
    result(saved_client, event, 1, tokens["Ann"], table=1, **win("Ann", "Bob"))
    confirm(saved_client, event, 1, tokens["Bob"], 1)
    start(saved_client, event)
    later = saved_client.get(url(event, "/timer")).json
    assert (later["round"], later["ends_at"]) == (2, None)  # a timer belongs to its round


# --------------------------------------------------------------------------------------------
# POST /handover, POST /handover/claim: the organiser's role on a second device


def test_a_handover_code_gives_a_second_device_an_organiser_token_once(saved_client, monkeypatch):
    import datetime as dt

    from listbuilder.events import rounds as day_rules

    event = make_event(saved_client)
    tokens = register(saved_client, event, 2, names=["Ann", "Bob"])
    assert saved_client.post(url(event, "/handover"), headers=auth(tokens["Ann"])).status_code == 403
    offered = saved_client.post(url(event, "/handover"), headers=organiser(event))
    assert offered.status_code == 201 and offered.headers["Cache-Control"] == "no-store"
    code = offered.json["code"]
    assert len(code) == 9 and code[4] == "-" and offered.json["url"].endswith(f"/day#handover={code}")
    wrong = saved_client.post(url(event, "/handover/claim"), json={"code": "AAAA-AAAA"})
    assert wrong.status_code == 403
    claimed = saved_client.post(url(event, "/handover/claim"), json={"code": code.lower().replace("-", " ")})
    assert claimed.status_code == 201 and claimed.headers["Cache-Control"] == "no-store"
    second = claimed.json["organiser_token"]
    assert second != event["organiser_token"] and len(second) == 43
    assert saved_client.get(url(event, "/log"), headers=auth(second)).status_code == 200  # the day
    assert saved_client.get(url(event, "/report"), headers=auth(second)).status_code == 200  # the report
    assert saved_client.post(url(event, "/rounds"), json={}, headers=auth(second)).status_code == 201
    again = saved_client.post(url(event, "/handover/claim"), json={"code": code})
    assert again.status_code == 403  # once only
    log = saved_client.get(url(event, "/log"), headers=organiser(event)).json["log"]
    assert second not in str(log) and code not in str(log)  # kept only as hashes
    late = saved_client.post(url(event, "/handover"), headers=auth(second)).json["code"]  # the second device may too
    later = dt.datetime.now(dt.timezone.utc) + dt.timedelta(minutes=11)
    monkeypatch.setattr(day_rules, "now", lambda: later)
    assert saved_client.post(url(event, "/handover/claim"), json={"code": late}).status_code == 403  # expired
    assert saved_client.post(url(event, "/handover/claim"), json={"code": ""}).status_code == 422

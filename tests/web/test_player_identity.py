"""One identity per player (issue 35): the day knows a player by the folded key of their name,
never by a spelling; lists close once round 1 starts unless the event says otherwise; the
organiser renames a player and undoes a submission. SQLite, and PostgreSQL when
TEST_DATABASE_URL is set."""

from __future__ import annotations

import csv
import io

from tests.web.test_events_api import make_event, organiser, report, submit
from tests.web.test_rounds_api import confirm, result, start, url, win
from tests.web.test_saved_api import ERROR_KEYS, LIST, auth, create

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def players(client, event, names=NAMES):
    """Each player with a list of their own: name -> (list as made, player token)."""
    found = {}
    for name in names:
        made = create(client, LIST)
        response = submit(client, event, made, player=name)
        assert response.status_code == 201, response.json
        found[name] = (made, response.json["player_token"])
    return found


def resubmit(client, event, made, player, token):
    """The player copies their locked list and submits the copy under *player*."""
    copy = client.post(f"/api/v1/lists/{made['id']}/copy").json
    return submit(client, event, copy, player=player, player_token=token), copy


def patch(client, event, **body):
    return client.patch(url(event), json=body, headers=organiser(event))


def table_of(round_body, name):
    return next(t for t in round_body["pairings"] if name in t["players"])


def opponent(table, name):
    return next(p for p in table["players"] if p != name)


def every_standings_format_answers(client, event):
    body = client.get(url(event, "/standings"))
    assert body.status_code == 200, body.json
    sheet = client.get(url(event, "/standings.csv"))
    assert sheet.status_code == 200
    rows = list(csv.reader(io.StringIO(sheet.get_data(as_text=True))))
    assert client.get(url(event, "/standings.pdf?paper=a4")).status_code == 200
    return body.json["standings"], rows


# --------------------------------------------------------------------------------------------
# (1) a re-spelt name after round 1


def test_by_default_a_resubmission_after_round_1_starts_is_409_and_the_event_goes_on(saved_client):
    event = make_event(saved_client)
    entered = players(saved_client, event)
    first = start(saved_client, event, seed=7)
    made, token = entered["Cid"]
    refused, _ = resubmit(saved_client, event, made, "cid", token)
    assert refused.status_code == 409 and set(refused.json) == ERROR_KEYS, refused.json
    assert "round 1" in refused.json["message"] and "lists_after_start" in refused.json["message"]
    same_spelling, _ = resubmit(saved_client, event, made, "Cid", token)
    assert same_spelling.status_code == 409  # closed for every spelling
    table = table_of(first, "Cid")
    other = opponent(table, "Cid")
    assert result(saved_client, event, 1, token, table=table["table"], **win("Cid", other)).status_code == 201
    assert confirm(saved_client, event, 1, entered[other][1], table["table"]).status_code == 201
    rows, _ = every_standings_format_answers(saved_client, event)
    assert sorted(r["player"] for r in rows) == NAMES


def test_with_lists_after_start_a_respelt_resubmission_keeps_standings_and_rounds_working(saved_client):
    """The issue's sequence (1): the player resubmits as "cid" after round 1 started; once one of
    their games counts, standings (JSON, CSV, PDF) and the next round answered 500."""
    event = make_event(saved_client)
    entered = players(saved_client, event)
    assert patch(saved_client, event, lists_after_start=True).status_code == 200
    first = start(saved_client, event, seed=7)
    made, token = entered["Cid"]
    again, _ = resubmit(saved_client, event, made, "cid", token)
    assert again.status_code == 201, again.json
    table = table_of(first, "Cid")
    other = opponent(table, "Cid")
    # Cid's game counts: the entry names them "cid", the opponent confirms
    assert result(saved_client, event, 1, token, table=table["table"], **win("cid", other, 5, 1)).status_code == 201
    assert confirm(saved_client, event, 1, entered[other][1], table["table"]).status_code == 201
    for t in first["pairings"]:
        if "Cid" not in t["players"]:
            a, b = t["players"]
            assert result(saved_client, event, 1, entered[a][1], table=t["table"], **win(a, b)).status_code == 201
            assert confirm(saved_client, event, 1, entered[b][1], t["table"]).status_code == 201
    rows, sheet = every_standings_format_answers(saved_client, event)
    assert sorted(r["player"] for r in rows) == NAMES  # the first spelling is shown
    cid = next(r for r in rows if r["player"] == "Cid")
    assert cid["score"] == 3 and cid["wins"] == 1 and cid["tiebreakers"]["secondary"] == 5
    assert sorted(r[1] for r in sheet[1:]) == NAMES
    second = saved_client.post(url(event, "/rounds"), json={}, headers=organiser(event))
    assert second.status_code == 201, second.json
    assert "Cid" in [p for t in second.json["pairings"] for p in t["players"]]
    assert "cid" not in [p for t in second.json["pairings"] for p in t["players"]]
    assert [e["player"] for e in report(saved_client, event)["entries"]] == NAMES


def test_a_resubmission_under_another_spelling_before_round_1_shows_the_first_spelling(saved_client):
    event = make_event(saved_client)
    entered = players(saved_client, event)
    made, token = entered["Cid"]
    again, _ = resubmit(saved_client, event, made, "  CID ", token)
    assert again.status_code == 201 and again.json["player"] == "Cid"
    body = start(saved_client, event, seed=3)
    assert sorted(p for t in body["pairings"] for p in t["players"]) == NAMES


def test_lists_after_start_is_a_setting_of_the_event_fixed_at_round_1(saved_client):
    event = make_event(saved_client)
    players(saved_client, event, ["Ann", "Bob"])
    assert patch(saved_client, event, lists_after_start="yes please").status_code == 422
    assert patch(saved_client, event, lists_after_start=True).status_code == 200
    assert patch(saved_client, event, lists_after_start=False).status_code == 200
    log = saved_client.get(url(event, "/log"), headers=organiser(event)).json["log"]
    assert [e["data"]["after"]["day"] for e in log if e["kind"] == "settings"][-1] == {"lists_after_start": False}
    start(saved_client, event)
    assert patch(saved_client, event, lists_after_start=True).status_code == 409


# --------------------------------------------------------------------------------------------
# (2) confirming one's own result under another spelling


def test_a_player_cannot_confirm_their_own_entry_after_resubmitting_under_another_spelling(saved_client):
    """The issue's sequence (2): Ann enters a win, resubmits as "ann", confirms her own entry."""
    event = make_event(saved_client)
    entered = players(saved_client, event)
    assert patch(saved_client, event, lists_after_start=True).status_code == 200
    first = start(saved_client, event, seed=11)
    made, token = entered["Ann"]
    table = table_of(first, "Ann")
    other = opponent(table, "Ann")
    assert result(saved_client, event, 1, token, table=table["table"], **win("Ann", other)).json["status"] == "waiting"
    again, _ = resubmit(saved_client, event, made, "ann", token)
    assert again.status_code == 201
    own = confirm(saved_client, event, 1, token, table["table"])
    assert own.status_code == 409 and "opponent" in own.json["message"], own.json
    same = result(saved_client, event, 1, token, table=table["table"], **win("ann", other))
    assert same.status_code == 201 and same.json["status"] == "waiting"  # her own entry again, not a confirmation
    state = saved_client.get(url(event, "/rounds/1")).json
    assert table_of(state, "Ann")["status"] == "waiting" and table_of(state, "Ann")["entered_by"] == "Ann"
    assert confirm(saved_client, event, 1, entered[other][1], table["table"]).json["status"] == "confirmed"


def test_without_resubmitting_confirming_ones_own_entry_is_409(saved_client):
    event = make_event(saved_client)
    entered = players(saved_client, event, ["Ann", "Bob"])
    start(saved_client, event)
    assert result(saved_client, event, 1, entered["Ann"][1], table=1, **win("ann", "BOB")).status_code == 201
    assert confirm(saved_client, event, 1, entered["Ann"][1], 1).status_code == 409


# --------------------------------------------------------------------------------------------
# The organiser renames a player


def rename(client, event, player, name, token=None):
    return client.post(
        url(event, "/renames"), json={"player": player, "name": name}, headers=auth(token or event["organiser_token"])
    )


def test_the_organiser_renames_a_player_mid_event_and_results_and_standings_follow(saved_client):
    event = make_event(saved_client)
    entered = players(saved_client, event, ["Ann", "Bob", "Cdi", "Dee"])
    first = start(saved_client, event, seed=5)
    renamed = rename(saved_client, event, "cdi", "Cid")
    assert renamed.status_code == 201, renamed.json
    assert renamed.json == {"player": "Cid", "before": "Cdi"}
    again = rename(saved_client, event, "Cdi", "Cid")  # the same request retried: nothing changes
    assert again.status_code == 200 and again.json == {"player": "Cid", "before": "Cid"}
    state = saved_client.get(url(event, "/rounds/1")).json
    table = table_of(state, "Cid")  # the tables of round 1 (paired as "Cdi") show the new name
    other = opponent(table, "Cid")
    # the player's token and either name work
    assert (
        result(saved_client, event, 1, entered["Cdi"][1], table=table["table"], **win("Cdi", other)).status_code == 201
    )
    confirmed = confirm(saved_client, event, 1, entered[other][1], table["table"])
    assert confirmed.status_code == 201 and confirmed.json["players"] == table["players"]
    assert set(confirmed.json["scores"]) == {"Cid", other}
    for t in state["pairings"]:
        if "Cid" not in t["players"]:
            a, b = t["players"]
            assert (
                result(saved_client, event, 1, event["organiser_token"], table=t["table"], **win(a, b)).status_code
                == 201
            )
    rows, sheet = every_standings_format_answers(saved_client, event)
    assert sorted(r["player"] for r in rows) == ["Ann", "Bob", "Cid", "Dee"]
    assert next(r for r in rows if r["player"] == "Cid")["wins"] == 1
    assert "Cdi" not in {r[1] for r in sheet}
    second = saved_client.post(url(event, "/rounds"), json={}, headers=organiser(event))
    assert second.status_code == 201 and "Cid" in [p for t in second.json["pairings"] for p in t["players"]]
    withdrawn = saved_client.post(url(event, "/withdrawals"), json={"player": "cid"}, headers=organiser(event))
    assert withdrawn.status_code == 201
    assert next(r for r in saved_client.get(url(event, "/standings")).json["standings"] if r["player"] == "Cid")[
        "withdrawn"
    ]
    assert first["pairings"]  # round 1 as answered then named "Cdi"; the record keeps it
    log = saved_client.get(url(event, "/log"), headers=organiser(event)).json["log"]
    assert [e["data"] for e in log if e["kind"] == "rename"] == [{"player": "cdi", "before": "Cdi", "after": "Cid"}]


def test_a_rename_is_refused_onto_another_players_name_and_needs_the_organiser(saved_client):
    event = make_event(saved_client)
    entered = players(saved_client, event, ["Ann", "Bob"])
    taken = rename(saved_client, event, "Ann", " BOB ")
    assert taken.status_code == 409 and set(taken.json) == ERROR_KEYS
    assert rename(saved_client, event, "Zed", "Zoe").status_code == 422
    assert rename(saved_client, event, "Ann", "").status_code == 422
    assert rename(saved_client, event, "Ann", "Anne", token=entered["Ann"][1]).status_code == 403
    assert saved_client.post(url(event, "/renames"), json={"player": "Ann", "name": "Anne"}).status_code == 401
    assert rename(saved_client, event, "Ann", "ann").status_code == 201  # only the case: shown as given
    assert [e["player"] for e in report(saved_client, event)["entries"]] == ["ann", "Bob"]


def test_after_a_rename_the_player_resubmits_under_either_name_and_nobody_takes_the_old_one(saved_client):
    event = make_event(saved_client)
    entered = players(saved_client, event, ["Jhon", "Bob"])
    assert rename(saved_client, event, "Jhon", "John").status_code == 201
    made, token = entered["Jhon"]
    again, _ = resubmit(saved_client, event, made, "John", token)
    assert again.status_code == 201 and again.json["player"] == "John", again.json
    stranger = create(saved_client, LIST)
    assert submit(saved_client, event, stranger, player="john").status_code == 409  # the name is the player's
    assert submit(saved_client, event, stranger, player="Jhon").status_code == 409
    entries = report(saved_client, event)["entries"]
    assert [e["player"] for e in entries] == ["John", "Bob"] and entries[0]["earlier"] is not None
    body = start(saved_client, event, seed=1)
    assert sorted(p for t in body["pairings"] for p in t["players"]) == ["Bob", "John"]


# --------------------------------------------------------------------------------------------
# The organiser undoes a submission


def undo(client, event, number, token=None):
    return client.delete(url(event, f"/submissions/{number}"), headers=auth(token or event["organiser_token"]))


def test_the_organiser_undoes_a_resubmission_and_the_earlier_entry_is_back(saved_client):
    event = make_event(saved_client)
    entered = players(saved_client, event, ["Ann", "Bob", "Cid"])
    made, token = entered["Cid"]
    again, copy = resubmit(saved_client, event, made, "cid", token)
    assert again.status_code == 201 and again.json["number"] == 4
    assert undo(saved_client, event, 4, token=token).status_code == 403
    assert undo(saved_client, event, 4).status_code == 204
    assert undo(saved_client, event, 4).status_code == 404  # retried: nothing left to undo
    entries = report(saved_client, event)["entries"]
    assert [(e["player"], e["number"], e["earlier"]) for e in entries] == [
        ("Ann", 1, None),
        ("Bob", 2, None),
        ("Cid", 3, None),
    ]
    log = saved_client.get(url(event, "/log"), headers=organiser(event)).json["log"]
    undone = [e["data"] for e in log if e["kind"] == "undo_submission"]
    assert undone == [
        {
            "number": 4,
            "player": "cid",
            "list_id": copy["id"],
            "list_version": again.json["list_version"],
            "verification_code": again.json["verification_code"],
        }
    ]
    # the player submits the copy again: a new submission (its roster and the pack follow it)
    resubmitted = submit(saved_client, event, copy, player="Cid", player_token=token)
    assert resubmitted.status_code == 201 and resubmitted.json["number"] == 5


def test_undoing_a_players_only_submission_takes_them_out_and_frees_the_name(saved_client):
    event = make_event(saved_client)
    entered = players(saved_client, event, ["Ann", "Bob", "Cid"])
    assert undo(saved_client, event, 3).status_code == 204
    assert [e["player"] for e in report(saved_client, event)["entries"]] == ["Ann", "Bob"]
    assert undo(saved_client, event, 1 + 10).status_code == 404
    # the same list may now be submitted again, by its owner, under any name
    back = submit(saved_client, event, entered["Cid"][0], player="Cid")
    assert back.status_code == 201 and back.json["player_token"] == entered["Cid"][1]
    assert back.json["number"] == 4


def test_only_the_players_newest_submission_is_undone_and_never_after_round_1(saved_client):
    event = make_event(saved_client)
    entered = players(saved_client, event, ["Ann", "Bob"])
    again, _ = resubmit(saved_client, event, entered["Ann"][0], "Ann", entered["Ann"][1])
    assert again.json["number"] == 3
    older = undo(saved_client, event, 1)
    assert older.status_code == 409 and "3" in older.json["message"]
    start(saved_client, event)
    late = undo(saved_client, event, 3)
    assert late.status_code == 409 and "round 1" in late.json["message"]
    assert [e["number"] for e in report(saved_client, event)["entries"]] == [3, 2]


# --------------------------------------------------------------------------------------------
# Retries and races


def test_a_submission_retried_after_round_1_starts_answers_the_same_entry(saved_client):
    """A first submission whose 201 was lost, sent again once round 1 started: nothing changes,
    so it is still the 200 of a repeat (with the player token); a new list is 409."""
    event = make_event(saved_client)
    entered = players(saved_client, event, ["Ann", "Bob"])
    start(saved_client, event)
    made, token = entered["Ann"]
    again = submit(saved_client, event, made, player="ann")
    assert again.status_code == 200 and again.json["player_token"] == token and again.json["player"] == "Ann"
    assert again.json["number"] == 1
    newer, _ = resubmit(saved_client, event, made, "Ann", token)
    assert newer.status_code == 409 and "round" in newer.json["errors"]
    late = submit(saved_client, event, create(saved_client, LIST), player="Zed")
    assert late.status_code == 409 and "round" in late.json["errors"]


def test_a_submission_racing_the_start_of_round_1_comes_first_or_is_refused(saved_app):
    from tests.web.test_rounds_races import TRIALS, at_once

    client = saved_app.test_client()
    for trial in range(TRIALS):
        event = make_event(client)
        entered = players(client, event, ["Ann", "Bob", "Cid"])
        copy = client.post(f"/api/v1/lists/{entered['Cid'][0]['id']}/copy").json
        began, sent = at_once(
            lambda: saved_app.test_client().post(url(event, "/rounds"), json={"seed": trial}, headers=organiser(event)),
            lambda: submit(saved_app.test_client(), event, copy, player="cid", player_token=entered["Cid"][1]),
        )
        assert began[0] == 201, began
        assert sent[0] in (201, 409), sent
        entries = report(client, event)["entries"]
        cid = next(e for e in entries if e["player"] == "Cid")
        if sent[0] == 201:  # it came first: round 1 was paired with it
            assert cid["list_id"] == copy["id"] and cid["submitted_at"] < began[1]["started_at"]
        else:
            assert "round" in sent[1]["errors"] and cid["list_id"] == entered["Cid"][0]["id"]


def test_a_swap_then_a_rename_then_a_resubmission_keep_one_seat_per_player(saved_client):
    event = make_event(saved_client)
    entered = players(saved_client, event)
    assert patch(saved_client, event, lists_after_start=True).status_code == 200
    first = start(saved_client, event, seed=2)
    ann, other = table_of(first, "Ann")["table"], next(t for t in first["pairings"] if "Ann" not in t["players"])
    mover = other["players"][0]
    swapped = saved_client.post(
        url(event, "/rounds/1/swaps"), json={"players": ["ann", mover]}, headers=organiser(event)
    )
    assert swapped.status_code == 201, swapped.json
    assert rename(saved_client, event, "ANN", "Anna").status_code == 201
    again, _ = resubmit(saved_client, event, entered["Ann"][0], "ann", entered["Ann"][1])
    assert again.status_code == 201 and again.json["player"] == "Anna"
    state = saved_client.get(url(event, "/rounds/1")).json
    seated = [p for t in state["pairings"] for p in t["players"]]
    assert sorted(seated) == sorted(["Anna", "Bob", "Cid", "Dee"])
    assert mover in table_of(state, mover)["players"] and table_of(state, mover)["table"] == ann
    assert table_of(state, "Anna")["table"] == other["table"]

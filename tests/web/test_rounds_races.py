"""Results racing on the same table end consistent: threads against one database (SQLite, and
PostgreSQL when TEST_DATABASE_URL is set), many trials each."""

from __future__ import annotations

import threading

import pytest

from listbuilder.tournament.results import ResultRefused, Step, next_step, settle
from tests.web.test_events_api import make_event, organiser
from tests.web.test_rounds_api import register, start, url, win
from tests.web.test_saved_api import auth

TRIALS = 30  # each race many times per backend: an interleaving that breaks it shows in a few


def at_once(*calls):
    """Run the calls in threads released together; their responses' (status, json) in order."""
    barrier = threading.Barrier(len(calls))
    answers = [None] * len(calls)

    def run(i, call):
        barrier.wait()
        response = call()
        answers[i] = (response.status_code, response.json)

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def table_of_two(saved_app):
    client = saved_app.test_client()
    event = make_event(client)
    tokens = register(client, event, 2, names=["Ann", "Bob"])
    start(client, event)
    return client, event, tokens


def replayed(client, event):
    """The table's steps as stored, each checked to be one the rules allowed after those before it."""
    rows = client.get(url(event, "/log"), headers=organiser(event)).json["results"]
    steps = []
    for row in rows:
        state = settle(steps)
        organiser_step = row["entered_by"] == "organiser"
        given = None if row["kind"] == "confirmation" and not organiser_step else row["result"]
        try:
            kind, _ = next_step(
                state, organiser=organiser_step, player=None if organiser_step else row["entered_by"], result=given
            )
        except ResultRefused:
            pytest.fail(f"a step the rules refuse was stored: {row}")
        assert kind == row["kind"] or (row["kind"] == "confirmation" and kind == "confirmation")
        steps.append(Step(row["seq"], row["kind"], row["entered_by"], row["result"]))
    assert [r["seq"] for r in rows] == list(range(1, len(rows) + 1))
    return settle(steps), rows


@pytest.mark.parametrize("same", [True, False], ids=["same result", "different results"])
def test_both_players_entering_at_once_end_in_one_consistent_result(saved_app, same):
    for _ in range(TRIALS):
        client, event, tokens = table_of_two(saved_app)
        other = win("Ann", "Bob", 5, 1) if same else win("Bob", "Ann", 5, 1)

        def post(token, body, event=event):
            return lambda: saved_app.test_client().post(
                url(event, "/rounds/1/results"), json={"table": 1, **body}, headers=auth(token)
            )

        answers = at_once(post(tokens["Ann"], win("Ann", "Bob", 5, 1)), post(tokens["Bob"], other))
        state, rows = replayed(client, event)
        statuses = sorted(a[0] for a in answers)
        if same:
            assert statuses == [201, 201] and [r["kind"] for r in rows] == ["entry", "confirmation"]
            assert state.final is not None and state.final.result == win("Ann", "Bob", 5, 1)
        else:
            # the second is kept as a dispute (issue 39), for the organiser to decide
            assert statuses == [201, 201] and [r["kind"] for r in rows] == ["entry", "dispute"]
            assert state.final is None and state.pending is not None and state.disputed is not None


def test_an_override_racing_a_confirmation_ends_with_the_organisers_result(saved_app):
    decided = {"outcome": {"Ann": "draw", "Bob": "draw"}, "secondary": {"Ann": 0, "Bob": 0}}
    orders = set()
    for _ in range(TRIALS):
        client, event, tokens = table_of_two(saved_app)
        assert (
            client.post(
                url(event, "/rounds/1/results"), json={"table": 1, **win("Ann", "Bob")}, headers=auth(tokens["Ann"])
            ).status_code
            == 201
        )
        answers = at_once(
            lambda: saved_app.test_client().post(
                url(event, "/rounds/1/confirmations"), json={"table": 1}, headers=auth(tokens["Bob"])
            ),
            lambda: saved_app.test_client().post(
                url(event, "/rounds/1/results"), json={"table": 1, **decided}, headers=organiser(event)
            ),
        )
        assert answers[1][0] == 201 and answers[0][0] in (201, 409)
        state, rows = replayed(client, event)
        orders.add(tuple(r["kind"] for r in rows))
        assert state.decided_by_organiser and state.final.result == decided
        assert client.get(url(event, "/rounds/1")).json["pairings"][0]["status"] == "decided"
        standings = {s["player"]: s["score"] for s in client.get(url(event, "/standings")).json["standings"]}
        assert standings == {"Ann": 1, "Bob": 1}
    assert orders <= {("entry", "confirmation", "override"), ("entry", "override")}

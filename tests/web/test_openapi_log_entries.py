"""The event log's entries are declared one shape per kind (issue 38): ``LogEntryOut`` is a
``oneOf`` discriminated on ``kind``, and every kind the code writes has its shape, so a log
answer never carries a kind the document does not know (the answer checks of the event-day
tests, tests/answer_schemas.py, hold each entry's ``data`` to its kind's shape)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from listbuilder.shapes.log_entries import kinds

PACKAGE = Path(__file__).resolve().parents[2] / "listbuilder"


def written_kinds() -> set[str]:
    """Every log kind a module writes: ``AddLog("kind", ...)``, and ``kind="..."`` or
    ``"kind": "..."`` beside an ``event_id`` (rows inserted into the log directly)."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
                if name == "AddLog" and node.args and isinstance(node.args[0], ast.Constant):
                    found.add(node.args[0].value)
                given = {k.arg: k.value for k in node.keywords}
                if "event_id" in given and isinstance(given.get("kind"), ast.Constant):
                    found.add(given["kind"].value)
            if isinstance(node, ast.Dict):
                keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
                if "kind" in keys and "event_id" in keys:
                    value = node.values[keys.index("kind")]
                    if isinstance(value, ast.Constant):
                        found.add(value.value)
    return found


def test_every_kind_written_has_its_shape():
    written = written_kinds()
    assert {"settings", "checkin", "handover_used", "organiser_token", "refusal"} <= written  # the scan sees them
    assert written - set(kinds()) == set()


@pytest.fixture(scope="module")
def spec(app):
    return app.test_client().get("/api/v1/openapi.json").get_json()


def test_the_log_entry_is_discriminated_on_kind(spec):
    schemas = spec["components"]["schemas"]
    entry = schemas["LogEntryOut"]
    assert entry["discriminator"]["propertyName"] == "kind"
    assert set(entry["discriminator"]["mapping"]) == set(kinds())
    checkin = schemas["LogEntryCheckin"]
    assert checkin["properties"]["kind"]["enum"] == ["checkin"] and "data" in checkin["required"]

    def valid(answer):
        return Draft202012Validator({"$ref": "#/components/schemas/LogEntryOut", **spec}).is_valid(answer)

    at = "2026-11-29T03:00:00+00:00"
    assert valid({"seq": 2, "kind": "checkin", "data": {"player": "Ann", "after_round": 0}, "at": at})
    assert not valid({"seq": 2, "kind": "checkin", "data": {"player": "Ann"}, "at": at})
    assert not valid({"seq": 2, "kind": "swap", "data": {"player": "Ann", "after_round": 0}, "at": at})
    assert not valid({"seq": 2, "kind": "unheard_of", "data": {}, "at": at})


def test_every_kind_the_day_writes_fits_its_declared_shape(saved_client, spec):
    """One event through every action the log records (all but ``delete``, after which the
    log answers 410), each entry valid against ``LogEntryOut`` and its kind's variant."""
    from tests.web.test_events_api import FUTURE, ILLEGAL, make_event, organiser, submit
    from tests.web.test_rounds_api import register, start, url
    from tests.web.test_saved_api import LIST, create

    client = saved_client
    event = make_event(client, tiebreakers=["secondary", "buchholz"], clubs={"Ann": "Oak Hall"})
    boss = organiser(event)

    def ok(response, status=(200, 201, 204)):
        assert response.status_code in status, response.get_json()
        return response.get_json()

    ok(
        client.patch(
            url(event), json={"name": "Autumn Open II", "points_limit": 1500, "table_names": {"1": "Oak"}}, headers=boss
        )
    )
    tokens = register(client, event, 4, names=["Ann", "Bob", "Cid", "Dee"])
    again = ok(submit(client, event, create(client, LIST), player="Ann", player_token=tokens["Ann"]))
    ok(client.delete(url(event, f"/submissions/{again['number']}"), headers=boss))
    assert submit(client, event, create(client, ILLEGAL), player="Eve").status_code == 422  # a refusal, kept
    ok(client.post(url(event, "/close"), headers=boss))
    ok(client.post(url(event, "/reopen"), json={"deadline": FUTURE}, headers=boss))
    ok(client.post(url(event, "/renames"), json={"player": "Bob", "name": "Robert"}, headers=boss))
    ok(client.post(url(event, "/withdrawals"), json={"player": "Dee"}, headers=boss))
    ok(client.post(url(event, "/reinstatements"), json={"player": "Dee"}, headers=boss))
    ok(client.post(url(event, "/checkins"), json={"player": "Ann"}, headers=boss))
    first = start(client, event, seed=7)
    ok(
        client.post(
            url(event, "/rounds/1/swaps"),
            json={"players": [first["pairings"][0]["players"][1], first["pairings"][1]["players"][0]]},
            headers=boss,
        )
    )
    ok(client.delete(url(event, "/rounds/1"), headers=boss))
    start(client, event, seed=7)
    ok(client.put(url(event, "/statistics"), json={"public": True}, headers=boss))
    ok(client.put(url(event, "/timer"), json={"minutes": 90}, headers=boss))
    ok(
        client.post(
            url(event, "/adjustments"), json={"player": "Ann", "points": -1, "reason": "late list"}, headers=boss
        )
    )
    code = ok(client.post(url(event, "/handover"), headers=boss))["code"]
    ok(client.post(url(event, "/handover/claim"), json={"code": code}))

    log = ok(client.get(url(event, "/log"), headers=boss))["log"]
    assert {entry["kind"] for entry in log} == set(kinds()) - {"delete"}
    validator = Draft202012Validator({"$ref": "#/components/schemas/LogEntryOut", **spec})
    wrong = [(entry["kind"], error.message) for entry in log for error in validator.iter_errors(entry)]
    assert wrong == []

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

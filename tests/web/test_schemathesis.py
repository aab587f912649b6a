"""schemathesis against our own OpenAPI document: generated requests, every check, no failure.

Every operation of ``/api/v1/openapi.json`` gets schema-valid and schema-invalid requests
(schemathesis' examples, coverage and fuzzing phases) and every built-in check: no 5xx,
status codes as documented (each listed by its operation: ``default`` does not count, see
:func:`declared_status`), content types as documented, bodies matching the response schemas, invalid
data refused, valid data accepted, 405 with ``Allow`` for undeclared methods.

Two settings, both honest about what the API promises:
- 413 counts as refusing invalid data (a schema-violating body over 1 MiB, say 301 units of
  100 upgrades each, is refused for its size before its fields are read);
- two list rules OpenAPI cannot state (the schema's description says them) are kept before a
  request is sent: ``units[].key`` is unique (a repeated key gets a suffix), and a list holds
  at most MAX_LIST_UPGRADES upgrade rows in all (rows past it are dropped). Breaking either
  is a 422 naming the field;
- no text of a body holds a NUL character (``\\u0000``): a body-wide rule, every string of
  every body, refused with a 422 naming the field (``web/http/bodies.py``); NULs are taken out
  of the generated bodies before they are sent (:func:`without_nul`), as the key rule above;
- an Army Forge book (POST /books/import) that matches its schema may still be refused with a
  422 naming the path in the file (see IMPORTS);
- an event whose deadline has passed is refused with a 422 naming ``deadline`` (see EVENTS);
- a preview that matches its schema may still make no sense, and is refused with a 422 naming
  the field (see PREVIEWS): a melee with no melee weapon, a range past every weapon, a defender
  shortcut given twice (``situation.wounds_taken`` and ``situation.defender.wounds_taken``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from listbuilder.formats.lists import MAX_LIST_UPGRADES
from listbuilder.web import create_app

# Derandomised: the same requests on every run (CI never fails by the luck of a draw); a run
# of 1500 examples per operation found nothing more.
EXAMPLES_PER_OPERATION = 200

REFUSALS = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429"]
# POST /books/import takes a file in Army Forge's format. Its schema states the fields checked
# first (game line, unit id, name, size, cost, quality, defense); the rest of the format (units'
# gear and rules, upgrade packages referring to units and gear by name, a regiments book's
# formation sizes) is more than OpenAPI can state, so a schema-valid file may still be refused
# by the importer: a 422 naming the path in the file, which is what this operation promises.
IMPORTS = {
    "include-path": "/api/v1/books/import",
    "checks": {"positive_data_acceptance": {"expected-statuses": ["201", "422"]}},
}
# POST /previews, /previews/turn and /previews/compare: the document states each system's
# situation and each family's unit shape, but not what makes sense together (a melee needs a
# melee weapon, a range one that reaches): the engine answers those with a 422 naming the field.
PREVIEWS = [
    {
        "include-path": f"/api/v1/previews{tail}",
        "checks": {"positive_data_acceptance": {"expected-statuses": ["200", "404", "413", "422"]}},
    }
    for tail in ("", "/turn", "/compare")
]
# POST /events: a deadline must be in the future when the event is made, which a schema cannot
# say (the present moves); a past one is a 422 naming ``deadline``.
EVENTS = {
    "include-path": "/api/v1/events",
    "checks": {"positive_data_acceptance": {"expected-statuses": ["201", "401", "403", "404", "409", "410", "422"]}},
}
CONFIG = SchemathesisConfig.from_dict(
    {"checks": {"negative_data_rejection": {"expected-statuses": REFUSALS}}, "operations": [IMPORTS, *PREVIEWS, EVENTS]}
)

_DATABASE = tempfile.TemporaryDirectory()  # saved lists land in a throw-away SQLite file
_APP = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{Path(_DATABASE.name) / 'schemathesis.sqlite3'}"})
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", _APP, config=CONFIG)


def _list_rules(army: Any) -> None:
    """Give a repeated, otherwise valid entry key a suffix (invalid keys stay as generated), and
    drop upgrade rows past the list's total (MAX_LIST_UPGRADES)."""
    if not (isinstance(army, dict) and isinstance(army.get("units"), list)):
        return
    seen: set[str] = set()
    rows_left = MAX_LIST_UPGRADES
    for i, entry in enumerate(army["units"]):
        if not isinstance(entry, dict):
            continue
        key = entry.get("key")
        if isinstance(key, str) and key in seen and 1 <= len(key) <= 64:
            entry["key"] = key = f"{key[:56]}~{i}"
        if isinstance(key, str):
            seen.add(key)
        if isinstance(entry.get("upgrades"), list):
            entry["upgrades"] = entry["upgrades"][: max(rows_left, 0)]
            rows_left -= len(entry["upgrades"])


def without_nul(value: Any) -> Any:
    """*value* with every NUL character taken out of its strings (keys included)."""
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, list):
        return [without_nul(item) for item in value]
    if isinstance(value, dict):
        return {without_nul(key): without_nul(item) for key, item in value.items()}
    return value


def list_rules(body: Any) -> None:
    """Lists, and lists inside preview sides, follow the rules OpenAPI cannot state."""
    _list_rules(body)
    if isinstance(body, dict):
        for side in ("attacker", "defender"):
            if isinstance(body.get(side), dict):
                _list_rules(body[side].get("list"))


def declared_status(ctx: Any, response: Any, case: Any) -> None:
    """Schemathesis' status_code_conformance, with ``default`` not counting: it lets any status
    through an operation that declares one (every operation of ours does, for a proxy's own
    errors), so each status the app answers must be one the operation lists (issue 29)."""
    if response.request.method.upper() != case.operation.method.upper():
        return  # a probe with another method (TRACE for the 405 check): not this operation's answer
    responses = case.operation.definition.raw["responses"]
    listed = [status for status in responses if status != "default"]
    if str(response.status_code) not in listed:
        raise AssertionError(f"{case.operation.label} answered {response.status_code}; it declares {', '.join(listed)}")


@schema.parametrize()
@settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_api(case):
    case.body = without_nul(case.body)
    list_rules(case.body)
    case.call_and_validate(additional_checks=[declared_status])

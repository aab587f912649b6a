"""schemathesis against our own OpenAPI document: generated requests, every check, no failure.

Every operation of ``/api/v1/openapi.json`` gets schema-valid and schema-invalid requests
(schemathesis' examples, coverage and fuzzing phases) and every built-in check: no 5xx,
status codes and content types as documented, bodies matching the response schemas, invalid
data refused, valid data accepted, 405 with ``Allow`` for undeclared methods.

Two settings, both honest about what the API promises:
- 413 counts as refusing invalid data (a schema-violating body over 1 MiB, say 301 units of
  100 upgrades each, is refused for its size before its fields are read);
- one rule OpenAPI cannot state, "``units[].key`` is unique in a list", is kept by giving a
  repeated key a suffix before the request is sent (a repeated key is a 422 naming it).
"""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from listbuilder.web import create_app

EXAMPLES_PER_OPERATION = 200

REFUSALS = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429"]
CONFIG = SchemathesisConfig.from_dict({"checks": {"negative_data_rejection": {"expected-statuses": REFUSALS}}})

schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", create_app({"TESTING": True}), config=CONFIG)


def _unique_keys(army: Any) -> None:
    """Give a repeated, otherwise valid entry key a suffix; invalid keys stay as generated."""
    if not (isinstance(army, dict) and isinstance(army.get("units"), list)):
        return
    seen: set[str] = set()
    for i, entry in enumerate(army["units"]):
        key = entry.get("key") if isinstance(entry, dict) else None
        if isinstance(key, str) and key in seen and 1 <= len(key) <= 64:
            entry["key"] = key = f"{key[:56]}~{i}"
        seen.add(key) if isinstance(key, str) else None


def unique_entry_keys(body: Any) -> None:
    """Lists, and lists inside preview sides, get distinct entry keys."""
    _unique_keys(body)
    if isinstance(body, dict):
        for side in ("attacker", "defender"):
            if isinstance(body.get(side), dict):
                _unique_keys(body[side].get("list"))


@schema.parametrize()
@settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, suppress_health_check=list(HealthCheck))
def test_api(case):
    unique_entry_keys(case.body)
    case.call_and_validate()

"""A rules family is one record: a toy family written in this file alone loads its books,
validates a list, previews a fight and prints a roster, through the same calls (and the same
HTTP API) as the real families, once its :class:`~listbuilder.families.Family` is registered."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

import pytest
from marshmallow import fields, validate

from listbuilder.books.loader import load_registry
from listbuilder.combat.combatant import Combatant
from listbuilder.combat.service import preview
from listbuilder.dice import Dist
from listbuilder.families import FAMILIES, Family, register, unregister
from listbuilder.formats.books import UnitSchema, book_schema, system_schema
from listbuilder.formats.fields import StrictSchema, WholeNumber
from listbuilder.lists.documents import parse_list, validate_list
from listbuilder.model import ArmyBook, ArmyList, GameSystem
from listbuilder.printing.rosters import build_roster, roster_text
from listbuilder.printing.sheets import FamilySheet, StatColumn
from listbuilder.resolve.deployment import count_totals
from listbuilder.shapes.preview_requests import load_request
from listbuilder.systems.rules import SystemRules
from listbuilder.validation import Issue, ValidationReport

TOY = "toy-duel"


# --------------------------------------------------------------------------------------------
# The toy family: every part a family names, in this file


class ToyUnitSchema(UnitSchema):
    STAT_FIELDS = ("might",)

    might = WholeNumber(required=True, validate=validate.Range(min=1, max=6))


class ToyCompositionSchema(StrictSchema):
    max_units = WholeNumber(required=True)


class ToySituationSchema(StrictSchema):
    bonus = WholeNumber(load_default=0, validate=validate.Range(min=0, max=2))
    attack = fields.String(load_default="melee", validate=validate.OneOf(["melee"]))


class ToyRules(SystemRules):
    ISSUE_CODES = {"toy.too_many_units": "More units than the duel allows."}

    def validate(self, army: ArmyList, book: ArmyBook) -> ValidationReport:
        resolved, issues = self.resolve(army, book)
        allowed = self.system.composition["max_units"]
        if len(resolved) > allowed:
            issues.append(
                Issue("toy.too_many_units", f"{len(resolved)} units, the duel allows {allowed}", "units", "toy rules 1")
            )
        # the totals every family sends (the API's TotalsOut requires them); the duel has no limit
        totals = {**count_totals(army, resolved), **self.spent(resolved).amounts, "left": None}
        return ValidationReport.of(issues, totals, resolved)


def toy_engine(
    system: GameSystem, attacker: Combatant, defender: Combatant, situation: Mapping[str, Any]
) -> dict[str, Any]:
    """Each attacking model hits on a d6 roll of at most its might (plus the bonus)."""
    p = min(1.0, (attacker.stats["might"] + situation["bonus"]) / 6)
    hits = Dist.binomial(attacker.models, p)
    return {
        "expected": {"hits": hits.mean, "wounds": hits.mean, "models_killed": hits.mean},
        "distributions": {"hits": hits.as_dict()},
        "p_destroyed": hits.at_least(defender.models),
    }


TOY_FAMILY = Family(
    id=TOY,
    rules=ToyRules,
    stat_names=("might",),
    system_schema=system_schema(ToyCompositionSchema, "ToySystemSchema"),
    book_schema=book_schema(ToyUnitSchema, "ToyBookSchema"),
    engine=toy_engine,
    situation_schema=ToySituationSchema,
    sheet=FamilySheet(stats=(StatColumn("Might", "M", "might"),)),
)

SYSTEM_YAML = """\
id: toy-duel
name: Toy Duel
family: toy-duel
edition: "1"
rulebook: none
description: Two champions and their seconds settle it with dice.
composition: {max_units: 2}
rules:
  - {name: Stubborn, text: Stays in the fight however it goes.}
"""

BOOK_YAML = """\
id: toy-knights
system: toy-duel
name: Toy Knights
faction: Knights
version: "1"
description: A small order of duellists.
units:
  - {id: champion, name: Champion, size: 1, cost: {pts: 20}, might: 4, rules: [Stubborn]}
  - {id: squires, name: Squires, size: 3, cost: {pts: 15}, might: 2}
"""


@pytest.fixture()
def toy_registry(tmp_path, monkeypatch):
    monkeypatch.setenv("LISTBUILDER_CACHE", "off")
    register(TOY_FAMILY)
    folder = tmp_path / "books" / TOY
    folder.mkdir(parents=True)
    (folder / "_system.yaml").write_text(SYSTEM_YAML, encoding="utf-8")
    (folder / "toy-knights.yaml").write_text(BOOK_YAML, encoding="utf-8")
    try:
        yield load_registry(tmp_path / "books")
    finally:
        unregister(TOY)


def toy_list(*units: str) -> dict[str, Any]:
    return {
        "system": TOY,
        "book": "toy-knights",
        "name": "Duel",
        "units": [{"key": f"u{i}", "unit": u} for i, u in enumerate(units)],
    }


# --------------------------------------------------------------------------------------------


def test_each_family_id_is_registered_once():
    assert {"opr", "ancients-hex", "armour-hex"} <= set(FAMILIES)
    assert all(family.id == key for key, family in FAMILIES.items())


def test_a_toy_family_loads_and_validates(toy_registry):
    book = toy_registry.books["toy-knights"]
    assert book.unit("champion").stats == {"might": 4}
    assert validate_list(toy_registry, parse_list(toy_list("champion", "squires"))).valid
    report = validate_list(toy_registry, parse_list(toy_list("champion", "squires", "squires")))
    assert [i.code for i in report.issues] == ["toy.too_many_units"]
    assert report.totals["pts"] == 50


def test_a_toy_family_previews_with_its_situation_schema(toy_registry):
    request = {
        "system": TOY,
        "attacker": {"book": "toy-knights", "unit": "squires"},
        "defender": {"book": "toy-knights", "unit": "champion"},
        "situation": {"bonus": 1},
    }
    answer = preview(toy_registry, load_request(toy_registry, request))
    assert answer["expected"]["hits"] == pytest.approx(3 * 3 / 6)
    assert answer["situation"] == {"bonus": 1, "attack": "melee"}


def test_a_toy_family_refuses_a_situation_its_schema_refuses(toy_registry):
    from listbuilder.combat.service import PreviewError

    request = {
        "system": TOY,
        "attacker": {"book": "toy-knights", "unit": "squires"},
        "defender": {"book": "toy-knights", "unit": "champion"},
        "situation": {"bonus": 5},
    }
    with pytest.raises(PreviewError) as raised:
        load_request(toy_registry, request)
    assert "situation.bonus" in raised.value.errors


def test_a_toy_family_prints_with_its_sheet(toy_registry):
    roster = build_roster(toy_registry, parse_list(toy_list("champion", "squires")))
    text = roster_text(roster)
    assert re.search(r"1\. Champion \[1\] M4 ", text) and re.search(r"2\. Squires \[3\] M2 ", text)
    assert [r.label for r in roster.reference] == ["Stubborn"]


def test_a_toy_family_through_the_http_api(toy_registry, tmp_path):
    from listbuilder.web import create_app

    app = create_app(
        {"TESTING": True, "REGISTRY": toy_registry, "DATABASE_URL": f"sqlite:///{tmp_path / 'app.sqlite3'}"}
    )
    client = app.test_client()
    army = toy_list("champion", "squires", "squires")
    checked = client.post("/api/v1/lists/validate", json=army)
    assert checked.status_code == 200 and [i["code"] for i in checked.get_json()["issues"]] == ["toy.too_many_units"]
    request = {
        "system": TOY,
        "attacker": {"book": "toy-knights", "unit": "champion"},
        "defender": {"book": "toy-knights", "unit": "squires"},
    }
    previewed = client.post("/api/v1/previews", json=request)
    assert previewed.status_code == 200, previewed.get_json()
    assert previewed.get_json()["expected"]["hits"] == pytest.approx(4 / 6)
    printed = client.post("/api/v1/rosters/pdf", json=toy_list("champion"))
    assert printed.status_code == 200 and printed.data.startswith(b"%PDF")


def test_a_toy_familys_preview_form_is_served_from_its_schema(toy_registry):
    """No form written anywhere: the builder's inputs are the toy schema's fields, as they are."""
    from listbuilder.web import create_app

    client = create_app({"TESTING": True, "REGISTRY": toy_registry}).test_client()
    answer = client.get(f"/api/v1/systems/{TOY}")
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["preview"] == {
        "available": True,
        "counts_wounds": False,
        "attack_input": "attack",
        "inputs": [
            {
                "name": "bonus",
                "kind": "number",
                "label": "Bonus",
                "default": 0,
                "initial": 0,
                "min": 0,
                "max": 2,
                "max_length": None,
                "when": None,
                "choices": [],
                "choices_from": None,
            },
            {
                "name": "attack",
                "kind": "select",
                "label": "Attack",
                "default": "melee",
                "initial": "melee",
                "min": None,
                "max": None,
                "max_length": None,
                "when": None,
                "choices": [{"value": "melee", "label": "Melee"}],
                "choices_from": None,
            },
        ],
        "other_keys": [],
        "comparisons": [],
    }
    # Counting wounds, it offers its one attack kind to the loadout comparison.
    register(TOY_FAMILY.variant(counts_wounds=True))
    counted = client.get(f"/api/v1/systems/{TOY}").get_json()["preview"]
    assert counted["comparisons"] == [{"label": "Melee", "attack": "melee", "flags": []}]


def test_a_variant_loads_its_own_parts_and_never_shares_the_originals():
    original = TOY_FAMILY.variant(id="toy-original")
    assert original.part("engine") is toy_engine  # loaded (and kept) by the original first

    changed = original.variant(id="toy-variant", engine="tests.test_family_record:second_engine")
    assert changed.part("engine") is second_engine
    assert original.part("engine") is toy_engine
    # A plain dataclasses.replace gives the copy a cache of its own too.
    assert dataclasses.replace(original, engine=second_engine).part("engine") is second_engine


def second_engine(*args: Any) -> dict[str, Any]:
    return {}

"""A toy rules family added by following docs/architecture.md, "Adding a rules family", alone.

The fixture ``toy`` takes the checklist's ten steps in order, one helper per step
(``step_1_rules_class`` ... ``step_10_rules_notes``), and writes every part as a real file in a
temporary folder put on ``sys.path``: a package ``skirmish_toy`` with the rules class, the
formats, the engine and its situation schema, and the sheet; the Family record naming them as
``"module:name"``; an ``army_books``-like folder with the system file and two books of ten
units; golden lists with their kept reports; and the rules notes. The tests then check that
the family loads, validates, previews and prints, directly and over HTTP, and that no file of
the project was touched.

The toy game ("toy-skirmish", rulebook ``toy-skirmish.txt``, cited as ``toy §N``): units
hit on their Skill and save on their Grit, each model takes one wound; a list keeps to its
points limit (§2) and has a Leader (§3), a leader is one model and every book has one (§3).
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
import textwrap
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from pypdf import PdfReader

from listbuilder import cli, issue_data
from listbuilder.books.loader import load_registry
from listbuilder.books.registry import BookLoadError, BookRegistry
from listbuilder.books.settings import cache_folder
from listbuilder.combat.service import PreviewError, preview
from listbuilder.families import FAMILIES, Family, register, unregister
from listbuilder.lists.documents import parse_list, validate_list
from listbuilder.printing.pdf import roster_pdf
from listbuilder.printing.rosters import build_roster
from listbuilder.shapes.preview_requests import load_request
from listbuilder.validation import Issue
from tests.test_golden_reports import _name, _reports

PROJECT = Path(__file__).resolve().parent.parent
PACKAGE = "skirmish_toy"
FAMILY_ID = "toy-skirmish"
SYSTEM_ID = "toy-skirmish-1e"
BOOK_IDS = ("brass-legion", "moss-kin")


# --------------------------------------------------------------------------------------------
# Step 1. The rules class: ISSUE_CODES, check_book, validate; each check cites its clause.

RULES_MODULE = '''
"""The toy-skirmish family (rulebook toy-skirmish.txt): a points limit and a leader."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from listbuilder.model import ArmyBook, ArmyList, has_rule
from listbuilder.systems.rules import SystemRules
from listbuilder.validation import Issue, ValidationReport

PTS = "pts"


class ToySkirmishRules(SystemRules):
    ISSUE_CODES: ClassVar[Mapping[str, str]] = {
        "points.over_limit": "The list costs more points than its limit (the system default when it gives none).",
        "leader.missing": "No unit of the list has the Leader rule.",
    }

    def check_book(self, book: ArmyBook) -> list[tuple[str, str]]:
        leader = self.system.composition["leader"]["rule"]
        problems = []
        for i, unit in enumerate(book.units):
            # toy §3 Leaders: a leader is a single model.
            if has_rule(unit.rules, leader) and unit.size != 1:
                problems.append((f"units[{i}].size", f"{unit.name} has {leader}, so it is one model, not {unit.size}"))
        # toy §3 Leaders: every list needs a leader, so every book offers one.
        if not any(has_rule(unit.rules, leader) for unit in book.units):
            problems.append(("units", f"no unit has {leader}: no list of this book could be legal"))
        return problems

    def validate(self, army: ArmyList, book: ArmyBook) -> ValidationReport:
        resolved, issues = self.resolve(army, book)
        issues.extend(self.undefined_rules(resolved, book))
        points, leader = self.system.composition["points"], self.system.composition["leader"]
        limit = army.points_limit or points["default"]
        spent = self.spent(resolved)[PTS]
        # toy §2 Points: a list costs at most its points limit.
        if spent > limit:
            data = {"limit": limit, "spent": spent, "over": spent - limit}
            message = f"{spent} pts spent of {limit} ({spent - limit} over)"
            issues.append(Issue("points.over_limit", message, "points_limit", points["clause"], data=data))
        # toy §3 Leaders: every list has a unit with the Leader rule.
        if not any(has_rule(entry.all_rules, leader["rule"]) for entry in resolved):
            issues.append(Issue("leader.missing", f"no unit has {leader['rule']}", "units", leader["clause"]))
        # toy §1: no unit joins or combines with another, so every entry is one activation.
        counts = {"units": len(army.units), "activations": len(resolved), "models": sum(r.models for r in resolved)}
        totals = {PTS: spent, **counts, "limit": {PTS: limit}, "left": {PTS: limit - spent}}
        return ValidationReport.of(issues, totals, resolved)
'''


def step_1_rules_class(package: Path) -> None:
    write(package / "systems.py", RULES_MODULE)


# --------------------------------------------------------------------------------------------
# Step 2. The formats: a UnitSchema with STAT_FIELDS, a composition schema, system and book schemas.

FORMATS_MODULE = '''
"""Army-book and system-file schemas of the toy-skirmish family."""

from marshmallow import fields, validate

from listbuilder.formats.books import UnitSchema, book_schema, system_schema
from listbuilder.formats.fields import StrictSchema, WholeNumber, positive_int

STATS = ("skill", "grit")
_TARGET = validate.Range(min=2, max=6, error="not a target number from 2 to 6")


class ToyUnitSchema(UnitSchema):
    STAT_FIELDS = STATS

    skill = WholeNumber(required=True, validate=_TARGET)
    grit = WholeNumber(required=True, validate=_TARGET)


class PointsSchema(StrictSchema):
    default = positive_int(required=True)
    clause = fields.String(required=True)


class LeaderSchema(StrictSchema):
    rule = fields.String(required=True)
    clause = fields.String(required=True)


class ToyCompositionSchema(StrictSchema):
    points = fields.Nested(PointsSchema, required=True)
    leader = fields.Nested(LeaderSchema, required=True)


ToyBookSchema = book_schema(ToyUnitSchema, "ToyBookSchema")
ToySystemSchema = system_schema(ToyCompositionSchema, "ToySystemSchema")
'''


def step_2_formats(package: Path) -> None:
    write(package / "formats.py", FORMATS_MODULE)


# --------------------------------------------------------------------------------------------
# Step 3. Previews: engine(system, attacker, defender, situation) and its situation schema,
# each field with the label, default and `when` the builder's preview form shows.

ENGINE_MODULE = '''
"""Exact previews of the toy-skirmish family: one volley or one melee, every die counted."""

from listbuilder.combat.service import PreviewError, unmodelled_rules
from listbuilder.dice import Dist
from listbuilder.model import has_rule

MODELLED = {"Sturdy", "Piercing", "Leader"}  # Leader changes nothing in a fight


def save_target(defender, weapon, situation):
    """The roll a defender saves a hit on (7: no save)."""
    target = defender.stats["grit"]
    target -= has_rule(defender.rules, "Sturdy")  # toy §5 Sturdy: saves one better
    target += has_rule(weapon.rules, "Piercing")  # toy §5 Piercing: saves one worse
    target -= situation["attack"] == "shooting" and situation["cover"]  # toy §4 Cover: against shooting only
    return min(max(target, 2), 7)


def engine(system, attacker, defender, situation):
    shooting = situation["attack"] == "shooting"
    # toy §4 Fighting: melee weapons have range 0; a shooting weapon reaches up to its range.
    weapons = [w for w in attacker.weapons if (0 < situation["range"] <= w.range if shooting else w.range == 0)]
    if not weapons:
        where = "situation.range" if shooting else "situation.attack"
        raise PreviewError(where, f"{attacker.name} has no weapon for this attack")
    p_hit = (7 - attacker.stats["skill"]) / 6
    hits, wounds = Dist.constant(0), Dist.constant(0)
    for weapon in weapons:
        dice = weapon.count * weapon.attacks
        p_unsaved = (save_target(defender, weapon, situation) - 1) / 6
        hits = hits + Dist.binomial(dice, p_hit)
        wounds = wounds + Dist.binomial(dice, p_hit * p_unsaved)
    killed = wounds.clip(high=defender.models)  # toy §4: one wound removes one model
    return {
        "expected": {"hits": hits.mean, "wounds": wounds.mean, "models_killed": killed.mean},
        "distributions": {"hits": hits.as_dict(), "wounds": wounds.as_dict(), "models_killed": killed.as_dict()},
        "p_destroyed": wounds.at_least(defender.models),
        "consequences": {},
        "notes": ["every hit is saved or not on its own die (toy §4)"],
        "unmodelled": unmodelled_rules((attacker, defender), MODELLED.__contains__),
    }
'''

SITUATION_MODULE = '''
"""The situation of a toy-skirmish preview."""

from marshmallow import fields, validate

from listbuilder.formats.fields import Flag, StrictSchema, WholeNumber


class ToySituationSchema(StrictSchema):
    attack = fields.String(
        load_default="melee",
        validate=validate.OneOf(["melee", "shooting"]),
        metadata={"label": "Attack", "description": "melee or shooting"},
    )
    range = WholeNumber(
        load_default=12,
        validate=validate.Range(min=1, max=100, error="not a range from 1 to 100"),
        metadata={"label": "Range (inches)", "description": "shooting: the distance", "when": "shooting"},
    )
    cover = Flag(
        load_default=False,
        metadata={"label": "Defender in cover", "description": "shooting: saves one better", "when": "shooting"},
    )
'''


def step_3_previews(package: Path) -> None:
    write(package / "combat.py", ENGINE_MODULE)
    write(package / "shapes.py", SITUATION_MODULE)


# --------------------------------------------------------------------------------------------
# Step 4. The sheet: which stats print, and how.

SHEET_MODULE = '''
"""How toy-skirmish units print."""

from listbuilder.printing.sheets import FamilySheet, StatColumn

TOY_SHEET = FamilySheet(
    stats=(StatColumn("Skill", "Sk", "skill", "{value}+"), StatColumn("Grit", "Gr", "grit", "{value}+")),
)
'''


def step_4_sheet(package: Path) -> None:
    write(package / "sheets.py", SHEET_MODULE)


# --------------------------------------------------------------------------------------------
# Step 5. The record, each part as "module:name" (registered by the fixture).


def step_5_record() -> Family:
    return Family(
        id=FAMILY_ID,
        rules=f"{PACKAGE}.systems:ToySkirmishRules",
        stat_names=("skill", "grit"),
        system_schema=f"{PACKAGE}.formats:ToySystemSchema",
        book_schema=f"{PACKAGE}.formats:ToyBookSchema",
        engine=f"{PACKAGE}.combat:engine",
        situation_schema=f"{PACKAGE}.shapes:ToySituationSchema",
        sheet=f"{PACKAGE}.sheets:TOY_SHEET",
        counts_wounds=True,
    )


# --------------------------------------------------------------------------------------------
# Step 6. The system file: family, rulebook, composition, glossary in our words, notes.

SYSTEM_FILE = f"""
id: {SYSTEM_ID}
name: Toy Skirmish
family: {FAMILY_ID}
edition: "1"
rulebook: toy-skirmish.txt
description: >-
  A small skirmish game made up for a test: units hit on their Skill and save on their Grit.
notes:
  - A leader upgraded with anything is still one model; the Leader rule goes with the unit.
  - Cover helps only against shooting, never in melee.
composition:
  points: {{default: 200, clause: "toy §2 Points"}}
  leader: {{rule: Leader, clause: "toy §3 Leaders"}}
rules:
  - name: Leader
    text: The army's commander. Every army needs one, and a leader is a single model.
  - name: Sturdy
    text: Saves are made one better.
  - name: Piercing
    kind: weapon
    text: Saves against this weapon are made one worse.
"""


def step_6_system_file(folder: Path) -> None:
    write(folder / "_system.yaml", SYSTEM_FILE)


# --------------------------------------------------------------------------------------------
# Step 7. Two books of at least ten units, using every rule the family checks.

# id, name, size, pts, skill, grit, rules, weapons as (name, attacks, range, rules)
BRASS = [
    ("captain", "Brass Captain", 1, 40, 3, 4, ["Leader"], [("Sabre", 2, 0, [])]),
    ("marshal", "Field Marshal", 1, 55, 2, 4, ["Leader"], [("Pistol", 1, 12, []), ("Sabre", 2, 0, [])]),
    ("duelist", "Brass Duelist", 1, 25, 3, 5, [], [("Rapier", 2, 0, ["Piercing"])]),
    ("line", "Line Fusiliers", 5, 50, 4, 5, [], [("Musket", 1, 24, [])]),
    ("grenadiers", "Grenadiers", 4, 45, 4, 4, ["Sturdy"], [("Bomb", 1, 6, ["Piercing"])]),
    ("pikes", "Pike Wall", 6, 40, 5, 4, ["Sturdy"], [("Pike", 1, 0, [])]),
    ("riders", "Brass Riders", 3, 55, 3, 4, [], [("Lance", 2, 0, ["Piercing"])]),
    ("gunners", "Gunners", 3, 35, 4, 5, [], [("Light Gun", 2, 30, [])]),
    ("sappers", "Sappers", 4, 30, 5, 5, [], [("Shovel", 1, 0, [])]),
    ("automaton", "Brass Automaton", 1, 60, 4, 3, ["Sturdy"], [("Fists", 3, 0, [])]),
]
MOSS = [
    ("elder", "Moss Elder", 1, 45, 3, 4, ["Leader", "Sturdy"], [("Staff", 2, 0, [])]),
    ("stalkers", "Fern Stalkers", 4, 40, 3, 5, [], [("Sling", 1, 18, [])]),
    ("shellbacks", "Shellbacks", 3, 50, 4, 3, ["Sturdy"], [("Claws", 2, 0, [])]),
    ("sprouts", "Sprout Swarm", 8, 30, 5, 6, [], [("Bite", 1, 0, [])]),
    ("thornbacks", "Thornbacks", 2, 45, 4, 4, [], [("Thorn Spit", 2, 12, ["Piercing"])]),
    ("bark", "Bark Guard", 5, 55, 4, 4, ["Sturdy"], [("Maul", 1, 0, ["Piercing"])]),
    ("moth-riders", "Moth Riders", 3, 50, 3, 5, [], [("Lance", 1, 0, [])]),
    ("spore", "Spore Tender", 1, 25, 4, 5, [], [("Spore Puff", 2, 6, [])]),
    ("rootwalker", "Rootwalker", 1, 70, 4, 3, ["Sturdy"], [("Roots", 4, 0, [])]),
    ("toadstool", "Toadstool Archers", 5, 45, 4, 5, [], [("Bow", 1, 24, [])]),
]
SHIELDS = {
    "id": "shields",
    "label": "Shields",
    "variant": "upgrade",
    "options": [{"id": "shield", "label": "Shields (Sturdy)", "cost": {"pts": 10}, "gains": {"rules": ["Sturdy"]}}],
}


def book(book_id: str, name: str, units: list[tuple[Any, ...]], shielded: set[str]) -> dict[str, Any]:
    """An army book as its YAML file holds it; *shielded* units are offered shields."""
    return {
        "id": book_id,
        "system": SYSTEM_ID,
        "name": name,
        "faction": name,
        "version": "1.0",
        "description": f"The {name} of the toy skirmish game.",
        "units": [
            {
                "id": unit_id,
                "name": unit_name,
                "size": size,
                "cost": {"pts": pts},
                "skill": skill,
                "grit": grit,
                "rules": rules,
                "weapons": [{"name": w, "attacks": a, "range": r, "rules": wr} for w, a, r, wr in weapons],
                "upgrades": ["shields"] if unit_id in shielded else [],
            }
            for unit_id, unit_name, size, pts, skill, grit, rules, weapons in units
        ],
        "upgrades": [SHIELDS],
    }


def step_7_two_books(folder: Path) -> None:
    for book_id, data in (
        ("brass-legion", book("brass-legion", "Brass Legion", BRASS, {"line", "gunners"})),
        ("moss-kin", book("moss-kin", "Moss Kin", MOSS, {"stalkers", "toadstool"})),
    ):
        write(folder / f"{book_id}.yaml", yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


# --------------------------------------------------------------------------------------------
# Step 8. Golden lists (description, valid, codes; and the list), then their kept reports.


def entry(key: str, unit: str, *upgrades: str) -> dict[str, Any]:
    return {"key": key, "unit": unit, "upgrades": [{"section": "shields", "option": o} for o in upgrades]}


GOLDEN_LISTS = {
    "legal-brass-patrol": {
        "description": "A captain, shielded fusiliers, gunners and a duelist: 160 of 200 pts.",
        "list": {
            "system": SYSTEM_ID,
            "book": "brass-legion",
            "name": "Brass patrol",
            "units": [
                entry("a", "captain"),
                entry("b", "line", "shield"),
                entry("c", "gunners"),
                entry("d", "duelist"),
            ],
        },
        "valid": True,
        "codes": [],
    },
    "legal-moss-grove": {
        "description": "An elder with stalkers, shellbacks and sprouts: 165 of 200 pts.",
        "list": {
            "system": SYSTEM_ID,
            "book": "moss-kin",
            "name": "Moss grove",
            "units": [entry("a", "elder"), entry("b", "stalkers"), entry("c", "shellbacks"), entry("d", "sprouts")],
        },
        "valid": True,
        "codes": [],
    },
    "illegal-leaderless-over-limit": {
        "description": "No leader, and 185 pts at a 150-point limit (toy §2, §3).",
        "list": {
            "system": SYSTEM_ID,
            "book": "brass-legion",
            "points_limit": 150,
            "units": [entry("a", "line"), entry("b", "riders"), entry("c", "gunners"), entry("d", "grenadiers")],
        },
        "valid": False,
        "codes": ["points.over_limit", "leader.missing"],
    },
    "illegal-unknown-unit-and-option": {
        "description": "A unit the book does not have, and an option its section does not offer.",
        "list": {
            "system": SYSTEM_ID,
            "book": "moss-kin",
            "units": [
                entry("a", "elder"),
                entry("b", "treant"),
                {**entry("c", "toadstool"), "upgrades": [{"section": "shields", "option": "tower"}]},
            ],
        },
        "valid": False,
        "codes": ["book.unknown_unit", "upgrade.unknown_option"],
    },
}


def step_8_golden_lists(tests: Path, registry: BookRegistry) -> Path:
    """The golden files in tests/golden/<system-id>/, and the reports kept beside them (as
    ``tests.test_golden_reports --write`` writes them; it reads the project's folders only)."""
    golden = tests / "golden"
    for name, case in GOLDEN_LISTS.items():
        write(golden / SYSTEM_ID / f"{name}.json", json.dumps(case, indent=1))
    cases = sorted(golden.glob("*/*.json"))
    kept = {_name(path): json.loads(_reports(registry, path)[0]) for path in cases}
    write(tests / "golden_reports.json", json.dumps(kept, indent=1, ensure_ascii=False))
    return golden


# --------------------------------------------------------------------------------------------
# Step 9. Issue data: a code that sends figures in `data` has its shape in issue_data.SHAPES.


def issues_without_a_declared_shape(issues: list[Issue]) -> list[tuple[str, dict[str, Any]]]:
    """The issues whose data is in no shape declared for their code (as tests/test_issue_data.py
    finds them): each would need a DataShape in listbuilder/issue_data.py."""
    return [(i.code, dict(i.data)) for i in issues if i.data and issue_data.shape_of(i.code, i.data) is None]


def step_9_issue_data(registry: BookRegistry, golden: Path) -> list[Issue]:
    """Every issue the golden lists emit; the family's codes with data must have a shape."""
    cases = [json.loads(path.read_text(encoding="utf-8")) for path in sorted(golden.glob("*/*.json"))]
    emitted = [issue for case in cases for issue in validate_list(registry, parse_list(case["list"])).issues]
    assert issues_without_a_declared_shape(emitted) == [], "step 9: give these codes a shape in issue_data.SHAPES"
    return emitted


# --------------------------------------------------------------------------------------------
# Step 10. The rules notes, linked from the README's table of systems.

RULES_NOTES = """
# toy-skirmish (rulebook toy-skirmish.txt)

Code: `skirmish_toy/` (a test's toy family). What a list is checked for:

| code | severity | clause | rule |
|---|---|---|---|
| `points.over_limit` | error | toy §2 | the list costs more than its points limit (200 by default) |
| `leader.missing` | error | toy §3 | no unit has Leader |

Readings: a leader stays one model whatever it buys; cover helps against shooting only.
"""

README = f"""
| system | what | rules notes |
|---|---|---|
| `{SYSTEM_ID}` | a toy skirmish game | [docs/systems/{FAMILY_ID}.md](docs/systems/{FAMILY_ID}.md) |
"""


def step_10_rules_notes(root: Path) -> None:
    write(root / "docs" / "systems" / f"{FAMILY_ID}.md", RULES_NOTES)
    write(root / "README.md", README)


# --------------------------------------------------------------------------------------------
# The fixture: the ten steps, in order


@dataclass(frozen=True)
class Toy:
    root: Path
    family: Family
    books: Path
    golden: Path
    registry: BookRegistry
    emitted: list[Issue]  # by the golden lists


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")


def git_status() -> str | None:
    """The repository's ``git status`` (None without git, or outside a work tree)."""
    if shutil.which("git") is None:
        return None
    done = subprocess.run(
        ["git", "-C", str(PROJECT), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout if done.returncode == 0 else None


@pytest.fixture(scope="module")
def status_before() -> str | None:
    return git_status()


@pytest.fixture(scope="module")
def toy(status_before, tmp_path_factory) -> Iterator[Toy]:
    root = tmp_path_factory.mktemp("toy-family")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LISTBUILDER_CACHE", "off")  # the books cache would write into the project
        mp.syspath_prepend(str(root))
        package = root / PACKAGE
        write(package / "__init__.py", '"""A toy rules family, written by tests/test_adding_a_family.py."""\n')
        step_1_rules_class(package)
        step_2_formats(package)
        step_3_previews(package)
        step_4_sheet(package)
        family = register(step_5_record())
        try:
            books = root / "army_books"
            step_6_system_file(books / SYSTEM_ID)
            step_7_two_books(books / SYSTEM_ID)
            registry = load_registry(books)
            golden = step_8_golden_lists(root / "tests", registry)
            emitted = step_9_issue_data(registry, golden)
            step_10_rules_notes(root)
            yield Toy(root, family, books, golden, registry, emitted)
        finally:
            unregister(FAMILY_ID)
            for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
                del sys.modules[name]


@pytest.fixture(scope="module")
def client(toy):
    from listbuilder.web import create_app

    app = create_app({"TESTING": True, "REGISTRY": toy.registry, "DATABASE_URL": f"sqlite:///{toy.root}/db.sqlite3"})
    return app.test_client()


def pdf_text(pdf: bytes) -> str:
    """The PDF's text without whitespace, so line wrapping does not matter."""
    return re.sub(r"\s+", "", "".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages))


# --------------------------------------------------------------------------------------------
# Steps 1-7: the family loads


def test_the_record_names_every_part_and_each_imports(toy):
    assert cache_folder() is None  # LISTBUILDER_CACHE=off: the books cache writes nothing
    assert FAMILIES[FAMILY_ID] is toy.family
    for part in ("rules", "system_schema", "book_schema", "engine", "situation_schema", "sheet"):
        assert getattr(toy.family, part).startswith(f"{PACKAGE}."), part
        assert toy.family.part(part) is not None, part
    unit_schema = toy.family.part("book_schema")().fields["units"].inner.schema
    assert type(unit_schema).STAT_FIELDS == toy.family.stat_names


def test_both_books_load_with_ten_units_each(toy):
    system = toy.registry.systems[SYSTEM_ID]
    assert (system.family, system.rulebook) == (FAMILY_ID, "toy-skirmish.txt")
    assert set(system.glossary) == {"Leader", "Sturdy", "Piercing"} and len(system.notes) == 2
    assert type(toy.registry.rules[SYSTEM_ID]).__name__ == "ToySkirmishRules"
    books = {b.id: b for b in toy.registry.books_of(SYSTEM_ID)}
    assert sorted(books) == sorted(BOOK_IDS)
    assert all(len(b.units) >= 10 for b in books.values())
    assert dict(books["brass-legion"].unit("captain").stats) == {"skill": 3, "grit": 4}
    assert toy.registry.warnings == ()


def test_check_books_loads_them(toy, capsys):
    assert cli.main(["check-books", str(toy.books)]) == 0
    out = capsys.readouterr().out
    assert f"{SYSTEM_ID}: 3 glossary rules, 2 books" in out
    assert "brass-legion: 10 units, 1 upgrade sections" in out and "moss-kin: 10 units" in out


def test_every_rule_of_the_glossary_is_used_by_the_books(toy):
    used = {
        rule.name
        for b in toy.registry.books_of(SYSTEM_ID)
        for unit in b.units
        for rule in (*unit.rules, *(r for w in unit.weapons for r in w.rules))
    }
    assert used == set(toy.registry.systems[SYSTEM_ID].glossary)


def test_a_system_file_of_an_unregistered_family_is_refused(toy, monkeypatch):
    monkeypatch.delitem(FAMILIES, FAMILY_ID)
    with pytest.raises(BookLoadError, match=f"unknown rules family '{FAMILY_ID}'"):
        load_registry(toy.books)


def system_folder(toy: Toy, tmp_path: Path) -> Path:
    """A new system folder under *tmp_path* holding only the toy system file."""
    folder = tmp_path / SYSTEM_ID
    folder.mkdir()
    shutil.copy(toy.books / SYSTEM_ID / "_system.yaml", folder)
    return folder


def test_a_book_breaking_the_familys_book_check_is_refused(toy, tmp_path):
    folder = system_folder(toy, tmp_path)
    crowd = [(*BRASS[0][:2], 3, *BRASS[0][3:])]  # a three-model captain
    write(folder / "crowd.yaml", yaml.safe_dump(book("crowd", "Crowd", crowd + BRASS[2:], set())))
    with pytest.raises(BookLoadError, match="Brass Captain has Leader, so it is one model, not 3"):
        load_registry(tmp_path)


def test_a_book_with_a_stat_out_of_range_is_refused_by_the_unit_schema(toy, tmp_path):
    folder = system_folder(toy, tmp_path)
    wild = [(*BRASS[0][:4], 1, *BRASS[0][5:])]  # skill 1
    write(folder / "wild.yaml", yaml.safe_dump(book("wild", "Wild", wild + BRASS[1:], set())))
    with pytest.raises(BookLoadError, match="skill: not a target number from 2 to 6"):
        load_registry(tmp_path)


# --------------------------------------------------------------------------------------------
# Step 8: golden lists validate to exactly their codes; the kept reports stay what they were


@pytest.mark.parametrize("name", sorted(GOLDEN_LISTS))
def test_golden_list(toy, name):
    case = json.loads((toy.golden / SYSTEM_ID / f"{name}.json").read_text(encoding="utf-8"))
    report = validate_list(toy.registry, parse_list(case["list"]))
    assert Counter(report.codes) == Counter(case["codes"]), report.as_dict()
    assert report.valid is case["valid"]


def test_the_kept_reports_are_the_reports(toy):
    kept = json.loads((toy.root / "tests" / "golden_reports.json").read_text(encoding="utf-8"))
    assert sorted(kept) == sorted(f"{SYSTEM_ID}/{name}" for name in GOLDEN_LISTS)
    for path in sorted(toy.golden.glob("*/*.json")):
        fresh, memoised = _reports(toy.registry, path)
        assert json.loads(fresh) == kept[_name(path)] and memoised == fresh
    over = next(
        i for i in kept[f"{SYSTEM_ID}/illegal-leaderless-over-limit"]["issues"] if i["code"] == "points.over_limit"
    )
    assert (over["clause"], over["data"]) == ("toy §2 Points", {"limit": 150, "spent": 185, "over": 35})


# --------------------------------------------------------------------------------------------
# Step 9: every issue's data is in a shape declared for its code


def test_every_emitted_issue_sends_data_in_a_declared_shape(toy):
    assert {i.code for i in toy.emitted if i.data} == {"points.over_limit"}
    assert issues_without_a_declared_shape(toy.emitted) == []
    # leader.missing sends no data; if it did, step 9 would ask for a shape in issue_data.py:
    assert issues_without_a_declared_shape([Issue("leader.missing", "m", "units", "toy §3", data={"leaders": 0})])


# --------------------------------------------------------------------------------------------
# Step 10: the rules notes


def test_the_rules_notes_are_linked_and_name_every_code_of_the_family(toy):
    link = re.search(r"\]\((docs/systems/[^)]+\.md)\)", (toy.root / "README.md").read_text(encoding="utf-8"))
    notes = (toy.root / link.group(1)).read_text(encoding="utf-8")
    assert all(f"`{code}`" in notes for code in toy.registry.rules[SYSTEM_ID].ISSUE_CODES)


# --------------------------------------------------------------------------------------------
# Previews and rosters, directly


def book_side(book_id: str, unit: str) -> dict[str, str]:
    return {"book": book_id, "unit": unit}


def test_a_preview_is_exact(toy):
    request = load_request(
        toy.registry,
        {
            "system": SYSTEM_ID,
            "attacker": book_side("brass-legion", "line"),
            "defender": book_side("moss-kin", "sprouts"),
            "situation": {"attack": "shooting", "range": 12},
        },
    )
    answer = preview(toy.registry, request)
    # 5 muskets hit on 4+ (1/2); the sprouts save on 6+ (1/6): each shot wounds with 5/12.
    assert answer["situation"] == {"attack": "shooting", "range": 12, "cover": False}
    assert answer["expected"]["wounds"] == pytest.approx(5 * 5 / 12)
    assert float(answer["distributions"]["wounds"]["pmf"]["5"]) == pytest.approx((5 / 12) ** 5)
    assert answer["p_destroyed"] == 0.0 and answer["unmodelled"] == []
    covered = preview(toy.registry, {**request, "situation": {**request["situation"], "cover": True}})
    assert covered["expected"]["wounds"] == pytest.approx(5 * 1 / 3)  # saves on 5+ in cover
    sturdy = preview(toy.registry, {**request, "defender": book_side("moss-kin", "shellbacks")})
    assert sturdy["expected"]["wounds"] == pytest.approx(5 * 1 / 12)  # Grit 3, Sturdy: saves on 2+


def test_a_preview_out_of_range_is_refused(toy):
    request = load_request(
        toy.registry,
        {
            "system": SYSTEM_ID,
            "attacker": book_side("brass-legion", "line"),
            "defender": book_side("moss-kin", "sprouts"),
            "situation": {"attack": "shooting", "range": 30},
        },
    )
    with pytest.raises(PreviewError) as refused:
        preview(toy.registry, request)
    assert refused.value.field == "situation.range"


def test_a_roster_prints_with_the_familys_sheet(toy):
    army = parse_list(GOLDEN_LISTS["legal-brass-patrol"]["list"])
    roster = build_roster(toy.registry, army)
    assert roster.valid and [b.profile.name for b in roster.blocks] == [
        "Brass Captain",
        "Line Fusiliers",
        "Gunners",
        "Brass Duelist",
    ]
    captain = roster.blocks[0].profile
    assert [(s.label, s.value) for s in captain.stats] == [("Skill", "3+"), ("Grit", "4+")]
    assert {r.name for r in roster.reference} == {"Leader", "Sturdy", "Piercing"}  # the shields grant Sturdy
    text = pdf_text(roster_pdf(toy.registry, army, cache=None))
    for name in ("Brass Captain", "Line Fusiliers", "Gunners", "Brass Duelist"):
        assert re.sub(r"\s+", "", name) in text, name
    assert "BrassCaptain" in text and "Sk3+·Gr4+·1model" in text  # the sheet's short labels


# --------------------------------------------------------------------------------------------
# The same over HTTP


def test_http_lists_the_system_and_its_books(toy, client):
    systems = client.get("/api/v1/systems").get_json()
    assert {"id": SYSTEM_ID, "family": FAMILY_ID} in [{k: s[k] for k in ("id", "family")} for s in systems]
    books = client.get(f"/api/v1/books?system={SYSTEM_ID}").get_json()
    assert sorted((b["id"], b["unit_count"]) for b in books) == [("brass-legion", 10), ("moss-kin", 10)]
    detail = client.get(f"/api/v1/systems/{SYSTEM_ID}")
    assert detail.status_code == 200
    assert {"points.over_limit", "leader.missing"} <= set(detail.get_json()["issue_codes"])


def test_http_serves_the_preview_form_from_the_situation_schema(toy, client):
    detail = client.get(f"/api/v1/systems/{SYSTEM_ID}").get_json()
    if "preview" not in detail:
        pytest.skip("GET /api/v1/systems/<id> serves no preview form yet (checklist step 3)")
    inputs = {i["name"]: i for i in detail["preview"]["inputs"]}
    assert list(inputs) == ["attack", "range", "cover"]
    assert [i["label"] for i in inputs.values()] == ["Attack", "Range (inches)", "Defender in cover"]
    assert [i["when"] for i in inputs.values()] == [None, "shooting", "shooting"]


def test_http_openapi_declares_the_familys_preview_request(toy, client):
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    assert list(schemas["ToySituation"]["properties"]) == ["attack", "range", "cover"]
    assert "PreviewRequestToySkirmish" in schemas


def test_http_validates_the_golden_lists(toy, client):
    for name, case in GOLDEN_LISTS.items():
        answer = client.post("/api/v1/lists/validate", json=case["list"])
        assert answer.status_code == 200, name
        report = answer.get_json()
        assert Counter(i["code"] for i in report["issues"]) == Counter(case["codes"]), name
        assert report["valid"] is case["valid"]


def test_http_previews(toy, client):
    request = {
        "system": SYSTEM_ID,
        "attacker": book_side("brass-legion", "duelist"),
        "defender": book_side("moss-kin", "sprouts"),
        "situation": {"attack": "melee"},
    }
    answer = client.post("/api/v1/previews", json=request)
    assert answer.status_code == 200, answer.get_json()
    # 2 rapier attacks hit on 3+ (2/3); Piercing leaves the sprouts no save (6+ made 7+).
    assert answer.get_json()["expected"]["wounds"] == pytest.approx(2 * 2 / 3)
    refused = client.post("/api/v1/previews", json={**request, "situation": {"attack": "melee", "flank": True}})
    assert refused.status_code == 422 and "situation.flank" in refused.get_json()["errors"]


def test_http_prints_a_pdf_roster(toy, client):
    answer = client.post("/api/v1/rosters/pdf?paper=a4&layout=sheet", json=GOLDEN_LISTS["legal-moss-grove"]["list"])
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    text = pdf_text(answer.data)
    for name in ("Moss Elder", "Fern Stalkers", "Shellbacks", "Sprout Swarm"):
        assert re.sub(r"\s+", "", name) in text, name


# --------------------------------------------------------------------------------------------
# With no other file of the project touched


def test_no_file_of_the_project_was_touched(toy, status_before):
    if status_before is None:
        pytest.skip("git is not available")
    assert not toy.root.is_relative_to(PROJECT)
    assert git_status() == status_before

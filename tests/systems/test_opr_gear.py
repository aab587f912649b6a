"""The gear vocabulary of army-book upgrade sections (docs/army-books.md, "Gear"), one test per
rule of it: multi-copy replacements, gear ids, attachments, upgrades tied to a weapon, weapons
inside items, negative costs, numeric rule ratings and rules nothing defines.

The army book's upgrade sections are the rule here (000/001/002 "Preparation": units and
upgrades come from the army's list), so each test names the section rule it checks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from listbuilder.books.loader import load_registry
from listbuilder.books.registry import BookLoadError
from listbuilder.lists.documents import parse_list, validate_list
from listbuilder.printing.rosters import build_roster, roster_text
from listbuilder.resolve import resolve_entry
from tests.conftest import BOOKS

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
OPR = ["age-of-fantasy", "grimdark-future", "age-of-fantasy-regiments"]


def _gear_folder(tmp_path: Path, system_id: str, text: str | None = None) -> Path:
    """A books folder of its own holding only the gear book; the systems come from army_books/."""
    folder = tmp_path / "imported" / system_id
    folder.mkdir(parents=True)
    body = text if text is not None else (FIXTURES / "gear-book.yaml").read_text()
    (folder / "gear-book.yaml").write_text(body.replace("SYSTEM", system_id))
    return tmp_path / "imported"


@pytest.fixture(scope="module")
def gear(tmp_path_factory):
    """The gear book for every OPR system: {system: (registry, book)}."""
    loaded = {}
    for system_id in OPR:
        tmp = tmp_path_factory.mktemp(system_id)
        text = (FIXTURES / "gear-book.yaml").read_text()
        if system_id == "age-of-fantasy-regiments":
            text = text.replace("size: 1\n", "size: 3\n")  # 002 Regiments: 3/5/6/10 models
        registry = load_registry([BOOKS, _gear_folder(tmp, system_id, text)])
        loaded[system_id] = registry
    return loaded


def resolved(registry, unit_id, *rows):
    book = registry.books["gear-book"]
    entry = parse_list(
        {
            "system": book.system,
            "book": book.id,
            "units": [
                {"key": "a", "unit": unit_id, "upgrades": [{"section": s, "option": o, "count": c} for s, o, c in rows]}
            ],
        }
    ).units[0]
    book.resolution_memo.clear()
    return resolve_entry(book, entry, 0)


def report(registry, *entries):
    book = registry.books["gear-book"]
    return validate_list(
        registry, parse_list({"system": book.system, "book": book.id, "force_org": False, "units": list(entries)})
    )


def weapons(entry):
    return {
        w.name if not w.id else f"{w.name}#{w.id}": (w.count, w.attacks, tuple(r.label for r in w.rules))
        for w in entry.weapons
    }


@pytest.mark.parametrize("system", OPR)
def test_section_replace_2x_takes_two_copies_per_model(gear, system):
    entry, issues = resolved(gear[system], "brawlers", ("dual-clubs", "maul", 2))
    assert issues == []
    assert weapons(entry)["Club"][0] == 6 and weapons(entry)["Maul"][0] == 2
    entry, issues = resolved(gear[system], "brawlers", ("dual-clubs", "maul", 5))
    assert issues == [] and "Club" not in weapons(entry)


@pytest.mark.parametrize("system", OPR)
def test_section_replace_2x_needs_two_copies_left(gear, system):
    _, issues = resolved(gear[system], "brawlers", ("dual-clubs", "maul", 4), ("dual-clubs", "maul", 2))
    assert [i.code for i in issues] == ["upgrade.replace_exceeds"]
    assert issues[0].data == {"gear": "Club", "left": 2, "asked": 4}


@pytest.mark.parametrize("system", OPR)
def test_gear_id_tells_two_profiles_of_one_name_apart(gear, system):
    entry, issues = resolved(gear[system], "brawlers", ("heavy-clubs", "heavy", 1))
    assert issues == []
    assert weapons(entry) == {"Pistol": (5, 1, ()), "Club#heavy-club": (10, 2, ())}
    assert entry.cost["pts"] == 110  # "all" sections are priced once


@pytest.mark.parametrize("system", OPR)
def test_gear_named_by_name_reaches_every_profile_with_that_name(gear, system):
    # After the swap, "Club" (a name) still names the heavy clubs the unit now carries.
    entry, issues = resolved(gear[system], "brawlers", ("heavy-clubs", "heavy", 1), ("dual-clubs", "maul", 1))
    assert issues == []
    assert weapons(entry)["Club#heavy-club"][0] == 8 and weapons(entry)["Maul"][0] == 1


@pytest.mark.parametrize("system", OPR)
def test_attachment_one_per_copy_of_its_target(gear, system):
    entry, issues = resolved(gear[system], "brawlers", ("pistol-mods", "bayonet", 5))
    assert issues == [] and weapons(entry)["Bayonet"][0] == 5 and weapons(entry)["Pistol"][0] == 5
    _, issues = resolved(gear[system], "brawlers", ("pistol-mods", "bayonet", 3), ("pistol-mods", "bayonet", 3))
    assert [i.code for i in issues] == ["upgrade.target_exceeds"]
    assert issues[0].data == {"gear": "Pistol", "left": 5, "asked": 6}


@pytest.mark.parametrize("system", OPR)
def test_attachment_needs_its_target_still_there(gear, system):
    # The walker's cannon is swapped for a light gun: nothing is left to scope.
    _, issues = resolved(gear[system], "walker", ("cheaper-cannon", "light-gun", 1), ("cannon-scope", "scope", 1))
    assert [i.code for i in issues] == ["upgrade.target_exceeds"]


@pytest.mark.parametrize("system", OPR)
def test_targeted_upgrade_counts_copies_not_models(gear, system):
    registry = gear[system]
    models = registry.books["gear-book"].unit("walker").size
    entry, issues = resolved(registry, "walker", ("fist-guns", "fist-gun", 2))
    assert issues == []  # a single walker carries two fists, so two may take a gun
    assert weapons(entry)["Fist Gun"][0] == 2 and weapons(entry)["Walker Fist"][0] == 2
    _, issues = resolved(registry, "walker", ("fist-guns", "fist-gun", 3))
    assert [i.code for i in issues] == (["upgrade.count"] if models < 3 else ["upgrade.target_exceeds"])


@pytest.mark.parametrize("system", OPR)
def test_weapon_rules_change_the_targeted_weapon_only(gear, system):
    entry, issues = resolved(gear[system], "walker", ("cannon-scope", "scope", 1))
    assert issues == []
    cannon = next(w for w in entry.weapons if w.name == "Cannon")
    assert [r.label for r in cannon.rules] == ["AP(1)", "Rending"]
    assert "Rending" not in {r.name for r in entry.all_rules}
    assert [i.name for i in entry.items] == ["Scope"]
    # A later replacement naming the weapon still finds the changed copy, and the scope fixed
    # to it leaves with it (a warning says so: tests/test_attachments_replaced.py).
    entry, issues = resolved(gear[system], "walker", ("cannon-scope", "scope", 1), ("cheaper-cannon", "light-gun", 1))
    assert [(i.code, i.severity) for i in issues] == [("upgrade.target_replaced", "warning")]
    assert "Cannon" not in weapons(entry) and "Light Gun" in weapons(entry) and entry.items == ()


@pytest.mark.parametrize("system", OPR)
def test_negative_option_cost_lowers_the_unit_price(gear, system):
    entry, issues = resolved(gear[system], "walker", ("cheaper-cannon", "light-gun", 1))
    assert issues == [] and entry.cost["pts"] == 140


@pytest.mark.parametrize("system", OPR)
def test_weapons_inside_an_item_come_and_go_with_it(gear, system):
    entry, issues = resolved(gear[system], "rider", ("mounts", "steed", 1))
    assert issues == []
    hooves = next(w for w in entry.weapons if w.name == "Hooves")
    assert (hooves.count, hooves.attacks, hooves.carried_by, [r.label for r in hooves.rules]) == (
        1,
        2,
        "Steed",
        ["AP(1)"],
    )  # one steed for the unit
    assert {r.label for r in entry.all_rules} >= {"Fast", "Impact(2)", "Tough(3)"}


@pytest.mark.parametrize("system", OPR)
def test_rule_ratings_as_numbers_load_as_labels(gear, system):
    walker = gear[system].books["gear-book"].unit("walker")
    assert [r.label for r in walker.rules] == ["Tough(6)"] and walker.tough == 6


@pytest.mark.parametrize("system", OPR)
def test_rule_nothing_defines_loads_with_a_warning_and_warns_on_lists(gear, system):
    registry = gear[system]
    assert any("Clockwork" in w.message and w.severity == "warning" for w in registry.warnings)
    result = report(registry, {"key": "r", "unit": "rider", "upgrades": [{"section": "gizmo", "option": "clockwork"}]})
    assert result.valid
    assert [(i.code, i.severity, i.path, i.data["rule"]) for i in result.issues] == [
        ("rules.undefined", "warning", "units[0]", "Clockwork")
    ]


def test_roster_lists_weapons_inside_items(gear):
    registry = gear["grimdark-future"]
    army = parse_list(
        {
            "system": "grimdark-future",
            "book": "gear-book",
            "units": [{"key": "r", "unit": "rider", "upgrades": [{"section": "mounts", "option": "steed"}]}],
        }
    )
    assert "Hooves (A2, AP(1))" in roster_text(build_roster(registry, army))


BROKEN = [
    (
        "    variant: attachment\n    targets: [Pistol]\n",
        "    variant: attachment\n",
        "an attachment section names the gear it attaches to",
    ),
    ("cost: {pts: 150}", "cost: {pts: -150}", "units[1].cost: pts: not a non-negative integer"),
    ("replaces: [{gear: Club, count: 2}]", "replaces: [{gear: Club, count: 0}]", "not gear to replace"),
    ("    targets: [Cannon]\n", "", "weapon_rules change targeted weapons: give the section targets"),
    ("rules: [{name: Tough, rating: 6}]", "rules: [{name: Tough, rating: six}]", "Tough: rating is not a whole number"),
    (
        "targets: [Walker Fist]",
        "targets: [Walker Claw]",
        "section 'fist-guns' targets 'Walker Claw', which 'walker' never has",
    ),
]


@pytest.mark.parametrize("old, new, expected", BROKEN)
def test_broken_gear_vocabulary_is_refused_naming_the_path(tmp_path, old, new, expected):
    text = (FIXTURES / "gear-book.yaml").read_text()
    assert old in text
    with pytest.raises(BookLoadError) as caught:
        load_registry([BOOKS, _gear_folder(tmp_path, "grimdark-future", text.replace(old, new, 1))])
    assert any(expected in str(p) for p in caught.value.problems), [str(p) for p in caught.value.problems]

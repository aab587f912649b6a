"""armour-hex (rulebook 004): one test per army-building clause, named after it.

Lists are validated against the real books (Hammerdeep Holds, Sylvan Concord); book checks
load a copy of a real book with one thing changed, so each test shows the rule it guards.
"""

from __future__ import annotations

import ast
import copy
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from marshmallow import ValidationError

from listbuilder.books.checks import check_references
from listbuilder.formats.armour_hex import ArmourHexBookSchema, parse_dice
from listbuilder.lists.documents import parse_list, validate_list
from listbuilder.systems.armour_hex import ArmourHexRules
from listbuilder.validation import ValidationReport
from tests.conftest import BOOKS, ROOT

SYSTEM = "armour-hex"
DWARF = "ah-hammerdeep-holds"
ELF = "ah-sylvan-concord"


# -- helpers ----------------------------------------------------------------------------------


def validate(registry: Any, book: str, units: list[dict[str, Any]], **extra: Any) -> ValidationReport:
    return validate_list(registry, parse_list({"system": SYSTEM, "book": book, "units": units, **extra}))


def codes(report: ValidationReport) -> Counter[str]:
    return Counter(report.codes)


def errors(report: ValidationReport) -> Counter[str]:
    return Counter(i.code for i in report.issues if i.severity == "error")


def unit(key: str, unit_id: str, *upgrades: tuple[str, str, int]) -> dict[str, Any]:
    return {"key": key, "unit": unit_id, "upgrades": [{"section": s, "option": o, "count": n} for s, o, n in upgrades]}


def tanks(n: int) -> list[dict[str, Any]]:
    """n Anvil tanks: 4 IP each."""
    return [unit(f"t{i}", "anvil-tank") for i in range(n)]


def rules_of(registry: Any) -> ArmourHexRules:
    rules = registry.rules[SYSTEM]
    assert isinstance(rules, ArmourHexRules)
    return rules


def book_data(book_id: str = DWARF) -> dict[str, Any]:
    return yaml.safe_load((BOOKS / SYSTEM / f"{book_id}.yaml").read_text(encoding="utf-8"))


def problems(registry: Any, change: Callable[[dict[str, Any]], None], book_id: str = DWARF) -> list[tuple[str, str]]:
    """Book problems after *change* is applied to a copy of a real book."""
    data = copy.deepcopy(book_data(book_id))
    change(data)
    book = ArmourHexBookSchema().load(data)
    system = registry.systems[SYSTEM]
    return [*check_references(book, system), *rules_of(registry).check_book(book)]


def unit_data(data: dict[str, Any], unit_id: str) -> dict[str, Any]:
    return next(u for u in data["units"] if u["id"] == unit_id)


def section_data(data: dict[str, Any], section_id: str) -> dict[str, Any]:
    return next(s for s in data["upgrades"] if s["id"] == section_id)


# -- the real books ---------------------------------------------------------------------------


def test_books_load_without_problems(registry):
    for book_id in (DWARF, ELF):
        book = registry.books[book_id]
        assert rules_of(registry).check_book(book) == []
        assert check_references(book, registry.systems[SYSTEM]) == []


@pytest.mark.parametrize("book_id", [DWARF, ELF])
def test_books_each_nation_has_tanks_infantry_with_elites_and_equipment_and_a_huge_unit(registry, book_id):
    book = registry.books[book_id]
    kinds = Counter(u.stat("unit_type") for u in book.units)
    assert len(book.units) >= 8
    assert kinds["vehicle"] >= 2 and kinds["infantry"] >= 2 and kinds["cavalry"] >= 1
    assert any(u.stat("size_class") == "huge" for u in book.units)
    options = [o for s in book.sections.values() for o in s.options]
    assert any(o.extra.get("elite") for o in options)
    assert any(o.elite_only for o in options)
    assert any(w.extra.get("hands") == "shared" for o in options for w in o.gains.weapons)
    assert {s.affects for s in book.sections.values()} >= {"one", "all", "unit"}
    assert book.extra["nation"] in registry.systems[SYSTEM].composition["nations"]


def test_books_two_different_nations(registry):
    assert registry.books[DWARF].extra["nation"] != registry.books[ELF].extra["nation"]


# -- 004 Build your army: game modes and budgets ---------------------------------------------


def test_build_your_army_standard_game_24_of_each(registry):
    report = validate(registry, DWARF, tanks(6), game_mode="standard")
    assert (
        report.valid
        and report.totals["ip"] == 24
        and report.totals["budget"] == {"ip": 24, "mp": 24, "cp": 24, "xp": 24}
    )
    over = validate(registry, DWARF, tanks(7), game_mode="standard")
    assert errors(over) == Counter({"budget.ip": 1})
    issue = over.issues[0]
    assert issue.path == "budget.ip" and issue.data == {"currency": "ip", "budget": 24, "spent": 28, "over": 4}


def test_build_your_army_default_game_is_standard(registry):
    report = validate(registry, DWARF, tanks(1))
    assert report.totals["game_mode"] == "standard"
    assert report.totals["budget"] == {"ip": 24, "mp": 24, "cp": 24, "xp": 24}


def test_build_your_army_less_than_is_read_as_not_more_than(registry):
    # 24 IP spent in a 24 IP game is legal (equal allowed) ...
    assert validate(registry, DWARF, tanks(6), game_mode="tank").valid
    # ... and the strict reading is one switch away in the system data.
    system = registry.systems[SYSTEM]
    strict = ArmourHexRules(replace(system, composition={**system.composition, "spend": "below"}))
    army = parse_list({"system": SYSTEM, "book": DWARF, "game_mode": "tank", "units": tanks(6)})
    assert Counter(strict.validate(army, registry.books[DWARF]).codes) == Counter({"budget.ip": 1})


def test_build_your_army_pure_tank_game_24_ip(registry):
    report = validate(registry, DWARF, [*tanks(2), unit("g", "hold-guard")], game_mode="tank")
    # the Hold Guard's 2 MP and 1 CP have no budget in a pure tank game
    assert errors(report) == Counter({"budget.mp": 1, "budget.cp": 1})
    assert report.totals["budget"] == {"ip": 24, "mp": 0, "cp": 0, "xp": 0}


def test_build_your_army_infantry_battle_24_mp_cp_xp(registry):
    report = validate(registry, ELF, [unit("w", "glade-wardens"), unit("s", "starlance-tank")], game_mode="infantry")
    assert errors(report) == Counter({"budget.ip": 1})
    assert validate(registry, ELF, [unit("w", "glade-wardens")], game_mode="infantry").valid


def test_build_your_army_each_currency_is_its_own_budget(registry):
    # 30 XP on Spirit Singers (2 XP each) in a standard game: XP over, although IP is unused.
    singers = [unit(f"s{i}", "spirit-singers") for i in range(13)]
    report = validate(registry, ELF, singers, game_mode="standard")
    assert errors(report) == Counter({"budget.xp": 1})
    assert report.totals["left"]["ip"] == 24 and report.totals["left"]["xp"] == -2


def test_build_your_army_asymmetric_armour_side_36_ip_plus_12_split(registry):
    army = [*tanks(9), unit("g", "hold-guard"), unit("s", "tunnel-sappers"), unit("r", "runesmith")]
    # 36 IP; MP 4 + CP 2 + XP 2 = 8 of the 12 free points, division not written: legal.
    report = validate(registry, DWARF, army, game_mode="asymmetric-armour")
    assert report.valid, report.as_dict()
    assert report.totals["split"] == {
        "points": 12,
        "across": ["mp", "cp", "xp"],
        "declared": None,
        "spent": 8,
        "left": 4,
    }
    # Pooled: the three together may not pass 12.
    more = army + [unit(f"x{i}", "runesmith") for i in range(2)]  # +2 MP +4 XP = 14
    assert errors(validate(registry, DWARF, more, game_mode="asymmetric-armour")) == Counter({"budget.split": 1})


def test_build_your_army_asymmetric_split_written_in_the_budget(registry):
    army = [*tanks(9), unit("g", "hold-guard"), unit("r", "runesmith")]  # MP 3, CP 1, XP 2
    ok = validate(registry, DWARF, army, game_mode="asymmetric-armour", budget={"mp": 6, "cp": 4, "xp": 2})
    assert ok.valid and ok.totals["budget"] == {"ip": 36, "mp": 6, "cp": 4, "xp": 2}
    # the written division is then checked currency by currency
    tight = validate(registry, DWARF, army, game_mode="asymmetric-armour", budget={"ip": 36, "mp": 8, "cp": 3, "xp": 1})
    assert errors(tight) == Counter({"budget.xp": 1})
    # and must add up to exactly the 12 free points
    wrong = validate(registry, DWARF, army, game_mode="asymmetric-armour", budget={"mp": 6, "cp": 4, "xp": 4})
    assert errors(wrong) == Counter({"budget.split": 1})
    assert wrong.issues[0].data == {"points": 12, "declared": {"mp": 6, "cp": 4, "xp": 4}}


def test_build_your_army_asymmetric_other_side_48_or_36_plus_12_ip(registry):
    infantry = [unit(f"s{i}", "spirit-singers") for i in range(24)]  # 24 MP, 48 XP
    assert validate(registry, ELF, infantry, game_mode="asymmetric-infantry").valid
    assert errors(validate(registry, ELF, infantry, game_mode="asymmetric-combined")) == Counter({"budget.xp": 1})
    combined = [unit("a", "starlance-tank"), unit("b", "starlance-tank"), unit("c", "starlance-tank")]  # 12 IP
    assert validate(registry, ELF, combined, game_mode="asymmetric-combined").valid
    combined.append(unit("d", "leafblade-skimmer"))  # 15 IP
    report = validate(registry, ELF, combined, game_mode="asymmetric-combined")
    assert errors(report) == Counter({"budget.ip": 1}) and report.totals["budget"]["ip"] == 12


def test_build_your_army_custom_budget(registry):
    report = validate(
        registry, DWARF, [*tanks(2), unit("g", "hold-guard")], budget={"ip": 8, "mp": 2, "cp": 1, "xp": 0}
    )
    assert report.valid and report.totals["game_mode"] == "custom"
    assert report.totals["left"] == {"ip": 0, "mp": 0, "cp": 0, "xp": 0}
    assert errors(validate(registry, DWARF, tanks(3), budget={"ip": 8})) == Counter({"budget.ip": 1})


def test_build_your_army_unknown_game_mode_is_reported(registry):
    report = validate(registry, DWARF, tanks(1), game_mode="skirmish")
    assert errors(report) == Counter({"game_mode.unknown": 1})
    assert report.issues[0].path == "game_mode" and "standard" in report.issues[0].data["known"]
    assert report.totals["budget"] is None
    # with a budget beside it, the budget is still checked
    assert errors(validate(registry, DWARF, tanks(2), game_mode="skirmish", budget={"ip": 4})) == Counter(
        {"game_mode.unknown": 1, "budget.ip": 1}
    )


def test_build_your_army_game_mode_and_budget_must_agree(registry):
    report = validate(registry, DWARF, tanks(1), game_mode="tank", budget={"ip": 30})
    assert errors(report) == Counter({"game_mode.budget_mismatch": 1})
    assert report.totals["budget"]["ip"] == 24  # the named mode's amounts apply
    assert validate(registry, DWARF, tanks(1), game_mode="tank", budget={"ip": 24}).valid


def test_build_your_army_totals_report_every_currency_spent_and_left(registry):
    report = validate(
        registry, DWARF, [unit("t", "anvil-tank"), unit("r", "runesmith", ("runesmith-kit", "forge-bellows", 1))]
    )
    totals = report.totals
    assert {k: totals[k] for k in ("ip", "mp", "cp", "xp", "units", "models")} == {
        "ip": 4,
        "mp": 1,
        "cp": 1,
        "xp": 2,
        "units": 2,
        "models": 2,
    }
    assert totals["left"] == {"ip": 20, "mp": 23, "cp": 23, "xp": 22}


# -- 004 Build your army: loadout per infantry model ------------------------------------------


def test_build_your_army_infantry_one_two_handed_or_two_one_handed(registry):
    # a pistol frees one hand: a war pick fits there ...
    fits = unit("g", "hold-guard", ("hold-guard-arms", "pistol", 1), ("hold-guard-sidearm", "war-pick", 1))
    assert validate(registry, DWARF, [fits]).valid
    # ... but a second war pick lands on a model still holding a two-handed musket
    crowded = unit("g", "hold-guard", ("hold-guard-arms", "pistol", 1), ("hold-guard-sidearm", "war-pick", 2))
    report = validate(registry, DWARF, [crowded])
    assert errors(report) == Counter({"loadout.hands": 1})
    issue = report.issues[0]
    assert issue.path == "units[0].upgrades[1]" and issue.data == {"model": 2, "hands": 3, "slots": 2}
    # two one-handed items (pistol and shield) fill both hands
    shield = unit("g", "hold-guard", ("hold-guard-arms", "pistol-shield", 1), ("hold-guard-sidearm", "war-pick", 1))
    assert errors(validate(registry, DWARF, [shield])) == Counter({"loadout.hands": 1})


def test_build_your_army_infantry_weapon_is_two_handed_unless_stated(registry):
    book = registry.books[DWARF]
    musket = book.unit("hold-guard").weapons[0]
    assert musket.extra["hands"] is None
    assert rules_of(registry).loadouts.slot(musket) == "two_handed"
    # the unstated Long Musket plus a war pick is one hand too many
    assert errors(
        validate(registry, DWARF, [unit("g", "hold-guard", ("hold-guard-sidearm", "war-pick", 1))])
    ) == Counter({"loadout.hands": 1})


def test_build_your_army_any_number_of_independent_equipment(registry):
    kit = unit(
        "g",
        "hold-guard",
        ("hold-guard-kit", "gas-masks", 1),
        ("hold-guard-kit", "grenades", 1),
        ("hold-guard-horn", "horn", 1),
        ("hold-guard-veterans", "veteran", 1),
        ("hold-guard-elite-gear", "rune-charm", 1),
        ("hold-guard-elite-gear", "long-scope", 1),
    )
    report = validate(registry, DWARF, [kit])
    assert report.valid, report.as_dict()


def test_build_your_army_replacing_frees_the_hands(registry):
    # the Thane swaps the oath shield for a rune axe: still pistol + axe = two hands
    thane = unit("g", "hold-guard", ("hold-guard-thane", "thane", 1), ("hold-guard-thane-arms", "rune-axe", 1))
    assert validate(registry, DWARF, [thane]).valid
    # twin leaf blades (two one-handed) replace a two-handed longbow
    blades = unit("w", "glade-wardens", ("glade-wardens-blades", "twin-blades", 4))
    assert validate(registry, ELF, [blades]).valid


def test_build_your_army_hand_limit_is_for_infantry_only(registry):
    rules = rules_of(registry)
    riders = registry.books[DWARF].unit("ram-riders")
    assert riders.stat("unit_type") == "cavalry"
    assert rules.loadouts.base_overload(riders) is None  # riders' gear is never counted in hands


def test_build_your_army_at_most_one_shared_weapon_per_unit(registry):
    one = unit("g", "hold-guard", ("hold-guard-cannon", "hand-cannon", 1))
    assert validate(registry, DWARF, [one]).valid
    two = unit("g", "hold-guard", ("hold-guard-cannon", "hand-cannon", 1), ("hold-guard-cannon", "rocket-tube", 1))
    report = validate(registry, DWARF, [two])
    assert errors(report) == Counter({"loadout.shared": 1})
    assert report.issues[0].path == "units[0].upgrades[1]" and report.issues[0].data == {"shared": 2, "max": 1}


def test_build_your_army_shared_weapon_does_not_take_hands(registry):
    harp = unit("w", "glade-wardens", ("glade-wardens-harp", "storm-harp", 1))
    report = validate(registry, ELF, [harp])
    assert report.valid and report.totals["cp"] == 3


# -- 004 Build your army: elites and their equipment -----------------------------------------


def test_build_your_army_elite_replaces_a_regular_model(registry):
    report = validate(
        registry,
        DWARF,
        [unit("g", "hold-guard", ("hold-guard-veterans", "veteran", 2), ("hold-guard-thane", "thane", 1))],
    )
    assert report.valid and report.totals["elites"] == 3 and report.totals["models"] == 4


def test_build_your_army_elites_never_more_than_models(registry):
    sappers = unit("s", "tunnel-sappers", ("tunnel-sappers-chief", "chief", 1), ("tunnel-sappers-delvers", "delver", 2))
    report = validate(registry, DWARF, [sappers])
    assert errors(report) == Counter({"upgrade.elites": 1})
    assert report.issues[0].data == {"models": 2, "elites": 3}
    ok = unit("s", "tunnel-sappers", ("tunnel-sappers-chief", "chief", 1), ("tunnel-sappers-delvers", "delver", 1))
    assert validate(registry, DWARF, [ok]).valid


def test_build_your_army_elite_equipment_at_most_once_per_elite(registry):
    # three elites may each take a rune charm ...
    three = unit(
        "g",
        "hold-guard",
        ("hold-guard-veterans", "veteran", 2),
        ("hold-guard-thane", "thane", 1),
        ("hold-guard-elite-gear", "rune-charm", 3),
    )
    assert validate(registry, DWARF, [three]).valid
    # ... a fourth has nobody to carry it
    four = unit(
        "g",
        "hold-guard",
        ("hold-guard-veterans", "veteran", 2),
        ("hold-guard-thane", "thane", 1),
        ("hold-guard-elite-gear", "rune-charm", 4),
    )
    report = validate(registry, DWARF, [four])
    assert errors(report) == Counter({"upgrade.elite_only": 1})
    assert report.issues[0].data == {"bought": 4, "elites": 3, "free": 3}
    # buying the same item in two rows counts together
    split = unit(
        "g",
        "hold-guard",
        ("hold-guard-veterans", "veteran", 1),
        ("hold-guard-elite-gear", "rune-charm", 1),
        ("hold-guard-elite-gear", "rune-charm", 1),
    )
    assert "upgrade.elite_only" in codes(validate(registry, DWARF, [split]))


def test_build_your_army_elite_equipment_only_for_the_named_elite(registry):
    # the long scope is for veterans: a thane does not count
    thane = unit(
        "g",
        "hold-guard",
        ("hold-guard-thane", "thane", 1),
        ("hold-guard-veterans", "veteran", 1),
        ("hold-guard-elite-gear", "long-scope", 2),
    )
    assert errors(validate(registry, DWARF, [thane])) == Counter({"upgrade.elite_only": 1})


def test_build_your_army_elite_equipment_needs_an_elite(registry):
    # rune charm names no particular elite, so without any elite it is upgrade.elite_only
    report = validate(registry, DWARF, [unit("g", "hold-guard", ("hold-guard-elite-gear", "rune-charm", 1))])
    assert errors(report) == Counter({"upgrade.elite_only": 1})


def test_build_your_army_every_upgrade_requirement(registry):
    # the long scope states "veterans only": without a veteran the requirement itself fails once
    report = validate(registry, DWARF, [unit("g", "hold-guard", ("hold-guard-elite-gear", "long-scope", 1))])
    assert errors(report) == Counter({"upgrade.requires": 1})
    assert report.issues[0].data == {"requires": "hold-guard-veterans/veteran"}
    axe = validate(registry, DWARF, [unit("g", "hold-guard", ("hold-guard-thane-arms", "rune-axe", 1))])
    # no thane: no oath shield to swap either
    assert errors(axe) == Counter({"upgrade.replace_exceeds": 1})


def test_build_your_army_elites_listed_before_their_equipment(registry):
    late = unit(
        "w",
        "glade-wardens",
        ("glade-wardens-elite-gear", "moon-arrows", 1),
        ("glade-wardens-pathfinders", "pathfinder", 1),
    )
    report = validate(registry, ELF, [late])
    assert errors(report) == Counter({"upgrade.elite_only": 1})
    assert "before their equipment" in report.issues[0].message


def test_build_your_army_upgrades_paid_with_cp_and_xp(registry):
    report = validate(
        registry,
        ELF,
        [
            unit(
                "w",
                "glade-wardens",
                ("glade-wardens-pathfinders", "pathfinder", 2),
                ("glade-wardens-cloaks", "mist-cloaks", 1),
            )
        ],
    )
    assert (report.totals["ip"], report.totals["mp"], report.totals["cp"], report.totals["xp"]) == (0, 2, 3, 4)

    def ip_upgrade(data: dict[str, Any]) -> None:
        section_data(data, "glade-wardens-cloaks")["options"][0]["cost"] = {"ip": 1}

    assert any(path.endswith(".cost") and "cp, xp" in msg for path, msg in problems(registry, ip_upgrade, ELF))


# -- 004 Build your army: huge units ---------------------------------------------------------


def test_build_your_army_huge_units_declared_before_building(registry):
    report = validate(registry, ELF, [unit("t", "thornwalker"), unit("w", "glade-wardens")])
    assert report.valid
    [issue] = report.issues
    assert (issue.code, issue.severity, issue.path) == ("declare.huge", "warning", "units[0]")
    assert report.totals["huge"] == ["thornwalker"]


# -- book checks that cite the rulebook -------------------------------------------------------


def test_build_your_army_units_have_1_2_or_4_models(registry):
    def three(data: dict[str, Any]) -> None:
        unit_data(data, "hold-guard")["size"] = 3

    assert ("units[5].size", "3 models; a unit has 1 or 2 or 4") in problems(registry, three)


def test_build_your_army_vehicles_cost_ip_and_soldiers_cost_mp(registry):
    def swap(data: dict[str, Any]) -> None:
        unit_data(data, "anvil-tank")["cost"] = {"mp": 4}
        unit_data(data, "runesmith")["cost"] = {"xp": 3}

    found = problems(registry, swap)
    assert ("units[0].cost", "a vehicle is built with industry points (ip)") in found
    assert ("units[8].cost", "infantry units are raised with manpower points (mp)") in found


def test_build_your_army_costs_only_in_the_four_currencies(registry):
    def pts(data: dict[str, Any]) -> None:
        unit_data(data, "anvil-tank")["cost"] = {"ip": 4, "pts": 10}

    assert any(p == "units[0].cost" and "pts" in m for p, m in problems(registry, pts))


def test_build_your_army_elite_replaces_single_models_not_the_unit(registry):
    def whole(data: dict[str, Any]) -> None:
        section = section_data(data, "hold-guard-veterans")
        section["affects"] = "all"
        del section["affects_count"]

    assert any(p.endswith(".elite") for p, _ in problems(registry, whole))


def test_build_your_army_elite_only_gear_needs_an_elite_in_the_unit(registry):
    def no_elites(data: dict[str, Any]) -> None:
        unit_data(data, "hold-guard")["upgrades"] = ["hold-guard-elite-gear"]
        for option in section_data(data, "hold-guard-elite-gear")["options"]:
            option.pop("requires", None)

    assert any("no elite to carry it" in m for _, m in problems(registry, no_elites))


def test_build_your_army_shared_weapon_is_bought_for_the_unit(registry):
    def per_model(data: dict[str, Any]) -> None:
        section_data(data, "hold-guard-cannon")["affects"] = "any"

    assert any("use affects unit" in m for _, m in problems(registry, per_model))


def test_build_your_army_starting_gear_is_a_legal_loadout(registry):
    def overloaded(data: dict[str, Any]) -> None:
        unit_data(data, "hold-guard")["items"] = [{"name": "Tower Shield", "hands": "one_handed"}]

    assert any(p == "units[5].weapons" and "3 hands" in m for p, m in problems(registry, overloaded))


def test_orders_each_speed_allows_known_orders(registry):
    def bad_orders(data: dict[str, Any]) -> None:
        unit_data(data, "gyro-scout")["speeds"] = [
            {"speed": "warp", "movement": ["F", "Jump"], "gunnery": ["Blast"], "default": "R"},
        ]

    found = dict(problems(registry, bad_orders))
    assert set(found) >= {
        "units[4].speeds[0].speed",
        "units[4].speeds[0].movement[1]",
        "units[4].speeds[0].gunnery[0]",
        "units[4].speeds[0].default",
    }


def test_orders_compound_and_bracketed_orders(registry):
    rules = rules_of(registry)
    known = list(registry.systems[SYSTEM].composition["movement_orders"])
    assert rules.book_checks._known_order("360+A", known) and rules.book_checks._known_order("B[still]", known)
    assert not rules.book_checks._known_order("F+Warp", known)


def test_orders_nation_is_one_of_the_six(registry):
    def unknown(data: dict[str, Any]) -> None:
        data["nation"] = "Goblin"

    assert any(p == "nation" for p, _ in problems(registry, unknown))


def test_angles_four_facings_or_one_value_for_all(registry):
    data = copy.deepcopy(book_data())
    unit_data(data, "hold-guard")["assault"]["dice"] = 2
    book = ArmourHexBookSchema().load(data)
    assert book.unit("hold-guard").stat("assault")["dice"] == (2, 2, 2, 2)
    unit_data(data, "anvil-tank")["armour"] = [5, 4, 3]
    with pytest.raises(ValidationError) as caught:
        ArmourHexBookSchema().load(data)
    assert "four facings" in str(caught.value.messages)


def test_angles_fixed_weapons_fire_a_number_of_shots_per_facing(registry):
    guns = registry.books[DWARF].unit("mountain-fortress").weapons[1]
    assert guns.extra["angles"] == (2, 1, 1, 1)
    data = copy.deepcopy(book_data())
    unit_data(data, "anvil-tank")["weapons"][0]["angles"] = [False, False, False, False]
    with pytest.raises(ValidationError):
        ArmourHexBookSchema().load(data)


def test_damage_every_weapon_has_damage_dice():
    assert parse_dice("d6-1") == (1, 6, -1) and parse_dice("2d6") == (2, 6, 0) and parse_dice("3") == (0, 0, 3)
    with pytest.raises(ValueError):
        parse_dice("d7")


def test_damage_table_every_unit_reads_a_regular_table(registry):
    def psychic_only(data: dict[str, Any]) -> None:
        unit_data(data, "gyro-scout")["damage_tables"] = {"psychic": [{"at": 4, "effects": ["Shaken"]}]}

    assert ("units[4].damage_tables", "every unit needs a regular damage table") in problems(registry, psychic_only)


def test_damage_table_effects_and_kinds_are_known(registry):
    def odd(data: dict[str, Any]) -> None:
        unit_data(data, "gyro-scout")["damage_tables"] = {
            "regular": [
                {"at": 3, "effects": ["Explode"]},
                {"at": 5, "effects": ["Kill"]},
                {"at": 7, "effects": ["Future Damage(two)"]},
            ],
            "morale": [{"at": 4, "effects": ["Shaken"]}],
        }

    found = dict(problems(registry, odd))
    assert {
        "units[4].damage_tables.regular[0].effects[0]",
        "units[4].damage_tables.regular[1].effects[0]",
        "units[4].damage_tables.regular[2].effects[0]",
        "units[4].damage_tables.morale",
    } <= set(found)


def test_damage_table_rows_rise(registry):
    data = copy.deepcopy(book_data())
    unit_data(data, "gyro-scout")["damage_tables"]["regular"] = [
        {"at": 5, "effects": ["Shaken"]},
        {"at": 3, "effects": ["Destroyed"]},
    ]
    with pytest.raises(ValidationError):
        ArmourHexBookSchema().load(data)


def test_special_damage_types_are_known(registry):
    def laser(data: dict[str, Any]) -> None:
        unit_data(data, "anvil-tank")["weapons"][0]["damage_type"] = "laser"

    assert any(p == "units[0].weapons[0].damage_type" for p, _ in problems(registry, laser))


def test_unit_abilities_parameters_have_their_shape(registry):
    def params(data: dict[str, Any]) -> None:
        unit_data(data, "hold-guard")["rules"] = ["Stubborn", "Take Cover(sprinting, -1)"]
        unit_data(data, "runesmith")["rules"] = ["Repair(3, hex, 3)", "Heal(1, self, 2)", "Acid Resistance(4)"]
        unit_data(data, "tunnel-sappers")["rules"] = [
            "Hide(ruins)",
            "Forward Position(2)",
            "Cunning Assault(2)",
            "Camouflage(lava)",
        ]

    found = dict(problems(registry, params))
    assert {"units[5].rules[1]", "units[8].rules[0]", "units[8].rules[2]", "units[6].rules[3]"} <= set(found)
    assert "units[8].rules[1]" not in found  # Heal(1, self, 2) fits Heal(N, target, phase)


def test_unit_abilities_assault_rules_are_in_the_glossary(registry):
    def strikes(data: dict[str, Any]) -> None:
        unit_data(data, "tunnel-sappers")["assault"]["rules"] = ["Dragon Bite", "Poison Strikes(d4)"]

    found = dict(problems(registry, strikes))
    assert "units[6].assault.rules[0]" in found and "units[6].assault.rules[1]" in found


def test_burst_load_and_limited_ammo_are_weapon_fields(registry):
    mortar = registry.books[DWARF].unit("quarry-mortar").weapons[0]
    assert (mortar.extra["load"], mortar.extra["burst"], mortar.extra["limited_ammo"]) == (2, 2, None)

    def as_label(data: dict[str, Any]) -> None:
        unit_data(data, "quarry-mortar")["weapons"][0]["rules"] = ["Burst(2)"]

    assert any("burst field" in m for _, m in problems(registry, as_label))


def test_special_damage_types_bio_marker(registry):
    elf = registry.books[ELF]
    assert elf.unit("thornwalker").stat("bio") is True  # a living vehicle: poison and healing work
    assert elf.unit("starlance-tank").stat("bio") is False
    assert elf.unit("glade-wardens").stat("bio") is True


# -- the API view and the pure core -----------------------------------------------------------


def test_describe_shows_game_modes_and_limits(registry):
    described = rules_of(registry).describe()
    modes = {m["id"]: m for m in described["game_modes"]}
    assert set(modes) == {
        "tank",
        "infantry",
        "standard",
        "asymmetric-armour",
        "asymmetric-infantry",
        "asymmetric-combined",
    }
    assert modes["asymmetric-armour"]["split"] == {"points": 12, "across": ["mp", "cp", "xp"]}
    assert modes["asymmetric-combined"]["budget"] == {"ip": 12, "mp": 36, "cp": 36, "xp": 36}
    assert described["default_mode"] == "standard" and "exactly" in described["spend"]
    assert described["limits"]["hand_slots"] == 2 and described["limits"]["model_counts"] == [1, 2, 4]


def test_every_issue_code_is_documented(registry):
    rules = rules_of(registry)
    doc = (ROOT / "docs" / "systems" / "armour-hex.md").read_text(encoding="utf-8")
    for code in rules.ISSUE_CODES:
        assert f"`{code}`" in doc, code


def test_core_is_pure():
    source = (ROOT / "listbuilder" / "systems" / "armour_hex.py").read_text(encoding="utf-8")
    imported = {
        (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    assert not {m for m in imported if m.split(".")[0] in {"flask", "yaml", "marshmallow"}}


def test_golden_lists_cover_every_code():
    import json

    seen: set[str] = set()
    modes: set[str] = set()
    for path in (Path(__file__).resolve().parent.parent / "golden" / SYSTEM).glob("*.json"):
        case = json.loads(path.read_text(encoding="utf-8"))
        seen |= set(case["codes"])
        modes.add(case["list"].get("game_mode") or ("custom" if "budget" in case["list"] else "standard"))
    assert set(ArmourHexRules.ISSUE_CODES) <= seen
    assert {
        "tank",
        "infantry",
        "standard",
        "asymmetric-armour",
        "asymmetric-infantry",
        "asymmetric-combined",
        "custom",
    } <= modes

"""OPR-family army building, one test per rule clause (000 = AoF 2.16, 001 = GF, 002 = regiments).

The fixture books in tests/fixtures are loaded through the real loader for each system, so
these tests depend only on each system's composition data, not on the published books.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from listbuilder.books.loader import load_book
from listbuilder.lists.documents import parse_list, validate_list
from tests.conftest import GOLDEN

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
OPR = ["age-of-fantasy", "grimdark-future", "age-of-fantasy-regiments"]
WITH_FORCE_ORG = ["grimdark-future", "age-of-fantasy-regiments"]
WITH_COMMAND_GROUPS = ["age-of-fantasy", "age-of-fantasy-regiments"]


@pytest.fixture(scope="module")
def books(registry, tmp_path_factory):
    """The drill fixtures loaded for every OPR system, in a registry of their own."""
    folder = tmp_path_factory.mktemp("drill")
    extra = {}
    for system_id in OPR:
        system = registry.systems[system_id]
        for name in ("drill-book", "drill-command"):
            if name == "drill-command" and system_id not in WITH_COMMAND_GROUPS:
                continue
            text = (FIXTURES / f"{name}.yaml").read_text().replace("SYSTEM", system_id)
            text = text.replace(f"id: {name}\n", f"id: {name}-{system_id}\n", 1)
            path = folder / f"{name}-{system_id}.yaml"
            path.write_text(text)
            book = load_book(path, system)
            extra[book.id] = book
    return replace(registry, books={**registry.books, **extra})


def check(books, system, units, *, limit=2000, force_org=None, book="drill-book"):
    payload = {"system": system, "book": f"{book}-{system}", "points_limit": limit, "units": units}
    if force_org is not None:
        payload["force_org"] = force_org
    return validate_list(books, parse_list(payload))


def codes(report):
    return Counter(report.codes)


def unit(key, unit_id, *upgrades, **kw):
    entry = {"key": key, "unit": unit_id, "upgrades": [{"section": s, "option": o, "count": c} for s, o, c in upgrades]}
    entry.update(kw)
    return entry


# -- points --------------------------------------------------------------------------------


@pytest.mark.parametrize("system", OPR)
def test_preparation_points_limit_exceeded(books, system):
    report = check(books, system, [unit("a", "infantry"), unit("b", "infantry")], limit=199, force_org=False)
    assert codes(report) == {"points.over_limit": 1}
    issue = report.issues[0]
    assert issue.data == {"limit": 199, "spent": 200, "over": 1}
    assert report.totals["pts"] == 200 and report.totals["left"] == {"pts": -1}


@pytest.mark.parametrize("system", OPR)
def test_preparation_points_limit_exactly_met_is_legal(books, system):
    report = check(books, system, [unit("a", "infantry"), unit("b", "infantry")], limit=200, force_org=False)
    assert report.valid and report.issues == ()
    assert report.totals["models"] == 20 and report.totals["units"] == 2


# -- upgrades ------------------------------------------------------------------------------


def test_upgrade_must_be_offered_to_the_unit(books):
    report = check(books, "grimdark-future", [unit("a", "squad", ("rep-one", "sword", 1))])
    assert codes(report) == {"upgrade.not_offered": 1}
    assert report.issues[0].path == "units[0].upgrades[0].section"


def test_upgrade_unknown_section_and_option(books):
    report = check(books, "grimdark-future", [unit("a", "infantry", ("nope", "x", 1), ("rep-one", "nope", 1))])
    assert codes(report) == {"upgrade.unknown_section": 1, "upgrade.unknown_option": 1}
    assert [i.path for i in report.issues] == ["units[0].upgrades[0].section", "units[0].upgrades[1].option"]


def test_book_unknown_unit(books):
    report = check(books, "grimdark-future", [unit("a", "infantry"), unit("b", "ghost")])
    assert codes(report) == {"book.unknown_unit": 1}
    assert report.issues[0].path == "units[1].unit"


def test_upgrade_replace_one_affects_a_single_model(books):
    report = check(books, "grimdark-future", [unit("a", "infantry", ("rep-one", "sword", 2))])
    assert codes(report) == {"upgrade.count": 1}


def test_upgrade_replace_one_picks_one_option(books):
    report = check(books, "grimdark-future", [unit("a", "infantry", ("rep-one", "sword", 1), ("rep-one", "axe", 1))])
    assert "upgrade.select" in codes(report)


def test_upgrade_replace_up_to_two_models(books):
    ok = check(books, "grimdark-future", [unit("a", "infantry", ("rep-upto", "plasma", 1), ("rep-upto", "flamer", 1))])
    assert ok.valid and ok.totals["pts"] == 115
    too_many = check(
        books, "grimdark-future", [unit("a", "infantry", ("rep-upto", "plasma", 2), ("rep-upto", "flamer", 1))]
    )
    assert codes(too_many) == {"upgrade.select": 1}


def test_upgrade_replace_counts_earlier_replacements(books):
    legal = [unit("a", "infantry", ("rep-upto", "plasma", 2), ("rep-any", "long-rifle", 8))]
    assert check(books, "grimdark-future", legal).valid
    illegal = [unit("a", "infantry", ("rep-upto", "plasma", 2), ("rep-any", "long-rifle", 9))]
    report = check(books, "grimdark-future", illegal)
    assert codes(report) == {"upgrade.replace_exceeds": 1}
    assert report.issues[0].path == "units[0].upgrades[1]"
    assert report.issues[0].data == {"gear": "Rifle", "left": 8, "asked": 9}


def test_upgrade_replace_all_swaps_every_copy(books, registry):
    from listbuilder.resolve import resolve_entry

    army = parse_list(
        {
            "system": "grimdark-future",
            "book": "drill-book-grimdark-future",
            "units": [unit("a", "infantry", ("rep-all", "spears", 1))],
        }
    )
    resolved, issues = resolve_entry(books.books["drill-book-grimdark-future"], army.units[0], 0)
    assert issues == []
    weapons = {w.name: w.count for w in resolved.weapons}
    assert weapons == {"Rifle": 10, "Spear": 10}
    assert resolved.cost["pts"] == 120
    # Nothing is left for a later "replace one Blade".
    after = check(books, "grimdark-future", [unit("a", "infantry", ("rep-all", "spears", 1), ("rep-one", "sword", 1))])
    assert codes(after) == {"upgrade.replace_exceeds": 1}


def test_upgrade_all_models_is_bought_once(books):
    report = check(books, "grimdark-future", [unit("a", "infantry", ("rep-all", "spears", 2))])
    assert codes(report) == {"upgrade.count": 1}


def test_upgrade_per_unit_option_cost(books):
    report = check(books, "grimdark-future", [unit("a", "squad", ("rep-all", "spears", 1))])
    assert report.valid and report.totals["pts"] == 60  # 50 + the squad's own price of 10


def test_upgrade_per_model_cost_multiplies(books):
    report = check(books, "grimdark-future", [unit("a", "infantry", ("rep-any", "long-rifle", 6))])
    assert report.totals["pts"] == 112


def test_upgrade_all_models_pick_any(books):
    report = check(
        books, "grimdark-future", [unit("a", "infantry", ("up-all", "shields", 1), ("up-all", "drilled", 1))]
    )
    assert report.valid and report.totals["pts"] == 125


def test_upgrade_unit_pick_up_to_two(books):
    two = [unit("a", "infantry", ("up-unit", "veteran", 1), ("up-unit", "sharp", 1))]
    assert check(books, "grimdark-future", two).valid
    three = [unit("a", "infantry", ("up-unit", "veteran", 1), ("up-unit", "sharp", 1), ("up-unit", "quick", 1))]
    report = check(books, "grimdark-future", three)
    assert codes(report) == {"upgrade.select": 1}
    assert report.issues[0].data == {"allowed": 2, "taken": 3}


def test_upgrade_same_option_twice_in_one_application(books):
    report = check(
        books, "grimdark-future", [unit("a", "infantry", ("up-unit", "veteran", 1), ("up-unit", "veteran", 1))]
    )
    assert codes(report) == {"upgrade.select": 1}


def test_upgrade_one_model_gains_once(books):
    from listbuilder.resolve import resolve_entry

    army = parse_list(
        {
            "system": "grimdark-future",
            "book": "drill-book-grimdark-future",
            "units": [unit("a", "infantry", ("up-one", "medic", 1))],
        }
    )
    resolved, issues = resolve_entry(books.books["drill-book-grimdark-future"], army.units[0], 0)
    assert issues == [] and [(i.name, i.count) for i in resolved.items] == [("Medic Bag", 1)]
    assert "Medic Kit" in [r.name for r in resolved.all_rules]


def test_upgrade_required_choice_must_be_made(books):
    missing = check(books, "grimdark-future", [unit("h", "hero3")])
    assert codes(missing) == {"upgrade.required": 1}
    made = check(books, "grimdark-future", [unit("h", "hero3", ("mount", "horse", 1))])
    assert made.valid and made.totals["pts"] == 80


def test_upgrade_option_that_needs_another_first(books):
    without = check(books, "grimdark-future", [unit("a", "infantry", ("elite-kit", "field-surgery", 1))])
    assert codes(without) == {"upgrade.requires": 1}
    assert without.issues[0].data == {"requires": "up-one/medic"}
    with_it = check(
        books, "grimdark-future", [unit("a", "infantry", ("up-one", "medic", 1), ("elite-kit", "field-surgery", 1))]
    )
    assert with_it.valid


# -- command groups ----------------------------------------------------------------------


@pytest.mark.parametrize("system", WITH_COMMAND_GROUPS)
def test_command_groups_one_of_each_per_unit(books, system):
    legal = [unit("a", "spearmen", ("command", "sergeant", 1), ("command", "musician", 1))]
    assert check(books, system, legal, book="drill-command", force_org=False).valid
    two_musicians = [unit("a", "spearmen", ("command", "musician", 1), ("standard", "drummer", 1))]
    report = check(books, system, two_musicians, book="drill-command", force_org=False)
    assert codes(report) == {"upgrade.command_group": 1}
    assert report.issues[0].path == "units[0].upgrades[1]"


@pytest.mark.parametrize("system", WITH_COMMAND_GROUPS)
def test_command_groups_even_combined_units(books, system):
    pair = [
        unit("a", "spearmen", ("command", "sergeant", 1), combined_with="b"),
        unit("b", "spearmen", ("command", "sergeant", 1)),
    ]
    report = check(books, system, pair, book="drill-command", force_org=False)
    assert "upgrade.command_group" in codes(report)
    assert report.issues[-1].path == "units[1].upgrades[0]"


# -- combined units ------------------------------------------------------------------------


@pytest.mark.parametrize("system", OPR)
def test_combined_units_same_unit_only(books, system):
    report = check(books, system, [unit("a", "infantry", combined_with="b"), unit("b", "squad")], force_org=False)
    assert codes(report) == {"combined.different_unit": 1}


@pytest.mark.parametrize("system", ["grimdark-future", "age-of-fantasy-regiments"])
def test_001_002_combined_units_multi_model_only(books, system):
    report = check(books, system, [unit("a", "beast", combined_with="b"), unit("b", "beast")], force_org=False)
    assert codes(report) == {"combined.single_model": 1}


def test_000_combined_units_any_two_copies_even_single_models(books):
    # 000 Combined Units: "two copies of the same unit", with no multi-model condition.
    report = check(books, "age-of-fantasy", [unit("a", "beast", combined_with="b"), unit("b", "beast")])
    assert report.valid, report.as_dict()
    assert report.totals["activations"] == 1 and report.totals["models"] == 2


@pytest.mark.parametrize("system", OPR)
def test_combined_units_all_model_upgrades_bought_for_both(books, system):
    differ = [unit("a", "squad", ("up-all", "shields", 1), combined_with="b"), unit("b", "squad")]
    assert codes(check(books, system, differ, force_org=False)) == {"combined.upgrades_differ": 1}
    same = [
        unit("a", "squad", ("up-all", "shields", 1), combined_with="b"),
        unit("b", "squad", ("up-all", "shields", 1)),
    ]
    assert check(books, system, same, force_org=False).valid


def test_combined_units_per_model_upgrades_may_differ(books):
    pair = [unit("a", "infantry", ("rep-upto", "plasma", 2), combined_with="b"), unit("b", "infantry")]
    assert check(books, "grimdark-future", pair).valid


@pytest.mark.parametrize("system", OPR)
def test_combined_units_a_unit_in_one_pair_only(books, system):
    crowd = [unit("a", "squad", combined_with="b"), unit("b", "squad"), unit("c", "squad", combined_with="b")]
    report = check(books, system, crowd, force_org=False)
    assert codes(report) == {"combined.conflict": 2}


def test_combined_units_a_pair_both_copies_name_wins(books):
    crowd = [
        unit("a", "squad", combined_with="b"),
        unit("b", "squad", combined_with="a"),
        unit("c", "squad", combined_with="a"),
    ]
    report = check(books, "grimdark-future", crowd)
    assert codes(report) == {"combined.conflict": 1}
    assert report.issues[0].path == "units[2].combined_with"
    assert report.totals["activations"] == 2


def test_combined_units_unknown_key_and_self(books):
    report = check(
        books, "grimdark-future", [unit("a", "squad", combined_with="zz"), unit("b", "squad", combined_with="b")]
    )
    assert codes(report) == {"combined.unknown_key": 1, "combined.self": 1}
    assert report.issues[0].path == "units[0].combined_with"


def test_combined_units_declared_from_both_sides_is_one_pair(books):
    report = check(
        books, "grimdark-future", [unit("a", "squad", combined_with="b"), unit("b", "squad", combined_with="a")]
    )
    assert report.valid and report.totals["activations"] == 1


@pytest.mark.parametrize("sizes", [("squad", 5), ("infantry", 10)])
def test_002_combined_units_size_not_capped_by_regiments_rows(books, sizes):
    # 002 Regiments: rows of 5 (5/10 models) or 3 (3/6) say how models stand, not how big a
    # combined unit may be; 002 Combined Units asks only for the all-model upgrades on both.
    unit_id, size = sizes
    pair = [unit("a", unit_id, combined_with="b"), unit("b", unit_id)]
    report = check(books, "age-of-fantasy-regiments", pair, force_org=False)
    assert report.valid, report.as_dict()
    assert report.totals["models"] == 2 * size and report.totals["activations"] == 1


# -- heroes joining units ------------------------------------------------------------------


@pytest.mark.parametrize("system", OPR)
def test_hero_only_heroes_join(books, system):
    report = check(books, system, [unit("a", "infantry"), unit("b", "squad", joined_to="a")], force_org=False)
    assert codes(report) == {"join.not_hero": 1}
    assert report.issues[0].path == "units[1].joined_to"


@pytest.mark.parametrize("system", OPR)
def test_hero_joins_a_unit_that_is_not_a_hero(books, system):
    report = check(
        books, system, [unit("h", "hero6"), unit("g", "hero3", ("mount", "on-foot", 1), joined_to="h")], force_org=False
    )
    assert codes(report) == {"join.into_hero": 1}


@pytest.mark.parametrize("system", WITH_FORCE_ORG)
def test_hero_joins_multi_model_units_only(books, system):
    report = check(books, system, [unit("m", "beast"), unit("h", "hero6", joined_to="m")], force_org=False)
    assert codes(report) == {"join.single_model": 1}


def test_aof_hero_may_join_any_other_unit(books):
    report = check(books, "age-of-fantasy", [unit("m", "beast"), unit("h", "hero9", joined_to="m")])
    assert report.valid


@pytest.mark.parametrize("system", WITH_FORCE_ORG)
def test_hero_up_to_tough_6_may_join(books, system):
    ok = check(books, system, [unit("a", "infantry"), unit("h", "hero6", joined_to="a")], force_org=False)
    assert ok.valid
    report = check(books, system, [unit("a", "infantry"), unit("h", "hero9", joined_to="a")], force_org=False)
    assert codes(report) == {"join.tough": 1}
    assert report.issues[0].data == {"tough": 9, "max": 6}


@pytest.mark.parametrize("system", WITH_FORCE_ORG)
def test_hero_unit_without_another_hero(books, system):
    two = [
        unit("a", "infantry"),
        unit("h", "hero6", joined_to="a"),
        unit("g", "hero3", ("mount", "on-foot", 1), joined_to="a"),
    ]
    report = check(books, system, two, force_org=False)
    assert codes(report) == {"join.second_hero": 1}
    assert report.issues[0].path == "units[2].joined_to"


@pytest.mark.parametrize("system", WITH_FORCE_ORG)
def test_hero_combined_pair_is_one_unit_for_joining(books, system):
    pair = [
        unit("a", "squad", combined_with="b"),
        unit("b", "squad"),
        unit("h", "hero6", joined_to="a"),
        unit("g", "hero3", ("mount", "on-foot", 1), joined_to="b"),
    ]
    assert codes(check(books, system, pair, force_org=False)) == {"join.second_hero": 1}


def test_aof_hero_text_sets_no_one_hero_limit(books):
    two = [
        unit("a", "infantry"),
        unit("h", "hero6", joined_to="a"),
        unit("g", "hero3", ("mount", "on-foot", 1), joined_to="a"),
    ]
    assert check(books, "age-of-fantasy", two).valid


def test_join_unknown_key_and_self(books):
    report = check(
        books,
        "grimdark-future",
        [unit("h", "hero6", joined_to="zz"), unit("g", "hero6", joined_to="g")],
        force_org=False,
    )
    assert codes(report) == {"join.unknown_key": 1, "join.self": 1}


# -- force organisation --------------------------------------------------------------------


def heroes(n):
    """*n* heroes, alternating two hero units so copies stay within force organisation."""
    return [unit(f"h{i}", ("hero6", "hero9")[i % 2]) for i in range(n)]


def test_force_organisation_worked_example_at_2000(books, registry):
    """001 Force Organisation: at 2000 pts, max 4 heroes, 3 copies, 700 pts a unit, 10 units."""
    rules = registry.rules["grimdark-future"]
    assert rules.force_org_limits(2000) == {"heroes": 4, "copies": 3, "unit_points": 700, "units": 10}
    at_limit = (
        heroes(4)
        + [unit(f"i{i}", "infantry") for i in range(3)]
        + [
            unit("s", "squad"),
            unit(
                "e",
                "elite",
            ),
            unit("b", "beast"),
        ]
    )
    report = check(books, "grimdark-future", at_limit)
    assert report.valid, report.as_dict()
    assert report.totals["activations"] == 10


def test_force_organisation_one_hero_per_500(books):
    report = check(books, "grimdark-future", heroes(5))
    assert codes(report) == {"force_org.heroes": 1}
    assert report.issues[0].path == "units[4]" and report.issues[0].data == {"max": 4, "count": 5}


def test_force_organisation_copies_one_plus_one_per_1000(books):
    four = [unit(f"s{i}", "squad") for i in range(4)]
    report = check(books, "grimdark-future", four)
    assert codes(report) == {"force_org.copies": 1}
    assert report.issues[0].data == {"unit": "squad", "max": 3, "count": 4}


def test_force_organisation_combined_units_count_as_one_copy(books):
    four = [unit("s0", "squad", combined_with="s1"), unit("s1", "squad"), unit("s2", "squad"), unit("s3", "squad")]
    assert check(books, "grimdark-future", four).valid


def test_force_organisation_copies_message_counts_in_the_totals_words(books):
    """001 Force Organisation: a pair is one copy; the message says so against the list's units."""
    five = [unit("s0", "squad", combined_with="s1"), unit("s1", "squad")] + [
        unit(f"s{i}", "squad") for i in range(2, 5)
    ]
    report = check(books, "grimdark-future", five)
    assert codes(report) == {"force_org.copies": 1}
    assert (
        report.issues[0].message
        == "4 copies of Small Squad (5 in the list, each combined pair counted once), at most 3 at 2000 pts"
    )
    assert report.totals["units"] == 5


def test_force_organisation_units_message_counts_in_the_totals_words(books):
    """001 Force Organisation, 1 unit per 200 pts: the count is the bar's units, a pair once."""
    army = [unit("a", "infantry", combined_with="b"), unit("b", "infantry")] + [
        unit(f"u{i}", ("squad", "beast", "elite")[i % 3]) for i in range(5)
    ]
    report = check(books, "grimdark-future", army, limit=1000)
    found = [i for i in report.issues if i.code == "force_org.units"]
    assert [i.message for i in found] == [
        "6 units (7 in the list, each combined pair counted once), at most 5 at 1000 pts"
    ]
    assert report.totals["units"] == 7
    plain = check(
        books, "grimdark-future", [unit(f"u{i}", ("squad", "beast", "infantry")[i % 3]) for i in range(6)], limit=1000
    )
    assert [i.message for i in plain.issues if i.code == "force_org.units"] == ["6 units, at most 5 at 1000 pts"]


def test_force_organisation_no_unit_over_35_percent(books):
    # elite costs 350: exactly 35% of 1000 is allowed, over it is not.
    assert check(books, "grimdark-future", [unit("e", "elite")], limit=1000).valid
    report = check(books, "grimdark-future", [unit("e", "elite")], limit=999)
    assert codes(report) == {"force_org.unit_share": 1}
    assert report.issues[0].data == {"max": 349, "cost": 350}


def test_force_organisation_combined_pair_cost_counts_for_35_percent(books):
    pair = [unit("a", "infantry", combined_with="b"), unit("b", "infantry")]
    assert codes(check(books, "grimdark-future", pair, limit=500)) == {"force_org.unit_share": 1}


def test_force_organisation_joined_hero_cost_not_added_to_its_unit(books):
    army = [unit("e", "elite"), unit("h", "hero6", joined_to="e")]
    assert check(books, "grimdark-future", army, limit=1000).valid


def test_force_organisation_one_unit_per_200(books):
    eleven = (
        heroes(4)
        + [unit(f"i{i}", "infantry") for i in range(3)]
        + [unit(f"s{i}", "squad") for i in range(3)]
        + [unit("b", "beast")]
    )
    report = check(books, "grimdark-future", eleven)
    assert codes(report) == {"force_org.units": 1}
    assert report.issues[0].data == {"max": 10, "count": 11}


def test_force_organisation_joined_heroes_count_as_units(books):
    army = [unit("a", "infantry"), unit("s", "squad"), unit("h", "hero6", joined_to="a")]
    report = check(books, "grimdark-future", army, limit=500)
    assert codes(report) == {"force_org.units": 1}
    assert report.issues[0].data == {"max": 2, "count": 3}


def test_regiments_force_org_375_750_35_150(books, registry):
    rules = registry.rules["age-of-fantasy-regiments"]
    assert rules.force_org_limits(1500) == {"heroes": 4, "copies": 3, "unit_points": 525, "units": 10}
    report = check(books, "age-of-fantasy-regiments", heroes(5), limit=1500)
    assert codes(report) == {"force_org.heroes": 1}


@pytest.mark.parametrize("system", WITH_FORCE_ORG)
def test_force_organisation_is_optional(books, system):
    report = check(books, system, heroes(9), force_org=False)
    assert report.valid and report.totals["force_org"] is False


def test_aof_216_has_no_force_organisation(books, registry):
    assert registry.rules["age-of-fantasy"].force_org_limits(2000) is None
    report = check(
        books, "age-of-fantasy", heroes(9) + [unit(f"s{i}", "squad") for i in range(6)], limit=3000, force_org=True
    )
    assert report.valid


# -- every problem at once ---------------------------------------------------------------


def test_every_problem_reported_at_once(books):
    army = heroes(5) + [
        unit("a", "infantry", ("rep-one", "sword", 2), combined_with="b"),
        unit("b", "squad"),
        unit("x", "squad", joined_to="a"),
    ]
    report = check(books, "grimdark-future", army, limit=500)
    assert {
        "points.over_limit",
        "force_org.heroes",
        "upgrade.count",
        "combined.different_unit",
        "join.not_hero",
    } <= set(report.codes)
    assert all(i.clause for i in report.issues)


def test_rules_priority_numbered_rules_stack():
    """000 Rules Priority & Stacking Effects: rules with (X) add up; others do not repeat."""
    from listbuilder.model import RuleRef
    from listbuilder.resolve import merge_rules

    merged = merge_rules([RuleRef.parse(x) for x in ["Tough(3)", "Fearless", "Tough(3)", "Fearless", "AP(1)"]])
    assert [r.label for r in merged] == ["Tough(6)", "Fearless", "AP(1)"]


def test_report_prices_each_entry(books):
    report = check(
        books,
        "grimdark-future",
        [unit("a", "infantry", ("rep-any", "long-rifle", 6)), unit("h", "hero3", ("mount", "horse", 1))],
    )
    assert report.entries == {"a": {"cost": {"pts": 112}, "models": 10}, "h": {"cost": {"pts": 80}, "models": 1}}
    assert report.as_dict()["entries"]["a"]["cost"] == {"pts": 112}


# -- spells --------------------------------------------------------------------------------


@pytest.mark.parametrize("system", OPR)
def test_caster_spells_listed_must_exist_and_belong_to_a_caster(books, system):
    # 000 Wizard(X) / 001, 002 Caster(X): a caster casts spells from its army's list, so an
    # entry's spells only choose what its roster prints; they must be real and on a caster.
    rule = "Wizard" if system == "age-of-fantasy" else "Caster"
    book = books.books[f"drill-book-{system}"]
    assert not book.spells and not books.systems[system].spells, "the drill book has no spells"
    report = check(books, system, [unit("a", "infantry", spells=["fireball"])], force_org=False)
    assert codes(report) == {"spells.unknown": 1, "spells.not_caster": 1}
    unknown, not_caster = sorted(report.issues, key=lambda i: i.code, reverse=True)
    assert unknown.path == "units[0].spells[0]" and unknown.severity == "error"
    assert not_caster.path == "units[0].spells" and not_caster.severity == "warning"
    assert unknown.clause == f"{books.systems[system].rulebook[:3]} {rule}(X)"


def test_caster_spells_of_the_book_on_a_caster_are_legal(registry):
    # The legal golden lists that list spells for their casters get no spell issue at all.
    with_spells = 0
    for system in OPR:
        for path in sorted((GOLDEN / system).glob("legal-*.json")):
            army = json.loads(path.read_text())["list"]
            if any(u.get("spells") for u in army["units"]):
                with_spells += 1
                report = validate_list(registry, parse_list(army))
                assert not [i for i in report.issues if i.code.startswith("spells.")], path.name
    assert with_spells >= 2


def test_upgrade_count_over_the_section_limit_keeps_its_points(books):
    """Army book upgrade section "Replace up to two": three asked is an error, priced as asked."""
    legal = check(books, "grimdark-future", [unit("a", "infantry", ("rep-upto", "plasma", 2))])
    illegal = check(books, "grimdark-future", [unit("a", "infantry", ("rep-upto", "plasma", 3))])
    assert codes(illegal) == {"upgrade.count": 1}
    per_model = (legal.totals["pts"] - check(books, "grimdark-future", [unit("a", "infantry")]).totals["pts"]) // 2
    assert illegal.totals["pts"] == legal.totals["pts"] + per_model
    assert illegal.entries["a"]["cost"]["pts"] == illegal.totals["pts"]


def test_upgrade_all_models_counted_twice_keeps_one_price(books):
    once = check(books, "grimdark-future", [unit("a", "infantry", ("rep-all", "spears", 1))])
    twice = check(books, "grimdark-future", [unit("a", "infantry", ("rep-all", "spears", 2))])
    assert codes(twice) == {"upgrade.count": 1}
    assert twice.totals["pts"] == once.totals["pts"]


def test_upgrade_replacing_gear_already_gone_keeps_its_points(books):
    illegal = check(
        books, "grimdark-future", [unit("a", "infantry", ("rep-upto", "plasma", 2), ("rep-any", "long-rifle", 9))]
    )
    legal = check(
        books, "grimdark-future", [unit("a", "infantry", ("rep-upto", "plasma", 2), ("rep-any", "long-rifle", 8))]
    )
    assert codes(illegal) == {"upgrade.replace_exceeds": 1}
    assert illegal.totals["pts"] > legal.totals["pts"]

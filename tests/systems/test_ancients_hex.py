"""ancients-hex army building (rulebook 003), one test per clause.

List rules run against a small book written in this file (round costs make the arithmetic of
the 405 rule and the keyword minimum easy to read) and, where a rule is about the published
books, against those through the ``registry`` fixture. Book rules are checked by loading
small broken books through the real loader and reading its problem messages.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from listbuilder.books.loader import load_book
from listbuilder.books.registry import BookLoadError, BookRegistry
from listbuilder.lists.documents import parse_list, validate_list
from listbuilder.model import ArmyBook
from listbuilder.systems.ancients_hex import keyword_required, opponent_vp
from listbuilder.systems.ancients_hex_books import param_problem

SYSTEM = "ancients-hex"

# A small book: every unit a round price, one of each kind the rules care about.
DRILL_BOOK = """\
id: ahx-drill
system: ancients-hex
name: Drill Camp
faction: Drill
version: "1"
description: Test units with round costs.
army_rule: {name: Drill, text: Nothing happens.}
expansion: 2
home_terrain:
  - {cards: [1, 2, 3, 4, 5], terrain: open}
  - {cards: [6, 7, 8, 9, 10], terrain: woods}
upgrades:
  - id: drill-magic
    label: Learn magic
    variant: upgrade
    options:
      - {id: learn, label: Magician 1, cost: {vp: 10}, gains: {rules: ["Magician(1)"]}}
units:
UNITS
"""

DRILL_UNITS: dict[str, str] = {
    # keyword troops with Advance, 50 vp
    "spears": "class: troops, keyword: true, figures: MMU, size: 3, cost: {vp: 50}, rules: [Advance]",
    # keyword troops with a Mob (an Advance variant), 25 vp
    "mob": "class: troops, keyword: true, figures: MMU, size: 3, cost: {vp: 25}, rules: [Mob]",
    # plain troops, 10 vp
    "archers": "class: troops, figures: MMU, size: 3, cost: {vp: 10}, missile: 2, missile_range: 4",
    # a 1-vp filler hero for exact totals
    "page": "class: hero, figures: SMU, size: 1, cost: {vp: 1}",
    "captain": "class: hero, figures: SMU, size: 1, cost: {vp: 20}, rules: [Advance]",
    "mage": 'class: hero, figures: SMU, size: 1, cost: {vp: 20}, rules: ["Magician(2)"], upgrades: [drill-magic]',
    "necromancer": 'class: hero, figures: SMU, size: 1, cost: {vp: 20}, rules: ["Magician(3)"], spell_roles: [necromancer]',
    "wight": 'class: hero, figures: SMU, size: 1, cost: {vp: 20}, rules: ["Compel(3)"], upgrades: [drill-magic]',
    "tagalong": "class: troops, figures: MMU, size: 2, cost: {vp: 10}, rules: [Attachment]",
    "leech": "class: troops, figures: MMU, size: 2, cost: {vp: 10}, rules: [Attachment, Advance]",
    "spy": "class: troops, figures: MMU, size: 2, cost: {vp: 5}, rules: [Spy]",
    "ogre": "class: beast, figures: MMU, size: 1, cost: {vp: 30}, rules: [Massive]",
}


def unit_yaml(unit_id: str, body: str) -> str:
    return f"  - {{id: {unit_id}, name: {unit_id.title()}, move: '3/5', attack: 2, defence: 2, willpower: 3, hit_points: 3, {body}}}"


def write_book(tmp_path: Path, units: dict[str, str], **replace_top: str) -> Path:
    text = DRILL_BOOK.replace("UNITS", "\n".join(unit_yaml(k, v) for k, v in units.items()))
    for old, new in replace_top.items():
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / "ahx-drill.yaml"
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def drill(registry: BookRegistry, tmp_path_factory: pytest.TempPathFactory) -> BookRegistry:
    """The registry plus the drill book, loaded through the real loader."""
    path = write_book(tmp_path_factory.mktemp("ahx"), DRILL_UNITS)
    book = load_book(path, registry.systems[SYSTEM])
    return replace(registry, books={**registry.books, book.id: book})


def book_problems(registry: BookRegistry, tmp_path: Path, units: dict[str, str], **replace_top: str) -> list[str]:
    """The loader's messages for a drill book with *units* (empty when it loads)."""
    try:
        load_book(write_book(tmp_path, units, **replace_top), registry.systems[SYSTEM])
    except BookLoadError as exc:
        return [str(p) for p in exc.problems]
    return []


def entry(key: str, unit: str, **kw: Any) -> dict[str, Any]:
    return {"key": key, "unit": unit, **kw}


def check(reg: BookRegistry, units: list[dict[str, Any]], *, limit: int | None = None, book: str = "ahx-drill"):
    payload: dict[str, Any] = {"system": SYSTEM, "book": book, "units": units}
    if limit is not None:
        payload["points_limit"] = limit
    return validate_list(reg, parse_list(payload))


def spears(n: int) -> list[dict[str, Any]]:
    return [entry(f"spears-{i}", "spears") for i in range(n)]


def pages(n: int) -> list[dict[str, Any]]:
    return [entry(f"page-{i}", "page") for i in range(n)]


def codes(report) -> Counter[str]:
    return Counter(report.codes)


def issue(report, code: str):
    return next(i for i in report.issues if i.code == code)


# -- 1.0: points, the 405 rule, keyword troops ---------------------------------------------------


def test_1_0_points_default_limit_400_is_clean_at_exactly_400(drill):
    report = check(drill, spears(8))
    assert report.valid and report.issues == ()
    assert report.totals["vp"] == 400 and report.totals["limit"] == {"vp": 400}


@pytest.mark.parametrize(("over", "vp"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3)])
def test_1_0_points_401_to_405_is_a_warning_with_opponent_vp(drill, over, vp):
    report = check(drill, spears(8) + pages(over))
    assert report.valid
    assert codes(report) == Counter({"points.overage": 1})
    found = issue(report, "points.overage")
    assert found.severity == "warning"
    assert found.data == {"limit": 400, "spent": 400 + over, "over": over, "opponent_vp": vp}
    assert report.totals["opponent_vp"] == vp


def test_1_0_points_406_is_over_the_limit(drill):
    report = check(drill, spears(8) + pages(6))
    assert not report.valid
    assert codes(report) == Counter({"points.over_limit": 1})
    assert issue(report, "points.over_limit").data["over"] == 6


def test_1_0_points_any_agreed_size_with_the_same_five_point_allowance(drill):
    assert check(drill, spears(12), limit=600).issues == ()
    assert codes(check(drill, spears(12) + pages(5), limit=600)) == Counter({"points.overage": 1})
    assert codes(check(drill, spears(12) + pages(6), limit=600)) == Counter({"points.over_limit": 1})


def test_1_0_opponent_vp_is_one_per_two_points_over_rounded_up():
    assert [opponent_vp(n, 2) for n in range(6)] == [0, 1, 1, 2, 2, 3]


def test_1_0_keyword_troops_minimum_150_of_400(drill):
    # 125 vp of keyword troops (5 x 25) is short; 150 (6 x 25) is enough.
    short = [entry(f"mob-{i}", "mob") for i in range(5)]
    report = check(drill, short)
    assert codes(report) == Counter({"keyword.minimum": 1})
    assert issue(report, "keyword.minimum").data == {
        "required": 150,
        "keyword": 125,
        "limit": 400,
        "entries": [f"units[{i}]" for i in range(5)],
        "book_units": ["spears", "mob"],
    }
    assert check(drill, short + [entry("mob-5", "mob")]).valid


def test_1_0_keyword_minimum_names_the_units_that_count_and_the_books_keyword_troops(drill):
    report = check(drill, [entry("a0", "archers"), entry("m0", "mob")])
    found = issue(report, "keyword.minimum")
    assert found.message.startswith("25 VP of keyword troops (")
    assert found.data["entries"] == ["units[1]"]
    none = issue(check(drill, [entry("a0", "archers")]), "keyword.minimum")
    assert "(none in the list)" in none.message and none.data["entries"] == []


def test_1_0_keyword_minimum_ignores_non_keyword_units(drill):
    report = check(drill, spears(2) + [entry(f"a{i}", "archers") for i in range(30)])
    assert codes(report) == Counter({"keyword.minimum": 1})


def test_1_0_keyword_minimum_scales_with_the_agreed_limit(drill):
    assert [keyword_required(n, 150, 400) for n in (200, 300, 400, 600, 800)] == [75, 113, 150, 225, 300]
    # 600 points: 200 vp of spears is below the scaled 225.
    report = check(drill, spears(4), limit=600)
    assert issue(report, "keyword.minimum").data["required"] == 225


def test_1_0_empty_list_lacks_keyword_troops(drill):
    assert codes(check(drill, [])) == Counter({"keyword.minimum": 1})


def test_1_0_units_never_combine(drill):
    report = check(
        drill, spears(2) + spears(8)[2:3] + [entry("x", "spears", combined_with="spears-0")] + spears(8)[3:6]
    )
    assert codes(report) == Counter({"combined.unsupported": 1})


# -- 1.0 / 1.1 / 3.1: unit cards ---------------------------------------------------------------


def test_1_1_activation_number_is_derived_from_class(drill):
    book = drill.books["ahx-drill"]
    assert {u.id: u.stats["activation"] for u in book.units if u.id in ("page", "spears", "ogre")} == {
        "page": 3,
        "spears": 5,
        "ogre": 7,
    }


def test_1_1_activation_number_must_match_class(registry, tmp_path):
    problems = book_problems(
        registry, tmp_path, {"bad": "class: troops, activation: 3, figures: MMU, size: 3, cost: {vp: 5}"}
    )
    assert any("activation" in p and "activates on 5" in p for p in problems), problems
    assert (
        book_problems(registry, tmp_path, {"ok": "class: beast, activation: 7, figures: MMU, size: 2, cost: {vp: 5}"})
        == []
    )


def test_1_0_smu_is_one_hero_or_one_non_massive_beast(registry, tmp_path):
    cases = {
        "troops-smu": "class: troops, figures: SMU, size: 1, cost: {vp: 5}",
        "massive-smu": "class: beast, figures: SMU, size: 1, cost: {vp: 5}, rules: [Massive]",
        "crowd-smu": "class: hero, figures: SMU, size: 3, cost: {vp: 5}",
        "lone-hero-mmu": "class: hero, figures: MMU, size: 1, cost: {vp: 5}",
    }
    for unit_id, body in cases.items():
        problems = book_problems(registry, tmp_path, {unit_id: body})
        assert len(problems) == 1 and ".figures" in problems[0], (unit_id, problems)
    fine = {
        "beast-smu": "class: beast, figures: SMU, size: 1, cost: {vp: 5}",
        "troll": "class: beast, figures: MMU, size: 1, cost: {vp: 5}, rules: [Massive]",
        "hero-band": "class: hero, figures: MMU, size: 3, cost: {vp: 5}",
    }
    assert book_problems(registry, tmp_path, fine) == []


def test_1_0_two_hex_units_are_always_mmu(registry, tmp_path):
    problems = book_problems(
        registry, tmp_path, {"chariot": "class: hero, figures: SMU, size: 1, hexes: 2, cost: {vp: 5}"}
    )
    assert len(problems) == 1 and "two-hex" in problems[0]
    assert (
        book_problems(registry, tmp_path, {"chariot": "class: hero, figures: MMU, size: 1, hexes: 2, cost: {vp: 5}"})
        == []
    )
    assert (
        book_problems(registry, tmp_path, {"wide": "class: hero, figures: MMU, size: 1, hexes: 3, cost: {vp: 5}"}) != []
    )


def test_1_0_keyword_flag_marks_troops_only(registry, tmp_path):
    problems = book_problems(
        registry, tmp_path, {"kw-hero": "class: hero, keyword: true, figures: SMU, size: 1, cost: {vp: 5}"}
    )
    assert len(problems) == 1 and "keyword" in problems[0]


@pytest.mark.parametrize("move", ["5/3", "3-5", "3", "a/b", "3/5/7"])
def test_3_1_move_is_first_action_slash_total(registry, tmp_path, move):
    body = "class: troops, figures: MMU, size: 3, cost: {vp: 5}"
    text_units = {"walker": body}
    problems = book_problems(registry, tmp_path, text_units, **{"move: '3/5'": f"move: '{move}'"})
    assert any(".move" in p for p in problems), problems


def test_3_1_move_is_split_into_first_and_total(drill):
    spears_unit = drill.books["ahx-drill"].unit("spears")
    assert (spears_unit.stats["move"], spears_unit.stats["move_first"], spears_unit.stats["move_total"]) == (
        "3/5",
        3,
        5,
    )


def test_4_2_missile_dice_and_range_go_together_and_become_weapons(registry, tmp_path, drill):
    problems = book_problems(
        registry, tmp_path, {"half": "class: troops, figures: MMU, size: 3, cost: {vp: 5}, missile: 2"}
    )
    assert any("missile_range" in p for p in problems), problems
    archers = drill.books["ahx-drill"].unit("archers")
    assert [(w.name, w.attacks, w.range, w.count) for w in archers.weapons] == [
        ("Close combat", 2, 0, 1),
        ("Missile", 2, 4, 1),
    ]


def test_costs_are_vp_only(registry, tmp_path):
    problems = book_problems(registry, tmp_path, {"pricey": "class: troops, figures: MMU, size: 3, cost: {pts: 5}"})
    assert any("vp only" in p for p in problems), problems


# -- 6: magicians and spells ---------------------------------------------------------------------


def test_6_3_spells_up_to_the_magician_number(drill):
    base = spears(8)[:7]
    ok = check(drill, base + [entry("mage", "mage", spells=["heal", "fog"])])
    assert ok.valid and ok.issues == ()
    report = check(drill, base + [entry("mage", "mage", spells=["heal", "fog", "slow"])])
    assert codes(report) == Counter({"spells.too_many": 1})
    assert issue(report, "spells.too_many").data == {"allowed": 2, "chosen": 3}


def test_6_3_fewer_spells_than_the_magician_number_are_fine(drill):
    assert check(drill, spears(7) + [entry("mage", "mage", spells=["heal"])]).valid
    assert check(drill, spears(7) + [entry("mage", "mage")]).valid


def test_6_3_magician_number_counts_upgrades(drill):
    # Magician(2) plus a learned Magician(1) = Magician(3): three spells.
    learn = [{"section": "drill-magic", "option": "learn"}]
    report = check(drill, spears(7) + [entry("mage", "mage", upgrades=learn, spells=["heal", "fog", "slow"])])
    assert "spells.too_many" not in report.codes


def test_6_3_no_duplicate_spells(drill):
    report = check(drill, spears(7) + [entry("mage", "mage", spells=["heal", "heal"])])
    assert codes(report) == Counter({"spells.duplicate": 1})
    assert issue(report, "spells.duplicate").path == "units[7].spells[1]"


def test_6_3_two_magicians_may_choose_the_same_spell(drill):
    units = spears(7)[:6] + [entry("mage-1", "mage", spells=["heal"]), entry("mage-2", "mage", spells=["heal"])]
    assert check(drill, units).issues == ()


def test_6_4_non_magicians_choose_no_spells(drill):
    report = check(drill, spears(7) + [entry("wight", "wight", spells=["compel"])])
    assert codes(report) == Counter({"spells.not_magician": 1})
    assert issue(report, "spells.not_magician").path == "units[7].spells"


def test_6_4_a_unit_that_learns_magic_may_choose(drill):
    learn = [{"section": "drill-magic", "option": "learn"}]
    assert check(drill, spears(7) + [entry("wight", "wight", upgrades=learn, spells=["fog"])]).valid


def test_6_7_unknown_spell_ids(drill):
    report = check(drill, spears(7) + [entry("mage", "mage", spells=["heal", "meteor"])])
    assert codes(report) == Counter({"spells.unknown": 1})
    assert issue(report, "spells.unknown").data == {"spell": "meteor"}


def test_6_7_spell_chart_is_complete(registry):
    chart = {s.id for s in registry.systems[SYSTEM].spells}
    assert chart == {
        "barrier",
        "blinding-light",
        "cleanse",
        "compel",
        "confuse",
        "doom",
        "drain-courage",
        "exorcise",
        "fireball",
        "fog",
        "fury",
        "hasten",
        "heal",
        "hide",
        "immobilise",
        "inspire",
        "lure",
        "missile",
        "raise-dead",
        "shapeshift",
        "shield",
        "slow",
        "summon",
        "terrorise",
        "terraform",
    }
    assert all(s.value == 4 for s in registry.systems[SYSTEM].spells)


def test_6_8_limited_spells_name_their_users(registry):
    limited = {s.id: s.limited_to for s in registry.systems[SYSTEM].spells if s.limited_to}
    assert limited == {
        "raise-dead": ("necromancer",),
        "shapeshift": ("shapeshifter",),
        "summon": ("summoner",),
        "fireball": ("fire-caster",),
        "terraform": ("druid",),
    }


def test_6_8_limited_spells_only_for_named_users(drill):
    report = check(drill, spears(7) + [entry("mage", "mage", spells=["raise-dead"])])
    assert codes(report) == Counter({"spells.limited": 1})
    assert issue(report, "spells.limited").data == {"spell": "raise-dead", "limited_to": ["necromancer"]}
    assert check(drill, spears(7) + [entry("necro", "necromancer", spells=["raise-dead", "heal"])]).valid


def test_6_8_spell_roles_are_known_and_belong_to_magicians(registry, tmp_path):
    unknown = book_problems(
        registry,
        tmp_path,
        {"x": 'class: hero, figures: SMU, size: 1, cost: {vp: 5}, rules: ["Magician(1)"], spell_roles: [lich]'},
    )
    assert any("spell_roles[0]" in p and "lich" in p for p in unknown), unknown
    mundane = book_problems(
        registry, tmp_path, {"x": "class: hero, figures: SMU, size: 1, cost: {vp: 5}, spell_roles: [necromancer]"}
    )
    assert any("spell_roles" in p and "Magician" in p for p in mundane), mundane


def test_6_8_book_spells_may_not_redefine_the_chart(registry, tmp_path):
    problems = book_problems(
        registry,
        tmp_path,
        {"x": "class: hero, figures: SMU, size: 1, cost: {vp: 5}"},
        **{"\nupgrades:\n": "\nspells:\n  - {id: heal, name: Heal, value: 4, text: Ours.}\nupgrades:\n"},
    )
    assert any("spells[0].id" in p for p in problems), problems


def test_6_8_book_spells_extend_the_chart(drill, registry, tmp_path):
    path = write_book(
        tmp_path,
        DRILL_UNITS,
        **{
            "\nupgrades:\n": "\nspells:\n  - {id: gorgon-gaze, name: Gorgon Gaze, value: 3, text: Ours., limited_to: [gorgon]}\nupgrades:\n"
        },
    )
    book = load_book(path, registry.systems[SYSTEM])
    reg = replace(registry, books={**registry.books, book.id: book})
    report = check(reg, spears(7) + [entry("mage", "mage", spells=["gorgon-gaze"])])
    assert codes(report) == Counter({"spells.limited": 1})


# -- 9: attributes ----------------------------------------------------------------------------------


def test_9_attachment_joins_a_unit_with_advance(drill):
    units = spears(7) + [entry("tag", "tagalong", joined_to="spears-0")]
    assert check(drill, units).issues == ()


def test_9_attachment_may_join_an_advance_variant(drill):
    units = spears(6) + [entry("mob", "mob"), entry("tag", "tagalong", joined_to="mob")]
    assert check(drill, units).issues == ()


def test_9_attachment_attribute_required_to_join(drill):
    report = check(drill, spears(7) + [entry("a", "archers", joined_to="spears-0")])
    assert codes(report) == Counter({"join.not_attachment": 1})


def test_9_attachment_target_needs_advance(drill):
    report = check(drill, spears(7) + [entry("a", "archers"), entry("tag", "tagalong", joined_to="a")])
    assert codes(report) == Counter({"join.no_advance": 1})
    assert issue(report, "join.no_advance").path == "units[8].joined_to"


def test_9_attachment_cannot_join_an_attached_unit(drill):
    units = spears(6) + [entry("leech", "leech", joined_to="spears-0"), entry("tag", "tagalong", joined_to="leech")]
    report = check(drill, units)
    assert codes(report) == Counter({"join.chain": 1})


def test_9_attachment_unknown_key_and_self(drill):
    units = spears(7) + [entry("t1", "tagalong", joined_to="nobody"), entry("t2", "tagalong", joined_to="t2")]
    assert codes(check(drill, units)) == Counter({"join.unknown_key": 1, "join.self": 1})


def test_9_spy_at_most_two_per_army(drill):
    two = spears(7) + [entry(f"spy-{i}", "spy") for i in range(2)]
    assert check(drill, two).issues == ()
    report = check(drill, two + [entry("spy-2", "spy")])
    assert codes(report) == Counter({"attribute.limit": 1})
    assert issue(report, "attribute.limit").data == {"rule": "Spy", "max": 2, "count": 3}
    assert issue(report, "attribute.limit").path == "units[9]"


@pytest.mark.parametrize(
    ("spec", "value", "ok"),
    [
        ("X", "3", True),
        ("X", "0", False),
        ("X", "x", False),
        ("1-3", "3", True),
        ("1-3", "4", False),
        ("1/2", "2", True),
        ("1/2", "3", False),
        ("target", "cavalry", True),
    ],
)
def test_9_parameter_specs(spec, value, ok):
    assert (param_problem(spec, value) is None) is ok


@pytest.mark.parametrize(
    ("rule", "ok"),
    [
        ("Skilled(3)", True),
        ("Skilled(4)", False),
        ("Brace(2)", True),
        ("Brace(3)", False),
        ("Terror(2)", True),
        ("Terror(0)", False),
        ("Magician(4)", True),
        ("Magician(many)", False),
        ("Critical Hit(cavalry)", True),
        ("Aura(2)", True),
        ("Channel(1)", True),
        ("Command(2)", True),
        ("Poison(1)", True),
        ("Burning(2)", True),
    ],
)
def test_9_attribute_parameters_follow_the_glossary(registry, tmp_path, rule, ok):
    problems = book_problems(
        registry, tmp_path, {"x": f'class: hero, figures: SMU, size: 1, cost: {{vp: 5}}, rules: ["{rule}"]'}
    )
    assert (problems == []) is ok, problems


SECTION_9 = [
    "Advance",
    "Advance+",
    "Advance-",
    "Agile",
    "Altar",
    "Ambush",
    "Amphibious",
    "Attachment",
    "Aura",
    "Banner",
    "Blast",
    "Bleed",
    "Bodyguard",
    "Brace",
    "Burning",
    "Channel",
    "Charge",
    "Cleave",
    "Command",
    "Copy",
    "Critical Hit",
    "Crush",
    "Deadly",
    "Deep strike flank",
    "Deep strike cover",
    "Deep strike total",
    "Dubious",
    "Ethereal",
    "Evade",
    "First strike",
    "Flight",
    "Focus fire",
    "Follow me",
    "Frenzy",
    "Hack",
    "Heal",
    "Hit & run",
    "Hidden",
    "Immobilise",
    "Immortal",
    "Impact",
    "Impetuous",
    "Knock aside",
    "Light",
    "Lucky",
    "Lure",
    "Magical resistance",
    "Magician",
    "Massed",
    "Massive",
    "Mob",
    "No retreat",
    "Poison",
    "Ringbearer",
    "Regenerate",
    "Fearless",
    "Scavenger",
    "Self control",
    "Self destruct",
    "Skilled",
    "Skirmish",
    "Slow",
    "Soul stealer",
    "Specialist",
    "Split attack",
    "Spy",
    "Stagger",
    "Steadfast",
    "Stealthy",
    "Stun",
    "Support",
    "Swoop",
    "Terror",
    "Unreliable",
    "Unstoppable",
    "Veteran",
]
PARAMETERS = {
    "Skilled": "1-3",
    "Brace": "1/2",
    "Terror": "1/2",
    "Banner": "1/2",
    "Critical Hit": "target",
    "Magician": "X",
    "Aura": "X",
    "Channel": "X",
    "Command": "X",
    "Poison": "X",
    "Burning": "X",
    "Magical resistance": "X",
}


def test_9_glossary_has_every_attribute_with_its_parameter(registry):
    glossary = registry.systems[SYSTEM].glossary
    missing = [name for name in SECTION_9 if name not in glossary]
    assert not missing, missing
    assert {name: glossary[name].param for name in PARAMETERS} == PARAMETERS


# -- 7.1: book extras ------------------------------------------------------------------------------


def test_7_1_expansion_number_is_1_to_5(registry, tmp_path):
    problems = book_problems(
        registry,
        tmp_path,
        {"x": "class: hero, figures: SMU, size: 1, cost: {vp: 5}"},
        **{"expansion: 2": "expansion: 6"},
    )
    assert any("expansion" in p for p in problems), problems


def test_7_1_home_terrain_covers_every_card_value_with_known_terrain(registry, tmp_path):
    gap = book_problems(
        registry,
        tmp_path,
        {"x": "class: hero, figures: SMU, size: 1, cost: {vp: 5}"},
        **{"[6, 7, 8, 9, 10]": "[6, 7, 8, 9]"},
    )
    assert any("home_terrain" in p and "[10]" in p for p in gap), gap
    odd = book_problems(
        registry,
        tmp_path,
        {"x": "class: hero, figures: SMU, size: 1, cost: {vp: 5}"},
        **{"terrain: woods": "terrain: lava"},
    )
    assert any("home_terrain[1].terrain" in p for p in odd), odd


def test_7_1_book_extras_are_kept(registry):
    book = registry.books["ahx-fjordhold"]
    assert book.extra["expansion"] == 5
    assert book.extra["army_rule"]["name"] == "Horns in the Mist"
    assert {c for row in book.extra["home_terrain"] for c in row["cards"]} == set(range(1, 11))


# -- the published books and the API description ------------------------------------------------


@pytest.mark.parametrize("book_id", ["ahx-thalassan-league", "ahx-fjordhold"])
def test_published_books_exercise_every_rule(registry, book_id):
    book: ArmyBook = registry.books[book_id]
    units = book.units
    assert len(units) >= 10
    assert {u.stats["unit_class"] for u in units} == {"hero", "troops", "beast"}
    assert {u.stats["figures"] for u in units} == {"SMU", "MMU"}
    assert any(u.stats["keyword"] for u in units)
    assert any(u.stats["hexes"] == 2 for u in units)
    assert any(r.name == "Magician" for u in units for r in u.rules)
    assert any(u.stats["spell_roles"] for u in units)
    assert any(r.name == "Attachment" for u in units for r in u.rules)
    assert any(r.name == "Advance" for u in units for r in u.rules)
    assert any(u.stats["missile"] for u in units)


def test_describe_shows_limits_and_keyword_minimum(registry):
    described = registry.rules[SYSTEM].describe()
    assert described["points_default"] == 400
    assert described["limits"]["400"] == {
        "points": 400,
        "keyword_minimum": 150,
        "legal_up_to": 405,
        "opponent_vp_at_most": 3,
    }
    assert described["limits"]["600"]["keyword_minimum"] == 225
    assert described["activation"] == {"hero": 3, "troops": 5, "beast": 7}


def test_every_issue_code_is_described(registry):
    rules = registry.rules[SYSTEM]
    emitted = {
        "points.over_limit",
        "points.overage",
        "keyword.minimum",
        "spells.not_magician",
        "spells.too_many",
        "spells.duplicate",
        "spells.unknown",
        "spells.limited",
        "join.unknown_key",
        "join.self",
        "join.not_attachment",
        "join.no_advance",
        "join.chain",
        "combined.unsupported",
        "attribute.limit",
    }
    assert emitted <= set(rules.issue_codes)


def test_core_is_pure():
    source = (Path(__file__).resolve().parents[2] / "listbuilder" / "systems" / "ancients_hex.py").read_text()
    for banned in ("flask", "yaml", "marshmallow"):
        assert f"import {banned}" not in source and f"from {banned}" not in source

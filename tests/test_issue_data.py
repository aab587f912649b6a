"""Every issue the validators emit carries ``data`` in a shape listbuilder/issue_data.py declares
for its code (issue 29): the OpenAPI document is built from those declarations, so an issue
whose figures drift from them would be an answer generated clients cannot parse.

The issues checked are those of every golden list (tests/golden) and of the fixture books'
lists that produce the codes no golden list does (an attached unit's chain, a tied upgrade past
its gear, a rule nothing defines); every declared shape must be seen among them."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from listbuilder import issue_data
from listbuilder.books.loader import load_book, load_registry
from listbuilder.lists.documents import parse_list, validate_list
from listbuilder.systems.rules import rules_for
from listbuilder.validation import Issue
from tests.conftest import BOOKS, GOLDEN
from tests.systems import test_ancients_hex as ahx
from tests.systems.test_opr_gear import FIXTURES, _gear_folder


def _fixture_lists(registry, tmp_path_factory) -> list[tuple[object, dict]]:
    """(registry, list) pairs for the codes no golden list produces."""
    drill = ahx.write_book(tmp_path_factory.mktemp("ahx"), ahx.DRILL_UNITS)
    book = load_book(drill, registry.systems[ahx.SYSTEM])
    with_drill = replace(registry, books={**registry.books, book.id: book})
    chain = ahx.spears(6) + [
        ahx.entry("leech", "leech", joined_to="spears-0"),
        ahx.entry("tag", "tagalong", joined_to="leech"),
    ]
    gear_folder = _gear_folder(
        tmp_path_factory.mktemp("gear"), "grimdark-future", (FIXTURES / "gear-book.yaml").read_text()
    )
    with_gear = load_registry([BOOKS, gear_folder])
    gear_book = with_gear.books["gear-book"]
    gear_units = [
        {"key": "a", "unit": "brawlers", "upgrades": [{"section": "pistol-mods", "option": "bayonet", "count": 3}] * 2},
        {"key": "r", "unit": "rider", "upgrades": [{"section": "gizmo", "option": "clockwork"}]},
    ]
    return [
        (with_drill, {"system": ahx.SYSTEM, "book": book.id, "units": chain}),
        (with_gear, {"system": gear_book.system, "book": gear_book.id, "force_org": False, "units": gear_units}),
    ]


@pytest.fixture(scope="module")
def emitted(registry, tmp_path_factory) -> list[Issue]:
    lists = [
        (registry, json.loads(path.read_text(encoding="utf-8"))["list"]) for path in sorted(GOLDEN.glob("*/*.json"))
    ]
    lists += _fixture_lists(registry, tmp_path_factory)
    return [issue for reg, army in lists for issue in validate_list(reg, parse_list(army)).issues]


def test_every_emitted_issue_sends_data_in_a_shape_declared_for_its_code(emitted):
    wrong = [(i.code, dict(i.data)) for i in emitted if i.data and issue_data.shape_of(i.code, i.data) is None]
    assert wrong == [], "data in no shape listbuilder/issue_data.py declares for its code"


def test_every_declared_shape_is_sent_by_every_code_it_names(emitted):
    seen = {(i.code, getattr(issue_data.shape_of(i.code, i.data), "name", None)) for i in emitted if i.data}
    declared = {(code, shape.name) for shape in issue_data.SHAPES for code in shape.codes}
    assert declared - seen == set()


def test_declared_codes_are_real_and_shapes_differ_in_their_keys(registry):
    known = {code for system in registry.systems.values() for code in rules_for(system).issue_codes}
    assert {code for shape in issue_data.SHAPES for code in shape.codes} <= known
    keys = [frozenset(shape.keys) for shape in issue_data.SHAPES]
    assert len(set(keys)) == len(keys)
    assert len({shape.name for shape in issue_data.SHAPES}) == len(keys)


@pytest.mark.parametrize(
    "data",
    [
        {"max": 2},
        {"max": 2, "count": 3, "extra": 1},
        {"max": 2, "count": "3"},
        {"max": True, "count": 3},
    ],
)
def test_data_missing_a_key_with_another_or_of_the_wrong_kind_matches_no_shape(data):
    assert issue_data.shape_of("force_org.heroes", data) is None
    assert issue_data.shape_of("force_org.heroes", {"max": 2, "count": 3}).name == "MaxCount"


def test_kinds_of_values():
    split = issue_data.shape_of("budget.split", {"points": 12, "declared": {"mp": 6, "xp": 5}})
    assert split is not None and split.name == "SplitDeclared"
    assert issue_data.shape_of("budget.split", {"points": 12, "declared": {"mp": "6"}}) is None
    assert issue_data.shape_of("spells.limited", {"spell": "fog", "limited_to": ["Druid"]}).name == "SpellLimited"
    assert issue_data.shape_of("spells.limited", {"spell": "fog", "limited_to": "Druid"}) is None
    assert issue_data.shape_of("join.self", {"target": "a"}) is None  # join.self sends no data

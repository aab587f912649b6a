"""Army Forge list import, on a list written for these tests against the Rustbound fixture book:
units, upgrade counts, a combined pair and a joined hero, and Army Forge's own points total."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path

import pytest

from listbuilder.importers import ImportFailed
from listbuilder.importers.army_forge_book import convert_book
from listbuilder.importers.army_forge_list import convert_list
from listbuilder.lists.documents import parse_list, validate_list

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "army_forge"


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text())


@pytest.fixture(scope="module")
def book(registry):
    return convert_book(fixture("gf-rustbound-book"), registry.systems).book


@pytest.fixture(scope="module")
def books(registry, book):
    return replace(registry, books={**registry.books, book.id: book})


def test_list_units_upgrades_pairs_and_heroes(book):
    converted = convert_list(fixture("gf-rustbound-list"), book)
    document = converted.document
    assert (
        document["system"],
        document["book"],
        document["name"],
        document["points_limit"],
        document["force_org"],
    ) == ("grimdark-future", book.id, "Scrapyard Patrol", 1000, True)
    units = {u["key"]: u for u in document["units"]}
    assert list(units) == ["sel-boss", "sel-salv-a", "sel-salv-b", "sel-walker", "sel-riders"]
    # Two Army Forge selections of one option are one row with count 2.
    assert units["sel-salv-a"]["upgrades"] == [
        {"section": "replace-any-scrap-rifles", "option": "spark-carbine", "count": 2},
        {"section": "replace-all-hand-tools", "option": "hand-tool", "count": 1},
    ]
    assert units["sel-salv-a"]["notes"] == "front rank"
    assert units["sel-salv-b"]["combined_with"] == "sel-salv-a" and "joined_to" not in units["sel-salv-b"]
    assert units["sel-boss"]["joined_to"] == "sel-salv-a"
    assert converted.notes == []


def test_imported_list_costs_what_army_forge_says(book, books):
    # Hand-priced: boss 60-5+25, pair 90+2*5+15 and 90+15, walker 140+2*15+20, riders 100+10.
    converted = convert_list(fixture("gf-rustbound-list"), book)
    report = validate_list(books, parse_list(converted.document))
    assert converted.army_forge_points == 600
    assert report.totals["pts"] == 600
    assert {k: v["cost"]["pts"] for k, v in report.entries.items()} == {
        "sel-boss": 80,
        "sel-salv-a": 115,
        "sel-salv-b": 105,
        "sel-walker": 190,
        "sel-riders": 110,
    }
    # 001 Force Organisation at 1000 pts, combined pair counted once, hero joined: legal; the
    # only issue is the warning for the rule nothing defines (none used here).
    assert report.valid and report.issues == ()
    assert (report.totals["units"], report.totals["activations"]) == (5, 3)


def test_list_object_without_its_save_wrapper(book):
    inner = fixture("gf-rustbound-list")["list"]
    converted = convert_list(inner, book)
    assert len(converted.document["units"]) == 5 and converted.army_forge_points is None


def test_campaign_extras_and_dangling_joins_are_noted(book):
    data = fixture("gf-rustbound-list")
    data["list"]["units"][4]["xp"] = 5
    data["list"]["units"][0]["joinToUnit"] = "sel-gone"
    converted = convert_list(data, book)
    assert "joined_to" not in converted.document["units"][0]
    assert any("campaign experience" in n for n in converted.notes)
    assert any("'sel-gone', which is not in the list" in n for n in converted.notes)


def _edit(data, path, value):
    target = data
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    "path, value, code, where, words",
    [
        (("list", "units", 2, "id"), "uNope", "unknown_reference", "list.units[2].id", "no Army Forge unit 'uNope'"),
        (
            ("list", "units", 0, "selectedUpgrades", 1, "optionId"),
            "o-nope",
            "unknown_reference",
            "list.units[0].selectedUpgrades[1]",
            "no Army Forge upgrade 's-boss-up' with option 'o-nope'",
        ),
        (
            ("list", "units", 3, "selectedUpgrades", 0, "upgradeId"),
            "s-any-rifles",
            "unknown_reference",
            "list.units[3].selectedUpgrades[0]",
            "offers this unit no",
        ),
        (
            ("list", "units", 1, "selectionId"),
            "sel-boss",
            "malformed",
            "list.units[1].selectionId",
            "selection id 'sel-boss' repeats",
        ),
        (("list", "gameSystem"), "aof", "book_mismatch", "list.gameSystem", "this age-of-fantasy list cannot use"),
        (("list", "gameSystem"), "gff", "unsupported_system", "list.gameSystem", "Grimdark Future: Firefight"),
        (("armyIds",), ["rustbound0000001", "otherbook"], "book_mismatch", "armyIds", "uses 2 army books"),
        (("list", "units"), [], "malformed", "list.units", "the list has no units"),
        (
            ("list", "units", 0, "selectedUpgrades"),
            {"a": 1},
            "malformed",
            "list.units[0].selectedUpgrades",
            "expected a list",
        ),
    ],
)
def test_malformed_list_names_the_source_path(book, path, value, code, where, words):
    data = _edit(copy.deepcopy(fixture("gf-rustbound-list")), path, value)
    with pytest.raises(ImportFailed) as caught:
        convert_list(data, book)
    assert (caught.value.code, caught.value.path) == (code, where)
    assert words in caught.value.message


def test_list_needs_a_book_imported_from_army_forge(registry):
    with pytest.raises(ImportFailed) as caught:
        convert_list(fixture("gf-rustbound-list"), registry.books["gf-cinder-covenant"])
    assert caught.value.code == "book_mismatch" and "was not imported from Army Forge" in caught.value.message

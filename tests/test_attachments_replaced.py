"""Army book upgrade sections: gear fixed to other gear (an attachment on a rifle) leaves with
that gear when a later row replaces it, with a warning; copies not tied to anything go first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from listbuilder.importers.army_forge_book import convert_book
from listbuilder.model import ChosenUpgrade, ListEntry
from listbuilder.resolve import resolve_entry

BOOK = Path(__file__).resolve().parent / "fixtures" / "army_forge" / "gf-rustbound-book.json"
NET = ChosenUpgrade("take-one-scrap-rifle-attachment", "under-slung-net")


@pytest.fixture(scope="module")
def book(registry):
    return convert_book(json.loads(BOOK.read_text()), registry.systems).book


def weapons(book, *upgrades):
    resolved, issues = resolve_entry(book, ListEntry(key="s", unit="salvagers", upgrades=tuple(upgrades)), 0)
    assert resolved is not None
    return {w.name: w.count for w in resolved.weapons}, issues


def test_army_book_upgrade_section_attachment_leaves_with_its_replaced_target(book):
    carbines = ChosenUpgrade("replace-any-scrap-rifles", "spark-carbine", 5)
    gear, issues = weapons(book, NET, carbines)
    assert "Under-Slung Net" not in gear and "Scrap Rifle" not in gear and gear["Spark Carbine"] == 5
    assert [(i.code, i.severity, i.path) for i in issues] == [
        ("upgrade.target_replaced", "warning", "units[0].upgrades[0]")
    ]


def test_army_book_upgrade_section_attachment_stays_while_a_target_copy_is_left(book):
    carbines = ChosenUpgrade("replace-any-scrap-rifles", "spark-carbine", 4)
    gear, issues = weapons(book, NET, carbines)
    assert gear["Under-Slung Net"] == 1 and gear["Scrap Rifle"] == 1 and gear["Spark Carbine"] == 4
    assert not issues


def test_army_book_upgrade_section_attachment_after_the_replacement_is_refused(book):
    carbines = ChosenUpgrade("replace-any-scrap-rifles", "spark-carbine", 5)
    _, issues = weapons(book, carbines, NET)
    assert [i.code for i in issues] == ["upgrade.target_exceeds"]

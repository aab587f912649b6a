"""Loading army books: every real book loads; broken files are refused with file, line and path."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from listbuilder.books.loader import load_registry
from listbuilder.books.registry import BookLoadError
from tests.conftest import BOOKS

GOOD_UNIT = """  - id: grunts
    name: Grunts
    size: 10
    cost: {pts: 100}
    quality: 4
    defense: 5
    weapons:
      - {name: Rifle, range: 24, attacks: 1}
"""


def make_folder(tmp_path: Path, book_text: str) -> Path:
    """A books folder with the real Grimdark Future system file and one test book."""
    folder = tmp_path / "books" / "grimdark-future"
    folder.mkdir(parents=True)
    shutil.copy(BOOKS / "grimdark-future" / "_system.yaml", folder / "_system.yaml")
    (folder / "test.yaml").write_text(book_text)
    return tmp_path / "books"


def book(units: str = GOOD_UNIT, extra: str = "") -> str:
    return (
        f"id: test\nsystem: grimdark-future\nname: T\nfaction: T\nversion: '1'\ndescription: d\n{extra}units:\n{units}"
    )


def problems(tmp_path, text):
    with pytest.raises(BookLoadError) as caught:
        load_registry(make_folder(tmp_path, text))
    return [str(p) for p in caught.value.problems]


def test_every_shipped_book_loads(registry):
    assert registry.systems, "no systems loaded"
    for system in registry.systems:
        assert len(registry.books_of(system)) >= 2, f"{system} needs two books"
        for b in registry.books_of(system):
            assert len(b.units) >= 10 or system == "armour-hex", f"{b.id} has {len(b.units)} units"


def test_minimal_book_loads(tmp_path):
    registry = load_registry(make_folder(tmp_path, book()))
    assert registry.books["test"].unit("grunts").weapons[0].count == 10


def test_bad_value_names_file_line_and_path(tmp_path):
    found = problems(tmp_path, book(GOOD_UNIT.replace("attacks: 1", "attacks: 0")))
    assert len(found) == 1
    assert found[0].endswith("test.yaml:15: units[0].weapons[0].attacks: not a positive integer")


def test_unknown_key_is_an_error(tmp_path):
    found = problems(tmp_path, book(GOOD_UNIT + "    colour: red\n"))
    assert found[0].endswith("test.yaml:16: units[0].colour: Unknown field.")


def test_broken_yaml_names_the_line(tmp_path):
    found = problems(tmp_path, book(GOOD_UNIT + "    rules: [Fearless\n"))
    assert "test.yaml:" in found[0] and "not valid YAML" in found[0]


def test_unknown_rule_is_refused(tmp_path):
    found = problems(tmp_path, book(GOOD_UNIT + "    rules: [Invisible Dance]\n"))
    assert found[0].endswith(
        "units[0].rules[0]: rule 'Invisible Dance' is neither in the grimdark-future glossary nor in the book's rules"
    )


def test_rule_parameter_must_match_glossary(tmp_path):
    found = problems(tmp_path, book(GOOD_UNIT + "    rules: [Tough]\n"))
    assert "needs its parameter (Tough(X))" in found[0]


def test_book_rules_extend_the_glossary(tmp_path):
    extra = "rules:\n  - {name: Drill, text: Our own rule.}\n"
    registry = load_registry(make_folder(tmp_path, book(GOOD_UNIT + "    rules: [Drill]\n", extra)))
    assert registry.books["test"].units[0].rules[0].name == "Drill"


def test_unknown_upgrade_section_is_refused(tmp_path):
    found = problems(tmp_path, book(GOOD_UNIT + "    upgrades: [missing]\n"))
    assert found[0].endswith("units[0].upgrades[0]: no upgrade section 'missing' in this book")


def test_every_problem_in_one_pass(tmp_path):
    bad = GOOD_UNIT.replace("size: 10", "size: -1").replace("quality: 4", "quality: 9")
    found = problems(tmp_path, book(bad))
    assert len(found) == 2
    assert any("units[0].size" in p for p in found) and any("units[0].quality" in p for p in found)


def test_yaml_is_read_safely(tmp_path):
    found = problems(tmp_path, "!!python/object/apply:os.system ['echo hacked']\n")
    assert "not valid YAML" in found[0]


def test_parsed_yaml_cache_is_keyed_by_content(tmp_path, monkeypatch):
    monkeypatch.setenv("LISTBUILDER_CACHE", str(tmp_path / "cache"))
    folder = make_folder(tmp_path, book())
    first = load_registry(folder)
    assert len(list((tmp_path / "cache").glob("*.json"))) == 2  # system file and book
    assert load_registry(folder).books["test"] == first.books["test"]
    # An edited file is parsed afresh, never served stale.
    (folder / "grimdark-future" / "test.yaml").write_text(book(GOOD_UNIT.replace("size: 10", "size: 5")))
    assert load_registry(folder).books["test"].units[0].size == 5


def test_cache_never_changes_data_json_cannot_hold(tmp_path, monkeypatch):
    from listbuilder.books.parsing import parse_yaml

    monkeypatch.setenv("LISTBUILDER_CACHE", str(tmp_path / "cache"))
    text = "table: {1: forest, 2: hill}\n"
    assert parse_yaml(text) == {"table": {1: "forest", 2: "hill"}}
    assert parse_yaml(text) == {"table": {1: "forest", 2: "hill"}}
    assert not list((tmp_path / "cache").glob("*.json"))


SECTIONED_UNIT = GOOD_UNIT + "    upgrades: [guns]\n"
GUNS = """upgrades:
  - id: guns
    label: Replace one Rifle
    variant: replace
    replaces: [Rifle]
    affects: one
    options:
      - {id: rifle2, label: Better Rifle, cost: {pts: 5}, GAIN}
"""


def test_unit_costs_must_name_a_unit_offered_the_section(tmp_path):
    text = book(
        GOOD_UNIT
        + "  - id: other\n    name: O\n    size: 1\n    cost: {pts: 5}\n    quality: 4\n    defense: 4\n"
        + "    upgrades: [guns]\n"
    )
    text = text.replace(
        "units:\n",
        GUNS.replace("GAIN", "unit_costs: {grunts: {pts: 9}}, gains: {weapons: [{name: Laser, attacks: 1}]}")
        + "units:\n",
    )
    found = problems(tmp_path, text)
    assert any("'grunts' is not offered section 'guns'" in p for p in found)


def test_one_weapon_name_means_one_profile(tmp_path):
    text = book(SECTIONED_UNIT).replace(
        "units:\n", GUNS.replace("GAIN", "gains: {weapons: [{name: Rifle, range: 24, attacks: 2}]}") + "units:\n"
    )
    found = problems(tmp_path, text)
    assert found[0].endswith(
        "units[0]: weapon 'Rifle' has two different profiles among 'grunts''s gear; give them different names"
    )


def test_a_book_loads_from_its_text_exactly_as_from_its_file(registry):
    """Saved lists re-load the book they were saved against from the text the store kept."""
    from listbuilder.books.loader import load_book_text, load_system_text

    book = registry.books["gf-cinder-covenant"]
    system = registry.systems[book.system]
    system_again = load_system_text(registry.texts[system.digest], source="system as saved")
    again = load_book_text(registry.texts[book.digest], system_again, source="book as saved")
    assert (again.digest, again.units, again.sections, again.rules) == (
        book.digest,
        book.units,
        book.sections,
        book.rules,
    )
    assert system_again.glossary == system.glossary and again.source == "book as saved"


def test_broken_book_text_names_its_source_and_line(registry):
    from listbuilder.books.loader import load_book_text

    system = registry.systems["grimdark-future"]
    with pytest.raises(BookLoadError) as caught:
        load_book_text("id: x\nunits: [\n", system, source="gf-x as saved")
    (problem,) = caught.value.problems
    assert problem.file == "gf-x as saved" and "not valid YAML" in problem.message and problem.line is not None

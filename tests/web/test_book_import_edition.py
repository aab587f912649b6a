"""Issue 26, edition: an Army Forge book is written for the 3.x rules, and the service checks
it under its own rulebook (Age of Fantasy 2.16 for AoF books). The import answer, the book's
JSON, the builder and the printed roster all say so, and which checks that changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from listbuilder.books.editions import edition_note
from listbuilder.importers.army_forge_book import convert_book

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "army_forge"


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text())


def test_aof_book_from_army_forge_is_checked_under_216_and_says_what_changes(registry):
    # 000 is Age of Fantasy v2.16; the export's versionString is 3.5.2
    converted = convert_book(fixture("aof-thornwick-book"), registry.systems)
    note = edition_note(converted.book, converted.system)
    assert note["checked_under"] == "Age of Fantasy 2.16"
    assert note["written_for"] == "Age of Fantasy 3.5.2 (Army Forge)" and note["other_edition"] is True
    assert "another edition" in note["summary"] and "2.16" in note["summary"]
    # the checks that change: no force organisation, single models combine, heroes join anything
    joined = " ".join(note["changes"])
    for words in ("No force organisation", "single models included", "Heroes may join any unit", "Command groups"):
        assert words in joined
    assert note["same"] == []


def test_gf_book_from_army_forge_is_the_same_edition_and_names_the_composition_rules_that_match(registry):
    converted = convert_book(fixture("gf-rustbound-book"), registry.systems)
    note = edition_note(converted.book, converted.system)
    assert note["other_edition"] is False and "the same edition" in note["summary"]
    same = " ".join(note["same"])
    assert "1 hero per 500 points" in same and "35%" in same and "Tough(6)" in same  # 001 Force Organisation, Hero


def test_projects_own_book_has_no_other_edition(registry):
    book = registry.books["aof-ember-marches"]
    note = edition_note(book, registry.systems[book.system])
    assert note == {
        "checked_under": "Age of Fantasy 2.16",
        "written_for": None,
        "other_edition": False,
        "summary": "Checked under Age of Fantasy 2.16.",
        "same": [],
        "changes": [],
    }


@pytest.fixture()
def aof_import(saved_client) -> dict:
    response = saved_client.post("/api/v1/books/import", json=fixture("aof-thornwick-book"))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_import_answer_and_book_json_carry_the_edition(saved_client, aof_import):
    assert aof_import["edition"]["other_edition"] is True
    assert aof_import["edition"]["checked_under"] == "Age of Fantasy 2.16"
    book = saved_client.get(f"/api/v1/books/{aof_import['id']}").get_json()
    assert book["edition"] == aof_import["edition"]
    assert book["units"] and book["name"] == "Thornwick Levy"  # the rest of the book as before
    own = saved_client.get("/api/v1/books/gf-cinder-covenant").get_json()
    assert own["edition"]["written_for"] is None and own["edition"]["checked_under"] == "Grimdark Future, third edition"


def test_builder_header_and_breadcrumb_name_the_rules(saved_client, aof_import):
    page = saved_client.get(f"/build/{aof_import['id']}").get_data(as_text=True)
    assert 'aria-label="Breadcrumb"><a href="/systems/age-of-fantasy">Age of Fantasy 2.16</a>' in page.replace("\n", "")
    assert 'id="edition-note"' in page and "Written for Age of Fantasy 3.5.2 (Army Forge), another edition" in page
    assert "No force organisation" in page
    own = saved_client.get("/build/aof-ember-marches").get_data(as_text=True)
    assert 'id="edition-note"' not in own


def test_printed_roster_says_which_rules_the_list_is_checked_under(saved_client, aof_import):
    book = saved_client.get(f"/api/v1/books/{aof_import['id']}").get_json()
    army = {
        "system": "age-of-fantasy",
        "book": aof_import["id"],
        "name": "Edition check",
        "units": [{"key": "a", "unit": book["units"][0]["id"]}],
    }
    html = saved_client.post("/api/v1/rosters/html", json=army)
    assert html.status_code == 200
    page = html.get_data(as_text=True)
    assert '<section class="banner edition">' in page and "checked under Age of Fantasy 2.16" in page
    assert "No force organisation" in page
    text = saved_client.post("/api/v1/rosters/text", json=army)
    assert text.status_code == 200
    assert (
        "!! Written for Age of Fantasy 3.5.2 (Army Forge), another edition; checked under Age of Fantasy 2.16."
        in text.get_data(as_text=True)
    )

"""``POST /api/v1/books/import``: an Army Forge book (our own fixture) stored in the database
under a new unlisted id, and that id used everywhere a book id is: GET /books/{id}, validate,
saved lists, rosters, previews, list import and the builder page. SQLite always, PostgreSQL
when TEST_DATABASE_URL is set (the ``saved_client`` fixture runs on both)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from sqlalchemy import func, select

from listbuilder.books import stored as imported
from listbuilder.store.tokens import is_book_id, new_book_id
from listbuilder.util.lru import Lru

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "army_forge"
ERROR_KEYS = {"code", "status", "message", "errors"}


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text())


@pytest.fixture()
def book_id(saved_client) -> str:
    response = saved_client.post("/api/v1/books/import", json=fixture("gf-rustbound-book"))
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def imported_count(db) -> int:
    from listbuilder.store.books import imported_books

    with db.reading() as conn:
        return conn.execute(select(func.count()).select_from(imported_books)).scalar_one()


def imported_list(client, book_id: str) -> dict:
    response = client.post("/api/v1/lists/import", json={"book": book_id, "list": fixture("gf-rustbound-list")})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["list"]


def test_import_answers_201_with_id_summary_and_flagged_rules(saved_client):
    response = saved_client.post("/api/v1/books/import", json=fixture("gf-rustbound-book"))
    assert response.status_code == 201
    body = response.get_json()
    assert re.fullmatch(r"af-[a-z2-7]{16}", body["id"]) and is_book_id(body["id"])
    assert response.headers["Location"] == body["url"] and body["url"].endswith(f"/api/v1/books/{body['id']}")
    assert body["builder_url"].endswith(f"/build/{body['id']}")
    assert body["book"] == {
        "id": body["id"],
        "system": "grimdark-future",
        "name": "Rustbound Salvagers",
        "faction": "Salvage Crews",
        "version": "3.5.2",
        "description": "Test crews who rebuild wrecks into weapons. Written for the importer tests.",
        "unit_count": 4,
    }
    # Limited is a core rule the export uses and defines nowhere: flagged, not refused.
    assert body["undefined_rules"] == ["Limited"]
    assert len(body["warnings"]) == 1 and "'Limited'" in body["warnings"][0]
    assert any("P-gone" in note for note in body["notes"])


def test_each_import_gets_a_new_random_id(saved_client):
    ids = {
        saved_client.post("/api/v1/books/import", json=fixture("gf-rustbound-book")).get_json()["id"] for _ in range(3)
    }
    assert len(ids) == 3


def test_new_book_ids_carry_80_random_bits():
    ids = {new_book_id() for _ in range(2000)}
    assert len(ids) == 2000 and all(is_book_id(i) for i in ids)
    assert not is_book_id("af-short") and not is_book_id("gf-rustbound-salvagers") and not is_book_id("af-" + "A" * 16)


def test_imported_book_reads_by_id_but_is_not_listed(saved_client, book_id):
    response = saved_client.get(f"/api/v1/books/{book_id}")
    assert response.status_code == 200
    book = response.get_json()
    assert book["id"] == book_id and book["undefined_rules"] == ["Limited"]
    assert [u["id"] for u in book["units"]] == ["scrap-boss", "salvagers", "junk-walker", "scrap-riders"]
    listed = (
        saved_client.get("/api/v1/books").get_json()
        + saved_client.get("/api/v1/books?system=grimdark-future").get_json()
    )
    assert book_id not in {b["id"] for b in listed}
    assert book_id not in saved_client.get("/api/v1/systems/grimdark-future").get_json()["books"]
    assert book_id not in saved_client.get("/").get_data(as_text=True)


def test_imported_book_validates_lists(saved_client, book_id):
    document = imported_list(saved_client, book_id)
    report = saved_client.post("/api/v1/lists/validate", json=document).get_json()
    assert report["valid"] and report["totals"]["pts"] == 600
    # Taking the weapon with Limited (defined nowhere) still validates, with a warning naming it.
    document["units"][1]["upgrades"].append(
        {"section": "take-one-scrap-rifle-attachment", "option": "under-slung-net", "count": 1}
    )
    report = saved_client.post("/api/v1/lists/validate", json=document).get_json()
    assert report["valid"], report["issues"]
    assert any("Limited" in issue["message"] and issue["severity"] == "warning" for issue in report["issues"])


def test_list_import_takes_the_imported_book_id(saved_client, book_id):
    response = saved_client.post("/api/v1/lists/import", json={"book": book_id, "list": fixture("gf-rustbound-list")})
    body = response.get_json()
    assert response.status_code == 200 and body["points_match"] and body["army_forge_points"] == 600
    assert body["list"]["book"] == book_id


def test_saved_lists_of_an_imported_book(saved_client, book_id):
    created = saved_client.post("/api/v1/lists", json=imported_list(saved_client, book_id))
    assert created.status_code == 201
    list_id = created.get_json()["id"]
    read = saved_client.get(f"/api/v1/lists/{list_id}").get_json()
    assert read["rules"]["book"] == book_id and read["rules"]["book_name"] == "Rustbound Salvagers"
    assert read["report"]["valid"] and not read["rules"]["changed"]
    text = saved_client.get(f"/api/v1/lists/{list_id}/roster.txt")
    assert text.status_code == 200 and "Scrap Boss" in text.get_data(as_text=True)
    page = saved_client.get(f"/l/{list_id}")
    assert page.status_code == 200 and "Rustbound Salvagers" in page.get_data(as_text=True)


def test_rosters_of_an_imported_book(saved_client, book_id):
    document = imported_list(saved_client, book_id)
    text = saved_client.post("/api/v1/rosters/text", json=document)
    assert text.status_code == 200 and "Scrap Boss" in text.get_data(as_text=True)
    pdf = saved_client.post("/api/v1/rosters/pdf", json=document)
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")


def test_previews_of_an_imported_book_name_its_unmodelled_rules(saved_client):
    """The book's own rules and rules it names but nothing defines are named as not modelled;
    Limited (defined nowhere too) changes no single attack, so it is simply not in play."""
    data = fixture("gf-rustbound-book")
    rifle = data["units"][1]["weapons"][0]
    assert rifle["name"] == "Scrap Rifle"
    rifle["specialRules"].append(
        {"type": "ArmyBookRule", "id": "r-gremlin", "name": "Gremlin Shot", "label": "Gremlin Shot"}
    )
    created = saved_client.post("/api/v1/books/import", json=data).get_json()
    assert created["undefined_rules"] == ["Gremlin Shot", "Limited"]
    book_id = created["id"]
    net = {"section": "take-one-scrap-rifle-attachment", "option": "under-slung-net"}
    body = {
        "system": "grimdark-future",
        "attacker": {"book": book_id, "unit": "salvagers", "upgrades": [net]},
        "defender": {"book": book_id, "unit": "junk-walker"},
        "situation": {"attack": "shooting", "range": 12},
    }
    response = saved_client.post("/api/v1/previews", json=body)
    assert response.status_code == 200, response.get_json()
    notes = response.get_json()["notes"]
    unmodelled = {note.split(":")[0] for note in notes if "not modelled" in note}
    assert unmodelled == {"Gremlin Shot", "Salvage Sense"}, notes
    # A list side of the imported book works too.
    document = imported_list(saved_client, book_id)
    response = saved_client.post(
        "/api/v1/previews",
        json={
            "system": "grimdark-future",
            "attacker": {"list": document, "key": "sel-walker"},
            "defender": {"book": book_id, "unit": "scrap-riders"},
            "situation": {"attack": "melee"},
        },
    )
    assert response.status_code == 200, response.get_json()


def test_builder_page_opens_an_imported_book(saved_client, book_id):
    page = saved_client.get(f"/build/{book_id}")
    assert page.status_code == 200 and "Rustbound Salvagers" in page.get_data(as_text=True)


def test_another_process_loads_the_stored_book(saved_app, saved_client, book_id, monkeypatch, registry, database_url):
    """A worker that did not import the book reads it from the database (its LRU empty)."""
    from listbuilder.web import create_app

    monkeypatch.setattr(imported, "LOADED", Lru(4))
    other_app = create_app({"TESTING": True, "REGISTRY": registry, "DATABASE_URL": database_url})
    other = other_app.test_client()
    try:
        response = other.get(f"/api/v1/books/{book_id}")
        assert response.status_code == 200 and response.get_json()["name"] == "Rustbound Salvagers"
        assert len(imported.LOADED._items) == 1
        report = other.post("/api/v1/lists/validate", json=imported_list(other, book_id)).get_json()
        assert report["valid"] and report["totals"]["pts"] == 600
    finally:
        other_app.extensions["listbuilder.database"].dispose()


@pytest.mark.parametrize(
    "path, body",
    [
        ("/api/v1/books/{id}", None),
        ("/api/v1/lists/validate", {"system": "grimdark-future", "book": "{id}", "units": []}),
        ("/api/v1/lists/import", {"book": "{id}", "list": {}}),
        ("/build/{id}", None),
    ],
)
def test_unknown_imported_ids_are_404(saved_client, path, body):
    missing = new_book_id()
    if body is None:
        response = saved_client.get(path.format(id=missing))
    else:
        response = saved_client.post(path, json=json.loads(json.dumps(body).replace("{id}", missing)))
    assert response.status_code == 404


@pytest.mark.parametrize(
    "mangle, field",
    [
        (lambda book: book.update(gameSystemSlug="grimdark-future-firefight"), "gameSystemSlug"),
        (lambda book: book["units"][1].update(cost="lots"), "units[1].cost"),
        (lambda book: book["units"][2].__setitem__("id", 7), "units[2].id"),
        (lambda book: book.pop("units"), "units"),
        (lambda book: book["units"][0].update(quality=9), "units[0].quality"),
        (
            lambda book: book["upgradePackages"][0]["sections"][0].update(variant="swap"),
            "upgradePackages[0].sections[0].variant",
        ),
        (lambda book: book.clear() or book.update(fixture("gf-rustbound-list")), "list"),
    ],
)
def test_bad_books_are_422_naming_the_path_and_store_nothing(saved_app, saved_client, mangle, field):
    from listbuilder.web.context import database

    with saved_app.app_context():
        db = database()
    before = imported_count(db)
    book = fixture("gf-rustbound-book")
    mangle(book)
    response = saved_client.post("/api/v1/books/import", json=book)
    body = response.get_json()
    assert response.status_code == 422 and set(body) == ERROR_KEYS
    assert field in body["errors"], body
    assert imported_count(db) == before


@pytest.mark.parametrize(
    "data, headers, status",
    [
        (b"{not json", {"Content-Type": "application/json"}, 400),
        (b"[1, 2]", {"Content-Type": "application/json"}, 422),
        (json.dumps(fixture("gf-rustbound-book")).encode(), {"Content-Type": "text/plain"}, 415),
        (b'{"units": [' + b'{"id": "x"},' * 110_000 + b"{}]}", {"Content-Type": "application/json"}, 413),
    ],
)
def test_unreadable_bodies_are_4xx(saved_client, data, headers, status):
    response = saved_client.post("/api/v1/books/import", data=data, headers=headers)
    assert response.status_code == status and set(response.get_json()) == ERROR_KEYS

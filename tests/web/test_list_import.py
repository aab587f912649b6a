"""``POST /api/v1/lists/import``: an Army Forge list (our own fixture) for a book imported from
Army Forge, answered with our list document and its report, or a 422 naming the place."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from listbuilder.importers.army_forge_book import convert_book

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "army_forge"


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text())


@pytest.fixture(scope="module")
def import_client(registry):
    from listbuilder.web import create_app

    book = convert_book(fixture("gf-rustbound-book"), registry.systems).book
    app = create_app({"TESTING": True, "REGISTRY": replace(registry, books={**registry.books, book.id: book})})
    return app.test_client()


def test_import_list_answers_our_document_and_report(import_client):
    response = import_client.post(
        "/api/v1/lists/import", json={"book": "gf-rustbound-salvagers", "list": fixture("gf-rustbound-list")}
    )
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert (body["army_forge_points"], body["points_match"], body["notes"]) == (600, True, [])
    assert body["report"]["valid"] and body["report"]["totals"]["pts"] == 600
    document = body["list"]
    assert document["book"] == "gf-rustbound-salvagers" and document["points_limit"] == 1000
    assert [u["key"] for u in document["units"]] == ["sel-boss", "sel-salv-a", "sel-salv-b", "sel-walker", "sel-riders"]
    assert document["units"][2]["combined_with"] == "sel-salv-a" and document["units"][0]["joined_to"] == "sel-salv-a"
    # The document is what /lists/validate takes: validating it gives the same report.
    again = import_client.post("/api/v1/lists/validate", json=document).get_json()
    assert again["totals"] == body["report"]["totals"]


def test_import_list_names_the_place_in_the_body(import_client):
    data = fixture("gf-rustbound-list")
    data["list"]["units"][2]["id"] = "uNope"
    response = import_client.post("/api/v1/lists/import", json={"book": "gf-rustbound-salvagers", "list": data})
    assert response.status_code == 422
    body = response.get_json()
    assert body["code"] == 422 and list(body["errors"]) == ["list.list.units[2].id"]


@pytest.mark.parametrize(
    "payload, field, status",
    [
        ({"book": "gf-nope", "list": {}}, "book", 404),  # an id that names nothing: 404, like every unknown id
        ({"book": "gf-cinder-covenant", "list": fixture("gf-rustbound-list")}, "book", 422),
        ({"book": "gf-rustbound-salvagers"}, "list", 422),
        ({"book": "gf-rustbound-salvagers", "list": []}, "list", 422),
    ],
)
def test_import_list_bad_requests_are_4xx(import_client, payload, field, status):
    response = import_client.post("/api/v1/lists/import", json=payload)
    assert response.status_code == status
    assert field in response.get_json()["errors"]

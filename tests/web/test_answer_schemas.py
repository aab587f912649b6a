"""Every answer keeps the schema its OpenAPI entry declares (issue 38): the ajv check that
tests/conftest.py runs on every JSON answer of every test, shown to catch what it should, and
driven over every book, system and golden list the service ships."""

from __future__ import annotations

import json

import pytest

from tests.answer_schemas import Answer, ajv_installed, document_key, violations
from tests.conftest import GOLDEN


@pytest.fixture(scope="module")
def document(app):
    key = document_key(app.test_client().get("/api/v1/openapi.json").get_json())
    return lambda answer_app: key


def test_the_checker_is_ajv_where_make_contract_installed_it():
    assert ajv_installed(), "tests/contract/node_modules is missing: run make contract"


def test_an_answer_breaking_its_schema_is_reported_with_where_and_why(app, client, document):
    book = client.get("/api/v1/books/ahx-fjordhold").get_json()
    unit = book["units"][0]
    broken = [
        Answer(app, "/api/v1/health", "get", 200, {"status": "ok"}),
        Answer(app, "/api/v1/books/{book_id}", "get", 200, {**book, "units": [{**unit, "move_first": 3}]}),
        Answer(app, "/api/v1/books/{book_id}", "get", 404, {"code": 404, "status": "Not Found"}),
    ]
    found = violations(broken, document)
    assert any(line.startswith("GET /api/v1/health 200") and "books" in line for line in found), found
    assert any("/units/0" in line and "move_first" in line for line in found), found
    assert any(line.startswith("GET /api/v1/books/{book_id} 404") and "message" in line for line in found), found
    assert violations([Answer(app, "/api/v1/books/{book_id}", "get", 200, book)], document) == []


def test_every_book_and_system_answer_keeps_its_schema(client):
    """The hook checks each answer; this drives all of them (ancients-hex units once sent
    move_first and move_total, which UnitOut did not declare)."""
    for summary in client.get("/api/v1/books").get_json():
        response = client.get(f"/api/v1/books/{summary['id']}")
        assert response.status_code == 200
        assert "move_first" not in response.get_json()["units"][0]  # derived: in stats only
    for system in client.get("/api/v1/systems").get_json():
        assert client.get(f"/api/v1/systems/{system['id']}").status_code == 200


def test_every_golden_list_validates_into_an_answer_that_keeps_its_schema(client):
    lists = sorted(GOLDEN.glob("*/*.json"))
    assert len(lists) > 50
    for path in lists:
        response = client.post("/api/v1/lists/validate?profiles=true", json=json.loads(path.read_text())["list"])
        assert response.status_code == 200, path

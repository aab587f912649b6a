"""The REST API through Flask's test client: shapes, codes, and the one error shape."""

from __future__ import annotations

import json

import pytest

from tests.conftest import GOLDEN

ERROR_KEYS = {"code", "status", "message", "errors"}


def a_golden(system: str, valid: bool) -> dict:
    for path in sorted(GOLDEN.glob(f"{system}/*.json")):
        case = json.loads(path.read_text())
        if case["valid"] is valid:
            return case
    pytest.skip(f"no golden list for {system}")


def test_list_systems(client, registry):
    response = client.get("/api/v1/systems")
    assert response.status_code == 200
    assert {s["id"] for s in response.json} == set(registry.systems)


@pytest.mark.parametrize("system", ["grimdark-future", "age-of-fantasy-regiments"])
def test_system_shows_force_org_limits_and_codes(client, system):
    body = client.get(f"/api/v1/systems/{system}").json
    assert body["limits"]["force_org_available"] is True
    assert "force_org.heroes" in body["issue_codes"]
    assert body["glossary"] and all(r["text"] for r in body["glossary"])


def test_gf_system_shows_worked_example(client):
    body = client.get("/api/v1/systems/grimdark-future").json
    assert body["limits"]["force_org_examples"]["2000"] == {"heroes": 4, "copies": 3, "unit_points": 700, "units": 10}


def test_aof_system_says_it_has_no_force_org(client):
    body = client.get("/api/v1/systems/age-of-fantasy").json
    assert body["composition"]["force_org"] is None
    assert body["limits"]["force_org_available"] is False


def test_books_by_system(client, registry):
    for system in registry.systems:
        body = client.get(f"/api/v1/books?system={system}").json
        assert {b["id"] for b in body} == {b.id for b in registry.books_of(system)}


def test_book_shows_units_with_stats_costs_and_sections(client, registry):
    book = registry.books_of("grimdark-future")[0]
    body = client.get(f"/api/v1/books/{book.id}").json
    unit = body["units"][0]
    assert {"id", "name", "size", "cost", "quality", "defense", "rules", "weapons", "upgrades"} <= set(unit)
    assert set(unit["cost"]) == {"pts"}
    section = body["upgrades"][0]
    assert {"id", "label", "variant", "affects", "pick", "options"} <= set(section)
    assert {"id", "label", "cost", "gains"} <= set(section["options"][0])


@pytest.mark.parametrize(
    "url", ["/api/v1/systems/nope", "/api/v1/books/nope", "/api/v1/books?system=nope", "/api/v1/nothing"]
)
def test_unknown_ids_are_404_in_the_error_shape(client, url):
    response = client.get(url)
    assert response.status_code == 404
    assert set(response.json) == ERROR_KEYS


@pytest.mark.parametrize("system", ["age-of-fantasy", "grimdark-future", "age-of-fantasy-regiments"])
def test_validate_legal_golden_list(client, system):
    case = a_golden(system, True)
    response = client.post("/api/v1/lists/validate", json=case["list"])
    assert response.status_code == 200
    assert response.json["valid"] is True
    assert {"pts", "units", "models"} <= set(response.json["totals"])


@pytest.mark.parametrize("system", ["age-of-fantasy", "grimdark-future", "age-of-fantasy-regiments"])
def test_validate_illegal_golden_list_reports_every_issue(client, system):
    case = a_golden(system, False)
    body = client.post("/api/v1/lists/validate", json=case["list"]).json
    assert body["valid"] is False
    assert sorted(i["code"] for i in body["issues"]) == sorted(case["codes"])
    for issue in body["issues"]:
        assert {"code", "severity", "message", "path", "clause"} <= set(issue)


def test_malformed_json_is_400_naming_the_position(client):
    response = client.post("/api/v1/lists/validate", data='{"system": ', content_type="application/json")
    assert response.status_code == 400
    assert set(response.json) == ERROR_KEYS
    assert "line 1 column" in response.json["errors"]["(body)"][0]


def test_wrong_types_are_422_naming_the_field(client):
    body = {
        "system": "grimdark-future",
        "book": "x",
        "points_limit": "lots",
        "units": [{"key": "a", "unit": 3, "upgrades": [{"section": "s", "option": "o", "count": 0}]}],
    }
    response = client.post("/api/v1/lists/validate", json=body)
    assert response.status_code == 422
    assert set(response.json["errors"]) == {"points_limit", "units[0].unit", "units[0].upgrades[0].count"}


def test_missing_fields_and_unknown_keys_are_422(client):
    response = client.post("/api/v1/lists/validate", json={"book": "x", "units": [], "colour": "red"})
    assert response.status_code == 422
    assert set(response.json["errors"]) == {"system", "colour"}


def test_duplicate_entry_keys_are_422(client):
    body = {"system": "grimdark-future", "book": "x", "units": [{"key": "a", "unit": "u"}, {"key": "a", "unit": "u"}]}
    response = client.post("/api/v1/lists/validate", json=body)
    assert response.status_code == 422
    assert "units[1].key" in response.json["errors"]


def test_unknown_book_or_system_is_404_naming_the_field(client, registry):
    response = client.post("/api/v1/lists/validate", json={"system": "grimdark-future", "book": "nope", "units": []})
    assert response.status_code == 404 and "book" in response.json["errors"]
    response = client.post("/api/v1/lists/validate", json={"system": "chess", "book": "nope", "units": []})
    assert response.status_code == 404 and "system" in response.json["errors"]
    other = registry.books_of("age-of-fantasy")[0].id
    response = client.post("/api/v1/lists/validate", json={"system": "grimdark-future", "book": other, "units": []})
    assert response.status_code == 404 and "book" in response.json["errors"]


def test_body_over_the_size_limit_is_413(client):
    response = client.post("/api/v1/lists/validate", data="x" * (1024 * 1024 + 1), content_type="application/json")
    assert response.status_code == 413
    assert set(response.json) == ERROR_KEYS


def test_body_that_is_not_an_object_is_422(client):
    response = client.post("/api/v1/lists/validate", json=[1, 2])
    assert response.status_code == 422


def test_openapi_document_and_offline_docs(client):
    spec = client.get("/api/v1/openapi.json").json
    assert "/api/v1/lists/validate" in spec["paths"]
    assert "ArmyList" in spec["components"]["schemas"]
    page = client.get("/api/v1/docs").get_data(as_text=True)
    assert "/api/v1/docs-assets/swagger-ui-bundle.js" in page and "//cdn" not in page
    asset = client.get("/api/v1/docs-assets/swagger-ui-bundle.js")
    assert asset.status_code == 200
    asset.close()


def test_reports_are_sent_in_their_schema_shape(client, registry):
    """The validate view sends ``as_dict()`` without a marshmallow dump: dumping must change nothing."""
    from listbuilder.lists.documents import parse_list, validate_list
    from listbuilder.shapes.api import ReportOut

    for path in sorted(GOLDEN.glob("*/*.json")):
        army = json.loads(path.read_text())["list"]
        report = validate_list(registry, parse_list(army)).as_dict()
        assert ReportOut().dump(report) == report, path.name
        assert client.post("/api/v1/lists/validate", json=army).get_json() == json.loads(json.dumps(report)), path.name


def test_validate_with_profiles_gives_each_entry_its_gear_after_upgrades(client):
    army = {
        "system": "grimdark-future",
        "book": "gf-cinder-covenant",
        "points_limit": 1000,
        "units": [
            {
                "key": "a",
                "unit": "cc-ash-wardens",
                "upgrades": [
                    {"section": "cc-rifle-specials", "option": "flamer", "count": 2},
                    {"section": "cc-squad-leader", "option": "veteran"},
                    {"section": "cc-squad-leader", "option": "flare-beacon"},
                ],
            },
            {"key": "x", "unit": "no-such-unit"},
        ],
    }
    body = client.post("/api/v1/lists/validate?profiles=true", json=army).json
    profile = body["entries"]["a"]["profile"]
    weapons = {w["name"]: w for w in profile["weapons"]}
    assert weapons["Ash Rifle"]["count"] == 8 and weapons["Flamer"]["count"] == 2  # two rifles replaced
    assert weapons["Flamer"]["rules"] == ["Blast(3)"]
    assert [i["name"] for i in profile["items"]] == ["Flare Beacon"]
    assert "Pyre Oath" in profile["rules"] and profile["models"] == 10
    assert "x" not in body["entries"]  # an unknown unit has no price and no profile
    # Without the flag the answer stays as small as before.
    assert "profile" not in client.post("/api/v1/lists/validate", json=army).json["entries"]["a"]


def test_validate_profiles_flag_must_be_a_boolean(client):
    army = {"system": "grimdark-future", "book": "gf-cinder-covenant", "units": []}
    response = client.post("/api/v1/lists/validate?profiles=maybe", json=army)
    assert response.status_code == 422
    assert set(response.json) == ERROR_KEYS and "query.profiles" in response.json["errors"]


def test_validate_without_a_query_answers_as_with_the_default_spelled_out(client):
    """No query string skips reading one (listbuilder.web.http.rest): the answer, byte for byte and
    header for header, is the one the schema's default gives."""
    for path in sorted(GOLDEN.glob("*/*.json")):
        army = json.loads(path.read_text())["list"]
        bare = client.post("/api/v1/lists/validate", json=army)
        spelled = client.post("/api/v1/lists/validate?profiles=false", json=army)
        assert bare.status_code == spelled.status_code == 200, path.name
        assert bare.get_data() == spelled.get_data(), path.name
        assert sorted(bare.headers.items()) == sorted(spelled.headers.items()), path.name


def test_empty_query_is_remembered_only_when_it_loads_plain_defaults():
    from marshmallow import fields

    from listbuilder.formats.fields import Schema
    from listbuilder.web.http.rest import _empty_query

    class Needs(Schema):
        version = fields.Integer(required=True)

    class Listy(Schema):
        tags = fields.List(fields.String(), load_default=list)

    class Plain(Schema):
        flag = fields.Boolean(load_default=False)
        name = fields.String()

    assert _empty_query(Needs(), {}) is None  # an error every time: each request reads its query
    assert _empty_query(Listy(), {}) is None  # a fresh list each time: not shared
    assert _empty_query(Plain(), {}) == {"flag": False}


def test_a_well_formed_list_body_is_read_by_the_fast_reader_alone(client, registry, monkeypatch):
    """The validate body goes from bytes to the list in C (listbuilder.formats.fast_reader):
    the Python JSON reader and the schema only see what the fast reader leaves to them."""
    from listbuilder.web import bodies

    book = registry.books_of("grimdark-future")[0]
    army = {"system": "grimdark-future", "book": book.id, "units": [{"key": "a", "unit": book.units[0].id}]}
    read_slowly = []
    slow_reader = bodies.load_json_body
    monkeypatch.setattr(bodies, "load_json_body", lambda data: read_slowly.append(data) or slow_reader(data))
    assert client.post("/api/v1/lists/validate", json=army).status_code == 200
    assert read_slowly == []
    answer = client.post(
        "/api/v1/lists/validate", json={**army, "units": [{"key": "a", "unit": book.units[0].id, "name": 5}]}
    )
    assert answer.status_code == 422 and answer.get_json()["errors"] == {"units[0].name": ["Not a valid string."]}
    assert len(read_slowly) == 1

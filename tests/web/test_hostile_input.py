"""Hostile bodies and methods get a 4xx in the one error shape, naming the field or position."""

from __future__ import annotations

import json

import pytest

from listbuilder.web.http.bodies import MAX_DEPTH

ERROR_KEYS = {"code", "status", "message", "errors"}
LIST = {"system": "grimdark-future", "book": "gf-cinder-covenant", "units": [{"key": "a", "unit": "cc-ash-wardens"}]}
BODY_PATHS = [
    "/api/v1/lists/validate",
    "/api/v1/rosters/text",
    "/api/v1/rosters/html",
    "/api/v1/rosters/pdf",
    "/api/v1/previews",
]


def post(client, path: str, data: str | bytes, content_type: str = "application/json"):
    response = client.post(path, data=data, content_type=content_type)
    assert set(response.get_json()) == ERROR_KEYS
    return response


@pytest.mark.parametrize("path", BODY_PATHS)
def test_deep_nesting_is_422_not_a_recursion_error(client, path):
    response = post(client, path, "[" * 100_000 + "]" * 100_000)
    assert response.status_code == 422
    assert response.get_json()["errors"] == {"(body)": [f"nested deeper than {MAX_DEPTH} levels"]}


def test_nesting_just_past_the_limit_names_the_field(client):
    deep = json.dumps({**LIST, "name": 0}).replace("0}", "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}")
    response = post(client, "/api/v1/lists/validate", deep)
    assert response.status_code == 422
    (where,) = response.get_json()["errors"]
    assert where.startswith("name[0]")


@pytest.mark.parametrize("path", BODY_PATHS)
def test_lone_surrogate_is_422_naming_the_field(client, path):
    body = json.dumps({**LIST, "name": "Host \ud800"})  # json.dumps writes the escape \ud800
    response = post(client, path, body)
    assert response.status_code == 422
    assert response.get_json()["errors"] == {"name": ["a lone surrogate \\ud800 at character 5 is not text"]}


def test_surrogate_pairs_are_text(client):
    body = json.dumps({**LIST, "name": "Host \U0001f525"})  # written as \ud83d\udd25, a valid pair
    assert client.post("/api/v1/rosters/text", data=body, content_type="application/json").status_code == 200


def test_surrogate_in_a_key_names_the_entry(client):
    body = json.dumps({**LIST, "units": [{"key": "\udc00", "unit": "cc-ash-wardens"}]})
    response = post(client, "/api/v1/lists/validate", body)
    assert response.get_json()["errors"] == {"units[0].key": ["a lone surrogate \\udc00 at character 0 is not text"]}


def test_bytes_that_are_not_utf8_are_400_naming_the_byte(client):
    response = post(client, "/api/v1/lists/validate", b'{"system": "\xff"}')
    assert response.status_code == 400
    assert response.get_json()["errors"]["(body)"] == ["not UTF-8 text: byte 12 (0xff) starts no UTF-8 character"]


@pytest.mark.parametrize(
    "number, where",
    [
        ("9" * 5000, "line 1 column 18"),
        ("1e999", "line 1 column 18"),
        ("NaN", "line 1 column 18"),
        ("-Infinity", "line 1 column 18"),
    ],
)
def test_numbers_json_cannot_carry_are_400_with_the_position(client, number, where):
    response = post(client, "/api/v1/lists/validate", '{"points_limit": ' + number + ', "system": "x"}')
    assert response.status_code == 400
    assert where in response.get_json()["errors"]["(body)"][0]


def test_big_but_readable_numbers_are_422_naming_the_field(client):
    response = post(client, "/api/v1/lists/validate", json.dumps({**LIST, "points_limit": 10**4000}))
    assert response.status_code == 422 and "points_limit" in response.get_json()["errors"]


def test_syntax_errors_give_line_and_column(client):
    response = post(client, "/api/v1/lists/validate", '{\n  "system": "x",\n  "book" "y"\n}')
    assert response.status_code == 400
    assert response.get_json()["errors"]["(body)"] == ["not valid JSON: Expecting ':' delimiter at line 3 column 10"]


def test_whole_numbers_written_with_a_point_are_whole(client):
    report = client.post("/api/v1/lists/validate", json={**LIST, "points_limit": 1000.0}).get_json()
    assert report["totals"]["limit"] == {"pts": 1000}
    response = post(client, "/api/v1/lists/validate", json.dumps({**LIST, "points_limit": 1000.5}))
    assert response.status_code == 422 and "points_limit" in response.get_json()["errors"]


def test_a_body_sent_as_something_else_than_json_is_415(client):
    response = post(client, "/api/v1/lists/validate", "system=x", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415
    assert "application/json" in response.get_json()["message"]


@pytest.mark.parametrize("method", ["get", "put", "delete", "patch"])
def test_wrong_method_is_405_with_allow(client, method):
    response = getattr(client, method)("/api/v1/lists/validate")
    assert response.status_code == 405 and set(response.get_json()) == ERROR_KEYS
    assert set(response.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}


def test_unknown_api_path_is_json_404_and_unknown_page_is_html(client):
    api = client.get("/api/v1/nothing-here")
    assert api.status_code == 404 and set(api.get_json()) == ERROR_KEYS
    page = client.get("/nothing-here")
    assert page.status_code == 404 and page.mimetype == "text/html"
    assert "/nothing-here" in page.get_data(as_text=True)


def test_a_list_holds_a_bounded_number_of_upgrade_rows(client):
    from listbuilder.formats.lists import MAX_LIST_UPGRADES

    row = {"section": "s", "option": "o"}
    per_entry = 100
    units = [
        {"key": f"k{i}", "unit": "cc-ash-wardens", "upgrades": [row] * per_entry}
        for i in range(MAX_LIST_UPGRADES // per_entry + 1)
    ]
    response = post(client, "/api/v1/lists/validate", json.dumps({**LIST, "units": units}))
    assert response.status_code == 422
    assert response.get_json()["errors"]["units"] == [
        f"{len(units) * per_entry} upgrade rows in all; a list holds at most {MAX_LIST_UPGRADES}"
    ]
    units.pop()
    assert client.post("/api/v1/lists/validate", json={**LIST, "units": units}).status_code == 200

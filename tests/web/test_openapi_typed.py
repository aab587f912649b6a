"""No place of the OpenAPI document is untyped unless its content is truly free-form (issue 38):
a schema with no type, an object with no properties and open additional properties, or an
array of anything gives a generated client ``unknown`` where the server sends a fixed shape.
Once 90 places; 8 now, each allow-listed here as free-form with the reason."""

from __future__ import annotations

import pytest

COMBINERS = ("oneOf", "anyOf", "allOf")

# Free-form by nature: another tool's files, read by the importer, and the keys a book file
# carries beyond the shared shape, sent as the book has them.
FREE_FORM = {
    "#/components/schemas/ArmyForgeBookIn": "Army Forge's own book file, read by the importer as Army Forge writes it",
    "#/components/schemas/ArmyForgeUnitIn": "a unit of Army Forge's own book file",
    "#/components/schemas/ListImportIn/properties/list": "Army Forge's own list file",
    "#/components/schemas/BatchIn/properties/lists/items": "anything: a batch answers 200 with each item's error in its"
    " place (an ArmyList is what validates; schemathesis holds the document to what the server accepts)",
    "#/components/schemas/BookOut/properties/extra": "the book file's own keys beyond the shared shape",
    "#/components/schemas/SpellOut/properties/extra": "the book file's own keys of a spell",
    "#/components/schemas/WeaponOut/properties/extra": "a family's own weapon keys, as the book file has them",
    "#/components/schemas/ItemOut/properties/extra": "a family's own item keys, as the book file has them",
}


def untyped_places(spec):
    """JSON pointers (or "METHOD path ...") of every untyped place in *spec*."""
    found = []

    def walk(node, where):
        if not isinstance(node, dict) or "$ref" in node or "enum" in node or "const" in node:
            return
        if any(key in node for key in COMBINERS):
            for key in COMBINERS:
                for i, part in enumerate(node.get(key, [])):
                    walk(part, f"{where}/{key}/{i}")
            return
        kinds = node.get("type")
        if kinds is None:
            found.append(where)
            return
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if "object" in kinds:
            extra = node.get("additionalProperties", True)
            if extra is True or extra == {}:
                found.append(where)
            elif isinstance(extra, dict):
                walk(extra, f"{where}/additionalProperties")
            for key, part in node.get("properties", {}).items():
                walk(part, f"{where}/properties/{key}")
        if "array" in kinds:
            items = node.get("items")
            if not items and not node.get("prefixItems"):
                found.append(where)
            elif items:
                walk(items, f"{where}/items")
            for i, part in enumerate(node.get("prefixItems", [])):
                walk(part, f"{where}/prefixItems/{i}")

    for name, schema in spec["components"]["schemas"].items():
        walk(schema, f"#/components/schemas/{name}")
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                walk(parameter.get("schema"), f"{method.upper()} {path} {parameter['name']}")
            for kind, content in operation.get("requestBody", {}).get("content", {}).items():
                if kind.endswith("json"):
                    walk(content["schema"], f"{method.upper()} {path} body")
            for status, response in operation["responses"].items():
                for kind, content in response.get("content", {}).items():
                    if kind.endswith("json"):
                        walk(content["schema"], f"{method.upper()} {path} {status}")
    return found


@pytest.fixture(scope="module")
def spec(app):
    return app.test_client().get("/api/v1/openapi.json").get_json()


def test_every_allow_listed_place_is_still_free_form(spec):
    untyped = set(untyped_places(spec))
    assert set(FREE_FORM) <= untyped, "typed since: take it off FREE_FORM"


def test_no_fixed_shape_is_left_untyped(spec):
    assert set(untyped_places(spec)) - set(FREE_FORM) == set()


def test_the_counter_finds_what_it_should():
    spec = {
        "paths": {},
        "components": {
            "schemas": {
                "A": {"type": "object", "properties": {"x": {}, "y": {"type": "object"}, "z": {"type": "array"}}},
                "B": {"type": "object", "additionalProperties": {"type": "integer"}},
                "C": {"type": "array", "prefixItems": [{"type": "string"}], "minItems": 1},
            }
        },
    }
    assert untyped_places(spec) == [
        "#/components/schemas/A",
        "#/components/schemas/A/properties/x",
        "#/components/schemas/A/properties/y",
        "#/components/schemas/A/properties/z",
    ]


def test_system_ids_are_enums_and_what_a_schema_cannot_say_is_a_named_422(spec, client, registry):
    """issue 36's schemathesis finds: the document accepted what the server refuses with 422."""
    schemas, systems = spec["components"]["schemas"], sorted(registry.systems)
    for name, key in (("ArmyList", "system"), ("EventIn", "system"), ("BookSummaryOut", "system")):
        assert schemas[name]["properties"][key]["enum"] == systems, name
    assert schemas["EventIn"]["properties"]["deadline"]["format"] == "date-time"
    for path, method in (
        ("/api/v1/lists/validate", "post"),
        ("/api/v1/lists", "post"),
        ("/api/v1/rosters/pdf", "post"),
    ):
        assert "two units sharing a key" in spec["paths"][path][method]["responses"]["422"]["description"], path
    assert "situation.defender.shaken" in spec["paths"]["/api/v1/previews"]["post"]["responses"]["422"]["description"]
    twice = {
        "system": "grimdark-future",
        "book": "gf-cinder-covenant",
        "units": [{"key": "a", "unit": "cc-ash-wardens"}] * 2,
    }
    refused = client.post("/api/v1/lists/validate", json=twice)
    assert refused.status_code == 422 and "units[1].key" in refused.json["errors"]


def test_a_mappings_keys_are_declared_as_the_server_checks_them(spec):
    """issue 39's tables: keys the server refuses (a table name's key that is not a table
    number, a fixed table's blank player) are outside the document too, so a schema-driven
    client (schemathesis) never sends one (apispec declares no key's rules; web/http/openapi.py
    adds ``propertyNames`` from the key field's)."""
    for name in ("EventIn", "EventEditIn"):
        properties = spec["components"]["schemas"][name]["properties"]
        assert properties["table_names"]["propertyNames"] == {"pattern": r"^[1-9][0-9]{0,3}$"}, name
        players = properties["fixed_tables"]["propertyNames"]
        assert (players["minLength"], players["maxLength"]) == (1, 100) and "pattern" in players, name

"""The hex families' preview situations are read by marshmallow schemas (issue 29): every key
the engines read, with its default and limits, refused by name when wrong, and the same schema
in the OpenAPI document."""

from __future__ import annotations

from dataclasses import fields as dataclass_fields

import pytest

from listbuilder.combat import ancients_hex, armour_hex
from listbuilder.combat.service import PreviewError
from listbuilder.shapes.hex_situations import AncientsHexSituationSchema, ArmourHexSituationSchema
from listbuilder.shapes.preview_requests import load_request

SCHEMAS = [(AncientsHexSituationSchema, ancients_hex.Situation), (ArmourHexSituationSchema, armour_hex.Situation)]


@pytest.mark.parametrize(("schema", "situation"), SCHEMAS)
def test_the_schema_reads_every_key_the_engine_does_with_the_engines_defaults(schema, situation):
    attack = "melee" if schema is AncientsHexSituationSchema else "assault"
    loaded = schema().load({"attack": attack})
    assert list(loaded) == [f.name for f in dataclass_fields(situation)]
    assert situation(**loaded) == situation(attack=attack)


@pytest.mark.parametrize(
    ("system", "unit", "situation", "field"),
    [
        ("ancients-hex", ("ahx-fjordhold", "jarl"), {}, "situation.attack"),
        ("ancients-hex", ("ahx-fjordhold", "jarl"), {"attack": "melee", "surprise": True}, "situation.surprise"),
        ("ancients-hex", ("ahx-fjordhold", "jarl"), {"attack": "throwing"}, "situation.attack"),
        (
            "ancients-hex",
            ("ahx-fjordhold", "jarl"),
            {"attack": "melee", "attacker_support": 7},
            "situation.attacker_support",
        ),
        (
            "ancients-hex",
            ("ahx-fjordhold", "jarl"),
            {"attack": "melee", "retreat_blocked": True},
            "situation.retreat_blocked",
        ),
        ("ancients-hex", ("ahx-fjordhold", "jarl"), {"attack": "melee", "charging": "yes"}, "situation.charging"),
        ("ancients-hex", ("ahx-fjordhold", "jarl"), {"attack": "melee", "terror": None}, "situation.terror"),
        (
            "armour-hex",
            ("ah-hammerdeep-holds", None),
            {"attack": "shooting", "attacker_speed": "warp"},
            "situation.attacker_speed",
        ),
        (
            "armour-hex",
            ("ah-hammerdeep-holds", None),
            {"attack": "assault", "to_hit_modifier": 11},
            "situation.to_hit_modifier",
        ),
        ("armour-hex", ("ah-hammerdeep-holds", None), {"attack": "assault", "facing": "left"}, "situation.facing"),
        ("armour-hex", ("ah-hammerdeep-holds", None), {"attack": "shooting", "weapon": 3}, "situation.weapon"),
        ("armour-hex", ("ah-hammerdeep-holds", None), {"attack": "shooting", "aim": 1}, "situation.aim"),
    ],
)
def test_a_wrong_situation_is_refused_naming_the_key(registry, system, unit, situation, field):
    book, unit_id = unit
    unit_id = unit_id or registry.books[book].units[0].id
    side = {"book": book, "unit": unit_id}
    with pytest.raises(PreviewError) as refused:
        load_request(registry, {"system": system, "attacker": side, "defender": side, "situation": situation})
    assert field in refused.value.errors and refused.value.status == 422


def test_null_stands_for_the_default_only_where_the_default_is_null(registry):
    side = {"book": "ahx-fjordhold", "unit": "jarl"}
    loaded = load_request(
        registry,
        {
            "system": "ancients-hex",
            "attacker": side,
            "defender": side,
            "situation": {"attack": "melee", "defender_stands": None, "critical_hit": False, "range": None},
        },
    )
    assert loaded["situation"]["defender_stands"] is None and loaded["situation"]["critical_hit"] is False


def test_the_document_states_each_systems_situation_and_that_it_is_required(client):
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    request = schemas["PreviewRequest"]
    assert request["discriminator"]["propertyName"] == "system"
    mapping = request["discriminator"]["mapping"]
    assert mapping["grimdark-future"] == mapping["age-of-fantasy"] == "#/components/schemas/PreviewRequestOpr"
    assert mapping["ancients-hex"] == "#/components/schemas/PreviewRequestAncientsHex"
    assert mapping["armour-hex"] == "#/components/schemas/PreviewRequestArmourHex"
    for name, situation in [
        ("PreviewRequestOpr", "OprSituation"),
        ("PreviewRequestAncientsHex", "AncientsHexSituation"),
        ("PreviewRequestArmourHex", "ArmourHexSituation"),
        ("TurnRequestOpr", "OprTurnSituation"),
    ]:
        shape = schemas[name]
        assert {"system", "attacker", "defender", "situation"} <= set(shape["required"])
        assert shape["properties"]["situation"] == {"$ref": f"#/components/schemas/{situation}"}
    assert schemas["OprSituation"]["required"] == ["attack"]  # a 422 without it
    assert schemas["AncientsHexSituation"]["required"] == ["attack"]
    assert schemas["AncientsHexSituation"]["additionalProperties"] is False
    assert schemas["ArmourHexSituation"]["properties"]["attack"]["enum"] == ["shooting", "assault"]
    assert schemas["ArmourHexSituation"]["properties"]["facing"]["enum"] == list(armour_hex.FACINGS)
    assert schemas["PreviewRequestAncientsHex"]["properties"]["system"]["enum"] == ["ancients-hex"]

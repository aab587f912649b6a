"""Answers whose shape depends on the rules family are declared one variant per family
(issue 38): a client narrows a preview on its ``system`` (a system on its ``family``) and
reads that family's keys with their types. Where one family alone gives an answer (a whole
turn, a loadout comparison), the answer is that family's shape itself, not a union of one:
there is nothing to narrow, and generated clients keep its name (``TurnOut``)."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from tests.web.test_openapi_typed import untyped_places

SIDES = {
    "grimdark-future": (
        {"book": "gf-cinder-covenant", "unit": "cc-ash-wardens"},
        {"book": "gf-spore-choir", "unit": "sc-spore-drones"},
    ),
    "ancients-hex": ({"book": "ahx-fjordhold", "unit": "jarl"}, {"book": "ahx-thalassan-league", "unit": "hoplites"}),
    "armour-hex": (
        {"book": "ah-hammerdeep-holds", "unit": "anvil-tank"},
        {"book": "ah-sylvan-concord", "unit": "starlance-tank"},
    ),
}
ATTACKS = {
    "grimdark-future": ({"attack": "shooting", "range": 12}, {"attack": "melee", "charging": True}),
    "ancients-hex": ({"attack": "melee"}, {"attack": "melee", "defender_action": "fight_back"}),
    "armour-hex": ({"attack": "shooting", "range": 4}, {"attack": "assault"}),
}


@pytest.fixture(scope="module")
def spec(app):
    return app.test_client().get("/api/v1/openapi.json").get_json()


def component(spec, name):
    return spec["components"]["schemas"][name]


def valid(spec, name, answer):
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": spec["components"]}).is_valid(
        answer
    )


def test_a_preview_is_one_variant_per_family_discriminated_by_system(spec, registry):
    preview = component(spec, "PreviewOut")
    mapping = preview["discriminator"]["mapping"]
    assert preview["discriminator"]["propertyName"] == "system" and set(mapping) == set(registry.systems)
    assert sorted(v["$ref"] for v in preview["oneOf"]) == sorted(set(mapping.values()))
    for family in ("Opr", "AncientsHex", "ArmourHex"):
        variant = component(spec, f"PreviewOut{family}")
        systems = [s for s, ref in mapping.items() if ref.endswith(f"/PreviewOut{family}")]
        assert variant["properties"]["system"]["enum"] == sorted(systems)
        for key in ("situation", "expected", "distributions", "consequences"):
            assert key in variant["required"]
            assert not untyped_places({"paths": {}, "components": {"schemas": {"x": variant["properties"][key]}}})


def test_a_turn_and_a_comparison_are_the_one_familys_shape_not_a_union_of_one(spec):
    for name in ("TurnOut", "CompareOut"):
        declared = component(spec, name)
        assert "oneOf" not in declared and declared["type"] == "object", name
        assert declared["properties"]["situation"]["$ref"].startswith("#/components/schemas/Opr"), name
    assert component(spec, "TurnOut")["properties"]["steps"]["$ref"] == "#/components/schemas/OprTurnStepsOut"


def test_a_system_is_one_variant_per_family_discriminated_by_family(spec, client, registry):
    detail = component(spec, "SystemDetailOut")
    assert detail["discriminator"]["propertyName"] == "family"
    assert set(detail["discriminator"]["mapping"]) == {s.family for s in registry.systems.values()}
    mapping = {family: ref.rsplit("/", 1)[1] for family, ref in detail["discriminator"]["mapping"].items()}
    for system in registry.systems.values():
        answer = client.get(f"/api/v1/systems/{system.id}").get_json()
        assert valid(spec, mapping[system.family], answer), system.id
        for family, other in mapping.items():  # another family's composition and limits do not fit
            if family != system.family:
                assert not valid(spec, other, {**answer, "family": family}), (system.id, other)


@pytest.mark.parametrize("system", sorted(SIDES))
def test_each_familys_answers_fit_its_variant_and_no_other(spec, client, system):
    attacker, defender = SIDES[system]
    mapping = component(spec, "PreviewOut")["discriminator"]["mapping"]
    own = mapping[system].rsplit("/", 1)[1]
    for situation in ATTACKS[system]:
        answer = client.post(
            "/api/v1/previews",
            json={"system": system, "attacker": attacker, "defender": defender, "situation": situation},
        )
        assert answer.status_code == 200, answer.get_json()
        body = answer.get_json()
        assert valid(spec, own, body), situation
        for other in {ref.rsplit("/", 1)[1] for ref in mapping.values()} - {own}:
            assert not valid(spec, other, body), (situation, other)
        broken = {**body, "consequences": {**body["consequences"], "unheard_of": 1}}
        assert not valid(spec, own, broken), situation

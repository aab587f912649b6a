"""The builder's preview form is its family's situation schema (issue 34): what
``GET /api/v1/systems/<id>`` serves as ``preview`` for every registered family says what the
schema that reads ``POST /api/v1/previews`` takes, and nothing else knows about the family."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from marshmallow import fields, missing, validate

from listbuilder.families import FAMILIES, register, unregister
from listbuilder.shapes.previews import schema_of
from listbuilder.shapes.situation_forms import preview_form

KINDS = {"checkbox": fields.Boolean, "number": fields.Integer, "select": fields.String, "text": fields.String}


def served(client, registry):
    """(family record, system, its served preview) for one system of every registered family."""
    systems = {}
    for system in registry.systems.values():
        systems.setdefault(system.family, system)
    assert set(systems) == set(FAMILIES)  # every family has a system to serve it
    for family_id, system in sorted(systems.items()):
        answer = client.get(f"/api/v1/systems/{system.id}")
        assert answer.status_code == 200, answer.json
        yield FAMILIES[family_id], system, answer.json["preview"]


def load_default(field):
    value = field.load_default
    return None if value is missing else (value() if callable(value) else value)


def validator(field, kind):
    return next((v for v in field.validators if isinstance(v, kind)), None)


def starting_situation(form, attack):
    """What the page sends for *attack* before the player changes anything."""
    out = {}
    for i in form["inputs"]:
        if i["when"] in (None, attack) and i["initial"] is not None:
            out[i["name"]] = i["initial"]
    return out


def test_every_familys_form_is_its_situation_schema(client, registry):
    for family, system, form in served(client, registry):
        schema_cls = family.part("situation_schema")
        schema = schema_of(schema_cls)
        assert form["available"] is True and form["counts_wounds"] is family.counts_wounds, family.id
        names = [i["name"] for i in form["inputs"]]
        # Every field of the schema appears, as an input or as a key left to the JSON box.
        assert len(set(names)) == len(names) and not set(names) & set(form["other_keys"])
        assert set(names) | set(form["other_keys"]) == set(schema.fields), family.id
        # In the order the schema declares them, or the one it gives.
        assert names == list(getattr(schema_cls, "FORM_ORDER", None) or [n for n in schema.fields if n in names])
        for i in form["inputs"]:
            field, where = schema.fields[i["name"]], f"{family.id} {i['name']}"
            assert i["default"] == load_default(field), where
            assert isinstance(field, KINDS[i["kind"]]) and field.metadata.get("form", True), where
            assert (i["label"], i["when"]) == (field.metadata["label"], field.metadata.get("when")), where
        for name in form["other_keys"]:
            assert not schema.fields[name].metadata.get("label"), f"{family.id} {name}: labelled, not in the form"
            bounds = validator(field, validate.Range)
            if i["kind"] == "number":
                assert bounds.min <= i["min"] <= i["max"] <= bounds.max, where
                assert i["initial"] is None or i["min"] <= i["initial"] <= i["max"], where
            if i["kind"] == "select":
                words = [c["value"] for c in i["choices"]]
                assert words and i["initial"] in words and all(c["label"] for c in i["choices"]), where
                one_of = validator(field, validate.OneOf)
                assert one_of or i["choices_from"], where
                if one_of:
                    assert set(words) <= set(one_of.choices), where
                if i["choices_from"]:
                    assert words[0] == i["default"] and len(words) == len(system.composition[i["choices_from"]])
            else:
                assert i["choices"] == [] and i["choices_from"] is None, where
        attack = next(i for i in form["inputs"] if i["name"] == form["attack_input"])
        kinds = [c["value"] for c in attack["choices"]]
        assert all(i["when"] in (None, *kinds) for i in form["inputs"]), family.id
        for kind in kinds:  # the form as it starts is a situation the schema takes
            schema.load(starting_situation(form, kind))
        assert bool(form["comparisons"]) is family.counts_wounds
        for c in form["comparisons"]:
            assert c["attack"] in kinds and all(isinstance(schema.fields[f], fields.Boolean) for f in c["flags"])
            schema.load({form["attack_input"]: c["attack"], **dict.fromkeys(c["flags"], True)})


def test_the_forms_keep_what_the_page_showed(client):
    """The labels, starting values and ranges the builder's own table had before issue 34."""
    opr = client.get("/api/v1/systems/grimdark-future").json["preview"]
    shown = [(i["name"], i["label"], i["initial"], i["when"]) for i in opr["inputs"]]
    assert shown[:4] == [
        ("attack", "Attack", "shooting", None),
        ("range", "Range (inches)", 12, "shooting"),
        ("hold", "Attacker held still", True, "shooting"),
        ("charging", "Attacker charged", True, "melee"),
    ]
    assert opr["comparisons"] == [
        {"label": "Charge (melee)", "attack": "melee", "flags": ["charging"]},
        {"label": "Shooting", "attack": "shooting", "flags": []},
    ]
    ancients = {i["name"]: i for i in client.get("/api/v1/systems/ancients-hex").json["preview"]["inputs"]}
    assert (ancients["range"]["min"], ancients["range"]["max"], ancients["range"]["initial"]) == (2, 100, 2)
    assert [c["label"] for c in ancients["attack"]["choices"]] == ["Close combat", "Missile fire"]
    armour = {i["name"]: i for i in client.get("/api/v1/systems/armour-hex").json["preview"]["inputs"]}
    assert armour["defender_terrain"]["choices"][0] == {"value": "clear", "label": "Clear"}
    assert armour["weapon"]["kind"] == "text" and armour["weapon"]["max_length"] == 100
    assert armour["facing"]["choices"][1] == {"value": "front_side", "label": "Front side"}


def test_a_family_without_an_engine_has_no_previews_and_an_empty_form():
    quiet = register(FAMILIES["opr"].variant(id="test-no-engine", engine=None, situation_schema=None))
    bare = register(FAMILIES["opr"].variant(id="test-no-situation", situation_schema=None))
    try:
        form = preview_form(SimpleNamespace(family=quiet.id, composition={}))
        assert form == {
            "available": False,
            "counts_wounds": False,
            "attack_input": None,
            "inputs": [],
            "other_keys": [],
            "comparisons": [],
        }
        form = preview_form(SimpleNamespace(family=bare.id, composition={}))
        assert form["available"] is True and form["inputs"] == [] and form["attack_input"] is None
        assert preview_form(SimpleNamespace(family="nobody-registered-this", composition={}))["available"] is False
    finally:
        unregister(quiet.id)
        unregister(bare.id)


def test_an_order_that_is_not_the_forms_inputs_is_refused():
    schema_cls = FAMILIES["opr"].part("situation_schema")
    for order in (("attack", "attacker"), schema_cls.FORM_ORDER[:-1], (*schema_cls.FORM_ORDER, "facing")):
        broken = type("BrokenSituationSchema", (schema_cls,), {"FORM_ORDER": order})
        family = register(FAMILIES["opr"].variant(id="test-broken-form", situation_schema=broken))
        try:
            with pytest.raises(ValueError, match="FORM_ORDER"):
                preview_form(SimpleNamespace(family=family.id, composition={}))
        finally:
            unregister(family.id)


def test_a_system_says_how_its_stats_read(client):
    """``stat_formats``: the family's sheet's formats of one stat each, so the builder writes
    "Quality 4+" without knowing which family writes it so."""
    assert client.get("/api/v1/systems/grimdark-future").json["stat_formats"] == {
        "quality": "{value}+",
        "defense": "{value}+",
    }
    # "{value} @ {missile_range} hex" combines two stats, "{value}" changes nothing: neither is sent.
    assert client.get("/api/v1/systems/ancients-hex").json["stat_formats"] == {}
    assert client.get("/api/v1/systems/armour-hex").json["stat_formats"] == {}

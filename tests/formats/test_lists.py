"""The list format: the fast path of FastNested never accepts what the schema refuses."""

from __future__ import annotations

import copy
import json

import pytest
from marshmallow import ValidationError

from listbuilder.formats.lists import ArmyListSchema, ChosenUpgradeSchema, ListEntrySchema
from tests.conftest import GOLDEN

ENTRY = {
    "key": "a",
    "unit": "u",
    "name": "Bob",
    "notes": "",
    "upgrades": [{"section": "s", "option": "o", "count": 2}],
    "combined_with": None,
    "joined_to": "b",
    "spells": ["x"],
}
BAD_VALUES = [None, True, False, 0, -1, 1001, 1.5, "", "x" * 3000, [], {}, "2", ["x"], {"a": 1}]


def mutations(base: dict):
    """The base value, plus every key set to every awkward value, dropped, or an extra key."""
    yield base
    for key in base:
        for bad in BAD_VALUES:
            yield {**base, key: bad}
        yield {k: v for k, v in base.items() if k != key}
    yield {**base, "surprise": 1}
    yield "not an object"


def full_load(schema_cls, value):
    """The schema alone, with the fast path stepped around."""
    schema = schema_cls()
    return super(ArmyListSchema, schema).load(value) if schema_cls is ArmyListSchema else schema.load(value)


def agree(schema_cls, value):
    """Both fast paths (parsed data, JSON bytes) read *value* as the schema does, or leave it
    to the schema; the bytes path takes what the data path takes."""
    fast = schema_cls.fast(copy.deepcopy(value))
    from_bytes = schema_cls.fast_json(json.dumps(value).encode())
    try:
        full = full_load(schema_cls, copy.deepcopy(value))
    except ValidationError:
        full = None
    if fast is not None:
        assert full == fast, f"fast path accepted {value!r} differently"
    assert from_bytes == fast, f"the JSON bytes {value!r} were read differently"
    return fast, full


@pytest.mark.parametrize("value", list(mutations(ENTRY)), ids=repr)
def test_fast_entry_path_never_more_lenient(value):
    agree(ListEntrySchema, value)


# the last: an unknown key in place of count (the fast path counts keys rather than naming them)
@pytest.mark.parametrize(
    "value",
    list(mutations({"section": "s", "option": "o", "count": 3})) + [{"section": "s", "option": "o", "surprise": 1}],
    ids=repr,
)
def test_fast_upgrade_path_never_more_lenient(value):
    agree(ChosenUpgradeSchema, value)


LIST = {
    "system": "s",
    "book": "b",
    "name": "n",
    "points_limit": 500,
    "force_org": True,
    "game_mode": "standard",
    "units": [ENTRY, {**ENTRY, "key": "b"}],
}


@pytest.mark.parametrize("value", list(mutations(LIST)) + [{**LIST, "units": [ENTRY, ENTRY]}], ids=repr)
def test_fast_list_path_never_more_lenient(value):
    agree(ArmyListSchema, value)


def test_fast_path_takes_every_golden_list():
    for path in GOLDEN.glob("*/*.json"):
        army = json.loads(path.read_text())["list"]
        fast, full = agree(ArmyListSchema, army)
        assert fast is not None and fast == full, path.name


def test_fast_path_takes_every_golden_entry():
    """Well-formed lists never need the slow path (that is what makes validation fast)."""
    for path in GOLDEN.glob("*/*.json"):
        for entry in json.loads(path.read_text())["list"]["units"]:
            fast, full = agree(ListEntrySchema, entry)
            assert fast is not None and fast == full, f"{path.name}: {entry}"


def test_list_entry_constructor_takes_the_dataclass_fields_with_their_defaults():
    """ListEntry writes its own __init__ (one dict update instead of a setattr per field):
    it must take every field, in order, with the field's default, and nothing else."""
    import dataclasses
    import inspect

    from listbuilder.model import ListEntry

    params = list(inspect.signature(ListEntry.__init__).parameters.values())[1:]
    fields = dataclasses.fields(ListEntry)
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields):
        if f.default is not dataclasses.MISSING:
            assert p.default == f.default, f.name
        elif f.default_factory is not dataclasses.MISSING:
            assert (
                ListEntry("k", "u").extra == f.default_factory()
                and ListEntry("k", "u").extra is not ListEntry("k", "u").extra
            )
        else:
            assert p.default is inspect.Parameter.empty, f.name
    entry = ListEntry("k", "u", upgrades=(), spells=("s",))
    assert (
        vars(entry) == {f.name: getattr(entry, f.name) for f in fields}
        and dataclasses.replace(entry, name="n").name == "n"
    )


def full_from_bytes(data: bytes):
    """What the API makes of a body without the fast path: its JSON reader, then the schema."""
    from listbuilder.web.http.bodies import BodyError, load_json_body

    try:
        return full_load(ArmyListSchema, load_json_body(data))
    except (BodyError, ValidationError):
        return None


GOOD = json.dumps(LIST).encode()


@pytest.mark.parametrize(
    "data",
    [
        GOOD.replace(b'"n"', b'"\\ud800"'),  # a lone surrogate escape
        GOOD.replace(b'"n"', b'"\\ud83d\\ude00"'),  # a surrogate pair: an emoji, fine
        GOOD.replace(b'"n"', b'"\xff"'),  # not UTF-8
        GOOD.replace(b'"count": 2', b'"count": 2.0'),  # a whole number written as a float
        GOOD.replace(b'"count": 2', b'"count": NaN'),
        GOOD.replace(b'"count": 2', b'"count": 1e999'),
        GOOD.replace(b'"count": 2', b'"count": ' + b"9" * 30),
        GOOD.replace(b'"name": "n"', b'"name": "n", "name": "m"'),  # a repeated key: the last one counts
        GOOD + b" x",  # something after the JSON
        b"\xef\xbb\xbf" + GOOD,  # a byte-order mark
        b" " + GOOD + b"\n",
        b"",
        b"[" * 5000 + b"]" * 5000,
    ],
    ids=repr,
)
def test_fast_json_path_never_more_lenient_than_the_body_reader_and_schema(data):
    fast = ArmyListSchema.fast_json(data)
    if fast is not None:
        assert fast == full_from_bytes(data)


def test_fast_reader_refuses_to_mirror_what_it_cannot():
    """A field kind, validator or hook the derivation does not know fails loudly when the
    reader is built, instead of being skipped (which would let the fast path accept more)."""
    from marshmallow import fields, post_load, pre_load, validate

    from listbuilder.formats.fast_reader import Reader
    from listbuilder.formats.fields import StrictSchema

    class OneOf(StrictSchema):
        kind = fields.String(required=True, validate=validate.OneOf(["a", "b"]))

    class Email(StrictSchema):
        address = fields.Email(required=True)

    class Hooked(StrictSchema):
        name = fields.String(required=True)

        @pre_load
        def tidy(self, data, **_):
            return data

    class WithOriginal(StrictSchema):
        name = fields.String(required=True)

        @post_load(pass_original=True)
        def make(self, data, original, **_):
            return data

    for schema in (OneOf, Email, Hooked, WithOriginal):
        with pytest.raises(TypeError):
            Reader(schema)

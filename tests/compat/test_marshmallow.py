"""marshmallow still asks ``listbuilder.compat.marshmallow.HookTableMeta`` for a schema class's
table of decorated methods, and the table is the one marshmallow itself would make."""

from __future__ import annotations

import importlib
import pkgutil

import marshmallow
from marshmallow import fields, post_dump, pre_load, validates, validates_schema
from marshmallow.schema import SchemaMeta

import listbuilder
from listbuilder.compat.marshmallow import HookTableMeta
from listbuilder.formats.fields import Schema


def _marshmallows_table(cls: type) -> dict:
    return _table(SchemaMeta.resolve_hooks(cls))


def _table(hooks: dict) -> dict:
    """The tags that have hooks (loading and dumping add empty lists to the defaultdict)."""
    return {tag: entries for tag, entries in hooks.items() if entries}


def _every_subclass(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_every_subclass(sub)]
    return found


def test_making_a_schema_class_asks_our_hook(monkeypatch):
    asked = []
    ours = HookTableMeta.resolve_hooks
    monkeypatch.setattr(HookTableMeta, "resolve_hooks", lambda cls: asked.append(cls) or ours(cls))

    class Watched(Schema):
        name = fields.String()

    assert asked == [Watched]


def test_a_hook_declared_in_a_schema_is_run_by_load_and_dump():
    class Shouting(Schema):
        name = fields.String()

        @pre_load
        def strip(self, data, **_):
            return {"name": data["name"].strip()}

        @post_dump
        def shout(self, data, **_):
            return {"name": data["name"].upper()}

    assert Shouting().load({"name": "  ann "}) == {"name": "ann"}
    assert Shouting().dump({"name": "bob"}) == {"name": "BOB"}


def test_an_override_without_the_decorator_drops_the_hook_as_marshmallow_does():
    class Base(Schema):
        value = fields.Integer()

        @validates("value")
        def positive(self, value, **_):
            if value < 0:
                raise marshmallow.ValidationError("negative")

        @validates_schema
        def whole(self, data, **_):
            pass

    class Child(Base):
        def positive(self, value, **_):  # no longer a validator
            pass

    assert _table(HookTableMeta.resolve_hooks(Child)) == _marshmallows_table(Child)
    assert Child().load({"value": -1}) == {"value": -1}
    assert Base().validate({"value": -1}) == {"value": ["negative"]}


def test_marshmallows_own_classes_carry_no_hook():
    # HookTableMeta skips what only marshmallow.Schema and its bases define
    assert not any(_marshmallows_table(marshmallow.Schema).values())


def test_every_schema_class_of_ours_has_the_table_marshmallow_would_make():
    for module in pkgutil.walk_packages(listbuilder.__path__, "listbuilder."):
        if not module.name.endswith("__main__"):  # the command line runs when imported
            importlib.import_module(module.name)
    classes = [cls for cls in _every_subclass(Schema) if cls.__module__.startswith("listbuilder.")]
    assert len(classes) > 100
    assert sum(1 for cls in classes if _table(cls._hooks)) > 10  # some do have hooks
    for cls in classes:
        assert _table(cls._hooks) == _marshmallows_table(cls), cls.__qualname__

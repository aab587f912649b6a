"""What the OpenAPI document says beyond one marshmallow schema per payload, through apispec's
public plugin hooks: names every operation must have, unions, and requests whose shape depends
on the game system named in them.

- :class:`ContractPlugin`: every operation has a unique ``operationId`` (generated clients name
  their functions after it, so a path change does not rename them).
- an answer's schema (:class:`~listbuilder.formats.fields.OutSchema`) lists every key it always
  sends as required, and a :class:`~listbuilder.formats.fields.Described` value (sent as the
  core built it) is documented by the schema that names its keys.
- :class:`UnionPlugin`: a :class:`~listbuilder.shapes.previews.OneOfSchemas` field is a
  ``oneOf`` of named components (``SideBook``, ``SideList``, ``SideProfile``); a
  :class:`~listbuilder.shapes.previews.ProfileField` is the ``Profile`` component, one of the
  families' unit shapes; and a request schema with ``SITUATION_PART`` (the family record's part
  that reads its situation) is a ``oneOf`` of one shape per family that has one, discriminated
  by ``system``, each requiring its family's situation (``PreviewRequestOpr``:
  ``situation.attack`` required, ...); ``FAMILY_FLAG`` names a record flag a family needs too.
- answers whose shape depends on the family (``FAMILY_ANSWER``: previews, a system) are one
  variant per family with a discriminator (``openapi_families``); a union of closed shapes
  (``VARIANTS``: issues, log entries) maps its ``DISCRIMINATOR`` (``kind``) when it has one.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from apispec import APISpec, BasePlugin
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.ext.marshmallow.common import resolve_schema_cls
from marshmallow import Schema, fields, missing, validate

from listbuilder.families import FAMILIES
from listbuilder.formats.fields import Computed, Described, OutSchema
from listbuilder.shapes.api import UnitStat, UnitStats
from listbuilder.shapes.preview_requests import profile_schema
from listbuilder.shapes.previews import OneOfSchemas, ProfileField
from listbuilder.web.http.openapi_families import family_title, family_variants, fields_of

SystemsByFamily = Callable[[], Mapping[str, list[str]]]


class ContractPlugin(BasePlugin):
    """Refuses to document an operation without an ``operationId``, or with one already used;
    an operation that names no token says so (``security: []``: public)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: dict[str, str] = {}

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        for method, operation in (operations or {}).items():
            name = operation.get("operationId")
            where = f"{method.upper()} {path}"
            if not name:
                raise ValueError(f"{where} has no operationId: add @blp.doc(operationId=...)")
            if self.seen.setdefault(name, where) != where:
                raise ValueError(f"operationId {name!r} of {where} is already {self.seen[name]}'s")
            operation.setdefault("security", [])


class RateLimitPlugin(BasePlugin):
    """Documents the 429 every rate-limited operation may answer (``web.http.quotas``): all but
    ``/health``, which a load balancer's checks must always reach."""

    UNLIMITED = frozenset({"/api/v1/health"})

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        if path in self.UNLIMITED:
            return
        for operation in (operations or {}).values():
            operation.setdefault("responses", {}).setdefault(
                "429",
                {
                    "description": "too many requests from this client (LISTBUILDER_RATE_LIMIT and the other quotas): try again after Retry-After seconds",
                    "headers": {
                        "Retry-After": {"description": "seconds until the limit resets", "schema": {"type": "integer"}}
                    },
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
                },
            )


class UnionPlugin(BasePlugin):
    """Unions as named components; *systems_by_family* gives each rules family's system ids
    (read when the document is built, from the books loaded)."""

    def __init__(self, systems_by_family: SystemsByFamily) -> None:
        super().__init__()
        self.systems_by_family = systems_by_family
        self.converter: Any = None

    def init_spec(self, spec: APISpec) -> None:
        super().init_spec(spec)
        self.spec = spec
        marshmallow_plugin = next(p for p in spec.plugins if isinstance(p, MarshmallowPlugin))
        self.converter = marshmallow_plugin.converter
        plugin = self

        def union2properties(converter: Any, field: fields.Field, ret: dict[str, Any], **_: Any) -> dict[str, Any]:
            return plugin.union_property(field, ret)

        self.converter.add_attribute_function(union2properties)

    def union_property(self, field: fields.Field, ret: dict[str, Any]) -> dict[str, Any]:
        """A OneOfSchemas, ProfileField or Described property, or a field of ours that declares
        its own schema (``OPENAPI``)."""
        if getattr(field, "OPENAPI", None) is not None:
            return _declared_property(field, ret)
        if isinstance(field, fields.Dict) and field.key_field is not None:  # apispec declares no key's rules
            key = self.converter.field2property(field.key_field)
            names = {k: v for k, v in key.items() if k in ("minLength", "maxLength", "pattern")}
            if names:
                return {"propertyNames": names}
        if field.metadata.get("system_id"):  # one of the systems the service has loaded
            systems = sorted(system for ids in self.systems_by_family().values() for system in ids)
            return {"enum": systems} if systems else {}
        if isinstance(field, fields.Nested) and isinstance(field.root, OutSchema):
            lazy = callable(field.nested) and not isinstance(field.nested, type)  # a lambda: left as it is
            nested = None if lazy else resolve_schema_cls(field.nested)
            if isinstance(nested, type) and not issubclass(nested, OutSchema):  # a request's shape, answered
                for key in ("$ref", "anyOf", "allOf", "default"):
                    ret.pop(key, None)
                ref = self.converter.resolve_nested_schema(answer_shape(nested))
                return {"anyOf": [ref, {"type": "null"}]} if field.allow_none else ref
        if isinstance(field, Described):
            return self.converter.resolve_nested_schema(field.schema)  # type: ignore[no-any-return]
        if isinstance(field, Computed):
            ref = self.converter.resolve_nested_schema(field.schema)
            nullable = {"anyOf": [ref, {"type": "null"}]} if field.allow_none else ref
            return {"type": "array", "items": ref} if field.many else nullable
        if isinstance(field, UnitStat):
            return self.stat_property(field.family, field.stat)
        if isinstance(field, UnitStats):
            for key in ("type", "additionalProperties", "propertyNames"):
                ret.pop(key, None)
            return self.unit_stats_ref()
        if isinstance(field, OneOfSchemas):
            return {"oneOf": [self.converter.resolve_nested_schema(shape) for shape in field.shapes.values()]}
        if isinstance(field, ProfileField):
            for key in ("type", "additionalProperties", "propertyNames"):
                ret.pop(key, None)
            return self.profile_ref()
        return {}

    def stat_property(self, family: str, name: str) -> dict[str, Any]:
        """A unit stat as *family*'s book schema reads it (a derived stat as the schema declares it)."""
        unit_schema = profile_schema(family)
        field = unit_schema.DERIVED_STATS.get(name) or unit_schema().fields[name]  # type: ignore[attr-defined]
        field = _unbound(field, ANSWER)  # documented as an answer sends it
        field.data_key, field.required, field.load_default = None, False, missing
        field.metadata = {key: value for key, value in field.metadata.items() if key == "description"}
        return self.converter.field2property(field)  # type: ignore[no-any-return]

    def unit_stats_ref(self) -> dict[str, str]:
        """``StatBlockOut``: every key a unit's ``stats`` holds in any family, each typed."""
        if "StatBlockOut" not in self.spec.components.schemas:
            properties: dict[str, Any] = {}
            for family in self.systems_by_family():
                unit_schema = profile_schema(family)
                names = (*FAMILIES[family].stat_names, *unit_schema.DERIVED_STATS)  # type: ignore[attr-defined]
                for name in names:
                    properties.setdefault(name, self.stat_property(family, name))
            self.spec.components.schema(
                "StatBlockOut",
                {
                    "type": "object",
                    "description": "A unit's stats: those of its family's army books, and those the family derives from them (each key only for the families that have it).",
                    "properties": properties,
                    "additionalProperties": False,
                },
            )
        return {"$ref": "#/components/schemas/StatBlockOut"}

    def profile_ref(self) -> dict[str, str]:
        if "Profile" not in self.spec.components.schemas:
            shapes = [
                self.converter.resolve_nested_schema(profile_schema(family)) for family in self.systems_by_family()
            ]
            self.spec.components.schema(
                "Profile",
                {
                    "description": "An inline unit in the shape the system's army books use (id, size and cost optional): one shape per rules family.",
                    "anyOf": shapes,
                },
            )
        return {"$ref": "#/components/schemas/Profile"}

    def schema_helper(self, name: str, definition: dict[str, Any], **kwargs: Any) -> dict[str, Any] | None:
        """An answer's required keys; a request with ``SITUATION_PART``: one shape per family."""
        schema_cls = resolve_schema_cls(kwargs.get("schema")) if kwargs.get("schema") is not None else None
        variants = getattr(schema_cls, "VARIANTS", None)
        if variants is not None:  # a union of closed shapes (IssueOut: one per issue code's data)
            definition.clear()
            definition["oneOf"] = [self.converter.resolve_nested_schema(shape) for shape in variants()]
            key = getattr(schema_cls, "DISCRIMINATOR", None)  # each variant's one value of it (LogEntryOut: kind)
            if key:
                mapping = {
                    fields_of(shape)[key].validate.choices[0]: ref["$ref"]
                    for shape, ref in zip(variants(), definition["oneOf"], strict=True)
                }
                definition["discriminator"] = {"propertyName": key, "mapping": mapping}
            if schema_cls.__doc__:
                definition["description"] = " ".join(schema_cls.__doc__.split())
            return None
        if isinstance(schema_cls, type) and issubclass(schema_cls, OutSchema):
            if getattr(schema_cls, "FAMILY_ANSWER", None):  # one variant per rules family
                self.family_answer(name, schema_cls, definition)
                return None
            definition["required"] = [
                key for key in definition.get("properties", {}) if key not in schema_cls.SOMETIMES
            ]
            if schema_cls.EXTRA is not None:
                definition["additionalProperties"] = schema_cls.EXTRA
            if schema_cls.DESCRIPTION:
                definition["description"] = schema_cls.DESCRIPTION
            return None
        _defaults_in_words(definition)
        part: str | None = getattr(schema_cls, "SITUATION_PART", None)
        if not part:
            return None
        flag = getattr(schema_cls, "FAMILY_FLAG", None)
        shapes, mapping = [], {}
        for family, systems in self.systems_by_family().items():
            record = FAMILIES[family]
            situation = record.part(part)
            if situation is None or (flag and not getattr(record, flag)):
                continue
            ref = self.converter.resolve_nested_schema(_family_shape(schema_cls, name, family, systems, situation))
            shapes.append(ref)
            mapping.update(dict.fromkeys(systems, ref["$ref"]))
        description = definition.get("description")
        definition.clear()
        definition.update({"oneOf": shapes, "discriminator": {"propertyName": "system", "mapping": mapping}})
        if description:
            definition["description"] = description
        return None

    def family_answer(self, name: str, schema_cls: type[OutSchema], definition: dict[str, Any]) -> None:
        """*definition*: a ``oneOf`` of the families' variants with a discriminator mapping,
        or the one family's variant itself (``openapi_families``)."""
        variants = family_variants(schema_cls, name, self.systems_by_family(), _answered_inside)
        definition.clear()
        if len(variants) == 1:
            definition.update(self.converter.schema2jsonschema(variants[0][0]()))  # bound: its fields know their root
            self.schema_helper(name, definition, schema=variants[0][0])
            return
        shapes, mapping = [], {}
        for variant, values in variants:
            ref = self.converter.resolve_nested_schema(variant)
            shapes.append(ref)
            mapping.update(dict.fromkeys(values, ref["$ref"]))
        key: str = schema_cls.DISCRIMINATOR  # type: ignore[attr-defined]
        definition.update({"oneOf": shapes, "discriminator": {"propertyName": key, "mapping": mapping}})
        if schema_cls.__doc__:
            definition["description"] = " ".join(schema_cls.__doc__.split())


def _defaults_in_words(definition: dict[str, Any]) -> None:
    """A request's defaults, said in each property's description rather than as ``default``:
    generated clients (openapi-typescript by default) make a property with a ``default`` one a
    request must send, the opposite of what a default is for. The answer shapes
    (:func:`answer_shape`) say what the server always fills in."""
    for declared in definition.get("properties", {}).values():
        if "default" in declared:
            default = json.dumps(declared.pop("default"))
            said = declared.get("description")
            declared["description"] = f"{said} (default: {default})" if said else f"default: {default}"


@cache
def answer_shape(schema_cls: type[Schema]) -> type[OutSchema]:
    """*schema_cls*, a request's shape, as an answer sends it (``ArmyList`` -> ``ArmyListOut``):
    the same fields, none with a default, each one the answer always has required. A request
    may leave out what has a default; a generated client must know an answer never does."""
    copied: dict[str, Any] = {}
    left_out = getattr(schema_cls, "ANSWER_LEAVES_OUT", ())  # read by the load, never answered
    for name, field in schema_cls().fields.items():
        if name in left_out:
            continue
        field = _unbound(field)
        field.required, field.load_default = False, missing
        _answered_inside(field)
        copied[name] = field
    name = schema_cls.__name__.removesuffix("Schema")
    doc = f"{name} as an answer has it: every field present."
    # A family's own format (listbuilder.formats.<family>) is named after it: two families'
    # composition files may both have a part called PointsSchema.
    family = schema_cls.__module__.removeprefix("listbuilder.formats.").replace("_", "-")
    if family in FAMILIES and not name.startswith(family_title(family)):
        name = family_title(family) + name
    sometimes = getattr(schema_cls, "ANSWER_SOMETIMES", frozenset())
    attrs = {"__doc__": doc, "DESCRIPTION": doc, "SOMETIMES": sometimes, **copied}
    return type(f"{name}OutSchema", (OutSchema,), attrs)


def _answered_inside(field: fields.Field) -> None:
    """The request shapes nested in *field* (a copy), answered too: the document then holds
    only their answer shapes, not the request shapes beside them (two families' composition
    parts may share a name, ``PointsSchema``)."""
    todo = [field]
    while todo:
        part = todo.pop()
        nested = getattr(part, "nested", None)
        if isinstance(nested, type) and issubclass(nested, Schema) and not issubclass(nested, OutSchema):
            part.nested, part._schema = answer_shape(nested), None  # type: ignore[attr-defined]
        todo += [inner for key in ("inner", "value_field") if (inner := getattr(part, key, None))]


ANSWER = OutSchema()  # the root a field documented outside its schema is given to read as an answer's


def _unbound(field: fields.Field, root: Schema | None = None) -> fields.Field:
    """A copy of a schema's field (and of the fields inside it) that a new schema can own, or
    that is documented as part of *root*."""
    field = copy.deepcopy(field)
    todo = [field]
    while todo:
        part = todo.pop()
        part.parent, part.root = None, root
        todo += [inner for key in ("inner", "key_field", "value_field") if (inner := getattr(part, key, None))]
    return field


def _declared_property(field: fields.Field, ret: dict[str, Any], *, answer: bool = False) -> dict[str, Any]:
    """The field's own ``OPENAPI`` schema (``OPENAPI_OUT`` in an answer, when it has one), null
    added when the field allows it; a description given where the field is used wins."""
    declared: dict[str, Any] = field.OPENAPI  # type: ignore[attr-defined]
    if answer or isinstance(field.root, OutSchema):
        declared = getattr(field, "OPENAPI_OUT", None) or declared
    for key in ("type", "additionalProperties", "propertyNames", "items"):
        ret.pop(key, None)
    schema = copy.deepcopy(declared)
    if "description" in ret:
        schema.pop("description", None)
    if field.allow_none:
        schema = {"anyOf": [schema, {"type": "null"}]}
    return schema


def _family_shape(schema_cls: type[Schema], name: str, family: str, systems: list[str], situation: Any) -> type[Schema]:
    """*schema_cls* for one family: ``system`` one of its systems, ``situation`` its schema, required."""
    return type(
        f"{name}{family_title(family)}Schema",
        (schema_cls,),
        {
            "__doc__": f"{schema_cls.__doc__ or name} For the {family} systems.",
            "SITUATION_PART": None,
            "system": fields.String(required=True, validate=validate.OneOf(systems)),
            "situation": fields.Nested(situation, required=True),
        },
    )


def systems_by_family(systems: Mapping[str, Any]) -> dict[str, list[str]]:
    """Each registered family's system ids, from a registry's ``systems``."""
    out: dict[str, list[str]] = {}
    for system in systems.values():
        if system.family in FAMILIES:
            out.setdefault(system.family, []).append(system.id)
    return {family: sorted(ids) for family, ids in sorted(out.items())}

"""Plainly well-formed input read in C, by types derived from the marshmallow schemas.

Validating a list is the web builder's every edit, and reading the request through marshmallow
(or through Python checks of each field) cost more than validating it. msgspec decodes JSON
bytes, or converts data already parsed, straight into typed structs, checking each field's type,
length and range as it goes. The structs here are *derived* from a schema's declared fields
(each String's or List's Length, each integer's Range, required or its default, None allowed or
not, nested schemas in turn), so the schema stays the one definition of what is accepted; then
the schema's own ``validates_schema`` checks and ``post_load`` maker run on the result, as
marshmallow would run them.

A reader may refuse more than its schema (``2.0`` for an integer, a tuple for a list, any
JSON it cannot read), never accept more: whatever it refuses goes through the schema, which
answers with its usual messages. Tests compare both on every mutation of a valid value.
A schema using anything the derivation cannot mirror (another field kind or validator, another
hook) raises TypeError when its reader is first built, so nothing is skipped silently.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Annotated, Any, NamedTuple

import msgspec
from marshmallow import RAISE, Schema, ValidationError, fields, validate
from marshmallow.utils import missing

Made = Any  # what the schema's load returns (its post_load maker's result)


class _Nested(NamedTuple):
    name: str
    reader: Reader
    many: bool


class Reader:
    """A schema's derived struct, its nested readers, its checks and its maker."""

    def __init__(self, schema_cls: type[Schema]):
        schema = schema_cls()
        if schema.unknown != RAISE:
            raise TypeError(f"{schema_cls.__name__}: only schemas refusing unknown keys have a fast reader")
        self._nested: list[_Nested] = []
        self.struct = msgspec.defstruct(
            f"{schema_cls.__name__}Struct",
            [self._derive(name, field) for name, field in schema.load_fields.items()],
            kw_only=True,
            forbid_unknown_fields=True,
        )
        hooks: dict[str, list[str]] = {}
        for kind, found in schema_cls.resolve_hooks().items():  # marshmallow's public view of the hooks
            for name, many, options in found:
                if (
                    kind not in ("post_load", "validates_schema")
                    or many
                    or options.get("pass_original")
                    or options.get("pass_collection")
                ):
                    raise TypeError(f"{schema_cls.__name__}: its {kind} hook {name!r} has no fast reader")
                hooks.setdefault(kind, []).append(name)
        self._checks: tuple[Callable[[dict[str, Any]], None], ...] = tuple(
            getattr(schema, name) for name in hooks.get("validates_schema", ())
        )
        makers = [getattr(schema, name) for name in hooks.get("post_load", ())]
        self._make: Callable[[dict[str, Any]], Made] | None = makers[0] if makers else None
        if len(makers) > 1:
            raise TypeError(f"{schema_cls.__name__}: one post_load maker at most")
        # A schema read many times per request (entries, upgrade rows) may build its result
        # straight from the struct: a third of the time of a dict for its maker.
        from_struct = getattr(schema_cls, "from_struct", None)
        if from_struct is not None:
            if self._checks:
                raise TypeError(f"{schema_cls.__name__}: from_struct would skip its validates_schema checks")
            self.built = from_struct
        self._decoder = msgspec.json.Decoder(self.struct)

    def _derive(self, name: str, field: fields.Field) -> tuple[str, Any, Any] | tuple[str, Any]:
        if field.data_key not in (None, name) or field.attribute not in (None, name):
            raise TypeError(f"field {name!r}: renamed fields have no fast reader")
        kind = self._kind(name, field)
        item = field.inner if isinstance(field, fields.List) else field
        if isinstance(item, fields.Nested):  # built by its own reader (see built)
            self._nested.append(_Nested(name, reader_for(type(item.schema)), item is not field))
        if field.allow_none:
            kind = kind | None
        if field.required:
            return (name, kind)
        default = field.load_default
        if default is missing:
            raise TypeError(f"field {name!r}: neither required nor with a default")
        return (name, kind, msgspec.field(default_factory=default) if callable(default) else default)

    @staticmethod
    def _kind(name: str, field: fields.Field) -> Any:
        """The msgspec type of *field*, its validators as constraints."""
        if isinstance(field, fields.Nested):
            if field.many or field.only or field.exclude:
                raise TypeError(f"field {name!r}: a Nested with many, only or exclude has no fast reader")
            base: Any = reader_for(type(field.schema)).struct
        elif isinstance(field, fields.List):
            if not isinstance(field.inner, (fields.Nested, fields.String, fields.Integer, fields.Boolean)):
                raise TypeError(f"field {name!r}: a list of {type(field.inner).__name__} has no fast reader")
            base = list[Reader._kind(name, field.inner)]  # type: ignore[misc]
        elif isinstance(field, fields.Boolean):
            base = bool
        elif isinstance(field, fields.Integer):
            base = int  # JSON integers only: 2.0, "2" and true go to the schema
        elif type(field) is fields.String:
            base = str
        else:
            raise TypeError(f"field {name!r}: {type(field).__name__} has no fast reader")
        constraints = _constraints(name, field)
        return Annotated[base, msgspec.Meta(**constraints)] if constraints else base

    def built(self, decoded: Any) -> Made | None:
        """The schema's result for a decoded struct, or None when a schema check refuses it
        (the schema's ``from_struct`` instead, where it has one)."""
        data = msgspec.structs.asdict(decoded)
        for name, reader, many in self._nested:
            value = data[name]
            if value is None:
                continue
            if many:
                items = [reader.built(item) for item in value]
                if None in items:
                    return None
                data[name] = items
            else:
                data[name] = reader.built(value)
                if data[name] is None:
                    return None
        try:
            for check in self._checks:
                check(data)
        except ValidationError:
            return None
        return self._make(data) if self._make is not None else data

    def read(self, value: Any) -> Made | None:
        """*value* (parsed JSON) as the schema would load it, or None: let the schema read it."""
        try:
            decoded = msgspec.convert(value, self.struct)
        except msgspec.ValidationError:
            return None
        return self.built(decoded)

    def decode(self, data: bytes) -> Made | None:
        """JSON *data* as the schema would load it, or None: parse it and let the schema read it
        (not JSON, or not plainly well-formed: errors are the slow path's to name)."""
        try:
            decoded = self._decoder.decode(data)
        except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError):
            return None
        return self.built(decoded)


def _constraints(name: str, field: fields.Field) -> dict[str, int]:
    found: dict[str, int] = {}
    for rule in field.validators:
        if isinstance(rule, validate.Length) and rule.equal is None:
            if rule.min is not None:
                found["min_length"] = rule.min
            if rule.max is not None:
                found["max_length"] = rule.max
        elif isinstance(rule, validate.Range) and isinstance(field, fields.Integer):
            if rule.min is not None:
                found["ge" if rule.min_inclusive else "gt"] = rule.min
            if rule.max is not None:
                found["le" if rule.max_inclusive else "lt"] = rule.max
        else:
            raise TypeError(f"field {name!r}: the validator {rule!r} has no fast reader")
    return found


@functools.cache
def reader_for(schema_cls: type[Schema]) -> Reader:
    """The fast reader of *schema_cls*, derived once."""
    return Reader(schema_cls)

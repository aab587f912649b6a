"""Marshmallow fields and small schemas shared by every army-book and list schema."""

from __future__ import annotations

from typing import Any, ClassVar

import marshmallow
from marshmallow import ValidationError, fields, post_load, validate

from listbuilder.compat.marshmallow import HookTableMeta
from listbuilder.model import Cost, RuleDefinition, RuleRef, Spell


class Schema(marshmallow.Schema, metaclass=HookTableMeta):
    """The base of every schema of ours: a deep copy of a schema is the schema itself, and its
    table of decorated methods is read from our classes only (``listbuilder.compat.marshmallow``).

    A schema is never changed once built. flask-smorest deep-copies an operation's
    documentation at each of its decorators and again when it registers the operation, and
    that documentation holds schema instances (one per response and error code): copying
    every field of each, again and again, was a large part of start-up. (Schemas build
    their own fields by deep-copying fields, not schemas, so loading is unaffected.)
    """

    def __deepcopy__(self, memo: dict[int, Any]) -> Schema:
        return self


class OutSchema(Schema):
    """An answer's shape. Every field of an answer is always sent, so the OpenAPI document lists
    each as required (``listbuilder.web.http.openapi``), except those named in ``SOMETIMES`` (sent
    only when they apply). ``EXTRA`` is the JSON schema of keys an answer has beyond its fields
    (a cost vector's currencies), or None for none. ``DESCRIPTION``, when set, is the component's
    description (apispec's ``Meta.description`` would drop ``additionalProperties: false``)."""

    SOMETIMES: ClassVar[frozenset[str]] = frozenset()
    EXTRA: ClassVar[dict[str, Any] | None] = None
    DESCRIPTION: ClassVar[str | None] = None


class Described(fields.Raw):
    """A value sent as built (a report's totals: a dict the core made) and documented by an
    :class:`OutSchema` that names its keys. Dumping it through that schema would drop the keys
    it cannot name (``pts``), so it only describes."""

    def __init__(self, schema: type[OutSchema], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.schema = schema


class Computed(fields.Function):
    """A value an answer computes from the object it dumps (``fields.Function``), documented
    by the :class:`OutSchema` (or list of them, ``many=True``) it has the shape of."""

    def __init__(self, function: Any, schema: type[OutSchema], *, many: bool = False, **kwargs: Any) -> None:
        super().__init__(function, **kwargs)
        self.schema = schema
        self.many = many


ID_PATTERN = r"^[a-z0-9][a-z0-9_-]*$"
Identifier = lambda **kw: fields.String(  # noqa: E731 - a field factory reads best inline
    validate=validate.Regexp(ID_PATTERN, error="not an id (lowercase letters, digits, - and _)"),
    **kw,
)


def gear_key() -> fields.String:
    """A weapon's or item's key, told apart from another profile of the same name; empty (the
    default) when its name is enough. Empty is a valid value, so the document's default holds."""
    return fields.String(
        load_default="",
        validate=validate.Regexp(
            r"^(?:[a-z0-9][a-z0-9_-]*)?$", error="not a gear key (lowercase letters, digits, - and _)"
        ),
        metadata={"description": "gear key when two profiles share a name; empty otherwise"},
    )


class WholeNumber(fields.Integer):
    """A whole number: ``2`` and ``2.0`` (JSON has one number type, and JSON Schema calls 2.0
    an integer), never ``2.5``, ``"2"`` or ``true``."""

    def __init__(self, **kw: Any):
        super().__init__(strict=True, **kw)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if type(value) is float and value.is_integer():
            value = int(value)
        return super()._deserialize(value, attr, data, **kwargs)


class Flag(fields.Boolean):
    """``true`` or ``false`` and nothing else: marshmallow's Boolean also takes ``"yes"``, ``1``
    and ``"on"``, which a typed client never sends and a typo should not pass as."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if type(value) is not bool:
            raise ValidationError("not true or false")
        return value


def positive_int(**kw: Any) -> fields.Integer:
    kw.setdefault("validate", validate.Range(min=1, error="not a positive integer"))
    return WholeNumber(**kw)


def non_negative_int(**kw: Any) -> fields.Integer:
    return WholeNumber(validate=validate.Range(min=0, error="not a non-negative integer"), **kw)


class CostField(fields.Field):
    """A cost vector ``{"pts": 120}``; every amount a non-negative integer, or any integer
    with ``negative=True`` (an upgrade option that swaps in cheaper gear refunds points).

    ``OPENAPI`` is how the document declares a field of ours that no marshmallow type
    describes (``listbuilder.web.http.openapi``), and ``OPENAPI_OUT`` what an answer sends
    when that differs from what a request may give."""

    OPENAPI: ClassVar[dict[str, Any]] = {"$ref": "#/components/schemas/CostOut"}

    def __init__(self, *, negative: bool = False, **kwargs: Any):
        super().__init__(**kwargs)
        self.negative = negative

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Cost:
        if not isinstance(value, dict) or not value:
            raise ValidationError('not a cost vector such as {"pts": 10}')
        for currency, amount in value.items():
            if not isinstance(currency, str) or not currency.isalpha():
                raise ValidationError(f"not a currency name: {currency!r}")
            if isinstance(amount, bool) or not isinstance(amount, int) or (amount < 0 and not self.negative):
                raise ValidationError(f"{currency}: not {'an' if self.negative else 'a non-negative'} integer")
        return Cost(value)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return None if value is None else value.as_dict()


class RuleLabel(fields.Field):
    """A special rule: a label such as ``"Tough(3)"``, or ``{name: Tough, rating: 3}`` (a number
    kept as a number) or ``{name: Bane, param: Undead}``, read into a RuleRef; an answer
    sends the label."""

    OPENAPI: ClassVar[dict[str, Any]] = {
        "oneOf": [
            {"type": "string", "minLength": 1, "description": "a label such as Tough(3)"},
            {
                "type": "object",
                "properties": {"name": {"type": "string", "minLength": 1}, "rating": {"type": "integer"}},
                "required": ["name"],
                "additionalProperties": False,
            },
            {
                "type": "object",
                "properties": {"name": {"type": "string", "minLength": 1}, "param": {"type": "string", "minLength": 1}},
                "required": ["name", "param"],
                "additionalProperties": False,
            },
        ]
    }
    OPENAPI_OUT: ClassVar[dict[str, Any]] = {"type": "string", "description": "a label such as Tough(3)"}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> RuleRef:
        if isinstance(value, dict):
            return _rule_from_mapping(value)
        if not isinstance(value, str):
            raise ValidationError("not a rule label such as 'Tough(3)' or {name: Tough, rating: 3}")
        try:
            return RuleRef.parse(value)
        except ValueError as exc:
            raise ValidationError(str(exc)) from exc

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return None if value is None else value.label


def _rule_from_mapping(value: dict[str, Any]) -> RuleRef:
    name, rating, param = value.get("name"), value.get("rating"), value.get("param")
    if set(value) - {"name", "rating", "param"} or not isinstance(name, str) or not name.strip() or "(" in name:
        raise ValidationError("a rule mapping has a name and at most one of rating (a number) or param (text)")
    if rating is not None and param is not None:
        raise ValidationError("give a rule either a rating or a param, not both")
    if rating is not None:
        if isinstance(rating, bool) or not isinstance(rating, int):
            raise ValidationError(f"{name}: rating is not a whole number")
        return RuleRef(name.strip(), str(rating))
    if param is not None and (not isinstance(param, str) or not param.strip() or set("()") & set(param)):
        raise ValidationError(f"{name}: param is not a short text without brackets")
    return RuleRef(name.strip(), param.strip() if param else None)


def rule_list(**kw: Any) -> fields.List:
    return fields.List(RuleLabel(), load_default=(), **kw)


class StrictSchema(Schema):
    """Unknown keys are errors in every file we read (a typo must not pass silently)."""

    class Meta:
        ordered = True


class RuleDefinitionSchema(StrictSchema):
    name = fields.String(required=True, validate=validate.Length(min=1))
    param = fields.String(load_default=None, allow_none=True)
    kind = fields.String(load_default="unit", validate=validate.OneOf(["unit", "weapon", "item", "spell", "army"]))
    text = fields.String(required=True, validate=validate.Length(min=1))
    mentions = fields.List(fields.String(), load_default=())

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> RuleDefinition:
        data["mentions"] = tuple(data["mentions"])
        return RuleDefinition(**data)


class SpellSchema(StrictSchema):
    id = Identifier(required=True)
    name = fields.String(required=True)
    value = non_negative_int(required=True)
    text = fields.String(required=True)
    limited_to = fields.List(fields.String(), load_default=())
    extra = fields.Dict(keys=fields.String(), load_default=dict)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Spell:
        data["limited_to"] = tuple(data["limited_to"])
        return Spell(**data)

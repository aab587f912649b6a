"""The army-list format (the API contract), read into model.ArmyList."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from listbuilder.model import ArmyList, ChosenUpgrade, ListEntry
from listbuilder.schemas.fields import StrictSchema, positive_int

MAX_UNITS = 300
MAX_UPGRADES = 100


class ChosenUpgradeSchema(StrictSchema):
    section = fields.String(required=True, validate=validate.Length(min=1, max=100))
    option = fields.String(required=True, validate=validate.Length(min=1, max=100))
    count = positive_int(load_default=1, validate=validate.Range(min=1, max=1000, error="not a count from 1 to 1000"))

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> ChosenUpgrade:
        return ChosenUpgrade(**data)


class ListEntrySchema(StrictSchema):
    key = fields.String(required=True, validate=validate.Length(min=1, max=64))
    unit = fields.String(required=True, validate=validate.Length(min=1, max=100))
    name = fields.String(load_default="", validate=validate.Length(max=200))
    notes = fields.String(load_default="", validate=validate.Length(max=2000))
    upgrades = fields.List(fields.Nested(ChosenUpgradeSchema), load_default=(), validate=validate.Length(max=MAX_UPGRADES))
    combined_with = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=64))
    joined_to = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=64))
    spells = fields.List(fields.String(validate=validate.Length(min=1, max=100)), load_default=(), validate=validate.Length(max=50))

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> ListEntry:
        data["upgrades"] = tuple(data["upgrades"])
        data["spells"] = tuple(data["spells"])
        return ListEntry(**data)


class BudgetSchema(StrictSchema):
    ip = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0, max=1000))
    mp = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0, max=1000))
    cp = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0, max=1000))
    xp = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0, max=1000))


class ArmyListSchema(StrictSchema):
    """A list as players and tools submit it; ``units[].key`` must be unique."""

    system = fields.String(required=True, validate=validate.Length(min=1, max=100))
    book = fields.String(required=True, validate=validate.Length(min=1, max=100))
    name = fields.String(load_default="", validate=validate.Length(max=200))
    points_limit = positive_int(load_default=None, allow_none=True, validate=validate.Range(min=1, max=100000, error="not a points limit from 1 to 100000"))
    force_org = fields.Boolean(load_default=None, allow_none=True)
    game_mode = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=100))
    budget = fields.Nested(BudgetSchema, load_default=None, allow_none=True)
    units = fields.List(fields.Nested(ListEntrySchema), required=True, validate=validate.Length(max=MAX_UNITS))

    @validates_schema(skip_on_field_errors=True)
    def unique_keys(self, data: dict[str, Any], **_: Any) -> None:
        seen: dict[str, int] = {}
        errors: dict[int, dict[str, list[str]]] = {}
        for i, entry in enumerate(data["units"]):
            if entry.key in seen:
                errors[i] = {"key": [f"key {entry.key!r} already used by units[{seen[entry.key]}]"]}
            seen.setdefault(entry.key, i)
        if errors:
            raise ValidationError({"units": errors})

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> ArmyList:
        extra = {k: data.pop(k) for k in ("game_mode", "budget") if data.get(k) is not None}
        data.pop("game_mode", None)
        data.pop("budget", None)
        data["units"] = tuple(data["units"])
        return ArmyList(**data, extra=extra)

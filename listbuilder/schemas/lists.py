"""The army-list format (the API contract), read into model.ArmyList."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from listbuilder.model import ArmyList, ChosenUpgrade, ListEntry
from listbuilder.schemas.fields import StrictSchema, WholeNumber, positive_int

# Work budgets: far beyond any army (a 2000-point list has 15-30 entries and well under 100
# upgrade rows), and low enough that the largest list validates or prints in well under a second.
MAX_UNITS = 300
MAX_UPGRADES = 100          # rows on one entry
MAX_LIST_UPGRADES = 2000    # rows on all entries together


def _text(value: Any, low: int, high: int) -> bool:
    return type(value) is str and low <= len(value) <= high


def _optional_text(value: Any, low: int, high: int) -> bool:
    return value is None or _text(value, low, high)


class FastNested(fields.Nested):
    """A Nested field with a fast path for plainly well-formed input.

    Marshmallow spends ~15 us per nested object; lists carry dozens of entries and upgrade
    rows and are validated on every edit in the web builder. The schema's ``fast(value)``
    returns the model object when the value passes checks at least as strict as the schema's,
    or None, in which case the full schema runs and produces its usual error messages. So the
    schema stays the one definition of what is accepted; tests compare both paths.
    """

    def _deserialize(self, value: Any, attr: str | None, data: Any, partial: Any = None, **kwargs: Any) -> Any:
        fast = getattr(self.nested, "fast", None)
        if fast is not None:
            made = fast(value)
            if made is not None:
                return made
        return super()._deserialize(value, attr, data, partial=partial, **kwargs)


class ChosenUpgradeSchema(StrictSchema):
    section = fields.String(required=True, validate=validate.Length(min=1, max=100))
    option = fields.String(required=True, validate=validate.Length(min=1, max=100))
    count = positive_int(load_default=1, validate=validate.Range(min=1, max=1000, error="not a count from 1 to 1000"))

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> ChosenUpgrade:
        return ChosenUpgrade(**data)

    @staticmethod
    def fast(value: Any) -> ChosenUpgrade | None:
        if type(value) is not dict:
            return None
        get = value.get
        section, option, count = get("section"), get("option"), get("count", 1)
        # section and option present and text: then two keys, or three with count, are exactly ours
        if type(section) is not str or type(option) is not str or type(count) is not int or len(value) != (3 if "count" in value else 2):
            return None
        if not (0 < len(section) <= 100 and 0 < len(option) <= 100 and 1 <= count <= 1000):
            return None
        return ChosenUpgrade(section, option, count)


class ListEntrySchema(StrictSchema):
    key = fields.String(required=True, validate=validate.Length(min=1, max=64))
    unit = fields.String(required=True, validate=validate.Length(min=1, max=100))
    name = fields.String(load_default="", validate=validate.Length(max=200))
    notes = fields.String(load_default="", validate=validate.Length(max=2000))
    upgrades = fields.List(FastNested(ChosenUpgradeSchema), load_default=(), validate=validate.Length(max=MAX_UPGRADES))
    combined_with = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=64))
    joined_to = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=64))
    spells = fields.List(fields.String(validate=validate.Length(min=1, max=100)), load_default=(), validate=validate.Length(max=50))

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> ListEntry:
        data["upgrades"] = tuple(data["upgrades"])
        data["spells"] = tuple(data["spells"])
        return ListEntry(**data)

    _KEYS = frozenset({"key", "unit", "name", "notes", "upgrades", "combined_with", "joined_to", "spells"})

    @classmethod
    def fast(cls, value: Any) -> ListEntry | None:
        if type(value) is not dict or not value.keys() <= cls._KEYS:
            return None
        get = value.get
        key, unit, name, notes = get("key"), get("unit"), get("name", ""), get("notes", "")
        if type(key) is not str or type(unit) is not str or type(name) is not str or type(notes) is not str:
            return None
        if not (0 < len(key) <= 64 and 0 < len(unit) <= 100 and len(name) <= 200 and len(notes) <= 2000):
            return None
        combined_with, joined_to = get("combined_with"), get("joined_to")
        if combined_with is not None and not (type(combined_with) is str and 0 < len(combined_with) <= 64):
            return None
        if joined_to is not None and not (type(joined_to) is str and 0 < len(joined_to) <= 64):
            return None
        rows, spells = get("upgrades", ()), get("spells", ())
        if rows:
            if type(rows) is not list or len(rows) > MAX_UPGRADES:
                return None
            upgrades = tuple(map(ChosenUpgradeSchema.fast, rows))
            if not all(upgrades):  # a None: that row needs the schema
                return None
        elif rows != () and rows != []:
            return None
        else:
            upgrades = ()
        if spells:
            if type(spells) is not list or len(spells) > 50 or not all(_text(spell, 1, 100) for spell in spells):
                return None
            spells = tuple(spells)
        elif spells != () and spells != []:
            return None
        else:
            spells = ()
        return ListEntry(key, unit, name, notes, upgrades, combined_with, joined_to, spells)


class BudgetSchema(StrictSchema):
    ip = WholeNumber(load_default=0, validate=validate.Range(min=0, max=1000))
    mp = WholeNumber(load_default=0, validate=validate.Range(min=0, max=1000))
    cp = WholeNumber(load_default=0, validate=validate.Range(min=0, max=1000))
    xp = WholeNumber(load_default=0, validate=validate.Range(min=0, max=1000))


class ArmyListSchema(StrictSchema):
    """A list as players and tools submit it; ``units[].key`` must be unique, and the entries
    hold at most MAX_LIST_UPGRADES upgrade rows together."""

    system = fields.String(required=True, validate=validate.Length(min=1, max=100))
    book = fields.String(required=True, validate=validate.Length(min=1, max=100))
    name = fields.String(load_default="", validate=validate.Length(max=200))
    points_limit = positive_int(load_default=None, allow_none=True, validate=validate.Range(min=1, max=100000, error="not a points limit from 1 to 100000"))
    force_org = fields.Boolean(load_default=None, allow_none=True)
    game_mode = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=100))
    budget = fields.Nested(BudgetSchema, load_default=None, allow_none=True)
    units = fields.List(
        FastNested(ListEntrySchema), required=True, validate=validate.Length(max=MAX_UNITS),
        metadata={"description": f"the entries; each key unique, at most {MAX_LIST_UPGRADES} upgrade rows in all"},
    )

    @validates_schema(skip_on_field_errors=True)
    def unique_keys(self, data: dict[str, Any], **_: Any) -> None:
        rows = sum(len(entry.upgrades) for entry in data["units"])
        if rows > MAX_LIST_UPGRADES:
            raise ValidationError({"units": [f"{rows} upgrade rows in all; a list holds at most {MAX_LIST_UPGRADES}"]})
        seen: dict[str, int] = {}
        errors: dict[int, dict[str, list[str]]] = {}
        for i, entry in enumerate(data["units"]):
            if entry.key in seen:
                errors[i] = {"key": [f"key {entry.key!r} already used by units[{seen[entry.key]}]"]}
            seen.setdefault(entry.key, i)
        if errors:
            raise ValidationError({"units": errors})

    _KEYS = frozenset({"system", "book", "name", "points_limit", "force_org", "game_mode", "budget", "units"})
    max_units = MAX_UNITS  # the fast path's bound; a subclass that lowers ``units`` lowers it too

    def load(self, data: Any, *, many: bool | None = None, partial: Any = None, unknown: str | None = None) -> Any:  # type: ignore[override]
        """Try the fast path first (see FastNested); anything doubtful goes through the schema."""
        if many is None and partial is None and unknown is None:
            made = self.fast(data)
            if made is not None:
                return made
        return super().load(data, many=many, partial=partial, unknown=unknown)

    @classmethod
    def fast(cls, value: Any) -> ArmyList | None:
        if type(value) is not dict or not value.keys() <= cls._KEYS or "budget" in value:
            return None  # budgets are rare: let the schema read them
        system, book, name = value.get("system"), value.get("book"), value.get("name", "")
        limit, force_org, game_mode = value.get("points_limit"), value.get("force_org"), value.get("game_mode")
        if not (_text(system, 1, 100) and _text(book, 1, 100) and _text(name, 0, 200) and _optional_text(game_mode, 0, 100)):
            return None
        if limit is not None and (type(limit) is not int or not 1 <= limit <= 100000):
            return None
        if force_org is not None and type(force_org) is not bool:
            return None
        rows = value.get("units")
        if type(rows) is not list or len(rows) > cls.max_units:
            return None
        units = tuple(map(ListEntrySchema.fast, rows))
        if not all(units) or len({u.key for u in units}) != len(units):
            return None  # duplicate keys: the schema names them
        if sum(len(u.upgrades) for u in units) > MAX_LIST_UPGRADES:
            return None
        extra = {"game_mode": game_mode} if game_mode is not None else {}
        return ArmyList(system, book, units, limit, force_org, name, extra)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> ArmyList:
        extra = {k: data.pop(k) for k in ("game_mode", "budget") if data.get(k) is not None}
        data.pop("game_mode", None)
        data.pop("budget", None)
        data["units"] = tuple(data["units"])
        return ArmyList(**data, extra=extra)

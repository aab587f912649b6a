"""The army-list format (the API contract), read into model.ArmyList."""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from listbuilder.formats.fields import StrictSchema, WholeNumber, positive_int
from listbuilder.model import ArmyList, ChosenUpgrade, ListEntry
from listbuilder.util.lazy import lazy_module

# Work budgets: far beyond any army (a 2000-point list has 15-30 entries and well under 100
# upgrade rows), and low enough that the largest list validates or prints in well under a second.
MAX_UNITS = 300
MAX_UPGRADES = 100  # rows on one entry
MAX_LIST_UPGRADES = 2000  # rows on all entries together


# Derived from the schemas below on first use; msgspec is imported then (not at start-up).
fast_reader = lazy_module("listbuilder.formats.fast_reader")


class FastSchema(StrictSchema):
    """A schema with a fast path for plainly well-formed input.

    Marshmallow spends ~15 us per nested object; lists carry dozens of entries and upgrade
    rows and are validated on every edit in the web builder. ``fast`` (parsed data) and
    ``fast_json`` (the request body's bytes) read with types derived from this schema's fields
    (``listbuilder.formats.fast_reader``) and return what ``load`` would, or None, in which case
    the schema runs and produces its usual error messages. So the schema stays the one
    definition of what is accepted; tests compare both paths.
    """

    _kinds: list[type[FastSchema]] = []

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        FastSchema._kinds.append(cls)

    @staticmethod
    def prepare() -> None:
        """Derive every fast reader now: a server does it once before it forks its workers."""
        for kind in FastSchema._kinds:
            fast_reader.reader_for(kind)

    @classmethod
    def fast(cls, value: Any) -> Any:
        return fast_reader.reader_for(cls).read(value)

    @classmethod
    def fast_json(cls, data: bytes) -> Any:
        return fast_reader.reader_for(cls).decode(data)


class FastNested(fields.Nested):
    """A Nested field that tries its FastSchema's fast path before the schema."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, partial: Any = None, **kwargs: Any) -> Any:
        made = self.nested.fast(value)
        if made is not None:
            return made
        return super()._deserialize(value, attr, data, partial=partial, **kwargs)


class ChosenUpgradeSchema(FastSchema):
    section = fields.String(required=True, validate=validate.Length(min=1, max=100))
    option = fields.String(required=True, validate=validate.Length(min=1, max=100))
    count = positive_int(load_default=1, validate=validate.Range(min=1, max=1000, error="not a count from 1 to 1000"))

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> ChosenUpgrade:
        return ChosenUpgrade(**data)

    @staticmethod
    def from_struct(row: Any) -> ChosenUpgrade:
        """What ``make`` builds, from the fast reader's struct (tests compare the two)."""
        return ChosenUpgrade(row.section, row.option, row.count)


class ListEntrySchema(FastSchema):
    key = fields.String(required=True, validate=validate.Length(min=1, max=64))
    unit = fields.String(required=True, validate=validate.Length(min=1, max=100))
    name = fields.String(load_default="", validate=validate.Length(max=200))
    notes = fields.String(load_default="", validate=validate.Length(max=2000))
    upgrades = fields.List(FastNested(ChosenUpgradeSchema), load_default=(), validate=validate.Length(max=MAX_UPGRADES))
    combined_with = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=64))
    joined_to = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=64))
    spells = fields.List(
        fields.String(validate=validate.Length(min=1, max=100)), load_default=(), validate=validate.Length(max=50)
    )

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> ListEntry:
        data["upgrades"] = tuple(data["upgrades"])
        data["spells"] = tuple(data["spells"])
        return ListEntry(**data)

    @staticmethod
    def from_struct(entry: Any) -> ListEntry:
        """What ``make`` builds, from the fast reader's struct (tests compare the two)."""
        rows = tuple([ChosenUpgradeSchema.from_struct(row) for row in entry.upgrades])
        return ListEntry(
            entry.key,
            entry.unit,
            entry.name,
            entry.notes,
            rows,
            entry.combined_with,
            entry.joined_to,
            tuple(entry.spells),
        )


class BudgetSchema(StrictSchema):
    ip = WholeNumber(load_default=0, validate=validate.Range(min=0, max=1000))
    mp = WholeNumber(load_default=0, validate=validate.Range(min=0, max=1000))
    cp = WholeNumber(load_default=0, validate=validate.Range(min=0, max=1000))
    xp = WholeNumber(load_default=0, validate=validate.Range(min=0, max=1000))


class ArmyListSchema(FastSchema):
    """A list as players and tools submit it; ``units[].key`` must be unique, and the entries
    hold at most MAX_LIST_UPGRADES upgrade rows together."""

    # Kept in ArmyList.extra only when set (armour-hex), so a list the API answers has them
    # only then; every other field it always has (the OpenAPI document says so).
    ANSWER_SOMETIMES: ClassVar[frozenset[str]] = frozenset({"game_mode", "budget"})

    system = fields.String(
        required=True,
        validate=validate.Length(min=1, max=100),
        metadata={"system_id": True},  # the OpenAPI document lists the systems loaded
    )
    book = fields.String(required=True, validate=validate.Length(min=1, max=100))
    name = fields.String(load_default="", validate=validate.Length(max=200))
    points_limit = positive_int(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=1, max=100000, error="not a points limit from 1 to 100000"),
    )
    force_org = fields.Boolean(load_default=None, allow_none=True)
    game_mode = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=100))
    budget = fields.Nested(BudgetSchema, load_default=None, allow_none=True)
    units = fields.List(
        FastNested(ListEntrySchema),
        required=True,
        validate=validate.Length(max=MAX_UNITS),
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

    def load(self, data: Any, *, many: bool | None = None, partial: Any = None, unknown: str | None = None) -> Any:  # type: ignore[override]
        """Try the fast path first (see FastSchema); anything doubtful goes through the schema."""
        if many is None and partial is None and unknown is None:
            made = self.fast(data)
            if made is not None:
                return made
        return super().load(data, many=many, partial=partial, unknown=unknown)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> ArmyList:
        extra = {k: data.pop(k) for k in ("game_mode", "budget") if data.get(k) is not None}
        data.pop("game_mode", None)
        data.pop("budget", None)
        data["units"] = tuple(data["units"])
        return ArmyList(**data, extra=extra)

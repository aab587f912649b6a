"""Schemas for army-book and system files, shared by every rules family.

A family extends :class:`UnitSchema` (and, if it needs to, :class:`WeaponSchema`) by declaring
its own stat fields in ``STAT_FIELDS``; those land in ``Unit.stats`` / ``Weapon.extra`` so the
model keeps one shape. :func:`book_schema` and :func:`system_schema` build the file schemas
from a family's pieces.
"""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import ValidationError, fields, post_load, pre_load, validate, validates_schema

from listbuilder.formats.fields import (
    CostField,
    Identifier,
    RuleDefinitionSchema,
    SpellSchema,
    StrictSchema,
    gear_key,
    non_negative_int,
    positive_int,
    rule_list,
)
from listbuilder.model import (
    AFFECTS_ALL,
    AFFECTS_ANY,
    AFFECTS_ONE,
    AFFECTS_UNIT,
    AFFECTS_UP_TO,
    ArmyBook,
    Gains,
    GameSystem,
    Item,
    Unit,
    UpgradeOption,
    UpgradeSection,
    Weapon,
)


def _split_extra(data: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """Move the family-specific keys out of *data* into a separate mapping."""
    return {name: data.pop(name) for name in names if name in data}


class WeaponSchema(StrictSchema):
    """A weapon profile; ``count`` defaults to one per model of the unit (or per gain)."""

    EXTRA_FIELDS: ClassVar[tuple[str, ...]] = ()

    name = fields.String(required=True, validate=validate.Length(min=1))
    id = gear_key()
    attacks = positive_int(required=True)
    range = non_negative_int(load_default=0)
    rules = rule_list()
    count = positive_int(load_default=None)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Weapon:
        extra = _split_extra(data, self.EXTRA_FIELDS)
        return Weapon(
            name=data["name"],
            attacks=data["attacks"],
            range=data["range"],
            rules=tuple(data["rules"]),
            count=data["count"] or 0,  # 0 = "one per model", settled by the unit or the gain
            extra=extra,
            id=data["id"],
        )


class ItemSchema(StrictSchema):
    """Wargear granting rules; ``weapons`` come inside it (counted per copy of the item)."""

    EXTRA_FIELDS: ClassVar[tuple[str, ...]] = ()

    name = fields.String(required=True, validate=validate.Length(min=1))
    id = gear_key()
    rules = rule_list()
    weapons = fields.List(fields.Nested(WeaponSchema), load_default=())
    count = positive_int(load_default=None)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Item:
        extra = _split_extra(data, self.EXTRA_FIELDS)
        weapons = tuple(w.with_count(w.count or 1) for w in data["weapons"])
        return Item(data["name"], tuple(data["rules"]), data["count"] or 0, extra, data["id"], weapons)


class GainsSchema(StrictSchema):
    weapons = fields.List(fields.Nested(WeaponSchema), load_default=())
    items = fields.List(fields.Nested(ItemSchema), load_default=())
    rules = rule_list()
    weapon_rules = rule_list()

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Gains:
        return Gains(
            weapons=tuple(w.with_count(w.count or 1) for w in data["weapons"]),
            items=tuple(i.with_count(i.count or 1) for i in data["items"]),
            rules=tuple(data["rules"]),
            weapon_rules=tuple(data["weapon_rules"]),
        )


class OptionSchema(StrictSchema):
    id = Identifier(required=True)
    label = fields.String(required=True)
    cost = CostField(required=True, negative=True)
    unit_costs = fields.Dict(keys=fields.String(), values=CostField(negative=True), load_default=dict)
    gains = fields.Nested(GainsSchema, load_default=None)
    requires = fields.List(
        fields.String(validate=validate.Regexp(r"^[^/]+/[^/]+$", error="not 'section/option'")),
        load_default=(),
    )
    command = fields.String(load_default=None)
    elite_only = fields.Boolean(load_default=False)
    extra = fields.Dict(keys=fields.String(), load_default=dict)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> UpgradeOption:
        data["gains"] = data["gains"] or Gains()
        data["requires"] = tuple(data["requires"])
        return UpgradeOption(**data)


def _pick_bounds(value: Any) -> tuple[int, int | None]:
    """``one`` / ``any`` / N / ``{min, max}`` -> (min, max or None for no upper bound)."""
    if value == "one":
        return 0, 1
    if value == "any":
        return 0, None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return 0, value
    if isinstance(value, dict) and set(value) <= {"min", "max"}:
        low, high = value.get("min", 0), value.get("max")
        if isinstance(low, int) and low >= 0 and (high is None or (isinstance(high, int) and high >= max(low, 1))):
            return low, high
    raise ValidationError("not a pick bound: use one, any, a positive integer or {min, max}")


class PickField(fields.Field):
    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        return _pick_bounds(value)


class ReplacedGearField(fields.Field):
    """One entry of ``replaces``: a gear name, or ``{gear: CCW, count: 2}`` for "replace 2x"."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> tuple[str, int]:
        if isinstance(value, str) and value.strip():
            return value, 1
        if isinstance(value, dict) and set(value) == {"gear", "count"}:
            gear, count = value["gear"], value["count"]
            if (
                isinstance(gear, str)
                and gear.strip()
                and isinstance(count, int)
                and not isinstance(count, bool)
                and count >= 1
            ):
                return gear, count
        raise ValidationError("not gear to replace: a name, or {gear: name, count: N}")


class SectionSchema(StrictSchema):
    id = Identifier(required=True)
    label = fields.String(required=True)
    variant = fields.String(required=True, validate=validate.OneOf(["replace", "upgrade", "attachment"]))
    replaces = fields.List(ReplacedGearField(), load_default=())
    targets = fields.List(fields.String(validate=validate.Length(min=1)), load_default=())
    affects = fields.String(
        load_default=AFFECTS_UNIT,
        validate=validate.OneOf([AFFECTS_UNIT, AFFECTS_ONE, AFFECTS_ALL, AFFECTS_UP_TO, AFFECTS_ANY]),
    )
    affects_count = positive_int(load_default=None)
    pick = PickField(load_default=(0, 1))
    options = fields.List(fields.Nested(OptionSchema), required=True, validate=validate.Length(min=1))

    @validates_schema
    def check_shape(self, data: dict[str, Any], **_: Any) -> None:
        if data["variant"] == "replace" and not data["replaces"]:
            raise ValidationError("a replace section names what it replaces", "replaces")
        if data["variant"] != "replace" and data["replaces"]:
            raise ValidationError("only replace sections replace anything", "replaces")
        if data["variant"] == "attachment" and not data["targets"]:
            raise ValidationError("an attachment section names the gear it attaches to", "targets")
        if data["variant"] == "replace" and data["targets"]:
            raise ValidationError(
                "a replace section is tied to what it replaces; targets go with upgrade or attachment", "targets"
            )
        if any(o.gains.weapon_rules for o in data["options"]) and not data["targets"]:
            raise ValidationError("weapon_rules change targeted weapons: give the section targets", "options")
        if (data["affects"] == AFFECTS_UP_TO) != (data["affects_count"] is not None):
            raise ValidationError("affects_count goes with affects: up_to, and only there", "affects_count")
        ids = [o.id for o in data["options"]]
        if len(ids) != len(set(ids)):
            raise ValidationError("option ids repeat within the section", "options")

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> UpgradeSection:
        pick_min, pick_max = data.pop("pick")
        return UpgradeSection(
            id=data["id"],
            label=data["label"],
            variant=data["variant"],
            affects=data["affects"],
            options=tuple(data["options"]),
            replaces=tuple(gear for gear, _ in data["replaces"]),
            affects_count=data["affects_count"],
            pick_max=pick_max,
            pick_min=pick_min,
            replace_counts={gear: count for gear, count in data["replaces"] if count != 1},
            targets=tuple(data["targets"]),
        )


class UnitSchema(StrictSchema):
    """Common unit fields; a family adds its stats and lists them in ``STAT_FIELDS``, and in
    ``DERIVED_STATS`` the stats its ``make`` adds to ``Unit.stats`` from them (so the API's
    document can declare every key a unit's ``stats`` holds)."""

    STAT_FIELDS: ClassVar[tuple[str, ...]] = ()
    DERIVED_STATS: ClassVar[dict[str, fields.Field]] = {}

    id = Identifier(required=True)
    name = fields.String(required=True, validate=validate.Length(min=1))
    size = positive_int(required=True)
    cost = CostField(required=True)
    rules = rule_list()
    weapons = fields.List(fields.Nested(WeaponSchema), load_default=())
    items = fields.List(fields.Nested(ItemSchema), load_default=())
    upgrades = fields.List(fields.String(), load_default=())
    description = fields.String(load_default="")
    tags = fields.List(fields.String(), load_default=())

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Unit:
        stats = _split_extra(data, self.STAT_FIELDS)
        size = data["size"]
        return Unit(
            id=data["id"],
            name=data["name"],
            size=size,
            cost=data["cost"],
            stats=stats,
            rules=tuple(data["rules"]),
            weapons=tuple(w.with_count(w.count or size) for w in data["weapons"]),
            items=tuple(i.with_count(i.count or size) for i in data["items"]),
            upgrades=tuple(data["upgrades"]),
            description=data["description"],
            tags=tuple(data["tags"]),
        )


def book_schema(unit_schema: type[UnitSchema], name: str) -> type[StrictSchema]:
    """The schema of a whole army-book file whose units follow *unit_schema*."""

    class BookSchema(StrictSchema):
        id = Identifier(required=True)
        system = fields.String(required=True)
        name = fields.String(required=True)
        faction = fields.String(required=True)
        version = fields.String(required=True)
        description = fields.String(required=True)
        rules = fields.List(fields.Nested(RuleDefinitionSchema), load_default=())
        spells = fields.List(fields.Nested(SpellSchema), load_default=())
        units = fields.List(fields.Nested(unit_schema), required=True, validate=validate.Length(min=1))
        upgrades = fields.List(fields.Nested(SectionSchema), load_default=())
        undefined_rules = fields.List(fields.String(validate=validate.Length(min=1)), load_default=())
        extra = fields.Dict(keys=fields.String(), load_default=dict)

        @pre_load
        def version_as_text(self, data: Any, **_: Any) -> Any:
            # YAML reads `version: 1.0` as a float; a version is a label, so accept and keep it.
            if isinstance(data, dict) and isinstance(data.get("version"), (int, float)):
                data = {**data, "version": str(data["version"])}
            return data

        @post_load
        def make(self, data: dict[str, Any], **_: Any) -> ArmyBook:
            return ArmyBook(
                id=data["id"],
                system=data["system"],
                name=data["name"],
                version=data["version"],
                faction=data["faction"],
                description=data["description"],
                units=tuple(data["units"]),
                sections={s.id: s for s in data["upgrades"]},
                rules={r.name: r for r in data["rules"]},
                spells=tuple(data["spells"]),
                extra=data["extra"],
                undefined_rules=tuple(data["undefined_rules"]),
            )

    BookSchema.__name__ = name
    return BookSchema


class ImportedBooksSchema(StrictSchema):
    """``imported_books`` of a ``_system.yaml``: how books written for Army Forge's editions
    read under this system's rules (see :mod:`listbuilder.books.editions`)."""

    edition = fields.String(load_default="")
    same = fields.List(fields.String(), load_default=())
    changes = fields.List(fields.String(), load_default=())

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        return {"edition": data["edition"], "same": tuple(data["same"]), "changes": tuple(data["changes"])}


def system_schema(composition_schema: type[StrictSchema], name: str) -> type[StrictSchema]:
    """The schema of a ``_system.yaml`` file with a family's composition parameters."""

    class SystemSchema(StrictSchema):
        id = Identifier(required=True)
        name = fields.String(required=True)
        family = fields.String(required=True)
        edition = fields.String(required=True)
        rulebook = fields.String(required=True)
        description = fields.String(required=True)
        composition = fields.Nested(composition_schema, required=True)
        notes = fields.List(fields.String(), load_default=())
        spells = fields.List(fields.Nested(SpellSchema), load_default=())
        rules = fields.List(fields.Nested(RuleDefinitionSchema), required=True)
        imported_books = fields.Nested(ImportedBooksSchema, load_default=None)

        @post_load
        def make(self, data: dict[str, Any], **_: Any) -> GameSystem:
            return GameSystem(
                id=data["id"],
                name=data["name"],
                family=data["family"],
                rulebook=data["rulebook"],
                edition=data["edition"],
                description=data["description"],
                glossary={r.name: r for r in data["rules"]},
                composition=data["composition"],
                spells=tuple(data["spells"]),
                notes=tuple(data["notes"]),
                imported_books=data["imported_books"] or {},
            )

    SystemSchema.__name__ = name
    return SystemSchema

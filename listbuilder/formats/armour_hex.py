"""Army-book and system-file schemas for the armour-hex family (rulebook 004).

Why a family schema: an armour-hex unit is not an OPR profile. It has a type (infantry,
cavalry, vehicle) with a BIO marker that decides whether poison and healing touch it, a size
class (tiny ... huge) that changes how easily it is hit and whether the opponent must be told
about it, speeds that each allow their own orders, stats split by facing
``[front, front-side, back-side, back]``, an assault profile, and damage *tables* (regular,
psychic, crew) instead of a toughness number. Weapons carry armour penetration, damage dice,
firing angles, ammunition and the hand slot they take on an infantry model.

Where things land (so the core model keeps one shape):

- unit profile -> ``Unit.stats`` (``unit_type``, ``bio``, ``size_class``, ``speeds``,
  ``armour``, ``assault``, ``deflection``, ``damage_tables``, ``fire_orders``, ``hand_slots``,
  ``shared_slots``); ``Unit.size`` stays the model count (1, 2 or 4);
- weapon profile -> ``Weapon.extra`` (``ap``, ``damage``, ``damage_type``, ``extra_damage``,
  ``angles``, ``load``, ``burst``, ``limited_ammo``, ``hands``), items -> ``Item.extra``
  (``hands``);
- an elite option (a model that replaces a regular one) -> ``UpgradeOption.extra["elite"]``;
- the book's nation -> ``ArmyBook.extra["nation"]``.

The schemas check shape only (types, forms, four facings). Everything that cites a clause of
the rulebook (allowed currencies, known orders and speeds, ability parameters, elite sections)
lives in ``listbuilder/systems/armour_hex*.py`` so each rule has one place and one test.
Upgrade sections get their own subclasses because the shared section schema reads gains
with the plain weapon schema, which would refuse AP, damage dice and hand slots.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, ClassVar

from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from listbuilder.families import ARMOUR_HEX
from listbuilder.formats.books import (
    GainsSchema,
    ItemSchema,
    OptionSchema,
    SectionSchema,
    UnitSchema,
    WeaponSchema,
    book_schema,
    system_schema,
)
from listbuilder.formats.fields import StrictSchema, WholeNumber, non_negative_int, positive_int
from listbuilder.model import ArmyBook, UpgradeOption

CURRENCIES: tuple[str, ...] = ("ip", "mp", "cp", "xp")
UNIT_TYPES: tuple[str, ...] = ("infantry", "cavalry", "vehicle")
SIZE_CLASSES: tuple[str, ...] = ("tiny", "small", "medium", "large", "huge")
HANDS: tuple[str, ...] = ("two_handed", "one_handed", "independent", "shared")
FACINGS: tuple[str, ...] = ("front", "front_side", "back_side", "back")

# "d6", "2d6", "d6-1", "d8+2", or a fixed number such as "3".
DICE = re.compile(r"^(?:(?P<count>[1-9]\d?)?d(?P<sides>4|6|8|10|12|20)(?P<mod>[+-]\d{1,2})?|(?P<fixed>\d{1,2}))$")


def parse_dice(text: str) -> tuple[int, int, int]:
    """``"2d6-1"`` -> (2, 6, -1); a fixed ``"3"`` -> (0, 0, 3). Raises ValueError otherwise."""
    match = DICE.match(text.strip()) if isinstance(text, str) else None
    if not match:
        raise ValueError(f"not a dice expression such as 'd6', '2d6' or 'd6-1': {text!r}")
    if match.group("fixed") is not None:
        return 0, 0, int(match.group("fixed"))
    return int(match.group("count") or 1), int(match.group("sides")), int(match.group("mod") or 0)


class DiceField(fields.Field):
    """Damage dice as the rulebook writes them (``d6-1``); kept as the normalised text."""

    OPENAPI: ClassVar[dict[str, Any]] = {"type": ["string", "integer"], "description": "dice such as d6-1, or a number"}
    OPENAPI_OUT: ClassVar[dict[str, Any]] = {"type": "string", "description": "dice such as d6-1"}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        try:
            parse_dice(value)
        except ValueError as exc:
            raise ValidationError(str(exc)) from exc
        return value.strip()


class FacingsField(fields.Field):
    """A stat split by facing ``[front, front-side, back-side, back]`` of non-negative ints.

    004 Angles: a stat that is not split in four is the same from every side, so a single
    number is accepted and spread over the four facings.
    """

    OPENAPI_OUT: ClassVar[dict[str, Any]] = {
        "type": "array",
        "items": {"type": "integer", "minimum": 0},
        "minItems": 4,
        "maxItems": 4,
        "description": "front, front-side, back-side, back",
    }
    OPENAPI: ClassVar[dict[str, Any]] = {"oneOf": [{"type": "integer", "minimum": 0}, OPENAPI_OUT]}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> tuple[int, ...]:
        if isinstance(value, int) and not isinstance(value, bool):
            value = [value] * 4
        if not isinstance(value, list) or len(value) != 4:
            raise ValidationError("not four facings [front, front-side, back-side, back] (or one number for all)")
        for amount in value:
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
                raise ValidationError(f"facing value {amount!r}: not a non-negative integer")
        return tuple(value)


class AnglesField(fields.Field):
    """Firing angles by facing: ``true``/``false`` for a turning gun, or a number of shots
    for fixed mounts (004 Fixed Weapons: a fixed gun fires only the way it points)."""

    OPENAPI: ClassVar[dict[str, Any]] = {
        "type": "array",
        "items": {"type": ["boolean", "integer"], "minimum": 0},
        "minItems": 4,
        "maxItems": 4,
        "description": "front, front-side, back-side, back: true/false, or a fixed mount's shots",
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> tuple[bool | int, ...]:
        if not isinstance(value, list) or len(value) != 4:
            raise ValidationError("not four firing angles [front, front-side, back-side, back]")
        for angle in value:
            if not isinstance(angle, (bool, int)) or (not isinstance(angle, bool) and angle < 0):
                raise ValidationError(f"firing angle {angle!r}: use true/false or a number of fixed shots")
        if not any(value):
            raise ValidationError("a weapon must be able to fire in at least one facing")
        return tuple(value)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return None if value is None else list(value)  # as JSON has it (also the document's default)


class ExtraDamageSchema(StrictSchema):
    """A second damage roll of another kind, e.g. psychic damage on top of regular (004 Special Damage types)."""

    type = fields.String(required=True)
    dice = DiceField(required=True)


class ArmourHexWeaponSchema(WeaponSchema):
    """A ranged (or melee) weapon; ``attacks`` defaults to one shot per model and fire order."""

    EXTRA_FIELDS: ClassVar[tuple[str, ...]] = (
        "ap",
        "damage",
        "damage_type",
        "extra_damage",
        "angles",
        "load",
        "burst",
        "limited_ammo",
        "hands",
    )

    attacks = positive_int(load_default=1)
    ap = non_negative_int(load_default=0)
    damage = DiceField(required=True)
    damage_type = fields.String(load_default="regular")
    extra_damage = fields.List(fields.Nested(ExtraDamageSchema), load_default=())
    angles = AnglesField(load_default=(True, True, True, True))
    load = positive_int(load_default=1)
    burst = positive_int(load_default=None)
    limited_ammo = positive_int(load_default=None)
    hands = fields.String(load_default=None, validate=validate.OneOf(HANDS))

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Any:
        data["extra_damage"] = tuple((e["type"], e["dice"]) for e in data.get("extra_damage", ()))
        return super().make(data, **kwargs)


class ArmourHexItemSchema(ItemSchema):
    """Equipment that is not a weapon (shield, gas mask, wings); ``hands`` says which slot it takes."""

    EXTRA_FIELDS: ClassVar[tuple[str, ...]] = ("hands",)

    hands = fields.String(load_default=None, validate=validate.OneOf(HANDS))


class AssaultSchema(StrictSchema):
    """Per-model assault profile: dice by facing, the roll that hits, AP and damage (004 Assault)."""

    dice = FacingsField(required=True)
    hit = WholeNumber(required=True, validate=validate.Range(min=2, max=7, error="not a target from 2+ to 7+"))
    ap = non_negative_int(load_default=0)
    damage = DiceField(required=True)
    damage_type = fields.String(load_default="regular")
    rules = fields.List(fields.String(), load_default=())


class DeflectionSchema(StrictSchema):
    """Per-model assault deflection: dice by facing and the roll that deflects (004 Assault)."""

    dice = FacingsField(required=True)
    hit = WholeNumber(required=True, validate=validate.Range(min=2, max=7, error="not a target from 2+ to 7+"))


class SpeedSchema(StrictSchema):
    """One speed the unit can be at and the orders it allows there (004 Orders)."""

    speed = fields.String(required=True)
    movement = fields.List(fields.String(), required=True, validate=validate.Length(min=1))
    gunnery = fields.List(fields.String(), load_default=("-",))
    default = fields.String(load_default=None)  # the order a shaken unit carries out (004 Shaken)


class DamageRowSchema(StrictSchema):
    """One line of a damage table: from this result up, apply these effects (004 Damage Table)."""

    at = positive_int(required=True)
    effects = fields.List(fields.String(), required=True, validate=validate.Length(min=1))


class ArmourHexUnitSchema(UnitSchema):
    """One unit; ``size`` is the model count and ``size_class`` the tiny ... huge class."""

    STAT_FIELDS: ClassVar[tuple[str, ...]] = ARMOUR_HEX.stat_names

    unit_type = fields.String(required=True, data_key="type", validate=validate.OneOf(UNIT_TYPES))
    bio = fields.Boolean(load_default=None)
    size_class = fields.String(required=True, validate=validate.OneOf(SIZE_CLASSES))
    fire_orders = non_negative_int(load_default=1)
    speeds = fields.List(fields.Nested(SpeedSchema), required=True, validate=validate.Length(min=1))
    armour = FacingsField(load_default=None, allow_none=True)
    assault = fields.Nested(AssaultSchema, load_default=None, allow_none=True)
    deflection = fields.Nested(DeflectionSchema, load_default=None, allow_none=True)
    damage_tables = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Nested(DamageRowSchema), validate=validate.Length(min=1)),
        required=True,
    )
    hand_slots = positive_int(load_default=None)
    shared_slots = non_negative_int(load_default=None)
    weapons = fields.List(fields.Nested(ArmourHexWeaponSchema), load_default=())
    items = fields.List(fields.Nested(ArmourHexItemSchema), load_default=())

    @validates_schema
    def check_shape(self, data: dict[str, Any], **_: Any) -> None:
        names = [s["speed"] for s in data.get("speeds", ())]
        if len(names) != len(set(names)):
            raise ValidationError("a speed is listed twice", "speeds")
        for kind, rows in (data.get("damage_tables") or {}).items():
            starts = [row["at"] for row in rows]
            if starts != sorted(set(starts)):
                raise ValidationError(f"{kind}: rows must start at rising results", "damage_tables")

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Any:
        # BIO by default for living troops; a vehicle is machinery unless the book says so.
        if data.get("bio") is None:
            data["bio"] = data["unit_type"] != "vehicle"
        data["speeds"] = tuple(
            {**s, "movement": tuple(s["movement"]), "gunnery": tuple(s["gunnery"])} for s in data["speeds"]
        )
        data["damage_tables"] = {
            kind: tuple({"at": row["at"], "effects": tuple(row["effects"])} for row in rows)
            for kind, rows in data["damage_tables"].items()
        }
        if data.get("assault") is not None:
            data["assault"] = {**data["assault"], "rules": tuple(data["assault"]["rules"])}
        return super().make(data, **kwargs)


class ArmourHexGainsSchema(GainsSchema):
    weapons = fields.List(fields.Nested(ArmourHexWeaponSchema), load_default=())
    items = fields.List(fields.Nested(ArmourHexItemSchema), load_default=())


class ArmourHexOptionSchema(OptionSchema):
    """An option; ``elite: true`` marks a model that replaces a regular one (004 Build your army)."""

    gains = fields.Nested(ArmourHexGainsSchema, load_default=None)
    elite = fields.Boolean(load_default=False)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> UpgradeOption:
        extra = dict(data.get("extra") or {})
        if data.pop("elite", False):
            extra["elite"] = True
        data["extra"] = extra
        return super().make(data, **kwargs)


class ArmourHexSectionSchema(SectionSchema):
    options = fields.List(fields.Nested(ArmourHexOptionSchema), required=True, validate=validate.Length(min=1))


_BaseBook = book_schema(ArmourHexUnitSchema, "_ArmourHexBookBase")


class ArmourHexBookSchema(_BaseBook):  # type: ignore[misc, valid-type]
    """A nation's book: the common book fields plus ``nation`` (kept in ``ArmyBook.extra``)."""

    nation = fields.String(required=True)
    upgrades = fields.List(fields.Nested(ArmourHexSectionSchema), load_default=())

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> ArmyBook:
        nation = data.pop("nation")
        book = super().make(data, **kwargs)
        return replace(book, extra={**book.extra, "nation": nation})


# -- the system file ------------------------------------------------------------------------


class BudgetField(fields.Field):
    """A budget ``{ip: 24, mp: 24}``: only armour-hex currencies, non-negative amounts."""

    # as the OpenAPI document declares it (listbuilder.web.http.openapi reads OPENAPI)
    OPENAPI: ClassVar[dict[str, Any]] = {
        "type": "object",
        "propertyNames": {"enum": list(CURRENCIES)},
        "additionalProperties": {"type": "integer", "minimum": 0},
        "minProperties": 1,
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> dict[str, int]:
        if not isinstance(value, dict) or not value:
            raise ValidationError("not a budget such as {ip: 24}")
        for currency, amount in value.items():
            if currency not in CURRENCIES:
                raise ValidationError(f"not a currency: {currency!r} (use {', '.join(CURRENCIES)})")
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
                raise ValidationError(f"{currency}: not a non-negative integer")
        return {c: int(value.get(c, 0)) for c in CURRENCIES}


class SplitSchema(StrictSchema):
    """Points the player divides freely over some currencies (the asymmetric armour side)."""

    points = positive_int(required=True)
    across = fields.List(
        fields.String(validate=validate.OneOf(CURRENCIES)), required=True, validate=validate.Length(min=2)
    )


class GameModeSchema(StrictSchema):
    id = fields.String(required=True, validate=validate.Regexp(r"^[a-z0-9][a-z0-9-]*$"))
    name = fields.String(required=True)
    description = fields.String(required=True)
    budget = BudgetField(required=True)
    split = fields.Nested(SplitSchema, load_default=None, allow_none=True)

    @validates_schema
    def split_is_free(self, data: dict[str, Any], **_: Any) -> None:
        split = data.get("split")
        if split and any(data["budget"][c] for c in split["across"]):
            raise ValidationError("a split currency has no fixed budget of its own", "split")


class EffectSchema(StrictSchema):
    """A damage-table effect or condition, kept as plain data so the API can show it."""

    name = fields.String(required=True)
    param = fields.String(load_default=None)
    text = fields.String(required=True)


class LoadoutSchema(StrictSchema):
    hand_slots = positive_int(required=True)
    slots = fields.Dict(keys=fields.String(validate=validate.OneOf(HANDS)), values=non_negative_int(), required=True)
    default_weapon = fields.String(required=True, validate=validate.OneOf(HANDS))
    default_item = fields.String(required=True, validate=validate.OneOf(HANDS))
    shared_per_unit = non_negative_int(required=True)
    clause = fields.String(required=True)


class ArmourHexCompositionSchema(StrictSchema):
    currencies = fields.List(fields.String(validate=validate.OneOf(CURRENCIES)), required=True)
    upgrade_currencies = fields.List(fields.String(validate=validate.OneOf(CURRENCIES)), required=True)
    spend = fields.String(required=True, validate=validate.OneOf(["at_most", "below"]))
    budget_clause = fields.String(required=True)
    default_mode = fields.String(required=True)
    game_modes = fields.List(fields.Nested(GameModeSchema), required=True, validate=validate.Length(min=1))
    model_counts = fields.List(positive_int(), required=True)
    nations = fields.List(fields.String(), required=True)
    speeds = fields.List(fields.String(), required=True)
    movement_orders = fields.List(fields.String(), required=True)
    gunnery_orders = fields.List(fields.String(), required=True)
    terrain = fields.List(fields.String(), required=True)
    damage_tables = fields.List(fields.String(), required=True)
    damage_types = fields.List(fields.String(), required=True)
    damage_effects = fields.List(fields.Nested(EffectSchema), required=True)
    loadout = fields.Nested(LoadoutSchema, required=True)
    huge = fields.Dict(keys=fields.String(), values=fields.String(), required=True)

    @validates_schema
    def default_mode_exists(self, data: dict[str, Any], **_: Any) -> None:
        ids = [m["id"] for m in data.get("game_modes", ())]
        if len(ids) != len(set(ids)):
            raise ValidationError("game mode ids repeat", "game_modes")
        if data.get("default_mode") not in ids:
            raise ValidationError(f"not one of the game modes {ids}", "default_mode")


ArmourHexSystemSchema = system_schema(ArmourHexCompositionSchema, "ArmourHexSystemSchema")

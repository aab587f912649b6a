"""Army-book and system-file schemas for the ancients-hex family (rulebook 003).

Why a family schema: an ancients-hex unit card is not an OPR profile. It has a class that
fixes its activation number (hero 3, troops 5, beast 7), a single- or multi-figure footprint
on one or two hexes, a ``first/total`` move, dice pools (attack, missile, defence, willpower),
hit points and a keyword-troop flag. Those land in ``Unit.stats`` so the core model keeps one
shape; the dice pools are also turned into ``Weapon`` profiles so generic code (rosters,
combat previews) can read an attack without knowing this family.

The schemas only check shape (types, forms, value ranges, fields that go together). Rules
that cite a clause of the rulebook (SMU only for heroes and non-Massive beasts, activation
number per class, home terrain coverage, attribute parameters) live in
``listbuilder/systems/ancients_hex.py`` so each has one place and one test.

Costs are ``{vp: N}``: the rulebook prices units in points that it also calls VP (kill points
are the VP of the units killed, 7.0.1), and one currency name keeps reports readable.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, ClassVar

from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from listbuilder.families import ANCIENTS_HEX
from listbuilder.formats.books import UnitSchema, book_schema, system_schema
from listbuilder.formats.fields import (
    Identifier,
    RuleDefinitionSchema,
    StrictSchema,
    WholeNumber,
    non_negative_int,
    positive_int,
)
from listbuilder.model import ArmyBook, Unit, Weapon

# 003 §1.1: the activation number follows from the unit's class.
ACTIVATION: dict[str, int] = {"hero": 3, "troops": 5, "beast": 7}
UNIT_CLASSES = tuple(ACTIVATION)
FIGURES = ("SMU", "MMU")
MOVE_PATTERN = re.compile(r"^(\d{1,2})/(\d{1,2})$")


def parse_move(text: str) -> tuple[int, int]:
    """``"3/5"`` -> (3, 5); raises ValueError for anything else or a total below the first."""
    match = MOVE_PATTERN.match(text)
    if not match:
        raise ValueError(f"not a move such as '3/5': {text!r}")
    first, total = int(match.group(1)), int(match.group(2))
    if total < first:
        raise ValueError(f"the total move ({total}) is below the first-action move ({first})")
    return first, total


class AncientsHexUnitSchema(UnitSchema):
    """One unit card. Stats go to ``Unit.stats``; attack and missile dice also become weapons."""

    STAT_FIELDS: ClassVar[tuple[str, ...]] = ANCIENTS_HEX.stat_names
    DERIVED_STATS: ClassVar[dict[str, fields.Field]] = {
        "move_first": WholeNumber(
            metadata={"description": "hexes of the first move action (the part of move before /)"}
        ),
        "move_total": WholeNumber(metadata={"description": "hexes of both move actions (the part of move after /)"}),
    }

    unit_class = fields.String(required=True, data_key="class", validate=validate.OneOf(UNIT_CLASSES))
    activation = WholeNumber(load_default=None, validate=validate.OneOf(sorted(ACTIVATION.values())))
    figures = fields.String(required=True, validate=validate.OneOf(FIGURES))
    hexes = WholeNumber(load_default=1, validate=validate.OneOf([1, 2]))
    move = fields.String(required=True)
    attack = non_negative_int(required=True)
    missile = positive_int(load_default=None, allow_none=True)
    missile_range = positive_int(load_default=None, allow_none=True)
    defence = non_negative_int(required=True)
    willpower = non_negative_int(required=True)
    hit_points = positive_int(required=True)
    keyword = fields.Boolean(load_default=False)
    spell_roles = fields.List(Identifier(), load_default=())

    @validates_schema(skip_on_field_errors=True)
    def check_shape(self, data: dict[str, Any], **_: Any) -> None:
        try:
            parse_move(data["move"])
        except ValueError as exc:
            raise ValidationError(str(exc), "move") from None
        if (data["missile"] is None) != (data["missile_range"] is None):
            # A missile pool without a range (or the reverse) cannot be shot; one needs the other.
            raise ValidationError("missile dice and missile_range go together (both or neither)", "missile_range")
        if data["activation"] is not None and data["activation"] != ACTIVATION[data["unit_class"]]:
            raise ValidationError(
                f"a {data['unit_class']} unit activates on {ACTIVATION[data['unit_class']]}, not {data['activation']}",
                "activation",
            )
        if data["weapons"]:
            raise ValidationError(
                "ancients-hex units have no weapon list: use attack, missile and missile_range", "weapons"
            )

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Unit:
        unit: Unit = UnitSchema.make(self, data, **kwargs)
        stats = dict(unit.stats)
        stats["activation"] = ACTIVATION[stats["unit_class"]]
        first, total = parse_move(stats["move"])
        stats["move_first"], stats["move_total"] = first, total
        stats["spell_roles"] = list(stats.get("spell_roles", ()))
        return replace(unit, stats=stats, weapons=derived_weapons(stats, unit.size))


def derived_weapons(stats: dict[str, Any], size: int) -> tuple[Weapon, ...]:
    """The unit's dice pools as weapon profiles (range in hexes), for roster and combat code.

    The whole unit rolls one pool (a unit card gives dice per unit, not per figure), so each
    profile has ``count`` 1 whatever the figure count.
    """
    out: list[Weapon] = []
    if stats["attack"]:
        out.append(Weapon("Close combat", stats["attack"], 0, (), 1, {"pool": "attack"}))
    if stats.get("missile"):
        out.append(
            Weapon("Missile", stats["missile"], stats["missile_range"], (), 1, {"pool": "missile", "range_unit": "hex"})
        )
    return tuple(out)


class HomeTerrainRowSchema(StrictSchema):
    """One row of a home terrain table: the card values that place this terrain type."""

    cards = fields.List(
        WholeNumber(validate=validate.Range(min=1, max=10, error="not a card value from 1 to 10")),
        required=True,
        validate=validate.Length(min=1),
    )
    terrain = Identifier(required=True)


class AncientsHexBookSchema(book_schema(AncientsHexUnitSchema, "AncientsHexBookBase")):  # type: ignore[misc]
    """Adds the book-level facts of 003: army special rule, expansion number, home terrain.

    They are typed fields (not free ``extra:`` keys) so a typo is an error; after loading they
    are kept in ``ArmyBook.extra`` as plain JSON-ready values, which the API shows unchanged.
    """

    army_rule = fields.Nested(RuleDefinitionSchema, required=True)
    expansion = WholeNumber(
        required=True, validate=validate.Range(min=1, max=5, error="not an expansion number from 1 to 5")
    )
    home_terrain = fields.List(fields.Nested(HomeTerrainRowSchema), required=True, validate=validate.Length(min=1))

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> ArmyBook:
        own = {name: data.pop(name) for name in ("army_rule", "expansion", "home_terrain")}
        clash = set(own) & set(data.get("extra") or {})
        if clash:
            raise ValidationError(f"{sorted(clash)} are book fields, not extra keys", "extra")
        book: ArmyBook = super().make(data, **kwargs)
        rule = own["army_rule"]
        extra = {
            **book.extra,
            "army_rule": {"name": rule.name, "text": rule.text, "mentions": list(rule.mentions)},
            "expansion": own["expansion"],
            "home_terrain": [{"cards": list(row["cards"]), "terrain": row["terrain"]} for row in own["home_terrain"]],
        }
        return replace(book, extra=extra)


# -- the system file ---------------------------------------------------------------------------


class PointsSchema(StrictSchema):
    default = positive_int(required=True)
    suggested = fields.List(positive_int(), load_default=())
    clause = fields.String(required=True)


class OverageSchema(StrictSchema):
    """The 405 rule: a few points over the limit are allowed, paid for in opponent VP."""

    allowance = non_negative_int(required=True)
    points_per_vp = positive_int(required=True)
    clause = fields.String(required=True)


class KeywordSchema(StrictSchema):
    """Keyword troops: ``minimum`` points of them per ``per_points`` of limit, scaled up."""

    minimum = positive_int(required=True)
    per_points = positive_int(required=True)
    clause = fields.String(required=True)


class TerrainSchema(StrictSchema):
    id = Identifier(required=True)
    name = fields.String(required=True)
    max_hexes = positive_int(load_default=None, allow_none=True)


class AttributeLimitSchema(StrictSchema):
    """At most ``max_units`` units of one army may carry the attribute ``rule`` (Spy, 9)."""

    rule = fields.String(required=True)
    max_units = positive_int(required=True)
    clause = fields.String(required=True)


class AncientsHexCompositionSchema(StrictSchema):
    points = fields.Nested(PointsSchema, required=True)
    overage = fields.Nested(OverageSchema, required=True)
    keyword = fields.Nested(KeywordSchema, required=True)
    activation = fields.Dict(
        keys=fields.String(validate=validate.OneOf(UNIT_CLASSES)), values=positive_int(), required=True
    )
    magician_rule = fields.String(required=True)
    attachment_rule = fields.String(required=True)
    advance_rules = fields.List(fields.String(), required=True, validate=validate.Length(min=1))
    attribute_limits = fields.List(fields.Nested(AttributeLimitSchema), load_default=())
    terrain = fields.List(fields.Nested(TerrainSchema), required=True, validate=validate.Length(min=1))

    @validates_schema(skip_on_field_errors=True)
    def check_activation(self, data: dict[str, Any], **_: Any) -> None:
        # The activation table must cover each class once; the loader derives numbers from it.
        if set(data["activation"]) != set(UNIT_CLASSES):
            raise ValidationError(f"give an activation number for each of {list(UNIT_CLASSES)}", "activation")


AncientsHexSystemSchema = system_schema(AncientsHexCompositionSchema, "AncientsHexSystemSchema")

__all__ = [
    "ACTIVATION",
    "AncientsHexBookSchema",
    "AncientsHexSystemSchema",
    "AncientsHexUnitSchema",
    "parse_move",
]

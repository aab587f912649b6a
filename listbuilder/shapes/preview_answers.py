"""Combat preview answers as the OpenAPI document declares them: the parts every family sends
alike (a side as it fights, a distribution, a loadout comparison's option) and
:class:`FamilyAnswers`, what one rules family's answers hold beyond them.

Every answer is built by the engines as plain JSON (``listbuilder.combat.service``) and sent as
it is: these schemas only describe it, and the tests check every answer against them (ajv,
``tests/answer_schemas.py``). A family's record names its :class:`FamilyAnswers` as the part
``answers``; ``listbuilder.web.http.openapi_families`` makes one variant of each answer per
family from it, so a client narrows an answer on its ``system`` (or a system on its
``family``) and reads that family's keys with their types.
"""

from __future__ import annotations

from dataclasses import dataclass

from marshmallow import fields

from listbuilder.formats.fields import OutSchema
from listbuilder.shapes.api import UnitStats


class DistributionOut(OutSchema):
    """A count's exact distribution (``dice.Dist.as_dict``)."""

    mean = fields.Float()
    pmf = fields.Dict(keys=fields.String(), values=fields.Float(), metadata={"description": "outcome -> probability"})
    at_least = fields.Dict(
        keys=fields.String(), values=fields.Float(), metadata={"description": "N -> probability of at least N"}
    )


def distribution(description: str | None = None) -> fields.Nested:
    """A field holding one :class:`DistributionOut`."""
    return fields.Nested(DistributionOut, metadata={"description": description} if description else {})


class SideWeaponOut(OutSchema):
    name = fields.String()
    count = fields.Integer()
    label = fields.String(metadata={"description": 'as printed: 16× Ash Rifle (24", A1)'})


class SideOut(OutSchema):
    """A side as it hits the table (``Combatant.summary``): a combined pair merged, joined heroes in ``heroes``."""

    SOMETIMES = frozenset({"heroes"})

    name = fields.String()
    unit = fields.String(metadata={"description": "the unit's id (profile for an inline one)"})
    source = fields.String(metadata={"description": "book, list or profile"})
    models = fields.Integer()
    stats = UnitStats(metadata={"description": "the unit's profile in its family's stats"})
    rules = fields.List(fields.String(), metadata={"description": "rules after upgrades, as labels"})
    weapons = fields.List(fields.Nested(SideWeaponOut))
    heroes = fields.List(
        fields.Nested(lambda: SideOut()),
        metadata={"description": "heroes joined to the unit, each as a side of its own"},
    )


class ChosenOut(OutSchema):
    section = fields.String()
    option = fields.String()
    count = fields.Integer()


class CompareUnitOut(OutSchema):
    book = fields.String()
    unit = fields.String()
    name = fields.String()


class CompareOptionOut(OutSchema):
    label = fields.String()
    upgrades = fields.List(fields.Nested(ChosenOut), metadata={"description": "the option's upgrades as given"})
    cost = fields.Dict(
        keys=fields.String(), values=fields.Integer(), metadata={"description": "the unit's cost with these upgrades"}
    )
    points = fields.Integer(metadata={"description": "the cost vector's sum"})
    expected_wounds = fields.Float()
    p_destroyed = fields.Float()
    wounds_per_100_points = fields.Float(
        allow_none=True, metadata={"description": "expected wounds per 100 points (null for a free unit)"}
    )
    notes = fields.List(fields.String())
    unmodelled = fields.List(
        fields.String(), metadata={"description": "rules on either side the preview does not model"}
    )


@dataclass(frozen=True)
class FamilyAnswers:
    """What one family's answers hold beyond the shared shape, each an :class:`OutSchema`
    whose fields replace the shared answer's loosely typed ones: ``preview`` for
    ``POST /previews`` and a loadout comparison (its ``situation``), ``turn`` for
    ``POST /previews/turn``, ``system`` for ``GET /systems/<id>`` (``composition``, ``limits``).
    A family without a record part ``answers`` (or without one of these) is declared with
    the shared, loose shape."""

    preview: type[OutSchema] | None = None
    turn: type[OutSchema] | None = None
    system: type[OutSchema] | None = None

"""What the OPR family's answers hold (``listbuilder.combat.opr``; docs/combat.md, "Response"):
one attack's odds and consequences, a whole turn's, and a system's army-building limits.

The word a failed morale test leaves a unit in is the dialect's (Shaken, or Wavering in
Age of Fantasy), and so is the key of its chance (``p_shaken``, ``p_wavering``): both are read
from the dialects, so a new dialect's word is declared with it.
"""

from __future__ import annotations

from marshmallow import fields, validate

from listbuilder.combat.opr import DIALECTS
from listbuilder.formats.fields import OutSchema
from listbuilder.formats.opr import OprCompositionSchema
from listbuilder.shapes.preview_answers import FamilyAnswers, distribution
from listbuilder.shapes.previews import OneOfSchemas, OprSituationSchema, OprTurnSituationSchema

_STATES = sorted({d.shaken for d in DIALECTS.values()})


class OprExpectedOut(OutSchema):
    hits = fields.Float(metadata={"description": "every hit scored, after multipliers"})
    wounds = fields.Float(metadata={"description": "wounds the defender really suffered"})
    models_killed = fields.Float()


class OprDistributionsOut(OutSchema):
    hits = distribution()
    wounds = distribution()
    models_killed = distribution()


class OprAttackOut(OutSchema):
    """One side's attack: what it is expected to do, each count's distribution, and the
    chance it destroys the other side."""

    expected = fields.Nested(OprExpectedOut)
    distributions = fields.Nested(OprDistributionsOut)
    p_destroyed = fields.Float()


def _morale_fields() -> dict[str, fields.Field]:
    chances = {
        f"p_{state.lower()}": fields.Float(
            metadata={"description": f"the chance it becomes {state} (its dialect's word)"}
        )
        for state in _STATES
    }
    return {
        "p_test": fields.Float(metadata={"description": "the chance it takes a morale test"}),
        "p_rout": fields.Float(metadata={"description": "the chance it fails and routs"}),
        **chances,
        "state_on_fail": fields.String(
            validate=validate.OneOf(_STATES), metadata={"description": "the state a failed test leaves it in"}
        ),
    }


class OprMoraleOut(OutSchema.from_dict(_morale_fields())):  # type: ignore[misc]
    """A side's morale test: ``p_shaken`` or ``p_wavering``, whichever word its dialect uses."""

    SOMETIMES = frozenset(f"p_{state.lower()}" for state in _STATES)


class OprMeleeMoraleOut(OutSchema):
    attacker = fields.Nested(OprMoraleOut)
    defender = fields.Nested(OprMoraleOut)


class OprMeleeOut(OutSchema):
    p_attacker_wins = fields.Float()
    p_defender_wins = fields.Float()
    p_tie = fields.Float()


class OprPickOut(OutSchema):
    """The model a Sniper or Takedown attack went at (``situation.pick``)."""

    name = fields.String()
    hero = fields.Boolean(metadata={"description": "whether it is a joined hero"})
    place = fields.Integer(metadata={"description": "its place in the wound order, 0 = the next model"})
    p_killed = fields.Float(metadata={"description": "the chance it is dead after the attack"})


class OprShootingConsequencesOut(OutSchema):
    """After shooting: the defender's morale test (and the picked model, with a ``pick``)."""

    SOMETIMES = frozenset({"pick"})

    morale = fields.Nested(OprMoraleOut)
    pick = fields.Nested(OprPickOut)


class OprMeleeMixOut(OutSchema):
    """A melee's result and what follows it."""

    melee = fields.Nested(OprMeleeOut, metadata={"description": "who wins the melee"})
    morale = fields.Nested(OprMeleeMoraleOut)
    p_defender_removed = fields.Float(metadata={"description": "destroyed or routed"})
    p_attacker_destroyed = fields.Float()


class OprMeleeConsequencesOut(OprMeleeMixOut):
    """After a melee: its result, both sides' morale, the attacker's losses (``strike_back``)
    and the picked model, with a ``pick``."""

    SOMETIMES = frozenset({"pick"})

    strike_back = fields.Nested(
        OprAttackOut, metadata={"description": "the attacker's losses in this melee (Counter, strike-back)"}
    )
    pick = fields.Nested(OprPickOut)


class OprNoMeleeOut(OutSchema):
    """No melee at all: the target never survived the shooting to be charged."""


class OprPreviewAnswer(OutSchema):
    situation = fields.Nested(OprSituationSchema, metadata={"description": "the situation after defaults"})
    expected = fields.Nested(OprExpectedOut)
    distributions = fields.Nested(OprDistributionsOut)
    consequences = OneOfSchemas(
        {"shooting": OprShootingConsequencesOut, "melee": OprMeleeConsequencesOut},
        metadata={"description": "a shooting's (morale) or a melee's (result, morale, strike-back)"},
    )


class OprTurnExpectedOut(OutSchema):
    wounds = fields.Float()
    models_killed = fields.Float()


class OprTurnDistributionsOut(OutSchema):
    wounds = distribution()
    models_killed = distribution()


class OprTurnConsequencesOut(OutSchema):
    p_charge = fields.Float(metadata={"description": "the target survived the shooting and is charged"})
    p_defender_removed = fields.Float(metadata={"description": "destroyed, or routed by the melee"})
    p_attacker_destroyed = fields.Float(metadata={"description": "by strike-back and Phalanx tests"})
    melee_if_charged = OneOfSchemas(
        {"melee": OprMeleeMixOut, "none": OprNoMeleeOut},
        metadata={"description": "the melee given a charge happens (empty when it never does)"},
    )
    attacker_wounds_taken = distribution("wounds the attacker takes in the charge")


class OprShootingStepOut(OprAttackOut):
    consequences = fields.Nested(OprShootingConsequencesOut)


class OprChargeStepOut(OutSchema):
    expected_hits = fields.Float(metadata={"description": "given the target survived the shooting"})


class OprTurnStepsOut(OutSchema):
    shooting = fields.Nested(
        OprShootingStepOut,
        allow_none=True,
        metadata={"description": "the shooting alone; null when the attacker has no ranged weapon and only charges"},
    )
    charge = fields.Nested(OprChargeStepOut)


class OprTurnAnswer(OutSchema):
    situation = fields.Nested(OprTurnSituationSchema, metadata={"description": "the situation after defaults"})
    expected = fields.Nested(OprTurnExpectedOut)
    distributions = fields.Nested(OprTurnDistributionsOut)
    consequences = fields.Nested(OprTurnConsequencesOut)
    steps = fields.Nested(OprTurnStepsOut)


class OprForceOrgLimitsOut(OutSchema):
    """The force organisation's limits at one army size."""

    heroes = fields.Integer()
    copies = fields.Integer(metadata={"description": "copies of one unit"})
    unit_points = fields.Integer(metadata={"description": "the most one unit may cost"})
    units = fields.Integer()


class OprLimitsOut(OutSchema):
    force_org_available = fields.Boolean()
    force_org_default = fields.Boolean()
    force_org_examples = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(OprForceOrgLimitsOut),
        metadata={"description": "army size in points -> the force organisation's limits there"},
    )


class OprSystemAnswer(OutSchema):
    composition = fields.Nested(OprCompositionSchema, metadata={"description": "the system's army-building parameters"})
    limits = fields.Nested(OprLimitsOut, metadata={"description": "the force organisation at the suggested sizes"})


OPR_ANSWERS = FamilyAnswers(preview=OprPreviewAnswer, turn=OprTurnAnswer, system=OprSystemAnswer)

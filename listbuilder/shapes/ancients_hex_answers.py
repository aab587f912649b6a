"""What the ancients-hex family's answers hold (``listbuilder.combat.ancients_hex``;
docs/combat-hex.md, "ancients-hex"): one close combat's or missile fire's odds and
consequences, and a system's points limits at its suggested sizes."""

from __future__ import annotations

from marshmallow import fields, validate

from listbuilder.formats.ancients_hex import AncientsHexCompositionSchema
from listbuilder.formats.fields import OutSchema
from listbuilder.shapes.hex_situations import AncientsHexSituationSchema
from listbuilder.shapes.preview_answers import FamilyAnswers, distribution

_LAST_GASP = frozenset({"attacker_hp_lost"})  # sent only when the defender fights back (Last Gasp)


class AncientsHexExpectedOut(OutSchema):
    SOMETIMES = _LAST_GASP

    hits = fields.Float()
    blocks = fields.Float()
    damage = fields.Float(metadata={"description": "hits beyond the blocks"})
    hp_lost = fields.Float(metadata={"description": "hit points the defender loses"})
    attacker_hp_lost = fields.Float(metadata={"description": "Last Gasp: hit points the attacker loses"})


class AncientsHexDistributionsOut(OutSchema):
    SOMETIMES = _LAST_GASP

    hits = distribution()
    blocks = distribution()
    damage = distribution()
    hp_lost = distribution()
    attacker_hp_lost = distribution()


class AncientsHexRetreatOut(OutSchema):
    p_retreat = fields.Float(metadata={"description": "the defender falls back"})
    p_extra_hit = fields.Float(metadata={"description": "the defender takes an extra hit instead of falling back"})
    defender_stands = fields.Boolean(metadata={"description": "the defender ignores the retreat"})
    evading = fields.Boolean()


class AncientsHexTerrorOut(OutSchema):
    p_attacker_fails = fields.Float()
    p_defender_fails = fields.Float()


class AncientsHexLastGaspOut(OutSchema):
    with_ = fields.String(data_key="with", validate=validate.OneOf(["defence", "missile"]))
    expected_damage_to_attacker = fields.Float()
    p_attacker_destroyed = fields.Float()
    p_both_destroyed = fields.Float()


class AncientsHexConsequencesOut(OutSchema):
    SOMETIMES = frozenset({"last_gasp"})

    retreat = fields.Nested(AncientsHexRetreatOut)
    p_valid_charge = fields.Float(metadata={"description": "the charge conditions are met"})
    terror = fields.Nested(AncientsHexTerrorOut, metadata={"description": "the chance each side fails its Terror test"})
    hit_points_left = fields.Integer(metadata={"description": "the defender's hit points before the attack"})
    last_gasp = fields.Nested(AncientsHexLastGaspOut, metadata={"description": "when the defender fights back"})


class AncientsHexPreviewAnswer(OutSchema):
    situation = fields.Nested(AncientsHexSituationSchema, metadata={"description": "the situation after defaults"})
    expected = fields.Nested(AncientsHexExpectedOut)
    distributions = fields.Nested(AncientsHexDistributionsOut)
    consequences = fields.Nested(AncientsHexConsequencesOut)


class AncientsHexSizeOut(OutSchema):
    """The limits of one army size."""

    points = fields.Integer()
    keyword_minimum = fields.Integer(metadata={"description": "the least the list spends on keyword troops"})
    legal_up_to = fields.Integer(metadata={"description": "the size plus the allowed overage"})
    opponent_vp_at_most = fields.Integer(metadata={"description": "victory points the overage gives at most"})


class AncientsHexLimitsOut(OutSchema):
    points_default = fields.Integer()
    currency = fields.String(validate=validate.OneOf(["vp"]))
    activation = fields.Dict(
        keys=fields.String(), values=fields.Integer(), metadata={"description": "unit class -> activation number"}
    )
    overage_allowance = fields.Integer()
    limits = fields.Dict(
        keys=fields.String(), values=fields.Nested(AncientsHexSizeOut), metadata={"description": "army size -> limits"}
    )
    keyword_scaling = fields.String(metadata={"description": "how the keyword minimum grows with the size"})


class AncientsHexSystemAnswer(OutSchema):
    composition = fields.Nested(
        AncientsHexCompositionSchema, metadata={"description": "the system's army-building parameters"}
    )
    limits = fields.Nested(AncientsHexLimitsOut, metadata={"description": "points limits at the suggested sizes"})


ANCIENTS_HEX_ANSWERS = FamilyAnswers(preview=AncientsHexPreviewAnswer, system=AncientsHexSystemAnswer)

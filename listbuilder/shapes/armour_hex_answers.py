"""What the armour-hex family's answers hold (``listbuilder.combat.armour_hex``,
``armour_hex_assault``; docs/combat-hex.md, "armour-hex"): a fire's or an assault's odds and
consequences, each its own shape (told apart by their keys: ``to_hit`` and ``shots`` come
with fire, ``advantage`` and ``pools`` with an assault), and a system's game modes."""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import fields, validate

from listbuilder.formats.armour_hex import ArmourHexCompositionSchema
from listbuilder.formats.fields import OutSchema
from listbuilder.shapes.hex_situations import ArmourHexSituationSchema
from listbuilder.shapes.preview_answers import FamilyAnswers, distribution
from listbuilder.shapes.previews import OneOfSchemas


class ArmourHexFireExpectedOut(OutSchema):
    shots = fields.Float()
    hits = fields.Float()
    models_killed = fields.Float()
    future_damage = fields.Float(metadata={"description": "future-damage tokens added"})


class ArmourHexAssaultExpectedOut(OutSchema):
    attacker_successes = fields.Float(metadata={"description": "net of the defender's deflections"})
    defender_successes = fields.Float(metadata={"description": "net of the attacker's deflections"})
    models_killed = fields.Float()
    attacker_models_killed = fields.Float()


class ArmourHexFireDistributionsOut(OutSchema):
    hits = distribution()
    models_killed = distribution()
    future_damage = distribution()


class ArmourHexAssaultDistributionsOut(OutSchema):
    attacker_successes = distribution()
    defender_successes = distribution()
    models_killed = distribution()
    attacker_models_killed = distribution()


class ArmourHexToHitOut(OutSchema):
    needed = fields.Integer(metadata={"description": "the roll that hits on the open-ended d6"})
    modifiers = fields.Dict(
        keys=fields.String(), values=fields.Integer(), metadata={"description": "each modifier that applies, by name"}
    )
    p_hit = fields.Float()
    range_band = fields.String(validate=validate.OneOf(["point_blank", "normal", "long"]))


class ArmourHexArmourOut(OutSchema):
    dice = fields.Integer(metadata={"description": "armour dice after AP"})
    ap = fields.Integer()
    blocked = fields.Float()
    partial = fields.Float()
    penetrated = fields.Float()


class ArmourHexRowOut(OutSchema):
    """One row of the damage table the weapon's damage type reads."""

    table = fields.String()
    at = fields.Integer(metadata={"description": "the damage total that reaches the row"})
    effects = fields.List(fields.String())
    p_per_hit = fields.Float()
    p_per_shot = fields.Float()
    p_at_least_once = fields.Float(metadata={"description": "in the whole volley"})
    expected = fields.Float(metadata={"description": "expected count in the volley"})


class ArmourHexFireConsequencesOut(OutSchema):
    to_hit = fields.Nested(ArmourHexToHitOut)
    armour = fields.Nested(ArmourHexArmourOut)
    damage_table = fields.List(fields.Nested(ArmourHexRowOut))
    p_no_damage_per_hit = fields.Float()
    p_shaken = fields.Float()
    shots = fields.Integer()
    weapon = fields.String(metadata={"description": "the weapon that fired"})


class ArmourHexAdvantageOut(OutSchema):
    p_attacker = fields.Float()
    p_defender = fields.Float()
    p_tie = fields.Float()
    tie_goes_to = fields.String(allow_none=True, validate=validate.OneOf(["attacker", "defender"]))


class ArmourHexRetreatOut(OutSchema):
    p_defender_retreats = fields.Float()
    p_attacker_retreats = fields.Float()
    fight_again = fields.Boolean(metadata={"description": "both sides are Stubborn"})


class ArmourHexPoolOut(OutSchema):
    dice = fields.Integer()
    hit = fields.Integer(metadata={"description": "the roll a die succeeds on"})
    deflection = fields.Integer(metadata={"description": "deflection dice"})
    deflect_hit = fields.Integer()


class ArmourHexPoolsOut(OutSchema):
    attacker = fields.Nested(ArmourHexPoolOut)
    defender = fields.Nested(ArmourHexPoolOut)


class ArmourHexAssaultConsequencesOut(OutSchema):
    advantage = fields.Nested(ArmourHexAdvantageOut)
    retreat = fields.Nested(ArmourHexRetreatOut)
    p_attacker_destroyed = fields.Float()
    pools = fields.Nested(ArmourHexPoolsOut)


class ArmourHexPreviewAnswer(OutSchema):
    situation = fields.Nested(ArmourHexSituationSchema, metadata={"description": "the situation after defaults"})
    expected = OneOfSchemas({"shots": ArmourHexFireExpectedOut, "attacker_successes": ArmourHexAssaultExpectedOut})
    distributions = OneOfSchemas(
        {"hits": ArmourHexFireDistributionsOut, "attacker_successes": ArmourHexAssaultDistributionsOut}
    )
    consequences = OneOfSchemas(
        {"to_hit": ArmourHexFireConsequencesOut, "advantage": ArmourHexAssaultConsequencesOut},
        metadata={"description": "a fire's (to hit, armour, damage table) or an assault's (advantage, pools)"},
    )


class GameModes(fields.List):
    """The game modes as the composition has them (its answer shape, declared there)."""

    OPENAPI: ClassVar[dict[str, Any]] = {
        "type": "array",
        "items": {"$ref": "#/components/schemas/ArmourHexGameModeOut"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(fields.Raw(), **kwargs)


class ArmourHexListLimitsOut(OutSchema):
    model_counts = fields.List(fields.Integer())
    hand_slots = fields.Integer()
    shared_weapons_per_unit = fields.Integer()
    upgrade_currencies = fields.List(fields.String())
    huge_units = fields.String()


class ArmourHexLimitsOut(OutSchema):
    currencies = fields.List(fields.String())
    default_mode = fields.String()
    spend = fields.String(metadata={"description": "how a budget may be spent, in words"})
    game_modes = GameModes()
    custom_budget = fields.String(metadata={"description": "how a list gives a budget of its own"})
    limits = fields.Nested(ArmourHexListLimitsOut)
    notes = fields.List(fields.String())


class ArmourHexSystemAnswer(OutSchema):
    composition = fields.Nested(
        ArmourHexCompositionSchema, metadata={"description": "the system's army-building parameters"}
    )
    limits = fields.Nested(ArmourHexLimitsOut, metadata={"description": "budgets, game modes and loadout limits"})


ARMOUR_HEX_ANSWERS = FamilyAnswers(preview=ArmourHexPreviewAnswer, system=ArmourHexSystemAnswer)

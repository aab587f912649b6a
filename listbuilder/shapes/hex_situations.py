"""The ``situation`` of a hex-family preview: what each engine reads, its defaults and limits.

One schema per family reads the request's situation (``listbuilder.shapes.preview_requests``, step 2)
and, unchanged, describes it in the OpenAPI document, so what the document promises is what
the server checks. A loaded situation is a plain dict with every key filled in, which the
engines turn into their own ``Situation`` (``listbuilder.combat.ancients_hex``,
``listbuilder.combat.armour_hex_situation``); the interpretations behind each key are in
``docs/combat-hex.md``.

The words each key accepts are the engines' own (speeds, facings), read from the core modules:
this module is imported when the first hex preview is read or the document is built, never at
start-up (the families' records in ``listbuilder.families`` name it as ``module:Class``).
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

from listbuilder.combat import ancients_hex as ancients
from listbuilder.combat import armour_hex_situation as armour
from listbuilder.formats.fields import Flag, StrictSchema, WholeNumber


def _count(low: int, high: int, description: str, **kw: Any) -> WholeNumber:
    kw.setdefault("load_default", 0)
    return WholeNumber(
        validate=validate.Range(min=low, max=high, error=f"not a whole number from {low} to {high}"),
        metadata={"description": description},
        **kw,
    )


def _choice(words: tuple[str, ...], description: str, **kw: Any) -> fields.String:
    return fields.String(validate=validate.OneOf(words), metadata={"description": description}, **kw)


def _flag(default: bool | None, description: str) -> Flag:
    return Flag(load_default=default, allow_none=default is None, metadata={"description": description})


class AncientsHexSituationSchema(StrictSchema):
    """How an ancients-hex attack happens (rulebook 003); only ``attack`` is required."""

    attack = _choice(
        (ancients.MELEE, ancients.SHOOTING), "close combat (melee) or missile fire (shooting)", required=True
    )
    range = _count(
        0, 100, "shooting: the distance in hexes (2 up to the missile range)", load_default=None, allow_none=True
    )
    charging = _flag(False, "melee: the attacker moved into contact this activation")
    moved = _flag(False, "shooting: the shooter moved first (disadvantaged, no Volley Fire)")
    attacker_disadvantage = _count(0, 5, "other causes of disadvantage on the attacker's dice (terrain, spells)")
    defender_disadvantage = _count(0, 5, "other causes of disadvantage on the defender's dice")
    no_charge_bonus = _flag(False, "the terrain denies the charge and impact bonus without a disadvantage")
    defender_action = _choice(
        (ancients.DEFEND, ancients.EVADE, ancients.FIGHT_BACK),
        "how the defender answers: defend, evade (needs Evade) or fight_back (Last Gasp)",
        load_default=ancients.DEFEND,
    )
    fight_back_with = _choice(
        ("defence", "missile"), "Last Gasp with defence dice, or missile dice against a charge", load_default="defence"
    )
    attacker_support = _count(0, 6, "adjacent Support partners of the attacker")
    defender_support = _count(0, 6, "adjacent Support partners of the defender")
    attacker_hp_lost = _count(0, 100, "hit points the attacker has already lost")
    defender_hp_lost = _count(0, 100, "hit points the defender has already lost")
    retreat_blocked = _count(0, 3, "hexes the defender cannot fall back into (one extra hit each)")
    defender_stands = _flag(None, "whether a defender that may stand does (null: it stands when it can)")
    critical_hit = _flag(None, "force Critical Hit on or off (null: read the target kind from the card)")
    defender_activated = _flag(False, "the defender has already activated this turn (Flight)")
    terror = _flag(True, "roll the Terror tests (false when they were already taken)")


class ArmourHexSituationSchema(StrictSchema):
    """How an armour-hex fire or assault happens (rulebook 004); only ``attack`` is required."""

    attack = _choice((armour.SHOOTING, armour.ASSAULT), "fire (shooting) or assault", required=True)
    weapon = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(min=1, max=100),
        metadata={"description": "shooting: the weapon that fires (null: the first that can)"},
    )
    range = _count(1, 1000, "shooting: the distance in hexes", load_default=None, allow_none=True)
    attacker_speed = _choice(tuple(armour.SPEED_MODIFIER), "the attacker's speed", load_default="slow")
    defender_speed = _choice(tuple(armour.SPEED_MODIFIER), "the defender's speed", load_default="slow")
    defender_terrain = fields.String(
        load_default="clear",
        validate=validate.Length(min=1, max=100),
        metadata={"description": "the terrain the defender stands in (see the system's composition.terrain)"},
    )
    attacker_in_smoke = _flag(False, "smoke around the shooter")
    defender_in_smoke = _flag(False, "smoke around the target")
    aim = _flag(False, "shooting: the attacker aimed (+2 to hit)")
    on_edge = _flag(False, "shooting: the target is on the edge of the firing angle")
    facing = _choice(armour.FACINGS, "the defender's side that is hit", load_default="front")
    attacker_facing = _choice(armour.FACINGS, "the attacker's side that fires or assaults", load_default="front")
    future_damage = _count(0, 100, "future-damage tokens already on the defender")
    attacker_future_damage = _count(0, 100, "future-damage tokens already on the attacker")
    models_lost = _count(0, 100, "defender models already lost")
    attacker_models_lost = _count(0, 100, "attacker models already lost")
    revealing = _flag(False, "the attacker reveals itself from hiding (+2 to hit, +1 damage)")
    crippled_crew = _flag(False, "the attacker has a crippled crew")
    defender_crippled_crew = _flag(False, "the defender has a crippled crew")
    to_hit_modifier = _count(-10, 10, "any other to-hit modifier")
    tie_winner = _choice(
        ("attacker", "defender"),
        "assault: who wins a tie (null: by nation order, else reported as a tie)",
        load_default=None,
        allow_none=True,
    )

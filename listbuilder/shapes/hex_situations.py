"""The ``situation`` of a hex-family preview: what each engine reads, its defaults and limits.

One schema per family reads the request's situation (``listbuilder.shapes.preview_requests``, step 2)
and, unchanged, describes it in the OpenAPI document, so what the document promises is what
the server checks; with each field's label and ``when`` it is also the builder's preview form
(``listbuilder.shapes.situation_forms``). A loaded situation is a plain dict with every key filled in, which the
engines turn into their own ``Situation`` (``listbuilder.combat.ancients_hex``,
``listbuilder.combat.armour_hex_situation``); the interpretations behind each key are in
``docs/combat-hex.md``.

The words each key accepts are the engines' own (speeds, facings), read from the core modules:
this module is imported when the first hex preview is read, a hex system is read or the
document is built, never at start-up (the families' records in ``listbuilder.families`` name it as ``module:Class``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import fields, validate

from listbuilder.combat import ancients_hex as ancients
from listbuilder.combat import armour_hex_situation as armour
from listbuilder.formats.fields import Flag, StrictSchema, WholeNumber


def _count(low: int, high: int, description: str, form: dict[str, Any] | None = None, **kw: Any) -> WholeNumber:
    kw.setdefault("load_default", 0)
    return WholeNumber(
        validate=validate.Range(min=low, max=high, error=f"not a whole number from {low} to {high}"),
        metadata={"description": description, **(form or {})},
        **kw,
    )


def _choice(words: tuple[str, ...], description: str, form: dict[str, Any] | None = None, **kw: Any) -> fields.String:
    return fields.String(validate=validate.OneOf(words), metadata={"description": description, **(form or {})}, **kw)


def _flag(default: bool | None, description: str, form: dict[str, Any] | None = None) -> Flag:
    return Flag(load_default=default, allow_none=default is None, metadata={"description": description, **(form or {})})


# The builder's preview form (listbuilder.shapes.situation_forms) shows the fields in each
# schema's FORM_ORDER, with the label, `when`, choice words and starting value each field's
# *form* adds to its metadata; HIDDEN leaves a field to the form's JSON box.
HIDDEN: dict[str, Any] = {"form": False}


class AncientsHexSituationSchema(StrictSchema):
    """How an ancients-hex attack happens (rulebook 003); only ``attack`` is required."""

    # The form's order; the fields are declared in the order of the engine's Situation.
    FORM_ORDER: ClassVar[tuple[str, ...]] = (
        "attack",
        "range",
        "moved",
        "charging",
        "defender_action",
        "fight_back_with",
        "attacker_support",
        "defender_support",
        "attacker_disadvantage",
        "defender_disadvantage",
        "defender_hp_lost",
        "attacker_hp_lost",
        "retreat_blocked",
        "terror",
        "defender_activated",
    )

    attack = _choice(
        (ancients.MELEE, ancients.SHOOTING),
        "close combat (melee) or missile fire (shooting)",
        {"label": "Attack", "choices": {ancients.MELEE: "Close combat", ancients.SHOOTING: "Missile fire"}},
        required=True,
    )
    range = _count(
        0,
        100,
        "shooting: the distance in hexes (2 up to the missile range)",
        {"label": "Range (hexes)", "when": ancients.SHOOTING, "initial": 2, "min": 2},
        load_default=None,
        allow_none=True,
    )
    charging = _flag(
        False,
        "melee: the attacker moved into contact this activation",
        {"label": "Attacker charged", "when": ancients.MELEE},
    )
    moved = _flag(
        False,
        "shooting: the shooter moved first (disadvantaged, no Volley Fire)",
        {"label": "Attacker moved first", "when": ancients.SHOOTING},
    )
    attacker_disadvantage = _count(
        0,
        5,
        "other causes of disadvantage on the attacker's dice (terrain, spells)",
        {"label": "Attacker disadvantages"},
    )
    defender_disadvantage = _count(
        0, 5, "other causes of disadvantage on the defender's dice", {"label": "Defender disadvantages"}
    )
    no_charge_bonus = _flag(False, "the terrain denies the charge and impact bonus without a disadvantage", HIDDEN)
    defender_action = _choice(
        (ancients.DEFEND, ancients.EVADE, ancients.FIGHT_BACK),
        "how the defender answers: defend, evade (needs Evade) or fight_back (Last Gasp)",
        {
            "label": "Defender",
            "when": ancients.MELEE,
            "choices": {ancients.DEFEND: "Defends", ancients.EVADE: "Evades", ancients.FIGHT_BACK: "Fights back"},
        },
        load_default=ancients.DEFEND,
    )
    fight_back_with = _choice(
        ("defence", "missile"),
        "Last Gasp with defence dice, or missile dice against a charge",
        {
            "label": "Fights back with",
            "when": ancients.MELEE,
            "choices": {"defence": "Defence dice", "missile": "Missile dice"},
        },
        load_default="defence",
    )
    attacker_support = _count(0, 6, "adjacent Support partners of the attacker", {"label": "Attacker support"})
    defender_support = _count(0, 6, "adjacent Support partners of the defender", {"label": "Defender support"})
    attacker_hp_lost = _count(0, 100, "hit points the attacker has already lost", {"label": "Attacker hit points lost"})
    defender_hp_lost = _count(0, 100, "hit points the defender has already lost", {"label": "Defender hit points lost"})
    retreat_blocked = _count(
        0, 3, "hexes the defender cannot fall back into (one extra hit each)", {"label": "Retreat hexes blocked"}
    )
    defender_stands = _flag(None, "whether a defender that may stand does (null: it stands when it can)", HIDDEN)
    critical_hit = _flag(None, "force Critical Hit on or off (null: read the target kind from the card)", HIDDEN)
    defender_activated = _flag(
        False, "the defender has already activated this turn (Flight)", {"label": "Defender already activated"}
    )
    terror = _flag(True, "roll the Terror tests (false when they were already taken)", {"label": "Terror tests"})


class ArmourHexSituationSchema(StrictSchema):
    """How an armour-hex fire or assault happens (rulebook 004); only ``attack`` is required."""

    # The form's order; the fields are declared in the order of the engine's Situation.
    FORM_ORDER: ClassVar[tuple[str, ...]] = (
        "attack",
        "range",
        "weapon",
        "attacker_speed",
        "defender_speed",
        "defender_terrain",
        "facing",
        "aim",
        "attacker_in_smoke",
        "defender_in_smoke",
        "to_hit_modifier",
        "future_damage",
        "models_lost",
    )

    attack = _choice(
        (armour.SHOOTING, armour.ASSAULT),
        "fire (shooting) or assault",
        {"label": "Attack", "choices": {armour.SHOOTING: "Fire", armour.ASSAULT: "Assault"}},
        required=True,
    )
    weapon = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(min=1, max=100),
        metadata={
            "description": "shooting: the weapon that fires (null: the first that can)",
            "label": "Weapon (name; empty: the first that can)",
            "when": armour.SHOOTING,
        },
    )
    range = _count(
        1,
        1000,
        "shooting: the distance in hexes",
        {"label": "Range (hexes)", "when": armour.SHOOTING, "initial": 3},
        load_default=None,
        allow_none=True,
    )
    # The speeds and terrain the form offers are the system's own lists (its composition).
    attacker_speed = _choice(
        tuple(armour.SPEED_MODIFIER),
        "the attacker's speed",
        {"label": "Attacker speed", "choices_from": "speeds"},
        load_default="slow",
    )
    defender_speed = _choice(
        tuple(armour.SPEED_MODIFIER),
        "the defender's speed",
        {"label": "Defender speed", "choices_from": "speeds"},
        load_default="slow",
    )
    defender_terrain = fields.String(
        load_default="clear",
        validate=validate.Length(min=1, max=100),
        metadata={
            "description": "the terrain the defender stands in (see the system's composition.terrain)",
            "label": "Defender terrain",
            "choices_from": "terrain",
        },
    )
    attacker_in_smoke = _flag(False, "smoke around the shooter", {"label": "Attacker in smoke"})
    defender_in_smoke = _flag(False, "smoke around the target", {"label": "Defender in smoke"})
    aim = _flag(False, "shooting: the attacker aimed (+2 to hit)", {"label": "Aimed", "when": armour.SHOOTING})
    on_edge = _flag(False, "shooting: the target is on the edge of the firing angle", HIDDEN)
    facing = _choice(armour.FACINGS, "the defender's side that is hit", {"label": "Facing hit"}, load_default="front")
    attacker_facing = _choice(
        armour.FACINGS, "the attacker's side that fires or assaults", HIDDEN, load_default="front"
    )
    future_damage = _count(
        0, 100, "future-damage tokens already on the defender", {"label": "Damage already on the defender"}
    )
    attacker_future_damage = _count(0, 100, "future-damage tokens already on the attacker", HIDDEN)
    models_lost = _count(0, 100, "defender models already lost", {"label": "Defender models lost"})
    attacker_models_lost = _count(0, 100, "attacker models already lost", HIDDEN)
    revealing = _flag(False, "the attacker reveals itself from hiding (+2 to hit, +1 damage)", HIDDEN)
    crippled_crew = _flag(False, "the attacker has a crippled crew", HIDDEN)
    defender_crippled_crew = _flag(False, "the defender has a crippled crew", HIDDEN)
    to_hit_modifier = _count(-10, 10, "any other to-hit modifier", {"label": "Other to-hit modifier"})
    tie_winner = _choice(
        ("attacker", "defender"),
        "assault: who wins a tie (null: by nation order, else reported as a tie)",
        HIDDEN,
        load_default=None,
        allow_none=True,
    )

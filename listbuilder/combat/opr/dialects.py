"""What each OPR rulebook means by the rules the previews model: one :class:`Dialect` per book.

The three rulebooks (000 AoF 2.16, 001 Grimdark Future, 002 AoF regiments) give many rules of
the same name different meanings; the phases read a dialect's switches and never ask which
system they serve.
"""

from __future__ import annotations

from dataclasses import dataclass

from listbuilder.combat.service import PreviewError
from listbuilder.model import GameSystem


@dataclass(frozen=True)
class Dialect:
    """One rulebook's meaning for every rule the maths models."""

    code: str
    name: str
    shaken: str  # what a failed test makes a unit: "Wavering" (000) or "Shaken" (001/002)
    cover: str  # "hit": shooters get -1 to hit (000); "defense": +1 to Defense rolls (001/002)
    stealth_over: int | None  # Stealth only from over this range (None: always)
    stealth_all_models: bool
    artillery: str  # "defense2" (000), "ranged9" (002), "" (001: no such rule)
    fearless: str  # "plus1" (000: +1 to the roll), "reroll4" (001/002: a failed test passes on 4+)
    fearless_all_models: bool
    fear: str  # "d3" (000: +D3 wounds), "x_unit" (001: +X), "x_model" (002: +X per model)
    furious: str  # "extra_attack" (000), "six_extra" (001/002: natural 6s in melee add a hit)
    poison: str  # "six_x3" (000), "regen_reroll6" (001), "" (002)
    rending: str  # "ap4_no_regen" (000), "ap4_regen_minus1" (001), "ap_plus4_no_regen" (002)
    impact: str  # "auto" (000: X automatic hits), "q2" (001: X attacks at 2+), "dice_front" (002)
    relentless: str  # "" (000), "hold" (001), "over9" (002)
    regeneration_all_models: bool
    deadly_first: bool
    destroyed_loses: bool
    musician_wound: bool  # 000: Musician / Battle Standard count +1 wound in the melee result
    banner_morale: bool  # 002: Banner gives +1 to morale tests
    sergeant: str  # "plus1" (000: +1 to hit), "six_extra" (002), "" (001)
    rows: bool  # 002: regiments - two front rows strike, full rows count in the melee result
    flanking: bool  # 002: -1/-2 to morale when charged in the flank/rear
    phalanx: bool  # 000
    counter: bool
    lance: bool
    thrust: bool
    bane: bool
    surge: bool
    unstoppable: bool
    takedown: bool
    sniper: bool
    lock_on: bool
    aircraft: bool
    entrenched: bool
    reliable: bool
    modelled: frozenset[str]

    def knows(self, rule: str) -> bool:
        """The maths models the rule, or it never changes a fight's odds."""
        return rule in self.modelled or rule in NO_COMBAT_EFFECT


_COMMON = frozenset(
    {
        "AP",
        "Blast",
        "Deadly",
        "Fear",
        "Fearless",
        "Furious",
        "Hero",
        "Impact",
        "Indirect",
        "Regeneration",
        "Rending",
        "Stealth",
        "Tough",
    }
)
# Rules that never change a fight's odds (movement, deployment, spells): no note for them.
NO_COMBAT_EFFECT = frozenset(
    {
        "Ambush",
        "Fast",
        "Slow",
        "Flying",
        "Strider",
        "Scout",
        "Immobile",
        "Wizard",
        "Caster",
        "Transport",
        "Limited",
        "Musician",
    }
)

AOF = Dialect(
    code="000",
    name="Age of Fantasy 2.16",
    shaken="Wavering",
    cover="hit",
    stealth_over=None,
    stealth_all_models=False,
    artillery="defense2",
    fearless="plus1",
    fearless_all_models=False,
    fear="d3",
    furious="extra_attack",
    poison="six_x3",
    rending="ap4_no_regen",
    impact="auto",
    relentless="",
    regeneration_all_models=False,
    deadly_first=True,
    destroyed_loses=True,
    musician_wound=True,
    banner_morale=False,
    sergeant="plus1",
    rows=False,
    flanking=False,
    phalanx=True,
    counter=False,
    lance=False,
    thrust=False,
    bane=False,
    surge=False,
    unstoppable=False,
    takedown=False,
    sniper=True,
    lock_on=False,
    aircraft=False,
    entrenched=False,
    reliable=False,
    modelled=_COMMON | {"Artillery", "Poison", "Sniper", "Phalanx", "Sergeant", "Musician", "Battle Standard"},
)
GF = Dialect(
    code="001",
    name="Grimdark Future",
    shaken="Shaken",
    cover="defense",
    stealth_over=12,
    stealth_all_models=True,
    artillery="",
    fearless="reroll4",
    fearless_all_models=False,
    fear="x_unit",
    furious="six_extra",
    poison="regen_reroll6",
    rending="ap4_regen_minus1",
    impact="q2",
    relentless="hold",
    regeneration_all_models=False,
    deadly_first=True,
    destroyed_loses=True,
    musician_wound=False,
    banner_morale=False,
    sergeant="",
    rows=False,
    flanking=False,
    phalanx=False,
    counter=True,
    lance=True,
    thrust=False,
    bane=False,
    surge=False,
    unstoppable=False,
    takedown=False,
    sniper=True,
    lock_on=True,
    aircraft=True,
    entrenched=True,
    reliable=True,
    modelled=_COMMON
    | {"Poison", "Counter", "Lance", "Relentless", "Reliable", "Sniper", "Lock-On", "Aircraft", "Entrenched"},
)
AOFR = Dialect(
    code="002",
    name="Age of Fantasy: Regiments",
    shaken="Shaken",
    cover="defense",
    stealth_over=9,
    stealth_all_models=True,
    artillery="ranged9",
    fearless="reroll4",
    fearless_all_models=True,
    fear="x_model",
    furious="six_extra",
    poison="",
    rending="ap_plus4_no_regen",
    impact="dice_front",
    relentless="over9",
    regeneration_all_models=True,
    deadly_first=True,
    destroyed_loses=True,
    musician_wound=False,
    banner_morale=True,
    sergeant="six_extra",
    rows=True,
    flanking=True,
    phalanx=False,
    counter=True,
    lance=False,
    thrust=True,
    bane=True,
    surge=True,
    unstoppable=True,
    takedown=True,
    sniper=False,
    lock_on=False,
    aircraft=False,
    entrenched=False,
    reliable=True,
    modelled=_COMMON
    | {
        "Artillery",
        "Bane",
        "Counter",
        "Relentless",
        "Reliable",
        "Surge",
        "Takedown",
        "Thrust",
        "Unstoppable",
        "Sergeant",
        "Banner",
    },
)

# rulebook number -> dialect (a system's ``rulebook`` file name starts with it)
DIALECTS: dict[str, Dialect] = {d.code: d for d in (AOF, GF, AOFR)}


def dialect_for(system: GameSystem) -> Dialect:
    dialect = DIALECTS.get(system.rulebook[:3])
    if dialect is None:
        raise PreviewError("system", f"no OPR combat rules for rulebook {system.rulebook!r}")
    return dialect

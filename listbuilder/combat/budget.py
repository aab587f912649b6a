"""Work budgets of a combat preview: how big a side may be before we refuse to compute it.

The exact engines grow with the models, attack dice, Tough values and joined heroes of each
side (melee strike-back multiplies the two). Inline profiles and hostile lists can ask for
any of them (5000 models with 100 attacks against Tough(1000) kept a worker busy for 30 s),
so each side is measured before any maths runs and refused with 413, naming the side, when
it is over a budget. No book unit comes near them: the largest combined unit in our books is
40 models, the most dice a unit throws 20 per model group, the highest Tough 18, the largest
stat 16 (an armour-hex damage table). Joined heroes have no budget of their own: AoF 2.16
sets no limit on them (001/002 allow one), so a legal list may join many, and since the
engine is memoised per side and wound count they cost little beyond the wounds and dice they
bring, which the budgets below already count (26 Tough(6) heroes in a 40-model pair, at the
wounds budget, answered in about a second on a loaded 2-core machine). At the budgets the
slowest previews measured answer in well under two seconds; ``make bench`` prints the figures.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass
from typing import TYPE_CHECKING, Any

from listbuilder.model import rule_rating

if TYPE_CHECKING:
    from listbuilder.combat.combatant import Combatant

MAX_MODELS = 100  # models on one side, joined heroes included
MAX_DICE = 300  # attack dice one side throws: weapons x attacks, heroes included
MAX_TOUGH = 30  # Tough(X) (or hit points) of one model
MAX_WOUNDS = 200  # wounds to take a whole side off the table: models x Tough, summed
MAX_STAT = 30  # any other number: a rule's (X), a stat, a weapon extra (hex dice, burst)
# Hits one side's dice can score before sixes multiply them: attack dice (with 000 Furious's
# extra die a model), each times its weapon's Blast(X). A natural six can become at most five times that (000 Poison's three
# hits, a Furious/Relentless/Surge extra and a Sergeant's), and the OPR engine packs a group's
# hits below 4096 (combat/opr/hits.py ``B``), so 800 keeps every count in range; and the
# binomials of so many hits stay exact (dice.py). 300 dice of Blast(20) asked for 6000 hits,
# Furious's sixes 7000: 12-14 s, or a float overflow (a 500). The largest book side makes
# under 200.
MAX_HITS = 800

# A whole-turn preview runs one melee for every state the shooting can leave the target in, so
# it takes smaller sides: the largest book side (a 40-model combined unit with two heroes
# joined) brings under 60 wounds and 60 dice. At these limits the slowest turn measured (20
# Tough(3) models with Regeneration, Blast weapons, both sides) takes about 0.7 s.
MAX_TURN_WOUNDS = 60
MAX_TURN_DICE = 100


@dataclass(frozen=True)
class SideSize:
    """How much work one side of a preview brings."""

    models: int
    dice: int
    tough: int
    wounds: int
    stat: int
    hits: int = 0

    @classmethod
    def of(cls, side: Combatant) -> SideSize:
        groups = (side, *side.heroes)
        toughs = [_tough(g) for g in groups]
        return cls(
            models=sum(g.models for g in groups),
            dice=sum(w.count * w.attacks for g in groups for w in g.weapons),
            tough=max(toughs),
            wounds=sum(g.models * t for g, t in zip(groups, toughs)),
            stat=max(_largest_number((g.stats, [w.extra for w in g.weapons], _ratings(g))) for g in groups),
            hits=sum(_hits(g) for g in groups),
        )

    def over_turn_budget(self) -> str | None:
        """Why this side is too big for a whole-turn preview, or None."""
        if self.wounds > MAX_TURN_WOUNDS:
            return f"{self.wounds} wounds in all (models x Tough): a whole-turn preview takes at most {MAX_TURN_WOUNDS}"
        if self.dice > MAX_TURN_DICE:
            return f"{self.dice} attack dice (weapons x attacks): a whole-turn preview takes at most {MAX_TURN_DICE}"
        return self.over_budget()

    def over_budget(self) -> str | None:
        """Why this side is too big to preview, or None."""
        limits = (
            (self.models, MAX_MODELS, "models"),
            (self.dice, MAX_DICE, "attack dice (weapons x attacks)"),
            (self.tough, MAX_TOUGH, "Tough (or hit points) on one model"),
            (self.wounds, MAX_WOUNDS, "wounds in all (models x Tough)"),
            (self.stat, MAX_STAT, "as a rule's (X), a stat or a weapon value"),
            (self.hits, MAX_HITS, "hits before sixes (attack dice x Blast)"),
        )
        for value, limit, what in limits:
            if value > limit:
                return f"{value} {what}: a preview takes at most {limit}"
        return None


def _hits(side: Combatant) -> int:
    """Hits before sixes: each attack die times its weapon's Blast(X), and with Furious one more
    die a model (000 Furious: +1 attack charging) of the weapon that hits most."""
    blasts = [max(1, rule_rating(w.rules, "Blast", 1)) for w in side.weapons]
    furious = side.models * max(blasts, default=1) if any(r.name == "Furious" for r in side.rules) else 0
    return sum(w.count * w.attacks * blast for w, blast in zip(side.weapons, blasts)) + furious


def _tough(side: Combatant) -> int:
    return max(rule_rating(side.rules, "Tough", 1), int(side.stats.get("hit_points") or 1))


def _ratings(side: Combatant) -> list[int]:
    return [r.rating for r in (*side.rules, *(r for w in side.weapons for r in w.rules)) if r.rating]


def _largest_number(value: Any) -> int:
    """The largest number anywhere in a stats value (nested mappings, sequences, dataclasses)."""
    if isinstance(value, bool) or isinstance(value, str):
        return 0
    if isinstance(value, (int, float)):
        return int(value)
    if isinstance(value, Mapping):
        value = value.values()
    elif is_dataclass(value):
        value = [getattr(value, f.name) for f in fields(value)]
    elif not isinstance(value, (list, tuple)):
        return 0
    return max((_largest_number(v) for v in value), default=0)

"""Ancients-hex dice pools (rulebook 003): the exact successes one throw scores after its rerolls.

Why a module of its own: the pools are the generic maths every ancients-hex preview rests on
(attack, block and fight-back pools, willpower tests); the engine beside it decides which pools
a fight throws, so each can be read without the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from operator import add

from listbuilder.dice import Dist

# 003 §4.2.2/§4.3: the face an attack or defence die needs, by net advantage level.
NEED_BY_LEVEL = {1: 3, 0: 4, -1: 5, -2: 6}


def need_for(level: int) -> int:
    """The face a die needs at a net level: +1 advantage 3+, 0 normal 4+, -1 5+, -2 or less 6."""
    return NEED_BY_LEVEL[max(-2, min(1, level))]


@dataclass(frozen=True)
class Pool:
    """One throw of ancients-hex dice and everything that changes how it scores.

    ``doubles`` are faces worth two successes when they succeed; ``reroll_upto`` is the highest
    failed face rerolled automatically (Skilled/Brace N); ``reroll_misses`` rerolls every failed
    die (Frenzy on a charge); ``spare_rerolls`` is how many more failed dice may be rerolled
    (one per Support partner). No die is rerolled twice.
    """

    dice: int
    level: int = 0
    doubles: frozenset[int] = frozenset()
    reroll_upto: int = 0
    reroll_misses: bool = False
    spare_rerolls: int = 0

    @property
    def need(self) -> int:
        return need_for(self.level)

    def score(self, face: int) -> int:
        if face < self.need:
            return 0
        return 2 if face in self.doubles else 1


def roll_pool(pool: Pool) -> Dist:
    """Exact distribution of the successes a pool scores after its rerolls.

    The rerolls are all declared together after the first throw (003 combat sequence
    summary), so which dice are rerolled depends only on the first throw: every failure the
    automatic rerolls cover, plus up to ``spare_rerolls`` other failures. The walk keeps, per
    first throw, (successes, failures covered, other failures); the rerolled dice then add
    fresh single-die scores.
    """
    if pool.dice <= 0:
        return Dist.constant(0)
    # per-die outcome: (score, covered failure, uncovered failure) -> probability
    per_die: dict[tuple[int, int, int], float] = {}
    for face in range(1, 7):
        value = pool.score(face)
        if value:
            key = (value, 0, 0)
        elif pool.reroll_misses or face <= pool.reroll_upto:
            key = (0, 1, 0)
        else:
            key = (0, 0, 1)
        per_die[key] = per_die.get(key, 0.0) + 1 / 6
    states: dict[tuple[int, int, int], float] = {(0, 0, 0): 1.0}
    for _ in range(pool.dice):
        nxt: dict[tuple[int, int, int], float] = {}
        for (s, c, u), p in states.items():
            for (ds, dc, du), q in per_die.items():
                key = (s + ds, c + dc, u + du)
                nxt[key] = nxt.get(key, 0.0) + p * q
        states = nxt
    fresh = Dist.die(6).map(pool.score)
    weighted: list[tuple[float, Dist]] = []
    for (s, c, u), p in states.items():
        rerolled = c + min(pool.spare_rerolls, u)
        weighted.append((p, fresh.repeat(rerolled).map(partial(add, s))))
    return Dist.mixture(weighted)


def willpower_passes(dice: int) -> Dist:
    """003 §5.1: willpower dice pass on 4+, and a 6 counts as two passes (5.3 example)."""
    return roll_pool(Pool(dice, doubles=frozenset({6})))


def terror_failure(willpower: int, terror: int, *, steadfast: bool, fearless: bool) -> float:
    """Chance a unit fails its test against Terror(terror) and fights at a disadvantage.

    003 §5.2: it needs ``terror`` passes on its willpower dice; §5.3 Steadfast passes Terror 1
    outright and needs one pass against Terror 2; §9 Fearless ignores terror.
    """
    if terror <= 0 or fearless:
        return 0.0
    if steadfast:
        if terror == 1:
            return 0.0  # 003 §5.3 Steadfast: Terror 1 is passed automatically
        needed = 1  # 003 §5.3 Steadfast: one pass against Terror 2
    else:
        needed = terror
    return willpower_passes(willpower).at_most(needed - 1)

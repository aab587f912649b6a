"""Melee resolution: pre-strikes, the attacker's blows, the defender's strike-back, the result.

The joint outcome is (attacker position before strike-back, attacker position after it,
defender outcome key) with its weight; who wins the melee and each side's morale are read off
it (see :mod:`.morale`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from listbuilder.combat.opr.fight import Fight, all_have
from listbuilder.combat.opr.groups import AttackGroups, Group, in_resolution_order
from listbuilder.combat.opr.hits import SIX
from listbuilder.combat.opr.morale import Morale
from listbuilder.combat.opr.outcomes import Outcomes, result
from listbuilder.combat.opr.pick import Picking
from listbuilder.combat.opr.situation import SideState
from listbuilder.combat.opr.wounds import Wounding
from listbuilder.combat.profiles import Fighter, WoundLine
from listbuilder.combat.service import PreviewError
from listbuilder.dice import Dist


@dataclass(frozen=True)
class Clash:
    """A melee's raw outcome: what the answer shows, and what a whole turn mixes."""

    hits: Dist
    ends_d: Dist  # defender outcome keys of ``where``
    where: Outcomes
    ends_a: Dist  # attacker positions after the strike-back
    start_a: int
    consequences: dict[str, Any]
    notes: list[str]

    def answer(self) -> dict[str, Any]:
        out = result(self.hits, self.ends_d, self.where)
        out["consequences"] = self.consequences
        out["notes"] = self.notes
        return out


# (attacker position before the strike-back, after it, defender outcome key) -> probability
Joint = dict[tuple[int, int, int], float]


class Melee:
    """One melee: the attacker strikes, the defender strikes back, the result and morale follow."""

    def __init__(self, fight: Fight, groups: AttackGroups, wounding: Wounding, picking: Picking, morale: Morale):
        self.f = fight
        self.groups = groups
        self.wounding = wounding
        self.picking = picking
        self.morale = morale

    def resolve(self) -> Clash:
        f = self.f
        groups = in_resolution_order(self.groups.attack_groups(f.att) + self.groups.impact_groups(f.att))
        if not [g for g in groups if not g.label.endswith("Impact")]:
            raise PreviewError("attacker", f"{f.att.name} has no melee weapon to fight with")
        self.picking.use(groups)
        counter_first = f.d.counter and f.sit.charging and f.charged()
        back_groups = (
            self.groups.attack_groups(f.dfn, striking_back=True, counter="without" if counter_first else "all")
            if f.sit.strike_back
            else []
        )
        counter_groups = self.groups.attack_groups(f.dfn, striking_back=True, counter="only") if counter_first else []
        joint, hits, back_hits = self._fight(groups, counter_groups, back_groups)
        by_d: dict[int, float] = {}
        by_a: dict[int, float] = {}
        for (_, pa, key_d), w in joint.items():
            by_d[key_d] = by_d.get(key_d, 0.0) + w
            by_a[pa] = by_a.get(pa, 0.0) + w
        ends_d, ends_a = Dist(by_d), Dist(by_a)
        back = result(back_hits, ends_a, Outcomes.one_line(f.line_a, f.start_a))
        consequences = {**self.consequences(joint, back), **self.picking.report(ends_d)}
        groups_all = counter_groups + groups + back_groups
        notes = f.notes + [f"groups: {', '.join(g.label for g in groups_all)}"]
        return Clash(hits, ends_d, self.picking.out, ends_a, f.start_a, consequences, notes)

    def _pre_strike(self) -> Dist:
        """Where the attacker stands when it reaches the enemy (000 Phalanx: dangerous terrain)."""
        f = self.f
        base = Dist.constant(f.start_a)
        if f.d.phalanx and f.sit.charging and all_have(f.dfn, "Phalanx"):
            # 000 Phalanx: the charger takes a Dangerous Terrain test (a wound on each 1), rolling
            # no more dice than the target has Phalanx models (Tough models roll X dice each).
            dice = min(f.dfn.models, sum(f.line_a.tough[f.line_a.model_at(f.start_a) :]))
            base = Dist.binomial(dice, SIX).map(lambda w: min(f.start_a + w, f.line_a.end))
        return base

    def _fight(
        self, groups: list[Group], counter_groups: list[Group], back_groups: list[Group]
    ) -> tuple[Joint, Dist, Dist]:
        """The joint outcome (attacker before strike-back, attacker after, defender key) -> weight,
        with the attacker's and the strike-back's hits.

        Strikes are shared: the attacker's blows depend only on who of it still stands, the
        strike-back only on who of the defender stands and where the attacker is, so each is
        worked out once however many joint outcomes lead to it; and where the attacker's
        position does not change the dice (:meth:`_back_shifts`), a strike-back at a deeper
        position is the one already worked out, moved along.
        """
        f, where = self.f, self.picking.out
        end_a, untouched = f.line_a.end, where.untouched
        joint: Joint = {}
        hits_mix: list[tuple[float, Dist]] = []
        back_hits_mix: list[tuple[float, Dist]] = []
        strike_cache: dict[Any, tuple[Dist, Dist]] = {}
        back_cache: dict[tuple[Any, int], tuple[Dist, tuple[tuple[int, float], ...]]] = {}
        back_key: dict[int, Any] = {}  # defender key -> who strikes back from there (None: destroyed)
        shifts = self._back_shifts(back_groups)
        back_from: dict[Any, int] = {}  # who strikes back -> the attacker position first worked out
        for pa0, w0 in self._pre_strike().items():
            if pa0 >= end_a:
                joint[(pa0, pa0, untouched)] = joint.get((pa0, pa0, untouched), 0.0) + w0
                hits_mix.append((w0, Dist.constant(0)))
                continue
            if counter_groups:
                # 001/002 Counter: those weapons strike first, from the defender's start
                _, after_counter = self.wounding.strike(
                    counter_groups, f.dfn, f.line_d, f.start_d, f.att, f.line_a, Dist.constant(pa0), False
                )
            else:
                after_counter = Dist.constant(pa0)
            for pa1, w1 in after_counter.items():
                if pa1 >= end_a:
                    joint[(pa0, pa1, untouched)] = joint.get((pa0, pa1, untouched), 0.0) + w0 * w1
                    hits_mix.append((w0 * w1, Dist.constant(0)))
                    continue
                key = f.strikers(f.att, f.line_a, pa1)
                if key not in strike_cache:
                    strike_cache[key] = self.picking.strike_defender(groups, pa1, False)
                hits, ends_d = strike_cache[key]
                hits_mix.append((w0 * w1, hits))
                for pd, w2 in ends_d.items():
                    weight = w0 * w1 * w2
                    if pd not in back_key:
                        line_d, p_d = where.locate(pd)
                        back_key[pd] = f.strikers(f.dfn, line_d, p_d) if back_groups and p_d < line_d.end else None
                    bkey = back_key[pd]
                    if bkey is None:
                        joint[(pa0, pa1, pd)] = joint.get((pa0, pa1, pd), 0.0) + weight
                        continue
                    found = back_cache.get((bkey, pa1))
                    if found is None:
                        first = back_from.get(bkey)
                        if shifts and first is not None and first <= pa1:
                            first_hits, first_ends = back_cache[(bkey, first)]
                            found = (first_hits, tuple((min(q + pa1 - first, end_a), w) for q, w in first_ends))
                        else:
                            line_d, p_d = where.locate(pd)
                            bhits, ends_a = self.wounding.strike(
                                back_groups, f.dfn, line_d, p_d, f.att, f.line_a, Dist.constant(pa1), False
                            )
                            found = (bhits, tuple(ends_a.items()))
                            back_from.setdefault(bkey, pa1)
                        back_cache[(bkey, pa1)] = found
                    bhits, ends = found  # (attacker position after the strike-back, chance), positions may repeat
                    back_hits_mix.append((weight, bhits))
                    for pa2, w3 in ends:
                        joint[(pa0, pa2, pd)] = joint.get((pa0, pa2, pd), 0.0) + weight * w3
        back_hits = Dist.mixture(back_hits_mix) if back_hits_mix else Dist.constant(0)
        return joint, Dist.mixture(hits_mix), back_hits

    def _back_shifts(self, back_groups: list[Group]) -> bool:
        """Whether a strike-back at attacker position p + d is the one at p moved d along (and
        stopped at the line's end).

        True when nothing in its dice reads the position: every attacker model is the unit's
        own (no joined hero, so one Defense and one Regeneration all along the line), and no
        group caps by models left (Blast), stops at a model's last wound (Deadly) or goes at
        one model (Takedown). Then n wounds from p always end at min(p + n, end).
        """
        return not self.f.att.heroes and all(g.blast == 1 and g.deadly <= 1 and not g.single_model for g in back_groups)

    def consequences(self, joint: Joint, back: dict[str, Any]) -> dict[str, Any]:
        """Who wins the melee (wounds caused plus bonuses) and what the loser's test does.

        A joint outcome's result depends only on the attacker's end position, the defender's
        outcome and the wounds the attacker took; the bonuses of each pair of positions are
        combined once, and each side's morale (memoised per position in
        :class:`~listbuilder.combat.opr.morale.Morale`) is applied to the total weight with which
        it lost at each position, after the loop.
        """
        f = self.f
        where, la = self.picking.out, f.line_a
        a_wins = d_wins = tie = d_destroyed = a_destroyed = 0.0
        defender_at: dict[int, tuple[int, bool]] = {}  # key -> (wounds it took, destroyed)
        diffs: dict[tuple[int, int], tuple[tuple[int, float], ...]] = {}
        lost_d: dict[int, float] = {}  # defender key -> weight of losing the melee there
        lost_a: dict[int, float] = {}  # attacker position -> the same
        for (pa0, pa, key_d), w in joint.items():
            info = defender_at.get(key_d)
            if info is None:
                info = defender_at[key_d] = (where.wounds(key_d), where.destroyed(key_d))
            wounds, d_dead = info
            a_dead = pa >= la.end
            if d_dead or a_dead:
                d_destroyed += w if d_dead else 0.0
                a_destroyed += w if a_dead else 0.0
                # 001: a unit destroyed in melee always counts as having lost (000/002 agree:
                # a destroyed unit has nothing left to win with).
                if d_dead and not a_dead:
                    a_wins += w
                elif a_dead and not d_dead:
                    d_wins += w
                else:
                    tie += w
                continue
            diff = diffs.get((pa, key_d))
            if diff is None:
                diff = diffs[(pa, key_d)] = self._bonus_difference(pa, key_d)
            margin = wounds - (pa - pa0)  # wounds caused minus wounds taken, before bonuses
            p_a = p_d = 0.0
            for v, q in diff:
                if v + margin > 0:
                    p_a += q
                elif v + margin < 0:
                    p_d += q
            a_wins += w * p_a
            d_wins += w * p_d
            tie += w * (1 - p_a - p_d)
            if p_a > 0:
                lost_d[key_d] = lost_d.get(key_d, 0.0) + w * p_a
            if p_d > 0:
                lost_a[pa] = lost_a.get(pa, 0.0) + w * p_d
        fate = {
            "attacker": self._fate(lost_a, lambda pa: (f.att, la, pa), f.sit.attacker, "front"),
            "defender": self._fate(lost_d, lambda k: (f.dfn, *where.locate(k)), f.sit.defender, f.sit.facing),
        }
        return {
            "melee": {"p_attacker_wins": a_wins, "p_defender_wins": d_wins, "p_tie": tie},
            "morale": fate,
            "strike_back": back,
            "p_defender_removed": d_destroyed + fate["defender"]["p_rout"],
            "p_attacker_destroyed": a_destroyed,
        }

    def _bonus_difference(self, pa: int, key_d: int) -> tuple[tuple[int, float], ...]:
        """The attacker's melee-result bonus minus the defender's, at these positions."""
        f = self.f
        ld, pd = self.picking.out.locate(key_d)
        mine = self.morale.bonus_items(f.att, f.line_a, pa)
        theirs = self.morale.bonus_items(f.dfn, ld, pd)
        if len(mine) == 1 and len(theirs) == 1:
            return ((mine[0][0] - theirs[0][0], mine[0][1] * theirs[0][1]),)
        out: dict[int, float] = {}
        for a, pa_ in mine:
            for b, pb in theirs:
                out[a - b] = out.get(a - b, 0.0) + pa_ * pb
        return tuple(sorted(out.items()))

    def _fate(
        self,
        lost: dict[int, float],
        where: Callable[[int], tuple[Fighter, WoundLine, int]],
        state: SideState,
        flank: str,
    ) -> dict[str, Any]:
        """One side's morale after the melee, from the weight with which it lost at each place."""
        d = self.f.d
        out: dict[str, Any] = {"p_test": 0.0, "p_rout": 0.0, f"p_{d.shaken.lower()}": 0.0}
        for place, w in lost.items():
            fighter, line, p = where(place)
            fail = self.morale.fail(fighter, line, p, state, flank=flank)
            out["p_test"] += w
            # Morale after a lost melee: fail at half strength or less routs, else Shaken/Wavering
            key = "p_rout" if self.morale.half_or_less(fighter, line, p) else f"p_{d.shaken.lower()}"
            out[key] += w * fail
        out["state_on_fail"] = d.shaken
        return out

"""Melee resolution: pre-strikes, the attacker's blows, the defender's strike-back, the result.

The joint outcome is (attacker position before strike-back, attacker position after it,
defender outcome key) with its weight; who wins the melee and each side's morale are read off
it (see :mod:`.morale`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from listbuilder.combat.opr.fight import Fight, all_have
from listbuilder.combat.opr.groups import AttackGroups
from listbuilder.combat.opr.hits import SIX
from listbuilder.combat.opr.morale import Morale
from listbuilder.combat.opr.outcomes import Outcomes, result
from listbuilder.combat.opr.pick import Picking
from listbuilder.combat.opr.wounds import Wounding
from listbuilder.combat.service import PreviewError
from listbuilder.dice import Dist


class Melee:
    """One melee: the attacker strikes, the defender strikes back, the result and morale follow."""

    def __init__(self, fight: Fight, groups: AttackGroups, wounding: Wounding, picking: Picking, morale: Morale):
        self.f = fight
        self.groups = groups
        self.wounding = wounding
        self.picking = picking
        self.morale = morale

    def run(self) -> dict[str, Any]:
        f = self.f
        d, sit = f.d, f.sit
        groups = self.groups.attack_groups(f.att)
        groups.extend(self.groups.impact_groups(f.att))
        groups.sort(key=lambda g: g.order)
        if not [g for g in groups if not g.label.endswith("Impact")]:
            raise PreviewError("attacker", f"{f.att.name} has no melee weapon to fight with")
        self.picking.use(groups)
        where = self.picking.out
        untouched = where.untouched
        counter_first = d.counter and sit.charging and f.charged()
        back_groups = self.groups.attack_groups(f.dfn, striking_back=True, counter="without" if counter_first else "all") if sit.strike_back else []
        counter_groups = self.groups.attack_groups(f.dfn, striking_back=True, counter="only") if counter_first else []
        # Pre-strike: 000 Phalanx dangerous terrain tests, 001/002 Counter weapons striking first
        base = Dist.constant(f.start_a)
        if d.phalanx and sit.charging and all_have(f.dfn, "Phalanx"):
            # 000 Phalanx: the charger takes a Dangerous Terrain test (a wound on each 1), rolling
            # no more dice than the target has Phalanx models (Tough models roll X dice each).
            dice = min(f.dfn.models, sum(f.line_a.tough[f.line_a.model_at(f.start_a):]))
            base = Dist.binomial(dice, SIX).map(lambda w: min(f.start_a + w, f.line_a.end))
        joint: dict[tuple[int, int, int], float] = {}
        hits_mix: list[tuple[float, Dist]] = []
        back_hits_mix: list[tuple[float, Dist]] = []
        strike_cache: dict[int, tuple[Dist, Dist]] = {}
        back_cache: dict[tuple[int, int], tuple[Dist, Dist]] = {}
        for pa0, w0 in base.items():
            if pa0 >= f.line_a.end:
                joint[(pa0, pa0, untouched)] = joint.get((pa0, pa0, untouched), 0.0) + w0
                hits_mix.append((w0, Dist.constant(0)))
                continue
            if counter_groups:
                _, after_counter = self.wounding.strike(counter_groups, f.dfn, f.line_d, f.start_d, f.att, f.line_a, Dist.constant(pa0), False)
            else:
                after_counter = Dist.constant(pa0)
            for pa1, w1 in after_counter.items():
                if pa1 >= f.line_a.end:
                    joint[(pa0, pa1, untouched)] = joint.get((pa0, pa1, untouched), 0.0) + w0 * w1
                    hits_mix.append((w0 * w1, Dist.constant(0)))
                    continue
                key = f.strikers(f.att, f.line_a, pa1)
                if key not in strike_cache:
                    strike_cache[key] = self.picking.strike_defender(groups, pa1, False)  # type: ignore[index]
                hits, ends_d = strike_cache[key]  # type: ignore[index]
                hits_mix.append((w0 * w1, hits))
                for pd, w2 in ends_d.items():
                    weight = w0 * w1 * w2
                    if where.destroyed(pd) or not back_groups:
                        joint[(pa0, pa1, pd)] = joint.get((pa0, pa1, pd), 0.0) + weight
                        continue
                    line_d, p_d = where.locate(pd)
                    bkey = (f.strikers(f.dfn, line_d, p_d), pa1)
                    if bkey not in back_cache:
                        back_cache[bkey] = self.wounding.strike(back_groups, f.dfn, line_d, p_d, f.att, f.line_a, Dist.constant(pa1), False)  # type: ignore[index]
                    bhits, ends_a = back_cache[bkey]  # type: ignore[index]
                    back_hits_mix.append((weight, bhits))
                    for pa2, w3 in ends_a.items():
                        joint[(pa0, pa2, pd)] = joint.get((pa0, pa2, pd), 0.0) + weight * w3
        hits = Dist.mixture(hits_mix)
        ends_d = Dist(marginal(joint, lambda k: k[2]))
        ends_a = Dist(marginal(joint, lambda k: k[1]))
        out = result(hits, ends_d, where)
        back = result(Dist.mixture(back_hits_mix) if back_hits_mix else Dist.constant(0), ends_a, Outcomes.one_line(f.line_a, f.start_a))
        out["consequences"] = {**self.consequences(joint, back), **self.picking.report(ends_d)}
        groups_all = counter_groups + groups + back_groups
        out["notes"] = f.notes + [f"groups: {', '.join(g.label for g in groups_all)}"]
        return out

    def consequences(self, joint: dict[tuple[int, int, int], float], back: dict[str, Any]) -> dict[str, Any]:
        """Who wins the melee (wounds caused plus bonuses) and what the loser's test does."""
        f = self.f
        d, where = f.d, self.picking.out
        la = f.line_a
        a_wins = d_wins = tie = 0.0
        fate = {side: {"p_test": 0.0, "p_shaken": 0.0, "p_rout": 0.0} for side in ("attacker", "defender")}
        for (pa0, pa, key_d), w in joint.items():
            ld, pd = where.locate(key_d)
            a_dead, d_dead = pa >= la.end, pd >= ld.end
            if d_dead or a_dead:
                # 001: a unit destroyed in melee always counts as having lost (000/002 agree:
                # a destroyed unit has nothing left to win with).
                if d_dead and not a_dead:
                    a_wins += w
                elif a_dead and not d_dead:
                    d_wins += w
                else:
                    tie += w
                continue
            caused_a = Dist.constant(where.wounds(key_d)) + self.morale.melee_bonus(f.att, la, pa)
            caused_d = Dist.constant(pa - pa0) + self.morale.melee_bonus(f.dfn, ld, pd)
            diff = caused_a + caused_d.map(lambda v: -v)
            p_a = sum(q for v, q in diff.items() if v > 0)
            p_d = sum(q for v, q in diff.items() if v < 0)
            a_wins += w * p_a
            d_wins += w * p_d
            tie += w * (1 - p_a - p_d)
            for side, fighter, line, p, state, flank, lose in (
                ("defender", f.dfn, ld, pd, f.sit.defender, f.sit.facing, p_a),
                ("attacker", f.att, la, pa, f.sit.attacker, "front", p_d),
            ):
                if lose <= 0:
                    continue
                fail = self.morale.fail(fighter, line, p, state, flank=flank)
                fate[side]["p_test"] += w * lose
                # Morale after a lost melee: fail at half strength or less routs, else Shaken/Wavering
                key = "p_rout" if self.morale.half_or_less(fighter, line, p) else "p_shaken"
                fate[side][key] += w * lose * fail
        label = f"p_{d.shaken.lower()}"
        for side in fate:
            fate[side][label] = fate[side].pop("p_shaken")
            fate[side]["state_on_fail"] = d.shaken  # type: ignore[assignment]
        p_d_destroyed = sum(w for k, w in joint.items() if where.destroyed(k[2]))
        return {
            "melee": {"p_attacker_wins": a_wins, "p_defender_wins": d_wins, "p_tie": tie},
            "morale": fate,
            "strike_back": back,
            "p_defender_removed": p_d_destroyed + fate["defender"]["p_rout"],
            "p_attacker_destroyed": sum(w for k, w in joint.items() if k[1] >= la.end),
        }


def marginal(joint: Mapping[Any, float], key: Callable[[Any], int]) -> dict[int, float]:
    out: dict[int, float] = {}
    for k, w in joint.items():
        out[key(k)] = out.get(key(k), 0.0) + w
    return out

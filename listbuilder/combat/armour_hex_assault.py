"""Armour-hex combat (rulebook 004): one assault, two dice pools with deflection.

Both sides' net successes are independent, the larger gains the advantage, and each side's
successes become damage rolls (one per enemy model) and support (+1 damage each) on the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from listbuilder.combat.armour_hex_damage import Strike, Vehicle, hit_rows, per_hit, rule_key
from listbuilder.combat.armour_hex_situation import FACINGS, Situation
from listbuilder.combat.service import PreviewError
from listbuilder.dice import Dist, open_ended_at_least

# 004 Assault: nation order deciding a tie in successes (earlier wins).
TIE_ORDER = ("spartan", "darkelf", "ork", "dwarf", "gnome", "elf")


@dataclass(frozen=True)
class AssaultSide:
    """One side's pools in an assault, and the strike each damaging success makes."""

    dice: int
    hit: int
    deflect_dice: int
    deflect_hit: int
    strike: Strike | None


def assault_side(unit: Vehicle, facing: str, lost: int, *, crippled: bool, revealing: bool) -> AssaultSide:
    """004 Assault: per-model dice by facing, times the models alive; deflection the same."""
    alive = unit.models - lost
    index = FACINGS.index(facing)
    dice = deflect = 0
    hit = deflect_hit = 7
    strike: Strike | None = None
    if unit.assault:
        dice = int(unit.assault["dice"][index]) * alive
        hit = int(unit.assault["hit"])
        strike = Strike(
            int(unit.assault.get("ap") or 0),
            str(unit.assault["damage"]),
            str(unit.assault.get("damage_type") or "regular"),
        )
    if unit.deflection:
        deflect = int(unit.deflection["dice"][index]) * alive
        deflect_hit = int(unit.deflection["hit"])
    if revealing:
        dice, deflect = dice * 3 // 2, deflect * 3 // 2  # 004 Hidden: +50 percent assault strength and deflection
    if crippled:
        hit, deflect_hit = hit + 1, deflect_hit + 1  # 004 Crippled Crew: -1 on assault and deflection dice
    return AssaultSide(dice, hit, deflect, deflect_hit, strike)


def successes(dice: int, need: int) -> Dist:
    return Dist.binomial(dice, open_ended_at_least(need) if need > 6 else max(0.0, min(1.0, (7 - need) / 6)))


def net_successes(own: AssaultSide, enemy: AssaultSide) -> Dist:
    """004 Assault: each enemy deflection removes one success."""
    raw = successes(own.dice, own.hit)
    deflected = successes(enemy.deflect_dice, enemy.deflect_hit)
    return (raw + deflected.map(lambda v: -v)).map(lambda v: max(0, v))


def assault_losses(net: Dist, strike: Strike | None, target: Vehicle, facing: int, tokens: int, alive: int) -> Dist:
    """Models the target loses from a number of net successes.

    004 Assault: one damaging hit per alive enemy model; the rest are support, +1 damage each
    to a damage roll. We spread support evenly over the damaging rolls (the owner's choice in
    the rulebook; spreading is the usual best use against a table that kills one model a row).
    """
    if strike is None or alive <= 0:
        return Dist.constant(0)
    table = target.tables.get(strike.damage_type, ())
    cache: dict[int, Dist] = {}

    def one(bonus: int) -> Dist:
        if bonus not in cache:
            rows, _ = hit_rows(
                Strike(strike.ap, strike.damage, strike.damage_type, strike.bonus + bonus), target, facing, tokens
            )
            cache[bonus] = per_hit(rows, table, alive)
        return cache[bonus]

    def losses(n: int) -> Dist:
        damaging = min(n, alive)
        if damaging == 0:
            return Dist.constant(0)
        support = n - damaging
        share, rest = divmod(support, damaging)
        total = one(share + 1).repeat(rest) + one(share).repeat(damaging - rest)
        return total.map(lambda v: min(v, alive))

    return net.bind(losses)


def _tie_winner(a: Vehicle, d: Vehicle, s: Situation) -> str | None:
    if s.tie_winner is not None:
        return s.tie_winner
    ranks = [TIE_ORDER.index(rule_key(n)) if n and rule_key(n) in TIE_ORDER else None for n in (a.nation, d.nation)]
    if ranks[0] is None or ranks[1] is None or ranks[0] == ranks[1]:
        return None
    return "attacker" if ranks[0] < ranks[1] else "defender"


def assault(a: Vehicle, d: Vehicle, s: Situation) -> dict[str, Any]:
    """Both pools, deflections, who gains the advantage, and what each side loses."""
    a_side = assault_side(a, s.attacker_facing, s.attacker_models_lost, crippled=s.crippled_crew, revealing=s.revealing)
    d_side = assault_side(d, s.facing, s.models_lost, crippled=s.defender_crippled_crew, revealing=False)
    if a_side.dice <= 0:
        raise PreviewError("situation.attack", f"{a.name} has no assault dice from its {s.attacker_facing}")
    a_net = net_successes(a_side, d_side)
    d_net = net_successes(d_side, a_side)
    # 004 Assault: the side with more successes after deflection gains the advantage
    p_a = sum(pa * d_net.at_most(x - 1) for x, pa in a_net.items())
    p_d = sum(pd * a_net.at_most(y - 1) for y, pd in d_net.items())
    p_tie = max(0.0, 1 - p_a - p_d)
    tie = _tie_winner(a, d, s)
    d_alive, a_alive = d.models - s.models_lost, a.models - s.attacker_models_lost
    d_losses = assault_losses(a_net, a_side.strike, d, FACINGS.index(s.facing), s.future_damage, d_alive)
    a_losses = assault_losses(
        d_net, d_side.strike, a, FACINGS.index(s.attacker_facing), s.attacker_future_damage, a_alive
    )
    p_attacker_adv = p_a + (p_tie if tie == "attacker" else 0.0)
    p_defender_adv = p_d + (p_tie if tie == "defender" else 0.0)
    stubborn_d, stubborn_a = d.has("Stubborn"), a.has("Stubborn")
    return {
        "expected": {
            "attacker_successes": a_net.mean,
            "defender_successes": d_net.mean,
            "models_killed": d_losses.mean,
            "attacker_models_killed": a_losses.mean,
        },
        "distributions": {
            "attacker_successes": a_net.as_dict(),
            "defender_successes": d_net.as_dict(),
            "models_killed": d_losses.as_dict(),
            "attacker_models_killed": a_losses.as_dict(),
        },
        "p_destroyed": d_losses.at_least(d_alive),
        "consequences": {
            "advantage": {
                "p_attacker": p_attacker_adv,
                "p_defender": p_defender_adv,
                "p_tie": p_tie,
                "tie_goes_to": tie,
            },
            # 004 Stubborn: a beaten stubborn unit stays and the winner falls back; both stubborn fight again
            "retreat": {
                "p_defender_retreats": 0.0 if stubborn_d else p_attacker_adv,
                "p_attacker_retreats": (p_attacker_adv if stubborn_d and not stubborn_a else 0.0)
                + (0.0 if stubborn_a else p_defender_adv),
                "fight_again": stubborn_a and stubborn_d,
            },
            "p_attacker_destroyed": a_losses.at_least(a_alive),
            "pools": {
                "attacker": {
                    "dice": a_side.dice,
                    "hit": a_side.hit,
                    "deflection": a_side.deflect_dice,
                    "deflect_hit": a_side.deflect_hit,
                },
                "defender": {
                    "dice": d_side.dice,
                    "hit": d_side.hit,
                    "deflection": d_side.deflect_dice,
                    "deflect_hit": d_side.deflect_hit,
                },
            },
        },
        "notes": ["support successes are spread evenly over the damaging rolls"],
    }

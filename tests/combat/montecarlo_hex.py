"""A seeded Monte Carlo simulator for the hex systems, written apart from the exact engines.

Why: the engines compute distributions by convolution and mixtures; this file throws the
dice one by one, the way a player would, from the same unit profiles and situation. It shares
no code with ``listbuilder.combat.ancients_hex`` or ``armour_hex`` (only the plain profile
values), so an error in the engine's bookkeeping shows up as a disagreement.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# ----------------------------------------------------------------------------------------------
# ancients-hex (003)


def _name(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


@dataclass
class AncientsCard:
    """The plain numbers of a card plus its attributes as ``{plain name: parameter}``."""

    attack: int
    defence: int
    hit_points: int
    willpower: int = 2
    missile: int = 0
    missile_range: int = 0
    attributes: Mapping[str, str | None] | None = None
    kind: str = ""

    def has(self, rule: str) -> bool:
        return _name(rule) in {_name(k) for k in (self.attributes or {})}

    def number(self, rule: str, default: int = 1) -> int:
        for key, value in (self.attributes or {}).items():
            if _name(key) == _name(rule):
                if value is None:
                    return default
                digits = [int(ch) for ch in str(value) if ch.isdigit()]
                return digits[0] if digits else default
        return 0

    def text(self, rule: str) -> str | None:
        for key, value in (self.attributes or {}).items():
            if _name(key) == _name(rule):
                return value
        return None


def _throw(
    rng: random.Random, dice: int, target: int, twice: set[int], reroll_low: int, reroll_all: bool, extra: int
) -> int:
    """Throw *dice*, reroll the allowed misses once (all declared from the first throw), score."""
    faces = [rng.randint(1, 6) for _ in range(dice)]
    misses = [i for i, f in enumerate(faces) if f < target]
    chosen = [i for i in misses if reroll_all or faces[i] <= reroll_low]
    others = [i for i in misses if i not in chosen]
    chosen += others[:extra]
    for i in chosen:
        faces[i] = rng.randint(1, 6)
    return sum((2 if f in twice else 1) for f in faces if f >= target)


def _target(level: int) -> int:
    if level >= 1:
        return 3
    return {0: 4, -1: 5}.get(level, 6)


def _willpower_fails(rng: random.Random, card: AncientsCard, terror: int) -> bool:
    if terror == 0 or card.has("Fearless"):
        return False
    need = terror
    if card.has("Steadfast"):
        if terror == 1:
            return False
        need = 1
    passes = 0
    for _ in range(card.willpower):
        face = rng.randint(1, 6)
        passes += 2 if face == 6 else (1 if face >= 4 else 0)
    return passes < need


def ancients_trial(rng: random.Random, att: AncientsCard, dfn: AncientsCard, sit: Mapping[str, Any]) -> dict[str, int]:
    """One fight, by the rulebook, die by die."""
    melee = sit["attack"] == "melee"
    action = sit.get("defender_action", "defend")
    terror_on = sit.get("terror", True)
    att_scared = melee and terror_on and _willpower_fails(rng, att, dfn.number("Terror") if dfn.has("Terror") else 0)
    dfn_scared = melee and terror_on and _willpower_fails(rng, dfn, att.number("Terror") if att.has("Terror") else 0)
    causes = sit.get("attacker_disadvantage", 0)
    causes += (melee and action == "evade") + att_scared + dfn.has("Ethereal")
    causes += (not melee and dfn.has("Stealthy")) + (
        melee and dfn.has("Flight") and not sit.get("defender_activated", False)
    )
    causes += not melee and sit.get("moved", False)
    charged = melee and sit.get("charging", False) and causes == 0 and not sit.get("no_charge_bonus", False)
    bonus = 1 if (not melee and att.has("Volley Fire") and not sit.get("moved", False)) else 0
    dice = att.attack if melee else att.missile
    dice += (charged and att.has("Charge")) + (charged and att.has("Frenzy"))
    dice += sit.get("defender_hp_lost", 0) > 0 and att.has("Scavenger")
    if sit.get("critical_hit") is not None:
        crit = sit["critical_hit"]
    else:
        wanted = att.text("Critical Hit")
        crit = att.has("Critical Hit") and (wanted is None or _name(wanted) in ("all", _name(dfn.kind)))
    hits = _throw(
        rng,
        dice,
        _target(bonus - causes),
        {5, 6} if crit else {6},
        att.number("Skilled") if att.has("Skilled") else 0,
        charged and att.has("Frenzy"),
        sit.get("attacker_support", 0) if att.has("Support") else 0,
    )
    dcauses = sit.get("defender_disadvantage", 0)
    deadly = att.text("Deadly")
    if melee:
        dcauses += dfn_scared + (att.has("Deadly") and (deadly is None or "charge" not in deadly.lower() or charged))
        dcauses += charged and att.has("Impact")
    else:
        dcauses = 0
    dsupport = sit.get("defender_support", 0) if dfn.has("Support") else 0
    brace = dfn.number("Brace") if dfn.has("Brace") else 0
    back = 0
    if action == "fight_back":
        if sit.get("fight_back_with", "defence") == "missile":
            back = _throw(
                rng,
                dfn.missile,
                _target(-1 - dfn_scared),
                {6},
                dfn.number("Skilled") if dfn.has("Skilled") else 0,
                False,
                dsupport,
            )
        else:
            back = _throw(rng, dfn.defence, _target(-dcauses), set(), brace, False, dsupport)
        blocks = 0
    else:
        blocks = _throw(rng, dfn.defence, _target(-dcauses), set(), brace, False, dsupport)
    damage = max(0, hits - blocks)
    taken = damage
    if damage > 0 and action != "evade":
        unstoppable = att.has("Unstoppable")
        stands = sit.get("defender_stands")
        if stands is None:
            stands = dfn.has("Steadfast") or dfn.has("Massive")
        if dfn.has("No retreat") and not unstoppable:
            taken += 1
        elif not (stands and not unstoppable):
            taken += sit.get("retreat_blocked", 0)
    left = dfn.hit_points - sit.get("defender_hp_lost", 0)
    a_left = att.hit_points - sit.get("attacker_hp_lost", 0)
    return {
        "hits": hits,
        "blocks": blocks,
        "damage": damage,
        "hp_lost": min(taken, left),
        "destroyed": int(taken >= left),
        "attacker_hp_lost": min(back, a_left),
    }


# ----------------------------------------------------------------------------------------------
# armour-hex (004)


def open_ended(rng: random.Random) -> int:
    """Roll a d6; on a 6 keep rolling, adding one for every 5 or 6."""
    first = rng.randint(1, 6)
    if first < 6:
        return first
    total = 6
    while rng.randint(1, 6) >= 5:
        total += 1
    return total


def roll_expr(rng: random.Random, text: str) -> int:
    text = text.strip().lower()
    if "d" not in text:
        return int(text)
    count, _, rest = text.partition("d")
    mod = 0
    for sign in "+-":
        if sign in rest:
            rest, _, m = rest.partition(sign)
            mod = int(m) if sign == "+" else -int(m)
    return sum(rng.randint(1, int(rest)) for _ in range(int(count or 1))) + mod


def table_effects(rows: list[dict[str, Any]], result: int) -> list[str]:
    found: list[str] = []
    for row in rows:
        if result >= row["at"]:
            found = list(row["effects"])
    return found


def effect_kills(effects: list[str], alive: int) -> int:
    kills = 0
    for e in effects:
        if e.lower() == "destroyed":
            return alive
        if e.lower().startswith("kill("):
            kills += int(e[5:-1])
    return kills


def effect_tokens(effects: list[str]) -> int:
    return sum(int(e.split("(")[1][:-1]) for e in effects if e.lower().startswith("future damage("))


def one_hit(
    rng: random.Random, armour: int | None, ap: int, damage: str, flat: int, breaker: bool, table: list[dict[str, Any]]
) -> list[str]:
    """Armour dice, then the damage roll read on the table."""
    mod = 0
    if armour is not None:
        saves = sum(rng.randint(1, 6) >= 5 for _ in range(max(0, armour - ap)))
        if saves >= 2:
            return []
        mod = -3 if saves == 1 else (3 if breaker else 0)
    return table_effects(table, roll_expr(rng, damage) + flat + mod)


def armour_fire_trial(rng: random.Random, case: Mapping[str, Any]) -> dict[str, int]:
    """A volley as described by a battery case (modifier total already written in the case)."""
    hits = kills = tokens = shaken = 0
    alive = case["alive"]
    for _ in range(case["shots"]):
        if open_ended(rng) + case["to_hit_modifier"] < 5:
            continue
        hits += 1
        effects = one_hit(
            rng, case["armour"], case["ap"], case["damage"], case["flat"], case.get("breaker", False), case["table"]
        )
        kills += effect_kills(effects, alive)
        tokens += effect_tokens(effects)
        shaken += "Shaken" in effects
    return {
        "hits": hits,
        "models_killed": min(kills, alive),
        "future_damage": tokens,
        "destroyed": int(kills >= alive),
        "shaken": int(shaken > 0),
    }


def armour_assault_trial(rng: random.Random, case: Mapping[str, Any]) -> dict[str, int]:
    """Both pools and deflections, advantage, and each side's damaging hits plus even support."""

    def count(dice: int, need: int) -> int:
        return sum(rng.randint(1, 6) >= need for _ in range(dice))

    a, d = case["attacker"], case["defender"]
    a_net = max(0, count(a["dice"], a["hit"]) - count(d["deflect"], d["deflect_hit"]))
    d_net = max(0, count(d["dice"], d["hit"]) - count(a["deflect"], a["deflect_hit"]))

    def losses(net: int, striker: Mapping[str, Any], target: Mapping[str, Any]) -> int:
        damaging = min(net, target["alive"])
        if damaging == 0:
            return 0
        support = net - damaging
        kills = 0
        for i in range(damaging):
            extra = support // damaging + (1 if i < support % damaging else 0)
            effects = one_hit(
                rng,
                target["armour"],
                striker["ap"],
                striker["damage"],
                extra + target.get("tokens", 0),
                False,
                target["table"],
            )
            kills += effect_kills(effects, target["alive"])
        return min(kills, target["alive"])

    return {
        "attacker_successes": a_net,
        "defender_successes": d_net,
        "models_killed": losses(a_net, a, d),
        "attacker_models_killed": losses(d_net, d, a),
        "attacker_advantage": int(a_net > d_net),
        "defender_advantage": int(d_net > a_net),
    }


def run(trial: Any, trials: int, seed: int, *args: Any) -> dict[str, float]:
    """Means of every counter a trial returns, over *trials* seeded throws."""
    rng = random.Random(seed)
    totals: dict[str, float] = {}
    for _ in range(trials):
        for key, value in trial(rng, *args).items():
            totals[key] = totals.get(key, 0.0) + value
    return {key: value / trials for key, value in totals.items()}

"""Exact combat previews for armour-hex (rulebook 004): a volley of fire, or one assault.

Why this shape: in armour-hex a hit is not a wound. Every hit goes through its own chain —
open-ended to-hit roll against a sum of modifiers, armour dice (two successes stop it, one
takes three off the damage), a damage roll with its modifiers — and ends on a row of the
target's damage table (future-damage tokens, a shaken crew, a killed model, the unit
destroyed). Shots in one step are simultaneous (004 Turn), so each shot of a volley is an
independent copy of the same chain: the engine computes the chance of every table row for
one shot exactly and convolves the shots.

An assault is two dice pools with deflection (:mod:`~listbuilder.combat.armour_hex_assault`);
one hit's way to a table row is shared by both (:mod:`~listbuilder.combat.armour_hex_damage`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from listbuilder.combat.armour_hex_assault import assault
from listbuilder.combat.armour_hex_damage import (
    BLOCKED,
    NO_DAMAGE,
    Row,
    Strike,
    Vehicle,
    hit_rows,
    per_hit,
    read_vehicle,
    rule_key,
)
from listbuilder.combat.armour_hex_situation import FACINGS, SHOOTING, SPEED_MODIFIER, Situation
from listbuilder.combat.combatant import Combatant
from listbuilder.combat.service import PreviewError, unmodelled_rules
from listbuilder.dice import Dist, open_ended_at_least
from listbuilder.model import GameSystem, Weapon

# 004 Fire, terrain: these hexes make the unit in them one harder to hit.
COVER_TERRAIN = {"forest", "burned-forest", "building", "ruins", "rough", "sand-dunes"}
SIZE_MODIFIER = {"tiny": -1, "huge": 1}
SHOT_ABILITIES = {"goodshot": 1, "excellentshot": 2, "superbshot": 3, "badshot": -1, "terribleshot": -2}


# --------------------------------------------------------------------------------------------
# Fire: to hit


def range_band(distance: int, weapon_range: int) -> str:
    """004 Fire, range: point-blank at 1, normal within range, long up to twice the range."""
    if distance == 1:
        return "point_blank"
    if distance <= weapon_range:
        return "normal"
    if distance <= 2 * weapon_range:
        return "long"
    raise ValueError(distance)


def _speed_rule_applies(params: list[str], speed: str) -> int:
    """Take Cover/Elusive(speed, -N): N when the unit is at the named speed, else 0."""
    if len(params) < 2 or rule_key(params[0]) != rule_key(speed):
        return 0
    try:
        return abs(int(params[1]))
    except ValueError:
        return 0


def to_hit_modifiers(shooter: Vehicle, target: Vehicle, weapon: Weapon, s: Situation, band: str) -> dict[str, int]:
    """Every to-hit modifier that applies, by name (004 Fire, the modifier table)."""
    mods: dict[str, int] = {}

    def add(name: str, value: int) -> None:
        if value:
            mods[name] = mods.get(name, 0) + value

    add("attacker speed", SPEED_MODIFIER[s.attacker_speed])  # 004 Fire speeds: to hit
    add("target speed", SPEED_MODIFIER[s.defender_speed])  # 004 Fire speeds: to be hit
    if shooter.has("Flying"):
        add("attacker flying", -1)  # 004 Fire: flying -1 to hit, stacks with the speed
    if target.has("Flying"):
        add("target flying", -1)  # 004 Fire: flying -1 to be hit
    if s.attacker_in_smoke:
        add("attacker in smoke", -1)  # 004 Fire terrain: smoke -1 to hit
    if s.defender_in_smoke:
        add("target in smoke", -1)  # 004 Fire terrain: smoke -1 to be hit
    if rule_key(s.defender_terrain) in {rule_key(t) for t in COVER_TERRAIN}:
        add("target terrain", -1)  # 004 Fire terrain: forest, buildings, ruins, rough, dunes -1 to be hit
    if s.aim:
        add("aim", 2)  # 004 Fire orders: aim +2 to hit
    add("range", {"point_blank": 1, "normal": 0, "long": -2}[band])  # 004 Fire range band
    if s.on_edge:
        add("on edge of firing angle", -1)  # 004 Fire angle: on-edge -1
    add("target size", SIZE_MODIFIER.get(target.size_class, 0))  # 004 Fire size: tiny -1, huge +1
    for rule in shooter.rules:
        add(rule.label, SHOT_ABILITIES.get(rule_key(rule.name), 0))  # 004 Fire unit abilities: Good/Bad Shot...
    if band == "long" and shooter.has("Bad at Long Range"):
        add("Bad at Long Range", -2)  # 004 Fire: bad at long range -2
    if band == "point_blank" and shooter.has("Optimal at Point Blank"):
        add("Optimal at Point Blank", 1)  # 004 Fire: +1 at point blank only
    if shooter.has("Steady"):
        add("Steady (shooter)", 1)  # 004 Fire: Steady +1 to hit
    if target.has("Steady"):
        add("Steady (target)", 1)  # 004 Fire: Steady +1 to be hit
    for params in target.params("Camouflage"):
        if params and rule_key(params[0]) == rule_key(s.defender_terrain):
            add("Camouflage", -1)  # 004 Fire: Camouflage[terrain] -1 to be hit there
    for params in target.params("Take Cover"):
        add("Take Cover", -_speed_rule_applies(params, s.defender_speed))  # 004 Fire: Take Cover[speed, -N]
    for params in target.params("Elusive"):
        add("Elusive", -_speed_rule_applies(params, s.defender_speed))  # 004 Fire: Elusive[speed, -N]
    if any(rule_key(r.name) == "enhancedaccuracy" for r in weapon.rules):
        add("Enhanced Accuracy", 1)  # 004 Fire weapon abilities: +1
    if s.crippled_crew:
        add("Crippled Crew", -1)  # 004 Crippled Crew: -1 on range to-hit dice
    if s.revealing:
        add("reveal", 2)  # 004 Hidden: revealing gives +2 to hit
    add("other", s.to_hit_modifier)
    return mods


def hit_chance(modifier: int) -> float:
    """004 Fire: basic 5+, modified, on an open-ended d6 (a 6 rolls on, +1 per 5-6)."""
    return open_ended_at_least(5 - modifier)


# --------------------------------------------------------------------------------------------
# Fire: a whole volley


def pick_weapon(shooter: Vehicle, name: str | None) -> Weapon:
    ranged = [w for w in shooter.weapons if w.range > 0]
    if name is not None:
        for weapon in shooter.weapons:
            if rule_key(weapon.name) == rule_key(name):
                if weapon.range <= 0:
                    raise PreviewError("situation.weapon", f"{weapon.name} is not a ranged weapon")
                return weapon
        raise PreviewError(
            "situation.weapon", f"{shooter.name} has no weapon {name!r}; ranged: {[w.name for w in ranged]}"
        )
    if not ranged:
        raise PreviewError("situation.attack", f"{shooter.name} has no ranged weapon to fire")
    return ranged[0]


def shots_fired(shooter: Vehicle, weapon: Weapon, lost: int) -> int:
    """Copies of the weapon still carried, times its shots, times Burst(N) (004 Burst)."""
    alive = shooter.models - lost
    copies = weapon.count or shooter.models
    if weapon.extra.get("hands") == "shared":
        copies = 1  # 004 Build your army: a shared weapon fires once for the unit
    elif copies >= shooter.models:
        copies = copies * alive // shooter.models  # each model fires its own copy; dead models do not
    else:
        copies = min(copies, alive)
    burst = int(weapon.extra.get("burst") or 1)  # 004 Burst(N): fired N times per model
    return max(0, copies) * max(1, weapon.attacks) * burst


def ranged_strike(weapon: Weapon, band: str, *, revealing: bool) -> Strike:
    """What one hit of a ranged *weapon* at range *band* brings to the damage table."""
    ap = int(weapon.extra.get("ap") or 0)
    bonus = 0
    if band == "long":
        ap //= 2  # 004 Damage: long range halves AP (rounded down)
        bonus -= 1  # 004 Damage: long range -1 damage
    elif band == "point_blank":
        ap += 1  # 004 Damage: point blank +1 AP
        bonus += 1  # 004 Damage: point blank +1 damage
    if revealing:
        bonus += 1  # 004 Hidden: revealing gives +1 to damage of ranged weapons
    return Strike(
        ap=ap,
        damage=str(weapon.extra.get("damage", "d6")),
        damage_type=str(weapon.extra.get("damage_type") or "regular"),
        bonus=bonus,
        armour_breaker=any(rule_key(r.name) == "armourbreaker" for r in weapon.rules),
    )


def _table_rows(
    table: Sequence[Row], rows: Mapping[int, float], shot_rows: Mapping[int, float], shots: int
) -> list[dict[str, Any]]:
    """Each damage-table row with its chance per hit, per shot, at least once, and expected count."""
    results = []
    for index, row in enumerate(table):
        p_shot = shot_rows.get(index, 0.0)
        results.append(
            {
                "table": row.table,
                "at": row.at,
                "effects": list(row.effects),
                "p_per_hit": rows.get(index, 0.0),
                "p_per_shot": p_shot,
                "p_at_least_once": 1 - (1 - p_shot) ** shots,
                "expected": shots * p_shot,
            }
        )
    return results


def fire(shooter: Vehicle, target: Vehicle, s: Situation) -> dict[str, Any]:
    """A volley of one weapon at one target: rows per hit, kills, tokens, destruction."""
    weapon = pick_weapon(shooter, s.weapon)
    if s.range is None:
        raise PreviewError("situation.range", "shooting needs the range in hexes")
    try:
        band = range_band(s.range, weapon.range)
    except ValueError:
        raise PreviewError(
            "situation.range", f"{s.range} hexes is beyond {weapon.name}'s long range ({2 * weapon.range})"
        ) from None
    facing = FACINGS.index(s.facing)
    angles = weapon.extra.get("angles")
    if angles is not None and not angles[FACINGS.index(s.attacker_facing)]:
        raise PreviewError(
            "situation.attacker_facing", f"{weapon.name} cannot fire through the {s.attacker_facing} angle"
        )
    mods = to_hit_modifiers(shooter, target, weapon, s, band)
    p_hit = hit_chance(sum(mods.values()))
    strike = ranged_strike(weapon, band, revealing=s.revealing)
    ap = strike.ap
    alive = target.models - s.models_lost
    rows, split = hit_rows(strike, target, facing, s.future_damage)
    table = target.tables.get(strike.damage_type, ())
    shots = shots_fired(shooter, weapon, s.attacker_models_lost)
    # one shot: a miss, or a hit landing on a row
    shot_rows = {NO_DAMAGE - 10: 1 - p_hit, **{k: v * p_hit for k, v in rows.items()}}
    kills_one = Dist.mixture([(1 - p_hit, Dist.constant(0)), (p_hit, per_hit(rows, table, alive))])
    tokens_one = Dist.mixture([(1 - p_hit, Dist.constant(0)), (p_hit, per_hit(rows, table, alive, "Future Damage"))])
    hits = Dist.binomial(shots, p_hit)
    kills = kills_one.repeat(shots).map(lambda v: min(v, alive))
    tokens = tokens_one.repeat(shots)
    results = _table_rows(table, rows, shot_rows, shots)
    p_shaken_shot = sum(shot_rows.get(i, 0.0) for i, row in enumerate(table) if row.effect_value("Shaken"))
    return {
        "expected": {
            "shots": float(shots),
            "hits": hits.mean,
            "models_killed": kills.mean,
            "future_damage": tokens.mean,
        },
        "distributions": {"hits": hits.as_dict(), "models_killed": kills.as_dict(), "future_damage": tokens.as_dict()},
        "p_destroyed": kills.at_least(alive),
        "consequences": {
            "to_hit": {"needed": 5 - sum(mods.values()), "modifiers": mods, "p_hit": p_hit, "range_band": band},
            "armour": {"dice": max(0, target.armour[facing] - ap) if target.armour else 0, "ap": ap, **split},
            "damage_table": results,
            "p_no_damage_per_hit": rows.get(NO_DAMAGE, 0.0) + rows.get(BLOCKED, 0.0),
            "p_shaken": 1 - (1 - p_shaken_shot) ** shots,
            "shots": shots,
            "weapon": weapon.name,
        },
        "notes": [f"{shots} shots hitting on {5 - sum(mods.values())}+ (open-ended d6)"],
    }


def engine(
    system: GameSystem, attacker: Combatant, defender: Combatant, situation: Mapping[str, Any]
) -> dict[str, Any]:
    """The armour-hex engine the preview service dispatches to; raises PreviewError."""
    s = Situation(**situation)
    a = read_vehicle(attacker, "attacker")
    d = read_vehicle(defender, "defender")
    if s.models_lost >= d.models:
        raise PreviewError("situation.models_lost", f"{d.name} has only {d.models} models")
    if s.attacker_models_lost >= a.models:
        raise PreviewError("situation.attacker_models_lost", f"{a.name} has only {a.models} models")
    out = fire(a, d, s) if s.attack == SHOOTING else assault(a, d, s)
    out["unmodelled"] = unmodelled_rules((attacker, defender), _known)
    return out


# Rules the maths above reads, and rules that never change one volley or assault (movement,
# deployment, healing steps). Any other rule (tokens left for later, psychic tables, Area and
# Misfire rolls, terrain-bound rules) is named as unmodelled.
MODELLED = (
    "Flying",
    "Bad at Long Range",
    "Optimal at Point Blank",
    "Steady",
    "Stubborn",
    "Take Cover",
    "Elusive",
    "Enhanced Accuracy",
    "Armour Breaker",
    "Good Shot",
    "Excellent Shot",
    "Superb Shot",
    "Bad Shot",
    "Terrible Shot",
)
NO_COMBAT_EFFECT = ("Forward Position", "Heal", "Repair", "Tracked", "Acid Resistance", "Hide")
KNOWN_RULES = frozenset(rule_key(name) for name in (*MODELLED, *NO_COMBAT_EFFECT))


def _known(name: str) -> bool:
    key = rule_key(name)
    # 004 Unit resistances: every "<type> Resistance" is read by Vehicle.resistance (Acid is a healing rule)
    return key in KNOWN_RULES or key.endswith("resistance")

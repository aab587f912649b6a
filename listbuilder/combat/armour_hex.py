"""Exact combat previews for armour-hex (rulebook 004): a volley of fire, or one assault.

Why this shape: in armour-hex a hit is not a wound. Every hit goes through its own chain —
open-ended to-hit roll against a sum of modifiers, armour dice (two successes stop it, one
takes three off the damage), a damage roll with its modifiers — and ends on a row of the
target's damage table (future-damage tokens, a shaken crew, a killed model, the unit
destroyed). Shots in one step are simultaneous (004 Turn), so each shot of a volley is an
independent copy of the same chain: the engine computes the chance of every table row for
one shot exactly and convolves the shots.

An assault is two dice pools with deflection: both sides' net successes are independent, the
larger gains the advantage, and each side's successes become damage rolls (one per enemy model)
and support (+1 damage each) on the other side.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from listbuilder.combat.service import Combatant, PreviewError, unmodelled_rules
from listbuilder.dice import Dist, open_ended_at_least
from listbuilder.model import GameSystem, RuleRef, Weapon

FACINGS = ("front", "front_side", "back_side", "back")
SHOOTING, ASSAULT = "shooting", "assault"
# 004 Fire, speeds: to-hit when firing at this speed, and to-be-hit when the target is at it.
SPEED_MODIFIER = {"still": 1, "crawling": 1, "rest": 1, "setup": 1, "slow": 0, "fast": -1}
# 004 Fire, terrain: these hexes make the unit in them one harder to hit.
COVER_TERRAIN = {"forest", "burned-forest", "building", "ruins", "rough", "sand-dunes"}
SIZE_MODIFIER = {"tiny": -1, "huge": 1}
SHOT_ABILITIES = {"goodshot": 1, "excellentshot": 2, "superbshot": 3, "badshot": -1, "terribleshot": -2}
# 004 Assault: nation order deciding a tie in successes (earlier wins).
TIE_ORDER = ("spartan", "darkelf", "ork", "dwarf", "gnome", "elf")
NO_DAMAGE, BLOCKED = -1, -2


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


# --------------------------------------------------------------------------------------------
# Dice expressions and damage tables


def parse_dice(text: str | int) -> tuple[int, int, int]:
    """``"2d6-1"`` -> (2, 6, -1); ``"3"`` -> (0, 0, 3). Raises ValueError for anything else."""
    text = str(text).strip().lower()
    match = re.fullmatch(r"(?:(\d*)d(\d+)([+-]\d+)?|(\d+))", text)
    if not match:
        raise ValueError(f"not a dice expression: {text!r}")
    if match.group(4) is not None:
        return 0, 0, int(match.group(4))
    return int(match.group(1) or 1), int(match.group(2)), int(match.group(3) or 0)


def dice_dist(text: str | int) -> Dist:
    """The sum a damage expression rolls (plain dice: the rulebook opens only the to-hit die)."""
    count, sides, mod = parse_dice(text)
    return Dist.die(sides).repeat(count).map(lambda v: v + mod) if count else Dist.constant(mod)


@dataclass(frozen=True)
class Row:
    """A damage-table row: from result ``at`` up (until the next row), these effects."""

    table: str
    at: int
    effects: tuple[str, ...]

    def effect_value(self, name: str) -> int:
        """How much of an effect the row gives (``Kill(2)`` -> 2, ``Shaken`` -> 1, absent -> 0)."""
        total = 0
        for text in self.effects:
            try:
                ref = RuleRef.parse(text)
            except ValueError:
                continue
            if _key(ref.name) == _key(name):
                total += ref.rating if ref.rating is not None else 1
        return total

    @property
    def label(self) -> str:
        return f"{self.table} {self.at}+: {', '.join(self.effects)}"


def read_table(name: str, rows: Sequence[Mapping[str, Any]]) -> tuple[Row, ...]:
    return tuple(Row(name, int(r["at"]), tuple(r["effects"])) for r in sorted(rows, key=lambda r: r["at"]))


def row_for(table: Sequence[Row], result: int) -> int:
    """004 Damage Table: below the first row is no damage; else the last row reached."""
    index = NO_DAMAGE
    for i, row in enumerate(table):
        if result >= row.at:
            index = i
    return index


# --------------------------------------------------------------------------------------------
# Reading the units


@dataclass(frozen=True)
class Vehicle:
    """One side's armour-hex profile, as much as combat needs."""

    name: str
    models: int
    size_class: str
    armour: tuple[int, int, int, int] | None
    assault: Mapping[str, Any] | None
    deflection: Mapping[str, Any] | None
    tables: Mapping[str, tuple[Row, ...]]
    rules: tuple[RuleRef, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    nation: str | None = None

    def has(self, name: str) -> bool:
        return any(_key(r.name) == _key(name) for r in self.rules)

    def params(self, name: str) -> list[list[str]]:
        """Every copy of a rule's parameters, split at commas (``Take Cover(fast, -1)``)."""
        return [[p.strip() for p in (r.param or "").split(",")] for r in self.rules if _key(r.name) == _key(name)]

    def resistance(self, damage_type: str) -> int:
        """004 Unit resistances: -N to damage of the matching type (regular when unnamed)."""
        total = 0
        for rule in self.rules:
            name = _key(rule.name)
            if not name.endswith("resistance") or name == "acidresistance":
                continue
            parts = [p.strip() for p in (rule.param or "").split(",") if p.strip()]
            kind = name[: -len("resistance")] or None
            numbers = [int(p) for p in parts if re.fullmatch(r"[+-]?\d+", p)]
            words = [p for p in parts if not re.fullmatch(r"[+-]?\d+", p)]
            kind = kind or (_key(words[0]) if words else "regular")
            if kind == _key(damage_type) and numbers:
                total += abs(numbers[0])
        return total


def read_vehicle(side: Combatant, where: str) -> Vehicle:
    """A Combatant's armour-hex profile; raises PreviewError when it is not an armour-hex unit."""
    stats = side.stats
    if "damage_tables" not in stats:
        raise PreviewError(where, f"{side.name} has no damage tables: not an armour-hex unit")
    armour = stats.get("armour")
    return Vehicle(
        name=side.name,
        models=side.models,
        size_class=str(stats.get("size_class", "medium")),
        armour=tuple(armour) if armour is not None else None,  # type: ignore[arg-type]
        assault=stats.get("assault"),
        deflection=stats.get("deflection"),
        tables={name: read_table(name, rows) for name, rows in stats["damage_tables"].items()},
        rules=tuple(side.rules),
        weapons=tuple(side.weapons),
        nation=side.extra.get("nation") if side.extra else None,
    )


# --------------------------------------------------------------------------------------------
# The situation


@dataclass(frozen=True)
class Situation:
    """How the fight happens; ``attack`` is required, the rest has defaults."""

    attack: str
    weapon: str | None = None
    range: int | None = None
    attacker_speed: str = "slow"
    defender_speed: str = "slow"
    defender_terrain: str = "clear"
    attacker_in_smoke: bool = False
    defender_in_smoke: bool = False
    aim: bool = False
    on_edge: bool = False
    facing: str = "front"
    attacker_facing: str = "front"
    future_damage: int = 0
    attacker_future_damage: int = 0
    models_lost: int = 0
    attacker_models_lost: int = 0
    revealing: bool = False
    crippled_crew: bool = False
    defender_crippled_crew: bool = False
    to_hit_modifier: int = 0
    tie_winner: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


_CHOICES: dict[str, tuple[str, ...]] = {
    "attack": (SHOOTING, ASSAULT),
    "attacker_speed": tuple(SPEED_MODIFIER),
    "defender_speed": tuple(SPEED_MODIFIER),
    "facing": FACINGS,
    "attacker_facing": FACINGS,
    "tie_winner": ("attacker", "defender"),
}
_INTS = {
    "range": (1, 1000),
    "future_damage": (0, 100),
    "attacker_future_damage": (0, 100),
    "models_lost": (0, 100),
    "attacker_models_lost": (0, 100),
    "to_hit_modifier": (-10, 10),
}
_BOOLS = ("attacker_in_smoke", "defender_in_smoke", "aim", "on_edge", "revealing", "crippled_crew", "defender_crippled_crew")


def read_situation(raw: Mapping[str, Any]) -> Situation:
    """Check and default the situation dict; raises PreviewError naming the bad key."""
    known = set(Situation.__dataclass_fields__)
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in known:
            raise PreviewError(f"situation.{key}", f"unknown situation key for armour-hex; known: {sorted(known)}")
        if value is None:
            continue
        if key in _CHOICES and value not in _CHOICES[key]:
            raise PreviewError(f"situation.{key}", f"must be one of {list(_CHOICES[key])}")
        if key in _INTS:
            low, high = _INTS[key]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise PreviewError(f"situation.{key}", f"not a whole number from {low} to {high}")
        if key in _BOOLS and not isinstance(value, bool):
            raise PreviewError(f"situation.{key}", "not true or false")
        if key in ("weapon", "defender_terrain") and not isinstance(value, str):
            raise PreviewError(f"situation.{key}", "not a name")
        values[key] = value
    if "attack" not in values:
        raise PreviewError("situation.attack", f"say how they fight: one of {list(_CHOICES['attack'])}")
    return Situation(**values)


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
    if len(params) < 2 or _key(params[0]) != _key(speed):
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
    if _key(s.defender_terrain) in {_key(t) for t in COVER_TERRAIN}:
        add("target terrain", -1)  # 004 Fire terrain: forest, buildings, ruins, rough, dunes -1 to be hit
    if s.aim:
        add("aim", 2)  # 004 Fire orders: aim +2 to hit
    add("range", {"point_blank": 1, "normal": 0, "long": -2}[band])  # 004 Fire range band
    if s.on_edge:
        add("on edge of firing angle", -1)  # 004 Fire angle: on-edge -1
    add("target size", SIZE_MODIFIER.get(target.size_class, 0))  # 004 Fire size: tiny -1, huge +1
    for rule in shooter.rules:
        add(rule.label, SHOT_ABILITIES.get(_key(rule.name), 0))  # 004 Fire unit abilities: Good/Bad Shot...
    if band == "long" and shooter.has("Bad at Long Range"):
        add("Bad at Long Range", -2)  # 004 Fire: bad at long range -2
    if band == "point_blank" and shooter.has("Optimal at Point Blank"):
        add("Optimal at Point Blank", 1)  # 004 Fire: +1 at point blank only
    if shooter.has("Steady"):
        add("Steady (shooter)", 1)  # 004 Fire: Steady +1 to hit
    if target.has("Steady"):
        add("Steady (target)", 1)  # 004 Fire: Steady +1 to be hit
    for params in target.params("Camouflage"):
        if params and _key(params[0]) == _key(s.defender_terrain):
            add("Camouflage", -1)  # 004 Fire: Camouflage[terrain] -1 to be hit there
    for params in target.params("Take Cover"):
        add("Take Cover", -_speed_rule_applies(params, s.defender_speed))  # 004 Fire: Take Cover[speed, -N]
    for params in target.params("Elusive"):
        add("Elusive", -_speed_rule_applies(params, s.defender_speed))  # 004 Fire: Elusive[speed, -N]
    if any(_key(r.name) == "enhancedaccuracy" for r in weapon.rules):
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
# Armour and damage: one hit to a table row


def armour_outcome(armour: int | None, ap: int) -> dict[str, float]:
    """004 Armor: (armour - AP) dice at 5+; two successes block, one gives -3, none penetrates."""
    if armour is None:
        return {"blocked": 0.0, "partial": 0.0, "penetrated": 1.0}  # 004 Armor: no armour, treat as penetrated
    successes = Dist.binomial(max(0, armour - ap), 1 / 3)
    return {"blocked": successes.at_least(2), "partial": successes.p(1), "penetrated": successes.p(0)}


@dataclass(frozen=True)
class Strike:
    """What one hit carries: AP, damage dice and every flat damage modifier."""

    ap: int
    damage: str
    damage_type: str = "regular"
    bonus: int = 0
    armour_breaker: bool = False


def hit_rows(strike: Strike, target: Vehicle, facing: int, tokens: int) -> tuple[dict[int, float], dict[str, float]]:
    """Chance of each damage-table row for one hit (and the armour split), exactly.

    Keys are row indexes of the table the damage type reads, ``NO_DAMAGE`` below the table and
    ``BLOCKED`` when the armour stops the hit.
    """
    table = target.tables.get(strike.damage_type)
    if table is None:
        return {BLOCKED: 1.0}, {"blocked": 1.0, "partial": 0.0, "penetrated": 0.0}  # 004 Special damage: no table, immune
    armour = target.armour[facing] if target.armour is not None else None
    split = armour_outcome(armour, strike.ap)
    base = dice_dist(strike.damage)
    flat = strike.bonus + tokens - target.resistance(strike.damage_type)  # 004 Damage: tokens +1 each, resistances -N
    rows: dict[int, float] = {}
    if split["blocked"]:
        rows[BLOCKED] = split["blocked"]
    for part, extra in (("partial", -3), ("penetrated", 3 if strike.armour_breaker else 0)):
        weight = split[part]
        if weight <= 0:
            continue
        for value, p in base.items():
            index = row_for(table, value + flat + extra)
            rows[index] = rows.get(index, 0.0) + weight * p
    return rows, split


def _kills(row: Row | None, alive: int) -> int:
    if row is None:
        return 0
    if row.effect_value("Destroyed"):
        return alive  # 004 damage effects: Destroyed removes the whole unit
    return row.effect_value("Kill")


def _per_hit(rows: Mapping[int, float], table: Sequence[Row], alive: int, effect: str | None = None) -> Dist:
    """Kills (or another effect's amount) one hit gives, from its row chances."""
    out: dict[int, float] = {}
    for index, p in rows.items():
        row = table[index] if index >= 0 else None
        value = _kills(row, alive) if effect is None else (row.effect_value(effect) if row else 0)
        out[value] = out.get(value, 0.0) + p
    return Dist(out)


# --------------------------------------------------------------------------------------------
# Fire: a whole volley


def pick_weapon(shooter: Vehicle, name: str | None) -> Weapon:
    ranged = [w for w in shooter.weapons if w.range > 0]
    if name is not None:
        for weapon in shooter.weapons:
            if _key(weapon.name) == _key(name):
                if weapon.range <= 0:
                    raise PreviewError("situation.weapon", f"{weapon.name} is not a ranged weapon")
                return weapon
        raise PreviewError("situation.weapon", f"{shooter.name} has no weapon {name!r}; ranged: {[w.name for w in ranged]}")
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


def fire(shooter: Vehicle, target: Vehicle, s: Situation) -> dict[str, Any]:
    """A volley of one weapon at one target: rows per hit, kills, tokens, destruction."""
    weapon = pick_weapon(shooter, s.weapon)
    if s.range is None:
        raise PreviewError("situation.range", "shooting needs the range in hexes")
    try:
        band = range_band(s.range, weapon.range)
    except ValueError:
        raise PreviewError("situation.range", f"{s.range} hexes is beyond {weapon.name}'s long range ({2 * weapon.range})") from None
    facing = FACINGS.index(s.facing)
    angles = weapon.extra.get("angles")
    if angles is not None and not angles[FACINGS.index(s.attacker_facing)]:
        raise PreviewError("situation.attacker_facing", f"{weapon.name} cannot fire through the {s.attacker_facing} angle")
    mods = to_hit_modifiers(shooter, target, weapon, s, band)
    p_hit = hit_chance(sum(mods.values()))
    ap = int(weapon.extra.get("ap") or 0)
    bonus = 0
    if band == "long":
        ap //= 2  # 004 Damage: long range halves AP (rounded down)
        bonus -= 1  # 004 Damage: long range -1 damage
    elif band == "point_blank":
        ap += 1  # 004 Damage: point blank +1 AP
        bonus += 1  # 004 Damage: point blank +1 damage
    if s.revealing:
        bonus += 1  # 004 Hidden: revealing gives +1 to damage of ranged weapons
    strike = Strike(
        ap=ap,
        damage=str(weapon.extra.get("damage", "d6")),
        damage_type=str(weapon.extra.get("damage_type") or "regular"),
        bonus=bonus,
        armour_breaker=any(_key(r.name) == "armourbreaker" for r in weapon.rules),
    )
    alive = target.models - s.models_lost
    rows, split = hit_rows(strike, target, facing, s.future_damage)
    table = target.tables.get(strike.damage_type, ())
    shots = shots_fired(shooter, weapon, s.attacker_models_lost)
    # one shot: a miss, or a hit landing on a row
    shot_rows = {NO_DAMAGE - 10: 1 - p_hit, **{k: v * p_hit for k, v in rows.items()}}
    kills_one = Dist.mixture([(1 - p_hit, Dist.constant(0)), (p_hit, _per_hit(rows, table, alive))])
    tokens_one = Dist.mixture([(1 - p_hit, Dist.constant(0)), (p_hit, _per_hit(rows, table, alive, "Future Damage"))])
    hits = Dist.binomial(shots, p_hit)
    kills = kills_one.repeat(shots).map(lambda v: min(v, alive))
    tokens = tokens_one.repeat(shots)
    results = []
    for index, row in enumerate(table):
        p_shot = shot_rows.get(index, 0.0)
        results.append({
            "table": row.table, "at": row.at, "effects": list(row.effects),
            "p_per_hit": rows.get(index, 0.0), "p_per_shot": p_shot,
            "p_at_least_once": 1 - (1 - p_shot) ** shots, "expected": shots * p_shot,
        })
    p_shaken_shot = sum(shot_rows.get(i, 0.0) for i, row in enumerate(table) if row.effect_value("Shaken"))
    return {
        "expected": {"shots": float(shots), "hits": hits.mean, "models_killed": kills.mean, "future_damage": tokens.mean},
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


# --------------------------------------------------------------------------------------------
# Assault


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
        strike = Strike(int(unit.assault.get("ap") or 0), str(unit.assault["damage"]), str(unit.assault.get("damage_type") or "regular"))
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
            rows, _ = hit_rows(Strike(strike.ap, strike.damage, strike.damage_type, strike.bonus + bonus), target, facing, tokens)
            cache[bonus] = _per_hit(rows, table, alive)
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
    ranks = [TIE_ORDER.index(_key(n)) if n and _key(n) in TIE_ORDER else None for n in (a.nation, d.nation)]
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
    a_losses = assault_losses(d_net, d_side.strike, a, FACINGS.index(s.attacker_facing), s.attacker_future_damage, a_alive)
    p_attacker_adv = p_a + (p_tie if tie == "attacker" else 0.0)
    p_defender_adv = p_d + (p_tie if tie == "defender" else 0.0)
    stubborn_d, stubborn_a = d.has("Stubborn"), a.has("Stubborn")
    return {
        "expected": {
            "attacker_successes": a_net.mean, "defender_successes": d_net.mean,
            "models_killed": d_losses.mean, "attacker_models_killed": a_losses.mean,
        },
        "distributions": {
            "attacker_successes": a_net.as_dict(), "defender_successes": d_net.as_dict(),
            "models_killed": d_losses.as_dict(), "attacker_models_killed": a_losses.as_dict(),
        },
        "p_destroyed": d_losses.at_least(d_alive),
        "consequences": {
            "advantage": {"p_attacker": p_attacker_adv, "p_defender": p_defender_adv, "p_tie": p_tie, "tie_goes_to": tie},
            # 004 Stubborn: a beaten stubborn unit stays and the winner falls back; both stubborn fight again
            "retreat": {
                "p_defender_retreats": 0.0 if stubborn_d else p_attacker_adv,
                "p_attacker_retreats": (p_attacker_adv if stubborn_d and not stubborn_a else 0.0) + (0.0 if stubborn_a else p_defender_adv),
                "fight_again": stubborn_a and stubborn_d,
            },
            "p_attacker_destroyed": a_losses.at_least(a_alive),
            "pools": {
                "attacker": {"dice": a_side.dice, "hit": a_side.hit, "deflection": a_side.deflect_dice, "deflect_hit": a_side.deflect_hit},
                "defender": {"dice": d_side.dice, "hit": d_side.hit, "deflection": d_side.deflect_dice, "deflect_hit": d_side.deflect_hit},
            },
        },
        "notes": ["support successes are spread evenly over the damaging rolls"],
    }


def engine(system: GameSystem, attacker: Combatant, defender: Combatant, situation: Mapping[str, Any]) -> dict[str, Any]:
    """The armour-hex engine the preview service dispatches to; raises PreviewError."""
    s = read_situation(situation)
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
MODELLED = ("Flying", "Bad at Long Range", "Optimal at Point Blank", "Steady", "Stubborn", "Take Cover", "Elusive",
            "Enhanced Accuracy", "Armour Breaker", "Good Shot", "Excellent Shot", "Superb Shot", "Bad Shot", "Terrible Shot")
NO_COMBAT_EFFECT = ("Forward Position", "Heal", "Repair", "Tracked", "Acid Resistance", "Hide")
KNOWN_RULES = frozenset(_key(name) for name in (*MODELLED, *NO_COMBAT_EFFECT))


def _known(name: str) -> bool:
    key = _key(name)
    # 004 Unit resistances: every "<type> Resistance" is read by Vehicle.resistance (Acid is a healing rule)
    return key in KNOWN_RULES or key.endswith("resistance")


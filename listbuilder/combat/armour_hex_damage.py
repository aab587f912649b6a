"""Armour-hex combat (rulebook 004): one hit, from the armour dice to a row of the damage table.

Shared by fire and assault: a unit's combat profile (:class:`Vehicle`), damage expressions,
damage tables, the armour roll and the exact chance of each table row for one hit.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from listbuilder.combat.combatant import Combatant
from listbuilder.combat.service import PreviewError
from listbuilder.dice import Dist
from listbuilder.model import RuleRef, Weapon

NO_DAMAGE, BLOCKED = -1, -2


def rule_key(name: str) -> str:
    """A rule name as the engine compares it: lower case, letters and digits only."""
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
            if rule_key(ref.name) == rule_key(name):
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
        return any(rule_key(r.name) == rule_key(name) for r in self.rules)

    def params(self, name: str) -> list[list[str]]:
        """Every copy of a rule's parameters, split at commas (``Take Cover(fast, -1)``)."""
        return [
            [p.strip() for p in (r.param or "").split(",")] for r in self.rules if rule_key(r.name) == rule_key(name)
        ]

    def resistance(self, damage_type: str) -> int:
        """004 Unit resistances: -N to damage of the matching type (regular when unnamed)."""
        total = 0
        for rule in self.rules:
            name = rule_key(rule.name)
            if not name.endswith("resistance") or name == "acidresistance":
                continue
            parts = [p.strip() for p in (rule.param or "").split(",") if p.strip()]
            kind = name[: -len("resistance")] or None
            numbers = [int(p) for p in parts if re.fullmatch(r"[+-]?\d+", p)]
            words = [p for p in parts if not re.fullmatch(r"[+-]?\d+", p)]
            kind = kind or (rule_key(words[0]) if words else "regular")
            if kind == rule_key(damage_type) and numbers:
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
        armour=tuple(armour) if armour is not None else None,
        assault=stats.get("assault"),
        deflection=stats.get("deflection"),
        tables={name: read_table(name, rows) for name, rows in stats["damage_tables"].items()},
        rules=tuple(side.rules),
        weapons=tuple(side.weapons),
        nation=side.extra.get("nation") if side.extra else None,
    )


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
        return {BLOCKED: 1.0}, {
            "blocked": 1.0,
            "partial": 0.0,
            "penetrated": 0.0,
        }  # 004 Special damage: no table, immune
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


def kills(row: Row | None, alive: int) -> int:
    if row is None:
        return 0
    if row.effect_value("Destroyed"):
        return alive  # 004 damage effects: Destroyed removes the whole unit
    return row.effect_value("Kill")


def per_hit(rows: Mapping[int, float], table: Sequence[Row], alive: int, effect: str | None = None) -> Dist:
    """Kills (or another effect's amount) one hit gives, from its row chances."""
    out: dict[int, float] = {}
    for index, p in rows.items():
        row = table[index] if index >= 0 else None
        value = kills(row, alive) if effect is None else (row.effect_value(effect) if row else 0)
        out[value] = out.get(value, 0.0) + p
    return Dist(out)

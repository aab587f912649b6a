"""What a game is worth: the result of one table as each player's points, secondary score and outcome.

Two ways of scoring, chosen by the event's game system:

- OPR family (Age of Fantasy, Grimdark Future, regiments): the players report win / draw /
  loss, worth ``POINTS`` (3 / 1 / 0), and the event's own secondary score (objectives,
  points destroyed …), which only ever breaks ties.
- armour-hex: the rulebook's own tournament scoring (``armour_hex_result``), computed from
  which units each side destroyed or crippled and what those units cost in the locked lists.

A bye is a win: 3 points and no secondary in the OPR family; in armour-hex the player keeps
every unit, destroys nothing and wins (their own remaining units' points and the bonus).

Errors::

    ScoringError   a result that does not fit the table (names the field at fault)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

POINTS = {"win": 3, "draw": 1, "loss": 0}
OPPOSITE = {"win": "loss", "loss": "win", "draw": "draw"}

# 004 "Victory Condition", "Tournament style: FIXED TIME": what each budget point of a unit is
# worth, destroyed / crippled by the enemy / still one's own at the end (industry counts triple).
DESTROYED = {"ip": 6, "mp": 2, "xp": 2, "cp": 2}
CRIPPLED = {"ip": 3, "mp": 1, "xp": 1, "cp": 1}
REMAINING = {"ip": 3, "mp": 1, "xp": 1, "cp": 1}
WINNER_BONUS = 16


class ScoringError(ValueError):
    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class GameScore:
    """One player's share of a game: standings points, the secondary score, the outcome."""

    points: float
    secondary: float
    outcome: str


def opr_result(
    players: Sequence[str], outcome: Mapping[str, str], secondary: Mapping[str, float]
) -> dict[str, GameScore]:
    """Win / draw / loss for both players of a table, and each one's secondary score.
    Raises ScoringError when a player is missing or unknown, or the outcomes disagree."""
    a, b = players
    for name, given in (("outcome", outcome), ("secondary", secondary)):
        if set(given) != {a, b}:
            raise ScoringError(name, f"give exactly the two players of the table: {a!r} and {b!r}")
    if any(o not in POINTS for o in outcome.values()):
        raise ScoringError("outcome", f"each outcome is one of {sorted(POINTS)}")
    if OPPOSITE[outcome[a]] != outcome[b]:
        raise ScoringError("outcome", f"{outcome[a]!r} for {a!r} and {outcome[b]!r} for {b!r} cannot both be true")
    return {p: GameScore(POINTS[outcome[p]], float(secondary[p]), outcome[p]) for p in (a, b)}


@dataclass(frozen=True)
class Losses:
    """What one side did to the other: the enemy units (keys of the enemy's list) it destroyed
    and those it crippled (the rulebook's definition: shaken at the end, half the models lost,
    a critical damage token, enough future damage, or fled)."""

    destroyed: frozenset[str] = frozenset()
    crippled: frozenset[str] = frozenset()


UnitCosts = Mapping[str, Mapping[str, float]]  # unit key -> {"ip": 4, "mp": 0, …}


def armour_hex_result(
    players: Sequence[str], costs: Mapping[str, UnitCosts], sides: Mapping[str, Losses]
) -> dict[str, GameScore]:
    """Match and tournament victory points of both players (004, Victory Condition,
    "Tournament style: FIXED TIME"): MVP from destroyed and crippled enemy units, one's own
    remaining units and 16 to whoever scored more before the bonus; standings points are
    TVP = sqrt(|MVP|), the secondary score is the MVP. Raises ScoringError."""
    a, b = players
    if set(sides) != {a, b}:
        raise ScoringError("sides", f"give what both players of the table did: {a!r} and {b!r}")
    enemy = {a: b, b: a}
    for player, losses in sides.items():
        _check_units(player, enemy[player], costs[enemy[player]], losses)
    before = {p: _match_points(costs[enemy[p]], costs[p], sides[p], sides[enemy[p]].destroyed) for p in (a, b)}
    result = {}
    for p in (a, b):
        mvp = before[p] + (WINNER_BONUS if before[p] > before[enemy[p]] else 0)
        outcome = "win" if before[p] > before[enemy[p]] else "loss" if before[p] < before[enemy[p]] else "draw"
        result[p] = GameScore(math.sqrt(abs(mvp)), float(mvp), outcome)
    return result


def armour_hex_bye(own: UnitCosts) -> GameScore:
    """A bye in armour-hex: nothing destroyed on either side, every own unit remains, a win."""
    mvp = _match_points({}, own, Losses(), frozenset()) + WINNER_BONUS
    return GameScore(math.sqrt(mvp), float(mvp), "win")


def _match_points(enemy: UnitCosts, own: UnitCosts, done: Losses, own_lost: frozenset[str]) -> float:
    # 004 "Tournament style: FIXED TIME": 6/2 per destroyed enemy IP/other point, 3/1 per crippled,
    # 3/1 per own point still on the table (one's own crippled units cost nothing).
    total = 0.0
    for key in done.destroyed:
        total += _worth(enemy[key], DESTROYED)
    for key in done.crippled:
        total += _worth(enemy[key], CRIPPLED)
    for key, cost in own.items():
        if key not in own_lost:
            total += _worth(cost, REMAINING)
    return total


def _worth(cost: Mapping[str, float], rate: Mapping[str, int]) -> float:
    return sum(rate[currency] * amount for currency, amount in cost.items() if currency in rate)


def _check_units(player: str, enemy: str, enemy_units: UnitCosts, losses: Losses) -> None:
    where = f"sides.{player}"
    for kind, keys in (("destroyed", losses.destroyed), ("crippled", losses.crippled)):
        unknown = sorted(k for k in keys if k not in enemy_units)
        if unknown:
            raise ScoringError(
                f"{where}.{kind}", f"{unknown} are not units of {enemy!r}'s list; its units: {sorted(enemy_units)}"
            )
    both = sorted(losses.destroyed & losses.crippled)
    if both:
        raise ScoringError(f"{where}.crippled", f"{both} cannot be both destroyed and crippled")

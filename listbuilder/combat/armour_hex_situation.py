"""Armour-hex combat (rulebook 004): the situation of a preview (speeds, terrain, facings, losses)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from listbuilder.combat.service import PreviewError

FACINGS = ("front", "front_side", "back_side", "back")
SHOOTING, ASSAULT = "shooting", "assault"
# 004 Fire, speeds: to-hit when firing at this speed, and to-be-hit when the target is at it.
SPEED_MODIFIER = {"still": 1, "crawling": 1, "rest": 1, "setup": 1, "slow": 0, "fast": -1}


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



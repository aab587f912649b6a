"""Armour-hex combat (rulebook 004): the situation of a preview (speeds, terrain, facings, losses)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

FACINGS = ("front", "front_side", "back_side", "back")
SHOOTING, ASSAULT = "shooting", "assault"
# 004 Fire, speeds: to-hit when firing at this speed, and to-be-hit when the target is at it.
SPEED_MODIFIER = {"still": 1, "crawling": 1, "rest": 1, "setup": 1, "slow": 0, "fast": -1}


@dataclass(frozen=True)
class Situation:
    """How the fight happens; ``attack`` is required, the rest has defaults. The API checks a
    request's situation (keys, limits, words) with
    ``listbuilder.shapes.hex_situations.ArmourHexSituationSchema`` before it gets here."""

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

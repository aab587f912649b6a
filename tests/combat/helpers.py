"""Small builders for combat tests: fighters from labels, situations with defaults."""

from __future__ import annotations

from listbuilder.combat.opr import AOF, AOFR, GF, SideState, Situation
from listbuilder.combat.profiles import Fighter
from listbuilder.model import RuleRef, Weapon

DIALECT = {"000": AOF, "001": GF, "002": AOFR}


def rules(*labels: str) -> tuple[RuleRef, ...]:
    return tuple(RuleRef.parse(label) for label in labels)


def weapon(name: str, attacks: int, rng: int = 0, *labels: str, count: int = 1) -> Weapon:
    return Weapon(name, attacks, rng, rules(*labels), count)


def unit(
    name: str,
    models: int,
    q: int,
    d: int,
    *labels: str,
    weapons: tuple[Weapon, ...] = (),
    heroes: tuple[Fighter, ...] = (),
) -> Fighter:
    rr = rules(*labels)
    tough = max(1, sum(r.rating or 0 for r in rr if r.name == "Tough") or 1)
    return Fighter(name, models, q, d, tough, rr, weapons, heroes, any(r.name == "Hero" for r in rr))


def situation(attack: str = "shooting", attacker: dict | None = None, defender: dict | None = None, **kw) -> Situation:
    return Situation(
        attack=attack, attacker=SideState(**(attacker or {})), defender=SideState(**(defender or {})), **kw
    )

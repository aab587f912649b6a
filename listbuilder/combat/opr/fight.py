"""One fight's fixed facts: who attacks whom, how, and where each side starts on its wound line.

Every phase (groups, hits, saves, wounds, the pick, morale, melee) reads the same
:class:`Fight`; none of them changes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from listbuilder.combat.opr.dialects import Dialect
from listbuilder.combat.opr.situation import SideState, Situation
from listbuilder.combat.profiles import Fighter, WoundLine, wound_line
from listbuilder.combat.service import PreviewError


@dataclass
class Fight:
    """The dialect, the situation, both fighters and their starting positions."""

    d: Dialect
    sit: Situation
    att: Fighter
    dfn: Fighter
    line_a: WoundLine
    line_d: WoundLine
    start_a: int
    start_d: int
    notes: list[str] = field(default_factory=list)

    @classmethod
    def of(
        cls,
        dialect: Dialect,
        attacker: Fighter,
        defender: Fighter,
        situation: Situation,
        *,
        start_d: int | None = None,
        line_d: WoundLine | None = None,
    ) -> Fight:
        """Lay both sides out; raises PreviewError for a state no unit can be in.

        ``start_d`` places the defender directly (a whole-turn preview carries the position
        its shooting left the target in), on ``line_d`` when given (the line a Sniper pick left
        it on: see :mod:`.pick`); otherwise the situation's defender state says.
        """
        line_a = wound_line(attacker)
        line_d = line_d or wound_line(defender)
        start_a = _start(line_a, situation.attacker, "attacker")
        if start_d is None:
            start_d = _start(line_d, situation.defender, "defender")
        return cls(dialect, situation, attacker, defender, line_a, line_d, start_a, start_d)

    def charged(self) -> bool:
        """Charging for special rules: 000 Phalanx takes the charge bonus away."""
        if not self.sit.charging:
            return False
        if self.d.phalanx and self.dfn.has("Phalanx") and all(h.has("Phalanx") for h in self.dfn.heroes):
            # 000 Phalanx: enemies charging it don't count as having charged for special rules.
            return False
        return True

    def over(self, inches: int) -> bool:
        return self.sit.range is not None and self.sit.range > inches

    def strikers(self, fighter: Fighter, line: WoundLine, p: int) -> tuple[int, tuple[int, ...]]:
        """(unit models, joined heroes) that attack from position p."""
        unit_alive = line.unit_alive(p)
        if self.d.rows and self.sit.melee:
            # 002 Melee: models in the two front rows strike
            unit_alive = min(unit_alive, 2 * row_width(fighter.models))
        return unit_alive, line.heroes_alive(p)


def _start(line: WoundLine, state: SideState, side: str) -> int:
    if state.models_lost >= line.models:
        raise PreviewError(
            f"situation.{side}.models_lost",
            f"the {side} has {line.models} models; {state.models_lost} lost leaves none",
        )
    room = line.tough[state.models_lost]
    if state.wounds_taken >= room:
        raise PreviewError(
            f"situation.{side}.wounds_taken",
            f"the next {side} model takes {room} wound(s) to kill; {state.wounds_taken} would have killed it",
        )
    return line.position(state.models_lost, state.wounds_taken)


def all_have(fighter: Fighter, name: str) -> bool:
    """The unit and every hero joined to it have the rule."""
    return fighter.has(name) and all(h.has(name) for h in fighter.heroes)


def members_at(fighter: Fighter, line: WoundLine, p: int) -> list[Fighter]:
    """The unit (while any of its own models stand) and the joined heroes alive at p."""
    return ([fighter] if line.unit_alive(p) > 0 else []) + [fighter.heroes[i] for i in line.heroes_alive(p)]


def row_width(models: int) -> int:
    """002 Regiments: 5 models per row for 5/10-model units, 3 per row for 3/6."""
    if models % 5 == 0:
        return 5
    if models % 3 == 0:
        return 3
    return max(1, models)

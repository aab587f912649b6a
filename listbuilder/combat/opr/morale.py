"""Morale and the melee result: who tests, on what, and the extra "wounds" a side counts.

Both depend only on a side and where it stands on its wound line, never on how it got there,
so each is worked out once per side and position and remembered: a melee reads them for every
joint outcome of the attack and the strike-back (thousands), but only tens of positions exist.
"""

from __future__ import annotations

from listbuilder.combat.opr.fight import Fight, members_at, row_width
from listbuilder.combat.opr.situation import SideState
from listbuilder.combat.profiles import Fighter, WoundLine
from listbuilder.dice import Dist, success_chance


class Morale:
    """Morale tests and melee-result bonuses for one fight."""

    def __init__(self, fight: Fight):
        self.f = fight
        # keyed by id(fighter), id(line): both live as long as the preview that owns this object
        self._fail: dict[tuple[int, int, int, SideState, str], float] = {}
        self._bonus: dict[tuple[int, int, int], Dist] = {}
        self._items: dict[tuple[int, int, int], tuple[tuple[int, float], ...]] = {}

    def fail(self, fighter: Fighter, line: WoundLine, p: int, state: SideState, *, flank: str = "front") -> float:
        """Chance a morale test fails for *fighter* standing at position p."""
        key = (id(fighter), id(line), p, state, flank)
        found = self._fail.get(key)
        if found is None:
            found = self._fail[key] = self._compute_fail(fighter, line, p, state, flank)
        return found

    def melee_bonus(self, fighter: Fighter, line: WoundLine, p: int) -> Dist:
        """Extra 'wounds' for the melee result: Fear, Musician/Battle Standard, full rows."""
        key = (id(fighter), id(line), p)
        found = self._bonus.get(key)
        if found is None:
            found = self._bonus[key] = self._compute_bonus(fighter, line, p)
        return found

    def bonus_items(self, fighter: Fighter, line: WoundLine, p: int) -> tuple[tuple[int, float], ...]:
        """The melee-result bonus as (value, probability) pairs, for tight loops."""
        key = (id(fighter), id(line), p)
        found = self._items.get(key)
        if found is None:
            found = self._items[key] = tuple(self.melee_bonus(fighter, line, p).items())
        return found

    def _compute_fail(self, fighter: Fighter, line: WoundLine, p: int, state: SideState, flank: str) -> float:
        d = self.f.d
        if state.shaken:
            return 1.0  # Wavering (000) / Shaken (001/002) units automatically fail morale tests
        members = members_at(fighter, line, p)
        if not members:
            return 1.0
        tester = min(members, key=lambda m: m.quality)  # Hero: the unit may test on the hero's Quality
        quality = tester.quality
        mod = 0
        if d.fearless_all_models:
            fearless = all(m.has("Fearless") for m in members)  # 002 Fearless: all models must have it
        else:
            fearless = tester.has("Fearless") or (line.unit_alive(p) > 0 and fighter.has("Fearless"))
        if fearless and d.fearless == "plus1":
            mod += 1  # 000 Fearless: +1 to morale test rolls
        if d.banner_morale and fighter.has("Banner") and line.unit_alive(p) > 0:
            mod += 1  # 002 Banner: +1 to morale test rolls
        if d.flanking and flank != "front":
            mod -= 1 if flank == "flank" else 2  # 002 Flanking: -1 (flank) / -2 (rear) to morale
        fail = 1.0 - success_chance(quality, mod)
        if fearless and d.fearless == "reroll4":
            fail *= 1.0 - success_chance(4)  # 001/002 Fearless: a failed test passes on 4+
        return fail

    @staticmethod
    def half_or_less(fighter: Fighter, line: WoundLine, p: int) -> bool:
        """Half or less of starting size (models), or of Tough for a single-model unit."""
        if line.models == 1:
            return (line.end - p) * 2 <= line.end
        return line.alive(p) * 2 <= line.models

    def _compute_bonus(self, fighter: Fighter, line: WoundLine, p: int) -> Dist:
        d = self.f.d
        if p >= line.end:
            return Dist.constant(0)
        members = members_at(fighter, line, p)
        bonus = 0
        dist = Dist.constant(0)
        if d.fear == "d3" and any(m.has("Fear") for m in members):
            dist = Dist({1: 1 / 3, 2: 1 / 3, 3: 1 / 3})  # 000 Fear: +D3 wounds when seeing who won
        elif d.fear == "x_unit":
            bonus += max(
                (max(1, m.rating("Fear")) for m in members if m.has("Fear")), default=0
            )  # 001 Fear(X): +X wounds
        elif d.fear == "x_model":
            for m in members:  # 002 Fear(X): each model with it counts +X wounds
                if m.has("Fear"):
                    count = line.unit_alive(p) if m is fighter else 1
                    bonus += max(1, m.rating("Fear")) * count
        if d.musician_wound and (fighter.has("Musician") or fighter.has("Battle Standard")):
            if line.unit_alive(p) > 0:
                bonus += 1  # 000 Musician / Battle Standard: +1 wound for the melee result
        if d.rows and fighter.models > 1:
            bonus += line.unit_alive(p) // row_width(fighter.models)  # 002 Melee Results: + full rows
        return dist.map(lambda v: v + bonus)

"""The pick: which defender model Sniper (000/001) and Takedown (002) attacks go at.

A picked model other than the next in the wound order may be left with any number of wounds,
which one position cannot say; each such outcome gets its own wound line (see
:class:`~listbuilder.combat.opr.outcomes.Outcomes`). :class:`Picking` also strikes the defender
from its start for every other phase, so with or without a pick they read the same keys.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from listbuilder.combat.opr.fight import Fight
from listbuilder.combat.opr.groups import Group
from listbuilder.combat.opr.outcomes import Outcomes
from listbuilder.combat.opr.saves import Saves
from listbuilder.combat.opr.situation import Pick
from listbuilder.combat.opr.wounds import Wounding
from listbuilder.combat.profiles import WoundLine
from listbuilder.combat.service import PreviewError
from listbuilder.dice import Dist
from listbuilder.util.words import counted


class Picking:
    """Where the defender's outcomes live for this attack, and how the attacker's dice reach them."""

    def __init__(self, fight: Fight, wounding: Wounding, saves: Saves):
        self.f = fight
        self.wounding = wounding
        self.saves = saves
        self.at = self._place()  # where the picked model stands on the defender's line
        self.picked: int | None = None  # ``at`` while a pick moves shots off the wound order
        self.ends: tuple[int, ...] = ()  # per outcome line: where the picked model falls
        self.out = Outcomes.one_line(fight.line_d, fight.start_d)

    def _place(self) -> int:
        """Where on the defender's line the picked model stands (the next model by default).

        000/001 Sniper, 002 Takedown: the attacker may pick any model of the target unit.
        """
        pick, line = self.f.sit.pick, self.f.line_d
        first = line.model_at(self.f.start_d)
        if pick.hero is not None:
            index = self._hero_index(pick)
            standing = [
                j
                for j in range(max(first, line.unit_models), line.models)
                if line.hero_index[j - line.unit_models] == index
            ]
            if not standing:
                raise PreviewError(
                    pick.where, f"{self.f.dfn.heroes[index].name} is already lost (situation.defender.models_lost)"
                )
            spot = standing[0]
        else:
            if isinstance(pick.model, bool) or not isinstance(pick.model, int) or pick.model < 0:
                raise PreviewError(pick.where, "a model's place is a whole number, 0 for the next model to take wounds")
            spot = first + pick.model
            if spot >= line.models:
                raise PreviewError(
                    pick.where,
                    f"{self.f.dfn.name} has {counted(line.models - first, 'model')} standing: places 0 to {line.models - first - 1} (0 = the next to take wounds)",
                )
        return spot

    def _hero_index(self, pick: Pick) -> int:
        """The joined hero a pick names, by index or by name."""
        heroes = self.f.dfn.heroes
        if not heroes:
            raise PreviewError(pick.where, f"{self.f.dfn.name} has no joined hero to pick")
        if isinstance(pick.hero, str):
            names = [h.name for h in heroes]
            found = [i for i, name in enumerate(names) if name.casefold() == pick.hero.casefold()]
            if not found:
                raise PreviewError(pick.where, f"{self.f.dfn.name} has no joined hero {pick.hero!r}; it has {names}")
            return found[0]
        if isinstance(pick.hero, bool) or not isinstance(pick.hero, int) or not 0 <= pick.hero < len(heroes):
            raise PreviewError(
                pick.where,
                f"{self.f.dfn.name} has {len(heroes)} joined hero(es): index 0 to {len(heroes) - 1}, or a name",
            )
        return pick.hero

    # -- conditions ----------------------------------------------------------------------

    def use(self, groups: list[Group]) -> None:
        """Turn the pick on for this attack, or note that no weapon in it can use a pick.

        A pick of the next model changes nothing but is still reported; any other model gets
        its own outcome lines (see :class:`Outcomes`).
        """
        if self.f.sit.pick.is_default:
            return
        if not any(g.single_model for g in groups):
            rule = "Sniper" if self.f.d.sniper else "Takedown"
            self.f.notes.append(f"pick: no {rule} weapon attacks here, so every hit follows the wound order; ignored")
            return
        m = self.at
        if m == self.f.line_d.model_at(self.f.start_d):
            self.ends = (self.f.line_d.ends[m],)
            return
        tough = self.f.line_d.tough[m]
        built = [self._line_with(m, tough - w) for w in range(tough)] + [self._line_with(m, 0)]
        self.picked = m
        self.ends = tuple(end for _, end in built)
        self.out = Outcomes.of(
            [line for line, _ in built], list(range(tough)) + [tough], self.f.line_d.alive(self.f.start_d)
        )

    def report(self, ends: Dist) -> dict[str, Any]:
        """Who was picked and the chance this attack left it dead (the reason to pick it)."""
        if not self.ends:
            return {}
        where, m = self.out, self.at
        dead = 0.0
        for k, w in ends.items():
            _, p = where.locate(k)
            if p >= self.ends[where.line_index(k)]:
                dead += w
        owner = self.saves.owner(self.f.dfn, self.f.line_d, m)
        return {
            "pick": {
                "name": owner.name,
                "hero": m >= self.f.line_d.unit_models,
                "place": m - self.f.line_d.model_at(self.f.start_d),
                "p_killed": dead,
            }
        }

    def _line_with(self, m: int, left_on_m: int) -> tuple[WoundLine, int]:
        """The defender's line at its start, but with model m left with *left_on_m* wounds to
        take; and the position at which m falls on it.

        Models already gone go first as zero-wound entries, counted with the unit's own models,
        so the line still knows the starting size and which members stand. Then the unit's
        models, most-wounded first, then the heroes, most-wounded first (000/001/002 Tough:
        wounds go on the most-wounded tough model; heroes are assigned wounds last, even if
        wounded).
        """
        line, start = self.f.line_d, self.f.start_d
        current = line.model_at(start)
        left = [0] * current + [line.model_end(start) - start] + list(line.tough[current + 1 :])
        left[m] = left_on_m
        taken = [line.tough[i] - left[i] for i in range(line.models)]
        gone = [i for i in range(line.models) if left[i] == 0]
        unit = sorted((i for i in range(line.unit_models) if left[i]), key=lambda i: -taken[i])
        heroes = sorted((i for i in range(line.unit_models, line.models) if left[i]), key=lambda i: -taken[i])
        order = gone + unit + heroes
        built = WoundLine(
            tuple(left[i] for i in order),
            len(gone) + len(unit),
            tuple(line.hero_index[i - line.unit_models] for i in heroes),
        )
        return built, built.ends[order.index(m)]

    def strike_defender(self, groups: list[Group], pa: int, shooting: bool) -> tuple[Dist, Dist]:
        """The attacker (at pa) strikes the defender from its start: (hits, keys of ``self.out``)."""
        if self.picked is None:
            return self.wounding.strike(
                groups,
                self.f.att,
                self.f.line_a,
                pa,
                self.f.dfn,
                self.f.line_d,
                Dist.constant(self.f.start_d),
                shooting,
            )
        return self._strike_at_pick(groups, pa, shooting)

    def _strike_at_pick(self, groups: list[Group], pa: int, shooting: bool) -> tuple[Dist, Dist]:
        """The attack with a picked model.

        The Sniper/Takedown groups go first, at the picked model alone. Then, for each number
        of wounds they left on it (or with it gone), the other groups hit the unit in the usual
        wound order, and the results are mixed with their weights. Hits of the two steps are
        independent once the state between them is known, so their sum is a convolution.
        """
        out = self.out
        unit_alive, heroes_alive = self.f.strikers(self.f.att, self.f.line_a, pa)
        first: dict[int, dict[int, float]] = {}  # outcome key -> {hits so far: weight}
        singles = [g for g in groups if g.single_model]
        for (h, key), w in self._pick_groups(singles, unit_alive, heroes_alive, shooting).items():
            by_hits = first.setdefault(key, {})
            by_hits[h] = by_hits.get(h, 0.0) + w
        rest = [g for g in groups if not g.single_model]
        hits_mix: list[tuple[float, Dist]] = []
        ends: dict[int, float] = {}
        for key, by_hits in first.items():
            weight = sum(by_hits.values())
            line, p = out.locate(key)
            rest_hits, rest_ends = self.wounding.strike(
                rest, self.f.att, self.f.line_a, pa, self.f.dfn, line, Dist.constant(p), shooting
            )
            hits_mix.append((weight, Dist({h: w / weight for h, w in by_hits.items()}) + rest_hits))
            for q, wq in rest_ends.items():
                ends[key - p + q] = ends.get(key - p + q, 0.0) + weight * wq
        return Dist.mixture(hits_mix), Dist(ends)

    def _pick_groups(
        self, singles: list[Group], unit_alive: int, heroes_alive: tuple[int, ...], shooting: bool
    ) -> dict[tuple[int, int], float]:
        """(hits, outcome key) after the Sniper/Takedown groups.

        000/001 Sniper, 002 Takedown: the picked model as a unit of 1 - its own one-model line,
        so Blast makes one hit, Deadly stops at its last wound and nothing carries over. Once
        it has fallen, a later such group picks the next model in the wound order, as it would
        without a pick.
        """
        out, m = self.out, self.picked
        assert m is not None
        tough = self.f.line_d.tough[m]
        alone = self.saves.alone(self.saves.owner(self.f.dfn, self.f.line_d, m))
        own = WoundLine((tough,), 1)
        gone_i = len(out.lines) - 1
        without = out.lines[gone_i]
        s_own, s_without = tough + 1, without.end + 1
        on_model: dict[int, float] = {0: 1.0}  # hits * s_own + wounds on the picked model
        gone: dict[int, float] = {}  # hits * s_without + position on the line without it
        for g in singles:
            n = g.attacks(unit_alive, heroes_alive)
            if n <= 0:
                continue
            if gone:
                gone = self.wounding.apply_group(g, n, self.f.dfn, without, gone, s_without, shooting)
            still: dict[int, float] = {}
            for k, w in self.wounding.apply_group(g, n, alone, own, on_model, s_own, shooting).items():
                h, wounds = divmod(k, s_own)
                if wounds >= tough:
                    gone[h * s_without] = gone.get(h * s_without, 0.0) + w
                else:
                    still[k] = still.get(k, 0.0) + w
            on_model = still
        result: dict[tuple[int, int], float] = {}
        sides: tuple[tuple[dict[int, float], int, Callable[[int], int]], ...] = (
            (on_model, s_own, lambda p: out.key(p, 0)),
            (gone, s_without, lambda p: out.key(gone_i, p)),
        )
        for states, s, line_of in sides:
            for k, w in states.items():
                h, p = divmod(k, s)
                result[(h, line_of(p))] = result.get((h, line_of(p)), 0.0) + w
        return result

    # -- dice ------------------------------------------------------------------------------

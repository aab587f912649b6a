"""OPR-family fighters: the numbers a combat needs, and the order wounds reach the models.

A :class:`Fighter` is one unit as it fights: how many models, their Quality, Defense and Tough,
their rules and weapons, and the heroes joined to it. It is built from a
:class:`~listbuilder.combat.service.Combatant` (book unit, list unit or inline profile alike),
so every source of a unit goes through the same code.

A :class:`WoundLine` lays the models out in the order the rules make wounds reach them: the
unit's own models first (the most-wounded tough model is always the one being filled, so
wounds fill one model at a time), joined heroes last. A position on the line is "how many
wounds the unit has absorbed so far", which is all the state an allocation needs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from listbuilder.combat.combatant import Combatant
from listbuilder.model import RuleRef, Weapon, rule_rating


@dataclass(frozen=True)
class Fighter:
    """One unit (or one joined hero) with its fighting numbers."""

    name: str
    models: int
    quality: int
    defense: int
    tough: int
    rules: tuple[RuleRef, ...]
    weapons: tuple[Weapon, ...]
    heroes: tuple[Fighter, ...] = ()
    is_hero: bool = False

    def has(self, name: str) -> bool:
        return any(r.name == name for r in self.rules)

    def rating(self, name: str, default: int = 0) -> int:
        return rule_rating(self.rules, name, default)

    @property
    def all_members(self) -> tuple[Fighter, ...]:
        return (self, *self.heroes)


def fighter_from(combatant: Combatant) -> Fighter:
    """A Combatant (any source) -> Fighter. Stats come from the book's ``quality``/``defense``."""
    unit = combatant.unit
    rules = tuple(combatant.rules)
    heroes = tuple(fighter_from(h) for h in combatant.heroes)
    return Fighter(
        name=combatant.name,
        models=combatant.models,
        quality=int(unit.stats.get("quality", 4)),
        defense=int(unit.stats.get("defense", 4)),
        tough=max(1, rule_rating(rules, "Tough", 1)),
        rules=rules,
        weapons=tuple(combatant.weapons),
        heroes=heroes,
        is_hero=any(r.name == "Hero" for r in rules),
    )


@dataclass(frozen=True)
class WoundLine:
    """Models in wound order; position p = wounds absorbed so far (0 = fresh, end = gone).

    ``ends[i]`` is the position at which model i dies. The unit's own models come first,
    heroes last (000/001/002 Tough: heroes are assigned wounds last).
    """

    tough: tuple[int, ...]  # wounds each model takes to die, in wound order
    unit_models: int  # the first unit_models entries are the unit's own models
    hero_index: tuple[int, ...] = field(default=())  # which Fighter.heroes each later model is

    @cached_property
    def ends(self) -> tuple[int, ...]:
        out, total = [], 0
        for t in self.tough:
            total += t
            out.append(total)
        return tuple(out)

    @cached_property
    def end(self) -> int:
        return self.ends[-1] if self.ends else 0

    @property
    def models(self) -> int:
        return len(self.tough)

    @cached_property
    def unit_end(self) -> int:
        return self.ends[self.unit_models - 1] if self.unit_models else 0

    @cached_property
    def _model_at(self) -> tuple[int, ...]:
        """Index of the model being filled at each position (len(tough) at the end)."""
        out, i = [], 0
        for p in range(self.end + 1):
            while i < len(self.ends) and self.ends[i] <= p:
                i += 1
            out.append(i)
        return tuple(out)

    def model_at(self, p: int) -> int:
        return self._model_at[p]

    def model_end(self, p: int) -> int:
        i = self._model_at[p]
        return self.ends[i] if i < len(self.ends) else self.end

    def alive(self, p: int) -> int:
        """Models still on the table at position p."""
        return self.models - self._model_at[p]

    def unit_alive(self, p: int) -> int:
        return max(0, self.unit_models - self._model_at[p])

    def heroes_alive(self, p: int) -> tuple[int, ...]:
        """Indexes (into Fighter.heroes) of the heroes still alive at p."""
        return self._heroes_alive[self._model_at[p]]

    @cached_property
    def _heroes_alive(self) -> tuple[tuple[int, ...], ...]:
        """heroes_alive for each model index being filled (previews ask it thousands of times)."""
        out = []
        for model in range(self.models + 1):
            first = max(model, self.unit_models)
            out.append(tuple(self.hero_index[i - self.unit_models] for i in range(first, self.models)))
        return tuple(out)

    def position(self, models_lost: int, wounds_taken: int) -> int:
        """The position of a unit that already lost models and took wounds on the next one."""
        base = self.ends[models_lost - 1] if models_lost else 0
        return base + wounds_taken


def wound_line(fighter: Fighter) -> WoundLine:
    """The unit's models, then its heroes (000/001/002 Tough: heroes take wounds last)."""
    toughs = [fighter.tough] * fighter.models
    index: list[int] = []
    for i, hero in enumerate(fighter.heroes):
        toughs.extend([hero.tough] * hero.models)
        index.extend([i] * hero.models)
    return WoundLine(tuple(toughs), fighter.models, tuple(index))


def labels(rules: Iterable[RuleRef]) -> list[str]:
    return [r.label for r in rules]

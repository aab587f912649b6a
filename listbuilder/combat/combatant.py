"""One side of a combat preview, as every rules family's engine receives it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from listbuilder.model import Item, RuleRef, Unit, Weapon


@dataclass(frozen=True)
class Combatant:
    """One side of a preview as it hits the table, in family-neutral terms.

    ``unit`` is the book (or inline) unit before upgrades: its ``stats`` hold the family's
    profile. ``weapons``, ``items`` and ``rules`` are after upgrades (``rules`` includes what
    items grant). A combined pair is one Combatant with both halves' models and gear; heroes
    joined to the unit ride along in ``heroes`` so each family applies its own joining rules.
    """

    name: str
    unit: Unit
    models: int
    weapons: tuple[Weapon, ...]
    items: tuple[Item, ...]
    rules: tuple[RuleRef, ...]
    heroes: tuple[Combatant, ...] = ()
    source: str = "profile"
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def stats(self) -> Mapping[str, Any]:
        return self.unit.stats

    def summary(self) -> dict[str, Any]:
        """What the response echoes back about this side."""
        out: dict[str, Any] = {
            "name": self.name,
            "unit": self.unit.id,
            "source": self.source,
            "models": self.models,
            "stats": dict(self.unit.stats),
            "rules": [r.label for r in self.rules],
            "weapons": [{"name": w.name, "count": w.count, "label": w.label} for w in self.weapons],
        }
        if self.heroes:
            out["heroes"] = [h.summary() for h in self.heroes]
        return out

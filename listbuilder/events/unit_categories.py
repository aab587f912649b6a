"""What kind of unit an army book's entry is, for the statistics' points spent by category
(``events/statistics.py``): one small function per rules family, reading what that family's
books say of a unit, so the categories are the ones its players think in (docs/events.md).

- OPR (Grimdark Future, Age of Fantasy, regiments): heroes; single big models (monsters,
  vehicles: one model above Tough(3), too big for a transport); and the other units.
- ancients-hex: the unit class its book gives (heroes, troops, beasts).
- armour-hex: the unit type its book gives (vehicles, infantry, cavalry).

A family with none of its own (a family added later) counts heroes and units.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from listbuilder.model import Unit

# 001 "Transport(X)": a non-hero above Tough(3) rides no transport; one such model is a big one.
TRANSPORTED_TOUGH = 3
PLURALS = {"hero": "heroes", "beast": "beasts", "vehicle": "vehicles"}


def opr_category(unit: Unit) -> str:
    if unit.is_hero:
        return "heroes"
    return "big models" if unit.size == 1 and unit.tough > TRANSPORTED_TOUGH else "units"


def ancients_hex_category(unit: Unit) -> str:
    return _plural(unit.stats.get("unit_class"))


def armour_hex_category(unit: Unit) -> str:
    return _plural(unit.stats.get("unit_type"))


def _plural(kind: object) -> str:
    return PLURALS.get(str(kind), str(kind)) if kind else "units"


def any_category(unit: Unit) -> str:
    return "heroes" if unit.is_hero else "units"


BY_FAMILY: Mapping[str, Callable[[Unit], str]] = {
    "opr": opr_category,
    "ancients-hex": ancients_hex_category,
    "armour-hex": armour_hex_category,
}


def category(family: str, unit: Unit) -> str:
    """*unit*'s category in the statistics, as its *family*'s books say (see the module's doc)."""
    return BY_FAMILY.get(family, any_category)(unit)

"""The stats each rules family's units carry, by family.

The family's unit schema reads them into ``Unit.stats``; the API's unit output lists them as
properties. Kept apart from the book schemas so that the API can be documented without
creating those schema classes: with the loaded books cached, they are needed only when a
book is read from its text.
"""

from __future__ import annotations

STAT_NAMES: dict[str, tuple[str, ...]] = {
    "opr": ("quality", "defense"),
    "ancients-hex": (
        "unit_class", "activation", "figures", "hexes", "move", "attack", "missile",
        "missile_range", "defence", "willpower", "hit_points", "keyword", "spell_roles",
    ),
    "armour-hex": (
        "unit_type", "bio", "size_class", "fire_orders", "speeds", "armour", "assault",
        "deflection", "damage_tables", "hand_slots", "shared_slots",
    ),
}

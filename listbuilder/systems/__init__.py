"""Registry of rules families: a system's ``family`` names the object that enforces its rules."""

from __future__ import annotations

from listbuilder.model import GameSystem
from listbuilder.systems.ancients_hex import AncientsHexRules
from listbuilder.systems.armour_hex import ArmourHexRules
from listbuilder.systems.base import SystemRules
from listbuilder.systems.opr import OprRules

FAMILIES: dict[str, type[SystemRules]] = {
    OprRules.family: OprRules,
    AncientsHexRules.family: AncientsHexRules,
    ArmourHexRules.family: ArmourHexRules,
}


def rules_for(system: GameSystem) -> SystemRules:
    """The rules object for *system*; raises KeyError for a family nobody implements."""
    return FAMILIES[system.family](system)


__all__ = ["FAMILIES", "SystemRules", "rules_for"]

"""Combat previews: exact odds for one attacker against one defender, per rules family.

The entry point is :func:`listbuilder.combat.service.preview`. Each rules family names its
engine in its record (``listbuilder.families``), so the API and the CLI never branch on a
system id. Nothing in this package imports Flask, YAML or marshmallow:
requests arrive already parsed (lists as :class:`~listbuilder.model.ArmyList`, inline profiles
as :class:`~listbuilder.model.Unit`) by ``listbuilder.previews``.
"""

from __future__ import annotations

from listbuilder.combat.combatant import Combatant
from listbuilder.combat.service import PreviewError, preview

__all__ = ["Combatant", "PreviewError", "preview"]

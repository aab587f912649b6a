"""Combat previews: exact odds for one attacker against one defender, per rules family.

The entry point is :func:`listbuilder.combat.service.preview`. Each rules family names its
engine in its record (``listbuilder.families``), so the API and the CLI never branch on a
system id. Nothing in this package imports Flask, YAML or marshmallow:
requests arrive already parsed (lists as :class:`~listbuilder.model.ArmyList`, inline profiles
as :class:`~listbuilder.model.Unit`) by ``listbuilder.shapes.preview_requests``.

Modules entered from outside:

- ``service``: ``preview`` and ``preview_turn``, the one way in; each family's engine is named by its record
- ``budget``: the work a preview may cost, refused before it starts
- ``profiles``: a unit's fighting profile (fighters and wound lines) from a book or list entry
- ``opr``: the OPR family's engine (one fight and the whole turn), by rulebook dialect
- ``ancients_hex``: the ancients-hex engine and its ``Situation``
- ``armour_hex``: the armour-hex engine
- ``armour_hex_situation``: the armour-hex ``Situation`` (speeds, facings, terrain)

May import: ``model``, ``validation``, ``dice``, ``resolve``, ``families``, ``util``; the
loader's ``BookRegistry`` in annotations only.
"""

from __future__ import annotations

from listbuilder.combat.combatant import Combatant
from listbuilder.combat.service import PreviewError, preview

__all__ = ["Combatant", "PreviewError", "preview"]

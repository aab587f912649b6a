"""Every rules family the service knows: one :class:`Family` record each, registered here.

A game system's ``family`` (in its ``_system.yaml``) names the record. The record names all
that differs between families: the rules class (book checks and list validation; ``listbuilder.systems.rules.rules_for`` makes one per system), the
schemas of its files, the stats its units carry, the combat engines and the situation they
read, and the roster sheet. Adding a family is writing those parts and registering one record
(docs/architecture.md, "Adding a rules family", lists the steps; ``tests/test_adding_a_family.py``
follows them for a toy family).

The record is a catalogue at the bottom of the house: every module may read it, so it
imports none of the parts it names. Each part is a ``"module:name"`` string, imported on first
use by :meth:`Family.part` (or the object itself, as a test's toy family gives it). So the
core never imports the edges (the marshmallow schemas), start-up pays only for what it uses
(the engines load with the first preview), and the families' modules never import each other.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

# The parts of a record, each an object or a "module:name" string.
PARTS = (
    "rules",
    "system_schema",
    "book_schema",
    "engine",
    "situation_schema",
    "turn_engine",
    "turn_situation_schema",
    "sheet",
    "answers",
)


@dataclass(frozen=True)
class Family:
    """One rules family: everything the service needs to read, check, preview and print it.

    ``system_schema`` and ``book_schema`` read ``_system.yaml`` and the army books into model
    objects; ``stat_names`` are the unit stats the book schema lifts into ``Unit.stats``
    (also listed by the API's unit output). ``engine(system, attacker, defender, situation)``
    answers a combat preview, with the situation loaded by ``situation_schema`` when there is
    one; ``turn_engine`` and ``turn_situation_schema`` do the same for a whole turn. A family
    without an engine has no previews; ``counts_wounds`` says its engine's answers count wounds
    (``expected.wounds``), which a loadout comparison weighs per 100 points. ``rules`` is the :class:`SystemRules` subclass that
    checks books and lists; ``sheet`` (a ``listbuilder.printing.sheets.FamilySheet``) says how its
    units print (every plain stat when it has none). ``answers`` (a
    ``listbuilder.shapes.preview_answers.FamilyAnswers``) declares what its previews and its
    system's limits hold in the OpenAPI document (the shared, loosely typed shape when it has none).
    """

    id: str
    rules: Any
    stat_names: tuple[str, ...]
    system_schema: Any
    book_schema: Any
    engine: Any = None
    situation_schema: Any = None
    turn_engine: Any = None
    turn_situation_schema: Any = None
    sheet: Any = None
    answers: Any = None
    counts_wounds: bool = False
    # Parts imported so far. Not an init field: every record, a variant included, starts with
    # its own (a copy sharing it would hand out the original's engine for the variant's).
    _loaded: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    def variant(self, **changes: Any) -> Family:
        """A copy of this record with *changes* (another id, engine or sheet), loading its own parts."""
        return replace(self, **changes)

    def part(self, name: str) -> Any:
        """The part called *name* (one of :data:`PARTS`), imported on first use; None when the
        family has none. Raises ImportError or AttributeError when a named part is missing."""
        if name not in PARTS:
            raise ValueError(f"not a part of a family record: {name!r}")
        if name not in self._loaded:
            value = getattr(self, name)
            if isinstance(value, str):
                module_name, _, attr = value.partition(":")
                value = getattr(importlib.import_module(module_name), attr)
            self._loaded[name] = value
        return self._loaded[name]


FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    """Make *family* known by its id (a later record with the same id replaces it)."""
    FAMILIES[family.id] = family
    return family


def unregister(family_id: str) -> None:
    FAMILIES.pop(family_id, None)


class _OfAFamily(Protocol):
    @property
    def family(self) -> str: ...  # a GameSystem's family id (read-only: GameSystem is frozen)


def family_of(system: _OfAFamily) -> Family:
    """The record of *system*'s family; raises KeyError for a family nobody registered."""
    return FAMILIES[system.family]


# --------------------------------------------------------------------------------------------
# The families


OPR = register(
    Family(
        id="opr",
        rules="listbuilder.systems.opr:OprRules",
        stat_names=("quality", "defense"),
        system_schema="listbuilder.formats.opr:OprSystemSchema",
        book_schema="listbuilder.formats.opr:OprBookSchema",
        engine="listbuilder.combat.opr:engine",
        situation_schema="listbuilder.shapes.previews:OprSituationSchema",
        turn_engine="listbuilder.combat.opr:turn_engine",
        turn_situation_schema="listbuilder.shapes.previews:OprTurnSituationSchema",
        sheet="listbuilder.printing.sheets:OPR_SHEET",
        answers="listbuilder.shapes.opr_answers:OPR_ANSWERS",
        counts_wounds=True,
    )
)

ANCIENTS_HEX = register(
    Family(
        id="ancients-hex",
        rules="listbuilder.systems.ancients_hex:AncientsHexRules",
        stat_names=(
            "unit_class",
            "activation",
            "figures",
            "hexes",
            "move",
            "attack",
            "missile",
            "missile_range",
            "defence",
            "willpower",
            "hit_points",
            "keyword",
            "spell_roles",
        ),
        system_schema="listbuilder.formats.ancients_hex:AncientsHexSystemSchema",
        book_schema="listbuilder.formats.ancients_hex:AncientsHexBookSchema",
        engine="listbuilder.combat.ancients_hex:engine",
        situation_schema="listbuilder.shapes.hex_situations:AncientsHexSituationSchema",
        sheet="listbuilder.printing.sheets:ANCIENTS_HEX_SHEET",
        answers="listbuilder.shapes.ancients_hex_answers:ANCIENTS_HEX_ANSWERS",
    )
)

ARMOUR_HEX = register(
    Family(
        id="armour-hex",
        rules="listbuilder.systems.armour_hex:ArmourHexRules",
        stat_names=(
            "unit_type",
            "bio",
            "size_class",
            "fire_orders",
            "speeds",
            "armour",
            "assault",
            "deflection",
            "damage_tables",
            "hand_slots",
            "shared_slots",
        ),
        system_schema="listbuilder.formats.armour_hex:ArmourHexSystemSchema",
        book_schema="listbuilder.formats.armour_hex:ArmourHexBookSchema",
        engine="listbuilder.combat.armour_hex:engine",
        situation_schema="listbuilder.shapes.hex_situations:ArmourHexSituationSchema",
        sheet="listbuilder.printing.sheets:ARMOUR_HEX_SHEET",
        answers="listbuilder.shapes.armour_hex_answers:ARMOUR_HEX_ANSWERS",
    )
)

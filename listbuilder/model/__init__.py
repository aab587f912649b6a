"""Frozen domain values: game systems, army books, units, upgrades, and army lists.

Everything here is plain data built once by the loader (``books/loader.py``) or the list parser and
never mutated afterwards, so the same objects can be shared by every request and every worker
thread. Nothing in this package knows about YAML, Flask or marshmallow. Costs
(``model/cost.py``) and submitted lists (``model/army_list.py``) have modules of their own;
every value is imported from ``listbuilder.model``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

# Re-exported: the model's users import every domain value from ``listbuilder.model``.
from listbuilder.model.army_list import ArmyList as ArmyList
from listbuilder.model.army_list import ChosenUpgrade as ChosenUpgrade
from listbuilder.model.army_list import ListEntry as ListEntry
from listbuilder.model.cost import Cost as Cost

# --------------------------------------------------------------------------------------------
# Special rules

_LABEL = re.compile(r"^\s*(?P<name>[^()]+?)\s*(?:\(\s*(?P<param>[^()]*?)\s*\))?\s*$")


@dataclass(frozen=True)
class RuleRef:
    """A special rule as a unit or weapon carries it: a name and an optional parameter.

    ``Tough(3)`` is ``RuleRef("Tough", "3")``. The parameter stays a string because some
    rules take words or signed numbers (``AP(+1)``, ``Bane(Undead)``); :attr:`rating` gives the
    number when there is one.
    """

    name: str
    param: str | None = None

    @classmethod
    def parse(cls, label: str) -> RuleRef:
        """Read a label such as ``"Tough(3)"``; raises ValueError when it is not one."""
        match = _LABEL.match(label)
        if not match or not match.group("name"):
            raise ValueError(f"not a rule label: {label!r}")
        param = match.group("param")
        return cls(match.group("name"), param if param not in (None, "") else None)

    @cached_property
    def rating(self) -> int | None:
        """The parameter as a number, or None (kept: validation asks for it on every merge)."""
        if self.param is None:
            return None
        try:
            return int(self.param)
        except ValueError:
            return None

    @property
    def label(self) -> str:
        return self.name if self.param is None else f"{self.name}({self.param})"

    def __str__(self) -> str:
        return self.label


def rule_rating(rules: Iterable[RuleRef], name: str, default: int = 0) -> int:
    """The summed rating of every rule called *name* (``Tough(3)`` twice gives 6)."""
    ratings = [r.rating or 0 for r in rules if r.name == name]
    return sum(ratings) if ratings else default


def has_rule(rules: Iterable[RuleRef], name: str) -> bool:
    return any(r.name == name for r in rules)


@dataclass(frozen=True)
class RuleDefinition:
    """A glossary entry: what a special rule does, in the project's own words.

    ``param`` names the rule's parameter (``"X"`` for ``Tough(X)``) or is None for rules that
    take none. ``mentions`` lists other rules the text refers to, so the printed quick
    reference can explain those too.
    """

    name: str
    text: str
    param: str | None = None
    kind: str = "unit"
    mentions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Spell:
    """A spell a caster may cast or a magician may choose; ``value`` is its cost or threshold."""

    id: str
    name: str
    value: int
    text: str
    limited_to: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)


# --------------------------------------------------------------------------------------------
# Units and their equipment


@dataclass(frozen=True)
class Weapon:
    """A weapon profile, ``count`` copies of it in the unit.

    ``range`` is 0 for melee weapons. ``extra`` carries system-specific fields (armour-hex AP
    and damage dice, ancients-hex missile range) that the OPR family does not need.
    ``id`` tells apart two profiles that share a name (a unit's "CCW (A1)" and the "CCW (A2)"
    an upgrade gives): upgrades count and replace gear by :attr:`gear_key`, which is the id
    when there is one and the name otherwise. ``carried_by`` names the item a weapon comes
    with (a mount's hooves), set when the unit's final gear is built.
    """

    name: str
    attacks: int
    range: int = 0
    rules: tuple[RuleRef, ...] = ()
    count: int = 1
    extra: Mapping[str, Any] = field(default_factory=dict)
    id: str = ""
    carried_by: str = ""

    @property
    def is_melee(self) -> bool:
        return self.range == 0

    @cached_property
    def gear_key(self) -> str:
        return self.id or self.name

    def with_count(self, count: int) -> Weapon:
        return Weapon(self.name, self.attacks, self.range, self.rules, count, self.extra, self.id, self.carried_by)

    @property
    def label(self) -> str:
        parts = [f'{self.range}"'] if self.range else []
        parts.append(f"A{self.attacks}")
        parts.extend(r.label for r in self.rules)
        return f"{self.name} ({', '.join(parts)})"


@dataclass(frozen=True)
class Item:
    """A piece of wargear that is not a weapon but grants rules (a shield, a banner).

    ``weapons`` are weapons that come inside the item, per copy of it (a mount's horns, a
    walker's crew): they are part of the unit's weapons while it has the item, and leave with
    it. ``id`` works as :attr:`Weapon.id`.
    """

    name: str
    rules: tuple[RuleRef, ...] = ()
    count: int = 1
    extra: Mapping[str, Any] = field(default_factory=dict)
    id: str = ""
    weapons: tuple[Weapon, ...] = ()

    @cached_property
    def gear_key(self) -> str:
        return self.id or self.name

    def with_count(self, count: int) -> Item:
        return Item(self.name, self.rules, count, self.extra, self.id, self.weapons)

    def carried_weapons(self) -> tuple[Weapon, ...]:
        """The weapons inside this item, counted for every copy the unit has."""
        return tuple(
            Weapon(w.name, w.attacks, w.range, w.rules, w.count * self.count, w.extra, w.id, self.name)
            for w in self.weapons
        )


# How many models an upgrade section touches.
AFFECTS_UNIT = "unit"  # the unit as a whole (heroes, vehicles, "upgrade with")
AFFECTS_ONE = "one"  # exactly one model
AFFECTS_ALL = "all"  # every model, bought once for the unit
AFFECTS_UP_TO = "up_to"  # up to N models
AFFECTS_ANY = "any"  # any number of models


@dataclass(frozen=True)
class Gains:
    """What an upgrade option gives: weapons, items and rules (and system extras).

    ``weapon_rules`` go to the weapons the section targets rather than to the unit (a scope
    that makes one rifle Precise); only sections with ``targets`` give them.
    """

    weapons: tuple[Weapon, ...] = ()
    items: tuple[Item, ...] = ()
    rules: tuple[RuleRef, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)
    weapon_rules: tuple[RuleRef, ...] = ()

    def all_rules(self) -> Iterator[RuleRef]:
        yield from self.rules
        yield from self.weapon_rules
        for weapon in self.weapons:
            yield from weapon.rules
        for item in self.items:
            yield from item.rules
            for weapon in item.weapons:
                yield from weapon.rules


@dataclass(frozen=True)
class UpgradeOption:
    """One choice in an upgrade section.

    ``cost`` is per affected model for one/up-to/any sections and for the whole unit for
    unit/all sections, and may be negative (a cheaper weapon swapped in); ``unit_costs``
    overrides it for named units (the same section offered to a 5-model and a 10-model unit
    costs them differently). ``requires`` lists
    ``"section/option"`` references that must be taken first; ``command`` marks a command-group
    role (sergeant, musician, banner) that a unit may hold once.
    """

    id: str
    label: str
    cost: Cost
    gains: Gains = field(default_factory=Gains)
    unit_costs: Mapping[str, Cost] = field(default_factory=dict)
    requires: tuple[str, ...] = ()
    command: str | None = None
    elite_only: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)

    def cost_for(self, unit_id: str) -> Cost:
        return self.unit_costs.get(unit_id, self.cost)


@dataclass(frozen=True)
class UpgradeSection:
    """A block of upgrade options, e.g. "Replace up to two Rifles with one:".

    ``variant`` is ``replace`` (``replaces`` names the weapons or items given up, one of each
    per affected model, or ``replace_counts[name]`` of them: "replace 2x CCW"), ``upgrade``,
    or ``attachment`` (gear fixed to a weapon the unit keeps). ``targets`` ties an upgrade or
    an attachment to gear the unit has: each copy of that gear takes the section at most once,
    and the options' ``weapon_rules`` change those copies. ``affects`` says how many models
    (or copies of the targeted gear) take the section (``affects_count`` is N for ``up_to``).
    ``pick_max`` bounds how many options each affected model (or the unit) takes: 1 for
    "one of", None for "any number of". Gear is named by gear key or by name (every profile
    with that name, in the order the unit gets them).
    """

    id: str
    label: str
    variant: str
    affects: str
    options: tuple[UpgradeOption, ...]
    replaces: tuple[str, ...] = ()
    affects_count: int | None = None
    pick_max: int | None = 1
    pick_min: int = 0
    replace_counts: Mapping[str, int] = field(default_factory=dict)
    targets: tuple[str, ...] = ()

    def copies_replaced(self, gear: str) -> int:
        """How many copies of *gear* one affected model gives up ("replace 2x" gives 2)."""
        return self.replace_counts.get(gear, 1)

    def option(self, option_id: str) -> UpgradeOption | None:
        for option in self.options:
            if option.id == option_id:
                return option
        return None

    @property
    def applies_to_all_models(self) -> bool:
        return self.affects == AFFECTS_ALL


def gear_aliases(profiles: Iterable[Weapon | Item]) -> dict[str, tuple[str, ...]]:
    """Gear reference -> gear keys it names (each key itself first, then by name, in order),
    kept only where that is not just the key itself: a book without ids has none, and gear
    lookups stay one dictionary probe."""
    aliases: dict[str, tuple[str, ...]] = {}
    for gear in profiles:
        key = gear.gear_key
        aliases[key] = (key, *(k for k in aliases.get(key, ()) if k != key))
        if gear.name != key:
            aliases[gear.name] = (*aliases.get(gear.name, ()), key)
    return {ref: keys for ref, keys in aliases.items() if keys != (ref,)}


@dataclass(frozen=True)
class Unit:
    """A unit entry in an army book, before any upgrade is bought.

    ``stats`` holds the system's own profile (OPR: quality and defense; ancients-hex: move,
    attack dice, willpower; armour-hex: speeds and armour facings), so the core stays one
    shape for every system.
    """

    id: str
    name: str
    size: int
    cost: Cost
    stats: Mapping[str, Any] = field(default_factory=dict)
    rules: tuple[RuleRef, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    items: tuple[Item, ...] = ()
    upgrades: tuple[str, ...] = ()
    description: str = ""
    tags: tuple[str, ...] = ()

    @cached_property
    def is_hero(self) -> bool:
        return has_rule(self.rules, "Hero")

    @property
    def is_multi_model(self) -> bool:
        return self.size > 1

    @cached_property
    def tough(self) -> int:
        return rule_rating(self.rules, "Tough", default=1)

    @cached_property
    def gear_counts(self) -> Mapping[str, int]:
        """How many of each weapon and item the unit starts with, by gear key (the name
        unless two profiles share it)."""
        counts: dict[str, int] = {}
        gears: tuple[Weapon | Item, ...] = (*self.weapons, *self.items)
        for gear in gears:
            counts[gear.gear_key] = counts.get(gear.gear_key, 0) + gear.count
        return counts

    @cached_property
    def gear_by_key(self) -> Mapping[str, Weapon | Item]:
        """Each weapon and item profile the unit starts with, by gear key."""
        found: dict[str, Weapon | Item] = {}
        gears: tuple[Weapon | Item, ...] = (*self.weapons, *self.items)
        for gear in gears:
            found.setdefault(gear.gear_key, gear)
        return found

    @cached_property
    def weapons_by_key(self) -> Mapping[str, Weapon]:
        return {k: g for k, g in self.gear_by_key.items() if isinstance(g, Weapon)}

    @cached_property
    def items_by_key(self) -> Mapping[str, Item]:
        return {k: g for k, g in self.gear_by_key.items() if isinstance(g, Item)}

    @cached_property
    def gear_aliases(self) -> Mapping[str, tuple[str, ...]]:
        """What a gear reference in an upgrade section means for this unit: a gear key names
        itself, a name names every profile that carries it (exact key first). Sparse: see
        :func:`gear_aliases`; :meth:`gear_keys` reads it."""
        return gear_aliases(self.gear_by_key.values())

    def gear_keys(self, name: str) -> tuple[str, ...]:
        """The gear keys a reference names among the unit's own gear."""
        keys = self.gear_aliases.get(name)
        if keys is None:
            return (name,) if name in self.gear_counts else ()
        return keys

    @cached_property
    def weapons_by_name(self) -> Mapping[str, Weapon]:
        return {w.name: w for w in self.weapons}

    @cached_property
    def items_by_name(self) -> Mapping[str, Item]:
        return {i.name: i for i in self.items}

    def stat(self, name: str, default: Any = None) -> Any:
        return self.stats.get(name, default)


@dataclass(frozen=True)
class ArmyBook:
    """One faction's army book for one game system."""

    id: str
    system: str
    name: str
    version: str
    faction: str
    description: str
    units: tuple[Unit, ...]
    sections: Mapping[str, UpgradeSection]
    rules: Mapping[str, RuleDefinition] = field(default_factory=dict)
    spells: tuple[Spell, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)
    source: str = ""
    # SHA-256 of the file the book was read from (set by the loader): saved lists and
    # verification codes record it, so a changed book is noticed.
    digest: str = ""
    # Rules the book uses that neither the system glossary nor the book defines (an imported
    # book whose export named a core rule without its text). They load with a warning, lists
    # using them get a warning issue, and the combat preview cannot model them.
    undefined_rules: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Resolved entries keyed by (unit id, upgrade rows); filled by listbuilder.resolve.
        object.__setattr__(self, "resolution_memo", {})

    @cached_property
    def _units_by_id(self) -> dict[str, Unit]:
        return {u.id: u for u in self.units}

    def unit(self, unit_id: str) -> Unit | None:
        return self._units_by_id.get(unit_id)

    def sections_of(self, unit: Unit) -> tuple[UpgradeSection, ...]:
        return tuple(self.sections[s] for s in unit.upgrades if s in self.sections)

    @cached_property
    def offers(self) -> Mapping[str, Mapping[tuple[str, str], tuple[UpgradeSection, UpgradeOption]]]:
        """Per unit id, every ``(section id, option id)`` it may buy: one lookup per list row."""
        return {u.id: {(s.id, o.id): (s, o) for s in self.sections_of(u) for o in s.options} for u in self.units}

    @cached_property
    def mandatory_sections(self) -> Mapping[str, tuple[UpgradeSection, ...]]:
        """Per unit id, the sections that demand a choice (checked even when nothing is taken)."""
        return {u.id: tuple(s for s in self.sections_of(u) if s.pick_min) for u in self.units}


@dataclass(frozen=True)
class GameSystem:
    """A game system's data: its glossary of core rules and its composition parameters.

    ``composition`` is the raw parameter mapping from ``_system.yaml`` (force organisation
    ratios, hero joining limits, regiment sizes, budgets, game modes); each rules family in
    ``listbuilder.systems`` reads the keys it understands.
    """

    id: str
    name: str
    family: str
    rulebook: str
    edition: str
    description: str
    glossary: Mapping[str, RuleDefinition]
    composition: Mapping[str, Any]
    spells: tuple[Spell, ...] = ()
    notes: tuple[str, ...] = ()
    source: str = ""
    digest: str = ""  # SHA-256 of the system file, as ArmyBook.digest
    # How books written for another edition read here: {"edition", "same", "changes"} (books/editions.py)
    imported_books: Mapping[str, Any] = field(default_factory=dict)


def spell_chart(system: GameSystem, book: ArmyBook) -> dict[str, Spell]:
    """Every spell a list of this book may name, by id: the system's chart, then the book's own."""
    return {s.id: s for s in (*system.spells, *book.spells)}

"""What every rules family provides, and the mechanics they all share.

A family (OPR, ancients-hex, armour-hex) is a subclass of :class:`SystemRules` with its data
(the GameSystem read from ``_system.yaml``) and its hooks: ``check_book`` for army-building
facts a loaded book must respect, ``validate`` for a submitted list, ``describe`` for the API.
Shared steps (resolving every entry against the book, totalling costs) live here once.
:func:`rules_for` finds a system's rules class through its family record.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from listbuilder.families import family_of
from listbuilder.model import ArmyBook, ArmyList, Cost, GameSystem, Item, RuleRef, Weapon
from listbuilder.resolve import ResolvedEntry, resolve_entry
from listbuilder.validation import WARNING, Issue, ValidationReport

# Codes every family can emit; each family adds its own in ISSUE_CODES.
COMMON_CODES: Mapping[str, str] = {
    "book.unknown_unit": "The entry names a unit the army book does not have.",
    "upgrade.unknown_section": "The upgrade names a section the army book does not have.",
    "upgrade.not_offered": "The section exists but is not offered to this unit.",
    "upgrade.unknown_option": "The section has no option with that id.",
    "upgrade.count": "More models take the option than the section allows.",
    "upgrade.select": "More options (or option uses) than the section's select bound.",
    "upgrade.required": "A section that needs a choice has none (or too few).",
    "upgrade.replace_exceeds": "Replaces more copies of a weapon or item than the unit still has, counting earlier replacements.",
    "upgrade.requires": "An option that needs another option on the same unit is taken without it.",
    "upgrade.target_exceeds": "An upgrade or attachment tied to a weapon or item is taken more often than the unit has copies of that gear left.",
    "upgrade.target_replaced": "Warning: a later upgrade replaced the weapon or item an attachment (or tied upgrade) was fixed to; its gear left with it, its cost still counts.",
    "list.duplicate_entry": "Two entries share a key.",
    "rules.undefined": "Warning: the entry uses a rule that neither the system glossary nor the army book defines as used (an imported book); the combat preview does not model it.",
}


class SystemRules:
    """Base class of every rules family; one instance per game system."""

    # How a tournament game is scored (listbuilder/tournament/scoring.py): "outcome" is win /
    # draw / loss plus the event's own secondary score.
    tournament_scoring: ClassVar[str] = "outcome"
    ISSUE_CODES: ClassVar[Mapping[str, str]] = {}

    def __init__(self, system: GameSystem):
        self.system = system

    # -- hooks a family overrides ------------------------------------------------------------

    def check_book(self, book: ArmyBook) -> list[tuple[str, str]]:
        """Army-building facts a book must respect in this system: ``(path, message)``."""
        return []

    def validate(self, army: ArmyList, book: ArmyBook) -> ValidationReport:
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        """Composition parameters and game modes, as the API shows them."""
        return {"composition": dict(self.system.composition)}

    # -- shared mechanics --------------------------------------------------------------------

    @property
    def issue_codes(self) -> dict[str, str]:
        return {**COMMON_CODES, **self.ISSUE_CODES}

    def resolve(self, army: ArmyList, book: ArmyBook) -> tuple[list[ResolvedEntry], list[Issue]]:
        """Every entry against the book, plus each entry's upgrade issues."""
        resolved: list[ResolvedEntry] = []
        issues: list[Issue] = []
        for index, entry in enumerate(army.units):
            unit, problems = resolve_entry(book, entry, index)
            issues.extend(problems)
            if unit is not None:
                resolved.append(unit)
        return resolved, issues

    @staticmethod
    def undefined_rules(resolved: list[ResolvedEntry], book: ArmyBook) -> list[Issue]:
        """A warning per entry and rule it uses that nothing defines (``book.undefined_rules``):
        the list stays legal, but the player learns the rule has no text here."""
        if not book.undefined_rules:
            return []
        undefined = set(book.undefined_rules)
        issues: list[Issue] = []
        for entry in resolved:
            names = {r.name for r in entry.all_rules} | {r.name for w in entry.weapons for r in w.rules}
            for name in sorted(names & undefined):
                issues.append(
                    Issue(
                        "rules.undefined",
                        f"{entry.name} uses {name}, for which this system and book have no fitting rules text (an imported rule); the combat preview does not model it",
                        entry.path,
                        f"{book.name} army book",
                        WARNING,
                        data={"rule": name},
                    )
                )
        return issues

    @staticmethod
    def spent(resolved: list[ResolvedEntry]) -> Cost:
        return Cost.total(r.cost for r in resolved)

    @staticmethod
    def by_key(resolved: list[ResolvedEntry]) -> dict[str, ResolvedEntry]:
        return {r.key: r for r in resolved}


def rules_for(system: GameSystem) -> SystemRules:
    """The rules object for *system*; raises KeyError for a family nobody registered."""
    rules: SystemRules = family_of(system).part("rules")(system)
    return rules


def labelled_rules(book: ArmyBook) -> Iterator[tuple[str, RuleRef]]:
    """Every rule label in the book with its path (units, their gear, and what upgrades give):
    what the shared book checks and a family's own book checks walk."""
    for i, unit in enumerate(book.units):
        for j, rule in enumerate(unit.rules):
            yield f"units[{i}].rules[{j}]", rule
        yield from _gear_rules(f"units[{i}]", unit.weapons, unit.items)
    for s, section in enumerate(book.sections.values()):
        for o, option in enumerate(section.options):
            base = f"upgrades[{s}].options[{o}].gains"
            for j, rule in enumerate(option.gains.rules):
                yield f"{base}.rules[{j}]", rule
            for j, rule in enumerate(option.gains.weapon_rules):
                yield f"{base}.weapon_rules[{j}]", rule
            yield from _gear_rules(base, option.gains.weapons, option.gains.items)


def _gear_rules(base: str, weapons: tuple[Weapon, ...], items: tuple[Item, ...]) -> Iterator[tuple[str, RuleRef]]:
    for w, weapon in enumerate(weapons):
        for j, rule in enumerate(weapon.rules):
            yield f"{base}.weapons[{w}].rules[{j}]", rule
    for t, item in enumerate(items):
        for j, rule in enumerate(item.rules):
            yield f"{base}.items[{t}].rules[{j}]", rule
        for w, weapon in enumerate(item.weapons):
            for j, rule in enumerate(weapon.rules):
                yield f"{base}.items[{t}].weapons[{w}].rules[{j}]", rule

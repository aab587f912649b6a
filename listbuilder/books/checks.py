"""Cross-reference checks on a loaded army book: what a schema cannot see on its own.

Pure functions over model objects, so the loader, the CLI's ``check-books`` and tests share
them. Each check yields ``(path, message)`` with a path into the book file.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from listbuilder.model import ArmyBook, GameSystem
from listbuilder.systems.rules import labelled_rules


@dataclass(frozen=True)
class BookProblem:
    """One problem in one file: where it is (file, YAML path, line) and what is wrong.

    ``severity`` is "error" (the file is refused) or "warning" (it loads; check-books shows it).
    """

    file: str
    path: str
    message: str
    line: int | None = None
    severity: str = "error"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        text = f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"
        return text if self.severity == "error" else f"{text} ({self.severity})"


def check_references(book: ArmyBook, system: GameSystem) -> list[tuple[str, str]]:
    return [
        *_unique_ids(book),
        *_known_sections(book),
        *_known_rules(book, system),
        *_known_requirements(book),
        *_known_unit_costs(book),
        *_replaced_things_exist(book),
        *_one_profile_per_gear_key(book),
    ]


def book_warnings(book: ArmyBook, system: GameSystem) -> list[tuple[str, str]]:
    """What a book may load with but a reader should know: the rules in ``undefined_rules``
    it uses (defined nowhere, or used otherwise than the glossary defines them)."""
    used = {rule.name for _, rule in labelled_rules(book)}
    warnings = []
    for i, name in enumerate(book.undefined_rules):
        if name not in used:
            continue
        if name in book.rules or name in system.glossary:
            why = f"is used otherwise than the {system.id} glossary or this book defines it (with or without a parameter), so that text may not apply"
        else:
            why = f"has no text in the {system.id} glossary or this book"
        warnings.append(
            (
                f"undefined_rules[{i}]",
                f"rule {name!r} {why}: lists using it get a warning and the combat preview does not model it",
            )
        )
    return warnings


def _unique_ids(book: ArmyBook) -> Iterator[tuple[str, str]]:
    seen: set[str] = set()
    for i, unit in enumerate(book.units):
        if unit.id in seen:
            yield f"units[{i}].id", f"unit id {unit.id!r} repeats"
        seen.add(unit.id)
    spell_ids = [s.id for s in book.spells]
    for i, spell_id in enumerate(spell_ids):
        if spell_ids.index(spell_id) != i:
            yield f"spells[{i}].id", f"spell id {spell_id!r} repeats"


def _known_sections(book: ArmyBook) -> Iterator[tuple[str, str]]:
    for i, unit in enumerate(book.units):
        for j, section_id in enumerate(unit.upgrades):
            if section_id not in book.sections:
                yield f"units[{i}].upgrades[{j}]", f"no upgrade section {section_id!r} in this book"


def _known_rules(book: ArmyBook, system: GameSystem) -> Iterator[tuple[str, str]]:
    undefined = set(book.undefined_rules)
    for path, rule in labelled_rules(book):
        definition = book.rules.get(rule.name) or system.glossary.get(rule.name)
        if rule.name in undefined:
            continue  # declared as defined nowhere as used here: a warning (book_warnings)
        if definition is None:
            yield path, f"rule {rule.name!r} is neither in the {system.id} glossary nor in the book's rules"
        elif definition.param is None and rule.param is not None:
            yield path, f"rule {rule.name!r} takes no parameter, got {rule.label!r}"
        elif definition.param is not None and rule.param is None:
            yield path, f"rule {rule.name!r} needs its parameter ({rule.name}({definition.param}))"
    for i, rule in enumerate(book.rules.values()):
        for mentioned in rule.mentions:
            if mentioned not in book.rules and mentioned not in system.glossary:
                yield f"rules[{i}].mentions", f"mentions unknown rule {mentioned!r}"


def _known_requirements(book: ArmyBook) -> Iterator[tuple[str, str]]:
    for s, section in enumerate(book.sections.values()):
        for o, option in enumerate(section.options):
            for r, ref in enumerate(option.requires):
                section_id, option_id = ref.split("/", 1)
                needed = book.sections.get(section_id)
                if needed is None or needed.option(option_id) is None:
                    yield f"upgrades[{s}].options[{o}].requires[{r}]", f"no option {ref!r} in this book"


def _known_unit_costs(book: ArmyBook) -> Iterator[tuple[str, str]]:
    for s, section in enumerate(book.sections.values()):
        for o, option in enumerate(section.options):
            for unit_id in option.unit_costs:
                unit = book.unit(unit_id)
                if unit is None:
                    yield f"upgrades[{s}].options[{o}].unit_costs.{unit_id}", f"no unit {unit_id!r} in this book"
                elif section.id not in unit.upgrades:
                    yield (
                        f"upgrades[{s}].options[{o}].unit_costs.{unit_id}",
                        f"{unit_id!r} is not offered section {section.id!r}",
                    )


def _one_profile_per_gear_key(book: ArmyBook) -> Iterator[tuple[str, str]]:
    """Within what one unit can carry, a gear key means one profile.

    Upgrades count gear by key (the name, unless an ``id`` is given), so two different
    profiles under one key would silently become one: give one of them an ``id``.
    """
    for i, unit in enumerate(book.units):
        seen: dict[str, tuple[object, ...]] = {}
        gear = list(unit.weapons)
        for section_id in unit.upgrades:
            for option in book.sections[section_id].options if section_id in book.sections else ():
                gear.extend(option.gains.weapons)
        for weapon in gear:
            profile = (weapon.attacks, weapon.range, weapon.rules, tuple(sorted(weapon.extra.items(), key=str)))
            if seen.setdefault(weapon.gear_key, profile) != profile:
                yield (
                    f"units[{i}]",
                    f"weapon {weapon.gear_key!r} has two different profiles among {unit.id!r}'s gear; give them different names",
                )
                break


def _replaced_things_exist(book: ArmyBook) -> Iterator[tuple[str, str]]:
    """A replace (or targeted) section offered to a unit must name gear that unit has or can
    gain, by gear key or by name."""
    for i, unit in enumerate(book.units):
        sections = [book.sections[s] for s in unit.upgrades if s in book.sections]
        available: set[str] = set()
        for gear in (
            *unit.weapons,
            *unit.items,
            *(g for s in sections for o in s.options for g in (*o.gains.weapons, *o.gains.items)),
        ):
            available |= {gear.name, gear.gear_key}
        for j, section in enumerate(sections):
            for name in (*section.replaces, *section.targets):
                if name not in available:
                    verb = "replaces" if name in section.replaces else "targets"
                    yield (
                        f"units[{i}].upgrades[{j}]",
                        f"section {section.id!r} {verb} {name!r}, which {unit.id!r} never has",
                    )

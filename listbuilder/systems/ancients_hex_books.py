"""The ancients-hex book checks (rulebook 003): army-building facts a loaded army book must
respect (costs in VP, activation by class, single- or multi-figure footprints, keyword troops,
spell roles, attribute parameters, the home terrain table)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from listbuilder.model import ArmyBook, GameSystem, Unit, has_rule, spell_chart
from listbuilder.systems.rules import labelled_rules

VP = "vp"
CARDS = range(1, 11)  # 003 §7.1: the home player lays terrain with card values ace (1) to 10

_RANGE_SPEC = re.compile(r"^(\d+)-(\d+)$")
_CHOICE_SPEC = re.compile(r"^\d+(?:/\d+)+$")


def param_problem(spec: str, value: str) -> str | None:
    """Why *value* does not fit a glossary parameter *spec*, or None when it does.

    The glossary writes each attribute's parameter as the rulebook does: ``X`` (a positive
    number), ``1-3`` (a number in a range, Skilled), ``1/2`` (one of the listed numbers,
    Brace and Terror) or a word such as ``target`` (free text, Critical Hit's target kind).
    """
    if spec == "X":
        return None if value.isdigit() and int(value) >= 1 else "a positive whole number"
    if match := _RANGE_SPEC.match(spec):
        low, high = int(match.group(1)), int(match.group(2))
        return None if value.isdigit() and low <= int(value) <= high else f"a whole number from {low} to {high}"
    if _CHOICE_SPEC.match(spec):
        allowed = spec.split("/")
        return None if value in allowed else f"one of {', '.join(allowed)}"
    return None if value.strip() else f"a {spec}"


def known_roles(system: GameSystem, book: ArmyBook) -> set[str]:
    """Every user named by a limited spell (necromancer, summoner, ...)."""
    return {role for spell in spell_chart(system, book).values() for role in spell.limited_to}


class BookChecks:
    """The book checks of one ancients-hex system; ``check_book`` is the rules' hook."""

    def __init__(self, system: GameSystem):
        self.system = system
        self.composition: Mapping[str, Any] = system.composition

    def check_book(self, book: ArmyBook) -> list[tuple[str, str]]:
        problems: list[tuple[str, str]] = []
        problems.extend(self._book_costs(book))
        roles = known_roles(self.system, book)
        for i, unit in enumerate(book.units):
            problems.extend(self._book_unit(book, unit, f"units[{i}]", roles))
        problems.extend(self._book_params(book))
        problems.extend(self._book_spells(book))
        problems.extend(self._book_extras(book))
        return problems

    def _book_costs(self, book: ArmyBook) -> Iterator[tuple[str, str]]:
        # Our convention (docs/army-books.md): ancients-hex prices are {vp: N}, nothing else.
        for i, unit in enumerate(book.units):
            if set(unit.cost) - {VP}:
                yield f"units[{i}].cost", "ancients-hex costs are in vp only"
        for s, section in enumerate(book.sections.values()):
            for o, option in enumerate(section.options):
                if set(option.cost) - {VP} or any(set(c) - {VP} for c in option.unit_costs.values()):
                    yield f"upgrades[{s}].options[{o}].cost", "ancients-hex costs are in vp only"

    def _book_unit(self, book: ArmyBook, unit: Unit, path: str, roles: set[str]) -> Iterator[tuple[str, str]]:
        stats = unit.stats
        unit_class = stats["unit_class"]
        # 003 §1.1: heroes activate on 3, troops on 5, beasts on 7.
        expected = self.composition["activation"][unit_class]
        if stats["activation"] != expected:
            yield f"{path}.activation", f"a {unit_class} unit activates on {expected}, not {stats['activation']}"
        # 003 §1.0: a lone hero figure, or a lone beast without Massive, in one hex is an SMU; else MMU.
        figures = self.footprint(unit)
        if stats["figures"] != figures:
            yield (
                f"{path}.figures",
                f"{unit.name} counts as {figures} ({self.footprint_reason(unit)}), not {stats['figures']}",
            )
        # 003 §1.0: keyword troops are troops (the red units of an army list).
        if stats["keyword"] and unit_class != "troops":
            yield f"{path}.keyword", f"only troops are keyword troops; {unit.name} is a {unit_class}"
        magician = self.composition["magician_rule"]
        # 003 §6.8: limited spells name their users; only a magician can be one of them.
        # (unknown section ids are reported by book_checks; skip them here rather than fail)
        sections = [book.sections[s] for s in unit.upgrades if s in book.sections]
        offered = [r for section in sections for option in section.options for r in option.gains.all_rules()]
        if stats["spell_roles"] and not has_rule((*unit.rules, *offered), magician):
            yield (
                f"{path}.spell_roles",
                f"{unit.name} has spell roles but no {magician}(X) attribute, nor an upgrade giving one",
            )
        for r, role in enumerate(stats["spell_roles"]):
            if role not in roles:
                yield f"{path}.spell_roles[{r}]", f"no limited spell names the user {role!r} (known: {sorted(roles)})"

    def footprint(self, unit: Unit) -> str:
        """003 §1.0: SMU for one hero, or one beast without Massive, in one hex; otherwise MMU."""
        single = unit.size == 1 and unit.stats["hexes"] == 1
        if single and unit.stats["unit_class"] == "hero":
            return "SMU"
        if single and unit.stats["unit_class"] == "beast" and not has_rule(unit.rules, "Massive"):
            return "SMU"
        return "MMU"

    @staticmethod
    def footprint_reason(unit: Unit) -> str:
        """Why a unit counts as single- or multi-figure, for the message naming a wrong one."""
        if unit.stats["hexes"] == 2:
            return "a two-hex unit is always a multi-figure unit"
        if unit.size > 1:
            return f"it has {unit.size} figures"
        if unit.stats["unit_class"] == "troops":
            return "troops are never single-figure units"
        if has_rule(unit.rules, "Massive"):
            return "a Massive beast is not a single-figure unit"
        return f"one {unit.stats['unit_class']} figure in one hex"

    def _book_params(self, book: ArmyBook) -> Iterator[tuple[str, str]]:
        # 003 §9: attribute parameters follow the glossary (Skilled 1-3, Brace 1/2, Terror 1/2,
        # Magician X, ...); whether a parameter is present at all is checked by book_checks.
        for path, rule in labelled_rules(book):
            definition = book.rules.get(rule.name) or self.system.glossary.get(rule.name)
            if definition is None or definition.param is None or rule.param is None:
                continue
            wanted = param_problem(definition.param, rule.param)
            if wanted is not None:
                yield path, f"{rule.label}: the {rule.name} parameter must be {wanted}"

    def _book_spells(self, book: ArmyBook) -> Iterator[tuple[str, str]]:
        system_ids = {s.id for s in self.system.spells}
        for i, spell in enumerate(book.spells):
            # A book may add spells (6.4 innate ones, named limited ones) but not redefine the chart.
            if spell.id in system_ids:
                yield f"spells[{i}].id", f"spell {spell.id!r} is already in the system's spell chart (6.7)"

    def _book_extras(self, book: ArmyBook) -> Iterator[tuple[str, str]]:
        terrain = {t["id"] for t in self.composition["terrain"]}
        covered: set[int] = set()
        for r, row in enumerate(book.extra.get("home_terrain", ())):
            # 003 §7.1/8.0: the home terrain table places terrain types of the terrain chart.
            if row["terrain"] not in terrain:
                yield f"home_terrain[{r}].terrain", f"unknown terrain {row['terrain']!r} (known: {sorted(terrain)})"
            covered.update(row["cards"])
        # 003 §7.1: the home player draws cards and places terrain by value, so every value maps.
        missing = [c for c in CARDS if c not in covered]
        if missing:
            yield "home_terrain", f"no terrain for card value(s) {missing}: every value from 1 to 10 needs a row"
        army_rule = book.extra.get("army_rule") or {}
        for mentioned in army_rule.get("mentions", ()):
            if mentioned not in book.rules and mentioned not in self.system.glossary:
                yield "army_rule.mentions", f"mentions unknown rule {mentioned!r}"

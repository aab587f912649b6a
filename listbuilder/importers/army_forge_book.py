"""Army Forge book JSON -> our army-book document (the YAML mapping) and model.

The converter writes the same document a person would write in ``army_books/`` and then
loads it through the normal loader (schema and every cross-reference check), so an imported
book obeys exactly the rules of a hand-written one, and the YAML written by ``import-book``
loads back into the same book.

Rules: a rule our system glossary defines (with the same use of a parameter) stays a glossary
rule; any other rule becomes one of the book's rules, with the definition the export gives;
a rule the export uses but defines nowhere is listed in ``undefined_rules`` (the book loads,
check-books and list validation warn, the combat preview cannot model it).

The Army Forge ids a list refers to are kept in ``extra.army_forge`` (units, sections,
options), which is what :mod:`listbuilder.importers.army_forge_list` reads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from listbuilder.books.checks import BookProblem
from listbuilder.books.editions import SOURCE_KEY
from listbuilder.books.loader import book_from_data
from listbuilder.books.registry import BookLoadError
from listbuilder.importers.army_forge import GameLine, line_of_book
from listbuilder.importers.army_forge_gear import ITEM, MULTI_WEAPON, WEAPON, GearCatalog, RuleUse, loosen_item
from listbuilder.importers.army_forge_sections import (
    OptionContext,
    reachable_gear,
    resolve_targets,
    section_doc,
    section_shape,
)
from listbuilder.importers.errors import ImportFailed
from listbuilder.importers.naming import IdMaker, match_gear, slug, split_count
from listbuilder.importers.reading import Node
from listbuilder.model import ArmyBook, GameSystem

NOT_A_BOOK = "this is an Army Forge list, not a book: import the book first, then the list"


@dataclass
class ConvertedBook:
    """An imported book: our document (what ``import-book`` writes), the loaded model, and
    notes for the person importing (what was dropped or guessed, and why)."""

    document: dict[str, Any]
    book: ArmyBook
    system: GameSystem
    notes: list[str] = field(default_factory=list)
    warnings: list[BookProblem] = field(default_factory=list)


def convert_book(
    data: Any, systems: Mapping[str, GameSystem], *, source: str = "Army Forge export", book_id: str | None = None
) -> ConvertedBook:
    """Convert one Army Forge book export; raises ImportFailed naming the source path.

    The book's id is made from its line and name unless *book_id* is given (books imported
    through the API get a random one)."""
    if isinstance(data, dict) and isinstance(data.get("list"), dict):
        raise ImportFailed("not_army_forge", "list", NOT_A_BOOK)
    if not isinstance(data, dict) or "units" not in data:
        raise ImportFailed(
            "not_army_forge", "", "not an Army Forge book export (a JSON object with units and upgradePackages)"
        )
    root = Node(data)
    line, line_path = line_of_book(root)
    system = systems.get(line.system)
    if system is None:
        raise ImportFailed("unsupported_system", line_path, f"this service has no {line.system!r} system loaded")
    converter = _Converter(root, line, system, book_id)
    document = converter.document()
    warnings: list[BookProblem] = []
    try:
        book = book_from_data(document, system, source, warnings)
    except BookLoadError as exc:
        problems = [(converter.source_path(p.path), p.message) for p in exc.problems]
        raise ImportFailed(
            "invalid_result", problems[0][0], f"the converted book is refused: {problems[0][1]}", problems
        ) from None
    return ConvertedBook(document, book, system, converter.notes, warnings)


class _Converter:
    """One conversion: Army Forge ids -> ours, gear catalogue, rules seen, provenance."""

    def __init__(self, root: Node, line: GameLine, system: GameSystem, book_id: str | None = None):
        self.root = root
        self.book_id = book_id
        self.line = line
        self.system = system
        self.rules = RuleUse()
        self.catalog = GearCatalog(self.rules)
        self.notes = self.catalog.notes
        self.provenance: dict[str, str] = {}  # our path -> source path
        self.catalogue = _rule_catalogue(root)
        self.loose = _loose_weapons(root)

    def source_path(self, ours: str) -> str:
        """The source JSON path behind a path of our document (its longest known prefix)."""
        best = ""
        for prefix in self.provenance:
            if (ours == prefix or ours.startswith((prefix + ".", prefix + "["))) and len(prefix) > len(best):
                best = prefix
        if not best:
            return ours
        rest = ours[len(best) :].lstrip(".")
        return f"{self.provenance[best]} (our {best}{'.' + rest if rest else ''})"

    def document(self) -> dict[str, Any]:
        root = self.root
        units_in = list(root.items("units", required=True))
        if not units_in:
            raise ImportFailed("malformed", "units", "the book has no units")
        packages = {p.text("uid"): p for p in root.items("upgradePackages")}
        unit_ids = IdMaker()
        af_units: dict[str, str] = {}
        units: list[dict[str, Any]] = []
        for node in units_in:
            af_id = node.text("id")
            if af_id in af_units:
                raise ImportFailed("malformed", node.child_path("id"), f"unit id {af_id!r} repeats")
            af_units[af_id] = unit_ids.make(node.text("name"), "unit")
            self.provenance[f"units[{len(units)}]"] = node.path
            units.append(self._unit(node, af_units[af_id]))
        sections, mapping = self._sections(units_in, units, af_units, packages)
        name = root.text("name").strip() or "Imported army"
        document: dict[str, Any] = {
            "id": self.book_id or f"{self.line.book_prefix}-{slug(name, 'army')}",
            "system": self.system.id,
            "name": name,
            "faction": (root.text("factionName", "") or root.text("genericName", "") or name).strip(),
            "version": root.text("versionString", "") or "unknown",
            "description": (
                root.text("background", "") or root.text("hint", "") or f"{name}, imported from Army Forge."
            ).strip(),
        }
        book_rules, undefined = self._rule_definitions()
        if book_rules:
            document["rules"] = book_rules
        if undefined:
            document["undefined_rules"] = undefined
        spells = self._spells()
        if spells:
            document["spells"] = spells
        document["units"] = units
        if sections:
            document["upgrades"] = sections
        document["extra"] = {
            SOURCE_KEY: {
                "uid": root.text("uid", ""),
                "version": root.text("versionString", ""),
                "game_system": self.line.slug,
                "units": af_units,
                "upgrades": mapping,
            }
        }
        return document

    # -- units ---------------------------------------------------------------------------

    def _unit(self, node: Node, unit_id: str) -> dict[str, Any]:
        size = node.whole("size", low=1)
        doc: dict[str, Any] = {
            "id": unit_id,
            "name": node.text("name").strip() or unit_id,
            "size": size,
            "cost": {"pts": node.whole("cost", low=0)},
            "quality": node.whole("quality"),
            "defense": node.whole("defense"),
        }
        rules = self.catalog.rule_labels(node, "rules")
        if rules:
            doc["rules"] = rules
        weapons, items = [], []
        for weapon in node.items("weapons"):
            copies = weapon.whole("count", None, low=0)
            copies = weapon.whole("originalCount", size, low=0) if copies is None else copies
            if copies and weapon.text("type", WEAPON) == MULTI_WEAPON:
                items.append(self.catalog.multi_weapon(weapon, count=copies))
            elif copies:
                weapons.append(self.catalog.weapon(weapon, count=copies))
        for item in node.items("items"):
            copies = item.whole("count", 1, low=0)
            kind = item.text("type", ITEM)
            if not copies:
                continue
            if kind == WEAPON:  # gear lists are not always sorted by kind
                weapons.append(self.catalog.weapon(item, count=copies))
            elif kind == MULTI_WEAPON:
                items.append(self.catalog.multi_weapon(item, count=copies))
            elif kind == ITEM:
                made, freed = loosen_item(self.catalog.item(item, count=copies), self.loose)
                weapons += freed
                items.append(made)
            else:
                raise ImportFailed(
                    "malformed", item.child_path("type"), f"expected {ITEM}, {WEAPON} or {MULTI_WEAPON}, got {kind!r}"
                )
        if weapons:
            doc["weapons"] = weapons
        if items:
            doc["items"] = items
        return doc

    # -- upgrade sections ------------------------------------------------------------------

    def _sections(
        self, units_in: list[Node], units: list[dict[str, Any]], af_units: dict[str, str], packages: dict[str, Node]
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Every section offered to some unit, one of ours per distinct reading of its
        targets (a shared package may name "Hand Weapons" that one unit holds as "Hand Weapon")."""
        groups, nodes, reach = _offered(units_in, units, packages, self.notes)
        section_ids = IdMaker()
        made: list[dict[str, Any]] = []
        mapping: dict[str, Any] = {}
        weapon_rules = self._weapon_rule_names()
        for (package_uid, s, targets), members in groups.items():
            node = nodes[(package_uid, s)]
            if next(node.items("options", required=True), None) is None:
                # Army Forge shows a section with no options as a heading with nothing to pick
                names = ", ".join(units[u]["name"] for u in members)
                self.notes.append(
                    f"{node.path}: section {node.text('label', '').strip()!r} offers no options; skipped (offered to {names})"
                )
                continue
            shape = section_shape(node)
            section_id = section_ids.make(node.text("label", "") or "upgrade", "upgrade")
            if shape.variant == "replace" and not targets:
                raise ImportFailed("malformed", node.child_path("targets"), "a replace section names what it replaces")
            gear_names = {name for u in members for name in reach[u]}
            ctx = OptionContext(
                catalog=self.catalog,
                unit_ids={af: ours for af, ours in af_units.items() if ours in {units[u]["id"] for u in members}},
                roles=tuple(self.system.composition.get("command_groups", {}).get("roles", ())),
                weapon_rule_names=weapon_rules,
                targets_weapons=shape.variant != "replace"
                and bool(targets)
                and all(name in gear_names for name, _ in targets),
                loose=self.loose,
            )
            doc, af_options, option_paths = section_doc(node, shape, section_id, targets, ctx)
            for o, path in enumerate(option_paths):
                self.provenance[f"upgrades[{len(made)}].options[{o}]"] = path
            self.provenance[f"upgrades[{len(made)}]"] = node.path
            made.append(doc)
            mapping[section_id] = {
                "uids": sorted({node.value[k] for k in ("uid", "id") if isinstance(node.value.get(k), str)}),
                "options": af_options,
            }
            for u in members:
                units[u].setdefault("upgrades", []).append(section_id)
        return made, mapping

    def _weapon_rule_names(self) -> frozenset[str]:
        """Rules that belong on weapons: the export's own say-so, else our glossary's."""
        on_weapons = {name for name, entry in self.catalogue.items() if entry.get("targetType") == 2}
        on_weapons |= {name for name, rule in self.system.glossary.items() if rule.kind == "weapon"}
        return frozenset(on_weapons)

    # -- rules and spells ------------------------------------------------------------------

    def _rule_definitions(self) -> tuple[list[dict[str, Any]], list[str]]:
        glossary = self.system.glossary
        defined: list[dict[str, Any]] = []
        undefined: list[str] = []
        self._add_mentioned_rules()
        for name, with_param in self.rules.with_param.items():
            known = glossary.get(name)
            mixed = name in self.rules.mixed
            if known is not None and not mixed and (known.param is not None) == with_param:
                continue
            entry = self.catalogue.get(name)
            text = " ".join(str(entry.get("description") or "").split()) if entry else ""
            if not text or mixed:
                # Defined nowhere, or used both with and without a parameter (or otherwise
                # than our glossary has it) with no text of its own: flagged, not guessed.
                undefined.append(name)
                continue
            rule: dict[str, Any] = {"name": name}
            if with_param:
                rule["param"] = "X"
            rule["kind"] = "weapon" if entry.get("targetType") == 2 else "unit"
            rule["text"] = text
            defined.append(rule)
        names = {r["name"] for r in defined} | set(glossary)
        for rule in defined:
            mentions = sorted(n for n in _mentioned(rule["text"], names) if n != rule["name"])
            if mentions:
                rule["mentions"] = mentions
        return defined, sorted(undefined)

    def _add_mentioned_rules(self) -> None:
        """Rules of the export that used rules' texts name ("...get Shielded"), transitively,
        so the printed quick reference can explain them too."""
        names = set(self.catalogue) - set(self.system.glossary)
        todo = [n for n in self.rules.with_param if n in self.catalogue]
        while todo:
            text = str(self.catalogue[todo.pop()].get("description") or "")
            for name in _mentioned(text, names):
                if name not in self.rules.with_param:
                    self.rules.note(name, "X" if self.catalogue[name].get("hasRating") else None)
                    todo.append(name)

    def _spells(self) -> list[dict[str, Any]]:
        ids = IdMaker()
        spells = []
        for spell in self.root.items("spells"):
            name = spell.text("name").strip()
            spells.append(
                {
                    "id": ids.make(name, "spell"),
                    "name": name,
                    "value": spell.whole("threshold", 0, low=0),
                    "text": " ".join(spell.text("effect", "").split()),
                }
            )
        return spells


def _offered(
    units_in: list[Node], units: list[dict[str, Any]], packages: dict[str, Node], notes: list[str]
) -> tuple[
    dict[tuple[str, int, tuple[tuple[str, int], ...]], list[int]], dict[tuple[str, int], Node], dict[int, list[str]]
]:
    """Which units each section is offered to, grouped by the section and its targets as
    each unit spells them; the section nodes; each unit's weapon names in reach. What is
    skipped, and why, goes to *notes*."""
    groups: dict[tuple[str, int, tuple[tuple[str, int], ...]], list[int]] = {}
    nodes: dict[tuple[str, int], Node] = {}
    reach: dict[int, list[str]] = {}
    for u, node in enumerate(units_in):
        disabled = set(node.texts("disabledSections")) | set(node.texts("disabledUpgradeSections"))
        offered = []
        for package_uid in node.texts("upgrades"):
            package = packages.get(package_uid)
            if package is None:
                notes.append(
                    f"{node.path}: {units[u]['name']} names upgrade package {package_uid!r}, which the export does not contain; skipped"
                )
                continue
            offered += [
                (package_uid, s, section)
                for s, section in enumerate(package.items("sections"))
                if section.text("uid", section.text("id", "")) not in disabled
                and section.text("id", "") not in disabled
            ]
        weapon_names, item_names = reachable_gear(units[u], [section for _, _, section in offered])
        reach[u] = weapon_names
        for package_uid, s, section in offered:
            targets = resolve_targets(section, weapon_names + item_names)
            if targets is None:
                notes.append(
                    f"{section.path}: {units[u]['name']} has none of {section.texts('targets')}; section not offered to it"
                )
                continue
            nodes[(package_uid, s)] = section
            groups.setdefault((package_uid, s, targets), []).append(u)
    return groups, nodes, reach


def _loose_weapons(root: Node) -> frozenset[str]:
    """Names of weapons inside items (a unit's own or an option's) that some section targets:
    converted as weapons of their own beside the item (see :func:`loosen_item`)."""
    targets: list[str] = []
    inside: set[str] = set()

    def item_weapons(gear: Node) -> None:
        if gear.text("type", "") == ITEM:
            inside.update(
                p.text("name").strip() for p in gear.items("content") if p.text("type", "") == WEAPON and p.has("name")
            )

    for unit in root.items("units"):
        for gear in unit.items("items"):
            item_weapons(gear)
    for package in root.items("upgradePackages"):
        for section in package.items("sections"):
            targets += [split_count(t)[0] for t in section.texts("targets")]
            for option in section.items("options"):
                for gain in option.items("gains"):
                    item_weapons(gain)
    return frozenset(name for name in inside if any(match_gear(t, [name]) for t in targets))


def _rule_catalogue(root: Node) -> dict[str, dict[str, Any]]:
    """The export's rule definitions by name (``specialRules``, then ``customRules``)."""
    found: dict[str, dict[str, Any]] = {}
    for key in ("specialRules", "customRules"):
        for entry in root.items(key):
            if isinstance(entry.value, dict) and isinstance(entry.value.get("name"), str):
                found.setdefault(entry.value["name"].strip(), entry.value)
    return found


_WORDS_CACHE: dict[frozenset[str], re.Pattern[str]] = {}


def _mentioned(text: str, names: set[str]) -> set[str]:
    key = frozenset(names)
    pattern = _WORDS_CACHE.get(key)
    if pattern is None:
        ordered = sorted(names, key=len, reverse=True)
        pattern = (
            re.compile(r"\b(" + "|".join(re.escape(n) for n in ordered) + r")\b") if ordered else re.compile(r"(?!)")
        )
        _WORDS_CACHE.clear()
        _WORDS_CACHE[key] = pattern
    return set(pattern.findall(text))

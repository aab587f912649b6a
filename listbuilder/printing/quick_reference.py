"""The quick reference of a roster: which rules a list uses, and the text each is printed with.

Why a module of its own: the reference is a job apart from laying out unit blocks (rule texts
from the book and the system glossary, rules that mention other rules, rule labels buried in a
family's stats), and the roster, its PDF check and its tests all read it the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from listbuilder.model import ArmyBook, GameSystem, RuleDefinition, RuleRef
from listbuilder.resolve import ResolvedEntry


class Definitions:
    """Rule texts in force for a book: its own rules first, then the system glossary."""

    def __init__(self, book: ArmyBook, system: GameSystem, glossary_keys: Iterable[str]):
        self.rules: dict[str, RuleDefinition] = {}
        for key in glossary_keys:
            for item in system.composition.get(key) or ():
                self.rules[item["name"]] = RuleDefinition(item["name"], item["text"], item.get("param"))
        self.rules.update(system.glossary)
        self.rules.update(book.rules)
        army_rule = book.extra.get("army_rule")
        self.army_rule: str | None = None
        if isinstance(army_rule, Mapping) and army_rule.get("name"):
            # ancients-hex: the army special rule applies to the whole army, so it is used.
            self.rules[army_rule["name"]] = RuleDefinition(
                army_rule["name"], army_rule["text"], kind="army", mentions=tuple(army_rule.get("mentions") or ())
            )
            self.army_rule = army_rule["name"]
        names = sorted(self.rules, key=len, reverse=True)
        self._mention = re.compile(r"\b(" + "|".join(re.escape(n) for n in names) + r")\b") if names else None

    def label(self, name: str) -> str:
        rule = self.rules.get(name)
        return f"{name}({rule.param})" if rule and rule.param else name

    def text(self, name: str) -> str:
        rule = self.rules.get(name)
        return rule.text if rule else "(no text for this rule in the book or the rulebook glossary)"

    def named_in(self, text: str) -> set[str]:
        """Rules a free text (a spell) names: whole words, exact case, longest name first."""
        return set(self._mention.findall(text)) if self._mention else set()

    def closure(self, names: Iterable[str]) -> set[str]:
        """*names* plus every rule their texts mention, transitively."""
        seen: set[str] = set()
        todo = list(names)
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            rule = self.rules.get(name)
            if rule is not None:
                todo.extend(rule.mentions)
        return seen


def rules_used(
    resolved: list[ResolvedEntry], rule_stats: Iterable[str], definitions: Definitions, spell_texts: Iterable[str]
) -> set[str]:
    """Names of every rule on the list: units, weapons, items, upgrades (already applied), spells.

    *rule_stats* are the dotted paths of the unit stats that hold rule labels (the family's sheet).
    """
    used: set[str] = set()
    for r in resolved:
        used.update(rule.name for rule in r.all_rules)
        for weapon in r.weapons:
            used.update(rule.name for rule in weapon.rules)
        for path in rule_stats:
            used.update(RuleRef.parse(label).name for label in _dig(r.unit.stats, path))
    for text in spell_texts:
        used |= definitions.named_in(text)
    if definitions.army_rule and resolved:
        used.add(definitions.army_rule)
    return used


def _dig(stats: Mapping[str, Any], path: str) -> list[str]:
    """The rule labels at a dotted *path* in a unit's stats; ``*`` walks every key or item."""
    values: list[Any] = [stats]
    for step in path.split("."):
        found: list[Any] = []
        for value in values:
            if step == "*":
                found.extend(
                    value.values() if isinstance(value, Mapping) else value if isinstance(value, (list, tuple)) else ()
                )
            elif isinstance(value, Mapping) and value.get(step) is not None:
                found.append(value[step])
        values = found
    return [label for value in values for label in (value if isinstance(value, (list, tuple)) else (value,))]

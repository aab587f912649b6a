"""Resolve a list entry against its army book: the unit as it hits the table.

Applies the chosen upgrades in order (replacements consume gear, gains add it), prices the
entry, and reports every upgrade rule the choice breaks. Validation, rosters and combat
previews all start from the ResolvedEntry this module builds, so a unit's profile after
upgrades is computed in exactly one place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from listbuilder.model import (
    AFFECTS_ALL,
    AFFECTS_ANY,
    AFFECTS_ONE,
    AFFECTS_UNIT,
    AFFECTS_UP_TO,
    ArmyBook,
    ChosenUpgrade,
    Cost,
    Item,
    ListEntry,
    RuleRef,
    merge_rules,
    Unit,
    UpgradeOption,
    UpgradeSection,
    Weapon,
)
from listbuilder.validation import Issue

# The army book's upgrade sections are the rule here; the rulebooks only say to pick units
# and upgrades from the army's list (000/001/002 "Preparation").
UPGRADE_CLAUSE = "army book upgrade section"


class TakenUpgrade(NamedTuple):
    """An upgrade row the entry took, with the number of models (or 1) it applies to.

    A NamedTuple rather than a frozen dataclass: validation builds one per upgrade row, and a
    tuple is several times cheaper to make.
    """

    index: int
    section: UpgradeSection
    option: UpgradeOption
    models: int


@dataclass(frozen=True)
class ResolvedEntry:
    """A list entry with its unit, final gear, rules and cost after upgrades."""

    index: int
    entry: ListEntry
    unit: Unit
    weapons: tuple[Weapon, ...]
    items: tuple[Item, ...]
    rules: tuple[RuleRef, ...]
    cost: Cost
    taken: tuple[TakenUpgrade, ...]

    @property
    def key(self) -> str:
        return self.entry.key

    @property
    def path(self) -> str:
        return f"units[{self.index}]"

    @property
    def models(self) -> int:
        return self.unit.size

    @property
    def name(self) -> str:
        return self.entry.name or self.unit.name

    @property
    def all_rules(self) -> tuple[RuleRef, ...]:
        """Unit rules plus the rules its items grant (weapon rules stay on the weapons)."""
        return merge_rules([*self.rules, *(r for item in self.items for r in item.rules)])

    def all_model_choices(self) -> Counter[tuple[str, str]]:
        """Upgrades bought for every model: what two combined copies must share."""
        return Counter((t.section.id, t.option.id) for t in self.taken if t.section.applies_to_all_models)


def resolve_entry(book: ArmyBook, entry: ListEntry, index: int) -> tuple[ResolvedEntry | None, list[Issue]]:
    """The entry's unit after its upgrades, and every upgrade rule it breaks.

    The work depends only on the book, the unit id and the upgrade rows, so it is remembered
    per book: the web builder re-validates the whole list on every edit, and most entries have
    not changed since the last request. Paths are stored relative to the entry and placed
    under ``units[index]`` on the way out.
    """
    memo = book.resolution_memo
    key = (entry.unit, entry.upgrades)
    found = memo.get(key)
    if found is None:
        found = _resolve(book, entry)
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        memo[key] = found
    unit, weapons, items, rules, cost, taken, relative = found
    path = f"units[{index}]"
    issues = [replace(i, path=path + i.path) for i in relative]
    if unit is None:
        return None, issues
    return ResolvedEntry(index, entry, unit, weapons, items, rules, cost, taken), issues


_MEMO_SIZE = 4096


def _resolve(book: ArmyBook, entry: ListEntry) -> tuple[Any, ...]:
    """Resolution with issue paths relative to the entry (``.upgrades[1].count``)."""
    path = ""
    unit = book.unit(entry.unit)
    if unit is None:
        issue = Issue("book.unknown_unit", f"{book.name} has no unit {entry.unit!r}", ".unit", f"{book.name} army book")
        return None, (), (), (), Cost(), (), (issue,)
    state = _Gear(unit)
    issues: list[Issue] = []
    taken: list[TakenUpgrade] = []
    cost = unit.cost
    for k, choice in enumerate(entry.upgrades):
        row = f"{path}.upgrades[{k}]"
        found = _find(book, unit, choice, row, issues)
        if found is None:
            continue
        section, option = found
        models = _models_affected(section, choice, unit, state, row, issues)
        if models is None:
            continue
        if not state.apply(section, option, models, row, issues):
            continue
        cost = cost + option.cost_for(unit.id) * (1 if section.affects in (AFFECTS_UNIT, AFFECTS_ALL) else models)
        taken.append(TakenUpgrade(k, section, option, models))
    if taken or book.mandatory_sections[unit.id]:
        issues.extend(_selection_bounds(book, unit, taken, path))
    if any(t.option.requires for t in taken):
        issues.extend(_requirements(taken, path))
    return unit, state.weapons(), state.items(), state.rules, cost, tuple(taken), tuple(issues)


def _find(book: ArmyBook, unit: Unit, choice: ChosenUpgrade, row: str, issues: list[Issue]) -> tuple[UpgradeSection, UpgradeOption] | None:
    section = book.sections.get(choice.section)
    if section is None:
        issues.append(Issue("upgrade.unknown_section", f"{book.name} has no upgrade section {choice.section!r}", f"{row}.section", UPGRADE_CLAUSE))
        return None
    if section.id not in unit.upgrades:
        issues.append(Issue("upgrade.not_offered", f"{unit.name} is not offered “{section.label}”", f"{row}.section", UPGRADE_CLAUSE))
        return None
    option = section.option(choice.option)
    if option is None:
        issues.append(Issue("upgrade.unknown_option", f"“{section.label}” has no option {choice.option!r}", f"{row}.option", UPGRADE_CLAUSE))
        return None
    return section, option


def _models_affected(section: UpgradeSection, choice: ChosenUpgrade, unit: Unit, state: _Gear, row: str, issues: list[Issue]) -> int | None:
    """How many models this row upgrades; None (with an issue) when the count is impossible."""
    clause = f"{UPGRADE_CLAUSE}: {section.label}"
    if section.affects in (AFFECTS_UNIT, AFFECTS_ONE):
        limit = 1
    elif section.affects == AFFECTS_ALL:
        # "all models" sections are bought once and change every copy of the replaced gear
        # (or every model, for upgrades).
        if choice.count != 1:
            issues.append(Issue("upgrade.count", f"“{section.label}” is bought once for the whole unit (count {choice.count})", f"{row}.count", clause))
            return None
        return state.count(section.replaces[0]) if section.replaces else unit.size
    elif section.affects == AFFECTS_UP_TO:
        limit = min(section.affects_count or 1, unit.size)
    else:  # AFFECTS_ANY
        limit = unit.size
    if choice.count > limit:
        issues.append(Issue("upgrade.count", f"“{section.label}” allows {limit} model(s), asked for {choice.count}", f"{row}.count", clause, data={"allowed": limit, "asked": choice.count}))
        return None
    return choice.count


def _selection_bounds(book: ArmyBook, unit: Unit, taken: list[TakenUpgrade], path: str) -> Iterator[Issue]:
    """Section select bounds: options per application, models per section, mandatory picks."""
    by_section: dict[str, list[TakenUpgrade]] = {}
    for t in taken:
        by_section.setdefault(t.section.id, []).append(t)
    sections = {t.section.id: t.section for t in taken}
    for section in book.mandatory_sections[unit.id]:
        sections.setdefault(section.id, section)
    for section in sections.values():
        rows = by_section.get(section.id, [])
        clause = f"{UPGRADE_CLAUSE}: {section.label}"
        distinct = {t.option.id for t in rows}
        where = f"{path}.upgrades[{rows[-1].index}]" if rows else f"{path}.upgrades"
        if section.affects in (AFFECTS_UNIT, AFFECTS_ALL, AFFECTS_ONE):
            repeated = [t for t in rows if sum(r.option.id == t.option.id for r in rows) > 1]
            if repeated:
                yield Issue("upgrade.select", f"“{section.label}”: option {repeated[-1].option.id!r} taken more than once", f"{path}.upgrades[{repeated[-1].index}]", clause)
            if section.pick_max is not None and len(distinct) > section.pick_max:
                yield Issue("upgrade.select", f"“{section.label}” allows {section.pick_max} option(s), {len(distinct)} taken", where, clause, data={"allowed": section.pick_max, "taken": len(distinct)})
        else:
            cap = min(section.affects_count or unit.size, unit.size) if section.affects == AFFECTS_UP_TO else unit.size
            per_model = section.pick_max if section.pick_max is not None else len(section.options)
            total = sum(t.models for t in rows)
            if total > cap * per_model:
                yield Issue("upgrade.select", f"“{section.label}” allows {cap * per_model} in all, {total} taken", where, clause, data={"allowed": cap * per_model, "taken": total})
            for option_id in distinct:
                option_total = sum(t.models for t in rows if t.option.id == option_id)
                if option_total > cap:
                    yield Issue("upgrade.count", f"“{section.label}”: {option_id!r} on {option_total} models, at most {cap}", where, clause, data={"allowed": cap, "asked": option_total})
        if len(distinct) < section.pick_min:
            yield Issue("upgrade.required", f"{unit.name} must choose {section.pick_min} option(s) from “{section.label}”", where, clause, data={"required": section.pick_min, "taken": len(distinct)})


def _requirements(taken: list[TakenUpgrade], path: str) -> Iterator[Issue]:
    """Options that need another option bought first (e.g. an elite-only item)."""
    have = {f"{t.section.id}/{t.option.id}" for t in taken}
    for t in taken:
        for needed in t.option.requires:
            if needed not in have:
                yield Issue("upgrade.requires", f"“{t.option.label}” needs {needed!r} on the same unit", f"{path}.upgrades[{t.index}]", f"{UPGRADE_CLAUSE}: {t.section.label}", data={"requires": needed})


class _Gear:
    """Mutable working copy of a unit's gear while upgrades are applied in order."""

    def __init__(self, unit: Unit):
        self._weapons: dict[str, Weapon] = {w.name: w for w in unit.weapons}
        self._items: dict[str, Item] = {i.name: i for i in unit.items}
        self._counts: dict[str, int] = {}
        for gear in (*unit.weapons, *unit.items):
            self._counts[gear.name] = self._counts.get(gear.name, 0) + gear.count
        self._original = dict(self._counts)
        self.rules: tuple[RuleRef, ...] = unit.rules

    def count(self, name: str) -> int:
        return self._counts.get(name, 0)

    def apply(self, section: UpgradeSection, option: UpgradeOption, models: int, row: str, issues: list[Issue]) -> bool:
        """Apply one upgrade row; False (with an issue) when it replaces more than is left."""
        for name in section.replaces:
            # Replacing no more than the unit still has, counting earlier replacements.
            left = self.count(name)
            if left < models or left == 0:
                issues.append(Issue(
                    "upgrade.replace_exceeds",
                    f"“{section.label}” replaces {models} {name}, but only {left} left "
                    f"({self._original.get(name, 0)} in the unit before upgrades)",
                    row, f"{UPGRADE_CLAUSE}: {section.label}",
                    data={"gear": name, "left": left, "asked": models},
                ))
                return False
        for name in section.replaces:
            self._counts[name] -= models
        per = 1 if section.affects == AFFECTS_UNIT else models
        gains = option.gains
        for weapon in gains.weapons:
            self._weapons.setdefault(weapon.name, weapon)
            self._counts[weapon.name] = self._counts.get(weapon.name, 0) + weapon.count * per
        for item in gains.items:
            self._items.setdefault(item.name, item)
            self._counts[item.name] = self._counts.get(item.name, 0) + item.count * per
        if gains.rules:
            self.rules = merge_rules([*self.rules, *gains.rules])
        return True

    def weapons(self) -> tuple[Weapon, ...]:
        return tuple(w if w.count == self._counts[n] else w.with_count(self._counts[n]) for n, w in self._weapons.items() if self._counts[n] > 0)

    def items(self) -> tuple[Item, ...]:
        return tuple(i if i.count == self._counts[n] else i.with_count(self._counts[n]) for n, i in self._items.items() if self._counts[n] > 0)

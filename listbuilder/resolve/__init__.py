"""Resolve a list entry against its army book: the unit as it hits the table.

Applies the chosen upgrades in order (replacements consume gear, gains add it), prices the
entry, and reports every upgrade rule the choice breaks. Validation, rosters and combat
previews all start from the ResolvedEntry this package builds, so a unit's profile after
upgrades is computed in exactly one place. The gear a row changes, and how rules stack, are in
``resolve/gear.py``; pricing and the sections' bounds are here.

Modules entered from outside (besides ``resolve_entry`` and ``ResolvedEntry`` here):

- ``deployment``: resolved entries as they deploy: combined units, joined heroes, and the
  list's totals (units, activations, models) that the rules and the roster count alike
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
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
    Unit,
    UpgradeOption,
    UpgradeSection,
    Weapon,
)
from listbuilder.resolve.gear import UPGRADE_CLAUSE, Gear, merge_rules, upgrade_clause
from listbuilder.util.words import counted
from listbuilder.validation import Issue


class TakenUpgrade(NamedTuple):
    """An upgrade row the entry took, with the number of models (or 1) it applies to.

    A NamedTuple rather than a frozen dataclass: validation builds one per upgrade row, and a
    tuple is several times cheaper to make.
    """

    index: int
    section: UpgradeSection
    option: UpgradeOption
    models: int


class Resolution:
    """A unit with one sequence of upgrade rows applied: final gear, rules, cost, and the
    upgrade rules the rows break (paths relative to the entry, ``.upgrades[1].count``).

    It depends only on the book, the unit id and the rows, so the book's memo shares one
    Resolution between every entry (and every request) that makes the same choice. The views
    validation rarely needs (final weapon and item profiles, all rules, all-model choices) are
    built on first use and then kept with it.
    """

    __slots__ = (
        "unit",
        "rules",
        "cost",
        "taken",
        "issues",
        "_gear",
        "_weapons",
        "_items",
        "_all_rules",
        "_all_model_choices",
        "_derived",
    )

    def __init__(self, unit: Unit, gear: Gear, cost: Cost, taken: tuple[TakenUpgrade, ...], issues: tuple[Issue, ...]):
        self.unit = unit
        self.rules: tuple[RuleRef, ...] = gear.rules
        self.cost = cost
        self.taken = taken
        self.issues = issues
        self._gear = gear
        # Built on first use (plain slots rather than cached_property, whose lock costs more
        # than the work for a list of fifteen entries).
        self._weapons: tuple[Weapon, ...] | None = None
        self._items: tuple[Item, ...] | None = None
        self._all_rules: tuple[RuleRef, ...] | None = None
        self._all_model_choices: tuple[tuple[str, str], ...] | None = None
        self._derived: dict[Any, Any] | None = None

    @property
    def derived(self) -> dict[Any, Any]:
        """What a rules family derives from this resolution alone, kept with it (and so
        remembered with it): armour-hex hands its upgrades out model by model here."""
        if self._derived is None:
            self._derived = {}
        return self._derived

    @property
    def weapons(self) -> tuple[Weapon, ...]:
        if self._weapons is None:
            self._weapons = self._gear.weapons(self.items)
        return self._weapons

    @property
    def items(self) -> tuple[Item, ...]:
        if self._items is None:
            self._items = self._gear.items()
        return self._items

    @property
    def all_rules(self) -> tuple[RuleRef, ...]:
        """Unit rules plus the rules its items grant (weapon rules stay on the weapons)."""
        if self._all_rules is None:
            self._all_rules = merge_rules([*self.rules, *(r for item in self.items for r in item.rules)])
        return self._all_rules

    @property
    def all_model_choices(self) -> tuple[tuple[str, str], ...]:
        """Upgrades bought for every model, sorted: what two combined copies must share."""
        if self._all_model_choices is None:
            self._all_model_choices = tuple(
                sorted((t.section.id, t.option.id) for t in self.taken if t.section.applies_to_all_models)
            )
        return self._all_model_choices


@dataclass(frozen=True, init=False)
class ResolvedEntry:
    """A list entry with its unit, final gear, rules and cost after upgrades."""

    index: int
    entry: ListEntry
    resolution: Resolution
    # Read a few hundred times per validation (keys link pairs and joins, costs and sizes make
    # every total), so they are plain attributes, taken from entry and resolution once.
    key: str = field(init=False, repr=False, compare=False)
    unit: Unit = field(init=False, repr=False, compare=False)
    cost: Cost = field(init=False, repr=False, compare=False)
    models: int = field(init=False, repr=False, compare=False)

    def __init__(self, index: int, entry: ListEntry, resolution: Resolution):
        # Every field in one write (a frozen dataclass's own __init__ sets them one by one
        # through object.__setattr__): validation makes one per entry of every list it checks.
        unit = resolution.unit
        self.__dict__.update(
            index=index,
            entry=entry,
            resolution=resolution,
            key=entry.key,
            unit=unit,
            cost=resolution.cost,
            models=unit.size,
        )

    @property
    def weapons(self) -> tuple[Weapon, ...]:
        return self.resolution.weapons

    @property
    def items(self) -> tuple[Item, ...]:
        return self.resolution.items

    @property
    def rules(self) -> tuple[RuleRef, ...]:
        return self.resolution.rules

    @property
    def taken(self) -> tuple[TakenUpgrade, ...]:
        return self.resolution.taken

    @property
    def all_rules(self) -> tuple[RuleRef, ...]:
        return self.resolution.all_rules

    @property
    def path(self) -> str:
        return f"units[{self.index}]"

    @property
    def name(self) -> str:
        return self.entry.name or self.resolution.unit.name

    def all_model_choices(self) -> tuple[tuple[str, str], ...]:
        return self.resolution.all_model_choices


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
    if isinstance(found, Resolution):
        resolved, relative = ResolvedEntry(index, entry, found), found.issues
    else:
        resolved, relative = None, found
    if not relative:
        return resolved, []
    path = f"units[{index}]"
    return resolved, [replace(i, path=path + i.path) for i in relative]


_MEMO_SIZE = 4096

# Sections priced once for the whole unit; the others cost per affected model.
_PRICED_ONCE = frozenset((AFFECTS_UNIT, AFFECTS_ALL))


def _resolve(book: ArmyBook, entry: ListEntry) -> Resolution | tuple[Issue, ...]:
    """The entry's Resolution, or the issues of an entry whose unit the book does not have."""
    unit = book.unit(entry.unit)
    if unit is None:
        return (
            Issue("book.unknown_unit", f"{book.name} has no unit {entry.unit!r}", ".unit", f"{book.name} army book"),
        )
    offers = book.offers[unit.id]
    gear = Gear(unit)
    issues: list[Issue] = []
    taken: list[TakenUpgrade] = []
    priced: list[tuple[Cost, int]] = []
    needs_others = False
    for k, choice in enumerate(entry.upgrades):
        found = offers.get((choice.section, choice.option))
        if found is None:
            issues.append(_not_offered(book, unit, choice, k))
            continue
        section, option = found
        models = _models_affected(section, choice, unit, gear, k, issues)
        once = section.affects in _PRICED_ONCE
        if models is None or not gear.apply(section, option, models, k, issues):
            # An impossible row (too many models, no gear left to replace) changes no gear but
            # keeps its price as written: the list is illegal either way, and a total that
            # silently dropped the row would read as if the player had not asked for it
            # (docs/systems/opr.md, Interpretations: "An illegal upgrade count").
            priced.append((option.cost_for(unit.id), 1 if once else (choice.count if models is None else models)))
            continue
        priced.append((option.cost_for(unit.id), 1 if once else models))
        taken.append(TakenUpgrade(k, section, option, models))
        needs_others = needs_others or bool(option.requires)
    if taken or book.mandatory_sections[unit.id]:
        issues.extend(_selection_bounds(book, unit, taken))
    if needs_others:
        issues.extend(_requirements(book, taken))
    cost = Cost.weighted_total(unit.cost, priced) if priced else unit.cost
    return Resolution(unit, gear, cost, tuple(taken), tuple(issues))


def _not_offered(book: ArmyBook, unit: Unit, choice: ChosenUpgrade, k: int) -> Issue:
    """Why a row names no option this unit may buy (the slow path of the offers lookup)."""
    row = f".upgrades[{k}]"
    section = book.sections.get(choice.section)
    if section is None:
        return Issue(
            "upgrade.unknown_section",
            f"{book.name} has no upgrade section {choice.section!r}",
            f"{row}.section",
            UPGRADE_CLAUSE,
        )
    if section.id not in unit.upgrades:
        return Issue(
            "upgrade.not_offered", f"{unit.name} is not offered “{section.label}”", f"{row}.section", UPGRADE_CLAUSE
        )
    return Issue(
        "upgrade.unknown_option", f"“{section.label}” has no option {choice.option!r}", f"{row}.option", UPGRADE_CLAUSE
    )


def _models_affected(
    section: UpgradeSection, choice: ChosenUpgrade, unit: Unit, gear: Gear, k: int, issues: list[Issue]
) -> int | None:
    """How many models this row upgrades; None (with an issue) when the count is impossible."""
    affects = section.affects
    if affects == AFFECTS_ALL:
        # "all models" sections are bought once and change every copy of the replaced (or
        # targeted) gear, or every model for plain upgrades.
        if choice.count != 1:
            issues.append(
                Issue(
                    "upgrade.count",
                    f"“{section.label}” is bought once for the whole unit (count {choice.count})",
                    f".upgrades[{k}].count",
                    upgrade_clause(section),
                    data={"allowed": 1, "asked": choice.count},
                )
            )
            return None
        replaces = section.replaces
        if len(replaces) == 1 and not section.replace_counts:
            return gear.count(replaces[0])
        if replaces:
            return min(gear.count(name) // section.copies_replaced(name) for name in replaces)
        return min(gear.count(name) for name in section.targets) if section.targets else unit.size
    if affects == AFFECTS_UNIT or affects == AFFECTS_ONE:
        limit = 1
    else:  # up to N, or any: one per model, more only where a model carries several copies
        limit = unit.size if affects == AFFECTS_ANY else min(section.affects_count or 1, unit.size)
        if choice.count > limit:
            reach = section_reach(section, unit)
            limit = reach if affects == AFFECTS_ANY else min(section.affects_count or 1, reach)
    if choice.count > limit:
        issues.append(
            Issue(
                "upgrade.count",
                f"“{section.label}” allows {counted(limit, 'model')}, asked for {choice.count}",
                f".upgrades[{k}].count",
                upgrade_clause(section),
                data={"allowed": limit, "asked": choice.count},
            )
        )
        return None
    return choice.count


def section_reach(section: UpgradeSection, unit: Unit) -> int:
    """How many models (or copies of its gear) an any / up-to section can touch at most.

    One per model, or one per copy of the replaced or targeted gear when a model carries
    several (a walker with two fists may change both): the copies left still bound each row.
    """
    named = (*section.replaces, *section.targets)
    if not named:
        return unit.size
    counts = unit.gear_counts
    copies = min(sum(counts[key] for key in unit.gear_keys(name)) // section.copies_replaced(name) for name in named)
    return max(unit.size, copies)


def _selection_bounds(book: ArmyBook, unit: Unit, taken: list[TakenUpgrade]) -> Iterator[Issue]:
    """Section select bounds: options per application, models per section, mandatory picks.

    Messages are only built for a bound that is broken: a legal entry costs a few set and
    sum operations per section it touched.
    """
    rows_of: dict[str, tuple[UpgradeSection, list[TakenUpgrade]]] = {}
    for t in taken:
        found = rows_of.get(t.section.id)
        if found is None:
            rows_of[t.section.id] = (t.section, [t])
        else:
            found[1].append(t)
    for section in book.mandatory_sections[unit.id]:
        rows_of.setdefault(section.id, (section, []))
    for section, rows in rows_of.values():
        if len(rows) == 1 and section.pick_min <= 1 and (section.pick_max is None or section.pick_max >= 1):
            continue  # one row that passed its count check breaks no bound of its section
        distinct = {t.option.id for t in rows}
        where = f".upgrades[{rows[-1].index}]" if rows else ".upgrades"
        if section.affects in _PICKED_PER_UNIT:
            if len(distinct) < len(rows):
                last = [t for t in rows if sum(r.option.id == t.option.id for r in rows) > 1][-1]
                yield Issue(
                    "upgrade.select",
                    f"“{section.label}”: option {last.option.id!r} taken more than once",
                    f".upgrades[{last.index}]",
                    upgrade_clause(section),
                    data={"allowed": 1, "taken": sum(r.option.id == last.option.id for r in rows)},
                )
            if section.pick_max is not None and len(distinct) > section.pick_max:
                yield Issue(
                    "upgrade.select",
                    f"“{section.label}” allows {counted(section.pick_max, 'option')}, {len(distinct)} taken",
                    where,
                    upgrade_clause(section),
                    data={"allowed": section.pick_max, "taken": len(distinct)},
                )
        elif rows:
            per_model = section.pick_max if section.pick_max is not None else len(section.options)
            total = sum(t.models for t in rows)
            reach = unit.size if total <= unit.size else section_reach(section, unit)
            cap = min(section.affects_count or reach, reach) if section.affects == AFFECTS_UP_TO else reach
            if total > cap * per_model:
                yield Issue(
                    "upgrade.select",
                    f"“{section.label}” allows {cap * per_model} in all, {total} taken",
                    where,
                    upgrade_clause(section),
                    data={"allowed": cap * per_model, "taken": total},
                )
            if total > cap:  # only then can one option be on more models than the cap
                for option_id in distinct:
                    option_total = sum(t.models for t in rows if t.option.id == option_id)
                    if option_total > cap:
                        yield Issue(
                            "upgrade.count",
                            f"“{section.label}”: {option_id!r} on {option_total} models, at most {cap}",
                            where,
                            upgrade_clause(section),
                            data={"allowed": cap, "asked": option_total},
                        )
        if len(distinct) < section.pick_min:
            yield Issue(
                "upgrade.required",
                f"{unit.name} must choose {counted(section.pick_min, 'option')} from “{section.label}”",
                where,
                upgrade_clause(section),
                data={"required": section.pick_min, "taken": len(distinct)},
            )


# Sections whose options are chosen once for the unit (not per model).
_PICKED_PER_UNIT = frozenset((AFFECTS_UNIT, AFFECTS_ALL, AFFECTS_ONE))


def _requirements(book: ArmyBook, taken: list[TakenUpgrade]) -> Iterator[Issue]:
    """Options that need another option bought first (e.g. an elite-only item)."""
    have = {f"{t.section.id}/{t.option.id}" for t in taken}
    for t in taken:
        for needed in t.option.requires:
            if needed not in have:
                yield Issue(
                    "upgrade.requires",
                    f"“{t.option.label}” needs “{_option_label(book, needed)}” on the same unit",
                    f".upgrades[{t.index}]",
                    upgrade_clause(t.section),
                    data={"requires": needed},
                )


def _option_label(book: ArmyBook, ref: str) -> str:
    """ "section/option" as the book names the option, for messages a player reads."""
    section_id, _, option_id = ref.partition("/")
    section = book.sections.get(section_id)
    option = next((o for o in section.options if o.id == option_id), None) if section else None
    return option.label if option else ref

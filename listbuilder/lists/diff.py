"""What changed between two versions of a list: units added, removed and changed, in data and in words.

Entries are matched by their ``key`` (the builder keeps a unit's key for its whole life); a
key whose unit type changed counts as one unit removed and another added. For a changed unit
the diff lists each upgrade whose count moved (0 = not taken), and any change of name, notes,
combined or joined partner, or spells; the list's own settings (name, size, force organisation,
game mode, budget) are compared too. Costs come from validation reports of both versions, so
the diff never prices anything itself. Pure core: no Flask, no database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from listbuilder.model import ArmyBook, ArmyList, Cost, ListEntry

ADDED, REMOVED, CHANGED = "added", "removed", "changed"


@dataclass(frozen=True)
class UpgradeChange:
    section: str
    option: str
    label: str
    before: int  # models taking it before; 0 = not taken
    after: int

    def words(self) -> str:
        if not self.before:
            return f"took {self.label}" + (f" ×{self.after}" if self.after > 1 else "")
        if not self.after:
            return f"dropped {self.label}"
        return f"{self.label} ×{self.before} → ×{self.after}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "section": self.section,
            "option": self.option,
            "label": self.label,
            "from": self.before,
            "to": self.after,
        }


@dataclass(frozen=True)
class EntryChange:
    """One unit that was added, removed or changed, with its cost before and after."""

    key: str
    unit: str
    name: str
    change: str
    cost_before: Cost | None
    cost_after: Cost | None
    upgrades: tuple[UpgradeChange, ...] = ()
    details: tuple[str, ...] = ()

    def words(self) -> str:
        if self.change == ADDED:
            taken = ", ".join(u.label + (f" ×{u.after}" if u.after > 1 else "") for u in self.upgrades)
            return f"Added {self.name}" + (f" with {taken}" if taken else "") + f" ({format_cost(self.cost_after)})"
        if self.change == REMOVED:
            return f"Removed {self.name} ({format_cost(self.cost_before)})"
        parts = [u.words() for u in self.upgrades] + list(self.details)
        cost = ""
        if self.cost_before != self.cost_after:
            cost = f"; {format_cost(self.cost_before)} → {format_cost(self.cost_after)} ({signed(_delta(self.cost_before, self.cost_after))})"
        return f"{self.name}: " + "; ".join(parts) + cost

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "unit": self.unit,
            "name": self.name,
            "change": self.change,
            "cost_before": self.cost_before.as_dict() if self.cost_before is not None else None,
            "cost_after": self.cost_after.as_dict() if self.cost_after is not None else None,
            "upgrades": [u.as_dict() for u in self.upgrades],
            "details": list(self.details),
            "summary": self.words(),
        }


@dataclass(frozen=True)
class SettingChange:
    field: str
    before: Any
    after: Any

    def words(self) -> str:
        label = SETTING_LABELS.get(self.field, self.field)
        if self.field == "name":
            return f"{label}: {_show(self.before) if self.before else '(none)'} → {_show(self.after) if self.after else '(none)'}"
        return f"{label}: {_show(self.before)} → {_show(self.after)}"

    def as_dict(self) -> dict[str, Any]:
        return {"field": self.field, "from": self.before, "to": self.after}


@dataclass(frozen=True)
class ListDiff:
    entries: tuple[EntryChange, ...]
    settings: tuple[SettingChange, ...]
    total_before: Cost
    total_after: Cost

    def of_kind(self, change: str) -> list[EntryChange]:
        return [e for e in self.entries if e.change == change]

    @property
    def total_change(self) -> Cost:
        return _delta(self.total_before, self.total_after)

    @property
    def unchanged(self) -> bool:
        return not self.entries and not self.settings

    def summary(self) -> list[str]:
        """The diff as sentences a player reads, list settings first, the total last."""
        lines = [s.words() for s in self.settings] + [e.words() for e in self.entries]
        if not lines:
            return ["No changes."]
        total = f"Total: {format_cost(self.total_before)} → {format_cost(self.total_after)}"
        lines.append(total + (f" ({signed(self.total_change)})" if self.total_change else " (no change)"))
        return lines

    def as_dict(self) -> dict[str, Any]:
        return {
            "added": [e.as_dict() for e in self.of_kind(ADDED)],
            "removed": [e.as_dict() for e in self.of_kind(REMOVED)],
            "changed": [e.as_dict() for e in self.of_kind(CHANGED)],
            "settings": [s.as_dict() for s in self.settings],
            "totals": {
                "from": self.total_before.as_dict(),
                "to": self.total_after.as_dict(),
                "change": self.total_change.as_dict(),
            },
            "summary": self.summary(),
        }


SETTING_LABELS = {
    "name": "List name",
    "points_limit": "Points limit",
    "force_org": "Force organisation",
    "game_mode": "Game mode",
    "budget": "Budget",
}


def diff_lists(
    before: ArmyList,
    after: ArmyList,
    *,
    costs_before: Mapping[str, Cost],
    costs_after: Mapping[str, Cost],
    book_before: ArmyBook | None,
    book_after: ArmyBook | None,
) -> ListDiff:
    """Compare two versions of a list. *costs_* give each entry's cost by key (from each
    version's validation report); the books name units and options (ids are shown when a
    book does not know them)."""
    old = {e.key: e for e in before.units}
    new = {e.key: e for e in after.units}
    names_before = _names(before.units, book_before)
    names_after = _names(after.units, book_after)
    changes: list[EntryChange] = []
    for entry in after.units:
        was = old.get(entry.key)
        if was is not None and was.unit == entry.unit:
            change = _changed(was, entry, names_before, names_after, costs_before, costs_after, book_after)
            if change is not None:
                changes.append(change)
    for entry in before.units:
        now = new.get(entry.key)
        if now is None or now.unit != entry.unit:
            ups = tuple(_upgrade_change(book_before, u.section, u.option, u.count, 0) for u in entry.upgrades)
            changes.append(
                EntryChange(
                    entry.key,
                    entry.unit,
                    names_before[entry.key],
                    REMOVED,
                    costs_before.get(entry.key, Cost()),
                    None,
                    ups,
                )
            )
    for entry in after.units:
        was = old.get(entry.key)
        if was is None or was.unit != entry.unit:
            ups = tuple(_upgrade_change(book_after, u.section, u.option, 0, u.count) for u in entry.upgrades)
            changes.append(
                EntryChange(
                    entry.key, entry.unit, names_after[entry.key], ADDED, None, costs_after.get(entry.key, Cost()), ups
                )
            )
    order = {ADDED: 0, REMOVED: 1, CHANGED: 2}
    changes.sort(key=lambda c: order[c.change])
    return ListDiff(
        entries=tuple(changes),
        settings=tuple(_setting_changes(before, after)),
        total_before=Cost.total(costs_before.values()),
        total_after=Cost.total(costs_after.values()),
    )


def _changed(
    was: ListEntry,
    now: ListEntry,
    names_before: Mapping[str, str],
    names_after: Mapping[str, str],
    costs_before: Mapping[str, Cost],
    costs_after: Mapping[str, Cost],
    book: ArmyBook | None,
) -> EntryChange | None:
    counts_before = _counts(was)
    counts_after = _counts(now)
    upgrades = tuple(
        _upgrade_change(
            book, section, option, counts_before.get((section, option), 0), counts_after.get((section, option), 0)
        )
        for section, option in dict.fromkeys([*counts_before, *counts_after])
        if counts_before.get((section, option), 0) != counts_after.get((section, option), 0)
    )
    details = []
    if was.name != now.name:
        details.append(f"renamed “{names_before[was.key]}” → “{names_after[now.key]}”")
    if was.combined_with != now.combined_with:
        details.append(_partner("combined with", now.combined_with, names_after))
    if was.joined_to != now.joined_to:
        details.append(_partner("joined to", now.joined_to, names_after))
    if was.spells != now.spells:
        details.append("spells: " + (", ".join(now.spells) or "none"))
    if was.notes != now.notes:
        details.append("notes changed")
    cost_before, cost_after = costs_before.get(was.key, Cost()), costs_after.get(now.key, Cost())
    if not upgrades and not details and cost_before == cost_after:
        return None
    return EntryChange(
        now.key, now.unit, names_after[now.key], CHANGED, cost_before, cost_after, upgrades, tuple(details)
    )


def _partner(relation: str, key: str | None, names: Mapping[str, str]) -> str:
    return f"now {relation} {names.get(key, key)}" if key else f"no longer {relation} another unit"


def _counts(entry: ListEntry) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = {}
    for u in entry.upgrades:
        counts[(u.section, u.option)] = counts.get((u.section, u.option), 0) + u.count
    return counts


def _upgrade_change(book: ArmyBook | None, section: str, option: str, before: int, after: int) -> UpgradeChange:
    label = option
    found = book.sections.get(section) if book is not None else None
    if found is not None:
        label = next((o.label for o in found.options if o.id == option), option)
    return UpgradeChange(section, option, label, before, after)


def _names(entries: Sequence[ListEntry], book: ArmyBook | None) -> dict[str, str]:
    """Each entry as a player names it; repeated names get their place in the list (#3)."""
    plain = {}
    for entry in entries:
        unit = book.unit(entry.unit) if book is not None else None
        plain[entry.key] = entry.name or (unit.name if unit is not None else entry.unit)
    seen: dict[str, int] = {}
    for name in plain.values():
        seen[name] = seen.get(name, 0) + 1
    return {e.key: plain[e.key] + (f" #{i}" if seen[plain[e.key]] > 1 else "") for i, e in enumerate(entries, start=1)}


def _setting_changes(before: ArmyList, after: ArmyList) -> list[SettingChange]:
    pairs = [
        ("name", before.name, after.name),
        ("points_limit", before.points_limit, after.points_limit),
        ("force_org", before.force_org, after.force_org),
    ]
    for key in ("game_mode", "budget"):
        pairs.append((key, before.extra.get(key), after.extra.get(key)))
    return [SettingChange(name, old, new) for name, old, new in pairs if old != new]


def _delta(before: Cost | None, after: Cost | None) -> Cost:
    return (after or Cost()) - (before or Cost())


def format_cost(cost: Cost | None) -> str:
    amounts = (cost or Cost()).amounts
    return " + ".join(f"{amount} {currency}" for currency, amount in amounts.items()) or "0"


def signed(cost: Cost) -> str:
    return ", ".join(f"{amount:+d} {currency}" for currency, amount in cost.amounts.items()) or "±0"


def _show(value: Any) -> str:
    if value is None or value == "":
        return "none"
    if value is True:
        return "on"
    if value is False:
        return "off"
    if isinstance(value, str):
        return f"“{value}”"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return str(value)

"""Army list -> Roster: everything a printed army sheet shows, as plain values.

The roster is a view model: the PDF and HTML templates (``listbuilder.printing.pdf``) and the forum text
export (:func:`roster_text`) read it and compute nothing. What a unit block shows differs by
rules family (OPR: quality, defense, tough; ancients-hex: move, dice pools, hit points;
armour-hex: speeds, facings, damage tables); those differences are data, the family's
sheet (``listbuilder.printing.sheets``), not branches on the system id. Pure core: no Flask, no WeasyPrint.

Errors::

    ListError    the list names a system or book we do not have (raised by ``book_for``)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from listbuilder.books.editions import edition_note, player_edition
from listbuilder.books.registry import BookRegistry
from listbuilder.families import FAMILIES
from listbuilder.lists.canonical import rules_version, verification_code
from listbuilder.lists.documents import book_for
from listbuilder.model import ArmyBook, ArmyList, Cost, GameSystem, RuleRef, Spell, Weapon, rule_rating, spell_chart
from listbuilder.printing.quick_reference import Definitions, rules_used
from listbuilder.printing.sheets import FALLBACK_SHEET, FamilySheet, Table
from listbuilder.resolve import ResolvedEntry
from listbuilder.resolve.deployment import count_totals, deployment_groups
from listbuilder.util.words import counted
from listbuilder.validation import ERROR

# --------------------------------------------------------------------------------------------
# The view model


@dataclass(frozen=True)
class Stat:
    label: str
    short: str
    value: str


@dataclass(frozen=True)
class SpellLine:
    name: str
    value: str
    text: str


@dataclass(frozen=True)
class Profile:
    """One unit profile as it prints: a single entry, or a combined pair merged into one."""

    name: str
    book_name: str
    models: int
    stats: tuple[Stat, ...]
    weapons: Table
    panels: tuple[Table, ...]
    items: tuple[str, ...]
    rules: tuple[str, ...]
    upgrades: tuple[str, ...]
    spells: tuple[SpellLine, ...]
    cost: str
    notes: tuple[str, ...]
    weapon_labels: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()  # what the family asks to be seen at a glance (keyword troops, elites)
    rule_names: tuple[str, ...] = ()  # every rule the profile, its weapons and items carry (unit cards explain them)

    @property
    def renamed(self) -> bool:
        return self.name != self.book_name

    @property
    def facts(self) -> tuple[str, ...]:
        """Rules, equipment, upgrades and spells, each one labelled run of text (the sheet
        prints them on one line, no box per label)."""
        spells = ", ".join(f"{s.name} ({s.value})" for s in self.spells)
        parts = (
            ("Rules", ", ".join(self.rules)),
            ("Equipment", ", ".join(self.items)),
            ("Upgrades", "; ".join(self.upgrades)),
            ("Spells", spells),
        )
        return tuple(f"{label}: {text}" for label, text in parts if text)


@dataclass(frozen=True)
class UnitBlock:
    """What hits the table as one unit: an entry, or a combined pair, with any joined heroes.

    Identical activations (same unit, gear, name and riders) print once, ``copies`` times; then
    ``models`` and ``cost`` are each copy's and ``total_cost`` the block's, and each copy has a
    number of its own (6a, 6b, ...) so that copies on the table can be told apart, with the
    mark the builder gives its entry among those of the same name (``copy_marks``: "#1", "#3").
    """

    number: int
    profile: Profile
    heroes: tuple[Profile, ...]
    combined: int  # how many list entries make up the main profile (2 for a combined pair)
    models: int
    cost: str
    copies: int = 1
    total_cost: str = ""
    copy_marks: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        return f"{self.copies}× {self.profile.name}" if self.copies > 1 else self.profile.name

    @property
    def numbers(self) -> tuple[str, ...]:
        """Each copy's number: ``("6",)`` for one, ``("6a", "6b", "6c")`` for three."""
        if self.copies == 1:
            return (str(self.number),)
        return tuple(f"{self.number}{_copy_letter(i)}" for i in range(self.copies))

    @property
    def number_text(self) -> str:
        """The block's number on the sheet: ``6``, or ``6a–6c`` for copies printed once."""
        numbers = self.numbers
        return numbers[0] if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"


def _copy_letter(index: int) -> str:
    """a, b, ... z, then aa, ab, ...: a letter or two that a player can chalk on a base."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    return (
        letters[index] if index < len(letters) else letters[index // len(letters) - 1] + letters[index % len(letters)]
    )


@dataclass(frozen=True)
class BudgetLine:
    currency: str
    spent: int
    limit: int | None

    @property
    def over(self) -> bool:
        return self.limit is not None and self.spent > self.limit


@dataclass(frozen=True)
class IssueLine:
    severity: str
    message: str
    path: str
    clause: str


@dataclass(frozen=True)
class ReferenceRule:
    label: str
    text: str
    name: str = ""


@dataclass(frozen=True)
class Spellbook:
    """The spells of one or more casters (casters with the same spells share one table)."""

    casters: tuple[str, ...]
    spells: tuple[SpellLine, ...]


@dataclass(frozen=True)
class Roster:
    """A whole army sheet: header, validation banner, unit blocks and quick reference."""

    name: str
    system: str
    # the rules the list is checked by, as players are told them ("Age of Fantasy 2.16",
    # "Armour Hex, draft rules": listbuilder.books.editions.player_edition), for the header
    system_label: str
    book: str
    book_version: str
    faction: str
    budget: tuple[BudgetLine, ...]
    counts: Mapping[str, int]
    valid: bool
    issues: tuple[IssueLine, ...]
    blocks: tuple[UnitBlock, ...]
    reference: tuple[ReferenceRule, ...]
    spellbooks: tuple[Spellbook, ...]
    spell_value_label: str = "Value"
    code: str = ""  # the verification code of the list under these rules (listbuilder.lists.canonical)
    # A book written for another edition (Army Forge): what it was written for and which
    # checks that changes (listbuilder.books.editions); empty for the project's own books
    edition_summary: str = ""
    edition_changes: tuple[str, ...] = ()
    # the number each unit on the table prints under, in list order ("1", "2a", "3", "2b"), so a
    # page listing the units one by one numbers them as their cards do
    table_numbers: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        return self.name or f"{self.book} army"

    @property
    def budget_text(self) -> str:
        """``1995 / 2000 pts`` (every currency), for the page header."""
        return " · ".join(
            f"{b.spent} / {b.limit} {b.currency}" if b.limit is not None else f"{b.spent} {b.currency}"
            for b in self.budget
        )

    @property
    def rule_names(self) -> tuple[str, ...]:
        return tuple(r.label for r in self.reference)

    def rules_of(self, block: UnitBlock) -> tuple[ReferenceRule, ...]:
        """The quick-reference entries of the rules a block's profiles carry (its unit card prints them)."""
        wanted = {name for p in (block.profile, *block.heroes) for name in p.rule_names}
        return tuple(r for r in self.reference if r.name in wanted)


def sheet_for(system: GameSystem) -> FamilySheet:
    """How *system*'s units print; a family without a sheet of its own prints every plain stat."""
    family = FAMILIES.get(system.family)
    sheet: FamilySheet | None = family.part("sheet") if family is not None else None
    return sheet or FALLBACK_SHEET


# --------------------------------------------------------------------------------------------
# Building a roster


def build_roster(registry: BookRegistry, army: ArmyList) -> Roster:
    """The printable roster of *army*, legal or not; raises ListError for unknown ids."""
    rules, book = book_for(registry, army)
    system = rules.system
    sheet = sheet_for(system)
    report = rules.validate(army, book)
    resolved, _ = rules.resolve(army, book)
    definitions = Definitions(book, system, sheet.glossary_keys)
    casters = caster_rules(system, sheet)

    groups = deployment_groups(resolved)
    marks = builder_marks(resolved)
    built: list[tuple[UnitBlock, Cost]] = []
    for group in groups:
        main = unit_profile(group.members, book, system, sheet, casters)
        heroes = tuple(unit_profile((h,), book, system, sheet, casters) for h in group.heroes)
        cost = Cost.total(m.cost for m in group.entries)
        built.append(
            (
                UnitBlock(
                    0,
                    main,
                    heroes,
                    len(group.members),
                    main.models + sum(h.models for h in heroes),
                    format_cost(cost),
                    copy_marks=(marks[group.members[0].key],),
                ),
                cost,
            )
        )
    blocks = _merge_identical(built)

    shared: dict[tuple[SpellLine, ...], list[str]] = {}
    for block in blocks:
        for profile in (block.profile, *block.heroes):
            if profile.spells:
                shared.setdefault(profile.spells, []).append(profile.name)
    spellbooks = tuple(Spellbook(tuple(dict.fromkeys(names)), spells) for spells, names in shared.items())
    used = rules_used(resolved, sheet.rule_stats, definitions, [s.text for b in spellbooks for s in b.spells])
    reference = tuple(
        ReferenceRule(definitions.label(name), definitions.text(name), name)
        for name in sorted(definitions.closure(used), key=str.casefold)
    )

    spent = Cost.total(r.cost for r in resolved)
    limit = next((report.totals[k] for k in _LIMIT_TOTALS if isinstance(report.totals.get(k), Mapping)), {})
    currencies = sorted(set(spent) | set(limit))
    budget = tuple(BudgetLine(c, spent[c], limit.get(c)) for c in currencies)
    return Roster(
        name=army.name,
        system=system.name,
        system_label=player_edition(system)["title"],
        book=book.name,
        book_version=book.version,
        faction=book.faction,
        budget=budget,
        counts=count_totals(army, resolved, groups),
        valid=report.valid,
        issues=tuple(IssueLine(i.severity, i.message, i.path, i.clause) for i in report.issues),
        blocks=tuple(blocks),
        reference=reference,
        spellbooks=spellbooks,
        spell_value_label=_spell_value(sheet, casters)[0],
        code=verification_code(army, rules_version(book, system)),
        table_numbers=_table_numbers(built, blocks),
        **_edition(book, system),
    )


def _edition(book: ArmyBook, system: GameSystem) -> dict[str, Any]:
    """The roster's edition lines: only for a book written elsewhere (listbuilder.books.editions)."""
    note = edition_note(book, system)
    if note["written_for"] is None:
        return {}
    return {"edition_summary": note["summary"], "edition_changes": tuple(note["changes"])}


def _merge_identical(blocks: Iterable[tuple[UnitBlock, Cost]]) -> list[UnitBlock]:
    """One block per distinct activation, counting its copies, numbered in list order."""
    merged: dict[tuple[Profile, tuple[Profile, ...], int], tuple[UnitBlock, Cost, tuple[str, ...]]] = {}
    for block, cost in blocks:
        key = (block.profile, block.heroes, block.combined)
        first, _, names = merged.get(key, (block, cost, ()))
        merged[key] = (first, cost, names + block.copy_marks)
    return [
        replace(
            block,
            number=number,
            copies=len(names),
            total_cost=format_cost(Cost.total([cost] * len(names))),
            copy_marks=names if len(names) > 1 else (),
        )
        for number, (block, cost, names) in enumerate(merged.values(), start=1)
    ]


def _table_numbers(built: Sequence[tuple[UnitBlock, Cost]], blocks: Sequence[UnitBlock]) -> tuple[str, ...]:
    """Each unit on the table's printed number, in list order (see ``Roster.table_numbers``)."""
    index = {(b.profile, b.heroes, b.combined): b for b in blocks}
    seen: dict[int, int] = {}
    numbers = []
    for block, _ in built:
        merged = index[(block.profile, block.heroes, block.combined)]
        numbers.append(merged.numbers[seen.get(merged.number, 0)])
        seen[merged.number] = seen.get(merged.number, 0) + 1
    return tuple(numbers)


def builder_marks(resolved: Sequence[ResolvedEntry]) -> dict[str, str]:
    """Each entry's mark among the entries of its name, as the builder's list shows it ("#2";
    empty for a name no other entry has: static/js/builder_state.js labelOf), so a printed
    copy and the builder's row name the same entry."""
    sharing: dict[str, int] = {}
    for r in resolved:
        sharing[r.name] = sharing.get(r.name, 0) + 1
    seen: dict[str, int] = {}
    marks = {}
    for r in resolved:
        seen[r.name] = seen.get(r.name, 0) + 1
        marks[r.key] = f"#{seen[r.name]}" if sharing[r.name] > 1 else ""
    return marks


# Where a family's validation totals give the amount each currency may reach.
_LIMIT_TOTALS = ("limit", "budget")


def format_cost(cost: Cost) -> str:
    return " · ".join(f"{amount} {currency}" for currency, amount in cost.amounts.items()) or "free"


def caster_rules(system: GameSystem, sheet: FamilySheet) -> set[str]:
    """The rules that make a unit a caster in *system* (its spells print with its profile)."""
    return {system.composition[k] for k in sheet.caster_rule_keys if system.composition.get(k)}


def _spell_value(sheet: FamilySheet, casters: set[str]) -> tuple[str, str]:
    """The column label and format of spell values for this system's caster rule."""
    for caster in sorted(casters):
        if caster in sheet.spell_values:
            return sheet.spell_values[caster]
    return "Value", "{}"


def _spells_of(entry: ResolvedEntry, book: ArmyBook, system: GameSystem, casters: set[str]) -> list[Spell]:
    """The spells an entry takes: the ones it chose, or every spell open to a caster."""
    known = spell_chart(system, book)
    if entry.entry.spells:
        return [known[s] for s in entry.entry.spells if s in known]
    if not any(r.name in casters for r in entry.all_rules):
        return []
    roles = {entry.unit.id, *entry.unit.stats.get("spell_roles", ())}
    return [s for s in known.values() if not s.limited_to or roles & set(s.limited_to)]


def unit_profile(
    members: Sequence[ResolvedEntry], book: ArmyBook, system: GameSystem, sheet: FamilySheet, casters: set[str]
) -> Profile:
    """One profile as it prints: a single entry, or a combined pair's *members* merged into one."""
    first = members[0]
    unit = first.unit
    names = list(dict.fromkeys(m.name for m in members))
    weapons = _merge_counts(w for m in members for w in m.weapons) if sheet.show_weapons else []
    items: dict[str, int] = {}
    for m in members:
        for item in m.items:
            items[item.name] = items.get(item.name, 0) + item.count
    rules = list(dict.fromkeys(r for m in members for r in m.rules))
    # A pair whose halves took the same upgrade lists it once, "on both halves": printed twice
    # it read as bought twice (the builder and the share page show a pair the same way).
    taken: dict[tuple[str, str], int] = {}
    for m in members:
        for t in m.taken:
            times = f"{t.models}× " if t.models > 1 and t.section.affects not in ("unit", "all") else ""
            key = (f"{times}{t.option.label}", format_cost(t.option.cost_for(unit.id)))
            taken[key] = taken.get(key, 0) + 1
    upgrades = []
    for (label, cost), n in taken.items():
        both = n == len(members) == 2
        upgrades += [f"{label} on both halves ({cost} each)"] if both else [f"{label} ({cost})"] * n
    spells = _spells_of(first, book, system, casters)
    stats = unit.stats
    return Profile(
        name=" + ".join(names),
        book_name=unit.name,
        models=sum(m.models for m in members),
        stats=tuple(_stats(sheet, first)),
        weapons=_weapon_table(weapons, sheet),
        panels=tuple(_panels(sheet, stats)),
        items=tuple(
            _item_label(name, count, next(i for m in members for i in m.items if i.name == name).rules)
            for name, count in items.items()
        ),
        rules=tuple(r.label for r in rules),
        upgrades=tuple(upgrades),
        spells=tuple(SpellLine(s.name, _spell_value(sheet, casters)[1].format(s.value), s.text) for s in spells),
        cost=format_cost(Cost.total(m.cost for m in members)),
        notes=tuple(m.entry.notes for m in members if m.entry.notes),
        weapon_labels=tuple(_weapon_label(w, sheet) for w in weapons),
        marks=sheet.marks(members) if sheet.marks else (),
        rule_names=tuple(
            dict.fromkeys(
                r.name
                for m in members
                for r in (
                    *m.all_rules,
                    *(wr for w in m.weapons for wr in w.rules),
                    *(ir for i in m.items for ir in i.rules),
                )
            )
        ),
    )


def _merge_counts(weapons: Iterable[Weapon]) -> list[Weapon]:
    """Same profile twice (a combined pair) -> one row with the summed count."""
    merged: dict[tuple[Any, ...], Weapon] = {}
    for w in weapons:
        key = (w.name, w.attacks, w.range, w.rules, tuple(sorted((k, repr(v)) for k, v in w.extra.items())))
        merged[key] = merged[key].with_count(merged[key].count + w.count) if key in merged else w
    return list(merged.values())


def _item_label(name: str, count: int, rules: tuple[RuleRef, ...]) -> str:
    times = f"{count}× " if count > 1 else ""
    granted = f" ({', '.join(r.label for r in rules)})" if rules else ""
    return f"{times}{name}{granted}"


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return "/".join(_show(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_show(v)}" for k, v in value.items())
    return str(value)


def _stats(sheet: FamilySheet, entry: ResolvedEntry) -> Iterator[Stat]:
    stats = entry.unit.stats
    if not sheet.stats:
        for key, value in stats.items():
            if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                label = key.replace("_", " ").capitalize()
                yield Stat(label, label, str(value))
        return
    for column in sheet.stats:
        if column.key.startswith("rule:"):
            value: Any = rule_rating(entry.all_rules, column.key[5:], column.default)
        else:
            value = stats.get(column.key, column.default)
        if value is None:
            continue
        text = column.fmt.format(value=_show(value), **{k: _show(v) for k, v in stats.items()})
        yield Stat(column.label, column.short, text)


def _panels(sheet: FamilySheet, stats: Mapping[str, Any]) -> Iterator[Table]:
    for build in sheet.panels:
        made = build(stats)
        if isinstance(made, Table):
            yield made
        elif made is not None:
            yield from made


def _range(weapon: Weapon, sheet: FamilySheet) -> str:
    return f"{weapon.range}{sheet.range_unit}" if weapon.range else "melee"


def _weapon_table(weapons: list[Weapon], sheet: FamilySheet) -> Table:
    columns = [c for c in sheet.weapon_columns if any(c.key in w.extra and w.extra[c.key] is not None for w in weapons)]
    rows = []
    for w in weapons:
        name = f"{w.count}× {w.name}" if w.count > 1 else w.name
        extras = [_show_extra(w.extra.get(c.key)) for c in columns]
        rows.append((name, _range(w, sheet), str(w.attacks), *extras, ", ".join(r.label for r in w.rules) or "–"))
    headers = ("Weapon", "Range", "Att", *(c.label for c in columns), "Special rules")
    return Table("Weapons", headers, tuple(rows))


def _show_extra(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, (list, tuple)) and all(isinstance(v, bool) for v in value):
        return "/".join("✓" if v else "–" for v in value)
    return _show(value)


def _weapon_label(w: Weapon, sheet: FamilySheet) -> str:
    parts = [] if not w.range else [f"{w.range}{sheet.range_unit}"]
    parts.append(f"A{w.attacks}")
    parts += [
        f"{c.label} {_show_extra(w.extra[c.key])}" for c in sheet.weapon_columns if w.extra.get(c.key) is not None
    ]
    parts += [r.label for r in w.rules]
    times = f"{w.count}× " if w.count > 1 else ""
    return f"{times}{w.name} ({', '.join(parts)})"


# --------------------------------------------------------------------------------------------
# Text export


def roster_text(roster: Roster) -> str:
    """The compact forum form: a header line, then one line per unit (joined heroes indented).
    Copies printed once carry the numbers the sheet and cards give them ("6a–6c. 3× Hold
    Guard"), so a player reading the text finds the same numbers on the table's cards."""
    budget = ", ".join(
        f"{b.spent}/{b.limit} {b.currency}" if b.limit is not None else f"{b.spent} {b.currency}" for b in roster.budget
    )
    lines = [
        (
            f"++ {roster.title} ++ {roster.system_label} · {roster.book} v{roster.book_version} · {budget}"
            f" · {counted(roster.counts['units'], 'unit')}, {counted(roster.counts['activations'], 'activation')}, {counted(roster.counts['models'], 'model')}"
            f" · code {roster.code}"
        ),
    ]
    if not roster.valid:
        errors = [i.message for i in roster.issues if i.severity == ERROR]
        lines.append(
            f"!! NOT A LEGAL LIST ({len(errors)} error{'s' if len(errors) != 1 else ''}): " + "; ".join(errors)
        )
    if roster.edition_summary:
        lines.append(f"!! {roster.edition_summary}")
    lines.append("")
    for block in roster.blocks:
        copies = f"{block.copies}× " if block.copies > 1 else ""
        lines.append(_text_line(block.profile, f"{block.number_text}. {copies}", block.combined))
        lines.extend(_text_line(hero, "   + joined: ", 1) for hero in block.heroes)
    return "\n".join(lines) + "\n"


def _text_line(p: Profile, prefix: str, combined: int) -> str:
    name = p.name if not p.renamed else f"{p.name} ({p.book_name})"
    stats = " ".join(f"{s.short}{s.value}" if s.short else s.value for s in p.stats)
    marks = "".join(f" ({mark})" for mark in p.marks)
    parts = [
        f"{prefix}{name} [{p.models}]" + (" combined" if combined > 1 else "") + marks + (f" {stats}" if stats else "")
    ]
    parts.append(", ".join(p.weapon_labels) or "no weapons")
    if p.items:
        parts.append(", ".join(p.items))
    if p.rules:
        parts.append(", ".join(p.rules))
    if p.spells:
        parts.append("spells: " + ", ".join(f"{s.name} ({s.value})" for s in p.spells))
    parts.append(p.cost)
    return " | ".join(parts)

"""The OPR family: Age of Fantasy 2.16, Grimdark Future and Age of Fantasy regiments.

The three rulebooks share one way of building armies and differ only in numbers, which live in
each ``_system.yaml`` (force organisation ratios, the hero Tough limit, regiment sizes,
command-group roles). Clause names in comments cite the rulebook files in ``shared/rules``:
000 = AoF 2.16, 001 = Grimdark Future, 002 = AoF regiments.

How joined heroes and combined pairs count (our reading, also in the README):
- a combined pair is one unit on the table: it counts once for copies (the rulebooks say so),
  once for the unit limit, and its summed cost is what the 35% cap measures;
- a joined hero stays its own unit for force organisation: it counts for heroes and for the
  unit limit, and its cost is not added to the unit it joins for the 35% cap.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from listbuilder.model import ArmyBook, ArmyList, Cost, Spell, rule_rating, spell_chart
from listbuilder.deployment import count_totals
from listbuilder.resolve import ResolvedEntry
from listbuilder.rules import SystemRules
from listbuilder.validation import WARNING, Issue, ValidationReport

POINTS = "pts"


def _pairs_once(table_units: list[TableUnit]) -> str:
    """Why a force-org count is below the list's own count of units (the totals bar's "units",
    every entry): the words to add after the count, or nothing when no pair is among them."""
    pairs = sum(1 for t in table_units if len(t.members) > 1)
    if not pairs:
        return ""
    entries = len(table_units) + pairs
    return f" ({entries} in the list, each combined pair counted once)"


class TableUnit:
    """What is deployed as one unit: a single entry or a combined pair (joined heroes apart).

    Its cost and size are summed once here, since every force-organisation check reads them.
    """

    __slots__ = ("members", "cost", "models")

    def __init__(self, members: tuple[ResolvedEntry, ...]):
        self.members = members
        first = members[0]
        self.cost: Cost = first.cost
        self.models: int = first.models
        for other in members[1:]:  # a combined pair's second copy: no generators for two
            self.cost += other.cost
            self.models += other.models

    @property
    def unit_id(self) -> str:
        return self.members[0].unit.id

    @property
    def is_hero(self) -> bool:
        return self.members[0].unit.is_hero

    @property
    def path(self) -> str:
        return self.members[0].path


def _first_index(table_unit: TableUnit) -> int:
    return table_unit.members[0].index


class OprRules(SystemRules):
    ISSUE_CODES: ClassVar[Mapping[str, str]] = {
        "points.over_limit": "The list costs more points than the agreed limit.",
        "spells.unknown": "A spell id on an entry is not a spell of the army book.",
        "spells.not_caster": "Spells are listed for an entry without the system's casting rule (they would never be cast).",
        "combined.unknown_key": "combined_with names a key that is not in the list.",
        "combined.self": "An entry is combined with itself.",
        "combined.different_unit": "Only two copies of the same unit may combine.",
        "combined.single_model": "Only multi-model units may combine.",
        "combined.conflict": "An entry is in more than one combined pair.",
        "combined.upgrades_differ": "The two copies do not share the same all-model upgrades.",
        "join.unknown_key": "joined_to names a key that is not in the list.",
        "join.self": "An entry is joined to itself.",
        "join.not_hero": "Only heroes may join other units.",
        "join.into_hero": "A hero may only join a unit that is not itself a hero.",
        "join.single_model": "Heroes may only join multi-model units.",
        "join.tough": "The hero is too tough to join a unit in this system.",
        "join.second_hero": "The unit already has another hero joined to it.",
        "upgrade.command_group": "A unit (even a combined one) holds more than one of a command-group upgrade.",
        "force_org.heroes": "More heroes than the force organisation allows.",
        "force_org.copies": "More copies of one unit than the force organisation allows.",
        "force_org.unit_share": "One unit costs more than the allowed share of the points limit.",
        "force_org.units": "More units than the force organisation allows.",
    }

    # -- data --------------------------------------------------------------------------------

    @property
    def composition(self) -> Mapping[str, Any]:
        return self.system.composition

    def default_points(self) -> int:
        return int(self.composition["points"]["default"])

    def force_org_default(self) -> bool:
        force_org = self.composition.get("force_org")
        return bool(force_org and force_org["default_on"])

    def force_org_limits(self, points_limit: int) -> dict[str, int] | None:
        """The force-organisation maxima at *points_limit*, or None where the system has none."""
        rules = self.composition.get("force_org")
        if not rules:
            return None
        return {
            "heroes": points_limit // rules["hero_per"],
            "copies": 1 + points_limit // rules["copies_per"],
            "unit_points": points_limit * rules["max_unit_share"] // 100,
            "units": points_limit // rules["unit_per"],
        }

    def describe(self) -> dict[str, Any]:
        suggested = self.composition["points"].get("suggested") or [self.default_points()]
        return {
            "composition": dict(self.composition),
            "force_org_available": self.composition.get("force_org") is not None,
            "force_org_default": self.force_org_default(),
            "force_org_examples": {str(p): self.force_org_limits(p) for p in suggested} if self.composition.get("force_org") else {},
        }

    # -- books -------------------------------------------------------------------------------

    def check_book(self, book: ArmyBook) -> list[tuple[str, str]]:
        problems: list[tuple[str, str]] = []
        sizes = self.composition.get("unit_sizes")
        for i, unit in enumerate(book.units):
            if set(unit.cost) - {POINTS}:
                problems.append((f"units[{i}].cost", f"{self.system.name} costs are in pts only"))
            # 002 "Regiments": multi-model units come in 3/6 or 5/10 models.
            if sizes and unit.size > 1 and unit.size not in sizes:
                problems.append((f"units[{i}].size", f"{unit.size} models is not a formation size ({sizes})"))
        roles = set(self.composition["command_groups"]["roles"])
        for s, section in enumerate(book.sections.values()):
            for o, option in enumerate(section.options):
                if option.command is not None and option.command not in roles:
                    problems.append((f"upgrades[{s}].options[{o}].command", f"not a command-group role here ({sorted(roles)})"))
                if set(option.cost) - {POINTS} or any(set(c) - {POINTS} for c in option.unit_costs.values()):
                    problems.append((f"upgrades[{s}].options[{o}].cost", f"{self.system.name} costs are in pts only"))
        return problems

    # -- lists -------------------------------------------------------------------------------

    def validate(self, army: ArmyList, book: ArmyBook) -> ValidationReport:
        resolved, issues = self.resolve(army, book)
        limit = army.points_limit or self.default_points()
        spent = self.spent(resolved)
        issues.extend(self._points(spent, limit))
        keyed = self.by_key(resolved)
        table_units, pair_issues = self._combine(army, resolved, keyed)
        issues.extend(pair_issues)
        issues.extend(self._command_groups(table_units))
        issues.extend(self._joins(resolved, keyed, table_units))
        force_org = army.force_org if army.force_org is not None else self.force_org_default()
        if force_org:
            issues.extend(self._force_org(table_units, limit))
        issues.extend(self._chosen_spells(resolved, book))
        issues.extend(self.undefined_rules(resolved, book))
        totals = {
            POINTS: spent[POINTS],
            **count_totals(army, resolved),
            "limit": {POINTS: limit},
            "left": {POINTS: limit - spent[POINTS]},
            "force_org": bool(force_org and self.composition.get("force_org")),
        }
        return ValidationReport.of(issues, totals, resolved)

    def _points(self, spent: Cost, limit: int) -> Iterator[Issue]:
        # 000/001/002 "Preparation": the army's total may not go over the agreed points.
        if spent[POINTS] > limit:
            yield Issue(
                "points.over_limit", f"{spent[POINTS]} pts spent of {limit} ({spent[POINTS] - limit} over)",
                "points_limit", self.composition["points_clause"],
                data={"limit": limit, "spent": spent[POINTS], "over": spent[POINTS] - limit},
            )

    def _combine(self, army: ArmyList, resolved: list[ResolvedEntry], keyed: Mapping[str, ResolvedEntry]) -> tuple[list[TableUnit], list[Issue]]:
        """Pair the combined entries; every entry not in a legal pair stands alone."""
        rules = self.composition["combined"]
        clause = rules["clause"]
        issues: list[Issue] = []
        edges: list[tuple[ResolvedEntry, ResolvedEntry]] = []
        declared: set[frozenset[str]] = set()
        mutual: set[frozenset[str]] = set()
        for entry in resolved:
            partner_key = entry.entry.combined_with
            if partner_key is None:
                continue
            partner = keyed.get(partner_key)
            # 000/001/002 Combined Units: two entries, each a copy of the same unit; 001 and 002
            # add "multi-model", 000 (AoF 2.16) lets any two copies combine (multi_model_only).
            if partner_key == entry.key:
                issues.append(Issue("combined.self", "an entry cannot combine with itself", f"{entry.path}.combined_with", clause))
            elif partner is None:
                known = any(e.key == partner_key for e in army.units)
                issues.append(Issue("combined.unknown_key", f"no valid entry with key {partner_key!r}" + (" (its unit is unknown)" if known else ""), f"{entry.path}.combined_with", clause))
            elif partner.unit.id != entry.unit.id:
                issues.append(Issue("combined.different_unit", f"{entry.unit.name} cannot combine with {partner.unit.name}: only copies of the same unit combine", f"{entry.path}.combined_with", clause))
            elif rules["multi_model_only"] and not entry.unit.is_multi_model:
                issues.append(Issue("combined.single_model", f"{entry.unit.name} is a single model; only multi-model units combine", f"{entry.path}.combined_with", clause))
            else:
                pair = frozenset((entry.key, partner.key))
                if pair in declared:
                    mutual.add(pair)
                else:
                    declared.add(pair)
                    edges.append((entry, partner))
        degree: dict[str, int] = {}
        for a, b in edges:
            degree[a.key] = degree.get(a.key, 0) + 1
            degree[b.key] = degree.get(b.key, 0) + 1
        table_units: list[TableUnit] = []
        paired: set[str] = set()
        for a, b in edges:
            # "A unit in at most one pair": a pair both copies name wins over a third claim.
            crowded = degree[a.key] > 1 or degree[b.key] > 1
            if crowded and frozenset((a.key, b.key)) not in mutual:
                taken = b if degree[b.key] > 1 else a
                issues.append(Issue("combined.conflict", f"{taken.name} ({taken.key}) is already in another combined pair", f"{a.path}.combined_with", clause))
                continue
            table_units.append(TableUnit((a, b) if a.index < b.index else (b, a)))
            paired.update((a.key, b.key))
            # "...as long as upgrades that apply to all models are bought for both."
            if a.all_model_choices() != b.all_model_choices():
                issues.append(Issue("combined.upgrades_differ", f"{a.name} and {b.name} must share the same all-model upgrades", f"{a.path}.upgrades", clause))
            # 002 "Regiments" says how models stand in rows (5 a row for 5/10, 3 for 3/6), not
            # what size a combined unit may reach, so 10+10 and 6+6 combine (docs/systems/opr.md).
        table_units += [TableUnit((r,)) for r in resolved if r.key not in paired]
        table_units.sort(key=_first_index)
        return table_units, issues

    def _chosen_spells(self, resolved: list[ResolvedEntry], book: ArmyBook) -> Iterator[Issue]:
        """Spells listed on an entry: in OPR they only choose what the roster prints, since a
        caster may cast any spell of its army, but they must exist and belong to a caster."""
        rule = self.composition.get("spellcasting_rule") or "Caster"
        # 000 Wizard(X) / 001, 002 Caster(X): a caster picks each spell from its army's list.
        clause = f"{self.system.rulebook[:3]} {rule}(X)"
        known: dict[str, Spell] | None = None
        for entry in resolved:
            if not entry.entry.spells:
                continue
            if known is None:
                known = spell_chart(self.system, book)
            for i, spell in enumerate(entry.entry.spells):
                if spell not in known:
                    yield Issue("spells.unknown", f"{book.name} has no spell {spell!r}", f"{entry.path}.spells[{i}]", clause)
            if not any(r.name == rule for r in entry.all_rules):
                yield Issue("spells.not_caster", f"{entry.name} has no {rule}(X) rule, so it casts none of the listed spells", f"{entry.path}.spells", clause, WARNING)

    def _command_groups(self, table_units: list[TableUnit]) -> Iterator[Issue]:
        # 000 "Command Groups" / 002 "COMMAND GROUPS": one of each per unit, even combined.
        clause = self.composition["command_groups"]["clause"]
        for table_unit in table_units:
            seen: dict[str, int] = {}
            for member in table_unit.members:
                for taken in member.taken:
                    role = taken.option.command
                    if role is None:
                        continue
                    seen[role] = seen.get(role, 0) + taken.models
                    if seen[role] > 1:
                        yield Issue("upgrade.command_group", f"{member.name}: a unit (combined or not) holds at most one {role}", f"{member.path}.upgrades[{taken.index}]", clause, data={"role": role})

    def _joins(self, resolved: list[ResolvedEntry], keyed: Mapping[str, ResolvedEntry], table_units: list[TableUnit]) -> Iterator[Issue]:
        rules = self.composition["heroes_join"]
        clause = rules["clause"]
        group_of = {m.key: t for t in table_units for m in t.members}
        heroes_in: Counter[int] = Counter()
        for hero in resolved:
            target_key = hero.entry.joined_to
            if target_key is None:
                continue
            where = f"{hero.path}.joined_to"
            target = keyed.get(target_key)
            # 000/001/002 Hero: only heroes join, into one other unit that is not a hero;
            # 001/002 add: a multi-model unit, heroes up to Tough(6), no other hero there.
            if not hero.unit.is_hero:
                yield Issue("join.not_hero", f"{hero.name} is not a hero; only heroes join other units", where, clause)
            elif target_key == hero.key:
                yield Issue("join.self", "a hero cannot join itself", where, clause)
            elif target is None:
                yield Issue("join.unknown_key", f"no valid entry with key {target_key!r}", where, clause)
            elif target.unit.is_hero:
                yield Issue("join.into_hero", f"{hero.name} cannot join {target.name}, which is a hero", where, clause)
            elif rules["multi_model_only"] and group_of[target.key].models < 2:
                yield Issue("join.single_model", f"{target.name} is a single model; heroes join multi-model units", where, clause)
            elif rules["max_tough"] is not None and rule_rating(hero.all_rules, "Tough", 1) > rules["max_tough"]:
                tough = rule_rating(hero.all_rules, "Tough", 1)
                yield Issue("join.tough", f"{hero.name} has Tough({tough}); only heroes up to Tough({rules['max_tough']}) join units", where, clause, data={"tough": tough, "max": rules["max_tough"]})
            else:
                group = id(group_of[target.key])
                heroes_in[group] += 1
                if rules["one_hero_per_unit"] and heroes_in[group] > 1:
                    yield Issue("join.second_hero", f"{target.name} already has a hero joined to it", where, clause)

    def _force_org(self, table_units: list[TableUnit], limit: int) -> Iterator[Issue]:
        rules = self.composition["force_org"]
        maxima = self.force_org_limits(limit)
        if maxima is None:
            return
        clause = rules["clause"]
        # 001 "Force Organisation": 1 hero per 500 pts (002: per 375 pts).
        heroes = [t for t in table_units if t.is_hero]
        if len(heroes) > maxima["heroes"]:
            extra = heroes[maxima["heroes"]]
            yield Issue("force_org.heroes", f"{len(heroes)} heroes, at most {maxima['heroes']} at {limit} pts", extra.path, clause, data={"max": maxima["heroes"], "count": len(heroes)})
        # 1+X copies of the same unit, X = 1 per 1000 pts (750 in 002); a combined pair counts once.
        copies: dict[str, list[TableUnit]] = {}
        for t in table_units:
            copies.setdefault(t.unit_id, []).append(t)
        for unit_id, group in copies.items():
            if len(group) > maxima["copies"]:
                extra = group[maxima["copies"]]
                yield Issue("force_org.copies", f"{len(group)} copies of {extra.members[0].unit.name}{_pairs_once(group)}, at most {maxima['copies']} at {limit} pts", extra.path, clause, data={"unit": unit_id, "max": maxima["copies"], "count": len(group)})
        # No single unit worth over 35% of the points limit; a combined pair is one unit.
        for t in table_units:
            if t.cost[POINTS] > maxima["unit_points"]:
                yield Issue("force_org.unit_share", f"{t.members[0].name} costs {t.cost[POINTS]} pts, over {rules['max_unit_share']}% of {limit} ({maxima['unit_points']} pts)", t.path, clause, data={"max": maxima["unit_points"], "cost": t.cost[POINTS]})
        # 1 unit per 200 pts (150 in 002); joined heroes count as units of their own.
        if len(table_units) > maxima["units"]:
            extra = table_units[maxima["units"]]
            yield Issue("force_org.units", f"{len(table_units)} units{_pairs_once(table_units)}, at most {maxima['units']} at {limit} pts", extra.path, clause, data={"max": maxima["units"], "count": len(table_units)})

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

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from listbuilder.model import ArmyBook, ArmyList, Cost, Spell, spell_chart
from listbuilder.resolve import ResolvedEntry
from listbuilder.resolve.deployment import count_totals
from listbuilder.systems.opr_table import POINTS, combine, command_groups, force_org_issues, joins
from listbuilder.systems.rules import SystemRules
from listbuilder.validation import WARNING, Issue, ValidationReport


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
            "force_org_examples": {str(p): self.force_org_limits(p) for p in suggested}
            if self.composition.get("force_org")
            else {},
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
                    problems.append(
                        (f"upgrades[{s}].options[{o}].command", f"not a command-group role here ({sorted(roles)})")
                    )
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
        table_units, pair_issues = combine(self.composition, army, resolved, keyed)
        issues.extend(pair_issues)
        issues.extend(command_groups(self.composition, table_units))
        issues.extend(joins(self.composition, resolved, keyed, table_units))
        force_org = army.force_org if army.force_org is not None else self.force_org_default()
        if force_org:
            issues.extend(force_org_issues(self.composition, self.force_org_limits(limit), table_units, limit))
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
                "points.over_limit",
                f"{spent[POINTS]} pts spent of {limit} ({spent[POINTS] - limit} over)",
                "points_limit",
                self.composition["points_clause"],
                data={"limit": limit, "spent": spent[POINTS], "over": spent[POINTS] - limit},
            )

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
                    yield Issue(
                        "spells.unknown", f"{book.name} has no spell {spell!r}", f"{entry.path}.spells[{i}]", clause
                    )
            if not any(r.name == rule for r in entry.all_rules):
                yield Issue(
                    "spells.not_caster",
                    f"{entry.name} has no {rule}(X) rule, so it casts none of the listed spells",
                    f"{entry.path}.spells",
                    clause,
                    WARNING,
                )

"""How an OPR list stands on the table: combined pairs, joined heroes, command groups and the
force organisation they count for.

Why a module of its own: these checks read the list as table units (a combined pair is one
unit, a joined hero stays its own), a job apart from the rules class's points, spells and book
checks. Clause names cite the rulebook files as in ``systems/opr.py`` (000 = AoF 2.16,
001 = Grimdark Future, 002 = AoF regiments).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from listbuilder.model import ArmyList, Cost, rule_rating
from listbuilder.resolve import ResolvedEntry
from listbuilder.validation import Issue

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


def combine(
    composition: Mapping[str, Any], army: ArmyList, resolved: list[ResolvedEntry], keyed: Mapping[str, ResolvedEntry]
) -> tuple[list[TableUnit], list[Issue]]:
    """Pair the combined entries; every entry not in a legal pair stands alone."""
    rules = composition["combined"]
    clause = rules["clause"]
    issues: list[Issue] = []
    edges, mutual = _claimed_pairs(rules, army, resolved, keyed, issues)
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
            issues.append(
                Issue(
                    "combined.conflict",
                    f"{taken.name} ({taken.key}) is already in another combined pair",
                    f"{a.path}.combined_with",
                    clause,
                )
            )
            continue
        table_units.append(TableUnit((a, b) if a.index < b.index else (b, a)))
        paired.update((a.key, b.key))
        # "...as long as upgrades that apply to all models are bought for both."
        if a.all_model_choices() != b.all_model_choices():
            issues.append(
                Issue(
                    "combined.upgrades_differ",
                    f"{a.name} and {b.name} must share the same all-model upgrades",
                    f"{a.path}.upgrades",
                    clause,
                )
            )
        # 002 "Regiments" says how models stand in rows (5 a row for 5/10, 3 for 3/6), not
        # what size a combined unit may reach, so 10+10 and 6+6 combine (docs/systems/opr.md).
    table_units += [TableUnit((r,)) for r in resolved if r.key not in paired]
    table_units.sort(key=_first_index)
    return table_units, issues


def _claimed_pairs(
    rules: Mapping[str, Any],
    army: ArmyList,
    resolved: list[ResolvedEntry],
    keyed: Mapping[str, ResolvedEntry],
    issues: list[Issue],
) -> tuple[list[tuple[ResolvedEntry, ResolvedEntry]], set[frozenset[str]]]:
    """Each pair some entry's combined_with asks for (once, in list order), and the pairs both
    copies name; a claim that cannot stand adds its issue to *issues*."""
    clause = rules["clause"]
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
            issues.append(
                Issue("combined.self", "an entry cannot combine with itself", f"{entry.path}.combined_with", clause)
            )
        elif partner is None:
            known = any(e.key == partner_key for e in army.units)
            issues.append(
                Issue(
                    "combined.unknown_key",
                    f"no valid entry with key {partner_key!r}" + (" (its unit is unknown)" if known else ""),
                    f"{entry.path}.combined_with",
                    clause,
                )
            )
        elif partner.unit.id != entry.unit.id:
            issues.append(
                Issue(
                    "combined.different_unit",
                    f"{entry.unit.name} cannot combine with {partner.unit.name}: only copies of the same unit combine",
                    f"{entry.path}.combined_with",
                    clause,
                )
            )
        elif rules["multi_model_only"] and not entry.unit.is_multi_model:
            issues.append(
                Issue(
                    "combined.single_model",
                    f"{entry.unit.name} is a single model; only multi-model units combine",
                    f"{entry.path}.combined_with",
                    clause,
                )
            )
        else:
            pair = frozenset((entry.key, partner.key))
            if pair in declared:
                mutual.add(pair)
            else:
                declared.add(pair)
                edges.append((entry, partner))
    return edges, mutual


def command_groups(composition: Mapping[str, Any], table_units: list[TableUnit]) -> Iterator[Issue]:
    # 000 "Command Groups" / 002 "COMMAND GROUPS": one of each per unit, even combined.
    clause = composition["command_groups"]["clause"]
    for table_unit in table_units:
        seen: dict[str, int] = {}
        for member in table_unit.members:
            for taken in member.taken:
                role = taken.option.command
                if role is None:
                    continue
                seen[role] = seen.get(role, 0) + taken.models
                if seen[role] > 1:
                    yield Issue(
                        "upgrade.command_group",
                        f"{member.name}: a unit (combined or not) holds at most one {role}",
                        f"{member.path}.upgrades[{taken.index}]",
                        clause,
                        data={"role": role},
                    )


def joins(
    composition: Mapping[str, Any],
    resolved: list[ResolvedEntry],
    keyed: Mapping[str, ResolvedEntry],
    table_units: list[TableUnit],
) -> Iterator[Issue]:
    """Joined heroes: who may join which unit."""
    rules = composition["heroes_join"]
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
            yield Issue(
                "join.single_model", f"{target.name} is a single model; heroes join multi-model units", where, clause
            )
        elif rules["max_tough"] is not None and rule_rating(hero.all_rules, "Tough", 1) > rules["max_tough"]:
            tough = rule_rating(hero.all_rules, "Tough", 1)
            yield Issue(
                "join.tough",
                f"{hero.name} has Tough({tough}); only heroes up to Tough({rules['max_tough']}) join units",
                where,
                clause,
                data={"tough": tough, "max": rules["max_tough"]},
            )
        else:
            group = id(group_of[target.key])
            heroes_in[group] += 1
            if rules["one_hero_per_unit"] and heroes_in[group] > 1:
                yield Issue("join.second_hero", f"{target.name} already has a hero joined to it", where, clause)


def force_org_issues(
    composition: Mapping[str, Any], maxima: Mapping[str, int] | None, table_units: list[TableUnit], limit: int
) -> Iterator[Issue]:
    """The force organisation at *limit* points (*maxima*: the system's counts at that limit)."""
    rules = composition["force_org"]
    if maxima is None:
        return
    clause = rules["clause"]
    # 001 "Force Organisation": 1 hero per 500 pts (002: per 375 pts).
    heroes = [t for t in table_units if t.is_hero]
    if len(heroes) > maxima["heroes"]:
        extra = heroes[maxima["heroes"]]
        yield Issue(
            "force_org.heroes",
            f"{len(heroes)} heroes, at most {maxima['heroes']} at {limit} pts",
            extra.path,
            clause,
            data={"max": maxima["heroes"], "count": len(heroes)},
        )
    # 1+X copies of the same unit, X = 1 per 1000 pts (750 in 002); a combined pair counts once.
    copies: dict[str, list[TableUnit]] = {}
    for t in table_units:
        copies.setdefault(t.unit_id, []).append(t)
    for unit_id, group in copies.items():
        if len(group) > maxima["copies"]:
            extra = group[maxima["copies"]]
            yield Issue(
                "force_org.copies",
                f"{len(group)} copies of {extra.members[0].unit.name}{_pairs_once(group)}, at most {maxima['copies']} at {limit} pts",
                extra.path,
                clause,
                data={"unit": unit_id, "max": maxima["copies"], "count": len(group)},
            )
    # No single unit worth over 35% of the points limit; a combined pair is one unit.
    for t in table_units:
        if t.cost[POINTS] > maxima["unit_points"]:
            yield Issue(
                "force_org.unit_share",
                f"{t.members[0].name} costs {t.cost[POINTS]} pts, over {rules['max_unit_share']}% of {limit} ({maxima['unit_points']} pts)",
                t.path,
                clause,
                data={"max": maxima["unit_points"], "cost": t.cost[POINTS]},
            )
    # 1 unit per 200 pts (150 in 002); joined heroes count as units of their own.
    if len(table_units) > maxima["units"]:
        extra = table_units[maxima["units"]]
        yield Issue(
            "force_org.units",
            f"{len(table_units)} units{_pairs_once(table_units)}, at most {maxima['units']} at {limit} pts",
            extra.path,
            clause,
            data={"max": maxima["units"], "count": len(table_units)},
        )

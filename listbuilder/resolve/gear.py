"""A unit's gear while a list entry's upgrade rows apply in order, and how rules stack.

Why a module of its own: applying a row (replacements consume gear, gains add it, weapon rules
make a profile of their own, gear tied to other gear leaves with it) is the hot inner step of
every validation, and it is a job apart from pricing the entry and checking the sections'
bounds, which ``listbuilder.resolve`` does around it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from listbuilder.model import AFFECTS_UNIT, Item, RuleRef, Unit, UpgradeOption, UpgradeSection, Weapon
from listbuilder.validation import WARNING, Issue

# The army book's upgrade sections are the rule here; the rulebooks only say to pick units
# and upgrades from the army's list (000/001/002 "Preparation").
UPGRADE_CLAUSE = "army book upgrade section"


def merge_rules(rules: Iterable[RuleRef]) -> tuple[RuleRef, ...]:
    """One entry per rule: numbered rules add up, the rest appear once.

    000 "Rules Priority & Stacking Effects": several instances of a rule do not stack unless
    the rule has an (X), so Tough(3) gained on a Tough(3) model makes Tough(6).
    """
    merged: dict[str, RuleRef] = {}
    for rule in rules:
        key = rule.label if rule.rating is None else rule.name
        known = merged.get(key)
        if known is None:
            merged[key] = rule
        elif rule.rating is not None and known.rating is not None:
            merged[key] = RuleRef(rule.name, str(known.rating + rule.rating))
    return tuple(merged.values())


def upgrade_clause(section: UpgradeSection) -> str:
    return f"{UPGRADE_CLAUSE}: {section.label}"


@dataclass
class Tied:
    """Gear one upgrade row gained while tied to other gear: the copies of each gained gear
    key, and how many copies of the targeted gear the row used."""

    section: UpgradeSection
    row: int
    uses: int
    copies: dict[str, int]


class Gear:
    """Mutable working copy of a unit's gear while upgrades are applied in order.

    Starts from the unit's own gear counts (by gear key, computed once per unit) and records
    only what the rows change; the final profiles are built when someone asks for them.
    A section names gear by key or by name (every profile with that name, exact key first),
    so "Replace CCW" finds the unit's CCW and, once those are gone, a CCW an upgrade gave.
    """

    __slots__ = ("unit", "rules", "_counts", "_gained_weapons", "_gained_items", "_aliases", "_targeted", "_tied")

    def __init__(self, unit: Unit):
        self.unit = unit
        self.rules: tuple[RuleRef, ...] = unit.rules
        self._counts: dict[str, int] = dict(unit.gear_counts)
        self._gained_weapons: dict[str, Weapon] = {}
        self._gained_items: dict[str, Item] = {}
        # Gear reference -> gear keys (a name may stand for several profiles); shared with
        # the unit until a row adds an alias.
        self._aliases: Mapping[str, tuple[str, ...]] = unit.gear_aliases
        self._targeted: dict[str, int] | None = None  # copies of targeted gear used, by section
        self._tied: list[Tied] | None = None  # gear gained by rows tied to other gear

    def _keys(self, name: str) -> tuple[str, ...]:
        keys = self._aliases.get(name)
        if keys is None:
            return (name,) if name in self._counts else ()
        return keys

    def count(self, name: str) -> int:
        """Copies left of the gear *name* refers to."""
        keys = self._aliases.get(name)
        if keys is None:
            return self._counts.get(name, 0)
        counts = self._counts
        return counts[keys[0]] if len(keys) == 1 else sum(counts[k] for k in keys)

    def apply(self, section: UpgradeSection, option: UpgradeOption, models: int, k: int, issues: list[Issue]) -> bool:
        """Apply one upgrade row; False (with an issue) when it takes more gear than is left.

        Written for speed (validation runs it for every row of every edit in the web builder):
        gear without ids and names shared by no other profile costs one dictionary probe.
        """
        counts = self._counts
        aliases = self._aliases
        replaces = section.replaces
        per_copy = section.replace_counts
        for name in replaces:
            # Replacing no more than the unit still has, counting earlier replacements.
            keys = aliases.get(name) if aliases else None
            left = counts.get(name, 0) if keys is None else counts[keys[0]] if len(keys) == 1 else self.count(name)
            asked = models * per_copy.get(name, 1) if per_copy else models
            if left < asked or left == 0:
                issues.append(
                    Issue(
                        "upgrade.replace_exceeds",
                        f"“{section.label}” replaces {asked} {name}, but only {left} left "
                        f"({self._at_start(name)} in the unit before upgrades)",
                        f".upgrades[{k}]",
                        upgrade_clause(section),
                        data={"gear": name, "left": left, "asked": asked},
                    )
                )
                return False
        if section.targets and not self._use_targets(section, models, k, issues):
            return False
        for name in replaces:
            asked = models * per_copy.get(name, 1) if per_copy else models
            keys = aliases.get(name) if aliases else None
            if keys is None or len(keys) == 1:  # one profile: no search
                counts[name if keys is None else keys[0]] -= asked
            else:
                self._take(name, asked)
        per = 1 if section.affects == AFFECTS_UNIT else models
        gains = option.gains
        for gained, gears in ((self._gained_weapons, gains.weapons), (self._gained_items, gains.items)):
            for gear in gears:
                key = gear.gear_key
                if key in counts:
                    counts[key] += gear.count * per
                elif aliases or key != gear.name:
                    self._add(gear, gear.count * per)
                else:  # a new profile no other gear shares a name with
                    gained[key] = gear
                    counts[key] = gear.count * per
        if gains.weapon_rules and section.targets:
            self._modify(section.targets[0], models, gains.weapon_rules, f"{section.id}/{option.id}")
        if gains.rules:
            self.rules = merge_rules([*self.rules, *gains.rules])
        if section.targets and (gains.weapons or gains.items):
            if self._tied is None:
                self._tied = []
            self._tied.append(
                Tied(section, k, models, {g.gear_key: g.count * per for g in (*gains.weapons, *gains.items)})
            )
        if replaces and self._tied:
            self._drop_untied(issues)
        return True

    def _drop_untied(self, issues: list[Issue]) -> None:
        """Gear fixed to other gear (an attachment on a rifle, a flamer on a fist) leaves with
        it: when a later row replaces targeted copies so that fewer are left than rows tied to
        them, the newest tied rows give their gear back (a warning says so; their cost stays,
        as the list still names them). Copies not tied to anything are replaced first."""
        assert self._targeted is not None and self._tied is not None
        for tied in reversed(self._tied):
            section = tied.section
            excess = self._targeted[section.id] - min(self.count(name) for name in section.targets)
            if excess <= 0 or tied.uses == 0:
                continue
            dropped = min(excess, tied.uses)
            for key, copies in tied.copies.items():
                self._counts[key] -= min(self._counts.get(key, 0), copies * dropped // tied.uses)
                tied.copies[key] = copies - copies * dropped // tied.uses
            tied.uses -= dropped
            self._targeted[section.id] -= dropped
            gear = " and ".join(section.targets)
            issues.append(
                Issue(
                    "upgrade.target_replaced",
                    f"“{section.label}” is tied to {gear}, which a later upgrade replaced: {dropped} cop{'y' if dropped == 1 else 'ies'} of its gear left with it",
                    f".upgrades[{tied.row}]",
                    upgrade_clause(section),
                    WARNING,
                    {"gear": gear, "dropped": dropped},
                )
            )

    def _use_targets(self, section: UpgradeSection, models: int, k: int, issues: list[Issue]) -> bool:
        """An upgrade tied to gear: each copy of the targeted gear takes the section once."""
        capacity = min(self.count(name) for name in section.targets)
        if self._targeted is None:
            self._targeted = {}
        used = self._targeted.get(section.id, 0)
        if capacity == 0 or used + models > capacity:
            gear = " and ".join(section.targets)
            issues.append(
                Issue(
                    "upgrade.target_exceeds",
                    f"“{section.label}” is tied to {gear}: {capacity} cop{'y' if capacity == 1 else 'ies'} left, "
                    f"{used + max(models, 1)} asked",
                    f".upgrades[{k}]",
                    upgrade_clause(section),
                    data={"gear": gear, "left": capacity, "asked": used + max(models, 1)},
                )
            )
            return False
        self._targeted[section.id] = used + models
        return True

    def _at_start(self, name: str) -> int:
        counts = self.unit.gear_counts
        return sum(counts[k] for k in self.unit.gear_keys(name))

    def _take(self, name: str, copies: int) -> list[tuple[str, int]]:
        """Remove *copies* of the gear *name* refers to, first key first; what was taken."""
        taken: list[tuple[str, int]] = []
        counts = self._counts
        for key in self._keys(name):
            if copies <= 0:
                break
            n = min(counts[key], copies)
            if n:
                counts[key] -= n
                copies -= n
                taken.append((key, n))
        return taken

    def _add(self, gear: Weapon | Item, copies: int) -> None:
        key = gear.gear_key
        counts = self._counts
        if key not in counts:
            (self._gained_weapons if isinstance(gear, Weapon) else self._gained_items)[key] = gear
            counts[key] = 0
            if key in self._aliases:  # its key is also the name of other profiles: it comes first
                aliases = self._writable_aliases()
                aliases[key] = (key, *aliases[key])
            if gear.name != key:  # an id: its name now names it too
                aliases = self._writable_aliases()
                aliases[gear.name] = (*self._keys(gear.name), key)
        counts[key] += copies

    def _writable_aliases(self) -> dict[str, tuple[str, ...]]:
        if self._aliases is self.unit.gear_aliases:
            self._aliases = dict(self._aliases)
        return self._aliases  # type: ignore[return-value]

    def _modify(self, target: str, copies: int, rules: tuple[RuleRef, ...], tag: str) -> None:
        """Give *rules* to *copies* of the targeted weapons: those copies become a profile of
        their own (same name), so the rest of the unit's copies stay as they were."""
        for key, n in self._take(target, copies):
            profile = self._profile(key)
            if not isinstance(profile, Weapon):
                self._counts[key] += n  # only weapons take weapon rules; items stay as they were
                continue
            new_key = f"{key}+{tag}"
            changed = Weapon(
                profile.name,
                profile.attacks,
                profile.range,
                merge_rules([*profile.rules, *rules]),
                0,
                profile.extra,
                new_key,
            )
            aliases = self._writable_aliases()
            for ref in {key, profile.name}:
                aliases.setdefault(ref, self._keys(ref))
            self._add(changed, n)
            # Anything that named the old copies (by key or by name) still finds these.
            for ref, keys in list(aliases.items()):
                if key in keys and new_key not in keys:
                    aliases[ref] = (*keys, new_key)

    def _profile(self, key: str) -> Weapon | Item:
        return self._gained_weapons.get(key) or self._gained_items.get(key) or self.unit.gear_by_key[key]

    def weapons(self, items: tuple[Item, ...]) -> tuple[Weapon, ...]:
        """Every weapon the unit ends with (those inside its final *items* last), with final counts."""
        own = with_counts({**self.unit.weapons_by_key, **self._gained_weapons}, self._counts)
        carried = tuple(w for item in items if item.weapons for w in item.carried_weapons())
        return own + carried if carried else own

    def items(self) -> tuple[Item, ...]:
        return with_counts({**self.unit.items_by_key, **self._gained_items}, self._counts)


def with_counts(gear: Mapping[str, Any], counts: Mapping[str, int]) -> tuple[Any, ...]:
    """Each piece of gear (by key) the unit still has, with its final count: its own first,
    then gained, each once."""
    return tuple(g if g.count == counts[k] else g.with_count(counts[k]) for k, g in gear.items() if counts[k] > 0)

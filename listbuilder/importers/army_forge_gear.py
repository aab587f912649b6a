"""Army Forge weapons, items and rule references -> our book's gear and rule vocabulary.

Army Forge names gear by name only, yet one book may use one name for several profiles (a
unit's "CCW (A1)" and the "CCW (A2)" an upgrade gives). :class:`GearCatalog` remembers the
first profile seen under each name (units' own gear is read first, so it keeps the plain
name) and gives every other profile of that name an ``id``, which is what our upgrades count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from listbuilder.importers.army_forge import label, rule_label
from listbuilder.importers.errors import ImportFailed
from listbuilder.importers.naming import IdMaker
from listbuilder.importers.reading import Node

WEAPON = "ArmyBookWeapon"
ITEM = "ArmyBookItem"
RULE = "ArmyBookRule"
MULTI_WEAPON = "ArmyBookMultiWeapon"  # older exports: one weapon, several profiles to pick from
RULES = (RULE, "ArmyBookDefense")  # older exports sent "Defense +X" as its own type


@dataclass
class RuleUse:
    """Every rule the converted book mentions: whether it was given a parameter, and where."""

    with_param: dict[str, bool] = field(default_factory=dict)
    mixed: set[str] = field(default_factory=set)

    def note(self, name: str, param: str | None) -> None:
        has = param is not None
        if self.with_param.setdefault(name, has) != has:
            self.mixed.add(name)


class GearCatalog:
    """Converts gear and rule references, giving same-named profiles distinct ids."""

    def __init__(self, rules: RuleUse):
        self.rules = rules
        self._profiles: dict[str, list[tuple[Any, tuple[str, tuple[str, ...]]]]] = {}
        self._ids = IdMaker()
        self.notes: list[str] = []

    def rule_labels(self, owner: Node, key: str) -> list[str]:
        return [self.rule(entry) for entry in owner.items(key)]

    def rule(self, entry: Node) -> str:
        name, param = rule_label(entry)
        self.rules.note(name, param)
        return label(name, param)

    def weapon(self, entry: Node, *, count: int | None, name: str | None = None) -> dict[str, Any]:
        """One weapon profile; *count* is written as given (None leaves the default)."""
        name = name or _name(entry, "a weapon")
        attacks = entry.whole("attacks", low=1)
        multiplier = entry.whole("attacksMultiplier", 1, low=1)
        if multiplier != 1:
            attacks *= multiplier
            self.notes.append(f"{entry.path}: {name} has an attacks multiplier of {multiplier}; imported as A{attacks}")
        reach = entry.whole("range", 0, low=0)
        rules = self.rule_labels(entry, "specialRules")
        gear_id, rules = self._id_for(name, ("weapon", reach, attacks, tuple(sorted(rules))), rules)
        return _compact(name=name, id=gear_id, range=reach, attacks=attacks, rules=rules, count=count)

    def item(self, entry: Node, *, count: int | None) -> dict[str, Any]:
        """An item: the rules and weapons inside it (``content``)."""
        name = _name(entry, "an item")
        rules: list[str] = []
        weapons: list[dict[str, Any]] = []
        for part in entry.items("content"):
            kind = part.text("type", RULE)
            if kind in RULES:
                rules.append(self.rule(part))
            elif kind == WEAPON:
                copies = gain_count(part)
                if copies:
                    weapons.append(self.weapon(part, count=copies if copies != 1 else None))
            elif kind == MULTI_WEAPON:
                weapons += self.multi_weapon(part, count=None).get("weapons", [])
            else:
                raise ImportFailed(
                    "malformed", part.child_path("type"), f"an item holds rules and weapons, not {kind!r}"
                )
        signature = ("item", tuple(sorted(rules)), tuple(sorted(repr(w) for w in weapons)))
        gear_id, rules = self._id_for(name, signature, rules)
        return _compact(name=name, id=gear_id, rules=rules, weapons=weapons, count=count)

    def multi_weapon(self, entry: Node, *, count: int | None) -> dict[str, Any]:
        """An older export's weapon with several profiles to pick from ("HE" and "AT" shells):
        an item of that name holding one weapon per profile, named "Launcher (HE)"."""
        name = _name(entry, "a weapon")
        profiles = [
            self.weapon(p, count=None, name=f"{name} ({_name(p, 'a profile')})")
            for p in entry.items("profiles", required=True)
        ]
        self.notes.append(
            f"{entry.path}: {name} has {len(profiles)} profiles to pick from; imported as an item holding each (choose which fires in a combat preview)"
        )
        return _compact(
            name=name,
            id=self._id_for(name, ("multi", tuple(repr(p) for p in profiles)), [])[0],
            weapons=profiles,
            count=count,
        )

    def _id_for(self, name: str, signature: Any, rules: list[str]) -> tuple[str, list[str]]:
        """ "" for the first profile under *name*, an id for each other profile of that name;
        and the rules in the order first seen for this profile (exports vary the order)."""
        known = self._profiles.setdefault(name, [])
        for seen, (gear_id, first_rules) in known:
            if seen == signature:
                return gear_id, list(first_rules)
        gear_id = "" if not known else self._ids.make(f"{name} {len(known) + 1}")
        known.append((signature, (gear_id, tuple(rules))))
        return gear_id, rules


def _name(entry: Node, what: str) -> str:
    name = entry.text("name").strip()
    if not name:
        raise ImportFailed("malformed", entry.child_path("name"), f"{what} needs a name")
    return name


def _compact(**fields: Any) -> dict[str, Any]:
    """A YAML mapping without the fields left at their default (no id, melee, no rules...)."""
    return {key: value for key, value in fields.items() if value not in (None, "", 0, [])}


def loosen_item(item: dict[str, Any], loose: frozenset[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An item converted by :meth:`GearCatalog.item`, with the weapons inside it that an upgrade
    section names (*loose*) taken out as weapons of their own, counted per copy of the item.

    Army Forge lists an item's weapons in the loadout beside the unit's own, so a section may
    replace one ("Replace any Heavy Machinegun" after a carriage that mounts one); our upgrades
    replace weapons, not parts of items, so such a weapon is gained beside the item instead.
    """
    inside = item.get("weapons", [])
    freed = [w for w in inside if w["name"] in loose]
    if not freed:
        return item, []
    kept = [w for w in inside if w["name"] not in loose]
    rest = {k: v for k, v in item.items() if k != "weapons"}
    if kept:
        rest["weapons"] = kept
    per_item = item.get("count", 1)
    out = []
    for weapon in freed:
        copies = weapon.get("count", 1) * per_item
        out.append({**{k: v for k, v in weapon.items() if k != "count"}, **({"count": copies} if copies != 1 else {})})
    return rest, out


def gain_count(entry: Node) -> int:
    """How many copies a gain (or an item's content) gives: "02" is 2, absent is 1, 0 is none."""
    return entry.whole("count", 1, low=0)

"""The armour-hex book checks (rulebook 004): army-building facts a loaded army book must respect.

Each check names its clause by the rulebook's headings ("Build your army", "Orders", "Damage
Table", "Unit Abilities"); the names and codes it accepts come from the system's composition.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from listbuilder.model import (
    AFFECTS_ALL,
    AFFECTS_UNIT,
    ArmyBook,
    GameSystem,
    RuleDefinition,
    RuleRef,
    Unit,
    UpgradeSection,
    Weapon,
)
from listbuilder.systems.armour_hex_loadout import INFANTRY, Loadouts, is_elite, option_ref

VEHICLE = "vehicle"

# Parameter tokens a glossary entry may use in ``param`` ("speed, -N"); each checks one part
# of a label such as ``Take Cover(slow, -1)``. Unknown tokens (a book's own rules) accept anything.
_TOKEN_PATTERNS: dict[str, re.Pattern[str]] = {
    "N": re.compile(r"^[1-9]\d*$"),
    "-N": re.compile(r"^-[1-9]\d*$"),
    "N+": re.compile(r"^[2-7]\+$"),
    "N-": re.compile(r"^[1-6]-$"),
    "dN": re.compile(r"^d(4|6|8|10|12)$"),
    "range": re.compile(r"^\d+$"),
    "target": re.compile(r"^(self|hex)$"),
    "phase": re.compile(r"^[12]$"),
}
_TOKEN_LISTS = {"speed": "speeds", "terrain": "terrain", "type": "damage_types"}
# Rules the weapon profile carries as fields, never as labels (one source for the engine).
_FIELD_RULES = {"Load": "load", "Burst": "burst", "Limited Ammo": "limited_ammo"}


class BookChecks:
    """The book checks of one armour-hex system; ``check_book`` is the rules' hook."""

    def __init__(self, system: GameSystem, loadouts: Loadouts, currencies: tuple[str, ...]):
        self.system = system
        self.composition = system.composition
        self.loadouts = loadouts
        self.currencies = currencies

    def check_book(self, book: ArmyBook) -> list[tuple[str, str]]:
        comp = self.composition
        problems: list[tuple[str, str]] = []
        # 004 Orders / Assault: the nation decides the tie-break orders, so it must be a known one.
        nation = book.extra.get("nation")
        if nation not in comp["nations"]:
            problems.append(("nation", f"{nation!r} is not a nation of the game ({', '.join(comp['nations'])})"))
        for i, unit in enumerate(book.units):
            problems.extend(self._check_unit(book, unit, f"units[{i}]"))
        sections = list(book.sections.values())
        for s, section in enumerate(sections):
            problems.extend(self._check_section(book, section, f"upgrades[{s}]"))
        return problems

    def _check_unit(self, book: ArmyBook, unit: Unit, path: str) -> Iterator[tuple[str, str]]:
        comp = self.composition
        kind = unit.stat("unit_type")
        # 004 Build your army: a unit typically has 1, 2 or 4 models.
        if unit.size not in comp["model_counts"]:
            yield f"{path}.size", f"{unit.size} models; a unit has {' or '.join(map(str, comp['model_counts']))}"
        # 004 Build your army: armies are bought in IP, MP, CP and XP only.
        unknown = set(unit.cost) - set(self.currencies)
        if unknown:
            yield f"{path}.cost", f"not armour-hex currencies: {sorted(unknown)} (use {', '.join(self.currencies)})"
        # 004 Build your army: industry pays for vehicles, manpower for soldiers and riders.
        if kind == VEHICLE and not unit.cost["ip"]:
            yield f"{path}.cost", "a vehicle is built with industry points (ip)"
        if kind != VEHICLE and not unit.cost["mp"]:
            yield f"{path}.cost", f"{kind} units are raised with manpower points (mp)"
        yield from self._check_speeds(unit, path)
        yield from self._check_tables(unit, path)
        for j, rule in enumerate(unit.rules):
            yield from self._check_param(book, rule, f"{path}.rules[{j}]")
        assault = unit.stat("assault")
        if assault:
            yield from self._check_damage_type(assault["damage_type"], f"{path}.assault.damage_type")
            for j, label in enumerate(assault["rules"]):
                yield from self._check_label(book, label, f"{path}.assault.rules[{j}]")
        for w, weapon in enumerate(unit.weapons):
            yield from self._check_weapon(book, weapon, f"{path}.weapons[{w}]")
        for t, item in enumerate(unit.items):
            for j, rule in enumerate(item.rules):
                yield from self._check_param(book, rule, f"{path}.items[{t}].rules[{j}]")
        # 004 Build your army: the gear a unit starts with must itself be a legal loadout.
        if kind == INFANTRY:
            over = self.loadouts.base_overload(unit)
            if over:
                yield f"{path}.weapons", over
        shared = sum(w.count for w in unit.weapons if w.extra.get("hands") == "shared")
        if shared > self.loadouts.shared_slots(unit):
            yield f"{path}.weapons", f"{shared} shared weapons; a unit has at most {self.loadouts.shared_slots(unit)}"

    def _check_speeds(self, unit: Unit, path: str) -> Iterator[tuple[str, str]]:
        comp = self.composition
        speeds = set(comp["speeds"])
        for k, speed in enumerate(unit.stat("speeds", ())):
            where = f"{path}.speeds[{k}]"
            # 004 Orders: each speed of the unit allows its own movement and gunnery orders.
            if speed["speed"] not in speeds:
                yield f"{where}.speed", f"not a speed of the game ({', '.join(comp['speeds'])})"
            for m, order in enumerate(speed["movement"]):
                if not self._known_order(order, comp["movement_orders"]):
                    yield f"{where}.movement[{m}]", f"not a movement order: {order!r}"
            for g, order in enumerate(speed["gunnery"]):
                if order not in comp["gunnery_orders"]:
                    yield f"{where}.gunnery[{g}]", f"not a gunnery order: {order!r}"
            # 004 Shaken: the default order at a speed must be one the speed allows.
            default = speed.get("default")
            if default is not None and default not in speed["movement"]:
                yield f"{where}.default", f"default order {default!r} is not among this speed's movement orders"

    @staticmethod
    def _known_order(order: str, known: list[str]) -> bool:
        """``F``, ``B[still]``, ``360+A``: every part must be a known order code."""
        for part in order.split("+"):
            base = part.split("[", 1)[0].strip()
            if base not in known:
                return False
        return True

    def _check_tables(self, unit: Unit, path: str) -> Iterator[tuple[str, str]]:
        comp = self.composition
        tables = unit.stat("damage_tables", {})
        # 004 Damage Table: every hit is read off the unit's regular damage table.
        if "regular" not in tables:
            yield f"{path}.damage_tables", "every unit needs a regular damage table"
        effects = {e["name"]: e for e in comp["damage_effects"]}
        for kind, rows in tables.items():
            if kind not in comp["damage_tables"]:
                yield f"{path}.damage_tables.{kind}", f"not a damage table kind ({', '.join(comp['damage_tables'])})"
            for r, row in enumerate(rows):
                for e, label in enumerate(row["effects"]):
                    where = f"{path}.damage_tables.{kind}[{r}].effects[{e}]"
                    try:
                        ref = RuleRef.parse(label)
                    except ValueError as exc:
                        yield where, str(exc)
                        continue
                    known = effects.get(ref.name)
                    if known is None:
                        yield where, f"not a damage effect ({', '.join(effects)})"
                    elif (known.get("param") is None) != (ref.param is None):
                        yield (
                            where,
                            f"{ref.name} takes {'no parameter' if known.get('param') is None else 'a parameter (' + known['param'] + ')'}",
                        )
                    elif known.get("param") and not self._param_ok(known["param"], ref.param or ""):
                        yield where, f"{label!r} does not fit {ref.name}({known['param']})"

    def _check_weapon(self, book: ArmyBook, weapon: Weapon, path: str) -> Iterator[tuple[str, str]]:
        yield from self._check_damage_type(weapon.extra.get("damage_type", "regular"), f"{path}.damage_type")
        for kind, _ in weapon.extra.get("extra_damage", ()):
            yield from self._check_damage_type(kind, f"{path}.extra_damage")
        for j, rule in enumerate(weapon.rules):
            if rule.name in _FIELD_RULES:
                yield f"{path}.rules[{j}]", f"write {rule.name} as the weapon's {_FIELD_RULES[rule.name]} field"
            yield from self._check_param(book, rule, f"{path}.rules[{j}]")

    def _check_damage_type(self, kind: str, path: str) -> Iterator[tuple[str, str]]:
        # 004 Special Damage types: damage is regular unless a known type is named.
        if kind not in self.composition["damage_types"]:
            yield path, f"not a damage type ({', '.join(self.composition['damage_types'])})"

    def _check_label(self, book: ArmyBook, label: str, path: str) -> Iterator[tuple[str, str]]:
        try:
            rule = RuleRef.parse(label)
        except ValueError as exc:
            yield path, str(exc)
            return
        if self._definition(book, rule.name) is None:
            yield path, f"rule {rule.name!r} is neither in the armour-hex glossary nor in the book's rules"
            return
        yield from self._check_param(book, rule, path)

    def _definition(self, book: ArmyBook, name: str) -> RuleDefinition | None:
        return book.rules.get(name) or self.system.glossary.get(name)

    def _check_param(self, book: ArmyBook, rule: RuleRef, path: str) -> Iterator[tuple[str, str]]:
        # 004 Unit Abilities: parameters have a set shape (Take Cover[speed, -N], Heal(N, unit, phase)).
        definition = self._definition(book, rule.name)
        if definition is None or definition.param is None or rule.param is None:
            return  # unknown rules and missing parameters are reported by the shared book checks
        if not self._param_ok(definition.param, rule.param):
            yield path, f"{rule.label!r} does not fit {rule.name}({definition.param})"

    def _param_ok(self, spec: str, value: str) -> bool:
        tokens = [t.strip() for t in spec.split(",")]
        parts = [p.strip() for p in value.split(",")]
        if len(tokens) != len(parts):
            return False
        for token, part in zip(tokens, parts):
            if token in _TOKEN_PATTERNS and not _TOKEN_PATTERNS[token].match(part):
                return False
            if token in _TOKEN_LISTS and part not in self.composition[_TOKEN_LISTS[token]]:
                return False
        return True

    def _check_section(self, book: ArmyBook, section: UpgradeSection, path: str) -> Iterator[tuple[str, str]]:
        upgrade_currencies = set(self.composition["upgrade_currencies"])
        offered_to = [u for u in book.units if section.id in u.upgrades]
        for o, option in enumerate(section.options):
            where = f"{path}.options[{o}]"
            # 004 Build your army: units are upgraded with craft and experience points.
            costs = [option.cost, *option.unit_costs.values()]
            if any(set(c) - upgrade_currencies for c in costs):
                yield f"{where}.cost", f"upgrades are paid in {', '.join(sorted(upgrade_currencies))} only"
            # 004 Build your army: an elite replaces one regular model, never the unit as a whole.
            if is_elite(option) and section.affects in (AFFECTS_UNIT, AFFECTS_ALL):
                yield f"{where}.elite", "an elite replaces single models: use affects one, up_to or any"
            if option.elite_only:
                # 004 Build your army: elite equipment is priced per weapon and goes to one elite.
                if section.affects in (AFFECTS_UNIT, AFFECTS_ALL):
                    yield f"{where}.elite_only", "elite-only gear is bought per elite: use affects one, up_to or any"
                for unit in offered_to:
                    if not any(is_elite(opt) for s in book.sections_of(unit) for opt in s.options):
                        yield f"{where}.elite_only", f"offered to {unit.id!r}, which has no elite to carry it"
                for r, ref in enumerate(option.requires):
                    needed = option_ref(book, ref)
                    if needed is not None and not is_elite(needed) and not needed.elite_only:
                        yield f"{where}.requires[{r}]", f"elite-only gear should require an elite option, not {ref!r}"
            for w, weapon in enumerate(option.gains.weapons):
                yield from self._check_weapon(book, weapon, f"{where}.gains.weapons[{w}]")
                # 004 Shared weapons: a shared weapon belongs to the unit, so it is bought for the unit.
                if weapon.extra.get("hands") == "shared" and section.affects != AFFECTS_UNIT:
                    yield f"{where}.gains.weapons[{w}]", "a shared weapon is bought for the unit: use affects unit"
            for t, item in enumerate(option.gains.items):
                for j, rule in enumerate(item.rules):
                    yield from self._check_param(book, rule, f"{where}.gains.items[{t}].rules[{j}]")
            for j, rule in enumerate(option.gains.rules):
                yield from self._check_param(book, rule, f"{where}.gains.rules[{j}]")

"""The armour-hex family (rulebook 004): four budgets, hand slots, elites and huge units.

Clause names in comments cite ``shared/rules/004_1c6bb6c5c2233a32.txt`` by its headings
("Build your army", "Angles", "Damage Table", "Unit Abilities and conditions" ...). Every
number the rules need (game modes, currencies, hand slots, the nations) comes from
``army_books/armour-hex/_system.yaml`` so the data stays in one place.

Interpretations (also in the system notes and ``docs/systems/armour-hex.md``):

- "the total cost is less than the total amount of points" is read as *not more than*:
  spending a budget exactly is legal (``spend: at_most``; ``below`` switches to the strict
  reading);
- the asymmetric armoured side divides 12 points over MP, CP and XP: a written division
  (the list's budget) must add up to 12 exactly and is then checked currency by currency; with
  no written division the three currencies are checked together against 12;
- upgrades are applied in list order; gear given to "some models" goes to the models with the
  most free hands, elite-only gear to elites, so the per-model loadout is the best the player
  could have meant.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from operator import attrgetter
from types import MappingProxyType
from typing import Any, NamedTuple

from listbuilder.model import (
    AFFECTS_ALL,
    AFFECTS_UNIT,
    ArmyBook,
    ArmyList,
    Cost,
    GameSystem,
    Item,
    RuleDefinition,
    RuleRef,
    Unit,
    UpgradeOption,
    UpgradeSection,
    Weapon,
)
from listbuilder.deployment import count_totals
from listbuilder.resolve import ResolvedEntry
from listbuilder.systems.base import SystemRules
from listbuilder.validation import ERROR, Issue, ValidationReport

BUILD = "004 Build your army"
HUGE = "huge"
VEHICLE = "vehicle"
INFANTRY = "infantry"
CUSTOM = "custom"

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


def is_elite(option: UpgradeOption) -> bool:
    """An elite option is a better model that takes a regular model's place (004 Build your army)."""
    return bool(option.extra.get("elite"))


@dataclass(frozen=True)
class Budget:
    """What a list may spend: fixed amounts per currency and, for the armoured asymmetric side,
    points to divide over several currencies (``declared`` when the list wrote the division)."""

    mode: str
    fixed: Mapping[str, int]
    split_points: int = 0
    split_across: tuple[str, ...] = ()
    declared: Mapping[str, int] | None = None

    @property
    def pooled(self) -> bool:
        return bool(self.split_across) and self.declared is None

    def allowed(self, currency: str) -> int | None:
        """The amount one currency may use on its own, or None when it shares the split pool."""
        if currency in self.split_across:
            return None if self.declared is None else self.declared.get(currency, 0)
        return self.fixed.get(currency, 0)


class _Model:
    """One model of an infantry unit while upgrades are handed out (working state only; two
    models with the same gear are still two models, so no equality).

    ``hands`` is kept equal to the hands its gear fills (each piece's slot weight, counting only
    gear it holds), so ranking models by free hands never re-adds their gear. ``gear`` keeps
    names in the order the model got them (the loadout message lists them so).
    """

    __slots__ = ("number", "gear", "hands", "elite_as", "taken")

    def __init__(self, number: int, gear: dict[str, int] | None = None, hands: int = 0):
        self.number = number
        self.gear: dict[str, int] = {} if gear is None else gear  # gear name -> copies held
        self.hands = hands
        self.elite_as: str | None = None  # "section/option" of the elite it became
        self.taken: tuple[str, ...] = ()  # "section/option" of every row it took

    def add(self, name: str, copies: int, weight: int) -> None:
        gear = self.gear
        before = gear.get(name, 0)
        gear[name] = after = before + copies
        if weight:  # copies below zero (gear replaced that was never there) fill no hands
            self.hands += weight * ((after if after > 0 else 0) - (before if before > 0 else 0))

    def holds(self, names: tuple[str, ...]) -> bool:
        """Whether it has at least one of each gear name (a replacement needs them all)."""
        gear = self.gear
        for name in names:
            if gear.get(name, 0) <= 0:
                return False
        return True

    def hands_after(self, changes: Mapping[str, int], weights: Mapping[str, int]) -> int:
        """The hands it would fill after *changes* (gear name -> copies added or removed)."""
        hands = self.hands
        gear = self.gear
        for name, copies in changes.items():
            weight = weights[name]
            if weight:
                held = gear.get(name, 0)
                after = held + copies
                hands += weight * ((after if after > 0 else 0) - (held if held > 0 else 0))
        return hands


@dataclass(frozen=True)
class _Kit:
    """What handing out one unit's upgrades starts from, derived once per unit (book data,
    never changed: each entry works on copies). The unit's own gear is dealt out one copy per
    model; shared weapons are counted for the unit instead."""

    unit: Unit
    models: tuple[tuple[Mapping[str, int], int], ...]  # per model: gear name -> copies, hands filled
    shared: int  # shared weapons the unit starts with
    slots_of: Mapping[str, str]  # gear name -> hand slot, for the unit's own gear
    weights: Mapping[str, int]  # gear name -> hands that slot fills
    hand_slots: int
    shared_slots: int
    infantry: bool


class _Offer(NamedTuple):
    """An upgrade option as the hand-out reads it, derived once per option (book data)."""

    option: UpgradeOption
    key: str  # "section/option", as requires and elites name it
    elite: bool
    gear: tuple[tuple[str, int, str], ...]  # (name, copies, slot) of each piece gained, weapons first


_by_hands = attrgetter("hands")


class ArmourHexRules(SystemRules):
    family = "armour-hex"
    ISSUE_CODES: Mapping[str, str] = {
        "game_mode.unknown": "The list names a game mode the system does not have.",
        "game_mode.budget_mismatch": "The list names a game mode and gives a budget that is not the mode's.",
        "budget.ip": "More industry points (IP) spent than the budget allows.",
        "budget.mp": "More manpower points (MP) spent than the budget allows.",
        "budget.cp": "More craft points (CP) spent than the budget allows.",
        "budget.xp": "More experience points (XP) spent than the budget allows.",
        "budget.split": "The asymmetric side's free points are divided wrongly or overspent.",
        "loadout.hands": "An infantry model carries more than its hands hold (one two-handed or two one-handed items).",
        "loadout.shared": "A unit has more than one shared weapon.",
        "upgrade.elites": "More elite models than the unit has models.",
        "upgrade.elite_only": "Elite-only equipment bought more often than there are elites to carry it (or with no elite).",
        "declare.huge": "The list has a huge unit: tell the opponent before they build their army.",
    }

    def __init__(self, system: GameSystem):
        super().__init__(system)
        # Book data the hand-out derives once: per unit (see _kit) and per option (see _offer),
        # by identity (units and options are unhashable frozen data; the entry keeps the object
        # so that a recycled id is never taken for it).
        self._kits: dict[int, _Kit] = {}
        self._offers: dict[int, _Offer] = {}

    # -- data --------------------------------------------------------------------------------

    @property
    def composition(self) -> Mapping[str, Any]:
        return self.system.composition

    # The system's data never changes once loaded: what every validation reads is built once.
    @cached_property
    def currencies(self) -> tuple[str, ...]:
        return tuple(self.composition["currencies"])

    @cached_property
    def _modes(self) -> Mapping[str, Mapping[str, Any]]:
        return MappingProxyType({m["id"]: m for m in self.composition["game_modes"]})

    def modes(self) -> Mapping[str, Mapping[str, Any]]:
        return self._modes

    def mode_budget(self, mode_id: str) -> Budget:
        mode = self.modes()[mode_id]
        split = mode.get("split") or {}
        return Budget(mode_id, dict(mode["budget"]), split.get("points", 0), tuple(split.get("across", ())))

    def describe(self) -> dict[str, Any]:
        limit = "at most the budget (spending it exactly is legal)" if self.composition["spend"] == "at_most" else "strictly below the budget"
        return {
            "composition": dict(self.composition),
            "currencies": list(self.currencies),
            "default_mode": self.composition["default_mode"],
            "spend": limit,
            "game_modes": [
                {
                    "id": m["id"],
                    "name": m["name"],
                    "description": m["description"],
                    "budget": dict(m["budget"]),
                    "split": dict(m["split"]) if m.get("split") else None,
                }
                for m in self.composition["game_modes"]
            ],
            "custom_budget": 'send "budget": {"ip": .., "mp": .., "cp": .., "xp": ..} without a game_mode',
            "limits": {
                "model_counts": list(self.composition["model_counts"]),
                "hand_slots": self.composition["loadout"]["hand_slots"],
                "shared_weapons_per_unit": self.composition["loadout"]["shared_per_unit"],
                "upgrade_currencies": list(self.composition["upgrade_currencies"]),
                "huge_units": f"reported as {self.composition['huge']['severity']} (declare.huge)",
            },
            "notes": list(self.system.notes),
        }

    # -- books -------------------------------------------------------------------------------

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
            over = self._base_overload(unit)
            if over:
                yield f"{path}.weapons", over
        shared = sum(w.count for w in unit.weapons if w.extra.get("hands") == "shared")
        if shared > self._shared_slots(unit):
            yield f"{path}.weapons", f"{shared} shared weapons; a unit has at most {self._shared_slots(unit)}"

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
                        yield where, f"{ref.name} takes {'no parameter' if known.get('param') is None else 'a parameter (' + known['param'] + ')'}"
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
                    needed = self._option_ref(book, ref)
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

    @staticmethod
    def _option_ref(book: ArmyBook, ref: str) -> UpgradeOption | None:
        section_id, _, option_id = ref.partition("/")
        section = book.sections.get(section_id)
        return section.option(option_id) if section else None

    # -- lists -------------------------------------------------------------------------------

    def validate(self, army: ArmyList, book: ArmyBook) -> ValidationReport:
        resolved, issues = self.resolve(army, book)
        spent = self.spent(resolved)
        budget, budget_issues = self.settle_budget(army)
        issues.extend(budget_issues)
        if budget is not None:
            issues.extend(self._spending(spent, budget))
        elites = 0
        for entry in resolved:
            entry_elites, entry_issues = self._models_of(entry, book)
            elites += entry_elites
            issues.extend(entry_issues)
        huge = [r for r in resolved if r.unit.stat("size_class") == HUGE]
        issues.extend(self._huge(huge))
        totals: dict[str, Any] = {c: spent[c] for c in self.currencies}
        totals.update({
            **count_totals(army, resolved),
            "elites": elites,
            "huge": [r.unit.id for r in huge],
            "game_mode": budget.mode if budget else army.extra.get("game_mode"),
        })
        totals.update(self._budget_totals(spent, budget))
        return ValidationReport.of(issues, totals, resolved)

    # budgets ---------------------------------------------------------------------------------

    def settle_budget(self, army: ArmyList) -> tuple[Budget | None, list[Issue]]:
        """The budget a list plays with, from its game mode and/or its budget (see module doc)."""
        clause = self.composition["budget_clause"]
        mode_id = army.extra.get("game_mode")
        given = army.extra.get("budget")
        given = {c: int(given.get(c, 0)) for c in self.currencies} if given is not None else None
        modes = self.modes()
        if mode_id is None:
            if given is None:
                return self.mode_budget(self.composition["default_mode"]), []
            # 004 Build your army: players may agree any amounts; the list's budget is that agreement.
            return Budget(CUSTOM, given), []
        if mode_id not in modes:
            issue = Issue(
                "game_mode.unknown", f"no game mode {mode_id!r}; known: {', '.join(modes)}",
                "game_mode", clause, data={"known": list(modes)},
            )
            return (Budget(CUSTOM, given) if given is not None else None), [issue]
        budget = self.mode_budget(mode_id)
        if given is None:
            return budget, []
        issues: list[Issue] = []
        fixed_given = {c: v for c, v in given.items() if c not in budget.split_across}
        expected = {c: budget.fixed.get(c, 0) for c in fixed_given}
        # In a split mode the fixed currencies may be left out (0) or repeat the mode's amount.
        mismatched = {
            c: v for c, v in fixed_given.items()
            if v != expected[c] and not (budget.split_across and v == 0)
        }
        if mismatched:
            issues.append(Issue(
                "game_mode.budget_mismatch",
                f"game mode {mode_id!r} gives {self._show(expected)}, the list's budget says {self._show(fixed_given)}; the mode's amounts apply",
                "budget", clause, data={"mode": dict(budget.fixed), "budget": given},
            ))
        if not budget.split_across:
            return budget, issues
        declared = {c: given[c] for c in budget.split_across}
        if not any(declared.values()):
            return budget, issues  # only the fixed part was repeated: the division stays open
        # 004 Build your army: the armoured side has 12 points in a combination of MP, XP and CP.
        if sum(declared.values()) != budget.split_points:
            issues.append(Issue(
                "budget.split",
                f"the {budget.split_points} free points are divided as {self._show(declared)} = {sum(declared.values())}; they must add up to {budget.split_points}",
                "budget", clause, data={"points": budget.split_points, "declared": declared},
            ))
            return budget, issues
        return Budget(mode_id, budget.fixed, budget.split_points, budget.split_across, declared), issues

    @staticmethod
    def _show(amounts: Mapping[str, int]) -> str:
        return ", ".join(f"{v} {c.upper()}" for c, v in amounts.items()) or "nothing"

    def _over(self, spent: int, allowed: int) -> bool:
        # 004 Build your army: "less than the total" - read as not more than (spend: at_most).
        if self.composition["spend"] == "below":
            return spent > 0 and spent >= allowed
        return spent > allowed

    def _spending(self, spent: Cost, budget: Budget) -> Iterator[Issue]:
        clause = self.composition["budget_clause"]
        for currency in self.currencies:
            allowed = budget.allowed(currency)
            if allowed is None:
                continue
            # 004 Build your army: each currency is spent within its own budget.
            if self._over(spent[currency], allowed):
                yield Issue(
                    f"budget.{currency}",
                    f"{spent[currency]} {currency.upper()} spent of {allowed} ({spent[currency] - allowed} over) in the {budget.mode} game",
                    f"budget.{currency}", clause,
                    data={"currency": currency, "budget": allowed, "spent": spent[currency], "over": spent[currency] - allowed},
                )
        if budget.pooled:
            used = sum(spent[c] for c in budget.split_across)
            # 004 Build your army: the armoured side's MP, XP and CP together come to 12 points.
            if self._over(used, budget.split_points):
                names = "+".join(c.upper() for c in budget.split_across)
                yield Issue(
                    "budget.split",
                    f"{names} spent together: {used} of the {budget.split_points} free points ({used - budget.split_points} over)",
                    "budget", clause,
                    data={"points": budget.split_points, "spent": used, "over": used - budget.split_points},
                )

    def _budget_totals(self, spent: Cost, budget: Budget | None) -> dict[str, Any]:
        if budget is None:
            return {"budget": None, "left": None}
        limits: dict[str, int] = {}
        left: dict[str, int] = {}
        pool_left = budget.split_points - sum(spent[c] for c in budget.split_across)
        for currency in self.currencies:
            allowed = budget.allowed(currency)
            if allowed is None:  # shares the pool: the most it could still take
                limits[currency] = spent[currency] + max(pool_left, 0)
                left[currency] = pool_left
            else:
                limits[currency] = allowed
                left[currency] = allowed - spent[currency]
        out: dict[str, Any] = {"budget": limits, "left": left}
        if budget.split_across:
            out["split"] = {
                "points": budget.split_points,
                "across": list(budget.split_across),
                "declared": dict(budget.declared) if budget.declared is not None else None,
                "spent": sum(spent[c] for c in budget.split_across),
                "left": pool_left,
            }
        return out

    # models, loadouts and elites -------------------------------------------------------------

    def _slot(self, gear: Weapon | Item) -> str:
        """Which hand slot a piece of gear takes; the rulebook default when the book is silent."""
        loadout = self.composition["loadout"]
        stated = gear.extra.get("hands")
        if stated:
            return str(stated)
        # 004 Build your army: an infantry weapon is two-handed unless stated otherwise.
        return loadout["default_weapon"] if isinstance(gear, Weapon) else loadout["default_item"]

    def _hand_slots(self, unit: Unit) -> int:
        return int(unit.stat("hand_slots") or self.composition["loadout"]["hand_slots"])

    def _shared_slots(self, unit: Unit) -> int:
        stated = unit.stat("shared_slots")
        return int(stated if stated is not None else self.composition["loadout"]["shared_per_unit"])

    def _weigh(self, name: str, own_slot: str, slots_of: dict[str, str], weights: dict[str, int]) -> str:
        """Record the slot of a gear name, and that slot's hand weight, on first sight (the first
        piece seen names the slot); its slot."""
        slot = slots_of.setdefault(name, own_slot)
        weights.setdefault(name, self.composition["loadout"]["slots"].get(slot, 0))
        return slot

    def _base_overload(self, unit: Unit) -> str | None:
        kit = self._kit(unit)
        for number, (_, hands) in enumerate(kit.models):
            if hands > kit.hand_slots:
                return f"model {number + 1} starts with {hands} hands of gear; it has {kit.hand_slots}"
        return None

    def _kit(self, unit: Unit) -> _Kit:
        """The unit's :class:`_Kit`, derived on first use (books never change once loaded)."""
        kit = self._kits.get(id(unit))
        if kit is None or kit.unit is not unit:
            models = [_Model(k) for k in range(unit.size)]
            shared = 0
            slots_of: dict[str, str] = {}
            weights: dict[str, int] = {}
            for gear in (*unit.weapons, *unit.items):
                if self._weigh(gear.name, self._slot(gear), slots_of, weights) == "shared":
                    shared += gear.count
                    continue
                for k in range(gear.count):
                    models[k % unit.size].add(gear.name, 1, weights[gear.name])
            kit = self._kits[id(unit)] = _Kit(
                unit, tuple((m.gear, m.hands) for m in models), shared, slots_of, weights,
                self._hand_slots(unit), self._shared_slots(unit), unit.stat("unit_type") == INFANTRY,
            )
        return kit

    def _offer(self, section: UpgradeSection, option: UpgradeOption) -> _Offer:
        """The option's :class:`_Offer`, derived on first use."""
        offer = self._offers.get(id(option))
        if offer is None or offer.option is not option:
            gear = tuple((g.name, g.count, self._slot(g)) for g in (*option.gains.weapons, *option.gains.items))
            offer = self._offers[id(option)] = _Offer(option, f"{section.id}/{option.id}", is_elite(option), gear)
        return offer

    def _models_of(self, entry: ResolvedEntry, book: ArmyBook) -> tuple[int, list[Issue]]:
        """Hand out the entry's upgrades model by model; report elites, elite gear and loadouts.

        Returns the number of elites and the issues. The resolver has already priced the rows
        and checked the counts a section allows; this adds what only a per-model view sees.
        The work depends on the resolution (unit and rows) and the entry's name only, so it is
        kept with the resolution and done again only when the entry changes.
        """
        derived = entry.resolution.derived
        found = derived.get(("models", entry.name))
        if found is None:
            found = derived[("models", entry.name)] = self._hand_out(entry, book)
        elites, relative = found
        return elites, [replace(i, path=entry.path + i.path) for i in relative] if relative else []

    def _hand_out(self, entry: ResolvedEntry, book: ArmyBook) -> tuple[int, tuple[Issue, ...]]:
        """:meth:`_models_of`'s work; issue paths relative to the entry (``.upgrades[2]``)."""
        unit = entry.unit
        kit = self._kit(unit)
        taken_rows = entry.taken
        if not taken_rows:  # the unit as the book gives it: only its own shared weapons to count
            return 0, self._shared_issues(entry, kit, kit.shared, None)
        rows = [(taken, self._offer(taken.section, taken.option)) for taken in taken_rows]
        loadout = self.composition["loadout"]
        slot_weights = loadout["slots"]
        models = [_Model(number, dict(gear), hands) for number, (gear, hands) in enumerate(kit.models)]
        shared = kit.shared
        slots_of, weights = dict(kit.slots_of), dict(kit.weights)
        cap = kit.hand_slots
        issues: list[Issue] = []
        first_overload: dict[int, int] = {}  # model number -> the first row that overloaded it
        shared_row: int | None = None
        elites = 0
        for taken, offer in rows:
            if offer.elite:
                elites += taken.models
        # 004 Build your army: an elite replaces a regular model, so there are never more elites than models.
        if elites > unit.size:
            last = [taken for taken, offer in rows if offer.elite][-1]
            issues.append(Issue(
                "upgrade.elites", f"{entry.name} has {unit.size} models but {elites} elites",
                f".upgrades[{last.index}]", BUILD,
                data={"models": unit.size, "elites": elites},
            ))
        for taken, offer in rows:
            section, option, count = taken.section, taken.option, taken.models
            affects, replaces, key = section.affects, section.replaces, offer.key
            personal: list[tuple[str, int]] = []
            for name, copies, own_slot in offer.gear:
                if self._weigh(name, own_slot, slots_of, weights) == "shared":
                    shared += copies * (1 if affects == AFFECTS_UNIT else count)
                    if shared > kit.shared_slots and shared_row is None:
                        shared_row = taken.index
                else:
                    personal.append((name, copies))
            if affects == AFFECTS_UNIT:
                # Gear bought for the unit goes, copy by copy, to the model with most free hands
                # (the first such model: models stay in number order).
                for name, copies in personal:
                    for _ in range(copies):
                        target = min(models, key=_by_hands)
                        target.add(name, 1, weights[name])
                        if target.hands > cap:
                            first_overload.setdefault(target.number, taken.index)
                continue
            if affects == AFFECTS_ALL:
                for model in models:
                    if not replaces or model.holds(replaces):
                        copies = min(model.gear[n] for n in replaces) if replaces else 1
                        self._equip(model, replaces, personal, copies, key, offer.elite, weights)
                        if model.hands > cap:
                            first_overload.setdefault(model.number, taken.index)
                continue
            candidates = [m for m in models if m.holds(replaces)] if replaces else models
            if offer.elite:
                candidates = [m for m in candidates if m.elite_as is None]
            if option.elite_only:
                wanted = {ref for ref in option.requires if (o := self._option_ref(book, ref)) is not None and is_elite(o)}
                candidates = [
                    m for m in candidates
                    if m.elite_as is not None and (not wanted or m.elite_as in wanted) and key not in m.taken
                ]
                # 004 Build your army: elite equipment is paid per elite, and only as long as elites are left.
                # (A required option that is missing altogether is the resolver's upgrade.requires.)
                bought = {o.key for _, o in rows}
                missing = any(ref not in bought for ref in option.requires)
                if len(candidates) < count and not missing:
                    holders = sum(1 for m in models if m.elite_as is not None and (not wanted or m.elite_as in wanted))
                    eventual = sum(t.models for t, o in rows if o.elite and (not wanted or o.key in wanted))
                    issues.append(Issue(
                        "upgrade.elite_only",
                        f"“{option.label}” bought {count} time(s) but only {len(candidates)} elite(s) of {entry.name} can still take it"
                        + (" (list the elites before their equipment)" if holders < count <= eventual else ""),
                        f".upgrades[{taken.index}]", BUILD,
                        data={"bought": count, "elites": holders, "free": len(candidates)},
                    ))
            if count < len(candidates):
                # The models left with the most free hands take it (the first of equals).
                changes: dict[str, int] = {}
                for name in replaces:
                    changes[name] = changes.get(name, 0) - 1
                for name, copies in personal:
                    changes[name] = changes.get(name, 0) + copies
                filled = [m.hands_after(changes, weights) for m in candidates]  # hands each would fill
                if count == 1:
                    candidates = [candidates[filled.index(min(filled))]]
                else:  # a stable sort: equals stay in model order
                    candidates = [candidates[k] for k in sorted(range(len(candidates)), key=filled.__getitem__)[:count]]
            for model in candidates:
                self._equip(model, replaces, personal, 1, key, offer.elite, weights)
                if model.hands > cap:
                    first_overload.setdefault(model.number, taken.index)
        if kit.infantry:
            # 004 Build your army: one two-handed or two one-handed items per infantry model.
            for number in sorted(first_overload):
                model = models[number]
                used = model.hands
                if used <= cap:
                    continue  # a later replacement freed the hands again
                carried = ", ".join(
                    f"{name} ({slots_of[name].replace('_', '-')})" + (f" x{n}" if n > 1 else "")
                    for name, n in model.gear.items() if n > 0 and slot_weights.get(slots_of[name], 0)
                )
                issues.append(Issue(
                    "loadout.hands",
                    f"{entry.name}, model {number + 1}{' (elite)' if model.elite_as else ''}: {carried} need {used} hands, a model has {cap}",
                    f".upgrades[{first_overload[number]}]", loadout["clause"],
                    data={"model": number + 1, "hands": used, "slots": cap},
                ))
        issues.extend(self._shared_issues(entry, kit, shared, shared_row))
        return elites, tuple(issues)

    def _shared_issues(self, entry: ResolvedEntry, kit: _Kit, shared: int, row: int | None) -> tuple[Issue, ...]:
        # 004 Build your army: a unit may have a maximum of one shared weapon.
        if shared <= kit.shared_slots:
            return ()
        return (Issue(
            "loadout.shared", f"{entry.name} has {shared} shared weapons, at most {kit.shared_slots}",
            f".upgrades[{row}]" if row is not None else "", self.composition["loadout"]["clause"],
            data={"shared": shared, "max": kit.shared_slots},
        ),)

    @staticmethod
    def _equip(model: _Model, replaces: tuple[str, ...], personal: list[tuple[str, int]], copies: int, key: str, elite: bool, weights: Mapping[str, int]) -> None:
        for name in replaces:
            model.add(name, -copies, weights.get(name, 0))
        for name, n in personal:
            model.add(name, n * copies, weights[name])
        if elite:
            model.elite_as = key
        model.taken += (key,)

    # huge units ------------------------------------------------------------------------------

    def _huge(self, huge: list[ResolvedEntry]) -> Iterator[Issue]:
        """An issue per huge entry (*huge*: the list's huge entries, in list order)."""
        rules = self.composition["huge"]
        for entry in huge:
            # 004 Huge units: name every huge unit to the opponent before they build their army.
            yield Issue(
                "declare.huge", f"{entry.name} is huge: tell your opponent before they build their list",
                entry.path, rules["clause"], severity=rules.get("severity", ERROR),
                data={"unit": entry.unit.id, "name": entry.name},
            )

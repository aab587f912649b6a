"""The shared preview entry point: a parsed request in, a JSON-ready response out.

Every rules family answers the same question the same way, so the API, the CLI and the five
systems share one request and one response shape::

    request  = {"system": id, "attacker": SIDE, "defender": SIDE, "situation": {...}}
    SIDE     = {"book": id, "unit": id, "upgrades": (ChosenUpgrade, ...)}
             | {"list": ArmyList, "key": "a"}           # a unit of a list, as it hits the table
             | {"profile": Unit}                        # a what-if unit in a book's own shape
    response = {"system", "attacker", "defender", "situation",
                "expected": {"hits", "wounds", "models_killed", ...},
                "distributions": {"hits": Dist.as_dict(), "wounds": ..., "models_killed": ...},
                "p_destroyed": float,
                "consequences": {...family specific...},
                "notes": [interpretations the engine applied],
                "unmodelled": [names of rules on either side the engine does not model]}

``listbuilder.shapes.preview_requests`` turns JSON into this request (lists parsed, profiles loaded
with the family's own unit schema, the situation checked by the family's situation schema);
this module stays free of Flask, YAML and marshmallow so the CLI and tests can call it directly.

A family plugs in by naming its engines in its record (``listbuilder.families``; imported on
first use so one family's module never blocks another). An engine is called as
``engine(system, attacker, defender, situation)`` with two :class:`Combatant` values and returns
the ``expected``/``distributions``/``p_destroyed``/``consequences`` part of the response.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from listbuilder.combat.budget import SideSize
from listbuilder.combat.combatant import Combatant
from listbuilder.families import FAMILIES
from listbuilder.model import ArmyBook, ArmyList, GameSystem, Item, ListEntry, RuleRef, Unit, Weapon
from listbuilder.resolve import ResolvedEntry, resolve_entry
from listbuilder.validation import ERROR

if TYPE_CHECKING:  # the registry module reads YAML; the core only needs its shape
    from listbuilder.books.registry import BookRegistry

Engine = Callable[[GameSystem, "Combatant", "Combatant", Mapping[str, Any]], dict[str, Any]]

SIDES = ("attacker", "defender")


class PreviewError(Exception):
    """A request that makes no sense (melee without a melee weapon, range beyond the weapon).

    ``field`` is the request path to blame (``attacker.unit``, ``situation.range``) so the API
    answers ``{code, status, message, errors: {field: [message]}}`` like every other 4xx.
    """

    def __init__(self, field: str, message: str, status: int = 422, errors: Mapping[str, list[str]] | None = None):
        super().__init__(message)
        self.field = field
        self.message = message
        self.status = status
        self.errors = dict(errors) if errors else {field: [message]}

    def as_dict(self) -> dict[str, Any]:
        name = {404: "Not Found", 413: "Content Too Large"}.get(self.status, "Unprocessable Entity")
        return {"code": self.status, "status": name, "message": self.message, "errors": self.errors}


def preview(registry: BookRegistry, request: Mapping[str, Any]) -> dict[str, Any]:
    """Answer one preview request; raises :class:`PreviewError` for nonsense inputs."""
    return _answer(registry, request, "engine", "combat previews", SideSize.over_budget)


def preview_turn(registry: BookRegistry, request: Mapping[str, Any]) -> dict[str, Any]:
    """A whole turn (the attacker shoots the defender, then charges it): the same request and
    answer shape as :func:`preview`, plus ``steps``; raises :class:`PreviewError`."""
    return _answer(registry, request, "turn_engine", "whole-turn previews", SideSize.over_turn_budget)


def compare(registry: BookRegistry, request: Mapping[str, Any]) -> dict[str, Any]:
    """Loadouts of one book unit against the same defender: each option's points, expected
    wounds, chance to destroy and expected wounds per 100 points; raises PreviewError.

    ``request["attacker"]`` is ``{"book", "unit"}``; ``request["options"]`` holds 2-8
    ``{"label"?, "upgrades"}`` (upgrades as in a list entry, checked as list validation does).
    ``points`` is the sum of the cost vector (a single currency in the OPR systems).
    """
    system = _system(registry, request)
    engine = engine_for(system.family)
    if not FAMILIES[system.family].counts_wounds:
        raise PreviewError(
            "system", f"loadout comparisons weigh wounds, which the {system.family!r} rules family does not count"
        )
    defender = resolve_side(registry, system, request.get("defender"), "defender")
    too_big = SideSize.of(defender).over_budget()
    if too_big:
        raise PreviewError("defender", too_big, 413)
    attacker = request.get("attacker") or {}
    book = _book(registry, system, attacker.get("book"), "attacker.book")
    if book.unit(attacker.get("unit", "")) is None:
        raise PreviewError("attacker.unit", f"{book.name} has no unit {attacker.get('unit')!r}", 404)
    situation = dict(request.get("situation") or {})
    options = []
    for i, option in enumerate(request.get("options") or ()):
        where = f"options[{i}]"
        upgrades = tuple(option.get("upgrades") or ())
        resolved = _resolve(book, ListEntry(key=where, unit=attacker["unit"], upgrades=upgrades), 0, where)
        side = _combatant(resolved, "book")
        too_big = SideSize.of(side).over_budget()
        if too_big:
            raise PreviewError(where, too_big, 413)
        result = engine(system, side, defender, situation)
        points = sum(resolved.cost.amounts.values())
        wounds = result["expected"]["wounds"]
        options.append(
            {
                "label": option.get("label") or _loadout_label(book, upgrades),
                "upgrades": [{"section": u.section, "option": u.option, "count": u.count} for u in upgrades],
                "cost": dict(resolved.cost.amounts),
                "points": points,
                "expected_wounds": wounds,
                "p_destroyed": result["p_destroyed"],
                "wounds_per_100_points": wounds * 100 / points if points > 0 else None,
                "notes": result.get("notes", []),
                "unmodelled": result.get("unmodelled", []),
            }
        )
    rated = [i for i, o in enumerate(options) if o["wounds_per_100_points"] is not None]
    return {
        "system": system.id,
        "attacker": {"book": book.id, "unit": attacker["unit"], "name": book.unit(attacker["unit"]).name},  # type: ignore[union-attr]
        "defender": defender.summary(),
        "situation": situation,
        "options": options,
        "best": max(rated, key=lambda i: options[i]["wounds_per_100_points"]) if rated else None,
    }


def _loadout_label(book: ArmyBook, upgrades: tuple[Any, ...]) -> str:
    """The options' names from the book ("Base loadout" without upgrades)."""
    names = []
    for u in upgrades:
        section = book.sections.get(u.section)
        found = next((o for o in section.options if o.id == u.option), None) if section else None
        label = found.label if found else u.option
        names.append(f"{u.count} x {label}" if u.count > 1 else label)
    return ", ".join(names) or "Base loadout"


def _system(registry: BookRegistry, request: Mapping[str, Any]) -> GameSystem:
    system_id = request.get("system")
    system = registry.systems.get(system_id) if isinstance(system_id, str) else None
    if system is None:
        raise PreviewError("system", f"no game system {system_id!r}; known: {sorted(registry.systems)}", 404)
    return system


def _answer(
    registry: BookRegistry,
    request: Mapping[str, Any],
    kind: str,
    what: str,
    over_budget: Callable[[SideSize], str | None],
) -> dict[str, Any]:
    system = _system(registry, request)
    engine = engine_for(system.family, kind, what)
    sides = {name: resolve_side(registry, system, request.get(name), name) for name in SIDES}
    for name, side in sides.items():
        too_big = over_budget(SideSize.of(side))  # bounded work: listbuilder.combat.budget
        if too_big:
            raise PreviewError(name, too_big, 413)
    situation = dict(request.get("situation") or {})
    result = engine(system, sides["attacker"], sides["defender"], situation)
    answer = {
        "system": system.id,
        "attacker": sides["attacker"].summary(),
        "defender": sides["defender"].summary(),
        "situation": situation,
        "expected": result["expected"],
        "distributions": result["distributions"],
        "p_destroyed": result["p_destroyed"],
        "consequences": result.get("consequences", {}),
        "notes": result.get("notes", []),
        "unmodelled": result.get("unmodelled", []),
    }
    if "steps" in result:
        answer["steps"] = result["steps"]
    return answer


def unmodelled_rules(sides: Iterable[Combatant], known: Callable[[str], bool]) -> list[str]:
    """Names of the rules on these sides (the units, what their items grant, their weapons and
    joined heroes) that ``known`` says the engine neither models nor may ignore, each once in
    the order met. An imported book's own rules land here, so an answer never hides them."""
    out: list[str] = []
    for side in sides:
        for member in (side, *side.heroes):
            for rule in (*member.rules, *(r for w in member.weapons for r in w.rules)):
                if rule.name not in out and not known(rule.name):
                    out.append(rule.name)
    return out


def engine_for(family: str, kind: str = "engine", what: str = "combat previews") -> Engine:
    """The family's ``engine`` (or ``turn_engine``); raises PreviewError when it has none."""
    record = FAMILIES.get(family)
    if record is None or getattr(record, kind) is None:
        raise PreviewError("system", f"{what} are not available for the {family!r} rules family")
    try:
        engine: Engine = record.part(kind)
    except (ImportError, AttributeError):
        raise PreviewError("system", f"{what} for the {family!r} rules family are not built yet") from None
    return engine


# --------------------------------------------------------------------------------------------
# Sides


def resolve_side(registry: BookRegistry, system: GameSystem, side: Any, where: str) -> Combatant:
    """A request side (book unit, list unit or inline profile) -> Combatant."""
    if not isinstance(side, Mapping):
        raise PreviewError(where, "give a book unit, a list unit or an inline profile")
    if "profile" in side:
        unit = side["profile"]
        if not isinstance(unit, Unit):
            raise PreviewError(f"{where}.profile", "the profile was not loaded into a unit")
        # Weapons inside items (a mount's hooves) fight too, as they do for book units (resolve).
        carried = tuple(w for item in unit.items for w in item.carried_weapons())
        return Combatant(
            unit.name,
            unit,
            unit.size,
            unit.weapons + carried,
            unit.items,
            _with_item_rules(unit.rules, unit.items),
            source="profile",
        )
    if "list" in side:
        return _from_list(registry, system, side["list"], side.get("key"), where)
    if "book" in side:
        book = _book(registry, system, side["book"], f"{where}.book")
        entry = ListEntry(key=where, unit=side.get("unit", ""), upgrades=tuple(side.get("upgrades") or ()))
        if book.unit(entry.unit) is None:
            raise PreviewError(f"{where}.unit", f"{book.name} has no unit {entry.unit!r}", 404)
        resolved = _resolve(book, entry, 0, where)
        return _combatant(resolved, "book")
    raise PreviewError(where, "give one of book+unit, list+key or profile")


def _book(registry: BookRegistry, system: GameSystem, book_id: Any, where: str) -> ArmyBook:
    book = registry.books.get(book_id) if isinstance(book_id, str) else None
    if book is None:
        known = sorted(b.id for b in registry.books_of(system.id))
        raise PreviewError(where, f"no army book {book_id!r}; books for {system.id}: {known}", 404)
    if book.system != system.id:
        raise PreviewError(where, f"{book.name} is a {book.system} book, not {system.id}")
    return book


def _resolve(book: ArmyBook, entry: ListEntry, index: int, where: str, prefix: str | None = None) -> ResolvedEntry:
    """Resolve upgrades; the first error becomes a PreviewError pointing into the request."""
    resolved, issues = resolve_entry(book, entry, index)
    errors = [i for i in issues if i.severity == ERROR]
    if resolved is None or errors:
        issue = errors[0] if errors else issues[0]
        inner = issue.path.split(".", 1)[1] if "." in issue.path else ""
        path = f"{prefix}.{inner}" if prefix is not None and inner else (f"{where}.{inner}" if inner else where)
        raise PreviewError(path, issue.message)
    return resolved


def _with_item_rules(rules: tuple[RuleRef, ...], items: tuple[Item, ...]) -> tuple[RuleRef, ...]:
    out = list(rules)
    for item in items:
        out.extend(r for r in item.rules if r not in out)
    return tuple(out)


def _combatant(resolved: ResolvedEntry, source: str, heroes: tuple[Combatant, ...] = ()) -> Combatant:
    return Combatant(
        resolved.name,
        resolved.unit,
        resolved.models,
        resolved.weapons,
        resolved.items,
        resolved.all_rules,
        heroes,
        source,
    )


def _from_list(registry: BookRegistry, system: GameSystem, army: Any, key: Any, where: str) -> Combatant:
    """A list unit with its combined partner and joined heroes, as it stands on the table."""
    if not isinstance(army, ArmyList):
        raise PreviewError(f"{where}.list", "the list was not parsed")
    if army.system != system.id:
        raise PreviewError(f"{where}.list.system", f"the list is for {army.system!r}, the preview for {system.id!r}")
    book = _book(registry, system, army.book, f"{where}.list.book")
    index = {e.key: i for i, e in enumerate(army.units)}
    if key not in index:
        raise PreviewError(f"{where}.key", f"the list has no unit with key {key!r}; keys: {list(index)}", 404)
    entry = army.units[index[key]]
    if entry.joined_to is not None and entry.joined_to in index:
        # A joined hero fights as part of the unit it joined: preview that unit.
        entry = army.units[index[entry.joined_to]]

    def resolve(e: ListEntry) -> ResolvedEntry:
        i = index[e.key]
        return _resolve(book, e, i, where, prefix=f"{where}.list.units[{i}]")

    main = resolve(entry)
    partners = [
        e for e in army.units if e.key != entry.key and (e.combined_with == entry.key or entry.combined_with == e.key)
    ]
    heroes = tuple(
        _combatant(resolve(e), "list") for e in army.units if e.joined_to in {entry.key, *(p.key for p in partners)}
    )
    if not partners:
        return _combatant(main, "list", heroes)
    other = resolve(partners[0])
    return Combatant(
        main.name,
        main.unit,
        main.models + other.models,
        _merge_weapons(main.weapons, other.weapons),
        main.items + other.items,
        main.all_rules,
        heroes,
        "list",
        {"combined": [main.key, other.key]},
    )


def _merge_weapons(a: tuple[Weapon, ...], b: tuple[Weapon, ...]) -> tuple[Weapon, ...]:
    merged: dict[str, Weapon] = {}
    for weapon in (*a, *b):
        have = merged.get(weapon.name)
        merged[weapon.name] = weapon if have is None else have.with_count(have.count + weapon.count)
    return tuple(merged.values())

"""The figures an issue carries in ``data``: one declaration per shape, and which codes send it.

Tools read ``data`` to show the numbers behind a message without parsing the message. This is
the one place that says which keys (and of what kind) each code sends: the OpenAPI document
builds its ``IssueData...`` components from it (``listbuilder/shapes/api.py``), and the tests
hold every issue the validators emit to it (``tests/test_issue_data.py``), so the document
cannot promise a shape the core does not send.

Every key of a shape is always there. A code may have more than one shape (the ancients-hex
points limit also states its allowance) and may send no ``data`` at all where it has no figure
to give; no two shapes share the same keys, so the keys alone tell which one an issue carries.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# The kinds of value a key may hold, as the JSON it is sent as.
INTEGER = "integer"
TEXT = "string"
TEXTS = "strings"  # a list of strings
COST = "cost"  # a cost vector: currency -> integer amount


@dataclass(frozen=True)
class DataShape:
    """A named set of keys, each with its kind, and the codes that send it."""

    name: str
    keys: Mapping[str, str]
    codes: tuple[str, ...]
    about: str


SHAPES: tuple[DataShape, ...] = (
    DataShape(
        "AllowedAsked",
        {"allowed": INTEGER, "asked": INTEGER},
        ("upgrade.count",),
        "models an option may go on, and how many asked for it",
    ),
    DataShape(
        "AllowedTaken",
        {"allowed": INTEGER, "taken": INTEGER},
        ("upgrade.select",),
        "options (or option uses) a section allows, and how many were taken",
    ),
    DataShape(
        "RequiredTaken",
        {"required": INTEGER, "taken": INTEGER},
        ("upgrade.required",),
        "options a section needs, and how many were taken",
    ),
    DataShape("Requires", {"requires": TEXT}, ("upgrade.requires",), "the option needed first, as section/option"),
    DataShape(
        "GearLeft",
        {"gear": TEXT, "left": INTEGER, "asked": INTEGER},
        ("upgrade.replace_exceeds", "upgrade.target_exceeds"),
        "the gear, the copies left of it, and the copies asked for",
    ),
    DataShape("Rule", {"rule": TEXT}, ("rules.undefined",), "the rule nothing defines"),
    DataShape("Role", {"role": TEXT}, ("upgrade.command_group",), "the command-group role held twice"),
    DataShape(
        "ToughMax",
        {"tough": INTEGER, "max": INTEGER},
        ("join.tough",),
        "the hero's Tough rating and the most a joining hero may have",
    ),
    DataShape(
        "MaxCount",
        {"max": INTEGER, "count": INTEGER},
        ("force_org.heroes", "force_org.units"),
        "the force organisation's maximum and the list's count",
    ),
    DataShape(
        "UnitMaxCount",
        {"unit": TEXT, "max": INTEGER, "count": INTEGER},
        ("force_org.copies",),
        "the unit id, the copies allowed and the copies in the list",
    ),
    DataShape(
        "MaxCost",
        {"max": INTEGER, "cost": INTEGER},
        ("force_org.unit_share",),
        "the most one unit may cost and what it costs",
    ),
    DataShape(
        "PointsOver",
        {"limit": INTEGER, "spent": INTEGER, "over": INTEGER},
        ("points.over_limit",),
        "the points limit, the points spent and the excess (OPR family)",
    ),
    DataShape(
        "PointsOverAllowance",
        {"limit": INTEGER, "allowance": INTEGER, "spent": INTEGER, "over": INTEGER},
        ("points.over_limit",),
        "the limit, the overage allowed, the points spent and the excess (ancients-hex)",
    ),
    DataShape(
        "PointsOverage",
        {"limit": INTEGER, "spent": INTEGER, "over": INTEGER, "opponent_vp": INTEGER},
        ("points.overage",),
        "a legal overage and the victory points it gives the opponent (ancients-hex)",
    ),
    DataShape(
        "KeywordMinimum",
        {"required": INTEGER, "keyword": INTEGER, "limit": INTEGER, "entries": TEXTS, "book_units": TEXTS},
        ("keyword.minimum",),
        "keyword-troop points needed and spent at the limit, the paths of the entries counted and the book's keyword units",
    ),
    DataShape(
        "AllowedChosen",
        {"allowed": INTEGER, "chosen": INTEGER},
        ("spells.too_many",),
        "spells the magician may choose and how many were chosen",
    ),
    DataShape("Spell", {"spell": TEXT}, ("spells.duplicate", "spells.unknown"), "the spell id"),
    DataShape(
        "SpellLimited",
        {"spell": TEXT, "limited_to": TEXTS},
        ("spells.limited",),
        "the spell id and the users it is limited to",
    ),
    DataShape("Target", {"target": TEXT}, ("join.no_advance", "join.chain"), "the key of the entry joined to"),
    DataShape(
        "RuleMaxCount",
        {"rule": TEXT, "max": INTEGER, "count": INTEGER},
        ("attribute.limit",),
        "the attribute, the most units that may have it and how many do",
    ),
    DataShape("GameModes", {"known": TEXTS}, ("game_mode.unknown",), "the game modes the system has"),
    DataShape(
        "ModeBudget",
        {"mode": COST, "budget": COST},
        ("game_mode.budget_mismatch",),
        "the game mode's fixed budget and the budget the list gives",
    ),
    DataShape(
        "CurrencyOver",
        {"currency": TEXT, "budget": INTEGER, "spent": INTEGER, "over": INTEGER},
        ("budget.ip", "budget.mp", "budget.cp", "budget.xp"),
        "the currency, its budget, the amount spent and the excess",
    ),
    DataShape(
        "SplitDeclared",
        {"points": INTEGER, "declared": COST},
        ("budget.split",),
        "the free points to divide and the division the list declares, which does not add up",
    ),
    DataShape(
        "SplitOver",
        {"points": INTEGER, "spent": INTEGER, "over": INTEGER},
        ("budget.split",),
        "the free points, what the currencies sharing them spent, and the excess",
    ),
    DataShape(
        "Hands",
        {"model": INTEGER, "hands": INTEGER, "slots": INTEGER},
        ("loadout.hands",),
        "the model (counted from 1), the hands its gear needs and the hands it has",
    ),
    DataShape(
        "SharedMax",
        {"shared": INTEGER, "max": INTEGER},
        ("loadout.shared",),
        "shared weapons on the unit and the most allowed",
    ),
    DataShape(
        "ModelsElites",
        {"models": INTEGER, "elites": INTEGER},
        ("upgrade.elites",),
        "the unit's models and the elites bought",
    ),
    DataShape(
        "EliteOnly",
        {"bought": INTEGER, "elites": INTEGER, "free": INTEGER},
        ("upgrade.elite_only",),
        "times the elite-only option was bought, elites holding it, elites still free to take it",
    ),
    DataShape(
        "HugeUnit",
        {"unit": TEXT, "name": TEXT},
        ("declare.huge",),
        "the huge unit's id and name, to declare to the opponent",
    ),
)


def shapes_of(code: str) -> tuple[DataShape, ...]:
    """The shapes *code* may send (none: it never sends ``data``)."""
    return tuple(shape for shape in SHAPES if code in shape.codes)


def _is(kind: str, value: Any) -> bool:
    if kind == INTEGER:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == TEXT:
        return isinstance(value, str)
    if kind == TEXTS:
        return isinstance(value, list) and all(isinstance(item, str) for item in value)
    return isinstance(value, Mapping) and all(isinstance(k, str) and _is(INTEGER, v) for k, v in value.items())


def matches(shape: DataShape, data: Mapping[str, Any]) -> bool:
    """*data* has exactly *shape*'s keys, each holding its kind of value."""
    return set(data) == set(shape.keys) and all(_is(kind, data[key]) for key, kind in shape.keys.items())


def shape_of(code: str, data: Mapping[str, Any]) -> DataShape | None:
    """The declared shape *data* is for *code*, or None when it is none of them."""
    return next((shape for shape in shapes_of(code) if matches(shape, data)), None)

"""Army Forge upgrade sections -> our upgrade sections.

An Army Forge section has a ``variant`` (replace, upgrade, attachment), ``targets`` (gear
names, sometimes plural, sometimes "2x CCW"), ``affects`` (how many models or copies:
exactly N, all, any, up to N, or nothing for "the one" / "the unit") and ``select`` (how many
options each application takes, or for "Any model may..." how many times it applies). Each
selection in a list is one application, priced once. Our sections say the same thing with
``affects`` (unit, one, all, up_to, any), ``pick`` and per-copy replacement counts; the table
in :func:`section_shape` is the whole translation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from listbuilder.importers.army_forge_gear import (
    ITEM,
    MULTI_WEAPON,
    RULES,
    WEAPON,
    GearCatalog,
    gain_count,
    loosen_item,
)
from listbuilder.importers.errors import ImportFailed
from listbuilder.importers.naming import IdMaker, match_gear, split_count
from listbuilder.importers.reading import Node

VARIANTS = ("replace", "upgrade", "attachment")


@dataclass(frozen=True)
class SectionShape:
    """How one Army Forge section reads in our vocabulary."""

    variant: str
    affects: str
    affects_count: int | None
    pick: Any  # "one", "any" or a number of options per application
    copies: int  # copies of each target one application takes ("Replace two X with one")


def _bound(node: Node, key: str) -> tuple[str | None, int | None]:
    """``{type: exactly|any|all|up to, value: N}`` (or nothing) -> (type, N)."""
    if not node.has(key):
        return None, None
    bound = node.node(key)
    kind = bound.text("type").strip().lower()
    if kind not in ("exactly", "any", "all", "up to"):
        raise ImportFailed("malformed", bound.child_path("type"), f"expected exactly, any, all or up to, got {kind!r}")
    value = bound.whole("value", None, low=1) if kind in ("exactly", "up to") else None
    if kind in ("exactly", "up to") and value is None:
        raise ImportFailed("malformed", bound.child_path("value"), f"{kind!r} needs a number")
    return kind, value


def section_shape(section: Node) -> SectionShape:
    """Translate variant, affects and select (docs/army-books.md, "Importing from Army Forge")."""
    variant = section.text("variant").strip().lower()
    if variant not in VARIANTS:
        raise ImportFailed(
            "malformed", section.child_path("variant"), f"expected one of {', '.join(VARIANTS)}, got {variant!r}"
        )
    affects, affects_n = _bound(section, "affects")
    select, select_n = _bound(section, "select")
    if variant == "upgrade":
        pick: Any = select_n if select in ("exactly", "up to") else "any"
        if affects is None:
            return SectionShape(variant, "unit", None, pick, 1)  # "Upgrade with (one/any/up to N)"
        if affects == "all":
            return SectionShape(variant, "all", None, pick, 1)
        if affects == "any":
            return SectionShape(variant, "any", None, pick, 1)
        if affects == "exactly" and affects_n == 1:
            return SectionShape(variant, "one", None, pick, 1)  # "Upgrade one model with"
        return SectionShape(variant, "up_to", affects_n, pick, 1)  # "up to N" (and "exactly N")
    # replace and attachment: select "any" means "any model may", i.e. repeated applications.
    repeated = select == "any"
    pick = select_n if select in ("exactly", "up to") and select_n and select_n > 1 else "one"
    if affects == "all":
        return SectionShape(variant, "all", None, "one", 1)
    if affects == "any" or (repeated and affects in (None, "exactly")):
        return SectionShape(variant, "any", None, pick, affects_n or 1)
    if affects == "up to":
        return SectionShape(variant, "up_to", affects_n, pick, 1)
    # "Replace X" / "Replace one X" / "Replace two X with": one application.
    return SectionShape(variant, "unit" if variant == "attachment" else "one", None, pick, affects_n or 1)


@dataclass
class OptionContext:
    """What converting one option needs to know about the section and the units offered it."""

    catalog: GearCatalog
    unit_ids: Mapping[str, str]  # Army Forge unit id -> ours, for the units offered the section
    roles: Sequence[str]  # command-group roles of the system
    weapon_rule_names: frozenset[str]  # rules that belong on weapons (for targeted upgrades)
    targets_weapons: bool  # the section is tied to weapons: weapon rules go onto them
    loose: frozenset[str] = frozenset()  # weapons inside items that some section names (see loosen_item)


def option_doc(option: Node, ctx: OptionContext, ids: IdMaker) -> tuple[dict[str, Any], list[str]]:
    """One option as our YAML mapping, and the Army Forge ids a list may use for it."""
    weapons: list[dict[str, Any]] = []
    items: list[dict[str, Any]] = []
    rules: list[str] = []
    weapon_rules: list[str] = []
    loosened: list[dict[str, Any]] = []  # weapons taken out of items (named after the item, not them)
    for gain in option.items("gains"):
        kind = gain.text("type")
        copies = gain_count(gain)
        if copies == 0:
            continue
        count = copies if copies != 1 else None
        if kind == WEAPON:
            weapons.append(ctx.catalog.weapon(gain, count=count))
        elif kind == ITEM:
            item = ctx.catalog.item(gain, count=count)
            moved = [r for r in item.get("rules", ()) if ctx.targets_weapons and _rule_name(r) in ctx.weapon_rule_names]
            if moved:  # a scope on a rifle: its rules change the targeted weapon, not the unit
                weapon_rules += moved
                item["rules"] = [r for r in item["rules"] if r not in moved]
                if not item["rules"]:
                    del item["rules"]
            item, freed = loosen_item(item, ctx.loose)
            weapons += freed
            loosened += freed
            items.append(item)
        elif kind in RULES:
            made = ctx.catalog.rule(gain)
            (weapon_rules if ctx.targets_weapons and _rule_name(made) in ctx.weapon_rule_names else rules).append(made)
        elif kind == MULTI_WEAPON:
            items.append(ctx.catalog.multi_weapon(gain, count=count))
        else:
            raise ImportFailed(
                "malformed",
                gain.child_path("type"),
                f"expected {WEAPON}, {ITEM}, {RULES[0]} or {MULTI_WEAPON}, got {kind!r}",
            )
    label = (
        option.text("label", "").strip()
        or ", ".join(g.get("name", "") for g in (*weapons, *items))
        or ", ".join(rules)
        or "option"
    )
    names = [g["name"] for g in (*weapons, *items) if not any(g is w for w in loosened)]
    doc: dict[str, Any] = {"id": ids.make(" ".join(names) or label, "option"), "label": label}
    doc.update(_costs(option, ctx.unit_ids))
    gains: dict[str, Any] = {}
    for key, value in (("weapons", weapons), ("items", items), ("rules", rules), ("weapon_rules", weapon_rules)):
        if value:
            gains[key] = value
    if gains:
        doc["gains"] = gains
    if len(rules) == 1 and not weapons and not items and _rule_name(rules[0]).lower() in ctx.roles:
        doc["command"] = _rule_name(rules[0]).lower()  # Sergeant, Musician, Banner: one per unit
    af_ids = [option.value[k] for k in ("uid", "id") if isinstance(option.value.get(k), str)]
    return doc, af_ids


def section_doc(
    node: Node, shape: SectionShape, section_id: str, targets: tuple[tuple[str, int], ...], ctx: OptionContext
) -> tuple[dict[str, Any], dict[str, str], list[str]]:
    """Our section document for one Army Forge section read against *targets*: the document,
    Army Forge option ids -> ours, and each option's source path (in order)."""
    doc: dict[str, Any] = {
        "id": section_id,
        "label": node.text("label", "").strip() or section_id,
        "variant": shape.variant,
    }
    if shape.variant == "replace":
        doc["replaces"] = [
            name if n * shape.copies == 1 else {"gear": name, "count": n * shape.copies} for name, n in targets
        ]
    elif targets:
        doc["targets"] = [name for name, _ in targets]
    doc["affects"] = shape.affects
    if shape.affects_count is not None:
        doc["affects_count"] = shape.affects_count
    doc["pick"] = shape.pick
    option_ids = IdMaker()
    options, af_options, paths = [], {}, []
    for option in node.items("options", required=True):
        paths.append(option.path)
        option_out, af_ids = option_doc(option, ctx, option_ids)
        options.append(option_out)
        af_options.update(dict.fromkeys(af_ids, option_out["id"]))
    doc["options"] = options
    return doc, af_options, paths


def reachable_gear(unit: dict[str, Any], sections: list[Node]) -> tuple[list[str], list[str]]:
    """Names of the weapons and of the items the unit has or can gain from its sections."""
    weapons = [g["name"] for g in unit.get("weapons", ())]
    items = [g["name"] for g in unit.get("items", ())]
    weapons += [w["name"] for g in unit.get("items", ()) for w in g.get("weapons", ())]
    for section in sections:
        for option in section.items("options"):
            for gain in option.items("gains"):
                kind = gain.text("type", "")
                if kind in (WEAPON, ITEM, MULTI_WEAPON) and gain.has("name"):
                    (weapons if kind == WEAPON else items).append(gain.text("name").strip())
                if kind == ITEM:
                    # an item's weapons are in reach too (loosen_item frees those a section names)
                    weapons += [
                        part.text("name").strip()
                        for part in gain.items("content")
                        if part.text("type", "") == WEAPON and part.has("name")
                    ]
    return weapons, items


def resolve_targets(section: Node, names: list[str]) -> tuple[tuple[str, int], ...] | None:
    """The section's targets as (gear name, copies) in this unit's spelling; None if the
    unit has none of one of them."""
    out = []
    for target in section.texts("targets"):
        name, copies = split_count(target)
        found = match_gear(name, names)
        if found is None:
            return None
        out.append((found, copies))
    return tuple(out)


def _costs(option: Node, unit_ids: Mapping[str, str]) -> dict[str, Any]:
    """``cost`` (Army Forge's default) and ``unit_costs`` where a unit pays otherwise."""
    per_unit: dict[str, int] = {}
    for entry in option.items("costs"):
        unit = entry.text("unitId")
        if unit in unit_ids:
            per_unit[unit_ids[unit]] = entry.whole("cost")
    default = option.whole("cost", None)
    if default is None:
        default = next(iter(per_unit.values()), 0)
    out: dict[str, Any] = {"cost": {"pts": default}}
    differing = {unit: {"pts": cost} for unit, cost in per_unit.items() if cost != default}
    if differing:
        out["unit_costs"] = differing
    return out


def _rule_name(rule_label: str) -> str:
    return rule_label.split("(", 1)[0]

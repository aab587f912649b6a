"""What each rules family's units show on a printed roster: stat line, extra tables, weapon
columns, casters and marks, as data (:class:`FamilySheet`), not branches on the system id.

A family's :class:`~listbuilder.families.Family` record names its sheet; the roster
(``listbuilder.printing.rosters``) reads it. Pure core: no Flask, no WeasyPrint.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from listbuilder.resolve import ResolvedEntry
from listbuilder.systems.armour_hex_loadout import is_elite


@dataclass(frozen=True)
class Table:
    """A small table on the sheet: weapons, speeds, facings, a damage table."""

    caption: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class StatColumn:
    """A stat on the unit's stat line: read ``key`` from ``Unit.stats`` and format it.

    ``key`` may be ``rule:Name`` to show a rule's rating (OPR Tough lives in the rules).
    ``fmt`` receives ``value`` and every stat of the unit, so a column can combine two
    stats (missile dice and their range).
    """

    label: str
    short: str
    key: str
    fmt: str = "{value}"
    default: Any = None


@dataclass(frozen=True)
class WeaponColumn:
    """An extra weapon column read from ``Weapon.extra`` (armour-hex AP, damage dice)."""

    label: str
    key: str


def _facings_panel(stats: Mapping[str, Any]) -> Table | None:
    rows: list[tuple[str, ...]] = []  # armour by facing is on the stat line already
    assault = stats.get("assault")
    if assault:
        extra = f"{assault['hit']}+, AP {assault.get('ap', 0)}, dmg {assault['damage']}"
        rules = ", ".join(assault.get("rules") or ())
        rows.append((f"Assault dice ({extra}{', ' + rules if rules else ''})", *(str(v) for v in assault["dice"])))
    deflection = stats.get("deflection")
    if deflection:
        rows.append((f"Deflection dice ({deflection['hit']}+)", *(str(v) for v in deflection["dice"])))
    if not rows:
        return None
    return Table("By facing", ("", "Front", "Front side", "Back side", "Back"), tuple(rows))


def _speeds_panel(stats: Mapping[str, Any]) -> Table | None:
    speeds = stats.get("speeds")
    if not speeds:
        return None
    rows = tuple(
        (
            s["speed"] + (" (shaken: " + s["default"] + ")" if s.get("default") else ""),
            ", ".join(s["movement"]),
            ", ".join(s["gunnery"]),
        )
        for s in speeds
    )
    return Table("Speeds and orders", ("Speed", "Movement orders", "Gunnery orders"), rows)


def _damage_panels(stats: Mapping[str, Any]) -> Iterator[Table]:
    for kind, rows in (stats.get("damage_tables") or {}).items():
        yield Table(
            f"Damage table: {kind}",
            ("Result", "Effects"),
            tuple((f"{row['at']}+", ", ".join(row["effects"])) for row in rows),
        )


PanelBuilder = Callable[[Mapping[str, Any]], "Table | None | Iterator[Table]"]


@dataclass(frozen=True)
class FamilySheet:
    """How one rules family's units print: stat line, extra tables, weapon columns, casters."""

    stats: tuple[StatColumn, ...]
    panels: tuple[PanelBuilder, ...] = ()
    weapon_columns: tuple[WeaponColumn, ...] = ()
    range_unit: str = '"'
    show_weapons: bool = True  # False where weapons only restate the stat line's dice pools
    caster_rule_keys: tuple[str, ...] = ()  # composition keys naming the caster rule
    # What a spell's value means depends on the caster rule: AoF 2.16 Wizard casts on D6+X
    # against it (000 "Wizard"), a GF/regiments Caster spends that many tokens (001, 002).
    spell_values: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    # Dotted stat paths holding rule labels, ``*`` for every key or item (armour-hex assault
    # rules and damage-table effects), and composition keys holding more rule texts.
    rule_stats: tuple[str, ...] = ()
    glossary_keys: tuple[str, ...] = ()
    # Words printed beside a profile's name so a player sees them at a glance.
    marks: Callable[[Sequence[ResolvedEntry]], tuple[str, ...]] | None = None


def _keyword_mark(members: Sequence[ResolvedEntry]) -> tuple[str, ...]:
    # 003 §1.0: keyword troops count towards the army's keyword minimum; the sheet says which.
    return ("keyword troops",) if members[0].unit.stat("keyword") else ()


def _elite_mark(members: Sequence[ResolvedEntry]) -> tuple[str, ...]:
    # 004 Build your army: an elite is a better model taking a regular model's place.
    elites = sum(t.models for m in members for t in m.taken if is_elite(t.option))
    return (f"{elites} elite{'s' if elites != 1 else ''}",) if elites else ()


OPR_SHEET = FamilySheet(
    stats=(
        StatColumn("Quality", "Q", "quality", "{value}+"),
        StatColumn("Defense", "D", "defense", "{value}+"),
        StatColumn("Tough", "T", "rule:Tough", default=1),
    ),
    caster_rule_keys=("spellcasting_rule",),
    spell_values={"Wizard": ("Cast on", "{}+"), "Caster": ("Tokens", "{}")},
)

ANCIENTS_HEX_SHEET = FamilySheet(
    stats=(
        StatColumn("Class", "", "unit_class"),
        StatColumn("Activation", "Act", "activation", "{value}"),
        StatColumn("Move", "Mv", "move"),
        StatColumn("Attack", "Att", "attack"),
        StatColumn("Missile", "Mis", "missile", "{value} @ {missile_range} hex"),
        StatColumn("Defence", "Def", "defence"),
        StatColumn("WP", "WP", "willpower"),
        StatColumn("HP", "HP", "hit_points"),
    ),
    range_unit=" hex",
    # 003 unit cards give attack and missile dice per unit; they are on the stat line.
    show_weapons=False,
    caster_rule_keys=("magician_rule",),
    marks=_keyword_mark,
    # 003 6.7: a spell's value is its range in hexes.
    spell_values={"Magician": ("Range", "{} hex")},
)

ARMOUR_HEX_SHEET = FamilySheet(
    stats=(
        StatColumn("Type", "", "unit_type"),
        StatColumn("Size", "", "size_class"),
        StatColumn("Fire orders", "FO", "fire_orders"),
        StatColumn("Armour F/FS/BS/B", "Arm", "armour"),
    ),
    panels=(_speeds_panel, _facings_panel, _damage_panels),
    weapon_columns=(WeaponColumn("AP", "ap"), WeaponColumn("Dmg", "damage"), WeaponColumn("Arcs F/FS/BS/B", "angles")),
    range_unit=" hex",
    rule_stats=("assault.rules", "damage_tables.*.*.effects"),
    # 004 Damage Table: the effects a table row applies are explained beside the rules.
    glossary_keys=("damage_effects",),
    marks=_elite_mark,
)

# A family nobody described yet still prints: every plain stat, in book order.
FALLBACK_SHEET = FamilySheet(stats=())

"""Army Forge list JSON -> our list document, against a book imported from Army Forge.

An Army Forge list (a saved file, ``{..., "list": {"units": [...]}}``, or the list object
itself) names each unit by the book's unit id and a ``selectionId`` of its own; each
selected upgrade is one application (``upgradeId`` = section, ``optionId`` = option). Two
copies combined into one unit are both ``combined``, the second joining the first
(``joinToUnit``); a hero's ``joinToUnit`` names the unit it joins. Our list keeps the
selection ids as entry keys and folds repeated applications into one row with a count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from listbuilder.importers.army_forge import line_of_list
from listbuilder.importers.army_forge_book import SOURCE_KEY
from listbuilder.importers.errors import ImportFailed
from listbuilder.importers.reading import Node, as_whole
from listbuilder.model import ArmyBook


@dataclass
class ConvertedList:
    """Our list document, Army Forge's own points total when the file gives it, and notes."""

    document: dict[str, Any]
    army_forge_points: int | None
    notes: list[str] = field(default_factory=list)


def convert_list(data: Any, book: ArmyBook) -> ConvertedList:
    """Convert an Army Forge list for *book* (imported from Army Forge); raises ImportFailed
    naming the source path of anything it cannot place."""
    mapping = book.extra.get(SOURCE_KEY)
    if not isinstance(mapping, dict) or not isinstance(mapping.get("units"), dict):
        raise ImportFailed(
            "book_mismatch",
            "book",
            f"{book.name} was not imported from Army Forge, so Army Forge lists cannot name its units",
        )
    if not isinstance(data, dict):
        raise ImportFailed("not_army_forge", "", "not an Army Forge list (a JSON object)")
    root = Node(data)
    inner = root.node("list") if root.has("list") and isinstance(data["list"], dict) else root
    notes: list[str] = []
    _check_book(root, inner, book, mapping, notes)
    entries = [_entry(node, book, mapping, notes) for node in inner.items("units", required=True)]
    if not entries:
        raise ImportFailed("malformed", inner.child_path("units"), "the list has no units")
    _link(entries, inner, notes)
    document: dict[str, Any] = {
        "system": book.system,
        "book": book.id,
        "name": (inner.text("name", "") or root.text("name", "")).strip()[:200],
        "units": [e.document for e in entries],
    }
    limit = as_whole(inner.value.get("pointsLimit"))
    if limit is not None and limit > 0:
        document["points_limit"] = limit
    if isinstance(inner.value.get("forceOrg"), bool):
        document["force_org"] = inner.value["forceOrg"]
    points = (
        as_whole(root.value.get("listPoints")) if root.has("listPoints") else as_whole(inner.value.get("listPoints"))
    )
    return ConvertedList(document, points, notes)


def _check_book(root: Node, inner: Node, book: ArmyBook, mapping: dict[str, Any], notes: list[str]) -> None:
    for node in (inner, root):
        if node.has("gameSystem"):
            line = line_of_list(node.text("gameSystem"), node.child_path("gameSystem"))
            if line.system != book.system:
                raise ImportFailed(
                    "book_mismatch",
                    node.child_path("gameSystem"),
                    f"this {line.slug} list cannot use {book.name}, a {book.system} book",
                )
            break
    ids = root.texts("armyIds") if root.has("armyIds") else []
    if len(set(ids)) > 1:
        raise ImportFailed(
            "book_mismatch",
            root.child_path("armyIds"),
            f"the list uses {len(set(ids))} army books; a list here uses one",
        )
    army = root.text("armyId", "") or (ids[0] if ids else "")
    if army and mapping.get("uid") and army != mapping["uid"]:
        notes.append(
            f"armyId: the list was built with Army Forge book {army!r}, not {mapping['uid']!r} ({book.name}); units are matched by id"
        )


@dataclass
class _Entry:
    node: Node
    key: str
    unit: str
    combined: bool
    join_to: str | None
    document: dict[str, Any]


def _entry(node: Node, book: ArmyBook, mapping: dict[str, Any], notes: list[str]) -> _Entry:
    af_unit = node.text("id")
    unit_id = mapping["units"].get(af_unit)
    unit = book.unit(unit_id) if unit_id else None
    if unit is None:
        raise ImportFailed(
            "unknown_reference", node.child_path("id"), f"{book.name} has no Army Forge unit {af_unit!r}"
        )
    key = node.text("selectionId", "") or af_unit
    rows: list[dict[str, Any]] = []
    for pick in node.items("selectedUpgrades"):
        section, option = _upgrade(pick, unit.upgrades, book, mapping)
        if rows and rows[-1]["section"] == section and rows[-1]["option"] == option:
            rows[-1]["count"] += 1  # each Army Forge selection is one application
        else:
            rows.append({"section": section, "option": option, "count": 1})
    document: dict[str, Any] = {"key": key, "unit": unit.id}
    custom = node.text("customName", "").strip() if node.has("customName") else ""
    if custom and custom != unit.name:
        document["name"] = custom[:200]
    note = node.value.get("notes")
    if isinstance(note, str) and note.strip():
        document["notes"] = note.strip()[:2000]
    document["upgrades"] = rows
    if as_whole(node.value.get("xp")) or node.value.get("traits"):
        notes.append(f"{node.path}: campaign experience and traits are not part of a list here; left out")
    combined = node.value.get("combined") is True
    join_to = node.value.get("joinToUnit") if isinstance(node.value.get("joinToUnit"), str) else None
    return _Entry(node, key, unit.id, combined, join_to, document)


def _upgrade(pick: Node, offered: tuple[str, ...], book: ArmyBook, mapping: dict[str, Any]) -> tuple[str, str]:
    """Our (section, option) for one Army Forge selection, among the unit's sections."""
    section_uid = pick.text("upgradeId")
    option_uid = pick.text("optionId")
    sections = mapping.get("upgrades", {})
    for section_id in offered:
        known = sections.get(section_id, {})
        if section_uid in known.get("uids", ()) and option_uid in known.get("options", {}):
            return section_id, known["options"][option_uid]
    raise ImportFailed(
        "unknown_reference",
        pick.path,
        f"{book.name} offers this unit no Army Forge upgrade {section_uid!r} with option {option_uid!r}",
    )


def _link(entries: list[_Entry], inner: Node, notes: list[str]) -> None:
    """Combined copies and joined heroes, from ``combined`` and ``joinToUnit``."""
    by_key = {}
    for entry in entries:
        if entry.key in by_key:
            raise ImportFailed("malformed", entry.node.child_path("selectionId"), f"selection id {entry.key!r} repeats")
        by_key[entry.key] = entry
    for entry in entries:
        if entry.join_to is None:
            continue
        target = by_key.get(entry.join_to)
        if target is None:
            notes.append(
                f"{entry.node.child_path('joinToUnit')}: joins {entry.join_to!r}, which is not in the list; left unjoined"
            )
        elif entry.combined and target.unit == entry.unit:
            entry.document["combined_with"] = target.key
        else:
            entry.document["joined_to"] = target.key

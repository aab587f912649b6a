"""What the Army Forge export format says beyond one book: game lines, and special-rule labels.

Army Forge (the OPR army builder) exports books and lists as JSON. A book names its game line
(``gameSystemSlug`` "grimdark-future", ``gameSystemKey`` "GF", ``gameSystemId`` 2); a list
names it by short code (``gameSystem`` "gf"). Only the lines we have a rulebook for import.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from listbuilder.importers.errors import ImportFailed
from listbuilder.importers.reading import Node, as_whole


@dataclass(frozen=True)
class GameLine:
    """One Army Forge game line we import, and the system it becomes here."""

    system: str  # our system id
    slug: str  # Army Forge gameSystemSlug
    key: str  # Army Forge gameSystemKey (upper case) and, lower-cased, a list's gameSystem
    book_prefix: str  # our book ids start with it


LINES: tuple[GameLine, ...] = (
    GameLine("grimdark-future", "grimdark-future", "GF", "gf"),
    GameLine("age-of-fantasy", "age-of-fantasy", "AOF", "aof"),
    GameLine("age-of-fantasy-regiments", "age-of-fantasy-regiments", "AOFR", "aofr"),
)

# Army Forge's numeric ids for the lines it names only by number in older exports.
_LINE_IDS: Mapping[int, str] = {2: "grimdark-future", 4: "age-of-fantasy", 6: "age-of-fantasy-regiments"}
_KNOWN_OTHER = {  # lines we have no rulebook for, by the names exports use
    "gff": "Grimdark Future: Firefight",
    "grimdark-future-firefight": "Grimdark Future: Firefight",
    "aofs": "Age of Fantasy: Skirmish",
    "age-of-fantasy-skirmish": "Age of Fantasy: Skirmish",
    "ftl": "Warfleets: FTL",
    "warfleets-ftl": "Warfleets: FTL",
    "aofq": "Age of Fantasy: Quest",
    "gfq": "Grimdark Future: Quest",
}


def supported() -> str:
    return ", ".join(f"{line.slug} ({line.key.lower()})" for line in LINES)


def line_of_book(root: Node) -> tuple[GameLine, str]:
    """The game line a book export belongs to, and the source path that said so; raises
    ImportFailed("unsupported_system") naming the line for Firefight, Skirmish and the rest."""
    for field in ("gameSystemSlug", "gameSystemKey", "gameSystemId"):
        if not root.has(field):
            continue
        value = root.value[field]
        path = root.child_path(field)
        number = as_whole(value)
        named = _LINE_IDS.get(number) if number is not None and not isinstance(value, str) else str(value)
        line = next((g for g in LINES if named is not None and named.lower() in (g.slug, g.key.lower())), None)
        if line is None:
            raise unsupported(path, str(value))
        return line, path
    raise ImportFailed(
        "not_army_forge",
        "gameSystemSlug",
        "no game line (gameSystemSlug, gameSystemKey or gameSystemId): not an Army Forge book export",
    )


def line_of_list(code: str, path: str) -> GameLine:
    """The game line of a list's ``gameSystem`` code ("gf", "aof", "aofr")."""
    line = next((g for g in LINES if code.lower() in (g.key.lower(), g.slug)), None)
    if line is None:
        raise unsupported(path, code)
    return line


def unsupported(path: str, named: str) -> ImportFailed:
    title = _KNOWN_OTHER.get(named.lower(), named)
    return ImportFailed(
        "unsupported_system", path, f"{title!r} is a game line with no rulebook here; supported: {supported()}"
    )


def rule_label(rule: Node) -> tuple[str, str | None]:
    """An Army Forge rule reference ``{name, rating}`` -> (name, parameter or None).

    Ratings come as numbers, as text ("02", "Spores [5]") or not at all. Numbers are kept as
    numbers (``"02"`` -> ``"2"``); text keeps its words, with round brackets made square so the
    label ``Name(param)`` reads back unchanged.
    """
    name = _plain_text(rule.text("name")).strip()
    if not name:
        raise ImportFailed("malformed", rule.child_path("name"), "a rule needs a name")
    value = rule.value.get("rating") if isinstance(rule.value, dict) else None
    if value is None or value == "":
        return name, None
    number = as_whole(value)
    if number is not None:
        return name, str(number)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return name, str(value)
    if not isinstance(value, str):
        raise ImportFailed("malformed", rule.child_path("rating"), f"expected a number or text, got {value!r}")
    return name, _plain_text(value).strip() or None


def _plain_text(text: str) -> str:
    return text.replace("(", "[").replace(")", "]")


def label(name: str, param: str | None) -> str:
    return name if param is None else f"{name}({param})"

"""Which rules a book is checked under, and what that changes for a book written for another edition.

Army Forge writes its books for its current (3.x) rules, while a system here checks lists by
the rulebook it was built from (Age of Fantasy is 2.16). A player who imports a book must be
told, wherever the book shows (the import answer, the book's JSON, the builder, the printed
roster), which rules apply and which checks differ; each system says so in the
``imported_books`` block of its ``_system.yaml`` (its edition, the composition rules that are
the same, and the checks that change), so this module stays free of any system's name.

What a player is told of a system's own edition (its title on the builder, the printed roster
and the rules-edition page) is the players' text of ``listbuilder/systems/rules_editions.yaml``:
the system file's edition label and notes are the maintainers' record, and that file's digest
is part of every saved list's rules version, so its wording is not changed for players.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from listbuilder.books.parsing import parse_yaml
from listbuilder.model import ArmyBook, GameSystem

SOURCE_KEY = "army_forge"  # where the importer keeps the export's ids and version (book.extra)
RULES_EDITIONS = Path(__file__).resolve().parent.parent / "systems" / "rules_editions.yaml"


@functools.cache
def _player_editions() -> dict[str, Any]:
    """The players' text of each system's rules edition, read once per process."""
    return dict(parse_yaml(RULES_EDITIONS.read_text(encoding="utf-8")) or {})


def player_edition(system: GameSystem) -> dict[str, Any]:
    """What a player is told of *system*'s rules edition: its entry in ``rules_editions.yaml``,
    or, for a system that has none (one added later, a test's), its name and edition alone."""
    title = system.name if system.edition.lower() in system.name.lower() else f"{system.name} {system.edition}"
    plain = {
        "short": f"Rules: edition {system.edition}",
        "title": title,
        "summary": f"Lists for {system.name} are built and checked by its {system.edition} rulebook.",
        "compared": None,
        "differences": [],
        "same": [],
        "readings": [],
    }
    return {**plain, **_player_editions().get(system.id, {})}


def written_for(book: ArmyBook) -> str | None:
    """The edition of the rules the book was written for (Army Forge's version), if imported."""
    source = book.extra.get(SOURCE_KEY) if isinstance(book.extra, Mapping) else None
    if not isinstance(source, Mapping):
        return None
    version = str(source.get("version") or "").strip()
    return version or "an unknown version"


def edition_note(book: ArmyBook, system: GameSystem) -> dict[str, Any]:
    """What to tell a player about the rules a book is checked under.

    ``other_edition`` is True when the book was written for another edition than the one the
    system checks, False when for the same one or for this project, and None when the system
    cannot tell (its rulebook names no edition Army Forge's versions can be compared with).
    """
    checked = player_edition(system)["title"]  # the players' name of the rules, not a rulebook file's number
    version = written_for(book)
    if version is None:
        return {
            "checked_under": checked,
            "written_for": None,
            "other_edition": False,
            "summary": f"Checked under {checked}.",
            "same": [],
            "changes": [],
        }
    info = system.imported_books
    edition = str(info.get("edition") or "")
    other: bool | None = None
    if edition and version[:1].isdigit():
        other = version.split(".")[0] != edition
    source = f"{system.name} {version} (Army Forge)"
    if other is True:
        summary = f"Written for {source}, another edition; checked under {checked}."
    elif other is False:
        summary = f"Written for {source}; checked under {checked}, the same edition."
    else:
        summary = f"Written for {source}; checked under {checked}, whose text names no edition to compare."
    return {
        "checked_under": checked,
        "written_for": source,
        "other_edition": other,
        "summary": summary,
        "same": list(info.get("same", ())),
        "changes": list(info.get("changes", ())),
    }

"""The unit cards of a saved list version: the printed roster's view model, for the pages that
draw it as a web page (the share page ``/l/<id>`` and the opponent's cards on a player's event
page). One module both import, so neither page module depends on the other."""

from __future__ import annotations

from typing import TYPE_CHECKING

from listbuilder.lists.documents import ListError
from listbuilder.util.lazy import lazy_module

if TYPE_CHECKING:  # annotations only: the roster and the store load on first use
    from listbuilder.books.registry import BookRegistry
    from listbuilder.model import ArmyList
    from listbuilder.printing.rosters import Roster
    from listbuilder.store.database import Database
    from listbuilder.store.lists import SavedVersion

saved = lazy_module("listbuilder.lists.saved")
rosters = lazy_module("listbuilder.printing.rosters")


def version_roster(db: Database, books: BookRegistry, version: SavedVersion, army: ArmyList) -> Roster | None:
    """The roster the version's PDF prints (its unit cards), or None when its book is gone."""
    try:
        return rosters.build_roster(saved.registry_for(db, books, version), army)
    except ListError:
        return None

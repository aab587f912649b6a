"""The only code that talks to the database: saved lists, the book texts they were checked against, events.

One module per concern, sharing one engine (``database``) and one migration chain
(``migrations/versions``):

- ``database``: ``Database(url)``: engine, reading()/writing() transactions, upgrade()
- ``tokens``: random ids and edit tokens; tokens kept only as SHA-256, compared in constant time;
  ``derived_token`` for a player's token, computed again from the list's edit token
- ``texts``: keep_texts / read_texts: book and system files by digest, stored once
- ``books``: books imported through the API (their canonical JSON and their row)
- ``lists``: create_list, save_version, check_editable, lock_list, delete_list, copy_list,
  read_list, read_head, read_version, list_versions_of, versions_page; lock_in and check_owner for other
  concerns that lock a list in their own transaction
- ``events``: create_event, submit (records a submission and locks its list; the same request
  again answers the same submission), read_event, read_as_organiser; tokens kept as hashes
- ``event_players``: how many players an event has, for its cap
- ``rounds``: the day's rounds, tables, results and log, written as one change at a time
- ``handover``: the organiser's role handed to another device: a one-use code for a token of its own
- ``rendered``: event rosters rendered once and kept (each submission's PDF, and the pack)
- ``kept``: an event's standings and rounds computed once per change of its day and kept (their ETag)
- ``urls``: database URLs: the default SQLite file and the spellings hosting platforms hand out
- ``errors``: StoreError and its subclasses, each with the HTTP status it maps to
- ``limits``: the limits the store keeps (versions per list), free of SQLAlchemy for the API's docs

The core never imports the store; the web layer and the CLI do. Saved data is never rewritten
in place: a save adds a version.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Database", "default_url"]


def __getattr__(name: str) -> Any:
    """``Database`` and ``default_url`` on first use: importing the package (for its errors,
    say) must not import SQLAlchemy, which start-up does not need (see listbuilder.util.lazy)."""
    if name in __all__:
        from listbuilder.store import database

        return getattr(database, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

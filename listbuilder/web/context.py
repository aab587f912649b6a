"""What every blueprint shares: the army books and systems served (:func:`registry`), the
database (:func:`database`, opened on first use), the bearer token a request carries, and the
bodies that an API answer and a page both show (a book, an event, its standings, a list's code).

Blueprints take these from here, never from each other, so each blueprint stands on this
module and ``web/http`` alone.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app, render_template, request, url_for

from listbuilder.formats.lists import ArmyListSchema
from listbuilder.lists.canonical import rules_version, verification_code
from listbuilder.lists.documents import book_for
from listbuilder.model import ArmyList
from listbuilder.store.urls import default_url
from listbuilder.util.digest import files_digest, text_digest
from listbuilder.util.lazy import lazy_module

if TYPE_CHECKING:
    from listbuilder.books.registry import BookRegistry
    from listbuilder.model import ArmyBook
    from listbuilder.store.database import Database

store_database = lazy_module("listbuilder.store.database")
day = lazy_module("listbuilder.events.rounds")
kept = lazy_module("listbuilder.store.kept")

REGISTRY_KEY = "listbuilder.registry"
DATABASE_KEY = "listbuilder.database"
DATABASE_URL_KEY = "listbuilder.database_url"

ARMY_LIST = ArmyListSchema()  # the list format, shared by every blueprint that reads or answers a list


def registry() -> BookRegistry:
    """The books and systems this app serves (imported books included)."""
    return current_app.extensions[REGISTRY_KEY]


def database() -> Database:
    """The app's database, opened (and migrated) on first use in this process.

    create_app only records the URL: start-up stays free of SQLAlchemy, and ``wsgi.py`` opens
    the database in gunicorn's master before it forks, so workers find it migrated.
    """
    found = current_app.extensions.get(DATABASE_KEY)
    if found is None:
        found = open_database(current_app)
    return found


_OPENING = threading.Lock()


def open_database(app: Flask) -> Database:
    """Open the database named by the app's DATABASE_URL and bring its schema up to date.

    The pool is emptied afterwards: gunicorn ``--preload`` forks workers from the process that
    calls this in ``wsgi.py``, and a connection must never be shared across a fork.
    """
    with _OPENING:
        found = app.extensions.get(DATABASE_KEY)
        if found is None:
            found = store_database.Database(app.extensions[DATABASE_URL_KEY])
            found.upgrade()
            found.dispose()
            app.extensions[DATABASE_KEY] = found
        return found


def database_url(configured: str | None, instance_path: str) -> str:
    """The one DATABASE_URL rule, shared with ``listbuilder db upgrade``."""
    return configured or os.environ.get("DATABASE_URL") or default_url(instance_path)


def bearer_token() -> str | None:
    """The token of an ``Authorization: Bearer`` header, or None (edit and organiser tokens)."""
    auth = request.authorization
    if auth is None or auth.type.lower() != "bearer":
        return None
    return auth.token or None


def list_code(army: ArmyList, books: Any = None) -> str:
    """The verification code of *army* under *books* (a saved list's books as saved), by default
    the book and system served now."""
    rules, book = book_for(books if books is not None else registry(), army)
    return verification_code(army, rules_version(book, rules.system))


def event_body(event: Any) -> dict[str, Any]:
    """An event as the API answers it and its page shows it."""
    books = registry().books
    return {
        "id": event.id,
        "name": event.name,
        "system": event.system_id,
        "settings": dict(event.settings),
        "books": [
            {
                "book": p.book_id,
                "name": books[p.book_id].name if p.book_id in books else p.book_id,
                "version": p.book_version,
                "rules_version": p.rules_version,
            }
            for p in event.books
        ],
        "deadline": event.deadline,
        "open": event.is_open(dt.datetime.now(dt.timezone.utc)),
        "allow_illegal": event.allow_illegal,
        "created_at": event.created_at,
        "url": url_for("events.Event", event_id=event.id, _external=True),
        "page_url": url_for("event_pages.view", event_id=event.id, _external=True),
    }


def missing_event_page(error: Exception) -> tuple[str, int]:
    """The page for an event its organiser deleted (410) or that never was (404): *error* is the
    store's EventGone or EventNotFound."""
    from listbuilder.store.errors import EventGone

    if isinstance(error, EventGone):
        return render_template("not_found.html", message="This event was deleted by its organiser."), 410
    return render_template(
        "not_found.html", message="There is no event at this address. Check the link you were given."
    ), 404


def scoring_of(event: Any) -> str:
    """How a game of *event* is scored (its rules family's ``tournament_scoring``)."""
    return str(registry().rules[event.system_id].tournament_scoring)


def standings_rows(found: Any) -> dict[str, Any]:
    """The part of the standings that only a change to the day changes (what is kept, as JSON)."""
    books = registry().books
    by_name = {p.name: p for p in day.players(found)}
    rows = []
    for s in day.current_standings(found, scoring_of(found.event)):
        player = by_name[s.player]
        book = found.book_of(player.submission)
        rows.append(
            {
                "rank": s.rank,
                "player": s.player,
                "faction": books[book].name if book in books else book,
                "score": s.score,
                "played": s.played,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
                "byes": s.byes,
                "withdrawn": player.withdrawn,
                "adjustment": s.adjustment,
                "tiebreakers": dict(s.tiebreakers),
            }
        )
    return {
        "rounds": len(found.rounds),
        "tiebreakers": list(day.day_settings(found)["tiebreakers"]),
        "standings": rows,
    }


def day_etag(changes: int, deadline: dt.datetime) -> str:
    """The ETag of what the day answers (standings, a round): the day's count of changes,
    whether the event is open (its deadline passes without a write) and the code and books
    that computed it."""
    is_open = dt.datetime.now(dt.timezone.utc) <= deadline
    return f"{changes}.{int(is_open)}.{answers_code()[:12]}"


def current_day_etag(event_id: str) -> str:
    """The ETag the day's answers have now, from the event's row alone (a poll answered 304 costs one read)."""
    return day_etag(*kept.day_version(database(), event_id))


def kept_standings_body(event_id: str) -> tuple[str, dict[str, Any]]:
    """The standings now and their ETag: computed once per change of the day, then kept."""
    event, changes, rows = kept.kept_answer(database(), event_id, "standings", answers_code(), standings_rows)
    return day_etag(changes, event.deadline), {"event": event_body(event), **rows}


def kept_round_body(event_id: str, number: int) -> tuple[str, dict[str, Any]]:
    """Round *number* as the API shows it, and its ETag: computed once per change of the day,
    then kept (a room of phones fetching the round just paired costs one computation).
    Raises RoundNotFound (404)."""

    def compute(found: Any) -> dict[str, Any]:
        body = day.round_body(found, number, scoring_of(found.event))
        return {**body, "started_at": body["started_at"].isoformat()}

    event, changes, body = kept.kept_answer(database(), event_id, f"round {number}", answers_code(), compute)
    body["started_at"] = dt.datetime.fromisoformat(body["started_at"])
    return f"r{number}.{day_etag(changes, event.deadline)}", body


@functools.cache
def answers_code() -> str:
    """A digest of the code and books the kept answers are computed by: those of another
    release are computed again, never served."""
    root = Path(__file__).resolve().parents[2]
    return text_digest(
        files_digest((root / "listbuilder",), root, "*.py") + files_digest((root / "army_books",), root, "*.yaml")
    )


class BookAnswer:
    """A book as ``GET /books/<id>`` answers it: every field of the book, and its edition note."""

    def __init__(self, book: ArmyBook, edition: dict[str, Any]):
        self.book = book
        self.edition = edition

    def __getattr__(self, name: str) -> Any:
        return getattr(self.book, name)

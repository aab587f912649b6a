"""Army books imported through the API, found again by their id wherever a book id is used.

The edge between the store and the book loader (like ``lists/saved.py`` for saved lists); it
knows no Flask and no SQL. The import itself (convert, then store) is
``listbuilder.importers.stored``.

Every use of a book id (validation, saved lists, rosters, previews, list import, the builder
page) goes through ``registry.books``. :func:`with_imported_books` makes that mapping a
:class:`BookShelf`: the books loaded from folders first, then any book imported into the
database, found by id. That is the one place imported books are looked up; a small
per-process LRU keeps the books loaded lately, keyed by id and text digest.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from listbuilder.books.loader import load_book_text
from listbuilder.books.registry import BookLoadError, BookRegistry
from listbuilder.model import ArmyBook
from listbuilder.store.tokens import is_book_id
from listbuilder.util.lazy import lazy_module
from listbuilder.util.lru import Lru

if TYPE_CHECKING:
    from listbuilder.store.database import Database

stored = lazy_module("listbuilder.store.books")
log = logging.getLogger(__name__)

# Books loaded from the store, by (id, digest). A big imported book is costly to load and to
# keep in memory; a process keeps the ones in use.
LOADED: Lru[tuple[str, str], ArmyBook] = Lru(32)


class ImportedBooks:
    """Finds imported books by id for one registry's systems, loading each once per process."""

    def __init__(self, registry: BookRegistry, database: Callable[[], Database]):
        self.registry = registry
        self.database = database

    def find(self, book_id: str) -> ArmyBook | None:
        """The imported book with this id, or None (no such id, or its system is gone, or its
        text no longer loads under today's book format: logged, answered as unknown)."""
        if not isinstance(book_id, str) or not is_book_id(book_id):
            return None
        db = self.database()
        found = stored.book_key(db, book_id)
        if found is None:
            return None
        system_id, digest = found
        book = LOADED.get((book_id, digest))
        if book is None:
            book = self._load(db, book_id, system_id, digest)
            if book is not None:
                LOADED.put((book_id, digest), book)
        return book

    def _load(self, db: Database, book_id: str, system_id: str, digest: str) -> ArmyBook | None:
        system = self.registry.systems.get(system_id)
        text = stored.read_text(db, digest)
        if system is None or text is None:
            log.warning(
                "imported book %s: %s", book_id, "its system is not served" if system is None else "its text is missing"
            )
            return None
        try:
            return load_book_text(text, system, self.registry.rules.get(system.id), source=f"imported book {book_id}")
        except BookLoadError as exc:
            log.warning("imported book %s no longer loads: %s", book_id, exc)
            return None


class BookShelf(Mapping[str, ArmyBook]):
    """The books a registry serves: those loaded from folders, then imported ones by id.

    Iterating (and ``len``) sees only the listed books, so ``GET /books`` and the home page
    never show an imported book; ``get``, ``[]`` and ``in`` find both kinds.
    """

    def __init__(self, listed: Mapping[str, ArmyBook], find: Callable[[str], ArmyBook | None]):
        self.listed = listed
        self.find = find

    def get(self, key: str, default: Any = None) -> Any:  # the hot path: no KeyError raised
        found = self.listed.get(key)
        if found is None:
            found = self.find(key)
        return default if found is None else found

    def __getitem__(self, key: str) -> ArmyBook:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.listed)

    def __len__(self) -> int:
        return len(self.listed)


def with_imported_books(registry: BookRegistry, database: Callable[[], Database]) -> BookRegistry:
    """*registry* whose ``books`` also finds the books imported into *database* (a function,
    called only when an imported book's id is looked up)."""
    listed = registry.books.listed if isinstance(registry.books, BookShelf) else registry.books
    return replace(registry, books=BookShelf(listed, ImportedBooks(registry, database).find))

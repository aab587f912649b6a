"""An Army Forge book imported through the API: converted whole, then stored under a new id.

The file is converted completely before anything is written, and the book (its canonical
JSON, in ``book_texts``) and its row go in one transaction, so a file that fails anywhere
leaves nothing behind. From then on the book is found by id wherever a book id is looked up
(``listbuilder.books.stored``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from listbuilder.books.registry import BookRegistry
from listbuilder.books.stored import LOADED
from listbuilder.importers.errors import ImportFailed
from listbuilder.model import ArmyBook
from listbuilder.store.tokens import new_book_id
from listbuilder.util.lazy import lazy_module

if TYPE_CHECKING:
    from listbuilder.store.database import Database

stored = lazy_module("listbuilder.store.books")
book_importer = lazy_module("listbuilder.importers.army_forge_book")  # run on the first import, not at start-up


@dataclass(frozen=True)
class ImportedBook:
    """A book just imported: its model (id included) and what the importer has to say."""

    book: ArmyBook
    warnings: list[str]  # rules used but defined nowhere (the preview does not model them)
    undefined_rules: list[str]
    notes: list[str]  # what was left out or guessed, with the place in the source file


def book_text(document: Mapping[str, Any]) -> str:
    """The text an imported book is kept as: its canonical JSON, whose SHA-256 is the digest
    ``books.book_from_data`` gives the same document."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def import_book(db: Database, registry: BookRegistry, data: Any) -> ImportedBook:
    """Convert an Army Forge book export and store it under a new random id.

    Raises ImportFailed (path in the source JSON) before anything is stored.
    """
    book_id = new_book_id()
    converted = book_importer.convert_book(data, registry.systems, source=f"imported book {book_id}", book_id=book_id)
    text = book_text(converted.document)
    if json.loads(text) != converted.document:  # what is stored must load back the same
        raise ImportFailed("invalid_result", "", "the converted book does not read back the same from JSON")
    book = converted.book
    warnings = [problem.message for problem in converted.warnings]
    origin = converted.document.get("extra", {}).get(book_importer.SOURCE_KEY, {})
    stored.store_book(
        db,
        book_id,
        book.system,
        book.name,
        text,
        warnings,
        str(origin.get("uid") or ""),
        str(origin.get("version") or ""),
    )
    LOADED.put((book_id, book.digest), book)
    return ImportedBook(book, warnings, list(book.undefined_rules), list(converted.notes))

"""Army books imported through the API: one row per import, the book's text kept by digest.

Table::

    imported_books  id, system_id, name, book_digest (-> book_texts), warnings (JSON list),
                    source_uid, source_version, created_at

A row is written once, together with its text, in one transaction, and never changed: an id
always names the same book, so a process may keep a loaded book as long as it likes. Nothing
lists the rows; a book is read only by whoever was given its id.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import Column, DateTime, ForeignKey, String, Table, Text, bindparam, insert, select

from listbuilder.store.database import Database, as_utc, metadata, utcnow
from listbuilder.store.texts import keep_texts, read_texts
from listbuilder.util.digest import text_digest

imported_books = Table(
    "imported_books",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("system_id", String(100), nullable=False),
    Column("name", String(200), nullable=False),
    Column("book_digest", String(64), ForeignKey("book_texts.digest"), nullable=False),
    Column("warnings", Text, nullable=False),
    Column("source_uid", String(100), nullable=False),
    Column("source_version", String(100), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


@dataclass(frozen=True)
class ImportedBook:
    """One stored import: which book it is and the digest of its text."""

    id: str
    system_id: str
    name: str
    digest: str
    warnings: Sequence[str]
    source_uid: str
    source_version: str
    created_at: dt.datetime


def store_book(
    db: Database,
    book_id: str,
    system_id: str,
    name: str,
    text: str,
    warnings: Sequence[str],
    source_uid: str = "",
    source_version: str = "",
) -> ImportedBook:
    """Keep *text* (the book's file) and its row in one transaction: both or neither."""
    digest = text_digest(text)
    row = {
        "id": book_id,
        "system_id": system_id,
        "name": name[:200],
        "book_digest": digest,
        "warnings": json.dumps(list(warnings), ensure_ascii=False),
        "source_uid": source_uid[:100],
        "source_version": source_version[:100],
        "created_at": utcnow(),
    }
    with db.writing() as conn:
        keep_texts(conn, {digest: text})
        conn.execute(insert(imported_books), [row])
    return _book(row)


_KEY = select(imported_books.c.system_id, imported_books.c.book_digest).where(imported_books.c.id == bindparam("id"))


def book_key(db: Database, book_id: str) -> tuple[str, str] | None:
    """``(system_id, digest)`` of the imported book with this id, or None: the one read each
    lookup of an imported book makes (straight through the driver, see Database.first_row)."""
    row = db.first_row(_KEY, {"id": book_id})
    return (row[0], row[1]) if row is not None else None


def read_book(db: Database, book_id: str) -> ImportedBook | None:
    """The stored import with this id, or None."""
    with db.single_read() as conn:
        found = conn.execute(select(imported_books).where(imported_books.c.id == book_id)).mappings().first()
    return _book(found) if found is not None else None


def read_text(db: Database, digest: str) -> str | None:
    return read_texts(db, [digest]).get(digest)


def _book(row: Mapping) -> ImportedBook:
    return ImportedBook(
        row["id"],
        row["system_id"],
        row["name"],
        row["book_digest"],
        tuple(json.loads(row["warnings"])),
        row["source_uid"],
        row["source_version"],
        as_utc(row["created_at"]),
    )

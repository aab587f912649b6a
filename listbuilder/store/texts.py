"""Army-book and game-system files as they were when a list was saved, stored once by SHA-256.

A saved version records the digests of the book and system it was checked against; the text
behind each digest lives here (content-addressed, so a book used by ten thousand saves is kept
once, and a text is never changed or removed). When the files on disk move on, the old text
can still be loaded (``books.load_book_text``) to say how the list stood when it was saved.
Imported books (issue 13) can keep their source text here the same way.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping

from sqlalchemy import Column, Connection, DateTime, Engine, String, Table, Text, select

from listbuilder.store.database import Database, insert_or_merge, metadata, utcnow
from listbuilder.util.digest import text_digest

book_texts = Table(
    "book_texts",
    metadata,
    Column("digest", String(64), primary_key=True),
    Column("text", Text, nullable=False),
    Column("stored_at", DateTime(timezone=True), nullable=False),
)

# Digests seen committed in each database: texts are never removed, so a digest found once
# need not be looked up again by this process.
_KNOWN: weakref.WeakKeyDictionary[Engine, set[str]] = weakref.WeakKeyDictionary()


def keep_texts(conn: Connection, texts: Mapping[str, str]) -> None:
    """Store each ``digest -> text`` not stored yet. Raises ValueError if a text does not
    hash to its digest (it would poison every later read of that digest)."""
    known = _KNOWN.setdefault(conn.engine, set())
    wanted = {digest: text for digest, text in texts.items() if digest not in known}
    if not wanted:
        return
    for digest, text in wanted.items():
        if text_digest(text) != digest:
            raise ValueError(f"text does not match its digest {digest[:12]}…")
    present = set(conn.scalars(select(book_texts.c.digest).where(book_texts.c.digest.in_(wanted))))
    known.update(present)
    rows = [{"digest": d, "text": t, "stored_at": utcnow()} for d, t in wanted.items() if d not in present]
    if rows:
        # Two first saves against a new book may race to store it: the second does nothing.
        conn.execute(insert_or_merge(conn, book_texts).on_conflict_do_nothing(index_elements=["digest"]), rows)


def read_texts(db: Database, digests: Iterable[str]) -> dict[str, str]:
    """The texts stored under *digests* (those not stored are simply absent)."""
    wanted = [d for d in digests if d]
    if not wanted:
        return {}
    with db.reading() as conn:
        rows = conn.execute(select(book_texts.c.digest, book_texts.c.text).where(book_texts.c.digest.in_(wanted)))
        return {row.digest: row.text for row in rows}

"""The imported_books table: a book's row and its text stored together, read back by id."""

from __future__ import annotations

from listbuilder.store import books
from listbuilder.store.texts import read_texts
from listbuilder.store.tokens import new_book_id
from listbuilder.util.digest import text_digest


def test_store_book_keeps_row_and_text_together(db):
    book_id = new_book_id()
    text = f'{{"id":"{book_id}","name":"Test"}}'
    stored = books.store_book(
        db, book_id, "grimdark-future", "Test", text, ["rule 'Bane' is defined nowhere"], "uid1", "3.5.2"
    )
    assert stored.digest == text_digest(text)
    assert books.book_key(db, book_id) == ("grimdark-future", stored.digest)
    assert books.read_book(db, book_id) == stored
    assert read_texts(db, [stored.digest]) == {stored.digest: text}


def test_unknown_ids_read_as_none(db):
    assert books.book_key(db, new_book_id()) is None and books.read_book(db, new_book_id()) is None


def test_two_imports_of_the_same_file_share_one_text(db):
    text = '{"same":true}'
    first = books.store_book(db, new_book_id(), "grimdark-future", "A", text, [])
    second = books.store_book(db, new_book_id(), "grimdark-future", "A", text, [])
    assert first.id != second.id and first.digest == second.digest

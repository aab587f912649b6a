"""Loaded books kept between starts (listbuilder.books.cache): used only when the files and the
code are the same, and never read from a folder or file that someone else could have written."""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

import pytest

from listbuilder.books import cache as book_cache
from listbuilder.books import loader as books
from listbuilder.books.loader import load_registry
from tests.books.test_loader import GOOD_UNIT, book, make_folder


@pytest.fixture()
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("LISTBUILDER_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "registry"


def entries(cache: Path) -> list[Path]:
    return sorted(cache.glob("*.pickle"))


def files_never_checked(monkeypatch) -> None:
    """From here on, loading books from their files fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError("the books were loaded from their files")

    monkeypatch.setattr(books, "_load_registry", refuse)


def forge(entry: Path, payload: bytes) -> None:
    """Replace an entry's content, with the digest in front that makes it look intact."""
    entry.write_bytes(hashlib.sha256(payload).digest() + payload)


def test_second_load_comes_from_the_cache_and_equals_the_first(tmp_path, cache, monkeypatch):
    folder = make_folder(tmp_path, book())
    first = load_registry(folder)
    assert len(entries(cache)) == 1
    files_never_checked(monkeypatch)
    again = load_registry(folder)
    assert again.books == first.books and again.systems == first.systems
    assert again.texts == first.texts and again.warnings == first.warnings
    assert type(again.rules["grimdark-future"]) is type(first.rules["grimdark-future"])
    assert (
        again.rules["grimdark-future"] is not first.rules["grimdark-future"]
    )  # rules (and their memos) are never kept


def test_real_books_from_the_cache_equal_the_books_checked_from_their_files(cache, monkeypatch):
    load_registry()
    kept = load_registry()
    monkeypatch.setenv("LISTBUILDER_CACHE", "off")
    checked = load_registry()
    assert kept.books == checked.books and kept.systems == checked.systems and kept.texts == checked.texts


def test_an_edited_book_is_checked_again(tmp_path, cache):
    folder = make_folder(tmp_path, book())
    load_registry(folder)
    (folder / "grimdark-future" / "test.yaml").write_text(book(GOOD_UNIT.replace("size: 10", "size: 5")))
    assert load_registry(folder).books["test"].units[0].size == 5
    assert len(entries(cache)) == 2


def test_a_miss_reads_each_file_once_and_keeps_the_text_its_key_was_made_from(tmp_path, cache, monkeypatch):
    folder = make_folder(tmp_path, book())
    reads: list[Path] = []
    read_text = Path.read_text

    def counted(self, *args, **kwargs):
        if self.suffix == ".yaml":
            reads.append(self)
            if len(reads) > 2:  # an edit landing after the key was made
                return read_text(self, *args, **kwargs).replace("size: 10", "size: 5")
        return read_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", counted)
    loaded = load_registry(folder)
    assert sorted(path.name for path in reads) == ["_system.yaml", "test.yaml"]
    assert loaded.books["test"].units[0].size == 10


def test_an_edited_book_that_is_now_broken_is_refused(tmp_path, cache):
    folder = make_folder(tmp_path, book())
    load_registry(folder)
    (folder / "grimdark-future" / "test.yaml").write_text(book(GOOD_UNIT.replace("size: 10", "size: 0")))
    with pytest.raises(books.BookLoadError):
        load_registry(folder)


def test_changed_code_is_another_key(monkeypatch):
    files = [("army_books/x/_system.yaml", "ab" * 32)]
    before = book_cache.registry_key(files)
    monkeypatch.setattr(book_cache, "code_fingerprint", lambda: "other code")
    assert book_cache.registry_key(files) != before


def test_an_edited_module_is_another_code_fingerprint(tmp_path, monkeypatch):
    module = tmp_path / "listbuilder" / "model" / "__init__.py"
    module.parent.mkdir(parents=True)
    module.write_text("SIZE = 1\n")
    os.utime(module, ns=(1_000_000_000, 1_000_000_000))
    monkeypatch.setattr(book_cache, "PACKAGE", tmp_path / "listbuilder")
    fingerprint = book_cache.code_fingerprint.__wrapped__
    before = fingerprint()
    assert fingerprint() == before
    module.write_text("SIZE = 2\n")  # the same size: told apart by its time
    os.utime(module, ns=(2_000_000_000, 2_000_000_000))
    edited = fingerprint()
    module.write_text("SIZE = 20\n")
    os.utime(module, ns=(2_000_000_000, 2_000_000_000))  # the same time: told apart by its size
    assert len({before, edited, fingerprint()}) == 3


def test_code_fingerprint_covers_every_module_of_the_package():
    sources = {os.path.relpath(p, book_cache.PACKAGE) for p in book_cache._sources(str(book_cache.PACKAGE))}
    assert {
        "model/__init__.py",
        "model/cost.py",
        "books/loader.py",
        "books/checks.py",
        "formats/books.py",
        "systems/armour_hex.py",
    } <= sources


def test_a_torn_entry_is_ignored(tmp_path, cache):
    folder = make_folder(tmp_path, book())
    first = load_registry(folder)
    [entry] = entries(cache)
    entry.write_bytes(entry.read_bytes()[:-100])
    assert load_registry(folder).books == first.books


def test_an_entry_naming_anything_but_book_classes_runs_nothing(tmp_path, cache):
    folder = make_folder(tmp_path, book())
    first = load_registry(folder)
    [entry] = entries(cache)
    marker = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (os.mkdir, (str(marker),))

    forge(entry, pickle.dumps(Payload()))
    assert load_registry(folder).books == first.books
    assert not marker.exists()


def test_an_entry_someone_else_may_write_is_not_read(tmp_path, cache, monkeypatch):
    folder = make_folder(tmp_path, book())
    load_registry(folder)
    [entry] = entries(cache)
    entry.chmod(0o666)
    monkeypatch.setattr(book_cache, "write", lambda *args: None)
    files_never_checked(monkeypatch)
    with pytest.raises(AssertionError, match="loaded from their files"):
        load_registry(folder)


def test_a_folder_someone_else_may_write_is_neither_read_nor_written(tmp_path, cache, monkeypatch):
    folder = make_folder(tmp_path, book())
    load_registry(folder)
    cache.chmod(0o777)
    (folder / "grimdark-future" / "test.yaml").write_text(book(GOOD_UNIT.replace("size: 10", "size: 5")))
    load_registry(folder)
    assert len(entries(cache)) == 1  # the new books were not written there
    files_never_checked(monkeypatch)
    with pytest.raises(AssertionError, match="loaded from their files"):
        load_registry(folder)


def test_old_entries_are_pruned(tmp_path, cache, monkeypatch):
    monkeypatch.setattr(book_cache, "KEEP", 2)
    folder = make_folder(tmp_path, book())
    for size in (1, 2, 3):
        (folder / "grimdark-future" / "test.yaml").write_text(book(GOOD_UNIT.replace("size: 10", f"size: {size}")))
        load_registry(folder)
    assert len(entries(cache)) == 2


def test_no_cache_when_it_is_off(tmp_path, monkeypatch):
    monkeypatch.setenv("LISTBUILDER_CACHE", "off")
    load_registry(make_folder(tmp_path, book()))
    assert not list(tmp_path.rglob("*.pickle"))


def test_pruning_keeps_the_entries_read_last(tmp_path, cache, monkeypatch):
    monkeypatch.setattr(book_cache, "KEEP", 2)
    first, second = make_folder(tmp_path / "a", book()), make_folder(tmp_path / "b", book())
    load_registry(first)
    [entry_a] = entries(cache)
    load_registry(second)
    [entry_b] = set(entries(cache)) - {entry_a}
    os.utime(entry_a, ns=(1, 1))  # written long before b
    os.utime(entry_b, ns=(2, 2))
    load_registry(first)  # read: a is now the entry used last
    (second / "grimdark-future" / "test.yaml").write_text(book(GOOD_UNIT.replace("size: 10", "size: 4")))
    load_registry(second)  # a third entry: the one used longest ago (b) goes
    assert entry_a in entries(cache) and entry_b not in entries(cache)


def test_a_system_folder_added_without_its_system_file_is_noticed(tmp_path, cache):
    folder = make_folder(tmp_path, book())
    load_registry(folder)
    (folder / "no-such-system").mkdir()
    with pytest.raises(books.BookLoadError, match="no folder defines system 'no-such-system'"):
        load_registry(folder)


def test_a_tampered_parsed_yaml_entry_is_parsed_again_with_the_true_cost(tmp_path, cache):
    # Issue 25: editing .cache/army_books/<digest>.json changed a unit's cost from 65 to 1,
    # and the tampered data went on into the loaded-books entry.
    folder = make_folder(tmp_path, book())
    load_registry(folder)
    parsed = [p for p in cache.parent.glob("*.json") if b'"grunts"' in p.read_bytes()]
    assert len(parsed) == 1
    parsed[0].write_bytes(parsed[0].read_bytes().replace(b'"pts": 100', b'"pts": 1'))
    for entry in entries(cache):
        entry.unlink()  # the books are loaded again, from the parsed YAML
    assert load_registry(folder).books["test"].units[0].cost.amounts == {"pts": 100}


def test_cache_folders_are_0700_and_their_files_0600(tmp_path, cache):
    load_registry(make_folder(tmp_path, book()))
    for path in (cache.parent, cache):
        assert path.stat().st_mode & 0o777 == 0o700, path
    kept = [*cache.parent.glob("*.json"), *entries(cache)]
    assert kept and all(p.stat().st_mode & 0o777 == 0o600 for p in kept)

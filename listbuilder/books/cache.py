"""Loaded army books kept between starts, so a new process does not check every book again.

Loading a book runs it through its family's marshmallow schema and the rules' checks: for all
books, the largest share of a start after imports. What comes out depends only on the files'
text and on this package's code, so ``load_registry`` keeps it here (pickled) under a key made
of both:

- the name of each system folder, and of each book and system file with its text's SHA-256;
- the name, size and modification time of every ``.py`` file of the ``listbuilder`` package
  (the test Python itself applies before it trusts a module's bytecode; reading and hashing
  every source at each start cost more than the rest of the key), the Python version, and the
  PyYAML and marshmallow installations (version, or size and time of their files).

Any change to any of them gives another key, so an entry made by other books or other code is
never read (a folder keeps the KEEP entries used last).

Unpickling can run code named in the file, so an entry is read only when all of these hold:

- its folder is ours: owned by this user, writable by no one else (it is made 0700), and so
  is the file (opened without following a symbolic link). Whoever can write there can change
  this package's code as well, which lives beside the default folder;
- its content matches the SHA-256 written in front of it (a torn or altered file is ignored);
- it names no class but the book model's (``listbuilder.model`` and its ``cost``) and ``BookProblem``: a
  restricted Unpickler refuses everything else, so even a forged entry builds only book data.

Otherwise the books are loaded from their files, exactly as without a cache.

The YAML parser's output (``books.parse_yaml``) is kept the same way beside them, as JSON
under the SHA-256 of the YAML text (``read_parsed``/``write_parsed``): the same folder and
file checks and the same digest in front, so an edited entry is parsed again rather than
trusted (it used to be read as it stood: a unit's cost edited from 65 to 1 reached the books).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import stat
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import marshmallow
import yaml

from listbuilder.util.gc_pause import paused_gc

FORMAT = b"listbuilder-books-1"
KEEP = 8  # entries kept per folder: a few book folders (tests, LISTBUILDER_BOOKS) side by side
PACKAGE = Path(__file__).resolve().parent.parent  # the whole listbuilder package
_DIGEST_SIZE = hashlib.sha256().digest_size


def registry_key(files: Iterable[tuple[str, str]]) -> str:
    """The key of the books read from *files*: ``(shown name, SHA-256 of the text)`` in load
    order (``""`` for a folder)."""
    key = hashlib.sha256(FORMAT)
    key.update(code_fingerprint().encode())
    for name, digest in files:
        key.update(f"\0{name}\0{digest}".encode())
    return key.hexdigest()


@cache
def code_fingerprint() -> str:
    """SHA-256 of the package's sources (each one's name, size and modification time), the
    Python version and the parsers' installations."""
    digest = hashlib.sha256(sys.version.encode())
    skip = len(str(PACKAGE))
    for path in sorted(_sources(str(PACKAGE))):
        found = os.stat(path)
        digest.update(f"{path[skip:]}\0{found.st_size}\0{found.st_mtime_ns}\0".encode())  # named within the package
    for module in (yaml, marshmallow):
        found = os.stat(module.__file__ or "")
        digest.update(
            f"{module.__name__} {getattr(module, '__version__', '')} {found.st_size} {found.st_mtime_ns}".encode()
        )
    return digest.hexdigest()


def _sources(folder: str) -> list[str]:
    found = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False) and entry.name != "__pycache__":
                found.extend(_sources(entry.path))
            elif entry.name.endswith(".py"):
                found.append(entry.path)
    return found


def read(folder: Path, key: str) -> Any | None:
    """The books kept under *key* in *folder*, or None (no entry, or one that must not be read)."""
    payload = _read_entry(folder, f"{key}.pickle")
    if payload is None:
        return None
    # thousands of small frozen objects: collecting while they arrive only costs
    with paused_gc():
        try:
            return _BookUnpickler(io.BytesIO(payload)).load()
        except Exception:  # noqa: BLE001 - any unreadable entry means: load from the files
            return None


def write(folder: Path, key: str, books: Any) -> None:
    """Keep *books* under *key* (atomically); a folder we cannot make ours is left alone."""
    try:
        payload = pickle.dumps(books, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return
    if _write_entry(folder, f"{key}.pickle", payload):
        _prune(folder)


def read_parsed(folder: Path, digest: str) -> Any | None:
    """The parsed YAML kept for the text whose SHA-256 is *digest*, or None.

    The same checks as the loaded books: a folder and file of ours, and a payload matching the
    SHA-256 written in front of it, so an edited entry (a unit's cost changed from 65 to 1) is
    ignored and the text parsed again. JSON builds only plain values."""
    payload = _read_entry(folder, f"{digest}.json")
    if payload is None:
        return None
    try:
        return json.loads(payload)
    except ValueError:
        return None


def write_parsed(folder: Path, digest: str, data: Any) -> None:
    """Keep *data* (parsed from the text whose SHA-256 is *digest*) if JSON gives it back
    unchanged (integer keys or dates would not)."""
    try:
        encoded = json.dumps(data)
        if json.loads(encoded) != data:
            return
    except (TypeError, ValueError):
        return
    _write_entry(folder, f"{digest}.json", encoded.encode("utf-8"))


def _read_entry(folder: Path, name: str) -> bytes | None:
    """The payload of entry *name*, if its folder and file are ours and it matches its digest."""
    if not _is_private(folder):
        return None
    try:
        descriptor = os.open(folder / name, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with os.fdopen(descriptor, "rb") as entry:
        if not _is_ours(os.fstat(entry.fileno())):
            return None
        content = entry.read()
        try:
            os.utime(entry.fileno())  # pruning keeps the entries used last
        except OSError:
            pass
    digest, payload = content[:_DIGEST_SIZE], content[_DIGEST_SIZE:]
    return payload if hashlib.sha256(payload).digest() == digest else None


def _write_entry(folder: Path, name: str, payload: bytes) -> bool:
    """Write entry *name* atomically (0600, in a 0700 folder of ours); False if it cannot be."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _is_private(folder):
            return False
        partial = folder / f"{name}.{os.getpid()}.tmp"
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(descriptor, "wb") as entry:
            entry.write(hashlib.sha256(payload).digest() + payload)
        os.replace(partial, folder / name)  # concurrent starts never read half a file
        return True
    except OSError:
        return False  # read-only install, full disk: the books simply load from their files next time


def _prune(folder: Path) -> None:
    """Keep the KEEP entries read or written last."""
    entries = sorted(folder.glob("*.pickle"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
    for old in entries[KEEP:]:
        old.unlink(missing_ok=True)


def _is_private(folder: Path) -> bool:
    try:
        return _is_ours(os.stat(folder, follow_symlinks=False), directory=True)
    except OSError:
        return False


def _is_ours(found: os.stat_result, *, directory: bool = False) -> bool:
    kind = stat.S_ISDIR if directory else stat.S_ISREG
    return kind(found.st_mode) and found.st_uid == os.getuid() and not found.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


# The book model's modules: the package and those of its modules a book holds values of (a
# unit's Cost is pickled as ``listbuilder.model.cost.Cost``).
_MODEL_MODULES = frozenset(("listbuilder.model", "listbuilder.model.cost"))


class _BookUnpickler(pickle.Unpickler):
    """Builds the book model's classes and nothing else."""

    def find_class(self, module: str, name: str) -> Any:
        if module in _MODEL_MODULES or (module, name) == ("listbuilder.books.checks", "BookProblem"):
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"a book cache entry may not name {module}.{name}")

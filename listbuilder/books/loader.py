"""Army-book and system files -> frozen model objects, loaded once, every problem found in one pass.

``load_registry(folder)`` reads ``<folder>/<system>/_system.yaml`` and every other ``*.yaml``
beside it through ``yaml.safe_load`` and the family's marshmallow schema, then checks what a
schema cannot see (ids that must exist, rules that must be in a glossary). Every problem in
every file is collected before raising, so an author fixes a book in one pass. Several folders
may be given (``LISTBUILDER_BOOKS`` holds them, os.pathsep-separated): each is laid out like
``army_books/``, and a system folder without ``_system.yaml`` (imported books, say) uses the
system an earlier folder defined. ``load_system_text`` and ``load_book_text`` run the same steps
on text kept elsewhere (the copy a saved list keeps of the book it was checked against;
imported books, kept as canonical JSON), and the registry keeps each file's text by its
digest for that purpose.

The steps have modules of their own beside this one: ``settings`` (which folders), ``parsing``
(text -> data), ``schemas`` (data -> model objects), ``checks`` (what a schema cannot see),
``lines`` (the line a problem points at) and ``cache`` (parsed books kept between starts).
Raises ``registry.BookLoadError`` listing every problem.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from listbuilder.books import cache as book_cache
from listbuilder.books.checks import BookProblem, book_warnings, check_references
from listbuilder.books.lines import line_of, split_path
from listbuilder.books.parsing import read_mapping
from listbuilder.books.registry import BookLoadError, BookRegistry
from listbuilder.books.schemas import apply_schema
from listbuilder.books.settings import SYSTEM_FILE, cache_folder, default_books_folders
from listbuilder.families import FAMILIES
from listbuilder.model import ArmyBook, GameSystem
from listbuilder.systems.rules import SystemRules, rules_for
from listbuilder.util.digest import text_digest

# Gives a file's text, or None after adding a problem that says why it could not be read.
Reader = Callable[[Path, list[BookProblem]], "str | None"]


def load_registry(folder: Path | str | Sequence[Path | str] | None = None) -> BookRegistry:
    """Load every system and book under *folder* (or each of several folders, in order);
    raises BookLoadError listing all problems. Books loaded before from the same files by
    the same code come from ``listbuilder.books.cache``."""
    if folder is None:
        roots = default_books_folders()
    elif isinstance(folder, (str, Path)):
        roots = [Path(folder)]
    else:
        roots = [Path(f) for f in folder]
    missing = [root for root in roots if not root.is_dir()]
    if missing:
        raise BookLoadError([BookProblem(str(root), "", "army book folder not found") for root in missing])
    system_dirs = [d for root in roots for d in sorted(p for p in root.iterdir() if p.is_dir())]
    kept_in = cache_folder()
    texts = _texts_of(system_dirs) if kept_in is not None else None
    if texts is None:
        return _load_registry(system_dirs)
    # Folders count as well as files: a system folder with no system file is a problem.
    digests = {path: text_digest(text) for path, text in texts.items()}
    listing = [(_show(d), "") for d in system_dirs] + [(_show(path), digest) for path, digest in digests.items()]
    key = book_cache.registry_key(listing)
    kept = book_cache.read(kept_in / "registry", key)
    if kept is not None:
        systems, books, warnings = kept
        by_digest = {digests[path]: text for path, text in texts.items()}
        return BookRegistry(
            systems=systems,
            books=books,
            rules={s.id: rules_for(s) for s in systems.values()},
            texts=by_digest,
            warnings=warnings,
        )
    # The texts the key was made from are the texts loaded: each file is read once, and one
    # edited meanwhile cannot end up stored under its old text's key.
    registry = _load_registry(
        system_dirs, read=lambda path, problems: texts[path] if path in texts else _read_text(path, problems)
    )
    book_cache.write(kept_in / "registry", key, (dict(registry.systems), dict(registry.books), registry.warnings))
    return registry


def _texts_of(system_dirs: list[Path]) -> dict[Path, str] | None:
    """Every system and book file's text, in load order (None if one cannot be read: the
    loader then names the problem)."""
    texts: dict[Path, str] = {}
    for system_dir in system_dirs:
        paths = [system_dir / SYSTEM_FILE] if (system_dir / SYSTEM_FILE).is_file() else []
        paths += [path for path in sorted(system_dir.glob("*.yaml")) if path.name != SYSTEM_FILE]
        for path in paths:  # a folder named like a book cannot be read: the loader names it
            try:
                texts[path] = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                return None
    return texts


def _load_registry(system_dirs: list[Path], read: Reader | None = None) -> BookRegistry:
    """*read* gives a file's text (default: read it from disk, naming a failure as a problem)."""
    read = read or _read_text
    problems: list[BookProblem] = []
    warnings: list[BookProblem] = []
    systems: dict[str, GameSystem] = {}
    books: dict[str, ArmyBook] = {}
    rules: dict[str, SystemRules] = {}
    texts: dict[str, str] = {}
    for system_dir in system_dirs:
        system_file = system_dir / SYSTEM_FILE
        if not system_file.is_file():
            continue  # books only: the system comes from another folder (checked below)
        if system_dir.name in systems:
            problems.append(
                BookProblem(
                    _show(system_file),
                    "",
                    f"system {system_dir.name!r} is already defined by {systems[system_dir.name].source}",
                )
            )
            continue
        system = _load_system(system_file, problems, texts, read)
        if system is None:
            continue
        if system.id != system_dir.name:
            problems.append(
                BookProblem(_show(system_file), "id", f"id {system.id!r} differs from folder name {system_dir.name!r}")
            )
            continue
        systems[system.id] = system
        rules[system.id] = rules_for(system)
    for system_dir in system_dirs:
        system = systems.get(system_dir.name)
        if system is None:
            if not (system_dir / SYSTEM_FILE).is_file():
                problems.append(
                    BookProblem(
                        _show(system_dir / SYSTEM_FILE),
                        "",
                        f"system file missing (no folder defines system {system_dir.name!r})",
                    )
                )
            continue
        for path in sorted(system_dir.glob("*.yaml")):
            if path.name == SYSTEM_FILE:
                continue
            book = _load_book(path, system, rules[system.id], problems, texts, warnings, read)
            if book is None:
                continue
            if book.id in books:
                problems.append(
                    BookProblem(_show(path), "id", f"book id {book.id!r} already used by {books[book.id].source}")
                )
                continue
            books[book.id] = book
    if problems:
        raise BookLoadError(problems)
    return BookRegistry(systems=systems, books=books, rules=rules, texts=texts, warnings=tuple(warnings))


def load_book(path: Path | str, system: GameSystem, rules: SystemRules | None = None) -> ArmyBook:
    """Load one book file for *system* (tests and tools); raises BookLoadError."""
    problems: list[BookProblem] = []
    book = _load_book(Path(path), system, rules or rules_for(system), problems, {})
    if book is None:
        raise BookLoadError(problems)
    return book


def load_system_text(text: str, *, source: str = "<text>") -> GameSystem:
    """A game system from the text of a ``_system.yaml`` kept elsewhere (a saved list's copy of
    the system it was checked against); *source* names it in errors. Raises BookLoadError."""
    problems: list[BookProblem] = []
    system = _system_from_text(text, source, problems)
    if system is None:
        raise BookLoadError(problems)
    return system


def load_book_text(
    text: str, system: GameSystem, rules: SystemRules | None = None, *, source: str = "<text>"
) -> ArmyBook:
    """An army book from its YAML text rather than a file: the same schema and checks as
    :func:`load_registry`, for books kept in the database. Raises BookLoadError."""
    problems: list[BookProblem] = []
    book = _book_from_text(text, source, system, rules or rules_for(system), problems)
    if book is None:
        raise BookLoadError(problems)
    return book


def _show(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _read_text(path: Path, problems: list[BookProblem]) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(BookProblem(_show(path), "", f"cannot read file: {exc}"))
        return None


def _load_system(
    path: Path, problems: list[BookProblem], texts: dict[str, str], read: Reader = _read_text
) -> GameSystem | None:
    if not path.is_file():
        problems.append(BookProblem(_show(path), "", "system file missing"))
        return None
    text = read(path, problems)
    if text is None:
        return None
    system = _system_from_text(text, _show(path), problems)
    if system is not None:
        texts[system.digest] = text
    return system


def _system_from_text(text: str, where: str, problems: list[BookProblem]) -> GameSystem | None:
    data = read_mapping(text, where, problems)
    if data is None:
        return None
    family = data.get("family")
    if family not in FAMILIES:
        problems.append(
            BookProblem(
                where,
                "family",
                f"unknown rules family {family!r}; known: {sorted(FAMILIES)}",
                line_of(text, ["family"]),
            )
        )
        return None
    # Reading a text: books from the cache never need the schemas, so they load here.
    system = apply_schema(FAMILIES[family].part("system_schema"), data, where, text, problems)
    if system is None:
        return None
    local: list[BookProblem] = []
    for name, rule in system.glossary.items():
        for mentioned in rule.mentions:
            if mentioned not in system.glossary:
                local.append(BookProblem(where, f"rules[{name}].mentions", f"mentions unknown rule {mentioned!r}"))
    problems.extend(local)
    return None if local else _with_source(system, where, text)


def _load_book(
    path: Path,
    system: GameSystem,
    rules: SystemRules,
    problems: list[BookProblem],
    texts: dict[str, str],
    warnings: list[BookProblem] | None = None,
    read: Reader = _read_text,
) -> ArmyBook | None:
    text = read(path, problems)
    if text is None:
        return None
    book = _book_from_text(text, _show(path), system, rules, problems, warnings)
    if book is not None:
        texts[book.digest] = text
    return book


def _book_from_text(
    text: str,
    where: str,
    system: GameSystem,
    rules: SystemRules,
    problems: list[BookProblem],
    warnings: list[BookProblem] | None = None,
) -> ArmyBook | None:
    data = read_mapping(text, where, problems)
    return None if data is None else _book_from(data, text, where, system, rules, problems, warnings)


def book_from_data(data: Any, system: GameSystem, source: str, warnings: list[BookProblem] | None = None) -> ArmyBook:
    """A book from already-parsed data (an importer's output) through the same schema and
    checks as a file; raises BookLoadError. ``source`` names it in problems; the digest is
    the SHA-256 of the data as canonical JSON."""
    if not isinstance(data, dict):
        raise BookLoadError([BookProblem(source, "", "a book must be a mapping")])
    problems: list[BookProblem] = []
    book = _book_from(data, None, source, system, rules_for(system), problems, warnings)
    if book is None:
        raise BookLoadError(problems)
    object.__setattr__(
        book, "digest", text_digest(json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
    )
    return book


def _book_from(
    data: dict[str, Any],
    text: str | None,
    source: str,
    system: GameSystem,
    rules: SystemRules,
    problems: list[BookProblem],
    warnings: list[BookProblem] | None,
) -> ArmyBook | None:
    """Schema, cross-reference checks and the system's own checks for one book's data."""
    book = apply_schema(FAMILIES[system.family].part("book_schema"), data, source, text, problems)
    if book is None:
        return None
    local = [
        BookProblem(source, where, message, line_of(text, split_path(where)))
        for where, message in [*check_references(book, system), *rules.check_book(book)]
    ]
    if book.system != system.id:
        local.append(
            BookProblem(
                source,
                "system",
                f"book says system {book.system!r} but lives in {system.id!r}",
                line_of(text, ["system"]),
            )
        )
    problems.extend(local)
    if local:
        return None
    if warnings is not None:
        # No line numbers here: finding them parses the file's node tree, which start-up
        # should not pay for; check-books adds them (with_line) when it prints warnings.
        warnings.extend(
            BookProblem(source, where, message, None, "warning") for where, message in book_warnings(book, system)
        )
    if text is None:
        object.__setattr__(book, "source", source)
        return book
    return _with_source(book, source, text)


def _with_source(obj: Any, where: str, text: str) -> Any:
    """Record where a loaded system or book came from, and a digest of its text."""
    object.__setattr__(obj, "source", where)
    object.__setattr__(obj, "digest", text_digest(text))
    return obj

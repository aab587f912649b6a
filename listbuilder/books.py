"""The only YAML reader: army-book and system files -> frozen model objects, loaded once.

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

Errors::

    BookLoadError            one or more files are broken; .problems lists them all
      problems: [BookProblem(file, path, message, line)]
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import yaml
from marshmallow import ValidationError

from listbuilder import book_cache
from listbuilder.book_checks import BookProblem, book_warnings, check_references
from listbuilder.families import FAMILIES
from listbuilder.model import ArmyBook, GameSystem
from listbuilder.rules import SystemRules, rules_for

# Gives a file's text, or None after adding a problem that says why it could not be read.
Reader = Callable[[Path, list[BookProblem]], "str | None"]

SYSTEM_FILE = "_system.yaml"


class BookLoadError(Exception):
    """Raised when any army-book or system file cannot be loaded; lists every problem."""

    def __init__(self, problems: list[BookProblem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass(frozen=True)
class BookRegistry:
    """Every game system and army book, indexed by id. Built once at start-up.

    ``warnings`` are problems the books load with (rules nothing defines), for check-books.
    """

    systems: Mapping[str, GameSystem]
    books: Mapping[str, ArmyBook]
    rules: Mapping[str, SystemRules] = field(default_factory=dict)
    # The text each system and book was read from, by its digest: saved lists keep a copy, so
    # a list saved against an older book can be checked against that book again later.
    texts: Mapping[str, str] = field(default_factory=dict)
    warnings: tuple[BookProblem, ...] = ()

    def books_of(self, system_id: str) -> list[ArmyBook]:
        return [b for b in self.books.values() if b.system == system_id]


def cache_folder() -> Path | None:
    """Where parsed YAML (as JSON) and loaded books (``registry/``, see ``book_cache``) are kept
    between starts (LISTBUILDER_CACHE; "off" disables both)."""
    configured = os.environ.get("LISTBUILDER_CACHE")
    if configured == "off":
        return None
    return Path(configured) if configured else Path(__file__).resolve().parent.parent / ".cache" / "army_books"


def default_books_folder() -> Path:
    """``army_books/`` beside the package, unless LISTBUILDER_BOOKS points elsewhere (its
    first folder, when it names several)."""
    return default_books_folders()[0]


def default_books_folders() -> list[Path]:
    """The folders LISTBUILDER_BOOKS names (os.pathsep-separated), or ``army_books/``."""
    configured = [part for part in os.environ.get("LISTBUILDER_BOOKS", "").split(os.pathsep) if part]
    return [Path(part) for part in configured] or [Path(__file__).resolve().parent.parent / "army_books"]


def load_registry(folder: Path | str | Sequence[Path | str] | None = None) -> BookRegistry:
    """Load every system and book under *folder* (or each of several folders, in order);
    raises BookLoadError listing all problems. Books loaded before from the same files by
    the same code come from ``listbuilder.book_cache``."""
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


def _read_yaml(text: str, where: str, problems: list[BookProblem]) -> dict[str, Any] | None:
    try:
        data = _json_text(text) if text.startswith("{") else parse_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        reason = getattr(exc, "problem", None) or str(exc)
        problems.append(BookProblem(where, "", f"not valid YAML: {reason}", line))
        return None
    if not isinstance(data, dict):
        problems.append(BookProblem(where, "", "the file must hold a mapping at the top level", 1))
        return None
    return data


def parse_yaml(text: str) -> Any:
    """``yaml.safe_load``, remembered as JSON under the text's SHA-256 to start faster.

    The pure-Python YAML parser needs about half a second for all books; reading the same data
    back from JSON takes a few milliseconds. Any change to a file changes its hash and
    re-parses it; an entry is read only from a folder and file of ours and only if it matches
    the SHA-256 kept with it (``book_cache.read_parsed``), so an edited entry is parsed again.
    Without a writable cache folder the data is simply parsed every time.
    """
    folder = cache_folder()
    digest = text_digest(text)
    if folder is not None:
        kept = book_cache.read_parsed(folder, digest)
        if kept is not None:
            return kept
    data = yaml.safe_load(text)
    if folder is not None:
        book_cache.write_parsed(folder, digest, data)
    return data


_parse_yaml = parse_yaml  # the name tests and older callers use


def _json_text(text: str) -> Any:
    """A book kept as JSON (imported books are stored as their canonical JSON): JSON is YAML
    too, but ``json`` reads it a hundred times faster and needs no cache file per book."""
    try:
        return json.loads(text)
    except ValueError:
        return parse_yaml(text)  # flow-style YAML that is not JSON


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
    data = _read_yaml(text, where, problems)
    if data is None:
        return None
    family = data.get("family")
    if family not in FAMILIES:
        problems.append(
            BookProblem(
                where,
                "family",
                f"unknown rules family {family!r}; known: {sorted(FAMILIES)}",
                _line_of(text, ["family"]),
            )
        )
        return None
    # Reading a text: books from the cache never need the schemas, so they load here.
    system = _apply_schema(FAMILIES[family].part("system_schema"), data, where, text, problems)
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
    data = _read_yaml(text, where, problems)
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
    book = _apply_schema(FAMILIES[system.family].part("book_schema"), data, source, text, problems)
    if book is None:
        return None
    local = [
        BookProblem(source, where, message, _line_of(text, _split_path(where)))
        for where, message in [*check_references(book, system), *rules.check_book(book)]
    ]
    if book.system != system.id:
        local.append(
            BookProblem(
                source,
                "system",
                f"book says system {book.system!r} but lives in {system.id!r}",
                _line_of(text, ["system"]),
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


def text_digest(text: str) -> str:
    """SHA-256 of a book or system file's text: its ``digest`` and the key its copy is kept under."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@cache
def _schema(schema_cls: type) -> Any:
    """One instance per schema class: building one also builds every nested schema, which
    costs more than loading a small book, and books of a family share their schemas."""
    return schema_cls()


def _apply_schema(
    schema_cls: type, data: dict[str, Any], source: str, text: str | None, problems: list[BookProblem]
) -> Any:
    try:
        return _schema(schema_cls).load(data)
    except ValidationError as exc:
        for where, message in flatten_messages(exc.messages):
            problems.append(BookProblem(source, where, message, _line_of(text, _split_path(where))))
        return None


def flatten_messages(messages: Any, prefix: str = "") -> list[tuple[str, str]]:
    """Marshmallow's nested error dict -> ``[("units[3].weapons[0].attacks", "message")]``."""
    out: list[tuple[str, str]] = []
    if isinstance(messages, dict):
        for key, value in messages.items():
            if key == "_schema":
                out.extend(flatten_messages(value, prefix))
                continue
            step = f"[{key}]" if isinstance(key, int) else (f".{key}" if prefix else str(key))
            out.extend(flatten_messages(value, prefix + step))
    elif isinstance(messages, (list, tuple)):
        for message in messages:
            out.extend(flatten_messages(message, prefix))
    else:
        out.append((prefix, str(messages)))
    return out


def _split_path(where: str) -> list[str | int]:
    parts: list[str | int] = []
    for chunk in where.replace("]", "").replace("[", ".").split("."):
        if chunk:
            parts.append(int(chunk) if chunk.isdigit() else chunk)
    return parts


def with_line(problem: BookProblem) -> BookProblem:
    """The problem with the line of its path in its file, when the file can be read."""
    try:
        text = Path(problem.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return problem
    return replace(problem, line=_line_of(text, _split_path(problem.path)))


@lru_cache(maxsize=4)
def _composed(text: str) -> Any:
    """The node tree of one file, composed once however many problems it has."""
    try:
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None


def _line_of(text: str | None, parts: Iterable[str | int]) -> int | None:
    """1-based line of the YAML node at *parts*, or of the deepest ancestor that exists
    (None for data that came from no file).

    Uses the safe composer (node tree only, no object construction) so error messages can
    point at a line; the data itself always comes from ``yaml.safe_load``.
    """
    if text is None:
        return None
    node = _composed(text)
    if node is None:
        return None
    line = node.start_mark.line + 1
    for part in parts:
        if isinstance(node, yaml.MappingNode):
            match = next((v for k, v in node.value if k.value == part), None)
            key = next((k for k, v in node.value if k.value == part), None)
            if match is None:
                break
            line = key.start_mark.line + 1 if key is not None else line
            node = match
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line

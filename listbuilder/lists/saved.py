"""Saved lists checked against the rules: the edge between the store, the army books and validation.

The store keeps each version as a canonical document plus the digests of the book and system
it was checked against. This module turns a version back into an ArmyList and validates it
against the books served now; when a book or system has changed since the save, it also
re-loads the book as it was (from the text the store kept, through the one YAML loader) and
validates against that, so a reader sees both answers. The web API, the pages and (later)
tournament events call these functions; none of them talks SQL.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from listbuilder.books.loader import load_book_text, load_system_text
from listbuilder.books.registry import BookLoadError, BookRegistry
from listbuilder.lists.canonical import canonical_json, rules_version, verification_code
from listbuilder.lists.diff import ListDiff, diff_lists
from listbuilder.lists.documents import ListError, book_for, parse_list
from listbuilder.model import ArmyBook, ArmyList, Cost
from listbuilder.systems.rules import SystemRules, rules_for
from listbuilder.util.lazy import lazy_module
from listbuilder.util.lru import Lru
from listbuilder.validation import ValidationReport

if TYPE_CHECKING:
    from listbuilder.store.database import Database
    from listbuilder.store.lists import RulesRecord, SavedVersion

stored_texts = lazy_module("listbuilder.store.texts")
stored_lists = lazy_module("listbuilder.store.lists")


@dataclass(frozen=True)
class Rules:
    """A system's rules object and one of its books: what a list is validated against."""

    rules: SystemRules
    book: ArmyBook

    @property
    def version(self) -> str:
        return rules_version(self.book, self.rules.system)

    def validate(self, army: ArmyList) -> ValidationReport:
        return self.rules.validate(army, self.book)


@dataclass(frozen=True)
class ToSave:
    """What the store needs to save a list, and the list's report."""

    document_json: str
    rules: RulesRecord
    texts: Mapping[str, str]  # the book and system files by digest
    report: ValidationReport


def to_save(registry: BookRegistry, army: ArmyList) -> ToSave:
    """*army* ready for the store: its canonical JSON, the rules it is checked against with
    their files' text, and its report. Raises ListError (unknown system or book)."""
    system_rules, book = book_for(registry, army)
    rules, texts = rules_record(registry, Rules(system_rules, book))
    return ToSave(canonical_json(army), rules, texts, system_rules.validate(army, book))


def rules_record(registry: BookRegistry, rules: Rules) -> tuple[RulesRecord, dict[str, str]]:
    """How the store names a book and system served now (ids, version label, digests,
    rules_version), and their files' text by digest, to keep beside it."""
    book, system = rules.book, rules.rules.system
    texts = {d: registry.texts[d] for d in (book.digest, system.digest) if d in registry.texts}
    return stored_lists.RulesRecord(system.id, book.id, book.version, book.digest, system.digest, rules.version), texts


@dataclass(frozen=True)
class CheckedVersion:
    """A saved version validated against the books served now and, if they changed, as saved."""

    version: SavedVersion
    army: ArmyList
    report: ValidationReport | None  # against the books served now; None if the book is gone
    current_rules_version: str | None
    report_when_saved: ValidationReport | None  # only when the rules changed since (None if unreadable)

    @property
    def book_changed(self) -> bool:
        return self.current_rules_version != self.version.rules.rules_version

    @property
    def verification_code(self) -> str:
        """The code a roster printed now shows (under the saved rules if the book is gone)."""
        return verification_code(self.army, self.current_rules_version or self.version.rules.rules_version)

    @property
    def verification_code_when_saved(self) -> str:
        return verification_code(self.army, self.version.rules.rules_version)


def check_version(db: Database, registry: BookRegistry, version: SavedVersion) -> CheckedVersion:
    """Validate a saved version now and, when its book or system changed, as it was saved.
    Raises ListError if the stored document no longer parses (a format change)."""
    army = parse_list(version.document)
    current = current_rules(registry, version)
    report = current.validate(army) if current is not None else None
    now = current.version if current is not None else None
    then = None
    if now != version.rules.rules_version:
        saved = rules_when_saved(db, registry, version)
        then = saved.validate(army) if saved is not None else None
    return CheckedVersion(version, army, report, now, then)


def current_rules(registry: BookRegistry, version: SavedVersion) -> Rules | None:
    """The rules and book with the saved ids that this server has now, if any."""
    return served_rules(registry, version.rules)


def served_rules(registry: BookRegistry, record: RulesRecord) -> Rules | None:
    """The rules and book with the ids of *record* that this server has now, if any."""
    system_rules = registry.rules.get(record.system_id)
    book = registry.books.get(record.book_id)
    if system_rules is None or book is None or book.system != record.system_id:
        return None
    return Rules(system_rules, book)


_MISSING: Any = object()  # a snapshot that does not load is kept as None


# Books as saved, re-loaded from their text: loading one costs milliseconds.
_SNAPSHOTS: Lru[tuple[str, str], Rules | None] = Lru(16)


def rules_when_saved(db: Database, registry: BookRegistry, version: SavedVersion) -> Rules | None:
    """The book and system exactly as *version* was saved against them, re-loaded from their
    stored text (kept per process, since loading a book costs milliseconds). None when the
    text was not kept or no longer loads under today's book format."""
    return pinned_rules(db, registry, version.rules)


def pinned_rules(db: Database, registry: BookRegistry, record: RulesRecord) -> Rules | None:
    """The book and system exactly as *record* names them (a saved version's, an event's
    pinned book): the files served now if they are the same, else re-loaded from the stored
    text. None when the text was not kept or no longer loads under today's book format."""
    current = served_rules(registry, record)
    if current is not None and current.version == record.rules_version:
        return current
    key = (record.system_digest, record.book_digest)
    found = _SNAPSHOTS.get(key, _MISSING)
    if found is _MISSING:
        found = _load_snapshot(db, registry, record)
        _SNAPSHOTS.put(key, found)
    return found


def _load_snapshot(db: Database, registry: BookRegistry, record: RulesRecord) -> Rules | None:
    wanted = [record.system_digest, record.book_digest]
    texts = {d: registry.texts[d] for d in wanted if d in registry.texts}
    texts.update(stored_texts.read_texts(db, [d for d in wanted if d not in texts]))
    if not all(d in texts for d in wanted):
        return None
    try:
        system = load_system_text(texts[record.system_digest], source=f"{record.system_id} as saved")
        system_rules = rules_for(system)
        book = load_book_text(texts[record.book_digest], system, system_rules, source=f"{record.book_id} as saved")
    except BookLoadError:
        return None
    return Rules(system_rules, book)


def pricing_rules(db: Database, registry: BookRegistry, version: SavedVersion) -> Rules | None:
    """The rules a version is priced and printed with: today's book if the server still has
    it, else the book as it was saved."""
    return current_rules(registry, version) or rules_when_saved(db, registry, version)


def registry_for(db: Database, registry: BookRegistry, version: SavedVersion) -> BookRegistry:
    """A registry holding the book a saved version prints with (see :func:`pricing_rules`).
    Raises ListError when neither today's book nor the saved copy can be had."""
    if current_rules(registry, version) is not None:
        return registry
    found = rules_when_saved(db, registry, version)
    if found is None:
        raise ListError(
            "unknown_book",
            f"army book {version.rules.book_id!r} is no longer served and its saved copy cannot be loaded",
            {"book": ["unknown"]},
        )
    return registry_of(found)


def registry_of(rules: Rules) -> BookRegistry:
    """A registry holding just one book and its system (a book as saved, or as an event pinned it)."""
    system = rules.rules.system
    return BookRegistry(systems={system.id: system}, books={rules.book.id: rules.book}, rules={system.id: rules.rules})


def diff_versions(db: Database, registry: BookRegistry, before: SavedVersion, after: SavedVersion) -> ListDiff:
    """What changed from *before* to *after*, both priced by :func:`pricing_rules` (so when
    the book still exists, only the list's changes move the points)."""
    sides = []
    for version in (before, after):
        army = parse_list(version.document)
        rules = pricing_rules(db, registry, version)
        report = rules.validate(army) if rules is not None else None
        costs = {key: Cost(entry["cost"]) for key, entry in (report.entries if report is not None else {}).items()}
        sides.append((army, costs, rules.book if rules is not None else None))
    (old, old_costs, old_book), (new, new_costs, new_book) = sides
    return diff_lists(
        old, new, costs_before=old_costs, costs_after=new_costs, book_before=old_book, book_after=new_book
    )

"""The books and systems the service knows, by id, and the error that says why some could not load.

Kept apart from the loader so that code which only reads a registry (validation, rosters,
previews) does not import the YAML reader and the schemas.

Errors::

    BookLoadError            one or more files are broken; .problems lists them all
      problems: [BookProblem(file, path, message, line)]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from listbuilder.books.checks import BookProblem
from listbuilder.model import ArmyBook, GameSystem
from listbuilder.systems.rules import SystemRules


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

"""Reading and validating submitted army lists: the edge between raw JSON and the core.

Errors::

    ListError            the list cannot be validated at all (4xx for the API, exit 2 for the CLI)
      code               "invalid_list" (schema), "unknown_system", "unknown_book", "book_system"
      errors             {"units[2].count": ["not a positive integer"], ...}
"""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError

from listbuilder.books.registry import BookRegistry
from listbuilder.books.schemas import flatten_messages
from listbuilder.formats.lists import ArmyListSchema
from listbuilder.model import ArmyBook, ArmyList
from listbuilder.systems.rules import SystemRules
from listbuilder.validation import ValidationReport

_SCHEMA = ArmyListSchema()


class ListError(Exception):
    """A list that cannot be checked: malformed, or naming a system or book we do not have."""

    def __init__(self, code: str, message: str, errors: dict[str, list[str]] | None = None, status: int = 422):
        super().__init__(message)
        self.code = code
        self.message = message
        self.errors = errors or {}
        self.status = status

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "status": self.status, "message": self.message, "errors": self.errors}


def parse_list(data: Any) -> ArmyList:
    """JSON data -> ArmyList; raises ListError naming every bad field."""
    if not isinstance(data, dict):
        raise ListError("invalid_list", "the list must be a JSON object", {"": ["not an object"]})
    try:
        return _SCHEMA.load(data)
    except ValidationError as exc:
        raise ListError("invalid_list", "the list is malformed", field_errors(exc.messages)) from None


def field_errors(messages: Any) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    for where, message in flatten_messages(messages):
        errors.setdefault(where or "(body)", []).append(message)
    return errors


def book_for(registry: BookRegistry, army: ArmyList) -> tuple[SystemRules, ArmyBook]:
    """The rules and book a list names; raises ListError (404) for unknown or mismatched ids.

    404 like any id that names nothing we have: a book of another system is not among the
    books of the system the list names.
    """
    rules = registry.rules.get(army.system)
    if rules is None:
        raise ListError(
            "unknown_system",
            f"no game system {army.system!r}",
            {"system": [f"unknown; known: {sorted(registry.systems)}"]},
            status=404,
        )
    book = registry.books.get(army.book)
    if book is None:
        known = sorted(b.id for b in registry.books_of(army.system))
        raise ListError(
            "unknown_book",
            f"no army book {army.book!r}",
            {"book": [f"unknown; books for {army.system}: {known}"]},
            status=404,
        )
    if book.system != army.system:
        raise ListError(
            "book_system",
            f"{book.name} is a {book.system} book, not {army.system}",
            {"book": [f"belongs to {book.system}, not {army.system}"]},
            status=404,
        )
    return rules, book


def validate_list(registry: BookRegistry, army: ArmyList) -> ValidationReport:
    rules, book = book_for(registry, army)
    return rules.validate(army, book)

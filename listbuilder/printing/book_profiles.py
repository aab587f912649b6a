"""Every unit of a book as the roster prints it with no upgrades: its stat line and its tables.

The book page (``/books/<id>``) shows these rather than the raw stats of the book file, so a
hex family's speeds, facings and damage tables read as they do on the printed sheet, and a
family's stats come out in the words its sheet (``printing.sheets``) gives them.
"""

from __future__ import annotations

from listbuilder.books.registry import BookRegistry
from listbuilder.lists.documents import book_for, parse_list
from listbuilder.model import ArmyBook
from listbuilder.printing.rosters import Profile, caster_rules, sheet_for, unit_profile


def book_profiles(registry: BookRegistry, book: ArmyBook) -> dict[str, Profile]:
    """Unit id -> its profile as printed with no upgrades; raises ListError for an unknown book."""
    army = parse_list(
        {
            "system": book.system,
            "book": book.id,
            "units": [{"key": f"u{i}", "unit": u.id} for i, u in enumerate(book.units)],
        }
    )
    rules, book = book_for(registry, army)
    system = rules.system
    resolved, _ = rules.resolve(army, book)
    sheet = sheet_for(system)
    casters = caster_rules(system, sheet)
    return {entry.unit.id: unit_profile((entry,), book, system, sheet, casters) for entry in resolved}

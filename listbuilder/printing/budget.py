"""Work budget of a printed roster: how big a list may be before we refuse to lay it out.

WeasyPrint's time grows with the text it lays out, and a list may hold 300 entries with 2000
characters of notes each: such a roster once kept a worker busy for 30 s until gunicorn killed
it. So a roster is measured before any layout and refused with 413, naming the field, when it
is over a budget. No legal list comes near: the largest golden list has 15 entries and prints
on two or three pages (under 300 estimated lines); the line budget allows four times that, the
entry budget ten times.

Errors::

    RosterTooLarge    over MAX_ENTRIES entries, or over MAX_PRINTED_LINES estimated lines
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from marshmallow import fields, validate

from listbuilder.formats.lists import MAX_LIST_UPGRADES, ArmyListSchema, FastNested, ListEntrySchema
from listbuilder.model import ArmyList

if TYPE_CHECKING:
    from listbuilder.printing.rosters import (  # annotations only: rosters loads on first use, this module at start-up
        Profile,
        Roster,
    )

MAX_ENTRIES = 150  # list entries on one roster (a legal 2000-point list has about 15)
MAX_PRINTED_LINES = 1200  # estimated lines of the sheet: about six A4 pages of two columns
CHARS_PER_LINE = 60  # characters in one line of a column at the sheet's 7.5 pt


class RosterTooLarge(Exception):
    """A roster over a work budget: 413 in the API's error shape, ``field`` to blame."""

    status = 413

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": 413,
            "status": "Content Too Large",
            "message": self.message,
            "errors": {self.field: [self.message]},
        }


class RosterListSchema(ArmyListSchema):
    """The list body of the roster endpoints: at most MAX_ENTRIES entries (422 beyond, by schema,
    so the OpenAPI document says so)."""

    units = fields.List(
        FastNested(ListEntrySchema),
        required=True,
        validate=validate.Length(max=MAX_ENTRIES),
        metadata={
            "description": f"the entries (at most {MAX_ENTRIES} on a roster); each key unique, at most {MAX_LIST_UPGRADES} upgrade rows in all"
        },
    )


def check_entries(army: ArmyList) -> None:
    """Refuse a list with more entries than any roster needs, before any rule is resolved."""
    if len(army.units) > MAX_ENTRIES:
        raise RosterTooLarge("units", f"a roster prints at most {MAX_ENTRIES} entries; this list has {len(army.units)}")


def check_roster(roster: Roster) -> None:
    """Refuse a roster whose estimated printed length is over the budget, before layout."""
    lines = printed_lines(roster)
    if lines > MAX_PRINTED_LINES:
        raise RosterTooLarge(
            "units",
            f"the roster would print about {lines} lines, over the {MAX_PRINTED_LINES} a roster may have (long notes or names?)",
        )


def printed_lines(roster: Roster) -> int:
    """A cheap estimate of the sheet's lines: every row, and every text by its wrapped length."""
    lines = 0
    for block in roster.blocks:
        lines += 1 + sum(_profile_lines(p) for p in (block.profile, *block.heroes))
    lines += sum(_wrapped((rule.label, rule.text)) for rule in roster.reference)
    lines += sum(_wrapped((spell.name, spell.text)) for book in roster.spellbooks for spell in book.spells)
    return lines + _wrapped(issue.message for issue in roster.issues) + len(roster.issues)


def _profile_lines(p: Profile) -> int:
    tables = (p.weapons, *p.panels)
    rows = sum(len(t.rows) + 1 for t in tables if t.rows)
    return 2 + rows + _wrapped((p.name, *p.rules, *p.items, *p.upgrades, *p.notes, *(s.name for s in p.spells)))


def _wrapped(texts: Iterable[str]) -> int:
    return -(-sum(len(text) + 2 for text in texts) // CHARS_PER_LINE)

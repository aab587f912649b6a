"""An event's roster pack: every player's roster, one after another, in one PDF.

Each entry is printed by the one roster renderer (``pdf.roster_pdf``, so its cache serves a
pack asked for twice) with the player's name leading the title of the sheet and of every page
header, from the book as the event pinned it and with the event's list settings. The rosters
are then joined page by page, with a bookmark per player, so an organiser can print the pack
or jump to a table's lists.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pypdf import PdfWriter

from listbuilder import events, saved
from listbuilder.books import BookRegistry
from listbuilder.lists import ListError
from listbuilder.pdf import roster_pdf

if TYPE_CHECKING:
    from listbuilder.store.database import Database
    from listbuilder.store.events import Event, Submission


def event_pack(db: Database, registry: BookRegistry, event: Event, submissions: Sequence[Submission], *, paper: str = "a4") -> bytes:
    """The pack of each player's newest submission, in the order players first submitted.
    Raises ListError (409) when nothing was submitted yet, and what checking a list against
    the event raises (``events.check_for_event``)."""
    latest = events.latest_submissions(submissions)
    if not latest:
        raise ListError("empty_event", "nothing to print: no list has been submitted to this event yet", {"event_id": ["no submissions"]}, status=409)
    writer = PdfWriter()
    for submission, _earlier in latest:
        version = saved.stored_lists.read_version(db, submission.list_id, submission.list_version)
        check = events.check_for_event(db, registry, event, version)
        pdf = roster_pdf(saved.registry_of(check.rules), check.army, paper=paper, heading=submission.player)
        first = len(writer.pages)
        writer.append(io.BytesIO(pdf), import_outline=False)
        writer.add_outline_item(title=submission.player, page_number=first)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()

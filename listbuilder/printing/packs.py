"""An event's roster pack: every player's roster, one after another, in one PDF.

Each entry is printed by the one roster renderer (``pdf.roster_pdf``) with the player's name
leading the title of the sheet and of every page header, from the book as the event pinned it
and with the event's list settings. The rosters are joined page by page, with a bookmark per
player, so an organiser can print the pack or jump to a table's lists.

Why rosters are rendered once and kept (``listbuilder.store.rendered``): a submitted list is
locked and a submission never changes, so its roster is fixed the moment it is submitted.
Rendering every roster inside the pack request made a large event's pack outlive the worker
timeout. So the A4 roster is rendered when
the list is submitted (:func:`keep_submitted`, one roster's time added to a submission), and
a pack that still lacks rosters (the other paper size, events older than this, templates
changed since) renders them in slices of a few seconds per request (:func:`render_missing`),
each slice reporting how far it got, until the pack is a plain join of kept PDFs.

The join is kept as well (``rendered.keep_pack``), keyed by the exact submission numbers it
holds: entries only change when a submission arrives, so every download after the first one
following a submission is a read of one stored PDF, with its digest as the ETag.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from listbuilder.books.registry import BookRegistry
from listbuilder.events import submissions as events
from listbuilder.lists import saved
from listbuilder.lists.documents import ListError
from listbuilder.printing import pack_join
from listbuilder.printing.budget import RosterTooLarge
from listbuilder.printing.pdf import roster_pdf
from listbuilder.printing.pdf_cache import renderer
from listbuilder.store import rendered

if TYPE_CHECKING:
    from listbuilder.store.database import Database
    from listbuilder.store.events import Event, Submission

log = logging.getLogger(__name__)

SUBMISSION_PAPER = "a4"  # the paper rendered when a list is submitted (the pack's default)


@dataclass(frozen=True)
class PackProgress:
    """How much of a pack is rendered: ``rendered`` of ``players`` rosters on ``paper``."""

    paper: str
    players: int
    rendered: int

    @property
    def ready(self) -> bool:
        return self.rendered == self.players

    def as_dict(self) -> dict[str, Any]:
        return {"paper": self.paper, "players": self.players, "rendered": self.rendered, "ready": self.ready}


def keep_submitted(db: Database, check: events.EventCheck, submission: Submission) -> None:
    """Render and keep the roster of a submission just recorded. The submission stands
    whatever happens here: a roster that cannot be rendered now is rendered (or refused) when
    a pack asks for it."""
    try:
        _keep(db, check, submission, SUBMISSION_PAPER)
    except RosterTooLarge as error:
        log.info("roster of submission %s/%d is over a work budget: %s", submission.event_id, submission.number, error)
    except Exception:  # the submission is committed: its answer must not become a 500
        log.exception("roster of submission %s/%d not rendered at submission", submission.event_id, submission.number)


def progress(db: Database, event: Event, submissions: Sequence[Submission], paper: str) -> PackProgress:
    """How many of the entries' rosters on *paper* are kept (no rendering)."""
    numbers = _entry_numbers(submissions)
    kept = rendered.rendered_numbers(db, event.id, paper, renderer())
    return PackProgress(paper, len(numbers), sum(1 for n in numbers if n in kept))


def render_missing(
    db: Database, registry: BookRegistry, event: Event, submissions: Sequence[Submission], paper: str, *, seconds: float
) -> PackProgress:
    """Render and keep the entries' missing rosters on *paper*, oldest entry first, until
    *seconds* have been spent (at least one is rendered when any is missing).
    Raises what printing an entry raises (RosterTooLarge, ListError: see ``roster_pdf``)."""
    _check_not_empty(submissions)
    latest = events.latest_submissions(submissions)
    kept = rendered.rendered_numbers(db, event.id, paper, renderer())
    done = sum(1 for s, _ in latest if s.number in kept)
    stop, now_rendered = time.monotonic() + seconds, 0
    for submission, _earlier in latest:
        if submission.number in kept:
            continue
        if now_rendered and time.monotonic() >= stop:
            break
        version = saved.stored_lists.read_version(db, submission.list_id, submission.list_version)
        _keep(db, events.check_for_event(db, registry, event, version), submission, paper)
        done, now_rendered = done + 1, now_rendered + 1
    return PackProgress(paper, len(latest), done)


def kept_digest(db: Database, event: Event, submissions: Sequence[Submission], *, paper: str = "a4") -> str | None:
    """The digest (ETag) of the pack :func:`event_pack` would answer now, when it is kept
    (None when it would be joined first): answers a conditional download without reading it."""
    return rendered.pack_digest(db, _pack_key(event, submissions, paper)) if submissions else None


def event_pack(
    db: Database, event: Event, submissions: Sequence[Submission], *, paper: str = "a4"
) -> rendered.KeptPack:
    """The pack of each player's newest submission, in the order players first submitted:
    the one kept when it holds exactly these entries, else joined from the kept rosters
    (:func:`render_missing` first) and kept. Raises ListError (409) when nothing was submitted
    yet, KeyError when a roster is not kept, pack_join.JoinFailed when the join fails.

    Joined by qpdf (pikepdf): pypdf parsed every object of every roster in Python (each
    embedded font's width table is hundreds of numbers), several times slower. In a child
    process (``pack_join``): qpdf holds this process's lock while it writes the pack."""
    _check_not_empty(submissions)
    key = _pack_key(event, submissions, paper)
    if (kept := rendered.kept_pack(db, key)) is not None:
        return kept
    players = {s.number: s.player for s, _ in events.latest_submissions(submissions)}
    rosters = rendered.kept_pdfs(db, event.id, key.numbers, paper, renderer())
    return rendered.keep_pack(db, key, pack_join.join((players[number], pdf) for number, pdf in rosters))


def _pack_key(event: Event, submissions: Sequence[Submission], paper: str) -> rendered.PackKey:
    return rendered.PackKey(event.id, paper, renderer(), tuple(_entry_numbers(submissions)))


def _keep(db: Database, check: events.EventCheck, submission: Submission, paper: str) -> None:
    pdf = roster_pdf(saved.registry_of(check.rules), check.army, paper=paper, heading=submission.player, cache=None)
    rendered.keep(db, rendered.RosterRef(submission.event_id, submission.number, paper, renderer()), pdf)


def _entry_numbers(submissions: Sequence[Submission]) -> list[int]:
    return [s.number for s, _ in events.latest_submissions(submissions)]


def _check_not_empty(submissions: Sequence[Submission]) -> None:
    if not submissions:
        raise ListError(
            "empty_event",
            "nothing to print: no list has been submitted to this event yet",
            {"event_id": ["no submissions"]},
            status=409,
        )

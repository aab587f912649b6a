"""Event rosters rendered once and kept: the PDF of each submission, per paper size.

Table::

    event_rosters   (event_id, number, paper) -> renderer (the roster templates' version,
                    ``pdf_cache.KEY_DOMAIN``), pdf (the bytes), rendered_at

A submission row never changes and the list it names is locked, so its roster is the same
PDF for as long as the templates stay the same: it is rendered once (when the list is
submitted, or the first time a pack needs it) and an event's roster pack is a join of kept
PDFs instead of hundreds of renders in one request. A row rendered by older templates is
stale: it counts as missing and is replaced when rendered again. Two workers rendering the
same roster at once both render; the first row written stays.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from sqlalchemy import Column, DateTime, ForeignKey, Integer, LargeBinary, PrimaryKeyConstraint, String, Table, delete, select

from listbuilder.store.database import Database, metadata, utcnow

event_rosters = Table(
    "event_rosters", metadata,
    Column("event_id", String(32), ForeignKey("events.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("paper", String(16), nullable=False),
    Column("renderer", String(64), nullable=False),
    Column("pdf", LargeBinary, nullable=False),
    Column("rendered_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("event_id", "number", "paper"),
)


class RosterRef(NamedTuple):
    """Which submission's roster, on which paper, by which templates."""

    event_id: str
    number: int
    paper: str
    renderer: str


def rendered_numbers(db: Database, event_id: str, paper: str, renderer: str) -> set[int]:
    """The submission numbers of *event_id* whose roster on *paper* is kept, rendered by *renderer*."""
    with db.reading() as conn:
        rows = conn.execute(select(event_rosters.c.number).where(
            event_rosters.c.event_id == event_id, event_rosters.c.paper == paper, event_rosters.c.renderer == renderer,
        ))
        return {row.number for row in rows}


def keep(db: Database, ref: RosterRef, pdf: bytes) -> None:
    """Keep the roster *ref* names, replacing one rendered by other templates; when another
    worker kept the same roster meanwhile, theirs stays (both are the same document)."""
    from sqlalchemy.dialects import postgresql, sqlite

    with db.writing() as conn:
        conn.execute(delete(event_rosters).where(
            event_rosters.c.event_id == ref.event_id, event_rosters.c.number == ref.number,
            event_rosters.c.paper == ref.paper, event_rosters.c.renderer != ref.renderer,
        ))
        dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
        conn.execute(dialect.insert(event_rosters).values(
            event_id=ref.event_id, number=ref.number, paper=ref.paper, renderer=ref.renderer, pdf=pdf, rendered_at=utcnow(),
        ).on_conflict_do_nothing(index_elements=["event_id", "number", "paper"]))


def kept_pdfs(db: Database, event_id: str, numbers: Sequence[int], paper: str, renderer: str, *, chunk: int = 50) -> Iterator[tuple[int, bytes]]:
    """The kept rosters of *numbers* in that order, read *chunk* at a time (a 500-player pack
    is never all in memory twice). Raises KeyError naming a number with no roster kept."""
    for start in range(0, len(numbers), chunk):
        wanted = numbers[start:start + chunk]
        with db.reading() as conn:
            rows = conn.execute(select(event_rosters.c.number, event_rosters.c.pdf).where(
                event_rosters.c.event_id == event_id, event_rosters.c.paper == paper,
                event_rosters.c.renderer == renderer, event_rosters.c.number.in_(wanted),
            ))
            found = {row.number: bytes(row.pdf) for row in rows}
        for number in wanted:
            yield number, found[number]
